//! The Toolbox's `tracing` events: raw arguments with sensitive fields redacted, repairs,
//! coercions, field errors. One test alone in its binary, so no other thread registers the
//! event callsites while no subscriber is listening (tracing caches that interest).

use std::fmt::Write;
use std::sync::{Arc, Mutex};

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use tool_input::calls::{parse_body, CallOptions};
use tool_input::{ToolCall, ToolInput, Toolbox};
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
}
