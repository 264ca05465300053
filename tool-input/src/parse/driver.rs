//! The one driver: a [`Lexer`] feeding the grammar and an output ([`super::grammar`],
//! [`super::output`]), or in [`ParseMode::Repair`] repair mode's layer over them
//! ([`super::repair`]), fragment by fragment, then finishing (completing a cut-off input when
//! asked). Every reading drives the grammar through it: the one-shot parse into a `Value`
//! ([`ValueOut`]), the parse onto a tape ([`TapeOut`]) and the incremental parser
//! ([`StreamOut`], which adds its events and partial value around it).
//!
//! What needs the whole input is above it: the retry after prose ([`super::retry`]) and the
//! one-shot readings with the decoding of a double-encoded payload ([`super::one_shot`]).

use serde_json::Value;

use super::grammar::{Fed, Grammar, HeldKey, Out};
use super::lexer::{as_given, Failure, Lexer};
use super::output::float_text::FloatTexts;
use super::output::incremental::{On, Reporting, StreamOut};
use super::output::tape::{Tape, TapeOut};
use super::output::value::ValueOut;
use super::repair::RepairLayer;
use super::{ParseMode, ParseOptions, Repair};

/// A lexer and what it feeds: the resumable parser of one value. Feed it fragments of any
/// size with [`Driver::feed`] or [`Driver::feed_str`] and end with [`Driver::finish`]; it never
/// needs the earlier fragments again.
#[derive(Debug)]
pub(crate) struct Driver<O: Output> {
    lexer: Lexer,
    build: Build<O>,
    /// [`ParseOptions::complete_truncated`].
    complete_truncated: bool,
}

/// What a [`Driver`] builds with.
#[derive(Debug)]
// The strict and lenient variant, the one on the hot path, stays inline; repair mode's is
// boxed.
#[allow(clippy::large_enum_variant)]
enum Build<O: Output> {
    /// Strict and lenient modes: the grammar and the output.
    Grammar(GrammarOf<O>, O),
    /// [`ParseMode::Repair`]: the grammar and its `Value` output under repair mode's guesses
    /// (which rebuild what they built, so they need a `Value`).
    Repair(Box<RepairLayer>),
}

/// The grammar as it drives the output `O`, holding keys as `O` does.
pub(crate) type GrammarOf<O> = Grammar<<O as Output>::Key>;

/// An output a [`Driver`] holds: what the grammar writes to while a fragment is read, and
/// what it gives at the end.
pub(crate) trait Output {
    /// How the grammar holds an object's key until its value starts ([`Out::Key`]).
    type Key: std::fmt::Debug + HeldKey;
    /// What a call of the driver lends the output while it reads: the incremental output's
    /// event callback; nothing for the others.
    type Lent<'a>: Default
    where
        Self: 'a;
    /// What the grammar writes to while a call reads: the output, or the output with what
    /// was lent to it.
    type Writer<'a>: Writer<Key = Self::Key>
    where
        Self: 'a;
    /// The output as the grammar writes to it, with `lent`.
    fn writer<'a>(&'a mut self, lent: Self::Lent<'a>) -> Self::Writer<'a>;
    /// What a finished reading gives.
    type Value;
    /// The value written, taken, and whether an object of it repeated a key.
    fn take(&mut self) -> (Self::Value, bool);
    /// Repair mode's value (its layer builds a `Value` of its own), as this output gives one.
    fn repaired(value: Value) -> Self::Value;
}

/// What the grammar writes to during one call of a [`Driver`]: an [`Out`], borrowed or
/// wrapped.
pub(crate) trait Writer {
    /// How the output holds a key ([`Out::Key`]).
    type Key;
    /// The output written to.
    type Out: Out<Key = Self::Key>;
    /// It, to write to.
    fn out(&mut self) -> &mut Self::Out;
}

impl<O: Out> Writer for &mut O {
    type Key = O::Key;
    type Out = O;

    #[inline(always)]
    fn out(&mut self) -> &mut O {
        self
    }
}

