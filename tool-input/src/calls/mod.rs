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
pub(crate) mod gemini;
mod ids;
pub(crate) mod names;
pub(crate) mod ollama;
pub(crate) mod openai;
pub(crate) mod responses;
pub(crate) mod text;

use std::fmt;
use std::str::FromStr;

use serde::ser::{Serialize, SerializeStruct, Serializer};
use serde_json::{json, Map, Value};

pub use ids::generate_id;
pub(crate) use ids::id_from;
pub use names::{resolve_name, MatchedBy, NameMatch};
pub use text::TextFormat;

use crate::error::{Rejection, RejectionKind};
use crate::limits::Limits;
use crate::parse::{self, ParseMode, ParseOptions, Repair};
use crate::raw::RawArguments;
use crate::tool::ToolDefinition;

/// Default for [`CallOptions::max_calls`].
pub const DEFAULT_MAX_CALLS: usize = 128;
/// Default for [`CallOptions::max_body_bytes`]: 32 MiB.
pub const DEFAULT_MAX_BODY_BYTES: usize = 32 * 1024 * 1024;

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

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The error of parsing a [`Format`] from text.
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

/// A call's arguments exactly as they were sent, owned: the text of a JSON string, or the
/// value a backend sent already parsed (Anthropic `input`, Gemini `args`, Ollama's object,
/// the parameters built from a text format's XML or Python keywords).
///
/// ```
/// use tool_input::calls::OriginalArguments;
/// use tool_input::RawArguments;
/// let sent = OriginalArguments::Text(r#"{"city": "Paris"}"#.to_owned());
/// assert!(matches!(sent.as_raw(), RawArguments::Text(_)));
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub enum OriginalArguments {
    /// No arguments were sent.
    #[default]
    Absent,
    /// Arguments as text (OpenAI's JSON string, the span of a text-emitted call).
    Text(String),
    /// Arguments as a JSON value.
    Value(Value),
}

impl OriginalArguments {
    /// Borrow as [`RawArguments`], for [`ToolDefinition::check_with`] and
    /// [`ToolInput::from_arguments_with`](crate::ToolInput::from_arguments_with).
    pub fn as_raw(&self) -> RawArguments<'_> {
        match self {
            OriginalArguments::Absent => RawArguments::Absent,
            OriginalArguments::Text(text) => RawArguments::Text(text),
            OriginalArguments::Value(value) => RawArguments::Value(value),
        }
    }

    /// The arguments as text, as sent: the text itself, or a value's compact JSON; `None`
    /// when no arguments were sent.
    ///
    /// ```
    /// use tool_input::calls::OriginalArguments;
    /// assert_eq!(OriginalArguments::Value(serde_json::json!({"a": 1})).to_text().as_deref(), Some(r#"{"a":1}"#));
    /// assert_eq!(OriginalArguments::Absent.to_text(), None);
    /// ```
    pub fn to_text(&self) -> Option<String> {
        match self {
            OriginalArguments::Absent => None,
            OriginalArguments::Text(text) => Some(text.clone()),
            OriginalArguments::Value(value) => Some(value.to_string()),
        }
    }

    /// The arguments as a JSON value for diagnostics: text stays a string.
    pub fn to_value(&self) -> Value {
        match self {
            OriginalArguments::Absent => Value::Null,
            OriginalArguments::Text(text) => Value::String(text.clone()),
            OriginalArguments::Value(value) => value.clone(),
        }
    }
}

/// One tool call, normalized from whichever API or text format it came in.
///
/// `arguments` is the object the crate's lenient parser read from what was sent; it is for
/// routing, logging and display. To run a tool, check [`ToolCall::original`] with the
/// tool's own definition ([`ToolDefinition::check_with`], or let the
/// [`Toolbox`](crate::Toolbox) do it), so the tool's policy decides which repairs are
/// acceptable.
///
/// Built by [`parse_body`], [`parse_value`], [`parse_text`], or from parts with
/// [`CallParts::finish`] (for example by a streaming assembler).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ToolCall {
    /// The provider's id, byte for byte, or a generated one ([`ToolCall::id_generated`]).
    pub id: String,
    /// True when the provider sent no usable id and [`generate_id`] made this one.
    pub id_generated: bool,
    /// The tool's name: the registered name when the known tools were given (see
    /// [`resolve_name`]), otherwise the sent name without surrounding whitespace.
    pub name: String,
    /// The name exactly as sent.
    pub name_sent: String,
    /// How the sent name matched the registered one ([`resolve_name`]); `None` when no
    /// tools were known.
    pub matched_by: Option<MatchedBy>,
    /// The arguments, parsed leniently into an object.
    pub arguments: Map<String, Value>,
    /// The syntax repairs the lenient parse needed (empty for exact JSON).
    pub repairs: Vec<Repair>,
    /// The arguments exactly as sent.
    pub original: OriginalArguments,
    /// Where the call came from.
    pub format: Format,
    /// The call as received, for diagnostics: the JSON item of a response body, or the text
    /// span of a text-emitted call (as a JSON string).
    pub raw: Value,
    /// Position among the call attempts of the response (calls and errors share it).
    pub index: usize,
    /// The choice (OpenAI `choices[n]`, Gemini `candidates[n]`) the call came from: 0 but
    /// in a response with several (`n > 1`), read with [`CallOptions::all_choices`].
    pub choice: usize,
}

/// `{"id", "name", "arguments"}`, as `tool-input calls` prints each call: what a program in
/// another language needs to run it and answer it.
impl Serialize for ToolCall {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut record = serializer.serialize_struct("ToolCall", 3)?;
        record.serialize_field("id", &self.id)?;
        record.serialize_field("name", &self.name)?;
        record.serialize_field("arguments", &self.arguments)?;
        record.end()
    }
}

