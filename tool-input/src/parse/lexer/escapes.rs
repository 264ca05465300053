//! The one escape decoder: what a backslash and the bytes after it stand for in a string.
//!
//! Every reader of string content decodes through it:
//! - the lexer's strings, a run at a time: the complete JSON escapes inside a fragment
//!   ([`json_escape`]), and a byte at a time an escape a fragment cuts off or one to repair
//!   ([`Lexer::escape_byte`]), in the strict and lenient modes;
//! - [`ParseMode::Repair`]'s strings, decoded whole once `salvage` has decided where they end
//!   ([`decode_whole`]);
//! - the tape's strings read again from the text ([`read_escaped`]), and the keys the text-call
//!   formats read out of a call object ([`json_string`]).
//!
//! Which escape a byte after a backslash starts is decided once, by [`escape_after`]; what
//! each reader does with an escape that is no JSON escape differs only where its mode says so
//! (the strict mode refuses it, the lenient mode keeps the backslash and reads the byte
//! again, the repair mode drops a backslash before a non-ASCII character).
//!
//! [`ParseMode::Repair`]: crate::parse::ParseMode::Repair

use super::bytes::{find_special, hex4};
use super::state::{Esc, Quote};
use super::{Fail, Failure, Lexer, Sink};
use crate::parse::RepairKind;

/// What a backslash followed by a byte starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::parse) enum Escape {
    /// One of JSON's one-letter escapes: the character it stands for.
    Simple(char),
    /// `\u`: four hex digits follow (two escapes for a surrogate pair).
    Unicode,
    /// `\'`: how a `'` string escapes its quote; anywhere else it still clearly means a
    /// quote, never a backslash.
    Quote,
    /// A backslash before a line break continues the line, as in a shell.
    LineBreak,
    /// `\N{...}` in a Python literal: a character by its Unicode name, which is refused.
    Named,
    /// `\x41`, `\101`, `\U0001F600` in a Python literal: the escape's width in hex digits
    /// (`x` 2, `U` 8; octal 0, one to three digits) and, for octal, the value of its first
    /// digit (the byte after the backslash).
    Python { width: u8, first: Option<u32> },
    /// A backslash before the first byte of a non-ASCII character.
    NonAscii,
    /// Any other byte: the backslash escapes nothing.
    Other,
}

/// What a backslash followed by `b` starts, in a string that is a Python literal
/// (`python`: a `'` string or one with a prefix, whose own escapes are read) or not.
#[inline]
pub(in crate::parse) fn escape_after(b: u8, python: bool) -> Escape {
    if let Some(c) = simple_escape(b) {
        return Escape::Simple(c);
    }
    match b {
        b'u' => Escape::Unicode,
        b'\'' => Escape::Quote,
        b'\n' => Escape::LineBreak,
        b'N' if python => Escape::Named,
        0x80..=0xFF => Escape::NonAscii,
        _ => match python_escape_kind(b).filter(|_| python) {
            Some((width, first)) => Escape::Python { width, first },
            None => Escape::Other,
        },
    }
}

impl Lexer {
    /// Whether a string opened by `quote` (and the prefix read before it) is a Python
    /// literal whose own escapes are read: in [`ParseMode::Lenient`] only (the repair mode
    /// decodes its strings whole, with [`decode_whole`]).
    ///
    /// [`ParseMode::Lenient`]: crate::parse::ParseMode::Lenient
    fn python_literal(&self, quote: Quote) -> bool {
        self.lenient && !self.repair && (quote == Quote::Single || self.prefix.is_some())
    }

    /// Whether `\x` starts Python's escape of a byte (`\x07`) in a string opened by `quote`
    /// that is no Python literal of its own: a `"` string of a text that has shown itself
    /// Python (`python_seen`), as `repr` writes a string holding an apostrophe. Only a whole
    /// `\xHH` is read so ([`Esc::HexByte`]); anything else after a backslash there stays
    /// the backslash it was in a JSON string (a Windows path's `C:\Users` or `\xampp`,
    /// which Python would refuse, is likelier there than `\U` or octal).
    fn hex_byte_escape(&self, quote: Quote, b: u8) -> bool {
        b == b'x' && self.python_seen && quote == Quote::Double && self.lenient && !self.repair
    }

