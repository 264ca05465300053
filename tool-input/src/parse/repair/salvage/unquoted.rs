//! Text without quotes and regular expression literals
//! ([`ParseMode::Repair`](crate::parse::ParseMode::Repair)).

use super::{is_url_char, trim_end, URL_SCHEMES};
use crate::parse::lexer::numbers::{is_json_number, json_number};
use crate::parse::lexer::state::{Ctx, Phase, State, Unq};
use crate::parse::lexer::{Fail, Failure, Lexer, Sink, Str, Token};
use crate::parse::RepairKind;

impl Lexer {
    /// Text without quotes: up to a delimiter (`,` `]` `}` a line break; for a key also `:`
    /// and quotes), a `"` (which it then consumes when directly after the text: a missing
    /// opening quote), or a comment. Brackets opened inside it are kept with it.
    pub(in crate::parse) fn unquoted<S: Sink>(
        &mut self,
        chunk: &[u8],
        mut i: usize,
        mut u: Unq,
        sink: &mut S,
    ) -> Result<usize, Failure> {
        while let Some(&b) = chunk.get(i) {
            if u.held > 0 {
                // The rest of a possible typographic quote after a key.
                let held = usize::from(u.held);
                if held < 3 && b & 0xC0 == 0x80 {
                    if let Some(slot) = self.multi.get_mut(held) {
                        *slot = b;
                    }
                    u.held += 1;
                    i += 1;
                    if u.held < 3 {
                        continue;
                    }
                }
                let bytes = self.multi.get(..usize::from(u.held)).unwrap_or_default().to_vec();
                u.held = 0;
                if matches!(bytes.as_slice(), [0xE2, 0x80, 0x98..=0x9D]) {
                    let origin = self.slash_at;
                    self.end_unquoted(u, sink)?;
                    self.salvage().push_replay_always(bytes, origin);
                    return Ok(i);
                }
                self.salvage().raw.extend_from_slice(&bytes);
                continue;
            }
            if u.slash {
                u.slash = false;
                if b == b'/' || b == b'*' {
                    // A comment starts at the slash: the text ended before it.
                    self.end_unquoted(u, sink)?;
                    self.state = State::Slash;
                    return Ok(i);
                }
                self.salvage().raw.push(b'/');
            }
            if u.call {
                if matches!(b, b' ' | b'\t') {
                    self.salvage().raw.push(b);
                    i += 1;
                    continue;
                }
                u.call = false;
                if b == b'(' {
                    // `callback_123 ({...})`: a call, whose value is its result.
                    self.salvage().raw.clear();
                    self.state = State::Between;
                    return Err(Failure::function_call(self.start));
                }
            }
            if u.url {
                if is_url_char(b) {
                    self.salvage().raw.push(b);
                    i += 1;
                    continue;
                }
                self.end_unquoted(u, sink)?;
                return Ok(i);
            }
            if let Some(comma) = u.comma {
                if u.quote {
                    u.quote = false;
                    if matches!(b, b',' | b'}') {
                        // The quote closed the text: its opening quote was missing.
                        self.salvage().raw.pop();
                        self.end_unquoted(Unq { comma: None, ..u }, sink)?;
                    } else {
                        self.cut_unquoted_at_comma(u, comma, self.base + i, sink)?;
                    }
                    return Ok(i);
                }
                let glued = self
                    .salvage()
                    .raw
                    .last()
                    .is_some_and(|&last| !matches!(last, b' ' | b'\t' | b'\r' | b','));
                match b {
                    b'"' if glued => {
                        self.salvage().raw.push(b);
                        u.quote = true;
                    }
                    b':' | b'\n' | b'"' | b'\'' | b'`' | b'/' | b'{' | b'[' | b'(' | b'}' | b']' | b')' => {
                        self.cut_unquoted_at_comma(u, comma, self.base + i, sink)?;
                        return Ok(i);
                    }
                    _ => self.salvage().raw.push(b),
                }
                i += 1;
                continue;
            }
            if u.depth > 0 {
                match b {
                    b'{' | b'[' | b'(' => u.depth = u.depth.saturating_add(1),
                    b'}' | b']' | b')' => u.depth -= 1,
                    _ => {}
                }
                self.salvage().raw.push(b);
                i += 1;
                continue;
            }
            let stop = match b {
                b',' if self.reads_past_comma(u, sink) => {
                    u.comma = Some(self.salvage().raw.len());
                    false
                }
                b',' | b']' | b'}' | b'\n' => true,
                b'[' | b'{' | b'(' if !u.key => {
                    u.depth = 1;
                    false
                }
                b'[' | b'{' => true,
                b')' => sink.in_paren(),
                b'"' => {
                    let glued =
                        self.salvage().raw.last().is_some_and(|&last| !matches!(last, b' ' | b'\t' | b'\r'));
                    self.end_unquoted(u, sink)?;
                    if glued {
                        // `abc"`, `{a":1}`: the opening quote was missing; this one closes.
                        return Ok(i + 1);
                    }
                    return Ok(i);
                }
                b':' | b'\'' | b'`' if u.key => true,
                0xE2 if u.key => {
                    self.multi[0] = b;
                    self.slash_at = self.base + i;
                    u.held = 1;
                    i += 1;
                    continue;
                }
                b'/' => {
                    if !u.key
                        && URL_SCHEMES.iter().any(|s| s.get(..s.len() - 2) == Some(&self.salvage().raw[..]))
                    {
                        u.url = true;
                        false
                    } else {
                        match chunk.get(i + 1) {
                            Some(&n) if n == b'/' || n == b'*' => true,
                            Some(_) => false,
                            None => {
                                self.slash_at = self.base + i;
                                u.slash = true;
                                i += 1;
                                continue;
                            }
                        }
                    }
                }
                _ => false,
            };
            if stop {
                self.end_unquoted(u, sink)?;
                return Ok(i);
            }
            self.salvage().raw.push(b);
            i += 1;
        }
        self.state = State::Unquoted(u);
        Ok(i)
    }

