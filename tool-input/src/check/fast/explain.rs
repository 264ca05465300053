//! A one-pass reading that explains what it refuses, so a rejected call is read once.
//!
//! The one pass (`fast`) stops at the first value it cannot accept exactly. Rather than hand
//! the call to the full path (parse the text again into a `Value`, walk it, read the text a
//! third time for the order of the errors), it hands each refused value to the walker at its
//! node, path and mode, which is what the full walk does at that place: a scalar as a
//! `Value`; an array or object the one pass does not check (a union, a conditional, a type it
//! does not allow), read whole into a `Value` first; an object's end (required properties,
//! the count of members) and a member it does not allow, by the walker's own functions for
//! them. The containers around a refused value then read the rest of their members the same
//! way (serde's visitor has stopped, the text has not), so every error of the call is found
//! in one pass over the text, in the order it was written. Refusals met while reading on are
//! read past, not raised: an error through `serde_json` scans the text for its line, once
//! per error.
//!
//! Whatever the walker decides from more than the place it is given is left to the full
//! path: a value under a union (the walker explains the union, not the branch), a `null` for
//! a property (the walker may drop it as absent), a key given twice, a value inside a
//! container sent as a string, defaults the walk would change, a schema with a dynamic
//! reference (the walker's scope is the path it took), more errors than the limit lists (the
//! walk's order picks those listed), and anything serde itself refuses. The reading then ends
//! as before, and the full path decides; so the explained rejection is the one the full path
//! gives, or none is made.

use std::cell::{Cell, RefCell};
use std::collections::HashSet;

use serde::de::{self, Deserializer, MapAccess, SeqAccess};
use serde_json::Value;

use super::object::{Key, Object};
use super::{Fast, Seed, Seq};
use crate::check::keywords::Sent;
use crate::check::{Mode, Outcome, Path, Walker};
use crate::error::FieldError;
use crate::plan::{Node, NodeId};

/// The explaining state of one reading (made at its first refusal): the walker, the errors,
/// and what the wrappers tell each other while a refusal travels up.
pub(super) struct Explain<'p> {
    walker: Walker<'p>,
    outcome: RefCell<Outcome>,
    /// A refusal explained here travels up: the container that meets it reads the rest of
    /// its members.
    pending: Cell<bool>,
    /// A refusal came that is not explained here: the full path decides.
    broken: Cell<bool>,
    /// A subtree read whole gave two errors or more, in the walk's order: the rejection's
    /// errors need the document order found for them (`members::in_document_order`).
    unsorted: Cell<bool>,
}

impl<'p> Explain<'p> {
    /// `walker`: the one the full path would use for this call.
    pub fn new(walker: Walker<'p>) -> Self {
        Explain {
            walker,
            outcome: RefCell::default(),
            pending: Cell::new(false),
            broken: Cell::new(false),
            unsorted: Cell::new(false),
        }
    }

    /// Note a refusal as explained (or not). Once errors go past the limit the rejection
    /// lists, which of them it lists is the walk's order to say, not the text's: nothing more
    /// is explained, and the full path decides.
    fn explained(&self, outcome: &Outcome, explained: bool) {
        self.pending.set(explained && outcome.omitted == 0);
    }

    /// Errors found so far.
    pub fn error_count(&self) -> usize {
        self.outcome.borrow().errors.len()
    }

    /// The walker's errors for `value` at node `id`, as the full walk finds them there. When
    /// it finds none (it would coerce the value, or accept it where the one pass cannot
    /// tell): before any error, nothing is explained (the call may pass, and the full path
    /// decides); after one, the call is rejected and the value adds nothing to say.
    pub fn value(&self, id: NodeId, mut value: Value, at: &Path<'_>, mode: Mode) {
        let mut outcome = self.outcome.borrow_mut();
        let before = outcome.error_count();
        // Each explanation is a check of its own, with the steps its value allows (a schema
        // too costly for them leaves it unexplained, and the full path says so).
        let checking = self.walker.checking(&value);
        let (listed, omitted) = (outcome.errors.len(), outcome.omitted);
        self.walker.walk(id, &mut value, at, mode, &mut outcome, at.len(), 0);
        drop(checking);
        if self.walker.budget.spent() {
            // What it found before the steps ran out is not all there is: unexplained.
            outcome.errors.truncate(listed);
            outcome.omitted = omitted;
            self.pending.set(false);
            return;
        }
        let added = outcome.error_count() - before;
        if added > 1 {
            self.unsorted.set(true);
        }
        self.explained(&outcome, added > 0 || before > 0);
    }

