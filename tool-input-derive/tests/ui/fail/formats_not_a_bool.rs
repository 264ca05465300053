use schemars::JsonSchema;
use serde::Deserialize;
use tool_input::ToolInput;

#[derive(Deserialize, JsonSchema, ToolInput)]
#[tool_input(formats = "no")]
struct Quoted {
    id: String,
}

#[derive(Deserialize, JsonSchema, ToolInput)]
#[tool_input(formats)]
struct Bare {
    id: String,
}

#[derive(Deserialize, JsonSchema, ToolInput)]
struct OnAField {
    #[tool_input(formats = false)]
    id: String,
}

fn main() {}
