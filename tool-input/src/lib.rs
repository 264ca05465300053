//! Turn a language model's tool-call arguments into typed, validated Rust values, or into
//! errors the model can act on.
//!
//! A model never hands a tool a typed value: it hands over text that claims to describe one.
//! `tool-input` parses that text leniently, coerces its *representation* to the JSON Schema
//! the model was shown, validates it, and deserializes it into your type. It never changes
//! the model's *choice*: an unknown enum value, a missing field or a number out of range is
//! rejected with the path, what was wrong and what would have worked.
//!
//! ```
//! use serde::Deserialize;
//! use schemars::JsonSchema;
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
//! #[derive(Debug, PartialEq, Deserialize, JsonSchema)]
//! #[serde(rename_all = "snake_case")]
//! enum Priority { Low, High }
//!
//! // Prose, single quotes, a quoted list and a capitalised enum value: all representation.
//! let raw = "Sure! {'customer_id': 'C-1', 'priority': 'High', 'tags': '[\"vip\"]'}";
//! let order = CreateOrder::from_arguments(raw).unwrap();
//! assert_eq!(order.priority, Priority::High);
//! assert_eq!(order.tags, ["vip"]);
//!
//! // An unknown enum value is a choice: rejected, with the options that would work.
//! let rejection = CreateOrder::from_arguments(r#"{"customer_id": "C-1", "priority": "urgent", "tags": []}"#)
//!     .unwrap_err();
//! assert!(rejection.to_string().contains(r#"/priority: "urgent" is not one of "low", "high""#));
//! ```
//!
//! For a plain JSON Schema (no Rust type), use [`Validator`]. For a framework that
//! deserializes a tool's arguments itself (`type Args: Deserialize`), use [`Args<T>`](Args).
//!
//! Around the engine: [`calls`] reads the tool calls of any API's response (OpenAI, Responses,
//! Anthropic, Gemini, Ollama, and calls written as text) into one [`ToolCall`] record;
//! [`stream`] assembles the same records from each API's stream, event by event;
//! [`dialect`] writes a tool's definition in each API's dialect and checks it against the
//! provider's limits; a [`Toolbox`] dispatches calls to typed handlers and answers each one
//! in the API's tool-result format.
//!
//! # Features
//!
//! | feature | default | what it adds |
//! |---|---|---|
//! | `derive` | yes | `#[derive(ToolInput)]` |
//! | `tracing` | yes | the Toolbox's `tracing` events; off, nothing of `tracing` is compiled |
//! | `rmcp` | no | `tool_input::rmcp`: `Parameters<T>` for rmcp `#[tool]`s, a [`Toolbox`] served as an MCP server |
//! | `async-openai` | no | `tool_input::async_openai`: async-openai's Chat Completions types to and from ours |
//! | `rig` | no | `tool_input::rig`: a [`ToolInput`] type as a rig tool's `Args` (through [`Args`]), rig's tool definition from ours, rejections as rig's tool errors |
//! | `garde` | no | `tool_input::garde`: garde rules as a tool's own rules, a `garde::Report` as field errors with paths |
//!
//! The `tool-input` command-line program is the crate `tool-input-cli`
//! (`cargo install tool-input-cli`).
#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

mod alias;
mod arbitrary_precision;
mod args;
pub mod calls;
mod check;
mod custom;
mod decimal;
pub mod dialect;
mod equal;
mod error;
mod field_options;
mod field_order;
mod key_order;
mod key_walk;
mod keywords;
mod lent_str;
mod limits;
mod members;
mod message;
pub mod parse;
mod parsed_text;
pub mod partial;
mod pattern;
mod plan;
mod pointer;
mod policy;
mod probe;
mod raw;
mod rejection_kind;
mod render;
mod report;
mod schema;
mod schema_error;
mod serde_facts;
pub mod stream;
mod tool;
mod toolbox;
mod validator;

#[cfg(feature = "rmcp")]
#[cfg_attr(docsrs, doc(cfg(feature = "rmcp")))]
#[path = "integrations/rmcp.rs"]
pub mod rmcp;

#[cfg(feature = "async-openai")]
#[cfg_attr(docsrs, doc(cfg(feature = "async-openai")))]
#[path = "integrations/async_openai.rs"]
pub mod async_openai;

#[cfg(feature = "rig")]
#[cfg_attr(docsrs, doc(cfg(feature = "rig")))]
#[path = "integrations/rig.rs"]
pub mod rig;

#[cfg(feature = "garde")]
#[cfg_attr(docsrs, doc(cfg(feature = "garde")))]
#[path = "integrations/garde.rs"]
pub mod garde;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

pub use args::Args;
pub use calls::{CallError, Calls, ToolCall};
pub use dialect::{Dialect, DialectProblem};
pub use error::{ErrorCode, FieldError, Rejection, RejectionKind};
pub use field_options::FieldOptions;
pub use limits::Limits;
pub use partial::PartialValue;
pub use policy::{Policy, UnknownPolicy};
pub use raw::RawArguments;
pub use report::{Checked, Coercion, CoercionKind, Report};
pub use schema::tool_schema_for;
pub use schema_error::SchemaError;
pub use stream::StreamAssembler;
pub use tool::{ToolDefinition, ToolInput};
pub use toolbox::{CallContext, Conversation, Failure, Outcome, OutcomeKind, Toolbox};
pub use validator::{CheckOptions, Validator, ValidatorBuilder};

/// `#[derive(ToolInput)]`: see [`ToolInput`] for what it generates and the attributes it reads.
#[cfg(feature = "derive")]
#[cfg_attr(docsrs, doc(cfg(feature = "derive")))]
pub use tool_input_derive::ToolInput;

/// `#[derive(PartialValue)]`: see [`partial::PartialValue`].
#[cfg(feature = "derive")]
#[cfg_attr(docsrs, doc(cfg(feature = "derive")))]
pub use tool_input_derive::PartialValue;
