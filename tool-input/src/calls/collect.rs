//! The calls of one response ([`Calls`]), and the collector every reader fills them with:
//! numbering attempts, enforcing the call limit, tagging choices, settling a cut response.

use serde::ser::{Serialize, SerializeStruct, Serializer};
use serde_json::{json, Value};

use super::error::message_quoting_nothing;
use super::record::Read;
use super::{
    text, BodyConflict, CallError, CallErrorKind, CallOptions, CallParts, Format, MissingCall, ToolCall,
    Unsent,
};
use crate::error::{Rejection, RejectionKind};

/// The tool calls of one response: the runnable calls, the attempts that must not run, and
/// the text left for the user.
///
/// ```
/// use tool_input::calls::{parse_body, CallOptions, Format};
///
/// let body = br#"{"output": [
///   {"type": "reasoning", "id": "rs_1", "summary": []},
///   {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_weather", "arguments": "{\"city\": \"Paris\"}"},
///   {"type": "function_call", "id": "fc_2", "call_id": "call_2", "name": "get_weather", "arguments": "[\"Rome\"]"}]}"#;
/// let calls = parse_body(body, &CallOptions::new()).unwrap();
/// assert_eq!(calls.format, Format::Responses);
/// assert_eq!(calls.calls[0].id, "call_1");
/// assert_eq!(calls.errors[0].id, "call_2"); // arguments not an object: answer it, don't run it
/// assert_eq!(calls.errors[0].kind.code(), "not_object");
/// assert_eq!(calls.content, None);
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
#[non_exhaustive]
pub struct Calls {
    /// The calls, in the order they were sent.
    pub calls: Vec<ToolCall>,
    /// The attempts that are not runnable calls, in the order they were sent.
    pub errors: Vec<CallError>,
    /// The assistant's text: the message content of a structured response, or the text left
    /// once text-emitted calls were taken out of it. `None` when the response had none.
    pub content: Option<String>,
    /// The format the response was read as.
    pub format: Format,
    /// The reasoning the text (or the message content) carried, taken out of
    /// [`content`](Calls::content) before calls were read: `<think>…</think>`, harmony's
    /// `analysis` channel, everything before a lone `</think>`, … (see
    /// [`TextFormat`](crate::calls::TextFormat)). A call written there is never read.
    /// `None` when there was none.
    pub reasoning: Option<String>,
    /// The response says the model called a tool, but holds no call to read (Gemini's
    /// `MALFORMED_FUNCTION_CALL`, a `finish_reason` of `tool_calls` with no call): nothing
    /// ran, and there is no call id to answer. Send its message back to the model rather
    /// than take the turn for its answer. See [`MissingCall`].
    pub missing_call: Option<MissingCall>,
}

impl Calls {
    /// True when every call attempt became a runnable call, and the response holds every
    /// call it says the model made ([`Calls::missing_call`]).
    ///
    /// ```
    /// use tool_input::calls::{parse_text, CallOptions};
    /// let good = r#"<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>"#;
    /// assert!(parse_text(good, &CallOptions::new()).is_ok());
    /// let cut = r#"<tool_call>{"name": "get_weather", "arguments": {"city": "Par"#;
    /// let calls = parse_text(cut, &CallOptions::new());
    /// assert!(!calls.is_ok());
    /// assert_eq!(calls.errors[0].kind.code(), "truncated");
    /// ```
    pub fn is_ok(&self) -> bool {
        self.errors.is_empty() && self.missing_call.is_none()
    }

