//! The text formats' fixtures as the `text_formats` bench and the `text_linear` example read
//! them: each format's calls (reasoning left out) as one unit, repeated to a size, and streamed
//! in chunks with the open calls looked at after each.

#![allow(dead_code)] // each user takes its part

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;
use tool_input::calls::{CallOptions, Format, KnownTool, TextFormat};
use tool_input::stream::StreamAssembler;
use tool_input::ToolInput;

/// The fixtures' tools, and every fixture with its format, reasoning included, in file order.
pub fn every_fixture() -> (Vec<KnownTool>, Vec<(TextFormat, String)>) {
    let raw: Value = serde_json::from_str(include_str!("../../../tool-input/tests/data/text_formats.json"))
        .expect("fixtures");
    let tools = raw["tools"]
        .as_object()
        .expect("tools")
        .iter()
        .map(|(name, schema)| KnownTool { name: name.clone(), schema: Some(schema.clone()) })
        .collect();
    let fixtures = raw["fixtures"]
        .as_array()
        .expect("fixtures")
        .iter()
        .map(|fixture| {
            let format = fixture["format"].as_str().expect("format").parse().expect("a known format");
            (format, fixture["text"].as_str().expect("text").to_owned())
        })
        .collect();
    (tools, fixtures)
}

/// Each format's fixtures, joined by a space.
pub fn fixtures() -> (Vec<KnownTool>, BTreeMap<String, String>) {
    let (tools, every) = every_fixture();
    let mut by_format: BTreeMap<String, String> = BTreeMap::new();
    for (format, text) in every {
        // Reasoning would swallow what follows it once repeated: only what is read as calls.
        if text.contains("think") || text.contains("analysis") || text.contains("THINK") {
            continue;
        }
        let entry = by_format.entry(format.as_str().to_owned()).or_default();
        entry.push_str(&text);
        entry.push(' ');
    }
    (tools, by_format)
}

pub fn repeated(unit: &str, bytes: usize) -> String {
    unit.repeat(bytes / unit.len().max(1) + 1)
}

/// `text` cut into pieces of about `size` bytes, at character boundaries.
pub fn chunks(text: &str, size: usize) -> Vec<&str> {
    let mut pieces = Vec::with_capacity(text.len() / size + 1);
    let mut start = 0;
    while start < text.len() {
        let mut end = (start + size).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        pieces.push(&text[start..end]);
        start = end;
    }
    pieces
}

/// Stream `pieces` as text, looking at the open calls after each: what a UI showing the
/// calls as they are written does.
pub fn stream(pieces: &[&str], options: &CallOptions) -> usize {
    let mut stream = StreamAssembler::new(options.clone().format(Format::Text));
    let mut seen = 0;
    for piece in pieces {
        stream.push_text(piece);
        for open in stream.open_calls() {
            seen += usize::from(open.name.is_some())
                + open.arguments_partial.map_or(0, |partial| partial.is_object().into());
        }
    }
    seen + stream.finish().calls.len()
}

/// The fixtures' tools as types, for their typed partials.
#[derive(Deserialize, JsonSchema, ToolInput)]
pub struct GetWeather {
    pub city: String,
    pub days: Option<i64>,
    pub metric: Option<bool>,
}

/// Search.
#[derive(Deserialize, JsonSchema, ToolInput)]
pub struct Search {
    pub query: Option<String>,
    pub limit: Option<i64>,
    pub filters: Option<Value>,
    pub tags: Option<Vec<String>>,
}

/// Write a file.
#[derive(Deserialize, JsonSchema, ToolInput)]
pub struct WriteFile {
    pub path: Option<String>,
    pub content: Option<String>,
}

/// [`stream`], asking each open call's typed partial after each piece as well (by its
/// tool's type): what a UI showing typed fields as they are written does.
pub fn stream_typed(pieces: &[&str], options: &CallOptions) -> usize {
    let mut stream = StreamAssembler::new(options.clone().format(Format::Text));
    let mut seen = 0;
    for piece in pieces {
        stream.push_text(piece);
        let open: Vec<(usize, Option<String>)> =
            stream.open_calls().iter().map(|open| (open.position, open.name.map(str::to_owned))).collect();
        for (position, name) in open {
            let shown = match name.as_deref() {
                Some("get_weather") => stream.partial::<GetWeather>(position).is_some(),
                Some("search") => stream.partial::<Search>(position).is_some(),
                Some("write_file") => stream.partial::<WriteFile>(position).is_some(),
                _ => false,
            };
            seen += usize::from(shown);
        }
    }
    seen + stream.finish().calls.len()
}
