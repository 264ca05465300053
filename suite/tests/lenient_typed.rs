//! The lenient typed path (issue #14, item 2): a mangled call becomes the typed value in one
//! pass, read from the lenient parser's tape and checked against the plan on the way, with
//! the repairs and coercions the full path records. Every call here is run through
//! `T::from_arguments_with` and the full path (parse, walk, serde), which must agree on the
//! value, the report and the rejection; the calls the one pass can decide must be decided
//! without the walk (`__private::from_arguments_one_pass`).

use proptest::prelude::*;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use tool_input::{CheckOptions, CoercionKind, Policy, RawArguments, ToolInput};

/// Create an order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolInput)]
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

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Priority {
    Low,
    Medium,
    High,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
struct Item {
    #[schemars(regex(pattern = r"^[A-Z]{3}-\d{4}$"))]
    sku: String,
    #[schemars(range(min = 1, max = 1000))]
    quantity: u32,
    note: Option<String>,
}

/// Both paths on `raw`: the same value and report, or the same rejection.
fn agree<T: ToolInput + PartialEq + std::fmt::Debug>(raw: RawArguments<'_>, options: &CheckOptions) {
    let typed = T::from_arguments_with(raw, options);
    let full = tool_input::__private::from_arguments_full::<T>(raw, options);
    match (&typed, &full) {
        (Ok(a), Ok(b)) => {
            assert_eq!(a.value, b.value, "{raw:?}");
            assert_eq!(a.report.repairs, b.report.repairs, "{raw:?}");
            // In the order each path met them: the one pass in the text's order, the walk in
            // the value's.
            let mut one = a.report.coercions.clone();
            let mut two = b.report.coercions.clone();
            one.sort_by(|x, y| x.path.cmp(&y.path));
            two.sort_by(|x, y| x.path.cmp(&y.path));
            assert_eq!(one, two, "{raw:?}");
        }
        (Err(a), Err(b)) => assert_eq!(a, b, "{raw:?}"),
        _ => panic!("the paths disagree on {raw:?}:\ntyped: {typed:?}\nfull: {full:?}"),
    }
}

/// `raw` agrees with the full path and is decided in one pass; its report, for the caller.
fn one_pass<T: ToolInput + PartialEq + std::fmt::Debug>(raw: &str) -> tool_input::Report {
    let options = CheckOptions::default();
    agree::<T>(raw.into(), &options);
    let checked = tool_input::__private::from_arguments_one_pass::<T>(raw.into(), &options)
        .unwrap_or_else(|| panic!("took the walk: {raw}"));
    let full = tool_input::__private::from_arguments_full::<T>(raw.into(), &options).unwrap();
    assert_eq!(checked.value, full.value, "{raw}");
    checked.report
}

fn expected_order() -> CreateOrder {
    CreateOrder {
        customer_id: "C-1".into(),
        priority: Priority::High,
        tags: vec!["a".into(), "b".into()],
        items: vec![Item { sku: "ABC-1234".into(), quantity: 3, note: None }],
        ship_by: None,
        gift: true,
    }
}

/// Every mangled form the issue names, alone: decided in one pass, with the full path's
/// value, repairs and coercions.
#[test]
fn every_mangled_form_is_read_in_one_pass() {
    let clean = r#"{"customer_id": "C-1", "priority": "high", "tags": ["a", "b"], "items": [{"sku": "ABC-1234", "quantity": 3, "note": null}], "ship_by": null, "gift": true}"#;
    let syntax = [
        // Prose around the call.
        format!("Sure! Here are the arguments:\n{clean}\nLet me know if you need anything else."),
        // A code fence.
        format!("```json\n{clean}\n```"),
        // Single quotes.
        clean.replace('"', "'"),
        // Smart quotes.
        clean.replace("\"customer_id\"", "“customer_id”").replace("\"C-1\"", "“C-1”"),
        // Python literals.
        clean.replace("null", "None").replace("true", "True"),
        // Comments.
        clean.replace(", \"tags\"", ", // the tags\n \"tags\"").replace("\"gift\"", "/* wrapped */ \"gift\""),
        // Trailing commas.
        clean.replace("]", ",]").replace("}", ",}"),
        // Unquoted keys.
        clean.replace("\"customer_id\"", "customer_id").replace("\"items\"", "items"),
    ];
    for raw in &syntax {
        let report = one_pass::<CreateOrder>(raw);
        assert!(!report.repairs.is_empty(), "no repair recorded: {raw}");
        assert!(report.coercions.is_empty(), "{raw}: {report:?}");
        assert_eq!(CreateOrder::from_arguments(raw.as_str()).unwrap(), expected_order());
    }
    let representation = [
        // An array sent as a string.
        (clean.replace(r#"["a", "b"]"#, r#""[\"a\", \"b\"]""#), CoercionKind::ParsedString),
        // An array of objects sent as a string.
        (
            clean.replace(
                r#"[{"sku": "ABC-1234", "quantity": 3, "note": null}]"#,
                r#""[{\"sku\": \"ABC-1234\", \"quantity\": 3, \"note\": null}]""#,
            ),
            CoercionKind::ParsedString,
        ),
        // An enum value in other letter case.
        (clean.replace("\"high\"", "\"HIGH\""), CoercionKind::EnumCase),
        // A number as a string.
        (clean.replace("\"quantity\": 3", "\"quantity\": \"3\""), CoercionKind::NumberFromString),
        // A boolean as a string.
        (clean.replace("\"gift\": true", "\"gift\": \"true\""), CoercionKind::BoolFromString),
    ];
    for (raw, kind) in &representation {
        // As strict JSON (the first step decides), and mangled (the tape step decides).
        for raw in [raw.clone(), format!("```json\n{}\n```", raw.replace(", \"ship_by\"", ", 'ship_by'"))] {
            let report = one_pass::<CreateOrder>(&raw);
            let kinds: Vec<_> = report.coercions.iter().map(|c| c.kind).collect();
            assert_eq!(kinds, [*kind], "{raw}");
            assert_eq!(CreateOrder::from_arguments(raw.as_str()).unwrap(), expected_order());
        }
    }
}

/// Several mistakes in one call, the way a careless model writes them.
#[test]
fn mistakes_together_are_read_in_one_pass() {
    let raws = [
        "Here you go:\n```json\n{customer_id: 'C-1', priority: 'High', tags: '[\"a\", \"b\"]', // tags\n items: [{sku: 'ABC-1234', quantity: '3', note: None,},], ship_by: None, gift: 'true',}\n```\nDone.",
        "{'customer_id': 'C-1', 'priority': 'HIGH', 'tags': ['a', 'b',], 'items': '[{\"sku\": \"ABC-1234\", \"quantity\": \"3\"}]', 'gift': True} /* end */",
        "{“customer_id”: “C-1”, “priority”: “high”, “tags”: [“a”, “b”], “items”: [{“sku”: “ABC-1234”, “quantity”: 3}], “gift”: True}",
    ];
    for raw in raws {
        let report = one_pass::<CreateOrder>(raw);
        assert!(!report.repairs.is_empty(), "{raw}");
        assert_eq!(CreateOrder::from_arguments(raw).unwrap(), expected_order(), "{raw}");
    }
}

/// What one pass cannot decide takes the walk, which explains or coerces; both paths still
/// agree.
#[test]
fn rejected_and_undecided_calls_take_the_walk() {
    let options = CheckOptions::default();
    let raws = [
        // Rejections: a value out of its enum, a missing field, a bound broken, a wrong type.
        "{customer_id: 'C-1', priority: 'urgent', tags: [], items: []}",
        "{priority: 'low', tags: [], items: [],}",
        "{customer_id: 'C-1', priority: 'low', tags: [], items: [{sku: 'ABC-1234', quantity: 0}]}",
        "{customer_id: 'C-1', priority: 'low', tags: [], items: [{sku: 'abc', quantity: 'many'}]}",
        "{customer_id: 'C-1', priority: 'low', tags: 'a, b', items: []}",
        "{customer_id: 'C-1', priority: 'low', tags: [], items: [], gift: 'maybe'}",
        "{customer_id: 'C-1', priority: 'low', tags: [], items: [], extra: 1}",
        // A key given twice, with two values: the walk names both.
        "{customer_id: 'C-1', customer_id: 'C-2', priority: 'low', tags: [], items: []}",
        // Not an object.
        "['C-1', 'low']",
        "'C-1'",
        // Truncated, and not JSON at all.
        "{customer_id: 'C-1', priority: 'low', tags: [",
        "no arguments here",
        "",
        "   ",
    ];
    for raw in raws {
        agree::<CreateOrder>(raw.into(), &options);
        if CreateOrder::from_arguments(raw).is_err() {
            assert!(
                tool_input::__private::from_arguments_one_pass::<CreateOrder>(raw.into(), &options).is_none()
            );
        }
    }
    // Coercions only the walk makes: a float for an integer, a string number out of range.
    for raw in [
        "{customer_id: 'C-1', priority: 'low', tags: [], items: [{sku: 'ABC-1234', quantity: 3.0}]}",
        "{customer_id: 'C-1', priority: 'low', tags: [], items: [{sku: 'ABC-1234', quantity: '3000'}]}",
        "{customer_id: 'C-1', priority: 'low', tags: 'a', items: []}",
    ] {
        agree::<CreateOrder>(raw.into(), &options);
    }
}

/// The same mangled text, sent as a string value, as bytes (UTF-8 or not) or as a parsed
/// value, takes the step its shape allows and agrees with the full path.
#[test]
fn every_raw_shape_takes_the_right_step() {
    let options = CheckOptions::default();
    let raw = "```json\n{customer_id: 'C-1', priority: 'HIGH', tags: ['a', 'b'], items: [{sku: 'ABC-1234', quantity: '3'}], gift: True}\n```";
    let as_value = Value::String(raw.to_owned());
    let shapes: [RawArguments<'_>; 3] = [raw.into(), (&as_value).into(), raw.as_bytes().into()];
    for shape in shapes {
        agree::<CreateOrder>(shape, &options);
        let checked = tool_input::__private::from_arguments_one_pass::<CreateOrder>(shape, &options)
            .unwrap_or_else(|| panic!("took the walk: {shape:?}"));
        assert_eq!(checked.value, expected_order());
        assert!(!checked.report.repairs.is_empty());
    }
    // Bytes that are not UTF-8: read as bytes, by the walk.
    let mut latin1 = raw.as_bytes().to_vec();
    latin1.extend_from_slice(b" \xe9");
    agree::<CreateOrder>(latin1.as_slice().into(), &options);
    // A parsed value needing a coercion: the first step reads it, or the walk.
    let value = json!({"customer_id": "C-1", "priority": "HIGH", "tags": ["a", "b"], "items": [{"sku": "ABC-1234", "quantity": "3"}], "gift": true});
    agree::<CreateOrder>((&value).into(), &options);
    let value = json!({"customer_id": "C-1", "priority": "high", "tags": "[\"a\", \"b\"]", "items": [{"sku": "ABC-1234", "quantity": 3}], "gift": true});
    agree::<CreateOrder>((&value).into(), &options);
    agree::<CreateOrder>(RawArguments::Absent, &options);
}

/// Per-call policy and limits decide what the one pass may do: no coercion outside the
/// default policy, strict parsing under `Strict`, the walk under a low depth limit.
#[test]
fn policies_and_limits_are_kept() {
    let raws = [
        "{customer_id: 'C-1', priority: 'low', tags: [], items: []}",
        "{customer_id: 'C-1', priority: 'LOW', tags: [], items: [{sku: 'ABC-1234', quantity: '3'}]}",
        "```json\n{\"customer_id\": \"C-1\", \"priority\": \"low\", \"tags\": [], \"items\": []}\n```",
    ];
    let limits = [
        tool_input::Limits::default(),
        tool_input::Limits::default().with_max_depth(4),
        tool_input::Limits::default().with_max_bytes(40),
        tool_input::Limits::default().with_max_string_bytes(2),
        tool_input::Limits::default().with_max_echo_chars(3),
    ];
    for raw in raws {
        for policy in [Policy::Strict, Policy::Default, Policy::Lenient] {
            for limits in limits {
                let options = CheckOptions::new().with_policy(policy).with_limits(limits);
                agree::<CreateOrder>(raw.into(), &options);
            }
        }
    }
}

/// Sensitive fields and per-field policies, read in one pass from mangled text.
#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
struct Login {
    user: String,
    #[tool_input(sensitive)]
    pin: u32,
    #[tool_input(strict)]
    attempts: Option<u8>,
    #[serde(default = "remember")]
    remember: bool,
}

fn remember() -> bool {
    true
}

#[test]
fn field_options_are_kept_in_one_pass() {
    let options = CheckOptions::default();
    for raw in [
        "{user: 'ann', pin: '1234'}",
        "{user: 'ann', pin: 1234, attempts: '2'}",
        "{user: 'ann', pin: 'x1234'}",
        "{user: 'ann', pin: 1234, attempts: 2, remember: 'FALSE'}",
        "{'user': 'ann', 'pin': 1234,}",
    ] {
        agree::<Login>(raw.into(), &options);
    }
    let report = one_pass::<Login>("{user: 'ann', pin: '1234'}");
    let pin = report.coercions.iter().find(|c| c.path == "/pin").expect("the pin's coercion");
    assert_eq!((pin.from.as_deref(), pin.to.as_deref()), (None, None), "a sensitive value is shown");
}

/// A value, written the way a careless model writes it: each choice read from `picks`.
fn loose(value: &Value, picks: &mut impl FnMut() -> u8, out: &mut String) {
    match value {
        Value::Null => out.push_str(if picks().is_multiple_of(2) { "null" } else { "None" }),
        Value::Bool(flag) => out.push_str(match (flag, picks() % 2) {
            (true, 0) => "true",
            (true, _) => "True",
            (false, 0) => "false",
            (false, _) => "False",
        }),
        Value::Number(number) => out.push_str(&number.to_string()),
        Value::String(text) => string(text, picks(), out),
        Value::Array(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push_str(", ");
                }
                loose(item, picks, out);
            }
            if !items.is_empty() && picks().is_multiple_of(3) {
                out.push(',');
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (index, (key, item)) in map.iter().enumerate() {
                if index > 0 {
                    out.push_str(", ");
                }
                match picks() % 5 {
                    0 => out.push_str("/* note */ "),
                    1 => out.push_str("// note\n"),
                    _ => {}
                }
                if picks().is_multiple_of(2) {
                    out.push_str(key); // The keys are identifiers.
                } else {
                    string(key, picks(), out);
                }
                out.push_str(": ");
                loose(item, picks, out);
            }
            if !map.is_empty() && picks().is_multiple_of(3) {
                out.push(',');
            }
            out.push('}');
        }
    }
}

/// A string in double, single or smart quotes (the latter two only where nothing in it
/// would need an escape).
fn string(text: &str, pick: u8, out: &mut String) {
    let plain = !text.contains(['\'', '"', '\\', '“', '”']) && !text.chars().any(char::is_control);
    match pick % 3 {
        1 if plain => {
            out.push('\'');
            out.push_str(text);
            out.push('\'');
        }
        2 if plain => {
            out.push('“');
            out.push_str(text);
            out.push('”');
        }
        _ => out.push_str(&Value::String(text.to_owned()).to_string()),
    }
}

fn text() -> impl Strategy<Value = String> {
    proptest::string::string_regex("[a-zA-Z0-9 '\"\\\\,:{}\\[\\]éü日本-]{0,10}").unwrap()
}

fn item() -> impl Strategy<Value = Value> {
    (
        prop_oneof![Just("ABC-1234".to_owned()), Just("XYZ-0001".to_owned()), text()],
        prop_oneof![0u32..1100, Just(1), Just(1000)],
        proptest::option::of(text()),
    )
        .prop_map(|(sku, quantity, note)| json!({"sku": sku, "quantity": quantity, "note": note}))
}

/// Orders, most valid, some not (a bad SKU or quantity, an unknown priority, too many tags).
fn order() -> impl Strategy<Value = Value> {
    (
        text(),
        prop_oneof![Just("low"), Just("medium"), Just("high"), Just("urgent")],
        proptest::collection::vec(text(), 0..12),
        proptest::collection::vec(item(), 0..3),
        proptest::option::of(text()),
        proptest::option::of(any::<bool>()),
    )
        .prop_map(|(customer_id, priority, tags, items, ship_by, gift)| {
            let mut order = json!({
                "customer_id": customer_id, "priority": priority, "tags": tags, "items": items, "ship_by": ship_by,
            });
            if let Some(gift) = gift {
                order["gift"] = json!(gift);
            }
            order
        })
}

/// Representation mistakes, where `pick` says: a number or boolean as a string, an enum
/// value in capitals, an array sent as a string.
fn misrepresent(value: &mut Value, key: &str, picks: &mut impl FnMut() -> u8) {
    match value {
        Value::Object(map) => {
            for (key, child) in map.iter_mut() {
                misrepresent(child, key, picks);
            }
        }
        Value::Array(items) => {
            for item in items.iter_mut() {
                misrepresent(item, key, picks);
            }
            if picks().is_multiple_of(4) {
                *value = Value::String(value.to_string());
            }
        }
        Value::String(text) if key == "priority" && picks().is_multiple_of(3) => *text = text.to_uppercase(),
        Value::Number(number) if picks().is_multiple_of(3) => *value = Value::String(number.to_string()),
        Value::Bool(flag) if picks().is_multiple_of(3) => *value = Value::String(flag.to_string()),
        _ => {}
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Any order, mangled in its syntax and representation, gives the same result on the
    /// typed path as on the full one; one that is valid once repaired and coerced the way
    /// the one pass coerces is decided without the walk.
    #[test]
    fn mangled_calls_agree_with_the_full_path(
        order in order(),
        picks in proptest::collection::vec(any::<u8>(), 1..64),
        misrepresented in any::<bool>(),
        wrap in 0u8..4,
    ) {
        let mut value = order;
        let mut cursor = 0;
        let mut next = || {
            cursor += 1;
            picks[cursor % picks.len()]
        };
        if misrepresented {
            misrepresent(&mut value, "", &mut next);
        }
        let mut text = String::new();
        loose(&value, &mut next, &mut text);
        let text = match wrap {
            1 => format!("```json\n{text}\n```"),
            2 => format!("Here are the arguments:\n{text}\nThanks!"),
            3 => format!("Sure.\n```\n{text}\n```"),
            _ => text,
        };
        let options = CheckOptions::default();
        agree::<CreateOrder>(text.as_str().into(), &options);
        let full = tool_input::__private::from_arguments_full::<CreateOrder>(text.as_str().into(), &options);
        let one_pass = tool_input::__private::from_arguments_one_pass::<CreateOrder>(text.as_str().into(), &options);
        if let Some(checked) = &one_pass {
            prop_assert_eq!(Some(&checked.value), full.as_ref().ok().map(|c| &c.value), "{}", text);
        }
        // Syntax alone, on a valid order: nothing for the walk to do.
        if !misrepresented && full.is_ok() {
            prop_assert!(one_pass.is_some(), "took the walk: {}", text);
        }
    }
}

/// Lists of numbers, and a default: records of several kinds, in the walk's order.
#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
struct Tally {
    a: Vec<i64>,
    b: Vec<i64>,
    #[serde(default)]
    done: bool,
}

#[test]
fn past_max_coercions_every_path_records_the_same_first_ones_and_counts_the_rest() {
    // The one pass records in the text's order, the walk in its own: past the limit the
    // walk decides, so the records kept are the first in the walk's order whichever path
    // the call took, and the count is the same.
    let cases: [(&str, usize); 4] = [
        (r#"{"a": ["1", "2", "3"], "b": ["4"]}"#, 5),
        (r#"{"b": ["4"], "a": ["1", "2", "3"]}"#, 5),
        ("{'a': ['1'], 'b': ['2', '3'],}", 4),
        (r#"{"a": [1, 2], "b": "[\"3\", 4]", "done": "true"}"#, 3),
    ];
    for (raw, made) in cases {
        let all = Tally::from_arguments_with_report(raw).unwrap().report.coercions;
        assert_eq!(all.len(), made, "{raw}");
        for limit in [0, 1, 2, made - 1, made, made + 1] {
            let limits = tool_input::Limits::default().with_max_coercions(limit);
            let options = CheckOptions::new().with_limits(limits);
            let typed = Tally::from_arguments_with(raw, &options).unwrap();
            let full = tool_input::__private::from_arguments_full::<Tally>(raw.into(), &options).unwrap();
            assert_eq!(typed.value, full.value, "{raw} {limit}");
            assert_eq!(typed.report, full.report, "{raw} {limit}");
            let kept = limit.min(made);
            assert_eq!(typed.report.coercions, all[..kept], "{raw} {limit}");
            assert_eq!(typed.report.omitted_coercions, made - kept, "{raw} {limit}");
        }
    }
}
