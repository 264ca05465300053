//! Strings (strict and lenient modes): their content, read a run at a time, their quotes,
//! which decide what closes them, Python's string prefixes and adjacent literals, and
//! escaped JSON (`{\"a\": 1}`). Their escapes are decoded by the one escape decoder,
//! `escapes`.

use super::bytes::{find_special, has_opener, is_special_space_bytes, utf8_len};
use super::escapes::{escaped_space, json_escape, simple_escape, unescaped_pair};
use super::state::{Esc, Phase, Quote, State, StrPrefix, Unq};
use super::{Fail, Failure, Lexer, Sink, Str, Token};
use crate::parse::RepairKind;

impl Quote {
    /// The byte that interrupts a content run: the quote, or the lead byte of a smart quote.
    #[inline]
    pub(super) fn stop_byte(self) -> u8 {
        match self {
            Quote::Double => b'"',
            Quote::Single => b'\'',
            Quote::SmartDouble | Quote::SmartSingle => 0xE2,
        }
    }

    /// Whether `E2 80 last` is a closing quote for this string.
    #[inline]
    fn smart_closes(self, last: u8) -> bool {
        match self {
            Quote::SmartDouble => matches!(last, 0x9C | 0x9D),
            Quote::SmartSingle => matches!(last, 0x98 | 0x99),
            Quote::Double | Quote::Single => false,
        }
    }
}

impl StrPrefix {
    /// The prefix `word` spells, if it is one `ast.literal_eval` accepts (not `f`, whose
    /// strings are expressions).
    pub(in crate::parse) fn of(word: &[u8]) -> Option<StrPrefix> {
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

    /// Whether `word` is the prefix of an f-string (`f`, `rf`, `fr`, in any case): an
    /// expression, which `ast.literal_eval` refuses.
    pub(in crate::parse) fn is_format(word: &[u8]) -> bool {
        matches!(word.to_ascii_lowercase().as_slice(), b"f" | b"rf" | b"fr")
    }
}

/// Where the token after a `'` or `"` at `chunk[from - 1]` starts, when it is `,` `:` `}`
/// or `]` (or the `)` of a tuple) after white space at most: the quote then ends the string.
#[inline]
fn delimiter_follows<S: Sink>(chunk: &[u8], from: usize, sink: &S) -> Option<usize> {
    let mut k = from;
    loop {
        match chunk.get(k) {
            Some(b' ' | b'\t' | b'\n' | b'\r') => k += 1,
            // A Unicode space jsonrepair reads as white space (U+00A0, ...), whole in `chunk`.
            Some(&lead) if lead >= 0xC0 => {
                let len = usize::from(utf8_len(lead));
                if !chunk.get(k..k + len).is_some_and(is_special_space_bytes) {
                    break;
                }
                k += len;
            }
            _ => break,
        }
    }
    chunk
        .get(k)
        .is_some_and(|&b| matches!(b, b',' | b'}' | b']' | b':') || (b == b')' && sink.in_paren()))
        .then_some(k)
}

impl Lexer {
    /// A complete string: sent at once, or in [`ParseMode::Repair`], when a `+` may follow
    /// (`may_join`), held back until the next token, so that `"a" + "b"` can still join it.
    pub(in crate::parse) fn deliver_string<S: Sink>(
        &mut self,
        text: Str<'_>,
        offset: usize,
        may_join: bool,
        sink: &mut S,
    ) -> Result<(), Failure> {
        if !self.repair {
            return self.emit(sink, Token::Str(text), offset);
        }
        let (text, offset) = match (std::mem::take(&mut self.salvage().concat), self.held.take()) {
            (true, Some((mut held, at))) => {
                held.push_str(text.as_str());
                (Str::Owned(held), at)
            }
            (_, held) => {
                if let Some((earlier, at)) = held {
                    self.emit(sink, Token::Str(Str::Owned(earlier)), at)?;
                }
                (text, offset)
            }
        };
        if may_join {
            self.held = Some((text.into_string(), offset));
            Ok(())
        } else {
            self.emit(sink, Token::Str(text), offset)
        }
    }

    /// Send the held string, if any (a `+` after it that no string followed is dropped).
    #[inline]
    pub(in crate::parse) fn flush_held<S: Sink>(&mut self, sink: &mut S) -> Result<(), Failure> {
        if let Some(salvage) = self.salvage.as_deref_mut() {
            salvage.concat = false;
        }
        self.joined = None;
        match self.held.take() {
            Some((text, offset)) => self.emit(sink, Token::Str(Str::Owned(text)), offset),
            None => Ok(()),
        }
    }

