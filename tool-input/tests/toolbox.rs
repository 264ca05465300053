//! The Toolbox: every outcome, every tool-result format, sync and async handlers, the retry
//! budget, dialect-aware checks. (Its `tracing` events: `toolbox_events.rs`.)

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll, Wake};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use tool_input::calls::{parse_body, parse_text, CallOptions, Calls};
use tool_input::{
    Conversation, Dialect, Failure, Outcome, OutcomeKind, ToolCall, ToolDefinition, ToolInput, Toolbox,
};

/// Get the weather for a city.
#[derive(Debug, Deserialize, JsonSchema, ToolInput)]
struct GetWeather {
    city: String,
    days: Option<u8>,
}

/// Look a word up.
#[derive(Debug, Deserialize, JsonSchema, ToolInput)]
struct Define {
    word: String,
}

/// Log in to the account.
#[derive(Debug, Deserialize, JsonSchema, ToolInput)]
#[tool_input(policy = "strict")]
#[allow(dead_code)] // the handler reads `user` only
struct Login {
    user: String,
    #[tool_input(sensitive)]
    password: String,
    #[serde(default)]
    remember: bool,
}

#[derive(Serialize)]
struct Forecast {
    city: String,
    sunny: bool,
}

/// A tiny executor: polls on this thread, parking until woken. Any runtime would do; the
/// Toolbox imposes none.
fn block_on<F: Future>(future: F) -> F::Output {
    struct Unpark(std::thread::Thread);
    impl Wake for Unpark {
        fn wake(self: Arc<Self>) {
            self.0.unpark();
        }
    }
    let waker = Arc::new(Unpark(std::thread::current())).into();
    let mut context = Context::from_waker(&waker);
    let mut future = std::pin::pin!(future);
    loop {
        match future.as_mut().poll(&mut context) {
            Poll::Ready(output) => return output,
            Poll::Pending => std::thread::park(),
        }
    }
}

/// A future that is pending once (waking itself), as real I/O would be.
struct YieldOnce(bool);

impl Future for YieldOnce {
    type Output = ();
    fn poll(mut self: Pin<&mut Self>, context: &mut Context<'_>) -> Poll<()> {
        if self.0 {
            Poll::Ready(())
        } else {
            self.0 = true;
            context.waker().wake_by_ref();
            Poll::Pending
        }
    }
}

fn toolbox() -> Toolbox {
    Toolbox::new()
        .with_tool(|call: GetWeather| {
            if call.city == "Atlantis" {
                return Err(format!("no weather station in {}", call.city));
            }
            Ok(Forecast { city: call.city, sunny: call.days.unwrap_or(1) < 3 })
        })
        .with_async_tool(|call: Define| async move {
            YieldOnce(false).await;
            Ok::<_, String>(format!("{}: a word", call.word))
        })
        .with_tool(|call: Login| Ok::<_, String>(format!("welcome {}", call.user)))
}

fn call(name: &str, id: Option<&str>, arguments: Value) -> Calls {
    let mut item = json!({"type": "function", "function": {"name": name, "arguments": arguments}});
    if let Some(id) = id {
        item["id"] = json!(id);
    }
    let body = json!({"choices": [{"message": {"role": "assistant", "tool_calls": [item]}}]});
    parse_body(body.to_string().as_bytes(), &CallOptions::new()).unwrap()
}

fn one(name: &str, arguments: &str) -> ToolCall {
    call(name, Some("call_1"), json!(arguments)).calls.remove(0)
}

