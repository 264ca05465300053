//! Reading tool calls: the quirks of each backend (ids, arguments in every shape, names),
//! and every text format, as tables.

use std::collections::HashSet;

use serde_json::{json, Value};
use tool_input::calls::{
    generate_id, parse_body, parse_text, parse_value, CallErrorKind, CallOptions, Calls, Format, KnownTool,
    TextFormat,
};

fn chat(tool_calls: Value) -> Value {
    json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": null, "tool_calls": tool_calls}, "finish_reason": "tool_calls"}]})
}

fn names_and_arguments(calls: &Calls) -> Vec<(String, Value)> {
    calls.calls.iter().map(|c| (c.name.clone(), Value::Object(c.arguments.clone()))).collect()
}

fn error_kinds(calls: &Calls) -> Vec<&'static str> {
    calls.errors.iter().map(|e| e.kind.code()).collect()
}

#[test]
fn provider_ids_are_kept_byte_for_byte() {
    for id in [
        "call_abc123",
        "functions.get_weather:0",
        "gSIMJiOkT",
        "toolu_01A9HHF5Ezy3oBrKmSgfASm9",
        " spaced id ",
        "ünï",
    ] {
        let body =
            chat(json!([{"id": id, "type": "function", "function": {"name": "f", "arguments": "{}"}}]));
        let calls = parse_value(&body, &CallOptions::new()).unwrap();
        assert_eq!(calls.calls[0].id, id);
        assert!(!calls.calls[0].id_generated);
    }
}

#[test]
fn missing_null_or_empty_ids_get_unique_generated_ones() {
    let body = chat(json!([
        {"type": "function", "function": {"name": "f", "arguments": "{}"}},
        {"id": null, "type": "function", "function": {"name": "f", "arguments": "{}"}},
        {"id": "", "type": "function", "function": {"name": "f", "arguments": "{}"}},
        {"id": true, "type": "function", "function": {"name": "f", "arguments": "{}"}},
    ]));
    let mut seen = HashSet::new();
    for _ in 0..50 {
        let calls = parse_value(&body, &CallOptions::new()).unwrap();
        assert_eq!(calls.calls.len(), 4);
        for call in &calls.calls {
            assert!(call.id_generated);
            assert!(call.id.starts_with("call_"), "{}", call.id);
            assert!(seen.insert(call.id.clone()), "duplicate id {}", call.id);
        }
    }
    let ids: HashSet<String> = (0..1000).map(|_| generate_id()).collect();
    assert_eq!(ids.len(), 1000);
}

#[test]
fn numeric_ids_are_kept_as_their_text_in_every_format() {
    let bodies = [
        chat(json!([{"id": 7, "type": "function", "function": {"name": "f", "arguments": "{}"}}])),
        json!({"output": [{"type": "function_call", "call_id": 7, "name": "f", "arguments": "{}"}]}),
        json!({"type": "message", "role": "assistant", "content": [{"type": "tool_use", "id": 7, "name": "f", "input": {}}]}),
        json!({"candidates": [{"content": {"parts": [{"functionCall": {"id": 7, "name": "f", "args": {}}}]}}]}),
    ];
    for body in bodies {
        let calls = parse_value(&body, &CallOptions::new()).unwrap();
        assert_eq!(calls.calls[0].id, "7", "{body}");
        assert!(!calls.calls[0].id_generated);
    }
    // Large and negative numbers keep their exact text; an error keeps the id too.
    let body = chat(json!([
        {"id": 18446744073709551615u64, "type": "function", "function": {"name": "f", "arguments": "{}"}},
        {"id": -3, "type": "function", "function": {"name": "f", "arguments": "{"}},
    ]));
    let calls = parse_value(&body, &CallOptions::new()).unwrap();
    assert_eq!(calls.calls[0].id, "18446744073709551615");
    assert_eq!(calls.errors[0].id, "-3");
    assert!(!calls.errors[0].id_generated);
}

