//! The retry budgets of one conversation.

use std::collections::HashMap;

use super::outcome::{Failure, OutcomeKind};

/// Default for [`Conversation::with_max_failures`].
const DEFAULT_MAX_FAILURES: u32 = 3;
/// Default for [`Conversation::with_max_handler_failures`].
const DEFAULT_MAX_HANDLER_FAILURES: u32 = 3;

/// The retry budgets of one conversation, per tool: two counts, because two different
/// parties fail.
///
/// - **The model's mistakes** ([`with_max_failures`](Conversation::with_max_failures),
///   [`failures`](Conversation::failures)): a call to an unknown tool, arguments that do not
///   parse or fail validation (the tool's own rules included), a call that cannot be read.
///   A call whose arguments are accepted ends the run of mistakes.
/// - **The handler's own errors** ([`with_max_handler_failures`](Conversation::with_max_handler_failures),
///   [`handler_failures`](Conversation::handler_failures)): the arguments were right and
///   the handler returned an error (`payment declined`, a timeout). The model is told it is
///   the tool that failed, and these never count as the model's mistakes: a valid call is
///   never refused because the handler failed before.
///
/// Each counts failures in a row, and a call that succeeds resets both. The failure that
/// reaches a cap says so in its message ([`Outcome::budget_spent`](super::Outcome::budget_spent));
/// after that the tool is not run again in this conversation: each further call is answered
/// with [`Failure::BudgetSpent`](super::Failure::BudgetSpent) (the model's budget) or
/// [`Failure::HandlerBudgetSpent`](super::Failure::HandlerBudgetSpent) (the handler's), so
/// neither a model that keeps sending bad arguments nor a tool that keeps failing loops
/// forever. [`reset`](Conversation::reset) forgets every count (for a new conversation, or
/// once the user has fixed what the tool needed).
///
/// ```
/// use serde_json::json;
/// use tool_input::calls::{parse_text, CallOptions};
/// use tool_input::{Conversation, OutcomeKind, ToolDefinition, Toolbox};
///
/// let ping = ToolDefinition::new("ping", None, json!({
///     "type": "object", "properties": {"host": {"type": "string"}}, "required": ["host"]})).unwrap();
/// let toolbox = Toolbox::new().with_definition(ping, |_| Err::<(), _>("the host is down"));
/// let call = |text: &str| parse_text(text, &CallOptions::new()).calls.remove(0);
/// let wrong = call(r#"<tool_call>{"name": "ping", "arguments": {}}</tool_call>"#);
/// let valid = call(r#"<tool_call>{"name": "ping", "arguments": {"host": "a"}}</tool_call>"#);
///
/// // The model's mistakes: two in a row spend a budget of 2.
/// let mut conversation = Conversation::new().with_max_failures(2);
/// assert!(!toolbox.dispatch_in(&mut conversation, &wrong).budget_spent);
/// let last = toolbox.dispatch_in(&mut conversation, &wrong);
/// assert!(last.budget_spent && last.text().contains("retry budget"));
/// assert_eq!(toolbox.dispatch_in(&mut conversation, &valid).kind(), OutcomeKind::BudgetSpent);
///
/// // The handler's errors have a budget of their own: valid calls still run.
/// let mut conversation = Conversation::new().with_max_failures(2).with_max_handler_failures(3);
/// for _ in 0..2 {
///     let outcome = toolbox.dispatch_in(&mut conversation, &valid);
///     assert_eq!(outcome.kind(), OutcomeKind::HandlerError);
///     assert_eq!(outcome.text(), "The tool `ping` failed: the host is down");
/// }
/// assert_eq!((conversation.failures("ping"), conversation.handler_failures("ping")), (0, 2));
/// assert!(toolbox.dispatch_in(&mut conversation, &valid).budget_spent); // the third
/// conversation.reset();
/// assert_eq!(toolbox.dispatch_in(&mut conversation, &valid).kind(), OutcomeKind::HandlerError);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conversation {
    max_failures: u32,
    max_handler_failures: u32,
    /// The model's mistakes in a row, per tool.
    failures: HashMap<String, u32>,
    /// The handler's errors in a row, per tool.
    handler_failures: HashMap<String, u32>,
}

impl Default for Conversation {
    fn default() -> Self {
        Conversation {
            max_failures: DEFAULT_MAX_FAILURES,
            max_handler_failures: DEFAULT_MAX_HANDLER_FAILURES,
            failures: HashMap::new(),
            handler_failures: HashMap::new(),
        }
    }
}

/// Which budget a tool has spent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Spent {
    /// The model's mistakes, with their count.
    Mistakes(u32),
    /// The handler's errors, with their count.
    Handler(u32),
}

impl Spent {
    /// How many failures in a row spent it.
    pub(crate) fn count(self) -> u32 {
        match self {
            Spent::Mistakes(count) | Spent::Handler(count) => count,
        }
    }

