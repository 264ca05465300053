//! The retry after prose, written once: when the value that followed prose fails (as in
//! "1. Call it with {...}"), later `{` and `[` are tried as candidates, each with the repairs
//! made before the first value and the code fence state there. [`Candidates`] is the state of
//! that retry; the one-shot reading steps through it over the whole input
//! ([`read_with_retry`]), the incremental parser as the text arrives.

use super::driver::{Driver, Input, Outcome, Output, Start};
use super::lexer::Failure;
use super::{ParseMode, ParseOptions, Repair, RepairKind};

/// How many later `{` or `[` are tried after a candidate following prose fails. Each
/// attempt reads a disjoint part of the input (the next candidate lies after the point
/// where the previous one failed), so the total stays linear either way.
pub(crate) const MAX_CANDIDATES: usize = 8;

/// The retry after prose once a first attempt failed: its error, and what each later
/// candidate starts with. `E`: how the first error is kept (the one-shot reading keeps the
/// lexer's failure; the incremental parser the error it reported).
#[derive(Debug)]
pub(crate) struct Candidates<E> {
    /// The first attempt's error: the one reported if every candidate fails (it is the
    /// most useful one).
    first: E,
    /// Repairs made before the first value (prose, a fence, comments), carried to each
    /// candidate.
    carried: Vec<Repair>,
    /// Whether a code fence was open where the first value started.
    fence_open: bool,
    /// A candidate must start at or after this offset.
    after: usize,
    /// Candidates still allowed.
    left: usize,
}

/// What the search for the next candidate found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Next {
    /// A candidate starts here (counted).
    At(usize),
    /// No `{` or `[` in the text so far.
    NoneYet,
    /// There is one, but [`MAX_CANDIDATES`] were tried.
    NoneLeft,
}

impl<E> Candidates<E> {
    /// After a first attempt (`driver`) failed with `first`: the candidates to try, only in
    /// the lenient modes, and only when the failed value came after prose or did not start
    /// like an object or array (as in "1. Call it with {...}"): a failing `{...}` at the
    /// start is an error, not a reason to pick some inner `[...]` out of it. `Err(first)`
    /// when none is tried.
    pub(crate) fn after<O: Output>(
        driver: &Driver<O>,
        mode: ParseMode,
        first: E,
    ) -> Result<Candidates<E>, E> {
        if mode == ParseMode::Strict {
            return Err(first);
        }
        let lexer = driver.lexer();
        let Some((value_at, first_byte)) = lexer.value_start() else { return Err(first) };
        if !lexer.prose_seen() && matches!(first_byte, b'{' | b'[') {
            return Err(first);
        }
        let mut carried: Vec<Repair> =
            driver.repairs().iter().filter(|r| r.offset < value_at).copied().collect();
        if !carried.iter().any(|r| r.kind == RepairKind::ProseBefore) {
            carried.push(Repair::new(RepairKind::ProseBefore, value_at));
        }
        Ok(Candidates {
            first,
            carried,
            fence_open: lexer.fence_open(),
            after: value_at + 1,
            left: MAX_CANDIDATES,
        })
    }

    /// The first attempt's error.
    pub(crate) fn first(&self) -> &E {
        &self.first
    }

    /// The first attempt's error, taken.
    pub(crate) fn into_first(self) -> E {
        self.first
    }

    /// Where the search for the next candidate starts after an attempt failed with
    /// `failure`; `None` when it is not a syntax error (nothing is retried then).
    pub(crate) fn search_from(&self, failure: &Failure) -> Option<usize> {
        failure.syntax_offset().map(|offset| offset.max(self.after))
    }

    /// The next candidate: the first `{` or `[` of `bytes` from `from` on, counted when one
    /// more is allowed (the one after must start after it).
    pub(crate) fn next(&mut self, bytes: &[u8], from: usize) -> Next {
        let found = bytes.get(from..).and_then(|rest| rest.iter().position(|&b| matches!(b, b'{' | b'[')));
        let Some(at) = found.map(|k| from + k) else { return Next::NoneYet };
        if self.left == 0 {
            return Next::NoneLeft;
        }
        self.left -= 1;
        self.after = at + 1;
        Next::At(at)
    }

    /// Where the candidate at `at` starts: inside prose, with the repairs carried.
    pub(crate) fn start(&self, at: usize) -> Start {
        Start { at, fence_open: Some(self.fence_open), repairs: self.carried.clone() }
    }
}

/// Read a whole input: a first attempt, then (lenient) up to [`MAX_CANDIDATES`] later
/// candidates after prose, each by a driver into the output `out` makes (built here, where
/// it is kept: see [`Driver::new`]), set up by `prepare`; `done` takes what a successful
/// attempt read. The first attempt's error is the one returned if all fail.
pub(crate) fn read_with_retry<O: Output, R>(
    input: Input<'_>,
    options: &ParseOptions,
    mut out: impl FnMut() -> O,
    prepare: impl Fn(&mut Driver<O>),
    done: impl FnOnce(Outcome<O::Value>, &mut Driver<O>) -> R,
) -> Result<R, Failure> {
    let mut driver = Driver::new(options, Start::FIRST, &mut out);
    prepare(&mut driver);
    let first = match driver.read(input) {
        Ok(outcome) => return Ok(done(outcome, &mut driver)),
        Err(failure) => failure,
    };
    let mut candidates = Candidates::after(&driver, options.mode, first)?;
    // Its buffers go back for the candidates' drivers to take (see `super::spare`).
    drop(driver);
    // The last candidate's failure, once one was tried.
    let mut last: Option<Failure> = None;
    while let Some(from) = candidates.search_from(last.as_ref().unwrap_or(candidates.first())) {
        let Next::At(at) = candidates.next(input.as_bytes(), from) else { break };
        let mut driver = Driver::new(options, candidates.start(at), &mut out);
        prepare(&mut driver);
        match driver.read(input.from(at)) {
            Ok(outcome) => return Ok(done(outcome, &mut driver)),
            Err(failure) => last = Some(failure),
        }
    }
    Err(candidates.into_first())
}
