use schemars::JsonSchema;
use serde::Deserialize;
use tool_input::ToolInput;

#[derive(Deserialize, JsonSchema, ToolInput)]
struct GetWeather {
    #[serde(rename = 5)]
    city: String,
}

fn main() {}
