//! The Toolbox takes the call record's parse of argument text instead of parsing the text
//! again (where the tool's policy and limits parse it as the record did), and comes to
//! exactly what parsing it again gives: the same outputs, failures, messages and reports,
//! byte for byte. Each argument text is dispatched in a record read from the text (one-shot
//! and streamed: these carry their parse) and in a record of the same text sent as a JSON
//! string value (which carries none: the Toolbox reads the text again, as before).

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};
use tool_input::calls::{CallOptions, CallParts, Format, OriginalArguments, ToolCall};
use tool_input::stream::StreamAssembler;
use tool_input::{CheckOptions, Dialect, Limits, Outcome, Policy, ToolDefinition, ToolInput, Toolbox};

// The handlers show the typed values by `Debug`, so that outcomes compare them whole.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[allow(dead_code)]
enum Priority {
    Low,
    Medium,
    High,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[allow(dead_code)]
struct Item {
    #[schemars(regex(pattern = r"^[A-Z]{3}-\d{4}$"))]
    sku: String,
    #[schemars(range(min = 1, max = 1000))]
    quantity: u32,
    note: Option<String>,
}

/// Create an order.
#[derive(Debug, Deserialize, JsonSchema, ToolInput)]
#[allow(dead_code)]
struct CreateOrder {
    customer_id: String,
    priority: Priority,
    tags: Vec<String>,
    items: Vec<Item>,
    ship_by: Option<String>,
    #[serde(default)]
    gift: bool,
}

/// Create an order, from exact JSON only.
#[derive(Debug, Deserialize, JsonSchema, ToolInput)]
#[tool_input(policy = "strict")]
#[allow(dead_code)]
struct StrictOrder {
    customer_id: String,
    priority: Priority,
    tags: Vec<String>,
    items: Vec<Item>,
    ship_by: Option<String>,
    #[serde(default)]
    gift: bool,
}

/// Create an order, leniently.
#[derive(Debug, Deserialize, JsonSchema, ToolInput)]
#[tool_input(policy = "lenient")]
#[allow(dead_code)]
struct LenientOrder {
    customer_id: String,
    priority: Priority,
    tags: Vec<String>,
    items: Vec<Item>,
    ship_by: Option<String>,
    #[serde(default)]
    gift: bool,
}

/// Log in.
#[derive(Debug, Deserialize, JsonSchema, ToolInput)]
struct Login {
    user: String,
    #[tool_input(sensitive)]
    password: String,
    #[serde(default)]
    remember: bool,
}

/// Count things.
#[derive(Debug, Deserialize, JsonSchema, ToolInput)]
struct Tally {
    count: u64,
    by_kind: BTreeMap<String, i32>,
    ratio: Option<f64>,
}

/// Every kind of tool: typed under each policy, with a sensitive field, with integers and a
/// map, a tool defined by a schema, and an async one.
fn toolbox() -> Toolbox {
    let order_schema = CreateOrder::definition().schema().clone();
    let by_schema = ToolDefinition::new("order_json", Some("Create an order."), order_schema).unwrap();
    Toolbox::new()
        .with_tool(|order: CreateOrder| {
            if order.customer_id == "C-0" {
                return Err("no such customer".to_owned());
            }
            Ok(json!({"order": format!("{order:?}")}))
        })
        .with_tool(|order: StrictOrder| Ok::<_, String>(format!("{order:?}")))
        .with_async_tool(|order: LenientOrder| async move { Ok::<_, String>(format!("{order:?}")) })
        .with_tool(|login: Login| {
            Ok::<_, String>(format!("{} {} {}", login.user, login.password.len(), login.remember))
        })
        .with_tool(|tally: Tally| Ok::<_, String>(json!([tally.count, tally.by_kind, tally.ratio])))
        .with_definition(by_schema, |value: Value| Ok::<_, String>(value))
}

/// Argument texts of every shape: exact, each repair, coercions (one, several in one object,
/// several in one array, in strings holding JSON), keys given twice, integral floats, several
/// errors (in the text's order), unknown fields, sensitive values, double encoding, blank.
const ORDERS: &[&str] = &[
    r#"{"customer_id": "C-1", "priority": "high", "tags": ["a"], "items": [{"sku": "ABC-1234", "quantity": 3}], "gift": true}"#,
    r#"{"customer_id": "C-0", "priority": "low", "tags": [], "items": []}"#,
    "{'customer_id': 'C-1', 'priority': 'high', 'tags': [], 'items': [{'sku': 'ABC-1234', 'quantity': 6}], 'ship_by': None}",
    "{'customer_id': 'C-1', 'priority': 'High', 'tags': [], 'items': [{'sku': 'ABC-1234', 'quantity': 6}], 'gift': 'true', 'ship_by': None}",
    "{customer_id: \"C-1\", priority: \"LOW\", tags: \"[\\\"x\\\", \\\"y\\\"]\", items: [{sku: \"ABC-1234\", quantity: \"7\"}, {sku: \"ABC-1235\", quantity: \"8\"}], gift: false}",
    "{customer_id: \"C-1\", priority: \"medium\", tags: [\"x\"], items: \"[{\\\"sku\\\": \\\"ABC-1234\\\", \\\"quantity\\\": 2}]\"}",
    "Sure! Here are the arguments:\n```json\n{\"customer_id\": \"C-1\", \"priority\": \"high\", \"tags\": [\"a\",], \"items\": [{\"sku\": \"ABC-1234\", \"quantity\": 3,},],}\n```\nAnything else?",
    "```json\n{\"customer_id\": \"C-1\", /* who */ \"priority\": \"high\", \"tags\": [], \"items\": [{\"sku\": \"ABC-1234\", \"quantity\": 3.0}], \"gift\": True}\n```",
    "{“customer_id”: “C-1”, “priority”: “high”, “tags”: [], “items”: []}",
    r#"{"customer_id": "C-1", "priority": "high", "tags": [], "items": [{"sku": "ABC-1234", "quantity": 3}], "priority": "high"}"#,
    r#"{"customer_id": "C-1", "priority": "high", "tags": [], "items": [{"sku": "ABC-1234", "quantity": 3}], "priority": "low"}"#,
    "{'customer_id': 'C-1', 'priority': 'high', 'tags': [], 'items': [], 'priority': 'HIGH',}",
    r#"{"customer_id": "C-1", "priority": "high", "tags": [], "items": [{"sku": "ABC-1234", "quantity": 3.0}, {"sku": "ABC-1234", "quantity": 1e2}]}"#,
    "{'customer_id': 'C-1', 'priority': 'high', 'tags': [], 'items': [{'sku': 'ABC-1234', 'quantity': 0.99999999999999999}]}",
    "{'customer_id': 'C-1', 'priority': 'high', 'tags': [], 'items': [{'sku': 'ABC-1234', 'quantity': 9007199254740993.0}]}",
    "{'zeta': 1, 'priority': 'urgent', 'items': [{'sku': 'bad', 'quantity': 0}, {'quantity': '2000'}], 'gift': 'maybe', 'alpha': 2}",
    r#"{"zeta": 1, "priority": "urgent", "items": [{"sku": "bad", "quantity": 0}], "gift": "maybe", "alpha": 2}"#,
    "{customer_id: 'C-1', priority: 'high', tags: [], items: [], tagz: []}",
    r#""{\"customer_id\": \"C-1\", \"priority\": \"high\", \"tags\": [], \"items\": []}""#,
    r#""{\"customer_id\": \"C-1\", \"priority\": \"high\", \"tags\": [], \"items\": [], \"priority\": \"low\"}""#,
    r#""{'customer_id': 'C-1', 'priority': 'high', 'tags': [], 'items': [], 'priority': 'high'}""#,
    "{'customer_id': 'C-1', 'priority': 'high', 'tags': 'a', 'items': [], 'gift': 1}",
    "{'customer_id': 'C-1', 'priority': 'in progress', 'tags': [5], 'items': [], 'gift': 'yes'}",
    "",
    "{}",
    "{'customer_id': 'C-1', 'priority': 'high', 'tags': [[[[[[[[[[[['deep']]]]]]]]]]]], 'items': []}",
];

const LOGINS: &[&str] = &[
    r#"{"user": "ann", "password": "hunter22"}"#,
    "{'user': 'ann', 'password': 'hunter22', 'remember': 'true'}",
    "{'user': 'ann', 'password': 'hunter22', 'password': 'hunter23'}",
    "{'user': 'ann', 'password': 'hunter22', 'password': 'hunter22'}",
    "{'user': 7, 'password': 12345678, 'remember': 'maybe'}",
    "{user: 'ann', password: None}",
];

const TALLIES: &[&str] = &[
    r#"{"count": 3, "by_kind": {"b": 1, "a": 2}}"#,
    "{'count': '3', 'by_kind': {'b': '1', 'a': '2'}, 'ratio': '0.5'}",
    "{'count': 3.0, 'by_kind': {'zz': 1.0, 'aa': -2.0}}",
    "{'count': 18446744073709551616, 'by_kind': {}}",
    "{'count': 1e400, 'by_kind': {}}",
    "{'count': -1, 'by_kind': {'b': 'x', 'a': 'y'}, 'ratio': 'half'}",
    "{'count': 2, 'by_kind': {'b': 1, 'a': 2, 'b': 1}}",
    "{'count': 2, 'by_kind': \"{'k': '4', 'j': '5'}\"}",
];

/// The calls of `text` to `tool`: one read from the text, and one of the same text as a JSON
/// string value; `None` when the text does not become a call.
fn records(tool: &str, text: &str, options: &CallOptions) -> Option<(ToolCall, ToolCall)> {
    let parts = |arguments| CallParts {
        id: Some("call_1".to_owned()),
        name: Some(tool.to_owned()),
        arguments,
        ..CallParts::new(Format::OpenAi)
    };
    let read = parts(OriginalArguments::Text(text.to_owned())).finish(options).ok()?;
    let again = parts(OriginalArguments::Value(Value::String(text.to_owned()))).finish(options).unwrap();
    Some((read, again))
}

/// The call of `text` to `tool` as a Chat Completions stream, in chunks of `chunk` bytes.
fn streamed(tool: &str, text: &str, chunk: usize, options: &CallOptions) -> Option<ToolCall> {
    let mut stream = StreamAssembler::new(options.clone().format(Format::OpenAi));
    stream.push_event(&json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "call_1",
        "type": "function", "function": {"name": tool, "arguments": ""}}]}}]}));
    let mut at = 0;
    while at < text.len() {
        let mut end = (at + chunk).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        stream.push_event(&json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0,
            "function": {"arguments": &text[at..end]}}]}}]}));
        at = end;
    }
    stream.push_event(&json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}));
    stream.finish().calls.into_iter().next()
}

