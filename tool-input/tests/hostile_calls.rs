//! Calls that must not run: unfinished or cancelled responses, events after a stream's end,
//! a name that arrives after its arguments, two choices with one index, a key given twice,
//! a closing event that disagrees with the fragments, and one id on two Anthropic calls.
//! Each is an error, or the call exactly as sent: never a call read from a damaged piece.

mod stream_support;

use serde_json::{json, Value};
use stream_support::{chat_delta, chat_finish, feed, kinds, names, sse};
use tool_input::calls::{parse_body, parse_text, parse_value, CallOptions, Calls, Format, OriginalArguments};
use tool_input::{CoercionKind, ErrorCode, Validator};

/// Each attempt's kind and name, in order (generated ids aside).
fn outcome(calls: &Calls) -> Vec<(String, String)> {
    calls
        .in_order()
        .map(|entry| match entry {
            Ok(call) => ("call".to_owned(), call.name.clone()),
            Err(error) => (error.kind.code().to_owned(), error.name.clone().unwrap_or_default()),
        })
        .collect()
}

fn chat_call(id: &str, name: &str, arguments: &str) -> Value {
    json!({"id": id, "type": "function", "function": {"name": name, "arguments": arguments}})
}

fn item(id: &str, name: &str, arguments: &str) -> Value {
    json!({"type": "function_call", "id": format!("fc_{id}"), "call_id": id, "name": name, "arguments": arguments})
}

fn block_start(index: u64, id: &str, name: &str) -> Value {
    json!({"type": "content_block_start", "index": index, "content_block": {"type": "tool_use", "id": id, "name": name, "input": {}}})
}

fn block_delta(index: u64, json: &str) -> Value {
    json!({"type": "content_block_delta", "index": index, "delta": {"type": "input_json_delta", "partial_json": json}})
}

/// A whole `tool_use` block: its start, its input as one delta, its stop.
fn tool_block(index: u64, id: &str, name: &str, json: &str) -> [Value; 3] {
    [
        block_start(index, id, name),
        block_delta(index, json),
        json!({"type": "content_block_stop", "index": index}),
    ]
}

/// `message_start` holding `tool_use` already (programmatic tool calling sends it there,
/// then again as its block).
fn started_with(tool_use: &Value) -> Value {
    json!({"type": "message_start", "message": {"content": [tool_use]}})
}

fn message_end(reason: &str) -> [Value; 2] {
    [json!({"type": "message_delta", "delta": {"stop_reason": reason}}), json!({"type": "message_stop"})]
}

// ---------------------------------------------------------------------------------------
// Unfinished, cancelled and failed responses
// ---------------------------------------------------------------------------------------

/// A body and the stream of the same two calls (`f` whole, then `g`), stopped for `reason`.
fn stopped(format: Format, reason: &str) -> (Value, Vec<Value>) {
    match format {
        Format::OpenAi => (
            json!({"choices": [{"index": 0, "finish_reason": reason, "message": {"role": "assistant",
                "tool_calls": [chat_call("call_a", "f", "{\"a\": 1}"), chat_call("call_b", "g", "{\"b\": 2}")]}}]}),
            vec![
                chat_delta(0, Some("call_a"), Some("f"), "{\"a\": 1}"),
                chat_delta(1, Some("call_b"), Some("g"), "{\"b\": 2}"),
                chat_finish(reason),
                json!("[DONE]"),
            ],
        ),
        Format::Responses => {
            let output = [item("call_a", "f", "{\"a\": 1}"), item("call_b", "g", "{\"b\": 2}")];
            let response = json!({"object": "response", "status": reason, "output": output});
            let mut stream = Vec::new();
            for (n, item) in output.iter().enumerate() {
                stream.push(json!({"type": "response.output_item.added", "output_index": n, "item": item}));
                stream.push(json!({"type": "response.output_item.done", "output_index": n, "item": item}));
            }
            stream.push(json!({"type": "response.completed", "response": response.clone()}));
            (response, stream)
        }
        Format::Anthropic => {
            let mut stream = vec![json!({"type": "message_start", "message": {"content": []}})];
            for (index, (id, name, input)) in
                [("toolu_a", "f", "{\"a\": 1}"), ("toolu_b", "g", "{\"b\": 2}")].into_iter().enumerate()
            {
                stream.push(block_start(index as u64, id, name));
                stream.push(block_delta(index as u64, input));
                stream.push(json!({"type": "content_block_stop", "index": index}));
            }
            stream.extend(message_end(reason));
            (
                json!({"type": "message", "role": "assistant", "stop_reason": reason, "content": [
                    {"type": "tool_use", "id": "toolu_a", "name": "f", "input": {"a": 1}},
                    {"type": "tool_use", "id": "toolu_b", "name": "g", "input": {"b": 2}}]}),
                stream,
            )
        }
        Format::Gemini => (
            json!({"candidates": [{"finishReason": reason, "content": {"parts": [
                {"functionCall": {"id": "ga", "name": "f", "args": {"a": 1}}},
                {"functionCall": {"id": "gb", "name": "g", "args": {"b": 2}}}]}}]}),
            vec![
                json!({"candidates": [{"content": {"parts": [{"functionCall": {"id": "ga", "name": "f", "args": {"a": 1}}}]}}]}),
                json!({"candidates": [{"content": {"parts": [{"functionCall": {"id": "gb", "name": "g", "args": {"b": 2}}}]}, "finishReason": reason}]}),
            ],
        ),
        _ => {
            let call =
                |name: &str, arguments: Value| json!({"function": {"name": name, "arguments": arguments}});
            (
                json!({"message": {"role": "assistant", "content": "", "tool_calls": [
                    call("f", json!({"a": 1})), call("g", json!({"b": 2}))]}, "done": true, "done_reason": reason}),
                vec![
                    json!({"message": {"role": "assistant", "content": "", "tool_calls": [call("f", json!({"a": 1}))]}, "done": false}),
                    json!({"message": {"role": "assistant", "content": "", "tool_calls": [call("g", json!({"b": 2}))]}, "done": false}),
                    json!({"message": {"role": "assistant", "content": ""}, "done": true, "done_reason": reason}),
                ],
            )
        }
    }
}

#[test]
fn an_unfinished_or_cancelled_response_runs_nothing() {
    let unfinished = [
        (Format::OpenAi, &["error", "abort", "insufficient_system_resource", "model_length"][..]),
        (Format::Responses, &["cancelled", "in_progress", "queued", "failed", "incomplete"][..]),
        (Format::Anthropic, &["pause_turn", "refusal", "model_context_window_exceeded"][..]),
        (
            Format::Gemini,
            &["FINISH_REASON_UNSPECIFIED", "OTHER", "MALFORMED_FUNCTION_CALL", "UNEXPECTED_TOOL_CALL"][..],
        ),
        (Format::Ollama, &["load", "unload"][..]),
    ];
    for (format, reasons) in unfinished {
        for reason in reasons {
            let (body, stream) = stopped(format, reason);
            for run in [false, true] {
                let options = CallOptions::new().format(format).run_completed_calls(run);
                let whole = parse_value(&body, &options).unwrap();
                let streamed = feed(options, &stream);
                // As a length stop reads: the last call is the one the stop may have cut.
                let expected: &[&str] = if run { &["truncated"] } else { &["incomplete", "truncated"] };
                assert_eq!(kinds(&whole), expected, "{format:?} {reason}, run_completed {run}");
                assert_eq!(outcome(&streamed), outcome(&whole), "{format:?} {reason} streamed");
                if run {
                    assert_eq!(names(&whole), [("f", json!({"a": 1}))], "{format:?} {reason}");
                } else {
                    assert!(whole.calls.is_empty(), "{format:?} {reason}");
                    let message = &whole.errors[0].message;
                    assert!(message.contains(reason), "{format:?}: {message}");
                }
            }
        }
    }
    // Finished responses run their calls.
    let finished = [
        (Format::OpenAi, &["tool_calls", "stop", "function_call"][..]),
        (Format::Responses, &["completed"][..]),
        (Format::Anthropic, &["tool_use", "end_turn", "stop_sequence"][..]),
        (Format::Gemini, &["STOP"][..]),
        (Format::Ollama, &["stop"][..]),
    ];
    for (format, reasons) in finished {
        for reason in reasons {
            let (body, stream) = stopped(format, reason);
            let options = CallOptions::new().format(format);
            let whole = parse_value(&body, &options).unwrap();
            assert_eq!(
                names(&whole),
                [("f", json!({"a": 1})), ("g", json!({"b": 2}))],
                "{format:?} {reason}"
            );
            assert_eq!(outcome(&feed(options, &stream)), outcome(&whole), "{format:?} {reason} streamed");
        }
    }
}

