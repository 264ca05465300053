//! Why arguments were refused, as a whole: a leaf, so that the parser can name the kind its
//! errors lead to (`ParseError::kind`) without depending on the rejections built above it.

use std::fmt;

use serde::Serialize;

/// Why a call's arguments were refused, as a whole.
///
/// ```
/// use tool_input::{Policy, RejectionKind, Validator};
/// use serde_json::json;
///
/// let validator = Validator::new(&json!({"type": "object"}))?;
/// assert_eq!(validator.check("{'a': 1").unwrap_err().kind(), RejectionKind::Truncated);
/// let strict = Validator::builder(&json!({"type": "object"})).policy(Policy::Strict).build()?;
/// assert_eq!(strict.check("{'a': 1}").unwrap_err().kind(), RejectionKind::Parse);
/// # Ok::<(), tool_input::SchemaError>(())
/// ```
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
    ///
    /// ```
    /// use tool_input::RejectionKind;
    ///
    /// assert_eq!(RejectionKind::NotObject.code(), "not_object");
    /// assert_eq!(RejectionKind::Invalid.code(), "invalid");
    /// ```
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
