//! The limit flags (`--max-bytes N`, `--max-depth N`, `--max-echo-chars N`,
//! `--max-string-bytes N`, `--max-errors N`, `--max-coercions N`) through the program: each
//! on an input just within its limit and one just past it, the exit code and the output that
//! names the limit; and values out of range as usage errors naming the flag.

mod cli_support;

use std::path::{Path, PathBuf};
use std::process::Output;

use cli_support::{run, stdout_json};
use serde_json::{json, Value};

/// A directory of its own for each test's files.
fn scratch(name: &str) -> PathBuf {
    let dir =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cli_limits-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("the scratch directory");
    dir
}

/// `schema` written to a file of `dir`; its path.
fn schema_file(dir: &Path, schema: &Value) -> String {
    let path = dir.join("schema.json");
    std::fs::write(&path, schema.to_string()).unwrap();
    path.to_string_lossy().into_owned()
}

/// `check --schema SCHEMA` with `flags`, `raw` on standard input: exit code and JSON.
fn check(schema: &str, flags: &[&str], raw: &[u8]) -> (Option<i32>, Value) {
    let mut args = vec!["check", "--schema", schema];
    args.extend_from_slice(flags);
    let output = run(&args, raw);
    (output.status.code(), stdout_json(&output))
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn check_max_bytes_refuses_past_the_limit_and_names_it() {
    let dir = scratch("max-bytes");
    let schema = schema_file(&dir, &json!({"type": "object"}));
    let raw = br#"{"a": "some text"}"#;
    let fits = raw.len().to_string();
    let (code, result) = check(&schema, &["--max-bytes", &fits], raw);
    assert_eq!((code, &result["ok"]), (Some(0), &json!(true)), "{result}");
    let under = (raw.len() - 1).to_string();
    let (code, result) = check(&schema, &["--max-bytes", &under], raw);
    assert_eq!(code, Some(1));
    assert_eq!(result["kind"], "too_large");
    assert_eq!(result["errors"][0]["message"], format!("the input is more than the limit of {under} bytes"));

    // `--jsonl`: each case is held to it too.
    let cases = dir.join("cases.jsonl");
    let lines = [json!({"id": 1, "raw": "{\"a\": 1}"}), json!({"id": 2, "raw": "{\"a\": 12}"})];
    std::fs::write(&cases, lines.map(|line| line.to_string()).join("\n")).unwrap();
    let args = ["check", "--schema", &schema, "--max-bytes", "8", "--jsonl", cases.to_str().unwrap()];
    let output = run(&args, b"");
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let text = String::from_utf8(output.stdout).unwrap();
    let results: Vec<Value> = text.lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    assert_eq!((results[0]["id"].clone(), results[0]["ok"].clone()), (json!(1), json!(true)), "{text}");
    assert_eq!(results[1]["id"], 2);
    assert_eq!(results[1]["kind"], "too_large", "{text}");
    assert!(results[1]["message"].as_str().unwrap().contains("limit of 8"), "{text}");
}

/// A gateway can take a call past the default 8 MiB: read whole, and checked.
#[test]
fn check_max_bytes_takes_a_call_past_the_default_limit() {
    let dir = scratch("past-default");
    let schema = schema_file(&dir, &json!({"type": "object", "properties": {"a": {"type": "integer"}}}));
    let mut raw = br#"{"a": 1}"#.to_vec();
    let size = 8 * 1024 * 1024 + 1;
    raw.resize(size, b' ');
    let (code, result) = check(&schema, &[], &raw);
    assert_eq!((code, &result["kind"]), (Some(1), &json!("too_large")));
    let (code, result) = check(&schema, &["--max-bytes", &size.to_string()], &raw);
    assert_eq!(code, Some(0), "{result}");
    assert_eq!(result["value"], json!({"a": 1}));
}

#[test]
fn check_max_depth() {
    let dir = scratch("max-depth");
    let schema = schema_file(&dir, &json!({"type": "object"}));
    let raw = br#"{"a": [[1]]}"#;
    let (code, result) = check(&schema, &["--max-depth", "3"], raw);
    assert_eq!(code, Some(0), "{result}");
    let (code, result) = check(&schema, &["--max-depth", "2"], raw);
    assert_eq!(code, Some(1));
    assert_eq!(result["kind"], "too_deep");
    assert_eq!(
        result["errors"][0]["message"], "arrays and objects are nested deeper than the limit of 2",
        "{result}"
    );
}

#[test]
fn check_max_echo_chars() {
    let dir = scratch("max-echo-chars");
    let schema = schema_file(&dir, &json!({"properties": {"n": {"type": "integer"}}}));
    // The value is echoed as its JSON: 29 characters with its quotes.
    let raw = br#"{"n": "a rather long piece of text"}"#;
    let (code, result) = check(&schema, &["--max-echo-chars", "29"], raw);
    assert_eq!(code, Some(1));
    assert_eq!(result["errors"][0]["value"], r#""a rather long piece of text""#, "{result}");
    let (_, result) = check(&schema, &["--max-echo-chars", "28"], raw);
    assert_eq!(result["errors"][0]["value"], r#""a rather long piece of text… (29 characters)"#, "{result}");
    assert!(result["message"].as_str().unwrap().contains("(29 characters)"), "{result}");
}

#[test]
fn check_max_string_bytes() {
    let dir = scratch("max-string-bytes");
    let schema = schema_file(&dir, &json!({"properties": {"a": {"type": "string"}}}));
    let raw = r#"{"a": "abcé"}"#.as_bytes(); // five bytes of UTF-8
    let (code, result) = check(&schema, &["--max-string-bytes", "5"], raw);
    assert_eq!(code, Some(0), "{result}");
    let (code, result) = check(&schema, &["--max-string-bytes", "4"], raw);
    assert_eq!(code, Some(1));
    assert_eq!(result["errors"][0]["path"], "/a");
    assert_eq!(result["errors"][0]["code"], "too_long");
    assert_eq!(result["errors"][0]["message"], "the string is 5 bytes long, more than the limit of 4");
}

#[test]
fn check_max_errors() {
    let dir = scratch("max-errors");
    let schema = schema_file(&dir, &json!({"type": "object", "additionalProperties": false}));
    let raw = br#"{"a": 1, "b": 2, "c": 3}"#;
    let (code, result) = check(&schema, &["--max-errors", "3"], raw);
    assert_eq!(code, Some(1));
    assert_eq!(result["errors"].as_array().unwrap().len(), 3);
    assert!(result.get("omitted_errors").is_none(), "{result}");
    let (code, result) = check(&schema, &["--max-errors", "2"], raw);
    assert_eq!(code, Some(1));
    assert_eq!(result["errors"].as_array().unwrap().len(), 2);
    assert_eq!(result["omitted_errors"], 1);
    assert!(result["message"].as_str().unwrap().ends_with("… and 1 more error"), "{result}");
}

#[test]
fn check_max_coercions() {
    let dir = scratch("max-coercions");
    let schema = schema_file(&dir, &json!({"type": "object", "additionalProperties": {"type": "integer"}}));
    let raw = br#"{"a": "1", "b": "2", "c": "3"}"#;
    let (code, result) = check(&schema, &["--max-coercions", "3"], raw);
    assert_eq!(code, Some(0));
    assert_eq!(result["coercions"].as_array().unwrap().len(), 3);
    assert!(result.get("omitted_coercions").is_none(), "{result}");
    let (code, result) = check(&schema, &["--max-coercions", "2"], raw);
    assert_eq!(code, Some(0));
    assert_eq!(result["value"], json!({"a": 1, "b": 2, "c": 3}));
    assert_eq!(result["coercions"].as_array().unwrap().len(), 2);
    assert_eq!(result["omitted_coercions"], 1);
}

/// A flag given sets its limit only: the others keep their defaults.
#[test]
fn check_one_flag_leaves_the_other_limits_at_their_defaults() {
    let dir = scratch("one-flag");
    let schema = schema_file(&dir, &json!({"type": "object", "additionalProperties": false}));
    let members: Vec<String> = (0..60).map(|i| format!("\"k{i}\": 1")).collect();
    let raw = format!("{{{}}}", members.join(", "));
    let (code, result) = check(&schema, &["--max-bytes", "100000"], raw.as_bytes());
    assert_eq!(code, Some(1));
    assert_eq!(result["errors"].as_array().unwrap().len(), 50, "the default of --max-errors");
    assert_eq!(result["omitted_errors"], 10);
}

#[test]
fn repair_max_bytes_and_max_depth() {
    let raw = b"{a: [[1]]}";
    let output = run(&["repair", "--max-bytes", &raw.len().to_string()], raw);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stdout_json(&output), json!({"a": [[1]]}));
    let under = (raw.len() - 1).to_string();
    let output = run(&["repair", "--max-bytes", &under], raw);
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty());
    assert_eq!(stderr(&output).trim(), format!("the input is more than the limit of {under} bytes"));

    let output = run(&["repair", "--strict", "--max-depth", "3"], br#"{"a": [[1]]}"#);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    for args in [&["repair", "--max-depth", "2"][..], &["repair", "--strict", "--max-depth", "2"]] {
        let output = run(args, br#"{"a": [[1]]}"#);
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        assert!(
            stderr(&output).contains("nested deeper than the limit of 2"),
            "{args:?}: {}",
            stderr(&output)
        );
    }
}

/// A Chat Completions body of one call with `arguments` as text.
fn body(arguments: &str) -> Vec<u8> {
    json!({"choices": [{"message": {"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function",
        "function": {"name": "f", "arguments": arguments}}]}}]})
    .to_string()
    .into_bytes()
}

