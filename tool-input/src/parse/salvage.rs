//! [`ParseMode::Repair`](super::ParseMode::Repair): strings whose quotes cannot be trusted,
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

use super::lexer::{find, hex4, Ctx, Fail, Failure, Lexer, Phase, Sink, State, Token};
use super::RepairKind;

/// Which quotes close a [`State::Raw`] string (jsonrepair's families).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RQuote {
    /// Opened with `"`: only `"` closes.
    Double,
    /// Opened with `'`: only `'` closes.
    Single,
    /// Opened with `“` or `”`: `"`, `“` or `”` closes.
    DoubleLike,
    /// Opened with `‘`, `’`, a backtick or `´`: any of those or `'` closes.
    SingleLike,
}

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
    fn closes_multi(self, bytes: &[u8]) -> bool {
        match self {
            RQuote::DoubleLike => matches!(bytes, [0xE2, 0x80, 0x9C | 0x9D]),
            RQuote::SingleLike => matches!(bytes, [0xE2, 0x80, 0x98 | 0x99] | [0xC2, 0xB4]),
            RQuote::Double | RQuote::Single => false,
        }
    }

    /// Whether the ASCII byte `b` closes this string.
    fn closes_ascii(self, b: u8) -> bool {
        match self {
            RQuote::Double | RQuote::DoubleLike => b == b'"',
            RQuote::Single => b == b'\'',
            RQuote::SingleLike => b == b'\'' || b == b'`',
        }
    }
}

/// Where a string must end when its closing quote was missing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stop {
    /// At the delimiter `raw[k]` (which is read again).
    Delimiter(usize),
    /// At the quote `raw[k]`, which was taken for content.
    Quote(usize),
}

/// What was seen after a possible closing quote ([`State::Ahead`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Look {
    /// A quote that followed (its index in `raw`).
    second: Option<usize>,
    /// Spaces or tabs followed the quote.
    spaces: bool,
    /// A line break followed the quote.
    newline: bool,
    /// A multi-byte character being read after the quote (its index in `raw`).
    lead: Option<usize>,
    /// Where bytes that are neither spaces nor the quotes start in `raw` (a multi-byte
    /// character read to classify it): read again if the string ends at the quote.
    extra: Option<usize>,
    /// A comma that followed the second quote in an object value (its index in `raw`):
    /// whether anything but the end of the object follows it decides both quotes.
    comma: Option<usize>,
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

/// Text without quotes ([`State::Unquoted`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Unq {
    /// An object key: it also ends at `:` and at quotes.
    pub(crate) key: bool,
    /// It started as a number: if it still is one, it is one.
    number: bool,
    /// Brackets opened inside the text (`words{in brackets}`) and not yet closed.
    depth: u8,
    /// Only spaces since the first word: a `(` makes it a function call.
    pub(crate) call: bool,
    /// Inside a URL (`https://...`): only URL characters continue it.
    url: bool,
    /// A `/` (at `Lexer::slash_at`) waits for the next byte: a comment, or content.
    pub(crate) slash: bool,
    /// Bytes of a possible typographic quote ending a key, held in `Lexer::multi`.
    held: u8,
    /// json_repair's reading of an object value: the text was read on past its first comma
    /// (at this index in `Lexer::raw`), looking for the quote that closes it.
    comma: Option<usize>,
    /// That closing quote was just read (the last byte of `raw`): the next byte decides.
    quote: bool,
}

impl Unq {
    pub(crate) fn value() -> Unq {
        Unq {
            key: false,
            number: false,
            depth: 0,
            call: false,
            url: false,
            slash: false,
            held: 0,
            comma: None,
            quote: false,
        }
    }

    pub(crate) fn key() -> Unq {
        Unq { key: true, ..Unq::value() }
    }

    /// Text that started as a number (`0789`, `2024-10-18`, `1/3`, `2/*c*/`).
    pub(crate) fn number() -> Unq {
        Unq { number: true, ..Unq::value() }
    }
}

impl Lexer {
    /// Start a [`State::Raw`] string whose one-byte opening quote is at `start`.
    pub(crate) fn begin_raw<S: Sink>(&mut self, quote: RQuote, sink: &S) {
        self.begin_raw_at(quote, self.start + 1, sink);
    }

