//! An agent loop over real HTTP, as an async-openai user writes one, with tool-input between
//! the model and the tools: the model's calls are read and dispatched through a `Toolbox`,
//! every outcome (output or error) goes back as a tool message, and a `Conversation` keeps
//! the retry budget.
//!
//! Runs offline: `cargo run -p tool-input-suite --example agent_loop`. The "model" is a small HTTP/1.1 server on
//! 127.0.0.1 that speaks the Chat Completions API and replays a recorded GPT-4o response
//! (openai-python's `test_parse_multiple_pydantic_tools`, from
//! `suite/tests/corpus/provider-responses/openai-python.json`), mangled the way models mangle
//! calls:
//!
//! 1. The recorded two calls, the weather call written as a Python dict with `units: 'C'`
//!    (repaired: single quotes, enum case), the stock call with `exchange: "LSE"` (a wrong
//!    choice: rejected, naming `/exchange` and the options).
//! 2. Once the server sees our error for `/exchange` in the request's tool messages, the
//!    recorded stock call as it was recorded (`NASDAQ`).
//! 3. Once it sees that call's output, a final answer built from the tool outputs it got.
//!
//! A second, stubborn model sends the wrong choice again and again: the budget runs out, the
//! tool is not run again, and the model gives up once told so.
//!
//! The handlers take a context (`Toolbox::with_state`, `with_context_tool`): the application's
//! state, here a `Desk` that counts runs and keeps a log line per call with its id, and the
//! calls of each response run together (`Toolbox::run_all_async`), answered in their order. The server checks every
//! request (tools sent in strict mode, every call of the last turn answered) and answers 400
//! otherwise; everything is bounded in requests and time.

use std::error::Error;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_openai::config::OpenAIConfig;
use async_openai::types::chat::{
    ChatCompletionRequestMessage, ChatCompletionRequestSystemMessage, ChatCompletionRequestUserMessage,
    CreateChatCompletionRequestArgs,
};
use async_openai::Client;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;
use tool_input::async_openai as ao;
use tool_input::{CallContext, Conversation, Dialect, OutcomeKind, ToolInput, Toolbox};

type BoxError = Box<dyn Error + Send + Sync>;

/// The recorded model, as the request names it.
const MODEL: &str = "gpt-4o-2024-08-06";
/// Most turns the loop runs before giving up on the model.
const MAX_TURNS: usize = 6;
/// Longest one request may take, retries of the client included.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

/// Get the current weather for a city.
#[derive(Debug, Deserialize, JsonSchema, ToolInput)]
#[tool_input(name = "GetWeatherArgs")]
pub struct GetWeatherArgs {
    pub city: String,
    pub country: String,
    #[serde(default)]
    pub units: Units,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Units {
    #[default]
    C,
    F,
}

/// Get the latest price of a stock.
#[derive(Debug, Deserialize, JsonSchema, ToolInput)]
#[tool_input(name = "get_stock_price")]
pub struct GetStockPrice {
    pub ticker: String,
    pub exchange: Exchange,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "UPPERCASE")]
pub enum Exchange {
    Nasdaq,
    Nyse,
}

/// One dispatched call and what came of it.
#[derive(Debug, Clone)]
pub struct Step {
    pub call_id: String,
    pub tool: String,
    pub kind: OutcomeKind,
    /// What went back to the model.
    pub text: String,
    /// The repairs and coercions the arguments needed, as `path: kind` or `repair ×n`.
    pub fixes: Vec<String>,
}

/// What the loop did: the steps of each turn, the final answer, how often each tool ran.
#[derive(Debug, Clone)]
pub struct Transcript {
    pub turns: Vec<Vec<Step>>,
    pub answer: String,
    pub weather_runs: usize,
    pub stock_runs: usize,
    /// What the handlers logged, one `tool call_id` line per run, from their context.
    pub log: Vec<String>,
}

/// The application's state the handlers are given in their context.
#[derive(Default)]
struct Desk {
    weather_runs: AtomicUsize,
    stock_runs: AtomicUsize,
    log: Mutex<Vec<String>>,
}

impl Desk {
    fn record(&self, cx: &CallContext<Desk>) {
        let line = format!("{} {}", cx.tool(), cx.call_id());
        self.log.lock().unwrap_or_else(|poison| poison.into_inner()).push(line);
    }
}

