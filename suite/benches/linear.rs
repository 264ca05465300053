//! Linear growth on hostile input: each case is measured at a size and at twice, four and
//! eight times that size; time per byte must stay flat (a quadratic step would double it at
//! every doubling). `cargo bench -p tool-input-suite --bench linear`: criterion prints the throughput of each
//! size; flat throughput across sizes is linear time.
//!
//! Cases: the parser on deep nesting, long runs of backslashes, many short keys, huge
//! numbers, a long single-quoted string, prose with many false starts; the coercion walk on
//! wide objects and long arrays of values that each need coercion; recursive tagged and
//! untagged unions, deeper and wider; stream assembly of one call in 8-byte deltas, and the
//! incremental parser with a partial value after each; a stream of many small events (content
//! and calls, CR line endings) fed in 4 KiB pieces as the CLI reads it; calls written as a
//! Python list in text, unclosed `<|python_start|>` blocks, and markers repeated with nothing
//! that ends them (Inkling's frames, MiniMax M3 `<invoke`s, Command R's actions).
//! Hostile values (issue 13): a backtracking `pattern` on a long string (and a lookaround
//! one, refused by its budget), a call with many wrong enum values of fifty options each
//! (the rejection capped at `Limits::max_errors`), a run of raw NUL bytes in a string and
//! `repair` on `1]]]…` (one repair record each, however long the run).
//! Errors that cost what valid values cost: one-letter values valid and wrong against fifty
//! options, a long value against 600 long options, a long unknown key (`linear/errors`).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use serde_json::{json, Value};
use tool_input::parse::{parse, ParseOptions};
use tool_input::{Limits, Validator};

/// Base size in bytes (about); each case runs at 1, 2, 4 and 8 times this.
const BASE: usize = 64 * 1024;

fn inputs(kind: &str, bytes: usize) -> String {
    match kind {
        // As deep as the depth limit allows, repeated side by side to fill the size: a
        // deeper input is refused at the limit, in time linear in what was read.
        "deep_nesting" => {
            let one = format!("{}{}", "[".repeat(100), "]".repeat(100));
            let count = bytes / (one.len() + 1);
            format!("[{}]", vec![one; count.max(1)].join(","))
        }
        "backslashes" => format!("{{\"a\": \"{}\"}}", "\\\\".repeat(bytes / 2)),
        "short_keys" => {
            let mut text = String::from("{");
            let mut i = 0;
            while text.len() < bytes {
                text.push_str(&format!("\"k{i}\":{i},"));
                i += 1;
            }
            text.pop();
            text.push('}');
            text
        }
        "huge_numbers" => {
            let number = "9".repeat(300);
            let count = bytes / 302;
            format!("[{}]", vec![number; count.max(1)].join(", "))
        }
        "single_quoted" => format!("{{'a': '{}'}}", "it's ".repeat(bytes / 5)),
        "prose_false_starts" => format!("{} {{\"a\": 1}}", "see {this} and [that] ".repeat(bytes / 22)),
        other => panic!("unknown case {other}"),
    }
}

fn parser(c: &mut Criterion) {
    let options = ParseOptions::default().with_max_bytes(usize::MAX);
    for kind in
        ["deep_nesting", "backslashes", "short_keys", "huge_numbers", "single_quoted", "prose_false_starts"]
    {
        let mut group = c.benchmark_group(format!("linear/parse/{kind}"));
        group.sample_size(10);
        for factor in [1, 2, 4, 8] {
            let text = inputs(kind, BASE * factor);
            group.throughput(Throughput::Bytes(text.len() as u64));
            group.bench_with_input(BenchmarkId::from_parameter(factor), &text, |b, text| {
                b.iter(|| black_box(parse(text, &options).is_ok()))
            });
        }
        group.finish();
    }
}