    /// Calls and errors together, in the order they were sent: answer every entry so no
    /// call id goes unanswered.
    ///
    /// ```
    /// use tool_input::calls::{parse_text, CallOptions};
    /// let text = r#"<tool_call>{"name": "a", "arguments": "{"}</tool_call><tool_call>{"name": "b", "arguments": {}}</tool_call>"#;
    /// let calls = parse_text(text, &CallOptions::new());
    /// let order: Vec<bool> = calls.in_order().map(|entry| entry.is_ok()).collect();
    /// assert_eq!(order, [false, true]);
    /// ```
    pub fn in_order(&self) -> impl Iterator<Item = Result<&ToolCall, &CallError>> {
        let mut entries: Vec<(usize, Result<&ToolCall, &CallError>)> = self
            .calls
            .iter()
            .map(|call| (call.index, Ok(call)))
            .chain(self.errors.iter().map(|error| (error.index, Err(error))))
            .collect();
        entries.sort_by_key(|(index, _)| *index);
        entries.into_iter().map(|(_, entry)| entry)
    }

    /// `{"calls": [{"id", "name", "arguments"}], "errors": [{"kind", "message", "id",
    /// "id_generated", "name", "arguments", "arguments_cut"}]}`, as the CLI prints it: the
    /// [`Serialize`] shape, as a value.
    ///
    /// An error carries what is needed to answer the call and log what arrived: its `id`
    /// (the provider's, or a generated one when `id_generated`), its `name` exactly as sent
    /// (`null` when none was), and its `arguments` exactly as sent, as text (a JSON value
    /// a backend sent already parsed is written as compact JSON; `null` when none were
    /// sent), cut to [`MAX_ERROR_ARGUMENTS`] characters; `arguments_cut` is `true` when
    /// they were cut.
    ///
    /// ```
    /// use tool_input::calls::{parse_body, CallOptions};
    /// let body = br#"{"choices": [{"message": {"tool_calls": [{"id": 7, "type": "function",
    ///   "function": {"name": "functions.get_weather", "arguments": "{\"city\": \"Ro"}}]}}]}"#;
    /// let json = parse_body(body, &CallOptions::new()).unwrap().to_json();
    /// assert_eq!(json["errors"][0]["kind"], "truncated");
    /// assert_eq!(json["errors"][0]["id"], "7");
    /// assert_eq!(json["errors"][0]["name"], "functions.get_weather");
    /// assert_eq!(json["errors"][0]["arguments"], r#"{"city": "Ro"#);
    /// assert_eq!(json["errors"][0]["arguments_cut"], false);
    /// ```
    ///
    /// [`MAX_ERROR_ARGUMENTS`]: crate::calls::MAX_ERROR_ARGUMENTS
    pub fn to_json(&self) -> Value {
        json!(self)
    }
}

/// `{"calls": [{"id", "name", "arguments"}], "errors": [{"kind", "message", "id", "id_generated",
/// "name", "arguments", "arguments_cut"}]}`: the
/// [`ToolCall`] and [`CallError`] records, as `tool-input calls` prints them; with
/// `"missing_call": {"kind", "reason", "message"}` when the response says the model called a
/// tool but holds no call ([`Calls::missing_call`]).
///
/// ```
/// use tool_input::calls::{parse_text, CallOptions};
/// let calls = parse_text(r#"<tool_call>{"name": "ping", "arguments": {"n": 1}}</tool_call>"#, &CallOptions::new());
/// let json = serde_json::to_value(&calls).unwrap();
/// assert_eq!(json["calls"][0]["name"], "ping");
/// assert_eq!(json["calls"][0]["arguments"], serde_json::json!({"n": 1}));
/// assert_eq!(json["errors"], serde_json::json!([]));
/// ```
impl Serialize for Calls {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut record =
            serializer.serialize_struct("Calls", 2 + usize::from(self.missing_call.is_some()))?;
        record.serialize_field("calls", &self.calls)?;
        record.serialize_field("errors", &self.errors)?;
        if let Some(missing) = &self.missing_call {
            record.serialize_field("missing_call", missing)?;
        }
        record.end()
    }
}

