//! Streamed tool calls, quirk by quirk: every backend's way of sending ids, indexes, names
//! and argument fragments; when a call is final; truncation; SSE framing; limits; and
//! hostile event sequences that must never panic.

use proptest::prelude::*;
use serde_json::{json, Value};
use tool_input::calls::{parse_value, CallOptions, Calls, Format, OriginalArguments};
use tool_input::stream::StreamAssembler;

fn feed(options: CallOptions, events: &[Value]) -> Calls {
    let mut stream = StreamAssembler::new(options);
    for event in events {
        stream.push_event(event);
    }
    stream.finish()
}

fn auto(events: &[Value]) -> Calls {
    feed(CallOptions::new(), events)
}

fn summary(calls: &Calls) -> Vec<(String, Value)> {
    calls.calls.iter().map(|c| (c.name.clone(), Value::Object(c.arguments.clone()))).collect()
}

fn ids(calls: &Calls) -> Vec<&str> {
    calls.calls.iter().map(|c| c.id.as_str()).collect()
}

fn error_kinds(calls: &Calls) -> Vec<&'static str> {
    calls.errors.iter().map(|e| e.kind.code()).collect()
}

/// A Chat Completions chunk with these `tool_calls` deltas.
fn chat(tool_calls: Value) -> Value {
    json!({"object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {"tool_calls": tool_calls}, "finish_reason": null}]})
}

fn chat_finish(reason: &str) -> Value {
    json!({"choices": [{"index": 0, "delta": {}, "finish_reason": reason}]})
}

// ---------------------------------------------------------------------------------------
// OpenAI Chat Completions

#[test]
fn chat_id_on_the_first_chunk_later_or_on_every_chunk() {
    // First chunk only (OpenAI).
    let first = auto(&[
        chat(
            json!([{"index": 0, "id": "call_1", "type": "function", "function": {"name": "f", "arguments": ""}}]),
        ),
        chat(json!([{"index": 0, "function": {"arguments": "{\"a\":"}}])),
        chat(json!([{"index": 0, "function": {"arguments": " 1}"}}])),
        chat_finish("tool_calls"),
    ]);
    assert_eq!(ids(&first), ["call_1"]);
    assert_eq!(summary(&first), [("f".to_owned(), json!({"a": 1}))]);

    // The id arrives on a later chunk.
    let later = auto(&[
        chat(json!([{"index": 0, "function": {"name": "f", "arguments": "{\"a\":"}}])),
        chat(json!([{"index": 0, "id": "call_late", "function": {"arguments": " 1}"}}])),
        chat_finish("tool_calls"),
    ]);
    assert_eq!(ids(&later), ["call_late"]);
    assert_eq!(summary(&later), [("f".to_owned(), json!({"a": 1}))]);

    // Repeated on every chunk, with and without an index; empty ids on later chunks (Qwen).
    for index in [Some(0), None] {
        let delta = |id: &str, function: Value| {
            let mut entry = json!({"id": id, "function": function});
            if let Some(index) = index {
                entry["index"] = json!(index);
            }
            chat(json!([entry]))
        };
        let calls = auto(&[
            delta("call_r", json!({"name": "f", "arguments": "{\"a\""})),
            delta("call_r", json!({"arguments": ": 1"})),
            delta("", json!({"arguments": "}"})),
            chat_finish("tool_calls"),
        ]);
        assert_eq!(ids(&calls), ["call_r"], "index {index:?}");
        assert_eq!(summary(&calls), [("f".to_owned(), json!({"a": 1}))], "index {index:?}");
    }
}

#[test]
fn chat_without_any_index() {
    // Mistral: no index, the id on the first delta only, two calls one after the other.
    let calls = auto(&[
        chat(json!([{"id": "aaaaaaaaa", "function": {"name": "f", "arguments": "{\"x\": "}}])),
        chat(json!([{"function": {"name": "", "arguments": "1}"}}])),
        chat(json!([{"id": "bbbbbbbbb", "function": {"name": "g", "arguments": "{\"y\": 2}"}}])),
        chat_finish("tool_calls"),
    ]);
    assert_eq!(ids(&calls), ["aaaaaaaaa", "bbbbbbbbb"]);
    assert_eq!(summary(&calls), [("f".to_owned(), json!({"x": 1})), ("g".to_owned(), json!({"y": 2}))]);

    // No index and no id at all: a name after the latest call's arguments starts a new call.
    let calls = auto(&[
        chat(json!([{"function": {"name": "f", "arguments": "{\"x\": 1}"}}])),
        chat(json!([{"function": {"name": "g", "arguments": "{}"}}])),
        chat_finish("stop"),
    ]);
    assert_eq!(summary(&calls), [("f".to_owned(), json!({"x": 1})), ("g".to_owned(), json!({}))]);
    assert!(calls.calls.iter().all(|c| c.id_generated));
    assert_ne!(calls.calls[0].id, calls.calls[1].id);
}

#[test]
fn chat_index_starting_at_one_and_reused_indexes() {
    let calls = auto(&[
        chat(json!([{"index": 1, "id": "toolu_1", "function": {"name": "read_file", "arguments": ""}}])),
        chat(json!([{"index": 1, "function": {"arguments": "{\"pa"}}])),
        chat(json!([{"index": 1, "function": {"arguments": "th\": \"a.txt\"}"}}])),
        chat_finish("tool_calls"),
    ]);
    assert_eq!(summary(&calls), [("read_file".to_owned(), json!({"path": "a.txt"}))]);
    assert_eq!(calls.calls[0].index, 0);

    // A backend that numbers every call 0, with distinct ids: two calls.
    let calls = auto(&[
        chat(json!([{"index": 0, "id": "call_a", "function": {"name": "f", "arguments": "{}"}}])),
        chat(json!([{"index": 0, "id": "call_b", "function": {"name": "g", "arguments": "{}"}}])),
        chat_finish("tool_calls"),
    ]);
    assert_eq!(ids(&calls), ["call_a", "call_b"]);
}

#[test]
fn chat_names_in_fragments_or_repeated() {
    let calls = auto(&[
        chat(json!([{"index": 0, "id": "c", "function": {"name": "get_", "arguments": ""}}])),
        chat(json!([{"index": 0, "function": {"name": "weather"}}])),
        chat(json!([{"index": 0, "function": {"name": "get_weather", "arguments": "{\"city\": \"Oslo\"}"}}])),
        chat(json!([{"index": 0, "function": {"name": "get_weather", "arguments": ""}}])),
        chat_finish("tool_calls"),
    ]);
    assert_eq!(summary(&calls), [("get_weather".to_owned(), json!({"city": "Oslo"}))]);
}

#[test]
fn chat_calls_interleaved() {
    let calls = auto(&[
        chat(json!([
            {"index": 0, "id": "call_0", "function": {"name": "f", "arguments": "{\"n\": "}},
            {"index": 1, "id": "call_1", "function": {"name": "g", "arguments": "{\"m\": "}}
        ])),
        chat(json!([{"index": 1, "function": {"arguments": "\"é\\u00e9"}}])),
        chat(json!([{"index": 0, "function": {"arguments": "10"}}])),
        chat(
            json!([{"index": 1, "function": {"arguments": "\"}"}}, {"index": 0, "function": {"arguments": "}"}}]),
        ),
        chat_finish("tool_calls"),
    ]);
    assert_eq!(ids(&calls), ["call_0", "call_1"]);
    assert_eq!(summary(&calls), [("f".to_owned(), json!({"n": 10})), ("g".to_owned(), json!({"m": "éé"}))]);
}

#[test]
fn chat_legacy_function_call_and_object_arguments() {
    let calls = auto(&[
        json!({"choices": [{"index": 0, "delta": {"function_call": {"name": "f", "arguments": "{\"a\""}}}]}),
        json!({"choices": [{"index": 0, "delta": {"function_call": {"arguments": ": true}"}}}]}),
        chat_finish("function_call"),
    ]);
    assert_eq!(summary(&calls), [("f".to_owned(), json!({"a": true}))]);
    assert!(calls.calls[0].id_generated);

    let calls = auto(&[
        chat(json!([{"index": 0, "id": "c", "function": {"name": "f", "arguments": {"a": 1}}}])),
        chat_finish("tool_calls"),
    ]);
    assert_eq!(summary(&calls), [("f".to_owned(), json!({"a": 1}))]);
}

#[test]
fn chat_custom_tool_calls_are_not_read_as_in_the_body() {
    // OpenAI's free-form `custom` tools: the body skips them, and so does the stream, their
    // later deltas (which carry no `type`) included: never a nameless call to answer.
    // The first delta of a custom call names it, with its id and type; the rest carry input.
    let custom = |index: u64, piece: Value| {
        let first = piece.get("name").is_some();
        let mut entry = json!({"index": index, "custom": piece});
        if first {
            entry["id"] = json!("call_c");
            entry["type"] = json!("custom");
        }
        chat(json!([entry]))
    };
    let events = [
        custom(0, json!({"name": "code_exec", "input": "pri"})),
        custom(0, json!({"input": "nt(1)"})),
        chat(
            json!([{"index": 1, "id": "call_f", "type": "function", "function": {"name": "f", "arguments": "{\"a\":"}}]),
        ),
        chat(json!([{"index": 1, "function": {"arguments": " 1}"}}])),
        chat_finish("tool_calls"),
    ];
    let body = json!({"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant",
        "tool_calls": [
            {"id": "call_c", "type": "custom", "custom": {"name": "code_exec", "input": "print(1)"}},
            {"id": "call_f", "type": "function", "function": {"name": "f", "arguments": "{\"a\": 1}"}}]}}]});
    let whole = parse_value(&body, &CallOptions::new()).expect("a Chat Completions body");
    let streamed = auto(&events);
    for calls in [&whole, &streamed] {
        assert_eq!(ids(calls), ["call_f"]);
        assert_eq!(summary(calls), [("f".to_owned(), json!({"a": 1}))]);
        assert!(calls.errors.is_empty(), "{:?}", calls.errors);
    }
    // A function call at the index a custom call had is read, its later deltas too.
    let calls = auto(&[
        custom(0, json!({"name": "code_exec", "input": "x"})),
        chat(
            json!([{"index": 0, "id": "call_g", "type": "function", "function": {"name": "g", "arguments": "{\"b\""}}]),
        ),
        chat(json!([{"index": 0, "function": {"arguments": ": 2}"}}])),
        chat_finish("tool_calls"),
    ]);
    assert_eq!(summary(&calls), [("g".to_owned(), json!({"b": 2}))]);
    assert!(calls.errors.is_empty(), "{:?}", calls.errors);
}

