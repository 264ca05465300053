//! Hostile streams and bodies (issue 13): nothing lost, merged or run from a cut response.
//!
//! - a stream cut off (no end marker, an error) runs none of its calls; a length stop reads
//!   alike in a whole body and a stream, on every backend;
//! - the same id on two indexes is two calls, never one merged or one dropped;
//! - every event that cannot be read is an error naming it (recorded Gemini and Anthropic
//!   streams damaged), a byte-order mark is skipped, CR, LF and CRLF all end lines;
//! - calls of `choices[1..]` are reported (or read, tagged), never dropped;
//! - a text stream with one `]` too many agrees with the whole text;
//! - frames are read as the bytes arrive, and a stream has a size limit of its own.

#[path = "../../suite/tests/common/mod.rs"]
mod common;
mod stream_support;

use common::provider_cases as cases;
use serde_json::{json, Value};
use stream_support::{chat_delta, chat_finish, feed, kinds, names, sse};
use tool_input::calls::{
    parse_text, parse_value, CallErrorKind, CallOptions, Calls, Format, OriginalArguments,
};
use tool_input::stream::StreamAssembler;

/// The SSE body of events, with `event:` names where the API has them.
fn sse_body(events: &[Value]) -> String {
    let mut body = String::new();
    for event in events {
        if let Some(kind) = event.get("type").and_then(Value::as_str) {
            body.push_str(&format!("event: {kind}\n"));
        }
        body.push_str(&format!("data: {event}\n\n"));
    }
    body
}

/// What must agree between a body and a stream: each attempt's kind, id and name, in order.
fn outcome(calls: &Calls) -> Vec<(String, String, String)> {
    calls
        .in_order()
        .map(|entry| match entry {
            Ok(call) => ("call".to_owned(), call.id.clone(), call.name.clone()),
            Err(error) => {
                (error.kind.code().to_owned(), error.id.clone(), error.name.clone().unwrap_or_default())
            }
        })
        .collect()
}

// ---------------------------------------------------------------------------------------
// Cut responses
// ---------------------------------------------------------------------------------------

/// Each backend's length stop, as a body and as the stream of the same calls: two calls,
/// the first whole, the second the one the stop cut.
fn length_stops() -> Vec<(&'static str, Value, Vec<Value>)> {
    let chat_body = json!({"choices": [{"index": 0, "finish_reason": "length", "message": {"role": "assistant", "tool_calls": [
        {"id": "call_a", "type": "function", "function": {"name": "f", "arguments": "{\"a\": 1}"}},
        {"id": "call_b", "type": "function", "function": {"name": "g", "arguments": "{\"b\": \"cu"}}]}}]});
    let chat_stream = vec![
        chat_delta(0, Some("call_a"), Some("f"), "{\"a\": 1}"),
        chat_delta(1, Some("call_b"), Some("g"), "{\"b\": \"cu"),
        chat_finish("length"),
        json!("[DONE]"),
    ];
    // Anthropic sends every block's stop, even the one max_tokens cut.
    let anthropic_body = json!({"type": "message", "role": "assistant", "stop_reason": "max_tokens", "content": [
        {"type": "tool_use", "id": "toolu_a", "name": "f", "input": {"a": 1}},
        {"type": "tool_use", "id": "toolu_b", "name": "g", "input": {"b": "cu"}}]});
    let block = |index: u64, id: &str, name: &str, json: &str| {
        vec![
            json!({"type": "content_block_start", "index": index, "content_block": {"type": "tool_use", "id": id, "name": name, "input": {}}}),
            json!({"type": "content_block_delta", "index": index, "delta": {"type": "input_json_delta", "partial_json": json}}),
            json!({"type": "content_block_stop", "index": index}),
        ]
    };
    let mut anthropic_stream = vec![json!({"type": "message_start", "message": {"content": []}})];
    anthropic_stream.extend(block(0, "toolu_a", "f", "{\"a\": 1}"));
    anthropic_stream.extend(block(1, "toolu_b", "g", "{\"b\": \"cu\"}"));
    anthropic_stream.push(json!({"type": "message_delta", "delta": {"stop_reason": "max_tokens"}}));
    anthropic_stream.push(json!({"type": "message_stop"}));
    let gemini_body = json!({"candidates": [{"finishReason": "MAX_TOKENS", "content": {"parts": [
        {"functionCall": {"id": "ga", "name": "f", "args": {"a": 1}}},
        {"functionCall": {"id": "gb", "name": "g", "args": {"b": "cu"}}}]}}]});
    let gemini_stream = vec![
        json!({"candidates": [{"content": {"parts": [{"functionCall": {"id": "ga", "name": "f", "args": {"a": 1}}}]}}]}),
        json!({"candidates": [{"content": {"parts": [{"functionCall": {"id": "gb", "name": "g", "args": {"b": "cu"}}}]}, "finishReason": "MAX_TOKENS"}]}),
    ];
    let item = |id: &str, name: &str, arguments: &str| json!({"type": "function_call", "id": format!("fc_{id}"), "call_id": id, "name": name, "arguments": arguments});
    let responses_body = json!({"object": "response", "status": "incomplete", "incomplete_details": {"reason": "max_output_tokens"},
        "output": [item("call_a", "f", "{\"a\": 1}"), item("call_b", "g", "{\"b\": \"cu")]});
    let responses_stream = vec![
        json!({"type": "response.output_item.added", "output_index": 0, "item": item("call_a", "f", "")}),
        json!({"type": "response.function_call_arguments.delta", "output_index": 0, "item_id": "fc_call_a", "delta": "{\"a\": 1}"}),
        json!({"type": "response.output_item.done", "output_index": 0, "item": item("call_a", "f", "{\"a\": 1}")}),
        json!({"type": "response.output_item.added", "output_index": 1, "item": item("call_b", "g", "")}),
        json!({"type": "response.function_call_arguments.delta", "output_index": 1, "item_id": "fc_call_b", "delta": "{\"b\": \"cu"}),
        json!({"type": "response.incomplete", "response": {"status": "incomplete", "incomplete_details": {"reason": "max_output_tokens"}}}),
    ];
    let ollama_call =
        |name: &str, arguments: Value| json!({"function": {"name": name, "arguments": arguments}});
    let ollama_body = json!({"message": {"role": "assistant", "content": "", "tool_calls": [
        ollama_call("f", json!({"a": 1})), ollama_call("g", json!({"b": "cu"}))]}, "done": true, "done_reason": "length"});
    let ollama_stream = vec![
        json!({"message": {"role": "assistant", "content": "", "tool_calls": [ollama_call("f", json!({"a": 1}))]}, "done": false}),
        json!({"message": {"role": "assistant", "content": "", "tool_calls": [ollama_call("g", json!({"b": "cu"}))]}, "done": false}),
        json!({"message": {"role": "assistant", "content": ""}, "done": true, "done_reason": "length"}),
    ];
    vec![
        ("openai", chat_body, chat_stream),
        ("anthropic", anthropic_body, anthropic_stream),
        ("gemini", gemini_body, gemini_stream),
        ("responses", responses_body, responses_stream),
        ("ollama", ollama_body, ollama_stream),
    ]
}