/// The parts of a call before it is read: what [`CallParts::finish`] turns into a
/// [`ToolCall`] or a [`CallError`]. Every reader in this module builds calls this way, and
/// so can a streaming assembler, so all produce the same record by the same rules.
///
/// ```
/// use tool_input::calls::{CallOptions, CallParts, Format, OriginalArguments};
/// let parts = CallParts {
///     id: Some("functions.get_weather:0".to_owned()),
///     name: Some("get_weather".to_owned()),
///     arguments: OriginalArguments::Text(r#"{"city": "Paris"}"#.to_owned()),
///     ..CallParts::new(Format::OpenAi)
/// };
/// let call = parts.finish(&CallOptions::new()).unwrap();
/// assert_eq!(call.id, "functions.get_weather:0");
/// assert!(!call.id_generated);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct CallParts {
    /// The id as sent; `None` or empty gets a generated one.
    pub id: Option<String>,
    /// The name as sent; `None` or blank makes a [`CallErrorKind::Malformed`] error.
    pub name: Option<String>,
    /// The arguments as sent.
    pub arguments: OriginalArguments,
    /// Where the call came from.
    pub format: Format,
    /// The call as received, for diagnostics.
    pub raw: Value,
    /// Position among the response's call attempts.
    pub index: usize,
}

impl CallParts {
    /// Empty parts for a format: no id, no name, no arguments.
    pub fn new(format: Format) -> Self {
        CallParts {
            id: None,
            name: None,
            arguments: OriginalArguments::Absent,
            format,
            raw: Value::Null,
            index: 0,
        }
    }

    /// Read the parts into a call: keep or generate the id, match the name
    /// ([`resolve_name`], when [`CallOptions::tools`] are known), and parse the arguments
    /// leniently into an object. A missing name, an unknown tool, or arguments that do not
    /// parse, are cut off or are not an object give a [`CallError`] carrying the call's id.
    // A `CallError` is as ordinary an outcome as a `ToolCall` (and as large): `Calls` keeps
    // both by value, so boxing it would only add an allocation.
    #[allow(clippy::result_large_err)]
    pub fn finish(self, options: &CallOptions) -> Result<ToolCall, CallError> {
        let (id, id_generated) = match self.id.as_deref() {
            Some(id) if !id.is_empty() => (id.to_owned(), false),
            _ => (generate_id(), true),
        };
        let name_sent = self.name.clone().unwrap_or_default();
        let trimmed = name_sent.trim();
        let mut error = CallError {
            kind: CallErrorKind::Malformed,
            message: String::new(),
            id,
            id_generated,
            name: None,
            name_sent: self.name.clone(),
            rejection: None,
            original: self.arguments.clone(),
            format: self.format,
            raw: self.raw.clone(),
            index: self.index,
            choice: 0,
        };
        if trimmed.is_empty() {
            error.message =
                "The tool call has no tool name, so nothing was run. Call a tool by its name.".to_owned();
            return Err(error);
        }
        let (name, matched_by) = match &options.tools {
            None => (trimmed.to_owned(), None),
            Some(tools) => {
                let names: Vec<&str> = tools.iter().map(|tool| tool.name.as_str()).collect();
                match names::resolve_with_sent_names(&name_sent, &names, &options.sent_names) {
                    NameMatch::Found(name, by) => (name.to_owned(), Some(by)),
                    NameMatch::Ambiguous(candidates) => {
                        error.kind = CallErrorKind::UnknownTool;
                        error.name = Some(trimmed.to_owned());
                        error.message = format!(
                            "The tool name `{trimmed}` matches several tools ({}); nothing was run. Call one of them by its exact name.",
                            candidates.join(", ")
                        );
                        return Err(error);
                    }
                    NameMatch::Unknown => {
                        error.kind = CallErrorKind::UnknownTool;
                        error.name = Some(trimmed.to_owned());
                        error.message = unknown_tool_message(trimmed, &names);
                        return Err(error);
                    }
                }
            }
        };
        match read_arguments(&self.arguments, &options.limits) {
            Ok((arguments, repairs)) => Ok(ToolCall {
                id: error.id,
                id_generated,
                name,
                name_sent,
                matched_by,
                arguments,
                repairs,
                original: self.arguments,
                format: self.format,
                raw: self.raw,
                index: self.index,
                choice: 0,
            }),
            Err(rejection) => {
                let rejection = rejection.with_tool(&name);
                error.kind = CallErrorKind::Arguments(rejection.kind);
                error.message = rejection.to_string();
                error.rejection = Some(rejection);
                error.name = Some(name);
                Err(error)
            }
        }
    }

    /// A [`CallError`] of `kind` for these parts (an id is generated if needed).
    pub(crate) fn fail(self, kind: CallErrorKind, message: String) -> CallError {
        let (id, id_generated) = match self.id {
            Some(id) if !id.is_empty() => (id, false),
            _ => (generate_id(), true),
        };
        CallError {
            kind,
            message,
            id,
            id_generated,
            name: self.name.as_deref().map(str::trim).filter(|name| !name.is_empty()).map(str::to_owned),
            name_sent: self.name,
            rejection: None,
            original: self.arguments,
            format: self.format,
            raw: self.raw,
            index: self.index,
            choice: 0,
        }
    }
}

/// The message for a call to a tool that is not registered: the tools that are.
pub(crate) fn unknown_tool_message(name: &str, available: &[&str]) -> String {
    if available.is_empty() {
        format!("The tool `{name}` does not exist and no tools are available; nothing was run.")
    } else {
        format!(
            "The tool `{name}` does not exist; nothing was run. Available tools: {}.",
            available.join(", ")
        )
    }
}

