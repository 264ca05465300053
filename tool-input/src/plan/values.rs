//! The keywords of a schema object that hold no subschema: `type`, `enum`, `const`, the
//! numeric and count bounds, `pattern`, `uniqueItems`, `required`, OpenAPI's `nullable`, and a
//! numeric `format` read as its type's range. Read apart from the keywords that recurse
//! (`Compiler::compile_node`), so that their temporaries are never on the stack of a nested
//! schema's compile.

use serde_json::{Map, Number, Value};

use super::{error, once_each, Compiler, Node, Types};
use crate::keywords::NumberFormat;
use crate::pattern::Pattern;
use crate::schema_error::SchemaError;

impl<'a> Compiler<'a> {
    /// The keywords of a schema object that hold no subschema (types, `enum`, `const`, the
    /// bounds, `pattern`, `required`...), read into `node`. Apart from
    /// [`Compiler::compile_node`], which recurses: its frame is on the stack once per level
    /// of a nested schema, and this one only while it runs (a debug build keeps a slot for
    /// every temporary of a function).
    #[inline(never)]
    pub(super) fn value_keywords(
        &self,
        pointer: &str,
        object: &'a Map<String, Value>,
        node: &mut Node,
    ) -> Result<(), SchemaError> {
        if let Some(types) = object.get("type") {
            node.types = Some(parse_types(pointer, types)?);
        }
        if let Some(values) = object.get("enum") {
            let Value::Array(values) = values else {
                return Err(error(pointer, "`enum` must be an array"));
            };
            // Each value once (the first of those JSON calls equal, as `1` and `1.0`): a value
            // listed twice means nothing more, and the options a message lists are each
            // named once. Found by hashing: a long enum costs no comparison of each pair.
            let mut kept = Vec::with_capacity(values.len());
            for value in values {
                node.enum_index.push_new(&mut kept, value.clone());
            }
            node.enum_values = Some(kept);
        }
        node.const_value = self.known(object, "const").cloned();
        // A bundled metaschema's `default`s say what an absent keyword means: never filled in.
        // (A document the caller gave is the tool's own: its defaults are.)
        node.default = object.get("default").filter(|_| !self.documents[self.doc].metaschema).cloned();
        node.description = object.get("description").and_then(Value::as_str).map(str::to_owned);
        node.minimum = number(pointer, object, "minimum")?;
        node.maximum = number(pointer, object, "maximum")?;
        // Draft 4's boolean `exclusiveMinimum`/`exclusiveMaximum` make `minimum`/`maximum`
        // exclusive.
        match object.get("exclusiveMinimum") {
            Some(Value::Bool(exclusive)) => {
                if *exclusive {
                    node.exclusive_minimum = node.minimum.take();
                }
            }
            _ => node.exclusive_minimum = number(pointer, object, "exclusiveMinimum")?,
        }
        match object.get("exclusiveMaximum") {
            Some(Value::Bool(exclusive)) => {
                if *exclusive {
                    node.exclusive_maximum = node.maximum.take();
                }
            }
            _ => node.exclusive_maximum = number(pointer, object, "exclusiveMaximum")?,
        }
        if self.formats {
            if let Some(format) = object.get("format").and_then(Value::as_str).and_then(NumberFormat::named) {
                number_format(node, format);
            }
        }
        if let Some(multiple) = number(pointer, object, "multipleOf")? {
            let multiple = multiple.as_f64().unwrap_or(0.0);
            if multiple <= 0.0 {
                return Err(error(pointer, "`multipleOf` must be greater than 0"));
            }
            node.multiple_of = Some(multiple);
        }
        node.min_length = count(pointer, object, "minLength")?;
        node.max_length = count(pointer, object, "maxLength")?;
        node.min_items = count(pointer, object, "minItems")?;
        node.max_items = count(pointer, object, "maxItems")?;
        node.min_properties = count(pointer, object, "minProperties")?;
        node.max_properties = count(pointer, object, "maxProperties")?;
        if let Some(pattern) = object.get("pattern") {
            let Value::String(pattern) = pattern else {
                return Err(error(pointer, "`pattern` must be a string"));
            };
            node.pattern = Some(Box::new(compile_pattern(pointer, pattern)?));
        }
        if let Some(unique) = object.get("uniqueItems") {
            node.unique_items =
                unique.as_bool().ok_or_else(|| error(pointer, "`uniqueItems` must be a boolean"))?;
        }
        if let Some(required) = object.get("required") {
            let names = required.as_array().ok_or_else(|| error(pointer, "`required` must be an array"))?;
            let names = names
                .iter()
                .map(|name| name.as_str().ok_or_else(|| error(pointer, "`required` must list strings")))
                .collect::<Result<Vec<&str>, SchemaError>>()?;
            node.required = once_each(names);
        }
        Ok(())
    }
}

