//! The Toolbox's `tracing` events (feature `tracing`, on by default; without it these are
//! empty functions and the crate does not depend on `tracing`).
//!
//! Events, all with target `tool_input`, each with `tool` (the registered name, or the name
//! as sent when no tool has it), `call_id` and `format` (the API the call came in:
//! `openai`, `responses`, `anthropic`, `gemini`, `ollama` or `text`; `mcp` for arguments the
//! rmcp adapter checks, whose `arguments accepted` has no normalized `value`: the typed
//! value is not JSON):
//!
//! | level | message | more fields |
//! |---|---|---|
//! | DEBUG | `tool call` | `name_sent`, `matched_by` (see [`MatchedBy`]), `arguments` (raw) |
//! | DEBUG | `arguments accepted` | `repairs`, `coercions`, `arguments` (raw), `value` (normalized) |
//! | INFO | `arguments rejected` | `kind`, `errors` (`path: code: message` each, `; `-separated), `arguments` (raw) |
//! | INFO | `unknown tool` | `name_sent`, `available`, `arguments` (raw) |
//! | INFO | `malformed call` | `name_sent`, `error`, `arguments` (raw) |
//! | WARN | `tool failed` | `error` |
//! | DEBUG | `tool succeeded` | |
//! | WARN | `retry budget spent` | `failures` |
//!
//! **Levels.** A call the model got wrong (arguments that do not parse, are cut off or
//! fail validation, an unknown tool, a call without a name) is ordinary traffic: the model
//! is told and corrects itself. It logs at INFO, so an operator sees it with
//! `tool_input=info` and filters it out with `tool_input=warn`, without losing what does
//! concern the program: a handler's error, and a conversation whose retry budget for a
//! tool is spent (the tool is refused from then on), log at WARN.
//!
//! **Raw arguments** are logged as sent, cut to [`MAX_LOGGED`] characters (the cut is
//! marked with `…`), for every call, including the ones that do not parse, are cut off or
//! name an unknown tool. The values of sensitive fields never appear: for a tool with
//! sensitive fields the arguments are logged from their parsed form with those fields
//! replaced by `"[redacted]"`; when they cannot be parsed into an object, only their length
//! and where reading them failed are logged (`[redacted: 57 bytes, unreadable at byte
//! 12]`), and the message of a syntax error, which quotes the text where reading stopped,
//! is withheld. Repairs, coercions and field errors never carry sensitive values.

use serde_json::{Map, Value};

use crate::calls::{MatchedBy, OriginalArguments};
use crate::error::Rejection;
use crate::parse::{self, ParseError, ParseOptions};
use crate::report::Report;

/// Longest logged arguments or value, in characters.
#[cfg_attr(not(feature = "tracing"), allow(dead_code))]
pub(crate) const MAX_LOGGED: usize = 4096;

/// Which call an event is about.
#[derive(Debug, Clone, Copy)]
#[cfg_attr(not(feature = "tracing"), allow(dead_code))]
pub(crate) struct Subject<'a> {
    /// The registered name, or the name as sent when no tool has it.
    pub tool: &'a str,
    pub call_id: &'a str,
    /// The API the call came in ([`Format::as_str`]), or `mcp`.
    pub format: &'static str,
}

/// `text` cut to [`MAX_LOGGED`] characters, the cut marked with `…`.
#[cfg_attr(not(feature = "tracing"), allow(dead_code))]
pub(crate) fn bounded(text: String) -> String {
    let (mut text, cut) = crate::calls::cut_chars(text, MAX_LOGGED);
    if cut {
        text.push('…');
    }
    text
}

/// `map` with the sensitive fields' values replaced.
fn redact(map: &Map<String, Value>, sensitive: &[String]) -> Value {
    let mut copy = map.clone();
    for name in sensitive {
        if let Some(value) = copy.get_mut(name) {
            *value = Value::from("[redacted]");
        }
    }
    Value::Object(copy)
}

