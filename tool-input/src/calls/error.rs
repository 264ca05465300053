//! Why a call attempt does not run ([`CallError`], [`CallErrorKind`]), and why a whole body
//! could not be read ([`BodyError`]).

use std::fmt;

use serde::ser::{Serialize, SerializeStruct, Serializer};
use serde_json::Value;

use super::{Format, OriginalArguments};
use crate::error::{Rejection, RejectionKind};

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
///
/// [`ToolCall`]: crate::calls::ToolCall
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CallErrorKind {
    /// The arguments were refused before any schema was applied, for the reason the
    /// [`RejectionKind`] gives: not JSON even after the lenient repairs (`Parse`), cut off
    /// (`Truncated`, also a text-emitted call or a stream stopped inside a call), JSON but not
    /// an object (`NotObject`), larger than [`Limits::max_bytes`] or a streamed call's limit
    /// (`TooLarge`), nested deeper than [`Limits::max_depth`] (`TooDeep`). Never `Invalid`:
    /// the schema is checked when the call is run.
    ///
    /// [`Limits::max_bytes`]: crate::Limits::max_bytes
    /// [`Limits::max_depth`]: crate::Limits::max_depth
    Arguments(RejectionKind),
    /// The tool is not one of [`CallOptions::tools`](crate::calls::CallOptions::tools).
    UnknownTool,
    /// The call has no name, or its text form could not be read.
    Malformed,
    /// The response has more calls than [`CallOptions::max_calls`]; the rest were dropped.
    ///
    /// [`CallOptions::max_calls`]: crate::calls::CallOptions::max_calls
    TooManyCalls,
    /// The call arrived whole, but the response it came in was cut off (a length stop, a
    /// stream without its end marker, an error): nothing of a cut response runs unless
    /// [`CallOptions::run_completed_calls`] says so. Its arguments stay on the record.
    ///
    /// [`CallOptions::run_completed_calls`]: crate::calls::CallOptions::run_completed_calls
    Incomplete,
    /// The stream passed [`StreamAssembler::max_stream_bytes`](crate::stream::StreamAssembler::max_stream_bytes):
    /// nothing after the limit was read.
    StreamTooLarge,
    /// The call is in another choice than the one read ([`CallOptions::choice`]) of a
    /// response with several; it is reported, never run.
    ///
    /// [`CallOptions::choice`]: crate::calls::CallOptions::choice
    OtherChoice,
    /// The call gives one of its own keys (its `name`, `arguments`, `id`, …) twice, with
    /// different values, or the response gives a key that decides its calls twice: which
    /// one is meant cannot be told. (A key given twice inside the arguments is the tool's
    /// check to settle: the record's `original` keeps both.)
    DuplicateKey,
}

