//! What keeps a text from being strict JSON where the lenient grammar reads it as the strict
//! JSON it would be without: trailing commas (`[1, 2,]`), keys without quotes
//! (`{city: "Paris"}`), and Python's spelling of a dict (`{'a': True, 'b': None}`: strings in
//! single quotes, the literals `True`, `False`, `None`). Found by reading the text's strings as
//! strict JSON reads them (`"` only, a backslash escaping the byte after it) and the rest with
//! the lexer's own rules, so that mending them (dropping the commas, quoting the keys, a `'`
//! string quoted with `"`, a literal spelled as JSON spells it) makes strict JSON only of a
//! text the lenient grammar reads as that JSON, with a repair for each mend
//! (`trailing_comma`, `unquoted_key`, `single_quotes`, `python_literal`):
//! - a mend touches no `"` or backslash of the text, so the mended text's strings are this
//!   reading's, plus the ones it quoted;
//! - a key is quoted only where the lexer starts and ends the same key; a comma is dropped
//!   only before a closing bracket, after a value;
//! - a `'` string is mended only where it holds no `"`, backslash or control character and
//!   its first closing `'` is followed by a delimiter (`,` `:` `}` `]`), which is where the
//!   lexer ends it too;
//! - a literal only as the whole word the lexer reads.
//!
//! `serde_json` then says whether the mended text is strict JSON.

use std::cell::Cell;

use super::bytes::{is_key_byte, is_key_start, is_word_byte};
use super::spans::string_end;
use crate::parse::spare::{self, MOST_KEPT};

/// One mend of a text (offsets in it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mend {
    /// The trailing comma at this offset is dropped.
    Comma(usize),
    /// The key without quotes from `.0` to `.1` is quoted.
    Key(usize, usize),
    /// The string in single quotes from its opening quote at `.0` to its closing quote at
    /// `.1` is quoted with `"`.
    SingleQuoted(usize, usize),
    /// The Python literal at this offset is spelled as JSON spells it.
    Literal(usize, PythonLiteral),
}

/// A Python literal, by its JSON spelling.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PythonLiteral {
    True,
    False,
    None,
}

impl PythonLiteral {
    /// The literal `word` spells in Python.
    fn of(word: &[u8]) -> Option<PythonLiteral> {
        match word {
            b"True" => Some(PythonLiteral::True),
            b"False" => Some(PythonLiteral::False),
            b"None" => Some(PythonLiteral::None),
            _ => None,
        }
    }

    /// Its length as Python spells it.
    pub(crate) fn python_len(self) -> usize {
        match self {
            PythonLiteral::True | PythonLiteral::None => 4,
            PythonLiteral::False => 5,
        }
    }

    /// As JSON spells it.
    pub(crate) fn json(self) -> &'static str {
        match self {
            PythonLiteral::True => "true",
            PythonLiteral::False => "false",
            PythonLiteral::None => "null",
        }
    }
}

impl Mend {
    /// Where the mend is.
    pub(crate) fn at(self) -> usize {
        match self {
            Mend::Comma(at) | Mend::Key(at, _) | Mend::SingleQuoted(at, _) | Mend::Literal(at, _) => at,
        }
    }
}

/// Whether `bytes` (a value, from its opening bracket) may need mending, at a glance: a
/// closing bracket after a comma, or a container whose first key or item has no quotes or
/// single ones. Models that leave out quotes, or write Python, do so from the first.
pub(crate) fn may_need_mends(bytes: &[u8]) -> bool {
    let first = bytes.get(skip_json_ws(bytes, 1)).copied();
    let opens_object = bytes.first() == Some(&b'{');
    let mendable_first = |b: u8| match b {
        // A `'` string, or a Python literal (in an object, a key without quotes).
        b'\'' | b'T' | b'F' | b'N' => true,
        _ => opens_object && opens_key(b),
    };
    if first.is_some_and(mendable_first) {
        return true;
    }
    let comma_before = |closer: usize| {
        let before = bytes.get(..closer).unwrap_or_default();
        before.iter().rev().find(|b| !is_json_ws(**b)) == Some(&b',')
    };
    memchr::memchr2_iter(b'}', b']', bytes).any(comma_before)
}

