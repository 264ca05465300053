//! The lenient JSON parser: raw model text in, a [`serde_json::Value`] and the list of
//! repairs it needed out.
//!
//! One pass over the bytes. Strict JSON goes through a fast path, and so does strict JSON
//! in a frame the lexer reads on its own (prose around it, a code fence: `framed`); anything else is read by
//! our own resumable tokenizer (`lexer`) and grammar (`grammar`), run by one `driver` into
//! one of the outputs in `output` (a `Value`, the tape a typed read takes, the incremental
//! parser's events), which repair what a model typically gets wrong about JSON syntax and
//! record each repair (see [`parse`] for the list). The repair mode's guesses at structure
//! are in `repair`; the incremental parser is `incremental`. A payload that was cut off is never completed silently: it is a
//! [`ParseError::Truncated`] unless the caller asked for
//! [`ParseOptions::complete_truncated`] (for display, never for tool calls).
//!
//! The tokenizer is a push-based state machine that can be fed fragments split anywhere,
//! so a streaming parser reuses it unchanged; the builder keeps open arrays and objects on
//! an explicit stack, so nesting never recurses. Both run in time linear in the input.
//! [`IncrementalParser`] is that streaming parser: fed fragments as they arrive, it reports
//! each member as it completes and each long string as it grows ([`StreamEvent`]), keeps a
//! partial value for display, and ends with what [`parse`] gives for the whole text.
//!
//! Three modes ([`ParseMode`]): strict JSON; lenient, for tool arguments, which repairs
//! syntax whose meaning is clear; and repair, for the `tool-input repair` command, which
//! also guesses at structure as the repair libraries do.
//!
//! # JSONTestSuite
//!
//! Strict mode accepts every `y_` case of JSONTestSuite and rejects every `n_` case. For
//! the 35 implementation-defined `i_` cases it accepts a number whose exponent underflows
//! (as `0.0`) and an integer beyond 64 bits (as the nearest `f64`), and rejects a number
//! that overflows to infinity ("number out of range"), a lone surrogate escape, invalid
//! UTF-8 (and UTF-16), a BOM, and 500 nested arrays (deeper than the limit of 128).
//! The lenient modes read a BOM and lone surrogates (as U+FFFD) instead. No input, in any
//! mode, panics, hangs or overflows the stack: nesting deeper than
//! [`ParseOptions::max_depth`] is [`ParseError::TooDeep`].
//!
//! ```
//! use tool_input::parse::{parse, ParseOptions, RepairKind};
//!
//! let parsed = parse("```json\n{'city': 'Paris', 'days': 3,}\n```", &ParseOptions::default()).unwrap();
//! assert_eq!(parsed.value, serde_json::json!({"city": "Paris", "days": 3}));
//! let kinds: Vec<RepairKind> = parsed.repairs.iter().map(|r| r.kind).collect();
//! assert!(kinds.contains(&RepairKind::CodeFence));
//! assert!(kinds.contains(&RepairKind::SingleQuotes));
//! assert!(kinds.contains(&RepairKind::TrailingComma));
//! ```

use serde_json::de::StrRead;
use serde_json::Value;

use output::float_text::FloatTexts;
use strict::Strict;

use crate::rejection_kind::RejectionKind;

pub(crate) mod driver;
pub(crate) mod framed;
mod grammar;
mod incremental;
pub(crate) mod lexer;
pub(crate) mod one_shot;
pub(crate) mod output;
pub(crate) mod records;
mod repair;
pub(crate) mod repeats;
mod retry;
mod spare;
pub(crate) mod strict;

#[cfg(test)]
mod tests;

pub use incremental::{IncrementalParser, StreamEvent};
pub(crate) use output::{tape, tape_de};
pub use records::Repair;
pub(crate) use records::{coalesce_repairs, record_repair};

/// Default for [`ParseOptions::max_bytes`]: 8 MiB.
///
/// ```
/// use tool_input::parse::{ParseOptions, DEFAULT_MAX_BYTES};
///
/// assert_eq!(ParseOptions::default().max_bytes, DEFAULT_MAX_BYTES);
/// assert_eq!(DEFAULT_MAX_BYTES, 8 * 1024 * 1024);
/// ```
pub const DEFAULT_MAX_BYTES: usize = 8 * 1024 * 1024;
/// Default for [`ParseOptions::max_depth`]: 128 nested arrays or objects, as `serde_json`.
///
/// ```
/// use tool_input::parse::{parse, ParseError, ParseOptions, DEFAULT_MAX_DEPTH};
///
/// let deep = "[".repeat(DEFAULT_MAX_DEPTH + 1) + &"]".repeat(DEFAULT_MAX_DEPTH + 1);
/// assert!(matches!(parse(&deep, &ParseOptions::default()), Err(ParseError::TooDeep { .. })));
/// let deep_enough = "[".repeat(DEFAULT_MAX_DEPTH) + &"]".repeat(DEFAULT_MAX_DEPTH);
/// assert!(parse(&deep_enough, &ParseOptions::default()).is_ok());
/// ```
pub const DEFAULT_MAX_DEPTH: usize = 128;

/// Which syntax the parser accepts. Each mode accepts everything the one before it does.
///
/// ```
/// use tool_input::parse::{parse, ParseMode, ParseOptions};
///
/// let text = "{'city': 'Paris',}";
/// assert!(parse(text, &ParseOptions::default().with_mode(ParseMode::Strict)).is_err());
/// let lenient = parse(text, &ParseOptions::default()).unwrap();
/// assert_eq!(lenient.value, serde_json::json!({"city": "Paris"}));
/// // Only repair mode guesses at a missing comma.
/// let text = r#"{"a": 1 "b": 2}"#;
/// assert!(parse(text, &ParseOptions::default()).is_err());
/// assert_eq!(parse(text, &ParseOptions::repair()).unwrap().value, serde_json::json!({"a": 1, "b": 2}));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum ParseMode {
    /// RFC 8259 JSON only: every repair is an error.
    Strict,
    /// Repair what models get wrong about JSON *syntax* without guessing at structure,
    /// recording each repair: the mode for tool arguments (see [`parse`]).
    #[default]
    Lenient,
    /// Also guess at structure, as the repair libraries jsonrepair and json_repair do:
    /// missing commas, colons, values and brackets, unquoted text, stray quotes inside
    /// strings, several values. For showing or salvaging text, never for arguments a tool
    /// runs with: a guess can be wrong. The `tool-input repair` command uses it.
    Repair,
}

/// What to do with `NaN`, `Infinity` and `-Infinity`, which JavaScript and Python write
/// but JSON has no value for.
///
/// ```
/// use tool_input::parse::{parse, NonFinite, ParseOptions};
///
/// assert!(parse("[1, NaN]", &ParseOptions::default()).is_err());
/// let shown = ParseOptions::default().with_non_finite(NonFinite::Null);
/// assert_eq!(parse("[1, NaN, -Infinity]", &shown).unwrap().value, serde_json::json!([1, null, null]));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum NonFinite {
    /// A syntax error: no tool can use such a number, and turning it into anything else
    /// would change the model's value. The default, for tool arguments.
    #[default]
    Reject,
    /// Read as `null`, recording [`RepairKind::NonFiniteNumber`]: for repairing text to
    /// show (what the `tool-input repair` command does).
    Null,
}

