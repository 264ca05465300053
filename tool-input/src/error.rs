//! Rejections: why arguments were refused, with every field error a model can act on.

use std::fmt;
use std::sync::{Arc, OnceLock};

use serde::ser::{SerializeStruct, Serializer};
use serde::Serialize;
use serde_json::Value;

use crate::parse::{ParseError, Repair};
// Defined in a leaf (the parser names it too); rejections are where callers look for it.
pub use crate::rejection_kind::RejectionKind;

/// The stable code of one field error. [`ErrorCode::code`] gives its snake_case name.
///
/// ```
/// use serde_json::json;
/// use tool_input::{ErrorCode, Validator};
///
/// let validator = Validator::new(&json!({
///     "type": "object",
///     "properties": {"count": {"type": "integer", "minimum": 1}},
///     "required": ["count"]
/// }))?;
/// let rejection = validator.check(r#"{"count": 0}"#).unwrap_err();
/// assert_eq!(rejection.errors()[0].code(), ErrorCode::Range);
/// let rejection = validator.check("{}").unwrap_err();
/// assert_eq!(rejection.errors()[0].code(), ErrorCode::Missing);
/// # Ok::<(), tool_input::SchemaError>(())
/// ```
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
    /// A `pattern` (or `patternProperties` pattern) that needs a backtracking engine
    /// (lookaround, back-references) could not be checked on the string within its cost
    /// budget: the check is refused rather than left to run without end. The message
    /// names the pattern.
    PatternBudget,
    /// A number where an integer is declared that cannot be kept exactly: its text is not
    /// exactly an integer (`0.99999999999999999`, which a float rounds to `1`), or it is an
    /// integer beyond what the value can hold without rounding (`-9999999999999999999999`,
    /// `9007199254740993.0`). Never rounded silently.
    Inexact,
    /// A key is given twice in one object, with different values (the default and lenient
    /// policies; [`Policy::Strict`](crate::Policy::Strict) keeps the last value, as JSON
    /// parsers do).
    DuplicateKey,
    /// The tool's own rule refused the value (`#[tool_input(validate = ...)]`, see
    /// [`FieldError::custom`]).
    Custom,
    /// A string is not written in the grammar its `format` names (`date-time`, `uuid`,
    /// `ipv4`...); the message names the format and gives a valid example. Numeric formats
    /// (`int32`, `float`...) are ranges: a miss is [`ErrorCode::Range`].
    Format,
    /// An array has fewer items matching `contains` than `minContains` (at least one), or
    /// more than `maxContains`.
    Contains,
    /// A property's name breaks `propertyNames` (the error's path is the property's).
    PropertyName,
    /// A string does not hold what draft 7's `contentEncoding` (`base64`) or
    /// `contentMediaType` (`application/json`) says it holds. From 2019-09 on, those
    /// keywords are annotations only.
    Content,
}

impl ErrorCode {
    /// The stable snake_case name, as the CLI and the error's JSON write it (also its
    /// `Display`).
    ///
    /// ```
    /// use tool_input::ErrorCode;
    ///
    /// assert_eq!(ErrorCode::UnknownField.code(), "unknown_field");
    /// assert_eq!(ErrorCode::DuplicateKey.to_string(), "duplicate_key");
    /// ```
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
            ErrorCode::PatternBudget => "pattern_budget",
            ErrorCode::Inexact => "inexact",
            ErrorCode::DuplicateKey => "duplicate_key",
            ErrorCode::Custom => "custom",
            ErrorCode::Format => "format",
            ErrorCode::Contains => "contains",
            ErrorCode::PropertyName => "property_name",
            ErrorCode::Content => "content",
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// One thing wrong with the arguments, at one place.
///
/// Serializes as the CLI prints it: `{"path", "code", "message"}`, with `"value"`,
/// `"options"` and `"suggestion"` only when they have something to say.
///
/// ```
/// use serde_json::json;
/// use tool_input::{ErrorCode, Validator};
///
/// let validator = Validator::new(&json!({
///     "type": "object",
///     "properties": {"priority": {"enum": ["low", "high"]}}
/// }))?;
/// let rejection = validator.check(r#"{"priority": "hgih"}"#).unwrap_err();
/// let error = &rejection.errors()[0];
/// assert_eq!(error.path(), "/priority");
/// assert_eq!(error.code(), ErrorCode::Enum);
/// assert_eq!(error.value(), Some(r#""hgih""#));
/// assert_eq!(error.options(), [json!("low"), json!("high")]);
/// assert_eq!(error.suggestion(), Some(&json!("high")));
/// assert!(error.message().contains(r#"did you mean "high"?"#));
/// # Ok::<(), tool_input::SchemaError>(())
/// ```
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
    #[serde(skip_serializing_if = "Options::is_empty")]
    pub(crate) options: Options,
    /// A did-you-mean suggestion: shown to the model, never applied.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) suggestion: Option<Value>,
}

