//! The walk's side of the `keywords` folder: the keywords written there run from here, on the
//! value the walk holds, and ask the walk about their subschemas ([`Subschemas`],
//! [`Explain`]). Subschemas are checked on a copy of the value, exactly (no coercion, no
//! defaults filled), by a walker of their own, so nothing a keyword tries is recorded or
//! remembered by the walk that asked.

use std::cell::Cell;
use std::collections::HashSet;
use std::rc::Rc;

use serde_json::Value;

use super::exact::Touched;
use super::{Mode, Outcome, Path, Walker, MAX_OPTIONS};
use crate::error::ErrorCode;
use crate::error::Options;
use crate::keywords::{Conditional, Explain, Instance, Keyword, Place, SchemaId, Subschemas};
use crate::plan::MAX_SCHEMA_HOPS;
use crate::plan::{Node, NodeId, UnionShape};
use crate::policy::Policy;

/// One node's keywords of the folder, at one value of the walk.
struct Routed<'w, 'p, 'o, 'a> {
    walker: &'w Walker<'p>,
    out: &'o mut Outcome,
    path: &'a Path<'a>,
    mode: Mode,
    depth: usize,
    hops: usize,
}

impl<'p> Walker<'p> {
    /// A walker for subschemas tried on copies: the same plan and limits, nothing filled,
    /// nothing remembered from this one.
    fn plain(&self) -> Walker<'p> {
        Walker {
            plan: self.plan,
            overrides: self.overrides,
            max_depth: self.max_depth,
            max_echo: self.max_echo,
            max_string_bytes: self.max_string_bytes,
            max_errors: self.max_errors,
            max_coercions: self.max_coercions,
            max_record_bytes: self.max_record_bytes,
            prepare: false,
            fill_defaults: self.fill_defaults,
            exact_integers: self.exact_integers,
            // The numbers' text: a float that only rounds to an integer is refused as
            // inexact in a subschema too (`then`, `dependentSchemas`).
            raw_text: self.raw_text,
            floats: Rc::clone(&self.floats),
            memo: Default::default(),
            scopes: Default::default(),
            resources: self.resources.clone(),
            refused: self.refused.clone(),
            watch: self.watch.clone(),
            budget: self.budget.clone(),
            within: self.within.clone(),
        }
    }

    /// This walker, building only the errors `watch` names (see [`Walker::watch`]).
    pub(crate) fn watching(&self, watch: Rc<HashSet<(String, ErrorCode)>>) -> Walker<'p> {
        Walker {
            prepare: self.prepare,
            raw_text: self.raw_text,
            max_errors: usize::MAX,
            watch: Some(watch),
            ..self.plain()
        }
    }

    /// Check the node's keywords of the folder on `value` (after the walk's own, so the
    /// order of errors is the walk's, then these in the order `plan::keywords` compiled).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn routed_keywords(
        &self,
        node: &Node,
        value: &Value,
        path: &Path<'_>,
        mode: Mode,
        out: &mut Outcome,
        depth: usize,
        hops: usize,
    ) {
        let mut routed = Routed { walker: self, out, path, mode, depth, hops };
        for keyword in &node.keywords {
            keyword.validate(&mut routed, value);
        }
    }

    /// Do the keywords of the folder that `node` holds pass `value`, as the exact check reads
    /// a value (`Exact::ok`, JSON Schema's reading)? A subschema one of them applies passes
    /// as JSON Schema reads it too, and a number the walk would refuse in it as inexact is
    /// noted in `touched`. (Asked as the walk takes a value, an `if` nested in another's
    /// condition turned a refusal into an acceptance: `1e39` failed an inner
    /// `else: {"type": "integer"}`, so the outer `then: false` was never applied, where JSON
    /// Schema applies it.)
    pub(super) fn routed_keywords_hold(
        &self,
        node: &Node,
        value: &Value,
        path: &Path<'_>,
        depth: usize,
        hops: usize,
        touched: &mut Touched,
    ) -> bool {
        let inexact = Cell::new(false);
        let asking = Asking { walker: self, path, depth, hops, inexact: Some(&inexact) };
        let holds = node.keywords.iter().all(|keyword| keyword.is_valid(&asking, value));
        touched.inexact |= inexact.get();
        holds
    }

    /// Does `value` pass `id` exactly, taken as it is (`Exact::taken`)?
    /// (By a plain walker: nothing it tries is remembered by this one.)
    fn accepts_plainly(&self, id: NodeId, value: &Value, path: &Path<'_>, depth: usize, hops: usize) -> bool {
        self.plain().exact(id, value, path, depth, hops).taken()
    }

    /// Does `value` pass `id` exactly, as JSON Schema reads it (`Exact::ok`)?
    fn holds_plainly(&self, id: NodeId, value: &Value, path: &Path<'_>, depth: usize, hops: usize) -> bool {
        self.plain().exact(id, value, path, depth, hops).ok
    }

    /// Does a branch of `conditional` (`then` or `else`) apply to `value`, as the keyword
    /// decides it when it checks the value?
    pub(super) fn conditional_applies(
        &self,
        conditional: &Conditional,
        value: &Value,
        path: &Path<'_>,
        depth: usize,
        hops: usize,
    ) -> bool {
        conditional.branch(&Asking { walker: self, path, depth, hops, inexact: None }, value).is_some()
    }

    /// The members (items) of `value` that the keywords of `id` evaluated (see
    /// [`Subschemas::evaluated`]), its own `unevaluated*` left out.
    fn evaluated_by(
        &self,
        id: NodeId,
        value: &Value,
        path: &Path<'_>,
        depth: usize,
        hops: usize,
    ) -> Vec<bool> {
        let mut marks = vec![false; Instance::len(value)];
        self.mark_evaluated(id, value, &mut marks, true, path, depth, hops);
        marks
    }

    #[allow(clippy::too_many_arguments)]
    fn mark_evaluated(
        &self,
        id: NodeId,
        value: &Value,
        marks: &mut [bool],
        own: bool,
        path: &Path<'_>,
        depth: usize,
        hops: usize,
    ) {
        if hops > MAX_SCHEMA_HOPS {
            return;
        }
        let _entered = self.enter(id);
        let node = &self.plan.nodes[id];
        match value {
            Value::Object(map) => {
                for (index, key) in map.keys().enumerate() {
                    if node.additional_written
                        || node.property_index_of(key).is_some()
                        || node.pattern_properties.iter().any(|(pattern, _)| pattern.matches(key) == Ok(true))
                    {
                        marks[index] = true;
                    }
                }
            }
            Value::Array(items) => {
                let prefix = node.prefix_items.len().min(items.len());
                let all = node.items.is_some();
                for (index, mark) in marks.iter_mut().enumerate() {
                    if index < prefix || all {
                        *mark = true;
                    }
                }
            }
            _ => return,
        }
        let applied = self.applied_in_place(node, value, path, depth, hops, |_, _| Vec::new());
        for keyword in &node.keywords {
            match keyword {
                Keyword::UnevaluatedProperties(_) | Keyword::UnevaluatedItems(_) if !own => {
                    let kind_matches = matches!(
                        (keyword, value),
                        (Keyword::UnevaluatedProperties(_), Value::Object(_))
                            | (Keyword::UnevaluatedItems(_), Value::Array(_))
                    );
                    if kind_matches {
                        marks.iter_mut().for_each(|mark| *mark = true);
                    }
                }
                Keyword::Contains(contains) => {
                    for (index, item) in value.items().enumerate() {
                        if self.holds_plainly(contains.schema, item, path, depth + 1, 0) {
                            marks[index] = true;
                        }
                    }
                }
                _ => {}
            }
        }
        for branch in applied {
            self.mark_evaluated(branch, value, marks, false, path, depth, hops + 1);
        }
    }
}

