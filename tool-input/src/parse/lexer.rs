//! The resumable tokenizer.
//!
//! [`Lexer`] is a push-based state machine: [`Lexer::feed`] takes the next fragment of the
//! input, split anywhere (inside a token, an escape or a multi-byte UTF-8 character), and
//! emits every token it completes to a [`Sink`] (the tree builder). Everything a token needs
//! across fragments lives in the lexer: the partly decoded string content or the partial
//! number or word text in `buf`, a pending escape or surrogate in [`Esc`], and the position
//! in a multi-byte delimiter such as `“`, a BOM or a code fence. [`Lexer::finish`] ends the
//! input. Total work is linear in the bytes fed, whatever the fragment sizes: each byte is
//! looked at a bounded number of times, and token text is copied once into `buf` only when
//! the token spans fragments or needs decoding.
//!
//! The lexer also owns the parts of lenient parsing that are about the text around the
//! value (BOM, code fence, prose before and after, comments), because those decide how
//! bytes are read, not how the tree is built. It asks the sink whether the next token is an
//! object key (so a bare word is an unquoted key, not a literal) and whether the top-level
//! value is complete (so what follows is trailing text).
//!
//! [`ParseMode::Repair`] adds the repairs that need to look ahead past a quote or re-read
//! text (see `salvage`). Re-reading never rewinds the caller's input: the bytes to read
//! again are kept by the lexer (a string's raw bytes, prose before any value) and pushed
//! back as a *replay* segment that is read before the rest of the fragment. Replays are
//! bounded by a budget proportional to the input read so far, so the total work stays
//! linear; past the budget, the repair that would need one takes its cheaper alternative.

use serde_json::Number;

use super::salvage::{Look, RQuote, RawInfo, Unq};
use super::{NonFinite, ParseMode, ParseOptions, RepairKind};

/// Why the machine stopped. Boxed, so that the `Result` every token passes through stays
/// one word.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Failure(Box<Fail>);

impl From<Fail> for Failure {
    #[cold]
    fn from(fail: Fail) -> Failure {
        Failure(Box::new(fail))
    }
}

/// Why the machine stopped, before line and column are known (those need the whole input,
/// and are computed only for the error that is returned).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Fail {
    /// Not JSON, even after the repairs the mode allows.
    Syntax {
        /// Lowercase words.
        message: String,
        /// Absolute byte offset.
        offset: usize,
    },
    /// A character that does not belong. The message, `{prefix}{character}{suffix}`, is made
    /// when the error is reported, from the whole input: a fragment may end inside the
    /// character.
    Char {
        /// Absolute byte offset of the error.
        offset: usize,
        /// Absolute byte offset of the character.
        at: usize,
        prefix: &'static str,
        suffix: &'static str,
    },
    /// The input ended inside something.
    Truncated {
        /// What was open, e.g. "a string".
        inside: &'static str,
    },
    /// Deeper than `max_depth`.
    TooDeep,
    /// A string or key was not valid UTF-8 (only possible when fed raw bytes).
    InvalidUtf8 {
        /// Absolute byte offset, at best the start of the string.
        offset: usize,
    },
}

impl Failure {
    #[cold]
    pub(crate) fn syntax(message: impl Into<String>, offset: usize) -> Failure {
        Failure::from(Fail::Syntax { message: message.into(), offset })
    }

    /// What went wrong.
    pub(crate) fn into_kind(self) -> Fail {
        *self.0
    }

    /// Where a syntax error is (`None` for the other failures).
    pub(crate) fn syntax_offset(&self) -> Option<usize> {
        match *self.0 {
            Fail::Syntax { offset, .. } | Fail::Char { offset, .. } => Some(offset),
            Fail::Truncated { .. } | Fail::TooDeep | Fail::InvalidUtf8 { .. } => None,
        }
    }

    /// "unexpected character X{suffix}" for the character at `at`.
    #[cold]
    pub(crate) fn unexpected(at: usize, suffix: &'static str) -> Failure {
        Failure::from(Fail::Char { offset: at, at, prefix: "unexpected character ", suffix })
    }
}

/// One token, decoded.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Token {
    BeginObject,
    EndObject,
    BeginArray,
    EndArray,
    /// `(`: a Python tuple, or (`true`) the argument list of a function call wrapper such as
    /// `NumberLong(` or `callback(`.
    BeginParen(bool),
    EndParen,
    Colon,
    Comma,
    /// `...` standing for omitted items ([`ParseMode::Repair`]).
    Ellipsis,
    /// A string, or an object key (the builder knows which from its state).
    Str(String),
    Number(Number),
    Bool(bool),
    Null,
}

impl Token {
    /// How an error message names this token.
    pub(crate) fn describe(&self) -> &'static str {
        match self {
            Token::BeginObject => "`{`",
            Token::EndObject => "`}`",
            Token::BeginArray => "`[`",
            Token::EndArray => "`]`",
            Token::BeginParen(_) => "`(`",
            Token::EndParen => "`)`",
            Token::Colon => "`:`",
            Token::Comma => "`,`",
            Token::Ellipsis => "`...`",
            Token::Str(_) => "a string",
            Token::Number(_) => "a number",
            Token::Bool(true) => "`true`",
            Token::Bool(false) => "`false`",
            Token::Null => "`null`",
        }
    }
}

/// Where a string is, which decides how its stray quotes are read ([`ParseMode::Repair`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Ctx {
    /// A top-level value.
    #[default]
    Top,
    /// An object key.
    Key,
    /// An object member's value.
    ObjectValue,
    /// An array item.
    Array,
}

/// Where the lexer sends tokens and repairs: the tree builder.
pub(crate) trait Sink {
    /// Where the next token goes.
    fn context(&self) -> Ctx;
    /// Take one token that starts at absolute byte `offset`.
    fn token(&mut self, token: Token, offset: usize) -> Result<(), Failure>;
    /// Whether the next token is an object key (a bare word there is an unquoted key).
    fn expects_key(&self) -> bool;
    /// Whether the top-level value is complete (what follows is trailing text).
    fn is_complete(&self) -> bool;
    /// Record a repair.
    fn repair(&mut self, kind: RepairKind, offset: usize);
    /// The next number token is a float whose integral value the text (`literal`) does not
    /// denote exactly (see `crate::decimal`). Only the builder that tracks them cares.
    fn inexact_number(&mut self, _literal: &[u8]) {}
    /// Remove the repairs of `kind` recorded so far (what looked like prose was the value).
    fn retract(&mut self, kind: RepairKind);
    /// Whether the innermost open container is a `(` (so `)` ends unquoted text).
    fn in_paren(&self) -> bool;
    /// Whether any array or object is open.
    fn in_container(&self) -> bool;
    /// A line break between top-level values ([`ParseMode::Repair`]).
    fn line_break(&mut self);
    /// The next key token was written without quotes.
    fn bare_key(&mut self);
    /// Forget the values read so far: they were prose before the real value.
    fn discard(&mut self);
    /// Undo the only token read so far, an opening bracket (it belonged to a code fence
    /// such as ```` [``` ````). Returns whether it could.
    fn undo_open(&mut self) -> bool;
}

/// Where the lexer is relative to the top-level value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Phase {
    /// No token yet: BOM, whitespace, comments, a code fence or prose may come first.
    Start,
    /// Inside the value.
    Value,
    /// The value is complete: only whitespace (strict) or trailing text (lenient) follows;
    /// in [`ParseMode::Repair`] also separators, stray closing brackets and more values.
    After,
    /// A closing code fence inside the value ended the input early (lenient).
    Ended,
}

/// The quote a string was opened with, which decides what closes it (strict and lenient
/// modes; [`ParseMode::Repair`] reads strings with [`RQuote`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Quote {
    /// `"`: the next unescaped `"` closes.
    Double,
    /// `'`: a `'` closes only when the next non-whitespace is `, } ] :` or the end.
    Single,
    /// `“` or `”`: `”` or `“` closes, with the same look-ahead as `'`.
    SmartDouble,
    /// `‘` or `’`: `’` or `‘` closes, with the same look-ahead (`’` is also the apostrophe).
    SmartSingle,
}

impl Quote {
    /// The byte that interrupts a content run: the quote, or the lead byte of a smart quote.
    fn stop_byte(self) -> u8 {
        match self {
            Quote::Double => b'"',
            Quote::Single => b'\'',
            Quote::SmartDouble | Quote::SmartSingle => 0xE2,
        }
    }

    /// Whether `E2 80 last` is a closing quote for this string.
    fn smart_closes(self, last: u8) -> bool {
        match self {
            Quote::SmartDouble => matches!(last, 0x9C | 0x9D),
            Quote::SmartSingle => matches!(last, 0x98 | 0x99),
            Quote::Double | Quote::Single => false,
        }
    }
}

/// Where a string is, beyond plain content.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Esc {
    /// Plain content.
    None,
    /// After `\`.
    Backslash,
    /// Inside `\uXXXX`: `n` hex digits so far; `high` is a preceding high surrogate.
    Hex { n: u8, digits: [u8; 4], high: Option<u16> },
    /// After a high surrogate escape: a `\` must follow for the low half.
    WantBackslash { high: u16 },
    /// After a high surrogate escape and `\`: a `u` must follow.
    WantU { high: u16 },
    /// In a smart-quoted string, `E2` (`seen` = 1) or `E2 80` (2) of a possible quote.
    Lead { seen: u8 },
    /// A closing candidate quote was seen (kept in `buf` from `mark` on, followed by any
    /// whitespace since); the next non-whitespace decides whether it closes.
    Closing { mark: usize },
    /// After a closing candidate quote, a `/` (at `slash_at`): a comment after it
    /// (`'a' /* note */`) means the quote closed the string.
    ClosingSlash { mark: usize },
    /// In a raw string (`r'...'`), after a `\` (kept): a quote or a backslash after it is
    /// content too, as in Python.
    RawBackslash,
}

/// A Python string prefix ([`ParseMode::Lenient`]): `u` (nothing to do), `r` (no escape
/// processing), `b` (a bytes literal: its ASCII text), in either case and order (`rb`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct StrPrefix {
    raw: bool,
    bytes: bool,
}

impl StrPrefix {
    /// The prefix `word` spells, if it is one `ast.literal_eval` accepts (not `f`, whose
    /// strings are expressions).
    fn of(word: &[u8]) -> Option<StrPrefix> {
        let mut prefix = StrPrefix { raw: false, bytes: false };
        match word.to_ascii_lowercase().as_slice() {
            b"u" => {}
            b"r" => prefix.raw = true,
            b"b" => prefix.bytes = true,
            b"rb" | b"br" => prefix = StrPrefix { raw: true, bytes: true },
            _ => return None,
        }
        Some(prefix)
    }
}

/// Where a number is, following the RFC 8259 grammar (plus `0x` hexadecimal and digit
/// separators in the lenient modes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Num {
    /// Nothing read yet.
    Start,
    /// `-`.
    Minus,
    /// `0` or `-0`.
    Zero,
    /// Integer digits.
    Int,
    /// `.` without a digit after it yet.
    Dot,
    /// Fraction digits.
    Frac,
    /// `e` or `E`.
    Exp,
    /// `e+` or `e-`.
    ExpSign,
    /// Exponent digits.
    ExpDigits,
    /// `0x` without a digit yet.
    HexStart,
    /// Hexadecimal digits.
    Hex,
    /// [`ParseMode::Lenient`]: a `_` after the digits of the state it holds, as Python
    /// separates digits (`1_000`); only a digit of that state may follow.
    Sep(Digits),
}

/// Where a digit separator is: which digits must follow it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Digits {
    /// `0_`: only zeros (Python's `0_0`; `0_1` is an error).
    Zero,
    /// Integer digits.
    Int,
    /// Fraction digits.
    Frac,
    /// Exponent digits.
    Exp,
    /// Hexadecimal digits (also right after `0x`: `0x_1f`).
    Hex,
}

impl Num {
    /// The state after `b`, or `None` if `b` is not part of the number (RFC 8259).
    #[inline]
    fn step(self, b: u8) -> Option<Num> {
        match (self, b) {
            (Num::Start, b'-') => Some(Num::Minus),
            (Num::Start | Num::Minus, b'0') => Some(Num::Zero),
            (Num::Start | Num::Minus, b'1'..=b'9') => Some(Num::Int),
            (Num::Int, b'0'..=b'9') => Some(Num::Int),
            (Num::Zero | Num::Int, b'.') => Some(Num::Dot),
            (Num::Dot | Num::Frac, b'0'..=b'9') => Some(Num::Frac),
            (Num::Zero | Num::Int | Num::Frac, b'e' | b'E') => Some(Num::Exp),
            (Num::Exp, b'+' | b'-') => Some(Num::ExpSign),
            (Num::Exp | Num::ExpSign | Num::ExpDigits, b'0'..=b'9') => Some(Num::ExpDigits),
            (Num::HexStart | Num::Hex, b'0'..=b'9' | b'a'..=b'f' | b'A'..=b'F') => Some(Num::Hex),
            (Num::Sep(Digits::Zero), b'0') => Some(Num::Zero),
            (Num::Sep(Digits::Int), b'0'..=b'9') => Some(Num::Int),
            (Num::Sep(Digits::Frac), b'0'..=b'9') => Some(Num::Frac),
            (Num::Sep(Digits::Exp), b'0'..=b'9') => Some(Num::ExpDigits),
            (Num::Sep(Digits::Hex), b'0'..=b'9' | b'a'..=b'f' | b'A'..=b'F') => Some(Num::Hex),
            _ => None,
        }
    }

    /// Whether the text so far is a complete number.
    fn complete(self) -> bool {
        matches!(self, Num::Zero | Num::Int | Num::Frac | Num::ExpDigits | Num::Hex)
    }
}

