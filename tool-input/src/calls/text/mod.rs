//! Tool calls a model wrote into its text, because it was served without a tool parser.
//!
//! The text is read once, left to right. Each call written with an explicit marker (a tag
//! or a special token) is taken out, and everything around it stays content. Only when the
//! text has no marker at all is it tried as a bare call: a JSON object (or list, or
//! `;`-separated objects) with a name and arguments, or a Python list of calls, making up
//! the whole text (a code fence around it, and prose around the fence, are allowed).

mod deepseek;
mod hermes;
mod json;
mod keywords;
mod kimi;
mod llama;
mod mistral;
mod pythonic;
mod scan;
mod xml;

use std::fmt;
use std::str::FromStr;

use serde_json::Value;

use super::{CallErrorKind, CallParts, Collector, Format};
use crate::error::{ErrorCode, Rejection, RejectionKind};
use crate::parse::{self, ParseOptions};

/// The text formats calls are read from. By default every one is tried;
/// [`CallOptions::text_format`](super::CallOptions::text_format) restricts reading to one.
///
/// | format | what it looks like |
/// |---|---|
/// | [`Hermes`](TextFormat::Hermes) (Hermes 2 Pro/3, Qwen 2.5/3) | `<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>`; also `<tools>…</tools>` |
/// | [`Json`](TextFormat::Json) | a bare or fenced `{"name": …, "arguments": …}` (or `"parameters"`), a list of them, or several separated by `;` |
/// | [`Mistral`](TextFormat::Mistral) | `[TOOL_CALLS] [{"name": …, "arguments": …}]`, `[TOOL_CALLS]get_weather{…}`, `[TOOL_CALLS]get_weather[ARGS]{…}` (with `[CALL_ID]id` kept as the id) |
/// | [`Llama`](TextFormat::Llama) (Llama 3.x) | `<\|python_tag\|>{"name": …, "parameters": …}; {…}` |
/// | [`Pythonic`](TextFormat::Pythonic) (Llama 3.2/4 pythonic) | `[get_weather(city='Paris', days=3)]`, optionally in `<\|python_start\|>…<\|python_end\|>` |
/// | [`Qwen3Coder`](TextFormat::Qwen3Coder) | `<tool_call><function=get_weather><parameter=city>Paris</parameter></function></tool_call>` |
/// | [`Glm`](TextFormat::Glm) (GLM-4.5) | `<tool_call>get_weather<arg_key>city</arg_key><arg_value>Paris</arg_value></tool_call>` |
/// | [`DeepSeek`](TextFormat::DeepSeek) (V3, V3.1, R1) | `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather` + a fenced JSON, or `…begin｜>get_weather<｜tool▁sep｜>{…}`; ASCII `\|` bars too |
/// | [`Kimi`](TextFormat::Kimi) (K2) | `<\|tool_calls_section_begin\|><\|tool_call_begin\|>functions.get_weather:0<\|tool_call_argument_begin\|>{…}<\|tool_call_end\|>…`; the id `functions.get_weather:0` is kept |
///
/// **Telling a call from prose.** A call with a marker is a call attempt: if its name is
/// not a known tool it is an `unknown_tool` error, and if it is cut off a `truncated`
/// error, so it can be answered. A bare JSON object or Python list has no marker, so it is
/// a call only when it makes up the whole text (or the whole of a code fence), has exactly
/// the keys of a call (`name`, `arguments` or `parameters`, optionally `id` and `type`), and,
/// when the known tools are given, names only known tools; otherwise it stays content. In
/// the content of a structured response (OpenAI, Anthropic, …), bare calls are read only
/// when the known tools are given.
///
/// **Values of qwen3-coder and GLM parameters** arrive as text. They are converted by the
/// tool's schema (when [known](super::CallOptions::definitions)): an integer or number
/// parameter is read as a number, a boolean as `true`/`false`, an object or array as JSON
/// (leniently), `null` as null where the schema allows it; a string parameter, an
/// undeclared one, or a value that does not read as the declared type stays text, for the
/// tool's own check to coerce or reject (never guessed: `"maybe"` is not turned into
/// `false`). One newline right after the opening tag and one before the closing tag are
/// not part of the value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TextFormat {
    /// `<tool_call>` JSON (Hermes, Qwen).
    Hermes,
    /// A bare or fenced JSON call object or list.
    Json,
    /// Mistral's `[TOOL_CALLS]`.
    Mistral,
    /// Llama 3's `<|python_tag|>` JSON.
    Llama,
    /// A Python list of calls.
    Pythonic,
    /// qwen3-coder's XML.
    Qwen3Coder,
    /// GLM's `<arg_key>`/`<arg_value>`.
    Glm,
    /// DeepSeek's special tokens.
    DeepSeek,
    /// Kimi K2's special tokens.
    Kimi,
}

