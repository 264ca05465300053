//! gpt-oss's harmony messages: a call on the `analysis` channel, cut off, or whose `<|call|>`
//! the server stripped as a stop token (run when the response says its turn ended, in every
//! backend, body and stream alike).

mod text_support;

use serde_json::{json, Value};
use text_support::{
    check_open_calls, error_kinds, errors, open_after_each, outcome, streamed_by_char, summary,
};
use tool_input::calls::{parse_body, parse_text, CallOptions, Calls, Format, TextFormat};
use tool_input::stream::StreamAssembler;

#[test]
fn a_harmony_analysis_message_naming_its_recipient_is_reasoning() {
    let text = "<|start|>assistant to=functions.get_weather<|channel|>analysis<|message|>Paris, then.<|end|><|start|>assistant<|channel|>final<|message|>Sunny.<|return|>";
    let options = CallOptions::new().format(Format::Text);
    let whole = parse_text(text, &options);
    assert!(whole.calls.is_empty() && whole.errors.is_empty(), "{:?}", errors(&whole));
    assert_eq!(whole.reasoning.as_deref(), Some("Paris, then."));
    assert_eq!(whole.content.as_deref(), Some("Sunny."));
    let streamed = streamed_by_char(options.text_format(TextFormat::Harmony), text);
    assert_eq!(outcome(&streamed), outcome(&whole));
}

#[test]
fn a_harmony_call_on_the_analysis_channel_is_a_call() {
    // gpt-oss calls functions on its analysis channel too, and waits for the result after
    // `<|call|>`; vLLM's parser reads such a message as a call, whichever side of the channel
    // its recipient is written.
    let think = "<|channel|>analysis<|message|>Need the weather.<|end|>";
    for call in [
        "<|start|>assistant<|channel|>analysis to=functions.get_weather <|constrain|>json<|message|>{\"city\": \"Paris\"}<|call|>",
        "<|start|>assistant to=functions.get_weather<|channel|>analysis <|constrain|>json<|message|>{\"city\": \"Paris\"}<|call|>",
        "<|start|>assistant to=functions.get_weather<|channel|>analysis<|message|>{\"note\": \"<|end|>\", \"city\": \"Paris\"}<|call|>",
    ] {
        let text = format!("{think}{call}");
        let options = CallOptions::new().format(Format::Text);
        let whole = parse_text(&text, &options);
        assert_eq!(whole.calls.len(), 1, "{text}: {:?}", errors(&whole));
        assert_eq!(whole.calls[0].name, "get_weather");
        assert_eq!(whole.calls[0].arguments["city"], "Paris");
        assert_eq!(whole.reasoning.as_deref(), Some("Need the weather."), "{text}");
        let streamed = streamed_by_char(options.clone().text_format(TextFormat::Harmony), &text);
        assert_eq!(outcome(&streamed), outcome(&whole), "{text}");
        // Written into a chat message's content by a server without a tool parser: the same.
        let body = json!({"choices": [{"index": 0, "finish_reason": "stop", "message": {"content": text}}]});
        let read = parse_body(body.to_string(), &CallOptions::new()).unwrap();
        assert_eq!(summary(&read), summary(&whole), "{text}");
    }
    // Not calls: a built-in tool's recipient, a message ended as reasoning is, one with no
    // recipient (cut off or not).
    for call in [
        "<|start|>assistant<|channel|>analysis to=browser.search <|constrain|>json<|message|>{\"query\": \"weather\"}<|call|>",
        "<|start|>assistant<|channel|>analysis to=browser.search <|constrain|>json<|message|>{\"query\": \"wea",
        "<|start|>assistant to=functions.get_weather<|channel|>analysis<|message|>{\"city\": \"Paris\"}<|end|>",
        "<|start|>assistant<|channel|>analysis<|message|>{\"city\": \"Paris\"}<|call|>",
        "<|start|>assistant<|channel|>analysis<|message|>{\"city\": \"Par",
    ] {
        let text = format!("{think}{call}");
        let whole = parse_text(&text, &CallOptions::new().format(Format::Text));
        assert!(whole.calls.is_empty() && whole.errors.is_empty(), "{text}: {:?}", summary(&whole));
    }
}

