//! Strict JSON read into a [`Value`] as `serde_json` reads it (the last value of a repeated
//! key wins), noting whether any object repeated a key: the same single pass, so the tool
//! argument path can tell a key given twice from one given once at no cost.

use std::cell::Cell;
use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

/// The value of strict JSON `text`, and whether an object in it repeats a key; `None` when the
/// text is not strict JSON (or nests deeper than `serde_json`'s 128 levels).
pub(crate) fn strict_noting_repeats(text: &str) -> Option<(Value, bool)> {
    if crate::decimal::serde_json_may_misread(text.as_bytes()) {
        // Read by the lexer, correctly rounded.
        return None;
    }
    let repeated = Cell::new(false);
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let value = Noting { repeated: &repeated }.deserialize(&mut deserializer).ok()?;
    deserializer.end().ok()?;
    Some((value, repeated.get()))
}

#[derive(Clone, Copy)]
struct Noting<'a> {
    repeated: &'a Cell<bool>,
}

impl<'de> DeserializeSeed<'de> for Noting<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Noting<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        self.deserialize(deserializer)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(item) = seq.next_element_seed(self)? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut members = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let value = map.next_value_seed(self)?;
            if members.insert(key, value).is_some() {
                self.repeated.set(true);
            }
        }
        Ok(Value::Object(members))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_as_serde_json_and_notes_repeats() {
        for text in
            [r#"{"a": 1, "b": [1.5, -2, 18446744073709551615, "x", null, true], "c": {"d": {}}}"#, "[]", "3"]
        {
            let (value, repeated) = strict_noting_repeats(text).unwrap();
            assert_eq!(value, serde_json::from_str::<Value>(text).unwrap());
            assert!(!repeated);
        }
        let (value, repeated) = strict_noting_repeats(r#"{"a": {"b": 1, "b": 2}}"#).unwrap();
        assert_eq!(value, serde_json::json!({"a": {"b": 2}}));
        assert!(repeated);
        assert!(strict_noting_repeats("{'a': 1}").is_none());
        assert!(strict_noting_repeats(&format!("{}{}", "[".repeat(200), "]".repeat(200))).is_none());
    }
}