/// The lexer's position inside a token or in the text around the value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum State {
    /// Between tokens (what that allows depends on the [`Phase`]).
    Between,
    /// Inside a string (strict and lenient modes).
    Str { quote: Quote, esc: Esc },
    /// Inside a string ([`ParseMode::Repair`]): raw bytes are collected in `raw`; `esc` when
    /// the previous byte was a backslash.
    Raw { quote: RQuote, esc: bool },
    /// Inside a string ([`ParseMode::Repair`]), in a multi-byte character that may close
    /// it; its first byte is `raw[mark]`.
    RawLead { quote: RQuote, mark: usize },
    /// After a quote that may close a [`State::Raw`] string (`raw[mark]`), and the
    /// whitespace after it (in `raw` too).
    Ahead { quote: RQuote, mark: usize, look: Look },
    /// Inside a number.
    Num(Num),
    /// Inside a bare word: an unquoted key (`key`) or a literal such as `true`.
    Word { key: bool },
    /// Text without quotes read as a string or key ([`ParseMode::Repair`]).
    Unquoted(Unq),
    /// A regular expression literal ([`ParseMode::Repair`]); `esc` after a backslash.
    Regex { esc: bool },
    /// `seen` bytes of the `need`-byte character at a token start (in `multi`).
    Multi { seen: u8, need: u8 },
    /// `seen` dots at a token start: `.5`, or `...` ([`ParseMode::Repair`]).
    Dots { seen: u8 },
    /// `\` at a token start: escaped JSON when `"` follows.
    Backslash,
    /// After `/` outside a string: a comment may start.
    Slash,
    /// Inside `//` or `#` up to the end of the line (`hash`: a `#` comment, which in
    /// [`ParseMode::Repair`] also ends before a closing bracket inside a container).
    LineComment { hash: bool },
    /// Inside `/* */`; `star` when the previous byte was `*`.
    BlockComment { star: bool },
    /// `seen` bytes of a UTF-8 BOM at the very start.
    Bom { seen: u8 },
    /// `seen` backticks of a possible code fence.
    Ticks { seen: u8 },
    /// The language tag after an opening code fence.
    FenceInfo,
    /// Prose before the value: skipped up to the first `{`, `[` or code fence.
    Prose,
    /// Everything up to the end is ignored (prose after the value, or after a fence).
    Ignore,
    /// [`ParseMode::Repair`]: prose after a fenced value, skipped up to another fence.
    SeekFence,
}

/// Bytes to read again, before the rest of the current fragment.
#[derive(Debug)]
pub(crate) struct Segment {
    bytes: Vec<u8>,
    /// How far the segment has been read.
    pos: usize,
    /// Absolute offset of `bytes[0]`.
    origin: usize,
}

const LITERALS: [(&[u8], Token); 3] =
    [(b"true", Token::Bool(true)), (b"false", Token::Bool(false)), (b"null", Token::Null)];
const PYTHON_LITERALS: [(&[u8], Token); 3] =
    [(b"True", Token::Bool(true)), (b"False", Token::Bool(false)), (b"None", Token::Null)];

/// A literal word, and how it was spelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Spelling {
    Json,
    Python,
    /// `undefined`.
    Undefined,
    /// `TRUE`, `Null`, `none` ([`ParseMode::Repair`]).
    OtherCase,
    /// `NaN`, `Infinity`, `-Infinity`.
    NonFinite,
}

/// The resumable tokenizer. Feed it fragments with [`Lexer::feed`], then call
/// [`Lexer::finish`]. After either returns an error the lexer must not be fed again.
#[derive(Debug)]
pub(crate) struct Lexer {
    pub(super) lenient: bool,
    /// [`ParseMode::Repair`].
    pub(super) repair: bool,
    /// Complete cut-off text the stream-stable way (`ParseOptions::stream_stable`); false
    /// only in [`ParseMode::Repair`], where text cut off at the end is then read as final.
    pub(super) stream_stable: bool,
    /// Follow json_repair where it reads broken text differently from jsonrepair
    /// ([`ParseMode::Repair`] with `RepairStyle::JsonRepair`).
    pub(super) python_style: bool,
    non_finite: NonFinite,
    /// Absolute offset of the first byte of the fragment (or replay segment) being read.
    pub(super) base: usize,
    pub(super) state: State,
    pub(super) phase: Phase,
    /// Token text that spans fragments, or decoded string content.
    pub(super) buf: Vec<u8>,
    /// The first part of a string's content, when it came from `str` fragments and needed
    /// no byte-at-a-time state: known valid, so it is not validated again. The content is
    /// `text_buf` followed by `buf`; `text_buf` only grows while `buf` is empty.
    text_buf: String,
    /// Absolute offset where the current token (or fence, comment, word) started.
    pub(super) start: usize,
    /// Absolute offset of the `\` of the current escape.
    esc_at: usize,
    /// Absolute offset of the `\` of a pending high surrogate escape.
    high_at: usize,
    /// Absolute offset of a closing candidate quote.
    quote_at: usize,
    /// An opening code fence was seen and not yet closed.
    fence_open: bool,
    /// Prose before the value was recorded.
    prose_seen: bool,
    /// Absolute offset and first byte of the top-level value, once it started.
    value_start: Option<(usize, u8)>,
    /// The top-level value is a bare number or literal that just ended, with nothing (not
    /// even whitespace) after it yet: text glued to it means it was not a number or literal
    /// (`746de9ad-…` is no 746), so that is an error, not prose after the value.
    glued: bool,
    /// How many tokens were sent (only whether it is one matters).
    tokens: u32,
    /// The bytes of the character at a token start, in [`State::Multi`].
    pub(super) multi: [u8; 4],
    /// [`ParseMode::Repair`]: the raw bytes of the current string, unquoted text or regex.
    pub(super) raw: Vec<u8>,
    /// [`ParseMode::Repair`]: what is known about the string in `raw`.
    pub(super) info: RawInfo,
    /// Bytes to read again, innermost last.
    replay: Vec<Segment>,
    /// Bytes pushed back for reading again so far (bounded by the input read).
    pub(super) replayed: usize,
    /// [`ParseMode::Repair`]: the last string read, kept until the next token in case a `+`
    /// joins another string to it, with its offset.
    held: Option<(String, usize)>,
    /// [`ParseMode::Repair`]: what follows the string being ended may be a `+` (or a comment
    /// before one): hold it.
    pub(super) may_join: bool,
    /// A `+` followed the held string.
    concat: bool,
    /// [`ParseMode::Lenient`]: the string being read had a Python prefix (`r''`, `b''`).
    prefix: Option<StrPrefix>,
    /// [`ParseMode::Lenient`]: the held string joins literals: the length of the first and
    /// where the second started.
    joined: Option<(usize, usize)>,
    /// [`ParseMode::Repair`]: prose before any value, kept to be read as text if no value
    /// follows, with its offset.
    prose_raw: Option<(Vec<u8>, usize)>,
    /// [`ParseMode::Repair`]: the prose was read again as bare text (no more prose).
    bare: bool,
    /// Escaped JSON (`{\"a\": 1}`) is being read: one level of backslashes is removed
    /// before the bytes are tokenized. `Some(true)` while a backslash is pending.
    unescape: Option<bool>,
    /// [`ParseMode::Repair`]: prose started at this offset after a top-level scalar; if an
    /// object or array follows, the scalar was prose too.
    scalar_prose: Option<usize>,
    /// Absolute offset of a `/` whose meaning depends on the next byte.
    pub(super) slash_at: usize,
    /// [`ParseMode::Repair`]: the value was in a code fence that closed; only another fence
    /// may hold a further value.
    fenced: bool,
    /// The values read so far (from this offset) turned out to be prose: the builder
    /// forgets them before the next token.
    discard_from: Option<usize>,
}

impl Lexer {
    /// A lexer for `mode` whose first fragment starts at absolute offset `base`.
    pub(crate) fn new(mode: ParseMode, non_finite: NonFinite, base: usize) -> Lexer {
        Lexer {
            lenient: mode != ParseMode::Strict,
            repair: mode == ParseMode::Repair,
            stream_stable: true,
            python_style: false,
            non_finite,
            base,
            state: State::Between,
            phase: Phase::Start,
            buf: Vec::new(),
            text_buf: String::new(),
            start: base,
            esc_at: base,
            high_at: base,
            quote_at: base,
            fence_open: false,
            prose_seen: false,
            value_start: None,
            glued: false,
            tokens: 0,
            multi: [0; 4],
            raw: Vec::new(),
            info: RawInfo::default(),
            replay: Vec::new(),
            replayed: 0,
            held: None,
            may_join: true,
            concat: false,
            prefix: None,
            joined: None,
            prose_raw: None,
            bare: false,
            unescape: None,
            scalar_prose: None,
            slash_at: base,
            discard_from: None,
            fenced: false,
        }
    }

    /// A lenient lexer that starts inside prose that was already recorded (used to retry
    /// the next `{` or `[` after a candidate failed); `fence_open` if a code fence was
    /// opened before it.
    pub(crate) fn in_prose(mode: ParseMode, non_finite: NonFinite, base: usize, fence_open: bool) -> Lexer {
        let mut lexer = Lexer::new(mode, non_finite, base);
        lexer.state = State::Prose;
        lexer.prose_seen = true;
        lexer.fence_open = fence_open;
        lexer
    }

    /// This lexer with the readings `options` choose beyond its mode, which only
    /// [`ParseMode::Repair`] makes: how to complete cut-off text
    /// (`ParseOptions::stream_stable`), and whose guesses to follow
    /// (`ParseOptions::style`).
    pub(crate) fn with_readings(mut self, options: &ParseOptions) -> Lexer {
        self.stream_stable = options.stream_stable || !self.repair;
        self.python_style = self.repair && options.style == super::RepairStyle::JsonRepair;
        self
    }

    /// Absolute offset and first byte of the top-level value, once it started.
    pub(crate) fn value_start(&self) -> Option<(usize, u8)> {
        self.value_start
    }

    /// Whether prose before the value was skipped.
    pub(crate) fn prose_seen(&self) -> bool {
        self.prose_seen
    }

    /// Whether a code fence was opened and not closed.
    pub(crate) fn fence_open(&self) -> bool {
        self.fence_open
    }

    /// Total bytes fed so far, as an absolute offset.
    pub(crate) fn offset(&self) -> usize {
        self.base
    }

    /// The string being read (strict and lenient modes), for the streaming parser: its
    /// decoded content so far is `text_buf` followed by the bytes of `buf` returned here. A
    /// closing candidate quote and the whitespace after it are left out until they are known
    /// to be content; so are a partial escape and a smart-quote lead (not in `buf` yet). The
    /// bytes may end inside a UTF-8 character.
    ///
    /// The streaming parser moves the text out of `text_buf` as it shows it (the token then
    /// carries only what came after): `text_buf` is only appended to, and `buf` (whose
    /// offsets the look-ahead states keep) is left alone.
    pub(crate) fn open_string(&mut self) -> Option<(&mut String, &[u8])> {
        let State::Str { esc, .. } = self.state else { return None };
        if self.held.is_some() || self.prefix.is_some_and(|prefix| prefix.bytes) {
            // A literal that continues a held one (shown when they are joined), or a bytes
            // literal (whose text is checked whole when it ends).
            return None;
        }
        let end = match esc {
            Esc::Closing { mark } | Esc::ClosingSlash { mark } => mark,
            _ => self.buf.len(),
        };
        Some((&mut self.text_buf, self.buf.get(..end).unwrap_or_default()))
    }

    /// For the streaming parser: if a string is being read with nothing pending (no escape,
    /// no look-ahead, no content held in `text_buf` or `buf`, nothing to replay, no escaped
    /// JSON), read the content at the start of `chunk` as [`Lexer::string`] would, except that
    /// it is not copied into `text_buf`: the caller appends it itself, where it shows the
    /// string. Returns how many bytes that is: all of `chunk` when nothing in it interrupts
    /// the content, the bytes before the closing `"` of a `"` string, else 0 (an escape, a
    /// control character or another quote is left to [`Lexer::string`]). The state after it
    /// is the one [`Lexer::string`] leaves after that content (still in the string, `base`
    /// past it), so the rest of `chunk` is then fed as usual.
    ///
    /// Most fragments of a long string value are all content; this skips the state machine
    /// and one copy of the text for them, and for the text before the quote that ends one.
    #[inline]
    pub(crate) fn plain_run(&mut self, chunk: &str) -> usize {
        let State::Str { quote, esc: Esc::None } = self.state else { return 0 };
        if !self.buf.is_empty()
            || !self.text_buf.is_empty()
            || !self.replay.is_empty()
            || self.unescape.is_some()
            || self.held.is_some()
            || self.prefix.is_some()
        {
            return 0;
        }
        let bytes = chunk.as_bytes();
        let len = match first_special(bytes, quote.stop_byte()) {
            at if at == bytes.len() => at,
            // `"` closes a `"` string at once (no look-ahead): the content before it is final.
            at if quote == Quote::Double && bytes.get(at) == Some(&b'"') => at,
            _ => 0,
        };
        self.base += len;
        len
    }

    /// Tokenize the next fragment, sending every completed token to `sink`.
    pub(crate) fn feed<S: Sink>(&mut self, chunk: &[u8], sink: &mut S) -> Result<(), Failure> {
        self.feed_text(chunk, None, sink)
    }

    /// [`Lexer::feed`] for a fragment known to be valid UTF-8 on its own (it does not end
    /// inside a character): a string without escapes is then copied out of it without
    /// validating it again.
    pub(crate) fn feed_str<S: Sink>(&mut self, chunk: &str, sink: &mut S) -> Result<(), Failure> {
        self.feed_text(chunk.as_bytes(), Some(chunk), sink)
    }

    /// `text`, when given, is `chunk` as a `str`.
    fn feed_text<S: Sink>(&mut self, chunk: &[u8], text: Option<&str>, sink: &mut S) -> Result<(), Failure> {
        if self.unescape.is_some() {
            let filtered = self.unescape_bytes(chunk);
            return self.run(&filtered, None, sink);
        }
        self.run(chunk, text, sink)
    }

