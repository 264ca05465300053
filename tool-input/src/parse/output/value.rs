//! The `Value` output of the grammar: builds the [`Value`] on an explicit stack of open
//! arrays and objects (the one-shot parser's output, and the store of the incremental
//! parser's).

use std::cell::Cell;

use serde_json::{Map, Value};

use crate::parse::grammar::{Kind, Out};
use crate::parse::lexer::Str;
use crate::parse::output::float_text::{self, FloatTexts};
use crate::parse::spare::{self, MOST_KEPT};

/// An open container's content.
#[derive(Debug)]
pub(crate) enum Node {
    /// An array, a `(` or a set.
    Array(Vec<Value>),
    /// An object, and the key whose value is being read.
    Object(Map<String, Value>, Option<String>),
}

/// Builds a [`Value`] from what the grammar reads, without recursion.
#[derive(Debug, Default)]
pub(crate) struct ValueOut {
    stack: Vec<Node>,
    result: Option<Value>,
    /// An object repeated a key (its last value was kept).
    repeated_keys: bool,
    /// Record where floats land, with their text (see `one_shot::float_literals`); off for an
    /// ordinary parse.
    track_floats: bool,
    /// The literal of the next number, when it is a float.
    float_next: Option<String>,
    /// A float read as a key (repair mode: `{1.50, 2}`), as the key spells it and as it was
    /// written: the literal of the value the key becomes if its object is a set.
    float_key: Option<(String, String)>,
    /// Each float: the JSON Pointer of its place and its text.
    floats: Vec<(String, String)>,
    /// Keep each float's text in [`ValueOut::float_texts`], the float in the value replaced
    /// by its index there (see `one_shot::parse_to_json`); off for an ordinary parse.
    keep_float_texts: bool,
    /// With `keep_float_texts`: the JSON text of each float, by index. A stand-in travels
    /// with the value it stands for wherever repair mode moves it, where a float's pointer
    /// would not.
    float_texts: FloatTexts,
    /// While floats are tracked, each open `(`: its depth, how many floats were recorded
    /// before it and the length of its own place's pointer. Its items are placed as an
    /// array's; if it closes as the one value it holds (`(1.5)` is `1.5`), the `/0` is
    /// taken out of the pointers recorded inside it.
    parens: Vec<(usize, usize, usize)>,
}

thread_local! {
    /// The stack of open containers of the last [`ValueOut`] this thread dropped, emptied
    /// (see [`spare`]).
    static SPARE_STACK: Cell<Vec<Node>> = const { Cell::new(Vec::new()) };
}

impl Drop for ValueOut {
    fn drop(&mut self) {
        spare::give_back(&SPARE_STACK, std::mem::take(&mut self.stack), MOST_KEPT);
    }
}

impl ValueOut {
    /// A builder on the stack the last one this thread dropped left.
    pub(crate) fn new() -> ValueOut {
        ValueOut {
            stack: spare::take(&SPARE_STACK),
            result: None,
            repeated_keys: false,
            track_floats: false,
            float_next: None,
            float_key: None,
            floats: Vec::new(),
            parens: Vec::new(),
            keep_float_texts: false,
            float_texts: FloatTexts::default(),
        }
    }

    /// From now on, put a stand-in in the value for each float, and keep its text (see
    /// `one_shot::parse_to_json`).
    pub(crate) fn keep_float_texts(&mut self) {
        self.keep_float_texts = true;
    }

    /// The float whose literal was just recorded is read as a key spelled `key` (repair
    /// mode): should the key be a set's first item, its literal is still the one written.
    pub(crate) fn float_read_as_key(&mut self, key: &str) {
        if !self.keep_float_texts {
            return;
        }
        if let Some(literal) = self.float_next.take() {
            self.float_key = Some((key.to_owned(), literal));
        }
    }

    /// Whether floats are read as stand-ins (see [`ValueOut::keep_float_texts`]).
    pub(crate) fn keeps_float_texts(&self) -> bool {
        self.keep_float_texts
    }

