//! Strict JSON in a frame: a value `serde_json` reads once the text around it is set aside
//! (prose before or after it, a code fence around it, comments, a byte order mark), as in
//! "Sure! ```json\n{...}\n``` Hope that helps." Models wrap a call's JSON so more often than
//! they break it, and the repairing parser reads such a text at several times the cost of
//! `serde_json`.
//!
//! The reading is the lenient parser's, exactly: the lexer itself reads the frame (the text
//! before the first `{` or `[`, and the text after the value), in the states the whole
//! reading would have it in, so the frame's repairs are the ones the whole reading records
//! and any frame it would not read as one (a second value after the first, a value begun
//! in the prose, prose holding a closing bracket after the value) sends the text back to
//! the whole reading. Between the two, [`serde_json_first`] reads the value under its usual
//! rules (depth, floats it may misread); the lenient grammar reads strict JSON as
//! `serde_json` does, so the value is the one the whole reading builds. Only where a text
//! is framed and its value strict JSON is anything saved; every other text costs one scan
//! for its brackets and the lexer's reading of its first bytes.
//!
//! Trailing commas (`[1, 2,]`, `{"a": 1,\n}`), keys without quotes (`{city: "Paris"}`) and
//! Python's spelling (`{'a': True, 'b': None}`) are set aside too, framed or not: a model
//! that pretty-prints its JSON leaves the commas, and some leave out the quotes of every key
//! or write a Python dict. They are mended in a copy of the value (`lexer::mends`: commas
//! dropped, keys quoted, `'` strings quoted with `"`, literals spelled as JSON) that
//! `serde_json` reads; where that is strict JSON, the lenient grammar reads the text as that
//! JSON, recording each mend (`trailing_comma`, `unquoted_key`, `single_quotes`,
//! `python_literal`).

use std::cell::Cell;

use serde_json::de::StrRead;

use super::lexer::mends::{may_need_mends, mends, Mend};
use super::lexer::{Ctx, Failure, Lexer, Sink, Token};
use super::spare::{self, MOST_KEPT};
use super::strict::{serde_json_first, Strict};
use super::{coalesce_repairs, record_repair, ParseMode, ParseOptions, Repair, RepairKind};

/// A framed value's place in the text, and the frame's repairs: what the lenient parse
/// of the whole text reads apart from the value.
#[derive(Debug)]
pub(crate) struct TextFrame {
    /// Where the value starts (its `{` or `[`).
    pub(crate) at: usize,
    /// Where it ends (after its closing bracket).
    end: usize,
    /// The repairs the lenient parser records for the frame and the mends, one entry per
    /// kind as a parse reports them.
    pub(crate) repairs: Vec<Repair>,
    /// What `serde_json` is given of the value.
    inside: Inside,
}

/// What `serde_json` is given of the value inside a frame.
#[derive(Debug)]
enum Inside {
    /// The value as the text holds it.
    AsIs,
    /// A copy with these mends made (`lexer::mends`; never empty).
    Mends(MendList),
    /// The mended copy was made and offered ([`TextFrame::offer_owned`]). Its mends went
    /// back before the reading: a large value has one for every few bytes, and the reading
    /// holds the text, the copy and the value it builds besides.
    Offered,
}

impl Inside {
    fn of(mends: MendList) -> Inside {
        if mends.0.is_empty() {
            Inside::AsIs
        } else {
            Inside::Mends(mends)
        }
    }
}

/// A search's vector of mends, given back for the thread's next search ([`spare`]) when it
/// is dropped: on every way out of [`TextFrame::of`] that finds no frame as well as with
/// its frame or its offer. (Dropped with no frame, a vector the search took from the spare
/// was lost, and the next search grew a new one from a few mends' room.)
#[derive(Debug)]
struct MendList(Vec<Mend>);

impl Drop for MendList {
    fn drop(&mut self) {
        super::lexer::mends::give_back(std::mem::take(&mut self.0));
    }
}