#[test]
fn a_harmony_call_on_the_analysis_channel_cut_off_is_reported_as_on_commentary() {
    // The response ended while the model was writing a call to a function on its analysis
    // channel (before `<|call|>`, or inside the header once it named the function): a call
    // cut off, as the same message on `commentary` is, never run and never reasoning left
    // unanswered (an agent loop would take the empty turn for the answer).
    let think = "<|channel|>analysis<|message|>Need the weather.<|end|>";
    for (cut, commentary) in [
        (
            "<|start|>assistant<|channel|>analysis to=functions.get_weather <|constrain|>json<|message|>{\"city\": \"Par",
            "<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{\"city\": \"Par",
        ),
        (
            "<|start|>assistant to=functions.get_weather<|channel|>analysis<|message|>{\"city\": \"Paris\"}",
            "<|start|>assistant to=functions.get_weather<|channel|>commentary<|message|>{\"city\": \"Paris\"}",
        ),
        (
            "<|start|>assistant<|channel|>analysis to=functions.get_weather <|constr",
            "<|start|>assistant<|channel|>commentary to=functions.get_weather <|constr",
        ),
    ] {
        let text = format!("{think}{cut}");
        let options = CallOptions::new().format(Format::Text);
        let whole = parse_text(&text, &options);
        let on_commentary = parse_text(&format!("{think}{commentary}"), &options);
        assert!(whole.calls.is_empty(), "{text}");
        assert_eq!(error_kinds(&whole), [("truncated", Some("get_weather".to_owned()))], "{text}");
        assert_eq!(error_kinds(&whole), error_kinds(&on_commentary), "{text}");
        assert_eq!(whole.reasoning.as_deref(), Some("Need the weather."), "{text}");
        assert!(!whole.is_ok());
        // Streamed, named or detected, and in a chat message's content: the same.
        for named in [None, Some(TextFormat::Harmony)] {
            let streamed = streamed_by_char(match named {
                Some(format) => options.clone().text_format(format),
                None => options.clone(),
            }, &text);
            assert_eq!(outcome(&streamed), outcome(&whole), "{text} {named:?}");
        }
        // (A body that says the turn ended on a stop token reads a message to a function that
        // its text ends inside of as ended by a stripped `<|call|>`: see
        // `a_harmony_call_whose_call_token_the_server_stripped_runs_when_the_turn_ended`.)
        let body = json!({"choices": [{"index": 0, "finish_reason": null, "message": {"content": text}}]});
        let read = parse_body(body.to_string(), &CallOptions::new()).unwrap();
        assert_eq!(error_kinds(&read), error_kinds(&whole), "{text}");
    }
    // Cut at every byte once the header addresses a function (`to=` on): the call, or a
    // cut call, on either channel, never nothing.
    for call in [
        "<|start|>assistant<|channel|>analysis to=functions.get_weather <|constrain|>json<|message|>{\"city\": \"Paris\"}<|call|>",
        "<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{\"city\": \"Paris\"}<|call|>",
    ] {
        let text = format!("{think}{call}");
        let from = text.find("to=").unwrap() + "to=".len();
        for end in from..=text.len() {
            let cut = &text[..end];
            let calls = parse_text(cut, &CallOptions::new().format(Format::Text));
            let answered = calls.calls.len() + calls.errors.len();
            assert_eq!(answered, 1, "{cut}: {:?}", summary(&calls));
            assert_eq!(calls.reasoning.as_deref(), Some("Need the weather."), "{cut}");
        }
    }
}

/// A Chat Completions body whose one choice's content is `text`, ended for `finish_reason`.
fn chat_body(text: &str, finish_reason: Value) -> Calls {
    let body = json!({"choices": [{"index": 0, "finish_reason": finish_reason,
        "message": {"role": "assistant", "content": text}}]});
    parse_body(body.to_string(), &CallOptions::new()).unwrap()
}

