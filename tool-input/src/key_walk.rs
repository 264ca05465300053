//! One walk over the values of a JSON text as `serde_json` reads it, for what the text says
//! beyond the `Value` it parses to: the order each object wrote its keys in, the keys an
//! object gave twice, where a member is in the text. A parsed `Value` keeps none of that (its
//! objects may be sorted, and a repeated key keeps its last value), so each of these readings
//! walks the text itself. The walk (the serde visitor) is written once, here; a [`Gather`]
//! says what it gathers at each value, and whether a value is walked into, skipped, or taken
//! whole.

use std::borrow::Cow;
use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::Value;

use crate::arbitrary_precision::{self, ReadMap};
use crate::lent_str::LentStr;

/// The step from a value to one it holds.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Step<'k> {
    /// The value of the member `key` (as the text spells it once unescaped).
    Member(&'k str),
    /// Item `index` of an array.
    Item(usize),
}

/// How the walk reads a value it enters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reading {
    /// Walk into it: its scalars, members and items are gathered.
    Walk,
    /// Skip it whole, building nothing ([`Gather::whole`] with `None`).
    Skip,
    /// Read it whole into a `Value` ([`Gather::whole`] with `Some`).
    Take,
}

/// A value that holds no other.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Scalar<'s> {
    Null,
    Bool(bool),
    I64(i64),
    U64(u64),
    F64(f64),
    Str(&'s str),
}

impl Scalar<'_> {
    /// The scalar as a `Value` (a float JSON cannot hold, which serde_json never reads, as
    /// `null`).
    pub(crate) fn to_value(self) -> Value {
        match self {
            Scalar::Null => Value::Null,
            Scalar::Bool(v) => Value::Bool(v),
            Scalar::I64(v) => Value::Number(v.into()),
            Scalar::U64(v) => Value::Number(v.into()),
            Scalar::F64(v) => serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number),
            Scalar::Str(v) => Value::String(v.to_owned()),
        }
    }
}

/// What a walk gathers. The walk tells it each value it enters and leaves (a stack: every
/// [`enter`](Gather::enter) is followed by one [`leave`](Gather::leave), once that value is
/// read), and hands it what it reads. A gatherer that builds no value uses `()` for its types
/// and leaves the building methods to their defaults.
pub(crate) trait Gather<'de> {
    /// What a value reads as.
    type Value: Default;
    /// What an object gathers while its members are read.
    type Object: Default;
    /// What an array gathers while its items are read.
    type Array: Default;

    /// The walk enters the value `step` leads to from the value it is in (never called for
    /// the top-level value): how to read it.
    fn enter(&mut self, step: Step<'_>) -> Reading {
        let _ = step;
        Reading::Walk
    }

    /// The walk has read the value it last entered.
    fn leave(&mut self) {}

    /// A value skipped (`None`) or taken whole (`Some`), as [`enter`](Gather::enter) asked.
    fn whole(&mut self, taken: Option<Value>) -> Self::Value {
        let _ = taken;
        Self::Value::default()
    }

    /// A scalar.
    fn scalar(&mut self, scalar: Scalar<'_>) -> Self::Value {
        let _ = scalar;
        Self::Value::default()
    }

    /// An object starts.
    fn object(&mut self) -> Self::Object {
        Self::Object::default()
    }

    /// A member of `object` has been read: its key, borrowed from the text when it has no
    /// escapes, and its value.
    fn member(&mut self, object: &mut Self::Object, key: Cow<'de, str>, value: Self::Value) {
        let _ = (object, key, value);
    }

    /// The object's members have all been read.
    fn object_end(&mut self, object: Self::Object) -> Self::Value {
        let _ = object;
        Self::Value::default()
    }

    /// An array starts.
    fn array(&mut self) -> Self::Array {
        Self::Array::default()
    }

    /// An item of `array` has been read.
    fn item(&mut self, array: &mut Self::Array, value: Self::Value) {
        let _ = (array, value);
    }

    /// The array's items have all been read.
    fn array_end(&mut self, array: Self::Array) -> Self::Value {
        let _ = array;
        Self::Value::default()
    }
}

/// The seed of a walk over a whole value, gathering into `gather`.
pub(crate) fn walk<'g, 'de, G: Gather<'de>>(
    gather: &'g mut G,
) -> impl DeserializeSeed<'de, Value = G::Value> + 'g {
    Values { gather }
}

/// A walk over the first value of `text`, gathering into `gather` (what follows the value is
/// not read); `Err` when the text does not start with JSON that `serde_json` reads.
pub(crate) fn walk_text<'de, G: Gather<'de>>(
    text: &'de str,
    gather: &mut G,
) -> Result<G::Value, serde_json::Error> {
    walk(gather).deserialize(&mut serde_json::Deserializer::from_str(text))
}

/// A value the walk reads as [`Reading::Walk`] says: its visitor, and the seed of the
/// top-level value.
struct Values<'g, G> {
    gather: &'g mut G,
}

/// A value the walk enters by `step`.
struct Child<'g, 'k, G> {
    gather: &'g mut G,
    step: Step<'k>,
}