/// The raw arguments as logged: as sent when the tool has no sensitive field; otherwise
/// their parsed form (`parsed`, or read here) with the sensitive fields replaced, or only
/// their length and where reading them failed.
#[cfg_attr(not(feature = "tracing"), allow(dead_code))]
pub(crate) fn raw(
    original: &OriginalArguments,
    parsed: Option<&Map<String, Value>>,
    sensitive: &[String],
) -> String {
    let text = match original {
        OriginalArguments::Absent => String::new(),
        OriginalArguments::Text(text) => text.clone(),
        OriginalArguments::Value(value) => value.to_string(),
    };
    if sensitive.is_empty() {
        return bounded(text);
    }
    if let Some(map) = parsed {
        return bounded(redact(map, sensitive).to_string());
    }
    let sent = match original {
        OriginalArguments::Absent => return String::new(),
        OriginalArguments::Value(Value::Object(map)) => return bounded(redact(map, sensitive).to_string()),
        OriginalArguments::Text(text) | OriginalArguments::Value(Value::String(text)) => text.as_str(),
        OriginalArguments::Value(_) => text.as_str(),
    };
    let failed_at = match parse::parse(sent, &ParseOptions::default()) {
        Ok(parsed) => match parsed.value {
            Value::Object(map) => return bounded(redact(&map, sensitive).to_string()),
            _ => None,
        },
        Err(ParseError::Syntax { offset, .. })
        | Err(ParseError::NumberOutOfRange { offset, .. })
        | Err(ParseError::InvalidUtf8 { offset }) => Some(offset),
        Err(ParseError::Truncated { bytes, .. }) => Some(bytes),
        Err(_) => None,
    };
    match failed_at {
        Some(at) => format!("[redacted: {} bytes, unreadable at byte {at}]", sent.len()),
        None => format!("[redacted: {} bytes, not an object]", sent.len()),
    }
}

/// A normalized value as logged: sensitive fields replaced, cut to [`MAX_LOGGED`].
#[cfg_attr(not(feature = "tracing"), allow(dead_code))]
pub(crate) fn value(value: &Value, sensitive: &[String]) -> String {
    match value {
        Value::Object(map) if !sensitive.is_empty() => bounded(redact(map, sensitive).to_string()),
        other => bounded(other.to_string()),
    }
}

#[cfg(feature = "tracing")]
mod events {
    use super::*;
    use crate::error::RejectionKind;
    use tracing::Level;

    const TARGET: &str = "tool_input";

    pub(crate) fn call(
        at: Subject<'_>,
        name_sent: &str,
        matched_by: Option<MatchedBy>,
        arguments: impl FnOnce() -> String,
    ) {
        if tracing::enabled!(target: TARGET, Level::DEBUG) {
            let arguments = arguments();
            tracing::debug!(
                target: TARGET,
                tool = at.tool,
                call_id = at.call_id,
                format = at.format,
                name_sent,
                matched_by = matched_by.map_or("", MatchedBy::code),
                arguments = arguments.as_str(),
                "tool call"
            );
        }
    }

    /// Is the `arguments accepted` event, which logs the normalized value, listened to?
    pub(crate) fn wants_accepted() -> bool {
        tracing::enabled!(target: TARGET, Level::DEBUG)
    }

    pub(crate) fn accepted(
        at: Subject<'_>,
        report: &Report,
        arguments: impl FnOnce() -> String,
        value: impl FnOnce() -> String,
    ) {
        if !tracing::enabled!(target: TARGET, Level::DEBUG) {
            return;
        }
        let repairs: Vec<String> =
            report.repairs.iter().map(|r| format!("{}×{}", r.kind.code(), r.count)).collect();
        let coercions: Vec<String> =
            report.coercions.iter().map(|c| format!("{}: {}", c.path, c.kind.code())).collect();
        let (arguments, value) = (arguments(), value());
        tracing::debug!(
            target: TARGET,
            tool = at.tool,
            call_id = at.call_id,
            format = at.format,
            repairs = repairs.join(", ").as_str(),
            coercions = coercions.join(", ").as_str(),
            arguments = arguments.as_str(),
            value = value.as_str(),
            "arguments accepted"
        );
    }

    pub(crate) fn rejected(
        at: Subject<'_>,
        rejection: &Rejection,
        sensitive: bool,
        arguments: impl FnOnce() -> String,
    ) {
        if !tracing::enabled!(target: TARGET, Level::INFO) {
            return;
        }
        // A syntax error's message quotes the text it stopped at, which may be a secret.
        let withheld = sensitive && rejection.kind != RejectionKind::Invalid;
        let errors: Vec<String> = rejection
            .errors
            .iter()
            .map(|e| match withheld {
                true => format!(
                    "{}: {}: [message withheld: the tool has sensitive fields]",
                    e.path,
                    e.code.code()
                ),
                false => format!("{}: {}: {}", e.path, e.code.code(), e.message),
            })
            .collect();
        let arguments = arguments();
        tracing::info!(
            target: TARGET,
            tool = at.tool,
            call_id = at.call_id,
            format = at.format,
            kind = rejection.kind.code(),
            errors = bounded(errors.join("; ")).as_str(),
            arguments = arguments.as_str(),
            "arguments rejected"
        );
    }

