//! [`ParseMode::Repair`]: the grammar of every mode ([`super::grammar`]) plus the guesses at
//! structure that repair mode makes. [`RepairLayer`] passes each token the grammar has a rule
//! for to the [`Grammar`] and its `Value` output, and steps in only where a guess applies:
//! a token the grammar would reject (a missing comma or colon, a value without a key, a
//! stray bracket, a word where a key belongs), a closing bracket that does not close the
//! innermost container, a token whose meaning depends on the next one ([`Pending`]), and
//! what comes after the top-level value. A guess may rebuild what was built (a second
//! top-level value, an object closed too early and continued, a table row that lost its
//! `[`, a key that starts the next item), in the grammar's frames and in the output
//! ([`out::RepairOut`]) alike.

use serde_json::Value;

use super::grammar::{Expect, Grammar, Kind};
use super::lexer::{Failure, Token};
use super::output::float_text::FloatTexts;
use super::{ParseMode, ParseOptions, Repair, RepairKind, RepairStyle};
use out::RepairOut;

mod fenced;
mod out;
pub(in crate::parse) mod salvage;
mod sink;

/// A token whose meaning depends on the next one.
#[derive(Debug)]
enum Pending {
    None,
    /// A closing bracket (at `offset`) that does not close the innermost container.
    Closer {
        token: Token<'static>,
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

/// The repair mode's reading: the grammar and its output, and the guesses.
#[derive(Debug)]
pub(crate) struct RepairLayer {
    grammar: Grammar,
    out: RepairOut,
    /// [`RepairStyle::JsonRepair`].
    python_style: bool,
    /// How many repairs had been recorded when the last token was read; those after it
    /// belong to the token being read.
    repairs_before_token: usize,
    /// The last complete top-level value.
    result: Option<Value>,
    /// The earlier top-level values, when there are several.
    results: Vec<Value>,
    /// After the top-level value (the grammar expects nothing more): a `,` was read, at
    /// this offset.
    top_comma: Option<usize>,
    pending: Pending,
    /// A line break since the last top-level value.
    line_break: bool,
    /// Offset of the token being read.
    at: usize,
    /// The next key (or, after a key, the key awaiting its colon) was written without
    /// quotes.
    bare_key: bool,
    /// The key about to be read does not follow `{` or `,` directly (a comma is missing
    /// before it, or stray quotes were dropped): if its object is an array item that
    /// already has it, it starts the next item.
    key_after_stray: bool,
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

impl RepairLayer {
    /// The reading of `options` (in [`ParseMode::Repair`]).
    pub(crate) fn new(options: &ParseOptions) -> RepairLayer {
        RepairLayer {
            grammar: Grammar::new(options, Vec::new()),
            out: RepairOut::default(),
            python_style: options.mode == ParseMode::Repair && options.style == RepairStyle::JsonRepair,
            repairs_before_token: 0,
            result: None,
            results: Vec::new(),
            top_comma: None,
            pending: Pending::None,
            line_break: false,
            at: 0,
            bare_key: false,
            key_after_stray: false,
        }
    }

    /// Start with `repairs` already recorded (those made before a later candidate).
    pub(crate) fn with_repairs(mut self, repairs: Vec<Repair>) -> RepairLayer {
        *self.grammar.repairs_mut() = repairs;
        self
    }

    /// Record the float literals (see `one_shot::float_literals`).
    pub(crate) fn set_tracking_floats(&mut self) {
        self.out.value.track_floats();
    }

    /// Keep each float's text, a stand-in for it in the value (see
    /// `one_shot::parse_to_json`).
    pub(crate) fn keep_float_texts(&mut self) {
        self.out.value.keep_float_texts();
    }

    /// The texts of the floats the value's stand-ins stand for, taken.
    pub(crate) fn take_float_texts(&mut self) -> FloatTexts {
        self.out.value.take_float_texts()
    }

    /// The float literals recorded, taken.
    pub(crate) fn take_floats(&mut self) -> Vec<(String, String)> {
        self.out.value.take_floats()
    }

    /// Whether an object repeated a key (its last value was kept).
    pub(crate) fn repeated_keys(&self) -> bool {
        self.out.value.repeated_keys()
    }

    /// The repairs recorded so far, in the order they were found.
    pub(crate) fn take_repairs(&mut self) -> Vec<Repair> {
        self.grammar.take_repairs()
    }

    /// The repairs recorded so far (the streaming parser carries those before the value to
    /// the next candidate after prose, as `one_shot::parse_outcome` does).
    pub(crate) fn repairs(&self) -> &[Repair] {
        self.grammar.repairs()
    }

    /// End of input: the value, or what was left open. With `complete`, a key still
    /// waiting for its value gets `null` and every open container is closed.
    pub(crate) fn finish(&mut self, complete: bool, end: usize) -> Result<Value, Failure> {
        if !matches!(self.pending, Pending::None) {
            self.resolve(None);
        }
        if complete && self.grammar.depth() > 0 {
            self.record(RepairKind::CompletedTruncated, end);
            if self.python_style && self.grammar.expect() == Expect::Colon {
                // json_repair: a repeated key cut off before its colon starts a new object,
                // and an object cut off after its first key is a set of it.
                if self.awaited_key_repeats() {
                    self.split_object(end)?;
                }
                self.cut_key_as_set(end);
            }
            if self.bare_key && self.grammar.expect() == Expect::Colon {
                // A bare word after a value (`{"a": "b" tail`) is a stray word, not a key
                // cut off before its value.
                self.grammar.take_awaited_key();
            }
        }
        if self.grammar.depth() > 0 || self.result.is_none() {
            // What is left open: an error, or completed and closed.
            self.grammar.finish(&mut self.out, complete, end)?;
            self.settle();
        }
        if let Some(comma) = self.top_comma {
            self.record(RepairKind::TrailingComma, comma);
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

    /// Record a repair, as the grammar records them (see [`Grammar::record`]).
    fn record(&mut self, kind: RepairKind, offset: usize) {
        let before = self.grammar.repairs().len();
        if self.grammar.record(kind, offset) && before == self.repairs_before_token {
            // The token's own repair joined the record before it: that record is the
            // token's too.
            self.repairs_before_token = before.saturating_sub(1);
        }
    }

    /// A token for the grammar's own rules.
    fn grammar_reads(&mut self, token: Token, offset: usize) -> Result<(), Failure> {
        let result = self.grammar.token(&mut self.out, token, offset);
        self.settle();
        result
    }

    /// A complete value (or one built whole) for the grammar.
    fn complete(&mut self, value: Value) {
        self.grammar.scalar(&mut self.out, value);
        self.settle();
    }

    /// The innermost container closes.
    fn close(&mut self) {
        self.grammar.close(&mut self.out);
        self.settle();
    }

    /// Expect `expect` (inside the value, or a new top-level value).
    fn expect(&mut self, expect: Expect) {
        self.top_comma = None;
        self.grammar.set_expect(expect);
    }

    /// When the grammar completed a top-level value: it joins the earlier ones.
    #[inline]
    fn settle(&mut self) {
        let Some(value) = self.out.value.take() else { return };
        self.top_comma = None;
        let same_line = !std::mem::take(&mut self.line_break);
        let Some(earlier) = self.result.take() else {
            self.result = Some(value);
            return;
        };
        // `[]{"a": 1}`, `{"a": 1}, {}`: an empty object or array next to a value on the
        // same line is a placeholder, not a value.
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

    /// Close the innermost container because a later bracket says it ended.
    fn close_missing(&mut self, offset: usize) {
        self.record(RepairKind::MissingBracket, offset);
        let mut empty = false;
        if self.grammar.kind(0) == Some(Kind::Object) {
            if self.grammar.take_awaited_key().is_some() {
                self.record(RepairKind::DroppedKey, offset);
            }
            empty = self.out.innermost_is_empty();
        }
        // json_repair drops an object that never got a member and was never closed, when
        // an array's `]` ends it (`[{]`); jsonrepair keeps `{}`.
        if empty && self.python_style && self.grammar.kind(1) == Some(Kind::Array) {
            self.grammar.drop_innermost();
            self.out.drop_innermost();
            self.record(RepairKind::DroppedEmpty, offset);
            self.expect(Expect::Comma);
            return;
        }
        self.close();
    }

    /// Whether the innermost container is an object that is an array item and already has
    /// the member `name`.
    fn item_has_key(&self, name: &str) -> bool {
        self.grammar.kind(1) == Some(Kind::Array) && self.out.map().is_some_and(|map| map.contains_key(name))
    }

    /// Whether the key awaiting its colon is one its object, an array item, already has.
    fn awaited_key_repeats(&self) -> bool {
        self.grammar.awaited_key().is_some_and(|name| self.item_has_key(name))
    }

    /// Whether the innermost container is an object with no member yet.
    fn first_member(&self) -> bool {
        self.out.map().is_some_and(|map| map.is_empty())
    }

    /// A repeated key where a new member cannot be meant (`[{"a": 1 "a": 2}]`): the object
    /// ended and the next array item began (a missing `}, {`). The key awaiting its colon,
    /// if any, moves to the new object.
    fn split_object(&mut self, offset: usize) -> Result<(), Failure> {
        self.record(RepairKind::MissingBracket, offset);
        let awaited = self.grammar.take_awaited_key();
        self.close();
        let expect = if awaited.is_some() { Expect::Colon } else { Expect::FirstKey };
        self.grammar.open(&mut self.out, Kind::Object, expect)?;
        self.grammar.set_awaited_key(awaited);
        Ok(())
    }

    /// [`RepairStyle::JsonRepair`], at the end of the input: an object cut off after its
    /// first key (`{"a`) holds only that key, a set, read as an array as `{"a", "b"}` is.
    fn cut_key_as_set(&mut self, offset: usize) {
        if self.first_member() && self.grammar.awaited_key().is_some_and(|name| !name.is_empty()) {
            self.object_as_set(offset);
            self.expect(Expect::Comma);
        }
    }

    /// The innermost object, which holds only the key awaiting its colon, is a set
    /// (`{"a", "b"}`): an array, holding that key.
    fn object_as_set(&mut self, offset: usize) {
        self.record(RepairKind::SetAsArray, offset);
        let key = self.grammar.awaited_key().map(str::to_owned);
        let item = self.grammar.take_awaited_key_as_item();
        let items: Vec<Value> =
            item.map(|item| self.out.value.set_item(item, key.as_deref())).into_iter().collect();
        self.grammar.reshape(Kind::Array, items.len());
        self.out.object_as_array(items);
    }

    /// A closing bracket that does not close the innermost container: decided when the
    /// next token arrives.
    fn stray_closer(&mut self, token: Token, offset: usize) -> Result<(), Failure> {
        self.pending = Pending::Closer { token: token.into_owned(), offset };
        Ok(())
    }

    /// Settle the pending token now that `next` (`None`: the end) is known.
    fn resolve(&mut self, next: Option<&Token>) {
        match std::mem::replace(&mut self.pending, Pending::None) {
            Pending::None => {}
            Pending::Closer { token, offset: at } => {
                let matching = self.grammar.kinds().rposition(|kind| kind.closed_by(&token));
                let comma = next == Some(&Token::Comma);
                match matching {
                    // Nothing of its kind is open: an extra bracket before a comma
                    // (`[{"a": 1}}, {...}]`), else the wrong bracket for the innermost one.
                    None if comma => self.record(RepairKind::ExtraBracket, at),
                    None => self.close_missing(at),
                    Some(m) => {
                        // Close down to the container it closes, but not the outermost one
                        // when a comma shows that more members follow.
                        let keep = comma && m == 0 && self.grammar.depth() > 1;
                        while self.grammar.depth() > m + 1 {
                            self.close_missing(at);
                        }
                        if !keep {
                            self.close();
                        }
                    }
                }
            }
            Pending::KeyOrValue { text, offset: at } => {
                let empty_key = self.grammar.kind(0) == Some(Kind::Object)
                    && self.grammar.awaited_key().is_some_and(str::is_empty);
                if text.is_empty() && empty_key && matches!(next, Some(Token::Str(_))) {
                    // `"""" "b": 2`: a run of stray quotes before the real key.
                    self.record(RepairKind::DroppedKey, at);
                    self.grammar.take_awaited_key();
                    self.expect(Expect::FirstKey);
                    self.key_after_stray = true;
                } else if next == Some(&Token::Colon) {
                    // A stray word before the real key (`{"a": 1, COMMENT "b": 2}`).
                    self.record(RepairKind::DroppedKey, at);
                    self.grammar.set_awaited_key(Some(text));
                    self.expect(Expect::Colon);
                } else {
                    self.record(RepairKind::MissingColon, at);
                    self.complete(Value::String(text));
                }
            }
            Pending::TopKey { text, offset: at } => {
                let member = matches!(next, Some(Token::Colon | Token::Str(_)));
                match self.result.take() {
                    Some(Value::Object(map)) if member => {
                        // `{"a": 1}, "b": 2}`: the object went on.
                        self.record(RepairKind::Reopened, at);
                        let len = map.len();
                        self.out.open_object(map);
                        // At the top level, within any depth limit that let the object be.
                        let _ = self.grammar.reopen(Kind::Object, len, Expect::Colon);
                        self.grammar.set_awaited_key(Some(text));
                        self.top_comma = None;
                    }
                    earlier if self.python_style => {
                        // Not a member: trailing text, as after no comma (`done_token`).
                        self.result = earlier;
                        self.record(RepairKind::ProseAfter, at);
                        self.expect(Expect::Done);
                    }
                    earlier => {
                        self.result = earlier;
                        self.record(RepairKind::MultipleValues, at);
                        self.complete(Value::String(text));
                    }
                }
            }
        }
    }

    /// Where a value is expected.
    fn value_token(&mut self, token: Token, offset: usize) -> Result<(), Failure> {
        let expect = self.grammar.expect();
        let in_items = matches!(expect, Expect::FirstItem | Expect::Item { .. });
        let closer = matches!(token, Token::EndArray | Token::EndParen | Token::EndObject);
        match token {
            Token::Str(text) if self.python_style && self.grammar.depth() > 0 => {
                match self.fenced_json(text.as_str(), offset) {
                    Some(value) => {
                        self.complete(value);
                        Ok(())
                    }
                    None => self.grammar_reads(Token::Str(text), offset),
                }
            }
            Token::Ellipsis => Ok(()),
            Token::Comma if in_items => {
                self.record(RepairKind::ExtraComma, offset);
                self.expect(Expect::Item { comma: offset });
                Ok(())
            }
            Token::EndArray | Token::EndParen | Token::EndObject | Token::Comma
                if expect == Expect::Value && self.grammar.depth() > 0 =>
            {
                // `{"a": }`, `{"a": , "b": 1}`.
                self.record(RepairKind::MissingValue, offset);
                let missing = if self.python_style { Value::String(String::new()) } else { Value::Null };
                self.complete(missing);
                self.dispatch(token, offset)
            }
            token if closer && in_items && !self.grammar.closes_top(&token) => {
                if let Expect::Item { comma } = expect {
                    self.record(RepairKind::TrailingComma, comma);
                }
                self.expect(Expect::Comma);
                self.stray_closer(token, offset)
            }
            Token::EndArray | Token::EndParen | Token::EndObject | Token::Comma
                if self.grammar.depth() == 0 =>
            {
                let kind =
                    if token == Token::Comma { RepairKind::ExtraComma } else { RepairKind::ExtraBracket };
                self.record(kind, offset);
                Ok(())
            }
            token => self.grammar_reads(token, offset),
        }
    }

    /// Where a key is expected.
    fn key_token(&mut self, token: Token, offset: usize) -> Result<(), Failure> {
        let after_stray = std::mem::take(&mut self.key_after_stray);
        let expect = self.grammar.expect();
        match token {
            Token::Str(text) => self.key(text.into_string(), offset, after_stray),
            Token::EndObject => self.grammar_reads(token, offset),
            Token::Comma | Token::Colon => {
                self.record(RepairKind::ExtraComma, offset);
                Ok(())
            }
            Token::Ellipsis => Ok(()),
            Token::Number(number) => {
                let key = number.to_string();
                self.out.value.float_read_as_key(&key);
                self.key(key, offset, after_stray)
            }
            Token::Bool(value) => self.key(value.to_string(), offset, after_stray),
            Token::Null => self.key("null".to_owned(), offset, after_stray),
            // `{('a', 1), 'b'}`: a set whose first item is a tuple, as the grammar reads it.
            Token::BeginParen if expect == Expect::FirstKey => self.grammar_reads(token, offset),
            Token::BeginArray if matches!(expect, Expect::Key { .. }) && self.out.last_array().is_some() => {
                self.reopen_array(offset)
            }
            Token::BeginObject | Token::BeginArray | Token::BeginParen => {
                // `[{"a": 1 {"b": 2}]`: the object ended before this.
                if let Expect::Key { comma } = expect {
                    self.record(RepairKind::TrailingComma, comma);
                }
                self.close_missing(offset);
                self.dispatch(token, offset)
            }
            Token::EndArray | Token::EndParen => {
                if let Expect::Key { comma } = expect {
                    self.record(RepairKind::TrailingComma, comma);
                }
                self.expect(Expect::Comma);
                self.stray_closer(token, offset)
            }
        }
    }

    /// `{"a": ["x"], ["y"]}`: the array of the last member went on; `[` at `offset`.
    fn reopen_array(&mut self, offset: usize) -> Result<(), Failure> {
        let name = self.out.take_last_array().unwrap_or_default();
        let mut items = self.out.take_array_member(&name);
        self.grammar.set_awaited_key(Some(name));
        self.record(RepairKind::Reopened, offset);
        let Some(from) = lost_row(&items) else {
            return self.reopen_items(items, offset);
        };
        // `{"rows": [["a", "b"], "c", "d"], ["e", "f"]]}`: that `]` closed a row whose `[`
        // was lost, not the table, which goes on; this `[` opens its next row.
        self.record(RepairKind::MissingBracket, offset);
        let row = items.split_off(from);
        items.push(Value::Array(row));
        self.reopen_items(items, offset)?;
        self.value_token(Token::BeginArray, offset)
    }

    /// The array holding `items` opens again in the innermost object, at its awaited key,
    /// after a `,` (at `comma`).
    fn reopen_items(&mut self, items: Vec<Value>, comma: usize) -> Result<(), Failure> {
        let len = items.len();
        self.grammar.begin_value(&mut self.out);
        self.out.open_array(items);
        self.grammar.reopen(Kind::Array, len, Expect::Item { comma })
    }

    /// The key `text`; `after_stray`: it does not follow `{` or `,` directly.
    fn key(&mut self, text: String, offset: usize, after_stray: bool) -> Result<(), Failure> {
        if after_stray && self.item_has_key(&text) {
            // `[{"a": 1 "a": 2}]`: not a second value for `a` but the next item.
            self.split_object(offset)?;
        }
        // `bare_key` now describes this key, until the next token.
        self.grammar.key(text, offset);
        Ok(())
    }

    /// Where the colon after a key is expected, and `token` is not one.
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
            Token::Colon => self.grammar_reads(token, offset),
            Token::Str(text) => {
                self.pending = Pending::KeyOrValue { text: text.into_string(), offset };
                Ok(())
            }
            Token::Number(_)
            | Token::Bool(_)
            | Token::Null
            | Token::BeginObject
            | Token::BeginArray
            | Token::BeginParen => {
                self.record(RepairKind::MissingColon, offset);
                self.expect(Expect::Value);
                self.value_token(token, offset)
            }
            Token::Comma | Token::EndObject if self.first_member() => {
                // `{"a", "b"}`: a set, read as an array.
                self.object_as_set(offset);
                if token == Token::EndObject {
                    self.close();
                    return Ok(());
                }
                self.expect(Expect::Item { comma: offset });
                Ok(())
            }
            Token::Comma | Token::EndObject | Token::EndArray | Token::EndParen | Token::Ellipsis => {
                // A key without a value: a stray word.
                self.record(RepairKind::DroppedKey, offset);
                self.grammar.take_awaited_key();
                self.expect(Expect::Comma);
                if token == Token::Ellipsis {
                    return Ok(());
                }
                self.comma_token(token, offset)
            }
        }
    }

    /// After a value inside a container.
    fn comma_token(&mut self, token: Token, offset: usize) -> Result<(), Failure> {
        if token == Token::Comma || self.grammar.closes_top(&token) {
            return self.grammar_reads(token, offset);
        }
        let innermost = self.grammar.kind(0);
        let in_array = matches!(innermost, Some(Kind::Array | Kind::Paren | Kind::Set));
        match token {
            Token::EndArray | Token::EndObject | Token::EndParen => self.stray_closer(token, offset),
            Token::Ellipsis => Ok(()),
            Token::Colon if !in_array && self.python_style => {
                // `{"a": "x": 1}` (json_repair): a value without a key is dropped. The
                // object awaits no key, so the value is not stored.
                self.record(RepairKind::DroppedValue, offset);
                self.expect(Expect::Value);
                Ok(())
            }
            Token::Colon if innermost == Some(Kind::Array) => {
                // `["key": "value"]`: the item was the key of an object.
                let Some(key) = self.out.take_last_string() else {
                    return self.grammar_reads(token, offset);
                };
                self.grammar.uncount_item();
                self.record(RepairKind::MissingBracket, offset);
                self.grammar.open(&mut self.out, Kind::Object, Expect::Value)?;
                self.grammar.set_awaited_key(Some(key));
                Ok(())
            }
            // The grammar's error.
            Token::Colon => self.grammar_reads(token, offset),
            token if in_array => {
                self.record(RepairKind::MissingComma, offset);
                self.expect(Expect::Item { comma: offset });
                self.value_token(token, offset)
            }
            token => {
                self.record(RepairKind::MissingComma, offset);
                self.expect(Expect::Key { comma: offset });
                self.key_after_stray = true;
                self.key_token(token, offset)
            }
        }
    }

    /// After the top-level value: separators, stray brackets and further values.
    fn done_token(&mut self, token: Token, offset: usize) -> Result<(), Failure> {
        match token {
            Token::Comma => {
                self.top_comma = Some(offset);
                Ok(())
            }
            Token::EndArray | Token::EndObject | Token::EndParen => {
                self.record(RepairKind::ExtraBracket, offset);
                Ok(())
            }
            // The grammar's error.
            Token::Colon | Token::Ellipsis => self.grammar_reads(token, offset),
            Token::Str(text)
                if self.top_comma.is_some() && self.result.as_ref().is_some_and(Value::is_object) =>
            {
                self.pending = Pending::TopKey { text: text.into_string(), offset };
                Ok(())
            }
            Token::Str(_) | Token::Number(_) | Token::Bool(_) | Token::Null
                if self.python_style
                    && self.result.as_ref().is_some_and(|value| value.is_object() || value.is_array()) =>
            {
                // json_repair reads further objects and arrays after the first, and
                // nothing else: `{"a": 1} "x"` is `{"a": 1}` and trailing text.
                self.record(RepairKind::ProseAfter, offset);
                Ok(())
            }
            token => {
                self.record(RepairKind::MultipleValues, offset);
                self.expect(Expect::Value);
                self.value_token(token, offset)
            }
        }
    }

    /// [`Sink::token`](super::lexer::Sink::token): a pending token settled, bare keys
    /// followed, the token routed by what is expected.
    fn repair_token(&mut self, token: Token, offset: usize) -> Result<(), Failure> {
        self.at = offset;
        if !matches!(self.pending, Pending::None) {
            self.resolve(Some(&token));
        }
        if !self.bare_key {
            return self.dispatch(token, offset);
        }
        self.bare_key = false;
        let after_value = self.grammar.expect() == Expect::Comma;
        let result = self.dispatch(token, offset);
        // A bare key right after a value (a missing comma) stays known as one while its
        // colon is awaited: without one it is a stray word.
        self.bare_key = after_value && self.grammar.expect() == Expect::Colon;
        result
    }

    /// Route a token by what is expected.
    fn dispatch(&mut self, token: Token, offset: usize) -> Result<(), Failure> {
        if self.top_comma.is_some() {
            // After `value,` at the top level.
            if token == Token::Comma {
                self.record(RepairKind::ExtraComma, offset);
                return Ok(());
            }
            return self.done_token(token, offset);
        }
        match self.grammar.expect() {
            Expect::Value | Expect::FirstItem | Expect::Item { .. } => self.value_token(token, offset),
            Expect::FirstKey | Expect::Key { .. } => self.key_token(token, offset),
            Expect::Comma => self.comma_token(token, offset),
            Expect::Colon => self.colon_token(token, offset),
            Expect::Done => self.done_token(token, offset),
        }
    }
}
