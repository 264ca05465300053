//! Other names a top-level property is read under (serde's `#[serde(alias = "...")]`): the
//! one step that maps them to the property's own name, before the check sees the value.
//!
//! The schema the model is shown names each property once, so an alias is never offered; but
//! serde reads one, and so does the check, recording that it did. An alias sent beside the
//! name it stands for is the same property given twice: one record when both carry the same
//! value, a `duplicate_key` error when they differ, as for a key the text repeats.

use serde_json::Value;

use crate::equal::json_equal;
use crate::error::{ErrorCode, FieldError};
use crate::message::echo;
use crate::raw::RawArguments;
use crate::report::{Coercion, CoercionKind};

/// The aliases of a validator's top-level properties, as `(alias, name)` pairs.
#[derive(Debug, Clone, Default)]
pub(crate) struct Aliases {
    pairs: Vec<(String, String)>,
}

/// What mapping the aliases of one arguments object found.
#[derive(Debug, Default)]
pub(crate) struct Mapped {
    pub coercions: Vec<Coercion>,
    pub errors: Vec<FieldError>,
}

impl Aliases {
    pub fn add(&mut self, alias: String, name: String) {
        if alias != name && !self.pairs.iter().any(|(known, _)| *known == alias) {
            self.pairs.push((alias, name));
        }
    }

    /// Could `raw` use an alias? Cheap and conservative: for text, whether an alias occurs
    /// anywhere in it (a `true` only sends the call down the walk, which maps it exactly).
    pub fn may_occur_in(&self, raw: RawArguments<'_>) -> bool {
        if self.pairs.is_empty() {
            return false;
        }
        let text = match raw {
            RawArguments::Text(text) => text.as_bytes(),
            RawArguments::Value(Value::String(text)) => text.as_bytes(),
            RawArguments::Bytes(bytes) => bytes,
            RawArguments::Value(Value::Object(object)) => {
                return self.pairs.iter().any(|(alias, _)| object.contains_key(alias))
            }
            RawArguments::Value(_) | RawArguments::Absent => return false,
        };
        self.pairs.iter().any(|(alias, _)| contains(text, alias.as_bytes()))
    }

    /// Rename each alias key of the top-level object to its property's name. `hidden`: is
    /// this property's value sensitive (never echoed)?
    pub fn map(&self, value: &mut Value, hidden: impl Fn(&str) -> bool, max_echo: usize) -> Mapped {
        let mut mapped = Mapped::default();
        let Value::Object(object) = value else { return mapped };
        for (alias, name) in &self.pairs {
            let Some(sent) = object.remove(alias) else { continue };
            let mut path = String::new();
            crate::pointer::push_token(&mut path, name);
            let hide = hidden(name);
            let show = |value: &Value| (!hide).then(|| echo(value, max_echo));
            mapped.coercions.push(Coercion {
                path: path.clone(),
                kind: CoercionKind::Alias,
                from: Some(echo(&Value::String(alias.clone()), max_echo)),
                to: Some(echo(&Value::String(name.clone()), max_echo)),
            });
            match object.get(name) {
                None => {
                    object.insert(name.clone(), sent);
                }
                Some(own) if json_equal(own, &sent) => mapped.coercions.push(Coercion {
                    path,
                    kind: CoercionKind::DuplicateKey,
                    from: show(&sent),
                    to: None,
                }),
                Some(own) => {
                    let message = match (show(own), show(&sent)) {
                        (Some(first), Some(second)) => format!(
                            "the key `{name}` is given twice, with different values: {first}, then {second} \
                             (as `{alias}`, another name for it); send it once, with the value you mean"
                        ),
                        _ => format!(
                            "the key `{name}` is given twice, with different values (once as `{alias}`, \
                             another name for it); send it once, with the value you mean"
                        ),
                    };
                    mapped.errors.push(FieldError {
                        path,
                        code: ErrorCode::DuplicateKey,
                        message,
                        value: show(&sent),
                        options: if hide { Vec::new() } else { vec![own.clone(), sent] },
                        suggestion: None,
                    });
                }
            }
        }
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

    fn aliases() -> Aliases {
        let mut aliases = Aliases::default();
        aliases.add("nm".into(), "name".into());
        aliases.add("name".into(), "name".into());
        aliases
    }

    #[test]
    fn an_alias_is_renamed_and_recorded() {
        let mut value = json!({"nm": "a", "n": 1});
        let mapped = aliases().map(&mut value, |_| false, 80);
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
        let mapped = aliases().map(&mut same, |_| false, 80);
        assert_eq!(same, json!({"name": "a"}));
        assert_eq!(mapped.coercions[1].kind, CoercionKind::DuplicateKey);

        let mut different = json!({"nm": "a", "name": "b"});
        let mapped = aliases().map(&mut different, |_| false, 80);
        assert_eq!(mapped.errors.len(), 1);
        assert_eq!(mapped.errors[0].code, ErrorCode::DuplicateKey);
        assert!(mapped.errors[0].message.contains(r#""b", then "a""#), "{}", mapped.errors[0].message);

        let mapped = aliases().map(&mut json!({"nm": "a", "name": "b"}), |_| true, 80);
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
