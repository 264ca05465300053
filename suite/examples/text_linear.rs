//! Reads one text format's fixtures repeated to `FACTOR` x 16 KiB, whole or streamed in 16-byte
//! chunks with the open calls taken after each (as `benches/text_formats.rs` does), and with
//! `typed`, each open call's typed partial asked too: run under
//! callgrind at two factors, the instruction counts tell whether a format's reading is linear
//! (their ratio is the factors').
//!
//! `cargo run -p tool-input-suite --example text_linear -- <format> <whole|streamed|typed> <factor>`

#[path = "../benches/text_fixtures/mod.rs"]
mod text_fixtures;

use text_fixtures::{chunks, fixtures, repeated, stream, stream_typed};
use tool_input::calls::{parse_text, CallOptions, TextFormat};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, format, mode, factor] = args.as_slice() else {
        eprintln!("usage: text_linear <format> <whole|streamed|typed> <factor>");
        std::process::exit(2);
    };
    let factor: usize = factor.parse().expect("a factor");
    let named: TextFormat = format.parse().expect("a known format");
    let (tools, by_format) = fixtures();
    let unit = by_format.get(named.as_str()).expect("the format's fixtures");
    let text = repeated(unit, 16 * 1024 * factor);
    let options = CallOptions::new()
        .known_tools(tools)
        .text_format(named)
        .max_calls(usize::MAX)
        .max_body_bytes(usize::MAX);
    // After a lone `</think>`, so the calls show as they are written in every format.
    let streamed = format!("</think>{text}");
    let seen = match mode.as_str() {
        "whole" => parse_text(&text, &options).calls.len(),
        "typed" => stream_typed(&chunks(&streamed, 16), &options),
        _ => stream(&chunks(&streamed, 16), &options),
    };
    println!("{format} {mode} x{factor}: {} bytes, {seen}", text.len());
}