#[test]
fn a_length_stop_gives_the_same_answer_in_a_body_and_a_stream() {
    for (backend, body, stream) in length_stops() {
        let format: Format = backend.parse().unwrap();
        for run in [false, true] {
            let options = CallOptions::new().format(format).run_completed_calls(run);
            let whole = parse_value(&body, &options).unwrap();
            let streamed = feed(options.clone(), &stream);
            let via_sse = sse(options, sse_body(&stream).as_bytes());
            // Generated ids (Ollama sends none) differ: compare kinds and names there.
            let strip = |calls: &Calls| -> Vec<(String, String)> {
                outcome(calls).into_iter().map(|(kind, _, name)| (kind, name)).collect()
            };
            assert_eq!(strip(&streamed), strip(&whole), "{backend}, run_completed {run}");
            assert_eq!(strip(&via_sse), strip(&whole), "{backend} as SSE, run_completed {run}");
            if backend != "ollama" {
                assert_eq!(outcome(&streamed), outcome(&whole), "{backend}, run_completed {run}");
            }
            if run {
                assert_eq!(names(&whole), [("f", json!({"a": 1}))], "{backend}");
                assert_eq!(kinds(&whole), ["truncated"], "{backend}");
            } else {
                assert!(whole.calls.is_empty(), "{backend}");
                assert_eq!(kinds(&whole), ["incomplete", "truncated"], "{backend}");
                // The completed call keeps its arguments on the record.
                let kept = &whole.errors[0];
                assert_eq!(kept.name.as_deref(), Some("f"));
                assert_ne!(kept.original, OriginalArguments::Absent, "{backend}");
                assert!(kept.message.contains("cut off"), "{}", kept.message);
                assert_eq!(streamed.errors[0].kind, CallErrorKind::Incomplete);
            }
        }
    }
}

#[test]
fn a_stream_without_its_end_marker_runs_nothing() {
    // Each backend's stream without its last event(s): the end marker is gone.
    for (backend, _, stream) in length_stops() {
        let format: Format = backend.parse().unwrap();
        let cut: Vec<Value> = match backend {
            "openai" => stream[..2].to_vec(),
            "anthropic" => stream[..4].to_vec(),
            "gemini" => stream[..1].to_vec(),
            "responses" => stream[..3].to_vec(),
            _ => stream[..1].to_vec(),
        };
        let calls = feed(CallOptions::new().format(format), &cut);
        assert!(calls.calls.is_empty(), "{backend}: {:?}", calls.calls);
        assert!(!calls.errors.is_empty(), "{backend}");
        assert!(calls.errors.iter().all(|error| matches!(
            error.kind,
            CallErrorKind::Incomplete | CallErrorKind::Arguments(tool_input::RejectionKind::Truncated)
        )));
        assert_eq!(calls.errors[0].name.as_deref(), Some("f"), "{backend}");
        // Asked for, the call that had completed runs.
        let calls = feed(CallOptions::new().format(format).run_completed_calls(true), &cut);
        assert_eq!(names(&calls), [("f", json!({"a": 1}))], "{backend}");
    }
    // A call followed by the next one, its arguments "" (read as {}), in a cut stream: not
    // returned as a call.
    let calls = feed(
        CallOptions::new(),
        &[
            chat_delta(0, Some("a"), Some("delete_everything"), ""),
            chat_delta(1, Some("b"), Some("g"), "{\"x\""),
        ],
    );
    assert!(calls.calls.is_empty());
    assert_eq!(kinds(&calls), ["incomplete", "truncated"]);
}

/// Calls that start in one chunk are not written one after another: a call that received no
/// argument before the next one started in the same chunk was not seen to end, and a stream
/// cut there runs it not even when completed calls are asked for. A call whose arguments
/// came whole in that chunk (as some servers send every call) still runs.
#[test]
fn calls_started_in_one_chunk_are_not_complete_for_it() {
    let chunk = |calls: Value| json!({"choices": [{"index": 0, "delta": {"tool_calls": calls}}]});
    let call = |index: u64, id: &str, name: &str, arguments: &str| json!({"index": index, "id": id, "type": "function", "function": {"name": name, "arguments": arguments}});
    let options = CallOptions::new().run_completed_calls(true);
    let both_empty = [chunk(json!([call(0, "a", "delete_file", ""), call(1, "b", "g", "")]))];
    let calls = feed(options.clone(), &both_empty);
    assert!(calls.calls.is_empty(), "{:?}", names(&calls));
    // One event earlier, the same first call was seen to end when the next one started.
    let apart = [chunk(json!([call(0, "a", "delete_file", "")])), chunk(json!([call(1, "b", "g", "")]))];
    assert_eq!(names(&feed(options.clone(), &apart)), [("delete_file", json!({}))]);
    // Whole calls in one chunk: the first is whole, the last may not be.
    let whole = [chunk(json!([call(0, "a", "f", "{\"a\": 1}"), call(1, "b", "g", "{\"b\": 2}")]))];
    assert_eq!(names(&feed(options, &whole)), [("f", json!({"a": 1}))]);
}

