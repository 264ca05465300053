//! The grammar of strict and lenient JSON, written once: what each token means where it comes
//! (keys, colons, commas, trailing commas, closing brackets, function-call wrappers, Python
//! tuples and sets, the completion of cut-off input), deciding for every output alike.
//!
//! [`Grammar`] keeps only what the decisions need (what is expected next, and for each open
//! container its kind, the key awaiting its value and how many members it has); what the
//! value *is* goes to an [`Out`]: the `Value` builder of the one-shot parser
//! ([`super::output::value::ValueOut`]), the incremental parser's builder with its events
//! ([`super::output::incremental`]), or the tape ([`super::output::tape`]). The lexer drives a grammar and its
//! output through [`Fed`], the [`Sink`] of the pair.
//!
//! [`ParseMode::Repair`] reads with this grammar too: its layer ([`super::repair`]) passes
//! every token the grammar has a rule for to it, and steps in only where it guesses at
//! structure, rebuilding what was built (a second top-level value, an object closed too
//! early and continued, a lost row of a table); for that the grammar shows what it expects
//! and the kinds of the open containers, and lets the layer reshape them (the methods under
//! "For the repair layer").

use std::cell::Cell;
use std::thread::LocalKey;

use serde_json::Value;

use super::lexer::{Ctx, Fail, Failure, Sink, Str, Token};
use super::spare::{self, MOST_KEPT};
use super::{record_repair, ParseMode, ParseOptions, Repair, RepairKind};

/// What an open container is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Array,
    Object,
    /// `(`: a Python tuple, or the argument of a function-call wrapper such as
    /// `NumberLong(2)`. An array while open; one item without a comma is that item once it
    /// closes.
    Paren,
    /// A Python set (`{1, 2}`, lenient modes): an array, closed by `}`.
    Set,
}

impl Kind {
    /// Whether `closer` (`}`, `]` or `)`) closes a container of this kind.
    pub(crate) fn closed_by(self, closer: &Token<'_>) -> bool {
        matches!(
            (self, closer),
            (Kind::Array, Token::EndArray)
                | (Kind::Object | Kind::Set, Token::EndObject)
                | (Kind::Paren, Token::EndParen)
        )
    }
}

/// Where the grammar sends what it reads: the output of a parse. Every call is about the
/// innermost open container (or the top level when none is open).
///
/// A string token's content is lent ([`Str`]): an output copies what it keeps.
pub(crate) trait Out {
    /// An object key as the output keeps it while the grammar holds it, from its token until
    /// its value starts (or the key turns out to be something else): a `String`, or, for an
    /// output that points into the text, where the key is.
    type Key: HeldKey;
    /// The key `key`, read from the token that starts at byte `at` of the text, as the
    /// grammar is to hold it.
    fn hold_key(&mut self, key: Str<'_>, at: usize) -> Self::Key;
    /// The content of a held key.
    fn key_text<'k>(&'k self, key: &'k Self::Key) -> &'k str;
    /// The next value is the member `key` of the innermost object.
    fn key(&mut self, key: Self::Key);
    /// An array, object or `(` opens (a [`Kind::Set`] only comes from
    /// [`object_as_set`](Out::object_as_set)).
    fn open(&mut self, kind: Kind);
    /// A complete scalar: `null`, a boolean, a number or a string.
    fn scalar(&mut self, value: Value);
    /// A string value, read from the token that starts at byte `at` of the text: an output
    /// that points into the text (the tape) finds it there.
    fn string_at(&mut self, text: Str<'_>, at: usize) {
        let _ = at;
        self.scalar(Value::String(text.into_string()));
    }
    /// The innermost container closes; `unwrap`: it is a `(` holding one item and no comma,
    /// which is that item.
    fn close(&mut self, unwrap: bool);
    /// The innermost container, an object without members whose first key was followed by
    /// `,` or `}`, is a Python set: from now on an array (its items follow as values).
    fn object_as_set(&mut self);
    /// A `:` was read in the innermost object (so it is an object, not a set).
    fn colon(&mut self) {}
    /// Whether the innermost object already has the member `key` (the completion of a key
    /// cut off before its value asks it).
    fn has_key(&self, key: &str) -> bool;
    /// Forget everything: what was read was prose before the value.
    fn reset(&mut self);
    /// See [`Sink::float_literal`].
    fn float_literal(&mut self, _literal: &[u8]) {}
}

/// What the grammar expects next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Expect {
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

/// A key as the grammar holds it ([`Out::Key`]), with the spare stack of frames holding
/// such keys that this thread keeps (see [`spare`]).
pub(crate) trait HeldKey: Sized + 'static {
    /// The stack of open containers of the last grammar this thread dropped, emptied.
    fn spare_frames() -> &'static LocalKey<Cell<Vec<Frame<Self>>>>;
}

