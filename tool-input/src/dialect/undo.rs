//! The way back from a transformed schema: arguments a model produced under a strict or
//! Gemini definition, rewritten to what the same choice looks like under the original
//! schema (see [`ToolDefinition::check_as`](crate::ToolDefinition::check_as)).

use serde_json::{Map, Value};

use super::gemini::text_of;
use super::walk::{accepts_null, escape, resolve, MAX_DEPTH};
use super::Dialect;
use crate::check::spelling_match;
use crate::report::{Coercion, CoercionKind};

/// Rewrite `value` in place; return what was changed.
pub(crate) fn undo(
    dialect: Dialect,
    root: &Value,
    value: &mut Value,
    sensitive: &[&str],
    max_echo: usize,
) -> Vec<Coercion> {
    let mut walk = Undo {
        root,
        nulls: dialect.is_strict(),
        enums: dialect == Dialect::Gemini,
        sensitive,
        max_echo,
        coercions: Vec::new(),
    };
    let mut path = Vec::new();
    walk.value(root, value, &mut path, 0);
    walk.coercions
}

struct Undo<'a> {
    root: &'a Value,
    /// A strict dialect: nulls stand for absent optional properties.
    nulls: bool,
    /// Gemini: non-string enum values were sent as strings.
    enums: bool,
    sensitive: &'a [&'a str],
    max_echo: usize,
    coercions: Vec<Coercion>,
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
        let Some(target) = object_schema(self.root, schema, map) else { return };
        let Some(properties) = target.get("properties").and_then(Value::as_object) else { return };
        let required: Vec<&str> = target
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        if self.nulls {
            let absent: Vec<String> = map
                .iter()
                .filter(|(name, value)| {
                    value.is_null()
                        && !required.contains(&name.as_str())
                        && properties.get(*name).is_some_and(|schema| !accepts_null(self.root, schema))
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
            if let Some(schema) = properties.get(name) {
                path.push(name.clone());
                self.value(schema, value, path, depth + 1);
                path.pop();
            }
        }
    }

    fn record(&mut self, path: &[String], kind: CoercionKind, from: Option<&Value>, to: Option<&Value>) {
        let pointer: String = path.iter().map(|segment| format!("/{}", escape(segment))).collect();
        let hidden = path.first().is_some_and(|top| self.sensitive.contains(&top.as_str()));
        let echo = |value: Option<&Value>| {
            if hidden {
                None
            } else {
                value.map(|v| cut(&v.to_string(), self.max_echo))
            }
        };
        self.coercions.push(Coercion { path: pointer, kind, from: echo(from), to: echo(to) });
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

/// The object schema that describes `map`: the schema itself when it declares properties,
/// or the one `anyOf`/`oneOf` branch that declares every key sent and whose `const`
/// properties (tags) match, read as the engine reads a tag (letter case and surrounding white
/// space aside). `None` when no single schema does.
fn object_schema<'s>(root: &'s Value, schema: &'s Value, map: &Map<String, Value>) -> Option<&'s Value> {
    if schema.get("properties").is_some() {
        return Some(schema);
    }
    let mut candidates = ["anyOf", "oneOf"]
        .into_iter()
        .filter_map(|key| schema.get(key).and_then(Value::as_array))
        .flatten()
        .map(|branch| resolve(root, branch))
        .filter(|branch| {
            let Some(properties) = branch.get("properties").and_then(Value::as_object) else { return false };
            map.iter().all(|(name, value)| match properties.get(name) {
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
    match (candidates.next(), candidates.next()) {
        (Some(only), None) => Some(only),
        _ => None,
    }
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
