//! Table-driven tests of the lexer and builder, and of feeding them in fragments.

use serde_json::{json, Value};

use super::lexer::Failure;
use super::tree::{Machine, Outcome};
use super::{
    parse, parse_without_fast_path, NonFinite, ParseError, ParseMode, ParseOptions, RepairKind, RepairStyle,
};
use RepairKind::*;

fn lenient() -> ParseOptions {
    ParseOptions::default()
}

fn completing() -> ParseOptions {
    ParseOptions { complete_truncated: true, ..ParseOptions::default() }
}

fn repairing() -> ParseOptions {
    ParseOptions { complete_truncated: true, ..ParseOptions::repair() }
}

fn kinds(repairs: &[super::Repair]) -> Vec<RepairKind> {
    repairs.iter().map(|r| r.kind).collect()
}

/// Parse through the public API and through our own parser alone; both must agree.
fn check(input: &str, options: &ParseOptions, expected: &Value, repairs: &[RepairKind]) {
    let parsed = parse(input, options).unwrap_or_else(|e| panic!("{input:?}: {e}"));
    assert_eq!(&parsed.value, expected, "value of {input:?}");
    // The public API reports each kind once, at its first occurrence, with a count.
    let mut once: Vec<RepairKind> = Vec::new();
    for kind in repairs {
        if !once.contains(kind) {
            once.push(*kind);
        }
    }
    assert_eq!(kinds(&parsed.repairs), once, "repairs of {input:?}");
    let total: usize = parsed.repairs.iter().map(|r| r.count).sum();
    assert_eq!(total, repairs.len(), "repair count of {input:?}");
    let own = parse_without_fast_path(input.as_bytes(), options).unwrap_or_else(|e| panic!("{input:?}: {e}"));
    assert_eq!(own, parsed, "own parser on {input:?}");
}

