//! The module's exceptions. They are Python classes (`tool_input/_errors.py`: real
//! `__init__` signatures, picklable, documented there); these functions build them from the
//! library's errors.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;
use tool_input::parse::ParseError;
use tool_input::{Rejection, SchemaError};

use crate::convert::record;

static REJECTION: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static SCHEMA_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static PARSE_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();

fn class<'py>(
    py: Python<'py>,
    cell: &'static PyOnceLock<Py<PyType>>,
    name: &str,
) -> PyResult<&'py Bound<'py, PyType>> {
    cell.import(py, "tool_input._errors", name)
}

/// `tool_input.Rejection(message, kind, errors, omitted_errors)`, from the rejection's
/// `Serialize` shape (`{"kind", "errors", "message"}`, and `"omitted_errors"` when the
/// error limit cut the list, as the CLI prints it).
pub(crate) fn rejection(py: Python<'_>, rejection: &Rejection) -> PyErr {
    let build = || -> PyResult<PyErr> {
        let shape = record(py, rejection)?;
        let field = |name: &str| shape.get_item(name);
        // The shape has the count only when it is not 0; the attribute is always there.
        let instance = class(py, &REJECTION, "Rejection")?.call1((
            field("message")?,
            field("kind")?,
            field("errors")?,
            rejection.omitted_errors(),
        ))?;
        Ok(PyErr::from_value(instance))
    };
    build().unwrap_or_else(|error| error)
}

/// `tool_input.SchemaError(message, pointer)`.
pub(crate) fn schema_error(py: Python<'_>, error: &SchemaError) -> PyErr {
    schema_error_at(py, &error.pointer, &error.to_string())
}

/// `tool_input.SchemaError` for a schema that could not be read at all (not JSON, not an
/// object), at the document's root.
pub(crate) fn schema_error_at(py: Python<'_>, pointer: &str, message: &str) -> PyErr {
    class(py, &SCHEMA_ERROR, "SchemaError")
        .and_then(|class| class.call1((message, pointer)))
        .map(PyErr::from_value)
        .unwrap_or_else(|error| error)
}

/// `tool_input.ParseError(message, kind)`, `kind` as a rejection's (`parse`, `invalid` for a
/// number beyond the floats, `truncated`, `too_large`, `too_deep`).
pub(crate) fn parse_error(py: Python<'_>, error: &ParseError) -> PyErr {
    class(py, &PARSE_ERROR, "ParseError")
        .and_then(|class| class.call1((error.to_string(), error.kind().code())))
        .map(PyErr::from_value)
        .unwrap_or_else(|error| error)
}
