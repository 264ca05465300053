//! Tool calls from every backend, as one record.
//!
//! Every API returns tool calls in its own shape; [`parse_body`] turns a response body of
//! any of them into [`ToolCall`]s (and [`CallError`]s for calls that must not run), and
//! [`parse_text`] reads calls that a model served without a tool parser wrote into its text.
//!
//! | format | where the calls are | id | arguments |
//! |---|---|---|---|
//! | [`Format::OpenAi`] | `choices[0].message.tool_calls[].function`, the legacy `message.function_call`, the `multi_tool_use.parallel` wrapper | `id` | a JSON string (or, from some compatible backends, an object, `null`, `""`, double-encoded) |
//! | [`Format::Responses`] | `output[]` items of type `function_call` | `call_id` | a JSON string |
//! | [`Format::Anthropic`] | `content[]` blocks of type `tool_use` | `id` | `input`, an object |
//! | [`Format::Gemini`] | `candidates[0].content.parts[].functionCall` | optional `id` | `args`, an object |
//! | [`Format::Ollama`] | `message.tool_calls[].function` | none | an object |
//! | [`Format::Text`] | the text itself (see [`TextFormat`]) | in Kimi's and Mistral's formats | JSON text, Python keywords or XML parameters |
//!
//! The record keeps the provider's id byte for byte (Kimi's `functions.get_weather:0`,
//! Mistral's 9-character ids; a number, `"id": 123`, as its text `"123"`) and generates
//! one ([`generate_id`]) only when it is missing, `null` or empty. Names are matched against the known tools by one rule
//! ([`resolve_name`]). Arguments are read with the crate's own lenient parser into an
//! object; arguments that do not parse, are cut off or are not an object make a
//! [`CallError`] instead of a call, with the call's id, so the error can still be answered.
//! The arguments exactly as sent stay on the record ([`ToolCall::original`]): the
//! [`Toolbox`](crate::Toolbox) checks them again with the tool's own validator and policy,
//! so a [`Policy::Strict`](crate::Policy::Strict) tool never receives syntax that this
//! generic pre-parse repaired.
//!
//! ```
//! use tool_input::calls::{parse_body, CallOptions};
//!
//! let body = br#"{"choices": [{"message": {"role": "assistant", "tool_calls": [
//!   {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}},
//!   {"id": null, "type": "function", "function": {"name": " get_weather ", "arguments": "{\"city\": \"Rome\""}}
//! ]}}]}"#;
//! let calls = parse_body(body, &CallOptions::new().tools(["get_weather"])).unwrap();
//! assert_eq!(calls.calls[0].id, "call_1");
//! assert_eq!(calls.calls[0].arguments["city"], "Paris");
//! // The second call was cut off: it never becomes a runnable call, but keeps a fresh id.
//! assert_eq!(calls.errors[0].kind.code(), "truncated");
//! assert_eq!(calls.errors[0].name.as_deref(), Some("get_weather"));
//! assert!(calls.errors[0].id.starts_with("call_"));
//! ```

pub(crate) mod anthropic;
mod body_keys;
mod collect;
mod error;
mod format;
pub(crate) mod gemini;
mod ids;
pub(crate) mod names;
pub(crate) mod ollama;
pub(crate) mod openai;
mod options;
mod record;
pub(crate) mod responses;
pub(crate) mod text;

use serde_json::Value;

pub(crate) use body_keys::{gives_a_key_twice, BodyConflict};
pub use collect::Calls;
pub(crate) use collect::{settle_cut, settle_reused_ids, Collected, Collector};
pub(crate) use error::cut_chars;
pub(crate) use error::Unsent;
pub use error::{BodyError, CallError, CallErrorKind, MissingCall, MAX_ERROR_ARGUMENTS};
pub use format::{Format, UnknownFormat};
pub use ids::generate_id;
pub(crate) use ids::{id_conflict, id_from, rejected_message};
pub use names::{resolve_name, MatchedBy, NameMatch};
pub use options::{CallOptions, KnownTool};
use record::read_arguments;
pub(crate) use record::unknown_tool_message;
pub(crate) use record::Read;
#[cfg(test)]
pub(crate) use record::TEXTS_PARSED;
pub use record::{CallParts, OriginalArguments, ToolCall};
pub use text::TextFormat;

use crate::rejection_kind::RejectionKind;

