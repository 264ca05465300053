//! Where the strings of a call's arguments are: a marker written inside one (`{"content":
//! "</tool_call><tool_call>…"}`, `"</think>"`) is that argument's text, never the end of a
//! call, a call of its own, or the end of reasoning. One scanner, read once and ahead, for
//! the blocks' ends ([`find_outside_values`]) and the reasoning splitter, one-shot and
//! streamed, so the three read a text alike.

use super::find_first;
use super::markers::next_marker;
use crate::parse::lexer::spans::ValueEnd;

/// Whether a place in a text lies inside a string of its JSON or Python values (`{…}`,
/// `[…]`, read as the lexer reads them: `'` strings where a value starts, escaped JSON),
/// asked at places further and further on: each byte is read once.
#[derive(Debug, Clone)]
pub(super) struct InArguments {
    /// Values are read from `pos` on; before that, a call marker is looked for first.
    marked: bool,
    /// Read up to here.
    pos: usize,
    /// The value being read, if one is open.
    value: Option<ValueEnd>,
}

impl InArguments {
    /// Values read from `at`: a block's body.
    pub(super) fn from(at: usize) -> InArguments {
        InArguments { marked: true, pos: at, value: None }
    }

    /// Values read from the first call marker at or after `at` (outside reasoning, values
    /// are arguments only after a call marker: prose before it has no strings to tell).
    pub(super) fn after_markers(at: usize) -> InArguments {
        InArguments { marked: false, pos: at, value: None }
    }

    /// Is `text[at]` inside a string of a value? `at` never goes back between calls.
    pub(super) fn inside(&mut self, text: &str, at: usize) -> bool {
        if !self.marked {
            match next_marker(&text[..at], self.pos, None) {
                Some((marker, _, _)) => {
                    self.marked = true;
                    self.pos = marker;
                }
                None => {
                    // No marker wholly before `at`: the next look starts a marker's length
                    // back, where one may have been cut by `at`.
                    self.pos = self.pos.max(at.saturating_sub(MARKER_ROOM));
                    while !text.is_char_boundary(self.pos) {
                        self.pos -= 1;
                    }
                    return false;
                }
            }
        }
        let bytes = text.as_bytes();
        while self.pos < at {
            match &mut self.value {
                None => match bytes[self.pos..at].iter().position(|b| matches!(b, b'{' | b'[')) {
                    Some(open) => {
                        self.pos += open;
                        self.value = Some(ValueEnd::container());
                    }
                    None => self.pos = at,
                },
                Some(value) => match value.end(&bytes[self.pos..at]) {
                    Some(end) => {
                        self.pos += end;
                        self.value = None;
                    }
                    None => self.pos = at,
                },
            }
        }
        self.value.as_ref().is_some_and(ValueEnd::in_string)
    }

    /// The first of `patterns` at or after `from` that is outside the strings.
    pub(super) fn next_outside(
        &mut self,
        text: &str,
        from: usize,
        patterns: &[&str],
    ) -> Option<(usize, usize)> {
        let mut pos = from;
        loop {
            let found = find_first(text, pos, patterns)?;
            if !self.inside(text, found.0) {
                return Some(found);
            }
            pos = found.0 + 1;
        }
    }
}

/// Longer than every marker.
const MARKER_ROOM: usize = 48;

/// [`find_first`] in a text whose `{…}` and `[…]` are JSON or Python values (a call's
/// arguments, a list of calls): a pattern inside one of their strings is not found. A
/// pattern outside the strings is found even inside a value that has not closed (a call cut
/// off before its closing marker ends there). Where every later pattern is inside a string
/// that never closes, there is none: the block runs to the end, cut off.
pub(super) fn find_outside_values(text: &str, from: usize, patterns: &[&str]) -> Option<(usize, usize)> {
    InArguments::from(from).next_outside(text, from, patterns)
}
