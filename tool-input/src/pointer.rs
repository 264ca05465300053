//! JSON Pointer (RFC 6901) reference tokens, written in one place for every path the crate
//! reports: errors, coercion records, stream events, schema problems.

use std::borrow::Cow;

/// `token` escaped as one reference token (`~` as `~0`, `/` as `~1`); borrowed when there
/// is nothing to escape, as for almost every key.
pub(crate) fn escape_token(token: &str) -> Cow<'_, str> {
    // A byte search: `contains` with a set of chars runs a char searcher, which costs more
    // than the whole of a short key's escaping (the stream makes a path per value).
    if token.bytes().any(|b| b == b'~' || b == b'/') {
        Cow::Owned(token.replace('~', "~0").replace('/', "~1"))
    } else {
        Cow::Borrowed(token)
    }
}

/// An escaped reference token read back (`~1` as `/`, then `~0` as `~`).
pub(crate) fn unescape_token(token: &str) -> Cow<'_, str> {
    if token.contains('~') {
        Cow::Owned(token.replace("~1", "/").replace("~0", "~"))
    } else {
        Cow::Borrowed(token)
    }
}

/// Append `/` and `token`, escaped, to `pointer`.
pub(crate) fn push_token(pointer: &mut String, token: &str) {
    pointer.push('/');
    pointer.push_str(&escape_token(token));
}

/// The JSON Pointer of a serde path (`serde_path_to_error`), as errors report it.
pub(crate) fn pointer_of(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut pointer = String::new();
    for segment in path.iter() {
        match segment {
            Segment::Seq { index } => {
                pointer.push('/');
                pointer.push_str(&index.to_string());
            }
            Segment::Map { key } | Segment::Enum { variant: key } => {
                push_token(&mut pointer, key);
            }
            Segment::Unknown => pointer.push_str("/?"),
        }
    }
    pointer
}

/// Where serde's refusal `message` is, as a JSON Pointer into `value` (what serde read,
/// when it is at hand), and what to say there. serde names no map key it refused (its path
/// ends in an unknown segment): the key is found in `value` (the object's one key, or the
/// one key the message quotes), else the refusal is placed at the object and said to be of
/// a property name. serde's position inside a key's text (`at line 1 column 2`) is dropped.
pub(crate) fn refusal_in(
    path: &serde_path_to_error::Path,
    value: Option<&serde_json::Value>,
    message: String,
) -> (String, String) {
    use serde_path_to_error::Segment;
    // A position is in a key's own text (serde_json reads a key as a document of its own);
    // a value already parsed has none.
    let message = match message.rfind(" at line ") {
        Some(at) if message[at..].contains(" column ") => message[..at].to_owned(),
        _ => message,
    };
    let segments: Vec<&Segment> = path.iter().collect();
    let Some((Segment::Unknown, before)) = segments.split_last() else {
        return (pointer_of(path), message);
    };
    let mut pointer = String::new();
    let mut node = value;
    for segment in before {
        match segment {
            Segment::Seq { index } => {
                pointer.push('/');
                pointer.push_str(&index.to_string());
                node = node.and_then(|node| node.get(*index));
            }
            Segment::Map { key } | Segment::Enum { variant: key } => {
                push_token(&mut pointer, key);
                node = node.and_then(|node| node.get(key.as_str()));
            }
            Segment::Unknown => return (pointer_of(path), message),
        }
    }
    let object = node.and_then(serde_json::Value::as_object);
    let key = object.and_then(|object| {
        if object.len() == 1 {
            return object.keys().next();
        }
        let mut quoted = object.keys().filter(|key| message.contains(&format!("\"{key}\"")));
        match (quoted.next(), quoted.next()) {
            (Some(key), None) => Some(key),
            _ => None,
        }
    });
    match key {
        Some(key) => {
            push_token(&mut pointer, key);
            let message = format!(
                "the property name `{}` is not allowed here: {message}",
                crate::message::shorten(key, 64)
            );
            (pointer, message)
        }
        None => (pointer, format!("a property name is not allowed here: {message}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_escape_tilde_before_slash() {
        assert_eq!(escape_token("plain"), "plain");
        assert!(matches!(escape_token("plain"), Cow::Borrowed(_)));
        assert_eq!(escape_token("a/b~c"), "a~1b~0c");
        // `~1` in a key is `~01`, never read back as `/`.
        assert_eq!(escape_token("~1"), "~01");
        for token in ["plain", "a/b~c", "~1", "~0/", ""] {
            assert_eq!(unescape_token(&escape_token(token)), token);
        }
        let mut pointer = String::new();
        push_token(&mut pointer, "a/b");
        push_token(&mut pointer, "");
        assert_eq!(pointer, "/a~1b/");
    }
}
