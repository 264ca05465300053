//! The tape: one parsed value as a flat list of events in document order, the sink that
//! lets a typed path read a lenient parse without building a [`Value`].
//!
//! A `Value` costs a map per object (a `BTreeMap`, or an `IndexMap` under `preserve_order`)
//! and a node per member. The typed path only walks the value once, front to back, into
//! `T`; for that, the events the grammar produces, kept in a `Vec`, are enough. Each
//! container's opening event knows where it ends, so a reader can skip a whole subtree.
//!
//! The tape holds exactly the value [`parse`](super::parse) would give, members in the order
//! the text wrote them. Where the text repeats a key, the value path decides what that means
//! (see `parse_noting_repeats`), so `one_shot::parse_to_tape` gives no tape for it and the caller
//! takes the value path.

use std::borrow::Cow;
use std::cell::Cell;
use std::collections::HashMap;
use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};
use std::thread::LocalKey;

use serde::de::MapAccess;
use serde_json::de::StrRead;
use serde_json::{Map, Number, Value};

use crate::arbitrary_precision::{self, ReadMap};
use crate::parse::grammar::{Frame, HeldKey, Kind, Out};
use crate::parse::lexer::escapes::read_escaped;
use crate::parse::lexer::Str;
use crate::parse::spare::{self, MOST_KEPT};

use super::events::EventList;
pub(crate) use super::events::{Event, Events, Place, Text};

/// The shortest text whose strings with escapes are read again from it ([`Place::Escaped`]):
/// a shorter text's are kept, which costs a copy where reading them again costs decoding
/// twice, and a short call's tape is small whatever it holds.
pub(crate) const ESCAPED_FROM: usize = 64 * 1024;

/// Where a tape's strings are read from: the parsed text and the tape's own strings.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Sources<'t> {
    text: &'t str,
    kept: &'t str,
}

impl<'t> Sources<'t> {
    pub(crate) fn new(text: &'t str, kept: &'t str) -> Sources<'t> {
        Sources { text, kept }
    }

    /// The content of `text`, borrowed unless it is decoded from escapes; `None` only for
    /// a `Text` of another tape.
    #[inline]
    pub(crate) fn string(self, text: Text) -> Option<Cow<'t, str>> {
        match text.place() {
            Place::Escaped { quote } => self.decode(text, quote).map(Cow::Owned),
            Place::Verbatim | Place::Kept => self.borrowed(text).map(Cow::Borrowed),
        }
    }

    /// The content of `text` when it is borrowed (every key's is).
    #[inline]
    pub(crate) fn borrowed(self, text: Text) -> Option<&'t str> {
        let range = text.start()..text.start() + text.len();
        match text.place() {
            Place::Verbatim => self.text.get(range),
            Place::Kept => self.kept.get(range),
            Place::Escaped { .. } => None,
        }
    }

    /// The content of a [`Place::Escaped`] text.
    #[cold]
    fn decode(self, text: Text, quote: u8) -> Option<String> {
        let raw = self.text.get(text.start()..)?;
        let mut decoded = String::with_capacity(text.len());
        let read = read_escaped(raw, quote, |piece| {
            decoded.push_str(piece);
            true
        });
        (read == Some(text.len())).then_some(decoded)
    }
}

/// One value as events in document order (see the module documentation), over the text it
/// was parsed from.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Tape<'t> {
    events: EventList,
    /// The content of the [`Place::Kept`] strings, one after another.
    kept: String,
    /// The parsed text (empty for a tape of a built value).
    text: &'t str,
    /// A string did not fit a [`Text`] (past 4 GiB): the tape is not to be read.
    overflow: bool,
}

/// The most bytes of events a tape kept for reuse may have room for: a large call's tape is
/// not kept.
const MOST_SPARE_EVENTS: usize = 4096 * 11;