#[test]
fn mangled_tool_names_resolve_only_to_one_registered_tool() {
    let body = chat(json!([
        {"id": "1", "type": "function", "function": {"name": "functions.get_weather", "arguments": "{}"}},
        {"id": "2", "type": "function", "function": {"name": "files_read", "arguments": "{}"}},
        {"id": "3", "type": "function", "function": {"name": "tools.Files-Read", "arguments": "{}"}},
        {"id": "4", "type": "function", "function": {"name": "a_b", "arguments": "{}"}},
        {"id": "5", "type": "function", "function": {"name": "functions.nothing", "arguments": "{}"}},
    ]));
    let options = CallOptions::new().tools(["get_weather", "files.read", "a.b", "a-b"]);
    let calls = parse_value(&body, &options).unwrap();
    let got: Vec<(&str, &str, Option<&str>)> = calls
        .calls
        .iter()
        .map(|c| (c.name.as_str(), c.name_sent.as_str(), c.matched_by.map(|m| m.code())))
        .collect();
    assert_eq!(
        got,
        [
            ("get_weather", "functions.get_weather", Some("namespace_prefix")),
            ("files.read", "files_read", Some("sanitized")),
            ("files.read", "tools.Files-Read", Some("sanitized")),
        ]
    );
    let errors: Vec<(&str, &str)> = calls.errors.iter().map(|e| (e.id.as_str(), e.kind.code())).collect();
    assert_eq!(errors, [("4", "unknown_tool"), ("5", "unknown_tool")]);
    assert!(calls.errors[0].message.contains("a.b, a-b"), "{}", calls.errors[0].message);
    assert_eq!(calls.errors[1].name_sent.as_deref(), Some("functions.nothing"));
    // Without known tools nothing is resolved: the name is the sent one, trimmed.
    let calls = parse_value(&body, &CallOptions::new()).unwrap();
    assert_eq!(calls.calls[0].name, "functions.get_weather");
    assert_eq!(calls.calls[0].matched_by, None);
}

#[test]
fn arguments_in_every_shape() {
    let table: Vec<(Value, Result<Value, &str>)> = vec![
        (json!("{\"city\": \"Paris\"}"), Ok(json!({"city": "Paris"}))),
        (json!({"city": "Paris"}), Ok(json!({"city": "Paris"}))),
        (Value::Null, Ok(json!({}))),
        (json!(""), Ok(json!({}))),
        (json!("  \n"), Ok(json!({}))),
        // Double-encoded (Granite, DashScope).
        (json!("\"{\\\"city\\\": \\\"Paris\\\"}\""), Ok(json!({"city": "Paris"}))),
        // Repaired leniently: the tool's own check decides again later.
        (json!("{'city': 'Paris',}"), Ok(json!({"city": "Paris"}))),
        (json!("{\"city\": \"Par"), Err("truncated")),
        (json!("[1, 2]"), Err("not_object")),
        (json!(42), Err("not_object")),
        (json!("{\"a\" 1 2}"), Err("parse")),
    ];
    for (arguments, expected) in table {
        let mut function = json!({"name": "get_weather"});
        function["arguments"] = arguments.clone();
        let body = chat(json!([{"id": "call_1", "type": "function", "function": function}]));
        let calls = parse_value(&body, &CallOptions::new()).unwrap();
        match expected {
            Ok(value) => {
                assert_eq!(calls.calls.len(), 1, "{arguments}: {:?}", calls.errors);
                assert_eq!(Value::Object(calls.calls[0].arguments.clone()), value, "{arguments}");
            }
            Err(kind) => {
                assert!(calls.calls.is_empty(), "{arguments}");
                assert_eq!(error_kinds(&calls), [kind], "{arguments}");
                // The error keeps the call's id and name, so it can be answered.
                assert_eq!(calls.errors[0].id, "call_1");
                assert_eq!(calls.errors[0].name.as_deref(), Some("get_weather"));
                assert!(calls.errors[0].message.contains("get_weather"), "{}", calls.errors[0].message);
            }
        }
    }
    // Absent arguments are no arguments.
    let body = chat(json!([{"id": "call_1", "type": "function", "function": {"name": "f"}}]));
    assert_eq!(parse_value(&body, &CallOptions::new()).unwrap().calls[0].arguments.len(), 0);
}

#[test]
fn the_original_arguments_stay_on_the_record() {
    let body =
        chat(json!([{"id": "c", "type": "function", "function": {"name": "f", "arguments": "{'a': 1}"}}]));
    let call = &parse_value(&body, &CallOptions::new()).unwrap().calls[0];
    assert_eq!(call.original, tool_input::calls::OriginalArguments::Text("{'a': 1}".to_owned()));
    assert_eq!(call.repairs[0].kind.code(), "single_quotes");
    assert_eq!(call.raw["id"], "c");
}

