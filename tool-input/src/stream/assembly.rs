//! The state every format's accumulator shares: the calls of the stream as they arrive, their
//! arguments (read by an incremental parser as they arrive), how each ended, and reading each
//! ended call, in the order the calls started, into the collected [`Calls`].

use std::mem;

use serde_json::{json, Value};

use super::{ArgumentEvent, DEFAULT_MAX_CALL_BYTES, DEFAULT_MAX_STREAM_BYTES, MAX_NAME_BYTES};
use crate::calls::{
    id_conflict, push_unwrapping, rejected_message, settle_cut, settle_reused_ids, text, CallErrorKind,
    CallOptions, CallParts, Calls, Collected, Collector, Format, OriginalArguments, Read, Unsent,
};
use crate::error::{ErrorCode, Rejection, RejectionKind};
use crate::parse::{IncrementalParser, ParseOptions, StreamEvent};
use crate::policy::Policy;

/// The arguments of a call as they accumulate.
#[derive(Debug, Default)]
pub(crate) enum Args {
    #[default]
    Absent,
    /// Text fragments, appended in order and read as they arrive by an incremental parser
    /// (which keeps the text): linear in the bytes.
    Text(Box<IncrementalParser>),
    /// A value sent whole or built by path (Gemini).
    Value(Value),
}

/// How a call ended.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum End {
    /// Its block, or the stream, said it is complete.
    Complete,
    /// It was cut off; the reason says how.
    Cut(String),
    /// It sent more than the limit.
    TooLarge,
    /// An event of the stream (described) could not be read while it was streaming.
    Damaged(String),
    /// The stream passed its size limit while it was streaming.
    StreamTooLarge,
    /// The stream contradicted itself about it (the message says how): never a call.
    Rejected(String),
}

/// One call of the stream.
#[derive(Debug, Default)]
pub(crate) struct Call {
    pub id: Option<String>,
    pub name: Option<String>,
    pub args: Args,
    /// What the arguments are when no fragment arrives (Anthropic's `input`).
    pub initial: Option<Value>,
    /// Bytes of arguments that arrived.
    pub bytes: usize,
    pub raw: Value,
    /// When it ended; `None` while open.
    pub end: Option<End>,
    /// Sequence numbers of its start and of the last fragment it received.
    pub started: u64,
    pub last: u64,
    /// The event it started in (see [`Assembly::events_fed`]).
    pub started_event: u64,
    /// The choice (OpenAI) or candidate (Gemini) it belongs to.
    pub choice: usize,
    /// Arguments arrived after its name: the name is whole, and a later name is another
    /// call's. (A name that arrives after the arguments is this call's.)
    pub name_done: bool,
    /// An earlier call of the stream has its id (Anthropic): this one is that call sent
    /// again, or a conflict.
    pub repeat_of: Option<usize>,
    /// What the stream said of the value being built by path (Gemini's `partialArgs`), in
    /// order, for its typed partial ([`StreamAssembler::partial`](super::StreamAssembler)).
    pub steps: Vec<ValueStep>,
}

/// One thing the stream said of a value built by path: a string grew, or the value at a
/// JSON Pointer is complete (read from the value when the step is applied).
#[derive(Debug, Clone)]
pub(crate) enum ValueStep {
    Grew { pointer: String, text: String },
    Complete { pointer: String },
}

/// The state every accumulator shares: the calls, the collected results, the content.
#[derive(Debug)]
pub(crate) struct Assembly {
    pub options: CallOptions,
    pub format: Format,
    pub max_call_bytes: usize,
    pub max_stream_bytes: usize,
    /// Bytes of body received.
    pub(super) received: usize,
    /// The stream passed `max_stream_bytes`: nothing more is read.
    pub over_limit: bool,
    /// The choice the calls opened now belong to.
    pub choice: usize,
    pub calls: Vec<Call>,
    /// Calls before this position were read into `collected`.
    pub(super) flushed: usize,
    /// The attempt numbers each flushed call was read into, by position: to take back a
    /// call that a later event contradicts.
    attempts: Vec<std::ops::Range<usize>>,
    pub collected: Collected,
    pub(super) seq: u64,
    /// How many events the stream was given, read or not (`[DONE]` too): they are named by
    /// this number, and calls that started in one event are not written one after another (see [`Assembly::complete_before_cut`]).
    pub(super) events_fed: u64,
    /// Bytes of arguments received in the whole stream (a closing event that repeats a
    /// call's arguments replaces its count).
    pub(super) buffered: usize,
    /// A call was dropped because the stream had more than `max_calls`.
    pub(super) overflowed: bool,
    /// How many of `calls` are an earlier call sent again ([`Call::repeat_of`]): no calls of
    /// their own, so not counted against `max_calls`.
    repeats: usize,
    pub(super) content: Option<String>,
    pub(super) content_part: Option<u64>,
    /// The content reached `max_body_bytes`: it is kept up to there, nothing after is added
    /// (it would leave a hole), and no call is read from it.
    pub(super) content_too_large: bool,
    /// The text of a [`Format::Text`] stream.
    pub(super) text: String,
    pub(super) text_too_large: bool,
    /// Reads the text as it arrives, to show calls before the end.
    pub(super) text_reader: Option<text::incremental::TextReader>,
    /// `[DONE]` arrived.
    pub done: bool,
    /// Why the stream stopped early (length, an error, cut off), if it did: calls written
    /// into its text are then final only when their closing marker arrived, and no call of
    /// it runs by default.
    pub(super) stopped_early: Option<String>,
    /// The choices the response's own data says stopped early (a length stop), which a
    /// whole body shows too: the last call of each is the one the stop cut, as in a body,
    /// and the calls of the other choices stand.
    pub(super) data_stops: Vec<(usize, String)>,
    /// The choices the response's own data says ended their turn on a stop token, which a
    /// whole body shows too ([`Collector::ended_turn`]).
    turn_ends: Vec<usize>,
    /// The choices whose text went on after their end ([`Assembly::text_after_end_of`]).
    text_after_end: Vec<usize>,
    /// Choices that said the model called a tool with no call in the stream (see
    /// [`Collector::claims_call`]).
    claims: Vec<(usize, String, Unsent)>,
    /// The events of the arguments not taken yet, when they are collected.
    pub(super) events: Option<Vec<ArgumentEvent>>,
}