thread_local! {
    /// The event list of the last tape this thread dropped, emptied, for the next parse to
    /// write into (see [`spare`]): a short call's tape is a block larger than the allocator
    /// keeps at hand, and asking for one on every call costs more than a part of the parse.
    static SPARE_EVENTS: Cell<Vec<u8>> = const { Cell::new(Vec::new()) };
    /// Its kept strings, emptied.
    static SPARE_KEPT: Cell<String> = const { Cell::new(String::new()) };
    /// The stack of open containers of the last [`TapeOut`] this thread dropped, emptied.
    static SPARE_OPEN: Cell<Vec<Open>> = const { Cell::new(Vec::new()) };
    /// Its stack of keys, emptied.
    static SPARE_KEYS: Cell<Vec<Text>> = const { Cell::new(Vec::new()) };
    /// The grammar's stack of frames holding keys as a tape does.
    static SPARE_FRAMES: Cell<Vec<Frame<Option<Text>>>> = const { Cell::new(Vec::new()) };
}

impl HeldKey for Option<Text> {
    fn spare_frames() -> &'static LocalKey<Cell<Vec<Frame<Option<Text>>>>> {
        &SPARE_FRAMES
    }
}

/// Gives the event list and kept strings of a tape back for the next parse on this thread
/// (see [`spare`]).
pub(crate) fn give_back(events: Vec<u8>, kept: String) {
    spare::give_back(&SPARE_EVENTS, events, MOST_SPARE_EVENTS);
    spare::give_back(&SPARE_KEPT, kept, MOST_KEPT);
}

impl Drop for Tape<'_> {
    fn drop(&mut self) {
        give_back(self.events.take_bytes(), std::mem::take(&mut self.kept));
    }
}

