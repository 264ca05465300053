//! `tool_input.repair`, `tool_input.tool_definition` and `tool_input.check_tool`: the
//! parser alone, and a JSON Schema as each API's tool definition.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use tool_input::dialect::{self, SchemaDocument};
use tool_input::parse::{self, ParseOptions, RepairStyle};
use tool_input::Dialect;

use crate::convert::{document, record, text_or_bytes, to_python, type_name};
use crate::errors::{parse_error, schema_error_at};

/// Parse any JSON value leniently, as `tool-input repair` does, and return it.
///
/// Repairs what models and people get wrong (quotes, commas, comments, fences, Python
/// literals, missing brackets, text around the value). Text cut off inside a value raises
/// `ParseError` (kind `truncated`) unless `complete_truncated` (for display only: never run
/// a tool on it); `settled` completes it as final text rather than as a stream that may
/// grow. `strict` accepts strict JSON only. `style="json_repair"` follows the Python
/// library where the repair libraries read the same text differently.
#[pyfunction]
#[pyo3(signature = (text, *, strict = false, complete_truncated = false, settled = false, style = "jsonrepair"))]
pub(crate) fn repair<'py>(
    py: Python<'py>,
    text: &Bound<'py, PyAny>,
    strict: bool,
    complete_truncated: bool,
    settled: bool,
    style: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let bytes = text_or_bytes(text)?
        .ok_or_else(|| PyTypeError::new_err(format!("expected str or bytes, not {}", type_name(text))))?;
    let style = match style {
        "jsonrepair" => RepairStyle::Jsonrepair,
        "json_repair" => RepairStyle::JsonRepair,
        other => {
            return Err(PyValueError::new_err(format!("unknown style {other:?}: jsonrepair or json_repair")))
        }
    };
    let base = if strict { ParseOptions::strict() } else { ParseOptions::repair() };
    let options =
        base.with_complete_truncated(complete_truncated).with_stream_stable(!settled).with_style(style);
    match parse::parse_bytes(&bytes, &options) {
        Ok(parsed) => to_python(py, &parsed.value),
        Err(error) => Err(parse_error(py, &error)),
    }
}

/// The schema document, its dialect, and the tool's name and description, as `tool-input
/// schema` reads them: `name`/`description` given, else the root's `title`/`description`.
fn read_tool(
    py: Python<'_>,
    schema: &Bound<'_, PyAny>,
    dialect: &str,
    name: Option<String>,
    description: Option<String>,
) -> PyResult<(SchemaDocument, Dialect, String, Option<String>)> {
    let dialect: Dialect = dialect.parse().map_err(|error| PyValueError::new_err(format!("{error}")))?;
    let schema = document(schema)?
        .map_err(|error| schema_error_at(py, "", &format!("the schema is not JSON: {error}")))?;
    let document = SchemaDocument::split(schema)
        .ok_or_else(|| schema_error_at(py, "", "the schema is not a JSON object"))?;
    let name = name.or_else(|| document.title.clone()).ok_or_else(|| {
        PyValueError::new_err("the tool needs a name: pass name= (the schema has no title)")
    })?;
    let description = description.or_else(|| document.description.clone());
    Ok((document, dialect, name, description))
}

/// A JSON Schema as a tool definition for an API, as `tool-input schema` prints it.
///
/// `dialect` is `"openai"`, `"openai-strict"`, `"responses"`, `"responses-strict"`,
/// `"anthropic"`, `"gemini"` or `"mcp"`; the strict and Gemini dialects transform the
/// schema as those APIs require. The tool's name and description default to the schema's
/// `title` and `description`.
#[pyfunction]
#[pyo3(signature = (schema, dialect, *, name = None, description = None))]
pub(crate) fn tool_definition<'py>(
    py: Python<'py>,
    schema: &Bound<'py, PyAny>,
    dialect: &str,
    name: Option<String>,
    description: Option<String>,
) -> PyResult<Bound<'py, PyAny>> {
    let (document, dialect, name, description) = read_tool(py, schema, dialect, name, description)?;
    to_python(py, &dialect::tool_definition(&name, description.as_deref(), &document.schema, dialect))
}

/// What the API's documented limits would reject in that definition, as `tool-input schema
/// --check` lists it: `[{"pointer", "code", "message"}]`, empty when it would be accepted.
#[pyfunction]
#[pyo3(signature = (schema, dialect, *, name = None, description = None))]
pub(crate) fn check_tool<'py>(
    py: Python<'py>,
    schema: &Bound<'py, PyAny>,
    dialect: &str,
    name: Option<String>,
    description: Option<String>,
) -> PyResult<Bound<'py, PyAny>> {
    let (document, dialect, name, description) = read_tool(py, schema, dialect, name, description)?;
    record(py, &dialect::check_tool(&name, description.as_deref(), &document.schema, dialect))
}
