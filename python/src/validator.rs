//! `tool_input.Validator` and `tool_input.Checked`: the engine on any JSON Schema.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};
use serde::Serialize;
use serde_json::Value;
use tool_input::{Checked, ErrorCode, FieldError, Policy, RawArguments, Rejection, Report, Validator};

use crate::convert::{document, record, text_or_bytes, to_python, to_value_within};
use crate::errors::{rejection, schema_error, schema_error_at};
use crate::stack::with_stack;

/// Inputs at least this long are checked with the GIL released, so other Python threads run
/// meanwhile; below it, releasing and taking it back would cost more than it frees.
pub(crate) const DETACH_BYTES: usize = 32 * 1024;

/// A JSON Schema compiled once into the engine's plan; `check` turns raw tool-call
/// arguments into the checked value, or raises `Rejection`.
///
/// `schema` is a dict or JSON text: every keyword of drafts 2020-12 and 2019-09, and drafts 7,
/// 6 and 4 each in their own meaning (chosen by `$schema`). A `$ref` is never fetched: it
/// leads inside the schema, to a draft's metaschema, or to a document of `resources` (a
/// mapping from the URI a `$ref` reaches it at to the document, a dict or JSON text); one
/// that leads nowhere raises `SchemaError`. `policy` is how far coercion may go: `"strict"` (exact
/// JSON only), `"default"` (representation: quoted numbers and lists, enum case, Python
/// literals, fences, prose) or `"lenient"` (also scalars to strings, a value to a
/// one-item list). `name` names the tool in rejection messages (default: the schema's
/// `title`). `formats=False` reads `format` as an annotation only (by default a string not in
/// its format's grammar is a `format` error). `defaults=False` reads `default` as an
/// annotation only (by default a property the call leaves out gets its `default`, and a
/// default its own schema refuses raises `SchemaError`). `limits` is a dict of the limits that
/// keep hostile input cheap to refuse, any of `max_bytes` (8 MiB: longer is `too_large`),
/// `max_depth` (128, at most 10000: deeper is `too_deep`; past 128 each check runs on a
/// thread with a stack made for the limit), `max_echo_chars` (80: the
/// longest value echoed in a record), `max_string_bytes` (4 MiB: a longer string is
/// `too_long` at its path), `max_errors` (50: more are counted in `omitted_errors`) and
/// `max_coercions` (100: more are counted in `omitted_coercions`); an unknown name raises
/// `ValueError`. Messages list a
/// schema's properties in the order the dict or the text writes them. Thread-safe: one
/// validator serves every thread.
#[pyclass(module = "tool_input", name = "Validator", frozen)]
pub(crate) struct PyValidator {
    validator: Validator,
    /// The tool's name in rejection messages: `name=`, else the schema's `title`.
    name: Option<String>,
}

