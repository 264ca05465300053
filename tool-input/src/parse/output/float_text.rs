//! A parsed value written back as JSON text with each float as the input wrote it: the
//! value holds a stand-in for each float (`ValueOut::keep_float_texts`), the float `n` whose
//! text is the `n`th of the texts kept beside it.
//!
//! A `serde_json::Value` (without `arbitrary_precision`, which this crate never turns on)
//! holds a number that is not a 64-bit integer as an `f64`: written back, an integer past 64
//! bits is rounded (`12345678901234567890123` is `1.2345678901234568e+22`), a decimal is
//! shortened to the float it rounds to (`0.1000000000000000055511151231257827` is `0.1`),
//! and a number beyond the floats (`1e400`) cannot be held at all. The text as read keeps
//! the value.

use serde_json::{Map, Value};

use crate::parse::lexer::numbers::is_json_number;

/// The JSON texts of a value's floats, by their stand-ins' indexes: one buffer, not a
/// `String` each (a megabyte of short floats is a quarter of a million of them).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct FloatTexts {
    text: String,
    /// Where each text ends in `text`.
    ends: Vec<usize>,
}

impl FloatTexts {
    /// How many texts there are: the index of the next.
    pub(crate) fn len(&self) -> usize {
        self.ends.len()
    }

    pub(crate) fn push(&mut self, text: &str) {
        self.text.push_str(text);
        self.ends.push(self.text.len());
    }

    /// The text of the float at `index`.
    pub(crate) fn get(&self, index: usize) -> Option<&str> {
        let start = match index.checked_sub(1) {
            Some(before) => *self.ends.get(before)?,
            None => 0,
        };
        self.text.get(start..*self.ends.get(index)?)
    }

    /// The texts, by their indexes.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &str> + '_ {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts.zip(&self.ends).map(|(start, &end)| self.text.get(start..end).unwrap_or_default())
    }

    /// `other`'s texts after these, their indexes moved up by [`FloatTexts::len`].
    pub(crate) fn append(&mut self, other: FloatTexts) {
        let shift = self.text.len();
        self.text.push_str(&other.text);
        self.ends.extend(other.ends.iter().map(|end| end + shift));
    }
}

/// Whether the float `literal` (a number as the lexer records it: JSON's grammar, perhaps
/// with a `+`) reads as `float`, bit for bit, or is beyond the floats where `float` is the
/// stand-in the lexer reads such a number as (`f64::MAX`).
pub(crate) fn denotes(literal: &str, float: f64) -> bool {
    match literal.parse::<f64>() {
        Ok(read) if read.is_infinite() => float == f64::MAX,
        Ok(read) => read.to_bits() == float.to_bits(),
        Err(_) => false,
    }
}

/// `literal` as JSON text: as it is, or without the `+` Python's grammar allows (`+1.5`);
/// `None` when it is not JSON's grammar even so.
pub(crate) fn as_json(literal: &str) -> Option<String> {
    let literal = literal.strip_prefix('+').unwrap_or(literal);
    is_json_number(literal.as_bytes()).then(|| literal.to_owned())
}

/// An open container being written: what is left of it, and whether anything of it was
/// written yet.
enum Open<'v> {
    Array(std::slice::Iter<'v, Value>, bool),
    Object(std::vec::IntoIter<(&'v String, &'v Value)>, bool),
}