    /// Read a fragment (already unescaped when needed), then advance `base` past it.
    fn run<S: Sink>(&mut self, chunk: &[u8], text: Option<&str>, sink: &mut S) -> Result<(), Failure> {
        let filtered = self.unescape.is_some();
        let mut i = 0;
        while i < chunk.len() {
            i = self.step(chunk, text, i, sink)?;
            if !self.replay.is_empty() {
                self.drain(sink)?;
            }
            if !filtered && self.unescape.is_some() {
                // Escaped JSON from here on: read the rest of the fragment unescaped.
                let rest = self.unescape_bytes(chunk.get(i..).unwrap_or_default());
                self.base += i;
                return self.run(&rest, None, sink);
            }
        }
        self.base += chunk.len();
        Ok(())
    }

    /// Remove one level of escaping: `\\` is `\` and `\"` is `"`; other escapes stay, to
    /// be decoded inside the strings they belong to.
    fn unescape_bytes(&mut self, chunk: &[u8]) -> Vec<u8> {
        let mut out = Vec::with_capacity(chunk.len());
        let mut pending = self.unescape == Some(true);
        for &b in chunk {
            if pending {
                pending = false;
                if b != b'\\' && b != b'"' {
                    out.push(b'\\');
                }
                out.push(b);
            } else if b == b'\\' {
                pending = true;
            } else {
                out.push(b);
            }
        }
        self.unescape = Some(pending);
        out
    }

    /// Read the replay segments, innermost first, until none is left.
    fn drain<S: Sink>(&mut self, sink: &mut S) -> Result<(), Failure> {
        loop {
            let Some(top) = self.replay.last_mut() else { return Ok(()) };
            if top.pos >= top.bytes.len() {
                self.replay.pop();
                continue;
            }
            let bytes = std::mem::take(&mut top.bytes);
            let (pos, origin) = (top.pos, top.origin);
            let index = self.replay.len() - 1;
            let saved = std::mem::replace(&mut self.base, origin);
            let result = self.step(&bytes, None, pos, sink);
            self.base = saved;
            if let Some(segment) = self.replay.get_mut(index) {
                segment.bytes = bytes;
                segment.pos = result?;
            }
        }
    }

    /// Read `bytes` (absolute offset `origin`) again before going on, if the budget allows:
    /// at most as many bytes in all as the input read up to `at`, plus a little.
    pub(super) fn push_replay(&mut self, bytes: Vec<u8>, origin: usize, at: usize) -> bool {
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
    pub(super) fn push_replay_always(&mut self, bytes: Vec<u8>, origin: usize) {
        if !bytes.is_empty() {
            self.replay.push(Segment { bytes, pos: 0, origin });
        }
    }

    /// Whether bytes wait to be read again.
    pub(super) fn has_replay(&self) -> bool {
        !self.replay.is_empty()
    }

    /// One step of the machine from `chunk[i]`: returns where to go on.
    fn step<S: Sink>(
        &mut self,
        chunk: &[u8],
        text: Option<&str>,
        i: usize,
        sink: &mut S,
    ) -> Result<usize, Failure> {
        Ok(match self.state {
            State::Between => match self.phase {
                Phase::Value => self.between(chunk, text, i, sink)?,
                Phase::Start => self.before_value(chunk, i, sink)?,
                Phase::After => self.after_value(chunk, i, sink)?,
                Phase::Ended => chunk.len(),
            },
            State::Str { quote, esc: Esc::None } => self.string(chunk, text, i, quote, sink)?,
            State::Str { quote, esc } => self.escape(chunk, i, quote, esc, sink)?,
            State::Raw { quote, esc } => self.raw_string(chunk, i, quote, esc)?,
            State::RawLead { quote, mark } => self.raw_lead(chunk, i, quote, mark),
            State::Ahead { quote, mark, look } => self.ahead(chunk, i, quote, mark, look, sink)?,
            State::Num(num) => self.number(chunk, i, num, sink)?,
            State::Word { key } => self.word(chunk, i, key, sink)?,
            State::Unquoted(unq) => self.unquoted(chunk, i, unq, sink)?,
            State::Regex { esc } => self.regex(chunk, i, esc, sink)?,
            State::Multi { seen, need } => self.multi_byte(chunk, i, seen, need, sink)?,
            State::Dots { seen } => self.dots(chunk, i, seen, sink)?,
            State::Backslash => self.backslash(chunk, i, sink)?,
            State::Slash => self.slash(chunk, i, sink)?,
            State::LineComment { hash } => self.line_comment(chunk, i, hash, sink),
            State::BlockComment { star } => self.block_comment(chunk, i, star),
            State::Bom { seen } => self.bom(chunk, i, seen, sink),
            State::Ticks { seen } => self.ticks(chunk, i, seen, sink)?,
            State::FenceInfo => self.fence_info(chunk, i),
            State::Prose => self.prose(chunk, i),
            State::Ignore => chunk.len(),
            State::SeekFence => match find(chunk, i, |b| b == b'`') {
                Some(j) => {
                    self.start = self.base + j;
                    self.state = State::Ticks { seen: 1 };
                    j + 1
                }
                None => chunk.len(),
            },
        })
    }

    /// End the input: emit or complete what is pending, or report it as cut off. With
    /// `complete`, a cut-off string, number, literal or key is closed and the repair
    /// recorded; the builder then closes the open containers.
    pub(crate) fn finish<S: Sink>(&mut self, sink: &mut S, complete: bool) -> Result<(), Failure> {
        if self.unescape == Some(true) {
            // A backslash at the very end stays.
            self.unescape = Some(false);
            self.run(b"\\", None, sink)?;
        }
        loop {
            self.end_state(sink, complete)?;
            if !self.replay.is_empty() {
                self.drain(sink)?;
                continue;
            }
            self.flush_held(sink)?;
            if self.phase == Phase::Start && self.repair && !self.bare {
                // No value anywhere: the prose was the value, as bare text (`hello world`,
                // `a\nb`).
                if let Some((bytes, origin)) = self.prose_raw.take() {
                    self.bare = true;
                    self.prose_seen = false;
                    self.state = State::Between;
                    sink.retract(RepairKind::ProseBefore);
                    self.replay.push(Segment { bytes, pos: 0, origin });
                    self.drain(sink)?;
                    continue;
                }
            }
            break;
        }
        let end = self.base;
        if let Some(at) = self.scalar_prose.take() {
            // Prose after a scalar, and no object or array: the scalar is the value.
            sink.repair(RepairKind::ProseAfter, at);
            self.phase = Phase::After;
        }
        if self.phase == Phase::Start {
            let message = if self.prose_seen {
                "expected a json object or array in the text, found none"
            } else {
                "expected a json value, found the end of the input"
            };
            return Err(Failure::syntax(message, end));
        }
        Ok(())
    }

    /// The current state at the end of the input.
    fn end_state<S: Sink>(&mut self, sink: &mut S, complete: bool) -> Result<(), Failure> {
        let end = self.base;
        match self.state {
            State::Str { quote: _, esc: Esc::Closing { mark } } => {
                // The end of the input is one of the things that close a `'` string.
                self.buf.truncate(mark);
                self.state = State::Between;
                let text = self.take_string()?;
                self.end_string(text, sink)?;
            }
            State::Str { .. } => {
                if !complete {
                    return Err(Fail::Truncated { inside: "a string" }.into());
                }
                // A partial escape or surrogate is dropped; so is a partial UTF-8 character
                // (possible only when a fragment ended inside one).
                if let Err(error) = std::str::from_utf8(&self.buf) {
                    if error.error_len().is_none() {
                        self.buf.truncate(error.valid_up_to());
                    }
                }
                self.state = State::Between;
                let text = self.take_string()?;
                sink.repair(RepairKind::CompletedTruncated, end);
                self.end_string(text, sink)?;
            }
            State::Raw { .. } | State::RawLead { .. } | State::Ahead { .. } => {
                self.end_raw_string(sink, complete)?;
            }
            State::Num(num) => self.end_number(num, sink, complete)?,
            State::Word { key: true } => {
                if !complete {
                    return Err(Fail::Truncated { inside: "an object" }.into());
                }
                if !self.repair {
                    self.flush_held(sink)?;
                }
                // A cut-off unquoted key: the builder gives it a null value.
                let text = std::mem::take(&mut self.buf);
                self.state = State::Between;
                sink.repair(RepairKind::CompletedTruncated, end);
                let key = String::from_utf8(text)
                    .map_err(|_| Failure::from(Fail::InvalidUtf8 { offset: self.start }))?;
                sink.repair(RepairKind::UnquotedKey, self.start);
                self.emit(sink, Token::Str(key), self.start)?;
            }
            State::Word { key: false } => {
                let text = std::mem::take(&mut self.buf);
                self.state = State::Between;
                if !self.repair {
                    self.flush_held(sink)?;
                }
                if let Some((token, spelling)) = self.literal(&text) {
                    self.word_literal(token, spelling, sink)?;
                } else if let Some((token, spelling)) = self.literal_prefix(&text) {
                    if !complete {
                        return Err(Fail::Truncated { inside: "a literal" }.into());
                    }
                    sink.repair(RepairKind::CompletedTruncated, end);
                    self.word_literal(token, spelling, sink)?;
                } else if self.phase == Phase::Start && !self.bare {
                    self.start_prose_with(&text, sink);
                } else if self.repair {
                    self.raw = text;
                    self.end_unquoted(Unq::value(), sink)?;
                } else {
                    return Err(unexpected_word(&text, self.start));
                }
            }
            State::Unquoted(unq) => self.end_unquoted_input(unq, sink)?,
            State::Regex { .. } => {
                let text = std::mem::take(&mut self.raw);
                self.state = State::Between;
                self.emit_regex(text, sink)?;
            }
            State::Multi { seen, .. } => {
                // A character cut by the end (only possible with raw bytes).
                self.state = State::Between;
                self.classify_multi(usize::from(seen), sink)?;
                if self.state != State::Between {
                    return self.end_state(sink, complete);
                }
            }
            State::Dots { seen } => {
                self.state = State::Between;
                self.end_dots(seen, sink)?;
            }
            State::Backslash if self.phase == Phase::Start => {
                self.enter_prose(self.start, sink);
            }
            State::Backslash => {
                return Err(Failure::unexpected(self.start, ""));
            }
            State::Slash if self.phase == Phase::After => {
                sink.repair(RepairKind::ProseAfter, self.start);
            }
            State::Slash if self.repair && self.phase == Phase::Value => {
                self.raw.clear();
                self.raw.push(b'/');
                self.state = State::Between;
                let text = std::mem::take(&mut self.raw);
                self.emit_regex(text, sink)?;
            }
            State::Ticks { seen } if self.repair && self.phase == Phase::Value && !self.fence_open => {
                // One or two backticks at the end: an unclosed backtick string.
                self.state = State::Between;
                if seen == 1 {
                    self.begin_raw(RQuote::SingleLike, sink);
                    return self.end_state(sink, complete);
                }
                self.deliver_string(String::new(), self.start, true, sink)?;
            }
            _ => {}
        }
        self.state = State::Between;
        Ok(())
    }

    /// Send a token, and notice when it completed the top-level value.
    #[inline(always)]
    pub(super) fn emit<S: Sink>(&mut self, sink: &mut S, token: Token, offset: usize) -> Result<(), Failure> {
        if self.repair {
            if let Some(at) = self.discard_from.take() {
                sink.discard();
                sink.repair(RepairKind::ProseBefore, at);
            }
            self.tokens = self.tokens.saturating_add(1);
        }
        sink.token(token, offset)?;
        if sink.is_complete() {
            self.phase = Phase::After;
        }
        Ok(())
    }

    /// A complete string: sent at once, or in [`ParseMode::Repair`], when a `+` may follow
    /// (`may_join`), held back until the next token, so that `"a" + "b"` can still join it.
    pub(super) fn deliver_string<S: Sink>(
        &mut self,
        text: String,
        offset: usize,
        may_join: bool,
        sink: &mut S,
    ) -> Result<(), Failure> {
        if !self.repair {
            return self.emit(sink, Token::Str(text), offset);
        }
        let (text, offset) = match (std::mem::take(&mut self.concat), self.held.take()) {
            (true, Some((mut held, at))) => {
                held.push_str(&text);
                (held, at)
            }
            (_, held) => {
                if let Some((earlier, at)) = held {
                    self.emit(sink, Token::Str(earlier), at)?;
                }
                (text, offset)
            }
        };
        if may_join {
            self.held = Some((text, offset));
            Ok(())
        } else {
            self.emit(sink, Token::Str(text), offset)
        }
    }

    /// Send the held string, if any (a `+` after it that no string followed is dropped).
    #[inline]
    pub(super) fn flush_held<S: Sink>(&mut self, sink: &mut S) -> Result<(), Failure> {
        self.concat = false;
        self.joined = None;
        match self.held.take() {
            Some((text, offset)) => self.emit(sink, Token::Str(text), offset),
            None => Ok(()),
        }
    }

    /// A string ended (strict and lenient modes): sent, or, inside a container in
    /// [`ParseMode::Lenient`], held until what follows shows whether another string
    /// literal comes next, which Python joins to it (`'a' 'b'` is `'ab'`,
    /// [`RepairKind::AdjacentStrings`]).
    fn end_string<S: Sink>(&mut self, text: String, sink: &mut S) -> Result<(), Failure> {
        if self.prefix.take().is_some_and(|prefix| prefix.bytes) && !text.is_ascii() {
            return Err(Failure::syntax(
                "a bytes literal (`b'...'`) holds ASCII characters only",
                self.start,
            ));
        }
        if !self.lenient || self.repair {
            return self.emit(sink, Token::Str(text), self.start);
        }
        let (text, offset) = match self.held.take() {
            Some((mut held, at)) => {
                held.push_str(&text);
                (held, at)
            }
            None => (text, self.start),
        };
        if sink.in_container() {
            self.held = Some((text, offset));
            Ok(())
        } else {
            self.emit(sink, Token::Str(text), offset)
        }
    }

    /// A `:` follows joined literals where a value belongs (`{"a": "x" "b": 1}`): not
    /// literals to join but a value and the next key without the comma between them. The
    /// first literal is sent alone, and the builder meets the second where the comma is
    /// missing, as it would have without the join.
    fn unjoin<S: Sink>(&mut self, sink: &mut S) -> Result<(), Failure> {
        let Some((split, second_at)) = self.joined.take() else { return Ok(()) };
        let Some((mut text, offset)) = self.held.take() else { return Ok(()) };
        let second = text.split_off(split.min(text.len()));
        self.emit(sink, Token::Str(text), offset)?;
        self.held = Some((second, second_at));
        Ok(())
    }

    /// [`ParseMode::Lenient`]: a string literal starts at `at` while a string is held: it
    /// continues that string (and the join is recorded).
    fn adjacent<S: Sink>(&mut self, at: usize, sink: &mut S) -> bool {
        let joins = match &self.held {
            // `""` right before a `"` is not two literals but a triple quote, which opens a
            // string that a JSON-like text never closes.
            Some((text, from)) => self.lenient && !self.repair && !(text.is_empty() && at == from + 2),
            None => false,
        };
        if joins {
            sink.repair(RepairKind::AdjacentStrings, at);
            if self.joined.is_none() {
                self.joined = self.held.as_ref().map(|(text, _)| (text.len(), at));
            }
        }
        joins
    }

    /// The value starts here (leaving the start phase).
    pub(super) fn begin_value(&mut self, offset: usize, first: u8) {
        self.phase = Phase::Value;
        if self.scalar_prose.take().is_some() {
            // A scalar followed by prose, then this: the scalar was prose too.
            self.discard_from = self.value_start.map(|(at, _)| at);
            self.value_start = None;
        }
        if self.value_start.is_none() {
            self.value_start = Some((offset, first));
        }
        self.prose_raw = None;
    }

    /// What was read from `offset` on is prose before the value.
    fn enter_prose<S: Sink>(&mut self, offset: usize, sink: &mut S) {
        if !self.prose_seen && self.scalar_prose.is_none() {
            self.prose_seen = true;
            sink.repair(RepairKind::ProseBefore, offset);
        }
        if self.repair && !self.bare && self.prose_raw.is_none() && self.value_start.is_none() {
            self.prose_raw = Some((Vec::new(), offset));
        }
        self.state = State::Prose;
    }

    /// Prose that starts with `text` (a word already read).
    fn start_prose_with<S: Sink>(&mut self, text: &[u8], sink: &mut S) {
        self.enter_prose(self.start, sink);
        if let Some((prose, _)) = self.prose_raw.as_mut() {
            prose.extend_from_slice(text);
        }
    }

    /// Between tokens inside the value: the hot loop for whitespace and punctuation.
    fn between<S: Sink>(
        &mut self,
        chunk: &[u8],
        text: Option<&str>,
        mut i: usize,
        sink: &mut S,
    ) -> Result<usize, Failure> {
        while let Some(&b) = chunk.get(i) {
            let at = self.base + i;
            let token = match b {
                b' ' | b'\r' | b'\t' => {
                    i += 1;
                    continue;
                }
                b'\n' => {
                    if self.repair {
                        sink.line_break();
                    }
                    i += 1;
                    continue;
                }
                b'{' => Token::BeginObject,
                b'}' => Token::EndObject,
                b'[' => Token::BeginArray,
                b']' => Token::EndArray,
                b':' => Token::Colon,
                b',' => Token::Comma,
                b'"' => {
                    if self.held.is_some() && !self.concat && !self.adjacent(at, sink) {
                        self.flush_held(sink)?;
                        if self.phase != Phase::Value {
                            return Ok(i);
                        }
                    }
                    self.start = at;
                    if self.repair {
                        if let Some(next) = self.quick_string(chunk, text, i + 1, b'"', sink)? {
                            i = next;
                            if self.phase != Phase::Value {
                                return Ok(i);
                            }
                            continue;
                        }
                        self.begin_raw(RQuote::Double, sink);
                        return Ok(i + 1);
                    }
                    // Read the string here: most end in this fragment, back in this loop.
                    self.state = State::Str { quote: Quote::Double, esc: Esc::None };
                    i = self.string(chunk, text, i + 1, Quote::Double, sink)?;
                    if self.state != State::Between || self.phase != Phase::Value {
                        return Ok(i);
                    }
                    continue;
                }
                _ => {
                    i = self.between_other(chunk, i, sink)?;
                    // Numbers and words are read here too, for the same reason.
                    i = match self.state {
                        State::Num(num) => self.number(chunk, i, num, sink)?,
                        State::Word { key } => self.word(chunk, i, key, sink)?,
                        _ => return Ok(i),
                    };
                    if self.state != State::Between || self.phase != Phase::Value {
                        return Ok(i);
                    }
                    continue;
                }
            };
            if self.held.is_some() {
                if token == Token::Colon && !sink.expects_key() {
                    self.unjoin(sink)?;
                }
                self.flush_held(sink)?;
                if self.phase != Phase::Value {
                    return Ok(i);
                }
            }
            self.emit(sink, token, at)?;
            i += 1;
            if self.phase != Phase::Value {
                return Ok(i);
            }
        }
        Ok(i)
    }

    /// [`ParseMode::Repair`]: a string (opened by `quote`, content from `chunk[i]`) that ends
    /// in this fragment at a quote followed (after spaces) by `,` `:` `}` or `]`, whose
    /// content has only standard escapes, no control character and no unclosed bracket,
    /// needs none of the look-ahead of [`State::Raw`]: that quote ends it (as the rules of
    /// `salvage` decide too), and it is delivered at once. Returns the index after its
    /// closing quote, or `None` to read it the slow way.
    #[inline]
    fn quick_string<S: Sink>(
        &mut self,
        chunk: &[u8],
        text: Option<&str>,
        i: usize,
        quote: u8,
        sink: &mut S,
    ) -> Result<Option<usize>, Failure> {
        let mut out: Option<String> = None;
        let mut open = [0i64; 3];
        let mut run = i;
        let q = loop {
            let k = find_special(chunk, run, quote);
            let segment = chunk.get(run..k).unwrap_or_default();
            if has_opener(segment) || open != [0; 3] {
                for &b in segment {
                    match b {
                        b'(' => open[0] += 1,
                        b')' => open[0] -= 1,
                        b'[' => open[1] += 1,
                        b']' => open[1] -= 1,
                        b'{' => open[2] += 1,
                        b'}' => open[2] -= 1,
                        _ => {}
                    }
                }
            }
            let piece = match text.and_then(|t| t.get(run..k)) {
                Some(piece) => piece,
                None => match std::str::from_utf8(segment) {
                    Ok(piece) => piece,
                    Err(_) => return Ok(None),
                },
            };
            match out.as_mut() {
                Some(out) => out.push_str(piece),
                // Most strings have no escape: one exact allocation.
                None if chunk.get(k) == Some(&quote) => out = Some(piece.to_owned()),
                None => out = Some(String::from(piece)),
            }
            match chunk.get(k) {
                Some(&b) if b == quote => break k,
                Some(b'\\') => {
                    let decoded = match chunk.get(k + 1) {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'\'') if quote == b'\'' => '\'',
                        _ => return Ok(None),
                    };
                    if let Some(out) = out.as_mut() {
                        out.push(decoded);
                    }
                    run = k + 2;
                }
                _ => return Ok(None),
            }
        };
        if open.iter().any(|&n| n > 0) {
            return Ok(None);
        }
        let mut k = q + 1;
        while chunk.get(k).is_some_and(|&b| matches!(b, b' ' | b'\t' | b'\r' | b'\n')) {
            k += 1;
        }
        if !chunk.get(k).is_some_and(|&b| matches!(b, b',' | b':' | b'}' | b']')) {
            return Ok(None);
        }
        if self.phase == Phase::Start {
            self.begin_value(self.start, quote);
        }
        // What follows is a delimiter, not a `+`: no string can join this one.
        self.deliver_string(out.unwrap_or_default(), self.start, false, sink)?;
        Ok(Some(q + 1))
    }

