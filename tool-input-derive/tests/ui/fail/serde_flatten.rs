use schemars::JsonSchema;
use serde::Deserialize;
use tool_input::ToolInput;

#[derive(Deserialize, JsonSchema, ToolInput)]
struct Search {
    query: String,
    #[serde(flatten)]
    #[tool_input(lenient)]
    paging: Paging,
}

#[derive(Deserialize, JsonSchema)]
struct Paging {
    page: u32,
}

fn main() {}
