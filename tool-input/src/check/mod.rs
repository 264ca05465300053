//! The walk: coerce a parsed value's representation to the compiled plan, then validate it,
//! collecting every error with its path.
//!
//! One recursive pass over the value (bounded by the depth limit). Each node first coerces
//! (if the policy allows), then checks its keywords. `anyOf`/`oneOf` are checked by the shape
//! the plan found in them (`union`): an enum, a tag read first, `X` or null, or branches
//! tried by JSON type, exactly first (the exact check of `exact`, which neither mutates nor
//! records, each (branch, value) pair once), so a clean value costs at most one read-only
//! pass over the subtree under a union, never a copy.

mod budget;
mod coerce;
mod convert;
mod exact;
pub(crate) mod fast;
mod keywords;
mod mode;
mod numbers;
pub(crate) mod order;
use order::members_in_key_order;
pub(crate) mod path;
mod routed;
pub(crate) mod skim;
mod undescribed;
mod union;
mod unknown;

use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use serde_json::{Map, Number, Value};

use crate::error::{ErrorCode, FieldError, Options, SharedOptions};
use crate::pattern::{OverBudget, Pattern};
use crate::plan::{Additional, Excludes, Node, NodeId, Plan, Types};
use crate::policy::Policy;
use crate::report::{Coercion, CoercionKind};

pub(crate) use crate::equal::json_equal;
use crate::message::{self, describe, quoted_list};
pub(crate) use crate::message::{echo, kind_of};
pub(crate) use convert::{list_reading, scalar_readings, spelling_match};
pub(crate) use keywords::item_schema;
use keywords::{absent_defaults, number_breaks, Bounds, NumberBreak, PatternBreak, Sent};
pub(crate) use mode::{field_mode, FieldOverride, Mode};
pub(crate) use path::Path;

use crate::plan::MAX_SCHEMA_HOPS;
use budget::{value_count, Budget, Checking, MOST_STEPS_FLOOR};

/// Most options listed in one error (enum values, field names).
pub(crate) const MAX_OPTIONS: usize = 20;

/// Does `node` say anything about an object's members or their count: properties (and so
/// their defaults), pattern properties, required names, `additionalProperties` other than
/// `true`, or a bound on the count?
fn says_about_members(node: &Node) -> bool {
    !node.properties.is_empty()
        || !node.pattern_properties.is_empty()
        || !node.required_other.is_empty()
        || node.additional != Additional::Allow
        || node.min_properties.is_some()
        || node.max_properties.is_some()
}

/// What one walk (or one speculative branch of it) found.
#[derive(Debug, Default)]
pub(crate) struct Outcome {
    /// At most the walker's `max_errors`.
    pub errors: Vec<FieldError>,
    /// Errors found past `max_errors`: counted, never built.
    pub omitted: usize,
    /// The records kept (see [`Walker::record_room`]), in the order the walk made them.
    pub coercions: Vec<Coercion>,
    /// Coercions made past the records kept: counted, never recorded.
    pub coercions_omitted: usize,
    /// The records this outcome may still make, here and (for a union's attempt) in the
    /// outcome it would join: see [`Walker::record_room`].
    room: RecordRoom,
    /// The check ran out of steps (see [`Budget`]): its one error says so.
    pub out_of_steps: bool,
    /// The keys of the errors, once there are many (see [`push_new`]).
    seen: Option<HashSet<u64>>,
    /// A try of one union branch on a copy: unions below pick one branch (see `union`).
    speculative: bool,
}

/// The records a walk may make (see [`Walker::record_room`]).
#[derive(Debug, Clone, Copy, Default)]
struct RecordRoom {
    /// The first this many whatever their size (the records a report lists),
    listed: usize,
    /// then more of this many bytes together (see [`record_size`]).
    bytes: usize,
}

/// What a record holds, in bytes, counted against the bytes a walk may record: its strings,
/// and what a record costs beside them.
fn record_size(record: &Coercion) -> usize {
    let text = |text: &Option<String>| text.as_ref().map_or(0, String::len);
    std::mem::size_of::<Coercion>() + record.path.len() + text(&record.from) + text(&record.to)
}

impl Outcome {
    /// An outcome that records the first `room.listed` coercions, then more of at most
    /// `room.bytes` together.
    fn recording(room: RecordRoom) -> Outcome {
        Outcome { room, ..Outcome::default() }
    }

    /// An outcome for one try of a union branch, on a copy, which joins this one if taken
    /// ([`Outcome::join_coercions`]): it records no more than this one still may.
    pub(super) fn attempt(&self) -> Outcome {
        Outcome { speculative: true, room: self.room, ..Outcome::default() }
    }

    /// Every error found, listed or not.
    pub(super) fn error_count(&self) -> usize {
        self.errors.len() + self.omitted
    }

    /// Record the coercion `make` builds, or, past the limit, count it without building it
    /// (a record's path copies every key above it).
    pub(super) fn record_with(&mut self, make: impl FnOnce() -> Coercion) {
        if self.room.listed > 0 {
            // One the report lists: kept by every reader, whatever its size.
            self.room.listed -= 1;
            self.coercions.push(make());
            return;
        }
        if self.room.bytes == 0 {
            self.coercions_omitted += 1;
            return;
        }
        let record = make();
        match self.room.bytes.checked_sub(record_size(&record)) {
            Some(bytes) => {
                self.room.bytes = bytes;
                self.coercions.push(record);
            }
            None => {
                // (One record past the bytes allowed is made, at most: then none.)
                self.room.bytes = 0;
                self.coercions_omitted += 1;
            }
        }
    }

