//! OpenAI Chat Completions chunks, and the compatible backends' variations.
//!
//! Each `tool_calls` delta is matched to a call by one rule, in this order:
//!
//! 1. its `id` (non-empty), when a call already has it: some servers repeat the id (and the
//!    name) on every chunk (LiteLLM, BerriAI/litellm#20480; vLLM, spring-projects/spring-ai#5973),
//!    so a repeated id goes on with its call, unless the delta's arguments begin a value (a
//!    `{`, a `"`, or an object) after that call's arguments ended a whole one: no text goes
//!    on with a value that ended, so that is another call under the id (two calls under one
//!    id, or a server sending the whole call again at the end);
//! 2. its `index`, when a call has it, unless both carry different ids (a backend that
//!    numbers every call 0): indexes that start at 1 or skip are only keys;
//! 3. with neither, the latest call (Gemini's and Mistral's compatible endpoints send no
//!    `index`), unless the delta names a tool, with arguments of its own, after that call's
//!    arguments began;
//! 4. otherwise it starts a new call.
//!
//! A name that arrives after the arguments of a call that had none (by id, by index, or
//! alone on the next delta) is that call's: the call runs with its arguments, never the
//! name with `{}` beside a nameless error.
//!
//! An id names one call: a delta that repeats a call's id with another `index` than that
//! call's, another tool's name, or a new value after its whole arguments, is another call
//! (two calls, never one merged from both), which is not run unless it is the same call sent
//! again: as in a whole body, the first call under an id runs and another is a `malformed`
//! error, its result being one no answer could tell apart.
//!
//! Where a stream cannot tell two calls under one id from one, it reads one, and may differ
//! from the whole body of the same calls: without an `index`, the same tool's second call
//! under the id before the first one's arguments ended a value (the first sent with no
//! arguments, `""`, or the two interleaved) is, delta by delta, what a server that repeats
//! the id and the name on every chunk sends for one call. Its arguments are then the text of
//! both (a `parse` error: nothing runs) or the second's alone (the first sent none).
//!
//! A call's id may arrive on any delta (the first non-empty one is kept); its name may
//! arrive in fragments, and a fragment equal to the whole name is a repeat. Calls end when
//! the choice's `finish_reason` arrives (or `[DONE]`); `length` and `content_filter` cut off
//! the call that was still streaming. Every choice of a stream with several (`n > 1`) is
//! assembled apart, its calls tagged with it.

use std::collections::{BTreeMap, HashMap};

use serde_json::Value;

use super::{describe, index_of, Assembly, End};
use crate::calls::openai::{claimed_call, cut_reason, ends_turn};
use crate::calls::{id_from, CallParts, Format, Unsent};

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
    /// Each choice's calls, by the choice's `index`.
    choices: BTreeMap<usize, Choice>,
    error: Option<String>,
}

/// The calls of one choice.
#[derive(Debug, Default)]
struct Choice {
    /// The slot of each `index`, and the `index` of each slot: one index per call.
    by_index: HashMap<u64, usize>,
    index_of_slot: HashMap<usize, u64>,
    /// The slot of each id seen.
    by_id: HashMap<String, usize>,
    latest: Latest,
    /// The legacy `function_call`.
    legacy: Option<usize>,
    /// The `index` of each call that is no function call (OpenAI's free-form `custom`
    /// tools), and its id if it had one: not read, and neither are the deltas that go on
    /// with it (they carry no `type`).
    others: HashMap<u64, Option<String>>,
    finish_reason: Option<Value>,
    /// A call of any type (a function's, a `custom` tool's, the legacy `function_call`)
    /// arrived: a choice that says it called a tool and carried none lost its call.
    carried_calls: bool,
}