/// Whose reading to follow where the two best repair libraries read the same broken text
/// differently ([`ParseMode::Repair`] only; the other modes never guess).
///
/// jsonrepair (JavaScript) and json_repair (Python) disagree on a few inputs, and their
/// test suites contradict each other there: `{"a": }` is `{"a": null}` to jsonrepair and
/// `{"a": ""}` to json_repair. The default follows jsonrepair. [`RepairStyle::JsonRepair`]
/// is for output that must match the Python library, for instance when porting an agent
/// that used it. Either way each repair is recorded.
///
/// ```
/// use tool_input::parse::{parse, ParseOptions, RepairStyle};
///
/// let text = r#"[{"a": , "b": 1}, {]"#;
/// let ours = parse(text, &ParseOptions::repair().with_complete_truncated(true)).unwrap();
/// assert_eq!(ours.value, serde_json::json!([{"a": null, "b": 1}, {}]));
/// let python = ParseOptions::repair().with_style(RepairStyle::JsonRepair).with_complete_truncated(true);
/// assert_eq!(parse(text, &python).unwrap().value, serde_json::json!([{"a": "", "b": 1}]));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum RepairStyle {
    /// jsonrepair's readings: a missing value is `null`; an empty `{` closed by `]` is an
    /// empty object.
    #[default]
    Jsonrepair,
    /// json_repair's readings, each recorded:
    /// - a missing value is `""` ([`RepairKind::MissingValue`]);
    /// - an empty `{` inside an array that a `]` closes is dropped
    ///   ([`RepairKind::DroppedEmpty`]);
    /// - a string item or member value that is a ```` ```json ```` code block holding an
    ///   object or array is that object or array (`{"a": "```json {"b": 1}```"}` is
    ///   `{"a": {"b": 1}}`, [`RepairKind::CodeFence`] and [`RepairKind::DoubleEncoded`]);
    /// - quotes kept as content inside a string pair up (`{"key": "v"alue"}` keeps its last
    ///   quote);
    /// - text without quotes in an object value reads on past commas to a quote that closes
    ///   it (`{"a": ipsum, sic, datum.",}`);
    /// - a `{` followed by a word inside a string opens no object;
    /// - a value without a key is dropped ([`RepairKind::DroppedValue`]);
    /// - a string, number or literal after the top-level object or array is trailing text;
    /// - an object cut off after its first key (`{"a`) is a set of it (`["a"]`), and in an
    ///   array item a key the object already has that is left without a value
    ///   (`[{"a": 1, "a"}]`, or cut off) starts the next item, such a set.
    JsonRepair,
}

/// Options of one parse: start from [`ParseOptions::default`] (lenient), [`ParseOptions::strict`]
/// or [`ParseOptions::repair`], and change what you need with the `with_` methods.
///
/// ```
/// use tool_input::parse::{parse, ParseOptions};
/// let preview = ParseOptions::repair().with_complete_truncated(true).with_max_depth(32);
/// assert_eq!(parse("[1, 2", &preview).unwrap().value, serde_json::json!([1, 2]));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ParseOptions {
    /// Strict or lenient syntax.
    pub mode: ParseMode,
    /// Inputs longer than this many bytes are rejected with [`ParseError::TooLarge`].
    pub max_bytes: usize,
    /// Arrays and objects nested deeper than this are rejected with [`ParseError::TooDeep`].
    pub max_depth: usize,
    /// Close what was cut off (strings, arrays, objects, literals such as `tru`) instead of
    /// rejecting it as [`ParseError::Truncated`]. For showing partial output; never for
    /// arguments a tool will run with.
    pub complete_truncated: bool,
    /// What `NaN` and `Infinity` become (in [`ParseMode::Lenient`] and [`ParseMode::Repair`];
    /// strict JSON has no such words).
    pub non_finite: NonFinite,
    /// Whose reading to follow where jsonrepair and json_repair differ
    /// ([`ParseMode::Repair`] only).
    pub style: RepairStyle,
    /// Complete cut-off text so that the result only grows as more text arrives (for
    /// previews of a stream); `false` gives the best reading of text that will not grow
    /// (json_repair's default). It only matters with [`ParseOptions::complete_truncated`], in
    /// [`ParseMode::Repair`]: text cut off at the end is then final, so a string open at the
    /// end keeps a backslash it ends with (as text), loses its trailing white space (also an
    /// escaped line break), ends at a comma followed by a `key:` whose quotes are missing
    /// too, and a key open at the end ends at its colon.
    ///
    /// ```
    /// use tool_input::parse::{parse, ParseOptions};
    ///
    /// let preview = ParseOptions::repair().with_complete_truncated(true);
    /// let settled = preview.clone().with_stream_stable(false);
    ///
    /// let text = r#"{"note": "first line\n"#;
    /// assert_eq!(parse(text, &preview).unwrap().value, serde_json::json!({"note": "first line\n"}));
    /// assert_eq!(parse(text, &settled).unwrap().value, serde_json::json!({"note": "first line"}));
    ///
    /// let text = r#"{"dir": "C:\"#;
    /// assert_eq!(parse(text, &preview).unwrap().value, serde_json::json!({"dir": "C:"}));
    /// assert_eq!(parse(text, &settled).unwrap().value, serde_json::json!({"dir": "C:\\"}));
    /// ```
    pub stream_stable: bool,
    /// The text is a Python literal from its start (an argument of a call written in
    /// Python, [`TextFormat::Pythonic`](crate::calls::TextFormat::Pythonic)): a `"`
    /// string's `\xHH` is Python's, as it is once a text has shown itself Python.
    pub(crate) python: bool,
}

impl Default for ParseOptions {
    fn default() -> Self {
        ParseOptions {
            mode: ParseMode::Lenient,
            max_bytes: DEFAULT_MAX_BYTES,
            max_depth: DEFAULT_MAX_DEPTH,
            complete_truncated: false,
            non_finite: NonFinite::Reject,
            style: RepairStyle::Jsonrepair,
            stream_stable: true,
            python: false,
        }
    }
}

impl ParseOptions {
    /// Options for strict JSON, with the default limits.
    ///
    /// ```
    /// use tool_input::parse::{parse, ParseOptions};
    ///
    /// assert!(parse(r#"{"a": 1}"#, &ParseOptions::strict()).is_ok());
    /// assert!(parse(r#"{"a": 1,}"#, &ParseOptions::strict()).is_err());
    /// ```
    pub fn strict() -> Self {
        ParseOptions { mode: ParseMode::Strict, ..ParseOptions::default() }
    }

    /// Options of the repair path (the `tool-input repair` command): [`ParseMode::Repair`],
    /// non-finite numbers as `null`, the default limits. Cut-off input is still an error
    /// unless [`ParseOptions::complete_truncated`] is set as well.
    ///
    /// ```
    /// use tool_input::parse::{parse, ParseOptions};
    ///
    /// let parsed = parse("{name: Ada, age: NaN}", &ParseOptions::repair()).unwrap();
    /// assert_eq!(parsed.value, serde_json::json!({"name": "Ada", "age": null}));
    /// assert!(parse(r#"{"name": "Ad"#, &ParseOptions::repair()).is_err()); // cut off
    /// ```
    pub fn repair() -> Self {
        ParseOptions { mode: ParseMode::Repair, non_finite: NonFinite::Null, ..ParseOptions::default() }
    }

