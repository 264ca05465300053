//! The graph of the subschemas a node applies to the value itself (`$ref`, `allOf`, `anyOf`,
//! `oneOf`, `not`, the conditionals): the edges the walk follows without descending into the
//! value. A compiled schema is refused when they loop ([`first_loop`]), or apply too much to
//! one value ([`same_value_excess`]).

use super::{Node, NodeId};
use crate::keywords::Keyword;

/// The subschemas a node applies to the value itself (`$ref`, `allOf`, `anyOf`, `oneOf`,
/// `not`, the conditionals): the edges that do not descend into the value.
fn same_value_edges(node: &Node) -> Vec<NodeId> {
    let dynamic = node.dynamic.as_ref().map(|dynamic| dynamic.fallback);
    let mut out: Vec<NodeId> = node.reference.into_iter().chain(dynamic).chain(node.not).collect();
    out.extend(node.all_of.iter().chain(&node.any_of).chain(&node.one_of));
    out.extend(node.keywords.iter().flat_map(Keyword::same_value_schemas));
    out
}

/// Most subschemas one node may apply to one value, counting each way through its
/// [`same_value_edges`] (`{"allOf": [{"$ref": "#/$defs/b"}, {"$ref": "#/$defs/b"}]}` applies
/// `b` twice, in full), for a schema of up to a quarter as many subschemas (see
/// [`most_applications`]). Past it a schema is refused: thirty such definitions, each
/// referring to the next twice, would apply 2^30 subschemas to every value checked. A real
/// tool's schema applies tens.
pub(crate) const MOST_APPLICATIONS: u64 = 10_000;

/// Most subschemas one node of `nodes` may apply to one value: [`MOST_APPLICATIONS`], or four
/// times the schema's subschemas when that is more. A wide union (an enum of 20,000 documented
/// constants, each a branch of a `oneOf`) applies about as many subschemas as the schema
/// holds, which checking costs whatever the limit; only reuse (a definition applied many times
/// over) can make the count outgrow the schema.
pub(crate) fn most_applications(nodes: &[Node]) -> u64 {
    MOST_APPLICATIONS.max((nodes.len() as u64).saturating_mul(4))
}

/// How many [`same_value_edges`] the walk follows one after another before it gives up on a
/// value (`{"$ref": "#"}` would loop forever; such loops are refused when compiled, and so
/// are longer chains: [`same_value_excess`]).
pub(crate) const MAX_SCHEMA_HOPS: usize = 64;

/// What [`same_value_excess`] found too much of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Excess {
    /// More than [`most_applications`] subschemas applied to one value.
    Applications,
    /// A chain of more than [`MAX_SCHEMA_HOPS`] subschemas, each applied by the one before.
    Chain,
}

/// A node that applies more than [`most_applications`] subschemas to one value, or starts a
/// chain of more than [`MAX_SCHEMA_HOPS`] (the first found whose own subschemas are each
/// within both), on the graph of [`same_value_edges`], which [`first_loop`] found without
/// cycles.
pub(super) fn same_value_excess(nodes: &[Node]) -> Option<(NodeId, Excess)> {
    // Each node's count (itself and every way through its edges, capped past the limit) and
    // its longest chain of edges; by depth-first search on an explicit stack, a node settled
    // once its edges are.
    let most = most_applications(nodes);
    let mut settled: Vec<Option<(u64, usize)>> = vec![None; nodes.len()];
    for start in 0..nodes.len() {
        if settled[start].is_some() {
            continue;
        }
        let mut stack: Vec<(NodeId, Vec<NodeId>, usize)> = vec![(start, same_value_edges(&nodes[start]), 0)];
        while let Some((id, next, at)) = stack.last_mut() {
            match next.get(*at).copied() {
                Some(to) if settled.get(to).is_some_and(Option::is_none) => {
                    stack.push((to, same_value_edges(&nodes[to]), 0));
                }
                Some(_) => *at += 1,
                None => {
                    let (mut count, mut chain) = (1u64, 0usize);
                    for &(child_count, child_chain) in next.iter().filter_map(|&to| settled.get(to)?.as_ref())
                    {
                        count = count.saturating_add(child_count);
                        chain = chain.max(child_chain + 1);
                    }
                    if count > most {
                        return Some((*id, Excess::Applications));
                    }
                    if chain > MAX_SCHEMA_HOPS {
                        return Some((*id, Excess::Chain));
                    }
                    settled[*id] = Some((count, chain));
                    stack.pop();
                }
            }
        }
    }
    None
}

/// A node on a cycle of the edges that do not descend into the value (`$ref`, `allOf`,
/// `anyOf`, `oneOf`, `not`): the walk would follow it forever (`{"$ref": "#"}`, two
/// definitions referring to each other). Recursion through `properties` or `items` is fine.
pub(super) fn first_loop(nodes: &[Node]) -> Option<NodeId> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Open,
        Done,
    }
    let edges = same_value_edges;
    let mut marks = vec![Mark::New; nodes.len()];
    for start in 0..nodes.len() {
        if marks[start] != Mark::New {
            continue;
        }
        // Depth-first, on an explicit stack: (node, its next edge).
        let mut stack: Vec<(NodeId, Vec<NodeId>, usize)> = vec![(start, edges(&nodes[start]), 0)];
        marks[start] = Mark::Open;
        while let Some((id, next, at)) = stack.last_mut() {
            match next.get(*at).copied() {
                Some(to) => {
                    *at += 1;
                    match marks.get(to).copied() {
                        Some(Mark::Open) => return Some(to),
                        Some(Mark::New) => {
                            marks[to] = Mark::Open;
                            stack.push((to, edges(&nodes[to]), 0));
                        }
                        _ => {}
                    }
                }
                None => {
                    marks[*id] = Mark::Done;
                    stack.pop();
                }
            }
        }
    }
    None
}