impl<'t> Tape<'t> {
    #[cfg(test)]
    pub(crate) fn new() -> Tape<'static> {
        Tape::default()
    }

    /// An empty tape over `text`, written into the lists the last dropped tape left.
    fn over(text: &'t str) -> Tape<'t> {
        Tape::over_room(text, Vec::new())
    }

    /// An empty tape over `text`, its events written into `room` (emptied) when that has
    /// any, else into the list the last dropped tape left.
    fn over_room(text: &'t str, room: Vec<u8>) -> Tape<'t> {
        let events = if room.capacity() > 0 { room } else { spare::take(&SPARE_EVENTS) };
        Tape { events: EventList::from_bytes(events), kept: spare::take(&SPARE_KEPT), text, overflow: false }
    }

    /// Whether a string lies past 4 GiB, where a [`Text`] does not reach: the tape is not
    /// used then.
    pub(crate) fn overflow(&self) -> bool {
        self.overflow
    }

    /// The events, the value's first event first.
    pub(crate) fn events(&self) -> Events<'_> {
        self.events.view()
    }

    /// Where the events' strings are read from.
    pub(crate) fn sources(&self) -> Sources<'_> {
        Sources { text: self.text, kept: &self.kept }
    }

    /// Takes the events and the kept strings, for a reader that keeps them apart from the
    /// text (which it then holds itself).
    pub(crate) fn into_parts(mut self) -> (Vec<u8>, String) {
        (self.events.take_bytes(), std::mem::take(&mut self.kept))
    }

    /// Appends a scalar or key event.
    #[inline]
    pub(crate) fn push(&mut self, event: Event) {
        self.events.push(event);
    }

    /// `content` as a [`Place::Kept`] text; `None` past 4 GiB of kept strings.
    fn keep(&mut self, content: &str) -> Option<Text> {
        let start = u32::try_from(self.kept.len()).ok()?;
        let len = u32::try_from(content.len()).ok()?;
        start.checked_add(len)?;
        self.kept.push_str(content);
        Some(Text::new(start, len, Place::Kept))
    }

    /// Where `content`, a part of the parsed text itself, is in it; `None` for a string
    /// elsewhere (or past 4 GiB). A string lent from the text (by the lexer, or borrowed
    /// by `serde_json`) is found so, without a comparison.
    #[inline]
    fn in_text(&self, content: &str) -> Option<Text> {
        let from = (content.as_ptr() as usize).checked_sub(self.text.as_ptr() as usize)?;
        if from.checked_add(content.len())? > self.text.len() {
            return None;
        }
        let (start, len) = (u32::try_from(from).ok()?, u32::try_from(content.len()).ok()?);
        Some(Text::new(start, len, Place::Verbatim))
    }

    /// Where the content of a string token that starts at `at` is: where the text holds it,
    /// when the token lends it from there (nothing to compare), else as [`Tape::place`]
    /// finds it (`escapes`: a value may be read from its escapes).
    #[inline]
    fn place_token(&mut self, content: &Str<'_>, at: usize, escapes: bool) -> Option<Text> {
        match content.in_text().and_then(|lent| self.in_text(lent)) {
            Some(text) => Some(text),
            None => self.place(content.as_str(), at, escapes),
        }
    }

    /// Where `content`, borrowed from the parsed text, is: there, or kept when it is not.
    #[inline]
    fn lent_or_kept(&mut self, content: &str) -> Option<Text> {
        match self.in_text(content) {
            Some(text) => Some(text),
            None => self.keep(content),
        }
    }

    /// Where `content`, a string the parse read from the token at `at`, is: in the text
    /// as it is (right after the token's opening quote, or at `at` for a bare word), in a
    /// long text with JSON's escapes (`escapes`: a value may be read so; a key is compared
    /// as it is), else kept. `None` past 4 GiB.
    #[inline]
    fn place(&mut self, content: &str, at: usize, escapes: bool) -> Option<Text> {
        let bytes = self.text.as_bytes();
        let quote = bytes.get(at).copied().filter(|&b| b == b'"' || b == b'\'');
        let from = at + usize::from(quote.is_some());
        // Bytes equal to a whole string's are whole characters of the text too.
        if bytes.get(from..from + content.len()) == Some(content.as_bytes()) {
            let (start, len) = (u32::try_from(from).ok()?, u32::try_from(content.len()).ok()?);
            return Some(Text::new(start, len, Place::Verbatim));
        }
        match quote {
            Some(quote) if escapes && bytes.len() >= ESCAPED_FROM => {
                self.escaped_or_kept(content, from, quote)
            }
            _ => self.keep(content),
        }
    }

    /// Where `content` is when the text does not hold it as it is: with JSON's escapes from
    /// `from` (after the opening `quote`), or else kept.
    fn escaped_or_kept(&mut self, content: &str, from: usize, quote: u8) -> Option<Text> {
        let mut rest = content;
        let read = read_escaped(self.text.get(from..)?, quote, |piece| match rest.strip_prefix(piece) {
            Some(after) => {
                rest = after;
                true
            }
            None => false,
        });
        match (read, rest) {
            (Some(raw), "") => {
                let (start, len) = (u32::try_from(from).ok()?, u32::try_from(raw).ok()?);
                start.checked_add(len)?;
                Some(Text::new(start, len, Place::Escaped { quote }))
            }
            _ => self.keep(content),
        }
    }

    /// Opens an array; returns the offset to [`close`](Tape::close) it with.
    pub(crate) fn open_array(&mut self) -> usize {
        let start = self.events.len();
        self.events.push(Event::Array { end: 0 });
        start
    }

    /// Opens an object; returns the offset to [`close`](Tape::close) it with.
    pub(crate) fn open_object(&mut self) -> usize {
        let start = self.events.len();
        self.events.push(Event::Object { end: 0 });
        start
    }

    /// Closes the container opened at `start`. (Past 4 GiB of events its end is not where it
    /// says, and a reader does not read the tape.)
    pub(crate) fn close(&mut self, start: usize) {
        self.events.close(start);
    }

    /// The container opened at `start` (an object without members) is an array: a Python
    /// set read as one.
    pub(crate) fn retag_array(&mut self, start: usize) {
        self.events.retag_array(start);
    }

    /// The array opened at `start`, not closed yet, is not there: its one item stands in its
    /// place (a `(` holding one item, `(1)` or `NumberLong(2)`). Its opening is removed when
    /// the parse ends ([`TapeOut::take_tape`]), with every other one taken out, in one pass.
    pub(crate) fn unwrap(&mut self, start: usize) {
        self.events.skip_opening(start);
    }

    /// The tape of a built value (members in the map's order; every string kept).
    pub(crate) fn from_value(value: &Value) -> Tape<'static> {
        let mut tape = Tape::over("");
        tape.write(value);
        tape
    }

    fn write(&mut self, value: &Value) {
        // Recursion is bounded by the parser's depth limit: only parsed values come here.
        match value {
            Value::Null => self.push(Event::Null),
            Value::Bool(b) => self.push(Event::Bool(*b)),
            Value::Number(n) => self.push(Event::number(n)),
            Value::String(s) => self.write_string(s),
            Value::Array(items) => {
                let start = self.open_array();
                for item in items {
                    self.write(item);
                }
                self.close(start);
            }
            Value::Object(map) => {
                let start = self.open_object();
                for (key, item) in map {
                    self.write_key(key);
                    self.write(item);
                }
                self.close(start);
            }
        }
    }

    /// A string value, kept. (Past 4 GiB of text, where no `Text` reaches, a tape is not
    /// made: see `parse_to_tape`.)
    fn write_string(&mut self, content: &str) {
        let text = self.keep(content);
        self.push_string(text);
    }

    /// A string value that is where `text` says (`None`: past 4 GiB).
    fn push_string(&mut self, text: Option<Text>) {
        self.overflow |= text.is_none();
        self.push(text.map_or(Event::Null, Event::Str));
    }

    /// A key, kept.
    pub(crate) fn write_key(&mut self, content: &str) {
        let text = self.keep(content);
        self.overflow |= text.is_none();
        self.push(text.map_or(Event::Null, Event::Key));
    }

    /// The value the tape holds (for tests, and for a caller that needs the value after all).
    pub(crate) fn to_value(&self) -> Value {
        let sources = self.sources();
        let string = |text: &Text| sources.string(*text).map(Cow::into_owned).unwrap_or_default();
        let mut stack: Vec<(Value, Option<String>)> = Vec::new();
        let mut key: Option<String> = None;
        let mut done = Value::Null;
        for event in self.events.view().iter() {
            let value = match event {
                Event::Null => Value::Null,
                Event::Bool(b) => Value::Bool(b),
                Event::Unsigned(_) | Event::Signed(_) | Event::Float(_) => {
                    event.as_number().map_or(Value::Null, Value::Number)
                }
                Event::Str(s) => Value::String(string(&s)),
                Event::Key(k) => {
                    key = Some(string(&k));
                    continue;
                }
                Event::Array { .. } => {
                    stack.push((Value::Array(Vec::new()), key.take()));
                    continue;
                }
                Event::Object { .. } => {
                    stack.push((Value::Object(Map::new()), key.take()));
                    continue;
                }
                Event::End => match stack.pop() {
                    Some((value, outer_key)) => {
                        key = outer_key;
                        value
                    }
                    None => continue,
                },
            };
            match stack.last_mut() {
                Some((Value::Array(items), _)) => items.push(value),
                Some((Value::Object(map), _)) => {
                    map.insert(key.take().unwrap_or_default(), value);
                }
                _ => done = value,
            }
        }
        done
    }
}