#[test]
fn strict_json_needs_no_repair() {
    let cases: &[(&str, Value)] = &[
        (
            r#"{"a": [1, 2.5, -3, true, false, null, "x"]}"#,
            json!({"a": [1, 2.5, -3, true, false, null, "x"]}),
        ),
        (r#""\u00e9\ud83d\ude00\n\t\"\\\/""#, json!("é😀\n\t\"\\/")),
        ("  123  ", json!(123)),
        ("-0.5e-3", json!(-0.0005)),
        ("18446744073709551615", json!(18446744073709551615u64)),
        ("-9223372036854775808", json!(i64::MIN)),
        ("18446744073709551616", json!(18446744073709551616.0)),
        (r#"{"a": 1, "a": 2}"#, json!({"a": 2})),
        ("[]", json!([])),
        ("{}", json!({})),
        (r#""“x” ‘y’ 'z'""#, json!("“x” ‘y’ 'z'")),
    ];
    for (input, expected) in cases {
        check(input, &ParseOptions::strict(), expected, &[]);
        check(input, &lenient(), expected, &[]);
    }
}

#[test]
fn negative_zero_matches_serde_json() {
    let ours = parse_without_fast_path(b"[-0, 0, -0.0]", &ParseOptions::strict()).unwrap().value;
    let theirs: Value = serde_json::from_str("[-0, 0, -0.0]").unwrap();
    assert_eq!(ours, theirs);
    assert_eq!(ours.to_string(), theirs.to_string());
}

#[test]
fn lenient_repairs() {
    let cases: &[(&str, Value, &[RepairKind])] = &[
        ("\u{feff}{\"a\":1}", json!({"a": 1}), &[Bom]),
        ("```json\n{\"a\": 1}\n```", json!({"a": 1}), &[CodeFence]),
        ("```\n[1]\n```\n", json!([1]), &[CodeFence]),
        ("```json {\"a\": 1}```", json!({"a": 1}), &[CodeFence]),
        ("````json\n[1]\n````", json!([1]), &[CodeFence]),
        ("Sure! Here is the input:\n{\"a\": 1}", json!({"a": 1}), &[ProseBefore]),
        ("I'll call it now: [1, 2]", json!([1, 2]), &[ProseBefore]),
        ("{\"a\": 1} Hope this helps!", json!({"a": 1}), &[ProseAfter]),
        ("{\"a\": 1}\n(ship date is approximate)", json!({"a": 1}), &[ProseAfter]),
        ("Sure! ```json\n{\"a\":1}\n``` Done.", json!({"a": 1}), &[ProseBefore, CodeFence, ProseAfter]),
        ("Note [see below]: {\"a\": 1}", json!({"a": 1}), &[ProseBefore]),
        ("Sure, {here it is}: {\"a\": 1}", json!({"a": 1}), &[ProseBefore]),
        ("1. Call it with {\"a\": 1}", json!({"a": 1}), &[ProseBefore]),
        ("[1, 2,]", json!([1, 2]), &[TrailingComma]),
        ("{\"a\": [1,],}", json!({"a": [1]}), &[TrailingComma, TrailingComma]),
        ("{\"a\": 1,\n}", json!({"a": 1}), &[TrailingComma]),
        ("{'a': 'b'}", json!({"a": "b"}), &[SingleQuotes, SingleQuotes]),
        ("['it's', 'b']", json!(["it's", "b"]), &[SingleQuotes, SingleQuotes]),
        ("{'it's': 'x' }", json!({"it's": "x"}), &[SingleQuotes, SingleQuotes]),
        ("['a' , 'b'\n]", json!(["a", "b"]), &[SingleQuotes, SingleQuotes]),
        ("'a'", json!("a"), &[SingleQuotes]),
        ("{'k': 'O\\'Brien'}", json!({"k": "O'Brien"}), &[SingleQuotes, SingleQuotes]),
        ("['say \"hi\"']", json!(["say \"hi\""]), &[SingleQuotes]),
        ("{“a”: “b”}", json!({"a": "b"}), &[SmartQuotes, SmartQuotes]),
        ("[‘it’s’]", json!(["it’s"]), &[SmartQuotes]),
        ("[“He said “hi” to me”]", json!(["He said “hi” to me"]), &[SmartQuotes]),
        (
            "{customer_id: 1, $ref: 2, a-b: 3}",
            json!({"customer_id": 1, "$ref": 2, "a-b": 3}),
            &[UnquotedKey, UnquotedKey, UnquotedKey],
        ),
        (
            "{größe: 1, true: 2, 1: 3}",
            json!({"größe": 1, "true": 2, "1": 3}),
            &[UnquotedKey, UnquotedKey, UnquotedKey],
        ),
        ("{\"a\": 1 // c\n, /* x */ \"b\": 2 # y\n}", json!({"a": 1, "b": 2}), &[Comment, Comment, Comment]),
        ("// leading\n[1] // trailing", json!([1]), &[Comment, Comment]),
        ("[1, /* a ** b */ 2]", json!([1, 2]), &[Comment]),
        ("[1, /* c */ ]", json!([1]), &[TrailingComma, Comment]),
        (
            "{\"a\": True, \"b\": False, \"c\": None}",
            json!({"a": true, "b": false, "c": null}),
            &[PythonLiteral, PythonLiteral, PythonLiteral],
        ),
        ("None", json!(null), &[PythonLiteral]),
        ("{\"a\": \"x\ny\"}", json!({"a": "x\ny"}), &[ControlCharacter]),
        (
            "{'a': 'x'\n, 'b': 'it'\ns'}",
            json!({"a": "x", "b": "it'\ns"}),
            &[SingleQuotes, SingleQuotes, SingleQuotes, SingleQuotes, ControlCharacter],
        ),
        ("{\"a\": \"\\d\\q\"}", json!({"a": "\\d\\q"}), &[InvalidEscape, InvalidEscape]),
        ("[\"\\'\"]", json!(["'"]), &[InvalidEscape]),
        ("[\"\\u12G4\"]", json!(["\\u12G4"]), &[InvalidEscape]),
        ("[\"\\ud800x\"]", json!(["\u{fffd}x"]), &[LoneSurrogate]),
        ("[\"\\udc00\"]", json!(["\u{fffd}"]), &[LoneSurrogate]),
        ("[\"\\ud800\\n\"]", json!(["\u{fffd}\n"]), &[LoneSurrogate]),
        ("[\"\\ud800\\u0041\"]", json!(["\u{fffd}A"]), &[LoneSurrogate]),
        ("[\"\\ud800\\ud83d\\ude00\"]", json!(["\u{fffd}😀"]), &[LoneSurrogate]),
        ("\"{\\\"a\\\": 1}\"", json!({"a": 1}), &[DoubleEncoded]),
        ("  \" [1, 2] \"", json!([1, 2]), &[DoubleEncoded]),
        ("\"{'a': 1,}\"", json!({"a": 1}), &[DoubleEncoded, SingleQuotes, TrailingComma]),
        ("\"[see docs]\"", json!("[see docs]"), &[]),
        ("\"{\\\"a\\\": 1} and more\"", json!("{\"a\": 1} and more"), &[]),
        ("\"[1, 2\"", json!("[1, 2"), &[]),
        ("\"plain\"", json!("plain"), &[]),
        ("{\"a\": 1} /", json!({"a": 1}), &[ProseAfter]),
        ("{\"a\": 1} `x`", json!({"a": 1}), &[ProseAfter]),
        ("42 is the answer", json!(42), &[ProseAfter]),
        ("true // yes", json!(true), &[Comment]),
        ("1//c", json!(1), &[Comment]),
        ("{\"a\": 1}\n```\ntext", json!({"a": 1}), &[ProseAfter]),
        (
            "{\"a\":\u{a0}1,\u{200b}\"b\": 2\u{3000}}",
            json!({"a": 1, "b": 2}),
            &[SpecialWhitespace, SpecialWhitespace, SpecialWhitespace],
        ),
        ("[undefined, None]", json!([null, null]), &[Undefined, PythonLiteral]),
        (
            "[.5, -.25, 0x1F, -0x10, 1.]",
            json!([0.5, -0.25, 31, -16, 1.0]),
            &[NumberSyntax, NumberSyntax, HexNumber, HexNumber, NumberSyntax],
        ),
        ("{\\\"a\\\": \\\"b\\\"}", json!({"a": "b"}), &[EscapedJson]),
        ("\\\"x\\\"", json!("x"), &[EscapedJson]),
        (
            "{\"_id\": ObjectId(\"123\"), \"n\": NumberLong(2)}",
            json!({"_id": "123", "n": 2}),
            &[FunctionCall, FunctionCall],
        ),
        ("callback({\"a\": 1});", json!({"a": 1}), &[FunctionCall, ProseAfter]),
        ("{\"a\": \"first\\\nsecond\"}", json!({"a": "first\nsecond"}), &[InvalidEscape]),
    ];
    for (input, expected, repairs) in cases {
        check(input, &lenient(), expected, repairs);
        let strict = parse(input, &ParseOptions::strict());
        if repairs.is_empty() {
            assert_eq!(strict.map(|p| p.value).as_ref(), Ok(expected), "strict {input:?}");
        } else if repairs[0] != DoubleEncoded {
            assert!(strict.is_err(), "strict must reject {input:?}");
        }
    }
}

#[test]
fn double_encoding_is_bounded_to_two_levels() {
    let once = serde_json::to_string(&json!({"a": 1}).to_string()).unwrap();
    let twice = serde_json::to_string(&once).unwrap();
    let thrice = serde_json::to_string(&twice).unwrap();
    check(&once, &lenient(), &json!({"a": 1}), &[DoubleEncoded]);
    check(&twice, &lenient(), &json!({"a": 1}), &[DoubleEncoded, DoubleEncoded]);
    // Three levels: left as the string it is.
    let parsed = parse(&thrice, &lenient()).unwrap();
    assert_eq!(parsed.value, serde_json::from_str::<Value>(&thrice).unwrap());
    assert!(parsed.repairs.is_empty());
    // Strict mode never decodes.
    assert_eq!(parse(&once, &ParseOptions::strict()).unwrap().value, json!("{\"a\":1}"));
}

#[test]
fn truncation_is_an_error() {
    let cases: &[(&str, &str)] = &[
        ("{\"a\": 1", "an object"),
        ("[1, 2", "an array"),
        ("\"abc", "a string"),
        ("[\"a\\", "a string"),
        ("[\"\\u12", "a string"),
        ("[\"\\ud83d", "a string"),
        ("[\"\\ud83d\\", "a string"),
        ("tru", "a literal"),
        ("[nul", "a literal"),
        ("{\"a\":", "an object"),
        ("{\"a\"", "an object"),
        ("[1,", "an array"),
        ("[", "an array"),
        ("1e", "a number"),
        ("[-", "a number"),
        ("[1.", "a number"),
        ("[1e+", "a number"),
        ("{\"a\": [1, {\"b\": ", "an object"),
    ];
    for (input, inside) in cases {
        for options in [ParseOptions::strict(), lenient()] {
            let expected = ParseError::Truncated { bytes: input.len(), inside };
            assert_eq!(parse(input, &options), Err(expected.clone()), "{input:?} {:?}", options.mode);
            assert_eq!(parse_without_fast_path(input.as_bytes(), &options), Err(expected), "{input:?}");
        }
    }
    let lenient_only: &[(&str, &str)] = &[
        ("{a", "an object"),
        ("{'a': 'b", "a string"),
        ("{“a", "a string"),
        ("[Tru", "a literal"),
        ("```json\n{\"a\": [1\n```", "an array"),
        ("Here: {\"a\": 1", "an object"),
    ];
    for (input, inside) in lenient_only {
        assert_eq!(
            parse(input, &lenient()),
            Err(ParseError::Truncated { bytes: input.len(), inside }),
            "{input:?}"
        );
    }
    // Not truncated.
    assert_eq!(parse("123", &ParseOptions::strict()).unwrap().value, json!(123));
    assert_eq!(parse_without_fast_path(b"-1.5e3", &ParseOptions::strict()).unwrap().value, json!(-1500.0));
    assert_eq!(parse("true", &ParseOptions::strict()).unwrap().value, json!(true));
    assert_eq!(parse("{\"a\": 1} trailing prose", &lenient()).unwrap().value, json!({"a": 1}));
    assert_eq!(parse("{'a': 'b'", &lenient()), Err(ParseError::Truncated { bytes: 9, inside: "an object" }));
}

#[test]
fn complete_truncated_closes_everything() {
    let cases: &[(&str, Value)] = &[
        ("{\"a\": \"hel", json!({"a": "hel"})),
        ("{\"a\": [1, 2", json!({"a": [1, 2]})),
        ("{\"a\": tru", json!({"a": true})),
        ("[fal", json!([false])),
        ("[nul", json!([null])),
        ("{\"a\": 1, \"b", json!({"a": 1, "b": null})),
        ("{\"a\": 1, \"b\"", json!({"a": 1, "b": null})),
        ("{\"a\": 1, \"b\":", json!({"a": 1, "b": null})),
        ("{\"a\": 1, \"a", json!({"a": 1})),
        ("{\"a\": 1,", json!({"a": 1})),
        ("[1e", json!([1])),
        ("[-", json!([])),
        ("[1.5e+", json!([1.5])),
        ("[1.", json!([1])),
        ("-", json!(null)),
        ("{\"a\": \"x\\", json!({"a": "x"})),
        ("{\"a\": \"\\u12", json!({"a": ""})),
        ("{\"a\": \"\\ud83d", json!({"a": ""})),
        ("[[[[", json!([[[[]]]])),
        ("{\"a\": {\"b\": [", json!({"a": {"b": []}})),
        ("\"abc", json!("abc")),
        ("tr", json!(true)),
    ];
    for (input, expected) in cases {
        for mode in [ParseMode::Strict, ParseMode::Lenient] {
            let options = ParseOptions { mode, complete_truncated: true, ..ParseOptions::default() };
            if input == &"-" {
                assert!(matches!(parse(input, &options), Err(ParseError::Syntax { .. })));
                continue;
            }
            let parsed = parse(input, &options).unwrap_or_else(|e| panic!("{input:?}: {e}"));
            assert_eq!(&parsed.value, expected, "{input:?}");
            assert_eq!(kinds(&parsed.repairs), [CompletedTruncated], "{input:?}");
            assert_eq!(parsed.repairs[0].offset, input.len());
        }
    }
    let lenient_cases: &[(&str, Value, &[RepairKind])] = &[
        ("{a", json!({"a": null}), &[UnquotedKey, CompletedTruncated]),
        ("{a: No", json!({"a": null}), &[UnquotedKey, PythonLiteral, CompletedTruncated]),
        ("{'a': 'it", json!({"a": "it"}), &[SingleQuotes, SingleQuotes, CompletedTruncated]),
        ("{'a': 'x' ", json!({"a": "x"}), &[SingleQuotes, SingleQuotes, CompletedTruncated]),
        ("```json\n{\"a\": [1\n```", json!({"a": [1]}), &[CodeFence, CompletedTruncated]),
        ("Here: [1, 2", json!([1, 2]), &[ProseBefore, CompletedTruncated]),
    ];
    for (input, expected, repairs) in lenient_cases {
        check(input, &completing(), expected, repairs);
    }
    // Complete input is left alone.
    assert!(parse("{\"a\": 1}", &completing()).unwrap().repairs.is_empty());
}

#[test]
fn syntax_errors_have_positions() {
    let cases: &[(&str, ParseMode, &str, usize, usize, usize)] = &[
        ("{\"a\" 1}", ParseMode::Lenient, "expected `:` after an object key, found a number", 5, 1, 6),
        (
            "{\"a\": 1\n \"b\": 2}",
            ParseMode::Lenient,
            "expected `,` or `}` after an object value, found a string",
            9,
            2,
            2,
        ),
        ("[1 2]", ParseMode::Strict, "expected `,` or `]` after an array value, found a number", 3, 1, 4),
        ("[1,]", ParseMode::Strict, "trailing comma before `]`", 3, 1, 4),
        ("{'a': 1}", ParseMode::Strict, "unexpected character `'`", 1, 1, 2),
        ("[\"é\", x]", ParseMode::Lenient, "unexpected word `x`", 7, 1, 7),
        ("[1] x", ParseMode::Strict, "unexpected character `x` after the json value", 4, 1, 5),
        ("[01]", ParseMode::Strict, "a number cannot start with `0` followed by digits", 2, 1, 3),
        ("[1.x]", ParseMode::Lenient, "invalid number: unexpected `x`", 3, 1, 4),
        ("[\"a\tb\"]", ParseMode::Strict, "unescaped control character U+0009 in a string", 3, 1, 4),
        ("[\"\\x\"]", ParseMode::Strict, "invalid escape `\\` followed by `x` in a string", 2, 1, 3),
        ("[\"\\ud800\"]", ParseMode::Strict, "lone surrogate in a unicode escape", 2, 1, 3),
        ("[1e400]", ParseMode::Strict, "number out of range", 1, 1, 2),
        ("{\"a\": [1, 2], \"b\": x}", ParseMode::Lenient, "unexpected word `x`", 19, 1, 20),
        ("", ParseMode::Lenient, "expected a json value, found the end of the input", 0, 1, 1),
        ("  \n ", ParseMode::Strict, "expected a json value, found the end of the input", 4, 2, 2),
        (
            "Sure, no JSON here.",
            ParseMode::Lenient,
            "expected a json object or array in the text, found none",
            19,
            1,
            20,
        ),
        ("[}", ParseMode::Lenient, "expected a value or `]`, found `}`", 1, 1, 2),
        ("{,}", ParseMode::Lenient, "expected a string key or `}`, found `,`", 1, 1, 2),
        ("[1 → 2]", ParseMode::Lenient, "unexpected character `→`", 3, 1, 4),
        ("{a: hello}", ParseMode::Lenient, "unexpected word `hello`", 4, 1, 5),
        ("746de9ad-d4ff", ParseMode::Lenient, "unexpected character `d` after the json value", 3, 1, 4),
        ("0.0.1", ParseMode::Lenient, "unexpected character `.` after the json value", 3, 1, 4),
        ("true$", ParseMode::Lenient, "unexpected character `$` after the json value", 4, 1, 5),
    ];
    for &(input, mode, message, offset, line, column) in cases {
        let options = ParseOptions { mode, ..ParseOptions::default() };
        let expected = ParseError::Syntax { message: message.to_owned(), offset, line, column };
        assert_eq!(parse(input, &options), Err(expected.clone()), "{input:?}");
        assert_eq!(parse_without_fast_path(input.as_bytes(), &options), Err(expected), "{input:?}");
    }
}

#[test]
fn depth_limit() {
    let nested = |depth: usize| "[".repeat(depth) + &"]".repeat(depth);
    for options in [ParseOptions::strict(), lenient()] {
        assert!(parse(&nested(128), &options).is_ok());
        assert!(parse_without_fast_path(nested(128).as_bytes(), &options).is_ok());
        assert_eq!(parse(&nested(129), &options), Err(ParseError::TooDeep { limit: 128 }));
        assert_eq!(
            parse_without_fast_path(nested(129).as_bytes(), &options),
            Err(ParseError::TooDeep { limit: 128 })
        );
        let open = "[{\"a\":".repeat(100_000);
        assert_eq!(parse(&open, &options), Err(ParseError::TooDeep { limit: 128 }));
        let small = ParseOptions { max_depth: 2, ..options.clone() };
        assert!(parse("[[1]]", &small).is_ok());
        assert_eq!(parse("[[[1]]]", &small), Err(ParseError::TooDeep { limit: 2 }));
        let big = ParseOptions { max_depth: 1000, ..options.clone() };
        assert_eq!(parse(&nested(1000), &big).map(|_| ()), Ok(()));
    }
    // serde_json's own limit is not above ours, so its fast path never accepts too deep.
    assert!(serde_json::from_str::<Value>(&nested(129)).is_err());
}

#[test]
fn size_limit() {
    let options = ParseOptions { max_bytes: 4, ..ParseOptions::default() };
    assert_eq!(parse("[1, 2]", &options), Err(ParseError::TooLarge { bytes: 6, limit: 4 }));
    assert_eq!(
        parse_without_fast_path(b"[1, 2]", &options),
        Err(ParseError::TooLarge { bytes: 6, limit: 4 })
    );
}

#[test]
fn invalid_utf8_inside_strings_is_reported_by_our_parser() {
    let input = b"[\"a\xffb\"]";
    assert!(matches!(
        parse_without_fast_path(input, &ParseOptions::strict()),
        Err(ParseError::InvalidUtf8 { .. })
    ));
    assert!(matches!(super::parse_bytes(input, &lenient()), Err(ParseError::InvalidUtf8 { offset: 3 })));
}

// ---------------------------------------------------------------- fragments

/// Feed `input` to one machine in the fragments between `cuts`.
fn feed_in_pieces(input: &[u8], cuts: &[usize], options: &ParseOptions) -> Result<Outcome, Failure> {
    let mut machine = Machine::new(options);
    let mut from = 0;
    for &cut in cuts.iter().chain(std::iter::once(&input.len())) {
        machine.feed(&input[from..cut])?;
        from = cut;
    }
    machine.finish()
}

/// Feed `input` as `str` fragments cut at `cuts` (character boundaries).
fn feed_str_in_pieces(input: &str, cuts: &[usize], options: &ParseOptions) -> Result<Outcome, Failure> {
    let mut machine = Machine::new(options);
    let mut from = 0;
    for &cut in cuts.iter().chain(std::iter::once(&input.len())) {
        machine.feed_str(&input[from..cut])?;
        from = cut;
    }
    machine.finish()
}

/// Inputs with every kind of token, escape, multi-byte character and look-ahead.
pub(super) fn fragment_inputs() -> Vec<String> {
    let mut inputs: Vec<String> = [
        r#"{"a": [1, -2.5e+3, true, false, null, "x\"y\\z\/\b\f\n\r\t"], "é日😀": "\u00e9\ud83d\ude00\uD83D\uDE00"}"#,
        "\u{feff}```json\n{customer_id: 'it's', tags: [‘a’, “b”, 'c' ,\n 'd'\t], x: True, y: None,}\n``` thanks",
        "Sure! Here it is: ```json\n{\"a\": 1 /* c * d */, \"b\": [2,], # x\n \"c\": \"\\d\\'\\u12G\"} // end\n```\nbye",
        "I'll call [it] now: {\"a\": \"\\ud800\\n\\ud83d\\ude00\\udc00\", 'b': 'x\ny'}",
        "{'O\\'Brien': '請小心輕放 📦', 'k': 'a''b' }",
        "[0, -0, 0.0, 1E2, 18446744073709551616, -9223372036854775809, 123456789012345678901234567890]",
        "\"{\\\"a\\\": [1, 2]}\"",
        "12345",
        "  tru",
        "{\"a\": [1, {\"b\": \"cut \\u00",
        "[1, 2,, 3]",
        "{\"a\" 1}",
        "[“He said “hi” to me”, ‘it’s’ ]",
        "{\\\"a\\\": [1, \\\"x\\\\\\\"y\\\"]}",
        "{\"a\":\u{a0}NumberLong(2), \"b\": [.5, 0x1F, undefined, NaN, -Infinity]}",
        "Sure:\n{\"text\": \"The TV is 24\" wide, \"n\": 1 \"m\" 2, c: hello world\n d: [a, b\n c]}",
        "[\"a\" \"b\", 'it's', “q” “r”, `s´, /re+gex/, (1, 2), (3), \"x\" + \"y\", ...]",
        "{\"a\": \"b, \"c\": \"d\"} , \"e\": 1}\n{\"f\": [1,, 2}] []",
        "lorem ```json {\"k\": \"v\"} ``` ipsum ```json [1, True] ``` 42",
        "hello world\nfoo, 2024-10-18T18:35:22Z",
        "{\"u\": \"https://x.org/a?b=1, \"v\": 0789, \"w\": - 1, 1/3: x}",
        "[\"ab\u{1}c, \"d\\u12\", {\"e\" \"f\" \"g\": 1",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    // The first lines of the bench workload, if it was generated.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../target/bench-data/mangled.jsonl");
    if let Ok(text) = std::fs::read_to_string(path) {
        for line in text.lines().take(12) {
            if let Ok(Value::Object(row)) = serde_json::from_str::<Value>(line) {
                if let Some(Value::String(raw)) = row.get("raw") {
                    inputs.push(raw.clone());
                }
            }
        }
    }
    inputs
}

#[test]
fn fragments_give_the_one_shot_result() {
    for input in fragment_inputs() {
        let bytes = input.as_bytes();
        for options in [ParseOptions::strict(), lenient(), completing(), ParseOptions::repair(), repairing()]
        {
            let whole = feed_in_pieces(bytes, &[], &options);
            assert_eq!(feed_str_in_pieces(&input, &[], &options), whole, "{input:?} as str");
            for cut in 0..=bytes.len() {
                assert_eq!(feed_in_pieces(bytes, &[cut], &options), whole, "{input:?} cut at {cut}");
                if input.is_char_boundary(cut) {
                    let result = feed_str_in_pieces(&input, &[cut], &options);
                    assert_eq!(result, whole, "{input:?} as str cut at {cut}");
                }
            }
            let every: Vec<usize> = (1..bytes.len()).collect();
            assert_eq!(feed_in_pieces(bytes, &every, &options), whole, "{input:?} byte by byte");
            let chars: Vec<usize> = input.char_indices().map(|(k, _)| k).skip(1).collect();
            assert_eq!(feed_str_in_pieces(&input, &chars, &options), whole, "{input:?} char by char");
            if bytes.len() <= 120 {
                for first in 0..=bytes.len() {
                    for second in first..=bytes.len() {
                        let result = feed_in_pieces(bytes, &[first, second], &options);
                        assert_eq!(result, whole, "{input:?} cut at {first} and {second}");
                    }
                }
            }
        }
    }
}

#[test]
fn empty_fragments_change_nothing() {
    let input = br#"{"a": ["x\u00e9", 1.5]}"#;
    let whole = feed_in_pieces(input, &[], &lenient());
    let mut machine = Machine::new(&lenient());
    for byte in input.iter() {
        machine.feed(&[]).unwrap();
        machine.feed(std::slice::from_ref(byte)).unwrap();
    }
    machine.feed(&[]).unwrap();
    assert_eq!(machine.finish(), whole);
}

// ---------------------------------------------------------------- robustness

/// A small deterministic generator (no dependency needed for this).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        self.0 >> 33
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[test]
fn random_inputs_never_panic_and_fragments_agree() {
    let pieces: &[&str] = &[
        "{",
        "}",
        "[",
        "]",
        ":",
        ",",
        "\"",
        "'",
        "“",
        "”",
        "‘",
        "’",
        "\\",
        "\\u",
        "\\ud83d",
        "\\ude00",
        "d8",
        "00",
        "a",
        "key",
        "true",
        "tru",
        "None",
        "1",
        "-",
        ".",
        "e",
        "+",
        "0",
        " ",
        "\n",
        "\t",
        "//",
        "/*",
        "*/",
        "#",
        "```",
        "json",
        "é",
        "😀",
        "\u{feff}",
        "x\u{1}",
        "$",
        "Sure! ",
        "(",
        ")",
        "...",
        "+",
        "`",
        "\u{a0}",
        "\\\"",
        "undefined",
        "NaN",
        "0x",
        "http://",
        ";",
        "´",
    ];
    let mut rng = Lcg(7);
    for round in 0..3000 {
        let count = 1 + rng.below(24);
        let input: String = (0..count).map(|_| pieces[rng.below(pieces.len())]).collect();
        let bytes = input.as_bytes();
        for options in [ParseOptions::strict(), lenient(), completing(), repairing()] {
            let public = parse(&input, &options);
            let own = parse_without_fast_path(bytes, &options);
            if options.mode == ParseMode::Strict {
                // Our strict parser accepts exactly what serde_json accepts, with the same value.
                let theirs = serde_json::from_str::<Value>(&input);
                assert_eq!(own.as_ref().ok().map(|p| &p.value), theirs.as_ref().ok(), "strict {input:?}");
            }
            if let (Ok(public), Ok(own)) = (&public, &own) {
                assert_eq!(public.value, own.value, "{input:?}");
            }
            let whole = feed_in_pieces(bytes, &[], &options);
            let cut = rng.below(bytes.len() + 1);
            assert_eq!(
                feed_in_pieces(bytes, &[cut], &options),
                whole,
                "round {round}: {input:?} cut at {cut}"
            );
        }
    }
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = Lcg(11);
    for _ in 0..3000 {
        let len = rng.below(40);
        let bytes: Vec<u8> = (0..len).map(|_| rng.below(256) as u8).collect();
        for options in [ParseOptions::strict(), lenient(), completing(), repairing()] {
            let _ = parse_without_fast_path(&bytes, &options);
            let _ = super::parse_bytes(&bytes, &options);
            let whole = feed_in_pieces(&bytes, &[], &options);
            let cut = rng.below(bytes.len() + 1);
            assert_eq!(feed_in_pieces(&bytes, &[cut], &options), whole);
        }
    }
}

#[test]
fn prose_candidates_stay_linear() {
    // Many failing candidates after prose: each attempt reads a disjoint part.
    let input = "Text ".to_owned() + &"[x] {y} ".repeat(50_000) + "{\"a\": 1}";
    // (How long it takes is measured by the doubling benchmark, suite/benches/linear.rs.)
    let result = parse(&input, &lenient());
    assert!(result.is_err(), "the real value is past the candidate bound");
    let near = "Text [x] {y} [z] {\"a\": 1}";
    assert_eq!(parse(near, &lenient()).unwrap().value, json!({"a": 1}));
}

// ---------------------------------------------------------------- new repairs

/// Parse in repair mode (completing what was cut off) through the public API and our own
/// parser alone, fed whole and in every split into two: the same value and repairs.
fn check_repair(input: &str, expected: &Value, kinds: &[RepairKind]) {
    check_repair_with(&repairing(), input, expected, kinds);
}

/// [`check_repair`] with other options (json_repair's style, or lenient mode).
fn check_repair_with(options: &ParseOptions, input: &str, expected: &Value, kinds: &[RepairKind]) {
    let options = options.clone();
    let parsed = parse(input, &options).unwrap_or_else(|e| panic!("{input:?}: {e}"));
    assert_eq!(&parsed.value, expected, "value of {input:?}");
    let found = self::kinds(&parsed.repairs);
    for kind in kinds {
        assert!(found.contains(kind), "{input:?}: {kind} not in {found:?}");
    }
    let own =
        parse_without_fast_path(input.as_bytes(), &options).unwrap_or_else(|e| panic!("{input:?}: {e}"));
    assert_eq!(own, parsed, "own parser on {input:?}");
    let bytes = input.as_bytes();
    let whole = feed_in_pieces(bytes, &[], &options);
    for cut in 0..=bytes.len() {
        assert_eq!(feed_in_pieces(bytes, &[cut], &options), whole, "{input:?} cut at {cut}");
    }
}

#[test]
fn repair_mode_repairs() {
    let cases: &[(&str, Value, &[RepairKind])] = &[
        // Missing commas, colons and values.
        ("{\"a\": 1\n\"b\": 2}", json!({"a": 1, "b": 2}), &[MissingComma]),
        ("[1 2 \"x\" true]", json!([1, 2, "x", true]), &[MissingComma]),
        ("{\"a\" \"b\", \"c\" 2}", json!({"a": "b", "c": 2}), &[MissingColon]),
        ("{\"a\": , \"b\": }", json!({"a": null, "b": null}), &[MissingValue]),
        // Brackets: missing, wrong, extra.
        ("{\"a\": [1, 2}", json!({"a": [1, 2]}), &[MissingBracket]),
        ("[{\"b\": 2]", json!([{"b": 2}]), &[MissingBracket]),
        ("{\"a\": 2]", json!({"a": 2}), &[MissingBracket]),
        ("[{\"i\": 1 {\"i\": 2}]", json!([{"i": 1}, {"i": 2}]), &[MissingBracket]),
        ("{\"a\": 1}}]", json!({"a": 1}), &[ExtraBracket]),
        ("[{\"k\": 1}}, {\"k\": 2}]", json!([{"k": 1}, {"k": 2}]), &[ExtraBracket]),
        ("{\"k1\": [\"v1\", \"v2\"}, \"k2\": 3}", json!({"k1": ["v1", "v2"], "k2": 3}), &[MissingBracket]),
        ("[,1,,2]", json!([1, 2]), &[ExtraComma]),
        // Strings: missing quotes, stray quotes, control characters.
        (
            "{greeting: hello world, n: 2024-10-18T18:35:22Z}",
            json!({"greeting": "hello world", "n": "2024-10-18T18:35:22Z"}),
            &[UnquotedKey, UnquotedString],
        ),
        ("{\"a\": \"b, \"c\": \"d\"}", json!({"a": "b", "c": "d"}), &[MissingQuote]),
        ("[\"hello, world]", json!(["hello", "world"]), &[MissingQuote, UnquotedString]),
        ("\"The TV has a 24\" screen\"", json!("The TV has a 24\" screen"), &[UnescapedQuote]),
        ("{\"key\": \"apple \"bee\" carrot\"}", json!({"key": "apple \"bee\" carrot"}), &[UnescapedQuote]),
        ("[\"a\" \"b\"]", json!(["a", "b"]), &[MissingComma]),
        ("{\"a\": \"x\ny\"}", json!({"a": "x\ny"}), &[ControlCharacter]),
        // A raw line break before the closing quote is content, never dropped.
        ("{\"a\": \"hello\n\", \"b\": 1}", json!({"a": "hello\n", "b": 1}), &[ControlCharacter]),
        ("{\"a\": \"see {\"k\": 1}, here\"}", json!({"a": "see {\"k\": 1}, here"}), &[UnescapedQuote]),
        // Escaped JSON, wrappers, concatenation, ellipsis, regex, tuples, sets.
        ("{\\\"a\\\": \\\"x \\\\\\\"y\\\\\\\"\\\"}", json!({"a": "x \"y\""}), &[EscapedJson]),
        ("callback_123({\"a\": [1]});", json!({"a": [1]}), &[FunctionCall]),
        (
            "{\"n\": NumberLong(\"2\"), \"d\": ISODate(\"2012-12-19\")}",
            json!({"n": "2", "d": "2012-12-19"}),
            &[FunctionCall],
        ),
        ("\"hello\" + \" \" + 'world'", json!("hello world"), &[Concatenation]),
        ("[1, 2, ..., 9]", json!([1, 2, 9]), &[Ellipsis]),
        ("{\"a\": 1, ...}", json!({"a": 1}), &[Ellipsis]),
        ("{re: /a+\\/b/}", json!({"re": "/a+\\/b/"}), &[Regex]),
        ("{\"c\": (1, 2), \"s\": (3), \"e\": ()}", json!({"c": [1, 2], "s": 3, "e": []}), &[Tuple]),
        ("{'a', 'b'}", json!(["a", "b"]), &[SetAsArray]),
        // Literals and numbers.
        (
            "[TRUE, False, NULL, undefined]",
            json!([true, false, null, null]),
            &[LiteralCase, PythonLiteral, Undefined],
        ),
        ("[NaN, Infinity, -Infinity]", json!([null, null, null]), &[NonFiniteNumber]),
        ("[.5, 1., 2e, 1_000, 0x10]", json!([0.5, 1.0, 2, 1000, 16]), &[NumberSyntax, HexNumber]),
        ("[0789, 0.0.1, 1/3, -e5]", json!(["0789", "0.0.1", "1/3", "-e5"]), &[UnquotedString]),
        ("- {\"a\": 1}", json!({"a": 1}), &[ProseBefore]),
        // Several values, stray text, placeholders.
        ("1\n2\n3", json!([1, 2, 3]), &[MultipleValues]),
        ("{\"a\": 1}, {\"b\": 2}", json!([{"a": 1}, {"b": 2}]), &[MultipleValues]),
        ("[]{\"a\": 1}", json!({"a": 1}), &[DroppedEmpty]),
        ("{\"a\": 1}, \"b\": 2}", json!({"a": 1, "b": 2}), &[Reopened]),
        ("{\"a\": [1], [2, 3], \"b\": 4}", json!({"a": [1, 2, 3], "b": 4}), &[Reopened]),
        ("{\"a\": 1, COMMENT \"b\": 2}", json!({"a": 1, "b": 2}), &[DroppedKey]),
        ("hello world", json!("hello world"), &[UnquotedString]),
        ("a\nb", json!(["a", "b"]), &[UnquotedString, MultipleValues]),
        ("1. Call it with {\"a\": 1}", json!({"a": 1}), &[ProseBefore]),
        ("42 is the answer", json!(42), &[ProseAfter]),
        (
            "lorem ```json\n{\"a\": 1}\n``` ipsum ```json\n[2]\n``` 3",
            json!([{"a": 1}, [2]]),
            &[CodeFence, MultipleValues],
        ),
        ("[```json\n{\"a\": 1}\n```]", json!({"a": 1}), &[CodeFence]),
        // Cut off (completed).
        ("{\"a\": [1, {\"b\": \"c", json!({"a": [1, {"b": "c"}]}), &[CompletedTruncated]),
        ("{\"s \\ud", json!({"s": null}), &[CompletedTruncated]),
        ("[-", json!([-0.0]), &[CompletedTruncated]),
        ("[\"", json!([]), &[CompletedTruncated]),
    ];
    for (input, expected, kinds) in cases {
        check_repair(input, expected, kinds);
    }
}

fn python_style() -> ParseOptions {
    ParseOptions { style: RepairStyle::JsonRepair, ..repairing() }
}

#[test]
fn repair_mode_drops_a_stray_quote_before_the_end_of_the_object() {
    // A second quote after the closing one, with no member after it to close: stray.
    let cases: &[(&str, Value, &[RepairKind])] = &[
        ("{\"a\": \"b\"  \"}", json!({"a": "b"}), &[StrayQuote]),
        ("{\"a\": {\"b\": \"c\" \" , \n}, \"d\": 1}", json!({"a": {"b": "c"}, "d": 1}), &[StrayQuote]),
        // A member after it: the first quote was content, the second closes.
        // In an array the object rule does not apply.
        ("[\"a\" \",]", json!(["a\" "]), &[UnescapedQuote]),
    ];
    for (input, expected, kinds) in cases {
        check_repair(input, expected, kinds);
        check_repair_with(&python_style(), input, expected, kinds);
        assert!(parse(input, &lenient()).is_err(), "lenient must reject {input:?}");
    }
    // The line break before the first quote is content (jsonrepair); layout to json_repair.
    for (input, tail) in
        [("{\"a\": \"hello\n\"\n\",}", TrailingComma), ("{\"a\": \"hello\n\"\n\",", CompletedTruncated)]
    {
        check_repair(input, &json!({"a": "hello\n"}), &[StrayQuote, tail, ControlCharacter]);
        check_repair_with(&python_style(), input, &json!({"a": "hello"}), &[StrayQuote, tail]);
        assert!(parse(input, &lenient()).is_err(), "lenient must reject {input:?}");
    }
    // A member after it: the first quote was content, the second closes; the line break
    // before it is content too (jsonrepair), layout to json_repair.
    for input in ["{\"a\": \"x\n\"\n\",\n\"b\": 1}", "{\"a\": \"x\n\"\n\", b: 1}"] {
        check_repair(input, &json!({"a": "x\n\"\n", "b": 1}), &[UnescapedQuote]);
        check_repair_with(&python_style(), input, &json!({"a": "x\n\"", "b": 1}), &[UnescapedQuote]);
        assert!(parse(input, &lenient()).is_err(), "lenient must reject {input:?}");
    }
}

#[test]
fn a_repeated_key_in_an_array_item_starts_the_next_item() {
    // Without a comma before it, a key the object already has is not a second value for it
    // but the next item: a missing `}, {`. Either style.
    for options in [repairing(), python_style()] {
        let cases: &[(&str, Value, &[RepairKind])] = &[
            ("[{\"a\": 1 \"a\": 2}]", json!([{"a": 1}, {"a": 2}]), &[MissingComma, MissingBracket]),
            (
                "[{\"a\": 1, \"b\": 2\n\"a\": 3, \"b\": 4}]",
                json!([{"a": 1, "b": 2}, {"a": 3, "b": 4}]),
                &[MissingBracket],
            ),
            // Stray quotes before the key: dropped, and the key does not follow the comma.
            (
                "[{\"lorem\": {\"ipsum\": \"sic\"}, \"\"\"\" \"lorem\": {\"ipsum\": \"sic\"}]",
                json!([{"lorem": {"ipsum": "sic"}}, {"lorem": {"ipsum": "sic"}}]),
                &[DroppedKey, MissingBracket],
            ),
            // After a comma and before a colon it is a duplicate, as in JSON: the last wins.
            ("[{\"a\": 1, \"a\": 2} {}]", json!([{"a": 2}, {}]), &[]),
            // Outside an array there is no next item to start.
            ("{\"a\": 1 \"a\": 2}", json!({"a": 2}), &[MissingComma]),
            ("[{\"k\": {\"a\": 1 \"a\": 2}}]", json!([{"k": {"a": 2}}]), &[MissingComma]),
        ];
        for (input, expected, kinds) in cases {
            check_repair_with(&options, input, expected, kinds);
        }
    }
}

#[test]
fn python_style_pairs_the_quotes_kept_as_content() {
    // json_repair: a quote glued to the word after it opens an inner quotation, and the
    // quote before `}` closes it (the string then ends before the brace); jsonrepair ends
    // the string at that quote.
    let cases: &[(&str, Value, Value)] = &[
        ("{\"key\": \"v\"alue\"}", json!({"key": "v\"alue\""}), json!({"key": "v\"alue"})),
        ("{\"a\": \"say \"hi\"}", json!({"a": "say \"hi\""}), json!({"a": "say \"hi"})),
        ("{\"a\": {\"b\": \"v\"alue\"}}", json!({"a": {"b": "v\"alue\""}}), json!({"a": {"b": "v\"alue"}})),
    ];
    for (input, python, javascript) in cases {
        check_repair_with(&python_style(), input, python, &[UnescapedQuote, MissingQuote]);
        check_repair(input, javascript, &[UnescapedQuote]);
        assert!(parse(input, &lenient()).is_err(), "lenient must reject {input:?}");
    }
    // Already paired, or after a quote that looked like the closing one: the quote before
    // `}` ends the string in both styles.
    let cases: &[(&str, Value)] = &[
        ("{\"key\": \"v\"alu\"e\"}", json!({"key": "v\"alu\"e"})),
        ("{\"a\": \"5\" tall\"}", json!({"a": "5\" tall"})),
        ("{\"re\": \"[^'\"]\"}", json!({"re": "[^'\"]"})),
    ];
    for (input, expected) in cases {
        check_repair_with(&python_style(), input, expected, &[UnescapedQuote]);
        check_repair(input, expected, &[UnescapedQuote]);
    }
}

#[test]
fn python_style_reads_unquoted_text_on_to_its_closing_quote() {
    // json_repair: text without quotes in an object value reads on past commas to a quote
    // glued to it and followed by `,` or `}` (its opening quote was missing).
    let cases: &[(&str, Value, &[RepairKind])] = &[
        (
            "{\"lorem\": ipsum, sic, datum.\",}",
            json!({"lorem": "ipsum, sic, datum."}),
            &[UnquotedString, TrailingComma],
        ),
        ("{\"a\": x, y\", \"b\": 1}", json!({"a": "x, y", "b": 1}), &[UnquotedString]),
        ("{\"a\": x, y\"}", json!({"a": "x, y"}), &[UnquotedString]),
        ("{\"a\": x, y\"", json!({"a": "x, y"}), &[UnquotedString, CompletedTruncated]),
        // Something else first: the text ends at its first comma, as in jsonrepair.
        ("{\"a\": b, c: d}", json!({"a": "b", "c": "d"}), &[UnquotedString, UnquotedKey]),
        ("{\"a\": x, \"b\": 1}", json!({"a": "x", "b": 1}), &[UnquotedString]),
        ("{\"a\": x, y\"z\", \"b\": 1}", json!({"a": "x", "b": 1, "y": "z"}), &[UnquotedKey, MissingColon]),
        ("{\"a\": x, y\n, \"b\": 1}", json!({"a": "x", "b": 1}), &[UnquotedKey, DroppedKey]),
        ("{\"a\": 12, y\"}", json!({"a": 12}), &[UnquotedKey, DroppedKey]),
        ("[x, y\"]", json!(["x", "y"]), &[UnquotedString]),
    ];
    for (input, expected, kinds) in cases {
        check_repair_with(&python_style(), input, expected, kinds);
    }
    // jsonrepair's reading: the text ends at the comma.
    check_repair(
        "{\"lorem\": ipsum, sic, datum.\",}",
        &json!({"lorem": "ipsum"}),
        &[UnquotedString, UnquotedKey, DroppedKey, TrailingComma],
    );
    assert!(parse("{\"lorem\": ipsum, sic, datum.\",}", &lenient()).is_err());
    // Read on and cut back: the budget keeps the re-reading linear.
    let input = "{\"a\": x, ".to_owned() + &"y ".repeat(100_000) + ": 1}";
    assert!(parse(&input, &python_style()).is_ok());
}

#[test]
fn python_style_ends_a_string_at_a_colon_inside_a_brace_before_a_word() {
    // json_repair: a `{` followed by a word opens no object inside the string, so the quote
    // before `:` ends it; the value after that colon has no key and is dropped; a scalar
    // after the top-level object or array is trailing text.
    let cases: &[(&str, Value, &[RepairKind])] = &[
        ("{ \"a\" : \"{ b\": {} }\" }", json!({"a": "{ b"}), &[DroppedValue, ProseAfter]),
        ("{\"a\": \"x\": 1, \"b\": 2}", json!({"a": "x", "b": 2}), &[DroppedValue]),
        ("{\"a\": 1: [2, {\"c\": 3}], \"b\": 2}", json!({"a": 1, "b": 2}), &[DroppedValue]),
        ("{\"a\": 1} \"x\"", json!({"a": 1}), &[ProseAfter]),
        ("[1] \"x\", 2, true", json!([1]), &[ProseAfter]),
        ("{\"a\": 1}, \"x\" {\"b\": 2}", json!([{"a": 1}, {"b": 2}]), &[ProseAfter, MultipleValues]),
        // A `{` that opens JSON still holds the string open.
        ("{\"a\": \"see {\"k\": 1} here\"}", json!({"a": "see {\"k\": 1} here"}), &[UnescapedQuote]),
        ("{\"a\": \"{ \"k\": 1} here\"}", json!({"a": "{ \"k\": 1} here"}), &[UnescapedQuote]),
    ];
    for (input, expected, kinds) in cases {
        check_repair_with(&python_style(), input, expected, kinds);
    }
    for (input, _, _) in &cases[..3] {
        assert!(parse(input, &lenient()).is_err(), "lenient must reject {input:?}");
    }
    // Lenient mode reads text after the value as prose, as it did.
    assert_eq!(parse("{\"a\": 1} \"x\"", &lenient()).map(|p| p.value), Ok(json!({"a": 1})));
    // jsonrepair's readings.
    check_repair("{ \"a\" : \"{ b\": {} }\" }", &json!({"a": "{ b\": {} }"}), &[UnescapedQuote]);
    check_repair("{\"a\": 1} \"x\"", &json!([{"a": 1}, "x"]), &[MultipleValues]);
    assert!(parse("{\"a\": \"x\": 1}", &repairing()).is_err());
}

#[test]
fn stray_quotes_before_a_key_are_dropped() {
    let input = "{\"a\": 1, \"\"\"\" \"b\": 2}";
    check_repair(input, &json!({"a": 1, "b": 2}), &[DroppedKey]);
    // An empty key and value with a colon is a member.
    check_repair("{\"\": \"\", \"b\": 2}", &json!({"": "", "b": 2}), &[]);
    assert!(parse(input, &lenient()).is_err());
}

#[test]
fn a_repeated_key_without_a_value_is_a_set_in_python_style() {
    let python = python_style();
    // json_repair: the repeated key starts the next item, which holds only a key: a set.
    check_repair_with(
        &python,
        "[{\"a\": 1, \"a\"}]",
        &json!([{"a": 1}, ["a"]]),
        &[MissingBracket, SetAsArray],
    );
    check_repair_with(
        &python,
        "[{\"key\": \"value\", \"key",
        &json!([{"key": "value"}, ["key"]]),
        &[CompletedTruncated, MissingBracket, SetAsArray],
    );
    check_repair_with(&python, "{\"key", &json!(["key"]), &[CompletedTruncated, SetAsArray]);
    check_repair_with(&python, "{\"", &json!({}), &[CompletedTruncated]);
    // jsonrepair's reading: a stray word; a cut-off key already there keeps its value; a
    // cut-off first key gets `null`.
    check_repair("[{\"a\": 1, \"a\"}]", &json!([{"a": 1}]), &[DroppedKey]);
    check_repair("[{\"key\": \"value\", \"key", &json!([{"key": "value"}]), &[CompletedTruncated]);
    check_repair("{\"key", &json!({"key": null}), &[CompletedTruncated]);
    // The tool-argument path, as before.
    assert_eq!(
        parse("[{\"key\": \"value\", \"key", &completing()).map(|p| p.value),
        Ok(json!([{"key": "value"}]))
    );
    assert!(parse("[{\"a\": 1, \"a\"}]", &lenient()).is_err());
}

#[test]
fn a_table_row_that_lost_its_bracket_is_put_back() {
    // `]` after the third row's values closed that row, whose `[` was lost, not the table.
    for options in [repairing(), python_style()] {
        check_repair_with(
            &options,
            "{\"rows\": [[\"a\", \"b\"], \"c\", \"d\"], [\"e\", \"f\"], [\"g\", \"h\"]], \"n\": 4}",
            &json!({"rows": [["a", "b"], ["c", "d"], ["e", "f"], ["g", "h"]], "n": 4}),
            &[Reopened, MissingBracket],
        );
        // Not a row's worth of values: the array just goes on.
        check_repair_with(
            &options,
            "{\"rows\": [[\"a\", \"b\"], \"c\"], [\"e\", \"f\"]}",
            &json!({"rows": [["a", "b"], "c", "e", "f"]}),
            &[Reopened],
        );
        check_repair_with(&options, "{\"a\": [1, 2], [3, 4]}", &json!({"a": [1, 2, 3, 4]}), &[Reopened]);
    }
    assert!(parse("{\"rows\": [[\"a\", \"b\"], \"c\", \"d\"], [\"e\", \"f\"]]}", &lenient()).is_err());
}

#[test]
fn lenient_mode_leaves_structure_alone() {
    // The tool-argument path guesses at no structure: these stay errors there.
    for input in [
        "{\"a\": 1 \"b\": 2}",
        "{\"a\" 1}",
        "{\"a\": }",
        "{\"a\": [1, 2}",
        "{\"a\": hello world}",
        "{\"a\": \"x\" + \"y\"}",
        "[1, 2, ...]",
        "(1, 2)",
        "hello world",
        "{\"a\": 1}\n{\"b\": 2}",
        "{\"a\": 1} {\"b\": 2}",
        "[1] [2]",
        "{\"a\": 0789}",
        "[1.x]",
    ] {
        assert!(parse(input, &lenient()).is_err(), "lenient must reject {input:?}");
        assert!(parse(input, &ParseOptions::repair()).is_ok(), "repair mode reads {input:?}");
    }
}

#[test]
fn floats_read_the_same_in_strict_json_and_in_repaired_text() {
    // Long mantissas and extreme exponents are where a fast float reading (serde_json without
    // `float_roundtrip`) and a correctly rounded one can differ: both paths use serde_json's.
    for number in [
        "0.1",
        "2.2250738585072011e-308",
        "9007199254740993.0",
        "1.7976931348623157e308",
        "0.30000000000000004441",
        "123456789012345678901234567890.123456789",
        "-0",
        "5e-324",
    ] {
        let strict = format!("[{number}]");
        let repaired = format!("[{number},]");
        let expected: Value = serde_json::from_str(&strict).unwrap();
        assert_eq!(parse(&strict, &lenient()).unwrap().value, expected, "{strict}");
        assert_eq!(
            parse_without_fast_path(strict.as_bytes(), &lenient()).unwrap().value,
            expected,
            "{strict}"
        );
        assert_eq!(parse(&repaired, &lenient()).unwrap().value, expected, "{repaired}");
    }
}

#[test]
fn non_finite_numbers_follow_the_option() {
    for input in ["[NaN]", "{\"a\": Infinity}", "[-Infinity]"] {
        let rejected = parse(input, &lenient()).unwrap_err();
        assert!(
            matches!(&rejected, ParseError::Syntax { message, .. } if message.contains("`NaN` and `Infinity`")),
            "{input:?}: {rejected}"
        );
        assert!(parse(input, &ParseOptions::strict()).is_err(), "{input:?}");
        let options = ParseOptions { non_finite: NonFinite::Null, ..lenient() };
        let parsed = parse(input, &options).unwrap();
        assert_eq!(kinds(&parsed.repairs), [NonFiniteNumber], "{input:?}");
        assert!(parsed.value.to_string().contains("null"), "{input:?}");
    }
    // A word that merely starts like one is not one.
    assert!(parse("[NaNa]", &ParseOptions { non_finite: NonFinite::Null, ..lenient() }).is_err());
}

#[test]
fn repair_mode_replays_stay_linear() {
    // Every quote would re-read the string from its first delimiter: the budget bounds it.
    let input = "[\"".to_owned() + &"a, \"b".repeat(20_000) + "]";
    // (How long it takes is measured by the doubling benchmark, suite/benches/linear.rs.)
    assert!(parse(&input, &repairing()).is_ok());
    let input = "{\"a\": \"".to_owned() + &"x, [y\" ".repeat(20_000);
    assert!(parse(&input, &repairing()).is_ok());
    let nested = "(".repeat(100_000);
    assert_eq!(parse(&nested, &repairing()), Err(ParseError::TooDeep { limit: 128 }));
}

#[test]
fn repair_mode_reads_brackets_at_the_end_of_strings_and_keys() {
    // Valid JSON, read by our own parser in repair mode: as itself.
    for input in [
        r#"{"a{": 0}"#,
        "{\"\u{2019}{a\": 0}",
        r#"{"a": "b{"}"#,
        r#"{"a": "b{", "c": 1}"#,
        r#"{"a{": 0, "b": 1}"#,
        r#"["a{", 1]"#,
        r#"{"k[": "v("}"#,
        r#"{"x{y": 1}"#,
    ] {
        let parsed = parse_without_fast_path(input.as_bytes(), &repairing());
        let expected: Value = serde_json::from_str(input).unwrap();
        assert_eq!(parsed.map(|p| p.value), Ok(expected), "{input}");
    }
    // Brackets still hold a string open where the text inside is JSON.
    let parsed = parse(r#"{"a": "see {"k": 1} here", "b": 2,}"#, &repairing()).unwrap();
    assert_eq!(parsed.value, json!({"a": "see {\"k\": 1} here", "b": 2}));
}

#[test]
fn escaped_json_inside_escaped_json_reads_the_same_in_any_fragments() {
    // A second `\"` at a token start inside escaped JSON used to reset the unescaping state,
    // which belongs to the end of the fragment: a backslash pending there was lost when the
    // whole input came at once, and kept when it came in pieces (found by the stream fuzzer).
    let input: &[u8] = b"[\\\"\"[\\\\\"]]\0[\\";
    for options in [lenient(), repairing(), ParseOptions::repair()] {
        let whole = feed_in_pieces(input, &[], &options).map(|o| o.value);
        for cut in 1..input.len() {
            assert_eq!(feed_in_pieces(input, &[cut], &options).map(|o| o.value), whole, "cut at {cut}");
        }
    }
}

#[test]
fn repair_style_follows_json_repair_where_the_libraries_differ() {
    use super::RepairStyle;
    let python = ParseOptions { style: RepairStyle::JsonRepair, ..repairing() };
    let cases: &[(&str, Value, Value, RepairKind)] = &[
        // A missing value: jsonrepair's `null`, json_repair's `""`.
        ("{\"a\": }", json!({"a": null}), json!({"a": ""}), MissingValue),
        ("{\"a\": , \"b\": 1}", json!({"a": null, "b": 1}), json!({"a": "", "b": 1}), MissingValue),
        // An empty `{` that `]` closes inside an array: kept, or dropped.
        ("[{]", json!([{}]), json!([]), MissingBracket),
        ("[1, {]", json!([1, {}]), json!([1]), MissingBracket),
    ];
    for (input, jsonrepair, json_repair, kind) in cases {
        check_repair_with(&repairing(), input, jsonrepair, &[*kind]);
        check_repair_with(&python, input, json_repair, &[*kind]);
    }
    // A `{` closed by `]` with something in it stays, in either style; outside an array, too.
    let theirs = parse("[{\"a\": 1]", &python).unwrap();
    assert_eq!(theirs.value, json!([{"a": 1}]));
    assert_eq!(parse("{]", &python).unwrap().value, json!({}));
    assert!(kinds(&parse("[{]", &python).unwrap().repairs).contains(&DroppedEmpty));
    // The other modes never guess, whatever the style.
    let lenient_python = ParseOptions { style: RepairStyle::JsonRepair, ..lenient() };
    assert!(parse("{\"a\": }", &lenient_python).is_err());
}

/// Repair mode completing cut-off text that will not grow (`stream_stable` false).
fn settled() -> ParseOptions {
    ParseOptions { stream_stable: false, ..repairing() }
}

#[test]
fn settled_completion_reads_cut_off_text_as_final() {
    let cases: &[(&str, Value, &[RepairKind])] = &[
        // A backslash at the end is all there is: kept, as an invalid escape.
        (r#"{"key": "val\"#, json!({"key": "val\\"}), &[InvalidEscape, CompletedTruncated]),
        (r#"["C:\Temp\"#, json!(["C:\\Temp\\"]), &[InvalidEscape, InvalidEscape, CompletedTruncated]),
        (r#"{"a": "\u12"#, json!({"a": "\\u12"}), &[InvalidEscape, CompletedTruncated]),
        // Trailing white space goes, an escaped line break too.
        (r#"{"key": "val\n"#, json!({"key": "val"}), &[CompletedTruncated]),
        (r#"{"key": "val \t\n  "#, json!({"key": "val"}), &[CompletedTruncated]),
        (r#"["a\n"#, json!(["a"]), &[CompletedTruncated]),
        // A comma followed by a key whose opening quote nothing closes ends the value.
        (
            "{\"key\": \"val\\n123,`key2:value2",
            json!({"key": "val\n123", "key2": "value2"}),
            &[MissingQuote, SmartQuotes, MissingQuote, UnquotedString, CompletedTruncated],
        ),
        (
            "{\"key\": \"a, 'b: 2",
            json!({"key": "a", "b": 2}),
            &[MissingQuote, SingleQuotes, MissingQuote, CompletedTruncated],
        ),
        // A key cut off after its colon ends at the colon.
        ("{\"a\": 1, \"b: 2", json!({"a": 1, "b": 2}), &[MissingQuote, CompletedTruncated]),
        (
            "{\"a\": 1, \"b: x y",
            json!({"a": 1, "b": "x y"}),
            &[MissingQuote, UnquotedString, CompletedTruncated],
        ),
    ];
    for (input, expected, repairs) in cases {
        check(input, &settled(), expected, repairs);
    }
    // Stream-stable completion keeps what may still grow: the escape is dropped, the line
    // break kept, the string not split.
    let stable: &[(&str, Value)] = &[
        (r#"{"key": "val\"#, json!({"key": "val"})),
        (r#"{"key": "val\n"#, json!({"key": "val\n"})),
        ("{\"key\": \"val\\n123,`key2:value2", json!({"key": "val\n123,`key2:value2"})),
        ("{\"a\": 1, \"b: 2", json!({"a": 1, "b: 2": null})),
    ];
    for (input, expected) in stable {
        assert_eq!(parse(input, &repairing()).map(|p| p.value).as_ref(), Ok(expected), "{input}");
    }
    // Complete text does not depend on it, nor does the tool-argument path.
    for input in [r#"{"key": "val\n"}"#, r#"{"key": "a, 'b: 2'"}"#, r#"{"a": "x\\"}"#] {
        assert_eq!(parse(input, &settled()), parse(input, &repairing()), "{input}");
    }
    let lenient_settled = ParseOptions { stream_stable: false, ..completing() };
    for input in [r#"{"key": "val\"#, r#"{"key": "val\n"#, "{\"key\": \"a, 'b: 2", "{\"a\": 1, \"b: 2"] {
        assert_eq!(parse(input, &lenient_settled), parse(input, &completing()), "{input}");
    }
}

#[test]
fn json_repair_style_reads_a_fenced_block_in_a_string_value() {
    let python = ParseOptions { style: RepairStyle::JsonRepair, ..repairing() };
    let cases: &[(&str, Value, &[RepairKind])] = &[
        (
            r#"{"key": "```json {"key": [{"key1": 1},{"key2": 2}]}```"}"#,
            json!({"key": {"key": [{"key1": 1}, {"key2": 2}]}}),
            &[
                CodeFence,
                DoubleEncoded,
                UnescapedQuote,
                UnescapedQuote,
                UnescapedQuote,
                UnescapedQuote,
                UnescapedQuote,
                UnescapedQuote,
            ],
        ),
        // The block's own repairs are recorded too, at the string.
        (
            "[\"```json\n{'a': 1,}\n```\", 2,]",
            json!([{"a": 1}, 2]),
            &[
                CodeFence,
                DoubleEncoded,
                SingleQuotes,
                TrailingComma,
                TrailingComma,
                ControlCharacter,
                ControlCharacter,
            ],
        ),
        (
            "{\"a\": \"```json\n[1, 2]\n```\"}",
            json!({"a": [1, 2]}),
            &[CodeFence, DoubleEncoded, ControlCharacter, ControlCharacter],
        ),
    ];
    for (input, expected, repairs) in cases {
        check(input, &python, expected, repairs);
        // jsonrepair's style keeps the string the model wrote.
        let ours = parse(input, &repairing()).unwrap().value;
        assert!(ours.to_string().contains("```json"), "{input}: {ours}");
    }
    // Only a whole ```json block holding an object or array.
    for input in [
        r#"{"a": "```json {"b": 1}"}"#,
        r#"{"a": "```json {"b": 1}``` and more"}"#,
        r#"{"a": "```python {"b": 1}```"}"#,
        r#"{"a": "```json 42```"}"#,
        r#"{"a": "see ```json {"b": 1}```"}"#,
        r#"{"```json {}```": 1}"#,
        r#""```json {}```""#,
        // A valid JSON string is what the model meant, however it looks.
        r#"{"key": "```json {\"a\": 1}```"}"#,
        r#"["```json {'a': 1,} ```  ", 2,]"#,
    ] {
        let parsed = parse(input, &python).unwrap();
        assert!(parsed.value.to_string().contains("```"), "{input}: {}", parsed.value);
        assert!(!kinds(&parsed.repairs).contains(&DoubleEncoded), "{input}");
    }
}

#[test]
fn a_comment_after_a_single_quoted_string_closes_it() {
    // A `'` closes only before `, } ] :` or the end (else it is an apostrophe); a comment
    // after it closes it too. A slash that starts no comment leaves the quote content.
    let cases: &[(&str, Value)] = &[
        ("{t: 'x' /* c */ }", json!({"t": "x"})),
        ("{t: '' /* c */, u: 1}", json!({"t": "", "u": 1})),
        ("{t: 'x' // c\n}", json!({"t": "x"})),
        ("['a'/**/, 'b']", json!(["a", "b"])),
        ("{t: “x” /* c */ }", json!({"t": "x"})),
    ];
    for options in [lenient(), repairing()] {
        for (input, expected) in cases {
            check_repair_with(&options, input, expected, &[Comment]);
        }
    }
    let apostrophe = parse("{t: 'it' /s' }", &lenient()).map(|p| p.value);
    assert_eq!(apostrophe, Ok(json!({"t": "it' /s"})));
    assert!(parse("{t: 'a' /", &lenient()).is_err());
}

/// A run of one repair is one record as it is made (its count and span), not one record per
/// repaired byte gathered first: the list the builder keeps stays as short as the result.
#[test]
fn runs_of_one_repair_are_one_record_as_they_are_made() {
    let nul_run = format!("{{\"s\": \"x{}y\"}}", "\0".repeat(1 << 16));
    let brackets = format!("1{}", "]".repeat(1 << 16));
    let commas = format!("[1{}2]", ",".repeat(1 << 16));
    let cases: [(&str, ParseOptions, RepairKind); 3] = [
        (&nul_run, lenient(), ControlCharacter),
        (&brackets, ParseOptions::repair(), ExtraBracket),
        (&commas, ParseOptions::repair(), ExtraComma),
    ];
    for (input, options, kind) in cases {
        for parsed in [
            parse(input, &options).unwrap(),
            super::tree::parse_slow(super::tree::Input::text(input), &options).unwrap(),
        ] {
            let runs: Vec<_> = parsed.repairs.iter().filter(|r| r.kind == kind).collect();
            assert_eq!(runs.len(), 1, "{kind:?}: {:?}", &parsed.repairs[..parsed.repairs.len().min(4)]);
            assert!(parsed.repairs.len() <= 3, "{:?}", parsed.repairs);
            let run = runs[0];
            assert!(run.count >= (1 << 16) - 1, "{kind:?}: {}", run.count);
            assert!(run.last_offset > run.offset && run.last_offset < input.len(), "{run:?}");
        }
    }
    // The value keeps every byte.
    let parsed = parse(&nul_run, &lenient()).unwrap();
    assert_eq!(parsed.value["s"].as_str().map(str::len), Some((1 << 16) + 2));
}

/// A raw line break at the end of a string is content, escaped on output, in repair mode as
/// in the lenient one (jsonrepair keeps it too); only json_repair's style reads it as
/// layout.
#[test]
fn repair_mode_keeps_raw_line_breaks_at_the_end_of_a_string() {
    for (input, expected) in [
        ("{\"s\":\"x\r\n\"}", "x\r\n"),
        ("{\"s\":\"x\n\"}", "x\n"),
        ("{\"s\":\"\n\"}", "\n"),
        ("[\"x\r\"]", "x\r"),
    ] {
        for options in [ParseOptions::repair(), repairing(), lenient()] {
            let parsed = parse(input, &options).unwrap();
            let value = parsed.value.get("s").or_else(|| parsed.value.get(0)).cloned();
            assert_eq!(value, Some(json!(expected)), "{input:?} {:?}", options.mode);
            assert!(kinds(&parsed.repairs).contains(&ControlCharacter), "{input:?}");
        }
    }
    let python = ParseOptions { style: RepairStyle::JsonRepair, ..ParseOptions::repair() };
    assert_eq!(parse("{\"s\":\"x\r\n\"}", &python).unwrap().value, json!({"s": "x"}));
}

/// Python literals as `ast.literal_eval` reads them, in the lenient modes: tuples and sets
/// as arrays, digit separators where Python allows them. What `literal_eval` rejects stays
/// rejected.
#[test]
fn python_literals_as_literal_eval_reads_them() {
    let cases: &[(&str, Value, &[RepairKind])] = &[
        ("{'a': (1, 2)}", json!({"a": [1, 2]}), &[SingleQuotes, Tuple]),
        (
            "{\"a\": (), \"b\": (1,), \"c\": (1), \"d\": ((1, 2), [3],)}",
            json!({"a": [], "b": [1], "c": 1, "d": [[1, 2], [3]]}),
            &[Tuple, Tuple, Tuple, Tuple, Tuple, TrailingComma],
        ),
        (
            "[(\"x\", None), (True,)]",
            json!([["x", null], [true]]),
            &[Tuple, PythonLiteral, Tuple, PythonLiteral],
        ),
        ("{\"a\": {1, 2}}", json!({"a": [1, 2]}), &[SetAsArray]),
        ("{\"a\": {\"x\", \"y\",}}", json!({"a": ["x", "y"]}), &[SetAsArray, TrailingComma]),
        ("{'a': {'x'}}", json!({"a": ["x"]}), &[SingleQuotes, SingleQuotes, SetAsArray]),
        (
            "{\"a\": {True, None, -1.5, (1, 2)}}",
            json!({"a": [true, null, -1.5, [1, 2]]}),
            &[PythonLiteral, SetAsArray, PythonLiteral, Tuple],
        ),
        ("{\"a\": {1: 2}}", json!({"a": {"1": 2}}), &[UnquotedKey]),
        (
            "{\"a\": 1_000, \"b\": 0_0, \"c\": 0x_1f, \"d\": 1_0.5_5, \"e\": 1e1_0, \"f\": -1_0}",
            json!({"a": 1000, "b": 0, "c": 31, "d": 10.55, "e": 1e10, "f": -10}),
            &[NumberSyntax, NumberSyntax, NumberSyntax, HexNumber, NumberSyntax, NumberSyntax, NumberSyntax],
        ),
        ("{\"a\": {1_0, 2}}", json!({"a": [10, 2]}), &[NumberSyntax, SetAsArray]),
        // String prefixes: `u` changes nothing, `r` turns escape processing off, `b` is the
        // bytes literal's ASCII text.
        (
            r#"{"a": u'x', "b": U"y"}"#,
            json!({"a": "x", "b": "y"}),
            &[StringPrefix, SingleQuotes, StringPrefix],
        ),
        (
            r#"{"a": r'\d+', "b": R"\n", "c": r'\'', "d": r"a\"b", "e": r'\\'}"#,
            json!({"a": "\\d+", "b": "\\n", "c": "\\'", "d": "a\\\"b", "e": "\\\\"}),
            &[
                StringPrefix,
                SingleQuotes,
                StringPrefix,
                StringPrefix,
                SingleQuotes,
                StringPrefix,
                StringPrefix,
                SingleQuotes,
            ],
        ),
        (
            r#"{"a": b'x\ty', "b": rb'\x', "c": Br"z"}"#,
            json!({"a": "x\ty", "b": "\\x", "c": "z"}),
            &[StringPrefix, SingleQuotes, StringPrefix, SingleQuotes, StringPrefix],
        ),
        (r#"{u'k': 1}"#, json!({"k": 1}), &[StringPrefix, SingleQuotes]),
        // Adjacent literals are one string.
        (
            r#"{"a": "x" "y", "b": 'p' 'q', "c": "m" r'\d'}"#,
            json!({"a": "xy", "b": "pq", "c": "m\\d"}),
            &[
                AdjacentStrings,
                SingleQuotes,
                AdjacentStrings,
                SingleQuotes,
                AdjacentStrings,
                StringPrefix,
                SingleQuotes,
            ],
        ),
        (
            "[\"a\"\n \"b\" /* c */ \"c\", \"d\"]",
            json!(["abc", "d"]),
            &[AdjacentStrings, AdjacentStrings, Comment],
        ),
        (r#"{"k" "2": 1}"#, json!({"k2": 1}), &[AdjacentStrings]),
        // `'it''s'` stays as it always was read: one string with its quotes.
        ("{'a': 'it''s'}", json!({"a": "it''s"}), &[SingleQuotes, SingleQuotes]),
    ];
    for (input, expected, repairs) in cases {
        check(input, &lenient(), expected, repairs);
    }
    // What `literal_eval` rejects: misplaced separators, a set of names, a tuple key, a
    // lone comma in a tuple, a set that ends as an array.
    for input in [
        "{\"a\": 1__0}",
        "{\"a\": 1_}",
        "{\"a\": _1}",
        "{\"a\": 0_1}",
        "{\"a\": 1_.5}",
        "{\"a\": 1._5}",
        "{\"a\": 1e_5}",
        "{\"a\": 0x__1}",
        "{\"a\": {x, y}}",
        "{\"a\": {\"x\": 1, \"y\"}}",
        "{\"a\": (,)}",
        "{\"a\": (1,,)}",
        "{\"a\": {1, 2]}",
        "{\"a\": (1, 2]}",
        "{\"a\": f'x'}",
        "{\"a\": ur'x'}",
        "{\"a\": b'caf\u{e9}'}",
        "{\"a\": r'C:\\'}",
        "{\"a\": \"x\" true}",
        "{\"a\": \"x\" + \"y\"}",
    ] {
        assert!(parse(input, &lenient()).is_err(), "{input} was accepted");
        assert!(parse(input, &ParseOptions::strict()).is_err(), "{input} was accepted");
    }
    // A value and the next key without the comma between them are not literals to join:
    // the error is where the comma is missing, as it always was.
    for input in ["{\"a\": \"x\" \"b\": 1}", "{'a': 'x' 'b': 1}", "{\"a\": \"x\" \"y\" \"b\": 1}"] {
        match parse(input, &lenient()) {
            Err(ParseError::Syntax { message, column: 11, .. }) => {
                assert!(message.contains("found a string"), "{message}")
            }
            other => panic!("{input}: {other:?}"),
        }
    }
    // Strict JSON has none of them.
    for input in ["{\"a\": (1, 2)}", "{\"a\": {1, 2}}", "{\"a\": 1_000}"] {
        assert!(parse(input, &ParseOptions::strict()).is_err(), "{input}");
    }
    // Cut off inside one: truncated, or completed when asked.
    assert!(matches!(parse("{\"a\": {1, 2", &lenient()), Err(ParseError::Truncated { inside: "a set", .. })));
    assert!(matches!(parse("{\"a\": 1_", &lenient()), Err(ParseError::Truncated { .. })));
    let completed = parse("{\"a\": {1, (2, 3", &completing()).unwrap();
    assert_eq!(completed.value, json!({"a": [1, [2, 3]]}));
}
