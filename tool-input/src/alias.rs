//! Other names a top-level property is read under (serde's `#[serde(alias = "...")]`): the
//! one step that maps them to the property's own name, before the check sees the value.
//!
//! The schema the model is shown names each property once, so an alias is never offered; but
//! serde reads one, and so does the check, recording that it did. An alias sent beside the
//! name it stands for is the same property given twice: one record when both carry the same
//! value, a `duplicate_key` error when they differ, as for a key the text repeats.

use serde_json::Value;

use crate::raw::RawArguments;
pub(crate) use crate::serde_facts::Mapped;
use crate::serde_facts::{rename_key, SerdeFacts};

/// The aliases of a validator's top-level properties, as `(alias, name)` pairs.
#[derive(Debug, Clone, Default)]
pub(crate) struct Aliases {
    pairs: Vec<(String, String)>,
    /// What serde reads inside: nested structs' aliases, variants' aliases, catch-alls.
    nested: SerdeFacts,
}

impl Aliases {
    pub fn add(&mut self, alias: String, name: String) {
        if alias != name && !self.pairs.iter().any(|(known, _)| *known == alias) {
            self.pairs.push((alias, name));
        }
    }

    /// What serde reads inside the arguments (see [`SerdeFacts`]).
    pub fn add_nested(&mut self, facts: SerdeFacts) {
        self.nested = facts;
    }

    /// The nested types' facts.
    pub fn nested(&self) -> &SerdeFacts {
        &self.nested
    }

    /// Could `raw` use an alias or a catch-all? Cheap and conservative: for text, whether an
    /// alias occurs anywhere in it; with a catch-all, always (a `true` only sends the call
    /// down the walk, which maps it exactly).
    pub fn may_occur_in(&self, raw: RawArguments<'_>) -> bool {
        if self.nested.has_catch_all() {
            return !matches!(raw, RawArguments::Absent);
        }
        if self.pairs.is_empty() && self.nested.is_empty() {
            return false;
        }
        let text = match raw {
            RawArguments::Text(text) => text.as_bytes(),
            RawArguments::Value(Value::String(text)) => text.as_bytes(),
            RawArguments::Bytes(bytes) => bytes,
            RawArguments::Value(Value::Object(object)) if self.nested.is_empty() => {
                return self.pairs.iter().any(|(alias, _)| object.contains_key(alias))
            }
            RawArguments::Value(Value::Object(_)) => return true,
            RawArguments::Value(_) | RawArguments::Absent => return false,
        };
        self.pairs
            .iter()
            .map(|(alias, _)| alias.as_str())
            .chain(self.nested.aliases())
            .any(|alias| contains(text, alias.as_bytes()))
    }

    /// Rename each alias key of the top-level object to its property's name, then read the
    /// nested types' aliases and catch-alls. `hidden`: is this property's value sensitive
    /// (never echoed)? `coerces`: may it be coerced (see [`SerdeFacts::map`])?
    pub fn map(
        &self,
        value: &mut Value,
        hidden: impl Fn(&str) -> bool,
        coerces: impl Fn(&str) -> bool,
        max_echo: usize,
    ) -> Mapped {
        let mut mapped = Mapped::default();
        if let Value::Object(object) = value {
            for (alias, name) in &self.pairs {
                rename_key(object, "", alias, name, hidden(name), max_echo, &mut mapped);
            }
        }
        self.nested.map(value, &hidden, &coerces, max_echo, &mut mapped);
        mapped
    }
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    !needle.is_empty() && haystack.windows(needle.len()).any(|window| window == needle)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::error::ErrorCode;
    use crate::report::CoercionKind;

    fn aliases() -> Aliases {
        let mut aliases = Aliases::default();
        aliases.add("nm".into(), "name".into());
        aliases.add("name".into(), "name".into());
        aliases
    }

    #[test]
    fn an_alias_is_renamed_and_recorded() {
        let mut value = json!({"nm": "a", "n": 1});
        let mapped = aliases().map(&mut value, |_| false, |_| true, 80);
        assert_eq!(value, json!({"name": "a", "n": 1}));
        assert!(mapped.errors.is_empty());
        assert_eq!(mapped.coercions.len(), 1);
        assert_eq!(mapped.coercions[0].kind, CoercionKind::Alias);
        assert_eq!(mapped.coercions[0].path, "/name");
        assert_eq!(mapped.coercions[0].from.as_deref(), Some("\"nm\""));
    }

    #[test]
    fn alias_and_name_with_one_value_is_a_record_with_two_an_error() {
        let mut same = json!({"nm": "a", "name": "a"});
        let mapped = aliases().map(&mut same, |_| false, |_| true, 80);
        assert_eq!(same, json!({"name": "a"}));
        assert_eq!(mapped.coercions[1].kind, CoercionKind::DuplicateKey);

        let mut different = json!({"nm": "a", "name": "b"});
        let mapped = aliases().map(&mut different, |_| false, |_| true, 80);
        assert_eq!(mapped.errors.len(), 1);
        assert_eq!(mapped.errors[0].code, ErrorCode::DuplicateKey);
        assert!(mapped.errors[0].message.contains(r#""b", then "a""#), "{}", mapped.errors[0].message);

        let mapped = aliases().map(&mut json!({"nm": "a", "name": "b"}), |_| true, |_| true, 80);
        assert!(!mapped.errors[0].message.contains("\"a\""));
        assert!(mapped.errors[0].options.is_empty());
    }

    #[test]
    fn only_text_that_holds_an_alias_may_use_one() {
        assert!(aliases().may_occur_in(RawArguments::Text("{'nm': 1}")));
        assert!(!aliases().may_occur_in(RawArguments::Text("{\"name\": 1}")));
        assert!(!Aliases::default().may_occur_in(RawArguments::Text("nm")));
        assert!(aliases().may_occur_in(RawArguments::Value(&json!({"nm": 1}))));
    }
}
