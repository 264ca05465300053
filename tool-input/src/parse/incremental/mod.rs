//! The incremental parser: fragments in, events and a partial value out, and at the end the
//! same [`Parsed`] as [`parse`](super::parse) of the whole text.
//!
//! It reads through the one-shot parser's driver ([`Driver`]), fragment by fragment, into an
//! output of its own ([`StreamOut`]): the one-shot parser's `Value` builder, plus the events
//! and the string being read at the end of each fragment; after a candidate following prose
//! fails, it steps through the same retry ([`Candidates`]) as the text arrives. The grammar
//! is written once, so the stream reads every text as the one-shot parser does (trailing
//! commas, function-call wrappers, what a cut-off input completes to, every error message);
//! the property tests still compare the final value, repairs and error with
//! [`parse`](super::parse) over random splits.
//!
//! The partial value is built when it is asked for ([`IncrementalParser::partial`]), exact
//! at that moment, and kept until the next fragment. Asked again after more fragments, the
//! last one is brought up to date with what arrived since (the values that landed in the
//! containers it shows open, the string it shows grown), not copied again: a caller that
//! asks after every fragment pays in all about what one copy of the value costs per level
//! of nesting, not a copy per fragment. The events come per fragment whether or not anyone
//! asks for the partial value. A fragment that is content of a string already shown (text
//! and complete escapes, up to its closing quote: most fragments of a long string) skips the
//! lexer's state machine ([`Lexer::string_run`]). See `suite/benches/stream.rs` and
//! BENCHMARKS.md for the figures.
//!
//! [`ParseMode::Repair`] restructures what it has built (a second top-level value, an
//! object closed too early and continued, a set read as an array), so in that mode the
//! final value comes from repair mode's layer fed fragment by fragment, no event is
//! reported, and the partial value comes from a lenient reading of the same text that stops
//! where that reading fails.

pub(in crate::parse) mod event;
#[cfg(test)]
mod generated;
#[cfg(test)]
pub(in crate::parse) mod tests;

use std::mem;

use std::sync::{Mutex, OnceLock, PoisonError};

use crate::parse::lexer::bytes::utf8_len;
use serde_json::Value;

pub use self::event::StreamEvent;
use crate::parse::driver::{Driver, Outcome, Start};
use crate::parse::lexer::Failure;
use crate::parse::one_shot;
use crate::parse::output::incremental::{sync_string, On, PartialShape, StreamOut};
use crate::parse::retry::{Candidates, Next};
use crate::parse::{coalesce, ParseError, ParseMode, ParseOptions, Parsed};

/// The partial value before any value started.
static NULL: Value = Value::Null;

/// A JSON parser fed fragments of any size, split anywhere (inside a token, an escape or a
/// UTF-8 character), that reports what completes as it arrives ([`StreamEvent`]), shows the
/// value so far ([`partial`](IncrementalParser::partial)), and ends with exactly what
/// [`parse`](super::parse) gives for the whole text: the same value, the same repairs, the
/// same error.
///
/// Each byte is read once: the work is linear in the input whatever the fragment sizes, and
/// the partial value is built only when asked for (once per fragment at most). A
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
    /// The retry of later candidates after prose, once the first value failed (the one-shot
    /// parser steps through the same state over the whole input).
    retry: Option<Candidates<ParseError>>,
    /// What was read of a value that failed for good, kept for display.
    frozen: Value,
    /// The partial value, built on the first ask after a fragment.
    partial: OnceLock<Value>,
    /// The last partial value, once a fragment made it out of date, and what it was built
    /// from: the next is that one brought up to date, not a copy of all that was read.
    last_partial: Mutex<(Option<Value>, PartialShape)>,
}

/// What the parser is doing.
#[derive(Debug)]
enum Reading {
    /// Reading a value (the first one, or a later candidate after prose).
    Value(Box<Attempt>),
    /// A candidate after prose failed: the next `{` or `[` from this offset on is the next
    /// one.
    Seeking { from: usize },
    /// The parse failed and nothing will be retried.
    Failed(ParseError),
}

