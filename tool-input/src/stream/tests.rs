//! Parse once: a streamed call's arguments are read by the assembler's incremental parser
//! as they arrive, and that reading is the call's; nothing parses the text again. Each call
//! read so equals the call read from the whole body.

use serde_json::{json, Value};

use super::StreamAssembler;
use crate::calls::{parse_body, CallOptions, Calls, Format, OriginalArguments, TEXTS_PARSED};
use crate::limits::Limits;

/// Argument texts parsed by the calls' reader on this thread.
fn texts_parsed() -> usize {
    TEXTS_PARSED.with(|parsed| parsed.get())
}

/// Argument texts of every shape a model sends: exact JSON, each kind of repair, double
/// encoding, not an object, syntax errors, empty.
const ARGUMENTS: &[&str] = &[
    r#"{"city": "Paris", "days": 3}"#,
    "{'city': 'Paris', 'days': [1, 2,],}",
    "Sure! Here are the arguments:\n```json\n{\"city\": \"Zoë\", \"ok\": True, \"none\": None}\n```",
    r#"{city: "Rome", /* a comment */ "n": 1e3}"#,
    r#""{\"city\": \"Oslo\"}""#,
    "“{”city”: “Lima”}",
    r#"{"a": 1, "a": 2}"#,
    "[1, 2]",
    r#""just text""#,
    r#"{"a": }"#,
    "{\"text\": \"line\\nbreak \\u00e9 \\ud83d\\ude00\"}",
    "",
    "   ",
    "{}",
    r#"{"nested": {"deep": [[[{"x": null}]]]}}"#,
];

/// One Chat Completions stream per call, its arguments in chunks of `size` bytes (cut on
/// character boundaries).
fn stream(arguments: &str, size: usize, options: &CallOptions) -> Calls {
    let mut stream = StreamAssembler::new(options.clone());
    stream.push_event(&json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0,
        "id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": ""}}]}}]}));
    let mut at = 0;
    while at < arguments.len() {
        let mut end = (at + size).min(arguments.len());
        while !arguments.is_char_boundary(end) {
            end += 1;
        }
        stream.push_event(&json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0,
            "function": {"arguments": &arguments[at..end]}}]}}]}));
        at = end;
    }
    stream.push_event(&json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}));
    stream.finish()
}

fn body(arguments: &str, options: &CallOptions) -> Calls {
    let body = json!({"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant",
        "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": arguments}}]}}]});
    parse_body(body.to_string().as_bytes(), &options.clone().format(Format::OpenAi)).expect("a body")
}

/// The arguments as sent; none and an empty text alike (a stream sends no fragment for
/// empty arguments).
fn sent(original: &OriginalArguments) -> Value {
    match original.to_value() {
        Value::String(text) if text.is_empty() => Value::Null,
        other => other,
    }
}

/// What a call comes to, without what differs by construction between a stream and a body
/// (the record as received).
fn outcome(calls: &Calls) -> Value {
    let calls_seen: Vec<Value> = calls
        .calls
        .iter()
        .map(|call| {
            json!({"id": call.id, "name": call.name, "arguments": call.arguments,
            "repairs": format!("{:?}", call.repairs), "original": sent(&call.original)})
        })
        .collect();
    let errors_seen: Vec<Value> = calls
        .errors
        .iter()
        .map(|error| {
            json!({"kind": error.kind.code(), "message": error.message, "id": error.id,
            "rejection": format!("{:?}", error.rejection), "original": sent(&error.original)})
        })
        .collect();
    json!({"calls": calls_seen, "errors": errors_seen})
}

#[test]
fn streamed_arguments_are_parsed_once_and_read_as_a_body_reads_them() {
    let options = CallOptions::new();
    for arguments in ARGUMENTS {
        for size in [1, 3, 16, 4096] {
            let before = texts_parsed();
            let streamed = stream(arguments, size, &options);
            assert_eq!(texts_parsed(), before, "the stream parsed {arguments:?} again");
            assert_eq!(
                outcome(&streamed),
                outcome(&body(arguments, &options)),
                "{arguments:?} in chunks of {size}"
            );
        }
    }
}

#[test]
fn a_body_parses_each_call_once() {
    let options = CallOptions::new();
    let before = texts_parsed();
    let calls = body("{'city': 'Paris'}", &options);
    assert_eq!(calls.calls[0].arguments["city"], "Paris");
    assert_eq!(texts_parsed(), before + 1);
}