/// The same response streamed: `text` in content deltas of 7 bytes, then the chunk with
/// `finish_reason` (none when null), then `[DONE]`.
fn chat_streamed(text: &str, finish_reason: Value) -> Calls {
    let mut stream = StreamAssembler::new(CallOptions::new());
    let mut cuts: Vec<usize> = (0..text.len()).step_by(7).filter(|at| text.is_char_boundary(*at)).collect();
    cuts.push(text.len());
    for pair in cuts.windows(2) {
        stream.push_event(&json!({"choices": [{"index": 0, "delta": {"content": &text[pair[0]..pair[1]]}}]}));
    }
    if !finish_reason.is_null() {
        stream.push_event(&json!({"choices": [{"index": 0, "delta": {}, "finish_reason": finish_reason}]}));
    }
    stream.push_done();
    stream.finish()
}

/// Harmony calls to a function that the text ends inside of, after their `<|message|>`:
/// on `commentary` and on `analysis`, the recipient in the channel or in the header.
const HARMONY_CALLS_WITHOUT_THEIR_END: [&str; 4] = [
    "<|channel|>analysis<|message|>Need the weather.<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{\"city\": \"Paris\"}",
    "<|channel|>analysis<|message|>Need the weather.<|end|><|start|>assistant to=functions.get_weather<|channel|>commentary json<|message|>{\"city\": \"Paris\"} ",
    "<|channel|>analysis<|message|>Need the weather.<|end|><|start|>assistant<|channel|>analysis to=functions.get_weather <|constrain|>json<|message|>{\"city\": \"Paris\"}",
    "<|channel|>analysis<|message|>Need the weather.<|end|><|start|>assistant to=functions.get_weather<|channel|>analysis<|message|>{\"city\": \"Paris\"}",
];

#[test]
fn a_harmony_call_whose_call_token_the_server_stripped_runs_when_the_turn_ended() {
    // A server that generates with harmony's stop tokens stops on `<|call|>` and strips it:
    // a response that says its turn ended on a stop token ended the call it was writing.
    for text in HARMONY_CALLS_WITHOUT_THEIR_END {
        for reason in ["stop", "eos_token", "tool_calls"] {
            let read = chat_body(text, json!(reason));
            let calls = json!([{"name": "get_weather", "arguments": {"city": "Paris"}}]);
            assert_eq!(summary(&read), calls, "{text} {reason}: {:?}", errors(&read));
            assert!(read.is_ok(), "{text} {reason}");
            assert_eq!(read.reasoning.as_deref(), Some("Need the weather."), "{text}");
        }
        // Ollama's `done_reason: "stop"`.
        let body = json!({"model": "gpt-oss", "message": {"role": "assistant", "content": text},
            "done": true, "done_reason": "stop"});
        let ollama = parse_body(body.to_string(), &CallOptions::new()).unwrap();
        assert_eq!(
            summary(&ollama),
            json!([{"name": "get_weather", "arguments": {"city": "Paris"}}]),
            "{text}"
        );
    }
}

#[test]
fn a_harmony_call_whose_call_token_the_server_stripped_streams_as_the_body_reads_it() {
    for text in HARMONY_CALLS_WITHOUT_THEIR_END {
        for reason in [json!("stop"), json!("length"), json!(null)] {
            let streamed = chat_streamed(text, reason.clone());
            assert_eq!(outcome(&streamed), outcome(&chat_body(text, reason.clone())), "{text} {reason}");
            assert_eq!(streamed.calls.len(), usize::from(reason == "stop"), "{text} {reason}");
        }
        // Ollama's stream, its `done` chunk saying `stop`.
        let mut stream = StreamAssembler::new(CallOptions::new());
        for piece in [&text[..text.len() / 2], &text[text.len() / 2..]] {
            stream.push_event(&json!({"model": "gpt-oss", "message": {"role": "assistant", "content": piece}, "done": false}));
        }
        stream.push_event(&json!({"model": "gpt-oss", "message": {"role": "assistant", "content": ""},
            "done": true, "done_reason": "stop"}));
        let body = json!({"model": "gpt-oss", "message": {"role": "assistant", "content": text},
            "done": true, "done_reason": "stop"});
        let whole = parse_body(body.to_string(), &CallOptions::new()).unwrap();
        let streamed = stream.finish();
        assert_eq!(outcome(&streamed), outcome(&whole), "{text}");
        assert_eq!(streamed.calls.len(), 1, "{text}");
    }
}

