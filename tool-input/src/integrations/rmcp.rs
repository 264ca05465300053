//! [rmcp](https://docs.rs/rmcp), the Rust SDK of the Model Context Protocol, with this
//! crate's pipeline: a [`ToolInput`] type as the parameters of an rmcp tool, and a
//! [`Toolbox`] served as an MCP server.
//!
//! **In an rmcp server** (`#[tool_router]`, `#[tool]`, `#[tool_handler]`), import
//! [`Parameters`] from here instead of rmcp's: nothing else changes. The arguments go through
//! the lenient parse, the coercions and the validation of [`ToolInput`] instead of a bare
//! `serde_json::from_value`, the published `inputSchema` is the type's
//! [MCP definition](crate::Dialect::Mcp), and arguments that fail become a tool result with
//! `isError: true` carrying the message for the model, every error with its path, so the
//! model can fix its call. A call to a tool that does not exist stays a JSON-RPC error
//! (`-32602`), as the MCP specification says.
//!
//! ```
//! use rmcp::handler::server::router::tool::ToolRouter;
//! use rmcp::{tool, tool_handler, tool_router, ServerHandler};
//! use schemars::JsonSchema;
//! use serde::Deserialize;
//! use tool_input::rmcp::Parameters; // instead of rmcp::handler::server::wrapper::Parameters
//! use tool_input::ToolInput;
//!
//! /// Create an order for a customer.
//! #[derive(Debug, Deserialize, JsonSchema, ToolInput)]
//! struct CreateOrder {
//!     customer_id: String,
//!     priority: Priority,
//!     tags: Vec<String>,
//! }
//!
//! #[derive(Debug, Deserialize, JsonSchema)]
//! #[serde(rename_all = "snake_case")]
//! enum Priority { Low, High }
//!
//! #[derive(Clone)]
//! struct Shop;
//!
//! #[tool_router]
//! impl Shop {
//!     /// Create an order for a customer.
//!     #[tool]
//!     fn create_order(&self, Parameters(order): Parameters<CreateOrder>) -> String {
//!         format!("order for {} with {} tags", order.customer_id, order.tags.len())
//!     }
//! }
//!
//! #[tool_handler]
//! impl ServerHandler for Shop {}
//!
//! // The schema the client sees is the MCP definition of `CreateOrder`.
//! let tools = Shop::tool_router().list_all();
//! assert_eq!(tools[0].input_schema["properties"], CreateOrder::schema()["properties"]);
//! assert_eq!(tools[0].input_schema["additionalProperties"], false);
//! ```
//!
//! **A whole [`Toolbox`]** becomes an MCP server with [`ToolboxServer`]: `tools/list`
//! answers with every tool's MCP definition, `tools/call` dispatches through the Toolbox
//! (async handlers awaited) and answers with the [`Outcome`] as a `CallToolResult`.
//!
//! Both need a tokio runtime, as rmcp does. rmcp 3.11 and later require Rust 1.88.

use std::borrow::Cow;
use std::sync::Arc;

use ::rmcp::handler::server::common::FromContextPart;
use ::rmcp::handler::server::tool::ToolCallContext;
use ::rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation, JsonObject,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use ::rmcp::service::RequestContext;
use ::rmcp::{ErrorData, RoleServer, ServerHandler};
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde_json::{json, Value};

use crate::calls::{CallErrorKind, CallParts, Format, OriginalArguments};
use crate::dialect::Dialect;
use crate::error::Rejection;
use crate::tool::{ToolDefinition, ToolInput};
use crate::toolbox::{trace, Outcome, OutcomeKind, Toolbox};
use crate::validator::CheckOptions;

/// What rmcp's `ToolRouter` turns into a tool result with `isError: true` rather than a
/// JSON-RPC error: an `invalid_params` error whose message starts with this (rmcp 3.11 and
/// later). Our message follows it, so the model reads it whole.
const ROUTER_ARGUMENT_ERROR_PREFIX: &str = "failed to deserialize parameters: ";