/// Default for [`CallOptions::max_calls`].
///
/// ```
/// use tool_input::calls::{parse_value, CallOptions, DEFAULT_MAX_CALLS};
/// let blocks: Vec<_> = (0..DEFAULT_MAX_CALLS + 1)
///     .map(|n| serde_json::json!({"type": "tool_use", "id": format!("toolu_{n}"), "name": "ping", "input": {}}))
///     .collect();
/// let body = serde_json::json!({"type": "message", "role": "assistant", "content": blocks});
/// let calls = parse_value(&body, &CallOptions::new()).unwrap();
/// assert_eq!(calls.calls.len(), DEFAULT_MAX_CALLS);
/// assert_eq!(calls.errors[0].kind.code(), "too_many_calls");
/// ```
pub const DEFAULT_MAX_CALLS: usize = 128;
/// Default for [`CallOptions::max_body_bytes`]: 32 MiB.
///
/// ```
/// use tool_input::calls::{parse_body, BodyError, CallOptions, DEFAULT_MAX_BODY_BYTES};
/// let body = vec![b' '; DEFAULT_MAX_BODY_BYTES + 1];
/// let error = parse_body(&body, &CallOptions::new()).unwrap_err();
/// assert_eq!(error, BodyError::TooLarge { bytes: body.len(), limit: DEFAULT_MAX_BODY_BYTES });
/// ```
pub const DEFAULT_MAX_BODY_BYTES: usize = 32 * 1024 * 1024;

/// Read the tool calls of a response body, or of raw text with [`Format::Text`].
///
/// The body is taken as it arrives: `&str`, `String`, `&[u8]`, `Vec<u8>`, an HTTP
/// client's `Bytes` (anything that is `AsRef<[u8]>`), by reference or by value. A body
/// already parsed into a `serde_json::Value` goes to [`parse_value`].
///
/// With [`Format::Auto`], a JSON body of a known shape ([`Format::detect`]) is read as that
/// format, and anything else (text, or JSON of no known shape, such as a bare
/// `{"name": ..., "arguments": ...}`) as text; an API's error response (`{"error": …}`,
/// vLLM's `"object": "error"`) is a [`BodyError::Shape`] naming the error, since it has no
/// calls and what it quotes (Groq's `failed_generation`) must not run.
///
/// ```
/// use tool_input::calls::{parse_body, CallOptions, Format};
/// let body = br#"{"type": "message", "role": "assistant", "content": [
///   {"type": "text", "text": "Let me check."},
///   {"type": "tool_use", "id": "toolu_01", "name": "get_weather", "input": {"city": "Paris"}}]}"#;
/// let calls = parse_body(body, &CallOptions::new()).unwrap();
/// assert_eq!(calls.format, Format::Anthropic);
/// assert_eq!(calls.calls[0].id, "toolu_01");
/// assert_eq!(calls.content.as_deref(), Some("Let me check."));
/// ```
pub fn parse_body(body: impl AsRef<[u8]>, options: &CallOptions) -> Result<Calls, BodyError> {
    parse_body_bytes(body.as_ref(), options)
}

/// [`parse_body`], not generic: one copy of the reader whatever the body's type.
fn parse_body_bytes(body: &[u8], options: &CallOptions) -> Result<Calls, BodyError> {
    if body.len() > options.max_body_bytes {
        return Err(BodyError::TooLarge { bytes: body.len(), limit: options.max_body_bytes });
    }
    let text = std::str::from_utf8(body).map_err(|e| BodyError::NotUtf8 { offset: e.valid_up_to() })?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    match options.format {
        Format::Text => Ok(parse_text(text, options)),
        Format::Auto => match crate::parse::strict_value(text) {
            Ok(value) if Format::detect(&value).is_some() => {
                read_value(&value, options, body_keys::conflicts(text, &value))
            }
            // An API's error response: the request failed, and what its message quotes is no
            // call (Groq's `failed_generation` holds the call the model failed to make).
            Ok(value) => match format::error_response(&value) {
                Some(what) => Err(error_body(what)),
                None => Ok(parse_text(text, options)),
            },
            // JSON nested deeper than a body is read: refused as a named format refuses it,
            // never read as prose (its calls would be lost without a word).
            Err(error) if crate::parse::json_too_deep(text) => Err(BodyError::NotJson(error)),
            _ => Ok(parse_text(text, options)),
        },
        _ => {
            let value = crate::parse::strict_value(text).map_err(BodyError::NotJson)?;
            read_value(&value, options, body_keys::conflicts(text, &value))
        }
    }
}