/// The same call as a recorded stream (SSE), its arguments in two pieces.
fn stream(arguments: &str) -> Vec<u8> {
    let (first, second) = arguments.split_at(arguments.len() / 2);
    let start = json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "call_1",
        "type": "function", "function": {"name": "f", "arguments": first}}]}}]});
    let more = json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0,
        "function": {"arguments": second}}]}}]});
    let end = json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]});
    format!("data: {start}\n\ndata: {more}\n\ndata: {end}\n\ndata: [DONE]\n\n").into_bytes()
}

/// `calls` with `args` on `input`: exit code and JSON.
fn calls(args: &[&str], input: &[u8]) -> (Option<i32>, Value) {
    let output = run(&[&["calls"], args].concat(), input);
    (output.status.code(), stdout_json(&output))
}

#[test]
fn calls_max_bytes_and_max_depth_for_each_calls_arguments() {
    let arguments = r#"{"a": [[1]]}"#;
    let fits = arguments.len().to_string();
    let under = (arguments.len() - 1).to_string();
    for (input, stream_flag) in [(body(arguments), None), (stream(arguments), Some("--stream"))] {
        let with = |flags: &[&str]| calls(&[flags, stream_flag.as_slice()].concat(), &input);
        let (code, result) = with(&["--max-bytes", &fits]);
        assert_eq!(code, Some(0), "{stream_flag:?}: {result}");
        assert_eq!(result["calls"][0]["arguments"], json!({"a": [[1]]}));
        let (code, result) = with(&["--max-bytes", &under]);
        assert_eq!(code, Some(1));
        let error = &result["errors"][0];
        assert_eq!((&error["kind"], &error["id"]), (&json!("too_large"), &json!("call_1")), "{result}");
        let message = error["message"].as_str().unwrap();
        assert!(message.contains(&format!("the limit of {under}")), "{stream_flag:?}: {message}");

        let (code, result) = with(&["--max-depth", "3"]);
        assert_eq!(code, Some(0), "{stream_flag:?}: {result}");
        let (code, result) = with(&["--max-depth", "2"]);
        assert_eq!(code, Some(1));
        assert_eq!(result["errors"][0]["kind"], "too_deep");
        let message = result["errors"][0]["message"].as_str().unwrap();
        assert!(message.contains("nested deeper than the limit of 2"), "{stream_flag:?}: {message}");
    }
}

