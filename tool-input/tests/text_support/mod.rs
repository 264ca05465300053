//! The text formats' fixtures (`tests/data/text_formats.json`), and reading text calls every
//! way they arrive, in the text-format tests (`text_formats`, `text_blocks`,
//! `text_call_lists`, `text_harmony`, `text_streamed`).
#![allow(dead_code)]

use std::collections::HashMap;

use serde_json::{json, Value};
use tool_input::calls::{parse_text, CallOptions, Calls, Format, KnownTool, TextFormat};
use tool_input::parse::StreamEvent;
use tool_input::stream::StreamAssembler;

pub struct Fixture {
    pub format: String,
    pub text: String,
    pub calls: Value,
    pub content: Option<String>,
    pub reasoning: Option<String>,
}

pub fn data() -> (Vec<KnownTool>, Vec<Fixture>) {
    let raw: Value = serde_json::from_str(include_str!("../data/text_formats.json")).unwrap();
    let tools = raw["tools"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(name, schema)| KnownTool { name: name.clone(), schema: Some(schema.clone()) })
        .collect();
    let fixtures = raw["fixtures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|fixture| Fixture {
            format: fixture["format"].as_str().unwrap().to_owned(),
            text: fixture["text"].as_str().unwrap().to_owned(),
            calls: fixture["calls"].clone(),
            content: fixture.get("content").and_then(Value::as_str).map(str::to_owned),
            reasoning: fixture.get("reasoning").and_then(Value::as_str).map(str::to_owned),
        })
        .collect();
    (tools, fixtures)
}

pub fn options(tools: &[KnownTool], named: Option<TextFormat>) -> CallOptions {
    let options = CallOptions::new().format(Format::Text).known_tools(tools.to_vec());
    match named {
        Some(format) => options.text_format(format),
        None => options,
    }
}

pub fn summary(calls: &Calls) -> Value {
    Value::Array(calls.calls.iter().map(|c| json!({"name": c.name, "arguments": c.arguments})).collect())
}

pub fn errors(calls: &Calls) -> Vec<String> {
    calls.errors.iter().map(|e| format!("{}: {}", e.kind.code(), e.message)).collect()
}

/// Everything a reading gives that a caller sees.
pub fn outcome(calls: &Calls) -> Value {
    json!({
        "calls": summary(calls),
        "errors": calls.errors.iter().map(|e| json!({"kind": e.kind.code(), "name": e.name})).collect::<Vec<_>>(),
        "content": calls.content,
        "reasoning": calls.reasoning,
    })
}

/// `text` streamed a character at a time under `options`, to the end.
pub fn streamed_by_char(options: CallOptions, text: &str) -> Calls {
    let mut stream = StreamAssembler::new(options);
    for c in text.chars() {
        stream.push_text(c.encode_utf8(&mut [0; 4]));
    }
    stream.finish()
}

/// `text` in `format` read every way it can arrive: whole, streamed in one piece and a
/// character at a time, each as a response that ended normally or (`cut`) was cut off, with
/// `options` on top of the format's.
pub fn read_every_way(
    format: TextFormat,
    text: &str,
    cut: bool,
    run_completed: bool,
) -> Vec<(String, Calls)> {
    let options =
        CallOptions::new().format(Format::Text).text_format(format).run_completed_calls(run_completed);
    let mut read = Vec::new();
    if !cut {
        read.push(("whole".to_owned(), parse_text(text, &options)));
    }
    let mut stream = StreamAssembler::new(options.clone());
    stream.push_text(text);
    if cut {
        stream.cut_off("finish_reason `length`");
    }
    read.push(("streamed".to_owned(), stream.finish()));
    let mut stream = StreamAssembler::new(options.clone());
    for c in text.chars() {
        stream.push_text(c.encode_utf8(&mut [0; 4]));
    }
    if cut {
        stream.cut_off("finish_reason `length`");
    }
    read.push(("a character at a time".to_owned(), stream.finish()));
    if cut {
        // A Chat Completions body stopped for its length, with the text as its content.
        let body = json!({"choices": [{"index": 0, "finish_reason": "length",
            "message": {"role": "assistant", "content": text}}]});
        let options = CallOptions::new().text_format(format).run_completed_calls(run_completed);
        let calls = tool_input::calls::parse_value(&body, &options).expect("a Chat Completions body");
        read.push(("body".to_owned(), calls));
    }
    read
}

pub fn error_kinds(calls: &Calls) -> Vec<(&'static str, Option<String>)> {
    calls.errors.iter().map(|error| (error.kind.code(), error.name.clone())).collect()
}

/// What a caller may run of a list of calls.
pub fn call_summary(calls: &[tool_input::calls::ToolCall]) -> Vec<Value> {
    calls.iter().map(|c| json!({"name": c.name, "arguments": c.arguments})).collect()
}

