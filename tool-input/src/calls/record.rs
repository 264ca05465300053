//! One call as a record: the arguments as sent ([`OriginalArguments`]), the parts a reader
//! collects ([`CallParts`]), and the runnable [`ToolCall`] they are read into.

use std::fmt;

use serde::ser::{Serialize, SerializeStruct, Serializer};
use serde_json::{Map, Value};

use super::error::message_quoting_nothing;
use super::{generate_id, names, CallError, CallErrorKind, CallOptions, Format, MatchedBy, NameMatch};
use crate::error::Rejection;
use crate::limits::Limits;
use crate::parse::{self, Repair};
use crate::parsed_text::ParsedText;
use crate::policy::Policy;
use crate::raw::{ObjectRead, RawArguments, ReadArguments};

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
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::calls::OriginalArguments;
    /// use tool_input::ToolDefinition;
    ///
    /// let tool = ToolDefinition::new("get_forecast", None, json!({"type": "object",
    ///     "properties": {"days": {"type": "integer"}}, "required": ["days"]}))?;
    /// let sent = OriginalArguments::Text(r#"{"days": "3"}"#.to_owned());
    /// let checked = tool.check(sent.as_raw())?;
    /// assert_eq!(checked.value, json!({"days": 3}));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// [`ToolDefinition::check_with`]: crate::ToolDefinition::check_with
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
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::calls::OriginalArguments;
    /// let text = OriginalArguments::Text(r#"{"city": "Paris"}"#.to_owned());
    /// assert_eq!(text.to_value(), json!(r#"{"city": "Paris"}"#));
    /// assert_eq!(OriginalArguments::Value(json!({"city": "Paris"})).to_value(), json!({"city": "Paris"}));
    /// assert_eq!(OriginalArguments::Absent.to_value(), json!(null));
    /// ```
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
///
/// The [`Toolbox`](crate::Toolbox) checks arguments sent as text that needed repairs without
/// parsing the text again when the tool's policy and limits read it as this record did, and
/// `original`, `arguments` and `repairs` are still what the record was made with.
///
/// ```
/// use tool_input::calls::{parse_body, CallOptions, Format, OriginalArguments};
///
/// let body = br#"{"choices": [{"message": {"role": "assistant", "tool_calls": [{"id": "call_1",
///   "type": "function", "function": {"name": " get_weather", "arguments": "{'city': 'Paris',}"}}]}}]}"#;
/// let call = &parse_body(body, &CallOptions::new())?.calls[0];
/// assert_eq!((call.id.as_str(), call.name.as_str(), call.name_sent.as_str()), ("call_1", "get_weather", " get_weather"));
/// assert_eq!(call.arguments["city"], "Paris");
/// assert_eq!(call.repairs.len(), 2); // single quotes, a trailing comma
/// assert_eq!(call.original, OriginalArguments::Text("{'city': 'Paris',}".to_owned()));
/// assert_eq!(call.format, Format::OpenAi);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// [`ToolDefinition::check_with`]: crate::ToolDefinition::check_with
/// [`parse_body`]: crate::calls::parse_body
/// [`parse_value`]: crate::calls::parse_value
/// [`parse_text`]: crate::calls::parse_text
#[derive(Clone, PartialEq)]
#[non_exhaustive]
pub struct ToolCall {
    /// The provider's id, byte for byte, or a generated one ([`ToolCall::id_generated`]).
    pub id: String,
    /// True when the provider sent no usable id and [`generate_id`] made this one.
    pub id_generated: bool,
    /// The tool's name: the registered name when the known tools were given (see
    /// [`resolve_name`]), otherwise the sent name without surrounding whitespace.
    ///
    /// [`resolve_name`]: crate::calls::resolve_name
    pub name: String,
    /// The name exactly as sent.
    pub name_sent: String,
    /// How the sent name matched the registered one ([`resolve_name`]); `None` when no
    /// tools were known.
    ///
    /// [`resolve_name`]: crate::calls::resolve_name
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
    /// How the argument text was parsed into `arguments`, when it was sent as text that
    /// needed repairs.
    pub(crate) parsed: Option<TextParse>,
}

/// How a call record's argument text was parsed (see [`ToolCall::parsed_text`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct TextParse {
    repeated: bool,
    max_depth: usize,
    made_of: u64,
}

/// Derived from the record's other fields: two records equal in those are equal.
impl PartialEq for TextParse {
    fn eq(&self, _: &TextParse) -> bool {
        true
    }
}

