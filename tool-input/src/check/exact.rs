//! The exact check: does a value pass a node as it is, with no coercion, and would the walk
//! still change it? The cheap `is_valid` beside the walk's explaining `validate`, in the
//! manner of the `jsonschema` crate: it reads the value (never a copy of it), records
//! nothing, and stops at the first keyword the value breaks.
//!
//! Each keyword's test is the one the walk explains with (`check::keywords`, the `keywords`
//! folder): only the walking is written here, so the two cannot disagree on what a keyword
//! means. Unions go by the shape the plan found in them, as the walk's do, and a general
//! union's tries are remembered per (branch, value) within the outermost try (see `union`).

use std::collections::HashMap;

use serde_json::{Map, Number, Value};

use super::keywords::{
    absent_defaults, const_refuses, enum_refuses, first_equal_items, integral_float_rewritten, item_schema,
    number_breaks, pattern_break, string_length, Bounds, Sent,
};
use super::{json_equal, says_about_members, Mode, Path, Walker};
use crate::plan::{Additional, Node, NodeId, Types, UnionShape, MAX_SCHEMA_HOPS};
use crate::policy::Policy;

/// What an exact check of one node on one value found.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Exact {
    /// The value passes the node as it is, as JSON Schema reads it: a number is the float
    /// it was read as (`1e20` is an integer), whatever its text held that the float does not.
    /// What the walk refuses beyond that is `changes.inexact`.
    pub ok: bool,
    /// What the full walk would still change of the value (complete only when `ok`).
    pub changes: Touched,
}

impl Exact {
    /// Would the full walk still change the value (fill an absent default when the walker
    /// prepares values, or write an integral float as an integer), or refuse a number that
    /// JSON Schema takes?
    pub fn touched(self) -> bool {
        self.changes.fills || self.changes.rewrites || self.changes.inexact
    }

    /// Does the value pass as it is, and would the walk refuse none of its numbers as
    /// inexact? What a positive answer (the value is taken) needs; a negation, a condition
    /// and a count of `oneOf` branches or `contains` items read `ok`, JSON Schema's answer,
    /// so that the walk's refusal of more than JSON Schema refuses never turns into an
    /// acceptance (`{"not": {"type": "integer"}}` refuses `1e20`).
    pub fn taken(self) -> bool {
        self.ok && !self.changes.inexact
    }
}

/// What the full walk would still change of a value the exact check passes.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Touched {
    /// A default filled in for an absent property.
    fills: bool,
    /// An integral float written as an integer: a change of what was sent (`1.0` as `1`),
    /// which an `anyOf` makes only where no branch takes the value as it is.
    rewrites: bool,
    /// A number JSON Schema takes but the walk refuses: an integral float its text denotes
    /// no integer of (`0.99999999999999999`), or beyond the integers a float keeps exactly
    /// where an integer is declared (`1e20`, or `9007199254740993.0` read from no text), or
    /// an integer written with more digits than the float of a `number` keeps (see
    /// `Walker::number`).
    pub(super) inexact: bool,
}

impl Touched {
    /// Is the value taken as it was sent: nothing rewritten, no number refused?
    fn as_sent(self) -> bool {
        !self.rewrites && !self.inexact
    }
}

impl std::ops::BitOrAssign for Touched {
    fn bitor_assign(&mut self, other: Touched) {
        self.fills |= other.fills;
        self.rewrites |= other.rewrites;
        self.inexact |= other.inexact;
    }
}

/// Exact tries remembered by (branch, address of the value, resources entered), valid while
/// no walk changes any value: from the outermost exact try to its end. The resources (empty
/// unless the plan resolves a reference dynamically) are part of the key: a dynamic
/// reference below the branch may lead elsewhere from another scope.
pub(crate) type Memo = HashMap<(NodeId, usize, Vec<u32>), Exact>;

/// The mode the exact check asks the walk's number tests in: nothing coerced, nothing
/// quoted (their messages are dropped unread).
const DECIDING: Mode = Mode { policy: Policy::Strict, sensitive: true };

