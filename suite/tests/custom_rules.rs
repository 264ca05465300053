//! `#[tool_input(validate = ...)]`: the tool's own rules, run after the schema checks, their
//! errors in the same rejection with their paths, counted by the Toolbox's retry budget; and
//! the `garde` feature, garde rules as those rules.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use tool_input::calls::{parse_text, CallOptions};
use tool_input::{
    CheckOptions, Conversation, Dialect, ErrorCode, FieldError, OutcomeKind, ToolInput, Toolbox,
};

/// Ship an order.
#[derive(Debug, Deserialize, JsonSchema, ToolInput)]
#[serde(rename_all = "camelCase")]
#[tool_input(validate = rules::shipment)]
struct Ship {
    start_day: u32,
    end_day: u32,
    sku: Option<String>,
    quantity: Option<u32>,
    #[tool_input(sensitive)]
    access_code: String,
    lines: Vec<Line>,
}

#[derive(Debug, Deserialize, JsonSchema)]
struct Line {
    item: String,
    count: u32,
}

mod rules {
    use super::*;

    /// Three rules across fields; every broken one is reported, each at its own path.
    pub fn shipment(ship: &Ship) -> Result<(), Vec<FieldError>> {
        let mut errors = Vec::new();
        if ship.end_day <= ship.start_day {
            errors.push(
                FieldError::custom(format!("must be after `startDay` ({})", ship.start_day))
                    .at("endDay")
                    .with_value(ship.end_day)
                    .with_code(ErrorCode::Range),
            );
        }
        if ship.quantity.is_some() && ship.sku.is_none() {
            errors.push(FieldError::custom("`quantity` needs a `sku`; send both or neither").at("quantity"));
        }
        if ship.access_code.len() != 4 {
            errors.push(
                FieldError::custom("must be 4 characters")
                    .at("accessCode")
                    .with_value(ship.access_code.as_str()),
            );
        }
        for (index, line) in ship.lines.iter().enumerate() {
            if line.count == 0 {
                errors.push(
                    FieldError::custom(format!("`{}` needs a count of at least 1", line.item))
                        .at("lines")
                        .at(index)
                        .at("count")
                        .with_value(0),
                );
            }
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }
}

const GOOD: &str =
    r#"{"startDay": 1, "endDay": 2, "accessCode": "1234", "lines": [{"item": "a", "count": 1}]}"#;
const BAD: &str = r#"{"startDay": "5", "endDay": 2, "quantity": 3, "accessCode": "secret!", "lines": [{"item": "a", "count": 1}, {"item": "b", "count": 0}]}"#;

#[test]
fn rules_pass_and_refuse_with_every_path() {
    assert!(Ship::from_arguments(GOOD).is_ok());
    let rejection = Ship::from_arguments(BAD).unwrap_err();
    let found: Vec<(&str, ErrorCode)> = rejection.errors().iter().map(|e| (e.path(), e.code())).collect();
    assert_eq!(
        found,
        [
            ("/endDay", ErrorCode::Range),
            ("/quantity", ErrorCode::Custom),
            ("/accessCode", ErrorCode::Custom),
            ("/lines/1/count", ErrorCode::Custom),
        ]
    );
    // The sensitive field's value is never echoed, even when the rule asked.
    assert_eq!(rejection.errors()[2].value(), None);
    assert_eq!(rejection.errors()[0].value(), Some("2"));
    // The coercion of `"5"` happened before the rules saw a `u32`; the report keeps nothing
    // of a refused call but its repairs.
    insta::assert_snapshot!(rejection.to_string());
    assert!(!rejection.to_string().contains("secret!"));
}

#[test]
fn rules_run_only_on_arguments_the_schema_accepts() {
    // Schema errors first: the rule cannot run without a typed value, so only these show.
    let rejection = Ship::from_arguments(r#"{"startDay": 5, "endDay": 2}"#).unwrap_err();
    let codes: Vec<ErrorCode> = rejection.errors().iter().map(|e| e.code()).collect();
    assert_eq!(codes, [ErrorCode::Missing, ErrorCode::Missing]);
}

#[test]
fn every_typed_entry_point_runs_the_rules() {
    let options = CheckOptions::default();
    assert!(Ship::from_arguments_with(BAD, &options).is_err());
    assert!(Ship::from_dialect_arguments(Dialect::OpenAiStrict, BAD, &options).is_err());
    let full = tool_input::__private::from_arguments_full::<Ship>(BAD.into(), &options).unwrap_err();
    assert_eq!(full, Ship::from_arguments(BAD).unwrap_err());
    // The one-pass path alone does not run them (it is only the parse), the full pipeline does.
    assert!(tool_input::__private::from_arguments_exact::<Ship>(GOOD.into(), &options).is_some());
    assert!(serde_json::from_str::<tool_input::Args<Ship>>(BAD).is_err());
}

#[test]
fn toolbox_counts_rule_failures_against_the_budget() {
    let toolbox =
        Toolbox::new().with_tool(|ship: Ship| Ok::<_, String>(format!("{} lines", ship.lines.len())));
    let text = format!(r#"<tool_call>{{"name": "ship", "arguments": {BAD}}}</tool_call>"#);
    let calls = parse_text(&text, &CallOptions::new());
    let mut conversation = Conversation::new().with_max_failures(2);
    let first = toolbox.dispatch_in(&mut conversation, &calls.calls[0]);
    assert_eq!(first.kind(), OutcomeKind::Invalid);
    assert!(first.text().contains("- /lines/1/count: `b` needs a count of at least 1"), "{}", first.text());
    assert_eq!(conversation.failures("ship"), 1);
    let second = toolbox.dispatch_in(&mut conversation, &calls.calls[0]);
    assert!(second.budget_spent);
    assert_eq!(toolbox.dispatch_in(&mut conversation, &calls.calls[0]).kind(), OutcomeKind::BudgetSpent);

    let good = parse_text(
        &format!(r#"<tool_call>{{"name": "ship", "arguments": {GOOD}}}</tool_call>"#),
        &CallOptions::new(),
    );
    assert_eq!(toolbox.dispatch(&good.calls[0]).text(), "1 lines");
}

#[test]
fn an_empty_error_list_still_refuses() {
    /// Never accepted.
    #[derive(Debug, Deserialize, JsonSchema, ToolInput)]
    #[tool_input(validate = refuse)]
    struct Nothing {
        #[allow(dead_code)]
        n: u8,
    }
    fn refuse(_: &Nothing) -> Result<(), Vec<FieldError>> {
        Err(Vec::new())
    }
    let rejection = Nothing::from_arguments(json!({"n": 1}).to_string().as_str()).unwrap_err();
    assert_eq!(rejection.errors().len(), 1);
    assert_eq!(rejection.errors()[0].path(), "");
    assert!(rejection.to_string().contains("- (arguments): the arguments break one of the tool's rules"));
}

mod garde_rules {
    use super::*;

    /// Invite people to a meeting.
    ///
    /// (schemars writes garde's `length`, `range`, `pattern`, `email` and `url` into the schema,
    /// so the schema checks catch those before the rules run: the rules here are the ones a
    /// schema cannot say.)
    #[derive(Debug, Deserialize, JsonSchema, ToolInput, garde::Validate)]
    #[serde(rename_all = "camelCase")]
    #[tool_input(validate = tool_input::garde::validate)]
    struct Invite {
        #[garde(ascii)]
        meeting_title: String,
        #[garde(dive)]
        attendees: Vec<Attendee>,
        #[garde(custom(quarter_hours))]
        #[serde(rename = "minutes")]
        duration: u32,
        #[garde(skip)]
        #[allow(dead_code)]
        r#type: String,
    }

    #[derive(Debug, Deserialize, JsonSchema, garde::Validate)]
    struct Attendee {
        #[garde(suffix("@example.com"))]
        email_address: String,
    }

    fn quarter_hours(minutes: &u32, _: &()) -> garde::Result {
        if minutes.is_multiple_of(15) {
            Ok(())
        } else {
            Err(garde::Error::new("must be a multiple of 15 minutes"))
        }
    }

    #[test]
    fn garde_errors_are_field_errors_at_the_names_the_model_sent() {
        let sent = json!({
            "meetingTitle": "Réunion",
            "attendees": [{"email_address": "a@example.com"}, {"email_address": "b@elsewhere.org"}],
            "minutes": "20",
            "type": "call"
        });
        let rejection = Invite::from_arguments(&sent).unwrap_err();
        let mut paths: Vec<&str> = rejection.errors().iter().map(|e| e.path()).collect();
        paths.sort_unstable();
        assert_eq!(paths, ["/attendees/1/email_address", "/meetingTitle", "/minutes"]);
        assert!(rejection.errors().iter().all(|e| e.code() == ErrorCode::Custom), "{rejection:?}");
        let text = rejection.to_string();
        assert!(text.contains("tool `invite`") && text.contains("(3 errors)"), "{text}");
        assert!(text.contains("- /minutes: must be a multiple of 15 minutes"), "{text}");

        let fine = json!({"meetingTitle": "Standup", "attendees": [], "minutes": 15, "type": "call"});
        assert!(Invite::from_arguments(&fine).is_ok());
    }

    #[test]
    fn a_report_maps_on_its_own() {
        let invite = Invite {
            meeting_title: "ok!".into(),
            attendees: Vec::new(),
            duration: 16,
            r#type: String::new(),
        };
        let report = garde::Validate::validate(&invite).unwrap_err();
        let errors = tool_input::garde::field_errors::<Invite>(&report);
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].path(), "/minutes");
    }

    /// Label a parcel: raw identifiers and a flattened field, which garde names as Rust
    /// writes them and the model never sends.
    #[derive(Debug, Deserialize, JsonSchema, ToolInput, garde::Validate)]
    #[tool_input(validate = tool_input::garde::validate)]
    struct Label {
        #[garde(ascii)]
        r#type: String,
        #[garde(ascii)]
        #[serde(rename = "kind")]
        r#mod: String,
        #[garde(dive)]
        #[serde(flatten)]
        address: Address,
        #[garde(dive)]
        parts: Vec<Part>,
    }

    #[derive(Debug, Deserialize, JsonSchema, garde::Validate)]
    struct Address {
        #[garde(ascii)]
        street: String,
    }

    #[derive(Debug, Deserialize, JsonSchema, garde::Validate)]
    struct Part {
        #[garde(ascii)]
        r#ref: String,
    }

    #[test]
    fn raw_identifiers_and_flattened_fields_are_at_the_paths_the_model_sent() {
        let sent =
            json!({"type": "é", "kind": "é", "street": "Straße", "parts": [{"ref": "ok"}, {"ref": "№1"}]});
        let rejection = Label::from_arguments(&sent).unwrap_err();
        let mut paths: Vec<&str> = rejection.errors().iter().map(|e| e.path()).collect();
        paths.sort_unstable();
        // Not `/r#type`, `/r#mod`, `/address/street`, `/parts/1/r#ref`.
        assert_eq!(paths, ["/kind", "/parts/1/ref", "/street", "/type"]);
        assert!(rejection.to_string().contains("- /street: not ascii"), "{rejection}");
    }
}
