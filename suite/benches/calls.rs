//! Streamed tool calls from the first chunk to the handler: the stream assembler reading a
//! Chat Completions stream, and a Toolbox running a typed handler on every call, against the
//! one-shot typed path on the same argument texts.
//!
//! - `streamed clean calls`: the first 500 calls of `clean.jsonl` (suite/tests/common/workloads.rs,
//!   generated into `target/bench-data`), each streamed as Chat Completions deltas of 16 bytes
//!   of arguments;
//! - `streamed mangled calls`: the same for `mangled.jsonl` (prose, fences, single quotes,
//!   Python literals, numbers as strings);
//! - `streamed 100 KB calls`: the first 5 payloads of `stream.jsonl`, in their recorded chunks
//!   of 1 to 16 bytes.
//!
//! Contenders, per group: `from_arguments` (the typed path on each whole text, the floor of a
//! call that did not stream), `assemble` (`StreamAssembler::push_event` for every delta, then
//! `finish`), and `assemble and run` (the same, then `Toolbox::run_all` with a typed handler).
//! `assemble and run` over `from_arguments` is what streaming a call costs on the way to its
//! handler.
//!
//! `cargo bench -p tool-input-suite --bench calls`.

use std::hint::black_box;
use std::time::Duration;

#[path = "../tests/common/mod.rs"]
mod common;
mod support;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use serde_json::{json, Value};
use support::CreateOrder;
use tool_input::calls::{CallOptions, Format};
use tool_input::stream::StreamAssembler;
use tool_input::{Conversation, ToolInput, Toolbox};

/// A call's argument text and the sizes of the chunks it streams in.
struct Streamed {
    text: String,
    chunks: Vec<usize>,
}

fn rows(file: &str, limit: usize, chunk: usize) -> Vec<Streamed> {
    let text = std::fs::read_to_string(common::bench_data_dir().join(file)).expect("workload");
    text.lines()
        .take(limit)
        .map(|line| {
            let row: Value = serde_json::from_str(line).expect("a row");
            let text = row["raw"].as_str().expect("raw text").to_owned();
            let chunks = match row["chunks"].as_array() {
                Some(sizes) => sizes.iter().map(|size| size.as_u64().expect("a size") as usize).collect(),
                None => fixed_chunks(&text, chunk),
            };
            Streamed { text, chunks }
        })
        .collect()
}

/// Chunks of about `size` bytes, cut on character boundaries.
fn fixed_chunks(text: &str, size: usize) -> Vec<usize> {
    let mut chunks = Vec::new();
    let mut at = 0;
    while at < text.len() {
        let mut end = (at + size).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        chunks.push(end - at);
        at = end;
    }
    chunks
}

/// The Chat Completions stream of one response carrying every call in turn.
fn events(calls: &[Streamed]) -> Vec<Value> {
    let mut events = Vec::new();
    for (index, call) in calls.iter().enumerate() {
        events.push(json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": index,
            "id": format!("call_{index}"), "type": "function",
            "function": {"name": "create_order", "arguments": ""}}]}}]}));
        let mut at = 0;
        for &size in &call.chunks {
            let piece = &call.text[at..at + size];
            at += size;
            events.push(json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": index,
                "function": {"arguments": piece}}]}}]}));
        }
    }
    events.push(json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}));
    events
}

fn toolbox() -> Toolbox {
    Toolbox::new().with_tool(|order: CreateOrder| Ok::<_, String>(order.items.len()))
}

fn assemble(events: &[Value], options: &CallOptions) -> tool_input::calls::Calls {
    let mut stream = StreamAssembler::new(options.clone());
    for event in events {
        stream.push_event(event);
    }
    stream.finish()
}

fn group(c: &mut Criterion, name: &str, calls: &[Streamed]) {
    let events = events(calls);
    let toolbox = toolbox();
    let options = toolbox.call_options().format(Format::OpenAi).max_calls(calls.len());
    let bytes: usize = calls.iter().map(|call| call.text.len()).sum();
    let assembled = assemble(&events, &options);
    assert_eq!(assembled.calls.len() + assembled.errors.len(), calls.len(), "every call is read");
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Bytes(bytes as u64));
    group.bench_function("from_arguments", |b| {
        b.iter(|| calls.iter().filter(|call| CreateOrder::from_arguments(call.text.as_str()).is_ok()).count())
    });
    group.bench_function("assemble", |b| b.iter(|| assemble(black_box(&events), &options)));
    group.bench_function("assemble and run", |b| {
        b.iter(|| {
            let calls = assemble(black_box(&events), &options);
            let mut conversation = Conversation::new();
            toolbox.run_all(&mut conversation, &calls).iter().filter(|outcome| outcome.is_success()).count()
        })
    });
    group.finish();
}

fn streamed_clean(c: &mut Criterion) {
    group(c, "streamed clean calls", &rows("clean.jsonl", 500, 16));
}

fn streamed_mangled(c: &mut Criterion) {
    group(c, "streamed mangled calls", &rows("mangled.jsonl", 500, 16));
}

fn streamed_large(c: &mut Criterion) {
    group(c, "streamed 100 KB calls", &rows("stream.jsonl", 5, 16));
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3));
    targets = streamed_clean, streamed_mangled, streamed_large
}
criterion_main!(benches);
