//! The `Value` output of the grammar: builds the [`Value`] on an explicit stack of open
//! arrays and objects (the one-shot parser's output, and the store of the incremental
//! parser's).

use std::cell::Cell;

use serde_json::{Map, Value};

use crate::parse::grammar::{Kind, Out};
use crate::parse::lexer::Str;
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
    /// Each float: the JSON Pointer of its place and its text.
    floats: Vec<(String, String)>,
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
            floats: Vec::new(),
            parens: Vec::new(),
        }
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
        if self.track_floats {
            self.float_next = Some(String::from_utf8_lossy(literal).into_owned());
        }
    }
}
