//! Strings whose quotes cannot be trusted ([`ParseMode::Repair`](crate::parse::ParseMode::Repair)):
//! read as raw bytes, ended where the rules of `salvage` guess, and decoded when they end.

use super::{
    bare_member, drop_partial_escape, is_delimiter, next_member, trim_end, RawInfo, RepairState, Stop,
};
use crate::parse::lexer::bytes::{find, is_special_space, utf8_len};
use crate::parse::lexer::escapes::{decode_whole, escaped_space, Whole};
use crate::parse::lexer::state::{Ctx, Look, Phase, RQuote, State, StrPrefix};
use crate::parse::lexer::{Fail, Failure, Lexer, Sink, Str};
use crate::parse::RepairKind;

impl RQuote {
    /// Whether `b` may start a closing quote (the whole quote when ASCII).
    #[inline]
    fn may_close(self, b: u8) -> bool {
        match self {
            RQuote::Double => b == b'"',
            RQuote::Single => b == b'\'',
            RQuote::DoubleLike => b == b'"' || b == 0xE2,
            RQuote::SingleLike => matches!(b, b'\'' | b'`' | 0xE2 | 0xC2),
        }
    }

    /// Whether the multi-byte character `bytes` closes this string.
    #[inline]
    fn closes_multi(self, bytes: &[u8]) -> bool {
        match self {
            RQuote::DoubleLike => matches!(bytes, [0xE2, 0x80, 0x9C | 0x9D]),
            RQuote::SingleLike => matches!(bytes, [0xE2, 0x80, 0x98 | 0x99] | [0xC2, 0xB4]),
            RQuote::Double | RQuote::Single => false,
        }
    }

    /// Whether the ASCII byte `b` closes this string.
    #[inline]
    fn closes_ascii(self, b: u8) -> bool {
        match self {
            RQuote::Double | RQuote::DoubleLike => b == b'"',
            RQuote::Single => b == b'\'',
            RQuote::SingleLike => b == b'\'' || b == b'`',
        }
    }
}

impl Lexer {
    /// Start a [`State::Raw`] string whose one-byte opening quote is at `start`.
    pub(in crate::parse) fn begin_raw<S: Sink>(&mut self, quote: RQuote, sink: &S) {
        self.begin_raw_at(quote, self.start + 1, sink);
    }

    /// Start a [`State::Raw`] string whose content starts at absolute offset `content_at`.
    pub(in crate::parse) fn begin_raw_at<S: Sink>(&mut self, quote: RQuote, content_at: usize, sink: &S) {
        self.salvage().raw.clear();
        let single = matches!(quote, RQuote::Single | RQuote::SingleLike);
        self.salvage().info = RawInfo { content_at, ctx: sink.context(), single, ..RawInfo::default() };
        self.state = State::Raw { quote, esc: false };
    }

    /// String content: collected raw up to the next backslash or possible closing quote.
    pub(in crate::parse) fn raw_string(
        &mut self,
        chunk: &[u8],
        mut i: usize,
        quote: RQuote,
        esc: bool,
    ) -> Result<usize, Failure> {
        if esc {
            let Some(&b) = chunk.get(i) else { return Ok(i) };
            self.salvage().raw.push(b);
            i += 1;
        }
        loop {
            let Some(j) = find(chunk, i, |b| b == b'\\' || quote.may_close(b)) else {
                self.salvage().raw.extend_from_slice(chunk.get(i..).unwrap_or_default());
                self.state = State::Raw { quote, esc: false };
                return Ok(chunk.len());
            };
            self.salvage().raw.extend_from_slice(chunk.get(i..j).unwrap_or_default());
            let b = chunk.get(j).copied().unwrap_or_default();
            if b == b'\\' {
                self.salvage().raw.push(b);
                match chunk.get(j + 1) {
                    Some(&next) => {
                        self.salvage().raw.push(next);
                        i = j + 2;
                        continue;
                    }
                    None => {
                        self.state = State::Raw { quote, esc: true };
                        return Ok(j + 1);
                    }
                }
            }
            let mark = self.salvage().raw.len();
            self.salvage().raw.push(b);
            if b >= 0x80 {
                self.state = State::RawLead { quote, mark };
                return Ok(j + 1);
            }
            if quote.closes_ascii(b) {
                self.state = State::Ahead { quote, mark, look: Look::default() };
                return Ok(j + 1);
            }
            i = j + 1;
        }
    }