thread_local! {
    /// The spare stack of frames holding keys as `String`s.
    static SPARE_FRAMES: Cell<Vec<Frame<String>>> = const { Cell::new(Vec::new()) };
}

impl HeldKey for String {
    fn spare_frames() -> &'static LocalKey<Cell<Vec<Frame<String>>>> {
        &SPARE_FRAMES
    }
}

/// An open container as the grammar sees it, with keys held as `K` (see [`Out::Key`]).
#[derive(Debug)]
pub(crate) struct Frame<K> {
    kind: Kind,
    /// The key whose value is awaited (objects), until the value starts.
    key: Option<K>,
    /// Members or items completed.
    len: usize,
    /// A comma was read (`(`: then it is a tuple, an array).
    comma: bool,
}

/// The grammar of [`ParseMode::Strict`] and [`ParseMode::Lenient`], over an explicit stack
/// (nesting costs heap, not call stack, and is bounded by `max_depth`), holding keys as its
/// output's [`Out::Key`] (a `String` unless the output says otherwise).
#[derive(Debug)]
pub(crate) struct Grammar<K: HeldKey = String> {
    lenient: bool,
    max_depth: usize,
    frames: Vec<Frame<K>>,
    expect: Expect,
    repairs: Vec<Repair>,
    /// Offset of the last key read.
    key_at: usize,
}

/// The first item of a Python set (`{'a', 'b'}`, `{1, 2}`) read as an object's first key
/// (lenient modes): a quoted key is that string; a key written without quotes (its
/// [`RepairKind::UnquotedKey`] at the key's offset, which is withdrawn) is an item only when
/// it is a number, `True`, `False` or `None` as the parser reads them; a name is not a
/// literal, and the key is given back (the lenient modes refuse it; the repair mode keeps
/// it as text). `at`: the key's offset.
pub(super) fn set_item(key: String, at: usize, repairs: &mut Vec<Repair>) -> Result<Value, String> {
    let Some(bare) = repairs.iter().rposition(|r| r.kind == RepairKind::UnquotedKey && r.offset == at) else {
        return Ok(Value::String(key));
    };
    let options = ParseOptions { mode: ParseMode::Lenient, ..ParseOptions::default() };
    let parsed = match super::parse(&key, &options) {
        Ok(parsed) if matches!(parsed.value, Value::Number(_) | Value::Bool(_) | Value::Null) => parsed,
        _ => return Err(key),
    };
    repairs.remove(bare);
    repairs.extend(parsed.repairs.into_iter().map(|r| r.shifted(at)));
    Ok(parsed.value)
}

impl<K: HeldKey> Drop for Grammar<K> {
    fn drop(&mut self) {
        spare::give_back(K::spare_frames(), std::mem::take(&mut self.frames), MOST_KEPT);
    }
}

impl<K: HeldKey> Grammar<K> {
    /// A grammar for `options` (strict or lenient), starting with `repairs` already recorded
    /// (those made before a later candidate after prose), its stack of open containers the
    /// one the last grammar this thread dropped left.
    pub(crate) fn new(options: &ParseOptions, repairs: Vec<Repair>) -> Grammar<K> {
        Grammar {
            lenient: options.mode != ParseMode::Strict,
            max_depth: options.max_depth,
            frames: spare::take(K::spare_frames()),
            expect: Expect::Value,
            repairs,
            key_at: 0,
        }
    }

    /// The repairs recorded so far, in the order they were found.
    pub(crate) fn repairs(&self) -> &[Repair] {
        &self.repairs
    }

    /// The repairs recorded so far, taken.
    pub(crate) fn take_repairs(&mut self) -> Vec<Repair> {
        std::mem::take(&mut self.repairs)
    }

    /// Whether the next token is a value (the string being read is a value, not a key).
    pub(crate) fn expects_value(&self) -> bool {
        matches!(self.expect, Expect::Value | Expect::FirstItem | Expect::Item { .. })
    }

    /// Whether a value starting now has a place: at the top level, in an array, or in an
    /// object whose key awaits it.
    pub(crate) fn has_slot(&self) -> bool {
        match self.frames.last() {
            Some(frame) if frame.kind == Kind::Object => frame.key.is_some(),
            _ => true,
        }
    }

