//! `tool-input`: the engine of the `tool-input` crate on any JSON Schema, for any language.
//!
//! ```text
//! tool-input check --schema FILE [--policy strict|default|lenient] [--name NAME] [--no-formats] [--no-defaults] [--resource URI FILE]... [INPUT]
//! tool-input check --schema FILE --jsonl CASES.jsonl
//! tool-input repair [--strict] [--complete-truncated [--settled]] [--style jsonrepair|json_repair] [--require-json] [INPUT]
//! tool-input bench --schema FILE WORKLOAD.jsonl   # time; and check's peak memory on the largest case
//! tool-input calls [--format auto|openai|responses|anthropic|gemini|ollama|text|text:<name>] [--tools a,b,c] [--stream] [--run-completed] [INPUT]
//! # check and bench: [--max-bytes N] [--max-depth N] [--max-echo-chars N] [--max-string-bytes N] [--max-errors N] [--max-coercions N]
//! # repair and calls: [--max-bytes N] [--max-depth N]
//! tool-input schema --dialect openai|openai-strict|responses|responses-strict|anthropic|gemini|mcp [--name N] [--description D] [--check] SCHEMA_FILE
//! ```
//! Exit codes: 0 accepted, 1 rejected, 2 usage error. A closed standard output (`| head`)
//! is no error: the program stops writing, says nothing, and exits with the code of what it
//! decided.

use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use limits::LimitFlags;

mod bench;
mod calls;
mod check;
mod limits;
mod repair;
mod schema;
mod sorted;

