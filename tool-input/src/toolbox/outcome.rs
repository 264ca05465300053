//! What came of one call, and the tool result each API expects for it.

use std::borrow::Cow;
use std::fmt;

use serde_json::{json, Map, Value};

use crate::calls::unknown_tool_message;
use crate::dialect::Dialect;
use crate::error::Rejection;
use crate::report::Report;

/// What came of one dispatched call, ready to send back with
/// [`to_openai`](Outcome::to_openai), [`to_responses`](Outcome::to_responses),
/// [`to_anthropic`](Outcome::to_anthropic), [`to_gemini`](Outcome::to_gemini),
/// [`to_mcp`](Outcome::to_mcp) or [`to_dialect`](Outcome::to_dialect).
///
/// ```
/// use schemars::JsonSchema;
/// use serde::Deserialize;
/// use serde_json::json;
/// use tool_input::calls::{parse_text, CallOptions};
/// use tool_input::{ToolInput, Toolbox};
///
/// /// Get the weather for a city.
/// #[derive(Deserialize, JsonSchema, ToolInput)]
/// struct GetWeather { city: String, days: u8 }
///
/// let toolbox = Toolbox::new()
///     .with_tool(|call: GetWeather| Ok::<_, String>(json!({"city": call.city, "days": call.days})));
/// let text = r#"<tool_call>{"name": "get_weather", "arguments": {"city": "Paris", "days": "2"}}</tool_call>"#;
/// let calls = parse_text(text, &CallOptions::new());
/// let outcome = toolbox.dispatch(&calls.calls[0]);
/// assert_eq!((outcome.call_id.as_str(), outcome.tool.as_str()), (calls.calls[0].id.as_str(), "get_weather"));
/// assert_eq!(outcome.result, Ok(json!({"city": "Paris", "days": 2})));
/// assert_eq!(outcome.report.coercions[0].path, "/days"); // "2" was read as 2
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Outcome {
    /// The id of the call this answers.
    pub call_id: String,
    /// True when the call's id was generated (Gemini then gets no `id` back).
    pub call_id_generated: bool,
    /// The tool's registered name, or the name as sent when it is not registered.
    pub tool: String,
    /// The handler's output as JSON, or why there is none.
    pub result: Result<Value, Failure>,
    /// The repairs and coercions the arguments needed (empty unless they were accepted).
    pub report: Report,
    /// With a [`Conversation`](super::Conversation): this tool has now spent a retry budget
    /// (the model's mistakes or its handler's errors, as many in a row as allowed) and will
    /// not be run again; the text says so.
    pub budget_spent: bool,
    /// `tool` is a registered tool's name, which a dialect may have sent under another
    /// ([`Outcome::text_in`]); a name no tool has is quoted as the model sent it.
    tool_registered: bool,
}

