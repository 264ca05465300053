//! Parameters written as tags, each value as text: qwen3-coder's
//! `<function=NAME><parameter=KEY>VALUE</parameter></function>` and GLM's
//! `NAME<arg_key>KEY</arg_key><arg_value>VALUE</arg_value>`. Values are converted by the
//! tool's schema when it is known (see [`TextFormat`](super::TextFormat)).

use serde_json::Value;

use super::keywords::Keywords;
use super::{block, find_first, push_malformed, text_parts, Ending};
use crate::calls::{Collector, OriginalArguments};
use crate::dialect::walk::{declared_types, property_schema, Types};
use crate::parse::{self, ParseOptions};

/// Read qwen3-coder functions in a `<tool_call>` body (which starts with `<function=`);
/// `ending` is how the block ended.
pub(super) fn read_functions(body: &str, ending: Ending, out: &mut Collector<'_>) {
    let mut pos = 0;
    while let Some((start, _)) = find_first(body, pos, &["<function="]) {
        if out.is_full() {
            return;
        }
        pos = read_function(body, start, ending, out);
    }
}

/// Read Seed-OSS's `<seed:tool_call>…</seed:tool_call>` at `start` (qwen3-coder functions
/// inside); returns where it ends.
pub(super) fn read_seed(text: &str, start: usize, open: &str, out: &mut Collector<'_>) -> usize {
    let body_start = start + open.len();
    let (body_end, end, ending) = block(text, body_start, "</seed:tool_call>", &[open]);
    let closed = ending == Ending::Closed;
    let body = &text[body_start..body_end];
    if body.contains("<function=") {
        read_functions(body, ending, out);
    } else if closed {
        push_malformed(out, &text[start..end], "expected `<function=NAME>`");
    } else {
        let span = &text[start..end];
        push_cut_off(out, span, None, "the call");
    }
    end
}

/// Read qwen3-coder's `<function=…>` written without `<tool_call>` around it; returns where
/// it ends.
pub(super) fn read_bare_functions(text: &str, start: usize, out: &mut Collector<'_>) -> usize {
    read_function(text, start, Ending::End, out)
}

/// Read one `<function=NAME>…</function>` at `start` in a block that ended as `block_ending`
/// says; returns the index after it. A function without `</function>` whose text runs to the
/// end of the text (its block not closed either) was cut off: it is never run with the
/// parameters that arrived.
fn read_function(text: &str, start: usize, block_ending: Ending, out: &mut Collector<'_>) -> usize {
    let name_start = start + "<function=".len();
    let Some(name_end) = text[name_start..].find('>').map(|at| at + name_start) else {
        let span = &text[start..];
        push_cut_off(out, span, None, "the function's name");
        return text.len();
    };
    let name = text[name_start..name_end].trim().to_owned();
    let (body_end, end, closed) = match find_first(text, name_end + 1, &["</function>", "<function="]) {
        Some((at, 0)) => (at, at + "</function>".len(), true),
        Some((at, _)) => (at, at, false),
        None => (text.len(), text.len(), block_ending == Ending::Closed),
    };
    let cut_at_end = body_end == text.len() && block_ending == Ending::End;
    let span = &text[start..end];
    let body = &text[name_end + 1..body_end];
    let mut arguments = Keywords::default();
    let mut pos = 0;
    while let Some((at, _)) = find_first(body, pos, &["<parameter="]) {
        let key_start = at + "<parameter=".len();
        let Some(key_end) = body[key_start..].find('>').map(|k| k + key_start) else {
            if !closed {
                push_cut_off(out, span, Some(name), "a parameter's name");
                return end;
            }
            break;
        };
        let key = body[key_start..key_end].trim().to_owned();
        let value_start = key_end + 1;
        let (value_end, next, value_closed) =
            match find_first(body, value_start, &["</parameter>", "<parameter="]) {
                Some((v, 0)) => (v, v + "</parameter>".len(), true),
                Some((v, _)) => (v, v, false),
                None => (body.len(), body.len(), false),
            };
        if !value_closed && !closed && next == body.len() {
            push_cut_off(out, span, Some(name), "a parameter's value");
            return end;
        }
        let value = convert(&body[value_start..value_end], out.options.schema_of(&name), &key);
        arguments.insert(key, value);
        pos = next;
    }
    if cut_at_end {
        push_cut_off(out, span, (!name.is_empty()).then_some(name), "the function, before `</function>`");
    } else if name.is_empty() {
        push_malformed(out, span, "the function has no name");
    } else {
        out.push(text_parts(Some(name), arguments.into_arguments(), span));
    }
    end
}

