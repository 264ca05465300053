//! Unions in the walk: each `anyOf`/`oneOf` checked by the shape the plan found in it
//! (`plan::union`).
//!
//! - An enum of constants is an enum: case coercion, and an error listing every option.
//! - A tagged union reads the tag first and checks only the branch it names; an unknown or
//!   missing tag is one error at the tag's path listing every tag.
//! - `X` or null checks `X` (errors from `X`).
//! - Anything else tries the branches that admit the value's JSON type: first exactly (each
//!   (branch, value) pair once, remembered while nothing changes), then with coercion, each on
//!   a copy; when none fits, one error names every shape, then the closest branch's errors.
//!
//! Linear time: a tagged union costs one branch per value; the exact tries of a general union
//! are remembered per (branch, value) for as long as the value is not changed, so nested
//! unions never try a subtree twice over; and the copies of the coercing tries are made only at
//! the outermost union of a subtree: below it, a union picks its closest branch instead of
//! trying them all again.

use serde_json::Value;

use super::convert::{
    bool_from_text, container_from_text, number_from_text, spelling_match, spelling_match_in,
};
use super::{json_equal, Mode, Outcome, Path, Walker};
use crate::error::ErrorCode;

use crate::plan::{NodeId, Options, Types, UnionShape};
use crate::policy::Policy;
use crate::report::CoercionKind;