/// The options an error lists: its own, or a list the compiled schema keeps (an `enum`'s
/// values, an object's property names), which every error that shows it shares rather than
/// copies: a rejection is built without a value per option.
#[derive(Clone, Default)]
pub(crate) enum Options {
    #[default]
    None,
    Own(Vec<Value>),
    Shared(Arc<[Value]>),
}

impl Options {
    /// For `skip_serializing_if`.
    fn is_empty(&self) -> bool {
        <[Value]>::is_empty(self)
    }
}

/// An option list of the compiled schema that errors share ([`Options::Shared`]), made on
/// the first error that lists it and kept with the schema.
#[derive(Clone, Default)]
pub(crate) struct SharedOptions(OnceLock<Arc<[Value]>>);

impl SharedOptions {
    /// The list, made by `make` the first time.
    pub(crate) fn get(&self, make: impl FnOnce() -> Vec<Value>) -> Options {
        Options::Shared(Arc::clone(self.0.get_or_init(|| make().into())))
    }
}

impl PartialEq for SharedOptions {
    // A cache of what the schema holds: two schemas are alike whatever each has made.
    fn eq(&self, _: &SharedOptions) -> bool {
        true
    }
}

impl fmt::Debug for SharedOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SharedOptions")
    }
}

impl std::ops::Deref for Options {
    type Target = [Value];

    fn deref(&self) -> &[Value] {
        match self {
            Options::None => &[],
            Options::Own(values) => values,
            Options::Shared(values) => values,
        }
    }
}

impl From<Vec<Value>> for Options {
    fn from(values: Vec<Value>) -> Self {
        Options::Own(values)
    }
}

impl PartialEq for Options {
    fn eq(&self, other: &Options) -> bool {
        **self == **other
    }
}

impl fmt::Debug for Options {
    // As the list it is, whichever way it is held.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

impl Serialize for Options {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        (**self).serialize(serializer)
    }
}

impl FieldError {
    /// JSON Pointer to the offending place, in the keys the model sent (`/items/1/quantity`).
    /// A missing or unknown property is reported at its own path (`/customer_id`).
    ///
    /// ```
    /// # use serde_json::json;
    /// # let validator = tool_input::Validator::new(&json!({
    /// #     "type": "object",
    /// #     "properties": {
    /// #         "items": {"type": "array", "items": {"type": "object", "properties": {"quantity": {"type": "integer", "maximum": 10}}}},
    /// #         "priority": {"enum": ["low", "high"]}
    /// #     },
    /// #     "additionalProperties": false
    /// # }))?;
    /// let rejection = validator.check(r#"{"items": [{"quantity": 1}, {"quantity": 12}], "colour": 1}"#).unwrap_err();
    /// let paths: Vec<&str> = rejection.errors().iter().map(|e| e.path()).collect();
    /// assert_eq!(paths, ["/items/1/quantity", "/colour"]);
    /// # Ok::<(), tool_input::SchemaError>(())
    /// ```
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The stable code.
    ///
    /// ```
    /// use tool_input::ErrorCode;
    /// # use serde_json::json;
    /// # let validator = tool_input::Validator::new(&json!({
    /// #     "type": "object",
    /// #     "properties": {
    /// #         "items": {"type": "array", "items": {"type": "object", "properties": {"quantity": {"type": "integer", "maximum": 10}}}},
    /// #         "priority": {"enum": ["low", "high"]}
    /// #     },
    /// #     "additionalProperties": false
    /// # }))?;
    /// let rejection = validator.check(r#"{"colour": "red"}"#).unwrap_err();
    /// assert_eq!(rejection.errors()[0].code(), ErrorCode::UnknownField);
    /// # Ok::<(), tool_input::SchemaError>(())
    /// ```
    pub fn code(&self) -> ErrorCode {
        self.code
    }

