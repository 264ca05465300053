//! A serde [`Deserializer`] over a [`Tape`](super::tape::Tape): the lenient parse read
//! straight into `T`, without a `serde_json::Value` in between.
//!
//! It makes the same visitor calls, and accepts and refuses the same shapes, as
//! `serde_json::Value`'s own deserializer for the value the tape holds, so a type reads the
//! same from either (the typed path compares them call by call). One difference: members
//! come in the order the text wrote them (a `Value` without serde_json's `preserve_order`
//! sorts them), which only a map type that keeps insertion order can see, as it sees it when
//! the first step reads strict JSON straight from the text.
//!
//! Strings are lent (`visit_str`): a `String` field copies its text, and the tape still
//! holds the whole value afterwards, so that a call the one pass cannot decide reaches the
//! walk by [`Tape::to_value`](super::tape::Tape::to_value) rather than a second parse of the
//! text. Measured (instructions, the mangled and fenced workloads): moving the strings out
//! instead saved no more than the noise on accepted calls and cost a rejected one 14% more,
//! for the second parse.
//!
//! An error only says "not in one pass" ([`NotOnePass`]): the caller then takes the path
//! that explains. After an error the reader still stands past the value it was reading, as
//! a `Value`'s deserializer consumes the value whatever the outcome, so a visitor that
//! recovers from an error reads on from the right place.

use std::fmt;
use std::marker::PhantomData;

use serde::de::value::CowStrDeserializer;
use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, IntoDeserializer, MapAccess, SeqAccess, VariantAccess,
    Visitor,
};
use std::borrow::Cow;

use super::tape::{Event, Events, Sources, Tape, Text};

/// The name under which `serde_json::value::RawValue` asks for its text: a tape has no text
/// to give, so the value path reads it.
const RAW_VALUE_TOKEN: &str = "$serde_json::private::RawValue";

/// The tape does not read as the type asked for, in one pass. It carries nothing: the
/// caller's next step explains.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct NotOnePass;

impl fmt::Display for NotOnePass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the arguments do not read as this type in one pass")
    }
}

impl std::error::Error for NotOnePass {}

impl de::Error for NotOnePass {
    fn custom<T: fmt::Display>(_: T) -> Self {
        NotOnePass
    }
}

type Result<T> = std::result::Result<T, NotOnePass>;

/// Reads one value from a tape's events (see the module documentation).
pub(crate) struct TapeDeserializer<'t> {
    events: Events<'t>,
    /// Where the events' strings are.
    sources: Sources<'t>,
    /// The byte offset of the next event to read.
    next: usize,
}

impl<'t> TapeDeserializer<'t> {
    /// A reader of the value the events hold, their strings read from `sources`.
    pub(crate) fn new(events: Events<'t>, sources: Sources<'t>) -> Self {
        TapeDeserializer { events, sources, next: 0 }
    }

    /// A reader of the value `tape` holds.
    pub(crate) fn of(tape: &'t Tape<'_>) -> Self {
        TapeDeserializer::new(tape.events(), tape.sources())
    }

    /// Has the whole value been read? (A visitor may stop early without an error.)
    pub(crate) fn is_done(&self) -> bool {
        self.next >= self.events.len()
    }

    /// The offset just past the value that starts at `at` (a container's end is one byte).
    fn after(&self, at: usize) -> usize {
        match self.events.read(at) {
            Some((Event::Array { end } | Event::Object { end }, _)) => end as usize + 1,
            Some((_, next)) => next,
            None => at,
        }
    }

    /// Steps over the next value, whatever it is.
    fn skip(&mut self) {
        self.next = self.after(self.next);
    }

    /// Steps over the next value and refuses it: the shape is not the one asked for.
    fn refuse<T>(&mut self) -> Result<T> {
        self.skip();
        Err(NotOnePass)
    }

