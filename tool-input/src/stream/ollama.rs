//! Ollama's native `/api/chat` stream: one JSON object per line, `message.content` text,
//! and `message.tool_calls` entries that are whole calls (arguments an object, mostly no
//! id), final as they arrive. The last chunk has `"done": true`: a stream without it was
//! cut off, and `done_reason: "length"` cut it too, as in a whole body; so does an `error`
//! line. A call after it is an error.

use serde_json::Value;

use super::{describe, Assembly, End};
use crate::calls::ollama::{cut_reason, ends_turn, NOT_DONE};
use crate::calls::{id_from, CallParts, Format};

#[derive(Debug, Default)]
pub(super) struct Ollama {
    /// The chunk with `"done": true` arrived.
    done: bool,
}

impl Ollama {
    pub fn event(&mut self, state: &mut Assembly, event: &Value) {
        if self.done {
            // After the `done` chunk, a call is no part of the response, and text is not
            // read: the `done_reason` says nothing of where the text ended.
            let message = event.get("message");
            if message
                .and_then(|m| m.get("content"))
                .and_then(Value::as_str)
                .is_some_and(|text| !text.is_empty())
            {
                state.text_after_end_of(state.choice);
            }
            let calls = message.and_then(|m| m.get("tool_calls")).and_then(Value::as_array);
            for entry in calls.map(Vec::as_slice).unwrap_or(&[]) {
                let parts = CallParts {
                    id: entry.get("id").and_then(id_from),
                    name: entry
                        .get("function")
                        .and_then(|f| f.get("name"))
                        .and_then(Value::as_str)
                        .map(str::to_owned),
                    raw: entry.clone(),
                    ..CallParts::new(Format::Ollama)
                };
                state.after_end(parts, "the stream's `done` chunk");
            }
            return;
        }
        // An error mid-stream comes as a line holding only `error`: the response failed, so
        // none of its calls runs by default, as after any other cut.
        if let Some(error) = event.get("error").filter(|error| !error.is_null()) {
            state.stopped_early(&format!("an error event: {}", describe(Some(error))));
            return;
        }
        if event.get("done").and_then(Value::as_bool) == Some(true) {
            self.done = true;
            if let Some(reason) = cut_reason(event.get("done_reason")) {
                state.stopped_by_response(&reason);
            } else if ends_turn(event.get("done_reason")) {
                state.ended_turn_of(state.choice);
            }
        }
        let Some(message) = event.get("message") else { return };
        if let Some(text) = message.get("content").and_then(Value::as_str) {
            state.content(0, text, "");
        }
        for entry in message.get("tool_calls").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]) {
            let Some(slot) = state.open(entry.clone()) else { return };
            let function = entry.get("function");
            if let Some(id) = entry.get("id").and_then(id_from) {
                state.set_id(slot, &id);
            }
            if let Some(name) = function.and_then(|f| f.get("name")).and_then(Value::as_str) {
                state.name_fragment(slot, name);
            }
            match function.and_then(|f| f.get("arguments")) {
                Some(Value::String(text)) => state.append(slot, text),
                None | Some(Value::Null) => {}
                Some(value) => state.set_value(slot, value.clone()),
            }
            state.end(slot, End::Complete);
        }
    }

    /// The stream ended: without its `done` chunk, it was cut off.
    pub fn end(&mut self, state: &mut Assembly) {
        if !self.done {
            state.stopped_early(NOT_DONE);
        }
    }
}
