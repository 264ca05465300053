//! serde_json's `arbitrary_precision` feature, read as if it were off.
//!
//! Cargo turns a feature on for the whole build when any crate asks for it, so a user's other
//! dependency can switch this one on under the engine. With it on, `serde_json` hands a number
//! that is not an `i64` or `u64` (`2.5`, `1e3`, `-0`, `18446744073709551616`) to a visitor's
//! `visit_map`, as a map of one key ([`NUMBER_TOKEN`]) whose value is the number's text; read
//! from a `Value`, an integer past 64 bits comes to `visit_u128` or `visit_i128`. Without the
//! feature, every one of these is a `visit_f64`.
//!
//! The engine's readers that build (the tape's writer, the key walk) hand each map to
//! [`visit_map`]: with the feature off it costs one load of a flag; with it on, a number's map
//! becomes the `f64` the visitor would have been given without the feature. The one-pass
//! check, which must not cost a clean call anything, stops at such a map ([`is_number_key`])
//! and leaves the call to the walk, which reads it through the key walk. So every build
//! reads, checks and answers alike.
//!
//! The flag is read at run time, once: a crate cannot name its dependency's features in
//! `cfg`.

use std::borrow::Cow;
use std::sync::LazyLock;

use serde::de::value::{BorrowedStrDeserializer, StringDeserializer};
use serde::de::{DeserializeSeed, Error, MapAccess, Visitor};

use crate::lent_str::LentStr;

/// The key of the map `serde_json` writes a number as, with `arbitrary_precision` on
/// (`serde_json::number::TOKEN`, which is private).
pub(crate) const NUMBER_TOKEN: &str = "$serde_json::private::Number";

/// Whether this build's `serde_json` has `arbitrary_precision` on: only then does it keep a
/// number's text as written (`0.50` stays `0.50`).
pub(crate) fn enabled() -> bool {
    static ENABLED: LazyLock<bool> = LazyLock::new(|| {
        serde_json::from_str::<serde_json::Number>("0.50").is_ok_and(|number| number.to_string() == "0.50")
    });
    *ENABLED
}

/// Whether `key` is the key of a number's map (only where the feature is on), for a reader
/// that leaves such a map to another. Most keys cost a length compare.
#[inline]
pub(crate) fn is_number_key(key: &str) -> bool {
    key.len() == NUMBER_TOKEN.len() && key == NUMBER_TOKEN && enabled()
}

/// A visitor that reads a map's members, from any map (the one `serde_json` handed over, or
/// the members [`visit_map`] read past a first key).
pub(crate) trait ReadMap<'de>: Visitor<'de> + Sized {
    /// What `visit_map` does with a map that is a map.
    fn read_map<M: MapAccess<'de>>(self, map: M) -> Result<Self::Value, M::Error>;
}

/// `visit_map` for `visitor`: a number written as a map (only with `arbitrary_precision` on)
/// goes to its `visit_f64`, as `serde_json` without the feature sends it; anything else to its
/// [`ReadMap::read_map`].
///
/// With the feature off, the map goes to `read_map` as it is: the member reading is compiled as
/// it would be without this check (a map wrapped for nothing cost the untyped one pass 4 % of
/// its instructions in inlining lost).
#[inline]
pub(crate) fn visit_map<'de, V: ReadMap<'de>, A: MapAccess<'de>>(
    visitor: V,
    map: A,
) -> Result<V::Value, A::Error> {
    if enabled() {
        return visit_map_or_number(visitor, map);
    }
    visitor.read_map(map)
}

#[cold]
#[inline(never)]
fn visit_map_or_number<'de, V: ReadMap<'de>, A: MapAccess<'de>>(
    visitor: V,
    mut map: A,
) -> Result<V::Value, A::Error> {
    let first = match map.next_key_seed(LentStr)? {
        None => First::Ended,
        Some(key) if key == NUMBER_TOKEN => {
            let text: Cow<'de, str> = map.next_value_seed(LentStr)?;
            // A number past `f64`'s range is the error `serde_json` gives it without the feature.
            return match text.parse::<f64>() {
                Ok(number) if number.is_finite() => visitor.visit_f64(number),
                _ => Err(A::Error::custom("number out of range")),
            };
        }
        Some(key) => First::Key(key),
    };
    visitor.read_map(Members { first, map })
}

