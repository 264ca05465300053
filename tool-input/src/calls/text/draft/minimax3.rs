//! The open calls of MiniMax M3 ([`super::super::minimax`]): the namespace token before
//! every tag is dropped as the final reading drops it, then a call's name is shown once its
//! `<invoke name="…">` tag is complete, and each top-level parameter once its closing tag
//! arrived, read and converted by the final reading's own functions (its nested tags, the
//! tool's schema). A parameter the schema declares a list may repeat its tag: it is shown
//! when the call closes. A parameter repeated otherwise leaves the view (the end makes it a
//! list).

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::super::minimax::{elements, group, Node, NAMESPACES};
use super::params::find;
use crate::calls::CallOptions;
use crate::dialect::walk::{declared_types, property_schema, Types};
use crate::parse::StreamEvent;
use crate::pointer::escape_token;

/// One call.
#[derive(Debug)]
pub(super) struct M3Call {
    pub start: usize,
    pub name: String,
    pub arguments: Value,
    /// Parameters shown when the call closes (lists), and those given twice.
    held: Vec<(String, Node)>,
    repeated: Vec<String>,
}

#[derive(Debug)]
enum State {
    SeekInvoke,
    Name {
        from: usize,
    },
    /// Between parameters, or inside one `depth` tags deep (since `from`).
    Params {
        depth: usize,
        from: usize,
    },
    Done,
}

/// The reader of one block.
#[derive(Debug)]
pub(super) struct MiniMaxM3 {
    /// The block's text without its namespace tokens, as far as it is settled.
    plain: String,
    /// Where the raw text was read to.
    raw: usize,
    /// Where the plain text was read to.
    pos: usize,
    /// Up to here the plain text was searched for the `>` of the tag starting at `pos`.
    tag_scanned: usize,
    /// Where the block starts in the visible text: each call's text is shown from there.
    start: usize,
    state: State,
    pub calls: Vec<M3Call>,
}

const INVOKE: &str = "<invoke name=";

impl MiniMaxM3 {
    pub fn new(start: usize) -> MiniMaxM3 {
        MiniMaxM3 {
            plain: String::new(),
            raw: start,
            pos: 0,
            tag_scanned: 0,
            start,
            state: State::SeekInvoke,
            calls: Vec::new(),
        }
    }

    /// The pointer, inside the arguments of call `index`, of the value still being read: the
    /// arguments object while the call is open (a parameter is shown only once complete).
    pub fn open_path(&self, index: usize) -> Option<String> {
        (index + 1 == self.calls.len() && matches!(self.state, State::Params { .. })).then(String::new)
    }

