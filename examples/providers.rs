//! A Toolbox answering a recorded response of each API: OpenAI Chat Completions, OpenAI
//! Responses, Anthropic Messages, Gemini, and the text a model served by Ollama without a tool
//! parser writes. Each body is read with `Toolbox::parse_body` (the API is detected from the
//! body), each call dispatched to a typed handler, and each outcome written as the tool
//! result that API expects. Offline: the responses are the recordings in
//! `suite/tests/corpus/provider-responses` (their sources and licences are listed there).
//!
//! `cargo run --example providers`

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;
use tool_input::{Conversation, Dialect, ToolInput, Toolbox};

/// The recordings: (file, index of the case, its API).
const OPENAI_PYTHON: &str = include_str!("../suite/tests/corpus/provider-responses/openai-python.json");
const ANTHROPIC_SDK: &str =
    include_str!("../suite/tests/corpus/provider-responses/anthropic-sdk-python.json");
const VERCEL_AI: &str = include_str!("../suite/tests/corpus/provider-responses/vercel-ai.json");
const OLLAMA_TEXT: &str =
    include_str!("../suite/tests/corpus/provider-responses/ollama-tool-parser-text.json");

/// A recorded response body, as the API sent it.
fn recorded(corpus: &str, index: usize, api: &str) -> String {
    let cases: Vec<Value> = serde_json::from_str(corpus).expect("the corpus is JSON");
    let case = &cases[index];
    assert_eq!(case["api"], api, "case {index} is a recording of {api}");
    match &case["payload"] {
        Value::String(text) => text.clone(),
        body => body.to_string(),
    }
}

// The tools each recorded conversation offered, as typed arguments.

/// Get the weather in a US city (openai-python's recording).
#[derive(Debug, Deserialize, JsonSchema, ToolInput)]
#[tool_input(name = "get_weather")]
struct CityWeather {
    city: String,
    state: String,
}

/// Get the weather for a location (the Responses recording).
#[derive(Debug, Deserialize, JsonSchema, ToolInput)]
#[tool_input(name = "get_weather")]
struct LocationWeather {
    location: String,
    unit: String,
}

/// Get the weather for a location (the Anthropic recording).
#[derive(Debug, Deserialize, JsonSchema, ToolInput)]
#[tool_input(name = "get_weather")]
struct WeatherInUnits {
    location: String,
    units: String,
}

/// Get the weather for a location (Gemini's recording).
#[derive(Debug, Deserialize, JsonSchema, ToolInput)]
struct Weather {
    location: String,
}

/// Get the temperature in a city (Ollama's text format).
#[derive(Debug, Deserialize, JsonSchema, ToolInput)]
struct GetTemperature {
    city: String,
}

fn answer(api: &str, toolbox: &Toolbox, body: &str, dialect: Dialect) -> Vec<Value> {
    // A body as it arrives: `&str`, `String` or bytes.
    let calls = toolbox.parse_body(body).expect("a response body");
    println!("{api}: {} call(s) read as {:?}", calls.calls.len(), calls.format);
    let mut conversation = Conversation::new();
    let answers: Vec<Value> = toolbox
        .run_all(&mut conversation, &calls)
        .iter()
        .map(|outcome| outcome.to_dialect(dialect))
        .collect();
    for answer in &answers {
        println!("  → {answer}");
    }
    answers
}

fn main() {
    // OpenAI Chat Completions: each outcome is a `role: tool` message.
    let toolbox = Toolbox::new()
        .with_tool(|w: CityWeather| Ok::<_, String>(format!("Foggy in {}, {}", w.city, w.state)));
    let body = recorded(OPENAI_PYTHON, 11, "chat.completions");
    let answers = answer("OpenAI Chat Completions", &toolbox, &body, Dialect::OpenAi);
    assert_eq!(answers[0]["role"], "tool");
    assert_eq!(answers[0]["content"], "Foggy in San Francisco, CA");

    // OpenAI Responses: a `function_call_output`, answered by the call's `call_id`.
    let toolbox = Toolbox::new()
        .with_tool(|w: LocationWeather| Ok::<_, String>(format!("72 in {} ({})", w.location, w.unit)));
    let body = recorded(VERCEL_AI, 68, "responses");
    let answers = answer("OpenAI Responses", &toolbox, &body, Dialect::Responses);
    assert_eq!(answers[0]["type"], "function_call_output");
    assert_eq!(answers[0]["output"], "72 in San Francisco, CA (fahrenheit)");

    // Anthropic Messages: a `tool_result` block for the `tool_use` block.
    let toolbox = Toolbox::new()
        .with_tool(|w: WeatherInUnits| Ok::<_, String>(format!("22 in {} ({})", w.location, w.units)));
    let body = recorded(ANTHROPIC_SDK, 12, "anthropic.messages");
    let answers = answer("Anthropic Messages", &toolbox, &body, Dialect::Anthropic);
    assert_eq!(answers[0]["type"], "tool_result");
    assert_eq!(answers[0]["content"], "22 in SF (c)");

    // Gemini: a `functionResponse` part (Gemini sent no id, so none is sent back).
    let toolbox = Toolbox::new().with_tool(|w: Weather| Ok::<_, String>(format!("Sunny in {}", w.location)));
    let body = recorded(VERCEL_AI, 45, "gemini");
    let answers = answer("Gemini", &toolbox, &body, Dialect::Gemini);
    assert_eq!(answers[0]["functionResponse"]["response"]["output"], "Sunny in San Francisco");

    // Ollama serving a model without a tool parser: the call is in the text (`<tool_call>`),
    // and the prose around it stays content.
    let toolbox =
        Toolbox::new().with_tool(|t: GetTemperature| Ok::<_, String>(format!("21 °C in {}", t.city)));
    let body = recorded(OLLAMA_TEXT, 4, "text");
    let calls = toolbox.parse_body(&body).expect("text");
    assert_eq!(calls.content.as_deref(), Some("Let me check the weather. "));
    let answers = answer("Ollama, text", &toolbox, &body, Dialect::OpenAi);
    assert_eq!(answers[0]["content"], "21 °C in New York");
}