/// The error of a body that is an API's error response, which says `what`.
fn error_body(what: String) -> BodyError {
    BodyError::Shape(format!(
        "the body is an error response (`{what}`), not a response with tool calls; nothing in it was read as a call"
    ))
}

/// Read the tool calls of a parsed response body.
///
/// With [`Format::Auto`] the format is detected ([`Format::detect`]); a body of no known
/// shape is a [`BodyError::Shape`]. With [`Format::Text`] the body must be a string.
///
/// ```
/// use serde_json::json;
/// use tool_input::calls::{parse_value, CallOptions, Format};
///
/// // Gemini: no id was sent, so one is generated.
/// let body = json!({"candidates": [{"content": {"parts": [
///     {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}}]}}]});
/// let calls = parse_value(&body, &CallOptions::new()).unwrap();
/// assert_eq!(calls.format, Format::Gemini);
/// assert!(calls.calls[0].id_generated);
/// ```
pub fn parse_value(body: &Value, options: &CallOptions) -> Result<Calls, BodyError> {
    read_value(body, options, Vec::new())
}

/// [`parse_value`], with the keys the body's text gave twice with different values
/// (`conflicts`): a call that holds one is a `duplicate_key` error, and one that decides the
/// response's calls (its `choices`, a `finish_reason`, …) makes every call one.
fn read_value(body: &Value, options: &CallOptions, conflicts: Vec<BodyConflict>) -> Result<Calls, BodyError> {
    let format = match options.format {
        Format::Auto => Format::detect(body).ok_or_else(|| match format::error_response(body) {
            Some(what) => error_body(what),
            None => BodyError::Shape(
                "the body is not a response of a known API (OpenAI, Responses, Anthropic, Gemini, Ollama)"
                    .to_owned(),
            ),
        })?,
        Format::Text => {
            return match body {
                Value::String(text) => Ok(parse_text(text, options)),
                _ => Err(BodyError::Shape("a text body must be a JSON string".to_owned())),
            }
        }
        format => format,
    };
    let mut out = Collector::new(options);
    out.set_conflicts(conflicts);
    let content = match format {
        Format::OpenAi => openai::read(body, &mut out)?,
        Format::Responses => responses::read(body, &mut out)?,
        Format::Anthropic => anthropic::read(body, &mut out)?,
        Format::Gemini => gemini::read(body, &mut out)?,
        Format::Ollama => ollama::read(body, &mut out)?,
        Format::Auto | Format::Text => None,
    };
    // Backends served without a tool parser put the calls into the content.
    let mut source = None;
    let mut reasoning = None;
    let content = match content {
        Some(text) if options.scan_content && out.attempts() == 0 && !text.is_empty() => {
            let read = text::extract(&text, text::Mode::Content, &mut out);
            reasoning = read.reasoning;
            source = Some(read.visible.unwrap_or(text));
            Some(read.content)
        }
        // Calls came natively: the content is not read for calls, but its reasoning is
        // still not content.
        Some(text) if options.scan_content => {
            let split = text::reasoning::split(&text);
            reasoning = split.reasoning;
            Some(split.visible.into_owned())
        }
        other => other,
    };
    let mut calls = out.finish(format, content, source.as_deref());
    calls.reasoning = reasoning;
    settle_reused_ids(&mut calls);
    Ok(calls)
}

/// Read tool calls a model wrote into its text, leaving the rest as
/// [`Calls::content`]. See [`TextFormat`] for the formats and how a call is told from prose.
///
/// ```
/// use tool_input::calls::{parse_text, CallOptions};
/// let text = "Let me check. <tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}</tool_call>";
/// let calls = parse_text(text, &CallOptions::new());
/// assert_eq!(calls.calls[0].name, "get_weather");
/// assert_eq!(calls.content.as_deref(), Some("Let me check. "));
/// ```
pub fn parse_text(text: &str, options: &CallOptions) -> Calls {
    let mut out = Collector::new(options);
    if text.len() > options.max_body_bytes {
        let message = format!(
            "The text is {} bytes long, more than the limit of {}; no tool call was read from it.",
            text.len(),
            options.max_body_bytes
        );
        out.push_failed(
            CallParts::new(Format::Text),
            CallErrorKind::Arguments(RejectionKind::TooLarge),
            message,
        );
        return out.finish(Format::Text, None, None);
    }
    let read = text::extract(text, text::Mode::Text, &mut out);
    let mut calls =
        out.finish(Format::Text, Some(read.content), Some(read.visible.as_deref().unwrap_or(text)));
    calls.reasoning = read.reasoning;
    settle_reused_ids(&mut calls);
    calls
}

