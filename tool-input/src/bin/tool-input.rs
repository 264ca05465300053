//! `tool-input`: the engine of the `tool-input` crate on any JSON Schema, for any language.
//!
//! ```text
//! tool-input check --schema FILE [--policy strict|default|lenient] [--name NAME] [INPUT]
//! tool-input check --schema FILE --jsonl CASES.jsonl
//! tool-input repair [--strict] [--complete-truncated] [INPUT]
//! ```
//! Exit codes: 0 accepted, 1 rejected, 2 usage error.

use std::fs;
use std::io::{self, BufRead, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use serde_json::{json, Value};
use tool_input::parse::{self, ParseMode, ParseOptions};
use tool_input::{Checked, Policy, RawArguments, Rejection, Validator};

#[derive(Debug, Parser)]
#[command(name = "tool-input", version, about = "Check and repair tool-call arguments against a JSON Schema")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Check raw tool-call arguments against a JSON Schema; print one JSON result.
    ///
    /// Exits 0 when accepted, 1 when rejected, 2 on usage errors.
    Check {
        /// The JSON Schema of the arguments.
        #[arg(long, value_name = "FILE")]
        schema: PathBuf,
        /// How far coercion may go.
        #[arg(long, default_value = "default", value_parser = ["strict", "default", "lenient"])]
        policy: String,
        /// The tool's name in messages (default: the schema's `title`).
        #[arg(long)]
        name: Option<String>,
        /// Check every case of a JSONL file (`{"id": ..., "raw": "..."}` per line) and print
        /// one result line per case, with its id.
        #[arg(long, value_name = "FILE", conflicts_with = "input")]
        jsonl: Option<PathBuf>,
        /// The raw arguments (bytes); standard input when absent or `-`.
        input: Option<PathBuf>,
    },
    /// Parse any JSON value leniently and print it repaired, compact.
    ///
    /// Exits 0 with the JSON on standard output, or 1 with the error on standard error.
    Repair {
        /// Accept strict JSON only.
        #[arg(long)]
        strict: bool,
        /// Close what was cut off (strings, arrays, objects, literals), for showing partial
        /// output. Never use this for arguments a tool will run with.
        #[arg(long)]
        complete_truncated: bool,
        /// The text to repair; standard input when absent or `-`.
        input: Option<PathBuf>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Check { schema, policy, name, jsonl, input } => check(&schema, &policy, name, jsonl, input),
        Command::Repair { strict, complete_truncated, input } => repair(strict, complete_truncated, input),
    };
    match result {
        Ok(code) => code,
        Err(message) => {
            eprintln!("tool-input: {message}");
            ExitCode::from(2)
        }
    }
}

fn read_input(input: Option<&Path>) -> Result<Vec<u8>, String> {
    match input {
        None => read_stdin(),
        Some(path) if path == Path::new("-") => read_stdin(),
        Some(path) => fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display())),
    }
}

fn read_stdin() -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    io::stdin().read_to_end(&mut bytes).map_err(|e| format!("cannot read standard input: {e}"))?;
    Ok(bytes)
}

fn check(
    schema_path: &Path,
    policy: &str,
    name: Option<String>,
    jsonl: Option<PathBuf>,
    input: Option<PathBuf>,
) -> Result<ExitCode, String> {
    let schema_text =
        fs::read_to_string(schema_path).map_err(|e| format!("cannot read {}: {e}", schema_path.display()))?;
    let schema: Value = serde_json::from_str(&schema_text)
        .map_err(|e| format!("{} is not JSON: {e}", schema_path.display()))?;
    let policy: Policy = policy.parse().map_err(|e| format!("{e}"))?;
    let validator = Validator::builder(&schema).policy(policy).build().map_err(|e| e.to_string())?;
    let name = name.or_else(|| schema.get("title").and_then(Value::as_str).map(str::to_owned));

    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let write_error = |e: io::Error| format!("cannot write the result: {e}");
    let Some(jsonl) = jsonl else {
        let raw = read_input(input.as_deref())?;
        let result = validator.check(RawArguments::Bytes(&raw));
        let accepted = result.is_ok();
        let line = result_json(None, result, name.as_deref());
        writeln!(out, "{line}").map_err(write_error)?;
        out.flush().map_err(write_error)?;
        return Ok(if accepted { ExitCode::SUCCESS } else { ExitCode::from(1) });
    };

    let file = fs::File::open(&jsonl).map_err(|e| format!("cannot read {}: {e}", jsonl.display()))?;
    let mut all_accepted = true;
    for (number, line) in io::BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| format!("cannot read {}: {e}", jsonl.display()))?;
        if line.trim().is_empty() {
            continue;
        }
        let case: Value = serde_json::from_str(&line)
            .map_err(|e| format!("{} line {}: not a JSON case: {e}", jsonl.display(), number + 1))?;
        let id = case.get("id").cloned().unwrap_or(Value::Null);
        let raw = match case.get("raw") {
            Some(Value::String(text)) => RawArguments::Text(text),
            Some(other) => RawArguments::Value(other),
            None => RawArguments::Absent,
        };
        let result = validator.check(raw);
        all_accepted &= result.is_ok();
        let line = result_json(Some(id), result, name.as_deref());
        writeln!(out, "{line}").map_err(write_error)?;
    }
    out.flush().map_err(write_error)?;
    Ok(if all_accepted { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

fn result_json(id: Option<Value>, result: Result<Checked<Value>, Rejection>, name: Option<&str>) -> Value {
    let mut line = match result {
        Ok(Checked { value, report }) => json!({
            "ok": true,
            "value": value,
            "repairs": report.repairs.iter().map(|r| json!({"kind": r.kind.code(), "offset": r.offset, "count": r.count})).collect::<Vec<_>>(),
            "coercions": report.coercions,
        }),
        Err(rejection) => {
            let rejection = match name {
                Some(name) => rejection.with_tool(name),
                None => rejection,
            };
            json!({
                "ok": false,
                "kind": rejection.kind.code(),
                "errors": rejection.errors,
                "message": rejection.to_string(),
            })
        }
    };
    if let (Some(id), Value::Object(map)) = (id, &mut line) {
        map.insert("id".to_owned(), id);
    }
    line
}

fn repair(strict: bool, complete_truncated: bool, input: Option<PathBuf>) -> Result<ExitCode, String> {
    let raw = read_input(input.as_deref())?;
    let options = ParseOptions {
        mode: if strict { ParseMode::Strict } else { ParseMode::Lenient },
        complete_truncated,
        ..ParseOptions::default()
    };
    match parse::parse_bytes(&raw, &options) {
        Ok(parsed) => {
            let mut out = io::stdout().lock();
            writeln!(out, "{}", parsed.value).map_err(|e| format!("cannot write the result: {e}"))?;
            Ok(ExitCode::SUCCESS)
        }
        Err(error) => {
            eprintln!("{error}");
            Ok(ExitCode::from(1))
        }
    }
}
