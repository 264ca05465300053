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
//! Mistral's 9-character ids) and generates one ([`generate_id`]) only when it is missing,
//! `null` or empty. Names are matched against the known tools by one rule
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

mod anthropic;
mod gemini;
mod ids;
mod names;
mod ollama;
mod openai;
mod responses;
pub(crate) mod text;

use std::fmt;
use std::str::FromStr;

use serde_json::{json, Map, Value};

pub use ids::generate_id;
pub use names::{resolve_name, MatchedBy, NameMatch};
pub use text::TextFormat;

use crate::error::{Rejection, RejectionKind};
use crate::parse::{self, ParseMode, ParseOptions, Repair};
use crate::raw::RawArguments;
use crate::tool::ToolDefinition;
use crate::validator::Limits;

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
            rejection: None,
            original: self.arguments.clone(),
            format: self.format,
            raw: self.raw.clone(),
            index: self.index,
        };
        if trimmed.is_empty() {
            error.message =
                "The tool call has no tool name, so nothing was run. Call a tool by its name.".to_owned();
            return Err(error);
        }
        let name = match &options.tools {
            None => trimmed.to_owned(),
            Some(tools) => {
                let names: Vec<&str> = tools.iter().map(|tool| tool.name.as_str()).collect();
                match resolve_name(&name_sent, &names) {
                    NameMatch::Found(name, _) => name.to_owned(),
                    NameMatch::Ambiguous(candidates) => {
                        error.kind = CallErrorKind::UnknownTool;
                        error.name = Some(trimmed.to_owned());
                        error.message = format!(
                            "The tool name `{trimmed}` matches several tools when case is ignored ({}); nothing was run. Call one of them by its exact name.",
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
                arguments,
                repairs,
                original: self.arguments,
                format: self.format,
                raw: self.raw,
                index: self.index,
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
            name: self.name.map(|name| name.trim().to_owned()).filter(|name| !name.is_empty()),
            rejection: None,
            original: self.arguments,
            format: self.format,
            raw: self.raw,
            index: self.index,
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
}

impl CallErrorKind {
    /// `parse`, `truncated`, `not_object`, `too_large`, `too_deep` (the [`RejectionKind`]'s
    /// code), `unknown_tool`, `malformed` or `too_many_calls`.
    pub fn code(self) -> &'static str {
        match self {
            CallErrorKind::Arguments(kind) => kind.code(),
            CallErrorKind::UnknownTool => "unknown_tool",
            CallErrorKind::Malformed => "malformed",
            CallErrorKind::TooManyCalls => "too_many_calls",
        }
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
    /// The tool's name, when one was read.
    pub name: Option<String>,
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

    /// `{"calls": [{"id", "name", "arguments"}], "errors": [{"kind", "message"}]}`, as the
    /// CLI prints it.
    pub fn to_json(&self) -> Value {
        json!({
            "calls": self.calls.iter().map(|call| json!({
                "id": call.id,
                "name": call.name,
                "arguments": call.arguments,
            })).collect::<Vec<_>>(),
            "errors": self.errors.iter().map(|error| json!({
                "kind": error.kind.code(),
                "message": error.message,
            })).collect::<Vec<_>>(),
        })
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
    text_format: Option<TextFormat>,
    scan_content: bool,
    limits: Limits,
    max_calls: usize,
    max_body_bytes: usize,
    choice: usize,
}

impl Default for CallOptions {
    fn default() -> Self {
        CallOptions {
            format: Format::Auto,
            tools: None,
            text_format: None,
            scan_content: true,
            limits: Limits::default(),
            max_calls: DEFAULT_MAX_CALLS,
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            choice: 0,
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
    /// by default.
    pub fn choice(mut self, choice: usize) -> Self {
        self.choice = choice;
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
        Some(matches!(resolve_name(name, &names), NameMatch::Found(..)))
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

/// Collects call attempts in order, numbering them and enforcing the call limit.
pub(crate) struct Collector<'o> {
    pub options: &'o CallOptions,
    calls: Vec<ToolCall>,
    errors: Vec<CallError>,
    next: usize,
    full: bool,
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
        Collector { options, calls: Vec::new(), errors: Vec::new(), next: 0, full: false }
    }

    /// Go on collecting after [`Collector::suspend`].
    pub fn resume(options: &'o CallOptions, state: Collected) -> Self {
        let Collected { calls, errors, next, full } = state;
        Collector { options, calls, errors, next, full }
    }

    /// Keep what was collected, to [`Collector::resume`] later.
    pub fn suspend(self) -> Collected {
        Collected { calls: self.calls, errors: self.errors, next: self.next, full: self.full }
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
            self.errors.push(parts.fail(CallErrorKind::TooManyCalls, message));
            return None;
        }
        let index = self.next;
        self.next += 1;
        Some(index)
    }

    /// Read one call from its parts.
    pub fn push(&mut self, mut parts: CallParts) {
        let Some(index) = self.slot(parts.format) else { return };
        parts.index = index;
        match parts.finish(self.options) {
            Ok(call) => self.calls.push(call),
            Err(error) => self.errors.push(error),
        }
    }

    /// Record an attempt that failed before its parts could be read.
    pub fn push_failed(&mut self, mut parts: CallParts, kind: CallErrorKind, message: String) {
        let Some(index) = self.slot(parts.format) else { return };
        parts.index = index;
        self.errors.push(parts.fail(kind, message));
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

    pub fn finish(self, format: Format, content: Option<String>) -> Calls {
        Calls { calls: self.calls, errors: self.errors, content, format }
    }
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
    let content = match content {
        Some(text) if options.scan_content && out.attempts() == 0 && !text.is_empty() => {
            Some(text::extract(&text, text::Mode::Content, &mut out))
        }
        other => other,
    };
    Ok(out.finish(format, content))
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
        return out.finish(Format::Text, None);
    }
    let content = text::extract(text, text::Mode::Text, &mut out);
    out.finish(Format::Text, Some(content))
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

/// An id field: a string is kept as is; anything else is no id.
pub(crate) fn id_of(value: Option<&Value>) -> Option<String> {
    value.and_then(Value::as_str).map(str::to_owned)
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
