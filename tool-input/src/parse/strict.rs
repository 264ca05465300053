//! Whether `serde_json` reads a text before this crate's parser does: decided here, once,
//! for every reader (the parse into a `Value`, the parse onto a tape, the typed and untyped
//! one-pass checks, the stream's last reading, the decoding of a double-encoded payload, the
//! order of a rejection's errors).
//!
//! Strict JSON is most of what models send, and `serde_json` reads it faster than the
//! repairing parser. It goes first only where its reading is the parser's own:
//! - its nesting limit (128) must be within the caller's depth limit, or a text the limit
//!   refuses would pass;
//! - no float in the text may be one it rounds differently (built without
//!   `float_roundtrip`; see `decimal::serde_json_may_misread`): the lexer reads those, correctly
//!   rounded;
//! - it has not refused the text already (the typed path's first step reads the text with
//!   `serde_json`; on a syntax error the parser takes it without a second strict attempt).

use serde_json::de::StrRead;

use super::DEFAULT_MAX_DEPTH;

/// What came of offering a text to `serde_json` first.
#[derive(Debug)]
pub(crate) enum Strict<T> {
    /// `serde_json` read the whole text (nothing but white space after the value).
    Read(T),
    /// `serde_json` was not asked (see the module's rules): the parser reads the text.
    NotTried,
    /// `serde_json` refused the text, saying why.
    Refused(serde_json::Error),
}

impl<T> Strict<T> {
    /// What `serde_json` read, if it read the text.
    pub(crate) fn read(self) -> Option<T> {
        match self {
            Strict::Read(value) => Some(value),
            Strict::NotTried | Strict::Refused(_) => None,
        }
    }
}

/// Does a depth limit of `max_depth` let `serde_json` read first? Its own limit of 128 must
/// be the tighter one. Asked on its own by the one-pass checks, which decide before they
/// have a text (a value passed in has no text to read).
pub(crate) fn depth_allows(max_depth: usize) -> bool {
    max_depth >= DEFAULT_MAX_DEPTH
}

/// Offer `text` to `serde_json` first: `read` reads it from a deserializer over the text
/// (a `Value`, a typed value, a tape, a walk), which must then be at its end, and tells
/// whether it read a float (a number `serde_json` reads as one). `max_depth`: the caller's
/// depth limit; `refused_before`: `serde_json` has already refused this text. The text is
/// scanned for a float `serde_json` may round wrongly only after a reading that read one,
/// and the reading is then set aside: most texts have no float, a refused text is refused at
/// the byte that breaks it, and the scan reads the whole text (a fifth of a clean call's
/// instructions).
pub(crate) fn serde_json_first<'de, T>(
    text: &'de str,
    max_depth: usize,
    refused_before: bool,
    read: impl FnOnce(&mut serde_json::Deserializer<StrRead<'de>>) -> Result<(T, bool), serde_json::Error>,
) -> Strict<T> {
    if refused_before || !depth_allows(max_depth) {
        return Strict::NotTried;
    }
    let mut deserializer = serde_json::Deserializer::from_str(text);
    match read(&mut deserializer).and_then(|value| deserializer.end().map(|()| value)) {
        Ok((_, true)) if crate::decimal::serde_json_may_misread(text.as_bytes()) => Strict::NotTried,
        Ok((value, _)) => Strict::Read(value),
        Err(error) => Strict::Refused(error),
    }
}

/// The offset in `text` of the byte `serde_json` stopped at when it refused it (its error
/// gives the line and column of the byte it peeked at); `None` past the end.
pub(crate) fn refused_at(text: &str, error: &serde_json::Error) -> Option<usize> {
    // The line's start: just after its `line - 1`-th line feed.
    let line_start = match error.line().checked_sub(2) {
        None => 0,
        Some(feeds) => memchr::memchr_iter(b'\n', text.as_bytes()).nth(feeds)? + 1,
    };
    let at = (line_start + error.column()).checked_sub(1)?;
    (at < text.len()).then_some(at)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde_json::Value;

    /// A reader that cannot tell whether it read a float: the text is scanned after it.
    fn value(text: &str, max_depth: usize, refused_before: bool) -> Strict<Value> {
        serde_json_first(text, max_depth, refused_before, |d| Value::deserialize(d).map(|v| (v, true)))
    }

    #[test]
    fn serde_json_reads_first_only_where_its_reading_is_the_parsers() {
        assert!(matches!(value(r#"{"a": [1, 2.5]} "#, 128, false), Strict::Read(v) if v["a"][1] == 2.5));
        // A limit tighter than serde_json's, a text it was given before, a float it may
        // round otherwise (when built without `float_roundtrip`).
        assert!(matches!(value("{}", 127, false), Strict::NotTried));
        assert!(matches!(value("{}", 128, true), Strict::NotTried));
        if crate::decimal::serde_json_may_misread(b"[0.1000000000000000055511151231257827]") {
            assert!(matches!(value("[0.1000000000000000055511151231257827]", 128, false), Strict::NotTried));
        }
        // Not strict JSON, or more after the value.
        assert!(matches!(value("{'a': 1}", 128, false), Strict::Refused(_)));
        assert!(matches!(value("{} {}", 128, false), Strict::Refused(_)));
        // A reader that read no float is taken at its word; one that read one, scanned.
        let risky = "[0.1000000000000000055511151231257827]";
        let noting =
            |floats| serde_json_first(risky, 128, false, |d| Value::deserialize(d).map(|v| (v, floats)));
        assert!(matches!(noting(false), Strict::Read(_)));
        if crate::decimal::serde_json_may_misread(risky.as_bytes()) {
            assert!(matches!(noting(true), Strict::NotTried));
        }
        assert_eq!(value("[]", 128, false).read(), Some(Value::Array(Vec::new())));
        assert_eq!(value("[", 128, false).read(), None);
    }

    #[test]
    fn a_refusal_is_placed_at_the_byte_serde_json_stopped_at() {
        for (text, at) in [
            ("[1,]", 3),
            ("{\"a\": 1,}", 8),
            ("{\"a\": [1, 2,\n  ]}", 15),
            ("{\n  \"a\": \"x\",\n  \"b\": [\n    1,\n  ],\n}", 32),
            ("{\"é\": \"ü\",\r\n\t}", 15),
            ("{a: 1}", 1),
            ("{\"a\": 1,\n b: 2}", 10),
            ("{'a': 1}", 1),
        ] {
            let Strict::Refused(error) = value(text, 128, false) else { panic!("{text:?}") };
            assert_eq!(refused_at(text, &error), Some(at), "{text:?}: {error}");
        }
    }
}
