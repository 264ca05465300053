//! `tool-input calls --stream`: a recorded stream in, the same `{"calls", "errors"}` object
//! as the non-streaming command out.

mod cli_support;
#[path = "../../suite/tests/common/mod.rs"]
mod common;

use cli_support::{keys, run, stdout_json};

use std::collections::BTreeSet;

use serde_json::{json, Value};

fn corpus_case(file: &str, source_part: &str) -> Value {
    let path = common::corpus_dir().join("provider-responses").join(file);
    let cases: Vec<Value> = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    cases
        .into_iter()
        .find(|case| case["source"].as_str().unwrap_or("").contains(source_part))
        .unwrap_or_else(|| panic!("no case {source_part}"))
}

#[test]
fn a_stream_cut_off_by_max_tokens_prints_a_truncated_error() {
    let case = corpus_case("anthropic-sdk-python.json", "incomplete_partial_json_response");
    let mut body = String::new();
    for chunk in case["chunks"].as_array().unwrap() {
        body.push_str(&format!("event: {}\ndata: {chunk}\n\n", chunk["type"].as_str().unwrap()));
    }
    let output = run(&["calls", "--stream"], body.as_bytes());
    assert_eq!(output.status.code(), Some(1), "{}", String::from_utf8_lossy(&output.stderr));
    let result = stdout_json(&output);
    assert_eq!(keys(&result), BTreeSet::from(["calls", "errors", "content", "reasoning"]));
    assert_eq!(result["calls"], json!([]));
    assert_eq!(result["errors"][0]["kind"], "truncated");
    assert!(result["errors"][0]["message"].as_str().unwrap().contains("make_file"));
}

#[test]
fn one_event_per_line_gives_the_calls_of_the_whole_body() {
    let events = [
        json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": ""}}]}}]}),
        json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": "{\"city\": \"Pa"}}]}}]}),
        json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": "ris\"}"}}]}}]}),
        json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}),
    ];
    let lines: String = events.iter().map(|event| format!("{event}\n")).collect();
    let streamed = run(&["calls", "--stream", "--tools", "get_weather"], lines.as_bytes());
    assert_eq!(streamed.status.code(), Some(0), "{}", String::from_utf8_lossy(&streamed.stderr));
    let body = json!({"choices": [{"message": {"role": "assistant", "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}}]}}]});
    let whole = run(&["calls", "--tools", "get_weather"], body.to_string().as_bytes());
    assert_eq!(stdout_json(&streamed), stdout_json(&whole));
    assert_eq!(stdout_json(&streamed)["calls"][0]["arguments"], json!({"city": "Paris"}));
}

#[test]
fn text_chunks_one_json_string_per_line() {
    let chunks = [
        "Let me check. <tool",
        "_call>{\"name\": \"get_weather\", ",
        "\"arguments\": {\"city\": \"Zoë\"}}</tool_call>",
    ];
    let lines: String = chunks.iter().map(|chunk| format!("{}\n", json!(chunk))).collect();
    let output = run(&["calls", "--stream", "--format", "text"], lines.as_bytes());
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(
        stdout_json(&output)["calls"],
        json!([{"id": stdout_json(&output)["calls"][0]["id"], "name": "get_weather", "arguments": {"city": "Zoë"}}])
    );
}

#[test]
fn a_stream_without_its_end_and_garbage_lines() {
    let line = json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "c", "function": {"name": "f", "arguments": "{}"}}]}}]});
    let output = run(&["calls", "--stream", "--format", "openai"], format!("{line}\n").as_bytes());
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(stdout_json(&output)["errors"][0]["kind"], "truncated");

    // Lines that cannot be read are errors naming each, never silence.
    let output = run(&["calls", "--stream"], b"not an event\n\xff\xfe\ndata: {\n\n");
    assert_eq!(output.status.code(), Some(1));
    let errors = stdout_json(&output)["errors"].as_array().cloned().unwrap_or_default();
    let messages: Vec<&str> = errors.iter().filter_map(|error| error["message"].as_str()).collect();
    assert_eq!(messages.len(), 3, "{messages:?}");
    assert!(messages[0].contains("event 1 of the stream is neither SSE nor JSON"), "{messages:?}");
    assert!(messages[1].contains("event 2 of the stream is not UTF-8"), "{messages:?}");
    assert!(messages[2].contains("event 3 of the stream is not JSON"), "{messages:?}");
}

#[test]
fn a_cut_stream_runs_its_completed_calls_only_when_asked() {
    let first = json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "a", "function": {"name": "f", "arguments": "{\"x\": 1}"}}]}}]});
    let second = json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 1, "id": "b", "function": {"name": "g", "arguments": "{\"y\": "}}]}}]});
    let body = format!("data: {first}\r\n\r\ndata: {second}\r\n\r\n");
    let output = run(&["calls", "--stream"], body.as_bytes());
    assert_eq!(output.status.code(), Some(1));
    let result = stdout_json(&output);
    assert_eq!(result["calls"], json!([]));
    assert_eq!(result["errors"][0]["kind"], "incomplete");
    assert_eq!(result["errors"][1]["kind"], "truncated");
    let output = run(&["calls", "--stream", "--run-completed"], body.as_bytes());
    assert_eq!(output.status.code(), Some(1));
    let result = stdout_json(&output);
    assert_eq!(result["calls"], json!([{"id": "a", "name": "f", "arguments": {"x": 1}}]));
    assert_eq!(result["errors"][0]["kind"], "truncated");
}
