//! The tree builder, and the one-shot driver that runs the lexer and builder over a whole
//! input.
//!
//! [`Builder`] receives tokens from the [`Lexer`] through [`Sink`] and builds the
//! [`Value`] on an explicit stack of open arrays and objects, so nesting costs heap, not
//! call stack, and is bounded by `max_depth`. [`Machine`] pairs the two: it is what a
//! streaming parser drives (`feed` fragments, then `finish`). The one-shot
//! [`parse_slow`] is a machine fed the whole input at once, plus the two things that need
//! the whole input: retrying the next `{` or `[` when a candidate after prose fails, and
//! decoding a double-encoded payload.

use serde_json::{Map, Value};

use super::lexer::{describe_char, Fail, Failure, Lexer, Sink, Token};
use super::{ParseError, ParseMode, ParseOptions, Parsed, Repair, RepairKind};

/// How many later `{` or `[` are tried after a candidate following prose fails. Each
/// attempt reads a disjoint part of the input (the next candidate lies after the point
/// where the previous one failed), so the total stays linear either way.
const MAX_CANDIDATES: usize = 8;

/// How many levels of JSON-in-a-string are decoded.
const MAX_DOUBLE_ENCODING: usize = 2;

/// An open array or object.
#[derive(Debug)]
enum Frame {
    Array(Vec<Value>),
    /// `key` holds the key whose value is awaited.
    Object {
        map: Map<String, Value>,
        key: Option<String>,
    },
}

impl Frame {
    fn into_value(self) -> Value {
        match self {
            Frame::Array(items) => Value::Array(items),
            Frame::Object { map, .. } => Value::Object(map),
        }
    }
}

/// What the builder expects next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expect {
    /// A value: at the top level or after `:`.
    Value,
    /// After `[`: a value or `]`.
    FirstItem,
    /// After `,` (at `comma`) in an array: a value (or `]`, a trailing comma).
    Item { comma: usize },
    /// After `{`: a key or `}`.
    FirstKey,
    /// After `,` (at `comma`) in an object: a key (or `}`, a trailing comma).
    Key { comma: usize },
    /// After a key.
    Colon,
    /// After a value inside a container: `,` or the closing bracket.
    Comma,
    /// The top-level value is complete.
    Done,
}

/// Builds a [`Value`] from tokens, without recursion.
#[derive(Debug)]
pub(crate) struct Builder {
    lenient: bool,
    max_depth: usize,
    stack: Vec<Frame>,
    expect: Expect,
    result: Option<Value>,
    repairs: Vec<Repair>,
}

impl Builder {
    pub(crate) fn new(options: &ParseOptions) -> Builder {
        Builder {
            lenient: options.mode == ParseMode::Lenient,
            max_depth: options.max_depth,
            stack: Vec::new(),
            expect: Expect::Value,
            result: None,
            repairs: Vec::new(),
        }
    }

    /// End of input: the value, or what was left open. With `complete`, a key still
    /// waiting for its value is dropped and every open container is closed.
    pub(crate) fn finish(&mut self, complete: bool, end: usize) -> Result<Value, Failure> {
        if let Some(value) = self.result.take() {
            return Ok(value);
        }
        let inside = match self.stack.last() {
            None => return Err(Failure::syntax("expected a json value, found the end of the input", end)),
            Some(Frame::Array(_)) => "an array",
            Some(Frame::Object { .. }) => "an object",
        };
        if !complete {
            return Err(Fail::Truncated { inside }.into());
        }
        self.repair(RepairKind::CompletedTruncated, end);
        if let Some(Frame::Object { key, .. }) = self.stack.last_mut() {
            *key = None;
        }
        while let Some(frame) = self.stack.pop() {
            self.complete_value(frame.into_value());
        }
        self.result
            .take()
            .ok_or_else(|| Failure::syntax("expected a json value, found the end of the input", end))
    }

    /// The repairs recorded so far, in the order they were found.
    pub(crate) fn take_repairs(&mut self) -> Vec<Repair> {
        std::mem::take(&mut self.repairs)
    }

