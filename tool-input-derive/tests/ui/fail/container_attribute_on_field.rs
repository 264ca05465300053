use schemars::JsonSchema;
use serde::Deserialize;
use tool_input::ToolInput;

#[derive(Deserialize, JsonSchema, ToolInput)]
struct GetWeather {
    #[tool_input(name = "town", description = "The city.")]
    city: String,
}

fn main() {}
