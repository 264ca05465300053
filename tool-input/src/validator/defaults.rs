//! The schema's defaults, as the validator fills them: whether each is exact where it is
//! filled, the first one its own schema refuses (a schema error), and whether the walk
//! coerced one it filled.

use std::collections::HashMap;

use crate::check::{FieldOverride, Outcome, Walker};
use crate::error::ErrorCode;
use crate::limits::Limits;
use crate::plan::Plan;
use crate::report::CoercionKind;
use crate::schema_error::SchemaError;

/// Was a default the walk filled coerced, for a keyword other than its own property's schema
/// (which then refuses what it became)? Only where such a keyword can read it (the plan's
/// coercions can meet one: see `Node::entangles_coercions`).
pub(super) fn defaults_coerced(walker: &Walker<'_>, outcome: &Outcome) -> bool {
    if !walker.plan.coercions_entangled || outcome.out_of_steps {
        return false;
    }
    let filled: std::collections::HashSet<&str> = outcome
        .coercions
        .iter()
        .filter(|coercion| coercion.kind == CoercionKind::DefaultFilled)
        .map(|coercion| coercion.path.as_str())
        .collect();
    let in_a_default = |path: &str| {
        path.match_indices('/').map(|(at, _)| &path[..at]).chain([path]).any(|above| filled.contains(above))
    };
    !filled.is_empty()
        && outcome.coercions.iter().any(|c| c.kind != CoercionKind::DefaultFilled && in_a_default(&c.path))
}

/// Is every property's `default` exactly valid against the property's schema, under the
/// validator's own limits, and left as it is by the walk that fills it (no default inside
/// it to fill, no `5.0` to write as `5`; see `Plan::defaults_exact`)?
pub(super) fn defaults_exact(
    plan: &Plan,
    overrides: &HashMap<String, FieldOverride>,
    limits: &Limits,
) -> bool {
    let walker = Walker::new(plan, overrides, limits, true);
    plan.nodes.iter().all(|node| {
        node.defaults
            .iter()
            .all(|(index, default)| walker.accepts_untouched(node.properties[*index].1, default))
    })
}

/// The first property `default` that its own schema refuses, as a schema error at that
/// `default`. It is the schema's mistake, never the model's: filled in for a call that
/// leaves the property out, it would be refused as if the call had sent it. Validity is
/// plain JSON Schema validity (`5.0` is an integer), as [`Validator::is_valid`](crate::Validator::is_valid) reads it.
/// So is a default that cannot be filled in: one whose own defaults, filled in, hold an
/// object that fills them in again, past the depth limit.
pub(super) fn refused_default(
    plan: &Plan,
    overrides: &HashMap<String, FieldOverride>,
    limits: &Limits,
) -> Option<SchemaError> {
    let walker = Walker::new(plan, overrides, limits, false);
    // The walk that fills the defaults inside a default, as a call's does.
    let filling = Walker::new(plan, overrides, limits, true);
    for node in &plan.nodes {
        for (index, default) in &node.defaults {
            let (name, child) = &node.properties[*index];
            let holder = plan.default_holder(*child).unwrap_or(*child);
            let pointer = format!("{}/default", plan.pointers[holder]);
            let errors = walker.errors_at(*child, &mut default.clone());
            let Some(first) = errors.first() else {
                // Valid as it is; but a default whose own defaults fill objects that fill
                // more (`{"c": {"$ref": "#", "default": {}}}`) never ends.
                let filled = filling.errors_at(*child, &mut default.clone());
                if !filled.iter().any(|error| error.code == ErrorCode::TooDeep) {
                    continue;
                }
                return Some(SchemaError::new(
                    &pointer,
                    format!(
                        "the default of `{name}` holds an object whose schema fills in defaults that hold such an object again, without end: filled in, it would nest past the limit of {} levels",
                        limits.max_depth
                    ),
                ));
            };
            let inside = if first.path.is_empty() { String::new() } else { format!(" at {}", first.path) };
            return Some(SchemaError::new(
                &pointer,
                format!(
                    "the default of `{name}` does not pass the property's own schema{inside}: {}; it would be filled in for a call that leaves `{name}` out and then refused",
                    first.message
                ),
            ));
        }
    }
    None
}
