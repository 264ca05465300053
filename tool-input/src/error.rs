//! Rejections: why arguments were refused, with every field error a model can act on.

use std::fmt;

use serde::Serialize;
use serde_json::Value;

use crate::parse::{ParseError, Repair};

/// Why a call's arguments were refused, as a whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum RejectionKind {
    /// The text is not JSON, even after the repairs the policy allows.
    Parse,
    /// The text was cut off in the middle of a value: the call must not run.
    Truncated,
    /// The arguments are valid JSON but not an object.
    NotObject,
    /// The arguments are an object that does not satisfy the schema; see the field errors.
    Invalid,
    /// The input is larger than the configured limit.
    TooLarge,
    /// The input is nested deeper than the configured limit.
    TooDeep,
}

impl RejectionKind {
    /// The stable snake_case name: `parse`, `truncated`, `not_object`, `invalid`,
    /// `too_large` or `too_deep`.
    pub fn code(self) -> &'static str {
        match self {
            RejectionKind::Parse => "parse",
            RejectionKind::Truncated => "truncated",
            RejectionKind::NotObject => "not_object",
            RejectionKind::Invalid => "invalid",
            RejectionKind::TooLarge => "too_large",
            RejectionKind::TooDeep => "too_deep",
        }
    }
}

impl fmt::Display for RejectionKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// The stable code of one field error. [`ErrorCode::code`] gives its snake_case name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ErrorCode {
    /// The input is not JSON (whole-input error, path `""`).
    Parse,
    /// The input was cut off (whole-input error, path `""`).
    Truncated,
    /// The input is not an object (whole-input error, path `""`).
    NotObject,
    /// The input is too large (whole-input error, path `""`).
    TooLarge,
    /// The input is nested too deeply (whole-input error, path `""`).
    TooDeep,
    /// A required property is absent.
    Missing,
    /// The value has the wrong JSON type.
    Type,
    /// The value is not one of the enumerated options.
    Enum,
    /// The value is not the single allowed constant.
    Const,
    /// The property is not declared, and unknown properties are not allowed.
    UnknownField,
    /// A number is below `minimum`/`exclusiveMinimum` or above `maximum`/`exclusiveMaximum`.
    Range,
    /// A number is not a multiple of `multipleOf`.
    MultipleOf,
    /// A string is shorter than `minLength` or longer than `maxLength` (in characters).
    Length,
    /// A string does not match `pattern`.
    Pattern,
    /// An array has fewer than `minItems` or more than `maxItems` items.
    Items,
    /// An array has duplicate items where `uniqueItems` forbids them.
    UniqueItems,
    /// An object has fewer than `minProperties` or more than `maxProperties` properties.
    Properties,
    /// The value matches none of the `anyOf`/`oneOf` alternatives, and no single
    /// alternative is close enough to blame a leaf.
    NoMatch,
    /// The value matches more than one `oneOf` alternative.
    Ambiguous,
    /// The value is rejected by a `false` schema or a `not`.
    NotAllowed,
    /// The checked JSON could not be turned into the Rust type (a residual serde error).
    Deserialize,
    /// A string is longer than [`Limits::max_string_bytes`](crate::Limits::max_string_bytes).
    TooLong,
}

impl ErrorCode {
    /// The stable snake_case name.
    pub fn code(self) -> &'static str {
        match self {
            ErrorCode::Parse => "parse",
            ErrorCode::Truncated => "truncated",
            ErrorCode::NotObject => "not_object",
            ErrorCode::TooLarge => "too_large",
            ErrorCode::TooDeep => "too_deep",
            ErrorCode::Missing => "missing",
            ErrorCode::Type => "type",
            ErrorCode::Enum => "enum",
            ErrorCode::Const => "const",
            ErrorCode::UnknownField => "unknown_field",
            ErrorCode::Range => "range",
            ErrorCode::MultipleOf => "multiple_of",
            ErrorCode::Length => "length",
            ErrorCode::Pattern => "pattern",
            ErrorCode::Items => "items",
            ErrorCode::UniqueItems => "unique_items",
            ErrorCode::Properties => "properties",
            ErrorCode::NoMatch => "no_match",
            ErrorCode::Ambiguous => "ambiguous",
            ErrorCode::NotAllowed => "not_allowed",
            ErrorCode::Deserialize => "deserialize",
            ErrorCode::TooLong => "too_long",
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// One thing wrong with the arguments, at one place.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FieldError {
    /// JSON Pointer to the offending place, in the keys the model sent (`/items/1/quantity`).
    /// A missing or unknown property is reported at its own path (`/customer_id`).
    pub(crate) path: String,
    /// Stable snake_case code.
    pub(crate) code: ErrorCode,
    /// What was wrong and what would work, in one sentence for the model.
    pub(crate) message: String,
    /// The offending value as compact JSON, shortened to the echo limit; `None` when absent
    /// or when the field is sensitive.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) value: Option<String>,
    /// The allowed options (enum values, known field names), when there is a short list.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) options: Vec<Value>,
    /// A did-you-mean suggestion: shown to the model, never applied.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) suggestion: Option<Value>,
}

impl FieldError {
    /// JSON Pointer to the offending place, in the keys the model sent (`/items/1/quantity`).
    /// A missing or unknown property is reported at its own path (`/customer_id`).
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The stable code.
    pub fn code(&self) -> ErrorCode {
        self.code
    }

