//! `tool-input repair`: the parser alone, on any JSON value, in its repair mode.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use tool_input::parse::{self, ParseOptions, ParsedJson, RepairKind, RepairStyle};
use tool_input::Limits;

use crate::{read_input_within, say, too_large_message};

/// `tool-input repair`: [`ParseOptions::repair`] (every repair, including the guesses at
/// structure that tool arguments never get, and `NaN` as `null`), or strict JSON with
/// `--strict`; `--complete-truncated` closes what was cut off (`--settled`: as final text,
/// [`ParseOptions::stream_stable`] false); `--style json_repair` follows the Python library
/// where the two repair libraries differ ([`RepairStyle`]); `--require-json` refuses input
/// that holds no JSON, only text ([`only_text`]). The input is held to `limits`' `max_bytes`
/// and `max_depth` (`--max-bytes`, `--max-depth`), the two that bound a parse.
pub(crate) fn run(
    strict: bool,
    complete_truncated: bool,
    settled: bool,
    style: &str,
    require_json: bool,
    limits: &Limits,
    input: Option<PathBuf>,
) -> Result<ExitCode, String> {
    let base = if strict { ParseOptions::strict() } else { ParseOptions::repair() };
    let base = base.with_max_bytes(limits.max_bytes).with_max_depth(limits.max_depth);
    let Some(raw) = read_input_within(input.as_deref(), base.max_bytes)? else {
        say(too_large_message(base.max_bytes));
        return Ok(ExitCode::from(1));
    };
    let style = if style == "json_repair" { RepairStyle::JsonRepair } else { RepairStyle::Jsonrepair };
    let options =
        base.with_complete_truncated(complete_truncated).with_stream_stable(!settled).with_style(style);
    // Written from the parse with each number as the input wrote it: through a
    // `serde_json::Value`, a long integer was rounded and a float re-spelled.
    match parse::parse_to_json(&raw, &options) {
        Ok(parsed) if require_json && only_text(&parsed, &raw) => {
            say("no JSON found: the input is text without a JSON value in it");
            Ok(ExitCode::from(1))
        }
        Ok(parsed) => {
            let mut out = io::stdout().lock();
            crate::written(writeln!(out, "{}", parsed.json))?;
            Ok(ExitCode::SUCCESS)
        }
        Err(error) => {
            say(error);
            Ok(ExitCode::from(1))
        }
    }
}

/// Did the repair find nothing structured: is the value only text read as strings (one
/// string, or several lines of it collected into an array), starting with text without
/// quotes at the input's first character? `no json here` is; `"a quoted string"`,
/// `'single'`, `123 apples` (a number) and anything holding an object or array are not.
fn only_text(parsed: &ParsedJson, raw: &[u8]) -> bool {
    let text = raw.strip_prefix("\u{feff}".as_bytes()).unwrap_or(raw);
    let skipped = raw.len() - text.len();
    let first = skipped + text.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(text.len());
    let unquoted_first =
        parsed.repairs.iter().any(|r| r.kind == RepairKind::UnquotedString && r.offset == first);
    // The value's JSON is read again only when the text starts unquoted.
    unquoted_first
        && (parsed.json.starts_with('"')
            || (parsed.repairs.iter().any(|r| r.kind == RepairKind::MultipleValues)
                && serde_json::from_str::<Vec<String>>(&parsed.json).is_ok()))
}
