//! The open calls of the formats whose parameters are tags (qwen3-coder, Seed-OSS, GLM,
//! HY V3, MiniMax M2, DSML, Step 3, MiniCPM 5, Solar Open): read as the text arrives, each
//! byte once. A parameter is added when its value is complete, converted as the final
//! reading converts it; a value that is text whatever it says (a string by the tool's
//! schema, or any value without one) is shown as it grows.

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::super::{invoke, xml};
use crate::calls::CallOptions;
use crate::parse::StreamEvent;
use crate::pointer::escape_token;

/// The tags of one format.
#[derive(Debug)]
pub(super) struct Syntax {
    /// What opens a call; `None` when the call starts with the block (GLM, Solar).
    call: Option<&'static str>,
    /// What ends a name that is not in a tag (GLM, Solar); empty: the name ends at `>`.
    name_ends: &'static [&'static str],
    /// Names and keys are attributes (`name="city" string="true"`), not bare text.
    attributes: bool,
    param: &'static str,
    /// What ends a key (`>` for tags).
    key_end: &'static str,
    /// What opens a value after its key's tag (GLM's `<arg_value>`).
    value_open: Option<&'static str>,
    param_close: &'static str,
    /// What closes a call; `None` when the block does.
    call_close: Option<&'static str>,
}

pub(super) const QWEN: Syntax = Syntax {
    call: Some("<function="),
    name_ends: &[],
    attributes: false,
    param: "<parameter=",
    key_end: ">",
    value_open: None,
    param_close: "</parameter>",
    call_close: Some("</function>"),
};

pub(super) const GLM: Syntax = Syntax {
    call: None,
    name_ends: &["<arg_key>", "<tool_sep>", "\n"],
    attributes: false,
    param: "<arg_key>",
    key_end: "</arg_key>",
    value_open: Some("<arg_value>"),
    param_close: "</arg_value>",
    call_close: None,
};

pub(super) const HY: Syntax = Syntax {
    call: Some("<tool_call>"),
    name_ends: &["<arg_key>", "<tool_sep>", "\n", "</tool_call>"],
    attributes: false,
    param: "<arg_key>",
    key_end: "</arg_key>",
    value_open: Some("<arg_value>"),
    param_close: "</arg_value>",
    call_close: Some("</tool_call>"),
};

pub(super) const SOLAR: Syntax = Syntax {
    call: None,
    name_ends: &["<|tool_arg:start|>", "\n"],
    attributes: false,
    param: "<|tool_arg:start|>",
    key_end: "<|tool_arg:value|>",
    value_open: None,
    param_close: "<|tool_arg:end|>",
    call_close: None,
};

pub(super) const MINIMAX: Syntax =
    invoke_syntax("<invoke name=", "<parameter name=", "</parameter>", "</invoke>");
pub(super) const DSML: Syntax = invoke_syntax(
    "<｜DSML｜invoke name=",
    "<｜DSML｜parameter name=",
    "</｜DSML｜parameter>",
    "</｜DSML｜invoke>",
);
pub(super) const DSML_ASCII: Syntax =
    invoke_syntax("<|DSML|invoke name=", "<|DSML|parameter name=", "</|DSML|parameter>", "</|DSML|invoke>");
pub(super) const STEP3: Syntax = invoke_syntax(
    "<steptml:invoke name=",
    "<steptml:parameter name=",
    "</steptml:parameter>",
    "</steptml:invoke>",
);
pub(super) const MINICPM: Syntax =
    invoke_syntax("<function name=", "<param name=", "</param>", "</function>");

const fn invoke_syntax(
    call: &'static str,
    param: &'static str,
    param_close: &'static str,
    call_close: &'static str,
) -> Syntax {
    Syntax {
        call: Some(call),
        name_ends: &[],
        attributes: true,
        param,
        key_end: ">",
        value_open: None,
        param_close,
        call_close: Some(call_close),
    }
}

/// One call of the block.
#[derive(Debug)]
pub(super) struct ParamCall {
    pub start: usize,
    pub name: Option<String>,
    /// An object: the complete parameters, and the one growing.
    pub arguments: Value,
}

#[derive(Debug)]
enum State {
    SeekCall,
    Name {
        from: usize,
    },
    SeekParam,
    Key {
        from: usize,
    },
    SeekValue {
        key: String,
        typed: Option<String>,
    },
    Value(Box<Growing>),
    /// Read otherwise than expected: the final reading decides, nothing more is shown.
    Lost,
}

