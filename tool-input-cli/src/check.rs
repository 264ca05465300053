//! `tool-input check`: the engine on any JSON Schema.

use std::borrow::Cow;
use std::fs;
use std::io::{self, BufRead, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde::Deserialize;
use serde_json::ser::CompactFormatter;
use serde_json::value::RawValue;
use serde_json::{json, Map, Value};
use tool_input::parse::{self, ParseOptions, RepairKind};
use tool_input::{CheckOptions, Checked, Limits, Policy, RawArguments, Rejection, Validator};

use crate::read_input_within;
use crate::sorted::SortedJson;

/// How `check` compiles the schema.
#[derive(Debug)]
pub(crate) struct Options {
    /// Assert `format` (`--no-formats` turns it off).
    pub formats: bool,
    /// Fill the defaults of absent properties (`--no-defaults` turns it off).
    pub defaults: bool,
    /// `--resource URI FILE`, as clap gives them: a URI, then its file, in turn.
    pub resources: Vec<String>,
    /// The limits of each check (`--max-bytes`, …); the input is read no further than its
    /// `max_bytes`.
    pub limits: Limits,
}

impl Default for Options {
    fn default() -> Self {
        Options { formats: true, defaults: true, resources: Vec::new(), limits: Limits::default() }
    }
}

/// `tool-input check`.
pub(crate) fn run(
    schema_path: &Path,
    policy: &str,
    options: &Options,
    name: Option<String>,
    jsonl: Option<PathBuf>,
    input: Option<PathBuf>,
) -> Result<ExitCode, String> {
    let schema_text =
        fs::read_to_string(schema_path).map_err(|e| format!("cannot read {}: {e}", schema_path.display()))?;
    let schema: Value = serde_json::from_str(&schema_text)
        .map_err(|e| format!("{} is not JSON: {e}", schema_path.display()))?;
    let policy: Policy = policy.parse().map_err(|e| format!("{e}"))?;
    // From the text: messages list the schema's properties in the order the file writes them,
    // in every build (a `Value` has that order only where serde_json's `preserve_order` is on).
    let mut builder = Validator::builder_from_text(&schema_text)
        .map_err(|e| e.to_string())?
        .policy(policy)
        .formats(options.formats)
        .defaults(options.defaults)
        .limits(options.limits);
    for pair in options.resources.chunks(2) {
        let [uri, path] = pair else { return Err("--resource takes a URI and a file".to_owned()) };
        let text = fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        // From the text, as the schema: its properties listed as the file writes them.
        builder = builder.resource_from_text(uri, &text).map_err(|e| format!("{path}: {e}"))?;
    }
    let validator = builder.build().map_err(|e| e.to_string())?;
    let name = name.or_else(|| schema.get("title").and_then(Value::as_str).map(str::to_owned));

    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let exit_code = |accepted: bool| if accepted { ExitCode::SUCCESS } else { ExitCode::from(1) };
    let Some(jsonl) = jsonl else {
        let limit = validator.limits().max_bytes;
        let (accepted, written) = match read_input_within(input.as_deref(), limit)? {
            Some(raw) => write_result(&mut out, &validator, None, RawArguments::Bytes(&raw), name.as_deref()),
            None => {
                write_result_line(&mut out, None, Err(Rejection::input_too_large(limit)), name.as_deref())
            }
        };
        // The call was checked: its code stands, whether or not the line could be written.
        crate::written(written.and_then(|()| out.flush()))?;
        return Ok(exit_code(accepted));
    };

    let file = fs::File::open(&jsonl).map_err(|e| format!("cannot read {}: {e}", jsonl.display()))?;
    let mut reader = io::BufReader::new(file);
    let limit = validator.limits().max_bytes;
    // A case line holds the arguments as a JSON string: escaped (`\u0000` is six bytes for
    // one), they may take up to six times their own bytes; past that, the arguments are
    // over the limit for certain, and the line is refused without being kept.
    let line_limit = limit.saturating_mul(6).saturating_add(64 * 1024);
    let mut all_accepted = true;
    for number in 1.. {
        let read_error = |e: io::Error| format!("cannot read {}: {e}", jsonl.display());
        let Some(line) = read_line_within(&mut reader, line_limit).map_err(read_error)? else { break };
        let line = match line {
            Some(line) => line,
            None => {
                all_accepted = false;
                let too_large = Err(Rejection::input_too_large(limit));
                let (_, written) = write_result_line(&mut out, Some("null"), too_large, name.as_deref());
                if crate::written(written)?.is_closed() {
                    return Ok(exit_code(all_accepted));
                }
                continue;
            }
        };
        let line = String::from_utf8(line)
            .map_err(|e| format!("cannot read {} line {number}: {e}", jsonl.display()))?;
        // A file that starts with a byte order mark (as some editors and Windows tools write
        // UTF-8) is read past it, as a single call's input is.
        let line = if number == 1 { line.strip_prefix('\u{feff}').unwrap_or(&line) } else { &line };
        if line.trim().is_empty() {
            continue;
        }
        let not_a_case =
            |e: serde_json::Error| format!("{} line {number}: not a JSON case: {e}", jsonl.display());
        let Case { id, raw } = Case::from_line(line).map_err(not_a_case)?;
        let arguments = case_arguments(raw).map_err(not_a_case)?;
        let raw = arguments.as_deref().map_or(RawArguments::Absent, RawArguments::Text);
        let id = id.map_or("null", RawValue::get);
        let (accepted, written) = write_result(&mut out, &validator, Some(id), raw, name.as_deref());
        all_accepted &= accepted;
        // Nobody reads the results any more (`| head`): the cases after are not checked.
        if crate::written(written)?.is_closed() {
            return Ok(exit_code(all_accepted));
        }
    }
    crate::written(out.flush())?;
    Ok(exit_code(all_accepted))
}

/// One case of a JSONL file (`check --jsonl`, `bench`): `{"id": ..., "raw": ...}`, its id
/// `null` when absent. Any other line (an array, a string, a field given twice) is refused
/// as a line that is not JSON is: read as a case without arguments, `{}`, it could be
/// accepted.
///
/// `raw` is kept as the text the line writes: read into a `Value`, an object's key given twice
/// kept only its last value and a number past 64 bits was rounded, where the library refuses
/// both (`duplicate_key`, `inexact`) in the same arguments sent as text.
///
/// `id` is kept as its text too, and echoed as it is: read into a `Value`, `1e2` was echoed
/// as `100.0`, `12345678901234567890123` rounded, `"\u00e9"` unescaped and an object's keys
/// sorted, and an id that no longer matches the one sent cannot be joined back to its case.
#[derive(Deserialize)]
pub(crate) struct Case<'a> {
    /// `None` when absent or `null`.
    #[serde(default, borrow)]
    pub id: Option<&'a RawValue>,
    #[serde(default, borrow)]
    pub raw: Option<&'a RawValue>,
}

