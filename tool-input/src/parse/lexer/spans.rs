//! Where a value ends in a text, without reading it: the spans that the text-call formats
//! hand to the parser (a call object after a marker, an argument's value in a Python call),
//! so that the rest of the text stays content.
//!
//! A string runs to its closing quote, a backslash escaping the byte after it (so an escape
//! is never taken for its end, whether the escape is valid or not); escaped JSON
//! (`{\"a\": 1}`) is read as the lexer reads it, from the `\"` that starts it, with one level
//! of backslashes removed. Nesting is a counter and each byte is looked at once, so hostile
//! text costs linear time. [`ValueEnd`] reads a text a fragment at a time, for the formats
//! read as they stream.

use super::bytes::find_special;
use super::escapes::{escaped_space, unescaped_pair};

/// May a `'` after this significant byte open a string? Only where a key or value starts,
/// so an apostrophe in an unquoted word never does.
fn opens_single(prev: Option<u8>) -> bool {
    matches!(prev, None | Some(b'{' | b'[' | b'(' | b',' | b':' | b'='))
}

/// The index just after the string that opens at `bytes[at]` with `quote`, or `None` if it
/// never closes.
///
/// Eight bytes at a time, by the lexer's own search for what interrupts string content
/// ([`find_special`]): a whole text's strings are most of its bytes (the search for mends
/// reads every one), where a fragment's ([`InString::end`]) are a few.
pub(crate) fn string_end(bytes: &[u8], at: usize, quote: u8) -> Option<usize> {
    let mut i = at + 1;
    loop {
        let found = find_special(bytes, i, quote);
        match *bytes.get(found)? {
            b'\\' => i = found + 2,
            b if b == quote => return Some(found + 1),
            // A control character: content, to this reading.
            _ => i = found + 1,
        }
    }
}

/// The string a fragment ended in, if any.
#[derive(Debug, Default, Clone, Copy)]
struct InString {
    /// The string's quote.
    quote: Option<u8>,
    /// The fragment ended right after a backslash in it.
    escaped: bool,
}

impl InString {
    /// From `bytes[i]`, in the string: the index just after its closing quote, or `None`
    /// when `bytes` ends first (still in it). A byte at a time: a streamed fragment holds a
    /// few bytes of a string, which a search eight bytes at a time costs more than.
    #[inline]
    fn end(&mut self, bytes: &[u8], mut i: usize) -> Option<usize> {
        let quote = self.quote?;
        if std::mem::take(&mut self.escaped) {
            i += 1;
        }
        loop {
            match *bytes.get(i)? {
                b'\\' if i + 1 == bytes.len() => {
                    self.escaped = true;
                    return None;
                }
                b'\\' => i += 2,
                b if b == quote => {
                    self.quote = None;
                    return Some(i + 1);
                }
                _ => i += 1,
            }
        }
    }
}

/// The index just after the `}` or `]` that closes the container opening at `text[start]`,
/// or `None` when the text ends first (the value was cut off). A `'` opens a string where a
/// key or value starts.
pub(crate) fn container_end(text: &str, start: usize) -> Option<usize> {
    let rest = text.as_bytes().get(start..)?;
    ValueEnd::container().end(rest).map(|end| start + end)
}

/// The index of the first of the two bytes `stops` at nesting depth 0 and outside strings,
/// from `start`; a closing bracket that would go below depth 0 also ends the span. `None`
/// when the text ends first.
pub(crate) fn span_end(text: &str, start: usize, stops: &[u8; 2]) -> Option<usize> {
    let rest = text.as_bytes().get(start..)?;
    ValueEnd::span(stops).end(rest).map(|end| start + end)
}

/// Where a value ends, read a fragment at a time (as [`container_end`] and [`span_end`]
/// read a text whole): nesting, strings and escapes, carried from one fragment to the next.
#[derive(Debug, Clone)]
pub(crate) struct ValueEnd {
    depth: usize,
    string: InString,
    /// The last significant byte outside strings.
    prev: Option<u8>,
    /// Whether `'` opens a string (where a key or value starts), or only `"` does.
    single_quotes: bool,
    /// What ends the value.
    ends: Ends,
    /// Escaped JSON (`{\"a\": 1}`): from the `\"` outside a string that starts it, the text is
    /// read with one level of backslashes removed (`\\` is `\`, `\"` is `"`), as the lexer
    /// reads it.
    escaped: bool,
    /// The fragment ended right after a backslash outside a string (not escaped JSON yet:
    /// a `"` next starts it), or, in escaped JSON, right after a backslash whose pair the
    /// next fragment completes.
    backslash: bool,
}

