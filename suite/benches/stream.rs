//! Streaming tool-call arguments: the incremental parser fed 1 to 16 bytes at a time, with
//! its events and without looking at the partial value, with the partial value taken every
//! 1,000 chunks (a display refreshed a few times a second) and (100 KB) after every chunk,
//! against the one-shot parse of the same bytes, and against re-parsing the whole buffer
//! after every chunk (what clients that show partial arguments commonly do: quadratic).
//!
//! The partial value is built when it is asked for (a copy of what was read so far), so a
//! caller that asks after every chunk pays for that copy each time: quadratic in the
//! value's size, like the re-parse, but without reading the text again.
//!
//! - 100 KB: the first payload of `stream.jsonl` (suite/tests/common/workloads.rs, generated
//!   into `target/bench-data`), in its recorded chunks of 1 to 16 bytes;
//! - 1 MB: its first ten payloads as one JSON array, each in its recorded chunks (and the
//!   brackets and commas between them as chunks of one byte).
//!
//! `cargo bench -p tool-input-suite --bench stream`. The re-parse contender runs on 100 KB only,
//! ten times: it already takes seconds per run.

use std::hint::black_box;
use std::time::Duration;

#[path = "../tests/common/mod.rs"]
mod common;
mod support;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode, Throughput};
use serde_json::Value;
use support::{stream_rows as rows, Streamed};
use tool_input::parse::{parse, parse_without_fast_path, IncrementalParser, ParseOptions, StreamEvent};

/// Rows joined into one JSON array, each in its own chunks.
fn joined(rows: Vec<Streamed>) -> Streamed {
    let mut text = String::from("[");
    let mut chunks = vec![1];
    for (k, row) in rows.into_iter().enumerate() {
        if k > 0 {
            text.push(',');
            chunks.push(1);
        }
        text.push_str(&row.text);
        chunks.extend(row.chunks);
    }
    text.push(']');
    chunks.push(1);
    Streamed { text, chunks }
}

/// Feed every chunk and look at the partial value after every `every` chunks (never when
/// `every` is 0); then finish.
fn incremental(pieces: &[&str], options: &ParseOptions, every: usize) -> Value {
    let mut parser = IncrementalParser::new(options.clone());
    for (k, piece) in pieces.iter().enumerate() {
        parser.feed(piece).expect("valid input");
        if every > 0 && k % every == 0 {
            black_box(parser.partial());
        }
    }
    parser.finish().expect("valid input").value
}

/// [`incremental`], with every event received (borrowed, as a file-writing tool would).
fn incremental_with_events(pieces: &[&str], options: &ParseOptions, every: usize) -> (Value, usize) {
    let mut parser = IncrementalParser::new(options.clone());
    let mut grown = 0;
    for (k, piece) in pieces.iter().enumerate() {
        parser
            .feed_with(piece, |event| {
                if let StreamEvent::StringGrew { appended, .. } = &event {
                    grown += appended.len();
                }
                black_box(event);
            })
            .expect("valid input");
        if every > 0 && k % every == 0 {
            black_box(parser.partial());
        }
    }
    (parser.finish().expect("valid input").value, grown)
}

/// Parse the whole buffer again after every chunk, completing what is cut off.
fn reparse(pieces: &[&str]) -> Value {
    let options = ParseOptions::default().with_complete_truncated(true);
    let mut buffer = String::new();
    let mut last = Value::Null;
    for piece in pieces {
        buffer.push_str(piece);
        if let Ok(parsed) = parse(&buffer, &options) {
            last = parsed.value;
        }
        black_box(&last);
    }
    last
}

fn contenders(c: &mut Criterion, name: &str, input: &Streamed, with_reparse: bool) {
    let options = ParseOptions::default();
    let pieces = input.pieces();
    let whole = parse(&input.text, &options).expect("valid input").value;
    assert_eq!(incremental(&pieces, &options, 0), whole, "the incremental parse gives the one-shot value");
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Bytes(input.text.len() as u64));
    group.bench_function(BenchmarkId::from_parameter("one-shot parse"), |b| {
        b.iter(|| parse(black_box(&input.text), &options).map(|parsed| parsed.value))
    });
    // The same tokenizer as the incremental parser, one-shot (`parse` takes valid JSON
    // through `serde_json` instead): what the chunks and the partial value add to it.
    group.bench_function(BenchmarkId::from_parameter("one-shot, own tokenizer"), |b| {
        b.iter(|| {
            parse_without_fast_path(black_box(input.text.as_bytes()), &options).map(|parsed| parsed.value)
        })
    });
    group.bench_function(BenchmarkId::from_parameter("incremental, events"), |b| {
        b.iter(|| incremental_with_events(black_box(&pieces), &options, 0))
    });
    group
        .bench_function(BenchmarkId::from_parameter("incremental, events, partial every 1000 chunks"), |b| {
            b.iter(|| incremental_with_events(black_box(&pieces), &options, 1000))
        });
    group.bench_function(BenchmarkId::from_parameter("incremental, no events, no partial"), |b| {
        b.iter(|| incremental(black_box(&pieces), &options, 0))
    });
    if with_reparse {
        // Quadratic since the partial value is built on request: 100 KB only.
        group.bench_function(BenchmarkId::from_parameter("incremental, partial after every chunk"), |b| {
            b.iter(|| incremental(black_box(&pieces), &options, 1))
        });
        // Quadratic: seconds per run. Ten runs, one per sample.
        group.sampling_mode(SamplingMode::Flat);
        group.sample_size(10);
        group.warm_up_time(Duration::from_millis(100));
        group.bench_function(BenchmarkId::from_parameter("re-parse the buffer after every chunk"), |b| {
            b.iter(|| reparse(black_box(&pieces)))
        });
    }
    group.finish();
}

fn stream_100k(c: &mut Criterion) {
    let input = rows(1).pop().expect("a row");
    contenders(c, "stream 100 KB", &input, true);
}

fn stream_1m(c: &mut Criterion) {
    let input = joined(rows(10));
    contenders(c, "stream 1 MB", &input, false);
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3));
    targets = stream_100k, stream_1m
}
criterion_main!(benches);
