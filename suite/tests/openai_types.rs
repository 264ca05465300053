//! The `async-openai` integration: each conversion between async-openai's Chat Completions
//! types and ours, checked against what the crate's own JSON paths give, on the recorded
//! provider responses of `suite/tests/corpus/provider-responses` read through async-openai's
//! types as an async-openai user receives them.

mod common;

use async_openai::types::chat::{
    ChatCompletionMessageToolCallChunk, ChatCompletionMessageToolCalls, ChatCompletionRequestMessage,
    ChatCompletionRequestToolMessage, ChatCompletionRequestUserMessage, ChatCompletionTools,
    CreateChatCompletionRequestArgs, CreateChatCompletionResponse, CreateChatCompletionStreamResponse,
};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};
use tool_input::async_openai as ao;
use tool_input::calls::{parse_text, parse_value, CallOptions, Calls};
use tool_input::stream::StreamAssembler;
use tool_input::{Conversation, Dialect, OutcomeKind, ToolInput, Toolbox};

/// Get the weather for a city.
#[derive(Debug, Deserialize, JsonSchema, ToolInput)]
#[tool_input(name = "GetWeatherArgs")]
struct GetWeatherArgs {
    city: String,
    country: String,
    #[serde(default)]
    units: Units,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Units {
    #[default]
    C,
    F,
}

/// Get the price of a stock.
#[derive(Debug, Deserialize, JsonSchema, ToolInput)]
#[tool_input(policy = "strict")]
struct GetStockPrice {
    ticker: String,
    exchange: Option<String>,
}

fn toolbox() -> Toolbox {
    Toolbox::new()
        .with_tool(|call: GetWeatherArgs| {
            Ok::<_, String>(format!("12°{:?} in {}, {}", call.units, call.city, call.country))
        })
        .with_tool(|call: GetStockPrice| {
            Ok::<_, String>(json!({"ticker": call.ticker, "exchange": call.exchange, "price": 227.5}))
        })
}

fn cases(file: &str) -> Vec<Value> {
    let path = common::corpus_dir().join("provider-responses").join(file);
    let text =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every Chat Completions case of the corpus, with its file and position.
fn chat_cases(streaming: bool) -> Vec<(String, Value)> {
    ["openai-python.json", "vercel-ai.json", "litellm.json"]
        .iter()
        .flat_map(|file| {
            cases(file)
                .into_iter()
                .enumerate()
                .filter(|(_, case)| case["api"] == "chat.completions" && case["streaming"] == streaming)
                .map(move |(i, case)| (format!("{file}#{i}"), case))
        })
        .collect()
}

/// `[{"id", "name", "arguments"}]` of the calls, and the error kinds.
fn summary(calls: &Calls) -> Value {
    json!({
        "calls": calls.calls.iter().map(|c| json!({"id": c.id, "name": c.name, "arguments": c.arguments})).collect::<Vec<_>>(),
        "errors": calls.errors.iter().map(|e| json!({"id": e.id, "kind": e.kind.code()})).collect::<Vec<_>>(),
    })
}

fn names_and_arguments(calls: &Calls) -> Value {
    Value::Array(calls.calls.iter().map(|c| json!({"name": c.name, "arguments": c.arguments})).collect())
}

#[test]
fn tool_definitions_are_the_openai_dialect() {
    let toolbox = toolbox();
    for (strict, dialect) in [(false, Dialect::OpenAi), (true, Dialect::OpenAiStrict)] {
        let tools = ao::tools(&toolbox, strict);
        assert_eq!(serde_json::to_value(&tools).unwrap(), Value::Array(toolbox.definitions(dialect)));
        for tool in &tools {
            let ChatCompletionTools::Function(tool) = tool else { panic!("a function tool") };
            assert_eq!(tool.function.strict, strict.then_some(true));
        }
    }
    // Strict mode: every property required, the optional one nullable.
    let strict = ao::tool(GetStockPrice::definition(), true);
    let parameters = serde_json::to_value(&strict).unwrap()["function"]["parameters"].clone();
    let mut required: Vec<&str> =
        parameters["required"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
    required.sort_unstable();
    assert_eq!(required, ["exchange", "ticker"]);
    assert_eq!(parameters["properties"]["exchange"]["type"], json!(["string", "null"]));

    // They go into async-openai's request as they are.
    let request = CreateChatCompletionRequestArgs::default()
        .model("gpt-4o")
        .messages(vec![ChatCompletionRequestUserMessage::from("What is the weather in Paris?").into()])
        .tools(ao::tools(&toolbox, true))
        .build()
        .unwrap();
    let body = serde_json::to_value(&request).unwrap();
    assert_eq!(body["tools"], Value::Array(toolbox.definitions(Dialect::OpenAiStrict)));
}

#[test]
fn a_name_openai_refuses_is_sent_as_the_toolbox_sends_it() {
    // OpenAI's names match `^[a-zA-Z0-9_-]{1,64}$`: `files.read` is a 400 for the whole request.
    let read =
        tool_input::ToolDefinition::new("files.read", None, json!({"type": "object", "properties": {}}))
            .unwrap();
    let toolbox = toolbox().with_definition(read, |_| Ok::<_, String>("read"));
    for (strict, dialect) in [(false, Dialect::OpenAi), (true, Dialect::OpenAiStrict)] {
        let tools = serde_json::to_value(ao::tools(&toolbox, strict)).unwrap();
        assert_eq!(tools, Value::Array(toolbox.definitions(dialect)));
        assert_eq!(tools[2]["function"]["name"], "files_read");
    }
    // The model calls it by the name it was shown; the Toolbox runs the registered tool.
    let sent = async_openai::types::chat::ChatCompletionMessageToolCall {
        id: "call_1".into(),
        function: async_openai::types::chat::FunctionCall {
            name: "files_read".into(),
            arguments: "{}".into(),
        },
    };
    let call = ao::tool_call(&sent, &toolbox.call_options()).unwrap();
    assert_eq!(call.name, "files.read");
    assert_eq!(toolbox.dispatch(&call).text(), "read");
}

#[test]
fn recorded_responses_read_through_async_openai_types_give_the_same_calls() {
    let mut read = 0;
    let mut refused = Vec::new();
    for (name, case) in chat_cases(false) {
        let payload = &case["payload"];
        let response: CreateChatCompletionResponse = match serde_json::from_value(payload.clone()) {
            Ok(response) => response,
            // async-openai's types are stricter than the wire (a missing `created`, an
            // object as arguments, …): such a body never reaches its users as a value.
            Err(error) => {
                refused.push(format!("{name}: {error}"));
                continue;
            }
        };
        read += 1;
        let options = CallOptions::new();
        let expected = parse_value(payload, &options).unwrap_or_else(|e| panic!("{name}: {e}"));
        let calls = ao::response_calls(&response, &options).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(summary(&calls), summary(&expected), "{name}");
        assert_eq!(names_and_arguments(&calls), case["expected_calls"], "{name}");

        let message = &response.choices[0].message;
        assert_eq!(summary(&ao::message_calls(message, &options).unwrap()), summary(&expected), "{name}");

        // Each call alone, through `tool_call`.
        for (i, entry) in message.tool_calls.iter().flatten().enumerate() {
            let ChatCompletionMessageToolCalls::Function(sent) = entry else { continue };
            let call = ao::tool_call(sent, &options).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(call.id, sent.id, "{name}");
            assert_eq!(
                json!({"name": call.name, "arguments": call.arguments}),
                case["expected_calls"][i],
                "{name}"
            );
        }

        // The assistant message goes back into the history as it came.
        let history =
            serde_json::to_value(ChatCompletionRequestMessage::from(ao::assistant_message(message))).unwrap();
        let sent = &payload["choices"][0]["message"];
        assert_eq!(history["role"], "assistant", "{name}");
        // What OpenAI defines of each call (some backends add an `index` beside it).
        let defined = |calls: &Value| -> Vec<Value> {
            calls.as_array().into_iter().flatten().map(|call| json!({
                "id": call["id"], "type": call["type"],
                "function": {"name": call["function"]["name"], "arguments": call["function"]["arguments"]},
            })).collect()
        };
        assert_eq!(defined(&history["tool_calls"]), defined(&sent["tool_calls"]), "{name}");
        if let Some(content) = sent["content"].as_str() {
            assert_eq!(history["content"], content, "{name}");
        }
    }
    eprintln!("{read} recorded responses read through async-openai's types; refused by them: {refused:#?}");
    assert!(read >= 20, "only {read} recorded responses read; refused: {refused:#?}");
}

#[test]
fn recorded_streams_through_async_openai_chunks_assemble_to_the_expected_calls() {
    let mut streamed = 0;
    let mut skipped = Vec::new();
    for (name, case) in chat_cases(true) {
        let Some(chunks) = case["chunks"].as_array() else { continue };
        let typed: Result<Vec<CreateChatCompletionStreamResponse>, _> =
            chunks.iter().map(|chunk| serde_json::from_value(chunk.clone())).collect();
        // Mistral's chunks leave out the `index` async-openai requires: its users never see them.
        let Ok(typed) = typed else {
            skipped.push(name);
            continue;
        };
        streamed += 1;

        let mut stream = StreamAssembler::new(CallOptions::new());
        for chunk in &typed {
            stream.push_chat_chunk(chunk);
        }
        stream.push_done();
        let calls = stream.finish();
        assert!(calls.errors.is_empty(), "{name}: {:?}", calls.errors);
        assert_eq!(names_and_arguments(&calls), case["expected_calls"], "{name}");

        // Only the tool-call chunks, as code that takes the deltas apart feeds them.
        let mut stream = StreamAssembler::new(CallOptions::new());
        for chunk in &typed {
            for choice in &chunk.choices {
                if let Some(pieces) = &choice.delta.tool_calls {
                    stream.push_tool_call_chunks(pieces);
                }
            }
        }
        stream.push_done();
        assert_eq!(
            names_and_arguments(&stream.finish()),
            case["expected_calls"],
            "{name} (tool-call chunks)"
        );
    }
    eprintln!("{streamed} recorded streams read through async-openai's chunks; refused by them: {skipped:?}");
    assert!(streamed >= 10, "only {streamed} recorded streams read");
}

#[test]
fn a_stream_cut_off_gives_no_call() {
    let piece = |arguments: &str| -> ChatCompletionMessageToolCallChunk {
        serde_json::from_value(json!({"index": 0, "id": "call_1", "type": "function",
            "function": {"name": "GetWeatherArgs", "arguments": arguments}}))
        .unwrap()
    };
    let mut stream = StreamAssembler::new(toolbox().call_options());
    stream.push_tool_call_chunks(&[piece("{\"city\": \"Edinb")]);
    stream.cut_off("the connection dropped");
    let calls = stream.finish();
    assert!(calls.calls.is_empty());
    assert_eq!(calls.errors[0].kind.code(), "truncated");
    assert_eq!(calls.errors[0].id, "call_1");
}

#[test]
fn outcomes_become_tool_messages() {
    let toolbox = toolbox();
    let mut conversation = Conversation::new().with_max_failures(2);
    let text = r#"<tool_call>{"name": "GetWeatherArgs", "arguments": {"city": "Edinburgh", "country": "GB", "units": "C"}}</tool_call>
<tool_call>{"name": "GetWeatherArgs", "arguments": {"city": "Edinburgh", "country": "GB", "units": "kelvin"}}</tool_call>
<tool_call>{"name": "GetWeatherArgs", "arguments": {"city": "Edinburgh", "units": "kelvin"}}</tool_call>
<tool_call>{"name": "GetWeatherArgs", "arguments": {"city": "Edinburgh", "country": "GB"}}</tool_call>
<tool_call>{"name": "get_stock_price", "arguments": {"ticker": "AAPL", "exchange": null}}</tool_call>
<tool_call>{"name": "delete_everything", "arguments": {}}</tool_call>"#;
    let calls = parse_text(text, &toolbox.call_options());
    let outcomes = toolbox.run_all(&mut conversation, &calls);
    let kinds: Vec<OutcomeKind> = outcomes.iter().map(|outcome| outcome.kind()).collect();
    assert_eq!(
        kinds,
        [
            OutcomeKind::Success,
            OutcomeKind::Invalid,
            OutcomeKind::Invalid,
            OutcomeKind::BudgetSpent,
            OutcomeKind::Success,
            OutcomeKind::UnknownTool,
        ]
    );
    for outcome in &outcomes {
        let message = ChatCompletionRequestMessage::from(outcome);
        assert_eq!(serde_json::to_value(&message).unwrap(), outcome.to_openai());
        let tool_message = ChatCompletionRequestToolMessage::from(outcome.clone());
        assert_eq!(tool_message.tool_call_id, outcome.call_id);
    }
    let text = |i: usize| outcomes[i].text();
    assert_eq!(text(0), "12°C in Edinburgh, GB");
    assert!(text(1).contains(r#"- /units: "kelvin" is not one of "c", "f""#), "{}", text(1));
    assert!(text(2).contains("retry budget for `GetWeatherArgs` is now spent"), "{}", text(2));
    // Compared as JSON: the key order is serde_json's (`preserve_order` keeps insertion order).
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&text(4)).unwrap(),
        json!({"exchange": null, "price": 227.5, "ticker": "AAPL"})
    );

    // And back: our calls as async-openai's, for a history.
    let back: Vec<ChatCompletionMessageToolCalls> = calls.calls.iter().map(ao::message_tool_call).collect();
    let ChatCompletionMessageToolCalls::Function(first) = &back[0] else { panic!("a function call") };
    assert_eq!(first.id, calls.calls[0].id);
    assert_eq!(first.function.arguments, r#"{"city":"Edinburgh","country":"GB","units":"C"}"#);
}