    /// A string ended (strict and lenient modes): sent, or, in [`ParseMode::Lenient`], held
    /// until what follows shows whether another string literal comes next, which Python
    /// joins to it (`'a' 'b'` is `'ab'`, [`RepairKind::AdjacentStrings`]). `settled`: the
    /// fragment shows that `,` `:` `}` or `]` (or the `)` of a tuple) follows it, after
    /// white space at most, so no literal can continue it: inside a container, where that
    /// byte is the next token and sends it as the next token would, it is sent at once.
    pub(super) fn end_string<S: Sink>(
        &mut self,
        text: Str<'_>,
        sink: &mut S,
        settled: bool,
    ) -> Result<(), Failure> {
        if self.prefix.take().is_some_and(|prefix| prefix.bytes) && !text.as_str().is_ascii() {
            return Err(Failure::syntax(
                "a bytes literal (`b'...'`) holds ASCII characters only",
                self.start,
            ));
        }
        if !self.lenient || self.repair || (settled && self.held.is_none() && sink.in_container()) {
            return self.emit(sink, Token::Str(text), self.start);
        }
        let (text, offset) = match self.held.take() {
            Some((mut held, at)) => {
                held.push_str(text.as_str());
                (held, at)
            }
            None => (text.into_string(), self.start),
        };
        // Held at the top level too: `'a' 'b'` as the whole text is `"ab"` (the end of the
        // input sends it).
        self.held = Some((text, offset));
        Ok(())
    }

    /// A `:` follows joined literals where a value belongs (`{"a": "x" "b": 1}`): not
    /// literals to join but a value and the next key without the comma between them. The
    /// first literal is sent alone, and the builder meets the second where the comma is
    /// missing, as it would have without the join.
    pub(super) fn unjoin<S: Sink>(&mut self, sink: &mut S) -> Result<(), Failure> {
        let Some((split, second_at)) = self.joined.take() else { return Ok(()) };
        let Some((mut text, offset)) = self.held.take() else { return Ok(()) };
        let second = text.split_off(split.min(text.len()));
        self.emit(sink, Token::Str(Str::Owned(text)), offset)?;
        self.held = Some((second, second_at));
        Ok(())
    }