impl Assembly {
    pub(super) fn new(options: CallOptions, format: Format) -> Self {
        let choice = options.get_choice();
        Assembly {
            options,
            format,
            max_call_bytes: DEFAULT_MAX_CALL_BYTES,
            max_stream_bytes: DEFAULT_MAX_STREAM_BYTES,
            received: 0,
            over_limit: false,
            choice,
            calls: Vec::new(),
            flushed: 0,
            attempts: Vec::new(),
            collected: Collected::default(),
            seq: 0,
            events_fed: 0,
            buffered: 0,
            overflowed: false,
            repeats: 0,
            content: None,
            content_part: None,
            content_too_large: false,
            text: String::new(),
            text_too_large: false,
            text_reader: None,
            done: false,
            stopped_early: None,
            data_stops: Vec::new(),
            turn_ends: Vec::new(),
            text_after_end: Vec::new(),
            claims: Vec::new(),
            events: None,
        }
    }

    /// Start a call, or `None` when the stream already has as many as are taken.
    pub fn open(&mut self, raw: Value) -> Option<usize> {
        if self.calls.len() - self.repeats >= self.options.get_max_calls() {
            self.overflowed = true;
            return None;
        }
        Some(self.push_call(raw, None))
    }

    /// Start a call that gives the id of the earlier call at `first` (Anthropic's `tool_use`
    /// in `message_start`, then again as its block). Not counted against `max_calls`: the
    /// same call sent again is dropped when read, as a whole body drops it, so counting it
    /// would refuse a later call that fits. (One that turns out to conflict takes its place
    /// among the attempts when read, and is refused past the limit then.)
    pub fn open_repeat(&mut self, raw: Value, first: usize) -> usize {
        self.repeats += 1;
        self.push_call(raw, Some(first))
    }

    fn push_call(&mut self, raw: Value, repeat_of: Option<usize>) -> usize {
        self.seq += 1;
        let choice = self.choice;
        self.calls.push(Call {
            raw,
            started: self.seq,
            last: self.seq,
            started_event: self.events_fed,
            choice,
            repeat_of,
            ..Call::default()
        });
        self.calls.len() - 1
    }

    /// Count `bytes` more of body; false (and the stream ends as too large) past the limit.
    pub(super) fn receive(&mut self, bytes: usize) -> bool {
        if self.over_limit {
            return false;
        }
        self.received = self.received.saturating_add(bytes);
        if self.received <= self.max_stream_bytes {
            return true;
        }
        self.over_limit = true;
        let reason = format!("the stream passed the limit of {} bytes", self.max_stream_bytes);
        self.stopped_early(&reason);
        let any_open = self.calls.iter().any(|call| call.end.is_none());
        self.end_open(|_| End::StreamTooLarge);
        if !any_open {
            let message = format!(
                "The stream passed the limit of {} bytes; nothing after it was read and no tool call of it was run.",
                self.max_stream_bytes
            );
            let mut out = Collector::resume(&self.options, mem::take(&mut self.collected));
            out.push_failed(CallParts::new(self.format), CallErrorKind::StreamTooLarge, message);
            self.collected = out.suspend();
        }
        false
    }

    /// The open call at `slot`, if it is one.
    pub(super) fn open_call(&mut self, slot: usize) -> Option<&mut Call> {
        self.calls.get_mut(slot).filter(|call| call.end.is_none())
    }

