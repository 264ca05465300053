//! The Toolbox's `tracing` events: raw arguments with sensitive fields redacted (also of
//! calls that do not parse, are cut off or name an unknown tool), the normalized value,
//! repairs, coercions, field errors with their messages, the format, the levels. One test alone in its binary, so no other thread registers the
//! event callsites while no subscriber is listening (tracing caches that interest).

use std::fmt::Write;
use std::sync::{Arc, Mutex};

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use tool_input::calls::{parse_body, CallOptions};
use tool_input::{CallError, ToolCall, ToolInput, Toolbox};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

/// Get the weather for a city.
#[derive(Debug, Deserialize, JsonSchema, ToolInput)]
struct GetWeather {
    city: String,
    days: Option<u8>,
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

fn toolbox() -> Toolbox {
    Toolbox::new()
        .with_tool(|call: GetWeather| {
            if call.city == "Atlantis" {
                return Err(format!("no weather station in {}", call.city));
            }
            Ok(format!("sunny in {} for {} days", call.city, call.days.unwrap_or(1)))
        })
        .with_tool(|call: Login| Ok::<_, String>(format!("welcome {}", call.user)))
}

/// The call errors of one OpenAI call that does not become a runnable call.
fn failing(name: &str, arguments: &str) -> CallError {
    let body = json!({"choices": [{"message": {"role": "assistant", "tool_calls": [
        {"id": "call_9", "type": "function", "function": {"name": name, "arguments": arguments}}]}}]});
    parse_body(body.to_string().as_bytes(), &CallOptions::new()).unwrap().errors.remove(0)
}

fn one(name: &str, arguments: &str) -> ToolCall {
    let body = json!({"choices": [{"message": {"role": "assistant", "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": name, "arguments": arguments}}]}}]});
    parse_body(body.to_string().as_bytes(), &CallOptions::new()).unwrap().calls.remove(0)
}

/// Collects each event as `message field=value ...`.
struct Capture(Arc<Mutex<Vec<String>>>);

struct Line(String);

impl Visit for Line {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        let _ = write!(self.0, "{}={:?} ", field.name(), value);
    }
    fn record_str(&mut self, field: &Field, value: &str) {
        let _ = write!(self.0, "{}={} ", field.name(), value);
    }
}

impl Subscriber for Capture {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, _: &Attributes<'_>) -> Id {
        Id::from_u64(1)
    }
    fn record(&self, _: &Id, _: &Record<'_>) {}
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, event: &Event<'_>) {
        let mut line = Line(format!("{} ", event.metadata().level()));
        event.record(&mut line);
        self.0.lock().unwrap().push(line.0);
    }
    fn enter(&self, _: &Id) {}
    fn exit(&self, _: &Id) {}
}

fn capture(run: impl FnOnce()) -> Vec<String> {
    let lines = Arc::new(Mutex::new(Vec::new()));
    tracing::subscriber::with_default(Capture(lines.clone()), run);
    let lines = lines.lock().unwrap().clone();
    lines
}

