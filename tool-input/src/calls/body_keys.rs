//! Keys a response body gives twice. A parsed [`Value`] keeps the last value of a repeated
//! key, so `{"name": "list_files", …, "name": "delete_files"}` would run `delete_files`
//! without a word; the body's text is scanned for repeated keys (one pass that builds
//! nothing), and only when one is found, read again for their values.

use std::collections::HashSet;

use std::borrow::Cow;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::Value;

/// A key given twice with different values, in the object that holds it (as parsed, with the
/// last value).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct BodyConflict {
    pub key: String,
    pub first: Value,
    pub second: Value,
    /// The object the key is in, as the parsed body has it.
    pub container: Value,
}

/// The keys of `text` (the JSON of `body`) given twice with different values.
pub(crate) fn conflicts(text: &str, body: &Value) -> Vec<BodyConflict> {
    let mut repeated = Vec::new();
    let mut path = String::new();
    if scan(text, &mut path, &mut repeated, None).is_err() || repeated.is_empty() {
        return Vec::new();
    }
    let targets: HashSet<String> = repeated.into_iter().collect();
    let mut capture = Capture { targets: &targets, values: Vec::new() };
    if scan(text, &mut path, &mut Vec::new(), Some(&mut capture)).is_err() {
        return Vec::new();
    }
    let captured = capture.values;
    let mut out = Vec::new();
    let mut done: HashSet<&str> = HashSet::new();
    for (at, (target, first)) in captured.iter().enumerate() {
        if !done.insert(target.as_str()) {
            continue;
        }
        let differing = captured[at + 1..].iter().find(|(other, value)| other == target && value != first);
        if let Some((_, second)) = differing {
            let (parent, key) = target.rsplit_once('/').unwrap_or(("", target));
            let Some(container) = body.pointer(parent) else { continue };
            out.push(BodyConflict {
                key: key.replace("~1", "/").replace("~0", "~"),
                first: first.clone(),
                second: second.clone(),
                container: container.clone(),
            });
        }
    }
    out
}

/// What a second pass captures: the paths wanted, and each value found at one, in order.
struct Capture<'c> {
    targets: &'c HashSet<String>,
    values: Vec<(String, Value)>,
}

/// Walk `text`: the pointer of every member whose key its object gave before goes to
/// `repeated`; with `capture`, the value at each wanted pointer is kept.
fn scan(
    text: &str,
    path: &mut String,
    repeated: &mut Vec<String>,
    capture: Option<&mut Capture<'_>>,
) -> Result<(), serde_json::Error> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    Walk { path, repeated, capture }.deserialize(&mut deserializer)
}

struct Walk<'w, 'c> {
    path: &'w mut String,
    repeated: &'w mut Vec<String>,
    capture: Option<&'w mut Capture<'c>>,
}

impl<'de> DeserializeSeed<'de> for Walk<'_, '_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        if let Some(capture) = self.capture {
            if capture.targets.contains(self.path.as_str()) {
                let value = Value::deserialize(deserializer)?;
                capture.values.push((self.path.clone(), value));
                return Ok(());
            }
            return deserializer.deserialize_any(Walk { capture: Some(capture), ..self });
        }
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Walk<'_, '_> {
    type Value = ();

    fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("JSON")
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let Walk { path, repeated, mut capture } = self;
        let base = path.len();
        let mut index = 0usize;
        loop {
            path.truncate(base);
            push_index(path, index);
            let seed = Walk { path, repeated, capture: capture.as_deref_mut() };
            if seq.next_element_seed(seed)?.is_none() {
                break;
            }
            index += 1;
        }
        path.truncate(base);
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let Walk { path, repeated, mut capture } = self;
        let base = path.len();
        let mut keys = Keys::default();
        while let Some(key) = map.next_key_seed(Key)? {
            path.truncate(base);
            path.push('/');
            if key.contains(['~', '/']) {
                path.push_str(&key.replace('~', "~0").replace('/', "~1"));
            } else {
                path.push_str(&key);
            }
            if !keys.insert(key) && capture.is_none() {
                repeated.push(path.clone());
            }
            let seed = Walk { path, repeated, capture: capture.as_deref_mut() };
            map.next_value_seed(seed)?;
        }
        path.truncate(base);
        Ok(())
    }
}

/// `/index` at the end of a pointer, without a `String` per index.
fn push_index(path: &mut String, index: usize) {
    path.push('/');
    crate::check::path::push_decimal(path, index);
}

/// The keys an object gave so far: a list while short (most objects of a body have a few
/// keys, where hashing costs more than comparing), a set past [`Keys::LIST`].
#[derive(Default)]
struct Keys<'de> {
    list: Vec<Cow<'de, str>>,
    set: HashSet<Cow<'de, str>>,
}

impl<'de> Keys<'de> {
    const LIST: usize = 16;

    /// Add `key`; `false` when the object gave it before.
    fn insert(&mut self, key: Cow<'de, str>) -> bool {
        if self.set.is_empty() {
            if self.list.contains(&key) {
                return false;
            }
            if self.list.len() < Self::LIST {
                self.list.push(key);
                return true;
            }
            self.set.extend(self.list.drain(..));
        }
        self.set.insert(key)
    }
}

/// A key, borrowed from the text when it has no escapes.
struct Key;

impl<'de> DeserializeSeed<'de> for Key {
    type Value = Cow<'de, str>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Cow<'de, str>, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Key {
    type Value = Cow<'de, str>;

    fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("a key")
    }
    fn visit_borrowed_str<E>(self, key: &'de str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Borrowed(key))
    }
    fn visit_str<E>(self, key: &str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(key.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn repeated_keys_with_other_values_are_found() {
        let text = r#"{"a": {"name": "x", "n": 1, "name": "y"}, "b": [{"k": 1, "k": 1}]}"#;
        let body: Value = serde_json::from_str(text).unwrap();
        let found = conflicts(text, &body);
        assert_eq!(found.len(), 1);
        assert_eq!(
            (found[0].key.as_str(), &found[0].first, &found[0].second),
            ("name", &json!("x"), &json!("y"))
        );
        assert_eq!(found[0].container, json!({"name": "y", "n": 1}));
        assert!(conflicts(r#"{"a": 1}"#, &json!({"a": 1})).is_empty());
    }

    #[test]
    fn repeats_are_found_in_long_objects_deep_in_arrays() {
        // Past the short list of keys, the set; in the twelfth item of an array; under a key
        // that needs escaping in a pointer.
        let members: Vec<String> = (0..40).map(|i| format!(r#""k{i}": {i}"#)).collect();
        let item = format!(r#"{{{}, "k33": "again"}}"#, members.join(", "));
        let items = ["{}"; 11].join(", ");
        let text = format!(r#"{{"a/b~": [{items}, {item}]}}"#);
        let body: Value = serde_json::from_str(&text).unwrap();
        let found = conflicts(&text, &body);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(
            (found[0].key.as_str(), &found[0].first, &found[0].second),
            ("k33", &json!(33), &json!("again"))
        );
        let mut path = String::new();
        for index in [0, 7, 10, 12345] {
            push_index(&mut path, index);
        }
        assert_eq!(path, "/0/7/10/12345");
    }
}
