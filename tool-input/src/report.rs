//! What the engine changed on the way from raw text to a checked value.

use std::fmt;

use serde::Serialize;

use crate::parse::Repair;

/// A value that passed every check, with the record of what it took to get there.
///
/// ```
/// use tool_input::{Validator, Checked};
/// use serde_json::json;
///
/// let validator = Validator::new(&json!({
///     "type": "object",
///     "properties": {"n": {"type": "integer"}},
///     "required": ["n"]
/// })).unwrap();
/// let Checked { value, report } = validator.check("{'n': '3'}").unwrap();
/// assert_eq!(value, json!({"n": 3}));
/// assert_eq!(report.repairs[0].kind.code(), "single_quotes");
/// assert_eq!(report.coercions[0].path, "/n");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Checked<T> {
    /// The checked value.
    pub value: T,
    /// The repairs and coercions that were applied.
    pub report: Report,
}

/// The syntax repairs and representation coercions applied to one call's arguments, for
/// logging. Values of sensitive fields never appear here.
///
/// ```
/// use serde_json::json;
/// use tool_input::{CoercionKind, Validator};
///
/// let validator = Validator::new(&json!({
///     "type": "object",
///     "properties": {"tags": {"type": "array", "items": {"type": "string"}}}
/// }))?;
/// let checked = validator.check(r#"```json
/// {"tags": "[\"a\", \"b\"]"}
/// ```"#).unwrap();
/// assert_eq!(checked.value, json!({"tags": ["a", "b"]}));
/// assert_eq!(checked.report.repairs[0].kind.code(), "code_fence");
/// assert_eq!(checked.report.coercions[0].kind, CoercionKind::ParsedString);
/// # Ok::<(), tool_input::SchemaError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Report {
    /// Syntax repairs made by the parser, in input order.
    pub repairs: Vec<Repair>,
    /// Representation coercions made against the schema, in the order the check visits
    /// the value: depth first, a value's own record before what is inside it, an object's
    /// filled defaults before its members, members in the order of `serde_json`'s map
    /// (sorted keys; the document's with its `preserve_order` feature), items in order.
    /// The same whichever path decided the call (one pass or the full check).
    pub coercions: Vec<Coercion>,
    /// Coercions made past [`Limits::max_coercions`](crate::Limits::max_coercions): counted,
    /// not recorded (the records kept are the first in the order above). Serialized only
    /// when not zero.
    #[serde(skip_serializing_if = "is_zero")]
    pub omitted_coercions: usize,
}

fn is_zero(count: &usize) -> bool {
    *count == 0
}

impl Report {
    /// A report of `repairs` and `coercions`, none past the limit of records.
    pub(crate) fn new(repairs: Vec<Repair>, coercions: Vec<Coercion>) -> Report {
        Report { repairs, coercions, omitted_coercions: 0 }
    }

    /// This report with `omitted` more coercions made past the limit of records, and at
    /// most `max_coercions` records kept (the first; the rest counted).
    pub(crate) fn limited(mut self, omitted: usize, max_coercions: usize) -> Report {
        let past = self.coercions.len().saturating_sub(max_coercions);
        self.coercions.truncate(max_coercions);
        self.omitted_coercions += omitted + past;
        self
    }

    /// True when the input was exact: no repair and no coercion.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::Validator;
    ///
    /// let validator = Validator::new(&json!({"type": "object", "properties": {"n": {"type": "integer"}}}))?;
    /// assert!(validator.check(r#"{"n": 3}"#).unwrap().report.is_clean());
    /// assert!(!validator.check(r#"{"n": "3"}"#).unwrap().report.is_clean());
    /// # Ok::<(), tool_input::SchemaError>(())
    /// ```
    pub fn is_clean(&self) -> bool {
        self.repairs.is_empty() && self.coercions.is_empty() && self.omitted_coercions == 0
    }
}