/// The text of an OpenAI-style `content`: a string, or the `text` of an array of parts.
pub(crate) fn content_text(content: Option<&Value>) -> Option<String> {
    match content? {
        Value::String(text) => Some(text.clone()),
        Value::Array(parts) => {
            let texts: Vec<&str> = parts
                .iter()
                .filter(|part| {
                    matches!(
                        part.get("type").and_then(Value::as_str),
                        None | Some("text") | Some("output_text")
                    )
                })
                .filter_map(|part| part.get("text").and_then(Value::as_str))
                .collect();
            if texts.is_empty() {
                None
            } else {
                Some(texts.join("\n"))
            }
        }
        _ => None,
    }
}

/// A short, bounded description of a reason a response gave (a string, or an error
/// object's `type`, `code` or `message`), for messages.
pub(crate) fn describe(value: Option<&Value>) -> String {
    let text = match value {
        Some(Value::String(text)) => text.clone(),
        Some(Value::Object(map)) => map
            .get("type")
            .or_else(|| map.get("code"))
            .or_else(|| map.get("message"))
            .and_then(Value::as_str)
            .unwrap_or("error")
            .to_owned(),
        _ => "error".to_owned(),
    };
    text.chars().take(60).collect()
}

/// The choice numbers given to more than one choice of a response.
pub(crate) fn repeated(numbers: &[usize]) -> std::collections::HashSet<usize> {
    let mut seen = std::collections::HashSet::new();
    numbers.iter().copied().filter(|number| !seen.insert(*number)).collect()
}

/// An id field, read by [`id_from`].
pub(crate) fn id_of(value: Option<&Value>) -> Option<String> {
    id_from(value?)
}

/// Arguments as a JSON field carries them: a string is text to parse, anything else a value.
pub(crate) fn arguments_of(value: Option<&Value>) -> OriginalArguments {
    match value {
        None => OriginalArguments::Absent,
        Some(Value::String(text)) => OriginalArguments::Text(text.clone()),
        Some(other) => OriginalArguments::Value(other.clone()),
    }
}

/// Push a call, or the calls inside a `multi_tool_use.parallel` wrapper.
///
/// Some models emit one call to a wrapper tool whose arguments list the real calls:
/// `{"tool_uses": [{"recipient_name": "functions.get_weather", "parameters": {...}}]}`. The
/// wrapper is unwrapped when its name is `multi_tool_use.parallel`, or `parallel` when no
/// known tool has that name and every recipient is `functions.<name>`. The calls inside get
/// the ids `<wrapper id>_<n>` (n from 0), so answers can be matched to the wrapper; their
/// `raw` is the `tool_uses` entry.
///
/// `read`: the arguments' text already read, as for [`Collector::push_read`].
pub(crate) fn push_unwrapping(parts: CallParts, read: Option<Read>, out: &mut Collector<'_>) {
    let Some(uses) = parallel_uses(&parts, read.as_ref(), out.options) else {
        out.push_read(parts, read);
        return;
    };
    let wrapper_id = parts.id.filter(|id| !id.is_empty());
    for (n, entry) in uses.into_iter().enumerate() {
        let name = entry
            .get("recipient_name")
            .and_then(Value::as_str)
            .map(|name| name.trim().strip_prefix("functions.").unwrap_or(name.trim()).to_owned());
        out.push(CallParts {
            id: wrapper_id.as_ref().map(|id| format!("{id}_{n}")),
            name,
            arguments: arguments_of(entry.get("parameters")),
            format: parts.format,
            raw: entry,
            index: 0,
        });
        if out.is_full() {
            break;
        }
    }
}

fn parallel_uses(parts: &CallParts, read: Option<&Read>, options: &CallOptions) -> Option<Vec<Value>> {
    let name = parts.name.as_deref()?.trim();
    let plain = name == "parallel";
    if name != "multi_tool_use.parallel" && !(plain && options.knows(name) != Some(true)) {
        return None;
    }
    let (arguments, _, _) = read_arguments(&parts.arguments, &options.limits, read.cloned()).ok()?;
    let uses = arguments.get("tool_uses")?.as_array()?;
    let well_formed = !uses.is_empty()
        && uses.iter().all(|entry| match entry.get("recipient_name").and_then(Value::as_str) {
            Some(recipient) => !plain || recipient.trim().starts_with("functions."),
            None => false,
        });
    well_formed.then(|| uses.clone())
}