/// Collects call attempts in order, numbering them and enforcing the call limit.
pub(crate) struct Collector<'o> {
    pub options: &'o CallOptions,
    calls: Vec<ToolCall>,
    errors: Vec<CallError>,
    next: usize,
    full: bool,
    /// The choice the attempts pushed now come from.
    choice: usize,
    /// Why each choice stopped early, when the response's own data says so, and whether
    /// the stop may have cut its last call (a length stop may; a response that says it had
    /// not ended yet cut nothing it holds whole).
    stops: Vec<(usize, String, bool)>,
    /// Choices the response's own data says ended their turn on a stop token
    /// ([`Collector::ended_turn`]).
    turn_ends: Vec<usize>,
    /// Choices whose number the response gave to two choices.
    conflicted: Vec<usize>,
    /// Keys the body gave twice with different values, and whether a call held each.
    conflicts: Vec<(BodyConflict, bool)>,
    /// Choices that said the model called a tool, though no call came with them: the reason,
    /// and why no call came ([`MissingCall::new`]).
    claims: Vec<(usize, String, Unsent)>,
}

/// Keys that decide which calls a response has and whether they run: one given twice with
/// different values makes every call of the response a `duplicate_key` error.
const DECISIVE_KEYS: &[&str] = &[
    "choices",
    "candidates",
    "content",
    "output",
    "message",
    "tool_calls",
    "function_call",
    "parts",
    "index",
    "finish_reason",
    "finishReason",
    "stop_reason",
    "status",
    "done",
    "done_reason",
    "type",
];

/// What a [`Collector`] has collected, kept between uses: a streaming assembler owns its
/// options, so it resumes a collector for each call that ends and suspends it again,
/// numbering and limiting calls by the same rules as a whole body.
#[derive(Debug, Default)]
pub(crate) struct Collected {
    pub calls: Vec<ToolCall>,
    pub errors: Vec<CallError>,
    next: usize,
    full: bool,
    /// Choices whose number the response gave to two choices.
    conflicted: Vec<usize>,
}

/// A point in a collection ([`Collector::mark`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Mark {
    calls: usize,
    errors: usize,
    next: usize,
    full: bool,
}

impl<'o> Collector<'o> {
    pub fn new(options: &'o CallOptions) -> Self {
        Collector::resume(options, Collected::default())
    }

    /// Go on collecting after [`Collector::suspend`].
    pub fn resume(options: &'o CallOptions, state: Collected) -> Self {
        let Collected { calls, errors, next, full, conflicted } = state;
        Collector {
            options,
            calls,
            errors,
            next,
            full,
            conflicted,
            choice: options.choice,
            stops: Vec::new(),
            turn_ends: Vec::new(),
            conflicts: Vec::new(),
            claims: Vec::new(),
        }
    }

    /// Keep what was collected, to [`Collector::resume`] later.
    pub fn suspend(self) -> Collected {
        Collected {
            calls: self.calls,
            errors: self.errors,
            next: self.next,
            full: self.full,
            conflicted: self.conflicted,
        }
    }

    /// The keys the body's text gave twice with different values.
    pub fn set_conflicts(&mut self, conflicts: Vec<BodyConflict>) {
        self.conflicts = conflicts.into_iter().map(|conflict| (conflict, false)).collect();
    }

    /// The attempts pushed from now on come from `choice`.
    pub fn set_choice(&mut self, choice: usize) {
        self.choice = choice;
    }

    /// The response says `choice` ended for a tool call (`reason`), though it carried no call
    /// in the response's own shape (`unsent` says why). Unless a call of the choice is read
    /// from its text, the call is missing ([`Calls::missing_call`]).
    pub fn claims_call(&mut self, choice: usize, reason: String, unsent: Unsent) {
        if !self.claims.iter().any(|(claimed, _, _)| *claimed == choice) {
            self.claims.push((choice, reason, unsent));
        }
    }

    /// The response says the current choice stopped early (`finish_reason: "length"`, …),
    /// for `reason`: only its own calls are cut.
    pub fn stopped(&mut self, reason: String) {
        self.stop(reason, true);
    }

