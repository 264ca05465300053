//! Calls written as a Python list: `[get_weather(city='Paris', days=3), get_time()]`.
//! Keyword arguments only; each value is a Python literal (strings in either quotes,
//! numbers, `True`/`False`/`None`, lists, dicts).

use serde_json::Value;

use super::keywords::Keywords;
use super::{text_parts, unfence};
use crate::calls::Collector;
use crate::parse::lexer::spans::{skip_ws, span_end};
use crate::parse::{self, ParseOptions, RepairKind};

/// One call: its name, keyword arguments, and where its text is (`name(...)`).
type PyCall = (String, Keywords, std::ops::Range<usize>);

/// Read the whole text as a Python list of calls, or one the text ended inside
/// ([`bare_cut`]); `None` (nothing recorded) when it is neither, or names a tool that is not
/// known (a call cut off before its name was whole has none to check).
pub(super) fn read_bare(text: &str, out: &mut Collector<'_>) -> Option<String> {
    let list = unfence(text);
    let (calls, cut) = match parse_list(list) {
        Some(calls) => (calls, None),
        None => {
            let (calls, at) = bare_cut(list)?;
            (calls, Some(at))
        }
    };
    let cut_name = cut.and_then(|at| cut_name(&list[at..]));
    if out.options.configured_tools().is_some()
        && calls
            .iter()
            .map(|(name, _, _)| name.as_str())
            .chain(cut_name.as_deref())
            .any(|name| out.options.knows(name) != Some(true))
    {
        return None;
    }
    match cut {
        Some(at) => push_cut_at(calls, list, at, out),
        None => push_all(calls, list, list, out),
    }
    Some(String::new())
}

/// A bare Python list (no marker) that the text ended inside: its whole calls, and where
/// the call cut off starts (the end of `list` when it was cut right after a whole call or
/// its comma, which lost nothing). As for a bare JSON list cut off, what arrived must be
/// calls and nothing else, so that prose opening with `[` (`[1] see the docs`,
/// `[here](https://…)`) stays prose: after whole calls, the start of a call as far as it
/// arrived (`get_ti`, `get_time(tz="UT`); with none before it, a call that shows its name
/// and an argument (`get_weather(city="Par`), as a bare JSON call cut off must show its
/// `"name"` and `"arguments"` keys. `None` when it is not such a list.
fn bare_cut(list: &str) -> Option<(Vec<PyCall>, usize)> {
    let bytes = list.as_bytes();
    if bytes.first() != Some(&b'[') {
        return None;
    }
    let mut calls = Vec::new();
    let mut i = skip_ws(bytes, 1);
    while i < bytes.len() {
        match read_call(list, i) {
            Ok((name, arguments, next)) => {
                calls.push((name, arguments, i..next));
                i = skip_ws(bytes, next);
                match bytes.get(i) {
                    None => break,
                    Some(b',') => i = skip_ws(bytes, i + 1),
                    // A `]` with more after it, or anything else: no list of calls.
                    Some(_) => return None,
                }
            }
            Err(NoCall::Cut { argument }) if argument || !calls.is_empty() => return Some((calls, i)),
            Err(_) => return None,
        }
    }
    (!calls.is_empty()).then_some((calls, bytes.len()))
}

/// Read Llama 4's `<|python_start|>[...]<|python_end|>`; `None` when the body is not calls.
pub(super) fn read_tagged(text: &str, start: usize, tag: &str, out: &mut Collector<'_>) -> Option<usize> {
    let body_start = start + tag.len();
    // A block without its end runs to the next start at most: each byte is looked at once.
    let (body_end, end, ending) = super::value_block(text, body_start, "<|python_end|>", &[tag]);
    let body = text[body_start..body_end].trim();
    let calls = if body.starts_with('[') {
        parse_list(body)
    } else {
        parse_call(body, 0)
            .filter(|(_, _, next)| skip_ws(body.as_bytes(), *next) == body.len())
            .map(|(name, arguments, next)| vec![(name, arguments, 0..next)])
    };
    match calls {
        Some(calls) => push_all(calls, body, &text[start..end], out),
        // The text ended inside what began as calls (a list, or `name(`): cut off.
        None if ending == super::Ending::End && begins_calls(body) => {
            push_cut(body, true, "<|python_end|>", &text[start..end], out);
        }
        None => return None,
    }
    Some(end)
}

/// Read LFM2's `<|tool_call_start|>[…]<|tool_call_end|>` or OLMo 3's
/// `<function_calls>…</function_calls>` (one call a line, or a list); `None` when the body
/// is not calls.
pub(super) fn read_marked(text: &str, start: usize, tag: &str, out: &mut Collector<'_>) -> Option<usize> {
    let close = if tag == "<function_calls>" { "</function_calls>" } else { "<|tool_call_end|>" };
    let body_start = start + tag.len();
    let (body_end, end, ending) = super::value_block(text, body_start, close, &[tag]);
    let closed = ending == super::Ending::Closed;
    let body = text[body_start..body_end].trim();
    let span = &text[start..end];
    let calls = if body.starts_with('[') {
        parse_list(body)
    } else {
        // One call after another, on lines of their own.
        let bytes = body.as_bytes();
        let mut calls = Vec::new();
        let mut i = 0;
        let mut whole = !body.is_empty();
        while i < bytes.len() {
            match parse_call(body, i) {
                Some((name, arguments, next)) => {
                    calls.push((name, arguments, i..next));
                    i = skip_ws(bytes, next);
                }
                None => {
                    whole = false;
                    break;
                }
            }
        }
        whole.then_some(calls)
    };
    match calls {
        Some(calls) => push_all(calls, body, span, out),
        None if closed => super::push_malformed(out, span, "expected Python calls, `name(key=value)`"),
        None => push_cut(body, body.starts_with('['), close, span, out),
    }
    Some(end)
}