impl<'a> Case<'a> {
    /// The case a line writes. serde reads a struct from an array too (`[id, raw]`, by
    /// position), so a line that is not an object is refused here.
    pub(crate) fn from_line(line: &'a str) -> serde_json::Result<Case<'a>> {
        if !line.trim_start().starts_with('{') {
            return Err(serde::de::Error::custom("expected an object with \"id\" and \"raw\""));
        }
        serde_json::from_str(line)
    }
}

/// A case's arguments as text: a string's content, else the value's own JSON text (an
/// object, or what the check refuses as not one); `None` for `raw` absent or `null` (no
/// arguments: `{}`).
pub(crate) fn case_arguments(raw: Option<&RawValue>) -> serde_json::Result<Option<Cow<'_, str>>> {
    match raw.map(RawValue::get) {
        None => Ok(None),
        Some(text) if text.starts_with('"') => match serde_json::from_str::<String>(text) {
            Ok(string) => Ok(Some(Cow::Owned(string))),
            // A lone surrogate escape (`"\ud800"`, half of an emoji a model's tokens split) is
            // JSON, but no Rust string holds it: it is read as U+FFFD, as the library reads a
            // response body's arguments string (`parse_body`), rather than the line refused
            // and the whole file with it. Anything else wrong is still not a case.
            Err(error) => lone_surrogates_only(text).map(|string| Some(Cow::Owned(string))).ok_or(error),
        },
        Some(text) => Ok(Some(Cow::Borrowed(text))),
    }
}

/// A JSON string whose only fault is one or more lone surrogate escapes, each read as U+FFFD;
/// `None` when it has another, or none.
fn lone_surrogates_only(text: &str) -> Option<String> {
    // Every lone surrogate is written as an escape: text without one has none. Read in the
    // repair mode, which keeps a string a string (the arguments' mode would read the JSON
    // inside it); any repair but this one means another fault.
    if !text.contains("\\u") {
        return None;
    }
    let parsed = parse::parse(text, &ParseOptions::repair().with_max_bytes(usize::MAX)).ok()?;
    let only = |kind: RepairKind| kind == RepairKind::LoneSurrogate;
    match parsed.value {
        Value::String(string)
            if !parsed.repairs.is_empty() && parsed.repairs.iter().all(|r| only(r.kind)) =>
        {
            Some(string)
        }
        _ => None,
    }
}

