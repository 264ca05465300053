//! How to read calls: [`CallOptions`] and the [`KnownTool`]s.

use serde_json::Value;

use super::{names, Format, NameMatch, TextFormat, DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_CALLS};
use crate::limits::Limits;
use crate::tool::ToolDefinition;

/// A tool the reader may meet: its name, and its schema when the tool is typed (text formats
/// that send every parameter as text, qwen3-coder's and GLM's, convert values by it).
///
/// ```
/// use serde_json::json;
/// use tool_input::calls::{parse_text, CallOptions, KnownTool};
///
/// let tool = KnownTool {
///     name: "get_weather".to_owned(),
///     schema: Some(json!({"type": "object", "properties": {"days": {"type": "integer"}}})),
/// };
/// let text = "<tool_call>\n<function=get_weather>\n<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>";
/// let calls = parse_text(text, &CallOptions::new().known_tools(vec![tool]));
/// assert_eq!(calls.calls[0].arguments["days"], json!(3)); // the schema says integer, not "3"
/// ```
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
    ///
    /// ```
    /// use tool_input::calls::{parse_body, CallOptions, Format};
    /// let options = CallOptions::new();
    /// assert_eq!(options.configured_format(), Format::Auto);
    /// let body = r#"{"candidates": [{"content": {"role": "model", "parts": [
    ///     {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}}]}}]}"#;
    /// assert_eq!(parse_body(body, &options).unwrap().format, Format::Gemini);
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// The format of the body ([`Format::Auto`] by default).
    ///
    /// ```
    /// use tool_input::calls::{parse_body, BodyError, CallOptions, Format};
    /// let text = "Sure, let me look that up.";
    /// // Detected: text that is not a known body is read as text, with no calls in it.
    /// let calls = parse_body(text, &CallOptions::new()).unwrap();
    /// assert_eq!(calls.format, Format::Text);
    /// assert!(calls.calls.is_empty());
    /// // Asked for: an Anthropic body must be JSON.
    /// let error = parse_body(text, &CallOptions::new().format(Format::Anthropic)).unwrap_err();
    /// assert!(matches!(error, BodyError::NotJson(_)));
    /// ```
    pub fn format(mut self, format: Format) -> Self {
        self.format = format;
        self
    }

    /// The names of the tools the model was given. Sent names are matched against them by
    /// [`resolve_name`]; a call to another name is a [`CallErrorKind::UnknownTool`] error,
    /// and text that merely looks like a call (a bare JSON object, a Python list) is a call
    /// only when its name is one of them.
    ///
    /// ```
    /// use tool_input::calls::{parse_body, CallOptions, MatchedBy};
    /// let body = br#"{"choices": [{"message": {"role": "assistant", "tool_calls": [
    ///   {"id": "call_1", "type": "function", "function": {"name": "Get_Weather", "arguments": "{\"city\": \"Paris\"}"}},
    ///   {"id": "call_2", "type": "function", "function": {"name": "get_wether", "arguments": "{}"}}]}}]}"#;
    /// let calls = parse_body(body, &CallOptions::new().tools(["get_weather", "get_time"])).unwrap();
    /// assert_eq!(calls.calls[0].name, "get_weather");
    /// assert_eq!(calls.calls[0].matched_by, Some(MatchedBy::CaseInsensitive));
    /// assert_eq!(calls.errors[0].kind.code(), "unknown_tool");
    /// assert!(calls.errors[0].message.ends_with("Available tools: get_weather, get_time."));
    /// ```
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
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::calls::{parse_text, CallOptions, KnownTool};
    ///
    /// let schema = json!({"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer"}}});
    /// let options = CallOptions::new()
    ///     .known_tools(vec![KnownTool { name: "get_weather".to_owned(), schema: Some(schema) }]);
    /// // GLM sends every value as text; the schema says which are numbers.
    /// let text = "<tool_call>get_weather<arg_key>city</arg_key><arg_value>Paris</arg_value><arg_key>days</arg_key><arg_value>3</arg_value></tool_call>";
    /// let calls = parse_text(text, &options);
    /// assert_eq!(calls.calls[0].arguments["city"], "Paris");
    /// assert_eq!(calls.calls[0].arguments["days"], 3);
    /// ```
    pub fn known_tools(mut self, tools: Vec<KnownTool>) -> Self {
        self.tools = Some(tools);
        self
    }

    /// The tools the model was given, from their definitions (names and schemas).
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::calls::CallOptions;
    /// use tool_input::ToolDefinition;
    ///
    /// let schema = json!({"type": "object", "properties": {"city": {"type": "string"}}});
    /// let weather = ToolDefinition::new("get_weather", Some("Get the weather."), schema.clone())?;
    /// let options = CallOptions::new().definitions([&weather]);
    /// let known = options.configured_tools().unwrap();
    /// assert_eq!(known[0].name, "get_weather");
    /// assert_eq!(known[0].schema, Some(schema));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
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
    ///
    /// ```
    /// use tool_input::calls::{parse_text, CallOptions, TextFormat};
    /// let text = r#"[TOOL_CALLS] [{"name": "get_weather", "arguments": {"city": "Paris"}}]"#;
    /// assert_eq!(parse_text(text, &CallOptions::new()).calls[0].name, "get_weather");
    /// // Only Hermes' `<tool_call>` is read: Mistral's marker stays text.
    /// let calls = parse_text(text, &CallOptions::new().text_format(TextFormat::Hermes));
    /// assert!(calls.calls.is_empty());
    /// assert_eq!(calls.content.as_deref(), Some(text));
    /// ```
    pub fn text_format(mut self, format: TextFormat) -> Self {
        self.text_format = Some(format);
        self
    }

    /// Whether the text content of a structured response with no native calls is searched
    /// for text-emitted calls (on by default). Only calls with explicit markers (`<tool_call>`,
    /// `[TOOL_CALLS]`, special tokens) are taken from such content, plus bare JSON or Python
    /// calls whose names are all [known tools](CallOptions::tools).
    ///
    /// ```
    /// use tool_input::calls::{parse_body, CallOptions};
    /// // A vLLM server without a tool parser: the call is in the message's content.
    /// let body = br#"{"choices": [{"message": {"role": "assistant", "content":
    ///   "<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}</tool_call>"}, "finish_reason": "stop"}]}"#;
    /// let calls = parse_body(body, &CallOptions::new()).unwrap();
    /// assert_eq!(calls.calls[0].arguments["city"], "Paris");
    /// let calls = parse_body(body, &CallOptions::new().scan_content(false)).unwrap();
    /// assert!(calls.calls.is_empty());
    /// assert!(calls.content.unwrap().starts_with("<tool_call>"));
    /// ```
    pub fn scan_content(mut self, scan: bool) -> Self {
        self.scan_content = scan;
        self
    }

    /// Limits for each call's arguments (size, depth).
    ///
    /// ```
    /// use tool_input::calls::{parse_body, CallOptions};
    /// use tool_input::Limits;
    /// let body = br#"{"choices": [{"message": {"role": "assistant", "tool_calls": [{"id": "call_1",
    ///   "type": "function", "function": {"name": "f", "arguments": "{\"a\": {\"b\": {\"c\": 1}}}"}}]}}]}"#;
    /// assert!(parse_body(body, &CallOptions::new()).unwrap().is_ok());
    /// let options = CallOptions::new().limits(Limits::default().with_max_depth(2));
    /// let calls = parse_body(body, &options).unwrap();
    /// assert_eq!(calls.errors[0].kind.code(), "too_deep");
    /// assert_eq!(calls.errors[0].id, "call_1");
    /// ```
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Most calls read from one response (default [`DEFAULT_MAX_CALLS`]); more give one
    /// [`CallErrorKind::TooManyCalls`] error and are dropped.
    ///
    /// ```
    /// use tool_input::calls::{parse_body, CallOptions};
    /// let body = br#"{"type": "message", "role": "assistant", "content": [
    ///   {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris"}},
    ///   {"type": "tool_use", "id": "toolu_2", "name": "get_weather", "input": {"city": "Rome"}},
    ///   {"type": "tool_use", "id": "toolu_3", "name": "get_weather", "input": {"city": "Oslo"}}]}"#;
    /// let calls = parse_body(body, &CallOptions::new().max_calls(2)).unwrap();
    /// assert_eq!(calls.calls.len(), 2);
    /// assert_eq!(calls.errors.len(), 1);
    /// assert_eq!(calls.errors[0].kind.code(), "too_many_calls");
    /// ```
    ///
    /// [`CallErrorKind::TooManyCalls`]: crate::calls::CallErrorKind::TooManyCalls
    pub fn max_calls(mut self, max_calls: usize) -> Self {
        self.max_calls = max_calls;
        self
    }

    /// Largest body accepted, in bytes (default [`DEFAULT_MAX_BODY_BYTES`]).
    ///
    /// ```
    /// use tool_input::calls::{parse_body, BodyError, CallOptions};
    /// let body = br#"{"type": "message", "role": "assistant", "content": [
    ///   {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris"}}]}"#;
    /// let error = parse_body(body, &CallOptions::new().max_body_bytes(64)).unwrap_err();
    /// assert_eq!(error, BodyError::TooLarge { bytes: body.len(), limit: 64 });
    /// ```
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
    ///
    /// ```
    /// use tool_input::calls::{CallOptions, Format};
    /// assert_eq!(CallOptions::new().configured_format(), Format::Auto);
    /// assert_eq!(CallOptions::new().format(Format::Ollama).configured_format(), Format::Ollama);
    /// ```
    pub fn configured_format(&self) -> Format {
        self.format
    }

    /// The known tools, if given (set with [`CallOptions::tools`] and its siblings).
    ///
    /// ```
    /// use tool_input::calls::{CallOptions, KnownTool};
    /// assert_eq!(CallOptions::new().configured_tools(), None);
    /// let options = CallOptions::new().tools(["get_weather"]);
    /// assert_eq!(
    ///     options.configured_tools(),
    ///     Some(&[KnownTool { name: "get_weather".to_owned(), schema: None }][..])
    /// );
    /// ```
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

    /// Is a call named `sent` read as a call to `tool`? Matched as the call's record is
    /// ([`names::resolve_with_sent_names`]): against the known tools, or, when none are known,
    /// against `tool` alone, as a Toolbox with `tool` registered matches it when it dispatches.
    pub(crate) fn names_tool(&self, sent: &str, tool: &str) -> bool {
        match &self.tools {
            Some(tools) => {
                let names: Vec<&str> = tools.iter().map(|known| known.name.as_str()).collect();
                matches!(names::resolve_with_sent_names(sent, &names, &self.sent_names), NameMatch::Found(name, _) if name == tool)
            }
            None => matches!(
                names::resolve_with_sent_names(sent, &[tool], &self.sent_names),
                NameMatch::Found(..)
            ),
        }
    }

    /// Does `name` resolve to a known tool? `None` when no tools are known.
    pub(crate) fn knows(&self, name: &str) -> Option<bool> {
        let tools = self.tools.as_ref()?;
        let names: Vec<&str> = tools.iter().map(|tool| tool.name.as_str()).collect();
        Some(matches!(names::resolve_with_sent_names(name, &names, &self.sent_names), NameMatch::Found(..)))
    }
}