    /// The answer to a call of `tool`, which is not run.
    pub(crate) fn failure(self, tool: &str) -> Failure {
        let tool = tool.to_owned();
        match self {
            Spent::Mistakes(failures) => Failure::BudgetSpent { tool, failures },
            Spent::Handler(failures) => Failure::HandlerBudgetSpent { tool, failures },
        }
    }
}

impl Conversation {
    /// A conversation with the default budgets: 3 mistakes of the model in a row per tool,
    /// and 3 errors of the handler in a row per tool.
    ///
    /// ```
    /// use tool_input::Conversation;
    ///
    /// let conversation = Conversation::new();
    /// assert_eq!((conversation.max_failures(), conversation.max_handler_failures()), (3, 3));
    /// assert_eq!(conversation.failures("any_tool"), 0);
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// How many of the model's mistakes in a row a tool may have (at least 1): unknown
    /// tool, arguments that do not parse or are refused, a call that cannot be read.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::calls::{parse_text, CallOptions};
    /// use tool_input::{Conversation, OutcomeKind, ToolDefinition, Toolbox};
    ///
    /// let ping = ToolDefinition::new("ping", None, json!({
    ///     "type": "object", "properties": {"host": {"type": "string"}}, "required": ["host"]})).unwrap();
    /// let toolbox = Toolbox::new().with_definition(ping, |_| Ok::<_, String>("pong"));
    /// let text = r#"<tool_call>{"name": "ping", "arguments": {}}</tool_call>"#;
    /// let calls = parse_text(text, &CallOptions::new());
    /// let mut conversation = Conversation::new().with_max_failures(1);
    /// assert!(toolbox.dispatch_in(&mut conversation, &calls.calls[0]).budget_spent);
    /// assert_eq!(toolbox.dispatch_in(&mut conversation, &calls.calls[0]).kind(), OutcomeKind::BudgetSpent);
    /// assert_eq!(Conversation::new().with_max_failures(0).max_failures(), 1); // at least 1
    /// ```
    pub fn with_max_failures(mut self, max_failures: u32) -> Self {
        self.max_failures = max_failures.max(1);
        self
    }

    /// How many errors of its handler in a row a tool may have (at least 1) before it is
    /// not run again; counted apart from the model's mistakes.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::calls::{parse_text, CallOptions};
    /// use tool_input::{Conversation, Failure, ToolDefinition, Toolbox};
    ///
    /// let pay = ToolDefinition::new("pay", None, json!({"type": "object", "properties": {}})).unwrap();
    /// let toolbox = Toolbox::new().with_definition(pay, |_| Err::<(), _>("payment declined"));
    /// let text = r#"<tool_call>{"name": "pay", "arguments": {}}</tool_call>"#;
    /// let calls = parse_text(text, &CallOptions::new());
    /// let mut conversation = Conversation::new().with_max_handler_failures(2);
    /// assert!(!toolbox.dispatch_in(&mut conversation, &calls.calls[0]).budget_spent);
    /// assert!(toolbox.dispatch_in(&mut conversation, &calls.calls[0]).budget_spent);
    /// let outcome = toolbox.dispatch_in(&mut conversation, &calls.calls[0]); // not run
    /// assert!(matches!(outcome.result, Err(Failure::HandlerBudgetSpent { failures: 2, .. })));
    /// ```
    pub fn with_max_handler_failures(mut self, max_handler_failures: u32) -> Self {
        self.max_handler_failures = max_handler_failures.max(1);
        self
    }

    /// The cap on the model's mistakes.
    ///
    /// ```
    /// use tool_input::Conversation;
    /// assert_eq!(Conversation::new().max_failures(), 3);
    /// assert_eq!(Conversation::new().with_max_failures(5).max_failures(), 5);
    /// ```
    pub fn max_failures(&self) -> u32 {
        self.max_failures
    }

    /// The cap on the handler's errors.
    ///
    /// ```
    /// use tool_input::Conversation;
    /// let conversation = Conversation::new().with_max_handler_failures(1);
    /// assert_eq!(conversation.max_handler_failures(), 1);
    /// assert_eq!(conversation.max_failures(), 3); // the other cap is unchanged
    /// ```
    pub fn max_handler_failures(&self) -> u32 {
        self.max_handler_failures
    }

    /// How many times in a row the model's call of `tool` was a mistake.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::calls::{parse_text, CallOptions};
    /// use tool_input::{Conversation, ToolDefinition, Toolbox};
    ///
    /// let ping = ToolDefinition::new("ping", None, json!({
    ///     "type": "object", "properties": {"host": {"type": "string"}}, "required": ["host"]})).unwrap();
    /// let toolbox = Toolbox::new().with_definition(ping, |_| Ok::<_, String>("pong"));
    /// let call = |text: &str| parse_text(text, &CallOptions::new()).calls.remove(0);
    /// let wrong = call(r#"<tool_call>{"name": "ping", "arguments": {}}</tool_call>"#);
    /// let valid = call(r#"<tool_call>{"name": "ping", "arguments": {"host": "a"}}</tool_call>"#);
    ///
    /// let mut conversation = Conversation::new();
    /// toolbox.dispatch_in(&mut conversation, &wrong);
    /// toolbox.dispatch_in(&mut conversation, &wrong);
    /// assert_eq!(conversation.failures("ping"), 2);
    /// toolbox.dispatch_in(&mut conversation, &valid); // accepted: the run of mistakes ends
    /// assert_eq!(conversation.failures("ping"), 0);
    /// ```
    pub fn failures(&self, tool: &str) -> u32 {
        self.failures.get(tool).copied().unwrap_or(0)
    }

