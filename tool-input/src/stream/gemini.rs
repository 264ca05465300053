//! Gemini `streamGenerateContent` chunks.
//!
//! A `functionCall` part usually holds a whole call (`name`, `args`, optional `id`): final
//! at once. With argument streaming (Vertex), a call starts with `name` and
//! `willContinue: true`, and later `functionCall` parts without a name bring `partialArgs`:
//! each a JSON path (`$.recipe.steps[0]`) and a `stringValue`, `numberValue`, `boolValue`
//! or `nullValue`; a string with `willContinue` goes on in the next entry for the same
//! path. The first `functionCall` part without `willContinue`, a new named call, or
//! `finishReason: STOP` ends it; any other finish reason (`MAX_TOKENS`, `SAFETY`, …), an
//! `error` chunk or the end of the stream cuts it off. A call after its candidate's
//! `finishReason` is an error.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::assembly::ValueStep;
use super::{describe, index_of, Assembly, End};
use crate::calls::gemini::{cut_reason, ends_turn, refused_call};
use crate::calls::{id_from, CallParts, Format};

#[derive(Debug, Default)]
pub(super) struct Gemini {
    /// Each candidate's calls, by the candidate's `index`: every candidate of a stream with
    /// several is assembled apart, its calls tagged with it.
    candidates: BTreeMap<usize, Candidate>,
}

/// The calls of one candidate.
#[derive(Debug, Default)]
struct Candidate {
    /// The call whose arguments are streaming.
    open: Option<usize>,
    /// The streaming call was dropped (over the call limit): its parts are dropped too.
    dropping: bool,
    /// The path of a string value that goes on in the next entry.
    continuing: Option<String>,
    /// A finish reason arrived.
    finished: bool,
    /// A `functionCall` part arrived: a candidate Gemini says refused a call, with none,
    /// lost it.
    carried_calls: bool,
}

/// One step of a JSON path.
enum Step<'p> {
    Key(&'p str),
    Index(usize),
}

impl Gemini {
    pub fn event(&mut self, state: &mut Assembly, event: &Value) {
        // An error mid-stream comes as a chunk holding only an `error` object: the response
        // failed, so the call streaming is cut off and no call of it runs by default.
        if let Some(error) = event.get("error").filter(|error| !error.is_null()) {
            let reason = format!("an error event: {}", describe(Some(error)));
            state.stopped_early(&reason);
            for candidate in self.candidates.values_mut() {
                candidate.continuing = None;
                if let Some(slot) = candidate.open.take() {
                    state.end(slot, End::Cut(reason.clone()));
                }
            }
            return;
        }
        let Some(candidates) = event.get("candidates").and_then(Value::as_array) else { return };
        let wanted = state.options.get_choice();
        // A candidate without `index` is known by its position in the chunk; two candidates
        // of one chunk with one number cannot be told apart.
        let numbers: Vec<usize> = candidates
            .iter()
            .enumerate()
            .map(|(position, candidate)| {
                index_of(candidate.get("index")).map_or(position, |index| index as usize)
            })
            .collect();
        for number in crate::calls::repeated(&numbers) {
            state.conflict_choice(number);
        }
        for (candidate, &number) in candidates.iter().zip(&numbers) {
            state.choice = number;
            self.candidates.entry(number).or_default().event(state, candidate, number == wanted);
        }
        state.choice = wanted;
    }

    /// The stream ended: a call still streaming was cut off.
    pub fn end(&mut self, state: &mut Assembly) {
        let wanted = state.options.get_choice();
        let finished = self.candidates.get(&wanted).is_some_and(|candidate| candidate.finished);
        if !finished {
            state.stopped_early("the stream ended before a finishReason");
        }
        for candidate in self.candidates.values_mut() {
            if let Some(slot) = candidate.open.take() {
                state.end(slot, End::Cut("the stream ended before a finishReason".to_owned()));
            }
        }
    }
}

