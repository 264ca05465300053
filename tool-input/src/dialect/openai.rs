//! OpenAI Chat Completions and Responses: the strict transform and the checks.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::walk::{accepts_null, escape, lookup_ref, MAX_DEPTH};
use super::{is_object_schema, Dialect, NameRule, ProblemCode, Problems};

/// The keywords strict mode accepts (Structured Outputs, "Supported schemas").
const STRICT_KEYWORDS: &[&str] = &[
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "const",
    "anyOf",
    "$ref",
    "$defs",
    "definitions",
    "description",
    "title",
    "pattern",
    "format",
    "multipleOf",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minItems",
    "maxItems",
];

/// The string formats strict mode accepts.
const STRICT_FORMATS: &[&str] =
    &["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"];

/// Documented limits of strict mode.
const MAX_PROPERTIES: usize = 5000;
const MAX_NESTING: usize = 10;
const MAX_ENUM_VALUES: usize = 1000;
const LONG_ENUM_VALUES: usize = 250;
const MAX_LONG_ENUM_CHARS: usize = 15_000;
const MAX_TOTAL_CHARS: usize = 120_000;

/// Most schema nodes the transform creates, so a schema whose `$ref`s fan out cannot
/// explode: twice the 5,000 properties OpenAI takes in all. (At 100,000, definitions of a
/// few hundred bytes that each refer to the next twice built 120 MB before stopping.)
const MAX_NODES: usize = 10_000;

/// The strict form of `schema`; `pointer` is where it sits in the definition, for problems.
pub(super) fn strict_schema(schema: &Value, pointer: &str, problems: &mut Problems) -> Value {
    let mut out = schema.clone();
    let mut budget = MAX_NODES;
    strict_node(&mut out, schema, pointer, 0, &mut budget, problems);
    // Inlining a `$ref` with siblings may leave its target referred to by nothing: it is not
    // sent, and what the transform said of it is said where it was inlined.
    for (keyword, name) in super::prune::prune_definitions(&mut out) {
        let at = format!("{pointer}/{keyword}/{}", escape(&name));
        problems.0.retain(|p| p.pointer != at && !p.pointer.starts_with(&format!("{at}/")));
    }
    out
}