impl CallErrorKind {
    /// `parse`, `truncated`, `not_object`, `too_large`, `too_deep` (the [`RejectionKind`]'s
    /// code), `unknown_tool`, `malformed`, `too_many_calls`, `incomplete`, `stream_too_large`,
    /// `other_choice` or `duplicate_key`.
    ///
    /// ```
    /// use tool_input::calls::{parse_body, CallErrorKind, CallOptions};
    /// use tool_input::RejectionKind;
    /// assert_eq!(CallErrorKind::Arguments(RejectionKind::Truncated).code(), "truncated");
    /// let body = br#"{"type": "message", "role": "assistant", "content": [
    ///   {"type": "tool_use", "id": "toolu_1", "name": "delete_everything", "input": {}}]}"#;
    /// let calls = parse_body(body, &CallOptions::new().tools(["get_weather"])).unwrap();
    /// assert_eq!(calls.errors[0].kind.code(), "unknown_tool");
    /// assert_eq!(calls.errors[0].kind.to_string(), "unknown_tool");
    /// ```
    pub fn code(self) -> &'static str {
        match self {
            CallErrorKind::Arguments(kind) => kind.code(),
            CallErrorKind::UnknownTool => "unknown_tool",
            CallErrorKind::Malformed => "malformed",
            CallErrorKind::TooManyCalls => "too_many_calls",
            CallErrorKind::Incomplete => "incomplete",
            CallErrorKind::StreamTooLarge => "stream_too_large",
            CallErrorKind::OtherChoice => "other_choice",
            CallErrorKind::DuplicateKey => "duplicate_key",
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
///
/// ```
/// use tool_input::calls::{parse_body, CallErrorKind, CallOptions, OriginalArguments};
/// use tool_input::RejectionKind;
///
/// let body = br#"{"choices": [{"message": {"role": "assistant", "tool_calls": [{"id": "call_1",
///   "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Par"}}]}}]}"#;
/// let calls = parse_body(body, &CallOptions::new()).unwrap();
/// let error = &calls.errors[0];
/// assert_eq!(error.kind, CallErrorKind::Arguments(RejectionKind::Truncated));
/// // What is needed to answer the call: its id, and a message for the model.
/// assert_eq!(error.id, "call_1");
/// assert_eq!(error.name.as_deref(), Some("get_weather"));
/// assert!(error.message.starts_with("The tool was not run"));
/// assert_eq!(error.original, OriginalArguments::Text(r#"{"city": "Par"#.to_owned()));
/// ```
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
    /// The choice the call came from, as [`ToolCall::choice`](crate::calls::ToolCall::choice).
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

/// The message of a call whose arguments were refused, rendered before the tool's sensitive
/// fields are known: it quotes nothing of the arguments (a syntax error gives its position
/// only), since the text that failed to parse may be a password written without quotes.
/// The [`CallError::rejection`] keeps the whole rejection, for the Toolbox, which knows the
/// tool, to render.
pub(crate) fn message_quoting_nothing(rejection: &Rejection) -> String {
    rejection.clone().quoting_nothing().to_string()
}

/// The most characters of an error's arguments [`Calls::to_json`] prints.
///
/// ```
/// use serde_json::json;
/// use tool_input::calls::{parse_value, CallOptions, MAX_ERROR_ARGUMENTS};
///
/// let arguments = format!("{{\"text\": \"{}", "a".repeat(5000)); // cut off, and long
/// let body = json!({"choices": [{"message": {"role": "assistant", "tool_calls": [
///     {"id": "call_1", "type": "function", "function": {"name": "write", "arguments": arguments}}]}}]});
/// let json = parse_value(&body, &CallOptions::new()).unwrap().to_json();
/// let printed = json["errors"][0]["arguments"].as_str().unwrap();
/// assert_eq!(printed.chars().count(), MAX_ERROR_ARGUMENTS);
/// assert_eq!(json["errors"][0]["arguments_cut"], true);
/// ```
///
/// [`Calls::to_json`]: crate::calls::Calls::to_json
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

/// A tool call the model attempted that the response holds no record of: the response says
/// the model called a tool, but no call came with it. Gemini's `finishReason:
/// "MALFORMED_FUNCTION_CALL"` (the call text the model wrote was refused),
/// `"UNEXPECTED_TOOL_CALL"` or `"TOO_MANY_TOOL_CALLS"` (the model called tools too many times
/// in a row, and Gemini stopped it) with no `functionCall` part, and a Chat Completions
/// choice whose `finish_reason` is `tool_calls` (or `function_call`) with no call in its
/// message, read or streamed.
///
/// There is no call id to answer, so it is no [`CallError`] (a tool result under an id the
/// assistant turn does not hold is refused by the APIs that check ids). Nothing ran, and the
/// model, which meant to call a tool, waits for a result: an agent loop that takes "no
/// calls" for the model's answer ends on a turn the model never finished. Send
/// [`message`](MissingCall::message) back to the model as a user message instead (after the
/// assistant turn if it had any content; Gemini's candidate has none), and let it call the
/// tool again. [`Calls::is_ok`](crate::calls::Calls::is_ok) is false when a call is missing.
///
/// ```
/// use serde_json::json;
/// use tool_input::calls::{parse_value, CallOptions};
///
/// let body = json!({"candidates": [{"finishReason": "MALFORMED_FUNCTION_CALL", "index": 0}]});
/// let calls = parse_value(&body, &CallOptions::new()).unwrap();
/// assert!(calls.calls.is_empty() && calls.errors.is_empty());
/// let missing = calls.missing_call.as_ref().expect("the model tried to call a tool");
/// assert_eq!(missing.reason, "finishReason `MALFORMED_FUNCTION_CALL`");
/// assert!(missing.message.starts_with("Your tool call could not be read"));
/// assert!(!calls.is_ok());
/// // What a loop sends back: a user turn, since no call id can be answered.
/// let turn = json!({"role": "user", "parts": [{"text": missing.message}]});
/// # let _ = turn;
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct MissingCall {
    /// What the response said: `finishReason `MALFORMED_FUNCTION_CALL``, `finish_reason
    /// `tool_calls``.
    pub reason: String,
    /// The text to send back to the model.
    pub message: String,
    /// The choice (OpenAI `choices[n]`, Gemini `candidates[n]`) that said it.
    pub choice: usize,
}

/// Why a response that says the model called a tool holds no call ([`MissingCall::new`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Unsent {
    /// It ended for a call, but none came with it.
    NoneSent,
    /// The API refused the call the model wrote (it could not be read, or named no tool the
    /// request gave).
    Refused,
    /// The API stopped the model for calling tools too many times in a row.
    TooMany,
}

impl MissingCall {
    /// The missing call of a response that said `reason` (described as in
    /// [`MissingCall::reason`]), for the cause `unsent`.
    pub(crate) fn new(reason: String, unsent: Unsent, choice: usize) -> Self {
        const AGAIN: &str =
            "Call the tool again: one of the tools you were given, by its exact name, with its arguments as a JSON object.";
        let message = match unsent {
            Unsent::NoneSent => format!(
                "Your tool call could not be read: the response ended for a tool call ({reason}), but no call came with it, so no tool was run. {AGAIN}"
            ),
            Unsent::Refused => format!(
                "Your tool call could not be read: the API refused it ({reason}), so no tool was run. {AGAIN}"
            ),
            // Calling again at once would meet the same stop.
            Unsent::TooMany => format!(
                "Your tool call was not run: the API stopped it because you called tools too many times in a row ({reason}). Make fewer calls: answer with what you have, or call only the tool you need most."
            ),
        };
        MissingCall { reason, message, choice }
    }