/// Why a call produced no output. Each is a distinct [`OutcomeKind`].
///
/// ```
/// use schemars::JsonSchema;
/// use serde::Deserialize;
/// use tool_input::calls::{parse_text, CallOptions};
/// use tool_input::{Failure, ToolInput, Toolbox};
///
/// /// Get the weather for a city.
/// #[derive(Deserialize, JsonSchema, ToolInput)]
/// struct GetWeather { city: String }
///
/// let toolbox = Toolbox::new()
///     .with_tool(|call: GetWeather| Err::<String, _>(format!("no station in {}", call.city)));
/// let text = r#"<tool_call>{"name": "get_wether", "arguments": {}}</tool_call>
///   <tool_call>{"name": "get_weather", "arguments": {"city": "Atlantis"}}</tool_call>"#;
/// let calls = parse_text(text, &CallOptions::new());
/// let Err(Failure::UnknownTool { name, available }) = toolbox.dispatch(&calls.calls[0]).result else { panic!() };
/// assert_eq!((name.as_str(), available), ("get_wether", vec!["get_weather".to_owned()]));
/// let Err(failure) = toolbox.dispatch(&calls.calls[1]).result else { panic!() };
/// assert_eq!(failure, Failure::Handler { tool: "get_weather".into(), message: "no station in Atlantis".into() });
/// assert_eq!(failure.to_string(), "The tool `get_weather` failed: no station in Atlantis");
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Failure {
    /// No registered tool has this name (after [`resolve_name`](crate::calls::resolve_name)).
    UnknownTool {
        /// The name as sent.
        name: String,
        /// The registered tools.
        available: Vec<String>,
    },
    /// The arguments do not parse: not JSON, cut off, not an object, too large or too deep.
    Unparsable(Rejection),
    /// The arguments parse but fail validation (or typed deserialization).
    Invalid(Rejection),
    /// The call itself could not be read (no name, an unreadable text-emitted call, one
    /// call too many).
    Malformed(String),
    /// The handler returned an error.
    Handler {
        /// The tool's name.
        tool: String,
        /// The error's text.
        message: String,
    },
    /// Not run: the model's calls of the tool were refused too many times in a row in this
    /// conversation ([`Conversation::with_max_failures`](super::Conversation::with_max_failures)).
    BudgetSpent {
        /// The tool's name.
        tool: String,
        /// How many times in a row it failed.
        failures: u32,
    },
    /// Not run: the tool's handler returned an error too many times in a row in this
    /// conversation ([`Conversation::with_max_handler_failures`](super::Conversation::with_max_handler_failures)),
    /// though the model's arguments were accepted. Its kind is [`OutcomeKind::BudgetSpent`].
    HandlerBudgetSpent {
        /// The tool's name.
        tool: String,
        /// How many times in a row its handler failed.
        failures: u32,
    },
}

/// The kind of an [`Outcome`]; `code()` gives its stable snake_case name.
///
/// ```
/// use tool_input::calls::{parse_text, CallOptions};
/// use tool_input::{OutcomeKind, Toolbox};
///
/// let toolbox = Toolbox::new();
/// let text = r#"<tool_call>{"name": "nope", "arguments": {}}</tool_call>"#;
/// let calls = parse_text(text, &CallOptions::new());
/// let kind = toolbox.dispatch(&calls.calls[0]).kind();
/// // The model's mistake, to count in a metric or log apart from the tool's own errors.
/// let blame = match kind {
///     OutcomeKind::Success => "none",
///     OutcomeKind::HandlerError | OutcomeKind::BudgetSpent => "tool",
///     _ => "model",
/// };
/// assert_eq!((kind, blame), (OutcomeKind::UnknownTool, "model"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum OutcomeKind {
    /// The handler ran and returned its output.
    Success,
    /// The tool does not exist.
    UnknownTool,
    /// The arguments do not parse.
    Unparsable,
    /// The arguments fail validation.
    Invalid,
    /// The call could not be read.
    Malformed,
    /// The handler returned an error.
    HandlerError,
    /// A retry budget is spent (the model's or the handler's); the tool was not run.
    BudgetSpent,
}

impl OutcomeKind {
    /// `success`, `unknown_tool`, `unparsable`, `invalid`, `malformed`, `handler_error` or
    /// `budget_spent`.
    ///
    /// ```
    /// use tool_input::OutcomeKind;
    /// assert_eq!(OutcomeKind::HandlerError.code(), "handler_error");
    /// assert_eq!(OutcomeKind::BudgetSpent.to_string(), "budget_spent"); // `Display` writes the code
    /// ```
    pub fn code(self) -> &'static str {
        match self {
            OutcomeKind::Success => "success",
            OutcomeKind::UnknownTool => "unknown_tool",
            OutcomeKind::Unparsable => "unparsable",
            OutcomeKind::Invalid => "invalid",
            OutcomeKind::Malformed => "malformed",
            OutcomeKind::HandlerError => "handler_error",
            OutcomeKind::BudgetSpent => "budget_spent",
        }
    }
}