    /// The end of the object at `at`, as the walk checks it after its members: the required
    /// properties not sent (`sent` declared ones, `undeclared` others; the defaults the walk
    /// fills are not missing), then the count of the `count` members sent. Explained as
    /// [`Explain::value`] is when nothing is wrong.
    pub fn object_end(
        &self,
        node: &Node,
        sent: &Sent,
        undeclared: impl Fn(&str) -> bool,
        count: usize,
        at: &Path<'_>,
        mode: Mode,
    ) {
        let mut outcome = self.outcome.borrow_mut();
        let before = outcome.error_count();
        let mut sent = sent.clone();
        for (index, _) in &node.defaults {
            sent.insert(*index);
        }
        self.walker.missing_declared(node, &sent, at, mode, &mut outcome);
        self.walker.missing_undeclared(node, undeclared, at, mode, &mut outcome);
        let counted = outcome.error_count();
        self.walker.property_count(node, count, at, mode, &mut outcome);
        // The count's errors are the object's own, placed at its first member: before what
        // its members were found to break.
        if outcome.error_count() > counted {
            self.unsorted.set(true);
        }
        let explained = outcome.error_count() > before || before > 0;
        self.explained(&outcome, explained);
    }

    /// The member `key` at `at`, which `node` does not allow.
    pub fn unknown(&self, node: &Node, key: &str, at: &Path<'_>, mode: Mode) {
        let mut outcome = self.outcome.borrow_mut();
        let before = outcome.error_count();
        self.walker.unknown_field(node, key, at, mode, &mut outcome);
        let explained = outcome.error_count() > before;
        self.explained(&outcome, explained);
    }

    /// An array of `len` items at `at` against its count bounds; its errors placed where the
    /// walk puts them, before its items' (`first` errors were found before the array).
    pub fn items(&self, node: &Node, len: usize, at: &Path<'_>, mode: Mode, first: usize) {
        let mut outcome = self.outcome.borrow_mut();
        let (before, counted) = (outcome.errors.len(), outcome.error_count());
        self.walker.item_count(node, len, at, mode, &mut outcome);
        let added = outcome.errors.len() - before;
        if let Some(moved) = outcome.errors.get_mut(first.min(before)..) {
            moved.rotate_right(added);
        }
        let explained = outcome.error_count() > counted;
        self.explained(&outcome, explained);
    }

    /// Take the news of a refusal explained below: `false` when the refusal met was not
    /// (the reading is then left to the full path).
    pub fn take_pending(&self) -> bool {
        let pending = self.pending.replace(false);
        if !pending {
            self.broken.set(true);
        }
        pending
    }

    /// Take the news of a refusal explained just now, to read on past it: `false` when there
    /// was none.
    pub fn take_quietly(&self) -> bool {
        self.pending.replace(false)
    }

    /// A refusal explained below was met and its container has read the rest: it travels on.
    pub fn pass_on(&self) {
        self.pending.set(true);
    }

    /// The reading's errors, when it ended at an explained refusal and explained every one
    /// (none past the limit), and whether they are in document order already.
    pub fn into_errors(self) -> Option<(Vec<FieldError>, bool)> {
        let outcome = self.outcome.into_inner();
        let complete = self.pending.get() && !self.broken.get() && outcome.omitted == 0;
        (complete && !outcome.errors.is_empty()).then(|| (outcome.errors, !self.unsorted.get()))
    }
}

/// A container reading on past a refusal, for as long as it lives (see `Fast::draining`).
struct Draining<'f>(&'f Cell<usize>);

impl<'f> Draining<'f> {
    fn new(draining: &'f Cell<usize>) -> Self {
        draining.set(draining.get() + 1);
        Draining(draining)
    }
}

impl Drop for Draining<'_> {
    fn drop(&mut self) {
        self.0.set(self.0.get() - 1);
    }
}

