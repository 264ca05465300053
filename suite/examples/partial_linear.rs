//! A call of `KB` kilobytes of arguments streamed through the assembler (OpenAI chunks of 16
//! bytes of arguments), its typed partial asked for after every chunk: run under callgrind
//! at two sizes, the instruction counts tell whether the partial's cost per chunk stays flat
//! (their ratio is the sizes'). `tool` is `lines` (a plain tool, `WriteLines`) or `page` (a
//! generic one, `Page<Line>`).
//!
//! `cargo run -p tool-input-suite --example partial_linear -- <lines|page> <KB>`

#[path = "../benches/partial_call/mod.rs"]
mod partial_call;

use partial_call::{lines, write_lines, Line, WriteLines};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;
use tool_input::calls::CallOptions;
use tool_input::stream::StreamAssembler;
use tool_input::ToolInput;

/// A page of items of the caller's type.
#[derive(Serialize, Deserialize, JsonSchema, ToolInput)]
struct Page<T> {
    next: String,
    items: Vec<T>,
}

const CHUNK: usize = 16;

/// Stream `text` as a call to `name` in chunks, asking `ask` after every chunk; how many of
/// the answers had a partial.
fn stream(name: &str, text: &str, mut ask: impl FnMut(&mut StreamAssembler) -> bool) -> usize {
    let mut stream = StreamAssembler::new(CallOptions::new());
    let mut answered = 0;
    for (index, piece) in text.as_bytes().chunks(CHUNK).enumerate() {
        let piece = std::str::from_utf8(piece).expect("the call is ASCII");
        let function =
            if index == 0 { json!({"name": name, "arguments": piece}) } else { json!({"arguments": piece}) };
        stream.push_event(&json!({"choices": [{"index": 0, "delta": {"tool_calls": [
            {"index": 0, "id": "call_1", "type": "function", "function": function}]}}]}));
        answered += usize::from(ask(&mut stream));
    }
    answered
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, tool, kilobytes] = args.as_slice() else {
        eprintln!("usage: partial_linear <lines|page> <KB>");
        std::process::exit(2);
    };
    let bytes = kilobytes.parse::<usize>().expect("a size in KB") * 1024;
    let answered = match tool.as_str() {
        "lines" => {
            let text = write_lines(bytes);
            stream("write_lines", &text, |stream| stream.partial::<WriteLines>(0).is_some())
        }
        "page" => {
            let text = serde_json::to_string(&Page { next: "c2".into(), items: lines(bytes) });
            let text = text.expect("the call serializes");
            stream("page", &text, |stream| stream.partial::<Page<Line>>(0).is_some())
        }
        other => {
            eprintln!("unknown tool {other}: lines or page");
            std::process::exit(2);
        }
    };
    println!("{tool}: {kilobytes} KB, a partial after {answered} chunks");
}
