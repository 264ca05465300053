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
//! bytes are read, not how the tree is built. It asks the sink two questions: whether the
//! next token is an object key (so a bare word is an unquoted key, not a literal) and
//! whether the top-level value is complete (so what follows is trailing text).

use serde_json::Number;

use super::RepairKind;

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
    fn unexpected(at: usize, suffix: &'static str) -> Failure {
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
    Colon,
    Comma,
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
            Token::Colon => "`:`",
            Token::Comma => "`,`",
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
    /// Take one token that starts at absolute byte `offset`.
    fn token(&mut self, token: Token, offset: usize) -> Result<(), Failure>;
    /// Whether the next token is an object key (a bare word there is an unquoted key).
    fn expects_key(&self) -> bool;
    /// Whether the top-level value is complete (what follows is trailing text).
    fn is_complete(&self) -> bool;
    /// Record a repair.
    fn repair(&mut self, kind: RepairKind, offset: usize);
}

/// Where the lexer is relative to the top-level value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// No token yet: BOM, whitespace, comments, a code fence or prose may come first.
    Start,
    /// Inside the value.
    Value,
    /// The value is complete: only whitespace (strict) or trailing text (lenient) follows.
    After,
    /// A closing code fence inside the value ended the input early (lenient).
    Ended,
}

/// The quote a string was opened with, which decides what closes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Quote {
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
enum Esc {
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
}

/// Where a number is, following the RFC 8259 grammar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Num {
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
}

impl Num {
    /// The state after `b`, or `None` if `b` is not part of the number.
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
            _ => None,
        }
    }

    /// Whether the text so far is a complete number.
    fn complete(self) -> bool {
        matches!(self, Num::Zero | Num::Int | Num::Frac | Num::ExpDigits)
    }
}

/// The lexer's position inside a token or in the text around the value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Between tokens (what that allows depends on the [`Phase`]).
    Between,
    /// Inside a string.
    Str { quote: Quote, esc: Esc },
    /// Inside a number.
    Num(Num),
    /// Inside a bare word: an unquoted key (`key`) or a literal such as `true`.
    Word { key: bool },
    /// At a token start, `E2` (`seen` = 1) or `E2 second` (2) of a possible smart quote.
    Smart { seen: u8, second: u8 },
    /// After `/` outside a string: a comment may start.
    Slash,
    /// Inside `//` or `#` up to the end of the line.
    LineComment,
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
}

const LITERALS: [(&[u8], Token); 3] =
    [(b"true", Token::Bool(true)), (b"false", Token::Bool(false)), (b"null", Token::Null)];
const PYTHON_LITERALS: [(&[u8], Token); 3] =
    [(b"True", Token::Bool(true)), (b"False", Token::Bool(false)), (b"None", Token::Null)];

/// The resumable tokenizer. Feed it fragments with [`Lexer::feed`], then call
/// [`Lexer::finish`]. After either returns an error the lexer must not be fed again.
#[derive(Debug)]
pub(crate) struct Lexer {
    lenient: bool,
    /// Absolute offset of the first byte of the fragment being fed.
    base: usize,
    state: State,
    phase: Phase,
    /// Token text that spans fragments, or decoded string content.
    buf: Vec<u8>,
    /// The first part of a string's content, when it came from `str` fragments and needed
    /// no byte-at-a-time state: known valid, so it is not validated again. The content is
    /// `text_buf` followed by `buf`; `text_buf` only grows while `buf` is empty.
    text_buf: String,
    /// Absolute offset where the current token (or fence, comment, word) started.
    start: usize,
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
}

impl Lexer {
    /// A lexer whose first fragment starts at absolute offset `base`.
    pub(crate) fn new(lenient: bool, base: usize) -> Lexer {
        Lexer {
            lenient,
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
        }
    }

