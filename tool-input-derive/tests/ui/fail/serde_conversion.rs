use schemars::JsonSchema;
use serde::Deserialize;
use tool_input::ToolInput;

#[derive(Deserialize, JsonSchema, ToolInput)]
#[serde(transparent)]
struct Wrapper {
    inner: String,
}

#[derive(Deserialize, JsonSchema)]
struct Raw {
    city: String,
}

#[derive(Deserialize, JsonSchema, ToolInput)]
#[serde(from = "Raw")]
struct Converted {
    city: String,
}

impl From<Raw> for Converted {
    fn from(raw: Raw) -> Self {
        Converted { city: raw.city }
    }
}

fn main() {}
