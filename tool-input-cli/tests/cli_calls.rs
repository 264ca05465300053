//! `tool-input calls` and `tool-input schema`: their exact JSON fields and exit codes.

mod cli_support;
#[path = "../../suite/tests/common/mod.rs"]
mod common;

use cli_support::{keys, run, stdout_json};

use std::collections::BTreeSet;

use serde_json::{json, Value};

/// A call's arguments sent as text are printed with every number as the model wrote it: from
/// the parsed `serde_json::Value`, `12345678901234567890123` was `1.2345678901234568e+22`,
/// `0.1000000000000000055511151231257827` was `0.1` and `1e2` was `100.0`. A number the
/// lenient parse repaired is JSON of the same value; arguments sent as a JSON value are
/// printed as before.
#[test]
fn calls_print_arguments_with_the_numbers_the_model_wrote() {
    let arguments = r#"{"n": 12345678901234567890123, "x": 0.1000000000000000055511151231257827, 'y': [1e2, -0, .5], "z": 1}"#;
    let printed =
        r#"{"n":12345678901234567890123,"x":0.1000000000000000055511151231257827,"y":[1e2,-0,0.5],"z":1}"#;
    let body = json!({"choices": [{"message": {"role": "assistant", "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": arguments}}
    ]}}]});
    let stream = format!(
        "data: {}\n\ndata: [DONE]\n\n",
        json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "call_1", "type": "function",
            "function": {"name": "f", "arguments": arguments}}]}, "finish_reason": "tool_calls"}]})
    );
    let text = format!("<tool_call>{{\"name\": \"f\", \"arguments\": {arguments}}}</tool_call>");
    for (args, input) in [
        (&["calls"][..], body.to_string()),
        (&["calls", "--stream"], stream),
        (&["calls", "--format", "text"], text),
    ] {
        let output = run(args, input.as_bytes());
        assert_eq!(output.status.code(), Some(0), "{args:?}: {}", String::from_utf8_lossy(&output.stdout));
        let stdout = String::from_utf8(output.stdout).unwrap();
        assert!(
            stdout.starts_with(&format!("{{\"calls\":[{{\"arguments\":{printed},\"id\":")),
            "{args:?}: {stdout}"
        );
        // Still one JSON value, its other fields as before.
        let result: Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(result["calls"][0]["name"], "f", "{args:?}");
    }
    // Sent as a JSON value (Anthropic's `input`): printed from the value, as before.
    let body = json!({"content": [{"type": "tool_use", "id": "t1", "name": "f", "input": {"x": 1.5}}], "stop_reason": "tool_use"});
    let output = run(&["calls", "--format", "anthropic"], body.to_string().as_bytes());
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.starts_with(r#"{"calls":[{"arguments":{"x":1.5},"id":"t1""#), "{stdout}");
}