/// What a reader knows of the mends a text needs (`lexer::mends`) before its frame is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mends {
    /// Nothing: the value is looked at for them.
    Unknown,
    /// A strict reading of the whole text broke at a mend starting at this offset (the text
    /// before it is strict JSON): they are read from there.
    From(usize),
    /// A strict reading of the whole text broke elsewhere: a text without a frame is not
    /// strict JSON mended either, and is not read for them (a framed value is looked at).
    NotFirst,
}

impl Mends {
    /// What `serde_json`'s refusal of the whole `text` says of its mends.
    pub(crate) fn after_refusal(text: &str, error: &serde_json::Error) -> Mends {
        Mends::refused_at(text, super::strict::refused_at(text, error))
    }

    /// What an object's first key says of its mends where it opens as no strict JSON key
    /// does: what `serde_json`'s refusal there would say ([`after_refusal`](Mends::after_refusal)),
    /// without its reading (nor the error it allocates). `None`: `serde_json` is to read it.
    pub(crate) fn at_first_key(text: &str) -> Option<Mends> {
        super::lexer::mends::unquoted_first_key(text.as_bytes()).map(|at| Mends::refused_at(text, Some(at)))
    }

    /// A strict reading of `text` stopped at `at`.
    fn refused_at(text: &str, at: Option<usize>) -> Mends {
        match at.and_then(|at| super::lexer::mends::mend_at(text.as_bytes(), at)) {
            Some(from) => Mends::From(from),
            None => Mends::NotFirst,
        }
    }
}

/// How the reader of a frame reads its value ([`TextFrame::of`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reader {
    /// From the text as it is ([`TextFrame::offer`]).
    Borrowing,
    /// From a mended copy where the value needs one ([`TextFrame::offer_owned`]).
    Owning,
}

/// What a reader knows of a text's frame before a parse onto a tape
/// (`one_shot::parse_to_tape`), so that the frame is read once.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Framing<'f> {
    /// Nothing: the parse looks for one.
    Unknown,
    /// The text has no frame, or its value is not strict JSON.
    Absent,
    /// The text's frame, whose value `serde_json` may read.
    Known(&'f TextFrame),
}