#[test]
fn an_error_chunk_cuts_a_gemini_or_ollama_stream() {
    // Gemini and Ollama send an error as a chunk holding an `error` object, as Chat
    // Completions does: mid-stream, then the rest of a response that looks complete, it says
    // the response failed, so none of its calls runs (unless asked), and the error is the
    // reason given.
    let gemini_call = |name: &str| {
        json!({"candidates": [{"content": {"role": "model", "parts": [
            {"functionCall": {"name": name, "args": {"a": 1}}}]}, "index": 0}]})
    };
    let gemini_stop = json!({"candidates": [{"content": {"role": "model", "parts": [{"text": ""}]},
        "finishReason": "STOP", "index": 0}]});
    let ollama_call = |name: &str| {
        json!({"message": {"role": "assistant", "content": "",
            "tool_calls": [{"function": {"name": name, "arguments": {"a": 1}}}]}, "done": false})
    };
    let ollama_done =
        json!({"message": {"role": "assistant", "content": ""}, "done": true, "done_reason": "stop"});
    let cases = [
        (
            "gemini",
            vec![
                gemini_call("f"),
                json!({"error": {"code": 500, "message": "Internal error", "status": "INTERNAL"}}),
                gemini_call("g"),
                gemini_stop.clone(),
            ],
        ),
        (
            "ollama",
            vec![
                ollama_call("f"),
                json!({"error": "an error was encountered while running the model"}),
                ollama_call("g"),
                ollama_done.clone(),
            ],
        ),
    ];
    for (backend, events) in cases {
        for format in [backend.parse::<Format>().unwrap(), Format::Auto] {
            let calls = feed(CallOptions::new().format(format), &events);
            assert!(calls.calls.is_empty(), "{backend} ({format}): {:?}", names(&calls));
            assert_eq!(kinds(&calls), ["incomplete", "incomplete"], "{backend} ({format})");
            assert!(
                calls.errors[0].message.contains("an error event"),
                "{backend}: {}",
                calls.errors[0].message
            );
            // Asked for, the calls that arrived whole run, as after any other cut.
            let calls = feed(CallOptions::new().format(format).run_completed_calls(true), &events);
            assert_eq!(names(&calls), [("f", json!({"a": 1})), ("g", json!({"a": 1}))], "{backend}");
        }
    }
    // A Gemini call streaming its arguments (`partialArgs`) when the error comes is cut off.
    let events = [
        json!({"candidates": [{"content": {"parts": [{"functionCall": {"name": "write", "willContinue": true}}]}}]}),
        json!({"candidates": [{"content": {"parts": [{"functionCall": {"partialArgs": [
            {"jsonPath": "$.text", "stringValue": "Dear", "willContinue": true}], "willContinue": true}}]}}]}),
        json!({"error": {"code": 503, "message": "The model is overloaded.", "status": "UNAVAILABLE"}}),
        json!({"candidates": [{"content": {"parts": [{"text": ""}]}, "finishReason": "STOP"}]}),
    ];
    let calls = feed(CallOptions::new().run_completed_calls(true), &events);
    assert!(calls.calls.is_empty(), "{:?}", names(&calls));
    assert_eq!(kinds(&calls), ["truncated"]);
}

#[test]
fn an_error_event_before_the_format_is_known_still_cuts_the_response() {
    // With the format left to detect (`Format::Auto`), an error event that comes first,
    // before any event of a known shape, says the response that follows failed, as it would
    // later on.
    let anthropic = [
        json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}),
        json!({"type": "message_start", "message": {"id": "msg_1", "type": "message", "role": "assistant", "content": []}}),
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": "{\"a\": 1}"}}),
        json!({"type": "content_block_stop", "index": 0}),
        json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}}),
        json!({"type": "message_stop"}),
    ];
    let responses = [
        json!({"type": "error", "code": "server_error", "message": "The server had an error"}),
        json!({"type": "response.output_item.added", "output_index": 0, "item": {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "f", "arguments": ""}}),
        json!({"type": "response.function_call_arguments.done", "output_index": 0, "item_id": "fc_1", "arguments": "{\"a\": 1}"}),
        json!({"type": "response.completed", "response": {"status": "completed"}}),
    ];
    let chat = [
        json!({"error": {"message": "overloaded", "type": "server_error"}}),
        chat_delta(0, Some("call_1"), Some("f"), "{\"a\": 1}"),
        chat_finish("tool_calls"),
    ];
    for events in [&anthropic[..], &responses[..], &chat[..], &gemini_after_an_error()[..]] {
        let calls = feed(CallOptions::new(), events);
        assert!(calls.calls.is_empty(), "{:?} after {}", names(&calls), events[0]);
        assert_eq!(kinds(&calls), ["incomplete"], "after {}", events[0]);
        assert!(calls.errors[0].message.contains("an error event"), "{}", calls.errors[0].message);
    }
}

/// A Gemini stream whose first chunk is an error.
fn gemini_after_an_error() -> Vec<Value> {
    vec![
        json!({"error": {"code": 500, "message": "Internal error", "status": "INTERNAL"}}),
        json!({"candidates": [{"content": {"role": "model", "parts": [
            {"functionCall": {"name": "f", "args": {"a": 1}}}]}, "finishReason": "STOP", "index": 0}]}),
    ]
}

#[test]
fn a_recorded_stream_cut_at_every_event_never_returns_a_call() {
    for file in common::PROVIDER_FILES {
        for case in cases(file) {
            let Some(chunks) = case.get("chunks").and_then(Value::as_array) else { continue };
            let format = common::format_of(case["api"].as_str().unwrap_or(""));
            if format == Format::Text || case["expected_calls"].as_array().is_none_or(Vec::is_empty) {
                continue;
            }
            let whole = feed(CallOptions::new().format(format), chunks);
            if whole.calls.is_empty() {
                continue;
            }
            // Cut before the event that ends the response (and every earlier one).
            let marker =
                chunks.iter().position(|event| ends_the_response(format, event)).unwrap_or(chunks.len());
            for end in 1..marker {
                let calls = feed(CallOptions::new().format(format), &chunks[..end]);
                let ended = calls.calls.len();
                assert!(ended == 0, "{}: cut after {end} events gave {ended} calls", case["note"]);
            }
        }
    }
}

/// Does this event end the response (its end marker, per backend)?
fn ends_the_response(format: Format, event: &Value) -> bool {
    let reasons = |list: &str, key: &str| {
        event[list].as_array().is_some_and(|items| items.iter().any(|item| item[key].is_string()))
    };
    match format {
        Format::OpenAi => event == "[DONE]" || reasons("choices", "finish_reason"),
        Format::Gemini => {
            reasons("candidates", "finishReason")
                || event
                    .as_array()
                    .is_some_and(|items| items.iter().any(|item| ends_the_response(format, item)))
        }
        Format::Anthropic => event["type"] == "message_stop",
        Format::Responses => {
            matches!(
                event["type"].as_str(),
                Some("response.completed" | "response.incomplete" | "response.failed")
            )
        }
        _ => event["done"] == true,
    }
}

// ---------------------------------------------------------------------------------------
// Ids
// ---------------------------------------------------------------------------------------

