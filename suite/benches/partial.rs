//! The typed partial's cost per chunk as a call grows: a 100 KB call (a file of numbered
//! lines, each a struct with a string, a number and a list), fed in chunks of 16 bytes, the
//! partial asked for after every chunk. Each sample feeds the 64 chunks (1 KB) that follow
//! the first 10, 50 or 90 KB (the reader fed that far in the untimed setup): with the partial
//! kept up to date from the parser's events, the time per chunk is the same at 10 KB and at
//! 90 KB. The untyped partial value (`IncrementalParser::partial`, a copy of everything read)
//! asked after every chunk is shown beside it: its cost per chunk grows with the call.
//!
//! `cargo bench -p tool-input-suite --bench partial`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion, Throughput};
use tool_input::parse::{IncrementalParser, ParseOptions};
use tool_input::partial::PartialReader;

mod partial_call;

use partial_call::{write_lines, WriteLines};

const CHUNK: usize = 16;
const CHUNKS_PER_SAMPLE: usize = 64;

/// A call of at least `bytes` bytes of arguments, cut into chunks of 16 bytes (at character
/// boundaries: the text is ASCII).
fn call(bytes: usize) -> Vec<String> {
    let text = write_lines(bytes);
    text.as_bytes().chunks(CHUNK).map(|chunk| String::from_utf8(chunk.to_vec()).unwrap()).collect()
}

fn cost_per_chunk(c: &mut Criterion) {
    let chunks = call(100 * 1024);
    let mut group = c.benchmark_group("partial per chunk, 100 KB call");
    group.throughput(Throughput::Elements(CHUNKS_PER_SAMPLE as u64));
    for kilobytes in [10, 50, 90] {
        let start = kilobytes * 1024 / CHUNK;
        let sample = &chunks[start..start + CHUNKS_PER_SAMPLE];
        group.bench_with_input(
            BenchmarkId::new("typed partial after every chunk", format!("at {kilobytes} KB")),
            &start,
            |b, &start| {
                b.iter_batched(
                    || {
                        let mut reader = PartialReader::<WriteLines>::new();
                        for chunk in &chunks[..start] {
                            reader.feed(chunk);
                        }
                        reader
                    },
                    |mut reader| {
                        for chunk in sample {
                            reader.feed(chunk);
                            black_box(reader.partial());
                        }
                        reader
                    },
                    BatchSize::PerIteration,
                )
            },
        );
        group.bench_with_input(
            BenchmarkId::new("untyped partial value after every chunk", format!("at {kilobytes} KB")),
            &start,
            |b, &start| {
                b.iter_batched(
                    || {
                        let mut parser = IncrementalParser::new(ParseOptions::default());
                        for chunk in &chunks[..start] {
                            parser.feed(chunk).unwrap();
                        }
                        parser
                    },
                    |mut parser| {
                        for chunk in sample {
                            parser.feed(chunk).unwrap();
                            black_box(parser.partial());
                        }
                        parser
                    },
                    BatchSize::PerIteration,
                )
            },
        );
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3));
    targets = cost_per_chunk
}
criterion_main!(benches);
