//! Hostile input, round two (issue 13): patterns that backtrack, rejections that amplify,
//! values that change. Each test asserts the answer, never a timing.

use serde_json::{json, Value};
use tool_input::{ErrorCode, Validator};

fn validator(schema: Value) -> Validator {
    Validator::new(&schema).unwrap()
}

fn codes(validator: &Validator, text: &str) -> Vec<(String, ErrorCode)> {
    match validator.check(text) {
        Ok(_) => Vec::new(),
        Err(rejection) => rejection.errors.iter().map(|e| (e.path.clone(), e.code)).collect(),
    }
}

#[test]
fn backtracking_patterns_are_answered_on_long_strings() {
    let shapes =
        [r"^(\w+\s?)*$", r"^(a+)+$", r"^(a|aa)+$", r"^(.*a){12}$", r"^(a|a?)+$", r"^([a-z]+)*[0-9]$"];
    for shape in shapes {
        let v =
            validator(json!({"type": "object", "properties": {"s": {"type": "string", "pattern": shape}}}));
        let sent = json!({"s": format!("{}!", "a".repeat(48))}).to_string();
        assert_eq!(codes(&v, &sent), vec![("/s".to_owned(), ErrorCode::Pattern)], "{shape}");
    }
    let v = validator(
        json!({"type": "object", "properties": {"s": {"type": "string", "pattern": r"^(\w+\s?)*$"}}}),
    );
    let words = json!({"s": "word ".repeat(20)}).to_string();
    assert!(v.check(words.as_str()).is_ok());
}

#[test]
fn backtracking_pattern_properties_are_answered() {
    let v = validator(json!({
        "type": "object",
        "patternProperties": {r"^(\w+\s?)*$": {"type": "integer"}},
        "additionalProperties": false
    }));
    let key = format!("{}!", "a".repeat(48));
    let sent = json!({ key.clone(): 1 }).to_string();
    assert_eq!(codes(&v, &sent), vec![(format!("/{key}"), ErrorCode::UnknownField)]);
    let sent = json!({ "a b c": "x" }).to_string();
    assert_eq!(codes(&v, &sent), vec![("/a b c".to_owned(), ErrorCode::Type)]);
}

#[test]
fn a_lookaround_pattern_over_its_budget_is_an_error_naming_it() {
    let pattern = r"^(?=(a+)+$)";
    let v = validator(json!({"type": "object", "properties": {"s": {"type": "string", "pattern": pattern}}}));
    let sent = json!({"s": format!("{}b", "a".repeat(64))}).to_string();
    let rejection = v.check(sent.as_str()).unwrap_err();
    assert_eq!(rejection.errors.len(), 1);
    assert_eq!(rejection.errors[0].code, ErrorCode::PatternBudget);
    assert_eq!(rejection.errors[0].code.code(), "pattern_budget");
    assert!(rejection.errors[0].message.contains(pattern), "{}", rejection.errors[0].message);
    // Short strings are still checked, with ECMA-262's answer.
    assert!(v.check(r#"{"s": "aaa"}"#).is_ok());
    assert_eq!(codes(&v, r#"{"s": "aab"}"#), vec![("/s".to_owned(), ErrorCode::Pattern)]);
    // The typed one-pass path and plain validation agree.
    assert!(!v.is_valid(&json!({"s": format!("{}b", "a".repeat(64))})));
}
