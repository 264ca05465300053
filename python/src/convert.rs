//! Python objects to JSON values and back.
//!
//! Values (arguments, schemas, events) are converted by hand, both ways: a float that is not
//! finite or an integer beyond 64 bits is refused with a `ValueError` rather than turned into
//! something else (serde's `Value` would make `nan` a `null` without a word), and the nesting
//! is bounded, so no object makes the conversion overflow the stack. The library's records
//! (rejections, repairs, coercions, calls) go through their `Serialize` impls with
//! `pythonize`, so their shape is the one the CLI prints.

use std::borrow::Cow;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde::Serialize;
use serde_json::{Map, Number, Value};
use tool_input::parse::DEFAULT_MAX_DEPTH;
use tool_input::Limits;

/// Deepest nesting of lists and dicts converted; the engine's own limit (128 by default) is
/// lower, so this only keeps hostile objects from exhausting the stack.
const MAX_DEPTH: usize = 512;

/// A Python object (`None`, `bool`, `int`, `float`, `str`, `list`, `tuple`, `dict` with `str`
/// keys) as a JSON value.
pub(crate) fn to_value(object: &Bound<'_, PyAny>) -> PyResult<Value> {
    to_value_at(object, 0, MAX_DEPTH)
}

/// [`to_value`] for arguments, or a body or an event that holds them, read under `limits`:
/// past the default `max_depth`, nested as much deeper as the limit is (on the stack
/// `crate::stack::with_stack` makes for it), so that a value deeper than the limit is the
/// engine's `too_deep`, as its text would be, not a conversion error.
pub(crate) fn to_value_within(object: &Bound<'_, PyAny>, limits: &Limits) -> PyResult<Value> {
    let most = MAX_DEPTH.saturating_add(limits.max_depth.saturating_sub(DEFAULT_MAX_DEPTH));
    to_value_at(object, 0, most)
}

fn to_value_at(object: &Bound<'_, PyAny>, depth: usize, most: usize) -> PyResult<Value> {
    if object.is_none() {
        return Ok(Value::Null);
    }
    // `bool` before `int`: it is a subclass.
    if let Ok(flag) = object.cast::<PyBool>() {
        return Ok(Value::Bool(flag.is_true()));
    }
    if let Ok(string) = object.cast::<PyString>() {
        return unicode_text(string).map(Value::String);
    }
    if object.cast::<PyInt>().is_ok() {
        if let Ok(n) = object.extract::<i64>() {
            return Ok(Value::Number(n.into()));
        }
        if let Ok(n) = object.extract::<u64>() {
            return Ok(Value::Number(n.into()));
        }
        return Err(PyValueError::new_err(format!(
            "{object} is beyond the 64-bit integers JSON tools exchange"
        )));
    }
    if let Ok(float) = object.cast::<PyFloat>() {
        let n = float.value();
        return Number::from_f64(n)
            .map(Value::Number)
            .ok_or_else(|| PyValueError::new_err(format!("{n} is not a JSON number")));
    }
    if depth >= most {
        return Err(PyValueError::new_err(format!("nested deeper than {most} lists and dicts")));
    }
    if let Ok(dict) = object.cast::<PyDict>() {
        let mut map = Map::new();
        for (key, item) in dict.iter() {
            let key = key.cast::<PyString>().map_err(|_| {
                PyTypeError::new_err(format!("a JSON object's keys are strings, not {}", type_name(&key)))
            })?;
            map.insert(unicode_text(key)?, to_value_at(&item, depth + 1, most)?);
        }
        return Ok(Value::Object(map));
    }
    if let Ok(list) = object.cast::<PyList>() {
        return list
            .iter()
            .map(|item| to_value_at(&item, depth + 1, most))
            .collect::<PyResult<_>>()
            .map(Value::Array);
    }
    if let Ok(tuple) = object.cast::<PyTuple>() {
        return tuple
            .iter()
            .map(|item| to_value_at(&item, depth + 1, most))
            .collect::<PyResult<_>>()
            .map(Value::Array);
    }
    Err(PyTypeError::new_err(format!("{} is not a JSON value", type_name(object))))
}

