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
//!
//! The machine is split by what it reads, as `serde_json` splits its reader, deserializer
//! and number parsing. This file holds the [`Lexer`], the [`Sink`] it feeds and the loop
//! that drives it (feed, step, replay, finish); `state` the states it can be in; `scan`
//! what lies between tokens (and which token starts); `strings` strings and their quotes;
//! `escapes` the one escape decoder, which every reader of string content calls (`salvage`,
//! the tape, the text-call formats); `numbers` numbers; `words` literals and bare words;
//! `trivia` the text around the value (prose, code fences, comments, a BOM); `bytes` finding
//! bytes and classifying characters; `spans` where a value ends in a text without reading it,
//! for the text-call formats; `str_token` the content a string token lends ([`Str`]: from
//! the text when it spells the string as it reads, else from the lexer's buffer). The state
//! [`ParseMode::Repair`] keeps is `salvage`'s, which reads on from here: the lexer's files
//! never import it.

pub(super) mod bytes;
pub(crate) mod escapes;
pub(crate) mod mends;
pub(crate) mod numbers;
mod scan;
pub(crate) mod spans;
pub(super) mod state;
mod str_token;
pub(super) mod strings;
mod trivia;
mod words;

use std::cell::Cell;

use serde_json::Number;

pub(crate) use self::bytes::describe_char;
use self::bytes::{find, find_special, first_special_of_tail};
use self::escapes::{escape_cut_off, json_escape, spell_escape};
pub(crate) use self::state::Ctx;
use self::state::{Esc, Phase, Quote, RQuote, State, StrPrefix, Unq};
pub(crate) use self::str_token::Str;
use super::repair::salvage::{RepairState, Segment};
use super::spare::{self, MOST_KEPT};
use super::{NonFinite, ParseMode, ParseOptions, RepairKind};

/// Why the machine stopped. Boxed, so that the `Result` every token passes through stays
/// one word.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Failure(Box<Failed>);

/// A failure, and where the text it was read from had backslashes removed.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Failed {
    fail: Fail,
    /// In escaped JSON (`{\"a\": @}`) the lexer reads the text with one level of escapes
    /// removed, so its offsets count that text: here, the offset (in it) of each byte a
    /// removed backslash stood before, in order, up to the failure. Empty for any other text.
    escapes: Box<[u32]>,
}

impl From<Fail> for Failure {
    #[cold]
    fn from(fail: Fail) -> Failure {
        Failure(Box::new(Failed { fail, escapes: Box::default() }))
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
    /// A number that follows the grammar but is beyond the floats (`1e400`): no `f64`
    /// holds it.
    BeyondFloats {
        /// Absolute byte offset of the number.
        offset: usize,
    },
    /// A string or key was not valid UTF-8 (only possible when fed raw bytes).
    InvalidUtf8 {
        /// Absolute byte offset, at best the start of the string.
        offset: usize,
    },
}

/// The offset in the text as given of the byte read at `at`, in a text read with the
/// backslashes before the bytes at `escapes` removed (see [`Lexer::escapes`]): its offset
/// read, and one for each backslash removed before it.
pub(crate) fn as_given(escapes: &[u32], at: usize) -> usize {
    at + escapes.partition_point(|&escaped| escaped as usize <= at)
}

impl Failure {
    #[cold]
    pub(crate) fn syntax(message: impl Into<String>, offset: usize) -> Failure {
        Failure::from(Fail::Syntax { message: message.into(), offset })
    }

    /// A number beyond the floats ([`Fail::BeyondFloats`]).
    pub(crate) fn is_beyond_floats(&self) -> bool {
        matches!(self.0.fail, Fail::BeyondFloats { .. })
    }

    /// What went wrong, its offsets counted in the text as it was given (see
    /// [`Failure::read_unescaped`]).
    pub(crate) fn into_kind(self) -> Fail {
        let Failed { fail, escapes } = *self.0;
        if escapes.is_empty() {
            return fail;
        }
        let given = |at: usize| as_given(&escapes, at);
        match fail {
            Fail::Syntax { message, offset } => Fail::Syntax { message, offset: given(offset) },
            Fail::Char { offset, at, prefix, suffix } => {
                Fail::Char { offset: given(offset), at: given(at), prefix, suffix }
            }
            Fail::BeyondFloats { offset } => Fail::BeyondFloats { offset: given(offset) },
            Fail::InvalidUtf8 { offset } => Fail::InvalidUtf8 { offset: given(offset) },
            other @ (Fail::Truncated { .. } | Fail::TooDeep) => other,
        }
    }

