//! Tool calls a model wrote into its text, because it was served without a tool parser.
//!
//! The reasoning is taken out first ([`reasoning`]): a call drafted while thinking is no
//! call. The rest is read once, left to right. Each call written with an explicit marker (a
//! tag or a special token) is taken out, and everything around it stays content. Unless a
//! format is named, the format is the one whose markers the text has; markers of two
//! formats are an error naming both. Only when the text has no marker at all is it tried
//! as a bare call: a JSON object (or list, or `;`-separated objects) with a name and
//! arguments, or a Python list of calls, making up the whole text (a code fence around it,
//! and prose around the fence, are allowed).

mod arguments;
mod callsyntax;
mod deepseek;
mod draft;
mod format;
mod harmony;
mod hermes;
pub(crate) mod incremental;
mod invoke;
mod json;
mod jsonlike;
mod keywords;
mod kimi;
mod kimi3;
mod llama;
mod markers;
mod minimax;
mod mistral;
mod pythonic;
pub(crate) mod reasoning;
mod scan;
mod xml;

use serde_json::Value;

use arguments::find_outside_values;
pub use format::TextFormat;
use markers::{next_marker, Marker, CLOSING_MARKERS};

use super::{CallErrorKind, CallParts, Collector, Format};
use crate::error::{ErrorCode, Rejection, RejectionKind};
use crate::parse::lexer::spans::{container_end, skip_ws};
use crate::parse::{self, ParseOptions};

/// Where the text comes from, which decides how much a bare call must prove.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// The whole response is text (a backend without a tool parser, `--format text`).
    Text,
    /// The content of a structured response that had no native calls.
    Content,
}

/// What reading a text gave besides its calls.
#[derive(Debug)]
pub(crate) struct Extracted {
    /// The content left once the calls (and the reasoning) were taken out.
    pub content: String,
    /// The reasoning, apart.
    pub reasoning: Option<String>,
    /// The text calls were read from, when the reasoning was taken out of it (a call cut
    /// off is told by where this text ends).
    pub visible: Option<String>,
}

/// Take the reasoning and then the calls out of `text` into `out`.
pub(crate) fn extract(text: &str, mode: Mode, out: &mut Collector<'_>) -> Extracted {
    let split = reasoning::split_with(text, reasoning::lone_closes_end_reasoning(out.options.text_format));
    let content = extract_visible(&split.visible, mode, out);
    let visible = match split.visible {
        std::borrow::Cow::Owned(visible) => Some(visible),
        std::borrow::Cow::Borrowed(_) => None,
    };
    Extracted { content, reasoning: split.reasoning, visible }
}

/// What one marker's reader did.
enum Read {
    /// Read a call (or several) up to this index.
    To(usize),
    /// Not a call after all (`<|python_tag|>` before code): the marker is content.
    NotACall,
    /// A message whose text is content (harmony's `final` channel): the marker and header
    /// up to `body.start` and the end marker after `body.end` are dropped.
    Content { body: std::ops::Range<usize>, end: usize },
}

