//! `tool-input repair`: the lenient parser alone, on any JSON value.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use tool_input::parse::{self, ParseMode, ParseOptions};

use crate::read_input;

/// `tool-input repair`.
pub(crate) fn run(
    strict: bool,
    complete_truncated: bool,
    input: Option<PathBuf>,
) -> Result<ExitCode, String> {
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
