//! `tool-input repair`: the parser alone, on any JSON value, in its repair mode.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use tool_input::parse::{self, ParseOptions, RepairStyle};

use crate::read_input;

/// `tool-input repair`: [`ParseOptions::repair`] (every repair, including the guesses at
/// structure that tool arguments never get, and `NaN` as `null`), or strict JSON with
/// `--strict`; `--complete-truncated` closes what was cut off (`--settled`: as final text,
/// [`ParseOptions::stream_stable`] false); `--style json_repair` follows the Python library
/// where the two repair libraries differ ([`RepairStyle`]).
pub(crate) fn run(
    strict: bool,
    complete_truncated: bool,
    settled: bool,
    style: &str,
    input: Option<PathBuf>,
) -> Result<ExitCode, String> {
    let raw = read_input(input.as_deref())?;
    let base = if strict { ParseOptions::strict() } else { ParseOptions::repair() };
    let style = if style == "json_repair" { RepairStyle::JsonRepair } else { RepairStyle::Jsonrepair };
    let options =
        base.with_complete_truncated(complete_truncated).with_stream_stable(!settled).with_style(style);
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
