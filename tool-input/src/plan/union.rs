//! What an `anyOf`/`oneOf` is, read once from its branches: an enum of constants, a union
//! told apart by a tag, `X` or null, or a general union whose branches are tried by JSON type.
//!
//! Each shape is recognised only when choosing by it gives exactly what JSON Schema says:
//! every branch but the chosen one is certain to reject the value. So the walk checks one
//! branch where the schema has one that can match, and the answer never depends on which
//! way it was reached (strict mode still agrees with a plain JSON Schema validator).

use serde_json::Value;

use super::{Additional, Node, NodeId, Plan, Types};
use crate::equal::ValueIndex;
use crate::error::SharedOptions;

/// How many `$ref`s are followed to the node a branch stands for.
const MAX_HOPS: usize = 64;

/// The shape of one `anyOf` or `oneOf` list.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum UnionShape {
    /// Every branch is a set of constant scalars (a unit enum, documented or not).
    Constants(Options),
    /// Objects told apart by the constant value of one required property (serde's internal
    /// and adjacent tagging, pydantic's `discriminator`).
    Tagged {
        /// The tag property.
        tag: String,
        /// Each tag value and the branch it selects.
        options: Options,
    },
    /// Objects each with exactly one property, required, and no other (serde's external
    /// tagging), beside string constants for the unit variants.
    External {
        /// Each key and the branch it selects, in branch order.
        keys: Vec<(String, NodeId)>,
        /// The unit variants' strings.
        units: Options,
    },
    /// `X` or null: the branch that is not the null one.
    Nullable { value: NodeId },
    /// Anything else: each branch with the JSON types it may accept.
    General { types: Vec<Types> },
}

/// Constant options, each with the branch that allows it and that branch's description.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Options {
    pub values: Vec<Value>,
    pub branches: Vec<NodeId>,
    pub descriptions: Vec<Option<String>>,
    /// The first values an error lists, shared by every error that lists them.
    pub listed: SharedOptions,
    /// Where each value is (a union of thousands of constants is looked up, not scanned).
    index: ValueIndex,
}

impl Options {
    /// Where each value is.
    pub fn index(&self) -> &ValueIndex {
        &self.index
    }

    /// The branch allowing exactly `value`.
    pub fn branch_of(&self, value: &Value) -> Option<NodeId> {
        let index = self.index.position(&self.values, value)?;
        Some(self.branches[index])
    }

    fn push(&mut self, value: Value, branch: NodeId, description: Option<String>) -> bool {
        if !self.index.push_new(&mut self.values, value) {
            return false;
        }
        self.branches.push(branch);
        self.descriptions.push(description);
        true
    }
}

impl Plan {
    /// The node a branch stands for: through `$ref`s that say nothing else.
    pub(crate) fn resolved(&self, mut id: NodeId) -> NodeId {
        for _ in 0..MAX_HOPS {
            let node = &self.nodes[id];
            match node.reference {
                Some(next) if node.only_refers() => id = next,
                _ => return id,
            }
        }
        id
    }

    /// The shape of `branches` (one `anyOf` or `oneOf` list).
    pub(crate) fn union_shape(&self, branches: &[NodeId]) -> UnionShape {
        if let Some(options) = self.constants(branches) {
            return UnionShape::Constants(options);
        }
        if let Some(shape) = self.tagged(branches) {
            return shape;
        }
        if let Some(shape) = self.external(branches) {
            return shape;
        }
        if let [first, second] = *branches {
            match (self.is_null_only(first), self.is_null_only(second)) {
                (true, false) => return UnionShape::Nullable { value: second },
                (false, true) => return UnionShape::Nullable { value: first },
                _ => {}
            }
        }
        UnionShape::General { types: branches.iter().map(|&branch| self.possible[branch]).collect() }
    }

    /// The constant scalars a branch allows, when it allows nothing else.
    fn constant_values(&self, branch: NodeId) -> Option<(&[Value], &Node)> {
        let node = &self.nodes[self.resolved(branch)];
        if !node.is_constant_set() {
            return None;
        }
        let values = match (&node.const_value, &node.enum_values) {
            (Some(constant), None) => std::slice::from_ref(constant),
            (None, Some(values)) => values.as_slice(),
            _ => return None,
        };
        let scalars = values.iter().all(|v| !v.is_array() && !v.is_object());
        let typed = node.types.is_none_or(|types| values.iter().all(|v| types.accepts(v)));
        (scalars && typed && !values.is_empty()).then_some((values, node))
    }

    fn constants(&self, branches: &[NodeId]) -> Option<Options> {
        let mut options = Options::default();
        for &branch in branches {
            let (values, node) = self.constant_values(branch)?;
            for value in values {
                if !options.push(value.clone(), branch, node.description.clone()) {
                    return None;
                }
            }
        }
        Some(options)
    }

