//! [`ParseMode::Repair`](crate::parse::ParseMode::Repair): strings whose quotes cannot be trusted,
//! text without quotes, and regular expressions.
//!
//! A string is read as raw bytes (into `Lexer::raw`) and decoded only when it ends, because
//! where it ends is a guess. The guess follows jsonrepair: a quote ends the string when what
//! follows it (after spaces) is the end of the input, a delimiter (`, : [ ] { } ( ) / +` or a
//! line break; a closing bracket only when the string has no unclosed opening one of its
//! kind), a digit, or a quote that does not itself end a string. Otherwise the character
//! before the quote decides: a comma means the string really ended before that comma
//! (`{"a": "b, "c": 1}`), another delimiter means it ended at its first delimiter, and
//! anything else means the quote is content (`"a 24" screen"`). A string still open at the
//! end of the input whose last character is a delimiter also ends at its first delimiter
//! (`["a, b]`). Ending a string early pushes the rest of its bytes back to be read again as
//! tokens (a replay, bounded by the lexer's budget). In an object value, a second quote
//! after spaces, with only a comma and the end of the object after it, is stray
//! (`{"a": "b"\n",}`).
//!
//! With `RepairStyle::JsonRepair` a few of json_repair's guesses apply as well: quotes kept
//! as content pair up, so a quote before `}` that closes an inner quotation is content
//! (`"v"alue"}`); a `{` followed by a word opens no object, so a quote before `:` inside
//! it ends the string; text without quotes in an object value reads on past commas to a
//! quote glued to it and followed by `,` or `}` (`ipsum, sic, datum.",`), or else ends at
//! its first comma, the rest read again.
//!
//! This file holds what the rules keep and the character classes they use; `strings` reads
//! strings whose quotes cannot be trusted, `unquoted` text without quotes and regular
//! expressions. Both read on from the lexer (they continue its `impl`), which never imports
//! them: it only holds the repair mode's state, defined here.

mod strings;
mod unquoted;

use crate::parse::lexer::bytes::hex4;
use crate::parse::lexer::state::{Ctx, StrPrefix};

/// What only [`ParseMode::Repair`] keeps while the lexer reads (`Lexer::salvage`, there
/// exactly in that mode): the strict and lenient lexers carry none of it.
#[derive(Debug)]
pub(crate) struct RepairState {
    /// Complete cut-off text the stream-stable way (`ParseOptions::stream_stable`); when
    /// false, text cut off at the end is read as final.
    pub(in crate::parse) stream_stable: bool,
    /// Follow json_repair where it reads broken text differently from jsonrepair
    /// (`RepairStyle::JsonRepair`).
    pub(in crate::parse) python_style: bool,
    /// How many tokens were sent (only whether it is one matters).
    pub(in crate::parse) tokens: u32,
    /// The raw bytes of the current string, unquoted text or regex.
    pub(in crate::parse) raw: Vec<u8>,
    /// What is known about the string in `raw`.
    pub(in crate::parse) info: RawInfo,
    /// Bytes to read again, innermost last.
    pub(in crate::parse) replay: Vec<Segment>,
    /// Bytes pushed back for reading again so far (bounded by the input read).
    pub(in crate::parse) replayed: usize,
    /// What follows the string being ended may be a `+` (or a comment before one): hold it.
    pub(in crate::parse) may_join: bool,
    /// A `+` followed the held string.
    pub(in crate::parse) concat: bool,
    /// Prose before any value, kept to be read as text if no value follows, with its
    /// offset.
    pub(in crate::parse) prose_raw: Option<(Vec<u8>, usize)>,
    /// The prose was read again as bare text (no more prose).
    pub(in crate::parse) bare: bool,
    /// Prose started at this offset after a top-level scalar; if an object or array
    /// follows, the scalar was prose too.
    pub(in crate::parse) scalar_prose: Option<usize>,
    /// The value was in a code fence that closed; only another fence may hold a further
    /// value.
    pub(in crate::parse) fenced: bool,
    /// The values read so far (from this offset) turned out to be prose: the builder
    /// forgets them before the next token.
    pub(in crate::parse) discard_from: Option<usize>,
}

impl RepairState {
    /// The state before the first byte.
    pub(crate) fn new() -> RepairState {
        RepairState {
            stream_stable: true,
            python_style: false,
            tokens: 0,
            raw: Vec::new(),
            info: RawInfo::default(),
            replay: Vec::new(),
            replayed: 0,
            may_join: true,
            concat: false,
            prose_raw: None,
            bare: false,
            scalar_prose: None,
            fenced: false,
            discard_from: None,
        }
    }