/// The first key, when [`visit_map`] had to read it to see the map was not a number.
enum First<'de> {
    /// Handed over: every other key comes from the map.
    Read,
    /// Read, to be handed to the first `next_key_seed`.
    Key(Cow<'de, str>),
    /// The map had no members.
    Ended,
}

/// A map's members, after [`visit_map`] read the first key.
struct Members<'de, A> {
    first: First<'de>,
    map: A,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Members<'de, A> {
    type Error = A::Error;

    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, A::Error> {
        match std::mem::replace(&mut self.first, First::Read) {
            First::Read => self.map.next_key_seed(seed),
            First::Key(Cow::Borrowed(key)) => seed.deserialize(BorrowedStrDeserializer::new(key)).map(Some),
            First::Key(Cow::Owned(key)) => seed.deserialize(StringDeserializer::new(key)).map(Some),
            First::Ended => {
                self.first = First::Ended;
                Ok(None)
            }
        }
    }

    #[inline]
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        self.map.next_value_seed(seed)
    }

    fn size_hint(&self) -> Option<usize> {
        self.map.size_hint()
    }
}

#[cfg(test)]
pub(crate) fn numbers_as_f64(value: serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match value {
        // As `serde_json` reads an integer without the feature: `-0` is a float.
        Value::Number(number)
            if number.to_string().parse::<u64>().is_err()
                && (number.to_string() == "-0" || number.to_string().parse::<i64>().is_err()) =>
        {
            number.as_f64().and_then(serde_json::Number::from_f64).map_or(Value::Null, Value::Number)
        }
        Value::Array(items) => Value::Array(items.into_iter().map(numbers_as_f64).collect()),
        Value::Object(members) => {
            Value::Object(members.into_iter().map(|(key, value)| (key, numbers_as_f64(value))).collect())
        }
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use std::fmt;

    use serde::de::value::{Error as ValueError, MapDeserializer};

    use super::*;

    /// A visitor that says what `visit_map` made of a map: a number, or its keys.
    struct Seen;

    impl<'de> Visitor<'de> for Seen {
        type Value = Result<f64, Vec<String>>;

        fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
            formatter.write_str("a map")
        }

        fn visit_f64<E>(self, number: f64) -> Result<Self::Value, E> {
            Ok(Ok(number))
        }

        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
            visit_map(self, map)
        }
    }

    impl<'de> ReadMap<'de> for Seen {
        fn read_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Self::Value, M::Error> {
            let mut keys = Vec::new();
            while let Some(key) = map.next_key::<String>()? {
                map.next_value::<serde::de::IgnoredAny>()?;
                keys.push(key);
            }
            Ok(Err(keys))
        }
    }

    fn read<'de, A: MapAccess<'de>>(map: A) -> Result<Result<f64, Vec<String>>, A::Error> {
        Seen.visit_map(map)
    }

    #[test]
    fn a_map_is_read_whole_and_a_number_map_only_where_the_feature_is_on() {
        let pairs = |entries: Vec<(&'static str, &'static str)>| {
            MapDeserializer::<_, ValueError>::new(entries.into_iter())
        };
        assert_eq!(
            read(pairs(vec![("a", "1"), ("b", "2")])).unwrap(),
            Err(vec!["a".to_owned(), "b".to_owned()])
        );
        assert_eq!(read(pairs(vec![])).unwrap(), Err(Vec::new()));
        let number = read(pairs(vec![(NUMBER_TOKEN, "-2.5e+3")]));
        let huge = read(pairs(vec![(NUMBER_TOKEN, "1e400")]));
        if enabled() {
            assert_eq!(number.unwrap(), Ok(-2500.0));
            assert!(huge.is_err());
        } else {
            assert_eq!(number.unwrap(), Err(vec![NUMBER_TOKEN.to_owned()]));
            assert_eq!(huge.unwrap(), Err(vec![NUMBER_TOKEN.to_owned()]));
        }
    }

    #[test]
    fn the_flag_says_whether_serde_json_keeps_a_numbers_text() {
        let value: serde_json::Value = serde_json::from_str("[2.50]").unwrap();
        let spelled = value.to_string();
        assert_eq!(enabled(), spelled == "[2.50]");
        assert_eq!(numbers_as_f64(value).to_string(), "[2.5]");
    }
}
