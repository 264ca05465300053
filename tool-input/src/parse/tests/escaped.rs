//! Escaped JSON (`{\"a\": 1}`, a payload escaped once more): read with a level of
//! backslashes removed, its white space escapes read as white space, its repairs placed in
//! the text as sent, in both lenient modes, whole and in pieces.

use super::*;
use crate::parse::incremental::tests::{gen_strategy, write, Gen};

/// `input` fed to the incremental parser in pieces of `size` bytes, then finished.
fn streamed_in_pieces(input: &str, size: usize, options: &ParseOptions) -> Result<Parsed, ParseError> {
    let mut parser = crate::parse::IncrementalParser::new(options.clone());
    for piece in input.as_bytes().chunks(size) {
        parser.feed_bytes(piece)?;
    }
    parser.finish()
}

/// `input` parsed under `options`, after checking that our own parser and the incremental
/// parser, fed pieces of each of `sizes` bytes, read it alike.
fn parsed_alike(input: &str, options: &ParseOptions, sizes: &[usize]) -> Parsed {
    let parsed = parse(input, options).unwrap_or_else(|e| panic!("{input:?}: {e}"));
    assert_eq!(parse_without_fast_path(input.as_bytes(), options).unwrap(), parsed, "{input:?}");
    for &size in sizes {
        let streamed = streamed_in_pieces(input, size, options);
        assert_eq!(streamed.unwrap(), parsed, "{input:?} in pieces of {size}");
    }
    parsed
}