impl<'a, 'f> Writer for Reporting<'a, 'f> {
    type Key = String;
    type Out = Reporting<'a, 'f>;

    #[inline(always)]
    fn out(&mut self) -> &mut Self {
        self
    }
}

impl Output for ValueOut {
    type Key = String;
    type Lent<'a> = ();
    type Writer<'a> = &'a mut ValueOut;

    #[inline(always)]
    fn writer(&mut self, (): ()) -> &mut ValueOut {
        self
    }

    type Value = Value;

    fn take(&mut self) -> (Value, bool) {
        (ValueOut::take(self).unwrap_or(Value::Null), self.repeated_keys())
    }

    fn repaired(value: Value) -> Value {
        value
    }
}

impl<'t> Output for TapeOut<'t> {
    type Key = <TapeOut<'t> as Out>::Key;
    type Lent<'a>
        = ()
    where
        't: 'a;
    type Writer<'a>
        = &'a mut TapeOut<'t>
    where
        't: 'a;

    #[inline(always)]
    fn writer<'a>(&'a mut self, (): ()) -> &'a mut TapeOut<'t> {
        self
    }

    type Value = Tape<'t>;

    fn take(&mut self) -> (Tape<'t>, bool) {
        self.take_tape()
    }

    fn repaired(value: Value) -> Tape<'t> {
        Tape::from_value(&value)
    }
}

impl Output for StreamOut {
    type Key = String;
    /// Where the events of a fragment go.
    type Lent<'a> = On<'a, 'a>;
    type Writer<'a> = Reporting<'a, 'a>;

    #[inline(always)]
    fn writer<'a>(&'a mut self, on: On<'a, 'a>) -> Reporting<'a, 'a> {
        Reporting { out: self, on }
    }

    type Value = Value;

    fn take(&mut self) -> (Value, bool) {
        let (value, repeated) = StreamOut::take(self);
        (value.unwrap_or(Value::Null), repeated)
    }

    fn repaired(value: Value) -> Value {
        value
    }
}

/// A value read, with its repairs and where it started.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Outcome<V = Value> {
    pub(crate) value: V,
    /// Sorted by offset.
    pub(crate) repairs: Vec<Repair>,
    /// Absolute offset of the first byte of the top-level value.
    pub(crate) value_at: usize,
    /// An object repeated a key (its last value was kept).
    pub(crate) repeated_keys: bool,
}

/// Where a [`Driver`] starts reading: at the start of the input, or at a later candidate
/// after prose.
#[derive(Debug)]
pub(crate) struct Start {
    /// Absolute offset of the first byte it reads.
    pub(crate) at: usize,
    /// Whether a code fence is open there, when it starts inside prose after a failed
    /// candidate.
    pub(crate) fence_open: Option<bool>,
    /// Repairs already recorded (those made before a later candidate).
    pub(crate) repairs: Vec<Repair>,
}

impl Start {
    /// The start of the input.
    pub(crate) const FIRST: Start = Start { at: 0, fence_open: None, repairs: Vec::new() };
}

impl<O: Output> Driver<O> {
    /// A driver reading under `options` from `start`, into the output `out` makes (repair
    /// mode writes into its layer's instead).
    // Inlined into its caller, so that the driver is built where it is kept: moving one
    // (most of it the lexer) costs a short call more than its first token.
    #[inline(always)]
    pub(crate) fn new(options: &ParseOptions, start: Start, out: impl FnOnce() -> O) -> Self {
        let Start { at, fence_open, repairs } = start;
        Driver {
            lexer: match fence_open {
                Some(fence_open) => Lexer::in_prose(options.mode, options.non_finite, at, fence_open),
                None => Lexer::new(options.mode, options.non_finite, at),
            }
            .with_readings(options),
            build: match options.mode {
                ParseMode::Repair => Build::Repair(Box::new(RepairLayer::new(options).with_repairs(repairs))),
                _ => Build::Grammar(Grammar::new(options, repairs), out()),
            },
            complete_truncated: options.complete_truncated,
        }
    }