    /// Whether text without quotes reads on past the comma it reached, to see whether a
    /// quote closes it (`{"lorem": ipsum, sic, datum.",}`, json_repair's reading of a
    /// missing opening quote): in an object value, with [`RepairStyle::JsonRepair`], for
    /// text that is not a number, a URL or inside brackets.
    ///
    /// [`RepairStyle::JsonRepair`]: super::RepairStyle::JsonRepair
    fn reads_past_comma<S: Sink>(&self, u: Unq, sink: &S) -> bool {
        !u.key
            && !u.number
            && !u.url
            && u.depth == 0
            && u.comma.is_none()
            && self.salvage.as_ref().is_some_and(|salvage| salvage.python_style)
            && sink.context() == Ctx::ObjectValue
    }

    /// Text read on past its first comma (at `raw[comma]`) met something other than its
    /// closing quote (`:`, a bracket, a line break, another quote, the end): it ends at that
    /// comma, and the rest is read again, at absolute offset `at`, if the budget allows
    /// (otherwise it stays one text).
    fn cut_unquoted_at_comma<S: Sink>(
        &mut self,
        u: Unq,
        comma: usize,
        at: usize,
        sink: &mut S,
    ) -> Result<(), Failure> {
        let tail = self.salvage().raw.get(comma..).unwrap_or_default().to_vec();
        let origin = self.start + comma;
        if self.salvage().push_replay(tail, origin, at) {
            self.salvage().raw.truncate(comma);
        }
        self.end_unquoted(Unq { comma: None, quote: false, ..u }, sink)
    }

    /// Text without quotes at the end of the input.
    pub(in crate::parse) fn end_unquoted_input<S: Sink>(
        &mut self,
        mut u: Unq,
        sink: &mut S,
    ) -> Result<(), Failure> {
        if u.slash {
            self.salvage().raw.push(b'/');
            u.slash = false;
        }
        match u.comma {
            Some(_) if u.quote => {
                // `{"a": b, c"`: closed by the quote before the end.
                self.salvage().raw.pop();
                self.end_unquoted(Unq { comma: None, quote: false, ..u }, sink)
            }
            Some(comma) => self.cut_unquoted_at_comma(u, comma, self.base, sink),
            None => self.end_unquoted(u, sink),
        }
    }

