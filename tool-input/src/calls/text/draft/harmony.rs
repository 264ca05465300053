//! The open calls of harmony's messages ([`super::super::harmony`]): a message whose header
//! names its recipient (`to=functions.NAME`) is a call of that name, shown once its header
//! ended at `<|message|>`; its JSON body is read by the incremental JSON parser until the
//! message's end marker. A message without a recipient is content. The analysis channel
//! never gets here: it is taken out as reasoning, and what was read of its header is taken
//! back ([`Harmony::take_back`]).

use super::super::harmony::{recipient, ENDS};
use super::json::JsonBody;
use super::json_options;
use super::params::find;
use crate::parse::StreamEvent;

/// What opens a message (the markers harmony is told by).
const OPENS: [&str; 2] = ["<|start|>assistant", "<|channel|>"];
const MESSAGE: &str = "<|message|>";

/// One call.
#[derive(Debug)]
pub(super) struct HarmonyCall {
    pub start: usize,
    pub name: String,
    pub arguments: JsonBody,
}

#[derive(Debug)]
enum State {
    SeekMessage,
    Header {
        start: usize,
    },
    /// The body of a call.
    Arguments,
    /// The body of a message that is content, or after a call's JSON.
    SeekEnd,
}

/// The reader of harmony's messages, from the first one on.
#[derive(Debug)]
pub(super) struct Harmony {
    state: State,
    pub calls: Vec<HarmonyCall>,
}

impl Harmony {
    /// A reader whose first message starts at `start`, at its marker.
    pub fn new(start: usize) -> Harmony {
        Harmony { state: State::Header { start }, calls: Vec::new() }
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
                State::SeekMessage => match find(text, pos, upto, &OPENS) {
                    Ok((at, which)) => {
                        self.state = State::Header { start: at };
                        pos = at + OPENS[which].len();
                    }
                    Err(resume) => return resume,
                },
                State::Header { start } => match find(text, pos, upto, &[MESSAGE]) {
                    Ok((at, _)) => {
                        pos = at + MESSAGE.len();
                        self.state = match recipient(&text[start..at]) {
                            Some(name) => {
                                let arguments = JsonBody::arguments(json_options());
                                self.calls.push(HarmonyCall { start, name, arguments });
                                State::Arguments
                            }
                            None => State::SeekEnd,
                        };
                    }
                    Err(resume) => return resume,
                },
                State::Arguments | State::SeekEnd => {
                    let found = find(text, pos, upto, &ENDS);
                    let end = match found {
                        Ok((at, _)) => at,
                        Err(resume) => resume,
                    };
                    if let State::Arguments = self.state {
                        let index = self.calls.len().saturating_sub(1);
                        if let Some(call) = self.calls.last_mut() {
                            let read = call
                                .arguments
                                .feed(text, pos, end, events, &mut |_, event| emit(index, event));
                            if call.arguments.done() {
                                self.state = State::SeekEnd;
                            } else if found.is_err() {
                                // All of it read, or a lead (a fence) waiting for more.
                                return read.clamp(pos, end);
                            }
                        }
                    }
                    let Ok((at, which)) = found else { return end };
                    // The call and content ends are the message's; a new message's start is
                    // the next one's.
                    pos = if which < 3 { at + ENDS[which].len() } else { at };
                    self.state = State::SeekMessage;
                }
            }
        }
        pos
    }

    /// The text from `at` on was taken back (an analysis message's header): the calls
    /// that started there leave (their positions from `first` on), and reading goes on
    /// from `at`. Returns how many calls left.
    pub fn take_back(&mut self, at: usize) -> usize {
        let kept = self.calls.iter().take_while(|call| call.start < at).count();
        let left = self.calls.len() - kept;
        self.calls.truncate(kept);
        self.state = State::SeekMessage;
        left
    }
}