/// One representation change made to fit the schema.
///
/// ```
/// use serde_json::json;
/// use tool_input::{Coercion, CoercionKind, Validator};
///
/// let validator = Validator::new(&json!({
///     "type": "object",
///     "properties": {"priority": {"enum": ["low", "high"]}}
/// }))?;
/// let checked = validator.check(r#"{"priority": "High"}"#).unwrap();
/// assert_eq!(checked.report.coercions, [Coercion {
///     path: "/priority".to_owned(),
///     kind: CoercionKind::EnumCase,
///     from: Some(r#""High""#.to_owned()),
///     to: Some(r#""high""#.to_owned()),
/// }]);
/// # Ok::<(), tool_input::SchemaError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Coercion {
    /// JSON Pointer to the value, in the keys the model sent (`/items/1/quantity`).
    pub path: String,
    /// What was done.
    pub kind: CoercionKind,
    /// The value as sent, as compact JSON, shortened; `None` for sensitive fields.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// The value it became, as compact JSON, shortened; `None` for sensitive fields.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
}

/// What kind of representation coercion was made. `code()` gives a stable snake_case name.
///
/// ```
/// use serde_json::json;
/// use tool_input::{CoercionKind, Validator};
///
/// let validator = Validator::new(&json!({
///     "type": "object",
///     "properties": {"n": {"type": "integer"}, "ok": {"type": "boolean"}}
/// }))?;
/// let checked = validator.check(r#"{"n": "7", "ok": "true"}"#).unwrap();
/// let kinds: Vec<CoercionKind> = checked.report.coercions.iter().map(|c| c.kind).collect();
/// assert_eq!(kinds, [CoercionKind::NumberFromString, CoercionKind::BoolFromString]);
/// # Ok::<(), tool_input::SchemaError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum CoercionKind {
    /// A string holding a JSON (or Python-literal) array or object was parsed.
    ParsedString,
    /// An enum or const value in another letter case or spelling was mapped to the schema's.
    EnumCase,
    /// A numeric string was read as a number.
    NumberFromString,
    /// An integral float (`3.0`) was read as an integer.
    IntegerFromFloat,
    /// A string such as `"true"` was read as a boolean.
    BoolFromString,
    /// A null for an optional property that does not accept null was treated as absent.
    NullAsAbsent,
    /// An absent property was given the schema's `default` (not a change of what was sent,
    /// but recorded so the log shows the value the tool ran with).
    DefaultFilled,
    /// (Lenient) a number or boolean was written as a string.
    StringFromScalar,
    /// (Lenient) a single value was wrapped in a one-element array.
    WrappedInArray,
    /// (Lenient) a number was read as a boolean (`1`/`0`).
    BoolFromNumber,
    /// A key given twice in one object, with the same value both times, was read once (the
    /// default and lenient policies; two different values are a `duplicate_key` error).
    DuplicateKey,
    /// A property was sent under another name serde reads it by (`#[serde(alias = "...")]`)
    /// and read as the property (`from` and `to` are the two keys).
    Alias,
    /// A value none of an enum's variants is named was read as its catch-all variant
    /// (`#[serde(other)]`; `from` is the value sent, `to` the catch-all's name).
    OtherVariant,
    /// A string that spells exactly one value of its `format` another common way was
    /// written the format's way: a space between an RFC 3339 date and time (`T`), a UUID in
    /// braces or after `urn:uuid:` (the bare UUID). Never under the strict policy.
    FormatSpelling,
}

impl CoercionKind {
    /// The stable snake_case name, as the CLI and the report's JSON write it.
    ///
    /// ```
    /// use tool_input::CoercionKind;
    ///
    /// assert_eq!(CoercionKind::NumberFromString.code(), "number_from_string");
    /// assert_eq!(CoercionKind::DefaultFilled.code(), "default_filled");
    /// ```
    pub fn code(self) -> &'static str {
        match self {
            CoercionKind::ParsedString => "parsed_string",
            CoercionKind::EnumCase => "enum_case",
            CoercionKind::NumberFromString => "number_from_string",
            CoercionKind::IntegerFromFloat => "integer_from_float",
            CoercionKind::BoolFromString => "bool_from_string",
            CoercionKind::NullAsAbsent => "null_as_absent",
            CoercionKind::DefaultFilled => "default_filled",
            CoercionKind::StringFromScalar => "string_from_scalar",
            CoercionKind::WrappedInArray => "wrapped_in_array",
            CoercionKind::BoolFromNumber => "bool_from_number",
            CoercionKind::DuplicateKey => "duplicate_key",
            CoercionKind::Alias => "alias",
            CoercionKind::OtherVariant => "other_variant",
            CoercionKind::FormatSpelling => "format_spelling",
        }
    }
}

impl fmt::Display for CoercionKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}
