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
    ///
    /// ```
    /// use tool_input::partial::{FieldState, PartialReader};
    /// let mut reader = PartialReader::<Vec<String>>::new();
    /// assert!(reader.partial().is_absent());
    /// reader.feed("['notes.md', 'to"); // Python quotes are read leniently
    /// assert_eq!(
    ///     reader.partial(),
    ///     &FieldState::Arriving(vec![FieldState::Complete("notes.md".to_owned()), FieldState::Arriving("to".to_owned())])
    /// );
    /// ```
    pub fn new() -> Self {
        PartialReader::with_options(ParseOptions::default())
    }

    /// A reader with `options` (the mode and the limits of the parse).
    ///
    /// ```
    /// use tool_input::parse::{ParseError, ParseOptions};
    /// use tool_input::partial::PartialReader;
    /// let mut reader = PartialReader::<Vec<String>>::with_options(ParseOptions::strict());
    /// reader.feed("['notes.md']");
    /// assert!(reader.partial().is_absent()); // single quotes are not JSON
    /// assert!(matches!(reader.finish(), Err(ParseError::Syntax { offset: 1, .. })));
    /// ```
    pub fn with_options(options: ParseOptions) -> Self {
        PartialReader { parser: IncrementalParser::new(options), state: FieldState::Absent, read: 0 }
    }

    /// Read the next fragment of the text. A fragment past a parse error changes nothing: the
    /// partial stays what was read before it (the final check explains the error).
    ///
    /// ```
    /// use tool_input::partial::{FieldState, PartialReader};
    /// let mut reader = PartialReader::<String>::new();
    /// for fragment in ["\"Disk ", "fu", "ll\""] {
    ///     reader.feed(fragment);
    /// }
    /// assert_eq!(reader.partial(), &FieldState::Arriving("Disk full".to_owned()));
    /// assert_eq!(reader.bytes(), 11);
    /// ```
    pub fn feed(&mut self, fragment: &str) {
        self.read += fragment.len();
        let state = &mut self.state;
        // An error stops the events; the partial keeps what came before.
        let _ = self.parser.feed_with(fragment, |event| apply_event::<T>(state, &event));
    }

    /// Read what `text` (the whole argument text so far, of which this reader has read a
    /// prefix) adds since the last call.
    ///
    /// ```
    /// use tool_input::partial::{FieldState, PartialReader};
    /// let mut reader = PartialReader::<Vec<u32>>::new();
    /// let mut text = String::new(); // the call's argument text as a stream builds it
    /// for fragment in ["[1", "0, 2", "0]"] {
    ///     text.push_str(fragment);
    ///     reader.catch_up(&text);
    /// }
    /// reader.catch_up(&text); // nothing new: nothing read twice
    /// assert_eq!(reader.bytes(), text.len());
    /// assert_eq!(reader.partial(), &FieldState::Arriving(vec![FieldState::Complete(10), FieldState::Complete(20)]));
    /// ```
    pub fn catch_up(&mut self, text: &str) {
        if let Some(new) = text.get(self.read..) {
            if !new.is_empty() {
                self.feed(new);
            }
        }
    }

    /// The partial value: `Absent` until the value starts, `Arriving` while it streams,
    /// `Complete` once the parser has closed it.
    ///
    /// ```
    /// use tool_input::partial::PartialReader;
    /// let mut reader = PartialReader::<Vec<u32>>::new();
    /// reader.feed("[12");
    /// assert!(reader.partial().is_absent()); // 12 may be the start of 120
    /// reader.feed(", 3");
    /// let items = reader.partial().value().unwrap();
    /// assert_eq!(items.len(), 1);
    /// assert_eq!(items[0].complete(), Some(&12));
    /// ```
    pub fn partial(&self) -> &FieldState<T::Partial> {
        &self.state
    }

    /// Bytes read.
    ///
    /// ```
    /// use tool_input::partial::PartialReader;
    /// let mut reader = PartialReader::<String>::new();
    /// assert_eq!(reader.bytes(), 0);
    /// reader.feed("\"Zoë");
    /// assert_eq!(reader.bytes(), 5); // bytes of UTF-8, not characters
    /// ```
    pub fn bytes(&self) -> usize {
        self.read
    }

    /// The text ended (the call's closing event came): the partial with the whole value
    /// complete, as the text reads in full, or the error that text is (a call cut off is
    /// [`ParseError::Truncated`]). The top-level value is complete only here: until the text
    /// ends, more could follow it.
    ///
    /// ```
    /// use tool_input::parse::ParseError;
    /// use tool_input::partial::{FieldState, PartialReader};
    ///
    /// let mut reader = PartialReader::<String>::new();
    /// reader.feed("\"done\"");
    /// assert!(!reader.partial().is_complete());
    /// assert_eq!(reader.finish().unwrap(), FieldState::Complete("done".to_owned()));
    ///
    /// let mut reader = PartialReader::<Vec<u32>>::new();
    /// reader.feed("[1, 2");
    /// assert!(matches!(reader.finish(), Err(ParseError::Truncated { bytes: 5, .. })));
    /// ```
    pub fn finish(mut self) -> Result<FieldState<T::Partial>, ParseError> {
        let parsed = self.parser.finish()?;
        T::apply(&mut self.state, &[], super::Step::Complete(&parsed.value));
        Ok(self.state)
    }
}