/// The property names an explanation answers for at one object: declared by the schema
/// or by a subschema whose verdict the explanation reports (a passing branch, the branch a
/// failing union blamed, `allOf`, `$ref`, the branch of `if` taken).
#[derive(Default)]
struct Answered<'s> {
    /// In the order the schema declares them, each once.
    names: Vec<&'s str>,
    patterns: Vec<&'s crate::pattern::Pattern>,
    /// A subschema answers for every name (`additionalProperties` written).
    every: bool,
}

impl Answered<'_> {
    fn covers(&self, key: &str) -> bool {
        self.every
            || self.names.contains(&key)
            || self.patterns.iter().any(|pattern| pattern.matches(key) == Ok(true))
    }
}

impl<'p> Walker<'p> {
    /// What `id` and the subschemas it applies in place answer for at `value`, added to
    /// `answered`. A union none of whose branches passes answers by the branch its
    /// explanation blames: the one its tag (or its external key) names, else every branch.
    #[allow(clippy::too_many_arguments)]
    fn answered_names(
        &self,
        id: NodeId,
        value: &Value,
        answered: &mut Answered<'p>,
        path: &Path<'_>,
        depth: usize,
        hops: usize,
    ) {
        if hops > MAX_SCHEMA_HOPS {
            return;
        }
        let _entered = self.enter(id);
        let plan: &'p crate::plan::Plan = self.plan;
        let node = &plan.nodes[id];
        for (name, _) in &node.properties {
            if !answered.names.contains(&name.as_str()) {
                answered.names.push(name);
            }
        }
        answered.patterns.extend(node.pattern_properties.iter().map(|(pattern, _)| pattern));
        answered.every |= node.additional_written;
        let applied = self.applied_in_place(node, value, path, depth, hops, |shape, branches| {
            blamed_branches(shape, branches, value)
        });
        for branch in applied {
            self.answered_names(branch, value, answered, path, depth, hops + 1);
        }
    }

