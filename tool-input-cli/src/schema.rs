//! `tool-input schema`: a JSON Schema as a tool definition for any API, and what that API's
//! documented limits would reject in it.

use std::fs;
use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;

use serde_json::{json, Value};
use tool_input::dialect::{check_tool, tool_definition, SchemaDocument};
use tool_input::Dialect;

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
        crate::written(writeln!(out, "{}", pretty(&result)))?;
        return Ok(if problems.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) });
    }
    let definition = tool_definition(&name, description.as_deref(), &schema, dialect);
    crate::written(writeln!(out, "{}", pretty(&definition)))?;
    Ok(ExitCode::SUCCESS)
}

fn pretty(value: &Value) -> String {
    let mut value = value.clone();
    crate::sort_keys(&mut value);
    serde_json::to_string_pretty(&value).unwrap_or_else(|_| value.to_string())
}
