//! A `#[tool_input(sensitive)]` value never appears anywhere a value can travel: rejection
//! messages, field errors (Display, Debug, JSON), coercion records, reports, residual serde
//! errors, default fills, the one-pass and the full path, Toolbox outcomes and every tool
//! result format. (tracing events: tool-input/tests/toolbox_events.rs.)

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use tool_input::calls::{parse_value, CallOptions};
use tool_input::{CheckOptions, Conversation, Policy, ToolInput, Toolbox};

const SECRET: &str = "hunter2-SECRET";

/// Log in.
#[derive(Debug, Deserialize, JsonSchema, ToolInput)]
#[allow(dead_code)]
struct Login {
    user: String,
    #[tool_input(sensitive)]
    #[schemars(length(min = 20))]
    password: String,
    #[tool_input(sensitive)]
    #[serde(default = "default_pin", deserialize_with = "even_pin")]
    pin: u32,
    #[tool_input(sensitive)]
    backup: Option<Vec<String>>,
}

fn default_pin() -> u32 {
    4242
}

/// Refuses odd pins, quoting the pin, as a careless deserializer would.
fn even_pin<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<u32, D::Error> {
    let pin = u32::deserialize(deserializer)?;
    if pin % 2 == 0 {
        Ok(pin)
    } else {
        Err(serde::de::Error::custom(format!("pin {pin} is odd")))
    }
}

#[track_caller]
fn hidden(text: &str, secrets: &[&str]) {
    for secret in secrets {
        assert!(!text.contains(secret), "{secret} leaked into:\n{text}");
    }
}

#[test]
fn rejections_never_show_sensitive_values() {
    let raw = json!({"user": "ada", "password": SECRET, "pin": "not-a-pin-hunter2", "backup": [SECRET], "extra": 1}).to_string();
    for policy in [Policy::Strict, Policy::Default, Policy::Lenient] {
        let options = CheckOptions::new().with_policy(policy);
        let rejection = Login::from_arguments_with(raw.as_str(), &options).unwrap_err();
        let everything =
            format!("{rejection}\n{rejection:?}\n{}", serde_json::to_string(&rejection.errors()).unwrap());
        hidden(&everything, &[SECRET, "not-a-pin", "hunter2"]);
    }
    // A residual serde error quoting the value, at a sensitive field.
    let odd = json!({"user": "ada", "password": "x".repeat(24), "pin": 1357}).to_string();
    let rejection = Login::from_arguments(odd.as_str()).unwrap_err();
    assert_eq!(rejection.errors()[0].path(), "/pin");
    hidden(&format!("{rejection}\n{rejection:?}"), &["1357"]);
}

#[test]
fn reports_never_show_sensitive_values() {
    // Coerced (the pin as a string, the backup list as a string) and default-filled.
    let password = format!("{SECRET}-long-enough");
    for raw in [
        json!({"user": "ada", "password": password, "pin": "8642", "backup": "[\"code-hunter2\"]"})
            .to_string(),
        json!({"user": "ada", "password": password}).to_string(),
    ] {
        let checked = Login::from_arguments_with_report(raw.as_str()).unwrap();
        let report = format!("{:?}\n{}", checked.report, serde_json::to_string(&checked.report).unwrap());
        hidden(&report, &[SECRET, "8642", "code-hunter2", "4242"]);
        // The full path agrees.
        let full = tool_input::__private::from_arguments_full::<Login>(
            raw.as_str().into(),
            &CheckOptions::default(),
        )
        .unwrap();
        hidden(&format!("{:?}", full.report), &[SECRET, "8642", "code-hunter2", "4242"]);
    }
}

