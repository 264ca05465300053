//! Formats whose calls are JSON after a marker of their own, and the key/value tag formats
//! HY V3 and Solar Open 2.
//!
//! | marker | after it | closed by |
//! |---|---|---|
//! | `<\|tool_call\|>` (Granite 3.0) | a list of calls | the end, `<\|end_of_text\|>` |
//! | `<function_call>` (Granite 20B) | one call | the next call or the end |
//! | `functools[` (Phi-4-mini) | a list of calls | its `]` |
//! | `<\|START_ACTION\|>` (Command A) | a list of `{"tool_call_id", "tool_name", "parameters"}` | `<\|END_ACTION\|>` |
//! | ``Action: ```json`` (Command R) | a list of `{"tool_name", "parameters"}` | ```` ``` ```` |
//! | `<\|action_start\|><\|plugin\|>` (InternLM) | one call | `<\|action_end\|>` |
//! | `<longcat_tool_call>` | one call | `</longcat_tool_call>` |
//! | `function call<\|role_sep\|>` or `<\|function_call\|>` (GigaChat 3) | one call | the end, `</s>` |
//! | `<\|tools_prefix\|>` (Apertus) | a list of `{"NAME": {arguments}}` | `<\|tools_suffix\|>` |
//! | `<tool_calls>` (Hunyuan A13B, Jamba) | a list of calls | `</tool_calls>` |

use super::json::{self, peek_name};
use super::keywords::Keywords;
use super::markers::{Marker, MARKERS};
use super::scan::split_object;
use super::{
    block, find_first, find_outside_values, holds_a_value, push_cut_off, push_malformed, push_truncated,
    text_parts, value_block, xml, Ending,
};
use crate::calls::{Collector, OriginalArguments};
use crate::parse::lexer::spans::{container_end, skip_ws, skip_ws_escaped};
use crate::parse::{self, ParseOptions};

/// Read the JSON after `marker` (`pattern`) at `start`; `None` when no JSON follows (the
/// marker is then content).
pub(super) fn read_json_marked(
    text: &str,
    start: usize,
    pattern: &str,
    marker: Marker,
    out: &mut Collector<'_>,
) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut at = start + pattern.len();
    let closers: &[&str] = match marker {
        Marker::GraniteTag => &["<|end_of_text|>"],
        Marker::CohereAction => &["<|END_ACTION|>"],
        Marker::CohereFence => &["```"],
        Marker::InternLm => &["<|action_end|>"],
        Marker::Longcat => &["</longcat_tool_call>"],
        Marker::GigaChat => &["</s>"],
        Marker::Apertus => &["<|tools_suffix|>"],
        Marker::Inkling => &["<|end_message|>", "<|content_model_end_sampling|>"],
        _ => &[],
    };
    match marker {
        // The list's bracket is the marker's last byte.
        Marker::Functools => at -= 1,
        Marker::InternLm => {
            let plugin = skip_ws(bytes, at);
            // `<|interpreter|>` introduces code, not a call.
            at = plugin + text[plugin..].strip_prefix("<|plugin|>").map(|_| "<|plugin|>".len())?;
        }
        _ => {}
    }
    let at = skip_ws_escaped(bytes, at);
    if !matches!(bytes.get(at), Some(b'{' | b'[')) {
        if at >= text.len() {
            // Cut off right after the marker.
            push_truncated(out, &text[start..], None);
            return Some(text.len());
        }
        return None;
    }
    // The value is read up to the next marker of its kind outside its strings, never past
    // it: a value not closed before it is cut off (as a `<tool_call>` block runs to the
    // next), and that block is read on its own. Reading each value on to the end took
    // quadratic time; a marker inside one of its strings is its text.
    let openers: Vec<&str> =
        MARKERS.iter().filter(|(_, kind)| *kind == marker).map(|(opener, _)| *opener).collect();
    let limit = find_outside_values(text, at, &openers).map_or(text.len(), |(next, _)| next);
    // Nor past its block's closing marker outside its strings: the model stopped the value
    // there, as a stream reads it, and a bracket after the marker belongs to other text (a
    // `"` in the prose after it would otherwise open a string that hides the next block's
    // marker, and that block's brackets would close this value).
    let closer = find_outside_values(&text[..limit], at, closers);
    let value_limit = closer.map_or(limit, |(found, _)| found);
    let Some(value_end) = container_end(&text[..value_limit], at) else {
        // Not closed: cut off where the block's closing marker (outside the value's strings)
        // says the model stopped, else before the next block, or at the end.
        let (value_cut, cut) =
            closer.map_or((limit, limit), |(found, which)| (found, found + closers[which].len()));
        // A list cut off: its whole calls are read, and the one cut is truncated.
        let before = out.attempts();
        if bytes[at] == b'[' && text[at..value_cut].contains('{') {
            let value = &text[at..value_cut];
            let span = &text[start..cut];
            if marker == Marker::Apertus {
                read_named_objects(value, span, out);
            } else {
                json::read_block(value, span, out);
            }
        }
        if out.attempts() == before {
            push_truncated(out, &text[at..cut], peek_name(&text[at..cut]));
        }
        return Some(cut);
    };
    let mut end = value_end;
    let after = skip_ws_escaped(bytes, end);
    if let Some(closer) = closers.iter().find(|closer| text[after..].starts_with(**closer)) {
        end = after + closer.len();
    }
    let value = &text[at..value_end];
    if marker == Marker::Functools && !value.contains('{') {
        // The one marker that is a word: `functools[1]` with no object in it is prose (the
        // special tokens' lists report each item that is no call).
        return None;
    }
    let span = &text[start..end];
    if marker == Marker::Apertus {
        read_named_objects(value, span, out);
    } else {
        json::read_block(value, span, out);
    }
    Some(end)
}

