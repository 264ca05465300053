//! The incremental parser: fragments in, events and a partial value out, and at the end the
//! same [`Parsed`] as [`parse`](super::parse) of the whole text.
//!
//! It drives the same [`Lexer`] as the one-shot parser, fragment by fragment, into a builder
//! of its own ([`Tree`]) that keeps the value *in place*: one [`Value`] whose open arrays and
//! objects are already inside their parents, with the path to the innermost one kept as a
//! stack of indexes and keys. A member or item is put into the tree when it starts (an array
//! or object when it opens, a string still open at the end of a fragment as far as it was
//! read), so the partial value is the tree itself and [`IncrementalParser::partial`] costs
//! nothing. What that costs instead is a walk down the open path (its depth, a few map
//! look-ups) for each value, and for the string being read at the end of each fragment; the
//! text of that string moves from the lexer into the tree then, so it is copied once more
//! than in a one-shot parse, not once per fragment. A fragment that is plain content of a
//! string already in the tree (no escape, no quote: most fragments of a long string) skips
//! the lexer's state machine and goes into the tree directly ([`Lexer::plain_run`]). See
//! `suite/benches/stream.rs` and BENCHMARKS.md for the figures.
//!
//! The one-shot builder (`tree::Builder`) stays as it is, on its own hot path; the rules
//! this builder shares with it (trailing commas, function-call wrappers, what a cut-off
//! input completes to, every error message) are checked against it by the property tests,
//! which compare the final value, repairs and error with [`parse`](super::parse) over random
//! splits. [`ParseMode::Repair`] restructures what it has built (a second top-level value,
//! an object closed too early and continued, a set read as an array), so in that mode the
//! final value comes from the one-shot builder fed fragment by fragment, no event is
//! reported, and the partial value comes from a lenient reading of the same text that stops
//! where that reading fails.

use std::borrow::Cow;
use std::mem;

use serde_json::{Map, Value};

use super::lexer::{Ctx, Fail, Failure, Lexer, Sink, Token};
use super::repair::Builder;
use super::tree::{self, Outcome, MAX_CANDIDATES};
use super::{coalesce, ParseError, ParseMode, ParseOptions, Parsed, Repair, RepairKind, DEFAULT_MAX_DEPTH};
use crate::pointer::push_token;

/// The partial value before any value started.
static NULL: Value = Value::Null;

/// Something the [`IncrementalParser`] learned from a fragment. Paths are JSON Pointers
/// (RFC 6901) into the value, `""` being the value itself.
///
/// Events come in the order of the text. In [`ParseMode::Strict`] and
/// [`ParseMode::Lenient`]:
///
/// - [`ValueComplete`](StreamEvent::ValueComplete) for every member of an object and every
///   item of an array, at any depth, once its value is complete (a scalar when the token
///   after it arrives, an array or object when it closes, after the events of what is in
///   it). Not for the top-level value itself: that is [`IncrementalParser::finish`]'s. The
///   value is the one the final parse has at that path, except where a later member with
///   the same key replaces it (the last one wins, as in the final value), and inside a
///   function-call wrapper such as `NumberLong(2)`, which reports only its result.
/// - [`StringGrew`](StreamEvent::StringGrew) for a string value still being read at the end
///   of a fragment, with the text decoded since the last report, and once more with the
///   rest when it ends (before its `ValueComplete`). The pieces of a path concatenate to
///   its final string. A string that starts and ends in one fragment has no `StringGrew`,
///   only its `ValueComplete`. A top-level string reports at `""`; if it turns out to be a
///   double-encoded object, only [`finish`](IncrementalParser::finish) decodes it.
/// - [`Restart`](StreamEvent::Restart) when a value that came after prose failed and the
///   parser goes on to the next `{` or `[` (as the one-shot parser retries it): what was
///   reported before was prose, not the value.
///
/// [`ParseMode::Repair`] reports no events: its guesses can restructure what was read.
///
/// ```
/// use tool_input::parse::{IncrementalParser, ParseOptions, StreamEvent};
///
/// let mut parser = IncrementalParser::new(ParseOptions::default());
/// let mut events = Vec::new();
/// for chunk in [r#"{"path": "a.txt", "content": "Hello, "#, r#"world"}"#] {
///     parser.feed_with(chunk, |event| events.push(event.into_owned())).unwrap();
/// }
/// assert!(matches!(&events[0], StreamEvent::ValueComplete { path, value } if path == "/path" && value.as_str() == Some("a.txt")));
/// assert_eq!(events[1], StreamEvent::StringGrew { path: "/content".into(), appended: "Hello, ".into() });
/// assert_eq!(events[2], StreamEvent::StringGrew { path: "/content".into(), appended: "world".into() });
/// assert!(matches!(&events[3], StreamEvent::ValueComplete { path, .. } if path == "/content"));
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum StreamEvent<'a> {
    /// The value of the member or item at `path` is complete.
    ValueComplete {
        /// JSON Pointer of the member or item.
        path: Cow<'a, str>,
        /// Its value.
        value: Cow<'a, Value>,
    },
    /// The string at `path` grew by `appended` (decoded text).
    StringGrew {
        /// JSON Pointer of the string.
        path: Cow<'a, str>,
        /// The text read since the last report for this string.
        appended: Cow<'a, str>,
    },
    /// What was reported so far was prose before the value: forget it. The partial value
    /// starts again from nothing.
    Restart,
}

impl StreamEvent<'_> {
    /// The event with its path and value owned, to keep beyond the callback.
    pub fn into_owned(self) -> StreamEvent<'static> {
        match self {
            StreamEvent::ValueComplete { path, value } => StreamEvent::ValueComplete {
                path: Cow::Owned(path.into_owned()),
                value: Cow::Owned(value.into_owned()),
            },
            StreamEvent::StringGrew { path, appended } => StreamEvent::StringGrew {
                path: Cow::Owned(path.into_owned()),
                appended: Cow::Owned(appended.into_owned()),
            },
            StreamEvent::Restart => StreamEvent::Restart,
        }
    }

    /// The JSON Pointer the event is about (`None` for [`StreamEvent::Restart`]).
    pub fn path(&self) -> Option<&str> {
        match self {
            StreamEvent::ValueComplete { path, .. } | StreamEvent::StringGrew { path, .. } => Some(path),
            StreamEvent::Restart => None,
        }
    }
}

/// Where events go while a fragment is read: nowhere, or a caller's callback.
type On<'a, 'f> = Option<&'a mut (dyn FnMut(StreamEvent<'_>) + 'f)>;

