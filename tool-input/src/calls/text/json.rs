//! JSON call objects: inside markers (`<tool_call>`, `[TOOL_CALLS] [...]`,
//! `<|python_tag|>`), and bare or fenced as the whole text.

use serde_json::Value;

use super::scan::split_object;
use super::{push_malformed, push_truncated, text_parts, unfence};
use crate::calls::{id_from, CallParts, Collector, OriginalArguments};
use crate::parse::lexer::escapes::json_string;
use crate::parse::lexer::spans::{container_end, skip_ws_escaped, span_end};
use crate::parse::{self, ParseOptions};

/// How much an object must look like a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Shape {
    /// Inside a marker: any object with a name is a call; other keys are ignored.
    Block,
    /// No marker: exactly the keys of a call, with arguments (or parameters).
    Bare,
}

/// Keys a bare call may have besides its name and arguments.
const BARE_KEYS: &[&str] = &["name", "arguments", "parameters", "id", "type", "function"];

/// Read one call object (complete `{...}` text).
pub(super) fn call_from_object(object: &str, shape: Shape) -> Option<CallParts> {
    match split_object(object) {
        Some(fields) => from_fields(object, &fields, shape, true),
        // Comments or other irregular syntax: parse it whole, leniently.
        None => {
            let value = parse::parse(object, &ParseOptions::default()).ok()?.value;
            from_value(object, &value, shape)
        }
    }
}

fn from_fields(object: &str, fields: &[(String, &str)], shape: Shape, outer: bool) -> Option<CallParts> {
    let mut name = None;
    let mut arguments = None;
    let mut id = None;
    for (key, text) in fields {
        match key.as_str() {
            "name" => name = Some(read_string(text)?),
            // Cohere's actions name the tool `tool_name` and the id `tool_call_id`.
            "tool_name" if shape == Shape::Block && name.is_none() => name = Some(read_string(text)?),
            "arguments" | "parameters" if arguments.is_none() => arguments = Some(arguments_of_text(text)),
            // Inkling's calls carry their arguments under `args`.
            "args" if shape == Shape::Block && arguments.is_none() => {
                arguments = Some(arguments_of_text(text))
            }
            "id" => id = read_string(text),
            "tool_call_id" if shape == Shape::Block && id.is_none() => id = read_string(text),
            // OpenAI's own shape: {"type": "function", "function": {"name", "arguments"}}.
            "function" if outer && text.starts_with('{') => {
                let inner = split_object(text)?;
                let call = from_fields(text, &inner, Shape::Block, false)?;
                name = call.name;
                arguments = Some(call.arguments);
            }
            "function" if shape == Shape::Block && name.is_none() => name = read_string(text),
            other if shape == Shape::Bare && !BARE_KEYS.contains(&other) => return None,
            _ => {}
        }
    }
    if shape == Shape::Bare && arguments.is_none() {
        return None;
    }
    let mut parts = text_parts(Some(name?), arguments.unwrap_or_default(), object);
    parts.id = id;
    Some(parts)
}

fn from_value(object: &str, value: &Value, shape: Shape) -> Option<CallParts> {
    let map = value.as_object()?;
    if shape == Shape::Bare && map.keys().any(|key| !BARE_KEYS.contains(&key.as_str())) {
        return None;
    }
    let function = map.get("function").filter(|f| f.is_object());
    let source = function.unwrap_or(value);
    let name = source.get("name").or_else(|| source.get("tool_name")).and_then(Value::as_str)?;
    let arguments = source
        .get("arguments")
        .or_else(|| source.get("parameters"))
        .or_else(|| source.get("args").filter(|_| shape == Shape::Block));
    if shape == Shape::Bare && arguments.is_none() {
        return None;
    }
    let arguments = match arguments {
        None => OriginalArguments::Absent,
        Some(value) => OriginalArguments::Value(value.clone()),
    };
    let mut parts = text_parts(Some(name.to_owned()), arguments, object);
    parts.id = map.get("id").and_then(id_from);
    Some(parts)
}

/// Push a call read from a JSON object (its `raw`), unless the object gives one of the
/// call's own keys twice with different values: then it is a `duplicate_key` error.
fn push_object(out: &mut Collector<'_>, parts: CallParts) {
    let repeat = parts.raw.as_str().and_then(repeated_call_key);
    match repeat {
        Some((key, first, second)) => out.push_duplicate(parts, &key, &first, &second, false),
        None => out.push(parts),
    }
}