#[test]
fn an_ollama_chunk_not_done_runs_nothing_as_its_stream() {
    // A chunk of an Ollama stream given as a body (`"done": false`): the response had not
    // ended, so nothing runs, as the stream that ends there reads it; the calls it holds
    // arrived whole, so none is called cut short.
    let call = |name: &str, arguments: Value| json!({"function": {"name": name, "arguments": arguments}});
    let chunk = json!({"model": "m", "message": {"role": "assistant", "content": "",
        "tool_calls": [call("f", json!({"a": 1})), call("g", json!({"b": 2}))]}, "done": false});
    for run in [false, true] {
        let options = CallOptions::new().run_completed_calls(run);
        let whole = parse_value(&chunk, &options).unwrap();
        let streamed = feed(options, std::slice::from_ref(&chunk));
        assert_eq!(outcome(&whole), outcome(&streamed), "run_completed {run}");
        if run {
            assert_eq!(names(&whole), [("f", json!({"a": 1})), ("g", json!({"b": 2}))]);
        } else {
            assert_eq!(kinds(&whole), ["incomplete", "incomplete"]);
            assert!(
                whole.errors[0].message.contains("before its `done` chunk"),
                "{}",
                whole.errors[0].message
            );
        }
    }
}

#[test]
fn an_unfinished_responses_item_is_cut() {
    // The response completed, but one item says it did not.
    let mut cut = item("call_b", "g", "{\"b\": 2}");
    cut["status"] = json!("incomplete");
    let mut done = item("call_a", "f", "{\"a\": 1}");
    done["status"] = json!("completed");
    let body = json!({"object": "response", "status": "completed", "output": [done, cut]});
    let whole = parse_value(&body, &CallOptions::new()).unwrap();
    assert!(whole.calls.is_empty(), "{:?}", whole.calls);
    assert_eq!(kinds(&whole), ["incomplete", "truncated"]);
    let stream = [
        json!({"type": "response.output_item.added", "output_index": 0, "item": done}),
        json!({"type": "response.output_item.done", "output_index": 0, "item": done}),
        json!({"type": "response.output_item.added", "output_index": 1, "item": item("call_b", "g", "")}),
        json!({"type": "response.output_item.done", "output_index": 1, "item": cut}),
        json!({"type": "response.completed", "response": body}),
    ];
    assert_eq!(outcome(&feed(CallOptions::new(), &stream)), outcome(&whole));
}

// ---------------------------------------------------------------------------------------
// Events after the end
// ---------------------------------------------------------------------------------------

#[test]
fn a_call_after_the_end_is_an_error_never_a_call() {
    // Chat Completions: after the finish_reason, and after [DONE].
    let late = chat_delta(1, Some("call_x"), Some("delete_files"), "{\"path\": \"/\"}");
    let streams = [
        vec![chat_delta(0, Some("call_a"), Some("f"), "{\"a\": 1}"), chat_finish("tool_calls"), late.clone()],
        vec![
            chat_delta(0, Some("call_a"), Some("f"), "{\"a\": 1}"),
            chat_finish("tool_calls"),
            json!("[DONE]"),
            late.clone(),
        ],
        // More arguments for a call that had ended.
        vec![
            chat_delta(0, Some("call_a"), Some("f"), "{\"a\": 1}"),
            chat_finish("tool_calls"),
            chat_delta(0, None, None, ", \"b\": 2}"),
        ],
    ];
    for events in &streams {
        let body: String = events
            .iter()
            .map(|event| match event.as_str() {
                Some(done) => format!("data: {done}\n\n"),
                None => format!("data: {event}\n\n"),
            })
            .collect();
        let calls = sse(CallOptions::new(), &body);
        assert!(calls.calls.iter().all(|call| call.name != "delete_files"), "{body}");
        assert!(calls.calls.iter().all(|call| call.arguments.get("b").is_none()), "{body}");
        assert!(!calls.errors.is_empty(), "{body}");
        assert!(calls.errors[0].message.contains("after"), "{}", calls.errors[0].message);
    }

    // Anthropic: a block after message_stop.
    let mut events = vec![json!({"type": "message_start", "message": {"content": []}})];
    events.extend([
        block_start(0, "toolu_a", "f"),
        block_delta(0, "{\"a\": 1}"),
        json!({"type": "content_block_stop", "index": 0}),
    ]);
    events.extend(message_end("tool_use"));
    events.extend([
        block_start(1, "toolu_x", "delete_files"),
        block_delta(1, "{}"),
        json!({"type": "content_block_stop", "index": 1}),
    ]);
    let calls = feed(CallOptions::new(), &events);
    assert_eq!(names(&calls), [("f", json!({"a": 1}))]);
    assert!(!calls.errors.is_empty());
    assert!(calls.errors.iter().any(|error| error.message.contains("message_stop")), "{:?}", calls.errors);

    // Responses: an item after response.completed.
    let events = [
        json!({"type": "response.output_item.added", "output_index": 0, "item": item("call_a", "f", "")}),
        json!({"type": "response.output_item.done", "output_index": 0, "item": item("call_a", "f", "{\"a\": 1}")}),
        json!({"type": "response.completed", "response": {"status": "completed"}}),
        json!({"type": "response.output_item.added", "output_index": 1, "item": item("call_x", "delete_files", "")}),
        json!({"type": "response.output_item.done", "output_index": 1, "item": item("call_x", "delete_files", "{}")}),
    ];
    let calls = feed(CallOptions::new(), &events);
    assert_eq!(names(&calls), [("f", json!({"a": 1}))]);
    assert!(
        calls.errors.iter().any(|error| error.message.contains("response.completed")),
        "{:?}",
        calls.errors
    );

    // Gemini: a call after the finishReason.
    let events = [
        json!({"candidates": [{"content": {"parts": [{"functionCall": {"name": "f", "args": {"a": 1}}}]}, "finishReason": "STOP"}]}),
        json!({"candidates": [{"content": {"parts": [{"functionCall": {"name": "delete_files", "args": {}}}]}}]}),
    ];
    let calls = feed(CallOptions::new(), &events);
    assert_eq!(names(&calls), [("f", json!({"a": 1}))]);
    assert!(calls.errors.iter().any(|error| error.message.contains("finishReason")), "{:?}", calls.errors);

    // Ollama: a call after the `done` chunk.
    let call = |name: &str| json!({"function": {"name": name, "arguments": {}}});
    let events = [
        json!({"message": {"role": "assistant", "content": "", "tool_calls": [call("f")]}, "done": false}),
        json!({"message": {"role": "assistant", "content": ""}, "done": true, "done_reason": "stop"}),
        json!({"message": {"role": "assistant", "content": "", "tool_calls": [call("delete_files")]}, "done": false}),
    ];
    let calls = feed(CallOptions::new(), &events);
    assert_eq!(names(&calls), [("f", json!({}))]);
    assert!(calls.errors.iter().any(|error| error.message.contains("done")), "{:?}", calls.errors);
}

#[test]
fn input_after_its_block_stopped_is_an_error() {
    let mut events = vec![json!({"type": "message_start", "message": {"content": []}})];
    events.extend([
        block_start(0, "toolu_a", "delete_files"),
        block_delta(0, "{\"path\": \"/tmp/x\"}"),
        json!({"type": "content_block_stop", "index": 0}),
        block_delta(0, "{\"recursive\": true}"),
    ]);
    events.extend(message_end("tool_use"));
    let calls = feed(CallOptions::new(), &events);
    assert!(calls.calls.is_empty(), "{:?}", calls.calls);
    assert_eq!(kinds(&calls), ["malformed"]);
    assert_eq!(calls.errors[0].id, "toolu_a");
    assert!(calls.errors[0].message.contains("content_block_stop"), "{}", calls.errors[0].message);
}