    /// What was wrong and what would work, in one sentence for the model.
    ///
    /// ```
    /// # use serde_json::json;
    /// # let validator = tool_input::Validator::new(&json!({
    /// #     "type": "object",
    /// #     "properties": {
    /// #         "items": {"type": "array", "items": {"type": "object", "properties": {"quantity": {"type": "integer", "maximum": 10}}}},
    /// #         "priority": {"enum": ["low", "high"]}
    /// #     },
    /// #     "additionalProperties": false
    /// # }))?;
    /// let rejection = validator.check(r#"{"items": [{"quantity": 12}]}"#).unwrap_err();
    /// assert_eq!(rejection.errors()[0].message(), "12 is greater than the maximum of 10");
    /// # Ok::<(), tool_input::SchemaError>(())
    /// ```
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The offending value as compact JSON, shortened to the echo limit; `None` when absent
    /// or when the field is sensitive.
    ///
    /// ```
    /// # use serde_json::json;
    /// # let validator = tool_input::Validator::new(&json!({
    /// #     "type": "object",
    /// #     "properties": {
    /// #         "items": {"type": "array", "items": {"type": "object", "properties": {"quantity": {"type": "integer", "maximum": 10}}}},
    /// #         "priority": {"enum": ["low", "high"]}
    /// #     },
    /// #     "additionalProperties": false
    /// # }))?;
    /// let rejection = validator.check(r#"{"priority": ["high"]}"#).unwrap_err();
    /// assert_eq!(rejection.errors()[0].value(), Some(r#"["high"]"#));
    /// # Ok::<(), tool_input::SchemaError>(())
    /// ```
    pub fn value(&self) -> Option<&str> {
        self.value.as_deref()
    }

    /// The allowed options (enum values, known field names), when there is a short list.
    ///
    /// ```
    /// # use serde_json::json;
    /// # let validator = tool_input::Validator::new(&json!({
    /// #     "type": "object",
    /// #     "properties": {
    /// #         "items": {"type": "array", "items": {"type": "object", "properties": {"quantity": {"type": "integer", "maximum": 10}}}},
    /// #         "priority": {"enum": ["low", "high"]}
    /// #     },
    /// #     "additionalProperties": false
    /// # }))?;
    /// let rejection = validator.check(r#"{"colour": "red"}"#).unwrap_err();
    /// assert_eq!(rejection.errors()[0].options(), [json!("items"), json!("priority")]);
    /// # Ok::<(), tool_input::SchemaError>(())
    /// ```
    pub fn options(&self) -> &[Value] {
        &self.options
    }

    /// A did-you-mean suggestion: shown to the model, never applied.
    ///
    /// ```
    /// # use serde_json::json;
    /// # let validator = tool_input::Validator::new(&json!({
    /// #     "type": "object",
    /// #     "properties": {
    /// #         "items": {"type": "array", "items": {"type": "object", "properties": {"quantity": {"type": "integer", "maximum": 10}}}},
    /// #         "priority": {"enum": ["low", "high"]}
    /// #     },
    /// #     "additionalProperties": false
    /// # }))?;
    /// let rejection = validator.check(r#"{"prioirty": "low"}"#).unwrap_err();
    /// assert_eq!(rejection.errors()[0].suggestion(), Some(&json!("priority")));
    /// # Ok::<(), tool_input::SchemaError>(())
    /// ```
    pub fn suggestion(&self) -> Option<&Value> {
        self.suggestion.as_ref()
    }
}

