//! An accepted call's value as the program prints it (compact JSON, every object's keys
//! sorted, as `serde_json` prints a `Value`), written as the check reads it
//! ([`Validator::check_into`](tool_input::Validator::check_into)): when the one-pass check
//! decides the call, with no `serde_json::Value` tree, whose maps and strings take four to
//! five times the input.
//!
//! Each object's members are held as text until the object closes, then joined in key
//! order; an array's items are appended as they are read. Joining puts the smaller text
//! into the larger one's buffer, so a large array is never copied whole.
//!
//! And any `Value` as the program prints it with some of its parts as given JSON text
//! ([`write_json`]): a number as it was written, an id as the case wrote it.

use std::fmt;
use std::io::{self, Write};

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::ser::Formatter;
use serde_json::Value;
use tool_input::Checked;

/// A checked value as compact JSON with sorted keys.
pub(crate) struct SortedJson(pub(crate) Vec<u8>);

/// Append `part` to `text`; the larger of the two keeps its buffer, so the larger is never
/// copied (the smaller is moved in front of it).
fn join(text: &mut Vec<u8>, mut part: Vec<u8>) {
    if part.len() > text.len() {
        let front = std::mem::take(text);
        part.splice(0..0, front);
        *text = part;
    } else {
        text.extend_from_slice(&part);
    }
}

fn write<T: serde::Serialize + ?Sized>(text: &mut Vec<u8>, value: &T) {
    // Writing into a `Vec` fails only for a map with non-string keys, which JSON has none of.
    let _ = serde_json::to_writer(text, value);
}

impl<'de> Deserialize<'de> for SortedJson {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<SortedJson, D::Error> {
        deserializer.deserialize_any(JsonText).map(SortedJson)
    }
}

/// Reads any JSON value as `serde_json::Value` does, writing it as text.
struct JsonText;

