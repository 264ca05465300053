//! Text calls stay linear in every format: each format's fixtures
//! (tool-input/tests/data/text_formats.json) repeated to a size and to eight times it, whole
//! (every call read) and cut in the middle (every block opened and never closed, the shape
//! that makes a careless reader rescan to the end for each marker). Throughput (bytes per
//! second) that stays flat from 1x to 8x is linear time.
//!
//! `cargo bench -p tool-input-suite --bench text_formats`

use std::collections::BTreeMap;
use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use serde_json::Value;
use tool_input::calls::{parse_text, CallOptions, KnownTool};

/// Base size in bytes (about); each case runs at 1 and 8 times this.
const BASE: usize = 16 * 1024;

/// Each format's fixtures, joined by a space.
fn fixtures() -> (Vec<KnownTool>, BTreeMap<String, String>) {
    let raw: Value = serde_json::from_str(include_str!("../../tool-input/tests/data/text_formats.json"))
        .expect("fixtures");
    let tools = raw["tools"]
        .as_object()
        .expect("tools")
        .iter()
        .map(|(name, schema)| KnownTool { name: name.clone(), schema: Some(schema.clone()) })
        .collect();
    let mut by_format: BTreeMap<String, String> = BTreeMap::new();
    for fixture in raw["fixtures"].as_array().expect("fixtures") {
        let format = fixture["format"].as_str().expect("format");
        let format: tool_input::calls::TextFormat = format.parse().expect("a known format");
        let text = fixture["text"].as_str().expect("text");
        // Reasoning would swallow what follows it once repeated: only what is read as calls.
        if text.contains("think") || text.contains("analysis") || text.contains("THINK") {
            continue;
        }
        let entry = by_format.entry(format.as_str().to_owned()).or_default();
        entry.push_str(text);
        entry.push(' ');
    }
    (tools, by_format)
}

fn repeated(unit: &str, bytes: usize) -> String {
    unit.repeat(bytes / unit.len().max(1) + 1)
}

fn text_formats(c: &mut Criterion) {
    let (tools, by_format) = fixtures();
    for (format, unit) in &by_format {
        let named: tool_input::calls::TextFormat = format.parse().expect("a known format");
        let mut cut = unit.len() / 2;
        while !unit.is_char_boundary(cut) {
            cut -= 1;
        }
        for (kind, unit) in [("whole", unit.as_str()), ("cut", &unit[..cut])] {
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
