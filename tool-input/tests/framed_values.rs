//! Strict JSON in a frame (prose before or after it, a code fence, comments, a byte order
//! mark) is read by `serde_json` once the lexer has read the frame. The reading must be the
//! repairing parser's own: the same value, the same repairs, the same error, on any value
//! and any frame, including frames that are not one (a second value after the first, a
//! bracket in the prose, a value begun before the bracket). Trailing commas are set aside
//! the same way, framed or not, and must read as the parser reads them too.

use proptest::prelude::*;
use serde_json::{json, Value};
use tool_input::parse::{parse, parse_without_fast_path, ParseOptions};
use tool_input::{CheckOptions, ErrorCode, Limits, ToolInput, Validator};

/// Text before the value: frames, and text that is not one.
const BEFORE: [&str; 22] = [
    "",
    "Sure! Here it is: ",
    "Here are the arguments:\n",
    "```json\n",
    "```\n",
    "Okay:\n```json\n",
    "```json",
    "// the call\n",
    "/* the call */ ",
    "# the call\n",
    "\u{feff}",
    "Step 1: ",
    "He said \"go\": ",
    "- ",
    "[draft] ",
    "`create_order` with ",
    "(see below) ",
    "Here's {x}: ",
    "I'll call it — ",
    "\\n",
    "true ",
    "``",
];

/// Text after the value.
const AFTER: [&str; 20] = [
    "",
    "\n",
    "\n```",
    "\n```\nHope this helps!",
    " Hope this helps!",
    "\nLet me know if you need {anything}.",
    " // done",
    " # done",
    " /* done */",
    " and {\"b\": 2}",
    " {\"b\": 2}",
    " [1]",
    "```",
    " ``",
    " `x`",
    " /",
    " \\",
    " \\n",
    " …",
    ",",
];

/// Strings that look like frames, brackets and quotes.
fn string() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z ]{0,8}",
        Just("}".to_owned()),
        Just("]".to_owned()),
        Just("```".to_owned()),
        Just("{\"a\": 1}".to_owned()),
        Just("it's \"quoted\"".to_owned()),
        Just("back\\slash".to_owned()),
        Just("Zoë — ✓".to_owned()),
        Just("line 1\nline 2".to_owned()),
        Just("a,]".to_owned()),
        Just("\\\", }".to_owned()),
        Just("it's, ok".to_owned()),
        Just("a': 'b".to_owned()),
    ]
}

fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        (-1e6..1e6f64).prop_map(|f| json!(f)),
        Just(json!(0.1)),
        string().prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            proptest::collection::btree_map(string(), inner, 0..4)
                .prop_map(|members| Value::Object(members.into_iter().collect())),
        ]
    })
}

/// An object or array, as `serde_json` writes it compact or pretty.
fn container() -> impl Strategy<Value = (Value, bool)> {
    let top = prop_oneof![
        proptest::collection::btree_map(string(), any_json(), 0..5)
            .prop_map(|members| Value::Object(members.into_iter().collect())),
        proptest::collection::vec(any_json(), 0..4).prop_map(Value::Array),
    ];
    (top, any::<bool>())
}

fn text_of(value: &Value, pretty: bool) -> String {
    if pretty {
        serde_json::to_string_pretty(value).unwrap()
    } else {
        serde_json::to_string(value).unwrap()
    }
}

/// What may stand before a closing bracket, chosen by `choice`: nothing, a trailing comma
/// with or without white space around it, or commas that are no trailing commas. (Keys of
/// lower-case letters go without quotes every other time, and scalars are written as Python
/// writes them every third.)
const BEFORE_CLOSER: [&str; 9] = ["", ",", ", ", ",\n  ", " ,\t\r\n", ",,", "\n,", ", /* c */", ",\u{a0}"];

