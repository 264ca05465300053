//! The Toolbox's `tracing` events (feature `tracing`, on by default; without it these are
//! empty functions and the crate does not depend on `tracing`).
//!
//! Events, all with target `tool_input`:
//!
//! | level | message | fields |
//! |---|---|---|
//! | DEBUG | `tool call` | `tool`, `call_id`, `arguments` (raw, sensitive fields redacted) |
//! | DEBUG | `arguments accepted` | `tool`, `call_id`, `repairs`, `coercions` |
//! | WARN | `arguments rejected` | `tool`, `call_id`, `kind`, `errors` (`path: code` each) |
//! | WARN | `tool failed` | `tool`, `call_id`, `error` |
//! | DEBUG | `tool succeeded` | `tool`, `call_id` |
//! | WARN | `unknown tool` | `tool`, `call_id`, `available` |
//! | WARN | `malformed call` | `call_id`, `error` |
//! | WARN | `retry budget spent` | `tool`, `call_id`, `failures` |
//!
//! The values of sensitive fields never appear: the arguments are logged from their parsed
//! form with those fields replaced by `"[redacted]"`, and repairs, coercions and field
//! errors never carry them.

use serde_json::{Map, Value};

use crate::calls::OriginalArguments;
use crate::error::Rejection;
use crate::report::Report;

/// Longest logged arguments, in characters.
#[cfg_attr(not(feature = "tracing"), allow(dead_code))]
const MAX_LOGGED: usize = 4096;

/// The raw arguments as logged: as sent when the tool has no sensitive field; otherwise
/// their parsed form with the sensitive fields replaced.
#[cfg_attr(not(feature = "tracing"), allow(dead_code))]
pub(super) fn redacted(
    parsed: &Map<String, Value>,
    original: &OriginalArguments,
    sensitive: &[String],
) -> String {
    let text = if sensitive.is_empty() {
        match original {
            OriginalArguments::Absent => String::new(),
            OriginalArguments::Text(text) => text.clone(),
            OriginalArguments::Value(value) => value.to_string(),
        }
    } else {
        let mut copy = parsed.clone();
        for name in sensitive {
            if let Some(value) = copy.get_mut(name) {
                *value = Value::from("[redacted]");
            }
        }
        Value::Object(copy).to_string()
    };
    if text.chars().count() > MAX_LOGGED {
        let mut cut: String = text.chars().take(MAX_LOGGED).collect();
        cut.push('…');
        cut
    } else {
        text
    }
}

#[cfg(feature = "tracing")]
mod events {
    use super::*;

    const TARGET: &str = "tool_input";

    pub(crate) fn call(tool: &str, call_id: &str, arguments: impl FnOnce() -> String) {
        if tracing::enabled!(target: TARGET, tracing::Level::DEBUG) {
            let arguments = arguments();
            tracing::debug!(target: TARGET, tool, call_id, arguments = arguments.as_str(), "tool call");
        }
    }

    pub(crate) fn accepted(tool: &str, call_id: &str, report: &Report) {
        if report.is_clean() {
            return;
        }
        let repairs: Vec<String> =
            report.repairs.iter().map(|r| format!("{}×{}", r.kind.code(), r.count)).collect();
        let coercions: Vec<String> =
            report.coercions.iter().map(|c| format!("{}: {}", c.path, c.kind.code())).collect();
        tracing::debug!(
            target: TARGET,
            tool,
            call_id,
            repairs = repairs.join(", ").as_str(),
            coercions = coercions.join(", ").as_str(),
            "arguments accepted"
        );
    }

    pub(crate) fn rejected(tool: &str, call_id: &str, rejection: &Rejection) {
        let errors: Vec<String> =
            rejection.errors.iter().map(|e| format!("{}: {}", e.path, e.code.code())).collect();
        tracing::warn!(
            target: TARGET,
            tool,
            call_id,
            kind = rejection.kind.code(),
            errors = errors.join(", ").as_str(),
            "arguments rejected"
        );
    }

    pub(crate) fn failed(tool: &str, call_id: &str, error: &str) {
        tracing::warn!(target: TARGET, tool, call_id, error, "tool failed");
    }

    pub(crate) fn succeeded(tool: &str, call_id: &str) {
        tracing::debug!(target: TARGET, tool, call_id, "tool succeeded");
    }

    pub(crate) fn unknown(tool: &str, call_id: &str, available: &[String]) {
        tracing::warn!(target: TARGET, tool, call_id, available = available.join(", ").as_str(), "unknown tool");
    }

    pub(crate) fn malformed(call_id: &str, error: &str) {
        tracing::warn!(target: TARGET, call_id, error, "malformed call");
    }

    pub(crate) fn budget_spent(tool: &str, call_id: &str, failures: u32) {
        tracing::warn!(target: TARGET, tool, call_id, failures, "retry budget spent");
    }
}

#[cfg(not(feature = "tracing"))]
mod events {
    use super::*;

    pub(crate) fn call(_: &str, _: &str, _: impl FnOnce() -> String) {}
    pub(crate) fn accepted(_: &str, _: &str, _: &Report) {}
    pub(crate) fn rejected(_: &str, _: &str, _: &Rejection) {}
    pub(crate) fn failed(_: &str, _: &str, _: &str) {}
    pub(crate) fn succeeded(_: &str, _: &str) {}
    pub(crate) fn unknown(_: &str, _: &str, _: &[String]) {}
    pub(crate) fn malformed(_: &str, _: &str) {}
    pub(crate) fn budget_spent(_: &str, _: &str, _: u32) {}
}

pub(crate) use events::*;
