//! Calls written as an `invoke` tag with one tag per parameter, the name in an attribute:
//!
//! - MiniMax M2: `<minimax:tool_call><invoke name="NAME"><parameter name="KEY">VALUE</parameter></invoke></minimax:tool_call>`;
//! - DeepSeek V3.2/V4 (DSML): `<｜DSML｜function_calls>` (V4: `tool_calls`) with
//!   `<｜DSML｜invoke name="NAME">` and `<｜DSML｜parameter name="KEY" string="true|false">`;
//!   `string="true"` is a string as written, `string="false"` a JSON value;
//! - Step 3: `<｜tool_calls_begin｜>…<steptml:invoke name="NAME"><steptml:parameter name="KEY">…`;
//! - MiniCPM 5: `<function name="NAME"><param name="KEY">VALUE</param></function>` (a
//!   value may be CDATA).
//!
//! Values without a type of their own are converted by the tool's schema, as qwen3-coder's
//! are ([`xml::convert`](super::xml::convert)).

use serde_json::Value;

use super::keywords::Keywords;
use super::{block, find_first, push_cut_off, push_malformed, text_parts, xml, Ending};
use crate::calls::{Collector, OriginalArguments};
use crate::parse::{self, ParseOptions};

/// The tags of one dialect.
struct Tags<'a> {
    invoke: &'a str,
    invoke_close: &'a str,
    param: &'a str,
    param_close: &'a str,
}

/// MiniMax M2's `<minimax:tool_call>` section at `start`; returns where it ends.
pub(super) fn read_minimax_m2(text: &str, start: usize, open: &str, out: &mut Collector<'_>) -> usize {
    let tags = Tags {
        invoke: "<invoke name=",
        invoke_close: "</invoke>",
        param: "<parameter name=",
        param_close: "</parameter>",
    };
    read_section(text, start, open, "</minimax:tool_call>", &tags, out)
}

/// DeepSeek's DSML section at `start` (`open` is its tag, fullwidth or ASCII bars).
pub(super) fn read_dsml(text: &str, start: usize, open: &str, out: &mut Collector<'_>) -> usize {
    let bar = if open.starts_with("<｜") { "｜DSML｜" } else { "|DSML|" };
    let close = format!("</{}", &open[1..]);
    let (invoke, invoke_close) = (format!("<{bar}invoke name="), format!("</{bar}invoke>"));
    let (param, param_close) = (format!("<{bar}parameter name="), format!("</{bar}parameter>"));
    let tags =
        Tags { invoke: &invoke, invoke_close: &invoke_close, param: &param, param_close: &param_close };
    read_section(text, start, open, &close, &tags, out)
}

/// Step 3's `<｜tool_calls_begin｜>` section at `start`.
pub(super) fn read_step3(text: &str, start: usize, open: &str, out: &mut Collector<'_>) -> usize {
    let tags = Tags {
        invoke: "<steptml:invoke name=",
        invoke_close: "</steptml:invoke>",
        param: "<steptml:parameter name=",
        param_close: "</steptml:parameter>",
    };
    read_section(text, start, open, "<｜tool_calls_end｜>", &tags, out)
}

/// MiniCPM 5's `<function name=…>` at `start`, one call.
pub(super) fn read_minicpm(text: &str, start: usize, out: &mut Collector<'_>) -> usize {
    let tags = Tags {
        invoke: "<function name=",
        invoke_close: "</function>",
        param: "<param name=",
        param_close: "</param>",
    };
    let (end, closed) = match find_first(text, start, &["</function>"]) {
        Some((at, _)) => (at + "</function>".len(), true),
        None => (text.len(), false),
    };
    read_invoke(&text[..end], start, closed, &tags, out);
    end
}

/// A section from `open` at `start` to `close` (or the end), read invoke by invoke.
fn read_section(
    text: &str,
    start: usize,
    open: &str,
    close: &str,
    tags: &Tags<'_>,
    out: &mut Collector<'_>,
) -> usize {
    let body_start = start + open.len();
    let (region_end, end, ending) = block(text, body_start, close, &[]);
    let closed = ending == Ending::Closed;
    let region = &text[..region_end];
    let mut pos = body_start;
    let mut read_any = false;
    while let Some((at, _)) = find_first(region, pos, &[tags.invoke]) {
        if out.is_full() {
            break;
        }
        read_any = true;
        pos = read_invoke(region, at, closed, tags, out);
    }
    if !read_any {
        let span = &text[start..end];
        if closed {
            push_malformed(out, span, &format!("no `{}` in the block", tags.invoke.trim_end_matches('=')));
        } else {
            push_cut_off(
                out,
                text_parts(None, OriginalArguments::Text(span.to_owned()), span),
                cut(span, "the block"),
            );
        }
    }
    end
}

fn cut(span: &str, inside: &str) -> String {
    format!("the tool call was cut off after {} bytes, inside {inside}", span.len())
}