/// Where [`ValueEnd`] found the end of a value: at a byte (a span's stop), or just after it
/// (a container's closing bracket).
enum Found {
    At,
    After,
}

/// What ends a value for [`ValueEnd`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ends {
    /// The `}` or `]` that closes the container the text opens (or one with none open).
    Container,
    /// One of the two bytes at depth 0 (`,` and the closing bracket of what holds the
    /// value), or a closing bracket that would go below depth 0; parentheses nest too (a
    /// Python tuple or call).
    Stops([u8; 2]),
}

impl ValueEnd {
    fn new(single_quotes: bool, ends: Ends) -> ValueEnd {
        ValueEnd {
            depth: 0,
            string: InString::default(),
            prev: None,
            single_quotes,
            ends,
            escaped: false,
            backslash: false,
        }
    }

    /// A container whose strings are JSON's: only `"` opens one.
    pub(crate) fn json_container() -> ValueEnd {
        ValueEnd::new(false, Ends::Container)
    }

    /// A container where `'` opens a string too, where a key or value starts.
    pub(crate) fn container() -> ValueEnd {
        ValueEnd::new(true, Ends::Container)
    }

    /// A value inside a container, which `stops` end at depth 0 (`'` strings read too).
    pub(crate) fn span(stops: &[u8; 2]) -> ValueEnd {
        ValueEnd::new(true, Ends::Stops(*stops))
    }

    /// Did the fragments read so far end inside a string?
    pub(crate) fn in_string(&self) -> bool {
        self.string.quote.is_some()
    }

    /// Read `bytes`, the next fragment: where the value ends in it, if it is there (just
    /// after the closing bracket of a container; at the byte that ends a span).
    pub(crate) fn end(&mut self, bytes: &[u8]) -> Option<usize> {
        if !self.escaped && std::mem::take(&mut self.backslash) && bytes.first() == Some(&b'"') {
            // The last fragment ended with the backslash of a `\"` outside a string.
            self.escaped = true;
            self.backslash = true;
        }
        if self.escaped {
            return self.end_escaped(bytes, 0);
        }
        let mut i = 0;
        while let Some(&b) = bytes.get(i) {
            if self.string.quote.is_some() {
                i = self.string.end(bytes, i)?;
                continue;
            }
            if b == b'\\' {
                match bytes.get(i + 1) {
                    // `\"` where a token starts: escaped JSON from here on.
                    Some(b'"') => {
                        self.escaped = true;
                        return self.end_escaped(bytes, i);
                    }
                    None => {
                        self.backslash = true;
                        return None;
                    }
                    Some(_) => {}
                }
            }
            if let Some(found) = self.outside(b) {
                return Some(found.place(i, i + 1));
            }
            i += 1;
        }
        None
    }

    /// [`ValueEnd::end`] in escaped JSON, from `i`: each byte as the text reads with one
    /// level of backslashes removed.
    fn end_escaped(&mut self, bytes: &[u8], mut i: usize) -> Option<usize> {
        loop {
            let at = i;
            let &raw = bytes.get(i)?;
            let b = if std::mem::take(&mut self.backslash) {
                // The pair a backslash at the end of the last fragment began.
                match unescaped_pair(raw) {
                    Some(b) => {
                        i += 1;
                        b
                    }
                    None => b'\\',
                }
            } else if raw == b'\\' {
                match bytes.get(i + 1).map(|&next| unescaped_pair(next)) {
                    Some(Some(b)) => {
                        i += 2;
                        b
                    }
                    Some(None) => {
                        i += 1;
                        b'\\'
                    }
                    None => {
                        self.backslash = true;
                        return None;
                    }
                }
            } else {
                i += 1;
                raw
            };
            if let Some(quote) = self.string.quote {
                if std::mem::take(&mut self.string.escaped) {
                    continue;
                }
                if b == b'\\' {
                    self.string.escaped = true;
                } else if b == quote {
                    self.string.quote = None;
                }
                continue;
            }
            if let Some(found) = self.outside(b) {
                return Some(found.place(at, i));
            }
        }
    }