/// A `str` as Rust text. One holding a lone surrogate (`json.loads('"\\ud800"')` makes one)
/// is not Unicode text: it is refused with a `ValueError` that says so, as a float that is
/// not finite is, rather than Python's codec error or a silent U+FFFD. As JSON text the same
/// call is read, the surrogate repaired and recorded.
fn unicode_text(string: &Bound<'_, PyString>) -> PyResult<String> {
    match string.to_cow() {
        Ok(text) => Ok(text.into_owned()),
        Err(_) => Err(PyValueError::new_err(
            "a str holding a lone surrogate is not Unicode text a JSON value can carry; pass the call's JSON text instead, where the surrogate is repaired",
        )),
    }
}

/// A JSON value as the Python object `json.loads` would give. It descends the value on the
/// stack: a value the engine handed over is no deeper than its `max_depth`, and past the
/// default is converted on the stack `crate::stack::with_stack` makes for it.
pub(crate) fn to_python<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(flag) => PyBool::new(py, *flag).to_owned().into_any(),
        Value::Number(n) => {
            if let Some(n) = n.as_i64() {
                n.into_pyobject(py)?.into_any()
            } else if let Some(n) = n.as_u64() {
                n.into_pyobject(py)?.into_any()
            } else {
                PyFloat::new(py, n.as_f64().unwrap_or(f64::NAN)).into_any()
            }
        }
        Value::String(text) => PyString::new(py, text).into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(to_python(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => object_to_python(py, map)?.into_any(),
    })
}

/// A JSON object as a `dict`.
pub(crate) fn object_to_python<'py>(
    py: Python<'py>,
    map: &Map<String, Value>,
) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    for (key, item) in map {
        dict.set_item(PyString::new(py, key), to_python(py, item)?)?;
    }
    Ok(dict)
}

/// One of the library's records, in its `Serialize` shape.
pub(crate) fn record<'py>(py: Python<'py>, record: &impl Serialize) -> PyResult<Bound<'py, PyAny>> {
    Ok(pythonize::pythonize(py, record)?)
}

/// Text handed over as `str` or `bytes`: `None` for any other type. A `str` holding lone
/// surrogates (which UTF-8 cannot encode) is passed on as the bytes Python's
/// `surrogatepass` gives, for the parser to refuse as invalid UTF-8 like any other bytes.
pub(crate) fn text_or_bytes<'a>(object: &'a Bound<'_, PyAny>) -> PyResult<Option<Cow<'a, [u8]>>> {
    if let Ok(bytes) = object.cast::<PyBytes>() {
        return Ok(Some(Cow::Borrowed(bytes.as_bytes())));
    }
    if let Ok(string) = object.cast::<PyString>() {
        return Ok(Some(match string.to_cow() {
            Ok(Cow::Borrowed(text)) => Cow::Borrowed(text.as_bytes()),
            Ok(Cow::Owned(text)) => Cow::Owned(text.into_bytes()),
            Err(_) => {
                let encoded = string.call_method1("encode", ("utf-8", "surrogatepass"))?;
                Cow::Owned(encoded.cast::<PyBytes>()?.as_bytes().to_vec())
            }
        }));
    }
    Ok(None)
}

/// A JSON document handed over as a Python value, or as JSON text (`str` or `bytes`).
pub(crate) fn document(object: &Bound<'_, PyAny>) -> PyResult<Result<Value, serde_json::Error>> {
    match text_or_bytes(object)? {
        Some(text) => Ok(serde_json::from_slice(&text)),
        None => to_value(object).map(Ok),
    }
}

/// The name of an object's type, for messages.
pub(crate) fn type_name(object: &Bound<'_, PyAny>) -> String {
    object.get_type().name().map(|name| name.to_string()).unwrap_or_else(|_| "this object".to_owned())
}
