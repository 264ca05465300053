//! The Toolbox: typed tools with their handlers; their definitions in any dialect; calls
//! dispatched to them; every outcome turned into the tool result each API expects.

mod context;
mod conversation;
mod dispatch;
mod join;
mod outcome;
#[cfg(test)]
mod tests;
pub(crate) mod trace;

use std::fmt::Display;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;

pub use context::CallContext;
pub use conversation::Conversation;
use conversation::Spent;
use dispatch::{check_parsed_text, finish, is_serde_refusal, Prepared};
pub use outcome::{Failure, Outcome, OutcomeKind};

use crate::calls::{
    self, BodyError, CallError, CallErrorKind, CallOptions, Calls, Format, MatchedBy, NameMatch, ToolCall,
};
use crate::dialect::{self, Dialect, DialectProblem, ProblemCode};
use crate::error::{Rejection, RejectionKind};
use crate::parsed_text::ParsedText;
use crate::raw::RawArguments;
use crate::report::{Checked, Report};
use crate::tool::{ToolDefinition, ToolInput};
use crate::validator::CheckOptions;

/// What a handler returns, type-erased: the output as JSON, or the error's text.
type Output = Result<Value, String>;
type BoxFuture = Pin<Box<dyn Future<Output = Output> + Send>>;

/// A handler called: its output (a synchronous handler), or the future of it.
enum Started {
    Output(Output),
    Future(BoxFuture),
}

/// A handler given checked JSON: a tool defined by a schema, or a typed tool whose arguments
/// were checked as JSON (a dialect that changes them, or a listener of the `arguments
/// accepted` event, which logs that JSON). `Err`: the typed value could not be made of it.
type OnValue<S> = Box<dyn Fn(Checked<Value>, &Invocation<'_, S>) -> Result<Started, Rejection> + Send + Sync>;

/// A typed tool's reading of raw arguments: checked straight into the type by its typed path
/// ([`ToolInput::from_arguments_with`]), and bound to the handler. With the call record's
/// parse of the text, when it has one: the text is then not parsed again where the parse is
/// the one the tool would make.
type OnRaw<S> = Box<
    dyn Fn(RawArguments<'_>, Option<&ParsedText<'_>>, &CheckOptions) -> Result<Bound<S>, Rejection>
        + Send
        + Sync,
>;

/// A handler bound to its typed value, to call once.
type Start<S> = Box<dyn FnOnce(&Invocation<'_, S>) -> Result<Started, Rejection> + Send>;

/// A call's typed arguments, which the schema accepted, bound to the tool's handler.
struct Bound<S> {
    /// The repairs and coercions the arguments needed.
    report: Report,
    /// Call the handler; `Err` when the type's own rules or serde refused the value after the
    /// schema accepted it (a refusal of the handler's input, as when the handler took JSON).
    start: Start<S>,
}

/// A call's arguments, checked for its tool.
enum Arguments<S> {
    Value(Checked<Value>),
    Typed(Bound<S>),
}

impl<S> Arguments<S> {
    fn report(&self) -> &Report {
        match self {
            Arguments::Value(checked) => &checked.report,
            Arguments::Typed(bound) => &bound.report,
        }
    }
}

struct Tool<S> {
    definition: ToolDefinition,
    sensitive: Vec<String>,
    /// The handler returns a future ([`Toolbox::dispatch`] does not run it).
    is_async: bool,
    on_value: OnValue<S>,
    /// For a typed tool: its typed path.
    on_raw: Option<OnRaw<S>>,
}

/// What a handler may be given about its call; a [`CallContext`] is made of it only for the
/// handlers that take one.
struct Invocation<'a, S> {
    state: &'a Arc<S>,
    call_id: &'a str,
    tool: &'a str,
}

impl<S> Invocation<'_, S> {
    fn context(&self) -> CallContext<S> {
        CallContext::new(Arc::clone(self.state), self.call_id, self.tool)
    }
}

/// Typed tools and their handlers, in one place: list their definitions for any API,
/// dispatch the calls a model makes, and answer each with a tool result.
///
/// Handlers take the tool's typed arguments and return `Result<O, E>` with `O: Serialize`
/// (a `String` output is sent as is, anything else as JSON) and `E: Display`. Async handlers
/// return a future, which [`Toolbox::dispatch_async`] awaits: no runtime is imposed, so
/// any executor works. A handler that panics is not caught.
///
/// Every dispatch ends in one [`Outcome`] of a distinct [`OutcomeKind`]: success, unknown
/// tool (listing the available ones), arguments that do not parse, arguments that fail
/// validation, the handler's error (or, with a [`Conversation`], a retry budget spent).
/// Arguments are always checked again with the tool's own validator and policy, from the
/// call's [original arguments](ToolCall::original), and, when the tools were shown in a
/// transformed dialect ([`Toolbox::with_dialect`]), read back from it. Argument text that
/// needed repairs is parsed once: where the tool's policy and limits parse it as the call
/// record did (any policy but [`Policy::Strict`](crate::Policy::Strict), the same depth
/// limit), the check takes the record's parse, with the same outcome as parsing the text
/// again. Strict JSON is read again by `serde_json` (for a typed tool, straight into its
/// type), which costs less than keeping its parse.
///
/// ```
/// use schemars::JsonSchema;
/// use serde::Deserialize;
/// use tool_input::calls::{parse_body, CallOptions};
/// use tool_input::{Dialect, ToolInput, Toolbox};
///
/// /// Get the weather for a city.
/// #[derive(Deserialize, JsonSchema, ToolInput)]
/// struct GetWeather { city: String }
///
/// let toolbox = Toolbox::new()
///     .with_tool(|call: GetWeather| Ok::<_, String>(format!("Sunny in {}", call.city)));
/// let tools = toolbox.definitions(Dialect::OpenAi); // send these with the request
/// assert_eq!(tools[0]["function"]["name"], "get_weather");
///
/// let body = br#"{"choices": [{"message": {"tool_calls": [{"id": "call_1", "type": "function",
///   "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}}]}}]}"#;
/// let calls = parse_body(body, &toolbox.call_options()).unwrap();
/// let outcome = toolbox.dispatch(&calls.calls[0]);
/// assert_eq!(outcome.to_openai(), serde_json::json!({
///     "role": "tool", "tool_call_id": "call_1", "content": "Sunny in Paris"
/// }));
/// ```
pub struct Toolbox<S = ()> {
    tools: Vec<Tool<S>>,
    /// `(sent, registered)`: the names definitions are sent under where a dialect's
    /// provider rejects the registered name ([`dialect::sent_name`]).
    sent_names: Vec<(String, String)>,
    dialect: Option<Dialect>,
    options: CheckOptions,
    state: Arc<S>,
}

