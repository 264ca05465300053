//! The open calls of Kimi K3's tools channel ([`super::super::kimi3`]): a call's name is
//! complete at the end of its header, and each argument says its type: a `string` one (or
//! one without a type) is the text as written and grows; any other is JSON, shown once its
//! closing marker arrived.

use super::super::kimi3::{
    attributes, is_text, lookup, typed_value, ARGUMENT_CLOSE, ARGUMENT_OPEN, CALL_CLOSE, CALL_OPEN, SEP,
    TOOLS_CLOSE,
};
use super::args::{ArgCall, JsonArguments};
use super::params::find;
use crate::parse::StreamEvent;

#[derive(Debug)]
enum State {
    SeekCall,
    Header { start: usize, from: usize },
    SeekArgument,
    ArgumentHeader { from: usize },
    Value { from: usize, declared: Option<String>, shown_to: usize },
    Done,
}

/// The reader of one tools channel.
#[derive(Debug)]
pub(super) struct KimiK3 {
    state: State,
    pub calls: Vec<ArgCall>,
}

impl KimiK3 {
    pub fn new() -> KimiK3 {
        KimiK3 { state: State::SeekCall, calls: Vec::new() }
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
            let index = self.calls.len().saturating_sub(1);
            match &mut self.state {
                State::Done => return upto,
                State::SeekCall => match find(text, pos, upto, &[CALL_OPEN, TOOLS_CLOSE]) {
                    Ok((at, 0)) => {
                        pos = at + CALL_OPEN.len();
                        self.state = State::Header { start: at, from: pos };
                    }
                    Ok(_) => self.state = State::Done,
                    Err(resume) => return resume,
                },
                State::Header { start, from } => match find(text, pos, upto, &[SEP]) {
                    Ok((at, _)) => {
                        let (start, from) = (*start, *from);
                        let name = lookup(&attributes(&text[from..at]), "tool").unwrap_or_default();
                        if name.is_empty() {
                            // The final reading says it names no tool.
                            self.state = State::Done;
                            continue;
                        }
                        let index = self.calls.len();
                        let arguments = JsonArguments::open(events, &mut |event| emit(index, event));
                        self.calls.push(ArgCall { start, name, arguments });
                        pos = at + SEP.len();
                        self.state = State::SeekArgument;
                    }
                    Err(resume) => return resume,
                },
                State::SeekArgument => match find(text, pos, upto, &[ARGUMENT_OPEN, CALL_CLOSE, CALL_OPEN]) {
                    Ok((at, 0)) => {
                        pos = at + ARGUMENT_OPEN.len();
                        self.state = State::ArgumentHeader { from: pos };
                    }
                    Ok((at, which)) => {
                        if let Some(call) = self.calls.last_mut() {
                            call.arguments.close_nested("}", events, &mut |event| emit(index, event));
                        }
                        pos = if which == 1 { at + CALL_CLOSE.len() } else { at };
                        self.state = State::SeekCall;
                    }
                    Err(resume) => return resume,
                },
                State::ArgumentHeader { from } => match find(text, pos, upto, &[SEP]) {
                    Ok((at, _)) => {
                        let argument = attributes(&text[*from..at]);
                        let key = lookup(&argument, "key").unwrap_or_default();
                        if let Some(call) = self.calls.last_mut() {
                            call.arguments.key(&key, events, &mut |event| emit(index, event));
                        }
                        let declared = lookup(&argument, "type");
                        pos = at + SEP.len();
                        if is_text(declared.as_deref()) {
                            if let Some(call) = self.calls.last_mut() {
                                call.arguments.string_open(events, &mut |event| emit(index, event));
                            }
                        }
                        self.state = State::Value { from: pos, declared, shown_to: pos };
                    }
                    Err(resume) => return resume,
                },
                State::Value { from, declared, shown_to } => {
                    let found = find(text, pos, upto, &[ARGUMENT_CLOSE]);
                    let end = match found {
                        Ok((at, _)) => at,
                        Err(resume) => resume,
                    };
                    let Some(call) = self.calls.last_mut() else { return upto };
                    let emit = &mut |event| emit(index, event);
                    let text_like = is_text(declared.as_deref());
                    if text_like && end > *shown_to {
                        call.arguments.string_piece(&text[*shown_to..end], events, emit);
                        *shown_to = end;
                    }
                    let Ok((at, _)) = found else { return end };
                    if text_like {
                        call.arguments.string_close(events, emit);
                    } else {
                        call.arguments.value(
                            &typed_value(&text[*from..at], declared.as_deref()),
                            events,
                            emit,
                        );
                    }
                    pos = at + ARGUMENT_CLOSE.len();
                    self.state = State::SeekArgument;
                }
            }
        }
        pos
    }
}