    /// The response says it had not ended yet (Ollama's `"done": false`, a chunk of a stream
    /// read as a body), for `reason`: none of the current choice's calls runs, as a stream
    /// that ends there settles them, but the calls it holds arrived whole.
    pub fn unfinished(&mut self, reason: String) {
        self.stop(reason, false);
    }

    /// The response says the current choice stopped where it may have cut its last call
    /// ([`Collector::stopped`]).
    pub fn cuts_last(&self) -> bool {
        self.stops.iter().any(|(stopped, _, last_cut)| *stopped == self.choice && *last_cut)
    }

    /// The response says the current choice ended its turn on a stop token
    /// (`finish_reason: "stop"`, Ollama's `done_reason: "stop"`, …), the opposite of
    /// [`Collector::stopped`]: a server that generates with a format's stop tokens strips the
    /// one it stopped on from the text (harmony's `<|call|>`), so the text's end is where
    /// that token was. Set before the choice's text is read.
    pub fn ended_turn(&mut self) {
        if !self.turn_ends.contains(&self.choice) {
            self.turn_ends.push(self.choice);
        }
    }

    /// Did the response say the current choice ended its turn on a stop token
    /// ([`Collector::ended_turn`]), and nothing that it was cut ([`Collector::stopped`],
    /// [`Collector::unfinished`]: a Responses item `incomplete` in a `completed` response)?
    pub fn turn_ended(&self) -> bool {
        self.turn_ends.contains(&self.choice)
            && !self.stops.iter().any(|(stopped, _, _)| *stopped == self.choice)
    }

    fn stop(&mut self, reason: String, last_cut: bool) {
        let choice = self.choice;
        if !self.stops.iter().any(|(stopped, _, _)| *stopped == choice) {
            self.stops.push((choice, reason, last_cut));
        }
    }

    /// The response gave the number of `choice` to two choices: which calls are whose
    /// cannot be told, so none of them runs.
    pub fn conflict_choice(&mut self, choice: usize) {
        if !self.conflicted.contains(&choice) {
            self.conflicted.push(choice);
        }
    }

    /// Record, once, that more calls were sent than are taken (as the next attempt would).
    pub fn overflow(&mut self, format: Format) {
        if !self.full {
            // The caller took `max_calls` attempts already; `slot` records the overflow.
            self.next = self.next.max(self.options.max_calls);
            let _ = self.slot(format);
        }
    }

    /// No more attempts are taken.
    pub fn is_full(&self) -> bool {
        self.full
    }

    /// The calls collected so far.
    pub fn collected_calls(&self) -> &[ToolCall] {
        &self.calls
    }

    /// The errors collected so far.
    pub fn collected_errors(&self) -> &[CallError] {
        &self.errors
    }

    /// How many attempts were taken.
    pub fn attempts(&self) -> usize {
        self.next
    }

    /// Where the collection is now, to [`Collector::rollback`] to.
    pub fn mark(&self) -> Mark {
        Mark { calls: self.calls.len(), errors: self.errors.len(), next: self.next, full: self.full }
    }

    /// The errors recorded since `mark`.
    pub fn errors_since(&self, mark: Mark) -> impl Iterator<Item = &CallError> {
        self.errors.iter().skip(mark.errors)
    }

    /// Forget every attempt taken since `mark` (text read as one format turned out to hold
    /// another's markers too).
    pub fn rollback(&mut self, mark: Mark) {
        self.calls.truncate(mark.calls);
        self.errors.truncate(mark.errors);
        self.next = mark.next;
        self.full = mark.full;
    }

    /// Take the next slot, or record the overflow once.
    fn slot(&mut self, format: Format) -> Option<usize> {
        if self.full {
            return None;
        }
        if self.next >= self.options.max_calls {
            self.full = true;
            let parts = CallParts { index: self.next, ..CallParts::new(format) };
            let message = format!(
                "The response has more than {} tool calls; the rest were not run. Make fewer calls at once.",
                self.options.max_calls
            );
            let mut error = parts.fail(CallErrorKind::TooManyCalls, message);
            error.choice = self.choice;
            self.errors.push(error);
            return None;
        }
        let index = self.next;
        self.next += 1;
        Some(index)
    }

