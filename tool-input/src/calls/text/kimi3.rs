//! Kimi K3's XTML tools channel, whose arguments say their own type:
//! `<|open|>tools<|sep|><|open|>call tool="NAME" index="1"<|sep|>` then per argument
//! `<|open|>argument key="KEY" type="TYPE"<|sep|>VALUE<|close|>argument<|sep|>`, then
//! `<|close|>call<|sep|>…<|close|>tools<|sep|>`. A `type="string"` value is the text as
//! written; any other is JSON. Attribute values escape `"` and `&` as `&quot;` and `&amp;`.

use serde_json::Value;

use super::invoke::json_value;
use super::keywords::Keywords;
use super::{block, find_first, push_cut_off, push_malformed, text_parts, Ending};
use crate::calls::{Collector, OriginalArguments};

pub(super) const TOOLS_CLOSE: &str = "<|close|>tools<|sep|>";
pub(super) const CALL_OPEN: &str = "<|open|>call";
pub(super) const CALL_CLOSE: &str = "<|close|>call<|sep|>";
pub(super) const ARGUMENT_OPEN: &str = "<|open|>argument";
pub(super) const ARGUMENT_CLOSE: &str = "<|close|>argument<|sep|>";
pub(super) const SEP: &str = "<|sep|>";

/// Read the tools channel at `start`; returns where it ends.
pub(super) fn read(text: &str, start: usize, open: &str, out: &mut Collector<'_>) -> usize {
    let body_start = start + open.len();
    let (region_end, end, ending) = block(text, body_start, TOOLS_CLOSE, &[]);
    let closed = ending == Ending::Closed;
    let region = &text[..region_end];
    let mut pos = body_start;
    let mut read_any = false;
    while let Some((at, _)) = find_first(region, pos, &[CALL_OPEN]) {
        if out.is_full() {
            break;
        }
        read_any = true;
        pos = read_call(region, at, closed, out);
    }
    if !read_any {
        let span = &text[start..end];
        if closed {
            push_malformed(out, span, "the tools channel has no call");
        } else {
            let detail = format!("the tool call was cut off after {} bytes", span.len());
            push_cut_off(out, text_parts(None, OriginalArguments::Text(span.to_owned()), span), detail);
        }
    }
    end
}

/// One call at `start`; returns the index after it.
fn read_call(text: &str, start: usize, section_closed: bool, out: &mut Collector<'_>) -> usize {
    let attributes_start = start + CALL_OPEN.len();
    let (end, closed) = match find_first(text, attributes_start, &[CALL_CLOSE, CALL_OPEN]) {
        Some((at, 0)) => (at + CALL_CLOSE.len(), true),
        Some((at, _)) => (at, section_closed),
        None => (text.len(), section_closed),
    };
    let span = &text[start..end];
    let cut = |out: &mut Collector<'_>, name: Option<String>, inside: &str| {
        let detail = format!("the tool call was cut off after {} bytes, inside {inside}", span.len());
        push_cut_off(out, text_parts(name, OriginalArguments::Text(span.to_owned()), span), detail);
    };
    let Some(header_end) = text[attributes_start..end].find(SEP).map(|at| at + attributes_start) else {
        cut(out, None, "the call's header");
        return end;
    };
    let call = attributes(&text[attributes_start..header_end]);
    let name = lookup(&call, "tool").unwrap_or_default();
    let mut params = Keywords::default();
    let mut pos = header_end + SEP.len();
    while let Some((at, _)) = find_first(&text[..end], pos, &[ARGUMENT_OPEN]) {
        let header_start = at + ARGUMENT_OPEN.len();
        let Some(value_start) = text[header_start..end].find(SEP).map(|at| at + header_start) else {
            cut(out, Some(name), "an argument's header");
            return end;
        };
        let argument = attributes(&text[header_start..value_start]);
        let value_start = value_start + SEP.len();
        let Some(value_end) = text[value_start..end].find(ARGUMENT_CLOSE).map(|at| at + value_start) else {
            cut(out, Some(name), "an argument's value");
            return end;
        };
        let raw = &text[value_start..value_end];
        let key = lookup(&argument, "key").unwrap_or_default();
        let value = typed_value(raw, lookup(&argument, "type").as_deref());
        params.insert(key, value);
        pos = value_end + ARGUMENT_CLOSE.len();
    }
    if !closed {
        cut(out, Some(name), "its arguments");
    } else if name.is_empty() {
        push_malformed(out, span, "the call names no tool");
    } else {
        params.push(out, name, None, span);
    }
    end
}

/// Is a value of this declared type the text as written?
pub(super) fn is_text(declared: Option<&str>) -> bool {
    matches!(declared, None | Some("string"))
}

/// An argument's value by its declared type: the text as written, or JSON.
pub(super) fn typed_value(raw: &str, declared: Option<&str>) -> Value {
    if is_text(declared) {
        return Value::String(raw.to_owned());
    }
    json_value(raw).unwrap_or_else(|| Value::String(raw.to_owned()))
}

/// `key="value"` pairs, unescaped.
pub(super) fn attributes(text: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(eq) = rest.find("=\"") {
        let key = rest[..eq].trim().rsplit(char::is_whitespace).next().unwrap_or("").to_owned();
        let value_start = eq + 2;
        let Some(close) = rest[value_start..].find('"') else { break };
        let value = rest[value_start..value_start + close].replace("&quot;", "\"").replace("&amp;", "&");
        found.push((key, value));
        rest = &rest[value_start + close + 1..];
    }
    found
}

pub(super) fn lookup(attributes: &[(String, String)], key: &str) -> Option<String> {
    attributes.iter().find(|(k, _)| k == key).map(|(_, value)| value.clone())
}