    /// Strict, lenient or repair syntax ([`ParseOptions::mode`]).
    ///
    /// ```
    /// use tool_input::parse::{ParseMode, ParseOptions};
    ///
    /// assert_eq!(ParseOptions::default().with_mode(ParseMode::Strict), ParseOptions::strict());
    /// ```
    pub fn with_mode(mut self, mode: ParseMode) -> Self {
        self.mode = mode;
        self
    }

    /// The longest accepted input, in bytes ([`ParseOptions::max_bytes`]).
    ///
    /// ```
    /// use tool_input::parse::{parse, ParseError, ParseOptions};
    ///
    /// let small = ParseOptions::default().with_max_bytes(8);
    /// assert!(parse("[1, 2]", &small).is_ok());
    /// assert_eq!(parse("[1, 2, 3, 4]", &small), Err(ParseError::TooLarge { bytes: 12, limit: 8 }));
    /// ```
    pub fn with_max_bytes(mut self, max_bytes: usize) -> Self {
        self.max_bytes = max_bytes;
        self
    }

    /// The deepest accepted nesting ([`ParseOptions::max_depth`]).
    ///
    /// ```
    /// use tool_input::parse::{parse, ParseError, ParseOptions};
    ///
    /// let shallow = ParseOptions::default().with_max_depth(2);
    /// assert!(parse("[[1]]", &shallow).is_ok());
    /// assert!(matches!(parse("[[[1]]]", &shallow), Err(ParseError::TooDeep { .. })));
    /// ```
    pub fn with_max_depth(mut self, max_depth: usize) -> Self {
        self.max_depth = max_depth;
        self
    }

    /// Close what was cut off instead of rejecting it ([`ParseOptions::complete_truncated`]).
    ///
    /// ```
    /// use tool_input::parse::{parse, ParseError, ParseOptions};
    ///
    /// let text = r#"{"items": ["a", "b"#;
    /// assert!(matches!(parse(text, &ParseOptions::default()), Err(ParseError::Truncated { .. })));
    /// let preview = ParseOptions::default().with_complete_truncated(true);
    /// assert_eq!(parse(text, &preview).unwrap().value, serde_json::json!({"items": ["a", "b"]}));
    /// ```
    pub fn with_complete_truncated(mut self, complete_truncated: bool) -> Self {
        self.complete_truncated = complete_truncated;
        self
    }

    /// What `NaN` and `Infinity` become ([`ParseOptions::non_finite`]).
    ///
    /// ```
    /// use tool_input::parse::{parse, NonFinite, ParseOptions, RepairKind};
    ///
    /// let parsed = parse("[Infinity]", &ParseOptions::default().with_non_finite(NonFinite::Null)).unwrap();
    /// assert_eq!(parsed.value, serde_json::json!([null]));
    /// assert_eq!(parsed.repairs[0].kind, RepairKind::NonFiniteNumber);
    /// ```
    pub fn with_non_finite(mut self, non_finite: NonFinite) -> Self {
        self.non_finite = non_finite;
        self
    }

    /// Whose reading repair mode follows ([`ParseOptions::style`]).
    ///
    /// ```
    /// use tool_input::parse::{parse, ParseOptions, RepairStyle};
    ///
    /// let text = r#"{"a": }"#;
    /// assert_eq!(parse(text, &ParseOptions::repair()).unwrap().value, serde_json::json!({"a": null}));
    /// let python = ParseOptions::repair().with_style(RepairStyle::JsonRepair);
    /// assert_eq!(parse(text, &python).unwrap().value, serde_json::json!({"a": ""}));
    /// ```
    pub fn with_style(mut self, style: RepairStyle) -> Self {
        self.style = style;
        self
    }

    /// Complete cut-off text as a stream that may grow, or as final text
    /// ([`ParseOptions::stream_stable`]).
    ///
    /// ```
    /// use tool_input::parse::{parse, ParseOptions};
    ///
    /// let text = r#"["done", "wai"#;
    /// let preview = ParseOptions::repair().with_complete_truncated(true);
    /// assert_eq!(parse(text, &preview).unwrap().value, serde_json::json!(["done", "wai"]));
    /// let settled = preview.with_stream_stable(false);
    /// assert_eq!(parse(text, &settled).unwrap().value, serde_json::json!(["done", "wai"]));
    /// ```
    pub fn with_stream_stable(mut self, stream_stable: bool) -> Self {
        self.stream_stable = stream_stable;
        self
    }
}

/// The result of a successful parse.
///
/// ```
/// use tool_input::parse::{parse, ParseOptions, RepairKind};
///
/// let parsed = parse("```json\n{\"n\": 1}\n```", &ParseOptions::default())?;
/// assert_eq!(parsed.value, serde_json::json!({"n": 1}));
/// assert_eq!(parsed.repairs[0].kind, RepairKind::CodeFence);
/// assert!(parse(r#"{"n": 1}"#, &ParseOptions::default())?.repairs.is_empty());
/// # Ok::<(), tool_input::parse::ParseError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed {
    /// The parsed value.
    pub value: Value,
    /// Every repair that was needed, in input order. Empty for strict JSON.
    pub repairs: Vec<Repair>,
}

/// One entry per kind, at its first offset, in the order the kinds first appear.
fn coalesce(mut parsed: Parsed) -> Parsed {
    coalesce_repairs(&mut parsed.repairs);
    parsed
}