fn walk(c: &mut Criterion) {
    let limits = Limits::default().with_max_bytes(usize::MAX);
    let wide = Validator::builder(&json!({"type": "object", "additionalProperties": {"type": "integer"}}))
        .limits(limits)
        .build()
        .expect("schema");
    let long = Validator::builder(&json!({
        "type": "object",
        "properties": {"v": {"type": "array", "items": {"type": "number"}}}
    }))
    .limits(limits)
    .build()
    .expect("schema");
    let mut group = c.benchmark_group("linear/walk/wide_object_of_numeric_strings");
    group.sample_size(10);
    for factor in [1, 2, 4, 8] {
        let count = BASE * factor / 16;
        let value: Value =
            Value::Object((0..count).map(|i| (format!("k{i}"), json!(i.to_string()))).collect());
        group.throughput(Throughput::Elements(count as u64));
        group.bench_with_input(BenchmarkId::from_parameter(factor), &value, |b, value| {
            b.iter(|| black_box(wide.check(value).is_ok()))
        });
    }
    group.finish();
    let mut group = c.benchmark_group("linear/walk/long_array_of_numeric_strings");
    group.sample_size(10);
    for factor in [1, 2, 4, 8] {
        let count = BASE * factor / 8;
        let value = json!({"v": (0..count).map(|i| format!("{i}.5")).collect::<Vec<_>>()});
        group.throughput(Throughput::Elements(count as u64));
        group.bench_with_input(BenchmarkId::from_parameter(factor), &value, |b, value| {
            b.iter(|| black_box(long.check(value).is_ok()))
        });
    }
    group.finish();
}