    /// The rest of a multi-byte character that may close the string (`raw[mark]` leads).
    pub(in crate::parse) fn raw_lead(
        &mut self,
        chunk: &[u8],
        mut i: usize,
        quote: RQuote,
        mark: usize,
    ) -> usize {
        let need = if self.salvage().raw.get(mark) == Some(&0xC2) { 2 } else { 3 };
        while self.salvage().raw.len() - mark < need {
            match chunk.get(i) {
                Some(&b) if b & 0xC0 == 0x80 => {
                    self.salvage().raw.push(b);
                    i += 1;
                }
                Some(_) => {
                    self.state = State::Raw { quote, esc: false };
                    return i;
                }
                None => return i,
            }
        }
        let closes = quote.closes_multi(self.salvage().raw.get(mark..).unwrap_or_default());
        self.state = if closes {
            State::Ahead { quote, mark, look: Look::default() }
        } else {
            State::Raw { quote, esc: false }
        };
        i
    }

    /// After a possible closing quote: skip spaces (and line breaks up to a second quote),
    /// then decide on the next byte.
    pub(in crate::parse) fn ahead<S: Sink>(
        &mut self,
        chunk: &[u8],
        mut i: usize,
        quote: RQuote,
        mark: usize,
        mut look: Look,
        sink: &mut S,
    ) -> Result<usize, Failure> {
        while let Some(&b) = chunk.get(i) {
            if std::mem::take(&mut look.escape) {
                if escaped_space(b).is_some() {
                    // Read as spaces, kept as the escape in `raw` (a quote that was content
                    // keeps it). Not as a line break, which would end the string whatever
                    // follows: an inner quote before one (`"he said "hi"\nbye"`) is content.
                    look.spaces = true;
                    self.salvage().raw.push(b);
                    i += 1;
                    continue;
                }
                // Any other escape: decided as on a letter, the backslash read again if the
                // string ends at the quote.
                look.extra = Some(self.salvage().raw.len().saturating_sub(1));
                self.decide(Some(b'a'), quote, mark, look, self.base + i, sink)?;
                return Ok(i);
            }
            if b == b'\\'
                && self.escaped_space_seen
                && look.second.is_none()
                && look.comma.is_none()
                && look.prefix.is_none()
                && look.lead.is_none()
            {
                look.escape = true;
                self.salvage().raw.push(b);
                i += 1;
                continue;
            }
            if let Some(letters) = look.prefix.filter(|_| look.second.is_none()) {
                let more = self.salvage().raw.get(letters..).unwrap_or_default();
                let longer = more.len() < 2 && StrPrefix::of(&[more, &[b]].concat()).is_some();
                if matches!(b, b'\'' | b'"') || longer {
                    // `'a' u'`: the quote opens a prefixed literal, joined to this one.
                    if !longer {
                        look.second = Some(self.salvage().raw.len());
                    }
                    self.salvage().raw.push(b);
                    i += 1;
                    continue;
                }
                // `'a' understand`, `'a' u,`: the letters are text, as if the look-ahead had
                // stopped at the first of them (`decide` reads it from `raw`).
                self.decide(Some(b), quote, mark, look, self.base + i, sink)?;
                return Ok(i);
            }
            if let Some(lead) = look.lead {
                let need = usize::from(utf8_len(self.salvage().raw.get(lead).copied().unwrap_or_default()));
                if b & 0xC0 == 0x80 && self.salvage().raw.len() - lead < need {
                    self.salvage().raw.push(b);
                    i += 1;
                    continue;
                }
                look.lead = None;
                let bytes = self.salvage().raw.get(lead..).unwrap_or_default();
                let c = std::str::from_utf8(bytes).ok().and_then(|s| s.chars().next());
                match c {
                    Some(c) if is_special_space(c) => {
                        look.spaces = true;
                        continue;
                    }
                    Some('“' | '”' | '‘' | '’' | '´') if look.second.is_none() => {
                        look.second = Some(lead);
                        continue;
                    }
                    _ => {
                        // Something else: decide as for a letter; the character is read
                        // again if the string ends at the quote.
                        look.extra = Some(lead);
                        self.decide(Some(b'a'), quote, mark, look, self.base + i, sink)?;
                        return Ok(i);
                    }
                }
            }
            match b {
                b' ' | b'\t' | b'\r' => {
                    if look.second.is_none() {
                        look.spaces = true;
                    }
                    self.salvage().raw.push(b);
                    i += 1;
                }
                b'\n' if look.second.is_none() => {
                    look.newline = true;
                    self.salvage().raw.push(b);
                    i += 1;
                }
                b'\n' if look.comma.is_some() => {
                    self.salvage().raw.push(b);
                    i += 1;
                }
                b',' if look.comma.is_none()
                    && look.prefix.is_none()
                    && self.salvage().stray_quote_may_follow(mark, look) =>
                {
                    look.comma = Some(self.salvage().raw.len());
                    self.salvage().raw.push(b);
                    i += 1;
                }
                b'"' | b'\''
                    if self.salvage().info.doubled
                        && look == Look::default()
                        && self.salvage().raw.get(mark) == Some(&b) =>
                {
                    // `""answer""`: a doubled closing quote.
                    self.close_raw(mark, None, None, None, sink)?;
                    return Ok(i + 1);
                }
                b'"' | b'\'' if look.second.is_none() => {
                    look.second = Some(self.salvage().raw.len());
                    self.salvage().raw.push(b);
                    i += 1;
                }
                b'u' | b'U' | b'r' | b'R' | b'b' | b'B'
                    if look.second.is_none() && self.salvage().prefixed_may_follow(mark, look) =>
                {
                    look.prefix = Some(self.salvage().raw.len());
                    self.salvage().raw.push(b);
                    i += 1;
                }
                0x80..=0xFF => {
                    look.lead = Some(self.salvage().raw.len());
                    self.salvage().raw.push(b);
                    i += 1;
                }
                _ => {
                    self.decide(Some(b), quote, mark, look, self.base + i, sink)?;
                    return Ok(i);
                }
            }
        }
        self.state = State::Ahead { quote, mark, look };
        Ok(i)
    }

