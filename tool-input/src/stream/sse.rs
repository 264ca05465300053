//! Server-sent events framing, and one JSON event per line.
//!
//! An SSE event is the `data:` lines before a blank line, joined by newlines; `event:`
//! names it, `:` starts a comment, `id:` and `retry:` are not needed here. A line that
//! starts a JSON value is one event on its own (NDJSON, as Ollama and recordings write
//! them). `[DONE]`, as data or on its own line, is OpenAI's end marker.

use serde_json::Value;

/// What a line (or the end of an event) gave.
#[derive(Debug, PartialEq)]
pub(super) enum Frame {
    /// A decoded event.
    Event(Value),
    /// `[DONE]`.
    Done,
    /// Something that should have been an event and could not be read.
    Bad(BadEvent),
}

/// An event that could not be read: which one, for the error that names it.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct BadEvent {
    /// Its number among the events of the body, counted from 1.
    pub number: usize,
    /// Its SSE `event:` name, if it had one.
    pub name: Option<String>,
    /// What was wrong with it.
    pub why: &'static str,
}

impl std::fmt::Display for BadEvent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "event {}", self.number)?;
        if let Some(name) = &self.name {
            write!(f, " (`{name}`)")?;
        }
        write!(f, " of the stream {}", self.why)
    }
}

/// The Anthropic and Responses event names that may stand in for a missing `type`.
fn is_event_type(name: &str) -> bool {
    name.starts_with("response.") || super::anthropic::EVENTS.contains(&name) || name == "error"
}

/// Reads the body into frames, handing each to a sink as soon as it is complete: nothing
/// but the line and the event being read is held.
#[derive(Debug, Default)]
pub(super) struct Decoder {
    /// The `data:` lines of the event being read.
    data: String,
    /// How many `data:` lines it has.
    lines: usize,
    /// Its `event:` name.
    event: Option<String>,
    /// Its data passed the size limit and was dropped.
    overflow: bool,
    /// Bytes of a line not yet ended (from [`Decoder::bytes`]).
    partial: Vec<u8>,
    partial_overflow: bool,
    /// The last byte read was a CR: a LF right after it ends no second line.
    after_cr: bool,
    /// A line was read (a byte-order mark is skipped before the first only).
    started: bool,
    /// Events handed out so far (good or bad), to number them.
    events: usize,
}

impl Decoder {
    /// Read one line (its line break, if any, removed). A CR, LF or CRLF inside it ends a
    /// line too, as the SSE specification reads them.
    pub fn line(&mut self, line: &str, limit: usize, sink: &mut impl FnMut(Frame)) {
        let line = line.strip_suffix('\n').unwrap_or(line);
        let line = line.strip_suffix('\r').unwrap_or(line);
        let mut rest = line;
        while let Some(at) = rest.find(['\r', '\n']) {
            self.one_line(&rest[..at], limit, sink);
            let after = if rest[at..].starts_with("\r\n") { at + 2 } else { at + 1 };
            rest = &rest[after..];
        }
        self.one_line(rest, limit, sink);
    }

    /// Read one line that holds no line break.
    fn one_line(&mut self, line: &str, limit: usize, sink: &mut impl FnMut(Frame)) {
        let line = if self.started {
            line
        } else {
            self.started = true;
            line.strip_prefix('\u{feff}').unwrap_or(line)
        };
        let trimmed = line.trim();
        if trimmed.is_empty() {
            self.dispatch(sink);
            return;
        }
        if line.starts_with(':') {
            return;
        }
        if let Some(value) = field(line, "data") {
            if self.overflow || self.data.len() + value.len() + 1 > limit {
                self.overflow = true;
                self.data = String::new();
                return;
            }
            if self.lines > 0 {
                self.data.push('\n');
            }
            self.data.push_str(value);
            self.lines += 1;
            return;
        }
        if let Some(value) = field(line, "event") {
            self.event = Some(value.trim().chars().take(64).collect());
            return;
        }
        if field(line, "id").is_some() || field(line, "retry").is_some() {
            return;
        }
        // Not SSE: one event per line.
        self.dispatch(sink);
        if trimmed == "[DONE]" {
            self.emit(Frame::Done, sink);
        } else if trimmed.starts_with(['{', '[', '"']) {
            match decode(trimmed) {
                Ok(event) => self.emit(Frame::Event(event), sink),
                Err(why) => self.bad(None, why, sink),
            }
        } else {
            self.bad(None, "is neither SSE nor JSON", sink);
        }
    }

