//! Typed handlers take their type's typed path (one pass from the text to the type when the
//! call allows), and come to exactly what checking the arguments as JSON and deserializing
//! them after gives: the same outputs, failures, messages, reports and retry budgets. The
//! JSON path is the one the Toolbox takes while the `arguments accepted` event (DEBUG), which
//! logs the checked JSON, is listened to; so each call is dispatched with such a listener and
//! without. One test alone in its binary, so no other thread registers the event callsites
//! while no subscriber is listening (tracing caches that interest).

use futures_executor::block_on;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use tool_input::calls::{parse_body, CallOptions, Calls};
use tool_input::{CallContext, Conversation, FieldError, Outcome, ToolInput, Toolbox};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

/// Get the weather for a city.
#[derive(Debug, Deserialize, JsonSchema, ToolInput)]
struct GetWeather {
    city: String,
    days: Option<u8>,
}

/// Book a room.
#[derive(Debug, Deserialize, JsonSchema, ToolInput)]
#[tool_input(validate = check_dates)]
struct BookRoom {
    start: u32,
    end: u32,
}

fn check_dates(booking: &BookRoom) -> Result<(), Vec<FieldError>> {
    if booking.end <= booking.start {
        return Err(vec![FieldError::custom("must be after `start`").at("end").with_value(booking.end)]);
    }
    Ok(())
}

/// Log in.
#[derive(Debug, Deserialize, JsonSchema, ToolInput)]
#[tool_input(policy = "strict")]
struct Login {
    user: String,
    #[tool_input(sensitive)]
    #[allow(dead_code)]
    password: String,
    #[serde(default)]
    remember: bool,
}

/// Look up a code: the schema says a string, serde wants a number (serde refuses what the
/// schema accepts).
#[derive(Debug, Deserialize, JsonSchema, ToolInput)]
struct LookUp {
    #[schemars(with = "String")]
    code: u32,
}

/// Define a word (async, with context).
#[derive(Debug, Deserialize, JsonSchema, ToolInput)]
struct Define {
    word: String,
}

/// Count words (async).
#[derive(Debug, Deserialize, JsonSchema, ToolInput)]
struct Count {
    text: String,
}

/// Every event enabled, none kept: the `arguments accepted` event is listened to.
struct Listening;

impl Subscriber for Listening {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, _: &Attributes<'_>) -> Id {
        Id::from_u64(1)
    }
    fn record(&self, _: &Id, _: &Record<'_>) {}
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, _: &Event<'_>) {}
    fn enter(&self, _: &Id) {}
    fn exit(&self, _: &Id) {}
}

fn listening<R>(run: impl FnOnce() -> R) -> R {
    tracing::subscriber::with_default(Listening, run)
}

fn toolbox() -> Toolbox<String> {
    Toolbox::with_state("en".to_owned())
        .with_tool(|call: GetWeather| {
            if call.city == "Atlantis" {
                return Err(format!("no weather station in {}", call.city));
            }
            Ok(format!("sunny in {} for {} days", call.city, call.days.unwrap_or(1)))
        })
        .with_tool(|call: BookRoom| Ok::<_, String>(json!({"nights": call.end - call.start})))
        .with_context_tool(|call: Login, cx: CallContext<String>| {
            Ok::<_, String>(format!("welcome {} ({}, {})", call.user, cx.state(), call.remember))
        })
        .with_tool(|call: LookUp| Ok::<_, String>(call.code))
        .with_async_context_tool(|call: Define, cx: CallContext<String>| async move {
            Ok::<_, String>(format!("[{}] {}", cx.state(), call.word))
        })
        .with_async_tool(|call: Count| async move { Ok::<_, String>(call.text.split_whitespace().count()) })
}

