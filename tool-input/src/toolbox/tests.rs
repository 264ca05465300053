//! The Toolbox parses a call's argument text once: the record's parse stands in for the
//! tool's own (counted by the validator's test-only counter of lenient parses), and the
//! outcome is the one reading the text again gives.

use std::sync::OnceLock;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use super::Toolbox;
use crate::calls::{CallOptions, CallParts, Format, OriginalArguments, ToolCall, TEXTS_PARSED};
use crate::stream::StreamAssembler;
use crate::tool::{ToolDefinition, ToolInput};
use crate::validator::TEXTS_READ;
use crate::{CheckOptions, Outcome, Policy};

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Priority {
    Low,
    High,
}

#[derive(Debug, Deserialize, JsonSchema)]
struct Order {
    customer_id: String,
    priority: Priority,
    tags: Vec<String>,
    quantities: Vec<u32>,
    gift: Option<bool>,
    /// Filled in when absent: recorded at the end of the object on every path.
    #[serde(default)]
    rush: bool,
}

impl ToolInput for Order {
    const NAME: &'static str = "create_order";
    const DESCRIPTION: Option<&'static str> = Some("Create an order.");

    fn definition() -> &'static ToolDefinition {
        static DEFINITION: OnceLock<ToolDefinition> = OnceLock::new();
        DEFINITION.get_or_init(crate::__private::build_definition::<Order>)
    }
}

fn toolbox() -> Toolbox {
    let schema = Order::definition().schema().clone();
    let by_schema = ToolDefinition::new("order_json", None, schema).expect("the schema compiles");
    Toolbox::new()
        .with_tool(|order: Order| {
            let Order { customer_id, priority, tags, quantities, gift, rush } = order;
            Ok::<_, String>(format!("{customer_id} {priority:?} {tags:?} {quantities:?} {gift:?} {rush}"))
        })
        .with_definition(by_schema, |value: Value| Ok::<_, String>(value))
}

/// Lenient parses of argument text the validator made on this thread so far.
fn texts_read() -> usize {
    TEXTS_READ.with(|read| read.get())
}

fn record(tool: &str, text: &str) -> ToolCall {
    CallParts {
        id: Some("call_1".to_owned()),
        name: Some(tool.to_owned()),
        arguments: OriginalArguments::Text(text.to_owned()),
        ..CallParts::new(Format::OpenAi)
    }
    .finish(&CallOptions::new())
    .expect("a call")
}

/// The call of `text` to `tool` streamed as Chat Completions deltas of 5 bytes, with the
/// texts the reader parsed again (the incremental parser read it as it arrived).
fn streamed(tool: &str, text: &str) -> (ToolCall, usize) {
    let before = TEXTS_PARSED.with(|parsed| parsed.get());
    let mut stream = StreamAssembler::new(CallOptions::new().format(Format::OpenAi));
    stream.push_event(&json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0,
        "id": "call_1", "type": "function", "function": {"name": tool, "arguments": ""}}]}}]}));
    let mut at = 0;
    while at < text.len() {
        let mut end = (at + 5).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        stream.push_event(&json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0,
            "function": {"arguments": &text[at..end]}}]}}]}));
        at = end;
    }
    stream.push_event(&json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}));
    let call = stream.finish().calls.into_iter().next().expect("the streamed call");
    (call, TEXTS_PARSED.with(|parsed| parsed.get()) - before)
}

/// Dispatch `call`, and the same call without its parse: the same outcome. Returns it, with
/// the lenient parses the dispatch with the parse made, and without.
fn dispatch_both(toolbox: &Toolbox, call: &ToolCall) -> (Outcome, usize, usize) {
    let mut again = call.clone();
    again.parsed = None;
    let before = texts_read();
    let expected = toolbox.dispatch(&again);
    let parses_again = texts_read() - before;
    let before = texts_read();
    let outcome = toolbox.dispatch(call);
    let parses = texts_read() - before;
    assert_eq!(outcome, expected, "{:?}", call.original);
    (outcome, parses, parses_again)
}

/// [`dispatch_both`], without the count of the second reading.
fn dispatch(toolbox: &Toolbox, call: &ToolCall) -> (Outcome, usize) {
    let (outcome, parses, _) = dispatch_both(toolbox, call);
    (outcome, parses)
}

