use schemars::JsonSchema;
use serde::Deserialize;
use tool_input::ToolInput;

#[derive(Deserialize, JsonSchema, ToolInput)]
#[tool_input(validate = nights_positive)]
struct Booking {
    nights: u32,
}

#[derive(Deserialize, JsonSchema, ToolInput)]
#[tool_input(validate = takes_the_wrong_type)]
struct Other {
    nights: u32,
}

// Returns a bool, not `Result<(), Vec<FieldError>>`.
fn nights_positive(booking: &Booking) -> bool {
    booking.nights > 0
}

fn takes_the_wrong_type(_: &Booking) -> Result<(), Vec<tool_input::FieldError>> {
    Ok(())
}

fn main() {}
