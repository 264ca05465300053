//! Through the derive, end to end: schemas the model sees and the messages it gets back
//! (insta snapshots), typed values from mangled calls, sensitive fields, residual serde
//! errors.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use tool_input::{CheckOptions, CoercionKind, ErrorCode, Policy, RejectionKind, ToolInput};

#[macro_use]
mod common;

/// Create an order for a customer.
#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
struct CreateOrder {
    /// Customer identifier.
    customer_id: String,
    priority: Priority,
    #[schemars(length(max = 10))]
    tags: Vec<String>,
    items: Vec<Item>,
    ship_by: Option<String>,
    #[serde(default)]
    gift: bool,
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Priority {
    Low,
    Medium,
    High,
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
struct Item {
    #[schemars(regex(pattern = r"^[A-Z]{3}-\d{4}$"))]
    sku: String,
    #[schemars(range(min = 1, max = 1000))]
    quantity: u32,
    note: Option<String>,
}

/// Draw a shape.
#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
#[serde(rename_all = "camelCase")]
struct DrawShape {
    shape: Shape,
    fill_color: Option<Color>,
    #[serde(rename = "z")]
    layer: Option<u8>,
    labels: BTreeMap<String, String>,
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Shape {
    Circle { radius: f64 },
    Rectangle { width: f64, height: f64 },
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
enum Color {
    DarkRed,
    LightBlue,
}

/// Log in to the account.
#[derive(Debug, Deserialize, JsonSchema, ToolInput)]
#[allow(dead_code)] // read through Debug and the report only
struct Login {
    user: String,
    #[tool_input(sensitive)]
    #[schemars(length(min = 8))]
    password: String,
    #[tool_input(sensitive)]
    pin: Option<u16>,
    #[tool_input(strict)]
    attempts: u8,
}

#[test]
fn schemas_the_model_sees() {
    json_snapshot_sorted!("create_order_schema", CreateOrder::schema());
    json_snapshot_sorted!("draw_shape_schema", DrawShape::schema());
    json_snapshot_sorted!("login_schema", Login::schema());
    assert_eq!(CreateOrder::NAME, "create_order");
    assert_eq!(DrawShape::DESCRIPTION, Some("Draw a shape."));
}

#[test]
fn a_mangled_call_becomes_the_typed_value() {
    let raw = "Here you go:\n```json\n{'customer_id': 'C-1', 'priority': 'HIGH', 'tags': '[\"a\", \"b\"]', \
               'items': [{'sku': 'ABC-1234', 'quantity': '3', 'note': None}, {'sku': 'XYZ-0001', 'quantity': 2.0}], 'gift': 'True',}\n```";
    let checked = CreateOrder::from_arguments_with_report(raw).unwrap();
    assert_eq!(
        checked.value,
        CreateOrder {
            customer_id: "C-1".into(),
            priority: Priority::High,
            tags: vec!["a".into(), "b".into()],
            items: vec![
                Item { sku: "ABC-1234".into(), quantity: 3, note: None },
                Item { sku: "XYZ-0001".into(), quantity: 2, note: None },
            ],
            ship_by: None,
            gift: true,
        }
    );
    let coercions: Vec<(&str, CoercionKind)> =
        checked.report.coercions.iter().map(|c| (c.path.as_str(), c.kind)).collect();
    // In key order, in every build (the model sent them in another).
    insta::assert_debug_snapshot!("create_order_coercions", coercions);
    assert!(!checked.report.repairs.is_empty());
}

#[test]
fn tagged_enums_options_and_renames() {
    let shape = DrawShape::from_arguments(
        r#"{"shape": {"kind": "Rectangle", "width": "2", "height": 3}, "fillColor": "dark_red", "z": 2.0, "labels": {"a": "b"}}"#,
    )
    .unwrap();
    assert_eq!(shape.shape, Shape::Rectangle { width: 2.0, height: 3.0 });
    assert_eq!(shape.fill_color, Some(Color::DarkRed));
    assert_eq!(shape.layer, Some(2));
    let rejection =
        DrawShape::from_arguments(r#"{"shape": {"kind": "circle", "radius": "big"}, "fillColor": "purple", "z": 300, "labels": {"a": 1}, "layer": 1}"#)
            .unwrap_err();
    // Properties listed in the order the type declares them, in every build.
    insta::assert_snapshot!("draw_shape_rejection", rejection);
    let paths: Vec<&str> = rejection.errors().iter().map(|e| e.path()).collect();
    // In the order the model wrote them.
    assert_eq!(paths, ["/shape/radius", "/fillColor", "/z", "/labels/a", "/layer"]);
}

#[test]
fn rejection_messages() {
    let rejection = CreateOrder::from_arguments(
        r#"{"customer_id": "C-1", "priority": "urgent", "tags": [], "items": [{"sku": "TRV-456", "quantity": 0}, {"sku": "FFN-0209", "qty": 2}], "shipBy": "2026-12-01"}"#,
    )
    .unwrap_err();
    assert_eq!(rejection.kind(), RejectionKind::Invalid);
    // Properties listed in the order the types declare them, in every build.
    insta::assert_snapshot!("create_order_rejection", rejection);
    insta::assert_json_snapshot!("create_order_rejection_errors", rejection.errors());

    for (name, raw) in [
        ("parse", "{\"customer_id\": \"C-1\" \"priority\": }"),
        ("truncated", "{\"customer_id\": \"C-1\", \"tags\": [\"a\", \"b"),
        ("not_object", "[\"C-1\", \"high\"]"),
    ] {
        let rejection = CreateOrder::from_arguments(raw).unwrap_err();
        assert_eq!(rejection.kind().code(), name);
        insta::assert_snapshot!(format!("create_order_{name}"), rejection);
    }
}

#[test]
fn a_huge_bad_value_is_not_echoed_back() {
    let huge = "x".repeat(50_000);
    let raw = json!({"customer_id": "C-1", "priority": huge, "tags": [], "items": []}).to_string();
    let rejection = CreateOrder::from_arguments(raw.as_str()).unwrap_err();
    let text = rejection.to_string();
    assert!(text.len() < 1_000, "{} bytes", text.len());
    assert!(text.contains("(50002 characters)"), "{text}");
}

#[test]
fn sensitive_values_never_appear() {
    let secret = "hunter2";
    // Text, not `json!(..).to_string()`: a `Value`'s keys come out sorted in one build and as
    // written in another, and the errors follow the order the keys were sent.
    let raw =
        format!(r#"{{"user": "ada", "password": "{secret}", "pin": "hunter2", "attempts": 1, "extra": 1}}"#);
    let rejection = Login::from_arguments(raw.as_str()).unwrap_err();
    let rendered =
        format!("{rejection}\n{rejection:?}\n{}", serde_json::to_string(&rejection.errors()).unwrap());
    assert!(!rendered.contains(secret), "{rendered}");
    let mut codes: Vec<(&str, ErrorCode)> = rejection.errors().iter().map(|e| (e.path(), e.code())).collect();
    codes.sort_unstable();
    assert_eq!(
        codes,
        [("/extra", ErrorCode::UnknownField), ("/password", ErrorCode::Length), ("/pin", ErrorCode::Type)]
    );
    insta::assert_snapshot!("login_rejection", rejection);

    // Coercions of sensitive values are recorded without the values.
    let checked = Login::from_arguments_with_report(
        r#"{"user": "ada", "password": "correct horse", "pin": "1234", "attempts": 1}"#,
    )
    .unwrap();
    assert_eq!(checked.value.pin, Some(1234));
    let coercion = &checked.report.coercions[0];
    assert_eq!(
        (coercion.path.as_str(), coercion.from.as_deref(), coercion.to.as_deref()),
        ("/pin", None, None)
    );
    assert!(!format!("{:?}", checked.report).contains("1234"));
}

#[test]
fn strict_fields_are_not_coerced() {
    let rejection = Login::from_arguments(r#"{"user": "ada", "password": "correct horse", "attempts": "1"}"#)
        .unwrap_err();
    assert_eq!(rejection.errors()[0].path(), "/attempts");
    assert_eq!(rejection.errors()[0].code(), ErrorCode::Type);
    // The whole call can be made strict too.
    let strict = CheckOptions::new().with_policy(Policy::Strict);
    let rejection = CreateOrder::from_arguments_with(
        r#"{"customer_id": "C", "priority": "High", "tags": [], "items": []}"#,
        &strict,
    )
    .unwrap_err();
    assert_eq!(rejection.errors()[0].code(), ErrorCode::Enum);
}

/// Serde can refuse what the schema allows (here: a u8 range the schema states, checked by
/// us; and an `f64` field given a huge integer is fine). A residual serde error still gets
/// a path.
#[derive(Debug, Deserialize, JsonSchema, ToolInput)]
#[allow(dead_code)] // only its rejection is tested
struct Schedule {
    #[serde(deserialize_with = "weekday")]
    day: String,
}

fn weekday<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
    let day = String::deserialize(deserializer)?;
    if ["mon", "tue", "wed", "thu", "fri"].contains(&day.as_str()) {
        Ok(day)
    } else {
        Err(serde::de::Error::custom(format!("`{day}` is not a weekday")))
    }
}

#[test]
fn residual_serde_errors_have_a_path() {
    let rejection = Schedule::from_arguments(r#"{"day": "sun"}"#).unwrap_err();
    assert_eq!(rejection.kind(), RejectionKind::Invalid);
    assert_eq!(rejection.errors()[0].path(), "/day");
    assert_eq!(rejection.errors()[0].code(), ErrorCode::Deserialize);
    assert!(rejection.to_string().contains("`sun` is not a weekday"));
}

/// Constraints written with `#[validate]` or `#[garde]` (read by schemars) are in the schema
/// and enforced; untagged enums and flattened structs come out as schemars writes them.
#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
struct SendInvite {
    #[validate(email, length(max = 40))]
    email: String,
    #[garde(range(min = 1, max = 30))]
    days_valid: u8,
    target: Target,
    #[serde(flatten)]
    audit: Audit,
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(untagged)]
enum Target {
    Team { team_id: u32 },
    Person { name: String },
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
struct Audit {
    reason: String,
}

#[test]
fn validate_garde_untagged_and_flatten() {
    json_snapshot_sorted!("send_invite_schema", SendInvite::schema());
    let invite = SendInvite::from_arguments(
        r#"{"email": "a@b.c", "days_valid": "7", "target": {"team_id": "12"}, "reason": "onboarding"}"#,
    )
    .unwrap();
    assert_eq!(invite.days_valid, 7);
    assert_eq!(invite.target, Target::Team { team_id: 12 });
    assert_eq!(invite.audit.reason, "onboarding");
    let rejection = SendInvite::from_arguments(
        r#"{"email": "someone-with-a-very-long-address@example.com", "days_valid": 31, "target": {"name": 5}, "why": "x"}"#,
    )
    .unwrap_err();
    let codes: Vec<(&str, ErrorCode)> = rejection.errors().iter().map(|e| (e.path(), e.code())).collect();
    // In the order the model wrote them; the missing one after what was sent of its object.
    assert_eq!(
        codes,
        [
            ("/email", ErrorCode::Length),
            ("/days_valid", ErrorCode::Range),
            ("/target/name", ErrorCode::Type),
            ("/why", ErrorCode::UnknownField),
            ("/reason", ErrorCode::Missing),
        ]
    );
}

#[test]
fn limits_are_configurable_and_distinct() {
    use tool_input::Limits;
    let small = CheckOptions::new().with_limits(Limits::default().with_max_bytes(64));
    let long =
        json!({"customer_id": "x".repeat(100), "priority": "low", "tags": [], "items": []}).to_string();
    let rejection = CreateOrder::from_arguments_with(long.as_str(), &small).unwrap_err();
    assert_eq!(rejection.kind(), RejectionKind::TooLarge);
    let shallow = CheckOptions::new().with_limits(Limits::default().with_max_depth(2));
    let nested = r#"{"customer_id": "C", "priority": "low", "tags": [], "items": [{"sku": "ABC-1234", "quantity": 1}]}"#;
    let rejection = CreateOrder::from_arguments_with(nested, &shallow).unwrap_err();
    assert_eq!(rejection.kind(), RejectionKind::TooDeep);
    // The same limit holds for arguments that arrive already parsed.
    let value: serde_json::Value = serde_json::from_str(nested).unwrap();
    let rejection = CreateOrder::from_arguments_with(&value, &shallow).unwrap_err();
    assert_eq!(rejection.errors()[0].code(), ErrorCode::TooDeep);
    // A string past the limit is its own error, at its path, on both paths (exact text, and
    // a call that needs coercion).
    let short = CheckOptions::new().with_limits(Limits::default().with_max_string_bytes(8));
    for raw in [
        r#"{"customer_id": "C-123456789", "priority": "low", "tags": [], "items": []}"#,
        r#"{"customer_id": "C-123456789", "priority": "LOW", "tags": [], "items": []}"#,
    ] {
        let rejection = CreateOrder::from_arguments_with(raw, &short).unwrap_err();
        let codes: Vec<(&str, ErrorCode)> = rejection.errors().iter().map(|e| (e.path(), e.code())).collect();
        assert_eq!(codes, [("/customer_id", ErrorCode::TooLong)], "{raw}");
    }
    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    let raw = format!(r#"{{"customer_id": "C", "priority": "low", "tags": {deep}, "items": []}}"#);
    assert_eq!(CreateOrder::from_arguments(raw.as_str()).unwrap_err().kind(), RejectionKind::TooDeep);
}

/// The string limit holds inside a free-form field too, which no subschema below it
/// describes: as text (the one pass leaves it to the full path, which names it) and as a
/// value already parsed.
#[test]
fn the_string_limit_holds_inside_a_free_form_field() {
    use tool_input::Limits;
    #[derive(Debug, Deserialize, JsonSchema, ToolInput)]
    #[allow(dead_code)]
    struct Annotate {
        label: String,
        metadata: serde_json::Value,
    }
    let short = CheckOptions::new().with_limits(Limits::default().with_max_string_bytes(8));
    let raw = r#"{"label": "ok", "metadata": {"notes": ["fine", "much longer than eight"]}}"#;
    let rejection = Annotate::from_arguments_with(raw, &short).unwrap_err();
    let codes: Vec<(&str, ErrorCode)> = rejection.errors().iter().map(|e| (e.path(), e.code())).collect();
    assert_eq!(codes, [("/metadata/notes/1", ErrorCode::TooLong)]);
    let value: serde_json::Value = serde_json::from_str(raw).unwrap();
    let rejection = Annotate::from_arguments_with(&value, &short).unwrap_err();
    assert_eq!(rejection.errors()[0].path(), "/metadata/notes/1");
    let fits = r#"{"label": "ok", "metadata": {"notes": ["fine"]}}"#;
    assert!(Annotate::from_arguments_with(fits, &short).is_ok());
}
