//! The builder of [`ParseMode::Repair`]: the grammar of every mode plus the guesses at
//! structure that repair mode makes by rebuilding what it has built (a second top-level
//! value, an object closed too early and continued, a lost row of a table, a key that starts
//! the next item), which only a [`Value`] can do. Strict and lenient parses go through
//! [`super::grammar`] instead; the property tests keep the two readings in step.
//!
//! [`Builder`] receives tokens from the [`Lexer`](super::lexer::Lexer) through [`Sink`] and
//! builds the [`Value`] on an explicit stack of open arrays and objects, so nesting costs
//! heap, not call stack, and is bounded by `max_depth`.

use serde_json::{Map, Value};

use super::grammar::set_item;
use super::lexer::{Fail, Failure, Sink, Token};
use super::{ParseMode, ParseOptions, Repair, RepairKind, RepairStyle};

mod fenced;
mod sink;
/// An open array, object or parenthesised group.
#[derive(Debug)]
enum Frame {
    Array(Vec<Value>),
    /// `key` holds the key whose value is awaited; `last_array` ([`ParseMode::Repair`])
    /// the key of the last member whose value is an array, which a stray `[` may continue.
    Object {
        map: Map<String, Value>,
        key: Option<String>,
        last_array: Option<String>,
    },
    /// `(`: a Python tuple, or the argument of a function call wrapper. One item without a
    /// comma is that item; anything else an array. With `set`, a Python set `{1, 2}`
    /// (lenient modes), closed by `}`: always an array.
    Paren {
        items: Vec<Value>,
        comma: bool,
        set: bool,
    },
}

impl Frame {
    fn into_value(self) -> Value {
        match self {
            Frame::Array(items) => Value::Array(items),
            Frame::Object { map, .. } => Value::Object(map),
            Frame::Paren { mut items, comma, set } => {
                if items.len() == 1 && !comma && !set {
                    items.pop().unwrap_or(Value::Null)
                } else {
                    Value::Array(items)
                }
            }
        }
    }

    /// Whether `closer` (`}`, `]` or `)`) closes this frame.
    fn closed_by(&self, closer: &Token) -> bool {
        matches!(
            (self, closer),
            (Frame::Array(_), Token::EndArray)
                | (Frame::Object { .. }, Token::EndObject)
                | (Frame::Paren { set: false, .. }, Token::EndParen)
                | (Frame::Paren { set: true, .. }, Token::EndObject)
        )
    }
}

/// What the builder expects next.
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
    /// [`ParseMode::Repair`]: after `,` (at `comma`) following a top-level value.
    TopComma { comma: usize },
}

/// A token whose meaning depends on the next one ([`ParseMode::Repair`]).
#[derive(Debug)]
enum Pending {
    None,
    /// A closing bracket (at `offset`) that does not close the innermost container.
    Closer {
        token: Token,
        offset: usize,
    },
    /// A string where the `:` after a key belongs: the value (a missing colon), or, if a
    /// `:` follows, the real key after a stray word.
    KeyOrValue {
        text: String,
        offset: usize,
    },
    /// A string after `value,` at the top level when the value is an object: a further
    /// member if `:` (or a value) follows, else a further value.
    TopKey {
        text: String,
        offset: usize,
    },
}

/// Builds a [`Value`] from tokens, without recursion.
#[derive(Debug)]
pub(crate) struct Builder {
    lenient: bool,
    /// [`ParseMode::Repair`].
    repair: bool,
    /// [`ParseMode::Repair`] with [`RepairStyle::JsonRepair`].
    python_style: bool,
    /// [`ParseMode::Repair`]: how many repairs had been recorded when the last token was
    /// built; those after it belong to the token being read.
    repairs_before_token: usize,
    /// Record where floats that do not denote their integral value exactly land (see
    /// [`inexact_numbers`]); off for an ordinary parse.
    track_inexact: bool,
    /// The literal of the next number token, when it is such a float.
    inexact_next: Option<String>,
    /// Each such float: the JSON Pointer of its place and its text.
    inexact: Vec<(String, String)>,
    max_depth: usize,
    stack: Vec<Frame>,
    expect: Expect,
    result: Option<Value>,
    /// [`ParseMode::Repair`]: the earlier top-level values, when there are several.
    results: Vec<Value>,
    pending: Pending,
    /// [`ParseMode::Repair`]: a line break since the last top-level value.
    line_break: bool,
    /// Offset of the token being built into the tree.
    at: usize,
    /// The next key (or, after a key, the key awaiting its colon) was written without
    /// quotes.
    bare_key: bool,
    /// [`ParseMode::Repair`]: the key about to be read does not follow `{` or `,` directly
    /// (a comma is missing before it, or stray quotes were dropped): if its object is an
    /// array item that already has it, it starts the next item.
    key_after_stray: bool,
    /// Offset of the last key read.
    key_at: usize,
    repairs: Vec<Repair>,
    /// An object repeated a key (its last value was kept).
    repeated_keys: bool,
}