/// Unions: a recursive tagged union (each level a `oneOf` of four tagged objects, one of
/// them with two children of the same schema) and a recursive untagged `oneOf` (two object
/// branches sharing the recursive property, and an integer), each grown in depth (one
/// chain 12, 24, 48, 96 levels deep) and in width (64 to 512 chains of 12 levels side by
/// side). Elements are union values checked: time per element must stay flat.
fn unions(c: &mut Criterion) {
    let tagged = json!({
        "type": "object",
        "properties": {"expr": {"type": "array", "items": {"$ref": "#/$defs/expr"}}},
        "$defs": {"expr": {"oneOf": [
            {"type": "object", "properties": {"type": {"const": "number"}, "value": {"type": "integer"}}, "required": ["type", "value"], "additionalProperties": false},
            {"type": "object", "properties": {"type": {"const": "negate"}, "of": {"$ref": "#/$defs/expr"}}, "required": ["type", "of"], "additionalProperties": false},
            {"type": "object", "properties": {"type": {"const": "add"}, "left": {"$ref": "#/$defs/expr"}, "right": {"$ref": "#/$defs/expr"}}, "required": ["type", "left", "right"], "additionalProperties": false},
            {"type": "object", "properties": {"type": {"const": "call"}, "name": {"type": "string"}}, "required": ["type", "name"], "additionalProperties": false}
        ]}}
    });
    let untagged = json!({
        "type": "object",
        "properties": {"expr": {"type": "array", "items": {"$ref": "#/$defs/node"}}},
        "$defs": {"node": {"oneOf": [
            {"type": "object", "properties": {"next": {"$ref": "#/$defs/node"}, "a": {"type": "integer"}}, "required": ["a"]},
            {"type": "object", "properties": {"next": {"$ref": "#/$defs/node"}, "b": {"type": "integer"}}, "required": ["b"]},
            {"type": "integer"}
        ]}}
    });
    let tagged_chain = |depth: usize| {
        let mut value = json!({"type": "number", "value": 7});
        for _ in 0..depth {
            value = json!({"type": "negate", "of": value});
        }
        value
    };
    let untagged_chain = |depth: usize| {
        let mut value = json!(7);
        for level in 0..depth {
            value = if level % 2 == 0 {
                json!({"next": value, "a": level})
            } else {
                json!({"next": value, "b": level})
            };
        }
        value
    };
    type Chain<'a> = &'a dyn Fn(usize) -> Value;
    let cases: [(&str, &Value, Chain<'_>); 2] =
        [("tagged", &tagged, &tagged_chain), ("untagged", &untagged, &untagged_chain)];
    for (name, schema, chain) in cases {
        let validator = Validator::new(schema).expect("schema");
        let mut group = c.benchmark_group(format!("linear/union/{name}_depth"));
        group.sample_size(10);
        for depth in [12, 24, 48, 96] {
            let value = json!({"expr": [chain(depth)]});
            group.throughput(Throughput::Elements(depth as u64 + 1));
            group.bench_with_input(BenchmarkId::from_parameter(depth), &value, |b, value| {
                b.iter(|| black_box(validator.check(value).is_ok()))
            });
        }
        group.finish();
        let mut group = c.benchmark_group(format!("linear/union/{name}_width"));
        group.sample_size(10);
        for width in [64, 128, 256, 512] {
            let value = json!({"expr": vec![chain(12); width]});
            group.throughput(Throughput::Elements(width as u64 * 13));
            group.bench_with_input(BenchmarkId::from_parameter(width), &value, |b, value| {
                b.iter(|| black_box(validator.check(value).is_ok()))
            });
        }
        group.finish();
    }
}

/// Stream assembly: a Chat Completions stream of one call whose arguments arrive in 8-byte
/// deltas, at 1, 2, 4 and 8 times the size, as SSE bytes; and the incremental parser fed
/// the same arguments with its partial value read after every delta.
fn stream(c: &mut Criterion) {
    use tool_input::calls::CallOptions;
    use tool_input::parse::IncrementalParser;
    use tool_input::StreamAssembler;
    let mut group = c.benchmark_group("linear/stream/chat_deltas");
    group.sample_size(10);
    for factor in [1, 2, 4, 8] {
        let arguments =
            json!({"path": "a.txt", "content": "line of text, \"quoted\"\n".repeat(BASE * factor / 24)})
                .to_string();
        let mut body = String::new();
        let first = json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "call_1", "type": "function", "function": {"name": "write_file", "arguments": ""}}]}}]});
        body.push_str(&format!("data: {first}\n\n"));
        let bytes = arguments.as_bytes();
        let mut start = 0;
        while start < bytes.len() {
            let mut end = (start + 8).min(bytes.len());
            while !arguments.is_char_boundary(end) {
                end += 1;
            }
            let delta = json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": &arguments[start..end]}}]}}]});
            body.push_str(&format!("data: {delta}\n\n"));
            start = end;
        }
        body.push_str("data: {\"choices\": [{\"index\": 0, \"delta\": {}, \"finish_reason\": \"tool_calls\"}]}\n\ndata: [DONE]\n\n");
        group.throughput(Throughput::Bytes(body.len() as u64));
        group.bench_with_input(BenchmarkId::from_parameter(factor), &body, |b, body| {
            b.iter(|| {
                let mut stream = StreamAssembler::new(CallOptions::new());
                stream.push_sse_bytes(body.as_bytes());
                black_box(stream.finish().calls.len())
            })
        });
    }
    group.finish();
    let mut group = c.benchmark_group("linear/stream/incremental_parser");
    group.sample_size(10);
    for factor in [1, 2, 4, 8] {
        let text = json!({"content": "line of text, \"quoted\"\n".repeat(BASE * factor / 24)}).to_string();
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_with_input(BenchmarkId::from_parameter(factor), &text, |b, text| {
            b.iter(|| {
                let mut parser = IncrementalParser::new(ParseOptions::default());
                // The partial value is built on request (a copy of what was read): shown every
                // 1,000 chunks, as a display refreshed a few times a second would ask.
                for (k, chunk) in text.as_bytes().chunks(8).enumerate() {
                    let _ = parser.feed_bytes(chunk);
                    if k % 1000 == 0 {
                        black_box(parser.partial());
                    }
                }
                black_box(parser.finish().is_ok())
            })
        });
    }
    group.finish();
}