/// Parse arguments leniently into an object, as the engine would under the default policy.
fn read_arguments(
    original: &OriginalArguments,
    limits: &Limits,
) -> Result<(Map<String, Value>, Vec<Repair>), Rejection> {
    let options = ParseOptions {
        mode: ParseMode::Lenient,
        max_bytes: limits.max_bytes,
        max_depth: limits.max_depth,
        ..ParseOptions::default()
    };
    let parsed = match original {
        OriginalArguments::Absent | OriginalArguments::Value(Value::Null) => {
            return Ok((Map::new(), Vec::new()))
        }
        OriginalArguments::Value(Value::Object(map)) => return Ok((map.clone(), Vec::new())),
        OriginalArguments::Text(text) | OriginalArguments::Value(Value::String(text)) => {
            if text.trim().is_empty() {
                return Ok((Map::new(), Vec::new()));
            }
            parse::parse(text, &options).map_err(Rejection::from_parse)?
        }
        OriginalArguments::Value(other) => parse::Parsed { value: other.clone(), repairs: Vec::new() },
    };
    match parsed.value {
        Value::Object(map) => Ok((map, parsed.repairs)),
        other => {
            let message = format!(
                "the arguments must be a JSON object with named fields, not {}",
                crate::check::kind_of(&other)
            );
            let mut rejection =
                Rejection::whole(RejectionKind::NotObject, crate::ErrorCode::NotObject, message);
            rejection.repairs = parsed.repairs;
            Err(rejection)
        }
    }
}

/// Why a call attempt did not become a runnable [`ToolCall`]. `code()` gives the stable
/// snake_case name.
///
/// ```
/// use tool_input::calls::{parse_body, CallErrorKind, CallOptions};
/// use tool_input::RejectionKind;
///
/// let body = r#"{"choices": [{"message": {"tool_calls": [{"id": "call_1", "type": "function",
///     "function": {"name": "f", "arguments": "[1, 2]"}}]}}]}"#;
/// let calls = parse_body(body.as_bytes(), &CallOptions::new()).unwrap();
/// assert_eq!(calls.errors[0].kind, CallErrorKind::Arguments(RejectionKind::NotObject));
/// assert_eq!(calls.errors[0].kind.code(), "not_object");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CallErrorKind {
    /// The arguments were refused before any schema was applied, for the reason the
    /// [`RejectionKind`] gives: not JSON even after the lenient repairs (`Parse`), cut off
    /// (`Truncated`, also a text-emitted call or a stream stopped inside a call), JSON but not
    /// an object (`NotObject`), larger than [`Limits::max_bytes`] or a streamed call's limit
    /// (`TooLarge`), nested deeper than [`Limits::max_depth`] (`TooDeep`). Never `Invalid`:
    /// the schema is checked when the call is run.
    Arguments(RejectionKind),
    /// The tool is not one of [`CallOptions::tools`].
    UnknownTool,
    /// The call has no name, or its text form could not be read.
    Malformed,
    /// The response has more calls than [`CallOptions::max_calls`]; the rest were dropped.
    TooManyCalls,
    /// The call arrived whole, but the response it came in was cut off (a length stop, a
    /// stream without its end marker, an error): nothing of a cut response runs unless
    /// [`CallOptions::run_completed_calls`] says so. Its arguments stay on the record.
    Incomplete,
    /// The stream passed [`StreamAssembler::max_stream_bytes`](crate::stream::StreamAssembler::max_stream_bytes):
    /// nothing after the limit was read.
    StreamTooLarge,
    /// The call is in another choice than the one read ([`CallOptions::choice`]) of a
    /// response with several; it is reported, never run.
    OtherChoice,
}

impl CallErrorKind {
    /// `parse`, `truncated`, `not_object`, `too_large`, `too_deep` (the [`RejectionKind`]'s
    /// code), `unknown_tool`, `malformed`, `too_many_calls`, `incomplete`, `stream_too_large`
    /// or `other_choice`.
    pub fn code(self) -> &'static str {
        match self {
            CallErrorKind::Arguments(kind) => kind.code(),
            CallErrorKind::UnknownTool => "unknown_tool",
            CallErrorKind::Malformed => "malformed",
            CallErrorKind::TooManyCalls => "too_many_calls",
            CallErrorKind::Incomplete => "incomplete",
            CallErrorKind::StreamTooLarge => "stream_too_large",
            CallErrorKind::OtherChoice => "other_choice",
        }
    }
}

/// The [`CallErrorKind::code`].
impl Serialize for CallErrorKind {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.code())
    }
}

impl fmt::Display for CallErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A call attempt that must not run, with everything needed to answer it: the id (the
/// provider's, or a generated one), the name when known, and a message for the model.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct CallError {
    /// What went wrong.
    pub kind: CallErrorKind,
    /// The text to send back to the model.
    pub message: String,
    /// The call's id, so a tool result can answer it.
    pub id: String,
    /// True when the id was generated.
    pub id_generated: bool,
    /// The tool's name, when one was read: the registered name when the name matched a
    /// known tool, otherwise the sent name without surrounding whitespace.
    pub name: Option<String>,
    /// The name exactly as sent, when one was sent.
    pub name_sent: Option<String>,
    /// The rejection of the arguments, for the parse kinds.
    pub rejection: Option<Rejection>,
    /// The arguments exactly as sent.
    pub original: OriginalArguments,
    /// Where the call came from.
    pub format: Format,
    /// The call as received.
    pub raw: Value,
    /// Position among the response's call attempts.
    pub index: usize,
    /// The choice the call came from, as [`ToolCall::choice`].
    pub choice: usize,
}

