//! Anthropic's tool: `{"name", "description", "input_schema"}`.

use serde_json::Value;

use super::{Dialect, NameRule, ProblemCode, Problems};

/// Check a tool definition: its name, and an object schema at the root of `input_schema`.
pub(super) fn check(definition: &Value, problems: &mut Problems) {
    let name = definition.get("name").and_then(Value::as_str).unwrap_or("");
    if !NameRule::of(Dialect::Anthropic).allows(name) {
        problems.push(
            "/name",
            ProblemCode::Name,
            format!("the name `{name}` must match ^[a-zA-Z0-9_-]{{1,64}}$"),
        );
    }
    let schema = definition.get("input_schema");
    if schema.and_then(|s| s.get("type")).and_then(Value::as_str) != Some("object") {
        problems.push(
            "/input_schema",
            ProblemCode::RootNotObject,
            "`input_schema` must be a schema of `\"type\": \"object\"`",
        );
    }
    // The API refuses these (400: "input_schema does not support oneOf, allOf, or anyOf at
    // the top level"); a root union of object forms is written as one object on export.
    for keyword in ["oneOf", "allOf", "anyOf"] {
        if schema.and_then(|s| s.get(keyword)).is_some() {
            problems.push(
                &format!("/input_schema/{keyword}"),
                ProblemCode::UnsupportedKeyword,
                format!("`input_schema` may not have `{keyword}` at the top level"),
            );
        }
    }
}
