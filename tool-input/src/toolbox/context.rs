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
    ///
    /// ```
    /// # use schemars::JsonSchema;
    /// # use serde::Deserialize;
    /// # use tool_input::calls::{parse_text, CallOptions};
    /// use tool_input::{CallContext, ToolInput, Toolbox};
    ///
    /// /// Greet someone.
    /// #[derive(Deserialize, JsonSchema, ToolInput)]
    /// struct Greet { name: String }
    ///
    /// let toolbox = Toolbox::with_state("Bonjour".to_owned())
    ///     .with_context_tool(|call: Greet, cx: CallContext<String>| {
    ///         Ok::<_, String>(format!("{} {}", cx.state(), call.name))
    ///     });
    /// let text = r#"<tool_call>{"name": "greet", "arguments": {"name": "Ada"}}</tool_call>"#;
    /// let calls = parse_text(text, &CallOptions::new());
    /// assert_eq!(toolbox.dispatch(&calls.calls[0]).text(), "Bonjour Ada");
    /// ```
    pub fn state(&self) -> &S {
        &self.state
    }

    /// The application's state, shared (to move into a spawned task).
    ///
    /// ```
    /// # use schemars::JsonSchema;
    /// # use serde::Deserialize;
    /// # use tool_input::calls::{parse_text, CallOptions};
    /// use std::sync::atomic::{AtomicU32, Ordering};
    /// use tool_input::{CallContext, ToolInput, Toolbox};
    ///
    /// /// Count a visit.
    /// #[derive(Deserialize, JsonSchema, ToolInput)]
    /// struct Visit {}
    ///
    /// let toolbox = Toolbox::with_state(AtomicU32::new(0))
    ///     .with_context_tool(|_: Visit, cx: CallContext<AtomicU32>| {
    ///         let counter = cx.shared_state(); // an `Arc`, moved into the thread
    ///         std::thread::spawn(move || counter.fetch_add(1, Ordering::SeqCst) + 1).join().map_err(|_| "panicked")
    ///     });
    /// let text = r#"<tool_call>{"name": "visit", "arguments": {}}</tool_call>"#;
    /// let calls = parse_text(text, &CallOptions::new());
    /// assert_eq!(toolbox.dispatch(&calls.calls[0]).text(), "1");
    /// assert_eq!(toolbox.state().load(Ordering::SeqCst), 1); // the same state, not a copy
    /// ```
    pub fn shared_state(&self) -> Arc<S> {
        Arc::clone(&self.state)
    }

    /// The id of the call being answered (generated when the model sent none).
    ///
    /// ```
    /// # use schemars::JsonSchema;
    /// # use serde::Deserialize;
    /// use tool_input::{CallContext, ToolInput, Toolbox};
    ///
    /// /// Get the weather for a city.
    /// #[derive(Deserialize, JsonSchema, ToolInput)]
    /// struct GetWeather { city: String }
    ///
    /// let toolbox = Toolbox::new()
    ///     .with_context_tool(|_: GetWeather, cx: CallContext<()>| Ok::<_, String>(cx.call_id().to_owned()));
    /// let body = r#"{"choices": [{"message": {"tool_calls": [{"id": "call_42", "type": "function",
    ///   "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}}]}}]}"#;
    /// let calls = toolbox.parse_body(body)?;
    /// assert_eq!(toolbox.dispatch(&calls.calls[0]).text(), "call_42");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn call_id(&self) -> &str {
        &self.call_id
    }

    /// The tool's registered name (the name the model sent may differ in case or
    /// punctuation: see [`resolve_name`](crate::calls::resolve_name)).
    ///
    /// ```
    /// # use schemars::JsonSchema;
    /// # use serde::Deserialize;
    /// # use tool_input::calls::{parse_text, CallOptions};
    /// use tool_input::{CallContext, ToolInput, Toolbox};
    ///
    /// /// Get the time in a city.
    /// #[derive(Deserialize, JsonSchema, ToolInput)]
    /// struct GetTime { city: String }
    ///
    /// let toolbox = Toolbox::new()
    ///     .with_context_tool(|_: GetTime, cx: CallContext<()>| Ok::<_, String>(cx.tool().to_owned()));
    /// let text = r#"<tool_call>{"name": "functions.Get_Time", "arguments": {"city": "Oslo"}}</tool_call>"#;
    /// let calls = parse_text(text, &CallOptions::new());
    /// assert_eq!(calls.calls[0].name, "functions.Get_Time");
    /// assert_eq!(toolbox.dispatch(&calls.calls[0]).text(), "get_time");
    /// ```
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