    /// The byte `b` outside strings: a string opens, the nesting changes, or the value ends.
    fn outside(&mut self, b: u8) -> Option<Found> {
        let container = self.ends == Ends::Container;
        match (b, self.ends) {
            (b'"', _) => self.string.quote = Some(b),
            (b'\'', _) if self.single_quotes && opens_single(self.prev) => self.string.quote = Some(b),
            (_, Ends::Stops([one, other])) if self.depth == 0 && (b == one || b == other) => {
                return Some(Found::At)
            }
            (b'{' | b'[', _) | (b'(', Ends::Stops(_)) => self.depth += 1,
            (b'}' | b']', _) | (b')', Ends::Stops(_)) => {
                if self.depth == 0 {
                    return Some(if container { Found::After } else { Found::At });
                }
                self.depth -= 1;
                if container && self.depth == 0 {
                    return Some(Found::After);
                }
            }
            _ => {}
        }
        if !b.is_ascii_whitespace() {
            self.prev = Some(b);
        }
        None
    }
}

impl Found {
    /// Where the value ends, found at the byte read from `at` up to `after`.
    fn place(self, at: usize, after: usize) -> usize {
        match self {
            Found::At => at,
            Found::After => after,
        }
    }
}

/// The index of the first byte at or after `i` that is not ASCII white space (form feed
/// included, as between the parts of a text call), or `bytes.len()`.
pub(crate) fn skip_ws(bytes: &[u8], mut i: usize) -> usize {
    while bytes.get(i).is_some_and(u8::is_ascii_whitespace) {
        i += 1;
    }
    i
}

