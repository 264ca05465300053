//! Ollama's native `/api/chat`: `message.tool_calls[].function` with the arguments as an
//! object and (in most versions) no id.

use serde_json::Value;

use super::{openai, BodyError, Collector, Format};

pub(super) fn read(body: &Value, out: &mut Collector<'_>) -> Result<Option<String>, BodyError> {
    let message = match body.get("message") {
        Some(message) if message.is_object() => message,
        _ if body.get("tool_calls").is_some() => body,
        _ => return Err(BodyError::Shape("not an Ollama chat response: expected `message`".to_owned())),
    };
    if let Some(reason) = cut_reason(body.get("done_reason")) {
        out.stopped(reason);
    } else if body.get("done").and_then(Value::as_bool) == Some(false) {
        // A chunk of a stream, not its end: as the stream would end there.
        out.unfinished(NOT_DONE.to_owned());
    } else if ends_turn(body.get("done_reason")) {
        out.ended_turn();
    }
    Ok(openai::read_message(message, Format::Ollama, out))
}

/// Why a response whose `done` is false, or a stream that ended before its `done` chunk,
/// runs none of its calls.
pub(crate) const NOT_DONE: &str = "the stream ended before its `done` chunk";

/// Does a `done_reason` say the response ended its turn (`stop`), on a stop token a server
/// may have stripped from its text ([`Collector::ended_turn`])? The stream reads it alike.
pub(crate) fn ends_turn(done_reason: Option<&Value>) -> bool {
    done_reason.and_then(Value::as_str) == Some("stop")
}

/// The reason a response stopped early, when its `done_reason` says it did not finish: any
/// reason but `stop` (`length`, `load`, `unload`, …).
pub(crate) fn cut_reason(done_reason: Option<&Value>) -> Option<String> {
    match done_reason.and_then(Value::as_str)? {
        "stop" => None,
        reason => Some(format!("done_reason `{}`", super::describe(Some(&Value::from(reason))))),
    }
}