#[test]
fn tool_results_never_show_sensitive_values() {
    let toolbox = Toolbox::new()
        .with_tool(|login: Login| -> Result<String, String> { Ok(format!("welcome {}", login.user)) });
    let body = json!({"choices": [{"message": {"role": "assistant", "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "login", "arguments": json!({"user": "ada", "password": SECRET}).to_string()}},
        {"id": "call_2", "type": "function", "function": {"name": "login", "arguments": json!({"user": "ada", "password": format!("{SECRET}-long-enough"), "pin": 7}).to_string()}}
    ]}, "finish_reason": "tool_calls"}]});
    let calls = parse_value(&body, &toolbox.call_options()).unwrap();
    let mut conversation = Conversation::new();
    for outcome in toolbox.run_all(&mut conversation, &calls) {
        let all = format!(
            "{}\n{}\n{}\n{}\n{}\n{}",
            outcome.text(),
            outcome.to_openai(),
            outcome.to_responses(),
            outcome.to_anthropic(),
            outcome.to_gemini(),
            outcome.to_mcp()
        );
        hidden(&all, &[SECRET]);
    }
    let _ = CallOptions::new();
}

/// Arguments that do not parse, with a sensitive value written without quotes (or cut off
/// inside it): the message gives positions only, on every path.
const BROKEN: &[&str] = &[
    r#"{"user": "ada", "password": hunter2-SECRET}"#,
    r#"{"user": "ada", "password": "x" hunter2-SECRET}"#,
    r#"{"user": "ada", "password": hunter2-SECRET"#,
    r#"{"user": "ada", "password": "hunter2-SECRET"#,
    r#"{"user": "ada", "password": 'hunter2-SECRET' hunter2-SECRET}"#,
    "{\"user\": \"ada\", \"password\": hunter2-SECRET\u{7}}",
];

#[test]
fn parse_and_truncation_messages_quote_nothing_when_a_field_is_sensitive() {
    for raw in BROKEN {
        for policy in [Policy::Strict, Policy::Default, Policy::Lenient] {
            let options = CheckOptions::new().with_policy(policy);
            let rejection = Login::from_arguments_with(*raw, &options).unwrap_err();
            let everything = format!(
                "{rejection}\n{rejection:?}\n{}",
                serde_json::to_string(&rejection.errors()).unwrap()
            );
            hidden(&everything, &[SECRET, "hunter2"]);
            // Still a useful message: where it went wrong.
            let message = &rejection.errors()[0].message();
            assert!(message.contains("line 1") || message.contains("cut off"), "{raw}: {message}");
        }
    }
    // A tool without sensitive fields still says what it found.
    let validator = tool_input::Validator::new(&json!({"type": "object"})).unwrap();
    let rejection = validator.check(BROKEN[0]).unwrap_err();
    assert!(rejection.to_string().contains("hunter2"), "{rejection}");
}

#[test]
fn unparsable_calls_to_a_tool_with_sensitive_fields_quote_nothing() {
    let toolbox = Toolbox::new()
        .with_tool(|login: Login| -> Result<String, String> { Ok(format!("welcome {}", login.user)) });
    let tool_calls: Vec<_> = BROKEN
        .iter()
        .enumerate()
        .map(|(i, raw)| json!({"id": format!("call_{i}"), "type": "function", "function": {"name": "login", "arguments": raw}}))
        .collect();
    let body = json!({"choices": [{"message": {"role": "assistant", "tool_calls": tool_calls}, "finish_reason": "tool_calls"}]});
    let calls = parse_value(&body, &toolbox.call_options()).unwrap();
    let mut conversation = Conversation::new();
    let outcomes = toolbox.run_all(&mut conversation, &calls);
    assert_eq!(outcomes.len(), BROKEN.len());
    for outcome in outcomes {
        let all = format!("{}\n{}\n{:?}", outcome.text(), outcome.to_openai(), outcome);
        hidden(&all, &[SECRET, "hunter2"]);
    }
}

