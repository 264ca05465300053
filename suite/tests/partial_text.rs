//! `StreamAssembler::partial::<T>` for calls written in a text format (`<tool_call>{…}`,
//! qwen3-coder's parameters, Mistral's `[TOOL_CALLS]`, pythonic calls, …), over every
//! fixture of every format, streamed in pieces of several sizes: asked first part-way
//! through a call, the partial is the one asked after every piece from the start, and once
//! the text has arrived it holds every argument of the final reading, complete.

use serde_json::{json, Map, Value};
use tool_input::calls::{parse_text, CallOptions, Format, TextFormat};
use tool_input::partial::{FieldState, PartialReader, PartialValue};
use tool_input::stream::StreamAssembler;
use tool_input::ToolInput;

// The text formats' fixtures as the benches read them: their tools as types, and pieces.
#[path = "../benches/text_fixtures/mod.rs"]
mod text_fixtures;

use text_fixtures::{chunks as pieces, every_fixture, GetWeather, Search, WriteFile};

/// The partial of the call at `position` after each piece, asked from piece `first` on.
fn partials<T>(
    pieces: &[&str],
    options: &CallOptions,
    position: usize,
    first: usize,
) -> Vec<Option<FieldState<T::Partial>>>
where
    T: ToolInput + PartialValue + 'static,
    T::Partial: Clone + Send + Sync + 'static,
{
    let mut stream = StreamAssembler::new(options.clone());
    let mut seen = Vec::new();
    for (at, piece) in pieces.iter().enumerate() {
        stream.push_text(piece);
        seen.push(if at >= first { stream.partial::<T>(position).cloned() } else { None });
    }
    seen
}

/// Check the partials of one call, as `T`; returns whether it showed any.
fn check_call<T>(text: &str, options: &CallOptions, position: usize, arguments: &Map<String, Value>) -> bool
where
    T: ToolInput + PartialValue + 'static,
    T::Partial: Clone + PartialEq + std::fmt::Debug + Send + Sync + 'static,
{
    // Every argument complete, the arguments object still arriving: as a reader of the
    // final arguments' text has it before its end.
    let mut whole = PartialReader::<T>::new();
    whole.feed(&serde_json::to_string(arguments).expect("JSON"));
    let mut shown = false;
    for size in [1, 4, 16] {
        let pieces = pieces(text, size);
        let from_start = partials::<T>(&pieces, options, position, 0);
        let last = from_start.last().cloned().flatten();
        if let Some(last) = last.filter(|last| !last.is_absent()) {
            shown = true;
            assert_eq!(&last, whole.partial(), "{text:?} in pieces of {size}: the last partial");
        }
        let count = pieces.len();
        let firsts: Vec<usize> =
            if count <= 40 { (1..count).collect() } else { vec![1, count / 3, count / 2, count - 1] };
        for first in firsts {
            let late = partials::<T>(&pieces, options, position, first);
            assert_eq!(
                &late[first..],
                &from_start[first..],
                "{text:?} in pieces of {size}, asked first after piece {first}"
            );
        }
    }
    shown
}

#[test]
fn a_text_calls_typed_partial_asked_late_is_the_one_asked_from_the_start() {
    let (tools, fixtures) = every_fixture();
    let mut shown_by_format: std::collections::BTreeMap<&str, usize> = Default::default();
    for (format, text) in &fixtures {
        // After a lone `</think>`: where one ends reasoning, nothing before it is shown (it
        // may all be reasoning), and with it the calls show as they are written.
        let text = &format!("</think>{text}");
        // The format named, and detected (whose calls are final only at the end).
        let named = CallOptions::new().format(Format::Text).text_format(*format).known_tools(tools.clone());
        let detected = CallOptions::new().format(Format::Text).known_tools(tools.clone());
        for options in [named, detected] {
            let read = parse_text(text, &options);
            for call in &read.calls {
                let shown = match call.name.as_str() {
                    "get_weather" => check_call::<GetWeather>(text, &options, call.index, &call.arguments),
                    "search" => check_call::<Search>(text, &options, call.index, &call.arguments),
                    "write_file" => check_call::<WriteFile>(text, &options, call.index, &call.arguments),
                    _ => false,
                };
                *shown_by_format.entry(format.as_str()).or_default() += usize::from(shown);
            }
        }
    }
    // Every family of formats shows its calls typed: JSON bodies, named calls, parameters
    // as tags, Python calls, Gemma's and Kimi K3's syntaxes, harmony, MiniMax M3.
    let families = [
        "hermes",
        "mistral",
        "llama",
        "deepseek",
        "kimi",
        "qwen3_coder",
        "glm",
        "minimax_m2",
        "pythonic",
        "gemma4",
        "kimi_k3",
        "openai",
        "minimax_m3",
    ];
    for format in families {
        assert!(shown_by_format.get(format).is_some_and(|&shown| shown > 0), "{format}: {shown_by_format:?}");
    }
}

#[test]
fn a_text_call_shows_its_fields_as_they_arrive() {
    let options = CallOptions::new().format(Format::Text).text_format(TextFormat::Hermes);
    let mut stream = StreamAssembler::new(options);
    stream.push_text("</think>Writing it.\n<tool_call>\n{\"name\": \"write_file\", \"arguments\": {\"path\": \"a.md\", \"content\": \"# Ti");
    let partial = stream.partial::<WriteFile>(0).expect("the call's partial").value().expect("arriving");
    assert_eq!(partial.path, FieldState::Complete(Some("a.md".to_owned())));
    assert_eq!(partial.content, FieldState::Arriving(Some("# Ti".to_owned())));
    stream.push_text("tle\"}}\n</tool_call>");
    let partial = stream.partial::<WriteFile>(0).expect("the call's partial").value().expect("arriving");
    assert_eq!(partial.content, FieldState::Complete(Some("# Title".to_owned())));
    // Another tool's type shows nothing of it.
    assert!(stream.partial::<GetWeather>(0).is_none());
    assert_eq!(stream.finish().calls[0].arguments["content"], json!("# Title"));
}
