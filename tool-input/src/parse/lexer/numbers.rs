//! Numbers: the RFC 8259 grammar a byte at a time ([`Num`]), the lenient extensions
//! (`.5`, `1.`, `+1`, `0x1F`, Python's `1_000`), and the conversion to a [`Number`] as
//! `serde_json` reads it.

use serde_json::Number;

use super::bytes::HEX;
use super::state::{Digits, Num, Phase, State, Unq};
use super::{Fail, Failure, Lexer, Sink, Token};
use crate::parse::RepairKind;

impl Num {
    /// The state after `b`, or `None` if `b` is not part of the number (RFC 8259).
    #[inline]
    fn step(self, b: u8) -> Option<Num> {
        match (self, b) {
            (Num::Start, b'-') => Some(Num::Minus),
            (Num::Start | Num::Minus | Num::Plus, b'0') => Some(Num::Zero),
            (Num::Start | Num::Minus | Num::Plus, b'1'..=b'9') => Some(Num::Int),
            (Num::Int, b'0'..=b'9') => Some(Num::Int),
            (Num::Zero | Num::Int, b'.') => Some(Num::Dot),
            (Num::Dot | Num::Frac, b'0'..=b'9') => Some(Num::Frac),
            (Num::Zero | Num::Int | Num::Frac, b'e' | b'E') => Some(Num::Exp),
            (Num::Exp, b'+' | b'-') => Some(Num::ExpSign),
            (Num::Exp | Num::ExpSign | Num::ExpDigits, b'0'..=b'9') => Some(Num::ExpDigits),
            (Num::HexStart | Num::Hex, b'0'..=b'9' | b'a'..=b'f' | b'A'..=b'F') => Some(Num::Hex),
            (Num::Sep(Digits::Zero), b'0') => Some(Num::Zero),
            (Num::Sep(Digits::Int), b'0'..=b'9') => Some(Num::Int),
            (Num::Sep(Digits::Frac), b'0'..=b'9') => Some(Num::Frac),
            (Num::Sep(Digits::Exp), b'0'..=b'9') => Some(Num::ExpDigits),
            (Num::Sep(Digits::Hex), b'0'..=b'9' | b'a'..=b'f' | b'A'..=b'F') => Some(Num::Hex),
            _ => None,
        }
    }

    /// Whether the text so far is a complete number.
    #[inline]
    fn complete(self) -> bool {
        matches!(self, Num::Zero | Num::Int | Num::Frac | Num::ExpDigits | Num::Hex)
    }
}

