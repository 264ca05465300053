//! The text around the value, which the lenient modes skip: prose before and after it, a
//! code fence and its language tag, comments, and a byte order mark.

use super::bytes::find;
use super::state::{Phase, RQuote, State};
use super::{Failure, Lexer, Sink, Str};
use crate::parse::RepairKind;

impl Lexer {
    /// What was read from `offset` on is prose before the value.
    pub(super) fn enter_prose<S: Sink>(&mut self, offset: usize, sink: &mut S) {
        let after_scalar = self.salvage.as_ref().is_some_and(|salvage| salvage.scalar_prose.is_some());
        if !self.prose_seen && !after_scalar {
            self.prose_seen = true;
            sink.repair(RepairKind::ProseBefore, offset);
        }
        if let Some(salvage) = self.salvage.as_deref_mut() {
            if !salvage.bare && salvage.prose_raw.is_none() && self.value_start.is_none() {
                salvage.prose_raw = Some((Vec::new(), offset));
            }
        }
        self.state = State::Prose;
    }

    /// [`ParseMode::Repair`]: add `bytes` to the prose kept to be read again as text if no
    /// value follows.
    pub(super) fn keep_prose(&mut self, bytes: &[u8]) {
        if let Some((prose, _)) = self.salvage.as_deref_mut().and_then(|salvage| salvage.prose_raw.as_mut()) {
            prose.extend_from_slice(bytes);
        }
    }

    /// [`ParseMode::Repair`]: whether prose before the value is kept (to be read again as
    /// text if no value follows).
    fn prose_kept(&self) -> bool {
        self.salvage.as_ref().is_some_and(|salvage| salvage.prose_raw.is_some())
    }

    /// Prose that starts with `text` (a word already read).
    pub(super) fn start_prose_with<S: Sink>(&mut self, text: &[u8], sink: &mut S) {
        self.enter_prose(self.start, sink);
        self.keep_prose(text);
    }

    /// Skip prose up to the first `{`, `[` or backtick.
    pub(super) fn prose(&mut self, chunk: &[u8], i: usize) -> usize {
        let found = find(chunk, i, |b| matches!(b, b'{' | b'[' | b'`'));
        self.keep_prose(chunk.get(i..found.unwrap_or(chunk.len())).unwrap_or_default());
        let Some(j) = found else {
            return chunk.len();
        };
        let at = self.base + j;
        self.start = at;
        if chunk.get(j) == Some(&b'`') {
            // Kept by `ticks` (or at the end) once it knows how many there are.
            self.state = State::Ticks { seen: 1 };
            return j + 1;
        }
        self.state = State::Between;
        if let Some(&b) = chunk.get(j) {
            self.begin_value(at, b);
        }
        j
    }

    /// After `/`: a comment, or (lenient, around the value) prose; in
    /// [`ParseMode::Repair`] a regular expression where a value belongs.
    pub(super) fn slash<S: Sink>(&mut self, chunk: &[u8], i: usize, sink: &mut S) -> Result<usize, Failure> {
        let Some(&b) = chunk.get(i) else { return Ok(i) };
        self.start = self.slash_at;
        match b {
            b'/' => {
                sink.repair(RepairKind::Comment, self.start);
                self.state = State::LineComment { hash: false };
                Ok(i + 1)
            }
            b'*' => {
                sink.repair(RepairKind::Comment, self.start);
                self.state = State::BlockComment { star: false };
                Ok(i + 1)
            }
            _ if self.repair
                && (self.phase == Phase::Value || (self.phase == Phase::Start && !self.prose_kept())) =>
            {
                if self.phase == Phase::Start {
                    self.begin_value(self.start, b'/');
                }
                self.salvage().start_raw(b"/");
                self.state = State::Regex { esc: false };
                Ok(i)
            }
            _ => match self.phase {
                Phase::Start => {
                    self.enter_prose(self.start, sink);
                    self.keep_prose(b"/");
                    Ok(i)
                }
                Phase::After => {
                    sink.repair(RepairKind::ProseAfter, self.start);
                    self.state = State::Ignore;
                    Ok(i)
                }
                Phase::Value | Phase::Ended => Err(Failure::syntax("unexpected character `/`", self.start)),
            },
        }
    }

    /// A `//` or `#` comment, up to the end of the line. In [`ParseMode::Repair`] a `#`
    /// comment inside a container also ends before a closing bracket (`{"a": 1 # note }`).
    pub(super) fn line_comment<S: Sink>(
        &mut self,
        chunk: &[u8],
        i: usize,
        hash: bool,
        sink: &mut S,
    ) -> usize {
        let stop_at_closer = hash && self.repair && sink.in_container();
        let found = if stop_at_closer {
            find(chunk, i, |b| matches!(b, b'\n' | b'}' | b']'))
        } else {
            find(chunk, i, |b| b == b'\n')
        };
        match found {
            Some(j) => {
                self.state = State::Between;
                if chunk.get(j) == Some(&b'\n') {
                    j + 1
                } else {
                    j
                }
            }
            None => chunk.len(),
        }
    }

    pub(super) fn block_comment(&mut self, chunk: &[u8], mut i: usize, mut star: bool) -> usize {
        while let Some(&b) = chunk.get(i) {
            if star && b == b'/' {
                self.state = State::Between;
                return i + 1;
            }
            star = b == b'*';
            i += 1;
        }
        self.state = State::BlockComment { star };
        i
    }