#[test]
fn names_are_matched_by_the_one_rule() {
    let known = ["get_weather", "get_time", "Run", "run"];
    let table = [
        ("get_weather", Ok("get_weather")),
        ("  get_weather\n", Ok("get_weather")),
        ("GET_WEATHER", Ok("get_weather")),
        (" Get_Time ", Ok("get_time")),
        ("run", Ok("run")),
        ("RUN", Err("unknown_tool")),
        ("get_wether", Err("unknown_tool")),
        ("", Err("malformed")),
        ("   ", Err("malformed")),
    ];
    for (sent, expected) in table {
        let body =
            chat(json!([{"id": "c", "type": "function", "function": {"name": sent, "arguments": "{}"}}]));
        let calls = parse_value(&body, &CallOptions::new().tools(known)).unwrap();
        match expected {
            Ok(name) => {
                assert_eq!(calls.calls[0].name, name, "{sent:?}");
                assert_eq!(calls.calls[0].name_sent, sent);
            }
            Err(kind) => assert_eq!(error_kinds(&calls), [kind], "{sent:?}"),
        }
    }
    // Without known tools, only the whitespace goes.
    let body = chat(
        json!([{"id": "c", "type": "function", "function": {"name": " Get_Weather ", "arguments": "{}"}}]),
    );
    assert_eq!(parse_value(&body, &CallOptions::new()).unwrap().calls[0].name, "Get_Weather");
    // The unknown-tool message lists the tools.
    let body =
        chat(json!([{"id": "c", "type": "function", "function": {"name": "nope", "arguments": "{}"}}]));
    let calls = parse_value(&body, &CallOptions::new().tools(["a", "b"])).unwrap();
    assert!(calls.errors[0].message.contains("Available tools: a, b."), "{}", calls.errors[0].message);
}

#[test]
fn zero_one_or_many_calls() {
    for n in [0, 1, 5] {
        let list: Vec<Value> = (0..n)
            .map(|i| json!({"id": format!("call_{i}"), "type": "function", "function": {"name": "f", "arguments": format!("{{\"i\": {i}}}")}}))
            .collect();
        let calls = parse_value(&chat(Value::Array(list)), &CallOptions::new()).unwrap();
        assert_eq!(calls.calls.len(), n);
        for (i, call) in calls.calls.iter().enumerate() {
            assert_eq!(call.arguments["i"], i);
            assert_eq!(call.index, i);
        }
    }
    // Too many: the rest are dropped with one error.
    let list: Vec<Value> =
        (0..10).map(|_| json!({"type": "function", "function": {"name": "f", "arguments": "{}"}})).collect();
    let calls = parse_value(&chat(Value::Array(list)), &CallOptions::new().max_calls(4)).unwrap();
    assert_eq!(calls.calls.len(), 4);
    assert_eq!(error_kinds(&calls), ["too_many_calls"]);
}

#[test]
fn the_legacy_function_call_and_the_parallel_wrapper() {
    let legacy = json!({"choices": [{"message": {"role": "assistant", "function_call": {"name": "f", "arguments": "{\"a\": 1}"}}, "finish_reason": "function_call"}]});
    let calls = parse_value(&legacy, &CallOptions::new()).unwrap();
    assert_eq!(names_and_arguments(&calls), [("f".to_owned(), json!({"a": 1}))]);
    assert!(calls.calls[0].id_generated);

    let wrapper = json!({"tool_uses": [
        {"recipient_name": "functions.get_weather", "parameters": {"city": "Paris"}},
        {"recipient_name": "functions.get_time", "parameters": {"zone": "CET"}}]});
    let body = chat(
        json!([{"id": "call_w", "type": "function", "function": {"name": "multi_tool_use.parallel", "arguments": wrapper.to_string()}}]),
    );
    let calls = parse_value(&body, &CallOptions::new()).unwrap();
    assert_eq!(
        names_and_arguments(&calls),
        [
            ("get_weather".to_owned(), json!({"city": "Paris"})),
            ("get_time".to_owned(), json!({"zone": "CET"}))
        ]
    );
    assert_eq!(calls.calls[0].id, "call_w_0");
    assert_eq!(calls.calls[1].id, "call_w_1");

    // A registered tool named `parallel` is not a wrapper.
    let body = chat(
        json!([{"id": "c", "type": "function", "function": {"name": "parallel", "arguments": wrapper.to_string()}}]),
    );
    let calls = parse_value(&body, &CallOptions::new().tools(["parallel"])).unwrap();
    assert_eq!(calls.calls[0].name, "parallel");
}