/// The longest row whose lost `[` is put back: the values after the last row are counted
/// up to this, so each reopening looks at a bounded number of items.
const MAX_LOST_ROW: usize = 64;

/// Where the row that lost its `[` starts in `items`, if they are rows of a table (the
/// first item is an array) whose last values are not arrays and are as many as the row
/// before them has (at most [`MAX_LOST_ROW`]). Looks at the first item and the end only,
/// so continuing a long table stays linear.
fn lost_row(items: &[Value]) -> Option<usize> {
    if !items.first().is_some_and(Value::is_array) {
        return None;
    }
    let tail = items.iter().rev().take(MAX_LOST_ROW + 1).take_while(|item| !item.is_array()).count();
    let from = items.len().checked_sub(tail)?;
    match items.get(from.checked_sub(1)?) {
        Some(Value::Array(row)) if row.len() == tail && (1..=MAX_LOST_ROW).contains(&tail) => Some(from),
        _ => None,
    }
}

/// `{}` or `[]`.
fn is_empty_container(value: &Value) -> bool {
    match value {
        Value::Array(items) => items.is_empty(),
        Value::Object(map) => map.is_empty(),
        _ => false,
    }
}

impl Builder {
    pub(crate) fn new(options: &ParseOptions) -> Builder {
        Builder {
            lenient: options.mode != ParseMode::Strict,
            repair: options.mode == ParseMode::Repair,
            python_style: options.mode == ParseMode::Repair && options.style == RepairStyle::JsonRepair,
            repairs_before_token: 0,
            track_inexact: false,
            inexact_next: None,
            inexact: Vec::new(),
            max_depth: options.max_depth,
            stack: Vec::new(),
            expect: Expect::Value,
            result: None,
            results: Vec::new(),
            pending: Pending::None,
            line_break: false,
            at: 0,
            bare_key: false,
            key_after_stray: false,
            key_at: 0,
            repairs: Vec::new(),
            repeated_keys: false,
        }
    }

    /// End of input: the value, or what was left open. With `complete`, a key still
    /// waiting for its value gets `null` and every open container is closed.
    pub(crate) fn finish(&mut self, complete: bool, end: usize) -> Result<Value, Failure> {
        if !matches!(self.pending, Pending::None) {
            self.resolve(None);
        }
        if !self.stack.is_empty() {
            let inside = match self.stack.last() {
                Some(Frame::Object { .. }) => "an object",
                Some(Frame::Paren { set: false, .. }) => "a parenthesised value",
                Some(Frame::Paren { set: true, .. }) => "a set",
                _ => "an array",
            };
            if !complete {
                return Err(Fail::Truncated { inside }.into());
            }
            self.repair(RepairKind::CompletedTruncated, end);
            if self.python_style && self.expect == Expect::Colon {
                // json_repair: a repeated key cut off before its colon starts a new object,
                // and an object cut off after its first key is a set of it.
                if self.awaited_key_repeats() {
                    self.split_object(end)?;
                }
                self.cut_key_as_set(end);
            }
            let stray = self.repair && self.bare_key && self.expect == Expect::Colon;
            if let Some(Frame::Object { key, map, .. }) = self.stack.last_mut() {
                if matches!(self.expect, Expect::Colon | Expect::Value) {
                    // A key cut off before its value: `null`, as jsonrepair completes it
                    // (unless the key is already there: its value stays; or it is a bare
                    // word after a value, `{"a": "b" tail`: a stray word).
                    match key.take() {
                        Some(name) if !map.contains_key(&name) && !stray => {
                            *key = Some(name);
                            self.complete_value(Value::Null);
                        }
                        _ => {}
                    }
                }
            }
            while let Some(frame) = self.stack.pop() {
                self.complete_value(frame.into_value());
            }
        }
        if let Expect::TopComma { comma } = self.expect {
            self.repair(RepairKind::TrailingComma, comma);
        }
        let Some(last) = self.result.take() else {
            return Err(Failure::syntax("expected a json value, found the end of the input", end));
        };
        if self.results.is_empty() {
            return Ok(last);
        }
        let mut values = std::mem::take(&mut self.results);
        values.push(last);
        Ok(Value::Array(values))
    }

