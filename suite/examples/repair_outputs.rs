//! Prints [`ParseMode::Repair`]'s reading of a fixed set of inputs, one-shot and streamed
//! (cut in two at every byte, and byte by byte), to compare two builds of the parser: the
//! differential check of a change to repair mode. The output of one build is saved and
//! compared with the other's (`diff`); any line that differs is a changed value, repair
//! record, error or message.
//!
//! ```sh
//! cargo run --release -p tool-input-suite --example repair_outputs > /tmp/before.txt
//! # change the parser
//! cargo run --release -p tool-input-suite --example repair_outputs > /tmp/after.txt
//! diff /tmp/before.txt /tmp/after.txt
//! ```
//!
//! The inputs: every string in the corpora (`suite/tests/corpus`: the repair suites' inputs
//! and outputs, the JSON test suite, the provider responses), the fuzz regressions, the
//! first calls of the mangled and invalid workloads (`target/bench-data`, when written),
//! and mutations of the short ones (a byte dropped, doubled or replaced by punctuation),
//! each under four option sets (jsonrepair's and json_repair's style, cut-off input
//! completed or not, settled or stream-stable completion).
//!
//! With the argument `events`, it prints instead what the incremental parser reports in
//! the strict and lenient modes, fed `str` fragments with [`IncrementalParser::feed_with`]:
//! every event, the partial value after each fragment and the result, for the same inputs
//! cut in two at every character boundary and a character at a time, and the streamed
//! workload (`stream.jsonl`) in its recorded chunks. The differential check of a change to
//! the streaming parser's path.
//!
//! ```sh
//! cargo run --release -p tool-input-suite --example repair_outputs -- events > /tmp/before.txt
//! ```

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::Path;

use serde_json::Value;
use tool_input::parse::{parse, IncrementalParser, ParseMode, ParseOptions, RepairStyle};

/// Inputs up to this many bytes are streamed cut at every byte; longer ones at this many
/// evenly spaced cuts.
const EVERY_CUT: usize = 160;
/// How many mutations of each short input.
const MUTATIONS: usize = 6;
/// How many calls of each workload.
const WORKLOAD_CALLS: usize = 1500;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut inputs = BTreeSet::new();
    collect_corpus(&root.join("suite/tests/corpus"), &mut inputs);
    for dir in ["parse", "stream", "pipeline"] {
        if let Ok(entries) = std::fs::read_dir(root.join("fuzz/regressions").join(dir)) {
            for entry in entries.flatten() {
                if let Ok(bytes) = std::fs::read(entry.path()) {
                    inputs.insert(String::from_utf8_lossy(&bytes).into_owned());
                }
            }
        }
    }
    for workload in ["mangled", "invalid"] {
        let path = root.join("target/bench-data").join(format!("{workload}.jsonl"));
        let Ok(text) = std::fs::read_to_string(path) else { continue };
        for line in text.lines().take(WORKLOAD_CALLS) {
            if let Ok(Value::Object(row)) = serde_json::from_str::<Value>(line) {
                if let Some(Value::String(raw)) = row.get("raw") {
                    inputs.insert(raw.clone());
                }
            }
        }
    }
    let mut rng = 0x9E37_79B9_7F4A_7C15_u64;
    let short: Vec<String> = inputs.iter().filter(|text| text.len() <= EVERY_CUT).cloned().collect();
    for text in &short {
        for _ in 0..MUTATIONS {
            inputs.insert(mutate(text, &mut rng));
        }
    }
    let option_sets = [
        ParseOptions::repair(),
        ParseOptions::repair().with_complete_truncated(true),
        ParseOptions::repair().with_style(RepairStyle::JsonRepair),
        ParseOptions::repair()
            .with_style(RepairStyle::JsonRepair)
            .with_complete_truncated(true)
            .with_stream_stable(false),
    ];
    let mut out = String::new();
    let mut runs = 0usize;
    if std::env::args().nth(1).as_deref() == Some("events") {
        print_events(&root, &inputs);
        return;
    }
    for (k, text) in inputs.iter().enumerate() {
        for (o, options) in option_sets.iter().enumerate() {
            debug_assert_eq!(options.mode, ParseMode::Repair);
            let one_shot = format!("{:?}", parse(text, options));
            let streamed = streamed(text, options, &mut runs);
            let _ = writeln!(out, "{k}/{o} {one_shot} stream:{streamed:016x}");
            runs += 1;
        }
    }
    print!("{out}");
    eprintln!("{} inputs, {} option sets, {runs} parses", inputs.len(), option_sets.len());
}

/// Every string in the JSON files under `dir`.
fn collect_corpus(dir: &Path, inputs: &mut BTreeSet<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_corpus(&path, inputs);
        } else if path.extension().is_some_and(|ext| ext == "json") {
            if let Ok(value) = serde_json::from_slice::<Value>(&std::fs::read(&path).unwrap_or_default()) {
                strings(&value, inputs);
            }
        }
    }
}

fn strings(value: &Value, inputs: &mut BTreeSet<String>) {
    match value {
        Value::String(text) => {
            inputs.insert(text.clone());
        }
        Value::Array(items) => items.iter().for_each(|item| strings(item, inputs)),
        Value::Object(map) => map.values().for_each(|item| strings(item, inputs)),
        _ => {}
    }
}