    /// Did the walk make a coercion, recorded or counted?
    pub(super) fn coerced_any(&self) -> bool {
        !self.coercions.is_empty() || self.coercions_omitted > 0
    }

    /// Take the records of a union's attempt, made within this outcome's room.
    pub(super) fn join_coercions(&mut self, attempt: Outcome) {
        // The attempt began with this outcome's room and spent from it.
        self.room = attempt.room;
        self.coercions.extend(attempt.coercions);
        self.coercions_omitted += attempt.coercions_omitted;
    }
}

/// Options coercions made that the whole schema refused: the option, as a message quotes
/// it, by its path.
pub(crate) type RefusedOptions = Rc<HashMap<String, String>>;

/// The bytes of records one walk may make, for each byte of `Limits::max_bytes`.
const RECORD_BYTES_PER_INPUT_BYTE: usize = 4;

/// Walks values against one compiled plan.
pub(crate) struct Walker<'p> {
    pub plan: &'p Plan,
    pub overrides: &'p HashMap<String, FieldOverride>,
    pub max_depth: usize,
    pub max_echo: usize,
    pub max_string_bytes: usize,
    /// Most errors built (at least 1); the rest are counted in [`Outcome::omitted`].
    pub max_errors: usize,
    /// Most coercions a report lists (`Limits::max_coercions`).
    pub max_coercions: usize,
    /// Most bytes of records one walk makes (see [`Walker::record_room`]).
    pub max_record_bytes: usize,
    /// Fill defaults and drop nulls of optional properties (off for plain validation).
    pub prepare: bool,
    /// Of what `prepare` does, fill the defaults of absent properties: off for a call that
    /// fails only because of them (see `Validator::check_parsed`).
    pub fill_defaults: bool,
    /// Refuse a float where an integer is declared when it does not stand for its integral
    /// value exactly (off for plain validation, where `1e22` is an integer as JSON Schema
    /// says).
    pub exact_integers: bool,
    /// The text the value was parsed from, when there was one: an integral float's literal
    /// is looked up in it (see [`Walker::integer_problem`]).
    pub raw_text: Option<&'p str>,
    /// The floats of `raw_text` with their text as sent, read on first need, and shared
    /// with the walkers this one makes for subschemas (read once per call).
    pub floats: Rc<std::cell::OnceCell<HashMap<String, String>>>,
    /// Exact union tries remembered while no value changes (see `union`).
    memo: RefCell<exact::Memo>,
    /// How many exact union tries are under way.
    scopes: Cell<usize>,
    /// The schema resources entered, the outermost first (see `Plan::scope_of`): kept only
    /// for a plan with a dynamic reference.
    resources: RefCell<Vec<u32>>,
    /// The options coercions made that the whole schema then refused (the option as a
    /// message quotes it, by its path): where the value as sent is explained, they are not
    /// suggested, since sending them fails too. Shared by the walkers a walk makes for
    /// subschemas (one per item of a `contains`), so none copies it.
    pub refused: Option<RefusedOptions>,
    /// Build only these errors (a path and a code), each with nothing else (no message, echo
    /// or options), and count none: for walks that only ask whether some errors are still
    /// there (`validator/blame.rs`'s trials).
    pub watch: Option<Rc<HashSet<(String, ErrorCode)>>>,
    /// The steps this check may take, shared with the walkers it makes for subschemas.
    budget: Rc<Budget>,
    /// What serde reads inside containers sent as JSON text (nested aliases, catch-alls),
    /// applied where the walk parses one; shared with the walkers it makes.
    pub within: Option<Rc<crate::serde_facts::Within<'p>>>,
}

/// Record `error` unless the same error (path, code and message) is there already: two
/// subschemas that say the same of one value (an `allOf` branch repeating a property's
/// type, as schemas built by inheritance do) make one error, not two.
///
/// Past `SCANNED_ERRORS` errors, they are found by hash, so that a check asked for
/// thousands of errors does not compare each with all the others.
fn push_new(out: &mut Outcome, error: FieldError) {
    const SCANNED_ERRORS: usize = 32;
    let key = |error: &FieldError| {
        use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};
        BuildHasherDefault::<DefaultHasher>::default().hash_one((&error.path, error.code, &error.message))
    };
    let said = |known: &FieldError| {
        known.path == error.path && known.code == error.code && known.message == error.message
    };
    if out.errors.len() < SCANNED_ERRORS {
        if out.errors.iter().any(said) {
            return;
        }
    } else {
        if out.seen.is_none() {
            out.seen = Some(out.errors.iter().map(key).collect());
        }
        let new = out.seen.as_mut().is_some_and(|seen| seen.insert(key(&error)));
        // Equal keys of unequal errors are told apart by comparing them.
        if !new && out.errors.iter().any(said) {
            return;
        }
    }
    out.errors.push(error);
}

/// A schema resource the walk entered (the stack it was pushed on), left when dropped.
struct Entered<'w>(Option<&'w RefCell<Vec<u32>>>);

impl Drop for Entered<'_> {
    fn drop(&mut self) {
        if let Some(resources) = self.0 {
            resources.borrow_mut().pop();
        }
    }
}

/// The option list of one error: the values for [`FieldError::options`] and the text for its
/// message. Every list of options a message shows is built by [`Walker::list_options`].
pub(crate) struct Listed {
    pub values: Options,
    pub text: String,
}