/// A JSON parser fed fragments of any size, split anywhere (inside a token, an escape or a
/// UTF-8 character), that reports what completes as it arrives ([`StreamEvent`]), shows the
/// value so far ([`partial`](IncrementalParser::partial)), and ends with exactly what
/// [`parse`](super::parse) gives for the whole text: the same value, the same repairs, the
/// same error.
///
/// Each byte is read once: the work is linear in the input whatever the fragment sizes, and
/// the partial value is kept up to date as the value is built, not rebuilt on request. A
/// file-writing tool can start writing a long `content` string from its
/// [`StringGrew`](StreamEvent::StringGrew) events before the string ends; it must still
/// wait for [`finish`](IncrementalParser::finish) (or the end of the tool call) before it
/// acts on the arguments as a whole, since a cut-off input is never a value.
///
/// The parser keeps the text it was fed ([`text`](IncrementalParser::text)): an error's line
/// and column, and the retry of a later `{` after prose, need it, as they do for the
/// one-shot parser. Limits hold as the input arrives: past
/// [`ParseOptions::max_bytes`] it stops reading and keeping the text
/// ([`ParseError::TooLarge`]), and nesting deeper than [`ParseOptions::max_depth`] is
/// [`ParseError::TooDeep`] at once. Nothing it is fed makes it panic.
///
/// ```
/// use serde_json::json;
/// use tool_input::parse::{parse, IncrementalParser, ParseOptions};
///
/// let text = "{'city': 'Paris', 'days': [1, 2,],}";
/// let mut parser = IncrementalParser::new(ParseOptions::default());
/// for chunk in ["{'city': 'Pa", "ris', 'days': [1", ", 2,],}"] {
///     parser.feed(chunk).unwrap();
///     println!("so far: {}", parser.partial()); // {"city":"Pa"}, then {"city":"Paris","days":[1]}, …
/// }
/// assert_eq!(parser.partial(), &json!({"city": "Paris", "days": [1, 2]}));
/// let parsed = parser.finish().unwrap();
/// assert_eq!(parsed, parse(text, &ParseOptions::default()).unwrap());
/// ```
#[derive(Debug)]
pub struct IncrementalParser {
    options: ParseOptions,
    /// The input so far (valid UTF-8; not kept past `max_bytes` or invalid UTF-8).
    text: String,
    /// The first bytes of a UTF-8 character that the next fragment completes
    /// ([`IncrementalParser::feed_bytes`]).
    tail: Vec<u8>,
    /// Bytes fed in all.
    bytes: usize,
    /// Offset of the first byte that is not UTF-8.
    utf8_error: Option<usize>,
    reading: Reading,
    /// The retry of later candidates after prose, once the first value failed.
    retry: Option<Retry>,
    /// What was read of a value that failed for good, kept for display.
    frozen: Value,
}

/// What the parser is doing.
#[derive(Debug)]
enum Reading {
    /// Reading a value (the first one, or a later candidate after prose).
    Value(Box<Core>),
    /// A candidate after prose failed: the next `{` or `[` from this offset on is the next
    /// one.
    Seeking { from: usize },
    /// The parse failed and nothing will be retried.
    Failed(ParseError),
}

/// The state of the retry after prose ([`tree::parse_slow`] does the same over a whole
/// input).
#[derive(Debug)]
struct Retry {
    /// The error of the first attempt, which is the one reported if every candidate fails.
    first: ParseError,
    /// Repairs made before the first value (prose, a fence, comments), carried to each
    /// candidate.
    carried: Vec<Repair>,
    fence_open: bool,
    /// A candidate must start at or after this offset.
    after: usize,
    /// Candidates still allowed.
    left: usize,
}

impl IncrementalParser {
    /// A parser with `options`: the mode, the limits, and whether
    /// [`finish`](IncrementalParser::finish) completes a cut-off input
    /// ([`ParseOptions::complete_truncated`]) as [`parse`](super::parse) does.
    pub fn new(options: ParseOptions) -> IncrementalParser {
        let core = Core::new(&options, 0, None, Vec::new());
        IncrementalParser {
            options,
            text: String::new(),
            tail: Vec::new(),
            bytes: 0,
            utf8_error: None,
            reading: Reading::Value(Box::new(core)),
            retry: None,
            frozen: Value::Null,
        }
    }

    /// Read the next fragment. Returns the error once the input cannot be a value any more
    /// (a syntax error, too large, too deep); the same error is then returned by every later
    /// call and by [`finish`](IncrementalParser::finish) (unless a later limit takes
    /// precedence, as in [`parse`](super::parse)). A cut-off input is not an error here: it
    /// may go on.
    #[inline]
    pub fn feed(&mut self, chunk: &str) -> Result<(), ParseError> {
        self.feed_inner(chunk, None)
    }

