//! The states the lexer can be in: where it is relative to the value ([`Phase`]) and
//! inside a token or the text around it ([`State`]), with what each state carries. The
//! grammar that moves between them lives with what is read: `strings`, `numbers`, `words`,
//! `trivia`, and for [`ParseMode::Repair`] (`RQuote`, `Look`, `Unq`) `salvage`.
//!
//! [`ParseMode::Repair`]: crate::parse::ParseMode::Repair

/// Where a string is, which decides how its stray quotes are read ([`ParseMode::Repair`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Ctx {
    /// A top-level value.
    #[default]
    Top,
    /// An object key.
    Key,
    /// An object member's value.
    ObjectValue,
    /// An array item.
    Array,
}

/// Where the lexer is relative to the top-level value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Phase {
    /// No token yet: BOM, whitespace, comments, a code fence or prose may come first.
    Start,
    /// Inside the value.
    Value,
    /// The value is complete: only whitespace (strict) or trailing text (lenient) follows;
    /// in [`ParseMode::Repair`] also separators, stray closing brackets and more values.
    After,
    /// A closing code fence inside the value ended the input early (lenient).
    Ended,
}

/// The quote a string was opened with, which decides what closes it (strict and lenient
/// modes; [`ParseMode::Repair`] reads strings with [`RQuote`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Quote {
    /// `"`: the next unescaped `"` closes.
    Double,
    /// `'`: a `'` closes only when the next non-whitespace is `, } ] :` or the end.
    Single,
    /// `“` or `”`: `”` or `“` closes, with the same look-ahead as `'`.
    SmartDouble,
    /// `‘` or `’`: `’` or `‘` closes, with the same look-ahead (`’` is also the apostrophe).
    SmartSingle,
}

/// Where a string is, beyond plain content.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Esc {
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
    /// After a closing candidate quote, the bytes so far (kept in `buf` from `at` on) of a
    /// character of `need` bytes that is not ASCII: a Unicode space (U+00A0 and the others
    /// jsonrepair reads as white space) is white space after the quote, anything else
    /// makes the quote content.
    ClosingSpace { mark: usize, at: usize, need: u8 },
    /// After a closing candidate quote, a `\` (lenient mode): `n`, `r` or `t` after it is
    /// white space written as an escape (`['a'\n]`, escaped JSON), anything else makes the
    /// quote content and the backslash the start of an escape in the string.
    ClosingEscape { mark: usize },
    /// After a closing candidate quote, a `/` (at `slash_at`): a comment after it
    /// (`'a' /* note */`) means the quote closed the string.
    ClosingSlash { mark: usize },
    /// After a closing candidate quote, `len` letters that may be a string prefix (the last
    /// `len` bytes of `buf`): a quote after them (`'a' u'b'`) means the quote closed the
    /// string and a prefixed literal follows (an f-string there is an error, as alone).
    ClosingPrefix { mark: usize, len: u8 },
    /// A Python escape in a `'` or prefixed string: `\x` (`width` 2), `\U` (8) or octal
    /// `\ooo` (`width` 0: up to three digits); `n` digits read so far, their `value`.
    Python { n: u8, width: u8, value: u32 },
    /// In a raw string (`r'...'`), after a `\` (kept): a quote or a backslash after it is
    /// content too, as in Python.
    RawBackslash,
    /// In a `"` string of a text that has shown itself Python, after `\x`: the first of its
    /// two hex digits once read, as written (kept, with the backslash, if no second follows).
    HexByte { first: Option<u8> },
}

/// A Python string prefix ([`ParseMode::Lenient`]): `u` (nothing to do), `r` (no escape
/// processing), `b` (a bytes literal: its ASCII text), in either case and order (`rb`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct StrPrefix {
    pub(in crate::parse) raw: bool,
    pub(in crate::parse) bytes: bool,
}

/// Where a number is, following the RFC 8259 grammar (plus `0x` hexadecimal and digit
/// separators in the lenient modes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Num {
    /// Nothing read yet.
    Start,
    /// `-`.
    Minus,
    /// `+` ([`ParseMode::Lenient`]): the sign `ast.literal_eval` and JSON5 allow before a
    /// number, which `serde_json`'s text of it leaves out.
    Plus,
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
    /// `0x` without a digit yet.
    HexStart,
    /// Hexadecimal digits.
    Hex,
    /// [`ParseMode::Lenient`]: a `_` after the digits of the state it holds, as Python
    /// separates digits (`1_000`); only a digit of that state may follow.
    Sep(Digits),
}

/// Where a digit separator is: which digits must follow it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Digits {
    /// `0_`: only zeros (Python's `0_0`; `0_1` is an error).
    Zero,
    /// Integer digits.
    Int,
    /// Fraction digits.
    Frac,
    /// Exponent digits.
    Exp,
    /// Hexadecimal digits (also right after `0x`: `0x_1f`).
    Hex,
}