/// `value` written as JSON (compact), with `BEFORE_CLOSER[choices[k]]` before the closing
/// bracket of the `k`-th container (cycling through `choices`), commas in the strings
/// left as they are.
fn with_commas(value: &Value, choices: &[usize], next: &mut usize) -> String {
    let before_closer = |next: &mut usize| {
        let choice = choices.get(*next % choices.len().max(1)).copied().unwrap_or(0);
        *next += 1;
        BEFORE_CLOSER[choice % BEFORE_CLOSER.len()]
    };
    match value {
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(|item| with_commas(item, choices, next)).collect();
            let end = if items.is_empty() { "" } else { before_closer(next) };
            format!("[{}{end}]", items.join(","))
        }
        Value::Object(members) => {
            let members: Vec<String> = members
                .iter()
                .map(|(key, member)| {
                    // A key that can go without quotes goes without, every other time.
                    let bare =
                        !key.is_empty() && key.bytes().all(|b| b.is_ascii_lowercase()) && *next % 2 == 1;
                    let key = if bare { key.clone() } else { json!(key).to_string() };
                    format!("{key}: {}", with_commas(member, choices, next))
                })
                .collect();
            let end = if members.is_empty() { "" } else { before_closer(next) };
            format!("{{{}{end}}}", members.join(", "))
        }
        // Python's spellings every third time: a string in single quotes (one holding a `'`
        // too, which the parser reads on past), `True`, `False`, `None`.
        Value::String(text) if *next % 3 == 2 && !text.contains(['\\', '\n']) => {
            *next += 1;
            format!("'{text}'")
        }
        Value::Bool(flag) if *next % 3 == 2 => {
            *next += 1;
            (if *flag { "True" } else { "False" }).to_owned()
        }
        Value::Null if *next % 3 == 2 => {
            *next += 1;
            "None".to_owned()
        }
        scalar => {
            *next += 1;
            scalar.to_string()
        }
    }
}

/// `parse` and the repairing parser alone agree on `text`, in lenient mode.
fn agree(text: &str) {
    let options = ParseOptions::default();
    let ours = parse(text, &options);
    let alone = parse_without_fast_path(text.as_bytes(), &options);
    assert_eq!(ours, alone, "{text:?}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn a_framed_value_reads_as_the_parser_reads_it(
        (value, pretty) in container(),
        before in 0..BEFORE.len(),
        after in 0..AFTER.len(),
    ) {
        let text = format!("{}{}{}", BEFORE[before], text_of(&value, pretty), AFTER[after]);
        agree(&text);
    }

    #[test]
    fn trailing_commas_read_as_the_parser_reads_them(
        (value, _) in container(),
        choices in proptest::collection::vec(0..BEFORE_CLOSER.len(), 1..6),
        framed in any::<bool>(),
        before in 0..BEFORE.len(),
        after in 0..AFTER.len(),
    ) {
        let written = with_commas(&value, &choices, &mut 0);
        let text = if framed { format!("{}{written}{}", BEFORE[before], AFTER[after]) } else { written };
        agree(&text);
    }
}

/// Trailing commas alone, framed or not: the value as sent, and one `trailing_comma` record
/// of them all, where the parser puts it.
#[test]
fn trailing_commas_are_read_with_their_record() {
    for (text, value, count) in [
        ("{\"a\": [1, 2,],}", json!({"a": [1, 2]}), 2),
        ("[\n  {\"a\": \"x,]\",\n  },\n]", json!([{"a": "x,]"}]), 2),
        ("```json\n{\"a\": 1,\n}\n```", json!({"a": 1}), 1),
    ] {
        let parsed = parse(text, &ParseOptions::default()).unwrap();
        assert_eq!(parsed.value, value, "{text:?}");
        let commas = parsed.repairs.iter().find(|repair| repair.kind.code() == "trailing_comma");
        assert_eq!(commas.map(|repair| repair.count), Some(count), "{text:?}");
        agree(text);
    }
}

/// Every frame with a few fixed values, each read as the parser reads it; the frames the
/// workloads use give the value as sent and the frame's repairs alone.
#[test]
fn every_frame_reads_as_the_parser_reads_it() {
    let values = [
        json!({"a": [1, 2], "b": "x"}),
        json!([{"sku": "ABC-1234", "quantity": 3}]),
        json!({}),
        json!([]),
        json!({"code": "```py\nprint('}')\n```"}),
        json!({"n": 0.1, "big": 12345678901234567890u64, "neg": -0.0}),
    ];
    for value in &values {
        for pretty in [false, true] {
            for before in BEFORE {
                for after in AFTER {
                    agree(&format!("{before}{}{after}", text_of(value, pretty)));
                }
            }
        }
    }
    let framed = "Sure! Here it is:\n```json\n{\"a\": [1, 2], \"b\": \"x\"}\n```\nHope that helps.";
    let parsed = parse(framed, &ParseOptions::default()).unwrap();
    assert_eq!(parsed.value, json!({"a": [1, 2], "b": "x"}));
    let kinds: Vec<&str> = parsed.repairs.iter().map(|repair| repair.kind.code()).collect();
    assert_eq!(kinds, ["prose_before", "code_fence", "prose_after"]);
}

