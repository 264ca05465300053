//! Strings (strict and lenient modes): their content, read a run at a time, their quotes,
//! which decide what closes them, escapes, Python's string prefixes and adjacent literals,
//! and escaped JSON (`{\"a\": 1}`). The one escape decoder ([`simple_escape`],
//! [`unicode_escape`], [`surrogate_pair`]) is here too: [`ParseMode::Repair`] decodes the
//! strings it reads raw with it.
//!
//! [`ParseMode::Repair`]: crate::parse::ParseMode::Repair

use super::bytes::{find_special, has_opener, hex4};
use super::state::{Esc, Phase, Quote, State, StrPrefix, Unq};
use super::{Fail, Failure, Lexer, Sink, Token};
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

impl Lexer {
    /// A complete string: sent at once, or in [`ParseMode::Repair`], when a `+` may follow
    /// (`may_join`), held back until the next token, so that `"a" + "b"` can still join it.
    pub(in crate::parse) fn deliver_string<S: Sink>(
        &mut self,
        text: String,
        offset: usize,
        may_join: bool,
        sink: &mut S,
    ) -> Result<(), Failure> {
        if !self.repair {
            return self.emit(sink, Token::Str(text), offset);
        }
        let (text, offset) = match (std::mem::take(&mut self.salvage().concat), self.held.take()) {
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
    pub(in crate::parse) fn flush_held<S: Sink>(&mut self, sink: &mut S) -> Result<(), Failure> {
        if let Some(salvage) = self.salvage.as_deref_mut() {
            salvage.concat = false;
        }
        self.joined = None;
        match self.held.take() {
            Some((text, offset)) => self.emit(sink, Token::Str(text), offset),
            None => Ok(()),
        }
    }

    /// A string ended (strict and lenient modes): sent, or, in [`ParseMode::Lenient`], held until what follows shows whether another string
    /// literal comes next, which Python joins to it (`'a' 'b'` is `'ab'`,
    /// [`RepairKind::AdjacentStrings`]).
    pub(super) fn end_string<S: Sink>(&mut self, text: String, sink: &mut S) -> Result<(), Failure> {
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
        self.emit(sink, Token::Str(text), offset)?;
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
                        Some(&b'\'') if quote == b'\'' => '\'',
                        Some(&n) => match simple_escape(n) {
                            Some(c) => c,
                            None => return Ok(None),
                        },
                        None => return Ok(None),
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
                    let string = self.content_to(chunk, text, i, j)?;
                    self.state = State::Between;
                    self.end_string(string, sink)?;
                }
                Quote::Single => {
                    // The usual end of a `'` string: the quote, perhaps white space, then
                    // `,` `:` `}` or `]` in this fragment. The look-ahead after a closing
                    // candidate (`Esc::Closing`) would end the string at that byte, leaving
                    // it to be read next: so it ends here, without the look-ahead's states.
                    let mut k = j + 1;
                    while chunk.get(k).is_some_and(|&b| matches!(b, b' ' | b'\t' | b'\n' | b'\r')) {
                        k += 1;
                    }
                    if chunk.get(k).is_some_and(|&b| {
                        matches!(b, b',' | b'}' | b']' | b':') || (b == b')' && sink.in_paren())
                    }) {
                        let string = self.content_to(chunk, text, i, j)?;
                        self.state = State::Between;
                        self.end_string(string, sink)?;
                        return Ok(k);
                    }
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

    /// The string's whole content, when its last run is `chunk[i..j]` (the string is then
    /// read; `text_buf` and `buf` are left empty). The common case, a string without escapes
    /// in one `str` fragment, is copied once.
    #[inline]
    fn content_to(
        &mut self,
        chunk: &[u8],
        text: Option<&str>,
        i: usize,
        j: usize,
    ) -> Result<String, Failure> {
        let whole = if self.buf.is_empty() && self.text_buf.is_empty() {
            text.and_then(|t| t.get(i..j))
        } else {
            None
        };
        match whole {
            Some(whole) => Ok(whole.to_owned()),
            None => {
                self.push_run(chunk, text, i, j);
                self.take_string()
            }
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
            Esc::Backslash => {
                if let Some(c) = simple_escape(b) {
                    self.push_char(c);
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
                } else if b == b'N' && self.python_escape(quote, b'x').is_some() {
                    return Err(Failure::named_escape(self.esc_at));
                } else if let Some((width, first)) = self.python_escape(quote, b) {
                    // `'\x41'`, `'\101'`, `'\U0001F600'`: Python's escapes, in a Python
                    // string literal (a `'` string, or one with a prefix).
                    sink.repair(RepairKind::PythonEscape, self.esc_at);
                    next = Esc::Python { n: u8::from(first.is_some()), width, value: first.unwrap_or(0) };
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
                // `('a', 'b')`: the `)` of a tuple closes a `'` string as a `]` does.
                b')' if sink.in_paren() => {
                    self.buf.truncate(mark);
                    self.state = State::Between;
                    let text = self.take_string()?;
                    self.end_string(text, sink)?;
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
                        self.buf.truncate(mark);
                        self.state = State::Between;
                        let text = self.take_string()?;
                        self.end_string(text, sink)?;
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
                        self.apostrophe(mark, sink);
                        consumed = false;
                    }
                }
            }
            Esc::Python { n, width, value } => {
                let digit = if width == 0 {
                    (b'0'..=b'7').contains(&b).then(|| u32::from(b - b'0'))
                } else {
                    char::from(b).to_digit(16)
                };
                let radix = if width == 0 { 8 } else { 16 };
                let full = if width == 0 { 3 } else { width };
                match digit {
                    Some(digit) if n < full => {
                        let value = value * radix + digit;
                        if n + 1 < full {
                            next = Esc::Python { n: n + 1, width, value };
                        } else {
                            self.push_python_char(value)?;
                        }
                    }
                    _ if width == 0 => {
                        // An octal escape ends at its first non-octal byte (`\0` then `x`).
                        self.push_python_char(value)?;
                        consumed = false;
                    }
                    _ => {
                        return Err(Failure::syntax(
                            format!(
                                "truncated `\\{}` escape in a string",
                                if width == 2 { 'x' } else { 'U' }
                            ),
                            self.esc_at,
                        ))
                    }
                }
            }
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

    /// The escape a `\` followed by `b` starts in a Python string literal (a `'` string or a
    /// prefixed one, whose raw form never gets here): its width (`x` 2, `U` 8, octal 0) and
    /// the value of a first digit `b` already is (octal). `None` elsewhere, and for the
    /// escapes JSON shares.
    fn python_escape(&self, quote: Quote, b: u8) -> Option<(u8, Option<u32>)> {
        if !self.lenient || self.repair || !(quote == Quote::Single || self.prefix.is_some()) {
            return None;
        }
        python_escape_kind(b)
    }

    /// The character a Python escape spells; a surrogate or a value past U+10FFFF is what
    /// Python refuses too.
    fn push_python_char(&mut self, value: u32) -> Result<(), Failure> {
        match char::from_u32(value) {
            Some(c) => {
                self.push_char(c);
                Ok(())
            }
            None => Err(Failure::syntax(
                format!("the escape of U+{value:X} in a string is not a character"),
                self.esc_at,
            )),
        }
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
            if is_low_surrogate(unit) {
                self.push_char(surrogate_pair(high, unit));
                return Ok(Esc::None);
            }
            self.lone_surrogate(sink)?;
        }
        if is_high_surrogate(unit) {
            self.high_at = self.esc_at;
            return Ok(Esc::WantBackslash { high: unit });
        }
        if is_low_surrogate(unit) {
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
    pub(super) fn take_string(&mut self) -> Result<String, Failure> {
        let tail = match self.buf.as_slice() {
            [] => "",
            bytes => std::str::from_utf8(bytes)
                .map_err(|_| Failure::from(Fail::InvalidUtf8 { offset: self.start }))?,
        };
        let string = if self.text_buf.is_empty() {
            tail.to_owned()
        } else if tail.is_empty() {
            self.text_buf.clone()
        } else {
            let mut string = String::with_capacity(self.text_buf.len() + tail.len());
            string.push_str(&self.text_buf);
            string.push_str(tail);
            string
        };
        self.text_buf.clear();
        self.buf.clear();
        Ok(string)
    }

    /// `\` at a token start: escaped JSON (`{\"a\": 1}`) when `"` follows.
    pub(super) fn backslash<S: Sink>(
        &mut self,
        chunk: &[u8],
        i: usize,
        sink: &mut S,
    ) -> Result<usize, Failure> {
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

    /// Remove one level of escaping: `\\` is `\` and `\"` is `"`; other escapes stay, to
    /// be decoded inside the strings they belong to.
    pub(super) fn unescape_bytes(&mut self, chunk: &[u8]) -> Vec<u8> {
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
}

/// The escape Python has and JSON does not that `b` (after a backslash) starts: its width
/// in hex digits (`x` 2, `U` 8; octal 0, one to three digits) and, for octal, the value of
/// its first digit `b`.
pub(in crate::parse) fn python_escape_kind(b: u8) -> Option<(u8, Option<u32>)> {
    match b {
        b'x' => Some((2, None)),
        b'U' => Some((8, None)),
        b'0'..=b'7' => Some((0, Some(u32::from(b - b'0')))),
        _ => None,
    }
}

/// A whole Python escape at `bytes[i]` (a backslash) that JSON does not share (`\x41`,
/// `\101`, `\U0001F600`): its character and length. `None` when `bytes[i + 1]` starts no
/// such escape; `Some((None, _))` when it does but is cut short or spells no character
/// (its length then reaches its first byte that does not belong). The rule of
/// [`python_escape_kind`], for text read whole ([`ParseMode::Repair`](super::super::ParseMode::Repair)).
pub(in crate::parse) fn python_escape_at(bytes: &[u8], i: usize) -> Option<(Option<char>, usize)> {
    let (width, first) = python_escape_kind(*bytes.get(i + 1)?)?;
    let (radix, full, start) = match first {
        Some(_) => (8, 3, i + 1),
        None => (16, usize::from(width), i + 2),
    };
    let mut value = 0u32;
    let mut n = 0;
    while n < full {
        let Some(digit) = bytes.get(start + n).and_then(|&b| char::from(b).to_digit(radix)) else { break };
        value = value * radix + digit;
        n += 1;
    }
    let complete = first.is_some() || n == full;
    Some((complete.then(|| char::from_u32(value)).flatten(), start + n - i))
}

/// The character a one-letter escape stands for, given the byte after the backslash
/// (`n` is a line break); `None` for `u` and for what is no JSON escape.
#[inline]
pub(in crate::parse) fn simple_escape(b: u8) -> Option<char> {
    Some(match b {
        b'"' => '"',
        b'\\' => '\\',
        b'/' => '/',
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        _ => return None,
    })
}

/// What a `\u` escape read whole from a buffer spells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::parse) enum Unicode {
    /// A character, from one escape or a surrogate pair of two, and the length of its text
    /// (6 or 12 bytes).
    Char(char, usize),
    /// Four hex digits do not follow the `\u` (or the buffer ends before them).
    NotHex,
    /// A high surrogate not followed by the escape of a low one (or the buffer ends before
    /// it).
    HighAlone,
    /// A low surrogate with no high one before it.
    LowAlone,
}

/// Decode the `\u` escape whose backslash is `bytes[i]`, and the low half after it when it
/// is a high surrogate.
#[inline]
pub(in crate::parse) fn unicode_escape(bytes: &[u8], i: usize) -> Unicode {
    let Some(unit) = bytes.get(i + 2..i + 6).and_then(hex4) else { return Unicode::NotHex };
    if is_low_surrogate(unit) {
        return Unicode::LowAlone;
    }
    if !is_high_surrogate(unit) {
        return Unicode::Char(char::from_u32(u32::from(unit)).unwrap_or(char::REPLACEMENT_CHARACTER), 6);
    }
    let low = bytes
        .get(i + 6..i + 8)
        .filter(|pair| *pair == b"\\u")
        .and_then(|_| bytes.get(i + 8..i + 12))
        .and_then(hex4)
        .filter(|&low| is_low_surrogate(low));
    match low {
        Some(low) => Unicode::Char(surrogate_pair(unit, low), 12),
        None => Unicode::HighAlone,
    }
}

/// Where the escape states are after `tail`, a backslash and what follows it up to the end
/// of a fragment, when it is the start of an escape that the next fragment may complete:
/// `\\`, `\\u` and up to three hex digits, or a high surrogate's escape and the start of
/// another (`\\uD83D\\uDE`). The states take such a tail in without adding content; the
/// offset is that of the backslash they keep as the escape's (the last one), and a high
/// surrogate's escape is at 0. `None` for any other tail.
pub(in crate::parse) fn escape_cut_off(tail: &[u8]) -> Option<(Esc, usize)> {
    let hex = |digits: &[u8]| -> Option<(u8, [u8; 4])> {
        let mut spelled = [0; 4];
        if digits.len() >= 4 || !digits.iter().all(u8::is_ascii_hexdigit) {
            return None;
        }
        spelled.get_mut(..digits.len())?.copy_from_slice(digits);
        Some((u8::try_from(digits.len()).ok()?, spelled))
    };
    match tail {
        [b'\\'] => Some((Esc::Backslash, 0)),
        [b'\\', b'u', digits @ ..] if digits.len() < 4 => {
            hex(digits).map(|(n, digits)| (Esc::Hex { n, digits, high: None }, 0))
        }
        [b'\\', b'u', a, b, c, d, rest @ ..] => {
            let high = hex4(&[*a, *b, *c, *d]).filter(|&unit| is_high_surrogate(unit))?;
            match rest {
                [] => Some((Esc::WantBackslash { high }, 0)),
                [b'\\'] => Some((Esc::WantU { high }, 6)),
                [b'\\', b'u', digits @ ..] => {
                    hex(digits).map(|(n, digits)| (Esc::Hex { n, digits, high: Some(high) }, 6))
                }
                _ => None,
            }
        }
        _ => None,
    }
}

/// The text of the escape the states are inside (`esc`, in a string), as
/// [`escape_cut_off`] reads it: `\\`, `\\u` and the digits so far, a high surrogate's
/// escape before them. `None` for the other states. Its length is at most 11.
pub(in crate::parse) fn spell_escape(esc: Esc) -> Option<([u8; 12], usize)> {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let digit =
        |unit: u16, shift: u16| DIGITS.get(usize::from((unit >> shift) & 0xF)).copied().unwrap_or(b'0');
    let high_escape =
        |unit: u16| [b'\\', b'u', digit(unit, 12), digit(unit, 8), digit(unit, 4), digit(unit, 0)];
    let mut text = [0; 12];
    let (high, tail): (Option<u16>, &[u8]) = match esc {
        Esc::Backslash => (None, b"\\"),
        Esc::Hex { n, ref digits, high } => {
            let len = usize::from(n).min(digits.len());
            // `\\u` and the digits so far, after the high surrogate's escape if any.
            let at = if high.is_some() { 6 } else { 0 };
            if let Some(slot) = text.get_mut(at..at + 2 + len) {
                slot[..2].copy_from_slice(b"\\u");
                slot[2..].copy_from_slice(digits.get(..len).unwrap_or_default());
            }
            if let Some(high) = high {
                text[..6].copy_from_slice(&high_escape(high));
            }
            return Some((text, at + 2 + len));
        }
        Esc::WantBackslash { high } => (Some(high), b""),
        Esc::WantU { high } => (Some(high), b"\\"),
        _ => return None,
    };
    let at = match high {
        Some(high) => {
            text[..6].copy_from_slice(&high_escape(high));
            6
        }
        None => 0,
    };
    let len = at + tail.len();
    text.get_mut(at..len)?.copy_from_slice(tail);
    Some((text, len))
}

/// The escape at `bytes[j]` (a backslash) when it lies wholly in `bytes` and is one of
/// JSON's: the character and the length of its text.
#[inline]
pub(in crate::parse) fn json_escape(bytes: &[u8], j: usize) -> Option<(char, usize)> {
    match bytes.get(j + 1) {
        Some(&b'u') => match unicode_escape(bytes, j) {
            Unicode::Char(c, len) => Some((c, len)),
            Unicode::NotHex | Unicode::HighAlone | Unicode::LowAlone => None,
        },
        Some(&next) => simple_escape(next).map(|c| (c, 2)),
        None => None,
    }
}

/// Whether a UTF-16 code unit is the first half of a surrogate pair.
#[inline]
fn is_high_surrogate(unit: u16) -> bool {
    (0xD800..=0xDBFF).contains(&unit)
}

/// Whether a UTF-16 code unit is the second half of a surrogate pair.
#[inline]
fn is_low_surrogate(unit: u16) -> bool {
    (0xDC00..=0xDFFF).contains(&unit)
}

/// The character of the surrogate pair `high`, `low` (U+FFFD if they are not one).
#[inline]
pub(in crate::parse) fn surrogate_pair(high: u16, low: u16) -> char {
    let (high, low) = (u32::from(high), u32::from(low));
    let code =
        0x10000u32.wrapping_add(high.wrapping_sub(0xD800) << 10).wrapping_add(low.wrapping_sub(0xDC00));
    char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER)
}

/// A string's content written in the text with JSON's own escapes (and `\'`) and nothing
/// else to repair: `raw` holds the bytes after its opening `quote` (`"` or `'`). The content is
/// handed to `piece` a run of text or one decoded escape at a time; `piece` returns `false`
/// to stop. Returns the length of the content in `raw` (where its closing quote is), or
/// `None` where it is not written so (an escape JSON has not, a control character, no
/// closing quote) or `piece` stopped.
///
/// The tape keeps a string its parse decoded as this range of the text when this reading
/// gives the very same content, and reads it again here when it is asked for (see
/// `tape::Place::Escaped`).
pub(in crate::parse) fn read_escaped(
    raw: &str,
    quote: u8,
    mut piece: impl FnMut(&str) -> bool,
) -> Option<usize> {
    let bytes = raw.as_bytes();
    let mut i = 0;
    loop {
        let j = find_special(bytes, i, quote);
        // Runs end next to an ASCII byte or at the end, so they are whole characters.
        if j > i && !piece(raw.get(i..j)?) {
            return None;
        }
        match bytes.get(j) {
            Some(&b) if b == quote => return Some(j),
            Some(b'\\') => {
                // `\'` is how a `'` string escapes its quote (and means a quote anywhere).
                let (c, len) = match bytes.get(j + 1) {
                    Some(b'\'') => ('\'', 2),
                    _ => json_escape(bytes, j)?,
                };
                if !piece(c.encode_utf8(&mut [0; 4])) {
                    return None;
                }
                i = j + len;
            }
            _ => return None,
        }
    }
}
