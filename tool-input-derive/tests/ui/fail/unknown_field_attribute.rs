use schemars::JsonSchema;
use serde::Deserialize;
use tool_input::ToolInput;

#[derive(Deserialize, JsonSchema, ToolInput)]
struct GetWeather {
    #[tool_input(required = true)]
    city: String,
}

fn main() {}
