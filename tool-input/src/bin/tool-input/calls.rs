//! `tool-input calls`: the tool calls of one response body, from any API or written as text.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use serde_json::json;
use tool_input::calls::{parse_body, CallOptions, Format};

use crate::read_input;

/// `tool-input calls`.
pub(crate) fn run(format: &str, tools: Option<String>, input: Option<PathBuf>) -> Result<ExitCode, String> {
    let format: Format = format.parse().map_err(|e| format!("{e}"))?;
    let mut options = CallOptions::new().format(format);
    if let Some(tools) = tools {
        options = options.tools(tools.split(',').map(str::trim).filter(|name| !name.is_empty()));
    }
    let body = read_input(input.as_deref())?;
    let (result, failed) = match parse_body(&body, &options) {
        Ok(calls) => (calls.to_json(), !calls.errors.is_empty()),
        // A body that cannot be read at all is one error, in the same shape.
        Err(error) => {
            (json!({"calls": [], "errors": [{"kind": error.code(), "message": error.to_string()}]}), true)
        }
    };
    let mut out = io::stdout().lock();
    writeln!(out, "{result}").map_err(|e| format!("cannot write the result: {e}"))?;
    Ok(if failed { ExitCode::from(1) } else { ExitCode::SUCCESS })
}