#[test]
fn every_backend_shape() {
    // A body, its format, and the calls in it: (id, or "" when generated; name; arguments).
    type Expected = Vec<(&'static str, &'static str, Value)>;
    let table: Vec<(Value, Format, Expected)> = vec![
        (
            json!({"object": "response", "output": [
                {"type": "reasoning", "id": "rs_1"},
                {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "f", "arguments": "{\"a\": 1}", "status": "completed"}]}),
            Format::Responses,
            vec![("call_1", "f", json!({"a": 1}))],
        ),
        (
            json!({"type": "message", "role": "assistant", "content": [
                {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {"q": "x"}},
                {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {"a": 1}},
                {"type": "tool_use", "id": "toolu_2", "name": "g", "input": {}}]}),
            Format::Anthropic,
            vec![("toolu_1", "f", json!({"a": 1})), ("toolu_2", "g", json!({}))],
        ),
        (
            json!({"candidates": [{"content": {"role": "model", "parts": [
                {"text": "thinking…", "thought": true},
                {"functionCall": {"name": "f", "args": {"a": 1}, "id": "gem-1"}, "thoughtSignature": "sig"},
                {"functionCall": {"name": "g"}}]}}]}),
            Format::Gemini,
            vec![("gem-1", "f", json!({"a": 1})), ("", "g", json!({}))],
        ),
        (
            json!({"model": "llama3.2", "created_at": "2025-01-01T00:00:00Z", "message": {"role": "assistant", "content": "",
                "tool_calls": [{"function": {"name": "f", "arguments": {"a": 1}}}, {"function": {"index": 1, "name": "g", "arguments": {}}}]}, "done": true}),
            Format::Ollama,
            vec![("", "f", json!({"a": 1})), ("", "g", json!({}))],
        ),
    ];
    for (body, format, expected) in table {
        assert_eq!(Format::detect(&body), Some(format));
        for options in [CallOptions::new(), CallOptions::new().format(format)] {
            let calls = parse_value(&body, &options).unwrap();
            assert_eq!(calls.format, format);
            let got: Vec<(String, String, Value)> = calls
                .calls
                .iter()
                .map(|c| {
                    (
                        if c.id_generated { String::new() } else { c.id.clone() },
                        c.name.clone(),
                        Value::Object(c.arguments.clone()),
                    )
                })
                .collect();
            let expected: Vec<(String, String, Value)> = expected
                .iter()
                .map(|(id, name, args)| ((*id).to_owned(), (*name).to_owned(), args.clone()))
                .collect();
            assert_eq!(got, expected, "{format}");
        }
    }
}

#[test]
fn bodies_that_are_not_a_known_shape() {
    let options = CallOptions::new().format(Format::OpenAi);
    assert_eq!(parse_body(b"not json", &options).unwrap_err().code(), "body");
    assert!(parse_value(&json!({"hello": 1}), &CallOptions::new()).is_err());
    assert!(parse_value(&json!({"hello": 1}), &CallOptions::new().format(Format::Anthropic)).is_err());
    assert!(parse_body([0xff, 0xfe], &CallOptions::new()).is_err());
    assert!(parse_body([b' '; 100], &CallOptions::new().max_body_bytes(10)).is_err());
    // With `auto`, text that is not a known body is read as text.
    let calls = parse_body(br#"{"name": "f", "arguments": {"a": 1}}"#, &CallOptions::new()).unwrap();
    assert_eq!(calls.format, Format::Text);
    assert_eq!(names_and_arguments(&calls), [("f".to_owned(), json!({"a": 1}))]);
}

#[test]
fn an_error_response_is_no_body_of_calls() {
    // Groq's 400 `tool_use_failed` quotes the model's failed attempt: it never runs, nor is
    // the error read as text.
    let groq = json!({"error": {"message": "Failed to call a function. Please adjust your prompt.",
        "type": "invalid_request_error", "code": "tool_use_failed",
        "failed_generation": "<tool_call>{\"name\": \"delete_files\", \"arguments\": {\"path\": \"/\"}}</tool_call>"}});
    let vllm = json!({"object": "error", "message": "[TOOL_CALLS]delete_files{\"path\": \"/\"} is invalid",
        "type": "BadRequestError", "code": 400});
    let anthropic = json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}});
    let ollama = json!({"error": "model 'x' not found"});
    for (body, what) in [
        (groq, "invalid_request_error"),
        (vllm, "BadRequestError"),
        (anthropic, "overloaded_error"),
        (ollama, "model 'x' not found"),
    ] {
        let expected = format!(
            "the body is an error response (`{what}`), not a response with tool calls; nothing in it was read as a call"
        );
        let error = parse_body(body.to_string(), &CallOptions::new()).unwrap_err();
        assert_eq!(error.to_string(), expected, "{body}");
        assert_eq!(parse_value(&body, &CallOptions::new()).unwrap_err().to_string(), expected);
    }
    // A body of no known shape that is no error is still read as text.
    let calls = parse_body(br#"{"error": null, "name": "f", "arguments": {}}"#, &CallOptions::new()).unwrap();
    assert_eq!(calls.format, Format::Text);
}

