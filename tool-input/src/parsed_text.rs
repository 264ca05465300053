//! Argument text that was parsed already: a call record's lenient parse, handed to the
//! validator so that checking the call does not parse its text a second time.
//!
//! A parsed value alone does not say everything the check needs; the text does, and it is
//! kept: which keys it repeats (read from the text only when the parse saw one), the number
//! text of an integral float, the order of errors (read only for a rejection with several),
//! and whether the text was strict JSON (the one-pass attempt reads it). The value and its
//! repairs stand in for the one thing that must not run twice: the lenient parse.

use std::hash::{BuildHasher, Hash, Hasher};

use serde_json::{Map, Value};

use crate::parse::Repair;

/// A text, its lenient parse (an object, with the repairs it needed), and under which depth
/// limit it was made. Made by the call record ([`ToolCall`](crate::ToolCall)), read by the
/// validator's `check_parsed_text` and `check_typed_parsed`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ParsedText<'a> {
    /// The arguments as sent.
    pub text: &'a str,
    /// What `parse_noting_repeats` gave for `text` in lenient mode.
    pub value: &'a Map<String, Value>,
    /// The repairs of that parse.
    pub repairs: &'a [Repair],
    /// Whether an object of `text` gives a key twice (the parse kept its last value).
    pub repeated: bool,
    /// The depth limit of the parse. With the size limit (which only refuses a text that is
    /// too long), the one limit that can change what a lenient parse gives.
    pub max_depth: usize,
    /// [`ParsedText::fingerprint`] when the parse was made: the parts of a call record are
    /// public fields, so the parse is used only while text, value and repairs are still the
    /// ones it was made of.
    pub made_of: u64,
}

impl ParsedText<'_> {
    /// A hash of the text, the value and the repairs.
    pub(crate) fn fingerprint(&self) -> u64 {
        let mut hasher = foldhash::fast::FixedState::default().build_hasher();
        self.text.hash(&mut hasher);
        self.value.hash(&mut hasher);
        self.repairs.hash(&mut hasher);
        hasher.finish()
    }

    /// Are text, value and repairs still what the parse made?
    pub(crate) fn is_current(&self) -> bool {
        self.fingerprint() == self.made_of
    }
}
