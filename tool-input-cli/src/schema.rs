//! `tool-input schema`: a JSON Schema as a tool definition for any API, and what that API's
//! documented limits would reject in it.

use std::collections::HashMap;
use std::fs;
use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;

use serde_json::ser::PrettyFormatter;
use serde_json::{json, Value};
use tool_input::dialect::{check_tool, tool_definition, SchemaDocument};
use tool_input::parse::{self, ParseOptions};
use tool_input::Dialect;

use crate::sorted::{write_json, Step};

/// `tool-input schema`.
pub(crate) fn run(
    dialect: &str,
    name: Option<String>,
    description: Option<String>,
    check: bool,
    schema_path: &Path,
) -> Result<ExitCode, String> {
    let dialect: Dialect = dialect.parse().map_err(|e| format!("{e}"))?;
    let text =
        fs::read_to_string(schema_path).map_err(|e| format!("cannot read {}: {e}", schema_path.display()))?;
    let schema: Value =
        serde_json::from_str(&text).map_err(|e| format!("{} is not JSON: {e}", schema_path.display()))?;
    let Some(SchemaDocument { schema, title, description: root_description, .. }) =
        SchemaDocument::split(schema)
    else {
        return Err(format!("{} is not a JSON Schema object", schema_path.display()));
    };
    let name = name
        .or(title)
        .or_else(|| {
            schema_path.file_stem().and_then(|s| s.to_str()).map(|s| s.trim_end_matches(".schema").to_owned())
        })
        .ok_or("the tool needs a name: pass --name")?;
    let description = description.or(root_description);

    let mut out = io::stdout().lock();
    if check {
        let problems = check_tool(&name, description.as_deref(), &schema, dialect);
        let result = json!({"ok": problems.is_empty(), "problems": problems});
        crate::written(writeln!(out, "{}", pretty(&result, &HashMap::new())))?;
        return Ok(if problems.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) });
    }
    let definition = tool_definition(&name, description.as_deref(), &schema, dialect);
    // The file's floats as it wrote them, read by the library's strict parser (the text is
    // JSON: `serde_json` read it above, to within its 128 levels).
    let unlimited = ParseOptions::strict().with_max_bytes(usize::MAX).with_max_depth(usize::MAX);
    let parsed = parse::parse_to_json(text.as_bytes(), &unlimited).ok();
    let literals = parsed.as_ref().map(|parsed| as_written(parsed.float_texts())).unwrap_or_default();
    crate::written(writeln!(out, "{}", pretty(&definition, &literals)))?;
    Ok(ExitCode::SUCCESS)
}

/// `value` pretty-printed, keys sorted, each float that the schema file wrote in one way only
/// written that way ([`as_written`]).
fn pretty(value: &Value, literals: &HashMap<u64, Option<&str>>) -> String {
    let mut value = value.clone();
    crate::sort_keys(&mut value);
    let literal = |_: &[Step<'_>], value: &Value| match value {
        Value::Number(number) if number.is_f64() => {
            number.as_f64().and_then(|float| literals.get(&float.to_bits())).copied().flatten()
        }
        _ => None,
    };
    let mut text = Vec::new();
    // Into a `Vec`, writing fails for nothing.
    let _ = write_json(&mut text, &mut PrettyFormatter::new(), &value, &[], &literal);
    String::from_utf8_lossy(&text).into_owned()
}

/// The floats of a schema file by their `f64`'s bits, each with its text as written (`texts`:
/// [`ParsedJson::float_texts`](tool_input::parse::ParsedJson::float_texts)): `None` where
/// two texts read as one `f64` (`0.1` and `0.1000000000000000055511151231257827`), which is
/// then printed as `serde_json` writes it. From a `serde_json::Value`,
/// `"maximum": 12345678901234567890123` was printed as `1.2345678901234568e+22`, another
/// number, and `1e2` as `100.0`.
fn as_written<'a>(texts: impl Iterator<Item = &'a str>) -> HashMap<u64, Option<&'a str>> {
    let mut literals: HashMap<u64, Option<&str>> = HashMap::new();
    for text in texts {
        // The `f64` `serde_json` read the text as (its floats are correctly rounded here).
        let Ok(float) = text.parse::<f64>() else { continue };
        let entry = literals.entry(float.to_bits()).or_insert(Some(text));
        if *entry != Some(text) {
            *entry = None;
        }
    }
    literals
}
