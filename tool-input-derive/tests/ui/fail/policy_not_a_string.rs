use schemars::JsonSchema;
use serde::Deserialize;
use tool_input::ToolInput;

#[derive(Deserialize, JsonSchema, ToolInput)]
struct GetWeather {
    #[tool_input(policy = strict)]
    city: String,
}

fn main() {}