// ---------------------------------------------------------------------------------------
// A name after its arguments
// ---------------------------------------------------------------------------------------

#[test]
fn a_name_after_its_arguments_keeps_them() {
    let arguments = "{\"path\": \"/tmp/x\"}";
    let without_index = |mut event: Value| {
        event["choices"][0]["delta"]["tool_calls"][0].as_object_mut().unwrap().remove("index");
        event
    };
    let streams = [
        // By id.
        vec![
            chat_delta(0, Some("call_1"), None, arguments),
            chat_delta(0, Some("call_1"), Some("delete_files"), ""),
        ],
        // By index only.
        vec![chat_delta(0, None, None, arguments), chat_delta(0, None, Some("delete_files"), "")],
        // In fragments, by index only.
        vec![
            chat_delta(0, None, None, "{\"path\": "),
            chat_delta(0, None, None, "\"/tmp/x\"}"),
            chat_delta(0, None, Some("delete_"), ""),
            chat_delta(0, None, Some("files"), ""),
        ],
        // Neither: the name alone on the next delta.
        vec![
            without_index(chat_delta(0, None, None, arguments)),
            without_index(chat_delta(0, None, Some("delete_files"), "")),
        ],
    ];
    for mut events in streams {
        events.push(chat_finish("tool_calls"));
        let calls = feed(CallOptions::new(), &events);
        // Never the name without its arguments.
        assert!(calls.calls.iter().all(|call| !call.arguments.is_empty()), "{:?}", names(&calls));
        assert_eq!(names(&calls), [("delete_files", json!({"path": "/tmp/x"}))], "{events:?}");
        assert!(calls.errors.is_empty(), "{:?}", calls.errors);
    }
}

// ---------------------------------------------------------------------------------------
// Choices
// ---------------------------------------------------------------------------------------

#[test]
fn two_choices_with_one_index_are_errors_never_merged() {
    let body = json!({"choices": [
        {"index": 0, "finish_reason": "tool_calls", "message": {"tool_calls": [chat_call("a", "f", "{}")]}},
        {"index": 0, "finish_reason": "tool_calls", "message": {"tool_calls": [chat_call("b", "delete_files", "{}")]}}]});
    let chunk = json!({"choices": [
        {"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "a", "function": {"name": "f", "arguments": "{}"}}]}},
        {"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "b", "function": {"name": "delete_files", "arguments": "{}"}}]}}]});
    let finish = json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]});
    for options in [CallOptions::new(), CallOptions::new().all_choices(true)] {
        let whole = parse_value(&body, &options).unwrap();
        assert!(whole.calls.is_empty(), "{:?}", whole.calls);
        assert_eq!(kinds(&whole), ["malformed", "malformed"]);
        assert!(whole.errors[0].message.contains("choice"), "{}", whole.errors[0].message);
        let streamed = feed(options, &[chunk.clone(), finish.clone()]);
        assert!(streamed.calls.is_empty(), "{:?}", streamed.calls);
        assert!(!streamed.errors.is_empty());
    }
    // Gemini candidates.
    let body = json!({"candidates": [
        {"index": 0, "finishReason": "STOP", "content": {"parts": [{"functionCall": {"name": "f", "args": {}}}]}},
        {"index": 0, "finishReason": "STOP", "content": {"parts": [{"functionCall": {"name": "g", "args": {}}}]}}]});
    let whole = parse_value(&body, &CallOptions::new()).unwrap();
    assert!(whole.calls.is_empty());
    assert_eq!(kinds(&whole), ["malformed", "malformed"]);
    assert_eq!(outcome(&feed(CallOptions::new(), &[body])), outcome(&whole));
}

#[test]
fn a_length_stop_in_one_choice_does_not_cut_another() {
    let body = json!({"choices": [
        {"index": 0, "finish_reason": "length", "message": {"tool_calls": [chat_call("a", "f", "{\"a\": 1}")]}},
        {"index": 1, "finish_reason": "tool_calls", "message": {"tool_calls": [chat_call("b", "g", "{\"b\": 2}")]}}]});
    let options = CallOptions::new().all_choices(true);
    let whole = parse_value(&body, &options).unwrap();
    assert_eq!(names(&whole), [("g", json!({"b": 2}))]);
    assert_eq!(kinds(&whole), ["truncated"]);
    assert_eq!(whole.errors[0].choice, 0);
    let chunk = |choice: u64, id: &str, name: &str, arguments: &str| json!({"choices": [{"index": choice, "delta": {"tool_calls": [{"index": 0, "id": id, "function": {"name": name, "arguments": arguments}}]}}]});
    let stream = [
        chunk(0, "a", "f", "{\"a\": 1}"),
        chunk(1, "b", "g", "{\"b\": 2}"),
        json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "length"}, {"index": 1, "delta": {}, "finish_reason": "tool_calls"}]}),
    ];
    assert_eq!(outcome(&feed(options.clone(), &stream)), outcome(&whole));
    // The other way round: the choice read stopped fine, the other was cut.
    let options = CallOptions::new().all_choices(true).choice(1);
    let whole = parse_value(&body, &options).unwrap();
    assert_eq!(names(&whole), [("g", json!({"b": 2}))]);
}

// ---------------------------------------------------------------------------------------
// A key given twice
// ---------------------------------------------------------------------------------------

fn list_files() -> Validator {
    Validator::new(&json!({"type": "object", "properties": {"dir": {"type": "string"}}, "required": ["dir"]}))
        .unwrap()
}

