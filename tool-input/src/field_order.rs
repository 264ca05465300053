//! The order a derived type declares its fields in, for its schema's property lists.
//!
//! schemars writes a struct's properties in declaration order, but into a `serde_json::Map`,
//! which sorts them unless serde_json's `preserve_order` feature is on in the build. serde's
//! derive still knows the order: it hands `deserialize_struct` the struct's field names as
//! declared. A probe deserializer asks for them, following a path of field names down
//! through `Option`, `Vec`, `Box` and newtypes to nested structs, and stops (with an error,
//! never a value) once it has them. Types whose `Deserialize` is not a derived struct (a
//! map, a flattened struct, an enum) give no order: their properties keep the map's.

use std::cell::RefCell;
use std::fmt;

use serde::de::{self, DeserializeOwned, DeserializeSeed, IntoDeserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use crate::key_order::KeyOrder;
use crate::pointer::escape_token;

/// How deep into nested structs the probe follows fields.
const MAX_DEPTH: usize = 32;
/// Most structs probed for one type (each field of a struct type is one probe).
const MAX_PROBES: usize = 512;

/// The declared order of the properties of every struct `T` holds, keyed by the pointer of
/// the `properties` object that lists them in `schema` (`T`'s schema, `$ref`s to `$defs`).
pub(crate) fn of<T: DeserializeOwned>(schema: &Value) -> KeyOrder {
    let mut walk = Walk { root: schema, order: KeyOrder::sorting_others(), probes: 0, probe: fields::<T> };
    walk.object(schema, String::new(), &mut Vec::new(), 0);
    walk.order
}

struct Walk<'s> {
    root: &'s Value,
    order: KeyOrder,
    probes: usize,
    probe: fn(&[String]) -> Option<Vec<&'static str>>,
}

impl<'s> Walk<'s> {
    /// Find the object schemas the value at `path` may be held by (through `$ref`, `anyOf`,
    /// `oneOf`, `allOf` and `items`) and record their properties' order.
    fn object(&mut self, schema: &'s Value, pointer: String, path: &mut Vec<String>, depth: usize) {
        if depth > MAX_DEPTH || self.probes >= MAX_PROBES {
            return;
        }
        let Some(object) = schema.as_object() else { return };
        if let Some(target) = object.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix('#')) {
            if let Some(found) = self.root.pointer(target) {
                self.object(found, target.to_owned(), path, depth + 1);
            }
        }
        for applicator in ["anyOf", "oneOf", "allOf"] {
            if let Some(branches) = object.get(applicator).and_then(Value::as_array) {
                for (index, branch) in branches.iter().enumerate() {
                    self.object(branch, format!("{pointer}/{applicator}/{index}"), path, depth + 1);
                }
            }
        }
        if let Some(items) = object.get("items") {
            self.object(items, format!("{pointer}/items"), path, depth + 1);
        }
        let Some(properties) = object.get("properties").and_then(Value::as_object) else { return };
        let base = format!("{pointer}/properties");
        if self.order.get(&base).is_some() {
            return;
        }
        self.probes += 1;
        let Some(fields) = (self.probe)(path) else { return };
        let names: Vec<String> = fields.iter().map(|name| (*name).to_owned()).collect();
        self.order.insert(base.clone(), names);
        for name in fields {
            if let Some(subschema) = properties.get(name) {
                path.push(name.to_owned());
                self.object(subschema, format!("{base}/{}", escape_token(name)), path, depth + 1);
                path.pop();
            }
        }
    }
}

/// The field names serde's derive declares for the struct at `path` inside `T` (`[]`: `T`).
fn fields<T: DeserializeOwned>(path: &[String]) -> Option<Vec<&'static str>> {
    let found = RefCell::new(None);
    let _ = T::deserialize(Probe { path, found: &found });
    found.into_inner()
}

/// The probe's only error: it never makes a value.
#[derive(Debug)]
struct Stop;

impl fmt::Display for Stop {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("probed")
    }
}

impl std::error::Error for Stop {}

impl de::Error for Stop {
    fn custom<M: fmt::Display>(_: M) -> Self {
        Stop
    }
}

#[derive(Clone, Copy)]
struct Probe<'p> {
    path: &'p [String],
    found: &'p RefCell<Option<Vec<&'static str>>>,
}

impl<'de> de::Deserializer<'de> for Probe<'_> {
    type Error = Stop;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Stop> {
        Err(Stop)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Stop> {
        match self.path.split_first() {
            None => {
                *self.found.borrow_mut() = Some(fields.to_vec());
                Err(Stop)
            }
            Some((field, rest)) => {
                visitor.visit_map(OneField { key: Some(field), value: Probe { path: rest, ..self } })
            }
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Stop> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value, Stop> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Stop> {
        visitor.visit_seq(OneItem(Some(self)))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        unit unit_struct tuple tuple_struct map enum identifier ignored_any
    }
}

/// A map of one entry: the next field of the path, its value probed further.
struct OneField<'p> {
    key: Option<&'p String>,
    value: Probe<'p>,
}

impl<'de> MapAccess<'de> for OneField<'_> {
    type Error = Stop;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Stop> {
        match self.key.take() {
            Some(key) => seed.deserialize(key.as_str().into_deserializer()).map(Some),
            None => Ok(None),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Stop> {
        seed.deserialize(self.value)
    }
}

/// A sequence of one item, probed further.
struct OneItem<'p>(Option<Probe<'p>>);

impl<'de> SeqAccess<'de> for OneItem<'_> {
    type Error = Stop;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, Stop> {
        match self.0.take() {
            Some(probe) => seed.deserialize(probe).map(Some),
            None => Ok(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    use super::*;

    #[allow(dead_code)]
    #[derive(Deserialize)]
    struct Line {
        sku: String,
        #[serde(rename = "qty")]
        quantity: u32,
        note: Option<String>,
    }

    #[allow(dead_code)]
    #[derive(Deserialize)]
    struct Order {
        zone: String,
        lines: Vec<Line>,
        first: Option<Box<Line>>,
        area: u8,
    }

    #[test]
    fn probes_declared_fields_through_wrappers() {
        assert_eq!(fields::<Order>(&[]), Some(vec!["zone", "lines", "first", "area"]));
        assert_eq!(fields::<Order>(&["lines".to_owned()]), Some(vec!["sku", "qty", "note"]));
        assert_eq!(fields::<Order>(&["first".to_owned()]), Some(vec!["sku", "qty", "note"]));
        assert_eq!(fields::<Order>(&["zone".to_owned()]), None);
        assert_eq!(fields::<String>(&[]), None);
    }

    #[test]
    fn maps_fields_to_the_schema_through_refs() {
        let schema = serde_json::json!({
            "properties": {"area": {}, "first": {"anyOf": [{"$ref": "#/$defs/Line"}, {"type": "null"}]},
                           "lines": {"items": {"$ref": "#/$defs/Line"}}, "zone": {}},
            "$defs": {"Line": {"properties": {"note": {}, "qty": {}, "sku": {}}}}
        });
        let order = of::<Order>(&schema);
        assert_eq!(order.get("/properties").unwrap(), ["zone", "lines", "first", "area"]);
        assert_eq!(order.get("/$defs/Line/properties").unwrap(), ["sku", "qty", "note"]);
    }
}
