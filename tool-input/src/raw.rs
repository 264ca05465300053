//! Tool-call arguments as they arrive: absent, null, text, bytes or an already parsed value.

use serde_json::Value;

/// The arguments of one tool call, in whatever shape the backend delivered them.
///
/// Every entry point takes `impl Into<RawArguments>`, so a `&str`, `&[u8]`, `&Value` or an
/// `Option` of those can be passed directly.
///
/// | shape | becomes |
/// |---|---|
/// | absent, `null`, `""`, whitespace | `{}` |
/// | an object | itself (copied) |
/// | text or bytes | parsed (bytes must be UTF-8) |
/// | anything else | rejected as `not_object` |
///
/// ```
/// use tool_input::RawArguments;
/// use serde_json::json;
///
/// let from_text = RawArguments::from(r#"{"city": "Paris"}"#);
/// assert!(matches!(from_text, RawArguments::Text(_)));
/// let anthropic_input = json!({"city": "Paris"});
/// assert!(matches!(RawArguments::from(&anthropic_input), RawArguments::Value(_)));
/// assert!(matches!(RawArguments::from(None::<&str>), RawArguments::Absent));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RawArguments<'a> {
    /// No arguments were sent at all.
    Absent,
    /// Arguments as text, to be parsed.
    Text(&'a str),
    /// Arguments as bytes, to be decoded as UTF-8 and parsed.
    Bytes(&'a [u8]),
    /// Arguments the backend already parsed (Anthropic `input`, Gemini `args`, an object
    /// in place of the string OpenAI specifies). A string value is parsed as text.
    Value(&'a Value),
}

impl<'a> From<&'a str> for RawArguments<'a> {
    fn from(text: &'a str) -> Self {
        RawArguments::Text(text)
    }
}

impl<'a> From<&'a String> for RawArguments<'a> {
    fn from(text: &'a String) -> Self {
        RawArguments::Text(text)
    }
}

impl<'a> From<&'a [u8]> for RawArguments<'a> {
    fn from(bytes: &'a [u8]) -> Self {
        RawArguments::Bytes(bytes)
    }
}

impl<'a, const N: usize> From<&'a [u8; N]> for RawArguments<'a> {
    fn from(bytes: &'a [u8; N]) -> Self {
        RawArguments::Bytes(bytes)
    }
}

impl<'a> From<&'a Vec<u8>> for RawArguments<'a> {
    fn from(bytes: &'a Vec<u8>) -> Self {
        RawArguments::Bytes(bytes)
    }
}

impl<'a> From<&'a Value> for RawArguments<'a> {
    fn from(value: &'a Value) -> Self {
        RawArguments::Value(value)
    }
}

impl<'a, T> From<Option<T>> for RawArguments<'a>
where
    T: Into<RawArguments<'a>>,
{
    fn from(raw: Option<T>) -> Self {
        raw.map_or(RawArguments::Absent, Into::into)
    }
}