/// Where the mending of `bytes` would start when `serde_json` refused it at `at` (the byte
/// it peeked at when it stopped): at the comma before a closing bracket there, at a key
/// without quotes there, at a `'` or a Python literal where a key or value starts. `None`
/// when it stopped at anything else. Everything before is strict JSON as `serde_json` read
/// it, outside any string.
pub(crate) fn mend_at(bytes: &[u8], at: usize) -> Option<usize> {
    let &b = bytes.get(at)?;
    let before = bytes.get(..at)?;
    let last = before.iter().rposition(|b| !is_json_ws(*b));
    match (b, last.and_then(|last| before.get(last))) {
        (b'}' | b']', Some(b',')) => last,
        (b, Some(b'{' | b',')) if opens_key(b) => Some(at),
        (b'\'', Some(b'{' | b'[' | b',' | b':')) => Some(at),
        (b'T' | b'F' | b'N', Some(b'[' | b',' | b':')) => Some(at),
        _ => None,
    }
}

/// Where the first key of the object `bytes` opens (white space aside), when it opens as no
/// strict JSON key does (not with `"`, the object not empty): the byte `serde_json` would stop
/// at, without its reading. `None` when the text does not open with `{` after JSON white
/// space, or its first key is quoted, or it has none.
pub(crate) fn unquoted_first_key(bytes: &[u8]) -> Option<usize> {
    let open = skip_json_ws(bytes, 0);
    if bytes.get(open) != Some(&b'{') {
        return None;
    }
    let first = skip_json_ws(bytes, open + 1);
    (!matches!(bytes.get(first), Some(b'"' | b'}') | None)).then_some(first)
}

/// The mends of `bytes`, in the order of the text, read from `from` (where the text is
/// outside any string; nothing before it needs mending), at most `limit` of them. Strings
/// run to their closing `"` as `spans::string_end` reads them, a backslash escaping the byte
/// after it. Empty when there are none, or when a string never closes or a `'` string is not
/// one to mend (no strict JSON then, mended or not); a search stopped at `limit` does not
/// look past it for either.
///
/// What a byte means here depends only on the last byte outside strings that is not white
/// space (`last`). Where that opens a place for a key or a value (`{` `[` `,` `:`, or
/// nothing yet), the next token may be a mend; after anything else (a value, a closing
/// bracket), only a `"` or a byte of structure can start one or open such a place again, and
/// the bytes between are passed over unread. The two places are two loops, not one `match`
/// on every byte: which token comes next is then a branch a processor predicts from where it
/// is, not a jump among a dozen targets.
pub(crate) fn mends(bytes: &[u8], from: usize, limit: usize) -> Vec<Mend> {
    // The vector the last frame on this thread gave back ([`give_back`]), emptied: one
    // allocation a thread rather than one or more a call.
    let mut mends = spare::take(&SPARE_MENDS);
    if search(bytes, from, limit, &mut mends).is_none() {
        mends.clear();
    }
    // (The search of a value's end may have found one more.)
    mends.truncate(limit);
    mends
}

/// Gives a vector of mends back to the thread's next search ([`spare`]).
pub(crate) fn give_back(mends: Vec<Mend>) {
    spare::give_back(&SPARE_MENDS, mends, MOST_KEPT);
}

/// The room of the vector of mends the thread keeps spare (for tests of when it is given
/// back).
#[cfg(test)]
pub(crate) fn spare_room() -> usize {
    SPARE_MENDS.with(|spare| {
        let mends = spare.take();
        let room = mends.capacity();
        spare.set(mends);
        room
    })
}

thread_local! {
    /// The mends' vector a frame gave back (see [`spare`]).
    static SPARE_MENDS: Cell<Vec<Mend>> = const { Cell::new(Vec::new()) };
}

