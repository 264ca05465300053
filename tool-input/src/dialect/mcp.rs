//! The Model Context Protocol's `Tool`: `{"name", "description", "inputSchema"}`.

use serde_json::{Map, Value};

use super::{Dialect, NameRule, ProblemCode, Problems};

/// The `inputSchema`: the root must say `"type": "object"`; a tool without arguments gets
/// the schema the specification recommends, `{"type": "object", "additionalProperties": false}`.
pub(super) fn input_schema(schema: Value) -> Value {
    match schema {
        Value::Object(map) if map.is_empty() => {
            serde_json::json!({"type": "object", "additionalProperties": false})
        }
        Value::Bool(true) | Value::Null => {
            let mut map = Map::new();
            map.insert("type".to_owned(), Value::from("object"));
            Value::Object(map)
        }
        other => other,
    }
}

/// Check a tool: a name of 1 to 128 characters of `[A-Za-z0-9_.-]`, and an object schema at
/// the root of `inputSchema`.
pub(super) fn check(definition: &Value, problems: &mut Problems) {
    let name = definition.get("name").and_then(Value::as_str).unwrap_or("");
    if !NameRule::of(Dialect::Mcp).allows(name) {
        problems.push(
            "/name",
            ProblemCode::Name,
            format!("the name `{name}` must be 1 to 128 characters of A-Z, a-z, 0-9, _, - and ."),
        );
    }
    if definition.get("inputSchema").and_then(|s| s.get("type")).and_then(Value::as_str) != Some("object") {
        problems.push(
            "/inputSchema",
            ProblemCode::RootNotObject,
            "`inputSchema` must be a schema of `\"type\": \"object\"`",
        );
    }
}