/// Apertus's `[{"NAME": {arguments}}, …]`: each object's one key is the tool.
fn read_named_objects(value: &str, span: &str, out: &mut Collector<'_>) {
    let bytes = value.as_bytes();
    let mut i = if bytes.first() == Some(&b'[') { 1 } else { 0 };
    loop {
        i = json::skip_separators(bytes, i);
        match bytes.get(i) {
            Some(b'{') => {
                let Some(end) = container_end(value, i) else {
                    // Cut off inside this call.
                    return push_truncated(out, &value[i..], cut_name(&value[i..]));
                };
                let object = &value[i..end];
                match named_object(object) {
                    Some((name, arguments)) => out.push(text_parts(Some(name), arguments, object)),
                    None => {
                        push_malformed(out, span, "each call must be an object with one key, the tool's name")
                    }
                }
                i = end;
            }
            _ => return,
        }
        if out.is_full() {
            return;
        }
    }
}

/// The tool's name of an Apertus call object cut off, when its key arrived whole.
fn cut_name(object: &str) -> Option<String> {
    let options = ParseOptions { complete_truncated: true, ..ParseOptions::default() };
    let value = parse::parse(object, &options).ok()?.value;
    let name = value.as_object()?.keys().next()?.clone();
    object.contains(&format!("\"{name}\":")).then_some(name)
}

/// The tool's name and arguments of an Apertus call object `{"NAME": {arguments}}`: the
/// arguments as their text where the object splits into members as written, else (escaped
/// JSON, comments) as the value the parser reads.
fn named_object(object: &str) -> Option<(String, OriginalArguments)> {
    match split_object(object) {
        Some(fields) => {
            let [(name, arguments)] = fields.as_slice() else { return None };
            Some((name.clone(), OriginalArguments::Text((*arguments).to_owned())))
        }
        None => {
            let value = parse::parse(object, &ParseOptions::default()).ok()?.value;
            let map = value.as_object()?;
            let (name, arguments) = map.iter().next().filter(|_| map.len() == 1)?;
            Some((name.clone(), OriginalArguments::Value(arguments.clone())))
        }
    }
}

/// `<tool_calls>…</tool_calls>` at `start`: a JSON list (Hunyuan A13B, Jamba), or HY V3's
/// `<tool_call>NAME<tool_sep><arg_key>KEY</arg_key><arg_value>VALUE</arg_value></tool_call>`s.
pub(super) fn read_tool_calls(text: &str, start: usize, open: &str, out: &mut Collector<'_>) -> usize {
    let body_start = start + open.len();
    // A JSON list's strings may hold any marker: the block ends after its value.
    let (body_end, end, ending) = if holds_a_value(text, body_start) {
        value_block(text, body_start, "</tool_calls>", &[])
    } else {
        block(text, body_start, "</tool_calls>", &[])
    };
    let closed = ending == Ending::Closed;
    let span = &text[start..end];
    let body = text[body_start..body_end].trim();
    if body.starts_with('[') || body.starts_with('{') {
        json::read_block(body, span, out);
        return end;
    }
    let mut pos = 0;
    let mut read_any = false;
    while let Some((at, _)) = find_first(body, pos, &["<tool_call>"]) {
        if out.is_full() {
            break;
        }
        read_any = true;
        let call_start = at + "<tool_call>".len();
        let (call_end, next, call_closed) =
            match find_first(body, call_start, &["</tool_call>", "<tool_call>"]) {
                Some((e, 0)) => (e, e + "</tool_call>".len(), true),
                Some((e, _)) => (e, e, closed),
                None => (body.len(), body.len(), closed),
            };
        read_key_values(&body[call_start..call_end], &body[at..next], call_closed, out);
        pos = next;
    }
    if !read_any {
        if closed {
            push_malformed(out, span, "expected a JSON list or `<tool_call>` blocks");
        } else {
            push_truncated(out, span, None);
        }
    }
    end
}