/// The lexer's position inside a token or in the text around the value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum State {
    /// Between tokens (what that allows depends on the [`Phase`]).
    Between,
    /// Inside a string (strict and lenient modes).
    Str { quote: Quote, esc: Esc },
    /// Inside a string ([`ParseMode::Repair`]): raw bytes are collected in `raw`; `esc` when
    /// the previous byte was a backslash.
    Raw { quote: RQuote, esc: bool },
    /// Inside a string ([`ParseMode::Repair`]), in a multi-byte character that may close
    /// it; its first byte is `raw[mark]`.
    RawLead { quote: RQuote, mark: usize },
    /// After a quote that may close a [`State::Raw`] string (`raw[mark]`), and the
    /// whitespace after it (in `raw` too).
    Ahead { quote: RQuote, mark: usize, look: Look },
    /// Inside a number.
    Num(Num),
    /// Inside a bare word: an unquoted key (`key`) or a literal such as `true`.
    Word { key: bool },
    /// Text without quotes read as a string or key ([`ParseMode::Repair`]).
    Unquoted(Unq),
    /// A regular expression literal ([`ParseMode::Repair`]); `esc` after a backslash.
    Regex { esc: bool },
    /// `seen` bytes of the `need`-byte character at a token start (in `multi`).
    Multi { seen: u8, need: u8 },
    /// `seen` dots at a token start: `.5`, or `...` ([`ParseMode::Repair`]).
    Dots { seen: u8 },
    /// `\` at a token start: escaped JSON when `"` follows.
    Backslash,
    /// [`ParseMode::Repair`], where a value comes: `\` and `letter` (`n`, `r` or `t`) read;
    /// the byte after them tells white space written as an escape from unquoted text
    /// (`\new`).
    SpaceEscape { letter: u8 },
    /// After `/` outside a string: a comment may start.
    Slash,
    /// Inside `//` or `#` up to the end of the line (`hash`: a `#` comment, which in
    /// [`ParseMode::Repair`] also ends before a closing bracket inside a container).
    LineComment { hash: bool },
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
    /// [`ParseMode::Repair`]: prose after a fenced value, skipped up to another fence.
    SeekFence,
}
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

/// What was seen after a possible closing quote ([`State::Ahead`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Look {
    /// A quote that followed (its index in `raw`).
    pub(in crate::parse) second: Option<usize>,
    /// Spaces or tabs followed the quote.
    pub(in crate::parse) spaces: bool,
    /// A line break followed the quote.
    pub(in crate::parse) newline: bool,
    /// A multi-byte character being read after the quote (its index in `raw`).
    pub(in crate::parse) lead: Option<usize>,
    /// Where bytes that are neither spaces nor the quotes start in `raw` (a multi-byte
    /// character read to classify it): read again if the string ends at the quote.
    pub(in crate::parse) extra: Option<usize>,
    /// A comma that followed the second quote in an object value (its index in `raw`):
    /// whether anything but the end of the object follows it decides both quotes.
    pub(in crate::parse) comma: Option<usize>,
    /// Letters that may be a Python string prefix (`u`, `r`, `b`, `rb`) after a closing
    /// `'` (their index in `raw`): a quote right after them opens an adjacent literal
    /// (`'a' u'b'`); anything else makes them text, read as if the look-ahead had stopped
    /// at the first letter.
    pub(in crate::parse) prefix: Option<usize>,
    /// A backslash followed the quote where white space is written as escapes
    /// ([`Lexer::escaped_space_seen`](super::Lexer)): `\n`, `\r` or `\t` next is white space.
    pub(in crate::parse) escape: bool,
}

/// Text without quotes ([`State::Unquoted`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Unq {
    /// An object key: it also ends at `:` and at quotes.
    pub(in crate::parse) key: bool,
    /// It started as a number: if it still is one, it is one.
    pub(in crate::parse) number: bool,
    /// Brackets opened inside the text (`words{in brackets}`) and not yet closed.
    pub(in crate::parse) depth: u8,
    /// Only spaces since the first word: a `(` makes it a function call.
    pub(in crate::parse) call: bool,
    /// Inside a URL (`https://...`): only URL characters continue it.
    pub(in crate::parse) url: bool,
    /// A `/` (at `Lexer::slash_at`) waits for the next byte: a comment, or content.
    pub(in crate::parse) slash: bool,
    /// Bytes of a possible typographic quote ending a key, held in `Lexer::multi`.
    pub(in crate::parse) held: u8,
    /// json_repair's reading of an object value: the text was read on past its first comma
    /// (at this index in `Lexer::raw`), looking for the quote that closes it.
    pub(in crate::parse) comma: Option<usize>,
    /// That closing quote was just read (the last byte of `raw`): the next byte decides.
    pub(in crate::parse) quote: bool,
}

impl Unq {
    #[inline]
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

    #[inline]
    pub(crate) fn key() -> Unq {
        Unq { key: true, ..Unq::value() }
    }

    /// Text that started as a number (`0789`, `2024-10-18`, `1/3`, `2/*c*/`).
    #[inline]
    pub(crate) fn number() -> Unq {
        Unq { number: true, ..Unq::value() }
    }
}
