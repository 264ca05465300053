//! Table-driven tests of the lexer and builder, and of feeding them in fragments: the
//! helpers here, the tests by mode in `lenient` and `repair`, by fragments in `fragments`,
//! of the pieces the lexer shares in `pieces`, and of where string tokens lend their
//! content from in `lending`, and of a parse on the buffers an earlier one left in `spare`.

mod escaped;
mod fragments;
mod lending;
mod lenient;
mod pieces;
mod repair;
mod spare;

use serde_json::{json, Value};

use super::driver::{Driver, Outcome};
use super::lexer::Failure;
use super::{
    parse, parse_bytes, parse_without_fast_path, NonFinite, ParseError, ParseMode, ParseOptions, Parsed,
    RepairKind, RepairStyle,
};
use crate::arbitrary_precision::numbers_as_f64;
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
    records_span_the_input(input, &parsed);
    let own = parse_without_fast_path(input.as_bytes(), options).unwrap_or_else(|e| panic!("{input:?}: {e}"));
    assert_eq!(own, parsed, "own parser on {input:?}");
}

/// Each record spans the input it covers: from its first repair to its last.
fn records_span_the_input(input: &str, parsed: &Parsed) {
    for repair in &parsed.repairs {
        assert!(
            repair.offset <= repair.last_offset && repair.last_offset <= input.len(),
            "{input:?}: {repair:?}"
        );
    }
}

/// Feed `input` to one machine in the fragments between `cuts`.
fn feed_in_pieces(input: &[u8], cuts: &[usize], options: &ParseOptions) -> Result<Outcome, Failure> {
    let mut machine = Driver::for_value(options);
    let mut from = 0;
    for &cut in cuts.iter().chain(std::iter::once(&input.len())) {
        machine.feed(&input[from..cut])?;
        from = cut;
    }
    machine.finish()
}

/// Feed `input` as `str` fragments cut at `cuts` (character boundaries).
fn feed_str_in_pieces(input: &str, cuts: &[usize], options: &ParseOptions) -> Result<Outcome, Failure> {
    let mut machine = Driver::for_value(options);
    let mut from = 0;
    for &cut in cuts.iter().chain(std::iter::once(&input.len())) {
        machine.feed_str(&input[from..cut])?;
        from = cut;
    }
    machine.finish()
}

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
    records_span_the_input(input, &parsed);
    let own =
        parse_without_fast_path(input.as_bytes(), &options).unwrap_or_else(|e| panic!("{input:?}: {e}"));
    assert_eq!(own, parsed, "own parser on {input:?}");
    let bytes = input.as_bytes();
    let whole = feed_in_pieces(bytes, &[], &options);
    for cut in 0..=bytes.len() {
        assert_eq!(feed_in_pieces(bytes, &[cut], &options), whole, "{input:?} cut at {cut}");
    }
}

fn python_style() -> ParseOptions {
    ParseOptions { style: RepairStyle::JsonRepair, ..repairing() }
}

/// Repair mode completing cut-off text that will not grow (`stream_stable` false).
fn settled() -> ParseOptions {
    ParseOptions { stream_stable: false, ..repairing() }
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
