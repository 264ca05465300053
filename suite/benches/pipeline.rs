//! The pipeline against what users pick today, on the benchmark workloads (suite/tests/common/workloads.rs,
//! generated into `target/bench-data` when missing), each ratio measured in one run:
//!
//! - clean calls: `serde_json::from_str::<T>` (the floor, no validation), `Value` +
//!   `jsonschema` + `from_value`, and `T::from_arguments`;
//! - mangled calls: `jsonrepair-rs` + `jsonschema` + `from_value` against `T::from_arguments`;
//! - invalid calls: rejecting with every error, against accepting the clean calls;
//! - large calls (1 MB): typed serde_json against `T::from_arguments`, and a malformed copy of
//!   them (unquoted keys, single quotes, trailing commas) through `jsonrepair-rs` and us.
//!
//! `cargo bench -p tool-input-suite --bench pipeline`. Each iteration runs a fixed slice of a workload; criterion
//! reports time per iteration, so ratios between contenders of one group are per-call ratios.

use std::hint::black_box;

#[path = "../tests/common/mod.rs"]
mod common;
mod support;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use serde_json::Value;
use support::{bytes, jsonrepair_jsonschema, raws, schema, value_jsonschema, CreateOrder};
use tool_input::ToolInput;

/// Calls per iteration for the small workloads.
const SLICE: usize = 2_000;

fn clean(c: &mut Criterion) {
    let raws = raws("clean.jsonl", SLICE);
    let validator = jsonschema::validator_for(&schema()).expect("schema compiles");
    let mut group = c.benchmark_group("clean");
    group.throughput(Throughput::Bytes(bytes(&raws)));
    group.bench_function("serde_json_typed", |b| {
        b.iter(|| raws.iter().filter(|r| serde_json::from_str::<CreateOrder>(r).is_ok()).count())
    });
    group.bench_function("value_jsonschema_from_value", |b| {
        b.iter(|| raws.iter().filter(|r| value_jsonschema(&validator, r).is_some()).count())
    });
    group.bench_function("tool_input", |b| {
        b.iter(|| raws.iter().filter(|r| CreateOrder::from_arguments(r.as_str()).is_ok()).count())
    });
    group.finish();
}

/// How many mangled calls each contender turns into exactly the canonical value: the
/// repaired JSON that passes the schema, against `mangled.expected.jsonl`.
fn exact_counts() {
    let text = std::fs::read_to_string(common::bench_data_dir().join("mangled.expected.jsonl"))
        .expect("expected values");
    let expected: Vec<Value> =
        text.lines().map(|l| serde_json::from_str::<Value>(l).expect("a case")["value"].clone()).collect();
    let raws = raws("mangled.jsonl", usize::MAX);
    let theirs = jsonschema::validator_for(&schema()).expect("schema compiles");
    let ours = tool_input::Validator::new(&schema()).expect("schema compiles");
    let (mut their_exact, mut our_exact) = (0, 0);
    for (raw, expected) in raws.iter().zip(&expected) {
        let repaired =
            jsonrepair_rs::jsonrepair(raw).ok().and_then(|s| serde_json::from_str::<Value>(&s).ok());
        if repaired.is_some_and(|v| theirs.is_valid(&v) && &v == expected) {
            their_exact += 1;
        }
        if ours.check(raw.as_str()).is_ok_and(|checked| &checked.value == expected) {
            our_exact += 1;
        }
    }
    eprintln!("mangled, exact results: jsonrepair-rs + jsonschema {their_exact} / {n}, tool-input {our_exact} / {n}", n = raws.len());
}

fn mangled(c: &mut Criterion) {
    exact_counts();
    let raws = raws("mangled.jsonl", SLICE);
    let validator = jsonschema::validator_for(&schema()).expect("schema compiles");
    let mut group = c.benchmark_group("mangled");
    group.throughput(Throughput::Bytes(bytes(&raws)));
    group.bench_function("jsonrepair_rs_jsonschema", |b| {
        b.iter(|| raws.iter().filter(|r| jsonrepair_jsonschema(&validator, r).is_some()).count())
    });
    group.bench_function("tool_input", |b| {
        b.iter(|| raws.iter().filter(|r| CreateOrder::from_arguments(r.as_str()).is_ok()).count())
    });
    group.finish();
}

/// Where the time of a mangled call goes: the parser alone, parse and walk into checked
/// JSON, the full typed path, and the typed path with its one-pass attempt first.
fn mangled_breakdown(c: &mut Criterion) {
    let raws = raws("mangled.jsonl", SLICE);
    let validator = tool_input::Validator::new(&schema()).expect("schema compiles");
    let options = tool_input::CheckOptions::default();
    let lenient = tool_input::parse::ParseOptions::default();
    let mut group = c.benchmark_group("mangled_breakdown");
    group.throughput(Throughput::Bytes(bytes(&raws)));
    group.bench_function("parse", |b| {
        b.iter(|| raws.iter().filter(|r| tool_input::parse::parse(r, &lenient).is_ok()).count())
    });
    group.bench_function("validator_check", |b| {
        b.iter(|| raws.iter().filter(|r| validator.check(r.as_str()).is_ok()).count())
    });
    group.bench_function("typed_full", |b| {
        b.iter(|| {
            raws.iter()
                .filter(|r| {
                    tool_input::__private::from_arguments_full::<CreateOrder>(r.as_str().into(), &options)
                        .is_ok()
                })
                .count()
        })
    });
    group.bench_function("typed", |b| {
        b.iter(|| raws.iter().filter(|r| CreateOrder::from_arguments(r.as_str()).is_ok()).count())
    });
    group.finish();
}

