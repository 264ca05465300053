//! Errors that cost what valid values cost: a did-you-mean only for the errors reported,
//! none for a value too long to be a misspelling, and patterns without backtracking on the
//! linear engine however large. The sizes are those that took from 6 to 37 seconds (release)
//! before; each test asserts the answer, never a time.

use serde_json::{json, Value};
use tool_input::{ErrorCode, Limits, Validator};

fn validator(schema: Value) -> Validator {
    Validator::new(&schema).unwrap()
}

fn options(count: usize, len: usize) -> Vec<Value> {
    (0..count).map(|i| json!(format!("{i:04}{}", "o".repeat(len - 4)))).collect()
}

#[test]
fn a_long_value_against_long_options_is_answered_without_a_suggestion() {
    for (value_len, count, option_len) in [(4_000_000, 50, 100), (1_000_000, 600, 100)] {
        let v =
            validator(json!({"type": "object", "properties": {"e": {"enum": options(count, option_len)}}}));
        let sent = json!({"e": "o".repeat(value_len)}).to_string();
        let rejection = v.check(sent.as_str()).unwrap_err();
        assert_eq!(rejection.errors().len(), 1);
        let error = &rejection.errors()[0];
        assert_eq!(error.code(), ErrorCode::Enum);
        assert_eq!(error.suggestion(), None);
    }
}

#[test]
fn a_long_unknown_key_gets_no_suggestion() {
    let properties: serde_json::Map<String, Value> =
        (0..600).map(|i| (format!("field_{i:03}_{}", "k".repeat(80)), json!({"type": "string"}))).collect();
    let v = validator(json!({"type": "object", "properties": properties, "additionalProperties": false}));
    let key = "k".repeat(2_000_000);
    let sent = json!({ key: 1 }).to_string();
    let rejection = v.check(sent.as_str()).unwrap_err();
    assert_eq!(rejection.errors()[0].code(), ErrorCode::UnknownField);
    assert_eq!(rejection.errors()[0].suggestion(), None);
    // A short misspelling still gets its suggestion.
    let near = format!("field_007_{}", "k".repeat(79));
    let rejection = v.check(json!({ near: "x" }).to_string().as_str()).unwrap_err();
    assert_eq!(rejection.errors()[0].suggestion(), Some(&json!(format!("field_007_{}", "k".repeat(80)))));
}

#[test]
fn errors_past_the_listed_ones_are_counted() {
    let limits = Limits::default();
    for (count, option_len, values) in [(50, 100, 40_000), (50, 8, 1_000_000)] {
        let v = validator(json!({"type": "object", "properties": {
            "xs": {"type": "array", "items": {"enum": options(count, option_len)}}
        }}));
        let sent = json!({"xs": vec!["b"; values]}).to_string();
        let rejection = v.check(sent.as_str()).unwrap_err();
        assert_eq!(rejection.errors().len(), limits.max_errors);
        assert_eq!(rejection.omitted_errors(), values - limits.max_errors);
        assert!(rejection.errors().iter().all(|error| error.code() == ErrorCode::Enum));
    }
}

#[test]
fn a_large_pattern_without_backtracking_checks_the_value() {
    let v = validator(json!({"type": "object", "properties": {
        "name": {"type": "string", "pattern": r"^\p{Lu}\p{Ll}+(?: \p{Lu}\p{Ll}+){0,50}$"}
    }}));
    assert!(v.check(r#"{"name": "Hello World"}"#).is_ok());
    let rejection = v.check(r#"{"name": "hello world"}"#).unwrap_err();
    assert_eq!(rejection.errors()[0].code(), ErrorCode::Pattern);
}

#[test]
fn a_pattern_too_large_for_the_linear_engine_is_a_schema_error() {
    let schema = json!({"type": "object", "properties": {
        "s": {"type": "string", "pattern": "^(?:a{1000}){1000}$"}
    }});
    let error = Validator::new(&schema).unwrap_err().to_string();
    assert!(error.contains("(?:a{1000}){1000}") && error.contains("MiB"), "{error}");
}
