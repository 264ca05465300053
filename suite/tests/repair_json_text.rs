//! `parse::parse_to_json` (what `tool-input repair` prints) against `parse::parse_bytes`: the
//! same value, the same repairs and the same errors for every input of the repair corpora
//! under every option set, but each float written as the input wrote it, and a number
//! beyond the floats (`1e400`, which `parse_bytes` refuses) written as read.

use std::path::Path;

use serde_json::Value;
use tool_input::parse::{
    parse, parse_bytes, parse_to_json, ParseError, ParseMode, ParseOptions, RepairStyle,
};

/// Every `input` of the repair corpora.
fn corpus_inputs() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/repair");
    let mut inputs = Vec::new();
    for file in ["jsonrepair.json", "json_repair.json", "json_repair.schema_guided.json"] {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        let cases: Vec<Value> = serde_json::from_str(&text).unwrap();
        inputs.extend(cases.iter().filter_map(|case| case["input"].as_str().map(str::to_owned)));
    }
    assert!(inputs.len() > 300, "{}", inputs.len());
    inputs
}

/// The option sets `tool-input repair` runs with, strict and lenient modes too.
fn option_sets() -> Vec<ParseOptions> {
    let repair = ParseOptions::repair();
    vec![
        repair.clone(),
        repair.clone().with_complete_truncated(true),
        repair.clone().with_complete_truncated(true).with_stream_stable(false),
        repair.clone().with_style(RepairStyle::JsonRepair).with_complete_truncated(true),
        ParseOptions::strict(),
        ParseOptions::default(),
    ]
}

/// `json` read back (strict JSON, floats correctly rounded) is `value`.
fn same_value(json: &str, value: &Value) -> bool {
    parse(json, &ParseOptions::strict().with_max_bytes(usize::MAX)).is_ok_and(|read| &read.value == value)
}

#[test]
fn the_same_reading_as_parse_bytes_on_every_corpus_input() {
    let mut compared = 0;
    let mut inputs = corpus_inputs();
    // And the short ones with a byte dropped or doubled: structure repair mode must guess at,
    // around numbers.
    let short: Vec<String> = inputs.iter().filter(|input| input.len() <= 80).cloned().collect();
    for input in short {
        for at in (0..input.len()).filter(|&at| input.is_char_boundary(at) && input.is_char_boundary(at + 1))
        {
            inputs.push(format!("{}{}", &input[..at], &input[at + 1..]));
            inputs.push(format!("{}{}", &input[..at + 1], &input[at..]));
        }
    }
    for input in inputs {
        for options in option_sets() {
            let expected = parse_bytes(input.as_bytes(), &options);
            let written = parse_to_json(input.as_bytes(), &options);
            match (expected, written) {
                (Ok(parsed), Ok(written)) => {
                    assert!(
                        same_value(&written.json, &parsed.value),
                        "{input:?} {options:?}: {}",
                        written.json
                    );
                    assert_eq!(written.repairs, parsed.repairs, "{input:?} {options:?}");
                    compared += 1;
                }
                (Err(ParseError::NumberOutOfRange { .. }), Ok(_)) => {}
                (Err(error), Err(written)) => assert_eq!(error, written, "{input:?} {options:?}"),
                (expected, written) => panic!("{input:?} {options:?}: {expected:?} but {written:?}"),
            }
        }
    }
    assert!(compared > 10_000, "{compared}");
}

#[test]
fn numbers_keep_their_text_wherever_the_value_lands() {
    let repair = ParseOptions::repair();
    let json_repair = || repair.clone().with_style(RepairStyle::JsonRepair);
    for (options, input, json) in [
        (repair.clone(), "[1e2, 0.50, -0, 12345678901234567890123]", "[1e2,0.50,-0,12345678901234567890123]"),
        (repair.clone(), "{'b': 1e400, a: -1E-400}", r#"{"a":-1E-400,"b":1e400}"#),
        // Several top-level values, collected into an array.
        (repair.clone(), "1.50\n2.50", "[1.50,2.50]"),
        // A set, its first item read as a key.
        (repair.clone(), "{2.0, 3.50, 0.0}", "[2.0,3.50,0.0]"),
        (repair.clone(), "{12345678901234567890123, 1}", "[12345678901234567890123,1]"),
        // A table row that lost its `[`.
        (
            repair.clone(),
            r#"{"t": [[1.0, 2.0], 3.50, 4.0], [5.0, 6.0]]}"#,
            r#"{"t":[[1.0,2.0],[3.50,4.0],[5.0,6.0]]}"#,
        ),
        // Repaired numbers: JSON of the same value.
        (repair.clone(), "[.5, +1.5, 1., 0x1F, 1_000.5, -.25, .]", "[0.5,1.5,1.0,31,1000.5,-0.25,0.0]"),
        // json_repair's fenced block inside a string, read as its value.
        (
            json_repair(),
            "{\"a\": \"```json {\"b\": 2.50, \"c\": [1.0, 3.0]}```\"}",
            r#"{"a":{"b":2.50,"c":[1.0,3.0]}}"#,
        ),
        // A double-encoded payload (lenient mode): its own numbers as written.
        (
            ParseOptions::default(),
            r#""{\"n\": 1.50, \"m\": 12345678901234567890123}""#,
            r#"{"m":12345678901234567890123,"n":1.50}"#,
        ),
        (ParseOptions::strict(), "[1.0e+2]", "[1.0e+2]"),
    ] {
        let written = parse_to_json(input.as_bytes(), &options).unwrap_or_else(|e| panic!("{input}: {e}"));
        assert_eq!(written.json, json, "{input}");
        if let Ok(parsed) = parse_bytes(input.as_bytes(), &options) {
            assert!(same_value(&written.json, &parsed.value), "{input}");
            assert_eq!(written.repairs, parsed.repairs, "{input}");
        }
    }
    // What `parse_bytes` refuses for another reason is refused alike.
    for (options, input) in
        [(ParseOptions::strict(), "{'a': 1}"), (repair.clone(), "{\"a\": [1.5, 2"), (repair, "\u{0}")]
    {
        assert_eq!(
            parse_to_json(input.as_bytes(), &options).err(),
            parse_bytes(input.as_bytes(), &options).err()
        );
    }
    let limited = ParseOptions::strict().with_max_bytes(4);
    assert!(matches!(parse_to_json(b"[1.5]", &limited), Err(ParseError::TooLarge { .. })));
    assert!(matches!(
        parse_to_json(b"[\"\xff\"]", &ParseOptions::strict()),
        Err(ParseError::InvalidUtf8 { .. })
    ));
    assert_eq!(ParseOptions::strict().mode, ParseMode::Strict);
}
