//! Kimi K2's special tokens: `<|tool_calls_section_begin|>`, then per call
//! `<|tool_call_begin|>functions.NAME:N<|tool_call_argument_begin|>ARGS<|tool_call_end|>`,
//! then `<|tool_calls_section_end|>`. The id `functions.NAME:N` is the call's id, kept byte
//! for byte (Kimi needs it echoed); the name is the part between `functions.` and `:N`.

use super::{find_outside_values, push_malformed, push_truncated, push_truncated_parts, text_parts};
use crate::calls::{Collector, OriginalArguments};

const SECTION_BEGIN: [&str; 2] = ["<|tool_calls_section_begin|>", "<|tool_call_section_begin|>"];
const SECTION_END: [&str; 2] = ["<|tool_calls_section_end|>", "<|tool_call_section_end|>"];
const CALL_BEGIN: &str = "<|tool_call_begin|>";
const ARGUMENT_BEGIN: &str = "<|tool_call_argument_begin|>";
const CALL_END: &str = "<|tool_call_end|>";

/// Read the section or single call at `start`; returns where it ends.
pub(super) fn read(text: &str, start: usize, out: &mut Collector<'_>) -> usize {
    match SECTION_BEGIN.iter().find(|begin| text[start..].starts_with(**begin)) {
        Some(begin) => {
            let from = start + begin.len();
            let (section_end, end) = match find_outside_values(text, from, &SECTION_END) {
                Some((at, which)) => (at, at + SECTION_END[which].len()),
                None => (text.len(), text.len()),
            };
            let region = &text[..section_end];
            let mut pos = from;
            while let Some((at, _)) = find_outside_values(region, pos, &[CALL_BEGIN]) {
                if out.is_full() {
                    break;
                }
                pos = read_call(region, at, section_end < text.len(), out);
            }
            end
        }
        None => read_call(text, start, false, out),
    }
}

/// Read the call at `start` (at its begin token); returns the index after its end token.
fn read_call(text: &str, start: usize, section_closed: bool, out: &mut Collector<'_>) -> usize {
    let body_start = start + CALL_BEGIN.len();
    let (body_end, end, closed) = match find_outside_values(text, body_start, &[CALL_END, CALL_BEGIN]) {
        Some((at, 0)) => (at, at + CALL_END.len(), true),
        Some((at, _)) => (at, at, false),
        None => (text.len(), text.len(), section_closed),
    };
    let span = &text[start..end];
    let body = &text[body_start..body_end];
    let Some(argument_at) = body.find(ARGUMENT_BEGIN) else {
        if closed {
            push_malformed(out, span, "no <|tool_call_argument_begin|> after the call id");
        } else {
            push_truncated(out, span, None);
        }
        return end;
    };
    let id = body[..argument_at].trim();
    let name = name_of(id);
    if name.is_empty() {
        push_malformed(out, span, "the call id names no tool");
        return end;
    }
    let arguments = body[argument_at + ARGUMENT_BEGIN.len()..].trim();
    let mut parts = text_parts(Some(name.to_owned()), OriginalArguments::Text(arguments.to_owned()), span);
    parts.id = Some(id.to_owned());
    if arguments.is_empty() && !closed {
        push_truncated_parts(out, span, parts);
        return end;
    }
    out.push(parts);
    end
}

/// `functions.get_weather:0` → `get_weather`.
pub(super) fn name_of(id: &str) -> &str {
    let name = id.strip_prefix("functions.").unwrap_or(id);
    match name.rsplit_once(':') {
        Some((name, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => name,
        _ => name,
    }
}
