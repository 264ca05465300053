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