impl Default for Toolbox {
    fn default() -> Self {
        Self::new()
    }
}

impl<S: Send + Sync + 'static> std::fmt::Debug for Toolbox<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Toolbox").field("tools", &self.names()).field("dialect", &self.dialect).finish()
    }
}

impl Toolbox {
    /// An empty toolbox.
    ///
    /// ```
    /// use tool_input::calls::{parse_text, CallOptions};
    /// use tool_input::{OutcomeKind, Toolbox};
    ///
    /// let toolbox = Toolbox::new();
    /// assert!(toolbox.names().is_empty());
    /// let text = r#"<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>"#;
    /// let calls = parse_text(text, &CallOptions::new());
    /// assert_eq!(toolbox.dispatch(&calls.calls[0]).kind(), OutcomeKind::UnknownTool);
    /// ```
    pub fn new() -> Self {
        Toolbox::with_state(())
    }
}

impl<S: Send + Sync + 'static> Toolbox<S> {
    /// An empty toolbox whose handlers registered with [`Toolbox::with_context_tool`] or
    /// [`Toolbox::with_async_context_tool`] are given `state` (the application's: a database
    /// pool, a client, the user's session) in their [`CallContext`], with the call's id and
    /// the tool's name. Handlers registered without context work as in [`Toolbox::new`].
    ///
    /// ```
    /// use std::sync::Arc;
    /// use tool_input::Toolbox;
    ///
    /// struct Db { url: String }
    ///
    /// // An `Arc` the application keeps is shared with the handlers, not copied.
    /// let db = Arc::new(Db { url: "postgres://localhost/shop".into() });
    /// let toolbox = Toolbox::with_state(Arc::clone(&db));
    /// assert!(std::ptr::eq(toolbox.state(), &*db));
    /// assert_eq!(Toolbox::with_state(Db { url: "sqlite::memory:".into() }).state().url, "sqlite::memory:");
    /// ```
    pub fn with_state(state: impl Into<Arc<S>>) -> Self {
        Toolbox {
            tools: Vec::new(),
            sent_names: Vec::new(),
            dialect: None,
            options: CheckOptions::default(),
            state: state.into(),
        }
    }

    /// The state handlers are given in their [`CallContext`].
    ///
    /// ```
    /// use std::sync::atomic::{AtomicU32, Ordering};
    /// # use schemars::JsonSchema;
    /// # use serde::Deserialize;
    /// # use tool_input::calls::{parse_text, CallOptions};
    /// use tool_input::{CallContext, ToolInput, Toolbox};
    ///
    /// /// Record a visit.
    /// #[derive(Deserialize, JsonSchema, ToolInput)]
    /// struct Visit { page: String }
    ///
    /// let toolbox = Toolbox::with_state(AtomicU32::new(0))
    ///     .with_context_tool(|_: Visit, cx: CallContext<AtomicU32>| {
    ///         Ok::<_, String>(cx.state().fetch_add(1, Ordering::SeqCst))
    ///     });
    /// let text = r#"<tool_call>{"name": "visit", "arguments": {"page": "/"}}</tool_call>"#;
    /// let calls = parse_text(text, &CallOptions::new());
    /// toolbox.dispatch(&calls.calls[0]);
    /// assert_eq!(toolbox.state().load(Ordering::SeqCst), 1);
    /// ```
    pub fn state(&self) -> &S {
        &self.state
    }

    /// Register a typed tool with a synchronous handler. A tool of the same name replaces
    /// the earlier one.
    ///
    /// ```
    /// use schemars::JsonSchema;
    /// use serde::Deserialize;
    /// use tool_input::calls::{parse_text, CallOptions};
    /// use tool_input::{ToolInput, Toolbox};
    ///
    /// /// Get the weather for a city.
    /// #[derive(Deserialize, JsonSchema, ToolInput)]
    /// struct GetWeather { city: String }
    ///
    /// let toolbox = Toolbox::new()
    ///     .with_tool(|_: GetWeather| Ok::<_, String>("Rain"))
    ///     .with_tool(|call: GetWeather| Ok::<_, String>(format!("Sunny in {}", call.city)));
    /// assert_eq!(toolbox.names(), ["get_weather"]); // the second replaced the first
    /// let text = r#"<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>"#;
    /// let calls = parse_text(text, &CallOptions::new());
    /// assert_eq!(toolbox.dispatch(&calls.calls[0]).text(), "Sunny in Paris");
    /// ```
    pub fn with_tool<T, F, O, E>(self, handler: F) -> Self
    where
        T: ToolInput + Send + 'static,
        F: Fn(T) -> Result<O, E> + Send + Sync + 'static,
        O: Serialize,
        E: Display,
    {
        self.insert_typed(false, move |value: T, _: &Invocation<'_, S>| {
            Started::Output(handler(value).map_err(|error| error.to_string()).and_then(to_json))
        })
    }

    /// Register a typed tool with an asynchronous handler: a function returning a future
    /// (`Send`, `'static`), awaited by [`Toolbox::dispatch_async`].
    ///
    /// ```
    /// use schemars::JsonSchema;
    /// use serde::Deserialize;
    /// use tool_input::calls::{parse_text, CallOptions};
    /// use tool_input::{ToolInput, Toolbox};
    ///
    /// /// Get the weather for a city.
    /// #[derive(Deserialize, JsonSchema, ToolInput)]
    /// struct GetWeather { city: String }
    ///
    /// let toolbox = Toolbox::new()
    ///     .with_async_tool(|call: GetWeather| async move { Ok::<_, String>(format!("Sunny in {}", call.city)) });
    /// let text = r#"<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>"#;
    /// let calls = parse_text(text, &CallOptions::new());
    /// let outcome = futures_executor::block_on(toolbox.dispatch_async(&calls.calls[0]));
    /// assert_eq!(outcome.text(), "Sunny in Paris");
    /// assert!(!toolbox.dispatch(&calls.calls[0]).is_success()); // not run by the sync dispatch
    /// ```
    pub fn with_async_tool<T, F, Fut, O, E>(self, handler: F) -> Self
    where
        T: ToolInput + Send + 'static,
        F: Fn(T) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<O, E>> + Send + 'static,
        O: Serialize,
        E: Display,
    {
        self.insert_typed(true, move |value: T, _: &Invocation<'_, S>| {
            let future = handler(value);
            Started::Future(Box::pin(async move {
                future.await.map_err(|error| error.to_string()).and_then(to_json)
            }))
        })
    }

    /// Register a typed tool whose synchronous handler also takes a [`CallContext`]: the
    /// toolbox's state ([`Toolbox::with_state`]), the call's id and the tool's name.
    ///
    /// ```
    /// use std::sync::Mutex;
    /// use schemars::JsonSchema;
    /// use serde::Deserialize;
    /// use tool_input::calls::{parse_text, CallOptions};
    /// use tool_input::{CallContext, ToolInput, Toolbox};
    ///
    /// /// Add an item to the cart.
    /// #[derive(Deserialize, JsonSchema, ToolInput)]
    /// struct AddToCart { sku: String }
    ///
    /// struct Shop { cart: Mutex<Vec<String>> }
    ///
    /// let toolbox = Toolbox::with_state(Shop { cart: Mutex::new(Vec::new()) })
    ///     .with_context_tool(|call: AddToCart, cx: CallContext<Shop>| {
    ///         let mut cart = cx.state().cart.lock().map_err(|_| "the cart is unavailable")?;
    ///         cart.push(call.sku);
    ///         Ok::<_, &str>(format!("{} items after call {}", cart.len(), cx.call_id()))
    ///     });
    ///
    /// let calls = parse_text(r#"<tool_call>{"name": "add_to_cart", "arguments": {"sku": "A-1"}}</tool_call>"#, &CallOptions::new());
    /// let outcome = toolbox.dispatch(&calls.calls[0]);
    /// assert_eq!(outcome.text(), format!("1 items after call {}", calls.calls[0].id));
    /// assert_eq!(toolbox.state().cart.lock().unwrap().as_slice(), ["A-1"]);
    /// ```
    pub fn with_context_tool<T, F, O, E>(self, handler: F) -> Self
    where
        T: ToolInput + Send + 'static,
        F: Fn(T, CallContext<S>) -> Result<O, E> + Send + Sync + 'static,
        O: Serialize,
        E: Display,
    {
        self.insert_typed(false, move |value: T, invocation: &Invocation<'_, S>| {
            Started::Output(
                handler(value, invocation.context()).map_err(|error| error.to_string()).and_then(to_json),
            )
        })
    }

    /// Register a typed tool whose asynchronous handler also takes a [`CallContext`]
    /// (owned, so the future can keep it: `Send`, `'static`).
    ///
    /// ```
    /// use schemars::JsonSchema;
    /// use serde::Deserialize;
    /// use tool_input::calls::{parse_text, CallOptions};
    /// use tool_input::{CallContext, ToolInput, Toolbox};
    ///
    /// /// Get the weather for a city.
    /// #[derive(Deserialize, JsonSchema, ToolInput)]
    /// struct GetWeather { city: String }
    ///
    /// let toolbox = Toolbox::with_state("metric".to_owned()).with_async_context_tool(
    ///     |call: GetWeather, cx: CallContext<String>| async move {
    ///         Ok::<_, String>(format!("21 degrees ({}) in {}", cx.state(), call.city))
    ///     },
    /// );
    /// let text = r#"<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>"#;
    /// let calls = parse_text(text, &CallOptions::new());
    /// let outcome = futures_executor::block_on(toolbox.dispatch_async(&calls.calls[0]));
    /// assert_eq!(outcome.text(), "21 degrees (metric) in Paris");
    /// ```
    pub fn with_async_context_tool<T, F, Fut, O, E>(self, handler: F) -> Self
    where
        T: ToolInput + Send + 'static,
        F: Fn(T, CallContext<S>) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<O, E>> + Send + 'static,
        O: Serialize,
        E: Display,
    {
        self.insert_typed(true, move |value: T, invocation: &Invocation<'_, S>| {
            let future = handler(value, invocation.context());
            Started::Future(Box::pin(async move {
                future.await.map_err(|error| error.to_string()).and_then(to_json)
            }))
        })
    }

    /// Register a tool defined by a plain JSON Schema; its handler gets the checked
    /// arguments as JSON.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::calls::{parse_text, CallOptions};
    /// use tool_input::{ToolDefinition, Toolbox};
    ///
    /// let add = ToolDefinition::new("add", Some("Add two integers."), json!({"type": "object",
    ///     "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}, "required": ["a", "b"]}))?;
    /// let toolbox = Toolbox::new().with_definition(add, |args| match (args["a"].as_i64(), args["b"].as_i64()) {
    ///     (Some(a), Some(b)) => Ok(a + b),
    ///     _ => Err("not integers"),
    /// });
    /// // The handler gets the checked arguments: `"2"` was coerced to `2`.
    /// let text = r#"<tool_call>{"name": "add", "arguments": {"a": "2", "b": 3}}</tool_call>"#;
    /// let calls = parse_text(text, &CallOptions::new());
    /// assert_eq!(toolbox.dispatch(&calls.calls[0]).text(), "5");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_definition<F, O, E>(self, definition: ToolDefinition, handler: F) -> Self
    where
        F: Fn(Value) -> Result<O, E> + Send + Sync + 'static,
        O: Serialize,
        E: Display,
    {
        let run = move |checked: Checked<Value>, _: &Invocation<'_, S>| -> Result<Started, Rejection> {
            Ok(Started::Output(handler(checked.value).map_err(|error| error.to_string()).and_then(to_json)))
        };
        self.insert(definition, false, Box::new(run), None)
    }

    /// Register a tool defined by a plain JSON Schema, with an asynchronous handler.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::calls::{parse_text, CallOptions};
    /// use tool_input::{ToolDefinition, Toolbox};
    ///
    /// let echo = ToolDefinition::new("echo", None, json!({"type": "object",
    ///     "properties": {"text": {"type": "string"}}, "required": ["text"]}))?;
    /// let toolbox = Toolbox::new()
    ///     .with_async_definition(echo, |args| async move { Ok::<_, String>(args["text"].clone()) });
    /// let text = r#"<tool_call>{"name": "echo", "arguments": {"text": "hi"}}</tool_call>"#;
    /// let calls = parse_text(text, &CallOptions::new());
    /// let outcome = futures_executor::block_on(toolbox.dispatch_async(&calls.calls[0]));
    /// assert_eq!(outcome.text(), "hi");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_async_definition<F, Fut, O, E>(self, definition: ToolDefinition, handler: F) -> Self
    where
        F: Fn(Value) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<O, E>> + Send + 'static,
        O: Serialize,
        E: Display,
    {
        let run = move |checked: Checked<Value>, _: &Invocation<'_, S>| -> Result<Started, Rejection> {
            let future = handler(checked.value);
            Ok(Started::Future(Box::pin(async move {
                future.await.map_err(|error| error.to_string()).and_then(to_json)
            })))
        };
        self.insert(definition, true, Box::new(run), None)
    }

    /// The dialect the model is shown the tools in, so arguments are read back from it
    /// (see [`ToolDefinition::check_as`]): under [`Dialect::OpenAiStrict`], a `null` for an
    /// optional field is absent even for a [`Policy::Strict`](crate::Policy::Strict) tool.
    ///
    /// ```
    /// use schemars::JsonSchema;
    /// use serde::Deserialize;
    /// use tool_input::calls::{parse_text, CallOptions};
    /// use tool_input::{Dialect, ToolInput, Toolbox};
    ///
    /// /// Search the catalogue.
    /// #[derive(Deserialize, JsonSchema, ToolInput)]
    /// #[tool_input(policy = "strict")]
    /// struct Search { query: String, #[serde(default)] page: u32 }
    ///
    /// // Shown the strict definition, the model sends `null` for the page it leaves out.
    /// let text = r#"<tool_call>{"name": "search", "arguments": {"query": "rust", "page": null}}</tool_call>"#;
    /// let calls = parse_text(text, &CallOptions::new());
    /// let handler = |call: Search| Ok::<_, String>(format!("page {} of {}", call.page, call.query));
    /// assert!(!Toolbox::new().with_tool(handler).dispatch(&calls.calls[0]).is_success());
    /// let toolbox = Toolbox::new().with_tool(handler).with_dialect(Dialect::OpenAiStrict);
    /// assert_eq!(toolbox.dispatch(&calls.calls[0]).text(), "page 0 of rust");
    /// ```
    pub fn with_dialect(mut self, dialect: Dialect) -> Self {
        self.dialect = Some(dialect);
        self
    }

    /// Options for every check (a policy or limits over the tools' own).
    ///
    /// ```
    /// use schemars::JsonSchema;
    /// use serde::Deserialize;
    /// use tool_input::calls::{parse_text, CallOptions};
    /// use tool_input::{CheckOptions, OutcomeKind, Policy, ToolInput, Toolbox};
    ///
    /// /// Roll dice.
    /// #[derive(Deserialize, JsonSchema, ToolInput)]
    /// struct Roll { dice: u8 }
    ///
    /// let text = r#"<tool_call>{"name": "roll", "arguments": {"dice": "2"}}</tool_call>"#;
    /// let calls = parse_text(text, &CallOptions::new());
    /// let lenient = Toolbox::new().with_tool(|call: Roll| Ok::<_, String>(call.dice));
    /// assert_eq!(lenient.dispatch(&calls.calls[0]).text(), "2"); // "2" coerced to 2
    /// let strict = Toolbox::new()
    ///     .with_tool(|call: Roll| Ok::<_, String>(call.dice))
    ///     .with_check_options(CheckOptions::new().with_policy(Policy::Strict));
    /// assert_eq!(strict.dispatch(&calls.calls[0]).kind(), OutcomeKind::Invalid);
    /// ```
    pub fn with_check_options(mut self, options: CheckOptions) -> Self {
        self.options = options;
        self
    }

    /// Register a typed tool: `call` runs its handler on the typed value. Built here, where
    /// `T` is known, so a call's arguments take `T`'s typed path (one pass from the text to
    /// `T` when they need it) rather than checked JSON deserialized after.
    fn insert_typed<T, C>(self, is_async: bool, call: C) -> Self
    where
        T: ToolInput + Send + 'static,
        C: Fn(T, &Invocation<'_, S>) -> Started + Send + Sync + 'static,
    {
        let call = Arc::new(call);
        let on_value: OnValue<S> = {
            let call = Arc::clone(&call);
            Box::new(move |checked, invocation| {
                let typed = crate::tool::typed::<T>(checked)?;
                Ok(call(typed.value, invocation))
            })
        };
        let on_raw: OnRaw<S> = Box::new(move |raw, parsed, options| bind_typed(raw, parsed, options, &call));
        self.insert(T::definition().clone(), is_async, on_value, Some(on_raw))
    }

    fn insert(
        mut self,
        definition: ToolDefinition,
        is_async: bool,
        on_value: OnValue<S>,
        on_raw: Option<OnRaw<S>>,
    ) -> Self {
        let sensitive = definition.validator().sensitive_fields().map(str::to_owned).collect();
        let tool = Tool { definition, sensitive, is_async, on_value, on_raw };
        match self.tools.iter_mut().find(|t| t.definition.name() == tool.definition.name()) {
            Some(slot) => *slot = tool,
            None => self.tools.push(tool),
        }
        self.sent_names = self
            .tools
            .iter()
            .flat_map(|tool| {
                let name = tool.definition.name();
                Dialect::ALL.into_iter().map(move |dialect| (dialect::sent_name(name, dialect), name))
            })
            .filter(|(sent, name)| sent != name)
            .map(|(sent, name)| (sent.into_owned(), name.to_owned()))
            .collect();
        self.sent_names.sort();
        self.sent_names.dedup();
        self
    }

    /// The registered tools' names, in registration order.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::{ToolDefinition, Toolbox};
    ///
    /// let tool = |name: &str| ToolDefinition::new(name, None, json!({"type": "object"})).unwrap();
    /// let toolbox = Toolbox::new()
    ///     .with_definition(tool("search"), |_| Ok::<_, String>("…"))
    ///     .with_definition(tool("fetch"), |_| Ok::<_, String>("…"));
    /// assert_eq!(toolbox.names(), ["search", "fetch"]);
    /// ```
    pub fn names(&self) -> Vec<&str> {
        self.tools.iter().map(|tool| tool.definition.name()).collect()
    }

    /// The registered tools' definitions.
    ///
    /// ```
    /// # use schemars::JsonSchema;
    /// # use serde::Deserialize;
    /// use tool_input::{ToolInput, Toolbox};
    ///
    /// /// Get the weather for a city.
    /// #[derive(Deserialize, JsonSchema, ToolInput)]
    /// struct GetWeather { city: String }
    ///
    /// let toolbox = Toolbox::new().with_tool(|call: GetWeather| Ok::<_, String>(call.city));
    /// let definition = toolbox.tool_definitions().next().unwrap();
    /// assert_eq!(definition.description(), Some("Get the weather for a city."));
    /// assert!(definition.check(r#"{"city": "Paris"}"#).is_ok());
    /// ```
    pub fn tool_definitions(&self) -> impl Iterator<Item = &ToolDefinition> {
        self.tools.iter().map(|tool| &tool.definition)
    }

    /// Every tool's definition in `dialect`, to send with a request. A tool whose name the
    /// provider rejects (`files.read` for OpenAI, whose names must match
    /// `^[a-zA-Z0-9_-]{1,64}$`) is sent under [`dialect::sent_name`] (`files_read`); a call
    /// to that name is dispatched to the registered tool.
    ///
    /// ```
    /// use tool_input::{Dialect, ToolDefinition, Toolbox};
    /// use serde_json::json;
    /// let read = ToolDefinition::new("files.read", None, json!({"type": "object", "properties": {}})).unwrap();
    /// let toolbox = Toolbox::new().with_definition(read, |_| Ok::<_, String>("read"));
    /// assert_eq!(toolbox.definitions(Dialect::OpenAi)[0]["function"]["name"], "files_read");
    /// assert_eq!(toolbox.definitions(Dialect::Mcp)[0]["name"], "files.read");
    /// assert!(toolbox.check_dialect(Dialect::OpenAi).is_empty());
    /// ```
    pub fn definitions(&self, dialect: Dialect) -> Vec<Value> {
        self.tools.iter().map(|tool| sent_definition(&tool.definition, dialect)).collect()
    }

    /// What `dialect` would reject in the tools' definitions as [`Toolbox::definitions`]
    /// sends them, per tool name: empty when every tool passes. Two tools sent under the
    /// same name are a [`ProblemCode::Name`] problem. Meant for a test.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::dialect::ProblemCode;
    /// use tool_input::{Dialect, ToolDefinition, Toolbox};
    ///
    /// let tool = |name: &str| ToolDefinition::new(name, None, json!({"type": "object"})).unwrap();
    /// let toolbox = Toolbox::new()
    ///     .with_definition(tool("files.read"), |_| Ok::<_, String>("…"))
    ///     .with_definition(tool("files_read"), |_| Ok::<_, String>("…"));
    /// assert!(toolbox.check_dialect(Dialect::Mcp).is_empty());
    /// // OpenAI gets both as `files_read`.
    /// let problems = toolbox.check_dialect(Dialect::OpenAi);
    /// assert_eq!((problems[0].0.as_str(), problems[0].1.code), ("files_read", ProblemCode::Name));
    /// ```
    pub fn check_dialect(&self, dialect: Dialect) -> Vec<(String, DialectProblem)> {
        let mut problems: Vec<(String, DialectProblem)> = self
            .tools
            .iter()
            .flat_map(|tool| {
                let definition = &tool.definition;
                let name = definition.name().to_owned();
                let sent = dialect::sent_name(definition.name(), dialect);
                dialect::check_tool(&sent, definition.description(), definition.schema(), dialect)
                    .into_iter()
                    .map(move |problem| (name.clone(), problem))
            })
            .collect();
        for (i, tool) in self.tools.iter().enumerate() {
            let sent = dialect::sent_name(tool.definition.name(), dialect);
            let first = self.tools[..i]
                .iter()
                .find(|earlier| dialect::sent_name(earlier.definition.name(), dialect) == sent);
            if let Some(earlier) = first {
                let message = format!(
                    "the tool is sent as `{sent}`, the name the tool `{}` is sent under too",
                    earlier.definition.name()
                );
                let pointer = match dialect {
                    Dialect::OpenAi | Dialect::OpenAiStrict => "/function/name",
                    _ => "/name",
                };
                let problem =
                    DialectProblem { pointer: pointer.to_owned(), code: ProblemCode::Name, message };
                problems.push((tool.definition.name().to_owned(), problem));
            }
        }
        problems
    }

    /// Options for reading calls: the registered tools, by name and schema, and the names
    /// their definitions are sent under ([`CallOptions::sent_name`]).
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::calls::{parse_text, CallOptions};
    /// use tool_input::{ToolDefinition, Toolbox};
    ///
    /// let read = ToolDefinition::new("files.read", None, json!({"type": "object"}))?;
    /// let toolbox = Toolbox::new().with_definition(read, |_| Ok::<_, String>("…"));
    /// // The name OpenAI was shown the tool under, read back as the registered one.
    /// let text = r#"<tool_call>{"name": "files_read", "arguments": {}}</tool_call>"#;
    /// assert_eq!(parse_text(text, &toolbox.call_options()).calls[0].name, "files.read");
    /// assert_eq!(parse_text(text, &CallOptions::new()).calls[0].name, "files_read");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn call_options(&self) -> CallOptions {
        self.sent_names
            .iter()
            .fold(CallOptions::new().definitions(self.tool_definitions()), |options, (sent, name)| {
                options.sent_name(sent.clone(), name.clone())
            })
    }

    /// A [`StreamAssembler`](crate::stream::StreamAssembler) for a streamed response,
    /// knowing the registered tools ([`Toolbox::call_options`]). While a call streams, its
    /// arguments as the tool's typed partial are
    /// [`stream.partial::<T>(position)`](crate::stream::StreamAssembler::partial) for the tool
    /// type `T` registered under the call's name (a partial is typed, so it is asked for by
    /// type: by name alone there is no type to give); once the response ends, its calls go to
    /// [`Toolbox::dispatch`].
    ///
    /// ```
    /// use schemars::JsonSchema;
    /// use serde::Deserialize;
    /// use serde_json::json;
    /// use tool_input::partial::FieldState;
    /// use tool_input::{ToolInput, Toolbox};
    ///
    /// /// Write a file.
    /// #[derive(Deserialize, JsonSchema, ToolInput)]
    /// struct WriteFile { path: String, content: String }
    ///
    /// let toolbox = Toolbox::new().with_tool(|input: WriteFile| Ok::<_, String>(input.content.len()));
    /// let mut stream = toolbox.stream();
    /// stream.push_event(&json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0,
    ///     "id": "call_1", "function": {"name": "write_file", "arguments": "{\"path\": \"a.md\", \"content\": \"# Ti"}}]}}]}));
    /// let partial = stream.partial::<WriteFile>(0).unwrap().value().unwrap();
    /// assert_eq!(partial.content, FieldState::Arriving("# Ti".to_owned()));
    /// stream.push_event(&json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0,
    ///     "function": {"arguments": "tle\"}"}}]}, "finish_reason": "tool_calls"}]}));
    /// let calls = stream.finish().calls;
    /// assert!(toolbox.dispatch(&calls[0]).is_success());
    /// ```
    pub fn stream(&self) -> crate::stream::StreamAssembler {
        crate::stream::StreamAssembler::new(self.call_options())
    }

    /// Read the calls of a response body, knowing the registered tools
    /// ([`calls::parse_body`] with [`Toolbox::call_options`]): `&str`, `String`, bytes,
    /// anything that is `AsRef<[u8]>`.
    ///
    /// ```
    /// # use schemars::JsonSchema;
    /// # use serde::Deserialize;
    /// use tool_input::calls::Format;
    /// use tool_input::{ToolInput, Toolbox};
    ///
    /// # /// Get the weather for a city.
    /// # #[derive(Deserialize, JsonSchema, ToolInput)]
    /// # struct GetWeather { city: String }
    /// let toolbox = Toolbox::new().with_tool(|call: GetWeather| Ok::<_, String>(call.city));
    /// let body = String::from(r#"{"type": "message", "role": "assistant", "content": [
    ///   {"type": "tool_use", "id": "toolu_01", "name": "Get_Weather", "input": {"city": "Paris"}}]}"#);
    /// let calls = toolbox.parse_body(body)?;
    /// assert_eq!(calls.format, Format::Anthropic);
    /// assert_eq!(calls.calls[0].name, "get_weather"); // the registered name
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn parse_body(&self, body: impl AsRef<[u8]>) -> Result<Calls, BodyError> {
        calls::parse_body(body, &self.call_options())
    }

    /// Run a call with a synchronous handler. A tool registered with an async handler is
    /// not run: its outcome is a handler error saying to use [`Toolbox::dispatch_async`].
    ///
    /// ```
    /// use schemars::JsonSchema;
    /// use serde::Deserialize;
    /// use tool_input::calls::{parse_text, CallOptions};
    /// use tool_input::{OutcomeKind, ToolInput, Toolbox};
    ///
    /// /// Get the weather for a city.
    /// #[derive(Deserialize, JsonSchema, ToolInput)]
    /// struct GetWeather { city: String }
    ///
    /// let toolbox = Toolbox::new().with_tool(|call: GetWeather| Ok::<_, String>(format!("Sunny in {}", call.city)));
    /// let text = r#"<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>
    ///   <tool_call>{"name": "get_weather", "arguments": {"town": "Paris"}}</tool_call>"#;
    /// let calls = parse_text(text, &CallOptions::new());
    /// assert_eq!(toolbox.dispatch(&calls.calls[0]).text(), "Sunny in Paris");
    /// let refused = toolbox.dispatch(&calls.calls[1]);
    /// assert_eq!(refused.kind(), OutcomeKind::Invalid);
    /// assert!(refused.text().contains("- /city: "));
    /// ```
    pub fn dispatch(&self, call: &ToolCall) -> Outcome {
        self.dispatch_sync(call, None)
    }

    /// [`Toolbox::dispatch`] within a conversation's retry budget.
    ///
    /// ```
    /// use schemars::JsonSchema;
    /// use serde::Deserialize;
    /// use tool_input::calls::{parse_text, CallOptions};
    /// use tool_input::{Conversation, OutcomeKind, ToolInput, Toolbox};
    ///
    /// /// Get the weather for a city.
    /// #[derive(Deserialize, JsonSchema, ToolInput)]
    /// struct GetWeather { city: String }
    ///
    /// let toolbox = Toolbox::new().with_tool(|call: GetWeather| Ok::<_, String>(call.city));
    /// let text = r#"<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>"#;
    /// let wrong = parse_text(text, &CallOptions::new());
    /// let mut conversation = Conversation::new().with_max_failures(2);
    /// assert_eq!(toolbox.dispatch_in(&mut conversation, &wrong.calls[0]).kind(), OutcomeKind::Invalid);
    /// assert!(toolbox.dispatch_in(&mut conversation, &wrong.calls[0]).budget_spent);
    /// assert_eq!(toolbox.dispatch_in(&mut conversation, &wrong.calls[0]).kind(), OutcomeKind::BudgetSpent);
    /// ```
    pub fn dispatch_in(&self, conversation: &mut Conversation, call: &ToolCall) -> Outcome {
        self.dispatch_sync(call, Some(conversation))
    }

    /// Run a call, awaiting an async handler (a sync handler runs inline).
    ///
    /// ```
    /// use schemars::JsonSchema;
    /// use serde::Deserialize;
    /// use tool_input::calls::{parse_text, CallOptions};
    /// use tool_input::{ToolInput, Toolbox};
    ///
    /// /// Get the weather for a city.
    /// #[derive(Deserialize, JsonSchema, ToolInput)]
    /// struct GetWeather { city: String }
    ///
    /// /// Get the time in a city.
    /// #[derive(Deserialize, JsonSchema, ToolInput)]
    /// struct GetTime { city: String }
    ///
    /// let toolbox = Toolbox::new()
    ///     .with_async_tool(|call: GetWeather| async move { Ok::<_, String>(format!("Sunny in {}", call.city)) })
    ///     .with_tool(|call: GetTime| Ok::<_, String>(format!("Noon in {}", call.city)));
    /// let text = r#"<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>
    ///   <tool_call>{"name": "get_time", "arguments": {"city": "Oslo"}}</tool_call>"#;
    /// let calls = parse_text(text, &CallOptions::new());
    /// // Any executor: here, a minimal one.
    /// let (weather, time) = futures_executor::block_on(async {
    ///     (toolbox.dispatch_async(&calls.calls[0]).await, toolbox.dispatch_async(&calls.calls[1]).await)
    /// });
    /// assert_eq!((weather.text(), time.text()), ("Sunny in Paris".to_owned(), "Noon in Oslo".to_owned()));
    /// ```
    pub async fn dispatch_async(&self, call: &ToolCall) -> Outcome {
        self.dispatch_future(call, None).await
    }

    /// [`Toolbox::dispatch_async`] within a conversation's retry budget.
    ///
    /// ```
    /// use schemars::JsonSchema;
    /// use serde::Deserialize;
    /// use tool_input::calls::{parse_text, CallOptions};
    /// use tool_input::{Conversation, OutcomeKind, ToolInput, Toolbox};
    ///
    /// /// Get the weather for a city.
    /// #[derive(Deserialize, JsonSchema, ToolInput)]
    /// struct GetWeather { city: String }
    ///
    /// let toolbox = Toolbox::new()
    ///     .with_async_tool(|_: GetWeather| async { Err::<String, _>("the weather service timed out") });
    /// let text = r#"<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>"#;
    /// let calls = parse_text(text, &CallOptions::new());
    /// let mut conversation = Conversation::new();
    /// let outcome = futures_executor::block_on(toolbox.dispatch_async_in(&mut conversation, &calls.calls[0]));
    /// assert_eq!(outcome.kind(), OutcomeKind::HandlerError);
    /// assert_eq!(conversation.handler_failures("get_weather"), 1);
    /// ```
    pub async fn dispatch_async_in(&self, conversation: &mut Conversation, call: &ToolCall) -> Outcome {
        self.dispatch_future(call, Some(conversation)).await
    }

    /// The outcome for a call attempt that never became a runnable call (arguments that do
    /// not parse or were cut off, no name, an unknown tool), so it is answered with its id
    /// like any other call.
    ///
    /// ```
    /// use schemars::JsonSchema;
    /// use serde::Deserialize;
    /// use tool_input::calls::{parse_text, CallOptions};
    /// use tool_input::{OutcomeKind, ToolInput, Toolbox};
    ///
    /// /// Get the weather for a city.
    /// #[derive(Deserialize, JsonSchema, ToolInput)]
    /// struct GetWeather { city: String }
    ///
    /// let toolbox = Toolbox::new().with_tool(|call: GetWeather| Ok::<_, String>(call.city));
    /// // Arguments cut off: not a runnable call, but it still needs its answer.
    /// let text = r#"<tool_call>{"name": "get_weather", "arguments": "{\"city\": \"Par"}</tool_call>"#;
    /// let calls = parse_text(text, &toolbox.call_options());
    /// let outcome = toolbox.answer(&calls.errors[0]);
    /// assert_eq!(outcome.kind(), OutcomeKind::Unparsable);
    /// assert_eq!(outcome.call_id, calls.errors[0].id);
    /// ```
    pub fn answer(&self, error: &CallError) -> Outcome {
        self.answer_error(error, None)
    }

    /// [`Toolbox::answer`] within a conversation's retry budget.
    ///
    /// ```
    /// use schemars::JsonSchema;
    /// use serde::Deserialize;
    /// use tool_input::calls::{parse_text, CallOptions};
    /// use tool_input::{Conversation, ToolInput, Toolbox};
    ///
    /// /// Get the weather for a city.
    /// #[derive(Deserialize, JsonSchema, ToolInput)]
    /// struct GetWeather { city: String }
    ///
    /// let toolbox = Toolbox::new().with_tool(|call: GetWeather| Ok::<_, String>(call.city));
    /// let text = r#"<tool_call>{"name": "get_weather", "arguments": "{\"city\": \"Par"}</tool_call>"#;
    /// let calls = parse_text(text, &toolbox.call_options());
    /// let mut conversation = Conversation::new();
    /// toolbox.answer_in(&mut conversation, &calls.errors[0]);
    /// assert_eq!(conversation.failures("get_weather"), 1); // the model's mistake, counted
    /// ```
    pub fn answer_in(&self, conversation: &mut Conversation, error: &CallError) -> Outcome {
        self.answer_error(error, Some(conversation))
    }

    /// Dispatch every call of a response and answer every error, in the order they were
    /// sent (synchronous handlers). A call the response says was made but lacks
    /// ([`Calls::missing_call`]) has no id to answer, so no outcome: send its message to the
    /// model as a user turn.
    ///
    /// ```
    /// use schemars::JsonSchema;
    /// use serde::Deserialize;
    /// use tool_input::calls::{parse_text, CallOptions};
    /// use tool_input::{Conversation, OutcomeKind, ToolInput, Toolbox};
    ///
    /// /// Get the weather for a city.
    /// #[derive(Deserialize, JsonSchema, ToolInput)]
    /// struct GetWeather { city: String }
    ///
    /// let toolbox = Toolbox::new().with_tool(|call: GetWeather| Ok::<_, String>(format!("Sunny in {}", call.city)));
    /// let text = r#"<tool_call>{"name": "get_weather", "arguments": "{"}</tool_call>
    ///   <tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>"#;
    /// let calls = parse_text(text, &toolbox.call_options());
    /// let outcomes = toolbox.run_all(&mut Conversation::new(), &calls);
    /// let kinds: Vec<OutcomeKind> = outcomes.iter().map(|outcome| outcome.kind()).collect();
    /// assert_eq!(kinds, [OutcomeKind::Unparsable, OutcomeKind::Success]); // in the order sent
    /// ```
    pub fn run_all(&self, conversation: &mut Conversation, calls: &Calls) -> Vec<Outcome> {
        calls
            .in_order()
            .map(|entry| match entry {
                Ok(call) => self.dispatch_in(conversation, call),
                Err(error) => self.answer_in(conversation, error),
            })
            .collect()
    }

    /// Dispatch every call of a response and answer every error, running the handlers of the
    /// calls together (async handlers awaited concurrently, on whatever executor polls this
    /// future: no runtime is imposed), and answering in the order the calls were sent.
    ///
    /// The retry budget is counted per tool as in [`Toolbox::run_all`], in the calls' order,
    /// with one difference that running together makes: whether a tool's budget is spent is
    /// decided before the handlers run, from the failures known by then (this response's
    /// unknown tools and refused arguments included), so a handler's error counts from the
    /// next response on. A sync handler runs inline, when the joined future first polls it.
    ///
    /// ```
    /// use schemars::JsonSchema;
    /// use serde::Deserialize;
    /// use tool_input::calls::{parse_text, CallOptions};
    /// use tool_input::{CallContext, Conversation, ToolInput, Toolbox};
    ///
    /// /// Look up a word.
    /// #[derive(Deserialize, JsonSchema, ToolInput)]
    /// struct Define { word: String }
    ///
    /// let toolbox = Toolbox::with_state("en".to_owned()).with_async_context_tool(
    ///     |call: Define, cx: CallContext<String>| async move {
    ///         Ok::<_, String>(format!("[{}] {}: …", cx.state(), call.word))
    ///     },
    /// );
    /// let text = r#"<tool_call>{"name": "define", "arguments": {"word": "tool"}}</tool_call>
    ///   <tool_call>{"name": "define", "arguments": {"term": "input"}}</tool_call>"#;
    /// let calls = parse_text(text, &CallOptions::new());
    /// let mut conversation = Conversation::new();
    /// let outcomes = futures_executor::block_on(toolbox.run_all_async(&mut conversation, &calls));
    /// assert_eq!(outcomes[0].text(), "[en] tool: …");
    /// assert!(outcomes[1].text().contains("- /word: "));
    /// assert_eq!(conversation.failures("define"), 1);
    /// ```
    pub async fn run_all_async(&self, conversation: &mut Conversation, calls: &Calls) -> Vec<Outcome> {
        // Decide, in order, what each call comes to before any handler runs; the budget as it
        // will stand after the failures known so far decides which tools may still run.
        let mut planned = conversation.clone();
        let mut ready: Vec<Option<Outcome>> = Vec::new();
        let mut runs = Vec::new();
        for (index, entry) in calls.in_order().enumerate() {
            let outcome = match entry {
                Ok(call) => match self.prepare(call, Some(&planned)) {
                    Prepared::Done(outcome) => outcome,
                    Prepared::Run { tool, arguments } => {
                        runs.push((index, self.run(call, tool, arguments)));
                        ready.push(None);
                        continue;
                    }
                },
                Err(error) => self.answer_outcome(error, Some(&planned)),
            };
            planned.record(&outcome.tool, outcome.kind());
            ready.push(Some(outcome));
        }
        let (indexes, futures): (Vec<usize>, Vec<_>) = runs.into_iter().unzip();
        for (index, outcome) in indexes.into_iter().zip(join::join_all(futures).await) {
            if let Some(slot) = ready.get_mut(index) {
                *slot = Some(outcome);
            }
        }
        // Now count every outcome, in the calls' order.
        let formats = calls.in_order().map(|entry| match entry {
            Ok(call) => call.format,
            Err(error) => error.format,
        });
        ready
            .into_iter()
            .zip(formats)
            .filter_map(|(outcome, format)| Some(finish(outcome?, format, Some(conversation))))
            .collect()
    }
}