/// The typed path's second step in parts: the lenient parse onto a tape, and the tape read
/// into `T` alone (over prepared tapes); and a mangled call rejected against one accepted
/// (the same calls as `invalid_vs_clean`, in a code fence, so the lenient parser reads them).
fn mangled_tape(c: &mut Criterion) {
    let mangled = raws("mangled.jsonl", SLICE);
    let tapes: Vec<_> =
        mangled.iter().filter_map(|r| tool_input::__private::prepare_tape::<CreateOrder>(r)).collect();
    let mut group = c.benchmark_group("mangled_tape");
    group.throughput(Throughput::Bytes(bytes(&mangled)));
    group.bench_function("parse_to_tape", |b| {
        b.iter(|| {
            mangled.iter().filter_map(|r| tool_input::__private::prepare_tape::<CreateOrder>(r)).count()
        })
    });
    group.bench_function("read_prepared_tape", |b| {
        b.iter(|| tapes.iter().filter_map(tool_input::__private::read_prepared_tape::<CreateOrder>).count())
    });
    let fenced = |file: &str| -> Vec<String> {
        raws(file, SLICE).iter().map(|r| format!("```json\n{r}\n```")).collect()
    };
    let (invalid, clean) = (fenced("invalid.jsonl"), fenced("clean.jsonl"));
    group.throughput(Throughput::Bytes(bytes(&invalid)));
    group.bench_function("fenced_reject_invalid", |b| {
        b.iter(|| invalid.iter().filter(|r| CreateOrder::from_arguments(r.as_str()).is_err()).count())
    });
    group.throughput(Throughput::Bytes(bytes(&clean)));
    group.bench_function("fenced_accept_clean", |b| {
        b.iter(|| clean.iter().filter(|r| CreateOrder::from_arguments(r.as_str()).is_ok()).count())
    });
    group.finish();
}

fn invalid(c: &mut Criterion) {
    let invalid = raws("invalid.jsonl", SLICE);
    let clean = raws("clean.jsonl", SLICE);
    let mut group = c.benchmark_group("invalid_vs_clean");
    // Per byte, since the two workloads differ a little in size.
    group.throughput(Throughput::Bytes(bytes(&invalid)));
    group.bench_function("reject_invalid", |b| {
        b.iter(|| invalid.iter().filter(|r| CreateOrder::from_arguments(r.as_str()).is_err()).count())
    });
    group.throughput(Throughput::Bytes(bytes(&clean)));
    group.bench_function("accept_clean", |b| {
        b.iter(|| clean.iter().filter(|r| CreateOrder::from_arguments(r.as_str()).is_ok()).count())
    });
    group.finish();
}

/// A large call written the way a careless model writes it: keys unquoted, strings in single
/// quotes, a trailing comma after every container's last element.
fn malformed(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            out.push('{');
            for (key, child) in map {
                out.push_str(key);
                out.push_str(": ");
                malformed(child, out);
                out.push_str(", ");
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for item in items {
                malformed(item, out);
                out.push_str(", ");
            }
            out.push(']');
        }
        Value::String(text) => {
            out.push('\'');
            for c in text.chars() {
                match c {
                    '\'' => out.push_str("\\'"),
                    '\\' => out.push_str("\\\\"),
                    '\n' => out.push_str("\\n"),
                    c if c < ' ' => out.push_str(&format!("\\u{:04x}", c as u32)),
                    c => out.push(c),
                }
            }
            out.push('\'');
        }
        other => out.push_str(&other.to_string()),
    }
}

fn large(c: &mut Criterion) {
    let raws = raws("large.jsonl", 4);
    let mut group = c.benchmark_group("large");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(bytes(&raws)));
    group.bench_function("serde_json_typed", |b| {
        b.iter(|| raws.iter().filter(|r| serde_json::from_str::<CreateOrder>(r).is_ok()).count())
    });
    group.bench_function("tool_input", |b| {
        b.iter(|| raws.iter().filter(|r| CreateOrder::from_arguments(r.as_str()).is_ok()).count())
    });
    group.finish();

    let broken: Vec<String> = raws
        .iter()
        .map(|r| {
            let mut out = String::new();
            malformed(&serde_json::from_str(r).expect("large JSON"), &mut out);
            out
        })
        .collect();
    let repaired = broken
        .iter()
        .filter_map(|r| jsonrepair_rs::jsonrepair(r).ok())
        .filter(|s| serde_json::from_str::<Value>(s).is_ok())
        .count();
    let ours = broken.iter().filter(|r| CreateOrder::from_arguments(r.as_str()).is_ok()).count();
    eprintln!(
        "large malformed, parsed: jsonrepair-rs {repaired} / {n}, tool-input {ours} / {n}",
        n = broken.len()
    );
    let mut group = c.benchmark_group("large_malformed");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(bytes(&broken)));
    group.bench_function("jsonrepair_rs_value", |b| {
        b.iter(|| {
            broken
                .iter()
                .filter_map(|r| jsonrepair_rs::jsonrepair(r).ok())
                .filter(|s| serde_json::from_str::<Value>(s).is_ok())
                .count()
        })
    });
    group.bench_function("tool_input", |b| {
        b.iter(|| broken.iter().filter(|r| CreateOrder::from_arguments(r.as_str()).is_ok()).count())
    });
    group.finish();
    black_box(());
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).warm_up_time(std::time::Duration::from_secs(1)).measurement_time(std::time::Duration::from_secs(4));
    targets = clean, mangled, mangled_breakdown, mangled_tape, invalid, large
}
criterion_main!(benches);