/// The first of a call object's own keys (`name`, `arguments` or its alias `parameters`,
/// `id`, `function` and the `name` and `arguments` inside it) given twice with values that
/// differ: the key and both values.
fn repeated_call_key(object: &str) -> Option<(String, Value, Value)> {
    let value_of = |text: &str| parse::parse(text, &ParseOptions::default()).map(|parsed| parsed.value).ok();
    let fields = match split_object(object) {
        Some(fields) => fields,
        // Irregular syntax: the parser's reading of repeated keys, outermost.
        None => {
            return crate::members::repeats(object, &ParseOptions::default()).into_iter().find_map(|repeat| {
                let key = repeat.path.strip_prefix('/')?.replace("/", ".");
                let own = [
                    "name",
                    "arguments",
                    "parameters",
                    "id",
                    "function",
                    "function.name",
                    "function.arguments",
                ];
                let (first, other) = repeat.differing()?;
                own.contains(&key.as_str()).then(|| (key, first.clone(), other.clone()))
            })
        }
    };
    let mut seen: Vec<(&str, &str)> = Vec::new();
    for (key, text) in &fields {
        let own = match key.as_str() {
            "arguments" | "parameters" | "args" => "arguments",
            "name" | "id" | "function" => key.as_str(),
            _ => continue,
        };
        if let Some(&(_, earlier)) = seen.iter().find(|(seen, _)| *seen == own) {
            let (first, second) = (value_of(earlier), value_of(text));
            if earlier != *text && (first != second || first.is_none()) {
                return Some((key.clone(), first.unwrap_or_default(), second.unwrap_or_default()));
            }
        } else {
            seen.push((own, text));
        }
        if own == "function" && text.starts_with('{') {
            if let Some((inner, first, second)) = repeated_call_key(text) {
                return Some((format!("function.{inner}"), first, second));
            }
        }
    }
    None
}

/// A string value's text, strictly or leniently (`'get_weather'`).
fn read_string(text: &str) -> Option<String> {
    if let Some(text) = json_string(text) {
        return Some(text);
    }
    let wrapped = format!("[{text}]");
    match parse::parse(&wrapped, &ParseOptions::default()).ok()?.value {
        Value::Array(mut items) if items.len() == 1 => match items.pop() {
            Some(Value::String(text)) => Some(text),
            _ => None,
        },
        _ => None,
    }
}

/// The arguments as their exact text, except that `null` and a string (double-encoded
/// arguments) are values, as a backend's JSON field would carry them.
fn arguments_of_text(text: &str) -> OriginalArguments {
    // Only text that opens as `null` or a string can be one: the rest is not read at all.
    if !matches!(text.trim_start().as_bytes().first(), Some(b'n' | b'"')) {
        return OriginalArguments::Text(text.to_owned());
    }
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Null) => OriginalArguments::Value(Value::Null),
        Ok(Value::String(inner)) => OriginalArguments::Value(Value::String(inner)),
        _ => OriginalArguments::Text(text.to_owned()),
    }
}

/// The name in a call object that was cut off, when it arrived whole.
pub(super) fn peek_name(span: &str) -> Option<String> {
    let options = ParseOptions { complete_truncated: true, ..ParseOptions::default() };
    let value = parse::parse(span, &options).ok()?.value;
    let value = match value {
        Value::Array(mut items) => items.drain(..).next_back()?,
        other => other,
    };
    let name = value
        .get("name")
        .or_else(|| value.get("tool_name"))
        .or_else(|| value.get("function")?.get("name"))?
        .as_str()?
        .to_owned();
    // The completion closes a cut-off string: only trust a name whose quotes both arrived.
    let whole = span.contains(&format!("\"{name}\"")) || span.contains(&format!("'{name}'"));
    whole.then_some(name)
}

