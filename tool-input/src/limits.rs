//! Limits that keep hostile input cheap to refuse: read by the parser's callers, the check,
//! the call readers and the dialects, so they sit below all of them.

use crate::parse::{self, ParseMode, ParseOptions};
use crate::policy::Policy;

/// Default for [`Limits::max_errors`].
const DEFAULT_MAX_ERRORS: usize = 50;

/// Default for [`Limits::max_coercions`].
const DEFAULT_MAX_COERCIONS: usize = 100;

/// Limits that keep hostile input cheap to refuse.
///
/// ```
/// use tool_input::Limits;
/// let limits = Limits::default().with_max_bytes(64 * 1024);
/// assert_eq!(limits.max_depth, 128);
/// assert_eq!(limits.max_errors, 50);
/// assert_eq!(limits.max_coercions, 100);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// Longest accepted input, in bytes (default 8 MiB): longer is `too_large`. Arguments
    /// that arrive already parsed (a `Value`) are measured as their compact JSON.
    pub max_bytes: usize,
    /// Deepest accepted nesting of arrays and objects (default 128): deeper is `too_deep`.
    pub max_depth: usize,
    /// Longest value echoed in an error or coercion record, in characters (default 80).
    pub max_echo_chars: usize,
    /// Longest accepted string value, in bytes of UTF-8 (default 4 MiB): longer is a
    /// `too_long` error at the string's path. Checked before `pattern`, so a huge string
    /// never reaches the regular expression engine. Every string value is held to it,
    /// whether a subschema describes it or not (a member where `additionalProperties` is
    /// absent, the items of an array without `items`, a free-form field's contents).
    pub max_string_bytes: usize,
    /// Most field errors one rejection lists (default 50; at least 1). Past it, errors are
    /// counted, not built ([`Rejection::omitted_errors`](crate::Rejection::omitted_errors)),
    /// and the message ends "… and N more errors": a call with a million wrong values costs
    /// a count, not a million messages.
    pub max_errors: usize,
    /// Most coercion records one report keeps (default 100). Past it, coercions are still
    /// made but counted, not recorded ([`Report::omitted_coercions`](crate::Report::omitted_coercions)):
    /// each record names its path, so a call that coerces a million values under a long key
    /// would otherwise cost a million copies of that key.
    pub max_coercions: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_bytes: parse::DEFAULT_MAX_BYTES,
            max_depth: parse::DEFAULT_MAX_DEPTH,
            max_echo_chars: 80,
            max_string_bytes: 4 * 1024 * 1024,
            max_errors: DEFAULT_MAX_ERRORS,
            max_coercions: DEFAULT_MAX_COERCIONS,
        }
    }
}

impl Limits {
    /// How a call's arguments are parsed under `policy` within these limits: strictly under
    /// [`Policy::Strict`], else leniently, as long and as deep as the limits allow. Every
    /// reader of arguments (the validator, the call records, the streams, the dialects)
    /// parses with these.
    pub(crate) fn parse_options(&self, policy: Policy) -> ParseOptions {
        ParseOptions {
            mode: if policy == Policy::Strict { ParseMode::Strict } else { ParseMode::Lenient },
            max_bytes: self.max_bytes,
            max_depth: self.max_depth,
            ..ParseOptions::default()
        }
    }

    /// The longest accepted input, in bytes ([`Limits::max_bytes`]).
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::{Limits, Validator};
    ///
    /// let schema = json!({"type": "object"});
    /// let validator = Validator::builder(&schema).limits(Limits::default().with_max_bytes(16)).build()?;
    /// assert!(validator.check(r#"{"a": 1}"#).is_ok());
    /// assert_eq!(validator.check(r#"{"a": "a longer text"}"#).unwrap_err().kind().code(), "too_large");
    /// # Ok::<(), tool_input::SchemaError>(())
    /// ```
    pub fn with_max_bytes(mut self, max_bytes: usize) -> Self {
        self.max_bytes = max_bytes;
        self
    }