    /// How many times in a row `tool`'s handler returned an error.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::calls::{parse_text, CallOptions};
    /// use tool_input::{Conversation, ToolDefinition, Toolbox};
    ///
    /// let pay = ToolDefinition::new("pay", None, json!({"type": "object", "properties": {}})).unwrap();
    /// let toolbox = Toolbox::new().with_definition(pay, |_| Err::<(), _>("payment declined"));
    /// let text = r#"<tool_call>{"name": "pay", "arguments": {}}</tool_call>"#;
    /// let calls = parse_text(text, &CallOptions::new());
    /// let mut conversation = Conversation::new();
    /// toolbox.dispatch_in(&mut conversation, &calls.calls[0]);
    /// // The handler failed, not the model: only the handler's count moves.
    /// assert_eq!((conversation.handler_failures("pay"), conversation.failures("pay")), (1, 0));
    /// ```
    pub fn handler_failures(&self, tool: &str) -> u32 {
        self.handler_failures.get(tool).copied().unwrap_or(0)
    }

    /// Has `tool` used up either budget? It is then not run again until
    /// [`reset`](Conversation::reset).
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::calls::{parse_text, CallOptions};
    /// use tool_input::{Conversation, ToolDefinition, Toolbox};
    ///
    /// let ping = ToolDefinition::new("ping", None, json!({
    ///     "type": "object", "properties": {"host": {"type": "string"}}, "required": ["host"]})).unwrap();
    /// let toolbox = Toolbox::new().with_definition(ping, |_| Ok::<_, String>("pong"));
    /// let text = r#"<tool_call>{"name": "ping", "arguments": {}}</tool_call>"#;
    /// let calls = parse_text(text, &CallOptions::new());
    /// let mut conversation = Conversation::new().with_max_failures(2);
    /// toolbox.dispatch_in(&mut conversation, &calls.calls[0]);
    /// assert!(!conversation.is_spent("ping"));
    /// toolbox.dispatch_in(&mut conversation, &calls.calls[0]);
    /// assert!(conversation.is_spent("ping"));
    /// ```
    pub fn is_spent(&self, tool: &str) -> bool {
        self.spent(tool).is_some()
    }

    /// Forget every tool's counts, of both budgets (for example when the user starts over).
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::calls::{parse_text, CallOptions};
    /// use tool_input::{Conversation, ToolDefinition, Toolbox};
    ///
    /// let ping = ToolDefinition::new("ping", None, json!({
    ///     "type": "object", "properties": {"host": {"type": "string"}}, "required": ["host"]})).unwrap();
    /// let toolbox = Toolbox::new().with_definition(ping, |_| Ok::<_, String>("pong"));
    /// let text = r#"<tool_call>{"name": "ping", "arguments": {}}</tool_call>"#;
    /// let calls = parse_text(text, &CallOptions::new());
    /// let mut conversation = Conversation::new().with_max_failures(1);
    /// toolbox.dispatch_in(&mut conversation, &calls.calls[0]);
    /// assert!(conversation.is_spent("ping"));
    /// conversation.reset();
    /// assert!(!conversation.is_spent("ping"));
    /// assert_eq!(conversation.failures("ping"), 0);
    /// ```
    pub fn reset(&mut self) {
        self.failures.clear();
        self.handler_failures.clear();
    }

    /// Which budget `tool` has spent, the model's first.
    pub(crate) fn spent(&self, tool: &str) -> Option<Spent> {
        let mistakes = self.failures(tool);
        let handler = self.handler_failures(tool);
        if mistakes >= self.max_failures {
            Some(Spent::Mistakes(mistakes))
        } else if handler >= self.max_handler_failures {
            Some(Spent::Handler(handler))
        } else {
            None
        }
    }

    /// Count one outcome of `tool`; returns whether a budget is now spent.
    pub(crate) fn record(&mut self, tool: &str, kind: OutcomeKind) -> bool {
        match kind {
            OutcomeKind::Success => {
                self.failures.remove(tool);
                self.handler_failures.remove(tool);
            }
            // The arguments were right: the model's run of mistakes ends there.
            OutcomeKind::HandlerError => {
                self.failures.remove(tool);
                bump(&mut self.handler_failures, tool, self.max_handler_failures);
            }
            // Not run: nothing new happened.
            OutcomeKind::BudgetSpent => {}
            _ => bump(&mut self.failures, tool, self.max_failures),
        }
        self.is_spent(tool)
    }
}

fn bump(counts: &mut HashMap<String, u32>, tool: &str, cap: u32) {
    let count = counts.entry(tool.to_owned()).or_insert(0);
    *count = count.saturating_add(1).min(cap);
}