/// Is `partial` a view of `fin` as it arrives: its strings prefixes of the final strings,
/// its objects' keys final keys, its arrays prefixes, everything else equal? (A lenient
/// parser shows an object before its first `:` as `null`: it may turn out a set.)
pub fn consistent(partial: &Value, fin: &Value) -> bool {
    match (partial, fin) {
        (Value::Null, Value::Object(_) | Value::Array(_)) => true,
        (Value::String(partial), Value::String(fin)) => fin.starts_with(partial.as_str()),
        (Value::Object(partial), Value::Object(fin)) => {
            partial.iter().all(|(key, value)| fin.get(key).is_some_and(|fin| consistent(value, fin)))
        }
        (Value::Array(partial), Value::Array(fin)) => {
            partial.len() <= fin.len()
                && partial.iter().zip(fin).all(|(partial, fin)| consistent(partial, fin))
        }
        _ => partial == fin,
    }
}

/// Stream `text` in pieces of `step` characters (with events), checking after each piece
/// that every open call is a prefix-consistent view of the call the end gives, and that the
/// events add up to the final arguments. Returns whether an open call showed its name and
/// arguments before the end.
pub fn check_open_calls(text: &str, options: &CallOptions, step: usize, context: &str) -> bool {
    let cuts: Vec<usize> = (0..=text.len()).filter(|at| text.is_char_boundary(*at)).step_by(step).collect();
    check_open_calls_at(text, options, cuts, context)
}

/// [`check_open_calls`] with the text pushed in the pieces between `cuts`.
pub fn check_open_calls_at(text: &str, options: &CallOptions, mut cuts: Vec<usize>, context: &str) -> bool {
    let whole = parse_text(text, options);
    assert!(whole.errors.is_empty(), "{context}: {:?}", errors(&whole));
    let final_arguments = |position: usize| Value::Object(whole.calls[position].arguments.clone());
    let mut stream = StreamAssembler::new(options.clone()).with_events();
    cuts.push(text.len());
    let mut grown: HashMap<(usize, String), String> = HashMap::new();
    let mut shown = false;
    for pair in cuts.windows(2) {
        stream.push_text(&text[pair[0]..pair[1]]);
        for open in stream.open_calls() {
            let at = format!("{context}, open call {} after {} bytes", open.position, pair[1]);
            let Some(call) = whole.calls.get(open.position) else {
                assert!(
                    open.name.is_none() && open.arguments_partial.is_none(),
                    "{at}: no such call at the end"
                );
                continue;
            };
            if let Some(name) = open.name {
                assert_eq!(name, call.name, "{at}");
            }
            if let Some(partial) = open.arguments_partial {
                assert!(open.name.is_some(), "{at}: arguments before the name");
                assert!(partial.is_object(), "{at}: arguments shown as {partial}, not an object");
                let fin = Value::Object(call.arguments.clone());
                assert!(consistent(partial, &fin), "{at}: {partial} is not a view of {fin}");
                shown |= partial.as_object().is_some_and(|members| !members.is_empty());
            }
        }
        for event in stream.take_events() {
            let at = format!("{context}, event {:?} after {} bytes", event.event, pair[1]);
            let fin = final_arguments(event.position);
            if let Some(name) = &event.name {
                assert_eq!(name, &whole.calls[event.position].name, "{at}");
            }
            match &event.event {
                StreamEvent::StringGrew { path, appended } => {
                    let so_far = grown.entry((event.position, path.to_string())).or_default();
                    so_far.push_str(appended);
                    let fin = fin.pointer(path).and_then(Value::as_str);
                    assert!(fin.is_some_and(|fin| fin.starts_with(so_far.as_str())), "{at}: {so_far:?}");
                }
                StreamEvent::ValueComplete { path, value } => {
                    assert_eq!(fin.pointer(path), Some(value.as_ref()), "{at}");
                    if let Some(so_far) = grown.get(&(event.position, path.to_string())) {
                        assert_eq!(
                            Some(so_far.as_str()),
                            value.as_str(),
                            "{at}: the pieces are not the string"
                        );
                    }
                }
                StreamEvent::Restart => grown.retain(|(position, _), _| *position != event.position),
                _ => {}
            }
        }
    }
    assert_eq!(outcome(&stream.finish()), outcome(&whole), "{context}");
    shown
}

/// Stream `pieces` of a call in `format`; the open call's name and arguments after each.
pub fn open_after_each(format: TextFormat, pieces: &[&str]) -> Vec<(Option<String>, Option<Value>)> {
    let options = CallOptions::new().format(Format::Text).text_format(format);
    let mut stream = StreamAssembler::new(options).with_events();
    pieces
        .iter()
        .map(|piece| {
            stream.push_text(piece);
            let open = stream.open_calls();
            let last = open.last();
            (
                last.and_then(|open| open.name.map(str::to_owned)),
                last.and_then(|open| open.arguments_partial.cloned()),
            )
        })
        .collect()
}