/// Stream size: many small SSE events (content deltas, and calls whose arguments arrive in
/// pieces), lines ended by CR, fed in 4 KiB pieces as the CLI reads them. Each event is read
/// as soon as it is complete, so time and memory per event stay flat as the stream grows.
fn stream_size(c: &mut Criterion) {
    use tool_input::calls::CallOptions;
    use tool_input::StreamAssembler;
    let mut group = c.benchmark_group("linear/stream/many_events");
    group.sample_size(10);
    for factor in [1, 2, 4, 8] {
        let mut body = String::new();
        let mut call = 0;
        while body.len() < BASE * factor {
            let text = json!({"choices": [{"index": 0, "delta": {"content": "some words "}}]});
            body.push_str(&format!("data: {text}\r\r"));
            let start = json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": call, "id": format!("call_{call}"), "function": {"name": "f", "arguments": "{\"a\": "}}]}}]});
            let end = json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": call, "function": {"arguments": "1}"}}]}}]});
            body.push_str(&format!("data: {start}\r\rdata: {end}\r\r"));
            call = (call + 1) % 100;
        }
        body.push_str(
            "data: {\"choices\": [{\"index\": 0, \"delta\": {}, \"finish_reason\": \"tool_calls\"}]}\r\r",
        );
        group.throughput(Throughput::Bytes(body.len() as u64));
        group.bench_with_input(BenchmarkId::from_parameter(factor), &body, |b, body| {
            b.iter(|| {
                let mut stream = StreamAssembler::new(CallOptions::new());
                for piece in body.as_bytes().chunks(4096) {
                    stream.push_sse_bytes(piece);
                }
                black_box(stream.finish().calls.len())
            })
        });
    }
    group.finish();
}

/// Calls written into text: a Python list `[f(a=1), f(a=1), …]` (each call records its own
/// text, and reading stops at the call limit), and many `<|python_start|>` blocks that never
/// close and hold no call (each ends at the next, rather than being searched to the end).
/// Markers repeated with nothing that ends them, without a call limit: Inkling's
/// `<|message_model|>` (its header looked for up to the next token, not to the end), MiniMax
/// M3 `<invoke`s (each records its own text, not the rest of the block's) and Command R's
/// ``Action: ```json\n[`` (each list read up to the next action, not to the end).
fn text_lists(c: &mut Criterion) {
    use tool_input::calls::{parse_text, CallOptions};
    let unlimited = CallOptions::new().max_calls(usize::MAX).max_body_bytes(usize::MAX);
    for (name, unit, options) in [
        ("python_list", "f(a=1), ", CallOptions::new()),
        ("python_start_unclosed", "<|python_start|>[f(a=1) ", CallOptions::new()),
        ("inkling_frames", "<|message_model|>", unlimited.clone()),
        (
            "minimax_m3_invokes",
            "]<]minimax[>[<tool_call>]<]minimax[>[<invoke name=\"f\">]<]minimax[>[<a>",
            unlimited.clone(),
        ),
        ("command_r_actions", "Action: ```json\n[", unlimited.clone()),
    ] {
        let mut group = c.benchmark_group(format!("linear/text/{name}"));
        group.sample_size(10);
        for factor in [1, 2, 4, 8] {
            let count = BASE * factor / unit.len();
            let text = if name == "python_list" {
                format!("[{}]", vec!["f(a=1)"; count].join(", "))
            } else {
                unit.repeat(count)
            };
            group.throughput(Throughput::Bytes(text.len() as u64));
            group.bench_with_input(BenchmarkId::from_parameter(factor), &text, |b, text| {
                b.iter(|| black_box(parse_text(text, &options).calls.len()))
            });
        }
        group.finish();
    }
}

