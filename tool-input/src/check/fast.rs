//! The one-pass fast path for typed calls: deserialize `T` straight from the text while
//! checking every value against the plan as serde hands it over.
//!
//! Most calls are exact: strict JSON that needs no coercion. For those, building a
//! `serde_json::Value`, walking it, then deserializing `T` from it costs three passes and an
//! allocation per node. Here a wrapping [`Deserializer`] (in the manner of
//! `serde_path_to_error`) checks each scalar, array and object against its schema node on the
//! way into `T`.
//!
//! Under the default policy it also makes the common representation coercions on the way,
//! exactly as the walker would (same rules, same records): a number or boolean sent as a
//! string, an enum value in other letter case, an array or object sent as a JSON string
//! (parsed, then read through this same path). The moment anything else is not exactly valid
//! — another coercion, a constraint broken, a keyword this path does not evaluate (`oneOf`,
//! `allOf`, a general `anyOf`, `uniqueItems`, `patternProperties`, `not`), a coercion under
//! a union or under the strict or lenient policy — it aborts, and the caller takes the full
//! path, which coerces or explains. So this path only ever accepts what the full path accepts,
//! with the same value and the same report (coercions and defaults filled for absent
//! properties).

use std::borrow::Cow;
use std::cell::RefCell;
use std::fmt;

use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, IntoDeserializer, MapAccess, SeqAccess, Visitor,
};
use serde_json::{Number, Value};

use std::collections::HashMap;

use std::cell::Cell;

use super::coerce::{
    bool_from_text, container_from_text, integer_from_float, number_from_text, spelling_match,
};
use super::{compare, json_equal, message::echo, FieldOverride};
use crate::plan::{Additional, Chain, Node, NodeId, Plan, Types};
use crate::policy::Policy;
use crate::report::{Coercion, CoercionKind};
use crate::validator::Limits;

/// Shared state of one fast deserialization.
pub(crate) struct Fast<'p, 'de> {
    plan: &'p Plan,
    overrides: &'p HashMap<String, FieldOverride>,
    /// Path of the value being read, for the coercion records.
    path: RefCell<Vec<Segment<'de>>>,
    /// The key just read in the innermost object, for `next_value_seed`.
    key: RefCell<Option<Cow<'de, str>>>,
    coercions: RefCell<Vec<Coercion>>,
    max_echo: usize,
    max_string_bytes: usize,
    max_depth: usize,
    /// The call's policy (a top-level field may override it).
    policy: Policy,
    /// How many `anyOf` unions the value being read is inside: the walker tries coercions
    /// there branch by branch, so this path makes none.
    unions: Cell<usize>,
}

/// A string read as what its schema declares (see [`Fast::coerce_str`]).
enum Coerced<'p> {
    Number(Number),
    Bool(bool),
    /// The enum option spelled like the string but for letter case.
    Option(&'p str),
    /// The JSON array or object the string held.
    Parsed(Value),
}

enum Segment<'de> {
    Key(Cow<'de, str>),
    Index(usize),
}

/// The error that abandons the fast path; its text is never shown.
fn abort<E: de::Error>() -> E {
    E::custom("value needs the full check")
}

impl<'p, 'de> Fast<'p, 'de> {
    pub fn new(
        plan: &'p Plan,
        overrides: &'p HashMap<String, FieldOverride>,
        limits: &Limits,
        policy: Policy,
    ) -> Self {
        Fast {
            plan,
            overrides,
            path: RefCell::new(Vec::new()),
            key: RefCell::new(None),
            coercions: RefCell::new(Vec::new()),
            max_echo: limits.max_echo_chars,
            max_string_bytes: limits.max_string_bytes,
            max_depth: limits.max_depth,
            policy,
            unions: Cell::new(0),
        }
    }

