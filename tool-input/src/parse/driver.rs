//! The driver: runs the lexer and an output over a whole input, plus the two
//! things that need the whole input: retrying the next `{` or `[` when a candidate after
//! prose fails, and decoding a double-encoded payload.
//!
//! [`Machine`] pairs a [`Lexer`] with the grammar and its `Value` output
//! ([`super::grammar`], [`super::output::value`]), or in [`ParseMode::Repair`] with repair
//! mode's layer over them ([`super::repair`]): feed it fragments, then finish. [`parse_slow`]
//! is a machine fed the whole input at once, with the retry after prose ([`read_with_retry`], which the
//! tape reading shares) and the decoding of a double-encoded payload.

use serde_json::Value;

use super::grammar::{Fed, Grammar};
use super::lexer::{describe_char, Fail, Failure, Lexer};
use super::output::value::ValueOut;
use super::repair::RepairLayer;
use super::{ParseError, ParseMode, ParseOptions, Parsed, Repair, RepairKind};

/// How many later `{` or `[` are tried after a candidate following prose fails. Each
/// attempt reads a disjoint part of the input (the next candidate lies after the point
/// where the previous one failed), so the total stays linear either way.
pub(crate) const MAX_CANDIDATES: usize = 8;

/// How many levels of JSON-in-a-string are decoded.
pub(crate) const MAX_DOUBLE_ENCODING: usize = 2;

/// A lexer and an output: the resumable parser of one value. Feed it fragments of any size
/// with [`Machine::feed`] and end with [`Machine::finish`]; it never needs the earlier
/// fragments again.
#[derive(Debug)]
pub(crate) struct Machine {
    lexer: Lexer,
    build: Build,
    complete_truncated: bool,
}

/// What a [`Machine`] builds with.
#[derive(Debug)]
// The strict and lenient variant, the one on the hot path, stays inline; repair mode's is
// boxed.
#[allow(clippy::large_enum_variant)]
enum Build {
    /// Strict and lenient modes: the grammar and the `Value` output.
    Grammar(Grammar, ValueOut),
    /// [`ParseMode::Repair`]: the grammar and its output under repair mode's guesses.
    Repair(Box<RepairLayer>),
}

/// A parsed value with its repairs and where the value started.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Outcome {
    pub(crate) value: Value,
    /// Sorted by offset.
    pub(crate) repairs: Vec<Repair>,
    /// Absolute offset of the first byte of the top-level value.
    pub(crate) value_at: usize,
    /// An object repeated a key (its last value was kept).
    pub(crate) repeated_keys: bool,
}

/// A lexer for `options` reading from absolute offset `base`; `fence_open`, when it starts
/// inside prose after a failed candidate (whether a code fence is open there).
pub(crate) fn lexer_at(options: &ParseOptions, base: usize, fence_open: Option<bool>) -> Lexer {
    match fence_open {
        Some(fence_open) => Lexer::in_prose(options.mode, options.non_finite, base, fence_open),
        None => Lexer::new(options.mode, options.non_finite, base),
    }
    .with_readings(options)
}

impl Machine {
    /// A machine for input starting at absolute offset 0 (the tests feed it fragments).
    #[cfg(test)]
    pub(crate) fn new(options: &ParseOptions) -> Machine {
        Machine::with_lexer(lexer_at(options, 0, None), options, Vec::new(), false)
    }

    /// A machine reading with `lexer`, with `repairs` already recorded (those made before a
    /// later candidate); `track_floats`: it records the float literals.
    fn with_lexer(lexer: Lexer, options: &ParseOptions, repairs: Vec<Repair>, track_floats: bool) -> Machine {
        let build = match options.mode {
            ParseMode::Repair => Build::Repair(Box::new(
                RepairLayer::new(options).with_repairs(repairs).tracking_floats(track_floats),
            )),
            _ => {
                let out = if track_floats { ValueOut::tracking_floats() } else { ValueOut::new() };
                Build::Grammar(Grammar::new(options, repairs), out)
            }
        };
        Machine { lexer, build, complete_truncated: options.complete_truncated }
    }

    /// Read the next fragment.
    pub(crate) fn feed(&mut self, chunk: &[u8]) -> Result<(), Failure> {
        match &mut self.build {
            Build::Grammar(grammar, out) => self.lexer.feed(chunk, &mut Fed { grammar, out }),
            Build::Repair(layer) => self.lexer.feed(chunk, &mut **layer),
        }
    }