    /// Read raw bytes, split anywhere; lines end at CR, LF or CRLF (a CRLF may be split
    /// between two calls).
    pub fn bytes(&mut self, bytes: &[u8], limit: usize, sink: &mut impl FnMut(Frame)) {
        let mut rest = bytes;
        if self.after_cr && !rest.is_empty() {
            self.after_cr = false;
            if rest[0] == b'\n' {
                rest = &rest[1..];
            }
        }
        while let Some(end) = rest.iter().position(|&b| b == b'\n' || b == b'\r') {
            let (head, tail) = rest.split_at(end);
            let crlf = tail.starts_with(b"\r\n");
            self.after_cr = tail[0] == b'\r' && tail.len() == 1;
            rest = &tail[if crlf { 2 } else { 1 }..];
            if self.partial.is_empty() {
                self.complete_line(head, limit, sink);
            } else {
                self.extend_partial(head, limit);
                let line = std::mem::take(&mut self.partial);
                self.complete_line(&line, limit, sink);
            }
        }
        self.extend_partial(rest, limit);
    }

    fn extend_partial(&mut self, bytes: &[u8], limit: usize) {
        if self.partial_overflow || self.partial.len() + bytes.len() > limit {
            self.partial_overflow = true;
            self.partial = Vec::new();
        } else {
            self.partial.extend_from_slice(bytes);
        }
    }

    fn complete_line(&mut self, line: &[u8], limit: usize, sink: &mut impl FnMut(Frame)) {
        if std::mem::take(&mut self.partial_overflow) {
            let name = self.event.take();
            self.reset();
            self.bad(name, "has a line longer than the limit", sink);
            return;
        }
        match std::str::from_utf8(line) {
            Ok(line) => self.one_line(line, limit, sink),
            Err(_) => {
                let name = self.event.take();
                self.reset();
                self.bad(name, "is not UTF-8", sink);
            }
        }
    }

    /// The body ended: read the line and the event not yet ended.
    pub fn finish(&mut self, limit: usize, sink: &mut impl FnMut(Frame)) {
        if !self.partial.is_empty() || self.partial_overflow {
            let line = std::mem::take(&mut self.partial);
            self.complete_line(&line, limit, sink);
        }
        self.dispatch(sink);
    }

    fn reset(&mut self) {
        self.data = String::new();
        self.lines = 0;
        self.event = None;
        self.overflow = false;
    }

    fn emit(&mut self, frame: Frame, sink: &mut impl FnMut(Frame)) {
        self.events += 1;
        sink(frame);
    }

    fn bad(&mut self, name: Option<String>, why: &'static str, sink: &mut impl FnMut(Frame)) {
        let number = self.events + 1;
        self.emit(Frame::Bad(BadEvent { number, name, why }), sink);
    }

    /// The event ends: decode its data.
    fn dispatch(&mut self, sink: &mut impl FnMut(Frame)) {
        let overflow = self.overflow;
        let event = self.event.take();
        let lines = self.lines;
        let data = std::mem::take(&mut self.data);
        self.reset();
        if overflow {
            self.bad(event, "is larger than the limit", sink);
            return;
        }
        if lines == 0 {
            return;
        }
        let trimmed = data.trim();
        if trimmed == "[DONE]" {
            self.emit(Frame::Done, sink);
            return;
        }
        match decode(trimmed) {
            Ok(value) => self.emit(Frame::Event(named(value, event.as_deref())), sink),
            // Recordings often drop the blank lines between events: each line is one.
            Err(NOT_JSON) if lines > 1 => {
                for line in trimmed.lines().map(str::trim).filter(|line| !line.is_empty()) {
                    match line {
                        "[DONE]" => self.emit(Frame::Done, sink),
                        line => match decode(line) {
                            Ok(value) => self.emit(Frame::Event(named(value, event.as_deref())), sink),
                            Err(why) => self.bad(event.clone(), why, sink),
                        },
                    }
                }
            }
            Err(why) => self.bad(event, why, sink),
        }
    }
}

