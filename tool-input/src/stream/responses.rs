//! OpenAI Responses events.
//!
//! A `function_call` item starts with `response.output_item.added`; its arguments come in
//! `response.function_call_arguments.delta` events (some servers, such as LM Studio, send
//! none), and `response.function_call_arguments.done` or `response.output_item.done` end
//! it with the whole arguments, which win over the fragments. Events name their call by
//! `item_id`, else by `output_index`. `response.completed` ends the response;
//! `response.incomplete` (for example at `max_output_tokens`), `response.failed` and
//! `error` cut off the calls still open.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::{index_of, Assembly, End};
use crate::calls::responses::{cut_reason, item_cut_reason};
use crate::calls::{id_from, CallParts, Format};

#[derive(Debug, Default)]
pub(super) struct Responses {
    /// The slot of each call's item id, and of its output index.
    by_item: HashMap<String, usize>,
    by_output: HashMap<u64, usize>,
    /// The output index of each slot, when known: an item id repeated on another output
    /// index names another call.
    output_of: HashMap<usize, u64>,
    /// Items not read (over the call limit): their deltas are dropped with them.
    dropped: HashSet<String>,
    /// The terminal event arrived.
    ended: bool,
    /// The argument text each call was read with, by slot: a later closing event must
    /// agree with it.
    read_with: HashMap<usize, String>,
}

impl Responses {
    pub fn event(&mut self, state: &mut Assembly, event: &Value) {
        let kind = event.get("type").and_then(Value::as_str).unwrap_or("");
        let output_index = index_of(event.get("output_index"));
        if self.ended {
            self.after_end(state, event, kind, output_index);
            return;
        }
        match kind {
            "response.output_item.added" => {
                let Some(item) = event.get("item").filter(|item| is_function_call(item)) else { return };
                // The same item again (same id, same output index): a repeat, not a call.
                let repeat = match item.get("id").and_then(Value::as_str) {
                    Some(id) => self
                        .by_item
                        .get(id)
                        .is_some_and(|slot| self.output_of.get(slot).copied() == output_index),
                    None => output_index.is_some_and(|output| self.by_output.contains_key(&output)),
                };
                if repeat {
                    return;
                }
                let Some(slot) = state.open(item.clone()) else {
                    self.dropped.extend(item.get("id").and_then(Value::as_str).map(str::to_owned));
                    return;
                };
                self.key(item.get("id").and_then(Value::as_str), output_index, slot);
                self.describe_call(state, slot, item);
            }
            "response.function_call_arguments.delta" => {
                let delta = event.get("delta").and_then(Value::as_str);
                match (self.find(event, output_index), delta) {
                    (Some(slot), Some(delta)) => state.append(slot, delta),
                    (None, Some(_))
                        if event
                            .get("item_id")
                            .and_then(Value::as_str)
                            .is_some_and(|item| self.dropped.contains(item)) => {}
                    // Input for an item that never started (its start was lost), or none.
                    _ => state.damage(
                        "a `response.function_call_arguments.delta` of the stream is for an item that did not start, or has no `delta`",
                    ),
                }
            }
            "response.function_call_arguments.done" => {
                let Some(slot) = self.find_or_open(state, event, output_index, event) else { return };
                let arguments = event.get("arguments").and_then(Value::as_str);
                if self.contradicts(state, slot, arguments, kind) {
                    return;
                }
                if let Some(name) = event.get("name").and_then(Value::as_str) {
                    state.name_fragment(slot, name);
                }
                if let Some(arguments) = arguments {
                    state.replace_text(slot, arguments);
                    // The call is read now, before `output_item.done` brings the whole item.
                    state.set_raw_field(slot, "arguments", Value::String(arguments.to_owned()));
                }
                self.complete(state, slot);
            }
            "response.output_item.done" => {
                let Some(item) = event.get("item").filter(|item| is_function_call(item)) else { return };
                let Some(slot) = self.find_or_open(state, item, output_index, item) else { return };
                if self.contradicts(state, slot, item.get("arguments").and_then(Value::as_str), kind) {
                    return;
                }
                self.close_item(state, slot, item);
            }
            "response.output_text.delta" => {
                if let Some(delta) = event.get("delta").and_then(Value::as_str) {
                    let part =
                        (output_index.unwrap_or(0) << 20) | index_of(event.get("content_index")).unwrap_or(0);
                    state.content(part, delta, "\n");
                }
            }
            // A `response.completed` whose response has another status did not complete.
            "response.completed"
                if event.get("response").and_then(|r| r.get("status")).is_none_or(|s| s == "completed") =>
            {
                self.ended = true;
                // The response completed (the event says so when its response gives no
                // status), as a whole body whose status says so (`calls::responses::ends_turn`).
                state.ended_turn_of(state.choice);
                let open: Vec<usize> =
                    self.by_item.values().chain(self.by_output.values()).copied().collect();
                for slot in open {
                    self.complete(state, slot);
                }
                state.end_open(|_| End::Complete);
                let output = event.get("response").and_then(|r| r.get("output")).and_then(Value::as_array);
                self.settle_output(state, output.map(Vec::as_slice).unwrap_or(&[]), kind);
            }
            "response.completed" | "response.incomplete" | "response.failed" | "response.cancelled" => {
                self.ended = true;
                // The response the event carries says why, as a whole body would.
                let status = kind.trim_start_matches("response.");
                let response = event.get("response").cloned().unwrap_or_default();
                let response = match response {
                    Value::Object(mut map) => {
                        map.entry("status").or_insert_with(|| Value::String(status.to_owned()));
                        Value::Object(map)
                    }
                    _ => serde_json::json!({"status": status}),
                };
                let reason = cut_reason(&response).unwrap_or_else(|| kind.to_owned());
                state.stopped_by_response(&reason);
                state.end_open(|_| End::Cut(reason.clone()));
                let output = response.get("output").and_then(Value::as_array);
                self.settle_output(state, output.map(Vec::as_slice).unwrap_or(&[]), kind);
            }
            "error" => {
                self.ended = true;
                let error = event.get("error").or(event.get("code"));
                let reason = format!("an error event: {}", crate::calls::describe(error));
                state.stopped_early(&reason);
                state.end_open(|_| End::Cut(reason.clone()));
            }
            _ => {}
        }
    }