#[test]
fn chat_only_the_chosen_choice_is_read() {
    let two = |index: u64, arguments: &str| {
        json!({"choices": [{"index": index, "delta": {"tool_calls": [
            {"index": 0, "id": format!("call_{index}"), "function": {"name": "f", "arguments": arguments}}]}}]})
    };
    let events = [two(1, "{\"choice\": 1}"), two(0, "{\"choice\": 0}"), chat_finish("tool_calls")];
    assert_eq!(summary(&auto(&events)), [("f".to_owned(), json!({"choice": 0}))]);
}

#[test]
fn chat_length_cuts_off_the_call_still_streaming() {
    let events = [
        chat(json!([{"index": 0, "id": "call_0", "function": {"name": "first", "arguments": "{\"a\": 1}"}}])),
        chat(
            json!([{"index": 1, "id": "call_1", "function": {"name": "write_file", "arguments": "{\"text\": \"Once upon"}}]),
        ),
        chat_finish("length"),
    ];
    // The response was cut: the call that had completed does not run by default, and keeps
    // its arguments on the record.
    let calls = auto(&events);
    assert!(calls.calls.is_empty());
    assert_eq!(error_kinds(&calls), ["incomplete", "truncated"]);
    assert_eq!(calls.errors[0].id, "call_0");
    assert_eq!(calls.errors[0].original, OriginalArguments::Text("{\"a\": 1}".to_owned()));
    assert!(calls.errors[0].message.contains("finish_reason `length`"), "{}", calls.errors[0].message);
    // Asked for, it runs; the cut call never does.
    let calls = feed(CallOptions::new().run_completed_calls(true), &events);
    assert_eq!(summary(&calls), [("first".to_owned(), json!({"a": 1}))]);
    assert_eq!(error_kinds(&calls), ["truncated"]);
    let error = &calls.errors[0];
    assert_eq!(error.id, "call_1");
    assert_eq!(error.name.as_deref(), Some("write_file"));
    assert_eq!(error.index, 1);
    assert!(error.message.contains("19 bytes") && error.message.contains("length"), "{}", error.message);

    // Even complete-looking JSON is not final when the stream stopped for length; the
    // message says what is known: the call was still open, its arguments may be cut.
    let calls = auto(&[
        chat(json!([{"index": 0, "id": "call_0", "function": {"name": "f", "arguments": "{\"a\": 1}"}}])),
        chat_finish("length"),
    ]);
    assert!(calls.calls.is_empty());
    assert_eq!(error_kinds(&calls), ["truncated"]);
    let message = &calls.errors[0].message;
    assert!(message.contains("with the call still open: its arguments may be cut short"), "{message}");
    assert!(!message.contains("before the call was complete"), "{message}");
}