/// The builder for errors of a tool's own rules (`#[tool_input(validate = ...)]`): a
/// message for the model, placed at a path one token at a time.
///
/// ```
/// use tool_input::{ErrorCode, FieldError};
///
/// let error = FieldError::custom("`end` must be after `start`").at("end");
/// assert_eq!(error.path(), "/end");
/// assert_eq!(error.code(), ErrorCode::Custom);
///
/// // Tokens are property names or array indexes, escaped as JSON Pointer requires.
/// let error = FieldError::custom("unknown SKU").at("items").at(2).at("sku/code").with_value("X-1");
/// assert_eq!(error.path(), "/items/2/sku~1code");
/// assert_eq!(error.value(), Some(r#""X-1""#));
/// ```
impl FieldError {
    /// An error with code [`ErrorCode::Custom`] and `message` (one sentence for the model:
    /// what is wrong and what would work), at the root of the arguments until placed with
    /// [`FieldError::at`].
    ///
    /// ```
    /// use tool_input::{ErrorCode, FieldError};
    ///
    /// let error = FieldError::custom("the room is booked then");
    /// assert_eq!((error.path(), error.code()), ("", ErrorCode::Custom));
    /// assert_eq!(error.message(), "the room is booked then");
    /// ```
    pub fn custom(message: impl Into<String>) -> Self {
        FieldError {
            path: String::new(),
            code: ErrorCode::Custom,
            message: message.into(),
            value: None,
            options: Options::None,
            suggestion: None,
        }
    }

    /// One step down the path: a property name or an array index (anything `Display`),
    /// escaped as a JSON Pointer token. Use the names the model sends (serde's names, after
    /// renames), since the model reads the path.
    ///
    /// ```
    /// use tool_input::FieldError;
    ///
    /// let error = FieldError::custom("unknown SKU").at("items").at(0).at("a/b~c");
    /// assert_eq!(error.path(), "/items/0/a~1b~0c");
    /// ```
    pub fn at(mut self, token: impl fmt::Display) -> Self {
        crate::pointer::push_token(&mut self.path, &token.to_string());
        self
    }

    /// Place the error at `pointer`, a whole JSON Pointer (`/items/2/sku`), as another
    /// validator reported it.
    ///
    /// ```
    /// use tool_input::FieldError;
    ///
    /// let error = FieldError::custom("unknown SKU").at_pointer("/items/2/sku");
    /// assert_eq!(error.path(), "/items/2/sku");
    /// ```
    pub fn at_pointer(mut self, pointer: impl Into<String>) -> Self {
        self.path = pointer.into();
        self
    }

    /// Echo the offending value (as compact JSON, shortened to 80 characters). Left out
    /// when the error is under a sensitive field.
    ///
    /// ```
    /// use tool_input::FieldError;
    ///
    /// let error = FieldError::custom("too early").at("start").with_value("2026-01-01");
    /// assert_eq!(error.value(), Some(r#""2026-01-01""#));
    /// let long = FieldError::custom("too long").with_value("x".repeat(500));
    /// assert!(long.value().is_some_and(|value| value.chars().count() < 100));
    /// ```
    pub fn with_value(mut self, value: impl Into<Value>) -> Self {
        self.value = Some(crate::message::echo(&value.into(), ECHO_CHARS));
        self
    }

    /// The stable code, when a more precise one than [`ErrorCode::Custom`] applies (a
    /// cross-field bound is [`ErrorCode::Range`], say).
    ///
    /// ```
    /// use tool_input::{ErrorCode, FieldError};
    ///
    /// let error = FieldError::custom("`end` must be after `start`").at("end").with_code(ErrorCode::Range);
    /// assert_eq!(error.code(), ErrorCode::Range);
    /// ```
    pub fn with_code(mut self, code: ErrorCode) -> Self {
        self.code = code;
        self
    }

    /// The values that would be accepted, when there is a short list.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::FieldError;
    ///
    /// let error = FieldError::custom("no such room").at("room").with_options(["Ada", "Turing"]);
    /// assert_eq!(error.options(), [json!("Ada"), json!("Turing")]);
    /// ```
    pub fn with_options<I: IntoIterator<Item = V>, V: Into<Value>>(mut self, options: I) -> Self {
        self.options = Options::Own(options.into_iter().map(Into::into).collect());
        self
    }
}