fn strict_node(
    node: &mut Value,
    root: &Value,
    pointer: &str,
    depth: usize,
    budget: &mut usize,
    problems: &mut Problems,
) {
    if depth > MAX_DEPTH || *budget == 0 {
        problems.push(pointer, ProblemCode::TooDeep, "the schema is nested too deeply to transform");
        return;
    }
    *budget -= 1;
    let Value::Object(map) = node else { return };
    inline_ref_with_siblings(map, root);
    if let Some(one_of) = map.remove("oneOf") {
        if map.contains_key("anyOf") {
            problems.push(
                pointer,
                ProblemCode::Unrepresentable,
                "`oneOf` beside `anyOf` cannot be written as one `anyOf`",
            );
        } else {
            map.insert("anyOf".to_owned(), one_of);
        }
    }
    super::root_union::merge_single_all_of(map);
    if depth == 0 {
        super::root_union::merge_root_union(map, root, pointer, super::root_union::Absent::Null, problems);
    }
    if map.contains_key("allOf") {
        problems.push(
            pointer,
            ProblemCode::Unrepresentable,
            "`allOf` of several schemas is not supported in strict mode; merge them into one object",
        );
    }
    for (key, what) in
        [("patternProperties", "a map (`patternProperties`)"), ("prefixItems", "a tuple (`prefixItems`)")]
    {
        if map.contains_key(key) {
            problems.push(
                &format!("{pointer}/{key}"),
                ProblemCode::Unrepresentable,
                format!("{what} cannot be written in strict mode"),
            );
        }
    }
    map.retain(|key, _| STRICT_KEYWORDS.contains(&key.as_str()) || key == "allOf");
    if map.get("format").and_then(Value::as_str).is_some_and(|f| !STRICT_FORMATS.contains(&f)) {
        map.remove("format");
    }

    if is_object_schema(map) {
        let declares = map.get("properties").and_then(Value::as_object).is_some_and(|p| !p.is_empty());
        match map.get("additionalProperties") {
            None | Some(Value::Bool(false)) => {}
            // Closed below, strict mode would refuse every property the object takes beyond
            // the ones it lists (a struct's flattened map): what the tool accepts, the model
            // could no longer send.
            Some(_) if declares => problems.push(
                &format!("{pointer}/additionalProperties"),
                ProblemCode::Unrepresentable,
                "an object that takes properties beyond the ones it lists (`additionalProperties` \
                 beside `properties`, as a flattened map writes) cannot be written in strict mode, \
                 which refuses every property not listed",
            ),
            Some(_) => problems.push(
                &format!("{pointer}/additionalProperties"),
                ProblemCode::Unrepresentable,
                "a map (an object with `additionalProperties` and no properties) cannot be written in strict mode",
            ),
        }
        if declares || !map.contains_key("additionalProperties") {
            map.insert("additionalProperties".to_owned(), Value::Bool(false));
        }
        let required: Vec<String> = map
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).map(str::to_owned).collect())
            .unwrap_or_default();
        let mut names = Vec::new();
        if let Some(Value::Object(properties)) = map.get_mut("properties") {
            for (name, property) in properties.iter_mut() {
                let at = format!("{pointer}/properties/{}", escape(name));
                strict_node(property, root, &at, depth + 1, budget, problems);
                if !required.contains(name) {
                    make_nullable(property, root);
                }
                names.push(Value::String(name.clone()));
            }
        } else {
            map.insert("properties".to_owned(), Value::Object(Map::new()));
        }
        // By name, as a map that sorts its keys lists them: the same definition in every
        // build, whether or not a crate turns on serde_json's `preserve_order`.
        names.sort_unstable_by(|a, b| a.as_str().cmp(&b.as_str()));
        map.insert("required".to_owned(), Value::Array(names));
    }

    if let Some(items) = map.get_mut("items") {
        strict_node(items, root, &format!("{pointer}/items"), depth + 1, budget, problems);
    }
    if let Some(Value::Object(extra)) = map.get_mut("additionalProperties") {
        let mut schema = Value::Object(std::mem::take(extra));
        strict_node(
            &mut schema,
            root,
            &format!("{pointer}/additionalProperties"),
            depth + 1,
            budget,
            problems,
        );
        map.insert("additionalProperties".to_owned(), schema);
    }
    if let Some(Value::Array(branches)) = map.get_mut("anyOf") {
        for (i, branch) in branches.iter_mut().enumerate() {
            strict_node(branch, root, &format!("{pointer}/anyOf/{i}"), depth + 1, budget, problems);
        }
    }
    for defs in ["$defs", "definitions"] {
        if let Some(Value::Object(entries)) = map.get_mut(defs) {
            for (name, schema) in entries.iter_mut() {
                let at = format!("{pointer}/{defs}/{}", escape(name));
                strict_node(schema, root, &at, depth + 1, budget, problems);
            }
        }
    }
}

/// A `$ref` with siblings becomes its target with the siblings applied over it (strict mode
/// allows nothing beside a `$ref`).
fn inline_ref_with_siblings(map: &mut Map<String, Value>, root: &Value) {
    for _ in 0..MAX_DEPTH {
        if map.len() < 2 {
            return;
        }
        let Some(Value::Object(target)) =
            map.get("$ref").and_then(Value::as_str).and_then(|r| lookup_ref(root, r))
        else {
            return;
        };
        let mut merged = target.clone();
        for (key, value) in std::mem::take(map) {
            if key != "$ref" {
                merged.insert(key, value);
            }
        }
        *map = merged;
        if !map.contains_key("$ref") {
            return;
        }
    }
}