/// Calls of every kind: exact, repaired, coerced, invalid, refused by a rule, refused by
/// serde, strict, unknown, async.
fn calls() -> Calls {
    let sent = [
        ("get_weather", r#"{"city": "Paris", "days": 2}"#),
        ("get_weather", "{'city': 'Paris', 'days': '2',}"),
        ("get_weather", "Here you go:\n```json\n{\"city\": \"Oslo\", \"days\": 3.0}\n```"),
        ("get_weather", r#"{"city": "Atlantis"}"#),
        ("get_weather", r#"{"town": "Paris", "days": 300}"#),
        ("get_weather", r#"{"city": "Rome", "city": "Milan"}"#),
        ("get_weather", r#"{"city": "Rome", "city": "Rome"}"#),
        ("get_weather", "[1, 2]"),
        ("get_weather", r#"{"city": }"#),
        ("get_weather", ""),
        ("book_room", r#"{"start": 3, "end": 5}"#),
        ("book_room", r#"{"start": 3, "end": "2"}"#),
        ("book_room", r#"{"start": 3, "end": 2}"#),
        ("login", r#"{"user": "ann", "password": "hunter22"}"#),
        ("login", "{'user': 'ann', 'password': 'hunter22'}"),
        ("login", r#"{"user": "ann", "password": "hunter22", "remember": "yes"}"#),
        ("look_up", r#"{"code": "12"}"#),
        ("look_up", r#"{"code": "twelve"}"#),
        ("look_up", r#"{"code": 12}"#),
        ("define", r#"{"word": "tool"}"#),
        ("define", r#"{"term": "tool"}"#),
        ("count", "{'text': 'one two three'}"),
        ("nope", "{}"),
    ];
    let tool_calls: Vec<_> = sent
        .iter()
        .enumerate()
        .map(|(n, (name, arguments))| {
            json!({"id": format!("call_{n}"), "type": "function", "function": {"name": name, "arguments": arguments}})
        })
        .collect();
    let body = json!({"choices": [{"message": {"role": "assistant", "tool_calls": tool_calls}}]});
    parse_body(body.to_string().as_bytes(), &CallOptions::new()).unwrap()
}

/// Each call dispatched alone (sync and async), then the whole response run in a conversation
/// (sync and async, whose budgets are counted differently), three times so budgets are spent.
fn run(toolbox: &Toolbox<String>, calls: &Calls) -> (Vec<Outcome>, Vec<u32>) {
    let mut outcomes: Vec<Outcome> = calls.calls.iter().map(|call| toolbox.dispatch(call)).collect();
    outcomes.extend(calls.calls.iter().map(|call| block_on(toolbox.dispatch_async(call))));
    let mut conversation = Conversation::new().with_max_failures(2);
    let mut concurrent = Conversation::new().with_max_failures(2);
    for _ in 0..3 {
        outcomes.extend(toolbox.run_all(&mut conversation, calls));
        outcomes.extend(block_on(toolbox.run_all_async(&mut concurrent, calls)));
    }
    let failures = calls
        .calls
        .iter()
        .flat_map(|call| [conversation.failures(&call.name), concurrent.failures(&call.name)])
        .collect();
    (outcomes, failures)
}

#[test]
fn typed_handlers_come_to_what_the_json_path_gives() {
    let toolbox = toolbox();
    let calls = calls();
    // Two never become calls (not an object, not JSON): they are answered, not run.
    assert_eq!(calls.errors.len(), 2);
    // The JSON path first, so the event callsites are registered while a listener exists.
    let (by_json, json_failures) = listening(|| run(&toolbox, &calls));
    let (typed, typed_failures) = run(&toolbox, &calls);
    assert_eq!(typed.len(), by_json.len());
    for (typed, by_json) in typed.iter().zip(&by_json) {
        assert_eq!(typed, by_json, "call {} to {}", typed.call_id, typed.tool);
        assert_eq!(typed.to_openai(), by_json.to_openai());
    }
    assert_eq!(typed_failures, json_failures);
    // The calls met every outcome: success, invalid, handler error, unknown tool, unparsable.
    let mut kinds: Vec<&str> = typed.iter().map(|outcome| outcome.kind().code()).collect();
    kinds.sort_unstable();
    kinds.dedup();
    assert!(kinds.len() >= 5, "{kinds:?}");
}
