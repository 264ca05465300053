//! Tool calls assembled from a streamed response, event by event.
//!
//! Every API streams tool calls in pieces: ids that arrive late or on every chunk, missing
//! indexes, arguments in fragments that split tokens, escapes and UTF-8 characters, and
//! streams that stop in the middle of a call. A [`StreamAssembler`] takes the events of one
//! response in order ([`push_event`](StreamAssembler::push_event), or the lines of the SSE
//! body with [`push_sse_line`](StreamAssembler::push_sse_line), or text chunks with
//! [`push_text`](StreamAssembler::push_text)) and [`finish`](StreamAssembler::finish)es
//! with the same [`Calls`] the whole body would give: every call is read by
//! [`CallParts::finish`](crate::calls::CallParts::finish), so ids, names, arguments and
//! errors follow one set of rules.
//!
//! | format | a call starts | its arguments | it is final when |
//! |---|---|---|---|
//! | [`Format::OpenAi`] | a `tool_calls` delta with a new index or id | `function.arguments` fragments | the choice's `finish_reason` (or `[DONE]`) arrives |
//! | [`Format::Responses`] | `response.output_item.added` (a `function_call`) | `response.function_call_arguments.delta` | `.function_call_arguments.done` or `.output_item.done` (their arguments must agree with the deltas), or `response.completed` |
//! | [`Format::Anthropic`] | `content_block_start` (`tool_use`), or a whole `tool_use` in `message_start` | `input_json_delta` | `content_block_stop`, or `message_stop` |
//! | [`Format::Gemini`] | a `functionCall` with a name | whole `args`, or `partialArgs` (path and value) while `willContinue` | at once for a whole call; a `functionCall` without `willContinue`, a new call, or `finishReason: STOP` |
//! | [`Format::Ollama`] | a `tool_calls` entry | whole, an object | at once |
//! | [`Format::Text`] | a marker of any [`TextFormat`](crate::calls::TextFormat) (`<tool_call>`, `[TOOL_CALLS]`, `<minimax:tool_call>`, harmony's `to=functions.…`, …) outside the reasoning | the text after it | its closing marker, or the end of the stream |
//!
//! **Partial arguments, as they arrive.** The argument text of each call is read as it
//! arrives by an [`IncrementalParser`], once, in time linear in its bytes:
//! [`open_calls`](StreamAssembler::open_calls) shows the arguments so far as a value
//! ([`OpenCall::arguments_partial`]: complete members, the string being read as far as it
//! arrived), and [`with_events`](StreamAssembler::with_events) collects an event when a
//! member's value is complete and when a string grows, so a tool can start on a long
//! argument, such as a file's content, before it ends. Neither makes a call final. When the
//! call ends complete, that reading is its arguments (the value and repairs a whole body's
//! reader would give for the text): the text is not parsed again.
//!
//! [`IncrementalParser`]: crate::parse::IncrementalParser
//!
//! Text calls ([`Format::Text`]) are shown the same way where the format lets them: a JSON
//! body (`<tool_call>{"name": …, "arguments": {…}}`, Mistral's list, …) through the same
//! parser, and parameters written as tags (qwen3-coder, GLM, MiniMax, DSML, …) as an object
//! whose parameters appear when complete (converted by the tool's schema as at the end) and
//! whose value being written grows as a string when it is text. Nothing is shown inside
//! reasoning, nor before the first lone `</think>` in the formats where one may end it.
//!
//! ```
//! use serde_json::json;
//! use tool_input::calls::{CallOptions, Format, TextFormat};
//! use tool_input::stream::StreamAssembler;
//!
//! let options = CallOptions::new().format(Format::Text).text_format(TextFormat::Qwen3Coder);
//! let mut stream = StreamAssembler::new(options);
//! stream.push_text("Plan.</think>\n<tool_call>\n<function=write_file>\n<parameter=path>\nnotes.md\n</parameter>\n");
//! stream.push_text("<parameter=content>\n# Title\nFirst li");
//! let open = stream.open_calls();
//! assert_eq!(open[0].name, Some("write_file"));
//! assert_eq!(open[0].arguments_partial, Some(&json!({"path": "notes.md", "content": "# Title\nFirst li"})));
//! ```
//!
//! **A partial buffer is never taken as final arguments.** A call whose block did not
//! close, in a stream that stopped for length (`finish_reason: "length"`, `stop_reason:
//! "max_tokens"`, `response.incomplete`, `finishReason: MAX_TOKENS`), that was cut off
//! (no `finish_reason`/`[DONE]`, `message_stop` or `response.completed` before the end),
//! or that met an error event, is a `truncated` error ([`CallErrorKind::Arguments`] with [`RejectionKind::Truncated`]) naming the tool and
//! how many bytes of arguments arrived: it is never a [`ToolCall`], so it is never run.
//!
//! **A cut response runs nothing.** In a response cut off in any of these ways, the calls
//! that had completed are [`CallErrorKind::Incomplete`] errors, their arguments kept on the
//! record, unless [`CallOptions::run_completed_calls`]; a length stop reads as a whole body
//! with the same reason does (its last call is the one cut). A response that did not finish
//! (a Responses status but `completed`, a `finish_reason` such as `error` or `abort`,
//! Anthropic's `pause_turn`, any Gemini reason but `STOP`) is cut by the same rule, and each
//! choice's own stop cuts its own calls. Every event that cannot be read is a
//! [`CallErrorKind::Malformed`] error naming it, never skipped in silence.
//!
//! **Nothing after the end, nothing contradicted.** A call after the stream's end marker (or
//! its choice's `finish_reason`, or after `message_stop`), more input for a call already read,
//! a closing event whose arguments disagree with the call's, one Anthropic id on two different
//! calls, and two choices with one `index`: each is an error, never a call.
//!
//! ```
//! use serde_json::json;
//! use tool_input::calls::CallOptions;
//! use tool_input::stream::StreamAssembler;
//!
//! let mut stream = StreamAssembler::new(CallOptions::new());
//! for event in [
//!     json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "call_1",
//!         "type": "function", "function": {"name": "get_weather", "arguments": ""}}]}}]}),
//!     json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0,
//!         "function": {"arguments": "{\"city\": \"Pa"}}]}}]}),
//!     json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0,
//!         "function": {"arguments": "ris\"}"}}]}}]}),
//!     json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}),
//! ] {
//!     stream.push_event(&event);
//! }
//! let calls = stream.finish();
//! assert_eq!(calls.calls[0].id, "call_1");
//! assert_eq!(calls.calls[0].arguments["city"], "Paris");
//! ```
//!
//! The same stream cut off by `max_tokens` in Anthropic's format gives an error, not a call:
//!
//! ```
//! use tool_input::calls::CallOptions;
//! use tool_input::stream::StreamAssembler;
//!
//! let body = r#"event: content_block_start
//! data: {"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": "toolu_1", "name": "make_file", "input": {}}}
//!
//! event: content_block_delta
//! data: {"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": "{\"filename\": \"taxes.txt\", \"text\": \"Filing"}}
//!
//! event: message_delta
//! data: {"type": "message_delta", "delta": {"stop_reason": "max_tokens"}}
//!
//! event: message_stop
//! data: {"type": "message_stop"}
//! "#;
//! let mut stream = StreamAssembler::new(CallOptions::new());
//! for line in body.lines() {
//!     stream.push_sse_line(line);
//! }
//! let calls = stream.finish();
//! assert!(calls.calls.is_empty());
//! assert_eq!(calls.errors[0].kind.code(), "truncated");
//! assert_eq!(calls.errors[0].name.as_deref(), Some("make_file"));
//! assert!(calls.errors[0].message.contains("41 bytes"));
//! ```
//!
//! [`CallErrorKind::Arguments`]: crate::calls::CallErrorKind::Arguments
//! [`RejectionKind::Truncated`]: crate::RejectionKind::Truncated
//! [`CallErrorKind::Incomplete`]: crate::calls::CallErrorKind::Incomplete
//! [`CallErrorKind::Malformed`]: crate::calls::CallErrorKind::Malformed