impl TextFrame {
    /// The frame of `text` as the lenient parse of the whole text under `options` reads it:
    /// the text before the first `{` or `[` and after the last closing bracket of its kind,
    /// read by the lexer in the states the whole reading has it in. `None` when the whole
    /// reading would read the text otherwise: a frame the lexer does not read as one (a
    /// value begun in the prose, a second value after the first, escaped JSON, a fence tag
    /// running into the value), or no frame at all (a text that is nothing but the value,
    /// white space aside: `serde_json` reads such a text on its own, and the callers offered
    /// it first).
    ///
    /// Only the lenient mode reads frames, and only a text within the size limit whose
    /// reading is not asked to complete a cut-off value.
    ///
    /// `reader`: for a [`Reader::Borrowing`] reader, a value that needs mends has no frame
    /// (the reader could only be refused there), so the search stops at the first mend; and
    /// a bare text, which only its mends would frame, has none and is not searched. A search
    /// to the end keeps a mend for every few bytes of a large text.
    pub(crate) fn of(text: &str, options: &ParseOptions, known: Mends, reader: Reader) -> Option<TextFrame> {
        // A text past the size limit is the whole reading's to refuse.
        if options.mode != ParseMode::Lenient || options.complete_truncated || text.len() > options.max_bytes
        {
            return None;
        }
        let bytes = text.as_bytes();
        let at = memchr::memchr2(b'{', b'[', bytes)?;
        let closer = if bytes.get(at) == Some(&b'{') { b'}' } else { b']' };
        let end = memchr::memrchr(closer, bytes)? + 1;
        if end <= at {
            return None;
        }
        let blank = |part: &[u8]| part.iter().all(|b| matches!(b, b' ' | b'\n' | b'\r' | b'\t'));
        let bare = blank(bytes.get(..at)?) && blank(bytes.get(end..)?);
        let value = bytes.get(at..end)?;
        let limit = match reader {
            Reader::Borrowing if bare => return None,
            Reader::Borrowing => 1,
            Reader::Owning => usize::MAX,
        };
        let mut found = MendList(match known {
            Mends::NotFirst if bare => Vec::new(),
            Mends::From(from) => mends(value, from.saturating_sub(at), limit),
            Mends::Unknown | Mends::NotFirst if may_need_mends(value) => mends(value, 0, limit),
            Mends::Unknown | Mends::NotFirst => Vec::new(),
        });
        if reader == Reader::Borrowing && !found.0.is_empty() {
            return None;
        }
        for mend in &mut found.0 {
            // Offsets in the value, made offsets in the text.
            *mend = match *mend {
                Mend::Comma(comma) => Mend::Comma(at + comma),
                Mend::Key(start, end) => Mend::Key(at + start, at + end),
                Mend::SingleQuoted(open, close) => Mend::SingleQuoted(at + open, at + close),
                Mend::Literal(start, literal) => Mend::Literal(at + start, literal),
            };
        }
        if bare {
            // No frame: only the mends keep `serde_json` from the text.
            let mut repairs = Vec::new();
            record_mends(&mut repairs, &found.0);
            coalesce_repairs(&mut repairs);
            return (!found.0.is_empty()).then(|| TextFrame { at, end, repairs, inside: Inside::of(found) });
        }
        let mut lexer = Lexer::new(ParseMode::Lenient, options.non_finite, 0);
        let mut sink = FrameSink::default();
        lexer.feed_str(text.get(..at)?, &mut sink).ok()?;
        if !lexer.awaits_value() {
            return None;
        }
        lexer.value_read_elsewhere(at, bytes.get(at).copied()?, end);
        sink.value_read = true;
        // The value's repairs come between the frame's, as the whole reading makes them.
        let before = sink.repairs.len();
        lexer.feed_str(text.get(end..)?, &mut sink).ok()?;
        lexer.finish(&mut sink, false).ok()?;
        if sink.token_seen {
            return None;
        }
        let after = sink.repairs.split_off(before);
        let mut repairs = sink.repairs;
        record_mends(&mut repairs, &found.0);
        repairs.extend(after);
        coalesce_repairs(&mut repairs);
        Some(TextFrame { at, end, repairs, inside: Inside::of(found) })
    }

    /// The mends not yet made (none once the mended copy was offered).
    #[cfg(test)]
    fn mends(&self) -> &[Mend] {
        match &self.inside {
            Inside::Mends(mends) => &mends.0,
            Inside::AsIs | Inside::Offered => &[],
        }
    }

    /// Is the framed value an object (not an array)?
    pub(crate) fn holds_object(&self, text: &str) -> bool {
        text.as_bytes().get(self.at) == Some(&b'{')
    }

    /// Offer the value inside the frame of `text` to `serde_json` ([`serde_json_first`],
    /// under `max_depth`): `read` reads it from a deserializer over the value's text, and
    /// tells whether it read a float. What it reads is what the lenient parse of the whole
    /// text reads, the frame's repairs aside. A reading that borrows from the text is
    /// offered only a value that needs no mends (`NotTried` else): the text `serde_json`
    /// reads is then the value's own ([`offer_owned`](TextFrame::offer_owned) reads the rest).
    pub(crate) fn offer<'de, T>(
        &self,
        text: &'de str,
        max_depth: usize,
        read: impl FnOnce(&mut serde_json::Deserializer<StrRead<'de>>) -> Result<(T, bool), serde_json::Error>,
    ) -> Strict<T> {
        match (text.get(self.at..self.end), &self.inside) {
            (Some(value), Inside::AsIs) => serde_json_first(value, max_depth, false, read),
            _ => Strict::NotTried,
        }
    }