    /// The text in `raw` ended: a key, `null` for `undefined`, a number if it started as
    /// one and still is, or a string. Trailing spaces are not part of it.
    pub(in crate::parse) fn end_unquoted<S: Sink>(&mut self, u: Unq, sink: &mut S) -> Result<(), Failure> {
        self.state = State::Between;
        let mut raw = std::mem::take(&mut self.salvage().raw);
        if u.held > 0 {
            raw.extend_from_slice(self.multi.get(..usize::from(u.held)).unwrap_or_default());
        }
        if u.slash {
            raw.push(b'/');
        }
        trim_end(&mut raw);
        if raw.is_empty() {
            self.salvage().raw = raw;
            return Ok(());
        }
        if self.phase == Phase::Start {
            self.begin_value(self.start, raw.first().copied().unwrap_or(b'a'));
        }
        if let [b'+', digits @ ..] = raw.as_slice() {
            // `+1`: a sign json_repair (and `literal_eval`, and JSON5) reads, left out of
            // the number's text.
            let number = (!u.key && is_json_number(digits) && digits.first().is_some_and(u8::is_ascii_digit))
                .then(|| std::str::from_utf8(digits).ok().and_then(json_number))
                .flatten();
            if let Some(number) = number {
                sink.repair(RepairKind::NumberSyntax, self.start);
                raw.clear();
                self.salvage().raw = raw;
                return self.emit(sink, Token::Number(number), self.start);
            }
        }
        if u.number && is_json_number(&raw) {
            let number = std::str::from_utf8(&raw).ok().and_then(json_number);
            if let Some(number) = number {
                self.salvage().raw = raw;
                self.salvage().raw.clear();
                return self.emit(sink, Token::Number(number), self.start);
            }
        }
        let text =
            String::from_utf8(raw).map_err(|_| Failure::from(Fail::InvalidUtf8 { offset: self.start }))?;
        if u.key {
            sink.repair(RepairKind::UnquotedKey, self.start);
            sink.bare_key();
            return self.emit(sink, Token::Str(Str::Owned(text)), self.start);
        }
        if text == "undefined" {
            sink.repair(RepairKind::Undefined, self.start);
            return self.emit(sink, Token::Null, self.start);
        }
        sink.repair(RepairKind::UnquotedString, self.start);
        self.emit(sink, Token::Str(Str::Owned(text)), self.start)
    }

    /// A regular expression literal, kept with its slashes as a string.
    pub(in crate::parse) fn regex<S: Sink>(
        &mut self,
        chunk: &[u8],
        mut i: usize,
        mut esc: bool,
        sink: &mut S,
    ) -> Result<usize, Failure> {
        while let Some(&b) = chunk.get(i) {
            self.salvage().raw.push(b);
            i += 1;
            if esc {
                esc = false;
            } else if b == b'\\' {
                esc = true;
            } else if b == b'/' {
                let text = std::mem::take(&mut self.salvage().raw);
                self.state = State::Between;
                self.emit_regex(text, sink)?;
                return Ok(i);
            }
        }
        self.state = State::Regex { esc };
        Ok(i)
    }

    /// Send a regular expression as a string.
    pub(in crate::parse) fn emit_regex<S: Sink>(
        &mut self,
        text: Vec<u8>,
        sink: &mut S,
    ) -> Result<(), Failure> {
        self.flush_held(sink)?;
        let text =
            String::from_utf8(text).map_err(|_| Failure::from(Fail::InvalidUtf8 { offset: self.start }))?;
        sink.repair(RepairKind::Regex, self.start);
        self.emit(sink, Token::Str(Str::Owned(text)), self.start)
    }
}