/// How much of a value a custom error echoes: the default of
/// [`Limits::max_echo_chars`](crate::Limits::max_echo_chars).
const ECHO_CHARS: usize = 80;

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
    /// The errors found (at most [`Limits::max_errors`](crate::Limits::max_errors)), in
    /// document order: the order the model wrote the keys in (an error about a property it
    /// left out comes after what it sent of that object). For arguments given as a parsed
    /// `Value`, whose objects keep no order, in key order. Whole-input failures have one
    /// error at path `""`.
    pub(crate) errors: Vec<FieldError>,
    /// How many more errors were found past [`Limits::max_errors`](crate::Limits::max_errors):
    /// counted, not listed.
    pub(crate) omitted_errors: usize,
    /// Syntax repairs made before the failure (for logging).
    pub(crate) repairs: Vec<Repair>,
    /// The tool's name, when known, for the rendered message.
    pub(crate) tool: Option<Arc<str>>,
}

impl Rejection {
    /// The rejection of arguments whose reading was stopped at `limit` bytes, before they
    /// were parsed: for a program that bounds what it reads (a server's request body, the
    /// CLI's standard input) and answers as the engine would.
    ///
    /// ```
    /// use tool_input::{ErrorCode, Rejection, RejectionKind};
    /// let rejection = Rejection::input_too_large(8);
    /// assert_eq!(rejection.kind(), RejectionKind::TooLarge);
    /// assert_eq!(rejection.errors()[0].code(), ErrorCode::TooLarge);
    /// assert_eq!(rejection.errors()[0].message(), "the input is more than the limit of 8 bytes");
    /// ```
    pub fn input_too_large(limit: usize) -> Self {
        Rejection::whole(
            RejectionKind::TooLarge,
            ErrorCode::TooLarge,
            format!("the input is more than the limit of {limit} bytes"),
        )
    }

    /// The rejection of arguments that parsed but broke these rules: kind
    /// [`RejectionKind::Invalid`], for errors found outside the engine (another validator,
    /// a handler's own checks), rendered for the model as the engine renders its own.
    ///
    /// ```
    /// use tool_input::{FieldError, Rejection, RejectionKind};
    /// let rejection = Rejection::invalid(vec![FieldError::custom("must be after `start`").at("end")])
    ///     .with_tool("book_room");
    /// assert_eq!(rejection.kind(), RejectionKind::Invalid);
    /// assert!(rejection.to_string().contains("- /end: must be after `start`"));
    /// ```
    pub fn invalid(errors: Vec<FieldError>) -> Self {
        Rejection { kind: RejectionKind::Invalid, errors, omitted_errors: 0, repairs: Vec::new(), tool: None }
    }

    pub(crate) fn whole(kind: RejectionKind, code: ErrorCode, message: String) -> Self {
        Rejection {
            kind,
            errors: vec![FieldError {
                path: String::new(),
                code,
                message,
                value: None,
                options: Options::None,
                suggestion: None,
            }],
            omitted_errors: 0,
            repairs: Vec::new(),
            tool: None,
        }
    }

    pub(crate) fn from_parse(error: ParseError) -> Self {
        if let ParseError::NumberOutOfRange { path, .. } = error {
            // The text is JSON up to there; the number is out of range, said at its path.
            return Rejection::beyond_floats(path);
        }
        let message = error.to_string();
        let kind = error.kind();
        let code = match kind {
            RejectionKind::Truncated => ErrorCode::Truncated,
            RejectionKind::TooLarge => ErrorCode::TooLarge,
            RejectionKind::TooDeep => ErrorCode::TooDeep,
            _ => ErrorCode::Parse,
        };
        Rejection::whole(kind, code, message)
    }

    /// A number beyond the floats (`1e400`) at `path`: `range`. The message quotes nothing
    /// (the number may be a sensitive field's, and its text as long as the input).
    pub(crate) fn beyond_floats(path: String) -> Self {
        Rejection::invalid(vec![FieldError {
            path,
            code: ErrorCode::Range,
            message: "this number is beyond the range of a 64-bit float (about ±1.8e308); \
                      send a number within it"
                .to_owned(),
            value: None,
            options: Options::None,
            suggestion: None,
        }])
    }

