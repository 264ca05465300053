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
//! value (which the coercion may have caused), coercions are tried undone: a set of them at
//! once, halved while undoing it clears such an error, down to the coercions whose undoing
//! clears one (or the few that clear one only together). Only those are undone, and the
//! value is explained again with the rest kept: `{"p": "HIGH", "q": "4"}` where `"high"` is
//! excluded reports `/p` alone, not `/q` as well; `q` sent out of range beside it is
//! reported in the same round, not the next; one item among thousands is found in a few
//! dozen checks. Where undoing every coercion clears nothing, the errors are the call's own
//! and the walk's explanation stands. Past a bound on the checks, the whole value is
//! explained as sent.
//!
//! The value checked holds the defaults the walk filled (a required property's default
//! answers for it), but their objects' count bounds count only what was sent, as the walk
//! counts. Whether the defaults themselves broke the schema is the validator's to settle,
//! after the coercions are ([`defaults_hold`]).

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use serde_json::Value;

use crate::check::{Outcome, RefusedOptions, Walker};
use crate::error::{ErrorCode, FieldError};
use crate::report::{Coercion, CoercionKind};

/// At most this many checks of the whole value look for the coercions to blame (one among
/// 20,000 takes about 30); past it, the value is explained as sent.
const MOST_TRIALS: usize = 64;

