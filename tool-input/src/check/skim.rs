//! A value read whole, building nothing: what the one-pass check (`fast`) runs on when the
//! caller wants no typed value, only to know whether a parsed `Value` is exactly valid.
//!
//! Every member and item is asked for with `deserialize_any`, so the checker sees each one
//! (serde's `IgnoredAny` would skip them unseen); strings are lent, never copied.

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

/// The unit of a value read whole.
pub(crate) struct Skim;

impl<'de> Deserialize<'de> for Skim {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Skim, D::Error> {
        deserializer.deserialize_any(SkimVisitor)
    }
}

struct SkimVisitor;

impl<'de> Visitor<'de> for SkimVisitor {
    type Value = Skim;

    fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<Skim, E> {
        Ok(Skim)
    }

    fn visit_i64<E>(self, _: i64) -> Result<Skim, E> {
        Ok(Skim)
    }

    fn visit_u64<E>(self, _: u64) -> Result<Skim, E> {
        Ok(Skim)
    }

    fn visit_i128<E>(self, _: i128) -> Result<Skim, E> {
        Ok(Skim)
    }

    fn visit_u128<E>(self, _: u128) -> Result<Skim, E> {
        Ok(Skim)
    }

    fn visit_f64<E>(self, _: f64) -> Result<Skim, E> {
        Ok(Skim)
    }

    fn visit_str<E>(self, _: &str) -> Result<Skim, E> {
        Ok(Skim)
    }

    fn visit_unit<E>(self) -> Result<Skim, E> {
        Ok(Skim)
    }

    fn visit_none<E>(self) -> Result<Skim, E> {
        Ok(Skim)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Skim, D::Error> {
        Skim::deserialize(deserializer)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Skim, A::Error> {
        while seq.next_element::<Skim>()?.is_some() {}
        Ok(Skim)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Skim, A::Error> {
        while map.next_key::<Skim>()?.is_some() {
            map.next_value::<Skim>()?;
        }
        Ok(Skim)
    }
}