/// OpenAPI's `nullable: true`: the node accepts null as well.
pub(super) fn nullable(object: &Map<String, Value>, node: &mut Node) {
    if object.get("nullable") == Some(&Value::Bool(true)) {
        // OpenAPI's `nullable: true`: or null.
        if let Some(types) = &mut node.types {
            types.insert(Types::NULL);
        }
        if let Some(values) = &mut node.enum_values {
            if !values.contains(&Value::Null) {
                values.push(Value::Null);
            }
        }
    }
}

/// A numeric format (`int32`, `uint8`, `float`...) read as the range of its type: its
/// bounds become `minimum`/`maximum` where they are tighter than every bound written.
fn number_format(node: &mut Node, format: NumberFormat) {
    let Some((low, high)) = format.bounds() else { return };
    let tighter_low = [&node.minimum, &node.exclusive_minimum]
        .into_iter()
        .flatten()
        .all(|written| crate::equal::compare(&low, written).is_gt());
    if tighter_low {
        node.minimum = Some(low);
    }
    let tighter_high = [&node.maximum, &node.exclusive_maximum]
        .into_iter()
        .flatten()
        .all(|written| crate::equal::compare(&high, written).is_lt());
    if tighter_high {
        node.maximum = Some(high);
    }
}

fn parse_types(pointer: &str, types: &Value) -> Result<Types, SchemaError> {
    let mut set = Types::default();
    let mut add = |name: &Value| -> Result<(), SchemaError> {
        let name = name.as_str().ok_or_else(|| error(pointer, "`type` must name types as strings"))?;
        let bit = Types::from_name(name).ok_or_else(|| error(pointer, format!("unknown type `{name}`")))?;
        set.insert(bit);
        Ok(())
    };
    match types {
        // Every draft's metaschema asks for at least one: no type at all would refuse every
        // value, which is a mistake in the schema, not in a call.
        Value::Array(names) if names.is_empty() => {
            return Err(error(pointer, "`type` must name at least one type"));
        }
        Value::Array(names) => names.iter().try_for_each(&mut add)?,
        name => add(name)?,
    }
    Ok(set)
}

fn number(pointer: &str, object: &Map<String, Value>, keyword: &str) -> Result<Option<Number>, SchemaError> {
    match object.get(keyword) {
        None => Ok(None),
        Some(Value::Number(n)) => Ok(Some(n.clone())),
        Some(_) => Err(error(pointer, format!("`{keyword}` must be a number"))),
    }
}

pub(super) fn count(
    pointer: &str,
    object: &Map<String, Value>,
    keyword: &str,
) -> Result<Option<u64>, SchemaError> {
    match object.get(keyword) {
        None => Ok(None),
        Some(Value::Number(n)) => {
            if let Some(n) = n.as_u64() {
                return Ok(Some(n));
            }
            match n.as_f64() {
                Some(f) if f >= 0.0 && f.fract() == 0.0 => Ok(Some(f as u64)),
                _ => Err(error(pointer, format!("`{keyword}` must be a non-negative integer"))),
            }
        }
        Some(_) => Err(error(pointer, format!("`{keyword}` must be a non-negative integer"))),
    }
}

pub(super) fn compile_pattern(pointer: &str, pattern: &str) -> Result<Pattern, SchemaError> {
    Pattern::new(pattern).map_err(|e| error(pointer, format!("invalid pattern `{pattern}`: {e}")))
}
