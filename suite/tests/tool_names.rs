//! A tool is named to the model as the model was shown it. A registered name a provider
//! refuses (`files.read` for OpenAI and Anthropic, `get weather` for all) is sent under
//! `dialect::sent_name`; every message back in that provider's shape (an unknown tool's
//! list, a rejection, a handler's error, a spent budget) names it so, and a message read
//! from a format that keeps any name keeps the registered one.

use serde_json::{json, Value};
use tool_input::calls::{parse_body, parse_text, CallOptions};
use tool_input::{Conversation, Dialect, ToolDefinition, Toolbox};

fn toolbox() -> Toolbox {
    let schema = json!({"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]});
    let read = ToolDefinition::new("files.read", None, schema).unwrap();
    let weather =
        ToolDefinition::new("get weather", None, json!({"type": "object", "properties": {}})).unwrap();
    Toolbox::new()
        .with_definition(read, |_| Err::<(), _>("disk full"))
        .with_definition(weather, |_| Ok::<_, String>("sunny"))
}

fn openai_body(name: &str, arguments: &str) -> String {
    json!({"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant",
        "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": name, "arguments": arguments}}]}}]})
    .to_string()
}

fn anthropic_body(name: &str, input: Value) -> String {
    json!({"type": "message", "role": "assistant", "stop_reason": "tool_use",
        "content": [{"type": "tool_use", "id": "toolu_1", "name": name, "input": input}]})
    .to_string()
}

fn gemini_body(name: &str, args: Value) -> String {
    json!({"candidates": [{"finishReason": "STOP", "content": {"role": "model",
        "parts": [{"functionCall": {"name": name, "args": args}}]}}]})
    .to_string()
}

#[test]
fn each_answer_names_the_tools_as_its_provider_was_shown_them() {
    let toolbox = toolbox();
    assert_eq!(toolbox.definitions(Dialect::OpenAi)[0]["function"]["name"], "files_read");
    assert_eq!(toolbox.definitions(Dialect::Gemini)[1]["name"], "get_weather");

    // A handler's error, through OpenAI's shape.
    let calls = toolbox.parse_body(openai_body("files_read", r#"{"path": "a"}"#)).unwrap();
    let outcome = toolbox.dispatch(&calls.calls[0]);
    assert_eq!(outcome.tool, "files.read");
    assert_eq!(outcome.to_openai()["content"], "The tool `files_read` failed: disk full");
    assert_eq!(outcome.to_responses()["output"], "The tool `files_read` failed: disk full");
    assert_eq!(outcome.to_anthropic()["content"], "The tool `files_read` failed: disk full");
    // Gemini and MCP accept a `.`: they were shown the registered name.
    assert_eq!(
        outcome.to_gemini()["functionResponse"]["response"]["error"],
        "The tool `files.read` failed: disk full"
    );
    assert_eq!(outcome.to_mcp()["content"][0]["text"], "The tool `files.read` failed: disk full");
    assert_eq!(outcome.text(), "The tool `files.read` failed: disk full");

    // Rejected arguments, through Anthropic's.
    let calls = toolbox.parse_body(anthropic_body("files_read", json!({}))).unwrap();
    let outcome = toolbox.dispatch(&calls.calls[0]);
    let text = outcome.to_anthropic()["content"].as_str().unwrap().to_owned();
    assert!(text.starts_with("The arguments for tool `files_read` were rejected (1 error)"), "{text}");
    assert!(outcome.text().starts_with("The arguments for tool `files.read` were rejected"));

    // An unknown tool, through Gemini's: the list as Gemini declared the tools.
    let calls = toolbox.parse_body(gemini_body("files_write", json!({}))).unwrap();
    let outcome = toolbox.answer(&calls.errors[0]);
    assert_eq!(
        outcome.to_gemini()["functionResponse"]["response"]["error"],
        "The tool `files_write` does not exist; nothing was run. Available tools: files.read, get_weather."
    );
    assert_eq!(
        outcome.to_openai()["content"],
        "The tool `files_write` does not exist; nothing was run. Available tools: files_read, get_weather."
    );
    // The failure keeps the registered names for the program.
    assert_eq!(
        outcome.result.unwrap_err().to_string(),
        "The tool `files_write` does not exist; nothing was run. Available tools: files.read, get weather."
    );
}

#[test]
fn a_spent_budget_names_the_tool_as_shown() {
    let toolbox = toolbox();
    let mut conversation = Conversation::new().with_max_failures(1);
    let calls = toolbox.parse_body(openai_body("files_read", "{}")).unwrap();
    let outcome = toolbox.dispatch_in(&mut conversation, &calls.calls[0]);
    let text = outcome.to_openai()["content"].as_str().unwrap().to_owned();
    assert!(text.ends_with("The retry budget for `files_read` is now spent: it failed too many times in a row. Do not call it again; tell the user what went wrong."), "{text}");
    let outcome = toolbox.dispatch_in(&mut conversation, &calls.calls[0]);
    let text = outcome.to_openai()["content"].as_str().unwrap().to_owned();
    assert!(text.starts_with("The tool `files_read` was not run: it failed 1 times in a row"), "{text}");
    assert!(outcome.text().starts_with("The tool `files.read` was not run"));
}

#[test]
fn calls_read_with_known_tools_list_them_as_the_format_was_shown_them() {
    let options = CallOptions::new().tools(["files.read", "get weather"]);
    let calls = parse_body(openai_body("files_write", "{}").as_bytes(), &options).unwrap();
    assert!(
        calls.errors[0].message.ends_with("Available tools: files_read, get_weather."),
        "{}",
        calls.errors[0].message
    );
    let calls = parse_body(anthropic_body("files_write", json!({})).as_bytes(), &options).unwrap();
    assert!(calls.errors[0].message.ends_with("Available tools: files_read, get_weather."));
    let calls = parse_body(gemini_body("files_write", json!({})).as_bytes(), &options).unwrap();
    assert!(calls.errors[0].message.ends_with("Available tools: files.read, get_weather."));
    // Text formats come from servers that take any name: the registered ones were shown.
    let text = r#"<tool_call>{"name": "files_write", "arguments": {}}</tool_call>"#;
    let calls = parse_text(text, &options);
    assert!(calls.errors[0].message.ends_with("Available tools: files.read, get weather."));
}

#[test]
fn a_name_no_tool_has_is_quoted_as_the_model_sent_it() {
    let toolbox = toolbox();
    let mut conversation = Conversation::new().with_max_failures(1);
    let calls = toolbox.parse_body(openai_body("files.write", "{}")).unwrap();
    let outcome = toolbox.answer_in(&mut conversation, &calls.errors[0]);
    let text = outcome.to_openai()["content"].as_str().unwrap().to_owned();
    assert!(text.starts_with("The tool `files.write` does not exist; nothing was run. Available tools: files_read, get_weather."), "{text}");
    assert!(text.ends_with("The retry budget for `files.write` is now spent: it failed too many times in a row. Do not call it again; tell the user what went wrong."), "{text}");
    let outcome = toolbox.answer_in(&mut conversation, &calls.errors[0]);
    let text = outcome.to_openai()["content"].as_str().unwrap().to_owned();
    assert!(text.starts_with("The tool `files.write` was not run"), "{text}");
}