    /// The same rejection with no word of the input in it: a syntax error keeps only its
    /// position (`invalid JSON at line 1 column 14`). For a tool with sensitive fields, whose
    /// value may be the very text that failed to parse (`{"password": hunter2}`). The other
    /// whole-input messages (cut off, too large, too deep, invalid UTF-8) quote nothing.
    pub(crate) fn quoting_nothing(mut self) -> Self {
        if self.kind == RejectionKind::Parse {
            for error in &mut self.errors {
                if let Some(position) = syntax_position(&error.message) {
                    error.message = format!("invalid JSON{position}");
                }
            }
        }
        self
    }

    /// What kind of failure this is.
    ///
    /// ```
    /// use tool_input::RejectionKind;
    /// # use serde_json::json;
    /// # let validator = tool_input::Validator::new(&json!({
    /// #     "type": "object",
    /// #     "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
    /// #     "required": ["city"],
    /// #     "additionalProperties": false
    /// # }))?;
    /// assert_eq!(validator.check(r#"{"city": 3}"#).unwrap_err().kind(), RejectionKind::Invalid);
    /// assert_eq!(validator.check(r#"{"city": "Pa"#).unwrap_err().kind(), RejectionKind::Truncated);
    /// assert_eq!(validator.check("[1, 2]").unwrap_err().kind(), RejectionKind::NotObject);
    /// # Ok::<(), tool_input::SchemaError>(())
    /// ```
    pub fn kind(&self) -> RejectionKind {
        self.kind
    }

    /// The errors found, in document order (the order the model wrote the keys in), at most
    /// [`Limits::max_errors`](crate::Limits::max_errors) of them. Whole-input failures have one
    /// error at path `""`.
    ///
    /// ```
    /// # use serde_json::json;
    /// # let validator = tool_input::Validator::new(&json!({
    /// #     "type": "object",
    /// #     "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
    /// #     "required": ["city"],
    /// #     "additionalProperties": false
    /// # }))?;
    /// let rejection = validator.check(r#"{"days": "many", "colour": 1}"#).unwrap_err();
    /// let found: Vec<(&str, &str)> = rejection.errors().iter().map(|e| (e.path(), e.code().code())).collect();
    /// assert_eq!(found, [("/days", "type"), ("/colour", "unknown_field"), ("/city", "missing")]);
    /// # Ok::<(), tool_input::SchemaError>(())
    /// ```
    pub fn errors(&self) -> &[FieldError] {
        &self.errors
    }

    /// How many more errors were found past [`Limits::max_errors`](crate::Limits::max_errors):
    /// counted, not listed (the message ends "… and N more errors").
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::{Limits, Validator};
    ///
    /// let schema = json!({"type": "object", "additionalProperties": false});
    /// let validator = Validator::builder(&schema).limits(Limits::default().with_max_errors(2)).build()?;
    /// let rejection = validator.check(r#"{"a": 1, "b": 2, "c": 3, "d": 4}"#).unwrap_err();
    /// assert_eq!(rejection.errors().len(), 2);
    /// assert_eq!(rejection.omitted_errors(), 2);
    /// # Ok::<(), tool_input::SchemaError>(())
    /// ```
    pub fn omitted_errors(&self) -> usize {
        self.omitted_errors
    }

    /// Syntax repairs made before the failure (for logging).
    ///
    /// ```
    /// use tool_input::parse::RepairKind;
    /// # use serde_json::json;
    /// # let validator = tool_input::Validator::new(&json!({
    /// #     "type": "object",
    /// #     "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
    /// #     "required": ["city"],
    /// #     "additionalProperties": false
    /// # }))?;
    /// let rejection = validator.check("{'city': 3,}").unwrap_err();
    /// let kinds: Vec<RepairKind> = rejection.repairs().iter().map(|r| r.kind).collect();
    /// assert!(kinds.contains(&RepairKind::SingleQuotes) && kinds.contains(&RepairKind::TrailingComma));
    /// # Ok::<(), tool_input::SchemaError>(())
    /// ```
    pub fn repairs(&self) -> &[Repair] {
        &self.repairs
    }