/// The agent loop: ask, dispatch the calls through the Toolbox within the retry budget,
/// send every outcome back, until the model answers without calling a tool.
pub async fn run_agent(api_base: &str, max_failures: u32) -> Result<Transcript, BoxError> {
    let toolbox = Toolbox::with_state(Desk::default())
        .with_context_tool(|call: GetWeatherArgs, cx: CallContext<Desk>| {
            cx.state().weather_runs.fetch_add(1, Ordering::SeqCst);
            cx.state().record(&cx);
            Ok::<_, String>(format!("12°{:?} and cloudy in {}, {}", call.units, call.city, call.country))
        })
        .with_async_context_tool(|call: GetStockPrice, cx: CallContext<Desk>| async move {
            cx.state().stock_runs.fetch_add(1, Ordering::SeqCst);
            // A quote takes a moment: the other calls of the response run meanwhile.
            tokio::time::sleep(Duration::from_millis(5)).await;
            cx.state().record(&cx);
            Ok::<_, String>(json!({"ticker": call.ticker, "exchange": call.exchange, "price": 227.52}))
        })
        // The tools are shown in strict mode, so arguments are read back from it.
        .with_dialect(Dialect::OpenAiStrict);

    let client =
        Client::with_config(OpenAIConfig::new().with_api_base(api_base).with_api_key("sk-offline-replay"));
    let tools = ao::tools(&toolbox, true);
    let mut messages: Vec<ChatCompletionRequestMessage> = vec![
        ChatCompletionRequestSystemMessage::from("Use the tools to answer.").into(),
        ChatCompletionRequestUserMessage::from(
            "What's the weather in Edinburgh, and what does AAPL trade at?",
        )
        .into(),
    ];
    let mut conversation = Conversation::new().with_max_failures(max_failures);
    let mut turns = Vec::new();

    for _ in 0..MAX_TURNS {
        let request = CreateChatCompletionRequestArgs::default()
            .model(MODEL)
            .messages(messages.clone())
            .tools(tools.clone())
            .build()?;
        let response = tokio::time::timeout(REQUEST_TIMEOUT, client.chat().create(request)).await??;
        let message = match response.choices.first() {
            Some(choice) => choice.message.clone(),
            None => return Err("the response has no choice".into()),
        };
        let calls = ao::response_calls(&response, &toolbox.call_options())?;
        // No call, none unreadable, none the response says was made but lacks: the answer.
        if calls.calls.is_empty() && calls.errors.is_empty() && calls.missing_call.is_none() {
            let answer = message.content.unwrap_or_default();
            let desk = toolbox.state();
            return Ok(Transcript {
                turns,
                answer,
                weather_runs: desk.weather_runs.load(Ordering::SeqCst),
                stock_runs: desk.stock_runs.load(Ordering::SeqCst),
                log: desk.log.lock().unwrap_or_else(|poison| poison.into_inner()).clone(),
            });
        }
        // The assistant turn goes into the history before the results that answer it.
        messages.push(ao::assistant_message(&message).into());
        let mut steps = Vec::new();
        // Every call attempt is answered, in order, the unreadable ones too; the calls run
        // together, within the conversation's retry budget.
        for outcome in toolbox.run_all_async(&mut conversation, &calls).await {
            let repairs = outcome.report.repairs.iter().map(|r| format!("{} ×{}", r.kind, r.count));
            let coercions = outcome.report.coercions.iter().map(|c| format!("{}: {}", c.path, c.kind));
            steps.push(Step {
                call_id: outcome.call_id.clone(),
                tool: outcome.tool.clone(),
                kind: outcome.kind(),
                text: outcome.text(),
                fixes: repairs.chain(coercions).collect(),
            });
            messages.push(ChatCompletionRequestMessage::from(&outcome));
        }
        // A call the response says was made but lacks has no id to answer: the model is told
        // in a turn of its own, and calls again.
        if let Some(missing) = &calls.missing_call {
            messages.push(ChatCompletionRequestUserMessage::from(missing.message.as_str()).into());
        }
        turns.push(steps);
    }
    Err(format!("the model did not finish within {MAX_TURNS} turns").into())
}

/// How the replayed model behaves after our error message comes back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Model {
    /// Reads the error and sends the corrected call.
    Corrects,
    /// Sends the same wrong choice until told the tool will not run again.
    Stubborn,
    /// Its first turn ends for a tool call but carries none (as a call the API refused
    /// does); told so, it makes its calls, then corrects them.
    LosesItsFirstCall,
}

/// The recorded response the turns are derived from.
pub fn recorded_response() -> Result<Value, BoxError> {
    let path =
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus/provider-responses/openai-python.json"));
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let cases: Vec<Value> = serde_json::from_str(&text)?;
    cases
        .into_iter()
        .find(|case| {
            case["note"].as_str().is_some_and(|note| note.contains("test_parse_multiple_pydantic_tools"))
                && case["streaming"] == false
        })
        .map(|case| case["payload"].clone())
        .ok_or_else(|| "the recorded response of test_parse_multiple_pydantic_tools is missing".into())
}

