//! The OpenAI Responses API: `output[]` items of type `function_call`, answered by
//! `call_id`.

use serde_json::Value;

use super::{arguments_of, id_of, push_unwrapping, BodyError, CallParts, Collector, Format};

/// Read a response, or a bare array of output items.
pub(super) fn read(body: &Value, out: &mut Collector<'_>) -> Result<Option<String>, BodyError> {
    let items = match body {
        Value::Array(items) => items,
        _ => match body.get("output") {
            Some(Value::Array(items)) => items,
            // An incomplete or failed response may carry no output at all.
            None | Some(Value::Null) if body.get("object").and_then(Value::as_str) == Some("response") => {
                return Ok(None)
            }
            _ => return Err(BodyError::Shape("not a Responses API response: expected `output`".to_owned())),
        },
    };
    if let Some(reason) = cut_reason(body) {
        out.stopped(reason);
    } else if ends_turn(body) {
        out.ended_turn();
    }
    let mut texts = Vec::new();
    for item in items {
        match item.get("type").and_then(Value::as_str) {
            Some("function_call") if !out.is_full() => {
                let parts = CallParts {
                    // `call_id` is what `function_call_output` answers; `id` names the item.
                    id: id_of(item.get("call_id")),
                    name: item.get("name").and_then(Value::as_str).map(str::to_owned),
                    arguments: arguments_of(item.get("arguments")),
                    format: Format::Responses,
                    raw: item.clone(),
                    index: 0,
                };
                // An item that says it did not complete was cut, and so was the response.
                match item_cut_reason(item) {
                    Some(reason) => {
                        out.stopped(reason.clone());
                        out.push_cut(parts, &reason);
                    }
                    None => push_unwrapping(parts, None, out),
                }
            }
            Some("message") => {
                let parts = item.get("content").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]);
                for part in parts {
                    if part.get("type").and_then(Value::as_str) == Some("output_text") {
                        if let Some(text) = part.get("text").and_then(Value::as_str) {
                            texts.push(text);
                        }
                    }
                }
            }
            _ => {}
        }
    }
    Ok(if texts.is_empty() { None } else { Some(texts.join("\n")) })
}

/// The reason a response stopped early, when its `status` says it did not complete:
/// `incomplete` (for example at `max_output_tokens`), `failed`, `cancelled`, or still
/// `in_progress` or `queued` (any status but `completed`). The stream's terminal events carry
/// the same response.
pub(crate) fn cut_reason(response: &Value) -> Option<String> {
    let status = response.get("status").and_then(Value::as_str)?;
    let detail = match status {
        "completed" => return None,
        "incomplete" => response.get("incomplete_details").and_then(|d| d.get("reason")),
        "failed" => response.get("error"),
        other => return Some(format!("response status `{}`", super::describe(Some(&Value::from(other))))),
    };
    Some(format!("response.{status}: {}", super::describe(detail)))
}

/// Does a response's `status` say it completed, the model having ended its turn, on a stop
/// token a server may have stripped from its text ([`Collector::ended_turn`])? A response
/// without a status says nothing. The stream's `response.completed` reads it alike.
pub(crate) fn ends_turn(response: &Value) -> bool {
    response.get("status").and_then(Value::as_str) == Some("completed")
}

/// The reason a `function_call` item was cut, when its own `status` is `incomplete`. (An
/// item of a completed response may be `in_progress`: programmatic tool calling leaves the
/// calls it waits on so.)
pub(crate) fn item_cut_reason(item: &Value) -> Option<String> {
    match item.get("status").and_then(Value::as_str)? {
        "incomplete" => Some("its item's status `incomplete`".to_owned()),
        _ => None,
    }
}