    /// Whether the quote at `raw[mark]` ends the string, given the byte `c` after it and its
    /// spaces (`None`: the end of the input) at absolute offset `at`; `c` itself is read
    /// afterwards, in whatever state this leaves.
    fn decide<S: Sink>(
        &mut self,
        c: Option<u8>,
        quote: RQuote,
        mark: usize,
        look: Look,
        at: usize,
        sink: &mut S,
    ) -> Result<(), Failure> {
        let ctx = self.salvage().info.ctx;
        // The input ended after a backslash that followed the quote: read again if the
        // string ends here.
        let look = match look.escape {
            true => Look {
                escape: false,
                extra: look.extra.or(Some(self.salvage().raw.len().saturating_sub(1))),
                ..look
            },
            false => look,
        };
        // Letters after the quote that no quote followed (`'a' un`, or the end) are not a
        // string prefix: decide on the first of them, read again if the string ends here.
        let (c, look) = match look.prefix {
            Some(letters) if look.second.is_none() => {
                let first = self.salvage().raw.get(letters).copied();
                (first, Look { prefix: None, extra: Some(letters), ..look })
            }
            _ => (c, look),
        };
        // The end of the object after `"\n",` makes the second quote stray (below); anything
        // else is decided at the comma, as if the look-ahead had stopped there, and the comma
        // with what follows it is read again if the string ends at a quote.
        let end_of_object = matches!(c, None | Some(b'}'));
        let (c, look) = match look.comma {
            Some(comma) if !end_of_object => (Some(b','), Look { comma: None, extra: Some(comma), ..look }),
            _ => (c, look),
        };
        // Only a `+` (or a comment before one) after the string can join another to it.
        self.salvage().may_join = look.second.is_none() && matches!(c, Some(b'+' | b'/' | b'#'));
        if let Some((comma, _)) = self.salvage().info.candidate.take() {
            // The first quote after `, "` ends a new string where one ends: that string
            // was new.
            let next = if look.second.is_some() { Some(b'"') } else { c };
            let confirms = match ctx {
                Ctx::ObjectValue => next == Some(b':'),
                Ctx::Array => look.newline || matches!(next, None | Some(b',' | b']')),
                Ctx::Top | Ctx::Key => false,
            };
            if confirms && self.cut_at(Stop::Delimiter(comma), at, sink)? {
                return Ok(());
            }
        }
        if let (Some(second), Some(letters)) = (look.second, look.prefix) {
            // `'a' u'b'`, `'a' r'\d'`: a prefixed Python literal, joined to this one.
            return self.close_raw(mark, Some(second), look.extra, Some(letters), sink);
        }
        if let Some(second) = look.second {
            // Another quote followed: this one ends the string, unless that one ends a
            // string where it stands (`"72""`, `"a\n"\n",`).
            // A bracket, `/`, `+` or `#` opening the second of two Python literals is its
            // content (`'a ' '(b)'`, `'a ' '/ b'`, as `pprint` splits a string).
            let opens_content = c.is_some_and(|c| matches!(c, b'[' | b'{' | b'(' | b'/' | b'+' | b'#'))
                && self.salvage().python_pair(mark, second, false);
            let second_ends = c.is_none_or(|c| is_delimiter(c) || matches!(c, b'`' | b'#')) && !opens_content;
            if !second_ends {
                self.close_raw(mark, Some(second), look.extra, None, sink)?;
                return Ok(());
            }
            if end_of_object && self.salvage().stray_quote_may_follow(mark, look) {
                return self.drop_stray_quote(mark, second, look.comma, sink);
            }
            return self.not_end(c, quote, mark, look, at, sink);
        }
        if mark == 0
            && !self.salvage().info.doubled
            && !look.newline
            && matches!(quote, RQuote::Double | RQuote::Single)
        {
            // `""value"`, `"" key"`: a doubled opening quote, read as one.
            if c.is_some_and(|c| !is_delimiter(c) && !matches!(c, b'`' | b'#')) {
                self.salvage().raw.remove(0);
                self.salvage().info.doubled = true;
                self.state = State::Raw { quote, esc: false };
                return Ok(());
            }
        }
        let unclosed = self.salvage().any_unclosed(mark);
        let before = self.salvage().raw.get(..mark).unwrap_or_default();
        let after_word = before.last().is_some_and(|b| !b.is_ascii_whitespace());
        // A quote alone at the start of a line closes the string (`"a [b\n",`).
        let line_start = {
            let text = before.iter().rposition(|b| !matches!(b, b' ' | b'\t' | b'\r'));
            text.and_then(|k| before.get(k)) == Some(&b'\n')
        };
        // A bracket just before the quote, with `,` `:` or a closing bracket after it, was the
        // string's last character (`"b{", ...`, `{"a[": 1}`), not embedded JSON opening.
        let bracket_last = before.last().is_some_and(|b| matches!(b, b'{' | b'[' | b'('));
        let end = match c {
            None => true,
            Some(_) if look.newline => true,
            Some(c) if line_start && is_delimiter(c) => true,
            Some(b',' | b':' | b')' | b']' | b'}') if bracket_last => true,
            // A key ends at its colon, whatever brackets it holds (`{"x{y": 1}`).
            Some(b':') if ctx == Ctx::Key => true,
            // `{"key": "v"alue"}` (json_repair): the quote pairs with the one kept as content
            // before it; the string ends before the brace at the end instead. Not after a
            // quote that looked like a closing one (`"5" tall"}`), where it would end then.
            Some(b'}') if self.salvage().pairs_inner_quote() => false,
            Some(c @ (b')' | b']' | b'}')) => !self.salvage().unclosed(mark, c),
            // `{ "a" : "{ b": {} }" }` (json_repair): a `{` followed by a word opens no
            // object, so a quote before a colon inside it ends the string.
            Some(b':')
                if self.salvage().python_style
                    && ctx == Ctx::ObjectValue
                    && self.salvage().in_bare_brace(mark) =>
            {
                true
            }
            // Inside brackets the string opened (`"see {"a": 1} here"`), only the end of
            // the brackets or of the line ends it.
            Some(_) if unclosed => false,
            Some(b'`' | b'#') => true,
            // `"lorem "ipsum", sic."`: the quote closes an inner quotation.
            Some(b',') if self.salvage().info.inner_open && ctx != Ctx::Key => false,
            Some(c) if is_delimiter(c) => true,
            Some(c) if c.is_ascii_digit() => true,
            // `["value1" value2"]`: in an array, a quote after a word and before a space
            // ends the item.
            Some(_) => {
                ctx == Ctx::Array && look.spaces && after_word && !self.salvage().info.inner_open && !unclosed
            }
        };
        if end {
            self.close_raw(mark, None, look.extra, None, sink)?;
            return Ok(());
        }
        self.not_end(c, quote, mark, look, at, sink)
    }