    /// Hands the content of `text` to `visitor`.
    fn visit_content<'de, V: Visitor<'de>>(&self, text: Text, visitor: V) -> Result<V::Value> {
        match self.sources.string(text) {
            Some(content) => visitor.visit_str(&content),
            None => Err(NotOnePass),
        }
    }

    /// The string event `text`, the next one, whose successor is at `after`.
    fn string<'de, V: Visitor<'de>>(&mut self, text: Text, after: usize, visitor: V) -> Result<V::Value> {
        self.next = after;
        self.visit_content(text, visitor)
    }

    /// The array whose opening event is the next one, read by `visitor`; `end` is the offset
    /// of its closing event.
    fn array<'de, V: Visitor<'de>>(&mut self, end: u32, visitor: V) -> Result<V::Value> {
        let end = self.checked_end(end)?;
        self.next = self.events.next_at(self.next);
        let read = visitor.visit_seq(Elements { de: &mut *self, end });
        let all_read = self.next == end;
        self.next = end + 1;
        // As a `Value`'s deserializer: a visitor that leaves elements unread gets an error.
        match read {
            Ok(value) if all_read => Ok(value),
            Ok(_) => Err(NotOnePass),
            Err(error) => Err(error),
        }
    }

    /// The object whose opening event is the next one, read by `visitor`.
    fn object<'de, V: Visitor<'de>>(&mut self, end: u32, visitor: V) -> Result<V::Value> {
        let end = self.checked_end(end)?;
        self.next = self.events.next_at(self.next);
        let mut members = Members { de: &mut *self, end, value_pending: false };
        let read = visitor.visit_map(&mut members);
        if members.value_pending {
            members.de.skip();
        }
        let all_read = self.next == end;
        self.next = end + 1;
        match read {
            Ok(value) if all_read => Ok(value),
            Ok(_) => Err(NotOnePass),
            Err(error) => Err(error),
        }
    }

    /// A container's `end` as an offset, if it is where the container closes (a tape too long
    /// for `u32` indices would not be); otherwise the tape is not read at all.
    fn checked_end(&mut self, end: u32) -> Result<usize> {
        let end = end as usize;
        if end > self.next && self.events.is_end(end) {
            Ok(end)
        } else {
            self.next = self.events.len();
            Err(NotOnePass)
        }
    }
}

/// A number event as `serde_json::Number` hands itself to a visitor: `u64` for a
/// non-negative integer, `i64` for a negative one, else `f64`.
fn visit_number<'de, V: Visitor<'de>>(number: Event, visitor: V) -> Result<V::Value> {
    match number {
        Event::Unsigned(unsigned) => visitor.visit_u64(unsigned),
        Event::Signed(signed) => visitor.visit_i64(signed),
        Event::Float(float) => visitor.visit_f64(float),
        _ => Err(NotOnePass),
    }
}

macro_rules! numbers {
    ($($method:ident)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
                match self.events.read(self.next) {
                    Some((number @ (Event::Unsigned(_) | Event::Signed(_) | Event::Float(_)), after)) => {
                        self.next = after;
                        visit_number(number, visitor)
                    }
                    _ => self.refuse(),
                }
            }
        )*
    };
}

