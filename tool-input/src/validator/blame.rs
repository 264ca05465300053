//! Which coercions broke the rest of the schema.
//!
//! A coercion is made only when the value as sent fails and the coerced value passes the
//! whole schema. The walk coerces a value where a subschema asks for it (an `enum` in
//! another case, an integer sent as a string); a keyword that read the value as it was (a
//! `not` beside the `enum`, another branch) or one above it (a `not` at the root, an `if`
//! about a sibling) may refuse what the coercion made. The walk cannot see that, so after it
//! the coerced value is checked exactly.
//!
//! When that check finds an error the walk did not report, or an error above a coerced
//! value (which the coercion may have caused), each coercion is tried undone on its own: the
//! coercions whose undoing clears such an error are blamed. Only those are undone, and the
//! value is explained again with the rest kept: `{"p": "HIGH", "q": "4"}` where `"high"` is
//! excluded reports `/p` alone, not `/q` as well, and `q` sent out of range beside it is
//! reported in the same round, not the next. When no coercion is to blame on its own (two
//! that break the schema only together), the whole value is explained as sent.

use std::collections::HashSet;

use serde_json::Value;

use crate::check::{Outcome, Walker};
use crate::error::{ErrorCode, FieldError};
use crate::report::{Coercion, CoercionKind};

/// At most this many coercions are tried undone one by one (each try checks the whole value
/// again); past it, the value is explained as sent.
const MOST_TRIED: usize = 16;

/// What the walk's coercions did to the rest of the schema.
pub(super) enum Blame {
    /// These coercions (indices into the walk's) each broke the schema: undo them, keep the
    /// rest.
    These(Vec<usize>),
    /// The coercions broke the schema together, or could not be told apart: explain the
    /// value as sent.
    All,
}

/// An error, as far as telling two explanations apart needs.
type Found = (String, ErrorCode);

fn found(errors: &[FieldError]) -> Vec<Found> {
    errors.iter().map(|error| (error.path.clone(), error.code)).collect()
}

fn coerced(coercion: &Coercion) -> bool {
    coercion.kind != CoercionKind::DefaultFilled
}

/// `value` as the model sent it: the walk's value with every default it filled taken out
/// again (a default is not the model's doing: `maxProperties: 1` must not count it).
fn without_defaults(value: &Value, coercions: &[Coercion]) -> Value {
    let mut sent = value.clone();
    // Deepest first, so a default inside a default is removed with it or before it.
    for filled in coercions.iter().rev().filter(|c| !coerced(c)) {
        let (parent, key) = filled.path.rsplit_once('/').unwrap_or_default();
        if let Some(object) = sent.pointer_mut(parent).and_then(Value::as_object_mut) {
            object.remove(crate::pointer::unescape_token(key).as_ref());
        }
    }
    sent
}

/// Put the value `sent` holds at `path` back into `value`, where a coercion changed it (or,
/// for a `null` read as absent, removed it). False when either has no place for it.
pub(super) fn put_back(value: &mut Value, sent: &Value, path: &str) -> bool {
    let Some(as_sent) = sent.pointer(path) else { return false };
    let Some((parent, token)) = path.rsplit_once('/') else {
        *value = as_sent.clone();
        return true;
    };
    match value.pointer_mut(parent) {
        Some(Value::Object(members)) => {
            members.insert(crate::pointer::unescape_token(token).into_owned(), as_sent.clone());
            true
        }
        Some(Value::Array(items)) => match token.parse::<usize>().ok().and_then(|at| items.get_mut(at)) {
            Some(slot) => {
                *slot = as_sent.clone();
                true
            }
            None => false,
        },
        _ => false,
    }
}

/// Did the walk's coercions break the rest of the schema, and which? `None` when they kept
/// it (or nothing but defaults was filled); `value` is the walk's value, `outcome` its
/// findings, and `sent` reads the value as the model sent it (under the same aliases), once
/// a coercion is in doubt.
pub(super) fn blame(
    walker: &Walker<'_>,
    value: &Value,
    outcome: &Outcome,
    sent: impl FnOnce() -> Option<Value>,
) -> Option<(Blame, Value)> {
    let coercions = &outcome.coercions;
    // Where no coercion can meet a keyword that did not see it, the walk has checked every
    // coerced value in full already.
    if !walker.plan.coercions_entangled || !coercions.iter().any(coerced) {
        return None;
    }
    let exact = without_defaults(value, coercions);
    let root = walker.plan.root;
    if outcome.errors.is_empty()
        && walker.accepts_exact(root, &mut exact.clone(), &crate::check::Path::Root, 0)
    {
        return None;
    }
    let refused = found(&walker.errors_at(root, &mut exact.clone()));
    let reported: HashSet<Found> = found(&outcome.errors).into_iter().collect();
    // The coerced paths, sorted: those below a path are one run of them.
    let mut paths: Vec<&str> = coercions.iter().filter(|c| coerced(c)).map(|c| c.path.as_str()).collect();
    paths.sort_unstable();
    let holds_a_coerced_value = |path: &str| {
        let below = format!("{path}/");
        let first = paths.partition_point(|coerced| *coerced < below.as_str());
        paths.get(first).is_some_and(|coerced| coerced.starts_with(&below))
    };
    // The errors a coercion may have caused: one the walk did not report (it read the value
    // before the coercion), or one above a coerced value.
    let in_doubt: Vec<&Found> = refused
        .iter()
        .filter(|error| !reported.contains(*error) || holds_a_coerced_value(&error.0))
        .collect();
    if in_doubt.is_empty() {
        // Every error is the walk's own, about values no coercion touched from above. (An
        // exact check that refused with no error to show cannot be explained better than
        // as sent.)
        return if outcome.errors.is_empty() { sent().map(|sent| (Blame::All, sent)) } else { None };
    }
    let sent = sent()?;
    let made: Vec<usize> = (0..coercions.len()).filter(|&at| coerced(&coercions[at])).collect();
    if made.len() > MOST_TRIED {
        return Some((Blame::All, sent));
    }
    let mut blamed = Vec::new();
    for at in made {
        let mut undone = exact.clone();
        if !put_back(&mut undone, &sent, &coercions[at].path) {
            continue;
        }
        let still = found(&walker.errors_at(root, &mut undone));
        if in_doubt.iter().any(|error| !still.contains(error)) {
            blamed.push(at);
        }
    }
    if blamed.is_empty() {
        Some((Blame::All, sent))
    } else {
        Some((Blame::These(blamed), sent))
    }
}
