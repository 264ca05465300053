//! Prints what the checks make of a fixed set of calls (the typed path and the untyped
//! `Validator::check`, under two schemas): every value, report and rejection in full (errors
//! in their order, with paths, codes, messages, echoes, options and suggestions), to compare
//! two builds of the explaining code. The output of one build is saved and compared with the
//! other's (`diff`); any line that differs is a changed value, record, error or message.
//!
//! ```sh
//! cargo run --release -p tool-input-suite --example rejection_outputs > /tmp/before.txt
//! # change the walk, the messages or the order of errors
//! cargo run --release -p tool-input-suite --example rejection_outputs > /tmp/after.txt
//! diff /tmp/before.txt /tmp/after.txt
//! ```
//!
//! The calls: every call of the clean, mangled and invalid workloads (`target/bench-data`,
//! written by `cargo run -p tool-input-suite --bin workloads`) and the fuzz regressions of
//! whole calls, each also with its first key given twice and with a trailing comma (text
//! that is no longer strict JSON, whose errors are ordered from the lenient parser's member
//! events). Schemas: the derived `CreateOrder`'s (fields of struct type as `$ref`s) and the
//! workloads' own (written out inline).

#[path = "../tests/common/mod.rs"]
mod common;
#[path = "../benches/support/mod.rs"]
mod support;

use std::path::Path;

use serde_json::Value;
use support::CreateOrder;
use tool_input::{ToolInput, Validator};

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut calls: Vec<String> = Vec::new();
    for workload in ["clean", "mangled", "invalid"] {
        let path = root.join("target/bench-data").join(format!("{workload}.jsonl"));
        let Ok(text) = std::fs::read_to_string(&path) else {
            eprintln!("{}: not written; run the workloads generator", path.display());
            continue;
        };
        for line in text.lines() {
            if let Ok(Value::Object(row)) = serde_json::from_str::<Value>(line) {
                if let Some(Value::String(raw)) = row.get("raw") {
                    calls.push(raw.clone());
                }
            }
        }
    }
    for dir in ["pipeline", "text_calls"] {
        if let Ok(entries) = std::fs::read_dir(root.join("fuzz/regressions").join(dir)) {
            let mut paths: Vec<_> = entries.flatten().map(|entry| entry.path()).collect();
            paths.sort();
            for path in paths {
                if let Ok(bytes) = std::fs::read(&path) {
                    calls.push(String::from_utf8_lossy(&bytes).into_owned());
                }
            }
        }
    }
    let derived = serde_json::to_value(schemars::schema_for!(CreateOrder)).expect("a schema");
    let inline: Value = serde_json::from_str(common::workloads::SCHEMA).expect("the workloads' schema");
    let validators = [
        Validator::new(&derived).expect("schema compiles"),
        Validator::new(&inline).expect("schema compiles"),
    ];
    // The definition is built once, before the calls.
    let _ = CreateOrder::from_arguments("{}");
    for call in &calls {
        for text in variants(call) {
            println!("== {text:?}");
            match CreateOrder::from_arguments_with_report(text.as_str()) {
                Ok(checked) => println!("typed ok {:?} {:?}", checked.value, checked.report),
                Err(rejection) => println!("typed err {rejection:?}"),
            }
            for (index, validator) in validators.iter().enumerate() {
                match validator.check(text.as_str()) {
                    Ok(checked) => println!("untyped {index} ok {} {:?}", checked.value, checked.report),
                    Err(rejection) => println!("untyped {index} err {rejection:?}"),
                }
            }
        }
    }
}

/// The call as sent, with its first key given twice (the same value), and with a trailing
/// comma before its last closing brace.
fn variants(call: &str) -> Vec<String> {
    let mut all = vec![call.to_owned()];
    if let (Some(open), Some(close)) = (call.find('{'), call.rfind('}')) {
        if let Some(colon) = call[open..].find(':').map(|at| open + at) {
            let comma = call[colon..close].find(',').map(|at| colon + at);
            if let Some(comma) = comma {
                // `{"a": 1, ...}` becomes `{"a": 1, "a": 1, ...}` when the first member is a
                // short scalar.
                let first = &call[open + 1..comma];
                if !first.contains(['{', '[']) {
                    all.push(format!("{},{}{}", &call[..comma], first, &call[comma..]));
                }
            }
        }
        all.push(format!("{},{}", call[..close].trim_end(), &call[close..]));
    }
    all
}
