//! [rig](https://docs.rs/rig-core), with this crate's pipeline: a [`ToolInput`] type as a rig
//! tool's `Args` through [`Args`], a handler that reads the model's raw argument text
//! through the whole pipeline ([`ToolAdapter`]), rig's tool definition from ours, and a
//! rejection as rig's `invalid_args` tool error, whose text rig hands back to the model.
//!
//! rig hands a tool handler the call's arguments as the model's raw text
//! (`EffectKind::ToolCall { args }`). Two ways to serve a tool whose `Args` is
//! `tool_input::Args<T>`:
//!
//! - **[`ToolAdapter`] (this module's)** in place of rig's
//!   `rig_core::serve::adapters::ToolAdapter`: the raw text goes through the whole pipeline,
//!   repairs included (`{'from': 'JFK'}`, code fences, prose, trailing commas), then the
//!   coercions, the validation and `T`'s own rules. A refusal is an `invalid_args` result
//!   whose text is the rejection's message: the tool's name and every error with its path.
//! - **rig's own `ToolAdapter`**: rig runs `serde_json::from_str::<Args<T>>` on the text
//!   first, so arguments that are JSON (an object, or a JSON string holding mangled
//!   arguments) are coerced and validated, but text that is not JSON is refused by
//!   serde_json before `Args` sees it, as `failed to parse tool arguments: key must be a
//!   string at line 1 column 2`, with no tool name. Use this module's adapter.
//!
//! ```
//! use rig_core::effect::{EffectKind, Outcome};
//! use rig_core::serve::{serve_inline, ErasedHandler};
//! use rig_core::tool::{PortableTool, ToolExecutionError};
//! use schemars::JsonSchema;
//! use serde::Deserialize;
//! use tool_input::{Args, ToolInput};
//!
//! /// Get the weather for a city.
//! #[derive(Debug, Deserialize, JsonSchema, ToolInput)]
//! struct GetWeather { city: String, days: Option<u8> }
//!
//! struct Weather;
//!
//! impl PortableTool for Weather {
//!     const NAME: &'static str = GetWeather::NAME;
//!     type Args = Args<GetWeather>;
//!     type Output = String;
//!     type Error = ToolExecutionError;
//!
//!     fn description(&self) -> String {
//!         GetWeather::DESCRIPTION.unwrap_or_default().to_owned()
//!     }
//!
//!     fn parameters(&self) -> serde_json::Value {
//!         GetWeather::schema().clone()
//!     }
//!
//!     async fn call(&self, Args(call): Args<GetWeather>) -> Result<String, ToolExecutionError> {
//!         Ok(format!("{} days of sun in {}", call.days.unwrap_or(1), call.city))
//!     }
//! }
//!
//! let definition = rig_core::tool::tool_definition(&Weather);
//! assert_eq!(definition, tool_input::rig::tool_definition(GetWeather::definition()).unwrap());
//!
//! // A Python dict, as a model served without a tool parser writes it: read and run.
//! let handler = ErasedHandler::new(tool_input::rig::ToolAdapter::new(Weather));
//! let call = EffectKind::ToolCall { name: "get_weather".into(), args: "{'city': 'Paris', 'days': '2'}".into() };
//! let Ok(Outcome::ToolResult { result }) = futures_executor::block_on(serve_inline(&handler, call)) else { panic!() };
//! assert_eq!(result.output().as_text(), Some("2 days of sun in Paris"));
//! ```
//!
//! rig-core 0.44 is the release this feature is built against: 0.45 and later need Rust
//! 1.97.1.

use ::rig_core::completion::message::{EmptyToolName, ToolName};
use ::rig_core::effect::{family, EffectKind, HandlerDescriptor, Outcome};
use ::rig_core::serve::{adapters, Dispatch, Reply, Serve};
use ::rig_core::tool::{
    IntoToolOutput, PublishedContext, Tool, ToolContext, ToolErrorKind, ToolExecutionError, ToolResult,
};

use crate::args::Args;
use crate::error::Rejection;
use crate::tool::{ToolDefinition, ToolInput};