/// What kind of syntax repair was made. [`RepairKind::code`] gives a stable snake_case name.
///
/// ```
/// use tool_input::parse::{parse, ParseOptions, RepairKind};
///
/// let parsed = parse("Sure! {'ok': True}", &ParseOptions::default())?;
/// let kinds: Vec<RepairKind> = parsed.repairs.iter().map(|r| r.kind).collect();
/// assert!(kinds.contains(&RepairKind::SingleQuotes));
/// assert!(kinds.contains(&RepairKind::PythonLiteral));
/// # Ok::<(), tool_input::parse::ParseError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum RepairKind {
    /// A UTF-8 byte order mark before the value was skipped.
    Bom,
    /// The value was wrapped in a Markdown code fence (```` ```json ... ``` ````); with
    /// [`RepairStyle::JsonRepair`], also a string value that is such a block.
    CodeFence,
    /// Text before the value was skipped.
    ProseBefore,
    /// Text after the value was skipped.
    ProseAfter,
    /// A comma before `]` or `}` was removed.
    TrailingComma,
    /// A string in single quotes was read as a JSON string.
    SingleQuotes,
    /// A string in typographic quotes (“ ” ‘ ’) was read as a JSON string.
    SmartQuotes,
    /// An object key without quotes was read as a string.
    UnquotedKey,
    /// A `//`, `/* */` or `#` comment was skipped.
    Comment,
    /// A Python literal `True`, `False` or `None` was read as `true`, `false` or `null`.
    PythonLiteral,
    /// The value was a JSON string holding the real JSON object or array; it was decoded
    /// (with [`RepairStyle::JsonRepair`], also a string value that is a ```` ```json ````
    /// block).
    DoubleEncoded,
    /// A raw control character (such as a newline) inside a string was kept as that
    /// character.
    ControlCharacter,
    /// An invalid escape sequence inside a string was kept as literal text (`\d` stays
    /// `\d`); `\'` outside a single-quoted string is read as `'`.
    InvalidEscape,
    /// An invalid UTF-16 surrogate escape was replaced with U+FFFD.
    LoneSurrogate,
    /// Something cut off at the end was closed (only with [`ParseOptions::complete_truncated`]).
    /// Recorded once, at the end of the input. With [`ParseOptions::stream_stable`] `false`
    /// this includes dropping the trailing white space of a string open at the end.
    CompletedTruncated,
    /// A Unicode space (no-break space, zero-width space, ideographic space, a BOM inside
    /// the text, ...) between tokens was read as whitespace.
    SpecialWhitespace,
    /// JavaScript's `undefined` was read as `null`.
    Undefined,
    /// A number written the JavaScript or Python way was read: `.5`, `-.5`, `1.` (as
    /// `1.0`), a leading `+` (`+1`), a dangling exponent (`2e` as `2`), digit separators (`1_000`; in
    /// [`ParseMode::Lenient`] only where Python allows them: one `_` between two digits).
    NumberSyntax,
    /// A Python escape in a `'` or prefixed string (`'\x41'`, `'\101'`, `'\U0001F600'`), or
    /// a `\xHH` in a `"` string of a text that has shown itself Python (`{'a': 1, 'b':
    /// "it's\x07"}`, as `repr` writes a string holding an apostrophe), was read as the
    /// character it spells, as `ast.literal_eval` reads it.
    PythonEscape,
    /// A hexadecimal number such as `0x10` was read as its value.
    HexNumber,
    /// `NaN`, `Infinity` or `-Infinity` was read as `null` (only with [`NonFinite::Null`]).
    NonFiniteNumber,
    /// The value was JSON written with a level of escapes: its quotes escaped
    /// (`{\"a\": 1}`), where one level of backslashes was removed, or white space between
    /// its tokens written as `\n`, `\r` or `\t` (`{\n  \"a\": 1\n}`), read as that white
    /// space (in [`ParseMode::Repair`] only where a key comes or in JSON whose quotes were
    /// escaped: elsewhere a backslash may start unquoted text).
    EscapedJson,
    /// A `true`, `false`, `null` or `none` in other letter case (`TRUE`, `Null`) was read
    /// as the literal ([`ParseMode::Repair`]).
    LiteralCase,
    /// A comma was missing between two values or members and was assumed
    /// ([`ParseMode::Repair`]).
    MissingComma,
    /// A colon was missing between a key and its value and was assumed ([`ParseMode::Repair`]).
    MissingColon,
    /// A key had no value (`{"a": }`, `{"a": ,`): the value was read as `null`, or as `""`
    /// with [`RepairStyle::JsonRepair`] ([`ParseMode::Repair`]).
    MissingValue,
    /// A closing bracket was missing (or the wrong one was written) before a later one, and
    /// was assumed; or an opening one: `["a": 1]` is `[{"a": 1}]`, a key repeated in an
    /// array item without a comma before it starts the next item (`[{"a": 1 "a": 2}]`, a
    /// missing `}, {`), a table row whose `[` was lost is put back
    /// (`{"t": [[1, 2], 3, 4], [5, 6]]}`) ([`ParseMode::Repair`]).
    MissingBracket,
    /// A closing bracket with nothing to close was skipped ([`ParseMode::Repair`]).
    ExtraBracket,
    /// A comma with nothing before it (`[,1]`, `[1,,2]`) was skipped ([`ParseMode::Repair`]).
    ExtraComma,
    /// Text without quotes where a value belongs was read as a string (`{a: hello world}`,
    /// `[2024-10-18T18:35:22Z]`, `0789`); `undefined` is [`RepairKind::Undefined`] instead
    /// ([`ParseMode::Repair`]).
    UnquotedString,
    /// A quote inside a string that does not end it (`"24" screen"`) was kept as content
    /// ([`ParseMode::Repair`]).
    UnescapedQuote,
    /// A string's closing quote was missing; the string was ended before the delimiter
    /// that follows its content (`["a, "b"]`) ([`ParseMode::Repair`]).
    MissingQuote,
    /// Strings joined with `+` (`"a" + "b"`) were read as one string ([`ParseMode::Repair`]).
    Concatenation,
    /// An ellipsis (`...`) standing for omitted items or members was skipped
    /// ([`ParseMode::Repair`]).
    Ellipsis,
    /// A regular expression literal (`/a+/`) was read as a string ([`ParseMode::Repair`]).
    Regex,
    /// A Python tuple `(1, 2)` (also `()` and `(1,)`) was read as an array; a
    /// parenthesised single value `(1)` as that value (in [`ParseMode::Lenient`] inside the
    /// value, or as the whole text when nothing but white space and comments follows it;
    /// anywhere in [`ParseMode::Repair`]).
    Tuple,
    /// A Python set (`{"a", "b"}`, `{1, 2}`) was read as an array (in
    /// [`ParseMode::Lenient`] when its items are literals, as `ast.literal_eval` reads them).
    SetAsArray,
    /// A key without a value in the middle of an object (`{"a": 1, COMMENT "b": 2}`), or a
    /// run of stray quotes before a key (`{"a": 1, """" "b": 2}`), was dropped
    /// ([`ParseMode::Repair`]).
    DroppedKey,
    /// Several top-level values (newline-delimited JSON, `1, 2`) were collected into an
    /// array ([`ParseMode::Repair`]).
    MultipleValues,
    /// An object or array closed too early was continued by what follows it
    /// (`{"a": 1}, "b": 2}`, `{"a": [1], [2]}`) ([`ParseMode::Repair`]).
    Reopened,
    /// An empty object or array next to another value on the same line
    /// (`[]{"a": 1}`) was dropped as a placeholder; with [`RepairStyle::JsonRepair`], also
    /// an empty `{` inside an array that `]` closes (`[{]`) ([`ParseMode::Repair`]).
    DroppedEmpty,
    /// A quote that closes nothing, after a string's closing quote and before the end of
    /// the object (`{"a": "b"\n",}`), was dropped ([`ParseMode::Repair`]).
    StrayQuote,
    /// A value without a key after an object member (`{"a": "x": 1}`) was dropped, with
    /// its colon ([`ParseMode::Repair`] with [`RepairStyle::JsonRepair`]).
    DroppedValue,
    /// A Python string prefix was read ([`ParseMode::Lenient`]): `u'a'` is `"a"`; `r'\d'`
    /// is `"\\d"` (no escape processing: a backslash is content, and so is a quote or a
    /// backslash after it); `b'x'`, a bytes literal, is the string of its ASCII text (JSON
    /// has no bytes; non-ASCII characters, which Python rejects there, are an error).
    /// `f'...'` is an expression, not a literal, and stays an error.
    StringPrefix,
    /// Adjacent string literals (`'a' 'b'`, `"a" "b"`, `"a" r'\d'`) were joined into one
    /// string, as Python joins them ([`ParseMode::Lenient`]; single-quoted ones when white
    /// space separates them). [`ParseMode::Repair`] joins a `'` literal and the `'` or
    /// prefixed literal after it (`'a''b'`, `['a' 'b']`, `'a' u'b'`, `'a' r'\d'`) the same
    /// way, and reads `"a" "b"` as a missing comma, as jsonrepair does.
    AdjacentStrings,
}