    /// Read the next fragment, known to be valid UTF-8 on its own (faster).
    pub(crate) fn feed_str(&mut self, chunk: &str) -> Result<(), Failure> {
        match &mut self.build {
            Build::Grammar(grammar, out) => self.lexer.feed_str(chunk, &mut Fed { grammar, out }),
            Build::Repair(layer) => self.lexer.feed_str(chunk, &mut **layer),
        }
    }

    /// End the input.
    pub(crate) fn finish(&mut self) -> Result<Outcome, Failure> {
        let complete = self.complete_truncated;
        let (value, mut repairs, repeated_keys) = match &mut self.build {
            Build::Grammar(grammar, out) => {
                self.lexer.finish(&mut Fed { grammar: &mut *grammar, out: &mut *out }, complete)?;
                grammar.finish(out, complete, self.lexer.offset())?;
                let value = out.take().unwrap_or(Value::Null);
                (value, grammar.take_repairs(), out.repeated_keys())
            }
            Build::Repair(layer) => {
                self.lexer.finish(&mut **layer, complete)?;
                let value = layer.finish(complete, self.lexer.offset())?;
                (value, layer.take_repairs(), layer.repeated_keys())
            }
        };
        // The lexer records repairs as it reads; only a trailing comma is recorded when its
        // closing bracket arrives, possibly after a comment.
        repairs.sort_by_key(|r| r.offset);
        let value_at = self.lexer.value_start().map_or(0, |(at, _)| at);
        Ok(Outcome { value, repairs, value_at, repeated_keys })
    }

    /// The float literals recorded, taken.
    fn take_floats(&mut self) -> Vec<(String, String)> {
        match &mut self.build {
            Build::Grammar(_, out) => out.take_floats(),
            Build::Repair(layer) => layer.take_floats(),
        }
    }
}

impl Attempt for Machine {
    type Done = (Outcome, Vec<(String, String)>);

    fn run(&mut self, input: Input<'_>) -> Result<Self::Done, Failure> {
        match input.text {
            Some(text) => self.feed_str(text)?,
            None => self.feed(input.bytes)?,
        }
        let outcome = self.finish()?;
        Ok((outcome, self.take_floats()))
    }

    fn lexer(&self) -> &Lexer {
        &self.lexer
    }

    fn repairs(&self) -> &[Repair] {
        match &self.build {
            Build::Grammar(grammar, _) => grammar.repairs(),
            Build::Repair(layer) => layer.repairs(),
        }
    }
}

/// One attempt at reading the value of a whole input from some offset on, by a one-shot
/// driver of one output: what [`read_with_retry`] runs for each candidate.
pub(crate) trait Attempt {
    /// What a successful attempt gives.
    type Done;
    /// Read `input` (from the attempt's offset on) and finish.
    fn run(&mut self, input: Input<'_>) -> Result<Self::Done, Failure>;
    /// The attempt's lexer (where its value started, whether prose came first).
    fn lexer(&self) -> &Lexer;
    /// The repairs the attempt recorded.
    fn repairs(&self) -> &[Repair];
}

/// Where to go on after the value of a first attempt failed: the next candidate after prose.
#[derive(Debug)]
pub(crate) struct Retry {
    /// Where the failed value started.
    pub(crate) value_at: usize,
    /// Repairs made before the first value (prose, a fence, comments), carried to each
    /// candidate.
    pub(crate) carried: Vec<Repair>,
    /// Whether a code fence was open where the value started.
    pub(crate) fence_open: bool,
}

/// Whether a first attempt that failed is retried at a later `{` or `[`, and with what: only
/// in the lenient modes, and only when the failed value came after prose or did not start
/// like an object or array (as in "1. Call it with {...}"): a failing `{...}` at the start is
/// an error, not a reason to pick some inner `[...]` out of it.
pub(crate) fn retry_after(lexer: &Lexer, repairs: &[Repair], mode: ParseMode) -> Option<Retry> {
    if mode == ParseMode::Strict {
        return None;
    }
    let (value_at, first_byte) = lexer.value_start()?;
    if !lexer.prose_seen() && matches!(first_byte, b'{' | b'[') {
        return None;
    }
    let mut carried: Vec<Repair> = repairs.iter().filter(|r| r.offset < value_at).copied().collect();
    if !carried.iter().any(|r| r.kind == RepairKind::ProseBefore) {
        carried.push(Repair::new(RepairKind::ProseBefore, value_at));
    }
    Some(Retry { value_at, carried, fence_open: lexer.fence_open() })
}

/// The next candidate after a failure at `failed_at`: the first `{` or `[` from
/// `max(failed_at, after)` on.
pub(crate) fn next_candidate(bytes: &[u8], failed_at: usize, after: usize) -> Option<usize> {
    let from = failed_at.max(after);
    let found = bytes.get(from..).and_then(|rest| rest.iter().position(|&b| matches!(b, b'{' | b'[')));
    found.map(|k| from + k)
}

/// Read a whole input: a first attempt, then (lenient) up to [`MAX_CANDIDATES`] later
/// candidates after prose; `start` makes the attempt reading with a lexer, with repairs
/// already recorded. The first attempt's error is the one returned if all fail.
pub(crate) fn read_with_retry<A: Attempt>(
    input: Input<'_>,
    options: &ParseOptions,
    mut start: impl FnMut(Lexer, Vec<Repair>) -> A,
) -> Result<A::Done, Failure> {
    let mut first = start(lexer_at(options, 0, None), Vec::new());
    let first_failure = match first.run(input) {
        Ok(done) => return Ok(done),
        Err(failure) => failure,
    };
    let Some(retry) = retry_after(first.lexer(), first.repairs(), options.mode) else {
        return Err(first_failure);
    };
    let mut failure = first_failure.clone();
    let mut after = retry.value_at + 1;
    for _ in 0..MAX_CANDIDATES {
        let Some(offset) = failure.syntax_offset() else { break };
        let Some(candidate) = next_candidate(input.bytes, offset, after) else { break };
        let mut next = start(lexer_at(options, candidate, Some(retry.fence_open)), retry.carried.clone());
        match next.run(input.from(candidate)) {
            Ok(done) => return Ok(done),
            Err(next_failure) => {
                failure = next_failure;
                after = candidate + 1;
            }
        }
    }
    // The first attempt's error is the most useful one.
    Err(first_failure)
}

/// The whole input: bytes, and the same as a `str` when it is known to be valid UTF-8.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Input<'a> {
    bytes: &'a [u8],
    text: Option<&'a str>,
}

