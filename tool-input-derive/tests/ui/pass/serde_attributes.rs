//! serde attributes tool-input follows: an alias, and a field read with a function whose
//! schema is given.

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer};
use tool_input::ToolInput;

#[derive(Debug, Deserialize, JsonSchema, ToolInput)]
struct Schedule {
    #[serde(deserialize_with = "minutes")]
    #[schemars(with = "String")]
    duration: u32,
    #[serde(alias = "label", alias = "title")]
    name: String,
}

fn minutes<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u32, D::Error> {
    let text = String::deserialize(deserializer)?;
    text.parse().map_err(serde::de::Error::custom)
}

fn main() {
    let schedule = Schedule::from_arguments(r#"{"duration": "90", "title": "standup"}"#).unwrap();
    assert_eq!((schedule.duration, schedule.name.as_str()), (90, "standup"));
}