/// Why an event's data is not JSON.
const NOT_JSON: &str = "is not JSON";

/// The JSON of an event's data, or why it cannot be read. A key given twice with different
/// values cannot be read either (`{"name": "list_files", …, "name": "delete_files"}`: which
/// is meant cannot be told), as a whole body's reader refuses it; a parsed value would
/// keep the last one in silence.
fn decode(text: &str) -> Result<Value, &'static str> {
    let (value, may_repeat) = crate::parse::strict_value_noting_repeats(text).map_err(|_| NOT_JSON)?;
    if may_repeat && crate::calls::gives_a_key_twice(text, &value) {
        return Err("gives one key two different values");
    }
    Ok(value)
}

/// The value of `name:` on a line (one leading space removed), if the line is that field.
fn field<'l>(line: &'l str, name: &str) -> Option<&'l str> {
    let rest = line.strip_prefix(name)?;
    if rest.is_empty() {
        return Some("");
    }
    let value = rest.strip_prefix(':')?;
    Some(value.strip_prefix(' ').unwrap_or(value))
}

/// An event whose data has no `type` takes it from the SSE `event:` name.
fn named(mut value: Value, event: Option<&str>) -> Value {
    if let (Value::Object(map), Some(name)) = (&mut value, event) {
        if !map.contains_key("type") && is_event_type(name) {
            map.insert("type".to_owned(), Value::String(name.to_owned()));
        }
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn frames(lines: &[&str]) -> Vec<Frame> {
        let mut decoder = Decoder::default();
        let mut frames = Vec::new();
        for line in lines {
            decoder.line(line, 1 << 20, &mut |frame| frames.push(frame));
        }
        decoder.finish(1 << 20, &mut |frame| frames.push(frame));
        frames
    }

    fn bad(number: usize, name: Option<&str>, why: &'static str) -> Frame {
        Frame::Bad(BadEvent { number, name: name.map(str::to_owned), why })
    }

    fn body_frames(body: &[u8], size: usize) -> Vec<Frame> {
        let mut decoder = Decoder::default();
        let mut frames = Vec::new();
        for piece in body.chunks(size) {
            decoder.bytes(piece, 1 << 20, &mut |frame| frames.push(frame));
        }
        decoder.finish(1 << 20, &mut |frame| frames.push(frame));
        frames
    }

    #[test]
    fn cr_lf_and_crlf_all_end_lines_and_a_bom_is_skipped() {
        let want = [Frame::Event(json!({"a": 1})), Frame::Event(json!({"b": 2})), Frame::Done];
        for body in [
            "\u{feff}data: {\"a\": 1}\r\rdata: {\"b\": 2}\r\rdata: [DONE]\r\r",
            "\u{feff}data: {\"a\": 1}\n\ndata: {\"b\": 2}\n\ndata: [DONE]\n\n",
            "data: {\"a\": 1}\r\n\r\ndata: {\"b\": 2}\r\n\r\ndata: [DONE]\r\n\r\n",
            "data: {\"a\": 1}\r\n\ndata: {\"b\": 2}\r\rdata: [DONE]\n\r\n",
        ] {
            for size in 1..6 {
                assert_eq!(body_frames(body.as_bytes(), size), want, "{body:?} in pieces of {size}");
            }
            // The same body handed over as one "line", or line by line as `str::lines` splits it.
            assert_eq!(frames(&[body]), want, "{body:?}");
            assert_eq!(frames(&body.lines().collect::<Vec<_>>()), want, "{body:?}");
        }
        // A multi-line event split by CRLF stays one event.
        assert_eq!(frames(&["data: {\"a\":\r\ndata: 1}\r\n\r\n"]), [Frame::Event(json!({"a": 1}))]);
    }

    #[test]
    fn bad_events_are_numbered_and_named() {
        let got = frames(&[
            "event: message_start",
            "data: {\"type\": \"message_start\"}",
            "",
            "event: content_block_start",
            "data: {oops",
            "",
            "{\"a\": 1}",
            "junk",
        ]);
        assert_eq!(
            got,
            [
                Frame::Event(json!({"type": "message_start"})),
                bad(2, Some("content_block_start"), "is not JSON"),
                Frame::Event(json!({"a": 1})),
                bad(4, None, "is neither SSE nor JSON"),
            ]
        );
        assert_eq!(
            BadEvent { number: 2, name: Some("content_block_start".to_owned()), why: "is not JSON" }
                .to_string(),
            "event 2 (`content_block_start`) of the stream is not JSON"
        );
    }

    #[test]
    fn sse_events_comments_and_done() {
        let got = frames(&[
            ": keep-alive",
            "event: message_start",
            "data: {\"type\": \"message_start\"}",
            "",
            "data: {\"a\":",
            "data: 1}",
            "",
            "data: [DONE]",
            "",
        ]);
        assert_eq!(
            got,
            [Frame::Event(json!({"type": "message_start"})), Frame::Event(json!({"a": 1})), Frame::Done]
        );
    }

    #[test]
    fn json_lines_and_missing_blank_lines() {
        let got = frames(&["{\"a\": 1}", "[DONE]", "data:{\"b\": 2}", "data: {\"c\": 3}"]);
        assert_eq!(
            got,
            [
                Frame::Event(json!({"a": 1})),
                Frame::Done,
                Frame::Event(json!({"b": 2})),
                Frame::Event(json!({"c": 3}))
            ]
        );
    }

    #[test]
    fn event_names_fill_a_missing_type() {
        let got = frames(&["event: content_block_stop", "data: {\"index\": 0}", ""]);
        assert_eq!(got, [Frame::Event(json!({"type": "content_block_stop", "index": 0}))]);
        let got = frames(&["event: message", "data: {\"index\": 0}", ""]);
        assert_eq!(got, [Frame::Event(json!({"index": 0}))]);
    }

    #[test]
    fn garbage_is_bad_not_a_panic() {
        assert_eq!(frames(&["data: {\"a\": "]), [bad(1, None, "is not JSON")]);
        assert_eq!(frames(&["hello there"]), [bad(1, None, "is neither SSE nor JSON")]);
        assert_eq!(frames(&["{not json"]), [bad(1, None, "is not JSON")]);
        assert_eq!(frames(&["retry: 10", "id: 7"]), []);
    }

    #[test]
    fn bytes_split_anywhere_and_limits() {
        let body = "data: {\"t\": \"Zoë 🦀\"}\r\n\r\ndata: [DONE]\n\n";
        for size in 1..8 {
            let frames = body_frames(body.as_bytes(), size);
            assert_eq!(frames, [Frame::Event(json!({"t": "Zoë 🦀"})), Frame::Done], "size {size}");
        }
        let mut decoder = Decoder::default();
        let mut frames = Vec::new();
        decoder.bytes(&[b'{'; 100], 10, &mut |frame| frames.push(frame));
        decoder.bytes(b"\n", 10, &mut |frame| frames.push(frame));
        assert_eq!(frames, [bad(1, None, "has a line longer than the limit")]);
        let mut frames = Vec::new();
        decoder.bytes(b"\xff\xfe\n", 10, &mut |frame| frames.push(frame));
        assert_eq!(frames, [bad(2, None, "is not UTF-8")]);
        let mut frames = Vec::new();
        decoder.line("data: 0123456789abc", 10, &mut |frame| frames.push(frame));
        decoder.line("", 10, &mut |frame| frames.push(frame));
        assert_eq!(frames, [bad(3, None, "is larger than the limit")]);
    }
}