#[test]
fn content_of_a_structured_response_is_searched_for_marked_calls() {
    let body = json!({"choices": [{"message": {"role": "assistant",
        "content": "Let me look. <tool_call>{\"name\": \"f\", \"arguments\": {\"a\": 1}}</tool_call>"}}]});
    let calls = parse_value(&body, &CallOptions::new()).unwrap();
    assert_eq!(names_and_arguments(&calls), [("f".to_owned(), json!({"a": 1}))]);
    assert_eq!(calls.content.as_deref(), Some("Let me look. "));
    assert!(parse_value(&body, &CallOptions::new().scan_content(false)).unwrap().calls.is_empty());

    // A bare JSON object in content (structured output) is not a call unless it names a known tool.
    let body = json!({"choices": [{"message": {"role": "assistant", "content": "{\"name\": \"f\", \"arguments\": {}}"}}]});
    assert!(parse_value(&body, &CallOptions::new()).unwrap().calls.is_empty());
    assert_eq!(parse_value(&body, &CallOptions::new().tools(["f"])).unwrap().calls.len(), 1);
    assert!(parse_value(&body, &CallOptions::new().tools(["g"])).unwrap().calls.is_empty());

    // A bare assistant message is an OpenAI message, not text to search as a whole.
    let message =
        br#"{"role": "assistant", "content": "<tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call>"}"#;
    let calls = parse_body(message, &CallOptions::new()).unwrap();
    assert_eq!(calls.format, Format::OpenAi);
    assert_eq!(names_and_arguments(&calls), [("f".to_owned(), json!({}))]);
    assert_eq!(calls.content.as_deref(), Some(""));
}

struct TextCase {
    text: &'static str,
    tools: Option<Vec<&'static str>>,
    calls: Vec<(&'static str, Value)>,
    errors: Vec<&'static str>,
    content: &'static str,
}

fn text_case(text: &'static str, calls: Vec<(&'static str, Value)>, content: &'static str) -> TextCase {
    TextCase { text, tools: None, calls, errors: vec![], content }
}