    /// [`ParseMode::Repair`]: a key without quotes that is a plain identifier followed (after
    /// spaces) by `:` in this fragment is sent at once; anything else is read as text.
    #[inline]
    fn quick_key<S: Sink>(&mut self, chunk: &[u8], i: usize, sink: &mut S) -> Result<Option<usize>, Failure> {
        let Some(end) = find(chunk, i, |b| !(b.is_ascii_alphanumeric() || b == b'_' || b == b'$')) else {
            return Ok(None);
        };
        let mut k = end;
        while chunk.get(k).is_some_and(|&b| matches!(b, b' ' | b'\t')) {
            k += 1;
        }
        if end == i || chunk.get(k) != Some(&b':') {
            return Ok(None);
        }
        let key = String::from_utf8_lossy(chunk.get(i..end).unwrap_or_default()).into_owned();
        sink.repair(RepairKind::UnquotedKey, self.start);
        sink.bare_key();
        self.emit(sink, Token::Str(key), self.start)?;
        Ok(Some(end))
    }

    /// A token start other than punctuation and `"`.
    fn between_other<S: Sink>(&mut self, chunk: &[u8], i: usize, sink: &mut S) -> Result<usize, Failure> {
        let at = self.base + i;
        let Some(&b) = chunk.get(i) else { return Ok(i) };
        // Bytes that may continue a held string (`+`, another string, comments, spaces) keep
        // it; anything else ends it first.
        let keep = matches!(b, b'+' | b'/' | b'#')
            || (self.concat && matches!(b, b'\'' | b'`' | 0x80..=0xFF))
            // Lenient: another literal, perhaps with a prefix (`'a' r'b'`), may follow.
            || (!self.repair && (b == b'\'' || b.is_ascii_alphabetic()));
        if self.held.is_some() && !keep {
            self.flush_held(sink)?;
            if self.phase != Phase::Value {
                return Ok(i);
            }
        }
        self.start = at;
        let key = self.lenient && sink.expects_key();
        match b {
            b'.' if self.lenient => {
                self.state = State::Dots { seen: 1 };
                Ok(i + 1)
            }
            b'\\' if self.lenient => {
                self.state = State::Backslash;
                Ok(i + 1)
            }
            b'-' | b'0'..=b'9' if !key => {
                self.state = State::Num(Num::Start);
                Ok(i)
            }
            b'a'..=b'z' | b'A'..=b'Z' | b'_' | b'$' if !key => {
                self.state = State::Word { key: false };
                Ok(i)
            }
            _ if key && self.repair && is_unquoted_start(b) => {
                if let Some(next) = self.quick_key(chunk, i, sink)? {
                    return Ok(next);
                }
                self.raw.clear();
                self.state = State::Unquoted(Unq::key());
                Ok(i)
            }
            _ if key && is_key_start(b) && b < 0x80 => {
                self.state = State::Word { key: true };
                Ok(i)
            }
            b'\'' if self.lenient => {
                self.adjacent(at, sink);
                sink.repair(RepairKind::SingleQuotes, at);
                if self.repair {
                    if let Some(next) = self.quick_string(chunk, None, i + 1, b'\'', sink)? {
                        return Ok(next);
                    }
                    self.begin_raw(RQuote::Single, sink);
                } else {
                    self.state = State::Str { quote: Quote::Single, esc: Esc::None };
                }
                Ok(i + 1)
            }
            0x80..=0xFF if self.lenient => {
                self.multi[0] = b;
                self.state = State::Multi { seen: 1, need: utf8_len(b) };
                Ok(i + 1)
            }
            b'/' if self.lenient => {
                self.slash_at = at;
                self.state = State::Slash;
                Ok(i + 1)
            }
            b'#' if self.lenient => {
                sink.repair(RepairKind::Comment, at);
                self.state = State::LineComment { hash: true };
                Ok(i + 1)
            }
            b'`' if self.lenient && (self.fence_open || self.repair) => {
                self.state = State::Ticks { seen: 1 };
                Ok(i + 1)
            }
            b')' if self.lenient && sink.in_paren() => {
                self.emit(sink, Token::EndParen, at)?;
                Ok(i + 1)
            }
            b'(' | b')' if self.repair => {
                let token = if b == b'(' { Token::BeginParen(false) } else { Token::EndParen };
                self.emit(sink, token, at)?;
                Ok(i + 1)
            }
            // A Python tuple inside the value (`{"point": (1, 2)}`); at the top level a `(`
            // is prose, as it always was.
            b'(' if self.lenient && !key && sink.in_container() => {
                self.emit(sink, Token::BeginParen(false), at)?;
                Ok(i + 1)
            }
            b'+' if self.repair => {
                if self.held.is_some() {
                    sink.repair(RepairKind::Concatenation, at);
                    self.concat = true;
                    return Ok(i + 1);
                }
                self.raw.clear();
                self.state = State::Unquoted(Unq::value());
                Ok(i)
            }
            _ if self.repair && is_unquoted_start(b) => {
                self.raw.clear();
                self.state = State::Unquoted(if key { Unq::key() } else { Unq::value() });
                Ok(i)
            }
            _ => Err(Failure::unexpected(at, "")),
        }
    }

    /// Between tokens before the value: BOM, code fence, comments, prose (lenient).
    fn before_value<S: Sink>(&mut self, chunk: &[u8], mut i: usize, sink: &mut S) -> Result<usize, Failure> {
        while let Some(&b) = chunk.get(i) {
            let at = self.base + i;
            if matches!(b, b' ' | b'\n' | b'\r' | b'\t') {
                i += 1;
                continue;
            }
            self.start = at;
            if !self.lenient {
                self.begin_value(at, b);
                return Ok(i);
            }
            match b {
                0xEF if at == 0 => {
                    self.state = State::Bom { seen: 1 };
                    return Ok(i + 1);
                }
                b'{' | b'[' | b'"' | b'\'' | b'-' | b'0'..=b'9' | b'.' => {
                    self.begin_value(at, b);
                    return Ok(i);
                }
                b'(' if self.repair => {
                    self.begin_value(at, b);
                    return Ok(i);
                }
                // A word may be a literal, a function call or the start of prose; `word`
                // decides.
                b'a'..=b'z' | b'A'..=b'Z' | b'_' | b'$' => {
                    self.state = State::Word { key: false };
                    return Ok(i);
                }
                0x80..=0xFF => {
                    self.multi[0] = b;
                    self.state = State::Multi { seen: 1, need: utf8_len(b) };
                    return Ok(i + 1);
                }
                b'`' => {
                    self.state = State::Ticks { seen: 1 };
                    return Ok(i + 1);
                }
                b'/' => {
                    self.slash_at = at;
                    self.state = State::Slash;
                    return Ok(i + 1);
                }
                b'#' => {
                    sink.repair(RepairKind::Comment, at);
                    self.state = State::LineComment { hash: true };
                    return Ok(i + 1);
                }
                b'\\' => {
                    self.state = State::Backslash;
                    return Ok(i + 1);
                }
                _ if self.bare => {
                    self.begin_value(at, b);
                    return Ok(i);
                }
                _ => {
                    self.enter_prose(at, sink);
                    return Ok(i);
                }
            }
        }
        Ok(i)
    }

