//! The parser through the public API: JSONTestSuite (strict exactness, lenient robustness),
//! the repair corpora (robustness) and the bench workloads (values).

#[path = "../../suite/tests/common/mod.rs"]
mod common;

use std::path::Path;

use serde_json::Value;
use tool_input::parse::{
    parse, parse_bytes, parse_without_fast_path, ParseError, ParseMode, ParseOptions, Parsed, RepairStyle,
};

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Standard base64 with padding (the corpus format); no dependency needed for this.
fn base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    };
    let mut out = Vec::new();
    let mut bits = 0u32;
    let mut count = 0;
    for c in text.bytes().filter(|&c| c != b'=') {
        bits = (bits << 6) | u32::from(value(c));
        count += 6;
        if count >= 8 {
            count -= 8;
            out.push((bits >> count) as u8);
        }
    }
    out
}

struct Case {
    name: String,
    expect: String,
    input: Vec<u8>,
}

fn json_test_suite(file: &str) -> Vec<Case> {
    let cases = read_json(&common::corpus_dir().join("json-test-suite").join(file));
    cases
        .as_array()
        .expect("an array of cases")
        .iter()
        .map(|case| Case {
            name: case["name"].as_str().expect("name").to_owned(),
            expect: case["expect"].as_str().expect("expect").to_owned(),
            input: base64(case["input_base64"].as_str().expect("input_base64")),
        })
        .collect()
}

fn completing(mode: ParseMode) -> ParseOptions {
    ParseOptions::default().with_mode(mode).with_complete_truncated(true)
}

/// Every combination of the repair path's options: both styles, completing cut-off text
/// stream-stably or as final.
fn repair_variants() -> Vec<ParseOptions> {
    let mut variants = Vec::new();
    for style in [RepairStyle::Jsonrepair, RepairStyle::JsonRepair] {
        for stream_stable in [true, false] {
            variants.push(completing(ParseMode::Repair).with_style(style).with_stream_stable(stream_stable));
        }
    }
    variants
}

#[test]
fn json_test_suite_strict_is_exact() {
    let cases = json_test_suite("test_parsing.json");
    assert_eq!(cases.len(), 318);
    let strict = ParseOptions::strict();
    let mut wrong = Vec::new();
    let (mut accepted, mut rejected) = (0, 0);
    for case in &cases {
        let public = parse_bytes(&case.input, &strict);
        let own = parse_without_fast_path(&case.input, &strict);
        match case.expect.as_str() {
            "accept" => {
                accepted += 1;
                if let Err(e) = &public {
                    wrong.push(format!("{}: rejected: {e}", case.name));
                }
                if let Err(e) = &own {
                    wrong.push(format!("{} (own parser): rejected: {e}", case.name));
                }
                // Our parser yields the value serde_json yields.
                if let (Ok(public), Ok(own)) = (&public, &own) {
                    if public.value != own.value {
                        wrong.push(format!("{}: {} != {}", case.name, public.value, own.value));
                    }
                }
            }
            "reject" => {
                rejected += 1;
                if let Ok(parsed) = &public {
                    wrong.push(format!("{}: accepted as {}", case.name, parsed.value));
                }
                if let Ok(parsed) = &own {
                    wrong.push(format!("{} (own parser): accepted as {}", case.name, parsed.value));
                }
            }
            _ => {}
        }
    }
    assert_eq!((accepted, rejected), (95, 188));
    assert!(wrong.is_empty(), "{} wrong:\n{}", wrong.len(), wrong.join("\n"));
}

/// The implementation-defined (`i_`) cases, as the `parse` module documents them: strict
/// mode accepts a number whose exponent underflows (as 0.0) and integers beyond 64 bits (as
/// the nearest `f64`), and rejects everything else (numbers that overflow to infinity, lone
/// surrogate escapes, invalid UTF-8, UTF-16, a BOM, 500 levels of nesting).
#[test]
fn json_test_suite_either_cases_are_as_documented() {
    let accepted = [
        "i_number_double_huge_neg_exp.json",
        "i_number_real_underflow.json",
        "i_number_too_big_neg_int.json",
        "i_number_too_big_pos_int.json",
        "i_number_very_big_negative_int.json",
    ];
    let strict = ParseOptions::strict();
    let cases = json_test_suite("test_parsing.json");
    let either: Vec<&Case> = cases.iter().filter(|c| c.expect == "either").collect();
    assert_eq!(either.len(), 35);
    for case in either {
        let public = parse_bytes(&case.input, &strict);
        let own = parse_without_fast_path(&case.input, &strict);
        let show = |r: &Result<Parsed, ParseError>| match r {
            Ok(parsed) => format!("accept {}", parsed.value),
            Err(e) => format!("reject ({e})"),
        };
        println!("{}: {} | own parser: {}", case.name, show(&public), show(&own));
        let accept = accepted.contains(&case.name.as_str());
        assert_eq!(public.is_ok(), accept, "{}", case.name);
        assert_eq!(own.is_ok(), accept, "{} (own parser)", case.name);
        if let (Ok(public), Ok(own)) = (&public, &own) {
            assert_eq!(public.value, own.value, "{}", case.name);
        }
    }
}