#[pymethods]
impl PyValidator {
    #[new]
    #[pyo3(signature = (schema, policy = "default", *, name = None, formats = true, defaults = true, resources = None, limits = None))]
    #[allow(clippy::too_many_arguments)] // (Python's keyword arguments, each its own.)
    fn new(
        py: Python<'_>,
        schema: &Bound<'_, PyAny>,
        policy: &str,
        name: Option<String>,
        formats: bool,
        defaults: bool,
        resources: Option<&Bound<'_, PyDict>>,
        limits: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let limits = crate::limits::limits(limits)?;
        let schema_object = schema;
        let schema = document(schema)?
            .map_err(|error| schema_error_at(py, "", &format!("the schema is not JSON: {error}")))?;
        let policy: Policy = policy.parse().map_err(|error| PyValueError::new_err(format!("{error}")))?;
        // From text, so messages list the properties in the order the schema writes them, as
        // `tool-input check` does: the text given, or a dict as `json.dumps` writes it (a dict
        // keeps its keys' order, which a `serde_json::Value` keeps in some builds only).
        let from_text = schema_text(py, schema_object).map(|text| Validator::builder_from_text(&text));
        let builder = match from_text {
            Some(Ok(builder)) => builder,
            _ => Validator::builder(&schema),
        };
        let mut builder = builder.policy(policy).formats(formats).defaults(defaults).limits(limits);
        for (uri, given) in resources.into_iter().flat_map(|resources| resources.iter()) {
            let uri: String = uri.extract()?;
            builder = match schema_text(py, &given) {
                // Text, read as `--resource` reads a file: text that is not JSON is a schema
                // error naming the URI.
                Some(text) if is_text(&given) => {
                    builder.resource_from_text(&uri, &text).map_err(|e| schema_error(py, &e))?
                }
                written => {
                    // A dict is converted as the schema's is, so it is refused alike (a float
                    // that is not finite, an integer beyond 64 bits): through json.dumps, NaN
                    // was refused as "not JSON" and 2**70 rounded to a float without a word.
                    let value = document(&given)?.map_err(|error| {
                        schema_error_at(py, "", &format!("the resource at {uri} is not JSON: {error}"))
                    })?;
                    // From json.dumps's text for the order its properties are listed in, as
                    // for the schema, when serde_json reads that text back; a dict nested
                    // deeper than serde_json reads text (128 levels) is taken as its value,
                    // as the schema itself is, never refused as "not JSON".
                    match written {
                        Some(text) if serde_json::from_str::<Value>(&text).is_ok() => {
                            builder.resource_from_text(&uri, &text).map_err(|e| schema_error(py, &e))?
                        }
                        _ => builder.resource(&uri, value),
                    }
                }
            };
        }
        let validator = builder.build().map_err(|e| schema_error(py, &e))?;
        // As `tool-input check`: the schema's title names the tool unless a name is given.
        let name = name.or_else(|| schema.get("title").and_then(Value::as_str).map(str::to_owned));
        Ok(PyValidator { validator, name })
    }

    /// Check raw tool-call arguments, as the model sent them: `str` or `bytes` (repaired
    /// and coerced as the policy allows), a `dict` already parsed (Anthropic's `input`,
    /// Gemini's `args`), or `None` for absent arguments.
    ///
    /// Returns a `Checked` (`.value`, `.repairs`, `.coercions`); raises `Rejection` with
    /// every error, path and message for the model.
    fn check(&self, py: Python<'_>, raw: &Bound<'_, PyAny>) -> PyResult<PyChecked> {
        // Past the default depth, on a stack made for the limit (the value converted back
        // is as deep as the one read).
        let raw = raw.as_unbound();
        with_stack(py, &self.validator.limits(), |py| self.check_here(py, raw.bind(py)))
    }

    /// The schema, as compiled.
    #[getter]
    fn schema<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_python(py, self.validator.schema())
    }

    /// `"strict"`, `"default"` or `"lenient"`.
    #[getter]
    fn policy(&self) -> &'static str {
        self.validator.policy().as_str()
    }

    /// The tool's name in rejection messages, when known.
    #[getter]
    fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The limits every check works within, every one named: those `limits=` set, the
    /// defaults for the rest.
    #[getter]
    fn limits<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        crate::limits::limits_dict(py, &self.validator.limits())
    }

    fn __repr__(&self) -> String {
        match &self.name {
            Some(name) => format!("Validator(name={name:?}, policy={:?})", self.validator.policy().as_str()),
            None => format!("Validator(policy={:?})", self.validator.policy().as_str()),
        }
    }
}

impl PyValidator {
    /// [`PyValidator::check`] on this thread's stack.
    fn check_here(&self, py: Python<'_>, raw: &Bound<'_, PyAny>) -> PyResult<PyChecked> {
        let result = match text_or_bytes(raw)? {
            Some(text) if text.len() >= DETACH_BYTES => {
                py.detach(|| self.validator.check(RawArguments::Bytes(&text)))
            }
            Some(text) => self.validator.check(RawArguments::Bytes(&text)),
            None if raw.is_none() => self.validator.check(RawArguments::Absent),
            None => {
                self.validator.check(RawArguments::Value(&to_value_within(raw, &self.validator.limits())?))
            }
        };
        match result {
            Ok(checked) => PyChecked::new(py, checked),
            Err(refused) => {
                let refused = match &self.name {
                    Some(name) => refused.with_tool(name.as_str()),
                    None => refused,
                };
                Err(rejection(py, &refused))
            }
        }
    }
}