    /// `missing_call`: the kind `tool-input calls` prints.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::calls::{parse_value, CallOptions};
    /// let body = json!({"choices": [{"index": 0, "finish_reason": "tool_calls",
    ///     "message": {"role": "assistant", "content": null}}]});
    /// let calls = parse_value(&body, &CallOptions::new()).unwrap();
    /// let missing = calls.missing_call.unwrap();
    /// assert_eq!(missing.code(), "missing_call");
    /// assert_eq!(serde_json::to_value(&missing).unwrap()["reason"], "finish_reason `tool_calls`");
    /// ```
    pub fn code(&self) -> &'static str {
        "missing_call"
    }
}

/// `{"kind": "missing_call", "reason", "message"}`, as `tool-input calls` prints it.
impl Serialize for MissingCall {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut record = serializer.serialize_struct("MissingCall", 3)?;
        record.serialize_field("kind", self.code())?;
        record.serialize_field("reason", &self.reason)?;
        record.serialize_field("message", &self.message)?;
        record.end()
    }
}

impl fmt::Display for MissingCall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// A response body that could not be read at all (as opposed to one call in it).
///
/// ```
/// use serde_json::json;
/// use tool_input::calls::{parse_body, parse_value, BodyError, CallOptions};
///
/// assert_eq!(parse_body(b"\xff{}", &CallOptions::new()), Err(BodyError::NotUtf8 { offset: 0 }));
/// // A JSON body of no known API's shape.
/// let error = parse_value(&json!({"result": "ok"}), &CallOptions::new()).unwrap_err();
/// assert!(matches!(error, BodyError::Shape(_)));
/// assert!(error.to_string().starts_with("the body is not a response of a known API"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BodyError {
    /// The body is larger than [`CallOptions::max_body_bytes`].
    ///
    /// [`CallOptions::max_body_bytes`]: crate::calls::CallOptions::max_body_bytes
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
    ///
    /// ```
    /// use tool_input::calls::{parse_body, CallOptions};
    /// let error = parse_body("{}", &CallOptions::new().max_body_bytes(1)).unwrap_err();
    /// assert_eq!(error.code(), "body");
    /// let printed = serde_json::to_value(&error).unwrap();
    /// assert_eq!(printed["kind"], "body");
    /// assert_eq!(printed["message"], "the body is 2 bytes long, more than the limit of 1");
    /// ```
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
