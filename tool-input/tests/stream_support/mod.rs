//! Feeding a `StreamAssembler` and reading what it gave, in the stream tests.
#![allow(dead_code)]

use serde_json::{json, Value};
use tool_input::calls::{CallOptions, Calls};
use tool_input::stream::StreamAssembler;

/// Every event through one assembler, then its calls.
pub fn feed(options: CallOptions, events: &[Value]) -> Calls {
    let mut stream = StreamAssembler::new(options);
    for event in events {
        stream.push_event(event);
    }
    stream.finish()
}

/// An SSE body through one assembler, then its calls.
pub fn sse(options: CallOptions, body: impl AsRef<[u8]>) -> Calls {
    let mut stream = StreamAssembler::new(options);
    stream.push_sse_bytes(body);
    stream.finish()
}

/// The kind of each failed attempt, in order.
pub fn kinds(calls: &Calls) -> Vec<&'static str> {
    calls.errors.iter().map(|error| error.kind.code()).collect()
}

/// Each call's name and arguments, in order.
pub fn names(calls: &Calls) -> Vec<(&str, Value)> {
    calls.calls.iter().map(|call| (call.name.as_str(), Value::Object(call.arguments.clone()))).collect()
}

/// A Chat Completions chunk with one tool-call delta.
pub fn chat_delta(index: u64, id: Option<&str>, name: Option<&str>, arguments: &str) -> Value {
    let mut call = json!({"index": index, "function": {"arguments": arguments}});
    if let Some(id) = id {
        call["id"] = json!(id);
    }
    if let Some(name) = name {
        call["function"]["name"] = json!(name);
    }
    json!({"choices": [{"index": 0, "delta": {"tool_calls": [call]}, "finish_reason": null}]})
}

/// A Chat Completions chunk that ends choice 0 with `reason`.
pub fn chat_finish(reason: &str) -> Value {
    json!({"choices": [{"index": 0, "delta": {}, "finish_reason": reason}]})
}