/// A value being read.
#[derive(Debug)]
struct Growing {
    key: String,
    typed: Option<String>,
    from: usize,
    /// Shown as it arrives; decided when its first character comes.
    grows: Option<bool>,
    /// Its first byte was looked at (a newline before it dropped).
    started: bool,
    /// It is in the arguments, as far as it arrived.
    inserted: bool,
    /// Up to here the value is in the arguments.
    shown_to: usize,
}

/// The parameter reader of one block.
#[derive(Debug)]
pub(super) struct Params {
    syntax: &'static Syntax,
    state: State,
    pub calls: Vec<ParamCall>,
}

/// Does `text[at..upto]` start with one of `patterns` (which one), or could it, once more
/// arrives?
pub(super) enum Match {
    Yes(usize),
    Wait,
    No,
}

pub(super) fn match_at(text: &str, at: usize, upto: usize, patterns: &[&str]) -> Match {
    let rest = &text.as_bytes()[at..upto];
    let mut wait = false;
    for (which, pattern) in patterns.iter().enumerate() {
        if rest.starts_with(pattern.as_bytes()) {
            return Match::Yes(which);
        }
        wait |= pattern.as_bytes().starts_with(rest);
    }
    if wait {
        Match::Wait
    } else {
        Match::No
    }
}

/// The first of `patterns` in `text[from..upto]`: `Ok((at, which))`, or `Err(resume)`, where
/// the search goes on when more arrives (before a tail that may start one).
pub(super) fn find(text: &str, from: usize, upto: usize, patterns: &[&str]) -> Result<(usize, usize), usize> {
    let bytes = &text.as_bytes()[..upto];
    let firsts: Vec<u8> = patterns.iter().filter_map(|p| p.as_bytes().first().copied()).collect();
    let mut i = from;
    while i < upto {
        if firsts.contains(&bytes[i]) {
            match match_at(text, i, upto, patterns) {
                Match::Yes(which) => return Ok((i, which)),
                Match::Wait => return Err(i),
                Match::No => {}
            }
        }
        i += 1;
    }
    Err(upto)
}

impl Params {
    /// A reader for a block whose body starts at `body` (a call's own opening tag, or its
    /// name for the formats whose calls start with the block).
    pub fn new(syntax: &'static Syntax, body: usize) -> Params {
        let mut params = Params { syntax, state: State::SeekCall, calls: Vec::new() };
        if syntax.call.is_none() {
            params.open_call(body);
            params.state = State::Name { from: body };
        }
        params
    }

    /// The pointer, inside the arguments of call `index`, of the value still being read: the
    /// parameter growing as a string, else the arguments object while the call is open;
    /// `None` once it closed (a parameter is shown only once complete, but for that string).
    pub fn open_path(&self, index: usize) -> Option<String> {
        if index + 1 != self.calls.len() {
            return None;
        }
        match &self.state {
            State::SeekCall | State::Lost => None,
            State::Value(growing) if growing.inserted => Some(format!("/{}", escape_token(&growing.key))),
            _ => Some(String::new()),
        }
    }

    fn open_call(&mut self, start: usize) {
        self.calls.push(ParamCall { start, name: None, arguments: Value::Object(Map::new()) });
    }