    /// A complete value: into the open container, or as the result.
    #[inline]
    fn complete_value(&mut self, value: Value) {
        match self.stack.last_mut() {
            None => {
                self.result = Some(value);
                self.expect = Expect::Done;
            }
            Some(Frame::Array(items)) => {
                items.push(value);
                self.expect = Expect::Comma;
            }
            Some(Frame::Object { map, key }) => {
                if let Some(key) = key.take() {
                    map.insert(key, value);
                }
                self.expect = Expect::Comma;
            }
        }
    }

    fn open(&mut self, frame: Frame, expect: Expect) -> Result<(), Failure> {
        if self.stack.len() >= self.max_depth {
            return Err(Fail::TooDeep.into());
        }
        self.stack.push(frame);
        self.expect = expect;
        Ok(())
    }

    fn close(&mut self) {
        if let Some(frame) = self.stack.pop() {
            self.complete_value(frame.into_value());
        }
    }

    /// A trailing comma at `comma` before the closing bracket at `offset`.
    fn trailing_comma(&mut self, comma: usize, offset: usize, bracket: char) -> Result<(), Failure> {
        if !self.lenient {
            return Err(Failure::syntax(format!("trailing comma before `{bracket}`"), offset));
        }
        self.repair(RepairKind::TrailingComma, comma);
        self.close();
        Ok(())
    }

    fn value_token(&mut self, token: Token, offset: usize) -> Result<(), Failure> {
        match token {
            Token::BeginArray => self.open(Frame::Array(Vec::new()), Expect::FirstItem),
            Token::BeginObject => self.open(Frame::Object { map: Map::new(), key: None }, Expect::FirstKey),
            Token::Str(text) => {
                self.complete_value(Value::String(text));
                Ok(())
            }
            Token::Number(number) => {
                self.complete_value(Value::Number(number));
                Ok(())
            }
            Token::Bool(value) => {
                self.complete_value(Value::Bool(value));
                Ok(())
            }
            Token::Null => {
                self.complete_value(Value::Null);
                Ok(())
            }
            Token::EndArray if self.expect == Expect::FirstItem => {
                self.close();
                Ok(())
            }
            Token::EndArray if matches!(self.expect, Expect::Item { .. }) => {
                let Expect::Item { comma } = self.expect else { return Ok(()) };
                self.trailing_comma(comma, offset, ']')
            }
            Token::EndArray | Token::EndObject | Token::Colon | Token::Comma => {
                let message = match self.expect {
                    Expect::FirstItem => "expected a value or `]`",
                    Expect::Item { .. } => "expected a value after `,`",
                    _ if self.stack.is_empty() => "expected a json value",
                    _ => "expected a value after `:`",
                };
                Err(Failure::syntax(format!("{message}, found {}", token.describe()), offset))
            }
        }
    }

    fn key_token(&mut self, token: Token, offset: usize) -> Result<(), Failure> {
        match token {
            Token::Str(text) => {
                if let Some(Frame::Object { key, .. }) = self.stack.last_mut() {
                    *key = Some(text);
                }
                self.expect = Expect::Colon;
                Ok(())
            }
            Token::EndObject => match self.expect {
                Expect::Key { comma } => self.trailing_comma(comma, offset, '}'),
                _ => {
                    self.close();
                    Ok(())
                }
            },
            _ => {
                let message = match self.expect {
                    Expect::FirstKey => "expected a string key or `}`",
                    _ => "expected a string key after `,`",
                };
                Err(Failure::syntax(format!("{message}, found {}", token.describe()), offset))
            }
        }
    }

    fn comma_token(&mut self, token: Token, offset: usize) -> Result<(), Failure> {
        let in_array = matches!(self.stack.last(), Some(Frame::Array(_)));
        match (token, in_array) {
            (Token::Comma, true) => {
                self.expect = Expect::Item { comma: offset };
                Ok(())
            }
            (Token::Comma, false) => {
                self.expect = Expect::Key { comma: offset };
                Ok(())
            }
            (Token::EndArray, true) | (Token::EndObject, false) => {
                self.close();
                Ok(())
            }
            (token, true) => Err(Failure::syntax(
                format!("expected `,` or `]` after an array value, found {}", token.describe()),
                offset,
            )),
            (token, false) => Err(Failure::syntax(
                format!("expected `,` or `}}` after an object value, found {}", token.describe()),
                offset,
            )),
        }
    }
}