    /// Deserialize `T` from `deserializer`, checking it against the plan's root.
    pub fn run<T, D>(&self, deserializer: D) -> Result<T, D::Error>
    where
        T: de::Deserialize<'de>,
        D: Deserializer<'de>,
    {
        T::deserialize(Checked { de: deserializer, fast: self, node: Some(self.plan.root) })
    }

    pub fn into_coercions(self) -> Vec<Coercion> {
        self.coercions.into_inner()
    }

    /// The nodes whose keywords apply to a value of `id`: it and its `$ref` chain. `None`
    /// when one of them uses a keyword this path does not evaluate.
    fn chain(&self, id: NodeId) -> Option<Chain> {
        self.plan.nodes[id].fast_chain
    }

    /// For `Some(value)` of an Option: the node of the non-null value. Either the node
    /// itself (`"type": ["string", "null"]`), or the one non-null branch of an `anyOf` with a
    /// `{"type": "null"}` branch (what schemars writes for `Option<Struct>`).
    fn non_null(&self, id: NodeId) -> Option<NodeId> {
        let node = &self.plan.nodes[id];
        if node.any_of.is_empty() {
            return Some(id);
        }
        if node.any_of.len() != 2 || node.types.is_some() || node.reference.is_some() {
            return None;
        }
        let is_null = |branch: NodeId| {
            let b = &self.plan.nodes[branch];
            b.types == Some(Types::NULL) && b.reference.is_none() && b.any_of.is_empty()
        };
        match (is_null(node.any_of[0]), is_null(node.any_of[1])) {
            (true, false) => Some(node.any_of[1]),
            (false, true) => Some(node.any_of[0]),
            _ => None,
        }
    }

    fn accepts_null(&self, id: NodeId) -> bool {
        let node = &self.plan.nodes[id];
        if node.any_of.len() == 2 {
            return self.non_null(id).is_some();
        }
        self.check_scalar(id, &Value::Null)
    }

    /// Is a scalar exactly valid at `id`?
    fn check_scalar(&self, id: NodeId, value: &Value) -> bool {
        let Some(chain) = self.chain(id) else { return false };
        chain.nodes(self.plan).all(|node| scalar_ok(node, value))
    }

    fn check_str(&self, id: NodeId, text: &str) -> bool {
        if text.len() > self.max_string_bytes {
            return false;
        }
        let Some(chain) = self.chain(id) else { return false };
        chain.nodes(self.plan).all(|node| {
            if node.types.is_some_and(|t| !t.contains(Types::STRING)) {
                return false;
            }
            let matches = |v: &Value| v.as_str() == Some(text);
            if node.enum_values.as_ref().is_some_and(|options| !options.iter().any(matches)) {
                return false;
            }
            if node.const_value.as_ref().is_some_and(|c| !matches(c)) {
                return false;
            }
            if node.min_length.is_some() || node.max_length.is_some() {
                let length = text.chars().count() as u64;
                if node.min_length.is_some_and(|min| length < min)
                    || node.max_length.is_some_and(|max| length > max)
                {
                    return false;
                }
            }
            node.pattern.as_ref().is_none_or(|pattern| pattern.is_match(text))
        })
    }

