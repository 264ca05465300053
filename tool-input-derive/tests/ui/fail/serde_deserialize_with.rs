use schemars::JsonSchema;
use serde::{Deserialize, Deserializer};
use tool_input::ToolInput;

#[derive(Deserialize, JsonSchema, ToolInput)]
struct Schedule {
    #[serde(deserialize_with = "minutes")]
    duration: u32,
    // With the schema of what it reads, it is accepted.
    #[serde(deserialize_with = "minutes")]
    #[schemars(with = "String")]
    timeout: u32,
}

fn minutes<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u32, D::Error> {
    let text = String::deserialize(deserializer)?;
    text.parse().map_err(serde::de::Error::custom)
}

fn main() {}