fn dispatch(toolbox: &Toolbox, call: &ToolCall) -> Outcome {
    futures_executor::block_on(toolbox.dispatch_async(call))
}

/// Every text to every tool it is meant for, through `toolbox`: the record's parse and the
/// second reading come to the same outcome. Returns how many calls were compared.
fn agree(toolbox: &Toolbox, options: &CallOptions) -> usize {
    let sets: [(&[&str], &[&str]); 3] = [
        (ORDERS, &["create_order", "strict_order", "lenient_order", "order_json"]),
        (LOGINS, &["login"]),
        (TALLIES, &["tally"]),
    ];
    let mut compared = 0;
    for (texts, tools) in sets {
        for text in texts {
            for tool in tools {
                let Some((read, again)) = records(tool, text, options) else { continue };
                assert_eq!(
                    (&read.arguments, &read.repairs),
                    (&again.arguments, &again.repairs),
                    "{tool}: {text}"
                );
                let expected = dispatch(toolbox, &again);
                let outcome = dispatch(toolbox, &read);
                assert_eq!(outcome, expected, "{tool}: {text}");
                assert_eq!(outcome.to_openai(), expected.to_openai(), "{tool}: {text}");
                assert_eq!(toolbox.dispatch(&read), toolbox.dispatch(&again), "{tool}: {text}");
                for chunk in [1, 7, 4096] {
                    let call = streamed(tool, text, chunk, options).expect("the streamed call");
                    assert_eq!(dispatch(toolbox, &call), expected, "{tool} in chunks of {chunk}: {text}");
                }
                compared += 1;
            }
        }
    }
    compared
}

