//! Gemini's `FunctionDeclaration`: the OpenAPI 3.0 subset of `Schema`, and its check.

use serde_json::{Map, Value};

use super::walk::{escape, lookup_ref, MAX_DEPTH};
use super::{ProblemCode, Problems};

/// The fields of Gemini's `Schema` (python-genai `types.Schema`), less `additionalProperties`,
/// `$ref` and `$defs`, which requests are rejected for in practice.
const KEYWORDS: &[&str] = &[
    "type",
    "format",
    "title",
    "description",
    "nullable",
    "enum",
    "items",
    "minItems",
    "maxItems",
    "properties",
    "required",
    "minProperties",
    "maxProperties",
    "minLength",
    "maxLength",
    "pattern",
    "example",
    "anyOf",
    "propertyOrdering",
    "default",
    "minimum",
    "maximum",
];

/// The keywords copied as they are.
const COPIED: &[&str] = &[
    "title",
    "description",
    "minItems",
    "maxItems",
    "minProperties",
    "maxProperties",
    "minLength",
    "maxLength",
    "pattern",
    "minimum",
    "maximum",
    "example",
    "propertyOrdering",
];

const TYPES: &[&str] = &["STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL"];

/// Most schema nodes inlining may create (a schema whose `$ref`s fan out cannot explode):
/// far past any function declaration Gemini takes. (At 100,000, definitions of a few hundred
/// bytes that each refer to the next twice built 120 MB before stopping.)
const MAX_NODES: usize = 10_000;

/// The formats Gemini accepts for a type.
fn formats(kind: &str) -> &'static [&'static str] {
    match kind.to_ascii_uppercase().as_str() {
        "STRING" => &["enum", "date-time"],
        "NUMBER" => &["float", "double"],
        "INTEGER" => &["int32", "int64"],
        _ => &[],
    }
}

/// The `parameters` of a declaration, or `None` for a tool without properties.
pub(super) fn schema(schema: &Value, pointer: &str, problems: &mut Problems) -> Option<Value> {
    let mut budget = MAX_NODES;
    let mut stack = Vec::new();
    let out = convert(schema, schema, pointer, 0, &mut stack, &mut budget, problems);
    let has_properties = out.get("properties").and_then(Value::as_object).is_some_and(|p| !p.is_empty());
    let object = matches!(out.get("type").and_then(Value::as_str), None | Some("OBJECT"));
    if !has_properties && object && !out.contains_key("anyOf") {
        return None;
    }
    Some(Value::Object(out))
}

