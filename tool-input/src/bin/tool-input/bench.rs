//! `tool-input bench`: time the whole pipeline on a JSONL workload, in the format the peer
//! runners of other languages print, for side-by-side runs.

use std::fs;
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use serde_json::{json, Value};
use tool_input::{RawArguments, Validator};

/// Passes measured after the warm-up; the median is reported.
const PASSES: usize = 5;

fn raw(case: &Value) -> RawArguments<'_> {
    match case {
        Value::String(text) => RawArguments::Text(text.as_str()),
        Value::Null => RawArguments::Absent,
        other => RawArguments::Value(other),
    }
}

/// `tool-input bench`.
pub(crate) fn run(schema_path: &Path, workload: &Path) -> Result<ExitCode, String> {
    let schema_text =
        fs::read_to_string(schema_path).map_err(|e| format!("cannot read {}: {e}", schema_path.display()))?;
    let schema: Value = serde_json::from_str(&schema_text)
        .map_err(|e| format!("{} is not JSON: {e}", schema_path.display()))?;
    let validator = Validator::new(&schema).map_err(|e| e.to_string())?;
    let text =
        fs::read_to_string(workload).map_err(|e| format!("cannot read {}: {e}", workload.display()))?;
    // Cases are read before timing: only the pipeline is measured, as the peer runners do.
    let mut cases = Vec::new();
    for (number, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let case: Value = serde_json::from_str(line)
            .map_err(|e| format!("{} line {}: not a JSON case: {e}", workload.display(), number + 1))?;
        cases.push(case.get("raw").cloned().unwrap_or(Value::Null));
    }

    let (mut ok, mut rejected) = (0, 0);
    for case in &cases {
        match validator.check(raw(case)) {
            Ok(_) => ok += 1,
            Err(_) => rejected += 1,
        }
    }
    let mut timings = Vec::with_capacity(PASSES);
    for _ in 0..PASSES {
        let start = Instant::now();
        for case in &cases {
            // Results are dropped inside the timing, as a caller would.
            std::hint::black_box(validator.check(raw(case)).is_ok());
        }
        timings.push(start.elapsed().as_nanos() as f64 / cases.len().max(1) as f64);
    }
    timings.sort_by(f64::total_cmp);
    let name = workload.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    // Written by hand to keep the peer runners' key order.
    println!(
        "{{\"workload\": {}, \"cases\": {}, \"ok\": {ok}, \"rejected\": {rejected}, \"ns_per_case\": {}}}",
        json!(name),
        cases.len(),
        timings[PASSES / 2].round()
    );
    Ok(ExitCode::SUCCESS)
}