    /// The quote at `raw[mark]` is not followed by what ends a string: look before it.
    fn not_end<S: Sink>(
        &mut self,
        c: Option<u8>,
        quote: RQuote,
        mark: usize,
        look: Look,
        at: usize,
        sink: &mut S,
    ) -> Result<(), Failure> {
        let ctx = self.salvage().info.ctx;
        if !self.salvage().any_unclosed(mark) {
            let before = self.salvage().raw.get(..mark).unwrap_or_default();
            let prev = before.iter().rposition(|&b| !matches!(b, b' ' | b'\t' | b'\r' | b'\n'));
            let prev_byte = prev.and_then(|k| before.get(k).copied());
            let cut = match (prev, prev_byte, ctx) {
                // `, "`: decided by the next quote.
                (Some(k), Some(b','), Ctx::ObjectValue | Ctx::Array) => {
                    self.salvage().info.candidate = Some((k, mark));
                    None
                }
                // `{"a":"b,"c":1}` (jsonrepair): the string ended before that comma.
                (Some(k), Some(b','), Ctx::Top | Ctx::Key) => Some(Stop::Delimiter(k)),
                // `{"key:"value"}`: the key ended before its colon.
                (Some(k), Some(b':'), Ctx::Key) => Some(Stop::Delimiter(k)),
                // `{"a": "first, b: "second"}`: a member without quotes began at that comma.
                (Some(k), Some(b':'), Ctx::ObjectValue) => bare_member(before, k).map(Stop::Delimiter),
                (_, Some(_), Ctx::ObjectValue) => None,
                // After another delimiter and not before one: the string ended at its first
                // delimiter.
                (_, Some(p), _) if is_delimiter(p) => match self.salvage().stop(mark) {
                    Some(stop) => Some(stop),
                    None => {
                        self.close_raw(mark, look.second, look.extra, None, sink)?;
                        return Ok(());
                    }
                },
                _ => None,
            };
            if let Some(stop) = cut {
                if !self.cut_at(stop, at, sink)? {
                    self.close_raw(mark, look.second, look.extra, None, sink)?;
                }
                return Ok(());
            }
        }
        // The quote is content.
        let before = self.salvage().raw.get(..mark).unwrap_or_default();
        let after_space = before.last().is_none_or(u8::is_ascii_whitespace);
        let after_word = !after_space;
        let opens = after_space && !look.spaces && !look.newline && c.is_some();
        if after_word
            && (look.spaces || look.newline)
            && !self.salvage().info.inner_open
            && self.salvage().info.first_closing.is_none()
        {
            self.salvage().info.first_closing = Some(mark);
        }
        self.salvage().info.inner_open = opens;
        self.salvage().info.open_at = if opens { Some(mark) } else { None };
        // A content quote right before a word opens an inner quotation (`v"alue`, `say
        // "hi`) that the next content quote closes.
        let before_word = !look.spaces
            && !look.newline
            && look.second.is_none()
            && c.is_some_and(|c| c.is_ascii_alphanumeric());
        self.salvage().info.unpaired = !self.salvage().info.unpaired && before_word;
        sink.repair(RepairKind::UnescapedQuote, self.salvage().info.content_at + mark);
        match look.second {
            Some(second) if self.salvage().raw.get(second).is_some_and(|&b| quote.closes_ascii(b)) => {
                // The quote after it may end the string.
                let read = look.extra.unwrap_or(self.salvage().raw.len());
                let after = Look { spaces: read > second + 1, extra: look.extra, ..Look::default() };
                self.state = State::Ahead { quote, mark: second, look: after };
                self.decide(c, quote, second, after, at, sink)
            }
            _ => {
                self.state = State::Raw { quote, esc: false };
                Ok(())
            }
        }
    }

