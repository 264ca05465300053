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
    Bad,
}

/// The Anthropic and Responses event names that may stand in for a missing `type`.
fn is_event_type(name: &str) -> bool {
    name.starts_with("response.") || super::anthropic::EVENTS.contains(&name) || name == "error"
}

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
}

impl Decoder {
    /// Read one line (without its line break).
    pub fn line(&mut self, line: &str, limit: usize, frames: &mut Vec<Frame>) {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let trimmed = line.trim();
        if trimmed.is_empty() {
            self.dispatch(frames);
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
        self.dispatch(frames);
        if trimmed == "[DONE]" {
            frames.push(Frame::Done);
        } else if trimmed.starts_with(['{', '[', '"']) {
            frames.push(match serde_json::from_str(trimmed) {
                Ok(event) => Frame::Event(event),
                Err(_) => Frame::Bad,
            });
        } else {
            frames.push(Frame::Bad);
        }
    }

    /// Read raw bytes, split anywhere.
    pub fn bytes(&mut self, bytes: &[u8], limit: usize, frames: &mut Vec<Frame>) {
        let mut rest = bytes;
        while let Some(newline) = rest.iter().position(|&b| b == b'\n') {
            let (head, tail) = rest.split_at(newline);
            rest = &tail[1..];
            if self.partial.is_empty() {
                self.complete_line(head, limit, frames);
            } else {
                self.extend_partial(head, limit);
                let line = std::mem::take(&mut self.partial);
                self.complete_line(&line, limit, frames);
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

    fn complete_line(&mut self, line: &[u8], limit: usize, frames: &mut Vec<Frame>) {
        if std::mem::take(&mut self.partial_overflow) {
            self.reset();
            frames.push(Frame::Bad);
            return;
        }
        match std::str::from_utf8(line) {
            Ok(line) => self.line(line, limit, frames),
            Err(_) => {
                self.reset();
                frames.push(Frame::Bad);
            }
        }
    }

    /// The body ended: read the line and the event not yet ended.
    pub fn finish(&mut self, limit: usize, frames: &mut Vec<Frame>) {
        if !self.partial.is_empty() || self.partial_overflow {
            let line = std::mem::take(&mut self.partial);
            self.complete_line(&line, limit, frames);
        }
        self.dispatch(frames);
    }

    fn reset(&mut self) {
        self.data = String::new();
        self.lines = 0;
        self.event = None;
        self.overflow = false;
    }

    /// The event ends: decode its data.
    fn dispatch(&mut self, frames: &mut Vec<Frame>) {
        let overflow = self.overflow;
        let event = self.event.take();
        let lines = self.lines;
        let data = std::mem::take(&mut self.data);
        self.reset();
        if overflow {
            frames.push(Frame::Bad);
            return;
        }
        if lines == 0 {
            return;
        }
        let trimmed = data.trim();
        if trimmed == "[DONE]" {
            frames.push(Frame::Done);
            return;
        }
        match serde_json::from_str::<Value>(trimmed) {
            Ok(value) => frames.push(Frame::Event(named(value, event.as_deref()))),
            // Recordings often drop the blank lines between events: each line is one.
            Err(_) if lines > 1 => {
                for line in trimmed.lines().map(str::trim).filter(|line| !line.is_empty()) {
                    frames.push(match line {
                        "[DONE]" => Frame::Done,
                        line => match serde_json::from_str::<Value>(line) {
                            Ok(value) => Frame::Event(named(value, event.as_deref())),
                            Err(_) => Frame::Bad,
                        },
                    });
                }
            }
            Err(_) => frames.push(Frame::Bad),
        }
    }
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
            decoder.line(line, 1 << 20, &mut frames);
        }
        decoder.finish(1 << 20, &mut frames);
        frames
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
        assert_eq!(frames(&["data: {\"a\": "]), [Frame::Bad]);
        assert_eq!(frames(&["hello there"]), [Frame::Bad]);
        assert_eq!(frames(&["{not json"]), [Frame::Bad]);
        assert_eq!(frames(&["retry: 10", "id: 7"]), []);
    }

    #[test]
    fn bytes_split_anywhere_and_limits() {
        let body = "data: {\"t\": \"Zoë 🦀\"}\r\n\r\ndata: [DONE]\n\n";
        for size in 1..8 {
            let mut decoder = Decoder::default();
            let mut frames = Vec::new();
            for piece in body.as_bytes().chunks(size) {
                decoder.bytes(piece, 1 << 20, &mut frames);
            }
            decoder.finish(1 << 20, &mut frames);
            assert_eq!(frames, [Frame::Event(json!({"t": "Zoë 🦀"})), Frame::Done], "size {size}");
        }
        let mut decoder = Decoder::default();
        let mut frames = Vec::new();
        decoder.bytes(&[b'{'; 100], 10, &mut frames);
        decoder.bytes(b"\n", 10, &mut frames);
        assert_eq!(frames, [Frame::Bad]);
        let mut frames = Vec::new();
        decoder.bytes(b"\xff\xfe\n", 10, &mut frames);
        assert_eq!(frames, [Frame::Bad]);
        let mut frames = Vec::new();
        decoder.line("data: 0123456789abc", 10, &mut frames);
        decoder.line("", 10, &mut frames);
        assert_eq!(frames, [Frame::Bad]);
    }
}