    /// True once the call's arguments are a whole value: one sent whole, or text whose value
    /// ended (more text could not go on with it).
    pub fn holds_whole_arguments(&self, slot: usize) -> bool {
        self.calls.get(slot).is_some_and(|call| match &call.args {
            Args::Text(parser) => parser.holds_value(),
            Args::Value(_) => true,
            Args::Absent => false,
        })
    }

    /// True once any argument byte arrived for the call.
    pub fn has_arguments(&self, slot: usize) -> bool {
        self.calls.get(slot).is_some_and(|call| call.bytes > 0)
    }

    /// Of the calls of `choice` still open when the stream was cut off, which were complete?
    /// Calls are written one after another: one that received nothing since a later one
    /// started was complete, the one still streaming was cut off. But a call that received
    /// no argument at all, and the later call started in the same event, was not seen to
    /// end: its arguments may come after (two calls started in one chunk, each with `""`).
    pub fn complete_before_cut(&self, choice: usize) -> impl Fn(&Call) -> bool {
        let latest = self.calls.iter().rev().find(|call| call.choice == choice);
        let (started, event) = latest.map_or((0, 0), |call| (call.started, call.started_event));
        move |call: &Call| call.last < started && (call.bytes > 0 || call.started_event < event)
    }

    pub(super) fn touch(&mut self, slot: usize) {
        self.seq += 1;
        let seq = self.seq;
        if let Some(call) = self.calls.get_mut(slot) {
            call.last = seq;
        }
    }

    /// The argument text of a call still open, as far as it arrived.
    pub fn arguments_text(&self, slot: usize) -> Option<&str> {
        match &self.calls.get(slot)?.args {
            Args::Text(parser) => Some(parser.text()),
            _ => None,
        }
    }

    /// A later event contradicts the call at `slot` (`why`, for the model): it is an error,
    /// never a call, whether it was read already or is still open.
    pub fn retract(&mut self, slot: usize, why: &str) {
        let Some(call) = self.calls.get_mut(slot) else { return };
        let name = call.name.as_deref().map(str::trim).filter(|name| !name.is_empty());
        let message = rejected_message(name, why);
        if call.end.is_none() || slot >= self.flushed {
            // Not read yet: it is read as rejected (the first end no longer decides).
            call.end = Some(End::Rejected(message));
            self.flush();
            return;
        }
        let Some(range) = self.attempts.get(slot).cloned() else { return };
        let calls = mem::take(&mut self.collected.calls);
        for call in calls {
            if range.contains(&call.index) {
                let error = call.into_error(CallErrorKind::Malformed, message.clone(), None);
                let at = self.collected.errors.partition_point(|earlier| earlier.index < error.index);
                self.collected.errors.insert(at, error);
            } else {
                self.collected.calls.push(call);
            }
        }
    }

    /// A call arrived after the response ended (`why` says after what): an error for it,
    /// never a call.
    pub fn after_end(&mut self, parts: CallParts, why: &str) {
        let name = parts.shown_name();
        let message = format!(
            "The tool call{} was not run: it arrived after {why}, so it is not part of the response. Call the tool again if it is needed.",
            name.map(|name| format!(" to `{name}`")).unwrap_or_default()
        );
        let mut out = Collector::resume(&self.options, mem::take(&mut self.collected));
        out.set_choice(self.choice);
        out.push_failed(parts, CallErrorKind::Malformed, message);
        self.collected = out.suspend();
    }

    /// Set the id, unless one arrived already (a later, different id does not replace it).
    pub fn set_id(&mut self, slot: usize, id: &str) {
        if id.is_empty() {
            return;
        }
        if let Some(call) = self.open_call(slot) {
            if call.id.is_none() {
                call.id = Some(id.to_owned());
            }
        }
    }

    /// True once arguments arrived after the call's name (see [`Call::name_done`]).
    pub fn name_done(&self, slot: usize) -> bool {
        self.calls.get(slot).is_some_and(|call| call.name_done)
    }

    /// A name, or a fragment of one. A fragment equal to the whole name so far is the name
    /// repeated (some backends send it on every delta). A name is whole once arguments
    /// arrive after it, so a fragment after that is not appended; a name that arrives after
    /// the arguments (some backends send it last) is the call's.
    pub fn name_fragment(&mut self, slot: usize, fragment: &str) {
        if fragment.is_empty() {
            return;
        }
        let Some(call) = self.open_call(slot) else { return };
        match &mut call.name {
            None => call.name = Some(fragment.chars().take(MAX_NAME_BYTES).collect()),
            Some(name) => {
                if name == fragment || call.name_done || name.len() + fragment.len() > MAX_NAME_BYTES {
                    return;
                }
                name.push_str(fragment);
            }
        }
        self.touch(slot);
    }