impl fmt::Display for OutcomeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl Failure {
    /// The failure's kind.
    ///
    /// ```
    /// use tool_input::{Failure, OutcomeKind};
    ///
    /// let failure = Failure::Handler { tool: "pay".into(), message: "payment declined".into() };
    /// assert_eq!(failure.kind(), OutcomeKind::HandlerError);
    /// // Both budgets are one kind: the tool was not run.
    /// assert_eq!(Failure::HandlerBudgetSpent { tool: "pay".into(), failures: 3 }.kind(), OutcomeKind::BudgetSpent);
    /// ```
    pub fn kind(&self) -> OutcomeKind {
        match self {
            Failure::UnknownTool { .. } => OutcomeKind::UnknownTool,
            Failure::Unparsable(_) => OutcomeKind::Unparsable,
            Failure::Invalid(_) => OutcomeKind::Invalid,
            Failure::Malformed(_) => OutcomeKind::Malformed,
            Failure::Handler { .. } => OutcomeKind::HandlerError,
            Failure::BudgetSpent { .. } | Failure::HandlerBudgetSpent { .. } => OutcomeKind::BudgetSpent,
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(&as_sent, &as_sent))
    }
}

/// How a message names a registered tool: as it is, or as a dialect showed it to the model.
type ShownName<'f> = dyn Fn(&str) -> Cow<'_, str> + 'f;

/// A name as it is.
fn as_sent(name: &str) -> Cow<'_, str> {
    Cow::Borrowed(name)
}

impl Failure {
    /// The message for the model: the tools it could have called named by `shown`, and the
    /// tool it called by `called`.
    fn message(&self, shown: &ShownName<'_>, called: &ShownName<'_>) -> String {
        match self {
            Failure::UnknownTool { name, available } => {
                let available: Vec<Cow<'_, str>> = available.iter().map(|tool| shown(tool)).collect();
                let available: Vec<&str> = available.iter().map(AsRef::as_ref).collect();
                unknown_tool_message(name, &available)
            }
            Failure::Unparsable(rejection) | Failure::Invalid(rejection) => {
                match rejection.tool().map(|tool| (tool, called(tool))) {
                    Some((tool, Cow::Owned(as_shown))) if as_shown != tool => {
                        rejection.clone().with_tool(as_shown).to_string()
                    }
                    _ => rejection.to_string(),
                }
            }
            Failure::Malformed(message) => message.clone(),
            Failure::Handler { tool, message } => format!("The tool `{}` failed: {message}", called(tool)),
            Failure::BudgetSpent { tool, failures } => format!(
                "The tool `{}` was not run: it failed {failures} times in a row, so its retry budget for this conversation is spent. Do not call it again; tell the user what went wrong.",
                called(tool)
            ),
            Failure::HandlerBudgetSpent { tool, failures } => format!(
                "The tool `{}` was not run: it failed on its own {failures} times in a row (your arguments were accepted), so it is not run again in this conversation. Do not call it again; tell the user what went wrong.",
                called(tool)
            ),
        }
    }
}

impl Outcome {
    pub(crate) fn new(
        call_id: &str,
        call_id_generated: bool,
        tool: &str,
        result: Result<Value, Failure>,
    ) -> Self {
        Outcome {
            call_id: call_id.to_owned(),
            call_id_generated,
            tool: tool.to_owned(),
            result,
            report: Report::default(),
            budget_spent: false,
            tool_registered: false,
        }
    }

    /// This outcome's `tool` is the registered tool's name.
    pub(crate) fn of_registered_tool(mut self) -> Self {
        self.tool_registered = true;
        self
    }

    /// The outcome's kind.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::calls::{parse_text, CallOptions};
    /// use tool_input::{OutcomeKind, ToolDefinition, Toolbox};
    ///
    /// let ping = ToolDefinition::new("ping", None, json!({
    ///     "type": "object", "properties": {"count": {"type": "integer"}}, "required": ["count"]})).unwrap();
    /// let toolbox = Toolbox::new().with_definition(ping, |_| Ok::<_, String>("pong"));
    /// let text = r#"<tool_call>{"name": "ping", "arguments": {"count": "many"}}</tool_call>
    ///   <tool_call>{"name": "ping", "arguments": {"count": "3"}}</tool_call>"#;
    /// let calls = parse_text(text, &CallOptions::new());
    /// assert_eq!(toolbox.dispatch(&calls.calls[0]).kind(), OutcomeKind::Invalid);
    /// assert_eq!(toolbox.dispatch(&calls.calls[1]).kind(), OutcomeKind::Success);
    /// ```
    pub fn kind(&self) -> OutcomeKind {
        match &self.result {
            Ok(_) => OutcomeKind::Success,
            Err(failure) => failure.kind(),
        }
    }