fn convert<'s>(
    node: &'s Value,
    root: &'s Value,
    pointer: &str,
    depth: usize,
    stack: &mut Vec<&'s str>,
    budget: &mut usize,
    problems: &mut Problems,
) -> Map<String, Value> {
    let mut out = Map::new();
    if depth > MAX_DEPTH || *budget == 0 {
        problems.push(
            pointer,
            ProblemCode::TooDeep,
            "the schema is nested too deeply (or inlines too much) to write for Gemini",
        );
        return out;
    }
    *budget -= 1;
    let Value::Object(map) = node else { return out };

    if let Some(reference) = map.get("$ref").and_then(Value::as_str) {
        if stack.contains(&reference) {
            problems.push(
                pointer,
                ProblemCode::Unrepresentable,
                format!("the schema refers to itself through `{reference}`; Gemini needs every `$ref` inlined, so a recursive schema cannot be written"),
            );
            return out;
        }
        let Some(target) = lookup_ref(root, reference) else {
            problems.push(pointer, ProblemCode::Unrepresentable, format!("`{reference}` does not resolve"));
            return out;
        };
        stack.push(reference);
        out = convert(target, root, pointer, depth + 1, stack, budget, problems);
        stack.pop();
        for key in ["title", "description"] {
            if let Some(value) = map.get(key) {
                out.insert(key.to_owned(), value.clone());
            }
        }
        return out;
    }

    let mut nullable = map.get("nullable").and_then(Value::as_bool) == Some(true);
    let mut types: Vec<String> = match map.get("type") {
        Some(Value::String(name)) => vec![name.clone()],
        Some(Value::Array(names)) => names.iter().filter_map(Value::as_str).map(str::to_owned).collect(),
        _ => Vec::new(),
    };
    if types.iter().any(|name| name == "null") {
        nullable = true;
        types.retain(|name| name != "null");
    }

    if let Some(all) = map.get("allOf").and_then(Value::as_array) {
        for (i, branch) in all.iter().enumerate() {
            let part =
                convert(branch, root, &format!("{pointer}/allOf/{i}"), depth + 1, stack, budget, problems);
            merge_into(&mut out, part);
        }
    }

    let mut alternatives = Vec::new();
    for key in ["anyOf", "oneOf"] {
        for (i, branch) in map.get(key).and_then(Value::as_array).into_iter().flatten().enumerate() {
            let converted =
                convert(branch, root, &format!("{pointer}/{key}/{i}"), depth + 1, stack, budget, problems);
            if is_null_only(&converted) {
                nullable = true;
            } else {
                alternatives.push(converted);
            }
        }
    }
    match alternatives.len() {
        0 => {}
        1 => merge_into(&mut out, alternatives.remove(0)),
        _ => {
            out.insert(
                "anyOf".to_owned(),
                Value::Array(alternatives.into_iter().map(Value::Object).collect()),
            );
        }
    }

    let values = match (map.get("enum"), map.get("const")) {
        (Some(Value::Array(values)), _) => Some(values.clone()),
        (_, Some(value)) => Some(vec![value.clone()]),
        _ => None,
    };
    let mut stringified = false;
    if let Some(values) = values {
        if values.iter().any(Value::is_null) {
            nullable = true;
        }
        let values: Vec<&Value> = values.iter().filter(|v| !v.is_null()).collect();
        // Gemini's enums are strings only: other values are written as their JSON text,
        // and read back by `check_as`.
        stringified = !values.iter().all(|v| v.is_string());
        let strings = values.iter().map(|v| Value::String(text_of(v))).collect();
        out.insert("enum".to_owned(), Value::Array(strings));
        types = vec!["string".to_owned()];
    }

    // A list of types is written as a union of one branch a type: what the schema says of
    // objects and arrays then goes into the branch of that type (`place`).
    let mut types_as_branches = false;
    match types.len() {
        0 => {}
        1 => {
            out.insert("type".to_owned(), Value::String(types[0].to_ascii_uppercase()));
        }
        _ if out.contains_key("anyOf") => problems.push(
            pointer,
            ProblemCode::Unrepresentable,
            "a list of types beside `anyOf` cannot be written for Gemini",
        ),
        _ => {
            let branches =
                types.iter().map(|name| serde_json::json!({"type": name.to_ascii_uppercase()})).collect();
            out.insert("anyOf".to_owned(), Value::Array(branches));
            types_as_branches = true;
        }
    }

    for key in COPIED {
        if let Some(value) = map.get(*key) {
            out.insert((*key).to_owned(), value.clone());
        }
    }
    if !out.contains_key("example") {
        if let Some(first) = map.get("examples").and_then(Value::as_array).and_then(|e| e.first()) {
            out.insert("example".to_owned(), first.clone());
        }
    }
    if let Some(default) = map.get("default").filter(|d| !d.is_null() && !stringified) {
        out.insert("default".to_owned(), default.clone());
    }
    if let (Some(format), Some(kind)) =
        (map.get("format").and_then(Value::as_str), out.get("type").and_then(Value::as_str))
    {
        if formats(kind).contains(&format) {
            out.insert("format".to_owned(), Value::from(format));
        }
    }

    if let Some(properties) = map.get("properties").and_then(Value::as_object) {
        let mut converted = Map::new();
        for (name, property) in properties {
            let at = format!("{pointer}/properties/{}", escape(name));
            converted.insert(
                name.clone(),
                Value::Object(convert(property, root, &at, depth + 1, stack, budget, problems)),
            );
        }
        if !converted.is_empty() {
            let required: Vec<Value> = map
                .get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter(|name| name.as_str().is_some_and(|name| converted.contains_key(name)))
                .cloned()
                .collect();
            let mut object = Map::from_iter([("properties".to_owned(), Value::Object(converted))]);
            if !required.is_empty() {
                object.insert("required".to_owned(), Value::Array(required));
            }
            if place(&mut out, "OBJECT", object, types_as_branches) {
                out.entry("type").or_insert_with(|| Value::from("OBJECT"));
            }
        }
    }
    if let Some(items @ Value::Object(_)) = map.get("items") {
        let converted = convert(items, root, &format!("{pointer}/items"), depth + 1, stack, budget, problems);
        place(
            &mut out,
            "ARRAY",
            Map::from_iter([("items".to_owned(), Value::Object(converted))]),
            types_as_branches,
        );
    }
    if types_as_branches {
        // Each ARRAY branch needs its `items` too (below).
        for branch in out.get_mut("anyOf").and_then(Value::as_array_mut).into_iter().flatten() {
            if let Value::Object(branch) = branch {
                if branch.get("type").and_then(Value::as_str) == Some("ARRAY") {
                    branch.entry("items").or_insert_with(|| Value::Object(Map::new()));
                }
            }
        }
    }
    // Gemini refuses an ARRAY without `items` (400, "items: missing field"): a tuple's
    // `prefixItems`, which it lacks, become one schema for every item (an `anyOf` where they
    // differ), and an array of anything (`items: true` or none) gets `{}`. The original
    // schema still decides each position.
    if out.get("type").and_then(Value::as_str) == Some("ARRAY") && !out.contains_key("items") {
        let mut forms: Vec<Value> = Vec::new();
        let prefix = map.get("prefixItems").and_then(Value::as_array).into_iter().flatten();
        for (i, item) in prefix.enumerate() {
            let at = format!("{pointer}/prefixItems/{i}");
            let converted = Value::Object(convert(item, root, &at, depth + 1, stack, budget, problems));
            if !forms.contains(&converted) {
                forms.push(converted);
            }
        }
        let items = match forms.len() {
            0 => Value::Object(Map::new()),
            1 => forms.remove(0),
            _ => serde_json::json!({ "anyOf": forms }),
        };
        out.insert("items".to_owned(), items);
    }
    let map_like = matches!(map.get("additionalProperties"), Some(Value::Object(_) | Value::Bool(true)))
        || map.contains_key("patternProperties");
    if map_like && map.get("properties").and_then(Value::as_object).is_none_or(|p| p.is_empty()) {
        problems.push(
            pointer,
            ProblemCode::Unrepresentable,
            "a map (an object with `additionalProperties` and no properties) cannot be written for Gemini",
        );
    }
    if nullable {
        out.insert("nullable".to_owned(), Value::Bool(true));
    }
    out
}

