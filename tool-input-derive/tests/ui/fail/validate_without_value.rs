use schemars::JsonSchema;
use serde::Deserialize;
use tool_input::ToolInput;

#[derive(Deserialize, JsonSchema, ToolInput)]
#[tool_input(validate)]
struct Booking {
    nights: u32,
}

fn main() {}
