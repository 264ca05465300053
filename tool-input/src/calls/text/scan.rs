//! The members of a call object in a text call, each key read and its value left as its
//! exact text, without parsing the object: the value's end is found by the parser's lexer
//! ([`span_end`]), and a quoted key decoded by its one escape decoder ([`json_string`]).

use crate::parse::lexer::escapes::json_string;
use crate::parse::lexer::spans::{skip_ws, span_end, string_end};

/// The top-level members of a complete object `{...}`: each key (unquoted) and the exact
/// text of its value. `None` when the object is not regular enough to split (comments,
/// missing colons): the caller then parses it whole.
pub(crate) fn split_object(object: &str) -> Option<Vec<(String, &str)>> {
    let bytes = object.as_bytes();
    if bytes.first() != Some(&b'{') || bytes.last() != Some(&b'}') {
        return None;
    }
    let inner = &object[..object.len() - 1];
    let mut fields = Vec::new();
    let mut i = 1;
    loop {
        i = skip_ws(bytes, i);
        if i >= inner.len() {
            return Some(fields);
        }
        let (key, after) = match bytes[i] {
            b'"' => {
                let end = string_end(bytes, i, b'"')?;
                let key = json_string(&object[i..end]).unwrap_or_else(|| object[i + 1..end - 1].to_owned());
                (key, end)
            }
            b'\'' => {
                let end = string_end(bytes, i, b'\'')?;
                (object[i + 1..end - 1].to_owned(), end)
            }
            _ => {
                let colon = inner[i..].find(':')? + i;
                let key = inner[i..colon].trim();
                if key.is_empty() || key.bytes().any(|b| b.is_ascii_whitespace() || b"{}[]\"',".contains(&b))
                {
                    return None;
                }
                (key.to_owned(), colon)
            }
        };
        i = skip_ws(bytes, after);
        if bytes.get(i) != Some(&b':') {
            return None;
        }
        let start = skip_ws(bytes, i + 1);
        let end = span_end(object, start, b",}")?;
        let value = object[start..end].trim_end();
        if value.is_empty() {
            return None;
        }
        fields.push((key, value));
        i = end;
        if bytes.get(i) == Some(&b',') {
            i += 1;
        } else if i < inner.len() {
            return None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objects_split_into_exact_value_text() {
        let fields = split_object(r#"{"name": "f", 'arguments': {"a": [1, 2]}, id: "x"}"#).unwrap();
        assert_eq!(fields[0], ("name".to_owned(), r#""f""#));
        assert_eq!(fields[1], ("arguments".to_owned(), r#"{"a": [1, 2]}"#));
        assert_eq!(fields[2], ("id".to_owned(), r#""x""#));
        assert_eq!(split_object("{}").unwrap(), vec![]);
        assert!(split_object(r#"{"a" 1}"#).is_none());
    }
}
