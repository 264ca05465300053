//! The open calls of Gemma's call syntax ([`super::super::callsyntax`]): FunctionGemma's
//! `call:NAME{city:<escape>Paris<escape>,days:3}` and Gemma 4's, whose strings are between
//! `<|"|>`. Read as the final reading reads it: a delimited value is text, converted by the
//! tool's schema at the top level (it grows when that gives text whatever it says); a bare
//! one is read as JSON, or kept as text, once it ended; nested objects and lists are shown
//! as they fill.

use serde_json::Value;

use super::super::callsyntax::{bare_value, MAX_DEPTH};
use super::super::xml;
use super::args::{ArgCall, JsonArguments};
use super::params::{find, match_at, Match};
use crate::calls::CallOptions;
use crate::parse::StreamEvent;

#[derive(Debug)]
enum State {
    SeekCall,
    Name {
        from: usize,
    },
    /// In an object: a key, a comma or its `}`.
    Member,
    Key {
        from: usize,
    },
    /// After a delimited key: its `:`.
    Colon {
        key: String,
    },
    /// A value of `key` (an item when `None`) starts here.
    Value {
        key: Option<String>,
    },
    /// In a list: an item, a comma or its `]`.
    Item,
    Delimited(Box<Delimited>),
    Bare {
        from: usize,
    },
    Done,
}

/// A delimited value being read.
#[derive(Debug)]
struct Delimited {
    from: usize,
    /// A key's value, or a key itself (`Some` in [`State::Key`] terms: the key read).
    key: Option<String>,
    /// It is a key, not a value.
    is_key: bool,
    /// A top-level value: converted by the schema.
    top: bool,
    /// Shown as it arrives.
    grows: bool,
    /// Shown up to here.
    shown_to: usize,
}

impl Delimited {
    fn new(from: usize, key: Option<String>, is_key: bool, top: bool, grows: bool) -> Delimited {
        Delimited { from, key, is_key, top, grows, shown_to: from }
    }
}

/// The reader of one block.
#[derive(Debug)]
pub(super) struct Gemma {
    quote: &'static str,
    state: State,
    /// The open containers: `true` for an object.
    stack: Vec<bool>,
    pub calls: Vec<ArgCall>,
}

impl Gemma {
    pub fn new(quote: &'static str) -> Gemma {
        Gemma { quote, state: State::SeekCall, stack: Vec::new(), calls: Vec::new() }
    }

    /// After a value: the container it is in goes on.
    fn after_value(&mut self) {
        self.state = match self.stack.last() {
            Some(true) => State::Member,
            Some(false) => State::Item,
            None => State::SeekCall,
        };
    }

