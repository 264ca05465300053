//! The way back from a transformed schema: arguments a model produced under a strict or
//! Gemini definition, rewritten to what the same choice looks like under the original
//! schema (see [`ToolDefinition::check_as`](crate::ToolDefinition::check_as)).

use serde_json::{Map, Value};

use super::gemini::text_of;
use super::walk::{accepts_null, escape, resolve, MAX_DEPTH};
use super::Dialect;
use crate::check::spelling_match;
use crate::limits::Limits;
use crate::report::{Coercion, CoercionKind};

/// What [`undo`] changed: a record of each change, at most `Limits::max_coercions` of them,
/// and a count of the rest.
#[derive(Debug, Default)]
pub(crate) struct Undone {
    pub coercions: Vec<Coercion>,
    pub omitted: usize,
}

/// Rewrite `value` in place; return what was changed.
pub(crate) fn undo(
    dialect: Dialect,
    root: &Value,
    value: &mut Value,
    sensitive: &[&str],
    limits: &Limits,
) -> Undone {
    let mut walk = Undo {
        root,
        nulls: dialect.is_strict(),
        enums: dialect == Dialect::Gemini,
        sensitive,
        max_echo: limits.max_echo_chars,
        max_records: limits.max_coercions,
        undone: Undone::default(),
    };
    let mut path = Vec::new();
    walk.value(root, value, &mut path, 0);
    walk.undone
}

struct Undo<'a> {
    root: &'a Value,
    /// A strict dialect: nulls stand for absent optional properties.
    nulls: bool,
    /// Gemini: non-string enum values were sent as strings.
    enums: bool,
    sensitive: &'a [&'a str],
    max_echo: usize,
    /// Most records made; the rest are counted.
    max_records: usize,
    undone: Undone,
}

impl Undo<'_> {
    fn value(&mut self, schema: &Value, value: &mut Value, path: &mut Vec<String>, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        let schema = resolve(self.root, schema);
        match value {
            Value::Object(map) => self.object(schema, map, path, depth),
            Value::Array(items) => {
                let prefix = schema.get("prefixItems").and_then(Value::as_array);
                let rest = schema.get("items").filter(|items| items.is_object());
                for (i, item) in items.iter_mut().enumerate() {
                    let Some(item_schema) = prefix.and_then(|p| p.get(i)).or(rest) else { continue };
                    path.push(i.to_string());
                    self.value(item_schema, item, path, depth + 1);
                    path.pop();
                }
            }
            Value::String(text) if self.enums => {
                let values = enum_values(self.root, schema);
                let mut matches = values.iter().filter(|v| !v.is_string() && text_of(v) == *text);
                if let (Some(original), None) = (matches.next(), matches.next()) {
                    let kind = match original {
                        Value::Number(_) => CoercionKind::NumberFromString,
                        Value::Bool(_) => CoercionKind::BoolFromString,
                        _ => CoercionKind::EnumCase,
                    };
                    let from = Value::String(text.clone());
                    let original = (*original).clone();
                    self.record(path, kind, Some(&from), Some(&original));
                    *value = original;
                }
            }
            _ => {}
        }
    }

    fn object(&mut self, schema: &Value, map: &mut Map<String, Value>, path: &mut Vec<String>, depth: usize) {
        let targets = object_schemas(self.root, schema, map, self.nulls);
        if targets.is_empty() {
            return;
        }
        let declaring = |name: &str| {
            targets.iter().find_map(|target| {
                let property = target.get("properties")?.get(name)?;
                let required = target.get("required").and_then(Value::as_array);
                Some((property, required.is_some_and(|r| r.iter().any(|n| n == name))))
            })
        };
        if self.nulls {
            // A null stands for an absent optional property, and, where the object is one of
            // several forms (a root union strict mode was shown as one object), for a
            // property of another form.
            let absent: Vec<String> = map
                .iter()
                .filter(|(name, value)| {
                    value.is_null()
                        && match declaring(name) {
                            Some((property, required)) => !required && !accepts_null(self.root, property),
                            None => of_another_form(self.root, schema, name),
                        }
                })
                .map(|(name, _)| name.clone())
                .collect();
            for name in absent {
                map.remove(&name);
                path.push(name);
                self.record(path, CoercionKind::NullAsAbsent, Some(&Value::Null), None);
                path.pop();
            }
        }
        for (name, value) in map.iter_mut() {
            if let Some((property, _)) = declaring(name) {
                path.push(name.clone());
                self.value(property, value, path, depth + 1);
                path.pop();
            }
        }
    }

    fn record(&mut self, path: &[String], kind: CoercionKind, from: Option<&Value>, to: Option<&Value>) {
        if self.undone.coercions.len() >= self.max_records {
            self.undone.omitted += 1;
            return;
        }
        let pointer: String = path.iter().map(|segment| format!("/{}", escape(segment))).collect();
        let hidden = path.first().is_some_and(|top| self.sensitive.contains(&top.as_str()));
        let echo = |value: Option<&Value>| {
            if hidden {
                None
            } else {
                value.map(|v| cut(&v.to_string(), self.max_echo))
            }
        };
        self.undone.coercions.push(Coercion { path: pointer, kind, from: echo(from), to: echo(to) });
    }
}

fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let mut out: String = text.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// The object schemas that describe `map`: the schema itself when it declares properties,
/// and the one `anyOf`/`oneOf` branch that declares every other key sent and whose `const`
/// properties (tags) match, read as the engine reads a tag (letter case and surrounding white
/// space aside). Where nulls stand for absent properties (`nulls`), a key sent null is no
/// sign of the branch. Empty when no schema does.
fn object_schemas<'s>(
    root: &'s Value,
    schema: &'s Value,
    map: &Map<String, Value>,
    nulls: bool,
) -> Vec<&'s Value> {
    let own = schema.get("properties").and_then(Value::as_object);
    let mut found: Vec<&'s Value> = own.map(|_| schema).into_iter().collect();
    // A member that tells which form was sent: neither one of the object's own properties
    // nor a null that stands for an absent property.
    let told = |name: &String, value: &Value| {
        let absent = nulls && value.is_null();
        !(absent || own.is_some_and(|own| own.contains_key(name)))
    };
    let mut candidates = union_branches(root, schema).filter(|branch| {
        let Some(properties) = branch.get("properties").and_then(Value::as_object) else { return false };
        map.iter().filter(|(name, value)| told(name, value)).all(|(name, value)| match properties.get(name) {
            Some(property) => match resolve(root, property).get("const") {
                Some(tag) => {
                    tag == value
                        || value.as_str().is_some_and(|sent| {
                            spelling_match(sent, std::slice::from_ref(tag), false).is_some()
                        })
                }
                None => true,
            },
            None => false,
        })
    });
    if let (Some(only), None) = (candidates.next(), candidates.next()) {
        found.push(only);
    }
    found
}

/// The branches of a schema's `anyOf` and `oneOf`, their `$ref`s followed.
fn union_branches<'s>(root: &'s Value, schema: &'s Value) -> impl Iterator<Item = &'s Value> {
    ["anyOf", "oneOf"]
        .into_iter()
        .filter_map(|key| schema.get(key).and_then(Value::as_array))
        .flatten()
        .map(move |branch| resolve(root, branch))
}

/// Does a branch of the schema's union declare `name`: a property of a form other than the
/// one sent?
fn of_another_form(root: &Value, schema: &Value, name: &str) -> bool {
    union_branches(root, schema).any(|branch| branch.get("properties").and_then(|p| p.get(name)).is_some())
}

/// The enum and const values of a schema and of its `anyOf`/`oneOf` branches.
fn enum_values<'s>(root: &'s Value, schema: &'s Value) -> Vec<&'s Value> {
    let mut values = Vec::new();
    let mut add = |schema: &'s Value| {
        if let Some(list) = schema.get("enum").and_then(Value::as_array) {
            values.extend(list.iter());
        }
        if let Some(value) = schema.get("const") {
            values.push(value);
        }
    };
    add(schema);
    for key in ["anyOf", "oneOf"] {
        for branch in schema.get(key).and_then(Value::as_array).into_iter().flatten() {
            add(resolve(root, branch));
        }
    }
    values
}