impl<'a> Input<'a> {
    pub(crate) fn bytes(bytes: &'a [u8]) -> Input<'a> {
        Input { bytes, text: None }
    }

    pub(crate) fn text(text: &'a str) -> Input<'a> {
        Input { bytes: text.as_bytes(), text: Some(text) }
    }

    /// The bytes.
    pub(crate) fn as_bytes(self) -> &'a [u8] {
        self.bytes
    }

    /// The text, when the bytes are known to be valid UTF-8.
    pub(crate) fn as_text(self) -> Option<&'a str> {
        self.text
    }

    /// The input from `offset` on (an ASCII `{` or `[`, so a character boundary).
    fn from(self, offset: usize) -> Input<'a> {
        Input {
            bytes: self.bytes.get(offset..).unwrap_or_default(),
            text: self.text.and_then(|text| text.get(offset..)),
        }
    }
}

/// Parse a whole input with our own parser (no fast path), retrying later candidates after
/// prose, then decoding a double-encoded payload (lenient mode).
pub(crate) fn parse_slow(input: Input<'_>, options: &ParseOptions) -> Result<Parsed, ParseError> {
    parse_slow_noting_repeats(input, options).map(|(parsed, _)| parsed)
}

/// [`parse_slow`], and whether an object of the value repeated a key (the last value is kept).
pub(crate) fn parse_slow_noting_repeats(
    input: Input<'_>,
    options: &ParseOptions,
) -> Result<(Parsed, bool), ParseError> {
    let outcome = parse_outcome(input, options).map_err(|failure| to_error(failure, input.bytes, options))?;
    Ok(decode_double(outcome, options))
}

/// The text of the string `text` reads as, before [`decode_double`] decodes it; `None` when
/// it does not read as a string.
pub(crate) fn top_level_string(text: &str, options: &ParseOptions) -> Option<String> {
    match parse_outcome(Input::text(text), options).ok()?.value {
        Value::String(text) => Some(text),
        _ => None,
    }
}

/// Where the floats of `text` land: the JSON Pointer of each, with its text as sent
/// (`0.99999999999999999` where an integer may be expected, `12345678901234567890123`,
/// `1.50`). Read again only when a check needs a float's text (an integral float where an
/// integer is declared or beyond 2^53, a number made a string); empty when the text does
/// not parse.
pub(crate) fn float_literals(text: &str, options: &ParseOptions) -> Vec<(String, String)> {
    parse_outcome_with(Input::text(text), options, true).map(|(_, floats)| floats).unwrap_or_default()
}

/// Parse a whole input: a first attempt, then (lenient) later candidates after prose.
pub(crate) fn parse_outcome(input: Input<'_>, options: &ParseOptions) -> Result<Outcome, Failure> {
    parse_outcome_with(input, options, false).map(|(outcome, _)| outcome)
}

