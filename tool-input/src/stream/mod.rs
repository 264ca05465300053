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
//! | [`Format::Responses`] | `response.output_item.added` (a `function_call`) | `response.function_call_arguments.delta` | `.function_call_arguments.done` or `.output_item.done` (their arguments win), or `response.completed` |
//! | [`Format::Anthropic`] | `content_block_start` (`tool_use`), or a whole `tool_use` in `message_start` | `input_json_delta` | `content_block_stop`, or `message_stop` |
//! | [`Format::Gemini`] | a `functionCall` with a name | whole `args`, or `partialArgs` (path and value) while `willContinue` | at once for a whole call; a `functionCall` without `willContinue`, a new call, or `finishReason: STOP` |
//! | [`Format::Ollama`] | a `tool_calls` entry | whole, an object | at once |
//! | [`Format::Text`] | a marker (`<tool_call>`, `[TOOL_CALLS]`, …) in the text | the text after it | its closing marker, or the end of the stream |
//!
//! **Partial arguments, as they arrive.** The argument text of each call is read as it
//! arrives by an [`IncrementalParser`], once, in time linear in its bytes:
//! [`open_calls`](StreamAssembler::open_calls) shows the arguments so far as a value
//! ([`OpenCall::arguments_partial`]: complete members, the string being read as far as it
//! arrived), and [`with_events`](StreamAssembler::with_events) collects an event when a
//! member's value is complete and when a string grows, so a tool can start on a long
//! argument, such as a file's content, before it ends. Neither makes a call final.
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
//! with the same reason does (its last call is the one cut). Every event that cannot be read
//! is a [`CallErrorKind::Malformed`] error naming it, never skipped in silence.
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

mod anthropic;
mod gemini;
mod ollama;
mod openai;
mod responses;
mod sse;
#[cfg(test)]
mod tests;

use std::mem;

use serde::Serialize;
use serde_json::{json, Value};

pub(crate) use crate::calls::describe;
use crate::calls::{
    arguments_parse_options, push_unwrapping, settle_cut, text, CallError, CallErrorKind, CallOptions,
    CallParts, Calls, Collected, Collector, Format, OriginalArguments, Read, ToolCall,
};
use crate::error::{ErrorCode, Rejection, RejectionKind};
use crate::parse::{IncrementalParser, ParseOptions, StreamEvent};

/// Default for [`StreamAssembler::max_call_bytes`]: 8 MiB of arguments per streamed call.
pub const DEFAULT_MAX_CALL_BYTES: usize = 8 * 1024 * 1024;