    /// A set's first item (repair mode: `{1.50, 2}`), read from its key `key` and placed
    /// without [`Out::scalar`]: its stand-in when it is a float.
    pub(crate) fn set_item(&mut self, item: Value, key: Option<&str>) -> Value {
        if !self.keep_float_texts {
            return item;
        }
        let literal = match self.float_key.take() {
            Some((spelled, written)) if Some(spelled.as_str()) == key => Some(written),
            _ => key.map(str::to_owned),
        };
        self.float_stand_in(item, literal)
    }

    /// `value`, read with its own stand-ins for `float_texts` (json_repair's fenced block
    /// in a string), with this output's stand-ins for them.
    pub(crate) fn adopt(&mut self, mut value: Value, float_texts: FloatTexts) -> Value {
        let first = self.float_texts.len();
        let mut stack = vec![&mut value];
        while let Some(value) = stack.pop() {
            match value {
                Value::Array(items) => stack.extend(items.iter_mut()),
                Value::Object(map) => stack.extend(map.values_mut()),
                Value::Number(number) if number.is_f64() => {
                    let index = number.as_f64().map_or(0.0, |index| index + first as f64);
                    if let Some(stand_in) = serde_json::Number::from_f64(index) {
                        *number = stand_in;
                    }
                }
                _ => {}
            }
        }
        self.float_texts.append(float_texts);
        value
    }

    /// The texts of the floats the stand-ins stand for, taken.
    pub(crate) fn take_float_texts(&mut self) -> FloatTexts {
        std::mem::take(&mut self.float_texts)
    }

    /// [`Out::scalar`] while float texts are kept: a float's stand-in in its place.
    #[cold]
    fn scalar_keeping_float_text(&mut self, value: Value) {
        let mut literal = self.float_next.take();
        if let Some((key, written)) = self.float_key.take() {
            // A set's first item, read as a key and spelled as one: its literal as written.
            if literal.as_deref() == Some(key.as_str()) {
                literal = Some(written);
            }
        }
        let value = self.float_stand_in(value, literal);
        self.insert(value);
    }

    /// `value` itself, unless it is a float: then its stand-in, the float `n` where
    /// `float_texts[n]` is its JSON text (the literal it was read from when that is JSON
    /// and denotes it, else the float as `serde_json` writes it).
    fn float_stand_in(&mut self, value: Value, literal: Option<String>) -> Value {
        let Value::Number(number) = &value else { return value };
        let Some(float) = number.as_f64().filter(|_| number.is_f64()) else { return value };
        let text = literal
            .filter(|literal| float_text::denotes(literal, float))
            .and_then(|literal| float_text::as_json(&literal))
            .unwrap_or_else(|| number.to_string());
        // Exact: an index reaches 2^53 only past petabytes of text.
        let stand_in = serde_json::Number::from_f64(self.float_texts.len() as f64);
        self.float_texts.push(&text);
        stand_in.map_or(value, Value::Number)
    }

    /// From now on, record the float literals (see `one_shot::float_literals`).
    pub(crate) fn track_floats(&mut self) {
        self.track_floats = true;
    }

    /// The complete top-level value, taken.
    pub(crate) fn take(&mut self) -> Option<Value> {
        self.result.take()
    }

    /// Whether an object repeated a key.
    pub(crate) fn repeated_keys(&self) -> bool {
        self.repeated_keys
    }

    /// The float literals recorded, taken.
    pub(crate) fn take_floats(&mut self) -> Vec<(String, String)> {
        std::mem::take(&mut self.floats)
    }

    /// The open containers, outermost first.
    pub(crate) fn stack(&self) -> &[Node] {
        &self.stack
    }

    /// The complete top-level value, if it is complete.
    pub(crate) fn result(&self) -> Option<&Value> {
        self.result.as_ref()
    }

    /// A complete value: into the innermost container, or as the top-level value.
    #[inline]
    pub(crate) fn insert(&mut self, value: Value) {
        match self.stack.last_mut() {
            None => self.result = Some(value),
            Some(Node::Array(items)) => items.push(value),
            Some(Node::Object(map, key)) => {
                if let Some(key) = key.take() {
                    self.repeated_keys |= map.insert(key, value).is_some();
                }
            }
        }
    }

    /// The innermost container, closed, as its value.
    pub(crate) fn pop(&mut self, unwrap: bool) -> Option<Value> {
        Some(match self.stack.pop()? {
            Node::Array(mut items) if unwrap => items.pop().unwrap_or(Value::Null),
            Node::Array(items) => Value::Array(items),
            Node::Object(map, _) => Value::Object(map),
        })
    }

