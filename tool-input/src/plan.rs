//! The coercion and validation plan: a JSON Schema compiled once into an arena of nodes.
//!
//! Every keyword is read and checked here, once, so the walk over each call's arguments
//! ([`crate::check`]) only follows indices and compares values. `$ref`s are resolved to node
//! indices (recursive schemas become cycles in the arena).

use std::collections::HashMap;

use serde_json::{Map, Number, Value};

use crate::equal::ValueIndex;
use crate::error::SharedOptions;
use crate::key_order::KeyOrder;
use crate::keywords::Keyword;
use crate::pattern::Pattern;
use crate::schema_error::SchemaError;
use graph::{first_loop, same_value_excess, Excess};
pub(crate) use graph::{most_applications, MAX_SCHEMA_HOPS};
use values::{compile_pattern, count, nullable};

mod dynamic;
mod fast;
mod graph;
mod keywords;
mod metaschemas;
mod refs;
mod union;
mod values;
mod vocabulary;

pub(crate) use dynamic::DynamicRef;
pub(crate) use refs::{Draft, Resources};

pub(crate) use fast::{Chain, FastNode, FastString};
pub(crate) use union::{Options, UnionShape};

/// Index of a node in [`Plan::nodes`].
pub(crate) type NodeId = usize;

/// Nesting limit of schemas themselves (not of arguments): deeper schemas are refused.
const MAX_SCHEMA_DEPTH: usize = 256;

/// The JSON types a node accepts, as a bit set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Types(u8);

impl Types {
    pub const NULL: Types = Types(1);
    pub const BOOLEAN: Types = Types(2);
    pub const OBJECT: Types = Types(4);
    pub const ARRAY: Types = Types(8);
    pub const NUMBER: Types = Types(16);
    pub const INTEGER: Types = Types(32);
    pub const STRING: Types = Types(64);

    pub fn contains(self, other: Types) -> bool {
        self.0 & other.0 == other.0
    }

    pub fn insert(&mut self, other: Types) {
        self.0 |= other.0;
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The type of one value; integral numbers written as integers are `integer`.
    pub fn of(value: &Value) -> Types {
        match value {
            Value::Null => Types::NULL,
            Value::Bool(_) => Types::BOOLEAN,
            Value::Object(_) => Types::OBJECT,
            Value::Array(_) => Types::ARRAY,
            Value::Number(n) if n.is_i64() || n.is_u64() => Types::INTEGER,
            Value::Number(_) => Types::NUMBER,
            Value::String(_) => Types::STRING,
        }
    }

    pub fn from_name(name: &str) -> Option<Types> {
        Some(match name {
            "null" => Types::NULL,
            "boolean" => Types::BOOLEAN,
            "object" => Types::OBJECT,
            "array" => Types::ARRAY,
            "number" => Types::NUMBER,
            "integer" => Types::INTEGER,
            "string" => Types::STRING,
            _ => return None,
        })
    }

    /// Does a value of this JSON type fit? Integral numbers fit `integer`.
    pub fn accepts(self, value: &Value) -> bool {
        match value {
            Value::Null => self.contains(Types::NULL),
            Value::Bool(_) => self.contains(Types::BOOLEAN),
            Value::Object(_) => self.contains(Types::OBJECT),
            Value::Array(_) => self.contains(Types::ARRAY),
            Value::String(_) => self.contains(Types::STRING),
            Value::Number(n) => {
                self.contains(Types::NUMBER) || (self.contains(Types::INTEGER) && is_integral(n))
            }
        }
    }

    /// Integers and no other number (an integral float is one only when exact).
    pub fn integer_only(self) -> bool {
        self.contains(Types::INTEGER) && !self.contains(Types::NUMBER)
    }

    /// Names of the accepted types, for messages: "an integer", "a string or null". Written
    /// where the message is (`format!("expected {}", types.describe())`), with no string of
    /// its own.
    pub fn describe(self) -> DescribedTypes {
        DescribedTypes(self)
    }
}

/// [`Types::describe`]: the names of the types, as a message writes them.
#[derive(Debug, Clone, Copy)]
pub(crate) struct DescribedTypes(Types);

impl std::fmt::Display for DescribedTypes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let types = self.0;
        let mut names = [""; 7];
        let mut count = 0;
        for (bit, name) in [
            (Types::OBJECT, "an object"),
            (Types::ARRAY, "an array"),
            (Types::STRING, "a string"),
            (Types::INTEGER, "an integer"),
            (Types::NUMBER, "a number"),
            (Types::BOOLEAN, "a boolean"),
            (Types::NULL, "null"),
        ] {
            if types.contains(bit) && !(bit == Types::INTEGER && types.contains(Types::NUMBER)) {
                names[count] = name;
                count += 1;
            }
        }
        match &names[..count] {
            [] => f.write_str("nothing"),
            [only] => f.write_str(only),
            [rest @ .., last] => write!(f, "{} or {last}", rest.join(", ")),
        }
    }
}

pub(crate) fn is_integral(n: &Number) -> bool {
    n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.is_finite() && f.fract() == 0.0)
}

