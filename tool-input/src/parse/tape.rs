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

use serde_json::{Map, Number, Value};

use super::{ParseError, ParseOptions, Repair};

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

impl Tape {
    pub(crate) fn new() -> Tape {
        Tape::default()
    }

    /// The events, the value's first event first.
    pub(crate) fn events(&self) -> &[Event] {
        &self.events
    }

    /// Takes the events, for a reader that moves strings out of them.
    pub(crate) fn into_events(self) -> Vec<Event> {
        self.events
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
/// `parse_noting_repeats`. `Ok(None)`: the text repeats a key, or needs a reading the tape
/// sink does not make; the caller takes the value path, which decides.
///
/// Today this reads the value and writes its tape; the grammar's tape sink replaces that
/// body (issue #14), with this signature and contract unchanged.
pub(crate) fn parse_to_tape(
    input: &str,
    options: &ParseOptions,
    not_strict_json: bool,
) -> Result<Option<TapeParsed>, ParseError> {
    let (parsed, repeated) = super::parse_noting_repeats(input, options, not_strict_json)?;
    if repeated {
        return Ok(None);
    }
    Ok(Some(TapeParsed { tape: Tape::from_value(&parsed.value), repairs: parsed.repairs }))
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