impl<'p> Fast<'p> {
    /// Explain what this reading refuses, as the walker would, reading on to the end of
    /// `text` (see `check::fast::explain`); [`Fast::explained`] then gives the errors. Not for a
    /// plan with a dynamic reference (whose walk keeps a scope this reading does not).
    pub fn explaining(&mut self, text: &'p str) {
        if self.plan.scope_of.is_empty() {
            self.explained_text = Some(text);
        }
    }

    /// Does this reading explain its refusals?
    pub fn explains(&self) -> bool {
        self.explained_text.is_some()
    }

    /// After a failed reading: its errors when it explained every refusal (and whether they
    /// are in document order already); `None` when the full path must decide. `rest_is_blank`:
    /// the text held nothing after the value read.
    pub fn explained(self, rest_is_blank: bool) -> Option<(Vec<FieldError>, bool)> {
        let text = self.explained_text?;
        let explain = self.explain.into_inner()?;
        // A float `serde_json` may have rounded wrongly: the full path reads it with the lexer.
        if !rest_is_blank || self.floats.get() && crate::decimal::serde_json_may_misread(text.as_bytes()) {
            return None;
        }
        // A coercion made on the way may break a keyword that read the value before it (a
        // `not` at the root, an `if` about a sibling): the full path finds which coercions
        // to blame (`validator/blame.rs`). A default filled may too, and is not the model's
        // doing: the full path checks the call as sent instead.
        // (The explaining walk records none: it counts them, a default filled among them.)
        let explained_coerced = explain.outcome.borrow().coerced_any();
        if self.plan.coercions_entangled && (self.made.get() > 0 || explained_coerced)
            || self.plan.defaults_entangled && (self.filled_a_default.get() || explained_coerced)
        {
            return None;
        }
        explain.into_errors()
    }

    /// The explainer, when refusals are explained and one here can be: not under a union or
    /// inside a container sent as a string.
    fn explainer(&self) -> Option<&Explain<'p>> {
        let text = self.explained_text?;
        if self.unions.get() > 0 || self.parsed.get() > 0 {
            return None;
        }
        Some(self.explain.get_or_init(|| {
            let mut walker = Walker::new(self.plan, self.overrides, &self.limits, true);
            walker.raw_text = Some(text);
            Box::new(Explain::new(walker))
        }))
    }

    /// A container met a refusal from what it holds: when it was explained, the container
    /// reads the rest of its members, counted as draining while the guard lives.
    fn reading_on(&self) -> Option<Draining<'_>> {
        let explained = self.explain.get().is_some_and(|explain| explain.take_pending());
        explained.then(|| Draining::new(&self.draining))
    }

    /// A refusal was just explained while reading on past an earlier one: the reading goes
    /// on (`true`), and the news is taken here rather than sent up as an error.
    fn passes_while_draining(&self) -> bool {
        self.draining.get() > 0 && self.explain.get().is_some_and(|explain| explain.take_quietly())
    }

    /// The end of a container that read on past a refusal (`end`: its own end's check): the
    /// refusal it met goes on up, explained, unless its end ended the reading.
    fn passed_on<E>(&self, end: Result<(), E>, error: E) -> E {
        if let Err(refused) = end {
            return refused;
        }
        if let Some(explain) = self.explain.get() {
            explain.pass_on();
        }
        error
    }

    /// Refuse `value` at `id`: explained by the walker when it can be, and when the walker
    /// finds it wrong (one it would coerce instead is left to the full path). `true`: the
    /// reading goes on past it (see [`Fast::passes_while_draining`]); else the caller aborts.
    #[cold]
    #[inline(never)]
    pub(super) fn refuse(&self, id: NodeId, value: impl FnOnce() -> Value, at: &Path<'_>) -> bool {
        if let Some(explain) = self.explainer() {
            explain.value(id, value(), at, self.mode_at(at));
        }
        self.passes_while_draining()
    }

    /// Refuse the array or object `access` reads at `id` (a node this path does not check it
    /// against): read whole, then explained by the walker as [`Fast::refuse`] does. `Ok(true)`:
    /// the reading goes on past it.
    #[cold]
    #[inline(never)]
    pub(super) fn refuse_container<'de, D: Deserializer<'de>>(
        &self,
        id: NodeId,
        access: D,
        at: &Path<'_>,
    ) -> Result<bool, D::Error> {
        let Some(explain) = self.explainer() else { return Ok(false) };
        let ((value, repeated), floats) = crate::parse::repeats::noting_repeats(access)?;
        self.floats.set(self.floats.get() || floats);
        // A key given twice: the full path settles it.
        if !repeated {
            explain.value(id, value, at, self.mode_at(at));
        }
        Ok(self.passes_while_draining())
    }
}

