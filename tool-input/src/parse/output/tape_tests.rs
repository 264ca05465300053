//! The tape sink reads every text as the value path does: over the corpora, the fixed inputs
//! of the fragment tests and the stream properties' generated texts, `parse_to_tape` gives
//! the value and repairs of `parse_noting_repeats` whenever it gives a tape, the same error
//! when that fails, and no tape exactly when a key repeats. It places each string where the
//! text holds it as it reads, and keeps the rest.

use std::path::Path;

use proptest::prelude::*;
use serde_json::{json, Value};

use super::tape::{Event, Events, Place, ESCAPED_FROM};
use crate::parse::incremental::tests::{gen_strategy, write};
use crate::parse::one_shot::parse_to_tape;
use crate::parse::tests::fragment_inputs;
use crate::parse::{parse_noting_repeats, ParseOptions};

fn modes() -> [ParseOptions; 3] {
    [ParseOptions::default(), ParseOptions::strict(), ParseOptions::default().with_complete_truncated(true)]
}

/// `parse_to_tape` agrees with `parse_noting_repeats` on `input` in `options`, with and
/// without the strict fast path.
fn agrees(input: &str, options: &ParseOptions) {
    for not_strict_json in [false, true] {
        let taped = parse_to_tape(input, options, not_strict_json);
        let valued = parse_noting_repeats(input, options, not_strict_json);
        match (taped, valued) {
            (Ok(Some(taped)), Ok((parsed, repeated))) => {
                assert!(!repeated, "{input:?} ({options:?}): a tape although a key repeats");
                assert_eq!(taped.tape.to_value(), parsed.value, "{input:?} ({options:?})");
                assert_eq!(taped.repairs, parsed.repairs, "{input:?} ({options:?})");
                assert_ends_close_their_containers(taped.tape.events());
            }
            (Ok(None), Ok((_, repeated))) => assert!(repeated, "{input:?} ({options:?}): no tape, no repeat"),
            (Err(taped), Err(valued)) => assert_eq!(taped, valued, "{input:?} ({options:?})"),
            (taped, valued) => panic!("{input:?} ({options:?}): tape {taped:?}, value {valued:?}"),
        }
    }
}

/// Each container's `end` is the index of the `End` that closes it.
fn assert_ends_close_their_containers(events: Events<'_>) {
    let mut open = Vec::new();
    let mut at = 0;
    while let Some(event) = events.get(at) {
        match event {
            Event::Array { end } | Event::Object { end } => open.push(end as usize),
            Event::End => assert_eq!(open.pop(), Some(at), "{events:?}"),
            _ => {}
        }
        at = events.next_at(at);
    }
    assert_eq!(at, events.len(), "{events:?}");
    assert!(open.is_empty(), "{events:?}");
}

/// Standard base64 (the JSONTestSuite corpus stores its inputs so).
fn base64(text: &str) -> Vec<u8> {
    let digit = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let sextets: Vec<u8> = text.bytes().filter_map(digit).collect();
    sextets
        .chunks(4)
        .flat_map(|chunk| {
            let bits =
                chunk.iter().enumerate().fold(0u32, |acc, (k, &d)| acc | (u32::from(d) << (18 - 6 * k)));
            let bytes = bits.to_be_bytes();
            bytes[1..chunk.len()].to_vec()
        })
        .collect()
}

/// Every string in the JSON value `value` (the inputs of the corpora, and more), with the
/// JSONTestSuite's base64 inputs decoded.
fn strings(value: &Value, into: &mut Vec<String>) {
    match value {
        Value::String(text) => into.push(text.clone()),
        Value::Array(items) => items.iter().for_each(|item| strings(item, into)),
        Value::Object(map) => {
            for (key, item) in map {
                match (key.as_str(), item) {
                    ("input_base64", Value::String(encoded)) => {
                        if let Ok(text) = String::from_utf8(base64(encoded)) {
                            into.push(text);
                        }
                    }
                    _ => strings(item, into),
                }
            }
        }
        _ => {}
    }
}

fn corpus_inputs() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../suite/tests/corpus");
    let mut inputs = Vec::new();
    let mut dirs = vec![root];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("the corpus directory").flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|ext| ext == "json") {
                let text = std::fs::read_to_string(&path).expect("a corpus file");
                if let Ok(value) = serde_json::from_str::<Value>(&text) {
                    strings(&value, &mut inputs);
                }
            }
        }
    }
    inputs
}

