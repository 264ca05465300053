//! What the text of a call says beyond its value: the order the model wrote the members in,
//! and the keys it gave twice. A parsed [`Value`] keeps neither (its objects are sorted, and
//! a repeated key keeps its last value), so the text is read again, with the incremental
//! parser's member events, only when it matters: a rejection with several errors, or a
//! parse that saw a repeated key.

use std::collections::HashMap;

use serde_json::Value;

use crate::error::FieldError;
use crate::parse::{IncrementalParser, ParseOptions, StreamEvent};

/// A key given twice in one object.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Repeat {
    /// JSON Pointer of the member.
    pub path: String,
    pub first: Value,
    pub second: Value,
}

/// Each completed member and item of `text`, in the order it completes (members of an
/// object before the object): its path, and its value when `values`.
fn completions(text: &str, options: &ParseOptions, values: bool) -> Vec<(String, Option<Value>)> {
    let mut seen = Vec::new();
    let mut parser = IncrementalParser::new(options.clone());
    let _ = parser.feed_with(text, |event| match event {
        StreamEvent::ValueComplete { path, value } => {
            seen.push((path.into_owned(), values.then(|| value.into_owned())));
        }
        // What came before was prose: start again.
        StreamEvent::Restart => seen.clear(),
        StreamEvent::StringGrew { .. } => {}
    });
    seen
}

/// The keys `text` gives twice, outermost only (the members of a repeated object are not
/// listed again), in the order of their second occurrence.
pub(crate) fn repeats(text: &str, options: &ParseOptions) -> Vec<Repeat> {
    let mut first: HashMap<String, Value> = HashMap::new();
    let mut repeats: Vec<Repeat> = Vec::new();
    for (path, value) in completions(text, options, true) {
        let value = value.unwrap_or_default();
        match first.get_mut(&path) {
            Some(earlier) => {
                let earlier = std::mem::replace(earlier, value.clone());
                repeats.push(Repeat { path, first: earlier, second: value });
            }
            None => {
                first.insert(path, value);
            }
        }
    }
    let repeated: Vec<String> = repeats.iter().map(|repeat| repeat.path.clone()).collect();
    repeats.retain(|repeat| {
        !repeated.iter().any(|outer| {
            repeat.path.len() > outer.len()
                && repeat.path.starts_with(outer.as_str())
                && repeat.path.as_bytes()[outer.len()] == b'/'
        })
    });
    repeats
}

/// Sort `errors` in the order the model wrote what they are about: an error at a member it
/// sent where that member is, one about a member it left out (a missing property) after
/// what it sent of the enclosing object. Errors at the same place keep their order.
pub(crate) fn in_document_order(errors: &mut [FieldError], text: &str, options: &ParseOptions) {
    if errors.len() < 2 {
        return;
    }
    // For each path: the first completion at or below it, and its own completion.
    let mut first: HashMap<String, usize> = HashMap::new();
    let mut own: HashMap<String, usize> = HashMap::new();
    for (index, (path, _)) in completions(text, options, false).into_iter().enumerate() {
        let mut end = path.len();
        loop {
            first.entry(path[..end].to_owned()).or_insert(index);
            match path[..end].rfind('/') {
                Some(slash) if slash > 0 => end = slash,
                _ => break,
            }
        }
        own.insert(path, index);
    }
    if first.is_empty() {
        return;
    }
    let rank = |path: &str| -> (usize, usize) {
        if path.is_empty() {
            return (0, 0);
        }
        if let Some(&at) = first.get(path) {
            return (at, 0);
        }
        // Not sent: after the enclosing object the model did send.
        let mut end = path.len();
        while let Some(slash) = path[..end].rfind('/') {
            if slash == 0 {
                break;
            }
            if let Some(&at) = own.get(&path[..slash]) {
                return (at, 1);
            }
            end = slash;
        }
        (usize::MAX, 0)
    };
    errors.sort_by_cached_key(|error| rank(&error.path));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorCode;
    use serde_json::json;

    fn error(path: &str) -> FieldError {
        FieldError {
            path: path.to_owned(),
            code: ErrorCode::Type,
            message: String::new(),
            value: None,
            options: Vec::new(),
            suggestion: None,
        }
    }

    #[test]
    fn errors_follow_the_text() {
        let text = r#"{"z": 1, "b": {"y": 2, "a": 3}, "a": [4, 5]}"#;
        let mut errors: Vec<FieldError> =
            ["/a/1", "/b/a", "/b/missing", "/b/y", "/missing", "/z", "/b"].map(error).into();
        in_document_order(&mut errors, text, &ParseOptions::default());
        let paths: Vec<&str> = errors.iter().map(|e| e.path.as_str()).collect();
        assert_eq!(paths, ["/z", "/b/y", "/b", "/b/a", "/b/missing", "/a/1", "/missing"]);
    }

    #[test]
    fn repeated_keys_are_found_outermost() {
        let text = r#"{"a": 1, "b": {"c": [1], "c": [1]}, "a": 2, "d": {"e": 1}, "d": {"e": 1}}"#;
        let found = repeats(text, &ParseOptions::default());
        let found: Vec<(&str, &Value, &Value)> =
            found.iter().map(|r| (r.path.as_str(), &r.first, &r.second)).collect();
        assert_eq!(
            found,
            [
                ("/b/c", &json!([1]), &json!([1])),
                ("/a", &json!(1), &json!(2)),
                ("/d", &json!({"e": 1}), &json!({"e": 1}))
            ]
        );
        assert!(repeats(r#"{"a": [{"b": 1}, {"b": 2}]}"#, &ParseOptions::default()).is_empty());
    }
}