/// Push what arrived of calls the text ended inside (`block`, with its markers, is their
/// text; `close`, the marker that would have closed it): the whole calls before the cut
/// one, which is truncated; the whole block is truncated when no whole call came before a
/// cut one.
fn push_cut(body: &str, list: bool, close: &str, block: &str, out: &mut Collector<'_>) {
    match cut_calls(body, list, close) {
        Some((calls, at)) => push_cut_at(calls, body, at, out),
        None => super::push_truncated(out, block, None),
    }
}

/// Push the whole `calls` of `body`, each with its own text, and the call cut off at `at`
/// as `truncated`, named when its `(` arrived ([`cut_name`]); at the end of `body`, none was
/// cut.
fn push_cut_at(calls: Vec<PyCall>, body: &str, at: usize, out: &mut Collector<'_>) {
    for (name, arguments, span) in calls {
        if out.is_full() {
            return;
        }
        out.push(text_parts(Some(name), arguments.into_arguments(), &body[span]));
    }
    // A list cut off right after a whole call lost nothing, as a JSON list's.
    if at == body.len() {
        return;
    }
    let rest = &body[at..];
    super::push_truncated(out, rest, cut_name(rest));
}

/// The name of a call cut off, `rest` being its text: read once its `(` arrived (`get_ti`
/// may be `get_time` or `get_timezone`).
fn cut_name(rest: &str) -> Option<String> {
    let bytes = rest.as_bytes();
    identifier_end(bytes, 0, true)
        .filter(|&end| bytes.get(end) == Some(&b'('))
        .map(|end| rest[..end].to_owned())
}

/// The whole calls of a list (or, not `list`, of lines) that the text ended inside, and
/// where the call cut off starts (the end of `body` when nothing was cut: the list was cut
/// right after a whole call or its comma, or its `]` came and the text ended inside the
/// marker after it, `close`, as a JSON list's `]` ends its calls); `None` when no whole call
/// came before it, or what follows the whole calls does not begin a call (`name` or
/// `name(`). Lines of calls cut inside their closing marker: the last call is the cut one,
/// as a call whose block was cut inside its closing marker is.
fn cut_calls(body: &str, list: bool, close: &str) -> Option<(Vec<PyCall>, usize)> {
    let bytes = body.as_bytes();
    let in_close = |at: usize| close.starts_with(body[at..].trim());
    let mut calls = Vec::new();
    let mut i = if list { skip_ws(bytes, 1) } else { 0 };
    while let Some((name, arguments, next)) = parse_call(body, i) {
        calls.push((name, arguments, i..next));
        i = skip_ws(bytes, next);
        if list {
            if i == bytes.len() {
                return Some((calls, i));
            }
            if bytes.get(i) == Some(&b']') && in_close(i + 1) {
                return Some((calls, bytes.len()));
            }
            if bytes.get(i) != Some(&b',') {
                return None;
            }
            i = skip_ws(bytes, i + 1);
        }
    }
    if !list && i < bytes.len() && in_close(i) {
        let (_, _, last) = calls.pop()?;
        return (!calls.is_empty()).then_some((calls, last.start));
    }
    // Nothing begun after a separator: the list was cut between calls.
    let begins = i == bytes.len()
        || identifier_end(bytes, i, true).is_some_and(|end| matches!(bytes.get(end), None | Some(b'(')));
    (!calls.is_empty() && begins).then_some((calls, i))
}

/// Does `body` begin as calls do: a list, or a name and its `(`?
fn begins_calls(body: &str) -> bool {
    let bytes = body.as_bytes();
    bytes.first() == Some(&b'[')
        || identifier_end(bytes, 0, true).is_some_and(|end| bytes.get(end) == Some(&b'('))
}

/// Push each call with its own text as its record (never the whole list's, which would
/// cost the list's length for every call), and none past the call limit. The last call's
/// record is the whole `block` (with its markers), which tells a stream cut inside it.
fn push_all(calls: Vec<PyCall>, source: &str, block: &str, out: &mut Collector<'_>) {
    let last = calls.len().saturating_sub(1);
    for (position, (name, arguments, span)) in calls.into_iter().enumerate() {
        if out.is_full() {
            return;
        }
        let span = if position == last { block } else { source.get(span).unwrap_or("") };
        out.push(text_parts(Some(name), arguments.into_arguments(), span));
    }
}

