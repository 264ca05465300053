//! An accepted call's value as the program prints it (compact JSON, every object's keys
//! sorted, as `serde_json` prints a `Value`), written as the one-pass check reads it: no
//! `serde_json::Value` tree, whose maps and strings take four to five times the input.
//!
//! Each object's members are held as text until the object closes, then joined in key
//! order; an array's items are appended as they are read. Joining puts the smaller text
//! into the larger one's buffer, so a large array is never copied whole.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;
use tool_input::{CheckOptions, Checked, CoercionKind, RawArguments, Validator};

/// A checked value as compact JSON with sorted keys.
pub(crate) struct SortedJson(pub(crate) Vec<u8>);

/// The accepted value and its report, when one pass decides the call (see
/// [`Validator::check_one_pass`]); `None` when it takes the full check.
///
/// The defaults of absent properties are not in a value read in one pass: when the report
/// fills any, the call is read a second time, adding each where its record says.
pub(crate) fn check_one_pass(validator: &Validator, raw: RawArguments<'_>) -> Option<Checked<SortedJson>> {
    let options = CheckOptions::default();
    let checked = validator.check_one_pass::<SortedJson>(raw, &options)?;
    let mut defaults: HashMap<String, Vec<(String, Vec<u8>)>> = HashMap::new();
    for record in checked.report.coercions.iter().filter(|c| c.kind == CoercionKind::DefaultFilled) {
        let mut default = validator.default_at(&record.path)?.clone();
        crate::sort_keys(&mut default);
        let (object, name) = record.path.rsplit_once('/')?;
        let text = serde_json::to_vec(&default).ok()?;
        defaults.entry(object.to_owned()).or_default().push((unescape_token(name), text));
    }
    if defaults.is_empty() {
        return Some(checked);
    }
    // The first reading is dropped before the second is made (its record count kept).
    let recorded = (checked.report.repairs.len(), checked.report.coercions.len());
    drop(checked);
    let filling = Filling::start(defaults);
    let checked = validator.check_one_pass::<SortedJson>(raw, &options)?;
    // The same reading, and every default found its object (else the full check decides).
    if !filling.finish() || (checked.report.repairs.len(), checked.report.coercions.len()) != recorded {
        return None;
    }
    Some(checked)
}

thread_local! {
    /// The defaults the reading adds (see [`Filling`]). A thread-local, because serde gives
    /// `Deserialize::deserialize` no context, and the one-pass check takes a `Deserialize`.
    static FILL: RefCell<Option<Fill>> = const { RefCell::new(None) };
}

/// Defaults to add, by the JSON Pointer of their object, and where the reading is.
struct Fill {
    defaults: HashMap<String, Vec<(String, Vec<u8>)>>,
    /// The objects given their defaults (a reading the one pass abandons, such as the strict
    /// attempt on text with prose after it, may have given them already: each reading of an
    /// object gives them).
    placed: HashSet<String>,
    /// The pointer of the value being read.
    at: String,
}

/// Adds defaults to the values read while it lives.
struct Filling;

impl Filling {
    fn start(defaults: HashMap<String, Vec<(String, Vec<u8>)>>) -> Filling {
        let fill = Fill { defaults, placed: HashSet::new(), at: String::new() };
        FILL.with(|cell| *cell.borrow_mut() = Some(fill));
        Filling
    }

    /// Did the values read take every default?
    fn finish(self) -> bool {
        let Some(fill) = FILL.with(|cell| cell.borrow_mut().take()) else { return false };
        fill.defaults.keys().all(|object| fill.placed.contains(object))
    }
}

impl Drop for Filling {
    fn drop(&mut self) {
        FILL.with(|cell| *cell.borrow_mut() = None);
    }
}

/// Read one member's or item's value with `token` appended to the pointer, when defaults
/// are being filled.
fn at_token<T>(token: impl FnOnce() -> String, read: impl FnOnce() -> T) -> T {
    let mark = FILL.with(|fill| {
        fill.borrow_mut().as_mut().map(|fill| {
            let mark = fill.at.len();
            fill.at.push('/');
            fill.at.push_str(&escape_token(&token()));
            mark
        })
    });
    let result = read();
    if let Some(mark) = mark {
        FILL.with(|fill| {
            if let Some(fill) = fill.borrow_mut().as_mut() {
                fill.at.truncate(mark);
            }
        });
    }
    result
}

