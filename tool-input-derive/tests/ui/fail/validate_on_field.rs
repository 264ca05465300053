use schemars::JsonSchema;
use serde::Deserialize;
use tool_input::{FieldError, ToolInput};

#[derive(Deserialize, JsonSchema, ToolInput)]
struct Booking {
    #[tool_input(validate = check)]
    nights: u32,
}

fn check(_: &Booking) -> Result<(), Vec<FieldError>> {
    Ok(())
}

fn main() {}
