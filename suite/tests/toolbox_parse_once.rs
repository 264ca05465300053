//! The Toolbox takes a call record's parse of repaired argument text instead of parsing the
//! text again, and comes to what parsing it again gives, byte for byte, on the workloads:
//! every mangled call, and the clean and invalid calls in a code fence (so that they need a
//! repair and the record keeps its parse). Each text is dispatched in a record read from the
//! text, and in a record of the same text as a JSON string value (which keeps no parse: the
//! Toolbox reads the text again, as it did before).

mod common;
#[path = "../benches/support/mod.rs"]
mod support;

use serde_json::Value;
use support::CreateOrder;
use tool_input::calls::{CallOptions, CallParts, Format, OriginalArguments, ToolCall};
use tool_input::{CheckOptions, Limits, Outcome, Policy, ToolDefinition, ToolInput, Toolbox};

fn texts(file: &str, limit: usize) -> Vec<String> {
    common::read_jsonl(&common::bench_data_dir().join(file))
        .into_iter()
        .filter_map(|row| row["raw"].as_str().map(str::to_owned))
        .take(limit)
        .collect()
}

/// The typed tool, with a handler that shows the whole typed value, and the same schema as a
/// tool defined by its JSON Schema.
fn toolbox() -> Toolbox {
    let schema = CreateOrder::definition().schema().clone();
    let by_schema = ToolDefinition::new("order_json", None, schema).expect("the schema compiles");
    Toolbox::new()
        .with_tool(|order: CreateOrder| Ok::<_, String>(format!("{order:?}")))
        .with_definition(by_schema, |value: Value| Ok::<_, String>(value))
}

fn record(tool: &str, arguments: OriginalArguments, options: &CallOptions) -> Option<ToolCall> {
    let parts = CallParts {
        id: Some("call_1".to_owned()),
        name: Some(tool.to_owned()),
        arguments,
        ..CallParts::new(Format::OpenAi)
    };
    parts.finish(options).ok()
}

/// Both records of `text` to `tool` through `toolbox`: the same outcome. `false` when the
/// text does not become a call.
fn agree(toolbox: &Toolbox, tool: &str, text: &str) -> bool {
    let options = toolbox.call_options();
    let Some(read) = record(tool, OriginalArguments::Text(text.to_owned()), &options) else {
        return false;
    };
    let again = record(tool, OriginalArguments::Value(Value::String(text.to_owned())), &options)
        .expect("the same text, the same call");
    let (outcome, expected): (Outcome, Outcome) = (toolbox.dispatch(&read), toolbox.dispatch(&again));
    assert_eq!(outcome, expected, "{tool}: {text}");
    assert_eq!(outcome.to_openai(), expected.to_openai(), "{tool}: {text}");
    true
}

fn fenced(text: &str) -> String {
    format!("```json\n{text}\n```")
}

#[test]
fn workload_calls_come_to_what_reading_the_text_again_gives() {
    let toolbox = toolbox();
    let mut texts: Vec<String> = texts("mangled.jsonl", 3_000);
    texts.extend(texts_of("invalid.jsonl", 2_000));
    texts.extend(texts_of("clean.jsonl", 500));
    let mut calls = 0;
    for text in &texts {
        for tool in ["create_order", "order_json"] {
            calls += usize::from(agree(&toolbox, tool, text));
        }
    }
    assert!(calls > 10_000, "{calls}");
}

/// The invalid and clean calls, as sent and in a code fence.
fn texts_of(file: &str, limit: usize) -> Vec<String> {
    texts(file, limit).into_iter().flat_map(|text| [fenced(&text), text]).collect()
}

#[test]
fn per_call_policies_and_limits_come_to_what_reading_the_text_again_gives() {
    let mut texts: Vec<String> = texts("mangled.jsonl", 400);
    texts.extend(texts_of("invalid.jsonl", 200));
    let toolboxes = [
        CheckOptions::new().with_policy(Policy::Strict),
        CheckOptions::new().with_policy(Policy::Lenient),
        CheckOptions::new().with_limits(Limits::default().with_max_depth(3)),
        CheckOptions::new().with_limits(Limits::default().with_max_errors(1).with_max_echo_chars(8)),
    ]
    .map(|options| toolbox().with_check_options(options));
    for toolbox in &toolboxes {
        for text in &texts {
            for tool in ["create_order", "order_json"] {
                agree(toolbox, tool, text);
            }
        }
    }
}
