//! A partial value kept up to date from a call's argument text as it arrives.

use crate::parse::{IncrementalParser, ParseError, ParseOptions};

use super::{apply_event, FieldState, PartialValue};

/// Reads a streamed call's argument text into `T`'s partial form, fragment by fragment: each
/// byte is parsed once, and reading the partial costs nothing, however often it is read.
///
/// ```
/// use tool_input::partial::{FieldState, PartialReader};
///
/// let mut reader = PartialReader::<Vec<u32>>::new();
/// reader.feed("[1, 2");
/// assert_eq!(reader.partial(), &FieldState::Arriving(vec![FieldState::Complete(1)]));
/// reader.feed("3]");
/// // Every item is complete; the list itself only when the call's text ends.
/// assert_eq!(reader.partial(), &FieldState::Arriving(vec![FieldState::Complete(1), FieldState::Complete(23)]));
/// assert_eq!(reader.finish().unwrap(), FieldState::Complete(vec![FieldState::Complete(1), FieldState::Complete(23)]));
/// ```
#[derive(Debug)]
pub struct PartialReader<T: PartialValue> {
    parser: IncrementalParser,
    state: FieldState<T::Partial>,
    /// Bytes of text read so far (for [`PartialReader::catch_up`]).
    read: usize,
}

impl<T: PartialValue> Default for PartialReader<T> {
    fn default() -> Self {
        PartialReader::new()
    }
}

impl<T: PartialValue> PartialReader<T> {
    /// A reader with the default (lenient) parse options.
    pub fn new() -> Self {
        PartialReader::with_options(ParseOptions::default())
    }

    /// A reader with `options` (the mode and the limits of the parse).
    pub fn with_options(options: ParseOptions) -> Self {
        PartialReader { parser: IncrementalParser::new(options), state: FieldState::Absent, read: 0 }
    }

    /// Read the next fragment of the text. A fragment past a parse error changes nothing: the
    /// partial stays what was read before it (the final check explains the error).
    pub fn feed(&mut self, fragment: &str) {
        self.read += fragment.len();
        let state = &mut self.state;
        // An error stops the events; the partial keeps what came before.
        let _ = self.parser.feed_with(fragment, |event| apply_event::<T>(state, &event));
    }

    /// Read what `text` (the whole argument text so far, of which this reader has read a
    /// prefix) adds since the last call.
    pub fn catch_up(&mut self, text: &str) {
        if let Some(new) = text.get(self.read..) {
            if !new.is_empty() {
                self.feed(new);
            }
        }
    }

    /// The partial value: `Absent` until the value starts, `Arriving` while it streams,
    /// `Complete` once the parser has closed it.
    pub fn partial(&self) -> &FieldState<T::Partial> {
        &self.state
    }

    /// Bytes read.
    pub fn bytes(&self) -> usize {
        self.read
    }

    /// The text ended (the call's closing event came): the partial with the whole value
    /// complete, as the text reads in full, or the error that text is (a call cut off is
    /// [`ParseError::Truncated`]). The top-level value is complete only here: until the text
    /// ends, more could follow it.
    pub fn finish(mut self) -> Result<FieldState<T::Partial>, ParseError> {
        let parsed = self.parser.finish()?;
        T::apply(&mut self.state, &[], super::Step::Complete(&parsed.value));
        Ok(self.state)
    }
}