/// `{"kind", "message", "id", "id_generated", "name", "arguments", "arguments_cut"}`, as
/// `tool-input calls` prints each error: what is needed to answer the call and log what
/// arrived. `name` is the name exactly as sent (`null` when none was); `arguments` the
/// arguments exactly as sent, as text (a JSON value a backend sent already parsed is written
/// as compact JSON; `null` when none were sent), cut to [`MAX_ERROR_ARGUMENTS`] characters,
/// with `arguments_cut` true when they were cut.
impl Serialize for CallError {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (arguments, cut) = match self.original.to_text() {
            Some(text) => {
                let (text, cut) = cut_chars(text, MAX_ERROR_ARGUMENTS);
                (Some(text), cut)
            }
            None => (None, false),
        };
        let mut record = serializer.serialize_struct("CallError", 7)?;
        record.serialize_field("kind", &self.kind)?;
        record.serialize_field("message", &self.message)?;
        record.serialize_field("id", &self.id)?;
        record.serialize_field("id_generated", &self.id_generated)?;
        record.serialize_field("name", &self.name_sent)?;
        record.serialize_field("arguments", &arguments)?;
        record.serialize_field("arguments_cut", &cut)?;
        record.end()
    }
}

impl fmt::Display for CallError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CallError {}

/// The tool calls of one response: the runnable calls, the attempts that must not run, and
/// the text left for the user.
#[derive(Debug, Clone, PartialEq, Default)]
#[non_exhaustive]
pub struct Calls {
    /// The calls, in the order they were sent.
    pub calls: Vec<ToolCall>,
    /// The attempts that are not runnable calls, in the order they were sent.
    pub errors: Vec<CallError>,
    /// The assistant's text: the message content of a structured response, or the text left
    /// once text-emitted calls were taken out of it. `None` when the response had none.
    pub content: Option<String>,
    /// The format the response was read as.
    pub format: Format,
}

impl Calls {
    /// True when every call attempt became a runnable call.
    pub fn is_ok(&self) -> bool {
        self.errors.is_empty()
    }

    /// Calls and errors together, in the order they were sent: answer every entry so no
    /// call id goes unanswered.
    ///
    /// ```
    /// use tool_input::calls::{parse_text, CallOptions};
    /// let text = r#"<tool_call>{"name": "a", "arguments": "{"}</tool_call><tool_call>{"name": "b", "arguments": {}}</tool_call>"#;
    /// let calls = parse_text(text, &CallOptions::new());
    /// let order: Vec<bool> = calls.in_order().map(|entry| entry.is_ok()).collect();
    /// assert_eq!(order, [false, true]);
    /// ```
    pub fn in_order(&self) -> impl Iterator<Item = Result<&ToolCall, &CallError>> {
        let mut entries: Vec<(usize, Result<&ToolCall, &CallError>)> = self
            .calls
            .iter()
            .map(|call| (call.index, Ok(call)))
            .chain(self.errors.iter().map(|error| (error.index, Err(error))))
            .collect();
        entries.sort_by_key(|(index, _)| *index);
        entries.into_iter().map(|(_, entry)| entry)
    }

    /// `{"calls": [{"id", "name", "arguments"}], "errors": [{"kind", "message", "id",
    /// "id_generated", "name", "arguments", "arguments_cut"}]}`, as the CLI prints it: the
    /// [`Serialize`] shape, as a value.
    ///
    /// An error carries what is needed to answer the call and log what arrived: its `id`
    /// (the provider's, or a generated one when `id_generated`), its `name` exactly as sent
    /// (`null` when none was), and its `arguments` exactly as sent, as text (a JSON value
    /// a backend sent already parsed is written as compact JSON; `null` when none were
    /// sent), cut to [`MAX_ERROR_ARGUMENTS`] characters; `arguments_cut` is `true` when
    /// they were cut.
    ///
    /// ```
    /// use tool_input::calls::{parse_body, CallOptions};
    /// let body = br#"{"choices": [{"message": {"tool_calls": [{"id": 7, "type": "function",
    ///   "function": {"name": "functions.get_weather", "arguments": "{\"city\": \"Ro"}}]}}]}"#;
    /// let json = parse_body(body, &CallOptions::new()).unwrap().to_json();
    /// assert_eq!(json["errors"][0]["kind"], "truncated");
    /// assert_eq!(json["errors"][0]["id"], "7");
    /// assert_eq!(json["errors"][0]["name"], "functions.get_weather");
    /// assert_eq!(json["errors"][0]["arguments"], r#"{"city": "Ro"#);
    /// assert_eq!(json["errors"][0]["arguments_cut"], false);
    /// ```
    pub fn to_json(&self) -> Value {
        json!(self)
    }
}

/// `{"calls": [{"id", "name", "arguments"}], "errors": [{"kind", "message", "id", "id_generated",
/// "name", "arguments", "arguments_cut"}]}`: the
/// [`ToolCall`] and [`CallError`] records, as `tool-input calls` prints them.
///
/// ```
/// use tool_input::calls::{parse_text, CallOptions};
/// let calls = parse_text(r#"<tool_call>{"name": "ping", "arguments": {"n": 1}}</tool_call>"#, &CallOptions::new());
/// let json = serde_json::to_value(&calls).unwrap();
/// assert_eq!(json["calls"][0]["name"], "ping");
/// assert_eq!(json["calls"][0]["arguments"], serde_json::json!({"n": 1}));
/// assert_eq!(json["errors"], serde_json::json!([]));
/// ```
impl Serialize for Calls {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut record = serializer.serialize_struct("Calls", 2)?;
        record.serialize_field("calls", &self.calls)?;
        record.serialize_field("errors", &self.errors)?;
        record.end()
    }
}

/// The most characters of an error's arguments [`Calls::to_json`] prints.
pub const MAX_ERROR_ARGUMENTS: usize = 4096;

/// `text` cut to at most `max` characters, and whether it was cut.
pub(crate) fn cut_chars(mut text: String, max: usize) -> (String, bool) {
    match text.char_indices().nth(max) {
        Some((end, _)) => {
            text.truncate(end);
            (text, true)
        }
        None => (text, false),
    }
}

/// A tool the reader may meet: its name, and its schema when the tool is typed (text formats
/// that send every parameter as text, qwen3-coder's and GLM's, convert values by it).
#[derive(Debug, Clone, PartialEq)]
pub struct KnownTool {
    /// The registered name.
    pub name: String,
    /// The JSON Schema of its arguments, if known.
    pub schema: Option<Value>,
}