    /// The JSON Pointer of the place the next value goes (keys and indexes of the open
    /// containers; a group in parentheses adds nothing).
    fn slot_pointer(&self) -> String {
        let mut pointer = String::new();
        for frame in &self.stack {
            match frame {
                Frame::Array(items) => {
                    pointer.push('/');
                    pointer.push_str(&items.len().to_string());
                }
                Frame::Object { key: Some(key), .. } => crate::pointer::push_token(&mut pointer, key),
                Frame::Object { key: None, .. } | Frame::Paren { .. } => {}
            }
        }
        pointer
    }

    /// Record a repair; a run of one kind is one record (see [`super::record_repair`]).
    fn record(&mut self, kind: RepairKind, offset: usize) {
        let before = self.repairs.len();
        if super::record_repair(&mut self.repairs, kind, offset) && before == self.repairs_before_token {
            // The token's own repair joined the record before it: that record is the
            // token's too.
            self.repairs_before_token = before.saturating_sub(1);
        }
    }

    /// The repairs recorded so far, in the order they were found.
    pub(crate) fn take_repairs(&mut self) -> Vec<Repair> {
        std::mem::take(&mut self.repairs)
    }

    /// The repairs recorded so far (the streaming parser carries those before the value to
    /// the next candidate after prose, as [`parse_outcome`] does).
    pub(crate) fn repairs(&self) -> &[Repair] {
        &self.repairs
    }

    /// Start with `repairs` already recorded (those made before a later candidate).
    pub(crate) fn with_repairs(mut self, repairs: Vec<Repair>) -> Builder {
        self.repairs = repairs;
        self
    }

    /// Record the inexact floats (see `tree::inexact_numbers`) when `track`.
    pub(crate) fn tracking_inexact(mut self, track: bool) -> Builder {
        self.track_inexact = track;
        self
    }

    /// The inexact floats recorded, taken.
    pub(crate) fn take_inexact(&mut self) -> Vec<(String, String)> {
        std::mem::take(&mut self.inexact)
    }

    /// Whether an object repeated a key (its last value was kept).
    pub(crate) fn repeated_keys(&self) -> bool {
        self.repeated_keys
    }

