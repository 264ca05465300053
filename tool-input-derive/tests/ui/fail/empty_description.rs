use schemars::JsonSchema;
use serde::Deserialize;
use tool_input::ToolInput;

/// Get the weather.
#[derive(Deserialize, JsonSchema, ToolInput)]
#[tool_input(description = "  ")]
struct GetWeather {
    city: String,
}

fn main() {}