/// How to read calls: the format, the known tools, limits.
///
/// ```
/// use tool_input::calls::{CallOptions, Format, TextFormat};
/// let options = CallOptions::new()
///     .format(Format::Text)
///     .tools(["get_weather", "get_time"])
///     .text_format(TextFormat::Hermes)
///     .max_calls(16);
/// # let _ = options;
/// ```
#[derive(Debug, Clone)]
pub struct CallOptions {
    format: Format,
    tools: Option<Vec<KnownTool>>,
    sent_names: Vec<(String, String)>,
    text_format: Option<TextFormat>,
    scan_content: bool,
    limits: Limits,
    max_calls: usize,
    max_body_bytes: usize,
    choice: usize,
    all_choices: bool,
    run_completed: bool,
}

impl Default for CallOptions {
    fn default() -> Self {
        CallOptions {
            format: Format::Auto,
            tools: None,
            sent_names: Vec::new(),
            text_format: None,
            scan_content: true,
            limits: Limits::default(),
            max_calls: DEFAULT_MAX_CALLS,
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            choice: 0,
            all_choices: false,
            run_completed: false,
        }
    }
}

impl CallOptions {
    /// Detect the format, no known tools, default limits.
    pub fn new() -> Self {
        Self::default()
    }

    /// The format of the body ([`Format::Auto`] by default).
    pub fn format(mut self, format: Format) -> Self {
        self.format = format;
        self
    }

    /// The names of the tools the model was given. Sent names are matched against them by
    /// [`resolve_name`]; a call to another name is a [`CallErrorKind::UnknownTool`] error,
    /// and text that merely looks like a call (a bare JSON object, a Python list) is a call
    /// only when its name is one of them.
    pub fn tools<I, S>(mut self, names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.tools =
            Some(names.into_iter().map(|name| KnownTool { name: name.into(), schema: None }).collect());
        self
    }

    /// The tools the model was given, with their schemas.
    pub fn known_tools(mut self, tools: Vec<KnownTool>) -> Self {
        self.tools = Some(tools);
        self
    }