/// `value` as compact JSON, every object's keys in order (bytewise, as `serde_json` orders
/// them without `preserve_order`, so the same in every build), each stand-in float as its
/// text in `float_texts`. On an explicit stack: nesting never recurses. `capacity`: the
/// length expected (the parsed text's: compact JSON is seldom longer), so a large value's text
/// is not grown by doubling, holding up to three times its size as it is copied.
pub(crate) fn write_json(value: &Value, float_texts: &FloatTexts, capacity: usize) -> String {
    let mut out = Vec::with_capacity(capacity);
    let mut stack: Vec<Open<'_>> = Vec::new();
    let mut next = Some(value);
    loop {
        match next.take() {
            Some(Value::Array(items)) => {
                out.push(b'[');
                stack.push(Open::Array(items.iter(), false));
            }
            Some(Value::Object(map)) => {
                out.push(b'{');
                stack.push(Open::Object(sorted_members(map).into_iter(), false));
            }
            Some(Value::Number(number)) if number.is_f64() => {
                let text = number
                    .as_f64()
                    .filter(|index| index.fract() == 0.0 && *index >= 0.0)
                    .and_then(|index| float_texts.get(index as usize));
                match text {
                    Some(text) => out.extend_from_slice(text.as_bytes()),
                    // Not a stand-in (none is missing: every float of the value got one).
                    None => write_scalar(&mut out, &Value::Number(number.clone())),
                }
            }
            Some(scalar) => write_scalar(&mut out, scalar),
            None => {}
        }
        let Some(open) = stack.last_mut() else { break };
        match open {
            Open::Array(items, started) => match items.next() {
                Some(item) => {
                    if std::mem::replace(started, true) {
                        out.push(b',');
                    }
                    next = Some(item);
                }
                None => {
                    out.push(b']');
                    stack.pop();
                }
            },
            Open::Object(members, started) => match members.next() {
                Some((key, member)) => {
                    if std::mem::replace(started, true) {
                        out.push(b',');
                    }
                    write_scalar(&mut out, key);
                    out.push(b':');
                    next = Some(member);
                }
                None => {
                    out.push(b'}');
                    stack.pop();
                }
            },
        }
    }
    // Every piece written is UTF-8: `serde_json`'s text and the ASCII of the rest.
    String::from_utf8(out).unwrap_or_default()
}

/// An object's members in key order.
fn sorted_members(map: &Map<String, Value>) -> Vec<(&String, &Value)> {
    let mut members: Vec<_> = map.iter().collect();
    members.sort_unstable_by(|a, b| a.0.cmp(b.0));
    members
}

/// A string, integer, boolean or `null` as `serde_json` writes it.
fn write_scalar<T: serde::Serialize + ?Sized>(out: &mut Vec<u8>, scalar: &T) {
    // Writing a scalar into a `Vec` cannot fail.
    let _ = serde_json::to_writer(out, scalar);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_literal_denotes_its_float_or_the_stand_in_beyond_them() {
        assert!(denotes("0.1000000000000000055511151231257827", 0.1));
        assert!(denotes("-0", -0.0));
        assert!(!denotes("0", -0.0));
        assert!(denotes("1e400", f64::MAX) && denotes("-1e400", f64::MAX));
        assert!(!denotes("1.5", 2.5) && !denotes("x", 1.0));
        assert_eq!(as_json("+1.5").as_deref(), Some("1.5"));
        assert_eq!(as_json("1E+2").as_deref(), Some("1E+2"));
        assert_eq!(as_json("inf"), None);
    }

    #[test]
    fn stand_ins_are_written_as_their_texts_keys_in_order() {
        let value = serde_json::json!({"b": [0.0, 1, "x\n"], "a": {"z": 1.0, "y": null}, "c": 7.5});
        let mut texts = FloatTexts::default();
        texts.push("1e2");
        texts.push("0.50");
        // 7.5 is no stand-in (none has that index): written as a float is.
        assert_eq!(write_json(&value, &texts, 0), r#"{"a":{"y":null,"z":0.50},"b":[1e2,1,"x\n"],"c":7.5}"#);
        assert_eq!(write_json(&serde_json::json!([]), &texts, 0), "[]");
        assert_eq!(write_json(&serde_json::json!({}), &texts, 0), "{}");
        let mut more = FloatTexts::default();
        more.push("-0");
        texts.append(more);
        assert_eq!(
            (texts.get(0), texts.get(1), texts.get(2), texts.get(3)),
            (Some("1e2"), Some("0.50"), Some("-0"), None)
        );
        assert_eq!(texts.iter().collect::<Vec<_>>(), ["1e2", "0.50", "-0"]);
        assert_eq!(FloatTexts::default().iter().count(), 0);
    }
}