impl RepairKind {
    /// The stable snake_case name of this repair, as reports and the CLI print it (also
    /// its `Display`).
    ///
    /// ```
    /// use tool_input::parse::RepairKind;
    ///
    /// assert_eq!(RepairKind::TrailingComma.code(), "trailing_comma");
    /// assert_eq!(RepairKind::CodeFence.to_string(), "code_fence");
    /// ```
    pub fn code(self) -> &'static str {
        match self {
            RepairKind::Bom => "bom",
            RepairKind::CodeFence => "code_fence",
            RepairKind::ProseBefore => "prose_before",
            RepairKind::ProseAfter => "prose_after",
            RepairKind::TrailingComma => "trailing_comma",
            RepairKind::SingleQuotes => "single_quotes",
            RepairKind::SmartQuotes => "smart_quotes",
            RepairKind::UnquotedKey => "unquoted_key",
            RepairKind::Comment => "comment",
            RepairKind::PythonLiteral => "python_literal",
            RepairKind::DoubleEncoded => "double_encoded",
            RepairKind::ControlCharacter => "control_character",
            RepairKind::InvalidEscape => "invalid_escape",
            RepairKind::LoneSurrogate => "lone_surrogate",
            RepairKind::CompletedTruncated => "completed_truncated",
            RepairKind::SpecialWhitespace => "special_whitespace",
            RepairKind::Undefined => "undefined",
            RepairKind::NumberSyntax => "number_syntax",
            RepairKind::PythonEscape => "python_escape",
            RepairKind::HexNumber => "hex_number",
            RepairKind::NonFiniteNumber => "non_finite_number",
            RepairKind::EscapedJson => "escaped_json",
            RepairKind::LiteralCase => "literal_case",
            RepairKind::MissingComma => "missing_comma",
            RepairKind::MissingColon => "missing_colon",
            RepairKind::MissingValue => "missing_value",
            RepairKind::MissingBracket => "missing_bracket",
            RepairKind::ExtraBracket => "extra_bracket",
            RepairKind::ExtraComma => "extra_comma",
            RepairKind::UnquotedString => "unquoted_string",
            RepairKind::UnescapedQuote => "unescaped_quote",
            RepairKind::MissingQuote => "missing_quote",
            RepairKind::Concatenation => "concatenation",
            RepairKind::Ellipsis => "ellipsis",
            RepairKind::Regex => "regex",
            RepairKind::Tuple => "tuple",
            RepairKind::SetAsArray => "set_as_array",
            RepairKind::DroppedKey => "dropped_key",
            RepairKind::MultipleValues => "multiple_values",
            RepairKind::Reopened => "reopened",
            RepairKind::DroppedEmpty => "dropped_empty",
            RepairKind::StrayQuote => "stray_quote",
            RepairKind::DroppedValue => "dropped_value",
            RepairKind::StringPrefix => "string_prefix",
            RepairKind::AdjacentStrings => "adjacent_strings",
        }
    }
}

impl std::fmt::Display for RepairKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code())
    }
}

/// Why a parse failed.
///
/// ```
/// use tool_input::parse::{parse, ParseError, ParseOptions};
/// use tool_input::RejectionKind;
///
/// let error = parse(r#"{"a": [1, 2"#, &ParseOptions::default()).unwrap_err();
/// assert_eq!(error, ParseError::Truncated { bytes: 11, inside: "an array" });
/// assert_eq!(error.kind(), RejectionKind::Truncated);
/// let error = parse(r#"{"a" 1}"#, &ParseOptions::default()).unwrap_err();
/// assert!(matches!(error, ParseError::Syntax { line: 1, column: 6, .. }), "{error}");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseError {
    /// The text is not JSON, even after every repair we allow.
    #[error("{message} at line {line} column {column}")]
    Syntax {
        /// What was wrong, in lowercase words, e.g. "expected `,` or `}`".
        message: String,
        /// Byte offset in the input.
        offset: usize,
        /// 1-based line.
        line: usize,
        /// 1-based column, in characters.
        column: usize,
    },
    /// A number JSON's grammar allows but no `f64` holds (`1e400`, 400 digits): the text
    /// is JSON up to there, and the number is out of range. Its
    /// [`kind`](ParseError::kind) is [`RejectionKind::Invalid`]: the rejection names the
    /// number's path. As with any failure, the first is reported (the reading stops there).
    ///
    /// ```
    /// use tool_input::parse::{parse, ParseError, ParseOptions};
    /// use tool_input::RejectionKind;
    /// let error = parse(r#"{"m": [2, -1e999], "n": 1e400}"#, &ParseOptions::default()).unwrap_err();
    /// assert!(matches!(&error, ParseError::NumberOutOfRange { path, .. } if path == "/m/1"));
    /// assert_eq!(error.kind(), RejectionKind::Invalid);
    /// assert_eq!(error.to_string(), "number out of range at line 1 column 11");
    /// ```
    #[error("number out of range at line {line} column {column}")]
    NumberOutOfRange {
        /// The number's JSON Pointer.
        path: String,
        /// Byte offset of the number.
        offset: usize,
        /// 1-based line.
        line: usize,
        /// 1-based column, in characters.
        column: usize,
    },
    /// The bytes are not valid UTF-8.
    #[error("invalid UTF-8 at byte {offset}")]
    InvalidUtf8 {
        /// Byte offset of the first invalid byte.
        offset: usize,
    },
    /// The input ended inside a value: it was cut off.
    #[error("the input was cut off after {bytes} bytes, inside {inside}")]
    Truncated {
        /// How many bytes arrived.
        bytes: usize,
        /// What was open when the input ended, e.g. "a string", "an object".
        inside: &'static str,
    },
    /// The input is longer than [`ParseOptions::max_bytes`].
    #[error("the input is {bytes} bytes long, more than the limit of {limit}")]
    TooLarge {
        /// Input length in bytes.
        bytes: usize,
        /// The limit in force.
        limit: usize,
    },
    /// Arrays or objects are nested deeper than [`ParseOptions::max_depth`].
    #[error("arrays and objects are nested deeper than the limit of {limit}")]
    TooDeep {
        /// The limit in force.
        limit: usize,
    },
}

impl ParseError {
    /// The [`RejectionKind`] a call whose arguments fail so gets:
    /// `Parse` for syntax and UTF-8, `Invalid` for a number out of range, `Truncated`,
    /// `TooLarge` or `TooDeep`.
    ///
    /// ```
    /// use tool_input::parse::{parse, ParseOptions};
    /// use tool_input::RejectionKind;
    /// let error = parse(r#"{"a": [1, 2"#, &ParseOptions::default()).unwrap_err();
    /// assert_eq!(error.kind(), RejectionKind::Truncated);
    /// ```
    pub fn kind(&self) -> RejectionKind {
        match self {
            ParseError::Syntax { .. } | ParseError::InvalidUtf8 { .. } => RejectionKind::Parse,
            ParseError::NumberOutOfRange { .. } => RejectionKind::Invalid,
            ParseError::Truncated { .. } => RejectionKind::Truncated,
            ParseError::TooLarge { .. } => RejectionKind::TooLarge,
            ParseError::TooDeep { .. } => RejectionKind::TooDeep,
        }
    }
}