#[derive(Debug, Parser)]
#[command(
    name = "tool-input",
    version,
    about = "Check and repair tool-call arguments against a JSON Schema",
    after_help = "A standard output its reader closed (`| head`) is no error: the program stops writing, \
                  says nothing, and exits with the code of what it decided."
)]
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
        /// Read `format` as an annotation only (by default it is asserted: a string not in
        /// its format's grammar is a `format` error).
        #[arg(long)]
        no_formats: bool,
        /// Read `default` as an annotation only (by default the default of a property the
        /// call leaves out is filled in, and a default its own schema refuses is a schema
        /// error).
        #[arg(long)]
        no_defaults: bool,
        /// A schema document the schema's `$ref`s may lead to at URI (shared definitions it
        /// names by URI), read from FILE; repeat for more. References are never fetched.
        #[arg(long, num_args = 2, value_names = ["URI", "FILE"], action = clap::ArgAction::Append)]
        resource: Vec<String>,
        /// Check every case of a JSONL file (`{"id": ..., "raw": "..."}` per line) and print
        /// one result line per case, with its id as the line writes it (`1e2` stays `1e2`).
        #[arg(long, value_name = "FILE", conflicts_with = "input")]
        jsonl: Option<PathBuf>,
        /// The raw arguments (bytes); standard input when absent or `-`.
        input: Option<PathBuf>,
        #[command(flatten)]
        limits: LimitFlags,
    },
    /// Time the whole pipeline on a JSONL workload (`{"id", "raw"}` per line) and print one
    /// JSON line: `{"workload", "cases", "ok", "rejected", "ns_per_case"}`, the median of 5
    /// in-process passes after a warm-up pass; then, on Linux, the peak memory of `check` on
    /// the largest case: `"input_bytes"` (its size), `"peak_rss_bytes"` and
    /// `"baseline_rss_bytes"` (the peak resident memory of a new `check` process on it and on
    /// `{}`, the least of 3 runs each) and `"peak_ratio"` (the peak above the baseline over
    /// the input; `null` below 64 KiB of input).
    Bench {
        /// The JSON Schema of the arguments.
        #[arg(long, value_name = "FILE")]
        schema: PathBuf,
        /// The workload.
        workload: PathBuf,
        // The limits of each check, and of the `check` whose memory is measured.
        #[command(flatten)]
        limits: LimitFlags,
    },
    /// Read the tool calls of one response body or recorded stream (any API), or of raw
    /// assistant text; print `{"calls": [{"id", "name", "arguments"}], "errors": [{"kind",
    /// "message", "id", "id_generated", "name", "arguments", "arguments_cut"}], "content",
    /// "reasoning"}` (the text left beside the calls, and the reasoning apart).
    ///
    /// A body that cannot be read at all is `{"calls": [], "errors": [{"kind": "body",
    /// "message"}]}`. A response that says the model called a tool but holds no call
    /// (Gemini's `MALFORMED_FUNCTION_CALL`, `finish_reason: "tool_calls"` with none) adds
    /// `"missing_call": {"kind", "reason", "message"}`. Exits 0 when every call was read, 1
    /// when any failed or is missing, 2 on usage errors.
    Calls {
        /// The body's API, or `text` for raw assistant text; `auto` detects it. With
        /// `text:<name>` (a vLLM tool parser's name: `text:hermes`, `text:openai`,
        /// `text:minimax_m2`, …) only that text format is read; with `text` it is detected
        /// from its markers.
        #[arg(long, default_value = "auto", value_parser = calls::parse_format_arg)]
        format: String,
        /// The tools the model was given, comma-separated: names are matched against them,
        /// and text that merely looks like a call to another name stays text.
        #[arg(long, value_name = "a,b,c")]
        tools: Option<String>,
        /// Read a recorded stream instead of a body: one JSON event per line, or SSE
        /// framing (`event:`/`data:` lines, `data: [DONE]`); with `--format text`, one JSON
        /// string per line, each a chunk of text. Calls the stream did not finish are
        /// `truncated` errors. The body is read as it arrives, up to the stream limit
        /// (64 MiB; past it a `stream_too_large` error).
        #[arg(long)]
        stream: bool,
        /// Return the calls that arrived whole in a response that was cut off (a length
        /// stop, a stream without its end marker) as calls; by default they are
        /// `incomplete` errors and nothing of a cut response runs.
        #[arg(long)]
        run_completed: bool,
        /// The response body, stream or text; standard input when absent or `-`.
        input: Option<PathBuf>,
        /// The longest arguments of one call, in bytes (default 8388608, 8 MiB): longer are
        /// a `too_large` error (streamed, as soon as they pass it). The whole body stays
        /// within its own limit (32 MiB; a stream, 64 MiB).
        #[arg(long, value_name = "N", value_parser = limits::limit, allow_negative_numbers = true, help_heading = "Limits")]
        max_bytes: Option<usize>,
        /// The deepest nesting of arrays and objects in one call's arguments (default 128, at
        /// most 10000): deeper is a `too_deep` error.
        #[arg(long, value_name = "N", value_parser = limits::depth, allow_negative_numbers = true, help_heading = "Limits")]
        max_depth: Option<usize>,
    },
    /// Print a JSON Schema as a tool definition for an API; with `--check`, print what the
    /// API's documented limits would reject instead.
    ///
    /// Exits 0, or 1 when `--check` finds a problem, 2 on usage errors.
    Schema {
        /// The API the definition is for.
        #[arg(long, value_parser = ["openai", "openai-strict", "responses", "responses-strict", "anthropic", "gemini", "mcp"])]
        dialect: String,
        /// The tool's name (default: the schema's `title`, else the file's name).
        #[arg(long)]
        name: Option<String>,
        /// The tool's description (default: the schema's `description`).
        #[arg(long)]
        description: Option<String>,
        /// Print `{"ok", "problems": [{"pointer", "code", "message"}]}` instead of the definition.
        #[arg(long)]
        check: bool,
        /// The JSON Schema of the arguments.
        schema: PathBuf,
    },
    /// `check` under the default policy on standard input, then this process's peak resident
    /// memory in bytes on standard error (Linux; nothing elsewhere): what `bench` measures.
    #[command(name = "__check-peak", hide = true)]
    CheckPeak {
        #[arg(long, value_name = "FILE")]
        schema: PathBuf,
        #[command(flatten)]
        limits: LimitFlags,
    },
    /// Parse any JSON value leniently and print it repaired, compact, keys sorted.
    ///
    /// A number keeps its value: written as JSON, it is printed as it was written (`1e2`,
    /// `0.50`, `12345678901234567890123`, `1e400`); repaired, as JSON of the same value
    /// (`.5` is `0.5`, `0x10` is `16`).
    ///
    /// Exits 0 with the JSON on standard output, or 1 with the error on standard error
    /// (with `--require-json`, also when the input is only text).
    Repair {
        /// Accept strict JSON only.
        #[arg(long)]
        strict: bool,
        /// Close what was cut off (strings, arrays, objects, literals), for showing partial
        /// output. Never use this for arguments a tool will run with.
        #[arg(long)]
        complete_truncated: bool,
        /// With `--complete-truncated`: the text will not grow, so complete it as final
        /// (json_repair's default: a final backslash kept, trailing white space dropped)
        /// rather than as a stream whose completed value only grows.
        #[arg(long, requires = "complete_truncated")]
        settled: bool,
        /// Whose reading to follow where the repair libraries differ: jsonrepair
        /// (JavaScript; `{"a": }` is `{"a": null}`) or json_repair (Python; `{"a": ""}`).
        #[arg(long, default_value = "jsonrepair", value_parser = ["jsonrepair", "json_repair"])]
        style: String,
        /// Exit 1, printing nothing on standard output, when the input holds no JSON at
        /// all, only text (by default such text is printed as a JSON string, as jsonrepair
        /// does: `no json here` is `"no json here"`).
        #[arg(long)]
        require_json: bool,
        /// The text to repair; standard input when absent or `-`.
        input: Option<PathBuf>,
        /// The longest input accepted, in bytes (default 8388608, 8 MiB): a longer one exits
        /// 1, read no further than one byte past the limit.
        #[arg(long, value_name = "N", value_parser = limits::limit, allow_negative_numbers = true, help_heading = "Limits")]
        max_bytes: Option<usize>,
        /// The deepest nesting of arrays and objects accepted (default 128, at most 10000):
        /// deeper exits 1.
        #[arg(long, value_name = "N", value_parser = limits::depth, allow_negative_numbers = true, help_heading = "Limits")]
        max_depth: Option<usize>,
    },
}

