//! Which API a response comes from: [`Format`], told by name or by a body's shape.

use std::fmt;
use std::str::FromStr;

use serde_json::Value;

/// The API a response body comes from, or [`Format::Text`] for raw assistant text.
///
/// ```
/// use tool_input::calls::Format;
/// use serde_json::json;
/// assert_eq!("anthropic".parse::<Format>().unwrap(), Format::Anthropic);
/// assert_eq!(Format::detect(&json!({"candidates": []})), Some(Format::Gemini));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Format {
    /// Detect the format from the body ([`Format::detect`]); text that is not a known body
    /// is read as [`Format::Text`].
    #[default]
    Auto,
    /// OpenAI Chat Completions, and the many backends compatible with it.
    OpenAi,
    /// The OpenAI Responses API.
    Responses,
    /// The Anthropic Messages API.
    Anthropic,
    /// The Gemini API (`generateContent`).
    Gemini,
    /// Ollama's native `/api/chat`.
    Ollama,
    /// Raw assistant text with calls written into it.
    Text,
}

impl Format {
    /// The format's name, as the CLI spells it: `auto`, `openai`, `responses`, `anthropic`,
    /// `gemini`, `ollama` or `text`.
    ///
    /// ```
    /// use tool_input::calls::Format;
    /// assert_eq!(Format::OpenAi.as_str(), "openai");
    /// assert_eq!(Format::Responses.to_string(), "responses");
    /// // The name parses back to the format.
    /// assert_eq!(Format::Ollama.as_str().parse::<Format>().unwrap(), Format::Ollama);
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Auto => "auto",
            Format::OpenAi => "openai",
            Format::Responses => "responses",
            Format::Anthropic => "anthropic",
            Format::Gemini => "gemini",
            Format::Ollama => "ollama",
            Format::Text => "text",
        }
    }

    /// The dialect whose definitions a model answering in this format was shown, for the
    /// names it knows the tools by ([`crate::dialect::sent_name`]): `None` for Ollama, text
    /// and an undecided format, whose servers take any name, so the registered one was shown.
    pub(crate) fn shown_dialect(self) -> Option<crate::dialect::Dialect> {
        use crate::dialect::Dialect;
        match self {
            Format::OpenAi => Some(Dialect::OpenAi),
            Format::Responses => Some(Dialect::Responses),
            Format::Anthropic => Some(Dialect::Anthropic),
            Format::Gemini => Some(Dialect::Gemini),
            Format::Auto | Format::Ollama | Format::Text => None,
        }
    }

    /// The format of a parsed response body, by its shape, or `None`.
    ///
    /// | shape | format |
    /// |---|---|
    /// | `choices`, or a bare assistant message (`tool_calls`, `function_call`, `"role": "assistant"`) | OpenAI |
    /// | `output`, or `"object": "response"` | Responses |
    /// | `"type": "message"` with `content` blocks, or an assistant message with `content` blocks | Anthropic |
    /// | `candidates`, or a content with `parts` | Gemini |
    /// | `message` (Ollama's `/api/chat`) | Ollama |
    /// | an array of `function_call` items / `tool_use` blocks / `tool_calls` entries / parts | the same |
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::calls::Format;
    ///
    /// let chat = json!({"id": "chatcmpl-1", "object": "chat.completion", "choices": [{"index": 0,
    ///     "message": {"role": "assistant", "content": null, "tool_calls": []}}]});
    /// assert_eq!(Format::detect(&chat), Some(Format::OpenAi));
    /// let anthropic = json!({"type": "message", "role": "assistant", "content": [
    ///     {"type": "tool_use", "id": "toolu_01", "name": "get_weather", "input": {"city": "Paris"}}]});
    /// assert_eq!(Format::detect(&anthropic), Some(Format::Anthropic));
    /// let items = json!([{"type": "function_call", "call_id": "call_1", "name": "get_weather", "arguments": "{}"}]);
    /// assert_eq!(Format::detect(&items), Some(Format::Responses));
    /// assert_eq!(Format::detect(&json!({"result": "ok"})), None);
    /// ```
    pub fn detect(body: &Value) -> Option<Format> {
        match body {
            Value::Object(map) => {
                if map.get("choices").is_some_and(Value::is_array) {
                    Some(Format::OpenAi)
                } else if map.get("candidates").is_some_and(Value::is_array)
                    || map.get("parts").is_some_and(Value::is_array)
                {
                    Some(Format::Gemini)
                } else if map.get("output").is_some_and(Value::is_array)
                    || map.get("object").and_then(Value::as_str) == Some("response")
                {
                    Some(Format::Responses)
                } else if map.get("content").is_some_and(Value::is_array)
                    && (map.get("type").and_then(Value::as_str) == Some("message")
                        || map.get("role").and_then(Value::as_str) == Some("assistant"))
                {
                    Some(Format::Anthropic)
                } else if map.get("message").is_some_and(Value::is_object) {
                    Some(Format::Ollama)
                } else if map.contains_key("tool_calls")
                    || map.contains_key("function_call")
                    || map.get("role").and_then(Value::as_str) == Some("assistant")
                {
                    Some(Format::OpenAi)
                } else {
                    None
                }
            }
            Value::Array(items) => {
                let first = items.first()?;
                match first.get("type").and_then(Value::as_str) {
                    Some("function_call") | Some("message") | Some("reasoning") => Some(Format::Responses),
                    Some("tool_use") | Some("text") | Some("thinking") => Some(Format::Anthropic),
                    _ if first.get("function").is_some() => Some(Format::OpenAi),
                    _ if first.get("functionCall").is_some() || first.get("text").is_some() => {
                        Some(Format::Gemini)
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }
}

/// What an API's error response says, when `body` is one: a top-level `error` (OpenAI, Groq,
/// OpenRouter, Anthropic, Gemini, Ollama) or vLLM's `"object": "error"`. Such a body is no
/// response with calls, and never text to read them from: Groq's `tool_use_failed` error
/// quotes the model's failed attempt (`failed_generation`), which must not run.
pub(crate) fn error_response(body: &Value) -> Option<String> {
    let map = body.as_object()?;
    let error = match map.get("error") {
        Some(error @ (Value::Object(_) | Value::String(_))) => error,
        _ if map.get("object").and_then(Value::as_str) == Some("error") => body,
        _ => return None,
    };
    Some(super::describe(Some(error)))
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The error of parsing a [`Format`] from text.
///
/// ```
/// use tool_input::calls::{Format, UnknownFormat};
/// let error = "claude".parse::<Format>().unwrap_err();
/// assert_eq!(error, UnknownFormat("claude".to_owned()));
/// assert!(error.to_string().starts_with("unknown format `claude`; expected auto, openai,"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown format `{0}`; expected auto, openai, responses, anthropic, gemini, ollama or text")]
pub struct UnknownFormat(pub String);

impl FromStr for Format {
    type Err = UnknownFormat;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(match s {
            "auto" => Format::Auto,
            "openai" | "chat" => Format::OpenAi,
            "responses" => Format::Responses,
            "anthropic" => Format::Anthropic,
            "gemini" => Format::Gemini,
            "ollama" => Format::Ollama,
            "text" => Format::Text,
            other => return Err(UnknownFormat(other.to_owned())),
        })
    }
}