mod anthropic;
mod assembly;
mod gemini;
mod ollama;
mod openai;
mod responses;
mod sse;
#[cfg(test)]
mod tests;
mod typed;

use std::mem;

use serde::Serialize;
use serde_json::Value;

pub(crate) use crate::calls::describe;
use crate::calls::{CallError, CallOptions, Calls, Format, ToolCall};
use crate::parse::StreamEvent;
pub(crate) use assembly::{Args, Assembly, End};

/// Default for [`StreamAssembler::max_call_bytes`]: 8 MiB of arguments per streamed call.
///
/// ```
/// use serde_json::json;
/// use tool_input::calls::CallOptions;
/// use tool_input::stream::{StreamAssembler, DEFAULT_MAX_CALL_BYTES};
///
/// let mut stream = StreamAssembler::new(CallOptions::new());
/// stream.push_event(&json!({"type": "content_block_start", "index": 0,
///     "content_block": {"type": "tool_use", "id": "toolu_1", "name": "write_file", "input": {}}}));
/// let huge = format!(r#"{{"text": "{}"}}"#, "a".repeat(DEFAULT_MAX_CALL_BYTES));
/// stream.push_event(&json!({"type": "content_block_delta", "index": 0,
///     "delta": {"type": "input_json_delta", "partial_json": huge}}));
/// stream.push_event(&json!({"type": "content_block_stop", "index": 0}));
/// stream.push_event(&json!({"type": "message_stop"}));
/// let error = &stream.finish().errors[0];
/// assert_eq!(error.kind.code(), "too_large");
/// assert!(error.message.contains(&format!("limit of {DEFAULT_MAX_CALL_BYTES} bytes")));
/// ```
pub const DEFAULT_MAX_CALL_BYTES: usize = 8 * 1024 * 1024;

/// Default for [`StreamAssembler::max_stream_bytes`]: 64 MiB of body per stream.
///
/// ```
/// use tool_input::calls::CallOptions;
/// use tool_input::stream::{StreamAssembler, DEFAULT_MAX_STREAM_BYTES};
///
/// let mut stream = StreamAssembler::new(CallOptions::new());
/// stream.push_text(&" ".repeat(DEFAULT_MAX_STREAM_BYTES + 1));
/// let calls = stream.finish();
/// assert_eq!(calls.errors[0].kind.code(), "stream_too_large");
/// assert!(calls.errors[0].message.contains(&format!("limit of {DEFAULT_MAX_STREAM_BYTES} bytes")));
/// ```
pub const DEFAULT_MAX_STREAM_BYTES: usize = 64 * 1024 * 1024;

/// Longest tool name kept from fragments; a longer one is not a name any API accepts.
const MAX_NAME_BYTES: usize = 1024;

/// Assembles the tool calls of one streamed response. See the [module](self) for the
/// formats and when a call is final.
///
/// Feed it the events in order, then [`finish`](StreamAssembler::finish). The format is
/// [`CallOptions::format`], or detected from the first event of a known shape. Nothing it
/// is fed makes it panic: events of another shape, out of order, repeated or huge are
/// ignored or turn the calls they touch into errors.
///
/// ```
/// use serde_json::json;
/// use tool_input::calls::{CallOptions, Format};
/// use tool_input::stream::StreamAssembler;
///
/// // Mistral's compatible endpoint: no `index`, the id on the first delta only.
/// let mut stream = StreamAssembler::new(CallOptions::new().format(Format::OpenAi));
/// stream.push_event(&json!({"choices": [{"index": 0, "delta": {"tool_calls": [
///     {"id": "gSIMJiOkT", "function": {"name": "weather", "arguments": "{\"location\": "}}]}}]}));
/// stream.push_event(&json!({"choices": [{"index": 0, "delta": {"tool_calls": [
///     {"function": {"arguments": "\"Paris\"}"}}]}, "finish_reason": "tool_calls"}]}));
/// let calls = stream.finish();
/// assert_eq!(calls.calls[0].id, "gSIMJiOkT");
/// assert_eq!(calls.calls[0].arguments["location"], "Paris");
/// ```
#[derive(Debug)]
pub struct StreamAssembler {
    state: Assembly,
    backend: Backend,
    sse: sse::Decoder,
    /// The typed partials asked for ([`StreamAssembler::partial`]).
    partials: typed::Partials,
}

