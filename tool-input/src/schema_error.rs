//! The error of a schema that cannot be compiled: made by the plan's compiler, returned by
//! every constructor that compiles a schema.

/// A schema that cannot be compiled, with the JSON Pointer of the offending subschema.
///
/// ```
/// use serde_json::json;
/// use tool_input::Validator;
///
/// let error = Validator::new(&json!({
///     "type": "object",
///     "properties": {"n": {"type": "integer", "minimum": "one"}}
/// }))
/// .unwrap_err();
/// assert_eq!(error.pointer, "/properties/n");
/// assert!(error.to_string().starts_with("invalid schema at `/properties/n`: "));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid schema at `{pointer}`: {message}")]
pub struct SchemaError {
    /// Where in the schema (JSON Pointer; `""` is the root). In a document given with
    /// [`ValidatorBuilder::resource`](crate::ValidatorBuilder::resource), the document's URI,
    /// `#`, then the pointer in it: `https://example.com/common.json#/$defs/id`.
    pub pointer: String,
    /// What is wrong.
    pub message: String,
}

impl SchemaError {
    pub(crate) fn new(pointer: &str, message: impl Into<String>) -> Self {
        SchemaError { pointer: pointer.to_owned(), message: message.into() }
    }
}