/// Issue 13's growth items: patterns, error amplification, repair records.
fn hostile_values(c: &mut Criterion) {
    let limits = Limits::default().with_max_bytes(usize::MAX).with_max_string_bytes(usize::MAX);
    let patterned = |pattern: &str| {
        Validator::builder(
            &json!({"type": "object", "properties": {"s": {"type": "string", "pattern": pattern}}}),
        )
        .limits(limits)
        .build()
        .expect("schema")
    };
    for (name, pattern) in
        [("backtracking_shape", r"^(\w+\s?)*$"), ("lookaround_over_budget", r"^(?=(a+)+$)")]
    {
        let validator = patterned(pattern);
        let mut group = c.benchmark_group(format!("linear/pattern/{name}"));
        group.sample_size(10);
        for factor in [1, 2, 4, 8] {
            let text = json!({"s": format!("{}!", "a".repeat(BASE * factor))}).to_string();
            group.throughput(Throughput::Bytes(text.len() as u64));
            group.bench_with_input(BenchmarkId::from_parameter(factor), &text, |b, text| {
                b.iter(|| black_box(validator.check(text.as_str()).is_err()))
            });
        }
        group.finish();
    }

    let options: Vec<String> = (0..50).map(|i| format!("option_number_{i}")).collect();
    let enums = Validator::builder(&json!({
        "type": "object",
        "properties": {"v": {"type": "array", "items": {"enum": options}}}
    }))
    .limits(limits)
    .build()
    .expect("schema");
    let mut group = c.benchmark_group("linear/walk/wrong_enum_values");
    group.sample_size(10);
    for factor in [1, 2, 4, 8] {
        let count = BASE * factor / 8;
        let text = json!({"v": (0..count).map(|i| format!("w{i}")).collect::<Vec<_>>()}).to_string();
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_with_input(BenchmarkId::from_parameter(factor), &text, |b, text| {
            b.iter(|| black_box(enums.check(text.as_str()).map_err(|r| r.to_string().len()).err()))
        });
    }
    group.finish();

    // Errors that cost what valid values cost: the same count of one-letter values, valid
    // and wrong, against fifty options (only the errors listed get options and a
    // did-you-mean; the rest are counted); one long value against long options, and one
    // long unknown key against many properties (too long to be a misspelling: not compared).
    let options: Vec<String> =
        (0..50).map(|i| format!("{}", char::from(b'A' + (i % 26) as u8)).repeat(1 + i / 26)).collect();
    let letters = Validator::builder(&json!({
        "type": "object",
        "properties": {"v": {"type": "array", "items": {"enum": options}}}
    }))
    .limits(limits)
    .build()
    .expect("schema");
    let long_options: Vec<String> = (0..600).map(|i| format!("{i:04}{}", "o".repeat(96))).collect();
    let long = Validator::builder(&json!({
        "type": "object",
        "properties": {"e": {"enum": long_options}},
        "additionalProperties": false
    }))
    .limits(limits)
    .build()
    .expect("schema");
    let mut group = c.benchmark_group("linear/errors");
    group.sample_size(10);
    for factor in [1, 8] {
        let count = BASE * factor / 4;
        for (name, item) in [("valid_values", "A"), ("wrong_values", "b")] {
            let text = json!({"v": vec![item; count]}).to_string();
            group.throughput(Throughput::Bytes(text.len() as u64));
            group.bench_with_input(BenchmarkId::new(name, factor), &text, |b, text| {
                b.iter(|| black_box(letters.check(text.as_str()).map_err(|r| r.to_string().len()).err()))
            });
        }
        let value = json!({"e": "o".repeat(BASE * factor)}).to_string();
        let key = json!({"o".repeat(BASE * factor): 1}).to_string();
        for (name, text) in [("long_value_long_options", value), ("long_unknown_key", key)] {
            group.throughput(Throughput::Bytes(text.len() as u64));
            group.bench_with_input(BenchmarkId::new(name, factor), &text, |b, text| {
                b.iter(|| black_box(long.check(text.as_str()).map_err(|r| r.to_string().len()).err()))
            });
        }
    }
    group.finish();

    let lenient = ParseOptions::default().with_max_bytes(usize::MAX);
    let repair = ParseOptions::repair().with_max_bytes(usize::MAX);
    for (name, options, make) in [
        (
            "nul_run_in_a_string",
            &lenient,
            (|n| format!("{{\"s\": \"{}\"}}", "\0".repeat(n))) as fn(usize) -> String,
        ),
        ("repair_closing_brackets", &repair, |n| format!("1{}", "]".repeat(n))),
    ] {
        let mut group = c.benchmark_group(format!("linear/repairs/{name}"));
        group.sample_size(10);
        for factor in [1, 2, 4, 8] {
            let text = make(BASE * factor);
            group.throughput(Throughput::Bytes(text.len() as u64));
            group.bench_with_input(BenchmarkId::from_parameter(factor), &text, |b, text| {
                b.iter(|| black_box(parse(text, options).map(|p| p.repairs.len())))
            });
        }
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(std::time::Duration::from_millis(500))
        .measurement_time(std::time::Duration::from_secs(2));
    targets = parser, walk, unions, stream, stream_size, text_lists, hostile_values
}
criterion_main!(benches);