/// Parse `input` as JSON, repairing what [`ParseOptions::mode`] allows.
///
/// Never panics and never recurses: nesting is bounded by [`ParseOptions::max_depth`] and
/// the input by [`ParseOptions::max_bytes`]. One pass, in time linear in the input.
///
/// # Lenient repairs (the tool-argument path)
///
/// In [`ParseMode::Lenient`] each of these is read in the same single pass and recorded as a
/// [`Repair`]. None of them guesses at structure: they read syntax whose meaning is clear.
///
/// - a leading UTF-8 BOM; a Markdown code fence around the value;
/// - prose before the value (the value starts at the first `{` or `[`; when that candidate
///   fails, a few later ones are tried) and prose after it;
/// - trailing commas; `//`, `/* */` and `#` comments;
/// - strings in `'single'` or typographic quotes. Such a string closes only where its
///   closing quote is followed by `,` `}` `]` `:`, the `)` of a tuple, another literal
///   or the end of the input, so
///   `'it's'` is `"it's"`;
/// - unquoted object keys (`{customer_id: 1, $ref: 2, a-b: 3}`);
/// - Python's `True`, `False` and `None`; JavaScript's `undefined` (as `null`);
/// - Unicode spaces between tokens (no-break space, zero-width space, ...);
/// - numbers written the JavaScript way: `.5`, `-.5`, `1.` before `,` `]` `}`, `0x1F`;
/// - Python literals as `ast.literal_eval` reads them: a tuple (`(1, 2)`, `()`, `(1,)`; `(1)`
///   is `1`; as the whole text only when nothing but white space and comments follows it,
///   so that `(1) Call it with {...}` is prose before the object) and a set of literals (`{"a", "b"}`, `{1, 2}`, `{(1, 2), 3}`)
///   as arrays; Python's escapes in a `'` or prefixed string (`'\x41'`, `'\101'`,
///   `'\U0001F600'`; `\N{...}` is refused, saying so: send the character itself);
///   digit separators where Python allows them (`1_000`, `0x_1f`, `1_0.5`; `1__0`, `1_`,
///   `_1` and `0_1` stay errors); a set of names (`{a, b}`) stays an error; string
///   prefixes (`u'a'`; `r'\d'` without escape processing; `b'x'` as the text of its ASCII
///   bytes; `f'...'` stays an error, being an expression); adjacent literals joined,
///   inside the value or as the whole text (`"a" "b"`, `'a' 'b'`, `'a' u'b'` and `'a''b'`
///   are `"ab"`; so `'it''s'` is `"its"`);
/// - escaped JSON (`{\"a\": 1}`: one level of backslashes is removed);
/// - raw control characters in strings (kept), invalid escapes such as `\d` (kept as
///   written; `\'` is read as `'`, a backslash before a line break as the line break), lone
///   surrogate escapes (U+FFFD);
/// - a top-level string whose content is a JSON object or array (decoded, up to two levels
///   of encoding).
///
/// A function call (`abs(-5)`, `round(19.999)`, MongoDB's `NumberLong(2)`, JSONP's
/// `callback({...})`) is an error in every mode, as `ast.literal_eval` makes it: a call's
/// value is its result, never its argument.
///
/// A `"` always closes a `"` string. A second object or array after the value is an error
/// ("expected one json value"): arguments are one object, and which of two a model meant
/// is not ours to choose. `NaN`, `Infinity` and `-Infinity` follow
/// [`ParseOptions::non_finite`]: an error by default, since no tool can use them.
///
/// # Repair mode (the repair path)
///
/// [`ParseMode::Repair`] reads everything the suites of the repair libraries jsonrepair and
/// json_repair show (`tests/repair_suites.rs` runs both, with every deliberate difference
/// listed), guessing at structure where the text is broken. Each guess is recorded:
///
/// - a missing comma ([`RepairKind::MissingComma`]) or colon, an extra comma;
/// - a missing value is `null` ([`RepairKind::MissingValue`]): not `""`, which would
///   invent a value;
/// - a missing closing bracket before a later one (`{"a": [1, 2}`), the wrong closing
///   bracket (`{"a": 1]`), an extra one (`{"a": 1}}`);
/// - text without quotes as a string (`{a: hello world}`, `[2024-10-18T10:00:00Z]`,
///   `0789`, `1/3`), a regular expression (`/a+/`) as a string, and text without any JSON
///   as a string (`hello world`);
/// - quotes that cannot be trusted: a quote not followed by a delimiter is content
///   (`"24" screen"`); a string whose closing quote is missing ends before the delimiter
///   after its content (`{"a": "b, "c": 1}`, `["a, b]`); an inner quotation is kept
///   (`"say "hi", then"`);
/// - string concatenation: `"a" + "b"` is `"ab"` ([`RepairKind::Concatenation`]) — the
///   value the expression has;
/// - an ellipsis standing for omitted items is skipped: `[1, 2, ...]` is `[1, 2]`;
/// - adjacent `'` literals are one string, as Python joins them (`'a''b'`, `['a' 'b']` and
///   `'a' u'b'` give `"ab"`; `'a' r'\d'` is `"a\\d"`); a prefix is a letter the quote
///   touches (`'a' understand 'b'` stays text); `"a" "b"` is a missing comma, as jsonrepair
///   reads it;
/// - a Python tuple `(1, 2)` is `[1, 2]` and `(1)` is `1`; an object of bare keys
///   `{"a", "b"}` is the array `["a", "b"]`;
/// - `TRUE`, `Null` and `none` in other letter case; a lone `-` is `-0`; `1.` is `1.0`, a
///   dangling exponent is dropped (`2e` is `2`), digit separators (`1_000`);
/// - several top-level values (newline-delimited JSON, `1, 2`, consecutive code blocks)
///   become an array of them ([`RepairKind::MultipleValues`]), except that an empty `{}`
///   or `[]` next to a value on the same line is dropped as a placeholder; an object
///   closed too early goes on (`{"a": 1}, "b": 2}`), and so does a table whose row lost
///   its `[` (`{"t": [[1, 2], 3, 4], [5, 6]]}` is `{"t": [[1, 2], [3, 4], [5, 6]]}`);
/// - in an array item, a key the object already has, without a comma before it, starts the
///   next item (`[{"a": 1 "a": 2}]` is `[{"a": 1}, {"a": 2}]`); after a comma and before a
///   colon it is a duplicate, whose last value wins as in JSON;
/// - a word after a value where a member belongs, with no value of its own, is dropped as
///   stray text (`{"a": 1, COMMENT "b": 2}`), as is a run of stray quotes before a key
///   (`{"a": 1, """" "b": 2}`).
///
/// Repair mode never drops text inside strings and never turns text into another value
/// (`None` is `null`, but a quoted `"None"` stays a string). A top-level string stays a
/// string (no double-encoded decoding: that is the tool-argument path's business). The
/// one exception is json_repair's reading of a ```` ```json ```` block inside a string
/// value, with [`RepairStyle::JsonRepair`] only.
/// `tool-input repair` uses [`ParseOptions::repair`]: this mode, with `NaN` as `null`.
///
/// # Cut-off input
///
/// Input that ends inside a value (a string, an open array or object, `tru`, `1e`, after a
/// `:` or `,`) is [`ParseError::Truncated`]. With [`ParseOptions::complete_truncated`] it is
/// completed instead, recording [`RepairKind::CompletedTruncated`]: a string is closed (a
/// partial escape is dropped; in repair mode so are trailing spaces), a partial literal is
/// completed (`tru` → `true`, `Non` → `null`), a partial number loses its dangling `-`,
/// `.`, `e` or `e+` (a lone `-` is dropped; `-0` in repair mode), a key still waiting for
/// its value gets `null` (unless the object already has that key; in repair mode a stray
/// bare word is dropped instead; [`RepairStyle::JsonRepair`] reads it as json_repair does,
/// as a set), and every open container is closed. A closing code fence inside the value
/// also ends it this way. A complete top-level number such as `123` at the end is not cut
/// off. Completion is stream-stable by default (except where [`RepairStyle::JsonRepair`]
/// follows json_repair): the completed value of a prefix is what the full text will give,
/// as far as the prefix goes. In repair mode, [`ParseOptions::stream_stable`] `false` reads
/// the cut-off text as final instead (the best reading of text that will not grow, as
/// json_repair's default).
pub fn parse(input: &str, options: &ParseOptions) -> Result<Parsed, ParseError> {
    if input.len() > options.max_bytes {
        return Err(ParseError::TooLarge { bytes: input.len(), limit: options.max_bytes });
    }
    read_whole(input, options, false).map(|(parsed, _)| parsed)
}