/// The second call under a reused id: its kind, name and arguments as sent, as a value.
fn reused(calls: &Calls) -> Vec<(&'static str, Option<&str>, Value)> {
    let value = |original: &tool_input::calls::OriginalArguments| match original.to_value() {
        Value::String(text) => serde_json::from_str(&text).unwrap_or(Value::String(text)),
        other => other,
    };
    calls
        .errors
        .iter()
        .map(|error| (error.kind.code(), error.name.as_deref(), value(&error.original)))
        .collect()
}

#[test]
fn the_same_id_on_two_indexes_is_two_calls() {
    // Interleaved: never `f` with `g`'s arguments, never `delete_everything` dropped: it is
    // the second call under the id, answered with an error (its result could not be told
    // from the first's), its own arguments kept.
    let events = [
        chat_delta(0, Some("dup"), Some("f"), "{\"a\": "),
        chat_delta(1, Some("dup"), Some("delete_everything"), "{\"path\": "),
        chat_delta(0, Some("dup"), None, "1}"),
        chat_delta(1, Some("dup"), None, "\"/\"}"),
        chat_finish("tool_calls"),
    ];
    let calls = feed(CallOptions::new(), &events);
    assert_eq!(names(&calls), [("f", json!({"a": 1}))]);
    assert_eq!(reused(&calls), [("malformed", Some("delete_everything"), json!({"path": "/"}))]);
    // One after the other, the id repeated on every delta of each.
    let events = [
        chat_delta(0, Some("dup"), Some("f"), "{\"a\": 1}"),
        chat_delta(1, Some("dup"), Some("delete_everything"), "{}"),
        chat_delta(1, Some("dup"), None, ""),
        chat_finish("tool_calls"),
    ];
    let calls = feed(CallOptions::new(), &events);
    assert_eq!(names(&calls), [("f", json!({"a": 1}))]);
    assert_eq!(reused(&calls), [("malformed", Some("delete_everything"), json!({}))]);
    // As the whole body reads the same calls.
    let body = json!({"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"tool_calls": [
        {"id": "dup", "type": "function", "function": {"name": "f", "arguments": "{\"a\": 1}"}},
        {"id": "dup", "type": "function", "function": {"name": "delete_everything", "arguments": "{}"}}]}}]});
    assert_eq!(outcome(&parse_value(&body, &CallOptions::new()).unwrap()), outcome(&calls));

    // The same id and no index (or the same index), another tool named after the first one's
    // arguments began: another call, never a name dropped.
    for index in [None, Some(0)] {
        let delta = |id: &str, name: Option<&str>, arguments: &str| {
            let mut event = chat_delta(index.unwrap_or(0), Some(id), name, arguments);
            if index.is_none() {
                event["choices"][0]["delta"]["tool_calls"][0].as_object_mut().unwrap().remove("index");
            }
            event
        };
        let events = [
            delta("dup", Some("f"), "{\"a\": 1}"),
            delta("dup", Some("delete_everything"), "{\"path\": \"/\"}"),
            chat_finish("tool_calls"),
        ];
        let calls = feed(CallOptions::new(), &events);
        assert_eq!(names(&calls), [("f", json!({"a": 1}))], "{index:?}");
        assert_eq!(
            reused(&calls),
            [("malformed", Some("delete_everything"), json!({"path": "/"}))],
            "{index:?}"
        );
    }

    // Responses: one item id on two output indexes.
    let item = |name: &str| json!({"type": "function_call", "id": "fc_dup", "call_id": format!("call_{name}"), "name": name, "arguments": ""});
    let delta = |output: u64, text: &str| json!({"type": "response.function_call_arguments.delta", "output_index": output, "item_id": "fc_dup", "delta": text});
    let events = [
        json!({"type": "response.output_item.added", "output_index": 0, "item": item("f")}),
        json!({"type": "response.output_item.added", "output_index": 1, "item": item("g")}),
        delta(0, "{\"a\": 1}"),
        delta(1, "{\"b\": 2}"),
        json!({"type": "response.completed", "response": {"status": "completed"}}),
    ];
    let calls = feed(CallOptions::new(), &events);
    assert_eq!(names(&calls), [("f", json!({"a": 1})), ("g", json!({"b": 2}))]);
}

/// A Chat Completions chunk with one tool-call delta and no `index`, its arguments as given
/// (text or an object).
fn unindexed(id: &str, name: Option<&str>, arguments: Value) -> Value {
    let mut call = json!({"id": id, "type": "function", "function": {"arguments": arguments}});
    if let Some(name) = name {
        call["function"]["name"] = json!(name);
    }
    json!({"choices": [{"index": 0, "delta": {"tool_calls": [call]}, "finish_reason": null}]})
}

