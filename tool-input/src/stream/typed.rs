//! A streamed call's arguments as a typed partial value ([`StreamAssembler::partial`]).

use std::any::Any;
use std::collections::HashMap;

use serde_json::Value;

use crate::partial::{apply_event, seed, tokens, FieldState, PartialReader, PartialValue, Step};
use crate::tool::ToolInput;

use super::assembly::{Args, End, ValueStep};
use super::StreamAssembler;

/// The partial readers of the calls whose partial was asked for, by position (each a
/// `PartialReader<T>` of the type it was asked as).
#[derive(Debug, Default)]
pub(crate) struct Partials {
    readers: HashMap<usize, Box<dyn Any + Send + Sync>>,
}

impl StreamAssembler {
    /// The arguments of the call at `position` ([`OpenCall::position`](super::OpenCall)) as
    /// `T`'s partial form ([`PartialValue`]), when the call is to `T`'s tool (its name has
    /// arrived and names `T::NAME` as the call's name is matched: against the known tools,
    /// or `T::NAME` alone when none are known; see [`resolve_name`](crate::calls::resolve_name))
    /// and its format streams text or values by path (Gemini's
    /// `partialArgs`: a string grows with each entry that continues it; a value is complete
    /// once its entry ends, a string also when an entry for another path follows; objects
    /// and lists once the call ends). Built when asked, from what arrived since the last
    /// ask: each byte is read once, however often it is asked.
    ///
    /// A call written in a text format (`<tool_call>{…}`, qwen3-coder's parameters,
    /// Mistral's `[TOOL_CALLS]`, pythonic calls, …; [`push_text`](StreamAssembler::push_text))
    /// shows as its [`open_calls`](StreamAssembler::open_calls) entry does, typed: asked first
    /// part-way through, what its arguments hold then (each value complete but the string and
    /// the containers still being read), then what each new piece adds; once the call is read
    /// final, its arguments as the final reading has them.
    ///
    /// ```
    /// use serde::Deserialize;
    /// use schemars::JsonSchema;
    /// use serde_json::json;
    /// use tool_input::calls::CallOptions;
    /// use tool_input::partial::FieldState;
    /// use tool_input::stream::StreamAssembler;
    /// use tool_input::ToolInput;
    ///
    /// /// Write a file.
    /// #[derive(Deserialize, JsonSchema, ToolInput)]
    /// struct WriteFile { path: String, content: String }
    ///
    /// let mut stream = StreamAssembler::new(CallOptions::new());
    /// stream.push_event(&json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0,
    ///     "id": "call_1", "function": {"name": "write_file", "arguments": "{\"path\": \"a.md\", \"content\": \"# Ti"}}]}}]}));
    /// let partial = stream.partial::<WriteFile>(0).unwrap().value().unwrap();
    /// assert_eq!(partial.path, FieldState::Complete("a.md".to_owned()));
    /// assert_eq!(partial.content, FieldState::Arriving("# Ti".to_owned()));
    /// ```
    pub fn partial<T>(&mut self, position: usize) -> Option<&FieldState<T::Partial>>
    where
        T: ToolInput + PartialValue + 'static,
        T::Partial: Send + Sync + 'static,
    {
        if let (super::Backend::Text, Some(reader)) = (&self.backend, self.state.text_reader.as_mut()) {
            let name = reader.name_at(position)?;
            if !self.state.options.names_tool(name, T::NAME) {
                return None;
            }
            let typed = self.partials.reader(position, TextPartial::<T>::new)?;
            if typed.following {
                for event in reader.take_followed(position) {
                    apply_event::<T>(&mut typed.state, &event);
                }
            } else {
                // Asked for the first time (or as another type): what the arguments hold now,
                // then each of their events as it comes.
                let followed = reader.follow(position)?;
                if let Some(arguments) = &followed.arguments {
                    seed::<T>(&mut typed.state, arguments, followed.open.as_deref());
                }
                typed.following = true;
            }
            // Read final, the call holds its arguments whole, as the final reading has them
            // (which may show more than the text as it streamed: arguments in a code fence).
            if !typed.read_final {
                if let Some(arguments) = reader.final_arguments(position) {
                    seed::<T>(&mut typed.state, &Value::Object(arguments.clone()), None);
                    typed.read_final = true;
                }
            }
            return Some(&typed.state);
        }
        let call = self.state.calls.get(position)?;
        // The name as the call will be read (trimmed, in another case, with a `functions.`
        // prefix, …): the call runs as `T`'s tool, so it streams as `T`'s partial.
        if !call.name.as_deref().is_some_and(|sent| self.state.options.names_tool(sent, T::NAME)) {
            return None;
        }
        match &call.args {
            Args::Text(parser) => {
                let reader = self.partials.reader(position, PartialReader::<T>::new)?;
                reader.catch_up(parser.text());
                Some(reader.partial())
            }
            Args::Value(value) => {
                let complete = call.end == Some(End::Complete);
                let reader = self.partials.reader(position, StepReader::<T>::new)?;
                reader.catch_up(value, &call.steps, complete);
                Some(&reader.state)
            }
            Args::Absent => None,
        }
    }
}

impl Partials {
    /// The reader of the call at `position`, made by `new` if there is none, or if it was
    /// asked as another type before (it starts again as this one).
    fn reader<R: Any + Send + Sync>(&mut self, position: usize, new: fn() -> R) -> Option<&mut R> {
        let slot = self.readers.entry(position).or_insert_with(|| Box::new(new()));
        if !slot.is::<R>() {
            *slot = Box::new(new());
        }
        slot.downcast_mut::<R>()
    }
}

/// `T`'s partial of a call written in a text format (`<tool_call>…`, qwen3-coder's
/// parameters, …): what its arguments held when it was first asked for, then the events of
/// its arguments as the text reader reports them, each applied once.
struct TextPartial<T: PartialValue> {
    state: FieldState<T::Partial>,
    /// The reader follows the call's arguments (after the first ask).
    following: bool,
    /// The call was read final, and its arguments applied whole.
    read_final: bool,
}

impl<T: PartialValue> TextPartial<T> {
    fn new() -> Self {
        TextPartial { state: FieldState::Absent, following: false, read_final: false }
    }
}

/// `T`'s partial of a value built by path (Gemini's `partialArgs`), from what the stream
/// said of it ([`ValueStep`]s), each step applied once.
struct StepReader<T: PartialValue> {
    state: FieldState<T::Partial>,
    /// Steps applied so far.
    applied: usize,
    /// The call ended complete, and the whole value was applied.
    done: bool,
}

impl<T: PartialValue> StepReader<T> {
    fn new() -> Self {
        StepReader { state: FieldState::Absent, applied: 0, done: false }
    }

    /// Apply the steps since the last call; the whole value once the call ended complete.
    fn catch_up(&mut self, value: &Value, steps: &[ValueStep], complete: bool) {
        for step in steps.get(self.applied..).unwrap_or_default() {
            match step {
                ValueStep::Grew { pointer, text } => {
                    T::apply(&mut self.state, &tokens(pointer), Step::Grew(text))
                }
                ValueStep::Complete { pointer } => {
                    if let Some(found) = value.pointer(pointer) {
                        T::apply(&mut self.state, &tokens(pointer), Step::Complete(found));
                    }
                }
            }
        }
        self.applied = steps.len();
        if complete && !self.done {
            T::apply(&mut self.state, &[], Step::Complete(value));
            self.done = true;
        }
    }
}