impl Sink for Builder {
    #[inline(always)]
    fn token(&mut self, token: Token, offset: usize) -> Result<(), Failure> {
        match self.expect {
            Expect::Value | Expect::FirstItem | Expect::Item { .. } => self.value_token(token, offset),
            Expect::FirstKey | Expect::Key { .. } => self.key_token(token, offset),
            Expect::Comma => self.comma_token(token, offset),
            Expect::Colon if token == Token::Colon => {
                self.expect = Expect::Value;
                Ok(())
            }
            Expect::Colon => Err(Failure::syntax(
                format!("expected `:` after an object key, found {}", token.describe()),
                offset,
            )),
            Expect::Done => {
                Err(Failure::syntax(format!("unexpected {} after the json value", token.describe()), offset))
            }
        }
    }

    #[inline]
    fn expects_key(&self) -> bool {
        matches!(self.expect, Expect::FirstKey | Expect::Key { .. })
    }

    #[inline]
    fn is_complete(&self) -> bool {
        self.expect == Expect::Done
    }

    fn repair(&mut self, kind: RepairKind, offset: usize) {
        // Completing several cut-off things at the end is one repair.
        if kind == RepairKind::CompletedTruncated && self.repairs.iter().any(|r| r.kind == kind) {
            return;
        }
        self.repairs.push(Repair::new(kind, offset));
    }
}

/// A lexer and a builder: the resumable parser of one value. Feed it fragments of any size
/// with [`Machine::feed`] and end with [`Machine::finish`]; it never needs the earlier
/// fragments again.
#[derive(Debug)]
pub(crate) struct Machine {
    lexer: Lexer,
    builder: Builder,
    complete_truncated: bool,
}

/// A parsed value with its repairs and where the value started.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Outcome {
    pub(crate) value: Value,
    /// Sorted by offset.
    pub(crate) repairs: Vec<Repair>,
    /// Absolute offset of the first byte of the top-level value.
    pub(crate) value_at: usize,
}

impl Machine {
    /// A machine for input starting at absolute offset 0.
    pub(crate) fn new(options: &ParseOptions) -> Machine {
        Machine::with_lexer(Lexer::new(options.mode == ParseMode::Lenient, 0), options)
    }

    fn with_lexer(lexer: Lexer, options: &ParseOptions) -> Machine {
        Machine { lexer, builder: Builder::new(options), complete_truncated: options.complete_truncated }
    }

    /// Read the next fragment.
    pub(crate) fn feed(&mut self, chunk: &[u8]) -> Result<(), Failure> {
        self.lexer.feed(chunk, &mut self.builder)
    }

    /// Read the next fragment, known to be valid UTF-8 on its own (faster).
    pub(crate) fn feed_str(&mut self, chunk: &str) -> Result<(), Failure> {
        self.lexer.feed_str(chunk, &mut self.builder)
    }

    /// End the input.
    pub(crate) fn finish(&mut self) -> Result<Outcome, Failure> {
        self.lexer.finish(&mut self.builder, self.complete_truncated)?;
        let value = self.builder.finish(self.complete_truncated, self.lexer.offset())?;
        let mut repairs = self.builder.take_repairs();
        // The lexer records repairs as it reads; only a trailing comma is recorded when its
        // closing bracket arrives, possibly after a comment.
        repairs.sort_by_key(|r| r.offset);
        let value_at = self.lexer.value_start().map_or(0, |(at, _)| at);
        Ok(Outcome { value, repairs, value_at })
    }
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
    let outcome = parse_outcome(input, options).map_err(|failure| to_error(failure, input.bytes, options))?;
    Ok(decode_double(outcome, options))
}