    /// Read `text[pos..upto]`; return how far it was read.
    pub fn feed(
        &mut self,
        text: &str,
        mut pos: usize,
        upto: usize,
        options: &CallOptions,
        events: bool,
        emit: &mut dyn FnMut(usize, StreamEvent<'static>),
    ) -> usize {
        let bytes = text.as_bytes();
        let quote = self.quote;
        while pos < upto {
            let index = self.calls.len().saturating_sub(1);
            let to_last = &mut |event| emit(index, event);
            let byte = bytes[pos];
            let blank = byte.is_ascii_whitespace();
            match &mut self.state {
                State::Done => return upto,
                State::SeekCall => match find(text, pos, upto, &["call:"]) {
                    Ok((at, _)) => {
                        pos = at + "call:".len();
                        self.state = State::Name { from: pos };
                    }
                    Err(resume) => return resume,
                },
                State::Name { from } => {
                    let from = *from;
                    let Some(brace) = text[pos..upto].find('{').map(|at| at + pos) else { return upto };
                    let name = text[from..brace].trim().to_owned();
                    if name.is_empty() {
                        self.state = State::Done;
                        continue;
                    }
                    let index = self.calls.len();
                    let arguments = JsonArguments::open(events, &mut |event| emit(index, event));
                    self.calls.push(ArgCall { start: from, name, arguments });
                    self.stack = vec![true];
                    self.state = State::Member;
                    pos = brace + 1;
                }
                State::Member | State::Item | State::Value { .. } | State::Colon { .. } if blank => pos += 1,
                State::Member | State::Item if byte == b',' => pos += 1,
                State::Member | State::Item
                    if byte == if self.stack.last() == Some(&true) { b'}' } else { b']' } =>
                {
                    self.stack.pop();
                    let bracket = if byte == b'}' { "}" } else { "]" };
                    if let Some(call) = self.calls.last_mut() {
                        call.arguments.close_nested(bracket, events, to_last);
                    }
                    pos += 1;
                    self.after_value();
                }
                State::Member => match match_at(text, pos, upto, &[quote]) {
                    Match::Yes(_) => {
                        pos += quote.len();
                        self.state =
                            State::Delimited(Box::new(Delimited::new(pos, None, true, false, false)));
                    }
                    Match::Wait => return pos,
                    Match::No => self.state = State::Key { from: pos },
                },
                State::Key { from } => {
                    let from = *from;
                    let rest = &text[pos..upto];
                    let Some(colon) = rest.find(':') else { return upto };
                    if rest[..colon].contains([',', '}', ']']) {
                        self.state = State::Done;
                        continue;
                    }
                    let key = text[from..pos + colon].trim().trim_matches('"').to_owned();
                    if let Some(call) = self.calls.last_mut() {
                        call.arguments.key(&key, events, to_last);
                    }
                    pos += colon + 1;
                    self.state = State::Value { key: Some(key) };
                }
                State::Colon { key } => {
                    if byte != b':' {
                        self.state = State::Done;
                        continue;
                    }
                    let key = std::mem::take(key);
                    if let Some(call) = self.calls.last_mut() {
                        call.arguments.key(&key, events, to_last);
                    }
                    pos += 1;
                    self.state = State::Value { key: Some(key) };
                }
                State::Value { .. } | State::Item => {
                    let key = match &mut self.state {
                        State::Value { key } => key.take(),
                        _ => None,
                    };
                    match match_at(text, pos, upto, &[quote]) {
                        Match::Yes(_) => {
                            pos += quote.len();
                            let top = self.stack.len() == 1;
                            let schema = self.calls.last().and_then(|call| options.schema_of(&call.name));
                            let grows = match (&key, top) {
                                (Some(key), true) => xml::grows_as_text(schema, key),
                                _ => true,
                            };
                            if grows {
                                if let Some(call) = self.calls.last_mut() {
                                    call.arguments.string_open(events, to_last);
                                }
                            }
                            let delimited = Delimited::new(pos, key, false, top, grows);
                            self.state = State::Delimited(Box::new(delimited));
                            continue;
                        }
                        Match::Wait => {
                            self.state = State::Value { key };
                            return pos;
                        }
                        Match::No => {}
                    }
                    if self.stack.len() >= MAX_DEPTH {
                        self.state = State::Done;
                        continue;
                    }
                    match byte {
                        b'{' | b'[' => {
                            let object = byte == b'{';
                            if let Some(call) = self.calls.last_mut() {
                                call.arguments.open_nested(if object { "{" } else { "[" }, events, to_last);
                            }
                            self.stack.push(object);
                            self.state = if object { State::Member } else { State::Item };
                            pos += 1;
                        }
                        _ => self.state = State::Bare { from: pos },
                    }
                }
                State::Bare { from } => {
                    let from = *from;
                    let Some(end) = text[pos..upto].find([',', '}', ']']).map(|at| at + pos) else {
                        return upto;
                    };
                    let token = text[from..end].trim();
                    if token.is_empty() {
                        self.state = State::Done;
                        continue;
                    }
                    let value = bare_value(token);
                    if let Some(call) = self.calls.last_mut() {
                        call.arguments.value(&value, events, to_last);
                    }
                    pos = end;
                    self.after_value();
                }
                State::Delimited(delimited) => {
                    let found = find(text, pos, upto, &[quote]);
                    let end = match found {
                        Ok((at, _)) => at,
                        Err(resume) => resume,
                    };
                    if delimited.is_key {
                        let Ok((at, _)) = found else { return end };
                        let key = text[delimited.from..at].to_owned();
                        pos = at + quote.len();
                        self.state = State::Colon { key };
                        continue;
                    }
                    let Some(call) = self.calls.last_mut() else {
                        self.state = State::Done;
                        continue;
                    };
                    let fin = found.ok().map(|(at, _)| {
                        let raw = &text[delimited.from..at];
                        match delimited.top {
                            true => xml::convert_delimited(
                                raw,
                                options.schema_of(&call.name),
                                delimited.key.as_deref().unwrap_or(""),
                            ),
                            false => Value::String(raw.to_owned()),
                        }
                    });
                    match (fin, delimited.grows) {
                        (Some(fin), true) => {
                            // The rest of what the end gives, after what was shown.
                            let shown = &text[delimited.from..delimited.shown_to];
                            let rest = fin.as_str().and_then(|fin| fin.strip_prefix(shown)).unwrap_or("");
                            call.arguments.string_piece(rest, events, to_last);
                            call.arguments.string_close(events, to_last);
                        }
                        (Some(fin), false) => call.arguments.value(&fin, events, to_last),
                        (None, true) if end > delimited.shown_to => {
                            call.arguments.string_piece(&text[delimited.shown_to..end], events, to_last);
                            delimited.shown_to = end;
                        }
                        (None, _) => {}
                    }
                    match found {
                        Ok((at, _)) => {
                            pos = at + quote.len();
                            self.after_value();
                        }
                        Err(resume) => return resume,
                    }
                }
            }
        }
        pos
    }
}
