use schemars::JsonSchema;
use serde::Deserialize;
use tool_input::ToolInput;

#[derive(Deserialize, JsonSchema, ToolInput)]
struct Login {
    user: String,
    #[serde(skip)]
    #[tool_input(sensitive)]
    session: String,
}

fn main() {}