    /// A UTF-8 BOM at the very start (lenient).
    pub(super) fn bom<S: Sink>(&mut self, chunk: &[u8], i: usize, seen: u8, sink: &mut S) -> usize {
        let expected = [0xEF, 0xBB, 0xBF];
        if chunk.get(i) == expected.get(usize::from(seen)) {
            if seen == 2 {
                sink.repair(RepairKind::Bom, self.start);
                self.state = State::Between;
            } else {
                self.state = State::Bom { seen: seen + 1 };
            }
            return i + 1;
        }
        self.enter_prose(self.start, sink);
        self.keep_prose(expected.get(..usize::from(seen)).unwrap_or_default());
        i
    }

    /// Backticks: a code fence when there are three (lenient); in [`ParseMode::Repair`] one
    /// backtick where a value belongs opens a string.
    pub(super) fn ticks<S: Sink>(
        &mut self,
        chunk: &[u8],
        i: usize,
        seen: u8,
        sink: &mut S,
    ) -> Result<usize, Failure> {
        let Some(&b) = chunk.get(i) else { return Ok(i) };
        if b == b'`' {
            if seen < 2 {
                self.state = State::Ticks { seen: seen + 1 };
                return Ok(i + 1);
            }
            match self.phase {
                Phase::Start => {
                    sink.repair(RepairKind::CodeFence, self.start);
                    self.fence_open = true;
                    if let Some(salvage) = self.salvage.as_deref_mut() {
                        salvage.prose_raw = None;
                    }
                    self.state = State::FenceInfo;
                }
                Phase::After if self.fence_open => {
                    self.fence_open = false;
                    if let Some(salvage) = self.salvage.as_deref_mut() {
                        salvage.fenced = true;
                    }
                    self.state = State::Between;
                }
                Phase::After if self.fenced() => {
                    // Another code fence after a fenced value: another value.
                    self.fence_open = true;
                    self.salvage().fenced = false;
                    self.state = State::FenceInfo;
                }
                Phase::After => {
                    sink.repair(RepairKind::ProseAfter, self.start);
                    self.state = State::Ignore;
                }
                Phase::Value
                    if !self.fence_open
                        && self.salvage.as_ref().is_some_and(|salvage| salvage.tokens == 1)
                        && sink.undo_open() =>
                {
                    // ```` [```json ```` : a bracket before the fence, not a value.
                    sink.repair(RepairKind::CodeFence, self.start);
                    self.phase = Phase::Start;
                    self.value_start = None;
                    self.salvage().tokens = 0;
                    self.fence_open = true;
                    self.state = State::FenceInfo;
                }
                // The closing fence came before the value was complete: the value was cut
                // off, and `finish` reports (or completes) it.
                Phase::Value | Phase::Ended => {
                    self.flush_held(sink)?;
                    self.phase = Phase::Ended;
                    self.state = State::Ignore;
                }
            }
            return Ok(i + 1);
        }
        match self.phase {
            Phase::Start
                if seen == 1
                    && self.salvage.as_ref().is_some_and(|salvage| {
                        salvage.prose_raw.is_none() && salvage.scalar_prose.is_none()
                    }) =>
            {
                // `` `foo´ ``: a backtick-quoted string.
                self.begin_value(self.start, b'`');
                sink.repair(RepairKind::SmartQuotes, self.start);
                self.begin_raw(RQuote::SingleLike, sink);
                Ok(i)
            }
            Phase::Start => {
                self.enter_prose(self.start, sink);
                self.keep_prose(b"``".get(..usize::from(seen)).unwrap_or_default());
                Ok(i)
            }
            Phase::After if self.repair && self.fenced() => {
                self.state = State::SeekFence;
                Ok(i)
            }
            Phase::After => {
                sink.repair(RepairKind::ProseAfter, self.start);
                self.state = State::Ignore;
                Ok(i)
            }
            Phase::Value if self.repair && seen <= 2 => {
                // A backtick-quoted string (``` `foo´ ```); two backticks are an empty one.
                if self.held.is_some() {
                    self.flush_held(sink)?;
                }
                sink.repair(RepairKind::SmartQuotes, self.start);
                if seen == 2 {
                    self.state = State::Between;
                    self.deliver_string(Str::Buffer(""), self.start, true, sink)?;
                    return Ok(i);
                }
                self.begin_raw(RQuote::SingleLike, sink);
                Ok(i)
            }
            Phase::Value | Phase::Ended => Err(Failure::syntax("unexpected character '`'", self.start)),
        }
    }

    /// The language tag of an opening fence, up to the end of its line or the value.
    pub(super) fn fence_info(&mut self, chunk: &[u8], i: usize) -> usize {
        match find(chunk, i, |b| {
            !(b.is_ascii_alphanumeric()
                || matches!(b, b'_' | b'-' | b'+' | b'.' | b'`' | b' ' | b'\t' | b'\r'))
        }) {
            Some(j) => {
                self.state = State::Between;
                if chunk.get(j) == Some(&b'\n') {
                    j + 1
                } else {
                    j
                }
            }
            None => chunk.len(),
        }
    }
}