#[test]
fn the_records_parse_gives_what_reading_the_text_again_gives() {
    let toolbox = toolbox();
    let compared = agree(&toolbox, &toolbox.call_options());
    assert!(compared > 100, "{compared}");
}

#[test]
fn per_call_options_and_dialects_give_what_reading_the_text_again_gives() {
    let strict = toolbox().with_check_options(CheckOptions::new().with_policy(Policy::Strict));
    let lenient = toolbox().with_check_options(CheckOptions::new().with_policy(Policy::Lenient));
    // A depth limit other than the record's: the text is read again under the tool's.
    let shallow =
        toolbox().with_check_options(CheckOptions::new().with_limits(Limits::default().with_max_depth(6)));
    let tight =
        toolbox().with_check_options(CheckOptions::new().with_limits(Limits::default().with_max_bytes(120)));
    let few_errors =
        toolbox().with_check_options(CheckOptions::new().with_limits(Limits::default().with_max_errors(2)));
    for toolbox in [strict, lenient, shallow, tight, few_errors] {
        assert!(agree(&toolbox, &toolbox.call_options()) > 100);
    }
    // Dialects: the strict ones change arguments (read back from the text), the others not.
    for dialect in [Dialect::OpenAiStrict, Dialect::Gemini, Dialect::Anthropic, Dialect::OpenAi] {
        let toolbox = toolbox().with_dialect(dialect);
        assert!(agree(&toolbox, &toolbox.call_options()) > 100, "{dialect}");
    }
}

