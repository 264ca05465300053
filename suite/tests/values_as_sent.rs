//! Values as sent: a Python call is not a value, Python literals read as `ast.literal_eval`
//! reads them, numbers are compared exactly and kept (or refused) as sent, floats are
//! correctly rounded, on every entry point: `Validator::check`, the typed path, the
//! incremental parser and the repair mode. Each case asserts the value or the refusal.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};
use tool_input::parse::{parse, IncrementalParser, ParseOptions};
use tool_input::{CheckOptions, ErrorCode, Policy, ToolInput, Validator};

fn validator(schema: Value) -> Validator {
    Validator::new(&schema).unwrap()
}

/// The value the incremental parser reads from `text` fed in pieces of `size` bytes.
fn streamed(text: &str, size: usize) -> Result<Value, String> {
    let mut parser = IncrementalParser::new(ParseOptions::default());
    let mut from = 0;
    while from < text.len() {
        let mut to = (from + size).min(text.len());
        while !text.is_char_boundary(to) {
            to += 1;
        }
        parser.feed(&text[from..to]).map_err(|e| e.to_string())?;
        from = to;
    }
    parser.finish().map(|parsed| parsed.value).map_err(|e| e.to_string())
}

/// Any of a few fields.
#[derive(Debug, Deserialize, JsonSchema, ToolInput)]
#[allow(dead_code)]
struct Anything {
    i: Option<i64>,
    b: Option<bool>,
    xs: Option<Vec<i64>>,
    f: Option<f64>,
    tags: Option<Vec<String>>,
}

#[test]
fn a_python_call_in_a_value_is_refused_everywhere() {
    let open = validator(json!({"type": "object"}));
    for text in [
        r#"{"i": abs(-5)}"#,
        r#"{"b": not(True)}"#,
        r#"{"xs": sorted([3,1,2])}"#,
        r#"{"f": round(19.999)}"#,
        r#"{'i': int('7')}"#,
        r#"{"tags": [str(1)]}"#,
    ] {
        let rejection = open.check(text).unwrap_err();
        assert_eq!(rejection.errors()[0].code(), ErrorCode::Parse, "{text}: {rejection}");
        assert!(rejection.to_string().contains("function call is not a value"), "{text}: {rejection}");
        for policy in [Policy::Strict, Policy::Default, Policy::Lenient] {
            let typed = Anything::from_arguments_with(text, &CheckOptions::new().with_policy(policy));
            assert!(typed.is_err(), "{text} typed");
        }
        assert!(streamed(text, 3).is_err(), "{text} streamed");
        assert!(parse(text, &ParseOptions::repair()).is_err(), "{text} repair");
    }
}

#[test]
fn an_f_string_is_refused_as_an_expression_not_cut_off() {
    let open = validator(json!({"type": "object"}));
    for text in ["{'k': 'a' f'b'}", "'a' f'b'", "{'k': 'a' f'{x}'}", "{'k': f'b'}"] {
        let rejection = open.check(text).unwrap_err();
        assert_eq!(rejection.errors()[0].code(), ErrorCode::Parse, "{text}: {rejection}");
        assert!(rejection.to_string().contains("f-string"), "{text}: {rejection}");
        for size in 1..text.len() {
            let streamed = streamed(text, size).unwrap_err();
            assert!(streamed.contains("f-string"), "{text} in pieces of {size}: {streamed}");
        }
    }
}

