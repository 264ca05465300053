//! Anthropic Messages: `content[]` blocks of type `tool_use`, with `input` already an object.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::{
    arguments_of, id_conflict, id_of, rejected_message, BodyError, CallErrorKind, CallParts, Collector,
    Format, Unsent,
};

/// Read a message, or a bare array of content blocks. Server-side tool blocks
/// (`server_tool_use`, `mcp_tool_use`) ran at the provider and are not read.
pub(super) fn read(body: &Value, out: &mut Collector<'_>) -> Result<Option<String>, BodyError> {
    let blocks = match body {
        Value::Array(blocks) => blocks,
        _ => match body.get("content") {
            Some(Value::Array(blocks)) => blocks,
            _ => {
                return Err(BodyError::Shape(
                    "not an Anthropic message: expected `content` blocks".to_owned(),
                ))
            }
        },
    };
    if let Some(reason) = cut_reason(body.get("stop_reason")) {
        out.stopped(reason);
    } else if ends_turn(body.get("stop_reason")) {
        out.ended_turn();
    }
    if !blocks.iter().any(is_tool_use) {
        if let Some(reason) = claimed_call(body.get("stop_reason")) {
            out.claims_call(out.options.get_choice(), reason, Unsent::NoneSent);
        }
    }
    let (repeats, conflicts) = repeated_ids(blocks);
    let mut texts = Vec::new();
    for (position, block) in blocks.iter().enumerate() {
        match block.get("type").and_then(Value::as_str) {
            Some("tool_use") if repeats.contains(&position) => {}
            Some("tool_use") if !out.is_full() => {
                let parts = CallParts {
                    id: id_of(block.get("id")),
                    name: block.get("name").and_then(Value::as_str).map(str::to_owned),
                    arguments: arguments_of(block.get("input")),
                    format: Format::Anthropic,
                    raw: block.clone(),
                    index: 0,
                };
                match parts.id.as_deref().filter(|id| conflicts.contains(*id)) {
                    Some(id) => {
                        let name = parts.shown_name();
                        let message = rejected_message(name, &id_conflict(id));
                        out.push_failed(parts, CallErrorKind::Malformed, message);
                    }
                    None => out.push(parts),
                }
            }
            Some("text") => {
                if let Some(text) = block.get("text").and_then(Value::as_str) {
                    texts.push(text);
                }
            }
            _ => {}
        }
    }
    Ok(if texts.is_empty() { None } else { Some(texts.join("\n")) })
}

/// One id is one call, as the stream reads it: the positions of `tool_use` blocks that repeat
/// an earlier block with the same id, tool and input (read once), and the ids given to blocks
/// that differ (none of those runs).
///
/// Not the other formats' rule (the first call under an id runs, another is an error: see
/// `settle_reused_ids`), on purpose. There, compatible servers give distinct parallel calls one
/// id (HKUDS/nanobot#3943), so the first is a call the model made. Anthropic's ids are the
/// API's own (`toolu_…`, one per call): a repeated one is one call sent twice (programmatic
/// tool calling sends a `tool_use` in `message_start`, then as its block), and two versions
/// that disagree contradict themselves about that one call (which input is its own cannot be
/// told: the first may be the one sent before its input was complete), as a Responses `.done`
/// that disagrees with its deltas does; so neither runs. The API refuses the next request
/// anyway while its assistant turn gives the id twice (`tool_use ids must be unique`,
/// anthropics/claude-code#20700), so no answer could go back under it as is.
fn repeated_ids(blocks: &[Value]) -> (HashSet<usize>, HashSet<String>) {
    let mut first: HashMap<String, &Value> = HashMap::new();
    let (mut repeats, mut conflicts) = (HashSet::new(), HashSet::new());
    for (position, block) in blocks.iter().enumerate() {
        if block.get("type").and_then(Value::as_str) != Some("tool_use") {
            continue;
        }
        let Some(id) = id_of(block.get("id")) else { continue };
        match first.get(&id) {
            Some(earlier)
                if earlier.get("name") == block.get("name") && earlier.get("input") == block.get("input") =>
            {
                repeats.insert(position);
            }
            Some(_) => {
                conflicts.insert(id);
            }
            None => {
                first.insert(id, block);
            }
        }
    }
    (repeats, conflicts)
}

/// A block of a call, run here or at the provider (`tool_use`, `server_tool_use`,
/// `mcp_tool_use`): a message that stopped for a call and has none lost it.
pub(crate) fn is_tool_use(block: &Value) -> bool {
    block.get("type").and_then(Value::as_str).is_some_and(|kind| kind.ends_with("tool_use"))
}

/// The stop reason of a message that says the model called a tool (`tool_use`), described;
/// the stream reads it alike.
pub(crate) fn claimed_call(stop_reason: Option<&Value>) -> Option<String> {
    match stop_reason.and_then(Value::as_str)? {
        "tool_use" => Some("stop_reason `tool_use`".to_owned()),
        _ => None,
    }
}

/// The reason a message stopped early, when its `stop_reason` says it did not end its turn:
/// any reason but `end_turn`, `tool_use` and `stop_sequence`, such as `max_tokens`,
/// `model_context_window_exceeded`, `refusal` or `pause_turn` (a paused turn, to be
/// continued). The stream reads the same reasons the same way.
pub(crate) fn cut_reason(stop_reason: Option<&Value>) -> Option<String> {
    match stop_reason.and_then(Value::as_str)? {
        reason if TURN_ENDS.contains(&reason) => None,
        reason => Some(format!("stop_reason `{}`", super::describe(Some(&Value::from(reason))))),
    }
}

/// The stop reasons that end a turn: the model ended it, stopped on a stop sequence, or
/// stopped for a call.
const TURN_ENDS: [&str; 3] = ["end_turn", "tool_use", "stop_sequence"];

/// Does a message's `stop_reason` say it ended its turn ([`cut_reason`]'s reasons that end
/// one), on a stop token or sequence a server may have stripped from its text
/// ([`Collector::ended_turn`])? No reason says nothing. The stream reads it alike.
pub(crate) fn ends_turn(stop_reason: Option<&Value>) -> bool {
    stop_reason.and_then(Value::as_str).is_some_and(|reason| TURN_ENDS.contains(&reason))
}