#[test]
fn a_harmony_call_without_its_end_is_cut_unless_the_turn_ended() {
    // No reason to read the end as `<|call|>`: a call cut off, never run. The text alone, a
    // length stop (or another cut), no reason at all.
    let truncated = [("truncated", Some("get_weather".to_owned()))];
    for text in HARMONY_CALLS_WITHOUT_THEIR_END {
        let raw = parse_text(text, &CallOptions::new().format(Format::Text));
        assert_eq!(error_kinds(&raw), truncated, "{text}");
        for reason in [json!("length"), json!("content_filter"), json!(null), json!("")] {
            let read = chat_body(text, reason.clone());
            assert!(read.calls.is_empty(), "{text} {reason}");
            assert_eq!(error_kinds(&read), truncated, "{text} {reason}");
        }
        let body = json!({"model": "gpt-oss", "message": {"role": "assistant", "content": text},
            "done": true, "done_reason": "length"});
        assert_eq!(
            error_kinds(&parse_body(body.to_string(), &CallOptions::new()).unwrap()),
            truncated,
            "{text}"
        );
    }
}

#[test]
fn a_turn_ended_on_a_stop_token_never_completes_a_harmony_call_cut_short() {
    // The arguments are checked as any call's are: JSON cut short is still an error, never
    // completed; a header the text ends inside of is a call cut off.
    let think = "<|channel|>analysis<|message|>Need the weather.<|end|>";
    for cut in [
        "<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{\"city\": \"Par",
        "<|start|>assistant<|channel|>analysis to=functions.get_weather <|constrain|>json<|message|>{\"city\": \"Par",
        "<|start|>assistant<|channel|>commentary to=functions.get_weather <|constr",
    ] {
        let text = format!("{think}{cut}");
        let read = chat_body(&text, json!("stop"));
        assert!(read.calls.is_empty(), "{text}: {:?}", summary(&read));
        assert_eq!(error_kinds(&read), [("truncated", Some("get_weather".to_owned()))], "{text}");
        assert_eq!(outcome(&chat_streamed(&text, json!("stop"))), outcome(&read), "{text}");
    }
    // Messages that are no call to a function stay as they were: content, reasoning.
    for (text, content) in [
        ("<|start|>assistant<|channel|>final<|message|>Sunny.", Some("Sunny.")),
        ("<|channel|>analysis<|message|>Still thinking", Some("")),
    ] {
        let read = chat_body(text, json!("stop"));
        assert!(read.calls.is_empty() && read.errors.is_empty(), "{text}: {:?}", errors(&read));
        assert_eq!(read.content.as_deref(), content, "{text}");
    }
}

/// A response of `backend` (`chat`, `ollama`, `responses`, `anthropic`, `gemini`) whose text
/// is `text`, stopped for `reason` (the value of that backend's own field: `finish_reason`,
/// `done_reason`, `status`, `stop_reason`, `finishReason`), read whole.
fn body_of(backend: &str, text: &str, reason: &str) -> Calls {
    let body = match backend {
        "chat" => json!({"choices": [{"index": 0, "finish_reason": reason,
            "message": {"role": "assistant", "content": text}}]}),
        "ollama" => json!({"model": "gpt-oss", "message": {"role": "assistant", "content": text},
            "done": true, "done_reason": reason}),
        "responses" => json!({"object": "response", "status": reason,
            "incomplete_details": (reason == "incomplete").then(|| json!({"reason": "max_output_tokens"})),
            "output": [{"type": "message", "role": "assistant",
                "content": [{"type": "output_text", "text": text}]}]}),
        "anthropic" => json!({"type": "message", "role": "assistant",
            "content": [{"type": "text", "text": text}], "stop_reason": reason}),
        _ => json!({"candidates": [{"index": 0, "finishReason": reason,
            "content": {"role": "model", "parts": [{"text": text}]}}]}),
    };
    parse_body(body.to_string(), &CallOptions::new()).unwrap()
}