/// A rig tool whose `Args` is [`Args<T>`] as a rig handler that reads the model's raw
/// argument text through this crate's whole pipeline: the lenient parse and its repairs
/// (a Python dict, code fences, prose, trailing commas), the coercions, the validation and
/// `T`'s own rules. Use it where rig's
/// [`ToolAdapter`](rig_core::serve::adapters::ToolAdapter) goes (`ErasedHandler::new(..)`):
/// rig's runs serde_json on the text first, which refuses text that is not JSON before
/// `Args` sees it.
///
/// Arguments that are refused become a failed [`ToolResult`] of kind `invalid_args`, its
/// text for the model the rejection's message (the tool's name, every error with its path;
/// [`tool_error`]). Everything else is as rig's adapter does it: the descriptor, the
/// tool's context and what it publishes, the tool's own errors through its `map_error`, and
/// effects of other families or for another tool's name.
///
/// See the [module's example](self); here, a call refused, with the message rig hands back
/// to the model:
///
/// ```
/// use rig_core::effect::{EffectKind, Outcome};
/// use rig_core::serve::{serve_inline, ErasedHandler};
/// use rig_core::tool::ToolErrorKind;
/// # use rig_core::tool::{PortableTool, ToolExecutionError};
/// # use schemars::JsonSchema;
/// # use serde::Deserialize;
/// # use tool_input::{Args, ToolInput};
/// # /// Get the weather for a city.
/// # #[derive(Deserialize, JsonSchema, ToolInput)]
/// # struct GetWeather { city: String }
/// struct Weather { unit: &'static str } // a rig `PortableTool` with `Args = Args<GetWeather>`
/// # impl PortableTool for Weather {
/// #     const NAME: &'static str = GetWeather::NAME;
/// #     type Args = Args<GetWeather>;
/// #     type Output = String;
/// #     type Error = ToolExecutionError;
/// #     fn description(&self) -> String { GetWeather::DESCRIPTION.unwrap_or_default().to_owned() }
/// #     fn parameters(&self) -> serde_json::Value { GetWeather::schema().clone() }
/// #     async fn call(&self, Args(call): Args<GetWeather>) -> Result<String, ToolExecutionError> {
/// #         Ok(format!("21 {} in {}", self.unit, call.city))
/// #     }
/// # }
///
/// let handler = ErasedHandler::new(tool_input::rig::ToolAdapter::new(Weather { unit: "°C" }));
/// let call = EffectKind::ToolCall { name: "get_weather".into(), args: "{'town': 'Paris'}".into() };
/// let Ok(Outcome::ToolResult { result }) = futures_executor::block_on(serve_inline(&handler, call)) else { panic!() };
/// assert!(result.is_error_kind(ToolErrorKind::InvalidArgs));
/// assert!(result.output().as_text().unwrap().contains("- /city: "));
/// ```
pub struct ToolAdapter<T> {
    rig: adapters::ToolAdapter<T>,
}

impl<T: Tool> ToolAdapter<T> {
    /// Wrap a tool.
    ///
    /// ```
    /// use rig_core::effect::{EffectKind, Outcome};
    /// use rig_core::serve::{serve_inline, ErasedHandler};
    /// # use rig_core::tool::{PortableTool, ToolExecutionError};
    /// # use schemars::JsonSchema;
    /// # use serde::Deserialize;
    /// # use tool_input::{Args, ToolInput};
    /// # /// Get the weather for a city.
    /// # #[derive(Deserialize, JsonSchema, ToolInput)]
    /// # struct GetWeather { city: String }
    /// struct Weather { unit: &'static str } // a rig `PortableTool` with `Args = Args<GetWeather>`
    /// # impl PortableTool for Weather {
    /// #     const NAME: &'static str = GetWeather::NAME;
    /// #     type Args = Args<GetWeather>;
    /// #     type Output = String;
    /// #     type Error = ToolExecutionError;
    /// #     fn description(&self) -> String { GetWeather::DESCRIPTION.unwrap_or_default().to_owned() }
    /// #     fn parameters(&self) -> serde_json::Value { GetWeather::schema().clone() }
    /// #     async fn call(&self, Args(call): Args<GetWeather>) -> Result<String, ToolExecutionError> {
    /// #         Ok(format!("21 {} in {}", self.unit, call.city))
    /// #     }
    /// # }
    ///
    /// let handler = ErasedHandler::new(tool_input::rig::ToolAdapter::new(Weather { unit: "°C" }));
    /// // Prose, single quotes, a trailing comma: read by the whole pipeline.
    /// let args = "Sure: {'city': 'Oslo',}";
    /// let call = EffectKind::ToolCall { name: "get_weather".into(), args: args.into() };
    /// let Ok(Outcome::ToolResult { result }) = futures_executor::block_on(serve_inline(&handler, call)) else { panic!() };
    /// assert_eq!(result.output().as_text(), Some("21 °C in Oslo"));
    /// ```
    pub fn new(tool: T) -> Self {
        ToolAdapter { rig: adapters::ToolAdapter::new(tool) }
    }

    /// The wrapped tool.
    ///
    /// ```
    /// # use rig_core::tool::{PortableTool, ToolExecutionError};
    /// # use schemars::JsonSchema;
    /// # use serde::Deserialize;
    /// # use tool_input::{Args, ToolInput};
    /// # /// Get the weather for a city.
    /// # #[derive(Deserialize, JsonSchema, ToolInput)]
    /// # struct GetWeather { city: String }
    /// struct Weather { unit: &'static str } // a rig `PortableTool` with `Args = Args<GetWeather>`
    /// # impl PortableTool for Weather {
    /// #     const NAME: &'static str = GetWeather::NAME;
    /// #     type Args = Args<GetWeather>;
    /// #     type Output = String;
    /// #     type Error = ToolExecutionError;
    /// #     fn description(&self) -> String { GetWeather::DESCRIPTION.unwrap_or_default().to_owned() }
    /// #     fn parameters(&self) -> serde_json::Value { GetWeather::schema().clone() }
    /// #     async fn call(&self, Args(call): Args<GetWeather>) -> Result<String, ToolExecutionError> {
    /// #         Ok(format!("21 {} in {}", self.unit, call.city))
    /// #     }
    /// # }
    /// let adapter = tool_input::rig::ToolAdapter::new(Weather { unit: "°F" });
    /// assert_eq!(adapter.tool().unit, "°F");
    /// assert_eq!(rig_core::tool::tool_definition(adapter.tool()).name.as_str(), "get_weather");
    /// ```
    pub fn tool(&self) -> &T {
        self.rig.tool()
    }
}

