//! Small read-only helpers over JSON Schema documents: local `$ref`s, declared types,
//! whether null is accepted. Bounded: reference chains and nesting are cut off at a fixed
//! depth, so a cyclic or hostile schema cannot loop.

pub(crate) use crate::pointer::escape_token as escape;
use serde_json::Value;

/// Longest chain of `$ref`s followed, and deepest nesting looked into.
pub(crate) const MAX_DEPTH: usize = 64;

/// The target of a local reference (`#`, `#/$defs/Item`), or `None`.
pub(crate) fn lookup_ref<'s>(root: &'s Value, reference: &str) -> Option<&'s Value> {
    let pointer = reference.strip_prefix('#')?;
    if pointer.is_empty() {
        return Some(root);
    }
    let decoded = percent_decode(pointer);
    root.pointer(&decoded)
}

pub(crate) fn percent_decode(pointer: &str) -> String {
    if !pointer.contains('%') {
        return pointer.to_owned();
    }
    let bytes = pointer.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = |b: u8| (b as char).to_digit(16);
            if let (Some(high), Some(low)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((high * 16 + low) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| pointer.to_owned())
}

/// Follow `$ref`s from `schema` to the schema that says something itself.
pub(crate) fn resolve<'s>(root: &'s Value, mut schema: &'s Value) -> &'s Value {
    for _ in 0..MAX_DEPTH {
        match schema.get("$ref").and_then(Value::as_str).and_then(|r| lookup_ref(root, r)) {
            Some(target) => schema = target,
            None => break,
        }
    }
    schema
}

/// The schema of a top-level property.
pub(crate) fn property_schema<'s>(root: &'s Value, key: &str) -> Option<&'s Value> {
    let object = resolve(root, root);
    object.get("properties")?.get(key).map(|schema| resolve(root, schema))
}

/// A set of JSON types: the engine's own.
pub(crate) use crate::plan::Types;

/// The types a schema declares: its `type`, the types of its `enum`/`const` values, and
/// the union over `anyOf`/`oneOf` branches. Empty when it says nothing (any value).
pub(crate) fn declared_types(root: &Value, schema: &Value) -> Types {
    declared(root, schema, 0)
}

fn declared(root: &Value, schema: &Value, depth: usize) -> Types {
    let schema = resolve(root, schema);
    let mut types = Types::default();
    if depth > MAX_DEPTH {
        return types;
    }
    match schema.get("type") {
        Some(Value::String(name)) => types.insert(Types::from_name(name).unwrap_or_default()),
        Some(Value::Array(names)) => {
            for name in names.iter().filter_map(Value::as_str) {
                types.insert(Types::from_name(name).unwrap_or_default());
            }
        }
        _ => {}
    }
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        for value in values {
            types.insert(Types::of(value));
        }
    }
    if let Some(value) = schema.get("const") {
        types.insert(Types::of(value));
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(branches) = schema.get(key).and_then(Value::as_array) {
            for branch in branches {
                types.insert(declared(root, branch, depth + 1));
            }
        }
    }
    types
}

/// Does the schema accept `null`? When unsure (a schema that says nothing, `not`,
/// keywords we do not read), yes: callers use this to decide whether a null may be dropped,
/// and keeping a null only leaves the decision to the validator.
pub(crate) fn accepts_null(root: &Value, schema: &Value) -> bool {
    accepts_null_at(root, schema, 0)
}

fn accepts_null_at(root: &Value, schema: &Value, depth: usize) -> bool {
    if depth > MAX_DEPTH {
        return true;
    }
    let schema = resolve(root, schema);
    let Value::Object(map) = schema else { return schema.as_bool() != Some(false) };
    if map.get("nullable").and_then(Value::as_bool) == Some(true) {
        return true;
    }
    if let Some(types) = map.get("type") {
        let null = match types {
            Value::String(name) => name == "null",
            Value::Array(names) => names.iter().any(|name| name == "null"),
            _ => true,
        };
        if !null {
            return false;
        }
    }
    if let Some(values) = map.get("enum").and_then(Value::as_array) {
        if !values.iter().any(Value::is_null) {
            return false;
        }
    }
    if let Some(value) = map.get("const") {
        if !value.is_null() {
            return false;
        }
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(branches) = map.get(key).and_then(Value::as_array) {
            if !branches.iter().any(|branch| accepts_null_at(root, branch, depth + 1)) {
                return false;
            }
        }
    }
    if let Some(branches) = map.get("allOf").and_then(Value::as_array) {
        if !branches.iter().all(|branch| accepts_null_at(root, branch, depth + 1)) {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn references_types_and_null() {
        let root = json!({
            "type": "object",
            "properties": {
                "priority": {"$ref": "#/$defs/Priority"},
                "note": {"type": ["string", "null"]},
                "count": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
                "tag": {"const": "x"}
            },
            "$defs": {"Priority": {"type": "string", "enum": ["low", "high"]}}
        });
        let priority = property_schema(&root, "priority").unwrap();
        assert_eq!(priority["enum"][0], "low");
        assert_eq!(declared_types(&root, priority), Types::STRING);
        assert!(!accepts_null(&root, priority));
        assert!(accepts_null(&root, property_schema(&root, "note").unwrap()));
        let count = property_schema(&root, "count").unwrap();
        assert!(accepts_null(&root, count));
        assert!(declared_types(&root, count).contains(Types::INTEGER));
        assert!(!accepts_null(&root, property_schema(&root, "tag").unwrap()));
        assert!(accepts_null(&root, &json!({})));
        let cyclic = json!({"$ref": "#"});
        assert!(declared_types(&cyclic, &cyclic).is_empty());
        assert_eq!(lookup_ref(&json!({"$defs": {"a b": 1}}), "#/$defs/a%20b"), Some(&json!(1)));
    }
}