    /// Append a fragment of argument text.
    pub fn append(&mut self, slot: usize, fragment: &str) {
        if fragment.is_empty() {
            return;
        }
        if !self.grow(slot, fragment.len()) {
            return;
        }
        let options = self.parse_options();
        let Some(call) = self.calls.get_mut(slot).filter(|call| call.end.is_none()) else { return };
        if let Args::Absent = call.args {
            call.args = Args::Text(Box::new(IncrementalParser::new(options)));
        }
        let mixed = match &mut call.args {
            Args::Text(parser) => {
                // A parse error is not the stream's business here: the text is kept, and the
                // call is read from it when it ends, by the same rules as a whole body.
                let _ = match self.events.as_mut() {
                    Some(events) => parser.feed_with(fragment, |event| {
                        events.push(ArgumentEvent {
                            position: slot,
                            id: call.id.clone(),
                            name: call.name.clone(),
                            event: event.into_owned(),
                        })
                    }),
                    None => parser.feed(fragment),
                };
                false
            }
            Args::Absent => false,
            // Text after a whole value: the two cannot be one argument object.
            Args::Value(_) => !fragment.trim().is_empty(),
        };
        if mixed {
            let event = "an event of the stream sent argument text after the call's whole arguments";
            self.end(slot, End::Damaged(event.to_owned()));
        }
    }

    /// Replace the arguments with the text a closing event carries (it wins over the
    /// fragments, which it repeats).
    pub fn replace_text(&mut self, slot: usize, text: &str) {
        let Some(call) = self.open_call(slot) else { return };
        if let Args::Text(parser) = &call.args {
            // It usually repeats the fragments: then only what is new, if anything, is read.
            if let Some(rest) = text.strip_prefix(parser.text()) {
                self.append(slot, rest);
                return;
            }
        }
        let restart = matches!(call.args, Args::Text(_));
        let before = call.bytes;
        call.bytes = 0;
        call.args = Args::Absent;
        self.buffered = self.buffered.saturating_sub(before);
        if let (true, Some(events), Some(call)) = (restart, self.events.as_mut(), self.calls.get(slot)) {
            // What was reported of the fragments is replaced.
            events.push(ArgumentEvent {
                position: slot,
                id: call.id.clone(),
                name: call.name.clone(),
                event: StreamEvent::Restart,
            });
        }
        self.append(slot, text);
    }

    /// How the incremental parser of a call reads its text: as a call's arguments are read
    /// ([`Limits::parse_options`](crate::limits::Limits::parse_options) under the default
    /// policy), so its result is the call's arguments, with no size limit of its own (`max_call_bytes` and the body limit are checked before each
    /// fragment is appended; the arguments' own limit when the call is read).
    pub(super) fn parse_options(&self) -> ParseOptions {
        ParseOptions { max_bytes: usize::MAX, ..self.options.get_limits().parse_options(Policy::Default) }
    }

    /// Set the arguments to a whole value.
    pub fn set_value(&mut self, slot: usize, value: Value) {
        let Some(call) = self.open_call(slot) else { return };
        let restart = !matches!(call.args, Args::Absent);
        call.args = Args::Value(value);
        call.name_done |= call.name.is_some();
        self.report_whole(slot, restart);
        self.touch(slot);
    }

