//! The call the partial's cost is measured on (the `partial` bench, and the `partial_linear`
//! example under callgrind): a file of numbered lines, each a struct with a string, a number
//! and a list.

#![allow(dead_code)] // each user takes its part

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use tool_input::{PartialValue, ToolInput};

/// Write a file, line by line.
#[derive(Serialize, Deserialize, JsonSchema, ToolInput)]
pub struct WriteLines {
    pub path: String,
    pub lines: Vec<Line>,
}

#[derive(Serialize, Deserialize, JsonSchema, PartialValue)]
pub struct Line {
    pub number: u32,
    pub text: String,
    pub marks: Vec<u8>,
}

/// Lines of at least `bytes` bytes of JSON.
pub fn lines(bytes: usize) -> Vec<Line> {
    let mut lines = Vec::new();
    let mut size = 0;
    while size < bytes {
        let line = Line {
            number: lines.len() as u32,
            text: format!("line {} of the notes, with some words", lines.len()),
            marks: vec![1, 2, 3],
        };
        size += serde_json::to_string(&line).map_or(0, |text| text.len() + 1);
        lines.push(line);
    }
    lines
}

/// The arguments of a `WriteLines` call of at least `bytes` bytes.
pub fn write_lines(bytes: usize) -> String {
    let call = WriteLines { path: "notes/today.md".into(), lines: lines(bytes) };
    serde_json::to_string(&call).expect("the call serializes")
}
