//! The model-facing messages of the call errors for hostile responses: a cut or unfinished
//! response, a call after the end, a contradicting closing event, one id on two calls, two
//! choices with one number, a key given twice. Snapshot-tested so a change is a decision.

use serde_json::{json, Value};
use tool_input::calls::{parse_body, parse_text, parse_value, CallOptions, Calls};
use tool_input::stream::StreamAssembler;

fn feed(events: &[Value]) -> Calls {
    let mut stream = StreamAssembler::new(CallOptions::new());
    for event in events {
        stream.push_event(event);
    }
    stream.finish()
}

fn item(name: &str, arguments: &str) -> Value {
    json!({"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": name, "arguments": arguments})
}

#[test]
fn hostile_call_messages() {
    let chat_call = |id: &str, name: &str| json!({"id": id, "type": "function", "function": {"name": name, "arguments": "{}"}});
    let mut cases: Vec<(&str, Calls)> = Vec::new();
    cases.push((
        "a cancelled Responses body",
        parse_value(
            &json!({"object": "response", "status": "cancelled", "output": [item("f", "{}"), item("g", "{}")]}),
            &CallOptions::new(),
        )
        .unwrap(),
    ));
    cases.push((
        "finish_reason error",
        parse_value(
            &json!({"choices": [{"index": 0, "finish_reason": "error", "message": {"tool_calls": [chat_call("a", "f")]}}]}),
            &CallOptions::new(),
        )
        .unwrap(),
    ));
    cases.push((
        "a call after [DONE]",
        {
            let mut stream = StreamAssembler::new(CallOptions::new());
            stream.push_sse_bytes(b"data: [DONE]\n\n");
            stream.push_sse_bytes(format!("data: {}\n\n", json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "call_x", "function": {"name": "delete_files", "arguments": "{}"}}]}}]})).as_bytes());
            stream.finish()
        },
    ));
    cases.push((
        "input after content_block_stop",
        feed(&[
            json!({"type": "message_start", "message": {"content": []}}),
            json!({"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}}),
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": "{}"}}),
            json!({"type": "content_block_stop", "index": 0}),
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": "{}"}}),
            json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}}),
            json!({"type": "message_stop"}),
        ]),
    ));
    cases.push((
        "a .done that disagrees",
        feed(&[
            json!({"type": "response.output_item.added", "output_index": 0, "item": item("pay", "")}),
            json!({"type": "response.function_call_arguments.delta", "output_index": 0, "item_id": "fc_1", "delta": "{\"amount\": 1}"}),
            json!({"type": "response.function_call_arguments.done", "output_index": 0, "item_id": "fc_1", "arguments": "{\"amount\": 1000}"}),
            json!({"type": "response.completed", "response": {"status": "completed"}}),
        ]),
    ));
    cases.push((
        "one Anthropic id on two calls",
        feed(&[
            json!({"type": "message_start", "message": {"content": [{"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}]}}),
            json!({"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": "toolu_1", "name": "g", "input": {}}}),
            json!({"type": "content_block_stop", "index": 0}),
            json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}}),
            json!({"type": "message_stop"}),
        ]),
    ));
    cases.push((
        "two choices numbered 0",
        parse_value(
            &json!({"choices": [
                {"index": 0, "finish_reason": "tool_calls", "message": {"tool_calls": [chat_call("a", "f")]}},
                {"index": 0, "finish_reason": "tool_calls", "message": {"tool_calls": [chat_call("b", "g")]}}]}),
            &CallOptions::new(),
        )
        .unwrap(),
    ));
    cases.push((
        "a name given twice in text",
        parse_text(
            r#"<tool_call>{"name": "list_files", "arguments": {}, "name": "delete_files"}</tool_call>"#,
            &CallOptions::new(),
        ),
    ));
    cases.push((
        "arguments given twice in text",
        parse_text(r#"<tool_call>{"name": "list_files", "arguments": {"dir": "/tmp"}, "arguments": {"dir": "/"}}</tool_call>"#, &CallOptions::new()),
    ));
    cases.push((
        "a key of the arguments given twice in a body",
        parse_body(br#"{"type": "message", "role": "assistant", "stop_reason": "tool_use", "content": [{"type": "tool_use", "id": "toolu_1", "name": "list_files", "input": {"dir": "/tmp", "dir": "/"}}]}"#, &CallOptions::new()).unwrap(),
    ));
    cases.push((
        "finish_reason given twice in a body",
        parse_body(br#"{"choices": [{"index": 0, "finish_reason": "length", "finish_reason": "tool_calls", "message": {"tool_calls": [{"id": "a", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}}]}"#, &CallOptions::new()).unwrap(),
    ));
    let mut text = String::new();
    for (label, calls) in &cases {
        text.push_str(&format!("## {label}\n"));
        for error in &calls.errors {
            text.push_str(&format!("- {}: {}\n", error.kind.code(), error.message));
        }
        assert!(calls.calls.is_empty(), "{label}: {:?}", calls.calls);
    }
    insta::assert_snapshot!("hostile_call_messages", text);
}

/// An unknown tool's message: every tool when they are few; with an MCP gateway's hundreds,
/// a did-you-mean and the closest names, counted, instead of all of them.
#[test]
fn unknown_tool_messages() {
    let few = ["get_weather", "get_forecast", "send_email"];
    let servers = ["github", "gitlab", "jira", "slack", "notion", "linear", "drive", "calendar"];
    let verbs = ["create", "update", "delete", "list", "get", "search", "close", "archive"];
    let things = ["issue", "comment", "page", "file", "event", "message"];
    let mut many = Vec::new();
    for server in servers {
        for verb in verbs {
            for thing in things {
                many.push(format!("{server}__{verb}_{thing}"));
            }
        }
    }
    assert_eq!(many.len(), 384);
    let body = |name: &str| {
        json!({"type": "message", "role": "assistant", "stop_reason": "tool_use", "content": [
            {"type": "tool_use", "id": "toolu_1", "name": name, "input": {}}]})
    };
    let mut text = String::new();
    let cases: [(&str, Vec<String>, &str); 6] = [
        ("a few tools", few.iter().map(|name| name.to_string()).collect(), "get_wether"),
        ("no tools", Vec::new(), "get_weather"),
        ("many tools, a typo", many.clone(), "github__create_isue"),
        ("many tools, the name without its server", many.clone(), "create_issue"),
        ("many tools, another case", many.clone(), "Slack.Search.Message"),
        ("many tools, nothing like it", many.clone(), "xyzzy"),
    ];
    for (label, tools, name) in cases {
        let options = CallOptions::new().tools(tools.iter().map(String::as_str));
        let calls = parse_value(&body(name), &options).unwrap();
        assert_eq!(calls.errors[0].kind.code(), "unknown_tool", "{label}");
        text.push_str(&format!("## {label}: `{name}`\n{}\n", calls.errors[0].message));
    }
    insta::assert_snapshot!("unknown_tool_messages", text);
}