    /// Checks on an array or object itself (not its members), and its single node.
    fn container(&self, id: NodeId, kind: Types) -> Option<&'p Node> {
        let chain = self.chain(id)?;
        let mut found: Option<&'p Node> = None;
        for node in chain.nodes(self.plan) {
            if node.types.is_some_and(|t| !t.contains(kind))
                || node.enum_values.is_some()
                || node.const_value.is_some()
            {
                return None;
            }
            let constrains = if kind == Types::ARRAY {
                !node.prefix_items.is_empty()
                    || node.items.is_some()
                    || node.min_items.is_some()
                    || node.max_items.is_some()
            } else {
                !node.properties.is_empty()
                    || !node.required.is_empty()
                    || node.additional != Additional::Allow
                    || node.min_properties.is_some()
                    || node.max_properties.is_some()
            };
            if constrains {
                // Two nodes of one chain both constraining members: the full path merges them.
                if found.is_some() {
                    return None;
                }
                found = Some(node);
            }
        }
        Some(found.unwrap_or(&self.plan.nodes[id]))
    }

    /// Is the value at the current path, or at its property `name` when the path is the root,
    /// sensitive? Sensitivity is set on top-level properties and covers what is below them.
    fn sensitive(&self, name: &str) -> bool {
        if self.overrides.is_empty() {
            return false;
        }
        let path = self.path.borrow();
        let top = match path.first() {
            Some(Segment::Key(key)) => key.as_ref(),
            Some(Segment::Index(_)) => return false,
            None => name,
        };
        self.overrides.get(top).is_some_and(|field| field.sensitive)
    }

    /// The policy and redaction at the current path: the call's, unless the top-level
    /// property it is under overrides them (as the walker's `mode_for`).
    fn mode_here(&self) -> (Policy, bool) {
        if self.overrides.is_empty() {
            return (self.policy, false);
        }
        let path = self.path.borrow();
        match path.first() {
            Some(Segment::Key(key)) => match self.overrides.get(key.as_ref()) {
                Some(field) => (field.policy.unwrap_or(self.policy), field.sensitive),
                None => (self.policy, false),
            },
            _ => (self.policy, false),
        }
    }

    /// The string `text`, which `id` does not accept as it is, read as what `id` declares,
    /// by the walker's rules for the default policy (`coerce.rs`): an array or object in a
    /// JSON string, a number, a boolean, an enum option in other letter case. `None` when the
    /// walker would not coerce it here, or when the result would still not be exactly valid
    /// (the walker then explains). The coercion is recorded.
    fn coerce_str(&self, id: NodeId, text: &str) -> Option<Coerced<'p>> {
        if self.unions.get() > 0 || text.len() > self.max_string_bytes {
            return None;
        }
        let (policy, sensitive) = self.mode_here();
        if policy != Policy::Default {
            return None;
        }
        // The walker coerces at the nodes of the chain in turn; here one node must declare
        // the types and options, and the others nothing a coercion would meet.
        let chain = self.chain(id)?;
        let mut typed: Option<&'p Node> = None;
        for node in chain.nodes(self.plan) {
            if node.types.is_some() || node.enum_values.is_some() || node.const_value.is_some() {
                if typed.is_some() {
                    return None;
                }
                typed = Some(node);
            }
        }
        let node = typed?;
        let shown = |value: &Value| (!sensitive).then(|| echo(value, self.max_echo));
        let (coerced, to, kind) = match node.types {
            Some(types) if !types.contains(Types::STRING) => {
                let mut found = None;
                let depth = self.path.borrow().len();
                if let Some(parsed) = container_from_text(text, types, self.max_depth.saturating_sub(depth)) {
                    let to = shown(&parsed);
                    found = Some((Coerced::Parsed(parsed), to, CoercionKind::ParsedString));
                }
                if found.is_none() && (types.contains(Types::NUMBER) || types.contains(Types::INTEGER)) {
                    if let Some(number) = number_from_text(text) {
                        let number = match integer_from_float(&number) {
                            Some(integer) if !types.contains(Types::NUMBER) => integer,
                            _ => number,
                        };
                        let converted = Value::Number(number.clone());
                        if types.accepts(&converted) {
                            // The walker's choice; if the number breaks a constraint, it explains.
                            if !self.check_scalar(id, &converted) {
                                return None;
                            }
                            let to = shown(&converted);
                            found = Some((Coerced::Number(number), to, CoercionKind::NumberFromString));
                        }
                    }
                }
                if found.is_none() && types.contains(Types::BOOLEAN) {
                    if let Some(flag) = bool_from_text(text, false) {
                        let converted = Value::Bool(flag);
                        if !self.check_scalar(id, &converted) {
                            return None;
                        }
                        found = Some((Coerced::Bool(flag), shown(&converted), CoercionKind::BoolFromString));
                    }
                }
                // (The parsed container is checked as it is read; a scalar was checked above.)
                found?
            }
            _ => {
                let options = match (&node.enum_values, &node.const_value) {
                    (Some(options), _) => options.as_slice(),
                    (None, Some(constant)) => std::slice::from_ref(constant),
                    (None, None) => return None,
                };
                let matched = spelling_match(text, options, false)?;
                let option = matched.as_str()?;
                if !self.check_str(id, option) {
                    return None;
                }
                (Coerced::Option(option), shown(matched), CoercionKind::EnumCase)
            }
        };
        let from = (!sensitive).then(|| echo(&Value::String(text.to_owned()), self.max_echo));
        self.coercions.borrow_mut().push(Coercion { path: self.pointer(), kind, from, to });
        Some(coerced)
    }

    fn pointer(&self) -> String {
        let mut pointer = String::new();
        for segment in self.path.borrow().iter() {
            pointer.push('/');
            match segment {
                Segment::Key(key) => pointer.push_str(&key.replace('~', "~0").replace('/', "~1")),
                Segment::Index(index) => pointer.push_str(&index.to_string()),
            }
        }
        pointer
    }
}

