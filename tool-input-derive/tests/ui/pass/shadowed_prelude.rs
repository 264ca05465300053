// The expansion names everything through `tool_input::__private`, so local items called
// `Option`, `Some` or `ToolDefinition` change nothing.
#![allow(dead_code)]

use schemars::JsonSchema;
use serde::Deserialize;
use tool_input::ToolInput;

struct Option;
struct Some;
struct None;
struct OnceLock;
struct ToolDefinition;
struct FieldOptions;
enum Policy {}
mod core {}
mod std {}

/// Look up a word.
#[derive(Deserialize, JsonSchema, ToolInput)]
#[tool_input(policy = "strict")]
struct LookUp {
    #[tool_input(sensitive)]
    word: String,
}

fn main() {
    assert_eq!(LookUp::NAME, "look_up");
    assert!(LookUp::DESCRIPTION.is_some());
    assert_eq!(LookUp::FIELDS.len(), 1);
}
