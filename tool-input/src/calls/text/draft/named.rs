//! The open calls of the formats that write a tool's name and then its arguments as a JSON
//! object: DeepSeek's `<｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{…}` (V3: `function<｜tool▁sep｜>NAME`
//! and a fence), Kimi K2's `<|tool_call_begin|>functions.NAME:0<|tool_call_argument_begin|>{…}`
//! and Mistral's `[TOOL_CALLS]NAME[ARGS]{…}`. The name is read as the final reading reads
//! it; the arguments by the incremental JSON parser ([`super::json`]).

use serde_json::Value;

use super::super::kimi::name_of as kimi_name;
use super::json::JsonBody;
use super::params::find;
use crate::parse::{ParseOptions, StreamEvent};

/// Which of the formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Dialect {
    DeepSeek,
    Kimi,
    Mistral,
}

const DEEPSEEK_CALL: &[&str] = &["<｜tool▁call▁begin｜>", "<|tool▁call▁begin|>"];
const DEEPSEEK_SEP: &[&str] = &["<｜tool▁sep｜>", "<|tool▁sep|>"];
const KIMI_CALL: &[&str] = &["<|tool_call_begin|>"];
const KIMI_ARGUMENTS: &[&str] = &["<|tool_call_argument_begin|>"];

impl Dialect {
    fn call(self) -> &'static [&'static str] {
        match self {
            Dialect::DeepSeek => DEEPSEEK_CALL,
            Dialect::Kimi => KIMI_CALL,
            Dialect::Mistral => &[],
        }
    }

    fn name_end(self) -> &'static [&'static str] {
        match self {
            Dialect::DeepSeek => DEEPSEEK_SEP,
            Dialect::Kimi => KIMI_ARGUMENTS,
            Dialect::Mistral => &[],
        }
    }
}

#[derive(Debug)]
enum State {
    SeekCall,
    Name {
        from: usize,
    },
    /// DeepSeek V3: the name is on the separator's line.
    NameLine {
        from: usize,
    },
    /// Before the arguments' `{`: blanks, a fence, Mistral's `[CALL_ID]id` and `[ARGS]`.
    Lead,
    Arguments,
    /// Read otherwise than expected, or the one call ended: nothing more.
    Done,
}

/// One call.
#[derive(Debug)]
pub(super) struct NamedCall {
    pub start: usize,
    pub name: Option<String>,
    pub id: Option<String>,
    pub arguments: Option<JsonBody>,
}

/// The reader of one block.
#[derive(Debug)]
pub(super) struct Named {
    dialect: Dialect,
    state: State,
    options: ParseOptions,
    pub calls: Vec<NamedCall>,
}

impl Named {
    /// A reader for a block whose body starts at `body`: a call's own opening token follows
    /// unless `in_call` (the block's marker opened the call).
    pub fn new(dialect: Dialect, options: ParseOptions, body: usize, in_call: bool) -> Named {
        let mut named = Named { dialect, state: State::SeekCall, options, calls: Vec::new() };
        if in_call || dialect.call().is_empty() {
            named.open_call(body);
        }
        named
    }

    fn open_call(&mut self, start: usize) {
        self.calls.push(NamedCall { start, name: None, id: None, arguments: None });
        self.state = State::Name { from: start };
    }

    /// The call at `start` opened at its token, whose text ends at `body`.
    fn open_call_at(&mut self, start: usize, body: usize) {
        self.open_call(start);
        self.state = State::Name { from: body };
    }

    /// The one call of a Mistral block ended.
    pub fn done(&self) -> bool {
        matches!(self.state, State::Done) && self.dialect == Dialect::Mistral
    }