impl<'de> Deserializer<'de> for &mut TapeDeserializer<'_> {
    type Error = NotOnePass;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.events.read(self.next) {
            Some((Event::Null, after)) => {
                self.next = after;
                visitor.visit_unit()
            }
            Some((Event::Bool(flag), after)) => {
                self.next = after;
                visitor.visit_bool(flag)
            }
            Some((number @ (Event::Unsigned(_) | Event::Signed(_) | Event::Float(_)), after)) => {
                self.next = after;
                visit_number(number, visitor)
            }
            Some((Event::Str(text), after)) => self.string(text, after, visitor),
            Some((Event::Array { end }, _)) => self.array(end, visitor),
            Some((Event::Object { end }, _)) => self.object(end, visitor),
            Some((Event::Key(_) | Event::End, _)) | None => Err(NotOnePass),
        }
    }

    numbers! {
        deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64 deserialize_i128
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64 deserialize_u128
        deserialize_f32 deserialize_f64
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.events.read(self.next) {
            Some((Event::Bool(flag), after)) => {
                self.next = after;
                visitor.visit_bool(flag)
            }
            _ => self.refuse(),
        }
    }

    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_string(visitor)
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_string(visitor)
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.events.read(self.next) {
            Some((Event::Str(text), after)) => self.string(text, after, visitor),
            _ => self.refuse(),
        }
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_byte_buf(visitor)
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.events.read(self.next) {
            Some((Event::Str(text), after)) => self.string(text, after, visitor),
            Some((Event::Array { end }, _)) => self.array(end, visitor),
            _ => self.refuse(),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.events.read(self.next) {
            Some((Event::Null, after)) => {
                self.next = after;
                visitor.visit_none()
            }
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.events.read(self.next) {
            Some((Event::Null, after)) => {
                self.next = after;
                visitor.visit_unit()
            }
            _ => self.refuse(),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, name: &'static str, visitor: V) -> Result<V::Value> {
        if name == RAW_VALUE_TOKEN {
            return self.refuse();
        }
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.events.get(self.next) {
            Some(Event::Array { end }) => self.array(end, visitor),
            _ => self.refuse(),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.events.get(self.next) {
            Some(Event::Object { end }) => self.object(end, visitor),
            _ => self.refuse(),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        match self.events.get(self.next) {
            Some(Event::Array { end }) => self.array(end, visitor),
            Some(Event::Object { end }) => self.object(end, visitor),
            _ => self.refuse(),
        }
    }

    /// Externally tagged, as serde_json writes enums: a string (a unit variant), or an
    /// object of one member, the variant's name and its content.
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        match self.events.read(self.next) {
            Some((Event::Str(name), after)) => {
                self.next = after;
                visitor.visit_enum(Variant { de: self, name, content: false })
            }
            Some((Event::Object { end }, key)) => {
                let end = self.checked_end(end)?;
                // One member: its key, then a value that ends where the object does.
                let (name, value) = match self.events.read(key) {
                    Some((Event::Key(name), value)) if self.after(value) == end => (name, value),
                    _ => {
                        self.next = end + 1;
                        return Err(NotOnePass);
                    }
                };
                self.next = value;
                let read = visitor.visit_enum(Variant { de: &mut *self, name, content: true });
                self.next = end + 1;
                read
            }
            _ => self.refuse(),
        }
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_string(visitor)
    }

    /// Skips the value in one step: a container's opening event knows where it ends.
    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.skip();
        visitor.visit_unit()
    }
}

/// The elements of an array, up to its closing event `end`.
struct Elements<'a, 't> {
    de: &'a mut TapeDeserializer<'t>,
    end: usize,
}

impl<'de> SeqAccess<'de> for Elements<'_, '_> {
    type Error = NotOnePass;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if self.de.next >= self.end {
            return Ok(None);
        }
        seed.deserialize(&mut *self.de).map(Some)
    }
}

/// The members of an object, up to its closing event `end`.
struct Members<'a, 't> {
    de: &'a mut TapeDeserializer<'t>,
    end: usize,
    /// A key was read and its value not yet.
    value_pending: bool,
}

impl<'de> MapAccess<'de> for Members<'_, '_> {
    type Error = NotOnePass;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.value_pending {
            // The visitor asked for the next key without the last value: as a `Value`'s
            // deserializer, the value is dropped.
            self.value_pending = false;
            self.de.skip();
        }
        if self.de.next >= self.end {
            return Ok(None);
        }
        let Some((Event::Key(key), value)) = self.de.events.read(self.de.next) else {
            return Err(NotOnePass);
        };
        self.de.next = value;
        self.value_pending = true;
        seed.deserialize(KeyDeserializer { de: &mut *self.de, key }).map(Some)
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value> {
        if !self.value_pending {
            return Err(NotOnePass);
        }
        self.value_pending = false;
        seed.deserialize(&mut *self.de)
    }
}