/// [`parse_outcome`], with the float literals when `track_floats`.
fn parse_outcome_with(
    input: Input<'_>,
    options: &ParseOptions,
    track_floats: bool,
) -> Result<(Outcome, Vec<(String, String)>), Failure> {
    read_with_retry(input, options, |lexer, repairs| {
        Machine::with_lexer(lexer, options, repairs, track_floats)
    })
}

/// Lenient mode: a top-level string holding a JSON object or array is decoded (up to
/// [`MAX_DOUBLE_ENCODING`] levels: a string holding a JSON string holding the object). The
/// string is kept as it is unless its content parses on its own, without prose, code
/// fence or completion, to an object or array.
///
/// With the value, whether an object of it repeated a key: of the decoded payload when it
/// is decoded (a key given twice inside the string is as much a repeat as one outside).
pub(crate) fn decode_double(outcome: Outcome, options: &ParseOptions) -> (Parsed, bool) {
    let Outcome { value, mut repairs, value_at, repeated_keys } = outcome;
    if options.mode != ParseMode::Lenient || !value.is_string() {
        return (Parsed { value, repairs }, repeated_keys);
    }
    let inner_options = ParseOptions { complete_truncated: false, ..options.clone() };
    let mut decoded: Option<Value> = None;
    let mut added: Vec<Repair> = Vec::new();
    let mut decoded_repeats = false;
    for level in 0..MAX_DOUBLE_ENCODING {
        let Value::String(text) = decoded.as_ref().unwrap_or(&value) else { break };
        let trimmed = text.trim();
        let nested_string = level + 1 < MAX_DOUBLE_ENCODING && trimmed.starts_with('"');
        if !(trimmed.starts_with(['{', '[']) || nested_string) {
            break;
        }
        // The payload is held to the caller's depth limit, as the text around it is:
        // `serde_json` reads it first only where its own limit is not the tighter one.
        let inner = match super::repeats::strict_noting_repeats(trimmed, options.max_depth) {
            Some((value, repeated_keys)) => {
                Outcome { value, repairs: Vec::new(), value_at: 0, repeated_keys }
            }
            None => match parse_outcome(Input::text(trimmed), &inner_options) {
                Ok(outcome) => outcome,
                Err(_) => break,
            },
        };
        let framed = inner.repairs.iter().any(|r| {
            matches!(
                r.kind,
                RepairKind::ProseBefore
                    | RepairKind::ProseAfter
                    | RepairKind::CodeFence
                    | RepairKind::CompletedTruncated
            )
        });
        if framed {
            break;
        }
        added.push(Repair::new(RepairKind::DoubleEncoded, value_at));
        // Offsets inside the decoded text do not map back to the input: use the string's.
        added.extend(inner.repairs.iter().map(|r| r.at(value_at)));
        decoded_repeats |= inner.repeated_keys;
        decoded = Some(inner.value);
    }
    match decoded {
        Some(inner) if inner.is_object() || inner.is_array() => {
            repairs.extend(added);
            repairs.sort_by_key(|r| r.offset);
            (Parsed { value: inner, repairs }, decoded_repeats)
        }
        _ => (Parsed { value, repairs }, repeated_keys),
    }
}

/// Turn a machine failure into the public error, computing line and column.
pub(crate) fn to_error(failure: Failure, input: &[u8], options: &ParseOptions) -> ParseError {
    match failure.into_kind() {
        Fail::Syntax { message, offset } => {
            let (line, column) = line_column(input, offset);
            ParseError::Syntax { message, offset, line, column }
        }
        Fail::Char { offset, at, prefix, suffix } => {
            let (line, column) = line_column(input, offset);
            let message = format!("{prefix}{}{suffix}", describe_char(input, at));
            ParseError::Syntax { message, offset, line, column }
        }
        Fail::Truncated { inside } => ParseError::Truncated { bytes: input.len(), inside },
        Fail::TooDeep => ParseError::TooDeep { limit: options.max_depth },
        Fail::InvalidUtf8 { offset } => ParseError::InvalidUtf8 { offset },
    }
}

/// 1-based line and column (in characters) of byte `offset`.
pub(crate) fn line_column(input: &[u8], offset: usize) -> (usize, usize) {
    let before = input.get(..offset).unwrap_or(input);
    let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |k| k + 1);
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
    let column =
        1 + before.get(line_start..).unwrap_or_default().iter().filter(|&&b| b & 0xC0 != 0x80).count();
    (line, column)
}