/// The defaults to add to the object being read.
fn defaults_here() -> Vec<(String, Vec<u8>)> {
    FILL.with(|fill| {
        let mut fill = fill.borrow_mut();
        let Some(fill) = fill.as_mut() else { return Vec::new() };
        let Some(defaults) = fill.defaults.get(&fill.at) else { return Vec::new() };
        let defaults = defaults.clone();
        let at = fill.at.clone();
        fill.placed.insert(at);
        defaults
    })
}

/// A JSON Pointer reference token (RFC 6901), escaped and read back, as the library writes
/// the paths of its records.
fn escape_token(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

fn unescape_token(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

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
        let mut index = 0usize;
        while let Some(SortedJson(item)) = at_token(|| index.to_string(), || seq.next_element())? {
            if index > 0 {
                text.push(b',');
            }
            join(&mut text, item);
            index += 1;
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
            let SortedJson(value) = at_token(|| key.clone(), || map.next_value())?;
            members.push(&key, value).ok_or_else(too_large)?;
        }
        for (key, value) in defaults_here() {
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

/// The result line of an accepted call, `{"coercions", "id", "ok", "repairs", "value"}` in
/// that (sorted) order, as the program prints a result `Value`, written to `out`.
pub(crate) fn write_accepted(
    out: &mut impl std::io::Write,
    id: Option<Value>,
    checked: Checked<SortedJson>,
) -> std::io::Result<()> {
    let Checked { value: SortedJson(value), report } = checked;
    // Keys in sorted order; each record as the library serializes it, its keys sorted, one
    // at a time (a `Value` of every record at once may outweigh the call).
    out.write_all(b"{\"coercions\":")?;
    write_records(out, &report.coercions)?;
    if let Some(id) = id {
        out.write_all(b",\"id\":")?;
        let mut id = id;
        crate::sort_keys(&mut id);
        serde_json::to_writer(&mut *out, &id)?;
    }
    out.write_all(b",\"ok\":true,\"repairs\":")?;
    write_records(out, &report.repairs)?;
    out.write_all(b",\"value\":")?;
    out.write_all(&value)?;
    out.write_all(b"}")
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

    use super::*;

    /// The line of an accepted call as this module writes it, and as the full check's
    /// `Value` gives it; `None` when the one pass does not decide the call.
    fn both_lines(validator: &Validator, raw: &str) -> Option<(String, String)> {
        let checked = check_one_pass(validator, RawArguments::Text(raw))?;
        let mut printed = Vec::new();
        write_accepted(&mut printed, Some(json!(1)), checked).unwrap();
        let full = crate::check::result_json(Some(json!(1)), validator.check(RawArguments::Text(raw)), None);
        Some((String::from_utf8(printed).unwrap(), serde_json::to_string(&full).unwrap()))
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
        let (printed, full) = both_lines(&validator, &raw).expect("one pass decides it");
        assert_eq!(printed, full);
        assert!(printed.contains(r#""flag":true"#) && printed.contains(r#""a/b~c":"slash""#), "{printed}");
        // Mangled text, read onto the tape.
        let mangled = raw.replace('"', "'").replace("}]", "},]");
        let (printed, full) = both_lines(&validator, &mangled).expect("one pass decides it");
        assert_eq!(printed, full);
    }

    #[test]
    fn what_one_pass_cannot_decide_is_left_to_the_full_check() {
        let validator = validator();
        for raw in
            [r#"{"items": [{"flag": true}]}"#, r#"{"map": {"a": "x"}}"#, r#"{"zeta": false, "zeta": true}"#]
        {
            assert!(both_lines(&validator, raw).is_none(), "{raw}");
        }
        // A default the full check changes once filled (`2.0` written as `2`).
        let rewritten =
            Validator::new(&json!({"properties": {"n": {"type": "integer", "default": 2.0}}})).unwrap();
        assert!(both_lines(&rewritten, "{}").is_none());
    }

    #[test]
    fn members_are_joined_in_key_order_large_values_apart() {
        let validator = validator();
        let long = "x".repeat(APART + 10);
        let raw = format!(
            r#"{{"free": {{"b": "{long}", "é": 1, "a": [{{"z": "{long}", "y": 2}}], "B": null}}, "zeta": true}}"#
        );
        let (printed, full) = both_lines(&validator, &raw).expect("one pass decides it");
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