/// Default for [`StreamAssembler::max_stream_bytes`]: 64 MiB of body per stream.
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
    pub fn new(options: CallOptions) -> Self {
        let format = options.configured_format();
        let backend = match format {
            Format::Auto => Backend::Undetected,
            format => Backend::for_format(format),
        };
        StreamAssembler { state: Assembly::new(options, format), backend, sse: sse::Decoder::default() }
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
    pub fn max_stream_bytes(mut self, bytes: usize) -> Self {
        self.state.max_stream_bytes = bytes;
        self
    }

    /// Collect the [`StreamEvent`]s of every call's arguments as they arrive, to take with
    /// [`take_events`](StreamAssembler::take_events): when a member's value is complete, and
    /// when a string value grows, so a tool can start on a long argument (a file's content)
    /// before it ends. Off by default: the events hold copies of the values, which pile up
    /// unless taken.
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
    pub fn take_events(&mut self) -> Vec<ArgumentEvent> {
        self.state.events.as_mut().map(mem::take).unwrap_or_default()
    }

    /// The format being read: the one asked for, the one detected, or [`Format::Auto`]
    /// while no event of a known shape has arrived.
    pub fn format(&self) -> Format {
        self.state.format
    }

    /// Feed one decoded event: a chunk of Chat Completions, an event of the Responses or
    /// Anthropic API, a Gemini `GenerateContentResponse` (or an array of them), an Ollama
    /// chunk, or a JSON string (a text chunk, for [`Format::Text`]).
    ///
    /// The event counts toward [`max_stream_bytes`](StreamAssembler::max_stream_bytes) by the
    /// length of its compact JSON.
    pub fn push_event(&mut self, event: &Value) {
        if self.state.receive(json_len(event)) {
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
        let StreamAssembler { state, backend, sse } = self;
        sse.line(line, limit, &mut |frame| take_frame(state, backend, frame));
    }

    /// Feed raw bytes of the body as they arrive from the network, split anywhere (inside a
    /// line, inside a UTF-8 character); lines are read as by
    /// [`push_sse_line`](StreamAssembler::push_sse_line).
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
    pub fn push_sse_bytes(&mut self, bytes: &[u8]) {
        if !self.state.receive(bytes.len()) {
            return;
        }
        let limit = self.state.options.get_max_body_bytes();
        // Each event is read as soon as its frame is complete: nothing but the line and the
        // event being read is held.
        let StreamAssembler { state, backend, sse } = self;
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
    pub fn cut_off(&mut self, reason: &str) {
        let reason: String = reason.chars().take(120).collect();
        self.state.stopped_early(&reason);
        self.state.end_open(|_| End::Cut(reason.clone()));
    }

    /// The stream's end marker (`data: [DONE]`) arrived: a Chat Completions stream without
    /// a `finish_reason` ends normally rather than cut off.
    pub fn push_done(&mut self) {
        self.state.done = true;
    }

    /// The calls that are final so far, in order. [`finish`](StreamAssembler::finish)
    /// returns them again with the rest, unless the response turns out to be cut off (a
    /// length stop, no end marker, an error): then they are
    /// [`CallErrorKind::Incomplete`] errors (see
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
        &self.state.collected.calls
    }

    /// The call attempts that failed so far, in order.
    pub fn errors(&self) -> &[CallError] {
        &self.state.collected.errors
    }

    /// The calls still streaming: what has arrived of each, for display. Never run these.
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
    pub fn finish(mut self) -> Calls {
        if !self.state.over_limit {
            let limit = self.state.options.get_max_body_bytes();
            let StreamAssembler { state, backend, sse } = &mut self;
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
    if let Backend::Undetected = backend {
        match detect(event) {
            Some(format) => {
                state.format = format;
                *backend = Backend::for_format(format);
            }
            None => return,
        }
    }
    match (backend, event) {
        (Backend::Text, Value::String(chunk)) => state.push_text(chunk),
        (Backend::Text, _) => {}
        // Gemini's REST stream without SSE is one JSON array of responses.
        (Backend::Gemini(gemini), Value::Array(events)) => {
            for event in events {
                gemini.event(state, event);
            }
        }
        (Backend::OpenAi(chat), event) => chat.event(state, event),
        (Backend::Responses(responses), event) => responses.event(state, event),
        (Backend::Anthropic(anthropic), event) => anthropic.event(state, event),
        (Backend::Gemini(gemini), event) => gemini.event(state, event),
        (Backend::Ollama(ollama), event) => ollama.event(state, event),
        (Backend::Undetected, _) => {}
    }
}

/// Act on one frame of the body as soon as it is complete.
fn take_frame(state: &mut Assembly, backend: &mut Backend, frame: sse::Frame) {
    if state.over_limit {
        return;
    }
    match frame {
        sse::Frame::Event(event) => feed(state, backend, &event),
        sse::Frame::Done => state.done = true,
        sse::Frame::Bad(bad) => state.damage(&bad.to_string()),
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
    /// parser has read of it (see [`IncrementalParser::partial`]: complete members, the
    /// string being read as far as it arrived, open arrays and objects shown closed); for
    /// formats that stream values, the value so far. Taking it costs nothing.
    pub arguments_partial: Option<&'a Value>,
    /// How many bytes of arguments have arrived.
    pub bytes: usize,
}

/// An event of a streamed call's arguments, from [`StreamAssembler::take_events`].
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

/// The arguments of a call as they accumulate.
#[derive(Debug, Default)]
pub(crate) enum Args {
    #[default]
    Absent,
    /// Text fragments, appended in order and read as they arrive by an incremental parser
    /// (which keeps the text): linear in the bytes.
    Text(Box<IncrementalParser>),
    /// A value sent whole or built by path (Gemini).
    Value(Value),
}

/// How a call ended.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum End {
    /// Its block, or the stream, said it is complete.
    Complete,
    /// It was cut off; the reason says how.
    Cut(String),
    /// It sent more than the limit.
    TooLarge,
    /// An event of the stream (described) could not be read while it was streaming.
    Damaged(String),
    /// The stream passed its size limit while it was streaming.
    StreamTooLarge,
}

/// One call of the stream.
#[derive(Debug, Default)]
pub(crate) struct Call {
    pub id: Option<String>,
    pub name: Option<String>,
    pub args: Args,
    /// What the arguments are when no fragment arrives (Anthropic's `input`).
    pub initial: Option<Value>,
    /// Bytes of arguments that arrived.
    pub bytes: usize,
    pub raw: Value,
    /// When it ended; `None` while open.
    pub end: Option<End>,
    /// Sequence numbers of its start and of the last fragment it received.
    pub started: u64,
    pub last: u64,
    /// The choice (OpenAI) or candidate (Gemini) it belongs to.
    pub choice: usize,
}

/// The state every accumulator shares: the calls, the collected results, the content.
#[derive(Debug)]
pub(crate) struct Assembly {
    pub options: CallOptions,
    pub format: Format,
    pub max_call_bytes: usize,
    pub max_stream_bytes: usize,
    /// Bytes of body received.
    received: usize,
    /// The stream passed `max_stream_bytes`: nothing more is read.
    pub over_limit: bool,
    /// The choice the calls opened now belong to.
    pub choice: usize,
    pub calls: Vec<Call>,
    /// Calls before this position were read into `collected`.
    flushed: usize,
    pub collected: Collected,
    seq: u64,
    /// Bytes of arguments received in the whole stream (a closing event that repeats a
    /// call's arguments replaces its count).
    buffered: usize,
    /// A call was dropped because the stream had more than `max_calls`.
    overflowed: bool,
    content: Option<String>,
    content_part: Option<u64>,
    /// The text of a [`Format::Text`] stream.
    text: String,
    text_too_large: bool,
    /// `[DONE]` arrived.
    pub done: bool,
    /// Why the stream stopped early (length, an error, cut off), if it did: calls written
    /// into its text are then final only when their closing marker arrived, and no call of
    /// it runs by default.
    stopped_early: Option<String>,
    /// The stop was one the response's own data gives (a length stop), which a whole body
    /// shows too: its last call is then the one the stop cut, as in a body.
    stopped_by_data: bool,
    /// The events of the arguments not taken yet, when they are collected.
    events: Option<Vec<ArgumentEvent>>,
}

impl Assembly {
    fn new(options: CallOptions, format: Format) -> Self {
        let choice = options.get_choice();
        Assembly {
            options,
            format,
            max_call_bytes: DEFAULT_MAX_CALL_BYTES,
            max_stream_bytes: DEFAULT_MAX_STREAM_BYTES,
            received: 0,
            over_limit: false,
            choice,
            calls: Vec::new(),
            flushed: 0,
            collected: Collected::default(),
            seq: 0,
            buffered: 0,
            overflowed: false,
            content: None,
            content_part: None,
            text: String::new(),
            text_too_large: false,
            done: false,
            stopped_early: None,
            stopped_by_data: false,
            events: None,
        }
    }

    /// Start a call, or `None` when the stream already has as many as are taken.
    pub fn open(&mut self, raw: Value) -> Option<usize> {
        if self.calls.len() >= self.options.get_max_calls() {
            self.overflowed = true;
            return None;
        }
        self.seq += 1;
        let choice = self.choice;
        self.calls.push(Call { raw, started: self.seq, last: self.seq, choice, ..Call::default() });
        Some(self.calls.len() - 1)
    }

    /// Count `bytes` more of body; false (and the stream ends as too large) past the limit.
    fn receive(&mut self, bytes: usize) -> bool {
        if self.over_limit {
            return false;
        }
        self.received = self.received.saturating_add(bytes);
        if self.received <= self.max_stream_bytes {
            return true;
        }
        self.over_limit = true;
        let reason = format!("the stream passed the limit of {} bytes", self.max_stream_bytes);
        self.stopped_early(&reason);
        let any_open = self.calls.iter().any(|call| call.end.is_none());
        self.end_open(|_| End::StreamTooLarge);
        if !any_open {
            let message = format!(
                "The stream passed the limit of {} bytes; nothing after it was read and no tool call of it was run.",
                self.max_stream_bytes
            );
            let mut out = Collector::resume(&self.options, mem::take(&mut self.collected));
            out.push_failed(CallParts::new(self.format), CallErrorKind::StreamTooLarge, message);
            self.collected = out.suspend();
        }
        false
    }

    /// The open call at `slot`, if it is one.
    fn open_call(&mut self, slot: usize) -> Option<&mut Call> {
        self.calls.get_mut(slot).filter(|call| call.end.is_none())
    }

    /// True once any argument byte arrived for the call.
    pub fn has_arguments(&self, slot: usize) -> bool {
        self.calls.get(slot).is_some_and(|call| call.bytes > 0)
    }

    /// The latest start among the calls of `choice`.
    pub fn latest_start_of(&self, choice: usize) -> u64 {
        self.calls.iter().rev().find(|call| call.choice == choice).map_or(0, |call| call.started)
    }

    fn touch(&mut self, slot: usize) {
        self.seq += 1;
        let seq = self.seq;
        if let Some(call) = self.calls.get_mut(slot) {
            call.last = seq;
        }
    }

    /// Set the id, unless one arrived already (a later, different id does not replace it).
    pub fn set_id(&mut self, slot: usize, id: &str) {
        if id.is_empty() {
            return;
        }
        if let Some(call) = self.open_call(slot) {
            if call.id.is_none() {
                call.id = Some(id.to_owned());
            }
        }
    }

    /// A name, or a fragment of one. A fragment equal to the whole name so far is the name
    /// repeated (some backends send it on every delta), and names come before arguments, so
    /// a name after the arguments began is not appended.
    pub fn name_fragment(&mut self, slot: usize, fragment: &str) {
        if fragment.is_empty() {
            return;
        }
        let Some(call) = self.open_call(slot) else { return };
        match &mut call.name {
            None => call.name = Some(fragment.chars().take(MAX_NAME_BYTES).collect()),
            Some(name) => {
                if name == fragment || call.bytes > 0 || name.len() + fragment.len() > MAX_NAME_BYTES {
                    return;
                }
                name.push_str(fragment);
            }
        }
        self.touch(slot);
    }

    /// Append a fragment of argument text.
    pub fn append(&mut self, slot: usize, fragment: &str) {
        if fragment.is_empty() {
            return;
        }
        if !self.grow(slot, fragment.len()) {
            return;
        }
        let options = self.parse_options();
        let Some(call) = self.calls.get_mut(slot).filter(|call| call.end.is_none()) else { return };
        if let Args::Absent = call.args {
            call.args = Args::Text(Box::new(IncrementalParser::new(options)));
        }
        let mixed = match &mut call.args {
            Args::Text(parser) => {
                // A parse error is not the stream's business here: the text is kept, and the
                // call is read from it when it ends, by the same rules as a whole body.
                let _ = match self.events.as_mut() {
                    Some(events) => parser.feed_with(fragment, |event| {
                        events.push(ArgumentEvent {
                            position: slot,
                            id: call.id.clone(),
                            name: call.name.clone(),
                            event: event.into_owned(),
                        })
                    }),
                    None => parser.feed(fragment),
                };
                false
            }
            Args::Absent => false,
            // Text after a whole value: the two cannot be one argument object.
            Args::Value(_) => !fragment.trim().is_empty(),
        };
        if mixed {
            let event = "an event of the stream sent argument text after the call's whole arguments";
            self.end(slot, End::Damaged(event.to_owned()));
        }
    }

    /// Replace the arguments with the text a closing event carries (it wins over the
    /// fragments, which it repeats).
    pub fn replace_text(&mut self, slot: usize, text: &str) {
        let Some(call) = self.open_call(slot) else { return };
        if let Args::Text(parser) = &call.args {
            // It usually repeats the fragments: then only what is new, if anything, is read.
            if let Some(rest) = text.strip_prefix(parser.text()) {
                self.append(slot, rest);
                return;
            }
        }
        let restart = matches!(call.args, Args::Text(_));
        let before = call.bytes;
        call.bytes = 0;
        call.args = Args::Absent;
        self.buffered = self.buffered.saturating_sub(before);
        if let (true, Some(events), Some(call)) = (restart, self.events.as_mut(), self.calls.get(slot)) {
            // What was reported of the fragments is replaced.
            events.push(ArgumentEvent {
                position: slot,
                id: call.id.clone(),
                name: call.name.clone(),
                event: StreamEvent::Restart,
            });
        }
        self.append(slot, text);
    }

    /// How the incremental parser of a call reads its text: as a call's arguments are read
    /// ([`arguments_parse_options`]), so its result is the call's arguments, with no size
    /// limit of its own (`max_call_bytes` and the body limit are checked before each
    /// fragment is appended; the arguments' own limit when the call is read).
    fn parse_options(&self) -> ParseOptions {
        ParseOptions { max_bytes: usize::MAX, ..arguments_parse_options(self.options.get_limits()) }
    }

    /// Set the arguments to a whole value.
    pub fn set_value(&mut self, slot: usize, value: Value) {
        let Some(call) = self.open_call(slot) else { return };
        call.args = Args::Value(value);
        self.touch(slot);
    }

    /// The value being built for a call (Gemini's `partialArgs`), made an object if it is
    /// not a value yet.
    pub fn value_mut(&mut self, slot: usize) -> Option<&mut Value> {
        let call = self.open_call(slot)?;
        if !matches!(call.args, Args::Value(_)) {
            call.args = Args::Value(Value::Object(Default::default()));
        }
        match &mut call.args {
            Args::Value(value) => Some(value),
            _ => None,
        }
    }

    /// Count `bytes` more for the call: false (and the call ends as too large) past the
    /// limit of one call or of the whole stream.
    pub fn grow(&mut self, slot: usize, bytes: usize) -> bool {
        let total_limit = self.options.get_max_body_bytes();
        let max_call = self.max_call_bytes;
        let Some(call) = self.open_call(slot) else { return false };
        call.bytes = call.bytes.saturating_add(bytes);
        let over = call.bytes > max_call;
        self.buffered = self.buffered.saturating_add(bytes);
        if over || self.buffered > total_limit {
            self.end(slot, End::TooLarge);
            return false;
        }
        self.touch(slot);
        true
    }

    /// Set what the arguments are if no fragment arrives.
    pub fn set_initial(&mut self, slot: usize, value: Value) {
        if let Some(call) = self.open_call(slot) {
            call.initial = Some(value);
        }
    }

    /// Set the record of the call as received.
    pub fn set_raw(&mut self, slot: usize, raw: Value) {
        if let Some(call) = self.open_call(slot) {
            call.raw = raw;
        }
    }

    /// Set one field of the record of the call as received, if it is an object.
    pub fn set_raw_field(&mut self, slot: usize, key: &str, value: Value) {
        if let Some(Value::Object(map)) = self.open_call(slot).map(|call| &mut call.raw) {
            map.insert(key.to_owned(), value);
        }
    }

    /// End a call (the first end decides) and read every call whose turn has come.
    pub fn end(&mut self, slot: usize, end: End) {
        let Some(call) = self.open_call(slot) else { return };
        if matches!(end, End::TooLarge | End::Damaged(_) | End::StreamTooLarge) {
            // Nothing of it will be read: free the buffer now.
            call.args = Args::Absent;
        }
        call.end = Some(end);
        self.flush();
    }

    /// End every open call as `end` says.
    pub fn end_open(&mut self, mut end: impl FnMut(&Call) -> End) {
        // Calls before `flushed` ended already: repeated terminal events cost nothing.
        for slot in self.flushed..self.calls.len() {
            if let Some(call) = self.calls.get(slot).filter(|call| call.end.is_none()) {
                let how = end(call);
                self.end(slot, how);
            }
        }
    }

    /// End every open call of `choice` as `end` says.
    pub fn end_open_of(&mut self, choice: usize, mut end: impl FnMut(&Call) -> End) {
        for slot in self.flushed..self.calls.len() {
            if let Some(call) =
                self.calls.get(slot).filter(|call| call.end.is_none() && call.choice == choice)
            {
                let how = end(call);
                self.end(slot, how);
            }
        }
    }

    /// The stream stopped early for `reason` (cut off, an error): none of its calls run by
    /// default, and a call written into text is final only with its closing marker.
    pub fn stopped_early(&mut self, reason: &str) {
        if self.stopped_early.is_none() {
            self.stopped_early = Some(reason.to_owned());
        }
    }

    /// The response's own data says it stopped early for `reason` (a length stop): as
    /// [`stopped_early`](Assembly::stopped_early), and its last call is the one the stop
    /// cut, as a whole body with that reason reads.
    pub fn stopped_by_response(&mut self, reason: &str) {
        if self.stopped_early.is_none() {
            self.stopped_early = Some(reason.to_owned());
            self.stopped_by_data = true;
        }
    }

    /// An event (described) could not be read: every open call may have lost a piece, and
    /// the event may have carried a call of its own, so it is an error itself.
    pub fn damage(&mut self, event: &str) {
        self.end_open(|_| End::Damaged(event.to_owned()));
        let message = format!(
            "The response could not be read whole: {event}, so a tool call it carried may be lost; nothing of it was run. Call the tools again if a call is missing."
        );
        let mut out = Collector::resume(&self.options, mem::take(&mut self.collected));
        out.push_failed(CallParts::new(self.format), CallErrorKind::Malformed, message);
        self.collected = out.suspend();
    }

    /// Read the ended calls, in the order they started, up to the first open one: so
    /// positions follow the order of the stream, as in a whole body.
    fn flush(&mut self) {
        while let Some(call) = self.calls.get_mut(self.flushed) {
            let Some(end) = call.end.clone() else { break };
            let args = mem::take(&mut call.args);
            let initial = call.initial.take();
            let raw = mem::take(&mut call.raw);
            let (id, name, bytes) = (call.id.clone(), call.name.clone(), call.bytes);
            self.flushed += 1;
            let (arguments, read) = match (args, initial) {
                (Args::Absent, Some(initial)) => (OriginalArguments::Value(initial), None),
                (Args::Absent, None) => (OriginalArguments::Absent, None),
                // The parser has read the text as it arrived: its result is the call's
                // arguments, and nothing parses the text again.
                (Args::Text(parser), _) if end == End::Complete => {
                    let text = parser.text().to_owned();
                    (OriginalArguments::Text(text), Some(parser.finish()))
                }
                (Args::Text(parser), _) => (OriginalArguments::Text(parser.into_text()), None),
                (Args::Value(value), _) => (OriginalArguments::Value(value), None),
            };
            let raw = if raw.is_null() { chat_raw(id.as_deref(), name.as_deref(), &arguments) } else { raw };
            let parts = CallParts { id, name, arguments, format: self.format, raw, index: 0 };
            let mut out = Collector::resume(&self.options, mem::take(&mut self.collected));
            out.set_choice(call.choice);
            read_call(&mut out, parts, read, end, bytes, (self.max_call_bytes, self.max_stream_bytes));
            self.collected = out.suspend();
        }
    }

    /// Add assistant text to the content; `part` tells blocks apart, joined by `separator`
    /// as the whole body's reader joins them.
    pub fn content(&mut self, part: u64, text: &str, separator: &str) {
        let limit = self.options.get_max_body_bytes();
        let content = self.content.get_or_insert_with(String::new);
        if content.len() + text.len() + separator.len() > limit {
            return;
        }
        if !content.is_empty() && self.content_part.is_some_and(|last| last != part) {
            content.push_str(separator);
        }
        content.push_str(text);
        self.content_part = Some(part);
    }

    fn push_text(&mut self, chunk: &str) {
        if self.text_too_large {
            return;
        }
        if self.text.len() + chunk.len() > self.options.get_max_body_bytes() {
            self.text_too_large = true;
            self.text = String::new();
            return;
        }
        self.text.push_str(chunk);
    }

    /// Read what is left and return every call.
    fn finish(mut self) -> Calls {
        // Whatever an accumulator left open was cut off.
        if self.calls.iter().any(|call| call.end.is_none()) {
            self.stopped_early("the stream ended before the call did");
            self.end_open(|_| End::Cut("the stream ended before the call did".to_owned()));
        }
        let mut out = Collector::resume(&self.options, mem::take(&mut self.collected));
        if self.overflowed {
            out.overflow(self.format);
        }
        let before = out.attempts();
        // The text calls are read from, kept to tell a call cut off at its end.
        let mut source = None;
        let content = if self.format == Format::Text {
            if self.text_too_large {
                let message = format!(
                    "The text is more than the limit of {} bytes; no tool call was read from it.",
                    self.options.get_max_body_bytes()
                );
                out.push_failed(
                    CallParts::new(Format::Text),
                    CallErrorKind::Arguments(RejectionKind::TooLarge),
                    message,
                );
                None
            } else {
                let left = text::extract(&self.text, text::Mode::Text, &mut out);
                source = Some(mem::take(&mut self.text));
                Some(left)
            }
        } else {
            match self.content.take() {
                // Backends served without a tool parser put the calls into the content.
                Some(content)
                    if self.options.scans_content() && out.attempts() == 0 && !content.is_empty() =>
                {
                    let left = text::extract(&content, text::Mode::Content, &mut out);
                    source = Some(content);
                    Some(left)
                }
                other => other,
            }
        };
        let read_from_text = out.attempts() > before;
        let mut calls = out.finish(self.format, content, None);
        // A cut response runs nothing by default, as a whole body with its reason; a call
        // read from its text is cut when its closing marker had not arrived.
        if let Some(reason) = &self.stopped_early {
            let source = source.as_deref().filter(|_| read_from_text);
            settle_cut(&mut calls, reason, self.stopped_by_data, &self.options, source);
        }
        calls
    }
}

/// Read one ended call into the collector; `read` is what the incremental parser gave for
/// its text, and `limits` are the call's and the stream's.
fn read_call(
    out: &mut Collector<'_>,
    parts: CallParts,
    read: Option<Read>,
    end: End,
    bytes: usize,
    limits: (usize, usize),
) {
    let (max_call_bytes, max_stream_bytes) = limits;
    let name = parts.name.as_deref().map(str::trim).filter(|name| !name.is_empty()).map(str::to_owned);
    let rejection = |kind: RejectionKind, code: ErrorCode, detail: String| {
        let rejection = Rejection::whole(kind, code, detail);
        match &name {
            Some(name) => rejection.with_tool(name.clone()),
            None => rejection,
        }
    };
    match end {
        End::Complete => match parts.format {
            Format::OpenAi | Format::Responses => push_unwrapping(parts, read, out),
            _ => out.push_read(parts, read),
        },
        End::Cut(reason) => {
            let noun = if bytes == 1 { "byte" } else { "bytes" };
            let detail = format!(
                "the response stopped ({reason}) after {bytes} {noun} of its arguments had arrived, before the call was complete"
            );
            out.push_rejected(parts, rejection(RejectionKind::Truncated, ErrorCode::Truncated, detail));
        }
        End::TooLarge => {
            let detail = format!(
                "the streamed arguments passed the limit of {max_call_bytes} bytes ({bytes} bytes arrived)"
            );
            out.push_rejected(parts, rejection(RejectionKind::TooLarge, ErrorCode::TooLarge, detail));
        }
        End::Damaged(event) => {
            let message = format!(
                "The tool call{} could not be read: {event} while its arguments were arriving, so a piece may be missing; nothing was run. Call the tool again.",
                name.as_deref().map(|name| format!(" to `{name}`")).unwrap_or_default()
            );
            out.push_failed(parts, CallErrorKind::Malformed, message);
        }
        End::StreamTooLarge => {
            let message = format!(
                "The tool call{} could not be read: the stream passed the limit of {max_stream_bytes} bytes while its arguments were arriving ({bytes} bytes had arrived); nothing after the limit was read and nothing was run.",
                name.as_deref().map(|name| format!(" to `{name}`")).unwrap_or_default()
            );
            out.push_failed(parts, CallErrorKind::StreamTooLarge, message);
        }
    }
}

/// The record of a Chat Completions call as it would appear in a whole body.
fn chat_raw(id: Option<&str>, name: Option<&str>, arguments: &OriginalArguments) -> Value {
    json!({
        "id": id,
        "type": "function",
        "function": {"name": name, "arguments": arguments.to_value()},
    })
}

/// The length of a value's compact JSON, counted as it is written, not kept.
fn json_len(value: &Value) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0 = self.0.saturating_add(bytes.len());
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    // Writing a `Value` fails only when the writer does, which this one never does.
    let _ = serde_json::to_writer(&mut count, value);
    count.0
}

/// The non-negative integer of a JSON field.
pub(crate) fn index_of(value: Option<&Value>) -> Option<u64> {
    value.and_then(Value::as_u64)
}