/// Let an optional property's schema accept null, the way strict mode says "not given".
fn make_nullable(schema: &mut Value, root: &Value) {
    if accepts_null(root, schema) {
        return;
    }
    let Value::Object(map) = schema else { return };
    let null = || serde_json::json!({"type": "null"});
    if map.contains_key("$ref") {
        let reference = std::mem::take(map);
        map.insert("anyOf".to_owned(), Value::Array(vec![Value::Object(reference), null()]));
        return;
    }
    if let Some(Value::Array(branches)) = map.get_mut("anyOf") {
        branches.push(null());
        return;
    }
    match map.get_mut("type") {
        Some(Value::String(name)) => {
            let name = std::mem::take(name);
            map.insert("type".to_owned(), serde_json::json!([name, "null"]));
        }
        Some(Value::Array(names)) => names.push(Value::from("null")),
        _ => {}
    }
    if let Some(Value::Array(values)) = map.get_mut("enum") {
        values.push(Value::Null);
    }
    if let Some(value) = map.remove("const") {
        map.insert("enum".to_owned(), Value::Array(vec![value, Value::Null]));
    }
}

/// Check a Chat Completions tool: `{"type": "function", "function": {...}}`.
pub(super) fn check_chat(definition: &Value, strict: bool, problems: &mut Problems) {
    if definition.get("type").and_then(Value::as_str) != Some("function") {
        problems.push(
            "/type",
            ProblemCode::UnsupportedKeyword,
            "a function tool needs `\"type\": \"function\"`",
        );
    }
    match definition.get("function") {
        Some(function) => check_function(function, "/function", strict, problems),
        None => problems.push("/function", ProblemCode::RootNotObject, "the tool has no `function`"),
    }
}

/// Check a Responses tool: `{"type": "function", "name", "parameters", "strict"}`.
pub(super) fn check_responses(definition: &Value, strict: bool, problems: &mut Problems) {
    if definition.get("type").and_then(Value::as_str) != Some("function") {
        problems.push(
            "/type",
            ProblemCode::UnsupportedKeyword,
            "a function tool needs `\"type\": \"function\"`",
        );
    }
    // Responses tools are strict unless `strict` is false.
    let strict = strict || definition.get("strict").and_then(Value::as_bool) != Some(false);
    check_function(definition, "", strict, problems);
}

fn check_function(function: &Value, at: &str, strict: bool, problems: &mut Problems) {
    let name = function.get("name").and_then(Value::as_str).unwrap_or("");
    if !NameRule::of(Dialect::OpenAi).allows(name) {
        problems.push(
            &format!("{at}/name"),
            ProblemCode::Name,
            format!("the name `{name}` must be 1 to 64 characters of a-z, A-Z, 0-9, _ and -"),
        );
    }
    let pointer = format!("{at}/parameters");
    let Some(parameters) = function.get("parameters") else {
        if strict {
            problems.push(&pointer, ProblemCode::RootNotObject, "strict mode needs `parameters`");
        }
        return;
    };
    // OpenAI refuses these at the top level, strict or not (400, "schema must have type
    // 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the top level").
    const NOT_AT_ROOT: [&str; 5] = ["oneOf", "anyOf", "allOf", "enum", "not"];
    match parameters.as_object() {
        Some(root)
            if root.get("type").and_then(Value::as_str) == Some("object")
                && !NOT_AT_ROOT.iter().any(|key| root.contains_key(*key)) => {}
        _ => problems.push(
            &pointer,
            ProblemCode::RootNotObject,
            "the parameters must be a schema of `\"type\": \"object\"`, without `oneOf`, `anyOf`, `allOf`, `enum` or `not` at the top level",
        ),
    }
    if strict {
        let mut totals = Totals::default();
        check_strict_node(parameters, &pointer, 0, &mut totals, problems);
        let depth = nesting(parameters);
        if depth > MAX_NESTING {
            problems.push(
                &pointer,
                ProblemCode::TooDeep,
                format!(
                    "the schema nests {depth} levels of objects and arrays; strict mode allows {MAX_NESTING}"
                ),
            );
        }
        if totals.properties > MAX_PROPERTIES {
            problems.push(
                &pointer,
                ProblemCode::TooManyProperties,
                format!(
                    "the schema has {} properties; strict mode allows {MAX_PROPERTIES}",
                    totals.properties
                ),
            );
        }
        if totals.enum_values > MAX_ENUM_VALUES {
            problems.push(
                &pointer,
                ProblemCode::TooManyEnumValues,
                format!(
                    "the schema has {} enum values; strict mode allows {MAX_ENUM_VALUES}",
                    totals.enum_values
                ),
            );
        }
        if totals.chars > MAX_TOTAL_CHARS {
            problems.push(
                &pointer,
                ProblemCode::TooLong,
                format!(
                    "property names, definition names, enum values and consts add up to {} characters; strict mode allows {MAX_TOTAL_CHARS}",
                    totals.chars
                ),
            );
        }
    }
}