    /// [`offer`](TextFrame::offer) for a reading that keeps nothing of the text it reads:
    /// a value that needs mends is read from a mended copy, made once (a second offer of
    /// it is `NotTried`).
    pub(crate) fn offer_owned<T>(
        &mut self,
        text: &str,
        max_depth: usize,
        read: impl for<'a> FnOnce(
            &mut serde_json::Deserializer<StrRead<'a>>,
        ) -> Result<(T, bool), serde_json::Error>,
    ) -> Strict<T> {
        let Some(value) = text.get(self.at..self.end) else { return Strict::NotTried };
        let mends = match &self.inside {
            Inside::AsIs => return serde_json_first(value, max_depth, false, read),
            Inside::Mends(mends) => &mends.0,
            Inside::Offered => return Strict::NotTried,
        };
        let copy = mended(text, self.at, self.end, mends);
        // The mends go back (the list's drop) before the copy is read.
        self.inside = Inside::Offered;
        match copy {
            Some(mended) => {
                let read = serde_json_first(&mended, max_depth, false, read);
                spare::give_back(&SPARE_MENDED, mended.into_bytes(), MOST_KEPT);
                read
            }
            None => Strict::NotTried,
        }
    }
}

thread_local! {
    /// The buffer of the last mended copy (see `spare`).
    static SPARE_MENDED: Cell<Vec<u8>> = const { Cell::new(Vec::new()) };
}

/// `text` from `at` to `end` with `mends` made: each comma dropped (as white space), each
/// key quoted, each `'` string quoted with `"`, each Python literal spelled as JSON. Each
/// mend is at ASCII bytes outside any string: the pieces between are whole characters.
/// Where every mend keeps the text's length (no key to quote), the copy is made once and
/// mended in place.
fn mended(text: &str, at: usize, end: usize, mends: &[Mend]) -> Option<String> {
    let value = text.as_bytes().get(at..end)?;
    let in_place = mends.iter().all(|mend| !matches!(mend, Mend::Key(..)));
    // The last copy's buffer, emptied: one allocation a thread rather than one a call.
    let mut bytes = spare::take(&SPARE_MENDED);
    if in_place {
        bytes.extend_from_slice(value);
        for &mend in mends {
            let (from, with) = match mend {
                Mend::Comma(comma) => (comma, " "),
                Mend::Literal(start, literal) => (start, literal.json()),
                Mend::SingleQuoted(open, close) => {
                    *bytes.get_mut(close.checked_sub(at)?)? = b'"';
                    (open, "\"")
                }
                Mend::Key(..) => return None,
            };
            let from = from.checked_sub(at)?;
            let target = bytes.get_mut(from..from + with.len())?;
            target.copy_from_slice(with.as_bytes());
        }
    } else {
        bytes.reserve(value.len() + 2 * mends.len());
        let mut from = at;
        for &mend in mends {
            bytes.extend_from_slice(text.as_bytes().get(from..mend.at())?);
            match mend {
                Mend::Comma(comma) => from = comma + 1,
                Mend::Key(start, key_end) => {
                    bytes.push(b'"');
                    bytes.extend_from_slice(text.as_bytes().get(start..key_end)?);
                    bytes.push(b'"');
                    from = key_end;
                }
                Mend::SingleQuoted(open, close) => {
                    bytes.push(b'"');
                    bytes.extend_from_slice(text.as_bytes().get(open + 1..close)?);
                    bytes.push(b'"');
                    from = close + 1;
                }
                Mend::Literal(start, literal) => {
                    bytes.extend_from_slice(literal.json().as_bytes());
                    from = start + literal.python_len();
                }
            }
        }
        bytes.extend_from_slice(text.as_bytes().get(from..end)?);
    }
    String::from_utf8(bytes).ok()
}

/// The repairs the lenient grammar records for `mends`, in the order of the text.
fn record_mends(repairs: &mut Vec<Repair>, mends: &[Mend]) {
    for &mend in mends {
        let kind = match mend {
            Mend::Comma(_) => RepairKind::TrailingComma,
            Mend::Key(..) => RepairKind::UnquotedKey,
            Mend::SingleQuoted(..) => RepairKind::SingleQuotes,
            Mend::Literal(..) => RepairKind::PythonLiteral,
        };
        record_repair(repairs, kind, mend.at());
    }
}

