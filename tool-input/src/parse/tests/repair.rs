//! `ParseMode::Repair` and its readings (`RepairStyle::JsonRepair`, settled completion).

use super::*;

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
        // A `+` sign, as json_repair reads it; after it, text that is no JSON number stays text.
        ("{\"a\": +1, \"b\": [+1.5, +0, +2e3]}", json!({"a": 1, "b": [1.5, 0, 2e3]}), &[NumberSyntax]),
        ("[+x, +-1]", json!(["+x", "+-1"]), &[UnquotedString]),
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
        // A `.` after the value ends a sentence (the rest is prose); another value only
        // as a number.
        ("Here it is: {\"a\": 1}. Done", json!({"a": 1}), &[ProseBefore, ProseAfter]),
        ("[1].", json!([1]), &[ProseAfter]),
        ("{\"a\": 1}... {\"b\": 2}", json!({"a": 1}), &[ProseAfter]),
        ("{\"a\": 1} .5", json!([{"a": 1}, 0.5]), &[MultipleValues, NumberSyntax]),
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

#[test]
fn backticks_in_prose_read_as_text_are_read_once() {
    // Prose with no value in it is the value, as text; a backtick in it is held until the
    // lexer knows whether a fence follows, and then kept once.
    let cases: &[(&str, Value)] = &[
        ("see `x` here", json!("see `x` here")),
        ("x ``b``", json!("x ``b``")),
        ("x `", json!("x `")),
        ("x ``", json!("x ``")),
        // A stray comma first: the backtick-quoted string after it is the value, as after
        // `,'b',`.
        (",`b`,", json!("b")),
        (",'b',", json!("b")),
    ];
    for (input, expected) in cases {
        check_repair(input, expected, &[]);
        check_repair_with(&python_style(), input, expected, &[]);
    }
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

/// The repair mode reads Python's literals as the lenient mode does (one reading: the
/// lenient mode's `python_literals_*` tests hold the repairs): prefixes, Python's escapes,
/// tuples, digit separators; a function call is refused in both.
#[test]
fn repair_mode_reads_python_literals_as_lenient_does() {
    let same = [
        "{'tags': ('a', 'b')}",
        "{'p': ('x',)}",
        "{'a': (), 'b': (1,), 'd': ((1, 2), [3],)}",
        r"{'s': '\x41\x42'}",
        r"{'s': '\101\0x'}",
        r"{'s': '\U0001F600'}",
        r#"{"s": u"\x41"}"#,
        r"{'s': r'\x41'}",
        r#"{"a": u'x', "b": U"y"}"#,
        r#"{"a": r'\d+', "b": R"\n", "c": r'\'', "d": r"a\"b", "e": r'\\'}"#,
        r#"{"a": b'x\ty', "b": rb'\x', "c": Br"z"}"#,
        "{'n': 1_000, 'h': 0x_1f}",
        "{'s': 'it's here'}",
        "{'a': {1, 2}}",
        "{\"a\": {True, None, -1.5, (1, 2)}}",
        "{\"a\": {1_0, 2}}",
        "{'s': {('a', 1), 'b'}}",
        "[{(1, 2), (3, 4)}]",
        "('a', 'b')",
    ];
    for input in same {
        let lenient = parse(input, &lenient()).unwrap_or_else(|e| panic!("{input}: {e}")).value;
        let repaired = parse(input, &ParseOptions::repair()).unwrap_or_else(|e| panic!("{input}: {e}"));
        assert_eq!(repaired.value, lenient, "{input}");
    }
    // Python's escape records its repair; one that spells nothing keeps its backslash.
    let parsed = parse(r"{'s': '\x41'}", &ParseOptions::repair()).expect("parses");
    assert!(kinds(&parsed.repairs).contains(&PythonEscape));
    let parsed = parse(r"{'s': '\x4'}", &ParseOptions::repair()).expect("parses");
    assert_eq!(parsed.value, json!({"s": "\\x4"}));
    // A prefix is read only before a quote content follows: `b"]` lost its opening quote.
    for input in ["{\"a\": u'x', \"b\": [b'y']}", "[a\",b\"]", "{\"a\": u'", "{\"a\": u\""] {
        let whole = parse(input, &ParseOptions::repair().with_complete_truncated(true)).map(|p| p.value);
        for cut in 1..input.len() {
            let fed =
                feed_str_in_pieces(input, &[cut], &ParseOptions::repair().with_complete_truncated(true))
                    .map(|p| p.value);
            assert_eq!(fed.ok(), whole.clone().ok(), "{input} cut at {cut}");
        }
    }
    // `\N{NAME}` is refused in a Python literal in every mode, saying why; a `"` string
    // without a prefix is JSON's, where `\N` is an invalid escape kept as written.
    for options in [lenient(), ParseOptions::repair()] {
        for named in [r"{'s': '\N{BULLET}'}", r#"{"s": u"\N{BULLET}"}"#, r"['a\N']"] {
            let error = parse(named, &options).expect_err(named).to_string();
            assert!(error.contains("Unicode name"), "{named}: {error}");
        }
        assert_eq!(parse(r#"{"s": "\N"}"#, &options).map(|p| p.value).ok(), Some(json!({"s": "\\N"})));
        assert_eq!(parse(r"{'s': r'\N{X}'}", &options).map(|p| p.value).ok(), Some(json!({"s": "\\N{X}"})));
    }
    for call in ["{'i': abs(-5)}", "{'i': int('7')}", "[sorted([3, 1, 2])]"] {
        assert!(parse(call, &ParseOptions::repair()).is_err(), "{call}");
    }
}

/// Adjacent `'` literals are one string, as Python (and the lenient mode) joins them, whole
/// and fed in every split; `"a" "b"` stays jsonrepair's missing comma, and `{'a' 'b'}` its
/// missing colon.
#[test]
fn repair_mode_joins_adjacent_python_literals() {
    for (input, expected) in [
        ("'a''b'", json!("ab")),
        ("'a' 'b'", json!("ab")),
        ("['a' 'b', 'c']", json!(["ab", "c"])),
        ("{'tags': ['a''b']}", json!({"tags": ["ab"]})),
        ("{'s': 'it''s', 'n': 1}", json!({"s": "its", "n": 1})),
        ("['a' 'b' 'c']", json!(["abc"])),
    ] {
        check_repair(input, &expected, &[SingleQuotes, AdjacentStrings]);
        assert_eq!(parse(input, &lenient()).map(|p| p.value).ok(), Some(expected), "{input} lenient");
    }
    check_repair(r#"["a" "b"]"#, &json!(["a", "b"]), &[MissingComma]);
    check_repair("{'a' 'b'}", &json!({"a": "b"}), &[MissingColon]);
}

/// Python's `repr` and `pprint` quote a piece of a string that holds a `'` with `"`, and
/// `pprint` splits a long string into adjacent literals at its spaces: a `"` literal next
/// to a `'` one is joined to it, and so is any literal after a joined one, whatever its
/// quotes; a piece may start with a bracket, `/`, `+` or `#`, which are its content.
/// Whole and fed in every split, as the lenient mode reads them.
#[test]
fn repair_mode_joins_adjacent_literals_of_either_quote_after_a_python_one() {
    for (input, expected) in [
        ("{'a': \"it's \" 'b', 'n': 1}", json!({"a": "it's b", "n": 1})),
        ("{'a': 'x ' \"it's\", 'n': 1}", json!({"a": "x it's", "n": 1})),
        ("['x '\n \"it's \"\n \"y's\", 1]", json!(["x it's y's", 1])),
        ("{'n': 'a ' '/ b', 'k': 1}", json!({"n": "a / b", "k": 1})),
        (
            "{'n': 'a '\n '(b) ' '[c] ' '{d} ' '+e ' '# f', 'k': 1}",
            json!({"n": "a (b) [c] {d} +e # f", "k": 1}),
        ),
        ("['a' '/ b', 1]", json!(["a/ b", 1])),
    ] {
        check_repair(input, &expected, &[SingleQuotes, AdjacentStrings]);
        assert_eq!(parse(input, &lenient()).map(|p| p.value).ok(), Some(expected), "{input} lenient");
    }
    // Two `"` strings that no `'` literal leads stay jsonrepair's missing comma.
    check_repair(r#"["a" "b", 'c']"#, &json!(["a", "b", "c"]), &[MissingComma]);
}

/// A prefixed literal after a `'` literal (`'a' u'b'`, `'a' r'\d'`) is joined to it too, as
/// the lenient mode reads it, whole and fed in every split; letters that no quote follows
/// at once are no prefix, and stay text.
#[test]
fn repair_mode_joins_prefixed_adjacent_literals() {
    for (input, expected) in [
        ("'a' u'b'", json!("ab")),
        ("'a' r'b'", json!("ab")),
        ("'a' b'b'", json!("ab")),
        ("'a' U'b'", json!("ab")),
        (r"'a' R'\d'", json!("a\\d")),
        (r"'\x41' r'\x41'", json!("A\\x41")),
        ("'a'u'b'", json!("ab")),
        ("'a'b'b'", json!("ab")),
        ("['a' U'b']", json!(["ab"])),
        ("'a' rb'b'", json!("ab")),
        ("'a' Br'b'", json!("ab")),
        ("'a' u\"b\"", json!("ab")),
        ("'a' u'b c'", json!("ab c")),
        ("'a' u''", json!("a")),
        ("'a' u'b' r'c'", json!("abc")),
        ("'a'\nu'b'", json!("ab")),
        ("['a' u'b', 'c']", json!(["ab", "c"])),
        ("['a' r'\\d' 'c']", json!(["a\\dc"])),
        ("{'k': 'a' u'b', 'n': 1}", json!({"k": "ab", "n": 1})),
        ("{'k': ['x' b'y']}", json!({"k": ["xy"]})),
        ("{'k': 'a' u'b'}", json!({"k": "ab"})),
    ] {
        check_repair(input, &expected, &[AdjacentStrings, StringPrefix]);
        let lenient_reading = parse(input, &lenient()).unwrap_or_else(|e| panic!("{input} lenient: {e}"));
        assert_eq!(lenient_reading.value, expected, "{input} lenient");
        let repaired = parse(input, &ParseOptions::repair()).unwrap_or_else(|e| panic!("{input}: {e}"));
        for kind in [AdjacentStrings, StringPrefix] {
            let record =
                |parsed: &super::super::Parsed| parsed.repairs.iter().find(|r| r.kind == kind).copied();
            assert_eq!(record(&repaired), record(&lenient_reading), "{input}: {kind}");
        }
    }
    // A word, or letters no quote follows at once, is not a prefix: it is not eaten.
    for input in ["'a' understand 'b'", "'a' u", "'a' u 'b'", "'a' ub'c'", "'a' run", "['a' u, 'b']"] {
        let repaired = parse(input, &repairing()).unwrap_or_else(|e| panic!("{input}: {e}"));
        let text = repaired.value.to_string();
        assert!(!kinds(&repaired.repairs).contains(&StringPrefix), "{input}: {text}");
        assert!(text.contains('u') || text.contains("run"), "{input}: {text}");
        check_repair(input, &repaired.value, &[]);
    }
    // `f'..'` is an expression, not a literal: never read as a prefix, never joined.
    for input in ["'a' f'b'", "['a' f'b']", "{'k': 'a' f'b', 'n': 1}"] {
        let repaired = parse(input, &repairing()).unwrap_or_else(|e| panic!("{input}: {e}"));
        let found = kinds(&repaired.repairs);
        assert!(!found.contains(&StringPrefix) && !found.contains(&AdjacentStrings), "{input}: {found:?}");
        assert!(!repaired.value.to_string().contains("\"ab\""), "{input}: {}", repaired.value);
    }
    // A quote that spaces precede and a letter touches opens an inner quotation.
    check_repair("'say 'b' x'", &json!("say 'b' x"), &[UnescapedQuote]);
    // Keys and `"` strings keep jsonrepair's readings.
    check_repair("{'a' 'b'}", &json!({"a": "b"}), &[MissingColon]);
    let key = parse("{'a' u'b'}", &repairing()).unwrap_or_else(|e| panic!("{e}"));
    assert!(!kinds(&key.repairs).contains(&AdjacentStrings), "{:?}", key.value);
    check_repair(r#"["a" "b"]"#, &json!(["a", "b"]), &[MissingComma]);
}