    /// A lenient lexer that starts inside prose that was already recorded (used to retry
    /// the next `{` or `[` after a candidate failed); `fence_open` if a code fence was
    /// opened before it.
    pub(crate) fn in_prose(base: usize, fence_open: bool) -> Lexer {
        let mut lexer = Lexer::new(true, base);
        lexer.state = State::Prose;
        lexer.prose_seen = true;
        lexer.fence_open = fence_open;
        lexer
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
        let mut i = 0;
        while i < chunk.len() {
            i = match self.state {
                State::Between => match self.phase {
                    Phase::Value => self.between(chunk, i, sink)?,
                    Phase::Start => self.before_value(chunk, i, sink)?,
                    Phase::After => self.after_value(chunk, i, sink)?,
                    Phase::Ended => chunk.len(),
                },
                State::Str { quote, esc: Esc::None } => self.string(chunk, text, i, quote, sink)?,
                State::Str { quote, esc } => self.escape(chunk, i, quote, esc, sink)?,
                State::Num(num) => self.number(chunk, i, num, sink)?,
                State::Word { key } => self.word(chunk, i, key, sink)?,
                State::Smart { seen, second } => self.smart(chunk, i, seen, second, sink)?,
                State::Slash => self.slash(chunk, i, sink)?,
                State::LineComment => match find(chunk, i, |b| b == b'\n') {
                    Some(j) => {
                        self.state = State::Between;
                        j + 1
                    }
                    None => chunk.len(),
                },
                State::BlockComment { star } => self.block_comment(chunk, i, star),
                State::Bom { seen } => self.bom(chunk, i, seen, sink),
                State::Ticks { seen } => self.ticks(chunk, i, seen, sink)?,
                State::FenceInfo => self.fence_info(chunk, i),
                State::Prose => self.prose(chunk, i),
                State::Ignore => chunk.len(),
            };
        }
        self.base += chunk.len();
        Ok(())
    }

