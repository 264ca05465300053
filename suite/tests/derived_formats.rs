//! A derived type's formats: schemars writes `format: uuid`, `date`, `date-time` for
//! `uuid::Uuid` and chrono's types and `format: float` for an `f32`; the checker asserts them
//! before serde runs, so every wrong field is reported at once, each at its path, in the
//! engine's words. `#[tool_input(formats = false)]` makes them annotations.

use schemars::JsonSchema;
use serde::Deserialize;
use tool_input::{CoercionKind, ErrorCode, ToolInput};

/// Book a slot.
#[allow(dead_code)]
#[derive(Debug, Deserialize, JsonSchema, ToolInput)]
struct Booking {
    event_id: uuid::Uuid,
    day: chrono::NaiveDate,
    at: chrono::DateTime<chrono::Utc>,
    weight: f32,
    guests: Vec<Guest>,
}

#[allow(dead_code)]
#[derive(Debug, Deserialize, JsonSchema)]
struct Guest {
    badge: uuid::Uuid,
}

/// Book a slot, formats as annotations.
#[allow(dead_code)]
#[derive(Debug, Deserialize, JsonSchema, ToolInput)]
#[tool_input(formats = false)]
struct LooseBooking {
    reference: String,
    #[schemars(extend("format" = "uuid"))]
    event_id: String,
}

#[test]
fn every_wrong_format_is_reported_at_once_before_serde() {
    let rejection = Booking::from_arguments(
        r#"{"event_id": "not-a-uuid", "day": "soon", "at": "2026-13-45T99:00:00Z", "weight": 1e39,
            "guests": [{"badge": "42"}]}"#,
    )
    .unwrap_err();
    let errors: Vec<(&str, ErrorCode)> = rejection.errors().iter().map(|e| (e.path(), e.code())).collect();
    assert_eq!(
        errors,
        [
            ("/event_id", ErrorCode::Format),
            ("/day", ErrorCode::Format),
            ("/at", ErrorCode::Format),
            ("/weight", ErrorCode::Range),
            ("/guests/0/badge", ErrorCode::Format),
        ],
        "{rejection}"
    );
    let message = rejection.to_string();
    assert!(message.contains("expected a UUID such as"), "{message}");
    assert!(message.contains("expected an RFC 3339 date such as 2026-12-01"), "{message}");
    assert!(!message.contains("invalid characters"), "serde's words: {message}");
}

#[test]
fn spellings_of_one_value_are_rewritten_for_a_derived_type() {
    let checked = Booking::from_arguments_with_report(
        r#"{"event_id": "{2eb8aa08-aa98-11ea-b4aa-73b441d16380}", "day": "2026-12-01",
            "at": "2026-12-01 10:00:00Z", "weight": 1.5, "guests": []}"#,
    )
    .unwrap();
    assert_eq!(checked.value.event_id.to_string(), "2eb8aa08-aa98-11ea-b4aa-73b441d16380");
    let kinds: Vec<CoercionKind> = checked.report.coercions.iter().map(|c| c.kind).collect();
    assert_eq!(kinds, [CoercionKind::FormatSpelling, CoercionKind::FormatSpelling]);
}

#[test]
fn formats_false_makes_them_annotations() {
    const { assert!(!LooseBooking::FORMATS) };
    let loose = LooseBooking::from_arguments(r#"{"reference": "r", "event_id": "not-a-uuid"}"#).unwrap();
    assert_eq!(loose.event_id, "not-a-uuid");
    const { assert!(Booking::FORMATS) };
}

/// An `f32` field takes back every value it holds, as serde_json writes it (`f32::MAX` is
/// `3.4028235e38`, a little above its exact value), and refuses what it would read as
/// infinity.
#[test]
fn an_f32_field_takes_every_value_it_holds_as_written() {
    let booking = |weight: &str| {
        Booking::from_arguments(
            format!(
                r#"{{"event_id": "2eb8aa08-aa98-11ea-b4aa-73b441d16380", "day": "2026-12-01",
                    "at": "2026-12-01T10:00:00Z", "weight": {weight}, "guests": []}}"#
            )
            .as_str(),
        )
    };
    for weight in [f32::MAX, f32::MIN, f32::MIN_POSITIVE, -0.0, 1.5] {
        let written = serde_json::to_string(&weight).unwrap();
        let read = booking(&written).unwrap_or_else(|rejection| panic!("{written}: {rejection}"));
        assert_eq!(read.weight.to_bits(), weight.to_bits(), "{written}");
    }
    for spelling in ["3.40282347e+38", "-3.402823466e+38"] {
        assert!(booking(spelling).is_ok(), "{spelling}");
    }
    for beyond in ["3.4028236e38", "-1e39", "1e300"] {
        let rejection = booking(beyond).unwrap_err();
        assert_eq!(
            (rejection.errors()[0].path(), rejection.errors()[0].code()),
            ("/weight", ErrorCode::Range)
        );
        assert!(rejection.to_string().contains("3.4028235e+38"), "{rejection}");
    }
}