    /// Give the events of arguments that arrived whole (Gemini's `args`, Ollama's and some
    /// compatible backends' objects), when they are collected: each value complete at once,
    /// a string grown whole, as the same value arriving as text in one fragment gives them,
    /// so a tool that writes a string as it grows reads every backend alike. `restart`:
    /// arguments had arrived before, and what was reported of them is replaced.
    fn report_whole(&mut self, slot: usize, restart: bool) {
        let options = self.parse_options();
        let (Some(events), Some(call)) = (self.events.as_mut(), self.calls.get(slot)) else { return };
        let Args::Value(value) = &call.args else { return };
        let mut push = |event: StreamEvent<'_>| {
            events.push(ArgumentEvent {
                position: slot,
                id: call.id.clone(),
                name: call.name.clone(),
                event: event.into_owned(),
            })
        };
        if restart {
            push(StreamEvent::Restart);
        }
        let mut parser = IncrementalParser::new(options);
        // The value's own JSON: it parses, so neither step can fail.
        let _ = parser.feed_with(&value.to_string(), &mut push);
        let _ = parser.finish_with(&mut push);
    }

    /// The value being built for a call (Gemini's `partialArgs`), made an object if it is
    /// not a value yet.
    pub fn value_mut(&mut self, slot: usize) -> Option<&mut Value> {
        let call = self.open_call(slot)?;
        if !matches!(call.args, Args::Value(_)) {
            call.args = Args::Value(Value::Object(Default::default()));
        }
        match &mut call.args {
            Args::Value(value) => Some(value),
            _ => None,
        }
    }

    /// Record what the stream said of the value built by path for a call, and give it as an
    /// argument event when they are collected.
    pub fn value_step(&mut self, slot: usize, step: ValueStep) {
        let Some(call) = self.calls.get_mut(slot).filter(|call| call.end.is_none()) else { return };
        if let Some(events) = self.events.as_mut() {
            let event = match (&step, &call.args) {
                (ValueStep::Grew { pointer, text }, _) => Some(StreamEvent::StringGrew {
                    path: pointer.clone().into(),
                    appended: text.clone().into(),
                }),
                (ValueStep::Complete { pointer }, Args::Value(value)) => {
                    value.pointer(pointer).map(|value| StreamEvent::ValueComplete {
                        path: pointer.clone().into(),
                        value: std::borrow::Cow::Owned(value.clone()),
                    })
                }
                (ValueStep::Complete { .. }, _) => None,
            };
            if let Some(event) = event {
                events.push(ArgumentEvent {
                    position: slot,
                    id: call.id.clone(),
                    name: call.name.clone(),
                    event,
                });
            }
        }
        call.steps.push(step);
    }

    /// Count `bytes` more for the call: false (and the call ends as too large) past the
    /// limit of one call or of the whole stream.
    pub fn grow(&mut self, slot: usize, bytes: usize) -> bool {
        let total_limit = self.options.get_max_body_bytes();
        let max_call = self.max_call_bytes;
        let Some(call) = self.open_call(slot) else { return false };
        call.bytes = call.bytes.saturating_add(bytes);
        call.name_done |= call.name.is_some();
        let over = call.bytes > max_call;
        self.buffered = self.buffered.saturating_add(bytes);
        if over || self.buffered > total_limit {
            self.end(slot, End::TooLarge);
            return false;
        }
        self.touch(slot);
        true
    }

    /// Set what the arguments are if no fragment arrives.
    pub fn set_initial(&mut self, slot: usize, value: Value) {
        if let Some(call) = self.open_call(slot) {
            call.initial = Some(value);
        }
    }

    /// Set the record of the call as received.
    pub fn set_raw(&mut self, slot: usize, raw: Value) {
        if let Some(call) = self.open_call(slot) {
            call.raw = raw;
        }
    }

    /// Set one field of the record of the call as received, if it is an object.
    pub fn set_raw_field(&mut self, slot: usize, key: &str, value: Value) {
        if let Some(Value::Object(map)) = self.open_call(slot).map(|call| &mut call.raw) {
            map.insert(key.to_owned(), value);
        }
    }

    /// End a call (the first end decides) and read every call whose turn has come.
    pub fn end(&mut self, slot: usize, end: End) {
        let Some(call) = self.open_call(slot) else { return };
        if matches!(end, End::TooLarge | End::Damaged(_) | End::StreamTooLarge) {
            // Nothing of it will be read: free the buffer now.
            call.args = Args::Absent;
            call.steps = Vec::new();
        }
        call.end = Some(end);
        self.flush();
    }

    /// End every open call as `end` says.
    pub fn end_open(&mut self, mut end: impl FnMut(&Call) -> End) {
        // Calls before `flushed` ended already: repeated terminal events cost nothing.
        for slot in self.flushed..self.calls.len() {
            if let Some(call) = self.calls.get(slot).filter(|call| call.end.is_none()) {
                let how = end(call);
                self.end(slot, how);
            }
        }
    }

    /// End every open call of `choice` as `end` says.
    pub fn end_open_of(&mut self, choice: usize, mut end: impl FnMut(&Call) -> End) {
        for slot in self.flushed..self.calls.len() {
            if let Some(call) =
                self.calls.get(slot).filter(|call| call.end.is_none() && call.choice == choice)
            {
                let how = end(call);
                self.end(slot, how);
            }
        }
    }

    /// The stream stopped early for `reason` (cut off, an error): none of its calls run by
    /// default, and a call written into text is final only with its closing marker.
    pub fn stopped_early(&mut self, reason: &str) {
        if self.stopped_early.is_none() {
            self.stopped_early = Some(reason.to_owned());
        }
    }

    /// The response's own data says the current choice stopped early for `reason` (a
    /// length stop): none of its calls run by default, and its last call is the one the stop
    /// cut, as a whole body with that reason reads.
    pub fn stopped_by_response(&mut self, reason: &str) {
        self.stopped_by_choice(self.choice, reason);
    }

    /// [`stopped_by_response`](Assembly::stopped_by_response), for `choice`.
    pub fn stopped_by_choice(&mut self, choice: usize, reason: &str) {
        if !self.data_stops.iter().any(|(stopped, _)| *stopped == choice) {
            self.data_stops.push((choice, reason.to_owned()));
        }
    }

    /// The response's own data says `choice` ended its turn on a stop token (`finish_reason:
    /// "stop"`, …): its text is read at the end as a whole body with that reason reads it
    /// ([`Collector::ended_turn`]).
    pub fn ended_turn_of(&mut self, choice: usize) {
        if !self.turn_ends.contains(&choice) {
            self.turn_ends.push(choice);
        }
    }

    /// Text of `choice` arrived after its end (its `finish_reason`, the `done` chunk, …),
    /// which is not read: the end its stop reason gave is not where its text ended, so that
    /// reason says nothing of the text's end ([`Assembly::ended_turn_of`] is void for it), as
    /// more of a call after its end retracts it.
    pub fn text_after_end_of(&mut self, choice: usize) {
        if !self.text_after_end.contains(&choice) {
            self.text_after_end.push(choice);
        }
    }

    /// `choice` said the model called a tool (`reason`), though the stream carried no call
    /// of it; `refused`: the API refused the call the model wrote. As a whole body says it,
    /// the call is missing unless one is read from the text ([`Collector::claims_call`]).
    pub fn claims_call(&mut self, choice: usize, reason: String, unsent: Unsent) {
        if !self.claims.iter().any(|(claimed, _, _)| *claimed == choice) {
            self.claims.push((choice, reason, unsent));
        }
    }

    /// The stream gave the number of `choice` to two choices: none of its calls runs.
    pub fn conflict_choice(&mut self, choice: usize) {
        let mut out = Collector::resume(&self.options, mem::take(&mut self.collected));
        out.conflict_choice(choice);
        self.collected = out.suspend();
    }

    /// An event (described) could not be read: every open call may have lost a piece, and
    /// the event may have carried a call of its own, so it is an error itself.
    pub fn damage(&mut self, event: &str) {
        self.end_open(|_| End::Damaged(event.to_owned()));
        let message = format!(
            "The response could not be read whole: {event}, so a tool call it carried may be lost; nothing of it was run. Call the tools again if a call is missing."
        );
        let mut out = Collector::resume(&self.options, mem::take(&mut self.collected));
        out.push_failed(CallParts::new(self.format), CallErrorKind::Malformed, message);
        self.collected = out.suspend();
    }

    /// Read the ended calls, in the order they started, up to the first open one: so
    /// positions follow the order of the stream, as in a whole body.
    pub(super) fn flush(&mut self) {
        while let Some(call) = self.calls.get_mut(self.flushed) {
            let Some(end) = call.end.clone() else { break };
            let args = mem::take(&mut call.args);
            let initial = call.initial.take();
            let raw = mem::take(&mut call.raw);
            let (id, name, bytes) = (call.id.clone(), call.name.clone(), call.bytes);
            let position = self.flushed;
            self.flushed += 1;
            let (arguments, read) = match (args, initial) {
                (Args::Absent, Some(initial)) => (OriginalArguments::Value(initial), None),
                (Args::Absent, None) => (OriginalArguments::Absent, None),
                // The parser has read the text as it arrived: its result is the call's
                // arguments, and nothing parses the text again.
                (Args::Text(parser), _) if end == End::Complete => {
                    let text = parser.text().to_owned();
                    // A value found only at the end (after prose, past a candidate the end
                    // refused) reports its members now.
                    let read = match self.events.as_mut() {
                        Some(events) => parser.finish_reporting(Some(&mut |event: StreamEvent<'_>| {
                            events.push(ArgumentEvent {
                                position,
                                id: id.clone(),
                                name: name.clone(),
                                event: event.into_owned(),
                            })
                        })),
                        None => parser.finish_noting_repeats(),
                    };
                    (OriginalArguments::Text(text), Some(read))
                }
                (Args::Text(parser), _) => (OriginalArguments::Text(parser.into_text()), None),
                (Args::Value(value), _) => (OriginalArguments::Value(value), None),
            };
            let raw = if raw.is_null() { chat_raw(id.as_deref(), name.as_deref(), &arguments) } else { raw };
            let (choice, repeat_of) = (call.choice, call.repeat_of);
            let parts = CallParts { id, name, arguments, format: self.format, raw, index: 0 };
            let mut out = Collector::resume(&self.options, mem::take(&mut self.collected));
            out.set_choice(choice);
            let before = out.attempts();
            match repeat_of {
                Some(first) => {
                    let conflict = self.repeat(first, parts, read, end, &mut out);
                    self.attempts.push(before..out.attempts());
                    self.collected = out.suspend();
                    if let Some(why) = conflict {
                        self.retract(first, &why);
                    }
                    continue;
                }
                None => {
                    read_call(&mut out, parts, read, end, bytes, (self.max_call_bytes, self.max_stream_bytes))
                }
            }
            self.attempts.push(before..out.attempts());
            self.collected = out.suspend();
        }
    }

    /// Read a call whose id an earlier call (`first`) has: the same call sent again (the
    /// same tool and arguments, both whole) is dropped, whether the first was read as a call
    /// or refused; anything else is an error, and so is the first (returned: why it is
    /// retracted).
    fn repeat(
        &self,
        first: usize,
        parts: CallParts,
        read: Option<Read>,
        end: End,
        out: &mut Collector<'_>,
    ) -> Option<String> {
        let range = self.attempts.get(first);
        let id = parts.id.clone().unwrap_or_default();
        if end == End::Complete {
            let earlier_call =
                range.and_then(|range| out.collected_calls().iter().find(|call| range.contains(&call.index)));
            let earlier_error = range
                .and_then(|range| out.collected_errors().iter().find(|error| range.contains(&error.index)));
            match (earlier_call, earlier_error, parts.clone().finish_read(&self.options, read)) {
                (Some(earlier), _, Ok(again))
                    if again.name == earlier.name && again.arguments == earlier.arguments =>
                {
                    return None
                }
                // The first was refused (an unknown tool, arguments that are not an object):
                // the same call sent again is refused alike, and is that call, not another
                // one under its id. Answered once, as the whole body's reader drops it.
                (None, Some(earlier), Err(again))
                    if again.kind == earlier.kind
                        && again.name_sent == earlier.name_sent
                        && same_arguments(&again.original, &earlier.original) =>
                {
                    return None
                }
                _ => {}
            }
        }
        let why = id_conflict(&id);
        let name = parts.shown_name();
        out.push_failed(parts.clone(), CallErrorKind::Malformed, rejected_message(name, &why));
        Some(why)
    }

    /// Add assistant text to the content; `part` tells blocks apart, joined by `separator`
    /// as the whole body's reader joins them.
    pub fn content(&mut self, part: u64, text: &str, separator: &str) {
        let limit = self.options.get_max_body_bytes();
        if self.content_too_large {
            return;
        }
        let content = self.content.get_or_insert_with(String::new);
        if content.len() + text.len() + separator.len() > limit {
            self.content_too_large = true;
            return;
        }
        if !content.is_empty() && self.content_part.is_some_and(|last| last != part) {
            content.push_str(separator);
        }
        content.push_str(text);
        self.content_part = Some(part);
    }

    pub(super) fn push_text(&mut self, chunk: &str) {
        if self.text_too_large {
            return;
        }
        if self.text.len() + chunk.len() > self.options.get_max_body_bytes() {
            self.text_too_large = true;
            self.text = String::new();
            self.text_reader = None;
            return;
        }
        self.text.push_str(chunk);
        let options = &self.options;
        let events = self.events.is_some();
        let reader =
            self.text_reader.get_or_insert_with(|| text::incremental::TextReader::new(options, events));
        reader.advance(&self.text, options);
        if let Some(events) = self.events.as_mut() {
            events.extend(reader.take_events().into_iter().map(|event| ArgumentEvent {
                position: event.position,
                id: event.id,
                name: event.name,
                event: event.event,
            }));
        }
    }

    /// Read what is left and return every call.
    pub(super) fn finish(mut self) -> Calls {
        // Whatever an accumulator left open was cut off.
        if self.calls.iter().any(|call| call.end.is_none()) {
            self.stopped_early("the stream ended before the call did");
            self.end_open(|_| End::Cut("the stream ended before the call did".to_owned()));
        }
        let mut out = Collector::resume(&self.options, mem::take(&mut self.collected));
        for (choice, reason, unsent) in mem::take(&mut self.claims) {
            out.claims_call(choice, reason, unsent);
        }
        if self.overflowed {
            out.overflow(self.format);
        }
        // A text cut at the size limit did not end where the turn did.
        let cut_for_size = self.content_too_large || self.text_too_large;
        for &choice in
            self.turn_ends.iter().filter(|choice| !cut_for_size && !self.text_after_end.contains(choice))
        {
            out.set_choice(choice);
            out.ended_turn();
        }
        out.set_choice(self.options.get_choice());
        let before = out.attempts();
        // The text calls are read from, kept to tell a call cut off at its end.
        let mut source = None;
        let mut reasoning = None;
        let content = if self.format == Format::Text {
            if self.text_too_large {
                let message = format!(
                    "The text is more than the limit of {} bytes; no tool call was read from it.",
                    self.options.get_max_body_bytes()
                );
                out.push_failed(
                    CallParts::new(Format::Text),
                    CallErrorKind::Arguments(RejectionKind::TooLarge),
                    message,
                );
                None
            } else {
                let read = text::extract(&self.text, text::Mode::Text, &mut out);
                reasoning = read.reasoning;
                source = Some(read.visible.unwrap_or_else(|| mem::take(&mut self.text)));
                Some(read.content)
            }
        } else {
            match self.content.take() {
                // Content cut at the size limit: what it held is kept, and no call is read
                // from a text that did not end where it did.
                Some(content)
                    if self.content_too_large && self.options.scans_content() && out.attempts() == 0 =>
                {
                    let message = format!(
                        "The content is more than the limit of {} bytes; no tool call was read from it.",
                        self.options.get_max_body_bytes()
                    );
                    out.push_failed(
                        CallParts::new(self.format),
                        CallErrorKind::Arguments(RejectionKind::TooLarge),
                        message,
                    );
                    Some(content)
                }
                // Backends served without a tool parser put the calls into the content.
                Some(content)
                    if self.options.scans_content() && out.attempts() == 0 && !content.is_empty() =>
                {
                    let read = text::extract(&content, text::Mode::Content, &mut out);
                    reasoning = read.reasoning;
                    source = Some(read.visible.unwrap_or(content));
                    Some(read.content)
                }
                Some(content) if self.options.scans_content() => {
                    let split = text::reasoning::split(&content);
                    reasoning = split.reasoning;
                    Some(split.visible.into_owned())
                }
                other => other,
            }
        };
        let read_from_text = out.attempts() > before;
        let mut calls = out.finish(self.format, content, None);
        calls.reasoning = reasoning;
        // A cut response runs nothing by default, as a whole body with its reason; a call
        // read from its text is cut when its closing marker had not arrived.
        let source = source.as_deref().filter(|_| read_from_text);
        for (choice, reason) in &self.data_stops {
            settle_cut(&mut calls, reason, true, &self.options, source, Some(*choice));
        }
        if let Some(reason) = &self.stopped_early {
            settle_cut(&mut calls, reason, false, &self.options, source, None);
        }
        // Last, as a whole body settles them: a call cut is no call under its id.
        settle_reused_ids(&mut calls);
        calls
    }
}

