//! Mistral's `[TOOL_CALLS]`: a JSON array of calls (tokenizers before v11),
//! `NAME{ARGS}` (v11) or `NAME[ARGS]{ARGS}` (v13), optionally with `[CALL_ID]id`.

use super::json::{self, peek_name};
use super::{push_malformed, push_truncated, text_parts};
use crate::calls::{Collector, OriginalArguments};
use crate::parse::lexer::spans::{container_end, skip_ws};

/// Read the call(s) after the marker at `start`; returns where they end.
pub(super) fn read(text: &str, start: usize, marker: &str, out: &mut Collector<'_>) -> usize {
    let bytes = text.as_bytes();
    let at = skip_ws(bytes, start + marker.len());
    let end = match bytes.get(at) {
        None => {
            push_truncated(out, &text[start..], None);
            return text.len();
        }
        Some(b'[' | b'{') => match container_end(text, at) {
            Some(end) => {
                json::read_block(&text[at..end], &text[start..end], out);
                end
            }
            // A list cut off: its whole calls are read, and the one cut is truncated.
            None if bytes[at] == b'[' => {
                json::read_block(&text[at..], &text[start..], out);
                return text.len();
            }
            None => {
                push_truncated(out, &text[at..], peek_name(&text[at..]));
                return text.len();
            }
        },
        Some(_) => read_named(text, start, at, out),
    };
    // The closing marker of the older templates, and the end-of-sequence token.
    let mut end = end;
    for closer in ["[/TOOL_CALLS]", "</s>"] {
        let next = skip_ws(bytes, end);
        if text[next..].starts_with(closer) {
            end = next + closer.len();
        }
    }
    end
}

/// `NAME[CALL_ID]ID[ARGS]{...}`, each bracket part optional.
fn read_named(text: &str, start: usize, at: usize, out: &mut Collector<'_>) -> usize {
    let bytes = text.as_bytes();
    let name_end = at
        + text[at..]
            .find(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '-' | '.')))
            .unwrap_or(text.len() - at);
    if name_end == at {
        push_malformed(out, &text[start..at], "expected a tool name or a JSON list after [TOOL_CALLS]");
        return at;
    }
    let name = text[at..name_end].to_owned();
    let mut id = None;
    let mut pos = name_end;
    loop {
        if let Some(rest) = text[pos..].strip_prefix("[CALL_ID]") {
            let len = rest.find(|c: char| !c.is_ascii_alphanumeric()).unwrap_or(rest.len());
            id = Some(rest[..len].to_owned());
            pos += "[CALL_ID]".len() + len;
        } else if text[pos..].starts_with("[ARGS]") {
            pos += "[ARGS]".len();
        } else {
            break;
        }
    }
    let args_at = skip_ws(bytes, pos);
    let (arguments, end) = match bytes.get(args_at) {
        Some(b'{') => match container_end(text, args_at) {
            Some(end) => (&text[args_at..end], end),
            // Cut off: the parse of the arguments reports it.
            None => (&text[args_at..], text.len()),
        },
        None => {
            push_truncated(out, &text[start..], Some(name));
            return text.len();
        }
        Some(_) => {
            push_malformed(
                out,
                &text[start..args_at],
                "expected the arguments as a JSON object after the name",
            );
            return args_at;
        }
    };
    let mut parts = text_parts(Some(name), OriginalArguments::Text(arguments.to_owned()), &text[start..end]);
    parts.id = id;
    out.push(parts);
    end
}