/// An object's key, read as serde_json reads a `Value` object's keys: a string, or for a
/// key type that asks, a number or boolean written as the key's text.
struct KeyDeserializer<'a, 't> {
    de: &'a mut TapeDeserializer<'t>,
    /// Where the key's text is.
    key: Text,
}

impl KeyDeserializer<'_, '_> {
    fn text(&self) -> &str {
        self.de.sources.borrowed(self.key).unwrap_or_default()
    }
}

/// A numeric key: the key's whole text is one JSON number (serde_json's rule: it starts with
/// a digit or `-`, and nothing, not even white space, follows the number).
macro_rules! numeric_keys {
    ($($method:ident)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
                let key = self.text();
                let starts_as_number = matches!(key.as_bytes().first(), Some(b'0'..=b'9' | b'-'));
                let ends_as_number = key.as_bytes().last().is_some_and(|byte| !byte.is_ascii_whitespace());
                if !starts_as_number || !ends_as_number {
                    return Err(NotOnePass);
                }
                let mut reader = serde_json::Deserializer::from_str(key);
                let read = reader.$method(NumberOnly(visitor, PhantomData)).map_err(|_| NotOnePass)?;
                reader.end().map_err(|_| NotOnePass)?;
                Ok(read)
            }
        )*
    };
}

/// A visitor of numbers, for a reader of another lifetime (serde_json's, over a key's text):
/// numbers borrow nothing, so they pass as they are.
struct NumberOnly<'de, V>(V, PhantomData<&'de ()>);

macro_rules! pass_numbers {
    ($($method:ident: $ty:ty,)*) => {
        $(
            fn $method<E: de::Error>(self, v: $ty) -> std::result::Result<V::Value, E> {
                self.0.$method(v)
            }
        )*
    };
}

impl<'de, 'k, V: Visitor<'de>> Visitor<'k> for NumberOnly<'de, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.expecting(f)
    }

    pass_numbers! {
        visit_u64: u64, visit_i64: i64, visit_f64: f64, visit_u128: u128, visit_i128: i128,
    }
}

impl<'de> Deserializer<'de> for KeyDeserializer<'_, '_> {
    type Error = NotOnePass;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.de.visit_content(self.key, visitor)
    }

    numeric_keys! {
        deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64 deserialize_i128
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64 deserialize_u128
        deserialize_f32 deserialize_f64
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.text() {
            "true" => visitor.visit_bool(true),
            "false" => visitor.visit_bool(false),
            _ => Err(NotOnePass),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        // A key is never null.
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        variant_name(self.de, self.key).deserialize_enum(name, variants, visitor)
    }

    serde::forward_to_deserialize_any! {
        char str string bytes byte_buf unit unit_struct seq tuple tuple_struct map struct
        identifier ignored_any
    }
}

/// The string `name` (a variant's name) as a deserializer of its own, as serde_json hands
/// a variant's name over: a string, and an enum of unit variants.
fn variant_name<'t>(de: &TapeDeserializer<'t>, name: Text) -> CowStrDeserializer<'t, NotOnePass> {
    de.sources.string(name).unwrap_or(Cow::Borrowed("")).into_deserializer()
}

/// An enum's variant: its name, and when `content`, its content as the reader's next value.
struct Variant<'a, 't> {
    de: &'a mut TapeDeserializer<'t>,
    name: Text,
    content: bool,
}

impl<'de, 'a, 't> EnumAccess<'de> for Variant<'a, 't> {
    type Error = NotOnePass;
    type Variant = Self;

    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<(S::Value, Self)> {
        let name = seed.deserialize(variant_name(self.de, self.name))?;
        Ok((name, self))
    }
}

