//! Between tokens: the hot loop over white space and punctuation inside the value, what
//! may come before the value and after it, and which token a byte starts (including a
//! multi-byte character: special white space, a typographic quote, or text).

use super::bytes::{find, is_key_start, is_special_space, is_unquoted_start, utf8_len};
use super::state::{Esc, Num, Phase, Quote, RQuote, State, Unq};
use super::{Failure, Lexer, Sink, Str, Token};
use crate::parse::RepairKind;

impl Lexer {
    /// Between tokens inside the value: the hot loop for whitespace and punctuation.
    pub(super) fn between<S: Sink>(
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
                    if self.held.is_some() && !self.concat() && !self.adjacent(at, sink) {
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
                        State::Word { key } => self.word(chunk, text, i, key, sink)?,
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
        // An identifier: ASCII, so valid.
        let key = std::str::from_utf8(chunk.get(i..end).unwrap_or_default()).unwrap_or_default();
        sink.repair(RepairKind::UnquotedKey, self.start);
        sink.bare_key();
        self.emit(sink, Token::Str(Str::Buffer(key)), self.start)?;
        Ok(Some(end))
    }

    /// A token start other than punctuation and `"`.
    fn between_other<S: Sink>(&mut self, chunk: &[u8], i: usize, sink: &mut S) -> Result<usize, Failure> {
        let at = self.base + i;
        let Some(&b) = chunk.get(i) else { return Ok(i) };
        // Bytes that may continue a held string (`+`, another string, comments, spaces) keep
        // it; anything else ends it first.
        let keep = matches!(b, b'+' | b'/' | b'#')
            || (matches!(b, b'\'' | b'`' | 0x80..=0xFF) && self.concat())
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
            // `+1` (lenient): a sign `ast.literal_eval` and JSON5 read; left out of the text.
            b'+' if self.lenient && !self.repair && !key && self.held.is_none() => {
                sink.repair(RepairKind::NumberSyntax, at);
                self.state = State::Num(Num::Plus);
                Ok(i + 1)
            }
            b'a'..=b'z' | b'A'..=b'Z' | b'_' | b'$' if !key => {
                self.state = State::Word { key: false };
                Ok(i)
            }
            _ if key && self.repair && is_unquoted_start(b) => {
                if let Some(next) = self.quick_key(chunk, i, sink)? {
                    return Ok(next);
                }
                self.salvage().raw.clear();
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
                    self.python_seen = true;
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
                let token = if b == b'(' { Token::BeginParen } else { Token::EndParen };
                self.emit(sink, token, at)?;
                Ok(i + 1)
            }
            // A Python tuple: the value (`('a', 'b')`) or inside it (`{"point": (1, 2)}`). A
            // `(` where a key belongs opens the tuple that makes `{(1, 2), 3}` a set.
            b'(' if self.lenient && (!sink.in_container() || !key || sink.expects_first_key()) => {
                self.emit(sink, Token::BeginParen, at)?;
                Ok(i + 1)
            }
            b'+' if self.repair => {
                if self.held.is_some() {
                    sink.repair(RepairKind::Concatenation, at);
                    self.salvage().concat = true;
                    return Ok(i + 1);
                }
                self.salvage().raw.clear();
                self.state = State::Unquoted(Unq::value());
                Ok(i)
            }
            _ if self.repair && is_unquoted_start(b) => {
                self.salvage().raw.clear();
                self.state = State::Unquoted(if key { Unq::key() } else { Unq::value() });
                Ok(i)
            }
            _ => Err(Failure::unexpected(at, "")),
        }
    }

    /// Between tokens before the value: BOM, code fence, comments, prose (lenient).
    pub(super) fn before_value<S: Sink>(
        &mut self,
        chunk: &[u8],
        mut i: usize,
        sink: &mut S,
    ) -> Result<usize, Failure> {
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
                // A Python tuple as the whole value (`('a', 'b')`); if it does not read as
                // one, the `(` was prose, and a later candidate is tried.
                b'(' => {
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
                _ if self.bare() => {
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
    pub(super) fn after_value<S: Sink>(
        &mut self,
        chunk: &[u8],
        mut i: usize,
        sink: &mut S,
    ) -> Result<usize, Failure> {
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
                _ if self.repair && self.fenced() => {
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
                // White space written as an escape, or the text after the value: the next
                // byte says (`Lexer::backslash`). In repair mode a backslash may start
                // another value.
                b'\\' if !self.repair => {
                    self.state = State::Backslash;
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
                b'.' if self.repair => {
                    // Another value only as a number (`.5`): decided on the next byte.
                    self.state = State::Dots { seen: 1 };
                    return Ok(i + 1);
                }
                b'{'
                | b'['
                | b'"'
                | b'\''
                | b'-'
                | b'0'..=b'9'
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
                _ if self.repair && self.bare() => {
                    self.phase = Phase::Value;
                    return Ok(i);
                }
                _ if self.repair && self.top_is_scalar() => {
                    // Prose after a scalar: the scalar may be prose too ("1. Call it with
                    // {...}"); an object or array later wins.
                    self.salvage().scalar_prose = Some(at);
                    self.phase = Phase::Start;
                    self.state = State::Prose;
                    return Ok(i);
                }
                _ if !self.repair && self.value_start.is_some_and(|(_, first)| first == b'(') => {
                    // Text after a parenthesised value: it was prose ("(1) Call it with
                    // {...}"), and a later object or array is the value.
                    return Err(Failure::syntax(
                        "expected the text to end after the parenthesised value",
                        at,
                    ));
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

    /// A multi-byte character at a token start: special whitespace, a typographic quote,
    /// or (depending on where) prose, an unquoted key or text.
    pub(super) fn multi_byte<S: Sink>(
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
    pub(super) fn classify_multi<S: Sink>(&mut self, len: usize, sink: &mut S) -> Result<(), Failure> {
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
                if self.repair && self.bare() {
                    self.phase = Phase::Value;
                } else {
                    sink.repair(RepairKind::ProseAfter, at);
                    self.state = State::Ignore;
                    return Ok(());
                }
            }
            Phase::Start if quote.is_none() && !self.bare() => {
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
            self.salvage().start_raw(&bytes);
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
}