/// Read the marker `pattern` (`marker`) at `start`.
fn read_marker(
    text: &str,
    start: usize,
    pattern: &'static str,
    marker: Marker,
    out: &mut Collector<'_>,
) -> Read {
    let to = |end: Option<usize>| end.map_or(Read::NotACall, Read::To);
    match marker {
        Marker::ToolCall | Marker::Tools => to(hermes::read(text, start, pattern, out)),
        Marker::Function => Read::To(xml::read_bare_functions(text, start, out)),
        Marker::Mistral => Read::To(mistral::read(text, start, pattern, out)),
        Marker::PythonTag => to(llama::read(text, start, pattern, out)),
        Marker::PythonStart => to(pythonic::read_tagged(text, start, pattern, out)),
        Marker::DeepSeek => Read::To(deepseek::read(text, start, out)),
        Marker::Kimi => Read::To(kimi::read(text, start, out)),
        Marker::KimiK3Tools => Read::To(kimi3::read(text, start, pattern, out)),
        Marker::KimiK3Response => Read::To(start + pattern.len()),
        // A model message's header may name the function before its block kind: metadata.
        // The header is looked for up to the line's end or the next special token, never
        // further: searching the rest of the text for each marker took quadratic time.
        Marker::InklingFrame if pattern == "<|message_model|>" => {
            let header = start + pattern.len();
            let to = match find_first(text, header, &["\n", "<|"]) {
                Some((at, 1)) if text[at..].starts_with("<|content_") => at,
                _ => header,
            };
            Read::To(to)
        }
        Marker::InklingFrame => Read::To(start + pattern.len()),
        Marker::Harmony => harmony::read(text, start, out),
        Marker::Dsml => Read::To(invoke::read_dsml(text, start, pattern, out)),
        Marker::MiniMaxM2 => Read::To(invoke::read_minimax_m2(text, start, pattern, out)),
        Marker::MiniMaxM3 => Read::To(minimax::read_m3(text, start, out)),
        Marker::Step3 => Read::To(invoke::read_step3(text, start, pattern, out)),
        Marker::MiniCpm5 => Read::To(invoke::read_minicpm(text, start, out)),
        Marker::ToolCalls => Read::To(jsonlike::read_tool_calls(text, start, pattern, out)),
        Marker::SeedOss => Read::To(xml::read_seed(text, start, pattern, out)),
        Marker::Solar => Read::To(jsonlike::read_solar(text, start, pattern, out)),
        Marker::Olmo3 | Marker::Lfm2 => to(pythonic::read_marked(text, start, pattern, out)),
        Marker::FunctionGemma | Marker::Gemma4 => Read::To(callsyntax::read(text, start, pattern, out)),
        Marker::GraniteTag
        | Marker::FunctionCall
        | Marker::Functools
        | Marker::CohereAction
        | Marker::CohereFence
        | Marker::InternLm
        | Marker::Longcat
        | Marker::GigaChat
        | Marker::Apertus
        | Marker::Inkling => to(jsonlike::read_json_marked(text, start, pattern, marker, out)),
    }
}

