//! A deserializer over text of a shorter life than the one being read, for a type reading
//! the longer: the one pass reads an array or object sent as a JSON string straight from the
//! string's content (`Fast::coerce_str`), a text that lives only while the value is read,
//! into a type that reads the call's text.
//!
//! [`Lifted`] hands every value over as a deserializer of the longer life would, except
//! that nothing is lent: a string or bytes the content would lend is handed over as
//! borrowed for the call only (`visit_str`, `visit_bytes`), as from any deserializer that
//! cannot lend it. The visitor calls are otherwise the inner deserializer's, one for one.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor,
};

/// A deserializer of life `'a`, read as one of any life.
pub(super) struct Lifted<'a, D> {
    de: D,
    life: PhantomData<&'a ()>,
}

impl<'a, D: Deserializer<'a>> Lifted<'a, D> {
    pub(super) fn new(de: D) -> Self {
        Lifted { de, life: PhantomData }
    }
}

/// A visitor of life `'de`, visiting values of life `'a`.
struct Visit<'de, V> {
    inner: V,
    life: PhantomData<&'de ()>,
}

fn visit<'de, V: Visitor<'de>>(inner: V) -> Visit<'de, V> {
    Visit { inner, life: PhantomData }
}

/// A seed of life `'de`, read from a deserializer of life `'a`.
struct Seed<'de, S> {
    inner: S,
    life: PhantomData<&'de ()>,
}

fn seed<'de, S: DeserializeSeed<'de>>(inner: S) -> Seed<'de, S> {
    Seed { inner, life: PhantomData }
}

/// The items, members or variant an inner access of life `'a` reads.
struct Access<'a, A> {
    inner: A,
    life: PhantomData<&'a ()>,
}

fn access<'a, A>(inner: A) -> Access<'a, A> {
    Access { inner, life: PhantomData }
}

macro_rules! lift_deserialize {
    ($($method:ident($($arg:ident: $ty:ty),*))*) => {
        $(
            fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value, D::Error> {
                self.de.$method($($arg,)* visit(visitor))
            }
        )*
    };
}

impl<'a, 'de, D: Deserializer<'a>> Deserializer<'de> for Lifted<'a, D> {
    type Error = D::Error;

    lift_deserialize! {
        deserialize_any() deserialize_bool() deserialize_i8() deserialize_i16() deserialize_i32()
        deserialize_i64() deserialize_i128() deserialize_u8() deserialize_u16() deserialize_u32()
        deserialize_u64() deserialize_u128() deserialize_f32() deserialize_f64() deserialize_char()
        deserialize_str() deserialize_string() deserialize_bytes() deserialize_byte_buf()
        deserialize_option() deserialize_unit() deserialize_unit_struct(name: &'static str)
        deserialize_newtype_struct(name: &'static str) deserialize_seq() deserialize_tuple(len: usize)
        deserialize_tuple_struct(name: &'static str, len: usize) deserialize_map()
        deserialize_struct(name: &'static str, fields: &'static [&'static str])
        deserialize_enum(name: &'static str, variants: &'static [&'static str])
        deserialize_identifier() deserialize_ignored_any()
    }

    fn is_human_readable(&self) -> bool {
        self.de.is_human_readable()
    }
}

macro_rules! lift_visit {
    ($($method:ident: $ty:ty,)*) => {
        $(
            #[inline]
            fn $method<E: de::Error>(self, v: $ty) -> Result<V::Value, E> {
                self.inner.$method(v)
            }
        )*
    };
}

impl<'a, 'de, V: Visitor<'de>> Visitor<'a> for Visit<'de, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.inner.expecting(f)
    }

    lift_visit! {
        visit_bool: bool, visit_i8: i8, visit_i16: i16, visit_i32: i32, visit_i64: i64, visit_i128: i128,
        visit_u8: u8, visit_u16: u16, visit_u32: u32, visit_u64: u64, visit_u128: u128,
        visit_f32: f32, visit_f64: f64, visit_char: char, visit_str: &str, visit_string: String,
        visit_bytes: &[u8], visit_byte_buf: Vec<u8>,
    }

    /// Lent for the call only: the text lives shorter than `'de`.
    #[inline]
    fn visit_borrowed_str<E: de::Error>(self, v: &'a str) -> Result<V::Value, E> {
        self.inner.visit_str(v)
    }

    fn visit_borrowed_bytes<E: de::Error>(self, v: &'a [u8]) -> Result<V::Value, E> {
        self.inner.visit_bytes(v)
    }

    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.inner.visit_none()
    }

    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.inner.visit_unit()
    }

    fn visit_some<D: Deserializer<'a>>(self, deserializer: D) -> Result<V::Value, D::Error> {
        self.inner.visit_some(Lifted::new(deserializer))
    }

    fn visit_newtype_struct<D: Deserializer<'a>>(self, deserializer: D) -> Result<V::Value, D::Error> {
        self.inner.visit_newtype_struct(Lifted::new(deserializer))
    }

    #[inline]
    fn visit_seq<A: SeqAccess<'a>>(self, seq: A) -> Result<V::Value, A::Error> {
        self.inner.visit_seq(access(seq))
    }

    #[inline]
    fn visit_map<A: MapAccess<'a>>(self, map: A) -> Result<V::Value, A::Error> {
        self.inner.visit_map(access(map))
    }

    fn visit_enum<A: EnumAccess<'a>>(self, data: A) -> Result<V::Value, A::Error> {
        self.inner.visit_enum(access(data))
    }
}