    /// A complete value: into the open container, or as the result.
    #[inline]
    fn complete_value(&mut self, value: Value) {
        match self.stack.last_mut() {
            None => {
                self.expect = Expect::Done;
                let same_line = !std::mem::take(&mut self.line_break);
                let Some(earlier) = self.result.take() else {
                    self.result = Some(value);
                    return;
                };
                // `[]{"a": 1}`, `{"a": 1}, {}`: an empty object or array next to a value on
                // the same line is a placeholder, not a value.
                if same_line && is_empty_container(&value) {
                    self.record(RepairKind::DroppedEmpty, self.at);
                    self.result = Some(earlier);
                } else if same_line && is_empty_container(&earlier) {
                    self.record(RepairKind::DroppedEmpty, self.at);
                    self.result = Some(value);
                } else {
                    self.results.push(earlier);
                    self.result = Some(value);
                }
            }
            Some(Frame::Array(items) | Frame::Paren { items, .. }) => {
                items.push(value);
                self.expect = Expect::Comma;
            }
            Some(Frame::Object { map, key, last_array }) => {
                if let Some(key) = key.take() {
                    if self.repair && value.is_array() {
                        *last_array = Some(key.clone());
                    } else if self.repair {
                        *last_array = None;
                    }
                    self.repeated_keys |= map.insert(key, value).is_some();
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

    /// Close the innermost container because a later bracket says it ended.
    fn close_missing(&mut self, offset: usize) {
        self.repair(RepairKind::MissingBracket, offset);
        let mut empty = false;
        let mut dropped_key = false;
        if let Some(Frame::Object { key, map, .. }) = self.stack.last_mut() {
            dropped_key = key.take().is_some();
            empty = map.is_empty();
        }
        if dropped_key {
            self.record(RepairKind::DroppedKey, offset);
        }
        // json_repair drops an object that never got a member and was never closed, when
        // an array's `]` ends it (`[{]`); jsonrepair keeps `{}`.
        if empty && self.python_style && matches!(self.stack.iter().rev().nth(1), Some(Frame::Array(_))) {
            self.stack.pop();
            self.record(RepairKind::DroppedEmpty, offset);
            self.expect = Expect::Comma;
            return;
        }
        self.close();
    }

    /// Whether the innermost container is an object that is an array item and already has
    /// the member `name`.
    fn item_has_key(&self, name: &str) -> bool {
        let mut frames = self.stack.iter().rev();
        matches!(
            (frames.next(), frames.next()),
            (Some(Frame::Object { map, .. }), Some(Frame::Array(_))) if map.contains_key(name)
        )
    }

    /// Whether the key awaiting its colon is one its object, an array item, already has.
    fn awaited_key_repeats(&self) -> bool {
        match self.stack.last() {
            Some(Frame::Object { key: Some(name), .. }) => self.item_has_key(name),
            _ => false,
        }
    }

    /// A repeated key where a new member cannot be meant (`[{"a": 1 "a": 2}]`): the object
    /// ended and the next array item began (a missing `}, {`). The key awaiting its colon,
    /// if any, moves to the new object.
    fn split_object(&mut self, offset: usize) -> Result<(), Failure> {
        self.repair(RepairKind::MissingBracket, offset);
        let awaited = match self.stack.last_mut() {
            Some(Frame::Object { key, .. }) => key.take(),
            _ => None,
        };
        self.close();
        let expect = if awaited.is_some() { Expect::Colon } else { Expect::FirstKey };
        self.open(Frame::Object { map: Map::new(), key: awaited, last_array: None }, expect)
    }

    /// [`RepairStyle::JsonRepair`], at the end of the input: an object cut off after its
    /// first key (`{"a`) holds only that key, a set, read as an array as `{"a", "b"}` is.
    fn cut_key_as_set(&mut self, offset: usize) {
        let set = matches!(
            self.stack.last(),
            Some(Frame::Object { map, key: Some(name), .. }) if map.is_empty() && !name.is_empty()
        );
        if set {
            self.object_as_set(offset);
            self.expect = Expect::Comma;
        }
    }

    /// The innermost object, which holds only the key awaiting its colon, is a set
    /// (`{"a", "b"}`): an array, holding that key.
    fn object_as_set(&mut self, offset: usize) {
        self.repair(RepairKind::SetAsArray, offset);
        let key = match self.stack.pop() {
            Some(Frame::Object { key, .. }) => key,
            _ => None,
        };
        self.stack.push(Frame::Array(key.map(Value::String).into_iter().collect()));
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

    /// Whether `token` closes the innermost container.
    fn closes_top(&self, token: &Token) -> bool {
        self.stack.last().is_some_and(|frame| frame.closed_by(token))
    }

    /// A closing bracket that does not close the innermost container
    /// ([`ParseMode::Repair`]): decided when the next token arrives.
    fn stray_closer(&mut self, token: Token, offset: usize) -> Result<(), Failure> {
        if !self.repair {
            return Err(Failure::syntax(format!("unexpected {}", token.describe()), offset));
        }
        self.pending = Pending::Closer { token, offset };
        Ok(())
    }

    /// Settle the pending token now that `next` (`None`: the end) is known.
    fn resolve(&mut self, next: Option<&Token>) {
        match std::mem::replace(&mut self.pending, Pending::None) {
            Pending::None => {}
            Pending::Closer { token, offset: at } => {
                let matching = self.stack.iter().rposition(|frame| frame.closed_by(&token));
                let comma = next == Some(&Token::Comma);
                match matching {
                    // Nothing of its kind is open: an extra bracket before a comma
                    // (`[{"a": 1}}, {...}]`), else the wrong bracket for the innermost one.
                    None if comma => self.repair(RepairKind::ExtraBracket, at),
                    None => self.close_missing(at),
                    Some(m) => {
                        // Close down to the container it closes, but not the outermost one
                        // when a comma shows that more members follow.
                        let keep = comma && m == 0 && self.stack.len() > 1;
                        while self.stack.len() > m + 1 {
                            self.close_missing(at);
                        }
                        if !keep {
                            self.close();
                        }
                    }
                }
            }
            Pending::KeyOrValue { text, offset: at } => {
                let empty_key =
                    matches!(self.stack.last(), Some(Frame::Object { key: Some(k), .. }) if k.is_empty());
                if text.is_empty() && empty_key && matches!(next, Some(Token::Str(_))) {
                    // `"""" "b": 2`: a run of stray quotes before the real key.
                    self.repair(RepairKind::DroppedKey, at);
                    if let Some(Frame::Object { key, .. }) = self.stack.last_mut() {
                        *key = None;
                    }
                    self.expect = Expect::FirstKey;
                    self.key_after_stray = true;
                } else if next == Some(&Token::Colon) {
                    // A stray word before the real key (`{"a": 1, COMMENT "b": 2}`).
                    self.repair(RepairKind::DroppedKey, at);
                    if let Some(Frame::Object { key, .. }) = self.stack.last_mut() {
                        *key = Some(text);
                    }
                    self.expect = Expect::Colon;
                } else {
                    self.repair(RepairKind::MissingColon, at);
                    self.complete_value(Value::String(text));
                }
            }
            Pending::TopKey { text, offset: at } => {
                let member = matches!(next, Some(Token::Colon | Token::Str(_)));
                match self.result.take() {
                    Some(Value::Object(map)) if member => {
                        // `{"a": 1}, "b": 2}`: the object went on.
                        self.repair(RepairKind::Reopened, at);
                        self.stack.push(Frame::Object { map, key: Some(text), last_array: None });
                        self.expect = Expect::Colon;
                    }
                    earlier if self.python_style => {
                        // Not a member: trailing text, as after no comma (`done_token`).
                        self.result = earlier;
                        self.repair(RepairKind::ProseAfter, at);
                        self.expect = Expect::Done;
                    }
                    earlier => {
                        self.result = earlier;
                        self.repair(RepairKind::MultipleValues, at);
                        self.complete_value(Value::String(text));
                    }
                }
            }
        }
    }

    fn value_token(&mut self, token: Token, offset: usize) -> Result<(), Failure> {
        match token {
            Token::BeginArray => self.open(Frame::Array(Vec::new()), Expect::FirstItem),
            Token::BeginObject => {
                self.open(Frame::Object { map: Map::new(), key: None, last_array: None }, Expect::FirstKey)
            }
            Token::BeginParen(call) => {
                if !call {
                    self.repair(RepairKind::Tuple, offset);
                }
                self.open(Frame::Paren { items: Vec::new(), comma: false, set: false }, Expect::FirstItem)
            }
            Token::Str(text) => {
                let value = match self.fenced_json(&text, offset) {
                    Some(value) => value,
                    None => Value::String(text),
                };
                self.complete_value(value);
                Ok(())
            }
            Token::Number(number) => {
                if let Some(literal) = self.inexact_next.take() {
                    let pointer = self.slot_pointer();
                    self.inexact.push((pointer, literal));
                }
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
            Token::Ellipsis if self.repair => Ok(()),
            Token::EndArray | Token::EndParen | Token::EndObject
                if self.expect == Expect::FirstItem && self.closes_top(&token) =>
            {
                self.close();
                Ok(())
            }
            Token::EndArray | Token::EndParen | Token::EndObject
                if matches!(self.expect, Expect::Item { .. }) && self.closes_top(&token) =>
            {
                let Expect::Item { comma } = self.expect else { return Ok(()) };
                if matches!(self.stack.last(), Some(Frame::Paren { items, set: false, .. }) if items.len() == 1)
                {
                    // `(1,)`: how Python writes a tuple of one, not a trailing comma.
                    self.close();
                    return Ok(());
                }
                let bracket = match token {
                    Token::EndArray => ']',
                    Token::EndObject => '}',
                    _ => ')',
                };
                self.trailing_comma(comma, offset, bracket)
            }
            Token::Comma if self.repair && matches!(self.expect, Expect::FirstItem | Expect::Item { .. }) => {
                self.repair(RepairKind::ExtraComma, offset);
                self.expect = Expect::Item { comma: offset };
                Ok(())
            }
            Token::EndArray | Token::EndParen | Token::EndObject | Token::Comma
                if self.repair && self.expect == Expect::Value && !self.stack.is_empty() =>
            {
                // `{"a": }`, `{"a": , "b": 1}`.
                self.repair(RepairKind::MissingValue, offset);
                let missing = if self.python_style { Value::String(String::new()) } else { Value::Null };
                self.complete_value(missing);
                self.dispatch(token, offset)
            }
            Token::EndArray | Token::EndParen | Token::EndObject
                if self.repair && matches!(self.expect, Expect::FirstItem | Expect::Item { .. }) =>
            {
                if let Expect::Item { comma } = self.expect {
                    self.repair(RepairKind::TrailingComma, comma);
                }
                self.expect = Expect::Comma;
                self.stray_closer(token, offset)
            }
            Token::EndArray | Token::EndParen | Token::EndObject | Token::Comma
                if self.repair && self.stack.is_empty() =>
            {
                let kind =
                    if token == Token::Comma { RepairKind::ExtraComma } else { RepairKind::ExtraBracket };
                self.repair(kind, offset);
                Ok(())
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
                    _ if self.stack.is_empty() => "expected a json value",
                    _ => "expected a value after `:`",
                };
                Err(Failure::syntax(format!("{message}, found {}", token.describe()), offset))
            }
        }
    }

    fn key_token(&mut self, token: Token, offset: usize) -> Result<(), Failure> {
        let after_stray = std::mem::take(&mut self.key_after_stray);
        match token {
            Token::Str(text) => self.key(text, offset, after_stray),
            Token::EndObject => match self.expect {
                Expect::Key { comma } => self.trailing_comma(comma, offset, '}'),
                _ => {
                    self.close();
                    Ok(())
                }
            },
            _ if !self.repair => {
                let message = match self.expect {
                    Expect::FirstKey => "expected a string key or `}`",
                    _ => "expected a string key after `,`",
                };
                Err(Failure::syntax(format!("{message}, found {}", token.describe()), offset))
            }
            Token::Comma | Token::Colon => {
                self.repair(RepairKind::ExtraComma, offset);
                Ok(())
            }
            Token::Ellipsis => Ok(()),
            Token::Number(number) => self.key(number.to_string(), offset, after_stray),
            Token::Bool(value) => self.key(value.to_string(), offset, after_stray),
            Token::Null => self.key("null".to_owned(), offset, after_stray),
            Token::BeginArray if matches!(self.expect, Expect::Key { .. }) && self.last_array().is_some() => {
                // `{"a": ["x"], ["y"]}`: the array went on.
                let reopened = match self.stack.last_mut() {
                    Some(Frame::Object { map, key, last_array }) => {
                        let name = last_array.take().unwrap_or_default();
                        let items = match map.remove(&name) {
                            Some(Value::Array(items)) => items,
                            other => {
                                if let Some(other) = other {
                                    map.insert(name.clone(), other);
                                }
                                Vec::new()
                            }
                        };
                        *key = Some(name);
                        items
                    }
                    _ => Vec::new(),
                };
                self.repair(RepairKind::Reopened, offset);
                let mut items = reopened;
                let Some(from) = lost_row(&items) else {
                    return self.open(Frame::Array(items), Expect::Item { comma: offset });
                };
                // `{"rows": [["a", "b"], "c", "d"], ["e", "f"]]}`: that `]` closed a row whose
                // `[` was lost, not the table, which goes on; this `[` opens its next row.
                self.repair(RepairKind::MissingBracket, offset);
                let row = items.split_off(from);
                items.push(Value::Array(row));
                self.open(Frame::Array(items), Expect::Item { comma: offset })?;
                self.value_token(Token::BeginArray, offset)
            }
            Token::BeginObject | Token::BeginArray | Token::BeginParen(_) => {
                // `[{"a": 1 {"b": 2}]`: the object ended before this.
                if let Expect::Key { comma } = self.expect {
                    self.repair(RepairKind::TrailingComma, comma);
                }
                self.close_missing(offset);
                self.dispatch(token, offset)
            }
            Token::EndArray | Token::EndParen => {
                if let Expect::Key { comma } = self.expect {
                    self.repair(RepairKind::TrailingComma, comma);
                }
                self.expect = Expect::Comma;
                self.stray_closer(token, offset)
            }
        }
    }

    /// The key `text`; `after_stray`: it does not follow `{` or `,` directly.
    fn key(&mut self, text: String, offset: usize, after_stray: bool) -> Result<(), Failure> {
        if after_stray && self.item_has_key(&text) {
            // `[{"a": 1 "a": 2}]`: not a second value for `a` but the next item.
            self.split_object(offset)?;
        }
        self.key_at = offset;
        // `bare_key` now describes this key, until the next token.
        if let Some(Frame::Object { key, .. }) = self.stack.last_mut() {
            *key = Some(text);
        }
        self.expect = Expect::Colon;
        Ok(())
    }

    fn colon_token(&mut self, token: Token, offset: usize) -> Result<(), Failure> {
        let no_value = matches!(
            token,
            Token::Comma | Token::EndObject | Token::EndArray | Token::EndParen | Token::Ellipsis
        );
        if self.python_style && no_value && self.awaited_key_repeats() {
            // json_repair: a repeated key left without a value (`[{"a": 1, "a"}]`) starts the
            // next item too, where it is a set.
            self.split_object(offset)?;
        }
        match token {
            Token::Colon => {
                self.expect = Expect::Value;
                Ok(())
            }
            Token::Comma | Token::EndObject if self.lenient && !self.repair && self.first_member() => {
                // `{'a', 'b'}`, `{1, 2}`: a Python set, read as an array.
                let key = match self.stack.last_mut() {
                    Some(Frame::Object { key, .. }) => key.take(),
                    _ => None,
                };
                let Some(item) = key.and_then(|key| set_item(key, self.key_at, &mut self.repairs)) else {
                    return Err(Failure::syntax(
                        format!("expected `:` after an object key, found {}", token.describe()),
                        offset,
                    ));
                };
                self.repair(RepairKind::SetAsArray, offset);
                self.stack.pop();
                self.stack.push(Frame::Paren { items: vec![item], comma: true, set: true });
                if token == Token::EndObject {
                    self.close();
                    return Ok(());
                }
                self.expect = Expect::Item { comma: offset };
                Ok(())
            }
            _ if !self.repair => Err(Failure::syntax(
                format!("expected `:` after an object key, found {}", token.describe()),
                offset,
            )),
            Token::Str(text) => {
                self.pending = Pending::KeyOrValue { text, offset };
                Ok(())
            }
            Token::Number(_)
            | Token::Bool(_)
            | Token::Null
            | Token::BeginObject
            | Token::BeginArray
            | Token::BeginParen(_) => {
                self.repair(RepairKind::MissingColon, offset);
                self.expect = Expect::Value;
                self.value_token(token, offset)
            }
            Token::Comma | Token::EndObject if self.first_member() => {
                // `{"a", "b"}`: a set, read as an array.
                self.object_as_set(offset);
                if token == Token::EndObject {
                    self.close();
                    return Ok(());
                }
                self.expect = Expect::Item { comma: offset };
                Ok(())
            }
            Token::Comma | Token::EndObject | Token::EndArray | Token::EndParen | Token::Ellipsis => {
                // A key without a value: a stray word.
                self.repair(RepairKind::DroppedKey, offset);
                if let Some(Frame::Object { key, .. }) = self.stack.last_mut() {
                    *key = None;
                }
                self.expect = Expect::Comma;
                if token == Token::Ellipsis {
                    return Ok(());
                }
                self.comma_token(token, offset)
            }
        }
    }

    /// The key of the innermost object's last member, if its value is an array.
    fn last_array(&self) -> Option<&String> {
        match self.stack.last() {
            Some(Frame::Object { last_array, .. }) => last_array.as_ref(),
            _ => None,
        }
    }

    /// Whether the innermost container is an object with no member yet.
    fn first_member(&self) -> bool {
        matches!(self.stack.last(), Some(Frame::Object { map, .. }) if map.is_empty())
    }

    fn comma_token(&mut self, token: Token, offset: usize) -> Result<(), Failure> {
        // The common cases first.
        match (&token, self.stack.last()) {
            (Token::Comma, Some(Frame::Object { .. })) => {
                self.expect = Expect::Key { comma: offset };
                return Ok(());
            }
            (Token::Comma, Some(Frame::Array(_))) => {
                self.expect = Expect::Item { comma: offset };
                return Ok(());
            }
            (Token::EndObject, Some(Frame::Object { .. })) | (Token::EndArray, Some(Frame::Array(_))) => {
                self.close();
                return Ok(());
            }
            _ => {}
        }
        let (in_array, in_paren) = match self.stack.last_mut() {
            Some(Frame::Array(_)) => (true, false),
            Some(Frame::Paren { comma, .. }) => {
                if token == Token::Comma {
                    *comma = true;
                }
                (true, true)
            }
            _ => (false, false),
        };
        match (token, in_array) {
            (Token::Comma, true) => {
                self.expect = Expect::Item { comma: offset };
                Ok(())
            }
            (Token::Comma, false) => {
                self.expect = Expect::Key { comma: offset };
                Ok(())
            }
            (Token::EndArray, true) if !in_paren => {
                self.close();
                Ok(())
            }
            (token @ (Token::EndParen | Token::EndObject), true) if in_paren && self.closes_top(&token) => {
                self.close();
                Ok(())
            }
            (Token::EndObject, false) => {
                self.close();
                Ok(())
            }
            (token @ (Token::EndArray | Token::EndObject | Token::EndParen), _) if self.repair => {
                self.stray_closer(token, offset)
            }
            (Token::Ellipsis, _) if self.repair => Ok(()),
            (Token::Colon, false) if self.python_style => {
                // `{"a": "x": 1}` (json_repair): a value without a key is dropped. The
                // object awaits no key, so the value is not stored.
                self.repair(RepairKind::DroppedValue, offset);
                self.expect = Expect::Value;
                Ok(())
            }
            (Token::Colon, true) if self.repair && !in_paren => {
                // `["key": "value"]`: the item was the key of an object.
                let key = match self.stack.last_mut() {
                    Some(Frame::Array(items)) => match items.pop() {
                        Some(Value::String(key)) => Some(key),
                        Some(other) => {
                            items.push(other);
                            None
                        }
                        None => None,
                    },
                    _ => None,
                };
                let Some(key) = key else {
                    return Err(Failure::syntax(
                        "expected `,` or `]` after an array value, found `:`",
                        offset,
                    ));
                };
                self.repair(RepairKind::MissingBracket, offset);
                self.open(Frame::Object { map: Map::new(), key: Some(key), last_array: None }, Expect::Value)
            }
            (token, true) if self.repair && token != Token::Colon => {
                self.repair(RepairKind::MissingComma, offset);
                self.expect = Expect::Item { comma: offset };
                self.value_token(token, offset)
            }
            (token, false) if self.repair && token != Token::Colon => {
                self.repair(RepairKind::MissingComma, offset);
                self.expect = Expect::Key { comma: offset };
                self.key_after_stray = true;
                self.key_token(token, offset)
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

    /// After the top-level value ([`ParseMode::Repair`]: separators, stray brackets and
    /// further values).
    fn done_token(&mut self, token: Token, offset: usize) -> Result<(), Failure> {
        if !self.repair {
            return Err(Failure::syntax(
                format!("unexpected {} after the json value", token.describe()),
                offset,
            ));
        }
        match token {
            Token::Comma => {
                self.expect = Expect::TopComma { comma: offset };
                Ok(())
            }
            Token::EndArray | Token::EndObject | Token::EndParen => {
                self.repair(RepairKind::ExtraBracket, offset);
                Ok(())
            }
            Token::Colon | Token::Ellipsis => {
                Err(Failure::syntax(format!("unexpected {} after the json value", token.describe()), offset))
            }
            Token::Str(text)
                if matches!(self.expect, Expect::TopComma { .. })
                    && self.result.as_ref().is_some_and(Value::is_object) =>
            {
                self.pending = Pending::TopKey { text, offset };
                Ok(())
            }
            Token::Str(_) | Token::Number(_) | Token::Bool(_) | Token::Null
                if self.python_style
                    && self.result.as_ref().is_some_and(|value| value.is_object() || value.is_array()) =>
            {
                // json_repair reads further objects and arrays after the first, and
                // nothing else: `{"a": 1} "x"` is `{"a": 1}` and trailing text.
                self.repair(RepairKind::ProseAfter, offset);
                Ok(())
            }
            token => {
                self.repair(RepairKind::MultipleValues, offset);
                self.expect = Expect::Value;
                self.value_token(token, offset)
            }
        }
    }

    /// [`Sink::token`] in [`ParseMode::Repair`], with the bookkeeping that only its repairs
    /// need: a pending token, bare keys, the offset of the token.
    #[inline]
    fn repair_token(&mut self, token: Token, offset: usize) -> Result<(), Failure> {
        self.at = offset;
        if !matches!(self.pending, Pending::None) {
            self.resolve(Some(&token));
        }
        if !self.bare_key {
            return match self.expect {
                Expect::Value | Expect::FirstItem | Expect::Item { .. } => self.value_token(token, offset),
                Expect::FirstKey | Expect::Key { .. } => self.key_token(token, offset),
                Expect::Comma => self.comma_token(token, offset),
                Expect::Colon if matches!(token, Token::Colon) => {
                    self.expect = Expect::Value;
                    Ok(())
                }
                _ => self.dispatch(token, offset),
            };
        }
        self.bare_key = false;
        let after_value = self.expect == Expect::Comma;
        let result = match self.expect {
            Expect::Value | Expect::FirstItem | Expect::Item { .. } => self.value_token(token, offset),
            Expect::FirstKey | Expect::Key { .. } => self.key_token(token, offset),
            Expect::Comma => self.comma_token(token, offset),
            Expect::Colon if matches!(token, Token::Colon) => {
                self.expect = Expect::Value;
                Ok(())
            }
            _ => self.dispatch(token, offset),
        };
        // A bare key right after a value (a missing comma) stays known as one while its
        // colon is awaited: without one it is a stray word.
        self.bare_key = after_value && self.expect == Expect::Colon;
        result
    }

    /// Route a token by what is expected.
    fn dispatch(&mut self, token: Token, offset: usize) -> Result<(), Failure> {
        match self.expect {
            Expect::Value | Expect::FirstItem | Expect::Item { .. } => self.value_token(token, offset),
            Expect::FirstKey | Expect::Key { .. } => self.key_token(token, offset),
            Expect::Comma => self.comma_token(token, offset),
            Expect::Colon => self.colon_token(token, offset),
            Expect::Done => self.done_token(token, offset),
            Expect::TopComma { .. } => match token {
                Token::Comma => {
                    self.repair(RepairKind::ExtraComma, offset);
                    Ok(())
                }
                token => self.done_token(token, offset),
            },
        }
    }
}
