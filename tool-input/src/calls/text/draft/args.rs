//! One call's arguments written in a syntax of their own (Python keywords, Gemma's
//! `{key:<escape>…<escape>}`, Kimi K3's typed tags), shown as the JSON object they read as:
//! each reader says what it read in JSON terms (a key, a value complete, a string's next
//! piece, the raw text of a Python literal), and the incremental JSON parser that the JSON
//! formats use builds the partial arguments and reports their events. One parser, so the
//! events and the "never a prefix as a value" rule are those of the JSON formats.

use serde_json::Value;

use super::json::JsonBody;
use super::json_options;
use crate::parse::StreamEvent;

/// One call of a syntax read through [`JsonArguments`]: where it starts, its name (complete),
/// its arguments as they arrive.
#[derive(Debug)]
pub(super) struct ArgCall {
    pub start: usize,
    pub name: String,
    pub arguments: JsonArguments,
}

/// The arguments of one call, as they arrive.
#[derive(Debug)]
pub(super) struct JsonArguments {
    body: JsonBody,
    /// Objects and lists open, the arguments object first.
    depth: usize,
}

/// Where the events of the arguments go.
pub(super) type Emit<'e> = &'e mut dyn FnMut(StreamEvent<'static>);

impl JsonArguments {
    /// The arguments object opens.
    pub fn open(events: bool, emit: Emit<'_>) -> JsonArguments {
        let mut arguments = JsonArguments { body: JsonBody::arguments(json_options()), depth: 0 };
        arguments.open_nested("{", events, emit);
        arguments
    }

    /// The arguments so far (an object).
    pub fn partial(&self) -> Option<&Value> {
        self.body.call(0).2
    }

    /// The pointer of the innermost value still being read inside them (see
    /// [`JsonBody::open_path`]).
    pub fn open_path(&self) -> Option<String> {
        self.body.open_path(0)
    }

    /// They are shown (see [`JsonBody::mark_shown`]).
    pub fn mark_shown(&mut self) {
        self.body.mark_shown();
    }

    /// Feed JSON text as it is.
    pub fn raw(&mut self, text: &str, events: bool, emit: Emit<'_>) {
        self.body.feed_raw(text, events, &mut |_, event| emit(event));
    }

    /// A member's key, in the object open now.
    pub fn key(&mut self, key: &str, events: bool, emit: Emit<'_>) {
        let text = format!("{}:", Value::String(key.to_owned()));
        self.raw(&text, events, emit);
    }

    /// A value (or item) ended: the comma after it, at once, so that a number is seen
    /// complete (a trailing comma before the close is read as the JSON formats read it).
    pub fn end_value(&mut self, events: bool, emit: Emit<'_>) {
        self.raw(",", events, emit);
    }

    /// A complete value (after its key, or as an item), and the comma after it.
    pub fn value(&mut self, value: &Value, events: bool, emit: Emit<'_>) {
        self.raw(&value.to_string(), events, emit);
        self.end_value(events, emit);
    }

    /// An object (`{`) or a list (`[`) opens as a value.
    pub fn open_nested(&mut self, bracket: &str, events: bool, emit: Emit<'_>) {
        self.raw(bracket, events, emit);
        self.depth += 1;
    }

    /// The object or list open now closes (`}` or `]`); the arguments close with the last.
    pub fn close_nested(&mut self, bracket: &str, events: bool, emit: Emit<'_>) {
        self.depth = self.depth.saturating_sub(1);
        self.raw(bracket, events, emit);
        if self.depth > 0 {
            self.end_value(events, emit);
        }
    }

    /// A string value opens.
    pub fn string_open(&mut self, events: bool, emit: Emit<'_>) {
        self.raw("\"", events, emit);
    }

    /// The next piece of the string open now, as written (escaped here).
    pub fn string_piece(&mut self, piece: &str, events: bool, emit: Emit<'_>) {
        if piece.is_empty() {
            return;
        }
        let quoted = Value::String(piece.to_owned()).to_string();
        self.raw(&quoted[1..quoted.len() - 1], events, emit);
    }

    /// The string open now closes, and the comma after it.
    pub fn string_close(&mut self, events: bool, emit: Emit<'_>) {
        self.raw("\"", events, emit);
        self.end_value(events, emit);
    }
}