/// What a `not` excludes, as a message names it ([`Node::excludes`]).
#[derive(Debug, Clone, Copy)]
pub(crate) enum Excludes<'n> {
    Value(&'n Value),
    Values(&'n [Value]),
    Types(Types),
    Names(&'n [String]),
}

/// What happens to properties an object schema does not declare.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Additional {
    Allow,
    Deny,
    Schema(NodeId),
}

/// One compiled schema. A default node (every field empty) accepts everything, like `true`.
#[derive(Debug, Clone)]
pub(crate) struct Node {
    /// The `false` schema: nothing is valid.
    pub reject_all: bool,
    pub types: Option<Types>,
    pub enum_values: Option<Vec<Value>>,
    /// Where each `enum` value is: a long `enum` is looked up, not scanned.
    pub enum_index: ValueIndex,
    /// The first `enum` values an error lists, shared by every error that lists them.
    pub enum_listed: SharedOptions,
    pub const_value: Option<Value>,
    pub minimum: Option<Number>,
    pub maximum: Option<Number>,
    pub exclusive_minimum: Option<Number>,
    pub exclusive_maximum: Option<Number>,
    pub multiple_of: Option<f64>,
    pub min_length: Option<u64>,
    pub max_length: Option<u64>,
    pub pattern: Option<Box<Pattern>>,
    pub prefix_items: Vec<NodeId>,
    pub items: Option<NodeId>,
    pub min_items: Option<u64>,
    pub max_items: Option<u64>,
    pub unique_items: bool,
    /// Declared properties in schema order.
    pub properties: Vec<(String, NodeId)>,
    /// The first property names an error lists (an unknown property's), shared.
    pub names_listed: SharedOptions,
    /// Index into `properties` by name, for objects with many properties.
    pub property_index: HashMap<String, usize>,
    /// For objects with few properties, each name's [`NameProbe`], in `properties` order.
    pub property_probes: Vec<NameProbe>,
    pub pattern_properties: Vec<(Pattern, NodeId)>,
    pub required: Vec<String>,
    pub additional: Additional,
    pub min_properties: Option<u64>,
    pub max_properties: Option<u64>,
    pub any_of: Vec<NodeId>,
    pub one_of: Vec<NodeId>,
    pub all_of: Vec<NodeId>,
    pub not: Option<NodeId>,
    pub reference: Option<NodeId>,
    /// A `$dynamicRef` (2020-12) or `$recursiveRef` (2019-09) that resolves by the dynamic
    /// scope (its static target holds the matching anchor); one that does not is a plain
    /// `reference`.
    pub dynamic: Option<Box<DynamicRef>>,
    pub default: Option<Value>,
    /// The `description` annotation (shown beside an option in an error).
    pub description: Option<String>,
    /// What `any_of` is (derived; see `plan::union`).
    pub any_of_shape: Option<Box<UnionShape>>,
    /// What `one_of` is (derived).
    pub one_of_shape: Option<Box<UnionShape>>,
    /// Indices into `properties` of the required ones, in `required` order (derived).
    pub required_declared: Vec<usize>,
    /// Required names that `properties` does not declare (derived).
    pub required_other: Vec<String>,
    /// Whether each property is required, by index into `properties` (derived).
    pub required_flags: Vec<bool>,
    /// The properties with a `default` (looking through `$ref`s), by index (derived).
    pub defaults: Vec<(usize, Value)>,
    /// `additionalProperties` is written (even as `true`): every member is evaluated here,
    /// as `unevaluatedProperties` reads it.
    pub additional_written: bool,
    /// The keywords checked by the `keywords` folder, in the order they are checked.
    pub keywords: Vec<Keyword>,
}

impl Default for Node {
    fn default() -> Self {
        Node {
            reject_all: false,
            types: None,
            enum_values: None,
            enum_index: ValueIndex::default(),
            enum_listed: SharedOptions::default(),
            const_value: None,
            minimum: None,
            maximum: None,
            exclusive_minimum: None,
            exclusive_maximum: None,
            multiple_of: None,
            min_length: None,
            max_length: None,
            pattern: None,
            prefix_items: Vec::new(),
            items: None,
            min_items: None,
            max_items: None,
            unique_items: false,
            properties: Vec::new(),
            names_listed: SharedOptions::default(),
            property_index: HashMap::new(),
            property_probes: Vec::new(),
            pattern_properties: Vec::new(),
            required: Vec::new(),
            additional: Additional::Allow,
            min_properties: None,
            max_properties: None,
            any_of: Vec::new(),
            one_of: Vec::new(),
            all_of: Vec::new(),
            not: None,
            reference: None,
            dynamic: None,
            default: None,
            description: None,
            any_of_shape: None,
            one_of_shape: None,
            required_declared: Vec::new(),
            required_other: Vec::new(),
            required_flags: Vec::new(),
            defaults: Vec::new(),
            additional_written: false,
            keywords: Vec::new(),
        }
    }
}

impl Node {
    /// Does the node assert nothing beyond `type`, `enum` and `const`?
    pub fn is_constant_set(&self) -> bool {
        self.asserts_nothing_else() && self.reference.is_none()
    }

    /// Is the node a `$ref` and nothing else (annotations aside)?
    pub fn only_refers(&self) -> bool {
        self.reference.is_some()
            && self.asserts_nothing_else()
            && self.types.is_none()
            && self.enum_values.is_none()
            && self.const_value.is_none()
    }

    /// No keyword but `type`, `anyOf` and annotations: an Option's schema as schemars
    /// writes it (`anyOf` of a value and `{"type": "null"}`), which the one pass reads by its
    /// `anyOf` alone only when nothing else is said beside it.
    pub fn asserts_only_type_and_any_of(&self) -> bool {
        self.asserts_nothing_but_any_of()
            && self.reference.is_none()
            && self.enum_values.is_none()
            && self.const_value.is_none()
    }

    /// No keyword but `type`, `enum`, `const`, `$ref` and annotations.
    fn asserts_nothing_else(&self) -> bool {
        self.asserts_nothing_but_any_of() && self.any_of.is_empty()
    }

    /// No keyword but `type`, `enum`, `const`, `$ref`, `anyOf` and annotations.
    fn asserts_nothing_but_any_of(&self) -> bool {
        self.asserts_no_bounds()
            && self.one_of.is_empty()
            && self.all_of.is_empty()
            && self.not.is_none()
            && self.dynamic.is_none()
            && self.keywords.is_empty()
    }

    /// No keyword but `type`, `enum`, `const`, the applicators (`$ref`, `allOf`, `anyOf`,
    /// `oneOf`, `not`, the `keywords` folder's) and annotations.
    fn asserts_no_bounds(&self) -> bool {
        self.required.is_empty() && self.asserts_no_bounds_but_required()
    }

    /// [`Node::asserts_no_bounds`], `required` aside.
    fn asserts_no_bounds_but_required(&self) -> bool {
        !self.reject_all
            && self.minimum.is_none()
            && self.maximum.is_none()
            && self.exclusive_minimum.is_none()
            && self.exclusive_maximum.is_none()
            && self.multiple_of.is_none()
            && self.min_length.is_none()
            && self.max_length.is_none()
            && self.pattern.is_none()
            && self.prefix_items.is_empty()
            && self.items.is_none()
            && self.min_items.is_none()
            && self.max_items.is_none()
            && !self.unique_items
            && self.properties.is_empty()
            && self.pattern_properties.is_empty()
            && self.additional == Additional::Allow
            && self.min_properties.is_none()
            && self.max_properties.is_none()
    }

    /// What a `not` of this node excludes, when the node says one thing a message can name:
    /// a `const`, an `enum`, a `type`, or `required` names, alone. `None` for anything else
    /// (a bound, an applicator, two assertions together).
    pub fn excludes(&self) -> Option<Excludes<'_>> {
        let applies = !self.any_of.is_empty()
            || !self.one_of.is_empty()
            || !self.all_of.is_empty()
            || self.not.is_some()
            || self.reference.is_some()
            || self.dynamic.is_some()
            || !self.keywords.is_empty();
        if applies {
            return None;
        }
        if !self.asserts_no_bounds_but_required() {
            return None;
        }
        match (self.required.is_empty(), self.types, &self.enum_values, &self.const_value) {
            (false, None, None, None) if self.properties.is_empty() => Some(Excludes::Names(&self.required)),
            (true, Some(types), None, None) => Some(Excludes::Types(types)),
            (true, None, Some(values), None) => Some(Excludes::Values(values)),
            (true, None, None, Some(value)) => Some(Excludes::Value(value)),
            _ => None,
        }
    }

    /// Can a coercion made under one keyword of this node meet another keyword that checked
    /// (or will check) the value as it was? A `not`, a keyword of the `keywords` folder but
    /// `format`, a `oneOf` whose branches may overlap, or an applicator (`$ref`, `allOf`,
    /// `anyOf`, `oneOf`) beside any other assertion or applicator, or members that two
    /// subschemas check (`properties` and `patternProperties`). The walk coerces a node's own
    /// type before its checks, so a node without applicators never does.
    pub fn entangles_coercions(&self) -> bool {
        let applicators = usize::from(self.reference.is_some())
            + usize::from(self.dynamic.is_some())
            + self.all_of.len()
            + usize::from(!self.any_of.is_empty())
            + usize::from(!self.one_of.is_empty());
        let asserts = self.types.is_some()
            || self.enum_values.is_some()
            || self.const_value.is_some()
            || !self.asserts_no_bounds();
        // A member two subschemas check (a property a pattern also matches, or two
        // patterns): one's coercion meets the other, which read the value as sent.
        let members_checked_twice = match self.pattern_properties.len() {
            0 => false,
            1 => self
                .properties
                .iter()
                .any(|(name, _)| self.pattern_properties[0].0.matches(name) != Ok(false)),
            _ => true,
        };
        self.not.is_some()
            || members_checked_twice
            || self.keywords.iter().any(|keyword| !matches!(keyword, Keyword::Format(_)))
            || matches!(self.one_of_shape.as_deref(), Some(UnionShape::General { .. }))
            || (applicators >= 1 && (applicators >= 2 || asserts))
    }

    /// Index into `properties` of a declared property.
    #[inline(always)]
    pub fn property_index_of(&self, name: &str) -> Option<usize> {
        self.property_index_from(name, usize::MAX)
    }

    /// [`Node::property_index_of`], the property at `guess` tried first: a reader that
    /// guesses the one after the key it read before finds most keys at once, since most
    /// objects are written in their schema's order.
    #[inline(always)]
    pub fn property_index_from(&self, name: &str, guess: usize) -> Option<usize> {
        if self.properties.len() <= 8 {
            // Most names are at most 16 bytes, which their probes tell apart whole: no call
            // to compare bytes, which used to be half the cost of a lookup.
            let probe = NameProbe::of(name);
            let named = |index: usize| {
                self.property_probes[index] == probe && (probe.whole() || self.properties[index].0 == name)
            };
            if guess < self.property_probes.len() && named(guess) {
                return Some(guess);
            }
            (0..self.property_probes.len()).find(|&index| named(index))
        } else if self.properties.get(guess).is_some_and(|(declared, _)| declared == name) {
            Some(guess)
        } else {
            self.property_index.get(name).copied()
        }
    }
}