/// Parse a whole input: a first attempt, then (lenient) later candidates after prose.
fn parse_outcome(input: Input<'_>, options: &ParseOptions) -> Result<Outcome, Failure> {
    let mut machine = Machine::new(options);
    let first_failure = match run(&mut machine, input) {
        Ok(outcome) => return Ok(outcome),
        Err(failure) => failure,
    };
    if options.mode != ParseMode::Lenient {
        return Err(first_failure);
    }
    // Retry only when the failed value came after prose or did not start like an object or
    // array (as in "1. Call it with {...}"): a failing `{...}` at the start is an error, not
    // a reason to pick some inner `[...]` out of it.
    let Some((value_at, first_byte)) = machine.lexer.value_start() else { return Err(first_failure) };
    if !machine.lexer.prose_seen() && matches!(first_byte, b'{' | b'[') {
        return Err(first_failure);
    }
    let mut carried: Vec<Repair> =
        machine.builder.repairs.iter().filter(|r| r.offset < value_at).copied().collect();
    if !carried.iter().any(|r| r.kind == RepairKind::ProseBefore) {
        carried.push(Repair::new(RepairKind::ProseBefore, value_at));
    }
    let fence_open = machine.lexer.fence_open();
    let mut failure = first_failure.clone();
    let mut after = value_at + 1;
    for _ in 0..MAX_CANDIDATES {
        let Some(offset) = failure.syntax_offset() else { break };
        let from = offset.max(after);
        let found =
            input.bytes.get(from..).and_then(|rest| rest.iter().position(|&b| matches!(b, b'{' | b'[')));
        let Some(candidate) = found.map(|k| from + k) else { break };
        let mut next = Machine::with_lexer(Lexer::in_prose(candidate, fence_open), options);
        next.builder.repairs.clone_from(&carried);
        match run(&mut next, input.from(candidate)) {
            Ok(outcome) => return Ok(outcome),
            Err(next_failure) => {
                failure = next_failure;
                after = candidate + 1;
            }
        }
    }
    // The first attempt's error is the most useful one.
    Err(first_failure)
}

/// Feed `input` to the machine at once and finish.
fn run(machine: &mut Machine, input: Input<'_>) -> Result<Outcome, Failure> {
    match input.text {
        Some(text) => machine.feed_str(text)?,
        None => machine.feed(input.bytes)?,
    }
    machine.finish()
}

/// Lenient mode: a top-level string holding a JSON object or array is decoded (up to
/// [`MAX_DOUBLE_ENCODING`] levels: a string holding a JSON string holding the object). The
/// string is kept as it is unless its content parses on its own, without prose, code
/// fence or completion, to an object or array.
pub(crate) fn decode_double(outcome: Outcome, options: &ParseOptions) -> Parsed {
    let Outcome { value, mut repairs, value_at } = outcome;
    if options.mode != ParseMode::Lenient || !value.is_string() {
        return Parsed { value, repairs };
    }
    let inner_options = ParseOptions { complete_truncated: false, ..options.clone() };
    let mut decoded: Option<Value> = None;
    let mut added: Vec<Repair> = Vec::new();
    for level in 0..MAX_DOUBLE_ENCODING {
        let Value::String(text) = decoded.as_ref().unwrap_or(&value) else { break };
        let trimmed = text.trim();
        let nested_string = level + 1 < MAX_DOUBLE_ENCODING && trimmed.starts_with('"');
        if !(trimmed.starts_with(['{', '[']) || nested_string) {
            break;
        }
        let inner = match serde_json::from_str::<Value>(trimmed) {
            Ok(value) => Outcome { value, repairs: Vec::new(), value_at: 0 },
            Err(_) => match parse_outcome(Input::text(trimmed), &inner_options) {
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
        added.extend(inner.repairs.iter().map(|r| Repair { offset: value_at, ..*r }));
        decoded = Some(inner.value);
    }
    match decoded {
        Some(inner) if inner.is_object() || inner.is_array() => {
            repairs.extend(added);
            repairs.sort_by_key(|r| r.offset);
            Parsed { value: inner, repairs }
        }
        _ => Parsed { value, repairs },
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