/// An enum value as Gemini's string: strings as they are, anything else as JSON text.
pub(super) fn text_of(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

fn is_null_only(schema: &Map<String, Value>) -> bool {
    match schema.len() {
        1 => {
            schema.get("type").and_then(Value::as_str) == Some("NULL")
                || schema.get("nullable") == Some(&Value::Bool(true))
        }
        2 => schema.get("type").and_then(Value::as_str) == Some("NULL") && schema.contains_key("nullable"),
        _ => false,
    }
}

/// Merge `part` into `out`: properties and `required` are joined, other keys kept first-come.
/// Put what the schema says of values of one type (`kind`: `properties` and `required` for
/// an `OBJECT`, `items` for an `ARRAY`) where Gemini takes it: on the schema when it is of
/// that type or of none (`true`: the caller may give it the type), in the branch of that
/// type when a list of types became branches. Where the schema is of another type, it said
/// nothing (JSON Schema applies these to values of their type only), and Gemini refuses
/// them there (400, "properties: only allowed for OBJECT type"): it is left out.
fn place(
    out: &mut Map<String, Value>,
    kind: &str,
    part: Map<String, Value>,
    types_as_branches: bool,
) -> bool {
    match out.get("type").and_then(Value::as_str) {
        Some(own) if own == kind => {
            merge_into(out, part);
            true
        }
        Some(_) => false,
        None if types_as_branches => {
            let branches = out.get_mut("anyOf").and_then(Value::as_array_mut).into_iter().flatten();
            let branch = branches
                .filter_map(Value::as_object_mut)
                .find(|branch| branch.get("type").and_then(Value::as_str) == Some(kind));
            if let Some(branch) = branch {
                merge_into(branch, part);
            }
            false
        }
        None => {
            merge_into(out, part);
            true
        }
    }
}

fn merge_into(out: &mut Map<String, Value>, part: Map<String, Value>) {
    for (key, value) in part {
        match (key.as_str(), out.get_mut(&key), value) {
            ("properties", Some(Value::Object(mine)), Value::Object(theirs)) => mine.extend(theirs),
            ("required", Some(Value::Array(mine)), Value::Array(theirs)) => {
                for name in theirs {
                    if !mine.contains(&name) {
                        mine.push(name);
                    }
                }
            }
            (_, Some(_), _) => {}
            (_, None, value) => {
                out.insert(key, value);
            }
        }
    }
}

/// Check a `FunctionDeclaration`.
pub(super) fn check(definition: &Value, problems: &mut Problems) {
    let name = definition.get("name").and_then(Value::as_str).unwrap_or("");
    if !super::NameRule::of(super::Dialect::Gemini).allows(name) {
        problems.push(
            "/name",
            ProblemCode::Name,
            format!("the name `{name}` must start with a letter or _, then a-z, A-Z, 0-9, _, ., : or -, at most 128 characters"),
        );
    }
    if definition.get("parameters").is_some() && definition.get("parametersJsonSchema").is_some() {
        problems.push(
            "/parametersJsonSchema",
            ProblemCode::UnsupportedKeyword,
            "`parameters` and `parametersJsonSchema` cannot both be set",
        );
    }
    let Some(parameters) = definition.get("parameters") else { return };
    let kind = parameters.get("type").and_then(Value::as_str);
    if !kind.is_some_and(|kind| kind.eq_ignore_ascii_case("object")) {
        problems.push(
            "/parameters",
            ProblemCode::RootNotObject,
            "the parameters must be a schema of type OBJECT",
        );
    }
    check_node(parameters, "/parameters", 0, problems);
}

fn check_node(node: &Value, pointer: &str, depth: usize, problems: &mut Problems) {
    if depth > MAX_DEPTH {
        problems.push(pointer, ProblemCode::TooDeep, "the schema is nested too deeply to check");
        return;
    }
    let Value::Object(map) = node else {
        problems.push(pointer, ProblemCode::UnsupportedType, "every schema must be an object");
        return;
    };
    for key in map.keys() {
        if !KEYWORDS.contains(&key.as_str()) {
            problems.push(
                &format!("{pointer}/{}", escape(key)),
                ProblemCode::UnsupportedKeyword,
                format!("`{key}` is not a field of Gemini's Schema"),
            );
        }
    }
    match map.get("type") {
        None => {}
        Some(Value::String(kind)) if TYPES.contains(&kind.to_ascii_uppercase().as_str()) => {}
        Some(Value::Array(_)) => problems.push(
            &format!("{pointer}/type"),
            ProblemCode::UnsupportedType,
            "a list of types is not supported; use `nullable` or `anyOf`",
        ),
        Some(other) => problems.push(
            &format!("{pointer}/type"),
            ProblemCode::UnsupportedType,
            format!("{other} is not a Gemini type"),
        ),
    }
    let array =
        map.get("type").and_then(Value::as_str).is_some_and(|kind| kind.eq_ignore_ascii_case("array"));
    if array && !map.contains_key("items") {
        problems.push(
            &format!("{pointer}/type"),
            ProblemCode::UnsupportedType,
            "an ARRAY needs `items` (Gemini answers `items: missing field`)",
        );
    }
    let object =
        map.get("type").and_then(Value::as_str).is_none_or(|kind| kind.eq_ignore_ascii_case("object"));
    for key in ["properties", "required"] {
        if map.contains_key(key) && !object {
            problems.push(
                &format!("{pointer}/{key}"),
                ProblemCode::UnsupportedKeyword,
                format!("`{key}` is only allowed for the OBJECT type (Gemini answers `{key}: only allowed for OBJECT type`)"),
            );
        }
    }
    if let Some(values) = map.get("enum").and_then(Value::as_array) {
        if values.iter().any(|value| !value.is_string()) {
            problems.push(
                &format!("{pointer}/enum"),
                ProblemCode::EnumNotString,
                "Gemini's enum values must be strings",
            );
        }
    }
    if let Some(format) = map.get("format").and_then(Value::as_str) {
        let kind = map.get("type").and_then(Value::as_str).unwrap_or("");
        if !formats(kind).contains(&format) {
            problems.push(
                &format!("{pointer}/format"),
                ProblemCode::UnsupportedFormat,
                format!("the format `{format}` is not supported for type {kind}"),
            );
        }
    }
    if let Some(properties) = map.get("properties").and_then(Value::as_object) {
        for (name, property) in properties {
            check_node(property, &format!("{pointer}/properties/{}", escape(name)), depth + 1, problems);
        }
    }
    if let Some(items) = map.get("items") {
        check_node(items, &format!("{pointer}/items"), depth + 1, problems);
    }
    for (i, branch) in map.get("anyOf").and_then(Value::as_array).into_iter().flatten().enumerate() {
        check_node(branch, &format!("{pointer}/anyOf/{i}"), depth + 1, problems);
    }
}