#[test]
fn every_text_format() {
    let paris = json!({"city": "Paris"});
    let cases = vec![
        // hermes / Qwen
        text_case(
            "Let me check. <tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>",
            vec![("get_weather", paris.clone())],
            "Let me check. ",
        ),
        text_case(
            "<tool_call>{\"name\": \"a\", \"arguments\": {}}</tool_call>\n<tool_call>{\"name\": \"b\", \"arguments\": {\"x\": [1]}}</tool_call> done",
            vec![("a", json!({})), ("b", json!({"x": [1]}))],
            "\n done",
        ),
        text_case("<tools>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tools>", vec![("get_weather", paris.clone())], ""),
        text_case("<tool_call>\n```json\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n```\n</tool_call>", vec![("get_weather", paris.clone())], ""),
        TextCase {
            text: "<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Pa",
            tools: None,
            calls: vec![],
            errors: vec!["truncated"],
            content: "",
        },
        TextCase { text: "<tool_call></tool_call>", tools: None, calls: vec![], errors: vec!["malformed"], content: "" },
        TextCase {
            text: "<tool_call>{\"name\": \"nope\", \"arguments\": {}}</tool_call>",
            tools: Some(vec!["get_weather"]),
            calls: vec![],
            errors: vec!["unknown_tool"],
            content: "",
        },
        // bare and fenced JSON
        text_case("{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Paris\"}}", vec![("get_weather", paris.clone())], ""),
        text_case(
            "Sure:\n```json\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n```\nDone.",
            vec![("get_weather", paris.clone())],
            "Sure:\n\nDone.",
        ),
        text_case(
            "[{\"name\": \"a\", \"arguments\": {}}, {\"name\": \"b\", \"arguments\": {\"x\": 1}}]",
            vec![("a", json!({})), ("b", json!({"x": 1}))],
            "",
        ),
        text_case(
            "{\"name\": \"a\", \"parameters\": {}}; {\"name\": \"b\", \"parameters\": {\"x\": 1}}",
            vec![("a", json!({})), ("b", json!({"x": 1}))],
            "",
        ),
        text_case("{\"city\": \"Paris\"}", vec![], "{\"city\": \"Paris\"}"),
        text_case(
            "{\"name\": \"get_weather\", \"description\": \"Get the weather\", \"parameters\": {\"type\": \"object\"}}",
            vec![],
            "{\"name\": \"get_weather\", \"description\": \"Get the weather\", \"parameters\": {\"type\": \"object\"}}",
        ),
        text_case("Call it like {\"name\": \"f\", \"arguments\": {}} later.", vec![], "Call it like {\"name\": \"f\", \"arguments\": {}} later."),
        TextCase {
            text: "{\"name\": \"search\", \"arguments\": {\"q\": \"x\"}}",
            tools: Some(vec!["get_weather"]),
            calls: vec![],
            errors: vec![],
            content: "{\"name\": \"search\", \"arguments\": {\"q\": \"x\"}}",
        },
        // Mistral
        text_case(
            "[TOOL_CALLS] [{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}]",
            vec![("get_weather", paris.clone())],
            "",
        ),
        text_case(
            "[TOOL_CALLS]get_weather{\"city\": \"Paris\"}[TOOL_CALLS]get_time{}</s>",
            vec![("get_weather", paris.clone()), ("get_time", json!({}))],
            "",
        ),
        text_case("[TOOL_CALLS]get_weather[ARGS]{\"city\": \"Paris\"}", vec![("get_weather", paris.clone())], ""),
        // Llama 3
        text_case(
            "<|python_tag|>{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Paris\"}}; {\"name\": \"get_time\", \"parameters\": {}}<|eom_id|>",
            vec![("get_weather", paris.clone()), ("get_time", json!({}))],
            "",
        ),
        text_case("<|python_tag|>print(1 + 1)", vec![], "<|python_tag|>print(1 + 1)"),
        // pythonic
        text_case(
            "[get_weather(city='Paris', days=3), get_time()]",
            vec![("get_weather", json!({"city": "Paris", "days": 3})), ("get_time", json!({}))],
            "",
        ),
        text_case(
            "[f(a=[1, 2], b={'k': True}, c=None, d=\"it's\", e=-2.5)]",
            vec![("f", json!({"a": [1, 2], "b": {"k": true}, "c": null, "d": "it's", "e": -2.5}))],
            "",
        ),
        text_case("[special delivery]", vec![], "[special delivery]"),
        text_case("[print(x)]", vec![], "[print(x)]"),
        text_case(
            "<|python_start|>[get_weather(city=\"Paris\")]<|python_end|>",
            vec![("get_weather", paris.clone())],
            "",
        ),
        // qwen3-coder (no schema: values stay text)
        text_case(
            "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>",
            vec![("get_weather", json!({"city": "Paris", "days": "3"}))],
            "",
        ),
        text_case(
            "<function=get_weather><parameter=city>Paris</parameter></function>",
            vec![("get_weather", paris.clone())],
            "",
        ),
        // GLM
        text_case(
            "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n</tool_call>",
            vec![("get_weather", paris.clone())],
            "",
        ),
        text_case("<tool_call>get_time</tool_call>", vec![("get_time", json!({}))], ""),
        // DeepSeek, fullwidth and ASCII bars
        text_case(
            "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{\"city\": \"Paris\"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜><｜end▁of▁sentence｜>",
            vec![("get_weather", paris.clone())],
            "",
        ),
        text_case(
            "ok <|tool▁calls▁begin|><|tool▁call▁begin|>get_weather<|tool▁sep|>{\"city\": \"Paris\"}<|tool▁call▁end|><|tool▁call▁begin|>get_time<|tool▁sep|>{}<|tool▁call▁end|><|tool▁calls▁end|>",
            vec![("get_weather", paris.clone()), ("get_time", json!({}))],
            "ok ",
        ),
        // Kimi
        text_case(
            "<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{\"city\": \"Paris\"}<|tool_call_end|><|tool_call_begin|>functions.get_time:1<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|>",
            vec![("get_weather", paris.clone()), ("get_time", json!({}))],
            "",
        ),
    ];
    for case in cases {
        let mut options = CallOptions::new();
        if let Some(tools) = &case.tools {
            options = options.tools(tools.iter().copied());
        }
        let calls = parse_text(case.text, &options);
        let expected: Vec<(String, Value)> =
            case.calls.iter().map(|(n, a)| ((*n).to_owned(), a.clone())).collect();
        assert_eq!(names_and_arguments(&calls), expected, "{:?}: errors {:?}", case.text, calls.errors);
        assert_eq!(error_kinds(&calls), case.errors, "{:?}", case.text);
        assert_eq!(calls.content.as_deref(), Some(case.content), "{:?}", case.text);
    }
}

