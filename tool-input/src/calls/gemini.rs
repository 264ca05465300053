//! Gemini: `candidates[n].content.parts[].functionCall` with `args` an object and an
//! optional `id`.

use serde_json::Value;

use super::{arguments_of, id_of, BodyError, CallParts, Collector, Format};

/// Read a `generateContent` response, a content (`{"parts": [...]}`), or a bare array of
/// parts. Text parts marked `thought` are not content.
pub(super) fn read(body: &Value, out: &mut Collector<'_>) -> Result<Option<String>, BodyError> {
    let parts = match body {
        Value::Array(parts) => Some(parts),
        _ => {
            if let Some(candidates) = body.get("candidates").and_then(Value::as_array) {
                let candidate = candidates
                    .iter()
                    .find(|c| c.get("index").and_then(Value::as_u64) == Some(out.options.choice as u64))
                    .or_else(|| candidates.get(out.options.choice));
                // A candidate stopped by safety or MALFORMED_FUNCTION_CALL may have no content.
                candidate
                    .and_then(|c| c.get("content"))
                    .and_then(|c| c.get("parts"))
                    .and_then(Value::as_array)
            } else if let Some(parts) = body.get("parts").and_then(Value::as_array) {
                Some(parts)
            } else {
                return Err(BodyError::Shape("not a Gemini response: expected `candidates`".to_owned()));
            }
        }
    };
    let mut texts = Vec::new();
    for part in parts.map(Vec::as_slice).unwrap_or(&[]) {
        if let Some(call) = part.get("functionCall") {
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
            if let Some(text) = part.get("text").and_then(Value::as_str) {
                texts.push(text);
            }
        }
    }
    Ok(if texts.is_empty() { None } else { Some(texts.join("")) })
}