    /// Close the call at `slot` with its whole item: its id, name and arguments, and the
    /// item as its record. An item that says it did not complete was cut, and so was the
    /// response.
    fn close_item(&mut self, state: &mut Assembly, slot: usize, item: &Value) {
        self.describe_call(state, slot, item);
        state.set_raw(slot, item.clone());
        match item_cut_reason(item) {
            Some(reason) => {
                state.stopped_by_response(&reason);
                state.end(slot, End::Cut(reason));
            }
            None => self.complete(state, slot),
        }
    }

    /// The whole response a terminal event carries (`output`): each call read from the
    /// events must agree with its item, and a `function_call` item that no event brought
    /// (a server or proxy that sends the response whole only at its end) is a call of the
    /// response, as the whole body reads it (cut when the response was), never dropped in
    /// silence.
    fn settle_output(&mut self, state: &mut Assembly, output: &[Value], kind: &str) {
        for (position, item) in output.iter().enumerate().filter(|(_, item)| is_function_call(item)) {
            let arguments = item.get("arguments").and_then(Value::as_str);
            match self.item_slot(item, position as u64) {
                Some(slot) => {
                    self.contradicts(state, slot, arguments, kind);
                }
                None => {
                    let Some(slot) = state.open(item.clone()) else { return };
                    self.key(item.get("id").and_then(Value::as_str), Some(position as u64), slot);
                    self.close_item(state, slot, item);
                }
            }
        }
    }

    /// The call an item of the completed response's `output` (at `position`, its output
    /// index) was read as: by its id, else by its output index when the call there was
    /// started under no other item id.
    fn item_slot(&self, item: &Value, position: u64) -> Option<usize> {
        let item_id = item.get("id").and_then(Value::as_str);
        if let Some(&slot) = item_id.and_then(|item_id| self.by_item.get(item_id)) {
            return Some(slot);
        }
        let slot = *self.by_output.get(&position)?;
        let other_id = self.by_item.iter().any(|(id, &had)| had == slot && Some(id.as_str()) != item_id);
        (!other_id).then_some(slot)
    }

    /// End the call at `slot` as complete, keeping the text it is read with.
    fn complete(&mut self, state: &mut Assembly, slot: usize) {
        if state.open_call(slot).is_none() {
            return;
        }
        let text = state.arguments_text(slot).unwrap_or_default().to_owned();
        self.read_with.insert(slot, text);
        state.end(slot, End::Complete);
    }

    /// Does a closing event's `arguments` (of event `kind`) disagree with what arrived of the
    /// call before (its fragments, or the text it was read with)? Then the call is an error:
    /// which one is meant cannot be told.
    fn contradicts(&self, state: &mut Assembly, slot: usize, arguments: Option<&str>, kind: &str) -> bool {
        let Some(arguments) = arguments else { return false };
        let (before, open) = match (state.open_call(slot).is_some(), self.read_with.get(&slot)) {
            (true, _) => (state.arguments_text(slot).unwrap_or_default().to_owned(), true),
            (false, Some(text)) => (text.clone(), false),
            (false, None) => return false,
        };
        if !disagree(&before, arguments, open) {
            return false;
        }
        let earlier =
            if open { "the argument deltas before it" } else { "the arguments the call was read with" };
        state.retract(slot, &format!("the stream sent its arguments twice and they disagree: `{kind}` does not say what {earlier} said, so which is meant cannot be told"));
        true
    }