/// Escaped JSON (`{\"a\": True,}`) is read with a level of backslashes removed; what was
/// repaired in it is placed in the text as sent: each record's offset is where the thing
/// repaired stands there, in both lenient modes, with and without the fast path, and
/// through the incremental parser in pieces.
#[test]
fn repairs_in_escaped_json_are_placed_in_the_text_as_sent() {
    // Each input, its value, and each kind of repair with the text its records point at.
    type Placed = &'static [(RepairKind, &'static str)];
    let cases: &[(&str, Value, Placed)] = &[
        (
            r#"{\"a\": 1, \"b\": True,}"#,
            json!({"a": 1, "b": true}),
            &[(EscapedJson, r#"\""#), (PythonLiteral, "True"), (TrailingComma, ",}")],
        ),
        (
            "Sure: {\\\"path\\\": \\\"C:\\\\\\\\x\\\", \\\"b\\\": None, // note\n \\\"c\\\": [1, 2,]}",
            json!({"path": "C:\\x", "b": null, "c": [1, 2]}),
            &[
                (ProseBefore, "Sure"),
                (EscapedJson, r#"\"path"#),
                (PythonLiteral, "None"),
                (Comment, "// note"),
                (TrailingComma, ",]"),
            ],
        ),
        (
            "```json\n{\\\"a\\\": \\\"x\\\\\\\"y\\\", \\\"b\\\": False}\n```",
            json!({"a": "x\"y", "b": false}),
            &[(CodeFence, "```"), (EscapedJson, r#"\"a"#), (PythonLiteral, "False")],
        ),
    ];
    for (input, expected, placed) in cases {
        let placed_right = |parsed: &Parsed, how: &str| {
            assert_eq!(&parsed.value, expected, "{input:?} {how}");
            for repair in &parsed.repairs {
                let Some((_, marker)) = placed.iter().find(|(kind, _)| *kind == repair.kind) else {
                    panic!("{input:?} {how}: unexpected {repair:?}");
                };
                for at in [repair.offset, repair.last_offset] {
                    assert!(
                        input.get(at..).is_some_and(|rest| rest.starts_with(marker)),
                        "{input:?} {how}: {repair:?}"
                    );
                }
            }
        };
        for mode in [ParseMode::Lenient, ParseMode::Repair] {
            let options = ParseOptions { mode, ..ParseOptions::default() };
            let parsed = parse(input, &options).unwrap_or_else(|e| panic!("{input:?}: {e}"));
            placed_right(&parsed, "parse");
            if mode == ParseMode::Lenient {
                assert_eq!(kinds(&parsed.repairs), placed.iter().map(|(kind, _)| *kind).collect::<Vec<_>>());
            }
            let own = parse_without_fast_path(input.as_bytes(), &options).unwrap();
            placed_right(&own, "own parser");
            for size in [1, 2, 5] {
                placed_right(
                    &streamed_in_pieces(input, size, &options).unwrap(),
                    &format!("pieces of {size}"),
                );
            }
        }
    }
}

/// White space between tokens written as an escape (`\n`, `\r`, `\t`: pretty-printed JSON
/// escaped once more, or a model's literal `\n`) is read as that white space and recorded as
/// escaped JSON, in one piece and in pieces that cut between the backslash and its letter;
/// in repair mode only where a key comes or inside escaped JSON (elsewhere a backslash may
/// start unquoted text); never in strict mode.
#[test]
fn escaped_white_space_between_tokens_is_white_space() {
    let cases: &[(&str, Value)] = &[
        (r#"{\n  \"key\": \"value\"\n}"#, json!({"key": "value"})),
        (r#"{\r\n\t\"a\": [1,\r\n\t 2],\n\t\"b\": \"x\\ny\"\n}"#, json!({"a": [1, 2], "b": "x\ny"})),
        (r#"[\n  1,\n  2\n]"#, json!([1, 2])),
        (r#"{"a": 1,\n "b": "c\nd"}"#, json!({"a": 1, "b": "c\nd"})),
        // After prose: the array, not an object inside it.
        (r#"Sure: [\n\n{},\n\n\n{\"a\": 1}\n]"#, json!([{}, {"a": 1}])),
        // After the closing quote of a `'` string, before the delimiter that ends it.
        (r#"{\n  'a': 'x'\n}"#, json!({"a": "x"})),
        (r#"['x'\t\n, 'y'\n]"#, json!(["x", "y"])),
    ];
    for (input, expected) in cases {
        let parsed = parsed_alike(input, &lenient(), &[1, 2, 3]);
        assert_eq!(&parsed.value, expected, "{input:?}");
        assert!(kinds(&parsed.repairs).contains(&EscapedJson), "{input:?}: {:?}", parsed.repairs);
        records_span_the_input(input, &parsed);
        let strict = ParseOptions { mode: ParseMode::Strict, ..ParseOptions::default() };
        assert!(parse(input, &strict).is_err(), "{input:?}");
    }
    // Repair mode: where a key comes, and inside escaped JSON.
    let repaired = parse(r#"{\n  \"key\": [1,\n 2]\n}"#, &repairing()).unwrap();
    assert_eq!(repaired.value, json!({"key": [1, 2]}));
    // Where a value comes, the byte after the escape decides: white space, another
    // backslash or a byte that starts or ends a value make it white space (a pretty-printed
    // array escaped once more), and from then on every such escape is; anything else
    // makes the backslash the start of unquoted text, as before.
    for (input, expected) in [
        (r#"[\n  1,\n  2\n]"#, json!([1, 2])),
        (r#"[\n\ttrue,\n\t[\n\t\tnull\n\t]\n]"#, json!([true, [null]])),
        (r#"[\n  {\"a\": 1}\n]"#, json!([{"a": 1}])),
    ] {
        let parsed = parsed_alike(input, &repairing(), &[1, 2, 3]);
        assert_eq!(parsed.value, expected, "{input:?}");
        assert_eq!(kinds(&parsed.repairs), [EscapedJson], "{input:?}");
    }
    // Where white space is written as escapes, one after a string's closing quote is white
    // space too; the byte after it decides, as after any quote in repair mode: an inner
    // quote before one stays content.
    for (input, expected) in [
        (r#"{\n  "a": "x",\n  "b": "y"\n}"#, json!({"a": "x", "b": "y"})),
        (r#"[\n  "a"\n, "b"\t]"#, json!(["a", "b"])),
        (r#"{\n "t": "he said "hi"\nbye"}"#, json!({"t": "he said \"hi\"\nbye"})),
    ] {
        assert_eq!(parsed_alike(input, &repairing(), &[1, 2, 3]).value, expected, "{input:?}");
    }
    for (input, expected) in [
        (r#"{"path": \network\share}"#, json!({"path": "\\network\\share"})),
        (r#"{"path": \new folder}"#, json!({"path": "\\new folder"})),
        (r#"{"dir": \temp}"#, json!({"dir": "\\temp"})),
    ] {
        assert_eq!(parsed_alike(input, &repairing(), &[1, 2, 3]).value, expected, "{input:?}");
    }
    // A quote followed by an escape and more content was content: the escape is read in
    // the string (a line break, no raw control character recorded).
    let content = parse(r#"['it'\nis']"#, &lenient()).unwrap();
    assert_eq!(content.value, json!(["it'\nis"]));
    assert_eq!(kinds(&content.repairs), [SingleQuotes]);
    // In the lenient mode, a backslash that spells no white space is still refused.
    assert!(parse(r#"{"a": 1, \x}"#, &lenient()).is_err());
}

/// Before and after the value, white space written as an escape is white space as between
/// tokens (a model's literal `\n` at the end of its arguments), recorded `escaped_json`,
/// not prose; prose after it is still prose.
#[test]
fn escaped_white_space_around_the_value_is_white_space() {
    let cases: &[(&str, &[RepairKind])] = &[
        (r#"\n{\"a\": 1}"#, &[EscapedJson]),
        (r#"{"a": 1}\n"#, &[EscapedJson]),
        (r#"\n\t{"a": 1}\r\n"#, &[EscapedJson]),
        (r#"{"a": 1}\n\nThanks."#, &[EscapedJson, ProseAfter]),
        (r#"\nSure: {"a": 1}"#, &[EscapedJson, ProseBefore]),
        // A backslash after the value that spells no white space is the text after it.
        (r#"{"a": 1} \x"#, &[ProseAfter]),
        (r#"{"a": 1}\"#, &[ProseAfter]),
    ];
    for &(input, repairs) in cases {
        let parsed = parsed_alike(input, &lenient(), &[1, 2, 3]);
        assert_eq!(parsed.value, json!({"a": 1}), "{input:?}");
        let mut found = kinds(&parsed.repairs);
        found.dedup();
        assert_eq!(found, repairs, "{input:?}: {:?}", parsed.repairs);
        records_span_the_input(input, &parsed);
    }
}

/// A text that ends at a backslash where a token starts was cut off inside an escape (the
/// `\"` of escaped JSON, escaped white space): `truncated`, as any other cut, and completed
/// where completion is asked for. It was an unexpected character.
#[test]
fn a_text_cut_off_after_a_backslash_between_tokens_is_truncated() {
    for input in [r#"[1, \"#, r#"{\"a\": 1, \"#, r#"{"a": \"#] {
        for options in [lenient(), ParseOptions::repair()] {
            assert!(
                matches!(parse(input, &options), Err(ParseError::Truncated { inside: "an escape", .. })),
                "{input:?}: {:?}",
                parse(input, &options)
            );
            for size in [1, 2, 3] {
                assert!(
                    matches!(streamed_in_pieces(input, size, &options), Err(ParseError::Truncated { .. })),
                    "{input:?} in pieces of {size}"
                );
            }
        }
        for options in [completing(), repairing()] {
            let completed = parsed_alike(input, &options, &[1, 2, 3]);
            assert!(kinds(&completed.repairs).contains(&CompletedTruncated), "{input:?}");
        }
    }
    assert_eq!(parse(r#"[1, \"#, &completing()).unwrap().value, json!([1]));
    assert_eq!(parse(r#"{\"a\": 1, \"#, &completing()).unwrap().value, json!({"a": 1}));
}

/// Inside escaped JSON, `\n`, `\r` and `\t` are the white space they spell for every
/// reading that follows a token, in both lenient modes: the end of a number, a literal or a
/// string (repair mode's look-ahead after a quote), of a line comment, and a `+` join. Only
/// a doubled backslash (`\\n`) is an escape inside a string.
#[test]
fn escaped_white_space_ends_what_white_space_ends() {
    let both: &[(&str, Value)] = &[
        (r#"{\n  \"a\": 1\n}"#, json!({"a": 1})),
        (r#"{\n\t\"a\": [1,\n\t\t2.5e1\r\n\t],\n\t\"b\": true\n}\n"#, json!({"a": [1, 25.0], "b": true})),
        (r#"{\"a\": \"x\"\n, \"b\": null\t}"#, json!({"a": "x", "b": null})),
        // Line comments end at an escaped line break.
        (r#"{\"a\": 1, // note\n \"b\": 2}"#, json!({"a": 1, "b": 2})),
        (r#"{\"a\": 1, # note\r\n \"b\": 2}"#, json!({"a": 1, "b": 2})),
        // A backslash that was itself escaped is content, not white space.
        (r#"{\"path\": \"C:\\\\new\", \"text\": \"a\\nb\"}"#, json!({"path": "C:\\new", "text": "a\nb"})),
    ];
    for options in [lenient(), repairing()] {
        let mode = options.mode;
        for (input, expected) in both {
            let parsed = parsed_alike(input, &options, &[1, 2, 3]);
            assert_eq!(&parsed.value, expected, "{mode:?} {input:?}");
            assert!(!kinds(&parsed.repairs).contains(&ControlCharacter), "{mode:?} {input:?}");
            records_span_the_input(input, &parsed);
        }
    }
    // Repair mode joins strings across an escaped line break.
    let joined = parsed_alike(r#"{\"a\": \"x\" +\n \"y\"}"#, &repairing(), &[1, 2, 3]);
    assert_eq!(joined.value, json!({"a": "xy"}));
    // A lone `\n` inside a string of escaped JSON stood for a raw line break: it is one,
    // recorded as the control character it is.
    let input = r#"{\"text\": \"a\nb\"}"#;
    for options in [lenient(), repairing()] {
        let parsed = parsed_alike(input, &options, &[1, 2, 3]);
        assert_eq!(parsed.value, json!({"text": "a\nb"}));
        assert_eq!(kinds(&parsed.repairs), [EscapedJson, ControlCharacter]);
    }
}

/// When a value after prose fails inside escaped JSON, the next candidate is looked for
/// after the failure in the text as sent, as in plain JSON: never an object inside the
/// value that failed.
#[test]
fn the_retry_after_failed_escaped_json_goes_on_past_the_failure() {
    let plain = r#"Sure: {"a": "x", "y": "z", "q": {"b": 1} @} then {"c": 1}"#;
    let escaped = r#"Sure: {\"a\": \"x\", \"y\": \"z\", \"q\": {\"b\": 1} @} then {"c": 1}"#;
    for input in [plain, escaped] {
        assert_eq!(parsed_alike(input, &lenient(), &[1, 3, 7]).value, json!({"c": 1}), "{input:?}");
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

    /// Any JSON text escaped once more (the content of the JSON string that holds it: its
    /// quotes, backslashes and white space escaped), alone or after prose, reads as the
    /// text does, whole and in pieces: any spacing in the lenient mode; in repair mode,
    /// which guesses where the text is not strict JSON (and escaped JSON is not), the text
    /// a formatter writes, compact or pretty-printed, whose strings hold no brackets or
    /// quotes (which it may read as JSON embedded in a string, or a quote left unescaped).
    #[test]
    fn escaped_json_reads_as_the_json_it_escapes(
        value in gen_strategy(),
        seed in proptest::prelude::any::<u64>(),
        prose in proptest::prelude::any::<bool>(),
        piece in 1usize..9,
    ) {
        let text = write(&value, seed, false);
        let expected = parse(&text, &ParseOptions::strict()).unwrap().value;
        // Prose before a scalar makes it prose too ("1. Call it"): only before a container.
        let container = matches!(value, Gen::Array(_) | Gen::Object(_));
        let escape = |text: &str| {
            let quoted = serde_json::to_string(text).unwrap();
            format!("{}{}", if prose && container { "Sure: " } else { "" }, &quoted[1..quoted.len() - 1])
        };
        let mut readings = vec![(escape(&text), lenient())];
        if plain_strings(&value) {
            for formatted in [serde_json::to_string(&expected), serde_json::to_string_pretty(&expected)] {
                readings.push((escape(&formatted.unwrap()), repairing()));
            }
        }
        for (escaped, options) in readings {
            let parsed = parse(&escaped, &options);
            proptest::prop_assert_eq!(parsed.as_ref().map(|p| &p.value).ok(), Some(&expected), "{:?}", escaped);
            let streamed = streamed_in_pieces(&escaped, piece, &options);
            proptest::prop_assert_eq!(streamed.ok(), parsed.ok(), "{:?} in pieces of {}", escaped, piece);
        }
    }
}

/// Whether no string or key of `value` holds a bracket or a quote.
fn plain_strings(value: &Gen) -> bool {
    let plain = |text: &str| !text.contains(['{', '}', '[', ']', '"', '\'', '’']);
    match value {
        Gen::Str(text) => plain(text),
        Gen::Array(items) => items.iter().all(plain_strings),
        Gen::Object(members) => members.iter().all(|(key, item)| plain(key) && plain_strings(item)),
        Gen::Null | Gen::Bool(_) | Gen::Number(_) => true,
    }
}
