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