#[test]
fn python_literals_read_the_same_on_every_entry_point() {
    let schema = json!({"type": "object", "properties": {
        "tags": {"type": "array", "items": {"type": "string"}},
        "s": {"type": "string"},
        "set": {"type": "array"}
    }});
    let v = validator(schema);
    let cases = [
        ("{'tags': ('a', 'b')}", json!({"tags": ["a", "b"]})),
        (r"{'s': '\x41\x42'}", json!({"s": "AB"})),
        (r"{'s': '\101\U0001F600'}", json!({"s": "A😀"})),
        ("{'s': 'a' u'b'}", json!({"s": "ab"})),
        ("{'s': 'a''b'}", json!({"s": "ab"})),
        ("{'set': {('a', 1), 'b'}}", json!({"set": [["a", 1], "b"]})),
    ];
    for (text, expected) in cases {
        let checked = v.check(text).unwrap_or_else(|r| panic!("{text}: {r}"));
        assert_eq!(checked.value, expected, "{text} check");
        assert!(!checked.report.repairs.is_empty(), "{text}: every Python form is recorded");
        assert_eq!(streamed(text, 2).as_ref(), Ok(&expected), "{text} streamed");
        assert_eq!(parse(text, &ParseOptions::default()).unwrap().value, expected, "{text} parse");
    }
    let typed = Anything::from_arguments("{'tags': ('a', 'b')}").unwrap();
    assert_eq!(typed.tags, Some(vec!["a".to_owned(), "b".to_owned()]));
}

#[test]
fn python_literals_as_the_whole_text_are_read_as_values() {
    // A tuple or joined literals as the whole arguments: read, then refused for not being an
    // object; never `truncated` or a syntax error about complete input.
    let v = validator(json!({"type": "object"}));
    for (text, kind) in
        [("('a', 'b')", "an array"), ("(1,)", "an array"), ("'a' u'b'", "a string"), ("'a''b'", "a string")]
    {
        let rejection = v.check(text).unwrap_err();
        assert_eq!(rejection.kind(), tool_input::RejectionKind::NotObject, "{text}: {rejection}");
        assert!(rejection.to_string().contains(kind), "{text}: {rejection}");
    }
    for (text, expected) in
        [("('a', 'b')", json!(["a", "b"])), ("'a' u'b'", json!("ab")), ("'a''b'", json!("ab"))]
    {
        assert_eq!(parse(text, &ParseOptions::default()).unwrap().value, expected, "{text}");
        assert_eq!(streamed(text, 2).as_ref(), Ok(&expected), "{text} streamed");
    }
}

