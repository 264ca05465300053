use schemars::JsonSchema;
use serde::Deserialize;
use tool_input::{PartialValue, ToolInput};

// `ToolInput` writes the partial already.
#[derive(Deserialize, JsonSchema, ToolInput, PartialValue)]
struct Note {
    text: String,
}

fn main() {}