/// Read a GLM call: the name, then `<arg_key>`/`<arg_value>` pairs. A block that ran to
/// the end of the text without `</tool_call>` was cut off: it is never run with the
/// arguments that arrived.
pub(super) fn read_glm(body: &str, ending: Ending, span: &str, out: &mut Collector<'_>) {
    let closed = ending == Ending::Closed;
    let name_end = body.find("<arg_key>").unwrap_or(body.len());
    // HY V3 writes `<tool_sep>` after the name.
    let name = body[..name_end].trim();
    let name = name.strip_suffix("<tool_sep>").unwrap_or(name).trim();
    if name.is_empty() || name.contains(char::is_whitespace) || name.contains(['{', '<', '"']) {
        push_malformed(out, span, "expected a tool name, JSON or `<function=`");
        return;
    }
    let name = name.to_owned();
    let mut arguments = Keywords::default();
    let mut pos = name_end;
    while let Some((at, _)) = find_first(body, pos, &["<arg_key>"]) {
        let key_start = at + "<arg_key>".len();
        let Some(key_end) = body[key_start..].find("</arg_key>").map(|k| k + key_start) else {
            return cut_or_malformed(out, span, closed, name, "an argument's name");
        };
        let key = body[key_start..key_end].trim().to_owned();
        let after_key = key_end + "</arg_key>".len();
        let rest = body[after_key..].trim_start();
        let Some(value_text) = rest.strip_prefix("<arg_value>") else {
            return cut_or_malformed(out, span, closed || !rest.is_empty(), name, "an argument's value");
        };
        let value_start = body.len() - value_text.len();
        let Some(value_end) = body[value_start..].find("</arg_value>").map(|v| v + value_start) else {
            return cut_or_malformed(out, span, closed, name, "an argument's value");
        };
        let value = convert(&body[value_start..value_end], out.options.schema_of(&name), &key);
        arguments.insert(key, value);
        pos = value_end + "</arg_value>".len();
    }
    if ending == Ending::End {
        return push_cut_off(out, span, Some(name), "the call, before `</tool_call>`");
    }
    out.push(text_parts(Some(name), arguments.into_arguments(), span));
}

fn cut_or_malformed(out: &mut Collector<'_>, span: &str, closed: bool, name: String, inside: &str) {
    if closed {
        push_malformed(out, span, &format!("{inside} is not closed"));
    } else {
        push_cut_off(out, span, Some(name), inside);
    }
}

/// Record a tag-format call whose text ended inside it.
fn push_cut_off(out: &mut Collector<'_>, span: &str, name: Option<String>, inside: &str) {
    let detail = format!("the tool call was cut off after {} bytes, inside {inside}", span.len());
    super::push_cut_off(out, text_parts(name, OriginalArguments::Text(span.to_owned()), span), detail);
}

/// Is a parameter's value a string whatever its text ([`convert`] gives its text): the
/// tool's schema declares a string (and not `null`), declares no type, or is unknown. Such a
/// value can be shown as it arrives; any other is known only once it is complete.
pub(super) fn grows_as_text(schema: Option<&Value>, key: &str) -> bool {
    let Some((root, property)) = schema.and_then(|root| Some((root, property_schema(root, key)?))) else {
        return true;
    };
    let types = declared_types(root, property);
    !types.contains(Types::NULL) && (types.contains(Types::STRING) || types.is_empty())
}

/// A parameter's text as the JSON value the tool's schema declares.
pub(super) fn convert(raw: &str, schema: Option<&Value>, key: &str) -> Value {
    let property = schema.and_then(|root| Some((root, property_schema(root, key)?)));
    convert_by(raw, property)
}

/// [`convert`] for a value between delimiters that no template frames with line breaks
/// (Gemma's `<escape>…<escape>`): a string is every byte between them.
pub(super) fn convert_delimited(text: &str, schema: Option<&Value>, key: &str) -> Value {
    let property = schema.and_then(|root| Some((root, property_schema(root, key)?)));
    convert_unframed(text, property)
}

/// The line break a template puts after an opening tag, at the start of `text`: its length
/// (`\n`, or `\r\n` where the text's lines end so), 0 if there is none.
pub(super) fn framing_break_at_start(text: &[u8]) -> usize {
    match text {
        [b'\r', b'\n', ..] => 2,
        [b'\n', ..] => 1,
        _ => 0,
    }
}

/// The line break a template puts before a closing tag, at the end of `text`: its length
/// (`\n` or `\r\n`), 0 if there is none.
pub(super) fn framing_break_at_end(text: &[u8]) -> usize {
    match text {
        [.., b'\r', b'\n'] => 2,
        [.., b'\n'] => 1,
        _ => 0,
    }
}

/// [`convert`] by the schema of the value itself (`root` is the tool's, for `$ref`s):
/// for values nested in tags (MiniMax M3), their leaves are converted the same way.
pub(super) fn convert_by(raw: &str, schema: Option<(&Value, &Value)>) -> Value {
    // The line breaks the templates put around a value are not part of it (one each side;
    // both bytes of `\r\n`, so that text whose lines end so reads as the same value).
    let text = raw.get(framing_break_at_start(raw.as_bytes())..).unwrap_or(raw);
    let text = text.get(..text.len() - framing_break_at_end(text.as_bytes())).unwrap_or(text);
    convert_unframed(text, schema)
}

/// [`convert_by`] of a text with no framing line breaks around it.
fn convert_unframed(text: &str, schema: Option<(&Value, &Value)>) -> Value {
    let Some((root, property)) = schema else {
        return Value::String(text.to_owned());
    };
    let types = declared_types(root, property);
    let trimmed = text.trim();
    if trimmed == "null" && types.contains(Types::NULL) {
        return Value::Null;
    }
    if types.contains(Types::STRING) || types.is_empty() {
        return Value::String(text.to_owned());
    }
    if types.contains(Types::INTEGER) || types.contains(Types::NUMBER) {
        if let Some(number) = crate::parse::lexer::numbers::json_number(trimmed) {
            return Value::Number(number);
        }
    }
    if types.contains(Types::BOOLEAN) {
        match trimmed {
            "true" | "True" | "TRUE" => return Value::Bool(true),
            "false" | "False" | "FALSE" => return Value::Bool(false),
            _ => {}
        }
    }
    if types.contains(Types::OBJECT) || types.contains(Types::ARRAY) {
        if let Ok(parsed) = parse::parse(trimmed, &ParseOptions::default()) {
            if parsed.value.is_object() || parsed.value.is_array() {
                return parsed.value;
            }
        }
    }
    Value::String(text.to_owned())
}
