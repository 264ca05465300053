//! [rig](https://docs.rs/rig-core), with this crate's pipeline: a [`ToolInput`] type as a rig
//! tool's `Args` through [`Args`], rig's tool definition from ours, and a rejection as rig's
//! `invalid_args` tool error, whose text rig hands back to the model.
//!
//! rig deserializes a tool's arguments itself (`serde_json::from_str::<Self::Args>` in its
//! dispatch), so the tool declares `type Args = tool_input::Args<T>`: the arguments are
//! coerced and validated (and `T`'s own rules run) before `call` sees them. When they are
//! refused, rig turns the serde error into a failed [`ToolResult`](rig_core::tool::ToolResult)
//! of kind `invalid_args` whose model-visible text is `failed to parse tool arguments: `
//! followed by the rejection's message (every error with its path, then serde_json's
//! position), so the model can fix its call. Arguments a provider delivered as a JSON
//! string, mangled or not, are read too; text that is not JSON at all is refused by
//! serde_json before the pipeline sees it (see [`Args`]).
//!
//! ```
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
//! ```
//!
//! rig-core 0.44 is the release this feature is built against: 0.45 and later need Rust
//! 1.97.1.

use ::rig_core::completion::message::{EmptyToolName, ToolName};
use ::rig_core::tool::{ToolErrorKind, ToolExecutionError};

use crate::error::Rejection;
use crate::tool::ToolDefinition;

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
/// [`ToolInput::from_arguments`](crate::ToolInput::from_arguments) inside `call`); `?` on a
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