impl Lexer {
    /// Number bytes, following the grammar.
    pub(super) fn number<S: Sink>(
        &mut self,
        chunk: &[u8],
        i: usize,
        mut num: Num,
        sink: &mut S,
    ) -> Result<usize, Failure> {
        let mut from = i;
        let mut j = i;
        let end = loop {
            let Some(&b) = chunk.get(j) else {
                self.buf.extend_from_slice(chunk.get(from..).unwrap_or_default());
                self.state = State::Num(num);
                return Ok(chunk.len());
            };
            if let Some(next) = num.step(b) {
                num = next;
                j += 1;
                continue;
            }
            // The lenient extensions, rare enough to leave the fast loop for.
            let extended = match (num, b) {
                (Num::Minus | Num::Plus, b'.') if self.lenient => Some((Num::Dot, &b"0."[..])),
                (Num::Zero, b'x' | b'X') if self.lenient => Some((Num::HexStart, &b"0x"[..])),
                (Num::Int | Num::Frac | Num::ExpDigits, b'_') if self.repair => Some((num, &b"_"[..])),
                // Python's digit separators: one `_` between two digits.
                (Num::Zero | Num::Int | Num::Frac | Num::ExpDigits | Num::HexStart | Num::Hex, b'_')
                    if self.lenient =>
                {
                    let digits = match num {
                        Num::Zero => Digits::Zero,
                        Num::Int => Digits::Int,
                        Num::Frac => Digits::Frac,
                        Num::ExpDigits => Digits::Exp,
                        _ => Digits::Hex,
                    };
                    Some((Num::Sep(digits), &b"_"[..]))
                }
                _ => None,
            };
            match extended {
                Some((next, text)) => {
                    if num == Num::Minus {
                        sink.repair(RepairKind::NumberSyntax, self.start);
                    }
                    self.buf.extend_from_slice(chunk.get(from..j).unwrap_or_default());
                    if num == Num::Zero && next == Num::HexStart {
                        // `0x`: the zero is already in the text.
                        self.buf.pop();
                    }
                    self.buf.extend_from_slice(text);
                    num = next;
                    j += 1;
                    from = j;
                }
                None => break b,
            }
        };
        let at = self.base + j;
        let run = chunk.get(from..j).unwrap_or_default();
        if num == Num::Minus && self.repair && matches!(end, b' ' | b'\t' | b'\r' | b'\n') {
            // `- item`: a list bullet, not a number.
            self.buf.clear();
            self.state = State::Between;
            if self.salvage().tokens == 0 {
                self.phase = Phase::Start;
                self.value_start = None;
                self.enter_prose(self.start, sink);
                self.state = State::Between;
            }
            return Ok(j);
        }
        if num == Num::Minus && self.lenient && end.is_ascii_alphabetic() {
            // `-Infinity`, or (repair) text such as `-e5`.
            self.buf.extend_from_slice(run);
            self.state = State::Word { key: false };
            return Ok(j);
        }
        // A backslash where white space is written as escapes (`[\n  1,\n  2\n]`) ends the
        // number: it starts the next escape.
        let spaced = end == b'\\' && self.escaped_space_seen;
        if self.repair && ((glued(end) && !spaced) || (num == Num::Zero && end.is_ascii_digit())) {
            // Not a number after all (`2024-10-18T…`, `0.0.1`, `0789`): text.
            let text = [self.buf.as_slice(), run].concat();
            self.salvage().start_raw(&text);
            self.buf.clear();
            self.state = State::Unquoted(Unq::number());
            return Ok(j);
        }
        if num == Num::Zero && end.is_ascii_digit() {
            return Err(Failure::syntax("a number cannot start with `0` followed by digits", at));
        }
        if self.buf.is_empty()
            && num == Num::Int
            && run.len() <= 19
            && run.first().is_some_and(u8::is_ascii_digit)
        {
            // A plain integer in one fragment: its value, without text or parsing.
            let value = run.iter().fold(0u64, |v, &d| v * 10 + u64::from(d - b'0'));
            self.state = State::Between;
            self.emit(sink, Token::Number(Number::from(value)), self.start)?;
            self.glued = self.phase == Phase::After && !self.repair;
            return Ok(j);
        }
        self.buf.extend_from_slice(run);
        if num == Num::Plus {
            // No digit after the `+`: no sign (`(12 + 7)`, `+x`), the character is the error.
            self.buf.clear();
            return Err(Failure::unexpected(self.start, ""));
        }
        if !num.complete() {
            let fixable =
                self.repair || (self.lenient && num == Num::Dot && matches!(end, b',' | b']' | b'}'));
            if !fixable {
                self.buf.clear();
                return Err(
                    Fail::Char { offset: at, at, prefix: "invalid number: unexpected ", suffix: "" }.into()
                );
            }
            sink.repair(RepairKind::NumberSyntax, self.start);
            self.fix_number(num);
        }
        let number = self.take_number(sink);
        self.state = State::Between;
        let number = number?;
        self.emit(sink, number, self.start)?;
        self.glued = self.phase == Phase::After && !self.repair;
        Ok(j)
    }

    /// Complete an incomplete number in `buf`: `1.` is `1.0`, a dangling exponent is
    /// dropped, a lone `-` is `-0`.
    fn fix_number(&mut self, num: Num) {
        match num {
            Num::Dot => self.buf.push(b'0'),
            Num::Exp | Num::ExpSign => {
                while self.buf.last().is_some_and(|b| !b.is_ascii_digit()) {
                    self.buf.pop();
                }
            }
            Num::Minus | Num::Plus | Num::Start => self.buf.push(b'0'),
            _ => {}
        }
    }