/// `text` with one byte dropped, doubled or replaced by a piece of JSON punctuation (at a
/// character boundary).
fn mutate(text: &str, rng: &mut u64) -> String {
    const PIECES: [&str; 16] =
        ["{", "}", "[", "]", "(", ")", ",", ":", "\"", "'", "\n", " ", "...", "//", "`", "a"];
    let mut next = || {
        *rng ^= *rng << 13;
        *rng ^= *rng >> 7;
        *rng ^= *rng << 17;
        *rng
    };
    let boundaries: Vec<usize> = (0..=text.len()).filter(|&i| text.is_char_boundary(i)).collect();
    let at = boundaries[(next() as usize) % boundaries.len()];
    let end = boundaries.iter().copied().find(|&i| i > at).unwrap_or(at);
    let piece = PIECES[(next() as usize) % PIECES.len()];
    match next() % 3 {
        0 => format!("{}{}", &text[..at], &text[end..]),
        1 => format!("{}{}{}", &text[..end], &text[at..end], &text[end..]),
        _ => format!("{}{}{}", &text[..at], piece, &text[end..]),
    }
}

/// A hash of the incremental parser's answers: fed `text` cut in two at each cut (every byte
/// up to [`EVERY_CUT`]), and byte by byte.
fn streamed(text: &str, options: &ParseOptions, runs: &mut usize) -> u64 {
    let bytes = text.as_bytes();
    let cuts: Vec<usize> = if bytes.len() <= EVERY_CUT {
        (0..=bytes.len()).collect()
    } else {
        (0..=16).map(|k| bytes.len() * k / 16).collect()
    };
    let mut hasher = DefaultHasher::new();
    for cut in cuts {
        let mut parser = IncrementalParser::new(options.clone());
        let first = parser.feed_bytes(&bytes[..cut]);
        let second = parser.feed_bytes(&bytes[cut..]);
        format!("{first:?} {second:?} {:?}", parser.finish()).hash(&mut hasher);
        *runs += 1;
    }
    if bytes.len() <= 4 * EVERY_CUT {
        let mut parser = IncrementalParser::new(options.clone());
        let fed: Vec<String> = bytes.chunks(1).map(|byte| format!("{:?}", parser.feed_bytes(byte))).collect();
        format!("{fed:?} {:?}", parser.finish()).hash(&mut hasher);
        *runs += 1;
    }
    hasher.finish()
}

/// The `events` mode (see the module documentation).
fn print_events(root: &Path, inputs: &BTreeSet<String>) {
    let option_sets = [
        ParseOptions::default().with_mode(ParseMode::Strict),
        ParseOptions::default(),
        ParseOptions::default().with_complete_truncated(true),
    ];
    let mut out = String::new();
    let mut runs = 0usize;
    for (k, text) in inputs.iter().enumerate() {
        let boundaries: Vec<usize> = (0..=text.len()).filter(|&i| text.is_char_boundary(i)).collect();
        let cuts: Vec<usize> = if text.len() <= EVERY_CUT {
            boundaries.clone()
        } else {
            (0..=16).filter_map(|n| boundaries.get(boundaries.len() * n / 17).copied()).collect()
        };
        for (o, options) in option_sets.iter().enumerate() {
            let mut hasher = DefaultHasher::new();
            for &cut in &cuts {
                fed_events(text, &[cut], options).hash(&mut hasher);
                runs += 1;
            }
            if text.len() <= 4 * EVERY_CUT {
                fed_events(text, &boundaries, options).hash(&mut hasher);
                runs += 1;
            }
            let _ = writeln!(out, "{k}/{o} events:{:016x}", hasher.finish());
        }
    }
    let streamed = std::fs::read_to_string(root.join("target/bench-data/stream.jsonl")).unwrap_or_default();
    for (k, line) in streamed.lines().enumerate() {
        let Ok(row) = serde_json::from_str::<Value>(line) else { continue };
        let (Some(text), Some(chunks)) = (row["raw"].as_str(), row["chunks"].as_array()) else { continue };
        let mut cuts = Vec::new();
        let mut at = 0;
        for size in chunks.iter().filter_map(Value::as_u64) {
            at += size as usize;
            cuts.push(at);
        }
        for (o, options) in option_sets.iter().enumerate() {
            let mut hasher = DefaultHasher::new();
            fed_events(text, &cuts, options).hash(&mut hasher);
            runs += 1;
            let _ = writeln!(out, "stream {k}/{o} events:{:016x}", hasher.finish());
        }
    }
    print!("{out}");
    eprintln!(
        "{} inputs and the streamed workload, {} option sets, {runs} runs",
        inputs.len(),
        option_sets.len()
    );
}

/// Every event, the partial value after each fragment and the result of `text` fed in the
/// pieces between `cuts` (character boundaries), as text.
fn fed_events(text: &str, cuts: &[usize], options: &ParseOptions) -> String {
    let mut parser = IncrementalParser::new(options.clone());
    let mut seen = String::new();
    let mut from = 0;
    for &cut in cuts.iter().chain(std::iter::once(&text.len())) {
        let cut = cut.clamp(from, text.len());
        let fed = parser.feed_with(text.get(from..cut).unwrap_or_default(), |event| {
            let _ = write!(seen, "{event:?};");
        });
        let _ = writeln!(seen, "| {fed:?} {}", parser.partial());
        from = cut;
    }
    let _ = write!(seen, "{:?}", parser.finish());
    seen
}