fn scalar_ok(node: &Node, value: &Value) -> bool {
    if node.types.is_some_and(|t| !t.accepts(value)) {
        return false;
    }
    // Integral floats are integers to JSON Schema, but the full path rewrites them for serde.
    if let (Some(types), Value::Number(n)) = (node.types, value) {
        if types.contains(Types::INTEGER) && !types.contains(Types::NUMBER) && !(n.is_i64() || n.is_u64()) {
            return false;
        }
    }
    if node.enum_values.as_ref().is_some_and(|options| !options.iter().any(|o| json_equal(o, value))) {
        return false;
    }
    if node.const_value.as_ref().is_some_and(|c| !json_equal(c, value)) {
        return false;
    }
    if let Value::Number(n) = value {
        let below = |bound: &Option<Number>, exclusive: bool| {
            bound.as_ref().is_some_and(|b| {
                let order = compare(n, b);
                if exclusive {
                    order != std::cmp::Ordering::Greater
                } else {
                    order == std::cmp::Ordering::Less
                }
            })
        };
        let above = |bound: &Option<Number>, exclusive: bool| {
            bound.as_ref().is_some_and(|b| {
                let order = compare(n, b);
                if exclusive {
                    order != std::cmp::Ordering::Less
                } else {
                    order == std::cmp::Ordering::Greater
                }
            })
        };
        if below(&node.minimum, false)
            || above(&node.maximum, false)
            || below(&node.exclusive_minimum, true)
            || above(&node.exclusive_maximum, true)
        {
            return false;
        }
        if node.multiple_of.is_some_and(|m| !super::is_multiple_of(n, m)) {
            return false;
        }
    }
    true
}

/// The wrapping deserializer: `node` is the schema of the value it reads; `None` means any
/// value is fine (an undeclared property where others are allowed).
struct Checked<'f, 'p, 'de, D> {
    de: D,
    fast: &'f Fast<'p, 'de>,
    node: Option<NodeId>,
}

/// The wrapping visitor.
struct Wrap<'f, 'p, 'de, V> {
    inner: V,
    fast: &'f Fast<'p, 'de>,
    node: Option<NodeId>,
}

macro_rules! forward {
    ($($method:ident)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
                let wrap = Wrap { inner: visitor, fast: self.fast, node: self.node };
                self.de.$method(wrap)
            }
        )*
    };
}

