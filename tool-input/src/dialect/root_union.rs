//! A root that is a union of object forms, written as one object for the APIs that take only
//! an object at the root: OpenAI, strict or not ("schema must have type 'object' and not have
//! 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the top level"), and Anthropic, whose API refuses a
//! tool whose `input_schema` has `oneOf`, `allOf` or `anyOf` at the top level (and MCP clients
//! pass a server's `inputSchema` to it as it is).
//!
//! A struct that flattens an enum (`#[serde(flatten)] target: Target`) has such a root, as
//! has an MCP tool whose input is `oneOf` several shapes. The one object has the root's
//! properties and every form's; a property not in every form is optional (nullable in
//! strict mode) and is told, when the forms have a tag, for which tag values it is given.
//! Nothing of a form's own rules is lost: the arguments are checked against the original
//! schema, which says which form they took (after [`undo`](super::undo) in strict mode,
//! where a null for a property of another form is absent).

use serde_json::{Map, Value};

use super::walk::resolve;
use super::{ProblemCode, Problems};

/// What a form may say for it to be one of the object's forms: its members, nothing more.
const FORM_KEYWORDS: &[&str] = &[
    "type",
    "properties",
    "required",
    "additionalProperties",
    "unevaluatedProperties",
    "title",
    "description",
];

/// One form: its properties (none for a form that only requires some of the root's) and
/// which names it requires.
struct Form<'s> {
    properties: Option<&'s Map<String, Value>>,
    required: Vec<&'s str>,
}

impl<'s> Form<'s> {
    /// The form `branch` writes (following its `$ref`), when it is an object of properties.
    fn of(root: &'s Value, branch: &'s Value) -> Result<Form<'s>, String> {
        let branch = resolve(root, branch);
        let Some(schema) = branch.as_object() else {
            return Err("a form of the union is not an object schema".to_owned());
        };
        if let Some(keyword) = schema.keys().find(|key| !FORM_KEYWORDS.contains(&key.as_str())) {
            return Err(format!("a form of the union has `{keyword}`, which one object cannot say"));
        }
        if schema.get("type").is_some_and(|kind| kind != "object") {
            return Err("a form of the union is not an object".to_owned());
        }
        let properties = schema.get("properties").and_then(Value::as_object);
        let required = schema
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        Ok(Form { properties, required })
    }

    /// The schema this form gives property `name`.
    fn property(&self, name: &str) -> Option<&'s Value> {
        self.properties.and_then(|properties| properties.get(name))
    }

    /// The names of this form's properties.
    fn names(&self) -> impl Iterator<Item = &'s String> {
        self.properties.into_iter().flat_map(Map::keys)
    }

    /// The constant this form gives property `name`, when its schema is one.
    fn constant(&self, root: &'s Value, name: &str) -> Option<&'s Value> {
        self.property(name).and_then(|schema| resolve(root, schema).get("const"))
    }
}

/// `schema` as one object where it is a union of object forms at the root (and an `allOf`
/// of one schema merged into it), for the APIs whose tools take nothing else there
/// (Anthropic, MCP, whose clients pass the schema to it, and OpenAI without strict mode). A
/// property of some forms only is optional.
pub(super) fn one_object(schema: &mut Value, pointer: &str, problems: &mut Problems) {
    let root = schema.clone();
    let Value::Object(map) = schema else { return };
    merge_single_all_of(map);
    merge_root_union(map, &root, pointer, Absent::Omitted, problems);
}

/// `allOf: [one]` is that one schema.
pub(super) fn merge_single_all_of(map: &mut Map<String, Value>) {
    let single = matches!(map.get("allOf"), Some(Value::Array(all)) if all.len() == 1 && all[0].is_object());
    if !single {
        return;
    }
    if let Some(Value::Array(mut all)) = map.remove("allOf") {
        if let Some(Value::Object(inner)) = all.pop() {
            for (key, value) in inner {
                map.entry(key).or_insert(value);
            }
        }
    }
}

/// How the one object says that a property belongs to some forms only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Absent {
    /// Left out (the property is optional).
    Omitted,
    /// Sent as `null` (strict mode, where every property is required).
    Null,
}