#[test]
fn json_test_suite_never_panics_in_any_mode() {
    let mut cases = json_test_suite("test_parsing.json");
    cases.extend(json_test_suite("test_transform.json"));
    let mut modes = vec![
        ParseOptions::strict(),
        ParseOptions::default(),
        completing(ParseMode::Lenient),
        completing(ParseMode::Strict),
        completing(ParseMode::Repair),
        completing(ParseMode::Lenient).with_max_depth(1000),
        completing(ParseMode::Repair).with_max_depth(1000),
    ];
    modes.extend(repair_variants());
    for case in &cases {
        for options in &modes {
            let _ = parse_bytes(&case.input, options);
            let _ = parse_without_fast_path(&case.input, options);
        }
    }
    // The deep ones are cut off at the depth limit, completed or not.
    let deep =
        cases.iter().find(|c| c.name == "n_structure_100000_opening_arrays.json").expect("the deep case");
    for options in &modes[1..5] {
        assert_eq!(parse_bytes(&deep.input, options), Err(ParseError::TooDeep { limit: 128 }));
    }
}

#[test]
fn repair_corpora_never_panic() {
    for file in ["jsonrepair.json", "json_repair.json", "json_repair.schema_guided.json"] {
        let cases = read_json(&common::corpus_dir().join("repair").join(file));
        for case in cases.as_array().expect("an array of cases") {
            let Some(input) = case["input"].as_str() else { continue };
            let mut modes =
                vec![ParseOptions::strict(), ParseOptions::default(), completing(ParseMode::Lenient)];
            modes.extend(repair_variants());
            for options in modes {
                let _ = parse(input, &options);
                let _ = parse_without_fast_path(input.as_bytes(), &options);
            }
        }
    }
}

#[test]
fn mangled_workload_repairs_to_the_expected_values() {
    let dir = common::bench_data_dir();
    let raw = common::read_jsonl(&dir.join("mangled.jsonl"));
    let expected = common::read_jsonl(&dir.join("mangled.expected.jsonl"));
    assert_eq!(raw.len(), expected.len());
    let mut wrong = Vec::new();
    for (row, want) in raw.iter().zip(&expected) {
        assert_eq!(row["id"], want["id"]);
        let input = row["raw"].as_str().expect("raw");
        for options in [ParseOptions::default(), ParseOptions::repair()] {
            match parse(input, &options) {
                Ok(parsed) if parsed.value == want["repaired"] => {}
                Ok(parsed) => wrong.push(format!("{} ({:?}): got {}", row["id"], options.mode, parsed.value)),
                Err(e) => wrong.push(format!("{} ({:?}): {e}", row["id"], options.mode)),
            }
        }
    }
    println!("mangled: {} of {} as expected", raw.len() - wrong.len(), raw.len());
    assert!(
        wrong.is_empty(),
        "{} wrong, first ones:\n{}",
        wrong.len(),
        wrong[..wrong.len().min(10)].join("\n")
    );
}

/// Valid JSON is what it says in every mode and style: our own parser (which the streaming
/// parser uses) reads it as `serde_json` does, without a repair, as the fast path does.
#[test]
fn valid_json_is_read_as_it_is_in_every_mode() {
    let mut inputs: Vec<Vec<u8>> = json_test_suite("test_parsing.json")
        .into_iter()
        .filter(|case| case.name.starts_with("y_"))
        .map(|case| case.input)
        .collect();
    let clean = common::read_jsonl(&common::bench_data_dir().join("clean.jsonl"));
    inputs.extend(
        clean.iter().step_by(10).filter_map(|row| row["raw"].as_str()).map(|s| s.as_bytes().to_vec()),
    );
    inputs.push(br#"{"key": "```json {\"a\": 1}```", "b": ["```json [1]```"]}"#.to_vec());
    let mut modes = vec![ParseOptions::default(), completing(ParseMode::Lenient)];
    modes.extend(repair_variants());
    for input in &inputs {
        let Ok(theirs) = serde_json::from_slice::<Value>(input).map(common::numbers_as_f64) else { continue };
        for options in &modes {
            let text = String::from_utf8_lossy(input);
            let own = parse_without_fast_path(input, options).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(own.value, theirs, "{text} ({options:?})");
            assert!(own.repairs.is_empty(), "{text} ({options:?}): {:?}", own.repairs);
            assert_eq!(parse_bytes(input, options).map(|p| p.value), Ok(theirs.clone()), "{text}");
        }
    }
}

#[test]
fn valid_workloads_parse_strictly_like_serde_json() {
    let dir = common::bench_data_dir();
    for file in ["clean.jsonl", "large.jsonl"] {
        let rows = common::read_jsonl(&dir.join(file));
        assert!(!rows.is_empty());
        for row in &rows {
            let input = row["raw"].as_str().expect("raw");
            let theirs: Value = serde_json::from_str(input).expect("valid JSON");
            let public = parse(input, &ParseOptions::strict()).expect("strict parse");
            assert_eq!(public.value, theirs, "{}", row["id"]);
            let own =
                parse_without_fast_path(input.as_bytes(), &ParseOptions::strict()).expect("own strict parse");
            assert_eq!(own.value, theirs, "{} (own parser)", row["id"]);
            assert!(own.repairs.is_empty());
            let lenient = parse_without_fast_path(input.as_bytes(), &ParseOptions::default())
                .expect("own lenient parse");
            assert_eq!(lenient.value, theirs, "{} (own lenient parser)", row["id"]);
        }
    }
}
