//! The lenient JSON parser: raw model text in, a [`serde_json::Value`] and the list of
//! repairs it needed out.
//!
//! One pass over the bytes. Strict JSON goes through a fast path; anything else is read by
//! our own resumable tokenizer (`lexer`) and tree builder (`tree`), which repair what a
//! model typically gets wrong about JSON syntax and record each repair (see [`parse`] for
//! the list). A payload that was cut off is never completed silently: it is a
//! [`ParseError::Truncated`] unless the caller asked for
//! [`ParseOptions::complete_truncated`] (for display, never for tool calls).
//!
//! The tokenizer is a push-based state machine that can be fed fragments split anywhere,
//! so a streaming parser reuses it unchanged; the builder keeps open arrays and objects on
//! an explicit stack, so nesting never recurses. Both run in time linear in the input.
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

use serde_json::Value;

pub(crate) mod lexer;
pub(crate) mod tree;

#[cfg(test)]
mod tests;

/// Default for [`ParseOptions::max_bytes`]: 8 MiB.
pub const DEFAULT_MAX_BYTES: usize = 8 * 1024 * 1024;
/// Default for [`ParseOptions::max_depth`]: 128 nested arrays or objects, as `serde_json`.
pub const DEFAULT_MAX_DEPTH: usize = 128;

/// Which syntax the parser accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ParseMode {
    /// RFC 8259 JSON only: every repair is an error.
    Strict,
    /// Repair what models get wrong about JSON syntax, recording each repair.
    #[default]
    Lenient,
}

/// Options of one parse.
#[derive(Debug, Clone, PartialEq, Eq)]
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
}

impl Default for ParseOptions {
    fn default() -> Self {
        ParseOptions {
            mode: ParseMode::Lenient,
            max_bytes: DEFAULT_MAX_BYTES,
            max_depth: DEFAULT_MAX_DEPTH,
            complete_truncated: false,
        }
    }
}

impl ParseOptions {
    /// Options for strict JSON, with the default limits.
    pub fn strict() -> Self {
        ParseOptions { mode: ParseMode::Strict, ..ParseOptions::default() }
    }
}

/// The result of a successful parse.
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed {
    /// The parsed value.
    pub value: Value,
    /// Every repair that was needed, in input order. Empty for strict JSON.
    pub repairs: Vec<Repair>,
}

/// One kind of repair the parser made, where it first made it, and how many times.
///
/// A payload in single quotes needs one repair per string; [`parse`] reports it once, with
/// the count, so a log line stays short however long the payload.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Repair {
    /// What was repaired.
    pub kind: RepairKind,
    /// Byte offset in the input of the first repair of this kind.
    pub offset: usize,
    /// How many times this repair was made.
    pub count: usize,
}

impl Repair {
    pub(crate) fn new(kind: RepairKind, offset: usize) -> Self {
        Repair { kind, offset, count: 1 }
    }
}

/// One entry per kind, at its first offset, in the order the kinds first appear.
fn coalesce(mut parsed: Parsed) -> Parsed {
    if parsed.repairs.len() > 1 {
        let mut kinds: Vec<Repair> = Vec::new();
        for repair in parsed.repairs.drain(..) {
            match kinds.iter_mut().find(|seen| seen.kind == repair.kind) {
                Some(seen) => seen.count += repair.count,
                None => kinds.push(repair),
            }
        }
        parsed.repairs = kinds;
    }
    parsed
}

/// What kind of syntax repair was made. [`RepairKind::code`] gives a stable snake_case name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum RepairKind {
    /// A UTF-8 byte order mark before the value was skipped.
    Bom,
    /// The value was wrapped in a Markdown code fence (```` ```json ... ``` ````).
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
    /// The value was a JSON string holding the real JSON object or array; it was decoded.
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
    /// Recorded once, at the end of the input.
    CompletedTruncated,
}

impl RepairKind {
    /// The stable snake_case name of this repair, as reports and the CLI print it.
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
        }
    }
}