    /// [`feed`](IncrementalParser::feed), sending each [`StreamEvent`] the fragment completes
    /// to `on_event`. The event borrows from the parser: call
    /// [`into_owned`](StreamEvent::into_owned) to keep it.
    ///
    /// ```
    /// use tool_input::parse::{IncrementalParser, ParseOptions, StreamEvent};
    ///
    /// let mut parser = IncrementalParser::new(ParseOptions::default());
    /// let mut written = String::new();
    /// for chunk in [r#"{"content": "line 1\nli"#, r#"ne 2"#, r#"\n", "mode": "append"}"#] {
    ///     parser
    ///         .feed_with(chunk, |event| {
    ///             if let StreamEvent::StringGrew { path, appended } = event {
    ///                 if path == "/content" {
    ///                     written.push_str(&appended); // write to the file as it arrives
    ///                 }
    ///             }
    ///         })
    ///         .unwrap();
    /// }
    /// assert_eq!(written, "line 1\nline 2\n");
    /// ```
    pub fn feed_with(
        &mut self,
        chunk: &str,
        mut on_event: impl FnMut(StreamEvent<'_>),
    ) -> Result<(), ParseError> {
        self.feed_inner(chunk, Some(&mut on_event))
    }

    /// Read the next fragment as bytes, split anywhere, even inside a UTF-8 character. Bytes
    /// that are not UTF-8 are [`ParseError::InvalidUtf8`], as for
    /// [`parse_bytes`](super::parse_bytes).
    ///
    /// ```
    /// use tool_input::parse::{IncrementalParser, ParseOptions};
    ///
    /// let text = r#"{"to": "Zoë"}"#.as_bytes();
    /// let mut parser = IncrementalParser::new(ParseOptions::default());
    /// for piece in text.chunks(1) {
    ///     parser.feed_bytes(piece).unwrap();
    /// }
    /// assert_eq!(parser.finish().unwrap().value["to"], "Zoë");
    /// ```
    pub fn feed_bytes(&mut self, chunk: &[u8]) -> Result<(), ParseError> {
        self.feed_bytes_inner(chunk, None)
    }

    /// [`feed_bytes`](IncrementalParser::feed_bytes), sending the events to `on_event`.
    ///
    /// ```
    /// use tool_input::parse::{IncrementalParser, ParseOptions};
    ///
    /// let mut parser = IncrementalParser::new(ParseOptions::default());
    /// let mut paths = Vec::new();
    /// parser.feed_bytes_with(br#"{"a": [1, 2]}"#, |event| paths.extend(event.path().map(str::to_owned))).unwrap();
    /// assert_eq!(paths, ["/a/0", "/a/1", "/a"]);
    /// ```
    pub fn feed_bytes_with(
        &mut self,
        chunk: &[u8],
        mut on_event: impl FnMut(StreamEvent<'_>),
    ) -> Result<(), ParseError> {
        self.feed_bytes_inner(chunk, Some(&mut on_event))
    }

    /// The value read so far, for display; it costs nothing (the value is built in place).
    ///
    /// Complete members and items are there; the string being read is there as far as it
    /// has arrived (without a partial escape or UTF-8 character); open arrays and objects
    /// are shown closed. A number or literal still being read, and a key still waiting for
    /// its value, are left out until complete. So each partial value is a prefix of the
    /// final one: its strings are prefixes of the final strings, its arrays prefixes of the
    /// final arrays, its objects hold a subset of the final members (a member whose key comes
    /// again later shows the earlier value until then). `null` before any value started, and
    /// again after a [`StreamEvent::Restart`]. After an error, what was read before it.
    ///
    /// In [`ParseMode::Repair`] it is the lenient reading of the text, which stops where that
    /// reading fails (the final value may also differ where repair mode guesses).
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::parse::{IncrementalParser, ParseOptions};
    ///
    /// let mut parser = IncrementalParser::new(ParseOptions::default());
    /// parser.feed(r#"{"path": "notes.md", "tags": ["a", "b"], "count": 12"#).unwrap();
    /// assert_eq!(parser.partial(), &json!({"path": "notes.md", "tags": ["a", "b"]})); // 12 may go on
    /// parser.feed(r##", "text": "# Title\n\nFirst lin"##).unwrap();
    /// assert_eq!(parser.partial()["text"], "# Title\n\nFirst lin");
    /// ```
    pub fn partial(&self) -> &Value {
        match &self.reading {
            Reading::Value(core) => core.partial(),
            Reading::Seeking { .. } => &NULL,
            Reading::Failed(_) => &self.frozen,
        }
    }

    /// The text fed so far (up to [`ParseOptions::max_bytes`], and up to the first byte that
    /// is not UTF-8).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The text fed so far, taken.
    pub fn into_text(self) -> String {
        self.text
    }

    /// How many bytes were fed in all.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// The error the parse already met, if any (the one [`feed`](IncrementalParser::feed)
    /// returned).
    pub fn error(&self) -> Option<ParseError> {
        self.status().err()
    }

    /// End the input: the value and repairs [`parse`](super::parse) gives for the whole text
    /// ([`parse_bytes`](super::parse_bytes) for bytes), or its error. Input that was cut off
    /// is [`ParseError::Truncated`] unless [`ParseOptions::complete_truncated`] is set.
    ///
    /// ```
    /// use tool_input::parse::{IncrementalParser, ParseError, ParseOptions};
    ///
    /// let mut parser = IncrementalParser::new(ParseOptions::default());
    /// parser.feed(r#"{"text": "Filing"#).unwrap();
    /// assert!(matches!(parser.finish(), Err(ParseError::Truncated { bytes: 16, inside: "a string" })));
    /// ```
    pub fn finish(mut self) -> Result<Parsed, ParseError> {
        if !self.tail.is_empty() && self.utf8_error.is_none() {
            // The input ended inside a UTF-8 character.
            self.utf8_error = Some(self.bytes - self.tail.len());
        }
        if self.options.mode == ParseMode::Repair
            && self.options.max_depth >= DEFAULT_MAX_DEPTH
            && self.bytes <= self.options.max_bytes
            && self.utf8_error.is_none()
        {
            // `parse` takes strict JSON through `serde_json` first, and repair mode's own
            // reading of strict JSON can differ from it (its guesses about quotes): one
            // more pass, in the mode that is not for tool arguments, to give the same value.
            if let Ok(value) = serde_json::from_str::<Value>(&self.text) {
                return Ok(Parsed { value, repairs: Vec::new() });
            }
        }
        self.status()?;
        loop {
            match mem::replace(&mut self.reading, Reading::Seeking { from: usize::MAX }) {
                Reading::Value(mut core) => match core.finish() {
                    Ok(outcome) => return Ok(coalesce(tree::decode_double(outcome, &self.options))),
                    Err(failure) => self.failed(&mut core, failure, &mut None),
                },
                Reading::Seeking { .. } => {
                    return Err(self.retry.map(|retry| retry.first).unwrap_or_else(|| ParseError::Syntax {
                        message: "expected a json value".to_owned(),
                        offset: 0,
                        line: 1,
                        column: 1,
                    }))
                }
                Reading::Failed(error) => return Err(error),
            }
        }
    }

    /// The error so far, in the order [`parse_bytes`](super::parse_bytes) checks: the size,
    /// then UTF-8, then the parse.
    fn status(&self) -> Result<(), ParseError> {
        if self.bytes > self.options.max_bytes {
            return Err(ParseError::TooLarge { bytes: self.bytes, limit: self.options.max_bytes });
        }
        if let Some(offset) = self.utf8_error {
            return Err(ParseError::InvalidUtf8 { offset });
        }
        match &self.reading {
            Reading::Failed(error) => Err(error.clone()),
            _ => Ok(()),
        }
    }

    /// Count `len` more bytes: false once past the limit (nothing more is read or kept).
    fn count(&mut self, len: usize) -> bool {
        self.bytes = self.bytes.saturating_add(len);
        if self.bytes > self.options.max_bytes {
            // Free what cannot be used: the input is rejected whatever follows.
            self.text = String::new();
            self.reading =
                Reading::Failed(ParseError::TooLarge { bytes: self.bytes, limit: self.options.max_bytes });
            self.frozen = Value::Null;
            return false;
        }
        true
    }

    #[inline]
    fn feed_inner(&mut self, chunk: &str, mut on: On<'_, '_>) -> Result<(), ParseError> {
        // The common case first: a value being read, within the limit.
        let clear = self.tail.is_empty()
            && self.utf8_error.is_none()
            && self.bytes.saturating_add(chunk.len()) <= self.options.max_bytes;
        if let (Reading::Value(core), true) = (&mut self.reading, clear) {
            self.bytes += chunk.len();
            self.text.push_str(chunk);
            match core.feed(chunk, &mut on) {
                Ok(()) => return Ok(()),
                Err(failure) => {
                    self.fail_core(failure, &mut on);
                    return self.status();
                }
            }
        }
        if !self.tail.is_empty() {
            // A character started by `feed_bytes` is still open.
            return self.feed_bytes_inner(chunk.as_bytes(), on);
        }
        if self.count(chunk.len()) && self.utf8_error.is_none() {
            self.read(chunk, &mut on);
        }
        self.status()
    }

    fn feed_bytes_inner(&mut self, mut chunk: &[u8], mut on: On<'_, '_>) -> Result<(), ParseError> {
        let before = self.bytes;
        if !self.count(chunk.len()) || self.utf8_error.is_some() {
            return self.status();
        }
        if let Some(&lead) = self.tail.first() {
            // Complete the character the last fragment ended inside.
            let need = utf8_len(lead);
            let take = need.saturating_sub(self.tail.len()).min(chunk.len());
            self.tail.extend_from_slice(chunk.get(..take).unwrap_or_default());
            chunk = chunk.get(take..).unwrap_or_default();
            if self.tail.len() < need {
                return self.status();
            }
            let tail = mem::take(&mut self.tail);
            match std::str::from_utf8(&tail) {
                Ok(character) => self.read(character, &mut on),
                Err(_) => {
                    self.utf8_error = Some(before - (need - take));
                    return self.status();
                }
            }
        }
        let at = self.bytes - chunk.len();
        match std::str::from_utf8(chunk) {
            Ok(text) => self.read(text, &mut on),
            Err(error) => {
                let valid = error.valid_up_to();
                let (text, rest) = chunk.split_at(valid);
                if let Ok(text) = std::str::from_utf8(text) {
                    self.read(text, &mut on);
                }
                match error.error_len() {
                    None => self.tail = rest.to_vec(),
                    Some(_) => self.utf8_error = Some(at + valid),
                }
            }
        }
        self.status()
    }

    /// Keep and read valid text.
    fn read(&mut self, chunk: &str, on: &mut On<'_, '_>) {
        if chunk.is_empty() {
            return;
        }
        self.text.push_str(chunk);
        match &mut self.reading {
            Reading::Value(core) => {
                if let Err(failure) = core.feed(chunk, on) {
                    self.fail_core(failure, on);
                }
            }
            Reading::Seeking { .. } => self.seek(on),
            Reading::Failed(_) => {}
        }
    }

    /// The value being read failed with `failure`.
    #[cold]
    fn fail_core(&mut self, failure: Failure, on: &mut On<'_, '_>) {
        if let Reading::Value(mut core) =
            mem::replace(&mut self.reading, Reading::Seeking { from: usize::MAX })
        {
            self.failed(&mut core, failure, on);
        }
    }

    /// The attempt `core` failed: try the next candidate after prose as the one-shot parser
    /// does ([`tree::parse_slow`]), or fail for good.
    fn failed(&mut self, core: &mut Core, failure: Failure, on: &mut On<'_, '_>) {
        let retry = match self.retry.as_mut() {
            Some(retry) => retry,
            None => {
                // The first attempt's error is the one reported (a later candidate's never is).
                let error = tree::to_error(failure.clone(), self.text.as_bytes(), &self.options);
                // Retry only when the failed value came after prose or did not start like an
                // object or array.
                let eligible = self.options.mode != ParseMode::Strict
                    && core
                        .value_start()
                        .is_some_and(|(_, first)| core.prose_seen() || !matches!(first, b'{' | b'['));
                let Some((value_at, _)) = core.value_start().filter(|_| eligible) else {
                    self.frozen = core.take_partial();
                    self.reading = Reading::Failed(error);
                    return;
                };
                let mut carried: Vec<Repair> =
                    core.repairs().iter().filter(|r| r.offset < value_at).copied().collect();
                if !carried.iter().any(|r| r.kind == RepairKind::ProseBefore) {
                    carried.push(Repair::new(RepairKind::ProseBefore, value_at));
                }
                let retry = Retry {
                    first: error,
                    carried,
                    fence_open: core.fence_open(),
                    after: value_at + 1,
                    left: MAX_CANDIDATES,
                };
                self.retry.insert(retry)
            }
        };
        let Some(offset) = failure.syntax_offset() else {
            self.reading = Reading::Failed(retry.first.clone());
            return;
        };
        if let (Some(on), false) = (on.as_mut(), self.options.mode == ParseMode::Repair) {
            on(StreamEvent::Restart);
        }
        self.reading = Reading::Seeking { from: offset.max(retry.after) };
        self.seek(on);
    }

    /// Look for the next candidate in the text so far, and read it from its start.
    fn seek(&mut self, on: &mut On<'_, '_>) {
        loop {
            let Reading::Seeking { from } = self.reading else { return };
            let found = self
                .text
                .as_bytes()
                .get(from..)
                .and_then(|rest| rest.iter().position(|&b| matches!(b, b'{' | b'[')));
            let Some(candidate) = found.map(|k| from + k) else {
                // Nothing yet: the next fragment is searched from here.
                self.reading = Reading::Seeking { from: from.max(self.text.len()) };
                return;
            };
            let Some(retry) = self.retry.as_mut() else { return };
            if retry.left == 0 {
                self.reading = Reading::Failed(retry.first.clone());
                return;
            }
            retry.left -= 1;
            retry.after = candidate + 1;
            let mut core =
                Box::new(Core::new(&self.options, candidate, Some(retry.fence_open), retry.carried.clone()));
            let rest = self.text.get(candidate..).unwrap_or_default();
            match core.feed(rest, on) {
                Ok(()) => {
                    self.reading = Reading::Value(core);
                    return;
                }
                Err(failure) => self.failed(&mut core, failure, on),
            }
        }
    }
}

/// The length of the UTF-8 character that starts with `lead` (1 for a byte that starts
/// none: the UTF-8 check reports it).
fn utf8_len(lead: u8) -> usize {
    match lead {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => 1,
    }
}

// ---------------------------------------------------------------- one attempt

/// A lexer and a builder reading one candidate value.
#[derive(Debug)]
struct Core {
    lexer: Lexer,
    build: Build,
    /// [`ParseOptions::complete_truncated`].
    complete: bool,
}

/// The builder of a [`Core`].
#[derive(Debug)]
enum Build {
    /// Strict and lenient modes: the in-place builder.
    Tree(Tree),
    /// [`ParseMode::Repair`]: the one-shot builder, and a lenient reading of the same text
    /// for the partial value (`shadow_ok` until that reading fails; its value then stays as
    /// it was).
    Repair { builder: Builder, shadow: Box<(Lexer, Tree)>, shadow_ok: bool },
}

impl Core {
    /// A core reading from absolute offset `base`; `prose` (whether a code fence is open)
    /// when it starts inside prose after a failed candidate.
    fn new(options: &ParseOptions, base: usize, prose: Option<bool>, repairs: Vec<Repair>) -> Core {
        let lexer = |mode: ParseMode| {
            match prose {
                Some(fence_open) => Lexer::in_prose(mode, options.non_finite, base, fence_open),
                None => Lexer::new(mode, options.non_finite, base),
            }
            .with_readings(options)
        };
        let build = match options.mode {
            ParseMode::Repair => {
                let lenient = ParseOptions { mode: ParseMode::Lenient, ..options.clone() };
                Build::Repair {
                    builder: Builder::new(options).with_repairs(repairs),
                    shadow: Box::new((lexer(ParseMode::Lenient), Tree::new(&lenient, Vec::new()))),
                    shadow_ok: true,
                }
            }
            _ => Build::Tree(Tree::new(options, repairs)),
        };
        Core { lexer: lexer(options.mode), build, complete: options.complete_truncated }
    }

    #[inline]
    fn feed(&mut self, chunk: &str, on: &mut On<'_, '_>) -> Result<(), Failure> {
        match &mut self.build {
            Build::Tree(tree) => {
                // Content of a string value already shown goes straight to where it is
                // shown: a whole fragment while a long string streams in, or the end of one.
                let mut chunk = chunk;
                if tree.open.is_some() {
                    let plain = self.lexer.plain_run(chunk);
                    if let (Some(content), Some(rest)) = (chunk.get(..plain), chunk.get(plain..)) {
                        if !content.is_empty() {
                            tree.append_open(content, on);
                        }
                        if rest.is_empty() {
                            return Ok(());
                        }
                        chunk = rest;
                    }
                }
                self.lexer.feed_str(chunk, &mut TreeSink { tree, on: on.as_deref_mut() })?;
                tree.sync_string(&mut self.lexer, on);
                Ok(())
            }
            Build::Repair { builder, shadow, shadow_ok } => {
                if *shadow_ok {
                    let (shadow_lexer, tree) = &mut **shadow;
                    *shadow_ok = shadow_lexer.feed_str(chunk, &mut TreeSink { tree, on: None }).is_ok();
                    if *shadow_ok {
                        tree.sync_string(shadow_lexer, &mut None);
                    }
                }
                self.lexer.feed_str(chunk, builder)
            }
        }
    }

    fn finish(&mut self) -> Result<Outcome, Failure> {
        let complete = self.complete;
        let (value, mut repairs) = match &mut self.build {
            Build::Tree(tree) => {
                self.lexer.finish(&mut TreeSink { tree, on: None }, complete)?;
                (tree.finish(complete, self.lexer.offset())?, mem::take(&mut tree.repairs))
            }
            Build::Repair { builder, .. } => {
                self.lexer.finish(builder, complete)?;
                (builder.finish(complete, self.lexer.offset())?, builder.take_repairs())
            }
        };
        // The lexer records repairs as it reads, a trailing comma only when its bracket
        // arrives: sorted as `tree::Machine::finish` sorts them.
        repairs.sort_by_key(|r| r.offset);
        let value_at = self.lexer.value_start().map_or(0, |(at, _)| at);
        Ok(Outcome { value, repairs, value_at, repeated_keys: false })
    }

    fn partial(&self) -> &Value {
        match &self.build {
            Build::Tree(tree) => &tree.root,
            Build::Repair { shadow, .. } => &shadow.1.root,
        }
    }

    fn take_partial(&mut self) -> Value {
        match &mut self.build {
            Build::Tree(tree) => mem::take(&mut tree.root),
            Build::Repair { shadow, .. } => mem::take(&mut shadow.1.root),
        }
    }

    fn value_start(&self) -> Option<(usize, u8)> {
        self.lexer.value_start()
    }

    fn prose_seen(&self) -> bool {
        self.lexer.prose_seen()
    }

    fn fence_open(&self) -> bool {
        self.lexer.fence_open()
    }

    fn repairs(&self) -> &[Repair] {
        match &self.build {
            Build::Tree(tree) => &tree.repairs,
            Build::Repair { builder, .. } => builder.repairs(),
        }
    }
}

// ---------------------------------------------------------------- the in-place builder

/// What the builder expects next (as `tree::Builder`'s, without the repair-mode states).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expect {
    /// A value: at the top level or after `:`.
    Value,
    /// After `[` or `(`: a value or the closing bracket.
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

/// What an open container is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Array,
    Object,
    /// `(` of a function-call wrapper such as `NumberLong(2)`: an array while open; one item
    /// without a comma is that item once it closes.
    Paren,
    /// A Python set (`{1, 2}`, lenient modes): an array, closed by `}`.
    Set,
}

/// How an open container is reached from its parent.
#[derive(Debug)]
enum Step {
    /// It is the top-level value.
    Root,
    Index(usize),
    /// A member, and its position among the members when the object is small (walking to
    /// it there is cheaper than comparing keys; it does not move while the member is open,
    /// since only the innermost container gets members).
    Key(String, Option<usize>),
    /// Nowhere (an object value without a key, which the one-shot builder drops too).
    Detached,
}

/// An open array, object or `(`: its place in the tree, not its content (that is in the
/// tree already).
#[derive(Debug)]
struct Frame {
    kind: Kind,
    step: Step,
    /// Length of [`Tree::pointer`] before this container's own step.
    pointer_len: usize,
    /// The key whose value is awaited (objects).
    key: Option<String>,
    /// Members or items completed.
    len: usize,
    /// A comma was read (`(`: then it is a tuple, an array).
    comma: bool,
    /// Inside a `(`: its items are not reported (its result is, when it closes).
    quiet: bool,
}

/// Builds the value in place, so that the value so far is always at hand ([`Tree::root`]).
/// The rules are those of `tree::Builder` in strict and lenient modes.
#[derive(Debug)]
struct Tree {
    lenient: bool,
    max_depth: usize,
    /// The value so far; the final value once the top-level value is complete.
    root: Value,
    /// The top-level value is complete (`root` is it).
    has_root: bool,
    /// The open containers, outermost first.
    frames: Vec<Frame>,
    expect: Expect,
    repairs: Vec<Repair>,
    /// JSON Pointer of the innermost open container.
    pointer: String,
    /// The string value being read has a placeholder in the tree, which holds what was read
    /// of it: all that the lexer had in `text_buf` (moved out), and this many bytes of its
    /// `buf`.
    open: Option<usize>,
    /// The key of an object member whose string value has a placeholder (the key itself
    /// moved into the map), and its position in a small map.
    open_key: String,
    open_at: Option<usize>,
    /// The path of an event being reported.
    scratch: String,
    /// Offset of the last key read.
    key_at: usize,
}

/// The container `frames` lead to in `root`, if it is there.
fn container<'v>(root: &'v mut Value, frames: &[Frame]) -> Option<&'v mut Value> {
    let mut node = root;
    for frame in frames {
        node = match (&frame.step, node) {
            (Step::Root, node) => node,
            (Step::Index(index), Value::Array(items)) => items.get_mut(*index)?,
            (Step::Key(_, Some(at)), Value::Object(map)) => map.values_mut().nth(*at)?,
            (Step::Key(key, None), Value::Object(map)) => map.get_mut(key.as_str())?,
            _ => return None,
        };
    }
    Some(node)
}

