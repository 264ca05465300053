//! Keys a response body gives twice. A parsed [`Value`] keeps the last value of a repeated
//! key, so `{"name": "list_files", …, "name": "delete_files"}` would run `delete_files`
//! without a word; the body's text is scanned for repeated keys (one pass that builds
//! nothing), and only when one is found, read again for their values.

use std::collections::HashSet;

use std::borrow::Cow;

use serde_json::Value;

use crate::key_walk::{self, Gather, PointerStack, Reading, Step};

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

/// Does `text` (the JSON of `body`) give a key twice with different values?
pub(crate) fn gives_a_key_twice(text: &str, body: &Value) -> bool {
    !conflicts(text, body).is_empty()
}

/// The keys of `text` (the JSON of `body`) given twice with different values.
pub(crate) fn conflicts(text: &str, body: &Value) -> Vec<BodyConflict> {
    let mut repeated = Vec::new();
    if scan(text, &mut repeated, None).is_err() || repeated.is_empty() {
        return Vec::new();
    }
    let targets: HashSet<String> = repeated.into_iter().collect();
    let mut capture = Capture { targets: &targets, values: Vec::new() };
    if scan(text, &mut Vec::new(), Some(&mut capture)).is_err() {
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
    repeated: &mut Vec<String>,
    capture: Option<&mut Capture<'_>>,
) -> Result<(), serde_json::Error> {
    key_walk::walk_text(text, &mut Scan { at: PointerStack::default(), repeated, capture })
}

/// A walk over a body, noting repeated keys (or, with `capture`, taking the wanted values).
struct Scan<'w, 'c> {
    at: PointerStack,
    repeated: &'w mut Vec<String>,
    capture: Option<&'w mut Capture<'c>>,
}

impl<'de> Gather<'de> for Scan<'_, '_> {
    type Value = ();
    /// The keys the object gave so far.
    type Object = Keys<'de>;
    type Array = ();

    fn enter(&mut self, step: Step<'_>) -> Reading {
        self.at.enter(step);
        match &self.capture {
            Some(capture) if capture.targets.contains(self.at.as_str()) => Reading::Take,
            _ => Reading::Walk,
        }
    }

    fn leave(&mut self) {
        self.at.leave();
    }

    fn whole(&mut self, taken: Option<Value>) {
        if let (Some(capture), Some(value)) = (self.capture.as_deref_mut(), taken) {
            capture.values.push((self.at.as_str().to_owned(), value));
        }
    }

    fn member(&mut self, keys: &mut Keys<'de>, key: Cow<'de, str>, (): ()) {
        if self.capture.is_some() {
            return;
        }
        if let Some(key) = keys.insert(key) {
            self.repeated.push(format!("{}/{}", self.at.as_str(), crate::pointer::escape_token(&key)));
        }
    }
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

    /// Add `key`; `Some(key)` back when the object gave it before.
    fn insert(&mut self, key: Cow<'de, str>) -> Option<Cow<'de, str>> {
        if self.set.is_empty() {
            if self.list.contains(&key) {
                return Some(key);
            }
            if self.list.len() < Self::LIST {
                self.list.push(key);
                return None;
            }
            self.set.extend(self.list.drain(..));
        }
        if self.set.contains(&key) {
            return Some(key);
        }
        self.set.insert(key);
        None
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
    }
}