    /// Read `text[pos..upto]`; return how far it was read.
    pub fn feed(
        &mut self,
        text: &str,
        mut pos: usize,
        upto: usize,
        events: bool,
        emit: &mut dyn FnMut(usize, StreamEvent<'static>),
    ) -> usize {
        while pos < upto {
            match self.state {
                State::Done => return upto,
                State::SeekCall => match find(text, pos, upto, self.dialect.call()) {
                    Ok((at, which)) => {
                        pos = at + self.dialect.call()[which].len();
                        self.open_call_at(at, pos);
                    }
                    Err(resume) => return resume,
                },
                State::Name { from } if self.dialect == Dialect::Mistral => {
                    let rest = &text[pos..upto];
                    let Some(end) =
                        rest.find(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '-' | '.')))
                    else {
                        return upto;
                    };
                    let name = &text[from..pos + end];
                    if name.is_empty() {
                        self.state = State::Done;
                        return upto;
                    }
                    self.set_name(name.to_owned(), None);
                    pos += end;
                    self.state = State::Lead;
                }
                State::Name { from } => match find(text, pos, upto, self.dialect.name_end()) {
                    Ok((at, which)) => {
                        let before = text[from..at].trim();
                        pos = at + self.dialect.name_end()[which].len();
                        match self.dialect {
                            Dialect::DeepSeek if before.is_empty() || before == "function" => {
                                self.state = State::NameLine { from: pos };
                            }
                            Dialect::Kimi => {
                                let name = kimi_name(before).to_owned();
                                self.set_name(name, Some(before.to_owned()));
                                self.state = State::Lead;
                            }
                            _ => {
                                self.set_name(before.to_owned(), None);
                                self.state = State::Lead;
                            }
                        }
                    }
                    Err(resume) => return resume,
                },
                State::NameLine { from } => {
                    let Some(end) = text[pos..upto].find('\n') else { return upto };
                    self.set_name(text[from..pos + end].trim().to_owned(), None);
                    pos += end + 1;
                    self.state = State::Lead;
                }
                State::Lead => {
                    let rest = &text[pos..upto];
                    let blank = rest.len() - rest.trim_start().len();
                    pos += blank;
                    let rest = &text[pos..upto];
                    if rest.is_empty() {
                        return pos;
                    }
                    if rest.starts_with('{') || rest.starts_with('`') {
                        let body = JsonBody::arguments(self.options.clone());
                        if let Some(call) = self.calls.last_mut() {
                            call.arguments = Some(body);
                        }
                        self.state = State::Arguments;
                        continue;
                    }
                    if self.dialect != Dialect::Mistral {
                        self.state = State::Done;
                        return upto;
                    }
                    // Mistral: `[CALL_ID]id` (kept as the id) and `[ARGS]` before the arguments.
                    if let Some(after) = rest.strip_prefix("[CALL_ID]") {
                        let Some(len) = after.find(|c: char| !c.is_ascii_alphanumeric()) else { return pos };
                        if let Some(call) = self.calls.last_mut() {
                            call.id = Some(after[..len].to_owned());
                        }
                        pos += "[CALL_ID]".len() + len;
                    } else if rest.starts_with("[ARGS]") {
                        pos += "[ARGS]".len();
                    } else if "[CALL_ID]".starts_with(rest) || "[ARGS]".starts_with(rest) {
                        return pos;
                    } else {
                        self.state = State::Done;
                        return upto;
                    }
                }
                State::Arguments => {
                    let index = self.calls.len().saturating_sub(1);
                    let Some(body) = self.calls.last_mut().and_then(|call| call.arguments.as_mut()) else {
                        self.state = State::Done;
                        return upto;
                    };
                    let read = body.feed(text, pos, upto, events, &mut |_, event| emit(index, event));
                    if !body.done() {
                        // All of it read, or waiting for more.
                        return read;
                    }
                    pos = read;
                    if self.dialect == Dialect::Mistral {
                        // The one call ended: what follows is the next marker's.
                        self.state = State::Done;
                        return pos;
                    }
                    self.state = State::SeekCall;
                }
            }
        }
        pos
    }

    fn set_name(&mut self, name: String, id: Option<String>) {
        if let Some(call) = self.calls.last_mut() {
            call.name = Some(name);
            call.id = id.or(call.id.take());
        }
    }

    /// The arguments of call `index` so far.
    pub fn arguments(&self, index: usize) -> Option<&Value> {
        let body = self.calls.get(index)?.arguments.as_ref()?;
        body.call(0).2
    }
}