/// Methods for values a string may stand for (a number, a boolean, an array or object
/// sent as JSON text): read as whatever the input holds, so that a string reaches the
/// visitor, which coerces it (`serde_json` refuses a string for `deserialize_i64` without
/// showing it to the visitor). For JSON input, `deserialize_any` hands these types' visitors
/// exactly what the typed methods would.
macro_rules! any_when_checked {
    ($($method:ident)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
                let wrap = Wrap { inner: visitor, fast: self.fast, node: self.node };
                if self.node.is_some() {
                    self.de.deserialize_any(wrap)
                } else {
                    self.de.$method(wrap)
                }
            }
        )*
    };
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Checked<'_, '_, 'de, D> {
    type Error = D::Error;

    forward! {
        deserialize_any deserialize_i128 deserialize_u128 deserialize_char
        deserialize_str deserialize_string deserialize_bytes deserialize_byte_buf
        deserialize_option deserialize_unit deserialize_identifier deserialize_ignored_any
    }

    any_when_checked! {
        deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64 deserialize_f32
        deserialize_f64 deserialize_seq deserialize_map
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        let wrap = Wrap { inner: visitor, fast: self.fast, node: self.node };
        self.de.deserialize_unit_struct(name, wrap)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        let wrap = Wrap { inner: visitor, fast: self.fast, node: self.node };
        self.de.deserialize_newtype_struct(name, wrap)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, D::Error> {
        let wrap = Wrap { inner: visitor, fast: self.fast, node: self.node };
        if self.node.is_some() {
            return self.de.deserialize_any(wrap);
        }
        self.de.deserialize_tuple(len, wrap)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        let wrap = Wrap { inner: visitor, fast: self.fast, node: self.node };
        if self.node.is_some() {
            return self.de.deserialize_any(wrap);
        }
        self.de.deserialize_tuple_struct(name, len, wrap)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        let wrap = Wrap { inner: visitor, fast: self.fast, node: self.node };
        if self.node.is_some() {
            return self.de.deserialize_any(wrap);
        }
        self.de.deserialize_struct(name, fields, wrap)
    }

    /// Only enums sent as a string (unit variants) are read here: the string is checked
    /// against the node, then handed to the enum's visitor as its variant name. Anything else
    /// (a variant with data) takes the full path.
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        match self.node {
            Some(node) => self.de.deserialize_str(UnitVariant { inner: visitor, fast: self.fast, node }),
            None => Err(abort()),
        }
    }

    fn is_human_readable(&self) -> bool {
        self.de.is_human_readable()
    }
}

/// Reads a string and passes it to an enum visitor as a unit variant.
struct UnitVariant<'f, 'p, 'de, V> {
    inner: V,
    fast: &'f Fast<'p, 'de>,
    node: NodeId,
}

impl<'de, V: Visitor<'de>> Visitor<'de> for UnitVariant<'_, '_, 'de, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.inner.expecting(f)
    }

    fn visit_borrowed_str<E: de::Error>(self, text: &'de str) -> Result<V::Value, E> {
        if !self.fast.check_str(self.node, text) {
            return self.coerced(text);
        }
        self.inner.visit_enum(de::value::BorrowedStrDeserializer::new(text))
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<V::Value, E> {
        if !self.fast.check_str(self.node, text) {
            return self.coerced(text);
        }
        self.inner.visit_enum(de::value::StrDeserializer::new(text))
    }
}

impl<'de, V: Visitor<'de>> UnitVariant<'_, '_, 'de, V> {
    /// The variant spelled like `text` but for letter case, or the full path.
    fn coerced<E: de::Error>(self, text: &str) -> Result<V::Value, E> {
        match self.fast.coerce_str(self.node, text) {
            Some(Coerced::Option(option)) => self.inner.visit_enum(de::value::StrDeserializer::new(option)),
            _ => Err(abort()),
        }
    }
}