    /// The subschemas `node` applies in place at `value` whose verdict counts: `$ref`,
    /// `$dynamicRef`, `allOf`, the branches of `anyOf`/`oneOf` that pass (where none does,
    /// those `failing` names), `if` and `then` or `else` as the condition went, and the
    /// `dependentSchemas` that apply.
    #[allow(clippy::too_many_arguments)]
    fn applied_in_place(
        &self,
        node: &Node,
        value: &Value,
        path: &Path<'_>,
        depth: usize,
        hops: usize,
        failing: impl Fn(Option<&UnionShape>, &[NodeId]) -> Vec<NodeId>,
    ) -> Vec<NodeId> {
        // As JSON Schema reads the value, as the keywords decide their branch (`holds`).
        let passes = |id: NodeId| self.holds_plainly(id, value, path, depth, hops + 1);
        let dynamic = node.dynamic.as_ref().map(|dynamic| self.dynamic_target(dynamic));
        let mut applied: Vec<NodeId> =
            node.reference.into_iter().chain(dynamic).chain(node.all_of.iter().copied()).collect();
        for (branches, shape) in [(&node.any_of, &node.any_of_shape), (&node.one_of, &node.one_of_shape)] {
            let passing: Vec<NodeId> = branches.iter().copied().filter(|&branch| passes(branch)).collect();
            if passing.is_empty() && !branches.is_empty() {
                applied.extend(failing(shape.as_deref(), branches));
            } else {
                applied.extend(passing);
            }
        }
        for keyword in &node.keywords {
            match keyword {
                Keyword::Conditional(conditional) if passes(conditional.condition) => {
                    applied.push(conditional.condition);
                    applied.extend(conditional.then);
                }
                Keyword::Conditional(conditional) => applied.extend(conditional.otherwise),
                Keyword::DependentSchemas(dependent) => applied.extend(dependent.applying(value)),
                _ => {}
            }
        }
        applied
    }
}

/// The branches of a union none of which passed that its explanation speaks for: the one
/// the object's tag, or its one external key, names; every branch where none is named.
fn blamed_branches(shape: Option<&UnionShape>, branches: &[NodeId], value: &Value) -> Vec<NodeId> {
    let named = match shape {
        Some(UnionShape::Tagged { tag, options }) => {
            value.get(tag.as_str()).and_then(|sent| options.branch_of(sent))
        }
        Some(UnionShape::External { keys, .. }) => {
            let mut present = keys.iter().filter(|(key, _)| value.get(key.as_str()).is_some());
            match (present.next(), present.next()) {
                (Some((_, branch)), None) => Some(*branch),
                _ => None,
            }
        }
        _ => None,
    };
    match named {
        Some(branch) => vec![branch],
        None => branches.to_vec(),
    }
}

/// What the keywords of the folder ask of their node's schema at one value of the walk.
struct Asking<'w, 'p, 'a> {
    walker: &'w Walker<'p>,
    path: &'a Path<'a>,
    depth: usize,
    hops: usize,
    /// Asked by the exact check (`Walker::routed_keywords_hold`): a subschema that applies
    /// passes as JSON Schema reads it, and whether the walk would refuse a number in it as
    /// inexact is noted here.
    inexact: Option<&'a Cell<bool>>,
}

impl<'v> Subschemas<'v, &'v Value> for Asking<'_, '_, '_> {
    fn accepts(&self, schema: SchemaId, instance: &'v Value) -> bool {
        match self.inexact {
            None => self.walker.accepts_plainly(schema, instance, self.path, self.depth, self.hops + 1),
            Some(inexact) => {
                let exact = self.walker.plain().exact(schema, instance, self.path, self.depth, self.hops + 1);
                if exact.ok && exact.changes.inexact {
                    inexact.set(true);
                }
                exact.ok
            }
        }
    }

    fn holds(&self, schema: SchemaId, instance: &'v Value) -> bool {
        self.walker.holds_plainly(schema, instance, self.path, self.depth, self.hops + 1)
    }

    fn accepts_name(&self, schema: SchemaId, name: &str) -> bool {
        let name = Value::String(name.to_owned());
        self.walker.accepts_plainly(schema, &name, self.path, self.depth + 1, 0)
    }