    /// The number in `buf` as a token (`buf` is left empty). Non-decimal and separated
    /// digits were already recorded.
    fn take_number<S: Sink>(&mut self, sink: &mut S) -> Result<Token<'static>, Failure> {
        let mut text = std::mem::take(&mut self.buf);
        if text.contains(&b'_') {
            sink.repair(RepairKind::NumberSyntax, self.start);
            text.retain(|&b| b != b'_');
        }
        let result = if text.len() > 2 && (text.starts_with(b"0x") || text.starts_with(b"-0x")) {
            sink.repair(RepairKind::HexNumber, self.start);
            hex_number(&text, self.start)
        } else {
            let number = match to_number(&text, self.start) {
                // Only while the float literals are tracked: a stand-in, its literal
                // recorded, so that the failure can say where the number stands.
                Err(failure) if self.beyond_floats_stand_in && failure.is_beyond_floats() => {
                    Number::from_f64(f64::MAX).ok_or(failure)
                }
                number => number,
            };
            if number.as_ref().is_ok_and(Number::is_f64) {
                sink.float_literal(&text);
            }
            number
        };
        self.buf = text;
        self.buf.clear();
        result.map(Token::Number)
    }

    /// A number at the end of the input.
    pub(super) fn end_number<S: Sink>(
        &mut self,
        num: Num,
        sink: &mut S,
        complete: bool,
    ) -> Result<(), Failure> {
        let end = self.base;
        self.state = State::Between;
        if !num.complete() {
            if !complete {
                self.buf.clear();
                return Err(Fail::Truncated { inside: "a number" }.into());
            }
            sink.repair(RepairKind::CompletedTruncated, end);
            // Drop the dangling `-`, `.`, `e`, `e+` or `x`; a lone `-` leaves nothing (in
            // repair mode `-0`, as jsonrepair completes it).
            while self.buf.last().is_some_and(|b| !b.is_ascii_digit()) {
                self.buf.pop();
            }
            if self.repair && num == Num::Minus {
                self.buf.extend_from_slice(b"-0");
            }
        }
        if self.buf.is_empty() {
            return Ok(());
        }
        let number = self.take_number(sink)?;
        self.emit(sink, number, self.start)
    }

    /// Dots at a token start: `.5` (`0.5`), and in [`ParseMode::Repair`] `...` (an
    /// ellipsis) and a lone `.`.
    pub(super) fn dots<S: Sink>(
        &mut self,
        chunk: &[u8],
        i: usize,
        seen: u8,
        sink: &mut S,
    ) -> Result<usize, Failure> {
        let Some(&b) = chunk.get(i) else { return Ok(i) };
        if self.phase == Phase::After {
            // After the value a `.` starts another only as a number (`{...} .5`); anything
            // else is the end of a sentence the value stood in (`Here it is: {...}.`,
            // `{...}...`): prose.
            if seen == 1 && b.is_ascii_digit() {
                self.phase = Phase::Value;
            } else {
                sink.repair(RepairKind::ProseAfter, self.start);
                self.state = State::Ignore;
                return Ok(chunk.len());
            }
        }
        if seen == 1 && b.is_ascii_digit() {
            if self.phase == Phase::Start {
                self.begin_value(self.start, b'.');
            }
            sink.repair(RepairKind::NumberSyntax, self.start);
            self.buf.extend_from_slice(b"0.");
            self.state = State::Num(Num::Dot);
            return Ok(i);
        }
        if self.repair && b == b'.' && seen < 3 {
            if seen == 2 {
                self.state = State::Between;
                sink.repair(RepairKind::Ellipsis, self.start);
                self.emit(sink, Token::Ellipsis, self.start)?;
                return Ok(i + 1);
            }
            self.state = State::Dots { seen: seen + 1 };
            return Ok(i + 1);
        }
        self.state = State::Between;
        if !self.repair {
            return Err(Failure::unexpected(self.start, ""));
        }
        if seen == 1 && !glued(b) {
            self.end_dots(seen, sink)?;
            return Ok(i);
        }
        self.salvage().start_raw(DOTS.get(..usize::from(seen)).unwrap_or_default());
        self.state = State::Unquoted(Unq::value());
        Ok(i)
    }

    /// Dots before a delimiter or the end.
    pub(super) fn end_dots<S: Sink>(&mut self, seen: u8, sink: &mut S) -> Result<(), Failure> {
        if !self.repair {
            return Err(Failure::unexpected(self.start, ""));
        }
        if self.phase == Phase::Start {
            self.begin_value(self.start, b'.');
        }
        if seen == 1 {
            // jsonrepair reads a lone `.` as the number 0.0.
            sink.repair(RepairKind::NumberSyntax, self.start);
            let zero = Number::from_f64(0.0).map_or(Token::Null, Token::Number);
            return self.emit(sink, zero, self.start);
        }
        self.salvage().start_raw(DOTS.get(..usize::from(seen)).unwrap_or_default());
        self.end_unquoted(Unq::value(), sink)
    }
}

