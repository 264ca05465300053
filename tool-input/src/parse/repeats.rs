//! Strict JSON read into a [`Value`] as `serde_json` reads it (the last value of a repeated
//! key wins), noting whether any object repeated a key: the same single pass, so the tool
//! argument path can tell a key given twice from one given once at no cost.

use std::borrow::Cow;

use serde::de::{DeserializeSeed, Deserializer};
use serde_json::{Map, Value};

use super::strict::{serde_json_first, Strict};
use crate::key_walk::{self, Gather, Scalar};

/// The value of strict JSON `text`, and whether an object in it repeats a key, when
/// `serde_json` reads it first ([`serde_json_first`] decides, under
/// `max_depth`: the text is scanned for a float `serde_json` may misread only when it held a
/// float); `None` when it does not (or the text is not strict JSON).
pub(crate) fn strict_noting_repeats(text: &str, max_depth: usize) -> Option<(Value, bool)> {
    strict_reading(text, max_depth).read()
}

/// [`strict_noting_repeats`], saying why `serde_json` did not read the text: it was not asked,
/// or it refused the text (with its error).
pub(crate) fn strict_reading(text: &str, max_depth: usize) -> Strict<(Value, bool)> {
    serde_json_first(text, max_depth, false, |d| noting_repeats(d))
}

/// Read a value as `serde_json` reads it into a `Value` (the last value of a repeated key
/// wins), noting whether any object repeated a key, and whether a number was read as a float
/// (see [`serde_json_first`]).
pub(crate) fn noting_repeats<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<((Value, bool), bool), D::Error> {
    let mut noting = Noting { repeated: false, floats: false };
    let value = key_walk::walk(&mut noting).deserialize(deserializer)?;
    Ok(((value, noting.repeated), noting.floats))
}

/// A walk that builds the `Value` as `serde_json` builds it, noting a key given twice.
struct Noting {
    repeated: bool,
    /// Was a number read as a float (see `strict::serde_json_first`)?
    floats: bool,
}

impl<'de> Gather<'de> for Noting {
    type Value = Value;
    type Object = Map<String, Value>;
    type Array = Vec<Value>;

    fn scalar(&mut self, scalar: Scalar<'_>) -> Value {
        self.floats |= matches!(scalar, Scalar::F64(_));
        scalar.to_value()
    }

    fn member(&mut self, members: &mut Map<String, Value>, key: Cow<'de, str>, value: Value) {
        if members.insert(key.into_owned(), value).is_some() {
            self.repeated = true;
        }
    }

    fn object_end(&mut self, members: Map<String, Value>) -> Value {
        Value::Object(members)
    }

    fn item(&mut self, items: &mut Vec<Value>, item: Value) {
        items.push(item);
    }

    fn array_end(&mut self, items: Vec<Value>) -> Value {
        Value::Array(items)
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
            let (value, repeated) = strict_noting_repeats(text, 128).unwrap();
            assert_eq!(value, serde_json::from_str::<Value>(text).unwrap());
            assert!(!repeated);
        }
        let (value, repeated) = strict_noting_repeats(r#"{"a": {"b": 1, "b": 2}}"#, 128).unwrap();
        assert_eq!(value, serde_json::json!({"a": {"b": 2}}));
        assert!(repeated);
        assert!(strict_noting_repeats("{'a': 1}", 128).is_none());
        assert!(strict_noting_repeats(&format!("{}{}", "[".repeat(200), "]".repeat(200)), 128).is_none());
    }
}