impl Chat {
    pub fn event(&mut self, state: &mut Assembly, event: &Value) {
        if let Some(error) = event.get("error").filter(|error| !error.is_null()) {
            self.error = Some(describe(Some(error)));
            return;
        }
        let Some(choices) = event.get("choices").and_then(Value::as_array) else { return };
        let wanted = state.options.get_choice();
        // A choice without `index` is known by its position in the chunk; two choices of one
        // chunk with one number cannot be told apart.
        let numbers: Vec<usize> = choices
            .iter()
            .enumerate()
            .map(|(position, choice)| index_of(choice.get("index")).map_or(position, |index| index as usize))
            .collect();
        for number in crate::calls::repeated(&numbers) {
            state.conflict_choice(number);
        }
        for (choice, &number) in choices.iter().zip(&numbers) {
            state.choice = number;
            let entry = self.choices.entry(number).or_default();
            // After the stream's end marker or the choice's finish_reason, a call is no part
            // of the response.
            let ended = if state.done {
                Some("the stream's end marker `[DONE]`")
            } else {
                entry.finish_reason.is_some().then_some("the choice's `finish_reason`")
            };
            match ended {
                Some(why) => entry.after_end(state, choice, why),
                None => {
                    entry.event(state, choice, number == wanted);
                    // The choice's `finish_reason` ends its calls now, not when the stream
                    // does: they are final (`calls`), and their last events come, at once.
                    if entry.finish_reason.is_some() {
                        entry.end(state, number, number == wanted, false, self.error.as_deref());
                    }
                }
            }
        }
        state.choice = wanted;
    }

    /// The stream ended: settle every call of every choice.
    pub fn end(&mut self, state: &mut Assembly, done: bool) {
        let wanted = state.options.get_choice();
        // A stream with no choice at all still ends (or is cut) as the choice read.
        self.choices.entry(wanted).or_default();
        for (&number, choice) in &self.choices {
            choice.end(state, number, number == wanted, done, self.error.as_deref());
        }
    }
}

impl Choice {
    fn event(&mut self, state: &mut Assembly, choice: &Value, read: bool) {
        // Some backends send the last chunk as a whole `message`.
        if let Some(delta) = choice.get("delta").or_else(|| choice.get("message")) {
            if read {
                for text in content_texts(delta) {
                    state.content(0, text, "");
                }
            }
            if let Some(list) = delta.get("tool_calls").and_then(Value::as_array) {
                self.carried_calls |= !list.is_empty();
                for entry in list {
                    self.entry(state, entry);
                }
            }
            if let Some(call) = delta.get("function_call").filter(|call| call.is_object()) {
                self.carried_calls = true;
                self.legacy(state, call);
            }
        }
        // SGLang sends `""` on every chunk before the last, as others send `null`.
        if let Some(reason) =
            choice.get("finish_reason").filter(|reason| reason.as_str().is_some_and(|r| !r.is_empty()))
        {
            self.finish_reason = Some(reason.clone());
        }
    }

    fn entry(&mut self, state: &mut Assembly, entry: &Value) {
        let index = index_of(entry.get("index"));
        // A numeric id is kept as its text, as in a whole body.
        let id_text = entry.get("id").and_then(id_from);
        let id = id_text.as_deref();
        // Only function calls take JSON arguments (as in a whole body).
        let kind = entry.get("type").and_then(Value::as_str);
        if kind.is_some_and(|kind| kind != "function") {
            if let Some(index) = index {
                self.others.insert(index, id_text.clone());
            }
            return;
        }
        match (kind, index) {
            (None, _) if self.goes_on_other(index, id) => return,
            // A function call at that index now (a backend that numbers every call 0): its
            // deltas are its own.
            (Some(_), Some(index)) => {
                self.others.remove(&index);
            }
            _ => {}
        }
        let function = entry.get("function");
        let name = function.and_then(|f| f.get("name")).and_then(Value::as_str).filter(|n| !n.is_empty());
        let arguments = function.and_then(|f| f.get("arguments"));
        let Some(slot) = self.route(state, (index, id, name), arguments) else { return };
        if let Some(id) = id {
            state.set_id(slot, id);
            // The latest call under the id: a later delta with it and no other key goes on
            // with that one.
            self.by_id.insert(id.to_owned(), slot);
        }
        if let Some(name) = name {
            state.name_fragment(slot, name);
        }
        match arguments {
            Some(Value::String(fragment)) => state.append(slot, fragment),
            None | Some(Value::Null) => {}
            // Some compatible backends send the arguments as an object.
            Some(value) => state.set_value(slot, value.clone()),
        }
    }

