//! OpenAI Chat Completions (and compatible backends): `choices[n].message.tool_calls`, the
//! legacy `function_call`, and the `multi_tool_use.parallel` wrapper.

use serde_json::Value;

use super::{
    arguments_of, content_text, id_of, push_unwrapping, BodyError, CallParts, Collector, Format, Unsent,
};

/// Read a chat completion, a bare assistant message, or a bare `tool_calls` array.
pub(super) fn read(body: &Value, out: &mut Collector<'_>) -> Result<Option<String>, BodyError> {
    if let Value::Array(items) = body {
        read_tool_calls(items, Format::OpenAi, out);
        return Ok(None);
    }
    if let Some(choices) = body.get("choices").and_then(Value::as_array) {
        let wanted = out.options.get_choice();
        // A choice is known by its `index`, else by its position.
        let number = |position: usize, choice: &Value| {
            choice.get("index").and_then(Value::as_u64).map_or(position, |index| index as usize)
        };
        let mut content = None;
        let numbers: Vec<usize> = choices.iter().enumerate().map(|(at, choice)| number(at, choice)).collect();
        let repeated = super::repeated(&numbers);
        // Every choice is read, each tagged: the others are reported, never dropped. Each
        // choice's stop cuts its own calls only.
        for (position, choice) in choices.iter().enumerate() {
            let number = numbers[position];
            out.set_choice(number);
            if repeated.contains(&number) {
                out.conflict_choice(number);
            }
            // The stop first: the last call of a choice it cut is read as cut.
            if let Some(reason) = cut_reason(choice.get("finish_reason")) {
                out.stopped(reason);
            } else if ends_turn(choice.get("finish_reason")) {
                out.ended_turn();
            }
            let message = choice.get("message");
            if let Some(reason) = claimed_call(choice.get("finish_reason")) {
                if !message.is_some_and(carries_calls) {
                    out.claims_call(number, reason, Unsent::NoneSent);
                }
            }
            let text = message.and_then(|message| read_message(message, Format::OpenAi, out));
            if number == wanted {
                content = text;
            }
        }
        out.set_choice(wanted);
        // No choices (a filtered response) or no message: no calls.
        return Ok(content);
    }
    if body.get("tool_calls").is_some() || body.get("function_call").is_some() || body.get("role").is_some() {
        return Ok(read_message(body, Format::OpenAi, out));
    }
    Err(BodyError::Shape(
        "not a Chat Completions response: expected `choices`, or a message with `tool_calls`".to_owned(),
    ))
}

/// The reason a choice stopped early, when its `finish_reason` says it did not finish: any
/// reason but the ones that end a turn (`stop`, `tool_calls`, `function_call`, and the
/// compatible backends' `eos_token`, `eos`, `stop_sequence`, `end_turn`, `tool_use`), such as
/// `length`, `content_filter`, OpenRouter's `error`, vLLM's `abort`, DeepSeek's
/// `insufficient_system_resource`. The stream reads the same reasons the same way. An empty
/// reason is none, as `null` is: SGLang streams `""` until the last chunk
/// (sgl-project/sglang#3912).
pub(crate) fn cut_reason(finish_reason: Option<&Value>) -> Option<String> {
    match finish_reason.and_then(Value::as_str)? {
        "" => None,
        reason if TURN_ENDS.contains(&reason) => None,
        reason => Some(format!("finish_reason `{}`", super::describe(Some(&Value::from(reason))))),
    }
}

/// The finish reasons that end a turn: the model stopped on a stop token or sequence, or
/// for a call.
const TURN_ENDS: [&str; 8] =
    ["stop", "tool_calls", "function_call", "eos_token", "eos", "stop_sequence", "end_turn", "tool_use"];

/// Does a choice's `finish_reason` say it ended its turn ([`cut_reason`]'s reasons that
/// end one), on a stop token a server may have stripped from its text
/// ([`Collector::ended_turn`])? No reason (`null`, `""`) says nothing. The stream reads it
/// alike.
pub(crate) fn ends_turn(finish_reason: Option<&Value>) -> bool {
    finish_reason.and_then(Value::as_str).is_some_and(|reason| TURN_ENDS.contains(&reason))
}

/// The finish reason of a choice that says the model called a tool (`tool_calls`, the legacy
/// `function_call`), described; the stream reads it alike.
pub(crate) fn claimed_call(finish_reason: Option<&Value>) -> Option<String> {
    match finish_reason.and_then(Value::as_str)? {
        reason @ ("tool_calls" | "function_call") => Some(format!("finish_reason `{reason}`")),
        _ => None,
    }
}

/// Does a message carry a call of any type (a function's, a `custom` tool's, the legacy
/// `function_call`)? A choice that says it called a tool and carries none lost its call.
fn carries_calls(message: &Value) -> bool {
    message.get("tool_calls").and_then(Value::as_array).is_some_and(|list| !list.is_empty())
        || message.get("function_call").is_some_and(Value::is_object)
}

/// Read the calls of an assistant message; return its text content.
pub(super) fn read_message(message: &Value, format: Format, out: &mut Collector<'_>) -> Option<String> {
    let tool_calls = message.get("tool_calls").and_then(Value::as_array).filter(|list| !list.is_empty());
    match tool_calls {
        Some(list) => read_tool_calls(list, format, out),
        None => {
            // The legacy single call, from before `tool_calls`; it never had an id.
            if let Some(call) = message.get("function_call").filter(|call| call.is_object()) {
                out.push(CallParts {
                    id: None,
                    name: call.get("name").and_then(Value::as_str).map(str::to_owned),
                    arguments: arguments_of(call.get("arguments")),
                    format,
                    raw: call.clone(),
                    index: 0,
                });
            }
        }
    }
    content_text(message.get("content"))
}

fn read_tool_calls(list: &[Value], format: Format, out: &mut Collector<'_>) {
    let last = list.iter().rposition(is_function);
    for (position, item) in list.iter().enumerate() {
        if out.is_full() {
            return;
        }
        if !is_function(item) {
            continue;
        }
        let function = item.get("function");
        let parts = CallParts {
            id: id_of(item.get("id")),
            name: function.and_then(|f| f.get("name")).and_then(Value::as_str).map(str::to_owned),
            arguments: arguments_of(function.and_then(|f| f.get("arguments"))),
            format,
            raw: item.clone(),
            index: 0,
        };
        // The last call of a chat choice whose stop may have cut it is one cut call,
        // answered by its own id, as its stream reads it (there every call is open until the
        // stop): arguments that may be cut short are not read as the calls of a
        // `multi_tool_use.parallel` wrapper. (Ollama sends each call whole.)
        if format == Format::OpenAi && Some(position) == last && out.cuts_last() {
            out.push(parts);
        } else {
            push_unwrapping(parts, None, out);
        }
    }
}

/// Only function calls take JSON arguments; other types (OpenAI's free-form `custom` tools)
/// are not read here.
fn is_function(item: &Value) -> bool {
    item.get("type").and_then(Value::as_str).is_none_or(|kind| kind == "function")
}