/// `[call, call, ...]`, and nothing after it.
fn parse_list(text: &str) -> Option<Vec<PyCall>> {
    let bytes = text.as_bytes();
    if bytes.first() != Some(&b'[') {
        return None;
    }
    let mut calls = Vec::new();
    let mut i = skip_ws(bytes, 1);
    if bytes.get(i) == Some(&b']') {
        return None;
    }
    loop {
        let (name, arguments, next) = parse_call(text, i)?;
        calls.push((name, arguments, i..next));
        i = skip_ws(bytes, next);
        match bytes.get(i) {
            Some(b',') => i = skip_ws(bytes, i + 1),
            Some(b']') if skip_ws(bytes, i + 1) == bytes.len() => return Some(calls),
            _ => return None,
        }
    }
}

/// `name(key=value, ...)` at `at`: the name, the arguments, and the index after `)`.
fn parse_call(text: &str, at: usize) -> Option<(String, Keywords, usize)> {
    read_call(text, at).ok()
}

/// Why no call `name(key=value, ...)` could be read at a place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum NoCall {
    /// The text ended inside it, all that arrived read as a call's (its name, keywords and
    /// values, the last value cut short: `get_time(tz="UT`); `argument`: a keyword and its
    /// `=` had arrived.
    Cut { argument: bool },
    /// Something no call has, or a value that is no Python literal.
    Invalid,
}

/// [`parse_call`], telling a call the text ended inside from text that is no call.
fn read_call(text: &str, at: usize) -> Result<(String, Keywords, usize), NoCall> {
    let bytes = text.as_bytes();
    let cut = |argument: bool| Err(NoCall::Cut { argument });
    let name_end = match identifier_end(bytes, at, true) {
        Some(end) => end,
        None if at >= bytes.len() => return cut(false),
        None => return Err(NoCall::Invalid),
    };
    let name = text[at..name_end].to_owned();
    match bytes.get(name_end) {
        Some(b'(') => {}
        None => return cut(false),
        Some(_) => return Err(NoCall::Invalid),
    }
    let mut arguments = Keywords::default();
    let mut argument = false;
    let mut i = skip_ws(bytes, name_end + 1);
    loop {
        match bytes.get(i) {
            Some(b')') => return Ok((name, arguments, i + 1)),
            None => return cut(argument),
            _ => {}
        }
        let key_end = identifier_end(bytes, i, false).ok_or(NoCall::Invalid)?;
        let key = text[i..key_end].to_owned();
        i = skip_ws(bytes, key_end);
        match bytes.get(i) {
            Some(b'=') => argument = true,
            None => return cut(argument),
            Some(_) => return Err(NoCall::Invalid),
        }
        let value_start = skip_ws(bytes, i + 1);
        let Some(value_end) = span_end(text, value_start, b",)") else {
            // The text ended inside the value: what arrived must begin a literal.
            return if literal_cut(&text[value_start..]) { cut(true) } else { Err(NoCall::Invalid) };
        };
        arguments.insert(key, python_literal(text[value_start..value_end].trim()).ok_or(NoCall::Invalid)?);
        i = skip_ws(bytes, value_end);
        if bytes.get(i) == Some(&b',') {
            i = skip_ws(bytes, i + 1);
        }
    }
}

/// The end of an identifier at `at` (dots allowed in a function name: `brave_search.call`).
fn identifier_end(bytes: &[u8], at: usize, dots: bool) -> Option<usize> {
    let first = *bytes.get(at)?;
    if !(first.is_ascii_alphabetic() || first == b'_') {
        return None;
    }
    let mut end = at + 1;
    while end < bytes.len()
        && (bytes[end].is_ascii_alphanumeric() || bytes[end] == b'_' || (dots && bytes[end] == b'.'))
    {
        end += 1;
    }
    Some(end)
}

/// Is `text` a Python literal cut short (`"UT`, `[1, 2`, `12`), or nothing yet? The lenient
/// parser reads it, in a list, as cut off.
fn literal_cut(text: &str) -> bool {
    text.trim().is_empty()
        || matches!(
            parse::parse(&format!("[{text}"), &python_options()),
            Err(parse::ParseError::Truncated { .. })
        )
}

/// The lenient parser's options for a Python literal: its `"` strings read `\xHH` as
/// Python's from the start, as a text that shows itself Python does (`"it's\x07"`).
fn python_options() -> ParseOptions {
    ParseOptions { python: true, ..ParseOptions::default() }
}

/// A Python literal as JSON, through the lenient parser (which reads quotes of either kind
/// and `True`/`False`/`None`); anything it would have to skip as prose is not a literal.
fn python_literal(text: &str) -> Option<Value> {
    if text.is_empty() {
        return None;
    }
    let wrapped = format!("[{text}]");
    let parsed = parse::parse(&wrapped, &python_options()).ok()?;
    let prose = parsed.repairs.iter().any(|repair| {
        matches!(
            repair.kind,
            RepairKind::ProseBefore | RepairKind::ProseAfter | RepairKind::CodeFence | RepairKind::Comment
        )
    });
    match parsed.value {
        Value::Array(mut items) if items.len() == 1 && !prose => items.pop(),
        _ => None,
    }
}