#[test]
fn events_carry_redacted_arguments_repairs_coercions_and_errors() {
    let toolbox = toolbox();
    let lines = capture(|| {
        toolbox
            .dispatch(&one("login", r#"{"user": "ann", "password": "hunter22-secret", "remember": "yes"}"#));
        toolbox.dispatch(&one("get_weather", "{'city': 'Paris', 'days': '2'}"));
        toolbox.dispatch(&one("get_weather", r#"{"city": "Atlantis"}"#));
        toolbox.dispatch(&one("nope", "{}"));
    });
    let all = lines.join("\n");
    assert!(!all.contains("hunter22-secret"), "{all}");
    assert!(all.contains("[redacted]"), "{all}");
    assert!(all.contains("message=tool call") && all.contains(r#""user":"ann""#), "{all}");
    assert!(all.contains("message=arguments rejected") && all.contains("/remember: type"), "{all}");
    assert!(
        all.contains("message=arguments accepted")
            && all.contains("single_quotes")
            && all.contains("/days: number_from_string"),
        "{all}"
    );
    assert!(all.contains("message=tool failed") && all.contains("no weather station"), "{all}");
    assert!(all.contains("message=unknown tool"), "{all}");
    // Without sensitive fields, the arguments are logged as sent.
    assert!(all.contains("{'city': 'Paris', 'days': '2'}"), "{all}");

    // Every event names the format the call came in.
    assert!(lines.iter().all(|line| line.contains("format=openai")), "{all}");
    // A call that succeeds logs the normalized value beside the raw arguments.
    let accepted = find(&lines, "message=arguments accepted", "Paris");
    assert!(accepted.starts_with("DEBUG "), "{accepted}");
    assert!(accepted.contains(r#"value={"city":"Paris","days":2}"#), "{accepted}");
    assert!(accepted.contains("arguments={'city': 'Paris', 'days': '2'}"), "{accepted}");
    let accepted = find(&lines, "message=arguments accepted", "Atlantis");
    assert!(accepted.contains(r#"value={"city":"Atlantis"}"#), "{accepted}");
    // A login's normalized value is redacted too.
    let login = find(&lines, "message=tool call", "ann");
    assert!(login.contains("matched_by=exact") && login.contains("name_sent=login"), "{login}");
    // Rejections are the model's mistakes: INFO, with each field error's message.
    let rejected = find(&lines, "message=arguments rejected", "/remember");
    assert!(rejected.starts_with("INFO "), "{rejected}");
    assert!(rejected.contains("/remember: type: "), "{rejected}");
    assert!(rejected.contains("arguments=") && !rejected.contains("hunter22"), "{rejected}");
    let unknown = find(&lines, "message=unknown tool", "nope");
    assert!(unknown.starts_with("INFO ") && unknown.contains("arguments={}"), "{unknown}");
    // The program's own trouble stays a warning.
    assert!(find(&lines, "message=tool failed", "Atlantis").starts_with("WARN "), "{all}");

    // Calls that never became runnable calls log what arrived.
    let lines = capture(|| {
        // Cut off, no sensitive field: the raw text.
        toolbox.answer(&failing("get_weather", r#"{"city": "Reykjav"#));
        // Unparsable, sensitive fields: only the length and where reading failed.
        toolbox.answer(&failing("login", r#"{"user": "ann", "password": hunter22-secret +}"#));
        // Cut off, sensitive fields: the same.
        toolbox.answer(&failing("login", r#"{"user": "ann", "password": "hunter22-sec"#));
        // An unknown tool: its raw arguments.
        toolbox.answer(&failing("search", r#"{"q": "weather in Oslo"#));
        // A mangled name resolved by the toolbox: how it was matched.
        toolbox.dispatch(&one("functions.get_weather", r#"{"city": "Lima"}"#));
    });
    let all = lines.join("\n");
    assert!(!all.contains("hunter22"), "{all}");
    let cut = find(&lines, "message=arguments rejected", "Reykjav");
    assert!(cut.starts_with("INFO ") && cut.contains("kind=truncated"), "{cut}");
    assert!(cut.contains(r#"arguments={"city": "Reykjav"#) && cut.contains("call_id=call_9"), "{cut}");
    let unparsable = find(&lines, "message=arguments rejected", "kind=parse");
    assert!(unparsable.contains("tool=login"), "{unparsable}");
    assert!(unparsable.contains("errors=: parse: [message withheld"), "{unparsable}");
    assert!(unparsable.contains("arguments=[redacted: 46 bytes, unreadable at byte 28]"), "{unparsable}");
    let secret_cut = find(&lines, "message=arguments rejected", "41 bytes");
    assert!(secret_cut.contains("tool=login") && secret_cut.contains("kind=truncated"), "{secret_cut}");
    assert!(secret_cut.contains("arguments=[redacted: 41 bytes, unreadable at byte 41]"), "{secret_cut}");
    let unknown = find(&lines, "message=unknown tool", "search");
    assert!(unknown.starts_with("INFO "), "{unknown}");
    assert!(unknown.contains(r#"arguments={"q": "weather in Oslo"#), "{unknown}");
    assert!(unknown.contains("available=get_weather, login"), "{unknown}");
    let mangled = find(&lines, "message=tool call", "Lima");
    assert!(
        mangled.contains("tool=get_weather") && mangled.contains("name_sent=functions.get_weather"),
        "{mangled}"
    );
    assert!(mangled.contains("matched_by=namespace_prefix"), "{mangled}");
}

/// The one line with both parts.
fn find<'a>(lines: &'a [String], message: &str, part: &str) -> &'a str {
    lines
        .iter()
        .find(|line| line.contains(message) && line.contains(part))
        .unwrap_or_else(|| panic!("no `{message}` with `{part}` in:\n{}", lines.join("\n")))
}