/// The parameters of an rmcp `#[tool]`, read by this crate's pipeline: a drop-in for
/// `rmcp::handler::server::wrapper::Parameters` for a [`ToolInput`] type.
///
/// rmcp's `#[tool]` macro recognises a parameter named `Parameters` and publishes its
/// schema as the tool's `inputSchema`; this one publishes the type's
/// [MCP definition](crate::Dialect::Mcp) (every object closed with
/// `additionalProperties: false`, as the checks enforce). When a call arrives, its arguments
/// are checked with the type's policy and limits, as
/// [`ToolInput::from_arguments_with`] does: representation is repaired (a list sent as a
/// string, an enum value in another case, a number as a string), choices are not. Arguments
/// that fail give an `invalid_params` error that rmcp's `ToolRouter` answers as a tool result
/// with `isError: true`, whose text is the [`Rejection`]'s message (naming the MCP tool,
/// every error with its path) after rmcp's `failed to deserialize parameters:` prefix; the
/// error's `data` holds `{"kind", "errors": [{"path", "code", "message", ...}]}`.
///
/// ```
/// use rmcp::handler::server::router::tool::ToolRouter;
/// use rmcp::{tool, tool_router};
/// use schemars::JsonSchema;
/// use serde::Deserialize;
/// use tool_input::rmcp::Parameters;
/// use tool_input::ToolInput;
///
/// /// Get the weather for a city.
/// #[derive(Deserialize, JsonSchema, ToolInput)]
/// struct GetWeather { city: String, days: Option<u8> }
///
/// struct Weather;
///
/// #[tool_router]
/// impl Weather {
///     /// Get the weather for a city.
///     #[tool]
///     async fn get_weather(&self, Parameters(call): Parameters<GetWeather>) -> String {
///         format!("{} days of sun in {}", call.days.unwrap_or(1), call.city)
///     }
/// }
///
/// let tool = &Weather::tool_router().list_all()[0];
/// assert_eq!(tool.name, "get_weather");
/// assert_eq!(tool.input_schema["required"], serde_json::json!(["city"]));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Parameters<T>(pub T);

impl<T> Parameters<T> {
    /// The typed arguments.
    ///
    /// ```
    /// use schemars::JsonSchema;
    /// use serde::Deserialize;
    /// use tool_input::rmcp::Parameters;
    /// use tool_input::ToolInput;
    ///
    /// /// Get the weather for a city.
    /// #[derive(Deserialize, JsonSchema, ToolInput)]
    /// struct GetWeather { city: String }
    ///
    /// // What a `#[tool]` method is given, when it does not destructure it.
    /// let parameters = Parameters(GetWeather::from_arguments(r#"{'city': 'Paris'}"#)?);
    /// let call: GetWeather = parameters.into_inner();
    /// assert_eq!(call.city, "Paris");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T> std::ops::Deref for Parameters<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> std::ops::DerefMut for Parameters<T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.0
    }
}

impl<T: ToolInput> JsonSchema for Parameters<T> {
    fn schema_name() -> Cow<'static, str> {
        T::schema_name()
    }

    fn schema_id() -> Cow<'static, str> {
        Cow::Owned(format!("tool_input::rmcp::Parameters<{}>", T::schema_id()))
    }

    // The schema carries its own `$defs`, resolved from its root: it must not be moved under
    // another document's definitions.
    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        Schema::from(input_schema(T::definition()))
    }
}

impl<S, T: ToolInput> FromContextPart<ToolCallContext<'_, S>> for Parameters<T> {
    fn from_context_part(context: &mut ToolCallContext<'_, S>) -> Result<Self, ErrorData> {
        let arguments = context.arguments.take().map(Value::Object);
        let call_id = context.request_context.id.to_string();
        let name = context.name().to_owned();
        let at = trace::Subject { tool: &name, call_id: &call_id, format: "mcp" };
        let sensitive: Vec<String> =
            T::definition().validator().sensitive_fields().map(str::to_owned).collect();
        let original = arguments.clone().map_or(OriginalArguments::Absent, OriginalArguments::Value);
        let raw = || trace::raw(&original, None, &sensitive);
        match T::from_arguments_with(arguments.as_ref(), &CheckOptions::default()) {
            Ok(checked) => {
                trace::accepted(at, &checked.report, raw, String::new);
                Ok(Parameters(checked.value))
            }
            Err(rejection) => {
                let rejection = rejection.with_tool(&name);
                trace::rejected(at, &rejection, !sensitive.is_empty(), raw);
                Err(argument_error(&rejection))
            }
        }
    }
}

/// The `invalid_params` error for rejected arguments, in the form rmcp's `ToolRouter`
/// answers with a tool result rather than a JSON-RPC error.
///
/// ```
/// use tool_input::{rmcp::argument_error, Validator};
/// use serde_json::json;
///
/// let validator = Validator::new(&json!({"type": "object",
///     "properties": {"n": {"type": "integer"}}, "required": ["n"]})).unwrap();
/// let rejection = validator.check("{}").unwrap_err().with_tool("count");
/// let error = argument_error(&rejection);
/// assert_eq!(error.code.0, -32602);
/// assert!(error.message.contains("- /n: "));
/// assert_eq!(error.data.unwrap()["errors"][0]["path"], "/n");
/// ```
pub fn argument_error(rejection: &Rejection) -> ErrorData {
    let mut data = json!({"kind": rejection.kind.code(), "errors": rejection.errors});
    // The errors past `Limits::max_errors`: counted, as the message counts them.
    if rejection.omitted_errors > 0 {
        data["omitted_errors"] = json!(rejection.omitted_errors);
    }
    ErrorData::invalid_params(format!("{ROUTER_ARGUMENT_ERROR_PREFIX}{rejection}"), Some(data))
}

