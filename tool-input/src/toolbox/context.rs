//! What a context-taking handler is given beside its arguments.

use std::fmt;
use std::sync::Arc;

/// The context of one call, for handlers registered with
/// [`Toolbox::with_context_tool`](super::Toolbox::with_context_tool) or
/// [`Toolbox::with_async_context_tool`](super::Toolbox::with_async_context_tool): the
/// application's state given to [`Toolbox::with_state`](super::Toolbox::with_state), the
/// call's id and the tool's registered name. Owned (the state is shared, not copied), so an
/// async handler's future can keep it.
///
/// ```
/// use std::sync::Arc;
/// use tool_input::CallContext;
///
/// fn log_line(cx: &CallContext<String>) -> String {
///     format!("{} called {} for {}", cx.call_id(), cx.tool(), cx.state())
/// }
/// # let _ = log_line;
/// ```
#[non_exhaustive]
pub struct CallContext<S> {
    state: Arc<S>,
    call_id: String,
    tool: String,
}

impl<S> CallContext<S> {
    pub(super) fn new(state: Arc<S>, call_id: &str, tool: &str) -> Self {
        CallContext { state, call_id: call_id.to_owned(), tool: tool.to_owned() }
    }

    /// The application's state.
    pub fn state(&self) -> &S {
        &self.state
    }

    /// The application's state, shared (to move into a spawned task).
    pub fn shared_state(&self) -> Arc<S> {
        Arc::clone(&self.state)
    }

    /// The id of the call being answered (generated when the model sent none).
    pub fn call_id(&self) -> &str {
        &self.call_id
    }

    /// The tool's registered name (the name the model sent may differ in case or
    /// punctuation: see [`resolve_name`](crate::calls::resolve_name)).
    pub fn tool(&self) -> &str {
        &self.tool
    }
}

impl<S> Clone for CallContext<S> {
    fn clone(&self) -> Self {
        CallContext { state: Arc::clone(&self.state), call_id: self.call_id.clone(), tool: self.tool.clone() }
    }
}

impl<S> fmt::Debug for CallContext<S> {
    // The state is the application's, and need not be `Debug`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CallContext")
            .field("call_id", &self.call_id)
            .field("tool", &self.tool)
            .finish_non_exhaustive()
    }
}