/// What the walk's coercions did to the rest of the schema.
pub(super) enum Blame {
    /// These coercions (indices into the walk's, in its order) broke the schema, each alone
    /// or a few only together: undo them, keep the rest.
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

/// The errors of `value`, the walk's (its coercions and defaults in), as an exact check of
/// the whole schema finds them, but for the count bounds of the objects a default was filled
/// in: a default is not the model's doing, and the walk counts the members sent. (Whether
/// the defaults themselves hold, `maxProperties` with them in, is [`defaults_hold`]'s to say,
/// after the coercions are settled.)
fn refused(walker: &Walker<'_>, value: &Value, coercions: &[Coercion]) -> Vec<Found> {
    let holders: HashSet<&str> = coercions
        .iter()
        .filter(|c| !coerced(c))
        .map(|c| c.path.rsplit_once('/').map_or("", |(parent, _)| parent))
        .collect();
    let errors = walker.errors_at(walker.plan.root, &mut value.clone());
    found(&errors)
        .into_iter()
        .filter(|(path, code)| !(*code == ErrorCode::Properties && holders.contains(path.as_str())))
        .collect()
}

/// Does the whole schema take `value`, the walk's, with the defaults it filled? Their
/// objects' count bounds too: the walk counted the members sent, and a value past
/// `maxProperties` with its defaults in is not to be handed over.
pub(super) fn defaults_hold(walker: &Walker<'_>, value: &Value) -> bool {
    walker.accepts_exact(walker.plan.root, value, &crate::check::Path::Root, 0)
}

/// Is each of `errors` (by path and code) one of `among`?
pub(super) fn each_found_in(errors: &[FieldError], among: &[FieldError]) -> bool {
    let among: HashSet<Found> = found(among).into_iter().collect();
    found(errors).iter().all(|error| among.contains(error))
}

/// After the walk: where a coercion broke the rest of the schema ([`blame`]), undo it and
/// explain the value as sent there, keeping the coercions that stand.
pub(super) fn settle(
    walker: &mut Walker<'_>,
    value: &mut Value,
    outcome: &mut Outcome,
    sent: impl FnOnce() -> Option<Value>,
) {
    let blamed = if outcome.out_of_steps { None } else { blame(walker, value, outcome, sent) };
    if let Some((blamed, sent)) = blamed {
        // A coercion made a value that breaks the rest of the schema (a sibling bound, a
        // `not`, another branch): it is not made, and the value is explained as sent there.
        let made = std::mem::take(&mut outcome.coercions);
        let (refused, kept) = undo(blamed, value, sent, made);
        walker.refused = refused;
        *outcome = walker.run(value, crate::policy::Policy::Strict);
        if let Some(kept) = kept {
            // The strict walk makes no coercion of its own: these are the ones that stand.
            outcome.coercions = kept;
        }
    }
}

/// Put the value `sent` holds at `path` back into `value`, where a coercion changed it (or,
/// for a `null` read as absent, removed it). False when either has no place for it.
fn put_back(value: &mut Value, sent: &Value, path: &str) -> bool {
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

/// Undo the coercions `blame` names in `value` (the walk's), from `sent` (the value as sent),
/// of those the walk `made`. Returns the options not to suggest (sending them fails too),
/// and the coercions that stand, when some do (`None`: the value is as sent, and its walk
/// says what stands).
pub(super) fn undo(
    blame: Blame,
    value: &mut Value,
    sent: Value,
    made: Vec<Coercion>,
) -> (Option<RefusedOptions>, Option<Vec<Coercion>>) {
    match blame {
        Blame::These(blamed) => {
            let refused = refused_options(blamed.iter().map(|&at| &made[at]));
            // The shallowest first: one inside another goes back with it.
            let mut paths: Vec<&str> = blamed.iter().map(|&at| made[at].path.as_str()).collect();
            paths.sort_by_key(|path| path.len());
            for path in paths {
                put_back(value, &sent, path);
            }
            // `blamed` is in the walk's order, as `made` is.
            let kept = made.into_iter().enumerate().filter(|(at, _)| blamed.binary_search(at).is_err());
            (refused, Some(kept.map(|(_, coercion)| coercion).collect()))
        }
        Blame::All => {
            *value = sent;
            // The schema refused what the coercions made together: none of their options is a
            // fix to suggest.
            (refused_options(&made), None)
        }
    }
}

/// The options that coercions made in another letter case, by path, as messages quote them.
fn refused_options<'c>(coercions: impl IntoIterator<Item = &'c Coercion>) -> Option<RefusedOptions> {
    let refused: HashMap<String, String> = coercions
        .into_iter()
        .filter_map(|coercion| match coercion {
            Coercion { path, kind: CoercionKind::EnumCase, to: Some(to), .. } => {
                Some((path.clone(), to.clone()))
            }
            _ => None,
        })
        .collect();
    (!refused.is_empty()).then(|| Rc::new(refused))
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
    let past_the_records = outcome.coercions_omitted > 0;
    if !walker.plan.coercions_entangled || !(past_the_records || coercions.iter().any(coerced)) {
        return None;
    }
    let exact = value;
    let root = walker.plan.root;
    if outcome.errors.is_empty() && walker.accepts_exact(root, exact, &crate::check::Path::Root, 0) {
        return None;
    }
    let refused = refused(walker, exact, coercions);
    if outcome.errors.is_empty() && refused.is_empty() {
        // Only the count bounds of objects with defaults in them: as the walk reads them.
        return None;
    }
    if past_the_records {
        // More coercions were made than the walk kept records of: the ones counted have no
        // record to undo one by one, so none is made, and the call is explained as sent.
        return sent().map(|sent| (Blame::All, sent));
    }
    let reported: HashSet<Found> = found(&outcome.errors).into_iter().collect();
    // The coerced paths, sorted: those below a path are one run of them.
    let mut paths: Vec<&str> = coercions.iter().filter(|c| coerced(c)).map(|c| c.path.as_str()).collect();
    paths.sort_unstable();
    let holds_a_coerced_value = |path: &str| {
        let below = format!("{path}/");
        let first = paths.partition_point(|coerced| *coerced < below.as_str());
        paths.get(first).is_some_and(|coerced| coerced.starts_with(&below))
    };
    // A property whose `null` was read as absent: an error there is about its absence.
    let absent: HashSet<&str> =
        coercions.iter().filter(|c| c.kind == CoercionKind::NullAsAbsent).map(|c| c.path.as_str()).collect();
    let made_absent = |path: &str| absent.contains(path);
    // The errors a coercion may have caused: one the walk did not report (it read the value
    // before the coercion), one above a coerced value, or one where a `null` was read as
    // absent (a dependency or an `allOf` branch that requires the property).
    let in_doubt: HashSet<Found> = refused
        .into_iter()
        .filter(|error| !reported.contains(error) || holds_a_coerced_value(&error.0) || made_absent(&error.0))
        .collect();
    if in_doubt.is_empty() {
        // Every error is the walk's own, about values no coercion touched from above. (An
        // exact check that refused with no error to show cannot be explained better than
        // as sent.)
        return if outcome.errors.is_empty() { sent().map(|sent| (Blame::All, sent)) } else { None };
    }
    let sent = sent()?;
    let made: Vec<usize> = (0..coercions.len()).filter(|&at| coerced(&coercions[at])).collect();
    let mut trials = Trials {
        walker: walker.watching(Rc::new(in_doubt)),
        exact,
        sent: &sent,
        coercions,
        left: MOST_TRIALS,
    };
    match trials.clears(&made) {
        // Undoing every coercion clears nothing in doubt: the errors are the call's own, and
        // the walk's explanation stands. (An exact check that refused what the walk passed
        // cannot be explained better than as sent.)
        Some(false) if !outcome.errors.is_empty() => return None,
        Some(true) => {
            if let Some(mut blamed) = trials.culprits(&made) {
                blamed.sort_unstable();
                return Some((Blame::These(blamed), sent));
            }
        }
        _ => {}
    }
    Some((Blame::All, sent))
}

/// The search for the coercions to blame: sets of them undone at once, halved while
/// undoing a set clears an error in doubt, so that one coercion to blame among thousands
/// takes a few dozen checks, not thousands.
struct Trials<'t, 'w> {
    /// The walker, building only the errors in doubt ([`Walker::watch`]).
    walker: Walker<'w>,
    /// The walk's value, defaults taken out.
    exact: &'t Value,
    /// The value as sent.
    sent: &'t Value,
    coercions: &'t [Coercion],
    /// Checks of the whole value still allowed.
    left: usize,
}

impl Trials<'_, '_> {
    /// Does undoing the coercions `set` (indices) clear an error in doubt? `None` once the
    /// checks allowed are spent.
    fn clears(&mut self, set: &[usize]) -> Option<bool> {
        self.left = self.left.checked_sub(1)?;
        let mut undone = self.exact.clone();
        let mut any = false;
        for &at in set {
            any |= put_back(&mut undone, self.sent, &self.coercions[at].path);
        }
        if !any {
            return Some(false);
        }
        // The walker builds the errors in doubt alone, whatever else the values put back bring.
        let still = self.walker.errors_at(self.walker.plan.root, &mut undone);
        let watched = self.walker.watch.as_ref().map_or(0, |watch| watch.len());
        let mut found: Vec<Found> = found(&still);
        found.sort_unstable();
        found.dedup();
        Some(found.len() < watched)
    }

    /// The coercions of `set` to blame, given that undoing all of `set` clears an error in
    /// doubt: a coercion whose undoing alone clears one, or, where only undoing several
    /// together does, those several. `None` once the checks allowed are spent.
    fn culprits(&mut self, set: &[usize]) -> Option<Vec<usize>> {
        if set.len() == 1 {
            return Some(set.to_vec());
        }
        let (front, back) = set.split_at(set.len() / 2);
        match (self.clears(front)?, self.clears(back)?) {
            (true, true) => {
                let mut blamed = self.culprits(front)?;
                blamed.extend(self.culprits(back)?);
                Some(blamed)
            }
            (true, false) => self.culprits(front),
            (false, true) => self.culprits(back),
            // Only together.
            (false, false) => Some(set.to_vec()),
        }
    }
}