/// The typed and untyped checks of a framed call: the value and coercions of the call sent
/// bare, with the frame's repairs (as the parser records them).
#[test]
fn a_framed_call_checks_as_the_bare_call_with_the_frames_repairs() {
    let validator = Validator::new(&json!({
        "type": "object",
        "properties": {
            "priority": {"enum": ["low", "high"]},
            "tags": {"type": "array", "items": {"type": "string"}},
            "n": {"type": "integer", "maximum": 5},
            "gift": {"type": "boolean", "default": false}
        },
        "required": ["priority"],
        "additionalProperties": false
    }))
    .unwrap();
    let options = CheckOptions::default();
    let bare_calls = [
        r#"{"priority": "high", "tags": ["a"], "n": 3}"#,
        r#"{"priority": "HIGH", "tags": "[\"a\", \"b\"]", "n": "4", "gift": "true"}"#,
        r#"{"priority": "low"}"#,
    ];
    for bare in bare_calls {
        let expected = validator.check_into::<Value>(bare, &options).unwrap();
        for (before, after) in [
            ("```json\n", "\n```"),
            ("Sure! Here it is: ", " Hope this helps!"),
            ("Arguments:\n", ""),
            ("", "\n(approximate)"),
            ("// call\n", " // done"),
        ] {
            let framed = format!("{before}{bare}{after}");
            let repairs =
                parse_without_fast_path(framed.as_bytes(), &ParseOptions::default()).unwrap().repairs;
            assert!(!repairs.is_empty(), "{framed:?}");
            let typed = validator.check_into::<Value>(framed.as_str(), &options).unwrap();
            let untyped = validator.check(framed.as_str()).unwrap();
            for checked in [&typed, &untyped] {
                assert_eq!(checked.value, expected.value, "{framed:?}");
                assert_eq!(checked.report.coercions, expected.report.coercions, "{framed:?}");
                assert_eq!(checked.report.repairs, repairs, "{framed:?}");
            }
        }
    }
    // Refused inside the frame: the same rejection as the bare call's, with the frame's
    // repairs.
    let bare = r#"{"priority": "urgent", "n": 9}"#;
    let framed = format!("```json\n{bare}\n```");
    let bare_rejection = validator.check_into::<Value>(bare, &options).unwrap_err();
    let rejection = validator.check_into::<Value>(framed.as_str(), &options).unwrap_err();
    assert_eq!(rejection.errors(), bare_rejection.errors());
    assert_eq!(validator.check(framed.as_str()).unwrap_err().errors(), bare_rejection.errors());
}