/// The recorded tool calls, by position: `[GetWeatherArgs, get_stock_price]`.
fn recorded_calls(recorded: &Value) -> Vec<Value> {
    recorded["choices"][0]["message"]["tool_calls"].as_array().cloned().unwrap_or_default()
}

/// A call's arguments, parsed from the recorded JSON string.
fn arguments_of(call: &Value) -> Map<String, Value> {
    call["function"]["arguments"]
        .as_str()
        .and_then(|text| serde_json::from_str(text).ok())
        .unwrap_or_default()
}

/// The arguments as a Python dict, as models served without a tool parser write them.
fn python_dict(arguments: &Map<String, Value>) -> String {
    let items: Vec<String> = arguments
        .iter()
        .map(|(key, value)| match value {
            Value::String(text) => format!("'{key}': '{text}'"),
            other => format!("'{key}': {other}"),
        })
        .collect();
    format!("{{{}}}", items.join(", "))
}

/// The recorded response with these tool calls (or, with none, this text as the answer).
fn turn(recorded: &Value, number: usize, tool_calls: Vec<Value>, text: Option<String>) -> Value {
    let mut response = recorded.clone();
    response["id"] = Value::from(format!("{}-{number}", recorded["id"].as_str().unwrap_or("chatcmpl")));
    let message = &mut response["choices"][0]["message"];
    if tool_calls.is_empty() {
        message["content"] = Value::from(text.unwrap_or_default());
        if let Some(message) = message.as_object_mut() {
            message.remove("tool_calls");
        }
        response["choices"][0]["finish_reason"] = Value::from("stop");
    } else {
        message["tool_calls"] = Value::Array(tool_calls);
    }
    response
}

/// A first turn that says it ended for a tool call, but carries none.
fn lost_turn(recorded: &Value) -> Value {
    let mut response = turn(recorded, 1, Vec::new(), None);
    response["choices"][0]["message"]["content"] = Value::Null;
    response["choices"][0]["finish_reason"] = Value::from("tool_calls");
    response
}

/// A recorded call with a new id and these arguments.
fn with_arguments(call: &Value, id_suffix: &str, arguments: String) -> Value {
    let mut call = call.clone();
    call["id"] = Value::from(format!("{}{id_suffix}", call["id"].as_str().unwrap_or("call")));
    call["function"]["arguments"] = Value::from(arguments);
    call
}

/// The stock call with the wrong exchange, as the model keeps sending it.
fn wrong_stock_call(recorded: &Value, id_suffix: &str) -> Value {
    let stock = &recorded_calls(recorded)[1];
    let mut arguments = arguments_of(stock);
    arguments.insert("exchange".to_owned(), Value::from("LSE"));
    with_arguments(stock, id_suffix, Value::Object(arguments).to_string())
}

/// The first turn: both recorded calls, mangled.
fn first_turn(recorded: &Value) -> Value {
    let calls = recorded_calls(recorded);
    let mut weather = arguments_of(&calls[0]);
    if let Some(Value::String(units)) = weather.get_mut("units") {
        *units = units.to_uppercase();
    }
    let weather = with_arguments(&calls[0], "", python_dict(&weather));
    turn(recorded, 1, vec![weather, wrong_stock_call(recorded, "")], None)
}