    /// Does a delta without a `type` (its index and id) go on with a call that is no
    /// function call: its index, and no other id than that call's?
    fn goes_on_other(&self, index: Option<u64>, id: Option<&str>) -> bool {
        let Some(other) = index.and_then(|index| self.others.get(&index)) else { return false };
        // An id where that call had none is its late id.
        match (id, other) {
            (Some(id), Some(had)) => id == had,
            _ => true,
        }
    }

    /// The call a delta (its index, id, name and `arguments`) belongs to, started if new;
    /// `None` when it is dropped.
    fn route(
        &mut self,
        state: &mut Assembly,
        (index, id, name): (Option<u64>, Option<&str>, Option<&str>),
        arguments: Option<&Value>,
    ) -> Option<usize> {
        let named = name.is_some();
        let (carries, starts_value) = match arguments {
            Some(Value::String(fragment)) => {
                (!fragment.is_empty(), fragment.trim_start().starts_with(['{', '"']))
            }
            None | Some(Value::Null) => (false, false),
            Some(_) => (true, true),
        };
        // Arguments that begin a value, under the id of a call whose arguments are whole
        // already: no text goes on with a value that ended, so this is another call that
        // reuses the id (two calls under one id, or the whole call sent again at the end).
        let another = |state: &Assembly, slot: usize| starts_value && state.holds_whole_arguments(slot);
        // Another tool's name after a call's name and arguments starts another call:
        // appended it would be lost, and the two calls' arguments merged. A name after the
        // arguments of a call that had none is that call's.
        let renamed = |state: &Assembly, slot: usize| {
            name.is_some_and(|name| state.name_done(slot) && state.calls[slot].name.as_deref() != Some(name))
        };
        if let Some(id) = id {
            if let Some(&slot) = self.by_id.get(id) {
                match (index, self.index_of_slot.get(&slot)) {
                    // The id again on another index: another call that reuses it.
                    (Some(index), Some(&had)) if had != index => {}
                    _ if renamed(state, slot) => {}
                    _ if another(state, slot) => return self.start(state, index),
                    (Some(index), None) => {
                        self.key(index, slot);
                        return Some(slot);
                    }
                    _ => return Some(slot),
                }
            }
        }
        match index {
            Some(index) => {
                if let Some(&slot) = self.by_index.get(&index) {
                    let reused = matches!((&state.calls[slot].id, id), (Some(had), Some(new)) if had != new);
                    // A new value under the call's id after its whole arguments: another call.
                    let again = id.is_some() && another(state, slot);
                    if !reused && !renamed(state, slot) && !again {
                        return Some(slot);
                    }
                }
            }
            None if id.is_none() => match self.latest {
                // Neither index nor id: a name with arguments after a call's arguments began
                // starts another call; a name alone is the late name of a call without one.
                Latest::Slot(slot)
                    if !(named && state.has_arguments(slot) && (carries || state.name_done(slot))) =>
                {
                    return Some(slot)
                }
                Latest::Dropped if !named => return None,
                _ => {}
            },
            None => {}
        }
        self.start(state, index)
    }