/// Strict JSON (a response body, a stream's event) as a value, its floats correctly rounded:
/// by `serde_json` unless it might misread one (built without `float_roundtrip`), else by
/// this parser's strict mode. `Err` carries the reason.
///
/// A lone surrogate escape (`"\ud800"`, half of an emoji a model's tokens split) is JSON by
/// its grammar, which lets an escape name any code unit, but no Rust string holds it, and
/// `serde_json` refuses the whole text: a body of calls was read as prose then, and its
/// calls lost. Such text is read with each lone surrogate as U+FFFD, as the lenient parser
/// reads it (`lone_surrogate` in arguments), and only such text: anything else wrong is
/// still refused.
pub(crate) fn strict_value(text: &str) -> Result<Value, String> {
    strict_value_noting_repeats(text).map(|(value, _)| value)
}

/// [`strict_value`], and whether an object of the text may give a key twice: `false` only
/// when the reading saw every key and none twice, so a reader that must refuse a repeated
/// key looks for one only then.
pub(crate) fn strict_value_noting_repeats(text: &str) -> Result<(Value, bool), String> {
    let options = ParseOptions { max_bytes: usize::MAX, ..ParseOptions::strict() };
    match repeats::strict_reading(text, options.max_depth) {
        Strict::Read(read) => Ok(read),
        Strict::Refused(error) => {
            lone_surrogates_only(text).map(|value| (value, true)).ok_or_else(|| error.to_string())
        }
        // A float it may misread: the parser's strict mode reads the text, with no second
        // offer to `serde_json` (`refused_before`).
        Strict::NotTried => read_whole(text, &options, true)
            .map(|(parsed, _)| (parsed.value, true))
            .map_err(|error| error.to_string()),
    }
}

/// Is `text` JSON as far as [`strict_value`] read it, nested deeper than it reads (128
/// levels)? The parser's own strict mode reads it to that depth (building no deeper value,
/// which would take a recursion as deep to drop) and says whether it stopped there.
pub(crate) fn json_too_deep(text: &str) -> bool {
    let start = text.trim_start();
    if !(start.starts_with('{') || start.starts_with('[')) {
        return false;
    }
    let options = ParseOptions { max_bytes: usize::MAX, ..ParseOptions::strict() };
    matches!(read_whole(text, &options, true), Err(ParseError::TooDeep { .. }))
}

/// `text` read as JSON whose only fault is one or more lone surrogate escapes, each as
/// U+FFFD (see [`strict_value`]); `None` when it has another, or none.
fn lone_surrogates_only(text: &str) -> Option<Value> {
    // Every lone surrogate is written as an escape: text without one has none.
    if !text.contains("\\u") {
        return None;
    }
    let options = ParseOptions { max_bytes: usize::MAX, ..ParseOptions::default() };
    let parsed = read_whole(text, &options, true).ok()?.0;
    let only = |kind: RepairKind| kind == RepairKind::LoneSurrogate;
    (!parsed.repairs.is_empty() && parsed.repairs.iter().all(|repair| only(repair.kind)))
        .then_some(parsed.value)
}

/// [`parse`] of tool arguments, also telling whether an object repeated a key (whose last
/// value the parsed value keeps): the caller decides what a repeated key means. The same
/// single pass as [`parse`]; `not_strict_json`: `serde_json` has already refused the text
/// (the typed path's one-pass attempt found a syntax error), so it is not read as strict JSON
/// a second time.
pub(crate) fn parse_noting_repeats(
    input: &str,
    options: &ParseOptions,
    not_strict_json: bool,
) -> Result<(Parsed, bool), ParseError> {
    if input.len() > options.max_bytes {
        return Err(ParseError::TooLarge { bytes: input.len(), limit: options.max_bytes });
    }
    read_whole(input, options, not_strict_json)
}

/// The reading of a whole text, for [`parse`] and [`parse_noting_repeats`]: by `serde_json`
/// where [`strict::serde_json_first`] says it goes first (the text is scanned
/// for a float it may misread only after it read one: a refused text costs no scan), or
/// where the text is strict JSON in a frame ([`framed::framed_first`]), else by
/// the parser (retrying after prose); then a top-level string holding the payload is decoded
/// ([`one_shot::decode_double`], lenient mode), whichever read it. With the value, whether an
/// object repeated a key.
fn read_whole(
    input: &str,
    options: &ParseOptions,
    refused_before: bool,
) -> Result<(Parsed, bool), ParseError> {
    let strict_read = |d: &mut serde_json::Deserializer<StrRead<'_>>| repeats::noting_repeats(d);
    let strict = strict::serde_json_first(input, options.max_depth, refused_before, strict_read);
    // Where a strict reading broke says whether the text may be strict JSON mended.
    let known = match &strict {
        Strict::Refused(error) => framed::Mends::after_refusal(input, error),
        Strict::NotTried | Strict::Read(_) => framed::Mends::Unknown,
    };
    let outcome = match strict {
        Strict::Read((value, repeated_keys)) => {
            // No repairs; a double-encoded payload's repair is recorded where the value starts.
            let value_at = input.len() - input.trim_start().len();
            driver::Outcome { value, repairs: Vec::new(), value_at, repeated_keys }
        }
        Strict::NotTried | Strict::Refused(_) => {
            match framed::framed_first(input, options, known, strict_read) {
                // Strict JSON in a frame (prose, a code fence): the frame's repairs, the value
                // where it starts.
                Some(((value, repeated_keys), mut frame)) => {
                    let repairs = std::mem::take(&mut frame.repairs);
                    driver::Outcome { value, repairs, value_at: frame.at, repeated_keys }
                }
                None => one_shot::parse_outcome(driver::Input::text(input), options)
                    .map_err(|failure| one_shot::to_error(failure, input.as_bytes(), options))?,
            }
        }
    };
    let (parsed, repeated) = one_shot::decode_double(outcome, options);
    Ok((coalesce(parsed), repeated))
}

