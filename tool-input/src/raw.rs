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
            value_within(value, options)?;
            return Ok(ReadArguments { value: value.clone(), repairs: Vec::new(), repeated: None });
        }
    };
    if text.trim().is_empty() {
        return Ok(ReadArguments::empty());
    }
    let (parsed, repeated) = parse::parse_noting_repeats(text, options, not_strict_json)?;
    Ok(ReadArguments { value: parsed.value, repairs: parsed.repairs, repeated: Some(repeated) })
}

/// Is a value that arrived already parsed (Anthropic's `input`, Gemini's `args`, a caller's
/// own `Value`) within the limits its text would be held to: arrays and objects nested no
/// deeper than [`ParseOptions::max_depth`] ([`ParseError::TooDeep`]), and no longer than
/// [`ParseOptions::max_bytes`] written as compact JSON ([`ParseError::TooLarge`], its length
/// so written)? Read without recursion, whatever the depth: `serde_json`'s own writer
/// (`message::json_len`) recurses, and a caller may raise `max_depth` past what a thread's
/// stack holds.
pub(crate) fn value_within(value: &Value, options: &ParseOptions) -> Result<(), ParseError> {
    /// Counts what is written (a number's digits), keeping none of it.
    struct Count(usize);
    impl std::fmt::Write for Count {
        fn write_str(&mut self, text: &str) -> std::fmt::Result {
            self.0 += text.len();
            Ok(())
        }
    }
    let mut bytes = 0;
    // Each value with how many arrays and objects hold it.
    let mut pending: Vec<(&Value, usize)> = vec![(value, 0)];
    while let Some((value, depth)) = pending.pop() {
        bytes += match value {
            Value::Null => 4,
            Value::Bool(flag) => 4 + usize::from(!flag),
            Value::Number(number) => {
                let mut digits = Count(0);
                // `Count` never fails.
                let _ = std::fmt::Write::write_fmt(&mut digits, format_args!("{number}"));
                digits.0
            }
            Value::String(text) => json_string_len(text),
            Value::Array(items) => {
                if depth >= options.max_depth {
                    return Err(ParseError::TooDeep { limit: options.max_depth });
                }
                pending.extend(items.iter().map(|item| (item, depth + 1)));
                2 + items.len().saturating_sub(1)
            }
            Value::Object(map) => {
                if depth >= options.max_depth {
                    return Err(ParseError::TooDeep { limit: options.max_depth });
                }
                pending.extend(map.values().map(|member| (member, depth + 1)));
                // Braces, commas, and each key with its colon.
                2 + map.len().saturating_sub(1)
                    + map.keys().map(|key| json_string_len(key) + 1).sum::<usize>()
            }
        };
    }
    if bytes > options.max_bytes {
        return Err(ParseError::TooLarge { bytes, limit: options.max_bytes });
    }
    Ok(())
}

/// The length of `text` written as a JSON string, as `serde_json` writes it: quoted, `"` and
/// `\` and the short escapes (`\n`, `\t`, ...) two bytes, other control characters six.
fn json_string_len(text: &str) -> usize {
    2 + text
        .bytes()
        .map(|byte| match byte {
            b'"' | b'\\' | b'\n' | b'\r' | b'\t' | 0x08 | 0x0c => 2,
            0..=0x1f => 6,
            _ => 1,
        })
        .sum::<usize>()
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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// The length a value already parsed is held to is its compact JSON's, escapes and all.
    #[test]
    fn a_parsed_value_is_measured_as_its_compact_json() {
        for value in [
            json!({}),
            json!([]),
            json!({"a": [1, -2, 3.5, 1e300, true, false, null], "b\"\\": "x\n\t\u{1}\u{7f}é😀"}),
            json!([[[]], {"k": {"": ""}}, 18446744073709551615u64, -9223372036854775808i64, 0.1]),
        ] {
            let length = serde_json::to_string(&value).expect("serializes").len();
            let exact = ParseOptions::default().with_max_bytes(length);
            assert_eq!(value_within(&value, &exact), Ok(()), "{value}");
            let under = ParseOptions::default().with_max_bytes(length - 1);
            assert_eq!(
                value_within(&value, &under),
                Err(ParseError::TooLarge { bytes: length, limit: length - 1 }),
                "{value}"
            );
        }
    }

    /// Depth is counted as the parser counts it, and read without recursion.
    #[test]
    fn a_parsed_value_is_held_to_the_depth_limit() {
        let options = ParseOptions::default().with_max_depth(2);
        assert_eq!(value_within(&json!({"a": [1]}), &options), Ok(()));
        assert_eq!(value_within(&json!({"a": [[1]]}), &options), Err(ParseError::TooDeep { limit: 2 }));
        assert_eq!(value_within(&json!("text"), &ParseOptions::default().with_max_depth(0)), Ok(()));
        let mut deep = json!(1);
        for _ in 0..10_000 {
            deep = Value::Array(vec![deep]);
        }
        let options = ParseOptions::default().with_max_depth(20_000);
        assert_eq!(value_within(&deep, &options), Ok(()));
        // A value this deep cannot be dropped by recursion either: take it apart.
        while let Value::Array(mut items) = deep {
            deep = items.pop().unwrap_or(Value::Null);
        }
    }
}
