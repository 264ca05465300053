//! The text of a rejection, for the model: what was wrong, where, and what would work.
//!
//! Compact and bounded: one line per error (at most [`MAX_LINES`]), each value already cut
//! to the echo limit when the error was built.

use std::fmt;

use crate::error::{Rejection, RejectionKind};

/// Most errors listed in one message; the rest are counted.
pub(crate) const MAX_LINES: usize = 20;

/// Longest key of a path written whole, in characters. A longer one is written as its
/// first [`LONG_KEY_SHOWN`] characters and a count: each line names its path, and a key of a
/// megabyte repeated on every line would make the message the product of the two.
const LONG_KEY_CHARS: usize = 80;

/// How much of a longer key is written.
const LONG_KEY_SHOWN: usize = 40;

/// The text of a rejection lives here rather than beside the type, so that `error.rs` (which
/// every module reaches) imports nothing of the rendering.
impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        render(self, f)
    }
}

fn render(rejection: &Rejection, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    let tool = match &rejection.tool {
        Some(name) => format!("tool `{name}`"),
        None => "the tool".to_owned(),
    };
    let first = rejection.errors.first().map(|e| e.message.as_str()).unwrap_or("");
    match rejection.kind {
        RejectionKind::Parse => write!(
            f,
            "The arguments for {tool} are not valid JSON ({first}). Call the tool again with the arguments as one JSON object."
        ),
        RejectionKind::Truncated => write!(
            f,
            "The tool was not run: {first}. Call {tool} again with the complete arguments; if they are long, make them shorter."
        ),
        RejectionKind::NotObject => {
            write!(f, "The arguments for {tool} were rejected: {first}. Call the tool again with one JSON object.")
        }
        RejectionKind::TooLarge | RejectionKind::TooDeep => {
            write!(f, "The arguments for {tool} were rejected: {first}. Call the tool again with smaller arguments.")
        }
        RejectionKind::Invalid => {
            let count = rejection.errors.len() + rejection.omitted_errors;
            let noun = if count == 1 { "error" } else { "errors" };
            write!(f, "The arguments for {tool} were rejected ({count} {noun}); nothing was run. Fix these and call the tool again:")?;
            let listed = rejection.errors.len().min(MAX_LINES);
            for error in &rejection.errors[..listed] {
                f.write_str("\n- ")?;
                if error.path.is_empty() {
                    f.write_str("(arguments)")?;
                } else {
                    write_path(f, &error.path)?;
                }
                write!(f, ": {}", error.message)?;
            }
            match count - listed {
                0 => {}
                1 => write!(f, "\n- … and 1 more error")?,
                more => write!(f, "\n- … and {more} more errors")?,
            }
            Ok(())
        }
    }
}

/// `path`, a JSON Pointer, with each key longer than [`LONG_KEY_CHARS`] shortened to its
/// start and its length (`/aaaa… (2000 characters)/0`).
fn write_path(f: &mut fmt::Formatter<'_>, path: &str) -> fmt::Result {
    // The root's pointer is empty; every other starts with `/`.
    let Some(tokens) = path.strip_prefix('/') else { return f.write_str(path) };
    for token in tokens.split('/') {
        f.write_str("/")?;
        match token.char_indices().nth(LONG_KEY_CHARS) {
            None => f.write_str(token)?,
            Some(_) => {
                let cut = token.char_indices().nth(LONG_KEY_SHOWN).map_or(token.len(), |(at, _)| at);
                write!(f, "{}… ({} characters)", &token[..cut], token.chars().count())?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(path: &str) -> String {
        struct Shown<'a>(&'a str);
        impl fmt::Display for Shown<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write_path(f, self.0)
            }
        }
        Shown(path).to_string()
    }

    #[test]
    fn a_long_key_is_shortened_in_the_message_only() {
        let long = "k".repeat(2000);
        assert_eq!(shown(&format!("/{long}/0")), format!("/{}… (2000 characters)/0", "k".repeat(40)));
        assert_eq!(shown("/a/0/b"), "/a/0/b");
        assert_eq!(shown(&format!("/{}", "é".repeat(80))), format!("/{}", "é".repeat(80)));
        assert_eq!(shown(&format!("/{}", "é".repeat(81))), format!("/{}… (81 characters)", "é".repeat(40)));
        assert_eq!(shown(""), "");
        assert_eq!(shown("/"), "/");

        let validator = crate::Validator::new(&serde_json::json!({
            "type": "object",
            "additionalProperties": {"type": "array", "items": {"maximum": 5}}
        }))
        .unwrap();
        let rejection = validator.check(&format!(r#"{{"{long}": [9, 9, 9]}}"#)).unwrap_err();
        let text = rejection.to_string();
        assert!(text.len() < 1000, "{text}");
        assert!(text.contains(&format!("- /{}… (2000 characters)/2: ", "k".repeat(40))), "{text}");
        // The error itself keeps the whole pointer.
        assert_eq!(rejection.errors()[2].path(), format!("/{long}/2"));
    }
}
