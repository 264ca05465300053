//! Pieces of model-facing messages: values echoed compactly and bounded, lists of options,
//! did-you-mean suggestions.

use serde_json::Value;

/// A value as compact JSON, cut to about `max` characters: a 50 KB bad value is never
/// echoed back whole.
pub(crate) fn echo(value: &Value, max: usize) -> String {
    let text = match value {
        Value::String(text) => return echo_str(text, max),
        // Containers can be huge: serialise them only as far as needed.
        Value::Array(_) | Value::Object(_) => {
            let mut writer = Bounded { text: String::new(), limit: max.saturating_mul(4).max(64) };
            let _ = serde_json::to_writer(&mut writer, value);
            writer.text
        }
        other => other.to_string(),
    };
    shorten(&text, max)
}

/// [`echo`] of a string: `shorten(&Value::String(text).to_string(), max)` without escaping
/// and counting the whole string into a buffer first (models send long strings, and every
/// coercion of one records it).
fn echo_str(text: &str, max: usize) -> String {
    let mut out = String::with_capacity(text.len().min(max.saturating_mul(4)) + 2);
    // Characters of the escaped text, quotes included.
    let mut count = 0usize;
    let mut push = |c: char| {
        if count < max {
            out.push(c);
        }
        count += 1;
    };
    push('"');
    for c in text.chars() {
        // serde_json's escapes: the quote, the backslash, and the control characters.
        let short = match c {
            '"' => '"',
            '\\' => '\\',
            '\n' => 'n',
            '\r' => 'r',
            '\t' => 't',
            '\u{8}' => 'b',
            '\u{c}' => 'f',
            c if c < ' ' => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                let byte = c as u32 as usize;
                for e in ['\\', 'u', '0', '0', char::from(HEX[byte >> 4]), char::from(HEX[byte & 0xf])] {
                    push(e);
                }
                continue;
            }
            c => {
                push(c);
                continue;
            }
        };
        push('\\');
        push(short);
    }
    push('"');
    if count <= max {
        out
    } else {
        format!("{out}… ({count} characters)")
    }
}

/// `text` cut to `max` characters, with how long it was.
pub(crate) fn shorten(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => text.to_owned(),
        Some((cut, _)) => format!("{}… ({} characters)", &text[..cut], text.chars().count()),
    }
}

/// How a value is named in a message: `"abc"`, `2.5`, `an object`; or just its kind when
/// the value must not be shown.
pub(crate) fn describe(value: &Value, shown: bool, max: usize) -> String {
    match (value, shown) {
        (Value::Array(items), _) if items.len() == 1 => "an array of 1 item".to_owned(),
        (Value::Array(items), _) => format!("an array of {} items", items.len()),
        (Value::Object(_), _) => "an object".to_owned(),
        (Value::Null, _) => "null".to_owned(),
        (value, true) => echo(value, max),
        (Value::String(_), false) => "a string".to_owned(),
        (Value::Number(_), false) => "a number".to_owned(),
        (Value::Bool(_), false) => "a boolean".to_owned(),
    }
}

/// The JSON type of a value with its article: "an array", "a string".
pub(crate) fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// `"low", "medium", "high"`, at most `limit` entries.
pub(crate) fn quoted_list(options: &[Value], limit: usize, max: usize) -> String {
    let mut list: Vec<String> = options.iter().take(limit).map(|v| echo(v, max)).collect();
    if options.len() > limit {
        list.push(format!("… ({} in all)", options.len()));
    }
    list.join(", ")
}

/// The candidate closest to `text`, if it is close enough to be a likely typo: similar
/// spelling (Jaro-Winkler at least 0.8), the same words in another case or separator style
/// (`shipBy`, `ship-by` for `ship_by`), or an abbreviation (`qty` for `quantity`).
pub(crate) fn closest<'a>(text: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let wanted = text.to_lowercase();
    let squashed = squash(text);
    let mut best: Option<(&str, f64)> = None;
    for candidate in candidates {
        let lower = candidate.to_lowercase();
        let mut score = strsim::jaro_winkler(&wanted, &lower);
        if squash(candidate) == squashed {
            score = 2.0;
        } else if is_abbreviation(&wanted, &lower) {
            score = score.max(0.85);
        }
        if score >= 0.8 && best.is_none_or(|(_, s)| score > s) {
            best = Some((candidate, score));
        }
    }
    best.map(|(candidate, _)| candidate)
}

/// Lowercase letters and digits only.
fn squash(text: &str) -> String {
    text.chars().filter(char::is_ascii_alphanumeric).map(|c| c.to_ascii_lowercase()).collect()
}

/// `qty` of `quantity`: at least three characters, the same first one, all in order.
fn is_abbreviation(short: &str, long: &str) -> bool {
    if short.chars().count() < 3 || short.len() >= long.len() || short.chars().next() != long.chars().next() {
        return false;
    }
    let mut rest = long.chars();
    short.chars().all(|c| rest.any(|d| d == c))
}

/// A `fmt::Write` that stops accepting text past a limit (the serializer then fails,
/// which ends the serialisation early).
struct Bounded {
    text: String,
    limit: usize,
}

impl std::io::Write for Bounded {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.text.len() >= self.limit {
            return Err(std::io::Error::other("echo limit reached"));
        }
        self.text.push_str(&String::from_utf8_lossy(buf));
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn strings_are_echoed_as_their_json_text_cut() {
        let cases = [
            "",
            "plain",
            "quote \" and backslash \\ and \n\r\t\u{8}\u{c} and \u{1} \u{1f} \u{7f}",
            "ünïcödé 日本語 🎉 and more text to go past the limit of the echo, for sure",
            "\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}",
        ];
        for text in cases {
            for max in [0, 1, 2, 5, 10, 20, 80, 1000] {
                let value = Value::String(text.to_owned());
                assert_eq!(echo_str(text, max), shorten(&value.to_string(), max), "{text:?} {max}");
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn any_string_is_echoed_as_its_json_text_cut(text in "\\PC*|[\\x00-\\x20\"\\\\a-c]*", max in 0usize..40) {
            let value = Value::String(text.clone());
            proptest::prop_assert_eq!(echo_str(&text, max), shorten(&value.to_string(), max));
        }
    }

    #[test]
    fn long_values_are_cut() {
        let long = Value::String("x".repeat(50_000));
        let shown = echo(&long, 20);
        assert!(shown.len() < 60, "{shown}");
        assert!(shown.ends_with("(50002 characters)"), "{shown}");
        let big = json!(vec![1; 100_000]);
        assert!(echo(&big, 20).len() < 60);
    }

    #[test]
    fn suggestions_need_similarity() {
        let names = ["color", "size", "quantity"];
        assert_eq!(closest("colour", names.iter().copied()), Some("color"));
        assert_eq!(closest("quantiy", names.iter().copied()), Some("quantity"));
        assert_eq!(closest("weight", names.iter().copied()), None);
        assert_eq!(closest("qty", names.iter().copied()), Some("quantity"));
        assert_eq!(closest("shipBy", ["ship_by", "shape"].iter().copied()), Some("ship_by"));
        assert_eq!(closest("xyz", names.iter().copied()), None);
    }
}