/// What the replayed model answers to one request: the next turn, or why the request is
/// not what the loop should have sent (a 400).
fn respond(model: Model, recorded: &Value, request: &Value) -> Result<Value, String> {
    if request["model"] != MODEL {
        return Err(format!("unexpected model {}", request["model"]));
    }
    let tools = request["tools"].as_array().ok_or("the request has no tools")?;
    let names: Vec<&str> = tools.iter().filter_map(|tool| tool["function"]["name"].as_str()).collect();
    if names != ["GetWeatherArgs", "get_stock_price"]
        || tools.iter().any(|tool| tool["function"]["strict"] != true)
    {
        return Err(format!("expected both tools in strict mode, got {}", Value::Array(tools.clone())));
    }
    let messages = request["messages"].as_array().ok_or("the request has no messages")?;
    let assistant_turns = messages.iter().filter(|m| m["role"] == "assistant").count();
    let Some(last) = messages.iter().rposition(|m| m["role"] == "assistant") else {
        return Ok(match model {
            Model::LosesItsFirstCall => lost_turn(recorded),
            _ => first_turn(recorded),
        });
    };
    // The turn that lost its call is answered by a user turn saying so, never taken for an
    // answer.
    if messages[last]["tool_calls"].as_array().is_none_or(Vec::is_empty) && assistant_turns == 1 {
        let told = messages[last + 1..].iter().any(|m| {
            m["role"] == "user"
                && m["content"].as_str().is_some_and(|text| text.contains("could not be read"))
        });
        return if told {
            Ok(first_turn(recorded))
        } else {
            Err("the lost call was not told to the model".into())
        };
    }
    // Every call of the last turn must be answered by a tool message with its id.
    let mut answers = Vec::new();
    for call in messages[last]["tool_calls"].as_array().into_iter().flatten() {
        let id = call["id"].as_str().unwrap_or_default();
        let answer = messages[last + 1..]
            .iter()
            .find(|m| m["role"] == "tool" && m["tool_call_id"] == id)
            .and_then(|m| m["content"].as_str())
            .ok_or_else(|| format!("the tool call {id} was not answered"))?;
        answers.push((call["function"]["name"].as_str().unwrap_or_default(), answer));
    }
    let stock_answer = answers.iter().find(|(name, _)| *name == "get_stock_price").map(|(_, text)| *text);
    let told_not_to_run = stock_answer.is_some_and(|text| text.contains("was not run"));
    let names_the_path = stock_answer.is_some_and(|text| {
        text.contains("/exchange") && text.contains(r#""LSE" is not one of "NASDAQ", "NYSE""#)
    });
    let stock_output = stock_answer.filter(|text| text.contains("\"price\""));
    let next = assistant_turns + 1;
    match model {
        Model::Corrects | Model::LosesItsFirstCall if names_the_path => {
            let stock = &recorded_calls(recorded)[1];
            let corrected = with_arguments(
                stock,
                "_2",
                stock["function"]["arguments"].as_str().unwrap_or("{}").to_owned(),
            );
            Ok(turn(recorded, next, vec![corrected], None))
        }
        Model::Corrects | Model::LosesItsFirstCall => match stock_output {
            Some(output) => {
                let weather = messages
                    .iter()
                    .filter(|m| m["role"] == "tool")
                    .filter_map(|m| m["content"].as_str())
                    .find(|text| text.contains("Edinburgh"))
                    .unwrap_or("no weather");
                Ok(turn(recorded, next, Vec::new(), Some(format!("Weather: {weather}. AAPL: {output}."))))
            }
            None => Err(format!("expected our error naming /exchange, or the stock price; got {answers:?}")),
        },
        Model::Stubborn if told_not_to_run => {
            Ok(turn(recorded, next, Vec::new(), Some("I could not get the stock price.".to_owned())))
        }
        Model::Stubborn
            if names_the_path || stock_answer.is_some_and(|text| text.contains("retry budget")) =>
        {
            Ok(turn(recorded, next, vec![wrong_stock_call(recorded, &format!("_{next}"))], None))
        }
        Model::Stubborn => Err(format!("expected our error naming /exchange; got {answers:?}")),
    }
}

/// A Chat Completions endpoint on 127.0.0.1 that replays the recorded turns: plain tokio
/// and a minimal HTTP/1.1 exchange (one request per connection, `Connection: close`), so
/// the example needs no HTTP server crate. It serves at most `MAX_REQUESTS` requests and
/// stops when dropped.
pub struct ReplayServer {
    api_base: String,
    requests: Arc<Mutex<Vec<Value>>>,
    task: JoinHandle<()>,
}

/// Most requests the replay server answers.
const MAX_REQUESTS: usize = 16;
/// Largest request body it reads.
const MAX_BODY: usize = 4 * 1024 * 1024;

impl ReplayServer {
    /// Listen on a free port of 127.0.0.1 and replay `model`.
    pub async fn start(model: Model) -> Result<Self, BoxError> {
        let recorded = recorded_response()?;
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let api_base = format!("http://{}/v1", listener.local_addr()?);
        let requests = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&requests);
        let task = tokio::spawn(async move {
            for _ in 0..MAX_REQUESTS {
                let Ok((stream, _)) = listener.accept().await else { break };
                // One exchange at a time, each bounded: the loop sends one request at a time.
                let exchange = serve(stream, model, &recorded, &seen);
                let _ = tokio::time::timeout(Duration::from_secs(5), exchange).await;
            }
        });
        Ok(ReplayServer { api_base, requests, task })
    }

    /// The API base to give the client (`http://127.0.0.1:PORT/v1`).
    pub fn api_base(&self) -> &str {
        &self.api_base
    }

    /// The request bodies received, in order.
    pub fn requests(&self) -> Vec<Value> {
        self.requests.lock().map(|requests| requests.clone()).unwrap_or_default()
    }
}

