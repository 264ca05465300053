//! What the incremental parser reports as it reads ([`StreamEvent`]): a leaf, so the parser
//! (`incremental`) and its output (`output::incremental`) both import it and not each other.

use std::borrow::Cow;

use serde_json::Value;

#[cfg(doc)]
use crate::parse::{IncrementalParser, ParseMode};

/// Something the [`IncrementalParser`] learned from a fragment. Paths are JSON Pointers
/// (RFC 6901) into the value, `""` being the value itself.
///
/// Events come in the order of the text. In [`ParseMode::Strict`] and
/// [`ParseMode::Lenient`]:
///
/// - [`ValueComplete`](StreamEvent::ValueComplete) for every member of an object and every
///   item of an array, at any depth, once its value is complete (a scalar when the token
///   after it arrives, an array or object when it closes, after the events of what is in
///   it). Not for the top-level value itself: that is [`IncrementalParser::finish`]'s. The
///   value is the one the final parse has at that path, except where a later member with
///   the same key replaces it (the last one wins, as in the final value), and inside a
///   function-call wrapper such as `NumberLong(2)`, which reports only its result.
/// - [`StringGrew`](StreamEvent::StringGrew) for a string value still being read at the end
///   of a fragment, with the text decoded since the last report, and once more with the
///   rest when it ends (before its `ValueComplete`). The pieces of a path concatenate to
///   its final string. A string that starts and ends in one fragment has no `StringGrew`,
///   only its `ValueComplete`. A top-level string reports at `""`; if it turns out to be a
///   double-encoded object, only [`finish`](IncrementalParser::finish) decodes it.
/// - [`Restart`](StreamEvent::Restart) when a value that came after prose failed and the
///   parser goes on to the next `{` or `[` (as the one-shot parser retries it): what was
///   reported before was prose, not the value.
///
/// [`ParseMode::Repair`] reports no events: its guesses can restructure what was read.
///
/// ```
/// use tool_input::parse::{IncrementalParser, ParseOptions, StreamEvent};
///
/// let mut parser = IncrementalParser::new(ParseOptions::default());
/// let mut events = Vec::new();
/// for chunk in [r#"{"path": "a.txt", "content": "Hello, "#, r#"world"}"#] {
///     parser.feed_with(chunk, |event| events.push(event.into_owned())).unwrap();
/// }
/// assert!(matches!(&events[0], StreamEvent::ValueComplete { path, value } if path == "/path" && value.as_str() == Some("a.txt")));
/// assert_eq!(events[1], StreamEvent::StringGrew { path: "/content".into(), appended: "Hello, ".into() });
/// assert_eq!(events[2], StreamEvent::StringGrew { path: "/content".into(), appended: "world".into() });
/// assert!(matches!(&events[3], StreamEvent::ValueComplete { path, .. } if path == "/content"));
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum StreamEvent<'a> {
    /// The value of the member or item at `path` is complete.
    ValueComplete {
        /// JSON Pointer of the member or item.
        path: Cow<'a, str>,
        /// Its value.
        value: Cow<'a, Value>,
    },
    /// The string at `path` grew by `appended` (decoded text).
    StringGrew {
        /// JSON Pointer of the string.
        path: Cow<'a, str>,
        /// The text read since the last report for this string.
        appended: Cow<'a, str>,
    },
    /// What was reported so far was prose before the value: forget it. The partial value
    /// starts again from nothing.
    Restart,
}

impl StreamEvent<'_> {
    /// The event with its path and value owned, to keep beyond the callback.
    ///
    /// ```
    /// use tool_input::parse::{IncrementalParser, ParseOptions, StreamEvent};
    ///
    /// let mut parser = IncrementalParser::new(ParseOptions::default());
    /// let mut kept: Vec<StreamEvent<'static>> = Vec::new();
    /// parser.feed_with(r#"{"n": 1}"#, |event| kept.push(event.into_owned()))?;
    /// assert!(matches!(&kept[0], StreamEvent::ValueComplete { path, .. } if path == "/n"));
    /// # Ok::<(), tool_input::parse::ParseError>(())
    /// ```
    pub fn into_owned(self) -> StreamEvent<'static> {
        match self {
            StreamEvent::ValueComplete { path, value } => StreamEvent::ValueComplete {
                path: Cow::Owned(path.into_owned()),
                value: Cow::Owned(value.into_owned()),
            },
            StreamEvent::StringGrew { path, appended } => StreamEvent::StringGrew {
                path: Cow::Owned(path.into_owned()),
                appended: Cow::Owned(appended.into_owned()),
            },
            StreamEvent::Restart => StreamEvent::Restart,
        }
    }

    /// The JSON Pointer the event is about (`None` for [`StreamEvent::Restart`]).
    ///
    /// ```
    /// use tool_input::parse::{IncrementalParser, ParseOptions, StreamEvent};
    ///
    /// let mut parser = IncrementalParser::new(ParseOptions::default());
    /// let mut paths = Vec::new();
    /// parser.feed_with(r#"{"todo": ["a", "#, |event| paths.push(event.path().map(str::to_owned)))?;
    /// assert_eq!(paths, [Some("/todo/0".to_owned())]);
    /// assert_eq!(StreamEvent::Restart.path(), None);
    /// # Ok::<(), tool_input::parse::ParseError>(())
    /// ```
    pub fn path(&self) -> Option<&str> {
        match self {
            StreamEvent::ValueComplete { path, .. } | StreamEvent::StringGrew { path, .. } => Some(path),
            StreamEvent::Restart => None,
        }
    }
}