/// A tool's MCP `inputSchema`, as an object.
fn input_schema(definition: &ToolDefinition) -> JsonObject {
    match definition.to_dialect(Dialect::Mcp).get_mut("inputSchema").map(Value::take) {
        Some(Value::Object(schema)) => schema,
        // The MCP dialect always writes an object schema; keep the type honest anyway.
        _ => JsonObject::from_iter([("type".to_owned(), Value::from("object"))]),
    }
}

/// A tool's definition as rmcp's `Tool`: its name, description and MCP `inputSchema`.
///
/// ```
/// use tool_input::{rmcp, ToolDefinition};
/// use serde_json::json;
///
/// let definition = ToolDefinition::new("ping", Some("Ping a host."),
///     json!({"type": "object", "properties": {"host": {"type": "string"}}, "required": ["host"]})).unwrap();
/// let tool = rmcp::tool(&definition);
/// assert_eq!(tool.name, "ping");
/// assert_eq!(tool.description.as_deref(), Some("Ping a host."));
/// assert_eq!(tool.input_schema["required"], json!(["host"]));
/// ```
pub fn tool(definition: &ToolDefinition) -> Tool {
    named_tool(definition, definition.name())
}

/// A tool's definition as rmcp's `Tool`, listed under `name`.
fn named_tool(definition: &ToolDefinition, name: &str) -> Tool {
    let description = definition.description().map(|text| Cow::Owned(text.to_owned()));
    Tool::new_with_raw(name.to_owned(), description, Arc::new(input_schema(definition)))
}

/// An [`Outcome`] as an MCP `CallToolResult`: the text of [`Outcome::text`] as one text
/// content block, `isError: true` for every failure, and `structuredContent` when the output
/// is an object (as [`Outcome::to_mcp`] writes it).
///
/// ```
/// use serde_json::json;
/// use tool_input::calls::{parse_text, CallOptions};
/// use tool_input::{rmcp::call_tool_result, ToolDefinition, Toolbox};
///
/// let add = ToolDefinition::new("add", None, json!({"type": "object",
///     "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}, "required": ["a", "b"]})).unwrap();
/// let toolbox = Toolbox::new().with_definition(add, |args| Ok::<_, String>(json!({"sum": args["a"].as_i64().unwrap_or(0) + args["b"].as_i64().unwrap_or(0)})));
/// let calls = parse_text(r#"<tool_call>{"name": "add", "arguments": {"a": "2", "b": 3}}</tool_call>"#, &CallOptions::new());
/// let result = call_tool_result(&toolbox.dispatch(&calls.calls[0]));
/// assert_eq!(result.is_error, Some(false));
/// assert_eq!(result.structured_content, Some(json!({"sum": 5})));
/// ```
pub fn call_tool_result(outcome: &Outcome) -> CallToolResult {
    let content = vec![ContentBlock::text(outcome.text_in(Dialect::Mcp))];
    match &outcome.result {
        Ok(value) => {
            let mut result = CallToolResult::success(content);
            if value.is_object() {
                result.structured_content = Some(value.clone());
            }
            result
        }
        Err(_) => CallToolResult::error(content),
    }
}

impl From<&Outcome> for CallToolResult {
    fn from(outcome: &Outcome) -> Self {
        call_tool_result(outcome)
    }
}

