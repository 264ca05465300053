//! Reads one text format's fixtures repeated to `FACTOR` x 16 KiB, whole or streamed in 16-byte
//! chunks with the open calls taken after each: run under callgrind at two factors, the
//! instruction counts tell whether a format's reading is linear (their ratio is the factors').
//!
//! `cargo run -p tool-input-suite --example text_linear -- <format> <whole|streamed> <factor>`

use serde_json::Value;
use tool_input::calls::{parse_text, CallOptions, Format, KnownTool, TextFormat};
use tool_input::stream::StreamAssembler;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, format, mode, factor] = args.as_slice() else {
        eprintln!("usage: text_linear <format> <whole|streamed> <factor>");
        std::process::exit(2);
    };
    let factor: usize = factor.parse().expect("a factor");
    let raw: Value = serde_json::from_str(include_str!("../../tool-input/tests/data/text_formats.json"))
        .expect("fixtures");
    let tools: Vec<KnownTool> = raw["tools"]
        .as_object()
        .expect("tools")
        .iter()
        .map(|(name, schema)| KnownTool { name: name.clone(), schema: Some(schema.clone()) })
        .collect();
    let named: TextFormat = format.parse().expect("a known format");
    let mut unit = String::new();
    for fixture in raw["fixtures"].as_array().expect("fixtures") {
        let text = fixture["text"].as_str().expect("text");
        let same = fixture["format"].as_str().and_then(|f| f.parse::<TextFormat>().ok()) == Some(named);
        if same && !(text.contains("think") || text.contains("analysis") || text.contains("THINK")) {
            unit.push_str(text);
            unit.push(' ');
        }
    }
    let bytes = 16 * 1024 * factor;
    let text = unit.repeat(bytes / unit.len().max(1) + 1);
    let options = CallOptions::new()
        .known_tools(tools)
        .text_format(named)
        .max_calls(usize::MAX)
        .max_body_bytes(usize::MAX);
    let seen = if mode == "whole" {
        parse_text(&text, &options).calls.len()
    } else {
        let text = format!("</think>{text}");
        let mut stream = StreamAssembler::new(options.format(Format::Text));
        let mut seen = 0;
        let mut start = 0;
        while start < text.len() {
            let mut end = (start + 16).min(text.len());
            while !text.is_char_boundary(end) {
                end += 1;
            }
            stream.push_text(&text[start..end]);
            seen += stream.open_calls().len();
            start = end;
        }
        seen + stream.finish().calls.len()
    };
    println!("{format} {mode} x{factor}: {} bytes, {seen}", text.len());
}