impl Walker<'_> {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn union(
        &self,
        shape: &UnionShape,
        branches: &[NodeId],
        exactly_one: bool,
        value: &mut Value,
        path: &Path<'_>,
        mode: Mode,
        out: &mut Outcome,
        depth: usize,
        hops: usize,
    ) {
        match shape {
            UnionShape::Constants(options) => self.constants(options, value, path, mode, out),
            UnionShape::Tagged { tag, options } => {
                self.tagged(tag, options, value, path, mode, out, depth, hops);
            }
            UnionShape::External { keys, units } => {
                self.external(keys, units, value, path, mode, out, depth, hops);
            }
            UnionShape::Nullable { value: branch } if !value.is_null() => {
                let before = out.errors.len();
                self.walk(*branch, value, path, mode, out, depth, hops + 1);
                self.or_null(*branch, before, value, path, mode, out);
            }
            UnionShape::Nullable { .. } => {
                self.general(branches, None, exactly_one, value, path, mode, out, depth, hops);
            }
            UnionShape::General { types } => {
                self.general(branches, Some(types), exactly_one, value, path, mode, out, depth, hops);
            }
        }
    }

    /// `X` or null, where `X` found a value of the wrong JSON type: say null would do too.
    fn or_null(
        &self,
        branch: NodeId,
        before: usize,
        value: &Value,
        path: &Path<'_>,
        mode: Mode,
        out: &mut Outcome,
    ) {
        if out.errors.len() == before {
            return;
        }
        let resolved = &self.plan.nodes[self.plan.resolved(branch)];
        let mut types = resolved.types.unwrap_or_else(|| self.plan.possible[branch]);
        if types == Types::all() {
            return;
        }
        types.insert(Types::NULL);
        let here = path.pointer();
        let shown = !mode.sensitive;
        for error in &mut out.errors[before..] {
            if error.code == ErrorCode::Type && error.path == here && error.options.is_empty() {
                error.message =
                    format!("expected {}, got {}", types.describe(), self.describe_at(value, shown, path));
            }
        }
    }

    /// An enum written as a union of constants.
    fn constants(
        &self,
        options: &Options,
        value: &mut Value,
        path: &Path<'_>,
        mode: Mode,
        out: &mut Outcome,
    ) {
        if options.branch_of(value).is_some() {
            return;
        }
        if mode.policy.coerces() {
            if let Some((converted, kind)) = constant_coercion(options, value, mode.policy) {
                self.record(out, path, mode, kind, Some(value), Some(&converted));
                *value = converted;
                return;
            }
        }
        self.option_error(
            out,
            path,
            mode,
            value,
            &options.values,
            &options.descriptions,
            Some(&options.listed),
        );
    }

    /// Objects told apart by the constant value of `tag`.
    #[allow(clippy::too_many_arguments)]
    fn tagged(
        &self,
        tag: &str,
        options: &Options,
        value: &mut Value,
        path: &Path<'_>,
        mode: Mode,
        out: &mut Outcome,
        depth: usize,
        hops: usize,
    ) {
        self.object_from_text(value, path, mode, out, depth);
        let Value::Object(map) = value else {
            let listed = self.list_options(&options.values);
            let shown = !mode.sensitive;
            self.fail_with(out, path, mode, ErrorCode::Type, Some(value), listed.values, None, || {
                format!(
                    "expected an object whose `{tag}` is one of {}, got {}",
                    listed.text,
                    self.describe_at(value, shown, path)
                )
            });
            return;
        };
        let tag_path = Path::Key(path, tag);
        let branch = match map.get_mut(tag) {
            None => {
                let listed = self.list_options(&options.values);
                self.fail_with(out, &tag_path, mode, ErrorCode::Missing, None, listed.values, None, || {
                    format!("the required property `{tag}` is missing; expected one of {}", listed.text)
                });
                return;
            }
            Some(sent) => match options.branch_of(sent) {
                Some(branch) => branch,
                None => {
                    let coerced = if mode.policy.coerces() {
                        constant_coercion(options, sent, mode.policy)
                    } else {
                        None
                    };
                    match coerced
                        .and_then(|(converted, kind)| Some((options.branch_of(&converted)?, converted, kind)))
                    {
                        Some((branch, converted, kind)) => {
                            self.record(out, &tag_path, mode, kind, Some(sent), Some(&converted));
                            *sent = converted;
                            branch
                        }
                        None => {
                            self.option_error(
                                out,
                                &tag_path,
                                mode,
                                sent,
                                &options.values,
                                &options.descriptions,
                                Some(&options.listed),
                            );
                            return;
                        }
                    }
                }
            },
        };
        self.walk(branch, value, path, mode, out, depth, hops + 1);
    }

    /// serde's external tagging: `{"variant": {...}}`, or `"variant"` for a unit variant.
    #[allow(clippy::too_many_arguments)]
    fn external(
        &self,
        keys: &[(String, NodeId)],
        units: &Options,
        value: &mut Value,
        path: &Path<'_>,
        mode: Mode,
        out: &mut Outcome,
        depth: usize,
        hops: usize,
    ) {
        self.object_from_text(value, path, mode, out, depth);
        let branch = match value {
            Value::String(_) => match units.branch_of(value) {
                Some(branch) => Some(branch),
                None if !mode.policy.coerces() => None,
                None => match constant_coercion(units, value, mode.policy) {
                    Some((converted, kind)) => {
                        self.record(out, path, mode, kind, Some(value), Some(&converted));
                        *value = converted;
                        units.branch_of(value)
                    }
                    None => None,
                },
            },
            Value::Object(map) if map.len() == 1 => {
                let key = map.keys().next().cloned().unwrap_or_default();
                match keys.iter().find(|(name, _)| *name == key) {
                    Some((_, branch)) => Some(*branch),
                    None if !mode.policy.coerces() => None,
                    None => {
                        let names: Vec<Value> =
                            keys.iter().map(|(name, _)| Value::String(name.clone())).collect();
                        let matched =
                            spelling_match(&key, &names, mode.policy.lenient()).and_then(Value::as_str);
                        match matched.and_then(|name| keys.iter().find(|(n, _)| n == name)) {
                            Some((name, branch)) => {
                                let (from, to) = (Value::String(key.clone()), Value::String(name.clone()));
                                self.record(out, path, mode, CoercionKind::EnumCase, Some(&from), Some(&to));
                                if let Some(inner) = map.remove(&key) {
                                    map.insert(name.clone(), inner);
                                }
                                Some(*branch)
                            }
                            None => None,
                        }
                    }
                }
            }
            _ => None,
        };
        if let Some(branch) = branch {
            self.walk(branch, value, path, mode, out, depth, hops + 1);
            return;
        }
        // Past the errors reported, counted: no options, no did-you-mean.
        if self.not_built(out) {
            return;
        }
        let mut tags = units.values.clone();
        tags.extend(keys.iter().map(|(name, _)| Value::String(name.clone())));
        let listed = self.list_options(&tags);
        let keyed = self.list_options(&tags[units.values.len()..]);
        let one_key = format!("an object with one key, one of {}", keyed.text);
        let expected = if units.values.is_empty() {
            one_key
        } else {
            format!("one of {}, or {one_key}", self.list_options(&units.values).text)
        };
        let shown = !mode.sensitive;
        match &*value {
            Value::String(text) => {
                let suggestion = self.suggest(text, &tags, mode);
                let hint = suggestion.as_ref().map(|s| format!("; did you mean {s}?")).unwrap_or_default();
                self.fail_naming(
                    out,
                    path,
                    mode,
                    ErrorCode::Enum,
                    value,
                    listed.values,
                    suggestion,
                    |named| format!("{named} is not a valid choice; expected {expected}{hint}"),
                );
            }
            Value::Object(map) if map.len() == 1 && names_a_unit(units, map) => {
                // `{"stop": null}` for the unit variant `"stop"`: the choice is right, its form
                // is not (the schema takes the unit as a string).
                let key = map.keys().next().map(String::as_str).unwrap_or_default();
                let unit = Value::String(key.to_owned());
                let key = crate::message::shorten(key, self.max_echo);
                self.fail_with(out, path, mode, ErrorCode::Enum, None, listed.values, Some(unit), || {
                    format!("`{key}` takes no value: send it as the string \"{key}\"; expected {expected}")
                });
            }
            Value::Object(map) if map.len() == 1 => {
                let key = map.keys().next().map(String::as_str).unwrap_or_default();
                let suggestion = self.suggest(key, &tags, mode);
                let hint = suggestion.as_ref().map(|s| format!("; did you mean {s}?")).unwrap_or_default();
                let key = crate::message::shorten(key, self.max_echo);
                self.fail_with(out, path, mode, ErrorCode::Enum, None, listed.values, suggestion, || {
                    format!("`{key}` is not a valid choice; expected {expected}{hint}")
                });
            }
            Value::Object(map) if map.is_empty() => {
                self.fail_with(out, path, mode, ErrorCode::Missing, None, listed.values, None, || {
                    format!("the object names no choice; expected {expected}")
                });
            }
            Value::Object(map) => {
                let sent: Vec<Value> = map.keys().map(|k| Value::String(k.clone())).collect();
                let sent = self.list_options(&sent).text;
                self.fail_with(out, path, mode, ErrorCode::Enum, None, listed.values, None, || {
                    format!("an object with keys {sent} names more than one choice; expected {expected}")
                });
            }
            other => {
                self.fail_with(out, path, mode, ErrorCode::Type, Some(other), listed.values, None, || {
                    format!("expected {expected}, got {}", self.describe_at(other, shown, path))
                });
            }
        }
    }

    /// An object sent as JSON text, where only objects fit: parsed (recorded).
    fn object_from_text(
        &self,
        value: &mut Value,
        path: &Path<'_>,
        mode: Mode,
        out: &mut Outcome,
        depth: usize,
    ) {
        if !mode.policy.coerces() {
            return;
        }
        let Value::String(text) = &*value else { return };
        // A text that gives a key twice is left as sent: a choice made twice is not settled.
        if let Some((mut parsed, false)) =
            container_from_text(text, Types::OBJECT, self.max_depth.saturating_sub(depth))
        {
            self.record(out, path, mode, CoercionKind::ParsedString, Some(value), Some(&parsed));
            self.facts_within(path, mode, &mut parsed, out);
            *value = parsed;
        }
    }

    /// Any other union: the branches that admit the value's JSON type, exactly first, then
    /// with coercion.
    #[allow(clippy::too_many_arguments)]
    fn general(
        &self,
        branches: &[NodeId],
        types: Option<&[Types]>,
        exactly_one: bool,
        value: &mut Value,
        path: &Path<'_>,
        mode: Mode,
        out: &mut Outcome,
        depth: usize,
        hops: usize,
    ) {
        // 1. Branches that accept the value as sent.
        match self.first_exact_branch(branches, types, exactly_one, value, path, depth, hops) {
            Some((branch, found, false)) => {
                if found.touched() {
                    // Walk it for real: it fills defaults below, or rewrites `3.0` as `3`.
                    self.walk(branch, value, path, mode, out, depth, hops + 1);
                }
                return;
            }
            Some((_, _, true)) => {
                let shown = !mode.sensitive;
                self.fail(out, path, mode, ErrorCode::Ambiguous, Some(value), || {
                    format!(
                        "{} matches more than one of the allowed forms, and must match exactly one",
                        self.describe_at(value, shown, path)
                    )
                });
                return;
            }
            None => {}
        }
        // 2. Branches that accept it after coercion. A value that is not a string, of a JSON
        // type some branch declares, was refused by that branch for what it is, not for how
        // it is written: made into another type (leniently `11` as `"11"` or `[11]`), it
        // would pick another branch, another choice. Only the branches of its type may
        // take it then. (A string is how any value may be written: `"5"` may still be read
        // as the integer of another branch.)
        let branch_types = |index: usize| types.map_or(self.plan.possible[branches[index]], |t| t[index]);
        let own_type_declared =
            !value.is_string() && (0..branches.len()).any(|i| branch_types(i).admits(value));
        let candidates: Vec<usize> = (0..branches.len())
            .filter(|&index| {
                if own_type_declared {
                    branch_types(index).admits(value)
                } else {
                    coercible(types.map(|t| t[index]), value, mode.policy)
                }
            })
            .collect();
        if out.speculative && candidates.len() > 1 && (value.is_array() || value.is_object()) {
            // Inside another union's try, on its copy: take the closest branch, not every one
            // again (which would cost the product of the unions' widths).
            let closest = self.closest_by_shape(branches, &candidates, value);
            self.walk(branches[closest], value, path, mode, out, depth, hops + 1);
            return;
        }
        let mut attempts: Vec<(usize, Value, Outcome)> = Vec::with_capacity(candidates.len());
        for &index in &candidates {
            let mut copy = value.clone();
            let mut attempt = out.attempt();
            self.walk(branches[index], &mut copy, path, mode, &mut attempt, depth, hops + 1);
            attempts.push((index, copy, attempt));
        }
        let successes: Vec<usize> =
            (0..attempts.len()).filter(|&i| attempts[i].2.error_count() == 0).collect();
        if let Some(&first) = successes.first() {
            let agree = successes.iter().all(|&i| json_equal(&attempts[i].1, &attempts[first].1));
            if agree {
                let (_, coerced, attempt) = attempts.swap_remove(first);
                *value = coerced;
                out.join_coercions(attempt);
            } else {
                let shown = !mode.sensitive;
                self.fail(out, path, mode, ErrorCode::Ambiguous, Some(value), || {
                    format!(
                        "{} could be read as more than one of the allowed forms; send it exactly in one of them",
                        self.describe_at(value, shown, path)
                    )
                });
            }
            return;
        }
        // 3. Nothing fits: say so, naming every shape, then blame the closest branch.
        let here = path.pointer();
        let is_null = value.is_null();
        let mut best: Option<(usize, (bool, bool, usize))> = None;
        for (i, (index, _, attempt)) in attempts.iter().enumerate() {
            if !is_null && types.map_or(self.plan.possible[branches[*index]], |t| t[*index]) == Types::NULL {
                continue; // the `null` of an Option says nothing about a non-null value
            }
            let root_mismatch = attempt.errors.iter().any(|e| e.code == ErrorCode::Type && e.path == here);
            let tag_mismatch = attempt.errors.iter().any(|e| {
                matches!(e.code, ErrorCode::Const | ErrorCode::Enum)
                    && e.path.len() > here.len()
                    && e.path[here.len()..].matches('/').count() == 1
            });
            let score = (root_mismatch, tag_mismatch, attempt.errors.len());
            if best.as_ref().is_none_or(|(_, s)| score < *s) {
                best = Some((i, score));
            }
        }
        let shown = !mode.sensitive;
        if let Some(types) = self.plain_types(branches) {
            if best.is_none_or(|(_, (root_mismatch, _, _))| root_mismatch) {
                self.fail(out, path, mode, ErrorCode::Type, Some(value), || {
                    format!("expected {}, got {}", types.describe(), self.describe_at(value, shown, path))
                });
                return;
            }
        }
        let shapes: Vec<String> = branches.iter().map(|&branch| self.describe_shape(branch)).collect();
        let count = branches.len();
        self.fail(out, path, mode, ErrorCode::NoMatch, Some(value), || {
            format!(
                "{} matches none of the {count} allowed shapes: {}",
                self.describe_at(value, shown, path),
                shapes.join("; ")
            )
        });
        if let Some((i, (false, _, _))) = best {
            let (_, _, attempt) = attempts.swap_remove(i);
            let room = self.max_errors.saturating_sub(out.errors.len());
            out.omitted += attempt.omitted + attempt.errors.len().saturating_sub(room);
            out.errors.extend(attempt.errors.into_iter().take(room));
        }
    }

    /// Among `candidates`, the branch whose shape is closest to `value`, without walking:
    /// the right JSON type first, then for an object the most keys it declares and the fewest
    /// required ones missing.
    fn closest_by_shape(&self, branches: &[NodeId], candidates: &[usize], value: &Value) -> usize {
        let score = |index: usize| {
            let branch = branches[index];
            let typed = self.plan.possible[branch].admits(value);
            let node = &self.plan.nodes[self.plan.resolved(branch)];
            let (declared, missing) = match value {
                Value::Object(map) => (
                    map.keys().filter(|key| node.property_index_of(key).is_some()).count(),
                    node.required.iter().filter(|name| !map.contains_key(*name)).count(),
                ),
                _ => (0, 0),
            };
            (typed, declared, usize::MAX - missing)
        };
        let mut best = candidates[0];
        for &index in &candidates[1..] {
            if score(index) > score(best) {
                best = index;
            }
        }
        best
    }

    /// When every branch is only a JSON type: those types.
    fn plain_types(&self, branches: &[NodeId]) -> Option<Types> {
        let mut all = Types::default();
        for &branch in branches {
            let node = &self.plan.nodes[self.plan.resolved(branch)];
            if !node.is_constant_set() || node.enum_values.is_some() || node.const_value.is_some() {
                return None;
            }
            all.insert(node.types?);
        }
        Some(all)
    }

    /// A branch in a few words: `an integer 0..255`, `an object with max, backoff_ms`.
    fn describe_shape(&self, branch: NodeId) -> String {
        let node = &self.plan.nodes[self.plan.resolved(branch)];
        if let Some(constant) = &node.const_value {
            return crate::message::echo(constant, self.max_echo);
        }
        if let Some(values) = &node.enum_values {
            return format!("one of {}", self.list_options(values).text);
        }
        let types = node.types.unwrap_or_else(|| self.plan.possible[branch]);
        let mut text = types.describe().to_string();
        if types == Types::OBJECT && !node.properties.is_empty() {
            let names: Vec<&str> = if node.required.is_empty() {
                node.properties.iter().map(|(name, _)| name.as_str()).collect()
            } else {
                node.required.iter().map(String::as_str).collect()
            };
            text.push_str(" with ");
            text.push_str(&names.join(", "));
        } else if types.contains(Types::INTEGER) || types.contains(Types::NUMBER) {
            let bound = |b: &Option<serde_json::Number>| b.as_ref().map(ToString::to_string);
            match (bound(&node.minimum), bound(&node.maximum)) {
                (Some(low), Some(high)) => text.push_str(&format!(" {low}..{high}")),
                (Some(low), None) => text.push_str(&format!(" of at least {low}")),
                (None, Some(high)) => text.push_str(&format!(" of at most {high}")),
                (None, None) => {}
            }
        } else if types == Types::ARRAY {
            if let Some(items) = node.items {
                let items = self.plan.possible[items];
                if items != Types::all() {
                    text = format!("an array of items each {}", items.describe());
                }
            }
        }
        text
    }

    /// The did-you-mean for a sent string among options (never for a sensitive value).
    pub(super) fn suggest(&self, text: &str, options: &[Value], mode: Mode) -> Option<Value> {
        if mode.sensitive {
            return None;
        }
        crate::message::closest(text, options.iter().filter_map(Value::as_str))
            .map(|s| Value::String(s.to_owned()))
    }
}

