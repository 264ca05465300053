//! The order a schema's objects wrote their keys in, kept beside the schema's `Value`.
//!
//! A `serde_json::Map` keeps keys sorted unless some crate in the build turns on serde_json's
//! `preserve_order` feature (rig-core does, for the whole build). Messages that list a
//! schema's properties ("allowed: ...", a did-you-mean's candidates) follow the order the
//! schema wrote them in, in every build: this table says what that order was when the `Value`
//! may have lost it. It is read from the schema's text ([`KeyOrder::of_text`]), or given by
//! the derive (the fields of each struct in declaration order).

use std::collections::HashMap;
use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

use crate::pointer::escape_token;

/// Most objects' key orders one text records: past it, the rest keep the `Value`'s order.
const MAX_RECORDED: usize = 100_000;

/// Key orders by the JSON Pointer of the object that wrote them.
#[derive(Debug, Clone, Default)]
pub(crate) struct KeyOrder {
    by_pointer: HashMap<String, Vec<String>>,
}

impl KeyOrder {
    /// The key order of every object of a JSON text, by pointer (a key written twice counts
    /// at its first place). `None` when the text is not JSON (its `Value` reports why), or
    /// nests deeper than serde_json's recursion limit (as its `Value` does).
    pub(crate) fn of_text(text: &str) -> Option<KeyOrder> {
        let mut order = KeyOrder::default();
        let mut deserializer = serde_json::Deserializer::from_str(text);
        let recorder = Recorder { pointer: String::new(), order: &mut order };
        recorder.deserialize(&mut deserializer).ok()?;
        Some(order)
    }

    /// Record that the object at `pointer` wrote `keys` in this order.
    pub(crate) fn insert(&mut self, pointer: String, keys: Vec<String>) {
        self.by_pointer.entry(pointer).or_insert(keys);
    }

    /// The keys the object at `pointer` wrote, in order, if known.
    pub(crate) fn get(&self, pointer: &str) -> Option<&[String]> {
        self.by_pointer.get(pointer).map(Vec::as_slice)
    }

    /// `map`'s keys in the order recorded for `pointer` (keys not recorded follow, in the
    /// map's own order).
    pub(crate) fn keys_of<'m>(
        &self,
        pointer: &str,
        map: &'m serde_json::Map<String, serde_json::Value>,
    ) -> Vec<&'m String> {
        let Some(written) = self.get(pointer) else {
            return map.keys().collect();
        };
        let mut keys: Vec<&'m String> = Vec::with_capacity(map.len());
        for name in written {
            if let Some((key, _)) = map.get_key_value(name) {
                if !keys.contains(&key) {
                    keys.push(key);
                }
            }
        }
        if keys.len() < map.len() {
            for key in map.keys() {
                if !keys.contains(&key) {
                    keys.push(key);
                }
            }
        }
        keys
    }
}

struct Recorder<'o> {
    pointer: String,
    order: &'o mut KeyOrder,
}

impl<'de> DeserializeSeed<'de> for Recorder<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Recorder<'_> {
    type Value = ();

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("a JSON value")
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
        let mut index = 0usize;
        loop {
            let child = Recorder { pointer: format!("{}/{index}", self.pointer), order: &mut *self.order };
            if seq.next_element_seed(child)?.is_none() {
                return Ok(());
            }
            index += 1;
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut keys: Vec<String> = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            let child = Recorder {
                pointer: format!("{}/{}", self.pointer, escape_token(&key)),
                order: &mut *self.order,
            };
            map.next_value_seed(child)?;
            if !keys.contains(&key) {
                keys.push(key);
            }
        }
        if self.order.by_pointer.len() < MAX_RECORDED {
            self.order.insert(self.pointer, keys);
        }
        Ok(())
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