    /// A new state, boxed for a lexer to hold: made once per repair-mode lexer, never on
    /// a hot path.
    #[cold]
    pub(crate) fn boxed() -> Box<RepairState> {
        Box::new(RepairState::new())
    }

    /// Read `bytes` (absolute offset `origin`) again before going on, if the budget allows:
    /// at most as many bytes in all as the input read up to `at`, plus a little.
    pub(in crate::parse) fn push_replay(&mut self, bytes: Vec<u8>, origin: usize, at: usize) -> bool {
        if self.replayed + bytes.len() > 2 * at + 64 {
            return false;
        }
        self.replayed += bytes.len();
        if !bytes.is_empty() {
            self.replay.push(Segment { bytes, pos: 0, origin });
        }
        true
    }

    /// Read `bytes` again (a few bytes put aside while looking ahead): not counted against
    /// the budget, since each such look-ahead reads at most one character twice.
    pub(in crate::parse) fn push_replay_always(&mut self, bytes: Vec<u8>, origin: usize) {
        if !bytes.is_empty() {
            self.replay.push(Segment { bytes, pos: 0, origin });
        }
    }

    /// Start text to collect in `raw` with `bytes`.
    #[inline]
    pub(in crate::parse) fn start_raw(&mut self, bytes: &[u8]) {
        self.raw.clear();
        self.raw.extend_from_slice(bytes);
    }

    /// Whether `raw[..upto]` has an unclosed bracket of any kind.
    #[inline]
    fn any_unclosed(&mut self, upto: usize) -> bool {
        self.info.any_unclosed(&self.raw, upto)
    }

    /// Whether `raw[..upto]` has more opening brackets of `closer`'s kind than closing ones.
    #[inline]
    fn unclosed(&mut self, upto: usize, closer: u8) -> bool {
        self.info.unclosed(&self.raw, upto, closer)
    }

    /// Whether the innermost `{` of `raw[..upto]` still open is followed by a word.
    #[inline]
    fn in_bare_brace(&mut self, upto: usize) -> bool {
        self.info.in_bare_brace(&self.raw, upto)
    }

    /// Where the string in `raw` ends if its closing quote is missing, looking at
    /// `raw[..upto]`.
    fn stop(&mut self, upto: usize) -> Option<Stop> {
        self.info.stop(&self.raw, upto)
    }
}

/// Bytes to read again, before the rest of the current fragment.
#[derive(Debug)]
pub(crate) struct Segment {
    /// The bytes.
    pub(in crate::parse) bytes: Vec<u8>,
    /// How far the segment has been read.
    pub(in crate::parse) pos: usize,
    /// Absolute offset of `bytes[0]`.
    pub(in crate::parse) origin: usize,
}

/// Where a string must end when its closing quote was missing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stop {
    /// At the delimiter `raw[k]` (which is read again).
    Delimiter(usize),
    /// At the quote `raw[k]`, which was taken for content.
    Quote(usize),
}

/// What is known about the string being read in `Lexer::raw`, computed lazily (only when a
/// quote needs a decision) and incrementally (each byte is scanned once).
#[derive(Debug, Clone, Default)]
pub(crate) struct RawInfo {
    /// Absolute offset of `raw[0]`.
    pub(crate) content_at: usize,
    /// Where the string is.
    ctx: Ctx,
    /// Opened with a single quote (so `\'` is its plain escape).
    single: bool,
    /// Python's string prefix before its quote (`u'`, `r'`, `b"`): a Python literal, whose
    /// escapes are Python's (none if raw).
    pub(in crate::parse) prefix: Option<StrPrefix>,
    /// The string continues a Python literal joined to the one before it (`'a ' "b"`): a
    /// literal after it joins it too, whatever its quotes (`'a ' "b " "c"`, as `pprint`
    /// splits a long string).
    pub(in crate::parse) python_joined: bool,
    /// A quote kept as content right before a word opened an inner quotation that no
    /// later content quote closed yet: json_repair pairs them, so the next quote is content
    /// too where it would otherwise end the string before `}`.
    unpaired: bool,
    /// A quote kept as content opened an inner quotation (`lorem "ipsum`) that no later
    /// content quote closed yet.
    inner_open: bool,
    /// Where that inner quotation opened.
    open_at: Option<usize>,
    /// The first quote kept as content that looked like a closing one (after a word,
    /// before a space): where a string missing its closing quote ends, as jsonrepair reads
    /// it again.
    first_closing: Option<usize>,
    /// The string opened with a doubled quote (`""value""`).
    doubled: bool,
    /// `, "` inside an item or member value (the comma's and the quote's index): a new
    /// string starts at that quote only if the next quote ends it where one would end.
    candidate: Option<(usize, usize)>,
    /// How far `first_delimiter` has been looked for, and whether that point is escaped.
    scanned: usize,
    scan_escaped: bool,
    /// 0: not decided yet, 1: not a URL, 2: inside the URL (`https://...`).
    url: u8,
    /// The first delimiter where the string would end if its closing quote was missing.
    first_delimiter: Option<usize>,
    /// How far the brackets have been counted, and opened minus closed for `()`, `[]`, `{}`.
    counted: usize,
    open: [i64; 3],
    /// The `{` counted and not yet closed, innermost last: whether a word follows it (`{ b`,
    /// not `{"b"`), so it does not open a JSON object.
    braces: Vec<bool>,
}