/// The per-format accumulator.
#[derive(Debug)]
enum Backend {
    /// No event of a known shape yet.
    Undetected,
    OpenAi(openai::Chat),
    Responses(responses::Responses),
    Anthropic(anthropic::Anthropic),
    Gemini(gemini::Gemini),
    Ollama(ollama::Ollama),
    Text,
}

impl Default for StreamAssembler {
    fn default() -> Self {
        StreamAssembler::new(CallOptions::new())
    }
}

impl StreamAssembler {
    /// An assembler reading with `options`: the format ([`Format::Auto`] detects it from
    /// the first event), the known tools, the call limit ([`CallOptions::max_calls`]), and
    /// the most bytes buffered in all ([`CallOptions::max_body_bytes`]).
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::calls::CallOptions;
    /// use tool_input::stream::StreamAssembler;
    ///
    /// let mut stream = StreamAssembler::new(CallOptions::new().tools(["get_weather"]));
    /// stream.push_event(&json!({"type": "content_block_start", "index": 0,
    ///     "content_block": {"type": "tool_use", "id": "toolu_1", "name": "Get_Weather", "input": {}}}));
    /// stream.push_event(&json!({"type": "content_block_delta", "index": 0,
    ///     "delta": {"type": "input_json_delta", "partial_json": "{\"city\": \"Paris\"}"}}));
    /// stream.push_event(&json!({"type": "content_block_stop", "index": 0}));
    /// stream.push_event(&json!({"type": "message_stop"}));
    /// let calls = stream.finish();
    /// assert_eq!(calls.calls[0].name, "get_weather"); // matched against the known tools
    /// assert_eq!(calls.calls[0].arguments["city"], "Paris");
    /// ```
    pub fn new(options: CallOptions) -> Self {
        let format = options.configured_format();
        let backend = match format {
            Format::Auto => Backend::Undetected,
            format => Backend::for_format(format),
        };
        StreamAssembler {
            state: Assembly::new(options, format),
            backend,
            sse: sse::Decoder::default(),
            partials: typed::Partials::default(),
        }
    }

    /// The most bytes of arguments one streamed call may buffer (default
    /// [`DEFAULT_MAX_CALL_BYTES`]); a call that sends more is a
    /// `too_large` error ([`CallErrorKind::Arguments`] with [`RejectionKind::TooLarge`]), and what it sends after is dropped.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::calls::CallOptions;
    /// use tool_input::stream::StreamAssembler;
    ///
    /// let mut stream = StreamAssembler::new(CallOptions::new()).max_call_bytes(8);
    /// stream.push_event(&json!({"type": "content_block_start", "index": 0,
    ///     "content_block": {"type": "tool_use", "id": "toolu_1", "name": "write", "input": {}}}));
    /// stream.push_event(&json!({"type": "content_block_delta", "index": 0,
    ///     "delta": {"type": "input_json_delta", "partial_json": "{\"text\": \"far too long\"}"}}));
    /// stream.push_event(&json!({"type": "content_block_stop", "index": 0}));
    /// stream.push_event(&json!({"type": "message_stop"}));
    /// assert_eq!(stream.finish().errors[0].kind.code(), "too_large");
    /// ```
    ///
    /// [`CallErrorKind::Arguments`]: crate::calls::CallErrorKind::Arguments
    /// [`RejectionKind::TooLarge`]: crate::RejectionKind::TooLarge
    pub fn max_call_bytes(mut self, bytes: usize) -> Self {
        self.state.max_call_bytes = bytes;
        self
    }

    /// The most bytes of body one stream may send through
    /// [`push_sse_bytes`](StreamAssembler::push_sse_bytes),
    /// [`push_sse_line`](StreamAssembler::push_sse_line),
    /// [`push_text`](StreamAssembler::push_text) and
    /// [`push_event`](StreamAssembler::push_event) (an event by the length of its compact
    /// JSON) (default [`DEFAULT_MAX_STREAM_BYTES`]). Past
    /// it nothing more is read: a call still streaming is a [`CallErrorKind::StreamTooLarge`]
    /// error (one such error stands for the stream when no call was open), and the response
    /// is cut, so the calls that were complete are [`CallErrorKind::Incomplete`] errors.
    ///
    /// ```
    /// use tool_input::calls::CallOptions;
    /// use tool_input::stream::StreamAssembler;
    ///
    /// let mut stream = StreamAssembler::new(CallOptions::new()).max_stream_bytes(200);
    /// stream.push_sse_bytes(b"data: {\"choices\": [{\"index\": 0, \"delta\": {\"tool_calls\": [{\"index\": 0, \"id\": \"call_1\", \"function\": {\"name\": \"write\", \"arguments\": \"{\\\"text\\\": \\\"\"}}]}}]}\n\n");
    /// for _ in 0..10 {
    ///     stream.push_sse_bytes(b"data: {\"choices\": [{\"index\": 0, \"delta\": {\"tool_calls\": [{\"index\": 0, \"function\": {\"arguments\": \"aaaa\"}}]}}]}\n\n");
    /// }
    /// let calls = stream.finish();
    /// assert!(calls.calls.is_empty());
    /// assert_eq!(calls.errors[0].kind.code(), "stream_too_large");
    /// assert_eq!(calls.errors[0].name.as_deref(), Some("write"));
    /// ```
    ///
    /// [`CallErrorKind::StreamTooLarge`]: crate::calls::CallErrorKind::StreamTooLarge
    /// [`CallErrorKind::Incomplete`]: crate::calls::CallErrorKind::Incomplete
    pub fn max_stream_bytes(mut self, bytes: usize) -> Self {
        self.state.max_stream_bytes = bytes;
        self
    }

