//! Exact calls take a one-pass path (typed deserialization checked against the schema on
//! the way); everything else takes the full path. The two must agree on every call: same
//! value, same report, same rejection.

mod common;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};
use tool_input::{CheckOptions, Policy, ToolInput};

/// The Rust type of the workloads' create_order.schema.json (suite/tests/common/workloads.rs).
#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
struct CreateOrder {
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

/// Exercises what the one-pass path handles and what it hands over: options of structs and
/// enums, maps, nested defaults, sensitive fields, tagged enums.
#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
struct Mixed {
    #[tool_input(sensitive)]
    #[serde(default = "secret")]
    token: String,
    inner: Option<Inner>,
    level: Option<Priority>,
    labels: std::collections::BTreeMap<String, u8>,
    shape: Option<Shape>,
    #[serde(default)]
    ratio: f64,
}

fn secret() -> String {
    "s3cret".into()
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
struct Inner {
    #[serde(default = "three")]
    n: i32,
    #[schemars(length(min = 1))]
    name: String,
}

fn three() -> i32 {
    3
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Shape {
    Dot,
    Circle { r: f64 },
}

fn agree<T: ToolInput + PartialEq + std::fmt::Debug>(raw: &str) {
    agree_with::<T>(raw, &CheckOptions::default());
}

fn agree_with<T: ToolInput + PartialEq + std::fmt::Debug>(raw: &str, options: &CheckOptions) {
    let options = *options;
    let fast = T::from_arguments_with(raw, &options);
    let full = tool_input::__private::from_arguments_full::<T>(raw.into(), &options);
    match (&fast, &full) {
        (Ok(a), Ok(b)) => {
            assert_eq!(a.value, b.value, "{raw}");
            let mut fast_coercions = a.report.coercions.clone();
            let mut full_coercions = b.report.coercions.clone();
            fast_coercions.sort_by(|x, y| x.path.cmp(&y.path));
            full_coercions.sort_by(|x, y| x.path.cmp(&y.path));
            assert_eq!(fast_coercions, full_coercions, "{raw}");
            assert_eq!(a.report.repairs, b.report.repairs, "{raw}");
        }
        (Err(a), Err(b)) => assert_eq!(a, b, "{raw}"),
        _ => panic!("the paths disagree on {raw}:\nfast: {fast:?}\nfull: {full:?}"),
    }
}

#[test]
fn the_paths_agree_on_clean_and_invalid_calls() {
    let dir = common::bench_data_dir();
    for file in ["clean.jsonl", "invalid.jsonl"] {
        for case in common::read_jsonl(&dir.join(file)).iter().step_by(7) {
            agree::<CreateOrder>(case["raw"].as_str().unwrap());
        }
    }
}

#[test]
fn exact_calls_take_the_one_pass_path() {
    let dir = common::bench_data_dir();
    let options = CheckOptions::default();
    for file in ["clean.jsonl", "large.jsonl"] {
        for case in common::read_jsonl(&dir.join(file)).iter().step_by(3) {
            let raw = case["raw"].as_str().unwrap();
            assert!(
                tool_input::__private::from_arguments_exact::<CreateOrder>(raw.into(), &options).is_some(),
                "{raw}"
            );
        }
    }
    let exact = json!({"inner": {"name": "a"}, "level": "low", "labels": {"x": 1}, "token": "t"}).to_string();
    assert!(tool_input::__private::from_arguments_exact::<Mixed>(exact.as_str().into(), &options).is_some());
}

#[test]
fn the_paths_agree_on_edge_cases() {
    let cases = [
        json!({"inner": {"name": "a"}, "labels": {}}),
        json!({"inner": {"name": "a", "n": 1}, "level": "low", "labels": {"x": 1}, "token": "t"}),
        json!({"inner": null, "level": null, "labels": {"x": 255}, "ratio": 1.5}),
        json!({"inner": {"name": ""}, "labels": {}}),
        json!({"labels": {"x": 256}}),
        json!({"labels": {"x": 1.0}}),
        json!({"labels": {}, "level": "High"}),
        json!({"labels": {}, "shape": {"kind": "dot"}}),
        json!({"labels": {}, "shape": {"kind": "circle", "r": 2}}),
        json!({"labels": {}, "extra": 1}),
        json!({"labels": {}, "token": 5}),
        json!({"labels": {}, "ratio": "2.5"}),
        json!({}),
        json!({"labels": {}, "inner": {"name": "a", "name": "b"}}),
    ];
    for case in cases {
        agree::<Mixed>(&case.to_string());
        // Duplicate keys cannot be built with json!, so also as text.
    }
    agree::<Mixed>(r#"{"labels": {}, "inner": {"name": "a", "name": "b"}}"#);
    agree::<Mixed>(r#"{"labels": {}, "token": "a", "token": "b"}"#);
    agree::<Mixed>(r#"  {"labels": {}}  "#);
    agree::<Mixed>(r#"{"labels": {}} trailing"#);
    agree::<Mixed>("{\"labels\": {\"\\u0078\": 1}}");
    agree::<CreateOrder>(
        r#"{"customer_id": "C", "priority": "low", "tags": [], "items": [{"sku": "ABC-1234", "quantity": 3.0}]}"#,
    );
    agree::<CreateOrder>(
        r#"{"customer_id": "C", "priority": "low", "tags": [], "items": [], "ship_by": null}"#,
    );
}

/// Text that is not strict JSON is parsed once; when its only mistakes were syntax, the
/// one-pass check runs on the repaired value. Both must still agree with the full path.
#[test]
fn the_paths_agree_on_repaired_syntax() {
    let cases = [
        // Only syntax: the one-pass check on the parsed value decides.
        "Sure: {'labels': {}, 'inner': {'name': 'a'}}",
        "```json\n{\"labels\": {\"x\": 1,},}\n```",
        "{labels: {}, level: None, inner: None, token: 't'}",
        "{'labels': {}} // done",
        "\"{\\\"labels\\\": {}}\"",
        "{\"labels\": {}, \"ratio\": 1.}",
        // Syntax and coercion or errors: the walk decides.
        "{'labels': {'x': '7'}, 'level': 'HIGH'}",
        "{labels: {}, extra: True}",
        "{'labels': {}, 'inner': {'name': 'a', 'name': 'b'},}",
        "{'labels': {}, 'ratio': NaN}",
        "{'labels': {}, 'inner': {'name': 'a'",
        "{'labels': {}, 'shape': {'kind': 'circle', 'r': 2,}}",
        "{'labels': {}, 'shape': {'kind': 'square'}}",
        "[1, 2,]",
        "'just text'",
        "{\"labels\": {}} {\"labels\": {}}",
    ];
    for case in cases {
        agree::<Mixed>(case);
    }
    agree::<CreateOrder>(
        "{customer_id: 'C', priority: 'low', tags: [], items: [{sku: 'ABC-1234', quantity: 3,},],}",
    );
    agree::<CreateOrder>(
        "{customer_id: 'C', priority: 'low', tags: [], items: [{sku: 'ABC-1234', quantity: 3.0}]}",
    );
    // Out of range, after a repair.
    agree::<CreateOrder>(
        "{customer_id: 'C', priority: 'low', tags: [], items: [{sku: 'ABC-1234', quantity: 4294967296}]}",
    );
}

/// Field policies and redaction, which decide whether and how the one-pass path coerces.
#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
struct Policies {
    #[tool_input(strict)]
    exact: Option<u32>,
    #[tool_input(lenient)]
    loose: Option<u32>,
    #[tool_input(sensitive)]
    secret: Option<u32>,
    #[serde(default)]
    plain: Vec<u8>,
    mode: Option<Priority>,
    flag: Option<bool>,
}

/// Strict JSON that needs only the common coercions is read in one pass; the records must
/// be the walker's, whatever the policy of the call or the field.
#[test]
fn the_paths_agree_on_coercions() {
    let cases = [
        r#"{"labels": {"x": "7"}, "level": "HIGH"}"#,
        r#"{"labels": "{\"x\": 1}"}"#,
        r#"{"labels": " {\"x\": \"2\"} "}"#,
        r#"{"labels": {}, "inner": "{\"name\": \"a\"}"}"#,
        r#"{"labels": {}, "inner": {"name": "a", "n": "4"}}"#,
        r#"{"labels": {}, "level": "Hgih"}"#,
        r#"{"labels": {"x": "300"}}"#,
        r#"{"labels": {"x": " 7"}}"#,
        r#"{"labels": {"x": "7.0"}}"#,
        r#"{"labels": {}, "ratio": "1e3"}"#,
        r#"{"labels": "[1]"}"#,
        r#"{"labels": "{\"x\": "}"#,
    ];
    for case in cases {
        agree::<Mixed>(case);
    }
    let cases = [
        r#"{"exact": "1"}"#,
        r#"{"loose": "1"}"#,
        r#"{"loose": " 1 "}"#,
        r#"{"secret": "5"}"#,
        r#"{"secret": "five"}"#,
        r#"{"plain": "[1, 2]"}"#,
        r#"{"plain": "[1, \"2\"]"}"#,
        r#"{"plain": "[1, 256]"}"#,
        r#"{"mode": "LOW", "flag": "TRUE"}"#,
        r#"{"flag": "yes"}"#,
        r#"{"mode": "Medium", "plain": "[3]", "secret": "9", "loose": "2", "exact": 3}"#,
    ];
    // These take the one-pass path, coercions and all. (An `Option` of an enum or struct is
    // an `anyOf` with `null`, where only the walker coerces: `"level": "HIGH"` takes the walk.)
    let options = CheckOptions::default();
    for (raw, coercions) in [
        (r#"{"labels": {"x": "7"}, "level": "high"}"#, 1),
        (r#"{"labels": "{\"x\": \"2\"}"}"#, 2),
        (r#"{"plain": "[3]", "secret": "9", "exact": 3, "flag": "false"}"#, 3),
    ] {
        let one_pass = if raw.contains("labels") {
            tool_input::__private::from_arguments_exact::<Mixed>(raw.into(), &options).map(|c| c.report)
        } else {
            tool_input::__private::from_arguments_exact::<Policies>(raw.into(), &options).map(|c| c.report)
        };
        let report = one_pass.unwrap_or_else(|| panic!("{raw} took the full path"));
        let made = report.coercions.iter().filter(|c| c.kind != tool_input::CoercionKind::DefaultFilled);
        assert_eq!(made.count(), coercions, "{raw}: {report:?}");
    }
    for policy in [None, Some(Policy::Strict), Some(Policy::Default), Some(Policy::Lenient)] {
        let options = policy.map_or_else(CheckOptions::new, |policy| CheckOptions::new().with_policy(policy));
        for case in cases {
            agree_with::<Policies>(case, &options);
        }
    }
}

#[test]
fn the_paths_agree_on_every_mangled_call() {
    let dir = common::bench_data_dir();
    for case in common::read_jsonl(&dir.join("mangled.jsonl")).iter().step_by(2) {
        agree::<CreateOrder>(case["raw"].as_str().unwrap());
    }
}

#[test]
fn sensitive_defaults_stay_hidden_on_both_paths() {
    let checked = Mixed::from_arguments_with_report(r#"{"labels": {}}"#).unwrap();
    assert_eq!(checked.value.token, "s3cret");
    let token = checked.report.coercions.iter().find(|c| c.path == "/token").unwrap();
    assert_eq!(token.to, None);
    let value: Value = json!({"labels": {}});
    let checked = Mixed::from_arguments_with_report(&value).unwrap();
    assert!(!format!("{:?}", checked.report).contains("s3cret"));
}

/// Numbers whose decimal text is not exactly the integer a float rounds them to (issue 13):
/// both paths decide from the text, and agree.
#[test]
fn the_paths_agree_on_numbers_that_only_round_to_integers() {
    for quantity in [
        "0.99999999999999999",
        "\"0.99999999999999999\"",
        "-9999999999999999999999",
        "\"-9999999999999999999999\"",
        "9007199254740993.0",
        "\"9007199254740993.0\"",
        "3.0",
        "\"3.000\"",
        "\"3e0\"",
        "1e-400",
        "2.9999999999999999",
    ] {
        let raw = format!(
            r#"{{"customer_id": "C-1", "priority": "low", "tags": [], "items": [{{"sku": "ABC-1234", "quantity": {quantity}}}]}}"#
        );
        agree::<CreateOrder>(&raw);
    }
}

/// A set field (`uniqueItems`): its array is read whole, its items compared as the walk
/// compares them, then read into the set. An exact call with unique items takes the one
/// pass; items equal as JSON (`1` and `1.0`, objects in another key order) are refused as
/// the full path refuses them, and a coercion inside the array leaves the call to it.
#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
struct Tagged {
    tags: std::collections::BTreeSet<String>,
    #[schemars(length(max = 3))]
    levels: Option<std::collections::HashSet<Priority>>,
    points: Option<Vec<std::collections::BTreeSet<i64>>>,
    spots: Option<std::collections::BTreeSet<Spot>>,
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
struct Nested {
    nested: std::collections::BTreeSet<std::collections::BTreeSet<i64>>,
}

#[derive(Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize, JsonSchema)]
struct Spot {
    x: i64,
    y: i64,
}

impl std::hash::Hash for Priority {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        std::mem::discriminant(self).hash(state);
    }
}

impl Eq for Priority {}

#[test]
fn sets_take_the_one_pass_and_agree_with_the_full_path() {
    let options = CheckOptions::default();
    let exact = [
        json!({"tags": ["a", "b"]}),
        json!({"tags": [], "levels": ["low", "high"], "points": [[1, 2], [2, 1], []]}),
        json!({"tags": ["x"], "spots": [{"x": 1, "y": 2}, {"y": 1, "x": 2}]}),
    ];
    for case in &exact {
        let raw = case.to_string();
        assert!(
            tool_input::__private::from_arguments_exact::<Tagged>(raw.as_str().into(), &options).is_some(),
            "{raw} took the full path"
        );
        agree::<Tagged>(&raw);
    }
    let refused_or_coerced = [
        r#"{"tags": ["a", "a"]}"#,
        r#"{"tags": ["a", "b", "a"], "points": [[1, 1.0]]}"#,
        r#"{"tags": [], "points": [[1, 2], [3, 3]]}"#,
        r#"{"tags": [], "spots": [{"x": 1, "y": 2}, {"y": 2, "x": 1}]}"#,
        r#"{"tags": [], "levels": ["low", "LOW"]}"#,
        r#"{"tags": [], "levels": ["low", "High"]}"#,
        r#"{"tags": [], "levels": ["low", "medium", "high", "low"]}"#,
        r#"{"tags": "[\"a\", \"a\"]"}"#,
        r#"{"tags": "[\"a\", \"b\"]"}"#,
        r#"{"tags": ["a", 1]}"#,
        r#"{"tags": ["a"], "points": [[1, "1"]]}"#,
        r#"{"tags": ["a"], "points": [[1, "2"]]}"#,
    ];
    for raw in refused_or_coerced {
        agree::<Tagged>(raw);
    }
    // A set of sets: the inner sets are left to the full path (reading each whole again
    // inside the outer one would cost the depth times the array), with the same outcome.
    for raw in
        [r#"{"nested": [[1, 2], [2, 1]]}"#, r#"{"nested": [[1], [2, 2]]}"#, r#"{"nested": [[1], [2]]}"#]
    {
        agree::<Nested>(raw);
        assert!(
            tool_input::__private::from_arguments_exact::<Nested>(raw.into(), &options).is_none(),
            "{raw}"
        );
    }
    let rejection = Tagged::from_arguments(r#"{"tags": ["a", "b", "a"]}"#).unwrap_err();
    let found: Vec<(&str, String)> =
        rejection.errors().iter().map(|e| (e.path(), e.code().to_string())).collect();
    assert_eq!(found, [("/tags", "unique_items".to_owned())], "{rejection}");
}

/// An `Option<Inner>` whose schema says more beside its `anyOf`: here, not both fields.
#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
struct Restricted {
    #[schemars(extend("not" = {"required": ["n", "name"]}))]
    inner: Option<Inner>,
}

/// The one pass reads an Option's `anyOf` (a value, or `{"type": "null"}`) by itself; a
/// keyword beside the `anyOf` holds for the value too, null or not, and was skipped: `null`
/// passed a `not`, an `enum` or an `if` that refuses it, and a struct passed the `not` above.
#[test]
fn the_one_pass_reads_the_keywords_beside_an_options_any_of() {
    use tool_input::Validator;
    for beside in [
        json!({"not": {"type": "null"}}),
        json!({"enum": ["x"]}),
        json!({"const": 5}),
        json!({"allOf": [false]}),
        json!({"if": {"type": "null"}, "then": false}),
    ] {
        let mut property = json!({"anyOf": [{"type": "string"}, {"type": "null"}]});
        property.as_object_mut().unwrap().extend(beside.as_object().unwrap().clone());
        let schema = json!({"type": "object", "properties": {"v": property}, "required": ["v"]});
        let validator = Validator::new(&schema).unwrap();
        for policy in [Policy::Strict, Policy::Default] {
            let options = CheckOptions::new().with_policy(policy);
            let checked = validator.check_with(r#"{"v": null}"#.into(), &options);
            let walked = tool_input::__private::check_by_walk(&validator, r#"{"v": null}"#.into(), &options);
            let rejection = checked.expect_err(&format!("{beside} {policy:?}"));
            assert_eq!(Err(rejection), walked.map(|c| c.value), "{beside} {policy:?}");
        }
    }
    let both = r#"{"inner": {"n": 1, "name": "a"}}"#;
    let rejection = Restricted::from_arguments(both).unwrap_err();
    assert_eq!(rejection.errors()[0].path(), "/inner", "{rejection}");
    agree::<Restricted>(both);
    agree_with::<Restricted>(r#"{"inner": null}"#, &CheckOptions::new().with_policy(Policy::Strict));
    assert!(Restricted::from_arguments(r#"{"inner": {"name": "a"}}"#).is_ok());
}

/// An object that allows no undeclared member, with a count bound: the members it refuses
/// count toward the bound too. The one pass, reading a refused object to its end to explain
/// it, counted only the declared ones, and left out the `properties` error the walk reports.
#[test]
fn the_paths_agree_on_the_count_of_an_object_with_refused_members() {
    let schema = json!({"type": "object", "additionalProperties": false, "maxProperties": 1,
                        "properties": {"a": {"type": "array"}}});
    let validator = tool_input::Validator::new(&schema).unwrap();
    let found = |rejection: tool_input::Rejection| {
        rejection.errors().iter().map(|e| (e.path().to_owned(), e.code())).collect::<Vec<_>>()
    };
    for (text, lenient) in [
        (r#"{"b": 1, "c": 2}"#, r#"{"b": 1, "c": 2,}"#),
        (r#"{"a": "x", "b": true}"#, r#"{"a": "x", "b": true,}"#),
    ] {
        let value: Value = serde_json::from_str(text).unwrap();
        // The one pass (strict JSON), the walk over the same text read leniently, and the
        // walk over a value: the same errors, the texts' in the same order.
        let by_pass = found(validator.check(text).unwrap_err());
        let by_walk = found(validator.check(lenient).unwrap_err());
        assert_eq!(by_pass, by_walk, "{text}");
        assert!(by_pass.contains(&(String::new(), tool_input::ErrorCode::Properties)), "{text}: {by_pass:?}");
        let mut by_value = found(validator.check(&value).unwrap_err());
        let mut sorted = by_pass.clone();
        sorted.sort();
        by_value.sort();
        assert_eq!(sorted, by_value, "{text}");
    }
}

/// Arrays and objects sent as JSON strings, each shape the one pass reads from the string's
/// text (what looks like strict JSON) or leaves to the parse (anything else).
#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
struct AsText {
    #[schemars(length(max = 3))]
    tags: Vec<String>,
    #[serde(default)]
    items: Vec<Item>,
    #[serde(default)]
    grid: Vec<Vec<u8>>,
    #[serde(default)]
    labels: std::collections::BTreeMap<String, u8>,
    #[serde(default)]
    #[tool_input(sensitive)]
    codes: Vec<u16>,
    #[serde(default)]
    ratios: Vec<f64>,
}

/// `T::from_arguments` (which keeps no records: a container in strict JSON is read from its
/// text) gives what the untyped check's value gives through serde, and the full path's
/// rejection; with the records kept (`from_arguments_with`), the paths agree too.
#[test]
fn containers_sent_as_text_read_as_their_parsed_values() {
    let fields = [
        // Strict JSON: read from the text.
        r#""tags": "[\"a\", \"b\"]""#,
        r#""tags": " [\"a\\u00e9\", \"b\\\"c\"]\n""#,
        r#""tags": "[]", "items": "[{\"sku\": \"ABC-1234\", \"quantity\": 2, \"note\": \"n\"}]""#,
        r#""tags": "[]", "grid": "[[1, 2], [], [3]]""#,
        r#""tags": "[]", "grid": "[[1, \"2\"], \"[3]\"]""#,
        r#""tags": "[]", "grid": "[[1.0, 2]]""#,
        r#""tags": "[]", "labels": "{\"b\": 1, \"a\": 2, \"c\": \"3\"}""#,
        r#""tags": "[]", "codes": "[7, \"8\"]""#,
        r#""tags": "[]", "ratios": "[1.5, 2, -0.0, 1e3]""#,
        // A float serde_json may round otherwise than the parse (built without its
        // `float_roundtrip`): the full path decides.
        r#""tags": "[]", "ratios": "[0.1000000000000000055511151231257827, 2]""#,
        // Refused inside: by an item's pattern, range or type, by a count, by a member.
        r#""tags": "[]", "items": "[{\"sku\": \"abc\", \"quantity\": 2}]""#,
        r#""tags": "[]", "items": "[{\"sku\": \"ABC-1234\", \"quantity\": 0}]""#,
        r#""tags": "[1, \"a\"]""#,
        r#""tags": "[\"a\", \"b\", \"c\", \"d\"]""#,
        r#""tags": "[]", "labels": "{\"a\": 300}""#,
        r#""tags": "[]", "items": "[{\"sku\": \"ABC-1234\", \"quantity\": 2, \"extra\": 1}]""#,
        r#""tags": "[]", "grid": "[[1], {\"a\": 1}]""#,
        r#""tags": "[]", "codes": "[70000]""#,
        // A key given twice, at the top or nested: the walk reports it.
        r#""tags": "[]", "labels": "{\"a\": 1, \"a\": 2}""#,
        r#""tags": "[]", "items": "[{\"sku\": \"ABC-1234\", \"quantity\": 2, \"quantity\": 3}]""#,
        // Looks strict but is not (the reading from the text ends, the full path decides).
        r#""tags": "[\"a\"] [\"b\"]""#,
        r#""tags": "[]", "grid": "[[1, 2] [3]]""#,
        r#""tags": "[]", "grid": "[[1, 2],, [3 4]]""#,
        // Not strict JSON: the parse reads it, as before.
        r#""tags": "['a', 'b']""#,
        r#""tags": "[\"a\",]""#,
        r#""tags": "[\"a\"] and more""#,
        r#""tags": "[\"a\""#,
        r#""tags": "[]", "labels": "{a: 1}""#,
        r#""tags": "[]", "items": "[{sku: 'ABC-1234', quantity: 2,}]""#,
    ];
    let options = CheckOptions::default();
    let validator = AsText::definition().validator();
    for fields in fields {
        // The text strict JSON, then read by the lenient parser (a code fence around it).
        for raw in [format!("{{{fields}}}"), format!("```json\n{{{fields}}}\n```")] {
            let typed = AsText::from_arguments(raw.as_str());
            let full = tool_input::__private::from_arguments_full::<AsText>(raw.as_str().into(), &options);
            match (&typed, &full) {
                (Ok(typed), Ok(full)) => {
                    assert_eq!(typed, &full.value, "{raw}");
                    let untyped = validator.check(raw.as_str()).unwrap_or_else(|e| panic!("{raw}: {e:?}"));
                    let through_serde: AsText = serde_json::from_value(untyped.value).unwrap();
                    assert_eq!(typed, &through_serde, "{raw}");
                }
                (Err(typed), Err(full)) => assert_eq!(typed.errors(), full.errors(), "{raw}"),
                _ => panic!("the paths disagree on {raw}:\ntyped: {typed:?}\nfull: {full:?}"),
            }
            agree::<AsText>(&raw);
        }
    }
}