/// Strict JSON onto a tape by `serde_json`, noting whether an object repeats a key, where
/// it reads first (`strict::serde_json_first`, under `max_depth`;
/// `refused_before`: it has refused the text already); `None` when it does not, or the text
/// is not strict JSON. The text is scanned for a float `serde_json` may misread only when
/// one was read: most mangled calls are refused at their first bytes, and the scan, which
/// reads them whole, cost more than the refusal.
pub(crate) fn strict_to_tape<'t>(
    text: &'t str,
    max_depth: usize,
    refused_before: bool,
    room: &mut TapeRoom,
) -> Option<(Tape<'t>, bool)> {
    let reader = strict_tape_reader(text, room);
    let out = crate::parse::strict::serde_json_first(text, max_depth, refused_before, reader).read()?;
    Some(out.into_written())
}

/// The room reserved for the tape of one text, passed on from a reading of the text that
/// failed to the next reading of it: `serde_json`'s of the whole text, its reading of the
/// value in a frame, then the parser's each write a tape reserved at the text's length
/// ([`TapeOut::for_text`]), and a mangled text fails the first two. Shared, the three ask
/// the allocator for one block, not three of the text's size each given back. A block that
/// large comes straight from the system, and giving one back teaches glibc's allocator to
/// serve blocks up to its size from its heap, which it does not return: the check's other
/// buffers that grow towards the text's size then stay resident after they are freed.
#[derive(Debug, Default)]
pub(crate) struct TapeRoom(Vec<u8>);

