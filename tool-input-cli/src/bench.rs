//! `tool-input bench`: time the whole pipeline on a JSONL workload, in the format the peer
//! runners of other languages print, for side-by-side runs.

use std::borrow::Cow;
use std::fs;
use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use serde_json::{json, Value};
use tool_input::{RawArguments, Validator};

use crate::limits::LimitFlags;

/// Passes measured after the warm-up; the median is reported.
const PASSES: usize = 5;

/// A case's arguments as `check --jsonl` reads them: text, or absent.
fn raw(case: &Option<String>) -> RawArguments<'_> {
    case.as_deref().map_or(RawArguments::Absent, RawArguments::Text)
}

/// `tool-input bench`.
pub(crate) fn run(schema_path: &Path, workload: &Path, limits: &LimitFlags) -> Result<ExitCode, String> {
    let schema_text =
        fs::read_to_string(schema_path).map_err(|e| format!("cannot read {}: {e}", schema_path.display()))?;
    // Parsed here for the message that names the file; compiled from the text below.
    serde_json::from_str::<Value>(&schema_text)
        .map_err(|e| format!("{} is not JSON: {e}", schema_path.display()))?;
    let validator = Validator::builder_from_text(&schema_text)
        .and_then(|builder| builder.limits(limits.limits()).build())
        .map_err(|e| e.to_string())?;
    let text =
        fs::read_to_string(workload).map_err(|e| format!("cannot read {}: {e}", workload.display()))?;
    // Cases are read before timing: only the pipeline is measured, as the peer runners do.
    // Read as `check --jsonl` reads them (past a byte order mark, each line a case, its
    // arguments as text), so the two count the same calls accepted.
    let mut cases = Vec::new();
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    for (number, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let not_a_case = |e: serde_json::Error| {
            format!("{} line {}: not a JSON case: {e}", workload.display(), number + 1)
        };
        let case = crate::check::Case::from_line(line).map_err(not_a_case)?;
        cases.push(crate::check::case_arguments(case.raw).map_err(not_a_case)?.map(Cow::into_owned));
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
    // Written by hand to keep the peer runners' key order; the memory keys come after them.
    let memory = match largest_case(&cases) {
        Some(text) => peak_memory(schema_path, limits, &text)
            .map(|peak| {
                // Resident memory grows by pages, and a run's baseline varies by a few of
                // them: the ratio says nothing of a small input.
                let ratio = if text.len() >= MIN_RATIO_INPUT {
                    let above = peak.peak.saturating_sub(peak.baseline) as f64;
                    format!("{:.2}", above / text.len() as f64)
                } else {
                    "null".to_owned()
                };
                format!(
                    ", \"input_bytes\": {}, \"peak_rss_bytes\": {}, \"baseline_rss_bytes\": {}, \"peak_ratio\": {ratio}",
                    text.len(),
                    peak.peak,
                    peak.baseline,
                )
            })
            .unwrap_or_default(),
        None => String::new(),
    };
    // Written, not `println!`ed, which panics on a closed standard output.
    crate::written(writeln!(
        io::stdout().lock(),
        "{{\"workload\": {}, \"cases\": {}, \"ok\": {ok}, \"rejected\": {rejected}, \"ns_per_case\": {}{memory}}}",
        json!(name),
        cases.len(),
        timings[PASSES / 2].round()
    ))?;
    Ok(ExitCode::SUCCESS)
}

/// The text of the workload's largest case, as `tool-input check` would read it.
fn largest_case(cases: &[Option<String>]) -> Option<Vec<u8>> {
    cases.iter().flatten().max_by_key(|text| text.len()).map(|text| text.as_bytes().to_vec())
}

/// Peak resident memory (bytes) of `tool-input check` on one call, and on `{}`.
struct PeakMemory {
    peak: u64,
    baseline: u64,
}

/// The least input whose peak memory ratio is printed (64 KiB).
const MIN_RATIO_INPUT: usize = 64 * 1024;

/// Runs of each measured `check`; the least peak is kept (others on the machine can only
/// add to it).
const MEMORY_RUNS: usize = 3;

/// The peak resident memory of this program's `check` on `text` (piped to it, as a caller
/// would), against its peak on `{}`: what a caller of the command pays for a call of that
/// size, the measure of issue #14's goal ("at most 3x the input"). `None` when it cannot be
/// measured (not Linux, or the program cannot run itself).
fn peak_memory(schema_path: &Path, limits: &LimitFlags, text: &[u8]) -> Option<PeakMemory> {
    let least =
        |input: &[u8]| (0..MEMORY_RUNS).filter_map(|_| check_peak_rss(schema_path, limits, input)).min();
    Some(PeakMemory { baseline: least(b"{}")?, peak: least(text)? })
}

/// The peak resident memory of one `check` run in a new process of this program (the
/// hidden `__check-peak` command: `check`, then its own high-water mark on standard error).
/// The new process measures itself: the peak `wait4` reports for a child starts at its
/// parent's resident size, which here holds the whole workload. The run has `bench`'s limits.
fn check_peak_rss(schema_path: &Path, limits: &LimitFlags, input: &[u8]) -> Option<u64> {
    use std::process::{Command, Stdio};

    let mut child = Command::new(std::env::current_exe().ok()?)
        .arg(crate::CHECK_PEAK)
        .arg("--schema")
        .arg(schema_path)
        .args(limits.args())
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .ok()?;
    let written = child.stdin.take().map(|mut stdin| stdin.write_all(input));
    let output = child.wait_with_output().ok()?;
    match written {
        Some(Ok(())) => {}
        // `check` stops reading one byte past its input limit (a case over it is refused
        // unread): the rest finds the pipe closed, and the run is measured all the same.
        Some(Err(error)) if error.kind() == std::io::ErrorKind::BrokenPipe => {}
        _ => return None,
    }
    String::from_utf8(output.stderr).ok()?.trim().parse().ok()
}
