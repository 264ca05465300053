//! References resolved by the dynamic scope: 2020-12's `$dynamicRef` to a `$dynamicAnchor`,
//! and 2019-09's `$recursiveRef` to a resource with `"$recursiveAnchor": true`.
//!
//! The dynamic scope is the chain of schema resources (each `$id`, and the document itself)
//! the evaluation entered to reach the reference. At compile time each such reference keeps its
//! static target and every node that declares the anchor it looks for, by the resource holding
//! it; while checking, the walk keeps the resources it entered on a stack (only for a plan that
//! has such a reference: `Plan::scope_of` is empty otherwise) and [`DynamicRef::target`] picks
//! from it.

use std::collections::HashMap;

use serde_json::Value;

use super::{refs, Compiler, Draft, NodeId};
use crate::schema_error::SchemaError;

/// A reference resolved by the dynamic scope.
#[derive(Debug, Clone)]
pub(crate) struct DynamicRef {
    /// Where the reference leads when no resource in scope declares the anchor.
    pub fallback: NodeId,
    /// 2019-09's `$recursiveRef`: the resources from the innermost outwards, for as long as
    /// each declares `$recursiveAnchor`. Otherwise (2020-12) the outermost that declares it.
    pub recursive: bool,
    /// Each resource (an index of `Plan::scope_of`) declaring the anchor, and the node there.
    pub anchors: Vec<(u32, NodeId)>,
}

impl DynamicRef {
    pub(super) fn to(fallback: NodeId, recursive: bool) -> DynamicRef {
        DynamicRef { fallback, recursive, anchors: Vec::new() }
    }

    /// The node the reference leads to, given the resources entered, the outermost first
    /// (the last is the one the reference is written in).
    pub fn target(&self, scope: &[u32]) -> NodeId {
        let declared = |resource: u32| {
            self.anchors.iter().find(|(declaring, _)| *declaring == resource).map(|(_, node)| *node)
        };
        if self.recursive {
            let outer = scope.len().saturating_sub(1);
            let mut target = self.fallback;
            for &resource in scope[..outer].iter().rev() {
                match declared(resource) {
                    Some(node) => target = node,
                    None => break,
                }
            }
            target
        } else {
            scope.iter().find_map(|&resource| declared(resource)).unwrap_or(self.fallback)
        }
    }
}

impl Compiler<'_> {
    /// For a `$dynamicRef`/`$recursiveRef` written at `pointer`: `Some` when it resolves
    /// dynamically, with the `$dynamicAnchor` name it looks for (`None`: the recursive anchor).
    /// It does when the draft has the keyword and its static target declares the anchor;
    /// otherwise it is a plain reference.
    pub(super) fn dynamic_anchor(
        &mut self,
        keyword: &str,
        pointer: &str,
        reference: &str,
    ) -> Result<Option<Option<String>>, SchemaError> {
        let draft = self.draft();
        let (doc, at) = self.locate(pointer, reference)?;
        let Some(Value::Object(target)) = self.documents[doc].value.pointer(&at) else { return Ok(None) };
        Ok(match (keyword, draft) {
            ("$dynamicRef", Draft::Draft202012) => {
                let fragment = reference.split_once('#').map_or("", |(_, fragment)| fragment);
                let name = refs::percent_decode(fragment).unwrap_or_default();
                let anchored = target.get("$dynamicAnchor").and_then(Value::as_str) == Some(name.as_str());
                (!name.is_empty() && !name.starts_with('/') && anchored).then_some(Some(name))
            }
            ("$recursiveRef", _) if self.index.reads_recursive_ref(self.doc) => {
                (target.get("$recursiveAnchor") == Some(&Value::Bool(true))).then_some(None)
            }
            _ => None,
        })
    }

    /// Once every node is compiled: compile each node that declares an anchor a dynamic
    /// reference looks for (it may be reached only through the dynamic scope), give each
    /// reference its candidates, and number every node's resource. An empty table when the
    /// schema has no dynamic reference.
    pub(super) fn resolve_dynamic(&mut self) -> Result<Vec<u32>, SchemaError> {
        if self.dynamic.is_empty() {
            return Ok(Vec::new());
        }
        // Compiling candidates may meet more dynamic references (and metaschemas): until
        // nothing new is compiled.
        loop {
            let before = self.nodes.len();
            for place in self.candidates().into_iter().flat_map(|(_, places)| places) {
                let (_, place) = place;
                let pointer = place.1.clone();
                self.compile_in(place, &pointer, "$dynamicAnchor", 0)?;
            }
            if self.nodes.len() == before {
                break;
            }
        }
        let mut places: Vec<Option<&refs::Location>> = vec![None; self.nodes.len()];
        for (place, &id) in &self.by_pointer {
            places[id] = Some(place);
        }
        let mut resources: HashMap<String, u32> = HashMap::new();
        let mut number = |base: &str| -> u32 {
            let next = u32::try_from(resources.len()).unwrap_or(u32::MAX);
            *resources.entry(base.to_owned()).or_insert(next)
        };
        let scope_of: Vec<u32> = places
            .iter()
            .map(|place| place.map_or(u32::MAX, |(doc, pointer)| number(self.index.base_of(*doc, pointer))))
            .collect();
        for (id, places) in self.candidates() {
            let anchors = places
                .into_iter()
                .filter_map(|(base, place)| Some((number(&base), *self.by_pointer.get(&place)?)))
                .collect();
            if let Some(dynamic) = &mut self.nodes[id].dynamic {
                dynamic.anchors = anchors;
            }
        }
        Ok(scope_of)
    }

    /// Each dynamic reference's node, with every (resource, place) declaring its anchor.
    #[allow(clippy::type_complexity)]
    fn candidates(&self) -> Vec<(NodeId, Vec<(String, refs::Location)>)> {
        self.dynamic
            .iter()
            .map(|(id, anchor)| {
                let places = match anchor {
                    Some(name) => self
                        .index
                        .dynamic_anchors
                        .iter()
                        .filter(|(declared, _, _)| declared == name)
                        .map(|(_, base, place)| (base.clone(), place.clone()))
                        .collect(),
                    None => self.index.recursive_anchors.clone(),
                };
                (*id, places)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dynamic_scope_picks_the_outermost_anchor() {
        let dynamic = DynamicRef { fallback: 9, recursive: false, anchors: vec![(1, 11), (2, 12)] };
        assert_eq!(dynamic.target(&[0, 2, 1]), 12);
        assert_eq!(dynamic.target(&[0, 3]), 9);
        // 2019-09: from the innermost outwards, while each resource declares the anchor.
        let recursive = DynamicRef { recursive: true, ..dynamic };
        // The last resource is the one the reference is written in: its own anchor is the
        // fallback.
        assert_eq!(recursive.target(&[1, 3, 0]), 9);
        assert_eq!(recursive.target(&[2, 1, 5]), 12);
        assert_eq!(recursive.target(&[2, 3, 1, 5]), 11);
    }
}
