//! Where JSON-like values end in text, without parsing them: the spans that the text
//! formats hand to the lenient parser, so the rest of the text stays content.
//!
//! One forward pass per span, no recursion (nesting is a counter), so hostile text costs
//! linear time.

/// May a `'` after this significant byte open a string? Only where a key or value starts,
/// so an apostrophe in an unquoted word never does.
fn opens_single(prev: Option<u8>) -> bool {
    matches!(prev, None | Some(b'{' | b'[' | b'(' | b',' | b':' | b'='))
}

/// The index just after the string that opens at `at` with `quote`, or `None` if it never
/// closes.
pub(crate) fn string_end(bytes: &[u8], at: usize, quote: u8) -> Option<usize> {
    let mut j = at + 1;
    while j < bytes.len() {
        match bytes[j] {
            b'\\' => j += 2,
            b if b == quote => return Some(j + 1),
            _ => j += 1,
        }
    }
    None
}

/// The index just after the `}` or `]` that closes the container opening at `start`, or
/// `None` when the text ends first (the value was cut off).
pub(crate) fn container_end(text: &str, start: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut prev = None;
    let mut i = start;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'"' => {
                i = string_end(bytes, i, b'"')?;
                prev = Some(b'"');
                continue;
            }
            b'\'' if opens_single(prev) => {
                i = string_end(bytes, i, b'\'')?;
                prev = Some(b'\'');
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
        if !b.is_ascii_whitespace() {
            prev = Some(b);
        }
        i += 1;
    }
    None
}

/// The index of the first byte of `stops` at nesting depth 0 and outside strings, from
/// `start`; a closing bracket that would go below depth 0 also ends the span. `None` when
/// the text ends first.
pub(crate) fn span_end(text: &str, start: usize, stops: &[u8]) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut prev = Some(b'=');
    let mut i = start;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'"' => {
                i = string_end(bytes, i, b'"')?;
                prev = Some(b'"');
                continue;
            }
            b'\'' if opens_single(prev) => {
                i = string_end(bytes, i, b'\'')?;
                prev = Some(b'\'');
                continue;
            }
            _ if depth == 0 && stops.contains(&b) => return Some(i),
            b'{' | b'[' | b'(' => depth += 1,
            b'}' | b']' | b')' => {
                if depth == 0 {
                    return Some(i);
                }
                depth -= 1;
            }
            _ => {}
        }
        if !b.is_ascii_whitespace() {
            prev = Some(b);
        }
        i += 1;
    }
    None
}

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
                let key = serde_json::from_str::<String>(&object[i..end])
                    .unwrap_or_else(|_| object[i + 1..end - 1].to_owned());
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

pub(crate) fn skip_ws(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() && bytes[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn containers_end_where_they_close() {
        assert_eq!(container_end(r#"{"a": "}"} tail"#, 0), Some(10));
        assert_eq!(container_end(r#"[1, {"b": [2]}]x"#, 0), Some(15));
        assert_eq!(container_end("{'a': 'it}'}", 0), Some(12));
        assert_eq!(container_end(r#"{"a": [1, 2"#, 0), None);
        assert_eq!(container_end(r#"{"a": "cut"#, 0), None);
    }

    #[test]
    fn spans_stop_at_depth_zero() {
        assert_eq!(span_end("'Paris', days=3)", 0, b",)"), Some(7));
        assert_eq!(span_end("[1, 2], x=1)", 0, b",)"), Some(6));
        assert_eq!(span_end("{\"a\": 1}}", 0, b",}"), Some(8));
        assert_eq!(span_end("'unclosed", 0, b",)"), None);
    }

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
