//! How a keyword reads the value it checks, whatever holds it.
//!
//! [`Instance`] is a cursor: a cheap, copyable handle on one JSON value that answers its kind,
//! its scalar, and its members or items, each again as a cursor. A keyword written against
//! it runs unchanged on every holder:
//!
//! - a `serde_json::Value` (`&Value`, implemented here);
//! - the parser's tape (a position in the tape: the next step makes the tape implement this
//!   trait, so a call is checked where it was read, without building a `Value`);
//! - serde's stream as it passes (a holder that has buffered one scalar or key).
//!
//! The contract every holder keeps:
//! - `kind` is the JSON kind as written: `Number` for every number, integral or not;
//! - `members` yields an object's members in the order the text gave them, each key once
//!   (the holder settles repeated keys before a keyword sees them);
//! - `items` yields an array's items in order;
//! - nothing here allocates.
//!
//! Numbers are read as `serde_json` holds them ([`Instance::as_number`]: its three kinds,
//! as the tape keeps them too).

use serde_json::{Number, Value};

/// The JSON kind of a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Null,
    Bool,
    Number,
    String,
    Array,
    Object,
}

/// A read-only cursor on one JSON value (see the module's documentation).
pub(crate) trait Instance<'v>: Copy {
    /// The value's JSON kind.
    fn kind(self) -> Kind;
    /// The string, when the value is one.
    fn as_str(self) -> Option<&'v str>;
    /// The number, when the value is one.
    fn as_number(self) -> Option<&'v Number>;
    /// An array's items, in order (nothing for any other kind).
    fn items(self) -> impl Iterator<Item = Self>;
    /// An object's members, in the order sent (nothing for any other kind).
    fn members(self) -> impl Iterator<Item = (&'v str, Self)>;
    /// One member of an object, by name.
    fn member(self, name: &str) -> Option<Self>;
    /// How many items or members a container holds (0 for a scalar).
    fn len(self) -> usize;
}

impl<'v> Instance<'v> for &'v Value {
    #[inline]
    fn kind(self) -> Kind {
        match self {
            Value::Null => Kind::Null,
            Value::Bool(_) => Kind::Bool,
            Value::Number(_) => Kind::Number,
            Value::String(_) => Kind::String,
            Value::Array(_) => Kind::Array,
            Value::Object(_) => Kind::Object,
        }
    }

    #[inline]
    fn as_str(self) -> Option<&'v str> {
        Value::as_str(self)
    }

    #[inline]
    fn as_number(self) -> Option<&'v Number> {
        Value::as_number(self)
    }

    fn items(self) -> impl Iterator<Item = Self> {
        self.as_array().map(|items| items.iter()).into_iter().flatten()
    }

    fn members(self) -> impl Iterator<Item = (&'v str, Self)> {
        self.as_object().map(|map| map.iter().map(|(key, value)| (key.as_str(), value))).into_iter().flatten()
    }

    fn member(self, name: &str) -> Option<Self> {
        self.as_object()?.get(name)
    }

    fn len(self) -> usize {
        match self {
            Value::Array(items) => items.len(),
            Value::Object(map) => map.len(),
            _ => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_value_reads_as_a_cursor() {
        let value = json!({"b": [1, "x"], "a": null});
        assert_eq!(value.kind(), Kind::Object);
        assert_eq!(Instance::len(&value), 2);
        let names: Vec<&str> = value.members().map(|(name, _)| name).collect();
        assert_eq!(names.len(), 2);
        let list = value.member("b").expect("b");
        assert_eq!(list.kind(), Kind::Array);
        let kinds: Vec<Kind> = list.items().map(Instance::kind).collect();
        assert_eq!(kinds, [Kind::Number, Kind::String]);
        assert_eq!(list.items().nth(1).and_then(Instance::as_str), Some("x"));
        assert!(value.member("c").is_none());
        assert_eq!(json!(3).items().count() + json!(3).members().count(), 0);
    }
}
