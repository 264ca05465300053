use schemars::JsonSchema;
use serde::Deserialize;
use tool_input::ToolInput;

#[derive(Deserialize, JsonSchema, ToolInput)]
struct Login {
    #[tool_input(sensitive = true)]
    password: String,
}

fn main() {}
