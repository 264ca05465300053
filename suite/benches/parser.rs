//! The parser against the Rust JSON repair crates and `serde_json`, on the benchmark
//! workloads (suite/tests/common/workloads.rs, generated into `target/bench-data`):
//!
//! - `mangled.jsonl`: 20,000 tool-call arguments of 200-560 bytes with one to three
//!   mistakes each (about 30% are still valid JSON);
//! - `large.jsonl`: 20 valid payloads of about 1 MB.
//!
//! Every contender turns each input into a `serde_json::Value`, which is what a caller gets:
//! for a repair crate that is its repair into a `String` followed by `serde_json` parsing
//! it (the string-only repair is measured too). `cargo bench -p tool-input-suite --bench parser`.

use std::time::Duration;

#[path = "../tests/common/mod.rs"]
mod common;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use serde_json::Value;
use tool_input::parse::{parse, ParseOptions};

/// The `raw` field of every line of a workload.
fn workload(name: &str) -> Vec<String> {
    common::read_jsonl(&common::bench_data_dir().join(name))
        .iter()
        .map(|row| row["raw"].as_str().expect("a raw field").to_owned())
        .collect()
}

/// Parse every input with `f`; how many gave a value (kept, so nothing is optimised away).
fn each(inputs: &[String], f: impl Fn(&str) -> Option<Value>) -> usize {
    inputs.iter().filter_map(|input| f(input)).count()
}

fn contenders(c: &mut Criterion, group_name: &str, inputs: &[String], repair_crates: bool) {
    let bytes: usize = inputs.iter().map(String::len).sum();
    let mut group = c.benchmark_group(group_name);
    group.throughput(Throughput::Bytes(bytes as u64));
    let repair = ParseOptions::repair();
    let lenient = ParseOptions::default();
    group.bench_function(BenchmarkId::from_parameter("tool-input repair"), |b| {
        b.iter(|| each(inputs, |s| parse(s, &repair).ok().map(|p| p.value)))
    });
    group.bench_function(BenchmarkId::from_parameter("tool-input lenient"), |b| {
        b.iter(|| each(inputs, |s| parse(s, &lenient).ok().map(|p| p.value)))
    });
    group.bench_function(BenchmarkId::from_parameter("serde_json"), |b| {
        b.iter(|| each(inputs, |s| serde_json::from_str::<Value>(s).ok()))
    });
    if repair_crates {
        group.bench_function(BenchmarkId::from_parameter("jsonrepair-rs + serde_json"), |b| {
            b.iter(|| {
                each(inputs, |s| {
                    jsonrepair_rs::jsonrepair(s).ok().and_then(|r| serde_json::from_str(&r).ok())
                })
            })
        });
        group.bench_function(BenchmarkId::from_parameter("jsonrepair-rs (string only)"), |b| {
            b.iter(|| inputs.iter().filter(|s| jsonrepair_rs::jsonrepair(s).is_ok()).count())
        });
        let options = llm_json::RepairOptions::default();
        group.bench_function(BenchmarkId::from_parameter("llm_json loads"), |b| {
            b.iter(|| each(inputs, |s| llm_json::loads(s, &options).ok()))
        });
        group.bench_function(BenchmarkId::from_parameter("llm_json (string only)"), |b| {
            b.iter(|| inputs.iter().filter(|s| llm_json::repair_json(s, &options).is_ok()).count())
        });
    }
    group.finish();
}

fn mangled(c: &mut Criterion) {
    contenders(c, "mangled", &workload("mangled.jsonl"), true);
}

fn large(c: &mut Criterion) {
    contenders(c, "large", &workload("large.jsonl"), true);
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3));
    targets = mangled, large
}
criterion_main!(benches);
