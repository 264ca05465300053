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
//! (see `parse_noting_repeats`), so [`parse_to_tape`] gives no tape for it and the caller
//! takes the value path.

use std::cell::Cell;
use std::collections::HashMap;
use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};

use serde_json::{Map, Number, Value};

use super::grammar::{Fed, Grammar, Kind, Out};
use super::lexer::{Failure, Lexer};
use super::spare;
use super::tree::{self, Attempt, Input, Outcome};
use super::{coalesce_repairs, ParseError, ParseMode, ParseOptions, Repair, DEFAULT_MAX_DEPTH};

/// One event of a [`Tape`].
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Event {
    Null,
    Bool(bool),
    Number(Number),
    Str(String),
    /// An object member's key; the member's value follows.
    Key(String),
    /// An array opens; `end` is the index of its [`Event::End`].
    Array {
        end: u32,
    },
    /// An object opens; `end` is the index of its [`Event::End`].
    Object {
        end: u32,
    },
    /// The innermost open array or object closes.
    End,
}

/// One value as events in document order (see the module documentation).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Tape {
    events: Vec<Event>,
}

/// The most events a tape kept for reuse may have room for: a large call's tape is not kept.
const SPARE_EVENTS: usize = 4096;

thread_local! {
    /// The event list of the last tape this thread dropped, emptied, for the next parse to
    /// write into: a short call's tape is a block larger than the allocator keeps at hand,
    /// and asking for one on every call costs more than a part of the parse.
    static SPARE: Cell<Vec<Event>> = const { Cell::new(Vec::new()) };
    /// The stacks of open containers and of their keys of the last [`TapeOut`] this thread
    /// dropped, emptied: grown from nothing, they cost a parse a few allocations each.
    static SPARE_STACKS: Cell<(Vec<Open>, Vec<usize>)> = const { Cell::new((Vec::new(), Vec::new())) };
}

/// The most open containers a kept stack may have room for (a deeper parse's is not kept).
const SPARE_OPEN: usize = 256;

/// The most keys a kept stack of keys may have room for.
const SPARE_KEYS: usize = 1024;

impl Drop for Tape {
    fn drop(&mut self) {
        let mut events = std::mem::take(&mut self.events);
        if events.capacity() > 0 && events.capacity() <= SPARE_EVENTS {
            spare::keep(events.drain(..).filter_map(|event| match event {
                Event::Str(text) | Event::Key(text) => Some(text),
                _ => None,
            }));
            // During the thread's exit there is nothing to keep it for.
            let _ = SPARE.try_with(|spare| spare.set(events));
        }
    }
}

impl Tape {
    pub(crate) fn new() -> Tape {
        Tape::default()
    }

    /// The events, the value's first event first.
    pub(crate) fn events(&self) -> &[Event] {
        &self.events
    }

    /// Takes the events, for a reader that moves strings out of them.
    pub(crate) fn into_events(mut self) -> Vec<Event> {
        std::mem::take(&mut self.events)
    }

    /// Appends a scalar or key event.
    pub(crate) fn push(&mut self, event: Event) {
        self.events.push(event);
    }

    /// Opens an array; returns the index to [`close`](Tape::close) it with.
    pub(crate) fn open_array(&mut self) -> usize {
        self.events.push(Event::Array { end: 0 });
        self.events.len() - 1
    }

    /// Opens an object; returns the index to [`close`](Tape::close) it with.
    pub(crate) fn open_object(&mut self) -> usize {
        self.events.push(Event::Object { end: 0 });
        self.events.len() - 1
    }

    /// Closes the container opened at `start`.
    pub(crate) fn close(&mut self, start: usize) {
        let end = u32::try_from(self.events.len()).unwrap_or(u32::MAX);
        self.events.push(Event::End);
        if let Some(Event::Array { end: slot } | Event::Object { end: slot }) = self.events.get_mut(start) {
            *slot = end;
        }
    }

    /// The container opened at `start` (an object without members) is an array: a Python
    /// set read as one.
    pub(crate) fn retag_array(&mut self, start: usize) {
        if let Some(event @ Event::Object { .. }) = self.events.get_mut(start) {
            *event = Event::Array { end: 0 };
        }
    }

    /// The array opened at `start`, not closed yet, is not there: its one item stands in its
    /// place (a `(` holding one item, `(1)` or `NumberLong(2)`). The containers inside it
    /// move back by one event.
    pub(crate) fn unwrap(&mut self, start: usize) {
        if start >= self.events.len() {
            return;
        }
        self.events.remove(start);
        for event in self.events.get_mut(start..).unwrap_or_default() {
            if let Event::Array { end } | Event::Object { end } = event {
                *end = end.saturating_sub(1);
            }
        }
    }