/// Take the calls out of reasoning-free `text` into `out`; return the text that is left.
fn extract_visible(text: &str, mode: Mode, out: &mut Collector<'_>) -> String {
    let only = out.options.text_format;
    let mark = out.mark();
    let mut content = String::new();
    let mut pos = 0;
    let mut marked = false;
    // The first format read, and the marker it was read by (`None` once a format is named).
    let mut first: Option<(Marker, &'static str)> = None;
    if only.is_none() && one_value(text) && next_marker(text, 0, only).is_some() {
        if let Some(left) = read_bare(text, mode, out) {
            return left;
        }
    }
    while pos < text.len() && !out.is_full() {
        let Some((start, pattern, marker)) = next_marker(text, pos, only) else { break };
        if only.is_none() {
            match first {
                None => first = Some((marker, pattern)),
                Some((seen, seen_pattern)) if seen.family() != marker.family() => {
                    out.rollback(mark);
                    push_two_formats(out, text, (seen.family(), seen_pattern), (marker.family(), pattern));
                    return text.to_owned();
                }
                Some(_) => {}
            }
        }
        content.push_str(&text[pos..start]);
        match read_marker(text, start, pattern, marker, out) {
            Read::To(end) => {
                marked = true;
                pos = end.max(start + pattern.len());
            }
            Read::NotACall => {
                content.push_str(pattern);
                pos = start + pattern.len();
            }
            Read::Content { body, end } => {
                marked = true;
                content.push_str(&text[body]);
                pos = end.max(start + pattern.len());
            }
        }
    }
    content.push_str(text.get(pos..).unwrap_or(""));
    if marked || out.attempts() > 0 {
        return content;
    }
    read_bare(text, mode, out).unwrap_or(content)
}

/// Read `text` as a bare call (a JSON object or list of calls, or a Python list of calls);
/// `None` (nothing recorded) when it is none.
fn read_bare(text: &str, mode: Mode, out: &mut Collector<'_>) -> Option<String> {
    let only = out.options.text_format;
    let bare_json = matches!(only, None | Some(TextFormat::Json) | Some(TextFormat::Llama));
    let bare_python = matches!(only, None | Some(TextFormat::Pythonic));
    // In a structured response's content, a bare call must name a known tool.
    if mode == Mode::Content && out.options.configured_tools().is_none() {
        return None;
    }
    if bare_json {
        if let Some(left) = json::read_bare(text, out) {
            return Some(left);
        }
    }
    if bare_python {
        if let Some(left) = pythonic::read_bare(text, out) {
            return Some(left);
        }
    }
    None
}

/// Is `text` (in a code fence or not) one JSON or Python value, `{…}` or `[…]`, whole? A
/// marker inside it is its text (an argument that quotes another format's call), not a
/// call of that format.
fn one_value(text: &str) -> bool {
    let body = unfence(text);
    matches!(body.as_bytes().first(), Some(b'{' | b'[')) && container_end(body, 0) == Some(body.len())
}

/// Text with the markers of two formats: which one is meant cannot be told, so nothing of
/// it is run.
fn push_two_formats(out: &mut Collector<'_>, text: &str, a: (TextFormat, &str), b: (TextFormat, &str)) {
    let message = format!(
        "The text has the tool-call markers of two formats, {} (`{}`) and {} (`{}`); no call was read from it. Write every call in one format.",
        a.0, a.1, b.0, b.1
    );
    let raw: String = text.chars().take(super::MAX_ERROR_ARGUMENTS).collect();
    out.push_failed(
        text_parts(None, super::OriginalArguments::Absent, &raw),
        CallErrorKind::Malformed,
        message,
    );
}

/// A call attempt read from text, before it is pushed.
fn text_parts(name: Option<String>, arguments: super::OriginalArguments, raw: &str) -> CallParts {
    CallParts {
        id: None,
        name,
        arguments,
        format: Format::Text,
        raw: Value::String(raw.to_owned()),
        index: 0,
    }
}

/// Record a call whose text ended before it did: the error of a truncated JSON value,
/// named when the name can be read from what arrived.
fn push_truncated(out: &mut Collector<'_>, span: &str, name: Option<String>) {
    let parts = text_parts(name, super::OriginalArguments::Text(span.to_owned()), span);
    push_truncated_parts(out, span, parts);
}

/// [`push_truncated`] for parts that already carry an id.
fn push_truncated_parts(out: &mut Collector<'_>, span: &str, parts: CallParts) {
    let options = ParseOptions { max_bytes: out.options.limits.max_bytes, ..ParseOptions::default() };
    let detail = match parse::parse(span, &options) {
        Err(error @ parse::ParseError::Truncated { .. }) => error.to_string(),
        _ => format!("the tool call was cut off after {} bytes", span.len()),
    };
    push_cut_off(out, parts, detail);
}

/// Record a call cut off as `detail` says, named in the message when its name is known.
fn push_cut_off(out: &mut Collector<'_>, parts: CallParts, detail: String) {
    let mut rejection = Rejection::whole(RejectionKind::Truncated, ErrorCode::Truncated, detail);
    if let Some(name) = &parts.name {
        rejection = rejection.with_tool(name.trim());
    }
    out.push_rejected(parts, rejection);
}

/// Record text inside a call marker that could not be read as a call.
fn push_malformed(out: &mut Collector<'_>, span: &str, what: &str) {
    let message = format!(
        "The tool call could not be read ({what}); nothing was run. Write the call again in the expected format."
    );
    out.push_failed(
        text_parts(None, super::OriginalArguments::Text(span.to_owned()), span),
        CallErrorKind::Malformed,
        message,
    );
}

/// How a block ended: at its closing marker, before the next block's opening marker, or at
/// the end of the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ending {
    Closed,
    Next,
    End,
}

/// The block whose body starts at `from`: where its body ends, where the block ends, and how.
/// It ends at `close`, or (unclosed) right before the first of `next`, or at the end.
fn block(text: &str, from: usize, close: &str, next: &[&str]) -> (usize, usize, Ending) {
    block_by(find_first, text, from, close, next)
}

/// How a block's markers are looked for: the first of some patterns at or after a place,
/// and which ([`find_first`], [`find_outside_values`]).
type FindFirst = fn(&str, usize, &[&str]) -> Option<(usize, usize)>;

/// [`block`], the markers found by `find`.
fn block_by(find: FindFirst, text: &str, from: usize, close: &str, next: &[&str]) -> (usize, usize, Ending) {
    let mut patterns = vec![close];
    patterns.extend_from_slice(next);
    match find(text, from, &patterns) {
        Some((at, 0)) => (at, at + close.len(), Ending::Closed),
        Some((at, _)) => (at, at, Ending::Next),
        None => (text.len(), text.len(), Ending::End),
    }
}