    /// What was wrong and what would work, in one sentence for the model.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The offending value as compact JSON, shortened to the echo limit; `None` when absent
    /// or when the field is sensitive.
    pub fn value(&self) -> Option<&str> {
        self.value.as_deref()
    }

    /// The allowed options (enum values, known field names), when there is a short list.
    pub fn options(&self) -> &[Value] {
        &self.options
    }

    /// A did-you-mean suggestion: shown to the model, never applied.
    pub fn suggestion(&self) -> Option<&Value> {
        self.suggestion.as_ref()
    }
}

/// Arguments that were refused, with every reason.
///
/// `Display` renders the text to send back to the model: compact, bounded, one line per
/// error with its path, what was wrong and what would work.
///
/// ```
/// use tool_input::{Validator, RejectionKind};
/// use serde_json::json;
///
/// let validator = Validator::new(&json!({
///     "type": "object",
///     "properties": {"priority": {"enum": ["low", "high"]}},
///     "required": ["priority"],
///     "additionalProperties": false
/// })).unwrap();
/// let rejection = validator.check(r#"{"priority": "urgent", "colour": 1}"#).unwrap_err();
/// assert_eq!(rejection.kind(), RejectionKind::Invalid);
/// assert_eq!(rejection.errors().len(), 2);
/// let text = rejection.to_string();
/// assert!(text.contains("/priority"));
/// assert!(text.contains(r#""low", "high""#));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Rejection {
    /// What kind of failure this is.
    pub(crate) kind: RejectionKind,
    /// Every error found, in document order. Whole-input failures have one error at path `""`.
    pub(crate) errors: Vec<FieldError>,
    /// Syntax repairs made before the failure (for logging).
    pub(crate) repairs: Vec<Repair>,
    /// The tool's name, when known, for the rendered message.
    pub(crate) tool: Option<String>,
}

impl Rejection {
    pub(crate) fn whole(kind: RejectionKind, code: ErrorCode, message: String) -> Self {
        Rejection {
            kind,
            errors: vec![FieldError {
                path: String::new(),
                code,
                message,
                value: None,
                options: Vec::new(),
                suggestion: None,
            }],
            repairs: Vec::new(),
            tool: None,
        }
    }

    pub(crate) fn from_parse(error: ParseError) -> Self {
        let message = error.to_string();
        match error {
            ParseError::Syntax { .. } | ParseError::InvalidUtf8 { .. } => {
                Rejection::whole(RejectionKind::Parse, ErrorCode::Parse, message)
            }
            ParseError::Truncated { .. } => {
                Rejection::whole(RejectionKind::Truncated, ErrorCode::Truncated, message)
            }
            ParseError::TooLarge { .. } => {
                Rejection::whole(RejectionKind::TooLarge, ErrorCode::TooLarge, message)
            }
            ParseError::TooDeep { .. } => {
                Rejection::whole(RejectionKind::TooDeep, ErrorCode::TooDeep, message)
            }
        }
    }

    /// What kind of failure this is.
    pub fn kind(&self) -> RejectionKind {
        self.kind
    }

    /// Every error found, in document order. Whole-input failures have one error at path `""`.
    pub fn errors(&self) -> &[FieldError] {
        &self.errors
    }

    /// Syntax repairs made before the failure (for logging).
    pub fn repairs(&self) -> &[Repair] {
        &self.repairs
    }

    /// The tool's name, when known, for the rendered message.
    pub fn tool(&self) -> Option<&str> {
        self.tool.as_deref()
    }

    /// Name the tool in the rendered message.
    pub fn with_tool(mut self, name: impl Into<String>) -> Self {
        self.tool = Some(name.into());
        self
    }

    /// The text to send back to the model (the same as `to_string()`).
    pub fn message(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::render::render(self, f)
    }
}

impl std::error::Error for Rejection {}