    /// Read `text[pos..upto]`; return how far it was read. `options` give the tools' schemas,
    /// `emit` takes the events of the argument values (the call's index among the block's).
    pub fn feed(
        &mut self,
        text: &str,
        mut pos: usize,
        upto: usize,
        options: &CallOptions,
        emit: &mut dyn FnMut(usize, StreamEvent<'static>),
    ) -> usize {
        let syntax = self.syntax;
        while pos < upto {
            match &mut self.state {
                State::Lost => return upto,
                State::SeekCall => {
                    let Some(call) = syntax.call else { return upto };
                    match find(text, pos, upto, &[call]) {
                        Ok((at, _)) => {
                            self.open_call(at);
                            pos = at + call.len();
                            self.state = State::Name { from: pos };
                        }
                        Err(resume) => return resume,
                    }
                }
                State::Name { from } => {
                    let from = *from;
                    if syntax.name_ends.is_empty() {
                        let Some(end) = text[pos..upto].find('>').map(|at| at + pos) else { return upto };
                        let header = &text[from..end];
                        let name = if syntax.attributes {
                            invoke::attributes(header)
                                .into_iter()
                                .next()
                                .map(|(_, value)| value)
                                .unwrap_or_default()
                        } else {
                            header.trim().to_owned()
                        };
                        self.set_name(name);
                        pos = end + 1;
                        self.state = State::SeekParam;
                        continue;
                    }
                    match find(text, pos, upto, syntax.name_ends) {
                        Ok((at, which)) => {
                            let name = text[from..at].trim();
                            let ending = syntax.name_ends[which];
                            if name.is_empty() && ending == "\n" {
                                pos = at + 1;
                                continue;
                            }
                            self.set_name(name.to_owned());
                            // A key's tag is read next; the other endings are dropped.
                            pos = if ending == syntax.param || Some(ending) == syntax.call_close {
                                at
                            } else {
                                at + ending.len()
                            };
                            self.state = State::SeekParam;
                        }
                        Err(resume) => return resume,
                    }
                }
                State::SeekParam => {
                    let mut ends = vec![syntax.param];
                    ends.extend(syntax.call_close);
                    match find(text, pos, upto, &ends) {
                        Ok((at, 0)) => {
                            pos = at + syntax.param.len();
                            self.state = State::Key { from: pos };
                        }
                        Ok((at, _)) => {
                            pos = at + syntax.call_close.map_or(0, str::len);
                            self.state = State::SeekCall;
                        }
                        Err(resume) => return resume,
                    }
                }
                State::Key { from } => {
                    let from = *from;
                    match find(text, pos, upto, &[syntax.key_end]) {
                        Ok((at, _)) => {
                            let (key, typed) = if syntax.attributes {
                                let attributes = invoke::attributes(&text[from..at]);
                                let typed = invoke::string_attribute(&attributes).map(str::to_owned);
                                (attributes.into_iter().next().map(|(_, key)| key).unwrap_or_default(), typed)
                            } else {
                                (text[from..at].trim().to_owned(), None)
                            };
                            pos = at + syntax.key_end.len();
                            self.state = match syntax.value_open {
                                Some(_) => State::SeekValue { key, typed },
                                None => State::Value(Box::new(Growing::new(key, typed, pos))),
                            };
                        }
                        Err(resume) => return resume,
                    }
                }
                State::SeekValue { key, typed } => {
                    let Some(open) = syntax.value_open else { return upto };
                    let skipped = text[pos..upto].len() - text[pos..upto].trim_start().len();
                    pos += skipped;
                    if pos == upto {
                        return pos;
                    }
                    match match_at(text, pos, upto, &[open]) {
                        Match::Yes(_) => {
                            pos += open.len();
                            let growing = Growing::new(std::mem::take(key), typed.take(), pos);
                            self.state = State::Value(Box::new(growing));
                        }
                        Match::Wait => return pos,
                        Match::No => self.state = State::Lost,
                    }
                }
                State::Value(_) => {
                    let mut ends = vec![syntax.param_close, syntax.param];
                    ends.extend(syntax.call_close);
                    match find(text, pos, upto, &ends) {
                        Ok((at, which)) => {
                            self.complete(text, at, options, emit);
                            pos = if which == 0 { at + syntax.param_close.len() } else { at };
                            self.state = State::SeekParam;
                        }
                        Err(resume) => {
                            self.grow(text, resume, options, emit);
                            return resume;
                        }
                    }
                }
            }
        }
        pos
    }

    fn set_name(&mut self, name: String) {
        if let Some(call) = self.calls.last_mut() {
            call.name = Some(name);
        }
    }

    /// The block closed at `at`: a name still being read ends there.
    pub fn close(&mut self, text: &str, at: usize) {
        if let State::Name { from } = self.state {
            let name = text.get(from..at).unwrap_or("").trim().to_owned();
            if !name.is_empty() {
                self.set_name(name);
            }
        }
        self.state = State::Lost;
    }

    /// Show what arrived of the value being read, up to `upto`, if it is shown as it grows.
    fn grow(
        &mut self,
        text: &str,
        upto: usize,
        options: &CallOptions,
        emit: &mut dyn FnMut(usize, StreamEvent<'static>),
    ) {
        let attributes = self.syntax.attributes;
        let index = self.calls.len().saturating_sub(1);
        let (State::Value(growing), Some(call)) = (&mut self.state, self.calls.last_mut()) else { return };
        if upto <= growing.from {
            return;
        }
        if growing.grows.is_none() {
            let raw = text[growing.from..upto].trim_start();
            if attributes && raw.is_empty() {
                // Wait for its first character: a value in CDATA is shown when complete.
                return;
            }
            let text_like = match growing.typed.as_deref() {
                Some("true") => true,
                Some(_) => false,
                None => xml::grows_as_text(
                    call.name.as_deref().and_then(|name| options.schema_of(name)),
                    &growing.key,
                ),
            };
            growing.grows = Some(text_like && !(attributes && raw.starts_with('<')));
        }
        if growing.grows != Some(true) {
            return;
        }
        // A value typed a string is as written; otherwise the newlines a template puts
        // around a value are not part of it (the one at the end may be such a newline).
        let as_written = growing.typed.is_some();
        let arrived = text.as_bytes().get(growing.from..upto).unwrap_or_default();
        if !growing.started {
            if !as_written && arrived == b"\r" {
                // The first byte of a `\r\n`, or of content: the next byte says which.
                return;
            }
            growing.started = true;
            let framing = if as_written { 0 } else { xml::framing_break_at_start(arrived) };
            growing.shown_to = growing.from + framing;
        }
        // The end may be such a line break, or the `\r` of one.
        let held = match arrived {
            _ if as_written => 0,
            [.., b'\r'] => 1,
            _ => xml::framing_break_at_end(arrived),
        };
        let end = upto - held;
        if end <= growing.shown_to {
            return;
        }
        let appended = &text[growing.shown_to..end];
        growing.shown_to = end;
        let Value::Object(arguments) = &mut call.arguments else { return };
        match arguments.get_mut(&growing.key) {
            Some(Value::String(shown)) if growing.inserted => shown.push_str(appended),
            _ => {
                arguments.insert(growing.key.clone(), Value::String(appended.to_owned()));
                growing.inserted = true;
            }
        }
        let event = StreamEvent::StringGrew {
            path: Cow::Owned(path_of(&growing.key)),
            appended: Cow::Owned(appended.to_owned()),
        };
        emit(index, event);
    }

    /// The value being read ended at `at`: convert it as the final reading does.
    fn complete(
        &mut self,
        text: &str,
        at: usize,
        options: &CallOptions,
        emit: &mut dyn FnMut(usize, StreamEvent<'static>),
    ) {
        let attributes = self.syntax.attributes;
        let index = self.calls.len().saturating_sub(1);
        let (State::Value(growing), Some(call)) = (&mut self.state, self.calls.last_mut()) else { return };
        let raw = &text[growing.from..at];
        let schema = call.name.as_deref().and_then(|name| options.schema_of(name));
        let value = if attributes {
            let typed: Vec<(String, String)> =
                growing.typed.iter().map(|typed| ("string".to_owned(), typed.clone())).collect();
            invoke::param_value(raw, &typed, schema, &growing.key)
        } else {
            xml::convert(raw, schema, &growing.key)
        };
        let path = path_of(&growing.key);
        let Value::Object(arguments) = &mut call.arguments else { return };
        let shown = arguments.get(&growing.key).and_then(Value::as_str).filter(|_| growing.inserted);
        // Shown as it grew: the rest of it first, as the JSON events do.
        let rest =
            shown.and_then(|shown| value.as_str()?.strip_prefix(shown)).filter(|rest| !rest.is_empty());
        if let Some(rest) = rest {
            let event = StreamEvent::StringGrew {
                path: Cow::Owned(path.clone()),
                appended: Cow::Owned(rest.to_owned()),
            };
            emit(index, event);
        }
        arguments.insert(growing.key.clone(), value.clone());
        emit(index, StreamEvent::ValueComplete { path: Cow::Owned(path), value: Cow::Owned(value) });
    }
}

impl Growing {
    fn new(key: String, typed: Option<String>, from: usize) -> Growing {
        Growing { key, typed, from, grows: None, started: false, inserted: false, shown_to: from }
    }
}

/// The JSON Pointer of a top-level key.
fn path_of(key: &str) -> String {
    format!("/{}", escape_token(key))
}