    /// Keep a read attempt: tagged with its choice, and reported rather than returned as a
    /// call when it comes from a choice that is not read.
    fn record(&mut self, read: Result<ToolCall, CallError>) {
        let choice = self.choice;
        if self.options.reads_choice(choice) {
            match read {
                Ok(call) => self.calls.push(ToolCall { choice, ..call }),
                Err(error) => self.errors.push(CallError { choice, ..error }),
            }
            return;
        }
        let chosen = self.options.choice;
        let message = |name: Option<&str>| {
            format!(
                "The tool call{} is in choice {choice} of a response with several choices; only choice {chosen} is read, so it was not run.",
                name.map(|name| format!(" to `{name}`")).unwrap_or_default()
            )
        };
        let error = match read {
            Ok(call) => {
                let message = message(Some(&call.name));
                call.into_error(CallErrorKind::OtherChoice, message, None)
            }
            Err(error) => CallError {
                kind: CallErrorKind::OtherChoice,
                message: message(error.name.as_deref()),
                rejection: None,
                ..error
            },
        };
        self.errors.push(CallError { choice, ..error });
    }

    /// Read one call from its parts.
    pub fn push(&mut self, parts: CallParts) {
        self.push_read(parts, None);
    }

    /// Read one call from its parts, its argument text already read (`read`, see
    /// [`CallParts::finish_read`]).
    pub fn push_read(&mut self, mut parts: CallParts, read: Option<Read>) {
        if !self.conflicts.is_empty() {
            if let Some((conflict, in_arguments)) = self.conflict_in(&parts.raw) {
                self.push_duplicate(parts, &conflict.key, &conflict.first, &conflict.second, in_arguments);
                return;
            }
        }
        let Some(index) = self.slot(parts.format) else { return };
        parts.index = index;
        let call = parts.finish_read(self.options, read);
        self.record(call);
    }

    /// Record an attempt that failed before its parts could be read.
    pub fn push_failed(&mut self, mut parts: CallParts, kind: CallErrorKind, message: String) {
        let Some(index) = self.slot(parts.format) else { return };
        parts.index = index;
        // The registered name, as the record of a call (or of an error read from its parts)
        // gives it: a call refused before it was read names the same tool.
        let name = parts.record_name(self.options);
        let mut error = parts.fail(kind, message);
        error.name = name;
        self.record(Err(error));
    }

    /// Record an attempt whose arguments were rejected before its parts could be read.
    pub fn push_rejected(&mut self, parts: CallParts, rejection: Rejection) {
        let before = self.errors.len();
        let kind = CallErrorKind::Arguments(rejection.kind);
        self.push_failed(parts, kind, message_quoting_nothing(&rejection));
        if let Some(error) = self.errors.get_mut(before).filter(|error| error.kind == kind) {
            error.rejection = Some(rejection);
        }
    }

    /// Record an attempt that gives one of its own keys twice, with different values
    /// (`duplicate_key`): which one is meant cannot be told. Argument values are not quoted:
    /// which of their fields are sensitive is not known here.
    /// `in_arguments`: the key is one of the arguments', not the call's own.
    pub fn push_duplicate(
        &mut self,
        mut parts: CallParts,
        key: &str,
        first: &Value,
        second: &Value,
        in_arguments: bool,
    ) {
        let quoted = |value: &Value| super::describe(Some(&Value::String(value.to_string())));
        let key_text: String = key.chars().take(60).collect();
        let message = if in_arguments {
            format!(
                "The tool call{} gives the key `{key_text}` of its arguments twice, with different values, so which is meant cannot be told; nothing was run. Send it once.",
                parts.name.as_deref().map(|name| format!(" to `{}`", name.trim())).unwrap_or_default()
            )
        } else if matches!(key, "arguments" | "parameters" | "input" | "args") {
            format!(
                "The tool call{} gives its `{key_text}` twice, with different values, so which are meant cannot be told; nothing was run. Send them once.",
                parts.name.as_deref().map(|name| format!(" to `{}`", name.trim())).unwrap_or_default()
            )
        } else {
            format!(
                "The tool call gives its `{key_text}` twice, with different values: {}, then {}, so which is meant cannot be told; nothing was run. Send it once.",
                quoted(first),
                quoted(second)
            )
        };
        if key == "name" {
            parts.name = None;
        }
        self.push_failed(parts, CallErrorKind::DuplicateKey, message);
    }