#[derive(Debug, Default)]
struct Totals {
    properties: usize,
    enum_values: usize,
    chars: usize,
}

fn check_strict_node(
    node: &Value,
    pointer: &str,
    depth: usize,
    totals: &mut Totals,
    problems: &mut Problems,
) {
    if depth > MAX_DEPTH {
        problems.push(pointer, ProblemCode::TooDeep, "the schema is nested too deeply to check");
        return;
    }
    // Strict mode wants every schema to say what it takes (400, "In context=('properties',
    // 'value'), schema must have a 'type' key."): a schema of any value (`true`, `{}`, what
    // schemars writes for a `serde_json::Value` field) has no strict form.
    let says_what = |map: &Map<String, Value>| {
        ["type", "anyOf", "$ref", "enum", "const"].iter().any(|key| map.contains_key(*key))
    };
    if !node.as_object().is_some_and(says_what) {
        problems.push(
            pointer,
            ProblemCode::Unrepresentable,
            "a schema of any value (no `type`) cannot be written in strict mode",
        );
    }
    let Value::Object(map) = node else { return };
    for key in map.keys() {
        if !STRICT_KEYWORDS.contains(&key.as_str()) {
            problems.push(
                &format!("{pointer}/{}", escape(key)),
                ProblemCode::UnsupportedKeyword,
                format!("`{key}` is not supported in strict mode"),
            );
        }
    }
    if map.contains_key("$ref") && map.len() > 1 {
        problems.push(pointer, ProblemCode::RefSiblings, "strict mode allows no keywords beside `$ref`");
    }
    if let Some(format) = map.get("format").and_then(Value::as_str) {
        if !STRICT_FORMATS.contains(&format) {
            problems.push(
                &format!("{pointer}/format"),
                ProblemCode::UnsupportedFormat,
                format!("the format `{format}` is not supported in strict mode"),
            );
        }
    }
    if let Some(values) = map.get("enum").and_then(Value::as_array) {
        totals.enum_values += values.len();
        let chars: usize = values.iter().filter_map(Value::as_str).map(|s| s.chars().count()).sum();
        totals.chars += chars;
        if values.len() > LONG_ENUM_VALUES
            && values.iter().all(Value::is_string)
            && chars > MAX_LONG_ENUM_CHARS
        {
            problems.push(
                &format!("{pointer}/enum"),
                ProblemCode::EnumTooLong,
                format!(
                    "a string enum of {} values is {chars} characters long; strict mode allows {MAX_LONG_ENUM_CHARS} when there are more than {LONG_ENUM_VALUES}",
                    values.len()
                ),
            );
        }
    }
    if let Some(Value::String(value)) = map.get("const") {
        totals.chars += value.chars().count();
    }
    if is_object_schema(map) {
        if map.get("additionalProperties") != Some(&Value::Bool(false)) {
            problems.push(
                &format!("{pointer}/additionalProperties"),
                ProblemCode::AdditionalProperties,
                "every object must say `\"additionalProperties\": false` in strict mode",
            );
        }
        let required: Vec<&str> = map
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        if let Some(properties) = map.get("properties").and_then(Value::as_object) {
            totals.properties += properties.len();
            let missing: Vec<&str> =
                properties.keys().map(String::as_str).filter(|name| !required.contains(name)).collect();
            if !missing.is_empty() {
                problems.push(
                    &format!("{pointer}/required"),
                    ProblemCode::NotRequired,
                    format!(
                        "strict mode needs every property in `required`; missing: {}",
                        missing.join(", ")
                    ),
                );
            }
            for (name, property) in properties {
                totals.chars += name.chars().count();
                check_strict_node(
                    property,
                    &format!("{pointer}/properties/{}", escape(name)),
                    depth + 1,
                    totals,
                    problems,
                );
            }
        }
    }
    if let Some(items) = map.get("items") {
        check_strict_node(items, &format!("{pointer}/items"), depth + 1, totals, problems);
    }
    if let Some(extra @ Value::Object(_)) = map.get("additionalProperties") {
        check_strict_node(extra, &format!("{pointer}/additionalProperties"), depth + 1, totals, problems);
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(branches) = map.get(key).and_then(Value::as_array) {
            for (i, branch) in branches.iter().enumerate() {
                check_strict_node(branch, &format!("{pointer}/{key}/{i}"), depth + 1, totals, problems);
            }
        }
    }
    for defs in ["$defs", "definitions"] {
        if let Some(entries) = map.get(defs).and_then(Value::as_object) {
            for (name, schema) in entries {
                totals.chars += name.chars().count();
                check_strict_node(
                    schema,
                    &format!("{pointer}/{defs}/{}", escape(name)),
                    depth + 1,
                    totals,
                    problems,
                );
            }
        }
    }
}

