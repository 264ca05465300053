//! Llama 3's `<|python_tag|>` followed by JSON calls separated by `;`.

use super::{find_outside_values, json};
use crate::calls::Collector;

/// Read the calls after the tag at `start`; `None` when the tag introduces code for the
/// built-in interpreter rather than JSON calls (then it stays content).
pub(super) fn read(text: &str, start: usize, tag: &str, out: &mut Collector<'_>) -> Option<usize> {
    let body_start = start + tag.len();
    let (body_end, end) = match find_outside_values(text, body_start, &["<|eom_id|>", "<|eot_id|>", tag]) {
        Some((at, 2)) => (at, at),
        Some((at, which)) => (at, at + ["<|eom_id|>", "<|eot_id|>"][which].len()),
        None => (text.len(), text.len()),
    };
    let body = text[body_start..body_end].trim();
    if !body.starts_with('{') && !body.starts_with('[') {
        return None;
    }
    json::read_block(body, &text[start..end], out);
    Some(end)
}
