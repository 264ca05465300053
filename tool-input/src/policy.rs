//! How much the coercion layer may change the representation of a value.

use std::fmt;
use std::str::FromStr;

/// How far the engine may go to read what the model meant.
///
/// Whatever the policy, the engine never changes the *choice* a model made: an unknown enum
/// value, a fraction for an integer, a number out of range, an unknown field or a missing
/// required field are always rejected.
///
/// | policy | syntax repairs | coercions |
/// |---|---|---|
/// | [`Policy::Strict`] | none: exact JSON only (a key given twice keeps its last value, as JSON parsers read it) | none |
/// | [`Policy::Default`] | all | JSON/Python text for arrays and objects, enum values (and union tags) in another letter case or padded with white space, numeric strings, integral floats, `"true"`/`"false"`, null for an optional field, a key given twice with the same value |
/// | [`Policy::Lenient`] | all | the default ones, plus the lenient list below |
///
/// The lenient coercions, each unambiguous:
/// - a number or boolean where a string is declared becomes its JSON text (`5` → `"5"`);
/// - a single value where an array is declared becomes a one-element array (`"a"` → `["a"]`),
///   when the value fits the item schema;
/// - `"yes"`/`"no"`, `"on"`/`"off"`, `"1"`/`"0"` and the numbers `1`/`0` where a boolean is declared;
/// - an enum or const spelled with other separators (`"in progress"`, `"in-progress"` →
///   `"in_progress"`) when exactly one option matches;
/// - surrounding whitespace around numbers and booleans is ignored (around enum values it is
///   under the default policy too).
///
/// ```
/// use tool_input::Policy;
/// assert_eq!("lenient".parse::<Policy>().unwrap(), Policy::Lenient);
/// assert_eq!(Policy::default(), Policy::Default);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub enum Policy {
    /// Exact JSON only, for data your own system produced.
    Strict,
    /// Repair syntax and coerce representation where it is unambiguous.
    #[default]
    Default,
    /// The default, plus further representation fixes (see the type's documentation).
    Lenient,
}

impl Policy {
    /// The policy's name: `strict`, `default` or `lenient` (what [`FromStr`] reads).
    ///
    /// ```
    /// use tool_input::Policy;
    ///
    /// assert_eq!(Policy::Lenient.as_str(), "lenient");
    /// assert_eq!(Policy::Strict.as_str().parse::<Policy>(), Ok(Policy::Strict));
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Policy::Strict => "strict",
            Policy::Default => "default",
            Policy::Lenient => "lenient",
        }
    }

    pub(crate) fn coerces(self) -> bool {
        self != Policy::Strict
    }

    pub(crate) fn lenient(self) -> bool {
        self == Policy::Lenient
    }
}

impl fmt::Display for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The error of parsing a [`Policy`] from text.
///
/// ```
/// use tool_input::{Policy, UnknownPolicy};
///
/// let error = "loose".parse::<Policy>().unwrap_err();
/// assert_eq!(error, UnknownPolicy("loose".to_owned()));
/// assert_eq!(error.to_string(), "unknown policy `loose`; expected `strict`, `default` or `lenient`");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown policy `{0}`; expected `strict`, `default` or `lenient`")]
pub struct UnknownPolicy(pub String);

impl FromStr for Policy {
    type Err = UnknownPolicy;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "strict" => Ok(Policy::Strict),
            "default" => Ok(Policy::Default),
            "lenient" => Ok(Policy::Lenient),
            other => Err(UnknownPolicy(other.to_owned())),
        }
    }
}
