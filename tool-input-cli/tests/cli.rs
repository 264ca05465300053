//! The `tool-input` command line: its exact interface (JSON fields, exit codes), and the
//! core contract on the benchmark workloads through `check --jsonl`.

mod cli_support;
#[path = "../../suite/tests/common/mod.rs"]
mod common;

use cli_support::{run, stdout_json};

use std::collections::BTreeSet;

use serde_json::Value;

fn schema_path() -> String {
    common::bench_data_dir().join("create_order.schema.json").to_string_lossy().into_owned()
}

#[test]
fn check_accepts_with_value_repairs_and_coercions() {
    let raw = br#"```json
{"customer_id": "C-1", "priority": "High", "tags": "[\"vip\"]", "items": [{"sku": "ABC-1234", "quantity": "3"}], "ship_by": null,}
```"#;
    let output = run(&["check", "--schema", &schema_path()], raw);
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let result = stdout_json(&output);
    assert_eq!(result["ok"], true);
    assert_eq!(
        result["value"],
        serde_json::json!({"customer_id": "C-1", "priority": "high", "tags": ["vip"], "items": [{"sku": "ABC-1234", "quantity": 3}], "gift": false})
    );
    let repairs: Vec<&str> =
        result["repairs"].as_array().unwrap().iter().map(|r| r["kind"].as_str().unwrap()).collect();
    assert!(repairs.contains(&"code_fence") && repairs.contains(&"trailing_comma"), "{repairs:?}");
    let coerced: BTreeSet<&str> =
        result["coercions"].as_array().unwrap().iter().map(|c| c["path"].as_str().unwrap()).collect();
    for path in ["/tags", "/priority", "/items/0/quantity", "/ship_by", "/gift"] {
        assert!(coerced.contains(path), "{path} not in {coerced:?}");
    }
}

#[test]
fn check_rejects_with_kind_errors_and_message() {
    let output =
        run(&["check", "--schema", &schema_path()], br#"{"priority": "urgent", "tags": [], "items": []}"#);
    assert_eq!(output.status.code(), Some(1));
    let result = stdout_json(&output);
    assert_eq!(result["ok"], false);
    assert_eq!(result["kind"], "invalid");
    let errors = result["errors"].as_array().unwrap();
    let codes: BTreeSet<(&str, &str)> =
        errors.iter().map(|e| (e["path"].as_str().unwrap(), e["code"].as_str().unwrap())).collect();
    assert_eq!(codes, BTreeSet::from([("/customer_id", "missing"), ("/priority", "enum")]));
    for error in errors {
        assert!(error["message"].as_str().is_some_and(|m| !m.is_empty()));
    }
    let message = result["message"].as_str().unwrap();
    assert!(message.contains("create_order") && message.contains("/priority"), "{message}");

    for (raw, kind) in [
        (&b"{\"customer_id\": \"C-1\", \"tags\": [\"a"[..], "truncated"),
        (b"[1, 2]", "not_object"),
        (b"{\"a\" 1 2}", "parse"),
        (b"{\"a\": \xff}", "parse"),
    ] {
        let output = run(&["check", "--schema", &schema_path()], raw);
        assert_eq!(output.status.code(), Some(1));
        assert_eq!(stdout_json(&output)["kind"], kind, "{}", String::from_utf8_lossy(raw));
    }
}

#[test]
fn check_policy_and_input_file() {
    let dir = std::env::temp_dir().join(format!("tool-input-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("args.json");
    std::fs::write(&input, r#"{"customer_id": "C-1", "priority": "High", "tags": [], "items": []}"#).unwrap();
    let input = input.to_string_lossy().into_owned();
    let strict = run(&["check", "--schema", &schema_path(), "--policy", "strict", &input], b"");
    assert_eq!(strict.status.code(), Some(1));
    assert_eq!(stdout_json(&strict)["errors"][0]["code"], "enum");
    let default = run(&["check", "--schema", &schema_path(), "--policy", "default", &input], b"");
    assert_eq!(default.status.code(), Some(0));
    assert_eq!(stdout_json(&default)["value"]["priority"], "high");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn usage_errors_exit_2() {
    let schema = schema_path();
    for args in [
        &["check"][..],
        &["check", "--schema", &schema, "--policy", "sloppy"],
        &["check", "--schema", "/nonexistent/schema.json"],
        &["frobnicate"],
    ] {
        let output = run(args, b"{}");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn repair_prints_the_repaired_json() {
    let output = run(&["repair"], b"```json\n{'a': True, b: [1, 2,],} // done\n```");
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(stdout_json(&output), serde_json::json!({"a": true, "b": [1, 2]}));

    let output = run(&["repair", "--strict"], b"{'a': 1}");
    assert_eq!(output.status.code(), Some(1));
    assert!(!output.stderr.is_empty());

    let output = run(&["repair"], b"{\"a\": [1, 2, \"thr");
    assert_eq!(output.status.code(), Some(1));
    let output = run(&["repair", "--complete-truncated"], b"{\"a\": [1, 2, \"thr");
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(stdout_json(&output), serde_json::json!({"a": [1, 2, "thr"]}));

    // Where jsonrepair and json_repair differ, `--style` picks whose reading to follow.
    let output = run(&["repair"], b"{\"a\": , \"b\": [{]}");
    assert_eq!(stdout_json(&output), serde_json::json!({"a": null, "b": [{}]}));
    let output = run(&["repair", "--style", "json_repair"], b"{\"a\": , \"b\": [{]}");
    assert_eq!(stdout_json(&output), serde_json::json!({"a": "", "b": []}));
    let output = run(&["repair", "--style", "python"], b"{}");
    assert_eq!(output.status.code(), Some(2));

    // `--settled` completes cut-off text as final: the trailing line break goes.
    let output = run(&["repair", "--complete-truncated"], b"{\"note\": \"line\\n");
    assert_eq!(stdout_json(&output), serde_json::json!({"note": "line\n"}));
    let output = run(&["repair", "--complete-truncated", "--settled"], b"{\"note\": \"line\\n");
    assert_eq!(stdout_json(&output), serde_json::json!({"note": "line"}));
    assert_eq!(run(&["repair", "--settled"], b"{}").status.code(), Some(2));
}

