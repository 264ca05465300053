//! `limits=`: the engine's `Limits` from a Python `dict`, and back, for `Validator`,
//! `parse_calls` and `StreamAssembler`.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt};
use tool_input::Limits;

use crate::convert::type_name;

/// The names a `limits` dict takes, each a field of the engine's `Limits`.
const NAMES: [&str; 6] =
    ["max_bytes", "max_depth", "max_echo_chars", "max_string_bytes", "max_errors", "max_coercions"];

/// The limits `given` sets, the engine's defaults for the others. Each key is one of
/// [`NAMES`] and each value an `int` of at least 0 (`max_errors` at least 1; `max_depth` at
/// most [`Limits::MAX_STACKED_DEPTH`], the deepest the engine makes a stack for:
/// `crate::stack`); anything else raises, naming the key: a typo must not leave a limit at
/// its default unseen.
pub(crate) fn limits(given: Option<&Bound<'_, PyDict>>) -> PyResult<Limits> {
    let mut limits = Limits::default();
    for (key, value) in given.into_iter().flat_map(|given| given.iter()) {
        let name: String = key
            .extract()
            .map_err(|_| PyTypeError::new_err(format!("a limit's name is a str, not {}", type_name(&key))))?;
        if !NAMES.contains(&name.as_str()) {
            return Err(PyValueError::new_err(format!(
                "unknown limit {name:?}; the limits are {}",
                NAMES.join(", ")
            )));
        }
        // (`True` is an `int` to Python, and would set a limit of 1.)
        if !value.is_instance_of::<PyInt>() || value.is_instance_of::<PyBool>() {
            return Err(PyTypeError::new_err(format!(
                "limit {name:?} must be an int, not {}",
                type_name(&value)
            )));
        }
        let least = if name == "max_errors" { 1 } else { 0 };
        let most = if name == "max_depth" { Limits::MAX_STACKED_DEPTH } else { usize::MAX };
        let in_range = |number: &usize| (least..=most).contains(number);
        let number = value.extract::<usize>().ok().filter(in_range).ok_or_else(|| {
            PyValueError::new_err(format!(
                "limit {name:?} must be an int from {least} to {most}, not {value}"
            ))
        })?;
        limits = match name.as_str() {
            "max_bytes" => limits.with_max_bytes(number),
            "max_depth" => limits.with_max_depth(number),
            "max_echo_chars" => limits.with_max_echo_chars(number),
            "max_string_bytes" => limits.with_max_string_bytes(number),
            "max_errors" => limits.with_max_errors(number),
            _ => limits.with_max_coercions(number),
        };
    }
    Ok(limits)
}

/// `limits` as the `dict` `limits=` takes, every name set.
pub(crate) fn limits_dict<'py>(py: Python<'py>, limits: &Limits) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    let values = [
        limits.max_bytes,
        limits.max_depth,
        limits.max_echo_chars,
        limits.max_string_bytes,
        limits.max_errors,
        limits.max_coercions,
    ];
    for (name, value) in NAMES.iter().zip(values) {
        dict.set_item(name, value)?;
    }
    Ok(dict)
}