    pub(crate) fn failed(at: Subject<'_>, error: &str) {
        tracing::warn!(
            target: TARGET,
            tool = at.tool,
            call_id = at.call_id,
            format = at.format,
            error,
            "tool failed"
        );
    }

    pub(crate) fn succeeded(at: Subject<'_>) {
        tracing::debug!(
            target: TARGET,
            tool = at.tool,
            call_id = at.call_id,
            format = at.format,
            "tool succeeded"
        );
    }

    pub(crate) fn unknown(
        at: Subject<'_>,
        name_sent: &str,
        available: &[String],
        arguments: impl FnOnce() -> String,
    ) {
        if !tracing::enabled!(target: TARGET, Level::INFO) {
            return;
        }
        let arguments = arguments();
        tracing::info!(
            target: TARGET,
            tool = at.tool,
            call_id = at.call_id,
            format = at.format,
            name_sent,
            available = available.join(", ").as_str(),
            arguments = arguments.as_str(),
            "unknown tool"
        );
    }

    pub(crate) fn malformed(
        at: Subject<'_>,
        name_sent: &str,
        error: &str,
        arguments: impl FnOnce() -> String,
    ) {
        if !tracing::enabled!(target: TARGET, Level::INFO) {
            return;
        }
        let arguments = arguments();
        tracing::info!(
            target: TARGET,
            tool = at.tool,
            call_id = at.call_id,
            format = at.format,
            name_sent,
            error,
            arguments = arguments.as_str(),
            "malformed call"
        );
    }

    pub(crate) fn budget_spent(at: Subject<'_>, failures: u32) {
        tracing::warn!(
            target: TARGET,
            tool = at.tool,
            call_id = at.call_id,
            format = at.format,
            failures,
            "retry budget spent"
        );
    }
}

#[cfg(not(feature = "tracing"))]
mod events {
    use super::*;

    pub(crate) fn call(_: Subject<'_>, _: &str, _: Option<MatchedBy>, _: impl FnOnce() -> String) {}
    pub(crate) fn wants_accepted() -> bool {
        false
    }
    pub(crate) fn accepted(
        _: Subject<'_>,
        _: &Report,
        _: impl FnOnce() -> String,
        _: impl FnOnce() -> String,
    ) {
    }
    pub(crate) fn rejected(_: Subject<'_>, _: &Rejection, _: bool, _: impl FnOnce() -> String) {}
    pub(crate) fn failed(_: Subject<'_>, _: &str) {}
    pub(crate) fn succeeded(_: Subject<'_>) {}
    pub(crate) fn unknown(_: Subject<'_>, _: &str, _: &[String], _: impl FnOnce() -> String) {}
    pub(crate) fn malformed(_: Subject<'_>, _: &str, _: &str, _: impl FnOnce() -> String) {}
    pub(crate) fn budget_spent(_: Subject<'_>, _: u32) {}
}

pub(crate) use events::*;

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn raw_arguments_are_bounded_and_redacted() {
        let sensitive = vec!["password".to_owned()];
        let text = |t: &str| OriginalArguments::Text(t.to_owned());
        // No sensitive field: as sent, cut and marked.
        let long = "x".repeat(MAX_LOGGED + 10);
        let logged = raw(&text(&long), None, &[]);
        assert_eq!(logged.chars().count(), MAX_LOGGED + 1);
        assert!(logged.ends_with('…'));
        assert_eq!(raw(&text("{'a': 1"), None, &[]), "{'a': 1");
        // Sensitive, readable: redacted from the parsed form, even when not parsed before.
        let logged = raw(&text(r#"{"user": "ann", "password": "hunter2"}"#), None, &sensitive);
        assert!(logged.contains("[redacted]") && !logged.contains("hunter2"), "{logged}");
        let logged = raw(&OriginalArguments::Value(json!({"password": "hunter2"})), None, &sensitive);
        assert!(!logged.contains("hunter2"), "{logged}");
        // Sensitive, unreadable: length and where it failed only.
        assert_eq!(
            raw(&text(r#"{"password": "hunter2"#), None, &sensitive),
            "[redacted: 21 bytes, unreadable at byte 21]"
        );
        assert_eq!(
            raw(&text(r#"{"password": hunter2 x}"#), None, &sensitive),
            "[redacted: 23 bytes, unreadable at byte 13]"
        );
        assert_eq!(raw(&text(r#""hunter2""#), None, &sensitive), "[redacted: 9 bytes, not an object]");
        // Compared as JSON: the key order is serde_json's (`preserve_order` may be on).
        let logged: Value =
            serde_json::from_str(&value(&json!({"password": "p", "n": 1}), &sensitive)).unwrap();
        assert_eq!(logged, json!({"n": 1, "password": "[redacted]"}));
    }
}
