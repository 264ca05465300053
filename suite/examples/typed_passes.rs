//! Runs one contender of the `pipeline` bench over a workload a given number of times, for
//! instruction counts that a busy machine does not disturb: run it under callgrind with 1
//! and with 3 passes, and the difference, halved, is one pass without the setup.
//!
//! ```sh
//! cargo build --release -p tool-input-suite --example typed_passes
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null \
//!     target/release/examples/typed_passes typed target/bench-data/mangled.jsonl 3
//! ```
//!
//! Contenders: `serde_json_typed`, `typed` (`T::from_arguments`), `typed_full` (parse, walk,
//! serde), `jsonrepair_jsonschema`, `parse` (the lenient parser into a `Value`),
//! `parse_to_tape`, `parse_to_tape_and_read` (the typed path's second step alone),
//! `read_prepared_tape` (its tape reader alone, over tapes prepared before the passes),
//! `fenced_typed` (each call in a code fence, so that the lenient parser reads it), `untyped`
//! (`Validator::check`), `value_jsonschema_untyped` (serde_json `Value` + jsonschema),
//! `args_serde` (`serde_json::from_str::<Args<T>>`, as inside a caller's own request type),
//! `value_typed` (`T::from_arguments` of the `Value` serde_json reads: `args_serde` without
//! the capture),
//! `toolbox_dispatch` (a Toolbox running a typed handler on call records read before the
//! passes), `toolbox_read_and_dispatch` (each text read into a call record, then
//! dispatched: a call from its text to its handler) and `toolbox_stream_and_dispatch` (each
//! text streamed as Chat Completions deltas of 16 bytes, assembled, then dispatched).
//!
//! Over `stream.jsonl` (whose rows carry the recorded chunk sizes), as the goals bench's
//! stream goal: `stream` (the incremental parser fed the chunks, events received, the
//! partial value never asked for), `stream_one_shot` (`parse` of the whole text) and
//! `stream_tokenizer` (`parse_without_fast_path`).

// The workloads' type and the peers' pipeline, as the benches have them.
#[path = "../tests/common/mod.rs"]
mod common;
#[path = "../benches/support/mod.rs"]
mod support;

use serde_json::Value;
use support::CreateOrder;
use tool_input::calls::{CallOptions, CallParts, Format, OriginalArguments, ToolCall};
use tool_input::stream::StreamAssembler;
use tool_input::{ToolInput, Toolbox};

/// The Chat Completions stream of one call to `create_order` with `text` as its arguments, in
/// deltas of 16 bytes (cut on character boundaries).
fn stream_events(text: &str) -> Vec<Value> {
    let mut events = vec![serde_json::json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0,
        "id": "call_1", "type": "function", "function": {"name": "create_order", "arguments": ""}}]}}]})];
    let mut at = 0;
    while at < text.len() {
        let mut end = (at + 16).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        events.push(serde_json::json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0,
            "function": {"arguments": &text[at..end]}}]}}]}));
        at = end;
    }
    events.push(serde_json::json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}));
    events
}

/// The call record of an argument text sent to `create_order`.
fn record(text: &str, options: &CallOptions) -> Option<ToolCall> {
    CallParts {
        id: Some("call_1".to_owned()),
        name: Some("create_order".to_owned()),
        arguments: OriginalArguments::Text(text.to_owned()),
        ..CallParts::new(Format::OpenAi)
    }
    .finish(options)
    .ok()
}