    fn evaluated(&self, schema: SchemaId, instance: &'v Value) -> Vec<bool> {
        self.walker.evaluated_by(schema, instance, self.path, self.depth, self.hops)
    }
}

impl<'v> Subschemas<'v, &'v Value> for Routed<'_, '_, '_, '_> {
    fn accepts(&self, schema: SchemaId, instance: &'v Value) -> bool {
        self.asking().accepts(schema, instance)
    }

    fn holds(&self, schema: SchemaId, instance: &'v Value) -> bool {
        self.asking().holds(schema, instance)
    }

    fn accepts_name(&self, schema: SchemaId, name: &str) -> bool {
        self.asking().accepts_name(schema, name)
    }

    fn evaluated(&self, schema: SchemaId, instance: &'v Value) -> Vec<bool> {
        self.asking().evaluated(schema, instance)
    }
}

impl<'w, 'p> Routed<'w, 'p, '_, '_> {
    fn asking(&self) -> Asking<'w, 'p, '_> {
        Asking { walker: self.walker, path: self.path, depth: self.depth, hops: self.hops, inexact: None }
    }
}

impl<'v> Explain<'v, &'v Value> for Routed<'_, '_, '_, '_> {
    fn explain(&mut self, schema: SchemaId, instance: &'v Value, at: Place<'_>) {
        let (depth, hops) = match at {
            Place::Here => (self.depth, self.hops + 1),
            _ => (self.depth + 1, 0),
        };
        let mode = Mode { policy: Policy::Strict, ..self.mode };
        let plain = self.walker.plain();
        let mut copy = instance.clone();
        let out = &mut *self.out;
        match at {
            Place::Here => plain.walk(schema, &mut copy, self.path, mode, out, depth, hops),
            Place::Key(key) => {
                plain.walk(schema, &mut copy, &Path::Key(self.path, key), mode, out, depth, hops)
            }
            Place::Index(index) => {
                plain.walk(schema, &mut copy, &Path::Index(self.path, index), mode, out, depth, hops)
            }
        }
    }

    fn fail(
        &mut self,
        at: Place<'_>,
        code: ErrorCode,
        value: Option<&'v Value>,
        message: &dyn Fn(&str) -> String,
    ) {
        let (walker, mode) = (self.walker, self.mode);
        let out = &mut *self.out;
        let path = self.path;
        let place = |then: &mut dyn FnMut(&Path<'_>)| match at {
            Place::Here => then(path),
            Place::Key(key) => then(&Path::Key(path, key)),
            Place::Index(index) => then(&Path::Index(path, index)),
        };
        place(&mut |path| match value {
            Some(value) => walker.fail_naming(out, path, mode, code, value, Vec::new(), None, message),
            None => walker.fail(out, path, mode, code, None, || message("the value")),
        });
    }

    fn refuse_unevaluated(&mut self, schema: SchemaId, instance: &'v Value, evaluated: &[bool]) {
        let Value::Object(map) = instance else { return };
        let walker = self.walker;
        let mut answered = Answered::default();
        walker.answered_names(schema, instance, &mut answered, self.path, self.depth, self.hops);
        for (index, key) in map.keys().enumerate() {
            if evaluated.get(index).copied().unwrap_or(false) || answered.covers(key) {
                continue;
            }
            let names: Vec<Value> =
                answered.names.iter().take(MAX_OPTIONS).map(|&name| Value::String(name.to_owned())).collect();
            let path = Path::Key(self.path, key);
            let declared = answered.names.iter().copied();
            let patterns: Vec<&str> =
                answered.patterns.iter().map(|pattern| pattern.source.as_str()).collect();
            let count = answered.names.len();
            walker.unknown_among(
                key,
                declared,
                Options::Own(names),
                count,
                &patterns,
                &path,
                self.mode,
                self.out,
            );
        }
    }

    fn refuse_name(&mut self, schema: SchemaId, name: &str) {
        let walker = self.walker;
        let path = Path::Key(self.path, name);
        walker.fail(self.out, &path, self.mode, ErrorCode::PropertyName, None, || {
            let shown = crate::message::shorten(name, 64);
            if walker.plan.nodes[schema].reject_all {
                // `"propertyNames": false`.
                return format!(
                    "the property name `{shown}` is not allowed here: this object takes no properties"
                );
            }
            // Why, as the schema words it for the name read as a string value.
            let mut as_value = Value::String(name.to_owned());
            let why = walker.plain().errors_at(schema, &mut as_value).into_iter().next();
            match why {
                Some(error) => {
                    format!("the property name `{shown}` is not allowed here: {}", error.message())
                }
                None => format!("the property name `{shown}` is not allowed here"),
            }
        });
    }
}