    /// The first conflict inside a call's record (`raw`), marked as held, and whether it
    /// is inside its arguments rather than one of the call's own keys.
    fn conflict_in(&mut self, raw: &Value) -> Option<(BodyConflict, bool)> {
        let own = |container: &Value| {
            container == raw
                || ["function", "functionCall"]
                    .iter()
                    .any(|key| raw.get(key).is_some_and(|inner| inner == container))
        };
        let (conflict, held) =
            self.conflicts.iter_mut().find(|(conflict, _)| contains(raw, &conflict.container))?;
        *held = true;
        let in_arguments = !own(&conflict.container);
        Some((conflict.clone(), in_arguments))
    }

    /// Record an attempt that the response's data says was cut off, for `reason`: a
    /// `truncated` error, never a call.
    pub fn push_cut(&mut self, parts: CallParts, reason: &str) {
        let detail = format!("the response stopped ({reason}) before the call was complete");
        let mut rejection = Rejection::whole(RejectionKind::Truncated, crate::ErrorCode::Truncated, detail);
        if let Some(name) = parts.record_name(self.options) {
            rejection = rejection.with_tool(name);
        }
        self.push_rejected(parts, rejection);
    }

    /// The calls and errors collected, and the content; a response whose data said it
    /// stopped early is settled as cut ([`settle_cut`]; `source` is the text calls were
    /// read from, if any).
    pub fn finish(self, format: Format, content: Option<String>, source: Option<&str>) -> Calls {
        // A choice read that said the model called a tool, with no attempt of it read: the
        // call is missing. (A choice not read holds no calls to run either way.)
        let missing_call = self
            .claims
            .iter()
            .filter(|(choice, _, _)| self.options.reads_choice(*choice))
            .find(|(choice, _, _)| {
                !self.calls.iter().any(|call| call.choice == *choice)
                    && !self.errors.iter().any(|error| error.choice == *choice)
            })
            .map(|(choice, reason, unsent)| MissingCall::new(reason.clone(), *unsent, *choice));
        let mut calls =
            Calls { calls: self.calls, errors: self.errors, content, format, reasoning: None, missing_call };
        for (choice, reason, last_cut) in &self.stops {
            settle_cut(&mut calls, reason, *last_cut, self.options, source, Some(*choice));
        }
        settle_conflicts(&mut calls, &self.conflicted);
        // A key that decides the response's calls, given twice: none of them runs.
        let decisive = self
            .conflicts
            .iter()
            .find(|(conflict, held)| !held && DECISIVE_KEYS.contains(&conflict.key.as_str()));
        if let Some((conflict, _)) = decisive {
            let message = format!(
                "The tool call was not run: the response gives `{}` twice, with different values, so which calls it has cannot be told. Call the tools again.",
                conflict.key.chars().take(60).collect::<String>()
            );
            for call in std::mem::take(&mut calls.calls) {
                calls.errors.push(call.into_error(CallErrorKind::DuplicateKey, message.clone(), None));
            }
            if calls.errors.is_empty() {
                let mut error = CallParts::new(format).fail(CallErrorKind::DuplicateKey, message);
                error.choice = self.choice;
                calls.errors.push(error);
            }
            calls.errors.sort_by_key(|error| error.index);
        }
        calls
    }
}