/// A name's length and two windows of its bytes, the first and the last (up to) eight:
/// for a name of at most 16 bytes they cover it whole, so equal probes mean equal names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct NameProbe {
    length: usize,
    head: u64,
    tail: u64,
}

impl NameProbe {
    // Made for every key read, on the clean path: a call would cost about as much as the
    // probe itself.
    #[inline]
    pub fn of(name: &str) -> NameProbe {
        let bytes = name.as_bytes();
        let (head, tail) = if let (Some(head), Some(tail)) = (bytes.first_chunk(), bytes.last_chunk()) {
            (u64::from_le_bytes(*head), u64::from_le_bytes(*tail))
        } else if let (Some(head), Some(tail)) = (bytes.first_chunk(), bytes.last_chunk()) {
            (u64::from(u32::from_le_bytes(*head)), u64::from(u32::from_le_bytes(*tail)))
        } else {
            (bytes.iter().fold(0, |window, &byte| window << 8 | u64::from(byte)), 0)
        };
        NameProbe { length: bytes.len(), head, tail }
    }

    /// Do the windows cover the whole name?
    fn whole(self) -> bool {
        self.length <= 16
    }
}

/// A compiled schema.
#[derive(Debug, Clone)]
pub(crate) struct Plan {
    pub nodes: Vec<Node>,
    pub root: NodeId,
    /// The JSON types each node may accept, a superset (derived; see `plan::union`).
    pub possible: Vec<Types>,
    /// What the one-pass path reads of each node, by [`NodeId`] (derived; see `plan::fast`).
    pub fast: Vec<FastNode>,
    /// Is every property's `default` exactly valid against its property's schema, so that
    /// the walk, filling it, changes and records nothing more? Set by the validator, which
    /// can walk (the one-pass paths leave calls with defaults to fill to the walk otherwise).
    pub defaults_exact: bool,
    /// Could a coercion the walk makes inside one subschema break another keyword of the
    /// same value (see [`Node::entangles_coercions`])? When not, a coerced value needs no
    /// check against the whole schema after the walk.
    pub coercions_entangled: bool,
    /// Could a default the walk fills meet a keyword that read the object without it, or
    /// that refuses it beside what was sent (see [`Plan::entangles_defaults`])? When not, a
    /// filled value needs no check against the whole schema after the walk. Set by the
    /// validator, which knows whether defaults are filled at all.
    pub defaults_entangled: bool,
    /// Where in the document each node was compiled from, by [`NodeId`] (the least pointer,
    /// as strings order, when `$ref`s share a node): for schema errors found after compiling.
    pub pointers: Vec<String>,
    /// The schema resource each node belongs to, by [`NodeId`], as an index the walk keeps on
    /// its stack of resources entered (the dynamic scope). Empty when no node resolves a
    /// reference dynamically, so other schemas keep no stack at all.
    pub scope_of: Vec<u32>,
}