#[test]
fn the_tape_reads_the_corpora_as_the_value_path() {
    let inputs = corpus_inputs();
    assert!(inputs.len() > 1000, "the corpora: {} inputs", inputs.len());
    for input in inputs.iter().chain(&fragment_inputs()) {
        for options in modes() {
            agrees(input, &options);
        }
    }
}

#[test]
fn the_tape_reads_the_restructured_readings() {
    for input in [
        "NumberLong(2)",
        r#"{"a": NumberLong(2), "b": callback({"c": [1, (2,), (), ((3))]})}"#,
        r#"{"a": {"x", 'y',}, "b": {1_0, True, None}, "c": [{1, 2}]}"#,
        r#"callback({"a": 1, "a": 2});"#,
        r#"Sure: {"a": [1, 2} and then {"b": (1, [2, {"c": 3}])}"#,
        r#""{\"a\": [1, (2)]}""#,
        // Openings taken out, nested, beside containers before and after them and inside.
        r#"{"a": ((((({"b": [(1), ((2,)), {"c": ((3))}]}))))), "d": [((4)), {}, [], ([5])]}"#,
        r#"[((NumberLong((7)))), (({})), ([]), ((((["x", ("y")]))))]"#,
        r#"{"a": (((({"b": ((([1, 2]))), "c": "#,
        r#"{"a": 1, "b": {"c": "#,
        r#"{"a": 1, "a"#,
        r#"{"k0": 0, "k1": 1, "k2": 2, "k3": 3, "k4": 4, "k5": 5, "k6": 6, "k7": 7, "k8": 8, "k9": 9, "k10": 10, "k11": 11, "k12": 12, "k13": 13, "k14": 14, "k15": 15, "k16": 16, "k17": 17, "k3": 3}"#,
        r#"{"k0": 0, "k1": 1, "k2": 2, "k3": 3, "k4": 4, "k5": 5, "k6": 6, "k7": 7, "k8": 8, "k9": 9, "k10": 10, "k11": 11, "k12": 12, "k13": 13, "k14": 14, "k15": 15, "k16": 16, "k17": 17, "k18": "#,
    ] {
        for options in modes() {
            agrees(input, &options);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The stream properties' generated texts, strict and as a model writes them, whole and
    /// cut off.
    #[test]
    fn the_tape_reads_generated_texts_as_the_value_path(
        value in gen_strategy(),
        seed in any::<u64>(),
        cut in prop::option::weighted(0.25, 0.0f64..1.0),
    ) {
        for lenient in [false, true] {
            let mut text = write(&value, seed, lenient);
            if let Some(cut) = cut {
                let mut at = (text.len() as f64 * cut) as usize;
                while !text.is_char_boundary(at) {
                    at -= 1;
                }
                text.truncate(at);
            }
            for options in modes() {
                agrees(&text, &options);
            }
        }
    }
}

/// The tape against the value path on the mangled workload (`target/bench-data`, from
/// `cargo run -p tool-input-suite --bin workloads`): the same reading for every call, and
/// the time of each, best of five passes. A measurement: run it in release,
/// `cargo test --release -p tool-input --lib tape_against_value -- --ignored --nocapture`.
#[test]
#[ignore = "a measurement on the generated workload"]
fn tape_against_value_on_the_mangled_workload() {
    use std::time::{Duration, Instant};
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/bench-data/mangled.jsonl");
    let text = std::fs::read_to_string(&path)
        .expect("the workloads (cargo run -p tool-input-suite --bin workloads)");
    let calls: Vec<String> = text
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter_map(|row| row["raw"].as_str().map(str::to_owned))
        .collect();
    let options = ParseOptions::default();
    for call in &calls {
        agrees(call, &options);
    }
    let best = |run: &dyn Fn()| {
        (0..5)
            .map(|_| {
                let start = Instant::now();
                run();
                start.elapsed()
            })
            .min()
            .unwrap_or(Duration::ZERO)
    };
    let value = best(&|| {
        for call in &calls {
            std::hint::black_box(crate::parse::parse(call, &options).ok());
        }
    });
    let noting = best(&|| {
        for call in &calls {
            std::hint::black_box(parse_noting_repeats(call, &options, false).ok());
        }
    });
    let tape = best(&|| {
        for call in &calls {
            std::hint::black_box(parse_to_tape(call, &options, false).ok());
        }
    });
    let bytes: usize = calls.iter().map(String::len).sum();
    println!(
        "{} mangled calls, {bytes} bytes: parse {value:?}, parse_noting_repeats {noting:?}, parse_to_tape {tape:?} ({:.2}x parse)",
        calls.len(),
        tape.as_secs_f64() / value.as_secs_f64()
    );
}

/// The places of the strings of `input`'s tape, in order, and a check that the tape
/// holds the value `parse` gives (`tape_de`'s tests read such tapes).
fn places(input: &str) -> Vec<Place> {
    let options = ParseOptions::default();
    let parsed = parse_to_tape(input, &options, true).unwrap().unwrap();
    let value = crate::parse::parse(input, &options).unwrap().value;
    assert_eq!(parsed.tape.to_value(), value, "{input}");
    let places = parsed.tape.events().iter().filter_map(|event| match event {
        Event::Str(text) | Event::Key(text) => Some(text.place()),
        _ => None,
    });
    places.collect()
}

#[test]
fn strings_spelled_as_they_read_point_into_the_text() {
    use Place::{Escaped, Kept, Verbatim};
    // Quoted either way, bare keys, and non-ASCII text as it is.
    assert_eq!(places(r#"{'a': "b", c: 'd é', "": ''}"#), [Verbatim; 6]);
    // In a long text, JSON's escapes (a surrogate pair too) and `\'` are read again from
    // the text; a key with escapes is kept, as are joined literals and a repaired
    // escape's content. In a short text, every string with escapes is kept.
    let input = r#"{"k\n": "tab\tand \u00e9 \uD835\uDD18", 'it\'s': 'it\'s', "j": 'x' 'y', "q": "\q"}"#;
    assert_eq!(places(input), [Kept, Kept, Kept, Kept, Verbatim, Kept, Verbatim, Verbatim]);
    let long = input.replace('}', &format!(", 'pad': '{}'}}", "x".repeat(ESCAPED_FROM)));
    let quote = |quote: u8| Escaped { quote };
    assert_eq!(
        places(&long),
        [Kept, quote(b'"'), Kept, quote(b'\''), Verbatim, Kept, Verbatim, Verbatim, Verbatim, Verbatim]
    );
    // Strict JSON read by `serde_json`: lent strings point into the text, decoded ones
    // are kept.
    let options = ParseOptions::default();
    let strict = parse_to_tape(r#"{"a": "b\n", "c": [1, -2, 2.5]}"#, &options, false).unwrap().unwrap();
    assert_eq!(strict.tape.to_value(), json!({"a": "b\n", "c": [1, -2, 2.5]}));
    let strict_places: Vec<Place> = strict
        .tape
        .events()
        .iter()
        .filter_map(|event| match event {
            Event::Str(text) | Event::Key(text) => Some(text.place()),
            _ => None,
        })
        .collect();
    assert_eq!(strict_places, [Verbatim, Kept, Verbatim]);
}

#[test]
fn pythons_own_escapes_in_a_long_text_are_read_again_from_it() {
    use Place::{Escaped, Kept, Verbatim};
    // `\x`, octal (ending at its first other byte, as in `\0x`) and `\U`: a Python payload
    // writes control and Latin-1 characters so, and its strings need no copy either.
    let input = r#"{'a': 'tab\x09, vt\x0b, \xe9', 'b': '\101\0x\12', 'c': '\U0001F600 \u00e9'}"#;
    let long = input.replace('}', &format!(", 'pad': '{}'}}", "x".repeat(ESCAPED_FROM)));
    let quote = |quote: u8| Escaped { quote };
    assert_eq!(
        places(&long),
        [Verbatim, quote(b'\''), Verbatim, quote(b'\''), Verbatim, quote(b'\''), Verbatim, Verbatim]
    );
    let value = crate::parse::parse(&long, &ParseOptions::default()).unwrap().value;
    assert_eq!(value["a"], "tab\t, vt\u{b}, \u{e9}");
    assert_eq!(value["b"], "A\0x\n");
    assert_eq!(value["c"], "\u{1F600} \u{e9}");
    // In a short text they are kept, as JSON's escapes are.
    assert_eq!(places(input), [Verbatim, Kept, Verbatim, Kept, Verbatim, Kept]);
    // Every `\xHH`, every octal escape of one to three digits followed by a digit or not,
    // and `\U` escapes: the tape holds what `parse` reads (`places` compares the values),
    // whichever place each string takes.
    let mut members: Vec<String> = (0..=255u32).map(|b| format!("'x{b}': 'a\\x{b:02x}b'")).collect();
    members.extend((0..=0o777u32).map(|n| format!("'o{n}': '\\{n:o}8\\{n:03o}9'")));
    members.extend(["'u1': '\\U0010FFFF'", "'u2': '\\U0001f600\\U00000041'"].map(String::from));
    let many = format!("{{{}, 'pad': '{}'}}", members.join(", "), "x".repeat(ESCAPED_FROM));
    assert!(places(&many).contains(&quote(b'\'')));
}

#[test]
fn raw_control_characters_beside_escapes_in_a_long_text_are_read_again_from_it() {
    use Place::{Escaped, Kept, Verbatim};
    // A model writing code into a string breaks its lines as they are: the characters
    // need repair in JSON, but the text holds them as they read, beside an escape or not.
    let input =
        "{'code': 'fn main() {\n\tprintln!(\"it\\'s\");\n}', \"b\": \"a\u{1}\\\"b\\n\r\", 'c': 'x\ny'}";
    let long = format!("{}, 'pad': '{}'}}", input.trim_end_matches('}'), "x".repeat(ESCAPED_FROM));
    let quote = |quote: u8| Escaped { quote };
    assert_eq!(
        places(&long),
        [Verbatim, quote(b'\''), Verbatim, quote(b'"'), Verbatim, Verbatim, Verbatim, Verbatim]
    );
    let value = crate::parse::parse(&long, &ParseOptions::default()).unwrap().value;
    assert_eq!(value["code"], "fn main() {\n\tprintln!(\"it's\");\n}");
    assert_eq!(value["b"], "a\u{1}\"b\n\r");
    assert_eq!(value["c"], "x\ny");
    // In a short text a string with escapes is kept; one without is lent as it is.
    assert_eq!(places(input), [Verbatim, Kept, Verbatim, Kept, Verbatim, Verbatim]);
    // Every control character, beside an escape: the tape holds what `parse` reads.
    let members: Vec<String> = (0..0x20u8).map(|b| format!("'k{b}': 'a{}\\'b'", char::from(b))).collect();
    let many = format!("{{{}, 'pad': '{}'}}", members.join(", "), "x".repeat(ESCAPED_FROM));
    assert!(places(&many).contains(&quote(b'\'')));
}

#[test]
fn a_string_lent_from_the_text_points_into_it_where_its_token_starts_elsewhere() {
    use Place::{Kept, Verbatim};
    // A Python prefix starts the token before the quote: the lexer lends the content
    // from where it is, so the tape needs neither the quote nor a copy.
    assert_eq!(places("{u'a': r'b', B\"c\": 'd'}"), [Verbatim; 4]);
    // Smart quotes are read through the lexer's buffer, and kept.
    assert_eq!(places("{\"a\": “b”}"), [Verbatim, Kept]);
}

#[test]
fn a_repeated_key_takes_the_value_path() {
    let options = ParseOptions::default();
    assert!(parse_to_tape(r#"{"a": 1, "a": 2}"#, &options, false).unwrap().is_none());
    let parsed = parse_to_tape("{'a': [1, 2,]}", &options, false).unwrap().unwrap();
    assert_eq!(parsed.tape.to_value(), json!({"a": [1, 2]}));
    assert_eq!(parsed.repairs.len(), 2);
}

#[test]
fn a_float_serde_json_may_misread_is_read_correctly_rounded_onto_the_tape() {
    // serde_json without `float_roundtrip` reads this one unit in the last place low; the
    // strict reader notes that it read a float, and the lexer then reads the text.
    let text = "977765.4534335453";
    let exact: f64 = text.parse().unwrap();
    for input in
        [format!(r#"{{"x": {text}, "y": [{text}]}}"#), format!(r#"{{"n": 1, "s": "{text}", "x": {text}}}"#)]
    {
        for options in modes() {
            agrees(&input, &options);
            let taped = parse_to_tape(&input, &options, false).unwrap().unwrap();
            assert_eq!(taped.tape.to_value()["x"], serde_json::json!(exact), "{input}");
        }
    }
    // No float read, no scan: strict JSON with integers only stays serde_json's reading.
    let integers = r#"{"a": 9007199254740993, "b": [1, 2]}"#;
    agrees(integers, &ParseOptions::default());
}