#[test]
fn calls_prints_calls_and_errors() {
    let body = json!({"choices": [{"message": {"role": "assistant", "tool_calls": [
        {"id": "functions.get_weather:0", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}},
        {"id": "call_2", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Ro"}}
    ]}}]});
    let output = run(&["calls"], body.to_string().as_bytes());
    assert_eq!(output.status.code(), Some(1), "{}", String::from_utf8_lossy(&output.stderr));
    let result = stdout_json(&output);
    assert_eq!(keys(&result), BTreeSet::from(["calls", "errors", "content", "reasoning"]));
    assert_eq!(
        result["calls"],
        json!([{"id": "functions.get_weather:0", "name": "get_weather", "arguments": {"city": "Paris"}}])
    );
    let errors = result["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 1);
    assert_eq!(
        keys(&errors[0]),
        BTreeSet::from(["kind", "message", "id", "id_generated", "name", "arguments", "arguments_cut"])
    );
    assert_eq!(errors[0]["kind"], "truncated");
    assert_eq!(errors[0]["id"], "call_2");
    assert_eq!(errors[0]["id_generated"], false);
    assert_eq!(errors[0]["name"], "get_weather");
    assert_eq!(errors[0]["arguments"], "{\"city\": \"Ro");
    assert_eq!(errors[0]["arguments_cut"], false);
    assert!(errors[0]["message"].as_str().unwrap().contains("get_weather"));
}

/// `tool-input help calls` names every field an error record has (it named `kind` and
/// `message` only, where every error but a body's carries five more).
#[test]
fn calls_help_names_every_field_of_its_output() {
    let body = json!({"choices": [{"message": {"role": "assistant", "tool_calls": [
        {"id": "call_2", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Ro"}}
    ]}}]});
    let result = stdout_json(&run(&["calls"], body.to_string().as_bytes()));
    let help = String::from_utf8(run(&["help", "calls"], b"").stdout).unwrap();
    let fields = keys(&result).into_iter().chain(keys(&result["errors"][0]));
    for field in fields.chain(keys(&json!({"id": 1, "name": 1, "arguments": 1}))) {
        assert!(help.contains(&format!("\"{field}\"")), "`{field}` not in the help: {help}");
    }
    assert!(help.contains(r#"{"calls": [], "errors": [{"kind": "body", "message"}]}"#), "{help}");
}

#[test]
fn calls_errors_carry_id_name_as_sent_and_bounded_arguments() {
    // A numeric id, a name the reader does not know, arguments longer than the bound.
    let long = format!("{{\"q\": \"{}\"", "é".repeat(5000));
    let body = json!({"choices": [{"message": {"role": "assistant", "tool_calls": [
        {"id": 42, "type": "function", "function": {"name": " search ", "arguments": long}},
        {"type": "function", "function": {"arguments": {"a": 1}}}
    ]}}]});
    let output = run(&["calls", "--tools", "get_weather"], body.to_string().as_bytes());
    assert_eq!(output.status.code(), Some(1));
    let errors = stdout_json(&output)["errors"].as_array().unwrap().clone();
    assert_eq!(errors[0]["kind"], "unknown_tool");
    assert_eq!(errors[0]["id"], "42");
    assert_eq!(errors[0]["id_generated"], false);
    assert_eq!(errors[0]["name"], " search ");
    assert_eq!(errors[0]["arguments_cut"], true);
    let arguments = errors[0]["arguments"].as_str().unwrap();
    assert_eq!(arguments.chars().count(), 4096);
    assert!(long.starts_with(arguments));
    // No name, arguments sent as an object: printed as compact JSON text.
    assert_eq!(errors[1]["kind"], "malformed");
    assert_eq!(errors[1]["name"], Value::Null);
    assert_eq!(errors[1]["id_generated"], true);
    assert_eq!(errors[1]["arguments"], r#"{"a":1}"#);
    assert_eq!(errors[1]["arguments_cut"], false);
}

#[test]
fn calls_reads_text_with_known_tools() {
    let text = "Let me check. <tool_call>{\"name\": \"Get_Weather\", \"arguments\": {\"city\": \"Paris\"}}</tool_call>";
    let output = run(&["calls", "--format", "text", "--tools", "get_weather, get_time"], text.as_bytes());
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let result = stdout_json(&output);
    let call = &result["calls"][0];
    assert_eq!(keys(call), BTreeSet::from(["id", "name", "arguments"]));
    assert_eq!(call["name"], "get_weather");
    assert_eq!(call["arguments"], json!({"city": "Paris"}));
    assert!(call["id"].as_str().unwrap().starts_with("call_"));
    assert_eq!(result["errors"], json!([]));
    assert_eq!(result["content"], "Let me check. ");
    assert_eq!(result["reasoning"], Value::Null);

    // Bare JSON naming an unknown tool stays text: no call, no error.
    let output =
        run(&["calls", "--format", "text", "--tools", "get_time"], br#"{"name": "search", "arguments": {}}"#);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        stdout_json(&output),
        json!({"calls": [], "errors": [], "content": "{\"name\": \"search\", \"arguments\": {}}", "reasoning": null})
    );

    // A marked call to an unknown tool is an error.
    let output = run(
        &["calls", "--tools", "get_time"],
        b"<tool_call>{\"name\": \"search\", \"arguments\": {}}</tool_call>",
    );
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(stdout_json(&output)["errors"][0]["kind"], "unknown_tool");
}

#[test]
fn calls_detects_every_format() {
    let bodies = [
        json!({"output": [{"type": "function_call", "call_id": "call_r", "name": "f", "arguments": "{}"}]}),
        json!({"type": "message", "role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}]}),
        json!({"candidates": [{"content": {"parts": [{"functionCall": {"name": "f", "args": {}}}]}}]}),
        json!({"message": {"role": "assistant", "tool_calls": [{"function": {"name": "f", "arguments": {}}}]}, "done": true}),
    ];
    for (body, format) in bodies.iter().zip(["responses", "anthropic", "gemini", "ollama"]) {
        for args in [vec!["calls"], vec!["calls", "--format", format]] {
            let output = run(&args, body.to_string().as_bytes());
            assert_eq!(
                output.status.code(),
                Some(0),
                "{format}: {}",
                String::from_utf8_lossy(&output.stdout)
            );
            assert_eq!(stdout_json(&output)["calls"][0]["name"], "f");
        }
    }
}

#[test]
fn calls_exit_codes_for_bad_input() {
    let output = run(&["calls", "--format", "anthropic"], b"not json");
    assert_eq!(output.status.code(), Some(1));
    let result = stdout_json(&output);
    assert_eq!(result["calls"], json!([]));
    assert_eq!(result["errors"][0]["kind"], "body");
    assert_eq!(run(&["calls", "--format", "xml"], b"{}").status.code(), Some(2));
    assert_eq!(run(&["calls", "/nonexistent/body.json"], b"").status.code(), Some(2));
    // A directory, as a body or a stream: exit 2, naming it (the stream's message named
    // "the stream" only).
    let dir = std::env::temp_dir();
    let dir = dir.to_string_lossy();
    for args in [&["calls", &*dir][..], &["calls", "--stream", &*dir]] {
        let output = run(args, b"");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.starts_with(&format!("tool-input: cannot read {dir}: ")), "{args:?}: {stderr}");
    }
}

#[test]
fn calls_on_a_recorded_response() {
    let path = common::corpus_dir().join("provider-responses/litellm.json");
    let cases: Vec<Value> = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    for case in cases {
        let output = run(&["calls"], case["payload"].to_string().as_bytes());
        assert_eq!(output.status.code(), Some(0));
        let result = stdout_json(&output);
        let got: Vec<Value> = result["calls"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| json!({"name": c["name"], "arguments": c["arguments"]}))
            .collect();
        assert_eq!(Value::Array(got), case["expected_calls"]);
    }
}

fn schema_path() -> String {
    common::bench_data_dir().join("create_order.schema.json").to_string_lossy().into_owned()
}

/// `schema` prints each float as the schema file wrote it: from a `serde_json::Value`,
/// `"maximum": 12345678901234567890123` was `1.2345678901234568e+22`, another bound, and
/// `1e2` was `100.0`. Texts that read as one float (`0.1`, `0.10`) are written as
/// `serde_json` writes that float; integers, strings and everything else as before.
#[test]
fn schema_prints_each_float_as_the_file_wrote_it() {
    let dir = std::env::temp_dir().join(format!("tool-input-schema-floats-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bounds.json");
    std::fs::write(
        &path,
        r#"{"type": "object", "properties": {
            "n": {"type": "number", "maximum": 12345678901234567890123, "exclusiveMinimum": 1e-3,
                  "minimum": -0, "multipleOf": 0.10},
            "m": {"type": "integer", "minimum": 1e2, "maximum": 7, "description": "not a number: 2.50 \" 1e5"},
            "e": {"enum": [0.1, 2.50]}}}"#,
    )
    .unwrap();
    let path = path.to_string_lossy().into_owned();
    let output = run(&["schema", "--dialect", "openai", &path], b"");
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let printed = String::from_utf8(output.stdout).unwrap();
    for expected in [
        r#""maximum": 12345678901234567890123,"#,
        r#""exclusiveMinimum": 1e-3,"#,
        r#""minimum": -0,"#,
        r#""multipleOf": 0.1,"#,
        r#""minimum": 1e2,"#,
        r#""maximum": 7,"#,
        r#""description": "not a number: 2.50 \" 1e5","#,
        "  0.1,\n",
        "  2.50\n",
    ] {
        assert!(printed.contains(expected), "{expected}: {printed}");
    }
    // Still pretty-printed JSON, keys sorted.
    let definition: Value = serde_json::from_str(&printed).unwrap();
    assert_eq!(definition["function"]["parameters"]["properties"]["n"]["type"], "number");
    assert!(printed.starts_with("{\n  \"function\": {\n    \"name\": \"bounds\","), "{printed}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A float the file wrote two ways, once in a key given twice (the last value stands), is
/// written as `serde_json` writes it, as any float written two ways is; the file's other
/// floats as it wrote them.
#[test]
fn schema_reads_every_float_the_file_wrote_a_key_given_twice_included() {
    let dir = std::env::temp_dir().join(format!("tool-input-schema-twice-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("twice.json");
    std::fs::write(
        &path,
        r#"{"type": "object", "properties": {"n": {"type": "number",
            "maximum": 1.50, "maximum": 2.50, "minimum": 1.5e0, "multipleOf": 0.250}}}"#,
    )
    .unwrap();
    let output = run(&["schema", "--dialect", "mcp", &path.to_string_lossy()], b"");
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let printed = String::from_utf8(output.stdout).unwrap();
    for expected in [r#""maximum": 2.50,"#, r#""minimum": 1.5,"#, r#""multipleOf": 0.250,"#] {
        assert!(printed.contains(expected), "{expected}: {printed}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn schema_prints_the_definition_in_each_dialect() {
    let output = run(&["schema", "--dialect", "openai-strict", &schema_path()], b"");
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let definition = stdout_json(&output);
    assert_eq!(keys(&definition), BTreeSet::from(["type", "function"]));
    assert_eq!(definition["function"]["name"], "create_order");
    assert_eq!(definition["function"]["description"], "Create an order for a customer.");
    assert_eq!(definition["function"]["strict"], true);
    assert!(definition["function"]["parameters"].get("title").is_none());

    for (dialect, schema_key) in [
        ("openai", "/function/parameters"),
        ("responses", "/parameters"),
        ("responses-strict", "/parameters"),
        ("anthropic", "/input_schema"),
        ("gemini", "/parameters"),
        ("mcp", "/inputSchema"),
    ] {
        let output = run(
            &["schema", "--dialect", dialect, "--name", "order", "--description", "Order.", &schema_path()],
            b"",
        );
        assert_eq!(output.status.code(), Some(0), "{dialect}");
        let definition = stdout_json(&output);
        assert!(definition.pointer(schema_key).is_some_and(Value::is_object), "{dialect}: {definition}");
        let name = definition.get("name").or_else(|| definition.pointer("/function/name")).unwrap();
        assert_eq!(name, "order");
    }
}

#[test]
fn schema_check_lists_what_the_dialect_rejects() {
    for dialect in ["openai", "openai-strict", "responses", "responses-strict", "anthropic", "gemini", "mcp"]
    {
        let output = run(&["schema", "--dialect", dialect, "--check", &schema_path()], b"");
        assert_eq!(output.status.code(), Some(0), "{dialect}: {}", String::from_utf8_lossy(&output.stdout));
        assert_eq!(stdout_json(&output), json!({"ok": true, "problems": []}));
    }
    let bad = std::env::temp_dir().join(format!("tool-input-bad-{}.schema.json", std::process::id()));
    std::fs::write(&bad, r#"{"type": "object", "properties": {"labels": {"type": "object", "additionalProperties": {"type": "string"}}}}"#).unwrap();
    let bad_path = bad.to_string_lossy().into_owned();
    let output =
        run(&["schema", "--dialect", "openai-strict", "--name", "bad name", "--check", &bad_path], b"");
    assert_eq!(output.status.code(), Some(1));
    let result = stdout_json(&output);
    assert_eq!(result["ok"], false);
    let problems = result["problems"].as_array().unwrap();
    assert_eq!(keys(&problems[0]), BTreeSet::from(["pointer", "code", "message"]));
    let codes: BTreeSet<&str> = problems.iter().map(|p| p["code"].as_str().unwrap()).collect();
    assert_eq!(codes, BTreeSet::from(["name", "unrepresentable"]));
    // Without --check the definition is still printed.
    assert_eq!(run(&["schema", "--dialect", "openai", &bad_path], b"").status.code(), Some(0));
    let _ = std::fs::remove_file(&bad);

    assert_eq!(run(&["schema", "--dialect", "cohere", &schema_path()], b"").status.code(), Some(2));
    assert_eq!(run(&["schema", "--dialect", "openai", "/nonexistent.json"], b"").status.code(), Some(2));
}

#[test]
fn calls_reads_a_named_text_format_and_prints_the_reasoning_apart() {
    let text = "<think>Maybe <tool_call>{\"name\": \"ping\", \"arguments\": {}}</tool_call>.</think>Checking.<minimax:tool_call><invoke name=\"get_weather\"><parameter name=\"city\">Oslo</parameter></invoke></minimax:tool_call>";
    for format in ["text", "text:minimax_m2"] {
        let output = run(&["calls", "--format", format], text.as_bytes());
        assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
        let result = stdout_json(&output);
        assert_eq!(result["calls"].as_array().unwrap().len(), 1, "{format}");
        assert_eq!(result["calls"][0]["name"], "get_weather");
        assert_eq!(result["content"], "Checking.");
        assert_eq!(
            result["reasoning"],
            "Maybe <tool_call>{\"name\": \"ping\", \"arguments\": {}}</tool_call>."
        );
    }
    // Named, another format's markers are content.
    let output = run(&["calls", "--format", "text:hermes"], text.as_bytes());
    assert_eq!(stdout_json(&output)["calls"], json!([]));
    // An unknown format name is a usage error.
    let output = run(&["calls", "--format", "text:nope"], text.as_bytes());
    assert_eq!(output.status.code(), Some(2));
}
