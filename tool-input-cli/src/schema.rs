//! `tool-input schema`: a JSON Schema as a tool definition for any API, and what that API's
//! documented limits would reject in it.

use std::collections::HashMap;
use std::fs;
use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;

use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::value::RawValue;
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
        crate::written(writeln!(out, "{}", pretty(&result, &HashMap::new())))?;
        return Ok(if problems.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) });
    }
    let definition = tool_definition(&name, description.as_deref(), &schema, dialect);
    crate::written(writeln!(out, "{}", pretty(&definition, &float_literals(&text))))?;
    Ok(ExitCode::SUCCESS)
}

/// `value` pretty-printed, keys sorted, each float that the schema file wrote in one way only
/// written that way (`float_literals`).
fn pretty(value: &Value, literals: &HashMap<u64, Option<&str>>) -> String {
    let mut value = value.clone();
    crate::sort_keys(&mut value);
    serde_json::to_string_pretty(&Written { value: &value, literals }).unwrap_or_else(|_| value.to_string())
}

/// The floats of a schema file (JSON, as `serde_json` read it), by their `f64`'s bits, each
/// with its text as written: `None` where two texts read as one `f64` (`0.1` and
/// `0.1000000000000000055511151231257827`), which is then printed as `serde_json` writes it.
/// From a `serde_json::Value`, `"maximum": 12345678901234567890123` was printed as
/// `1.2345678901234568e+22`, another number, and `1e2` as `100.0`.
fn float_literals(text: &str) -> HashMap<u64, Option<&str>> {
    let mut literals: HashMap<u64, Option<&str>> = HashMap::new();
    let bytes = text.as_bytes();
    let mut at = 0;
    while let Some(&b) = bytes.get(at) {
        match b {
            b'"' => {
                // Past the string: a `\` escapes the byte after it.
                at += 1;
                while let Some(&b) = bytes.get(at) {
                    at += if b == b'\\' { 2 } else { 1 };
                    if b == b'"' {
                        break;
                    }
                }
            }
            b'-' | b'0'..=b'9' => {
                let length = bytes[at..]
                    .iter()
                    .take_while(|b| matches!(b, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E'))
                    .count();
                let literal = text.get(at..at + length).unwrap_or_default();
                at += length;
                // A float as `serde_json` reads it: a fraction or exponent, or an integer past 64 bits.
                // (`-0` is the float `-0.0` to it.)
                let integer =
                    literal.parse::<u64>().is_ok() || (literal.parse::<i64>().is_ok() && literal != "-0");
                if let (false, Ok(float)) = (integer, literal.parse::<f64>()) {
                    let entry = literals.entry(float.to_bits()).or_insert(Some(literal));
                    if *entry != Some(literal) {
                        *entry = None;
                    }
                }
            }
            _ => at += 1,
        }
    }
    literals
}

/// A value to serialize, each float with a literal in `literals` written as that text.
struct Written<'a> {
    value: &'a Value,
    literals: &'a HashMap<u64, Option<&'a str>>,
}

impl Serialize for Written<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let literals = self.literals;
        match self.value {
            Value::Number(number) if number.is_f64() => {
                let literal =
                    number.as_f64().and_then(|float| literals.get(&float.to_bits())).copied().flatten();
                match literal.and_then(|literal| RawValue::from_string(literal.to_owned()).ok()) {
                    Some(raw) => raw.serialize(serializer),
                    None => number.serialize(serializer),
                }
            }
            Value::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(&Written { value: item, literals })?;
                }
                seq.end()
            }
            Value::Object(map) => {
                let mut members = serializer.serialize_map(Some(map.len()))?;
                for (key, value) in map {
                    members.serialize_entry(key, &Written { value, literals })?;
                }
                members.end()
            }
            scalar => scalar.serialize(serializer),
        }
    }
}