    /// Read the next fragment.
    pub(crate) fn feed(&mut self, chunk: &[u8]) -> Result<(), Failure> {
        let Driver { lexer, build, .. } = self;
        let read = match build {
            Build::Grammar(grammar, out) => {
                let mut writer = out.writer(O::Lent::default());
                lexer.feed(chunk, &mut Fed { grammar, out: writer.out() })
            }
            Build::Repair(layer) => lexer.feed(chunk, &mut **layer),
        };
        read.map_err(|failure| failure.read_unescaped(&lexer.escapes))
    }

    /// Read the next fragment, known to be valid UTF-8 on its own (faster).
    #[inline]
    pub(crate) fn feed_str(&mut self, chunk: &str) -> Result<(), Failure> {
        self.feed_str_lending(chunk, O::Lent::default())
    }

    /// [`Driver::feed_str`], lending the output `lent` while it reads. Inlined: the
    /// incremental parser calls it once a fragment, most fragments are short, and a call
    /// more cost a streamed call a fraction of a percent.
    #[inline(always)]
    pub(crate) fn feed_str_lending<'s>(&'s mut self, chunk: &str, lent: O::Lent<'s>) -> Result<(), Failure> {
        let Driver { lexer, build, .. } = self;
        let read = match build {
            Build::Grammar(grammar, out) => {
                let mut writer = out.writer(lent);
                lexer.feed_str(chunk, &mut Fed { grammar, out: writer.out() })
            }
            Build::Repair(layer) => lexer.feed_str(chunk, &mut **layer),
        };
        read.map_err(|failure| failure.read_unescaped(&lexer.escapes))
    }

    /// Read the whole of `input` and finish.
    #[inline]
    pub(crate) fn read(&mut self, input: Input<'_>) -> Result<Outcome<O::Value>, Failure> {
        match input.text {
            Some(text) => self.feed_str(text)?,
            None => self.feed(input.bytes)?,
        }
        self.finish()
    }

    /// End the input.
    pub(crate) fn finish(&mut self) -> Result<Outcome<O::Value>, Failure> {
        self.finish_reading().map_err(|failure| failure.read_unescaped(&self.lexer.escapes))
    }

    /// [`Driver::finish`], its failure's offsets as read.
    fn finish_reading(&mut self) -> Result<Outcome<O::Value>, Failure> {
        let complete = self.complete_truncated;
        let Driver { lexer, build, .. } = self;
        let (value, mut repairs, repeated_keys) = match build {
            Build::Grammar(grammar, out) => {
                {
                    let mut writer = out.writer(O::Lent::default());
                    let out = writer.out();
                    lexer.finish(&mut Fed { grammar: &mut *grammar, out: &mut *out }, complete)?;
                    grammar.finish(out, complete, lexer.offset())?;
                }
                let (value, repeated) = out.take();
                (value, grammar.take_repairs(), repeated)
            }
            Build::Repair(layer) => {
                lexer.finish(&mut **layer, complete)?;
                let value = layer.finish(complete, lexer.offset())?;
                (O::repaired(value), layer.take_repairs(), layer.repeated_keys())
            }
        };
        // The lexer records repairs as it reads; only a trailing comma is recorded when its
        // closing bracket arrives, possibly after a comment. Usually they are in order
        // already, and then no sort runs: a stable sort takes a buffer of half the records,
        // which on a long payload with a repair between every two tokens is half its size.
        if !repairs.is_sorted_by_key(|r| r.offset) {
            repairs.sort_by_key(|r| r.offset);
        }
        let mut value_at = lexer.value_start().map_or(0, |(at, _)| at);
        if !lexer.escapes.is_empty() {
            // Escaped JSON was read with a level of backslashes removed: its repairs are
            // placed in the text as given (in the same order).
            for repair in &mut repairs {
                repair.offset = as_given(&lexer.escapes, repair.offset);
                repair.last_offset = as_given(&lexer.escapes, repair.last_offset);
            }
            value_at = as_given(&lexer.escapes, value_at);
        }
        Ok(Outcome { value, repairs, value_at, repeated_keys })
    }

    /// The lexer (where the value started, whether prose came first).
    pub(crate) fn lexer(&self) -> &Lexer {
        &self.lexer
    }

    /// The repairs recorded so far.
    pub(crate) fn repairs(&self) -> &[Repair] {
        match &self.build {
            Build::Grammar(grammar, _) => grammar.repairs(),
            Build::Repair(layer) => layer.repairs(),
        }
    }

    /// The output, unless repair mode's layer writes into its own.
    pub(crate) fn output(&self) -> Option<&O> {
        match &self.build {
            Build::Grammar(_, out) => Some(out),
            Build::Repair(_) => None,
        }
    }

    /// The output, unless repair mode's layer reads (as [`Driver::output`]), to change.
    pub(crate) fn output_mut(&mut self) -> Option<&mut O> {
        match &mut self.build {
            Build::Grammar(_, out) => Some(out),
            Build::Repair(_) => None,
        }
    }

    /// The lexer, and the grammar with the output unless repair mode's layer reads: for an
    /// output that reads part of a fragment itself (the incremental one, a string's content).
    #[inline]
    pub(crate) fn parts_mut(&mut self) -> (&mut Lexer, Option<(&mut GrammarOf<O>, &mut O)>) {
        match &mut self.build {
            Build::Grammar(grammar, out) => (&mut self.lexer, Some((grammar, out))),
            Build::Repair(_) => (&mut self.lexer, None),
        }
    }
}

