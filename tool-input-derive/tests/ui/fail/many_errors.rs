use schemars::JsonSchema;
use serde::Deserialize;
use tool_input::ToolInput;

/// Book a table.
#[derive(Deserialize, JsonSchema, ToolInput)]
#[tool_input(name = "book a table", policy = "loose", sensitive)]
#[tool_input(description = "", colour = "blue", name = "book")]
struct BookTable {
    #[tool_input(strict, lenient, name = "guests")]
    guests: u8,
    #[serde(skip)]
    #[tool_input(sensitive = "yes", policy = 3)]
    internal: String,
}

fn main() {}