    /// Collect the [`StreamEvent`]s of every call's arguments as they arrive, to take with
    /// [`take_events`](StreamAssembler::take_events): when a member's value is complete, and
    /// when a string value grows, so a tool can start on a long argument (a file's content)
    /// before it ends. Gemini's `partialArgs` give them too: a string grows with each entry,
    /// and a value is complete when its entry ends. Arguments that arrive whole (Gemini's
    /// `args`, Ollama's objects, the objects of some compatible backends) give the events of
    /// the same JSON arriving as text in one piece: each value complete at once. Off by
    /// default: the events hold copies of the values, which pile up unless taken.
    ///
    /// An event never makes a call final: the arguments are read from the whole text when
    /// the call ends, and a call that was cut off is an error even if every event came. A
    /// [`StreamEvent::Restart`] says to forget the call's earlier events (a closing event
    /// brought other arguments than the fragments, or the value after prose failed).
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::calls::CallOptions;
    /// use tool_input::parse::StreamEvent;
    /// use tool_input::stream::StreamAssembler;
    ///
    /// let mut stream = StreamAssembler::new(CallOptions::new()).with_events();
    /// stream.push_event(&json!({"type": "content_block_start", "index": 0, "content_block":
    ///     {"type": "tool_use", "id": "toolu_1", "name": "write_file", "input": {}}}));
    /// let mut content = String::new();
    /// for fragment in [r##"{"path": "a.md", "content": "# Ti"##, r#"tle\n"#, r#"Body"}"#] {
    ///     stream.push_event(&json!({"type": "content_block_delta", "index": 0,
    ///         "delta": {"type": "input_json_delta", "partial_json": fragment}}));
    ///     for event in stream.take_events() {
    ///         if let StreamEvent::StringGrew { path, appended } = &event.event {
    ///             if event.name.as_deref() == Some("write_file") && path == "/content" {
    ///                 content.push_str(appended); // write it out as it arrives
    ///             }
    ///         }
    ///     }
    /// }
    /// assert_eq!(content, "# Title\nBody");
    /// ```
    pub fn with_events(mut self) -> Self {
        self.state.events = Some(Vec::new());
        self
    }

    /// The argument events collected since the last call (with
    /// [`with_events`](StreamAssembler::with_events); none otherwise), in the order they
    /// arrived.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::calls::CallOptions;
    /// use tool_input::parse::StreamEvent;
    /// use tool_input::stream::StreamAssembler;
    ///
    /// let mut stream = StreamAssembler::new(CallOptions::new()).with_events();
    /// stream.push_event(&json!({"type": "content_block_start", "index": 0,
    ///     "content_block": {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {}}}));
    /// for fragment in [r#"{"city": "Pa"#, r#"ris", "days": 3}"#] {
    ///     stream.push_event(&json!({"type": "content_block_delta", "index": 0,
    ///         "delta": {"type": "input_json_delta", "partial_json": fragment}}));
    /// }
    /// let events: Vec<StreamEvent> = stream.take_events().into_iter().map(|e| e.event).collect();
    /// assert_eq!(events[0], StreamEvent::StringGrew { path: "/city".into(), appended: "Pa".into() });
    /// assert_eq!(events[1], StreamEvent::StringGrew { path: "/city".into(), appended: "ris".into() });
    /// assert!(matches!(&events[2], StreamEvent::ValueComplete { path, .. } if path == "/city"));
    /// assert!(stream.take_events().is_empty()); // taken
    /// ```
    pub fn take_events(&mut self) -> Vec<ArgumentEvent> {
        self.state.events.as_mut().map(mem::take).unwrap_or_default()
    }

    /// The format being read: the one asked for, the one detected, or [`Format::Auto`]
    /// while no event of a known shape has arrived.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::calls::{CallOptions, Format};
    /// use tool_input::stream::StreamAssembler;
    ///
    /// let mut stream = StreamAssembler::new(CallOptions::new());
    /// assert_eq!(stream.format(), Format::Auto);
    /// stream.push_event(&json!({"type": "message_start", "message": {"id": "msg_1", "type": "message",
    ///     "role": "assistant", "content": []}}));
    /// assert_eq!(stream.format(), Format::Anthropic);
    /// ```
    pub fn format(&self) -> Format {
        self.state.format
    }

    /// Feed one decoded event: a chunk of Chat Completions, an event of the Responses or
    /// Anthropic API, a Gemini `GenerateContentResponse` (or an array of them), an Ollama
    /// chunk, or a JSON string (a text chunk, for [`Format::Text`]). The string `"[DONE]"`
    /// in a stream of JSON events is its end marker, as [`push_done`](StreamAssembler::push_done);
    /// any other event that is not an object (`null`, `[1]`, `5`) cannot be read, so the calls
    /// it may have touched become [`CallErrorKind::Malformed`](crate::calls::CallErrorKind::Malformed)
    /// errors naming it.
    ///
    /// The event counts toward [`max_stream_bytes`](StreamAssembler::max_stream_bytes) by the
    /// length of its compact JSON.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::calls::{CallOptions, Format};
    /// use tool_input::stream::StreamAssembler;
    ///
    /// // Gemini streams each call whole, without an id.
    /// let mut stream = StreamAssembler::new(CallOptions::new());
    /// stream.push_event(&json!({"candidates": [{"content": {"role": "model", "parts": [
    ///     {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}}]}, "finishReason": "STOP"}]}));
    /// let calls = stream.finish();
    /// assert_eq!(calls.format, Format::Gemini);
    /// assert_eq!(calls.calls[0].arguments["city"], "Paris");
    /// assert!(calls.calls[0].id_generated);
    /// ```
    pub fn push_event(&mut self, event: &Value) {
        if self.state.receive(crate::message::json_len(event)) {
            feed(&mut self.state, &mut self.backend, event);
        }
    }

