//! The strict and lenient modes: what they accept, repair and reject, and where.

use super::*;

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
    let theirs: Value = numbers_as_f64(serde_json::from_str("[-0, 0, -0.0]").unwrap());
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
        // A `+` with no digit after it is no sign.
        ("{\"a\": (12 + 7)}", ParseMode::Lenient, "unexpected character `+`", 10, 1, 11),
        ("[\"a\tb\"]", ParseMode::Strict, "unescaped control character U+0009 in a string", 3, 1, 4),
        ("[\"\\x\"]", ParseMode::Strict, "invalid escape `\\` followed by `x` in a string", 2, 1, 3),
        ("[\"\\ud800\"]", ParseMode::Strict, "lone surrogate in a unicode escape", 2, 1, 3),
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
        // Escaped JSON (`\"` for `"`): read with the escapes removed, placed in the text as
        // sent, the character named the one there.
        (r#"{\"a\": 1, \"b\": @}"#, ParseMode::Lenient, "unexpected character `@`", 18, 1, 19),
        (r#"{\"a\": tru, \"b\": 1}"#, ParseMode::Lenient, "unexpected word `tru`", 8, 1, 9),
        (
            r#"Sure: {\"a\": \"x\" \"b\": 1}"#,
            ParseMode::Lenient,
            "expected `,` or `}` after an object value, found a string",
            21,
            1,
            22,
        ),
        ("{\\\"a\\\": [1,\n \\\"b\\\" @]}", ParseMode::Lenient, "unexpected character `@`", 19, 2, 8),
        (r#"{\"a\": \"x\\\"y\", \"b\": @}"#, ParseMode::Lenient, "unexpected character `@`", 27, 1, 28),
    ];
    for &(input, mode, message, offset, line, column) in cases {
        let options = ParseOptions { mode, ..ParseOptions::default() };
        let expected = ParseError::Syntax { message: message.to_owned(), offset, line, column };
        assert_eq!(parse(input, &options), Err(expected.clone()), "{input:?}");
        assert_eq!(parse_without_fast_path(input.as_bytes(), &options), Err(expected.clone()), "{input:?}");
        if input.contains("\\\"") {
            // The incremental parser, fed pieces, places it alike (escapes removed in one
            // piece and a backslash held over to the next).
            for size in [1, 2, 5] {
                let mut parser = crate::parse::IncrementalParser::new(options.clone());
                let fed =
                    input.as_bytes().chunks(size).try_for_each(|piece| parser.feed_bytes(piece).map(drop));
                assert_eq!(
                    fed.and_then(|()| parser.finish().map(drop)),
                    Err(expected.clone()),
                    "{input:?} {size}"
                );
            }
        }
    }
}

/// A number beyond the floats is placed by the text before it alone: the same path and
/// position whatever follows, in every mode, with and without the fast path.
#[test]
fn a_number_beyond_the_floats_is_placed() {
    let cases: &[(&str, &[ParseMode], &str, usize)] = &[
        ("[1e400]", &[ParseMode::Strict, ParseMode::Lenient, ParseMode::Repair], "/0", 1),
        (
            r#"{"a": {"b~/": [0, -1e400]}, "c": 1e999}"#,
            &[ParseMode::Strict, ParseMode::Lenient],
            "/a/b~0~1/1",
            18,
        ),
        (r#"{"a": 1e400, "b": }"#, &[ParseMode::Strict, ParseMode::Lenient], "/a", 6),
        (r#"{"a": 1, "b": 1e400"#, &[ParseMode::Strict, ParseMode::Lenient], "/b", 14),
        ("{'a': (1, (2, .5e400))}", &[ParseMode::Lenient], "/a/1/1", 14),
        ("{'a': ((1_0e400))}", &[ParseMode::Lenient], "/a", 8),
        ("Sure:\n```json\n{\"a\": 1E+400}\n```", &[ParseMode::Lenient], "/a", 20),
        // Escaped JSON (`\"` for `"`), alone, after prose, and after the opening quote of a
        // payload cut short.
        (r#"{\"quantity\": 1e400}"#, &[ParseMode::Lenient], "/quantity", 15),
        (r#"{\"a\": {\"b\": [2, 3e999]}}"#, &[ParseMode::Lenient], "/a/b/1", 20),
        // A literal inside a string before the number is not it.
        (r#"{\"s\": \"1e999 2e999\", \"n\": [1e400]}"#, &[ParseMode::Lenient], "/n/0", 33),
        (
            r#"{\"a\": \"x\", \"b\": \"y\", \"c\": \"z\", \"d\": \"w\", \"s\": \"1e999\", \"n\": 1e400}"#,
            &[ParseMode::Lenient],
            "/n",
            82,
        ),
        (r#"Sure: {\"quantity\": 1e400}"#, &[ParseMode::Lenient], "/quantity", 21),
        (r#"Sure: "{\"quantity\": 1e400, \"n\": \"x\"}" ok"#, &[ParseMode::Lenient], "/quantity", 22),
    ];
    for &(input, modes, path, offset) in cases {
        for &mode in modes {
            let options = ParseOptions { mode, ..ParseOptions::default() };
            let mut results =
                vec![parse(input, &options), parse_without_fast_path(input.as_bytes(), &options)];
            for size in [1, 3] {
                let mut parser = crate::parse::IncrementalParser::new(options.clone());
                let fed =
                    input.as_bytes().chunks(size).try_for_each(|piece| parser.feed_bytes(piece).map(drop));
                results.push(fed.and_then(|()| parser.finish()));
            }
            for error in results {
                match error {
                    Err(ParseError::NumberOutOfRange { path: found, offset: at, .. }) => {
                        assert_eq!((found.as_str(), at), (path, offset), "{input:?} {mode:?}")
                    }
                    other => panic!("{input:?} {mode:?}: {other:?}"),
                }
            }
        }
    }
}

/// A payload sent as a JSON string (once, or twice over) is decoded in lenient mode, unless
/// a number in it is beyond the floats: the string is then the value (it is valid JSON, and
/// every reader, the incremental one too, keeps it), and the number's path inside the
/// payload is what `beyond_floats_in_payload` gives, for the arguments' reader to say.
#[test]
fn a_number_beyond_the_floats_in_a_double_encoded_payload_is_placed() {
    use crate::parse::one_shot::beyond_floats_in_payload;
    let cases: &[(&str, &str)] = &[
        (r#""{\"a\": [1, 1e400]}""#, "/a/1"),
        (r#"  "{\"a\": {\"b\": -1e999}, \"c\": 1}""#, "/a/b"),
        (r#""\"{\\\"n\\\": 1E+400}\"""#, "/n"),
        ("\t\"[2e400]\"", "/0"),
    ];
    for &(input, path) in cases {
        let options = lenient();
        let mut results = vec![parse(input, &options), parse_without_fast_path(input.as_bytes(), &options)];
        for size in 1..4 {
            let mut parser = crate::parse::IncrementalParser::new(options.clone());
            for piece in input.as_bytes().chunks(size) {
                parser.feed_bytes(piece).unwrap();
            }
            results.push(parser.finish());
        }
        for result in results {
            let value = result.unwrap_or_else(|error| panic!("{input:?}: {error}")).value;
            let text = value.as_str().unwrap_or_else(|| panic!("{input:?}: {value}"));
            assert_eq!(beyond_floats_in_payload(text, &options).as_deref(), Some(path), "{input:?}");
            assert_eq!(beyond_floats_in_payload(text, &ParseOptions::strict()), None, "{input:?}");
        }
    }
    // The number is placed from the text before it, as in a bare text: a cut after it too.
    assert_eq!(beyond_floats_in_payload(r#"{"a": 1e400"#, &lenient()).as_deref(), Some("/a"));
    // A payload that fails otherwise, or decodes, or is no payload: nothing to place.
    for text in ["{1e400 is a lot}", r#"{"a": [1, 2]}"#, "1e400", r#"{"a": }, "b": 1e400"#] {
        assert_eq!(beyond_floats_in_payload(text, &lenient()), None, "{text:?}");
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
    // A double-encoded payload is held to the caller's limit as the text around it is: too
    // deep, it stays the string it was sent as.
    let small = ParseOptions { max_depth: 2, ..lenient() };
    let encoded = |inner: &str| serde_json::to_string(inner).unwrap();
    assert_eq!(parse(&encoded("[[1]]"), &small).unwrap().value, json!([[1]]));
    assert_eq!(parse(&encoded("[[[1]]]"), &small).unwrap().value, json!("[[[1]]]"));
    assert_eq!(parse(&encoded("[[[1]]]"), &lenient()).unwrap().value, json!([[[1]]]));
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
    // `float_roundtrip`) and a correctly rounded one can differ: both paths read correctly
    // rounded.
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
        // Correctly rounded, whatever serde_json's features.
        let float = serde_json::Number::from_f64(number.parse().unwrap()).unwrap();
        let expected = Value::Array(vec![Value::Number(float)]);
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
        // A set after bare keys: its first item is read as what it is, and its bare-key
        // repair withdrawn, however many bare keys came just before it.
        ("{a: {1, 2}}", json!({"a": [1, 2]}), &[UnquotedKey, SetAsArray]),
        (
            "{a: 1, b: {True, 2}}",
            json!({"a": 1, "b": [true, 2]}),
            &[UnquotedKey, UnquotedKey, PythonLiteral, SetAsArray],
        ),
        (
            "{a: {b: {1}}, c: {2: 3}}",
            json!({"a": {"b": [1]}, "c": {"2": 3}}),
            &[UnquotedKey, UnquotedKey, SetAsArray, UnquotedKey, UnquotedKey],
        ),
        (
            "{\"a\": 1_000, \"b\": 0_0, \"c\": 0x_1f, \"d\": 1_0.5_5, \"e\": 1e1_0, \"f\": -1_0}",
            json!({"a": 1000, "b": 0, "c": 31, "d": 10.55, "e": 1e10, "f": -10}),
            &[NumberSyntax, NumberSyntax, NumberSyntax, HexNumber, NumberSyntax, NumberSyntax, NumberSyntax],
        ),
        ("{\"a\": {1_0, 2}}", json!({"a": [10, 2]}), &[NumberSyntax, SetAsArray]),
        // A `+` sign, as `literal_eval` (and JSON5) read it.
        (
            "{\"a\": +1, \"b\": +1.5, \"c\": +.5, \"d\": +0x1F, \"e\": [+0, +2e+3]}",
            json!({"a": 1, "b": 1.5, "c": 0.5, "d": 31, "e": [0, 2e3]}),
            &[NumberSyntax, NumberSyntax, NumberSyntax, NumberSyntax, HexNumber, NumberSyntax, NumberSyntax],
        ),
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
        // `'it''s'` is two literals, joined, as Python reads them.
        ("{'a': 'it''s'}", json!({"a": "its"}), &[SingleQuotes, SingleQuotes, AdjacentStrings, SingleQuotes]),
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
        // Not `it' + 's` with apostrophes: the quote before a `+` closes the string.
        "{'a': 'it' + 's'}",
        "{'a': 'x'+'y'}",
        // Signs `literal_eval` refuses (one sign, touching the number, is all it reads).
        "{\"a\": ++1}",
        "{\"a\": -+1}",
        "{\"a\": +}",
        "{\"a\": +True}",
        "{\"a\": \"x\" +1}",
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

#[test]
fn a_function_call_is_not_a_value() {
    // `ast.literal_eval` refuses every one; its value is the call's result, never its argument.
    let calls = [
        r#"{"i": abs(-5)}"#,
        r#"{"b": not(True)}"#,
        r#"{"xs": sorted([3,1,2])}"#,
        r#"{"f": round(19.999)}"#,
        r#"{'i': int('7')}"#,
        r#"{"n": NumberLong(2)}"#,
        r#"{"d": ISODate("2012-12-19")}"#,
        r#"callback({"a": 1});"#,
    ];
    for options in [lenient(), completing(), repairing(), ParseOptions::repair()] {
        for text in calls {
            match parse(text, &options) {
                Err(ParseError::Syntax { message, .. }) => {
                    assert!(message.contains("function call is not a value"), "{text}: {message}")
                }
                other => panic!("{text} under {:?}: {other:?}", options.mode),
            }
        }
    }
    for options in [lenient(), ParseOptions::repair()] {
        for text in ["[1, f (2)]", r#"{"a": callback_123 ({"b": 1})}"#] {
            assert!(parse(text, &options).is_err(), "{text}");
        }
    }
    // A parenthesis that is no call is still read: a tuple, and text in a string.
    check(r#"{"p": (1, 2), "s": "abs(-5)"}"#, &lenient(), &json!({"p": [1, 2], "s": "abs(-5)"}), &[Tuple]);
}

#[test]
fn floats_are_correctly_rounded_on_every_path() {
    // serde_json without `float_roundtrip` reads this one unit in the last place low.
    let text = "977765.4534335453";
    let exact: f64 = text.parse().unwrap();
    let wanted = json!({"x": exact, "y": [exact]});
    let strict = format!(r#"{{"x": {text}, "y": [{text}]}}"#);
    let mangled = format!(r#"{{'x': {text}, y: [{text},]}}"#);
    for options in [ParseOptions::strict(), lenient(), ParseOptions::repair()] {
        assert_eq!(parse(&strict, &options).unwrap().value, wanted, "{:?}", options.mode);
        assert_eq!(parse_without_fast_path(strict.as_bytes(), &options).unwrap().value, wanted);
        // The tool-argument reading, which notes repeated keys (and the floats it read).
        let (noted, repeated) = crate::parse::parse_noting_repeats(&strict, &options, false).unwrap();
        assert_eq!((noted.value, repeated), (wanted.clone(), false), "{:?}", options.mode);
    }
    // A body or a stream's event: strict JSON, the float read by the parser's strict mode.
    assert_eq!(crate::parse::strict_value(&strict), Ok(wanted.clone()));
    assert!(crate::parse::strict_value(&mangled).is_err());
    assert!(crate::parse::strict_value(&format!("[{text},]")).is_err());
    assert_eq!(parse(&mangled, &lenient()).unwrap().value, wanted);
    assert_eq!(parse(&mangled, &ParseOptions::repair()).unwrap().value, wanted);
    for text in ["1.5e-30", "2e23", "0.1000000000000000055511151231257827", "-4.9406564584124654e-324"] {
        let exact: f64 = text.parse().unwrap();
        assert_eq!(parse(text, &ParseOptions::strict()).unwrap().value, json!(exact), "{text}");
    }
}

#[test]
fn python_literals_read_as_literal_eval_reads_them() {
    let cases: &[(&str, Value, &[RepairKind])] = &[
        // A `'` string closed by the `)` of its tuple (it was read on to the end: "cut off").
        ("{'tags': ('a', 'b')}", json!({"tags": ["a", "b"]}), &[SingleQuotes, Tuple]),
        ("{'p': ('x',)}", json!({"p": ["x"]}), &[SingleQuotes, Tuple]),
        // Python's escapes in a Python string.
        (r"{'s': '\x41\x42'}", json!({"s": "AB"}), &[SingleQuotes, PythonEscape]),
        (r"{'s': '\101\0x'}", json!({"s": "A\u{0}x"}), &[SingleQuotes, PythonEscape]),
        (r"{'s': '\U0001F600'}", json!({"s": "😀"}), &[SingleQuotes, PythonEscape]),
        (r#"{"s": u"\x41"}"#, json!({"s": "A"}), &[StringPrefix, PythonEscape]),
        (r"{'s': r'\x41'}", json!({"s": "\\x41"}), &[SingleQuotes, StringPrefix]),
        // Adjacent literals, with a prefix or none, with white space or none.
        ("{'s': 'a' u'b'}", json!({"s": "ab"}), &[SingleQuotes, AdjacentStrings, StringPrefix]),
        ("{'s': 'a''b'}", json!({"s": "ab"}), &[SingleQuotes, AdjacentStrings]),
        ("{'s': 'a'\"b\"}", json!({"s": "ab"}), &[SingleQuotes, AdjacentStrings]),
        // The same as the whole text.
        ("'a' u'b'", json!("ab"), &[SingleQuotes, AdjacentStrings, StringPrefix]),
        ("'a''b'", json!("ab"), &[SingleQuotes, AdjacentStrings]),
        // A tuple as the whole text; text after it makes it prose before the value.
        ("('a', 'b')", json!(["a", "b"]), &[SingleQuotes, Tuple]),
        (" (1, 2) # c\n", json!([1, 2]), &[Tuple, Comment]),
        ("(1,)", json!([1]), &[Tuple]),
        ("()", json!([]), &[Tuple]),
        ("(1)", json!(1), &[Tuple]),
        // A set whose first item is a tuple.
        ("{'s': {('a', 1), 'b'}}", json!({"s": [["a", 1], "b"]}), &[SingleQuotes, SetAsArray, Tuple]),
        // An apostrophe is still content.
        ("{'s': 'it's here'}", json!({"s": "it's here"}), &[SingleQuotes]),
        // `repr` writes a string holding an apostrophe between `"` (and a control character
        // as `\xHH`): once the text has shown itself Python, `\xHH` is Python's there too.
        (r#"{'a': 1, 'b': "it's\x07"}"#, json!({"a": 1, "b": "it's\u{7}"}), &[SingleQuotes, PythonEscape]),
        (r#"[None, "\x41\x4a"]"#, json!([null, "AJ"]), &[PythonLiteral, PythonEscape]),
        (r#"{u'a': "\x41"}"#, json!({"a": "A"}), &[StringPrefix, SingleQuotes, PythonEscape]),
        // Anything else after a backslash there stays as in a JSON string: Windows paths,
        // which Python would refuse, and escapes `repr` does not write in such a string.
        (
            r#"{'a': 1, 'b': "C:\Users\xampp\x4\New\101"}"#,
            json!({"a": 1, "b": "C:\\Users\\xampp\\x4\\New\\101"}),
            &[SingleQuotes, InvalidEscape],
        ),
        (r#"[True, "\x"]"#, json!([true, "\\x"]), &[PythonLiteral, InvalidEscape]),
        // Before any sign of Python, and in JSON, `\x` is no escape.
        (
            r#"{"b": "\x41", 'a': "\x41"}"#,
            json!({"b": "\\x41", "a": "A"}),
            &[InvalidEscape, SingleQuotes, PythonEscape],
        ),
    ];
    for (input, expected, repairs) in cases {
        let parsed = parse(input, &lenient()).unwrap_or_else(|e| panic!("{input}: {e}"));
        assert_eq!(&parsed.value, expected, "{input}");
        let mut got = kinds(&parsed.repairs);
        got.dedup();
        let mut want = repairs.to_vec();
        want.sort_by_key(|k| format!("{k:?}"));
        got.sort_by_key(|k| format!("{k:?}"));
        want.dedup();
        got.dedup();
        assert_eq!(got, want, "{input}");
        // Fed in pieces, the same.
        for cut in 1..input.len() {
            if input.is_char_boundary(cut) {
                let fed = feed_str_in_pieces(input, &[cut], &lenient()).map(|o| o.value);
                assert_eq!(fed.as_ref().ok(), Some(expected), "{input} cut at {cut}");
            }
        }
    }
    for refused in [r"{'s': '\x4'}", r"{'s': '\U00110000'}", r"{'s': '\U0000D800'}"] {
        assert!(parse(refused, &lenient()).is_err(), "{refused}");
    }
}

#[test]
fn an_f_string_is_refused_alone_and_after_another_literal() {
    // `ast.literal_eval` refuses an f-string: it is an expression. After another literal it
    // is neither content of that literal (`'a' f'{x}'` read as "a' f'{x}") nor cut-off text
    // ("truncated" on complete input), but the same error as alone, wherever it is split.
    let cases = [
        "{'k': 'a' f'b'}",
        "'a' f'b'",
        "{'k': 'a' f'{x}'}",
        "{'k': f'b'}",
        "{\"k\": f\"{x}\"}",
        "['a'  F'b', 'c']",
        "{'k': 'a'\nf\"b\"}",
        "{'k': 'a' rf'{x}'}",
        "{'k': 'a' Fr'b'}",
        "('a' f'b',)",
        "{'k': 'a''b' f'c'}",
    ];
    for input in cases {
        let at = input.find(['f', 'F']).unwrap_or_else(|| panic!("{input}"));
        let at = if input.as_bytes().get(at.wrapping_sub(1)).is_some_and(|b| b.is_ascii_alphabetic()) {
            at - 1
        } else {
            at
        };
        match parse(input, &lenient()) {
            Err(ParseError::Syntax { message, offset, .. }) => {
                assert!(message.contains("f-string"), "{input}: {message}");
                assert_eq!(offset, at, "{input}");
            }
            other => panic!("{input}: {other:?}"),
        }
        let refused = Err(Failure::format_string(at));
        for cut in (0..=input.len()).filter(|&cut| input.is_char_boundary(cut)) {
            assert_eq!(
                feed_str_in_pieces(input, &[cut], &lenient()).map(|o| o.value),
                refused,
                "{input} cut at {cut}"
            );
        }
        let every: Vec<usize> = (1..input.len()).collect();
        assert_eq!(feed_in_pieces(input.as_bytes(), &every, &lenient()).map(|o| o.value), refused, "{input}");
    }
    // Letters that are no f-string prefix, or that no quote touches, keep the quote content.
    for (input, expected) in [
        ("{'s': 'it' fine'}", json!({"s": "it' fine"})),
        ("{'s': 'a' f 'x'}", json!({"s": "a' f 'x"})),
        ("{'s': 'a' ff'x'}", json!({"s": "a' ff'x"})),
        ("{'s': 'the' fb'}", json!({"s": "the' fb"})),
    ] {
        let parsed = parse(input, &lenient()).unwrap_or_else(|e| panic!("{input}: {e}"));
        assert_eq!(parsed.value, expected, "{input}");
        for cut in (0..=input.len()).filter(|&cut| input.is_char_boundary(cut)) {
            let fed = feed_str_in_pieces(input, &[cut], &lenient()).map(|o| o.value);
            assert_eq!(fed.as_ref().ok(), Some(&expected), "{input} cut at {cut}");
        }
    }
}

#[test]
fn text_after_a_parenthesised_value_makes_it_prose() {
    // A numbered note before the arguments is prose, as it was before a tuple could be the
    // value: a later object or array is read.
    for (input, expected) in [
        ("(1) Call it with {\"a\": 1}", json!({"a": 1})),
        ("(2, 3) then [4]", json!([4])),
        ("(note) {\"a\": 1}", json!({"a": 1})),
    ] {
        let parsed = parse(input, &lenient()).unwrap_or_else(|e| panic!("{input}: {e}"));
        assert_eq!(parsed.value, expected, "{input}");
        assert_eq!(kinds(&parsed.repairs), vec![ProseBefore], "{input}");
        let mut streamed = crate::parse::IncrementalParser::new(lenient());
        for piece in input.as_bytes().chunks(3) {
            streamed.feed(std::str::from_utf8(piece).unwrap()).unwrap();
        }
        assert_eq!(streamed.finish().map(|p| p.value).ok(), Some(expected), "{input} streamed");
    }
    // With no value after it, the text is refused, never read as the tuple alone.
    assert!(parse("('a', 'b') and more", &lenient()).is_err());
}

/// A Unicode space jsonrepair reads as white space (U+00A0, U+3000, ...) after a `'` is white
/// space before the delimiter that makes the quote the string's end, as an ASCII space is;
/// before anything else it is content with the quote. Fed whole and cut at every byte.
#[test]
fn a_unicode_space_after_a_closing_single_quote_is_white_space() {
    let cases = [
        ("{'k': 'v'\u{a0}}", json!({"k": "v"})),
        ("{\"c\": {'k': 'v'\u{a0}}, 'k': null}", json!({"c": {"k": "v"}, "k": null})),
        ("['a'\u{3000}, 'b'\u{feff}\u{a0} ]", json!(["a", "b"])),
        ("['it'\u{a0}s']", json!(["it'\u{a0}s"])),
        ("['it'\u{e9}s']", json!(["it'\u{e9}s"])),
        // A smart quote after a closing smart quote is read as without the look-ahead.
        ("[\u{201c}a\u{201d}\u{a0}]", json!(["a"])),
    ];
    for (input, expected) in cases {
        for options in [lenient(), ParseOptions::default().with_style(RepairStyle::JsonRepair)] {
            assert_eq!(parse(input, &options).map(|p| p.value), Ok(expected.clone()), "{input:?}");
            // Bytes cut anywhere, inside a character too (the look-ahead holds across them).
            for cut in 0..=input.len() {
                let mut parser = crate::parse::IncrementalParser::new(options.clone());
                for piece in [&input.as_bytes()[..cut], &input.as_bytes()[cut..]] {
                    let _ = parser.feed_bytes(piece);
                }
                assert_eq!(parser.finish().map(|p| p.value), Ok(expected.clone()), "{input:?} cut at {cut}");
            }
        }
    }
}