#[test]
fn chat_stream_without_its_end_is_cut_off_and_done_ends_it() {
    let events =
        [chat(json!([{"index": 0, "id": "c", "function": {"name": "f", "arguments": "{\"a\": 1}"}}]))];
    let cut = auto(&events);
    assert!(cut.calls.is_empty());
    assert_eq!(error_kinds(&cut), ["truncated"]);
    assert!(cut.errors[0].message.contains("[DONE]"));

    let mut stream = StreamAssembler::new(CallOptions::new());
    stream.push_event(&events[0]);
    stream.push_done();
    assert_eq!(summary(&stream.finish()), [("f".to_owned(), json!({"a": 1}))]);

    // An error chunk mid-stream.
    let calls =
        auto(&[events[0].clone(), json!({"error": {"message": "overloaded", "type": "server_error"}})]);
    assert_eq!(error_kinds(&calls), ["truncated"]);
}

#[test]
fn streamed_records_equal_the_whole_body_records() {
    let arguments = "{'city': 'Paris', 'days': '3',}";
    let body = json!({"choices": [{"message": {"role": "assistant", "content": null, "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": arguments}}]}}]});
    let options = CallOptions::new().tools(["get_weather"]);
    let whole = parse_value(&body, &options).unwrap();
    let mut events = vec![chat(
        json!([{"index": 0, "id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": ""}}]),
    )];
    for piece in arguments.as_bytes().chunks(3) {
        let piece = std::str::from_utf8(piece).unwrap();
        events.push(chat(json!([{"index": 0, "function": {"arguments": piece}}])));
    }
    events.push(chat_finish("tool_calls"));
    let streamed = feed(options, &events);
    let (a, b) = (&whole.calls[0], &streamed.calls[0]);
    assert_eq!((&a.id, &a.name, &a.name_sent, &a.arguments), (&b.id, &b.name, &b.name_sent, &b.arguments));
    assert_eq!((&a.repairs, &a.original, a.format, a.index), (&b.repairs, &b.original, b.format, b.index));
    assert_eq!(a.raw, b.raw);
}

#[test]
fn names_are_resolved_and_the_parallel_wrapper_unwrapped() {
    let calls = feed(
        CallOptions::new().tools(["get_weather"]),
        &[
            chat(json!([{"index": 0, "id": "c", "function": {"name": " Get_Weather ", "arguments": "{}"}}])),
            chat(json!([{"index": 1, "id": "d", "function": {"name": "delete_all", "arguments": "{}"}}])),
            chat_finish("tool_calls"),
        ],
    );
    assert_eq!(summary(&calls), [("get_weather".to_owned(), json!({}))]);
    assert_eq!(error_kinds(&calls), ["unknown_tool"]);

    let wrapper = r#"{"tool_uses": [{"recipient_name": "functions.a", "parameters": {"x": 1}}, {"recipient_name": "functions.b", "parameters": {}}]}"#;
    let calls = auto(&[
        chat(
            json!([{"index": 0, "id": "call_w", "function": {"name": "multi_tool_use.parallel", "arguments": wrapper}}]),
        ),
        chat_finish("tool_calls"),
    ]);
    assert_eq!(summary(&calls), [("a".to_owned(), json!({"x": 1})), ("b".to_owned(), json!({}))]);
    assert_eq!(ids(&calls), ["call_w_0", "call_w_1"]);
}