    /// True when the handler ran and returned its output.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::calls::{parse_text, CallOptions};
    /// use tool_input::{ToolDefinition, Toolbox};
    ///
    /// let pay = ToolDefinition::new("pay", None, json!({"type": "object", "properties": {}})).unwrap();
    /// let toolbox = Toolbox::new().with_definition(pay, |_| Err::<(), _>("payment declined"));
    /// let text = r#"<tool_call>{"name": "pay", "arguments": {}}</tool_call>"#;
    /// let calls = parse_text(text, &CallOptions::new());
    /// // The arguments were accepted, but the handler failed: not a success.
    /// assert!(!toolbox.dispatch(&calls.calls[0]).is_success());
    /// ```
    pub fn is_success(&self) -> bool {
        self.result.is_ok()
    }

    /// The text of the tool result: the output (a string as it is, anything else as compact
    /// JSON), or the failure's message for the model, with a last sentence when the retry
    /// budget is now spent.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::calls::{parse_text, CallOptions};
    /// use tool_input::{ToolDefinition, Toolbox};
    ///
    /// let schema = json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]});
    /// let weather = ToolDefinition::new("weather", None, schema.clone()).unwrap();
    /// let greet = ToolDefinition::new("greet", None, schema).unwrap();
    /// let toolbox = Toolbox::new()
    ///     .with_definition(weather, |args| Ok::<_, String>(json!({"city": args["city"], "temp": 21})))
    ///     .with_definition(greet, |args| Ok::<_, String>(format!("Hello, {}!", args["city"].as_str().unwrap_or(""))));
    /// let text = r#"<tool_call>{"name": "weather", "arguments": {"city": "Oslo"}}</tool_call>
    ///   <tool_call>{"name": "greet", "arguments": {"city": "Oslo"}}</tool_call>
    ///   <tool_call>{"name": "greet", "arguments": {}}</tool_call>"#;
    /// let calls = parse_text(text, &CallOptions::new());
    /// let texts: Vec<String> = calls.calls.iter().map(|call| toolbox.dispatch(call).text()).collect();
    /// assert_eq!(texts[0], r#"{"city":"Oslo","temp":21}"#); // compact JSON
    /// assert_eq!(texts[1], "Hello, Oslo!"); // a string as it is
    /// assert!(texts[2].starts_with("The arguments for tool `greet` were rejected"));
    /// ```
    pub fn text(&self) -> String {
        self.text_naming(&as_sent)
    }

    /// [`Outcome::text`] with each tool named as `dialect` showed it to the model
    /// ([`dialect::sent_name`](crate::dialect::sent_name), as
    /// [`Toolbox::definitions`](super::Toolbox::definitions) sends it): OpenAI was never
    /// shown a `files.read`, whose name it refuses, but `files_read`. The `to_*` answers use
    /// it, each in its own dialect.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::calls::{parse_text, CallOptions};
    /// use tool_input::{Dialect, ToolDefinition, Toolbox};
    ///
    /// let read = ToolDefinition::new("files.read", None, json!({"type": "object"})).unwrap();
    /// let toolbox = Toolbox::new().with_definition(read, |_| Err::<(), _>("disk full"));
    /// let text = r#"<tool_call>{"name": "files_read", "arguments": {}}</tool_call>"#;
    /// let outcome = toolbox.dispatch(&parse_text(text, &toolbox.call_options()).calls[0]);
    /// assert_eq!(outcome.text_in(Dialect::OpenAi), "The tool `files_read` failed: disk full");
    /// assert_eq!(outcome.text_in(Dialect::Mcp), "The tool `files.read` failed: disk full");
    /// assert_eq!(outcome.text(), "The tool `files.read` failed: disk full");
    /// ```
    pub fn text_in(&self, dialect: Dialect) -> String {
        self.text_naming(&|name| crate::dialect::sent_name(name, dialect))
    }