/// A call with trailing commas checks as the call without them (value, coercions, the same
/// rejection), with the commas' record, typed and untyped, framed or not.
#[test]
fn a_call_with_trailing_commas_checks_as_the_call_without_them() {
    let validator = Validator::new(&json!({
        "type": "object",
        "properties": {
            "priority": {"enum": ["low", "high"]},
            "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 2},
            "n": {"type": "integer", "maximum": 5}
        },
        "required": ["priority"],
        "additionalProperties": false
    }))
    .unwrap();
    let options = CheckOptions::default();
    for (with, without) in [
        (
            r#"{"priority": "high", "tags": ["a",], "n": 3,}"#,
            r#"{"priority": "high", "tags": ["a"], "n": 3}"#,
        ),
        (
            "{\n  \"priority\": \"HIGH\",\n  \"tags\": [\n    \"a,]\",\n  ],\n  \"n\": \"4\",\n}",
            r#"{"priority": "HIGH", "tags": ["a,]"], "n": "4"}"#,
        ),
        ("```json\n{\"priority\": \"low\",}\n```", "```json\n{\"priority\": \"low\"}\n```"),
        (r#"{"priority": "low", "tags": ["a", "b" ,]}"#, r#"{"priority": "low", "tags": ["a", "b"]}"#),
        (
            r#"{"tags": ["a",], "priority": "LOW", "n": "4",}"#,
            r#"{"tags": ["a"], "priority": "LOW", "n": "4"}"#,
        ),
    ] {
        let expected = validator.check_into::<Value>(without, &options).unwrap();
        let repairs = parse_without_fast_path(with.as_bytes(), &ParseOptions::default()).unwrap().repairs;
        assert!(repairs.iter().any(|repair| repair.kind.code() == "trailing_comma"), "{with:?}");
        let typed = validator.check_into::<Value>(with, &options).unwrap();
        let untyped = validator.check(with).unwrap();
        for checked in [&typed, &untyped] {
            assert_eq!(checked.value, expected.value, "{with:?}");
            assert_eq!(checked.report.coercions, expected.report.coercions, "{with:?}");
            assert_eq!(checked.report.repairs, repairs, "{with:?}");
        }
    }
    // Refused once the commas are set aside: the same errors as the call without them, and
    // the commas' record beside them.
    let (with, without) = (
        r#"{"priority": "urgent", "tags": ["a", "b", "c",], "n": 9,}"#,
        r#"{"priority": "urgent", "tags": ["a", "b", "c"], "n": 9}"#,
    );
    let expected = validator.check_into::<Value>(without, &options).unwrap_err();
    for rejection in
        [validator.check_into::<Value>(with, &options).unwrap_err(), validator.check(with).unwrap_err()]
    {
        assert_eq!(rejection.errors(), expected.errors());
        let kinds: Vec<&str> = rejection.repairs().iter().map(|repair| repair.kind.code()).collect();
        assert_eq!(kinds, ["trailing_comma"]);
    }
}

/// Arguments are an object: an array is refused as `not_object` whether it comes bare, in
/// a frame or with trailing commas, with the repairs its text needed (a derived type's
/// serde would otherwise read a struct from its items in order).
#[test]
fn an_array_in_a_frame_or_with_trailing_commas_is_not_arguments() {
    #[derive(Debug, serde::Deserialize, schemars::JsonSchema, ToolInput)]
    #[allow(dead_code)]
    struct Order {
        sku: String,
        quantity: u32,
    }
    let validator =
        Validator::new(&json!({"type": ["object", "array"], "items": {"type": "string"}})).unwrap();
    for (text, repairs) in [
        (r#"["bbb"]"#, vec![]),
        ("```json\n[\"bbb\"]\n```", vec!["code_fence"]),
        (r#"Here: ["bbb"]"#, vec!["prose_before"]),
        (r#"["bbb",]"#, vec!["trailing_comma"]),
        ("Sure:\n[\"bbb\",\n]", vec!["prose_before", "trailing_comma"]),
    ] {
        let typed = validator.check_into::<Value>(text, &CheckOptions::default()).unwrap_err();
        let untyped = validator.check(text).unwrap_err();
        for rejection in [&typed, &untyped] {
            assert_eq!(rejection.errors()[0].code(), ErrorCode::NotObject, "{text:?}");
            let kinds: Vec<&str> = rejection.repairs().iter().map(|repair| repair.kind.code()).collect();
            assert_eq!(kinds, repairs, "{text:?}");
        }
    }
    for text in [r#"["A-1", 2]"#, "```json\n[\"A-1\", 2]\n```", r#"["A-1", 2,]"#, r#"Order: ["A-1", 2]"#] {
        let rejection = Order::from_arguments(text).unwrap_err();
        assert_eq!(rejection.errors()[0].code(), ErrorCode::NotObject, "{text:?}");
    }
}

/// A framed call past the size limit is refused as too large, on every path, as it was
/// before frames were read apart.
#[test]
fn a_framed_call_past_the_size_limit_is_too_large() {
    let validator = Validator::new(&json!({"type": "object"})).unwrap();
    let framed = "```json\n{\"a\": 1}\n```";
    let options = CheckOptions::default().with_limits(Limits::default().with_max_bytes(framed.len() - 1));
    for rejection in [
        validator.check_into::<Value>(framed, &options).unwrap_err(),
        validator.check_with(framed.into(), &options).unwrap_err(),
    ] {
        assert_eq!(rejection.errors()[0].code(), ErrorCode::TooLarge, "{rejection:?}");
    }
    let parse_options = ParseOptions::default().with_max_bytes(framed.len() - 1);
    assert!(parse(framed, &parse_options).is_err());
    let within = CheckOptions::default().with_limits(Limits::default().with_max_bytes(framed.len()));
    assert_eq!(validator.check_into::<Value>(framed, &within).unwrap().value, json!({"a": 1}));
}