impl<'de, G: Gather<'de>> DeserializeSeed<'de> for Values<'_, G> {
    type Value = G::Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<G::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de, G: Gather<'de>> DeserializeSeed<'de> for Child<'_, '_, G> {
    type Value = G::Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<G::Value, D::Error> {
        let Child { gather, step } = self;
        // Called only for a member or item that is there.
        let value = match gather.enter(step) {
            Reading::Walk => deserializer.deserialize_any(Values { gather: &mut *gather })?,
            Reading::Skip => {
                IgnoredAny::deserialize(deserializer)?;
                gather.whole(None)
            }
            Reading::Take => {
                let taken = Value::deserialize(deserializer)?;
                gather.whole(Some(taken))
            }
        };
        gather.leave();
        Ok(value)
    }
}

impl<'de, G: Gather<'de>> Visitor<'de> for Values<'_, G> {
    type Value = G::Value;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<G::Value, E> {
        Ok(self.gather.scalar(Scalar::Bool(v)))
    }

    fn visit_i64<E>(self, v: i64) -> Result<G::Value, E> {
        Ok(self.gather.scalar(Scalar::I64(v)))
    }

    fn visit_u64<E>(self, v: u64) -> Result<G::Value, E> {
        Ok(self.gather.scalar(Scalar::U64(v)))
    }

    fn visit_f64<E>(self, v: f64) -> Result<G::Value, E> {
        Ok(self.gather.scalar(Scalar::F64(v)))
    }

    fn visit_str<E>(self, v: &str) -> Result<G::Value, E> {
        Ok(self.gather.scalar(Scalar::Str(v)))
    }

    fn visit_unit<E>(self) -> Result<G::Value, E> {
        Ok(self.gather.scalar(Scalar::Null))
    }

    fn visit_none<E>(self) -> Result<G::Value, E> {
        Ok(self.gather.scalar(Scalar::Null))
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<G::Value, D::Error> {
        deserializer.deserialize_any(self)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<G::Value, A::Error> {
        let gather = self.gather;
        let mut array = gather.array();
        let mut index = 0usize;
        while let Some(item) =
            seq.next_element_seed(Child { gather: &mut *gather, step: Step::Item(index) })?
        {
            gather.item(&mut array, item);
            index += 1;
        }
        Ok(gather.array_end(array))
    }

    fn visit_u128<E: serde::de::Error>(self, v: u128) -> Result<G::Value, E> {
        // Only from a `Value` with `arbitrary_precision` on: a float without it.
        self.visit_f64(v as f64)
    }

    fn visit_i128<E: serde::de::Error>(self, v: i128) -> Result<G::Value, E> {
        self.visit_f64(v as f64)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<G::Value, A::Error> {
        arbitrary_precision::visit_map(self, map)
    }
}

impl<'de, G: Gather<'de>> ReadMap<'de> for Values<'_, G> {
    fn read_map<M: MapAccess<'de>>(self, mut map: M) -> Result<G::Value, M::Error> {
        let gather = self.gather;
        let mut object = gather.object();
        while let Some(key) = map.next_key_seed(LentStr)? {
            let value = map.next_value_seed(Child { gather: &mut *gather, step: Step::Member(&key) })?;
            gather.member(&mut object, key, value);
        }
        Ok(gather.object_end(object))
    }
}

/// A walk's place as a JSON Pointer, for the gatherers that need it: one buffer, a step
/// pushed on entering a value and taken off on leaving it (no string written per value).
#[derive(Debug, Default)]
pub(crate) struct PointerStack {
    pointer: String,
    /// Where each entered value's step starts in `pointer`.
    starts: Vec<usize>,
}

impl PointerStack {
    /// Enter the value `step` leads to.
    pub(crate) fn enter(&mut self, step: Step<'_>) {
        self.starts.push(self.pointer.len());
        self.pointer.push('/');
        match step {
            Step::Member(key) => self.pointer.push_str(&crate::pointer::escape_token(key)),
            Step::Item(index) => crate::check::path::push_decimal(&mut self.pointer, index),
        }
    }

    /// Leave the value last entered.
    pub(crate) fn leave(&mut self) {
        if let Some(start) = self.starts.pop() {
            self.pointer.truncate(start);
        }
    }

    /// The pointer of the value the walk is in.
    pub(crate) fn as_str(&self) -> &str {
        &self.pointer
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every value's pointer in the order it is entered, and every member's key as read.
    #[derive(Default)]
    struct Trace {
        at: PointerStack,
        seen: Vec<String>,
    }

    impl<'de> Gather<'de> for Trace {
        type Value = ();
        type Object = ();
        type Array = ();

        fn enter(&mut self, step: Step<'_>) -> Reading {
            self.at.enter(step);
            self.seen.push(self.at.as_str().to_owned());
            if self.at.as_str() == "/skip" {
                Reading::Skip
            } else {
                Reading::Walk
            }
        }

        fn leave(&mut self) {
            self.at.leave();
        }

        fn member(&mut self, _: &mut (), key: Cow<'de, str>, _: ()) {
            let how = if matches!(key, Cow::Borrowed(_)) { "borrowed" } else { "owned" };
            self.seen.push(format!("{key} {how}"));
        }
    }

    #[test]
    fn walks_every_value_once_in_text_order() {
        let mut trace = Trace::default();
        let text = r#"{"a/b": [1, {"~": null}], "skip": {"x": 1}, "\u0063": true} trailing"#;
        walk_text(text, &mut trace).unwrap();
        assert_eq!(
            trace.seen,
            [
                "/a~1b",
                "/a~1b/0",
                "/a~1b/1",
                "/a~1b/1/~0",
                "~ borrowed",
                "a/b borrowed",
                "/skip",
                "skip borrowed",
                "/c",
                "c owned"
            ]
        );
        assert!(walk_text("{", &mut Trace::default()).is_err());
    }
}