    /// The tool's name, when known, for the rendered message.
    ///
    /// ```
    /// use tool_input::{FieldError, Rejection};
    ///
    /// let rejection = Rejection::invalid(vec![FieldError::custom("no such room").at("room")]);
    /// assert_eq!(rejection.tool(), None);
    /// assert_eq!(rejection.with_tool("book_room").tool(), Some("book_room"));
    /// ```
    pub fn tool(&self) -> Option<&str> {
        self.tool.as_deref()
    }

    /// Name the tool in the rendered message.
    ///
    /// ```
    /// use tool_input::{FieldError, Rejection};
    ///
    /// let rejection = Rejection::invalid(vec![FieldError::custom("no such room").at("room")]);
    /// assert!(rejection.with_tool("book_room").message().contains("book_room"));
    /// ```
    pub fn with_tool(mut self, name: impl Into<String>) -> Self {
        self.tool = Some(Arc::from(name.into()));
        self
    }

    /// [`Rejection::with_tool`] with a name the tool's definition keeps: shared, not copied.
    pub(crate) fn with_tool_named(mut self, name: &Arc<str>) -> Self {
        self.tool = Some(Arc::clone(name));
        self
    }

    /// The text to send back to the model (the same as `to_string()`).
    ///
    /// ```
    /// # use serde_json::json;
    /// # let validator = tool_input::Validator::new(&json!({
    /// #     "type": "object",
    /// #     "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
    /// #     "required": ["city"],
    /// #     "additionalProperties": false
    /// # }))?;
    /// let rejection = validator.check(r#"{"city": "Paris", "days": 2.5}"#).unwrap_err();
    /// let message = rejection.message();
    /// assert!(message.contains("nothing was run"));
    /// assert!(message.contains("- /days: expected an integer, got 2.5"));
    /// # Ok::<(), tool_input::SchemaError>(())
    /// ```
    pub fn message(&self) -> String {
        self.to_string()
    }
}

/// The ` at line L column C` that ends a syntax error's message ([`ParseError::Syntax`]).
fn syntax_position(message: &str) -> Option<&str> {
    let at = message.rfind(" at line ")?;
    let position = &message[at..];
    let (line, column) = position.strip_prefix(" at line ")?.split_once(" column ")?;
    let numeric = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    (numeric(line) && numeric(column)).then_some(position)
}

/// `{"kind", "errors", "message"}` (and `"omitted_errors"` when [`Limits::max_errors`](crate::Limits::max_errors) cut
/// the list): the [`RejectionKind::code`], every [`FieldError`] (`{"path",
/// "code", "message"}`, with `"value"`, `"options"` and `"suggestion"` when they have
/// something to say) and the text for the model. The CLI prints it (with `"ok": false`), and
/// the Python module raises it, in this shape.
///
/// ```
/// use tool_input::Validator;
/// use serde_json::json;
///
/// let validator = Validator::new(&json!({
///     "type": "object",
///     "properties": {"priority": {"enum": ["low", "high"]}},
///     "required": ["priority"]
/// })).unwrap();
/// let rejection = validator.check(r#"{"priority": "urgent"}"#).unwrap_err();
/// let json = serde_json::to_value(&rejection).unwrap();
/// assert_eq!(json["kind"], "invalid");
/// assert_eq!(json["errors"][0], json!({
///     "path": "/priority",
///     "code": "enum",
///     "message": r#""urgent" is not one of "low", "high""#,
///     "value": r#""urgent""#,
///     "options": ["low", "high"],
/// }));
/// assert_eq!(json["message"], rejection.to_string());
/// ```
impl Serialize for Rejection {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let fields = if self.omitted_errors > 0 { 4 } else { 3 };
        let mut record = serializer.serialize_struct("Rejection", fields)?;
        record.serialize_field("kind", self.kind.code())?;
        record.serialize_field("errors", &self.errors)?;
        record.serialize_field("message", &self.to_string())?;
        // The errors past `Limits::max_errors`: counted, as the message counts them.
        if self.omitted_errors > 0 {
            record.serialize_field("omitted_errors", &self.omitted_errors)?;
        }
        record.end()
    }
}

impl std::error::Error for Rejection {}