impl Candidate {
    fn event(&mut self, state: &mut Assembly, candidate: &Value, read: bool) {
        let parts = candidate.get("content").and_then(|c| c.get("parts")).and_then(Value::as_array);
        if self.finished {
            // After the candidate's finishReason, a call is no part of the response, and
            // text is not read: the reason says nothing of where the text ended.
            for part in parts.map(Vec::as_slice).unwrap_or(&[]) {
                let thought = part.get("thought").and_then(Value::as_bool) == Some(true);
                if !thought && part.get("text").and_then(Value::as_str).is_some_and(|text| !text.is_empty()) {
                    state.text_after_end_of(state.choice);
                }
                if let Some(call) = part.get("functionCall").filter(|call| call.is_object()) {
                    let parts = CallParts {
                        id: call.get("id").and_then(id_from),
                        name: call.get("name").and_then(Value::as_str).map(str::to_owned),
                        raw: part.clone(),
                        ..CallParts::new(Format::Gemini)
                    };
                    state.after_end(parts, "the candidate's `finishReason`");
                }
            }
            return;
        }
        for part in parts.map(Vec::as_slice).unwrap_or(&[]) {
            // `null` is no call (as in a whole body); anything else but an object is an
            // unreadable one.
            let call = part.get("functionCall").filter(|call| !call.is_null());
            self.carried_calls |= call.is_some();
            if let Some(call) = call.filter(|call| call.is_object()) {
                self.function_call(state, part, call);
            } else if call.is_some() {
                state.damage("a `functionCall` of the stream is not an object");
            } else if part.get("thought").and_then(Value::as_bool) != Some(true) {
                if let Some(text) = part.get("text").and_then(Value::as_str).filter(|_| read) {
                    state.content(0, text, "");
                }
            }
        }
        if let Some(reason) = candidate.get("finishReason").filter(|reason| reason.is_string()) {
            self.finished = true;
            if let Some((reason, unsent)) = refused_call(Some(reason)).filter(|_| !self.carried_calls) {
                state.claims_call(state.choice, reason, unsent);
            }
            let end = match cut_reason(Some(reason)) {
                None => {
                    if ends_turn(Some(reason)) {
                        state.ended_turn_of(state.choice);
                    }
                    End::Complete
                }
                Some(reason) => {
                    // The candidate's own stop cuts its own calls.
                    state.stopped_by_response(&reason);
                    End::Cut(reason)
                }
            };
            if let Some(slot) = self.open.take() {
                state.end(slot, end);
            }
            self.continuing = None;
        }
    }

    fn function_call(&mut self, state: &mut Assembly, part: &Value, call: &Value) {
        let name = call.get("name").and_then(Value::as_str).filter(|name| !name.is_empty());
        let continues = call.get("willContinue").and_then(Value::as_bool) == Some(true);
        let partial = call.get("partialArgs").and_then(Value::as_array);
        let slot = if let Some(name) = name {
            // A new call: the one streaming before it is complete.
            if let Some(previous) = self.open.take() {
                state.end(previous, End::Complete);
            }
            self.continuing = None;
            // The whole part: it carries the `thoughtSignature` to send back.
            let Some(slot) = state.open(part.clone()) else {
                self.dropping = continues;
                return;
            };
            self.dropping = false;
            if let Some(id) = call.get("id").and_then(id_from) {
                state.set_id(slot, &id);
            }
            state.name_fragment(slot, name);
            match call.get("args") {
                Some(args) if !args.is_null() => {
                    let bytes = args.to_string().len();
                    if state.grow(slot, bytes) {
                        state.set_value(slot, args.clone());
                    }
                }
                _ if continues || partial.is_some() => state.set_value(slot, Value::Object(Map::new())),
                _ => {}
            }
            slot
        } else {
            match self.open {
                Some(slot) => slot,
                // Neither a new call nor the rest of one: a part was lost or damaged.
                None => {
                    state.damage("a `functionCall` of the stream has no name and no call was streaming");
                    return;
                }
            }
        };
        if self.dropping {
            return;
        }
        for entry in partial.map(Vec::as_slice).unwrap_or(&[]) {
            if !self.apply(state, slot, entry) {
                let event = "a `partialArgs` entry of the stream has no usable `jsonPath`";
                state.end(slot, End::Damaged(event.to_owned()));
                self.open = None;
                self.continuing = None;
                return;
            }
        }
        if continues {
            self.open = Some(slot);
        } else {
            state.end(slot, End::Complete);
            self.open = None;
            self.continuing = None;
        }
    }

    /// Apply one `partialArgs` entry; false when it cannot be (the call is damaged).
    fn apply(&mut self, state: &mut Assembly, slot: usize, entry: &Value) -> bool {
        let Some(path) = entry.get("jsonPath").and_then(Value::as_str) else { return false };
        let value = if let Some(text) = entry.get("stringValue").and_then(Value::as_str) {
            Value::String(text.to_owned())
        } else if let Some(number) = entry.get("numberValue").filter(|n| n.is_number()) {
            number.clone()
        } else if let Some(flag) = entry.get("boolValue").filter(|b| b.is_boolean()) {
            flag.clone()
        } else if entry.get("nullValue").is_some() {
            Value::Null
        } else {
            // No value in a kind this reader knows: nothing to set.
            return true;
        };
        let append = value.is_string() && self.continuing.as_deref() == Some(path);
        let continues = value.is_string() && entry.get("willContinue").and_then(Value::as_bool) == Some(true);
        let max_depth = state.options.get_limits().max_depth;
        let Some(steps) = parse_path(path, max_depth) else { return false };
        let bytes = path.len() + value.as_str().map_or(8, str::len);
        if !state.grow(slot, bytes) {
            // The call ended as too large.
            self.open = None;
            self.continuing = None;
            return true;
        }
        let Some(root) = state.value_mut(slot) else { return true };
        let text = value.as_str().map(str::to_owned);
        if !set_path(root, &steps, value, append) {
            return false;
        }
        // What the stream said, for the call's typed partial: a string that went on before
        // ended when an entry for another path came; this one grew, or is complete.
        if let Some(previous) = self.continuing.take().filter(|previous| previous != path) {
            if let Some(previous) = parse_path(&previous, max_depth) {
                state.value_step(slot, ValueStep::Complete { pointer: pointer(&previous) });
            }
        }
        let pointer = pointer(&steps);
        if let Some(text) = text {
            state.value_step(slot, ValueStep::Grew { pointer: pointer.clone(), text });
        }
        if !continues {
            state.value_step(slot, ValueStep::Complete { pointer });
        }
        self.continuing = continues.then(|| path.to_owned());
        true
    }
}

