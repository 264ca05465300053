//! A parse on the buffers an earlier parse on the same thread left (see `parse::spare`)
//! reads as one on a thread that never parsed: whatever the earlier one read, and however
//! it ended (a failure midway leaves its buffers full).

use super::super::one_shot::parse_to_tape;
use super::super::IncrementalParser;
use super::*;

/// Inputs that fill each buffer and leave some full: escapes and smart quotes (the lexer's
/// buffers), nesting (the stacks), failures inside a string, a word or a container, prose
/// before a value and a double-encoded payload (a parse after or inside another), a Python
/// set (a parse nested in the grammar's).
const INPUTS: &[&str] = &[
    r#"{"a": "x\ny\u00e9", "b": [1, {"c": [[["d"]]]}], 'e': “f”}"#,
    r#"{"a": "unterminated \t escape \u12"#,
    r#"{"a": [[[{"b": [[[{"c": "#,
    "{unquoted_key_cut_off",
    r#"Call it with {"a": 1} and then {"b": [2, 3]}"#,
    r#"1. Call it with {"a": broken then {"a": 2}"#,
    r#""{\"inner\": {\"x\": \"y\\n\"}, \"list\": [1, 2]}""#,
    "{'a', 'b', 1}",
    "```json\n{'a': True, 'b': None, \"c\": 'it\\'s'}\n```",
    r#"{"a": 1, "a": 2}"#,
    r#"["x" "y", 'z' 'w']"#,
    "{\"a\": NumberLong(2), \"b\": (1, 2)}",
    "",
];

/// Everything the one-shot readings and the incremental parser give for `input` under
/// `options`, spelled out.
fn readings(input: &str, options: &ParseOptions) -> String {
    let whole = parse_without_fast_path(input.as_bytes(), options);
    let tape = parse_to_tape(input, options, true)
        .map(|parsed| parsed.map(|parsed| (parsed.tape.to_value(), parsed.repairs)));
    let mut parser = IncrementalParser::new(options.clone());
    let mut events = Vec::new();
    let fed: Result<Vec<()>, _> = input
        .chars()
        .map(|c| parser.feed_with(c.encode_utf8(&mut [0; 4]), |event| events.push(format!("{event:?}"))))
        .collect();
    let streamed = fed.and_then(|_| parser.finish());
    format!("{whole:?}\n{tape:?}\n{events:?}\n{streamed:?}")
}

#[test]
fn a_parse_reads_the_same_on_the_buffers_an_earlier_one_left() {
    let strict = ParseOptions { mode: ParseMode::Strict, ..ParseOptions::default() };
    for options in [strict, lenient(), completing(), repairing()] {
        let fresh: Vec<String> = INPUTS
            .iter()
            .map(|input| {
                let options = options.clone();
                std::thread::spawn(move || readings(input, &options)).join().expect("no panic")
            })
            .collect();
        // Each input after every other one, in both orders.
        let forward: Vec<String> = INPUTS.iter().map(|input| readings(input, &options)).collect();
        let mut backward: Vec<String> = INPUTS.iter().rev().map(|input| readings(input, &options)).collect();
        backward.reverse();
        assert_eq!(forward, fresh, "{options:?}");
        assert_eq!(backward, fresh, "{options:?}");
    }
}

#[test]
fn a_long_texts_repair_records_give_back_their_room_once_coalesced() {
    // A repair of one kind between every two of another: a record each until the end.
    let input = format!("[{}]", "['a',], ".repeat(5_000));
    let tape = parse_to_tape(&input, &lenient(), true).unwrap().unwrap();
    let parsed = crate::parse::parse(&input, &lenient()).unwrap();
    for repairs in [&tape.repairs, &parsed.repairs] {
        assert_eq!(kinds(repairs), [RepairKind::SingleQuotes, RepairKind::TrailingComma]);
        assert_eq!(repairs[1].count, 5_001);
        assert!(repairs.capacity() <= 64, "{}", repairs.capacity());
    }
}