    /// The node of an object branch: typed `object` only.
    fn object_branch(&self, branch: NodeId) -> Option<&Node> {
        let node = &self.nodes[self.resolved(branch)];
        (node.types == Some(Types::OBJECT) && !node.reject_all).then_some(node)
    }

    fn tagged(&self, branches: &[NodeId]) -> Option<UnionShape> {
        let first = self.object_branch(*branches.first()?)?;
        'names: for (name, _) in &first.properties {
            let mut options = Options::default();
            for &branch in branches {
                let node = self.object_branch(branch)?;
                let Some(index) = node.property_index_of(name) else { continue 'names };
                if !node.required.iter().any(|required| required == name) {
                    continue 'names;
                }
                let Some((values, _)) = self.constant_values(node.properties[index].1) else {
                    continue 'names;
                };
                for value in values {
                    if !options.push(value.clone(), branch, node.description.clone()) {
                        continue 'names;
                    }
                }
            }
            return Some(UnionShape::Tagged { tag: name.clone(), options });
        }
        None
    }

    fn external(&self, branches: &[NodeId]) -> Option<UnionShape> {
        let mut keys: Vec<(String, NodeId)> = Vec::new();
        let mut units = Options::default();
        for &branch in branches {
            if let Some((values, node)) = self.constant_values(branch) {
                for value in values {
                    if !value.is_string() || !units.push(value.clone(), branch, node.description.clone()) {
                        return None;
                    }
                }
                continue;
            }
            let node = self.object_branch(branch)?;
            let [(key, _)] = node.properties.as_slice() else { return None };
            let closed = node.additional == Additional::Deny && node.pattern_properties.is_empty();
            if !closed || !node.required.contains(key) || keys.iter().any(|(seen, _)| seen == key) {
                return None;
            }
            keys.push((key.clone(), branch));
        }
        (!keys.is_empty()).then_some(UnionShape::External { keys, units })
    }

    /// Does the branch allow `null` and nothing else, saying nothing more?
    fn is_null_only(&self, branch: NodeId) -> bool {
        let node = &self.nodes[self.resolved(branch)];
        node.types == Some(Types::NULL)
            && node.is_constant_set()
            && node.enum_values.is_none()
            && node.const_value.is_none()
    }

    /// The JSON types each node may accept (more, never fewer): what its `type`, `const`,
    /// `enum`, `$ref`, `allOf` and nested unions allow. Each node is computed once; a node met
    /// again on its own `$ref` cycle counts as any type (safe for a filter).
    pub(crate) fn all_possible_types(&self) -> Vec<Types> {
        const PENDING: u8 = 1;
        const DONE: u8 = 2;
        let mut state = vec![0u8; self.nodes.len()];
        let mut types = vec![Types::all(); self.nodes.len()];
        for root in 0..self.nodes.len() {
            if state[root] == DONE {
                continue;
            }
            // An explicit stack: (node, whether its children are done).
            let mut stack = vec![(root, false)];
            while let Some((id, children_done)) = stack.pop() {
                let node = &self.nodes[id];
                let children = node
                    .reference
                    .iter()
                    .chain(&node.any_of)
                    .chain(&node.one_of)
                    .chain(&node.all_of)
                    .copied();
                if !children_done {
                    if state[id] != 0 {
                        continue;
                    }
                    state[id] = PENDING;
                    stack.push((id, true));
                    stack.extend(children.filter(|&child| state[child] == 0).map(|child| (child, false)));
                    continue;
                }
                types[id] = self.own_possible_types(node, &types);
                state[id] = DONE;
            }
        }
        types
    }

    /// A node's possible types, given its children's (those still pending count as any).
    fn own_possible_types(&self, node: &Node, children: &[Types]) -> Types {
        if node.reject_all {
            return Types::default();
        }
        let mut types = node.types.map_or(Types::all(), Types::widened_integer);
        if let Some(constant) = &node.const_value {
            types = types.intersect(Types::of(constant).widened_integer());
        }
        if let Some(values) = &node.enum_values {
            let mut of = Types::default();
            for value in values {
                of.insert(Types::of(value).widened_integer());
            }
            types = types.intersect(of);
        }
        if let Some(reference) = node.reference {
            types = types.intersect(children[reference]);
        }
        for list in [&node.any_of, &node.one_of] {
            if !list.is_empty() {
                let mut of = Types::default();
                for &branch in list {
                    of.insert(children[branch]);
                }
                types = types.intersect(of);
            }
        }
        for &part in &node.all_of {
            types = types.intersect(children[part]);
        }
        types
    }
}

impl Types {
    /// Every JSON type.
    pub fn all() -> Types {
        let mut all = Types::default();
        for bit in [
            Types::NULL,
            Types::BOOLEAN,
            Types::OBJECT,
            Types::ARRAY,
            Types::NUMBER,
            Types::INTEGER,
            Types::STRING,
        ] {
            all.insert(bit);
        }
        all
    }