/// Read before any tool is known (no tools given, so no sensitive fields known): the call
/// errors' messages, Display and JSON quote nothing of the arguments, in every format; the
/// position is still said.
#[test]
fn call_errors_read_before_the_tool_is_known_quote_nothing() {
    for raw in BROKEN {
        let bodies = [
            json!({"choices": [{"message": {"role": "assistant", "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": "login", "arguments": raw}}
            ]}, "finish_reason": "tool_calls"}]}),
            json!({"output": [{"type": "function_call", "call_id": "call_1", "name": "login", "arguments": raw}]}),
        ];
        for body in bodies {
            let calls = parse_value(&body, &CallOptions::new()).unwrap();
            assert_eq!(calls.errors.len(), 1, "{raw}");
            let error = &calls.errors[0];
            let shown =
                format!("{}\n{error}\n{}", error.message, serde_json::to_value(error).unwrap()["message"]);
            hidden(&shown, &[SECRET, "hunter2"]);
            assert!(error.message.contains("line 1") || error.message.contains("cut off"), "{raw}: {shown}");
        }
        let text = format!("<tool_call>{{\"name\": \"login\", \"arguments\": {raw}}}</tool_call>");
        let calls = tool_input::calls::parse_text(&text, &CallOptions::new());
        for error in &calls.errors {
            hidden(&format!("{}\n{error}", error.message), &[SECRET, "hunter2"]);
        }
    }
}

/// Keys inside a sensitive value are its content too.
#[derive(Debug, Deserialize, JsonSchema, ToolInput)]
#[allow(dead_code)]
struct Vault {
    user: String,
    #[tool_input(sensitive)]
    env: std::collections::HashMap<String, u32>,
    #[tool_input(sensitive)]
    inner: Option<Sealed>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Sealed {
    pin: u32,
    codes: Vec<u32>,
}

#[test]
fn keys_inside_a_sensitive_value_never_show() {
    let key = "sk-live-hunter2";
    // A map's key, a value refused under it: the path masks the key, the message too.
    let raw = json!({"user": "u", "env": {key: "x"}}).to_string();
    for policy in [Policy::Strict, Policy::Default, Policy::Lenient] {
        let options = CheckOptions::new().with_policy(policy);
        let rejection = Vault::from_arguments_with(raw.as_str(), &options).unwrap_err();
        let everything =
            format!("{rejection}\n{rejection:?}\n{}", serde_json::to_string(&rejection.errors()).unwrap());
        hidden(&everything, &[key, "hunter2"]);
        assert_eq!(rejection.errors()[0].path(), "/env/*", "{policy:?}");
    }
    // An unknown key of a sensitive object: masked in the path and in the message; the
    // names the schema declares and indices stay, so the model still knows where to look.
    let raw = json!({"user": "u", "env": {}, "inner": {"pin": 1, "codes": [1, "x"], key: 2}}).to_string();
    let rejection = Vault::from_arguments(raw.as_str()).unwrap_err();
    let everything =
        format!("{rejection}\n{rejection:?}\n{}", serde_json::to_string(&rejection.errors()).unwrap());
    hidden(&everything, &[key, "hunter2"]);
    let paths: Vec<&str> = rejection.errors().iter().map(|error| error.path()).collect();
    assert_eq!(paths, ["/inner/codes/1", "/inner/*"]);
    assert!(
        rejection.errors()[1].message().contains("unknown property `*`"),
        "{}",
        rejection.errors()[1].message()
    );
    // A coercion under a map's key: its record's path masks the key.
    let raw = json!({"user": "u", "env": {key: "5"}}).to_string();
    let checked = Vault::from_arguments_with(raw.as_str(), &CheckOptions::new()).map(|_| ()).err();
    assert!(checked.is_none());
    let validator = Vault::definition().validator();
    let report = validator.check(raw.as_str()).unwrap().report;
    assert_eq!(report.coercions[0].path, "/env/*");
    hidden(&format!("{report:?}"), &[key, "hunter2"]);
    // The same validator, given the call as a value: the same masks.
    let value = json!({"user": "u", "env": {key: "x"}});
    let rejection = validator.check(&value).unwrap_err();
    assert_eq!(rejection.errors()[0].path(), "/env/*");
}