impl<'de, V: Visitor<'de>> Wrap<'_, '_, 'de, V> {
    fn scalar<E: de::Error>(&self, value: Value) -> Result<(), E> {
        match self.node {
            Some(node) if !self.fast.check_scalar(node, &value) => Err(abort()),
            _ => Ok(()),
        }
    }

    /// Is `text` exactly valid here? (`None` node: anything is.)
    fn string_ok(&self, text: &str) -> bool {
        self.node.is_none_or(|node| self.fast.check_str(node, text))
    }

    /// Hand the coerced form of `text` to the inner visitor, or abort.
    fn coerced<E: de::Error>(self, text: &str) -> Result<V::Value, E> {
        let Some(node) = self.node else { return Err(abort()) };
        match self.fast.coerce_str(node, text) {
            Some(Coerced::Number(number)) => number.deserialize_any(self.inner).map_err(|_| abort()),
            Some(Coerced::Bool(flag)) => self.inner.visit_bool(flag),
            Some(Coerced::Option(option)) => self.inner.visit_str(option),
            Some(Coerced::Parsed(value)) => {
                // Read through this path again, so what is inside is checked and coerced too.
                let checked = Checked { de: value, fast: self.fast, node: self.node };
                checked.deserialize_any(self.inner).map_err(|_| abort())
            }
            None => Err(abort()),
        }
    }
}

macro_rules! number {
    ($($method:ident: $ty:ty => $convert:expr,)*) => {
        $(
            fn $method<E: de::Error>(self, v: $ty) -> Result<Self::Value, E> {
                let number: Option<Number> = $convert(v);
                match number {
                    Some(number) => self.scalar(Value::Number(number))?,
                    None => return Err(abort()),
                }
                self.inner.$method(v)
            }
        )*
    };
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Wrap<'_, '_, 'de, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.inner.expecting(f)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<V::Value, E> {
        self.scalar(Value::Bool(v))?;
        self.inner.visit_bool(v)
    }

    number! {
        visit_i8: i8 => |v: i8| Some(Number::from(v)),
        visit_i16: i16 => |v: i16| Some(Number::from(v)),
        visit_i32: i32 => |v: i32| Some(Number::from(v)),
        visit_i64: i64 => |v: i64| Some(Number::from(v)),
        visit_u8: u8 => |v: u8| Some(Number::from(v)),
        visit_u16: u16 => |v: u16| Some(Number::from(v)),
        visit_u32: u32 => |v: u32| Some(Number::from(v)),
        visit_u64: u64 => |v: u64| Some(Number::from(v)),
        visit_f32: f32 => |v: f32| Number::from_f64(f64::from(v)),
        visit_f64: f64 => Number::from_f64,
        visit_i128: i128 => |v: i128| i64::try_from(v).ok().map(Number::from),
        visit_u128: u128 => |v: u128| u64::try_from(v).ok().map(Number::from),
    }

    fn visit_char<E: de::Error>(self, v: char) -> Result<V::Value, E> {
        if !self.string_ok(v.encode_utf8(&mut [0; 4])) {
            return Err(abort());
        }
        self.inner.visit_char(v)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<V::Value, E> {
        if !self.string_ok(v) {
            return self.coerced(v);
        }
        self.inner.visit_str(v)
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<V::Value, E> {
        if !self.string_ok(v) {
            return self.coerced(v);
        }
        self.inner.visit_borrowed_str(v)
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<V::Value, E> {
        if !self.string_ok(&v) {
            return self.coerced(&v);
        }
        self.inner.visit_string(v)
    }

    fn visit_bytes<E: de::Error>(self, _: &[u8]) -> Result<V::Value, E> {
        Err(abort())
    }

    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        if self.node.is_some_and(|node| !self.fast.accepts_null(node)) {
            return Err(abort());
        }
        self.inner.visit_none()
    }

    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        if self.node.is_some_and(|node| !self.fast.accepts_null(node)) {
            return Err(abort());
        }
        self.inner.visit_unit()
    }

    fn visit_some<D2: Deserializer<'de>>(self, deserializer: D2) -> Result<V::Value, D2::Error> {
        let node = match self.node {
            Some(node) => Some(self.fast.non_null(node).ok_or_else(abort)?),
            None => None,
        };
        // The non-null branch of an `anyOf`: no coercion below it (see `Fast::unions`).
        let union = node != self.node;
        if union {
            self.fast.unions.set(self.fast.unions.get() + 1);
        }
        let result = self.inner.visit_some(Checked { de: deserializer, fast: self.fast, node });
        if union {
            self.fast.unions.set(self.fast.unions.get() - 1);
        }
        result
    }

    fn visit_newtype_struct<D2: Deserializer<'de>>(self, deserializer: D2) -> Result<V::Value, D2::Error> {
        self.inner.visit_newtype_struct(Checked { de: deserializer, fast: self.fast, node: self.node })
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        let node = match self.node {
            Some(id) => Some(self.fast.container(id, Types::ARRAY).ok_or_else(abort)?),
            None => None,
        };
        self.inner.visit_seq(Seq { seq, fast: self.fast, node, index: 0 })
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        let node = match self.node {
            Some(id) => Some(self.fast.container(id, Types::OBJECT).ok_or_else(abort)?),
            None => None,
        };
        let seen = Seen::new(node.map_or(0, |n| n.properties.len()));
        self.inner.visit_map(Object { map, fast: self.fast, node, seen })
    }

    fn visit_enum<A: EnumAccess<'de>>(self, _: A) -> Result<V::Value, A::Error> {
        // Enums are read in `deserialize_enum`; one arriving here carries data.
        Err(abort())
    }
}

