//! Definitions nothing refers to, dropped from a schema before it is sent: after the strict
//! transform has inlined the `$ref`s that had siblings, their targets may be referred to by
//! nothing, and every one of them costs the model's tokens.

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::walk::percent_decode;

/// The keywords that hold a root's definitions.
const DEFINITIONS: [&str; 2] = ["$defs", "definitions"];

/// Remove from the root's `$defs` and `definitions` every entry that nothing outside them
/// refers to, directly or through other entries (a definition referred to only by a
/// removed one goes too); a keyword left empty goes. Returns what was removed, as
/// `(keyword, name)`.
pub(crate) fn prune_definitions(schema: &mut Value) -> Vec<(&'static str, String)> {
    let Value::Object(root) = schema else { return Vec::new() };
    if !DEFINITIONS.iter().any(|keyword| root.contains_key(*keyword)) {
        return Vec::new();
    }
    let mut pending: Vec<_> = target(root).into_iter().collect();
    for (key, value) in root.iter() {
        if !DEFINITIONS.contains(&key.as_str()) {
            referred(value, &mut pending);
        }
    }
    let mut used: HashSet<(&'static str, String)> = HashSet::new();
    while let Some(entry) = pending.pop() {
        if used.contains(&entry) {
            continue;
        }
        if let Some(definition) = root.get(entry.0).and_then(|defs| defs.get(&entry.1)) {
            referred(definition, &mut pending);
        }
        used.insert(entry);
    }
    let mut removed = Vec::new();
    for keyword in DEFINITIONS {
        let Some(Value::Object(entries)) = root.get_mut(keyword) else { continue };
        let unused: Vec<String> =
            entries.keys().filter(|name| !used.contains(&(keyword, (*name).clone()))).cloned().collect();
        for name in unused {
            entries.remove(&name);
            removed.push((keyword, name));
        }
        if entries.is_empty() {
            root.remove(keyword);
        }
    }
    removed
}

/// The root definitions that `$ref`s anywhere in `value` point into (`#/$defs/Item`,
/// `#/definitions/a~1b/properties/x`). Walked without recursion, so no depth of nesting
/// can overflow the stack. A `$ref` in a value (`enum`, `default`) counts too: keeping a
/// definition is harmless, dropping a used one is not.
fn referred(value: &Value, out: &mut Vec<(&'static str, String)>) {
    let mut stack = vec![value];
    while let Some(node) = stack.pop() {
        match node {
            Value::Object(map) => {
                if let Some(entry) = target(map) {
                    out.push(entry);
                }
                stack.extend(map.values());
            }
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
}

/// The root definition a node's local `$ref` points into.
fn target(map: &Map<String, Value>) -> Option<(&'static str, String)> {
    let reference = map.get("$ref")?.as_str()?;
    let pointer = percent_decode(reference.strip_prefix("#/")?);
    let mut tokens = pointer.splitn(3, '/');
    let keyword = tokens.next()?;
    let keyword = DEFINITIONS.into_iter().find(|k| *k == keyword)?;
    let name = tokens.next()?.replace("~1", "/").replace("~0", "~");
    Some((keyword, name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_what_is_referred_to_stays() {
        let mut schema = json!({
            "type": "object",
            "properties": {"seat": {"$ref": "#/$defs/Seat"}, "leg": {"$ref": "#/definitions/a~1b/properties/x"}},
            "$defs": {
                "Seat": {"type": "object", "properties": {"cabin": {"$ref": "#/$defs/Cabin"}}},
                "Cabin": {"enum": ["economy", "business"]},
                "Unused": {"$ref": "#/$defs/OnlyFromUnused"},
                "OnlyFromUnused": {"type": "string"},
                "Cycle": {"items": {"$ref": "#/$defs/Cycle"}}
            },
            "definitions": {"a/b": {"properties": {"x": {}}}, "gone": {}}
        });
        let mut removed = prune_definitions(&mut schema);
        removed.sort();
        assert_eq!(
            removed,
            [
                ("$defs", "Cycle".to_owned()),
                ("$defs", "OnlyFromUnused".to_owned()),
                ("$defs", "Unused".to_owned()),
                ("definitions", "gone".to_owned())
            ]
        );
        assert_eq!(schema["$defs"].as_object().unwrap().len(), 2);
        assert_eq!(schema["definitions"], json!({"a/b": {"properties": {"x": {}}}}));
    }

    #[test]
    fn a_recursive_definition_in_use_stays_and_empty_keywords_go() {
        let mut schema = json!({"$ref": "#/$defs/Node", "$defs": {"Node": {"properties": {
            "next": {"$ref": "#/$defs/Node"}}}}});
        assert!(prune_definitions(&mut schema).is_empty());
        let mut schema = json!({"type": "object", "properties": {}, "$defs": {"A": {}}});
        prune_definitions(&mut schema);
        assert_eq!(schema, json!({"type": "object", "properties": {}}));
        // A percent-encoded reference, and a reference to the root, keep what they reach.
        let mut schema = json!({"properties": {"a": {"$ref": "#/$defs/a%20b"}, "b": {"$ref": "#"}},
            "$defs": {"a b": {}}});
        assert!(prune_definitions(&mut schema).is_empty());
    }

    #[test]
    fn the_strict_transform_sends_no_definition_it_inlined() {
        use crate::dialect::{check_tool, tool_definition, Dialect};
        // A field with a doc comment is a `$ref` with a sibling: strict mode inlines it.
        let schema = json!({
            "type": "object",
            "properties": {
                "cabin": {"$ref": "#/$defs/Cabin", "description": "The cabin."},
                "seat": {"$ref": "#/$defs/Seat", "description": "Where."},
                "return_cabin": {"$ref": "#/$defs/Fare"}
            },
            "required": ["cabin", "seat", "return_cabin"],
            "$defs": {
                "Cabin": {"type": "string", "enum": ["economy", "business"]},
                "Seat": {"type": "object", "properties": {"row": {"$ref": "#/$defs/Row"}}, "minProperties": 1},
                "Row": {"type": "integer"},
                "Fare": {"type": "string", "enum": ["flex", "saver"]}
            }
        });
        let strict = tool_definition("book", None, &schema, Dialect::OpenAiStrict);
        let parameters = &strict["function"]["parameters"];
        assert_eq!(parameters["properties"]["cabin"]["enum"], json!(["economy", "business"]));
        // `Cabin` and `Seat` were inlined; `Row` is still referred to from the inlined seat,
        // `Fare` by a plain `$ref`.
        assert_eq!(parameters["$defs"].as_object().unwrap().keys().collect::<Vec<_>>(), ["Fare", "Row"]);
        assert!(check_tool("book", None, &schema, Dialect::OpenAiStrict).is_empty());
        // Every dialect drops a definition nothing refers to.
        let unused = json!({"type": "object", "properties": {"a": {"type": "string"}}, "$defs": {"Old": {}}});
        for dialect in Dialect::ALL {
            let definition = tool_definition("t", None, &unused, dialect);
            assert!(!definition.to_string().contains("Old"), "{dialect:?}: {definition}");
        }
    }
}