impl<'de> VariantAccess<'de> for Variant<'_, '_> {
    type Error = NotOnePass;

    fn unit_variant(self) -> Result<()> {
        if self.content {
            de::Deserialize::deserialize(&mut *self.de)
        } else {
            Ok(())
        }
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        if self.content {
            seed.deserialize(&mut *self.de)
        } else {
            Err(NotOnePass)
        }
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        if !self.content {
            return Err(NotOnePass);
        }
        let de = self.de;
        match de.events.get(de.next) {
            // An empty array is a unit, as serde_json reads it.
            Some(Event::Array { end }) if end as usize == de.events.next_at(de.next) => {
                de.next = end as usize + 1;
                visitor.visit_unit()
            }
            Some(Event::Array { end }) => de.array(end, visitor),
            _ => de.refuse(),
        }
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        if !self.content {
            return Err(NotOnePass);
        }
        let de = self.de;
        match de.events.get(de.next) {
            Some(Event::Object { end }) => de.object(end, visitor),
            _ => de.refuse(),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, HashMap};

    use serde::de::DeserializeOwned;
    use serde::Deserialize;
    use serde_json::{json, Value};

    use super::*;

    /// `T` read from the tape of `value` must be what serde_json reads from the value
    /// itself (`Err` for `Err`), leave the reader past the value, and the tape whole.
    fn same<T: DeserializeOwned + PartialEq + fmt::Debug>(value: Value) {
        let expected = serde_json::from_value::<T>(value.clone()).ok();
        let tape = Tape::from_value(&value);
        let mut reader = TapeDeserializer::of(&tape);
        let read = T::deserialize(&mut reader).ok();
        assert_eq!(read, expected, "{value}");
        assert!(reader.is_done(), "not past the value: {value}");
        assert_eq!(tape.to_value(), value, "the reader changed the tape");
    }

    #[derive(Debug, PartialEq, Deserialize)]
    struct Order {
        id: String,
        count: u32,
        ratio: Option<f64>,
        tags: Vec<String>,
        #[serde(default)]
        flag: bool,
        level: Level,
    }

    #[derive(Debug, PartialEq, Eq, PartialOrd, Ord, Deserialize)]
    #[serde(rename_all = "snake_case")]
    enum Level {
        Low,
        High,
    }

    #[derive(Debug, PartialEq, Deserialize)]
    enum External {
        Unit,
        Newtype(i64),
        Tuple(u8, String),
        Struct { a: bool },
        Empty(),
    }

    #[derive(Debug, PartialEq, Deserialize)]
    #[serde(tag = "kind")]
    enum Internal {
        Dot,
        Circle { r: f64 },
    }

    #[derive(Debug, PartialEq, Deserialize)]
    #[serde(tag = "t", content = "c")]
    enum Adjacent {
        A(String),
        B { n: i32 },
    }

    #[derive(Debug, PartialEq, Deserialize)]
    #[serde(untagged)]
    enum Untagged {
        Number(i64),
        Text(String),
        List(Vec<Untagged>),
        Map(BTreeMap<String, Untagged>),
    }

    #[derive(Debug, PartialEq, Eq, PartialOrd, Ord, Deserialize)]
    struct Newtype(String);

    #[derive(Debug, PartialEq, Deserialize)]
    struct Pair(i32, String);

    #[derive(Debug, PartialEq, Deserialize)]
    struct Unit;

    #[derive(Debug, PartialEq, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Closed {
        a: i32,
    }

    #[derive(Debug, PartialEq, Deserialize)]
    struct Flattened {
        a: i32,
        #[serde(flatten)]
        rest: BTreeMap<String, Value>,
    }