    /// The tape of a built value (members in the map's order).
    pub(crate) fn from_value(value: &Value) -> Tape {
        let mut tape = Tape::new();
        tape.write(value);
        tape
    }

    fn write(&mut self, value: &Value) {
        // Recursion is bounded by the parser's depth limit: only parsed values come here.
        match value {
            Value::Null => self.push(Event::Null),
            Value::Bool(b) => self.push(Event::Bool(*b)),
            Value::Number(n) => self.push(Event::Number(n.clone())),
            Value::String(s) => self.push(Event::Str(s.clone())),
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
                    self.push(Event::Key(key.clone()));
                    self.write(item);
                }
                self.close(start);
            }
        }
    }

    /// The value the tape holds (for tests, and for a caller that needs the value after all).
    pub(crate) fn to_value(&self) -> Value {
        let mut stack: Vec<(Value, Option<String>)> = Vec::new();
        let mut key: Option<String> = None;
        let mut done = Value::Null;
        for event in &self.events {
            let value = match event {
                Event::Null => Value::Null,
                Event::Bool(b) => Value::Bool(*b),
                Event::Number(n) => Value::Number(n.clone()),
                Event::Str(s) => Value::String(s.clone()),
                Event::Key(k) => {
                    key = Some(k.clone());
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

/// A lenient parse read onto a tape: what [`parse`](super::parse) gives, without the value.
#[derive(Debug)]
pub(crate) struct TapeParsed {
    pub(crate) tape: Tape,
    pub(crate) repairs: Vec<Repair>,
}

/// Parses tool arguments onto a [`Tape`]: the same reading, repairs and errors as
/// `parse_noting_repeats`, written straight onto the tape by the grammar (no `Value`), or
/// for strict JSON by `serde_json`. `Ok(None)`: the text repeats a key (the value path
/// decides what that means), or it is read in [`ParseMode::Repair`] (whose guesses rebuild
/// what they built: that needs a `Value`); the caller takes the value path. A
/// double-encoded payload (a top-level string holding the object) is decoded as a value,
/// then written onto the tape.
pub(crate) fn parse_to_tape(
    input: &str,
    options: &ParseOptions,
    not_strict_json: bool,
) -> Result<Option<TapeParsed>, ParseError> {
    if input.len() > options.max_bytes {
        return Err(ParseError::TooLarge { bytes: input.len(), limit: options.max_bytes });
    }
    if options.mode == ParseMode::Repair {
        return Ok(None);
    }
    if !not_strict_json && options.max_depth >= DEFAULT_MAX_DEPTH {
        if let Some((tape, repeated)) = strict_to_tape(input) {
            if repeated {
                return Ok(None);
            }
            if let ([Event::Str(_)], ParseMode::Lenient) = (tape.events(), options.mode) {
                // A double-encoded payload: as `parse` reads it.
                let parsed = super::parse(input, options)?;
                return Ok(Some(TapeParsed {
                    tape: Tape::from_value(&parsed.value),
                    repairs: parsed.repairs,
                }));
            }
            return Ok(Some(TapeParsed { tape, repairs: Vec::new() }));
        }
    }
    let read = tree::read_with_retry(Input::text(input), options, |lexer, repairs| TapeMachine {
        lexer,
        grammar: Grammar::new(options, repairs),
        out: TapeOut::for_text(input.len()),
        complete: options.complete_truncated,
    });
    let (tape, repeated, mut repairs, value_at) =
        read.map_err(|failure| tree::to_error(failure, input.as_bytes(), options))?;
    if repeated {
        return Ok(None);
    }
    if let [Event::Str(text)] = tape.events() {
        if options.mode == ParseMode::Lenient {
            let outcome =
                Outcome { value: Value::String(text.clone()), repairs, value_at, repeated_keys: false };
            let mut parsed = tree::decode_double(outcome, options);
            coalesce_repairs(&mut parsed.repairs);
            return Ok(Some(TapeParsed { tape: Tape::from_value(&parsed.value), repairs: parsed.repairs }));
        }
    }
    coalesce_repairs(&mut repairs);
    Ok(Some(TapeParsed { tape, repairs }))
}

/// Strict JSON onto a tape by `serde_json` (its nesting limit of 128 holds), noting whether
/// an object repeats a key; `None` when the text is not strict JSON.
fn strict_to_tape(text: &str) -> Option<(Tape, bool)> {
    use serde::de::DeserializeSeed;
    let mut out = TapeOut::for_text(0);
    let mut deserializer = serde_json::Deserializer::from_str(text);
    Writing { out: &mut out }.deserialize(&mut deserializer).ok()?;
    deserializer.end().ok()?;
    Some((std::mem::take(&mut out.tape), out.repeated))
}

/// A [`TapeOut`] as a `serde` seed: writes the value it deserializes onto the tape.
struct Writing<'a> {
    out: &'a mut TapeOut,
}

impl<'de> serde::de::DeserializeSeed<'de> for Writing<'_> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for Writing<'_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<(), E> {
        self.out.tape.push(Event::Bool(v));
        Ok(())
    }

    fn visit_i64<E>(self, v: i64) -> Result<(), E> {
        self.out.tape.push(Event::Number(v.into()));
        Ok(())
    }

    fn visit_u64<E>(self, v: u64) -> Result<(), E> {
        self.out.tape.push(Event::Number(v.into()));
        Ok(())
    }

    fn visit_f64<E>(self, v: f64) -> Result<(), E> {
        // As `serde_json::Value` reads it.
        self.out.tape.push(Number::from_f64(v).map_or(Event::Null, Event::Number));
        Ok(())
    }

    fn visit_str<E>(self, v: &str) -> Result<(), E> {
        self.out.tape.push(Event::Str(v.to_owned()));
        Ok(())
    }

    fn visit_string<E>(self, v: String) -> Result<(), E> {
        self.out.tape.push(Event::Str(v));
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
        while seq.next_element_seed(Writing { out: &mut *self.out })?.is_some() {}
        self.out.close(false);
        Ok(())
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        self.out.open(Kind::Object);
        while let Some(key) = map.next_key::<String>()? {
            self.out.key(key);
            map.next_value_seed(Writing { out: &mut *self.out })?;
        }
        self.out.close(false);
        Ok(())
    }
}

/// Objects with more members than this find a repeated key through a hash map of the keys'
/// hashes; smaller ones compare the key with each of theirs.
const FEW_KEYS: usize = 16;

/// The keys of an open object, to find a repeated one: the index of each [`Event::Key`]
/// (compared as text while they are few), by the key's hash once they are many.
#[derive(Debug, Default)]
enum Keys {
    /// An array.
    #[default]
    None,
    /// The indexes of its keys are `TapeOut::few[from..]`: the open objects' few keys share
    /// one stack (an inner object closes before its outer one takes another key), so an
    /// object costs no allocation of its own.
    Few {
        from: usize,
    },
    Many(HashMap<u64, usize>),
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
pub(crate) struct TapeOut {
    tape: Tape,
    open: Vec<Open>,
    /// The indexes of the keys of the open objects that have few (see [`Keys::Few`]).
    few: Vec<usize>,
    /// An object repeated a key (or two keys of one object share a 64-bit hash: the value
    /// path then decides, as for a repeat).
    repeated: bool,
}

impl TapeOut {
    /// An output for a text of `len` bytes, with room for the events such a text usually
    /// makes (about one per eight bytes), up to a bound: growing the tape event by event
    /// costs more than the parse of a short call.
    fn for_text(len: usize) -> TapeOut {
        let mut events = SPARE.try_with(Cell::take).unwrap_or_default();
        events.reserve((len / 8).min(SPARE_EVENTS));
        let (open, few) = SPARE_STACKS.try_with(Cell::take).unwrap_or_default();
        TapeOut { tape: Tape { events }, open, few, repeated: false }
    }
}

impl Drop for TapeOut {
    fn drop(&mut self) {
        let (mut open, mut few) = (std::mem::take(&mut self.open), std::mem::take(&mut self.few));
        if open.capacity() <= SPARE_OPEN && few.capacity() <= SPARE_KEYS {
            open.clear();
            few.clear();
            // During the thread's exit there is nothing to keep them for.
            let _ = SPARE_STACKS.try_with(|spare| spare.set((open, few)));
        }
    }
}

/// The hash a key is compared by (the same for every run: keys only meet keys of the same
/// parse).
fn key_hash(key: &str) -> u64 {
    BuildHasherDefault::<DefaultHasher>::default().hash_one(key)
}

/// Whether the event at `at` is the key `key`.
fn is_key(events: &[Event], at: usize, key: &str) -> bool {
    matches!(events.get(at), Some(Event::Key(k)) if k == key)
}

impl Out for TapeOut {
    fn key(&mut self, key: String) {
        let TapeOut { tape, open, few, repeated } = self;
        let at = tape.events.len();
        if let Some(open) = open.last_mut() {
            match &mut open.keys {
                Keys::None => {}
                &mut Keys::Few { from } => {
                    let keys = few.get(from..).unwrap_or_default();
                    *repeated |= keys.iter().any(|&k| is_key(&tape.events, k, &key));
                    if keys.len() < FEW_KEYS {
                        few.push(at);
                    } else {
                        let mut many: HashMap<u64, usize> = keys
                            .iter()
                            .filter_map(|&k| match tape.events.get(k) {
                                Some(Event::Key(name)) => Some((key_hash(name), k)),
                                _ => None,
                            })
                            .collect();
                        few.truncate(from);
                        // A hash met again: a repeat (flagged above) or two keys sharing a
                        // hash, which the value path decides as well.
                        *repeated |= many.insert(key_hash(&key), at).is_some();
                        open.keys = Keys::Many(many);
                    }
                }
                Keys::Many(many) => *repeated |= many.insert(key_hash(&key), at).is_some(),
            }
        }
        tape.push(Event::Key(key));
    }

    fn open(&mut self, kind: Kind) {
        let (start, keys) = match kind {
            Kind::Object => (self.tape.open_object(), Keys::Few { from: self.few.len() }),
            Kind::Array | Kind::Paren | Kind::Set => (self.tape.open_array(), Keys::None),
        };
        self.open.push(Open { start, keys });
    }

    fn scalar(&mut self, value: Value) {
        self.tape.push(match value {
            Value::Null => Event::Null,
            Value::Bool(b) => Event::Bool(b),
            Value::Number(n) => Event::Number(n),
            Value::String(s) => Event::Str(s),
            // The grammar sends scalars only; a container would be written whole.
            other => {
                self.tape.write(&other);
                return;
            }
        });
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
        let events = &self.tape.events;
        match self.open.last().map(|open| &open.keys) {
            Some(&Keys::Few { from }) => {
                self.few.get(from..).unwrap_or_default().iter().any(|&k| is_key(events, k, key))
            }
            Some(Keys::Many(keys)) => keys.get(&key_hash(key)).is_some_and(|&k| is_key(events, k, key)),
            _ => false,
        }
    }

    fn reset(&mut self) {
        self.tape.events.clear();
        self.open.clear();
        self.few.clear();
    }
}

/// A lexer, the grammar and a [`TapeOut`]: one attempt at reading the value onto a tape.
struct TapeMachine {
    lexer: Lexer,
    grammar: Grammar,
    out: TapeOut,
    complete: bool,
}

impl Attempt for TapeMachine {
    /// The tape, whether a key repeated, the repairs (sorted by offset) and where the value
    /// started.
    type Done = (Tape, bool, Vec<Repair>, usize);

    fn run(&mut self, input: Input<'_>) -> Result<Self::Done, Failure> {
        let mut fed = Fed { grammar: &mut self.grammar, out: &mut self.out };
        match input.as_text() {
            Some(text) => self.lexer.feed_str(text, &mut fed)?,
            None => self.lexer.feed(input.as_bytes(), &mut fed)?,
        }
        self.lexer.finish(&mut fed, self.complete)?;
        self.grammar.finish(&mut self.out, self.complete, self.lexer.offset())?;
        let mut repairs = self.grammar.take_repairs();
        repairs.sort_by_key(|r| r.offset);
        let value_at = self.lexer.value_start().map_or(0, |(at, _)| at);
        Ok((std::mem::take(&mut self.out.tape), self.out.repeated, repairs, value_at))
    }

    fn lexer(&self) -> &Lexer {
        &self.lexer
    }

    fn repairs(&self) -> &[Repair] {
        self.grammar.repairs()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_value_survives_its_tape() {
        let value = json!({"a": [1, {"b": null, "c": "x"}, []], "d": {}, "e": true, "f": 2.5});
        let tape = Tape::from_value(&value);
        assert_eq!(tape.to_value(), value);
        let Event::Object { end } = tape.events()[0] else { panic!("not an object: {:?}", tape.events()[0]) };
        assert_eq!(end as usize, tape.events().len() - 1);
    }

    #[test]
    fn a_repeated_key_takes_the_value_path() {
        let options = ParseOptions::default();
        assert!(parse_to_tape(r#"{"a": 1, "a": 2}"#, &options, false).unwrap().is_none());
        let parsed = parse_to_tape("{'a': [1, 2,]}", &options, false).unwrap().unwrap();
        assert_eq!(parsed.tape.to_value(), json!({"a": [1, 2]}));
        assert_eq!(parsed.repairs.len(), 2);
    }
}
