//! The output of repair mode: the grammar's `Value` output ([`ValueOut`]), plus for each
//! open container the key of its last member whose value is an array (which a stray `[`
//! continues), and the changes repair mode's guesses make to what was built.

use serde_json::{Map, Value};

use crate::parse::grammar::{Kind, Out};
use crate::parse::lexer::Str;
use crate::parse::output::value::{Node, ValueOut};

/// [`ValueOut`] with what repair mode's guesses read and change.
#[derive(Debug, Default)]
pub(super) struct RepairOut {
    pub(super) value: ValueOut,
    /// For each open container (outermost first): the key of its last member, when that
    /// member's value is an array.
    last_array: Vec<Option<String>>,
}

impl RepairOut {
    /// A value is complete in the innermost container: note whether it is an array (by
    /// the key it lands at).
    fn note(&mut self, value: &Value) {
        if let (Some(key), Some(last)) = (self.value.slot_key(), self.last_array.last_mut()) {
            *last = value.is_array().then(|| key.to_owned());
        }
    }

    /// The innermost object's members.
    pub(super) fn map(&self) -> Option<&Map<String, Value>> {
        match self.value.stack().last() {
            Some(Node::Object(map, _)) => Some(map),
            _ => None,
        }
    }

    /// Whether the innermost container has no item or member.
    pub(super) fn innermost_is_empty(&self) -> bool {
        match self.value.stack().last() {
            Some(Node::Object(map, _)) => map.is_empty(),
            Some(Node::Array(items)) => items.is_empty(),
            None => false,
        }
    }

    /// The key of the innermost object's last member if its value is an array.
    pub(super) fn last_array(&self) -> Option<&str> {
        self.last_array.last().and_then(Option::as_deref)
    }

    /// The key of the innermost object's last member if its value is an array, taken.
    pub(super) fn take_last_array(&mut self) -> Option<String> {
        self.last_array.last_mut().and_then(Option::take)
    }

    /// The innermost object's member `name`, taken out of it when it is an array (its
    /// items), else left as it is (and no items).
    pub(super) fn take_array_member(&mut self, name: &str) -> Vec<Value> {
        let Some(Node::Object(map, _)) = self.value.innermost_mut() else { return Vec::new() };
        match map.remove(name) {
            Some(Value::Array(items)) => items,
            other => {
                if let Some(other) = other {
                    map.insert(name.to_owned(), other);
                }
                Vec::new()
            }
        }
    }

    /// The innermost array's last item, taken out of it when it is a string.
    pub(super) fn take_last_string(&mut self) -> Option<String> {
        let Some(Node::Array(items)) = self.value.innermost_mut() else { return None };
        match items.pop() {
            Some(Value::String(text)) => Some(text),
            Some(other) => {
                items.push(other);
                None
            }
            None => None,
        }
    }

    /// An array opens holding `items` already.
    pub(super) fn open_array(&mut self, items: Vec<Value>) {
        self.value.push_node(Node::Array(items));
        self.last_array.push(None);
    }

    /// An object closed before opens again with its members.
    pub(super) fn open_object(&mut self, map: Map<String, Value>) {
        self.value.push_node(Node::Object(map, None));
        self.last_array.push(None);
    }

    /// The innermost object is an array holding `items` (a set).
    pub(super) fn object_as_array(&mut self, items: Vec<Value>) {
        if let Some(node) = self.value.innermost_mut() {
            *node = Node::Array(items);
        }
        if let Some(last) = self.last_array.last_mut() {
            *last = None;
        }
    }

    /// The innermost container is dropped, not closed into its parent.
    pub(super) fn drop_innermost(&mut self) {
        self.value.drop_innermost();
        self.last_array.pop();
    }
}

impl Out for RepairOut {
    type Key = String;

    #[inline]
    fn hold_key(&mut self, key: Str<'_>, at: usize) -> String {
        self.value.hold_key(key, at)
    }

    fn key_text<'k>(&'k self, key: &'k String) -> &'k str {
        key
    }

    #[inline]
    fn key(&mut self, key: String) {
        self.value.key(key);
    }

    #[inline]
    fn open(&mut self, kind: Kind) {
        self.value.open(kind);
        self.last_array.push(None);
    }

    #[inline]
    fn scalar(&mut self, value: Value) {
        self.note(&value);
        self.value.scalar(value);
    }

    #[inline]
    fn close(&mut self, unwrap: bool) {
        self.last_array.pop();
        if let Some(value) = self.value.pop(unwrap) {
            self.note(&value);
            self.value.insert(value);
        }
    }

    fn object_as_set(&mut self) {
        self.value.object_as_set();
    }

    fn has_key(&self, key: &str) -> bool {
        self.value.has_key(key)
    }

    fn reset(&mut self) {
        self.value.reset();
        self.last_array.clear();
    }

    fn float_literal(&mut self, literal: &[u8]) {
        self.value.float_literal(literal);
    }
}
