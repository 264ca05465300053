//! `tool-input check` prints a call the one-pass check decides as it reads it, without a
//! `serde_json::Value` of it (for its peak memory); every line must still be the line the
//! full check's `Value` gives, byte for byte. Each case here is checked by the program and
//! by the library (`Validator::check`, the line built from its `Value` as the program built
//! it before), on many schemas: defaults at every depth, keys that are numbers, arrays of
//! more than ten coerced items, keys that need escaping, mangled text, every policy, and
//! the JSON Schema Test Suite's schemas and data.

mod cli_support;
#[path = "../../suite/tests/common/mod.rs"]
mod common;

use std::path::{Path, PathBuf};

use cli_support::run;
use serde_json::{json, Map, Value};
use tool_input::{Policy, RawArguments, Validator};

/// A directory of its own for each test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cli_check-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("the scratch directory");
    dir
}

fn sort_all(value: &mut Value) {
    match value {
        Value::Object(map) => {
            map.sort_keys();
            map.values_mut().for_each(sort_all);
        }
        Value::Array(items) => items.iter_mut().for_each(sort_all),
        _ => {}
    }
}

/// The line the program printed for a case from the full check's `Value` (its
/// `result_json`), the keys of every object sorted.
fn expected_line(validator: &Validator, id: &Value, raw: Option<&Value>, name: Option<&str>) -> String {
    // The program reads a case's `raw` as the text its line writes: a value written there by
    // `serde_json` is its compact JSON, whose key order (a build with `preserve_order` keeps
    // the suite's) orders the errors.
    let written;
    let raw = match raw {
        Some(Value::String(text)) => RawArguments::Text(text),
        None | Some(Value::Null) => RawArguments::Absent,
        Some(other) => {
            written = other.to_string();
            RawArguments::Text(&written)
        }
    };
    let mut line = match validator.check(raw) {
        Ok(checked) => {
            let mut map = Map::new();
            map.insert("ok".to_owned(), Value::Bool(true));
            map.insert("value".to_owned(), checked.value);
            map.insert("repairs".to_owned(), json!(checked.report.repairs));
            map.insert("coercions".to_owned(), json!(checked.report.coercions));
            if checked.report.omitted_coercions > 0 {
                map.insert("omitted_coercions".to_owned(), json!(checked.report.omitted_coercions));
            }
            Value::Object(map)
        }
        Err(rejection) => {
            let rejection = match name {
                Some(name) => rejection.with_tool(name),
                None => rejection,
            };
            let mut line = json!(rejection);
            line["ok"] = Value::Bool(false);
            line
        }
    };
    line["id"] = id.clone();
    sort_all(&mut line);
    serde_json::to_string(&line).expect("a line")
}

/// Run `check --jsonl` on `cases` under `schema` and `policy`, and compare every line with
/// the library's. Returns how many were accepted.
fn assert_lines_match(dir: &Path, schema: &Value, policy: &str, cases: &[Value]) -> usize {
    let schema_path = dir.join("schema.json");
    std::fs::write(&schema_path, serde_json::to_vec(schema).unwrap()).unwrap();
    let cases_path = dir.join("cases.jsonl");
    let mut text = String::new();
    for case in cases {
        text.push_str(&serde_json::to_string(case).unwrap());
        text.push('\n');
    }
    std::fs::write(&cases_path, text).unwrap();
    let output = run(
        &[
            "check",
            "--schema",
            schema_path.to_str().unwrap(),
            "--policy",
            policy,
            "--jsonl",
            cases_path.to_str().unwrap(),
        ],
        b"",
    );
    assert!(matches!(output.status.code(), Some(0 | 1)), "{}", String::from_utf8_lossy(&output.stderr));
    let policy: Policy = policy.parse().unwrap();
    let validator = Validator::builder(schema).policy(policy).build().expect("the schema compiles");
    let name = schema.get("title").and_then(Value::as_str);
    let printed = String::from_utf8(output.stdout).expect("UTF-8");
    let printed: Vec<&str> = printed.lines().collect();
    assert_eq!(printed.len(), cases.len(), "one line per case");
    let mut accepted = 0;
    for (case, line) in cases.iter().zip(printed) {
        let expected = expected_line(&validator, &case["id"], case.get("raw"), name);
        assert_eq!(line, expected, "case {case}");
        accepted += usize::from(line.contains("\"ok\":true"));
    }
    accepted
}

