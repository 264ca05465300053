//! What the one-pass path (`check::fast`) reads of each node, derived once per plan and kept
//! beside the nodes (`Plan::fast`, by [`NodeId`]), so [`Node`] holds the schema's meaning only.

use serde_json::{Number, Value};

use super::{Additional, Node, NodeId, Plan, Types};
use crate::keywords::{Format, Keyword};

/// The one-pass path's reading of one node.
#[derive(Debug, Clone, Copy)]
pub(crate) struct FastNode {
    /// This node and its `$ref` chain, when the one-pass path can evaluate all of them.
    pub chain: Option<Chain>,
    /// What the one-pass path checks of a string here, when it is simple.
    pub string: FastString,
    /// For an array value here, the node of the chain whose item keywords the one-pass path
    /// checks; `None` when that path cannot check an array here.
    pub array: Option<NodeId>,
    /// As `array`, for an object value and its property keywords.
    pub object: Option<NodeId>,
    /// The integers the chain accepts, when they are exactly one range (lowest, highest):
    /// the chain allows integers and constrains them only by integer bounds.
    pub integers: Option<(i128, i128)>,
    /// The node's declared required properties as bits, for objects of at most 64
    /// properties (see `check::keywords::Sent::all_required`).
    pub required_mask: u64,
    /// An object here is settled at its end by `required_mask` alone: the node requires
    /// only declared properties, bounds no count and has no defaults to fill.
    pub plain_object: bool,
    /// For a value here that is not `null`: the node it is read at (see
    /// [`Plan::non_null_of`]).
    pub non_null: Option<NodeId>,
    /// Every boolean is exactly valid here: the chain exists, allows booleans, and has no
    /// `enum`, `const` or keyword a boolean could break. (Otherwise the one-pass path checks
    /// a boolean as any scalar.)
    pub bools: bool,
}

/// A string check the one-pass path can make without walking the chain (each holds only
/// when the chain exists for that path and allows strings).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FastString {
    /// Every string (within the size limit) is valid.
    Any,
    /// Strings matching the `pattern` of this node (the only string keyword of the chain).
    Pattern(NodeId),
    /// The string options of this node's `enum` (the only string keyword of the chain): a
    /// closed set of words is the commonest string schema after a free one.
    Options(NodeId),
    /// Anything else: walk the chain.
    Chain,
}

/// A node and its `$ref` chain, at most four long, without allocating.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Chain {
    ids: [NodeId; 4],
    len: usize,
}

impl Chain {
    /// The nodes of the chain, the node itself first.
    pub fn nodes(self, plan: &Plan) -> impl Iterator<Item = &Node> {
        (0..self.len).map(move |i| &plan.nodes[self.ids[i]])
    }
}

impl Plan {
    /// The one-pass reading of every node, by [`NodeId`].
    pub(super) fn fast_nodes(&self) -> Vec<FastNode> {
        (0..self.nodes.len())
            .map(|id| {
                let chain = self.fast_chain(id);
                let node = &self.nodes[id];
                FastNode {
                    chain,
                    string: chain.map_or(FastString::Chain, |chain| self.fast_string(chain)),
                    array: chain.and_then(|chain| self.fast_container(id, chain, Types::ARRAY)),
                    object: chain.and_then(|chain| self.fast_container(id, chain, Types::OBJECT)),
                    integers: chain.and_then(|chain| self.fast_integers(chain)),
                    required_mask: node
                        .required_declared
                        .iter()
                        .filter(|&&index| index < 64)
                        .fold(0, |mask, &index| mask | 1 << index),
                    plain_object: node.required_other.is_empty()
                        && node.min_properties.is_none()
                        && node.max_properties.is_none()
                        && node.defaults.is_empty(),
                    non_null: self.non_null_of(id),
                    bools: chain.is_some_and(|chain| self.takes_every_bool(chain)),
                }
            })
            .collect()
    }