    pub fn intersect(self, other: Types) -> Types {
        Types(self.0 & other.0)
    }

    /// `integer` as the filter sees it: an integer is also a number, and `3.0` an integer.
    fn widened_integer(self) -> Types {
        let mut types = self;
        if self.contains(Types::INTEGER) || self.contains(Types::NUMBER) {
            types.insert(Types::INTEGER);
            types.insert(Types::NUMBER);
        }
        types
    }

    /// Might a value of this JSON type be accepted? (Numbers: either number bit.)
    pub fn admits(self, value: &Value) -> bool {
        match value {
            Value::Number(_) => self.contains(Types::NUMBER) || self.contains(Types::INTEGER),
            other => self.accepts(other),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn shape(schema: Value) -> UnionShape {
        let plan = Plan::compile(&schema).unwrap();
        let node = &plan.nodes[plan.root];
        *node.one_of_shape.clone().or_else(|| node.any_of_shape.clone()).unwrap()
    }

    #[test]
    fn each_shape_is_recognised_only_when_choosing_by_it_is_exact() {
        let constants = shape(json!({"oneOf": [{"const": "a", "description": "A"}, {"enum": ["b", 1]}]}));
        let UnionShape::Constants(options) = constants else { panic!("{constants:?}") };
        assert_eq!(options.values, [json!("a"), json!("b"), json!(1)]);
        assert_eq!(options.descriptions[0].as_deref(), Some("A"));
        // The same constant in two branches: `oneOf` would reject it, so not an enum.
        assert!(matches!(
            shape(json!({"oneOf": [{"const": 1}, {"const": 1.0}]})),
            UnionShape::General { .. }
        ));
        let tagged = shape(json!({"oneOf": [
            {"type": "object", "properties": {"k": {"const": "a"}}, "required": ["k"]},
            {"$ref": "#/$defs/b"}
        ], "$defs": {"b": {"type": "object", "properties": {"k": {"enum": ["b", "c"]}}, "required": ["k"]}}}));
        assert!(
            matches!(&tagged, UnionShape::Tagged { tag, options } if tag == "k" && options.values.len() == 3)
        );
        // A tag that is not required does not tell the branches apart.
        let optional = shape(json!({"oneOf": [
            {"type": "object", "properties": {"k": {"const": "a"}}},
            {"type": "object", "properties": {"k": {"const": "b"}}, "required": ["k"]}
        ]}));
        assert!(matches!(optional, UnionShape::General { .. }));
        let external = shape(json!({"oneOf": [
            {"type": "string", "enum": ["stop"]},
            {"type": "object", "properties": {"run": {}}, "required": ["run"], "additionalProperties": false}
        ]}));
        assert!(
            matches!(&external, UnionShape::External { keys, units } if keys.len() == 1 && units.values == [json!("stop")])
        );
        // Open objects could hold two keys: not external.
        let open = shape(json!({"oneOf": [
            {"type": "object", "properties": {"run": {}}, "required": ["run"]},
            {"type": "object", "properties": {"stop": {}}, "required": ["stop"]}
        ]}));
        assert!(matches!(open, UnionShape::General { .. }));
        assert!(matches!(
            shape(json!({"anyOf": [{"type": "integer"}, {"type": "null"}]})),
            UnionShape::Nullable { .. }
        ));
    }

    #[test]
    fn possible_types_are_a_superset_even_on_cycles() {
        // A `$ref` loop that never descends into the value is refused when compiled.
        assert!(Plan::compile(
            &json!({"$defs": {"n": {"anyOf": [{"$ref": "#/$defs/n"}, {"type": "string"}]}},
            "$ref": "#/$defs/n"})
        )
        .is_err());
        // One that descends (through `items`) compiles, and its types are read through the cycle.
        let plan = Plan::compile(&json!({"$defs": {
                "n": {"anyOf": [{"$ref": "#/$defs/m"}, {"type": "string"}]},
                "m": {"anyOf": [{"$ref": "#/$defs/n"}, {"type": "array", "items": {"$ref": "#/$defs/n"}}]}
            },
            "oneOf": [{"$ref": "#/$defs/n"}, {"type": "integer", "minimum": 0}, {"const": true}]}));
        assert!(plan.is_err(), "n and m refer to each other without descending");
        let plan = Plan::compile(&json!({"$defs": {
                "n": {"anyOf": [{"$ref": "#/$defs/m"}, {"type": "string"}]},
                "m": {"type": "array", "items": {"$ref": "#/$defs/n"}}
            },
            "oneOf": [{"$ref": "#/$defs/n"}, {"type": "integer", "minimum": 0}, {"const": true}]}))
        .unwrap();
        let possible = plan.possible[plan.root];
        for value in [json!("x"), json!(3), json!(3.5), json!(true)] {
            assert!(possible.admits(&value), "{value}");
        }
        assert!(!possible.admits(&json!(null)) || possible == Types::all());
    }
}