impl Drop for TapeRoom {
    /// Room no reading took (the last one failed too) goes where a dropped tape's goes.
    fn drop(&mut self) {
        spare::give_back(&SPARE_EVENTS, std::mem::take(&mut self.0), MOST_SPARE_EVENTS);
    }
}

/// What `serde_json` reads onto a tape of `text`, as a reader for
/// [`serde_json_first`](crate::parse::strict::serde_json_first) (the value, and whether it
/// read a float): over the whole text, or over the value inside a frame
/// (`parse::framed`), whose strings lie in `text` as well.
///
/// The tape is written into `room`; a reading that fails leaves its room there for the next.
pub(crate) fn strict_tape_reader<'t: 'r, 'de, 'r>(
    text: &'t str,
    room: &'r mut TapeRoom,
) -> impl FnOnce(&mut serde_json::Deserializer<StrRead<'de>>) -> Result<(TapeOut<'t>, bool), serde_json::Error> + 'r
{
    use serde::de::DeserializeSeed;
    move |deserializer| {
        let mut out = TapeOut::for_text(text, room);
        let read_float = Cell::new(false);
        match (Writing { out: &mut out, read_float: &read_float }).deserialize(deserializer) {
            Ok(()) => Ok((out, read_float.get())),
            Err(error) => {
                *room = TapeRoom(out.tape.events.take_bytes());
                Err(error)
            }
        }
    }
}

/// A [`TapeOut`] as a `serde` seed: writes the value it deserializes onto the tape. A string
/// `serde_json` lends from the text is written as where it is in the text.
struct Writing<'a, 't> {
    out: &'a mut TapeOut<'t>,
    /// Set when `serde_json` hands over a float (which it may have rounded wrongly).
    read_float: &'a Cell<bool>,
}

impl<'de> serde::de::DeserializeSeed<'de> for Writing<'_, '_> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

/// A key as `serde_json` hands it over, written by [`TapeOut::key_at`].
struct KeyWriting<'a, 't> {
    out: &'a mut TapeOut<'t>,
}

impl<'de> serde::de::DeserializeSeed<'de> for KeyWriting<'_, '_> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> serde::de::Visitor<'de> for KeyWriting<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an object key")
    }

    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<(), E> {
        let text = self.out.tape.lent_or_kept(v);
        self.out.key_placed(text);
        Ok(())
    }

    fn visit_str<E>(self, v: &str) -> Result<(), E> {
        let text = self.out.tape.keep(v);
        self.out.key_placed(text);
        Ok(())
    }
}