/// The members of an array, each checked against its item schema.
struct Seq<'f, 'p, 'de, A> {
    seq: A,
    fast: &'f Fast<'p, 'de>,
    node: Option<&'p Node>,
    index: usize,
}

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for Seq<'_, '_, 'de, A> {
    type Error = A::Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, A::Error> {
        let item = self.node.and_then(|node| node.prefix_items.get(self.index).copied().or(node.items));
        self.fast.path.borrow_mut().push(Segment::Index(self.index));
        let result = self.seq.next_element_seed(Seed { seed, fast: self.fast, node: item });
        self.fast.path.borrow_mut().pop();
        let element = result?;
        match element {
            Some(_) => self.index += 1,
            None => {
                if let Some(node) = self.node {
                    let count = self.index as u64;
                    if node.min_items.is_some_and(|min| count < min)
                        || node.max_items.is_some_and(|max| count > max)
                    {
                        return Err(abort());
                    }
                }
            }
        }
        Ok(element)
    }

    fn size_hint(&self) -> Option<usize> {
        self.seq.size_hint()
    }
}

/// Which declared properties were sent: bits on the stack, a vector past 64.
enum Seen {
    Small(u64),
    Large(Vec<bool>),
}

impl Seen {
    fn new(count: usize) -> Self {
        if count <= 64 {
            Seen::Small(0)
        } else {
            Seen::Large(vec![false; count])
        }
    }

    fn insert(&mut self, index: usize) -> bool {
        match self {
            Seen::Small(bits) => {
                let fresh = *bits & (1 << index) == 0;
                *bits |= 1 << index;
                fresh
            }
            Seen::Large(flags) => !std::mem::replace(&mut flags[index], true),
        }
    }

    fn contains(&self, index: usize) -> bool {
        match self {
            Seen::Small(bits) => *bits & (1 << index) != 0,
            Seen::Large(flags) => flags[index],
        }
    }
}

/// The members of an object: keys checked against the declared properties, values against
/// their schemas, and at the end `required` and the defaults of absent properties.
struct Object<'f, 'p, 'de, A> {
    map: A,
    fast: &'f Fast<'p, 'de>,
    node: Option<&'p Node>,
    seen: Seen,
}

