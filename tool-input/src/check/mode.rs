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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_field_replaces_the_policy_and_adds_redaction() {
        let mut overrides = HashMap::new();
        overrides.insert("secret".to_owned(), FieldOverride { policy: None, sensitive: true });
        overrides
            .insert("loose".to_owned(), FieldOverride { policy: Some(Policy::Lenient), sensitive: false });
        let call = Mode { policy: Policy::Strict, sensitive: false };
        let secret = field_mode(&overrides, "secret", call);
        assert_eq!((secret.policy, secret.sensitive), (Policy::Strict, true));
        let loose = field_mode(&overrides, "loose", Mode { sensitive: true, ..call });
        assert_eq!((loose.policy, loose.sensitive), (Policy::Lenient, true));
        let other = field_mode(&overrides, "other", call);
        assert_eq!((other.policy, other.sensitive), (Policy::Strict, false));
        let none = field_mode(&HashMap::new(), "secret", call);
        assert_eq!((none.policy, none.sensitive), (Policy::Strict, false));
    }
}