    fn text_naming(&self, shown: &ShownName<'_>) -> String {
        match &self.result {
            Ok(Value::String(text)) => text.clone(),
            Ok(value) => value.to_string(),
            Err(failure) => {
                let called: &ShownName<'_> = if self.tool_registered { shown } else { &as_sent };
                let mut text = failure.message(shown, called);
                let not_run =
                    matches!(failure, Failure::BudgetSpent { .. } | Failure::HandlerBudgetSpent { .. });
                if self.budget_spent && !not_run {
                    let last = if matches!(failure, Failure::Handler { .. }) {
                        "\nThe tool `{}` has now failed on its own too many times in a row and will not be run again in this conversation. Do not call it again; tell the user what went wrong."
                    } else {
                        "\nThe retry budget for `{}` is now spent: it failed too many times in a row. Do not call it again; tell the user what went wrong."
                    };
                    text.push_str(&last.replace("{}", &called(&self.tool)));
                }
                text
            }
        }
    }

    /// OpenAI Chat Completions: `{"role": "tool", "tool_call_id", "content"}`.
    ///
    /// ```
    /// # use tool_input::{Toolbox, calls::{parse_text, CallOptions}};
    /// let toolbox = Toolbox::new();
    /// let calls = parse_text(r#"<tool_call>{"name": "nope", "arguments": {}}</tool_call>"#, &CallOptions::new());
    /// let outcome = toolbox.dispatch(&calls.calls[0]);
    /// assert_eq!(outcome.kind().code(), "unknown_tool");
    /// assert_eq!(outcome.to_openai()["role"], "tool");
    /// ```
    pub fn to_openai(&self) -> Value {
        json!({"role": "tool", "tool_call_id": self.call_id, "content": self.text_in(Dialect::OpenAi)})
    }