#[test]
fn an_error_carries_the_registered_name_as_a_call_does() {
    // A call to a known tool that is refused (cut off by a length stop, or by the end of the
    // stream, or a Responses item that did not complete) names the registered tool, as the
    // whole body's reading and every call do; the name as sent stays in `name_sent`.
    let options = || CallOptions::new().tools(["Get_Weather", "search"]);
    let events = [
        chat(json!([{"index": 0, "id": "a", "function": {"name": "search", "arguments": "{}"}}])),
        chat(
            json!([{"index": 1, "id": "b", "function": {"name": "get_weather", "arguments": "{\"city\": \"Par"}}]),
        ),
        chat_finish("length"),
    ];
    let body = json!({"choices": [{"index": 0, "finish_reason": "length", "message": {"role": "assistant",
        "content": null, "tool_calls": [
        {"id": "a", "type": "function", "function": {"name": "search", "arguments": "{}"}},
        {"id": "b", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Par"}}]}}]});
    let whole = parse_value(&body, &options()).unwrap();
    for calls in [&whole, &feed(options(), &events), &feed(options(), &events[..2])] {
        assert_eq!(error_kinds(calls), ["incomplete", "truncated"]);
        assert_eq!(calls.errors[1].name.as_deref(), Some("Get_Weather"), "{:?}", calls.errors[1]);
        assert_eq!(calls.errors[1].name_sent.as_deref(), Some("get_weather"));
    }
    let body = json!({"object": "response", "status": "incomplete", "output": [{"type": "function_call",
        "id": "fc_1", "call_id": "call_1", "name": "get_weather", "arguments": "{\"city\": \"Par",
        "status": "incomplete"}]});
    let calls = parse_value(&body, &options()).unwrap();
    assert_eq!(error_kinds(&calls), ["truncated"]);
    assert_eq!(calls.errors[0].name.as_deref(), Some("Get_Weather"));
}

#[test]
fn content_is_kept_and_searched_for_marked_calls() {
    let text = |t: &str| json!({"choices": [{"index": 0, "delta": {"content": t}}]});
    let calls = auto(&[
        text("Let me check. <tool_"),
        text("call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}</tool_call>"),
        chat_finish("stop"),
    ]);
    assert_eq!(summary(&calls), [("get_weather".to_owned(), json!({"city": "Paris"}))]);
    assert_eq!(calls.content.as_deref(), Some("Let me check. "));
}

// ---------------------------------------------------------------------------------------
// OpenAI Responses

fn added(output_index: u64, item_id: &str, call_id: &str, name: &str) -> Value {
    json!({"type": "response.output_item.added", "output_index": output_index, "item": {
        "id": item_id, "type": "function_call", "status": "in_progress", "arguments": "", "call_id": call_id, "name": name}})
}

fn args_delta(output_index: u64, item_id: &str, delta: &str) -> Value {
    json!({"type": "response.function_call_arguments.delta", "output_index": output_index, "item_id": item_id, "delta": delta})
}

fn args_done(output_index: u64, item_id: &str, arguments: &str) -> Value {
    json!({"type": "response.function_call_arguments.done", "output_index": output_index, "item_id": item_id, "arguments": arguments})
}

fn item_done(output_index: u64, item_id: &str, call_id: &str, name: &str, arguments: &str) -> Value {
    json!({"type": "response.output_item.done", "output_index": output_index, "item": {
        "id": item_id, "type": "function_call", "status": "completed", "arguments": arguments, "call_id": call_id, "name": name}})
}

fn completed() -> Value {
    json!({"type": "response.completed", "response": {"object": "response", "status": "completed"}})
}

#[test]
fn responses_deltas_done_and_items() {
    let calls = auto(&[
        added(0, "fc_1", "call_1", "f"),
        args_delta(0, "fc_1", "{\"a\""),
        args_delta(0, "fc_1", ": 1}"),
        args_done(0, "fc_1", "{\"a\": 1}"),
        item_done(0, "fc_1", "call_1", "f", "{\"a\": 1}"),
        completed(),
    ]);
    assert_eq!(ids(&calls), ["call_1"]);
    assert_eq!(summary(&calls), [("f".to_owned(), json!({"a": 1}))]);
    assert_eq!(calls.calls[0].raw["arguments"], "{\"a\": 1}");

    // Arguments only in `.done` (LM Studio); only `output_item.done`; `.done` wins.
    for events in [
        vec![added(0, "fc_1", "call_1", "f"), args_done(0, "fc_1", "{\"a\": 1}"), completed()],
        vec![added(0, "fc_1", "call_1", "f"), item_done(0, "fc_1", "call_1", "f", "{\"a\": 1}"), completed()],
        vec![item_done(0, "fc_1", "call_1", "f", "{\"a\": 1}"), completed()],
        vec![
            added(0, "fc_1", "call_1", "f"),
            args_delta(0, "fc_1", "{\"a\": 1"),
            args_done(0, "fc_1", "{\"a\": 1}"),
            completed(),
        ],
    ] {
        let calls = auto(&events);
        assert_eq!(summary(&calls), [("f".to_owned(), json!({"a": 1}))], "{events:?}");
        assert_eq!(ids(&calls), ["call_1"]);
    }

    // Deltas named only by output index, two calls interleaved.
    let calls = auto(&[
        added(1, "fc_a", "call_a", "a"),
        added(2, "fc_b", "call_b", "b"),
        json!({"type": "response.function_call_arguments.delta", "output_index": 2, "delta": "{\"b\": 2}"}),
        json!({"type": "response.function_call_arguments.delta", "output_index": 1, "delta": "{\"a\": 1}"}),
        completed(),
    ]);
    assert_eq!(summary(&calls), [("a".to_owned(), json!({"a": 1})), ("b".to_owned(), json!({"b": 2}))]);
}

#[test]
fn responses_calls_only_in_the_terminal_response_are_read_as_the_body_reads_them() {
    // A proxy that sends the response whole only at its end: the calls of its `output` are
    // the response's calls, as the body gives them, never dropped.
    let item = |id: &str, call_id: &str, name: &str, arguments: &str| {
        json!({"type": "function_call", "id": id, "call_id": call_id, "name": name,
            "arguments": arguments, "status": "completed"})
    };
    let body = json!({"object": "response", "status": "completed", "output": [
        item("fc_1", "call_1", "f", "{\"a\": 1}"), item("fc_2", "call_2", "g", "{\"b\": 2}")]});
    let whole = parse_value(&body, &CallOptions::new()).expect("a Responses body");
    let terminal = json!({"type": "response.completed", "response": body});
    for events in [
        vec![terminal.clone()],
        // The first streamed, the second only in the response.
        vec![added(0, "fc_1", "call_1", "f"), args_done(0, "fc_1", "{\"a\": 1}"), terminal.clone()],
    ] {
        let calls = auto(&events);
        assert_eq!(ids(&calls), ["call_1", "call_2"], "{events:?}");
        assert_eq!(summary(&calls), summary(&whole));
        assert!(calls.errors.is_empty(), "{:?}", calls.errors);
    }
    // Cut: the same errors as the body with that status.
    let mut cut = body.clone();
    cut["status"] = json!("incomplete");
    cut["incomplete_details"] = json!({"reason": "max_output_tokens"});
    let whole = parse_value(&cut, &CallOptions::new()).expect("a Responses body");
    let calls = auto(&[json!({"type": "response.incomplete", "response": cut})]);
    assert_eq!(error_kinds(&calls), ["incomplete", "truncated"]);
    assert_eq!(error_kinds(&calls), error_kinds(&whole));
}

#[test]
fn responses_incomplete_failed_or_unfinished_streams_cut_off_open_calls() {
    let start = [added(0, "fc_1", "call_1", "write"), args_delta(0, "fc_1", "{\"text\": \"abc")];
    let incomplete = json!({"type": "response.incomplete", "response": {"status": "incomplete",
        "incomplete_details": {"reason": "max_output_tokens"}}});
    let failed = json!({"type": "response.failed", "response": {"status": "failed", "error": {"code": "server_error"}}});
    for end in [Some(incomplete), Some(failed), None] {
        let mut events = start.to_vec();
        events.extend(end.clone());
        let calls = auto(&events);
        assert!(calls.calls.is_empty(), "{end:?}");
        assert_eq!(error_kinds(&calls), ["truncated"], "{end:?}");
        assert_eq!(calls.errors[0].name.as_deref(), Some("write"));
        assert!(calls.errors[0].message.contains("13 bytes"), "{}", calls.errors[0].message);
    }
    // A call that ended before the response stopped is incomplete: it runs only if asked.
    let mut events = vec![added(0, "fc_0", "call_0", "done_one"), args_done(0, "fc_0", "{}")];
    events.extend(start);
    events.push(json!({"type": "response.incomplete", "response": {"incomplete_details": {"reason": "max_output_tokens"}}}));
    let calls = auto(&events);
    assert_eq!(error_kinds(&calls), ["incomplete", "truncated"]);
    assert!(calls.errors[1].message.contains("max_output_tokens"));
    let calls = feed(CallOptions::new().run_completed_calls(true), &events);
    assert_eq!(summary(&calls), [("done_one".to_owned(), json!({}))]);
    assert!(calls.errors[0].message.contains("max_output_tokens"));
}

// ---------------------------------------------------------------------------------------
// Anthropic

fn block_start(index: u64, id: &str, name: &str) -> Value {
    json!({"type": "content_block_start", "index": index, "content_block": {"type": "tool_use", "id": id, "name": name, "input": {}}})
}

fn json_delta(index: u64, partial: &str) -> Value {
    json!({"type": "content_block_delta", "index": index, "delta": {"type": "input_json_delta", "partial_json": partial}})
}

fn block_stop(index: u64) -> Value {
    json!({"type": "content_block_stop", "index": index})
}

fn message_start() -> Value {
    json!({"type": "message_start", "message": {"id": "msg_1", "type": "message", "role": "assistant", "content": []}})
}

fn stop(reason: &str) -> [Value; 2] {
    [json!({"type": "message_delta", "delta": {"stop_reason": reason}}), json!({"type": "message_stop"})]
}

#[test]
fn anthropic_blocks_end_calls_one_by_one() {
    let mut stream = StreamAssembler::new(CallOptions::new());
    for event in [
        message_start(),
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Checking."}}),
        block_stop(0),
        block_start(1, "toolu_1", "a"),
        json_delta(1, ""),
        json_delta(1, "{\"x\": \"\\u00"),
        json_delta(1, "e9\"}"),
    ] {
        stream.push_event(&event);
    }
    assert!(stream.calls().is_empty(), "not final before content_block_stop");
    assert_eq!(stream.open_calls()[0].arguments_text, Some("{\"x\": \"\\u00e9\"}"));
    stream.push_event(&block_stop(1));
    assert_eq!(stream.calls()[0].arguments["x"], "é", "final at content_block_stop");
    for event in [block_start(2, "toolu_2", "b"), block_stop(2)] {
        stream.push_event(&event);
    }
    for event in stop("tool_use") {
        stream.push_event(&event);
    }
    let calls = stream.finish();
    assert_eq!(summary(&calls), [("a".to_owned(), json!({"x": "é"})), ("b".to_owned(), json!({}))]);
    assert_eq!(calls.content.as_deref(), Some("Checking."));
}

#[test]
fn anthropic_whole_tool_use_in_message_start() {
    let calls = auto(&[
        json!({"type": "message_start", "message": {"type": "message", "role": "assistant", "content": [
            {"type": "tool_use", "id": "toolu_p", "name": "rollDie", "input": {"player": "player2"},
             "caller": {"type": "code_execution_20250825"}}]}}),
        json!({"type": "message_stop"}),
    ]);
    assert_eq!(summary(&calls), [("rollDie".to_owned(), json!({"player": "player2"}))]);
    assert_eq!(ids(&calls), ["toolu_p"]);
}

#[test]
fn anthropic_cut_offs() {
    let open = [message_start(), block_start(0, "toolu_1", "make_file"), json_delta(0, "{\"lines\": [\"a")];
    // max_tokens, no message_stop at all, an error event, a second message_start.
    let endings: Vec<Vec<Value>> = vec![
        stop("max_tokens").to_vec(),
        stop("model_context_window_exceeded").to_vec(),
        vec![],
        vec![json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}})],
        vec![message_start(), json!({"type": "message_stop"})],
    ];
    for ending in endings {
        let mut events = open.to_vec();
        events.extend(ending.iter().cloned());
        let calls = auto(&events);
        assert!(calls.calls.is_empty(), "{ending:?}");
        assert_eq!(error_kinds(&calls), ["truncated"], "{ending:?}");
        assert_eq!(calls.errors[0].name.as_deref(), Some("make_file"));
        assert_eq!(calls.errors[0].id, "toolu_1");
        assert!(calls.errors[0].message.contains("13 bytes"), "{}", calls.errors[0].message);
    }
    // A block closed before max_tokens stopped the message was complete.
    let mut events =
        vec![message_start(), block_start(0, "toolu_0", "ok"), json_delta(0, "{}"), block_stop(0)];
    events.extend(open[1..].iter().map(|e| {
        let mut e = e.clone();
        e["index"] = json!(1);
        e
    }));
    events.extend(stop("max_tokens"));
    let calls = auto(&events);
    assert_eq!(error_kinds(&calls), ["incomplete", "truncated"]);
    let calls = feed(CallOptions::new().run_completed_calls(true), &events);
    assert_eq!(summary(&calls), [("ok".to_owned(), json!({}))]);
    assert_eq!(error_kinds(&calls), ["truncated"]);
    // A message that stopped normally completes a block whose stop was lost.
    let mut events = vec![message_start(), block_start(0, "toolu_0", "ok"), json_delta(0, "{\"a\": 1}")];
    events.extend(stop("tool_use"));
    assert_eq!(summary(&auto(&events)), [("ok".to_owned(), json!({"a": 1}))]);
}

#[test]
fn anthropic_server_tools_are_not_read() {
    let calls = auto(&[
        message_start(),
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {}}}),
        json_delta(0, "{\"query\": \"x\"}"),
        block_stop(0),
        stop("end_turn")[0].clone(),
        stop("end_turn")[1].clone(),
    ]);
    assert!(calls.calls.is_empty() && calls.errors.is_empty());
}

// ---------------------------------------------------------------------------------------
// Gemini

fn gemini(parts: Value, finish: Option<&str>) -> Value {
    let mut candidate = json!({"content": {"role": "model", "parts": parts}, "index": 0});
    if let Some(reason) = finish {
        candidate["finishReason"] = json!(reason);
    }
    json!({"candidates": [candidate]})
}

#[test]
fn gemini_whole_calls_and_partial_arguments() {
    let calls = auto(&[
        gemini(json!([{"functionCall": {"name": "a", "args": {"x": 1}}, "thoughtSignature": "sig"}]), None),
        gemini(json!([{"functionCall": {"name": "b", "willContinue": true}}]), None),
        gemini(
            json!([{"functionCall": {"partialArgs": [{"jsonPath": "$.text", "stringValue": "Hel", "willContinue": true}], "willContinue": true}}]),
            None,
        ),
        gemini(
            json!([{"functionCall": {"partialArgs": [{"jsonPath": "$.text", "stringValue": "lo"}], "willContinue": true}}]),
            None,
        ),
        gemini(
            json!([{"functionCall": {"partialArgs": [{"jsonPath": "$.items[0].n", "numberValue": 2}, {"jsonPath": "$.items[0].ok", "boolValue": true}], "willContinue": true}}]),
            None,
        ),
        gemini(json!([{"functionCall": {}}]), None),
        gemini(json!([{"functionCall": {"name": "c"}}]), None),
        gemini(json!([{"text": ""}]), Some("STOP")),
    ]);
    assert_eq!(
        summary(&calls),
        [
            ("a".to_owned(), json!({"x": 1})),
            ("b".to_owned(), json!({"text": "Hello", "items": [{"n": 2, "ok": true}]})),
            ("c".to_owned(), json!({})),
        ]
    );
    assert_eq!(calls.calls[0].raw["thoughtSignature"], "sig");
    assert!(calls.calls.iter().all(|c| c.id_generated));
}

#[test]
fn gemini_cut_offs() {
    let open = [
        gemini(json!([{"functionCall": {"name": "write", "willContinue": true}}]), None),
        gemini(
            json!([{"functionCall": {"partialArgs": [{"jsonPath": "$.text", "stringValue": "Once", "willContinue": true}], "willContinue": true}}]),
            None,
        ),
    ];
    for ending in [Some(gemini(json!([]), Some("MAX_TOKENS"))), Some(gemini(json!([]), Some("SAFETY"))), None]
    {
        let mut events = open.to_vec();
        events.extend(ending.clone());
        let calls = auto(&events);
        assert!(calls.calls.is_empty(), "{ending:?}");
        assert_eq!(error_kinds(&calls), ["truncated"], "{ending:?}");
        assert_eq!(calls.errors[0].name.as_deref(), Some("write"));
    }
    // STOP completes a call whose terminal part was lost.
    let mut events = open.to_vec();
    events.push(gemini(json!([]), Some("STOP")));
    assert_eq!(summary(&auto(&events)), [("write".to_owned(), json!({"text": "Once"}))]);
    // A bad path damages the call.
    let mut events = open.to_vec();
    events.push(gemini(
        json!([{"functionCall": {"partialArgs": [{"jsonPath": "$.text[0]", "stringValue": "x"}]}}]),
        None,
    ));
    events.push(gemini(json!([]), Some("STOP")));
    assert_eq!(error_kinds(&auto(&events)), ["malformed"]);
}

// ---------------------------------------------------------------------------------------
// Ollama and text

#[test]
fn ollama_lines() {
    let calls = auto(&[
        json!({"model": "m", "message": {"role": "assistant", "content": "", "tool_calls": [
            {"function": {"name": "get_weather", "arguments": {"city": "Paris"}}}]}, "done": false}),
        json!({"model": "m", "message": {"role": "assistant", "content": ""}, "done": true, "done_reason": "stop"}),
    ]);
    assert_eq!(calls.format, Format::Ollama);
    assert_eq!(summary(&calls), [("get_weather".to_owned(), json!({"city": "Paris"}))]);
}

#[test]
fn ollama_parallel_wrapper_is_unwrapped_as_in_the_body() {
    // gpt-oss served by Ollama may write OpenAI's `multi_tool_use.parallel`: the stream reads
    // it as the body does, into the calls it lists, never as one call to the wrapper.
    let wrapper = json!({"function": {"name": "multi_tool_use.parallel", "arguments": {"tool_uses": [
        {"recipient_name": "functions.get_weather", "parameters": {"city": "Paris"}},
        {"recipient_name": "functions.get_time", "parameters": {"zone": "CET"}}]}}});
    let chunk = json!({"model": "m", "message": {"role": "assistant", "content": "", "tool_calls": [wrapper]},
        "done": true, "done_reason": "stop"});
    let whole = parse_value(&chunk, &CallOptions::new()).expect("an Ollama body");
    let streamed = auto(std::slice::from_ref(&chunk));
    let expected = [
        ("get_weather".to_owned(), json!({"city": "Paris"})),
        ("get_time".to_owned(), json!({"zone": "CET"})),
    ];
    assert_eq!(summary(&whole), expected);
    assert_eq!(summary(&streamed), expected);
}

#[test]
fn text_calls_split_across_chunks() {
    let text =
        "Sure. <tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Zoë\"}}</tool_call> Done.";
    let boundaries: Vec<usize> = (0..=text.len()).filter(|&i| text.is_char_boundary(i)).collect();
    for &cut in &boundaries {
        let mut stream = StreamAssembler::new(CallOptions::new().format(Format::Text));
        stream.push_text(&text[..cut]);
        stream.push_text(&text[cut..]);
        let calls = stream.finish();
        assert_eq!(summary(&calls), [("get_weather".to_owned(), json!({"city": "Zoë"}))], "cut at {cut}");
        assert_eq!(calls.content.as_deref(), Some("Sure.  Done."));
    }
    // JSON strings, one per line, detected as text. At the end of the stream, the text
    // reader decides (a complete call without its closing tag is a call, as in a whole
    // text); when the stream stopped early, only a closed call is final.
    let lines = ["\"<tool_call>{\\\"name\\\": \\\"f\\\", \"", "\"\\\"arguments\\\": {}}\""];
    for cut in [false, true] {
        let mut stream = StreamAssembler::new(CallOptions::new());
        for line in lines {
            stream.push_sse_line(line);
        }
        if cut {
            stream.cut_off("finish_reason `length`");
        }
        let calls = stream.finish();
        assert_eq!(calls.format, Format::Text);
        if cut {
            assert!(calls.calls.is_empty());
            assert_eq!(error_kinds(&calls), ["truncated"]);
            assert_eq!(calls.errors[0].name.as_deref(), Some("f"));
        } else {
            assert_eq!(summary(&calls), [("f".to_owned(), json!({}))]);
        }
    }
    // A call closed before the cut is whole, but the response is not: it runs only if asked.
    for run in [false, true] {
        let options = CallOptions::new().format(Format::Text).run_completed_calls(run);
        let mut stream = StreamAssembler::new(options);
        stream.push_text("<tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call>");
        stream.cut_off("finish_reason `length`");
        let calls = stream.finish();
        if run {
            assert_eq!(summary(&calls), [("f".to_owned(), json!({}))], "closed before the cut");
        } else {
            assert_eq!(error_kinds(&calls), ["incomplete"]);
        }
    }

    // Content of a Chat Completions stream stopped for length.
    let text = |t: &str| json!({"choices": [{"index": 0, "delta": {"content": t}}]});
    let open_tag = "<tool_call>{\"name\": \"f\", \"arguments\": {}}";
    let calls = auto(&[text(open_tag), chat_finish("length")]);
    assert_eq!(error_kinds(&calls), ["truncated"]);
    let calls = auto(&[text(open_tag), chat_finish("stop")]);
    assert_eq!(summary(&calls), [("f".to_owned(), json!({}))]);
    // A list that closed is complete, but the response is not: it runs only if asked.
    let list = "[TOOL_CALLS][{\"name\": \"f\", \"arguments\": {}}]";
    let events = [text(list), chat_finish("length")];
    assert_eq!(error_kinds(&auto(&events)), ["incomplete"]);
    let calls = feed(CallOptions::new().run_completed_calls(true), &events);
    assert_eq!(summary(&calls), [("f".to_owned(), json!({}))]);
    // The whole body reads both alike.
    for (content, kind) in [(list, "incomplete"), (open_tag, "truncated")] {
        let body =
            json!({"choices": [{"index": 0, "finish_reason": "length", "message": {"content": content}}]});
        let calls = parse_value(&body, &CallOptions::new()).unwrap();
        assert_eq!(error_kinds(&calls), [kind], "{content}");
    }
}

// ---------------------------------------------------------------------------------------
// Framing, limits, damage

#[test]
fn sse_framing_equals_decoded_events() {
    let events = [
        message_start(),
        block_start(0, "toolu_1", "f"),
        json_delta(0, "{\"a\": \"x\\ny\"}"),
        block_stop(0),
        stop("tool_use")[0].clone(),
        stop("tool_use")[1].clone(),
    ];
    let expected = summary(&auto(&events));
    let mut body = String::from(": ping\n\n");
    for event in &events {
        body.push_str(&format!("event: {}\ndata: {}\n\n", event["type"].as_str().unwrap(), event));
    }
    let mut by_line = StreamAssembler::new(CallOptions::new());
    for line in body.lines() {
        by_line.push_sse_line(line);
    }
    assert_eq!(summary(&by_line.finish()), expected);
    for size in [1, 2, 3, 7, 64] {
        let mut by_bytes = StreamAssembler::new(CallOptions::new());
        for piece in body.as_bytes().chunks(size) {
            by_bytes.push_sse_bytes(piece);
        }
        assert_eq!(summary(&by_bytes.finish()), expected, "pieces of {size}");
    }
    // One JSON event per line, and `data: [DONE]`.
    let mut stream = StreamAssembler::new(CallOptions::new());
    stream.push_sse_line(
        &chat(json!([{"index": 0, "id": "c", "function": {"name": "f", "arguments": "{}"}}])).to_string(),
    );
    stream.push_sse_line("data: [DONE]");
    stream.push_sse_line("");
    assert_eq!(summary(&stream.finish()), [("f".to_owned(), json!({}))]);
}

#[test]
fn an_event_that_is_json_but_not_an_event_is_never_skipped_in_silence() {
    // `data: null`, `data: [1]`, `data: 5`, `data: true` in the middle of a call: a piece of it may
    // be lost, so the call is damaged and the event named, as an event that is not JSON is.
    for data in ["null", "[1]", "5", "true", "\"text\""] {
        let mut stream = StreamAssembler::new(CallOptions::new());
        stream.push_sse_line(
            &chat(json!([{"index": 0, "id": "c", "function": {"name": "f", "arguments": "{\"a\""}}]))
                .to_string(),
        );
        stream.push_sse_line("");
        stream.push_sse_line(&format!("data: {data}"));
        stream.push_sse_line("");
        stream.push_sse_line(&chat(json!([{"index": 0, "function": {"arguments": ": 1}"}}])).to_string());
        stream.push_sse_line("");
        stream.push_sse_line("data: [DONE]");
        let calls = stream.finish();
        assert!(calls.calls.is_empty(), "{data}: {:?}", calls.calls);
        assert_eq!(error_kinds(&calls), ["malformed", "malformed"], "{data}");
        assert!(calls.errors[0].message.contains("event 2 of the stream is "), "{}", calls.errors[0].message);
        assert!(calls.errors[0].message.contains(", not an event"), "{}", calls.errors[0].message);
    }
    // Before the format is known, too: recorded, and the calls that follow still run.
    let mut stream = StreamAssembler::new(CallOptions::new());
    stream.push_event(&json!(null));
    stream.push_event(&chat(json!([{"index": 0, "id": "c", "function": {"name": "f", "arguments": "{}"}}])));
    stream.push_event(&json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}));
    let calls = stream.finish();
    assert_eq!(summary(&calls), [("f".to_owned(), json!({}))]);
    assert_eq!(error_kinds(&calls), ["malformed"]);
    assert!(
        calls.errors[0].message.contains("event 1 of the stream is null, not an event"),
        "{}",
        calls.errors[0].message
    );
    // `[DONE]` handed over as the string it reads as is the end marker, as `push_done`.
    let mut stream = StreamAssembler::new(CallOptions::new());
    stream.push_event(&chat(json!([{"index": 0, "id": "c", "function": {"name": "f", "arguments": "{}"}}])));
    stream.push_event(&json!("[DONE]"));
    assert_eq!(stream.calls().len(), 1);
    assert_eq!(summary(&stream.finish()), [("f".to_owned(), json!({}))]);
    // An object of an unknown shape (a keep-alive, usage) is read as nothing, as before.
    let mut stream = StreamAssembler::new(CallOptions::new());
    stream.push_event(&chat(json!([{"index": 0, "id": "c", "function": {"name": "f", "arguments": "{}"}}])));
    stream.push_event(&json!({"usage": {"total_tokens": 3}}));
    stream.push_event(&json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}));
    let calls = stream.finish();
    assert_eq!(summary(&calls), [("f".to_owned(), json!({}))]);
    assert!(calls.errors.is_empty(), "{:?}", calls.errors);
}