    /// After the complete value: whitespace; in lenient mode also comments, the closing
    /// code fence, and prose (which ends the parse). In [`ParseMode::Repair`], separators,
    /// stray closing brackets and further values go back to the builder.
    fn after_value<S: Sink>(&mut self, chunk: &[u8], mut i: usize, sink: &mut S) -> Result<usize, Failure> {
        while let Some(&b) = chunk.get(i) {
            let at = self.base + i;
            if matches!(b, b' ' | b'\n' | b'\r' | b'\t') {
                if b == b'\n' && self.repair {
                    sink.line_break();
                }
                self.glued = false;
                i += 1;
                continue;
            }
            let glued = std::mem::take(&mut self.glued);
            if !self.lenient || (glued && !matches!(b, b'`' | b'/' | b'#')) {
                return Err(Failure::unexpected(at, " after the json value"));
            }
            self.start = at;
            match b {
                b'`' => {
                    self.state = State::Ticks { seen: 1 };
                    return Ok(i + 1);
                }
                _ if self.repair && self.fenced => {
                    // After a closed code fence only another code fence holds a value.
                    sink.repair(RepairKind::ProseAfter, at);
                    self.state = State::SeekFence;
                    return Ok(i);
                }
                b'/' => {
                    self.slash_at = at;
                    self.state = State::Slash;
                    return Ok(i + 1);
                }
                b'#' => {
                    sink.repair(RepairKind::Comment, at);
                    self.state = State::LineComment { hash: true };
                    return Ok(i + 1);
                }
                0x80..=0xFF => {
                    self.multi[0] = b;
                    self.state = State::Multi { seen: 1, need: utf8_len(b) };
                    return Ok(i + 1);
                }
                b'{' | b'[' if !self.repair => {
                    return Err(Failure::syntax("expected one json value, found a second one after it", at));
                }
                b'{'
                | b'['
                | b'"'
                | b'\''
                | b'-'
                | b'0'..=b'9'
                | b'.'
                | b','
                | b';'
                | b':'
                | b'}'
                | b']'
                | b')'
                | b'\\'
                    if self.repair =>
                {
                    if b == b';' {
                        i += 1;
                        continue;
                    }
                    self.phase = Phase::Value;
                    return Ok(i);
                }
                _ if self.repair && self.bare => {
                    self.phase = Phase::Value;
                    return Ok(i);
                }
                _ if self.repair && self.top_is_scalar() => {
                    // Prose after a scalar: the scalar may be prose too ("1. Call it with
                    // {...}"); an object or array later wins.
                    self.scalar_prose = Some(at);
                    self.phase = Phase::Start;
                    self.state = State::Prose;
                    return Ok(i);
                }
                _ => {
                    sink.repair(RepairKind::ProseAfter, at);
                    self.state = State::Ignore;
                    return Ok(chunk.len());
                }
            }
        }
        Ok(i)
    }

    /// Whether the top-level value read is a scalar (not an object or array).
    fn top_is_scalar(&self) -> bool {
        self.value_start.is_some_and(|(_, first)| !matches!(first, b'{' | b'['))
    }

    /// Skip prose up to the first `{`, `[` or backtick.
    fn prose(&mut self, chunk: &[u8], i: usize) -> usize {
        let found = find(chunk, i, |b| matches!(b, b'{' | b'[' | b'`'));
        if let Some((prose, _)) = self.prose_raw.as_mut() {
            prose.extend_from_slice(chunk.get(i..found.unwrap_or(chunk.len())).unwrap_or_default());
        }
        let Some(j) = found else {
            return chunk.len();
        };
        let at = self.base + j;
        self.start = at;
        if chunk.get(j) == Some(&b'`') {
            if let Some((prose, _)) = self.prose_raw.as_mut() {
                prose.push(b'`');
            }
            self.state = State::Ticks { seen: 1 };
            return j + 1;
        }
        self.state = State::Between;
        if let Some(&b) = chunk.get(j) {
            self.begin_value(at, b);
        }
        j
    }

    /// String content: copy each run up to the next special byte at once, and decode
    /// complete escapes in place; only an escape cut by the end of the fragment (or one that
    /// needs a repair) goes through the byte-at-a-time states of [`Lexer::escape`].
    #[inline]
    fn string<S: Sink>(
        &mut self,
        chunk: &[u8],
        text: Option<&str>,
        mut i: usize,
        quote: Quote,
        sink: &mut S,
    ) -> Result<usize, Failure> {
        let stop = quote.stop_byte();
        loop {
            let j = find_special(chunk, i, stop);
            let Some(&b) = chunk.get(j) else {
                self.push_run(chunk, text, i, chunk.len());
                return Ok(chunk.len());
            };
            let at = self.base + j;
            if b == b'\\' && self.prefix.is_some_and(|prefix| prefix.raw) {
                // `r'\d'`: no escape processing.
                self.push_run(chunk, text, i, j);
                self.buf.push(b'\\');
                self.state = State::Str { quote, esc: Esc::RawBackslash };
                return Ok(j + 1);
            }
            if b == b'\\' {
                self.push_run(chunk, text, i, j);
                if let Some(next) = self.escape_in_chunk(chunk, j) {
                    i = next;
                    continue;
                }
                self.esc_at = at;
                self.state = State::Str { quote, esc: Esc::Backslash };
                return Ok(j + 1);
            }
            if b < 0x20 {
                if !self.lenient {
                    let (prefix, suffix) = ("unescaped control character ", " in a string");
                    return Err(Fail::Char { offset: at, at, prefix, suffix }.into());
                }
                sink.repair(RepairKind::ControlCharacter, at);
                self.push_run(chunk, text, i, j + 1);
                i = j + 1;
                continue;
            }
            match quote {
                Quote::Double => {
                    // The common case, a string without escapes in one `str` fragment, is
                    // copied once.
                    let whole = if self.buf.is_empty() && self.text_buf.is_empty() {
                        text.and_then(|t| t.get(i..j))
                    } else {
                        None
                    };
                    let string = match whole {
                        Some(whole) => whole.to_owned(),
                        None => {
                            self.push_run(chunk, text, i, j);
                            self.take_string()?
                        }
                    };
                    self.state = State::Between;
                    self.end_string(string, sink)?;
                }
                Quote::Single => {
                    self.push_run(chunk, text, i, j);
                    let mark = self.buf.len();
                    self.buf.push(b);
                    self.quote_at = at;
                    self.state = State::Str { quote, esc: Esc::Closing { mark } };
                }
                Quote::SmartDouble | Quote::SmartSingle => {
                    self.push_run(chunk, text, i, j);
                    self.state = State::Str { quote, esc: Esc::Lead { seen: 1 } };
                }
            }
            return Ok(j + 1);
        }
    }

    /// Append string content `chunk[i..j]`: to `text_buf` while that is allowed (a `str`
    /// fragment, `buf` still empty; `i` and `j` are then character boundaries, being next to
    /// ASCII or the fragment's ends), else to `buf`.
    #[inline]
    fn push_run(&mut self, chunk: &[u8], text: Option<&str>, i: usize, j: usize) {
        if self.buf.is_empty() {
            if let Some(run) = text.and_then(|text| text.get(i..j)) {
                self.text_buf.push_str(run);
                return;
            }
        }
        self.buf.extend_from_slice(chunk.get(i..j).unwrap_or_default());
    }

    /// Decode the valid escape at `chunk[j]` (a backslash) if it lies wholly in this
    /// fragment, returning the index after it; `None` leaves everything to the states.
    #[inline]
    fn escape_in_chunk(&mut self, chunk: &[u8], j: usize) -> Option<usize> {
        let decoded = match *chunk.get(j + 1)? {
            b'"' => b'"',
            b'\\' => b'\\',
            b'/' => b'/',
            b'b' => 0x08,
            b'f' => 0x0C,
            b'n' => b'\n',
            b'r' => b'\r',
            b't' => b'\t',
            b'u' => return self.unicode_in_chunk(chunk, j),
            _ => return None,
        };
        self.push_char(char::from(decoded));
        Some(j + 2)
    }

    /// `\uXXXX`, or a surrogate pair `\uXXXX\uXXXX`, wholly in this fragment.
    fn unicode_in_chunk(&mut self, chunk: &[u8], j: usize) -> Option<usize> {
        let unit = hex4(chunk.get(j + 2..j + 6)?)?;
        if !(0xD800..=0xDFFF).contains(&unit) {
            self.push_char(char::from_u32(u32::from(unit))?);
            return Some(j + 6);
        }
        if unit >= 0xDC00 || chunk.get(j + 6..j + 8)? != b"\\u" {
            return None;
        }
        let low = hex4(chunk.get(j + 8..j + 12)?)?;
        if !(0xDC00..=0xDFFF).contains(&low) {
            return None;
        }
        let code = 0x10000 + ((u32::from(unit) - 0xD800) << 10) + (u32::from(low) - 0xDC00);
        self.push_char(char::from_u32(code)?);
        Some(j + 12)
    }

    /// One byte of an escape, a smart-quote candidate or the look-ahead after a closing
    /// candidate. Returns `i` (not `i + 1`) when the byte must be read again as content.
    fn escape<S: Sink>(
        &mut self,
        chunk: &[u8],
        i: usize,
        quote: Quote,
        esc: Esc,
        sink: &mut S,
    ) -> Result<usize, Failure> {
        let Some(&b) = chunk.get(i) else { return Ok(i) };
        let at = self.base + i;
        let mut next = Esc::None;
        let mut consumed = true;
        match esc {
            Esc::None => consumed = false,
            Esc::Backslash => {
                let decoded = match b {
                    b'"' => Some(b'"'),
                    b'\\' => Some(b'\\'),
                    b'/' => Some(b'/'),
                    b'b' => Some(0x08),
                    b'f' => Some(0x0C),
                    b'n' => Some(b'\n'),
                    b'r' => Some(b'\r'),
                    b't' => Some(b'\t'),
                    _ => None,
                };
                if let Some(d) = decoded {
                    self.push_char(char::from(d));
                } else if b == b'u' {
                    next = Esc::Hex { n: 0, digits: [0; 4], high: None };
                } else if !self.lenient {
                    let (prefix, suffix) = ("invalid escape `\\` followed by ", " in a string");
                    return Err(Fail::Char { offset: self.esc_at, at, prefix, suffix }.into());
                } else if b == b'\'' {
                    // `\'` is how a `'` string escapes its quote; anywhere else it still
                    // clearly means a quote, never a backslash.
                    if quote != Quote::Single {
                        sink.repair(RepairKind::InvalidEscape, self.esc_at);
                    }
                    self.push_char('\'');
                } else if b == b'\n' {
                    // A backslash before a line break continues the line, as in a shell.
                    sink.repair(RepairKind::InvalidEscape, self.esc_at);
                    self.push_char('\n');
                } else {
                    // Keep the backslash literally and read the byte again as content.
                    sink.repair(RepairKind::InvalidEscape, self.esc_at);
                    self.buf.push(b'\\');
                    consumed = false;
                }
            }
            Esc::Hex { n, mut digits, high } => {
                if b.is_ascii_hexdigit() {
                    if let Some(slot) = digits.get_mut(usize::from(n)) {
                        *slot = b;
                    }
                    if n < 3 {
                        next = Esc::Hex { n: n + 1, digits, high };
                    } else {
                        let unit = hex4(&digits).unwrap_or(0);
                        next = self.code_unit(unit, high, sink)?;
                    }
                } else {
                    if !self.lenient {
                        return Err(Failure::syntax("invalid unicode escape in a string", self.esc_at));
                    }
                    if high.is_some() {
                        self.lone_surrogate(sink)?;
                    }
                    sink.repair(RepairKind::InvalidEscape, self.esc_at);
                    self.buf.extend_from_slice(b"\\u");
                    self.buf.extend_from_slice(digits.get(..usize::from(n)).unwrap_or_default());
                    consumed = false;
                }
            }
            Esc::WantBackslash { high } => {
                if b == b'\\' {
                    self.esc_at = at;
                    next = Esc::WantU { high };
                } else {
                    self.lone_surrogate(sink)?;
                    consumed = false;
                }
            }
            Esc::WantU { high } => {
                if b == b'u' {
                    next = Esc::Hex { n: 0, digits: [0; 4], high: Some(high) };
                } else {
                    // The backslash starts an ordinary escape after all.
                    self.lone_surrogate(sink)?;
                    next = Esc::Backslash;
                    consumed = false;
                }
            }
            Esc::Lead { seen } => {
                if seen == 1 && b == 0x80 {
                    next = Esc::Lead { seen: 2 };
                } else if seen == 2 && quote.smart_closes(b) {
                    let mark = self.buf.len();
                    self.buf.extend_from_slice(&[0xE2, 0x80, b]);
                    self.quote_at = at.saturating_sub(2);
                    next = Esc::Closing { mark };
                } else {
                    let lead: &[u8] = if seen == 1 { &[0xE2] } else { &[0xE2, 0x80] };
                    self.buf.extend_from_slice(lead);
                    consumed = false;
                }
            }
            Esc::RawBackslash => {
                let closer = match quote {
                    Quote::Double => b'"',
                    Quote::Single => b'\'',
                    Quote::SmartDouble | Quote::SmartSingle => b'\\',
                };
                if b == b'\\' || b == closer {
                    self.buf.push(b);
                } else {
                    consumed = false;
                }
            }
            Esc::Closing { mark } => match b {
                b' ' | b'\t' | b'\n' | b'\r' => {
                    self.buf.push(b);
                    next = Esc::Closing { mark };
                }
                b',' | b'}' | b']' | b':' => {
                    self.buf.truncate(mark);
                    self.state = State::Between;
                    let text = self.take_string()?;
                    self.end_string(text, sink)?;
                    return Ok(i);
                }
                b'\'' | b'"'
                    if quote == Quote::Single
                        && !self.repair
                        && sink.in_container()
                        && self.buf.len() > mark + 1 =>
                {
                    // `'a' 'b'`: the quote closed the string, and another literal starts
                    // after white space (`'it''s'` stays one string, as it always was).
                    self.buf.truncate(mark);
                    self.state = State::Between;
                    let text = self.take_string()?;
                    self.end_string(text, sink)?;
                    return Ok(i);
                }
                b'/' => {
                    self.buf.push(b);
                    self.slash_at = at;
                    next = Esc::ClosingSlash { mark };
                }
                _ => {
                    // The quote was content (an apostrophe); so was the whitespace after it.
                    self.apostrophe(mark, sink);
                    consumed = false;
                }
            },
            Esc::ClosingSlash { mark } => match b {
                b'/' | b'*' => {
                    // A comment: the quote closed the string, and `/` starts the comment.
                    self.buf.truncate(mark);
                    self.state = State::Between;
                    let text = self.take_string()?;
                    self.end_string(text, sink)?;
                    self.state = State::Slash;
                    return Ok(i);
                }
                _ => {
                    // `'it' /s`: the quote, the whitespace and the slash were content.
                    self.apostrophe(mark, sink);
                    consumed = false;
                }
            },
        }
        self.state = State::Str { quote, esc: next };
        Ok(if consumed { i + 1 } else { i })
    }