#[test]
fn the_arguments_limits_hold_for_a_streamed_call() {
    // Over the size limit of the arguments (which the stream's parser does not apply): the
    // same `too_large` rejection as a body's. Deeper than the nesting limit: `too_deep`.
    let options = CallOptions::new().limits(Limits::default().with_max_bytes(16).with_max_depth(3));
    for arguments in [r#"{"city": "Paris, France"}"#, r#"{"a": {"b": {"c": {"d": 1}}}}"#, r#"{"a": 1}"#] {
        let streamed = stream(arguments, 5, &options);
        assert_eq!(outcome(&streamed), outcome(&body(arguments, &options)), "{arguments}");
    }
    let codes: Vec<&str> = [r#"{"city": "Paris, France"}"#, r#"{"a": [[[[1]]]]}"#]
        .iter()
        .map(|arguments| stream(arguments, 5, &options).errors[0].kind.code())
        .collect();
    assert_eq!(codes, ["too_large", "too_deep"]);
}

#[test]
fn a_parallel_wrapper_is_unwrapped_from_the_streamed_reading() {
    let arguments = r#"{"tool_uses": [{"recipient_name": "functions.get_weather", "parameters": {"city": "Paris"}},
        {"recipient_name": "functions.get_time", "parameters": {"zone": "CET"}}]}"#;
    let options = CallOptions::new();
    let mut assembler = StreamAssembler::new(options.clone());
    assembler.push_event(&json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0,
        "id": "call_w", "function": {"name": "multi_tool_use.parallel", "arguments": arguments}}]}}]}));
    assembler.push_event(&json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}));
    let before = texts_parsed();
    let calls = assembler.finish();
    assert_eq!(texts_parsed(), before, "the wrapper's text was parsed again");
    let names: Vec<(&str, &str)> =
        calls.calls.iter().map(|call| (call.id.as_str(), call.name.as_str())).collect();
    assert_eq!(names, [("call_w_0", "get_weather"), ("call_w_1", "get_time")]);
}

#[test]
fn closing_arguments_that_differ_are_read_from_the_closing_text() {
    // The Responses API's `.done` carries the whole arguments; when they are not the
    // fragments' continuation but say the same, they replace them, and the call is read
    // from them. (When they say something else, the call is an error.)
    let mut assembler = StreamAssembler::new(CallOptions::new().format(Format::Responses));
    assembler.push_event(&json!({"type": "response.output_item.added", "output_index": 0,
        "item": {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_weather", "arguments": ""}}));
    assembler.push_event(&json!({"type": "response.function_call_arguments.delta", "output_index": 0,
        "item_id": "fc_1", "delta": "{'city': 'Rome'}"}));
    assembler.push_event(&json!({"type": "response.function_call_arguments.done", "output_index": 0,
        "item_id": "fc_1", "arguments": "{\"city\": \"Rome\"}"}));
    assembler.push_event(&json!({"type": "response.completed", "response": {"status": "completed"}}));
    let before = texts_parsed();
    let calls = assembler.finish();
    assert_eq!(texts_parsed(), before);
    assert_eq!(calls.calls[0].arguments["city"], "Rome");
    assert!(calls.calls[0].repairs.is_empty());
}

#[test]
fn pushed_events_count_toward_the_stream_limit() {
    let start = json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "call_1",
        "function": {"name": "write", "arguments": "{\"text\": \""}}]}}]});
    let more = json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0,
        "function": {"arguments": "aaaa"}}]}}]});
    let limit = start.to_string().len() + 3 * more.to_string().len();
    // Within the limit: read whole.
    let mut stream = StreamAssembler::new(CallOptions::new()).max_stream_bytes(limit);
    stream.push_event(&start);
    for _ in 0..3 {
        stream.push_event(&more);
    }
    assert!(stream.open_calls()[0].bytes > 0);
    stream.push_done();
    let calls = stream.finish();
    assert_eq!(calls.errors.len(), 1, "{:?}", calls.errors);
    assert_eq!(calls.errors[0].kind.code(), "truncated", "the text is cut, not the stream");
    // One more event passes it: the call still streaming is a `stream_too_large` error, and
    // nothing after it is read.
    let mut stream = StreamAssembler::new(CallOptions::new()).max_stream_bytes(limit);
    stream.push_event(&start);
    for _ in 0..10 {
        stream.push_event(&more);
    }
    assert!(stream.open_calls().is_empty());
    let calls = stream.finish();
    assert!(calls.calls.is_empty());
    assert_eq!(calls.errors.len(), 1, "{:?}", calls.errors);
    assert_eq!(calls.errors[0].kind.code(), "stream_too_large");
    assert_eq!(calls.errors[0].name.as_deref(), Some("write"));
    // No call open: one error stands for the stream.
    let mut stream = StreamAssembler::new(CallOptions::new()).max_stream_bytes(8);
    stream.push_event(&json!({"choices": [{"index": 0, "delta": {"content": "a long hello"}}]}));
    let calls = stream.finish();
    assert_eq!(calls.errors[0].kind.code(), "stream_too_large");
}