impl<'a, 'de, S: DeserializeSeed<'de>> DeserializeSeed<'a> for Seed<'de, S> {
    type Value = S::Value;

    #[inline]
    fn deserialize<D: Deserializer<'a>>(self, deserializer: D) -> Result<S::Value, D::Error> {
        self.inner.deserialize(Lifted::new(deserializer))
    }
}

impl<'a, 'de, A: SeqAccess<'a>> SeqAccess<'de> for Access<'a, A> {
    type Error = A::Error;

    #[inline]
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, item: T) -> Result<Option<T::Value>, A::Error> {
        self.inner.next_element_seed(seed(item))
    }

    fn size_hint(&self) -> Option<usize> {
        self.inner.size_hint()
    }
}

impl<'a, 'de, A: MapAccess<'a>> MapAccess<'de> for Access<'a, A> {
    type Error = A::Error;

    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, key: K) -> Result<Option<K::Value>, A::Error> {
        self.inner.next_key_seed(seed(key))
    }

    #[inline]
    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, value: T) -> Result<T::Value, A::Error> {
        self.inner.next_value_seed(seed(value))
    }

    fn size_hint(&self) -> Option<usize> {
        self.inner.size_hint()
    }
}

impl<'a, 'de, A: EnumAccess<'a>> EnumAccess<'de> for Access<'a, A> {
    type Error = A::Error;
    type Variant = Access<'a, A::Variant>;

    fn variant_seed<T: DeserializeSeed<'de>>(self, tag: T) -> Result<(T::Value, Self::Variant), A::Error> {
        let (tag, variant) = self.inner.variant_seed(seed(tag))?;
        Ok((tag, access(variant)))
    }
}

impl<'a, 'de, A: VariantAccess<'a>> VariantAccess<'de> for Access<'a, A> {
    type Error = A::Error;

    fn unit_variant(self) -> Result<(), A::Error> {
        self.inner.unit_variant()
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, value: T) -> Result<T::Value, A::Error> {
        self.inner.newtype_variant_seed(seed(value))
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, A::Error> {
        self.inner.tuple_variant(len, visit(visitor))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        self.inner.struct_variant(fields, visit(visitor))
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde::Deserialize;

    use super::*;

    #[derive(Debug, PartialEq, Deserialize)]
    enum Shape {
        Point,
        Circle(f64),
        Pair(u8, u8),
        Box { w: u32, h: u32 },
    }

    #[derive(Debug, PartialEq, Deserialize)]
    struct Every {
        text: String,
        maybe: Option<i64>,
        none: Option<bool>,
        list: Vec<(u8, char)>,
        map: BTreeMap<String, Shape>,
        unit: (),
        wrapped: Wrapped,
        #[serde(with = "serde_bytes_like")]
        bytes: Vec<u8>,
    }

    #[derive(Debug, PartialEq, Deserialize)]
    struct Wrapped(i128);

    /// Bytes read by `deserialize_bytes`: `serde_json` lends a string's bytes.
    mod serde_bytes_like {
        use std::fmt;

        use serde::de::{Deserializer, Error, Visitor};

        pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<u8>, D::Error> {
            struct Bytes;
            impl Visitor<'_> for Bytes {
                type Value = Vec<u8>;
                fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    f.write_str("bytes")
                }
                fn visit_bytes<E: Error>(self, v: &[u8]) -> Result<Vec<u8>, E> {
                    Ok(v.to_vec())
                }
            }
            deserializer.deserialize_bytes(Bytes)
        }
    }

    /// A type that borrows from what it reads, which the lifted reader cannot lend.
    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Borrows<'a> {
        text: &'a str,
    }

    #[test]
    fn reads_every_shape_as_the_inner_deserializer_does() {
        let text = r#"{"text": "a\"b", "maybe": -3, "none": null, "list": [[1, "x"], [2, "é"]],
            "map": {"p": "Point", "c": {"Circle": 1.5}, "t": {"Pair": [1, 2]},
                "b": {"Box": {"w": 3, "h": 4}}},
            "unit": null, "wrapped": 170141183460469231731687303715884105727, "bytes": "hi"}"#;
        let direct: Every = serde_json::from_str(text).unwrap();
        let owned = text.to_owned();
        let mut inner = serde_json::Deserializer::from_str(&owned);
        let lifted = Every::deserialize(Lifted::new(&mut inner)).unwrap();
        inner.end().unwrap();
        assert_eq!(lifted, direct);
        assert_eq!(lifted.bytes, b"hi");
        assert_eq!(lifted.map["b"], Shape::Box { w: 3, h: 4 });
    }

    #[test]
    fn lends_nothing_and_keeps_the_inner_errors() {
        let mut inner = serde_json::Deserializer::from_str(r#"{"text": "plain"}"#);
        assert!(Borrows::deserialize(Lifted::new(&mut inner)).is_err());
        let mut inner = serde_json::Deserializer::from_str("[1, 2");
        let error = Vec::<u8>::deserialize(Lifted::new(&mut inner)).unwrap_err();
        assert_eq!(error.classify(), serde_json::error::Category::Eof);
    }
}