/// `repair` never changes a number's value: printed from a `serde_json::Value`, an integer
/// past 64 bits was rounded, a long decimal shortened to its float, `1e400` refused; and a
/// float written as JSON was re-spelled (`1e2` as `100.0`). A number written as JSON is
/// printed as written; one the parser repaired, as JSON of the same value.
#[test]
fn repair_prints_every_number_with_the_value_it_was_written_with() {
    let text = stdout_text;
    for (args, input, printed) in [
        (&["repair"][..], &br#"{"n": 12345678901234567890123}"#[..], r#"{"n":12345678901234567890123}"#),
        (&["repair"], br#"{"x": 1e400, "y": -1e400}"#, r#"{"x":1e400,"y":-1e400}"#),
        (&["repair"], b"[0.1000000000000000055511151231257827]", "[0.1000000000000000055511151231257827]"),
        (
            &["repair"],
            b"[1.0, 1e2, 1E+2, -0, -0.0, 0.50, 1e-400, -12345678901234567890123]",
            "[1.0,1e2,1E+2,-0,-0.0,0.50,1e-400,-12345678901234567890123]",
        ),
        // Repaired: JSON of the same value.
        (
            &["repair"],
            b"{'a': .5, b: +1, c: 1., d: 0x10, e: 1_000, f: +1.5, g: -.5, h: 1_0.5}",
            r#"{"a":0.5,"b":1,"c":1.0,"d":16,"e":1000,"f":1.5,"g":-0.5,"h":10.5}"#,
        ),
        // Wherever repair mode moves a value (several values, a set, a completed cut), and
        // in strict mode.
        (&["repair"], br#"[1.50] {"b": 2.50}"#, r#"[[1.50],{"b":2.50}]"#),
        (&["repair"], b"{1.50, 2.50}", "[1.50,2.50]"),
        (
            &["repair"],
            b"{12345678901234567890123, 0.1000000000000000055511151231257827}",
            "[12345678901234567890123,0.1000000000000000055511151231257827]",
        ),
        (&["repair", "--complete-truncated"], br#"{"a": [1.50, 2.0e0"#, r#"{"a":[1.50,2.0e0]}"#),
        (
            &["repair", "--strict"],
            br#"{"b": 1.10, "a": 9007199254740993.0}"#,
            r#"{"a":9007199254740993.0,"b":1.10}"#,
        ),
    ] {
        let output = run(args, input);
        assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
        assert_eq!(text(&output), printed, "{}", String::from_utf8_lossy(input));
    }
    // Anything else as before: strings, integers, keys in order, `NaN` as `null`.
    let output =
        run(&["repair"], b"{'z': [NaN, 'x\n'], 'a': 18446744073709551615, 'm': -9223372036854775808}");
    assert_eq!(text(&output), r#"{"a":18446744073709551615,"m":-9223372036854775808,"z":[null,"x\n"]}"#);
}

/// Standard output as text, without its final line break.
fn stdout_text(output: &std::process::Output) -> String {
    let text = String::from_utf8_lossy(&output.stdout);
    text.strip_suffix('\n').unwrap_or(&text).to_owned()
}

#[test]
fn repair_tells_text_from_a_repaired_value_when_asked() {
    // By default, jsonrepair's convention: text is a JSON string.
    let output = run(&["repair"], b"no json here at all");
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stdout_json(&output), serde_json::json!("no json here at all"));
    // With --require-json, text alone is refused: exit 1, nothing on standard output.
    for text in [&b"no json here at all"[..], b"  hello\nworld\n", b"\xef\xbb\xbfplain words", b"x = 1"] {
        let output = run(&["repair", "--require-json"], text);
        assert_eq!(output.status.code(), Some(1), "{}", String::from_utf8_lossy(text));
        assert!(output.stdout.is_empty());
        assert!(String::from_utf8_lossy(&output.stderr).contains("no JSON found"));
    }
    // Anything structured is still printed, however much repair it needed.
    for (text, value) in [
        (&b"\"a quoted string\""[..], serde_json::json!("a quoted string")),
        (b"'single'", serde_json::json!("single")),
        (b"123 apples", serde_json::json!(123)),
        (b"null", serde_json::Value::Null),
        (b"Here it is: {a: 1}", serde_json::json!({"a": 1})),
        (b"\"a\"\nb", serde_json::json!("a")),
        (b"[hello]", serde_json::json!(["hello"])),
    ] {
        let output = run(&["repair", "--require-json"], text);
        assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(text));
        assert_eq!(stdout_json(&output), value, "{}", String::from_utf8_lossy(text));
    }
}

/// The core issue's bar, through the command line: every mangled case becomes exactly its
/// canonical value; every invalid case is rejected naming every expected path.
#[test]
fn jsonl_workloads() {
    let data = common::bench_data_dir();
    let schema = data.join("create_order.schema.json").to_string_lossy().into_owned();
    for (workload, expected_file) in
        [("mangled", "mangled.expected.jsonl"), ("invalid", "invalid.expected.jsonl")]
    {
        let cases = data.join(format!("{workload}.jsonl")).to_string_lossy().into_owned();
        let output = run(&["check", "--schema", &schema, "--jsonl", &cases], b"");
        let expected = common::read_jsonl(&data.join(expected_file));
        let lines: Vec<Value> = output
            .stdout
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .map(|l| serde_json::from_slice(l).unwrap())
            .collect();
        assert_eq!(lines.len(), expected.len(), "{workload}");
        let mut wrong = 0;
        for (line, expected) in lines.iter().zip(&expected) {
            assert_eq!(line["id"], expected["id"]);
            let right = if workload == "mangled" {
                line["ok"] == true && line["value"] == expected["value"]
            } else {
                let named: BTreeSet<&str> =
                    line["errors"].as_array().unwrap().iter().map(|e| e["path"].as_str().unwrap()).collect();
                line["ok"] == false
                    && expected["paths"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .all(|p| named.contains(p.as_str().unwrap()))
            };
            if !right {
                wrong += 1;
                if wrong < 5 {
                    eprintln!("{workload}: {line}\nexpected {expected}");
                }
            }
        }
        assert_eq!(wrong, 0, "{workload}: {wrong} of {} cases wrong", lines.len());
        assert_eq!(output.status.code(), Some(if workload == "mangled" { 0 } else { 1 }));
    }
}

#[test]
fn bench_prints_one_line_in_the_peer_runner_format() {
    let dir = std::env::temp_dir().join(format!("tool-input-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let workload = dir.join("tiny.jsonl");
    std::fs::write(
        &workload,
        "{\"id\": 1, \"raw\": \"{\\\"customer_id\\\": \\\"C\\\", \\\"priority\\\": \\\"High\\\", \\\"tags\\\": [], \\\"items\\\": []}\"}\n\
         {\"id\": 2, \"raw\": \"{}\"}\n",
    )
    .unwrap();
    let output = run(&["bench", "--schema", &schema_path(), &workload.to_string_lossy()], b"");
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let text = String::from_utf8(output.stdout.clone()).unwrap();
    assert_eq!(text.lines().count(), 1);
    assert!(
        text.starts_with(
            "{\"workload\": \"tiny\", \"cases\": 2, \"ok\": 1, \"rejected\": 1, \"ns_per_case\": "
        ),
        "{text}"
    );
    assert!(stdout_json(&output)["ns_per_case"].as_f64().is_some_and(|ns| ns > 0.0));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Run the program on a standard input that would go on for `total` bytes; how many of
/// them the program took before it closed its end.
fn run_on_endless_input(args: &[&str], total: usize) -> (std::process::Output, usize) {
    use std::io::Write;
    let mut child = cli_support::spawn(args);
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        let chunk = vec![b' '; 64 * 1024];
        let mut written = 0;
        while written < total {
            match stdin.write(&chunk) {
                Ok(n) => written += n,
                Err(_) => break, // the program stopped reading
            }
        }
        written
    });
    let output = child.wait_with_output().expect("the binary finishes");
    (output, writer.join().expect("the writer"))
}

#[test]
fn check_and_repair_stop_reading_at_the_size_limit() {
    let total = 256 * 1024 * 1024;
    let (output, written) = run_on_endless_input(&["check", "--schema", &schema_path()], total);
    assert_eq!(output.status.code(), Some(1), "{}", String::from_utf8_lossy(&output.stderr));
    let result = stdout_json(&output);
    assert_eq!(result["kind"], "too_large");
    assert_eq!(result["errors"][0]["code"], "too_large");
    assert_eq!(result["errors"][0]["message"], "the input is more than the limit of 8388608 bytes");
    assert!(written < total, "the whole input was read");

    let (output, written) = run_on_endless_input(&["repair"], total);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr).trim(),
        "the input is more than the limit of 8388608 bytes"
    );
    assert!(written < total, "the whole input was read");

    // At the limit exactly, the input is read and checked as usual.
    let mut at_limit =
        br#"{"customer_id": "C-1", "priority": "low", "tags": [], "items": [{"sku": "ABC-1234", "quantity": 1}]}"#
            .to_vec();
    at_limit.resize(8 * 1024 * 1024, b' ');
    let output = run(&["check", "--schema", &schema_path()], &at_limit);
    assert_eq!(stdout_json(&output)["ok"], true, "{}", String::from_utf8_lossy(&output.stdout));
}

/// Standard output and standard error closed before the program writes (`2>&1 | head -c1`
/// once `head` is gone): the exit code of what it decided, never a panic (`bench` printed
/// with `println!`, and every message on standard error went through `eprintln!`: both panic
/// on a closed pipe, exit 101), and never the usage error's 2 for the closed standard output.
#[test]
fn closed_pipes_give_the_exit_code_not_a_panic() {
    let dir = std::env::temp_dir().join(format!("tool-input-closed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let workload = dir.join("tiny.jsonl");
    std::fs::write(&workload, "{\"id\": 1, \"raw\": \"{}\"}\n").unwrap();
    let workload = workload.to_string_lossy().into_owned();
    let schema = schema_path();
    let valid = br#"{"customer_id": "C-1", "priority": "low", "tags": [], "items": []}"#;
    // Each reads its standard input (or runs a bench) before it writes: the pipes are closed
    // by then.
    for (args, stdin, code) in [
        (&["check", "--schema", &schema][..], &valid[..], 0),
        (&["check", "--schema", &schema], b"{}", 1),
        (&["repair"], b"", 1),
        (&["repair", "--require-json"], b"only text", 1),
        (&["calls"], b"not json", 0),
        (&["calls", "--format", "openai"], b"not json", 1),
        (&["bench", "--schema", &schema, &workload], b"", 0),
    ] {
        use std::io::Write;
        let mut child = cli_support::spawn(args);
        drop(child.stdout.take());
        drop(child.stderr.take());
        let _ = child.stdin.take().expect("stdin").write_all(stdin);
        let status = child.wait().expect("the binary finishes");
        assert_eq!(status.code(), Some(code), "{args:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A reader that stops reading standard output (`tool-input repair < big | head -c 10`,
/// `check --jsonl … | head -1`) ends the program quietly: nothing on standard error and the
/// code of what it decided, where it said `cannot write the result: Broken pipe` and exited
/// 2, the usage error's code. `check --jsonl` stops checking there.
#[test]
fn a_reader_that_stops_reading_ends_the_program_quietly() {
    use std::io::{Read, Write};
    let dir = std::env::temp_dir().join(format!("tool-input-head-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = dir.join("cases.jsonl");
    let rejected = "{\"id\": 0, \"raw\": \"[]\"}\n";
    let accepted = "{\"id\": 1, \"raw\": \"{}\"}\n".repeat(20_000);
    std::fs::write(&cases, format!("{rejected}{accepted}")).unwrap();
    let cases = cases.to_string_lossy().into_owned();
    let schema = dir.join("schema.json");
    std::fs::write(&schema, "{}").unwrap();
    let schema = schema.to_string_lossy().into_owned();
    // Some megabytes of output: far more than a pipe holds.
    let items: Vec<String> =
        (0..40_000).map(|i| format!("{{'k': {i}, v: 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'}}")).collect();
    let big = format!("[{}]", items.join(", "));
    let strict_big = big.replace('\'', "\"").replace(" v:", " \"v\":");
    for (args, stdin, code) in [
        (&["repair"][..], big.as_bytes(), 0),
        (&["check", "--schema", &schema, "--jsonl", &cases], b"", 1),
        (&["check", "--schema", &schema], format!("{{\"a\": {strict_big}}}").as_bytes(), 0),
        (&["calls", "--format", "text"], strict_big.as_bytes(), 0),
    ] {
        let mut child = cli_support::spawn(args);
        let mut stdin_pipe = child.stdin.take().expect("stdin");
        let input = stdin.to_vec();
        let feeder = std::thread::spawn(move || {
            let _ = stdin_pipe.write_all(&input);
        });
        let mut stdout = child.stdout.take().expect("stdout");
        let mut first = [0u8; 10];
        stdout.read_exact(&mut first).expect("the program writes");
        drop(stdout);
        let output = child.wait_with_output().expect("the binary finishes");
        feeder.join().unwrap();
        assert_eq!(output.status.code(), Some(code), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
        assert!(output.stderr.is_empty(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn check_counts_the_errors_past_max_errors_in_its_json() {
    let items: Vec<Value> =
        (0..120).map(|i| serde_json::json!({"sku": "ABC-1234", "quantity": format!("many {i}")})).collect();
    let raw =
        serde_json::json!({"customer_id": "C-1", "priority": "low", "tags": [], "items": items}).to_string();
    let output = run(&["check", "--schema", &schema_path()], raw.as_bytes());
    let result = stdout_json(&output);
    assert_eq!(result["errors"].as_array().unwrap().len(), 50);
    assert_eq!(result["omitted_errors"], 70);
    assert!(result["message"].as_str().unwrap().ends_with("… and 100 more errors"), "{}", result["message"]);
}

#[test]
fn repair_keeps_raw_line_breaks_at_the_end_of_a_string_escaped() {
    let output = run(&["repair"], b"{\"s\":\"x\r\n\"}");
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&output.stdout).trim(), r#"{"s":"x\r\n"}"#);
}

#[test]
fn schema_check_refuses_a_ref_that_points_nowhere_or_loops_as_check_does() {
    let dir = std::env::temp_dir().join(format!("tool-input-schema-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = [
        (
            "dangling",
            serde_json::json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/missing"}}}),
            "/function/parameters/properties/a",
        ),
        (
            "loop",
            serde_json::json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/x"}}, "$defs": {"x": {"$ref": "#/$defs/y"}, "y": {"$ref": "#/$defs/x"}}}),
            "/function/parameters/$defs/x",
        ),
        ("itself", serde_json::json!({"type": "object", "allOf": [{"$ref": "#"}]}), "/function/parameters"),
    ];
    for (name, schema, pointer) in cases {
        let path = dir.join(format!("{name}.json"));
        std::fs::write(&path, schema.to_string()).unwrap();
        let path = path.to_string_lossy().into_owned();
        let output = run(&["schema", "--dialect", "openai", "--check", &path], b"");
        assert_eq!(output.status.code(), Some(1), "{name}: {}", String::from_utf8_lossy(&output.stdout));
        let result = stdout_json(&output);
        assert_eq!(result["ok"], false);
        assert_eq!(result["problems"][0]["code"], "invalid_schema", "{name}");
        assert_eq!(result["problems"][0]["pointer"], pointer, "{name}");
        // `check` refuses the same schema.
        let output = run(&["check", "--schema", &path], b"{}");
        assert_eq!(output.status.code(), Some(2), "{name}");
    }
    // Recursion through the value is a schema like any other.
    let path = dir.join("tree.json");
    let tree = serde_json::json!({"type": "object", "properties": {"children": {"type": "array", "items": {"$ref": "#"}}}});
    std::fs::write(&path, tree.to_string()).unwrap();
    let output = run(&["schema", "--dialect", "anthropic", "--check", &path.to_string_lossy()], b"");
    assert_eq!(stdout_json(&output)["ok"], true);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn check_jsonl_refuses_a_line_past_the_limit_without_keeping_it() {
    use std::io::Write;
    let path = std::env::temp_dir().join(format!("tool-input-long-line-{}.jsonl", std::process::id()));
    {
        let mut file = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
        writeln!(file, r#"{{"id": 1, "raw": {{"customer_id": "C-1"}}}}"#).unwrap();
        write!(file, r#"{{"id": 2, "raw": ""#).unwrap();
        let chunk = vec![b'x'; 1 << 20];
        for _ in 0..50 {
            file.write_all(&chunk).unwrap();
        }
        writeln!(file, r#""}}"#).unwrap();
        writeln!(file, r#"{{"id": 3, "raw": "{{}}"}}"#).unwrap();
    }
    let output = run(&["check", "--schema", &schema_path(), "--jsonl", &path.to_string_lossy()], b"");
    let _ = std::fs::remove_file(&path);
    assert_eq!(output.status.code(), Some(1), "{}", String::from_utf8_lossy(&output.stderr));
    let lines: Vec<Value> =
        String::from_utf8_lossy(&output.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["id"], 1);
    assert_eq!(lines[1]["kind"], "too_large");
    assert_eq!(lines[1]["errors"][0]["message"], "the input is more than the limit of 8388608 bytes");
    assert_eq!(lines[2]["id"], 3);
}

/// A case's `raw` written as a JSON value reaches the check as the line writes it: a key
/// given twice and an integer past 64 bits are refused as in the same arguments sent as text
/// (read into a `Value` first, the last value won and the number was rounded: accepted). A
/// file may start with a byte order mark; a line that is not an object is not a case (an
/// array was read as `[id, raw]`, a string as a case without arguments), and `bench` reads
/// the cases as `check` does.
#[test]
fn check_jsonl_reads_each_case_as_the_line_writes_it() {
    let dir = std::env::temp_dir().join(format!("tool-input-cases-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let schema = dir.join("schema.json");
    std::fs::write(&schema, r#"{"properties": {"n": {"type": "integer"}, "x": {}}}"#).unwrap();
    let schema = schema.to_string_lossy().into_owned();
    let cases = dir.join("cases.jsonl");
    std::fs::write(
        &cases,
        "\u{feff}{\"id\": 1, \"raw\": {\"x\": 1, \"x\": 2}}\n\
         {\"id\": 2, \"raw\": {\"x\": 123456789012345678901234567890}}\n\
         {\"id\": 3, \"raw\": \"{\\\"x\\\": 1, \\\"x\\\": 2}\"}\n\
         {\"id\": 4, \"raw\": null}\n",
    )
    .unwrap();
    let cases = cases.to_string_lossy().into_owned();
    let output = run(&["check", "--schema", &schema, "--jsonl", &cases], b"");
    assert_eq!(output.status.code(), Some(1), "{}", String::from_utf8_lossy(&output.stderr));
    let lines: Vec<Value> =
        String::from_utf8_lossy(&output.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let codes: Vec<(&Value, &Value)> = lines.iter().map(|l| (&l["id"], &l["errors"][0]["code"])).collect();
    assert_eq!(
        codes,
        [
            (&serde_json::json!(1), &serde_json::json!("duplicate_key")),
            (&serde_json::json!(2), &serde_json::json!("inexact")),
            (&serde_json::json!(3), &serde_json::json!("duplicate_key")),
            (&serde_json::json!(4), &Value::Null)
        ],
        "{lines:?}"
    );
    assert_eq!(lines[3]["value"], serde_json::json!({}));
    let output = run(&["bench", "--schema", &schema, &cases], b"");
    assert_eq!(
        (stdout_json(&output)["ok"].clone(), stdout_json(&output)["rejected"].clone()),
        (serde_json::json!(1), serde_json::json!(3))
    );

    for line in [r#"[1, {"x": 1}]"#, r#""{}""#, r#"{"id": 1, "raw": "{}", "raw": "{\"x\": 1}"}"#] {
        let path = dir.join("not_a_case.jsonl");
        std::fs::write(&path, format!("{line}\n")).unwrap();
        let path = path.to_string_lossy().into_owned();
        for args in
            [&["check", "--schema", &schema, "--jsonl", &path][..], &["bench", "--schema", &schema, &path]]
        {
            let output = run(args, b"");
            assert_eq!(output.status.code(), Some(2), "{line}: {}", String::from_utf8_lossy(&output.stdout));
            assert!(output.stdout.is_empty(), "{line}");
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert!(stderr.contains("line 1: not a JSON case"), "{line}: {stderr}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A case's `id` is echoed as the line wrote it: read into a `serde_json::Value`, `1e2` came
/// back as `100.0`, a long integer rounded, `"\u00e9"` unescaped, an object's keys sorted,
/// so an id no longer matched the one sent. Accepted and rejected lines alike, and an id
/// that is absent or `null` is `null`.
#[test]
fn check_jsonl_echoes_each_id_as_it_was_sent() {
    let dir = std::env::temp_dir().join(format!("tool-input-ids-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let schema = dir.join("schema.json");
    std::fs::write(&schema, r#"{"properties": {"n": {"type": "integer"}}}"#).unwrap();
    let schema = schema.to_string_lossy().into_owned();
    let ids = [
        "1.0",
        "1e2",
        "-0",
        "12345678901234567890123",
        r#""\u00e9""#,
        r#""café""#,
        r#"{"b": 1, "a": [0.50, "x"]}"#,
        "true",
    ];
    let mut lines = String::new();
    for (index, id) in ids.iter().enumerate() {
        // Every other case rejected: `n` is not an integer.
        let raw = if index % 2 == 0 { r#""{\"n\": 1}""# } else { r#""{\"n\": \"x\"}""# };
        lines.push_str(&format!("{{\"id\": {id}, \"raw\": {raw}}}\n"));
    }
    lines.push_str("{\"raw\": \"{}\"}\n{\"id\": null}\n");
    let cases = dir.join("cases.jsonl");
    std::fs::write(&cases, lines).unwrap();
    let cases = cases.to_string_lossy().into_owned();
    let output = run(&["check", "--schema", &schema, "--jsonl", &cases], b"");
    assert_eq!(output.status.code(), Some(1), "{}", String::from_utf8_lossy(&output.stderr));
    let stdout = String::from_utf8(output.stdout).unwrap();
    let printed: Vec<&str> = stdout.lines().collect();
    assert_eq!(printed.len(), ids.len() + 2, "{stdout}");
    for (index, (line, id)) in printed.iter().zip(ids.iter().chain(&["null", "null"])).enumerate() {
        // Each line is still one JSON object, its keys in order, the id's text as sent.
        let value: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        assert_eq!(value["ok"], index % 2 == 0 || index >= ids.len(), "{line}");
        let after_id = if index % 2 == 0 || index >= ids.len() { ",\"ok\":" } else { ",\"kind\":" };
        assert!(line.contains(&format!(",\"id\":{id}{after_id}")), "{line}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A case whose `raw` string holds a lone surrogate escape (`"\ud800"`: JSON allows it, and
/// Python's `json.dumps` writes it for half an emoji) is read with U+FFFD in its place, as
/// `calls` reads the same string as a body's arguments; it ended the whole file with exit 2
/// ("unexpected end of hex escape"). Any other bad escape still does.
#[test]
fn check_jsonl_reads_a_lone_surrogate_in_raw_as_a_body_is_read() {
    let dir = std::env::temp_dir().join(format!("tool-input-surrogate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let schema = dir.join("any.json");
    std::fs::write(&schema, "{}").unwrap();
    let schema = schema.to_string_lossy().into_owned();
    let cases = dir.join("cases.jsonl");
    std::fs::write(
        &cases,
        concat!(r#"{"id": 1, "raw": "{\"x\": \"\ud800!\"}"}"#, "\n", r#"{"id": 2, "raw": "[]"}"#, "\n"),
    )
    .unwrap();
    let cases = cases.to_string_lossy().into_owned();
    let output = run(&["check", "--schema", &schema, "--jsonl", &cases], b"");
    assert_eq!(output.status.code(), Some(1), "{}", String::from_utf8_lossy(&output.stderr));
    let lines: Vec<Value> =
        String::from_utf8_lossy(&output.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["value"], serde_json::json!({"x": "\u{fffd}!"}));
    // The same string as an OpenAI body's arguments.
    let body = r#"{"choices": [{"message": {"tool_calls": [{"id": "a", "type": "function", "function": {"name": "f", "arguments": "{\"x\": \"\ud800!\"}"}}]}}]}"#;
    let calls = stdout_json(&run(&["calls"], body.as_bytes()));
    assert_eq!(calls["calls"][0]["arguments"], lines[0]["value"]);

    let bad = dir.join("bad.jsonl");
    std::fs::write(&bad, concat!(r#"{"id": 1, "raw": "\q"}"#, "\n")).unwrap();
    let output = run(&["check", "--schema", &schema, "--jsonl", &bad.to_string_lossy()], b"");
    assert_eq!(output.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn calls_stops_reading_a_body_at_the_body_limit() {
    let total = 256 * 1024 * 1024;
    let (output, written) = run_on_endless_input(&["calls"], total);
    assert_eq!(output.status.code(), Some(1), "{}", String::from_utf8_lossy(&output.stderr));
    let result = stdout_json(&output);
    assert_eq!(result["calls"], serde_json::json!([]));
    assert_eq!(result["errors"][0]["kind"], "body");
    assert_eq!(result["errors"][0]["message"], "the body is more than the limit of 33554432 bytes");
    assert!(written < total, "the whole input was read");
    // Between the body limit (32 MiB) and the stream limit (64 MiB) it was read whole and
    // refused by the library, naming 32 MiB, where a longer body named 64 MiB: one limit now.
    let (output, written) = run_on_endless_input(&["calls"], 40 * 1024 * 1024);
    assert_eq!(
        stdout_json(&output)["errors"][0]["message"],
        "the body is more than the limit of 33554432 bytes"
    );
    assert!(written < 40 * 1024 * 1024, "the whole input was read");
}

/// `--no-formats` reads `format` as an annotation; `--no-defaults` reads `default` as one
/// (nothing filled, and a default its own schema refuses is no schema error).
#[test]
fn check_switches_formats_and_defaults_to_annotations() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("cli-switches-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("the scratch directory");
    let schema = dir.join("schema.json");
    std::fs::write(
        &schema,
        r#"{"type": "object", "properties": {"id": {"type": "string", "format": "uuid"},
            "n": {"type": "integer", "default": "ten"}}}"#,
    )
    .expect("the schema is written");
    let schema = schema.to_string_lossy().into_owned();

    // The default its own schema refuses: a schema error (exit 2), blamed on nobody's call.
    let refused = run(&["check", "--schema", &schema], br#"{"id": "not-a-uuid"}"#);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("/properties/n/default"));

    let annotated = run(&["check", "--schema", &schema, "--no-defaults"], br#"{"id": "not-a-uuid"}"#);
    assert_eq!(annotated.status.code(), Some(1), "{}", String::from_utf8_lossy(&annotated.stderr));
    assert_eq!(stdout_json(&annotated)["errors"][0]["code"], "format");

    let both =
        run(&["check", "--schema", &schema, "--no-defaults", "--no-formats"], br#"{"id": "not-a-uuid"}"#);
    assert_eq!(both.status.code(), Some(0), "{}", String::from_utf8_lossy(&both.stderr));
    assert_eq!(stdout_json(&both)["value"], serde_json::json!({"id": "not-a-uuid"}));
}

/// `--resource URI FILE` gives a document the schema's `$ref`s may reach; without it, the
/// reference is a schema error (exit 2), never fetched.
#[test]
fn check_reads_the_documents_its_schema_refers_to_from_files() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("cli-resources-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("the scratch directory");
    let schema = dir.join("schema.json");
    std::fs::write(
        &schema,
        r#"{"type": "object", "properties": {"id": {"$ref": "https://example.com/defs.json#/$defs/id"}},
            "required": ["id"]}"#,
    )
    .expect("the schema is written");
    let defs = dir.join("defs.json");
    std::fs::write(&defs, r#"{"$defs": {"id": {"type": "string", "pattern": "^ord_"}}}"#)
        .expect("the definitions are written");
    let (schema, defs) = (schema.to_string_lossy().into_owned(), defs.to_string_lossy().into_owned());

    let unreached = run(&["check", "--schema", &schema], br#"{"id": "ord_1"}"#);
    assert_eq!(unreached.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&unreached.stderr).contains("never fetched"));

    let given = ["check", "--schema", &schema, "--resource", "https://example.com/defs.json", &defs];
    let accepted = run(&given, br#"{"id": "ord_1"}"#);
    assert_eq!(accepted.status.code(), Some(0), "{}", String::from_utf8_lossy(&accepted.stderr));
    let rejected = run(&given, br#"{"id": "1"}"#);
    assert_eq!(rejected.status.code(), Some(1));
    assert_eq!(stdout_json(&rejected)["errors"][0]["path"], "/id");

    let missing = run(&["check", "--schema", &schema, "--resource", "https://example.com/defs.json"], b"{}");
    assert_eq!(missing.status.code(), Some(2));
}
