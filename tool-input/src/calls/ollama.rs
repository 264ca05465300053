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
    Ok(openai::read_message(message, Format::Ollama, out))
}