impl Drop for ReplayServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// One HTTP exchange: read the request, answer with the next turn (200) or why not (400).
async fn serve(
    mut stream: TcpStream,
    model: Model,
    recorded: &Value,
    seen: &Mutex<Vec<Value>>,
) -> std::io::Result<()> {
    let (status, body) = match read_request(&mut stream).await? {
        Err(problem) => (problem.0, error_body(&problem.1)),
        Ok(request) => {
            if let Ok(mut seen) = seen.lock() {
                seen.push(request.clone());
            }
            match respond(model, recorded, &request) {
                Ok(response) => ("200 OK", response.to_string()),
                Err(message) => ("400 Bad Request", error_body(&message)),
            }
        }
    };
    let head = format!(
        "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await?;
    stream.write_all(body.as_bytes()).await?;
    stream.shutdown().await
}

/// The error object of the OpenAI API, which async-openai reads into `ApiError`.
fn error_body(message: &str) -> String {
    json!({"error": {"message": message, "type": "invalid_request_error", "param": null, "code": null}})
        .to_string()
}

/// Read a `POST .../chat/completions` with a `Content-Length` body; a request of another
/// shape is answered with its status and reason.
async fn read_request(stream: &mut TcpStream) -> std::io::Result<Result<Value, (&'static str, String)>> {
    let mut buffer = Vec::new();
    let mut chunk = [0u8; 8192];
    let head_end = loop {
        if let Some(at) = buffer.windows(4).position(|window| window == b"\r\n\r\n") {
            break at + 4;
        }
        if buffer.len() > 64 * 1024 {
            return Ok(Err(("431 Request Header Fields Too Large", "headers too large".to_owned())));
        }
        let read = stream.read(&mut chunk).await?;
        if read == 0 {
            return Ok(Err(("400 Bad Request", "the connection closed mid-request".to_owned())));
        }
        buffer.extend_from_slice(&chunk[..read]);
    };
    let head = String::from_utf8_lossy(&buffer[..head_end]).into_owned();
    let mut lines = head.lines();
    let request_line = lines.next().unwrap_or_default();
    if !(request_line.starts_with("POST ") && request_line.contains("/chat/completions ")) {
        return Ok(Err(("404 Not Found", format!("no route for `{request_line}`"))));
    }
    let mut length = None;
    for line in lines {
        let Some((name, value)) = line.split_once(':') else { continue };
        let (name, value) = (name.trim().to_ascii_lowercase(), value.trim());
        if name == "content-length" {
            length = value.parse::<usize>().ok();
        } else if name == "transfer-encoding" {
            return Ok(Err(("411 Length Required", "send a Content-Length".to_owned())));
        }
    }
    let Some(length) = length.filter(|length| *length <= MAX_BODY) else {
        return Ok(Err(("411 Length Required", "a Content-Length of at most 4 MiB is required".to_owned())));
    };
    let mut body = buffer[head_end..].to_vec();
    while body.len() < length {
        let read = stream.read(&mut chunk).await?;
        if read == 0 {
            return Ok(Err(("400 Bad Request", "the body was cut off".to_owned())));
        }
        body.extend_from_slice(&chunk[..read]);
    }
    body.truncate(length);
    Ok(serde_json::from_slice(&body)
        .map_err(|error| ("400 Bad Request", format!("the body is not JSON: {error}"))))
}

fn print_transcript(title: &str, transcript: &Transcript) {
    println!("== {title}");
    for (number, steps) in transcript.turns.iter().enumerate() {
        println!("turn {}:", number + 1);
        for step in steps {
            println!("  {} {} → {}", step.tool, step.call_id, step.kind);
            if !step.fixes.is_empty() {
                println!("    repaired: {}", step.fixes.join("; "));
            }
            for line in step.text.lines() {
                println!("    | {line}");
            }
        }
    }
    println!("answer: {}", transcript.answer);
    println!("runs: GetWeatherArgs {}, get_stock_price {}\n", transcript.weather_runs, transcript.stock_runs);
}

/// Both replayed models, one after the other, each with its own server.
pub async fn demo() -> Result<Vec<Transcript>, BoxError> {
    let mut transcripts = Vec::new();
    for (title, model) in
        [("a model that reads the error", Model::Corrects), ("a stubborn model", Model::Stubborn)]
    {
        let server = ReplayServer::start(model).await?;
        let transcript = run_agent(server.api_base(), 2).await?;
        print_transcript(title, &transcript);
        println!("({} requests to {})\n", server.requests().len(), server.api_base());
        transcripts.push(transcript);
    }
    Ok(transcripts)
}

pub fn main() -> Result<(), BoxError> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(demo())?;
    Ok(())
}