    #[test]
    fn structs_read_as_from_a_value() {
        let order = json!({"id": "x", "count": 3, "ratio": null, "tags": ["a", "b"], "level": "low"});
        same::<Order>(order.clone());
        same::<Order>(
            json!({"id": "x", "count": 3, "ratio": 2.5, "tags": [], "flag": true, "level": "high", "extra": {"deep": [1, {"x": null}]}}),
        );
        // Wrong shapes: serde refuses on both.
        same::<Order>(json!({"id": "x", "count": "3", "tags": [], "level": "low"}));
        same::<Order>(json!({"id": "x", "count": -1, "tags": [], "level": "low"}));
        same::<Order>(json!({"id": "x", "count": 1, "tags": [], "level": "Low"}));
        same::<Order>(json!({"id": "x", "count": 1.5, "tags": [], "level": "low"}));
        same::<Order>(json!({"count": 1, "tags": [], "level": "low"}));
        same::<Order>(json!(["x", 3, null, [], false, "low"]));
        same::<Order>(json!("x"));
        same::<Closed>(json!({"a": 1}));
        same::<Closed>(json!({"a": 1, "b": 2}));
        same::<Flattened>(json!({"a": 1, "b": [2], "c": {"d": "e"}}));
        same::<Newtype>(json!("n"));
        same::<Newtype>(json!(1));
        same::<Pair>(json!([1, "a"]));
        same::<Pair>(json!([1, "a", 2]));
        same::<Pair>(json!([1]));
        same::<Unit>(json!(null));
        same::<Unit>(json!({}));
        same::<()>(json!(null));
        same::<(i32, bool)>(json!([-4, true]));
    }

    #[test]
    fn enums_read_as_from_a_value() {
        for value in [
            json!("Unit"),
            json!({"Unit": null}),
            json!({"Unit": 1}),
            json!({"Newtype": -3}),
            json!("Newtype"),
            json!({"Tuple": [1, "a"]}),
            json!({"Tuple": [1]}),
            json!({"Tuple": {"a": 1}}),
            json!({"Struct": {"a": true}}),
            json!({"Struct": [true]}),
            json!({"Struct": 1}),
            json!({"Empty": []}),
            json!({"Unit": null, "Newtype": 1}),
            json!({}),
            json!("Other"),
            json!(1),
            json!([]),
        ] {
            same::<External>(value.clone());
            same::<Vec<External>>(json!([value.clone(), "Unit"]));
            same::<Option<External>>(value);
        }
        for value in [
            json!({"kind": "Dot"}),
            json!({"kind": "Circle", "r": 2}),
            json!({"r": 2.5, "kind": "Circle"}),
            json!({"kind": "Square"}),
        ] {
            same::<Internal>(value);
        }
        for value in [json!({"t": "A", "c": "x"}), json!({"c": {"n": 4}, "t": "B"}), json!({"t": "A"})] {
            same::<Adjacent>(value);
        }
        for value in
            [json!(1), json!("a"), json!([1, "b", [2]]), json!({"k": [{"j": 3}]}), json!(null), json!(1.5)]
        {
            same::<Untagged>(value);
        }
    }

    #[test]
    fn scalars_and_numbers_read_as_from_a_value() {
        for value in [
            json!(0),
            json!(255),
            json!(256),
            json!(-1),
            json!(-129),
            json!(u64::MAX),
            json!(i64::MIN),
            json!(1.0),
            json!(0.5),
            json!(-2.5e300),
            json!(true),
            json!(null),
            json!("7"),
            json!("c"),
            json!("cc"),
            json!([1, 2]),
        ] {
            same::<u8>(value.clone());
            same::<i8>(value.clone());
            same::<u64>(value.clone());
            same::<i64>(value.clone());
            same::<i128>(value.clone());
            same::<u128>(value.clone());
            same::<f32>(value.clone());
            same::<f64>(value.clone());
            same::<bool>(value.clone());
            same::<char>(value.clone());
            same::<String>(value.clone());
            same::<Option<u8>>(value.clone());
            same::<Option<Option<bool>>>(value.clone());
            same::<Vec<u8>>(value.clone());
            same::<serde::de::IgnoredAny>(value.clone());
            same::<Value>(value);
        }
    }