    /// The tools the model was given, from their definitions (names and schemas).
    pub fn definitions<'d>(self, definitions: impl IntoIterator<Item = &'d ToolDefinition>) -> Self {
        let tools = definitions
            .into_iter()
            .map(|definition| KnownTool {
                name: definition.name().to_owned(),
                schema: Some(definition.schema().clone()),
            })
            .collect();
        self.known_tools(tools)
    }

    /// A tool's definition was sent under `sent` (a name the provider accepts) instead of
    /// its registered name `registered`: a call to `sent` is a call to `registered`
    /// ([`MatchedBy::SentName`]). The [`Toolbox`](crate::Toolbox) adds one for each name
    /// [`crate::dialect::sent_name`] changes.
    ///
    /// ```
    /// use tool_input::calls::{parse_body, CallOptions, MatchedBy};
    /// let long = format!("weather.{}", "x".repeat(60));
    /// let sent = tool_input::dialect::sent_name(&long, tool_input::Dialect::OpenAi).into_owned();
    /// assert_eq!(sent.len(), 64);
    /// let options = CallOptions::new().tools([long.clone()]).sent_name(sent.clone(), long.clone());
    /// let body = serde_json::json!({"type": "message", "role": "assistant", "content": [
    ///     {"type": "tool_use", "id": "toolu_1", "name": sent, "input": {}}]});
    /// let calls = parse_body(body.to_string().as_bytes(), &options).unwrap();
    /// assert_eq!(calls.calls[0].name, long);
    /// assert_eq!(calls.calls[0].matched_by, Some(MatchedBy::SentName));
    /// ```
    pub fn sent_name(mut self, sent: impl Into<String>, registered: impl Into<String>) -> Self {
        self.sent_names.push((sent.into(), registered.into()));
        self
    }

    /// Read text-emitted calls in this format only (by default every format is tried).
    pub fn text_format(mut self, format: TextFormat) -> Self {
        self.text_format = Some(format);
        self
    }

    /// Whether the text content of a structured response with no native calls is searched
    /// for text-emitted calls (on by default). Only calls with explicit markers (`<tool_call>`,
    /// `[TOOL_CALLS]`, special tokens) are taken from such content, plus bare JSON or Python
    /// calls whose names are all [known tools](CallOptions::tools).
    pub fn scan_content(mut self, scan: bool) -> Self {
        self.scan_content = scan;
        self
    }

    /// Limits for each call's arguments (size, depth).
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Most calls read from one response (default [`DEFAULT_MAX_CALLS`]); more give one
    /// [`CallErrorKind::TooManyCalls`] error and are dropped.
    pub fn max_calls(mut self, max_calls: usize) -> Self {
        self.max_calls = max_calls;
        self
    }

    /// Largest body accepted, in bytes (default [`DEFAULT_MAX_BODY_BYTES`]).
    pub fn max_body_bytes(mut self, max_body_bytes: usize) -> Self {
        self.max_body_bytes = max_body_bytes;
        self
    }

    /// Which choice (OpenAI `choices`) or candidate (Gemini `candidates`) to read; the first
    /// by default. The calls of the other choices of a response with several (`n > 1`) are
    /// never dropped silently: each is a [`CallErrorKind::OtherChoice`] error tagged with
    /// its choice ([`CallError::choice`]), unless [`all_choices`](CallOptions::all_choices).
    ///
    /// ```
    /// use tool_input::calls::{parse_body, CallOptions};
    /// let body = br#"{"choices": [
    ///   {"index": 0, "message": {"tool_calls": [{"id": "a", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}, "finish_reason": "tool_calls"},
    ///   {"index": 1, "message": {"tool_calls": [{"id": "b", "type": "function", "function": {"name": "g", "arguments": "{}"}}]}, "finish_reason": "tool_calls"}]}"#;
    /// let calls = parse_body(body, &CallOptions::new()).unwrap();
    /// assert_eq!(calls.calls[0].name, "f");
    /// assert_eq!(calls.errors[0].kind.code(), "other_choice");
    /// assert_eq!(calls.errors[0].choice, 1);
    /// let calls = parse_body(body, &CallOptions::new().choice(1)).unwrap();
    /// assert_eq!(calls.calls[0].name, "g");
    /// ```
    pub fn choice(mut self, choice: usize) -> Self {
        self.choice = choice;
        self
    }

    /// Read the calls of every choice of a response with several (`n > 1`) as calls, each
    /// tagged with its choice ([`ToolCall::choice`]), instead of reading one
    /// ([`choice`](CallOptions::choice)) and reporting the others. The choices are
    /// alternatives the model wrote for one turn: run the calls of one of them.
    ///
    /// ```
    /// use tool_input::calls::{parse_body, CallOptions};
    /// let body = br#"{"choices": [
    ///   {"index": 0, "message": {"tool_calls": [{"id": "a", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}},
    ///   {"index": 1, "message": {"tool_calls": [{"id": "b", "type": "function", "function": {"name": "g", "arguments": "{}"}}]}}]}"#;
    /// let calls = parse_body(body, &CallOptions::new().all_choices(true)).unwrap();
    /// let tags: Vec<(&str, usize)> = calls.calls.iter().map(|c| (c.name.as_str(), c.choice)).collect();
    /// assert_eq!(tags, [("f", 0), ("g", 1)]);
    /// ```
    pub fn all_choices(mut self, all: bool) -> Self {
        self.all_choices = all;
        self
    }

    /// Return the calls that arrived whole in a response that was cut off (a length stop
    /// such as `finish_reason: "length"`, a stream that ended without its end marker or met
    /// an error) as calls, instead of [`CallErrorKind::Incomplete`] errors (the default).
    /// The call that was cut is a `truncated` ([`CallErrorKind::Arguments`]) error either way. Off by
    /// default: the response may lack calls that came after, or the model may have meant
    /// something else than what it managed to write.
    ///
    /// ```
    /// use tool_input::calls::{parse_body, CallOptions};
    /// let body = br#"{"choices": [{"index": 0, "finish_reason": "length", "message": {"tool_calls": [
    ///   {"id": "a", "type": "function", "function": {"name": "f", "arguments": "{}"}},
    ///   {"id": "b", "type": "function", "function": {"name": "g", "arguments": "{\"x\": 1"}}]}}]}"#;
    /// let calls = parse_body(body, &CallOptions::new()).unwrap();
    /// assert!(calls.calls.is_empty());
    /// let kinds: Vec<&str> = calls.errors.iter().map(|e| e.kind.code()).collect();
    /// assert_eq!(kinds, ["incomplete", "truncated"]);
    /// let calls = parse_body(body, &CallOptions::new().run_completed_calls(true)).unwrap();
    /// assert_eq!(calls.calls[0].name, "f");
    /// assert_eq!(calls.errors[0].kind.code(), "truncated");
    /// ```
    pub fn run_completed_calls(mut self, run: bool) -> Self {
        self.run_completed = run;
        self
    }

    /// The configured format (set with [`CallOptions::format`]).
    pub fn configured_format(&self) -> Format {
        self.format
    }

    /// The known tools, if given (set with [`CallOptions::tools`] and its siblings).
    pub fn configured_tools(&self) -> Option<&[KnownTool]> {
        self.tools.as_deref()
    }

    /// Which choice or candidate is read.
    pub(crate) fn get_choice(&self) -> usize {
        self.choice
    }

    /// Whether calls of `choice` are read as calls (or reported as another choice's).
    pub(crate) fn reads_choice(&self, choice: usize) -> bool {
        self.all_choices || choice == self.choice
    }

    /// The limits for each call's arguments.
    pub(crate) fn get_limits(&self) -> &Limits {
        &self.limits
    }

    /// The most calls read from one response.
    pub(crate) fn get_max_calls(&self) -> usize {
        self.max_calls
    }

    /// The largest body accepted, in bytes.
    pub(crate) fn get_max_body_bytes(&self) -> usize {
        self.max_body_bytes
    }

    /// Whether structured content is searched for text-emitted calls.
    pub(crate) fn scans_content(&self) -> bool {
        self.scan_content
    }

    pub(crate) fn schema_of(&self, name: &str) -> Option<&Value> {
        self.tools.as_ref()?.iter().find(|tool| tool.name == name)?.schema.as_ref()
    }

    /// Does `name` resolve to a known tool? `None` when no tools are known.
    pub(crate) fn knows(&self, name: &str) -> Option<bool> {
        let tools = self.tools.as_ref()?;
        let names: Vec<&str> = tools.iter().map(|tool| tool.name.as_str()).collect();
        Some(matches!(names::resolve_with_sent_names(name, &names, &self.sent_names), NameMatch::Found(..)))
    }
}

/// A response body that could not be read at all (as opposed to one call in it).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BodyError {
    /// The body is larger than [`CallOptions::max_body_bytes`].
    #[error("the body is {bytes} bytes long, more than the limit of {limit}")]
    TooLarge {
        /// The body's length.
        bytes: usize,
        /// The limit in force.
        limit: usize,
    },
    /// The body is not valid UTF-8.
    #[error("the body is not valid UTF-8 (at byte {offset})")]
    NotUtf8 {
        /// Where the first invalid byte is.
        offset: usize,
    },
    /// A structured format was asked for and the body is not JSON.
    #[error("the body is not JSON: {0}")]
    NotJson(String),
    /// The body's shape is not the format asked for, or no format could be detected.
    #[error("{0}")]
    Shape(String),
}