    /// Feed one line of the body: SSE framing (`event:` and `data:` lines, a blank line
    /// ending each event, `:` comments, `data: [DONE]`) or one JSON event per line. A
    /// `data:` payload or a line that is not JSON damages the calls then streaming: they
    /// become errors rather than calls with a piece missing.
    ///
    /// ```
    /// use tool_input::calls::CallOptions;
    /// use tool_input::stream::StreamAssembler;
    ///
    /// let body = "data: {\"choices\": [{\"index\": 0, \"delta\": {\"tool_calls\": [{\"index\": 0, \"id\": \"call_1\", \"function\": {\"name\": \"ping\", \"arguments\": \"{}\"}}]}}]}\n\ndata: [DONE]\n\n";
    /// let mut stream = StreamAssembler::new(CallOptions::new());
    /// for line in body.lines() {
    ///     stream.push_sse_line(line);
    /// }
    /// assert_eq!(stream.finish().calls[0].name, "ping");
    /// ```
    pub fn push_sse_line(&mut self, line: &str) {
        if !self.state.receive(line.len() + 1) {
            return;
        }
        let limit = self.state.options.get_max_body_bytes();
        let StreamAssembler { state, backend, sse, .. } = self;
        sse.line(line, limit, &mut |frame| take_frame(state, backend, frame));
    }

    /// Feed raw bytes of the body as they arrive from the network, split anywhere (inside a
    /// line, inside a UTF-8 character); lines are read as by
    /// [`push_sse_line`](StreamAssembler::push_sse_line). A chunk is anything that is
    /// `AsRef<[u8]>`: an HTTP client's `Bytes`, `&[u8]`, `Vec<u8>`, `&str`, `String`.
    ///
    /// ```
    /// use tool_input::calls::CallOptions;
    /// use tool_input::stream::StreamAssembler;
    ///
    /// let body = "{\"type\": \"content_block_start\", \"index\": 0, \"content_block\": {\"type\": \"tool_use\", \"id\": \"toolu_1\", \"name\": \"greet\", \"input\": {}}}\n{\"type\": \"content_block_delta\", \"index\": 0, \"delta\": {\"type\": \"input_json_delta\", \"partial_json\": \"{\\\"to\\\": \\\"Zoë\\\"}\"}}\n{\"type\": \"content_block_stop\", \"index\": 0}\n{\"type\": \"message_stop\"}\n";
    /// let mut stream = StreamAssembler::new(CallOptions::new());
    /// for piece in body.as_bytes().chunks(3) {
    ///     stream.push_sse_bytes(piece);
    /// }
    /// assert_eq!(stream.finish().calls[0].arguments["to"], "Zoë");
    /// ```
    pub fn push_sse_bytes(&mut self, bytes: impl AsRef<[u8]>) {
        self.push_sse_chunk(bytes.as_ref());
    }

    /// [`push_sse_bytes`](StreamAssembler::push_sse_bytes), not generic.
    fn push_sse_chunk(&mut self, bytes: &[u8]) {
        if !self.state.receive(bytes.len()) {
            return;
        }
        let limit = self.state.options.get_max_body_bytes();
        // Each event is read as soon as its frame is complete: nothing but the line and the
        // event being read is held.
        let StreamAssembler { state, backend, sse, .. } = self;
        sse.bytes(bytes, limit, &mut |frame| take_frame(state, backend, frame));
    }

    /// Feed a chunk of assistant text ([`Format::Text`], or detected when the first input
    /// is text). Markers and calls may be split anywhere between chunks; a call is read
    /// when its closing marker has arrived or the stream ends.
    ///
    /// ```
    /// use tool_input::calls::{CallOptions, Format};
    /// use tool_input::stream::StreamAssembler;
    ///
    /// let mut stream = StreamAssembler::new(CallOptions::new().format(Format::Text));
    /// for chunk in ["Checking. <tool", "_call>{\"name\": \"get_weather\", ", "\"arguments\": {\"city\": \"Paris\"}}</tool_", "call>"] {
    ///     stream.push_text(chunk);
    /// }
    /// let calls = stream.finish();
    /// assert_eq!(calls.calls[0].arguments["city"], "Paris");
    /// assert_eq!(calls.content.as_deref(), Some("Checking. "));
    /// ```
    pub fn push_text(&mut self, chunk: &str) {
        if !self.state.receive(chunk.len()) {
            return;
        }
        if let Backend::Undetected = self.backend {
            self.state.format = Format::Text;
            self.backend = Backend::Text;
        }
        if let Backend::Text = self.backend {
            self.state.push_text(chunk);
        }
    }

    /// The stream stopped early: the transport reports a length stop or a dropped
    /// connection that the events do not show. Every call not final yet becomes a
    /// truncated error, a call written into text is final only if its closing marker
    /// arrived (or text came after it), and the calls that were final are
    /// [`CallErrorKind::Incomplete`] errors unless [`CallOptions::run_completed_calls`].
    ///
    /// ```
    /// use tool_input::calls::{CallOptions, Format};
    /// use tool_input::stream::StreamAssembler;
    ///
    /// let mut stream = StreamAssembler::new(CallOptions::new().format(Format::Text));
    /// stream.push_text("<tool_call>{\"name\": \"f\", \"arguments\": {}}");
    /// stream.cut_off("the connection dropped");
    /// let calls = stream.finish();
    /// assert!(calls.calls.is_empty());
    /// assert_eq!(calls.errors[0].kind.code(), "truncated");
    /// ```
    ///
    /// [`CallErrorKind::Incomplete`]: crate::calls::CallErrorKind::Incomplete
    pub fn cut_off(&mut self, reason: &str) {
        let reason: String = reason.chars().take(120).collect();
        self.state.stopped_early(&reason);
        self.state.end_open(|_| End::Cut(reason.clone()));
    }

