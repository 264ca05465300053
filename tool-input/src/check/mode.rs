//! The policy and redaction in force at one place of the value, and the one lookup of a
//! top-level property's own options, for both the walk and the one pass.

use std::collections::HashMap;

use crate::policy::Policy;

/// Options of a top-level property (from `#[tool_input(...)]` or the validator builder).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct FieldOverride {
    pub policy: Option<Policy>,
    pub sensitive: bool,
}

/// The policy and redaction in force at one place of the value.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Mode {
    pub policy: Policy,
    pub sensitive: bool,
}

/// The mode under the top-level property `key`: `inherited`, unless the property has its own
/// options (its policy replaces the inherited one; redaction adds to it).
pub(crate) fn field_mode(overrides: &HashMap<String, FieldOverride>, key: &str, inherited: Mode) -> Mode {
    if overrides.is_empty() {
        return inherited;
    }
    match overrides.get(key) {
        None => inherited,
        Some(field) => Mode {
            policy: field.policy.unwrap_or(inherited.policy),
            sensitive: inherited.sensitive || field.sensitive,
        },
    }
}