/// A [`Toolbox`] served as an MCP server: give it to rmcp's `serve` (`ServiceExt`).
///
/// - `tools/list`: every tool's [MCP definition](crate::Dialect::Mcp), in registration order,
///   as [`Toolbox::definitions`] sends it (a name MCP's pattern refuses under
///   [`dialect::sent_name`](crate::dialect::sent_name), whose calls reach the registered tool).
/// - `tools/call`: the call is read as any other ([`CallParts::finish`], the MCP request id
///   as the call id), dispatched through the Toolbox ([`Toolbox::dispatch_async`], so async
///   handlers are awaited), and answered with [`call_tool_result`]: the output, or
///   `isError: true` with the message for the model for arguments that fail, a handler's
///   error, and so on.
/// - A tool that is not registered is a JSON-RPC `invalid_params` error (`-32602`), as the
///   MCP specification says, with the message listing the available tools.
///
/// Cloning is cheap: the Toolbox is shared.
///
/// ```
/// use schemars::JsonSchema;
/// use serde::Deserialize;
/// use tool_input::rmcp::ToolboxServer;
/// use tool_input::{ToolInput, Toolbox};
///
/// /// Get the weather for a city.
/// #[derive(Deserialize, JsonSchema, ToolInput)]
/// struct GetWeather { city: String }
///
/// let server = ToolboxServer::new(Toolbox::new()
///     .with_tool(|call: GetWeather| Ok::<_, String>(format!("Sunny in {}", call.city))))
///     .with_instructions("Weather for any city.");
/// assert_eq!(server.tools()[0].name, "get_weather");
/// // With a tokio runtime: `let running = rmcp::ServiceExt::serve(server, transport).await?;`
/// ```
#[derive(Clone)]
pub struct ToolboxServer {
    toolbox: Arc<Toolbox>,
    tools: Arc<[Tool]>,
    config: ServerConfig,
}

impl std::fmt::Debug for ToolboxServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolboxServer").field("toolbox", &self.toolbox).finish_non_exhaustive()
    }
}

