//! What keeps a text from being strict JSON where the lenient grammar reads it as the strict
//! JSON it would be without: trailing commas (`[1, 2,]`) and keys without quotes
//! (`{city: "Paris"}`). Found by reading the text's strings as strict JSON reads them (`"`
//! only, a backslash escaping the byte after it) and its keys with the lexer's own byte
//! classes, so that mending them (dropping the commas, quoting the keys) makes strict JSON
//! only of a text the lenient grammar reads as that JSON, with a `trailing_comma` or
//! `unquoted_key` repair for each mend: the strings are where this reading puts them (a mend
//! touches no quote or backslash), a key is the word the lexer reads as one (it starts where
//! the lexer starts a key and ends where it ends one), and a comma is one before a closing
//! bracket after a value. `serde_json` then says whether the mended text is strict JSON.

use super::bytes::{first_special, is_key_byte, is_key_start};

/// One mend of a text (offsets in it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mend {
    /// The trailing comma at this offset is dropped.
    Comma(usize),
    /// The key without quotes from `.0` to `.1` is quoted.
    Key(usize, usize),
}

impl Mend {
    /// Where the mend is.
    pub(crate) fn at(self) -> usize {
        match self {
            Mend::Comma(at) | Mend::Key(at, _) => at,
        }
    }
}

/// Whether `bytes` (a value, from its opening bracket) may need mending, at a glance: a
/// closing bracket after a comma, or an object whose first key has no quotes. Models that
/// leave out quotes leave them out of every key, the first too.
pub(crate) fn may_need_mends(bytes: &[u8]) -> bool {
    if bytes.first() == Some(&b'{') && bytes.get(skip_json_ws(bytes, 1)).copied().is_some_and(opens_key) {
        return true;
    }
    let comma_before = |closer: usize| {
        let before = bytes.get(..closer).unwrap_or_default();
        before.iter().rev().find(|b| !is_json_ws(**b)) == Some(&b',')
    };
    memchr::memchr2_iter(b'}', b']', bytes).any(comma_before)
}

/// Where the mending of `bytes` would start when `serde_json` refused it at `at` (the byte
/// it peeked at when it stopped): at the comma before a closing bracket there, or at a key
/// without quotes there. `None` when it stopped at anything else. Everything before is
/// strict JSON as `serde_json` read it, outside any string.
pub(crate) fn mend_at(bytes: &[u8], at: usize) -> Option<usize> {
    let &b = bytes.get(at)?;
    let before = bytes.get(..at)?;
    let last = before.iter().rposition(|b| !is_json_ws(*b));
    match (b, last.and_then(|last| before.get(last))) {
        (b'}' | b']', Some(b',')) => last,
        (b, Some(b'{' | b',')) if opens_key(b) => Some(at),
        _ => None,
    }
}

/// The mends of `bytes`, in the order of the text, read from `from` (where the text is
/// outside any string; nothing before it needs mending). Empty when there are none, or when
/// a string never closes or holds a control character (no strict JSON then, mended or not).
pub(crate) fn mends(bytes: &[u8], from: usize) -> Vec<Mend> {
    let mut mends = Vec::new();
    // The last byte outside strings that is not white space.
    let before = bytes.get(..from).unwrap_or_default();
    let mut last = before.iter().rev().find(|b| !is_json_ws(**b)).copied().unwrap_or(0);
    let mut i = from;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'"' => {
                match strict_string_end(bytes, i + 1) {
                    Some(end) => i = end,
                    None => return Vec::new(),
                }
                last = b'"';
                continue;
            }
            b',' => {
                let follows_value = !matches!(last, 0 | b'{' | b'[' | b',' | b':');
                if follows_value && matches!(bytes.get(skip_json_ws(bytes, i + 1)), Some(b'}' | b']')) {
                    mends.push(Mend::Comma(i));
                }
                last = b',';
            }
            b' ' | b'\t' | b'\n' | b'\r' => {}
            _ if matches!(last, b'{' | b',') && opens_key(b) => {
                let end = bytes.get(i..).unwrap_or_default().iter().position(|&b| !is_key_byte(b));
                let end = end.map_or(bytes.len(), |k| i + k);
                if bytes.get(skip_json_ws(bytes, end)) == Some(&b':') {
                    mends.push(Mend::Key(i, end));
                    last = b'"';
                    i = end;
                    continue;
                }
                last = b;
            }
            _ => last = b,
        }
        i += 1;
    }
    mends
}