/// Mangled calls whose every step the record's parse can stand in for: each is parsed once,
/// by the record, for the typed tool and for the one defined by a schema.
#[test]
fn a_dispatched_mangled_call_is_parsed_once() {
    let toolbox = toolbox();
    let texts = [
        "{'customer_id': 'C-1', 'priority': 'high', 'tags': ['a'], 'quantities': [1, 2]}",
        "```json\n{\"customer_id\": \"C-1\", \"priority\": \"low\", \"tags\": [], \"quantities\": []}\n```",
        "Sure:\n{\"customer_id\": \"C-1\", \"priority\": \"low\", \"tags\": [], \"quantities\": [],}\nDone.",
        "{customer_id: 'C-1', priority: 'HIGH', tags: [], quantities: [], gift: None}",
        "{'customer_id': 'C-1', 'priority': 'high', 'tags': [], 'quantities': ['1', '2', '3']}",
        "{'customer_id': 'C-1', 'priority': 'low', 'tags': '[\"a\"]', 'quantities': [], 'gift': True}",
        // Rejected: the walk explains, from the parse.
        "{'customer_id': 'C-1', 'priority': 'urgent', 'tags': [], 'quantities': [-1]}",
        "{'customer_id': 'C-1', 'priority': 'high', 'tags': [], 'quantities': [1.5]}",
        // Integral floats: the walk reads the literal from the text, not a parse.
        "{'customer_id': 'C-1', 'priority': 'High', 'tags': [], 'quantities': ['1', 2.0, 1e2]}",
    ];
    for text in texts {
        for tool in ["create_order", "order_json"] {
            let call = record(tool, text);
            assert!(call.parsed.is_some(), "{text}");
            let (outcome, parses, parses_again) = dispatch_both(&toolbox, &call);
            // A default filled in, with the coercions made (the one pass records it when the
            // object ends, after the members, as the tape does).
            if outcome.is_success() {
                let filled = outcome.report.coercions.iter().any(|c| c.path == "/rush");
                assert!(filled, "{text}: {:?}", outcome.report);
            }
            assert_eq!(parses, 0, "{tool}: {text}");
            // Before, the Toolbox parsed the text again (the record had parsed it once).
            assert!(parses_again >= 1, "{tool}: {text}");
            // Streamed: the incremental parser's reading is the one parse.
            let (call, reparsed) = streamed(tool, text);
            assert_eq!(reparsed, 0, "{tool}: {text}");
            let (streamed_outcome, parses) = dispatch(&toolbox, &call);
            assert_eq!(parses, 0, "{tool} streamed: {text}");
            assert_eq!(streamed_outcome, outcome, "{tool} streamed: {text}");
        }
    }
    // Strict JSON: no parse is kept; the typed tool reads exact JSON from the text in one
    // pass of serde_json, and nothing parses it leniently.
    let exact = r#"{"customer_id": "C-1", "priority": "high", "tags": [], "quantities": [4]}"#;
    let call = record("create_order", exact);
    assert!(call.parsed.is_none());
    assert_eq!(dispatch(&toolbox, &call).1, 0);
}

/// Where the parse cannot stand in, the text is read again, and the outcome is the same.
#[test]
fn the_text_is_read_again_where_the_parse_is_not_the_tools() {
    let toolbox = toolbox();
    // Coercions at members of one object, out of key order: both tools read the parse, and
    // every reading gives the records in the walk's order.
    let two = "{'customer_id': 'C-1', 'priority': 'High', 'tags': [], 'quantities': [], 'gift': 'true'}";
    let (outcome, parses) = dispatch(&toolbox, &record("create_order", two));
    assert_eq!(parses, 0);
    let paths: Vec<&str> = outcome.report.coercions.iter().map(|c| c.path.as_str()).collect();
    assert_eq!(paths.len(), 3);
    let (by_schema, parses) = dispatch(&toolbox, &record("order_json", two));
    assert_eq!(parses, 0);
    assert_eq!(by_schema.report, outcome.report);
    // A strict policy parses strictly: the record's lenient parse is not its parse.
    let strict = toolbox.with_check_options(CheckOptions::new().with_policy(Policy::Strict));
    let mangled = "{'customer_id': 'C-1', 'priority': 'high', 'tags': [], 'quantities': []}";
    for tool in ["create_order", "order_json"] {
        assert_eq!(dispatch(&strict, &record(tool, mangled)).1, 1, "{tool}");
    }
    // A record whose text was changed after it was read.
    let toolbox = self::toolbox();
    let mut changed = record("create_order", mangled);
    changed.original = OriginalArguments::Text(two.to_owned());
    let (outcome, parses) = dispatch(&toolbox, &changed);
    assert_eq!(parses, 1);
    assert_eq!(outcome, dispatch(&toolbox, &record("create_order", two)).0);
    let mut edited = record("order_json", mangled);
    edited.arguments.insert("customer_id".to_owned(), json!("C-2"));
    let (outcome, parses) = dispatch(&toolbox, &edited);
    assert_eq!(parses, 1);
    assert_eq!(outcome.result.expect("accepted")["customer_id"], "C-1");
}