/// Merge the root's `oneOf` or `anyOf` of object forms into the root (`map`). A union that
/// is not one of object forms is left as it is, with a problem at `pointer`, for the check
/// to report the root.
pub(super) fn merge_root_union(
    map: &mut Map<String, Value>,
    root: &Value,
    pointer: &str,
    absent: Absent,
    problems: &mut Problems,
) {
    let key = match (map.contains_key("oneOf"), map.contains_key("anyOf")) {
        (true, false) => "oneOf",
        (false, true) => "anyOf",
        _ => return,
    };
    let Some(Value::Array(branches)) = map.get(key) else { return };
    if map.get("type").is_some_and(|kind| kind != "object") {
        return;
    }
    let forms: Result<Vec<Form<'_>>, String> = branches.iter().map(|branch| Form::of(root, branch)).collect();
    let forms = match forms {
        Ok(forms) if !forms.is_empty() => forms,
        Ok(_) => return,
        Err(why) => {
            problems.push(&format!("{pointer}/{key}"), ProblemCode::Unrepresentable, why);
            return;
        }
    };
    let own: Map<String, Value> =
        map.get("properties").and_then(Value::as_object).cloned().unwrap_or_default();
    // The tag: a property every form gives a constant of its own.
    let tag = forms[0].names().find(|name| {
        let constants: Vec<Option<&Value>> = forms.iter().map(|form| form.constant(root, name)).collect();
        constants.iter().all(Option::is_some)
            && (1..constants.len()).all(|i| !constants[..i].contains(&constants[i]))
    });
    let mut names: Vec<&String> = Vec::new();
    for form in &forms {
        for name in form.names() {
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    let mut merged = own.clone();
    for name in names {
        if own.contains_key(name) {
            // The object's own schema of it stands, as wide as the forms' or wider: the
            // original schema still decides what a form allows.
            continue;
        }
        let having: Vec<&Form<'_>> = forms.iter().filter(|form| form.property(name).is_some()).collect();
        let schemas: Vec<&Value> = having.iter().filter_map(|form| form.property(name)).collect();
        let mut schema = one_schema(root, &schemas);
        if let Some(tag) = tag.filter(|_| having.len() < forms.len()) {
            let values: Vec<String> =
                having.iter().filter_map(|form| form.constant(root, tag)).map(Value::to_string).collect();
            let otherwise = if absent == Absent::Null { "; otherwise null" } else { "" };
            tell(&mut schema, &format!("Only when `{tag}` is {}{otherwise}.", values.join(" or ")));
        }
        merged.insert(name.clone(), schema);
    }
    // What every form requires (and the object declares), the object requires.
    let required_by_all: Vec<Value> = forms[0]
        .required
        .iter()
        .filter(|name| merged.contains_key(**name) && forms.iter().all(|form| form.required.contains(name)))
        .map(|name| Value::from(*name))
        .collect();
    map.remove(key);
    map.insert("type".to_owned(), Value::from("object"));
    map.insert("properties".to_owned(), Value::Object(merged));
    let required = map.entry("required").or_insert_with(|| Value::Array(Vec::new()));
    if let Value::Array(required) = required {
        for name in required_by_all {
            if !required.contains(&name) {
                required.push(name);
            }
        }
    }
}

/// The schema of a property the forms in `schemas` declare: theirs when they agree, the tag's
/// constants as one `enum`, else any of theirs.
fn one_schema(root: &Value, schemas: &[&Value]) -> Value {
    let constants: Option<Vec<&Value>> =
        schemas.iter().map(|schema| resolve(root, schema).get("const")).collect();
    if let Some(constants) = constants.filter(|constants| constants.len() > 1) {
        let mut schema = Map::new();
        if constants.iter().all(|constant| constant.is_string()) {
            schema.insert("type".to_owned(), Value::from("string"));
        }
        schema.insert("enum".to_owned(), Value::Array(constants.into_iter().cloned().collect()));
        return Value::Object(schema);
    }
    let mut distinct: Vec<&Value> = Vec::new();
    for schema in schemas {
        if !distinct.contains(schema) {
            distinct.push(schema);
        }
    }
    match distinct.as_slice() {
        [one] => (*one).clone(),
        _ => serde_json::json!({ "anyOf": distinct }),
    }
}

/// Add `note` to the description of `schema` (not beside a `$ref`, which strict mode would
/// then inline).
fn tell(schema: &mut Value, note: &str) {
    let Value::Object(map) = schema else { return };
    if map.contains_key("$ref") {
        return;
    }
    let description = match map.get("description").and_then(Value::as_str) {
        Some(said) => format!("{said} {note}"),
        None => note.to_owned(),
    };
    map.insert("description".to_owned(), Value::String(description));
}