    /// Record a repair; whether it joined the record before it (see [`record_repair`]).
    pub(crate) fn record(&mut self, kind: RepairKind, offset: usize) -> bool {
        // Completing several cut-off things at the end is one repair.
        if kind == RepairKind::CompletedTruncated && self.repairs.iter().any(|r| r.kind == kind) {
            return false;
        }
        // An object's first key written bare keeps a record of its own: the object may turn
        // out to be a Python set (`{x: {1, 2}}`), whose first item's repair `set_item`
        // withdraws by its offset, which a record joined to the one before would have lost.
        if kind == RepairKind::UnquotedKey && self.expect == Expect::FirstKey {
            self.repairs.push(Repair::new(kind, offset));
            return false;
        }
        record_repair(&mut self.repairs, kind, offset)
    }

    /// Withdraw the repairs of `kind` (see [`Sink::retract`]).
    pub(crate) fn retract(&mut self, kind: RepairKind) {
        self.repairs.retain(|r| r.kind != kind);
    }

    /// A value starts: the key awaiting it goes to the output.
    #[inline]
    pub(crate) fn begin_value<O: Out<Key = K>>(&mut self, out: &mut O) {
        if let Some(key) = self.frames.last_mut().and_then(|frame| frame.key.take()) {
            out.key(key);
        }
    }

    /// A value is complete in the innermost container (or is the top-level value).
    #[inline]
    fn completed(&mut self) {
        match self.frames.last_mut() {
            None => self.expect = Expect::Done,
            Some(frame) => {
                frame.len += 1;
                self.expect = Expect::Comma;
            }
        }
    }

    /// A complete scalar (or a value built whole) in the innermost container, or as the
    /// top-level value.
    #[inline]
    pub(crate) fn scalar<O: Out<Key = K>>(&mut self, out: &mut O, value: Value) {
        self.begin_value(out);
        out.scalar(value);
        self.completed();
    }

    /// A container opens, expecting `expect` first.
    pub(crate) fn open<O: Out<Key = K>>(
        &mut self,
        out: &mut O,
        kind: Kind,
        expect: Expect,
    ) -> Result<(), Failure> {
        if self.frames.len() >= self.max_depth {
            return Err(Fail::TooDeep.into());
        }
        self.begin_value(out);
        out.open(kind);
        self.frames.push(Frame { kind, key: None, len: 0, comma: false });
        self.expect = expect;
        Ok(())
    }

    /// The innermost container closes.
    pub(crate) fn close<O: Out<Key = K>>(&mut self, out: &mut O) {
        let Some(frame) = self.frames.pop() else { return };
        out.close(frame.kind == Kind::Paren && frame.len == 1 && !frame.comma);
        self.completed();
    }