/// The first 2,000 calls of a workload, as the bench's small workloads take them.
fn raws(path: &str) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|error| panic!("{path}: {error}"));
    text.lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter_map(|case| case["raw"].as_str().map(str::to_owned))
        .take(2_000)
        .collect()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, contender, workload, passes] = args.as_slice() else {
        eprintln!("usage: typed_passes CONTENDER WORKLOAD.jsonl PASSES");
        std::process::exit(2);
    };
    let passes: usize = passes.parse().expect("PASSES is a number");
    let raws = raws(workload);
    let schema = serde_json::to_value(schemars::schema_for!(CreateOrder)).expect("a schema");
    let validator = jsonschema::validator_for(&schema).expect("schema compiles");
    let ours = tool_input::Validator::new(&schema).expect("schema compiles");
    let fenced: Vec<String> = raws.iter().map(|r| format!("```json\n{r}\n```")).collect();
    let tapes: Vec<_> =
        raws.iter().filter_map(|r| tool_input::__private::prepare_tape::<CreateOrder>(r)).collect();
    let toolbox = Toolbox::new().with_tool(|order: CreateOrder| Ok::<_, String>(order.items.len()));
    let call_options = toolbox.call_options();
    let records: Vec<ToolCall> = raws.iter().filter_map(|r| record(r, &call_options)).collect();
    let streams: Vec<Vec<Value>> = if contender == "toolbox_stream_and_dispatch" {
        raws.iter().map(|r| stream_events(r)).collect()
    } else {
        Vec::new()
    };
    // The definition is built once, outside the passes.
    let _ = CreateOrder::from_arguments("{}");
    // The chunked rows, for the stream contenders only (other workloads have no chunks).
    let streamed: Vec<(String, Vec<usize>)> = if contender.starts_with("stream") {
        std::fs::read_to_string(workload)
            .unwrap_or_else(|error| panic!("{workload}: {error}"))
            .lines()
            .filter_map(|line| serde_json::from_str::<Value>(line).ok())
            .filter_map(|row| {
                let text = row["raw"].as_str()?.to_owned();
                let chunks = row["chunks"].as_array()?.iter().filter_map(Value::as_u64).map(|n| n as usize);
                Some((text, chunks.collect()))
            })
            .collect()
    } else {
        Vec::new()
    };
    let stream_options = tool_input::parse::ParseOptions::default();
    let mut decided = 0;
    for _ in 0..passes {
        decided = match contender.as_str() {
            "serde_json_typed" => {
                raws.iter().filter(|r| serde_json::from_str::<CreateOrder>(r).is_ok()).count()
            }
            "typed" => raws.iter().filter(|r| CreateOrder::from_arguments(r.as_str()).is_ok()).count(),
            // `Args<T>` inside a caller's own `Deserialize` (an MCP or rig request), and the
            // same check of the `Value` serde_json makes: the difference is `Args`' capture.
            "args_serde" => raws
                .iter()
                .filter(|r| serde_json::from_str::<tool_input::Args<CreateOrder>>(r).is_ok())
                .count(),
            "value_typed" => raws
                .iter()
                .filter(|r| {
                    serde_json::from_str::<Value>(r)
                        .is_ok_and(|value| CreateOrder::from_arguments(&value).is_ok())
                })
                .count(),
            "fenced_typed" => {
                fenced.iter().filter(|r| CreateOrder::from_arguments(r.as_str()).is_ok()).count()
            }
            "typed_full" => {
                let options = tool_input::CheckOptions::default();
                raws.iter()
                    .filter(|r| {
                        tool_input::__private::from_arguments_full::<CreateOrder>(r.as_str().into(), &options)
                            .is_ok()
                    })
                    .count()
            }
            "untyped" => raws.iter().filter(|r| ours.check(r.as_str()).is_ok()).count(),
            "value_jsonschema_untyped" => raws
                .iter()
                .filter(|r| {
                    serde_json::from_str::<Value>(r).is_ok_and(|v| validator.iter_errors(&v).next().is_none())
                })
                .count(),
            "jsonrepair_jsonschema" => {
                raws.iter().filter(|r| support::jsonrepair_jsonschema(&validator, r).is_some()).count()
            }
            "parse" => {
                let options = tool_input::parse::ParseOptions::default();
                raws.iter().filter(|r| tool_input::parse::parse(r, &options).is_ok()).count()
            }
            "parse_to_tape_and_read" => raws
                .iter()
                .filter_map(|r| tool_input::__private::prepare_tape::<CreateOrder>(r))
                .filter_map(|tape| tool_input::__private::read_prepared_tape::<CreateOrder>(&tape))
                .count(),
            "parse_to_tape" => {
                raws.iter().filter_map(|r| tool_input::__private::prepare_tape::<CreateOrder>(r)).count()
            }
            "read_prepared_tape" => {
                tapes.iter().filter_map(tool_input::__private::read_prepared_tape::<CreateOrder>).count()
            }
            "stream" => streamed
                .iter()
                .filter(|(text, chunks)| {
                    let mut parser = tool_input::parse::IncrementalParser::new(stream_options.clone());
                    let mut at = 0;
                    chunks.iter().all(|&size| {
                        let piece = &text[at..at + size];
                        at += size;
                        parser.feed_with(piece, |event| drop(std::hint::black_box(event))).is_ok()
                    }) && parser.finish().is_ok()
                })
                .count(),
            "stream_one_shot" => streamed
                .iter()
                .filter(|(text, _)| tool_input::parse::parse(text, &stream_options).is_ok())
                .count(),
            "stream_tokenizer" => streamed
                .iter()
                .filter(|(text, _)| {
                    tool_input::parse::parse_without_fast_path(text.as_bytes(), &stream_options).is_ok()
                })
                .count(),
            "toolbox_dispatch" => records.iter().filter(|call| toolbox.dispatch(call).is_success()).count(),
            "toolbox_read_and_dispatch" => raws
                .iter()
                .filter_map(|r| record(r, &call_options))
                .filter(|call| toolbox.dispatch(call).is_success())
                .count(),
            "toolbox_stream_and_dispatch" => streams
                .iter()
                .filter(|events| {
                    let mut stream = StreamAssembler::new(call_options.clone().format(Format::OpenAi));
                    for event in events.iter() {
                        stream.push_event(event);
                    }
                    let calls = stream.finish();
                    calls.calls.first().is_some_and(|call| toolbox.dispatch(call).is_success())
                })
                .count(),
            other => panic!("unknown contender {other}"),
        };
    }
    println!("{contender} {workload}: {decided} of {} accepted or read", raws.len());
}