impl IncrementalParser {
    /// A parser with `options`: the mode, the limits, and whether
    /// [`finish`](IncrementalParser::finish) completes a cut-off input
    /// ([`ParseOptions::complete_truncated`]) as [`parse`](super::parse) does.
    ///
    /// ```
    /// use tool_input::parse::{IncrementalParser, ParseOptions};
    ///
    /// let mut parser = IncrementalParser::new(ParseOptions::default().with_complete_truncated(true));
    /// parser.feed(r#"{"steps": ["plan", "wri"#)?;
    /// assert_eq!(parser.finish()?.value, serde_json::json!({"steps": ["plan", "wri"]}));
    /// # Ok::<(), tool_input::parse::ParseError>(())
    /// ```
    pub fn new(options: ParseOptions) -> IncrementalParser {
        let attempt = Attempt::new(&options, Start::FIRST);
        IncrementalParser {
            options,
            text: String::new(),
            tail: Vec::new(),
            bytes: 0,
            utf8_error: None,
            reading: Reading::Value(Box::new(attempt)),
            retry: None,
            frozen: Value::Null,
            partial: OnceLock::new(),
            last_partial: Mutex::new((None, PartialShape::default())),
        }
    }

    /// Read the next fragment. Returns the error once the input cannot be a value any more
    /// (a syntax error, too large, too deep); the same error is then returned by every later
    /// call and by [`finish`](IncrementalParser::finish) (unless a later limit takes
    /// precedence, as in [`parse`](super::parse)). A cut-off input is not an error here: it
    /// may go on.
    ///
    /// ```
    /// use tool_input::parse::{IncrementalParser, ParseOptions};
    ///
    /// let mut parser = IncrementalParser::new(ParseOptions::default());
    /// for chunk in [r#"{"city": "Pa"#, r#"ris", "days"#, r#"": 3}"#] {
    ///     parser.feed(chunk)?;
    /// }
    /// assert_eq!(parser.finish()?.value, serde_json::json!({"city": "Paris", "days": 3}));
    ///
    /// // A cut-off text is no error while it may go on; the end says it was cut off.
    /// let mut parser = IncrementalParser::new(ParseOptions::default());
    /// parser.feed(r#"{"city": "Pa"#)?;
    /// assert!(parser.finish().is_err());
    /// # Ok::<(), tool_input::parse::ParseError>(())
    /// ```
    #[inline]
    pub fn feed(&mut self, chunk: &str) -> Result<(), ParseError> {
        self.feed_inner(chunk, None::<&mut fn(StreamEvent<'_>)>)
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

    /// The value read so far, for display. It is built on the first call after a fragment
    /// and kept until the next fragment. The first is a copy of what was read so far; each
    /// later one is the last brought up to date with what arrived since, so asking after
    /// every fragment stays linear in the input.
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
            Reading::Value(attempt) => self.partial.get_or_init(|| {
                let mut last = self.last_partial.lock().unwrap_or_else(PoisonError::into_inner);
                let (value, shape) = attempt.partial_from(last.0.take(), &last.1);
                last.1 = shape;
                value
            }),
            Reading::Seeking { .. } => &NULL,
            Reading::Failed(_) => &self.frozen,
        }
    }

    /// [`partial`](IncrementalParser::partial) built from nothing, as the tests check the
    /// partial value brought up to date against.
    #[cfg(test)]
    pub(crate) fn fresh_partial(&self) -> Value {
        match &self.reading {
            Reading::Value(attempt) => attempt.partial(),
            Reading::Seeking { .. } => Value::Null,
            Reading::Failed(_) => self.frozen.clone(),
        }
    }

    /// The JSON Pointer of the innermost value of [`partial`](IncrementalParser::partial)
    /// still being read (an open array or object, or the string being read); `None` when no
    /// value is being read. Every other value the partial value holds is complete.
    pub(crate) fn open_path(&self) -> Option<String> {
        match &self.reading {
            Reading::Value(attempt) => attempt.open_path(),
            Reading::Seeking { .. } | Reading::Failed(_) => None,
        }
    }

    /// A whole value was read (an object's closing brace arrived): text after it cannot go on
    /// with it. False before, and after an error.
    pub(crate) fn holds_value(&self) -> bool {
        match &self.reading {
            Reading::Value(attempt) => attempt.shown().is_some_and(StreamOut::holds_value),
            Reading::Seeking { .. } | Reading::Failed(_) => false,
        }
    }

    /// The text fed so far (up to [`ParseOptions::max_bytes`], and up to the first byte that
    /// is not UTF-8).
    ///
    /// ```
    /// use tool_input::parse::{IncrementalParser, ParseOptions};
    ///
    /// let mut parser = IncrementalParser::new(ParseOptions::default());
    /// parser.feed("Here: ")?;
    /// parser.feed(r#"{"a": 1}"#)?;
    /// assert_eq!(parser.text(), r#"Here: {"a": 1}"#);
    /// # Ok::<(), tool_input::parse::ParseError>(())
    /// ```
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The text fed so far, taken.
    ///
    /// ```
    /// use tool_input::parse::{IncrementalParser, ParseOptions};
    ///
    /// let mut parser = IncrementalParser::new(ParseOptions::default());
    /// parser.feed("[1, ")?;
    /// parser.feed("2]")?;
    /// assert_eq!(parser.into_text(), "[1, 2]");
    /// # Ok::<(), tool_input::parse::ParseError>(())
    /// ```
    pub fn into_text(self) -> String {
        self.text
    }

    /// How many bytes were fed in all.
    ///
    /// ```
    /// use tool_input::parse::{IncrementalParser, ParseOptions};
    ///
    /// let mut parser = IncrementalParser::new(ParseOptions::default());
    /// parser.feed_bytes("[\"Zo".as_bytes())?;
    /// parser.feed_bytes(&[0xc3])?; // half of "ë"
    /// assert_eq!(parser.bytes(), 5);
    /// assert_eq!(parser.text(), "[\"Zo");
    /// # Ok::<(), tool_input::parse::ParseError>(())
    /// ```
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// The error the parse already met, if any (the one [`feed`](IncrementalParser::feed)
    /// returned).
    ///
    /// ```
    /// use tool_input::parse::{IncrementalParser, ParseError, ParseOptions};
    ///
    /// let mut parser = IncrementalParser::new(ParseOptions::default().with_max_bytes(4));
    /// assert_eq!(parser.error(), None);
    /// let _ = parser.feed("[1, 2, 3]");
    /// assert_eq!(parser.error(), Some(ParseError::TooLarge { bytes: 9, limit: 4 }));
    /// ```
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
    pub fn finish(self) -> Result<Parsed, ParseError> {
        self.finish_reporting(None).map(|(parsed, _)| parsed)
    }

    /// [`finish`](IncrementalParser::finish), sending to `on_event` the events that only the
    /// end of the input brings: where the value read after prose turns out, at the end, not
    /// to be one (a string or container still open), the next candidate in the text is read
    /// now, after a [`StreamEvent::Restart`], and its members are reported as
    /// [`feed_with`](IncrementalParser::feed_with) reports them. Whatever was reported, the
    /// value returned is the one to act on.
    ///
    /// ```
    /// use tool_input::parse::{IncrementalParser, ParseOptions, StreamEvent};
    ///
    /// // The candidate `{6''` fails only once the input ends; the value after it is the call.
    /// let mut parser = IncrementalParser::new(ParseOptions::default());
    /// let mut events = Vec::new();
    /// parser.feed_with(r#"Sure: {6''{"city": "Paris"} '"#, |event| events.push(event.into_owned())).unwrap();
    /// assert!(events.is_empty());
    /// let parsed = parser.finish_with(|event| events.push(event.into_owned())).unwrap();
    /// assert_eq!(parsed.value["city"], "Paris");
    /// assert!(matches!(
    ///     &events[..],
    ///     [StreamEvent::Restart, StreamEvent::ValueComplete { path, .. }] if path == "/city"
    /// ));
    /// ```
    pub fn finish_with(self, mut on_event: impl FnMut(StreamEvent<'_>)) -> Result<Parsed, ParseError> {
        self.finish_reporting(Some(&mut on_event)).map(|(parsed, _)| parsed)
    }

    /// [`finish`](IncrementalParser::finish), also telling whether an object repeated a key
    /// (as `parse_noting_repeats` does for the same text): the value the parser built, not a
    /// second reading of its text (except in [`ParseMode::Repair`], which reads strict JSON
    /// as `serde_json` does).
    pub(crate) fn finish_noting_repeats(self) -> Result<(Parsed, bool), ParseError> {
        self.finish_reporting(None)
    }

    /// [`finish_noting_repeats`](IncrementalParser::finish_noting_repeats), sending the events
    /// of a candidate read at the end to `on`.
    pub(crate) fn finish_reporting(mut self, mut on: On<'_, '_>) -> Result<(Parsed, bool), ParseError> {
        if !self.tail.is_empty() && self.utf8_error.is_none() {
            // The input ended inside a UTF-8 character.
            self.utf8_error = Some(self.bytes - self.tail.len());
        }
        if self.options.mode == ParseMode::Repair
            && self.bytes <= self.options.max_bytes
            && self.utf8_error.is_none()
        {
            // `parse` takes strict JSON through `serde_json` first, and repair mode's own
            // reading of strict JSON can differ from it (its guesses about quotes): one
            // more pass, in the mode that is not for tool arguments, to give the same value.
            if let Some((value, repeated)) =
                crate::parse::repeats::strict_noting_repeats(&self.text, self.options.max_depth)
            {
                return Ok((Parsed { value, repairs: Vec::new() }, repeated));
            }
        }
        self.status()?;
        loop {
            match mem::replace(&mut self.reading, Reading::Seeking { from: usize::MAX }) {
                Reading::Value(mut attempt) => match attempt.finish() {
                    Ok(outcome) => {
                        let (parsed, repeated) = one_shot::decode_double(outcome, &self.options);
                        return Ok((coalesce(parsed), repeated));
                    }
                    Err(failure) => self.failed(&mut attempt, failure, &mut on),
                },
                Reading::Seeking { .. } => {
                    return Err(self.retry.map(Candidates::into_first).unwrap_or_else(|| {
                        ParseError::Syntax {
                            message: "expected a json value".to_owned(),
                            offset: 0,
                            line: 1,
                            column: 1,
                        }
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

    /// A fragment arrives: the partial value built for the last one is out of date. Most
    /// callers never ask for it, so the cell is only emptied when it holds one.
    #[inline]
    fn forget_partial(&mut self) {
        // A look first: `take` on the empty cell (most callers never ask) swaps in a new
        // cell and drops the old one, which costs more than the rest of a short fragment.
        if self.partial.get().is_none() {
            return;
        }
        if let Some(value) = self.partial.take() {
            // Kept, to be brought up to date at the next ask; the landings from now on are
            // what it lacks.
            self.last_partial.get_mut().unwrap_or_else(PoisonError::into_inner).0 = Some(value);
            if let Reading::Value(attempt) = &mut self.reading {
                attempt.partial_taken();
            }
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

    /// [`feed`](IncrementalParser::feed) and [`feed_with`](IncrementalParser::feed_with):
    /// generic over the callback, so that on the commonest fragment (content of a string
    /// already shown, see [`Attempt::read_open`]) its one event is a direct call, inlined, and
    /// no callback at all costs nothing. What the lexer reads takes the callback as `dyn`
    /// (one copy of the lexer and grammar for every caller).
    #[inline]
    fn feed_inner<F: FnMut(StreamEvent<'_>)>(
        &mut self,
        chunk: &str,
        mut on_event: Option<&mut F>,
    ) -> Result<(), ParseError> {
        self.forget_partial();
        // The common case first: a value being read, within the limit.
        let clear = self.tail.is_empty()
            && self.utf8_error.is_none()
            && self.bytes.saturating_add(chunk.len()) <= self.options.max_bytes;
        if let (Reading::Value(attempt), true) = (&mut self.reading, clear) {
            self.bytes += chunk.len();
            self.text.push_str(chunk);
            let Some(rest) = attempt.read_open(&self.text, chunk, &mut on_event) else { return Ok(()) };
            let mut on: On<'_, '_> = on_event.map(|f| f as &mut dyn FnMut(StreamEvent<'_>));
            match attempt.feed_tokens(rest, &mut on) {
                Ok(()) => return Ok(()),
                Err(failure) => {
                    self.fail_attempt(failure, &mut on);
                    return self.status();
                }
            }
        }
        let on: On<'_, '_> = on_event.map(|f| f as &mut dyn FnMut(StreamEvent<'_>));
        self.feed_slow(chunk, on)
    }

    /// [`IncrementalParser::feed_inner`] when the input is past a limit, not UTF-8, inside
    /// a character started by [`feed_bytes`](IncrementalParser::feed_bytes), or no value is
    /// being read (seeking the next candidate, or failed).
    #[inline(never)]
    fn feed_slow(&mut self, chunk: &str, mut on: On<'_, '_>) -> Result<(), ParseError> {
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
        self.forget_partial();
        let before = self.bytes;
        if !self.count(chunk.len()) || self.utf8_error.is_some() {
            return self.status();
        }
        if let Some(&lead) = self.tail.first() {
            // Complete the character the last fragment ended inside.
            let need = usize::from(utf8_len(lead));
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
            Reading::Value(attempt) => {
                if let Err(failure) = attempt.feed(&self.text, chunk, on) {
                    self.fail_attempt(failure, on);
                }
            }
            Reading::Seeking { .. } => self.seek(on),
            Reading::Failed(_) => {}
        }
    }

    /// The value being read failed with `failure`.
    #[cold]
    fn fail_attempt(&mut self, failure: Failure, on: &mut On<'_, '_>) {
        if let Reading::Value(mut attempt) =
            mem::replace(&mut self.reading, Reading::Seeking { from: usize::MAX })
        {
            self.failed(&mut attempt, failure, on);
        }
    }

    /// `attempt` failed: try the next candidate after prose as the one-shot parser
    /// does ([`crate::parse::retry::read_with_retry`]), or fail for good.
    fn failed(&mut self, attempt: &mut Attempt, failure: Failure, on: &mut On<'_, '_>) {
        let candidates = match self.retry.as_mut() {
            Some(candidates) => candidates,
            None => {
                // The first attempt's error is the one reported (a later candidate's never is).
                let error = one_shot::to_error(failure.clone(), self.text.as_bytes(), &self.options);
                match Candidates::after(&attempt.driver, self.options.mode, error) {
                    Ok(candidates) => self.retry.insert(candidates),
                    Err(error) => {
                        self.frozen = attempt.partial();
                        self.reading = Reading::Failed(error);
                        return;
                    }
                }
            }
        };
        let Some(from) = candidates.search_from(&failure) else {
            self.reading = Reading::Failed(candidates.first().clone());
            return;
        };
        if let (Some(on), false) = (on.as_mut(), self.options.mode == ParseMode::Repair) {
            on(StreamEvent::Restart);
        }
        self.reading = Reading::Seeking { from };
        self.seek(on);
    }

    /// Look for the next candidate in the text so far, and read it from its start.
    fn seek(&mut self, on: &mut On<'_, '_>) {
        loop {
            let Reading::Seeking { from } = self.reading else { return };
            let Some(candidates) = self.retry.as_mut() else { return };
            let at = match candidates.next(self.text.as_bytes(), from) {
                Next::At(at) => at,
                Next::NoneYet => {
                    // Nothing yet: the next fragment is searched from here.
                    self.reading = Reading::Seeking { from: from.max(self.text.len()) };
                    return;
                }
                Next::NoneLeft => {
                    self.reading = Reading::Failed(candidates.first().clone());
                    return;
                }
            };
            let mut attempt = Box::new(Attempt::new(&self.options, candidates.start(at)));
            let unread = self.text.get(at..).unwrap_or_default();
            match attempt.feed(&self.text, unread, on) {
                Ok(()) => {
                    self.reading = Reading::Value(attempt);
                    return;
                }
                Err(failure) => self.failed(&mut attempt, failure, on),
            }
        }
    }
}

// ---------------------------------------------------------------- one attempt

/// The driver reading one candidate value into the stream's output, and in
/// [`ParseMode::Repair`] (whose layer reports no events and builds its own value) a lenient
/// reading of the same text beside it, for the partial value.
#[derive(Debug)]
struct Attempt {
    driver: Driver<StreamOut>,
    shadow: Option<Box<Shadow>>,
}

/// Repair mode's lenient reading beside its own, for the partial value.
#[derive(Debug)]
struct Shadow {
    reading: Driver<StreamOut>,
    /// Until that reading fails (its value then stays as it was).
    ok: bool,
}

impl Attempt {
    /// An attempt reading under `options` from `start`.
    fn new(options: &ParseOptions, start: Start) -> Attempt {
        let shadow = (options.mode == ParseMode::Repair).then(|| {
            // The lenient reading's lexer reads with the repair options' readings.
            let options = ParseOptions { mode: ParseMode::Lenient, ..options.clone() };
            let start = Start { repairs: Vec::new(), ..start };
            let reading = Driver::new(&options, start, || StreamOut::new(true));
            Box::new(Shadow { reading, ok: true })
        });
        let lenient = options.mode != ParseMode::Strict;
        let driver = Driver::new(options, start, || StreamOut::new(lenient));
        Attempt { driver, shadow }
    }

    /// Read `chunk`, the end of `fed` (the text read so far).
    fn feed(&mut self, fed: &str, chunk: &str, on: &mut On<'_, '_>) -> Result<(), Failure> {
        match self.read_open(fed, chunk, on) {
            Some(rest) => self.feed_tokens(rest, on),
            None => Ok(()),
        }
    }

    /// Content of a string value already shown goes straight to where it is shown: a whole
    /// fragment while a long string streams in, or the end of one
    /// ([`StreamOut::read_open`]). The fragment `chunk` is the end of `fed`, the text read
    /// so far (a short one is searched in the bytes that end it), passed as well so that it
    /// is not sliced out of `fed` again. Returns what is left of it for the lexer
    /// ([`Attempt::feed_tokens`]), `None` if nothing is.
    #[inline]
    fn read_open<'c, F: FnMut(StreamEvent<'_>) + ?Sized>(
        &mut self,
        fed: &str,
        chunk: &'c str,
        on: &mut Option<&mut F>,
    ) -> Option<&'c str> {
        debug_assert!(fed.ends_with(chunk));
        let (lexer, Some((_, out))) = self.driver.parts_mut() else { return Some(chunk) };
        if !out.string_open() {
            return Some(chunk);
        }
        let read = out.read_open(lexer, chunk, fed, on);
        match chunk.get(read..) {
            Some("") => None,
            Some(rest) => Some(rest),
            None => Some(chunk),
        }
    }

    /// Read `chunk` with the lexer (after [`Attempt::read_open`]).
    fn feed_tokens(&mut self, chunk: &str, on: &mut On<'_, '_>) -> Result<(), Failure> {
        if let Some(shadow) = self.shadow.as_deref_mut() {
            if shadow.ok {
                shadow.ok = shadow.reading.feed_str(chunk).is_ok();
                if shadow.ok {
                    show_string(&mut shadow.reading, &mut None);
                }
            }
            return self.driver.feed_str(chunk);
        }
        let lent: On<'_, '_> = on.as_deref_mut().map(|on| on as &mut dyn FnMut(StreamEvent<'_>));
        self.driver.feed_str_lending(chunk, lent)?;
        show_string(&mut self.driver, on);
        Ok(())
    }

    fn finish(&mut self) -> Result<Outcome, Failure> {
        self.driver.finish()
    }

    /// The path of the innermost value of [`Attempt::partial`] still being read.
    fn open_path(&self) -> Option<String> {
        let shown = match &self.shadow {
            Some(shadow) => shadow.reading.output(),
            None => self.driver.output(),
        };
        shown.and_then(StreamOut::open_value_path)
    }

    /// The value read so far, from the last partial value built (see
    /// [`StreamOut::partial_from`]).
    fn partial_from(&self, previous: Option<Value>, shape: &PartialShape) -> (Value, PartialShape) {
        match self.shown() {
            Some(out) => out.partial_from(previous, shape),
            None => (Value::Null, PartialShape::default()),
        }
    }

    /// A partial value was built from the output it is shown from.
    fn partial_taken(&mut self) {
        let out = match &mut self.shadow {
            Some(shadow) => shadow.reading.output_mut(),
            None => self.driver.output_mut(),
        };
        if let Some(out) = out {
            out.partial_taken();
        }
    }

    /// The output the partial value is shown from: repair mode's lenient reading, or the
    /// reading itself.
    fn shown(&self) -> Option<&StreamOut> {
        match &self.shadow {
            Some(shadow) => shadow.reading.output(),
            None => self.driver.output(),
        }
    }

    /// The value read so far (built now).
    fn partial(&self) -> Value {
        let shown = match &self.shadow {
            Some(shadow) => shadow.reading.output(),
            None => self.driver.output(),
        };
        shown.map_or(Value::Null, StreamOut::partial)
    }
}

/// After a fragment: what arrived of the string value being read, shown ([`sync_string`]).
#[inline]
fn show_string(driver: &mut Driver<StreamOut>, on: &mut On<'_, '_>) {
    if let (lexer, Some((grammar, out))) = driver.parts_mut() {
        sync_string(grammar, out, lexer, on);
    }
}