fn cases(raws: impl IntoIterator<Item = Value>) -> Vec<Value> {
    raws.into_iter().enumerate().map(|(id, raw)| json!({"id": id, "raw": raw})).collect()
}

/// Defaults at every depth (objects in arrays, a default that is an object to sort, keys
/// that need escaping), numbers as keys, more than ten coerced items of an array.
fn nested_schema() -> Value {
    json!({
        "title": "nested",
        "type": "object",
        "properties": {
            "items": {"type": "array", "items": {"$ref": "#/$defs/item"}},
            "map": {"type": "object", "additionalProperties": {"type": "integer"}},
            "zopt": {"type": "object", "properties": {"z": {"default": {"b": 1, "a": [2, {"y": 1, "x": 0}]}}}},
            "opt": {
                "type": "object",
                "properties": {
                    "a": {"type": "integer", "default": -1},
                    "tags": {"type": "array", "default": ["x", 1.5, null]},
                    "inner": {"type": "object", "properties": {"deep": {"type": "boolean", "default": false}}}
                }
            },
            "label": {"type": "string", "default": "x/y"},
            "a/b": {"type": "string", "default": "slash"},
            "t~1": {"default": null},
            "n": {"type": "number"},
            "free": {}
        },
        "$defs": {
            "item": {
                "type": "object",
                "properties": {
                    "n": {"type": "integer"},
                    "flag": {"type": "boolean", "default": true},
                    "kind": {"enum": ["Alpha", "beta"]}
                },
                "required": ["n"]
            }
        }
    })
}