/// Where `key` is among the members of a small map (see [`Step::Key`]).
fn position(map: &Map<String, Value>, key: &str) -> Option<usize> {
    if map.len() > 8 {
        return None;
    }
    map.keys().position(|k| k == key)
}

/// Append `/index` to a JSON Pointer.
fn push_index(pointer: &mut String, index: usize) {
    use std::fmt::Write;
    let _ = write!(pointer, "/{index}");
}

impl Tree {
    fn new(options: &ParseOptions, repairs: Vec<Repair>) -> Tree {
        Tree {
            lenient: options.mode != ParseMode::Strict,
            max_depth: options.max_depth,
            root: Value::Null,
            has_root: false,
            frames: Vec::new(),
            expect: Expect::Value,
            repairs,
            pointer: String::new(),
            open: None,
            open_key: String::new(),
            open_at: None,
            scratch: String::new(),
            key_at: 0,
        }
    }

    fn record(&mut self, kind: RepairKind, offset: usize) {
        // Completing several cut-off things at the end is one repair.
        if kind == RepairKind::CompletedTruncated && self.repairs.iter().any(|r| r.kind == kind) {
            return;
        }
        super::record_repair(&mut self.repairs, kind, offset);
    }

    /// The path of the innermost container's next item or awaited member, in `scratch`; or
    /// `None` when it is not reported (inside a `(`, or an object without a key).
    fn slot_path(&mut self) -> Option<&str> {
        self.scratch.clear();
        if let Some(frame) = self.frames.last() {
            if frame.quiet {
                return None;
            }
            self.scratch.push_str(&self.pointer);
            match frame.kind {
                Kind::Object if self.open.is_some() => push_token(&mut self.scratch, &self.open_key),
                Kind::Object => push_token(&mut self.scratch, frame.key.as_deref()?),
                Kind::Array | Kind::Paren | Kind::Set => push_index(&mut self.scratch, frame.len),
            }
        }
        Some(&self.scratch)
    }