    /// `{"a": "b"\n",}`: the quote at `raw[mark]` ends the string and the `second` one,
    /// which closes nothing, is dropped with the spaces around it; a `comma` after it is read
    /// again (a trailing comma before the end of the object).
    fn drop_stray_quote<S: Sink>(
        &mut self,
        mark: usize,
        second: usize,
        comma: Option<usize>,
        sink: &mut S,
    ) -> Result<(), Failure> {
        sink.repair(RepairKind::StrayQuote, self.salvage().info.content_at + second);
        if let Some(comma) = comma {
            // One byte: never refused.
            let salvage = self.salvage();
            let origin = salvage.info.content_at + comma;
            salvage.push_replay_always(vec![b','], origin);
        }
        self.close_raw(mark, None, None, None, sink)
    }

    /// End the string at `stop` and read the rest of its bytes again, if the budget
    /// allows. Returns whether it did.
    fn cut_at<S: Sink>(&mut self, stop: Stop, at: usize, sink: &mut S) -> Result<bool, Failure> {
        let (end, resume) = match stop {
            Stop::Delimiter(k) => (k, k),
            Stop::Quote(k) => (k, k + 1),
        };
        let tail = self.salvage().raw.get(resume..).unwrap_or_default().to_vec();
        let origin = self.salvage().info.content_at + resume;
        if !self.salvage().push_replay(tail, origin, at) {
            return Ok(false);
        }
        self.salvage().raw.truncate(end);
        if matches!(stop, Stop::Delimiter(_)) {
            trim_end(&mut self.salvage().raw);
        }
        sink.repair(RepairKind::MissingQuote, self.salvage().info.content_at + end);
        self.state = State::Between;
        // The rest is read again: a `+` may be in it.
        self.salvage().may_join = true;
        self.deliver_raw(true, sink)?;
        Ok(true)
    }

