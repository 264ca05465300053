//! State one Python object holds for every thread, taken by one call at a time.
//!
//! A method that releases the GIL while it works (past the default depth, `crate::stack`
//! runs the work on another thread) leaves the object to any other Python thread meanwhile:
//! its state is behind a lock each call holds from start to end, so a second call waits its
//! turn. It waits without the GIL, which the call holding the lock may need to finish. A
//! call made on a thread while that thread works for a call holding the lock (a garbage
//! collector callback, a finalizer) would wait for itself: it is refused.

use std::cell::RefCell;
use std::ops::{Deref, DerefMut};
use std::sync::{Mutex, MutexGuard, PoisonError};

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::sync::MutexExt;

thread_local! {
    /// The objects whose state a call on this thread holds: the calling thread's, and the
    /// thread with a stack for the limits while it works for that call.
    static HELD: RefCell<Vec<usize>> = const { RefCell::new(Vec::new()) };
}

/// A value behind a lock that a Python call takes without deadlocking the interpreter.
pub(crate) struct Shared<T> {
    state: Mutex<T>,
    /// What holds it, for messages: `"StreamAssembler"`.
    what: &'static str,
}

impl<T> Shared<T> {
    pub(crate) fn new(what: &'static str, value: T) -> Self {
        Shared { state: Mutex::new(value), what }
    }

    /// The value, held until the guard is dropped: at once if no other call holds it, else
    /// once that call ends, waiting without the GIL. Refused on a thread that works for a
    /// call holding it already, and once a call holding it panicked (which the module
    /// never means to do: its state may be half updated).
    pub(crate) fn lock(&self, py: Python<'_>) -> PyResult<Held<'_, T>> {
        let at = self.address();
        if HELD.with_borrow(|held| held.contains(&at)) {
            return Err(PyRuntimeError::new_err(format!(
                "{} called within one of its own calls (from a garbage collector callback or a finalizer?): it would wait for itself",
                self.what
            )));
        }
        let guard = self.state.lock_py_attached(py).map_err(|_| {
            PyRuntimeError::new_err(format!(
                "this {} is unusable: a call on it panicked; make a new one",
                self.what
            ))
        })?;
        Ok(Held { guard, inside: Turn(at).enter() })
    }

    /// The value, when nothing else can hold it (in `Drop`): a poisoned lock still holds it.
    pub(crate) fn get_mut(&mut self) -> &mut T {
        self.state.get_mut().unwrap_or_else(PoisonError::into_inner)
    }

    fn address(&self) -> usize {
        std::ptr::from_ref(self) as usize
    }
}

/// The value of a [`Shared`], held by one call.
pub(crate) struct Held<'a, T> {
    guard: MutexGuard<'a, T>,
    inside: Inside,
}

impl<T> Held<'_, T> {
    /// The call's turn, for the thread that works for it ([`Turn::enter`] there).
    pub(crate) fn turn(&self) -> Turn {
        Turn(self.inside.0)
    }
}

impl<T> Deref for Held<'_, T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.guard
    }
}

impl<T> DerefMut for Held<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.guard
    }
}

/// A call's hold on a [`Shared`], carried to the thread that works for it.
#[derive(Clone, Copy)]
pub(crate) struct Turn(usize);

impl Turn {
    /// This thread works for the call until the result is dropped: a call on the same object
    /// made here meanwhile is refused rather than left waiting for itself.
    pub(crate) fn enter(self) -> Inside {
        HELD.with_borrow_mut(|held| held.push(self.0));
        Inside(self.0)
    }
}

/// This thread's work for a call holding a [`Shared`] (see [`Turn::enter`]).
pub(crate) struct Inside(usize);

impl Drop for Inside {
    fn drop(&mut self) {
        HELD.with_borrow_mut(|held| {
            if let Some(at) = held.iter().rposition(|&at| at == self.0) {
                held.remove(at);
            }
        });
    }
}