    /// The deepest accepted nesting of arrays and objects ([`Limits::max_depth`]).
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::{Limits, Validator};
    ///
    /// let schema = json!({"type": "object"});
    /// let validator = Validator::builder(&schema).limits(Limits::default().with_max_depth(3)).build()?;
    /// assert!(validator.check(r#"{"a": [[1]]}"#).is_ok());
    /// assert_eq!(validator.check(r#"{"a": [[[1]]]}"#).unwrap_err().kind().code(), "too_deep");
    /// # Ok::<(), tool_input::SchemaError>(())
    /// ```
    pub fn with_max_depth(mut self, max_depth: usize) -> Self {
        self.max_depth = max_depth;
        self
    }

    /// The longest value echoed in an error or coercion record, in characters
    /// ([`Limits::max_echo_chars`]).
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::{Limits, Validator};
    ///
    /// let schema = json!({"type": "object", "properties": {"n": {"type": "integer"}}});
    /// let validator = Validator::builder(&schema).limits(Limits::default().with_max_echo_chars(10)).build()?;
    /// let rejection = validator.check(r#"{"n": "a rather long piece of text"}"#).unwrap_err();
    /// assert_eq!(rejection.errors()[0].value(), Some(r#""a rather … (29 characters)"#));
    /// # Ok::<(), tool_input::SchemaError>(())
    /// ```
    pub fn with_max_echo_chars(mut self, max_echo_chars: usize) -> Self {
        self.max_echo_chars = max_echo_chars;
        self
    }

    /// The longest accepted string value, in bytes ([`Limits::max_string_bytes`]).
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::{Limits, Validator};
    ///
    /// let schema = json!({"type": "object", "properties": {"a": {"type": "string"}}});
    /// let validator = Validator::builder(&schema).limits(Limits::default().with_max_string_bytes(4)).build()?;
    /// assert!(validator.check(r#"{"a": "abcd"}"#).is_ok());
    /// let rejection = validator.check(r#"{"a": "abcde"}"#).unwrap_err();
    /// assert_eq!(rejection.errors()[0].path(), "/a");
    /// assert_eq!(rejection.errors()[0].message(), "the string is 5 bytes long, more than the limit of 4");
    /// # Ok::<(), tool_input::SchemaError>(())
    /// ```
    pub fn with_max_string_bytes(mut self, max_string_bytes: usize) -> Self {
        self.max_string_bytes = max_string_bytes;
        self
    }

    /// The most field errors one rejection lists ([`Limits::max_errors`]); the rest are
    /// counted ([`Rejection::omitted_errors`](crate::Rejection::omitted_errors)).
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::{Limits, Validator};
    ///
    /// let schema = json!({"type": "object", "additionalProperties": false});
    /// let validator = Validator::builder(&schema).limits(Limits::default().with_max_errors(1)).build()?;
    /// let rejection = validator.check(r#"{"a": 1, "b": 2, "c": 3}"#).unwrap_err();
    /// assert_eq!((rejection.errors().len(), rejection.omitted_errors()), (1, 2));
    /// # Ok::<(), tool_input::SchemaError>(())
    /// ```
    pub fn with_max_errors(mut self, max_errors: usize) -> Self {
        self.max_errors = max_errors;
        self
    }

    /// The most coercion records one report keeps ([`Limits::max_coercions`]); the rest
    /// are counted ([`Report::omitted_coercions`](crate::Report::omitted_coercions)).
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::{Limits, Validator};
    ///
    /// let schema = json!({"type": "object", "additionalProperties": {"type": "integer"}});
    /// let validator = Validator::builder(&schema).limits(Limits::default().with_max_coercions(1)).build()?;
    /// let checked = validator.check(r#"{"a": "1", "b": "2", "c": "3"}"#).unwrap();
    /// assert_eq!(checked.value, json!({"a": 1, "b": 2, "c": 3}));
    /// assert_eq!(checked.report.coercions[0].path, "/a");
    /// assert_eq!((checked.report.coercions.len(), checked.report.omitted_coercions), (1, 2));
    /// # Ok::<(), tool_input::SchemaError>(())
    /// ```
    pub fn with_max_coercions(mut self, max_coercions: usize) -> Self {
        self.max_coercions = max_coercions;
        self
    }
}