    /// The quote at `raw[mark]` ends the string. A `second` quote after it opens the next
    /// string, whose content starts with the spaces after that quote, and which the string
    /// prefix at `raw[letters..second]` (if any) qualifies; bytes from `extra` on are read
    /// again.
    fn close_raw<S: Sink>(
        &mut self,
        mark: usize,
        second: Option<usize>,
        extra: Option<usize>,
        letters: Option<usize>,
        sink: &mut S,
    ) -> Result<(), Failure> {
        let prefix = letters.and_then(|k| {
            let word = self.salvage().raw.get(k..second?)?;
            Some((StrPrefix::of(word)?, self.salvage().info.content_at + k))
        });
        let next = second.and_then(|s| {
            let (quote, len) = match self.salvage().raw.get(s..)? {
                [b'"', ..] => (RQuote::Double, 1),
                [b'\'', ..] => (RQuote::Single, 1),
                [0xE2, 0x80, 0x9C | 0x9D, ..] => (RQuote::DoubleLike, 3),
                [0xC2, ..] => (RQuote::SingleLike, 2),
                _ => (RQuote::SingleLike, 3),
            };
            let end = extra.unwrap_or(self.salvage().raw.len());
            let spaces = self.salvage().raw.get(s + len..end).unwrap_or_default().to_vec();
            Some((quote, self.salvage().info.content_at + s, len, spaces))
        });
        if let Some(from) = extra {
            let tail = self.salvage().raw.get(from..).unwrap_or_default().to_vec();
            let origin = self.salvage().info.content_at + from;
            // A few bytes at most: never refused.
            self.salvage().push_replay_always(tail, origin);
        }
        // Two Python literals, which Python joins into one (`'ab'`), as the lenient mode
        // reads them (see `python_pair`).
        let python_pair =
            second.is_some_and(|second| self.salvage().python_pair(mark, second, prefix.is_some()));
        self.salvage().raw.truncate(mark);
        self.state = State::Between;
        if python_pair {
            self.salvage().may_join = true;
        }
        self.deliver_raw(true, sink)?;
        if let Some((quote, offset, len, spaces)) = next {
            if let Some((_, at)) = prefix.filter(|_| python_pair) {
                // Recorded as the lenient mode records a prefixed literal after another.
                sink.repair(RepairKind::AdjacentStrings, at);
                sink.repair(RepairKind::StringPrefix, at);
            }
            self.start = offset;
            let kind =
                if quote == RQuote::Single { RepairKind::SingleQuotes } else { RepairKind::SmartQuotes };
            if quote != RQuote::Double {
                sink.repair(kind, offset);
            }
            if python_pair {
                if prefix.is_none() {
                    sink.repair(RepairKind::AdjacentStrings, offset);
                }
                self.salvage().concat = true;
            }
            self.begin_raw_at(quote, offset + len, sink);
            self.salvage().raw = spaces;
            self.salvage().info.prefix = prefix.filter(|_| python_pair).map(|(prefix, _)| prefix);
            self.salvage().info.python_joined = python_pair;
        }
        Ok(())
    }