/// A streamed call past the default 8 MiB is taken with `--max-bytes`: the stream's own limit
/// on one call's bytes follows it.
#[test]
fn calls_stream_max_bytes_takes_a_call_past_the_default_limit() {
    let arguments = format!(r#"{{"text": "{}"}}"#, "a".repeat(8 * 1024 * 1024));
    let input = stream(&arguments);
    let (code, result) = calls(&["--stream"], &input);
    assert_eq!((code, &result["errors"][0]["kind"]), (Some(1), &json!("too_large")));
    let (code, result) = calls(&["--stream", "--max-bytes", &arguments.len().to_string()], &input);
    assert_eq!(code, Some(0), "{}", result["errors"]);
    assert_eq!(result["calls"][0]["arguments"]["text"].as_str().map(str::len), Some(8 * 1024 * 1024));
}

#[test]
fn bench_checks_and_measures_under_the_limits() {
    let dir = scratch("bench");
    let schema = schema_file(&dir, &json!({"type": "object"}));
    let large = format!(r#"{{"a": "{}"}}"#, "x".repeat(1024 * 1024));
    let workload = dir.join("cases.jsonl");
    let lines = [json!({"id": 1, "raw": "{\"a\": 1}"}), json!({"id": 2, "raw": large})];
    std::fs::write(&workload, lines.map(|line| line.to_string()).join("\n")).unwrap();
    let output = run(&["bench", "--schema", &schema, "--max-bytes", "100", workload.to_str().unwrap()], b"");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let line = stdout_json(&output);
    assert_eq!((&line["ok"], &line["rejected"]), (&json!(1), &json!(1)), "{line}");
    if cfg!(target_os = "linux") {
        // The measured `check` ran with the limit too: it refused the large case after 101
        // bytes, so its peak is its baseline's, where reading the case takes twice its size.
        assert_eq!(line["input_bytes"].as_u64(), Some(large.len() as u64), "{line}");
        let ratio = line["peak_ratio"].as_f64().expect("a ratio");
        assert!(ratio < 0.5, "{line}");
    }
}

/// Past the default depth, the program descends a value on a stack made for `--max-depth`:
/// a call nested 10,000 deep (the most the flag allows) is read and checked, never a stack
/// overflow that aborts the program.
#[test]
fn the_deepest_max_depth_reads_and_checks_without_overflowing_the_stack() {
    let dir = scratch("deepest");
    // Each level of the value goes through the longest chain of references a schema may
    // have (61, then a union: one more is a schema error), the most stack a level takes.
    let mut defs: serde_json::Map<String, Value> =
        (0..61).map(|i| (format!("n{i}"), json!({"$ref": format!("#/$defs/n{}", i + 1)}))).collect();
    defs.insert(
        "n61".to_owned(),
        json!({"anyOf": [{"type": "array", "items": {"$ref": "#/$defs/n0"}}, {"type": "integer"}]}),
    );
    let schema = schema_file(
        &dir,
        &json!({"$defs": defs, "type": "object", "properties": {"a": {"$ref": "#/$defs/n0"}}}),
    );
    let deep = |bottom: &str| format!(r#"{{"a": {}{bottom}{}}}"#, "[".repeat(9_999), "]".repeat(9_999));
    // The output is as deep as the value: read as text (`serde_json` reads 128 levels).
    let deepest = |args: &[&str], input: &[u8]| {
        let output = run(&[args, &["--max-depth", "10000"]].concat(), input);
        let text = String::from_utf8_lossy(&output.stdout).into_owned();
        (output.status.code(), text)
    };
    let check_args = ["check", "--schema", &schema];
    let (code, text) = deepest(&check_args, deep("1").as_bytes());
    assert_eq!(code, Some(0), "{}", &text[..text.len().min(300)]);
    assert!(
        text.starts_with(r#"{"coercions":[],"ok":true,"repairs":[],"value":{"a":[[[["#),
        "{}",
        &text[..300]
    );
    let (code, result) = check(&schema, &["--max-depth", "9999"], deep("1").as_bytes());
    assert_eq!((code, &result["kind"]), (Some(1), &json!("too_deep")));
    // Mangled (the lenient parser's path), and refused at the bottom.
    let mangled = deep("'1',").replacen("\"a\"", "a", 1);
    let free = schema_file(&scratch("deepest-free"), &json!({"type": "object"}));
    let (code, text) = deepest(&["check", "--schema", &free], mangled.as_bytes());
    assert_eq!(code, Some(0), "{}", &text[..text.len().min(300)]);
    // Through the reference and the union at each level, the check runs out of steps first:
    // refused, as at any depth where the schema makes that many.
    let (code, text) = deepest(&check_args, mangled.as_bytes());
    assert_eq!(code, Some(1), "{}", &text[..text.len().min(300)]);
    assert!(text.contains(r#""code":"too_deep""#), "{}", &text[..text.len().min(300)]);
    let (code, text) = deepest(&check_args, deep("\"x\"").as_bytes());
    assert_eq!(code, Some(1), "{}", &text[..text.len().min(300)]);
    assert!(text.contains(r#""ok":false"#), "{}", &text[..text.len().min(300)]);

    let (code, text) = deepest(&["calls"], &body(&deep("1")));
    assert_eq!(code, Some(0), "{}", &text[..text.len().min(300)]);
    assert!(text.starts_with(r#"{"calls":[{"arguments":{"a":[[[["#), "{}", &text[..300]);
    let (code, text) = deepest(&["calls", "--stream"], &stream(&deep("1")));
    assert_eq!(code, Some(0), "{}", &text[..text.len().min(300)]);
    assert!(text.starts_with(r#"{"calls":[{"arguments":{"a":[[[["#), "{}", &text[..300]);
    let (code, text) = deepest(&["repair"], mangled.as_bytes());
    assert_eq!(code, Some(0));
    assert!(text.starts_with(r#"{"a":[[[["#), "{}", &text[..300]);
}

#[test]
fn out_of_range_values_are_usage_errors_naming_the_flag() {
    let dir = scratch("usage");
    let schema = schema_file(&dir, &json!({"type": "object"}));
    let workload = dir.join("cases.jsonl");
    std::fs::write(&workload, "{\"id\": 1, \"raw\": \"{}\"}\n").unwrap();
    let workload = workload.to_str().unwrap();
    let past = format!("{}0", usize::MAX);
    let cases: &[(&[&str], &str, &str)] = &[
        (&["check", "--schema", &schema], "--max-errors", "0"),
        (&["check", "--schema", &schema], "--max-bytes", "abc"),
        (&["check", "--schema", &schema], "--max-depth", "-1"),
        (&["check", "--schema", &schema], "--max-depth", "10001"),
        (&["check", "--schema", &schema], "--max-echo-chars", "1.5"),
        (&["check", "--schema", &schema], "--max-string-bytes", "1e3"),
        (&["check", "--schema", &schema], "--max-coercions", &past),
        (&["bench", "--schema", &schema, workload], "--max-errors", "0"),
        (&["repair"], "--max-bytes", "-5"),
        (&["repair"], "--max-depth", "deep"),
        (&["calls"], "--max-bytes", "8MiB"),
        (&["calls", "--stream"], "--max-depth", ""),
    ];
    for (command, flag, value) in cases {
        let args = [*command, &[flag, value]].concat();
        let output = run(&args, b"{}");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
        let message = stderr(&output);
        assert!(
            message.contains(&format!("invalid value '{value}' for '{flag} <N>'")),
            "{args:?}: {message}"
        );
    }
    // The limits a command does not read are not its flags.
    for args in [&["repair", "--max-errors", "3"][..], &["calls", "--max-string-bytes", "3"]] {
        let output = run(args, b"{}");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(stderr(&output).contains(&format!("unexpected argument '{}'", args[1])), "{args:?}");
    }
}

#[test]
fn help_lists_the_limits() {
    for (command, flags) in [
        (
            "check",
            &[
                "--max-bytes",
                "--max-depth",
                "--max-echo-chars",
                "--max-string-bytes",
                "--max-errors",
                "--max-coercions",
            ][..],
        ),
        ("bench", &["--max-bytes", "--max-depth", "--max-errors"]),
        ("repair", &["--max-bytes", "--max-depth"]),
        ("calls", &["--max-bytes", "--max-depth"]),
    ] {
        let output = run(&[command, "--help"], b"");
        assert_eq!(output.status.code(), Some(0));
        let help = String::from_utf8(output.stdout).unwrap();
        assert!(help.contains("Limits:"), "{command}: {help}");
        for flag in flags {
            assert!(help.contains(&format!("{flag} <N>")), "{command} {flag}: {help}");
        }
    }
}