    /// A closing candidate quote (at `mark` in `buf`) turned out to be content, with what
    /// was held after it.
    fn apostrophe<S: Sink>(&mut self, mark: usize, sink: &mut S) {
        if self.buf.get(mark..).unwrap_or_default().iter().any(|&c| c < 0x20) {
            sink.repair(RepairKind::ControlCharacter, self.quote_at);
        }
    }

    /// A complete `\uXXXX` code unit; `high` is a preceding high surrogate.
    fn code_unit<S: Sink>(&mut self, unit: u16, high: Option<u16>, sink: &mut S) -> Result<Esc, Failure> {
        if let Some(high) = high {
            if (0xDC00..=0xDFFF).contains(&unit) {
                let code = 0x10000 + ((u32::from(high) - 0xD800) << 10) + (u32::from(unit) - 0xDC00);
                self.push_char(char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER));
                return Ok(Esc::None);
            }
            self.lone_surrogate(sink)?;
        }
        if (0xD800..=0xDBFF).contains(&unit) {
            self.high_at = self.esc_at;
            return Ok(Esc::WantBackslash { high: unit });
        }
        if (0xDC00..=0xDFFF).contains(&unit) {
            self.high_at = self.esc_at;
            self.lone_surrogate(sink)?;
            return Ok(Esc::None);
        }
        self.push_char(char::from_u32(u32::from(unit)).unwrap_or(char::REPLACEMENT_CHARACTER));
        Ok(Esc::None)
    }

    /// A surrogate escape without its other half: U+FFFD (lenient) or an error.
    fn lone_surrogate<S: Sink>(&mut self, sink: &mut S) -> Result<(), Failure> {
        if !self.lenient {
            return Err(Failure::syntax("lone surrogate in a unicode escape", self.high_at));
        }
        sink.repair(RepairKind::LoneSurrogate, self.high_at);
        self.push_char(char::REPLACEMENT_CHARACTER);
        Ok(())
    }

    /// Append a decoded character to the string content (valid UTF-8 by construction, so
    /// it may go to `text_buf`).
    fn push_char(&mut self, c: char) {
        if self.buf.is_empty() {
            self.text_buf.push(c);
        } else {
            let mut utf8 = [0; 4];
            self.buf.extend_from_slice(c.encode_utf8(&mut utf8).as_bytes());
        }
    }

    /// The string content read so far (`text_buf`, then `buf` validated); both are left
    /// empty, keeping their capacity.
    fn take_string(&mut self) -> Result<String, Failure> {
        let tail = std::str::from_utf8(&self.buf)
            .map_err(|_| Failure::from(Fail::InvalidUtf8 { offset: self.start }))?;
        let mut string = String::with_capacity(self.text_buf.len() + tail.len());
        string.push_str(&self.text_buf);
        string.push_str(tail);
        self.text_buf.clear();
        self.buf.clear();
        Ok(string)
    }

    /// Number bytes, following the grammar.
    fn number<S: Sink>(
        &mut self,
        chunk: &[u8],
        i: usize,
        mut num: Num,
        sink: &mut S,
    ) -> Result<usize, Failure> {
        let mut from = i;
        let mut j = i;
        let end = loop {
            let Some(&b) = chunk.get(j) else {
                self.buf.extend_from_slice(chunk.get(from..).unwrap_or_default());
                self.state = State::Num(num);
                return Ok(chunk.len());
            };
            if let Some(next) = num.step(b) {
                num = next;
                j += 1;
                continue;
            }
            // The lenient extensions, rare enough to leave the fast loop for.
            let extended = match (num, b) {
                (Num::Minus, b'.') if self.lenient => Some((Num::Dot, &b"0."[..])),
                (Num::Zero, b'x' | b'X') if self.lenient => Some((Num::HexStart, &b"0x"[..])),
                (Num::Int | Num::Frac | Num::ExpDigits, b'_') if self.repair => Some((num, &b"_"[..])),
                // Python's digit separators: one `_` between two digits.
                (Num::Zero | Num::Int | Num::Frac | Num::ExpDigits | Num::HexStart | Num::Hex, b'_')
                    if self.lenient =>
                {
                    let digits = match num {
                        Num::Zero => Digits::Zero,
                        Num::Int => Digits::Int,
                        Num::Frac => Digits::Frac,
                        Num::ExpDigits => Digits::Exp,
                        _ => Digits::Hex,
                    };
                    Some((Num::Sep(digits), &b"_"[..]))
                }
                _ => None,
            };
            match extended {
                Some((next, text)) => {
                    if num == Num::Minus {
                        sink.repair(RepairKind::NumberSyntax, self.start);
                    }
                    self.buf.extend_from_slice(chunk.get(from..j).unwrap_or_default());
                    if num == Num::Zero && next == Num::HexStart {
                        // `0x`: the zero is already in the text.
                        self.buf.pop();
                    }
                    self.buf.extend_from_slice(text);
                    num = next;
                    j += 1;
                    from = j;
                }
                None => break b,
            }
        };
        let at = self.base + j;
        let run = chunk.get(from..j).unwrap_or_default();
        if num == Num::Minus && self.repair && matches!(end, b' ' | b'\t' | b'\r' | b'\n') {
            // `- item`: a list bullet, not a number.
            self.buf.clear();
            self.state = State::Between;
            if self.tokens == 0 {
                self.phase = Phase::Start;
                self.value_start = None;
                self.enter_prose(self.start, sink);
                self.state = State::Between;
            }
            return Ok(j);
        }
        if num == Num::Minus && self.lenient && end.is_ascii_alphabetic() {
            // `-Infinity`, or (repair) text such as `-e5`.
            self.buf.extend_from_slice(run);
            self.state = State::Word { key: false };
            return Ok(j);
        }
        if self.repair && (glued(end) || (num == Num::Zero && end.is_ascii_digit())) {
            // Not a number after all (`2024-10-18T…`, `0.0.1`, `0789`): text.
            self.raw.clear();
            self.raw.extend_from_slice(&self.buf);
            self.raw.extend_from_slice(run);
            self.buf.clear();
            self.state = State::Unquoted(Unq::number());
            return Ok(j);
        }
        if num == Num::Zero && end.is_ascii_digit() {
            return Err(Failure::syntax("a number cannot start with `0` followed by digits", at));
        }
        if self.buf.is_empty()
            && num == Num::Int
            && run.len() <= 19
            && run.first().is_some_and(u8::is_ascii_digit)
        {
            // A plain integer in one fragment: its value, without text or parsing.
            let value = run.iter().fold(0u64, |v, &d| v * 10 + u64::from(d - b'0'));
            self.state = State::Between;
            self.emit(sink, Token::Number(Number::from(value)), self.start)?;
            self.glued = self.phase == Phase::After && !self.repair;
            return Ok(j);
        }
        self.buf.extend_from_slice(run);
        if !num.complete() {
            let fixable =
                self.repair || (self.lenient && num == Num::Dot && matches!(end, b',' | b']' | b'}'));
            if !fixable {
                self.buf.clear();
                return Err(
                    Fail::Char { offset: at, at, prefix: "invalid number: unexpected ", suffix: "" }.into()
                );
            }
            sink.repair(RepairKind::NumberSyntax, self.start);
            self.fix_number(num);
        }
        let number = self.take_number(sink);
        self.state = State::Between;
        let number = number?;
        self.emit(sink, number, self.start)?;
        self.glued = self.phase == Phase::After && !self.repair;
        Ok(j)
    }

    /// Complete an incomplete number in `buf`: `1.` is `1.0`, a dangling exponent is
    /// dropped, a lone `-` is `-0`.
    fn fix_number(&mut self, num: Num) {
        match num {
            Num::Dot => self.buf.push(b'0'),
            Num::Exp | Num::ExpSign => {
                while self.buf.last().is_some_and(|b| !b.is_ascii_digit()) {
                    self.buf.pop();
                }
            }
            Num::Minus | Num::Start => self.buf.push(b'0'),
            _ => {}
        }
    }

    /// The number in `buf` as a token (`buf` is left empty). Non-decimal and separated
    /// digits were already recorded.
    fn take_number<S: Sink>(&mut self, sink: &mut S) -> Result<Token, Failure> {
        let mut text = std::mem::take(&mut self.buf);
        if text.contains(&b'_') {
            sink.repair(RepairKind::NumberSyntax, self.start);
            text.retain(|&b| b != b'_');
        }
        let result = if text.len() > 2 && (text.starts_with(b"0x") || text.starts_with(b"-0x")) {
            sink.repair(RepairKind::HexNumber, self.start);
            hex_number(&text, self.start)
        } else {
            let number = to_number(&text, self.start);
            if number.as_ref().is_ok_and(|number| inexact_integral(&text, number)) {
                sink.inexact_number(&text);
            }
            number
        };
        self.buf = text;
        self.buf.clear();
        result.map(Token::Number)
    }

    /// A number at the end of the input.
    fn end_number<S: Sink>(&mut self, num: Num, sink: &mut S, complete: bool) -> Result<(), Failure> {
        let end = self.base;
        self.state = State::Between;
        if !num.complete() {
            if !complete {
                self.buf.clear();
                return Err(Fail::Truncated { inside: "a number" }.into());
            }
            sink.repair(RepairKind::CompletedTruncated, end);
            // Drop the dangling `-`, `.`, `e`, `e+` or `x`; a lone `-` leaves nothing (in
            // repair mode `-0`, as jsonrepair completes it).
            while self.buf.last().is_some_and(|b| !b.is_ascii_digit()) {
                self.buf.pop();
            }
            if self.repair && num == Num::Minus {
                self.buf.extend_from_slice(b"-0");
            }
        }
        if self.buf.is_empty() {
            return Ok(());
        }
        let number = self.take_number(sink)?;
        self.emit(sink, number, self.start)
    }

    /// A bare word: an unquoted key, a literal, a function call, or (before the value) the
    /// start of prose.
    fn word<S: Sink>(&mut self, chunk: &[u8], i: usize, key: bool, sink: &mut S) -> Result<usize, Failure> {
        let j = if key {
            find(chunk, i, |b| !is_key_byte(b))
        } else if self.repair {
            find(chunk, i, |b| !(is_word_byte(b) || b == b'$'))
        } else {
            find(chunk, i, |b| !is_word_byte(b))
        };
        let run = chunk.get(i..j.unwrap_or(chunk.len())).unwrap_or_default();
        let Some(j) = j else {
            self.buf.extend_from_slice(run);
            return Ok(chunk.len());
        };
        let mut text = std::mem::take(&mut self.buf);
        text.extend_from_slice(run);
        self.state = State::Between;
        let next = chunk.get(j).copied();
        let result = self.end_word(&text, key, next, sink);
        text.clear();
        if self.buf.is_empty() {
            self.buf = text;
        }
        match result? {
            true => Ok(j + 1),
            false => Ok(j),
        }
    }

    /// A word ended before `next` (not at the end of the input). Returns whether `next`
    /// was consumed (the `(` of a function call).
    fn end_word<S: Sink>(
        &mut self,
        text: &[u8],
        key: bool,
        next: Option<u8>,
        sink: &mut S,
    ) -> Result<bool, Failure> {
        if self.lenient && !self.repair && self.phase == Phase::Value && matches!(next, Some(b'\'' | b'"')) {
            if let Some(prefix) = StrPrefix::of(text) {
                // `u'a'`, `r"\d"`, `b'x'`: a Python string with a prefix.
                self.adjacent(self.start, sink);
                sink.repair(RepairKind::StringPrefix, self.start);
                let quote = if next == Some(b'"') {
                    Quote::Double
                } else {
                    sink.repair(RepairKind::SingleQuotes, self.start + text.len());
                    Quote::Single
                };
                self.prefix = Some(prefix);
                self.state = State::Str { quote, esc: Esc::None };
                return Ok(true);
            }
        }
        if self.held.is_some() && !self.repair {
            self.flush_held(sink)?;
        }
        if key {
            let key = std::str::from_utf8(text)
                .map_err(|_| Failure::from(Fail::InvalidUtf8 { offset: self.start }))?;
            sink.repair(RepairKind::UnquotedKey, self.start);
            self.emit(sink, Token::Str(key.to_owned()), self.start)?;
            return Ok(false);
        }
        if let Some((token, spelling)) = self.literal(text) {
            self.word_literal(token, spelling, sink)?;
            return Ok(false);
        }
        if self.lenient
            && next == Some(b'(')
            && text.first().is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_' || *b == b'$')
        {
            // `NumberLong(2)`, `callback({...})`: the argument is the value.
            if self.phase == Phase::Start {
                self.begin_value(self.start, b'(');
            }
            sink.repair(RepairKind::FunctionCall, self.start);
            self.emit(sink, Token::BeginParen(true), self.start)?;
            return Ok(true);
        }
        if self.phase == Phase::Start && !self.bare {
            self.start_prose_with(text, sink);
            return Ok(false);
        }
        if self.repair {
            if self.phase == Phase::Start {
                self.begin_value(self.start, text.first().copied().unwrap_or(b'a'));
            }
            self.raw.clear();
            self.raw.extend_from_slice(text);
            let mut unq = Unq::value();
            unq.call = next.is_some_and(|b| matches!(b, b' ' | b'\t'));
            self.state = State::Unquoted(unq);
            return Ok(false);
        }
        Err(unexpected_word(text, self.start))
    }

    /// Emit a literal read from a word.
    fn word_literal<S: Sink>(
        &mut self,
        token: Token,
        spelling: Spelling,
        sink: &mut S,
    ) -> Result<(), Failure> {
        let token = match spelling {
            Spelling::Json => token,
            Spelling::Python => {
                sink.repair(RepairKind::PythonLiteral, self.start);
                token
            }
            Spelling::Undefined => {
                sink.repair(RepairKind::Undefined, self.start);
                token
            }
            Spelling::OtherCase => {
                sink.repair(RepairKind::LiteralCase, self.start);
                token
            }
            Spelling::NonFinite => match self.non_finite {
                NonFinite::Reject => {
                    return Err(Failure::syntax(
                        "`NaN` and `Infinity` are not numbers json (or a tool) can use",
                        self.start,
                    ))
                }
                NonFinite::Null => {
                    sink.repair(RepairKind::NonFiniteNumber, self.start);
                    Token::Null
                }
            },
        };
        if self.phase == Phase::Start {
            let first = if spelling == Spelling::Json { b't' } else { b'T' };
            self.begin_value(self.start, first);
        }
        self.emit(sink, token, self.start)?;
        self.glued = self.phase == Phase::After && !self.repair;
        Ok(())
    }

    /// The literal `text` spells, and how.
    fn literal(&self, text: &[u8]) -> Option<(Token, Spelling)> {
        if let Some((_, token)) = LITERALS.iter().find(|(word, _)| *word == text) {
            return Some((token.clone(), Spelling::Json));
        }
        if !self.lenient {
            return None;
        }
        if let Some((_, token)) = PYTHON_LITERALS.iter().find(|(word, _)| *word == text) {
            return Some((token.clone(), Spelling::Python));
        }
        match text {
            b"undefined" => return Some((Token::Null, Spelling::Undefined)),
            b"NaN" | b"Infinity" | b"-Infinity" => return Some((Token::Null, Spelling::NonFinite)),
            _ => {}
        }
        if self.repair {
            let lower = |word: &[u8]| text.eq_ignore_ascii_case(word);
            let token = if lower(b"true") {
                Token::Bool(true)
            } else if lower(b"false") {
                Token::Bool(false)
            } else if lower(b"null") || lower(b"none") {
                Token::Null
            } else {
                return None;
            };
            return Some((token, Spelling::OtherCase));
        }
        None
    }

    /// The literal `text` is a proper prefix of (a cut-off literal).
    fn literal_prefix(&self, text: &[u8]) -> Option<(Token, Spelling)> {
        if let Some((_, token)) = LITERALS.iter().find(|(word, _)| word.starts_with(text)) {
            return Some((token.clone(), Spelling::Json));
        }
        if self.lenient {
            if let Some((_, token)) = PYTHON_LITERALS.iter().find(|(word, _)| word.starts_with(text)) {
                return Some((token.clone(), Spelling::Python));
            }
        }
        None
    }

    /// A multi-byte character at a token start: special whitespace, a typographic quote,
    /// or (depending on where) prose, an unquoted key or text.
    fn multi_byte<S: Sink>(
        &mut self,
        chunk: &[u8],
        mut i: usize,
        mut seen: u8,
        need: u8,
        sink: &mut S,
    ) -> Result<usize, Failure> {
        while seen < need {
            let Some(&b) = chunk.get(i) else {
                self.state = State::Multi { seen, need };
                return Ok(i);
            };
            if b & 0xC0 != 0x80 {
                break;
            }
            if let Some(slot) = self.multi.get_mut(usize::from(seen)) {
                *slot = b;
            }
            seen += 1;
            i += 1;
        }
        self.state = State::Between;
        self.classify_multi(usize::from(seen), sink)?;
        Ok(i)
    }

    /// Act on the multi-byte character `multi[..len]` read at a token start.
    fn classify_multi<S: Sink>(&mut self, len: usize, sink: &mut S) -> Result<(), Failure> {
        let bytes = self.multi.get(..len).unwrap_or_default().to_vec();
        let c = std::str::from_utf8(&bytes).ok().and_then(|s| s.chars().next());
        let at = self.start;
        if c.is_some_and(is_special_space) {
            sink.repair(RepairKind::SpecialWhitespace, at);
            return Ok(());
        }
        let quote = match c {
            Some('“' | '”') => Some((Quote::SmartDouble, RQuote::DoubleLike)),
            Some('‘' | '’') => Some((Quote::SmartSingle, RQuote::SingleLike)),
            Some('´') if self.repair => Some((Quote::SmartSingle, RQuote::SingleLike)),
            _ => None,
        };
        let expects_key = sink.expects_key();
        match self.phase {
            Phase::After => {
                if self.repair && self.bare {
                    self.phase = Phase::Value;
                } else {
                    sink.repair(RepairKind::ProseAfter, at);
                    self.state = State::Ignore;
                    return Ok(());
                }
            }
            Phase::Start if quote.is_none() && !self.bare => {
                self.start_prose_with(&bytes, sink);
                return Ok(());
            }
            Phase::Start => self.begin_value(at, 0xE2),
            Phase::Value | Phase::Ended => {}
        }
        if let Some((lenient, repair)) = quote {
            if self.held.is_some() && !self.repair {
                self.flush_held(sink)?;
            }
            sink.repair(RepairKind::SmartQuotes, at);
            if self.repair {
                self.begin_raw_at(repair, at + len, sink);
            } else {
                self.state = State::Str { quote: lenient, esc: Esc::None };
            }
            return Ok(());
        }
        if self.held.is_some() {
            self.flush_held(sink)?;
        }
        if self.repair {
            self.raw.clear();
            self.raw.extend_from_slice(&bytes);
            self.state = State::Unquoted(if expects_key { Unq::key() } else { Unq::value() });
            return Ok(());
        }
        if expects_key && c.is_some() {
            self.buf.extend_from_slice(&bytes);
            self.state = State::Word { key: true };
            return Ok(());
        }
        Err(Failure::unexpected(at, ""))
    }

    /// Dots at a token start: `.5` (`0.5`), and in [`ParseMode::Repair`] `...` (an
    /// ellipsis) and a lone `.`.
    fn dots<S: Sink>(&mut self, chunk: &[u8], i: usize, seen: u8, sink: &mut S) -> Result<usize, Failure> {
        let Some(&b) = chunk.get(i) else { return Ok(i) };
        if seen == 1 && b.is_ascii_digit() {
            if self.phase == Phase::Start {
                self.begin_value(self.start, b'.');
            }
            sink.repair(RepairKind::NumberSyntax, self.start);
            self.buf.extend_from_slice(b"0.");
            self.state = State::Num(Num::Dot);
            return Ok(i);
        }
        if self.repair && b == b'.' && seen < 3 {
            if seen == 2 {
                self.state = State::Between;
                sink.repair(RepairKind::Ellipsis, self.start);
                self.emit(sink, Token::Ellipsis, self.start)?;
                return Ok(i + 1);
            }
            self.state = State::Dots { seen: seen + 1 };
            return Ok(i + 1);
        }
        self.state = State::Between;
        if !self.repair {
            return Err(Failure::unexpected(self.start, ""));
        }
        if seen == 1 && !glued(b) {
            self.end_dots(seen, sink)?;
            return Ok(i);
        }
        self.raw.clear();
        self.raw.extend(std::iter::repeat_n(b'.', usize::from(seen)));
        self.state = State::Unquoted(Unq::value());
        Ok(i)
    }

    /// Dots before a delimiter or the end.
    fn end_dots<S: Sink>(&mut self, seen: u8, sink: &mut S) -> Result<(), Failure> {
        if !self.repair {
            return Err(Failure::unexpected(self.start, ""));
        }
        if self.phase == Phase::Start {
            self.begin_value(self.start, b'.');
        }
        if seen == 1 {
            // jsonrepair reads a lone `.` as the number 0.0.
            sink.repair(RepairKind::NumberSyntax, self.start);
            let zero = Number::from_f64(0.0).map_or(Token::Null, Token::Number);
            return self.emit(sink, zero, self.start);
        }
        self.raw.clear();
        self.raw.extend(std::iter::repeat_n(b'.', usize::from(seen)));
        self.end_unquoted(Unq::value(), sink)
    }

    /// `\` at a token start: escaped JSON (`{\"a\": 1}`) when `"` follows.
    fn backslash<S: Sink>(&mut self, chunk: &[u8], i: usize, sink: &mut S) -> Result<usize, Failure> {
        let Some(&b) = chunk.get(i) else { return Ok(i) };
        self.state = State::Between;
        if b == b'"' {
            sink.repair(RepairKind::EscapedJson, self.start);
            // Already unescaping (a second level of escapes): the state stays, since it
            // belongs to the end of the fragment, which is already unescaped.
            if self.unescape.is_none() {
                self.unescape = Some(false);
            }
            return Ok(i);
        }
        match self.phase {
            Phase::Start => {
                self.enter_prose(self.start, sink);
                if let Some((prose, _)) = self.prose_raw.as_mut() {
                    prose.push(b'\\');
                }
                Ok(i)
            }
            _ if self.repair => {
                self.raw.clear();
                self.raw.push(b'\\');
                self.state = State::Unquoted(Unq::value());
                Ok(i)
            }
            _ => Err(Failure::unexpected(self.start, "")),
        }
    }

    /// After `/`: a comment, or (lenient, around the value) prose; in
    /// [`ParseMode::Repair`] a regular expression where a value belongs.
    fn slash<S: Sink>(&mut self, chunk: &[u8], i: usize, sink: &mut S) -> Result<usize, Failure> {
        let Some(&b) = chunk.get(i) else { return Ok(i) };
        self.start = self.slash_at;
        match b {
            b'/' => {
                sink.repair(RepairKind::Comment, self.start);
                self.state = State::LineComment { hash: false };
                Ok(i + 1)
            }
            b'*' => {
                sink.repair(RepairKind::Comment, self.start);
                self.state = State::BlockComment { star: false };
                Ok(i + 1)
            }
            _ if self.repair
                && (self.phase == Phase::Value
                    || (self.phase == Phase::Start && self.prose_raw.is_none())) =>
            {
                if self.phase == Phase::Start {
                    self.begin_value(self.start, b'/');
                }
                self.raw.clear();
                self.raw.push(b'/');
                self.state = State::Regex { esc: false };
                Ok(i)
            }
            _ => match self.phase {
                Phase::Start => {
                    self.enter_prose(self.start, sink);
                    if let Some((prose, _)) = self.prose_raw.as_mut() {
                        prose.push(b'/');
                    }
                    Ok(i)
                }
                Phase::After => {
                    sink.repair(RepairKind::ProseAfter, self.start);
                    self.state = State::Ignore;
                    Ok(i)
                }
                Phase::Value | Phase::Ended => Err(Failure::syntax("unexpected character `/`", self.start)),
            },
        }
    }

    /// A `//` or `#` comment, up to the end of the line. In [`ParseMode::Repair`] a `#`
    /// comment inside a container also ends before a closing bracket (`{"a": 1 # note }`).
    fn line_comment<S: Sink>(&mut self, chunk: &[u8], i: usize, hash: bool, sink: &mut S) -> usize {
        let stop_at_closer = hash && self.repair && sink.in_container();
        let found = if stop_at_closer {
            find(chunk, i, |b| matches!(b, b'\n' | b'}' | b']'))
        } else {
            find(chunk, i, |b| b == b'\n')
        };
        match found {
            Some(j) => {
                self.state = State::Between;
                if chunk.get(j) == Some(&b'\n') {
                    j + 1
                } else {
                    j
                }
            }
            None => chunk.len(),
        }
    }

    fn block_comment(&mut self, chunk: &[u8], mut i: usize, mut star: bool) -> usize {
        while let Some(&b) = chunk.get(i) {
            if star && b == b'/' {
                self.state = State::Between;
                return i + 1;
            }
            star = b == b'*';
            i += 1;
        }
        self.state = State::BlockComment { star };
        i
    }

    /// A UTF-8 BOM at the very start (lenient).
    fn bom<S: Sink>(&mut self, chunk: &[u8], i: usize, seen: u8, sink: &mut S) -> usize {
        let expected = [0xEF, 0xBB, 0xBF];
        if chunk.get(i) == expected.get(usize::from(seen)) {
            if seen == 2 {
                sink.repair(RepairKind::Bom, self.start);
                self.state = State::Between;
            } else {
                self.state = State::Bom { seen: seen + 1 };
            }
            return i + 1;
        }
        self.enter_prose(self.start, sink);
        if let Some((prose, _)) = self.prose_raw.as_mut() {
            prose.extend_from_slice(expected.get(..usize::from(seen)).unwrap_or_default());
        }
        i
    }

    /// Backticks: a code fence when there are three (lenient); in [`ParseMode::Repair`] one
    /// backtick where a value belongs opens a string.
    fn ticks<S: Sink>(&mut self, chunk: &[u8], i: usize, seen: u8, sink: &mut S) -> Result<usize, Failure> {
        let Some(&b) = chunk.get(i) else { return Ok(i) };
        if b == b'`' {
            if seen < 2 {
                self.state = State::Ticks { seen: seen + 1 };
                return Ok(i + 1);
            }
            match self.phase {
                Phase::Start => {
                    sink.repair(RepairKind::CodeFence, self.start);
                    self.fence_open = true;
                    self.prose_raw = None;
                    self.state = State::FenceInfo;
                }
                Phase::After if self.fence_open => {
                    self.fence_open = false;
                    self.fenced = self.repair;
                    self.state = State::Between;
                }
                Phase::After if self.fenced => {
                    // Another code fence after a fenced value: another value.
                    self.fence_open = true;
                    self.fenced = false;
                    self.state = State::FenceInfo;
                }
                Phase::After => {
                    sink.repair(RepairKind::ProseAfter, self.start);
                    self.state = State::Ignore;
                }
                Phase::Value if self.repair && !self.fence_open && self.tokens == 1 && sink.undo_open() => {
                    // ```` [```json ```` : a bracket before the fence, not a value.
                    sink.repair(RepairKind::CodeFence, self.start);
                    self.phase = Phase::Start;
                    self.value_start = None;
                    self.tokens = 0;
                    self.fence_open = true;
                    self.state = State::FenceInfo;
                }
                // The closing fence came before the value was complete: the value was cut
                // off, and `finish` reports (or completes) it.
                Phase::Value | Phase::Ended => {
                    self.flush_held(sink)?;
                    self.phase = Phase::Ended;
                    self.state = State::Ignore;
                }
            }
            return Ok(i + 1);
        }
        match self.phase {
            Phase::Start
                if self.repair && seen == 1 && self.prose_raw.is_none() && self.scalar_prose.is_none() =>
            {
                // `` `foo´ ``: a backtick-quoted string.
                self.begin_value(self.start, b'`');
                sink.repair(RepairKind::SmartQuotes, self.start);
                self.begin_raw(RQuote::SingleLike, sink);
                Ok(i)
            }
            Phase::Start => {
                self.enter_prose(self.start, sink);
                if let Some((prose, _)) = self.prose_raw.as_mut() {
                    prose.extend(std::iter::repeat_n(b'`', usize::from(seen)));
                }
                Ok(i)
            }
            Phase::After if self.repair && self.fenced => {
                self.state = State::SeekFence;
                Ok(i)
            }
            Phase::After => {
                sink.repair(RepairKind::ProseAfter, self.start);
                self.state = State::Ignore;
                Ok(i)
            }
            Phase::Value if self.repair && seen <= 2 => {
                // A backtick-quoted string (``` `foo´ ```); two backticks are an empty one.
                if self.held.is_some() {
                    self.flush_held(sink)?;
                }
                sink.repair(RepairKind::SmartQuotes, self.start);
                if seen == 2 {
                    self.state = State::Between;
                    self.deliver_string(String::new(), self.start, true, sink)?;
                    return Ok(i);
                }
                self.begin_raw(RQuote::SingleLike, sink);
                Ok(i)
            }
            Phase::Value | Phase::Ended => Err(Failure::syntax("unexpected character '`'", self.start)),
        }
    }

    /// The language tag of an opening fence, up to the end of its line or the value.
    fn fence_info(&mut self, chunk: &[u8], i: usize) -> usize {
        match find(chunk, i, |b| {
            !(b.is_ascii_alphanumeric()
                || matches!(b, b'_' | b'-' | b'+' | b'.' | b'`' | b' ' | b'\t' | b'\r'))
        }) {
            Some(j) => {
                self.state = State::Between;
                if chunk.get(j) == Some(&b'\n') {
                    j + 1
                } else {
                    j
                }
            }
            None => chunk.len(),
        }
    }
}