/// The calls of choices whose number two choices had are errors: which choice each came
/// from cannot be told.
pub(crate) fn settle_conflicts(calls: &mut Calls, conflicted: &[usize]) {
    if conflicted.is_empty() {
        return;
    }
    let (kept, taken): (Vec<ToolCall>, Vec<ToolCall>) =
        std::mem::take(&mut calls.calls).into_iter().partition(|call| !conflicted.contains(&call.choice));
    calls.calls = kept;
    for call in taken {
        let message = format!(
            "The tool call to `{}` was not run: the response has two choices numbered {}, so which one it belongs to cannot be told. Call the tool again.",
            call.name, call.choice
        );
        calls.errors.push(call.into_error(CallErrorKind::Malformed, message, None));
    }
    calls.errors.sort_by_key(|error| error.index);
}

/// One id is one call: a call whose id an earlier attempt of its choice has is not run. The
/// same call sent again (its name and arguments too) is read once; another call under the id
/// is a `malformed` error naming its tool, since its result could not be told from the
/// earlier one's (some compatible servers give one id to parallel calls). The earlier call
/// runs. Generated ids are never shared. (Anthropic's readers settle its ids themselves:
/// neither of two calls it gives one id runs, its ids being the API's own, one per call; see
/// `calls::anthropic::repeated_ids` for why.)
pub(crate) fn settle_reused_ids(calls: &mut Calls) {
    use std::collections::HashMap;
    // The earliest attempt of each (choice, id) sent: a call's place, or `None` for an error.
    let mut first: HashMap<(usize, &str), (usize, Option<usize>)> = HashMap::new();
    for (at, call) in calls.calls.iter().enumerate().filter(|(_, call)| !call.id_generated) {
        first
            .entry((call.choice, call.id.as_str()))
            .and_modify(|earliest| {
                if call.index < earliest.0 {
                    *earliest = (call.index, Some(at));
                }
            })
            .or_insert((call.index, Some(at)));
    }
    for error in calls.errors.iter().filter(|error| !error.id_generated) {
        first
            .entry((error.choice, error.id.as_str()))
            .and_modify(|earliest| {
                if error.index < earliest.0 {
                    *earliest = (error.index, None);
                }
            })
            .or_insert((error.index, None));
    }
    // Each later call: read once (`None`) when it repeats the earliest call, else an error.
    let mut settled: Vec<(usize, Option<String>)> = Vec::new();
    for (at, call) in calls.calls.iter().enumerate().filter(|(_, call)| !call.id_generated) {
        let Some(&(index, earliest)) = first.get(&(call.choice, call.id.as_str())) else { continue };
        if index == call.index {
            continue;
        }
        let repeat = earliest
            .and_then(|earliest| calls.calls.get(earliest))
            .is_some_and(|earlier| earlier.name == call.name && earlier.arguments == call.arguments);
        let why = format!(
            "its id `{}` was given to an earlier tool call of the response, so its result could not be told from that call's",
            call.id.chars().take(80).collect::<String>()
        );
        settled.push((at, (!repeat).then(|| super::rejected_message(Some(&call.name), &why))));
    }
    for (at, message) in settled.into_iter().rev() {
        let call = calls.calls.remove(at);
        if let Some(message) = message {
            calls.errors.push(call.into_error(CallErrorKind::Malformed, message, None));
        }
    }
    calls.errors.sort_by_key(|error| error.index);
}