    /// End the input: emit or complete what is pending, or report it as cut off. With
    /// `complete`, a cut-off string, number, literal or key is closed and the repair
    /// recorded; the builder then closes the open containers.
    pub(crate) fn finish<S: Sink>(&mut self, sink: &mut S, complete: bool) -> Result<(), Failure> {
        let end = self.base;
        match self.state {
            State::Str { quote: _, esc: Esc::Closing { mark } } => {
                // The end of the input is one of the things that close a `'` string.
                self.buf.truncate(mark);
                self.state = State::Between;
                let text = self.take_string()?;
                self.emit(sink, Token::Str(text), self.start)?;
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
                self.emit(sink, Token::Str(text), self.start)?;
            }
            State::Num(num) => {
                let mut text = std::mem::take(&mut self.buf);
                if !num.complete() {
                    if !complete {
                        return Err(Fail::Truncated { inside: "a number" }.into());
                    }
                    sink.repair(RepairKind::CompletedTruncated, end);
                    // Drop the dangling `-`, `.`, `e` or `e+`; a lone `-` leaves nothing.
                    while text.last().is_some_and(|b| !b.is_ascii_digit()) {
                        text.pop();
                    }
                }
                self.state = State::Between;
                if !text.is_empty() {
                    let number = to_number(&text, self.start)?;
                    self.emit(sink, Token::Number(number), self.start)?;
                }
            }
            State::Word { key: true } => {
                if !complete {
                    return Err(Fail::Truncated { inside: "an object" }.into());
                }
                // A key with no value: the builder would drop it anyway, so it is not sent.
                self.buf.clear();
                self.state = State::Between;
                sink.repair(RepairKind::CompletedTruncated, end);
            }
            State::Word { key: false } => {
                let text = std::mem::take(&mut self.buf);
                self.state = State::Between;
                if let Some((token, python)) = self.literal(&text) {
                    self.word_literal(token, python, sink)?;
                } else if let Some((token, python)) = self.literal_prefix(&text) {
                    if !complete {
                        return Err(Fail::Truncated { inside: "a literal" }.into());
                    }
                    sink.repair(RepairKind::CompletedTruncated, end);
                    self.word_literal(token, python, sink)?;
                } else if self.phase == Phase::Start {
                    self.enter_prose(self.start, sink);
                } else {
                    return Err(unexpected_word(&text, self.start));
                }
            }
            State::Slash if self.phase == Phase::After => {
                sink.repair(RepairKind::ProseAfter, self.start);
            }
            _ => {}
        }
        self.state = State::Between;
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

    /// Send a token, and notice when it completed the top-level value.
    #[inline(always)]
    fn emit<S: Sink>(&mut self, sink: &mut S, token: Token, offset: usize) -> Result<(), Failure> {
        sink.token(token, offset)?;
        if sink.is_complete() {
            self.phase = Phase::After;
        }
        Ok(())
    }

    /// The value starts here (leaving the start phase).
    fn begin_value(&mut self, offset: usize, first: u8) {
        self.phase = Phase::Value;
        self.value_start = Some((offset, first));
    }

    /// What was read from `offset` on is prose before the value.
    fn enter_prose<S: Sink>(&mut self, offset: usize, sink: &mut S) {
        if !self.prose_seen {
            self.prose_seen = true;
            sink.repair(RepairKind::ProseBefore, offset);
        }
        self.state = State::Prose;
    }

    /// Between tokens inside the value: the hot loop for whitespace and punctuation.
    fn between<S: Sink>(&mut self, chunk: &[u8], mut i: usize, sink: &mut S) -> Result<usize, Failure> {
        while let Some(&b) = chunk.get(i) {
            let at = self.base + i;
            let token = match b {
                b' ' | b'\n' | b'\r' | b'\t' => {
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
                    self.start = at;
                    self.state = State::Str { quote: Quote::Double, esc: Esc::None };
                    return Ok(i + 1);
                }
                _ => return self.between_other(chunk, i, sink),
            };
            self.emit(sink, token, at)?;
            i += 1;
            if self.phase != Phase::Value {
                return Ok(i);
            }
        }
        Ok(i)
    }

    /// A token start other than punctuation and `"`.
    fn between_other<S: Sink>(&mut self, chunk: &[u8], i: usize, sink: &mut S) -> Result<usize, Failure> {
        let at = self.base + i;
        let Some(&b) = chunk.get(i) else { return Ok(i) };
        self.start = at;
        let key = self.lenient && sink.expects_key();
        match b {
            b'-' | b'0'..=b'9' if !key => {
                self.state = State::Num(Num::Start);
                Ok(i)
            }
            b'a'..=b'z' | b'A'..=b'Z' if !key => {
                self.state = State::Word { key: false };
                Ok(i)
            }
            _ if key && is_key_start(b) => {
                self.state = State::Word { key: true };
                Ok(i)
            }
            b'\'' if self.lenient => {
                sink.repair(RepairKind::SingleQuotes, at);
                self.state = State::Str { quote: Quote::Single, esc: Esc::None };
                Ok(i + 1)
            }
            0xE2 if self.lenient => {
                self.state = State::Smart { seen: 1, second: 0 };
                Ok(i + 1)
            }
            b'/' if self.lenient => {
                self.state = State::Slash;
                Ok(i + 1)
            }
            b'#' if self.lenient => {
                sink.repair(RepairKind::Comment, at);
                self.state = State::LineComment;
                Ok(i + 1)
            }
            b'`' if self.lenient && self.fence_open => {
                self.state = State::Ticks { seen: 1 };
                Ok(i + 1)
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
                b'{' | b'[' | b'"' | b'\'' | b'-' | b'0'..=b'9' => {
                    self.begin_value(at, b);
                    return Ok(i);
                }
                // A word may be a literal or the start of prose; `word` decides.
                b'a'..=b'z' | b'A'..=b'Z' => {
                    self.state = State::Word { key: false };
                    return Ok(i);
                }
                0xE2 => {
                    self.state = State::Smart { seen: 1, second: 0 };
                    return Ok(i + 1);
                }
                b'`' => {
                    self.state = State::Ticks { seen: 1 };
                    return Ok(i + 1);
                }
                b'/' => {
                    self.state = State::Slash;
                    return Ok(i + 1);
                }
                b'#' => {
                    sink.repair(RepairKind::Comment, at);
                    self.state = State::LineComment;
                    return Ok(i + 1);
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
    /// code fence, and prose (which ends the parse).
    fn after_value<S: Sink>(&mut self, chunk: &[u8], mut i: usize, sink: &mut S) -> Result<usize, Failure> {
        while let Some(&b) = chunk.get(i) {
            let at = self.base + i;
            if matches!(b, b' ' | b'\n' | b'\r' | b'\t') {
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
                b'/' => {
                    self.state = State::Slash;
                    return Ok(i + 1);
                }
                b'#' => {
                    sink.repair(RepairKind::Comment, at);
                    self.state = State::LineComment;
                    return Ok(i + 1);
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

    /// Skip prose up to the first `{`, `[` or backtick.
    fn prose(&mut self, chunk: &[u8], i: usize) -> usize {
        let Some(j) = find(chunk, i, |b| matches!(b, b'{' | b'[' | b'`')) else {
            return chunk.len();
        };
        let at = self.base + j;
        self.start = at;
        if chunk.get(j) == Some(&b'`') {
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
                    self.emit(sink, Token::Str(string), self.start)?;
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
            Esc::Closing { mark } => match b {
                b' ' | b'\t' | b'\n' | b'\r' => {
                    self.buf.push(b);
                    next = Esc::Closing { mark };
                }
                b',' | b'}' | b']' | b':' => {
                    self.buf.truncate(mark);
                    self.state = State::Between;
                    let text = self.take_string()?;
                    self.emit(sink, Token::Str(text), self.start)?;
                    return Ok(i);
                }
                _ => {
                    // The quote was content (an apostrophe); so was the whitespace after it.
                    if self.buf.get(mark..).unwrap_or_default().iter().any(|&c| c < 0x20) {
                        sink.repair(RepairKind::ControlCharacter, self.quote_at);
                    }
                    consumed = false;
                }
            },
        }
        self.state = State::Str { quote, esc: next };
        Ok(if consumed { i + 1 } else { i })
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
        let mut j = i;
        let end = loop {
            let Some(&b) = chunk.get(j) else {
                self.buf.extend_from_slice(chunk.get(i..).unwrap_or_default());
                self.state = State::Num(num);
                return Ok(chunk.len());
            };
            match num.step(b) {
                Some(next) => {
                    num = next;
                    j += 1;
                }
                None => break b,
            }
        };
        let at = self.base + j;
        if num == Num::Zero && end.is_ascii_digit() {
            return Err(Failure::syntax("a number cannot start with `0` followed by digits", at));
        }
        if !num.complete() {
            return Err(
                Fail::Char { offset: at, at, prefix: "invalid number: unexpected ", suffix: "" }.into()
            );
        }
        let run = chunk.get(i..j).unwrap_or_default();
        let number = if self.buf.is_empty() {
            to_number(run, self.start)?
        } else {
            self.buf.extend_from_slice(run);
            let number = to_number(&self.buf, self.start);
            self.buf.clear();
            number?
        };
        self.state = State::Between;
        self.emit(sink, Token::Number(number), self.start)?;
        self.glued = self.phase == Phase::After;
        Ok(j)
    }

    /// A bare word: an unquoted key, a literal, or (before the value) the start of prose.
    fn word<S: Sink>(&mut self, chunk: &[u8], i: usize, key: bool, sink: &mut S) -> Result<usize, Failure> {
        let j = if key { find(chunk, i, |b| !is_key_byte(b)) } else { find(chunk, i, |b| !is_word_byte(b)) };
        let run = chunk.get(i..j.unwrap_or(chunk.len())).unwrap_or_default();
        let Some(j) = j else {
            self.buf.extend_from_slice(run);
            return Ok(chunk.len());
        };
        let mut text = std::mem::take(&mut self.buf);
        text.extend_from_slice(run);
        self.state = State::Between;
        let result = self.end_word(&text, key, sink);
        text.clear();
        self.buf = text;
        result?;
        Ok(j)
    }

    /// A word ended (not at the end of the input).
    fn end_word<S: Sink>(&mut self, text: &[u8], key: bool, sink: &mut S) -> Result<(), Failure> {
        if key {
            let key = std::str::from_utf8(text)
                .map_err(|_| Failure::from(Fail::InvalidUtf8 { offset: self.start }))?;
            sink.repair(RepairKind::UnquotedKey, self.start);
            return self.emit(sink, Token::Str(key.to_owned()), self.start);
        }
        if let Some((token, python)) = self.literal(text) {
            return self.word_literal(token, python, sink);
        }
        if self.phase == Phase::Start {
            self.enter_prose(self.start, sink);
            return Ok(());
        }
        Err(unexpected_word(text, self.start))
    }

    /// Emit a literal read from a word.
    fn word_literal<S: Sink>(&mut self, token: Token, python: bool, sink: &mut S) -> Result<(), Failure> {
        if self.phase == Phase::Start {
            let first = if python { b'T' } else { b't' };
            self.begin_value(self.start, first);
        }
        if python {
            sink.repair(RepairKind::PythonLiteral, self.start);
        }
        self.emit(sink, token, self.start)?;
        self.glued = self.phase == Phase::After;
        Ok(())
    }

    /// The literal `text` spells, and whether it is Python's spelling.
    fn literal(&self, text: &[u8]) -> Option<(Token, bool)> {
        if let Some((_, token)) = LITERALS.iter().find(|(word, _)| *word == text) {
            return Some((token.clone(), false));
        }
        if self.lenient {
            if let Some((_, token)) = PYTHON_LITERALS.iter().find(|(word, _)| *word == text) {
                return Some((token.clone(), true));
            }
        }
        None
    }

    /// The literal `text` is a proper prefix of (a cut-off literal).
    fn literal_prefix(&self, text: &[u8]) -> Option<(Token, bool)> {
        if let Some((_, token)) = LITERALS.iter().find(|(word, _)| word.starts_with(text)) {
            return Some((token.clone(), false));
        }
        if self.lenient {
            if let Some((_, token)) = PYTHON_LITERALS.iter().find(|(word, _)| word.starts_with(text)) {
                return Some((token.clone(), true));
            }
        }
        None
    }

    /// A possible smart quote at a token start (lenient).
    fn smart<S: Sink>(
        &mut self,
        chunk: &[u8],
        i: usize,
        seen: u8,
        second: u8,
        sink: &mut S,
    ) -> Result<usize, Failure> {
        let Some(&b) = chunk.get(i) else { return Ok(i) };
        if seen == 1 {
            if b != 0x80 && self.phase == Phase::Start {
                self.enter_prose(self.start, sink);
                return Ok(i);
            }
            // Inside the value, read the whole character either way, so that an error names it.
            self.state = State::Smart { seen: 2, second: b };
            return Ok(i + 1);
        }
        let quote = match b {
            0x9C | 0x9D if second == 0x80 => Some(Quote::SmartDouble),
            0x98 | 0x99 if second == 0x80 => Some(Quote::SmartSingle),
            _ => None,
        };
        if let Some(quote) = quote {
            if self.phase == Phase::Start {
                self.begin_value(self.start, 0xE2);
            }
            sink.repair(RepairKind::SmartQuotes, self.start);
            self.state = State::Str { quote, esc: Esc::None };
            return Ok(i + 1);
        }
        if self.phase == Phase::Start {
            self.enter_prose(self.start, sink);
            return Ok(i);
        }
        // Some other character in U+2000..U+2FFF (a dash, an arrow) where a token belongs.
        Err(Failure::unexpected(self.start, ""))
    }

    /// After `/`: a comment, or (lenient, around the value) prose.
    fn slash<S: Sink>(&mut self, chunk: &[u8], i: usize, sink: &mut S) -> Result<usize, Failure> {
        let Some(&b) = chunk.get(i) else { return Ok(i) };
        match b {
            b'/' => {
                sink.repair(RepairKind::Comment, self.start);
                self.state = State::LineComment;
                Ok(i + 1)
            }
            b'*' => {
                sink.repair(RepairKind::Comment, self.start);
                self.state = State::BlockComment { star: false };
                Ok(i + 1)
            }
            _ => match self.phase {
                Phase::Start => {
                    self.enter_prose(self.start, sink);
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
        i
    }

    /// Backticks: a code fence when there are three (lenient).
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
                    self.state = State::FenceInfo;
                }
                Phase::After if self.fence_open => {
                    self.fence_open = false;
                    self.state = State::Between;
                }
                Phase::After => {
                    sink.repair(RepairKind::ProseAfter, self.start);
                    self.state = State::Ignore;
                }
                // The closing fence came before the value was complete: the value was cut
                // off, and `finish` reports (or completes) it.
                Phase::Value | Phase::Ended => {
                    self.phase = Phase::Ended;
                    self.state = State::Ignore;
                }
            }
            return Ok(i + 1);
        }
        match self.phase {
            Phase::Start => {
                self.enter_prose(self.start, sink);
                Ok(i)
            }
            Phase::After => {
                sink.repair(RepairKind::ProseAfter, self.start);
                self.state = State::Ignore;
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
fn find(chunk: &[u8], i: usize, pred: impl Fn(u8) -> bool) -> Option<usize> {
    chunk.get(i..)?.iter().position(|&b| pred(b)).map(|k| i + k)
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// Whether any byte of `word` is zero.
#[inline]
fn has_zero_byte(word: u64) -> bool {
    word.wrapping_sub(ONES) & !word & HIGHS != 0
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
fn hex4(digits: &[u8]) -> Option<u16> {
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

/// Convert number text that follows the grammar: an integer that fits `u64` or `i64`
/// stays an integer, anything else is the correctly rounded `f64`, as `serde_json` does
/// (including `-0` as the float `-0.0`).
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
    text.parse::<f64>()
        .ok()
        .and_then(Number::from_f64)
        .ok_or_else(|| Failure::syntax("number out of range", offset))
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