    /// The stream's end marker (`data: [DONE]`) arrived: a Chat Completions stream without
    /// a `finish_reason` ends normally rather than cut off.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::calls::CallOptions;
    /// use tool_input::stream::StreamAssembler;
    ///
    /// let chunk = json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "call_1",
    ///     "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}}]}}]});
    /// let mut stream = StreamAssembler::new(CallOptions::new());
    /// stream.push_event(&chunk);
    /// stream.push_done();
    /// assert_eq!(stream.calls()[0].id, "call_1"); // final now, not only at `finish`
    /// assert!(stream.finish().is_ok());
    /// // Without `[DONE]` (and no `finish_reason`) the stream reads as cut off.
    /// let mut stream = StreamAssembler::new(CallOptions::new());
    /// stream.push_event(&chunk);
    /// assert_eq!(stream.finish().errors[0].kind.code(), "truncated");
    /// ```
    pub fn push_done(&mut self) {
        end_of_chat(&mut self.state, &mut self.backend);
    }

    /// The calls that are final so far, in order. [`finish`](StreamAssembler::finish)
    /// returns them again with the rest, unless the response turns out to be cut off (a
    /// length stop, no end marker, an error): then they are
    /// [`CallErrorKind::Incomplete`](crate::calls::CallErrorKind::Incomplete) errors (see
    /// [`CallOptions::run_completed_calls`]). Run one before the stream ends only if a call
    /// of a response that may be cut later is acceptable to run.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::calls::CallOptions;
    /// use tool_input::stream::StreamAssembler;
    ///
    /// let mut stream = StreamAssembler::new(CallOptions::new());
    /// stream.push_event(&json!({"type": "content_block_start", "index": 0,
    ///     "content_block": {"type": "tool_use", "id": "toolu_1", "name": "ping", "input": {}}}));
    /// assert!(stream.calls().is_empty());
    /// stream.push_event(&json!({"type": "content_block_stop", "index": 0}));
    /// assert_eq!(stream.calls()[0].name, "ping");
    /// ```
    pub fn calls(&self) -> &[ToolCall] {
        match (&self.backend, &self.state.text_reader) {
            (Backend::Text, Some(reader)) => reader.calls(),
            _ => &self.state.collected.calls,
        }
    }

    /// The call attempts that failed so far, in order.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::calls::CallOptions;
    /// use tool_input::stream::StreamAssembler;
    ///
    /// let mut stream = StreamAssembler::new(CallOptions::new().tools(["get_weather"]));
    /// stream.push_event(&json!({"type": "content_block_start", "index": 0,
    ///     "content_block": {"type": "tool_use", "id": "toolu_1", "name": "get_time", "input": {}}}));
    /// assert!(stream.errors().is_empty());
    /// stream.push_event(&json!({"type": "content_block_stop", "index": 0}));
    /// assert_eq!(stream.errors()[0].kind.code(), "unknown_tool");
    /// assert_eq!(stream.errors()[0].id, "toolu_1");
    /// ```
    pub fn errors(&self) -> &[CallError] {
        &self.state.collected.errors
    }

    /// The calls still streaming: what has arrived of each, for display. Never run these.
    /// Each call's [`arguments_partial`](OpenCall::arguments_partial) is built when asked
    /// for after new arguments arrived, from the last one (see
    /// [`IncrementalParser::partial`](crate::parse::IncrementalParser::partial)): asking
    /// after every event stays linear in the arguments' bytes.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_input::calls::CallOptions;
    /// use tool_input::stream::StreamAssembler;
    ///
    /// let mut stream = StreamAssembler::new(CallOptions::new());
    /// stream.push_event(&json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0,
    ///     "id": "call_1", "function": {"name": "write_file", "arguments": "{\"path\": \"a.t"}}]}}]}));
    /// let open = stream.open_calls();
    /// assert_eq!(open[0].name, Some("write_file"));
    /// assert_eq!(open[0].arguments_text, Some("{\"path\": \"a.t"));
    /// assert_eq!(open[0].bytes, 13);
    /// ```
    pub fn open_calls(&self) -> Vec<OpenCall<'_>> {
        if let (Backend::Text, Some(reader)) = (&self.backend, &self.state.text_reader) {
            return reader
                .open_calls()
                .into_iter()
                .map(|call| OpenCall {
                    position: call.position,
                    id: call.id,
                    name: call.name,
                    arguments_text: Some(call.text),
                    arguments_value: None,
                    arguments_partial: call.arguments,
                    bytes: call.text.len(),
                })
                .collect();
        }
        self.state
            .calls
            .iter()
            .enumerate()
            .filter(|(_, call)| call.end.is_none())
            .map(|(position, call)| OpenCall {
                position,
                id: call.id.as_deref(),
                name: call.name.as_deref(),
                arguments_text: match &call.args {
                    Args::Text(parser) => Some(parser.text()),
                    _ => None,
                },
                arguments_value: match &call.args {
                    Args::Value(value) => Some(value),
                    _ => None,
                },
                arguments_partial: match &call.args {
                    Args::Text(parser) => Some(parser.partial()),
                    Args::Value(value) => Some(value),
                    Args::Absent => None,
                },
                bytes: call.bytes,
            })
            .collect()
    }

    /// End the stream and read every call: the calls that were final, and an error for
    /// each call that was cut off, too large or damaged. Never panics.
    ///
    /// ```
    /// use tool_input::calls::CallOptions;
    /// use tool_input::stream::StreamAssembler;
    ///
    /// let body = r#"event: response.output_item.added
    /// data: {"type": "response.output_item.added", "output_index": 0, "item": {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_weather", "arguments": ""}}
    ///
    /// event: response.function_call_arguments.delta
    /// data: {"type": "response.function_call_arguments.delta", "output_index": 0, "item_id": "fc_1", "delta": "{\"city\": \"Paris\"}"}
    ///
    /// event: response.completed
    /// data: {"type": "response.completed", "response": {"status": "completed"}}
    ///
    /// "#;
    /// let mut stream = StreamAssembler::new(CallOptions::new());
    /// stream.push_sse_bytes(body);
    /// let calls = stream.finish();
    /// assert_eq!(calls.calls[0].id, "call_1");
    /// assert_eq!(calls.calls[0].arguments["city"], "Paris");
    /// ```
    pub fn finish(mut self) -> Calls {
        if !self.state.over_limit {
            let limit = self.state.options.get_max_body_bytes();
            let StreamAssembler { state, backend, sse, .. } = &mut self;
            sse.finish(limit, &mut |frame| take_frame(state, backend, frame));
        }
        let done = self.state.done;
        match &mut self.backend {
            Backend::OpenAi(chat) => chat.end(&mut self.state, done),
            Backend::Responses(responses) => responses.end(&mut self.state),
            Backend::Anthropic(anthropic) => anthropic.end(&mut self.state),
            Backend::Gemini(gemini) => gemini.end(&mut self.state),
            Backend::Ollama(ollama) => ollama.end(&mut self.state),
            Backend::Text | Backend::Undetected => {}
        }
        self.state.finish()
    }
}