/// [`mends`]' search, into `mends`; `None` where a string never closes or a `'` string is
/// not one to mend.
fn search(bytes: &[u8], from: usize, limit: usize, mends: &mut Vec<Mend>) -> Option<()> {
    // The last byte outside strings that is not white space; 0 before any.
    let before = bytes.get(..from).unwrap_or_default();
    let mut last = before.iter().rev().find(|b| !is_json_ws(**b)).copied().unwrap_or(0);
    let mut i = from;
    if !opens_place(last) {
        i = after_value(bytes, i, &mut last, mends)?;
    }
    // At a place for a key or a value.
    while i < bytes.len() && mends.len() < limit {
        i = skip_json_ws(bytes, i);
        let Some(&b) = bytes.get(i) else { break };
        if b == b'"' {
            i = string_end(bytes, i, b'"')?;
        } else if OPENS_PLACE[usize::from(b)] {
            // A comma here follows no value: it is no trailing comma.
            last = b;
            i += 1;
            continue;
        } else if b == b'\'' && last != 0 {
            let close = single_quoted_end(bytes, i + 1)?;
            mends.push(Mend::SingleQuoted(i, close));
            i = close + 1;
        } else if let Some((mend, end)) = word_mend(bytes, i, last) {
            mends.push(mend);
            i = end;
        } else {
            i += 1;
        }
        i = after_value(bytes, i, &mut last, mends)?;
    }
    Some(())
}

/// From `bytes[i]`, after a value: past strings and everything else to the next byte of
/// structure that opens a place for a key or a value (`,` `{` `[` `:`, or a NUL byte, which
/// `last` reads as nothing yet), which it leaves in `last`, with a trailing comma's mend.
/// The index just after it, or `bytes.len()`; `None` when a string never closes.
#[inline(always)]
fn after_value(bytes: &[u8], mut i: usize, last: &mut u8, mends: &mut Vec<Mend>) -> Option<usize> {
    loop {
        while bytes.get(i).is_some_and(|&b| !STRUCTURE[usize::from(b)]) {
            i += 1;
        }
        let Some(&b) = bytes.get(i) else { return Some(bytes.len()) };
        if b == b'"' {
            i = string_end(bytes, i, b'"')?;
            continue;
        }
        if b == b',' && matches!(bytes.get(skip_json_ws(bytes, i + 1)), Some(b'}' | b']')) {
            mends.push(Mend::Comma(i));
        }
        *last = b;
        return Some(i + 1);
    }
}

/// The bytes [`after_value`] stops at: a string, or structure that opens a place.
static STRUCTURE: [bool; 256] = {
    let mut table = PLACE_OPENERS;
    table[b'"' as usize] = true;
    table
};

/// Does `last` open a place for a key or a value (or is it nothing yet)?
fn opens_place(last: u8) -> bool {
    OPENS_PLACE[usize::from(last)]
}

/// The bytes [`opens_place`] says yes to.
static OPENS_PLACE: [bool; 256] = PLACE_OPENERS;

/// `{` `[` `,` `:`, which open a place for a key or a value, and 0, `last`'s "nothing yet".
const PLACE_OPENERS: [bool; 256] = {
    let mut table = [false; 256];
    table[0] = true;
    table[b'{' as usize] = true;
    table[b'[' as usize] = true;
    table[b',' as usize] = true;
    table[b':' as usize] = true;
    table
};

/// At `bytes[i]`, a byte `is_key_start` or `is_python_literal_start` allows after `last`:
/// the key without quotes (a `:` after it) or the Python literal (the whole word) it starts,
/// with the index just after it.
fn word_mend(bytes: &[u8], i: usize, last: u8) -> Option<(Mend, usize)> {
    if matches!(last, b'{' | b',') && bytes.get(i).copied().is_some_and(opens_key) {
        let end = run_end(bytes, i, is_key_byte);
        if bytes.get(skip_json_ws(bytes, end)) == Some(&b':') {
            return Some((Mend::Key(i, end), end));
        }
    }
    if bytes.get(i).is_some_and(|&b| is_python_literal_start(b, last)) {
        let end = run_end(bytes, i, is_word_byte);
        let literal = bytes.get(i..end).and_then(PythonLiteral::of)?;
        return Some((Mend::Literal(i, literal), end));
    }
    None
}

/// May `b`, after `last`, start a Python literal where a value starts?
fn is_python_literal_start(b: u8, last: u8) -> bool {
    matches!(b, b'T' | b'F' | b'N') && matches!(last, b'[' | b',' | b':')
}

/// The index of the first byte at or after `i` that `class` refuses, or `bytes.len()`.
fn run_end(bytes: &[u8], i: usize, class: fn(u8) -> bool) -> usize {
    let run = bytes.get(i..).unwrap_or_default().iter().position(|&b| !class(b));
    run.map_or(bytes.len(), |k| i + k)
}