#[test]
fn an_unreadable_event_damages_the_open_calls_only() {
    let mut stream = StreamAssembler::new(CallOptions::new());
    stream.push_event(&message_start());
    stream.push_event(&block_start(0, "toolu_0", "done_before"));
    stream.push_event(&block_stop(0));
    stream.push_event(&block_start(1, "toolu_1", "f"));
    stream.push_event(&json_delta(1, "{\"a\": 1"));
    stream.push_sse_line(
        "data: {\"type\": \"content_block_delta\", \"index\": 1, \"delta\": {\"type\": \"input_json_del",
    );
    stream.push_sse_line("");
    stream.push_event(&json_delta(1, "2}"));
    stream.push_event(&block_stop(1));
    stream.push_event(&json!({"type": "message_stop"}));
    let calls = stream.finish();
    assert_eq!(summary(&calls), [("done_before".to_owned(), json!({}))]);
    // The call it damaged, and the event itself, named.
    assert_eq!(error_kinds(&calls), ["malformed", "malformed"]);
    assert_eq!(calls.errors[0].id, "toolu_1");
    assert!(
        calls.errors[0].message.contains("event 1 of the stream is not JSON"),
        "{}",
        calls.errors[0].message
    );
    assert!(
        calls.errors[1].message.contains("event 1 of the stream is not JSON"),
        "{}",
        calls.errors[1].message
    );
}