/// Feed one decoded event to the accumulator of its format (detected from the first event
/// of a known shape).
fn feed(state: &mut Assembly, backend: &mut Backend, event: &Value) {
    state.events_fed += 1;
    // `data: [DONE]` handed over as the string it reads as, by a caller that parses the
    // payloads itself.
    if !matches!(backend, Backend::Text) && event.as_str().is_some_and(|text| text.trim() == "[DONE]") {
        return end_of_chat(state, backend);
    }
    if let Backend::Undetected = backend {
        match detect(event) {
            Some(format) => {
                state.format = format;
                *backend = Backend::for_format(format);
            }
            None => {
                // An error event tells no format (`{"type": "error"}` is Anthropic's and the
                // Responses API's, `{"error": …}` any backend's), but it still says the
                // response failed: dropped here, the calls that follow would run.
                if let Some(reason) = error_reason(event) {
                    state.stopped_early(&reason);
                } else if !event.is_object() && event.as_array().is_none_or(|items| !items.is_empty()) {
                    // Before the format is known too: a call may follow, and this may have
                    // been its start. (An empty array is Gemini's REST stream of nothing.)
                    not_an_event(state, event);
                }
                return;
            }
        }
    }
    match (backend, event) {
        (Backend::Text, Value::String(chunk)) => state.push_text(chunk),
        (Backend::Text, _) | (Backend::Undetected, _) => {}
        // Gemini's REST stream without SSE is one JSON array of responses.
        (Backend::Gemini(gemini), Value::Array(events)) => {
            for event in events {
                gemini.event(state, event);
            }
        }
        // `data: null`, `data: [1]`, `data: 5` in a stream of JSON events: no provider sends
        // one, and whatever it stood for (a piece of a call, a stop) is lost. An object of an
        // unknown shape is another matter (keep-alives, usage, metadata), read as nothing.
        (_, event) if !event.is_object() => not_an_event(state, event),
        (Backend::OpenAi(chat), event) => chat.event(state, event),
        (Backend::Responses(responses), event) => responses.event(state, event),
        (Backend::Anthropic(anthropic), event) => anthropic.event(state, event),
        (Backend::Gemini(gemini), event) => gemini.event(state, event),
        (Backend::Ollama(ollama), event) => ollama.event(state, event),
    }
}

/// An event that is JSON but not an event of any stream: the calls it may have touched are
/// damaged, as by an event that is not JSON, never skipped in silence.
fn not_an_event(state: &mut Assembly, event: &Value) {
    let what = crate::message::describe(event, true, 40);
    state.damage(&format!("event {} of the stream is {what}, not an event", state.events_fed));
}

/// Act on one frame of the body as soon as it is complete.
fn take_frame(state: &mut Assembly, backend: &mut Backend, frame: sse::Frame) {
    if state.over_limit {
        return;
    }
    match frame {
        sse::Frame::Event(event) => feed(state, backend, &event),
        // Counted as events too, so an event is named by the same number whether it could
        // be read (`not_an_event`) or not (`BadEvent`).
        sse::Frame::Done => {
            state.events_fed += 1;
            end_of_chat(state, backend)
        }
        sse::Frame::Bad(bad) => {
            state.events_fed += 1;
            state.damage(&bad.to_string())
        }
    }
}

/// The stream's end marker `[DONE]` arrived: a Chat Completions stream's calls are final
/// now (or cut, as its choices' `finish_reason`s and errors say), not only at `finish`.
fn end_of_chat(state: &mut Assembly, backend: &mut Backend) {
    state.done = true;
    if let Backend::OpenAi(chat) = backend {
        chat.end(state, true);
    }
}

impl Backend {
    fn for_format(format: Format) -> Backend {
        match format {
            Format::Auto => Backend::Undetected,
            Format::OpenAi => Backend::OpenAi(openai::Chat::default()),
            Format::Responses => Backend::Responses(responses::Responses::default()),
            Format::Anthropic => Backend::Anthropic(anthropic::Anthropic::default()),
            Format::Gemini => Backend::Gemini(gemini::Gemini::default()),
            Format::Ollama => Backend::Ollama(ollama::Ollama::default()),
            Format::Text => Backend::Text,
        }
    }
}

