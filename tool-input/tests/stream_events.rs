//! The incremental reading of streamed arguments: the partial value of each open call, and
//! the events of its arguments, agree with the calls the stream finally gives — on the
//! recorded provider streams, also re-split at random, and on the quirks that replace or
//! repeat the arguments.

#[path = "../../suite/tests/common/mod.rs"]
mod common;

use std::borrow::Cow;
use std::collections::HashMap;

use serde_json::{json, Value};
use tool_input::calls::{CallOptions, Calls, Format};
use tool_input::parse::StreamEvent;
use tool_input::stream::{ArgumentEvent, StreamAssembler};

const FILES: &[&str] = &["vercel-ai.json", "openai-python.json", "anthropic-sdk-python.json", "litellm.json"];

fn cases(file: &str) -> Vec<Value> {
    let path = common::corpus_dir().join("provider-responses").join(file);
    let text =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

/// Whether `partial` is a prefix of `full` (see `IncrementalParser::partial`).
fn is_prefix(partial: &Value, full: &Value) -> bool {
    match (partial, full) {
        (Value::String(a), Value::String(b)) => b.starts_with(a.as_str()),
        (Value::Array(a), Value::Array(b)) => {
            a.len() <= b.len()
                && a.iter()
                    .zip(b)
                    .enumerate()
                    .all(|(k, (x, y))| if k + 1 == a.len() { is_prefix(x, y) } else { x == y })
        }
        (Value::Object(a), Value::Object(b)) => {
            a.iter().all(|(k, v)| b.get(k).is_some_and(|w| is_prefix(v, w)))
        }
        (Value::Null, _) => true,
        _ => partial == full,
    }
}

/// Feed `chunks` to an assembler collecting events; returns the calls, the events, and
/// every partial value of every open call on the way (by position).
fn replay(chunks: &[Value]) -> (Calls, Vec<ArgumentEvent>, Vec<(usize, Value)>) {
    let mut stream = StreamAssembler::new(CallOptions::new()).with_events();
    let mut events = Vec::new();
    let mut partials = Vec::new();
    for chunk in chunks {
        stream.push_event(chunk);
        events.extend(stream.take_events());
        for open in stream.open_calls() {
            if let Some(partial) = open.arguments_partial {
                partials.push((open.position, partial.clone()));
            }
        }
    }
    (stream.finish(), events, partials)
}

/// Check the events and partial values of one stream against its calls. Returns how many
/// events were checked.
fn check(label: &str, calls: &Calls, events: &[ArgumentEvent], partials: &[(usize, Value)]) -> usize {
    // The calls by id; the events by position, after the last restart of each.
    let by_id: HashMap<&str, Value> =
        calls.calls.iter().map(|call| (call.id.as_str(), Value::Object(call.arguments.clone()))).collect();
    let mut by_position: HashMap<usize, Vec<&ArgumentEvent>> = HashMap::new();
    for event in events {
        let list = by_position.entry(event.position).or_default();
        if event.event == StreamEvent::Restart {
            list.clear();
        } else {
            list.push(event);
        }
    }
    let mut checked = 0;
    let mut final_of: HashMap<usize, &Value> = HashMap::new();
    for (position, list) in &by_position {
        // The call, by the id its events knew last (a call unwrapped from a wrapper, or
        // without an id, is not compared).
        let Some(id) = list.iter().rev().find_map(|event| event.id.as_deref()) else { continue };
        let Some(arguments) = by_id.get(id) else { continue };
        final_of.insert(*position, arguments);
        let mut grown: HashMap<&str, String> = HashMap::new();
        for event in list {
            match &event.event {
                StreamEvent::ValueComplete { path, value } => {
                    assert_eq!(arguments.pointer(path), Some(&**value), "{label}: {id} at {path}");
                    checked += 1;
                }
                StreamEvent::StringGrew { path, appended } => {
                    grown.entry(path).or_default().push_str(appended);
                }
                _ => {}
            }
        }
        for (path, text) in grown {
            if path.is_empty() {
                continue; // a double-encoded argument string, decoded when the call ends
            }
            assert_eq!(
                arguments.pointer(path).and_then(Value::as_str),
                Some(text.as_str()),
                "{label}: {id} {path}"
            );
            checked += 1;
        }
    }
    for (position, partial) in partials {
        if let (Some(arguments), true) = (final_of.get(position), partial.is_object()) {
            assert!(is_prefix(partial, arguments), "{label}: partial {partial} of {arguments}");
        }
    }
    checked
}

/// Split every argument fragment of an Anthropic or Chat Completions stream in two, at a
/// character boundary chosen by `seed`.
fn resplit(chunks: &[Value], seed: usize) -> Vec<Value> {
    let mut out = Vec::new();
    for chunk in chunks {
        let fragment = chunk
            .pointer("/delta/partial_json")
            .or_else(|| chunk.pointer("/choices/0/delta/tool_calls/0/function/arguments"))
            .and_then(Value::as_str)
            .filter(|fragment| fragment.chars().count() > 1);
        let Some(fragment) = fragment else {
            out.push(chunk.clone());
            continue;
        };
        let boundaries: Vec<usize> = fragment.char_indices().map(|(k, _)| k).skip(1).collect();
        let cut = boundaries[seed % boundaries.len()];
        for (k, piece) in [&fragment[..cut], &fragment[cut..]].into_iter().enumerate() {
            let mut copy = chunk.clone();
            let at = if copy.pointer("/delta/partial_json").is_some() {
                "/delta/partial_json"
            } else {
                "/choices/0/delta/tool_calls/0/function/arguments"
            };
            if let Some(slot) = copy.pointer_mut(at) {
                *slot = Value::String(piece.to_owned());
            }
            if k == 1 {
                // The second piece carries only the arguments (no repeated id or name).
                if let Some(call) =
                    copy.pointer_mut("/choices/0/delta/tool_calls/0").and_then(Value::as_object_mut)
                {
                    call.remove("id");
                    call.remove("type");
                    if let Some(function) = call.get_mut("function").and_then(Value::as_object_mut) {
                        function.remove("name");
                    }
                }
            } else if let Some(choice) = copy.pointer_mut("/choices/0").and_then(Value::as_object_mut) {
                if choice.get("finish_reason").is_some_and(|reason| !reason.is_null()) {
                    choice.insert("finish_reason".to_owned(), Value::Null);
                }
            }
            out.push(copy);
        }
    }
    out
}

#[test]
fn recorded_streams_report_events_that_agree_with_their_calls() {
    let (mut streams, mut checked) = (0, 0);
    for file in FILES {
        for (i, case) in cases(file).iter().enumerate() {
            let Some(chunks) = case.get("chunks").and_then(Value::as_array) else { continue };
            if case["streaming"] != true || case.get("expected_calls").is_none() {
                continue;
            }
            let (calls, events, partials) = replay(chunks);
            checked += check(&format!("{file}[{i}]"), &calls, &events, &partials);
            for seed in [1, 7, 30] {
                let resplit = resplit(chunks, seed + i);
                let (again, events, partials) = replay(&resplit);
                assert_eq!(again.calls.len(), calls.calls.len(), "{file}[{i}] resplit {seed}");
                checked += check(&format!("{file}[{i}] resplit {seed}"), &again, &events, &partials);
            }
            streams += 1;
        }
    }
    println!("{streams} streams, {checked} events checked");
    assert!(streams >= 40, "only {streams} recorded streams");
    assert!(checked >= 200, "only {checked} events checked");
}

/// One Chat Completions chunk with an argument fragment.
fn fragment(text: &str) -> Value {
    json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": text}}]}}]})
}

#[test]
fn a_long_argument_can_be_used_before_it_ends() {
    let mut stream = StreamAssembler::new(CallOptions::new()).with_events();
    stream.push_event(&json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "call_1",
        "type": "function", "function": {"name": "write_file", "arguments": ""}}]}}]}));
    let mut written = String::new();
    let mut partial_contents = Vec::new();
    for piece in [r#"{"path": "notes.md", "#, r##""content": "# Notes\n\n- o"##, r#"ne\n- tw"#, r#"o\n"}"#] {
        stream.push_event(&fragment(piece));
        for event in stream.take_events() {
            assert_eq!(event.name.as_deref(), Some("write_file"));
            assert_eq!(event.id.as_deref(), Some("call_1"));
            if let StreamEvent::StringGrew { path, appended } = &event.event {
                assert_eq!(path, "/content");
                written.push_str(appended);
            }
        }
        let open = stream.open_calls();
        assert_eq!(open.len(), 1, "the call is not final before the stream says so");
        partial_contents.push(open[0].arguments_partial.and_then(|p| p.get("content")).cloned());
    }
    assert_eq!(written, "# Notes\n\n- one\n- two\n");
    assert_eq!(
        partial_contents,
        [
            None,
            Some(json!("# Notes\n\n- o")),
            Some(json!("# Notes\n\n- one\n- tw")),
            Some(json!("# Notes\n\n- one\n- two\n"))
        ]
    );
    stream.push_event(&json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}));
    let calls = stream.finish();
    assert_eq!(calls.calls[0].arguments["content"], "# Notes\n\n- one\n- two\n");
}