    /// One byte `b` (at `at`) of the escape `esc` (`Backslash`, `Hex`, `WantBackslash`,
    /// `WantU` or `Python`) in a string opened by `quote`: the escape state after it, and
    /// whether `b` was taken in (else it is read again as content).
    pub(super) fn escape_byte<S: Sink>(
        &mut self,
        b: u8,
        at: usize,
        quote: Quote,
        esc: Esc,
        sink: &mut S,
    ) -> Result<(Esc, bool), Failure> {
        let mut next = Esc::None;
        let mut consumed = true;
        match esc {
            Esc::Backslash if self.hex_byte_escape(quote, b) => next = Esc::HexByte { first: None },
            Esc::Backslash => match escape_after(b, self.python_literal(quote)) {
                Escape::Simple(c) => self.push_char(c),
                Escape::Unicode => next = Esc::Hex { n: 0, digits: [0; 4], high: None },
                _ if !self.lenient => {
                    let (prefix, suffix) = ("invalid escape `\\` followed by ", " in a string");
                    return Err(Fail::Char { offset: self.esc_at, at, prefix, suffix }.into());
                }
                Escape::Quote => {
                    if quote != Quote::Single {
                        sink.repair(RepairKind::InvalidEscape, self.esc_at);
                    }
                    self.push_char('\'');
                }
                Escape::Named => return Err(Failure::named_escape(self.esc_at)),
                Escape::Python { width, first } => {
                    sink.repair(RepairKind::PythonEscape, self.esc_at);
                    next = Esc::Python { n: u8::from(first.is_some()), width, value: first.unwrap_or(0) };
                }
                Escape::LineBreak => {
                    sink.repair(RepairKind::InvalidEscape, self.esc_at);
                    self.push_char('\n');
                }
                Escape::NonAscii | Escape::Other => {
                    // Keep the backslash literally and read the byte again as content.
                    sink.repair(RepairKind::InvalidEscape, self.esc_at);
                    self.buf.push(b'\\');
                    consumed = false;
                }
            },
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
            Esc::HexByte { first } => match (first, char::from(b).to_digit(16)) {
                (None, Some(_)) => next = Esc::HexByte { first: Some(b) },
                (Some(high), Some(low)) => {
                    let high = char::from(high).to_digit(16).unwrap_or(0);
                    sink.repair(RepairKind::PythonEscape, self.esc_at);
                    self.push_python_char(high * 16 + low)?;
                }
                // No escape after all: the backslash and what followed it are content, as in
                // any `"` string, and `b` is read again.
                (first, None) => {
                    sink.repair(RepairKind::InvalidEscape, self.esc_at);
                    self.buf.extend_from_slice(b"\\x");
                    self.buf.extend(first);
                    consumed = false;
                }
            },
            // Not an escape state: the byte is content.
            _ => consumed = false,
        }
        Ok((next, consumed))
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
}

/// How [`decode_whole`] reads a string's content.
#[derive(Debug, Clone, Copy)]
pub(in crate::parse) struct Whole {
    /// Absolute offset of the content's first byte (where repairs are recorded).
    pub(in crate::parse) at: usize,
    /// A raw literal (`r'\d'`): it keeps its backslashes, and `\'` is both bytes.
    pub(in crate::parse) raw: bool,
    /// A Python literal (a `'` string, or one with a prefix): Python's escapes are read.
    pub(in crate::parse) python: bool,
    /// Opened with a `'`, whose `\'` is its plain escape (no repair).
    pub(in crate::parse) single: bool,
    /// The closing quote was read (else the content is cut off: a character it ends inside
    /// is dropped).
    pub(in crate::parse) closed: bool,
    /// An escape the content ends in is all there will be (the string is closed, or the
    /// text is settled): an invalid one, kept. Else such an escape is cut off, and dropped.
    pub(in crate::parse) escapes_end: bool,
}

/// Decode a string's content read whole ([`ParseMode::Repair`]): standard escapes; `\'` is
/// `'`; a backslash before a line break is the line break; Python's escapes in a Python
/// literal; other invalid escapes keep their backslash (one before a non-ASCII character is
/// dropped); lone surrogate escapes are U+FFFD; raw control characters are kept. Each repair
/// is recorded at its offset.
///
/// [`ParseMode::Repair`]: crate::parse::ParseMode::Repair
pub(in crate::parse) fn decode_whole<S: Sink>(
    raw: &[u8],
    how: Whole,
    sink: &mut S,
) -> Result<String, Failure> {
    let at = how.at;
    let text = match std::str::from_utf8(raw) {
        Ok(text) => text,
        Err(error) if !how.closed && error.error_len().is_none() => {
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
            if how.escapes_end {
                sink.repair(RepairKind::InvalidEscape, at + i);
                out.push('\\');
            }
            i += 1;
            run = i;
            continue;
        };
        if how.raw {
            out.push('\\');
            out.push(char::from(n));
            i += 2;
            run = i;
            continue;
        }
        match escape_after(n, how.python) {
            Escape::Simple(c) => {
                out.push(c);
                i += 2;
            }
            Escape::Named => return Err(Failure::named_escape(at + i)),
            Escape::Python { .. } => match python_escape_at(bytes, i) {
                // One cut short or spelling no character keeps its backslash, as every
                // invalid escape here does.
                Some((Some(c), len)) => {
                    sink.repair(RepairKind::PythonEscape, at + i);
                    out.push(c);
                    i += len;
                }
                Some((None, len)) if !how.escapes_end && i + len == bytes.len() => i = bytes.len(),
                _ => {
                    sink.repair(RepairKind::InvalidEscape, at + i);
                    out.push('\\');
                    i += 1;
                }
            },
            Escape::Quote | Escape::LineBreak => {
                if !(n == b'\'' && how.single) {
                    sink.repair(RepairKind::InvalidEscape, at + i);
                }
                out.push(char::from(n));
                i += 2;
            }
            Escape::Unicode => i = decode_unicode(bytes, i, how, &mut out, sink),
            Escape::NonAscii => {
                // A backslash before a non-ASCII character (`\„`) escapes nothing.
                sink.repair(RepairKind::InvalidEscape, at + i);
                i += 1;
            }
            Escape::Other => {
                // Keep the backslash; the next character is read as it is.
                sink.repair(RepairKind::InvalidEscape, at + i);
                out.push('\\');
                i += 1;
            }
        }
        run = i;
    }
    out.push_str(text.get(run..).unwrap_or_default());
    Ok(out)
}

/// [`decode_whole`]'s `\uXXXX` at `bytes[i]` (a backslash): returns the index after what
/// was read.
fn decode_unicode<S: Sink>(bytes: &[u8], i: usize, how: Whole, out: &mut String, sink: &mut S) -> usize {
    let at = how.at;
    match unicode_escape(bytes, i) {
        Unicode::Char(c, len) => {
            out.push(c);
            i + len
        }
        Unicode::NotHex => {
            let rest = bytes.get(i + 2..).unwrap_or_default();
            if !how.escapes_end && rest.len() < 4 && rest.iter().all(u8::is_ascii_hexdigit) {
                // Cut off inside the escape.
                return bytes.len();
            }
            sink.repair(RepairKind::InvalidEscape, at + i);
            out.push_str("\\u");
            i + 2
        }
        Unicode::HighAlone => {
            let rest = bytes.get(i + 6..).unwrap_or_default();
            if !how.escapes_end && rest.len() < 6 && (b"\\u".starts_with(rest) || rest.starts_with(b"\\u")) {
                // Cut off before (or inside) the low half.
                return bytes.len();
            }
            sink.repair(RepairKind::LoneSurrogate, at + i);
            out.push(char::REPLACEMENT_CHARACTER);
            i + 6
        }
        Unicode::LowAlone => {
            sink.repair(RepairKind::LoneSurrogate, at + i);
            out.push(char::REPLACEMENT_CHARACTER);
            i + 6
        }
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

/// The white space a one-letter escape spells (`\n`, `\r`, `\t`), given the byte after the
/// backslash: what escaped JSON may hold between its tokens.
#[inline]
pub(in crate::parse) fn escaped_space(b: u8) -> Option<u8> {
    simple_escape(b).filter(|c| matches!(c, '\n' | '\r' | '\t')).map(|c| c as u8)
}

/// One level of escaping removed from the pair a backslash makes with `next`, the byte after
/// it, where JSON was escaped once more (`{\"a\": 1}`): `\\` is `\`, `\"` is `"`, and `\n`,
/// `\r`, `\t` are the white space they spell. `None`: the pair stays as written, an escape of
/// the string it belongs to (`\u00e9`). The one rule of both readers of escaped JSON, the
/// lexer's (`Lexer::unescape_bytes`) and the span scanner's (`spans::ValueEnd`).
#[inline]
pub(in crate::parse) fn unescaped_pair(next: u8) -> Option<u8> {
    match next {
        b'\\' | b'"' => Some(next),
        _ => escaped_space(next),
    }
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

/// A string's content written in the text with JSON's own escapes, `\'` and Python's
/// (`\x41`, `\101`, `\U0001F600`), and control characters as they are (a raw line break,
/// as a model writes code into a string), and nothing else to repair: `raw` holds the bytes
/// after its opening `quote` (`"` or `'`). The content is handed to `piece` a run of text or
/// one decoded escape at a time; `piece` returns `false` to stop. Returns the length of the
/// content in `raw` (where its closing quote is), or `None` where it is not written so (an
/// escape neither language has, one cut short, no closing quote) or `piece` stopped.
///
/// The tape keeps a string its parse decoded as this range of the text when this reading
/// gives the very same content, and reads it again here when it is asked for (see
/// `tape::Place::Escaped`).
pub(in crate::parse) fn read_escaped(raw: &str, quote: u8, piece: impl FnMut(&str) -> bool) -> Option<usize> {
    read_json_escapes(raw, quote, true, piece)
}

/// The content of `quoted`, a JSON string with its quotes (and perhaps JSON's white space
/// around them), as `serde_json` reads it: JSON's escapes only (a surrogate pair whole), no
/// control character. `None` for any other text.
pub(crate) fn json_string(quoted: &str) -> Option<String> {
    let blank = |c: char| matches!(c, ' ' | '\t' | '\n' | '\r');
    let inner = quoted.trim_matches(blank).strip_prefix('"')?;
    let mut out = String::with_capacity(inner.len());
    let end = read_json_escapes(inner, b'"', false, |piece| {
        out.push_str(piece);
        true
    })?;
    (end + 1 == inner.len()).then_some(out)
}

/// [`read_escaped`], where `\'`, Python's own escapes and raw control characters are read
/// only if `lenient` (JSON has no such escape and refuses such a character; the lenient
/// readers take them: the escapes as [`python_escape_at`] spells them, the character as
/// itself).
fn read_json_escapes(
    raw: &str,
    quote: u8,
    lenient: bool,
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
                let (c, len) = match (bytes.get(j + 1), json_escape(bytes, j)) {
                    (Some(b'\''), _) if lenient => ('\'', 2),
                    (_, Some(escape)) => escape,
                    // A Python payload's `\x0b` is as common as JSON's `\n`.
                    (_, None) if lenient => match python_escape_at(bytes, j)? {
                        (Some(c), len) => (c, len),
                        (None, _) => return None,
                    },
                    (_, None) => return None,
                };
                if !piece(c.encode_utf8(&mut [0; 4])) {
                    return None;
                }
                i = j + len;
            }
            Some(&b) if b < 0x20 && lenient => {
                if !piece(raw.get(j..j + 1)?) {
                    return None;
                }
                i = j + 1;
            }
            _ => return None,
        }
    }
}