impl Plan {
    /// Could a default filled in break a keyword of the schema: one a coercion could meet
    /// (an applicator beside another keyword, a `not`, a dependency...), an `enum` or
    /// `const` that holds an object (which it reads whole, before the object's defaults are
    /// filled), `uniqueItems` (over objects a default fills), or `maxProperties` (which the
    /// walk reads of the members sent, and a default may push the object past)? Never where
    /// no property has a default.
    pub fn entangles_defaults(&self) -> bool {
        fn holds_object(value: &Value) -> bool {
            match value {
                Value::Object(_) => true,
                Value::Array(items) => items.iter().any(holds_object),
                _ => false,
            }
        }
        self.nodes.iter().any(|node| !node.defaults.is_empty())
            && (self.coercions_entangled
                || self.nodes.iter().any(|node| {
                    node.unique_items
                        || node.max_properties.is_some()
                        || node.enum_values.as_deref().is_some_and(|values| values.iter().any(holds_object))
                        || node.const_value.as_ref().is_some_and(holds_object)
                }))
    }

    /// Compile a JSON Schema document, its formats asserted.
    pub fn compile(schema: &Value) -> Result<Plan, SchemaError> {
        Plan::compile_with(schema, true)
    }

    /// Compile a JSON Schema document; `formats`: assert `format` (else it is an annotation).
    /// The draft is the one `$schema` names (2020-12 when none), and a form only an older
    /// draft gives meaning to is read in that meaning.
    pub fn compile_with(schema: &Value, formats: bool) -> Result<Plan, SchemaError> {
        Plan::compile_ordered(schema, formats, None, None)
    }