    /// [`ParseMode::Lenient`]: a string literal starts at `at` while a string is held: it
    /// continues that string (and the join is recorded).
    pub(super) fn adjacent<S: Sink>(&mut self, at: usize, sink: &mut S) -> bool {
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

    /// [`ParseMode::Repair`]: a string (opened by `quote`, content from `chunk[i]`) that ends
    /// in this fragment at a quote followed (after spaces) by `,` `:` `}` or `]`, whose
    /// content has only standard escapes, no control character and no unclosed bracket,
    /// needs none of the look-ahead of [`State::Raw`]: that quote ends it (as the rules of
    /// `salvage` decide too), and it is delivered at once. Returns the index after its
    /// closing quote, or `None` to read it the slow way.
    #[inline]
    pub(super) fn quick_string<S: Sink>(
        &mut self,
        chunk: &[u8],
        text: Option<&str>,
        i: usize,
        quote: u8,
        sink: &mut S,
    ) -> Result<Option<usize>, Failure> {
        // The content decoded, made at the first escape: without one, the content is lent
        // from the fragment as it is.
        let mut out: Option<String> = None;
        let mut open = [0i64; 3];
        let mut run = i;
        let (q, content) = loop {
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
            let (piece, in_text) = match text.and_then(|t| t.get(run..k)) {
                Some(piece) => (piece, true),
                None => match std::str::from_utf8(segment) {
                    Ok(piece) => (piece, false),
                    Err(_) => return Ok(None),
                },
            };
            match chunk.get(k) {
                Some(&b) if b == quote => {
                    break match out {
                        Some(mut decoded) => {
                            decoded.push_str(piece);
                            (k, Str::Owned(decoded))
                        }
                        // No escape: this run is the whole content.
                        None if in_text => (k, Str::Text(piece)),
                        None => (k, Str::Buffer(piece)),
                    };
                }
                Some(b'\\') => {
                    let decoded = match chunk.get(k + 1) {
                        Some(&b'\'') if quote == b'\'' => '\'',
                        Some(&n) => match simple_escape(n) {
                            Some(c) => c,
                            None => return Ok(None),
                        },
                        None => return Ok(None),
                    };
                    let out = out.get_or_insert_with(String::new);
                    out.push_str(piece);
                    out.push(decoded);
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
        self.deliver_string(content, self.start, false, sink)?;
        Ok(Some(q + 1))
    }

    /// String content: copy each run up to the next special byte at once, and decode
    /// complete escapes in place; only an escape cut by the end of the fragment (or one that
    /// needs a repair) goes through the byte-at-a-time states of [`Lexer::escape`].
    #[inline]
    pub(super) fn string<S: Sink>(
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
                    let settled =
                        self.lenient && !self.repair && delimiter_follows(chunk, j + 1, sink).is_some();
                    self.state = State::Between;
                    self.end_content(chunk, text, i, j, sink, settled)?;
                }
                Quote::Single => {
                    // The usual end of a `'` string: the quote, perhaps white space, then
                    // `,` `:` `}` or `]` in this fragment. The look-ahead after a closing
                    // candidate (`Esc::Closing`) would end the string at that byte, leaving
                    // it to be read next: so it ends here, without the look-ahead's states.
                    if let Some(k) = delimiter_follows(chunk, j + 1, sink) {
                        self.state = State::Between;
                        self.end_content(chunk, text, i, j, sink, true)?;
                        return Ok(k);
                    }
                    self.push_run(chunk, text, i, j);
                    let mark = self.buf.len();
                    self.buf.push(b);
                    self.candidate_quote(at);
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

    /// End the string whose last run of content is `chunk[i..j]` (see
    /// [`Lexer::end_string`] for `settled`). The common case, a string without escapes in
    /// one `str` fragment, is lent from the fragment as it is; any other from the buffers.
    #[inline]
    fn end_content<S: Sink>(
        &mut self,
        chunk: &[u8],
        text: Option<&str>,
        i: usize,
        j: usize,
        sink: &mut S,
        settled: bool,
    ) -> Result<(), Failure> {
        let whole = if self.buf.is_empty() && self.text_buf.is_empty() {
            text.and_then(|t| t.get(i..j))
        } else {
            None
        };
        match whole {
            Some(whole) => self.end_string(Str::Text(whole), sink, settled),
            None => {
                self.push_run(chunk, text, i, j);
                self.end_buffered_string(sink, settled)
            }
        }
    }

    /// End the string whose whole content the buffers hold (see [`Lexer::end_string`]).
    pub(super) fn end_buffered_string<S: Sink>(
        &mut self,
        sink: &mut S,
        settled: bool,
    ) -> Result<(), Failure> {
        let content = self.take_string()?;
        let ended = self.end_string(Str::Buffer(&content), sink, settled);
        self.reuse_string(content);
        ended
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
        // Else left to the states: cut off by the end of the fragment, or to be repaired.
        let (c, len) = json_escape(chunk, j)?;
        self.push_char(c);
        Some(j + len)
    }

    /// One byte of an escape, a smart-quote candidate or the look-ahead after a closing
    /// candidate. Returns `i` (not `i + 1`) when the byte must be read again as content.
    pub(super) fn escape<S: Sink>(
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
            Esc::Backslash
            | Esc::Hex { .. }
            | Esc::WantBackslash { .. }
            | Esc::WantU { .. }
            | Esc::Python { .. }
            | Esc::HexByte { .. } => {
                (next, consumed) = self.escape_byte(b, at, quote, esc, sink)?;
            }
            Esc::Lead { seen } => {
                if seen == 1 && b == 0x80 {
                    next = Esc::Lead { seen: 2 };
                } else if seen == 2 && quote.smart_closes(b) {
                    let mark = self.buf.len();
                    self.buf.extend_from_slice(&[0xE2, 0x80, b]);
                    self.candidate_quote(at.saturating_sub(2));
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
                    self.control_after_quote |= b != b' ';
                    next = Esc::Closing { mark };
                }
                b'\\' if self.lenient && !self.repair => next = Esc::ClosingEscape { mark },
                b',' | b'}' | b']' | b':' => {
                    self.close_at_candidate(mark, sink)?;
                    return Ok(i);
                }
                // `('a', 'b')`: the `)` of a tuple closes a `'` string as a `]` does.
                b')' if sink.in_paren() => {
                    self.close_at_candidate(mark, sink)?;
                    return Ok(i);
                }
                b'u' | b'U' | b'r' | b'R' | b'b' | b'B' | b'f' | b'F'
                    if quote == Quote::Single && self.lenient && !self.repair =>
                {
                    self.buf.push(b);
                    next = Esc::ClosingPrefix { mark, len: 1 };
                }
                b'\'' | b'"' if quote == Quote::Single && !self.repair => {
                    // `'a' 'b'`, `'a''b'`: the quote closed the string, and another literal
                    // starts (Python joins them: `'it''s'` is `'its'`).
                    self.close_at_candidate(mark, sink)?;
                    return Ok(i);
                }
                // `'a' + 'b'`: the quote closed the string; the `+` after it is refused, as
                // `literal_eval` refuses an expression (and as `"a" + "b"` is), rather than
                // read as an apostrophe in `a' + 'b`.
                b'+' if quote == Quote::Single && self.lenient && !self.repair => {
                    self.close_at_candidate(mark, sink)?;
                    return Ok(i);
                }
                b'/' => {
                    self.buf.push(b);
                    self.slash_at = at;
                    next = Esc::ClosingSlash { mark };
                }
                // The lead byte of every Unicode space jsonrepair reads as white space.
                0xC2 | 0xE1 | 0xE2 | 0xE3 | 0xEF => {
                    let at = self.buf.len();
                    self.buf.push(b);
                    next = Esc::ClosingSpace { mark, at, need: utf8_len(b) };
                }
                _ => {
                    // The quote was content (an apostrophe); so was the whitespace after it.
                    self.apostrophe(sink);
                    consumed = false;
                }
            },
            Esc::ClosingSpace { mark, at, need } => {
                if !(0x80..=0xBF).contains(&b) {
                    // Not UTF-8 (never so in text): the quote was content.
                    self.apostrophe(sink);
                    consumed = false;
                } else {
                    self.buf.push(b);
                    let character = self.buf.get(at..).unwrap_or_default();
                    if character.len() < usize::from(need) {
                        next = Esc::ClosingSpace { mark, at, need };
                    } else if is_special_space_bytes(character) {
                        next = Esc::Closing { mark };
                    } else if matches!(quote, Quote::SmartDouble | Quote::SmartSingle)
                        && character.starts_with(&[0xE2, 0x80])
                    {
                        // `“a” “b”`: the quote was content, and this may be a smart quote
                        // (`E2 80` and a third byte), which the string reads as it would
                        // have without the look-ahead: its last byte again, after `E2 80`.
                        self.buf.truncate(at);
                        self.apostrophe(sink);
                        next = Esc::Lead { seen: 2 };
                        consumed = false;
                    } else {
                        // Another character: the quote was content, and so is it.
                        self.apostrophe(sink);
                    }
                }
            }
            Esc::ClosingPrefix { mark, len } => {
                let prefix_at = self.buf.len().saturating_sub(usize::from(len));
                let word = self.buf.get(prefix_at..).unwrap_or_default();
                let prefix = StrPrefix::of(word);
                match b {
                    b'\'' | b'"' if StrPrefix::is_format(word) => {
                        // `'a' f'b'`: the quote closed the string, and an f-string follows,
                        // which is refused as it is alone (never content, never joined).
                        return Err(Failure::format_string(at.saturating_sub(usize::from(len))));
                    }
                    b'\'' | b'"' if prefix.is_some() => {
                        // `'a' u'b'`: the quote closed the string; a prefixed literal follows.
                        self.close_at_candidate(mark, sink)?;
                        let start = at.saturating_sub(usize::from(len));
                        self.start = start;
                        self.adjacent(start, sink);
                        sink.repair(RepairKind::StringPrefix, start);
                        let quote = if b == b'"' {
                            Quote::Double
                        } else {
                            sink.repair(RepairKind::SingleQuotes, at);
                            Quote::Single
                        };
                        self.prefix = prefix;
                        self.state = State::Str { quote, esc: Esc::None };
                        return Ok(i + 1);
                    }
                    b'u' | b'U' | b'r' | b'R' | b'b' | b'B' | b'f' | b'F' if len < 2 => {
                        self.buf.push(b);
                        next = Esc::ClosingPrefix { mark, len: len + 1 };
                    }
                    _ => {
                        // `'it' raw`: the quote, the white space and the letters were content.
                        self.apostrophe(sink);
                        consumed = false;
                    }
                }
            }
            Esc::ClosingEscape { mark } => match escaped_space(b) {
                Some(space) => {
                    // White space written as an escape (`['a'\n]`): held as the character
                    // it spells, which is what it is in the string if the quote is content
                    // (recorded as escaped JSON if the quote closes).
                    self.escape_after_quote.get_or_insert(at.saturating_sub(1));
                    self.buf.push(space);
                    next = Esc::Closing { mark };
                }
                None => {
                    // `'it'\'s'`: the quote, and the white space after it, were content; the
                    // backslash starts an escape, whose byte this is.
                    self.apostrophe(sink);
                    self.esc_at = at.saturating_sub(1);
                    next = Esc::Backslash;
                    consumed = false;
                }
            },
            Esc::ClosingSlash { mark } => match b {
                b'/' | b'*' => {
                    // A comment: the quote closed the string, and `/` starts the comment.
                    self.close_at_candidate(mark, sink)?;
                    self.state = State::Slash;
                    return Ok(i);
                }
                _ => {
                    // `'it' /s`: the quote, the whitespace and the slash were content.
                    self.apostrophe(sink);
                    consumed = false;
                }
            },
        }
        self.state = State::Str { quote, esc: next };
        Ok(if consumed { i + 1 } else { i })
    }

    /// A closing candidate quote at `at`: nothing is held after it yet.
    fn candidate_quote(&mut self, at: usize) {
        self.quote_at = at;
        self.control_after_quote = false;
        self.escape_after_quote = None;
    }

    /// The closing candidate quote at `mark` in `buf` closed the string: what was held
    /// after it was white space (recorded if an escape spelled it), and the string ends.
    pub(super) fn close_at_candidate<S: Sink>(&mut self, mark: usize, sink: &mut S) -> Result<(), Failure> {
        if let Some(at) = self.escape_after_quote.take() {
            sink.repair(RepairKind::EscapedJson, at);
        }
        self.buf.truncate(mark);
        self.state = State::Between;
        self.end_buffered_string(sink, false)
    }

    /// A closing candidate quote turned out to be content, with what was held after it (in
    /// `buf` already): a raw control character among that is recorded.
    fn apostrophe<S: Sink>(&mut self, sink: &mut S) {
        if self.control_after_quote {
            sink.repair(RepairKind::ControlCharacter, self.quote_at);
        }
    }

    /// Append a decoded character to the string content (valid UTF-8 by construction, so
    /// it may go to `text_buf`).
    pub(super) fn push_char(&mut self, c: char) {
        if self.buf.is_empty() {
            self.text_buf.push(c);
        } else {
            let mut utf8 = [0; 4];
            self.buf.extend_from_slice(c.encode_utf8(&mut utf8).as_bytes());
        }
    }

    /// The string content read so far (`text_buf`, then `buf` validated), moved out of the
    /// lexer in `text_buf`'s own allocation (`buf` is left empty): lent as a token's content,
    /// then given back with [`Lexer::reuse_string`].
    pub(super) fn take_string(&mut self) -> Result<String, Failure> {
        if !self.buf.is_empty() {
            let tail = std::str::from_utf8(&self.buf)
                .map_err(|_| Failure::from(Fail::InvalidUtf8 { offset: self.start }))?;
            self.text_buf.push_str(tail);
            self.buf.clear();
        }
        Ok(std::mem::take(&mut self.text_buf))
    }

    /// The buffer [`Lexer::take_string`] moved out, emptied, to hold the next string's
    /// content.
    pub(super) fn reuse_string(&mut self, mut buffer: String) {
        if self.text_buf.capacity() < buffer.capacity() {
            buffer.clear();
            self.text_buf = buffer;
        }
    }

    /// `\` at a token start: escaped JSON (`{\"a\": 1}`) when `"` follows, white space when
    /// `n`, `r` or `t` does.
    pub(super) fn backslash<S: Sink>(
        &mut self,
        chunk: &[u8],
        i: usize,
        sink: &mut S,
    ) -> Result<usize, Failure> {
        let Some(&b) = chunk.get(i) else { return Ok(i) };
        self.state = State::Between;
        if self.phase == Phase::After {
            // After the value (the lenient mode): white space written as an escape, as
            // between tokens (a model's literal `\n` at the end); anything else is the text
            // after the value.
            if escaped_space(b).is_some() {
                self.escaped_white_space(b, sink);
                return Ok(i + 1);
            }
            sink.repair(RepairKind::ProseAfter, self.start);
            self.state = State::Ignore;
            return Ok(chunk.len());
        }
        if let (Some(_), Phase::Start, false) = (escaped_space(b), self.phase, self.repair) {
            // Before the value, in the lenient mode: white space too, not prose.
            self.escaped_white_space(b, sink);
            return Ok(i + 1);
        }
        if b == b'"' {
            sink.repair(RepairKind::EscapedJson, self.start);
            // Already unescaping (a second level of escapes): the state stays, since it
            // belongs to the end of the fragment, which is already unescaped.
            if self.unescape.is_none() {
                self.unescape = Some(false);
            }
            return Ok(i);
        }
        // White space written as an escape between tokens (`{\n  \"a\": 1\n}`: pretty-printed
        // JSON escaped once more, or a model's literal `\n`): in the lenient mode no token
        // starts with a backslash, so it is read as the white space it spells. In repair
        // mode a backslash may start unquoted text (`\\server\share`, `\new`): where a value
        // comes, the byte after the escape decides (`space_escape`).
        if let (Some(_), Phase::Value) = (escaped_space(b), self.phase) {
            if !self.repair || self.unescape.is_some() || self.escaped_space_seen || sink.expects_key() {
                self.escaped_white_space(b, sink);
                return Ok(i + 1);
            }
            self.state = State::SpaceEscape { letter: b };
            return Ok(i + 1);
        }
        match self.phase {
            Phase::Start => {
                self.enter_prose(self.start, sink);
                self.keep_prose(b"\\");
                Ok(i)
            }
            _ if self.repair => {
                self.salvage().start_raw(b"\\");
                self.state = State::Unquoted(Unq::value());
                Ok(i)
            }
            _ => Err(Failure::unexpected(self.start, "")),
        }
    }

    /// The escape `\` `letter` (`n`, `r` or `t`) between tokens was the white space it
    /// spells.
    pub(super) fn escaped_white_space<S: Sink>(&mut self, letter: u8, sink: &mut S) {
        sink.repair(RepairKind::EscapedJson, self.start);
        if escaped_space(letter) == Some(b'\n') && self.repair {
            sink.line_break();
        }
        self.escaped_space_seen = true;
    }

    /// [`State::SpaceEscape`]: white space, if the byte after it is white space, another
    /// backslash, or one that starts or ends a value (`[\n  1,`, `[\n\t\"a\"`); else the
    /// backslash starts unquoted text (`\new folder`, `\temp`), as anywhere a value comes.
    pub(super) fn space_escape<S: Sink>(
        &mut self,
        chunk: &[u8],
        i: usize,
        letter: u8,
        sink: &mut S,
    ) -> Result<usize, Failure> {
        let Some(&next) = chunk.get(i) else { return Ok(i) };
        self.state = State::Between;
        if matches!(
            next,
            b' ' | b'\t' | b'\n' | b'\r' | b'\\' | b'{' | b'[' | b']' | b'}' | b'"' | b'\'' | b',' | b'-'
        ) || next.is_ascii_digit()
        {
            self.escaped_white_space(letter, sink);
        } else {
            self.salvage().start_raw(&[b'\\', letter]);
            self.state = State::Unquoted(Unq::value());
        }
        Ok(i)
    }

    /// Remove one level of escaping: `\\` is `\`, `\"` is `"`, and `\n`, `\r`, `\t` are the
    /// white space they spell; other escapes stay, to be decoded inside the strings they
    /// belong to. `start`: the offset, as read, the unescaped fragment starts at (each
    /// removal is noted in [`Lexer::escapes`]).
    ///
    /// White space is decoded here, not left to the tokens (as outside escaped JSON, see
    /// [`Lexer::backslash`]), so that every reading after a token sees it as white space:
    /// the end of a number, of a `//` comment, the look-ahead after a quote in repair mode.
    /// Inside a string of escaped JSON a line break is `\\n`; a lone `\n` there stood for a
    /// raw line break, which is what it becomes (a control character the string records).
    pub(super) fn unescape_bytes(&mut self, chunk: &[u8], start: usize) -> Vec<u8> {
        let mut out = Vec::with_capacity(chunk.len());
        let mut pending = self.unescape == Some(true);
        for &b in chunk {
            if pending {
                pending = false;
                match unescaped_pair(b) {
                    Some(b) => {
                        if let Ok(at) = u32::try_from(start + out.len()) {
                            self.escapes.push(at);
                        }
                        out.push(b);
                    }
                    None => out.extend_from_slice(&[b'\\', b]),
                }
            } else if b == b'\\' {
                pending = true;
            } else {
                out.push(b);
            }
        }
        self.unescape = Some(pending);
        out
    }
}