fn nested_raws() -> Vec<Value> {
    let items: Vec<String> = (0..13)
        .map(|i| match i % 4 {
            0 => format!(r#"{{"n": "{i}"}}"#),
            1 => format!(r#"{{"n": {i}, "kind": "alpha"}}"#),
            2 => format!(r#"{{"n": {i}, "flag": false}}"#),
            _ => format!(r#"{{"kind": "BETA", "n": "{i}", "flag": "true"}}"#),
        })
        .collect();
    let items = items.join(", ");
    let mut raws: Vec<Value> = [
        format!(r#"{{"items": [{items}]}}"#),
        format!(r#"{{"opt": {{}}, "items": [{items}], "map": {{"9": "9", "10": "10", "100": 1, "z": "2", "é": "3", "Z": 4}}}}"#),
        format!(r#"{{"items": [{items}], "map": {{"9": "9", "10": "10", "100": 1, "z": "2", "é": "3", "Z": 4}}, "opt": {{"inner": {{}}}}}}"#),
        r#"{"zopt": {}, "label": "here"}"#.to_owned(),
        r#"{"opt": {"inner": {}}, "label": "here"}"#.to_owned(),
        r#"{"opt": {"a": "7", "inner": {"deep": "true"}}, "a/b": "set", "t~1": 1}"#.to_owned(),
        r#"{"n": 1.5, "free": [-0.0, 1e300, 18446744073709551615, -9223372036854775808, 0.1, "\u0000\u001f\"\\"]}"#.to_owned(),
        r#"{"n": 12345678901234567890, "free": {"b": {"d": 1, "c": [{"f": 1, "e": 2}]}, "a": null}}"#.to_owned(),
        r#"{"items": "[{\"n\": 1}, {\"n\": \"2\", \"kind\": \"ALPHA\"}]", "map": "{\"2\": 2, \"10\": \"10\"}"}"#.to_owned(),
        // Mangled: single quotes, trailing commas, Python literals, comments, fences, prose.
        format!("{{'items': [{}], 'opt': {{'inner': {{'deep': True,}},}},}}", items.replace('"', "'")),
        "```json\n{\"opt\": {}, \"label\": \"x\"} // done\n```".to_owned(),
        r#"{"opt": {}} and some prose after it"#.to_owned(),
        r#"Here you go: {"map": {"1": "1", "01": 2}, "opt": {"inner": {}}}"#.to_owned(),
        // Taken by the full check: a key twice, an integral float, a rejection.
        r#"{"opt": {}, "opt": {}}"#.to_owned(),
        r#"{"items": [{"n": 1.0}], "opt": {}}"#.to_owned(),
        r#"{"items": [{"kind": "gamma"}], "map": {"a": "x"}}"#.to_owned(),
        String::new(),
        "not json".to_owned(),
    ]
    .into_iter()
    .map(Value::String)
    .collect();
    // More records than the one pass puts in order (the full check prints it), and fewer.
    for count in [1100, 990] {
        let many: Vec<String> = (0..count).map(|i| format!(r#"{{"n": "{i}", "flag": true}}"#)).collect();
        raws.push(Value::String(format!(r#"{{"items": [{}], "label": "l"}}"#, many.join(","))));
    }
    // Arguments sent as a JSON value, not text.
    raws.push(json!({"items": [{"n": "3"}, {"n": 4, "kind": "beta"}], "opt": {"inner": {}}}));
    raws.push(json!({"map": {"10": "1", "9": 2}}));
    raws.push(json!([1, 2]));
    raws.push(Value::Null);
    raws
}

#[test]
fn one_pass_lines_match_the_full_check_on_nested_defaults_and_orders() {
    let dir = scratch("nested");
    for policy in ["default", "strict", "lenient"] {
        let accepted = assert_lines_match(&dir, &nested_schema(), policy, &cases(nested_raws()));
        assert!(accepted > 0, "{policy}: some cases are accepted");
    }
}

#[test]
fn one_pass_lines_match_the_full_check_on_the_workloads() {
    let dir = scratch("workloads");
    let data = common::bench_data_dir();
    let schema: Value =
        serde_json::from_slice(&std::fs::read(data.join("create_order.schema.json")).unwrap()).unwrap();
    for workload in ["clean", "mangled", "invalid"] {
        let text = std::fs::read_to_string(data.join(format!("{workload}.jsonl"))).unwrap();
        let cases: Vec<Value> =
            text.lines().take(300).map(|line| serde_json::from_str(line).unwrap()).collect();
        for policy in ["default", "lenient"] {
            assert_lines_match(&dir, &schema, policy, &cases);
        }
    }
}

#[test]
fn one_pass_lines_match_the_full_check_on_the_json_schema_test_suite() {
    let dir = scratch("suite");
    let suite = common::corpus_dir().join("json-schema-test-suite");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&suite)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "json") && !path.ends_with("PROVENANCE.json"))
        .collect();
    files.sort();
    let mut schemas = 0;
    for file in files {
        let groups: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
        for group in groups.as_array().into_iter().flatten() {
            let schema = &group["schema"];
            if Validator::new(schema).is_err() {
                continue; // a schema the engine refuses (the program says so, exit 2)
            }
            let mut raws = Vec::new();
            for test in group["tests"].as_array().into_iter().flatten() {
                raws.push(test["data"].clone());
                raws.push(Value::String(test["data"].to_string()));
            }
            assert_lines_match(&dir, schema, "default", &cases(raws));
            schemas += 1;
        }
    }
    assert!(schemas > 50, "{schemas} schemas");
}

/// A workload of `calls` (raw argument texts) in a file of its own.
fn workload(dir: &Path, name: &str, calls: &[String]) -> PathBuf {
    let path = dir.join(format!("{name}.jsonl"));
    let lines: Vec<String> =
        calls.iter().enumerate().map(|(id, raw)| json!({"id": id, "raw": raw}).to_string()).collect();
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

/// A valid create_order call of about `bytes` bytes.
fn large_call(bytes: usize) -> String {
    let item = r#"{"sku": "ABC-1234", "quantity": 3, "note": "handle with care"}"#;
    let items = vec![item; bytes / (item.len() + 2) + 1].join(", ");
    format!(r#"{{"customer_id": "C-1", "priority": "high", "tags": ["a"], "items": [{items}]}}"#)
}

fn bench(workload: &Path) -> (String, Value) {
    let schema = common::bench_data_dir().join("create_order.schema.json");
    let output = run(&["bench", "--schema", schema.to_str().unwrap(), workload.to_str().unwrap()], b"");
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let text = String::from_utf8(output.stdout).unwrap();
    let line: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    (text, line)
}

#[test]
fn bench_adds_the_peak_memory_of_check_on_the_largest_case_after_the_peer_keys() {
    let dir = scratch("bench");
    let large = large_call(300 * 1024);
    let path = workload(&dir, "sized", &["{}".to_owned(), large.clone(), large_call(1000)]);
    let (text, line) = bench(&path);
    let peer = ["workload", "cases", "ok", "rejected", "ns_per_case"];
    let memory = ["input_bytes", "peak_rss_bytes", "baseline_rss_bytes", "peak_ratio"];
    // The keys in their printed order (the line is written by hand, not from a map).
    let order: Vec<usize> =
        peer.iter().chain(&memory).filter_map(|key| text.find(&format!("\"{key}\":"))).collect();
    if !cfg!(target_os = "linux") {
        assert_eq!(order.len(), peer.len(), "no memory keys off Linux: {text}");
        return;
    }
    assert_eq!(order.len(), peer.len() + memory.len(), "{text}");
    assert!(order.windows(2).all(|pair| pair[0] < pair[1]), "key order: {text}");
    assert_eq!(line["cases"], 3);
    assert_eq!(line["ok"], 2);
    assert_eq!(line["input_bytes"].as_u64(), Some(large.len() as u64), "the largest case: {text}");
    let peak = line["peak_rss_bytes"].as_u64().expect("a peak");
    let baseline = line["baseline_rss_bytes"].as_u64().expect("a baseline");
    // Resident memory: at least a page, and less than a process could hold here.
    for bytes in [peak, baseline] {
        assert!((4096..1 << 40).contains(&bytes), "{text}");
    }
    let ratio = line["peak_ratio"].as_f64().expect("a ratio for an input of 64 KiB or more");
    assert!(ratio >= 0.0 && ratio.is_finite(), "{text}");
    let expected = peak.saturating_sub(baseline) as f64 / large.len() as f64;
    assert!((ratio - expected).abs() < 0.006, "the ratio is (peak - baseline) / input: {text}");
}

#[test]
fn bench_prints_no_ratio_for_small_inputs() {
    let dir = scratch("bench-small");
    let path = workload(&dir, "small", &[large_call(2000), "not json".to_owned()]);
    let (text, line) = bench(&path);
    assert_eq!(line["rejected"], 1);
    if cfg!(target_os = "linux") {
        assert_eq!(line["input_bytes"].as_u64(), Some(large_call(2000).len() as u64), "{text}");
        assert!(line["peak_rss_bytes"].as_u64().is_some(), "{text}");
        assert_eq!(line["peak_ratio"], Value::Null, "{text}");
    }
}

/// A workload whose largest case is over the input limit: `check` refuses it after reading
/// one byte past the limit, and the memory keys are still printed (they were left out, the
/// rest of the case finding the pipe closed).
#[test]
fn bench_measures_check_on_a_largest_case_over_the_input_limit() {
    let dir = scratch("bench-over");
    let over = large_call(9 * 1024 * 1024);
    let path = workload(&dir, "over", &[large_call(1000), over.clone()]);
    let (text, line) = bench(&path);
    assert_eq!(line["rejected"], 1, "{text}");
    if cfg!(target_os = "linux") {
        assert_eq!(line["input_bytes"].as_u64(), Some(over.len() as u64), "{text}");
        assert!(line["peak_rss_bytes"].as_u64().is_some(), "{text}");
        assert!(line["peak_ratio"].as_f64().is_some(), "{text}");
    }
}