/// Why an event that is an error event (`{"type": "error", …}` or `{"error": …}`) says the
/// response failed, or `None` for any other event.
fn error_reason(event: &Value) -> Option<String> {
    let error = event.get("error").filter(|error| !error.is_null());
    let typed = event.get("type").and_then(Value::as_str) == Some("error");
    if error.is_none() && !typed {
        return None;
    }
    Some(format!("an error event: {}", describe(error.or_else(|| event.get("code")))))
}

/// The format of a streamed event, by its shape.
fn detect(event: &Value) -> Option<Format> {
    match event {
        Value::String(_) => Some(Format::Text),
        Value::Array(items) => items.first().and_then(detect).filter(|format| *format == Format::Gemini),
        Value::Object(map) => {
            let kind = map.get("type").and_then(Value::as_str).unwrap_or("");
            if map.contains_key("choices")
                || map.get("object").and_then(Value::as_str) == Some("chat.completion.chunk")
            {
                Some(Format::OpenAi)
            } else if kind.starts_with("response.") {
                Some(Format::Responses)
            } else if anthropic::EVENTS.contains(&kind) {
                Some(Format::Anthropic)
            } else if map.contains_key("candidates") {
                Some(Format::Gemini)
            } else if map.get("message").is_some_and(Value::is_object) && map.contains_key("done") {
                Some(Format::Ollama)
            } else {
                None
            }
        }
        _ => None,
    }
}

/// What has arrived of a call that is still streaming, from
/// [`StreamAssembler::open_calls`]. For display only: these arguments may be cut anywhere.
///
/// Serializes as an object with these fields, by these names (the Python module's
/// `StreamAssembler.open_calls()` returns it so).
///
/// ```
/// use serde_json::json;
/// use tool_input::calls::CallOptions;
/// use tool_input::stream::StreamAssembler;
///
/// let mut stream = StreamAssembler::new(CallOptions::new());
/// stream.push_event(&json!({"type": "content_block_start", "index": 0,
///     "content_block": {"type": "tool_use", "id": "toolu_1", "name": "write_file", "input": {}}}));
/// stream.push_event(&json!({"type": "content_block_delta", "index": 0, "delta":
///     {"type": "input_json_delta", "partial_json": "{\"path\": \"notes.md\", \"content\": \"# Ti"}}));
/// let open = stream.open_calls();
/// assert_eq!((open[0].position, open[0].id), (0, Some("toolu_1")));
/// assert_eq!(open[0].arguments_partial, Some(&json!({"path": "notes.md", "content": "# Ti"})));
/// assert_eq!(serde_json::to_value(open[0]).unwrap()["bytes"], 37);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[non_exhaustive]
pub struct OpenCall<'a> {
    /// The call's position among the call attempts of the stream, counted from 0 in the
    /// order they started.
    pub position: usize,
    /// The id, once it arrived.
    pub id: Option<&'a str>,
    /// The name, once it arrived.
    pub name: Option<&'a str>,
    /// The argument text so far, for formats that stream text.
    pub arguments_text: Option<&'a str>,
    /// The arguments so far, for formats that stream values (Gemini's `partialArgs`).
    pub arguments_value: Option<&'a Value>,
    /// The arguments read so far as a value, for display: for text, what the incremental
    /// parser has read of it (see
    /// [`IncrementalParser::partial`](crate::parse::IncrementalParser::partial): complete
    /// members, the string being read as far as it arrived, open arrays and objects shown
    /// closed); for formats that stream values, the value so far. For text it is built on
    /// the first [`open_calls`](StreamAssembler::open_calls) after new arguments arrived,
    /// from the one built before (brought up to date with what arrived since, not copied
    /// again), and kept until more arrive: asked after every fragment, it stays linear in
    /// the arguments' bytes. [`with_events`](StreamAssembler::with_events) gives each change
    /// as it comes instead.
    pub arguments_partial: Option<&'a Value>,
    /// How many bytes of arguments have arrived.
    pub bytes: usize,
}

/// An event of a streamed call's arguments, from [`StreamAssembler::take_events`].
///
/// ```
/// use serde_json::json;
/// use tool_input::calls::CallOptions;
/// use tool_input::parse::StreamEvent;
/// use tool_input::stream::StreamAssembler;
///
/// let mut stream = StreamAssembler::new(CallOptions::new()).with_events();
/// stream.push_event(&json!({"type": "content_block_start", "index": 0,
///     "content_block": {"type": "tool_use", "id": "toolu_1", "name": "set_volume", "input": {}}}));
/// stream.push_event(&json!({"type": "content_block_delta", "index": 0,
///     "delta": {"type": "input_json_delta", "partial_json": "{\"level\": 7, "}}));
/// let events = stream.take_events();
/// assert_eq!(events[0].position, 0);
/// assert_eq!(events[0].id.as_deref(), Some("toolu_1"));
/// assert_eq!(events[0].name.as_deref(), Some("set_volume"));
/// assert!(matches!(&events[0].event, StreamEvent::ValueComplete { path, value } if path == "/level" && **value == json!(7)));
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ArgumentEvent {
    /// The call's position among the call attempts of the stream, as
    /// [`OpenCall::position`].
    pub position: usize,
    /// The call's id, if it had arrived.
    pub id: Option<String>,
    /// The tool's name, if it had arrived.
    pub name: Option<String>,
    /// What happened to its arguments.
    pub event: StreamEvent<'static>,
}

/// The non-negative integer of a JSON field.
pub(crate) fn index_of(value: Option<&Value>) -> Option<u64> {
    value.and_then(Value::as_u64)
}