    fn token(&mut self, token: Token, offset: usize, on: &mut On<'_, '_>) -> Result<(), Failure> {
        match self.expect {
            Expect::Value | Expect::FirstItem | Expect::Item { .. } => self.value_token(token, offset, on),
            Expect::FirstKey | Expect::Key { .. } => self.key_token(token, offset, on),
            Expect::Comma => self.comma_token(token, offset, on),
            Expect::Colon => match token {
                Token::Colon => {
                    self.materialize();
                    self.expect = Expect::Value;
                    Ok(())
                }
                Token::Comma | Token::EndObject
                    if self.lenient
                        && self.frames.last().is_some_and(|f| f.kind == Kind::Object && f.len == 0) =>
                {
                    self.object_as_set(token, offset, on)
                }
                token => Err(Failure::syntax(
                    format!("expected `:` after an object key, found {}", token.describe()),
                    offset,
                )),
            },
            Expect::Done => {
                Err(Failure::syntax(format!("unexpected {} after the json value", token.describe()), offset))
            }
        }
    }

    fn value_token(&mut self, token: Token, offset: usize, on: &mut On<'_, '_>) -> Result<(), Failure> {
        match token {
            Token::BeginArray => self.open_container(Kind::Array, Expect::FirstItem),
            Token::BeginObject => self.open_container(Kind::Object, Expect::FirstKey),
            Token::BeginParen(call) => {
                if !call {
                    self.record(RepairKind::Tuple, offset);
                }
                self.open_container(Kind::Paren, Expect::FirstItem)
            }
            Token::Str(text) => {
                self.complete_string(text, on);
                Ok(())
            }
            Token::Number(number) => {
                self.complete_value(Value::Number(number), on);
                Ok(())
            }
            Token::Bool(value) => {
                self.complete_value(Value::Bool(value), on);
                Ok(())
            }
            Token::Null => {
                self.complete_value(Value::Null, on);
                Ok(())
            }
            Token::EndArray | Token::EndParen | Token::EndObject
                if self.expect == Expect::FirstItem && self.closes_top(&token) =>
            {
                self.close(on);
                Ok(())
            }
            Token::EndArray | Token::EndParen | Token::EndObject
                if matches!(self.expect, Expect::Item { .. }) && self.closes_top(&token) =>
            {
                let Expect::Item { comma } = self.expect else { return Ok(()) };
                if self.frames.last().is_some_and(|frame| frame.kind == Kind::Paren && frame.len == 1) {
                    // `(1,)`: how Python writes a tuple of one, not a trailing comma.
                    self.close(on);
                    return Ok(());
                }
                let bracket = match token {
                    Token::EndArray => ']',
                    Token::EndObject => '}',
                    _ => ')',
                };
                self.trailing_comma(comma, offset, bracket, on)
            }
            Token::EndArray
            | Token::EndObject
            | Token::EndParen
            | Token::Colon
            | Token::Comma
            | Token::Ellipsis => {
                let message = match self.expect {
                    Expect::FirstItem => "expected a value or `]`",
                    Expect::Item { .. } => "expected a value after `,`",
                    _ if self.frames.is_empty() => "expected a json value",
                    _ => "expected a value after `:`",
                };
                Err(Failure::syntax(format!("{message}, found {}", token.describe()), offset))
            }
        }
    }