/// `$`, then `.name`, `[n]`, `['name']` or `["name"]` steps; `None` if malformed or deeper
/// than `max_depth`.
fn parse_path(path: &str, max_depth: usize) -> Option<Vec<Step<'_>>> {
    let mut rest = path.strip_prefix('$')?;
    let mut steps = Vec::new();
    while !rest.is_empty() {
        if steps.len() >= max_depth {
            return None;
        }
        if let Some(after) = rest.strip_prefix('.') {
            let end = after.find(['.', '[']).unwrap_or(after.len());
            let key = &after[..end];
            if key.is_empty() {
                return None;
            }
            steps.push(Step::Key(key));
            rest = &after[end..];
        } else if let Some(after) = rest.strip_prefix('[') {
            if let Some(quoted) = after.strip_prefix(['\'', '"']) {
                let quote = if after.starts_with('\'') { "']" } else { "\"]" };
                let end = quoted.find(quote)?;
                steps.push(Step::Key(&quoted[..end]));
                rest = &quoted[end + 2..];
            } else {
                let end = after.find(']')?;
                steps.push(Step::Index(after[..end].trim().parse().ok()?));
                rest = &after[end + 1..];
            }
        } else {
            return None;
        }
    }
    Some(steps)
}

/// The JSON Pointer of a parsed path.
fn pointer(steps: &[Step<'_>]) -> String {
    let mut pointer = String::new();
    for step in steps {
        match step {
            Step::Key(key) => crate::pointer::push_token(&mut pointer, key),
            Step::Index(index) => crate::pointer::push_token(&mut pointer, &index.to_string()),
        }
    }
    pointer
}

/// Set (or append to, for a continuing string) the value at `steps` under `root`, making
/// the objects and arrays on the way. An index may extend an array by one, no more, so a
/// hostile path cannot allocate a huge array. False when the path runs through a value of
/// another kind.
fn set_path(root: &mut Value, steps: &[Step<'_>], value: Value, append: bool) -> bool {
    let mut current = root;
    for (position, step) in steps.iter().enumerate() {
        let next_is_index = matches!(steps.get(position + 1), Some(Step::Index(_)));
        let empty = || if next_is_index { Value::Array(Vec::new()) } else { Value::Object(Map::new()) };
        let last = position + 1 == steps.len();
        let slot = match step {
            Step::Key(key) => {
                if current.is_null() {
                    *current = Value::Object(Map::new());
                }
                let Value::Object(map) = current else { return false };
                map.entry(key.to_string()).or_insert_with(|| if last { Value::Null } else { empty() })
            }
            Step::Index(index) => {
                if current.is_null() {
                    *current = Value::Array(Vec::new());
                }
                let Value::Array(items) = current else { return false };
                if *index == items.len() {
                    items.push(if last { Value::Null } else { empty() });
                } else if *index > items.len() {
                    return false;
                }
                &mut items[*index]
            }
        };
        current = slot;
    }
    match (current, value) {
        (Value::String(existing), Value::String(more)) if append => existing.push_str(&more),
        (target, value) => *target = value,
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn set(root: &mut Value, path: &str, value: Value, append: bool) -> bool {
        match parse_path(path, 128) {
            Some(steps) => set_path(root, &steps, value, append),
            None => false,
        }
    }

    #[test]
    fn paths_build_objects_and_arrays() {
        let mut root = json!({});
        assert!(set(&mut root, "$.recipe.ingredients[0].name", json!("Egg"), false));
        assert!(set(&mut root, "$.recipe.ingredients[0].name", json!("s"), true));
        assert!(set(&mut root, "$.recipe.ingredients[1]['the amount']", json!(2), false));
        assert!(set(&mut root, "$.recipe[\"steps\"][0]", json!(null), false));
        assert!(set(&mut root, "$.flag", json!(true), false));
        assert_eq!(
            root,
            json!({"recipe": {"ingredients": [{"name": "Eggs"}, {"the amount": 2}], "steps": [null]}, "flag": true})
        );
    }

    #[test]
    fn hostile_paths_are_refused() {
        let mut root = json!({"a": 1});
        for path in ["a", "$.", "$[", "$[x]", "$['a", "$..a", "$.items[99999999999]", "$.a.b", "$.a[0]"] {
            assert!(!set(&mut root, path, json!(1), false), "{path}");
        }
        assert!(!set(&mut root, "$.list[3]", json!(1), false));
        assert!(parse_path(&"$.a".repeat(200), 128).is_none());
    }
}
