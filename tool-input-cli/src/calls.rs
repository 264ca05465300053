//! `tool-input calls`: the tool calls of one response body, or of one recorded stream, from
//! any API or written as text.

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde_json::ser::CompactFormatter;
use serde_json::{json, Value};
use tool_input::calls::{
    parse_body, CallOptions, Calls, Format, OriginalArguments, TextFormat, ToolCall, DEFAULT_MAX_BODY_BYTES,
};
use tool_input::parse::{self, ParseOptions};
use tool_input::stream::{StreamAssembler, DEFAULT_MAX_STREAM_BYTES};
use tool_input::Limits;

use crate::read_input_within;
use crate::sorted::{write_json, Step};

/// `tool-input calls`.
pub(crate) fn run(
    format: &str,
    tools: Option<String>,
    stream: bool,
    run_completed: bool,
    limits: &Limits,
    input: Option<PathBuf>,
) -> Result<ExitCode, String> {
    let (format, text_format) = split_format(format)?;
    let mut options = CallOptions::new().format(format).run_completed_calls(run_completed).limits(*limits);
    if let Some(text_format) = text_format {
        options = options.text_format(text_format);
    }
    if let Some(tools) = tools {
        options = options.tools(tools.split(',').map(str::trim).filter(|name| !name.is_empty()));
    }
    let (mut result, arguments, failed) = if stream {
        // A recorded stream: one JSON event per line, or an SSE body (with `--format text`,
        // one JSON string per line, each a text chunk). The bytes are fed as they arrive,
        // so memory stays that of the calls, and a line that is not UTF-8 damages only the
        // calls it touches. A streamed call is held to `--max-bytes` as it arrives, not only
        // once it is read (by default the two limits are the same 8 MiB).
        let mut assembler = StreamAssembler::new(options).max_call_bytes(limits.max_bytes);
        feed_stream(input.as_deref(), &mut assembler)?;
        let calls = assembler.finish();
        (with_text(&calls), arguments_as_sent(&calls), !calls.is_ok())
    } else {
        // Read no further than the library reads a body (`CallOptions::max_body_bytes`): a
        // body past that is refused unread, naming the limit `parse_body` would name.
        match read_input_within(input.as_deref(), DEFAULT_MAX_BODY_BYTES)? {
            Some(body) => match parse_body(&body, &options) {
                Ok(calls) => (with_text(&calls), arguments_as_sent(&calls), !calls.is_ok()),
                // A body that cannot be read at all is one error, in the same shape.
                Err(error) => (json!({"calls": [], "errors": [error]}), Vec::new(), true),
            },
            None => {
                let message = format!("the body is more than the limit of {DEFAULT_MAX_BODY_BYTES} bytes");
                (json!({"calls": [], "errors": [{"kind": "body", "message": message}]}), Vec::new(), true)
            }
        }
    };
    crate::sort_keys(&mut result);
    let mut out = io::stdout().lock();
    crate::written(write_result(&mut out, &result, &arguments).and_then(|()| writeln!(out)))?;
    Ok(if failed { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// `--format`: an API, `text`, or `text:<name>` with a text format's name.
pub(crate) fn parse_format_arg(value: &str) -> Result<String, String> {
    split_format(value).map(|_| value.to_owned())
}

fn split_format(value: &str) -> Result<(Format, Option<TextFormat>), String> {
    match value.split_once(':') {
        Some(("text", name)) => Ok((Format::Text, Some(name.parse::<TextFormat>()?))),
        _ => Ok((value.parse::<Format>().map_err(|e| format!("{e}"))?, None)),
    }
}

/// The calls and errors, with the content left beside them and the reasoning apart.
fn with_text(calls: &Calls) -> Value {
    let mut result = calls.to_json();
    if let Value::Object(map) = &mut result {
        map.insert("content".to_owned(), json!(calls.content));
        map.insert("reasoning".to_owned(), json!(calls.reasoning));
    }
    result
}

/// Each call's arguments as compact JSON with every number as the model wrote it, where the
/// call's arguments were sent as text and that text reads as exactly the call's `arguments`
/// (`None` otherwise: printed from the value). Printed from a `serde_json::Value`,
/// `12345678901234567890123` is rounded to `1.2345678901234568e+22` and
/// `0.1000000000000000055511151231257827` shortened to `0.1`.
fn arguments_as_sent(calls: &Calls) -> Vec<Option<String>> {
    calls.calls.iter().map(arguments_text).collect()
}

fn arguments_text(call: &ToolCall) -> Option<String> {
    let OriginalArguments::Text(text) = &call.original else { return None };
    let unlimited = |options: ParseOptions| options.with_max_bytes(usize::MAX);
    let json = parse::parse_to_json(text.as_bytes(), &unlimited(ParseOptions::default())).ok()?.json;
    // Only a text whose value is the call's: the record's reading decides what the call is.
    let read = parse::parse(&json, &unlimited(ParseOptions::strict())).ok()?;
    (read.value.as_object() == Some(&call.arguments)).then_some(json)
}

/// The result (an object, keys sorted) as compact JSON, each call's `arguments` the text in
/// `arguments` where there is one.
fn write_result(out: &mut impl Write, result: &Value, arguments: &[Option<String>]) -> io::Result<()> {
    let as_sent = |path: &[Step<'_>], _: &Value| match path {
        [Step::Key("calls"), Step::Index(index), Step::Key("arguments")] => arguments.get(*index)?.as_deref(),
        _ => None,
    };
    write_json(out, &mut CompactFormatter, result, &[], &as_sent)
}

/// Feed the stream to the assembler as it is read, in pieces, and stop reading one byte
/// past the stream limit (the assembler reports the stream as too large).
fn feed_stream(input: Option<&Path>, assembler: &mut StreamAssembler) -> Result<(), String> {
    let reader: Box<dyn Read> = match input {
        None => Box::new(io::stdin().lock()),
        Some(path) if path == Path::new("-") => Box::new(io::stdin().lock()),
        Some(path) => Box::new(File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?),
    };
    let mut reader = reader.take(DEFAULT_MAX_STREAM_BYTES as u64 + 1);
    let mut buffer = vec![0; 64 * 1024];
    loop {
        match reader.read(&mut buffer) {
            Ok(0) => return Ok(()),
            Ok(read) => assembler.push_sse_bytes(&buffer[..read]),
            Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
            // Named as the other commands name what they could not read (a directory opens,
            // and fails only here).
            Err(error) => {
                return Err(match input {
                    Some(path) if path != Path::new("-") => {
                        format!("cannot read {}: {error}", path.display())
                    }
                    _ => format!("cannot read standard input: {error}"),
                })
            }
        }
    }
}