#[test]
fn arguments_that_arrive_whole_report_the_events_of_the_same_text() {
    // Gemini's `args`, Ollama's objects, and the objects some compatible backends send for
    // a Chat Completions or Responses call: their events are those of the same arguments
    // arriving as text in one fragment, so a tool that writes `content` from them gets it.
    let arguments = json!({"path": "a.md", "content": "# Title\nBody", "tags": ["x", "y"], "n": 2});
    let events_of = |chunks: &[Value]| -> Vec<StreamEvent<'static>> {
        let mut stream = StreamAssembler::new(CallOptions::new()).with_events();
        for chunk in chunks {
            stream.push_event(chunk);
        }
        let events = stream.take_events().into_iter().map(|event| event.event).collect();
        assert_eq!(stream.finish().calls.len(), 1);
        events
    };
    let chat = |arguments: Value| {
        json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "call_1", "type": "function",
            "function": {"name": "write_file", "arguments": arguments}}]}, "finish_reason": "tool_calls"}]})
    };
    let as_text = events_of(&[chat(Value::String(arguments.to_string()))]);
    // A string whole in one fragment is complete at once (no growth to report).
    let content =
        StreamEvent::ValueComplete { path: "/content".into(), value: Cow::Owned(json!("# Title\nBody")) };
    assert!(as_text.contains(&content), "{as_text:?}");
    let item = |arguments: Value| json!({"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "write_file", "arguments": arguments});
    let whole = [
        vec![chat(arguments.clone())],
        vec![
            json!({"candidates": [{"content": {"parts": [{"functionCall": {"name": "write_file", "args": arguments}}]},
            "finishReason": "STOP"}]}),
        ],
        vec![json!({"message": {"role": "assistant", "content": "", "tool_calls": [
            {"function": {"name": "write_file", "arguments": arguments}}]}, "done": true, "done_reason": "stop"})],
        vec![
            json!({"type": "response.output_item.added", "output_index": 0, "item": item(json!(""))}),
            json!({"type": "response.output_item.done", "output_index": 0, "item": item(arguments.clone())}),
            json!({"type": "response.completed", "response": {"status": "completed"}}),
        ],
    ];
    for chunks in whole {
        assert_eq!(events_of(&chunks), as_text, "{chunks:?}");
    }
}

#[test]
fn a_cut_off_call_is_still_an_error_whatever_its_events() {
    let mut stream = StreamAssembler::new(CallOptions::new()).with_events();
    stream.push_event(&json!({"type": "content_block_start", "index": 0,
        "content_block": {"type": "tool_use", "id": "toolu_1", "name": "write_file", "input": {}}}));
    stream.push_event(&json!({"type": "content_block_delta", "index": 0,
        "delta": {"type": "input_json_delta", "partial_json": r#"{"path": "a.txt", "content": "Fil"#}}));
    let events = stream.take_events();
    assert_eq!(events.len(), 2, "{events:?}");
    assert_eq!(stream.open_calls()[0].arguments_partial, Some(&json!({"path": "a.txt", "content": "Fil"})));
    stream.push_event(&json!({"type": "message_delta", "delta": {"stop_reason": "max_tokens"}}));
    stream.push_event(&json!({"type": "message_stop"}));
    let calls = stream.finish();
    assert!(calls.calls.is_empty());
    assert_eq!(calls.errors[0].kind.code(), "truncated");
}

#[test]
fn a_closing_event_that_repeats_the_fragments_reports_nothing_again() {
    let mut stream = StreamAssembler::new(CallOptions::new().format(Format::Responses)).with_events();
    stream.push_event(&json!({"type": "response.output_item.added", "output_index": 0,
        "item": {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "f", "arguments": ""}}));
    for delta in [r#"{"a": [1, "#, r#"2], "b": "x"}"#] {
        stream.push_event(&json!({"type": "response.function_call_arguments.delta", "output_index": 0,
            "item_id": "fc_1", "delta": delta}));
    }
    let first: Vec<String> =
        stream.take_events().iter().filter_map(|e| e.event.path().map(str::to_owned)).collect();
    assert_eq!(first, ["/a/0", "/a/1", "/a", "/b"]);
    stream.push_event(&json!({"type": "response.function_call_arguments.done", "output_index": 0,
        "item_id": "fc_1", "arguments": r#"{"a": [1, 2], "b": "x"}"#}));
    assert!(stream.take_events().is_empty());
    // The response ends (a stream without its end would run nothing).
    stream.push_event(&json!({"type": "response.completed", "response": {"status": "completed"}}));
    assert_eq!(stream.finish().calls[0].arguments["b"], "x");
}

#[test]
fn a_closing_event_with_other_arguments_restarts() {
    let mut stream = StreamAssembler::new(CallOptions::new().format(Format::Responses)).with_events();
    stream.push_event(&json!({"type": "response.output_item.added", "output_index": 0,
        "item": {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "f", "arguments": ""}}));
    stream.push_event(&json!({"type": "response.function_call_arguments.delta", "output_index": 0,
        "item_id": "fc_1", "delta": r#"{'a': 2}"#}));
    // The same value in other text (a closing event that says something else makes the call
    // an error: `hostile_calls.rs`).
    stream.push_event(&json!({"type": "response.function_call_arguments.done", "output_index": 0,
        "item_id": "fc_1", "arguments": r#"{"a": 2}"#}));
    let events: Vec<StreamEvent<'static>> = stream.take_events().into_iter().map(|e| e.event).collect();
    assert_eq!(events.len(), 3, "{events:?}");
    assert_eq!(events[1], StreamEvent::Restart);
    assert!(
        matches!(&events[2], StreamEvent::ValueComplete { path, value } if path == "/a" && **value == json!(2))
    );
    // The response ends (a stream without its end would run nothing).
    stream.push_event(&json!({"type": "response.completed", "response": {"status": "completed"}}));
    assert_eq!(stream.finish().calls[0].arguments["a"], 2);
}

#[test]
fn events_are_collected_only_when_asked_for() {
    let mut stream = StreamAssembler::new(CallOptions::new());
    stream.push_event(&json!({"type": "content_block_start", "index": 0,
        "content_block": {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}}));
    stream.push_event(&json!({"type": "content_block_delta", "index": 0,
        "delta": {"type": "input_json_delta", "partial_json": r#"{"a": 1, "b": "#}}));
    assert!(stream.take_events().is_empty());
    // The partial value is there either way.
    assert_eq!(stream.open_calls()[0].arguments_partial, Some(&json!({"a": 1})));
    assert_eq!(stream.open_calls()[0].arguments_text, Some(r#"{"a": 1, "b": "#));
}
