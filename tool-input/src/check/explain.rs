//! A one-pass reading that explains what it refuses, so a rejected call is read once.
//!
//! The one pass (`fast`) stops at the first value it cannot accept exactly, and until now the
//! call then took the full path: parse the text again into a `Value`, walk it, and read the
//! text a third time for the order of the errors. A reading that explains instead hands
//! each refused value to the walker, at its node, path and mode, which is what the full walk
//! would do at that place: a scalar as a `Value`; an array or object the one pass does not
//! check (a union, a conditional, a type it does not allow), read whole into a `Value` first;
//! a missing property or an undeclared one, by the walker's own functions for them. The
//! containers around a refused value then read the rest of their members the same way
//! (serde's visitor has stopped, the text has not), so every error of the call is found in
//! one pass over the text, in the order it was written.
//!
//! Whatever the walker would decide from more than the place it is given is left to the
//! full path: a value under a union (the walker explains the union, not the branch), a
//! `null` for a property (the walker may drop it as absent), a key given twice, a value inside
//! a container sent as a string, an object whose own keywords (required names it does not
//! declare, a count bound, defaults) only a whole object can settle, a schema with a dynamic
//! reference (the walker's scope is the path it took), more errors than the limit lists,
//! and anything serde itself refuses. The reading then ends as before, and the full path
//! decides; so the explained rejection is the one the full path gives, or none is made.

use std::cell::{Cell, RefCell};

use serde_json::Value;

use super::keywords::Sent;
use super::{Mode, Outcome, Path, Walker};
use crate::error::FieldError;
use crate::plan::{Node, NodeId};

/// The explaining state of one reading (made at its first refusal): the walker, the errors,
/// and what the wrappers tell each other while a refusal travels up.
pub(crate) struct Explain<'p> {
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
        self.walker.walk(id, &mut value, at, mode, &mut outcome, at.len(), 0);
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