/// The index of the first byte at or after `i` that matches, if any.
#[inline]
pub(crate) fn find(chunk: &[u8], i: usize, pred: impl Fn(u8) -> bool) -> Option<usize> {
    chunk.get(i..)?.iter().position(|&b| pred(b)).map(|k| i + k)
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// Whether any byte of `word` is zero.
#[inline]
fn has_zero_byte(word: u64) -> bool {
    word.wrapping_sub(ONES) & !word & HIGHS != 0
}

/// The index of the first byte of `chunk` that interrupts string content (as in
/// [`find_special`]), or `chunk.len()`. Eight bytes at a time, the last word padded with
/// spaces, and the byte found from the word's mask rather than by a loop: streamed fragments
/// are mostly shorter than eight bytes, and a loop over their bytes costs a branch (often
/// mispredicted) per byte.
#[inline]
fn first_special(chunk: &[u8], stop: u8) -> usize {
    // The high bit of each byte of `word` that is a control character, `stop` or a
    // backslash. A borrow can also flag a byte after a flagged one, never before: the
    // lowest flagged byte is the first such byte.
    let flags = |word: u64| {
        let quotes = word ^ (ONES * u64::from(stop));
        let backslashes = word ^ (ONES * u64::from(b'\\'));
        let control = word.wrapping_sub(ONES * 0x20) & !word;
        let quote = quotes.wrapping_sub(ONES) & !quotes;
        let backslash = backslashes.wrapping_sub(ONES) & !backslashes;
        (control | quote | backslash) & HIGHS
    };
    let first = |flags: u64| (flags.trailing_zeros() / 8) as usize;
    let mut words = chunk.chunks_exact(8);
    let mut at = 0;
    for bytes in words.by_ref() {
        let mut array = [0; 8];
        array.copy_from_slice(bytes);
        let found = flags(u64::from_le_bytes(array));
        if found != 0 {
            return at + first(found);
        }
        at += 8;
    }
    let rest = words.remainder();
    let mut array = [b' '; 8];
    if let Some(head) = array.get_mut(..rest.len()) {
        head.copy_from_slice(rest);
    }
    match flags(u64::from_le_bytes(array)) {
        0 => chunk.len(),
        found => at + first(found),
    }
}

/// The index of the first byte at or after `i` that interrupts string content: `stop`, a
/// backslash or a control character; `chunk.len()` if none. Eight bytes at a time while no
/// such byte is in the word.
#[inline]
fn find_special(chunk: &[u8], mut i: usize, stop: u8) -> usize {
    let stop_ones = ONES * u64::from(stop);
    let backslash_ones = ONES * u64::from(b'\\');
    while let Some(bytes) = chunk.get(i..i + 8) {
        let mut array = [0; 8];
        array.copy_from_slice(bytes);
        let word = u64::from_le_bytes(array);
        let control = word.wrapping_sub(ONES * 0x20) & !word & HIGHS != 0;
        if control || has_zero_byte(word ^ stop_ones) || has_zero_byte(word ^ backslash_ones) {
            break;
        }
        i += 8;
    }
    while let Some(&b) = chunk.get(i) {
        if b == stop || b == b'\\' || b < 0x20 {
            return i;
        }
        i += 1;
    }
    chunk.len()
}

/// Whether `segment` holds `(`, `[` or `{`. Eight bytes at a time.
#[inline]
fn has_opener(segment: &[u8]) -> bool {
    let mut words = segment.chunks_exact(8);
    for bytes in words.by_ref() {
        let mut array = [0; 8];
        array.copy_from_slice(bytes);
        let word = u64::from_le_bytes(array);
        if has_zero_byte(word ^ (ONES * u64::from(b'(')))
            || has_zero_byte(word ^ (ONES * u64::from(b'[')))
            || has_zero_byte(word ^ (ONES * u64::from(b'{')))
        {
            return true;
        }
    }
    words.remainder().iter().any(|&b| matches!(b, b'(' | b'[' | b'{'))
}

/// The value of each hex digit; 0xFF for other bytes.
const HEX: [u8; 256] = {
    let mut table = [0xFF; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = match b as u8 {
            d @ b'0'..=b'9' => d - b'0',
            d @ b'a'..=b'f' => d - b'a' + 10,
            d @ b'A'..=b'F' => d - b'A' + 10,
            _ => 0xFF,
        };
        b += 1;
    }
    table
};

/// Four hex digits.
#[inline]
pub(crate) fn hex4(digits: &[u8]) -> Option<u16> {
    let mut value = 0u16;
    for &d in digits {
        let v = HEX[usize::from(d)];
        if v == 0xFF {
            return None;
        }
        value = (value << 4) | u16::from(v);
    }
    Some(value)
}

/// How many bytes the UTF-8 character led by `b` has (1 for a byte that cannot lead).
fn utf8_len(b: u8) -> u8 {
    match b {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => 1,
    }
}

/// The Unicode spaces jsonrepair reads as whitespace.
fn is_special_space(c: char) -> bool {
    matches!(
        c,
        '\u{00A0}' | '\u{180E}' | '\u{2000}'..='\u{200B}' | '\u{202F}' | '\u{205F}' | '\u{3000}' | '\u{FEFF}'
    )
}

/// A byte that continues a literal word (`true`, `None`, or a wrong word to report).
fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// A byte that may start an unquoted key. `E2` is left out: at a token start it is read as
/// a smart quote.
fn is_key_start(b: u8) -> bool {
    is_key_byte(b) && b != 0xE2
}

/// A byte of an unquoted key: `customer_id`, `$ref`, `a-b`, `größe`.
fn is_key_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'-' | b'.' | b'+' | b'@') || b >= 0x80
}