    #[test]
    fn map_keys_read_as_from_a_value() {
        let value = json!({"1": "a", "-2": "b", "x": "c", "3 ": "d", " 4": "e", "5.5": "f", "true": "g"});
        same::<BTreeMap<String, String>>(value.clone());
        same::<HashMap<String, String>>(value.clone());
        same::<BTreeMap<i32, String>>(value.clone());
        same::<BTreeMap<i32, String>>(json!({"1": "a", "-2": "b", "300": "c"}));
        same::<BTreeMap<u8, String>>(json!({"1": "a", "300": "c"}));
        same::<BTreeMap<u8, String>>(json!({"1": "a", "01": "c"}));
        same::<BTreeMap<bool, u8>>(json!({"true": 1, "false": 0}));
        same::<BTreeMap<bool, u8>>(json!({"True": 1}));
        same::<BTreeMap<Level, u8>>(json!({"low": 1, "high": 2}));
        same::<BTreeMap<Level, u8>>(json!({"mid": 1}));
        same::<BTreeMap<Option<String>, u8>>(json!({"a": 1}));
        same::<BTreeMap<Newtype, u8>>(json!({"a": 1}));
        same::<Value>(value);
    }

    #[test]
    fn nested_values_read_as_from_a_value() {
        let value =
            json!({"a": [1, {"b": null, "c": "x"}, [], {}], "d": {"e": {"f": [true, false]}}, "g": 2.5});
        same::<Value>(value.clone());
        same::<BTreeMap<String, Value>>(value.clone());
        same::<BTreeMap<String, serde::de::IgnoredAny>>(value.clone());
        same::<Vec<Value>>(value);
        same::<Vec<Vec<Option<u8>>>>(json!([[1, null], [], [2]]));
    }

    #[test]
    fn strings_read_from_the_text_as_they_are_from_its_escapes_and_kept() {
        let input = r#"{"k\n": "tab\tand \u00e9 \uD835\uDD18", 'it\'s': 'it\'s', "j": 'x' 'y', b: "\q"}"#;
        let long = input.replace('}', &format!(", 'pad': '{}'}}", "x".repeat(64 * 1024)));
        for text in [input, long.as_str()] {
            let options = crate::parse::ParseOptions::default();
            let parsed = crate::parse::one_shot::parse_to_tape(text, &options, true).unwrap().unwrap();
            let value = crate::parse::parse(text, &options).unwrap().value;
            assert_eq!(Value::deserialize(&mut TapeDeserializer::of(&parsed.tape)).unwrap(), value);
            let map =
                BTreeMap::<String, String>::deserialize(&mut TapeDeserializer::of(&parsed.tape)).unwrap();
            assert_eq!(map["k\n"], "tab\tand \u{e9} \u{1D518}");
            assert_eq!((map["it's"].as_str(), map["j"].as_str(), map["b"].as_str()), ("it's", "xy", "\\q"));
        }
    }

    #[test]
    fn a_malformed_tape_is_refused_without_panicking() {
        let mut tape = Tape::new();
        tape.push(Event::Object { end: 7 });
        tape.write_key("a");
        tape.push(Event::Array { end: 1 });
        let mut reader = TapeDeserializer::of(&tape);
        assert!(Value::deserialize(&mut reader).is_err());
        let mut keys = Tape::new();
        keys.push(Event::End);
        let key = keys.events().len();
        keys.write_key("k");
        let (events, _) = keys.clone().into_parts();
        for start in [0, key] {
            let mut reader = TapeDeserializer::new(Events::new(&events[start..]), keys.sources());
            assert!(Value::deserialize(&mut reader).is_err());
        }
        // Cut inside an event, and empty.
        for bytes in [&events[..key + 2], &[]] {
            assert!(
                Value::deserialize(&mut TapeDeserializer::new(Events::new(bytes), keys.sources())).is_err()
            );
        }
    }
}