/// Whether `b`, right after a number, makes it something else (`2024-10-18`, `1/3`,
/// `746de9ad`): anything but whitespace, a separator, a bracket or a quote.
#[inline]
fn glued(b: u8) -> bool {
    !matches!(
        b,
        b' ' | b'\n' | b'\r' | b'\t' | b',' | b':' | b'[' | b']' | b'{' | b'}' | b'(' | b')' | b'"' | b'\''
    )
}

/// Convert number text that follows the grammar: an integer that fits `u64` or `i64`
/// stays an integer, anything else is the correctly rounded `f64` (including `-0` as the
/// float `-0.0`, as `serde_json` reads it). Read by `str::parse`, never by `serde_json`,
/// whose reading is one unit in the last place off for some floats unless the program
/// happens to turn on its `float_roundtrip` feature; strict JSON that `serde_json` might
/// misread is sent here too (`decimal::serde_json_may_misread`), so a number reads the same
/// on every path.
fn to_number(text: &[u8], offset: usize) -> Result<Number, Failure> {
    let text = std::str::from_utf8(text).map_err(|_| Failure::from(Fail::InvalidUtf8 { offset }))?;
    number_of(text).ok_or_else(|| Failure::from(Fail::BeyondFloats { offset }))
}

/// The number `text` (which follows the JSON grammar) holds: see `to_number`; `None` when
/// it is beyond the floats.
fn number_of(text: &str) -> Option<Number> {
    if !text.bytes().any(|b| matches!(b, b'.' | b'e' | b'E')) {
        if let Some(digits) = text.strip_prefix('-') {
            if digits.bytes().any(|b| b != b'0') {
                if let Ok(value) = text.parse::<i64>() {
                    return Some(Number::from(value));
                }
            }
        } else if let Ok(value) = text.parse::<u64>() {
            return Some(Number::from(value));
        }
    }
    text.parse::<f64>().ok().and_then(Number::from_f64)
}

/// Whether `b` can be part of a decimal number's text in any mode (`-1_0.5e+400`).
pub(crate) fn in_literal(b: u8) -> bool {
    matches!(b, b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-' | b'_')
}

/// Whether a float literal as the lexer records it (the JSON grammar; a lenient spelling
/// such as `.5e400` or `1_0e400` is recorded as `0.5e400`, `10e400`) is beyond the floats.
pub(crate) fn beyond_floats(literal: &str) -> bool {
    literal.parse::<f64>().is_ok_and(f64::is_infinite)
}

/// A JSON number's text (exactly the RFC 8259 grammar: no white space, no `+`, no `0x`) as
/// the number it holds, correctly rounded; `None` for anything else, or a number beyond the
/// floats (`1e400`).
pub(crate) fn json_number(text: &str) -> Option<Number> {
    if is_json_number(text.as_bytes()) {
        number_of(text)
    } else {
        None
    }
}

/// `0x1F`, `-0x10`.
fn hex_number(text: &[u8], offset: usize) -> Result<Number, Failure> {
    let (negative, digits) = match text.strip_prefix(b"-") {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let digits = digits.get(2..).unwrap_or_default();
    let mut value: u64 = 0;
    for &d in digits {
        let v = HEX[usize::from(d)];
        value = value
            .checked_mul(16)
            .and_then(|x| x.checked_add(u64::from(v)))
            .ok_or_else(|| Failure::syntax("number out of range", offset))?;
    }
    if negative {
        let value = i64::try_from(value).map_err(|_| Failure::syntax("number out of range", offset))?;
        Ok(Number::from(-value))
    } else {
        Ok(Number::from(value))
    }
}

/// Whether `text` is a number by the JSON grammar (RFC 8259).
pub(in crate::parse) fn is_json_number(text: &[u8]) -> bool {
    text.iter().try_fold(Num::Start, |num, &b| num.step(b)).is_some_and(Num::complete)
}

/// The dots a run of them (`.`, `..`) is cut from.
const DOTS: &[u8] = b"...";