/// Call a tool's handler on its checked arguments.
fn start<S>(
    tool: &Tool<S>,
    arguments: Arguments<S>,
    invocation: &Invocation<'_, S>,
) -> Result<Started, Rejection> {
    match arguments {
        Arguments::Value(checked) => (tool.on_value)(checked, invocation),
        Arguments::Typed(bound) => (bound.start)(invocation),
    }
}

/// A typed tool's arguments read by `T`'s typed path ([`ToolInput::from_arguments_with`]:
/// the one-pass path first) and bound to its handler `call`, with the outcomes of checking
/// them as JSON and deserializing after: the schema's rejection names the tool's definition;
/// a value the schema accepted but `T`'s rules or serde refuse is a refusal of the handler's
/// input, which keeps the report of what the schema accepted.
fn bind_typed<T, S, C>(
    raw: RawArguments<'_>,
    parsed: Option<&ParsedText<'_>>,
    options: &CheckOptions,
    call: &Arc<C>,
) -> Result<Bound<S>, Rejection>
where
    T: ToolInput + Send + 'static,
    C: Fn(T, &Invocation<'_, S>) -> Started + Send + Sync + 'static,
{
    let definition = T::definition();
    let refused = |report: Report, rejection: Rejection| {
        let rejection = rejection.with_tool_named(definition.shared_name());
        Bound { report, start: Box::new(move |_: &Invocation<'_, S>| Err(rejection)) }
    };
    let validator = definition.validator();
    let checked = match parsed {
        Some(parsed) => validator.check_typed_parsed::<T>(parsed, options, crate::probe::Fields::of::<T>()),
        None => validator.check_typed::<T>(raw, options, crate::probe::Fields::of::<T>()),
    };
    let checked = match checked {
        Ok(checked) => checked,
        // serde refused what the schema accepted (rare): the schema's report, as the check
        // as JSON gives it.
        Err(rejection) if is_serde_refusal(&rejection) => {
            let report = match parsed {
                Some(parsed) => check_parsed_text(definition, parsed, options),
                None => definition.check_with(raw, options),
            };
            return Ok(refused(report.map(|checked| checked.report).unwrap_or_default(), rejection));
        }
        Err(rejection) => return Err(rejection.with_tool_named(definition.shared_name())),
    };
    let report = checked.report.clone();
    match crate::tool::apply_rules::<T>(checked) {
        Ok(checked) => {
            let call = Arc::clone(call);
            let value = checked.value;
            Ok(Bound {
                report: checked.report,
                start: Box::new(move |invocation| Ok(call(value, invocation))),
            })
        }
        Err(rejection) => Ok(refused(report, rejection)),
    }
}

/// A tool's definition in `dialect`, under the name the provider accepts.
fn sent_definition(definition: &ToolDefinition, dialect: Dialect) -> Value {
    let sent = dialect::sent_name(definition.name(), dialect);
    dialect::tool_definition(&sent, definition.description(), definition.schema(), dialect)
}

/// A handler's output as JSON.
fn to_json<O: Serialize>(output: O) -> Output {
    serde_json::to_value(output)
        .map_err(|error| format!("the tool's output could not be written as JSON: {error}"))
}