/// Read call objects in a marker's block: objects or arrays of objects, separated by
/// whitespace, commas or semicolons. Anything after the last call is ignored.
pub(super) fn read_block(block: &str, span: &str, out: &mut Collector<'_>) {
    let bytes = block.as_bytes();
    let mut i = 0;
    let mut read_any = false;
    loop {
        i = skip_separators(bytes, i);
        if i >= bytes.len() || out.is_full() {
            break;
        }
        match bytes[i] {
            b'{' => match container_end(block, i) {
                Some(end) => {
                    match call_from_object(&block[i..end], Shape::Block) {
                        Some(parts) => push_object(out, parts),
                        None => push_malformed(out, span, "the JSON object has no `name`"),
                    }
                    read_any = true;
                    i = end;
                }
                None => {
                    push_truncated(out, &block[i..], peek_name(&block[i..]));
                    return;
                }
            },
            b'[' => {
                let (items, cut) = array_items(block, i, Shape::Block);
                let no_items = items.is_empty();
                for item in items {
                    match item {
                        Ok(parts) => push_object(out, parts),
                        Err(NotACall::Object) => {
                            push_malformed(out, span, "a JSON object in the list has no `name`")
                        }
                        Err(NotACall::Other) => push_malformed(
                            out,
                            span,
                            "an item of the list is not a call object `{\"name\": …, \"arguments\": …}`",
                        ),
                    }
                }
                read_any = true;
                match cut {
                    Cut::At(end) => i = end,
                    // A list cut off right after a complete call lost nothing.
                    Cut::Truncated(from) if block[from..].trim().is_empty() && !no_items => return,
                    Cut::Truncated(from) => {
                        push_truncated(out, &block[from..], peek_name(&block[from..]));
                        return;
                    }
                    Cut::Junk => return,
                }
            }
            _ => break,
        }
    }
    if !read_any {
        push_malformed(out, span, "expected a JSON object with `name` and `arguments`");
    }
}

/// How an array of call objects ended.
enum Cut {
    /// After its `]`, at this index.
    At(usize),
    /// Cut off inside the item that starts at this index.
    Truncated(usize),
    /// Something other than an object or a separator came up in a list no marker
    /// announced (which is then not a list of calls), or a closing bracket of another kind.
    Junk,
}

/// An item of an array of call objects that is no call.
enum NotACall {
    /// An object without a name, or (in a list no marker announced) with a key no call has.
    Object,
    /// Not an object (a string, a number), in a list a marker announced: the model meant a
    /// call there, so it is reported, and the items after it are read.
    Other,
}

/// The call objects of the array opening at `start`.
fn array_items(text: &str, start: usize, shape: Shape) -> (Vec<Result<CallParts, NotACall>>, Cut) {
    let bytes = text.as_bytes();
    let mut items = Vec::new();
    let mut i = start + 1;
    loop {
        i = skip_separators(bytes, i);
        match bytes.get(i) {
            None => return (items, Cut::Truncated(i)),
            Some(b']') => return (items, Cut::At(i + 1)),
            Some(b'{') => match container_end(text, i) {
                Some(end) => {
                    items.push(call_from_object(&text[i..end], shape).ok_or(NotACall::Object));
                    i = end;
                }
                None => return (items, Cut::Truncated(i)),
            },
            Some(_) if shape == Shape::Bare => return (items, Cut::Junk),
            // Read past the item to the separator or bracket after it.
            Some(_) => match span_end(text, i, b",]") {
                Some(end) if end > i => {
                    items.push(Err(NotACall::Other));
                    i = end;
                }
                // A closing bracket of another kind (`[}`): no list of calls goes on past it
                // (reported, unless an item before it was).
                Some(_) => {
                    if items.is_empty() {
                        items.push(Err(NotACall::Other));
                    }
                    return (items, Cut::Junk);
                }
                None => return (items, Cut::Truncated(i)),
            },
        }
    }
}

/// Past white space (written as such or as an escape), comments (`//` to the end of the
/// line, `/* … */`, as the parser reads them) and the commas or semicolons between calls.
pub(super) fn skip_separators(bytes: &[u8], mut i: usize) -> usize {
    loop {
        i = skip_ws_escaped(bytes, i);
        match (bytes.get(i), bytes.get(i + 1)) {
            (Some(b',' | b';'), _) => i += 1,
            (Some(b'/'), Some(b'/')) => {
                let line = bytes.get(i..).unwrap_or_default();
                i = line.iter().position(|&b| b == b'\n').map_or(bytes.len(), |at| i + at + 1)
            }
            (Some(b'/'), Some(b'*')) => {
                let comment = bytes.get(i + 2..).unwrap_or_default();
                i = comment.windows(2).position(|pair| pair == b"*/").map_or(bytes.len(), |at| i + 2 + at + 2)
            }
            _ => return i,
        }
    }
}

