//! OpenAI Chat Completions chunks, and the compatible backends' variations.
//!
//! Each `tool_calls` delta is matched to a call by one rule, in this order:
//!
//! 1. its `id` (non-empty), when a call already has it: ids repeated on every chunk;
//! 2. its `index`, when a call has it, unless both carry different ids (a backend that
//!    numbers every call 0): indexes that start at 1 or skip are only keys;
//! 3. with neither, the latest call (Gemini's and Mistral's compatible endpoints send no
//!    `index`), unless the delta names a tool after that call's arguments began;
//! 4. otherwise it starts a new call.
//!
//! A call's id may arrive on any delta (the first non-empty one is kept); its name may
//! arrive in fragments, and a fragment equal to the whole name is a repeat. Calls end when
//! the choice's `finish_reason` arrives (or `[DONE]`); `length` and `content_filter` cut off
//! the call that was still streaming.

use std::collections::HashMap;

use serde_json::Value;

use super::{describe, index_of, Assembly, End};

/// Where deltas without a key go.
#[derive(Debug, Default, Clone, Copy)]
enum Latest {
    #[default]
    None,
    Slot(usize),
    /// The latest call was dropped (over the call limit): its fragments are dropped too.
    Dropped,
}

#[derive(Debug, Default)]
pub(super) struct Chat {
    /// The slot of each `index`, and the `index` of each slot: one index per call.
    by_index: HashMap<u64, usize>,
    index_of_slot: HashMap<usize, u64>,
    /// The slot of each id seen.
    by_id: HashMap<String, usize>,
    latest: Latest,
    /// The legacy `function_call`.
    legacy: Option<usize>,
    finish_reason: Option<String>,
    error: Option<String>,
}

impl Chat {
    pub fn event(&mut self, state: &mut Assembly, event: &Value) {
        if let Some(error) = event.get("error").filter(|error| !error.is_null()) {
            self.error = Some(describe(Some(error)));
            return;
        }
        let Some(choices) = event.get("choices").and_then(Value::as_array) else { return };
        let wanted = state.options.get_choice() as u64;
        let choice = choices
            .iter()
            .find(|choice| index_of(choice.get("index")) == Some(wanted))
            .or_else(|| choices.iter().find(|choice| wanted == 0 && choice.get("index").is_none()));
        let Some(choice) = choice else { return };
        // Some backends send the last chunk as a whole `message`.
        if let Some(delta) = choice.get("delta").or_else(|| choice.get("message")) {
            match delta.get("content") {
                Some(Value::String(text)) => state.content(0, text, ""),
                Some(Value::Array(parts)) => {
                    for part in parts {
                        let kind = part.get("type").and_then(Value::as_str);
                        if matches!(kind, None | Some("text") | Some("output_text")) {
                            if let Some(text) = part.get("text").and_then(Value::as_str) {
                                state.content(0, text, "");
                            }
                        }
                    }
                }
                _ => {}
            }
            if let Some(list) = delta.get("tool_calls").and_then(Value::as_array) {
                for entry in list {
                    self.entry(state, entry);
                }
            }
            if let Some(call) = delta.get("function_call").filter(|call| call.is_object()) {
                self.legacy(state, call);
            }
        }
        if let Some(reason) = choice.get("finish_reason").and_then(Value::as_str) {
            self.finish_reason = Some(reason.chars().take(60).collect());
        }
    }

    fn entry(&mut self, state: &mut Assembly, entry: &Value) {
        // Only function calls take JSON arguments (as in a whole body).
        if entry.get("type").and_then(Value::as_str).is_some_and(|kind| kind != "function") {
            return;
        }
        let index = index_of(entry.get("index"));
        let id = entry.get("id").and_then(Value::as_str).filter(|id| !id.is_empty());
        let function = entry.get("function");
        let name = function.and_then(|f| f.get("name")).and_then(Value::as_str).filter(|n| !n.is_empty());
        let Some(slot) = self.route(state, index, id, name.is_some()) else { return };
        if let Some(id) = id {
            state.set_id(slot, id);
            self.by_id.entry(id.to_owned()).or_insert(slot);
        }
        if let Some(name) = name {
            state.name_fragment(slot, name);
        }
        match function.and_then(|f| f.get("arguments")) {
            Some(Value::String(fragment)) => state.append(slot, fragment),
            None | Some(Value::Null) => {}
            // Some compatible backends send the arguments as an object.
            Some(value) => state.set_value(slot, value.clone()),
        }
    }

    /// The call a delta belongs to, started if new; `None` when it is dropped.
    fn route(
        &mut self,
        state: &mut Assembly,
        index: Option<u64>,
        id: Option<&str>,
        named: bool,
    ) -> Option<usize> {
        if let Some(id) = id {
            if let Some(&slot) = self.by_id.get(id) {
                if let Some(index) = index {
                    self.key(index, slot);
                }
                return Some(slot);
            }
        }
        match index {
            Some(index) => {
                if let Some(&slot) = self.by_index.get(&index) {
                    let reused = matches!((&state.calls[slot].id, id), (Some(had), Some(new)) if had != new);
                    if !reused {
                        return Some(slot);
                    }
                }
            }
            None if id.is_none() => match self.latest {
                Latest::Slot(slot) if !(named && state.has_arguments(slot)) => return Some(slot),
                Latest::Dropped if !named => return None,
                _ => {}
            },
            None => {}
        }
        match state.open(Value::Null) {
            Some(slot) => {
                if let Some(index) = index {
                    self.key(index, slot);
                }
                self.latest = Latest::Slot(slot);
                Some(slot)
            }
            None => {
                self.latest = Latest::Dropped;
                None
            }
        }
    }

    /// Key `slot` by `index` (replacing the key of the call that had it, and its own).
    fn key(&mut self, index: u64, slot: usize) {
        if let Some(old) = self.index_of_slot.insert(slot, index) {
            self.by_index.remove(&old);
        }
        if let Some(owner) = self.by_index.insert(index, slot) {
            if owner != slot {
                self.index_of_slot.remove(&owner);
            }
        }
    }

    /// The legacy streamed `function_call`: one call, no id.
    fn legacy(&mut self, state: &mut Assembly, call: &Value) {
        let slot = match self.legacy {
            Some(slot) => slot,
            None => match state.open(Value::Null) {
                Some(slot) => {
                    self.legacy = Some(slot);
                    slot
                }
                None => return,
            },
        };
        if let Some(name) = call.get("name").and_then(Value::as_str) {
            state.name_fragment(slot, name);
        }
        if let Some(Value::String(fragment)) = call.get("arguments") {
            state.append(slot, fragment);
        }
    }

    /// The stream ended: settle every call.
    pub fn end(&mut self, state: &mut Assembly, done: bool) {
        let cut = match (&self.error, self.finish_reason.as_deref()) {
            (Some(error), _) => Some(format!("an error event: {error}")),
            (None, Some(reason @ ("length" | "content_filter"))) => Some(format!("finish_reason `{reason}`")),
            (None, Some(_)) => None,
            (None, None) if done => None,
            (None, None) => Some("the stream ended without a finish_reason or [DONE]".to_owned()),
        };
        match cut {
            None => state.end_open(|_| End::Complete),
            Some(reason) => {
                state.stopped_early(&reason);
                // Calls are written one after another: a call that received nothing since a
                // later one started was complete; the one still streaming was cut off.
                let latest = state.latest_start();
                state.end_open(
                    |call| if call.last < latest { End::Complete } else { End::Cut(reason.clone()) },
                );
            }
        }
    }
}