/// Arguments that passed every check: the value the tool runs with, and what it took.
#[pyclass(module = "tool_input", name = "Checked", frozen)]
pub(crate) struct PyChecked {
    value: Py<PyAny>,
    /// The records, turned into Python lists when first read: most callers never do.
    report: Report,
    repairs: PyOnceLock<Py<PyAny>>,
    coercions: PyOnceLock<Py<PyAny>>,
}

impl PyChecked {
    fn new(py: Python<'_>, checked: Checked<Value>) -> PyResult<Self> {
        Ok(PyChecked {
            value: to_python(py, &checked.value)?.unbind(),
            report: checked.report,
            repairs: PyOnceLock::new(),
            coercions: PyOnceLock::new(),
        })
    }
}

/// A list of records, in their `Serialize` shape.
fn records<T: Serialize>(py: Python<'_>, items: &[T]) -> PyResult<Py<PyAny>> {
    Ok(if items.is_empty() { PyList::empty(py).into_any().unbind() } else { record(py, &items)?.unbind() })
}

#[pymethods]
impl PyChecked {
    /// The checked value (a `dict`), as the CLI's `"value"`: coerced, schema defaults
    /// filled in, a null dropped where the property is optional and does not accept null.
    #[getter]
    fn value(&self, py: Python<'_>) -> Py<PyAny> {
        self.value.clone_ref(py)
    }

    /// The syntax repairs, in input order: `[{"kind", "offset", "count"}]`.
    #[getter]
    fn repairs(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        Ok(self.repairs.get_or_try_init(py, || records(py, &self.report.repairs))?.clone_ref(py))
    }

    /// The representation coercions, in document order: `[{"path", "kind", "from"?,
    /// "to"?}]`.
    #[getter]
    fn coercions(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        Ok(self.coercions.get_or_try_init(py, || records(py, &self.report.coercions))?.clone_ref(py))
    }

    /// How many coercions were made past the limit of records (100): counted, not listed
    /// in `coercions`.
    #[getter]
    fn omitted_coercions(&self) -> usize {
        self.report.omitted_coercions
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let repr = |object: Py<PyAny>| -> PyResult<String> { Ok(object.bind(py).repr()?.to_string()) };
        Ok(format!(
            "Checked(value={}, repairs={}, coercions={})",
            repr(self.value(py))?,
            repr(self.repairs(py)?)?,
            repr(self.coercions(py)?)?
        ))
    }
}

/// The `Rejection` for errors found after the engine accepted the arguments (by a pydantic
/// validator, say), in the engine's words: kind `invalid`, each error `{"path", "code":
/// "deserialize", "message"}`, the message rendered as for any other rejection. For
/// `tool_input.pydantic`; not part of the public interface.
#[pyfunction]
#[pyo3(name = "_residual_rejection", signature = (errors, tool = None))]
pub(crate) fn residual_rejection(
    py: Python<'_>,
    errors: Vec<(String, String)>,
    tool: Option<String>,
) -> Py<PyAny> {
    let errors = errors
        .into_iter()
        .map(|(path, message)| FieldError::custom(message).at_pointer(path).with_code(ErrorCode::Deserialize))
        .collect();
    let mut refused = Rejection::invalid(errors);
    if let Some(tool) = tool {
        refused = refused.with_tool(tool);
    }
    rejection(py, &refused).into_value(py).into_any()
}

/// Was `object` given as text (`str` or `bytes`) rather than as a value?
fn is_text(object: &Bound<'_, PyAny>) -> bool {
    object.cast::<PyString>().is_ok() || object.cast::<PyBytes>().is_ok()
}

/// `schema` as JSON text, its keys in the order they were written: the `str` or `bytes` given,
/// or a dict or list as `json.dumps` writes it. `None` when it cannot be written so (the
/// value read from it then gives the order).
fn schema_text(py: Python<'_>, schema: &Bound<'_, PyAny>) -> Option<String> {
    if let Ok(Some(text)) = text_or_bytes(schema) {
        return String::from_utf8(text.into_owned()).ok();
    }
    let dumps = py.import("json").ok()?.getattr("dumps").ok()?;
    dumps.call1((schema,)).ok()?.extract::<String>().ok()
}
