//! The order a schema's objects wrote their keys in, kept beside the schema's `Value`.
//!
//! A `serde_json::Map` keeps keys sorted unless some crate in the build turns on serde_json's
//! `preserve_order` feature (rig-core does, for the whole build). Messages that list a
//! schema's properties ("allowed: ...", a did-you-mean's candidates) follow the order the
//! schema wrote them in, in every build: this table says what that order was when the `Value`
//! may have lost it. It is read from the schema's text ([`KeyOrder::of_text`]), or given by
//! the derive (the fields of each struct in declaration order).

use std::borrow::Cow;
use std::collections::HashMap;

use crate::key_walk::{self, Gather, PointerStack, Reading, Step};

/// Most objects' key orders one text records: past it, the rest keep the `Value`'s order.
const MAX_RECORDED: usize = 100_000;

/// Key orders by the JSON Pointer of the object that wrote them.
#[derive(Debug, Clone, Default)]
pub(crate) struct KeyOrder {
    by_pointer: HashMap<String, Vec<String>>,
    /// Keys no record places are sorted (bytewise, as a `Map` without `preserve_order` keeps
    /// them), not taken in the map's own order: for a derived type's schema, whose `Value`
    /// keeps schemars' order only in a build with `preserve_order`. Where serde's derive does
    /// not tell the declared order (an internally tagged enum's variant, a map, a flattened
    /// struct), every build then lists the properties alike.
    others_sorted: bool,
}

impl KeyOrder {
    /// The key order of every object of a JSON text, by pointer (a key written twice counts
    /// at its first place). `None` when the text is not JSON (its `Value` reports why), or
    /// nests deeper than serde_json's recursion limit (as its `Value` does).
    pub(crate) fn of_text(text: &str) -> Option<KeyOrder> {
        let mut order = KeyOrder::default();
        key_walk::walk_text(text, &mut Recorder { at: PointerStack::default(), order: &mut order }).ok()?;
        Some(order)
    }

    /// An order that sorts the keys it has no record for (see [`KeyOrder::others_sorted`]).
    pub(crate) fn sorting_others() -> KeyOrder {
        KeyOrder { others_sorted: true, ..KeyOrder::default() }
    }

    /// Record that the object at `pointer` wrote `keys` in this order.
    pub(crate) fn insert(&mut self, pointer: String, keys: Vec<String>) {
        self.by_pointer.entry(pointer).or_insert(keys);
    }

    /// The keys the object at `pointer` wrote, in order, if known.
    pub(crate) fn get(&self, pointer: &str) -> Option<&[String]> {
        self.by_pointer.get(pointer).map(Vec::as_slice)
    }

    /// `map`'s keys in the order recorded for `pointer`; keys not recorded follow, in the
    /// map's own order or sorted (see [`KeyOrder::sorting_others`]).
    pub(crate) fn keys_of<'m>(
        &self,
        pointer: &str,
        map: &'m serde_json::Map<String, serde_json::Value>,
    ) -> Vec<&'m String> {
        let mut keys: Vec<&'m String> = Vec::with_capacity(map.len());
        for name in self.get(pointer).unwrap_or_default() {
            if let Some((key, _)) = map.get_key_value(name) {
                if !keys.contains(&key) {
                    keys.push(key);
                }
            }
        }
        if keys.len() < map.len() {
            let mut others: Vec<&'m String> = map.keys().filter(|key| !keys.contains(key)).collect();
            if self.others_sorted {
                others.sort_unstable();
            }
            keys.append(&mut others);
        }
        keys
    }
}

/// The key order of every object a walk reads, by the object's pointer.
struct Recorder<'o> {
    at: PointerStack,
    order: &'o mut KeyOrder,
}

impl<'de> Gather<'de> for Recorder<'_> {
    type Value = ();
    /// The object's keys so far, in order, each once.
    type Object = Vec<String>;
    type Array = ();

    fn enter(&mut self, step: Step<'_>) -> Reading {
        self.at.enter(step);
        Reading::Walk
    }

    fn leave(&mut self) {
        self.at.leave();
    }

    fn member(&mut self, keys: &mut Vec<String>, key: Cow<'de, str>, (): ()) {
        if !keys.iter().any(|known| *known == key) {
            keys.push(key.into_owned());
        }
    }

    fn object_end(&mut self, keys: Vec<String>) {
        if self.order.by_pointer.len() < MAX_RECORDED {
            self.order.insert(self.at.as_str().to_owned(), keys);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_every_object_in_written_order() {
        let order = KeyOrder::of_text(
            r#"{"properties": {"b": {}, "a": {"properties": {"z/": 1, "y": 2}}}, "x": [{"d": 1, "c": 2}]}"#,
        )
        .unwrap();
        assert_eq!(order.get(""), Some(&["properties".to_owned(), "x".to_owned()][..]));
        assert_eq!(order.get("/properties"), Some(&["b".to_owned(), "a".to_owned()][..]));
        assert_eq!(order.get("/properties/a/properties"), Some(&["z/".to_owned(), "y".to_owned()][..]));
        assert_eq!(order.get("/x/0"), Some(&["d".to_owned(), "c".to_owned()][..]));
        assert!(KeyOrder::of_text("{").is_none());
    }

    #[test]
    fn keys_of_puts_unrecorded_keys_last() {
        let mut order = KeyOrder::default();
        order.insert("/p".to_owned(), vec!["c".to_owned(), "gone".to_owned(), "a".to_owned()]);
        let map: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(r#"{"a": 1, "b": 2, "c": 3}"#).unwrap();
        let keys: Vec<&str> = order.keys_of("/p", &map).into_iter().map(String::as_str).collect();
        assert_eq!(keys, ["c", "a", "b"]);
        let keys: Vec<&str> = order.keys_of("/q", &map).into_iter().map(String::as_str).collect();
        assert_eq!(keys.len(), 3);
    }
}