impl<'de> serde::de::Visitor<'de> for Writing<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<(), E> {
        self.out.tape.push(Event::Bool(v));
        Ok(())
    }

    fn visit_i64<E>(self, v: i64) -> Result<(), E> {
        self.out.tape.push(Event::number(&v.into()));
        Ok(())
    }

    fn visit_u64<E>(self, v: u64) -> Result<(), E> {
        self.out.tape.push(Event::Unsigned(v));
        Ok(())
    }

    fn visit_f64<E>(self, v: f64) -> Result<(), E> {
        self.read_float.set(true);
        // As `serde_json::Value` reads it.
        self.out.tape.push(Number::from_f64(v).map_or(Event::Null, |n| Event::number(&n)));
        Ok(())
    }

    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<(), E> {
        let text = self.out.tape.lent_or_kept(v);
        self.out.tape.push_string(text);
        Ok(())
    }

    fn visit_str<E>(self, v: &str) -> Result<(), E> {
        self.out.tape.write_string(v);
        Ok(())
    }

    fn visit_none<E>(self) -> Result<(), E> {
        self.out.tape.push(Event::Null);
        Ok(())
    }

    fn visit_unit<E>(self) -> Result<(), E> {
        self.out.tape.push(Event::Null);
        Ok(())
    }

    fn visit_some<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        serde::de::DeserializeSeed::deserialize(self, deserializer)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        self.out.open(Kind::Array);
        while seq.next_element_seed(Writing { out: &mut *self.out, read_float: self.read_float })?.is_some() {
        }
        self.out.close(false);
        Ok(())
    }

    fn visit_u128<E: serde::de::Error>(self, v: u128) -> Result<(), E> {
        // Only from a `Value` with `arbitrary_precision` on: a float without it.
        self.visit_f64(v as f64)
    }

    fn visit_i128<E: serde::de::Error>(self, v: i128) -> Result<(), E> {
        self.visit_f64(v as f64)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<(), A::Error> {
        arbitrary_precision::visit_map(self, map)
    }
}

impl<'de> ReadMap<'de> for Writing<'_, '_> {
    fn read_map<M: MapAccess<'de>>(self, mut map: M) -> Result<(), M::Error> {
        self.out.open(Kind::Object);
        while map.next_key_seed(KeyWriting { out: &mut *self.out })?.is_some() {
            map.next_value_seed(Writing { out: &mut *self.out, read_float: self.read_float })?;
        }
        self.out.close(false);
        Ok(())
    }
}

/// Objects with more members than this find a repeated key through a hash map of the keys'
/// hashes; smaller ones compare the key with each of theirs.
const FEW_KEYS: usize = 16;

/// The keys of an open object, to find a repeated one: where each key's text is (compared
/// as text while they are few), by the key's hash once they are many.
#[derive(Debug, Default)]
enum Keys {
    /// An array.
    #[default]
    None,
    /// Its keys are `TapeOut::few[from..]`: the open objects' few keys share
    /// one stack (an inner object closes before its outer one takes another key), so an
    /// object costs no allocation of its own.
    Few {
        from: usize,
    },
    Many(HashMap<u64, Text>),
}

/// An open container on the tape.
#[derive(Debug)]
struct Open {
    /// The index of its opening event.
    start: usize,
    keys: Keys,
}

/// The grammar's output onto a [`Tape`], noting repeated keys as it goes.
#[derive(Debug)]
pub(crate) struct TapeOut<'t> {
    tape: Tape<'t>,
    open: Vec<Open>,
    /// The keys of the open objects that have few (see [`Keys::Few`]).
    few: Vec<Text>,
    /// An object repeated a key (or two keys of one object share a 64-bit hash: the value
    /// path then decides, as for a repeat).
    repeated: bool,
}