    /// An event after the response ended: a call in it, or more of one, is an error.
    fn after_end(&mut self, state: &mut Assembly, event: &Value, kind: &str, output_index: Option<u64>) {
        let why = "the response's end (`response.completed`, `.incomplete` or `.failed`)";
        // Text is not read after the end: the response's status says nothing of where its
        // text ended.
        if kind == "response.output_text.delta"
            && event.get("delta").and_then(Value::as_str).is_some_and(|delta| !delta.is_empty())
        {
            state.text_after_end_of(state.choice);
        }
        match kind {
            "response.output_item.added" | "response.output_item.done" => {
                let Some(item) = event.get("item").filter(|item| is_function_call(item)) else { return };
                match self.find(item, output_index) {
                    // The same call closed again, agreeing, changes nothing.
                    Some(slot) => {
                        self.contradicts(state, slot, item.get("arguments").and_then(Value::as_str), kind);
                    }
                    None => {
                        let parts = CallParts {
                            id: item.get("call_id").and_then(id_from),
                            name: item.get("name").and_then(Value::as_str).map(str::to_owned),
                            raw: item.clone(),
                            ..CallParts::new(Format::Responses)
                        };
                        state.after_end(parts, why);
                    }
                }
            }
            "response.function_call_arguments.delta" | "response.function_call_arguments.done" => {
                let delta = event.get("delta").and_then(Value::as_str).filter(|delta| !delta.is_empty());
                match (self.find(event, output_index), delta) {
                    (Some(slot), Some(_)) => state.retract(
                        slot,
                        &format!("more of its arguments arrived after {why}, so what was read of it may be incomplete"),
                    ),
                    (Some(slot), None) => {
                        self.contradicts(state, slot, event.get("arguments").and_then(Value::as_str), kind);
                    }
                    (None, _) => state.after_end(CallParts::new(Format::Responses), why),
                }
            }
            _ => {}
        }
    }

    /// Take the id, name and arguments an item carries.
    fn describe_call(&self, state: &mut Assembly, slot: usize, item: &Value) {
        // `call_id` is what `function_call_output` answers; `id` names the item.
        if let Some(id) = item.get("call_id").and_then(Value::as_str) {
            state.set_id(slot, id);
        }
        if let Some(name) = item.get("name").and_then(Value::as_str) {
            state.name_fragment(slot, name);
        }
        match item.get("arguments") {
            Some(Value::String(arguments)) if !arguments.is_empty() => state.replace_text(slot, arguments),
            Some(Value::Object(_)) => state.set_value(slot, item["arguments"].clone()),
            _ => {}
        }
    }

    /// The call an event names: by `item_id` (or an item's `id`), else by `output_index`.
    fn find(&self, event: &Value, output_index: Option<u64>) -> Option<usize> {
        let item_id = event.get("item_id").or_else(|| event.get("id")).and_then(Value::as_str);
        if let Some(&slot) = item_id.and_then(|item_id| self.by_item.get(item_id)) {
            let other =
                matches!((output_index, self.output_of.get(&slot)), (Some(sent), Some(&had)) if sent != had);
            if !other {
                return Some(slot);
            }
        }
        self.by_output.get(&output_index?).copied()
    }

    fn key(&mut self, item_id: Option<&str>, output_index: Option<u64>, slot: usize) {
        if let Some(item_id) = item_id {
            self.by_item.insert(item_id.to_owned(), slot);
        }
        if let Some(output_index) = output_index {
            self.by_output.insert(output_index, slot);
            self.output_of.insert(slot, output_index);
        }
    }

    /// The call an event names, or a new one when its start was never seen.
    fn find_or_open(
        &mut self,
        state: &mut Assembly,
        event: &Value,
        output_index: Option<u64>,
        raw: &Value,
    ) -> Option<usize> {
        if let Some(slot) = self.find(event, output_index) {
            return Some(slot);
        }
        let slot = state.open(raw.clone())?;
        self.key(
            event.get("item_id").or_else(|| event.get("id")).and_then(Value::as_str),
            output_index,
            slot,
        );
        Some(slot)
    }

    /// The stream ended: calls still open were cut off unless the response completed.
    pub fn end(&mut self, state: &mut Assembly) {
        if !self.ended {
            state.stopped_early("the stream ended before response.completed");
            state.end_open(|_| End::Cut("the stream ended before response.completed".to_owned()));
        }
    }
}

/// Do a closing event's `arguments` disagree with the text that arrived `before` (the
/// fragments of a call still `open`, or the text it was read with)? The same text, or text
/// that reads (leniently) as the same value, agrees; so does the whole text of fragments that had not formed a value
/// yet (a closing event completes them), and any text when no fragment came.
fn disagree(before: &str, arguments: &str, open: bool) -> bool {
    if before == arguments || (open && before.trim().is_empty()) {
        return false;
    }
    let read =
        |text: &str| crate::parse::parse(text, &crate::parse::ParseOptions::default()).map(|p| p.value);
    match (read(before), read(arguments)) {
        (Ok(a), Ok(b)) => a != b,
        (Err(_), _) if open => !arguments.starts_with(before),
        _ => true,
    }
}

fn is_function_call(item: &Value) -> bool {
    item.get("type").and_then(Value::as_str) == Some("function_call")
}
