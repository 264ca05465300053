//! What came of one call, and the tool result each API expects for it.

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
}

/// Why a call produced no output. Each is a distinct [`OutcomeKind`].
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
        match self {
            Failure::UnknownTool { name, available } => {
                let available: Vec<&str> = available.iter().map(String::as_str).collect();
                f.write_str(&unknown_tool_message(name, &available))
            }
            Failure::Unparsable(rejection) | Failure::Invalid(rejection) => rejection.fmt(f),
            Failure::Malformed(message) => f.write_str(message),
            Failure::Handler { tool, message } => write!(f, "The tool `{tool}` failed: {message}"),
            Failure::BudgetSpent { tool, failures } => write!(
                f,
                "The tool `{tool}` was not run: it failed {failures} times in a row, so its retry budget for this conversation is spent. Do not call it again; tell the user what went wrong."
            ),
            Failure::HandlerBudgetSpent { tool, failures } => write!(
                f,
                "The tool `{tool}` was not run: it failed on its own {failures} times in a row (your arguments were accepted), so it is not run again in this conversation. Do not call it again; tell the user what went wrong."
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
        }
    }

    /// The outcome's kind.
    pub fn kind(&self) -> OutcomeKind {
        match &self.result {
            Ok(_) => OutcomeKind::Success,
            Err(failure) => failure.kind(),
        }
    }

    /// True when the handler ran and returned its output.
    pub fn is_success(&self) -> bool {
        self.result.is_ok()
    }

    /// The text of the tool result: the output (a string as it is, anything else as compact
    /// JSON), or the failure's message for the model, with a last sentence when the retry
    /// budget is now spent.
    pub fn text(&self) -> String {
        match &self.result {
            Ok(Value::String(text)) => text.clone(),
            Ok(value) => value.to_string(),
            Err(failure) => {
                let mut text = failure.to_string();
                let not_run =
                    matches!(failure, Failure::BudgetSpent { .. } | Failure::HandlerBudgetSpent { .. });
                if self.budget_spent && !not_run {
                    let last = if matches!(failure, Failure::Handler { .. }) {
                        "\nThe tool `{}` has now failed on its own too many times in a row and will not be run again in this conversation. Do not call it again; tell the user what went wrong."
                    } else {
                        "\nThe retry budget for `{}` is now spent: it failed too many times in a row. Do not call it again; tell the user what went wrong."
                    };
                    text.push_str(&last.replace("{}", &self.tool));
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
        json!({"role": "tool", "tool_call_id": self.call_id, "content": self.text()})
    }

    /// OpenAI Responses: `{"type": "function_call_output", "call_id", "output"}`.
    pub fn to_responses(&self) -> Value {
        json!({"type": "function_call_output", "call_id": self.call_id, "output": self.text()})
    }

    /// Anthropic: a `tool_result` content block, with `"is_error": true` on failure.
    pub fn to_anthropic(&self) -> Value {
        let mut block = json!({"type": "tool_result", "tool_use_id": self.call_id, "content": self.text()});
        if !self.is_success() {
            block["is_error"] = Value::Bool(true);
        }
        block
    }

    /// Gemini: a `functionResponse` part, `{"output": ...}` on success and
    /// `{"error": "..."}` on failure (the keys Gemini's documentation uses), with the call's
    /// `id` when the model sent one.
    pub fn to_gemini(&self) -> Value {
        let response = match &self.result {
            Ok(value) => json!({"output": value}),
            Err(_) => json!({"error": self.text()}),
        };
        let mut function_response = Map::new();
        if !self.call_id_generated {
            function_response.insert("id".to_owned(), Value::from(self.call_id.as_str()));
        }
        function_response.insert("name".to_owned(), Value::from(self.tool.as_str()));
        function_response.insert("response".to_owned(), response);
        json!({"functionResponse": function_response})
    }

    /// MCP: a `CallToolResult`, `{"content": [{"type": "text", "text"}], "isError"}`, with
    /// `structuredContent` when the output is an object. (MCP reports an unknown tool as a
    /// JSON-RPC error instead; this result is for clients that answer the model directly.)
    pub fn to_mcp(&self) -> Value {
        let mut result = json!({
            "content": [{"type": "text", "text": self.text()}],
            "isError": !self.is_success(),
        });
        if let Ok(value @ Value::Object(_)) = &self.result {
            result["structuredContent"] = value.clone();
        }
        result
    }

    /// The tool result in the API of `dialect`.
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
