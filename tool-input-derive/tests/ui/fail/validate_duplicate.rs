use schemars::JsonSchema;
use serde::Deserialize;
use tool_input::{FieldError, ToolInput};

#[derive(Deserialize, JsonSchema, ToolInput)]
#[tool_input(validate = first)]
#[tool_input(validate = "second")]
struct Booking {
    nights: u32,
}

fn first(_: &Booking) -> Result<(), Vec<FieldError>> {
    Ok(())
}

fn second(_: &Booking) -> Result<(), Vec<FieldError>> {
    Ok(())
}

fn main() {}