    fn key_token(&mut self, token: Token, offset: usize, on: &mut On<'_, '_>) -> Result<(), Failure> {
        match token {
            Token::Str(text) => {
                if let Some(frame) = self.frames.last_mut() {
                    frame.key = Some(text);
                }
                self.key_at = offset;
                self.expect = Expect::Colon;
                Ok(())
            }
            Token::EndObject => match self.expect {
                Expect::Key { comma } => self.trailing_comma(comma, offset, '}', on),
                _ => {
                    self.close(on);
                    Ok(())
                }
            },
            token => {
                let message = match self.expect {
                    Expect::FirstKey => "expected a string key or `}`",
                    _ => "expected a string key after `,`",
                };
                Err(Failure::syntax(format!("{message}, found {}", token.describe()), offset))
            }
        }
    }

    fn comma_token(&mut self, token: Token, offset: usize, on: &mut On<'_, '_>) -> Result<(), Failure> {
        let kind = self.frames.last().map(|frame| frame.kind);
        match (token, kind) {
            (Token::Comma, Some(Kind::Object)) => {
                self.expect = Expect::Key { comma: offset };
                Ok(())
            }
            (Token::Comma, Some(Kind::Array | Kind::Paren | Kind::Set)) => {
                if let Some(frame) = self.frames.last_mut() {
                    frame.comma = true;
                }
                self.expect = Expect::Item { comma: offset };
                Ok(())
            }
            (Token::EndObject, Some(Kind::Object | Kind::Set))
            | (Token::EndArray, Some(Kind::Array))
            | (Token::EndParen, Some(Kind::Paren)) => {
                self.close(on);
                Ok(())
            }
            (token, Some(Kind::Array | Kind::Paren | Kind::Set)) => Err(Failure::syntax(
                format!("expected `,` or `]` after an array value, found {}", token.describe()),
                offset,
            )),
            (token, _) => Err(Failure::syntax(
                format!("expected `,` or `}}` after an object value, found {}", token.describe()),
                offset,
            )),
        }
    }

    /// Whether `closer` closes the innermost container.
    fn closes_top(&self, closer: &Token) -> bool {
        matches!(
            (self.frames.last().map(|frame| frame.kind), closer),
            (Some(Kind::Array), Token::EndArray)
                | (Some(Kind::Object | Kind::Set), Token::EndObject)
                | (Some(Kind::Paren), Token::EndParen)
        )
    }

    /// A trailing comma at `comma` before the closing bracket at `offset`.
    fn trailing_comma(
        &mut self,
        comma: usize,
        offset: usize,
        bracket: char,
        on: &mut On<'_, '_>,
    ) -> Result<(), Failure> {
        if !self.lenient {
            return Err(Failure::syntax(format!("trailing comma before `{bracket}`"), offset));
        }
        self.record(RepairKind::TrailingComma, comma);
        self.close(on);
        Ok(())
    }

    /// Open an array, object or `(`: it goes into its parent at once, empty.
    fn open_container(&mut self, kind: Kind, expect: Expect) -> Result<(), Failure> {
        if self.frames.len() >= self.max_depth {
            return Err(Fail::TooDeep.into());
        }
        let empty = match kind {
            // Until its first member, a lenient object inside the value may turn out to be a
            // Python set (`{'a', 'b'}`): it shows as not started (`null`), so the partial
            // value stays a prefix of the final one; `materialize` makes it an object. The
            // top-level value shows as `{}` from its `{` on (arguments are objects; a set
            // there shows as `{}` until its first comma).
            Kind::Object if self.lenient && !self.frames.is_empty() => Value::Null,
            Kind::Object => Value::Object(Map::new()),
            Kind::Array | Kind::Paren | Kind::Set => Value::Array(Vec::new()),
        };
        let pointer_len = self.pointer.len();
        let (step, quiet) = match self.frames.last_mut() {
            None => {
                self.root = empty;
                (Step::Root, kind == Kind::Paren)
            }
            Some(parent) => {
                let quiet = parent.quiet || kind == Kind::Paren;
                let step = match parent.kind {
                    Kind::Array | Kind::Paren | Kind::Set => {
                        push_index(&mut self.pointer, parent.len);
                        Step::Index(parent.len)
                    }
                    Kind::Object => match parent.key.take() {
                        Some(key) => {
                            push_token(&mut self.pointer, &key);
                            Step::Key(key, None)
                        }
                        None => Step::Detached,
                    },
                };
                let mut step = step;
                match (container(&mut self.root, &self.frames), &mut step) {
                    (Some(Value::Array(items)), Step::Index(_)) => items.push(empty),
                    (Some(Value::Object(map)), Step::Key(key, at)) => {
                        map.insert(key.clone(), empty);
                        *at = position(map, key);
                    }
                    _ => {}
                }
                (step, quiet)
            }
        };
        self.frames.push(Frame { kind, step, pointer_len, key: None, len: 0, comma: false, quiet });
        self.expect = expect;
        Ok(())
    }