    /// For an array or object (`kind`) at `id`, whose chain is `chain`: the node whose
    /// member keywords the one-pass path checks (the one node of the chain with any, or `id`
    /// itself), having checked that the chain allows such a value. `None` when the one-pass
    /// path cannot read one here: another type, an `enum` or `const`, or two nodes of the
    /// chain both constraining members (the full path merges them).
    fn fast_container(&self, id: NodeId, chain: Chain, kind: Types) -> Option<NodeId> {
        let mut found: Option<NodeId> = None;
        for (index, node) in chain.nodes(self).enumerate() {
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
                    || node.unique_items
            } else {
                !node.properties.is_empty()
                    || !node.required.is_empty()
                    || node.additional != Additional::Allow
                    || node.min_properties.is_some()
                    || node.max_properties.is_some()
            };
            if constrains {
                if found.is_some() {
                    return None;
                }
                found = Some(chain.ids[index]);
            }
        }
        Some(found.unwrap_or(id))
    }

    /// For `Some(value)` of an Option at `id`: the node of the non-null value. Either the
    /// node itself (`"type": ["string", "null"]`), or the one non-null branch of an `anyOf`
    /// with a `{"type": "null"}` branch (what schemars writes for `Option<Struct>`); `None`
    /// when the one-pass path leaves such a value to the walk.
    fn non_null_of(&self, id: NodeId) -> Option<NodeId> {
        let node = &self.nodes[id];
        if node.any_of.is_empty() {
            return Some(id);
        }
        // Only the `anyOf` decides here: a keyword beside it (a `not`, an `enum`, an `if`)
        // holds for the value too, and is left to the walk.
        if node.any_of.len() != 2 || node.types.is_some() || !node.asserts_only_type_and_any_of() {
            return None;
        }
        let is_null = |branch: NodeId| {
            let b = &self.nodes[branch];
            b.types == Some(Types::NULL) && b.any_of.is_empty() && b.asserts_only_type_and_any_of()
        };
        match (is_null(node.any_of[0]), is_null(node.any_of[1])) {
            (true, false) => Some(node.any_of[1]),
            (false, true) => Some(node.any_of[0]),
            _ => None,
        }
    }

    /// Does every node of `chain` take both booleans, whatever else it says?
    fn takes_every_bool(&self, chain: Chain) -> bool {
        let admits = |keyword: &Keyword| {
            [true, false].into_iter().all(|flag| keyword.scalar_admits(&Value::Bool(flag)) == Some(true))
        };
        chain.nodes(self).all(|node| {
            node.types.is_none_or(|types| types.contains(Types::BOOLEAN))
                && node.enum_values.is_none()
                && node.const_value.is_none()
                && node.keywords.iter().all(admits)
        })
    }

    /// How the one-pass path can check a string against `chain`.
    fn fast_string(&self, chain: Chain) -> FastString {
        let mut patterned = None;
        let mut options = None;
        for (index, node) in chain.nodes(self).enumerate() {
            if node.types.is_some_and(|t| !t.contains(Types::STRING))
                || node.const_value.is_some()
                || node.min_length.is_some()
                || node.max_length.is_some()
                || node.keywords.iter().any(|keyword| matches!(keyword, Keyword::Format(Format::String(_))))
            {
                return FastString::Chain;
            }
            if node.pattern.is_some() {
                if patterned.is_some() {
                    return FastString::Chain;
                }
                patterned = Some(chain.ids[index]);
            }
            if node.enum_values.is_some() {
                if options.is_some() {
                    return FastString::Chain;
                }
                options = Some(chain.ids[index]);
            }
        }
        match (patterned, options) {
            (None, None) => FastString::Any,
            (Some(node), None) => FastString::Pattern(node),
            (None, Some(node)) => FastString::Options(node),
            (Some(_), Some(_)) => FastString::Chain,
        }
    }

    /// The integers `chain` accepts, as one range, when it allows integers and bounds them
    /// only by integers (a bound written as a float, `multipleOf`, `enum` or `const`: `None`).
    fn fast_integers(&self, chain: Chain) -> Option<(i128, i128)> {
        let exact =
            |bound: &Number| bound.as_i64().map(i128::from).or_else(|| bound.as_u64().map(i128::from));
        let (mut lowest, mut highest) = (i128::MIN, i128::MAX);
        for node in chain.nodes(self) {
            if node.types.is_some_and(|t| !t.contains(Types::INTEGER) && !t.contains(Types::NUMBER))
                || node.enum_values.is_some()
                || node.const_value.is_some()
                || node.multiple_of.is_some()
            {
                return None;
            }
            if let Some(minimum) = &node.minimum {
                lowest = lowest.max(exact(minimum)?);
            }
            if let Some(maximum) = &node.maximum {
                highest = highest.min(exact(maximum)?);
            }
            // Bounds come from JSON numbers (within 64 bits): one past them fits in 128.
            if let Some(minimum) = &node.exclusive_minimum {
                lowest = lowest.max(exact(minimum)? + 1);
            }
            if let Some(maximum) = &node.exclusive_maximum {
                highest = highest.min(exact(maximum)? - 1);
            }
        }
        Some((lowest, highest))
    }

    /// The chain the one-pass path evaluates for a value of `id`: `None` when a node of it
    /// uses a keyword that path leaves to the full walk (`anyOf` included: the one `anyOf`
    /// it reads, an Option's, it resolves itself).
    fn fast_chain(&self, id: NodeId) -> Option<Chain> {
        let mut chain = Chain { ids: [0; 4], len: 0 };
        let mut current = id;
        loop {
            let node = &self.nodes[current];
            if node.reject_all
                || !node.one_of.is_empty()
                || !node.all_of.is_empty()
                || !node.any_of.is_empty()
                || node.not.is_some()
                || node.dynamic.is_some()
                || !node.pattern_properties.is_empty()
                || !node.keywords.iter().all(|keyword| matches!(keyword, Keyword::Format(_)))
                || chain.len == chain.ids.len()
            {
                return None;
            }
            chain.ids[chain.len] = current;
            chain.len += 1;
            match node.reference {
                Some(next) => current = next,
                None => return Some(chain),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::plan::Plan;

    /// What the one pass reads of a boolean's node and an Option's, found once per plan:
    /// every boolean valid where nothing but the type constrains it (through a `$ref` too),
    /// and the node of an Option's value (itself, the one branch beside `null`, or none).
    #[test]
    fn booleans_and_options_are_read_once_per_node() {
        let plan = Plan::compile(&json!({
            "type": "object",
            "properties": {
                "free": {},
                "flag": {"type": "boolean"},
                "only_true": {"type": "boolean", "enum": [true]},
                "constant": {"const": false},
                "text": {"type": "string"},
                "through": {"$ref": "#/$defs/flag"},
                "maybe": {"anyOf": [{"$ref": "#/$defs/flag"}, {"type": "null"}]},
                "either": {"anyOf": [{"type": "boolean"}, {"type": "string"}]}
            },
            "$defs": {"flag": {"type": "boolean"}}
        }))
        .expect("the schema compiles");
        let root = &plan.nodes[plan.root];
        let id =
            |name: &str| root.properties.iter().find(|(declared, _)| declared == name).expect("declared").1;
        let bools: Vec<bool> =
            ["free", "flag", "only_true", "constant", "text", "through", "maybe", "either"]
                .into_iter()
                .map(|name| plan.fast[id(name)].bools)
                .collect();
        assert_eq!(bools, [true, true, false, false, false, true, false, false]);
        assert_eq!(plan.fast[id("flag")].non_null, Some(id("flag")));
        let maybe = &plan.nodes[id("maybe")];
        assert_eq!(plan.fast[id("maybe")].non_null, Some(maybe.any_of[0]));
        assert_eq!(plan.fast[id("either")].non_null, None);
    }
}