impl<'t> TapeOut<'t> {
    /// An output for `text`, with room for the events such a text usually makes (at most
    /// one per eight bytes): growing the tape event by event costs more than the parse of a
    /// short call, and growing a large tape by doubling copies it, leaving the old blocks to
    /// the allocator (past the input's size in memory). Room reserved and not written takes
    /// no memory.
    ///
    /// Written into `room` when it holds a block a reading of the same text left (see
    /// [`TapeRoom`]), which is then empty.
    pub(crate) fn for_text(text: &'t str, room: &mut TapeRoom) -> TapeOut<'t> {
        let mut tape = Tape::over_room(text, std::mem::take(&mut room.0));
        tape.events.reserve(text.len());
        TapeOut { tape, open: spare::take(&SPARE_OPEN), few: spare::take(&SPARE_KEYS), repeated: false }
    }

    /// The tape `serde_json` wrote ([`strict_tape_reader`]), and whether an object repeated
    /// a key.
    pub(crate) fn into_written(mut self) -> (Tape<'t>, bool) {
        (std::mem::take(&mut self.tape), self.repeated)
    }

    /// The tape written, taken, and whether an object repeated a key.
    pub(crate) fn take_tape(&mut self) -> (Tape<'t>, bool) {
        self.tape.events.settle();
        (std::mem::take(&mut self.tape), self.repeated)
    }

    /// The key that is where `text` says (`None`: past 4 GiB).
    fn key_placed(&mut self, text: Option<Text>) {
        let TapeOut { tape, open, few, repeated } = self;
        if let (Some(open), Some(text)) = (open.last_mut(), text) {
            let sources = tape.sources();
            let key = sources.borrowed(text).unwrap_or_default();
            match &mut open.keys {
                Keys::None => {}
                &mut Keys::Few { from } => {
                    let keys = few.get(from..).unwrap_or_default();
                    *repeated |= keys.iter().any(|&k| is_key(sources, k, key));
                    if keys.len() < FEW_KEYS {
                        few.push(text);
                    } else {
                        let mut many: HashMap<u64, Text> =
                            keys.iter().filter_map(|&k| Some((key_hash(sources.borrowed(k)?), k))).collect();
                        few.truncate(from);
                        // A hash met again: a repeat (flagged above) or two keys sharing a
                        // hash, which the value path decides as well.
                        *repeated |= many.insert(key_hash(key), text).is_some();
                        open.keys = Keys::Many(many);
                    }
                }
                Keys::Many(many) => *repeated |= many.insert(key_hash(key), text).is_some(),
            }
        }
        tape.overflow |= text.is_none();
        tape.push(text.map_or(Event::Null, Event::Key));
    }
}

impl Drop for TapeOut<'_> {
    fn drop(&mut self) {
        spare::give_back(&SPARE_OPEN, std::mem::take(&mut self.open), MOST_KEPT);
        spare::give_back(&SPARE_KEYS, std::mem::take(&mut self.few), MOST_KEPT);
    }
}

/// The hash a key is compared by (the same for every run: keys only meet keys of the same
/// parse).
fn key_hash(key: &str) -> u64 {
    BuildHasherDefault::<DefaultHasher>::default().hash_one(key)
}

/// Whether the key whose text is `k` is `key` (most keys differ in length).
#[inline]
fn is_key(sources: Sources<'_>, k: Text, key: &str) -> bool {
    k.len() == key.len() && sources.borrowed(k) == Some(key)
}

