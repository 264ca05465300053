//! How to read calls: [`CallOptions`] and the [`KnownTool`]s.

use serde_json::Value;

use super::{names, Format, NameMatch, TextFormat, DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_CALLS};
use crate::limits::Limits;
use crate::tool::ToolDefinition;

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
    pub(super) format: Format,
    pub(super) tools: Option<Vec<KnownTool>>,
    pub(super) sent_names: Vec<(String, String)>,
    pub(super) text_format: Option<TextFormat>,
    pub(super) scan_content: bool,
    pub(super) limits: Limits,
    pub(super) max_calls: usize,
    pub(super) max_body_bytes: usize,
    pub(super) choice: usize,
    pub(super) all_choices: bool,
    pub(super) run_completed: bool,
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
    ///
    /// [`resolve_name`]: crate::calls::resolve_name
    /// [`CallErrorKind::UnknownTool`]: crate::calls::CallErrorKind::UnknownTool
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
    ///
    /// [`MatchedBy::SentName`]: crate::calls::MatchedBy::SentName
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
    ///
    /// [`CallErrorKind::TooManyCalls`]: crate::calls::CallErrorKind::TooManyCalls
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
    ///
    /// [`CallErrorKind::OtherChoice`]: crate::calls::CallErrorKind::OtherChoice
    /// [`CallError::choice`]: crate::calls::CallError::choice
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
    ///
    /// [`ToolCall::choice`]: crate::calls::ToolCall::choice
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
    ///
    /// [`CallErrorKind::Incomplete`]: crate::calls::CallErrorKind::Incomplete
    /// [`CallErrorKind::Arguments`]: crate::calls::CallErrorKind::Arguments
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
