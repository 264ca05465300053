//! Every input the fuzzers ever found a problem with, saved in `fuzz/regressions/<target>/`,
//! run through the same checks as the fuzz targets (`fuzz/src/checks.rs`). CI runs these,
//! not the fuzzers.

#[path = "../../fuzz/src/checks.rs"]
mod checks;

use std::path::Path;

fn run(target: &str, check: fn(&[u8])) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/regressions").join(target);
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        if path.file_name().is_some_and(|n| n == ".gitkeep") {
            continue;
        }
        let data = std::fs::read(&path).unwrap();
        let outcome = std::panic::catch_unwind(|| check(&data));
        assert!(outcome.is_ok(), "{} fails again", path.display());
        count += 1;
    }
    count
}

#[test]
fn parse_regressions() {
    run("parse", checks::parse);
}

#[test]
fn pipeline_regressions() {
    run("pipeline", checks::pipeline);
}

#[test]
fn text_calls_regressions() {
    run("text_calls", checks::text_calls);
}

#[test]
fn stream_regressions() {
    run("stream", checks::stream);
}

#[test]
fn schema_regressions() {
    run("schema", checks::schema);
}
