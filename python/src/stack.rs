//! The stack a deep `max_depth` takes. The engine descends a value a level at a time on the
//! stack, and so do the conversions of what it reads into Python objects and back: past
//! the default depth (128), a value as deep as `limits=` allows would overflow the calling
//! thread's stack and abort the interpreter. So there the work runs on a thread with a stack
//! made for that depth (the engine's `Limits::run_with_stack`), the GIL released here and
//! taken there.

use pyo3::exceptions::PyMemoryError;
use pyo3::prelude::*;
use tool_input::parse::DEFAULT_MAX_DEPTH;
use tool_input::Limits;

/// Run `work` where the stack holds values nested `limits.max_depth` deep: right here within
/// the default depth (no thread: the common path costs nothing more), else on a thread with
/// a stack for it, which takes the GIL for `work` while this thread waits without it.
/// `work` gets that thread's `Python` token: what it returns goes back unbound (`Py<…>`, or
/// a value of no Python object).
pub(crate) fn with_stack<T: Send>(
    py: Python<'_>,
    limits: &Limits,
    work: impl FnOnce(Python<'_>) -> PyResult<T> + Send,
) -> PyResult<T> {
    if limits.max_depth <= DEFAULT_MAX_DEPTH {
        return work(py);
    }
    py.detach(|| limits.run_with_stack(|| Python::attach(work))).unwrap_or_else(|error| {
        // `limits=` caps the depth, so this is a thread the system could not make.
        Err(PyMemoryError::new_err(format!("no stack for limit \"max_depth\" {}: {error}", limits.max_depth)))
    })
}

/// Drop `value`, which may hold values nested as deep as `limits` allow, where the stack
/// holds them: dropping descends a value as building it did. Within the default depth, right
/// here; past it, on a thread with a stack for it, or, when no such thread can be made,
/// never (a leak, not a crash).
pub(crate) fn drop_with_stack<T: Send>(limits: &Limits, value: T) {
    let mut kept = Some(value);
    if limits.max_depth > DEFAULT_MAX_DEPTH && limits.run_with_stack(|| drop(kept.take())).is_err() {
        std::mem::forget(kept);
    }
}