/// Settle the calls of a response that was cut off for `reason`: nothing of it runs by
/// default. Its last attempt may be the one the stop cut: a call there becomes a
/// `truncated` ([`CallErrorKind::Arguments`]) error when it was written into the `source` text and reaches
/// its end without its closing marker, or, for a native call, when `last_cut` (the
/// response's own data says it stopped, as a length stop does, so a whole body and a stream
/// answer alike). Every other call becomes a [`CallErrorKind::Incomplete`] error, unless
/// [`CallOptions::run_completed_calls`]. With `choice`, only that choice was cut: the calls
/// of the others stand.
pub(crate) fn settle_cut(
    calls: &mut Calls,
    reason: &str,
    last_cut: bool,
    options: &CallOptions,
    source: Option<&str>,
    choice: Option<usize>,
) {
    let of_choice = |of: usize| choice.is_none_or(|choice| choice == of);
    // The last error and the last call of the choice, by position in the response.
    let last_error = calls
        .errors
        .iter()
        .enumerate()
        .filter(|(_, error)| of_choice(error.choice))
        .max_by_key(|(_, error)| error.index)
        .map(|(at, error)| (at, error.index));
    let last_call = calls
        .calls
        .iter()
        .enumerate()
        .filter(|(_, call)| of_choice(call.choice))
        .max_by_key(|(_, call)| call.index)
        .filter(|(_, call)| last_error.is_none_or(|(_, index)| index < call.index))
        .map(|(at, _)| at);
    let last_error = last_error.filter(|_| last_call.is_none()).map(|(at, _)| at);
    if let Some(at) = last_error.filter(|&at| last_cut && arguments_unread(&calls.errors[at])) {
        // Arguments that do not parse, or are not an object, in the call a stop cut: the cut
        // is what went wrong, as the stream of the same response says.
        let error = &mut calls.errors[at];
        let detail = format!(
            "the response stopped ({reason}) right after this call: its arguments may have been cut short"
        );
        let mut rejection = Rejection::whole(RejectionKind::Truncated, crate::ErrorCode::Truncated, detail);
        if let Some(name) = &error.name {
            rejection = rejection.with_tool(name.clone());
        }
        error.kind = CallErrorKind::Arguments(RejectionKind::Truncated);
        error.message = rejection.to_string();
        error.rejection = Some(rejection);
    }
    if let Some(at) = last_call {
        let call = &calls.calls[at];
        let detail = if call.format == Format::Text {
            let span = call.raw.as_str().unwrap_or("");
            source.filter(|source| text::unfinished(span, source)).map(|_| {
                format!(
                    "the response stopped ({reason}) after {} bytes of the call had arrived, before its closing marker",
                    span.trim_end().len()
                )
            })
        } else {
            last_cut.then(|| {
                format!("the response stopped ({reason}) right after this call: its arguments may have been cut short")
            })
        };
        if let Some(detail) = detail {
            let call = calls.calls.remove(at);
            let rejection = Rejection::whole(RejectionKind::Truncated, crate::ErrorCode::Truncated, detail)
                .with_tool(call.name.clone());
            let message = rejection.to_string();
            calls.errors.push(call.into_error(
                CallErrorKind::Arguments(RejectionKind::Truncated),
                message,
                Some(rejection),
            ));
        }
    }
    if !options.run_completed {
        let (cut, kept): (Vec<ToolCall>, Vec<ToolCall>) =
            std::mem::take(&mut calls.calls).into_iter().partition(|call| of_choice(call.choice));
        calls.calls = kept;
        for call in cut {
            let message = format!(
                "The tool call to `{}` arrived whole, but the response it came in was cut off ({reason}), so none of its calls ran: calls after it may be missing. Call the tools again.",
                call.name
            );
            calls.errors.push(call.into_error(CallErrorKind::Incomplete, message, None));
        }
    }
    calls.errors.sort_by_key(|error| error.index);
}

/// Is `needle` `haystack` or one of the values inside it?
fn contains(haystack: &Value, needle: &Value) -> bool {
    haystack == needle
        || match haystack {
            Value::Object(map) => map.values().any(|value| contains(value, needle)),
            Value::Array(items) => items.iter().any(|value| contains(value, needle)),
            _ => false,
        }
}

/// Was the call refused for arguments that did not parse or were not an object (what a cut
/// makes of the last call's arguments)?
fn arguments_unread(error: &CallError) -> bool {
    error.format != Format::Text
        && matches!(error.kind, CallErrorKind::Arguments(RejectionKind::Parse | RejectionKind::NotObject))
}