impl BodyError {
    /// `body`: the kind the CLI prints for a body that could not be read.
    pub fn code(&self) -> &'static str {
        "body"
    }
}

/// `{"kind": "body", "message"}`: the one error `tool-input calls` prints, in the shape of a
/// [`CallError`], for a body that could not be read at all.
impl Serialize for BodyError {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut record = serializer.serialize_struct("BodyError", 2)?;
        record.serialize_field("kind", self.code())?;
        record.serialize_field("message", &self.to_string())?;
        record.end()
    }
}

/// Collects call attempts in order, numbering them and enforcing the call limit.
pub(crate) struct Collector<'o> {
    pub options: &'o CallOptions,
    calls: Vec<ToolCall>,
    errors: Vec<CallError>,
    next: usize,
    full: bool,
    /// The choice the attempts pushed now come from.
    choice: usize,
    /// Why the response stopped early, when its own data says so (a length stop).
    stopped: Option<String>,
}

/// What a [`Collector`] has collected, kept between uses: a streaming assembler owns its
/// options, so it resumes a collector for each call that ends and suspends it again,
/// numbering and limiting calls by the same rules as a whole body.
#[derive(Debug, Default)]
pub(crate) struct Collected {
    pub calls: Vec<ToolCall>,
    pub errors: Vec<CallError>,
    next: usize,
    full: bool,
}

impl<'o> Collector<'o> {
    pub fn new(options: &'o CallOptions) -> Self {
        Collector::resume(options, Collected::default())
    }

    /// Go on collecting after [`Collector::suspend`].
    pub fn resume(options: &'o CallOptions, state: Collected) -> Self {
        let Collected { calls, errors, next, full } = state;
        Collector { options, calls, errors, next, full, choice: options.choice, stopped: None }
    }

    /// Keep what was collected, to [`Collector::resume`] later.
    pub fn suspend(self) -> Collected {
        Collected { calls: self.calls, errors: self.errors, next: self.next, full: self.full }
    }

    /// The attempts pushed from now on come from `choice`.
    pub fn set_choice(&mut self, choice: usize) {
        self.choice = choice;
    }

    /// The response says it stopped early (`finish_reason: "length"`, …), for `reason`.
    pub fn stopped(&mut self, reason: String) {
        self.stopped.get_or_insert(reason);
    }

    /// Record, once, that more calls were sent than are taken (as the next attempt would).
    pub fn overflow(&mut self, format: Format) {
        if !self.full {
            // The caller took `max_calls` attempts already; `slot` records the overflow.
            self.next = self.next.max(self.options.max_calls);
            let _ = self.slot(format);
        }
    }

    /// No more attempts are taken.
    pub fn is_full(&self) -> bool {
        self.full
    }

    /// How many attempts were taken.
    pub fn attempts(&self) -> usize {
        self.next
    }

    /// Take the next slot, or record the overflow once.
    fn slot(&mut self, format: Format) -> Option<usize> {
        if self.full {
            return None;
        }
        if self.next >= self.options.max_calls {
            self.full = true;
            let parts = CallParts { index: self.next, ..CallParts::new(format) };
            let message = format!(
                "The response has more than {} tool calls; the rest were not run. Make fewer calls at once.",
                self.options.max_calls
            );
            let mut error = parts.fail(CallErrorKind::TooManyCalls, message);
            error.choice = self.choice;
            self.errors.push(error);
            return None;
        }
        let index = self.next;
        self.next += 1;
        Some(index)
    }

    /// Keep a read attempt: tagged with its choice, and reported rather than returned as a
    /// call when it comes from a choice that is not read.
    fn record(&mut self, read: Result<ToolCall, CallError>) {
        let choice = self.choice;
        if self.options.reads_choice(choice) {
            match read {
                Ok(call) => self.calls.push(ToolCall { choice, ..call }),
                Err(error) => self.errors.push(CallError { choice, ..error }),
            }
            return;
        }
        let chosen = self.options.choice;
        let message = |name: Option<&str>| {
            format!(
                "The tool call{} is in choice {choice} of a response with several choices; only choice {chosen} is read, so it was not run.",
                name.map(|name| format!(" to `{name}`")).unwrap_or_default()
            )
        };
        let error = match read {
            Ok(call) => {
                let message = message(Some(&call.name));
                call.into_error(CallErrorKind::OtherChoice, message, None)
            }
            Err(error) => CallError {
                kind: CallErrorKind::OtherChoice,
                message: message(error.name.as_deref()),
                rejection: None,
                ..error
            },
        };
        self.errors.push(CallError { choice, ..error });
    }

    /// Read one call from its parts.
    pub fn push(&mut self, mut parts: CallParts) {
        let Some(index) = self.slot(parts.format) else { return };
        parts.index = index;
        let read = parts.finish(self.options);
        self.record(read);
    }

    /// Record an attempt that failed before its parts could be read.
    pub fn push_failed(&mut self, mut parts: CallParts, kind: CallErrorKind, message: String) {
        let Some(index) = self.slot(parts.format) else { return };
        parts.index = index;
        self.record(Err(parts.fail(kind, message)));
    }

    /// Record an attempt whose arguments were rejected before its parts could be read.
    pub fn push_rejected(&mut self, parts: CallParts, rejection: Rejection) {
        let before = self.errors.len();
        let kind = CallErrorKind::Arguments(rejection.kind);
        self.push_failed(parts, kind, rejection.to_string());
        if let Some(error) = self.errors.get_mut(before).filter(|error| error.kind == kind) {
            error.rejection = Some(rejection);
        }
    }

    /// The calls and errors collected, and the content; a response whose data said it
    /// stopped early is settled as cut ([`settle_cut`]; `source` is the text calls were
    /// read from, if any).
    pub fn finish(self, format: Format, content: Option<String>, source: Option<&str>) -> Calls {
        let mut calls = Calls { calls: self.calls, errors: self.errors, content, format };
        if let Some(reason) = &self.stopped {
            settle_cut(&mut calls, reason, true, self.options, source);
        }
        calls
    }
}

