//! Tool-call arguments as they arrive: absent, null, text, bytes or an already parsed value;
//! and the one way they are read into a value, for every reader of arguments.

use serde_json::{Map, Value};

use crate::error::{ErrorCode, Rejection};
use crate::parse::{self, ParseError, ParseOptions, Repair};
use crate::rejection_kind::RejectionKind;

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

/// Arguments read into an object: the object, the repairs it needed, and for a text that was
/// parsed, whether an object of it repeated a key.
pub(crate) type ObjectRead = (Map<String, Value>, Vec<Repair>, Option<bool>);

/// Raw arguments read into a value (see [`read_arguments`]).
#[derive(Debug)]
pub(crate) struct ReadArguments {
    pub value: Value,
    /// The syntax repairs the text needed.
    pub repairs: Vec<Repair>,
    /// For text that was parsed: whether an object of it gave a key twice (the value keeps
    /// the last).
    pub repeated: Option<bool>,
}

impl ReadArguments {
    fn empty() -> Self {
        ReadArguments { value: Value::Object(Map::new()), repairs: Vec::new(), repeated: None }
    }

    /// The object read, its repairs and whether it repeated a key; anything but an object
    /// is the [`not_object`] rejection (`options`: those the value was parsed with).
    pub fn into_object(self, options: &ParseOptions) -> Result<ObjectRead, Rejection> {
        match self.value {
            Value::Object(map) => Ok((map, self.repairs, self.repeated)),
            other => Err(not_object(&other, self.repairs, options)),
        }
    }
}

/// Read raw arguments of any shape into a value, parsing with `options`: absent, `null`, and
/// text or bytes that are empty or white space are `{}`; text, a string value and UTF-8
/// bytes are parsed, noting a key given twice; other bytes are parsed as bytes (invalid
/// UTF-8 is an error where it matters, inside a string); any other value is taken as it is,
/// an object or not. `not_strict_json`: `serde_json` has already refused the text, so it is
/// not read as strict JSON a second time.
pub(crate) fn read_arguments(
    raw: RawArguments<'_>,
    options: &ParseOptions,
    not_strict_json: bool,
) -> Result<ReadArguments, ParseError> {
    let text = match raw {
        RawArguments::Absent | RawArguments::Value(Value::Null) => return Ok(ReadArguments::empty()),
        RawArguments::Text(text) => text,
        RawArguments::Value(Value::String(text)) => text,
        RawArguments::Bytes(bytes) => {
            if bytes.iter().all(u8::is_ascii_whitespace) {
                return Ok(ReadArguments::empty());
            }
            match std::str::from_utf8(bytes) {
                Ok(text) => text,
                Err(_) => {
                    let parsed = parse::parse_bytes(bytes, options)?;
                    return Ok(ReadArguments {
                        value: parsed.value,
                        repairs: parsed.repairs,
                        repeated: None,
                    });
                }
            }
        }
        RawArguments::Value(value) => {
            return Ok(ReadArguments { value: value.clone(), repairs: Vec::new(), repeated: None })
        }
    };
    if text.trim().is_empty() {
        return Ok(ReadArguments::empty());
    }
    let (parsed, repeated) = parse::parse_noting_repeats(text, options, not_strict_json)?;
    Ok(ReadArguments { value: parsed.value, repairs: parsed.repairs, repeated: Some(repeated) })
}

/// The rejection of arguments that are not an object (`value`, parsed with `options`), with
/// the repairs the text needed. A string holding the object (a double-encoded payload) that
/// was kept a string because a number in it is beyond the floats is that number's `range`
/// error at its path, as it is when the object is sent bare.
pub(crate) fn not_object(value: &Value, repairs: Vec<Repair>, options: &ParseOptions) -> Rejection {
    if let Some(path) =
        value.as_str().and_then(|text| parse::one_shot::beyond_floats_in_payload(text, options))
    {
        return Rejection::beyond_floats(path);
    }
    let message = format!(
        "the arguments must be a JSON object with named fields, not {}",
        crate::message::kind_of(value)
    );
    let mut rejection = Rejection::whole(RejectionKind::NotObject, ErrorCode::NotObject, message);
    rejection.repairs = repairs;
    rejection
}