/// The body of the same calls, in one message.
fn body_of(calls: &[(&str, &str, Value)]) -> Value {
    let calls: Vec<Value> = calls
        .iter()
        .map(|(id, name, arguments)| json!({"id": id, "type": "function", "function": {"name": name, "arguments": arguments}}))
        .collect();
    json!({"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"tool_calls": calls}}]})
}

#[test]
fn the_same_tool_twice_under_one_id_without_index_reads_as_the_body() {
    let options = CallOptions::new();
    // Two calls to one tool under one id, each whole in its delta, no `index`: the second
    // begins a value after the first one's ended, so it is another call, as in the body
    // (the first runs, the second is answered with an error), whether the arguments come
    // as text or as objects. Before, the text was merged into one `parse` error, and an
    // object replaced the first call's without a word.
    for (first, second) in [(json!("{\"a\": 1}"), json!("{\"a\": 2}")), (json!({"a": 1}), json!({"a": 2}))] {
        let stream = [
            unindexed("dup", Some("f"), first.clone()),
            unindexed("dup", Some("f"), second.clone()),
            chat_finish("tool_calls"),
        ];
        let streamed = feed(options.clone(), &stream);
        let whole = parse_value(&body_of(&[("dup", "f", first), ("dup", "f", second)]), &options).unwrap();
        assert_eq!(outcome(&streamed), outcome(&whole));
        assert_eq!(names(&streamed), [("f", json!({"a": 1}))]);
        assert_eq!(reused(&streamed), [("malformed", Some("f"), json!({"a": 2}))]);
        assert_eq!(streamed.errors[0].message, whole.errors[0].message);
    }
    // The same call sent twice under its id is read once, in both.
    let stream = [
        unindexed("dup", Some("f"), json!("{\"a\": 1}")),
        unindexed("dup", Some("f"), json!("{\"a\": 1}")),
        chat_finish("tool_calls"),
    ];
    let streamed = feed(options.clone(), &stream);
    assert_eq!(names(&streamed), [("f", json!({"a": 1}))]);
    assert!(streamed.is_ok(), "{:?}", streamed.errors);

    // A server that repeats the id and the name on every chunk (BerriAI/litellm#20480):
    // fragments of one call go on with it, with or without `index`, a `{` inside a string
    // too; and the whole call sent again at the end, under its id, is that call once.
    for index in [None, Some(0)] {
        let delta = |fragment: &str| {
            let mut event = unindexed("call_abc", Some("search"), json!(fragment));
            if let Some(index) = index {
                event["choices"][0]["delta"]["tool_calls"][0]["index"] = json!(index);
            }
            event
        };
        let fragments = ["", "{\"qu", "ery\": ", "\"{hello", "}\"", "}"];
        let mut stream: Vec<Value> = fragments.iter().map(|fragment| delta(fragment)).collect();
        stream.push(chat_finish("tool_calls"));
        let streamed = feed(options.clone(), &stream);
        assert_eq!(names(&streamed), [("search", json!({"query": "{hello}"}))], "{index:?}");
        assert!(streamed.is_ok(), "{index:?}: {:?}", streamed.errors);
        stream.insert(stream.len() - 1, delta("{\"query\": \"{hello}\"}"));
        let streamed = feed(options.clone(), &stream);
        assert_eq!(names(&streamed), [("search", json!({"query": "{hello}"}))], "{index:?}");
        assert!(streamed.is_ok(), "{index:?}: {:?}", streamed.errors);
    }

    // Two calls under one id on two indexes, then more input for the first after the
    // choice's end: that call is what it goes on with, whichever call under the id came last.
    let stream = [
        chat_delta(0, Some("dup"), Some("f"), "{\"a\": 1}"),
        chat_delta(1, Some("dup"), Some("g"), "{\"b\": 2}"),
        chat_finish("tool_calls"),
        chat_delta(0, Some("dup"), None, "  "),
    ];
    let streamed = feed(options.clone(), &stream);
    assert!(streamed.calls.is_empty(), "{:?}", names(&streamed));
    assert_eq!(kinds(&streamed), ["malformed", "malformed"]);

    // What a stream cannot tell: the first call sent with no arguments, then the same tool
    // under its id with some, is what a server repeating the id and the name sends for one
    // call. The stream reads one call (documented), where the body answers the second.
    let stream = [
        unindexed("dup", Some("f"), json!("")),
        unindexed("dup", Some("f"), json!("{\"a\": 2}")),
        chat_finish("tool_calls"),
    ];
    assert_eq!(names(&feed(options.clone(), &stream)), [("f", json!({"a": 2}))]);
}

// ---------------------------------------------------------------------------------------
// Damaged events, framing
// ---------------------------------------------------------------------------------------

fn recorded(file: &str, note_part: &str) -> Vec<Value> {
    cases(file)
        .into_iter()
        .find(|case| {
            case["note"].as_str().is_some_and(|note| note.contains(note_part)) && case.get("chunks").is_some()
        })
        .and_then(|case| case["chunks"].as_array().cloned())
        .unwrap_or_else(|| panic!("no recording {note_part} in {file}"))
}

/// Damage one byte of event `at` of the SSE body of `events`.
fn damaged_body(events: &[Value], at: usize) -> String {
    let mut body = String::new();
    for (position, event) in events.iter().enumerate() {
        let mut data = event.to_string();
        if position == at {
            data.insert(data.len() / 2, '\u{1}');
            data.remove(0);
        }
        if let Some(kind) = event.get("type").and_then(Value::as_str) {
            body.push_str(&format!("event: {kind}\n"));
        }
        body.push_str(&format!("data: {data}\n\n"));
    }
    body
}

#[test]
fn a_damaged_event_is_an_error_never_silence() {
    // The recorded Gemini stream (Boston, then San Francisco), its first event damaged.
    let gemini = recorded("vercel-ai.json", "google-stream-tool-call-arguments.chunks");
    let whole = sse(CallOptions::new(), sse_body(&gemini).as_bytes());
    assert_eq!(whole.calls.len(), 2);
    let calls = sse(CallOptions::new(), damaged_body(&gemini, 0).as_bytes());
    assert!(!calls.errors.is_empty(), "the Boston call vanished in silence: {:?}", calls.calls);
    assert!(
        calls.errors[0].message.contains("event 1 of the stream is not JSON"),
        "{}",
        calls.errors[0].message
    );
    assert!(calls.calls.iter().all(|call| call.arguments["location"] == "San Francisco"));

    // A recorded Anthropic stream, its `content_block_start` of the tool damaged.
    let anthropic = recorded("anthropic-sdk-python.json", "text block then tool_use");
    let at = anthropic
        .iter()
        .position(|event| {
            event["type"] == "content_block_start" && event["content_block"]["type"] == "tool_use"
        })
        .unwrap();
    let calls = sse(CallOptions::new(), damaged_body(&anthropic, at).as_bytes());
    assert!(calls.calls.is_empty());
    assert!(!calls.errors.is_empty());
    let message = &calls.errors[0].message;
    assert!(message.contains(&format!("event {} (`content_block_start`)", at + 1)), "{message}");
    // Damaged but still JSON: the block has no index.
    let mut events = anthropic.clone();
    events[at].as_object_mut().unwrap().remove("index");
    let calls = feed(CallOptions::new(), &events);
    assert!(calls.calls.is_empty());
    assert!(
        calls.errors.iter().any(|error| error.message.contains("content_block_start")),
        "{:?}",
        kinds(&calls)
    );

    // Responses: the item's start lost, its argument deltas are reported.
    let item =
        json!({"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "f", "arguments": ""});
    let events = [
        json!({"type": "response.function_call_arguments.delta", "output_index": 0, "item_id": "fc_1", "delta": "{}"}),
        json!({"type": "response.output_item.added", "output_index": 1, "item": item}),
        json!({"type": "response.completed", "response": {"status": "completed"}}),
    ];
    let calls = feed(CallOptions::new(), &events);
    assert!(calls.errors[0].message.contains("did not start"), "{:?}", calls.errors);

    // Every damaged event of every recording: each either changes nothing or is reported.
    for file in common::PROVIDER_FILES {
        for case in cases(file) {
            let Some(chunks) = case.get("chunks").and_then(Value::as_array) else { continue };
            let format = common::format_of(case["api"].as_str().unwrap_or(""));
            if format == Format::Text {
                continue;
            }
            for at in 0..chunks.len() {
                let calls = sse(CallOptions::new(), damaged_body(chunks, at).as_bytes());
                assert!(!calls.errors.is_empty(), "{}: event {at} damaged in silence", case["note"]);
            }
        }
    }
}

#[test]
fn an_event_that_gives_a_key_two_values_is_damaged_as_its_body_refuses_it() {
    // Parsed, the last value would win in silence: `delete_files` would run, or a length
    // stop read as `tool_calls`. The whole body refuses the same keys.
    let call = r#"{"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "call_1", "type": "function", "function": {"name": "list_files", "name": "delete_files", "arguments": "{}"}}]}}]}"#;
    let finish = r#"{"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}"#;
    let plain = chat_delta(0, Some("call_1"), Some("list_files"), "{}").to_string();
    let two_stops = r#"{"choices": [{"index": 0, "delta": {}, "finish_reason": "length", "finish_reason": "tool_calls"}]}"#;
    for (events, bad) in [([call, finish], 1), ([plain.as_str(), two_stops], 2)] {
        let body = events.iter().map(|event| format!("data: {event}\n\n")).collect::<String>();
        let lines = events.join("\n");
        for text in [body, lines] {
            let calls = sse(CallOptions::new(), text.as_bytes());
            assert!(calls.calls.is_empty(), "{text}: {:?}", calls.calls);
            let said = format!("event {bad} of the stream gives one key two different values");
            assert!(calls.errors.iter().any(|error| error.message.contains(&said)), "{:?}", calls.errors);
        }
    }
    // The same value twice is one value.
    let again = call.replace("\"delete_files\"", "\"list_files\"");
    let calls = sse(CallOptions::new(), format!("{again}\n{finish}\n").as_bytes());
    assert_eq!(names(&calls), [("list_files", json!({}))]);
}

#[test]
fn a_bom_and_every_line_ending_read_alike() {
    let events = recorded("anthropic-sdk-python.json", "text block then tool_use");
    let lf = sse_body(&events);
    let expected = sse(CallOptions::new(), lf.as_bytes());
    assert_eq!(expected.calls.len(), 1);
    for (label, body) in [
        ("BOM", format!("\u{feff}{lf}")),
        ("CR", lf.replace('\n', "\r")),
        ("CRLF", lf.replace('\n', "\r\n")),
        ("BOM and CR", format!("\u{feff}{}", lf.replace('\n', "\r"))),
    ] {
        let calls = sse(CallOptions::new(), body.as_bytes());
        assert_eq!(names(&calls), names(&expected), "{label}");
        assert!(calls.errors.is_empty(), "{label}: {:?}", calls.errors);
        // Split anywhere, a CRLF between two pieces included.
        for size in [1, 2, 7] {
            let mut stream = StreamAssembler::new(CallOptions::new());
            for piece in body.as_bytes().chunks(size) {
                stream.push_sse_bytes(piece);
            }
            assert_eq!(names(&stream.finish()), names(&expected), "{label} in pieces of {size}");
        }
        // Line by line, as `str::lines` splits it (a bare CR stays inside a "line").
        let mut stream = StreamAssembler::new(CallOptions::new());
        for line in body.lines() {
            stream.push_sse_line(line);
        }
        assert_eq!(names(&stream.finish()), names(&expected), "{label} line by line");
    }
}

#[test]
fn events_are_read_as_their_bytes_arrive() {
    // The call shows before the body ends: each frame is read when it is complete.
    let mut stream = StreamAssembler::new(CallOptions::new());
    let first = chat_delta(0, Some("call_1"), Some("write"), "{\"text\": \"ab");
    stream.push_sse_bytes(format!("data: {first}\r\n\r\n").as_bytes());
    assert_eq!(stream.open_calls()[0].arguments_text, Some("{\"text\": \"ab"));
    stream.push_sse_bytes(b"data: [DONE]\n\n");
    // [DONE] without a finish_reason ends the stream; the arguments were cut.
    assert_eq!(kinds(&stream.finish()), ["truncated"]);
}

#[test]
fn a_stream_has_a_size_limit_of_its_own() {
    let delta = chat_delta(0, None, None, &"a".repeat(100));
    let line = format!("data: {delta}\n\n");
    // A call streaming when the limit passes.
    let mut stream = StreamAssembler::new(CallOptions::new()).max_stream_bytes(10_000);
    stream.push_sse_bytes(
        format!("data: {}\n\n", chat_delta(0, Some("c"), Some("write"), "{\"t\": \"")).as_bytes(),
    );
    for _ in 0..200 {
        stream.push_sse_bytes(line.as_bytes());
    }
    stream.push_sse_bytes(format!("data: {}\n\ndata: [DONE]\n\n", chat_finish("tool_calls")).as_bytes());
    let calls = stream.finish();
    assert!(calls.calls.is_empty());
    assert_eq!(kinds(&calls), ["stream_too_large"]);
    assert_eq!(calls.errors[0].name.as_deref(), Some("write"));
    assert!(calls.errors[0].message.contains("10000 bytes"), "{}", calls.errors[0].message);
    // No call open: one error for the stream; a complete call before it does not run.
    let mut stream = StreamAssembler::new(CallOptions::new()).max_stream_bytes(1_000);
    let whole =
        json!({"message": {"tool_calls": [{"function": {"name": "f", "arguments": {}}}]}, "done": false});
    let whole = format!("{whole}\n");
    stream.push_sse_bytes(whole.as_bytes());
    for _ in 0..100 {
        stream.push_sse_bytes(b"{\"message\": {\"content\": \"blah blah\"}, \"done\": false}\n");
    }
    let calls = stream.finish();
    assert_eq!(kinds(&calls), ["incomplete", "stream_too_large"]);
    // Text streams count too.
    let mut stream = StreamAssembler::new(CallOptions::new().format(Format::Text)).max_stream_bytes(100);
    for _ in 0..20 {
        stream.push_text("<tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call>");
    }
    // The limit, then the call that had arrived whole before it, which does not run.
    assert_eq!(kinds(&stream.finish()), ["stream_too_large", "incomplete"]);
}

// ---------------------------------------------------------------------------------------
// Choices
// ---------------------------------------------------------------------------------------

#[test]
fn calls_in_other_choices_are_reported_or_read_tagged() {
    let call = |id: &str, name: &str| json!({"id": id, "type": "function", "function": {"name": name, "arguments": "{}"}});
    let body = json!({"choices": [
        {"index": 0, "finish_reason": "tool_calls", "message": {"tool_calls": [call("a", "f")]}},
        {"index": 1, "finish_reason": "tool_calls", "message": {"tool_calls": [call("b", "g"), call("c", "h")]}}]});
    let chunk = |choice: u64, index: u64, id: &str, name: &str| json!({"choices": [{"index": choice, "delta": {"tool_calls": [{"index": index, "id": id, "function": {"name": name, "arguments": "{}"}}]}}]});
    let finish = json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}, {"index": 1, "delta": {}, "finish_reason": "tool_calls"}]});
    let stream = [chunk(0, 0, "a", "f"), chunk(1, 0, "b", "g"), chunk(1, 1, "c", "h"), finish];
    for options in [CallOptions::new(), CallOptions::new().choice(1), CallOptions::new().all_choices(true)] {
        let whole = parse_value(&body, &options).unwrap();
        let streamed = feed(options.clone(), &stream);
        let tags = |calls: &Calls| -> Vec<(String, usize, &'static str)> {
            calls
                .in_order()
                .map(|entry| match entry {
                    Ok(call) => (call.name.clone(), call.choice, "call"),
                    Err(error) => (error.name.clone().unwrap_or_default(), error.choice, error.kind.code()),
                })
                .collect()
        };
        assert_eq!(tags(&streamed), tags(&whole), "{options:?}");
        let got: Vec<(String, usize, &str)> = tags(&whole);
        let calls_of: Vec<usize> = got.iter().filter(|t| t.2 == "call").map(|t| t.1).collect();
        assert_eq!(got.len(), 3, "never dropped");
        match (options.configured_format(), calls_of.as_slice()) {
            (_, [0]) => assert!(got.iter().filter(|t| t.1 == 1).all(|t| t.2 == "other_choice")),
            (_, [1, 1]) => assert!(got.iter().filter(|t| t.1 == 0).all(|t| t.2 == "other_choice")),
            (_, [0, 1, 1]) => {}
            other => panic!("{other:?}"),
        }
    }
    let other = &parse_value(&body, &CallOptions::new()).unwrap().errors[0];
    assert!(other.message.contains("choice 1"), "{}", other.message);
    assert_eq!(other.id, "b");

    // Gemini candidates.
    let body = json!({"candidates": [
        {"index": 0, "finishReason": "STOP", "content": {"parts": [{"functionCall": {"name": "f", "args": {}}}]}},
        {"index": 1, "finishReason": "STOP", "content": {"parts": [{"functionCall": {"name": "g", "args": {}}}]}}]});
    let calls = parse_value(&body, &CallOptions::new()).unwrap();
    assert_eq!(names(&calls), [("f", json!({}))]);
    assert_eq!(kinds(&calls), ["other_choice"]);
    let calls = feed(CallOptions::new(), std::slice::from_ref(&body));
    assert_eq!(names(&calls), [("f", json!({}))]);
    assert_eq!(kinds(&calls), ["other_choice"]);
    assert_eq!(calls.errors[0].choice, 1);
}