#[test]
fn every_outcome_is_distinct() {
    let toolbox = toolbox();
    let outcome = toolbox.dispatch(&one("get_weather", r#"{"city": "Paris", "days": "2"}"#));
    assert_eq!(outcome.kind(), OutcomeKind::Success);
    assert_eq!(outcome.result, Ok(json!({"city": "Paris", "sunny": true})));
    assert_eq!(outcome.report.coercions[0].path, "/days");

    let outcome = toolbox.dispatch(&one("get_forecast", "{}"));
    assert_eq!(outcome.kind(), OutcomeKind::UnknownTool);
    assert!(outcome.text().contains("Available tools: get_weather, define, login."), "{}", outcome.text());

    let outcome = toolbox.dispatch(&one("get_weather", r#"{"city": "Paris", "days": 300}"#));
    assert_eq!(outcome.kind(), OutcomeKind::Invalid);
    assert!(outcome.text().contains("/days"), "{}", outcome.text());

    let outcome = toolbox.dispatch(&one("get_weather", r#"{"town": "Paris"}"#));
    assert_eq!(outcome.kind(), OutcomeKind::Invalid);

    let outcome = toolbox.dispatch(&one("get_weather", r#"{"city": "Atlantis"}"#));
    assert_eq!(outcome.kind(), OutcomeKind::HandlerError);
    assert_eq!(outcome.text(), "The tool `get_weather` failed: no weather station in Atlantis");

    // Arguments that do not parse never became a runnable call: the error is answered.
    let calls = call("get_weather", Some("call_9"), json!(r#"{"city": "Par"#));
    let outcome = toolbox.answer(&calls.errors[0]);
    assert_eq!(outcome.kind(), OutcomeKind::Unparsable);
    assert_eq!(outcome.call_id, "call_9");
    assert!(outcome.text().contains("cut off"), "{}", outcome.text());

    let calls = call("", Some("call_8"), json!("{}"));
    assert_eq!(toolbox.answer(&calls.errors[0]).kind(), OutcomeKind::Malformed);
    let calls = parse_body(br#"{"choices": [{"message": {"tool_calls": [{"id": "c", "function": {"name": "nope", "arguments": "{"}}]}}]}"#, &toolbox.call_options()).unwrap();
    assert_eq!(toolbox.answer(&calls.errors[0]).kind(), OutcomeKind::UnknownTool);

    // Names are matched by the same rule as when reading.
    assert!(toolbox.dispatch(&one(" Get_Weather", r#"{"city": "Paris"}"#)).is_success());
}

#[test]
fn a_strict_tool_gets_no_repaired_syntax() {
    let toolbox = toolbox();
    let sent = one("login", "{'user': 'ann', 'password': 'hunter22'}");
    // The generic pre-parse read it leniently...
    assert_eq!(sent.arguments["user"], "ann");
    // ...but the tool's own strict policy refuses it.
    let outcome = toolbox.dispatch(&sent);
    assert_eq!(outcome.kind(), OutcomeKind::Unparsable);
    assert!(toolbox.dispatch(&one("login", r#"{"user": "ann", "password": "hunter22"}"#)).is_success());
}

#[test]
fn arguments_are_read_back_from_the_dialect_shown() {
    let strict_form = r#"{"user": "ann", "password": "hunter22", "remember": null}"#;
    assert_eq!(toolbox().dispatch(&one("login", strict_form)).kind(), OutcomeKind::Invalid);
    let toolbox = toolbox().with_dialect(Dialect::OpenAiStrict);
    assert_eq!(toolbox.dispatch(&one("login", strict_form)).result, Ok(json!("welcome ann")));
    for tool in toolbox.definitions(Dialect::OpenAiStrict) {
        assert_eq!(tool["function"]["strict"], true);
    }
    assert!(toolbox.check_dialect(Dialect::OpenAiStrict).is_empty());
    assert!(toolbox.check_dialect(Dialect::Gemini).is_empty());
}

#[test]
fn every_result_format() {
    let toolbox = toolbox();
    let success = toolbox.dispatch(&one("get_weather", r#"{"city": "Paris"}"#));
    let failure = toolbox.dispatch(&one("get_weather", r#"{"city": "Atlantis"}"#));
    let text = r#"{"city":"Paris","sunny":true}"#;
    let error = "The tool `get_weather` failed: no weather station in Atlantis";

    assert_eq!(success.to_openai(), json!({"role": "tool", "tool_call_id": "call_1", "content": text}));
    assert_eq!(failure.to_openai(), json!({"role": "tool", "tool_call_id": "call_1", "content": error}));
    assert_eq!(
        success.to_responses(),
        json!({"type": "function_call_output", "call_id": "call_1", "output": text})
    );
    assert_eq!(
        success.to_anthropic(),
        json!({"type": "tool_result", "tool_use_id": "call_1", "content": text})
    );
    assert_eq!(
        failure.to_anthropic(),
        json!({"type": "tool_result", "tool_use_id": "call_1", "content": error, "is_error": true})
    );
    assert_eq!(
        success.to_gemini(),
        json!({"functionResponse": {"id": "call_1", "name": "get_weather", "response": {"output": {"city": "Paris", "sunny": true}}}})
    );
    assert_eq!(
        failure.to_gemini(),
        json!({"functionResponse": {"id": "call_1", "name": "get_weather", "response": {"error": error}}})
    );
    assert_eq!(
        success.to_mcp(),
        json!({"content": [{"type": "text", "text": text}], "isError": false, "structuredContent": {"city": "Paris", "sunny": true}})
    );
    assert_eq!(failure.to_mcp(), json!({"content": [{"type": "text", "text": error}], "isError": true}));
    for dialect in Dialect::ALL {
        assert!(success.to_dialect(dialect).is_object());
    }

    // A string output is sent as it is; a Gemini call without an id gets none back.
    let gemini = br#"{"candidates": [{"content": {"parts": [{"functionCall": {"name": "login", "args": {"user": "ann", "password": "hunter22"}}}]}}]}"#;
    let calls = toolbox.parse_body(gemini).unwrap();
    let outcome = toolbox.dispatch(&calls.calls[0]);
    assert_eq!(
        outcome.to_gemini(),
        json!({"functionResponse": {"name": "login", "response": {"output": "welcome ann"}}})
    );
    assert_eq!(outcome.to_openai()["content"], "welcome ann");
}

#[test]
fn a_gemini_response_names_the_declaration_the_model_called() {
    // Gemini refuses a space in a name: `get weather` is declared, and
    // called, as `get_weather`; the response must name that declaration.
    let definition = ToolDefinition::new(
        "get weather",
        None,
        json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}),
    )
    .unwrap();
    let toolbox = Toolbox::new().with_definition(definition, |_| Ok::<_, String>("sunny"));
    assert_eq!(toolbox.definitions(Dialect::Gemini)[0]["name"], "get_weather");
    let body = json!({"candidates": [{"content": {"role": "model", "parts": [
        {"functionCall": {"id": "g1", "name": "get_weather", "args": {"city": "Oslo"}}},
        {"functionCall": {"id": "g2", "name": "get_weather", "args": {"city": 5}}}]}}]});
    let calls = toolbox.parse_body(body.to_string()).unwrap();
    let outcomes: Vec<_> = calls.calls.iter().map(|call| toolbox.dispatch(call)).collect();
    assert_eq!(outcomes[0].tool, "get weather"); // the registered tool ran
    assert_eq!(
        outcomes[0].to_gemini(),
        json!({"functionResponse": {"id": "g1", "name": "get_weather", "response": {"output": "sunny"}}})
    );
    assert_eq!(outcomes[1].to_gemini()["functionResponse"]["name"], "get_weather");
    assert!(outcomes[1].to_gemini()["functionResponse"]["response"]["error"].is_string());
}

#[test]
fn sync_and_async_handlers() {
    let toolbox = toolbox();
    let define = one("define", r#"{"word": "tool"}"#);
    let outcome = block_on(toolbox.dispatch_async(&define));
    assert_eq!(outcome.result, Ok(json!("tool: a word")));
    // A sync handler runs inline under dispatch_async.
    let weather = one("get_weather", r#"{"city": "Paris"}"#);
    assert!(block_on(toolbox.dispatch_async(&weather)).is_success());
    // An async handler is not run by the sync dispatch.
    let outcome = toolbox.dispatch(&define);
    assert_eq!(outcome.kind(), OutcomeKind::HandlerError);
    assert!(outcome.text().contains("dispatch_async"), "{}", outcome.text());
    // Validation happens before the future is even made.
    let outcome = block_on(toolbox.dispatch_async(&one("define", "{}")));
    assert_eq!(outcome.kind(), OutcomeKind::Invalid);

    // Plain-schema tools, sync and async.
    let schema = json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]});
    let double = ToolDefinition::new("double", None, schema.clone()).unwrap();
    let triple = ToolDefinition::new("triple", None, schema).unwrap();
    let toolbox = Toolbox::new()
        .with_definition(double, |args: Value| Ok::<_, String>(args["n"].as_i64().unwrap_or(0) * 2))
        .with_async_definition(triple, |args: Value| async move {
            Ok::<_, String>(args["n"].as_i64().unwrap_or(0) * 3)
        });
    assert_eq!(toolbox.dispatch(&one("double", r#"{"n": "21"}"#)).result, Ok(json!(42)));
    assert_eq!(block_on(toolbox.dispatch_async(&one("triple", r#"{"n": 2}"#))).result, Ok(json!(6)));

    // The Toolbox and its futures can cross threads.
    fn send_sync<T: Send + Sync>(_: &T) {}
    send_sync(&toolbox);
    fn send<T: Send>(_: T) {}
    send(toolbox.dispatch_async(&define));
}

/// A weather tool whose handler fails for Atlantis, and how many times it ran.
fn counting_weather() -> (Toolbox, Arc<AtomicUsize>) {
    let runs = Arc::new(AtomicUsize::new(0));
    let counter = runs.clone();
    let toolbox = Toolbox::new().with_tool(move |call: GetWeather| {
        counter.fetch_add(1, Ordering::SeqCst);
        if call.city == "Atlantis" {
            Err("no station")
        } else {
            Ok("sunny")
        }
    });
    (toolbox, runs)
}

#[test]
fn a_handlers_errors_count_on_a_budget_of_their_own() {
    let (toolbox, runs) = counting_weather();
    let declined = one("get_weather", r#"{"city": "Atlantis"}"#);
    let invalid = one("get_weather", r#"{"town": "Paris"}"#);
    let good = one("get_weather", r#"{"city": "Paris"}"#);

    // Two handler errors with a budget of two mistakes: the next valid call still runs.
    let mut conversation = Conversation::new().with_max_failures(2);
    for _ in 0..2 {
        let outcome = toolbox.dispatch_in(&mut conversation, &declined);
        assert_eq!(outcome.kind(), OutcomeKind::HandlerError);
        assert!(!outcome.budget_spent);
        assert_eq!(outcome.text(), "The tool `get_weather` failed: no station");
    }
    assert_eq!(conversation.failures("get_weather"), 0);
    assert_eq!(conversation.handler_failures("get_weather"), 2);
    assert!(toolbox.dispatch_in(&mut conversation, &good).is_success());
    assert_eq!(conversation.handler_failures("get_weather"), 0);

    // A mistake between handler errors: each budget keeps its own count.
    let mut conversation = Conversation::new().with_max_failures(2).with_max_handler_failures(2);
    toolbox.dispatch_in(&mut conversation, &declined);
    toolbox.dispatch_in(&mut conversation, &invalid);
    assert_eq!((conversation.failures("get_weather"), conversation.handler_failures("get_weather")), (1, 1));
    // A handler error means the arguments were right: the model's run of mistakes ends.
    let spent = toolbox.dispatch_in(&mut conversation, &declined);
    assert_eq!((conversation.failures("get_weather"), conversation.handler_failures("get_weather")), (0, 2));
    assert!(spent.budget_spent && spent.kind() == OutcomeKind::HandlerError);
    assert!(
        spent.text().starts_with(
            "The tool `get_weather` failed: no station\nThe tool `get_weather` has now failed on its own"
        ),
        "{}",
        spent.text()
    );

    // Then the tool is not run, and the answer says it is the tool, not the arguments.
    let runs_before = runs.load(Ordering::SeqCst);
    let refused = toolbox.dispatch_in(&mut conversation, &good);
    assert_eq!(refused.kind(), OutcomeKind::BudgetSpent);
    assert!(matches!(refused.result, Err(Failure::HandlerBudgetSpent { failures: 2, .. })));
    assert!(refused.text().contains("your arguments were accepted"), "{}", refused.text());
    assert_eq!(runs.load(Ordering::SeqCst), runs_before);

    // `reset` forgets both counts.
    conversation.reset();
    assert!(!conversation.is_spent("get_weather"));
    assert!(toolbox.dispatch_in(&mut conversation, &good).is_success());
}

#[test]
fn the_retry_budget_stops_a_looping_call() {
    let (toolbox, runs) = counting_weather();
    let mut conversation = Conversation::new().with_max_failures(3);
    let invalid = one("get_weather", r#"{"town": "Paris"}"#);
    let good = one("get_weather", r#"{"city": "Paris"}"#);

    // A success resets the count.
    assert!(!toolbox.dispatch_in(&mut conversation, &invalid).budget_spent);
    assert_eq!(conversation.failures("get_weather"), 1);
    assert!(toolbox.dispatch_in(&mut conversation, &good).is_success());
    assert_eq!(conversation.failures("get_weather"), 0);

    // The model's mistakes in a row spend its budget; the handler's errors are not among them.
    let first = toolbox.dispatch_in(&mut conversation, &invalid);
    let second = toolbox.dispatch_in(&mut conversation, &invalid);
    assert!(!first.budget_spent && !second.budget_spent);
    let third = toolbox.dispatch_in(&mut conversation, &invalid);
    assert!(third.budget_spent);
    assert!(third.text().contains("retry budget for `get_weather` is now spent"), "{}", third.text());
    assert!(conversation.is_spent("get_weather"));

    // After that the tool is not run, even with good arguments.
    let runs_before = runs.load(Ordering::SeqCst);
    let refused = toolbox.dispatch_in(&mut conversation, &good);
    assert_eq!(refused.kind(), OutcomeKind::BudgetSpent);
    assert!(matches!(refused.result, Err(Failure::BudgetSpent { failures: 3, .. })));
    assert!(refused.text().contains("retry budget"), "{}", refused.text());
    assert_eq!(runs.load(Ordering::SeqCst), runs_before);
    assert!(refused.to_anthropic()["is_error"] == true);

    // Unknown tools and unreadable calls count too.
    let mut conversation = Conversation::new().with_max_failures(2);
    let unknown = one("get_forecast", "{}");
    assert!(!toolbox.dispatch_in(&mut conversation, &unknown).budget_spent);
    assert!(toolbox.dispatch_in(&mut conversation, &unknown).budget_spent);
    // After that the name is answered as any spent tool is: the model is told to stop, not
    // again that the tool does not exist.
    let refused = toolbox.dispatch_in(&mut conversation, &unknown);
    assert_eq!(refused.kind(), OutcomeKind::BudgetSpent);
    assert!(
        matches!(&refused.result, Err(Failure::BudgetSpent { tool, failures: 2 }) if tool == "get_forecast")
    );
    let body = json!({"choices": [{"message": {"role": "assistant", "tool_calls": [
        {"id": "u", "type": "function", "function": {"name": "get_forecast", "arguments": "{}"}}]}}]});
    let read_unknown = parse_body(body.to_string().as_bytes(), &toolbox.call_options()).unwrap();
    assert_eq!(read_unknown.errors[0].kind.code(), "unknown_tool");
    let answered = toolbox.answer_in(&mut conversation, &read_unknown.errors[0]);
    assert_eq!(answered.kind(), OutcomeKind::BudgetSpent);
    let cut = call("get_weather", Some("c"), json!(r#"{"city": "#));
    let mut conversation = Conversation::new().with_max_failures(1);
    let outcome = toolbox.answer_in(&mut conversation, &cut.errors[0]);
    assert!(outcome.budget_spent && outcome.kind() == OutcomeKind::Unparsable);
    assert_eq!(toolbox.dispatch_in(&mut conversation, &good).kind(), OutcomeKind::BudgetSpent);
    conversation.reset();
    assert!(toolbox.dispatch_in(&mut conversation, &good).is_success());
    // Async dispatch shares the budget.
    let mut conversation = Conversation::new().with_max_failures(1);
    assert!(block_on(toolbox.dispatch_async_in(&mut conversation, &invalid)).budget_spent);
    let mut conversation = Conversation::new().with_max_handler_failures(1);
    let declined = one("get_weather", r#"{"city": "Atlantis"}"#);
    assert!(block_on(toolbox.dispatch_async_in(&mut conversation, &declined)).budget_spent);
}

#[test]
fn every_call_of_a_response_is_answered_in_order() {
    let toolbox = toolbox();
    let text = "<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}</tool_call>\
                <tool_call>{\"name\": \"nope\", \"arguments\": {}}</tool_call>\
                <tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Ro";
    let calls = parse_text(text, &toolbox.call_options());
    let mut conversation = Conversation::new();
    let outcomes: Vec<Outcome> = toolbox.run_all(&mut conversation, &calls);
    let kinds: Vec<OutcomeKind> = outcomes.iter().map(Outcome::kind).collect();
    assert_eq!(kinds, [OutcomeKind::Success, OutcomeKind::UnknownTool, OutcomeKind::Unparsable]);
    let ids: Vec<&str> = outcomes.iter().map(|o| o.call_id.as_str()).collect();
    assert_eq!(ids.len(), 3);
    assert!(ids.iter().all(|id| id.starts_with("call_")));
}

#[test]
fn tools_sent_under_a_provider_name_are_mapped_back() {
    let schema = json!({"type": "object", "properties": {"path": {"type": "string"}}});
    let long = format!("files.{}", "read".repeat(20));
    let toolbox = Toolbox::new()
        .with_definition(ToolDefinition::new("files.read", None, schema.clone()).unwrap(), |args: Value| {
            Ok::<_, String>(format!("read {}", args["path"]))
        })
        .with_definition(ToolDefinition::new(long.as_str(), None, schema.clone()).unwrap(), |_| {
            Ok::<_, String>("long".to_owned())
        });
    // OpenAI and Anthropic reject `.` and names over 64 characters: the definitions say
    // what the provider accepts; MCP takes the names as registered.
    let openai = toolbox.definitions(Dialect::OpenAi);
    assert_eq!(openai[0]["function"]["name"], "files_read");
    let sent_long = openai[1]["function"]["name"].as_str().unwrap().to_owned();
    assert_eq!(sent_long.len(), 64);
    assert_eq!(toolbox.definitions(Dialect::Anthropic)[1]["name"], sent_long.as_str());
    assert_eq!(toolbox.definitions(Dialect::Mcp)[0]["name"], "files.read");
    for dialect in Dialect::ALL {
        assert!(toolbox.check_dialect(dialect).is_empty(), "{dialect}: {:?}", toolbox.check_dialect(dialect));
    }
    // The answers come back under those names, and reach the registered tools.
    let body = json!({"type": "message", "role": "assistant", "content": [
        {"type": "tool_use", "id": "toolu_1", "name": "files_read", "input": {"path": "a.txt"}},
        {"type": "tool_use", "id": "toolu_2", "name": sent_long, "input": {}}]});
    let calls = toolbox.parse_body(body.to_string().as_bytes()).unwrap();
    assert!(calls.errors.is_empty(), "{:?}", calls.errors);
    assert_eq!(calls.calls[0].name, "files.read");
    assert_eq!(calls.calls[1].name, long);
    assert_eq!(calls.calls[1].matched_by.map(|m| m.code()), Some("sent_name"));
    let outcomes: Vec<Value> = calls.calls.iter().map(|c| toolbox.dispatch(c).to_anthropic()).collect();
    assert_eq!(outcomes[0]["content"], "read \"a.txt\"");
    assert_eq!(outcomes[1]["content"], "long");
    // Read without the toolbox's options, the toolbox still finds them when it dispatches.
    let calls = parse_body(body.to_string().as_bytes(), &CallOptions::new()).unwrap();
    assert_eq!(calls.calls[1].name, sent_long);
    assert_eq!(toolbox.dispatch(&calls.calls[1]).to_anthropic()["content"], "long");

    // Two tools that would be sent under one name: the check says so.
    let clash = Toolbox::new()
        .with_definition(ToolDefinition::new("a.b", None, schema.clone()).unwrap(), |_| Ok::<_, String>(1))
        .with_definition(ToolDefinition::new("a-b", None, schema).unwrap(), |_| Ok::<_, String>(2));
    assert!(clash.check_dialect(Dialect::OpenAi).is_empty(), "`a-b` is a valid OpenAI name");
    let problems = clash.check_dialect(Dialect::Gemini);
    assert!(problems.is_empty(), "{problems:?}");
    let clash = clash
        .with_definition(ToolDefinition::new("a b", None, json!({"type": "object"})).unwrap(), |_| {
            Ok::<_, String>(3)
        });
    let problems = clash.check_dialect(Dialect::OpenAi);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].0, "a b");
    assert_eq!(problems[0].1.pointer, "/function/name");
    assert!(problems[0].1.message.contains("`a.b`"), "{}", problems[0].1.message);
}
