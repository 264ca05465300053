//! Gemini: `candidates[n].content.parts[].functionCall` with `args` an object and an
//! optional `id`.

use serde_json::Value;

use super::{arguments_of, id_of, BodyError, CallParts, Collector, Format, Unsent};

/// Read a `generateContent` response, a content (`{"parts": [...]}`), or a bare array of
/// parts. Text parts marked `thought` are not content.
pub(super) fn read(body: &Value, out: &mut Collector<'_>) -> Result<Option<String>, BodyError> {
    let mut texts = Vec::new();
    match body {
        Value::Array(parts) => read_parts(parts, Some(&mut texts), out),
        _ => {
            if let Some(candidates) = body.get("candidates").and_then(Value::as_array) {
                let wanted = out.options.get_choice();
                let numbers: Vec<usize> = candidates
                    .iter()
                    .enumerate()
                    .map(|(position, candidate)| {
                        candidate
                            .get("index")
                            .and_then(Value::as_u64)
                            .map_or(position, |index| index as usize)
                    })
                    .collect();
                let repeated = super::repeated(&numbers);
                // Every candidate is read, each tagged: the others are reported, never dropped.
                for (position, candidate) in candidates.iter().enumerate() {
                    let number = numbers[position];
                    out.set_choice(number);
                    if repeated.contains(&number) {
                        out.conflict_choice(number);
                    }
                    // A candidate stopped by safety or MALFORMED_FUNCTION_CALL may have no content.
                    let parts = candidate
                        .get("content")
                        .and_then(|c| c.get("parts"))
                        .and_then(Value::as_array)
                        .map(Vec::as_slice)
                        .unwrap_or(&[]);
                    let chosen = number == wanted;
                    read_parts(parts, chosen.then_some(&mut texts), out);
                    // Each candidate's stop cuts its own calls only.
                    if let Some(reason) = cut_reason(candidate.get("finishReason")) {
                        out.stopped(reason);
                    } else if ends_turn(candidate.get("finishReason")) {
                        out.ended_turn();
                    }
                    let calls_any =
                        parts.iter().any(|part| part.get("functionCall").is_some_and(|call| !call.is_null()));
                    if let Some((reason, unsent)) =
                        refused_call(candidate.get("finishReason")).filter(|_| !calls_any)
                    {
                        out.claims_call(number, reason, unsent);
                    }
                }
                out.set_choice(wanted);
            } else if let Some(parts) = body.get("parts").and_then(Value::as_array) {
                read_parts(parts, Some(&mut texts), out);
            } else {
                return Err(BodyError::Shape("not a Gemini response: expected `candidates`".to_owned()));
            }
        }
    }
    Ok(if texts.is_empty() { None } else { Some(texts.join("")) })
}

/// Read the calls of a candidate's parts, and its text into `texts` when given.
fn read_parts<'b>(parts: &'b [Value], mut texts: Option<&mut Vec<&'b str>>, out: &mut Collector<'_>) {
    for part in parts {
        // `null` is no call: a proxy that writes every field of the SDK's part sends it so.
        if let Some(call) = part.get("functionCall").filter(|call| !call.is_null()) {
            if out.is_full() {
                break;
            }
            out.push(CallParts {
                id: id_of(call.get("id")),
                name: call.get("name").and_then(Value::as_str).map(str::to_owned),
                arguments: arguments_of(call.get("args")),
                format: Format::Gemini,
                // The whole part: it carries the `thoughtSignature` to send back.
                raw: part.clone(),
                index: 0,
            });
        } else if part.get("thought").and_then(Value::as_bool) != Some(true) {
            if let (Some(texts), Some(text)) =
                (texts.as_deref_mut(), part.get("text").and_then(Value::as_str))
            {
                texts.push(text);
            }
        }
    }
}

/// The reason a candidate stopped early: any `finishReason` but `STOP`, the unspecified one
/// included, such as `MAX_TOKENS`, `SAFETY` or `MALFORMED_FUNCTION_CALL`; the stream reads the
/// same reasons the same way.
pub(crate) fn cut_reason(finish_reason: Option<&Value>) -> Option<String> {
    match finish_reason.and_then(Value::as_str)? {
        "STOP" => None,
        other => Some(format!("finishReason `{}`", other.chars().take(60).collect::<String>())),
    }
}

/// Does a candidate's `finishReason` say it ended its turn (`STOP`: a natural stop point or
/// a stop sequence), on a stop token a server may have stripped from its text
/// ([`Collector::ended_turn`])? The stream reads it alike.
pub(crate) fn ends_turn(finish_reason: Option<&Value>) -> bool {
    finish_reason.and_then(Value::as_str) == Some("STOP")
}

/// The finish reason of a candidate whose call Gemini did not deliver, described, and why:
/// `MALFORMED_FUNCTION_CALL` (the call text the model wrote could not be read) and
/// `UNEXPECTED_TOOL_CALL` (a call to a tool it was not given) refused it;
/// `TOO_MANY_TOOL_CALLS` stopped the model for calling tools too many times in a row. With no
/// `functionCall` part, the call is missing ([`MissingCall`](crate::calls::MissingCall)).
/// Gemini's other reasons say nothing of a call (`MISSING_THOUGHT_SIGNATURE` is about the
/// request; `MALFORMED_RESPONSE`, `OTHER` about no call in particular): a candidate that
/// stopped for them is cut ([`cut_reason`]), not missing a call. The stream reads it alike.
pub(crate) fn refused_call(finish_reason: Option<&Value>) -> Option<(String, Unsent)> {
    let reason = finish_reason.and_then(Value::as_str)?;
    let unsent = match reason {
        "MALFORMED_FUNCTION_CALL" | "UNEXPECTED_TOOL_CALL" => Unsent::Refused,
        "TOO_MANY_TOOL_CALLS" => Unsent::TooMany,
        _ => return None,
    };
    Some((format!("finishReason `{reason}`"), unsent))
}