    /// [`Plan::compile_with`], declared properties taken in the order `order` recorded for
    /// their `properties` object (else the `Value`'s map order), and `$ref`s that leave the
    /// schema led to `resources` as well as to the bundled metaschemas.
    pub(crate) fn compile_ordered(
        schema: &Value,
        formats: bool,
        order: Option<&KeyOrder>,
        resources: Option<&Resources>,
    ) -> Result<Plan, SchemaError> {
        // The vocabularies the schema's metaschema lists, where the engine holds it.
        let dialect = vocabulary::Dialect::of(schema, resources);
        let stripped = (!dialect.validation).then(|| vocabulary::without_validation(schema));
        let schema = stripped.as_ref().unwrap_or(schema);
        let formats = formats || dialect.format_assertion;
        let draft = dialect.draft;
        let mut compiler = Compiler {
            documents: vec![Document { value: schema, draft, metaschema: false, order, uri: None }],
            doc: 0,
            failed_in: None,
            nodes: Vec::new(),
            by_pointer: HashMap::new(),
            index: refs::Index::of(schema, draft),
            formats,
            resources,
            dynamic: Vec::new(),
        };
        let root = compiler.compile_at("", schema, 0).map_err(|error| compiler.located(error))?;
        let scope_of = compiler.resolve_dynamic()?;
        let place_of = |id: NodeId| {
            let (doc, pointer) = compiler
                .by_pointer
                .iter()
                .filter(|(_, &at)| at == id)
                .map(|(place, _)| place)
                .min()
                .map_or((0, ""), |(doc, pointer)| (*doc, pointer.as_str()));
            compiler.qualified(doc, pointer)
        };
        if let Some(id) = first_loop(&compiler.nodes) {
            return Err(error(
                &place_of(id),
                "`$ref`, `allOf`, `anyOf`, `oneOf` or `not` lead back here without descending into the value: no value can be checked against it",
            ));
        }
        match same_value_excess(&compiler.nodes) {
            Some((id, Excess::Applications)) => {
                return Err(error(
                    &place_of(id),
                    format!(
                        "`$ref`, `allOf`, `anyOf`, `oneOf`, `not` and the conditionals here apply more than \
                         {} subschemas to one value (definitions referred to many times over, \
                         each time in full): checking a value against it would take too long",
                        most_applications(&compiler.nodes)
                    ),
                ));
            }
            Some((id, Excess::Chain)) => {
                return Err(error(
                    &place_of(id),
                    format!(
                        "`$ref`, `allOf`, `anyOf`, `oneOf`, `not` and the conditionals here lead through more \
                         than {MAX_SCHEMA_HOPS} subschemas, one inside the next, without descending into the \
                         value: no value could be checked to the end of them"
                    ),
                ));
            }
            None => {}
        }
        let mut pointers = vec![String::new(); compiler.nodes.len()];
        let mut named = vec![false; compiler.nodes.len()];
        // The document's own pointers first (a bundled metaschema's nodes come after).
        let mut by_pointer: Vec<_> = compiler.by_pointer.into_iter().collect();
        by_pointer.sort_unstable();
        for ((doc, pointer), id) in by_pointer {
            if !named[id] {
                named[id] = true;
                pointers[id] = qualified(&compiler.documents, doc, &pointer);
            }
        }
        let mut plan = Plan {
            nodes: compiler.nodes,
            root,
            possible: Vec::new(),
            fast: Vec::new(),
            defaults_exact: false,
            coercions_entangled: false,
            defaults_entangled: false,
            pointers,
            scope_of,
        };
        plan.possible = plan.all_possible_types();
        plan.index_objects();
        plan.coercions_entangled = plan.nodes.iter().any(Node::entangles_coercions);
        plan.fast = plan.fast_nodes();
        Ok(plan)
    }

    /// Derive what the walk needs per object node, once, so each call does no name lookups
    /// for `required` and defaults.
    fn index_objects(&mut self) {
        for id in 0..self.nodes.len() {
            let defaults: Vec<(usize, Value)> = self.nodes[id]
                .properties
                .iter()
                .enumerate()
                .filter_map(|(index, (_, child))| self.default_of(*child).map(|d| (index, d.clone())))
                .collect();
            let node = &self.nodes[id];
            let any_of_shape = (!node.any_of.is_empty()).then(|| self.union_shape(&node.any_of));
            let one_of_shape = (!node.one_of.is_empty()).then(|| self.union_shape(&node.one_of));
            let node = &mut self.nodes[id];
            node.any_of_shape = any_of_shape.map(Box::new);
            node.one_of_shape = one_of_shape.map(Box::new);
            node.defaults = defaults;
            node.required_flags = vec![false; node.properties.len()];
            for name in &node.required {
                match node.properties.iter().position(|(key, _)| key == name) {
                    Some(index) => {
                        if !node.required_flags[index] {
                            node.required_flags[index] = true;
                            node.required_declared.push(index);
                        }
                    }
                    None => node.required_other.push(name.clone()),
                }
            }
        }
    }

    /// The `default` of a schema, looking through `$ref`s (bounded: refs may form cycles).
    fn default_of(&self, id: NodeId) -> Option<&Value> {
        self.nodes[self.default_holder(id)?].default.as_ref()
    }

    /// The node whose `default` is the schema `id`'s: itself, or one its `$ref`s lead to.
    pub fn default_holder(&self, mut id: NodeId) -> Option<NodeId> {
        for _ in 0..64 {
            let node = &self.nodes[id];
            if node.default.is_some() {
                return Some(id);
            }
            id = node.reference?;
        }
        None
    }
}

struct Compiler<'a> {
    /// The schema (0), then each bundled metaschema or given resource it references, in the
    /// order first met.
    documents: Vec<Document<'a>>,
    /// The document the node being compiled sits in.
    doc: usize,
    /// The document the first error was met in (its pointer is that document's).
    failed_in: Option<usize>,
    nodes: Vec<Node>,
    /// Nodes already compiled for a place (document, JSON Pointer), so `$ref`s share them
    /// and recursive schemas terminate.
    by_pointer: HashMap<refs::Location, NodeId>,
    /// Base URIs, resources and anchors, for `$ref`.
    index: refs::Index,
    /// Assert `format`.
    formats: bool,
    /// The documents the caller gave, which a `$ref` may lead to.
    resources: Option<&'a Resources>,
    /// The nodes with a dynamic reference, each with the `$dynamicAnchor` it looks for
    /// (`None`: 2019-09's `$recursiveAnchor`); their candidates are found once every node is.
    dynamic: Vec<(NodeId, Option<String>)>,
}

/// One document a compile reads: the schema, a bundled metaschema or a given resource.
struct Document<'a> {
    value: &'a Value,
    /// The draft it is read in.
    draft: Draft,
    /// Whether it is a bundled metaschema (whose `default`s are not filled in).
    metaschema: bool,
    /// The order it wrote its objects' keys in, where its `Value` may not keep it (the
    /// schema's, when given; a given document's, when given as text).
    order: Option<&'a KeyOrder>,
    /// The URI a `$ref` named it by (`None` for the schema).
    uri: Option<String>,
}

impl<'a> Compiler<'a> {
    /// `pointer` in document `doc`, as an error names it (see [`qualified`]).
    fn qualified(&self, doc: usize, pointer: &str) -> String {
        qualified(&self.documents, doc, pointer)
    }