/// The same response streamed: `text` in two pieces, then the events that stop it for
/// `reason`, then (when given) `late` text after that end.
fn stream_of(backend: &str, text: &str, reason: &str, late: Option<&str>) -> Calls {
    let piece = |piece: &str| match backend {
        "chat" => json!({"choices": [{"index": 0, "delta": {"content": piece}}]}),
        "ollama" => {
            json!({"model": "gpt-oss", "message": {"role": "assistant", "content": piece}, "done": false})
        }
        "responses" => json!({"type": "response.output_text.delta", "output_index": 0, "content_index": 0,
            "delta": piece}),
        "anthropic" => json!({"type": "content_block_delta", "index": 0,
            "delta": {"type": "text_delta", "text": piece}}),
        _ => json!({"candidates": [{"index": 0, "content": {"role": "model", "parts": [{"text": piece}]}}]}),
    };
    let start = match backend {
        "anthropic" => vec![
            json!({"type": "message_start", "message": {"role": "assistant", "content": []}}),
            json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
        ],
        _ => Vec::new(),
    };
    let end = match backend {
        "chat" => vec![json!({"choices": [{"index": 0, "delta": {}, "finish_reason": reason}]})],
        "ollama" => vec![json!({"model": "gpt-oss", "message": {"role": "assistant", "content": ""},
            "done": true, "done_reason": reason})],
        "responses" => vec![json!({"type": format!("response.{reason}"), "response": {"status": reason,
            "incomplete_details": (reason == "incomplete").then(|| json!({"reason": "max_output_tokens"})),
            "output": []}})],
        "anthropic" => vec![
            json!({"type": "content_block_stop", "index": 0}),
            json!({"type": "message_delta", "delta": {"stop_reason": reason}}),
            json!({"type": "message_stop"}),
        ],
        _ => vec![json!({"candidates": [{"index": 0, "finishReason": reason,
            "content": {"role": "model", "parts": []}}]})],
    };
    let half = (0..=text.len() / 2).rev().find(|at| text.is_char_boundary(*at)).unwrap_or(0);
    let mut stream = StreamAssembler::new(CallOptions::new());
    let events = start
        .into_iter()
        .chain([piece(&text[..half]), piece(&text[half..])])
        .chain(end)
        .chain(late.map(piece));
    for event in events {
        stream.push_event(&event);
    }
    if backend == "chat" {
        stream.push_done();
    }
    stream.finish()
}

/// Each backend's reasons that end a turn, and reasons that cut it.
const BACKEND_STOPS: [(&str, &[&str], &[&str]); 5] = [
    ("chat", &["stop", "tool_calls", "eos_token"], &["length", "content_filter"]),
    ("ollama", &["stop"], &["length"]),
    ("responses", &["completed"], &["incomplete"]),
    ("anthropic", &["end_turn", "stop_sequence", "tool_use"], &["max_tokens", "refusal"]),
    ("gemini", &["STOP"], &["MAX_TOKENS", "SAFETY"]),
];

/// Every backend's text may carry harmony (each reads calls from its content): each one's
/// own reason that the turn ended reads the text's end as the stripped `<|call|>`, whole and
/// streamed alike, and each one's cutting reason leaves the call `truncated`.
#[test]
fn a_harmony_call_whose_call_token_the_server_stripped_runs_in_every_backend_whose_turn_ended() {
    let call = json!([{"name": "get_weather", "arguments": {"city": "Paris"}}]);
    let truncated = [("truncated", Some("get_weather".to_owned()))];
    for text in HARMONY_CALLS_WITHOUT_THEIR_END {
        for (backend, ends, cuts) in BACKEND_STOPS {
            for reason in ends {
                let whole = body_of(backend, text, reason);
                assert_eq!(summary(&whole), call, "{backend} {reason} {text}: {:?}", errors(&whole));
                assert!(whole.is_ok(), "{backend} {reason} {text}");
                let streamed = stream_of(backend, text, reason, None);
                assert_eq!(outcome(&streamed), outcome(&whole), "{backend} {reason} {text}");
            }
            for reason in cuts {
                let whole = body_of(backend, text, reason);
                assert!(whole.calls.is_empty(), "{backend} {reason} {text}");
                assert_eq!(error_kinds(&whole), truncated, "{backend} {reason} {text}");
                let streamed = stream_of(backend, text, reason, None);
                assert_eq!(outcome(&streamed), outcome(&whole), "{backend} {reason} {text}");
            }
        }
    }
}