/// Offer the value framed in `text` to `serde_json` ([`TextFrame::of`], with what is `known`
/// of its mends; [`TextFrame::offer_owned`]):
/// `Some` with the value and its frame when the lenient parse of the whole text, under
/// `options`, would give the same value, with the frame's repairs and no others; `None`
/// otherwise, and the caller reads the text as it would have.
pub(crate) fn framed_first<T>(
    text: &str,
    options: &ParseOptions,
    known: Mends,
    read: impl for<'a> FnOnce(&mut serde_json::Deserializer<StrRead<'a>>) -> Result<(T, bool), serde_json::Error>,
) -> Option<(T, TextFrame)> {
    let mut frame = TextFrame::of(text, options, known, Reader::Owning)?;
    let value = frame.offer_owned(text, options.max_depth, read).read()?;
    Some((value, frame))
}

/// What the lexer sends while it reads a frame: the repairs, kept as the grammar keeps
/// them; a token means the frame held a value of its own, and the text is not framed.
#[derive(Debug, Default)]
struct FrameSink {
    repairs: Vec<Repair>,
    /// The value was read (the lexer reads the text after it).
    value_read: bool,
    /// The lexer sent a token.
    token_seen: bool,
}

impl Sink for FrameSink {
    fn context(&self) -> Ctx {
        Ctx::Top
    }

    fn token(&mut self, _token: Token<'_>, offset: usize) -> Result<(), Failure> {
        self.token_seen = true;
        Err(Failure::syntax("a value in the frame", offset))
    }

    fn expects_key(&self) -> bool {
        false
    }

    fn is_complete(&self) -> bool {
        self.value_read
    }

    fn repair(&mut self, kind: RepairKind, offset: usize) {
        record_repair(&mut self.repairs, kind, offset);
    }

    fn retract(&mut self, kind: RepairKind) {
        self.repairs.retain(|repair| repair.kind != kind);
    }

    fn in_paren(&self) -> bool {
        false
    }

    fn in_container(&self) -> bool {
        false
    }

    fn line_break(&mut self) {}

    fn bare_key(&mut self) {}

    fn discard(&mut self) {}