impl<'de, A: SeqAccess<'de>> Seq<'_, '_, A> {
    #[cold]
    #[inline(never)]
    pub(super) fn refuse_count(&self, node: &Node) -> bool {
        if let Some(explain) = self.fast.explainer() {
            explain.items(node, self.index, self.at, self.fast.mode_at(self.at), self.errors_before);
        }
        self.fast.passes_while_draining()
    }

    /// An item was refused (`error`): when the refusal was explained, the rest of the items
    /// are read and explained too (see `check::fast::explain`), then the refusal goes on up.
    #[cold]
    #[inline(never)]
    pub(super) fn read_on(&mut self, error: A::Error) -> A::Error {
        let Some(_draining) = self.fast.reading_on() else { return error };
        self.index += 1;
        loop {
            // A refusal explained here is read past; one that ends the reading is not
            // explained, and the full path decides.
            match self.read_element(std::marker::PhantomData::<de::IgnoredAny>) {
                Ok(Some(_)) => self.index += 1,
                Ok(None) => break,
                Err(refused) => return refused,
            }
        }
        self.fast.passed_on(self.finish(), error)
    }
}

impl<'p, 'de, A: MapAccess<'de>> Object<'_, 'p, 'de, A> {
    /// The object's end refuses it (a required property not sent, a count bound, or what
    /// only the walk settles): explained by the walker's checks of an object's end, when the
    /// defaults it would fill are exactly valid (see `check::fast::explain`).
    #[cold]
    #[inline(never)]
    pub(super) fn refuse_end(&self, node: &Node) -> bool {
        let defaults_hold = node.defaults.is_empty() || self.fast.defaults_exact;
        if let Some(explain) = self.fast.explainer().filter(|_| defaults_hold) {
            let undeclared = self.rare.as_ref().and_then(|rare| rare.others.as_ref());
            let count = self.sent.count() + undeclared.map_or(0, HashSet::len);
            let sent_undeclared = |name: &str| undeclared.is_some_and(|keys| keys.contains(name));
            explain.object_end(node, &self.sent, sent_undeclared, count, self.at, self.fast.mode_at(self.at));
        }
        self.fast.passes_while_draining()
    }

    /// The member `key`, which the object does not allow: explained when refusals are.
    /// `Ok(true)`: the reading goes on past it (while draining; its value is then read as
    /// one no schema speaks of). Else, once explained, its value is read past before the
    /// refusal goes up.
    #[cold]
    #[inline(never)]
    pub(super) fn refuse_unknown(&mut self, node: &Node, key: &str) -> Result<bool, A::Error> {
        let Some(explain) = self.fast.explainer() else { return Ok(false) };
        let at = Path::Key(self.at, key);
        explain.unknown(node, key, &at, self.fast.mode_at(&at));
        if self.fast.passes_while_draining() {
            return Ok(true);
        }
        let skipped =
            Seed { seed: std::marker::PhantomData::<de::IgnoredAny>, fast: self.fast, node: None, at: &at };
        self.map.next_value_seed(skipped)?;
        Ok(false)
    }

    /// A member was refused (`error`): when the refusal was explained, the rest of the
    /// members are read and explained too, and the object's end (see
    /// `check::fast::explain`), then the refusal goes on up.
    #[cold]
    #[inline(never)]
    pub(super) fn read_on(&mut self, error: A::Error) -> A::Error {
        let Some(_draining) = self.fast.reading_on() else { return error };
        loop {
            let ignored = std::marker::PhantomData::<de::IgnoredAny>;
            match self.map.next_key_seed(Key { seed: ignored, node: self.node, pending: &mut self.pending }) {
                Ok(Some(_)) => {}
                Ok(None) => break,
                Err(refused) => return refused,
            }
            if let Err(refused) = self.read_value(std::marker::PhantomData::<de::IgnoredAny>) {
                return refused;
            }
        }
        self.fast.passed_on(self.finish(), error)
    }
}