/// Levels of object and array schemas on the deepest path, following `$ref`s (a recursive
/// reference, which strict mode allows, is not followed twice).
fn nesting(parameters: &Value) -> usize {
    let mut walk = Nesting { root: parameters, stack: Vec::new(), known: HashMap::new() };
    walk.levels(parameters, 0).0
}

/// [`nesting`]'s walk: the references being followed, and the levels under each reference
/// found without meeting one of those (the same wherever it is met, so each is walked once:
/// definitions that each refer to the next twice would otherwise be walked 2^depth times).
struct Nesting<'s> {
    root: &'s Value,
    stack: Vec<&'s str>,
    known: HashMap<&'s str, usize>,
}

impl<'s> Nesting<'s> {
    /// The levels under `node`, and whether the walk met a reference being followed (then
    /// what it found depends on the path, and is not kept).
    fn levels(&mut self, node: &'s Value, depth: usize) -> (usize, bool) {
        if depth > MAX_DEPTH {
            return (depth, false);
        }
        let Value::Object(map) = node else { return (0, false) };
        if let Some(reference) = map.get("$ref").and_then(Value::as_str) {
            if let Some(&levels) = self.known.get(reference) {
                return (levels, false);
            }
            if self.stack.contains(&reference) {
                return (0, true);
            }
            let Some(target) = lookup_ref(self.root, reference) else { return (0, false) };
            self.stack.push(reference);
            let (levels, looped) = self.levels(target, depth);
            self.stack.pop();
            if !looped {
                self.known.insert(reference, levels);
            }
            return (levels, looped);
        }
        let array = map.get("type").and_then(Value::as_str) == Some("array") || map.contains_key("items");
        let own = usize::from(is_object_schema(map) || array);
        let (mut deepest, mut looped) = (0, false);
        let properties =
            map.get("properties").and_then(Value::as_object).into_iter().flat_map(|p| p.values());
        for child in properties.chain(map.get("items")) {
            let (levels, child_looped) = self.levels(child, depth + own);
            deepest = deepest.max(levels);
            looped |= child_looped;
        }
        // A branch is an alternative at this same level, not a level of its own.
        let mut alternative = 0;
        for key in ["anyOf", "oneOf", "allOf"] {
            for branch in map.get(key).and_then(Value::as_array).into_iter().flatten() {
                let (levels, branch_looped) = self.levels(branch, depth);
                alternative = alternative.max(levels);
                looped |= branch_looped;
            }
        }
        ((own + deepest).max(alternative), looped)
    }
}