    /// Close the innermost container: a `(` becomes its value, and the container is
    /// reported as a member or item of its parent.
    fn close(&mut self, on: &mut On<'_, '_>) {
        self.materialize();
        let Some(frame) = self.frames.last() else { return };
        if frame.kind == Kind::Paren && frame.len == 1 && !frame.comma {
            if let Some(node) = container(&mut self.root, &self.frames) {
                let item = match node {
                    Value::Array(items) => items.pop(),
                    _ => None,
                };
                if let Some(item) = item {
                    *node = item;
                }
            }
        }
        let depth = self.frames.len();
        let reported = depth >= 2 && self.frames.get(depth - 2).is_some_and(|parent| !parent.quiet);
        if let (true, Some(on)) = (reported, on.as_mut()) {
            if let Some(node) = container(&mut self.root, &self.frames) {
                on(StreamEvent::ValueComplete {
                    path: Cow::Borrowed(&self.pointer),
                    value: Cow::Borrowed(&*node),
                });
            }
        }
        if let Some(frame) = self.frames.pop() {
            self.pointer.truncate(frame.pointer_len);
        }
        match self.frames.last_mut() {
            None => {
                self.has_root = true;
                self.expect = Expect::Done;
            }
            Some(parent) => {
                parent.len += 1;
                self.expect = Expect::Comma;
            }
        }
    }

    /// A complete string. If it has a placeholder, `text` is what came after the text moved
    /// into it (and the first `open` bytes of `text` are there already): the rest is
    /// reported and appended, and the placeholder is the string.
    fn complete_string(&mut self, text: String, on: &mut On<'_, '_>) {
        let Some(reported) = self.open else {
            self.complete_value(Value::String(text), on);
            return;
        };
        let rest = text.get(reported..).unwrap_or_default();
        if let (Some(on), false) = (on.as_mut(), rest.is_empty()) {
            if let Some(path) = self.slot_path() {
                on(StreamEvent::StringGrew { path: Cow::Borrowed(path), appended: Cow::Borrowed(rest) });
            }
        }
        if !rest.is_empty() {
            if let Some(string) = self.placeholder() {
                string.push_str(rest);
            }
        }
        if let Some(on) = on.as_mut() {
            // The path before `open` is cleared (it names the member by `open_key`).
            if self.slot_path().is_some() {
                let (root, frames, open_key) = (&mut self.root, &self.frames, &self.open_key);
                let value = match (frames.last(), container(root, frames)) {
                    (None, _) => Some(&*root),
                    (Some(_), Some(Value::Array(items))) => items.last(),
                    (Some(_), Some(Value::Object(map))) => map.get(open_key.as_str()),
                    _ => None,
                };
                if let Some(value) = value {
                    on(StreamEvent::ValueComplete {
                        path: Cow::Borrowed(&self.scratch),
                        value: Cow::Borrowed(value),
                    });
                }
            }
        }
        self.open = None;
        match self.frames.last_mut() {
            None => {
                self.has_root = true;
                self.expect = Expect::Done;
            }
            Some(frame) => {
                frame.len += 1;
                self.expect = Expect::Comma;
            }
        }
    }

    /// A complete value: into the innermost container, or as the top-level value.
    fn complete_value(&mut self, value: Value, on: &mut On<'_, '_>) {
        if self.frames.is_empty() {
            self.root = value;
            self.has_root = true;
            self.expect = Expect::Done;
            return;
        }
        self.expect = Expect::Comma;
        if let Some(on) = on.as_mut() {
            if let Some(path) = self.slot_path() {
                on(StreamEvent::ValueComplete { path: Cow::Borrowed(path), value: Cow::Borrowed(&value) });
            }
        }
        let Some(frame) = self.frames.last_mut() else { return };
        let key = match frame.kind {
            Kind::Object => match frame.key.take() {
                Some(key) => Some(key),
                None => return,
            },
            Kind::Array | Kind::Paren | Kind::Set => None,
        };
        frame.len += 1;
        match (container(&mut self.root, &self.frames), key) {
            (Some(Value::Array(items)), _) => items.push(value),
            (Some(Value::Object(map)), Some(key)) => {
                map.insert(key, value);
            }
            _ => {}
        }
    }

    /// After a fragment: move what arrived of the string value being read into the tree
    /// (placing it first), and report it.
    fn sync_string(&mut self, lexer: &mut Lexer, on: &mut On<'_, '_>) {
        let Some((head, tail)) = lexer.open_string() else { return };
        let reported = self.open.unwrap_or(0);
        if head.len() + tail.len() <= reported {
            return; // nothing new
        }
        if !matches!(self.expect, Expect::Value | Expect::FirstItem | Expect::Item { .. }) {
            return; // a key, or a string where none belongs (an error when it ends)
        }
        // Up to the last whole character of `buf`: the rest of one comes with the next
        // fragment.
        let rest = tail.get(reported..).unwrap_or_default();
        // Most fragments leave nothing new in `buf`: no UTF-8 check then.
        let new_tail = match rest {
            [] => "",
            rest => match std::str::from_utf8(rest) {
                Ok(text) => text,
                Err(error) => {
                    rest.get(..error.valid_up_to()).and_then(|r| std::str::from_utf8(r).ok()).unwrap_or("")
                }
            },
        };
        if head.is_empty() && new_tail.is_empty() && self.open.is_some() {
            return;
        }
        if self.open.is_none() {
            // The placeholder goes in with what arrived already (one walk down the open
            // path, not two).
            let mut text = String::with_capacity((head.len() + new_tail.len()).max(32) * 2);
            text.push_str(head);
            text.push_str(new_tail);
            if !self.place(text) {
                return; // nowhere to show it (the one-shot builder drops it too)
            }
        } else if let Some(string) = self.placeholder() {
            string.push_str(head);
            if !new_tail.is_empty() {
                string.push_str(new_tail);
            }
        }
        self.open = Some(reported + new_tail.len());
        if let Some(on) = on.as_mut() {
            if let Some(path) = self.slot_path() {
                for piece in [head.as_str(), new_tail] {
                    if !piece.is_empty() {
                        on(StreamEvent::StringGrew {
                            path: Cow::Borrowed(path),
                            appended: Cow::Borrowed(piece),
                        });
                    }
                }
            }
        }
        head.clear();
    }

    /// Append `text`, read by [`Lexer::plain_run`], to the string value being read (it
    /// has a placeholder, and the lexer holds none of its text), and report it as
    /// [`sync_string`](Tree::sync_string) would.
    fn append_open(&mut self, text: &str, on: &mut On<'_, '_>) {
        if let Some(string) = self.placeholder() {
            string.push_str(text);
        }
        if let Some(on) = on.as_mut() {
            if let Some(path) = self.slot_path() {
                on(StreamEvent::StringGrew { path: Cow::Borrowed(path), appended: Cow::Borrowed(text) });
            }
        }
    }

