//! Anthropic Messages events.
//!
//! A `tool_use` block starts with `content_block_start`, its input arrives in
//! `input_json_delta` fragments, and `content_block_stop` ends it. `message_start` may
//! carry whole `tool_use` blocks (programmatic tool calling): those are final at once. A
//! second `message_start` while a block is open cuts that block off, as does
//! `stop_reason: "max_tokens"` (or `model_context_window_exceeded`, `refusal`) when the
//! message stops, an `error` event, or the end of the stream before `message_stop`.
//! Server-side tool blocks (`server_tool_use`, …) ran at the provider and are not read.
//!
//! One id is one call: a `tool_use` whose id an earlier one of the stream has (in
//! `message_start` and again as a block) is dropped when it is the same call sent again, and
//! otherwise makes both errors. Input for a block after its `content_block_stop`, and a call
//! after `message_stop`, are errors too, never calls nor input dropped in silence.
//!
//! An event that cannot be read as what its type says (a `content_block_start` without
//! its index or block, input for a block that never started) is damaged, as an event that
//! is not JSON is: an error, never a call lost in silence.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::{describe, index_of, Assembly, End};
use crate::calls::anthropic::{claimed_call, cut_reason, ends_turn, is_tool_use};
use crate::calls::{id_from, CallParts, Format, Unsent};

/// The event types of the Messages stream.
pub(super) const EVENTS: &[&str] = &[
    "message_start",
    "content_block_start",
    "content_block_delta",
    "content_block_stop",
    "message_delta",
    "message_stop",
    "ping",
];

#[derive(Debug, Default)]
pub(super) struct Anthropic {
    /// The open `tool_use` blocks of the current message: block index and slot.
    blocks: Vec<(u64, usize)>,
    /// How many messages started (to tell their text blocks apart).
    messages: u64,
    stop_reason: Option<Value>,
    /// `message_stop` arrived for the current message.
    stopped: bool,
    /// The indexes of the blocks that started in the current message (of any type).
    started: HashSet<u64>,
    /// The `tool_use` blocks of the current message that stopped: block index and slot.
    ended: HashMap<u64, usize>,
    /// The slot of each call id of the stream: one id is one call.
    ids: HashMap<String, usize>,
    /// A block of a call (of any tool type) arrived: a message that stops for a call and
    /// carried none lost it.
    carried_calls: bool,
}

impl Anthropic {
    pub fn event(&mut self, state: &mut Assembly, event: &Value) {
        let kind = event.get("type").and_then(Value::as_str).unwrap_or("");
        let index = index_of(event.get("index"));
        if self.stopped && kind != "message_start" {
            self.after_stop(state, event, kind, index);
            return;
        }
        match kind {
            "message_start" => {
                if self.messages > 0 && !self.stopped {
                    self.cut_open(state, "a new message started before this one stopped".to_owned());
                }
                self.blocks.clear();
                self.started.clear();
                self.ended.clear();
                self.messages += 1;
                self.stopped = false;
                self.stop_reason = None;
                let content = event.get("message").and_then(|m| m.get("content")).and_then(Value::as_array);
                for (position, block) in content.map(Vec::as_slice).unwrap_or(&[]).iter().enumerate() {
                    self.carried_calls |= is_tool_use(block);
                    match block.get("type").and_then(Value::as_str) {
                        Some("tool_use") => {
                            if let Some(slot) = self.start(state, block) {
                                if let Some(input) = block.get("input").filter(|input| !input.is_null()) {
                                    state.set_value(slot, input.clone());
                                }
                                state.end(slot, End::Complete);
                            }
                        }
                        Some("text") => {
                            if let Some(text) = block.get("text").and_then(Value::as_str) {
                                state.content(self.part(position as u64), text, "\n");
                            }
                        }
                        _ => {}
                    }
                }
            }
            "content_block_start" => {
                let (Some(index), Some(block)) =
                    (index, event.get("content_block").filter(|b| b.is_object()))
                else {
                    state.damage("a `content_block_start` event of the stream has no index or block");
                    return;
                };
                self.started.insert(index);
                self.carried_calls |= is_tool_use(block);
                if let Some(position) = self.blocks.iter().position(|(key, _)| *key == index) {
                    let slot = self.blocks[position].1;
                    let same = state.calls.get(slot).is_some_and(|call| {
                        call.bytes == 0 && call.id.as_deref() == block.get("id").and_then(Value::as_str)
                    });
                    // The same start again before any input: a repeat.
                    if same {
                        return;
                    }
                    // Another block at an open block's index: which input is whose cannot be
                    // told, so neither is read.
                    self.blocks.remove(position);
                    state.end(slot, End::Cut("another block started at its index".to_owned()));
                    state.damage(&format!(
                        "a `content_block_start` of the stream is for block {index}, which was still open"
                    ));
                    return;
                }
                match block.get("type").and_then(Value::as_str) {
                    Some("tool_use") => {
                        if let Some(slot) = self.start(state, block) {
                            // Usually `{}`, with the input in deltas; the input when none come.
                            if let Some(input) = block.get("input").filter(|input| !input.is_null()) {
                                state.set_initial(slot, input.clone());
                            }
                            self.blocks.push((index, slot));
                        }
                    }
                    Some("text") => {
                        let text = block.get("text").and_then(Value::as_str).unwrap_or("");
                        state.content(self.part(index), text, "\n");
                    }
                    _ => {}
                }
            }
            "content_block_delta" => {
                let (Some(index), Some(delta)) = (index, event.get("delta")) else {
                    state.damage("a `content_block_delta` event of the stream has no index or delta");
                    return;
                };
                match delta.get("type").and_then(Value::as_str) {
                    Some("input_json_delta") => {
                        let fragment = delta.get("partial_json").and_then(Value::as_str);
                        match (self.slot(index), fragment) {
                            (Some(slot), Some(fragment)) => state.append(slot, fragment),
                            // Input after the block stopped: what was read may lack it.
                            (None, Some(_)) if self.ended.contains_key(&index) => state.retract(
                                self.ended[&index],
                                "more of its input arrived after its `content_block_stop`, so the input it was read with may be incomplete",
                            ),
                            // A server tool's input, or a call dropped over the call limit.
                            (None, Some(_)) if self.started.contains(&index) => {}
                            (_, _) => state.damage(&format!(
                                "an `input_json_delta` of the stream is for block {index}, which did not start, or has no `partial_json`"
                            )),
                        }
                    }
                    Some("text_delta") => {
                        if let Some(text) = delta.get("text").and_then(Value::as_str) {
                            state.content(self.part(index), text, "\n");
                        }
                    }
                    _ => {}
                }
            }
            "content_block_stop" => {
                let Some(index) = index else { return };
                if let Some(position) = self.blocks.iter().position(|(key, _)| *key == index) {
                    let (_, slot) = self.blocks.remove(position);
                    self.ended.insert(index, slot);
                    state.end(slot, End::Complete);
                }
            }
            "message_delta" => {
                if let Some(reason) =
                    event.get("delta").and_then(|d| d.get("stop_reason")).filter(|reason| reason.is_string())
                {
                    self.stop_reason = Some(reason.clone());
                }
            }
            "message_stop" => {
                self.stopped = true;
                if let Some(reason) = claimed_call(self.stop_reason.as_ref()).filter(|_| !self.carried_calls)
                {
                    state.claims_call(state.choice, reason, Unsent::NoneSent);
                }
                match cut_reason(self.stop_reason.as_ref()) {
                    Some(reason) => {
                        state.stopped_by_response(&reason);
                        self.cut_open(state, reason);
                    }
                    // The message is complete, so are its blocks, even without their stop.
                    _ => {
                        for (_, slot) in std::mem::take(&mut self.blocks) {
                            state.end(slot, End::Complete);
                        }
                    }
                }
            }
            "error" => {
                let reason = format!("an error event: {}", describe(event.get("error")));
                state.stopped_early(&reason);
                self.cut_open(state, reason);
            }
            _ => {}
        }
    }