#[test]
fn a_keyword_given_twice_is_a_duplicate_key() {
    let conflicting = [
        r#"[list_files(dir="/tmp", dir="/")]"#,
        "<tool_call>\n<function=list_files>\n<parameter=dir>\n/tmp\n</parameter>\n<parameter=dir>\n/\n</parameter>\n</function>\n</tool_call>",
        "<tool_call>list_files<arg_key>dir</arg_key><arg_value>/tmp</arg_value><arg_key>dir</arg_key><arg_value>/</arg_value></tool_call>",
    ];
    for text in conflicting {
        let calls = parse_text(text, &CallOptions::new());
        let attempt = calls.in_order().next().unwrap_or_else(|| panic!("nothing read from {text}"));
        // The record shows both values, so the tool's check sees the conflict.
        let original = match attempt {
            Ok(call) => &call.original,
            Err(error) => &error.original,
        };
        let sent = original.to_text().unwrap_or_default();
        assert!(sent.contains("/tmp") && sent.contains("\"/\""), "{text}: {sent}");
        let rejection = list_files().check(original.as_raw()).unwrap_err();
        let error = &rejection.errors()[0];
        assert_eq!(error.code(), ErrorCode::DuplicateKey, "{text}");
        assert!(error.message().contains("/tmp"), "{}", error.message());
    }
    let same = [
        r#"[list_files(dir="/tmp", dir="/tmp")]"#,
        "<tool_call>list_files<arg_key>dir</arg_key><arg_value>/tmp</arg_value><arg_key>dir</arg_key><arg_value>/tmp</arg_value></tool_call>",
    ];
    for text in same {
        let calls = parse_text(text, &CallOptions::new());
        assert_eq!(names(&calls), [("list_files", json!({"dir": "/tmp"}))], "{text}");
        let checked = list_files().check(calls.calls[0].original.as_raw()).unwrap();
        assert_eq!(checked.report.coercions[0].kind, CoercionKind::DuplicateKey, "{text}");
    }
    // Without a repeat, the arguments stay a value.
    let calls = parse_text(r#"[list_files(dir="/tmp")]"#, &CallOptions::new());
    assert_eq!(calls.calls[0].original, OriginalArguments::Value(json!({"dir": "/tmp"})));
}

#[test]
fn a_name_given_twice_is_a_duplicate_key() {
    let texts = [
        r#"<tool_call>{"name": "list_files", "arguments": {"dir": "/tmp"}, "name": "delete_files"}</tool_call>"#,
        r#"{"name": "list_files", "arguments": {"dir": "/tmp"}, "name": "delete_files"}"#,
        r#"<tool_call>{"name": "list_files", "arguments": {"dir": "/tmp"}, "arguments": {"dir": "/"}}</tool_call>"#,
    ];
    for text in texts {
        let calls = parse_text(text, &CallOptions::new());
        assert!(calls.calls.is_empty(), "{text}: {:?}", calls.calls);
        assert_eq!(kinds(&calls), ["duplicate_key"], "{text}");
        let message = &calls.errors[0].message;
        assert!(message.contains("list_files") || message.contains("/tmp"), "{message}");
    }
    // The same name twice is the one call.
    let calls = parse_text(
        r#"<tool_call>{"name": "list_files", "arguments": {"dir": "/tmp"}, "name": "list_files"}</tool_call>"#,
        &CallOptions::new(),
    );
    assert_eq!(names(&calls), [("list_files", json!({"dir": "/tmp"}))]);

    // In a body.
    let bodies = [
        r#"{"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "list_files", "arguments": "{}", "name": "delete_files"}}]}}]}"#,
        r#"{"type": "message", "role": "assistant", "stop_reason": "tool_use", "content": [{"type": "tool_use", "id": "toolu_1", "name": "list_files", "input": {}, "name": "delete_files"}]}"#,
        r#"{"type": "message", "role": "assistant", "stop_reason": "tool_use", "content": [{"type": "tool_use", "id": "toolu_1", "name": "list_files", "input": {"dir": "/tmp", "dir": "/"}}]}"#,
        r#"{"candidates": [{"finishReason": "STOP", "content": {"parts": [{"functionCall": {"name": "list_files", "args": {"dir": "/tmp"}, "name": "delete_files"}}]}}]}"#,
    ];
    for body in bodies {
        let calls = parse_body(body.as_bytes(), &CallOptions::new()).unwrap();
        assert!(calls.calls.is_empty(), "{body}: {:?}", calls.calls);
        assert_eq!(kinds(&calls), ["duplicate_key"], "{body}");
        assert!(calls.errors[0].message.contains("twice"), "{}", calls.errors[0].message);
    }
}

// ---------------------------------------------------------------------------------------
// Closing events that disagree
// ---------------------------------------------------------------------------------------

#[test]
fn a_done_event_that_disagrees_is_an_error() {
    let added =
        json!({"type": "response.output_item.added", "output_index": 0, "item": item("call_1", "pay", "")});
    let delta = json!({"type": "response.function_call_arguments.delta", "output_index": 0, "item_id": "fc_call_1", "delta": "{\"amount\": 1}"});
    let args_done = |arguments: &str| json!({"type": "response.function_call_arguments.done", "output_index": 0, "item_id": "fc_call_1", "arguments": arguments});
    let item_done = |arguments: &str| json!({"type": "response.output_item.done", "output_index": 0, "item": item("call_1", "pay", arguments)});
    let completed = |arguments: &str| json!({"type": "response.completed", "response": {"status": "completed", "output": [item("call_1", "pay", arguments)]}});
    let agreeing = [
        added.clone(),
        delta.clone(),
        args_done("{\"amount\": 1}"),
        item_done("{\"amount\": 1}"),
        completed("{\"amount\": 1}"),
    ];
    let calls = feed(CallOptions::new(), &agreeing);
    assert_eq!(names(&calls), [("pay", json!({"amount": 1}))]);
    assert!(calls.errors.is_empty(), "{:?}", calls.errors);
    let disagreeing = [
        // `.done` against the complete deltas.
        vec![added.clone(), delta.clone(), args_done("{\"amount\": 1000}"), completed("{\"amount\": 1000}")],
        // `output_item.done` against `.done`.
        vec![added.clone(), delta.clone(), args_done("{\"amount\": 1}"), item_done("{\"amount\": 1000}")],
        // `response.completed` against `output_item.done`.
        vec![added.clone(), delta.clone(), item_done("{\"amount\": 1}"), completed("{\"amount\": 1000}")],
    ];
    for mut events in disagreeing {
        if !events.last().is_some_and(|event| event["type"] == "response.completed") {
            events.push(json!({"type": "response.completed", "response": {"status": "completed"}}));
        }
        let calls = feed(CallOptions::new(), &events);
        assert!(calls.calls.is_empty(), "{:?}", calls.calls);
        assert_eq!(kinds(&calls), ["malformed"], "{events:?}");
        let error = &calls.errors[0];
        assert_eq!((error.id.as_str(), error.name.as_deref()), ("call_1", Some("pay")));
        assert!(error.message.contains("disagree"), "{}", error.message);
    }
}

// ---------------------------------------------------------------------------------------
// Ids
// ---------------------------------------------------------------------------------------

/// A whole Anthropic message reads ids as its stream does: two `tool_use` blocks under one
/// id with another tool or other input are both errors, with the stream's message; the same
/// block twice is one call.
#[test]
fn one_anthropic_id_is_one_call_or_an_error_in_a_whole_message_too() {
    let message = |second: Value| {
        json!({"type": "message", "role": "assistant", "stop_reason": "tool_use", "content": [
            {"type": "tool_use", "id": "toolu_1", "name": "list_files", "input": {"path": "/tmp"}},
            {"type": "text", "text": "and"},
            second,
        ]})
    };
    let stream_of = |body: &Value| -> Vec<Value> {
        let mut events = vec![json!({"type": "message_start", "message": {"content": []}})];
        for (index, block) in body["content"].as_array().unwrap().iter().enumerate() {
            if block["type"] == "tool_use" {
                events.push(block_start(
                    index as u64,
                    block["id"].as_str().unwrap(),
                    block["name"].as_str().unwrap(),
                ));
                events.push(block_delta(index as u64, &block["input"].to_string()));
            } else {
                events.push(json!({"type": "content_block_start", "index": index, "content_block": {"type": "text", "text": ""}}));
                events.push(json!({"type": "content_block_delta", "index": index, "delta": {"type": "text_delta", "text": block["text"]}}));
            }
            events.push(json!({"type": "content_block_stop", "index": index}));
        }
        events.extend(message_end("tool_use"));
        events
    };
    for second in [
        json!({"type": "tool_use", "id": "toolu_1", "name": "delete_files", "input": {"path": "/tmp"}}),
        json!({"type": "tool_use", "id": "toolu_1", "name": "list_files", "input": {"path": "/"}}),
    ] {
        let body = message(second);
        let calls = parse_value(&body, &CallOptions::new()).expect("an Anthropic message");
        assert!(calls.calls.is_empty(), "{:?}", calls.calls);
        assert_eq!(kinds(&calls), ["malformed", "malformed"]);
        assert!(calls
            .errors
            .iter()
            .all(|e| e.message.contains("its id `toolu_1` was given to two tool calls")));
        let streamed = feed(CallOptions::new(), &stream_of(&body));
        let messages = |calls: &Calls| calls.errors.iter().map(|e| e.message.clone()).collect::<Vec<_>>();
        assert_eq!(messages(&calls), messages(&streamed));
    }
    let body = message(
        json!({"type": "tool_use", "id": "toolu_1", "name": "list_files", "input": {"path": "/tmp"}}),
    );
    let calls = parse_value(&body, &CallOptions::new()).expect("an Anthropic message");
    assert_eq!(names(&calls), [("list_files", json!({"path": "/tmp"}))]);
    assert!(calls.errors.is_empty(), "{:?}", calls.errors);
    assert_eq!(names(&feed(CallOptions::new(), &stream_of(&body))), names(&calls));
}

#[test]
fn one_anthropic_id_is_one_call_or_an_error() {
    let list_tmp =
        json!({"type": "tool_use", "id": "toolu_1", "name": "list_files", "input": {"path": "/tmp"}});
    // Another call under the same id: errors, never two calls.
    let mut events = vec![started_with(&list_tmp)];
    events.extend(tool_block(0, "toolu_1", "delete_files", "{\"path\": \"/\"}"));
    events.extend(message_end("tool_use"));
    let calls = feed(CallOptions::new(), &events);
    assert!(calls.calls.is_empty(), "{:?}", calls.calls);
    assert_eq!(kinds(&calls), ["malformed", "malformed"]);
    assert!(calls.errors[1].message.contains("toolu_1"), "{}", calls.errors[1].message);
    // The same call sent again: one call.
    let mut events = vec![started_with(&list_tmp)];
    events.extend(tool_block(0, "toolu_1", "list_files", "{\"path\": \"/tmp\"}"));
    events.extend(message_end("tool_use"));
    let calls = feed(CallOptions::new(), &events);
    assert_eq!(names(&calls), [("list_files", json!({"path": "/tmp"}))]);
    assert!(calls.errors.is_empty(), "{:?}", calls.errors);
}

#[test]
fn an_anthropic_call_sent_again_is_not_counted_against_the_call_limit() {
    // Programmatic tool calling sends a `tool_use` in `message_start`, then again as its
    // block: one call, as the whole body reads it, so it takes one place of `max_calls`.
    let first = json!({"type": "tool_use", "id": "toolu_1", "name": "list_files", "input": {"path": "/tmp"}});
    let mut events = vec![started_with(&first)];
    events.extend(tool_block(0, "toolu_1", "list_files", "{\"path\": \"/tmp\"}"));
    events.extend(tool_block(1, "toolu_2", "read_file", "{\"path\": \"/tmp/a\"}"));
    events.extend(message_end("tool_use"));
    let body = json!({"type": "message", "role": "assistant", "stop_reason": "tool_use", "content": [
        first,
        {"type": "tool_use", "id": "toolu_1", "name": "list_files", "input": {"path": "/tmp"}},
        {"type": "tool_use", "id": "toolu_2", "name": "read_file", "input": {"path": "/tmp/a"}},
    ]});
    for max_calls in [1, 2] {
        let options = CallOptions::new().max_calls(max_calls);
        let whole = parse_value(&body, &options).expect("an Anthropic message");
        let streamed = feed(options, &events);
        assert_eq!(names(&streamed), names(&whole), "max_calls {max_calls}");
        assert_eq!(kinds(&streamed), kinds(&whole), "max_calls {max_calls}");
    }
    let streamed = feed(CallOptions::new().max_calls(2), &events);
    assert_eq!(
        names(&streamed),
        [("list_files", json!({"path": "/tmp"})), ("read_file", json!({"path": "/tmp/a"}))]
    );
    assert!(streamed.errors.is_empty(), "{:?}", streamed.errors);
    // With room for one call, the second is the one over the limit; the repeat is not.
    assert_eq!(kinds(&feed(CallOptions::new().max_calls(1), &events)), ["too_many_calls"]);
}

#[test]
fn an_anthropic_refused_call_sent_again_is_one_error() {
    // The same call sent again (in `message_start`, then as its block) to a tool that is not
    // known: one `unknown_tool` error to answer, as the whole body gives, never a second
    // error under the same id saying two calls conflict.
    let first = json!({"type": "tool_use", "id": "toolu_1", "name": "list_files", "input": {"path": "/tmp"}});
    let mut events = vec![started_with(&first)];
    events.extend(tool_block(0, "toolu_1", "list_files", "{\"path\": \"/tmp\"}"));
    events.extend(message_end("tool_use"));
    let body = json!({"type": "message", "role": "assistant", "stop_reason": "tool_use",
        "content": [first, first]});
    let options = || CallOptions::new().tools(["read_file"]);
    let whole = parse_value(&body, &options()).expect("an Anthropic message");
    assert_eq!(kinds(&whole), ["unknown_tool"]);
    let streamed = feed(options(), &events);
    assert_eq!(kinds(&streamed), ["unknown_tool"], "{:?}", streamed.errors);
    assert_eq!(streamed.errors[0].id, "toolu_1");
    // Sent again with other input, it is still a conflict: neither is taken as meant.
    let mut events = vec![started_with(&first)];
    events.extend(tool_block(0, "toolu_1", "list_files", "{\"path\": \"/\"}"));
    events.extend(message_end("tool_use"));
    assert_eq!(kinds(&feed(options(), &events)), ["unknown_tool", "malformed"]);
}

/// A Chat Completions response cut by its length: its last call is refused alike whether
/// the whole body or its stream is read. Arguments that do not parse or are not an object
/// are what the cut left (`truncated`); a call that names no tool it can run is refused for
/// its name (`unknown_tool`, `malformed`), which the cut does not change.
#[test]
fn the_last_call_of_a_cut_chat_response_is_refused_alike_in_its_body_and_its_stream() {
    let options = || CallOptions::new().tools(["get_weather", "search"]);
    let cases = [
        ("get_weather", r#"{"city": "Paris""#, "truncated"),
        ("get_weather", "null", "truncated"),
        ("get_weather", "[1]", "truncated"),
        ("get_weather", r#"{"city": "x"} {"city": "y"}"#, "truncated"),
        ("get_weather", r#"{"city": "Paris"}"#, "truncated"),
        ("unknown_tool", "{}", "unknown_tool"),
        ("unknown_tool", r#"{"city": "#, "unknown_tool"),
        ("", "{}", "malformed"),
        // The calls a wrapper lists are not read from arguments the cut may have shortened:
        // the wrapper is the call cut, refused for its name as the stream refuses it.
        ("multi_tool_use.parallel", PARALLEL, "unknown_tool"),
    ];
    for (name, arguments, kind) in cases {
        let body = json!({"choices": [{"index": 0, "finish_reason": "length", "message": {
            "role": "assistant", "content": null,
            "tool_calls": [chat_call("call_1", "search", r#"{"q": "a"}"#), chat_call("call_2", name, arguments)],
        }}]});
        let read = parse_value(&body, &options()).expect("a Chat Completions body");
        let mut events = vec![chat_delta(0, Some("call_1"), Some("search"), r#"{"q": "a"}"#)];
        for piece in [&arguments[..arguments.len() / 2], &arguments[arguments.len() / 2..]] {
            let first = piece.as_ptr() == arguments.as_ptr();
            events.push(chat_delta(1, first.then_some("call_2"), first.then_some(name), piece));
        }
        events.push(chat_finish("length"));
        let streamed = feed(options(), &events);
        for (which, calls) in [("body", &read), ("stream", &streamed)] {
            // Nothing of a cut response runs, the whole call before the cut included.
            assert!(calls.calls.is_empty(), "{name} {arguments}: {:?}", calls.calls);
            let said: Vec<&str> = calls.errors.iter().map(|e| e.message.as_str()).collect();
            assert_eq!(kinds(calls), ["incomplete", kind], "{which} {name} {arguments}: {said:?}");
        }
    }
}

/// A `multi_tool_use.parallel` wrapper listing two calls to the known tools.
const PARALLEL: &str = r#"{"tool_uses": [{"recipient_name": "functions.get_weather", "parameters": {"city": "Oslo"}}, {"recipient_name": "functions.search", "parameters": {"q": "b"}}]}"#;

#[test]
fn a_parallel_wrapper_cut_by_a_length_stop_is_one_cut_call_in_its_body_and_its_stream() {
    // Its id is the one the assistant message holds; none of the calls it lists runs, even
    // with the completed calls asked for, as in its stream.
    let body = json!({"choices": [{"index": 0, "finish_reason": "length", "message": {"role": "assistant",
        "tool_calls": [chat_call("call_w", "multi_tool_use.parallel", PARALLEL)]}}]});
    let events =
        [chat_delta(0, Some("call_w"), Some("multi_tool_use.parallel"), PARALLEL), chat_finish("length")];
    for run in [false, true] {
        let options = || CallOptions::new().run_completed_calls(run);
        let read = parse_value(&body, &options()).expect("a Chat Completions body");
        let streamed = feed(options(), &events);
        for calls in [&read, &streamed] {
            assert!(calls.calls.is_empty(), "run_completed {run}: {:?}", calls.calls);
            assert_eq!(kinds(calls), ["truncated"], "run_completed {run}");
            assert_eq!(calls.errors[0].id, "call_w");
        }
    }
}

/// A lone surrogate escape (`"\ud800"`: half of an emoji a model's tokens split) is JSON by its
/// grammar, but no Rust string holds it and `serde_json` refuses the text. A body or a stream
/// event with one anywhere was read as prose (`auto`: no call, no error, the call lost) or
/// refused whole. It is read with U+FFFD in its place; in a call's arguments the repair is
/// recorded. Anything else wrong with the text is still refused.
#[test]
fn a_body_nested_too_deep_is_refused_not_read_as_prose() {
    // A member nested past the 128 levels a body is read to, beside a call: read as prose,
    // the call was lost without a word. Auto now refuses it as a named format does.
    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    let body = format!(
        r#"{{"choices": [{{"index": 0, "message": {{"tool_calls": [{{"id": "a", "type": "function", "function": {{"name": "f", "arguments": "{{}}"}}}}], "extra": {deep}}}, "finish_reason": "tool_calls"}}]}}"#
    );
    for format in [Format::Auto, Format::OpenAi] {
        let error = parse_body(&body, &CallOptions::new().format(format)).unwrap_err();
        assert!(matches!(error, tool_input::calls::BodyError::NotJson(_)), "{format:?}: {error:?}");
    }
    // Not JSON for another reason within those levels: prose, as before (a text reply).
    let calls = parse_body("[[[[ a note", &CallOptions::new()).unwrap();
    assert!(calls.calls.is_empty() && calls.content.is_some());
    // Far deeper: refused as well, without building (or dropping) a value as deep.
    let deeper = format!("{}{}", "[".repeat(200_000), "]".repeat(200_000));
    assert!(parse_body(&deeper, &CallOptions::new()).is_err());
}

#[test]
fn a_lone_surrogate_escape_does_not_lose_the_calls() {
    let body = r#"{"choices": [{"index": 0, "message": {"role": "assistant", "content": "hi \ud800",
        "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "f",
        "arguments": "{\"a\": \"\\ud83d\"}"}}]}, "finish_reason": "tool_calls"}]}"#;
    for format in [Format::Auto, Format::OpenAi] {
        let calls = parse_body(body, &CallOptions::new().format(format)).unwrap();
        assert_eq!(calls.format, Format::OpenAi, "{format:?}");
        assert_eq!(calls.content.as_deref(), Some("hi \u{fffd}"));
        let [call] = calls.calls.as_slice() else { panic!("{format:?}: {:?}", calls.errors) };
        assert_eq!(call.arguments["a"], "\u{fffd}");
        assert!(call.repairs.iter().any(|r| r.kind == tool_input::parse::RepairKind::LoneSurrogate));
    }
    // Not JSON for another reason as well: still refused.
    let quoted = body.replacen(r#""content": "hi \ud800""#, r#""content": 'hi \ud800'"#, 1);
    assert!(parse_body(&quoted, &CallOptions::new().format(Format::OpenAi)).is_err());
    // A stream event with one.
    let mut stream = tool_input::stream::StreamAssembler::new(CallOptions::new());
    let event = r#"{"choices": [{"index": 0, "delta": {"content": "\udc00", "tool_calls": [{"index": 0, "id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}}]}"#;
    stream.push_sse_bytes(format!("data: {event}\n\ndata: {{\"choices\": [{{\"index\": 0, \"delta\": {{}}, \"finish_reason\": \"tool_calls\"}}]}}\n\ndata: [DONE]\n\n"));
    let calls = stream.finish();
    assert_eq!((calls.calls.len(), calls.errors.len()), (1, 0), "{:?}", calls.errors);
}

// ---------------------------------------------------------------------------------------
// A call the response says the model made, with none in it
// ---------------------------------------------------------------------------------------

/// The reason of the missing call a body and its stream report (they must agree), or `None`.
fn missing_in_both(body: &Value, stream: &[Value], options: CallOptions) -> Option<String> {
    let whole = parse_value(body, &options).unwrap();
    let streamed = feed(options, stream);
    assert_eq!(whole.missing_call, streamed.missing_call, "{body}");
    assert_eq!(outcome(&whole), outcome(&streamed), "{body}");
    assert_eq!(whole.is_ok(), whole.missing_call.is_none() && whole.errors.is_empty());
    whole.missing_call.map(|missing| missing.reason)
}

#[test]
fn a_call_gemini_refused_is_reported_missing_by_body_and_stream() {
    for reason in ["MALFORMED_FUNCTION_CALL", "UNEXPECTED_TOOL_CALL"] {
        // Gemini sends the candidate with no content at all.
        let body = json!({"candidates": [{"finishReason": reason, "index": 0}]});
        let stream = [
            json!({"candidates": [{"content": {"role": "model", "parts": [{"text": ""}]}, "index": 0}]}),
            json!({"candidates": [{"finishReason": reason, "index": 0}]}),
        ];
        let got = missing_in_both(&body, &stream, CallOptions::new());
        assert_eq!(got, Some(format!("finishReason `{reason}`")));
        let calls = parse_value(&body, &CallOptions::new()).unwrap();
        let missing = calls.missing_call.unwrap();
        assert!(calls.calls.is_empty() && calls.errors.is_empty());
        assert!(missing.message.contains("the API refused it"), "{}", missing.message);
        assert!(missing.message.contains(reason), "{}", missing.message);
        assert_eq!(missing.to_string(), missing.message);
    }
    // A call the candidate did carry is answered by its id: nothing is missing.
    let part = json!({"functionCall": {"id": "g1", "name": "f", "args": {"a": 1}}});
    let body =
        json!({"candidates": [{"finishReason": "MALFORMED_FUNCTION_CALL", "content": {"parts": [part]}}]});
    let stream = [body.clone()];
    assert_eq!(missing_in_both(&body, &stream, CallOptions::new()), None);
    // Other reasons, a finished candidate, no candidate: no claim of a call (a reason about
    // the request, or about no call in particular, is a stop, not a call missing).
    for reason in ["STOP", "MAX_TOKENS", "SAFETY", "MISSING_THOUGHT_SIGNATURE", "MALFORMED_RESPONSE", "OTHER"]
    {
        let body = json!({"candidates": [{"finishReason": reason, "content": {"parts": [{"text": "Hi"}]}}]});
        assert_eq!(missing_in_both(&body, std::slice::from_ref(&body), CallOptions::new()), None, "{reason}");
    }
}

/// Gemini stops a model that called tools too many times in a row (`TOO_MANY_TOOL_CALLS`):
/// the call it was making never came, and the turn is no answer. Missing, as a refused call
/// is, in a body and a stream alike; its message asks for fewer calls, not the same again.
#[test]
fn a_gemini_candidate_stopped_for_too_many_tool_calls_is_missing_its_call() {
    let reason = "TOO_MANY_TOOL_CALLS";
    let body = json!({"candidates": [{"finishReason": reason, "index": 0}]});
    let stream = [
        json!({"candidates": [{"content": {"role": "model", "parts": [{"text": ""}]}, "index": 0}]}),
        json!({"candidates": [{"finishReason": reason, "index": 0}]}),
    ];
    let got = missing_in_both(&body, &stream, CallOptions::new());
    assert_eq!(got, Some(format!("finishReason `{reason}`")));
    let missing = parse_value(&body, &CallOptions::new()).unwrap().missing_call.unwrap();
    assert!(missing.message.contains("too many times in a row"), "{}", missing.message);
    assert!(missing.message.contains("Make fewer calls"), "{}", missing.message);
    assert!(!missing.message.contains("Call the tool again"), "{}", missing.message);
    // With its text, in several chunks: still missing, the text kept as content.
    let body = json!({"candidates": [{"finishReason": reason, "index": 0,
        "content": {"role": "model", "parts": [{"text": "Checking once more."}]}}]});
    let stream = [
        json!({"candidates": [{"content": {"role": "model", "parts": [{"text": "Checking "}]}, "index": 0}]}),
        json!({"candidates": [{"content": {"role": "model", "parts": [{"text": "once more."}]}, "finishReason": reason, "index": 0}]}),
    ];
    assert_eq!(missing_in_both(&body, &stream, CallOptions::new()), Some(format!("finishReason `{reason}`")));
    // The calls it did carry are answered by their ids, none run (the candidate was cut).
    let part = json!({"functionCall": {"id": "g1", "name": "f", "args": {"a": 1}}});
    let body = json!({"candidates": [{"finishReason": reason, "content": {"parts": [part]}}]});
    assert_eq!(missing_in_both(&body, std::slice::from_ref(&body), CallOptions::new()), None);
    let calls = parse_value(&body, &CallOptions::new()).unwrap();
    assert!(calls.calls.is_empty());
    assert_eq!(calls.errors.len(), 1);
}

#[test]
fn a_chat_choice_ended_for_a_call_without_one_is_reported_missing() {
    for reason in ["tool_calls", "function_call"] {
        for message in [
            json!({"role": "assistant", "content": null}),
            json!({"role": "assistant", "content": "", "tool_calls": []}),
            json!({"role": "assistant", "content": null, "tool_calls": null, "function_call": null}),
        ] {
            let body = json!({"choices": [{"index": 0, "finish_reason": reason, "message": message}]});
            let stream = [
                json!({"choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}}]}),
                chat_finish(reason),
                json!("[DONE]"),
            ];
            let got = missing_in_both(&body, &stream, CallOptions::new());
            assert_eq!(got, Some(format!("finish_reason `{reason}`")), "{message}");
        }
    }
    let missing = parse_value(
        &json!({"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"content": null}}]}),
        &CallOptions::new(),
    )
    .unwrap()
    .missing_call
    .unwrap();
    assert!(missing.message.contains("no call came with it"), "{}", missing.message);
    assert_eq!(missing.choice, 0);
}

#[test]
fn a_call_read_or_carried_is_not_missing() {
    // A call written into the content (a backend without a tool parser) is the call.
    let text = r#"<tool_call>{"name": "f", "arguments": {"a": 1}}</tool_call>"#;
    let body =
        json!({"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"content": text}}]});
    let stream = [
        json!({"choices": [{"index": 0, "delta": {"content": text}}]}),
        chat_finish("tool_calls"),
        json!("[DONE]"),
    ];
    assert_eq!(missing_in_both(&body, &stream, CallOptions::new()), None);
    assert_eq!(names(&parse_value(&body, &CallOptions::new()).unwrap()), [("f", json!({"a": 1}))]);
    // A call of a `custom` tool is not read here, but it is there: the program answers it.
    let custom = json!({"id": "call_c", "type": "custom", "custom": {"name": "sql", "input": "SELECT 1"}});
    let body = json!({"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"tool_calls": [custom]}}]});
    let stream = [
        json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "call_c", "type": "custom", "custom": {"name": "sql", "input": "SELECT 1"}}]}}]}),
        chat_finish("tool_calls"),
        json!("[DONE]"),
    ];
    assert_eq!(missing_in_both(&body, &stream, CallOptions::new()), None);
    // An answer is no claim of a call.
    let body = json!({"choices": [{"index": 0, "finish_reason": "stop", "message": {"content": "Hi"}}]});
    assert_eq!(missing_in_both(&body, &[chat_finish("stop")], CallOptions::new()), None);
    // A choice not read holds no calls to run: its missing call is not this response's.
    let body = json!({"choices": [
        {"index": 0, "finish_reason": "stop", "message": {"content": "Hi"}},
        {"index": 1, "finish_reason": "tool_calls", "message": {"content": null}}]});
    let stream = [json!({"choices": [
        {"index": 0, "delta": {"content": "Hi"}, "finish_reason": "stop"},
        {"index": 1, "delta": {}, "finish_reason": "tool_calls"}]})];
    assert_eq!(missing_in_both(&body, &stream, CallOptions::new()), None);
    let chosen = missing_in_both(&body, &stream, CallOptions::new().choice(1));
    assert_eq!(chosen.as_deref(), Some("finish_reason `tool_calls`"));
    let all = parse_value(&body, &CallOptions::new().all_choices(true)).unwrap();
    assert_eq!(all.missing_call.map(|missing| missing.choice), Some(1));
}

#[test]
fn a_missing_call_is_printed_beside_the_calls() {
    let body = br#"{"candidates": [{"finishReason": "MALFORMED_FUNCTION_CALL", "index": 0}]}"#;
    let json = parse_body(body, &CallOptions::new()).unwrap().to_json();
    assert_eq!(json["missing_call"]["kind"], "missing_call");
    assert_eq!(json["missing_call"]["reason"], "finishReason `MALFORMED_FUNCTION_CALL`");
    assert!(json["missing_call"]["message"]
        .as_str()
        .unwrap()
        .starts_with("Your tool call could not be read"));
    // Absent, not null, when nothing is missing: the printed shape is unchanged.
    let body = br#"{"candidates": [{"finishReason": "STOP", "content": {"parts": [{"text": "Hi"}]}}]}"#;
    let json = parse_body(body, &CallOptions::new()).unwrap().to_json();
    assert_eq!(json.as_object().unwrap().keys().collect::<Vec<_>>(), ["calls", "errors"]);
}

#[test]
fn an_anthropic_message_stopped_for_a_call_without_one_is_reported_missing() {
    let body = json!({"type": "message", "role": "assistant", "stop_reason": "tool_use",
        "content": [{"type": "text", "text": "Let me check."}]});
    let mut stream = vec![
        json!({"type": "message_start", "message": {"content": []}}),
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Let me check."}}),
        json!({"type": "content_block_stop", "index": 0}),
    ];
    stream.extend(message_end("tool_use"));
    let got = missing_in_both(&body, &stream, CallOptions::new());
    assert_eq!(got.as_deref(), Some("stop_reason `tool_use`"));
    // A server tool's block is a call, run at the provider: nothing is missing.
    let server = json!({"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {}});
    let body =
        json!({"type": "message", "role": "assistant", "stop_reason": "tool_use", "content": [server]});
    let mut stream = vec![
        json!({"type": "message_start", "message": {"content": []}}),
        json!({"type": "content_block_start", "index": 0, "content_block": server}),
        json!({"type": "content_block_stop", "index": 0}),
    ];
    stream.extend(message_end("tool_use"));
    assert_eq!(missing_in_both(&body, &stream, CallOptions::new()), None);
    // An answer is no claim.
    let body = json!({"type": "message", "role": "assistant", "stop_reason": "end_turn",
        "content": [{"type": "text", "text": "Hi"}]});
    assert_eq!(missing_in_both(&body, &[], CallOptions::new()), None);
}

// ---------------------------------------------------------------------------------------
// One id on two calls, in every format that sends ids
// ---------------------------------------------------------------------------------------

#[test]
fn a_reused_id_runs_its_first_call_and_answers_the_other_with_an_error() {
    let options = CallOptions::new();
    // Chat Completions: two parallel calls under one id (some compatible servers do this).
    let body = json!({"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"tool_calls": [
        chat_call("call_0", "get_weather", "{\"city\": \"Paris\"}"),
        chat_call("call_0", "get_time", "{\"zone\": \"CET\"}")]}}]});
    let stream = [
        chat_delta(0, Some("call_0"), Some("get_weather"), "{\"city\": \"Paris\"}"),
        chat_delta(1, Some("call_0"), Some("get_time"), "{\"zone\": \"CET\"}"),
        chat_finish("tool_calls"),
        json!("[DONE]"),
    ];
    let whole = parse_value(&body, &options).unwrap();
    let streamed = feed(options.clone(), &stream);
    let expected =
        [("call".to_owned(), "get_weather".to_owned()), ("malformed".to_owned(), "get_time".to_owned())];
    assert_eq!(outcome(&whole), expected);
    assert_eq!(outcome(&streamed), expected);
    let error = &whole.errors[0];
    assert_eq!((error.id.as_str(), error.index), ("call_0", 1));
    assert_eq!(
        error.message,
        "The tool call to `get_time` was not run: its id `call_0` was given to an earlier tool call of the response, so its result could not be told from that call's. Call the tool again."
    );
    assert_eq!(streamed.errors[0].message, error.message);

    // The same call sent twice under its id is read once.
    let twice = json!({"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"tool_calls": [
        chat_call("call_0", "f", "{\"a\": 1}"), chat_call("call_0", "f", "{\"a\": 1}")]}}]});
    let calls = parse_value(&twice, &options).unwrap();
    assert_eq!(outcome(&calls), [("call".to_owned(), "f".to_owned())]);

    // Responses: two items with one `call_id`.
    let output = [item("call_r", "f", "{}"), item("call_r", "g", "{}")];
    let body = json!({"object": "response", "status": "completed", "output": output});
    let mut stream = Vec::new();
    for (n, item) in output.iter().enumerate() {
        stream.push(json!({"type": "response.output_item.added", "output_index": n, "item": item}));
        stream.push(json!({"type": "response.output_item.done", "output_index": n, "item": item}));
    }
    stream.push(json!({"type": "response.completed", "response": body.clone()}));
    let expected = [("call".to_owned(), "f".to_owned()), ("malformed".to_owned(), "g".to_owned())];
    assert_eq!(outcome(&parse_value(&body, &options).unwrap()), expected);
    assert_eq!(outcome(&feed(options.clone(), &stream)), expected);

    // Gemini: two parts with one `id`.
    let part = |name: &str| json!({"functionCall": {"id": "g0", "name": name, "args": {}}});
    let body =
        json!({"candidates": [{"finishReason": "STOP", "content": {"parts": [part("f"), part("g")]}}]});
    let stream = [
        json!({"candidates": [{"content": {"parts": [part("f")]}}]}),
        json!({"candidates": [{"content": {"parts": [part("g")]}, "finishReason": "STOP"}]}),
    ];
    assert_eq!(outcome(&parse_value(&body, &options).unwrap()), expected);
    assert_eq!(outcome(&feed(options.clone(), &stream)), expected);

    // Text: Kimi's ids, written by the model.
    let text = "<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_call_begin|>functions.g:0<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|>";
    let calls = parse_text(text, &options);
    assert_eq!(outcome(&calls), [("call".to_owned(), "f".to_owned()), ("call".to_owned(), "g".to_owned())]);

    // Ids generated for calls sent without one are never shared.
    let body = json!({"message": {"role": "assistant", "tool_calls": [
        {"function": {"name": "f", "arguments": {}}}, {"function": {"name": "f", "arguments": {}}}]}, "done": true});
    assert_eq!(parse_value(&body, &options).unwrap().calls.len(), 2);

    // A call cut by a length stop is no call under its id: the body and the stream agree.
    let body = json!({"choices": [{"index": 0, "finish_reason": "length", "message": {"tool_calls": [
        chat_call("call_0", "f", "{}"), chat_call("call_0", "g", "{\"a\": ")]}}]});
    let stream = [
        chat_delta(0, Some("call_0"), Some("f"), "{}"),
        chat_delta(1, Some("call_0"), Some("g"), "{\"a\": "),
        chat_finish("length"),
        json!("[DONE]"),
    ];
    assert_eq!(outcome(&parse_value(&body, &options).unwrap()), outcome(&feed(options.clone(), &stream)));
}