    fn undo_open(&mut self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;
    use serde_json::Value;

    use super::*;
    use crate::parse::parse_without_fast_path;

    fn framed(text: &str) -> Option<(Value, Vec<Repair>)> {
        let options = ParseOptions::default();
        framed_first(text, &options, Mends::Unknown, |d| Value::deserialize(d).map(|value| (value, true)))
            .map(|(value, mut frame)| (value, std::mem::take(&mut frame.repairs)))
    }

    /// The whole reading by the lenient parser alone.
    fn whole(text: &str) -> Option<(Value, Vec<Repair>)> {
        let parsed = parse_without_fast_path(text.as_bytes(), &ParseOptions::default()).ok()?;
        Some((parsed.value, parsed.repairs))
    }

    #[test]
    fn a_framed_value_reads_as_the_whole_reading_reads_it() {
        for text in [
            "Sure! Here it is:\n```json\n{\"a\": [1, 2], \"b\": \"x\"}\n```\nHope that helps.",
            "```json\n{\"a\": 1}\n```",
            "```\n[1, {\"b\": null}]\n```\n",
            "Here: {\"a\": 1}",
            "{\"a\": 1}\n\nLet me know if you need more.",
            "{\"a\": 1} // done",
            "{\"a\": 1} # done",
            "/* call */ {\"a\": 1}",
            "\u{feff}{\"a\": 1} and that is all",
            "Calling the tool — {\"city\": \"Zoë\"} — now.",
            "{\"a\": 1}```",
            "Step 1: {\"a\": \"}\"}",
            // Trailing commas, framed or not; commas and brackets inside strings stay.
            "Here: {\"a\": 1,}",
            "{\"a\": [1, 2,], \"b\": {\"c\": null,},}",
            "[\n  {\"sku\": \"A-1\",\n   \"qty\": 2,\n  },\n]\n",
            "  {\"a\": \"x,]\", \"b\": \",}\",\t\r\n}  ",
            "{\"a\": \"q\\\",}\",}",
            "```json\n{\"a\": [\"x\",\n],\n}\n```\nDone.",
            "Sure: [1, [2,],] // two",
            // Python: strings in single quotes, its literals; with the rest.
            "{'a': True, 'b': [None, False,], 'c': 'Zoë, x: y', d: ''}",
            "```python\n{'customer_id': 'C-1', 'items': [{'sku': 'A-1', 'qty': 2}], 'gift': False}\n```",
            "['a', 'b']",
            "```json\n{'a': 1}\n```",
            "{'a': 1,}",
            // Keys without quotes, with trailing commas or not.
            "{a: 1,}",
            "{ customer_id: \"C-1\", items: [{sku: \"A-1\", qty: 2}], $ref-x.y: null}",
            "```json\n{\n  a: [1,],\n  \"b\": {c_d: \"x: y, z\"},\n}\n```",
        ] {
            let framed = framed(text);
            assert!(framed.is_some(), "not read as framed: {text:?}");
            assert_eq!(framed, whole(text), "{text:?}");
        }
    }

    #[test]
    fn a_text_the_whole_reading_reads_otherwise_is_not_framed() {
        for text in [
            // Nothing around the value: serde_json reads it on its own.
            "{\"a\": 1}",
            " [1] \n",
            // Not strict JSON inside, or not one value.
            // Commas that are no trailing commas, or a text with more than those to repair.
            "[1,,]",
            "[,]",
            "{\"a\": 1,,}",
            "{,}",
            "{\"a\": [1, /* c */],}",
            // A word that is a value, a key after a comment, a key a string prefix starts.
            "{a: b}",
            "{\"x\": 1, /* c */ b: 2}",
            "{u\"a\": 1}",
            "[a: 1]",
            "{.a: 1}",
            // Python the lenient grammar reads otherwise, or with more repairs than these.
            "{'a': 'it's'}",
            "{'a': 'say \"hi\"', 'tags': '[\"x\", \"y\"]'}",
            "{'a': 'x' 'y'}",
            "{'a': u'x'}",
            "{'a': 'x\\n'}",
            "{'a': (1, 2)}",
            "{'a', 'b'}",
            "{'a': True(1)}",
            "{'a': NaN}",
            "[1, 2,",
            "{\"a\": \"x,}",
            "[1,}",
            "[\"a\" ,\u{a0}]",
            "Here: {\"a\": 1} {\"b\": 2}",
            "Call: {\"a\": 1} and {\"a\": 2}",
            "I think {maybe} this: {\"a\": 1}",
            // A value begun in the prose before.
            "\"quoted\" then {\"a\": 1}",
            "- {\"a\": 1}",
            // Escaped JSON, a fence whose tag runs into the value, a cut-off value.
            "Here: {\\\"a\\\": 1}",
            "```json{\"a\": 1}```",
            "Here: {\"a\": [1, 2}",
            "no value here",
            "",
        ] {
            assert_eq!(framed(text), None, "{text:?}");
        }
    }

    #[test]
    fn only_the_lenient_mode_reads_frames() {
        let text = "```json\n{\"a\": 1}\n```";
        let read = |options: &ParseOptions| {
            framed_first(text, options, Mends::Unknown, |d| Value::deserialize(d).map(|value| (value, false)))
                .is_some()
        };
        assert!(read(&ParseOptions::default()));
        assert!(!read(&ParseOptions { mode: ParseMode::Strict, ..ParseOptions::default() }));
        assert!(!read(&ParseOptions { mode: ParseMode::Repair, ..ParseOptions::default() }));
        assert!(!read(&ParseOptions { complete_truncated: true, ..ParseOptions::default() }));
        // serde_json's own nesting limit must be within the caller's.
        assert!(!read(&ParseOptions { max_depth: 10, ..ParseOptions::default() }));
        // A text past the size limit is refused by the whole reading, not read here.
        assert!(!read(&ParseOptions { max_bytes: text.len() - 1, ..ParseOptions::default() }));
        assert!(read(&ParseOptions { max_bytes: text.len(), ..ParseOptions::default() }));
    }

    #[test]
    fn a_borrowing_reader_has_no_frame_for_a_value_that_needs_mends() {
        let options = ParseOptions::default();
        let frame = |text: &str, reader| TextFrame::of(text, &options, Mends::Unknown, reader);
        // A framed value: the borrowing reader's frame only where it needs no mends; the
        // owning reader's, with every mend.
        let text = "```python\n{'a': True, 'b': [None,], c: 1}\n```";
        assert!(frame(text, Reader::Borrowing).is_none());
        assert_eq!(frame(text, Reader::Owning).map(|frame| frame.mends().len()), Some(6));
        let strict = "```json\n{\"a\": 1}\n```";
        assert!(frame(strict, Reader::Borrowing).is_some_and(|frame| frame.mends().is_empty()));
        // A bare value is framed only by its mends: never for a borrowing reader.
        assert!(frame("{'a': 1}", Reader::Borrowing).is_none());
        assert!(frame("{'a': 1}", Reader::Owning).is_some());
    }

    #[test]
    fn a_frame_read_after_another_has_only_its_own_mends() {
        // The second frame reuses the first one's vector (`spare`), emptied.
        let options = ParseOptions::default();
        let frame = |text: &str| TextFrame::of(text, &options, Mends::Unknown, Reader::Owning);
        let first = frame("{'a': True, 'b': [None, False,], c: 'x',}");
        assert_eq!(first.as_ref().map(|frame| frame.mends().len()), Some(9));
        drop(first);
        let second = frame("{a: 1}");
        assert_eq!(second.map(|frame| frame.mends().to_vec()), Some(vec![Mend::Key(1, 2)]));
        // And a copy mended after another is its own too.
        let text = "{'a': 1,}";
        let read = |text: &str| {
            framed_first(text, &options, Mends::Unknown, |d| {
                Value::deserialize(d).map(|value| (value, false))
            })
            .map(|(value, _)| value)
        };
        assert_eq!(
            read("{'long_key_here': 'a long value',}"),
            Some(serde_json::json!({"long_key_here": "a long value"}))
        );
        assert_eq!(read(text), Some(serde_json::json!({"a": 1})));
    }

    #[test]
    fn a_search_that_finds_no_frame_gives_its_vector_back() {
        let options = ParseOptions::default();
        let text = "```python\n{'a': True, 'b': [1,]}\n```";
        drop(TextFrame::of(text, &options, Mends::Unknown, Reader::Owning));
        let room = super::super::lexer::mends::spare_room();
        assert!(room > 0);
        // A borrowing reader has no frame for a value that needs mends: the search's vector
        // (the spare one) goes back all the same.
        assert!(TextFrame::of(text, &options, Mends::Unknown, Reader::Borrowing).is_none());
        assert_eq!(super::super::lexer::mends::spare_room(), room);
    }

    #[test]
    fn a_mended_copy_is_offered_once_its_mends_gone_before_it_is_read() {
        let options = ParseOptions::default();
        let text = "```python\n{'a': True, 'b': [1,]}\n```";
        let Some(mut frame) = TextFrame::of(text, &options, Mends::Unknown, Reader::Owning) else {
            panic!("no frame")
        };
        let read = |d: &mut serde_json::Deserializer<StrRead<'_>>| Value::deserialize(d).map(|v| (v, false));
        let mut mends_left = None;
        let spy = |d: &mut serde_json::Deserializer<StrRead<'_>>| {
            mends_left = Some(super::super::lexer::mends::spare_room());
            read(d)
        };
        assert!(
            matches!(frame.offer_owned(text, 128, spy), Strict::Read(v) if v == serde_json::json!({"a": true, "b": [1]}))
        );
        // The vector of mends was back with the thread while `serde_json` read the copy.
        assert!(mends_left.is_some_and(|room| room > 0), "{mends_left:?}");
        assert!(frame.mends().is_empty());
        // Borrowing or owning, the value is not offered again: it needs the mends.
        assert!(matches!(frame.offer_owned(text, 128, read), Strict::NotTried));
        assert!(matches!(frame.offer(text, 128, read), Strict::NotTried));
    }
}