/// A byte that may start text without quotes ([`ParseMode::Repair`]): anything that is not
/// whitespace, a bracket, a separator or a quote.
fn is_unquoted_start(b: u8) -> bool {
    (0x20..0x80).contains(&b)
        && !matches!(
            b,
            b' ' | b'{' | b'}' | b'[' | b']' | b'(' | b')' | b',' | b':' | b'"' | b'\'' | b'`' | b'/' | b'#'
        )
}

/// Whether `b`, right after a number, makes it something else (`2024-10-18`, `1/3`,
/// `746de9ad`): anything but whitespace, a separator, a bracket or a quote.
fn glued(b: u8) -> bool {
    !matches!(
        b,
        b' ' | b'\n' | b'\r' | b'\t' | b',' | b':' | b'[' | b']' | b'{' | b'}' | b'(' | b')' | b'"' | b'\''
    )
}

/// Convert number text that follows the grammar: an integer that fits `u64` or `i64`
/// stays an integer, anything else is the `f64` `serde_json` reads (including `-0` as the
/// float `-0.0`). The float is `serde_json`'s own reading, so that a number reads the same in
/// strict JSON (which takes `serde_json`'s path) and in text that needed repair, whether the
/// program has `serde_json`'s `float_roundtrip` feature (correctly rounded) or not (its faster
/// reading, at most one unit in the last place away).
fn to_number(text: &[u8], offset: usize) -> Result<Number, Failure> {
    let text = std::str::from_utf8(text).map_err(|_| Failure::from(Fail::InvalidUtf8 { offset }))?;
    if !text.bytes().any(|b| matches!(b, b'.' | b'e' | b'E')) {
        if let Some(digits) = text.strip_prefix('-') {
            if digits.bytes().any(|b| b != b'0') {
                if let Ok(value) = text.parse::<i64>() {
                    return Ok(Number::from(value));
                }
            }
        } else if let Ok(value) = text.parse::<u64>() {
            return Ok(Number::from(value));
        }
    }
    serde_json::from_str::<Number>(text).map_err(|_| Failure::syntax("number out of range", offset))
}

/// Is `number`, read from `text`, a float with an integral value that `text` does not
/// denote exactly (`0.99999999999999999` read as `1`)?
fn inexact_integral(text: &[u8], number: &Number) -> bool {
    let Some(float) = number.as_f64().filter(|f| number.is_f64() && f.fract() == 0.0) else { return false };
    !std::str::from_utf8(text).is_ok_and(|text| crate::decimal::integral_float_is_exact(text, float))
}

/// `0x1F`, `-0x10`.
fn hex_number(text: &[u8], offset: usize) -> Result<Number, Failure> {
    let (negative, digits) = match text.strip_prefix(b"-") {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let digits = digits.get(2..).unwrap_or_default();
    let mut value: u64 = 0;
    for &d in digits {
        let v = HEX[usize::from(d)];
        value = value
            .checked_mul(16)
            .and_then(|x| x.checked_add(u64::from(v)))
            .ok_or_else(|| Failure::syntax("number out of range", offset))?;
    }
    if negative {
        let value = i64::try_from(value).map_err(|_| Failure::syntax("number out of range", offset))?;
        Ok(Number::from(-value))
    } else {
        Ok(Number::from(value))
    }
}

/// The error for a bare word that is not a literal.
fn unexpected_word(text: &[u8], offset: usize) -> Failure {
    let shown: String = String::from_utf8_lossy(text).chars().take(40).collect();
    Failure::syntax(format!("unexpected word `{shown}`"), offset)
}

/// How an error message shows the character starting at `chunk[i]`: "`x`", or "U+000A"
/// for a control character, or "byte 0xff" when it is not valid UTF-8 (or cut by the end of
/// the fragment).
pub(crate) fn describe_char(chunk: &[u8], i: usize) -> String {
    let Some(&lead) = chunk.get(i) else { return "the end of the input".to_owned() };
    let len = match lead {
        0x00..=0x7F => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    };
    let decoded = chunk.get(i..i + len).and_then(|bytes| std::str::from_utf8(bytes).ok());
    match decoded.and_then(|s| s.chars().next()) {
        Some(c) if c.is_control() => format!("U+{:04X}", u32::from(c)),
        Some('`') => "'`'".to_owned(),
        Some(c) => format!("`{c}`"),
        None => format!("byte 0x{lead:02x}"),
    }
}