/// From `bytes[i]`, inside a string opened by `'`: the index of its closing `'`, where the
/// lexer ends it too: the first `'`, followed by JSON white space and a delimiter. `None`
/// when the string holds a backslash or a control character first (a mend would have to
/// decode it as Python does), or a `"` (escaped, the string would cost `serde_json` a copy
/// the repairing parser's reading does not make: such texts are left to it), or its first
/// `'` is not followed so (an apostrophe, which the lexer reads on past).
fn single_quoted_end(bytes: &[u8], i: usize) -> Option<usize> {
    let close = i + bytes.get(i..)?.iter().position(|&b| matches!(b, b'\'' | b'"' | b'\\' | 0..=0x1f))?;
    let delimited = matches!(bytes.get(skip_json_ws(bytes, close + 1)), Some(b',' | b':' | b'}' | b']'));
    (bytes.get(close) == Some(&b'\'') && delimited).then_some(close)
}

/// May `b`, where a key is expected, start one without quotes? As the lexer reads a key:
/// an ASCII key byte, not the `.` that starts `...` (a multi-byte character starts other
/// things there: a smart quote, special white space).
fn opens_key(b: u8) -> bool {
    is_key_start(b) && b < 0x80 && b != b'.'
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
        let found = mends(text, 0, usize::MAX);
        let described: Vec<String> = found
            .iter()
            .map(|mend| match *mend {
                Mend::Comma(at) => format!("comma {}", text[at] as char),
                Mend::Key(start, end) => String::from_utf8_lossy(&text[start..end]).into_owned(),
                Mend::SingleQuoted(open, close) => {
                    format!("'{}'", String::from_utf8_lossy(&text[open + 1..close]))
                }
                Mend::Literal(_, literal) => literal.json().to_owned(),
            })
            .collect();
        assert_eq!(described, ["a", "b_1", "comma ,", "comma ,", "$ref-x.y", "comma ,"]);
        let python = "{'a': True, 'b': [None, False,], True: 'it is, said', 'c': 'Zoë', d: ''}";
        let found = mends(python.as_bytes(), 0, usize::MAX);
        let described: Vec<String> = found
            .iter()
            .map(|mend| match *mend {
                Mend::Comma(_) => "comma".to_owned(),
                Mend::Key(start, end) => python[start..end].to_owned(),
                Mend::SingleQuoted(open, close) => format!("'{}'", &python[open + 1..close]),
                Mend::Literal(_, literal) => literal.json().to_owned(),
            })
            .collect();
        assert_eq!(
            described,
            [
                "'a'",
                "true",
                "'b'",
                "null",
                "false",
                "comma",
                "True",
                "'it is, said'",
                "'c'",
                "'Zoë'",
                "d",
                "''"
            ]
        );
        // Not mended: a `'` string holding a backslash or a `"`, one whose first `'` is an
        // apostrophe.
        for text in ["{'a': 'x\\n'}", "{'a': 'it's'}", "{'a': 'say \"hi\"'}"] {
            assert_eq!(mends(text.as_bytes(), 0, usize::MAX), [], "{text:?}");
        }
        assert_eq!(mends(b"[Truex, none]", 0, usize::MAX), []);
        // Not mends: a comma after an opener or another comma, a word that is a value, a
        // key that starts with a dot or a multi-byte character, a string that never closes.
        for text in ["[,]", "[1,,]", "{\"a\": b}", "[a, b]", "{.a: 1}", "{\u{e9}: 1}", "{a: \"x,]"] {
            assert_eq!(mends(text.as_bytes(), 0, usize::MAX), [], "{text:?}");
        }
    }

    #[test]
    fn a_refusal_points_at_a_mend_or_not() {
        assert_eq!(mend_at(b"[1, 2 ,\n]", 8), Some(6));
        assert_eq!(mend_at(b"{\"a\": 1, b: 2}", 9), Some(9));
        assert_eq!(mend_at(b"{ key: 1}", 2), Some(2));
        assert_eq!(mend_at(b"[1 2]", 3), None);
        assert_eq!(mend_at(b"{\"a\": True}", 6), Some(6));
        assert_eq!(mend_at(b"{'a': 1}", 1), Some(1));
        assert_eq!(mend_at(b"{\"a\": 1 True}", 9), None);
        assert_eq!(mend_at(b"{\"a\": NaN}", 6), Some(6));
        assert_eq!(unquoted_first_key(b" {\n a: 1}"), Some(4));
        assert_eq!(unquoted_first_key(b"{'a': 1}"), Some(1));
        assert_eq!(unquoted_first_key(b"{\"a\": 1}"), None);
        assert_eq!(unquoted_first_key(b"{ }"), None);
        assert_eq!(unquoted_first_key(b"[a]"), None);
        assert!(may_need_mends(b"{ a: 1}"));
        assert!(may_need_mends(b"[1,\n]"));
        assert!(!may_need_mends(b"{\"a\": [1, 2], \"b\": \"x\"}"));
        // A glance, not a reading: a string holding `,]` is looked at, to find nothing.
        assert!(may_need_mends(b"{\"b\": \"x,]\"}"));
        assert_eq!(mends(b"{\"b\": \"x,]\"}", 0, usize::MAX), []);
    }

    /// The search as first written, a byte at a time with one `match`: the reference the
    /// search by places must agree with.
    fn mends_a_byte_at_a_time(bytes: &[u8], from: usize) -> Vec<Mend> {
        let mut mends = Vec::new();
        let before = bytes.get(..from).unwrap_or_default();
        let mut last = before.iter().rev().find(|b| !is_json_ws(**b)).copied().unwrap_or(0);
        let mut i = from;
        while let Some(&b) = bytes.get(i) {
            match b {
                b'"' => {
                    match string_end(bytes, i, b'"') {
                        Some(end) => i = end,
                        None => return Vec::new(),
                    }
                    last = b'"';
                    continue;
                }
                b',' => {
                    let follows_value = !opens_place(last);
                    if follows_value && matches!(bytes.get(skip_json_ws(bytes, i + 1)), Some(b'}' | b']')) {
                        mends.push(Mend::Comma(i));
                    }
                    last = b',';
                }
                b' ' | b'\t' | b'\n' | b'\r' => {}
                b'\'' if matches!(last, b'{' | b'[' | b',' | b':') => {
                    let Some(close) = single_quoted_end(bytes, i + 1) else { return Vec::new() };
                    mends.push(Mend::SingleQuoted(i, close));
                    last = b'"';
                    i = close + 1;
                    continue;
                }
                _ => match word_mend(bytes, i, last) {
                    Some((mend, end)) => {
                        last = if matches!(mend, Mend::Key(..)) { b'"' } else { b'e' };
                        mends.push(mend);
                        i = end;
                        continue;
                    }
                    None => last = b,
                },
            }
            i += 1;
        }
        mends
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config::with_cases(4000))]
        #[test]
        fn the_search_by_places_finds_what_a_byte_at_a_time_finds(
            pieces in proptest::collection::vec(proptest::sample::select(vec![
                "{", "}", "[", "]", ",", ":", " ", "\n", "\"", "\\", "'", "a", "key_1", "$r.x",
                "True", "False", "None", "true", "null", "12", "-1.5e3", "\"s,]\"", "'x'",
                "'it's'", "\u{0}", "\u{e9}", ".", "Tru", "#", "x\"y",
            ]), 0..40),
            from in 0usize..8,
        ) {
            let text = pieces.concat();
            let bytes = text.as_bytes();
            // `from` is a place outside strings: the start, or just after a byte of structure.
            let from = bytes
                .iter()
                .enumerate()
                .filter(|(_, b)| matches!(b, b'{' | b'[' | b',' | b':'))
                .map(|(at, _)| at + 1)
                .nth(from)
                .filter(|&at| !bytes[..at].contains(&b'"') && !bytes[..at].contains(&b'\''))
                .unwrap_or(0);
            let all = mends_a_byte_at_a_time(bytes, from);
            proptest::prop_assert_eq!(&mends(bytes, from, usize::MAX), &all, "{:?} from {}", text, from);
            // Searched to the first only, the first (which a string that never closes after it
            // does not undo).
            if !all.is_empty() {
                proptest::prop_assert_eq!(&mends(bytes, from, 1)[..], &all[..1], "{:?} from {}", text, from);
            }
        }
    }
}