impl std::fmt::Display for RepairKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code())
    }
}

/// Why a parse failed.
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

/// Parse `input` as JSON, repairing what [`ParseOptions::mode`] allows.
///
/// Never panics and never recurses: nesting is bounded by [`ParseOptions::max_depth`] and
/// the input by [`ParseOptions::max_bytes`].
///
/// # Lenient repairs
///
/// In [`ParseMode::Lenient`] each of these is read in the same single pass and recorded as a
/// [`Repair`]:
///
/// - a leading UTF-8 BOM; a Markdown code fence around the value;
/// - prose before the value (the value starts at the first `{` or `[`; when that candidate
///   fails, a few later ones are tried) and prose after it;
/// - trailing commas; `//`, `/* */` and `#` comments;
/// - strings in `'single'` or typographic quotes. Such a string closes only where its
///   closing quote is followed by `,` `}` `]` `:` or the end of the input, so
///   `'it's'` is `"it's"`;
/// - unquoted object keys (`{customer_id: 1, $ref: 2, a-b: 3}`);
/// - Python's `True`, `False` and `None`;
/// - raw control characters in strings (kept), invalid escapes such as `\d` (kept as
///   written; `\'` is read as `'`), lone surrogate escapes (U+FFFD);
/// - a top-level string whose content is a JSON object or array (decoded, up to two levels
///   of encoding).
///
/// A `"` always closes a `"` string.
///
/// # Cut-off input
///
/// Input that ends inside a value (a string, an open array or object, `tru`, `1e`, after a
/// `:` or `,`) is [`ParseError::Truncated`]. With [`ParseOptions::complete_truncated`] it is
/// completed instead, recording [`RepairKind::CompletedTruncated`]: a string is closed (a
/// partial escape is dropped), a partial literal is completed (`tru` → `true`, `Non` →
/// `null`), a partial number loses its dangling `-`, `.`, `e` or `e+` (a lone `-` is
/// dropped), a key still waiting for its value is dropped, and every open container is
/// closed. A closing code fence inside the value also ends it this way. A complete
/// top-level number such as `123` at the end is not cut off.
pub fn parse(input: &str, options: &ParseOptions) -> Result<Parsed, ParseError> {
    if input.len() > options.max_bytes {
        return Err(ParseError::TooLarge { bytes: input.len(), limit: options.max_bytes });
    }
    // Fast path: strict JSON through serde_json. Its own nesting limit is 128, so anything
    // it accepts is within our depth limit whenever that limit is at least 128.
    if options.max_depth >= DEFAULT_MAX_DEPTH {
        if let Ok(value) = serde_json::from_str::<Value>(input) {
            // Strict JSON may still be a double-encoded payload.
            if value.is_string() && options.mode == ParseMode::Lenient {
                let value_at = input.len() - input.trim_start().len();
                return Ok(coalesce(tree::decode_double(
                    tree::Outcome { value, repairs: Vec::new(), value_at },
                    options,
                )));
            }
            return Ok(Parsed { value, repairs: Vec::new() });
        }
    }
    tree::parse_slow(tree::Input::text(input), options).map(coalesce)
}

/// Parse bytes: decode them as UTF-8 (invalid UTF-8 is [`ParseError::InvalidUtf8`]), then
/// [`parse`].
pub fn parse_bytes(input: &[u8], options: &ParseOptions) -> Result<Parsed, ParseError> {
    if input.len() > options.max_bytes {
        return Err(ParseError::TooLarge { bytes: input.len(), limit: options.max_bytes });
    }
    match std::str::from_utf8(input) {
        Ok(text) => parse(text, options),
        Err(error) => Err(ParseError::InvalidUtf8 { offset: error.valid_up_to() }),
    }
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
        Ok(text) => tree::parse_slow(tree::Input::text(text), options),
        Err(_) => tree::parse_slow(tree::Input::bytes(input), options),
    }
    .map(coalesce)
}