/// A call's value that only the end of its arguments settles (the candidate after prose
/// fails when the text ends, and the value after it is the call's) reports its members
/// among the argument events when the call ends, after a `Restart`.
#[test]
fn a_value_found_when_the_arguments_end_reports_its_members() {
    let arguments = r#"Sure: {6''{"city": "Paris"} '"#;
    let mut stream = StreamAssembler::new(CallOptions::new()).with_events();
    stream.push_event(&json!({"type": "content_block_start", "index": 0, "content_block":
        {"type": "tool_use", "id": "toolu_1", "name": "weather", "input": {}}}));
    for piece in [&arguments[..12], &arguments[12..]] {
        stream.push_event(&json!({"type": "content_block_delta", "index": 0,
            "delta": {"type": "input_json_delta", "partial_json": piece}}));
    }
    assert!(stream.take_events().is_empty(), "nothing is settled before the end");
    stream.push_event(&json!({"type": "content_block_stop", "index": 0}));
    settled_at_the_end(&mut stream);
    stream.push_event(&json!({"type": "message_stop"}));
    let calls = stream.finish();
    assert_eq!(calls.calls.len(), 1, "{:?}", calls.errors);
    assert_eq!(Value::Object(calls.calls[0].arguments.clone()), json!({"city": "Paris"}));
}

/// The events of `Sure: {6''{"city": "Paris"} '` once its call has ended, and the call.
fn settled_at_the_end(stream: &mut StreamAssembler) {
    use crate::parse::StreamEvent;
    let events: Vec<StreamEvent<'static>> = stream.take_events().into_iter().map(|e| e.event).collect();
    assert_eq!(
        events,
        [
            StreamEvent::Restart,
            StreamEvent::ValueComplete {
                path: "/city".into(),
                value: std::borrow::Cow::Owned(json!("Paris"))
            },
        ]
    );
    assert_eq!(stream.calls().len(), 1);
    assert_eq!(Value::Object(stream.calls()[0].arguments.clone()), json!({"city": "Paris"}));
}

#[test]
fn a_chat_call_is_final_when_its_choice_finishes() {
    let arguments = r#"Sure: {6''{"city": "Paris"} '"#;
    let start = |arguments: &str| {
        let mut stream = StreamAssembler::new(CallOptions::new()).with_events();
        stream.push_event(&json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "c1",
            "type": "function", "function": {"name": "weather", "arguments": &arguments[..12]}}]}}]}));
        stream.push_event(&json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0,
            "function": {"arguments": &arguments[12..]}}]}}]}));
        assert!(stream.calls().is_empty(), "nothing is final yet");
        // Only the end settles this text: its one candidate value fails when the text does.
        if arguments.starts_with("Sure") {
            assert!(stream.take_events().is_empty());
        }
        stream
    };

    // The choice's `finish_reason`: the call is final, and its last events come, at once.
    let mut stream = start(arguments);
    stream.push_event(&json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}));
    settled_at_the_end(&mut stream);
    stream.push_done();
    let calls = stream.finish();
    assert_eq!((calls.calls.len(), calls.errors.len()), (1, 0), "{:?}", calls.errors);

    // `[DONE]` without a `finish_reason`, pushed or read from the body.
    let mut stream = start(arguments);
    stream.push_done();
    settled_at_the_end(&mut stream);
    let mut stream = start(arguments);
    stream.push_sse_bytes("data: [DONE]\n\n");
    settled_at_the_end(&mut stream);
    assert_eq!(stream.finish().calls.len(), 1);

    // A length stop cuts the call still streaming: never final, and no event of a value.
    let mut stream = start(r#"{"city": "Paris", "unit": "C"#);
    stream.take_events();
    stream.push_event(&json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "length"}]}));
    assert!(stream.calls().is_empty());
    assert!(stream.take_events().is_empty());
    let calls = stream.finish();
    assert_eq!((calls.calls.len(), calls.errors.len()), (0, 1));

    // A call final at its `finish_reason` is still not run when an error ends the stream.
    let mut stream = start(arguments);
    stream.push_event(&json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}));
    assert_eq!(stream.calls().len(), 1);
    stream.push_event(&json!({"error": {"message": "overloaded"}}));
    let calls = stream.finish();
    assert_eq!(calls.calls.len(), 0);
    assert_eq!(calls.errors.len(), 1, "{:?}", calls.errors);
}