// ---------------------------------------------------------------------------------------
// Text
// ---------------------------------------------------------------------------------------

#[test]
fn one_bracket_too_many_agrees_whole_and_streamed() {
    let case = cases("ollama-tool-parser-text.json")
        .into_iter()
        .find(|case| case["payload"].as_str().is_some_and(|payload| payload.ends_with("}]]")))
        .expect("the list trailing ] case");
    let chunks: Vec<&str> =
        case["text_chunks"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
    for options in [CallOptions::new().format(Format::Text), common::text_options(&case), CallOptions::new()]
    {
        let whole = parse_text(case["payload"].as_str().unwrap(), &options);
        let mut stream = StreamAssembler::new(options.clone());
        for chunk in &chunks {
            stream.push_text(chunk);
        }
        let streamed = stream.finish();
        let lines: String = chunks.iter().map(|chunk| format!("{}\n", json!(chunk))).collect();
        let via_lines = sse(options, lines.as_bytes());
        assert_eq!(names(&whole), [("get_conditions", json!({"location": "Tokyo"}))]);
        assert_eq!(names(&streamed), names(&whole));
        assert_eq!(names(&via_lines), names(&whole));
    }
    // Stray brackets after prose or a non-call stay text.
    for text in ["[1, 2]]", "[{\"a\": 1}]]", "]]"] {
        assert!(parse_text(text, &CallOptions::new()).calls.is_empty(), "{text}");
    }
}

#[test]
fn python_lists_are_read_in_linear_time_and_memory() {
    let calls = 20_000;
    let text = format!("[{}]", vec!["f(a=1)"; calls].join(", "));
    let read = parse_text(&text, &CallOptions::new());
    // Only max_calls are taken, each recording its own text, not the list's.
    assert_eq!(read.calls.len(), 128);
    assert_eq!(kinds(&read), ["too_many_calls"]);
    assert!(read.calls[..127].iter().all(|call| call.raw == json!("f(a=1)")), "{:?}", read.calls[0].raw);
    // Many `<|python_start|>` blocks that never close and hold no call: each ends at the next
    // start (searching each to the end of the text for its end marker took quadratic time).
    let text = "<|python_start|>[f(a=1) ".repeat(20_000);
    let start = std::time::Instant::now();
    let read = parse_text(&text, &CallOptions::new());
    assert!(start.elapsed().as_secs() < 10, "{:?}", start.elapsed());
    // The last one reaches the end of the text right after its whole call: that call (a
    // list cut off right after a whole call lost nothing, as a JSON list's), the others
    // content.
    assert_eq!(read.calls.len(), 1);
    assert!(read.errors.is_empty(), "{:?}", kinds(&read));
    let block = "<|python_start|>[f(a=1) ";
    assert_eq!(read.content.as_deref(), Some(&text[..text.len() - block.len()]));
}

/// The bytes the calls and errors of `calls` keep of the text: each `raw` and `original`.
fn kept_bytes(calls: &Calls) -> usize {
    let raw = |raw: &Value| raw.as_str().map_or_else(|| raw.to_string().len(), str::len);
    let original = |original: &OriginalArguments| original.to_text().map_or(0, |text| text.len());
    let errors = calls.errors.iter().map(|error| raw(&error.raw) + original(&error.original));
    errors.chain(calls.calls.iter().map(|call| raw(&call.raw) + original(&call.original))).sum()
}

/// `text` read whole, and streamed in 16-byte chunks.
fn whole_and_streamed(text: &str, options: &CallOptions) -> [Calls; 2] {
    let mut stream = StreamAssembler::new(options.clone().format(Format::Text));
    for chunk in text.as_bytes().chunks(16) {
        stream.push_text(std::str::from_utf8(chunk).unwrap());
        let _ = stream.open_calls();
    }
    [parse_text(text, options), stream.finish()]
}

/// `unit` repeated to about `bytes`, read whole and streamed, with the default call limit and
/// none: no call, and each byte kept at most twice (`raw` and `original`) however many
/// attempts there are.
fn read_repeated(unit: &str, bytes: usize) {
    let text = unit.repeat(bytes / unit.len());
    for options in [CallOptions::new(), CallOptions::new().max_calls(usize::MAX).max_body_bytes(usize::MAX)] {
        for (read, how) in whole_and_streamed(&text, &options).iter().zip(["whole", "streamed"]) {
            assert!(read.calls.is_empty(), "{unit} {how}");
            assert!(kept_bytes(read) <= 2 * text.len(), "{unit} {how}: {} bytes kept", kept_bytes(read));
        }
    }
}

/// Each `<|message_model|>` looked for its header (a name before the block's kind) to the end
/// of the text: repeated, 1.6 MB took 24 s. The header is one line, before the next token.
/// (How long it takes is measured by the doubling benchmark, suite/benches/linear.rs,
/// `linear/text/inkling_frames`.)
#[test]
fn inkling_frames_are_read_in_linear_time() {
    read_repeated("<|message_model|>", 1 << 20);
    let read = parse_text(&"<|message_model|>".repeat(1000), &CallOptions::new());
    assert!(read.calls.is_empty() && read.errors.is_empty());
    assert_eq!(read.content.as_deref().unwrap_or(""), "");
}

/// Each MiniMax M3 `<invoke` cut off by the next kept the whole rest of the block as its text:
/// 4 MB kept 1 GB in 129 errors, and without a call limit memory grew with the square of the
/// text. Each call records its own text, namespace tokens and all.
#[test]
fn minimax_m3_invokes_keep_their_own_text() {
    let invoke = "]<]minimax[>[<invoke name=\"f\">";
    let mixed = "]<]minimax[>[<tool_call>]<]minimax[>[<invoke name=\"f\">]<]minimax[>[<a>";
    read_repeated(invoke, 1 << 18);
    read_repeated(mixed, 1 << 16);
    let read = parse_text(&invoke.repeat(1000), &CallOptions::new());
    assert_eq!(read.errors.len(), 129);
    assert!(read.errors[..128].iter().all(|error| error.raw == json!(invoke)), "{:?}", read.errors[0].raw);
    assert_eq!(kinds(&read).last(), Some(&"too_many_calls"));
    // Up to the next `<invoke`: the `<tool_call>` between is M3's own, not a block.
    let read = parse_text(&mixed.repeat(1000), &CallOptions::new());
    let own = "]<]minimax[>[<invoke name=\"f\">]<]minimax[>[<a>]<]minimax[>[<tool_call>";
    assert_eq!(read.errors[0].raw, json!(own));
    // A closed block of many calls: each keeps its own.
    let block = format!(
        "]<]minimax[>[<tool_call>{}]<]minimax[>[</tool_call>",
        "]<]minimax[>[<invoke name=\"f\">]<]minimax[>[<a>1]<]minimax[>[</a>]<]minimax[>[</invoke>".repeat(3)
    );
    let read = parse_text(&block, &CallOptions::new());
    assert_eq!(read.calls.len(), 3, "{:?}", read.errors);
    let call = "]<]minimax[>[<invoke name=\"f\">]<]minimax[>[<a>1]<]minimax[>[</a>]<]minimax[>[</invoke>";
    assert!(read.calls.iter().all(|read| read.raw == json!(call)), "{:?}", read.calls[0].raw);
}

/// Each Command R ``Action: ```json`` list not closed was read on to the end of the text:
/// repeated without a call limit, 400 KB took 13 s. A list not closed before the next action
/// is cut off there, and the next read on its own. (`linear/text/command_r_actions`.)
#[test]
fn command_r_actions_are_read_in_linear_time() {
    let action = "Action: ```json\n[";
    read_repeated(action, 1 << 19);
    let read = parse_text(&action.repeat(1000), &CallOptions::new().max_calls(usize::MAX));
    assert_eq!(read.errors.len(), 1000);
    assert!(read.errors.iter().all(|error| error.raw == json!("[")), "{:?}", read.errors[0].raw);
    // A list cut off before the next action, which is read.
    let text = "Action: ```json\n[{\"tool_name\": \"f\", \"parameters\": {\n\nAction: ```json\n[{\"tool_name\": \"g\", \"parameters\": {}}]\n```";
    let read = parse_text(text, &CallOptions::new());
    assert_eq!(kinds(&read), ["truncated"]);
    assert_eq!(names(&read), [("g", json!({}))]);
}

/// A numeric id is kept as its text in a stream, as in a whole body: in a Chat Completions
/// delta, an Anthropic `tool_use` block and a Gemini `functionCall`.
#[test]
fn numeric_ids_are_kept_as_their_text_in_streams() {
    let chat = [
        json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": 123, "type": "function",
            "function": {"name": "f", "arguments": "{\"a\": 1}"}}]}}]}),
        json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}),
    ];
    let anthropic = [
        json!({"type": "message_start", "message": {"id": "m", "type": "message", "role": "assistant", "content": []}}),
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": 7, "name": "f", "input": {}}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": "{\"a\": 1}"}}),
        json!({"type": "content_block_stop", "index": 0}),
        json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}}),
        json!({"type": "message_stop"}),
    ];
    let gemini = [json!({"candidates": [{"content": {"role": "model", "parts": [
        {"functionCall": {"id": 42, "name": "f", "args": {"a": 1}}}]}, "finishReason": "STOP"}]})];
    for (format, events, id) in [
        (Format::OpenAi, &chat[..], "123"),
        (Format::Anthropic, &anthropic[..], "7"),
        (Format::Gemini, &gemini[..], "42"),
    ] {
        let calls = feed(CallOptions::new().format(format), events);
        assert!(calls.errors.is_empty(), "{format:?}: {:?}", calls.errors);
        assert_eq!(calls.calls.len(), 1, "{format:?}");
        assert_eq!((calls.calls[0].id.as_str(), calls.calls[0].id_generated), (id, false), "{format:?}");
    }
}
