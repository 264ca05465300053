//! The open calls of the formats that write Python calls (`name(key=value, …)`): Llama 4's
//! `<|python_start|>[…]<|python_end|>`, LFM2's `<|tool_call_start|>[…]<|tool_call_end|>`
//! and OLMo 3's `<function_calls>` (one call a line, or a list). The syntax is the final
//! reading's ([`super::super::pythonic`]): a name is complete at its `(`, a key at its `=`,
//! and a value (a Python literal) is handed as written to the incremental JSON parser,
//! which reads Python's quotes and `True`/`False`/`None` as the final reading does; a
//! string grows, a number or a constant is shown once it ended.

use super::args::{ArgCall, JsonArguments};
use crate::parse::lexer::spans::ValueEnd;
use crate::parse::StreamEvent;

/// Where a value's text is, read as it arrives by the parser's lexer ([`ValueEnd`], as
/// [`span_end`](crate::parse::lexer::spans::span_end) reads it whole).
#[derive(Debug)]
struct Scan {
    span: ValueEnd,
    /// Its first byte is not a quote or a bracket: shown once it ended.
    scalar: bool,
    started: bool,
}

impl Default for Scan {
    fn default() -> Scan {
        Scan { span: ValueEnd::span(b",)"), scalar: false, started: false }
    }
}

#[derive(Debug)]
enum State {
    /// Before the first call: blanks, or the list's `[`.
    Lead,
    /// Before a call (after a comma in a list, or blanks).
    SeekCall,
    Name {
        from: usize,
    },
    /// In the arguments, before a key, a comma or the `)`.
    Arguments,
    Key {
        from: usize,
        end: Option<usize>,
    },
    Value {
        from: usize,
        scan: Scan,
    },
    /// After a call's `)`.
    After,
    /// Read otherwise than the final reading would: nothing more is shown.
    Done,
}

/// The reader of one block.
#[derive(Debug)]
pub(super) struct Python {
    state: State,
    list: bool,
    pub calls: Vec<ArgCall>,
}

fn identifier(byte: u8, dots: bool) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_' || (dots && byte == b'.')
}

impl Python {
    pub fn new() -> Python {
        Python { state: State::Lead, list: false, calls: Vec::new() }
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
        let bytes = text.as_bytes();
        while pos < upto {
            let byte = bytes[pos];
            match &mut self.state {
                State::Done => return upto,
                State::Lead | State::SeekCall | State::After | State::Arguments
                    if byte.is_ascii_whitespace() =>
                {
                    pos += 1;
                }
                State::Lead if byte == b'[' => {
                    self.list = true;
                    self.state = State::SeekCall;
                    pos += 1;
                }
                State::Lead | State::SeekCall if identifier(byte, false) && !byte.is_ascii_digit() => {
                    self.state = State::Name { from: pos };
                }
                State::After if self.list && byte == b',' => {
                    self.state = State::SeekCall;
                    pos += 1;
                }
                State::After if !self.list && (byte.is_ascii_alphabetic() || byte == b'_') => {
                    self.state = State::Name { from: pos };
                }
                State::Name { from } => {
                    if identifier(byte, true) {
                        pos += 1;
                        continue;
                    }
                    let from = *from;
                    if byte != b'(' {
                        self.state = State::Done;
                        continue;
                    }
                    let name = text[from..pos].to_owned();
                    // A new call: its events go under its own index.
                    let index = self.calls.len();
                    let arguments = JsonArguments::open(events, &mut |event| emit(index, event));
                    self.calls.push(ArgCall { start: from, name, arguments });
                    self.state = State::Arguments;
                    pos += 1;
                }
                State::Arguments => match byte {
                    b')' => {
                        if let Some((index, arguments)) = last(&mut self.calls) {
                            arguments.close_nested("}", events, &mut |event| emit(index, event));
                        }
                        self.state = State::After;
                        pos += 1;
                    }
                    b',' => pos += 1,
                    _ if identifier(byte, false) && !byte.is_ascii_digit() => {
                        self.state = State::Key { from: pos, end: None };
                    }
                    _ => self.state = State::Done,
                },
                State::Key { from, end } => {
                    if end.is_none() && identifier(byte, false) {
                        pos += 1;
                        continue;
                    }
                    let key_end = *end.get_or_insert(pos);
                    if byte.is_ascii_whitespace() {
                        pos += 1;
                    } else if byte == b'=' {
                        let key = text[*from..key_end].to_owned();
                        if let Some((index, arguments)) = last(&mut self.calls) {
                            arguments.key(&key, events, &mut |event| emit(index, event));
                        }
                        pos += 1;
                        self.state = State::Value { from: pos, scan: Scan::default() };
                    } else {
                        self.state = State::Done;
                    }
                }
                State::Value { from, scan } => {
                    let from = *from;
                    match scan.read(&bytes[pos..upto]) {
                        Some(len) => {
                            let end = pos + len;
                            let value = text[from..end].trim();
                            if value.is_empty() {
                                self.state = State::Done;
                                continue;
                            }
                            if let Some((index, arguments)) = last(&mut self.calls) {
                                let emit = &mut |event| emit(index, event);
                                let written = if scan.scalar { value } else { &text[pos..end] };
                                arguments.raw(written, events, emit);
                                arguments.end_value(events, emit);
                            }
                            pos = end;
                            // The byte that ended it (`,` or `)`) is the arguments'.
                            self.state = State::Arguments;
                        }
                        None => {
                            if !scan.scalar {
                                if let Some((index, arguments)) = last(&mut self.calls) {
                                    arguments.raw(&text[pos..upto], events, &mut |event| emit(index, event));
                                }
                            }
                            return upto;
                        }
                    }
                }
                _ => self.state = State::Done,
            }
        }
        pos
    }
}

/// The call being read, and its index.
fn last(calls: &mut [ArgCall]) -> Option<(usize, &mut JsonArguments)> {
    let index = calls.len().checked_sub(1)?;
    calls.last_mut().map(|call| (index, &mut call.arguments))
}

impl Scan {
    /// Read the next bytes of the value; `Some(len)` when it ends after `len` of them (at a
    /// `,` or `)` outside strings and brackets, or a bracket closing one it did not open).
    fn read(&mut self, bytes: &[u8]) -> Option<usize> {
        if !self.started {
            if let Some(&first) = bytes.iter().find(|byte| !byte.is_ascii_whitespace()) {
                self.started = true;
                self.scalar = !matches!(first, b'"' | b'\'' | b'[' | b'{' | b'(');
            }
        }
        self.span.end(bytes)
    }
}