    /// The key of the innermost object whose value is being completed.
    pub(crate) fn slot_key(&self) -> Option<&str> {
        match self.stack.last() {
            Some(Node::Object(_, key)) => key.as_deref(),
            _ => None,
        }
    }

    /// The innermost open container, to change (repair mode taking back what it built).
    pub(crate) fn innermost_mut(&mut self) -> Option<&mut Node> {
        self.stack.last_mut()
    }

    /// A container opens with content already built (repair mode continuing what it built).
    pub(crate) fn push_node(&mut self, node: Node) {
        self.stack.push(node);
    }

    /// The innermost container is dropped, not closed into its parent.
    pub(crate) fn drop_innermost(&mut self) {
        self.stack.pop();
    }

    /// The JSON Pointer of the place the next value goes: the keys and indexes of the open
    /// containers, a `(` or a set read as the array it is unless it holds one value
    /// (see `parens`).
    fn slot_pointer(&self) -> String {
        let mut pointer = String::new();
        for node in &self.stack {
            match node {
                Node::Array(items) => {
                    pointer.push('/');
                    pointer.push_str(&items.len().to_string());
                }
                Node::Object(_, Some(key)) => crate::pointer::push_token(&mut pointer, key),
                Node::Object(_, None) => {}
            }
        }
        pointer
    }

    /// A `(` closes (floats tracked): if it is the one value it holds, the pointers of
    /// the floats inside it lose the `/0` its item was placed at.
    #[cold]
    fn paren_closes(&mut self, unwrap: bool) {
        let depth = self.stack.len();
        while let Some(&(at_depth, first, length)) = self.parens.last() {
            if at_depth < depth {
                break;
            }
            self.parens.pop();
            if at_depth == depth && unwrap {
                for (pointer, _) in self.floats.iter_mut().skip(first) {
                    if pointer.get(length..length + 2) == Some("/0") {
                        pointer.replace_range(length..length + 2, "");
                    }
                }
            }
        }
    }
}

impl Out for ValueOut {
    /// A `Value`'s map keeps its keys: the one copy is made when the key is read.
    type Key = String;

    #[inline]
    fn hold_key(&mut self, key: Str<'_>, _at: usize) -> String {
        key.into_string()
    }

    fn key_text<'k>(&'k self, key: &'k String) -> &'k str {
        key
    }

    #[inline]
    fn key(&mut self, key: String) {
        if let Some(Node::Object(_, slot)) = self.stack.last_mut() {
            *slot = Some(key);
        }
    }

    #[inline]
    fn open(&mut self, kind: Kind) {
        if self.track_floats && kind == Kind::Paren {
            let length = self.slot_pointer().len();
            self.parens.push((self.stack.len() + 1, self.floats.len(), length));
        }
        self.stack.push(match kind {
            Kind::Object => Node::Object(Map::new(), None),
            Kind::Array | Kind::Paren | Kind::Set => Node::Array(Vec::new()),
        });
    }

    #[inline]
    fn scalar(&mut self, value: Value) {
        if self.keep_float_texts {
            self.scalar_keeping_float_text(value);
            return;
        }
        if let Some(literal) = self.float_next.take() {
            let pointer = self.slot_pointer();
            self.floats.push((pointer, literal));
        }
        self.insert(value);
    }

    #[inline]
    fn close(&mut self, unwrap: bool) {
        if !self.parens.is_empty() {
            self.paren_closes(unwrap);
        }
        if let Some(value) = self.pop(unwrap) {
            self.insert(value);
        }
    }

    fn object_as_set(&mut self) {
        if let Some(node) = self.stack.last_mut() {
            *node = Node::Array(Vec::new());
        }
    }

    fn has_key(&self, key: &str) -> bool {
        matches!(self.stack.last(), Some(Node::Object(map, _)) if map.contains_key(key))
    }

    fn reset(&mut self) {
        self.stack.clear();
        self.parens.clear();
        self.result = None;
    }

    fn float_literal(&mut self, literal: &[u8]) {
        if self.track_floats || self.keep_float_texts {
            self.float_next = Some(String::from_utf8_lossy(literal).into_owned());
        }
    }
}
