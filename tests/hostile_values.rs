//! Hostile input, round two (issue 13): patterns that backtrack, rejections that amplify,
//! values that change. Each test asserts the answer, never a timing.

use serde_json::{json, Value};
use tool_input::{CheckOptions, ErrorCode, Limits, RawArguments, Validator};

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

/// A call with many wrong enum values, each against fifty options.
fn many_wrong_values(count: usize) -> (Validator, String) {
    let options: Vec<String> = (0..50).map(|i| format!("option_{i}")).collect();
    let v = validator(json!({
        "type": "object",
        "properties": {"items": {"type": "array", "items": {"enum": options}}}
    }));
    let items: Vec<Value> = (0..count).map(|i| json!(format!("wrong_{i}"))).collect();
    (v, json!({ "items": items }).to_string())
}

#[test]
fn a_rejection_lists_at_most_max_errors_and_counts_the_rest() {
    let (v, sent) = many_wrong_values(1000);
    let rejection = v.check(sent.as_str()).unwrap_err();
    assert_eq!(Limits::default().max_errors, 50);
    assert_eq!(rejection.errors.len(), 50);
    assert_eq!(rejection.omitted_errors, 950);
    assert_eq!(rejection.errors[49].path, "/items/49");
    let message = rejection.to_string();
    assert!(message.contains("(1000 errors)"), "{message}");
    assert!(message.ends_with("- … and 980 more errors"), "{message}");
    // The option list of each error is shortened the same way.
    assert!(rejection.errors[0].message.ends_with("… and 30 more"), "{}", rejection.errors[0].message);
    assert_eq!(rejection.errors[0].options.len(), 20);
    // Output is bounded, whatever the count.
    assert!(message.len() < 8 * 1024, "{}", message.len());
}

#[test]
fn max_errors_is_a_limit_of_its_own() {
    let (v, sent) = many_wrong_values(30);
    let limits = Limits { max_errors: 3, ..Limits::default() };
    let options = CheckOptions { limits: Some(limits), ..CheckOptions::default() };
    let rejection = v.check_with(RawArguments::Text(&sent), &options).unwrap_err();
    assert_eq!((rejection.errors.len(), rejection.omitted_errors), (3, 27));
    assert!(rejection.to_string().ends_with("- … and 27 more errors"));
    // One error past the limit is one more error.
    let (v, sent) = many_wrong_values(4);
    let rejection = v.check_with(RawArguments::Text(&sent), &options).unwrap_err();
    assert!(rejection.to_string().ends_with("- … and 1 more error"), "{rejection}");
    // Zero is read as one: a rejection always says what is wrong.
    let limits = Limits { max_errors: 0, ..Limits::default() };
    let options = CheckOptions { limits: Some(limits), ..CheckOptions::default() };
    let rejection = v.check_with(RawArguments::Text(&sent), &options).unwrap_err();
    assert_eq!((rejection.errors.len(), rejection.omitted_errors), (1, 3));
}

#[test]
fn an_error_under_a_union_counts_against_the_same_limit() {
    let v = validator(json!({
        "type": "object",
        "properties": {"v": {"anyOf": [
            {"type": "array", "items": {"enum": ["a", "b"]}},
            {"type": "null"}
        ]}}
    }));
    let items: Vec<Value> = (0..200).map(|i| json!(format!("x{i}"))).collect();
    let sent = json!({ "v": items }).to_string();
    let rejection = v.check(sent.as_str()).unwrap_err();
    assert_eq!(rejection.errors.len(), 50);
    assert_eq!(rejection.omitted_errors, 150);
}