/// Does the body from `from` open with a JSON value (`{` or `[`, after white space and a
/// code fence's opening line)?
fn holds_a_value(text: &str, from: usize) -> bool {
    let bytes = text.as_bytes();
    let mut at = skip_ws(bytes, from);
    if text[at..].starts_with("```") {
        let line = text[at..].find('\n').map_or(text.len(), |newline| at + newline + 1);
        at = skip_ws(bytes, line);
    }
    matches!(bytes.get(at), Some(b'{' | b'['))
}

/// [`block`] for a body that holds JSON or Python values: the closing and next markers are
/// looked for outside them ([`find_outside_values`]).
fn value_block(text: &str, from: usize, close: &str, next: &[&str]) -> (usize, usize, Ending) {
    block_by(find_outside_values, text, from, close, next)
}

/// The first of several patterns at or after `from`: its position and which one. One pass.
fn find_first(text: &str, from: usize, patterns: &[&str]) -> Option<(usize, usize)> {
    let bytes = text.as_bytes();
    let firsts: Vec<u8> = patterns.iter().filter_map(|p| p.as_bytes().first().copied()).collect();
    let mut i = from;
    while i < bytes.len() {
        if firsts.contains(&bytes[i]) {
            let rest = &bytes[i..];
            if let Some(which) = patterns.iter().position(|p| rest.starts_with(p.as_bytes())) {
                return Some((i, which));
            }
        }
        i += 1;
    }
    None
}

/// The inside of a Markdown code fence, when `text` (trimmed) is exactly one.
fn unfence(text: &str) -> &str {
    let trimmed = text.trim();
    let Some(rest) = trimmed.strip_prefix("```") else { return trimmed };
    let Some(body) = rest.strip_suffix("```") else { return trimmed };
    // Drop the info string (`json`) on the opening line.
    match body.find('\n') {
        Some(newline) if !body[..newline].contains(['{', '[']) => body[newline + 1..].trim(),
        _ => body.trim_start_matches(|c: char| c.is_ascii_alphabetic()).trim(),
    }
}

/// In a response that stopped early, is the call whose text is `span` unfinished: it reaches
/// the end of the `source` text without its closing marker (a call followed by more text,
/// or closed, was whole)? Text that ends with part of a closing marker (`<`, `</tool_call`)
/// ended inside that marker: the call before it is unfinished too.
///
/// A JSON list's `]` ends the calls in it, whatever marker was meant to follow it (Hermes'
/// and Granite's `<tool_call>[…]`, Hunyuan's `<tool_calls>[…]`, Apertus's
/// `<|tools_prefix|>[…]`, Command A's `<|START_ACTION|>[…]`, Mistral's `[TOOL_CALLS][…]`):
/// no call can follow in that list, and the closing marker is a special token a server may
/// strip. A lone call object's `}` is no such end (another call may follow it in the same
/// block), so a call object at the end of the text is cut unless its block's closing
/// marker arrived.
pub(crate) fn unfinished(span: &str, source: &str) -> bool {
    let span = span.trim_end();
    if span.is_empty() {
        return false;
    }
    let source = source.trim_end();
    if source.ends_with(span) {
        return !CLOSING_MARKERS.iter().any(|marker| span.ends_with(marker));
    }
    // The text ends with the start of a closing marker (or of a block's end token): it was
    // cut inside that marker, right after the call. A lone `]` (the start of MiniMax M3's
    // `]<]minimax[>[</tool_call>`) is a list's own bracket, which ends its calls.
    CLOSING_MARKERS.iter().chain(BLOCK_ENDS).any(|marker| {
        (1..marker.len())
            .filter(|&len| marker.is_char_boundary(len) && !marker.starts_with(']'))
            .filter_map(|len| source.strip_suffix(&marker[..len]))
            .any(|before| before.trim_end().ends_with(span))
    })
}

/// Tokens that end a block of calls in some formats besides [`CLOSING_MARKERS`] (Llama's
/// end of message or turn, Mistral's older closing tag, the end of sequence): text that ends
/// with a part of one was cut inside it.
const BLOCK_ENDS: &[&str] = &["<|eom_id|>", "<|eot_id|>", "[/TOOL_CALLS]", "</s>", "<|end_of_text|>"];