    /// The string at the end of the input.
    pub(in crate::parse) fn end_raw_string<S: Sink>(
        &mut self,
        sink: &mut S,
        complete: bool,
    ) -> Result<(), Failure> {
        let end = self.base;
        loop {
            match self.state {
                State::Ahead { quote, mark, look } => {
                    // After a backslash, decided as on that backslash, as before the escape
                    // was held.
                    let next = look.escape.then_some(b'\\');
                    self.decide(next, quote, mark, look, end, sink)?;
                    if self.has_replay() {
                        return Ok(());
                    }
                }
                State::RawLead { quote, .. } => self.state = State::Raw { quote, esc: false },
                State::Raw { .. } => break,
                _ => return Ok(()),
            }
        }
        // A closing code fence at the end belongs to the text around the value.
        let salvage = self.salvage();
        let mut upto = salvage.raw.len();
        while upto > 0 && salvage.raw.get(upto - 1).is_some_and(u8::is_ascii_whitespace) {
            upto -= 1;
        }
        let fence = salvage.raw.get(..upto).is_some_and(|raw| raw.ends_with(b"```"));
        if fence {
            while upto > 0 && salvage.raw.get(upto - 1) == Some(&b'`') {
                upto -= 1;
            }
        }
        // Text that will not grow (`ParseOptions::stream_stable` false): what is cut off
        // here is final, so quotes nothing closes were never closed.
        let settled = complete && !salvage.stream_stable;
        let before = salvage.raw.get(..upto).unwrap_or_default();
        let last = before.iter().rposition(|&b| !b.is_ascii_whitespace());
        let last_byte = last.and_then(|k| before.get(k).copied());
        let member = if salvage.info.ctx == Ctx::ObjectValue { next_member(before, settled) } else { None };
        // A quotation still open at the end was the closing quote (`"value} "tail}`).
        let closing = salvage.info.first_closing.or(salvage.info.open_at).filter(|&k| k < upto);
        let stop = match (salvage.info.ctx, last_byte) {
            // `{"a": "first, b: 1}`: a member without quotes began at that comma.
            (Ctx::ObjectValue, _) if member.is_some() => member.map(Stop::Delimiter),
            // `{"a": 1, "b: 2`, settled: the key's closing quote was missing before its colon.
            (Ctx::Key, _) if settled => before.iter().position(|&b| b == b':').map(Stop::Delimiter),
            // `{"b": "xxxxx" true}`: the string ended at the quote after its last word.
            (Ctx::ObjectValue, _) if closing.is_some() => closing.map(Stop::Quote),
            // `{"a": "b c }`: the string ended before the closing brackets.
            (Ctx::ObjectValue, Some(b'}' | b']')) => {
                let mut k = upto;
                while k > 0
                    && salvage
                        .raw
                        .get(k - 1)
                        .is_some_and(|&b| matches!(b, b'}' | b']') || b.is_ascii_whitespace())
                {
                    k -= 1;
                }
                Some(Stop::Delimiter(k))
            }
            // `["a, b]`: the closing quote belongs before the first delimiter.
            (_, Some(b)) if is_delimiter(b) => salvage.info.stop(&salvage.raw, upto),
            _ => None,
        };
        let stop = stop.or(if fence { Some(Stop::Delimiter(upto)) } else { None });
        if let Some(stop) = stop {
            if self.cut_at(stop, end, sink)? {
                return Ok(());
            }
        }
        if !complete {
            return Err(Fail::Truncated { inside: "a string" }.into());
        }
        sink.repair(RepairKind::CompletedTruncated, end);
        self.state = State::Between;
        if self.salvage().raw.is_empty() {
            // A lone quote at the end opens nothing.
            return Ok(());
        }
        // jsonrepair puts the missing closing quote before trailing spaces (not before an
        // escaped line break, which is content, as the text may go on after it). Settled
        // text does not go on: its escapes are complete, and `deliver_raw` drops trailing
        // white space after decoding them, as json_repair does.
        if !settled {
            drop_partial_escape(&mut self.salvage().raw);
        }
        trim_end(&mut self.salvage().raw);
        self.deliver_raw(false, sink)
    }

    /// Decode `raw` and deliver the string (`closed`: by a quote, not by the end).
    fn deliver_raw<S: Sink>(&mut self, closed: bool, sink: &mut S) -> Result<(), Failure> {
        let mut raw = std::mem::take(&mut self.salvage().raw);
        if closed && self.salvage().python_style {
            // json_repair reads a line break right before the closing quote as layout, not
            // content. jsonrepair (the default style) keeps it, escaped, as every raw control
            // character in a string: content is never dropped.
            let kept =
                raw.iter().rposition(|&b| !matches!(b, b' ' | b'\t' | b'\r' | b'\n')).map_or(0, |k| k + 1);
            if raw.get(kept..).unwrap_or_default().contains(&b'\n') {
                raw.truncate(kept);
            }
        }
        let text = decode_whole(&raw, self.salvage().decoding(closed), sink);
        raw.clear();
        self.salvage().raw = raw;
        let mut text = text?;
        if !closed && !self.salvage().stream_stable {
            // Cut off and settled: the missing quote goes before decoded trailing white space
            // too (`"val\n` is `val`).
            text.truncate(text.trim_end().len());
        }
        if self.phase == Phase::Start {
            self.begin_value(self.start, b'"');
        }
        let may_join = std::mem::replace(&mut self.salvage().may_join, true);
        self.deliver_string(Str::Owned(text), self.start, may_join, sink)
    }
}