/// [`skip_ws`], and past white space written as an escape (`\n`, `\r`, `\t`), which the
/// lexer reads as white space between tokens: JSON escaped once more and pretty-printed
/// (`[\n  {\"name\": …}\n]`), or a model's literal `\n` between the items of a list.
pub(crate) fn skip_ws_escaped(bytes: &[u8], mut i: usize) -> usize {
    loop {
        i = skip_ws(bytes, i);
        match (bytes.get(i), bytes.get(i + 1)) {
            (Some(b'\\'), Some(&next)) if escaped_space(next).is_some() => i += 2,
            _ => return i,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_end_at_their_unescaped_quote() {
        assert_eq!(string_end(br#""a\"b" x"#, 0, b'"'), Some(6));
        assert_eq!(string_end(br#"x "a\\" y"#, 2, b'"'), Some(7));
        assert_eq!(string_end(b"'it\\'s' x", 0, b'\''), Some(7));
        assert_eq!(string_end(b"\"tab\there\"", 0, b'"'), Some(10));
        assert_eq!(string_end(b"\"cut\\", 0, b'"'), None);
        assert_eq!(string_end(b"\"open", 0, b'"'), None);
    }

    proptest::proptest! {
        #[test]
        fn a_string_ends_where_a_byte_at_a_time_reading_ends_it(
            bytes in proptest::collection::vec(proptest::sample::select(b"\"'\\a\n\x01 {".to_vec()), 0..40),
            quote in proptest::sample::select(vec![b'"', b'\'']),
        ) {
            let mut text = vec![quote];
            text.extend(bytes);
            let a_byte_at_a_time = InString { quote: Some(quote), escaped: false }.end(&text, 1);
            proptest::prop_assert_eq!(string_end(&text, 0, quote), a_byte_at_a_time);
        }
    }

    #[test]
    fn containers_end_where_they_close() {
        assert_eq!(container_end(r#"{"a": "}"} tail"#, 0), Some(10));
        assert_eq!(container_end(r#"[1, {"b": [2]}]x"#, 0), Some(15));
        assert_eq!(container_end("{'a': 'it}'}", 0), Some(12));
        assert_eq!(container_end("x {'a': 1}", 2), Some(10));
        assert_eq!(container_end(r#"{"a": [1, 2"#, 0), None);
        assert_eq!(container_end(r#"{"a": "cut"#, 0), None);
        // An apostrophe inside a word opens no string.
        assert_eq!(container_end("{a: it's}", 0), Some(9));
    }

    /// Where `reader` finds the end of `text` fed in two fragments cut at `cut`.
    fn found_in_two(mut reader: ValueEnd, text: &[u8], cut: usize) -> Option<usize> {
        let (first, second) = text.split_at(cut);
        match reader.end(first) {
            Some(end) => Some(end),
            None => reader.end(second).map(|end| cut + end),
        }
    }

    #[test]
    fn a_container_ends_in_whichever_fragment_closes_it() {
        let text = br#"{"a": "x\"}", 'b': ["}"]} tail"#;
        let whole = ValueEnd::json_container().end(text);
        assert_eq!(whole, Some(25));
        for cut in 0..text.len() {
            assert_eq!(found_in_two(ValueEnd::json_container(), text, cut), whole, "cut at {cut}");
        }
        // Only `"` opens a string in JSON: the `'` here are content of no string.
        assert_eq!(ValueEnd::json_container().end(b"{'}'}"), Some(3));
        assert_eq!(ValueEnd::container().end(b"{'}'}"), Some(5));
    }

    #[test]
    fn a_span_ends_in_whichever_fragment_holds_its_end() {
        let text = br#"('a,\'', {"k": [1, ")"]}), next=2)"#;
        let whole = ValueEnd::span(b",)").end(text);
        assert_eq!(whole, Some(25));
        for cut in 0..text.len() {
            assert_eq!(found_in_two(ValueEnd::span(b",)"), text, cut), whole, "cut at {cut}");
        }
    }

    #[test]
    fn spans_stop_at_depth_zero() {
        assert_eq!(span_end("'Paris', days=3)", 0, b",)"), Some(7));
        assert_eq!(span_end("[1, 2], x=1)", 0, b",)"), Some(6));
        assert_eq!(span_end("{\"a\": 1}}", 0, b",}"), Some(8));
        assert_eq!(span_end("'unclosed", 0, b",)"), None);
    }

    /// Escaped JSON (`{\"a\": 1}`) is read as the lexer reads it: from the `\"` that starts
    /// it, with one level of backslashes removed, so an escaped quote inside an escaped
    /// string does not end it, in whichever fragments the text comes.
    #[test]
    fn escaped_json_ends_where_it_closes() {
        let cases: &[(&str, Option<usize>)] = &[
            (r#"{\"a\": \"}\"} tail"#, Some(14)),
            (r#"{\"a\": \"x\\\"}\", \"b\": [1]} tail"#, Some(31)),
            (r#"{\"a\": \"C:\\\\\"} tail"#, Some(19)),
            (r#"{\n  \"a\": {\"b\": \"]\"}\n} tail"#, Some(29)),
            (r#"{\"a\": \"cut}"#, None),
            // Escaped white space is white space, as the lexer reads it: the `'` after it
            // opens a string (after the letter `n` it would be an apostrophe).
            (r#"{\"a\":\n'x}y', \"b\": 1} tail"#, Some(25)),
        ];
        for &(text, whole) in cases {
            assert_eq!(container_end(text, 0), whole, "{text}");
            for cut in 0..text.len() {
                assert_eq!(
                    found_in_two(ValueEnd::container(), text.as_bytes(), cut),
                    whole,
                    "{text} cut at {cut}"
                );
            }
        }
        assert_eq!(span_end(r#"\"Paris\", days=3)"#, 0, b",)"), Some(9));
        // A backslash before anything but a quote starts no escaped JSON.
        assert_eq!(container_end(r#"{"a": 1,\n "b": "x\\"} tail"#, 0), Some(22));
    }

    #[test]
    fn escaped_white_space_is_skipped_as_white_space() {
        assert_eq!(skip_ws_escaped(br#"\n  \t\r\n {"#, 0), 11);
        assert_eq!(skip_ws_escaped(br#" \n\"a"#, 0), 3);
        // Only the escapes that spell white space.
        assert_eq!(skip_ws_escaped(br#"\u0020x"#, 0), 0);
        assert_eq!(skip_ws_escaped(br#"\"#, 0), 0);
    }

    #[test]
    fn white_space_is_ascii_with_form_feed() {
        assert_eq!(skip_ws(b" \t\r\n\x0cx", 0), 5);
        assert_eq!(skip_ws(b"  ", 0), 2);
        assert_eq!(skip_ws(b"x", 3), 3);
    }
}