fn main() -> ExitCode {
    let command = Cli::parse().command;
    // Nesting past the default takes stack: the command then runs on a thread with enough
    // (within the default, right here).
    let depth = limits::parse_limits(None, command.max_depth());
    let result = depth
        .run_with_stack(move || run(command))
        .unwrap_or_else(|e| Err(format!("no stack for --max-depth {}: {e}", depth.max_depth)));
    match result {
        Ok(code) => code,
        Err(message) => {
            say(format_args!("tool-input: {message}"));
            ExitCode::from(2)
        }
    }
}

impl Command {
    /// `--max-depth`, where the command takes it and it was given.
    fn max_depth(&self) -> Option<usize> {
        match self {
            Command::Check { limits, .. }
            | Command::Bench { limits, .. }
            | Command::CheckPeak { limits, .. } => limits.max_depth,
            Command::Calls { max_depth, .. } | Command::Repair { max_depth, .. } => *max_depth,
            Command::Schema { .. } => None,
        }
    }
}

/// Run the command: its exit code, or the message of a usage error (exit 2).
fn run(command: Command) -> Result<ExitCode, String> {
    match command {
        Command::Check { schema, policy, name, no_formats, no_defaults, resource, jsonl, input, limits } => {
            let options = check::Options {
                formats: !no_formats,
                defaults: !no_defaults,
                resources: resource,
                limits: limits.limits(),
            };
            check::run(&schema, &policy, &options, name, jsonl, input)
        }
        Command::Repair {
            strict,
            complete_truncated,
            settled,
            style,
            require_json,
            input,
            max_bytes,
            max_depth,
        } => {
            let limits = limits::parse_limits(max_bytes, max_depth);
            repair::run(strict, complete_truncated, settled, &style, require_json, &limits, input)
        }
        Command::Bench { schema, workload, limits } => bench::run(&schema, &workload, &limits),
        Command::CheckPeak { schema, limits } => {
            let options = check::Options { limits: limits.limits(), ..check::Options::default() };
            let result = check::run(&schema, "default", &options, None, None, None);
            if let Some(peak) = peak_rss_bytes() {
                say(peak);
            }
            result
        }
        Command::Calls { format, tools, stream, run_completed, input, max_bytes, max_depth } => calls::run(
            &format,
            tools,
            stream,
            run_completed,
            &limits::parse_limits(max_bytes, max_depth),
            input,
        ),
        Command::Schema { dialect, name, description, check, schema } => {
            schema::run(&dialect, name, description, check, &schema)
        }
    }
}