impl<'de> Visitor<'de> for JsonText {
    type Value = Vec<u8>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any valid JSON value")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Vec<u8>, E> {
        Ok(if v { b"true".to_vec() } else { b"false".to_vec() })
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Vec<u8>, E> {
        let mut text = Vec::new();
        write(&mut text, &v);
        Ok(text)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Vec<u8>, E> {
        let mut text = Vec::new();
        write(&mut text, &v);
        Ok(text)
    }

    fn visit_i128<E: de::Error>(self, v: i128) -> Result<Vec<u8>, E> {
        // As `serde_json::Number` reads one (without `arbitrary_precision`).
        if let Ok(v) = u64::try_from(v) {
            self.visit_u64(v)
        } else if let Ok(v) = i64::try_from(v) {
            self.visit_i64(v)
        } else {
            Err(E::custom("number out of range"))
        }
    }

    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Vec<u8>, E> {
        match u64::try_from(v) {
            Ok(v) => self.visit_u64(v),
            Err(_) => Err(E::custom("number out of range")),
        }
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Vec<u8>, E> {
        // A value that is not finite is `null`, in a `Value` and here.
        let mut text = Vec::new();
        write(&mut text, &v);
        Ok(text)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Vec<u8>, E> {
        let mut text = Vec::with_capacity(v.len() + 2);
        write(&mut text, v);
        Ok(text)
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Vec<u8>, E> {
        self.visit_str(&v)
    }

    fn visit_none<E: de::Error>(self) -> Result<Vec<u8>, E> {
        Ok(b"null".to_vec())
    }

    fn visit_unit<E: de::Error>(self) -> Result<Vec<u8>, E> {
        Ok(b"null".to_vec())
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Vec<u8>, D::Error> {
        deserializer.deserialize_any(JsonText)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<u8>, A::Error> {
        let mut text = vec![b'['];
        let mut first = true;
        while let Some(SortedJson(item)) = seq.next_element()? {
            if !first {
                text.push(b',');
            }
            first = false;
            join(&mut text, item);
        }
        text.push(b']');
        Ok(text)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Vec<u8>, A::Error> {
        // Past 4 GiB of members (never, under the program's input limits) the one pass gives
        // up and the full check decides.
        let too_large = || de::Error::custom("an object past 4 GiB");
        let mut members = Members::default();
        while let Some(key) = map.next_key::<String>()? {
            let SortedJson(value) = map.next_value()?;
            members.push(&key, value).ok_or_else(too_large)?;
        }
        members.into_text().ok_or_else(|| de::Error::custom("an object key is not UTF-8"))
    }
}

/// Values longer than this are kept apart from an object's other members, never copied
/// before the object is joined.
const APART: usize = 4096;

/// An object's members as they are read: each key and small value in one buffer (a
/// `String` and a `Vec` per member would take several times a small member's text), a large
/// value apart.
#[derive(Default)]
struct Members {
    text: Vec<u8>,
    entries: Vec<Entry>,
    apart: Vec<Vec<u8>>,
}

/// One member (16 bytes, for objects of many small members): its key is
/// `text[key_start..key_end]`; its value `text[key_end..value_end]`, or `apart[apart]` when
/// that is not [`INLINE`].
struct Entry {
    key_start: u32,
    key_end: u32,
    value_end: u32,
    apart: u32,
}

const INLINE: u32 = u32::MAX;

impl Entry {
    fn key(&self) -> std::ops::Range<usize> {
        self.key_start as usize..self.key_end as usize
    }
}

impl Members {
    /// Add a member; `None` past 4 GiB.
    fn push(&mut self, key: &str, value: Vec<u8>) -> Option<()> {
        let offset = |text: &Vec<u8>| u32::try_from(text.len()).ok();
        let key_start = offset(&self.text)?;
        self.text.extend_from_slice(key.as_bytes());
        let key_end = offset(&self.text)?;
        let apart = if value.len() > APART {
            self.apart.push(value);
            u32::try_from(self.apart.len() - 1).ok().filter(|&index| index != INLINE)?
        } else {
            self.text.extend_from_slice(&value);
            INLINE
        };
        self.entries.push(Entry { key_start, key_end, value_end: offset(&self.text)?, apart });
        Some(())
    }

    /// The object's text: members in key order (bytewise, as a `Value`'s map orders them),
    /// the last value of a key given twice. `None` if a key is not UTF-8 (every key was a
    /// `str`).
    fn into_text(mut self) -> Option<Vec<u8>> {
        let text = &self.text;
        let key = |entry: &Entry| &text[entry.key()];
        // In place (a stable sort takes a buffer of half the entries); a key given twice
        // keeps the order it was read in, by where its text starts.
        self.entries.sort_unstable_by(|a, b| key(a).cmp(key(b)).then(a.key_start.cmp(&b.key_start)));
        let mut object = Vec::with_capacity(text.len() + 4 * self.entries.len() + 2);
        object.push(b'{');
        let mut entries = self.entries.iter().peekable();
        let mut first = true;
        while let Some(entry) = entries.next() {
            if entries.peek().is_some_and(|next| key(next) == key(entry)) {
                continue;
            }
            if !first {
                object.push(b',');
            }
            first = false;
            write(&mut object, std::str::from_utf8(key(entry)).ok()?);
            object.push(b':');
            if entry.apart == INLINE {
                object.extend_from_slice(&text[entry.key_end as usize..entry.value_end as usize]);
            } else {
                join(&mut object, std::mem::take(&mut self.apart[entry.apart as usize]));
            }
        }
        object.push(b'}');
        Some(object)
    }
}

/// The result line of an accepted call, `{"coercions", "id", "ok", "omitted_coercions",
/// "repairs", "value"}` in that (sorted) order, as the program prints a result `Value`
/// (`"omitted_coercions"` only when not zero), written to `out`.
pub(crate) fn write_accepted(
    out: &mut impl std::io::Write,
    id: Option<&str>,
    checked: Checked<SortedJson>,
) -> std::io::Result<()> {
    let Checked { value: SortedJson(value), report } = checked;
    // Keys in sorted order; each record as the library serializes it, its keys sorted, one
    // at a time (a `Value` of every record at once may outweigh the call).
    out.write_all(b"{\"coercions\":")?;
    write_records(out, &report.coercions)?;
    if let Some(id) = id {
        // The id's JSON text, as the case wrote it.
        out.write_all(b",\"id\":")?;
        out.write_all(id.as_bytes())?;
    }
    out.write_all(b",\"ok\":true")?;
    if report.omitted_coercions > 0 {
        write!(out, ",\"omitted_coercions\":{}", report.omitted_coercions)?;
    }
    out.write_all(b",\"repairs\":")?;
    write_records(out, &report.repairs)?;
    out.write_all(b",\"value\":")?;
    out.write_all(&value)?;
    out.write_all(b"}")
}

/// One step from a value to a part of it: an object's member, or an array's item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

/// Write `value` as `serde_json` writes it with `formatter` (`CompactFormatter`: as
/// `to_writer`; `PrettyFormatter`: as `to_writer_pretty`), with some of its parts as given
/// JSON text, written as it is:
///
/// - `added`: members written into the root object besides its own, each a key and its
///   value's JSON text, each before the first of the object's own keys that sorts after it
///   (the program's objects have their keys sorted; none of them has an added key). A
///   root that is not an object has none.
/// - `raw`: the JSON text to write in place of the part at a path (the steps from the root)
///   with that value; `None` writes the part as it is.
pub(crate) fn write_json<'t, W, F, R>(
    out: &mut W,
    formatter: &mut F,
    value: &Value,
    added: &[(&str, &str)],
    raw: &R,
) -> io::Result<()>
where
    W: Write + ?Sized,
    F: Formatter,
    R: Fn(&[Step<'_>], &Value) -> Option<&'t str>,
{
    write_part(out, formatter, value, &mut Vec::new(), added, raw)
}

fn write_part<'v, 't, W, F, R>(
    out: &mut W,
    formatter: &mut F,
    value: &'v Value,
    path: &mut Vec<Step<'v>>,
    added: &[(&str, &str)],
    raw: &R,
) -> io::Result<()>
where
    W: Write + ?Sized,
    F: Formatter,
    R: Fn(&[Step<'_>], &Value) -> Option<&'t str>,
{
    if let Some(text) = raw(path, value) {
        return formatter.write_raw_fragment(out, text);
    }
    match value {
        Value::Object(members) => {
            // The calls `serde_json`'s serializer makes for a map, in its order.
            formatter.begin_object(out)?;
            let mut added = added.iter().peekable();
            let mut first = true;
            let mut member = |out: &mut W, formatter: &mut F, key: &str| -> io::Result<()> {
                formatter.begin_object_key(out, std::mem::take(&mut first))?;
                serde_json::to_writer(&mut *out, key)?;
                formatter.end_object_key(out)?;
                formatter.begin_object_value(out)
            };
            for (key, value) in members {
                while let Some((name, text)) = added.next_if(|(name, _)| *name < key.as_str()) {
                    member(out, formatter, name)?;
                    formatter.write_raw_fragment(out, text)?;
                    formatter.end_object_value(out)?;
                }
                member(out, formatter, key)?;
                path.push(Step::Key(key));
                write_part(out, formatter, value, path, &[], raw)?;
                path.pop();
                formatter.end_object_value(out)?;
            }
            for (name, text) in added {
                member(out, formatter, name)?;
                formatter.write_raw_fragment(out, text)?;
                formatter.end_object_value(out)?;
            }
            formatter.end_object(out)
        }
        Value::Array(items) => {
            formatter.begin_array(out)?;
            for (index, item) in items.iter().enumerate() {
                formatter.begin_array_value(out, index == 0)?;
                path.push(Step::Index(index));
                write_part(out, formatter, item, path, &[], raw)?;
                path.pop();
                formatter.end_array_value(out)?;
            }
            formatter.end_array(out)
        }
        // A scalar is written alike by every formatter of `serde_json`'s.
        scalar => Ok(serde_json::to_writer(&mut *out, scalar)?),
    }
}

/// A JSON array of `records`, each as its `Serialize` writes it, with sorted keys.
fn write_records<T: serde::Serialize>(out: &mut impl std::io::Write, records: &[T]) -> std::io::Result<()> {
    out.write_all(b"[")?;
    for (index, record) in records.iter().enumerate() {
        if index > 0 {
            out.write_all(b",")?;
        }
        let mut record = serde_json::to_value(record)?;
        crate::sort_keys(&mut record);
        serde_json::to_writer(&mut *out, &record)?;
    }
    out.write_all(b"]")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use tool_input::{RawArguments, Validator};

    use super::*;

    /// The line the program prints for a call (accepted ones written by this module), and the
    /// line the full check's `Value` gives.
    fn both_lines(validator: &Validator, raw: &str) -> (String, String) {
        let mut printed = Vec::new();
        crate::check::write_result(&mut printed, validator, Some("1"), RawArguments::Text(raw), None)
            .1
            .unwrap();
        assert_eq!(printed.pop(), Some(b'\n'));
        let full = crate::check::result_json(validator.check(RawArguments::Text(raw)), None);
        let mut written = Vec::new();
        crate::check::write_line(&mut written, &full, Some("1")).unwrap();
        (String::from_utf8(printed).unwrap(), String::from_utf8(written).unwrap())
    }

    fn validator() -> Validator {
        Validator::new(&json!({
            "type": "object",
            "properties": {
                "items": {"type": "array", "items": {"$ref": "#/$defs/item"}},
                "map": {"type": "object", "additionalProperties": {"type": "integer"}},
                "a/b~c": {"type": "string", "default": "slash"},
                "zeta": {"type": "boolean", "default": false},
                "free": {}
            },
            "$defs": {"item": {
                "type": "object",
                "properties": {"n": {"type": "integer"}, "flag": {"type": "boolean", "default": true}},
                "required": ["n"]
            }}
        }))
        .unwrap()
    }

    #[test]
    fn defaults_at_every_depth_and_records_in_the_full_checks_order() {
        let validator = validator();
        let items: Vec<String> = (0..12).map(|i| format!(r#"{{"n": "{i}"}}"#)).collect();
        let raw = format!(
            r#"{{"map": {{"9": "9", "10": "10", "b": 1, "A": "2"}}, "items": [{}], "free": {{"z": [1, {{"y": 2, "x": -0.0}}], "a": "\u0007"}}}}"#,
            items.join(", ")
        );
        let (printed, full) = both_lines(&validator, &raw);
        assert_eq!(printed, full);
        assert!(printed.contains(r#""flag":true"#) && printed.contains(r#""a/b~c":"slash""#), "{printed}");
        // Mangled text, read onto the tape.
        let mangled = raw.replace('"', "'").replace("}]", "},]");
        let (printed, full) = both_lines(&validator, &mangled);
        assert_eq!(printed, full);
    }

    #[test]
    fn what_the_one_pass_leaves_to_the_full_check_prints_the_same_line() {
        let validator = validator();
        // Rejections: a missing required property, a value no coercion fixes, a key given
        // twice with two values.
        for raw in
            [r#"{"items": [{"flag": true}]}"#, r#"{"map": {"a": "x"}}"#, r#"{"zeta": false, "zeta": true}"#]
        {
            let (printed, full) = both_lines(&validator, raw);
            assert_eq!(printed, full, "{raw}");
            assert!(printed.contains(r#""ok":false"#), "{printed}");
        }
        // A key given twice with one value (only the walk reads repeats), and a default the
        // full check changes once filled (`2.0` written as `2`): accepted by the walk.
        let (printed, full) = both_lines(&validator, r#"{"zeta": true, "zeta": true}"#);
        assert_eq!(printed, full);
        assert!(printed.contains(r#""kind":"duplicate_key""#), "{printed}");
        let rewritten =
            Validator::new(&json!({"properties": {"n": {"type": "integer", "default": 2.0}}})).unwrap();
        let (printed, full) = both_lines(&rewritten, "{}");
        assert_eq!(printed, full);
        assert!(printed.contains(r#""value":{"n":2}"#), "{printed}");
    }

    #[test]
    fn members_are_joined_in_key_order_large_values_apart() {
        let validator = validator();
        let long = "x".repeat(APART + 10);
        let raw = format!(
            r#"{{"free": {{"b": "{long}", "é": 1, "a": [{{"z": "{long}", "y": 2}}], "B": null}}, "zeta": true}}"#
        );
        let (printed, full) = both_lines(&validator, &raw);
        assert_eq!(printed, full);
        // A key given twice (only a value read from a string can hold one): the last wins.
        let mut members = Members::default();
        members.push("b", b"1".to_vec()).unwrap();
        members.push("a", vec![b'2'; APART + 1]).unwrap();
        members.push("b", b"3".to_vec()).unwrap();
        let text = members.into_text().unwrap();
        assert!(
            text.starts_with(br#"{"a":22"#) && text.ends_with(br#"2,"b":3}"#),
            "{}",
            String::from_utf8_lossy(&text)
        );
    }

    /// `write_json` into a string, compact or pretty.
    fn json_text<'t>(
        value: &Value,
        pretty: bool,
        added: &[(&str, &str)],
        raw: &impl Fn(&[Step<'_>], &Value) -> Option<&'t str>,
    ) -> String {
        let mut text = Vec::new();
        if pretty {
            write_json(&mut text, &mut serde_json::ser::PrettyFormatter::new(), value, added, raw).unwrap();
        } else {
            write_json(&mut text, &mut serde_json::ser::CompactFormatter, value, added, raw).unwrap();
        }
        String::from_utf8(text).unwrap()
    }

    #[test]
    fn write_json_writes_what_serde_json_writes_when_nothing_is_raw() {
        let values = [
            json!(null),
            json!("a \"quoted\" \u{7} é line\nbreak"),
            json!(-0.0),
            json!([]),
            json!({}),
            json!([[], {}, [[]], {"a": {}}]),
            json!({"b": [1, 2.5, -3, 1e300, u64::MAX, i64::MIN], "a": {"z": null, "y": [true, false]}, "é": "x"}),
        ];
        for value in &values {
            assert_eq!(json_text(value, false, &[], &|_, _| None), serde_json::to_string(value).unwrap());
            assert_eq!(
                json_text(value, true, &[], &|_, _| None),
                serde_json::to_string_pretty(value).unwrap()
            );
        }
    }

    #[test]
    fn write_json_adds_members_in_key_order_and_writes_raw_parts_as_given() {
        let id = [("id", "1e2")];
        for (value, expected) in [
            (json!({}), r#"{"id":1e2}"#),
            (json!({"a": 1}), r#"{"a":1,"id":1e2}"#),
            (json!({"z": 1}), r#"{"id":1e2,"z":1}"#),
            (
                json!({"errors": [], "kind": "parse", "ok": false}),
                r#"{"errors":[],"id":1e2,"kind":"parse","ok":false}"#,
            ),
            // The root only, and only an object.
            (json!({"a": {"b": 1}}), r#"{"a":{"b":1},"id":1e2}"#),
            (json!([1]), "[1]"),
        ] {
            assert_eq!(json_text(&value, false, &id, &|_, _| None), expected);
        }
        assert_eq!(json_text(&json!({}), true, &id, &|_, _| None), "{\n  \"id\": 1e2\n}");

        // In place of the part at a path, or of every part with a value.
        // Keys written in sorted order: a build with `serde_json`'s `preserve_order` (any
        // crate in the build may switch it on) keeps them as written.
        let value =
            json!({"arguments": 2, "calls": [{"arguments": {"n": 1.0}, "id": "a"}, {"arguments": {}}]});
        let second = |path: &[Step<'_>], _: &Value| match path {
            [Step::Key("calls"), Step::Index(1), Step::Key("arguments")] => Some("{ \"raw\" }"),
            _ => None,
        };
        assert_eq!(
            json_text(&value, false, &[], &second),
            r#"{"arguments":2,"calls":[{"arguments":{"n":1.0},"id":"a"},{"arguments":{ "raw" }}]}"#
        );
        let floats = |_: &[Step<'_>], value: &Value| value.is_f64().then_some("1.00");
        assert_eq!(
            json_text(&value, true, &[], &floats),
            serde_json::to_string_pretty(&value).unwrap().replace("1.0", "1.00")
        );
        assert_eq!(json_text(&value, false, &[], &|path, _| path.is_empty().then_some("0")), "0");
    }

    #[test]
    fn joining_puts_the_parts_in_order_whichever_is_larger() {
        let mut text = b"[1,".to_vec();
        join(&mut text, vec![b'2'; 1000]);
        assert_eq!(text.len(), 1003);
        assert_eq!(&text[..4], b"[1,2");
        let mut text = vec![b'x'; 10];
        join(&mut text, b"yz".to_vec());
        assert_eq!(text, b"xxxxxxxxxxyz");
    }
}
