//! The content of a string token, lent for the time the token is handed over: from the text
//! when the text holds it exactly as it reads, else from the lexer's buffer, and owned only
//! where it was built whole (joined literals, a string held until the next token, repair
//! mode's rewrites). An output that keeps the string copies it then (the `Value` builder
//! makes its one `String`); one that points into the text (the tape) takes its place there,
//! without a copy or a comparison.

/// A string token's content (see the module documentation).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Str<'a> {
    /// The fragment being read holds the content exactly as it reads (no escape decoded,
    /// no repair changed it): this is that part of the fragment.
    Text(&'a str),
    /// Decoded or repaired content in the lexer's reused buffer.
    Buffer(&'a str),
    /// Content built whole for this token.
    Owned(String),
}

impl Str<'_> {
    /// The content.
    #[inline]
    pub(crate) fn as_str(&self) -> &str {
        match self {
            Str::Text(text) | Str::Buffer(text) => text,
            Str::Owned(text) => text,
        }
    }

    /// The content as a `String` of its own (a copy unless it is owned already).
    #[inline]
    pub(crate) fn into_string(self) -> String {
        match self {
            Str::Text(text) | Str::Buffer(text) => text.to_owned(),
            Str::Owned(text) => text,
        }
    }

    /// The content, when it is the part of the text being read that spells it as it reads.
    #[inline]
    pub(crate) fn in_text(&self) -> Option<&str> {
        match self {
            Str::Text(text) => Some(text),
            Str::Buffer(_) | Str::Owned(_) => None,
        }
    }
}