/// One invoke at `start` in `text` (which ends where its section does; `section_closed`
/// when the section's closing tag came). Returns the index after it. An invoke without its
/// closing tag that runs to the end of an unclosed section was cut off: it is never run
/// with the parameters that arrived.
fn read_invoke(
    text: &str,
    start: usize,
    section_closed: bool,
    tags: &Tags<'_>,
    out: &mut Collector<'_>,
) -> usize {
    let after_name = start + tags.invoke.len();
    let Some(header_end) = text[after_name..].find('>').map(|at| at + after_name) else {
        let span = &text[start..];
        push_cut_off(
            out,
            text_parts(None, OriginalArguments::Text(span.to_owned()), span),
            cut(span, "the call's name"),
        );
        return text.len();
    };
    let header = attributes(&text[after_name..header_end]);
    let name = header.first().map(|(_, value)| value.clone()).unwrap_or_default();
    let body_start = header_end + 1;
    let (body_end, end, ending) = block(text, body_start, tags.invoke_close, &[tags.invoke]);
    let closed = ending == Ending::Closed || section_closed;
    let span = &text[start..end];
    let body = &text[body_start..body_end];
    let schema = out.options.schema_of(&name);
    let mut params = Keywords::default();
    let mut pos = 0;
    while let Some((at, _)) = find_first(body, pos, &[tags.param]) {
        let attributes_start = at + tags.param.len();
        let Some(tag_end) = body[attributes_start..].find('>').map(|k| k + attributes_start) else {
            if closed {
                break;
            }
            push_cut_off(
                out,
                text_parts(Some(name), OriginalArguments::Text(span.to_owned()), span),
                cut(span, "a parameter's name"),
            );
            return end;
        };
        let attributes = attributes(&body[attributes_start..tag_end]);
        let key = attributes.first().map(|(_, value)| value.clone()).unwrap_or_default();
        let value_start = tag_end + 1;
        let (value_end, next, value_closed) =
            match find_first(body, value_start, &[tags.param_close, tags.param]) {
                Some((v, 0)) => (v, v + tags.param_close.len(), true),
                Some((v, _)) => (v, v, false),
                None => (body.len(), body.len(), false),
            };
        if !value_closed && !closed && next == body.len() {
            push_cut_off(
                out,
                text_parts(Some(name), OriginalArguments::Text(span.to_owned()), span),
                cut(span, "a parameter's value"),
            );
            return end;
        }
        let value = param_value(&body[value_start..value_end], &attributes, schema, &key);
        params.insert(key, value);
        pos = next;
    }
    if ending == Ending::End && !section_closed {
        let name = (!name.trim().is_empty()).then_some(name);
        push_cut_off(
            out,
            text_parts(name, OriginalArguments::Text(span.to_owned()), span),
            cut(span, &format!("the call, before `{}`", tags.invoke_close)),
        );
    } else if name.trim().is_empty() {
        push_malformed(out, span, "the call has no name");
    } else {
        params.push(out, name, None, span);
    }
    end
}

/// A parameter's value from its text and its tag's attributes: `string="true"` is a string
/// as written, `string="false"` a JSON value, and otherwise the tool's schema converts it.
pub(super) fn param_value(
    raw: &str,
    attributes: &[(String, String)],
    schema: Option<&Value>,
    key: &str,
) -> Value {
    let raw = cdata(raw);
    let typed = string_attribute(attributes);
    match typed {
        Some("true") => Value::String(raw.to_owned()),
        Some("false") => json_value(raw).unwrap_or_else(|| xml::convert(raw, schema, key)),
        _ => xml::convert(raw, schema, key),
    }
}

/// The `string=` attribute of a parameter's tag, if it has one.
pub(super) fn string_attribute(attributes: &[(String, String)]) -> Option<&str> {
    attributes.iter().find(|(attribute, _)| attribute == "string").map(|(_, value)| value.as_str())
}

/// `"NAME" string="true"` → `[("name", "NAME"), ("string", "true")]`: the first value is
/// the one after the tag's own `name=`; quotes are optional.
pub(super) fn attributes(header: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut rest = header.trim_start();
    let mut key = "name".to_owned();
    loop {
        let (value, after) = match rest.chars().next() {
            Some(quote @ ('"' | '\'')) => match rest[1..].find(quote) {
                Some(close) => (&rest[1..=close], &rest[close + 2..]),
                None => (&rest[1..], ""),
            },
            _ => {
                let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
                (&rest[..end], &rest[end..])
            }
        };
        found.push((key, value.trim().to_owned()));
        let after = after.trim_start();
        let Some(eq) = after.find('=') else { return found };
        key = after[..eq].trim().to_owned();
        rest = after[eq + 1..].trim_start();
        if rest.is_empty() {
            return found;
        }
    }
}

/// The inside of a `<![CDATA[…]]>` value, or the value.
fn cdata(raw: &str) -> &str {
    let trimmed = raw.trim();
    trimmed.strip_prefix("<![CDATA[").and_then(|inner| inner.strip_suffix("]]>")).unwrap_or(raw)
}

/// A value written as JSON (`string="false"`), read leniently.
pub(super) fn json_value(raw: &str) -> Option<Value> {
    let trimmed = raw.trim();
    if trimmed.is_empty() {
        return None;
    }
    // Strict JSON as `serde_json` reads it, where it reads first (a top-level string stays
    // a string, unlike the lenient parse, which decodes a payload inside one).
    if let Ok(value) = parse::strict_value(trimmed) {
        return Some(value);
    }
    parse::parse(trimmed, &ParseOptions::default()).ok().map(|parsed| parsed.value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attributes_are_read_with_or_without_quotes() {
        assert_eq!(
            attributes(r#""city" string="true""#),
            vec![("name".to_owned(), "city".to_owned()), ("string".to_owned(), "true".to_owned())]
        );
        assert_eq!(attributes("get_weather"), vec![("name".to_owned(), "get_weather".to_owned())]);
    }
}