    /// Put `text`, what was read of the string value being read, where that value goes.
    /// False if it has no place.
    fn place(&mut self, text: String) -> bool {
        let placeholder = Value::String(text);
        let Some(frame) = self.frames.last_mut() else {
            self.root = placeholder;
            return true;
        };
        let key = match frame.kind {
            Kind::Object => match frame.key.take() {
                Some(key) => Some(key),
                None => return false,
            },
            Kind::Array | Kind::Paren | Kind::Set => None,
        };
        match (container(&mut self.root, &self.frames), key) {
            (Some(Value::Array(items)), _) => {
                items.push(placeholder);
                true
            }
            (Some(Value::Object(map)), Some(key)) => {
                // The key moves into the map; lookups until the string ends use a copy in a
                // buffer that is reused, not a new allocation per string.
                self.open_key.clear();
                self.open_key.push_str(&key);
                map.insert(key, placeholder);
                self.open_at = position(map, &self.open_key);
                true
            }
            (_, key) => {
                // Not in the tree (an unreachable container): keep the key for the value.
                if let (Some(frame), Some(key)) = (self.frames.last_mut(), key) {
                    frame.key = Some(key);
                }
                false
            }
        }
    }

    /// The placeholder of the string value being read.
    fn placeholder(&mut self) -> Option<&mut String> {
        let slot = match self.frames.last() {
            None => &mut self.root,
            Some(_) => match container(&mut self.root, &self.frames)? {
                Value::Array(items) => items.last_mut()?,
                Value::Object(map) => match self.open_at {
                    Some(at) => map.values_mut().nth(at)?,
                    None => map.get_mut(self.open_key.as_str())?,
                },
                _ => return None,
            },
        };
        match slot {
            Value::String(string) => Some(string),
            _ => None,
        }
    }

    /// End of input: the value, or what was left open (with `complete`, a key still waiting
    /// for its value gets `null` and every open container is closed), as
    /// `tree::Builder::finish` in strict and lenient modes.
    fn finish(&mut self, complete: bool, end: usize) -> Result<Value, Failure> {
        if let Some(kind) = self.frames.last().map(|frame| frame.kind) {
            let inside = match kind {
                Kind::Object => "an object",
                Kind::Paren => "a parenthesised value",
                Kind::Set => "a set",
                Kind::Array => "an array",
            };
            if !complete {
                return Err(Fail::Truncated { inside }.into());
            }
            self.record(RepairKind::CompletedTruncated, end);
            self.materialize();
            if kind == Kind::Object && matches!(self.expect, Expect::Colon | Expect::Value) {
                // A key cut off before its value: `null`, unless the key is already there.
                let key = self.frames.last().and_then(|frame| frame.key.as_deref());
                let present = match (container(&mut self.root, &self.frames), key) {
                    (Some(Value::Object(map)), Some(key)) => map.contains_key(key),
                    _ => true,
                };
                if present {
                    if let Some(frame) = self.frames.last_mut() {
                        frame.key = None;
                    }
                } else {
                    self.complete_value(Value::Null, &mut None);
                }
            }
            while !self.frames.is_empty() {
                self.close(&mut None);
            }
        }
        if !self.has_root {
            return Err(Failure::syntax("expected a json value, found the end of the input", end));
        }
        Ok(mem::take(&mut self.root))
    }

    /// The innermost container, an object not shown yet (see `open_container`), becomes
    /// the empty object it is.
    fn materialize(&mut self) {
        if self.frames.last().is_some_and(|frame| frame.kind == Kind::Object) {
            if let Some(node @ Value::Null) = container(&mut self.root, &self.frames) {
                *node = Value::Object(Map::new());
            }
        }
    }

    /// `{'a', 'b'}`, `{1, 2}`: the innermost object, whose first key awaits its colon and
    /// is followed by `token` (`,` or `}`), is a Python set: an array of that key and what
    /// follows (as `tree::Builder` reads it).
    fn object_as_set(&mut self, token: Token, offset: usize, on: &mut On<'_, '_>) -> Result<(), Failure> {
        let key = self.frames.last_mut().and_then(|frame| frame.key.take());
        let Some(item) = key.and_then(|key| super::grammar::set_item(key, self.key_at, &mut self.repairs))
        else {
            return Err(Failure::syntax(
                format!("expected `:` after an object key, found {}", token.describe()),
                offset,
            ));
        };
        self.record(RepairKind::SetAsArray, offset);
        if let Some(node) = container(&mut self.root, &self.frames) {
            *node = Value::Array(Vec::new());
        }
        if let Some(frame) = self.frames.last_mut() {
            frame.kind = Kind::Set;
        }
        self.complete_value(item, on);
        if token == Token::EndObject {
            self.close(on);
        } else {
            self.expect = Expect::Item { comma: offset };
        }
        Ok(())
    }

    /// Forget everything read (the values were prose before the real value).
    fn reset(&mut self) {
        self.root = Value::Null;
        self.has_root = false;
        self.frames.clear();
        self.expect = Expect::Value;
        self.pointer.clear();
        self.open = None;
    }
}

/// The [`Sink`] of a [`Tree`] while one fragment is read, with where its events go.
struct TreeSink<'a, 'f> {
    tree: &'a mut Tree,
    on: On<'a, 'f>,
}

impl Sink for TreeSink<'_, '_> {
    fn context(&self) -> Ctx {
        let tree = &self.tree;
        match (tree.expect, tree.frames.last().map(|frame| frame.kind)) {
            (Expect::FirstKey | Expect::Key { .. }, _) | (Expect::Comma, Some(Kind::Object)) => Ctx::Key,
            (Expect::Value | Expect::Colon, Some(Kind::Object)) => Ctx::ObjectValue,
            (_, Some(Kind::Array | Kind::Paren | Kind::Set)) => Ctx::Array,
            _ => Ctx::Top,
        }
    }

    #[inline]
    fn token(&mut self, token: Token, offset: usize) -> Result<(), Failure> {
        self.tree.token(token, offset, &mut self.on)
    }

    fn expects_key(&self) -> bool {
        matches!(self.tree.expect, Expect::FirstKey | Expect::Key { .. })
    }

    fn is_complete(&self) -> bool {
        self.tree.expect == Expect::Done
    }

    fn repair(&mut self, kind: RepairKind, offset: usize) {
        self.tree.record(kind, offset);
    }

    fn retract(&mut self, kind: RepairKind) {
        self.tree.repairs.retain(|r| r.kind != kind);
    }

    fn in_paren(&self) -> bool {
        self.tree.frames.last().is_some_and(|frame| frame.kind == Kind::Paren)
    }

    fn in_container(&self) -> bool {
        !self.tree.frames.is_empty()
    }

    // Line breaks between top-level values and bare keys after a value matter only to
    // repair mode, which this builder does not read.
    fn line_break(&mut self) {}

    fn bare_key(&mut self) {}

    fn discard(&mut self) {
        self.tree.reset();
        self.tree.repairs.retain(|r| {
            !matches!(
                r.kind,
                RepairKind::Tuple
                    | RepairKind::NumberSyntax
                    | RepairKind::UnquotedString
                    | RepairKind::FunctionCall
            )
        });
    }

    fn undo_open(&mut self) -> bool {
        let tree = &mut *self.tree;
        let empty = match tree.frames.as_slice() {
            [frame] => {
                frame.len == 0
                    && (frame.kind == Kind::Array || (frame.kind == Kind::Object && frame.key.is_none()))
            }
            _ => false,
        };
        if empty && !tree.has_root {
            tree.reset();
        }
        empty
    }
}