#[test]
fn text_ids_of_kimi_and_mistral_are_kept() {
    let calls = parse_text(
        "<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|>",
        &CallOptions::new(),
    );
    assert_eq!(calls.calls[0].id, "functions.get_weather:0");
    let calls = parse_text(
        "[TOOL_CALLS]get_weather[CALL_ID]a1B2c3D4e[ARGS]{\"city\": \"Paris\"}",
        &CallOptions::new(),
    );
    assert_eq!(calls.calls[0].id, "a1B2c3D4e");
    assert!(
        parse_text("<tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call>", &CallOptions::new()).calls
            [0]
        .id_generated
    );
}

#[test]
fn tag_parameters_are_converted_by_the_schema() {
    let schema = json!({
        "type": "object",
        "properties": {
            "city": {"type": "string"},
            "days": {"type": "integer"},
            "ratio": {"type": "number"},
            "metric": {"type": "boolean"},
            "tags": {"type": "array", "items": {"type": "string"}},
            "filter": {"$ref": "#/$defs/Filter"},
            "note": {"type": ["string", "null"]},
            "limit": {"anyOf": [{"type": "integer"}, {"type": "null"}]}
        },
        "$defs": {"Filter": {"type": "object", "properties": {"min": {"type": "integer"}}}}
    });
    let options =
        CallOptions::new().known_tools(vec![KnownTool { name: "search".to_owned(), schema: Some(schema) }]);
    let text = "<tool_call>\n<function=search>\n<parameter=city>\n007\n</parameter>\n<parameter=days>\n3\n</parameter>\n<parameter=ratio>\n0.5\n</parameter>\n<parameter=metric>\nTrue\n</parameter>\n<parameter=tags>\n['a', 'b']\n</parameter>\n<parameter=filter>\n{\"min\": 2}\n</parameter>\n<parameter=note>\nnull\n</parameter>\n<parameter=limit>\nmany\n</parameter>\n<parameter=extra>\n1\n</parameter>\n</function>\n</tool_call>";
    let calls = parse_text(text, &options);
    assert_eq!(
        Value::Object(calls.calls[0].arguments.clone()),
        json!({"city": "007", "days": 3, "ratio": 0.5, "metric": true, "tags": ["a", "b"], "filter": {"min": 2}, "note": null, "limit": "many", "extra": "1"})
    );
    let glm = "<tool_call>search\n<arg_key>days</arg_key>\n<arg_value>3</arg_value>\n<arg_key>metric</arg_key>\n<arg_value>maybe</arg_value>\n</tool_call>";
    let calls = parse_text(glm, &options);
    // "maybe" is not a boolean: it stays text, for the tool's check to reject.
    assert_eq!(Value::Object(calls.calls[0].arguments.clone()), json!({"days": 3, "metric": "maybe"}));
}