impl Walker<'_> {
    /// Check `value` at `path` against the node `id` exactly, `hops` schema steps into the
    /// same value (a `{"not": {"$ref": "#"}}` must end at the hop limit, not overflow).
    pub(crate) fn exact(
        &self,
        id: NodeId,
        value: &Value,
        path: &Path<'_>,
        depth: usize,
        hops: usize,
    ) -> Exact {
        let mut touched = Touched::default();
        let ok = self.passes(id, value, path, depth, hops, &mut touched);
        Exact { ok, changes: touched }
    }

    fn passes(
        &self,
        id: NodeId,
        value: &Value,
        path: &Path<'_>,
        depth: usize,
        hops: usize,
        touched: &mut Touched,
    ) -> bool {
        if !self.budget.step() {
            return false;
        }
        let _entered = self.enter(id);
        if hops > MAX_SCHEMA_HOPS {
            return false;
        }
        let node = &self.plan.nodes[id];
        if node.reject_all {
            return false;
        }
        if let Some(reference) = node.reference {
            if !self.passes(reference, value, path, depth, hops + 1, touched) {
                return false;
            }
        }
        if let Some(dynamic) = &node.dynamic {
            if !self.passes(self.dynamic_target(dynamic), value, path, depth, hops + 1, touched) {
                return false;
            }
        }
        if let Some(types) = node.types {
            if !types.accepts(value) {
                return false;
            }
            touched.rewrites |= integral_float_rewritten(types, value);
        }
        if enum_refuses(node, value).is_some()
            || const_refuses(node, |constant| json_equal(constant, value)).is_some()
        {
            return false;
        }
        let kept = match value {
            Value::Number(number) => self.number_passes(node, number, path, depth, hops, touched),
            Value::String(string) => self.string_passes(node, string),
            Value::Array(items) => self.items_pass(node, items, path, depth, touched),
            Value::Object(map) => self.members_pass(node, map, path, depth, touched),
            Value::Null | Value::Bool(_) => true,
        };
        if !kept {
            return false;
        }
        for &branch in &node.all_of {
            if !self.passes(branch, value, path, depth, hops + 1, touched) {
                return false;
            }
        }
        if let Some(shape) = &node.any_of_shape {
            if !self.union_passes(shape, &node.any_of, false, value, path, depth, hops, touched) {
                return false;
            }
        }
        if let Some(shape) = &node.one_of_shape {
            if !self.union_passes(shape, &node.one_of, true, value, path, depth, hops, touched) {
                return false;
            }
        }
        // What the `not` would change is not this value's concern: only whether it passes.
        if node.not.is_some_and(|not| self.exact(not, value, path, depth, hops + 1).ok) {
            return false;
        }
        node.keywords.is_empty() || self.routed_keywords_hold(node, value, path, depth, hops, touched)
    }

    fn number_passes(
        &self,
        node: &Node,
        number: &Number,
        path: &Path<'_>,
        depth: usize,
        hops: usize,
        touched: &mut Touched,
    ) -> bool {
        let inexact = if node.types.is_some_and(Types::integer_only) {
            self.integer_problem(number, path, DECIDING).is_some()
        } else {
            self.digits_lost(number, path).is_some()
                && !self.digits_said_below(node, number, path, depth, hops)
        };
        touched.inexact |= inexact;
        number_breaks(node, number).next().is_none()
    }

    fn string_passes(&self, node: &Node, string: &str) -> bool {
        string.len() <= self.max_string_bytes
            && string_length(node, string).is_none_or(|length| Bounds::length(node).admit(length))
            && pattern_break(node, string).is_none()
    }

    /// Does `[value]`, one value sent where the node declares an array, pass the node's
    /// array keywords as it is: its bounds and item schemas, and the keywords of the folder
    /// (`contains`, `unevaluatedItems`)? Lenient wraps only such a value: a wrap the array's
    /// own rules refuse is not made, and the value is explained as sent.
    pub(super) fn wrapped_passes(&self, node: &Node, wrapped: &Value, path: &Path<'_>, depth: usize) -> bool {
        let Value::Array(items) = wrapped else { return false };
        let _checking = self.checking(wrapped);
        let mut touched = Touched::default();
        self.items_pass(node, items, path, depth, &mut touched)
            && (node.keywords.is_empty()
                || self.routed_keywords_hold(node, wrapped, path, depth, 0, &mut touched))
            && !touched.inexact
            && !self.budget.spent()
    }

    fn items_pass(
        &self,
        node: &Node,
        items: &[Value],
        path: &Path<'_>,
        depth: usize,
        touched: &mut Touched,
    ) -> bool {
        if !Bounds::items(node).admit(items.len() as u64) {
            return false;
        }
        if !node.prefix_items.is_empty() || node.items.is_some() {
            if depth >= self.max_depth {
                return false;
            }
            for (index, item) in items.iter().enumerate() {
                let Some(schema) = item_schema(node, index) else { continue };
                if !self.passes(schema, item, &Path::Index(path, index), depth + 1, 0, touched) {
                    return false;
                }
            }
        }
        !node.unique_items || first_equal_items(items).is_none()
    }

    fn members_pass(
        &self,
        node: &Node,
        map: &Map<String, Value>,
        path: &Path<'_>,
        depth: usize,
        touched: &mut Touched,
    ) -> bool {
        if depth >= self.max_depth && !map.is_empty() {
            return false;
        }
        if !says_about_members(node) {
            return true;
        }
        if self.prepare && self.fill_defaults {
            touched.fills |= absent_defaults(node, |_, name| map.contains_key(name)).next().is_some();
        }
        let mut sent = Sent::new(node.properties.len());
        for (key, child) in map {
            let child_path = Path::Key(path, key);
            let mut declared = false;
            if let Some(index) = node.property_index_of(key) {
                declared = true;
                sent.insert(index);
                if !self.passes(node.properties[index].1, child, &child_path, depth + 1, 0, touched) {
                    return false;
                }
            }
            for (pattern, schema) in &node.pattern_properties {
                // A pattern that cannot be checked within its budget is an error of its own.
                match pattern.matches(key) {
                    Ok(true) => {
                        declared = true;
                        if !self.passes(*schema, child, &child_path, depth + 1, 0, touched) {
                            return false;
                        }
                    }
                    Ok(false) => {}
                    Err(_) => return false,
                }
            }
            if !declared {
                let kept = match node.additional {
                    Additional::Allow => true,
                    Additional::Schema(schema) => {
                        self.passes(schema, child, &child_path, depth + 1, 0, touched)
                    }
                    Additional::Deny => false,
                };
                if !kept {
                    return false;
                }
            }
        }
        sent.missing(node).next().is_none()
            && node.required_other.iter().all(|name| map.contains_key(name))
            && Bounds::properties(node).admit(map.len() as u64)
    }

    /// A union, by the shape the plan found in it (see `union`).
    #[allow(clippy::too_many_arguments)]
    fn union_passes(
        &self,
        shape: &UnionShape,
        branches: &[NodeId],
        exactly_one: bool,
        value: &Value,
        path: &Path<'_>,
        depth: usize,
        hops: usize,
        touched: &mut Touched,
    ) -> bool {
        let by_shape = |branch: Option<NodeId>, touched: &mut Touched| {
            branch.is_some_and(|branch| self.passes(branch, value, path, depth, hops + 1, touched))
        };
        let types = match shape {
            UnionShape::Constants(options) => return options.branch_of(value).is_some(),
            UnionShape::Tagged { tag, options } => {
                let sent = value.as_object().and_then(|map| map.get(tag.as_str()));
                return by_shape(sent.and_then(|sent| options.branch_of(sent)), touched);
            }
            UnionShape::External { keys, units } => {
                let branch = match value {
                    Value::String(_) => units.branch_of(value),
                    Value::Object(map) if map.len() == 1 => map
                        .keys()
                        .next()
                        .and_then(|key| keys.iter().find(|(name, _)| name == key))
                        .map(|(_, branch)| *branch),
                    _ => None,
                };
                return by_shape(branch, touched);
            }
            UnionShape::Nullable { value: branch } if !value.is_null() => {
                return by_shape(Some(*branch), touched)
            }
            UnionShape::Nullable { .. } => None,
            UnionShape::General { types } => Some(types.as_slice()),
        };
        // Any other union: the branches that admit the value's JSON type, tried in order
        // (each (branch, value) once within the outermost try); `oneOf` needs exactly one.
        match self.first_exact_branch(branches, types, exactly_one, value, path, depth, hops) {
            Some((_, chosen, false)) => {
                *touched |= chosen.changes;
                true
            }
            _ => false,
        }
    }

    /// The first branch of a union that accepts `value` exactly, with what the walk would
    /// still change of it there, and (for `oneOf`) whether another branch accepts it too. Of
    /// an `anyOf`'s branches, one that takes the value as sent comes before one that would
    /// rewrite it: `1.0` where an integer and then a number are allowed stays `1.0` (serde's
    /// untagged `enum { I(i64), F(f64) }` reads it as `F`), since nothing sent failed.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn first_exact_branch(
        &self,
        branches: &[NodeId],
        types: Option<&[Types]>,
        exactly_one: bool,
        value: &Value,
        path: &Path<'_>,
        depth: usize,
        hops: usize,
    ) -> Option<(NodeId, Exact, bool)> {
        let admits = |index: usize| types.is_none_or(|types| types[index].admits(value));
        let mut chosen: Option<(NodeId, Exact)> = None;
        let mut matched = 0;
        self.scopes.set(self.scopes.get() + 1);
        for (index, &branch) in branches.iter().enumerate() {
            if !admits(index) {
                continue;
            }
            let found = self.remembered_exact(branch, value, path, depth, hops);
            if !found.ok {
                continue;
            }
            matched += 1;
            let preferred = match chosen {
                None => true,
                Some((_, first)) => !exactly_one && !first.changes.as_sent() && found.changes.as_sent(),
            };
            if preferred {
                chosen = Some((branch, found));
            }
            let settled = if exactly_one {
                matched > 1
            } else {
                chosen.is_some_and(|(_, first)| first.changes.as_sent())
            };
            if settled {
                break;
            }
        }
        self.scopes.set(self.scopes.get() - 1);
        if self.scopes.get() == 0 {
            self.memo.borrow_mut().clear();
        }
        chosen.map(|(branch, found)| (branch, found, exactly_one && matched > 1))
    }

    /// The exact check of `branch` on `value`, remembered by (branch, value) within the
    /// outermost union's try.
    fn remembered_exact(
        &self,
        branch: NodeId,
        value: &Value,
        path: &Path<'_>,
        depth: usize,
        hops: usize,
    ) -> Exact {
        let key = (branch, std::ptr::from_ref::<Value>(value) as usize, self.resources.borrow().clone());
        if let Some(found) = self.memo.borrow().get(&key) {
            return *found;
        }
        let found = self.exact(branch, value, path, depth, hops + 1);
        self.memo.borrow_mut().insert(key, found);
        found
    }
}