impl RawInfo {
    /// Look for the first delimiter in `raw[..upto]` (for a key, `:` is one too).
    fn scan(&mut self, raw: &[u8], upto: usize) {
        if self.first_delimiter.is_some() {
            return;
        }
        if self.url == 0 {
            // jsonrepair keeps a URL whole: `"https://a.b/c` stops only after it.
            match URL_SCHEMES.iter().find(|scheme| raw.starts_with(scheme)) {
                Some(scheme) if self.ctx != Ctx::Key => {
                    self.url = 2;
                    self.scanned = scheme.len();
                }
                _ => self.url = 1,
            }
        }
        let mut i = self.scanned;
        while i < upto {
            let Some(&b) = raw.get(i) else { break };
            if self.url == 2 {
                if !is_url_char(b) {
                    self.first_delimiter = Some(i);
                    return;
                }
            } else if self.scan_escaped {
                self.scan_escaped = false;
            } else if b == b'\\' {
                self.scan_escaped = true;
            } else if is_unquoted_delimiter(b) || (b == b':' && self.ctx == Ctx::Key) {
                self.first_delimiter = Some(i);
                return;
            }
            i += 1;
        }
        self.scanned = i.max(self.scanned);
    }

    /// Where the string ends if its closing quote is missing, looking at `raw[..upto]`.
    fn stop(&mut self, raw: &[u8], upto: usize) -> Option<Stop> {
        self.scan(raw, upto);
        let delimiter = self.first_delimiter.filter(|&k| k < upto);
        let quote = self.first_closing.filter(|&k| k < upto);
        match (delimiter, quote) {
            (Some(d), Some(q)) if q < d => Some(Stop::Quote(q)),
            (Some(d), _) => Some(Stop::Delimiter(d)),
            (None, Some(q)) => Some(Stop::Quote(q)),
            (None, None) => None,
        }
    }