    /// OpenAI Responses: `{"type": "function_call_output", "call_id", "output"}`.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::{ToolDefinition, Toolbox};
    ///
    /// let time = ToolDefinition::new("get_time", None, json!({"type": "object", "properties": {}})).unwrap();
    /// let toolbox = Toolbox::new().with_definition(time, |_| Ok::<_, String>("12:00"));
    /// let body = r#"{"object": "response", "output": [{"type": "function_call", "call_id": "call_7",
    ///   "name": "get_time", "arguments": "{}"}]}"#;
    /// let calls = toolbox.parse_body(body)?;
    /// assert_eq!(toolbox.dispatch(&calls.calls[0]).to_responses(),
    ///     json!({"type": "function_call_output", "call_id": "call_7", "output": "12:00"}));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_responses(&self) -> Value {
        json!({"type": "function_call_output", "call_id": self.call_id, "output": self.text_in(Dialect::Responses)})
    }

    /// Anthropic: a `tool_result` content block, with `"is_error": true` on failure.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::{ToolDefinition, Toolbox};
    ///
    /// let pay = ToolDefinition::new("pay", None, json!({"type": "object", "properties": {}})).unwrap();
    /// let toolbox = Toolbox::new().with_definition(pay, |_| Err::<(), _>("payment declined"));
    /// let body = r#"{"type": "message", "role": "assistant", "content": [
    ///   {"type": "tool_use", "id": "toolu_01", "name": "pay", "input": {}}]}"#;
    /// let calls = toolbox.parse_body(body)?;
    /// assert_eq!(toolbox.dispatch(&calls.calls[0]).to_anthropic(), json!({"type": "tool_result",
    ///     "tool_use_id": "toolu_01", "content": "The tool `pay` failed: payment declined", "is_error": true}));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_anthropic(&self) -> Value {
        let mut block = json!({"type": "tool_result", "tool_use_id": self.call_id, "content": self.text_in(Dialect::Anthropic)});
        if !self.is_success() {
            block["is_error"] = Value::Bool(true);
        }
        block
    }

    /// Gemini: a `functionResponse` part, `{"output": ...}` on success and
    /// `{"error": "..."}` on failure (the keys Gemini's documentation uses), with the call's
    /// `id` when the model sent one, and the tool's name as Gemini was shown it
    /// ([`dialect::sent_name`](crate::dialect::sent_name), as
    /// [`Toolbox::definitions`](super::Toolbox::definitions) declares it: `get weather` is
    /// `get_weather`).
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::{ToolDefinition, Toolbox};
    ///
    /// let time = ToolDefinition::new("get_time", None, json!({"type": "object", "properties": {}})).unwrap();
    /// let toolbox = Toolbox::new().with_definition(time, |_| Ok::<_, String>(json!({"time": "12:00"})));
    /// // Gemini sent no id: none is sent back.
    /// let body = r#"{"candidates": [{"content": {"role": "model", "parts": [
    ///   {"functionCall": {"name": "get_time", "args": {}}}]}}]}"#;
    /// let calls = toolbox.parse_body(body)?;
    /// assert_eq!(toolbox.dispatch(&calls.calls[0]).to_gemini(), json!({"functionResponse": {
    ///     "name": "get_time", "response": {"output": {"time": "12:00"}}}}));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_gemini(&self) -> Value {
        let response = match &self.result {
            Ok(value) => json!({"output": value}),
            Err(_) => json!({"error": self.text_in(Dialect::Gemini)}),
        };
        let mut function_response = Map::new();
        if !self.call_id_generated {
            function_response.insert("id".to_owned(), Value::from(self.call_id.as_str()));
        }
        // The name of the declaration the model called, not the registered one: a name
        // Gemini refuses (`get weather`) was declared, and called, as `get_weather`.
        let name = crate::dialect::sent_name(&self.tool, Dialect::Gemini);
        function_response.insert("name".to_owned(), Value::from(name.as_ref()));
        function_response.insert("response".to_owned(), response);
        json!({"functionResponse": function_response})
    }

    /// MCP: a `CallToolResult`, `{"content": [{"type": "text", "text"}], "isError"}`, with
    /// `structuredContent` when the output is an object. (MCP reports an unknown tool as a
    /// JSON-RPC error instead; this result is for clients that answer the model directly.)
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::calls::{parse_text, CallOptions};
    /// use tool_input::{ToolDefinition, Toolbox};
    ///
    /// let time = ToolDefinition::new("get_time", None, json!({"type": "object", "properties": {}})).unwrap();
    /// let toolbox = Toolbox::new().with_definition(time, |_| Ok::<_, String>(json!({"time": "12:00"})));
    /// let text = r#"<tool_call>{"name": "get_time", "arguments": {}}</tool_call>"#;
    /// let calls = parse_text(text, &CallOptions::new());
    /// assert_eq!(toolbox.dispatch(&calls.calls[0]).to_mcp(), json!({
    ///     "content": [{"type": "text", "text": r#"{"time":"12:00"}"#}],
    ///     "isError": false,
    ///     "structuredContent": {"time": "12:00"},
    /// }));
    /// ```
    pub fn to_mcp(&self) -> Value {
        let mut result = json!({
            "content": [{"type": "text", "text": self.text_in(Dialect::Mcp)}],
            "isError": !self.is_success(),
        });
        if let Ok(value @ Value::Object(_)) = &self.result {
            result["structuredContent"] = value.clone();
        }
        result
    }

    /// The tool result in the API of `dialect`.
    ///
    /// ```
    /// use tool_input::calls::{parse_text, CallOptions};
    /// use tool_input::{Dialect, Toolbox};
    ///
    /// let toolbox = Toolbox::new();
    /// let text = r#"<tool_call>{"name": "nope", "arguments": {}}</tool_call>"#;
    /// let calls = parse_text(text, &CallOptions::new());
    /// let outcome = toolbox.dispatch(&calls.calls[0]);
    /// // The dialect the tools were shown in picks the answer's shape.
    /// assert_eq!(outcome.to_dialect(Dialect::Anthropic), outcome.to_anthropic());
    /// assert_eq!(outcome.to_dialect(Dialect::OpenAiStrict), outcome.to_openai());
    /// assert_eq!(outcome.to_dialect(Dialect::Anthropic)["is_error"], true);
    /// ```
    pub fn to_dialect(&self, dialect: Dialect) -> Value {
        match dialect {
            Dialect::OpenAi | Dialect::OpenAiStrict => self.to_openai(),
            Dialect::Responses | Dialect::ResponsesStrict => self.to_responses(),
            Dialect::Anthropic => self.to_anthropic(),
            Dialect::Gemini => self.to_gemini(),
            Dialect::Mcp => self.to_mcp(),
        }
    }
}
