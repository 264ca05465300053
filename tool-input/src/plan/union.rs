//! What an `anyOf`/`oneOf` is, read once from its branches: an enum of constants, a union
//! told apart by a tag, `X` or null, or a general union whose branches are tried by JSON type.
//!
//! Each shape is recognised only when choosing by it gives exactly what JSON Schema says:
//! every branch but the chosen one is certain to reject the value. So the walk checks one
//! branch where the schema has one that can match, and the answer never depends on which
//! way it was reached (strict mode still agrees with a plain JSON Schema validator).

use serde_json::Value;

use super::{Additional, Node, NodeId, Plan, Types};

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
}

impl Options {
    /// The branch allowing exactly `value`.
    pub fn branch_of(&self, value: &Value) -> Option<NodeId> {
        let index = self.values.iter().position(|option| crate::check::json_equal(option, value))?;
        Some(self.branches[index])
    }

    fn push(&mut self, value: Value, branch: NodeId, description: Option<String>) -> bool {
        if self.values.iter().any(|seen| crate::check::json_equal(seen, &value)) {
            return false;
        }
        self.values.push(value);
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
        UnionShape::General { types: branches.iter().map(|&branch| self.possible_types(branch, 0)).collect() }
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

    /// The JSON types a branch may accept (more, never fewer): what its `type`, `const`,
    /// `enum`, `$ref` and nested unions allow.
    pub(crate) fn possible_types(&self, id: NodeId, hops: usize) -> Types {
        let all = Types::all();
        if hops > 8 {
            return all;
        }
        let node = &self.nodes[id];
        if node.reject_all {
            return Types::default();
        }
        let mut types = node.types.map_or(all, widen);
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
            types = types.intersect(self.possible_types(reference, hops + 1));
        }
        for list in [&node.any_of, &node.one_of] {
            if !list.is_empty() {
                let mut of = Types::default();
                for &branch in list {
                    of.insert(self.possible_types(branch, hops + 1));
                }
                types = types.intersect(of);
            }
        }
        for &part in &node.all_of {
            types = types.intersect(self.possible_types(part, hops + 1));
        }
        types
    }
}

/// `integer` also admits integral numbers written with a fraction (`3.0`): for a filter,
/// keep both number bits whenever one is there.
fn widen(types: Types) -> Types {
    types.widened_integer()
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
