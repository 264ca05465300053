//! `tool_input._native`: the tool-input engine as a Python extension module, behind the
//! `tool_input` package (`tool_input/__init__.py` re-exports it; the exceptions and the
//! pydantic helper are Python code there).
//!
//! Everything the module returns is built from the library's own records and their
//! `Serialize` impls, so a dict here has exactly the shape the `tool-input` CLI prints:
//! the module adds no shaping of its own.
#![forbid(unsafe_code)]

mod calls;
mod convert;
mod errors;
mod limits;
mod shared;
mod stack;
mod tools;
mod validator;

use pyo3::prelude::*;

/// The tool-input engine: tool-call arguments into checked values, or into errors a model
/// can act on.
#[pymodule]
#[pyo3(name = "_native")]
fn native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    module.add_class::<validator::PyValidator>()?;
    module.add_class::<validator::PyChecked>()?;
    module.add_class::<calls::PyStreamAssembler>()?;
    module.add_function(wrap_pyfunction!(calls::parse_calls, module)?)?;
    module.add_function(wrap_pyfunction!(tools::repair, module)?)?;
    module.add_function(wrap_pyfunction!(tools::tool_definition, module)?)?;
    module.add_function(wrap_pyfunction!(tools::check_tool, module)?)?;
    module.add_function(wrap_pyfunction!(validator::residual_rejection, module)?)?;
    Ok(())
}