/// The JSON text of a bare call, and the prose left around it: the whole text, or the
/// whole of one code fence.
fn bare_region(text: &str) -> Option<(&str, String)> {
    let trimmed = text.trim();
    if trimmed.starts_with('{') || trimmed.starts_with('[') {
        return Some((trimmed, String::new()));
    }
    let open = trimmed.find("```")?;
    let after_open = open + 3;
    // The closing fence is outside the strings of the calls (`"a ``` b"` is their text).
    let (close, _) = super::find_outside_values(trimmed, after_open, &["```"])?;
    let fenced = unfence(&trimmed[open..close + 3]);
    let before = &trimmed[..open];
    let after = &trimmed[close + 3..];
    // A second fence means the text is a document with code in it, not a call.
    if super::find_outside_values(after, 0, &["```"]).is_some() {
        return None;
    }
    Some((fenced, format!("{before}{after}")))
}

/// Read the whole text as bare JSON calls; `None` (and nothing recorded) when it is not
/// one, so it stays content. Returns the prose left around a fence.
pub(super) fn read_bare(text: &str, out: &mut Collector<'_>) -> Option<String> {
    let (json, left) = bare_region(text)?;
    let bytes = json.as_bytes();
    let mut calls = Vec::new();
    let mut truncated = None;
    let mut i = 0;
    loop {
        i = skip_separators(bytes, i);
        match bytes.get(i) {
            None => break,
            Some(b'{') => match container_end(json, i) {
                Some(end) => {
                    calls.push(call_from_object(&json[i..end], Shape::Bare)?);
                    i = end;
                }
                None => {
                    truncated = Some(i);
                    break;
                }
            },
            Some(b'[') => {
                let (items, cut) = array_items(json, i, Shape::Bare);
                for item in items {
                    calls.push(item.ok()?);
                }
                match cut {
                    Cut::At(end) => i = end,
                    Cut::Truncated(from) => {
                        truncated = Some(from);
                        break;
                    }
                    Cut::Junk => return None,
                }
            }
            // One bracket too many after whole calls (`[{…}]]`, as Ollama's test table has
            // it): the calls are whole; only closing brackets may follow.
            Some(b']' | b'}')
                if !calls.is_empty()
                    && json[i..].bytes().all(|b| matches!(b, b']' | b'}') || b.is_ascii_whitespace()) =>
            {
                break
            }
            Some(_) => return None,
        }
    }
    // A list cut off right after a complete call lost nothing.
    if truncated.is_some_and(|from| json[from..].trim().is_empty()) {
        truncated = None;
    }
    // A cut-off object counts only if what arrived is plainly a call, or the start of the
    // next one after whole calls (`{…}; {"na`: JSON cut off, no prose), which the text's end
    // cut before it showed its name.
    let cut_name = match truncated {
        Some(from) => {
            let rest = &json[from..];
            let looks_like_call = rest.contains("\"name\"")
                && (rest.contains("\"arguments\"") || rest.contains("\"parameters\""));
            let strict = ParseOptions { mode: parse::ParseMode::Strict, ..ParseOptions::default() };
            let next_call_cut = !calls.is_empty()
                && matches!(parse::parse(rest, &strict), Err(parse::ParseError::Truncated { .. }));
            if !looks_like_call && !next_call_cut {
                return None;
            }
            Some(peek_name(rest))
        }
        None => None,
    };
    if calls.is_empty() && cut_name.is_none() {
        return None;
    }
    // With known tools, every name must be one of them, or the text is prose (a cut call
    // that showed no name yet has none to check).
    if out.options.configured_tools().is_some() {
        let cut_named = cut_name.as_ref().filter(|name| name.is_some() || calls.is_empty());
        let names = calls.iter().map(|parts| parts.name.as_deref()).chain(cut_named.map(Option::as_deref));
        for name in names {
            if out.options.knows(name.unwrap_or_default()) != Some(true) {
                return None;
            }
        }
    }
    for parts in calls {
        push_object(out, parts);
    }
    if let (Some(from), Some(name)) = (truncated, cut_name) {
        push_truncated(out, &json[from..], name);
    }
    Some(left)
}