impl RepairState {
    /// Whether the quote at `raw[mark]`, closing this string, may end a Python `'` literal
    /// that an adjacent literal joins (`'a' 'b'`): not where a key belongs.
    fn python_literal_ends(&self, mark: usize) -> bool {
        self.raw.get(mark) == Some(&b'\'') && self.info.ctx != Ctx::Key
    }

    /// Whether the quote at `raw[mark]`, closing this string, and the quote at
    /// `raw[second]` (after spaces, or after a string prefix when `prefixed`) join two Python
    /// literals: `'a' 'b'`, `'a''b'`, `'a' u'b'`, and `"it's " 'b'` or `'a ' "it's"`
    /// (Python's `repr` and `pprint` quote a piece holding a `'` with `"`). Not where a key
    /// belongs (`{'a' 'b'}` lacks a colon). A `"` string after a `"` string stays a missing
    /// comma, as jsonrepair reads it, unless it continues such a join.
    pub(super) fn python_pair(&self, mark: usize, second: usize, prefixed: bool) -> bool {
        self.info.ctx != Ctx::Key
            && match (self.raw.get(mark), self.raw.get(second)) {
                (Some(b'\''), Some(b'\'' | b'"')) | (Some(b'"'), Some(b'\'')) => true,
                (Some(b'"'), Some(b'"')) => self.info.python_joined,
                (Some(b'\''), _) => prefixed,
                _ => false,
            }
    }

    /// Whether a letter after the quote at `raw[mark]` (and `look`) may start the prefix
    /// of an adjacent literal (`'a' u'b'`, `'a'r'b'`): not after a quote that spaces
    /// precede and that the letter touches, which opens an inner quotation (`'say 'b' x'`),
    /// nor in a string that already kept a quote as content (`'a' f'b'`: `f` is no prefix,
    /// so the quote after it is not a literal's end either).
    fn prefixed_may_follow(&self, mark: usize, look: Look) -> bool {
        let touches_space = self.raw.get(..mark).and_then(<[u8]>::last).is_some_and(u8::is_ascii_whitespace);
        look.comma.is_none()
            && look.extra.is_none()
            && look.lead.is_none()
            && self.python_literal_ends(mark)
            && self.info.first_closing.is_none()
            && !self.info.inner_open
            && (look.spaces || look.newline || !touches_space)
    }

    /// Whether a quote before `}` is content because it closes an inner quotation, as
    /// json_repair reads it: in an object value, after a content quote that opened one,
    /// when no quote looked like the string's closing quote.
    fn pairs_inner_quote(&self) -> bool {
        self.python_style
            && self.info.ctx == Ctx::ObjectValue
            && self.info.unpaired
            && self.info.first_closing.is_none()
    }

    /// Whether, in an object value, the quote at `raw[mark]` was followed by spaces only and
    /// then by the same quote again (`"b"\n"`): if the object ends after that second quote
    /// (and perhaps a comma), no member follows for it to close, so it is stray.
    fn stray_quote_may_follow(&self, mark: usize, look: Look) -> bool {
        self.info.ctx == Ctx::ObjectValue
            && look.extra.is_none()
            && look.second.is_some_and(|second| {
                let first = self.raw.get(mark);
                first.is_some_and(u8::is_ascii) && self.raw.get(second) == first
            })
    }

    /// How the string read raw is decoded (`closed`: by a quote, not by the end), by the
    /// one escape decoder: a partial escape at the end of a cut-off string is dropped,
    /// unless the text is settled (`stream_stable` false: the escape is all there will be,
    /// an invalid one).
    fn decoding(&self, closed: bool) -> Whole {
        let prefix = self.info.prefix;
        Whole {
            at: self.info.content_at,
            raw: prefix.is_some_and(|prefix| prefix.raw),
            python: self.info.single || prefix.is_some(),
            single: self.info.single,
            closed,
            escapes_end: closed || !self.stream_stable,
        }
    }
}