/// Write a line to standard error, as `eprintln!` does, but never panic: when standard error
/// is a closed pipe (`2>&1 | head -c1`) there is nowhere left to say it, and `eprintln!`'s
/// panic would turn the documented exit code (1 or 2) into 101.
pub(crate) fn say(message: impl std::fmt::Display) {
    use std::io::Write;
    let _ = writeln!(io::stderr(), "{message}");
}

/// What became of a result written to standard output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Written {
    /// It was written.
    Whole,
    /// Standard output is a closed pipe: its reader stopped reading (`| head -1`).
    Closed,
}

impl Written {
    pub(crate) fn is_closed(self) -> bool {
        self == Written::Closed
    }
}

/// The outcome of writing a result to standard output. A closed pipe is no error (the reader
/// took what it wanted, as `| head` does): the program stops writing and exits quietly with
/// the code of what it decided, as ripgrep and other Unix tools end on one, never exit 2 with
/// a message nobody asked for. Any other failure (a full disk) is `Err`, the message of an
/// exit 2.
pub(crate) fn written(result: io::Result<()>) -> Result<Written, String> {
    match result {
        Ok(()) => Ok(Written::Whole),
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => Ok(Written::Closed),
        Err(error) => Err(format!("cannot write the result: {error}")),
    }
}

/// The name of the hidden command `bench` runs to measure `check`'s peak memory.
pub(crate) const CHECK_PEAK: &str = "__check-peak";

/// This process's peak resident memory so far, in bytes (`VmHWM`, Linux only).
fn peak_rss_bytes() -> Option<u64> {
    let status = fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find_map(|line| line.strip_prefix("VmHWM:"))?;
    let kilobytes: u64 = line.trim().strip_suffix("kB")?.trim().parse().ok()?;
    Some(kilobytes * 1024)
}

/// The bytes of INPUT (or standard input) when there are at most `limit` of them; `None`
/// when there are more. Reading stops one byte past the limit: an endless or huge input
/// costs `limit` bytes of memory and no more reading than that.
pub(crate) fn read_input_within(input: Option<&Path>, limit: usize) -> Result<Option<Vec<u8>>, String> {
    let cap = u64::try_from(limit).unwrap_or(u64::MAX).saturating_add(1);
    let mut bytes = Vec::new();
    let read = match input {
        None => io::stdin().lock().take(cap).read_to_end(&mut bytes),
        Some(path) if path == Path::new("-") => io::stdin().lock().take(cap).read_to_end(&mut bytes),
        Some(path) => fs::File::open(path)
            .and_then(|file| {
                // A file says its length: the buffer is made that size once, rather than
                // doubled as it fills (which may hold twice the input).
                let length = file.metadata().map_or(0, |metadata| metadata.len());
                bytes.reserve_exact(usize::try_from(length.min(cap)).unwrap_or(0));
                file.take(cap).read_to_end(&mut bytes)
            })
            .map_err(|e| io::Error::new(e.kind(), format!("cannot read {}: {e}", path.display()))),
    };
    read.map_err(|e| match input {
        Some(path) if path != Path::new("-") => e.to_string(),
        _ => format!("cannot read standard input: {e}"),
    })?;
    Ok((bytes.len() <= limit).then_some(bytes))
}

/// Sort every object's keys in `value`, so the program prints the same JSON in every build:
/// serde_json keeps keys sorted unless its `preserve_order` feature is on, and another crate
/// in the build (rig-core, for one) may switch that on for everyone. No work when it is off.
pub(crate) fn sort_keys(value: &mut serde_json::Value) {
    if maps_keep_insertion_order() {
        sort_all(value);
    }
}

/// Do `serde_json`'s maps keep insertion order in this build? Probed once.
fn maps_keep_insertion_order() -> bool {
    static KEEPS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *KEEPS.get_or_init(|| {
        let mut probe = serde_json::Map::new();
        probe.insert("b".to_owned(), serde_json::Value::Null);
        probe.insert("a".to_owned(), serde_json::Value::Null);
        probe.keys().next().is_some_and(|first| first == "b")
    })
}

fn sort_all(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Object(map) => {
            map.sort_keys();
            map.values_mut().for_each(sort_all);
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(sort_all),
        _ => {}
    }
}

pub(crate) fn too_large_message(limit: usize) -> String {
    format!("the input is more than the limit of {limit} bytes")
}
