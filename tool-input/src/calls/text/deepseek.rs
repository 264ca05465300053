//! DeepSeek's special tokens, written with fullwidth `｜` bars (as the models emit them) or
//! ASCII `|` (as some templates spell them):
//!
//! - V3/R1: `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME`, a newline,
//!   the arguments in a ```` ```json ```` fence, `<｜tool▁call▁end｜>`, … `<｜tool▁calls▁end｜>`;
//! - V3.1: `<｜tool▁call▁begin｜>NAME<｜tool▁sep｜>ARGS<｜tool▁call▁end｜>`.
//!
//! An `<｜end▁of▁sentence｜>` right after the calls is part of them, not content.

use super::{find_first, find_outside_values, push_malformed, push_truncated, text_parts};
use crate::calls::{Collector, OriginalArguments};

const CALLS_BEGIN: [&str; 2] = ["<｜tool▁calls▁begin｜>", "<|tool▁calls▁begin|>"];
const CALLS_END: [&str; 2] = ["<｜tool▁calls▁end｜>", "<|tool▁calls▁end|>"];
const CALL_BEGIN: [&str; 2] = ["<｜tool▁call▁begin｜>", "<|tool▁call▁begin|>"];
const CALL_END: [&str; 2] = ["<｜tool▁call▁end｜>", "<|tool▁call▁end|>"];
const SEP: [&str; 2] = ["<｜tool▁sep｜>", "<|tool▁sep|>"];
const END_OF_SENTENCE: [&str; 2] = ["<｜end▁of▁sentence｜>", "<|end▁of▁sentence|>"];

/// Read the section or single call at `start`; returns where it ends.
pub(super) fn read(text: &str, start: usize, out: &mut Collector<'_>) -> usize {
    let section = CALLS_BEGIN.iter().find(|begin| text[start..].starts_with(**begin));
    let mut end = match section {
        Some(begin) => {
            let from = start + begin.len();
            let (section_end, end) = match find_outside_values(text, from, &CALLS_END) {
                Some((at, which)) => (at, at + CALLS_END[which].len()),
                None => (text.len(), text.len()),
            };
            let region = &text[..section_end];
            let mut pos = from;
            while let Some((at, which)) = find_outside_values(region, pos, &CALL_BEGIN) {
                if out.is_full() {
                    break;
                }
                pos = read_call(region, at + CALL_BEGIN[which].len(), at, section_end < text.len(), out);
            }
            end
        }
        None => {
            let which = CALL_BEGIN.iter().position(|begin| text[start..].starts_with(*begin)).unwrap_or(0);
            let end = read_call(text, start + CALL_BEGIN[which].len(), start, false, out);
            match CALLS_END.iter().find(|close| text[end..].starts_with(**close)) {
                Some(close) => end + close.len(),
                None => end,
            }
        }
    };
    if let Some(eos) = END_OF_SENTENCE.iter().find(|eos| text[end..].starts_with(**eos)) {
        end += eos.len();
    }
    end
}

/// Read one call whose body starts at `body_start`; returns the index after its end token.
fn read_call(
    text: &str,
    body_start: usize,
    start: usize,
    section_closed: bool,
    out: &mut Collector<'_>,
) -> usize {
    let mut patterns = CALL_END.to_vec();
    patterns.extend(CALL_BEGIN);
    let (body_end, end, closed) = match find_outside_values(text, body_start, &patterns) {
        Some((at, which)) if which < 2 => (at, at + patterns[which].len(), true),
        Some((at, _)) => (at, at, false),
        None => (text.len(), text.len(), section_closed),
    };
    let span = &text[start..end];
    let body = &text[body_start..body_end];
    let Some((sep, which)) = find_first(body, 0, &SEP) else {
        if closed {
            push_malformed(out, span, "no <｜tool▁sep｜> between the name and the arguments");
        } else {
            push_truncated(out, span, None);
        }
        return end;
    };
    let before = body[..sep].trim();
    let after = &body[sep + SEP[which].len()..];
    let (name, arguments) = if before.is_empty() || before == "function" {
        // V3: the name on the separator's line, then the arguments in a fence.
        let line_end = after.find('\n').unwrap_or(after.len());
        let name = after[..line_end].trim();
        (name, fenced(&after[line_end..]))
    } else {
        (before, after.trim())
    };
    if name.is_empty() {
        push_malformed(out, span, "the call has no tool name");
        return end;
    }
    let arguments = if arguments.is_empty() && !closed {
        // Cut off before the arguments began.
        push_truncated(out, span, Some(name.to_owned()));
        return end;
    } else if arguments.is_empty() {
        OriginalArguments::Absent
    } else {
        OriginalArguments::Text(arguments.to_owned())
    };
    out.push(text_parts(Some(name.to_owned()), arguments, span));
    end
}

/// The inside of a ```` ```json ```` fence (the fence is the format, not a mistake to
/// repair); text without a fence is returned trimmed. An unclosed fence runs to the end.
fn fenced(text: &str) -> &str {
    let trimmed = text.trim();
    let Some(rest) = trimmed.strip_prefix("```") else { return trimmed };
    let body = match rest.find('\n') {
        Some(newline) if !rest[..newline].contains(['{', '[']) => &rest[newline + 1..],
        _ => rest.trim_start_matches(|c: char| c.is_ascii_alphabetic()),
    };
    match body.rfind("```") {
        Some(close) => body[..close].trim(),
        None => body.trim(),
    }
}