/// The public fields, as a derived `Debug` writes them.
impl fmt::Debug for ToolCall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolCall")
            .field("id", &self.id)
            .field("id_generated", &self.id_generated)
            .field("name", &self.name)
            .field("name_sent", &self.name_sent)
            .field("matched_by", &self.matched_by)
            .field("arguments", &self.arguments)
            .field("repairs", &self.repairs)
            .field("original", &self.original)
            .field("format", &self.format)
            .field("raw", &self.raw)
            .field("index", &self.index)
            .field("choice", &self.choice)
            .finish()
    }
}

impl ToolCall {
    /// The argument text with its parse, for a check that need not parse it again; `None`
    /// when the arguments were not sent as text, or were strict JSON (no repairs). The validator uses it only while it is
    /// current ([`ParsedText::is_current`]) and was made as its own parse would be.
    pub(crate) fn parsed_text(&self) -> Option<ParsedText<'_>> {
        let (OriginalArguments::Text(text), Some(parse)) = (&self.original, self.parsed) else {
            return None;
        };
        Some(ParsedText {
            text,
            value: &self.arguments,
            repairs: &self.repairs,
            repeated: parse.repeated,
            max_depth: parse.max_depth,
            made_of: parse.made_of,
        })
    }
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
    ///
    /// ```
    /// use tool_input::calls::{CallOptions, CallParts, Format, OriginalArguments};
    /// let parts = CallParts::new(Format::Gemini);
    /// assert_eq!((parts.id, parts.name, parts.arguments), (None, None, OriginalArguments::Absent));
    /// // Parts with no name are not a call.
    /// let error = CallParts::new(Format::Gemini).finish(&CallOptions::new()).unwrap_err();
    /// assert_eq!(error.kind.code(), "malformed");
    /// assert!(error.id_generated);
    /// ```
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

    /// The name as messages give it: trimmed, `None` when absent or blank.
    pub(crate) fn shown_name(&self) -> Option<&str> {
        self.name.as_deref().map(str::trim).filter(|name| !name.is_empty())
    }

    /// Which known tool the call names (the name sent, trimmed, is not empty).
    fn tool_named(&self, options: &CallOptions) -> ToolNamed {
        let Some(tools) = &options.tools else { return ToolNamed::Free };
        let names: Vec<&str> = tools.iter().map(|tool| tool.name.as_str()).collect();
        let sent = self.name.as_deref().unwrap_or_default();
        match names::resolve_with_sent_names(sent, &names, &options.sent_names) {
            NameMatch::Found(name, by) => ToolNamed::Found(name.to_owned(), by),
            NameMatch::Ambiguous(candidates) => ToolNamed::Ambiguous(candidates.join(", ")),
            NameMatch::Unknown => {
                // The tools listed as the model was shown them: OpenAI never showed it a
                // `files.read`, whose name it refuses, but the `files_read` sent instead.
                let shown: Vec<_> = match self.format.shown_dialect() {
                    Some(dialect) => {
                        names.iter().map(|name| crate::dialect::sent_name(name, dialect)).collect()
                    }
                    None => names.iter().map(|name| std::borrow::Cow::Borrowed(*name)).collect(),
                };
                let shown: Vec<&str> = shown.iter().map(AsRef::as_ref).collect();
                ToolNamed::Unknown(unknown_tool_message(sent.trim(), &shown))
            }
        }
    }

    /// The name a record of the call gives: the registered name when the sent one matches a
    /// known tool ([`resolve_name`]), otherwise the sent name, trimmed (see
    /// [`CallParts::shown_name`]).
    pub(crate) fn record_name(&self, options: &CallOptions) -> Option<String> {
        match self.tool_named(options) {
            ToolNamed::Found(name, _) if self.shown_name().is_some() => Some(name),
            _ => self.shown_name().map(str::to_owned),
        }
    }

    /// Does the call name no tool it can run: no name, or one no known tool answers to?
    /// Such a call is refused for its name, however its arguments turned out.
    pub(crate) fn names_no_tool(&self, options: &CallOptions) -> bool {
        self.shown_name().is_none()
            || !matches!(self.tool_named(options), ToolNamed::Free | ToolNamed::Found(..))
    }

    /// Read the parts into a call: keep or generate the id, match the name
    /// ([`resolve_name`], when [`CallOptions::tools`] are known), and parse the arguments
    /// leniently into an object. A missing name, an unknown tool, or arguments that do not
    /// parse, are cut off or are not an object give a [`CallError`] carrying the call's id.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::calls::{CallOptions, CallParts, Format, OriginalArguments};
    ///
    /// // A Gemini call: no id was sent, so one is generated.
    /// let parts = CallParts {
    ///     name: Some("get_weather".to_owned()),
    ///     arguments: OriginalArguments::Value(json!({"city": "Paris"})),
    ///     ..CallParts::new(Format::Gemini)
    /// };
    /// let call = parts.finish(&CallOptions::new()).unwrap();
    /// assert!(call.id_generated && call.id.starts_with("call_"));
    /// assert_eq!(call.arguments["city"], "Paris");
    /// // Cut-off arguments are an error that keeps the call's id.
    /// let parts = CallParts {
    ///     id: Some("call_9".to_owned()),
    ///     name: Some("get_weather".to_owned()),
    ///     arguments: OriginalArguments::Text(r#"{"city": "Par"#.to_owned()),
    ///     ..CallParts::new(Format::OpenAi)
    /// };
    /// let error = parts.finish(&CallOptions::new()).unwrap_err();
    /// assert_eq!((error.id.as_str(), error.kind.code()), ("call_9", "truncated"));
    /// ```
    ///
    /// [`resolve_name`]: crate::calls::resolve_name
    // A `CallError` is as ordinary an outcome as a `ToolCall` (and as large): `Calls` keeps
    // both by value, so boxing it would only add an allocation.
    #[allow(clippy::result_large_err)]
    pub fn finish(self, options: &CallOptions) -> Result<ToolCall, CallError> {
        self.finish_read(options, None)
    }

    /// [`CallParts::finish`], with the arguments' text already read (`read`): what the
    /// incremental parser of a streamed call gave for it, with [`Limits::parse_options`]
    /// (any size), which is what parsing the text here would give. It is used instead of
    /// parsing the text again; `None` parses it.
    #[allow(clippy::result_large_err)]
    pub(crate) fn finish_read(
        self,
        options: &CallOptions,
        read: Option<Read>,
    ) -> Result<ToolCall, CallError> {
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
        let (name, matched_by) = match self.tool_named(options) {
            ToolNamed::Free => (trimmed.to_owned(), None),
            ToolNamed::Found(name, by) => (name, Some(by)),
            ToolNamed::Ambiguous(candidates) => {
                error.kind = CallErrorKind::UnknownTool;
                error.name = Some(trimmed.to_owned());
                error.message = format!(
                    "The tool name `{trimmed}` matches several tools ({candidates}); nothing was run. Call one of them by its exact name."
                );
                return Err(error);
            }
            ToolNamed::Unknown(message) => {
                error.kind = CallErrorKind::UnknownTool;
                error.name = Some(trimmed.to_owned());
                error.message = message;
                return Err(error);
            }
        };
        match read_arguments(&self.arguments, &options.limits, read) {
            Ok((arguments, repairs, repeated)) => {
                // Kept for text that needed repairs: strict JSON is read again by `serde_json`,
                // which costs a check less than keeping its parse does every call read.
                let parsed = match (&self.arguments, repeated) {
                    (OriginalArguments::Text(text), Some(repeated)) if !repairs.is_empty() => {
                        let made_of = ParsedText {
                            text,
                            value: &arguments,
                            repairs: &repairs,
                            repeated,
                            max_depth: options.limits.max_depth,
                            made_of: 0,
                        }
                        .fingerprint();
                        Some(TextParse { repeated, max_depth: options.limits.max_depth, made_of })
                    }
                    _ => None,
                };
                Ok(ToolCall {
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
                    parsed,
                })
            }
            Err(rejection) => {
                let rejection = rejection.with_tool(&name);
                error.kind = CallErrorKind::Arguments(rejection.kind);
                error.message = message_quoting_nothing(&rejection);
                error.rejection = Some(rejection);
                error.name = Some(name);
                Err(error)
            }
        }
    }

    /// A [`CallError`] of `kind` for these parts (an id is generated if needed).
    pub(crate) fn fail(self, kind: CallErrorKind, message: String) -> CallError {
        let name = self.shown_name().map(str::to_owned);
        let (id, id_generated) = match self.id {
            Some(id) if !id.is_empty() => (id, false),
            _ => (generate_id(), true),
        };
        CallError {
            kind,
            message,
            id,
            id_generated,
            name,
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

/// The most tools an unknown tool's message lists: past it (an MCP gateway's hundreds of
/// tools), the closest names are listed and the rest counted, as an enum's options are.
pub(crate) const MAX_LISTED_TOOLS: usize = crate::check::MAX_OPTIONS;

/// How many of the closest names the message of a long list gives.
const CLOSEST_TOOLS: usize = 10;

/// The message for a call to a tool that is not registered: the tools that are, every one
/// when they are few ([`MAX_LISTED_TOOLS`]). Else how many there are and up to
/// [`CLOSEST_TOOLS`] names: the closest, when any is close to the name sent (a likely typo,
/// the same words, the name held in a namespaced one), with a did-you-mean when one is closer
/// than every other; or the first ones, when none is.
pub(crate) fn unknown_tool_message(name: &str, available: &[&str]) -> String {
    if available.is_empty() {
        return format!("The tool `{name}` does not exist and no tools are available; nothing was run.");
    }
    if available.len() <= MAX_LISTED_TOOLS {
        return format!(
            "The tool `{name}` does not exist; nothing was run. Available tools: {}.",
            available.join(", ")
        );
    }
    let ranked = crate::message::ranked(name, available);
    let close: Vec<&str> = ranked
        .iter()
        .take(CLOSEST_TOOLS)
        .take_while(|(_, score)| *score >= crate::message::CLOSE)
        .map(|(tool, _)| *tool)
        .collect();
    let (listed, shown) = if close.is_empty() {
        let first = available.get(..CLOSEST_TOOLS).unwrap_or(available).to_vec();
        (format!("No tool's name is like it; the first {}", first.len()), first)
    } else {
        let best = match ranked.as_slice() {
            [(best, score), (_, next), ..] if score > next => Some(best),
            [(best, _)] => Some(best),
            _ => None,
        };
        let hint = best.map(|best| format!("Did you mean `{best}`? ")).unwrap_or_default();
        (format!("{hint}The closest"), close)
    };
    format!(
        "The tool `{name}` does not exist; nothing was run. {listed} of the {} available tools: {}, … and {} more.",
        available.len(),
        shown.join(", "),
        available.len() - shown.len()
    )
}

/// What the lenient parser gave for a call's argument text: the value and its repairs, and
/// whether an object repeated a key (`parse_noting_repeats`); or why it could not read it.
pub(crate) type Read = Result<(parse::Parsed, bool), parse::ParseError>;

#[cfg(test)]
thread_local! {
    /// Argument texts parsed by [`read_arguments`] on this thread (the parse-once tests).
    pub(crate) static TEXTS_PARSED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Parse arguments leniently into an object, as the engine would under the default policy
/// ([`crate::raw::read_arguments`]). `read`: the text's parse, when it was read already (see
/// [`CallParts::finish_read`]). With the object and its repairs: for a text parsed, whether
/// it repeated a key.
pub(super) fn read_arguments(
    original: &OriginalArguments,
    limits: &Limits,
    read: Option<Read>,
) -> Result<ObjectRead, Rejection> {
    let read = match (original, read) {
        // The size limit is the one thing the earlier read did not apply.
        (OriginalArguments::Text(text) | OriginalArguments::Value(Value::String(text)), Some(read))
            if !text.trim().is_empty() && text.len() <= limits.max_bytes =>
        {
            let (parsed, repeated) = read.map_err(Rejection::from_parse)?;
            ReadArguments { value: parsed.value, repairs: parsed.repairs, repeated: Some(repeated) }
        }
        _ => {
            #[cfg(test)]
            if let OriginalArguments::Text(text) | OriginalArguments::Value(Value::String(text)) = original {
                if !text.trim().is_empty() {
                    TEXTS_PARSED.with(|parsed| parsed.set(parsed.get() + 1));
                }
            }
            let options = limits.parse_options(Policy::Default);
            crate::raw::read_arguments(original.as_raw(), &options, false).map_err(Rejection::from_parse)?
        }
    };
    read.into_object(&limits.parse_options(Policy::Default))
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

/// Which known tool a call names.
enum ToolNamed {
    /// No list of tools was given: any name goes.
    Free,
    /// The registered name, and how it was found.
    Found(String, MatchedBy),
    /// Several registered names match (listed); none is chosen.
    Ambiguous(String),
    /// None matches: the message saying so.
    Unknown(String),
}
