use schemars::JsonSchema;
use serde::Deserialize;
use tool_input::ToolInput;

#[derive(Deserialize, JsonSchema, ToolInput)]
struct Login {
    user: String,
    #[tool_input(strict)]
    #[serde(skip_deserializing)]
    attempts: u32,
}

fn main() {}
