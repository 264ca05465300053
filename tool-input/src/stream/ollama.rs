//! Ollama's native `/api/chat` stream: one JSON object per line, `message.content` text,
//! and `message.tool_calls` entries that are whole calls (arguments an object, mostly no
//! id), final as they arrive.

use serde_json::Value;

use super::{Assembly, End};

#[derive(Debug, Default)]
pub(super) struct Ollama;

impl Ollama {
    pub fn event(&mut self, state: &mut Assembly, event: &Value) {
        let Some(message) = event.get("message") else { return };
        if let Some(text) = message.get("content").and_then(Value::as_str) {
            state.content(0, text, "");
        }
        for entry in message.get("tool_calls").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]) {
            let Some(slot) = state.open(entry.clone()) else { return };
            let function = entry.get("function");
            if let Some(id) = entry.get("id").and_then(Value::as_str) {
                state.set_id(slot, id);
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
}
