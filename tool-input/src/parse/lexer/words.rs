//! Bare words: the JSON literals, their Python and JavaScript spellings (`True`, `None`,
//! `undefined`, `NaN`), unquoted keys, function calls (refused: `abs(-5)` is not a value), and
//! a word before the value that starts prose.

use super::bytes::{find, is_key_byte, is_word_byte};
use super::state::{Esc, Phase, Quote, RQuote, State, StrPrefix, Unq};
use super::{Fail, Failure, Lexer, Sink, Str, Token};
use crate::parse::{NonFinite, RepairKind};

const LITERALS: [(&[u8], Token<'static>); 3] =
    [(b"true", Token::Bool(true)), (b"false", Token::Bool(false)), (b"null", Token::Null)];

const PYTHON_LITERALS: [(&[u8], Token<'static>); 3] =
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

impl Lexer {
    /// A bare word: an unquoted key, a literal, a string prefix, or (before the value) the
    /// start of prose; a function call is refused. `text`: `chunk` as text, when it is.
    pub(super) fn word<S: Sink>(
        &mut self,
        chunk: &[u8],
        text: Option<&str>,
        i: usize,
        key: bool,
        sink: &mut S,
    ) -> Result<usize, Failure> {
        if let Some(quote) = self.prefix_quote_held(key) {
            // The word and the quote after it ended the last fragment: `chunk[i]` is what
            // follows the quote, which decides whether the word was a string prefix.
            let mut text = std::mem::take(&mut self.buf);
            text.pop();
            self.state = State::Between;
            let opened = self.end_word(&text, key, Some(quote), chunk.get(i).copied(), sink)?;
            if !opened {
                // Not a prefix: the quote is read again, as it would have been.
                let at = self.base + i;
                self.salvage().push_replay_always(vec![quote], at.saturating_sub(1));
            }
            return Ok(i);
        }
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
        let next = chunk.get(j).copied();
        // An unquoted key whole in this fragment, no quote after it (which may make it a
        // string prefix) and no string held: lent from the text (`end_word`'s reading of it,
        // without the copy).
        if key && self.buf.is_empty() && self.held.is_none() && !matches!(next, Some(b'\'' | b'"')) {
            if let Some(lent) = text.and_then(|text| text.get(i..j)) {
                self.state = State::Between;
                sink.repair(RepairKind::UnquotedKey, self.start);
                self.emit(sink, Token::Str(Str::Text(lent)), self.start)?;
                return Ok(j);
            }
        }
        if self.repair && !key && j + 1 == chunk.len() && matches!(next, Some(b'\'' | b'"')) {
            let held = self.buf.len() + run.len();
            if held <= 2 && StrPrefix::of(&[&self.buf[..], run].concat()).is_some() {
                // `u'` at the end of the fragment: whether it opens a string depends on the
                // next byte (see `end_word`); hold the quote too until it comes.
                self.buf.extend_from_slice(run);
                self.buf.extend(next);
                return Ok(chunk.len());
            }
        }
        let mut text = std::mem::take(&mut self.buf);
        text.extend_from_slice(run);
        self.state = State::Between;
        let result = self.end_word(&text, key, next, chunk.get(j + 1).copied(), sink);
        text.clear();
        if self.buf.is_empty() {
            self.buf = text;
        }
        match result? {
            true => Ok(j + 1),
            false => Ok(j),
        }
    }

    /// The end of the input after a held string prefix and its quote (`{"a": u'`): the word
    /// is not a prefix, and the quote is read again, as when the input came whole.
    pub(super) fn end_held_prefix<S: Sink>(&mut self, sink: &mut S) -> Result<(), Failure> {
        let mut text = std::mem::take(&mut self.buf);
        let Some(quote) = text.pop() else { return Ok(()) };
        self.state = State::Between;
        self.end_word(&text, false, Some(quote), None, sink)?;
        let at = self.base.saturating_sub(1);
        self.salvage().push_replay_always(vec![quote], at);
        Ok(())
    }

    /// The quote held after a string prefix that ended the last fragment (repair mode).
    pub(super) fn prefix_quote_held(&self, key: bool) -> Option<u8> {
        let last = *self.buf.last()?;
        (self.repair && !key && matches!(last, b'\'' | b'"')).then_some(last)
    }

    /// A word ended before `next` (not at the end of the input), `after` following it in
    /// the same chunk. Returns whether `next` was consumed (the quote after a string prefix).
    fn end_word<S: Sink>(
        &mut self,
        text: &[u8],
        key: bool,
        next: Option<u8>,
        after: Option<u8>,
        sink: &mut S,
    ) -> Result<bool, Failure> {
        // In the repair mode a quote may also be the closing one of a string that lost its
        // opening quote (`[a",b"]`): a prefix is read only before a quote that content
        // follows (`b"]` is `b` and a stray quote, as jsonrepair reads it).
        let opens = !self.repair || after.is_some_and(|b| !matches!(b, b',' | b']' | b'}' | b':'));
        if self.lenient && opens && self.phase == Phase::Value && matches!(next, Some(b'\'' | b'"')) {
            if !self.repair && StrPrefix::is_format(text) {
                // `f'{x}'` is an expression, as `'a' f'b'` is (see `Esc::ClosingPrefix`).
                return Err(Failure::format_string(self.start));
            }
            if let Some(prefix) = StrPrefix::of(text) {
                // `u'a'`, `r"\d"`, `b'x'`: a Python string with a prefix.
                self.adjacent(self.start, sink);
                sink.repair(RepairKind::StringPrefix, self.start);
                let double = next == Some(b'"');
                if !double {
                    sink.repair(RepairKind::SingleQuotes, self.start + text.len());
                }
                if self.repair {
                    let quote = if double { RQuote::Double } else { RQuote::Single };
                    self.begin_raw_at(quote, self.start + text.len() + 1, sink);
                    self.salvage().info.prefix = Some(prefix);
                } else {
                    self.prefix = Some(prefix);
                    self.python_seen = true;
                    let quote = if double { Quote::Double } else { Quote::Single };
                    self.state = State::Str { quote, esc: Esc::None };
                }
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
            self.emit(sink, Token::Str(Str::Buffer(key)), self.start)?;
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
            // `abs(-5)`, `NumberLong(2)`, `callback({...})`: a call's value is its result,
            // which no parser can know; `ast.literal_eval` refuses it, and so does this.
            return Err(Failure::function_call(self.start));
        }
        if self.phase == Phase::Start && !self.bare() {
            self.start_prose_with(text, sink);
            return Ok(false);
        }
        if self.repair {
            if self.phase == Phase::Start {
                self.begin_value(self.start, text.first().copied().unwrap_or(b'a'));
            }
            self.salvage().start_raw(text);
            let mut unq = Unq::value();
            unq.call = next.is_some_and(|b| matches!(b, b' ' | b'\t'));
            self.state = State::Unquoted(unq);
            return Ok(false);
        }
        Err(Failure::unexpected_word(text, self.start))
    }

    /// Emit a literal read from a word.
    pub(super) fn word_literal<S: Sink>(
        &mut self,
        token: Token,
        spelling: Spelling,
        sink: &mut S,
    ) -> Result<(), Failure> {
        let token = match spelling {
            Spelling::Json => token,
            Spelling::Python => {
                sink.repair(RepairKind::PythonLiteral, self.start);
                self.python_seen = true;
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
    pub(super) fn literal(&self, text: &[u8]) -> Option<(Token<'static>, Spelling)> {
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
    pub(super) fn literal_prefix(&self, text: &[u8]) -> Option<(Token<'static>, Spelling)> {
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
}
