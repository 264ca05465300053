//! The retry budget of one conversation.

use std::collections::HashMap;

/// Default for [`Conversation::with_max_failures`].
const DEFAULT_MAX_FAILURES: u32 = 3;

/// The retry budget of one conversation: how many times in a row each tool has failed.
///
/// Every failure (unknown tool, arguments that do not parse or fail validation, a handler
/// error) counts against the tool's name; a success resets it. The failure that reaches the
/// cap says so in its message ([`Outcome::budget_spent`](super::Outcome::budget_spent)), and
/// after that the tool is not run again in this conversation: each further call is answered
/// with [`Failure::BudgetSpent`](super::Failure::BudgetSpent), so a malformed call cannot loop
/// forever.
///
/// ```
/// use serde_json::json;
/// use tool_input::calls::{parse_text, CallOptions};
/// use tool_input::{Conversation, OutcomeKind, ToolDefinition, Toolbox};
///
/// let ping = ToolDefinition::new("ping", None, json!({"type": "object", "properties": {}})).unwrap();
/// let toolbox = Toolbox::new().with_definition(ping, |_| Err::<(), _>("the host is down"));
/// let calls = parse_text(r#"<tool_call>{"name": "ping", "arguments": {}}</tool_call>"#, &CallOptions::new());
///
/// let mut conversation = Conversation::new().with_max_failures(2);
/// assert!(!toolbox.dispatch_in(&mut conversation, &calls.calls[0]).budget_spent);
/// let last = toolbox.dispatch_in(&mut conversation, &calls.calls[0]);
/// assert!(last.budget_spent && last.text().contains("retry budget"));
/// // From now on the tool is not run.
/// assert_eq!(toolbox.dispatch_in(&mut conversation, &calls.calls[0]).kind(), OutcomeKind::BudgetSpent);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conversation {
    max_failures: u32,
    failures: HashMap<String, u32>,
}

impl Default for Conversation {
    fn default() -> Self {
        Conversation { max_failures: DEFAULT_MAX_FAILURES, failures: HashMap::new() }
    }
}

impl Conversation {
    /// A conversation with the default budget: 3 failures in a row per tool.
    pub fn new() -> Self {
        Self::default()
    }

    /// How many failures in a row a tool may have (at least 1).
    pub fn with_max_failures(mut self, max_failures: u32) -> Self {
        self.max_failures = max_failures.max(1);
        self
    }

    /// The cap.
    pub fn max_failures(&self) -> u32 {
        self.max_failures
    }

    /// How many times in a row `tool` has failed.
    pub fn failures(&self, tool: &str) -> u32 {
        self.failures.get(tool).copied().unwrap_or(0)
    }

    /// Has `tool` used up its budget?
    pub fn is_spent(&self, tool: &str) -> bool {
        self.failures(tool) >= self.max_failures
    }

    /// Forget every tool's failures (for example when the user starts over).
    pub fn reset(&mut self) {
        self.failures.clear();
    }

    /// Count one outcome of `tool`; returns whether its budget is now spent.
    pub(crate) fn record(&mut self, tool: &str, success: bool) -> bool {
        if success {
            self.failures.remove(tool);
            return false;
        }
        let count = self.failures.entry(tool.to_owned()).or_insert(0);
        *count = count.saturating_add(1).min(self.max_failures);
        *count >= self.max_failures
    }
}