    /// Take one token.
    #[inline]
    pub(crate) fn token<O: Out<Key = K>>(
        &mut self,
        out: &mut O,
        token: Token<'_>,
        offset: usize,
    ) -> Result<(), Failure> {
        match self.expect {
            Expect::Value | Expect::FirstItem | Expect::Item { .. } => self.value_token(out, token, offset),
            Expect::FirstKey | Expect::Key { .. } => self.key_token(out, token, offset),
            Expect::Comma => self.comma_token(out, token, offset),
            Expect::Colon => match token {
                Token::Colon => {
                    out.colon();
                    self.expect = Expect::Value;
                    Ok(())
                }
                Token::Comma | Token::EndObject
                    if self.lenient
                        && self.frames.last().is_some_and(|f| f.kind == Kind::Object && f.len == 0) =>
                {
                    self.object_as_set(out, token, offset)
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

    fn value_token<O: Out<Key = K>>(
        &mut self,
        out: &mut O,
        token: Token<'_>,
        offset: usize,
    ) -> Result<(), Failure> {
        match token {
            Token::BeginArray => self.open(out, Kind::Array, Expect::FirstItem),
            Token::BeginObject => self.open(out, Kind::Object, Expect::FirstKey),
            Token::BeginParen => {
                self.record(RepairKind::Tuple, offset);
                self.open(out, Kind::Paren, Expect::FirstItem)
            }
            Token::Str(text) => {
                self.begin_value(out);
                out.string_at(text, offset);
                self.completed();
                Ok(())
            }
            Token::Number(number) => {
                self.scalar(out, Value::Number(number));
                Ok(())
            }
            Token::Bool(value) => {
                self.scalar(out, Value::Bool(value));
                Ok(())
            }
            Token::Null => {
                self.scalar(out, Value::Null);
                Ok(())
            }
            Token::EndArray | Token::EndParen | Token::EndObject
                if self.expect == Expect::FirstItem && self.closes_top(&token) =>
            {
                self.close(out);
                Ok(())
            }
            Token::EndArray | Token::EndParen | Token::EndObject
                if matches!(self.expect, Expect::Item { .. }) && self.closes_top(&token) =>
            {
                let Expect::Item { comma } = self.expect else { return Ok(()) };
                if self.frames.last().is_some_and(|frame| frame.kind == Kind::Paren && frame.len == 1) {
                    // `(1,)`: how Python writes a tuple of one, not a trailing comma.
                    self.close(out);
                    return Ok(());
                }
                let bracket = match token {
                    Token::EndArray => ']',
                    Token::EndObject => '}',
                    _ => ')',
                };
                self.trailing_comma(out, comma, offset, bracket)
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

    fn key_token<O: Out<Key = K>>(
        &mut self,
        out: &mut O,
        token: Token<'_>,
        offset: usize,
    ) -> Result<(), Failure> {
        match token {
            Token::Str(text) => {
                let key = out.hold_key(text, offset);
                self.key(key, offset);
                Ok(())
            }
            Token::EndObject => match self.expect {
                Expect::Key { comma } => self.trailing_comma(out, comma, offset, '}'),
                _ => {
                    self.close(out);
                    Ok(())
                }
            },
            Token::BeginParen if self.lenient && self.expect == Expect::FirstKey => {
                // `{('a', 1), 'b'}`: a set whose first item is a tuple (no key is a tuple).
                self.record(RepairKind::SetAsArray, offset);
                out.object_as_set();
                if let Some(frame) = self.frames.last_mut() {
                    frame.kind = Kind::Set;
                }
                self.expect = Expect::FirstItem;
                self.value_token(out, token, offset)
            }
            token => {
                let message = match self.expect {
                    Expect::FirstKey => "expected a string key or `}`",
                    _ => "expected a string key after `,`",
                };
                Err(Failure::syntax(format!("{message}, found {}", token.describe()), offset))
            }
        }
    }

    fn comma_token<O: Out<Key = K>>(
        &mut self,
        out: &mut O,
        token: Token<'_>,
        offset: usize,
    ) -> Result<(), Failure> {
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
                self.close(out);
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

    /// The key `key` (at `offset`) of the innermost object: its colon comes next.
    pub(crate) fn key(&mut self, key: K, offset: usize) {
        if let Some(frame) = self.frames.last_mut() {
            frame.key = Some(key);
        }
        self.key_at = offset;
        self.expect = Expect::Colon;
    }

    /// Whether `closer` closes the innermost container.
    pub(crate) fn closes_top(&self, closer: &Token<'_>) -> bool {
        self.frames.last().is_some_and(|frame| frame.kind.closed_by(closer))
    }

    /// A trailing comma at `comma` before the closing bracket at `offset`.
    fn trailing_comma<O: Out<Key = K>>(
        &mut self,
        out: &mut O,
        comma: usize,
        offset: usize,
        bracket: char,
    ) -> Result<(), Failure> {
        if !self.lenient {
            return Err(Failure::syntax(format!("trailing comma before `{bracket}`"), offset));
        }
        self.record(RepairKind::TrailingComma, comma);
        self.close(out);
        Ok(())
    }

    /// `{'a', 'b'}`, `{1, 2}`: the innermost object, whose first key awaits its colon and is
    /// followed by `token` (`,` or `}`), is a Python set: an array of that key and what
    /// follows.
    fn object_as_set<O: Out<Key = K>>(
        &mut self,
        out: &mut O,
        token: Token<'_>,
        offset: usize,
    ) -> Result<(), Failure> {
        let key = self.frames.last_mut().and_then(|frame| frame.key.take());
        let key = key.map(|key| out.key_text(&key).to_owned());
        let literal = key.clone();
        let Some(item) = key.and_then(|key| set_item(key, self.key_at, &mut self.repairs).ok()) else {
            return Err(Failure::syntax(
                format!("expected `:` after an object key, found {}", token.describe()),
                offset,
            ));
        };
        if let (Value::Number(number), Some(literal)) = (&item, &literal) {
            if number.is_f64() {
                // Read as a key, the first item's text is the float's literal as sent.
                out.float_literal(literal.as_bytes());
            }
        }
        self.record(RepairKind::SetAsArray, offset);
        out.object_as_set();
        if let Some(frame) = self.frames.last_mut() {
            frame.kind = Kind::Set;
        }
        self.scalar(out, item);
        if token == Token::EndObject {
            self.close(out);
        } else {
            self.expect = Expect::Item { comma: offset };
        }
        Ok(())
    }

    /// End of input: what was left open is an error, or with `complete` it is completed (a
    /// key still waiting for its value gets `null` unless its object has it already, and
    /// every open container is closed).
    pub(crate) fn finish<O: Out<Key = K>>(
        &mut self,
        out: &mut O,
        complete: bool,
        end: usize,
    ) -> Result<(), Failure> {
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
            if kind == Kind::Object && matches!(self.expect, Expect::Colon | Expect::Value) {
                // A key cut off before its value: `null`, unless the key is already there.
                let key = self.frames.last_mut().and_then(|frame| frame.key.take());
                if let Some(key) = key.filter(|key| !out.has_key(out.key_text(key))) {
                    if let Some(frame) = self.frames.last_mut() {
                        frame.key = Some(key);
                    }
                    self.scalar(out, Value::Null);
                }
            }
            while !self.frames.is_empty() {
                self.close(out);
            }
        }
        if self.expect != Expect::Done {
            return Err(Failure::syntax("expected a json value, found the end of the input", end));
        }
        Ok(())
    }

    /// Forget the values read (they were prose before the real value).
    pub(crate) fn reset(&mut self) {
        self.frames.clear();
        self.expect = Expect::Value;
    }

    /// What was read was prose before the value: forget the values and the repairs made in
    /// them, keeping those made around them (a fence, comments).
    pub(crate) fn discard<O: Out<Key = K>>(&mut self, out: &mut O) {
        self.reset();
        out.reset();
        self.repairs.retain(|r| {
            !matches!(r.kind, RepairKind::Tuple | RepairKind::NumberSyntax | RepairKind::UnquotedString)
        });
    }

    /// How the lexer reads where the grammar is (see [`Sink::context`]).
    #[inline]
    pub(crate) fn context(&self) -> Ctx {
        match (self.expect, self.frames.last().map(|frame| frame.kind)) {
            (Expect::FirstKey | Expect::Key { .. }, _) | (Expect::Comma, Some(Kind::Object)) => Ctx::Key,
            (Expect::Value | Expect::Colon, Some(Kind::Object)) => Ctx::ObjectValue,
            (_, Some(Kind::Array | Kind::Paren | Kind::Set)) => Ctx::Array,
            _ => Ctx::Top,
        }
    }

    /// Whether a key comes next.
    #[inline]
    pub(crate) fn expects_key(&self) -> bool {
        matches!(self.expect, Expect::FirstKey | Expect::Key { .. })
    }

    /// Whether the innermost container is a `(`.
    #[inline]
    pub(crate) fn in_paren(&self) -> bool {
        self.frames.last().is_some_and(|frame| frame.kind == Kind::Paren)
    }

    /// Whether a container is open.
    #[inline]
    pub(crate) fn in_container(&self) -> bool {
        !self.frames.is_empty()
    }
}

/// For the repair layer ([`super::repair`]), which passes the grammar the tokens it has a
/// rule for and reshapes what it built where repair mode guesses: what the grammar expects,
/// the open containers, and the changes a guess makes to them. Whatever a guess changes in
/// the output, the layer changes in the output itself. Its output keeps keys as `String`s.
impl Grammar {
    /// What is expected next.
    #[inline]
    pub(crate) fn expect(&self) -> Expect {
        self.expect
    }

    /// Expect `expect` next.
    pub(crate) fn set_expect(&mut self, expect: Expect) {
        self.expect = expect;
    }

    /// How many containers are open.
    #[inline]
    pub(crate) fn depth(&self) -> usize {
        self.frames.len()
    }

    /// The kinds of the open containers, outermost first.
    pub(crate) fn kinds(&self) -> impl DoubleEndedIterator<Item = Kind> + ExactSizeIterator + '_ {
        self.frames.iter().map(|frame| frame.kind)
    }

    /// The kind of the open container `outward` levels out from the innermost (0: the
    /// innermost).
    pub(crate) fn kind(&self, outward: usize) -> Option<Kind> {
        self.frames.iter().rev().nth(outward).map(|frame| frame.kind)
    }

    /// The key of the innermost object that awaits its value (read, its value not started).
    pub(crate) fn awaited_key(&self) -> Option<&str> {
        self.frames.last().and_then(|frame| frame.key.as_deref())
    }

    /// The innermost object's awaited key, taken: it gets no value.
    pub(crate) fn take_awaited_key(&mut self) -> Option<String> {
        self.frames.last_mut().and_then(|frame| frame.key.take())
    }

    /// The innermost object awaits a value for `key`.
    pub(crate) fn set_awaited_key(&mut self, key: Option<String>) {
        if let Some(frame) = self.frames.last_mut() {
            frame.key = key;
        }
    }

    /// A container whose content the output already holds (`len` items or members) is open
    /// again, expecting `expect`: an object or array continued, a row put back.
    pub(crate) fn reopen(&mut self, kind: Kind, len: usize, expect: Expect) -> Result<(), Failure> {
        if self.frames.len() >= self.max_depth {
            return Err(Fail::TooDeep.into());
        }
        self.frames.push(Frame { kind, key: None, len, comma: false });
        self.expect = expect;
        Ok(())
    }

    /// The innermost container is dropped unclosed (the output drops it too).
    pub(crate) fn drop_innermost(&mut self) {
        self.frames.pop();
    }

    /// The innermost container is of `kind` from now on, with `len` items and no awaited
    /// key (an object read as a set: an array).
    pub(crate) fn reshape(&mut self, kind: Kind, len: usize) {
        if let Some(frame) = self.frames.last_mut() {
            *frame = Frame { kind, key: None, len, comma: false };
        }
    }

    /// The last item of the innermost container was taken back out of it.
    pub(crate) fn uncount_item(&mut self) {
        if let Some(frame) = self.frames.last_mut() {
            frame.len = frame.len.saturating_sub(1);
        }
    }

    /// The innermost object's key awaiting its colon, taken, as the first item of the set
    /// that object turned out to be ([`set_item`]; a name stays text).
    pub(crate) fn take_awaited_key_as_item(&mut self) -> Option<Value> {
        let key = self.take_awaited_key()?;
        Some(set_item(key, self.key_at, &mut self.repairs).unwrap_or_else(Value::String))
    }

    /// The repairs recorded so far, to add to or change.
    pub(crate) fn repairs_mut(&mut self) -> &mut Vec<Repair> {
        &mut self.repairs
    }

    /// The nesting limit.
    pub(crate) fn max_depth(&self) -> usize {
        self.max_depth
    }
}

/// A grammar and its output while the lexer feeds them: the [`Sink`] of the pair.
pub(crate) struct Fed<'a, O: Out> {
    pub(crate) grammar: &'a mut Grammar<O::Key>,
    pub(crate) out: &'a mut O,
}

impl<O: Out> Sink for Fed<'_, O> {
    fn context(&self) -> Ctx {
        self.grammar.context()
    }

    #[inline(always)]
    fn token(&mut self, token: Token<'_>, offset: usize) -> Result<(), Failure> {
        self.grammar.token(self.out, token, offset)
    }

    #[inline]
    fn expects_key(&self) -> bool {
        self.grammar.expects_key()
    }

    #[inline]
    fn is_complete(&self) -> bool {
        self.grammar.expect == Expect::Done
    }

    fn repair(&mut self, kind: RepairKind, offset: usize) {
        self.grammar.record(kind, offset);
    }

    fn retract(&mut self, kind: RepairKind) {
        self.grammar.retract(kind);
    }

    fn float_literal(&mut self, literal: &[u8]) {
        self.out.float_literal(literal);
    }

    fn in_paren(&self) -> bool {
        self.grammar.in_paren()
    }

    fn expects_first_key(&self) -> bool {
        self.grammar.expect == Expect::FirstKey
    }

    fn in_container(&self) -> bool {
        self.grammar.in_container()
    }

    // Line breaks between top-level values and bare keys after a value matter only to
    // repair mode's layer.
    fn line_break(&mut self) {}

    fn bare_key(&mut self) {}

    fn discard(&mut self) {
        self.grammar.discard(self.out);
    }

    fn undo_open(&mut self) -> bool {
        let grammar = &mut *self.grammar;
        let empty = match grammar.frames.as_slice() {
            [frame] => {
                frame.len == 0
                    && (frame.kind == Kind::Array || (frame.kind == Kind::Object && frame.key.is_none()))
            }
            _ => false,
        };
        if empty && grammar.expect != Expect::Done {
            grammar.reset();
            self.out.reset();
        }
        empty
    }
}