#[test]
fn limits_on_bytes_and_calls() {
    // Bytes per call.
    let mut stream = StreamAssembler::new(CallOptions::new()).max_call_bytes(10);
    stream.push_event(&chat(
        json!([{"index": 0, "id": "big", "function": {"name": "f", "arguments": "{\"text\": \""}}]),
    ));
    stream.push_event(&chat(json!([{"index": 0, "function": {"arguments": "0123456789\"}"}}])));
    stream.push_event(&chat(
        json!([{"index": 1, "id": "small", "function": {"name": "g", "arguments": "{}"}}]),
    ));
    stream.push_event(&chat_finish("tool_calls"));
    let calls = stream.finish();
    assert_eq!(summary(&calls), [("g".to_owned(), json!({}))]);
    assert_eq!(error_kinds(&calls), ["too_large"]);
    assert_eq!(calls.errors[0].id, "big");
    assert!(calls.errors[0].message.contains("10 bytes"), "{}", calls.errors[0].message);

    // Bytes in all: the body limit.
    let mut stream = StreamAssembler::new(CallOptions::new().max_body_bytes(16));
    for index in 0..3 {
        stream.push_event(&chat(json!([{"index": index, "id": format!("c{index}"), "function": {"name": "f", "arguments": "{\"a\": 123}"}}])));
    }
    stream.push_event(&chat_finish("tool_calls"));
    assert_eq!(error_kinds(&stream.finish()), ["too_large", "too_large"]);

    // Number of calls.
    let mut events: Vec<Value> = (0..10)
        .map(|i| chat(json!([{"index": i, "id": format!("call_{i}"), "function": {"name": "f", "arguments": "{}"}}])))
        .collect();
    events.push(chat_finish("tool_calls"));
    let calls = feed(CallOptions::new().max_calls(3), &events);
    assert_eq!(calls.calls.len(), 3);
    assert_eq!(error_kinds(&calls), ["too_many_calls"]);

    // Without index or id, fragments of a dropped call never reach the calls before it.
    let calls = feed(
        CallOptions::new().max_calls(1),
        &[
            chat(json!([{"id": "a", "function": {"name": "f", "arguments": "{\"x\": 1}"}}])),
            chat(json!([{"id": "b", "function": {"name": "g", "arguments": "{\"y\""}}])),
            chat(json!([{"function": {"arguments": ": 2}"}}])),
            chat_finish("tool_calls"),
        ],
    );
    assert_eq!(summary(&calls), [("f".to_owned(), json!({"x": 1}))]);
}