/// Two calls under one id: in Chat Completions (and Responses, Gemini) the first is a call
/// the model made (servers give parallel calls one id) and runs; in Anthropic, whose ids the
/// API makes one per call, the two contradict themselves about one call, and neither runs.
/// The difference is documented (README, `calls::anthropic`); both answer every block.
#[test]
fn a_reused_id_runs_the_first_call_except_where_the_api_makes_the_ids() {
    let options = CallOptions::new();
    let chat = json!({"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"tool_calls": [
        chat_call("dup", "f", "{\"a\": 1}"), chat_call("dup", "f", "{\"a\": 2}")]}}]});
    let anthropic = json!({"type": "message", "role": "assistant", "stop_reason": "tool_use", "content": [
        {"type": "tool_use", "id": "dup", "name": "f", "input": {"a": 1}},
        {"type": "tool_use", "id": "dup", "name": "f", "input": {"a": 2}}]});
    let chat = parse_value(&chat, &options).unwrap();
    let anthropic = parse_value(&anthropic, &options).unwrap();
    assert_eq!(
        outcome(&chat),
        [("call".to_owned(), "f".to_owned()), ("malformed".to_owned(), "f".to_owned())]
    );
    assert_eq!(
        outcome(&anthropic),
        [("malformed".to_owned(), "f".to_owned()), ("malformed".to_owned(), "f".to_owned())]
    );
    // Either way nothing the model sent goes unanswered: one entry per block, in order.
    assert_eq!(chat.in_order().count(), 2);
    assert_eq!(anthropic.in_order().count(), 2);
}