    /// Count the brackets in `raw[..upto]`.
    fn count(&mut self, raw: &[u8], upto: usize) {
        let from = self.counted.min(upto);
        let counting = raw.get(..upto).unwrap_or_default();
        for (k, &b) in counting.iter().enumerate().skip(from) {
            match b {
                b'(' => self.open[0] += 1,
                b')' => self.open[0] -= 1,
                b'[' => self.open[1] += 1,
                b']' => self.open[1] -= 1,
                b'{' => {
                    self.open[2] += 1;
                    // Spaces up to `upto` are followed by the quote being decided: no word.
                    let after = counting.get(k + 1..).unwrap_or_default();
                    let next = after.iter().find(|b| !b.is_ascii_whitespace());
                    self.braces.push(next.is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_'));
                }
                b'}' => {
                    self.open[2] -= 1;
                    self.braces.pop();
                }
                _ => {}
            }
        }
        self.counted = self.counted.max(upto);
    }

    /// Whether the innermost `{` of `raw[..upto]` still open is followed by a word.
    fn in_bare_brace(&mut self, raw: &[u8], upto: usize) -> bool {
        self.count(raw, upto);
        self.braces.last() == Some(&true)
    }

    /// Whether `raw[..upto]` has more opening brackets of `closer`'s kind than closing ones.
    fn unclosed(&mut self, raw: &[u8], upto: usize, closer: u8) -> bool {
        self.count(raw, upto);
        let index = match closer {
            b')' => 0,
            b']' => 1,
            _ => 2,
        };
        self.open.get(index).is_some_and(|&n| n > 0)
    }

    /// Whether `raw[..upto]` has an unclosed bracket of any kind.
    fn any_unclosed(&mut self, raw: &[u8], upto: usize) -> bool {
        self.count(raw, upto);
        self.open.iter().any(|&n| n > 0)
    }
}

/// The schemes jsonrepair recognises at the start of a string or text.
const URL_SCHEMES: [&[u8]; 7] =
    [b"http://", b"https://", b"ftp://", b"mailto://", b"file://", b"data://", b"irc://"];

/// jsonrepair's delimiters, for the characters around a quote.
#[inline]
pub(crate) fn is_delimiter(b: u8) -> bool {
    matches!(b, b',' | b':' | b'[' | b']' | b'/' | b'{' | b'}' | b'(' | b')' | b'\n' | b'+')
}

/// jsonrepair's delimiters that end a string whose closing quote is missing.
#[inline]
fn is_unquoted_delimiter(b: u8) -> bool {
    matches!(b, b',' | b'[' | b']' | b'/' | b'{' | b'}' | b'\n' | b'+')
}

/// The characters of a URL, except `[`, `]` and `,`, which matter more as JSON delimiters.
#[inline]
fn is_url_char(b: u8) -> bool {
    b.is_ascii_alphanumeric()
        || matches!(
            b,
            b'-' | b'.'
                | b'_'
                | b'~'
                | b':'
                | b'/'
                | b'?'
                | b'#'
                | b'@'
                | b'!'
                | b'$'
                | b'&'
                | b'\''
                | b'('
                | b')'
                | b'*'
                | b'+'
                | b';'
                | b'='
        )
}

/// In `before` (an object member's value up to a quote), the comma of `, key:` ending at
/// the colon `raw[colon]`: a member without quotes that began there.
fn bare_member(before: &[u8], colon: usize) -> Option<usize> {
    let head = before.get(..colon)?;
    let key_end = head.iter().rposition(|b| !b.is_ascii_whitespace())? + 1;
    let key_start = head
        .get(..key_end)?
        .iter()
        .rposition(|&b| !(b.is_ascii_alphanumeric() || b == b'_' || b == b'-'))
        .map_or(0, |k| k + 1);
    if key_start == key_end {
        return None;
    }
    let comma = head.get(..key_start)?.iter().rposition(|b| !b.is_ascii_whitespace())?;
    (head.get(comma) == Some(&b',')).then_some(comma)
}

/// In `text` (an object member's value cut off at the end), the first `,` or `}` followed by
/// `key:`: where a member without quotes began (`"first, b: 1}`). When the text is
/// `settled` (it will not grow), the key may also open with a quote that nothing closes
/// (`"first, `b: 1`), or that closes before the colon.
fn next_member(text: &[u8], settled: bool) -> Option<usize> {
    let mut i = 0;
    while let Some(&b) = text.get(i) {
        if b == b',' || b == b'}' {
            let rest = text.get(i + 1..).unwrap_or_default();
            let key_at = rest.iter().position(|b| !b.is_ascii_whitespace())?;
            let mut key = rest.get(key_at..).unwrap_or_default();
            let quote = key.first().copied().filter(|&q| settled && matches!(q, b'"' | b'\'' | b'`'));
            if quote.is_some() {
                key = key.get(1..).unwrap_or_default();
            }
            let key_len =
                key.iter().take_while(|&&b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-').count();
            if key_len > 0 {
                let mut after = key.get(key_len..).unwrap_or_default();
                if let Some(rest) = quote.and_then(|q| after.strip_prefix(&[q])) {
                    after = rest;
                }
                let colon = after.iter().position(|b| !b.is_ascii_whitespace());
                if colon.and_then(|k| after.get(k)) == Some(&b':') {
                    return Some(i);
                }
            }
        }
        i += 1;
    }
    None
}

/// Drop an escape cut off at the end of `raw` (`\`, `\u12`, a high surrogate `\ud83d`
/// without its low half).
fn drop_partial_escape(raw: &mut Vec<u8>) {
    // Find the start of the last escape, counting backslashes so that `\\` is complete.
    let mut i = 0;
    let mut last_escape = None;
    while let Some(&b) = raw.get(i) {
        if b == b'\\' {
            last_escape = Some(i);
            i += 2;
        } else {
            i += 1;
        }
    }
    let Some(k) = last_escape else { return };
    let escape = raw.get(k..).unwrap_or_default();
    let partial = match escape {
        [b'\\'] => true,
        [b'\\', b'u', hex @ ..] if hex.len() < 4 => true,
        [b'\\', b'u', hex @ ..] if hex.len() == 4 => {
            // A high surrogate needs its low half.
            hex4(hex).is_some_and(|unit| (0xD800..=0xDBFF).contains(&unit))
        }
        _ => false,
    };
    if partial {
        raw.truncate(k);
    }
}

/// Drop trailing ASCII whitespace.
#[inline]
fn trim_end(raw: &mut Vec<u8>) {
    while raw.last().is_some_and(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n')) {
        raw.pop();
    }
}