    /// A compile error, its pointer qualified by the document it was met in.
    fn located(&self, mut error: SchemaError) -> SchemaError {
        if let Some(doc) = self.failed_in {
            error.pointer = self.qualified(doc, &error.pointer);
        }
        error
    }

    /// The draft of the document being compiled.
    fn draft(&self) -> Draft {
        self.documents[self.doc].draft
    }

    /// `keyword`'s value in `object`, when the draft of the document being compiled has the
    /// keyword ([`Draft::knows`]); in an earlier draft it is an annotation.
    fn known(&self, object: &'a Map<String, Value>, keyword: &str) -> Option<&'a Value> {
        object.get(keyword).filter(|_| self.draft().knows(keyword))
    }
}

/// `pointer` in document `doc` of `documents`, as an error names it: as it is in the schema,
/// after the document's URI elsewhere (`https://example.com/common.json#/$defs/a`).
fn qualified(documents: &[Document<'_>], doc: usize, pointer: &str) -> String {
    match &documents[doc].uri {
        Some(uri) if doc > 0 => format!("{uri}#{pointer}"),
        _ => pointer.to_owned(),
    }
}

fn error(pointer: &str, message: impl Into<String>) -> SchemaError {
    SchemaError::new(pointer, message)
}

impl<'a> Compiler<'a> {
    fn compile_at(&mut self, pointer: &str, schema: &'a Value, depth: usize) -> Result<NodeId, SchemaError> {
        let place = (self.doc, pointer.to_owned());
        if let Some(&id) = self.by_pointer.get(&place) {
            return Ok(id);
        }
        if depth > MAX_SCHEMA_DEPTH {
            self.failed_in.get_or_insert(self.doc);
            return Err(error(pointer, "the schema is nested too deeply"));
        }
        let id = self.new_node();
        self.by_pointer.insert(place, id);
        if let Err(error) = self.compile_node(id, pointer, schema, depth) {
            // The innermost compile that fails holds the pointer's document.
            self.failed_in.get_or_insert(self.doc);
            return Err(error);
        }
        Ok(id)
    }

    /// A node slot, filled by [`Compiler::compile_node`]. Out of line, as the other helpers
    /// of the recursion: a debug build keeps a stack slot for every temporary of a function,
    /// and a `Node` is over a kilobyte, so the frames a nested schema stacks stay small.
    #[inline(never)]
    fn new_node(&mut self) -> NodeId {
        self.nodes.push(Node::default());
        self.nodes.len() - 1
    }

    fn child(
        &mut self,
        pointer: &str,
        key: &str,
        schema: &'a Value,
        depth: usize,
    ) -> Result<NodeId, SchemaError> {
        let child_pointer = format!("{pointer}/{}", crate::pointer::escape_token(key));
        self.compile_at(&child_pointer, schema, depth + 1)
    }

    /// Compile `schema` into the node `id` (a slot [`Compiler::new_node`] made).
    fn compile_node(
        &mut self,
        id: NodeId,
        pointer: &str,
        schema: &'a Value,
        depth: usize,
    ) -> Result<(), SchemaError> {
        let object = match schema {
            Value::Bool(true) => return Ok(()),
            Value::Bool(false) => {
                self.nodes[id].reject_all = true;
                return Ok(());
            }
            Value::Object(object) => object,
            _ => return Err(error(pointer, "a schema must be an object or a boolean")),
        };
        if let (true, Some(reference)) = (self.draft().ref_overrides(), object.get("$ref")) {
            // Drafts 4 to 7: `$ref` replaces every keyword beside it.
            let reference = reference.as_str().ok_or_else(|| error(pointer, "`$ref` must be a string"))?;
            let target = self.reference(pointer, reference, depth)?;
            self.nodes[id].reference = Some(target);
            return Ok(());
        }
        // Built on the heap: a `Node` on the stack would be in every frame of the recursion.
        let mut node = Box::<Node>::default();
        self.value_keywords(pointer, object, &mut node)?;
        self.member_schemas(pointer, object, &mut node, depth)?;
        self.item_schemas(pointer, object, &mut node, depth)?;
        self.applicators(id, pointer, object, &mut node, depth)?;
        nullable(object, &mut node);
        node.keywords = self.keywords(id, pointer, object, node.types, &node.required, depth)?;
        self.place_node(id, node);
        Ok(())
    }

    /// `properties`, `patternProperties` and `additionalProperties`, compiled into `node`.
    #[inline(never)]
    fn member_schemas(
        &mut self,
        pointer: &str,
        object: &'a Map<String, Value>,
        node: &mut Node,
        depth: usize,
    ) -> Result<(), SchemaError> {
        if let Some(properties) = object.get("properties") {
            let properties =
                properties.as_object().ok_or_else(|| error(pointer, "`properties` must be an object"))?;
            let base = format!("{pointer}/properties");
            let names = match self.documents[self.doc].order {
                Some(order) => order.keys_of(&base, properties),
                None => properties.keys().collect(),
            };
            for name in names {
                let Some(subschema) = properties.get(name) else { continue };
                let id = self.child(&base, name, subschema, depth)?;
                node.properties.push((name.clone(), id));
            }
            if node.properties.len() > 8 {
                node.property_index =
                    node.properties.iter().enumerate().map(|(i, (name, _))| (name.clone(), i)).collect();
            } else {
                node.property_probes = node.properties.iter().map(|(name, _)| NameProbe::of(name)).collect();
            }
        }
        if let Some(patterns) = object.get("patternProperties") {
            let patterns = patterns
                .as_object()
                .ok_or_else(|| error(pointer, "`patternProperties` must be an object"))?;
            let base = format!("{pointer}/patternProperties");
            for (pattern, subschema) in patterns {
                let regex = compile_pattern(pointer, pattern)?;
                let id = self.child(&base, pattern, subschema, depth)?;
                node.pattern_properties.push((regex, id));
            }
        }
        if let Some(additional) = object.get("additionalProperties") {
            node.additional_written = true;
            node.additional = match additional {
                Value::Bool(true) => Additional::Allow,
                Value::Bool(false) => Additional::Deny,
                other => Additional::Schema(self.child(pointer, "additionalProperties", other, depth)?),
            };
        }
        Ok(())
    }

    /// `prefixItems`, `items` (a list in the older drafts) and `additionalItems`, compiled into `node`.
    #[inline(never)]
    fn item_schemas(
        &mut self,
        pointer: &str,
        object: &'a Map<String, Value>,
        node: &mut Node,
        depth: usize,
    ) -> Result<(), SchemaError> {
        if let Some(prefix) = self.known(object, "prefixItems") {
            let prefix = prefix.as_array().ok_or_else(|| error(pointer, "`prefixItems` must be an array"))?;
            let base = format!("{pointer}/prefixItems");
            for (index, subschema) in prefix.iter().enumerate() {
                node.prefix_items.push(self.child(&base, &index.to_string(), subschema, depth)?);
            }
        }
        match object.get("items") {
            // The older drafts' tuple: `items` as a list, `additionalItems` for the rest.
            Some(Value::Array(tuple)) => {
                let base = format!("{pointer}/items");
                node.prefix_items.clear();
                for (index, subschema) in tuple.iter().enumerate() {
                    node.prefix_items.push(self.child(&base, &index.to_string(), subschema, depth)?);
                }
                if let Some(rest) = object.get("additionalItems") {
                    node.items = Some(self.child(pointer, "additionalItems", rest, depth)?);
                }
            }
            Some(items) => node.items = Some(self.child(pointer, "items", items, depth)?),
            None => {}
        }
        Ok(())
    }

    /// `anyOf`, `oneOf`, `allOf`, `not`, `$ref` and the dynamic references, compiled into `node` (`id`).
    #[inline(never)]
    fn applicators(
        &mut self,
        id: NodeId,
        pointer: &str,
        object: &'a Map<String, Value>,
        node: &mut Node,
        depth: usize,
    ) -> Result<(), SchemaError> {
        node.any_of = self.list(pointer, object, "anyOf", depth)?;
        node.one_of = self.list(pointer, object, "oneOf", depth)?;
        node.all_of = self.list(pointer, object, "allOf", depth)?;
        if let Some(not) = object.get("not") {
            node.not = Some(self.child(pointer, "not", not, depth)?);
        }
        if let Some(reference) = object.get("$ref") {
            let reference = reference.as_str().ok_or_else(|| error(pointer, "`$ref` must be a string"))?;
            node.reference = Some(self.reference(pointer, reference, depth)?);
        }
        for keyword in ["$dynamicRef", "$recursiveRef"] {
            if let Some(reference) = object.get(keyword) {
                let reference = reference
                    .as_str()
                    .ok_or_else(|| error(pointer, format!("`{keyword}` must be a string")))?;
                // Resolved where it is written (its static target); by the dynamic scope when
                // that target holds the matching anchor.
                let target = self.reference(pointer, reference, depth)?;
                match self.dynamic_anchor(keyword, pointer, reference)? {
                    Some(anchor) if node.dynamic.is_none() => {
                        node.dynamic = Some(Box::new(DynamicRef::to(target, anchor.is_none())));
                        self.dynamic.push((id, anchor));
                    }
                    _ => match node.reference {
                        None => node.reference = Some(target),
                        Some(_) => node.all_of.push(target),
                    },
                }
            }
        }
        Ok(())
    }

    /// Put the node compiled for `id` in its slot.
    #[inline(never)]
    fn place_node(&mut self, id: NodeId, node: Box<Node>) {
        self.nodes[id] = *node;
    }

    fn list(
        &mut self,
        pointer: &str,
        object: &'a Map<String, Value>,
        keyword: &str,
        depth: usize,
    ) -> Result<Vec<NodeId>, SchemaError> {
        let Some(list) = object.get(keyword) else { return Ok(Vec::new()) };
        let list = list.as_array().ok_or_else(|| error(pointer, format!("`{keyword}` must be an array")))?;
        if list.is_empty() {
            return Err(error(pointer, format!("`{keyword}` must not be empty")));
        }
        let base = format!("{pointer}/{keyword}");
        list.iter()
            .enumerate()
            .map(|(index, subschema)| self.child(&base, &index.to_string(), subschema, depth))
            .collect()
    }

    /// Resolve a `$ref` inside the document: a JSON Pointer fragment, an anchor, or the
    /// `$id` of one of its subschemas (with a pointer or anchor after it), a bundled
    /// metaschema or a document the caller gave. Never fetched.
    fn reference(&mut self, pointer: &str, reference: &str, depth: usize) -> Result<NodeId, SchemaError> {
        let place = self.locate(pointer, reference)?;
        self.compile_in(place, pointer, reference, depth + 1)
    }

    /// Compile the subschema at `place` (in its own document).
    fn compile_in(
        &mut self,
        (doc, fragment): refs::Location,
        pointer: &str,
        reference: &str,
        depth: usize,
    ) -> Result<NodeId, SchemaError> {
        let target = self.documents[doc]
            .value
            .pointer(&fragment)
            .ok_or_else(|| error(pointer, format!("`{reference}` points to nothing in this schema")))?;
        let outer = std::mem::replace(&mut self.doc, doc);
        // Normalise the pointer so `#/$defs/a` and `#/%24defs/a` share a node.
        let compiled = self.compile_at(&fragment, target, depth);
        self.doc = outer;
        compiled
    }

    /// Where `reference`, written at `pointer`, leads: the schema itself, a bundled
    /// metaschema or a document the caller gave (each indexed the first time it is named).
    fn locate(&mut self, pointer: &str, reference: &str) -> Result<refs::Location, SchemaError> {
        let uri = match self.index.target(self.doc, pointer, reference) {
            Ok(place) => return Ok(place),
            Err(uri) => uri,
        };
        let never_fetched = || {
            error(
                pointer,
                format!("`{reference}` points to nothing in this schema (references are never fetched)"),
            )
        };
        let (document, draft, metaschema, order) = match metaschemas::document(&uri) {
            Some(metaschema) => (metaschema, Draft::of(metaschema), true, None),
            None => {
                let (given, order) =
                    self.resources.and_then(|resources| resources.get(&uri)).ok_or_else(never_fetched)?;
                // A document that names no `$schema` is read in the draft of the one that
                // refers to it (a draft 7 schema's shared definitions are draft 7).
                let draft = if given.get("$schema").is_some() { Draft::of(given) } else { self.draft() };
                (given, draft, false, order)
            }
        };
        if self.documents.iter().any(|known| std::ptr::eq(known.value, document)) {
            return Err(never_fetched());
        }
        let doc = self.documents.len();
        self.documents.push(Document { value: document, draft, metaschema, order, uri: Some(uri.clone()) });
        self.index.add(doc, document, &uri, draft);
        self.index.target(self.doc, pointer, reference).map_err(|_| never_fetched())
    }
}

/// A list of names read once each, in the order first given (`required`, the lists of
/// `dependentRequired` and `dependencies`). Every draft's metaschema says no name comes
/// twice, but a repeat means nothing more: it is read once, so a call that leaves the name
/// out gets one error for it, not one per mention, and a tool whose schema repeats a name is
/// not refused for it. A set, not a search of the list for each name: a schema may list
/// many names.
pub(crate) fn once_each(names: Vec<&str>) -> Vec<String> {
    let mut seen = std::collections::HashSet::with_capacity(names.len());
    names.into_iter().filter(|name| seen.insert(*name)).map(str::to_owned).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A name a list gives twice (`required`, `dependentRequired`, draft 7's `dependencies`,
    /// `type`) is read once, in the order first given; the lists of many names stay linear.
    /// A `type` list naming no type is a schema error (it would refuse every value).
    #[test]
    fn a_name_given_twice_is_read_once_and_no_type_is_a_schema_error() {
        let plan = Plan::compile(&json!({
            "required": ["a", "b", "a", "c", "b"],
            "type": ["string", "object", "string"],
            "properties": {"o": {"required": ["x", "x"]}},
            "dependentRequired": {"a": ["b", "c", "b"]}
        }))
        .unwrap();
        let root = &plan.nodes[plan.root];
        assert_eq!(root.required, ["a", "b", "c"]);
        let mut string_or_object = Types::STRING;
        string_or_object.insert(Types::OBJECT);
        assert_eq!(root.types, Some(string_or_object));
        assert_eq!(plan.nodes[root.properties[0].1].required, ["x"]);
        let draft_7 = Plan::compile(&json!({
            "$schema": "http://json-schema.org/draft-07/schema#",
            "dependencies": {"a": ["b", "b"]}
        }));
        assert!(draft_7.is_ok());
        let many: Vec<String> = (0..20_000).map(|n| format!("p{}", n % 10_000)).collect();
        let wide = Plan::compile(&json!({ "required": many })).unwrap();
        assert_eq!(wide.nodes[wide.root].required.len(), 10_000);

        let error = Plan::compile(&json!({"properties": {"o": {"type": []}}})).unwrap_err();
        assert_eq!(
            (error.pointer.as_str(), error.message.as_str()),
            ("/properties/o", "`type` must name at least one type")
        );
    }

    /// The probe lookup finds exactly the names a plain comparison finds, for names of every
    /// length around the window sizes, and past 16 bytes where the windows leave a middle.
    #[test]
    fn property_lookup_agrees_with_comparison() {
        let mut names: Vec<String> = (0..=20).map(|n| "a".repeat(n)).collect();
        names.extend(
            ["aaaaaaaaXbbbbbbbb", "aaaaaaaaYbbbbbbbb", "ab", "ba", "abc", "acb", "é", "ée"].map(String::from),
        );
        let others: Vec<String> = names
            .iter()
            .map(|name| format!("{name}z"))
            .chain(["aaaaaaaaZbbbbbbbb", "", "b", "aaaa", "bbbbbbbbbbbbbbbbb"].map(String::from))
            .collect();
        // Eight at most (by probes), and all of them (by the index); any first guess.
        for declared in names.chunks(8).chain([names.as_slice()]) {
            let properties: serde_json::Map<String, Value> =
                declared.iter().map(|name| (name.clone(), json!({}))).collect();
            let plan = Plan::compile(&json!({"properties": properties})).unwrap();
            let node = &plan.nodes[plan.root];
            for name in names.iter().chain(&others) {
                let expected = node.properties.iter().position(|(key, _)| key == name);
                assert_eq!(node.property_index_of(name), expected, "{name:?} among {declared:?}");
                for guess in (0..=declared.len()).chain([usize::MAX]) {
                    let found = node.property_index_from(name, guess);
                    assert_eq!(found, expected, "{name:?} among {declared:?}, {guess} first");
                }
            }
        }
    }
}
