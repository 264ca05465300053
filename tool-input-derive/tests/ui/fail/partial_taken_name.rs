use schemars::JsonSchema;
use serde::Deserialize;
use tool_input::ToolInput;

/// The user's own type, under the name the partial would take.
pub struct NotePartial;

#[derive(Deserialize, JsonSchema, ToolInput)]
struct Note {
    text: String,
}

fn main() {}