/// Check one call and write its result line; `true` when it was accepted.
///
/// The call is checked into the printed text itself ([`crate::sorted`]): a call the one-pass
/// check decides is written as it is read, without a `serde_json::Value` of it, so a large
/// call costs its text and its printed value, not a tree four to five times its size. A
/// rejection is printed from its `Value`; the lines are the same byte for byte either way.
///
/// `id`: the case's id as JSON text, echoed as it is (`check --jsonl`). Whether the call
/// was accepted, and whether its line was written: the verdict stands either way.
pub(crate) fn write_result(
    out: &mut impl Write,
    validator: &Validator,
    id: Option<&str>,
    raw: RawArguments<'_>,
    name: Option<&str>,
) -> (bool, io::Result<()>) {
    match validator.check_into::<SortedJson>(raw, &CheckOptions::default()) {
        Ok(checked) => (true, crate::sorted::write_accepted(out, id, checked).and_then(|()| writeln!(out))),
        Err(rejection) => write_result_line(out, id, Err(rejection), name),
    }
}

/// Write the result line of a checked call: whether it was accepted, and whether the line
/// was written.
fn write_result_line(
    out: &mut impl Write,
    id: Option<&str>,
    result: Result<Checked<Value>, Rejection>,
    name: Option<&str>,
) -> (bool, io::Result<()>) {
    let accepted = result.is_ok();
    let line = result_json(result, name);
    (accepted, write_line(out, &line, id).and_then(|()| writeln!(out)))
}

/// A result line (an object, its keys sorted) as compact JSON, with `"id"` and the JSON text
/// `id` in its place among the keys when there is one; serialized straight into the buffered
/// writer, not into a `String` first.
pub(crate) fn write_line(out: &mut impl Write, line: &Value, id: Option<&str>) -> io::Result<()> {
    let id = id.map(|id| ("id", id));
    crate::sorted::write_json(out, &mut CompactFormatter, line, id.as_slice(), &|_, _| None)
}

/// The next line of `reader` (without its line break): `None` at the end; `Some(None)` for a
/// line longer than `limit` bytes, which is read past without being kept.
fn read_line_within(reader: &mut impl BufRead, limit: usize) -> io::Result<Option<Option<Vec<u8>>>> {
    let mut line = Vec::new();
    let cap = u64::try_from(limit).unwrap_or(u64::MAX).saturating_add(1);
    if reader.by_ref().take(cap).read_until(b'\n', &mut line)? == 0 {
        return Ok(None);
    }
    if line.last() == Some(&b'\n') {
        line.pop();
        return Ok(Some(Some(line)));
    }
    if line.len() <= limit {
        return Ok(Some(Some(line))); // the last line, without a line break
    }
    // Too long: skip to the end of the line.
    loop {
        let buffer = reader.fill_buf()?;
        if buffer.is_empty() {
            break;
        }
        match buffer.iter().position(|&b| b == b'\n') {
            Some(end) => {
                reader.consume(end + 1);
                break;
            }
            None => {
                let all = buffer.len();
                reader.consume(all);
            }
        }
    }
    Ok(Some(None))
}

/// The result line: `{"ok": true, "value", "repairs", "coercions"}` (and
/// `"omitted_coercions"` when `Limits::max_coercions` cut the records) or `{"ok": false}` with
/// the [`Rejection`]'s fields ([`write_line`] adds `"id"` for a case of a JSONL file). The
/// records are the library's `Serialize` shapes; the map orders the keys.
pub(crate) fn result_json(result: Result<Checked<Value>, Rejection>, name: Option<&str>) -> Value {
    let mut line = match result {
        Ok(Checked { value, report }) => {
            // Built by hand, not with `json!`: `json!` serializes each field into a new
            // `Value`, which for `value` is a full copy of what may be a megabyte-sized call.
            // Moved in here instead.
            let mut map = Map::new();
            map.insert("ok".to_owned(), Value::Bool(true));
            map.insert("value".to_owned(), value);
            map.insert("repairs".to_owned(), json!(report.repairs));
            map.insert("coercions".to_owned(), json!(report.coercions));
            if report.omitted_coercions > 0 {
                map.insert("omitted_coercions".to_owned(), json!(report.omitted_coercions));
            }
            Value::Object(map)
        }
        Err(rejection) => {
            let rejection = match name {
                Some(name) => rejection.with_tool(name),
                None => rejection,
            };
            let mut line = json!(rejection);
            if let Value::Object(map) = &mut line {
                map.insert("ok".to_owned(), Value::Bool(false));
            }
            line
        }
    };
    crate::sort_keys(&mut line);
    line
}
