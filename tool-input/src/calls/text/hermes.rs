//! `<tool_call>…</tool_call>` blocks (Hermes, Qwen), whose body is JSON, qwen3-coder XML or
//! GLM's key/value tags; and `<tools>…</tools>`, which Qwen3-Coder writes when its system
//! prompt shows that tag.

use super::{block, holds_a_value, json, push_malformed, push_truncated, unfence, value_block, xml, Ending};
use crate::calls::Collector;

/// Read the block opening at `start`. A block without its closing tag runs to the next
/// opening tag or to the end of the text (a response cut off after a complete call still
/// has that call).
pub(super) fn read(text: &str, start: usize, open: &str, out: &mut Collector<'_>) -> Option<usize> {
    let close = if open == "<tools>" { "</tools>" } else { "</tool_call>" };
    let body_start = start + open.len();
    // A JSON body's strings may hold any marker: the block ends after its value.
    let (body_end, end, ending) = if holds_a_value(text, body_start) {
        value_block(text, body_start, close, &[open])
    } else {
        block(text, body_start, close, &[open])
    };
    let closed = ending == Ending::Closed;
    let span = &text[start..end];
    let body = unfence(&text[body_start..body_end]);
    if body.is_empty() {
        if closed {
            push_malformed(out, span, "the block is empty");
        } else {
            push_truncated(out, span, None);
        }
    } else if body.starts_with('{') || body.starts_with('[') {
        json::read_block(body, span, out);
    } else if body.starts_with("<function=") {
        xml::read_functions(body, ending, out);
    } else {
        xml::read_glm(body, ending, span, out);
    }
    Some(end)
}