impl TextFormat {
    /// The format's name: `hermes`, `json`, `mistral`, `llama`, `pythonic`, `qwen3_coder`,
    /// `glm`, `deepseek` or `kimi`.
    pub fn as_str(self) -> &'static str {
        match self {
            TextFormat::Hermes => "hermes",
            TextFormat::Json => "json",
            TextFormat::Mistral => "mistral",
            TextFormat::Llama => "llama",
            TextFormat::Pythonic => "pythonic",
            TextFormat::Qwen3Coder => "qwen3_coder",
            TextFormat::Glm => "glm",
            TextFormat::DeepSeek => "deepseek",
            TextFormat::Kimi => "kimi",
        }
    }
}

impl fmt::Display for TextFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for TextFormat {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(match s {
            "hermes" | "qwen" => TextFormat::Hermes,
            "json" => TextFormat::Json,
            "mistral" => TextFormat::Mistral,
            "llama" | "llama3_json" => TextFormat::Llama,
            "pythonic" => TextFormat::Pythonic,
            "qwen3_coder" | "qwen3-coder" => TextFormat::Qwen3Coder,
            "glm" | "glm45" => TextFormat::Glm,
            "deepseek" => TextFormat::DeepSeek,
            "kimi" | "kimi_k2" => TextFormat::Kimi,
            other => return Err(format!("unknown text format `{other}`")),
        })
    }
}

/// Where the text comes from, which decides how much a bare call must prove.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// The whole response is text (a backend without a tool parser, `--format text`).
    Text,
    /// The content of a structured response that had no native calls.
    Content,
}

/// A marker that starts a call written in text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Marker {
    /// `<tool_call>` (JSON, qwen3-coder or GLM inside).
    ToolCall,
    /// `<tools>`, as Qwen3-Coder writes when the system prompt shows that tag.
    Tools,
    /// `<function=`, qwen3-coder without the `<tool_call>` around it.
    Function,
    /// `[TOOL_CALLS]`.
    Mistral,
    /// `<|python_tag|>`.
    PythonTag,
    /// `<|python_start|>`.
    PythonStart,
    /// DeepSeek's `tool▁calls▁begin` or `tool▁call▁begin`.
    DeepSeek,
    /// Kimi's `tool_calls_section_begin` or `tool_call_begin`.
    Kimi,
}

const MARKERS: &[(&str, Marker)] = &[
    ("<tool_call>", Marker::ToolCall),
    ("<tools>", Marker::Tools),
    ("<function=", Marker::Function),
    ("[TOOL_CALLS]", Marker::Mistral),
    ("<|python_tag|>", Marker::PythonTag),
    ("<|python_start|>", Marker::PythonStart),
    ("<｜tool▁calls▁begin｜>", Marker::DeepSeek),
    ("<|tool▁calls▁begin|>", Marker::DeepSeek),
    ("<｜tool▁call▁begin｜>", Marker::DeepSeek),
    ("<|tool▁call▁begin|>", Marker::DeepSeek),
    ("<|tool_calls_section_begin|>", Marker::Kimi),
    ("<|tool_call_section_begin|>", Marker::Kimi),
    ("<|tool_call_begin|>", Marker::Kimi),
];

