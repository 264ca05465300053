//! Anthropic Messages: `content[]` blocks of type `tool_use`, with `input` already an object.

use serde_json::Value;

use super::{arguments_of, id_of, BodyError, CallParts, Collector, Format};

/// Read a message, or a bare array of content blocks. Server-side tool blocks
/// (`server_tool_use`, `mcp_tool_use`) ran at the provider and are not read.
pub(super) fn read(body: &Value, out: &mut Collector<'_>) -> Result<Option<String>, BodyError> {
    let blocks = match body {
        Value::Array(blocks) => blocks,
        _ => match body.get("content") {
            Some(Value::Array(blocks)) => blocks,
            _ => {
                return Err(BodyError::Shape(
                    "not an Anthropic message: expected `content` blocks".to_owned(),
                ))
            }
        },
    };
    if let Some(reason) = cut_reason(body.get("stop_reason")) {
        out.stopped(reason);
    }
    let mut texts = Vec::new();
    for block in blocks {
        match block.get("type").and_then(Value::as_str) {
            Some("tool_use") if !out.is_full() => out.push(CallParts {
                id: id_of(block.get("id")),
                name: block.get("name").and_then(Value::as_str).map(str::to_owned),
                arguments: arguments_of(block.get("input")),
                format: Format::Anthropic,
                raw: block.clone(),
                index: 0,
            }),
            Some("text") => {
                if let Some(text) = block.get("text").and_then(Value::as_str) {
                    texts.push(text);
                }
            }
            _ => {}
        }
    }
    Ok(if texts.is_empty() { None } else { Some(texts.join("\n")) })
}

/// The reason a message stopped early, when its `stop_reason` says it did not end its turn:
/// any reason but `end_turn`, `tool_use` and `stop_sequence`, such as `max_tokens`,
/// `model_context_window_exceeded`, `refusal` or `pause_turn` (a paused turn, to be
/// continued). The stream reads the same reasons the same way.
pub(crate) fn cut_reason(stop_reason: Option<&Value>) -> Option<String> {
    match stop_reason.and_then(Value::as_str)? {
        "end_turn" | "tool_use" | "stop_sequence" => None,
        reason => Some(format!("stop_reason `{}`", super::describe(Some(&Value::from(reason))))),
    }
}