impl<'p> Walker<'p> {
    /// A walker for checking arguments (`prepare`: fill defaults, drop optional nulls, and
    /// refuse floats that only round to an integer) or for plain validation (neither).
    pub fn new(
        plan: &'p Plan,
        overrides: &'p HashMap<String, FieldOverride>,
        limits: &crate::limits::Limits,
        prepare: bool,
    ) -> Self {
        Walker {
            plan,
            overrides,
            max_depth: limits.max_depth,
            max_echo: limits.max_echo_chars,
            max_string_bytes: limits.max_string_bytes,
            max_errors: limits.max_errors.max(1),
            max_coercions: limits.max_coercions,
            max_record_bytes: limits.max_bytes.saturating_mul(RECORD_BYTES_PER_INPUT_BYTE),
            prepare,
            fill_defaults: true,
            exact_integers: prepare,
            raw_text: None,
            floats: Rc::default(),
            memo: RefCell::default(),
            scopes: Cell::new(0),
            resources: RefCell::default(),
            refused: None,
            watch: None,
            budget: Budget::new(),
            within: None,
        }
    }

    /// Which records a walk keeps; the rest are counted in [`Outcome::coercions_omitted`].
    /// A report lists the first `max_coercions` in the walk's order, and the walk keeps no
    /// more, unless the plan's coercions can meet a keyword that did not see them
    /// (`Plan::coercions_entangled`): then the check may have to undo any of them
    /// (`validator/blame.rs`), and keeps more, up to a bound on their bytes that no call
    /// within `Limits::max_bytes` reaches but with paths under a long key over many items
    /// (each record copies the key). Past that bound such a call is accepted only as the
    /// whole schema accepts it, and explained as sent otherwise.
    fn record_room(&self) -> RecordRoom {
        let bytes = if self.plan.coercions_entangled { self.max_record_bytes } else { 0 };
        RecordRoom { listed: self.max_coercions, bytes }
    }