/// A whole Chat Completions body with `finish_reason: null` (OpenAI's API once sent it, and
/// Ollama's compatible endpoint did: openai/openai-openapi#20, ollama/ollama#7547) arrived
/// whole: no stop is reported, so its calls run. A stream is another matter: `null` there
/// means "not yet", and a stream that ends on it was cut off.
#[test]
fn a_whole_body_with_a_null_finish_reason_runs_its_calls() {
    let body = json!({"object": "chat.completion", "choices": [{"index": 0, "finish_reason": null,
        "message": {"role": "assistant", "tool_calls": [chat_call("call_a", "f", "{\"a\": 1}")]}}]});
    let calls = parse_value(&body, &CallOptions::new()).unwrap();
    assert_eq!(names(&calls), [("f", json!({"a": 1}))]);
    assert!(calls.is_ok());
    let stream = [chat_delta(0, Some("call_a"), Some("f"), "{\"a\": 1}")];
    assert_eq!(kinds(&feed(CallOptions::new(), &stream)), ["truncated"]);
}

/// SGLang streams `"finish_reason": ""` on every chunk before the last (sgl-project/sglang#3912),
/// where others send `null`: it is no finish, so the calls after it are the response's.
#[test]
fn an_empty_finish_reason_is_none() {
    let chunk = |delta: Value, reason: &str| {
        json!({"object": "chat.completion.chunk", "choices": [{"index": 0, "delta": delta, "logprobs": null,
            "finish_reason": reason, "matched_stop": null}]})
    };
    let stream = [
        chunk(json!({"role": "assistant", "content": "", "tool_calls": null}), ""),
        chunk(
            json!({"tool_calls": [{"index": 0, "id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{\"a\": "}}]}),
            "",
        ),
        chunk(json!({"tool_calls": [{"index": 0, "function": {"arguments": "1}"}}]}), ""),
        chunk(json!({}), "tool_calls"),
    ];
    let streamed = feed(CallOptions::new(), &stream);
    assert_eq!(names(&streamed), [("f", json!({"a": 1}))]);
    assert!(streamed.is_ok(), "{:?}", streamed.errors);
    // A stream that ends on it was cut off, as one that ends on `null`.
    assert_eq!(kinds(&feed(CallOptions::new(), &stream[..3])), ["truncated"]);
    // A whole body with it reports no stop, as one with `null`.
    let body = json!({"choices": [{"index": 0, "finish_reason": "", "message": {"tool_calls": [chat_call("call_1", "f", "{\"a\": 1}")]}}]});
    assert_eq!(names(&parse_value(&body, &CallOptions::new()).unwrap()), [("f", json!({"a": 1}))]);
}

/// A Gemini part with `"functionCall": null` (a proxy that writes every field of the SDK's
/// part) is no call, in a body as in a stream; one that is not an object is an error in both.
#[test]
fn a_null_gemini_function_call_is_no_call() {
    let response = |part: Value| json!({"candidates": [{"finishReason": "STOP", "content": {"role": "model", "parts": [part]}}]});
    let body = response(json!({"text": "Hi", "functionCall": null, "thought": null}));
    let whole = parse_value(&body, &CallOptions::new()).unwrap();
    let streamed = feed(CallOptions::new(), std::slice::from_ref(&body));
    for calls in [&whole, &streamed] {
        assert!(calls.calls.is_empty() && calls.errors.is_empty(), "{:?}", calls.errors);
        assert_eq!(calls.content.as_deref(), Some("Hi"));
        assert!(calls.missing_call.is_none());
    }
    let body = response(json!({"functionCall": "get_weather"}));
    let whole = parse_value(&body, &CallOptions::new()).unwrap();
    let streamed = feed(CallOptions::new(), std::slice::from_ref(&body));
    assert_eq!(kinds(&whole), ["malformed"]);
    assert_eq!(kinds(&streamed), ["malformed"]);
}