    /// Start a [`State::Raw`] string whose content starts at absolute offset `content_at`.
    pub(crate) fn begin_raw_at<S: Sink>(&mut self, quote: RQuote, content_at: usize, sink: &S) {
        self.raw.clear();
        let single = matches!(quote, RQuote::Single | RQuote::SingleLike);
        self.info = RawInfo { content_at, ctx: sink.context(), single, ..RawInfo::default() };
        self.state = State::Raw { quote, esc: false };
    }

    /// String content: collected raw up to the next backslash or possible closing quote.
    pub(crate) fn raw_string(
        &mut self,
        chunk: &[u8],
        mut i: usize,
        quote: RQuote,
        esc: bool,
    ) -> Result<usize, Failure> {
        if esc {
            let Some(&b) = chunk.get(i) else { return Ok(i) };
            self.raw.push(b);
            i += 1;
        }
        loop {
            let Some(j) = find(chunk, i, |b| b == b'\\' || quote.may_close(b)) else {
                self.raw.extend_from_slice(chunk.get(i..).unwrap_or_default());
                self.state = State::Raw { quote, esc: false };
                return Ok(chunk.len());
            };
            self.raw.extend_from_slice(chunk.get(i..j).unwrap_or_default());
            let b = chunk.get(j).copied().unwrap_or_default();
            if b == b'\\' {
                self.raw.push(b);
                match chunk.get(j + 1) {
                    Some(&next) => {
                        self.raw.push(next);
                        i = j + 2;
                        continue;
                    }
                    None => {
                        self.state = State::Raw { quote, esc: true };
                        return Ok(j + 1);
                    }
                }
            }
            let mark = self.raw.len();
            self.raw.push(b);
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
    pub(crate) fn raw_lead(&mut self, chunk: &[u8], mut i: usize, quote: RQuote, mark: usize) -> usize {
        let need = if self.raw.get(mark) == Some(&0xC2) { 2 } else { 3 };
        while self.raw.len() - mark < need {
            match chunk.get(i) {
                Some(&b) if b & 0xC0 == 0x80 => {
                    self.raw.push(b);
                    i += 1;
                }
                Some(_) => {
                    self.state = State::Raw { quote, esc: false };
                    return i;
                }
                None => return i,
            }
        }
        let closes = quote.closes_multi(self.raw.get(mark..).unwrap_or_default());
        self.state = if closes {
            State::Ahead { quote, mark, look: Look::default() }
        } else {
            State::Raw { quote, esc: false }
        };
        i
    }

    /// After a possible closing quote: skip spaces (and line breaks up to a second quote),
    /// then decide on the next byte.
    pub(crate) fn ahead<S: Sink>(
        &mut self,
        chunk: &[u8],
        mut i: usize,
        quote: RQuote,
        mark: usize,
        mut look: Look,
        sink: &mut S,
    ) -> Result<usize, Failure> {
        while let Some(&b) = chunk.get(i) {
            if let Some(lead) = look.lead {
                let need = usize::from(utf8_need(self.raw.get(lead).copied().unwrap_or_default()));
                if b & 0xC0 == 0x80 && self.raw.len() - lead < need {
                    self.raw.push(b);
                    i += 1;
                    continue;
                }
                look.lead = None;
                let bytes = self.raw.get(lead..).unwrap_or_default();
                let c = std::str::from_utf8(bytes).ok().and_then(|s| s.chars().next());
                match c {
                    Some(c) if is_unicode_space(c) => {
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
                    self.raw.push(b);
                    i += 1;
                }
                b'\n' if look.second.is_none() => {
                    look.newline = true;
                    self.raw.push(b);
                    i += 1;
                }
                b'\n' if look.comma.is_some() => {
                    self.raw.push(b);
                    i += 1;
                }
                b',' if look.comma.is_none() && self.stray_quote_may_follow(mark, look) => {
                    look.comma = Some(self.raw.len());
                    self.raw.push(b);
                    i += 1;
                }
                b'"' | b'\''
                    if self.info.doubled && look == Look::default() && self.raw.get(mark) == Some(&b) =>
                {
                    // `""answer""`: a doubled closing quote.
                    self.close_raw(mark, None, None, sink)?;
                    return Ok(i + 1);
                }
                b'"' | b'\'' if look.second.is_none() => {
                    look.second = Some(self.raw.len());
                    self.raw.push(b);
                    i += 1;
                }
                0x80..=0xFF => {
                    look.lead = Some(self.raw.len());
                    self.raw.push(b);
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
        let ctx = self.info.ctx;
        // The end of the object after `"\n",` makes the second quote stray (below); anything
        // else is decided at the comma, as if the look-ahead had stopped there, and the comma
        // with what follows it is read again if the string ends at a quote.
        let end_of_object = matches!(c, None | Some(b'}'));
        let (c, look) = match look.comma {
            Some(comma) if !end_of_object => (Some(b','), Look { comma: None, extra: Some(comma), ..look }),
            _ => (c, look),
        };
        // Only a `+` (or a comment before one) after the string can join another to it.
        self.may_join = look.second.is_none() && matches!(c, Some(b'+' | b'/' | b'#'));
        if let Some((comma, _)) = self.info.candidate.take() {
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
        if let Some(second) = look.second {
            // Another quote followed: this one ends the string, unless that one ends a
            // string where it stands (`"72""`, `"a\n"\n",`).
            let second_ends = c.is_none_or(|c| is_delimiter(c) || matches!(c, b'`' | b'#'));
            if !second_ends {
                self.close_raw(mark, Some(second), look.extra, sink)?;
                return Ok(());
            }
            if end_of_object && self.stray_quote_may_follow(mark, look) {
                return self.drop_stray_quote(mark, second, look.comma, sink);
            }
            return self.not_end(c, quote, mark, look, at, sink);
        }
        if mark == 0
            && !self.info.doubled
            && !look.newline
            && matches!(quote, RQuote::Double | RQuote::Single)
        {
            // `""value"`, `"" key"`: a doubled opening quote, read as one.
            if c.is_some_and(|c| !is_delimiter(c) && !matches!(c, b'`' | b'#')) {
                self.raw.remove(0);
                self.info.doubled = true;
                self.state = State::Raw { quote, esc: false };
                return Ok(());
            }
        }
        let unclosed = self.info.any_unclosed(&self.raw, mark);
        let before = self.raw.get(..mark).unwrap_or_default();
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
            Some(b'}') if self.pairs_inner_quote() => false,
            Some(c @ (b')' | b']' | b'}')) => !self.info.unclosed(&self.raw, mark, c),
            // `{ "a" : "{ b": {} }" }` (json_repair): a `{` followed by a word opens no
            // object, so a quote before a colon inside it ends the string.
            Some(b':')
                if self.python_style
                    && ctx == Ctx::ObjectValue
                    && self.info.in_bare_brace(&self.raw, mark) =>
            {
                true
            }
            // Inside brackets the string opened (`"see {"a": 1} here"`), only the end of
            // the brackets or of the line ends it.
            Some(_) if unclosed => false,
            Some(b'`' | b'#') => true,
            // `"lorem "ipsum", sic."`: the quote closes an inner quotation.
            Some(b',') if self.info.inner_open && ctx != Ctx::Key => false,
            Some(c) if is_delimiter(c) => true,
            Some(c) if c.is_ascii_digit() => true,
            // `["value1" value2"]`: in an array, a quote after a word and before a space
            // ends the item.
            Some(_) => ctx == Ctx::Array && look.spaces && after_word && !self.info.inner_open && !unclosed,
        };
        if end {
            self.close_raw(mark, None, look.extra, sink)?;
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
        let ctx = self.info.ctx;
        if !self.info.any_unclosed(&self.raw, mark) {
            let before = self.raw.get(..mark).unwrap_or_default();
            let prev = before.iter().rposition(|&b| !matches!(b, b' ' | b'\t' | b'\r' | b'\n'));
            let prev_byte = prev.and_then(|k| before.get(k).copied());
            let cut = match (prev, prev_byte, ctx) {
                // `, "`: decided by the next quote.
                (Some(k), Some(b','), Ctx::ObjectValue | Ctx::Array) => {
                    self.info.candidate = Some((k, mark));
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
                (_, Some(p), _) if is_delimiter(p) => match self.info.stop(&self.raw, mark) {
                    Some(stop) => Some(stop),
                    None => {
                        self.close_raw(mark, look.second, look.extra, sink)?;
                        return Ok(());
                    }
                },
                _ => None,
            };
            if let Some(stop) = cut {
                if !self.cut_at(stop, at, sink)? {
                    self.close_raw(mark, look.second, look.extra, sink)?;
                }
                return Ok(());
            }
        }
        // The quote is content.
        let before = self.raw.get(..mark).unwrap_or_default();
        let after_space = before.last().is_none_or(u8::is_ascii_whitespace);
        let after_word = !after_space;
        let opens = after_space && !look.spaces && !look.newline && c.is_some();
        if after_word
            && (look.spaces || look.newline)
            && !self.info.inner_open
            && self.info.first_closing.is_none()
        {
            self.info.first_closing = Some(mark);
        }
        self.info.inner_open = opens;
        self.info.open_at = if opens { Some(mark) } else { None };
        // A content quote right before a word opens an inner quotation (`v"alue`, `say
        // "hi`) that the next content quote closes.
        let before_word = !look.spaces
            && !look.newline
            && look.second.is_none()
            && c.is_some_and(|c| c.is_ascii_alphanumeric());
        self.info.unpaired = !self.info.unpaired && before_word;
        sink.repair(RepairKind::UnescapedQuote, self.info.content_at + mark);
        match look.second {
            Some(second) if self.raw.get(second).is_some_and(|&b| quote.closes_ascii(b)) => {
                // The quote after it may end the string.
                let read = look.extra.unwrap_or(self.raw.len());
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
        sink.repair(RepairKind::StrayQuote, self.info.content_at + second);
        if let Some(comma) = comma {
            // One byte: never refused.
            self.push_replay_always(vec![b','], self.info.content_at + comma);
        }
        self.close_raw(mark, None, None, sink)
    }

    /// End the string at `stop` and read the rest of its bytes again, if the budget
    /// allows. Returns whether it did.
    fn cut_at<S: Sink>(&mut self, stop: Stop, at: usize, sink: &mut S) -> Result<bool, Failure> {
        let (end, resume) = match stop {
            Stop::Delimiter(k) => (k, k),
            Stop::Quote(k) => (k, k + 1),
        };
        let tail = self.raw.get(resume..).unwrap_or_default().to_vec();
        let origin = self.info.content_at + resume;
        if !self.push_replay(tail, origin, at) {
            return Ok(false);
        }
        self.raw.truncate(end);
        if matches!(stop, Stop::Delimiter(_)) {
            trim_end(&mut self.raw);
        }
        sink.repair(RepairKind::MissingQuote, self.info.content_at + end);
        self.state = State::Between;
        // The rest is read again: a `+` may be in it.
        self.may_join = true;
        self.deliver_raw(true, sink)?;
        Ok(true)
    }

    /// The quote at `raw[mark]` ends the string. A `second` quote after it opens the next
    /// string, whose content starts with the spaces after that quote; bytes from `extra`
    /// on are read again.
    fn close_raw<S: Sink>(
        &mut self,
        mark: usize,
        second: Option<usize>,
        extra: Option<usize>,
        sink: &mut S,
    ) -> Result<(), Failure> {
        let next = second.and_then(|s| {
            let (quote, len) = match self.raw.get(s..)? {
                [b'"', ..] => (RQuote::Double, 1),
                [b'\'', ..] => (RQuote::Single, 1),
                [0xE2, 0x80, 0x9C | 0x9D, ..] => (RQuote::DoubleLike, 3),
                [0xC2, ..] => (RQuote::SingleLike, 2),
                _ => (RQuote::SingleLike, 3),
            };
            let end = extra.unwrap_or(self.raw.len());
            let spaces = self.raw.get(s + len..end).unwrap_or_default().to_vec();
            Some((quote, self.info.content_at + s, len, spaces))
        });
        if let Some(from) = extra {
            let tail = self.raw.get(from..).unwrap_or_default().to_vec();
            let origin = self.info.content_at + from;
            // A few bytes at most: never refused.
            self.push_replay_always(tail, origin);
        }
        self.raw.truncate(mark);
        self.state = State::Between;
        self.deliver_raw(true, sink)?;
        if let Some((quote, offset, len, spaces)) = next {
            self.start = offset;
            let kind =
                if quote == RQuote::Single { RepairKind::SingleQuotes } else { RepairKind::SmartQuotes };
            if quote != RQuote::Double {
                sink.repair(kind, offset);
            }
            self.begin_raw_at(quote, offset + len, sink);
            self.raw = spaces;
        }
        Ok(())
    }

    /// The string at the end of the input.
    pub(crate) fn end_raw_string<S: Sink>(&mut self, sink: &mut S, complete: bool) -> Result<(), Failure> {
        let end = self.base;
        loop {
            match self.state {
                State::Ahead { quote, mark, look } => {
                    self.decide(None, quote, mark, look, end, sink)?;
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
        let mut upto = self.raw.len();
        while upto > 0 && self.raw.get(upto - 1).is_some_and(u8::is_ascii_whitespace) {
            upto -= 1;
        }
        let fence = self.raw.get(..upto).is_some_and(|raw| raw.ends_with(b"```"));
        if fence {
            while upto > 0 && self.raw.get(upto - 1) == Some(&b'`') {
                upto -= 1;
            }
        }
        // Text that will not grow (`ParseOptions::stream_stable` false): what is cut off
        // here is final, so quotes nothing closes were never closed.
        let settled = complete && !self.stream_stable;
        let before = self.raw.get(..upto).unwrap_or_default();
        let last = before.iter().rposition(|&b| !b.is_ascii_whitespace());
        let last_byte = last.and_then(|k| before.get(k).copied());
        let member = if self.info.ctx == Ctx::ObjectValue { next_member(before, settled) } else { None };
        // A quotation still open at the end was the closing quote (`"value} "tail}`).
        let closing = self.info.first_closing.or(self.info.open_at).filter(|&k| k < upto);
        let stop = match (self.info.ctx, last_byte) {
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
                    && self
                        .raw
                        .get(k - 1)
                        .is_some_and(|&b| matches!(b, b'}' | b']') || b.is_ascii_whitespace())
                {
                    k -= 1;
                }
                Some(Stop::Delimiter(k))
            }
            // `["a, b]`: the closing quote belongs before the first delimiter.
            (_, Some(b)) if is_delimiter(b) => self.info.stop(&self.raw, upto),
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
        if self.raw.is_empty() {
            // A lone quote at the end opens nothing.
            return Ok(());
        }
        // jsonrepair puts the missing closing quote before trailing spaces (not before an
        // escaped line break, which is content, as the text may go on after it). Settled
        // text does not go on: its escapes are complete, and `deliver_raw` drops trailing
        // white space after decoding them, as json_repair does.
        if !settled {
            drop_partial_escape(&mut self.raw);
        }
        trim_end(&mut self.raw);
        self.deliver_raw(false, sink)
    }

    /// Decode `raw` and deliver the string (`closed`: by a quote, not by the end).
    fn deliver_raw<S: Sink>(&mut self, closed: bool, sink: &mut S) -> Result<(), Failure> {
        let mut raw = std::mem::take(&mut self.raw);
        if closed && self.python_style {
            // json_repair reads a line break right before the closing quote as layout, not
            // content. jsonrepair (the default style) keeps it, escaped, as every raw control
            // character in a string: content is never dropped.
            let kept =
                raw.iter().rposition(|&b| !matches!(b, b' ' | b'\t' | b'\r' | b'\n')).map_or(0, |k| k + 1);
            if raw.get(kept..).unwrap_or_default().contains(&b'\n') {
                raw.truncate(kept);
            }
        }
        let text = self.decode(&raw, closed, sink);
        raw.clear();
        self.raw = raw;
        let mut text = text?;
        if !closed && !self.stream_stable {
            // Cut off and settled: the missing quote goes before decoded trailing white space
            // too (`"val\n` is `val`).
            text.truncate(text.trim_end().len());
        }
        if self.phase == Phase::Start {
            self.begin_value(self.start, b'"');
        }
        let may_join = std::mem::replace(&mut self.may_join, true);
        self.deliver_string(text, self.start, may_join, sink)
    }

    /// Decode string content: standard escapes; `\'` is `'`; a backslash before a line
    /// break is the line break; other invalid escapes keep their backslash; lone surrogate
    /// escapes are U+FFFD; raw control characters are kept. A partial escape at the end of a
    /// cut-off string (`closed` false) is dropped, unless the text is settled
    /// (`stream_stable` false: the escape is all there will be, an invalid one).
    fn decode<S: Sink>(&self, raw: &[u8], closed: bool, sink: &mut S) -> Result<String, Failure> {
        let at = self.info.content_at;
        let escapes_end = closed || !self.stream_stable;
        let text = match std::str::from_utf8(raw) {
            Ok(text) => text,
            Err(error) if !closed && error.error_len().is_none() => {
                std::str::from_utf8(raw.get(..error.valid_up_to()).unwrap_or_default()).unwrap_or_default()
            }
            Err(error) => return Err(Fail::InvalidUtf8 { offset: at + error.valid_up_to() }.into()),
        };
        let bytes = text.as_bytes();
        let mut out = String::with_capacity(text.len());
        let (mut i, mut run) = (0, 0);
        while let Some(&b) = bytes.get(i) {
            if b >= 0x20 && b != b'\\' {
                i += 1;
                continue;
            }
            out.push_str(text.get(run..i).unwrap_or_default());
            if b != b'\\' {
                sink.repair(RepairKind::ControlCharacter, at + i);
                out.push(char::from(b));
                i += 1;
                run = i;
                continue;
            }
            let Some(&n) = bytes.get(i + 1) else {
                // A backslash at the very end: cut off (dropped), or kept.
                if escapes_end {
                    sink.repair(RepairKind::InvalidEscape, at + i);
                    out.push('\\');
                }
                i += 1;
                run = i;
                continue;
            };
            let simple = match n {
                b'"' => Some('"'),
                b'\\' => Some('\\'),
                b'/' => Some('/'),
                b'b' => Some('\u{8}'),
                b'f' => Some('\u{c}'),
                b'n' => Some('\n'),
                b'r' => Some('\r'),
                b't' => Some('\t'),
                _ => None,
            };
            if let Some(c) = simple {
                out.push(c);
                i += 2;
            } else if n == b'\'' || n == b'\n' {
                // `\'` is how a `'` string escapes its quote.
                if !(n == b'\'' && self.info.single) {
                    sink.repair(RepairKind::InvalidEscape, at + i);
                }
                out.push(char::from(n));
                i += 2;
            } else if n == b'u' {
                i = self.decode_unicode(bytes, i, escapes_end, &mut out, sink);
            } else if n >= 0x80 {
                // A backslash before a non-ASCII character (`\„`) escapes nothing.
                sink.repair(RepairKind::InvalidEscape, at + i);
                i += 1;
            } else {
                // Keep the backslash; the next character is read as it is.
                sink.repair(RepairKind::InvalidEscape, at + i);
                out.push('\\');
                i += 1;
            }
            run = i;
        }
        out.push_str(text.get(run..).unwrap_or_default());
        Ok(out)
    }

    /// `\uXXXX` at `bytes[i]` (a backslash): returns the index after what was read.
    fn decode_unicode<S: Sink>(
        &self,
        bytes: &[u8],
        i: usize,
        closed: bool,
        out: &mut String,
        sink: &mut S,
    ) -> usize {
        let at = self.info.content_at;
        let digits = bytes.get(i + 2..i + 6);
        let Some(unit) = digits.and_then(hex4) else {
            let rest = bytes.get(i + 2..).unwrap_or_default();
            if !closed && rest.len() < 4 && rest.iter().all(u8::is_ascii_hexdigit) {
                // Cut off inside the escape.
                return bytes.len();
            }
            sink.repair(RepairKind::InvalidEscape, at + i);
            out.push_str("\\u");
            return i + 2;
        };
        match unit {
            0xD800..=0xDBFF => {
                let low = bytes
                    .get(i + 6..i + 8)
                    .filter(|pair| *pair == b"\\u")
                    .and_then(|_| bytes.get(i + 8..i + 12))
                    .and_then(hex4)
                    .filter(|low| (0xDC00..=0xDFFF).contains(low));
                if let Some(low) = low {
                    let code = 0x10000 + ((u32::from(unit) - 0xD800) << 10) + (u32::from(low) - 0xDC00);
                    out.push(char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER));
                    return i + 12;
                }
                let rest = bytes.get(i + 6..).unwrap_or_default();
                if !closed && rest.len() < 6 && (b"\\u".starts_with(rest) || rest.starts_with(b"\\u")) {
                    // Cut off before (or inside) the low half.
                    return bytes.len();
                }
                sink.repair(RepairKind::LoneSurrogate, at + i);
                out.push(char::REPLACEMENT_CHARACTER);
                i + 6
            }
            0xDC00..=0xDFFF => {
                sink.repair(RepairKind::LoneSurrogate, at + i);
                out.push(char::REPLACEMENT_CHARACTER);
                i + 6
            }
            _ => {
                out.push(char::from_u32(u32::from(unit)).unwrap_or(char::REPLACEMENT_CHARACTER));
                i + 6
            }
        }
    }

    /// Text without quotes: up to a delimiter (`,` `]` `}` a line break; for a key also `:`
    /// and quotes), a `"` (which it then consumes when directly after the text: a missing
    /// opening quote), or a comment. Brackets opened inside it are kept with it.
    pub(crate) fn unquoted<S: Sink>(
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
                    self.push_replay_always(bytes, origin);
                    return Ok(i);
                }
                self.raw.extend_from_slice(&bytes);
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
                self.raw.push(b'/');
            }
            if u.call {
                if matches!(b, b' ' | b'\t') {
                    self.raw.push(b);
                    i += 1;
                    continue;
                }
                u.call = false;
                if b == b'(' {
                    // `callback_123 ({...})`.
                    self.raw.clear();
                    self.state = State::Between;
                    sink.repair(RepairKind::FunctionCall, self.start);
                    self.emit(sink, Token::BeginParen(true), self.start)?;
                    return Ok(i + 1);
                }
            }
            if u.url {
                if is_url_char(b) {
                    self.raw.push(b);
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
                        self.raw.pop();
                        self.end_unquoted(Unq { comma: None, ..u }, sink)?;
                    } else {
                        self.cut_unquoted_at_comma(u, comma, self.base + i, sink)?;
                    }
                    return Ok(i);
                }
                let glued = self.raw.last().is_some_and(|&last| !matches!(last, b' ' | b'\t' | b'\r' | b','));
                match b {
                    b'"' if glued => {
                        self.raw.push(b);
                        u.quote = true;
                    }
                    b':' | b'\n' | b'"' | b'\'' | b'`' | b'/' | b'{' | b'[' | b'(' | b'}' | b']' | b')' => {
                        self.cut_unquoted_at_comma(u, comma, self.base + i, sink)?;
                        return Ok(i);
                    }
                    _ => self.raw.push(b),
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
                self.raw.push(b);
                i += 1;
                continue;
            }
            let stop = match b {
                b',' if self.reads_past_comma(u, sink) => {
                    u.comma = Some(self.raw.len());
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
                    let glued = self.raw.last().is_some_and(|&last| !matches!(last, b' ' | b'\t' | b'\r'));
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
                    if !u.key && URL_SCHEMES.iter().any(|s| s.get(..s.len() - 2) == Some(&self.raw[..])) {
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
            self.raw.push(b);
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
            && self.python_style
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
        let tail = self.raw.get(comma..).unwrap_or_default().to_vec();
        if self.push_replay(tail, self.start + comma, at) {
            self.raw.truncate(comma);
        }
        self.end_unquoted(Unq { comma: None, quote: false, ..u }, sink)
    }

    /// Text without quotes at the end of the input.
    pub(crate) fn end_unquoted_input<S: Sink>(&mut self, mut u: Unq, sink: &mut S) -> Result<(), Failure> {
        if u.slash {
            self.raw.push(b'/');
            u.slash = false;
        }
        match u.comma {
            Some(_) if u.quote => {
                // `{"a": b, c"`: closed by the quote before the end.
                self.raw.pop();
                self.end_unquoted(Unq { comma: None, quote: false, ..u }, sink)
            }
            Some(comma) => self.cut_unquoted_at_comma(u, comma, self.base, sink),
            None => self.end_unquoted(u, sink),
        }
    }

    /// The text in `raw` ended: a key, `null` for `undefined`, a number if it started as
    /// one and still is, or a string. Trailing spaces are not part of it.
    pub(crate) fn end_unquoted<S: Sink>(&mut self, u: Unq, sink: &mut S) -> Result<(), Failure> {
        self.state = State::Between;
        let mut raw = std::mem::take(&mut self.raw);
        if u.held > 0 {
            raw.extend_from_slice(self.multi.get(..usize::from(u.held)).unwrap_or_default());
        }
        if u.slash {
            raw.push(b'/');
        }
        trim_end(&mut raw);
        if raw.is_empty() {
            self.raw = raw;
            return Ok(());
        }
        if self.phase == Phase::Start {
            self.begin_value(self.start, raw.first().copied().unwrap_or(b'a'));
        }
        if u.number && is_json_number(&raw) {
            let number = std::str::from_utf8(&raw)
                .ok()
                .and_then(|text| serde_json::from_str::<serde_json::Number>(text).ok());
            if let Some(number) = number {
                self.raw = raw;
                self.raw.clear();
                return self.emit(sink, Token::Number(number), self.start);
            }
        }
        let text =
            String::from_utf8(raw).map_err(|_| Failure::from(Fail::InvalidUtf8 { offset: self.start }))?;
        if u.key {
            sink.repair(RepairKind::UnquotedKey, self.start);
            sink.bare_key();
            return self.emit(sink, Token::Str(text), self.start);
        }
        if text == "undefined" {
            sink.repair(RepairKind::Undefined, self.start);
            return self.emit(sink, Token::Null, self.start);
        }
        sink.repair(RepairKind::UnquotedString, self.start);
        self.emit(sink, Token::Str(text), self.start)
    }

    /// A regular expression literal, kept with its slashes as a string.
    pub(crate) fn regex<S: Sink>(
        &mut self,
        chunk: &[u8],
        mut i: usize,
        mut esc: bool,
        sink: &mut S,
    ) -> Result<usize, Failure> {
        while let Some(&b) = chunk.get(i) {
            self.raw.push(b);
            i += 1;
            if esc {
                esc = false;
            } else if b == b'\\' {
                esc = true;
            } else if b == b'/' {
                let text = std::mem::take(&mut self.raw);
                self.state = State::Between;
                self.emit_regex(text, sink)?;
                return Ok(i);
            }
        }
        self.state = State::Regex { esc };
        Ok(i)
    }

    /// Send a regular expression as a string.
    pub(crate) fn emit_regex<S: Sink>(&mut self, text: Vec<u8>, sink: &mut S) -> Result<(), Failure> {
        self.flush_held(sink)?;
        let text =
            String::from_utf8(text).map_err(|_| Failure::from(Fail::InvalidUtf8 { offset: self.start }))?;
        sink.repair(RepairKind::Regex, self.start);
        self.emit(sink, Token::Str(text), self.start)
    }
}

/// jsonrepair's delimiters, for the characters around a quote.
pub(crate) fn is_delimiter(b: u8) -> bool {
    matches!(b, b',' | b':' | b'[' | b']' | b'/' | b'{' | b'}' | b'(' | b')' | b'\n' | b'+')
}

/// jsonrepair's delimiters that end a string whose closing quote is missing.
fn is_unquoted_delimiter(b: u8) -> bool {
    matches!(b, b',' | b'[' | b']' | b'/' | b'{' | b'}' | b'\n' | b'+')
}

/// The characters of a URL, except `[`, `]` and `,`, which matter more as JSON delimiters.
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

/// How many bytes the UTF-8 character led by `b` has.
fn utf8_need(b: u8) -> u8 {
    match b {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => 1,
    }
}

/// The Unicode spaces jsonrepair reads as whitespace.
pub(crate) fn is_unicode_space(c: char) -> bool {
    matches!(
        c,
        '\u{00A0}' | '\u{180E}' | '\u{2000}'..='\u{200B}' | '\u{202F}' | '\u{205F}' | '\u{3000}' | '\u{FEFF}'
    )
}

/// Whether `text` is a number by the JSON grammar.
fn is_json_number(text: &[u8]) -> bool {
    let digits = text.strip_prefix(b"-").unwrap_or(text);
    let int_len = digits.iter().take_while(|b| b.is_ascii_digit()).count();
    if int_len == 0 || (int_len > 1 && digits.first() == Some(&b'0')) {
        return false;
    }
    let mut rest = digits.get(int_len..).unwrap_or_default();
    if let Some(frac) = rest.strip_prefix(b".") {
        let n = frac.iter().take_while(|b| b.is_ascii_digit()).count();
        if n == 0 {
            return false;
        }
        rest = frac.get(n..).unwrap_or_default();
    }
    if let Some(exp) = rest.strip_prefix(b"e").or_else(|| rest.strip_prefix(b"E")) {
        let exp = exp.strip_prefix(b"+").or_else(|| exp.strip_prefix(b"-")).unwrap_or(exp);
        return !exp.is_empty() && exp.iter().all(u8::is_ascii_digit);
    }
    rest.is_empty()
}

/// Drop trailing ASCII whitespace.
fn trim_end(raw: &mut Vec<u8>) {
    while raw.last().is_some_and(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n')) {
        raw.pop();
    }
}
