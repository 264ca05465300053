use schemars::JsonSchema;
use serde::Deserialize;
use tool_input::ToolInput;

#[derive(Deserialize, JsonSchema, ToolInput)]
#[tool_input(validate = rules::no_such_rule)]
struct Booking {
    nights: u32,
}

mod rules {}

fn main() {}