impl<T, A> Serve for ToolAdapter<T>
where
    T: Tool<Args = Args<A>> + 'static,
    A: ToolInput + Send + Sync + 'static,
{
    type Family = family::Tool;

    fn descriptor(&self) -> HandlerDescriptor {
        self.rig.descriptor()
    }

    async fn serve(&self, kind: EffectKind, dispatch: Dispatch) -> Reply {
        let args = match kind {
            EffectKind::ToolCall { name, args } if name == T::NAME => args,
            // Another tool's name, another family: rig's adapter answers as it does.
            other => return self.rig.serve(other, dispatch).await,
        };
        let arguments = match A::from_arguments(args.as_str()) {
            Ok(arguments) => arguments,
            Err(rejection) => {
                // The model called the rig tool by its rig name, which need not be the
                // arguments type's own: the message names the tool the model called.
                let result = ToolResult::failed(tool_error(&rejection.with_tool(T::NAME)));
                return Reply::Outcome(Ok(Outcome::ToolResult { result }));
            }
        };
        // The context rig's adapter gives a call: the driver's inbound values for this
        // dispatch, and its scopes.
        let mut context = dispatch
            .scope::<ToolContext>()
            .map(|inbound| inbound.for_dispatch())
            .unwrap_or_default()
            .with_scopes(dispatch.scopes());
        let tool = self.rig.tool();
        let outcome = tool.call(&mut context, Args(arguments)).await.map_err(|error| tool.map_error(error));
        if let Some(published) = dispatch.scope::<PublishedContext>() {
            published.publish(context);
        }
        let result = match outcome.and_then(IntoToolOutput::into_tool_output) {
            Ok(output) => ToolResult::success(output),
            Err(error) => ToolResult::failed(error),
        };
        Reply::Outcome(Ok(Outcome::ToolResult { result }))
    }
}

/// A tool's definition as rig's: its name, its description (empty when it has none) and its
/// JSON Schema as `parameters`; an error only for a tool with an empty name, which rig
/// refuses (a derived tool's name never is).
///
/// ```
/// use tool_input::ToolDefinition;
/// use serde_json::json;
///
/// let ping = ToolDefinition::new("ping", Some("Ping a host."),
///     json!({"type": "object", "properties": {"host": {"type": "string"}}, "required": ["host"]})).unwrap();
/// let definition = tool_input::rig::tool_definition(&ping).unwrap();
/// assert_eq!(definition.name.as_str(), "ping");
/// assert_eq!(definition.description, "Ping a host.");
/// assert_eq!(definition.parameters["required"], json!(["host"]));
/// ```
pub fn tool_definition(
    definition: &ToolDefinition,
) -> Result<::rig_core::completion::ToolDefinition, EmptyToolName> {
    Ok(::rig_core::completion::ToolDefinition::new(
        ToolName::new(definition.name())?,
        definition.description().unwrap_or_default(),
        definition.schema().clone(),
    ))
}

/// A rejection as rig's tool error: kind `invalid_args`, the rejection's message as the text
/// the model sees, the rejection's kind (`invalid`, `parse`, …) as the error's code, and the
/// rejection itself as its source (`error.downcast_ref::<Rejection>()`). For a tool that
/// checks arguments itself (a [`DynamicTool`](rig_core::tool::DynamicTool) over JSON, or
/// [`ToolInput::from_arguments`] inside `call`); `?` on a
/// `Result<_, Rejection>` converts through the `From` impl.
///
/// ```
/// use tool_input::Validator;
/// use rig_core::tool::ToolErrorKind;
/// use serde_json::json;
///
/// let validator = Validator::new(&json!({"type": "object",
///     "properties": {"n": {"type": "integer"}}, "required": ["n"]})).unwrap();
/// let rejection = validator.check("{}").unwrap_err().with_tool("count");
/// let error = tool_input::rig::tool_error(&rejection);
/// assert_eq!(error.kind(), ToolErrorKind::InvalidArgs);
/// assert_eq!(error.model_output().as_text(), Some(rejection.to_string().as_str()));
/// assert_eq!(error.code(), Some("invalid"));
/// ```
pub fn tool_error(rejection: &Rejection) -> ToolExecutionError {
    ToolExecutionError::new(ToolErrorKind::InvalidArgs, rejection.to_string())
        .with_code(rejection.kind.code())
        .with_source(rejection.clone())
}

impl From<Rejection> for ToolExecutionError {
    fn from(rejection: Rejection) -> Self {
        tool_error(&rejection)
    }
}