/// `(schema, instance, accepted)`: bounds and options of every number kind against
/// instances of every kind, compared exactly.
#[test]
fn numbers_are_compared_exactly() {
    let cases = [
        (json!({"type": "number", "maximum": 18446744073709551615_u64}), "18446744073709551617", false),
        (json!({"type": "number", "maximum": 18446744073709551615_u64}), "18446744073709551615", true),
        (json!({"type": "number", "maximum": 9007199254740992.0}), "9007199254740993", false),
        (json!({"type": "number", "maximum": 9007199254740992.0}), "9007199254740992", true),
        (json!({"type": "number", "minimum": -9007199254740992.0}), "-9007199254740993", false),
        (json!({"type": "number", "exclusiveMaximum": 9007199254740992.0}), "9007199254740992", false),
        (json!({"type": "number", "exclusiveMinimum": 9007199254740992_u64}), "9007199254740993", true),
        (json!({"enum": [1, 9007199254740993_u64]}), "9007199254740992.0", false),
        (json!({"enum": [1, 9007199254740993_u64]}), "9007199254740993", true),
        (json!({"const": 9007199254740992.0}), "9007199254740993", false),
        (json!({"const": 9007199254740992.0}), "9007199254740992", true),
        (json!({"type": "number", "const": 12345678901234567890123.0}), "12345678901234567890124", false),
        // An integer written with a fraction of zeros is the integer it spells, not its float.
        (json!({"type": "number", "exclusiveMaximum": 9007199254740993_u64}), "9007199254740993.0", false),
        (json!({"type": "number", "maximum": 9007199254740992_u64}), "9007199254740993.0", false),
        (json!({"type": "number", "maximum": 9007199254740992_u64}), "9007199254740992.0", true),
        (json!({"type": "number"}), "1152921504606846976.0", true),
    ];
    for (schema, instance, accepted) in cases {
        let v = validator(json!({"type": "object", "properties": {"n": schema}}));
        let text = format!(r#"{{"n": {instance}}}"#);
        assert_eq!(v.check(text.as_str()).is_ok(), accepted, "{schema} {instance}");
        let mangled = format!(r#"{{'n': {instance},}}"#);
        assert_eq!(v.check(mangled.as_str()).is_ok(), accepted, "{schema} {instance} mangled");
    }
}

#[test]
fn an_integer_beyond_a_float_is_refused_quoting_it_as_sent() {
    for schema in [json!({"type": "number"}), json!({}), json!({"type": ["number", "null"]})] {
        let v = validator(json!({"type": "object", "properties": {"n": schema}}));
        for text in [r#"{"n": 12345678901234567890123}"#, r#"{'n': -12345678901234567890123,}"#] {
            let rejection = v.check(text).unwrap_err();
            let error = &rejection.errors()[0];
            assert_eq!((error.path(), error.code()), ("/n", ErrorCode::Inexact), "{schema} {text}");
            // Quoted as sent, not as the float it rounds to.
            let (said, instead) = error.message().split_once("; ").unwrap();
            assert!(said.contains("12345678901234567890123"), "{}", error.message());
            assert!(!said.contains("e+22") && !said.contains("e22"), "{}", error.message());
            // What to send instead works: a string only where the schema takes one.
            if schema.get("type").is_none() {
                assert_eq!(instead, "send it as a string");
            } else {
                let number = instead.strip_prefix("send a number a float keeps, such as ").unwrap();
                assert!(number.contains("e22"), "{instead}");
                assert!(v.check(format!(r#"{{"n": {number}}}"#).as_str()).is_ok(), "{instead}");
            }
        }
        // A float written as a float is the nearest float, as JSON reads it.
        for kept in [r#"{"n": 1e30}"#, r#"{"n": 2.5}"#, r#"{"n": 9007199254740993.5}"#] {
            assert!(v.check(kept).is_ok(), "{schema} {kept}");
        }
    }
}

/// The walk refuses more numbers than JSON Schema does (an integer a float does not keep
/// exactly, `1e20` where an integer is declared): where it asks only whether a subschema
/// holds (`not`, `if`, a count of `oneOf` branches), it asks as JSON Schema reads the
/// float, so that refusing more never turns into accepting what the schema refuses.
#[test]
fn a_number_refused_as_inexact_still_holds_where_a_subschema_is_only_asked() {
    let refused = [
        json!({"not": {"type": "integer"}}),
        json!({"not": {"not": {"not": {"type": "integer"}}}}),
        json!({"oneOf": [{"type": "integer"}, {"type": "number", "minimum": 0}]}),
        json!({"oneOf": [{"type": "number"}, {"type": "integer"}]}),
        json!({"if": {"type": "integer"}, "then": {"maximum": 0.5}}),
        json!({"type": "array", "items": {"not": {"type": "integer"}}}),
        json!({"type": "array", "contains": {"type": "integer"}, "maxContains": 1}),
    ];
    for schema in refused {
        for sent in ["1e20", "18446744073709551616", "0.99999999999999999"] {
            let sent =
                if schema.get("type").is_some() { format!("[{sent}, {sent}]") } else { sent.to_owned() };
            let text = format!(r#"{{"n": {sent}}}"#);
            for policy in [Policy::Strict, Policy::Default, Policy::Lenient] {
                let v = Validator::builder(&json!({"type": "object", "properties": {"n": schema}}))
                    .policy(policy)
                    .build()
                    .unwrap();
                let instance: Value = serde_json::from_str(&text).unwrap();
                assert!(!v.is_valid(&instance), "{schema} {text}");
                assert!(v.check(text.as_str()).is_err(), "{schema} {policy} {text}: accepted");
            }
        }
    }
    // Where the value is taken, the walk still refuses what a float does not keep.
    for schema in [
        json!({"anyOf": [{"type": "integer"}, {"type": "string"}]}),
        json!({"oneOf": [{"type": "integer"}, {"type": "string"}]}),
        json!({"if": {"type": "number"}, "then": {"type": "integer"}, "else": {"type": "string"}}),
        json!({"if": {"type": "number"}, "then": {"type": "integer"}}),
        json!({"if": {"minimum": 0}, "then": {"type": "integer"}}),
        json!({"if": {"type": "string"}, "else": {"type": "integer"}}),
    ] {
        let v = validator(json!({"type": "object", "properties": {"n": schema}}));
        // (An integer written as a float within 64 bits is the integer its text denotes:
        // `9007199254740993.0` is taken; past them it cannot be.)
        let rejection = v.check(r#"{"n": 100000000000000000000.0}"#).unwrap_err();
        // Said once, by the subschema that takes the number, in its terms: the node leaves
        // it to a subschema that always takes it, and to the branch of an `if` that applies.
        let [error] = rejection.errors() else { panic!("{schema}: {rejection}") };
        assert_eq!((error.path(), error.code()), ("/n", ErrorCode::Inexact), "{schema}");
        assert!(error.message().contains("cannot be kept exactly as an integer"), "{schema}: {rejection}");
        assert_eq!(v.check(r#"{"n": 12}"#).unwrap().value, json!({"n": 12}), "{schema}");
    }
    // Where the branch of an `if` does not apply, the node itself says it, once.
    let v = validator(
        json!({"type": "object", "properties": {"n": {"if": {"maximum": 0}, "then": {"type": "integer"}}}}),
    );
    let rejection = v.check(r#"{"n": 12345678901234567890123}"#).unwrap_err();
    let [error] = rejection.errors() else { panic!("{rejection}") };
    assert!(error.message().contains("has more digits than a number keeps exactly"), "{rejection}");
    // A node that takes no string is not told to send one: a union of other types, or a
    // node whose `not` (or a bound) refuses the digits as a string.
    for schema in [
        json!({"anyOf": [{"type": "number"}, {"type": "boolean"}]}),
        json!({"not": {"type": "string"}}),
        json!({"type": ["number", "string"], "maxLength": 8}),
    ] {
        let v = validator(json!({"type": "object", "properties": {"n": schema}}));
        let rejection = v.check(r#"{"n": 12345678901234567890123}"#).unwrap_err();
        let [error] = rejection.errors() else { panic!("{schema}: {rejection}") };
        assert!(error.message().contains("such as 1.2345678901234568e22"), "{schema}: {}", error.message());
    }
    // One that takes it is.
    let v = validator(json!({"type": "object", "properties": {"n": {"not": {"type": "boolean"}}}}));
    let rejection = v.check(r#"{"n": 12345678901234567890123}"#).unwrap_err();
    assert!(rejection.errors()[0].message().ends_with("send it as a string"), "{rejection}");
    // So too where a keyword applies a subschema to the value itself.
    let v = validator(
        json!({"type": "object", "dependentSchemas": {"n": {"properties": {"n": {"type": "integer"}}}}}),
    );
    let rejection = v.check(r#"{"n": 100000000000000000000.0}"#).unwrap_err();
    assert_eq!(rejection.errors()[0].code(), ErrorCode::Inexact, "{rejection}");
}

/// A number beyond the floats (`1e400`, 400 digits) is JSON, so it is no parse error: it is
/// out of range, said at its path, on every entry point. As with any failure of the
/// reading, the first is said: a syntax error before it is a parse error, and what follows
/// it (another such number, a cut) is not read.
#[test]
fn a_number_beyond_the_floats_is_out_of_range_at_its_path() {
    let digits = "9".repeat(400);
    let cases = [
        (r#"{"n": 1e400}"#.to_owned(), vec!["/n"]),
        (format!(r#"{{"n": -{digits}}}"#), vec!["/n"]),
        (r#"{"xs": [1, 2e999], "f": -1e309}"#.to_owned(), vec!["/xs/1"]),
        (r#"{'f': .5e400, 'xs': (1_0e400,)}"#.to_owned(), vec!["/f"]),
        (r#"{'xs': (1, 1_0e400,)}"#.to_owned(), vec!["/xs/1"]),
        (r#"{"i": 1, "f": 1e400"#.to_owned(), vec!["/f"]),
        (r#"{"f": 1e400, "i": }"#.to_owned(), vec!["/f"]),
        ("Here you go:\n```json\n{\"f\": 1E+400}\n```".to_owned(), vec!["/f"]),
        // A payload sent as a JSON string, once or twice over: placed inside it.
        (r#""{\"xs\": [0, 1e400]}""#.to_owned(), vec!["/xs/1"]),
        (r#" "\"{\\\"n\\\": -1e999}\"" "#.to_owned(), vec!["/n"]),
        // Escaped JSON (`\"` for `"`), alone, and in quotes after prose.
        (r#"{\"xs\": [1, 1e400]}"#.to_owned(), vec!["/xs/1"]),
        (r#"Sure: "{\"n\": \"1e999\", \"f\": -1e309}" done"#.to_owned(), vec!["/f"]),
    ];
    let open = validator(json!({"type": "object"}));
    for (text, paths) in &cases {
        let lenient_only = text.contains('\'')
            || text.contains("```")
            || text.trim().starts_with('"')
            || text.contains("\\\"");
        let policies: &[Policy] = if lenient_only {
            &[Policy::Default, Policy::Lenient]
        } else {
            &[Policy::Strict, Policy::Default]
        };
        for &policy in policies {
            let options = CheckOptions::new().with_policy(policy);
            for rejection in [
                open.check_with(text.into(), &options).unwrap_err(),
                Anything::from_arguments_with(text, &options).unwrap_err(),
            ] {
                assert_eq!(rejection.kind(), tool_input::RejectionKind::Invalid, "{text}: {rejection}");
                let found: Vec<(&str, ErrorCode)> =
                    rejection.errors().iter().map(|error| (error.path(), error.code())).collect();
                let expected: Vec<(&str, ErrorCode)> =
                    paths.iter().map(|path| (*path, ErrorCode::Range)).collect();
                assert_eq!(found, expected, "{text} {policy:?}");
                assert!(rejection.errors()[0].message().contains("beyond the range"), "{rejection}");
                assert!(
                    !rejection.to_string().contains("400"),
                    "nothing of the number is quoted: {rejection}"
                );
            }
        }
        match streamed(text, 3) {
            // A payload sent as a string: the string is what the JSON reads as.
            Ok(Value::String(_)) if text.trim().starts_with('"') => {}
            other => {
                let error = other.unwrap_err();
                assert!(error.starts_with("number out of range"), "{text}: {error}");
            }
        }
    }
    // A payload sent as a string inside a response body's call: the same error, at its path.
    let body = json!({"choices": [{"message": {"tool_calls": [{"id": "c1", "type": "function",
        "function": {"name": "t", "arguments": r#""{\"xs\": [1, 1e400]}""#}}]}}]});
    let calls = tool_input::calls::parse_value(&body, &tool_input::calls::CallOptions::new()).unwrap();
    let rejection = calls.errors[0].rejection.as_ref().expect("a rejection");
    let found: Vec<(&str, ErrorCode)> = rejection.errors().iter().map(|e| (e.path(), e.code())).collect();
    assert_eq!(found, [("/xs/1", ErrorCode::Range)], "{rejection}");
    let rejection = open.check(r#"{"i": , "f": 1e400}"#).unwrap_err();
    assert_eq!(rejection.errors()[0].code(), ErrorCode::Parse, "{rejection}");
    // A candidate after prose that the number cut short is passed over as before, and lends
    // nothing to how the one read is quoted.
    let named = validator(json!({"type": "object", "properties": {"n": {"type": "string"}}}));
    let rejection = named.check("Not [1e400] but {\"n\": 1.50}").unwrap_err();
    assert_eq!((rejection.errors()[0].path(), rejection.errors()[0].value()), ("/n", Some("1.50")));
    // Below the floats' range a number underflows to zero, as every JSON reader reads it.
    assert_eq!(open.check(r#"{"f": 1e-400}"#).unwrap().value, json!({"f": 0.0}));
}

/// The same digits sent as a string are not made into the float they round to either: a
/// coercion changes how a number is written, never which number it is.
#[test]
fn an_integer_beyond_a_float_sent_as_a_string_is_not_rounded() {
    for schema in [
        json!({"type": "number"}),
        json!({"type": ["number", "null"]}),
        json!({"type": "number", "maximum": 5}),
    ] {
        let v = validator(json!({"type": "object", "properties": {"n": schema}}));
        for sent in [
            "12345678901234567890123",
            "-12345678901234567890123",
            "9007199254740993.0",
            "1e400000000000000000000",
        ] {
            let text = format!(r#"{{"n": "{sent}"}}"#);
            let rejection = v.check(text.as_str()).unwrap_err();
            let error = &rejection.errors()[0];
            if sent.contains('e') {
                // Written as a float: the nearest float is infinite, which no number is.
                assert_eq!(error.path(), "/n", "{schema} {text}: {rejection}");
                continue;
            }
            assert_eq!(
                (error.path(), error.code()),
                ("/n", ErrorCode::Inexact),
                "{schema} {text}: {rejection}"
            );
            assert!(error.message().contains(sent), "{}", error.message());
            assert!(!error.message().contains("e+22"), "{}", error.message());
            let wrapped = json!({"type": "object", "properties": {"n": schema}});
            let lenient = Validator::builder(&wrapped).policy(Policy::Lenient).build().unwrap();
            assert!(lenient.check(text.as_str()).is_err(), "{schema} {text} lenient");
        }
        // Integers a float keeps (2^60, and those of 64 bits, kept as integers) and floats
        // written as floats are coerced, as the same text sent as a number is accepted.
        for (sent, number) in [
            ("1152921504606846976", json!(1152921504606846976u64)),
            ("9007199254740993", json!(9007199254740993u64)),
            ("-9007199254740993", json!(-9007199254740993i64)),
            ("0.1000000000000000000000001", json!(0.1)),
            ("2.5", json!(2.5)),
        ] {
            let text = format!(r#"{{"n": "{sent}"}}"#);
            let expected_ok =
                !schema.get("maximum").is_some_and(|_| number.as_f64().is_some_and(|n| n > 5.0));
            match v.check(text.as_str()) {
                Ok(checked) => {
                    assert!(expected_ok, "{schema} {text}");
                    assert_eq!(checked.value["n"], number, "{schema} {text}");
                }
                Err(rejection) => assert!(!expected_ok, "{schema} {text}: {rejection}"),
            }
        }
    }
}

/// A typed `f64` field reads the digits sent as a string as the engine does.
#[test]
fn a_typed_float_refuses_a_rounded_integer_sent_as_a_string() {
    #[derive(Debug, Deserialize, JsonSchema, ToolInput)]
    struct Measure {
        amount: f64,
    }
    let rejection = Measure::from_arguments(r#"{"amount": "12345678901234567890123"}"#).unwrap_err();
    assert_eq!(rejection.errors()[0].code(), ErrorCode::Inexact, "{rejection}");
    let measure = Measure::from_arguments(r#"{"amount": "2.5"}"#).unwrap();
    assert_eq!(measure.amount, 2.5);
}

/// Every message, error value and record quotes a number as it was sent: the digits of a
/// number beyond 64 bits, `1.50` with its zero, never the float they round to.
#[test]
fn messages_quote_numbers_as_sent() {
    let cases = [
        (json!({"enum": [1, 2]}), "1234567890123456789012", ErrorCode::Enum),
        (json!({"enum": [1, 2]}), "9007199254740993.0", ErrorCode::Enum),
        (json!({"type": "boolean"}), "1234567890123456789012", ErrorCode::Type),
        (json!({"type": "string"}), "12345678901234567890123", ErrorCode::Type),
        (json!({"const": 7}), "1.50", ErrorCode::Const),
        (json!({"type": "number", "maximum": 1}), "1.50", ErrorCode::Range),
        (json!({"type": "number", "multipleOf": 1}), "1.50", ErrorCode::MultipleOf),
        (json!({"anyOf": [{"type": "string"}, {"type": "boolean"}]}), "1.50", ErrorCode::Type),
    ];
    for (schema, sent, code) in cases {
        let v = validator(json!({"type": "object", "properties": {"n": schema}}));
        for text in [format!(r#"{{"n": {sent}}}"#), format!("{{'n': {sent},}}")] {
            let rejection = v.check(text.as_str()).unwrap_err();
            let error = &rejection.errors()[0];
            assert_eq!(error.code(), code, "{schema} {text}: {rejection}");
            assert!(error.message().contains(sent), "{schema} {text}: {}", error.message());
            if let Some(value) = error.value() {
                assert_eq!(value, sent, "{schema} {text}");
            }
            let everything = rejection.to_string();
            for rounded in ["e+21", "e+22", "9007199254740992", "1.5 ", "1.5,"] {
                assert!(!everything.contains(rounded), "{schema} {text}: {everything}");
            }
        }
    }
    // Inside a Python tuple, whether it holds one item (which it is) or several (an array),
    // and in a set, whose first item is read as a key would be.
    let v = validator(json!({"type": "object", "properties": {
        "x": {"type": "string"},
        "ys": {"type": "array", "items": {"type": "array", "items": {"type": "string"}}},
    }}));
    for (text, expected) in [
        ("{'x': (1.50)}", vec![("/x", "1.50")]),
        ("{'x': ((1.50))}", vec![("/x", "1.50")]),
        (
            "{'ys': ((1.50,), (2.50, 3.50))}",
            vec![("/ys/0/0", "1.50"), ("/ys/1/0", "2.50"), ("/ys/1/1", "3.50")],
        ),
        (
            "{'ys': [((1.50,)), [(2.50), 3.50]]}",
            vec![("/ys/0/0", "1.50"), ("/ys/1/0", "2.50"), ("/ys/1/1", "3.50")],
        ),
        (
            "{'ys': [{1.50, 2.50}, {-7.0}]}",
            vec![("/ys/0/0", "1.50"), ("/ys/0/1", "2.50"), ("/ys/1/0", "-7.0")],
        ),
    ] {
        let rejection = v.check(text).unwrap_err();
        let found: Vec<(&str, &str)> = rejection
            .errors()
            .iter()
            .map(|error| (error.path(), error.value().unwrap_or_default()))
            .collect();
        assert_eq!(found, expected, "{text}: {rejection}");
    }
    // A coercion's record quotes what was sent too.
    let v = validator(json!({"type": "object", "properties": {"code": {"type": "string"}}}));
    let lenient = CheckOptions::new().with_policy(Policy::Lenient);
    let checked = v.check_with(r#"{"code": 1.50}"#.into(), &lenient).unwrap();
    let record = serde_json::to_value(&checked.report.coercions[0]).unwrap();
    assert_eq!(record["from"], json!("1.50"), "{record}");
}

/// A code.
#[derive(Debug, Deserialize, JsonSchema, ToolInput)]
struct Code {
    code: String,
}

#[test]
fn a_number_made_a_string_is_the_text_as_sent() {
    let lenient = CheckOptions::new().with_policy(Policy::Lenient);
    let v = validator(json!({"type": "object", "properties": {"code": {"type": "string"}}}));
    for sent in ["12345678901234567890123", "1.50", "9007199254740993.0", "-0.0", "1e5", "12"] {
        for text in [format!(r#"{{"code": {sent}}}"#), format!("{{'code': {sent},}}")] {
            let checked =
                v.check_with(text.as_str().into(), &lenient).unwrap_or_else(|r| panic!("{text}: {r}"));
            assert_eq!(checked.value, json!({"code": sent}), "{text}");
            let typed = Code::from_arguments_with(text.as_str(), &lenient).unwrap();
            assert_eq!(typed.value.code, sent, "{text} typed");
        }
    }
}

#[test]
fn floats_are_correctly_rounded_on_every_entry_point() {
    // serde_json without `float_roundtrip` reads these one unit in the last place off.
    for sent in ["977765.4534335453", "0.1000000000000000055511151231257827", "1.5e-30"] {
        let exact: f64 = sent.parse().unwrap();
        let v = validator(json!({"type": "object", "properties": {"f": {"type": "number"}}}));
        for text in [format!(r#"{{"f": {sent}}}"#), format!("{{'f': {sent}}}")] {
            assert_eq!(v.check(text.as_str()).unwrap().value["f"].as_f64(), Some(exact), "{text}");
            assert_eq!(Anything::from_arguments(text.as_str()).unwrap().f, Some(exact), "{text}");
            assert_eq!(streamed(&text, 4).unwrap()["f"].as_f64(), Some(exact), "{text}");
        }
    }
}