#[test]
fn a_huge_argument_is_linear_to_assemble() {
    // 4 MiB of arguments in 1..16-byte fragments: appending, never re-reading.
    let content = "x".repeat(4 << 20);
    let arguments = format!("{{\"content\": \"{content}\"}}");
    let mut stream = StreamAssembler::new(CallOptions::new().format(Format::Anthropic));
    stream.push_event(&block_start(0, "toolu_1", "write_file"));
    let mut at = 0;
    let mut size = 1;
    while at < arguments.len() {
        let end = (at + size).min(arguments.len());
        stream.push_event(&json_delta(0, &arguments[at..end]));
        at = end;
        size = size % 16 + 1;
    }
    stream.push_event(&block_stop(0));
    stream.push_event(&json!({"type": "message_stop"}));
    let calls = stream.finish();
    assert_eq!(calls.calls[0].arguments["content"].as_str().map(str::len), Some(4 << 20));
}

// ---------------------------------------------------------------------------------------
// Hostile input

/// Any JSON value, with the keys streaming readers look at more likely than chance.
fn any_value() -> impl Strategy<Value = Value> {
    let key = prop_oneof![
        Just("type".to_owned()),
        Just("index".to_owned()),
        Just("id".to_owned()),
        Just("choices".to_owned()),
        Just("delta".to_owned()),
        Just("tool_calls".to_owned()),
        Just("function".to_owned()),
        Just("arguments".to_owned()),
        Just("name".to_owned()),
        Just("content_block".to_owned()),
        Just("partial_json".to_owned()),
        Just("candidates".to_owned()),
        Just("content".to_owned()),
        Just("parts".to_owned()),
        Just("functionCall".to_owned()),
        Just("partialArgs".to_owned()),
        Just("jsonPath".to_owned()),
        Just("willContinue".to_owned()),
        Just("item".to_owned()),
        Just("output_index".to_owned()),
        "[a-z_]{1,8}",
    ];
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        (0u64..4).prop_map(Value::from),
        prop_oneof![
            Just("function_call".to_owned()),
            Just("tool_use".to_owned()),
            Just("input_json_delta".to_owned()),
            Just("content_block_start".to_owned()),
            Just("content_block_delta".to_owned()),
            Just("content_block_stop".to_owned()),
            Just("message_start".to_owned()),
            Just("message_stop".to_owned()),
            Just("response.output_item.added".to_owned()),
            Just("response.function_call_arguments.delta".to_owned()),
            Just("response.completed".to_owned()),
            Just("$.a[0].b".to_owned()),
            Just("{\"a\": ".to_owned()),
            ".{0,12}",
        ]
        .prop_map(Value::from),
    ];
    leaf.prop_recursive(5, 64, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((key.clone(), inner), 0..6)
                .prop_map(|entries| Value::Object(entries.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Random events in every format, and random lines: never a panic, always a result.
    #[test]
    fn random_events_never_panic(events in prop::collection::vec(any_value(), 0..24), lines in prop::collection::vec(".{0,40}", 0..8)) {
        for format in [Format::Auto, Format::OpenAi, Format::Responses, Format::Anthropic, Format::Gemini, Format::Ollama, Format::Text] {
            let mut stream = StreamAssembler::new(CallOptions::new().format(format).max_calls(4));
            for event in &events {
                stream.push_event(event);
                let _ = stream.open_calls();
            }
            for line in &lines {
                stream.push_sse_line(line);
                stream.push_sse_bytes(line.as_bytes());
            }
            let calls = stream.finish();
            prop_assert!(calls.calls.len() + calls.errors.len() <= 5 || format == Format::Text);
        }
    }
}

#[test]
fn deep_and_huge_events_never_panic() {
    let deep = format!("data: {}{}", "[".repeat(100_000), "]".repeat(100_000));
    let mut stream = StreamAssembler::new(CallOptions::new());
    stream.push_sse_line(&deep);
    stream.push_sse_line("");
    stream.push_sse_bytes([0xff, 0xfe, b'\n', b'{', b'\n']);
    stream.push_event(&gemini(json!([{"functionCall": {"name": "f", "willContinue": true}}]), None));
    let path = format!("${}", ".a".repeat(10_000));
    stream.push_event(&gemini(json!([{"functionCall": {"partialArgs": [{"jsonPath": path, "stringValue": "x"}], "willContinue": true}}]), None));
    stream.push_event(&gemini(
        json!([{"functionCall": {"partialArgs": [{"jsonPath": "$.list[4000000000]", "numberValue": 1}]}}]),
        None,
    ));
    let calls = stream.finish();
    assert!(calls.calls.is_empty());
    // Each unreadable event is an error (the deep one, the one not UTF-8, the one not JSON),
    // and so are the damaged call and the nameless part that could not continue it.
    assert_eq!(error_kinds(&calls), ["malformed"; 5]);
}