#[test]
fn a_text_format_can_be_required() {
    let text = "[get_weather(city='Paris')]";
    assert_eq!(parse_text(text, &CallOptions::new()).calls.len(), 1);
    assert!(parse_text(text, &CallOptions::new().text_format(TextFormat::Hermes)).calls.is_empty());
    let tagged = "<tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call>";
    assert!(parse_text(tagged, &CallOptions::new().text_format(TextFormat::Mistral)).calls.is_empty());
    assert_eq!("qwen3_coder".parse::<TextFormat>().unwrap(), TextFormat::Qwen3Coder);
}

#[test]
fn hostile_text_never_panics_and_is_bounded() {
    let deep = "[".repeat(100_000);
    let many_tags = "<tool_call>".repeat(20_000);
    let many_calls = "<tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call>".repeat(500);
    let unclosed_strings = "<tool_call>{\"name\": \"".repeat(5_000);
    for text in [
        deep.as_str(),
        &many_tags,
        &many_calls,
        &unclosed_strings,
        "<｜tool▁calls▁begin｜>",
        "[TOOL_CALLS]",
        "<function=",
        "<|tool_call_begin|>",
    ] {
        let calls = parse_text(text, &CallOptions::new());
        assert!(calls.calls.len() + calls.errors.len() <= 129);
    }
    let calls = parse_text(&many_calls, &CallOptions::new());
    assert_eq!(calls.calls.len(), 128);
    assert_eq!(calls.errors.iter().map(|e| e.kind).collect::<Vec<_>>(), [CallErrorKind::TooManyCalls]);
}

/// Floats in a body or a stream's events (Gemini's `args`, Ollama's `arguments`) are
/// correctly rounded, though this build's `serde_json` has no `float_roundtrip`.
#[test]
fn floats_in_bodies_and_streams_are_correctly_rounded() {
    let sent = "977765.4534335453";
    let exact: f64 = sent.parse().unwrap();
    let body = format!(
        r#"{{"candidates": [{{"content": {{"parts": [{{"functionCall": {{"name": "f", "args": {{"x": {sent}}}}}}}]}}, "finishReason": "STOP"}}]}}"#
    );
    let calls = parse_body(body.as_bytes(), &CallOptions::new()).unwrap();
    assert_eq!(calls.calls[0].arguments["x"].as_f64(), Some(exact), "{body}");
    let mut stream = tool_input::stream::StreamAssembler::new(CallOptions::new());
    stream.push_sse_bytes(format!("data: {body}\n\n").as_bytes());
    let calls = stream.finish();
    assert_eq!(calls.calls[0].arguments["x"].as_f64(), Some(exact));
}

/// The limits of `CallOptions::limits` hold for arguments every backend sends: as text
/// (Chat Completions), and already parsed (Anthropic's `input`, Gemini's `args`, Ollama's
/// `arguments`), measured as their compact JSON is.
#[test]
fn the_argument_limits_hold_for_arguments_sent_already_parsed() {
    use tool_input::Limits;
    let deep = json!({"a": {"b": [1]}});
    let long = json!({"note": "x".repeat(40)});
    let bodies = |arguments: &Value| {
        [
            chat(json!([{"id": "call_1", "type": "function",
                "function": {"name": "f", "arguments": arguments.to_string()}}])),
            json!({"type": "message", "role": "assistant", "content": [
                {"type": "tool_use", "id": "toolu_1", "name": "f", "input": arguments}]}),
            json!({"candidates": [{"content": {"role": "model", "parts": [
                {"functionCall": {"name": "f", "args": arguments}}]}}]}),
            json!({"model": "m", "message": {"role": "assistant", "content": "",
                "tool_calls": [{"function": {"name": "f", "arguments": arguments}}]}, "done": true}),
        ]
    };
    let shallow = CallOptions::new().limits(Limits::default().with_max_depth(2));
    let small = CallOptions::new().limits(Limits::default().with_max_bytes(32));
    for body in bodies(&deep) {
        let calls = parse_value(&body, &shallow).expect("a body");
        assert_eq!(error_kinds(&calls), ["too_deep"], "{body}");
        assert!(calls.calls.is_empty(), "{body}");
        let calls = parse_value(&body, &CallOptions::new()).expect("a body");
        assert_eq!(names_and_arguments(&calls), [("f".to_owned(), deep.clone())], "{body}");
    }
    for body in bodies(&long) {
        let calls = parse_value(&body, &small).expect("a body");
        assert_eq!(error_kinds(&calls), ["too_large"], "{body}");
    }
}