    /// Start a check of `value`: the outermost check counts its steps afresh, allowing what
    /// `value` needs (see [`Budget`]); one inside another counts on.
    fn checking(&self, value: &Value) -> Checking<'_> {
        let budget = &*self.budget;
        if budget.checks.get() == 0 {
            let needed =
                (self.plan.nodes.len() as u64).saturating_mul(value_count(value) as u64).saturating_mul(4);
            budget.steps.set(0);
            budget.limit.set(needed.max(MOST_STEPS_FLOOR));
        }
        budget.checks.set(budget.checks.get() + 1);
        Checking(budget)
    }

    /// When the steps ran out: the one error that says so, in place of what the walk found.
    fn out_of_steps(&self, outcome: &mut Outcome) {
        if !self.budget.spent() {
            return;
        }
        let limit = self.budget.limit.get();
        *outcome = Outcome { out_of_steps: true, ..Outcome::default() };
        let mode = Mode { policy: Policy::Strict, sensitive: true };
        self.fail(outcome, &Path::Root, mode, ErrorCode::TooDeep, None, || {
            format!(
                "checking the arguments against the schema took more than {limit} steps: the schema applies its definitions to the same values many times over at each level of nesting, so a value this deeply nested cannot be checked against it"
            )
        });
    }

    /// Coerce and validate `value` in place against the plan's root.
    pub fn run(&self, value: &mut Value, policy: Policy) -> Outcome {
        let _checking = self.checking(value);
        let mut outcome = Outcome::recording(self.record_room());
        let mode = Mode { policy, sensitive: false };
        self.walk(self.plan.root, value, &Path::Root, mode, &mut outcome, 0, 0);
        self.out_of_steps(&mut outcome);
        outcome
    }

    /// The errors of `value` against the node `id` under the strict policy (no coercion),
    /// explained as [`Walker::run`] explains them, at paths inside `value`.
    pub fn errors_at(&self, id: NodeId, value: &mut Value) -> Vec<FieldError> {
        let _checking = self.checking(value);
        let mut outcome = Outcome::default();
        let mode = Mode { policy: Policy::Strict, sensitive: false };
        self.walk(id, value, &Path::Root, mode, &mut outcome, 0, 0);
        self.out_of_steps(&mut outcome);
        outcome.errors
    }

    /// Does the node accept the value exactly, and would the full walk leave it as it is
    /// (no default to fill inside it, no integral float to rewrite)?
    pub fn accepts_untouched(&self, id: NodeId, value: &Value) -> bool {
        let _checking = self.checking(value);
        let found = self.exact(id, value, &Path::Root, 0, 0);
        found.ok && !found.touched() && !self.budget.spent()
    }

    /// Does the node accept the value exactly, with no coercion at all? (`false` when
    /// checking ran out of steps.)
    pub fn accepts_exact(&self, id: NodeId, value: &Value, path: &Path<'_>, depth: usize) -> bool {
        let _checking = self.checking(value);
        self.exact(id, value, path, depth, 0).taken() && !self.budget.spent()
    }

    /// Enter the resource of node `id` (see `Plan::scope_of`), unless the walk is in it
    /// already or the plan keeps no dynamic scope, for as long as the guard lives.
    fn enter(&self, id: NodeId) -> Entered<'_> {
        let Some(&resource) = self.plan.scope_of.get(id) else { return Entered(None) };
        let mut resources = self.resources.borrow_mut();
        if resources.last() == Some(&resource) {
            return Entered(None);
        }
        resources.push(resource);
        Entered(Some(&self.resources))
    }

    /// Where a dynamic reference leads from here.
    fn dynamic_target(&self, dynamic: &crate::plan::DynamicRef) -> NodeId {
        dynamic.target(&self.resources.borrow())
    }

    #[allow(clippy::too_many_arguments)]
    fn walk(
        &self,
        id: NodeId,
        value: &mut Value,
        path: &Path<'_>,
        mode: Mode,
        out: &mut Outcome,
        depth: usize,
        hops: usize,
    ) {
        if !self.budget.step() {
            return; // `run` says so, in place of what was found
        }
        let _entered = self.enter(id);
        if hops > MAX_SCHEMA_HOPS {
            self.fail(out, path, mode, ErrorCode::TooDeep, None, || {
                "the schema refers to itself without end here".to_owned()
            });
            return;
        }
        let node = &self.plan.nodes[id];
        if node.reject_all {
            self.fail(out, path, mode, ErrorCode::NotAllowed, Some(value), || {
                "no value is allowed here".to_owned()
            });
            return;
        }
        if mode.policy.coerces() {
            self.coerce(node, value, path, mode, out, depth);
        }
        if let Some(reference) = node.reference {
            self.walk(reference, value, path, mode, out, depth, hops + 1);
        }
        if let Some(dynamic) = &node.dynamic {
            self.walk(self.dynamic_target(dynamic), value, path, mode, out, depth, hops + 1);
        }
        if let Some(types) = node.types {
            if !types.accepts(value) {
                if let Some(problem) = self.string_integer_problem(types, value, mode) {
                    self.fail(out, path, mode, ErrorCode::Inexact, Some(value), || problem);
                    return;
                }
                self.type_error(node, types, value, path, mode, out);
                return;
            }
        }
        if keywords::enum_refuses(node, value).is_some() {
            self.enum_error(out, path, mode, value, node);
        }
        if let Some(constant) = keywords::const_refuses(node, |constant| json_equal(constant, value)) {
            let shown = !mode.sensitive;
            let expected = echo(constant, self.max_echo);
            self.fail_with(
                out,
                path,
                mode,
                ErrorCode::Const,
                Some(value),
                vec![constant.clone()],
                None,
                || format!("expected {expected}, got {}", self.describe_at(value, shown, path)),
            );
        }
        match value {
            Value::Number(number) => self.number(id, number, path, mode, out, depth, hops),
            Value::String(string) => self.string(node, string, path, mode, out),
            Value::Array(items) => self.array(node, items, path, mode, out, depth),
            Value::Object(map) => self.object(node, map, path, mode, out, depth),
            Value::Null | Value::Bool(_) => {}
        }
        for &branch in &node.all_of {
            self.walk(branch, value, path, mode, out, depth, hops + 1);
        }
        if let Some(shape) = &node.any_of_shape {
            self.union(shape, &node.any_of, false, value, path, mode, out, depth, hops);
        }
        if let Some(shape) = &node.one_of_shape {
            self.union(shape, &node.one_of, true, value, path, mode, out, depth, hops);
        }
        if let Some(not) = node.not {
            if self.exact(not, value, path, depth, hops + 1).ok {
                self.fail(out, path, mode, ErrorCode::NotAllowed, Some(value), || {
                    match self.plan.nodes[not].excludes() {
                        Some(excluded) => {
                            format!("this value is not allowed here: {}", self.excluded(excluded))
                        }
                        None => "this value is not allowed here".to_owned(),
                    }
                });
            }
        }
        if !node.keywords.is_empty() {
            self.routed_keywords(node, value, path, mode, out, depth, hops);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn number(
        &self,
        id: NodeId,
        number: &Number,
        path: &Path<'_>,
        mode: Mode,
        out: &mut Outcome,
        depth: usize,
        hops: usize,
    ) {
        let node = &self.plan.nodes[id];
        let problem = if node.types.is_some_and(Types::integer_only) {
            self.integer_problem(number, path, mode)
        } else {
            self.digits_problem(id, number, path, mode, depth, hops)
        };
        if let Some(problem) = problem {
            // No echo of the value: its float is the rounded form; the message quotes what
            // was sent.
            self.fail(out, path, mode, ErrorCode::Inexact, None, || problem);
            return;
        }
        let shown = |n: &Number| {
            if mode.sensitive {
                "the value".to_owned()
            } else {
                message::shorten(&self.number_as_sent(n, path), self.max_echo)
            }
        };
        for broken in number_breaks(node, number) {
            let code = match broken {
                NumberBreak::MultipleOf(_) => ErrorCode::MultipleOf,
                _ => ErrorCode::Range,
            };
            self.fail(out, path, mode, code, Some(&Value::Number(number.clone())), || match broken {
                NumberBreak::Minimum(minimum) => {
                    format!("{} is less than the minimum of {minimum}", shown(number))
                }
                NumberBreak::Maximum(maximum) => {
                    format!("{} is greater than the maximum of {maximum}", shown(number))
                }
                NumberBreak::ExclusiveMinimum(bound) => {
                    format!("{} must be greater than {bound}", shown(number))
                }
                NumberBreak::ExclusiveMaximum(bound) => {
                    format!("{} must be less than {bound}", shown(number))
                }
                NumberBreak::MultipleOf(multiple) => {
                    format!("{} is not a multiple of {multiple}", shown(number))
                }
            });
        }
    }

    fn string(&self, node: &Node, string: &str, path: &Path<'_>, mode: Mode, out: &mut Outcome) {
        if string.len() > self.max_string_bytes {
            self.too_long(out, path, mode, string);
            return;
        }
        if let Some(length) = keywords::string_length(node, string) {
            let value = Value::String(string.to_owned());
            self.count_bounds(
                out,
                path,
                mode,
                ErrorCode::Length,
                Some(&value),
                length,
                Bounds::length(node),
                || format!("the string is {} long", message::counted(length, "character", "characters")),
            );
        }
        if let Some(broken) = keywords::pattern_break(node, string) {
            match broken {
                PatternBreak::Mismatch(pattern) => {
                    if self.not_built(out) {
                        return;
                    }
                    let value = Value::String(string.to_owned());
                    self.fail_naming(
                        out,
                        path,
                        mode,
                        ErrorCode::Pattern,
                        &value,
                        Vec::new(),
                        None,
                        |named| message::join(&[named, " does not match the pattern ", &pattern.source]),
                    );
                }
                PatternBreak::OverBudget(pattern) => self.pattern_budget(out, path, mode, pattern, string),
            }
        }
    }

    fn array(
        &self,
        node: &Node,
        items: &mut [Value],
        path: &Path<'_>,
        mode: Mode,
        out: &mut Outcome,
        depth: usize,
    ) {
        self.item_count(node, items.len(), path, mode, out);
        if !node.prefix_items.is_empty() || node.items.is_some() {
            if depth >= self.max_depth {
                self.too_deep(out, path, mode);
                return;
            }
            for (index, item) in items.iter_mut().enumerate() {
                if let Some(schema) = item_schema(node, index) {
                    let item_path = Path::Index(path, index);
                    self.walk(schema, item, &item_path, mode, out, depth + 1, 0);
                }
            }
        }
        if node.unique_items {
            if let Some((i, j)) = keywords::first_equal_items(items) {
                self.fail(out, path, mode, ErrorCode::UniqueItems, None, || {
                    format!("items {i} and {j} are equal; every item must be unique")
                });
            }
        }
    }

    fn object(
        &self,
        node: &Node,
        map: &mut Map<String, Value>,
        path: &Path<'_>,
        mode: Mode,
        out: &mut Outcome,
        depth: usize,
    ) {
        // An empty object at the limit is walked, but not filled: a default filled there would
        // be walked one level deeper, and one that holds an object whose schema fills it again
        // (`{"properties": {"c": {"$ref": "#", "default": {}}}}`) would go on without end.
        if depth >= self.max_depth && (!map.is_empty() || self.fills(node, map)) {
            self.too_deep(out, path, mode);
            return;
        }
        if !says_about_members(node) {
            // Nothing below would test, fill or record anything (a node that is only a
            // `$ref`, as schemars writes a field's struct, whose object its target walks).
            return;
        }
        // Defaults filled here are not the model's doing: the count bounds read the members
        // sent (as the one pass does).
        let mut filled = 0;
        if self.prepare {
            filled = self.prepare_object(node, map, path, mode, out, depth);
        }
        let mut sent = Sent::new(node.properties.len());
        let overridden = path.is_root() && !self.overrides.is_empty();
        for (key, child) in members_in_key_order(map) {
            let child_path = Path::Key(path, key);
            let child_mode = if overridden { field_mode(self.overrides, key, mode) } else { mode };
            let mut declared = false;
            if let Some(index) = node.property_index_of(key) {
                declared = true;
                sent.insert(index);
                self.walk(node.properties[index].1, child, &child_path, child_mode, out, depth + 1, 0);
            }
            for (pattern, schema) in &node.pattern_properties {
                match pattern.matches(key) {
                    Ok(true) => {
                        declared = true;
                        self.walk(*schema, child, &child_path, child_mode, out, depth + 1, 0);
                    }
                    Ok(false) => {}
                    Err(OverBudget) => {
                        // Not known to be undeclared either: this error alone.
                        declared = true;
                        self.pattern_budget(out, &child_path, Mode { sensitive: true, ..mode }, pattern, key);
                    }
                }
            }
            if !declared {
                match node.additional {
                    Additional::Allow => {}
                    Additional::Schema(schema) => {
                        self.walk(schema, child, &child_path, child_mode, out, depth + 1, 0)
                    }
                    Additional::Deny => self.unknown_field(node, key, &child_path, child_mode, out),
                }
            }
        }
        self.missing_declared(node, &sent, path, mode, out);
        self.missing_undeclared(node, |name| map.contains_key(name), path, mode, out);
        self.property_count(node, map.len() - filled, path, mode, out);
    }

    /// The required names `properties` does not declare that `present` says were not sent.
    fn missing_undeclared(
        &self,
        node: &Node,
        present: impl Fn(&str) -> bool,
        path: &Path<'_>,
        mode: Mode,
        out: &mut Outcome,
    ) {
        for name in &node.required_other {
            if !present(name) {
                self.missing(out, path, mode, name, None);
            }
        }
    }

    /// An object of `count` members sent against `minProperties`/`maxProperties`.
    fn property_count(&self, node: &Node, count: usize, path: &Path<'_>, mode: Mode, out: &mut Outcome) {
        let count = count as u64;
        self.count_bounds(
            out,
            path,
            mode,
            ErrorCode::Properties,
            None,
            count,
            Bounds::properties(node),
            || format!("the object has {}", message::counted(count, "property", "properties")),
        );
    }

    /// Would [`prepare_object`](Walker::prepare_object) fill a default into `map`?
    fn fills(&self, node: &Node, map: &Map<String, Value>) -> bool {
        self.prepare
            && self.fill_defaults
            && absent_defaults(node, |_, name| map.contains_key(name)).next().is_some()
    }

    /// Before the properties are walked: treat a null sent for an optional property that
    /// does not accept null as absent (unless that leaves fewer properties than
    /// `minProperties`), then fill the schema's defaults for absent ones.
    /// Returns how many defaults it filled.
    fn prepare_object(
        &self,
        node: &Node,
        map: &mut Map<String, Value>,
        path: &Path<'_>,
        mode: Mode,
        out: &mut Outcome,
        depth: usize,
    ) -> usize {
        let mut absent = Vec::new();
        for (key, value) in members_in_key_order(map) {
            let value = &*value;
            if !value.is_null() {
                continue;
            }
            let Some(index) = node.property_index_of(key) else { continue };
            let child_mode = if path.is_root() { field_mode(self.overrides, key, mode) } else { mode };
            if child_mode.policy.coerces() && !node.required_flags[index] {
                let child_path = Path::Key(path, key);
                if !self.accepts_exact(node.properties[index].1, &Value::Null, &child_path, depth + 1) {
                    absent.push(index);
                }
            }
        }
        if node.min_properties.is_some_and(|min| ((map.len() - absent.len()) as u64) < min) {
            // Read as absent, they would leave too few properties: the coercion would break
            // `minProperties`, so none is made, and each null is explained as sent.
            absent.clear();
        }
        for index in absent {
            let name = &node.properties[index].0;
            let child_mode = if path.is_root() { field_mode(self.overrides, name, mode) } else { mode };
            map.remove(name);
            let child_path = Path::Key(path, name);
            self.record(out, &child_path, child_mode, CoercionKind::NullAsAbsent, Some(&Value::Null), None);
        }
        if !self.fill_defaults {
            return 0;
        }
        let absent: Vec<(&str, &Value)> = absent_defaults(node, |_, name| map.contains_key(name)).collect();
        for &(name, default) in &absent {
            let child_mode = if path.is_root() { field_mode(self.overrides, name, mode) } else { mode };
            let child_path = Path::Key(path, name);
            self.record(out, &child_path, child_mode, CoercionKind::DefaultFilled, None, Some(default));
            map.insert(name.to_owned(), default.clone());
        }
        absent.len()
    }

    /// An array of `len` items against `minItems`/`maxItems`.
    fn item_count(&self, node: &Node, len: usize, path: &Path<'_>, mode: Mode, out: &mut Outcome) {
        let len = len as u64;
        self.count_bounds(out, path, mode, ErrorCode::Items, None, len, Bounds::items(node), || {
            format!("the array has {}", message::counted(len, "item", "items"))
        });
    }

    /// The declared required properties of the object at `path` that `sent` lacks, in the
    /// order `properties` lists them.
    fn missing_declared(&self, node: &Node, sent: &Sent, path: &Path<'_>, mode: Mode, out: &mut Outcome) {
        for index in sent.missing(node) {
            let (name, schema) = &node.properties[index];
            self.missing(out, path, mode, name, Some(*schema));
        }
    }

    fn missing(&self, out: &mut Outcome, path: &Path<'_>, mode: Mode, name: &str, schema: Option<NodeId>) {
        let child_path = Path::Key(path, name);
        let expected = schema.and_then(|id| self.referenced_types(id)).map(Types::describe);
        self.fail(out, &child_path, mode, ErrorCode::Missing, None, || match &expected {
            Some(types) => message::join(&[
                "the required property `",
                name,
                "` is missing; expected ",
                &types.to_string(),
            ]),
            None => message::join(&["the required property `", name, "` is missing"]),
        });
    }

    /// The types of a node that is only a `$ref` (as schemars writes `Option<Struct>`).
    fn referenced_types(&self, mut id: NodeId) -> Option<Types> {
        for _ in 0..MAX_SCHEMA_HOPS {
            let node = &self.plan.nodes[id];
            if let Some(types) = node.types {
                return Some(types);
            }
            id = node.reference?;
        }
        None
    }

    fn enum_error(&self, out: &mut Outcome, path: &Path<'_>, mode: Mode, value: &Value, node: &Node) {
        let options = node.enum_values.as_deref().unwrap_or_default();
        self.option_error(out, path, mode, value, options, &[], Some(&node.enum_listed));
    }

    /// A value that is none of `options`: one `enum` error listing them, with a did-you-mean,
    /// and each option's description when it helps (no suggestion, a short list); or, for a
    /// value of another JSON type than every option, a `type` error listing them.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn option_error(
        &self,
        out: &mut Outcome,
        path: &Path<'_>,
        mode: Mode,
        value: &Value,
        options: &[Value],
        descriptions: &[Option<String>],
        shared: Option<&SharedOptions>,
    ) {
        // Past the errors reported, counted: no options, no did-you-mean.
        if self.not_built(out) {
            return;
        }
        if options.is_empty() {
            // `"enum": []` (valid since draft 6): nothing passes, and there is nothing to list.
            self.fail_naming(out, path, mode, ErrorCode::Enum, value, Vec::new(), None, |named| {
                format!("no value is allowed here (the schema's `enum` lists none), got {named}")
            });
            return;
        }
        if self.watch.is_some() {
            let code = match options.iter().any(|option| kind_of(option) == kind_of(value)) {
                true => ErrorCode::Enum,
                false => ErrorCode::Type,
            };
            self.built_watched(out, path, code);
            return;
        }
        let listed = match shared {
            Some(shared) => self.list_shared(options, shared),
            None => self.list_options(options),
        };
        if !options.iter().any(|option| kind_of(option) == kind_of(value)) {
            self.fail_naming(out, path, mode, ErrorCode::Type, value, listed.values, None, |named| {
                message::join(&["expected one of ", &listed.text, ", got ", named])
            });
            return;
        }
        let suggestion = value
            .as_str()
            .and_then(|text| self.suggest(text, options, mode))
            .filter(|suggested| !self.was_refused(suggested, path));
        let list = match &suggestion {
            None if descriptions.iter().any(Option::is_some) && options.len() <= 8 => {
                self.list_described(options, descriptions)
            }
            _ => listed.text,
        };
        let hint = suggestion
            .as_ref()
            .map(|s| message::join(&["; did you mean ", &message::json_text(s), "?"]))
            .unwrap_or_default();
        self.fail_naming(
            out,
            path,
            mode,
            ErrorCode::Enum,
            value,
            listed.values,
            suggestion.clone(),
            |named| message::join(&[named, " is not one of ", &list, &hint]),
        );
    }

    /// What a `not` excludes, said for the model: `the schema excludes "high"`.
    fn excluded(&self, excluded: Excludes<'_>) -> String {
        let what = match excluded {
            Excludes::Value(value) => echo(value, self.max_echo),
            Excludes::Values(values) => {
                format!("each of {}", message::quoted_list(values, MAX_OPTIONS, self.max_echo))
            }
            Excludes::Types(types) => types.describe().to_string(),
            Excludes::Names(names) => {
                let names: Vec<String> =
                    names.iter().map(|name| format!("`{}`", message::shorten(name, self.max_echo))).collect();
                match &names[..] {
                    [one] => format!("an object with {one}"),
                    _ => format!("an object with all of {}", names.join(", ")),
                }
            }
        };
        format!("the schema excludes {what}")
    }

    /// Is `option` at `path` an option a coercion made and the whole schema refused?
    fn was_refused(&self, option: &Value, path: &Path<'_>) -> bool {
        let Some(refused) = &self.refused else { return false };
        refused.get(&path.pointer()).is_some_and(|quoted| *quoted == self.echo_at(option, path))
    }

    /// A type error; at a node with `enum` or `const`, it lists what would work.
    fn type_error(
        &self,
        node: &Node,
        types: Types,
        value: &Value,
        path: &Path<'_>,
        mode: Mode,
        out: &mut Outcome,
    ) {
        let options = match (&node.enum_values, &node.const_value) {
            (Some(options), _) => options.as_slice(),
            (None, Some(constant)) => std::slice::from_ref(constant),
            (None, None) => &[],
        };
        if options.is_empty() {
            self.fail_naming(out, path, mode, ErrorCode::Type, value, Vec::new(), None, |named| {
                format!("expected {}, got {named}", types.describe())
            });
            return;
        }
        let listed = match node.enum_values {
            Some(_) => self.list_shared(options, &node.enum_listed),
            None => self.list_options(options),
        };
        let expected =
            if options.len() == 1 { listed.text.clone() } else { format!("one of {}", listed.text) };
        self.fail_naming(out, path, mode, ErrorCode::Type, value, listed.values, None, |named| {
            format!("expected {expected}, got {named}")
        });
    }

    /// The option list of an error: at most [`MAX_OPTIONS`] of them, quoted.
    pub(crate) fn list_options(&self, options: &[Value]) -> Listed {
        Listed {
            values: Options::Own(options.iter().take(MAX_OPTIONS).cloned().collect()),
            text: quoted_list(options, MAX_OPTIONS, self.max_echo),
        }
    }

    /// [`Walker::list_options`] of a list the schema keeps: the values shared, not copied.
    pub(crate) fn list_shared(&self, options: &[Value], shared: &SharedOptions) -> Listed {
        Listed {
            values: shared.get(|| options.iter().take(MAX_OPTIONS).cloned().collect()),
            text: quoted_list(options, MAX_OPTIONS, self.max_echo),
        }
    }

    /// `"write" (Overwrite the file.), "append" (Append to the file.)`: options with their
    /// descriptions, each cut to the echo limit.
    fn list_described(&self, options: &[Value], descriptions: &[Option<String>]) -> String {
        let mut parts = Vec::with_capacity(options.len());
        for (index, option) in options.iter().enumerate() {
            let quoted = self.list_options(std::slice::from_ref(option)).text;
            match descriptions.get(index).and_then(Option::as_deref) {
                Some(text) => {
                    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
                    parts.push(format!("{quoted} ({})", message::shorten(&text, self.max_echo)));
                }
                None => parts.push(quoted),
            }
        }
        parts.join(", ")
    }

    /// A count (items, properties, characters) against its `min*`/`max*` bounds.
    #[allow(clippy::too_many_arguments)]
    fn count_bounds(
        &self,
        out: &mut Outcome,
        path: &Path<'_>,
        mode: Mode,
        code: ErrorCode,
        value: Option<&Value>,
        count: u64,
        bounds: Bounds,
        what: impl Fn() -> String,
    ) {
        if let Some(min) = bounds.broken_min(count) {
            self.fail(out, path, mode, code, value, || format!("{}; expected at least {min}", what()));
        }
        if let Some(max) = bounds.broken_max(count) {
            self.fail(out, path, mode, code, value, || format!("{}; expected at most {max}", what()));
        }
    }

    /// A string `pattern` could not be checked on within its budget (see `pattern`).
    fn pattern_budget(&self, out: &mut Outcome, path: &Path<'_>, mode: Mode, pattern: &Pattern, text: &str) {
        let chars = text.chars().count();
        self.fail(out, path, mode, ErrorCode::PatternBudget, None, || {
            format!(
                "the pattern {} is too costly to check on a string of {chars} characters; send a shorter string",
                message::shorten(&pattern.source, self.max_echo)
            )
        });
    }

    /// A string past `max_string_bytes`, described by a subschema or not (`undescribed`).
    fn too_long(&self, out: &mut Outcome, path: &Path<'_>, mode: Mode, string: &str) {
        let (length, limit) = (string.len(), self.max_string_bytes);
        self.fail(out, path, mode, ErrorCode::TooLong, None, || {
            format!("the string is {length} bytes long, more than the limit of {limit}")
        });
    }

    fn too_deep(&self, out: &mut Outcome, path: &Path<'_>, mode: Mode) {
        let limit = self.max_depth;
        self.fail(out, path, mode, ErrorCode::TooDeep, None, || {
            format!("arrays and objects are nested deeper than the limit of {limit}")
        });
    }

    /// In a walk that [watches](Walker::watch) for some errors: the error at `path` built
    /// bare if it is one of them, and nothing more (true).
    fn built_watched(&self, out: &mut Outcome, path: &Path<'_>, code: ErrorCode) -> bool {
        let Some(watch) = &self.watch else { return false };
        let found = (path.pointer(), code);
        if watch.contains(&found) {
            out.errors.push(FieldError {
                path: found.0,
                code,
                message: String::new(),
                value: None,
                options: Options::None,
                suggestion: None,
            });
        }
        true
    }

    /// `parsed`, a container the string at `path` was just parsed into, read as serde reads
    /// the same container sent as JSON: the aliases and catch-alls inside it mapped, each
    /// recorded (or a key given twice refused) at its path inside the string.
    fn facts_within(&self, path: &Path<'_>, mode: Mode, parsed: &mut Value, out: &mut Outcome) {
        let Some(within) = &self.within else { return };
        let mapped = within.map(&path.pointer(), parsed, mode.sensitive, self.max_echo);
        for record in mapped.coercions {
            out.record_with(|| record);
        }
        for error in mapped.errors {
            if !self.not_built(out) {
                out.errors.push(error);
            }
        }
    }

    /// A failure that is not built, past `max_errors`, counted (true); `false` when the error
    /// is to be built.
    fn not_built(&self, out: &mut Outcome) -> bool {
        if out.errors.len() >= self.max_errors {
            out.omitted += 1;
            return true;
        }
        false
    }

    fn fail(
        &self,
        out: &mut Outcome,
        path: &Path<'_>,
        mode: Mode,
        code: ErrorCode,
        value: Option<&Value>,
        message: impl FnOnce() -> String,
    ) {
        self.fail_with(out, path, mode, code, value, Vec::new(), None, message);
    }

    #[allow(clippy::too_many_arguments)]
    fn fail_with(
        &self,
        out: &mut Outcome,
        path: &Path<'_>,
        mode: Mode,
        code: ErrorCode,
        value: Option<&Value>,
        options: impl Into<Options>,
        suggestion: Option<Value>,
        message: impl FnOnce() -> String,
    ) {
        if self.not_built(out) || self.built_watched(out, path, code) {
            return;
        }
        push_new(
            out,
            FieldError {
                path: path.pointer(),
                code,
                message: message(),
                value: if mode.sensitive { None } else { value.map(|v| self.echo_at(v, path)) },
                options: options.into(),
                suggestion,
            },
        );
    }

    /// [`Self::fail_with`] for a message that names the value: a value shown in the message
    /// is echoed once, for both the message and the error's `value`.
    #[allow(clippy::too_many_arguments)]
    fn fail_naming(
        &self,
        out: &mut Outcome,
        path: &Path<'_>,
        mode: Mode,
        code: ErrorCode,
        value: &Value,
        options: impl Into<Options>,
        suggestion: Option<Value>,
        message: impl FnOnce(&str) -> String,
    ) {
        if self.not_built(out) || self.built_watched(out, path, code) {
            return;
        }
        let echoed = (!mode.sensitive).then(|| self.echo_at(value, path));
        // `describe` names a shown scalar by its echo, and anything else by its kind.
        let message = match (&echoed, value) {
            (Some(echoed), Value::Bool(_) | Value::Number(_) | Value::String(_)) => message(echoed),
            _ => message(&describe(value, !mode.sensitive, self.max_echo)),
        };
        push_new(
            out,
            FieldError {
                path: path.pointer(),
                code,
                message,
                value: echoed,
                options: options.into(),
                suggestion,
            },
        );
    }

    fn record(
        &self,
        out: &mut Outcome,
        path: &Path<'_>,
        mode: Mode,
        kind: CoercionKind,
        from: Option<&Value>,
        to: Option<&Value>,
    ) {
        out.record_with(|| {
            let (from, to) = if mode.sensitive {
                (None, None)
            } else {
                (from.map(|v| self.echo_at(v, path)), to.map(|v| echo(v, self.max_echo)))
            };
            Coercion { path: path.pointer(), kind, from, to }
        });
    }
}
