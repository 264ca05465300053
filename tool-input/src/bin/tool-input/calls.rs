//! `tool-input calls`: the tool calls of one response body, or of one recorded stream, from
//! any API or written as text.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use serde_json::json;
use tool_input::calls::{parse_body, CallOptions, Format};
use tool_input::stream::StreamAssembler;

use crate::read_input;

/// `tool-input calls`.
pub(crate) fn run(
    format: &str,
    tools: Option<String>,
    stream: bool,
    input: Option<PathBuf>,
) -> Result<ExitCode, String> {
    let format: Format = format.parse().map_err(|e| format!("{e}"))?;
    let mut options = CallOptions::new().format(format);
    if let Some(tools) = tools {
        options = options.tools(tools.split(',').map(str::trim).filter(|name| !name.is_empty()));
    }
    let body = read_input(input.as_deref())?;
    let (result, failed) = if stream {
        // A recorded stream: one JSON event per line, or an SSE body (with `--format text`,
        // one JSON string per line, each a text chunk). The bytes are fed as they would
        // arrive, so a line that is not UTF-8 damages only the calls it touches.
        let mut assembler = StreamAssembler::new(options);
        assembler.push_sse_bytes(&body);
        let calls = assembler.finish();
        (calls.to_json(), !calls.errors.is_empty())
    } else {
        match parse_body(&body, &options) {
            Ok(calls) => (calls.to_json(), !calls.errors.is_empty()),
            // A body that cannot be read at all is one error, in the same shape.
            Err(error) => (json!({"calls": [], "errors": [error]}), true),
        }
    };
    let mut out = io::stdout().lock();
    writeln!(out, "{result}").map_err(|e| format!("cannot write the result: {e}"))?;
    Ok(if failed { ExitCode::from(1) } else { ExitCode::SUCCESS })
}