    /// This failure, read from a text whose backslashes before the bytes at `escapes` were
    /// removed (see [`Lexer::escapes`]); its offsets stay as read, and
    /// [`Failure::syntax_offset`] and [`Failure::into_kind`] count them in the text.
    #[cold]
    pub(crate) fn read_unescaped(mut self, escapes: &[u32]) -> Failure {
        // Only the removals up to the failure place it (those after it depend on how far
        // the fragment it came in had been unescaped).
        let last = match self.0.fail {
            Fail::Syntax { offset, .. } | Fail::BeyondFloats { offset } | Fail::InvalidUtf8 { offset } => {
                offset
            }
            Fail::Char { offset, at, .. } => offset.max(at),
            Fail::Truncated { .. } | Fail::TooDeep => return self,
        };
        let before = &escapes[..escapes.partition_point(|&escaped| escaped as usize <= last)];
        if !before.is_empty() && self.0.escapes.is_empty() {
            self.0.escapes = before.into();
        }
        self
    }

    /// Where a syntax error is in the text as given (`None` for the other failures): the
    /// retry after prose searches on from there, so a value inside the escaped JSON that
    /// failed is never taken for the next candidate.
    pub(crate) fn syntax_offset(&self) -> Option<usize> {
        match self.0.fail {
            Fail::Syntax { offset, .. } | Fail::Char { offset, .. } | Fail::BeyondFloats { offset } => {
                Some(as_given(&self.0.escapes, offset))
            }
            Fail::Truncated { .. } | Fail::TooDeep | Fail::InvalidUtf8 { .. } => None,
        }
    }

    /// "unexpected character X{suffix}" for the character at `at`.
    #[cold]
    pub(crate) fn unexpected(at: usize, suffix: &'static str) -> Failure {
        Failure::from(Fail::Char { offset: at, at, prefix: "unexpected character ", suffix })
    }

    /// The error for a function call in a value (`abs(-5)`): its value is its result, which
    /// only running it gives, so it is refused as `ast.literal_eval` refuses it.
    #[cold]
    pub(crate) fn function_call(offset: usize) -> Failure {
        Failure::syntax("a function call is not a value; send the value itself", offset)
    }

    /// The error for Python's `\N{NAME}` escape in a Python string literal: the character
    /// it names is looked up in the Unicode name table, which this parser does not carry;
    /// refused rather than kept as written, which would change the value.
    #[cold]
    pub(crate) fn named_escape(offset: usize) -> Failure {
        Failure::syntax(
            "a `\\N{...}` escape (a character by its Unicode name) is not read; send the character itself",
            offset,
        )
    }

    /// The error for an f-string (`f'...'`, `rf"..."`): it is an expression, evaluated
    /// where it is written, so `ast.literal_eval` refuses it, and so does this; neither its
    /// text as written nor a join with the literal before it is the value meant.
    #[cold]
    pub(crate) fn format_string(offset: usize) -> Failure {
        Failure::syntax(
            "an f-string (`f'...'`) is an expression, not a literal; send the string itself",
            offset,
        )
    }