/// May `b`, where a key is expected, start one without quotes? As the lexer reads a key:
/// an ASCII key byte, not the `.` that starts `...` (a multi-byte character starts other
/// things there: a smart quote, special white space).
fn opens_key(b: u8) -> bool {
    is_key_start(b) && b < 0x80 && b != b'.'
}

/// From `bytes[i]`, inside a string: the index just after its closing `"`, read as strict
/// JSON reads strings (eight bytes at a time, a backslash escaping the byte after it).
/// `None` at a control character (no strict JSON) or where the text ends first.
fn strict_string_end(bytes: &[u8], mut i: usize) -> Option<usize> {
    loop {
        let rest = bytes.get(i..)?;
        let at = i + first_special(rest, b'"');
        match *bytes.get(at)? {
            b'"' => return Some(at + 1),
            b'\\' => i = at + 2,
            _ => return None,
        }
    }
}

/// JSON's white space (RFC 8259: space, tab, line feed, carriage return).
fn is_json_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// The index of the first byte at or after `i` that is not JSON white space, or
/// `bytes.len()`.
fn skip_json_ws(bytes: &[u8], mut i: usize) -> usize {
    while bytes.get(i).copied().is_some_and(is_json_ws) {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mends_are_found_outside_strings_where_the_lexer_reads_them() {
        let text = br#"{a: [1, "x,]", {b_1: null,},], "c": "\",}", $ref-x.y: 2,}"#;
        let found = mends(text, 0);
        let described: Vec<String> = found
            .iter()
            .map(|mend| match *mend {
                Mend::Comma(at) => format!("comma {}", text[at] as char),
                Mend::Key(start, end) => String::from_utf8_lossy(&text[start..end]).into_owned(),
            })
            .collect();
        assert_eq!(described, ["a", "b_1", "comma ,", "comma ,", "$ref-x.y", "comma ,"]);
        // Not mends: a comma after an opener or another comma, a word that is a value, a
        // key that starts with a dot or a multi-byte character, a string that never closes.
        for text in ["[,]", "[1,,]", "{\"a\": b}", "[a, b]", "{.a: 1}", "{\u{e9}: 1}", "{a: \"x,]"] {
            assert_eq!(mends(text.as_bytes(), 0), [], "{text:?}");
        }
    }

    #[test]
    fn a_refusal_points_at_a_mend_or_not() {
        assert_eq!(mend_at(b"[1, 2 ,\n]", 8), Some(6));
        assert_eq!(mend_at(b"{\"a\": 1, b: 2}", 9), Some(9));
        assert_eq!(mend_at(b"{ key: 1}", 2), Some(2));
        assert_eq!(mend_at(b"[1 2]", 3), None);
        assert_eq!(mend_at(b"{'a': 1}", 1), None);
        assert_eq!(mend_at(b"{\"a\": True}", 6), None);
        assert!(may_need_mends(b"{ a: 1}"));
        assert!(may_need_mends(b"[1,\n]"));
        assert!(!may_need_mends(b"{\"a\": [1, 2], \"b\": \"x\"}"));
        // A glance, not a reading: a string holding `,]` is looked at, to find nothing.
        assert!(may_need_mends(b"{\"b\": \"x,]\"}"));
        assert_eq!(mends(b"{\"b\": \"x,]\"}", 0), []);
    }
}