#[test]
fn records_read_under_other_limits_give_what_reading_the_text_again_gives() {
    let toolbox = toolbox();
    for limits in [Limits::default().with_max_depth(6), Limits::default().with_max_depth(300)] {
        let options = toolbox.call_options().limits(limits);
        agree(&toolbox, &options);
    }
}

#[test]
fn a_record_changed_after_it_was_read_is_read_again() {
    let toolbox = toolbox();
    let options = toolbox.call_options();
    let text = "{'customer_id': 'C-1', 'priority': 'LOW', 'tags': [], 'items': []}";
    let (read, _) = records("create_order", text, &options).unwrap();
    // Another text in the same record: the Toolbox reads the text it holds.
    let other = "{'customer_id': 'C-1', 'priority': 'high', 'tags': [], 'items': [{'sku': 'ABC-1234', 'quantity': 2}]}";
    let mut changed = read.clone();
    changed.original = OriginalArguments::Text(other.to_owned());
    let (expected, _) = records("create_order", other, &options).unwrap();
    assert_eq!(dispatch(&toolbox, &changed), dispatch(&toolbox, &expected));
    // The parsed arguments edited (for display, say): the text still decides.
    let mut edited = read.clone();
    edited.arguments.insert("priority".to_owned(), json!("medium"));
    edited.repairs.clear();
    assert_eq!(dispatch(&toolbox, &edited), dispatch(&toolbox, &read));
    let outcome = dispatch(&toolbox, &edited);
    let order = outcome.result.as_ref().unwrap()["order"].as_str().unwrap().to_owned();
    assert!(order.contains("priority: Low"), "{order}");
}

/// A key given twice inside a payload sent as a JSON string is a choice made twice, in a
/// streamed call as in one read whole: the tool is not run, and the model is told both values.
#[test]
fn a_key_given_twice_inside_a_double_encoded_payload_is_refused_in_a_stream() {
    let toolbox = toolbox();
    let text = serde_json::to_string(
        r#"{"customer_id": "C-1", "priority": "high", "tags": [], "items": [], "priority": "low"}"#,
    )
    .unwrap();
    for chunk in [1, 7, 4096] {
        let call =
            streamed("create_order", &text, chunk, &toolbox.call_options()).expect("the streamed call");
        let outcome = dispatch(&toolbox, &call);
        assert!(!outcome.is_success(), "{}", outcome.text());
        assert!(outcome.text().contains("`priority` is given twice"), "{}", outcome.text());
    }
}