/// `NAME<tool_sep>` then `<arg_key>`/`<arg_value>` pairs.
fn read_key_values(call: &str, span: &str, closed: bool, out: &mut Collector<'_>) {
    let name_end = find_first(call, 0, &["<tool_sep>", "<arg_key>"]).map_or(call.len(), |(at, _)| at);
    let name = call[..name_end].trim().to_owned();
    let cut = |out: &mut Collector<'_>, name: Option<String>, inside: &str| {
        let detail = format!("the tool call was cut off after {} bytes, inside {inside}", span.len());
        push_cut_off(out, text_parts(name, OriginalArguments::Text(span.to_owned()), span), detail);
    };
    if !closed {
        return cut(out, (!name.is_empty()).then_some(name), "its arguments");
    }
    if name.is_empty() || name.contains(['<', '{', '"']) {
        return push_malformed(out, span, "expected a tool name before `<tool_sep>`");
    }
    let schema = out.options.schema_of(&name);
    let mut params = Keywords::default();
    let mut pos = name_end;
    while let Some((at, _)) = find_first(call, pos, &["<arg_key>"]) {
        let key_start = at + "<arg_key>".len();
        let Some(key_end) = call[key_start..].find("</arg_key>").map(|k| k + key_start) else {
            return push_malformed(out, span, "an argument's name is not closed");
        };
        let rest = &call[key_end + "</arg_key>".len()..];
        let Some(value) = rest.trim_start().strip_prefix("<arg_value>") else {
            return push_malformed(out, span, "an argument has no value");
        };
        let Some(value_end) = value.find("</arg_value>") else {
            return push_malformed(out, span, "an argument's value is not closed");
        };
        let key = call[key_start..key_end].trim().to_owned();
        params.insert(key.clone(), xml::convert(&value[..value_end], schema, &key));
        pos = call.len() - value.len() + value_end + "</arg_value>".len();
    }
    params.push(out, name, None, span);
}

const SOLAR_END: &str = "<|tool_call:end|>";
const SOLAR_ARG: &str = "<|tool_arg:start|>";
const SOLAR_VALUE: &str = "<|tool_arg:value|>";
const SOLAR_ARG_END: &str = "<|tool_arg:end|>";

/// Solar Open 2's `<|tool_call:start|>NAME` newline, then
/// `<|tool_arg:start|>KEY<|tool_arg:value|>VALUE<|tool_arg:end|>`s, then
/// `<|tool_call:end|>`.
pub(super) fn read_solar(text: &str, start: usize, open: &str, out: &mut Collector<'_>) -> usize {
    let body_start = start + open.len();
    // A call the next one starts before its end is whole: only the end of the text cuts it.
    let (body_end, end, ending) = block(text, body_start, SOLAR_END, &[open]);
    let closed = ending != Ending::End;
    let span = &text[start..end];
    let body = &text[body_start..body_end];
    let name_end = find_first(body, 0, &["\n", SOLAR_ARG]).map_or(body.len(), |(at, _)| at);
    let name = body[..name_end].trim().to_owned();
    if !closed {
        let detail = format!("the tool call was cut off after {} bytes", span.len());
        push_cut_off(
            out,
            text_parts((!name.is_empty()).then_some(name), OriginalArguments::Text(span.to_owned()), span),
            detail,
        );
        return end;
    }
    if name.is_empty() {
        push_malformed(out, span, "the call has no name");
        return end;
    }
    let schema = out.options.schema_of(&name);
    let mut params = Keywords::default();
    let mut pos = name_end;
    while let Some((at, _)) = find_first(body, pos, &[SOLAR_ARG]) {
        let key_start = at + SOLAR_ARG.len();
        let Some(key_end) = body[key_start..].find(SOLAR_VALUE).map(|k| k + key_start) else {
            push_malformed(out, span, "an argument has no `<|tool_arg:value|>`");
            return end;
        };
        let value_start = key_end + SOLAR_VALUE.len();
        let (value_end, next) = match find_first(body, value_start, &[SOLAR_ARG_END, SOLAR_ARG]) {
            Some((v, 0)) => (v, v + SOLAR_ARG_END.len()),
            Some((v, _)) => (v, v),
            None => (body.len(), body.len()),
        };
        let key = body[key_start..key_end].trim().to_owned();
        params.insert(key.clone(), xml::convert(&body[value_start..value_end], schema, &key));
        pos = next;
    }
    params.push(out, name, None, span);
    end
}