impl Driver<ValueOut> {
    /// A driver into a `Value`, for input starting at absolute offset 0 (the tests feed it
    /// fragments).
    #[cfg(test)]
    pub(crate) fn for_value(options: &ParseOptions) -> Driver<ValueOut> {
        Driver::new(options, Start::FIRST, ValueOut::new)
    }

    /// Record the float literals (see `one_shot::float_literals`).
    pub(crate) fn track_floats(&mut self) {
        match &mut self.build {
            Build::Grammar(_, out) => out.track_floats(),
            Build::Repair(layer) => layer.set_tracking_floats(),
        }
    }

    /// [`Driver::track_floats`], with a number beyond the floats read as one of them: a
    /// stand-in recorded with its text, so that the failure it causes in an ordinary
    /// reading can be placed (`one_shot::to_error`). Never for a reading whose value is
    /// used: the checker's float literals are of the text as it parses.
    pub(crate) fn track_floats_and_beyond(&mut self) {
        self.lexer.stand_in_beyond_floats();
        self.track_floats();
    }

    /// Keep each float's text, a stand-in for it in the value, a number beyond the floats
    /// read as one of them (see `one_shot::parse_to_json`).
    pub(crate) fn keep_float_texts(&mut self) {
        self.lexer.stand_in_beyond_floats();
        match &mut self.build {
            Build::Grammar(_, out) => out.keep_float_texts(),
            Build::Repair(layer) => layer.keep_float_texts(),
        }
    }

    /// The texts of the floats the value's stand-ins stand for, taken.
    pub(crate) fn take_float_texts(&mut self) -> FloatTexts {
        match &mut self.build {
            Build::Grammar(_, out) => out.take_float_texts(),
            Build::Repair(layer) => layer.take_float_texts(),
        }
    }

    /// The float literals recorded, taken.
    pub(crate) fn take_floats(&mut self) -> Vec<(String, String)> {
        match &mut self.build {
            Build::Grammar(_, out) => out.take_floats(),
            Build::Repair(layer) => layer.take_floats(),
        }
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

    /// The bytes.
    pub(crate) fn as_bytes(self) -> &'a [u8] {
        self.bytes
    }

    /// The input from `offset` on (an ASCII `{` or `[`, so a character boundary).
    pub(crate) fn from(self, offset: usize) -> Input<'a> {
        Input {
            bytes: self.bytes.get(offset..).unwrap_or_default(),
            text: self.text.and_then(|text| text.get(offset..)),
        }
    }
}