impl ToolCall {
    /// This call as an error of `kind` that must not run: its id, name, arguments and place
    /// are kept.
    pub(crate) fn into_error(
        self,
        kind: CallErrorKind,
        message: String,
        rejection: Option<Rejection>,
    ) -> CallError {
        CallError {
            kind,
            message,
            id: self.id,
            id_generated: self.id_generated,
            name: Some(self.name),
            name_sent: Some(self.name_sent),
            rejection,
            original: self.original,
            format: self.format,
            raw: self.raw,
            index: self.index,
            choice: self.choice,
        }
    }
}

/// Settle the calls of a response that was cut off for `reason`: nothing of it runs by
/// default. Its last attempt may be the one the stop cut: a call there becomes a
/// `truncated` ([`CallErrorKind::Arguments`]) error when it was written into the `source` text and reaches
/// its end without its closing marker, or, for a native call, when `last_cut` (the
/// response's own data says it stopped, as a length stop does, so a whole body and a stream
/// answer alike). Every other call becomes a [`CallErrorKind::Incomplete`] error, unless
/// [`CallOptions::run_completed_calls`].
pub(crate) fn settle_cut(
    calls: &mut Calls,
    reason: &str,
    last_cut: bool,
    options: &CallOptions,
    source: Option<&str>,
) {
    let last_error = calls.errors.iter().map(|error| error.index).max();
    let last_call = calls
        .calls
        .iter()
        .enumerate()
        .max_by_key(|(_, call)| call.index)
        .filter(|(_, call)| last_error.is_none_or(|error| error < call.index))
        .map(|(at, _)| at);
    if let Some(at) = last_call {
        let call = &calls.calls[at];
        let detail = if call.format == Format::Text {
            let span = call.raw.as_str().unwrap_or("");
            source.filter(|source| text::unfinished(span, source)).map(|_| {
                format!(
                    "the response stopped ({reason}) after {} bytes of the call had arrived, before its closing marker",
                    span.trim_end().len()
                )
            })
        } else {
            last_cut.then(|| {
                format!("the response stopped ({reason}) right after this call: its arguments may have been cut short")
            })
        };
        if let Some(detail) = detail {
            let call = calls.calls.remove(at);
            let rejection = Rejection::whole(RejectionKind::Truncated, crate::ErrorCode::Truncated, detail)
                .with_tool(call.name.clone());
            let message = rejection.to_string();
            calls.errors.push(call.into_error(
                CallErrorKind::Arguments(RejectionKind::Truncated),
                message,
                Some(rejection),
            ));
        }
    }
    if !options.run_completed {
        for call in std::mem::take(&mut calls.calls) {
            let message = format!(
                "The tool call to `{}` arrived whole, but the response it came in was cut off ({reason}), so none of its calls ran: calls after it may be missing. Call the tools again.",
                call.name
            );
            calls.errors.push(call.into_error(CallErrorKind::Incomplete, message, None));
        }
    }
    calls.errors.sort_by_key(|error| error.index);
}

/// Read the tool calls of a response body, or of raw text with [`Format::Text`].
///
/// With [`Format::Auto`], a JSON body of a known shape ([`Format::detect`]) is read as that
/// format, and anything else (text, or JSON of no known shape, such as a bare
/// `{"name": ..., "arguments": ...}`) as text.
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
pub fn parse_body(body: &[u8], options: &CallOptions) -> Result<Calls, BodyError> {
    if body.len() > options.max_body_bytes {
        return Err(BodyError::TooLarge { bytes: body.len(), limit: options.max_body_bytes });
    }
    let text = std::str::from_utf8(body).map_err(|e| BodyError::NotUtf8 { offset: e.valid_up_to() })?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    match options.format {
        Format::Text => Ok(parse_text(text, options)),
        Format::Auto => match serde_json::from_str::<Value>(text) {
            Ok(value) if Format::detect(&value).is_some() => parse_value(&value, options),
            _ => Ok(parse_text(text, options)),
        },
        _ => {
            let value: Value =
                serde_json::from_str(text).map_err(|error| BodyError::NotJson(error.to_string()))?;
            parse_value(&value, options)
        }
    }
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
    let format = match options.format {
        Format::Auto => Format::detect(body).ok_or_else(|| {
            BodyError::Shape(
                "the body is not a response of a known API (OpenAI, Responses, Anthropic, Gemini, Ollama)"
                    .to_owned(),
            )
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
    let content = match content {
        Some(text) if options.scan_content && out.attempts() == 0 && !text.is_empty() => {
            let left = text::extract(&text, text::Mode::Content, &mut out);
            source = Some(text);
            Some(left)
        }
        other => other,
    };
    Ok(out.finish(format, content, source.as_deref()))
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
    let content = text::extract(text, text::Mode::Text, &mut out);
    out.finish(Format::Text, Some(content), Some(text))
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
pub(crate) fn push_unwrapping(parts: CallParts, out: &mut Collector<'_>) {
    let Some(uses) = parallel_uses(&parts, out.options) else {
        out.push(parts);
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

fn parallel_uses(parts: &CallParts, options: &CallOptions) -> Option<Vec<Value>> {
    let name = parts.name.as_deref()?.trim();
    let plain = name == "parallel";
    if name != "multi_tool_use.parallel" && !(plain && options.knows(name) != Some(true)) {
        return None;
    }
    let (arguments, _) = read_arguments(&parts.arguments, &options.limits).ok()?;
    let uses = arguments.get("tool_uses")?.as_array()?;
    let well_formed = !uses.is_empty()
        && uses.iter().all(|entry| match entry.get("recipient_name").and_then(Value::as_str) {
            Some(recipient) => !plain || recipient.trim().starts_with("functions."),
            None => false,
        });
    well_formed.then(|| uses.clone())
}