/// Parse bytes: decode them as UTF-8 (invalid UTF-8 is [`ParseError::InvalidUtf8`]), then
/// [`parse`].
///
/// ```
/// use tool_input::parse::{parse_bytes, ParseError, ParseOptions};
///
/// let parsed = parse_bytes(b"{\"to\": \"Zo\xc3\xab\"}", &ParseOptions::default())?;
/// assert_eq!(parsed.value["to"], "Zoë");
/// let error = parse_bytes(b"{\"to\": \"Zo\xff\"}", &ParseOptions::default()).unwrap_err();
/// assert_eq!(error, ParseError::InvalidUtf8 { offset: 10 });
/// # Ok::<(), ParseError>(())
/// ```
pub fn parse_bytes(input: &[u8], options: &ParseOptions) -> Result<Parsed, ParseError> {
    if input.len() > options.max_bytes {
        return Err(ParseError::TooLarge { bytes: input.len(), limit: options.max_bytes });
    }
    match std::str::from_utf8(input) {
        Ok(text) => parse(text, options),
        Err(error) => Err(ParseError::InvalidUtf8 { offset: error.valid_up_to() }),
    }
}

/// A parse written back as JSON text: what [`parse_to_json`] gives.
///
/// ```
/// use tool_input::parse::{parse_to_json, ParseOptions};
///
/// let parsed = parse_to_json(b"{b: 1.50, 'a': [1,],}", &ParseOptions::default())?;
/// assert_eq!(parsed.json, r#"{"a":[1],"b":1.50}"#);
/// let kinds: Vec<&str> = parsed.repairs.iter().map(|repair| repair.kind.code()).collect();
/// assert!(kinds.contains(&"unquoted_key") && kinds.contains(&"trailing_comma"), "{kinds:?}");
/// # Ok::<(), tool_input::parse::ParseError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ParsedJson {
    /// The value as compact JSON, every object's keys in order (bytewise, as `serde_json`
    /// writes a [`Value`] without its `preserve_order` feature, whatever the build's
    /// features), each number with the value the input wrote: a float as its text.
    pub json: String,
    /// Every repair that was needed, in input order, as [`Parsed::repairs`].
    pub repairs: Vec<Repair>,
    /// The texts `json` writes its floats with ([`ParsedJson::float_texts`]).
    float_texts: FloatTexts,
}

impl ParsedJson {
    /// The text of each float the parse read, as [`ParsedJson::json`] writes it, in the
    /// order they were read: a number `serde_json` reads as an `f64` (with a fraction or an
    /// exponent, `-0`, an integer past 64 bits). Strict JSON's are as the input wrote them.
    /// A key given twice keeps its last value in `json`; the floats of both are here.
    ///
    /// With these, a value read from the same text by `serde_json` can be written with its
    /// floats as the text wrote them (what `tool-input schema` does with a schema file):
    /// each float is the `f64` its text reads as.
    ///
    /// ```
    /// use tool_input::parse::{parse_to_json, ParseOptions};
    ///
    /// let text = br#"{"maximum": 12345678901234567890123, "multipleOf": 0.50, "minimum": 3, "default": 1e2}"#;
    /// let parsed = parse_to_json(text, &ParseOptions::strict())?;
    /// let floats: Vec<&str> = parsed.float_texts().collect();
    /// assert_eq!(floats, ["12345678901234567890123", "0.50", "1e2"]);
    /// // Repaired, a number is written as JSON of the same value.
    /// let parsed = parse_to_json(b"[.5, -0, 7]", &ParseOptions::repair())?;
    /// assert_eq!(parsed.float_texts().collect::<Vec<_>>(), ["0.5", "-0"]);
    /// # Ok::<(), tool_input::parse::ParseError>(())
    /// ```
    pub fn float_texts(&self) -> impl Iterator<Item = &str> + '_ {
        self.float_texts.iter()
    }
}

/// [`parse_bytes`]'s reading of `input`, written back as JSON text in which no number
/// changes its value: what `tool-input repair` prints.
///
/// A [`Value`] holds a number that is not a 64-bit integer as an `f64` (this crate never
/// turns on `serde_json`'s `arbitrary_precision`, which would change every `Value` of a
/// user's build): written from the value, `12345678901234567890123` would be
/// `1.2345678901234568e+22` and `0.1000000000000000055511151231257827` would be `0.1`. Here
/// each float is written with the digits the input wrote (`1e2`, `0.50` and `-0` stay as
/// they are), and a number beyond the floats, which [`parse_bytes`] refuses
/// ([`ParseError::NumberOutOfRange`]), is written as it was read (`1e400`). A number the
/// parser repaired is written as JSON of the same value: `.5` is `0.5`, `1.` is `1.0`,
/// `+1.5` is `1.5`, `1_000.5` is `1000.5`, `0x1F` is `31`. Strings, integers within 64 bits,
/// `true`, `false` and `null` are written as `serde_json` writes them.
///
/// ```
/// use tool_input::parse::{parse_to_json, ParseOptions};
///
/// let text = br#"{'n': 12345678901234567890123, "x": 0.1000000000000000055511151231257827, y: 1e2, z: .5}"#;
/// let parsed = parse_to_json(text, &ParseOptions::repair())?;
/// assert_eq!(parsed.json, r#"{"n":12345678901234567890123,"x":0.1000000000000000055511151231257827,"y":1e2,"z":0.5}"#);
/// assert_eq!(parse_to_json(b"[1e400]", &ParseOptions::strict())?.json, "[1e400]");
/// # Ok::<(), tool_input::parse::ParseError>(())
/// ```
pub fn parse_to_json(input: &[u8], options: &ParseOptions) -> Result<ParsedJson, ParseError> {
    if input.len() > options.max_bytes {
        return Err(ParseError::TooLarge { bytes: input.len(), limit: options.max_bytes });
    }
    let text = std::str::from_utf8(input)
        .map_err(|error| ParseError::InvalidUtf8 { offset: error.valid_up_to() })?;
    let (json, repairs, float_texts) = one_shot::parse_to_json(text, options)?;
    Ok(ParsedJson { json, repairs, float_texts })
}

/// [`parse_bytes`] without the `serde_json` fast path: our own parser alone, for tests and
/// benchmarks. Bytes that are not valid UTF-8 are read as bytes, so invalid UTF-8 is an
/// error only where it matters (inside strings and keys), as for a streamed input.
#[doc(hidden)]
pub fn parse_without_fast_path(input: &[u8], options: &ParseOptions) -> Result<Parsed, ParseError> {
    if input.len() > options.max_bytes {
        return Err(ParseError::TooLarge { bytes: input.len(), limit: options.max_bytes });
    }
    match std::str::from_utf8(input) {
        Ok(text) => one_shot::parse_slow(driver::Input::text(text), options),
        Err(_) => one_shot::parse_slow(driver::Input::bytes(input), options),
    }
    .map(coalesce)
}
