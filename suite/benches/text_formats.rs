//! Text calls stay linear in every format: each format's fixtures
//! (tool-input/tests/data/text_formats.json) repeated to a size and to eight times it, whole
//! (every call read) and cut in the middle (every block opened and never closed, the shape
//! that makes a careless reader rescan to the end for each marker), and streamed: fed in
//! chunks of 16 bytes through a `StreamAssembler`, with `open_calls()` (each open call's
//! name and partial arguments) taken after every chunk. Throughput (bytes per second) that
//! stays flat from 1x to 8x is linear time.
//!
//! `cargo bench -p tool-input-suite --bench text_formats`

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use text_fixtures::{chunks, fixtures, repeated, stream};
use tool_input::calls::{parse_text, CallOptions};

mod text_fixtures;

/// Base size in bytes (about); each case runs at 1 and 8 times this.
const BASE: usize = 16 * 1024;

fn text_formats(c: &mut Criterion) {
    let (tools, by_format) = fixtures();
    for (format, unit) in &by_format {
        let named: tool_input::calls::TextFormat = format.parse().expect("a known format");
        let mut cut = unit.len() / 2;
        while !unit.is_char_boundary(cut) {
            cut -= 1;
        }
        for (kind, unit) in [("whole", unit.as_str()), ("cut", &unit[..cut]), ("streamed", unit.as_str())] {
            let mut group = c.benchmark_group(format!("text_formats/{format}/{kind}"));
            group.sample_size(10);
            group.warm_up_time(std::time::Duration::from_millis(300));
            group.measurement_time(std::time::Duration::from_secs(1));
            for factor in [1, 8] {
                let text = repeated(unit, BASE * factor);
                let options = CallOptions::new()
                    .known_tools(tools.clone())
                    .text_format(named)
                    .max_calls(usize::MAX)
                    .max_body_bytes(usize::MAX);
                group.throughput(Throughput::Bytes(text.len() as u64));
                if kind == "streamed" {
                    // The text after a lone `</think>`, so the calls show as they are written
                    // in every format.
                    let text = format!("</think>{text}");
                    let pieces = chunks(&text, 16);
                    group.bench_with_input(BenchmarkId::from_parameter(factor), &pieces, |b, pieces| {
                        b.iter(|| black_box(stream(pieces, &options)))
                    });
                    continue;
                }
                group.bench_with_input(BenchmarkId::from_parameter(factor), &text, |b, text| {
                    b.iter(|| black_box(parse_text(text, &options).calls.len()))
                });
            }
            group.finish();
        }
    }
}

criterion_group!(benches, text_formats);
criterion_main!(benches);