impl Marker {
    fn allowed(self, only: Option<TextFormat>) -> bool {
        let Some(format) = only else { return true };
        match self {
            Marker::ToolCall => {
                matches!(format, TextFormat::Hermes | TextFormat::Qwen3Coder | TextFormat::Glm)
            }
            Marker::Tools => format == TextFormat::Hermes,
            Marker::Function => format == TextFormat::Qwen3Coder,
            Marker::Mistral => format == TextFormat::Mistral,
            Marker::PythonTag => format == TextFormat::Llama,
            Marker::PythonStart => format == TextFormat::Pythonic,
            Marker::DeepSeek => format == TextFormat::DeepSeek,
            Marker::Kimi => format == TextFormat::Kimi,
        }
    }
}

/// The first marker at or after `from`: its position, its text and kind.
fn next_marker(text: &str, from: usize, only: Option<TextFormat>) -> Option<(usize, &'static str, Marker)> {
    let bytes = text.as_bytes();
    let mut i = from;
    while i < bytes.len() {
        if bytes[i] == b'<' || bytes[i] == b'[' {
            let rest = &text[i..];
            for &(pattern, marker) in MARKERS {
                if rest.starts_with(pattern) && marker.allowed(only) {
                    return Some((i, pattern, marker));
                }
            }
        }
        i += 1;
    }
    None
}

/// Take the calls out of `text` into `out`; return the text that is left.
pub(crate) fn extract(text: &str, mode: Mode, out: &mut Collector<'_>) -> String {
    let only = out.options.text_format;
    let mut content = String::new();
    let mut pos = 0;
    let mut marked = false;
    while pos < text.len() && !out.is_full() {
        let Some((start, pattern, marker)) = next_marker(text, pos, only) else { break };
        content.push_str(&text[pos..start]);
        let read = match marker {
            Marker::ToolCall | Marker::Tools => hermes::read(text, start, pattern, out),
            Marker::Function => Some(xml::read_bare_functions(text, start, out)),
            Marker::Mistral => Some(mistral::read(text, start, pattern, out)),
            Marker::PythonTag => llama::read(text, start, pattern, out),
            Marker::PythonStart => pythonic::read_tagged(text, start, pattern, out),
            Marker::DeepSeek => Some(deepseek::read(text, start, out)),
            Marker::Kimi => Some(kimi::read(text, start, out)),
        };
        match read {
            Some(end) => {
                marked = true;
                pos = end.max(start + pattern.len());
            }
            // Not a call after all (`<|python_tag|>` before code): the marker is content.
            None => {
                content.push_str(pattern);
                pos = start + pattern.len();
            }
        }
    }
    content.push_str(text.get(pos..).unwrap_or(""));
    if marked || out.attempts() > 0 {
        return content;
    }
    let bare_json = matches!(only, None | Some(TextFormat::Json) | Some(TextFormat::Llama));
    let bare_python = matches!(only, None | Some(TextFormat::Pythonic));
    // In a structured response's content, a bare call must name a known tool.
    if mode == Mode::Content && out.options.configured_tools().is_none() {
        return content;
    }
    if bare_json {
        if let Some(left) = json::read_bare(text, out) {
            return left;
        }
    }
    if bare_python {
        if let Some(left) = pythonic::read_bare(text, out) {
            return left;
        }
    }
    content
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

/// The markers that close a call written into text.
const CLOSING_MARKERS: &[&str] = &[
    "</tool_call>",
    "</tools>",
    "</function>",
    "<|python_end|>",
    "<｜tool▁call▁end｜>",
    "<|tool▁call▁end|>",
    "<｜tool▁calls▁end｜>",
    "<|tool▁calls▁end|>",
    "<|tool_call_end|>",
    "<|tool_calls_section_end|>",
];

/// In a response that stopped early, is the call whose text is `span` unfinished: it reaches
/// the end of the `source` text without its closing marker (a call followed by more text,
/// or closed, was whole)?
pub(crate) fn unfinished(span: &str, source: &str) -> bool {
    let span = span.trim_end();
    !span.is_empty()
        && source.trim_end().ends_with(span)
        && !CLOSING_MARKERS.iter().any(|marker| span.ends_with(marker))
}