impl<'de, A: MapAccess<'de>> Object<'_, '_, 'de, A> {
    fn finish(&mut self) -> Result<(), A::Error> {
        let Some(node) = self.node else { return Ok(()) };
        if node.required_declared.iter().any(|&index| !self.seen.contains(index))
            || !node.required_other.is_empty()
        {
            return Err(abort());
        }
        let count = (0..node.properties.len()).filter(|&i| self.seen.contains(i)).count() as u64;
        if node.min_properties.is_some() || node.max_properties.is_some() {
            // Undeclared properties would count too; only the full path counts them all.
            if node.additional != Additional::Deny
                || node.min_properties.is_some_and(|min| count < min)
                || node.max_properties.is_some_and(|max| count > max)
            {
                return Err(abort());
            }
        }
        for (index, default) in &node.defaults {
            if !self.seen.contains(*index) {
                let fast = self.fast;
                let mut path = fast.pointer();
                let name = &node.properties[*index].0;
                path.push('/');
                path.push_str(&name.replace('~', "~0").replace('/', "~1"));
                let sensitive = fast.sensitive(name);
                fast.coercions.borrow_mut().push(Coercion {
                    path,
                    kind: CoercionKind::DefaultFilled,
                    from: None,
                    to: (!sensitive).then(|| echo(default, fast.max_echo)),
                });
            }
        }
        Ok(())
    }
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Object<'_, '_, 'de, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, A::Error> {
        let key = self.map.next_key_seed(Key { seed, fast: self.fast })?;
        if key.is_none() {
            self.finish()?;
        }
        Ok(key)
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, A::Error> {
        let key = self.fast.key.borrow_mut().take().ok_or_else(abort)?;
        let child = match self.node {
            None => None,
            Some(node) => match node.property_index_of(&key) {
                Some(index) => {
                    if !self.seen.insert(index) {
                        return Err(abort()); // a duplicate key: the full path decides
                    }
                    Some(node.properties[index].1)
                }
                None => match node.additional {
                    Additional::Allow => None,
                    Additional::Schema(schema) => Some(schema),
                    Additional::Deny => return Err(abort()),
                },
            },
        };
        self.fast.path.borrow_mut().push(Segment::Key(key));
        let result = self.map.next_value_seed(Seed { seed, fast: self.fast, node: child });
        self.fast.path.borrow_mut().pop();
        result
    }

    fn size_hint(&self) -> Option<usize> {
        self.map.size_hint()
    }
}

/// A member's seed, reading the member through a [`Checked`] deserializer.
struct Seed<'f, 'p, 'de, S> {
    seed: S,
    fast: &'f Fast<'p, 'de>,
    node: Option<NodeId>,
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Seed<'_, '_, 'de, S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<S::Value, D::Error> {
        self.seed.deserialize(Checked { de: deserializer, fast: self.fast, node: self.node })
    }
}

/// A key's seed: remembers the key text for `next_value_seed`.
struct Key<'f, 'p, 'de, S> {
    seed: S,
    fast: &'f Fast<'p, 'de>,
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Key<'_, '_, 'de, S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<S::Value, D::Error> {
        // JSON keys are strings: read the key as a string, remember it, then give it to the
        // key's own seed (a struct's field identifier, a map's key type) as a string.
        let fast = self.fast;
        deserializer.deserialize_str(KeyVisitor { seed: self.seed, fast })
    }
}

struct KeyVisitor<'f, 'p, 'de, S> {
    seed: S,
    fast: &'f Fast<'p, 'de>,
}

impl<'de, S: DeserializeSeed<'de>> Visitor<'de> for KeyVisitor<'_, '_, 'de, S> {
    type Value = S::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object key")
    }

    fn visit_borrowed_str<E: de::Error>(self, key: &'de str) -> Result<S::Value, E> {
        *self.fast.key.borrow_mut() = Some(Cow::Borrowed(key));
        self.seed.deserialize(de::value::BorrowedStrDeserializer::new(key))
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<S::Value, E> {
        *self.fast.key.borrow_mut() = Some(Cow::Owned(key.to_owned()));
        self.seed.deserialize(key.into_deserializer())
    }

    fn visit_string<E: de::Error>(self, key: String) -> Result<S::Value, E> {
        *self.fast.key.borrow_mut() = Some(Cow::Owned(key.clone()));
        self.seed.deserialize(key.into_deserializer())
    }
}