    /// Read `text[pos..upto]`; return how far it was read.
    pub fn feed(
        &mut self,
        text: &str,
        pos: usize,
        upto: usize,
        options: &CallOptions,
        emit: &mut dyn FnMut(usize, StreamEvent<'static>),
    ) -> usize {
        let read = self.strip(text, pos.max(self.raw), upto);
        self.read(options, emit);
        read
    }

    /// Copy `text[from..upto]` into the plain text, without the namespace tokens; return
    /// how far it was copied (a tail that may start a token waits).
    fn strip(&mut self, text: &str, from: usize, upto: usize) -> usize {
        let bytes = text.as_bytes();
        let mut i = from;
        let mut copied = from;
        while i < upto {
            if bytes[i] == b']' || bytes[i] == b'<' {
                let rest = &bytes[i..upto];
                if let Some(token) = NAMESPACES.iter().find(|token| rest.starts_with(token.as_bytes())) {
                    self.plain.push_str(&text[copied..i]);
                    i += token.len();
                    copied = i;
                    continue;
                }
                if NAMESPACES.iter().any(|token| token.as_bytes().starts_with(rest)) {
                    break;
                }
            }
            i += 1;
        }
        self.plain.push_str(&text[copied..i]);
        self.raw = i;
        i
    }

    /// Read the plain text that arrived.
    fn read(&mut self, options: &CallOptions, emit: &mut dyn FnMut(usize, StreamEvent<'static>)) {
        let upto = self.plain.len();
        while self.pos < upto {
            match self.state {
                State::Done => return,
                State::SeekInvoke => match find(&self.plain, self.pos, upto, &[INVOKE]) {
                    Ok((at, _)) => {
                        self.pos = at + INVOKE.len();
                        self.state = State::Name { from: at };
                    }
                    Err(resume) => {
                        self.pos = resume;
                        return;
                    }
                },
                State::Name { from } => {
                    let Some(end) = self.plain[self.pos..].find('>').map(|at| at + self.pos) else {
                        self.pos = upto;
                        return;
                    };
                    let name =
                        self.plain[from + INVOKE.len()..end].trim().trim_matches(['"', '\'']).to_owned();
                    if name.is_empty() {
                        self.state = State::Done;
                        return;
                    }
                    self.calls.push(M3Call {
                        start: self.start,
                        name,
                        arguments: Value::Object(Map::new()),
                        held: Vec::new(),
                        repeated: Vec::new(),
                    });
                    self.pos = end + 1;
                    self.state = State::Params { depth: 0, from: self.pos };
                }
                State::Params { depth, from } => {
                    let Some(lt) = self.plain[self.pos..].find('<').map(|at| at + self.pos) else {
                        self.pos = upto;
                        return;
                    };
                    let scan = self.tag_scanned.max(lt);
                    let Some(gt) = self.plain[scan..].find('>').map(|at| at + scan) else {
                        // The tag is not complete: read it when it is.
                        self.pos = lt;
                        self.tag_scanned = upto;
                        return;
                    };
                    let tag = self.plain[lt + 1..gt].trim();
                    let (closing, empty) = (tag.starts_with('/'), tag.ends_with('/'));
                    let ends_call = match tag {
                        "/invoke" => Some(gt + 1),
                        _ if tag.starts_with("invoke name=") => Some(lt),
                        _ => None,
                    };
                    self.pos = gt + 1;
                    if let Some(next) = ends_call.filter(|_| depth == 0) {
                        self.close_call(options, emit);
                        self.pos = next;
                        self.state = State::SeekInvoke;
                    } else if closing {
                        if depth == 0 {
                            // A closing tag with nothing open: the final reading fails the call.
                            self.state = State::Done;
                        } else if depth == 1 {
                            self.complete(from, gt + 1, options, emit);
                            self.state = State::Params { depth: 0, from: gt + 1 };
                        } else {
                            self.state = State::Params { depth: depth - 1, from };
                        }
                    } else if empty {
                        if depth == 0 {
                            self.complete(lt, gt + 1, options, emit);
                        }
                    } else {
                        let from = if depth == 0 { lt } else { from };
                        self.state = State::Params { depth: depth + 1, from };
                    }
                }
            }
        }
    }

    /// The parameter whose tags are `plain[from..to]` is complete: show it as the final
    /// reading reads it.
    fn complete(
        &mut self,
        from: usize,
        to: usize,
        options: &CallOptions,
        emit: &mut dyn FnMut(usize, StreamEvent<'static>),
    ) {
        let index = self.calls.len().saturating_sub(1);
        let Some(call) = self.calls.last_mut() else { return };
        let Some(mut nodes) = elements(&self.plain[from..to]) else {
            self.state = State::Done;
            return;
        };
        let Some((key, node)) = nodes.pop() else { return };
        let Value::Object(arguments) = &mut call.arguments else { return };
        let schema = options.schema_of(&call.name);
        let property = schema.and_then(|root| Some((root, property_schema(root, &key)?)));
        let list =
            property.is_some_and(|(root, property)| declared_types(root, property).contains(Types::ARRAY));
        if list || call.held.iter().any(|(held, _)| *held == key) {
            call.held.push((key, node));
            return;
        }
        if call.repeated.contains(&key) {
            return;
        }
        if arguments.remove(&key).is_some() {
            // Given twice: the end reads it as a list.
            call.repeated.push(key);
            return;
        }
        let value = node.into_value(property);
        arguments.insert(key.clone(), value.clone());
        let path = format!("/{}", escape_token(&key));
        emit(index, StreamEvent::ValueComplete { path: Cow::Owned(path), value: Cow::Owned(value) });
    }

    /// The call closed: the parameters held to the end are shown.
    fn close_call(&mut self, options: &CallOptions, emit: &mut dyn FnMut(usize, StreamEvent<'static>)) {
        let index = self.calls.len().saturating_sub(1);
        let Some(call) = self.calls.last_mut() else { return };
        let schema = options.schema_of(&call.name);
        let Value::Object(arguments) = &mut call.arguments else { return };
        for (key, node) in group(std::mem::take(&mut call.held)) {
            let property = schema.and_then(|root| Some((root, property_schema(root, &key)?)));
            let value = node.into_value(property);
            arguments.insert(key.clone(), value.clone());
            let path = format!("/{}", escape_token(&key));
            emit(index, StreamEvent::ValueComplete { path: Cow::Owned(path), value: Cow::Owned(value) });
        }
    }
}