/// A stream's text that arrives after the stream said its turn ended (a `finish_reason`, the
/// `done` chunk, `response.completed`, `message_stop`, a `finishReason`) is not read, so the
/// reason's end is not where the text ended: a harmony call without its end stays a call cut
/// off, never run with the text that arrived before the reason. Empty text after the end
/// changes nothing.
#[test]
fn text_after_a_streams_end_leaves_a_harmony_call_without_its_end_cut() {
    let truncated = [("truncated", Some("get_weather".to_owned()))];
    for text in HARMONY_CALLS_WITHOUT_THEIR_END {
        for (backend, ends, _) in BACKEND_STOPS {
            let reason = ends[0];
            for late in ["\n", "<|call|>", "{\"city\": \"Rome\"}"] {
                let streamed = stream_of(backend, text, reason, Some(late));
                assert!(streamed.calls.is_empty(), "{backend} {late:?} {text}: {:?}", summary(&streamed));
                assert_eq!(error_kinds(&streamed), truncated, "{backend} {late:?} {text}");
            }
            let streamed = stream_of(backend, text, reason, Some(""));
            assert_eq!(outcome(&streamed), outcome(&body_of(backend, text, reason)), "{backend} {text}");
            assert_eq!(streamed.calls.len(), 1, "{backend} {text}");
        }
    }
}

/// Content cut at the size limit did not end where the turn did: a chunk past the limit is
/// not dropped to let a later one in (a hole), and no call is read from what was kept.
#[test]
fn content_cut_at_the_size_limit_runs_no_harmony_call() {
    let head = "<|channel|>analysis<|message|>Need the weather.<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>";
    let options = CallOptions::new().max_body_bytes(head.len() + 40);
    let mut stream = StreamAssembler::new(options);
    for piece in [head, &"x".repeat(60), "{\"city\": \"Paris\"}"] {
        stream.push_event(&json!({"choices": [{"index": 0, "delta": {"content": piece}}]}));
    }
    stream.push_event(&json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}));
    stream.push_done();
    let read = stream.finish();
    assert!(read.calls.is_empty(), "{:?}", summary(&read));
    assert!(errors(&read).iter().any(|error| error.contains("more than the limit")), "{:?}", errors(&read));
}

#[test]
fn harmony_calls_stream_around_an_analysis_message() {
    let text = "<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{\"city\": \"Oslo\", \"days\": 12}<|call|><|start|>assistant<|channel|>analysis<|message|>Then the time.<|end|><|start|>assistant to=functions.ping<|channel|>commentary json<|message|>{}<|call|>";
    let options = CallOptions::new().format(Format::Text).text_format(TextFormat::Harmony);
    assert_eq!(parse_text(text, &options).calls.len(), 2);
    for step in 1..=5 {
        assert!(check_open_calls(text, &options, step, &format!("harmony, {step} a piece")));
    }
    let shown = open_after_each(
        TextFormat::Harmony,
        &[
            "<|channel|>commentary to=functions.get_weather json<|message|>{\"city\": \"Os",
            "lo\", \"days\": 1",
            "2}",
        ],
    );
    let name = Some("get_weather".to_owned());
    assert_eq!(shown[0], (name.clone(), Some(json!({"city": "Os"}))));
    assert_eq!(shown[1], (name.clone(), Some(json!({"city": "Oslo"}))));
    assert_eq!(shown[2], (name, Some(json!({"city": "Oslo", "days": 12}))));
}
