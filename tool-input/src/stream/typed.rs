//! A streamed call's arguments as a typed partial value ([`StreamAssembler::partial`]).

use std::any::Any;
use std::collections::HashMap;

use crate::partial::{FieldState, PartialReader, PartialValue};
use crate::tool::ToolInput;

use super::assembly::Args;
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
    /// arrived and is `T::NAME`) and its format streams text. Built when asked, from what
    /// arrived since the last ask: each byte is read once, however often it is asked.
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
        let call = self.state.calls.get(position)?;
        if call.name.as_deref() != Some(T::NAME) {
            return None;
        }
        let Args::Text(parser) = &call.args else { return None };
        let slot =
            self.partials.readers.entry(position).or_insert_with(|| Box::new(PartialReader::<T>::new()));
        if !slot.is::<PartialReader<T>>() {
            // Asked as another type before: start again as this one.
            *slot = Box::new(PartialReader::<T>::new());
        }
        let reader = slot.downcast_mut::<PartialReader<T>>()?;
        reader.catch_up(parser.text());
        Some(reader.partial())
    }
}