/// The option a value stands for, written in another representation: another letter case
/// (or, leniently, separators), surrounding white space, a number or boolean as text, or
/// (leniently) a number or boolean where the option is its text. Only when exactly one option
/// fits.
pub(super) fn constant_coercion(
    options: &Options,
    value: &Value,
    policy: Policy,
) -> Option<(Value, CoercionKind)> {
    let lenient = policy.lenient();
    let found = |candidate: Value, kind: CoercionKind| {
        options.branch_of(&candidate).is_some().then_some((candidate, kind))
    };
    match value {
        Value::String(text) => {
            if let Some(option) = spelling_match_in(text, &options.values, Some(options.index()), lenient) {
                return Some((option.clone(), CoercionKind::EnumCase));
            }
            let text = if lenient { text.trim() } else { text.as_str() };
            if let Some(number) = number_from_text(text) {
                return found(Value::Number(number), CoercionKind::NumberFromString);
            }
            bool_from_text(text, lenient)
                .and_then(|flag| found(Value::Bool(flag), CoercionKind::BoolFromString))
        }
        Value::Number(number) if lenient => {
            found(Value::String(number.to_string()), CoercionKind::StringFromScalar)
        }
        Value::Bool(flag) if lenient => {
            found(Value::String(flag.to_string()), CoercionKind::StringFromScalar)
        }
        _ => None,
    }
}

/// Might a branch of these types accept `value` once coerced under `policy`?
fn coercible(types: Option<Types>, value: &Value, policy: Policy) -> bool {
    let Some(types) = types else { return true };
    if types.admits(value) {
        return true;
    }
    if !policy.coerces() {
        return false;
    }
    match value {
        Value::String(_) => true,
        Value::Null => false,
        _ => {
            policy.lenient()
                && (types.contains(Types::STRING)
                    || types.contains(Types::BOOLEAN)
                    || types.contains(Types::ARRAY))
        }
    }
}

/// Does the one key of `map` name a unit variant, one of `units` (written as strings)?
fn names_a_unit(units: &Options, map: &serde_json::Map<String, Value>) -> bool {
    map.keys().next().is_some_and(|key| units.branch_of(&Value::String(key.clone())).is_some())
}