impl Out for TapeOut<'_> {
    /// Where the key is, in the text or kept: placed when it is read, so that holding it
    /// costs no copy (`None`: past 4 GiB). A key that never gets its value leaves what it
    /// kept unread.
    type Key = Option<Text>;

    #[inline]
    fn hold_key(&mut self, key: Str<'_>, at: usize) -> Option<Text> {
        self.tape.place_token(&key, at, false)
    }

    fn key_text<'k>(&'k self, key: &'k Option<Text>) -> &'k str {
        key.and_then(|key| self.tape.sources().borrowed(key)).unwrap_or_default()
    }

    #[inline]
    fn key(&mut self, key: Option<Text>) {
        self.key_placed(key);
    }

    #[inline]
    fn string_at(&mut self, text: Str<'_>, at: usize) {
        let text = self.tape.place_token(&text, at, true);
        self.tape.push_string(text);
    }

    fn open(&mut self, kind: Kind) {
        let (start, keys) = match kind {
            Kind::Object => (self.tape.open_object(), Keys::Few { from: self.few.len() }),
            Kind::Array | Kind::Paren | Kind::Set => (self.tape.open_array(), Keys::None),
        };
        self.open.push(Open { start, keys });
    }

    fn scalar(&mut self, value: Value) {
        match value {
            Value::Null => self.tape.push(Event::Null),
            Value::Bool(b) => self.tape.push(Event::Bool(b)),
            Value::Number(n) => self.tape.push(Event::number(&n)),
            Value::String(s) => self.tape.write_string(&s),
            // The grammar sends scalars only; a container would be written whole.
            other => self.tape.write(&other),
        }
    }

    fn close(&mut self, unwrap: bool) {
        let Some(open) = self.open.pop() else { return };
        if let Keys::Few { from } = open.keys {
            self.few.truncate(from);
        }
        if unwrap {
            self.tape.unwrap(open.start);
        } else {
            self.tape.close(open.start);
        }
    }

    fn object_as_set(&mut self) {
        if let Some(open) = self.open.last_mut() {
            self.tape.retag_array(open.start);
            if let Keys::Few { from } = open.keys {
                self.few.truncate(from);
            }
            open.keys = Keys::None;
        }
    }

    fn has_key(&self, key: &str) -> bool {
        let sources = self.tape.sources();
        match self.open.last().map(|open| &open.keys) {
            Some(&Keys::Few { from }) => {
                self.few.get(from..).unwrap_or_default().iter().any(|&k| is_key(sources, k, key))
            }
            Some(Keys::Many(keys)) => keys.get(&key_hash(key)).is_some_and(|&k| is_key(sources, k, key)),
            _ => false,
        }
    }

    fn reset(&mut self) {
        self.tape.events.clear();
        self.tape.kept.clear();
        self.open.clear();
        self.few.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_readings_of_one_text_write_into_one_block() {
        let text = format!("{{'a': [{}]}}", "1, ".repeat(1000));
        let mut room = TapeRoom::default();
        // `serde_json` refuses the text at its first quote: the block it reserved is left.
        assert!(strict_to_tape(&text, 128, false, &mut room).is_none());
        assert!(room.0.capacity() >= text.len(), "{}", room.0.capacity());
        let block = room.0.as_ptr();
        let out = TapeOut::for_text(&text, &mut room);
        assert_eq!(out.tape.events.block(), block);
        assert_eq!(room.0.capacity(), 0);
        // A text `serde_json` reads keeps its tape; nothing is left.
        let mut room = TapeRoom::default();
        assert!(strict_to_tape("[1, 2]", 128, false, &mut room).is_some());
        assert_eq!(room.0.capacity(), 0);
    }

    #[test]
    fn a_value_survives_its_tape() {
        let value = json!({"a": [1, {"b": null, "c": "x"}, []], "d": {}, "e": true, "f": 2.5});
        let tape = Tape::from_value(&value);
        assert_eq!(tape.to_value(), value);
        let Some(Event::Object { end }) = tape.events().get(0) else { panic!("not an object: {tape:?}") };
        assert_eq!(end as usize, tape.events().len() - 1);
    }

    #[test]
    fn small_numbers_take_two_bytes_of_tape() {
        let value = json!([1, 2, 3, 250]);
        let tape = Tape::from_value(&value);
        // The opening (5), four numbers (2 each), the end (1).
        assert_eq!(tape.events().len(), 5 + 4 * 2 + 1);
        assert_eq!(tape.to_value(), value);
    }
}