    /// Start a call, keyed by `index` if the delta had one; `None` when it is dropped (over
    /// the call limit).
    fn start(&mut self, state: &mut Assembly, index: Option<u64>) -> Option<usize> {
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

    /// A chunk of this choice after its end (`why`): each call in it that carries a name or
    /// arguments is an error, and so is a call it adds to; nothing else of it is read.
    fn after_end(&mut self, state: &mut Assembly, choice: &Value, why: &str) {
        let Some(delta) = choice.get("delta").or_else(|| choice.get("message")) else { return };
        if content_texts(delta).iter().any(|text| !text.is_empty()) {
            state.text_after_end_of(state.choice);
        }
        let entries = delta.get("tool_calls").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]);
        let legacy = delta.get("function_call").filter(|call| call.is_object());
        for entry in entries.iter().chain(legacy) {
            let function = entry.get("function").unwrap_or(entry);
            let name = function.get("name").and_then(Value::as_str).filter(|name| !name.is_empty());
            let carries = name.is_some()
                || match function.get("arguments") {
                    Some(Value::String(fragment)) => !fragment.is_empty(),
                    None | Some(Value::Null) => false,
                    Some(_) => true,
                };
            if !carries {
                continue;
            }
            let id = entry.get("id").and_then(id_from);
            let at_index = index_of(entry.get("index")).and_then(|index| self.by_index.get(&index).copied());
            let known = match (&id, at_index) {
                // Its index's call, when that call has its id: of calls under one id, the one
                // it goes on with.
                (Some(id), Some(slot)) if state.calls[slot].id.as_deref() == Some(id.as_str()) => Some(slot),
                (Some(id), _) if self.by_id.contains_key(id) => self.by_id.get(id).copied(),
                (_, Some(slot)) => Some(slot),
                (None, None) if legacy.is_some() => self.legacy,
                _ => None,
            };
            match known {
                Some(slot) if name.is_none_or(|name| state.calls[slot].name.as_deref() == Some(name)) => {
                    state.retract(
                        slot,
                        &format!("more of it arrived after {why}, so what was read of it may be incomplete"),
                    )
                }
                _ => {
                    let parts = CallParts {
                        id,
                        name: name.map(str::to_owned),
                        arguments: crate::calls::arguments_of(function.get("arguments")),
                        raw: entry.clone(),
                        ..CallParts::new(Format::OpenAi)
                    };
                    state.after_end(parts, why);
                }
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

    /// The stream ended: settle the calls of this choice (`number`; `read` when it is the
    /// choice read, whose stop is the response's).
    fn end(&self, state: &mut Assembly, number: usize, read: bool, done: bool, error: Option<&str>) {
        let by_data = cut_reason(self.finish_reason.as_ref());
        if let Some(reason) = claimed_call(self.finish_reason.as_ref()).filter(|_| !self.carried_calls) {
            state.claims_call(number, reason, Unsent::NoneSent);
        }
        let cut = match (error, by_data) {
            (Some(error), _) => Some(format!("an error event: {error}")),
            (None, Some(reason)) => Some(reason),
            (None, None) if self.finish_reason.is_some() || done => None,
            (None, None) => Some("the stream ended without a finish_reason or [DONE]".to_owned()),
        };
        match cut {
            None => {
                if ends_turn(self.finish_reason.as_ref()) {
                    state.ended_turn_of(number);
                }
                state.end_open_of(number, |_| End::Complete)
            }
            Some(reason) => {
                // The choice's own stop cuts its own calls; a stream cut off cuts them all.
                if error.is_none() && self.finish_reason.is_some() {
                    state.stopped_by_choice(number, &reason);
                } else if read {
                    state.stopped_early(&reason);
                }
                let complete = state.complete_before_cut(number);
                state.end_open_of(number, |call| {
                    if complete(call) {
                        End::Complete
                    } else {
                        End::Cut(reason.clone())
                    }
                });
            }
        }
    }
}

/// The texts of a delta's (or a message's) `content`: a string, or the `text` of each of its
/// text parts.
fn content_texts(delta: &Value) -> Vec<&str> {
    match delta.get("content") {
        Some(Value::String(text)) => vec![text],
        Some(Value::Array(parts)) => parts
            .iter()
            .filter(|part| {
                matches!(part.get("type").and_then(Value::as_str), None | Some("text") | Some("output_text"))
            })
            .filter_map(|part| part.get("text").and_then(Value::as_str))
            .collect(),
        _ => Vec::new(),
    }
}
