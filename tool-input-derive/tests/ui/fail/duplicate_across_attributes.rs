use schemars::JsonSchema;
use serde::Deserialize;
use tool_input::ToolInput;

#[derive(Deserialize, JsonSchema, ToolInput)]
#[tool_input(policy = "strict")]
#[tool_input(policy = "lenient")]
struct GetWeather {
    city: String,
}

fn main() {}