    /// The error for a bare word that is not a literal.
    #[cold]
    pub(crate) fn unexpected_word(text: &[u8], offset: usize) -> Failure {
        let shown: String = String::from_utf8_lossy(text).chars().take(40).collect();
        Failure::syntax(format!("unexpected word `{shown}`"), offset)
    }
}

/// One token, decoded: a string's content is lent for the time the token is handed over
/// (see [`Str`]).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Token<'a> {
    BeginObject,
    EndObject,
    BeginArray,
    EndArray,
    /// `(`: a Python tuple.
    BeginParen,
    EndParen,
    Colon,
    Comma,
    /// `...` standing for omitted items ([`ParseMode::Repair`]).
    Ellipsis,
    /// A string, or an object key (the builder knows which from its state).
    Str(Str<'a>),
    Number(Number),
    Bool(bool),
    Null,
}

impl Token<'_> {
    /// This token with a content of its own, to keep past the call that lent it.
    pub(crate) fn into_owned(self) -> Token<'static> {
        match self {
            Token::BeginObject => Token::BeginObject,
            Token::EndObject => Token::EndObject,
            Token::BeginArray => Token::BeginArray,
            Token::EndArray => Token::EndArray,
            Token::BeginParen => Token::BeginParen,
            Token::EndParen => Token::EndParen,
            Token::Colon => Token::Colon,
            Token::Comma => Token::Comma,
            Token::Ellipsis => Token::Ellipsis,
            Token::Str(text) => Token::Str(Str::Owned(text.into_string())),
            Token::Number(number) => Token::Number(number),
            Token::Bool(value) => Token::Bool(value),
            Token::Null => Token::Null,
        }
    }

    /// How an error message names this token.
    pub(crate) fn describe(&self) -> &'static str {
        match self {
            Token::BeginObject => "`{`",
            Token::EndObject => "`}`",
            Token::BeginArray => "`[`",
            Token::EndArray => "`]`",
            Token::BeginParen => "`(`",
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

/// Where the lexer sends tokens and repairs: the tree builder.
pub(crate) trait Sink {
    /// Where the next token goes.
    fn context(&self) -> Ctx;
    /// Take one token that starts at absolute byte `offset`; a string's content is lent
    /// for this call only.
    fn token(&mut self, token: Token<'_>, offset: usize) -> Result<(), Failure>;
    /// Whether the next token is an object key (a bare word there is an unquoted key).
    fn expects_key(&self) -> bool;
    /// Whether the top-level value is complete (what follows is trailing text).
    fn is_complete(&self) -> bool;
    /// Record a repair.
    fn repair(&mut self, kind: RepairKind, offset: usize);
    /// The next number token is a float, written `literal` (which its `f64` may round, or
    /// print otherwise: `1.50`). Only the builder that tracks them cares.
    fn float_literal(&mut self, _literal: &[u8]) {}
    /// Remove the repairs of `kind` recorded so far (what looked like prose was the value).
    fn retract(&mut self, kind: RepairKind);
    /// Whether the innermost open container is a `(` (so `)` ends unquoted text).
    fn in_paren(&self) -> bool;
    /// Whether the first key of an object comes next (where a `(` makes the object a set).
    fn expects_first_key(&self) -> bool {
        false
    }
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

/// The resumable tokenizer. Feed it fragments with [`Lexer::feed`], then call
/// [`Lexer::finish`]. After either returns an error the lexer must not be fed again.
#[derive(Debug)]
pub(crate) struct Lexer {
    pub(super) lenient: bool,
    /// [`ParseMode::Repair`].
    pub(super) repair: bool,
    /// What only [`ParseMode::Repair`] keeps (`Some` exactly in that mode): the strict and
    /// lenient lexers carry none of it.
    pub(super) salvage: Option<Box<RepairState>>,
    non_finite: NonFinite,
    /// Absolute offset of the first byte of the fragment (or replay segment) being read.
    pub(super) base: usize,
    pub(super) state: State,
    pub(super) phase: Phase,
    /// Token text that spans fragments, or decoded string content.
    pub(super) buf: Vec<u8>,
    /// The first part of a string's content, when it came from `str` fragments and needed
    /// no byte-at-a-time state: known valid, so it is not validated again. The content is
    /// `text_buf` followed by `buf`; `text_buf` only grows while `buf` is empty. A string
    /// token that the text does not spell as it reads lends its content from here (see
    /// `Lexer::take_string`), so its capacity serves every such string.
    text_buf: String,
    /// Absolute offset where the current token (or fence, comment, word) started.
    pub(super) start: usize,
    /// Absolute offset of the `\` of the current escape.
    esc_at: usize,
    /// Absolute offset of the `\` of a pending high surrogate escape.
    high_at: usize,
    /// Absolute offset of a closing candidate quote.
    quote_at: usize,
    /// A raw control character (a line break, a tab) followed the closing candidate quote:
    /// if the quote is content, so is it, and the repair is recorded. (The white space an
    /// escape spells there is held in `buf` too, but is no raw character.)
    control_after_quote: bool,
    /// Where the first white space written as an escape after the closing candidate quote
    /// is (`['a'\n]`): recorded as escaped JSON if the quote closes.
    escape_after_quote: Option<usize>,
    /// White space written as an escape was read as white space, so the text is written so
    /// (pretty-printed JSON escaped once more): in [`ParseMode::Repair`], which otherwise
    /// lets the byte after it decide, the next such escape is white space too, whatever
    /// follows it (`[\n\ttrue]`), and so is one after a number or a closing quote.
    pub(in crate::parse) escaped_space_seen: bool,
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
    /// The bytes of the character at a token start, in [`State::Multi`].
    pub(super) multi: [u8; 4],
    /// The last string read, with its offset, kept until the next token: in
    /// [`ParseMode::Repair`] in case a `+` joins another string to it, in
    /// [`ParseMode::Lenient`] in case an adjacent literal continues it (`'a' 'b'`). Held
    /// past the fragment that lent it, so a copy of its own.
    held: Option<(String, usize)>,
    /// [`ParseMode::Lenient`]: the string being read had a Python prefix (`r''`, `b''`).
    prefix: Option<StrPrefix>,
    /// [`ParseMode::Lenient`]: the text has shown itself a Python literal (a `'` string, a
    /// prefixed one, `True`, `False` or `None` was read), so a `"` string's `\xHH` is
    /// Python's too (`Lexer::hex_byte_escape`).
    python_seen: bool,
    /// [`ParseMode::Lenient`]: the held string joins literals: the length of the first and
    /// where the second started.
    joined: Option<(usize, usize)>,
    /// Escaped JSON (`{\"a\": 1}`) is being read: one level of backslashes is removed
    /// before the bytes are tokenized. `Some(true)` while a backslash is pending.
    unescape: Option<bool>,
    /// Where backslashes were removed: the offset, as read, of each byte one stood before,
    /// in order, so that a failure and the repair records can say where they are in the
    /// text as given ([`Failure::read_unescaped`], [`as_given`]). Empty except in escaped
    /// JSON, where each entry stands for at least two bytes of the text (at most twice its
    /// size); past 4 GiB, where a tape's offsets end too, no more are noted.
    pub(in crate::parse) escapes: Vec<u32>,
    /// Absolute offset of a `/` whose meaning depends on the next byte.
    pub(super) slash_at: usize,
    /// A number beyond the floats (`1e400`) is read as a stand-in float with its literal
    /// recorded, rather than failing: only in the reading that finds where such a number
    /// stands (`Driver::track_floats_and_beyond`).
    pub(super) beyond_floats_stand_in: bool,
}

thread_local! {
    /// The `buf` of the last lexer this thread dropped, emptied (see [`spare`]).
    static SPARE_BUF: Cell<Vec<u8>> = const { Cell::new(Vec::new()) };
    /// Its `text_buf`, emptied.
    static SPARE_TEXT: Cell<String> = const { Cell::new(String::new()) };
}

impl Drop for Lexer {
    fn drop(&mut self) {
        spare::give_back(&SPARE_BUF, std::mem::take(&mut self.buf), MOST_KEPT);
        spare::give_back(&SPARE_TEXT, std::mem::take(&mut self.text_buf), MOST_KEPT);
    }
}

impl Lexer {
    /// A lexer for `mode` whose first fragment starts at absolute offset `base`, writing
    /// into the buffers the last lexer this thread dropped left.
    pub(crate) fn new(mode: ParseMode, non_finite: NonFinite, base: usize) -> Lexer {
        Lexer {
            lenient: mode != ParseMode::Strict,
            repair: mode == ParseMode::Repair,
            salvage: (mode == ParseMode::Repair).then(RepairState::boxed),
            non_finite,
            base,
            state: State::Between,
            phase: Phase::Start,
            buf: spare::take(&SPARE_BUF),
            text_buf: spare::take(&SPARE_TEXT),
            start: base,
            esc_at: base,
            high_at: base,
            quote_at: base,
            control_after_quote: false,
            escape_after_quote: None,
            escaped_space_seen: false,
            fence_open: false,
            prose_seen: false,
            value_start: None,
            glued: false,
            multi: [0; 4],
            held: None,
            prefix: None,
            python_seen: false,
            joined: None,
            unescape: None,
            escapes: Vec::new(),
            slash_at: base,
            beyond_floats_stand_in: false,
        }
    }

    /// Read a number beyond the floats as a stand-in float, its literal recorded (see
    /// `beyond_floats_stand_in`).
    pub(crate) fn stand_in_beyond_floats(&mut self) {
        self.beyond_floats_stand_in = true;
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
        self.python_seen = options.python;
        if let Some(salvage) = self.salvage.as_deref_mut() {
            salvage.stream_stable = options.stream_stable;
            salvage.python_style = options.style == super::RepairStyle::JsonRepair;
        }
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

    /// Whether a string is being read (strict and lenient modes): the cheap test before
    /// [`Lexer::open_string`], which the streaming parser makes after every fragment.
    #[inline]
    pub(crate) fn in_string(&self) -> bool {
        matches!(self.state, State::Str { .. })
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
        if !self.in_string() {
            return None;
        }
        let State::Str { esc, .. } = self.state else { return None };
        if self.held.is_some() || self.prefix.is_some_and(|prefix| prefix.bytes) {
            // A literal that continues a held one (shown when they are joined), or a bytes
            // literal (whose text is checked whole when it ends).
            return None;
        }
        let end = match esc {
            Esc::Closing { mark }
            | Esc::ClosingEscape { mark }
            | Esc::ClosingSlash { mark }
            | Esc::ClosingPrefix { mark, .. }
            | Esc::ClosingSpace { mark, .. } => mark,
            _ => self.buf.len(),
        };
        Some((&mut self.text_buf, self.buf.get(..end).unwrap_or_default()))
    }

    /// For the streaming parser: if a string is being read with nothing held (no look-ahead,
    /// no content in `text_buf` or `buf`, nothing to replay, no escaped JSON), read the
    /// content at the start of `chunk` as [`Lexer::string`] and [`Lexer::escape`] would,
    /// decoding its escapes, except that the text goes to `out` (where the caller shows the
    /// string) instead of `text_buf`. Returns how many bytes of `chunk` that is:
    ///
    /// - all of `chunk` when nothing in it interrupts the content; an escape the end of
    ///   `chunk` cuts off is then taken in as the states would ([`escape_cut_off`]);
    /// - the bytes before the closing `"` of a `"` string (the content before it is final);
    /// - else 0, with `out` and the state as they were: anything else (a control character,
    ///   another quote, an escape that is no JSON escape or a lone surrogate) may make the
    ///   states add content of their own in this fragment, and what a fragment adds must be
    ///   reported as one piece.
    ///
    /// An escape cut off by the last fragment is completed first. The state after it is the
    /// one the states leave after that content (still in the string, `base` past it), so the
    /// rest of `chunk` is then fed as usual.
    ///
    /// Most fragments of a long string value are content and complete escapes: this skips
    /// the state machine and one copy of the text for them, and for the text before the
    /// quote that ends one.
    ///
    /// `fed` is the text read so far, which ends with `chunk`: a short fragment is searched
    /// in the bytes that end it ([`bytes::first_special_of_tail`]).
    #[inline]
    pub(crate) fn string_run(&mut self, chunk: &str, fed: &str, out: &mut String) -> usize {
        let State::Str { quote, esc } = self.state else { return 0 };
        if !self.buf.is_empty()
            || !self.text_buf.is_empty()
            || self.has_replay()
            || self.unescape.is_some()
            || self.held.is_some()
            || self.prefix.is_some()
        {
            return 0;
        }
        if esc != Esc::None {
            return self.escape_run(chunk, quote, esc, out);
        }
        let bytes = chunk.as_bytes();
        debug_assert!(fed.ends_with(chunk));
        let first = first_special_of_tail(fed.as_bytes(), bytes.len(), quote.stop_byte());
        match bytes.get(first) {
            // The commonest fragments: content, or the end of a `"` string.
            None => {}
            Some(b'"') if quote == Quote::Double => {}
            Some(b'\\') => return self.decode_run(chunk, quote, 0, first, out).unwrap_or(0),
            Some(_) => return 0,
        }
        out.push_str(chunk.get(..first).unwrap_or_default());
        self.base += first;
        first
    }

    /// [`Lexer::string_run`] in the escape `esc` (the last fragment cut it off): complete it
    /// from the start of `chunk`, then read on.
    #[inline(never)]
    fn escape_run(&mut self, chunk: &str, quote: Quote, esc: Esc, out: &mut String) -> usize {
        let Some((mut text, held)) = spell_escape(esc) else { return 0 };
        let bytes = chunk.as_bytes();
        let more = bytes.len().min(text.len() - held);
        if let (Some(slot), Some(from)) = (text.get_mut(held..held + more), bytes.get(..more)) {
            slot.copy_from_slice(from);
        }
        let Some((c, len)) = json_escape(text.get(..held + more).unwrap_or_default(), 0) else { return 0 };
        let before = out.len();
        out.push(c);
        let from = len.saturating_sub(held);
        let first = find_special(bytes, from, quote.stop_byte());
        match self.decode_run(chunk, quote, from, first, out) {
            Some(read) => read,
            None => {
                out.truncate(before);
                0
            }
        }
    }

    /// [`Lexer::string_run`] from `chunk[from]`, whose first byte that interrupts content is
    /// at `first`: the content and complete escapes go to `out`. Returns how many bytes of
    /// `chunk` were read (the state and `base` then moved past them), or `None` with `out`
    /// and the state as they were.
    #[inline(never)]
    fn decode_run(
        &mut self,
        chunk: &str,
        quote: Quote,
        from: usize,
        first: usize,
        out: &mut String,
    ) -> Option<usize> {
        let bytes = chunk.as_bytes();
        let stop = quote.stop_byte();
        let before = out.len();
        let (mut i, mut j) = (from, first);
        let mut esc = Esc::None;
        let read = loop {
            out.push_str(chunk.get(i..j).unwrap_or_default());
            match bytes.get(j) {
                None => break Some(j),
                Some(b'"') if quote == Quote::Double => break Some(j),
                Some(b'\\') => {
                    if let Some((c, len)) = json_escape(bytes, j) {
                        out.push(c);
                        i = j + len;
                        j = find_special(bytes, i, stop);
                        continue;
                    }
                    let Some((cut, at)) = escape_cut_off(bytes.get(j..).unwrap_or_default()) else {
                        break None;
                    };
                    // Where the states would have recorded the escape's backslashes.
                    if matches!(
                        cut,
                        Esc::WantBackslash { .. } | Esc::WantU { .. } | Esc::Hex { high: Some(_), .. }
                    ) {
                        self.high_at = self.base + j;
                    }
                    self.esc_at = self.base + j + at;
                    esc = cut;
                    break Some(bytes.len());
                }
                Some(_) => break None,
            }
        };
        let Some(read) = read else {
            out.truncate(before);
            return None;
        };
        self.state = State::Str { quote, esc };
        self.base += read;
        Some(read)
    }

    /// Tokenize the next fragment, sending every completed token to `sink`.
    pub(crate) fn feed<S: Sink>(&mut self, chunk: &[u8], sink: &mut S) -> Result<(), Failure> {
        self.feed_text(chunk, None, sink)
    }

    /// [`Lexer::feed`] for a fragment known to be valid UTF-8 on its own (it does not end
    /// inside a character): a string without escapes is then copied out of it without
    /// validating it again.
    #[inline]
    pub(crate) fn feed_str<S: Sink>(&mut self, chunk: &str, sink: &mut S) -> Result<(), Failure> {
        self.feed_text(chunk.as_bytes(), Some(chunk), sink)
    }

    /// `text`, when given, is `chunk` as a `str`.
    #[inline]
    fn feed_text<S: Sink>(&mut self, chunk: &[u8], text: Option<&str>, sink: &mut S) -> Result<(), Failure> {
        if self.unescape.is_some() {
            let filtered = self.unescape_bytes(chunk, self.base);
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
            if self.has_replay() {
                self.drain(sink)?;
            }
            if !filtered && self.unescape.is_some() {
                // Escaped JSON from here on: read the rest of the fragment unescaped.
                let rest = self.unescape_bytes(chunk.get(i..).unwrap_or_default(), self.base + i);
                self.base += i;
                return self.run(&rest, None, sink);
            }
        }
        self.base += chunk.len();
        Ok(())
    }

    /// Read the replay segments, innermost first, until none is left.
    fn drain<S: Sink>(&mut self, sink: &mut S) -> Result<(), Failure> {
        loop {
            let Some(replay) = self.salvage.as_deref_mut().map(|salvage| &mut salvage.replay) else {
                return Ok(());
            };
            let Some(top) = replay.last_mut() else { return Ok(()) };
            if top.pos >= top.bytes.len() {
                replay.pop();
                continue;
            }
            let bytes = std::mem::take(&mut top.bytes);
            let (pos, origin) = (top.pos, top.origin);
            let index = replay.len() - 1;
            let saved = std::mem::replace(&mut self.base, origin);
            let result = self.step(&bytes, None, pos, sink);
            self.base = saved;
            if let Some(segment) =
                self.salvage.as_deref_mut().and_then(|salvage| salvage.replay.get_mut(index))
            {
                segment.bytes = bytes;
                segment.pos = result?;
            }
        }
    }

    /// Whether bytes wait to be read again ([`ParseMode::Repair`]).
    #[inline]
    pub(super) fn has_replay(&self) -> bool {
        self.salvage.as_ref().is_some_and(|salvage| !salvage.replay.is_empty())
    }

    /// The state [`ParseMode::Repair`] keeps. Only that mode's paths ask for it, and there
    /// it is always present (were it not, it would be made here rather than fail).
    #[inline]
    pub(in crate::parse) fn salvage(&mut self) -> &mut RepairState {
        self.salvage.get_or_insert_with(RepairState::boxed)
    }

    /// [`ParseMode::Repair`]: whether a `+` followed the held string.
    #[inline]
    pub(super) fn concat(&self) -> bool {
        self.salvage.as_ref().is_some_and(|salvage| salvage.concat)
    }

    /// [`ParseMode::Repair`]: whether the value was in a code fence that closed.
    #[inline]
    pub(super) fn fenced(&self) -> bool {
        self.salvage.as_ref().is_some_and(|salvage| salvage.fenced)
    }

    /// [`ParseMode::Repair`]: whether the prose before the value was read again as bare
    /// text (so there is no more prose).
    #[inline]
    pub(super) fn bare(&self) -> bool {
        self.salvage.as_ref().is_some_and(|salvage| salvage.bare)
    }

    /// One step of the machine from `chunk[i]`: returns where to go on. Always inlined into
    /// the loops that drive it ([`Lexer::run`], and `drain` in repair mode): the streaming
    /// parser enters the loop once per fragment that holds a token, and the call, with its
    /// saved registers, cost about fifty instructions each time.
    #[inline(always)]
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
            State::Word { key } => self.word(chunk, text, i, key, sink)?,
            State::Unquoted(unq) => self.unquoted(chunk, i, unq, sink)?,
            State::Regex { esc } => self.regex(chunk, i, esc, sink)?,
            State::Multi { seen, need } => self.multi_byte(chunk, i, seen, need, sink)?,
            State::Dots { seen } => self.dots(chunk, i, seen, sink)?,
            State::Backslash => self.backslash(chunk, i, sink)?,
            State::SpaceEscape { letter } => self.space_escape(chunk, i, letter, sink)?,
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
            if self.has_replay() {
                self.drain(sink)?;
                continue;
            }
            self.flush_held(sink)?;
            if self.phase == Phase::Start && self.repair && !self.bare() {
                // No value anywhere: the prose was the value, as bare text (`hello world`,
                // `a\nb`).
                let salvage = self.salvage();
                if let Some((bytes, origin)) = salvage.prose_raw.take() {
                    salvage.bare = true;
                    salvage.replay.push(Segment { bytes, pos: 0, origin });
                    self.prose_seen = false;
                    self.state = State::Between;
                    sink.retract(RepairKind::ProseBefore);
                    self.drain(sink)?;
                    continue;
                }
            }
            break;
        }
        let end = self.base;
        if let Some(at) = self.salvage.as_deref_mut().and_then(|salvage| salvage.scalar_prose.take()) {
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
                self.close_at_candidate(mark, sink)?;
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
                let content = self.take_string()?;
                sink.repair(RepairKind::CompletedTruncated, end);
                let ended = self.end_string(Str::Buffer(&content), sink, false);
                self.reuse_string(content);
                ended?;
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
                self.emit(sink, Token::Str(Str::Owned(key)), self.start)?;
            }
            State::Word { key: false } if self.prefix_quote_held(false).is_some() => {
                self.end_held_prefix(sink)?;
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
                } else if self.phase == Phase::Start && !self.bare() {
                    self.start_prose_with(&text, sink);
                } else if self.repair {
                    self.salvage().raw = text;
                    self.end_unquoted(Unq::value(), sink)?;
                } else {
                    return Err(Failure::unexpected_word(&text, self.start));
                }
            }
            State::Unquoted(unq) => self.end_unquoted_input(unq, sink)?,
            State::Regex { .. } => {
                let text = std::mem::take(&mut self.salvage().raw);
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
            State::Dots { .. } if self.phase == Phase::After => {
                sink.repair(RepairKind::ProseAfter, self.start);
            }
            State::Dots { seen } => {
                self.state = State::Between;
                self.end_dots(seen, sink)?;
            }
            State::SpaceEscape { letter } => {
                // The text ends after it: white space before a value cut off.
                self.escaped_white_space(letter, sink);
                self.state = State::Between;
            }
            State::Backslash if self.phase == Phase::Start => {
                self.enter_prose(self.start, sink);
            }
            State::Backslash if self.phase == Phase::After => {
                sink.repair(RepairKind::ProseAfter, self.start);
            }
            State::Backslash => {
                // The text ends at a token's first byte, a backslash: the escape it began
                // (`\"` of escaped JSON, escaped white space) was cut off.
                if !complete {
                    return Err(Fail::Truncated { inside: "an escape" }.into());
                }
                sink.repair(RepairKind::CompletedTruncated, self.start);
            }
            State::Slash if self.phase == Phase::After => {
                sink.repair(RepairKind::ProseAfter, self.start);
            }
            State::Slash if self.repair && self.phase == Phase::Value => {
                self.salvage().raw.clear();
                self.state = State::Between;
                self.emit_regex(vec![b'/'], sink)?;
            }
            State::Ticks { seen } if self.repair && self.phase == Phase::Value && !self.fence_open => {
                // One or two backticks at the end: an unclosed backtick string.
                self.state = State::Between;
                if seen == 1 {
                    self.begin_raw(RQuote::SingleLike, sink);
                    return self.end_state(sink, complete);
                }
                self.deliver_string(Str::Buffer(""), self.start, true, sink)?;
            }
            State::Ticks { seen } if self.phase == Phase::Start => {
                // Backticks at the end of prose: part of it, should it be read as text.
                self.keep_prose(b"``".get(..usize::from(seen)).unwrap_or_default());
            }
            _ => {}
        }
        self.state = State::Between;
        Ok(())
    }

    /// Send a token, and notice when it completed the top-level value.
    #[inline(always)]
    pub(super) fn emit<S: Sink>(
        &mut self,
        sink: &mut S,
        token: Token<'_>,
        offset: usize,
    ) -> Result<(), Failure> {
        if let Some(salvage) = self.salvage.as_deref_mut() {
            if let Some(at) = salvage.discard_from.take() {
                sink.discard();
                sink.repair(RepairKind::ProseBefore, at);
            }
            salvage.tokens = salvage.tokens.saturating_add(1);
        }
        sink.token(token, offset)?;
        if sink.is_complete() {
            self.phase = Phase::After;
        }
        Ok(())
    }

    /// Whether the next byte, a `{` or `[`, begins the value (lenient and strict modes):
    /// nothing began a value yet, and the lexer is between tokens or in prose, not in a
    /// comment, a fence's tag, a word, escaped JSON or anything else a bracket would
    /// continue.
    pub(crate) fn awaits_value(&self) -> bool {
        self.phase == Phase::Start
            && matches!(self.state, State::Between | State::Prose)
            && self.value_start.is_none()
            && self.salvage.is_none()
            && self.unescape.is_none()
            && self.held.is_none()
    }

    /// The value, an object or array (`first`: its opening bracket), was read from `at` to
    /// `end` by another reader (see `parse::framed`): go on after it, as after a value this
    /// lexer read, with the next fragment starting at `end`.
    pub(crate) fn value_read_elsewhere(&mut self, at: usize, first: u8, end: usize) {
        self.begin_value(at, first);
        self.phase = Phase::After;
        self.state = State::Between;
        self.glued = false;
        self.base = end;
        self.start = end;
    }

    /// The value starts here (leaving the start phase).
    pub(super) fn begin_value(&mut self, offset: usize, first: u8) {
        self.phase = Phase::Value;
        if let Some(salvage) = self.salvage.as_deref_mut() {
            if salvage.scalar_prose.take().is_some() {
                // A scalar followed by prose, then this: the scalar was prose too.
                salvage.discard_from = self.value_start.map(|(at, _)| at);
                self.value_start = None;
            }
            salvage.prose_raw = None;
        }
        if self.value_start.is_none() {
            self.value_start = Some((offset, first));
        }
    }
}