    /// An event after `message_stop` and before another `message_start`: a call, or input
    /// for one, is an error; anything else is not read (text makes the stop reason say
    /// nothing of where the text ended).
    fn after_stop(&mut self, state: &mut Assembly, event: &Value, kind: &str, index: Option<u64>) {
        let why = "the message's `message_stop`";
        let text = match kind {
            "content_block_start" => event.get("content_block").and_then(|block| block.get("text")),
            "content_block_delta" => event.get("delta").and_then(|delta| delta.get("text")),
            _ => None,
        };
        if text.and_then(Value::as_str).is_some_and(|text| !text.is_empty()) {
            state.text_after_end_of(state.choice);
        }
        match kind {
            "content_block_start" => {
                let Some(block) = event.get("content_block") else { return };
                if block.get("type").and_then(Value::as_str) == Some("tool_use") {
                    let parts = CallParts {
                        id: block.get("id").and_then(id_from),
                        name: block.get("name").and_then(Value::as_str).map(str::to_owned),
                        raw: block.clone(),
                        ..CallParts::new(Format::Anthropic)
                    };
                    state.after_end(parts, why);
                }
            }
            "content_block_delta"
                if event.get("delta").and_then(|d| d.get("type")).and_then(Value::as_str)
                    == Some("input_json_delta") =>
            {
                match index.and_then(|index| self.ended.get(&index)) {
                    Some(&slot) => state.retract(
                        slot,
                        "more of its input arrived after the message's `message_stop`, so the input it was read with may be incomplete",
                    ),
                    None => state.after_end(CallParts::new(Format::Anthropic), why),
                }
            }
            _ => {}
        }
    }

    /// Start a call for a `tool_use` block.
    fn start(&mut self, state: &mut Assembly, block: &Value) -> Option<usize> {
        let id = block.get("id").and_then(id_from);
        // One id is one call: another call with it is a repeat or a conflict.
        let first = id.as_ref().and_then(|id| self.ids.get(id).copied());
        let slot = match first {
            Some(first) => state.open_repeat(block.clone(), first),
            None => state.open(block.clone())?,
        };
        if let Some(id) = id {
            state.set_id(slot, &id);
            if first.is_none() {
                self.ids.insert(id, slot);
            }
        }
        if let Some(name) = block.get("name").and_then(Value::as_str) {
            state.name_fragment(slot, name);
        }
        Some(slot)
    }

    fn slot(&self, index: u64) -> Option<usize> {
        self.blocks.iter().find(|(key, _)| *key == index).map(|&(_, slot)| slot)
    }

    /// A key for the text of block `index` of the current message.
    fn part(&self, index: u64) -> u64 {
        (self.messages << 32) ^ index
    }

    fn cut_open(&mut self, state: &mut Assembly, reason: String) {
        for (_, slot) in std::mem::take(&mut self.blocks) {
            state.end(slot, End::Cut(reason.clone()));
        }
    }

    /// The stream ended: blocks still open were cut off.
    pub fn end(&mut self, state: &mut Assembly) {
        if !self.stopped {
            state.stopped_early("the stream ended before message_stop");
        } else if ends_turn(self.stop_reason.as_ref()) {
            // The last message's reason: it ended the text.
            state.ended_turn_of(state.choice);
        }
        self.cut_open(state, "the stream ended before message_stop".to_owned());
    }
}