impl ToolboxServer {
    /// Serve `toolbox`, announcing the tools capability and `tool-input` as the server's
    /// implementation (see [`ToolboxServer::with_server_info`]).
    ///
    /// ```
    /// # use schemars::JsonSchema;
    /// # use serde::Deserialize;
    /// # /// Get the weather for a city.
    /// # #[derive(Deserialize, JsonSchema, ToolInput)]
    /// # struct GetWeather { city: String }
    /// use rmcp::ServerHandler;
    /// use tool_input::rmcp::ToolboxServer;
    /// use tool_input::{ToolInput, Toolbox};
    ///
    /// let server = ToolboxServer::new(Toolbox::new().with_tool(|call: GetWeather| Ok::<_, String>(call.city)));
    /// let info = server.get_info();
    /// assert!(info.capabilities.tools.is_some());
    /// assert_eq!(info.server_info.name, "tool-input");
    /// ```
    pub fn new(toolbox: impl Into<Arc<Toolbox>>) -> Self {
        let toolbox = toolbox.into();
        // Under the names `Toolbox::definitions(Dialect::Mcp)` sends (a name MCP's pattern
        // refuses, `get weather`, as `get_weather`), which the Toolbox reads calls back from.
        let tools = toolbox
            .tool_definitions()
            .map(|definition| {
                named_tool(definition, &crate::dialect::sent_name(definition.name(), Dialect::Mcp))
            })
            .collect();
        let config = ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("tool-input", env!("CARGO_PKG_VERSION")));
        ToolboxServer { toolbox, tools, config }
    }

    /// The name and version the server announces.
    ///
    /// ```
    /// use rmcp::model::Implementation;
    /// use rmcp::ServerHandler;
    /// use tool_input::rmcp::ToolboxServer;
    /// use tool_input::Toolbox;
    ///
    /// let server = ToolboxServer::new(Toolbox::new()).with_server_info(Implementation::new("weather", "1.2.0"));
    /// let info = server.get_info().server_info;
    /// assert_eq!((info.name.as_str(), info.version.as_str()), ("weather", "1.2.0"));
    /// ```
    pub fn with_server_info(mut self, info: Implementation) -> Self {
        self.config = self.config.with_server_info(info);
        self
    }

    /// The instructions the server gives the client at initialization.
    ///
    /// ```
    /// use rmcp::ServerHandler;
    /// use tool_input::rmcp::ToolboxServer;
    /// use tool_input::Toolbox;
    ///
    /// let server = ToolboxServer::new(Toolbox::new()).with_instructions("Weather for any city.");
    /// assert_eq!(server.get_info().instructions.as_deref(), Some("Weather for any city."));
    /// ```
    pub fn with_instructions(mut self, instructions: impl Into<String>) -> Self {
        self.config = self.config.with_instructions(instructions);
        self
    }

    /// The Toolbox served.
    ///
    /// ```
    /// # use schemars::JsonSchema;
    /// # use serde::Deserialize;
    /// # /// Get the weather for a city.
    /// # #[derive(Deserialize, JsonSchema, ToolInput)]
    /// # struct GetWeather { city: String }
    /// use std::sync::Arc;
    /// use tool_input::rmcp::ToolboxServer;
    /// use tool_input::{ToolInput, Toolbox};
    ///
    /// let toolbox = Arc::new(Toolbox::new().with_tool(|call: GetWeather| Ok::<_, String>(call.city)));
    /// let server = ToolboxServer::new(Arc::clone(&toolbox)); // shared, not copied
    /// assert!(std::ptr::eq(server.toolbox(), &*toolbox));
    /// assert_eq!(server.toolbox().names(), ["get_weather"]);
    /// ```
    pub fn toolbox(&self) -> &Toolbox {
        &self.toolbox
    }

    /// The tools listed by `tools/list`.
    ///
    /// ```
    /// # use schemars::JsonSchema;
    /// # use serde::Deserialize;
    /// # /// Get the weather for a city.
    /// # #[derive(Deserialize, JsonSchema, ToolInput)]
    /// # struct GetWeather { city: String }
    /// use tool_input::rmcp::ToolboxServer;
    /// use tool_input::{ToolInput, Toolbox};
    ///
    /// let server = ToolboxServer::new(Toolbox::new().with_tool(|call: GetWeather| Ok::<_, String>(call.city)));
    /// let tool = &server.tools()[0];
    /// assert_eq!(tool.name, "get_weather");
    /// assert_eq!(tool.description.as_deref(), Some("Get the weather for a city."));
    /// assert_eq!(tool.input_schema["additionalProperties"], false); // the MCP definition
    /// ```
    pub fn tools(&self) -> &[Tool] {
        &self.tools
    }

    /// Answer a `tools/call` request: what [`ServerHandler::call_tool`] does, with the
    /// request id as the call id.
    ///
    /// ```
    /// # use schemars::JsonSchema;
    /// # use serde::Deserialize;
    /// # /// Get the weather for a city.
    /// # #[derive(Deserialize, JsonSchema, ToolInput)]
    /// # struct GetWeather { city: String }
    /// use futures_executor::block_on;
    /// use rmcp::model::CallToolRequestParams;
    /// use serde_json::json;
    /// use tool_input::rmcp::ToolboxServer;
    /// use tool_input::{ToolInput, Toolbox};
    ///
    /// let server = ToolboxServer::new(Toolbox::new()
    ///     .with_tool(|call: GetWeather| Ok::<_, String>(format!("Sunny in {}", call.city))));
    /// let arguments = json!({"city": "Paris"}).as_object().cloned().unwrap();
    /// let request = CallToolRequestParams::new("get_weather").with_arguments(arguments);
    /// let result = block_on(server.call(request, "1"))?;
    /// assert_eq!(result.is_error, Some(false));
    /// assert_eq!(result.content[0].as_text().map(|content| content.text.as_str()), Some("Sunny in Paris"));
    /// // A tool that is not registered: a JSON-RPC error, not a tool result.
    /// let error = block_on(server.call(CallToolRequestParams::new("get_wether"), "2")).unwrap_err();
    /// assert_eq!(error.code.0, -32602);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub async fn call(
        &self,
        request: CallToolRequestParams,
        call_id: &str,
    ) -> Result<CallToolResult, ErrorData> {
        let parts = CallParts {
            id: Some(call_id.to_owned()),
            name: Some(request.name.clone().into_owned()),
            arguments: request
                .arguments
                .map_or(OriginalArguments::Absent, |a| OriginalArguments::Value(a.into())),
            // MCP is not a response body of any API; the arguments arrive as a JSON object.
            format: Format::Auto,
            raw: json!({"name": request.name}),
            index: 0,
        };
        let outcome = match parts.finish(&self.toolbox.call_options()) {
            Ok(call) => self.toolbox.dispatch_async(&call).await,
            // No tool to route to (an unknown name, or none): a protocol error in MCP.
            Err(error) if matches!(error.kind, CallErrorKind::UnknownTool | CallErrorKind::Malformed) => {
                let outcome = self.toolbox.answer(&error);
                return Err(unknown_tool(&outcome));
            }
            Err(error) => self.toolbox.answer(&error),
        };
        if outcome.kind() == OutcomeKind::UnknownTool {
            return Err(unknown_tool(&outcome));
        }
        Ok(call_tool_result(&outcome))
    }
}

/// The JSON-RPC error for a call to a tool that is not registered.
fn unknown_tool(outcome: &Outcome) -> ErrorData {
    ErrorData::invalid_params(outcome.text_in(Dialect::Mcp), Some(json!({"tool": outcome.tool})))
}

impl ServerHandler for ToolboxServer {
    fn get_info(&self) -> ServerConfig {
        self.config.clone()
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools.to_vec()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools.iter().find(|tool| tool.name == name).cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.call(request, &context.id.to_string()).await.map(CallToolResponse::from)
    }
}
