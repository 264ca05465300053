//! The text of a rejection, for the model: what was wrong, where, and what would work.
//!
//! Compact and bounded: one line per error (at most [`MAX_LINES`]), each value already cut
//! to the echo limit when the error was built.

use std::fmt;

use crate::error::{Rejection, RejectionKind};

/// Most errors listed in one message; the rest are counted.
pub(crate) const MAX_LINES: usize = 20;

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
                let path = if error.path.is_empty() { "(arguments)" } else { error.path.as_str() };
                write!(f, "\n- {path}: {}", error.message)?;
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