/// Read one ended call into the collector; `read` is what the incremental parser gave for
/// its text, and `limits` are the call's and the stream's.
fn read_call(
    out: &mut Collector<'_>,
    parts: CallParts,
    read: Option<Read>,
    end: End,
    bytes: usize,
    limits: (usize, usize),
) {
    let (max_call_bytes, max_stream_bytes) = limits;
    let name = parts.record_name(out.options);
    let rejection = |kind: RejectionKind, code: ErrorCode, detail: String| {
        let rejection = Rejection::whole(kind, code, detail);
        match &name {
            Some(name) => rejection.with_tool(name.clone()),
            None => rejection,
        }
    };
    match end {
        // The formats whose body reader unwraps a `multi_tool_use.parallel` call (Ollama's
        // messages are read as Chat Completions messages are).
        End::Complete => match parts.format {
            Format::OpenAi | Format::Responses | Format::Ollama => push_unwrapping(parts, read, out),
            _ => out.push_read(parts, read),
        },
        // A call that names no tool it can run is refused for that, as the whole body's
        // reading refuses it: the cut changes nothing about its name.
        End::Cut(_) if parts.names_no_tool(out.options) => out.push_read(parts, read),
        End::Cut(reason) => {
            let noun = if bytes == 1 { "byte" } else { "bytes" };
            // Still open: its arguments may be cut anywhere, complete-looking JSON too (the
            // stream never said the call ended), so "may", as the body's reading says.
            let detail = format!(
                "the response stopped ({reason}) after {bytes} {noun} of its arguments had arrived, with the call still open: its arguments may be cut short"
            );
            out.push_rejected(parts, rejection(RejectionKind::Truncated, ErrorCode::Truncated, detail));
        }
        End::TooLarge => {
            let detail = format!(
                "the streamed arguments passed the limit of {max_call_bytes} bytes ({bytes} bytes arrived)"
            );
            out.push_rejected(parts, rejection(RejectionKind::TooLarge, ErrorCode::TooLarge, detail));
        }
        End::Damaged(event) => {
            let message = format!(
                "The tool call{} could not be read: {event} while its arguments were arriving, so a piece may be missing; nothing was run. Call the tool again.",
                name.as_deref().map(|name| format!(" to `{name}`")).unwrap_or_default()
            );
            out.push_failed(parts, CallErrorKind::Malformed, message);
        }
        End::Rejected(message) => out.push_failed(parts, CallErrorKind::Malformed, message),
        End::StreamTooLarge => {
            let message = format!(
                "The tool call{} could not be read: the stream passed the limit of {max_stream_bytes} bytes while its arguments were arriving ({bytes} bytes had arrived); nothing after the limit was read and nothing was run.",
                name.as_deref().map(|name| format!(" to `{name}`")).unwrap_or_default()
            );
            out.push_failed(parts, CallErrorKind::StreamTooLarge, message);
        }
    }
}

/// Are two calls' arguments, as sent, the same value? Text is compared as the JSON it holds
/// (one call may send a value that the other sends as text, as Anthropic's `message_start`
/// and its block's input deltas do); text that is not JSON only as the same text.
fn same_arguments(a: &OriginalArguments, b: &OriginalArguments) -> bool {
    let value = |arguments: &OriginalArguments| match arguments {
        OriginalArguments::Absent => Some(Value::Object(Default::default())),
        OriginalArguments::Value(value) => Some(value.clone()),
        OriginalArguments::Text(text) => serde_json::from_str::<Value>(text).ok(),
    };
    a == b || matches!((value(a), value(b)), (Some(a), Some(b)) if a == b)
}

/// The record of a Chat Completions call as it would appear in a whole body.
fn chat_raw(id: Option<&str>, name: Option<&str>, arguments: &OriginalArguments) -> Value {
    json!({
        "id": id,
        "type": "function",
        "function": {"name": name, "arguments": arguments.to_value()},
    })
}
