use schemars::JsonSchema;
use serde::Deserialize;
use tool_input::ToolInput;

#[derive(Deserialize, JsonSchema, ToolInput)]
#[tool_input(partial = "no")]
struct NotABool {
    name: String,
}

#[derive(Deserialize, JsonSchema, ToolInput)]
#[tool_input(partial)]
struct Bare {
    name: String,
}

#[derive(Deserialize, JsonSchema, ToolInput)]
#[tool_input(partial(name = "Draft"))]
struct UnknownOption {
    name: String,
}

#[derive(Deserialize, JsonSchema, ToolInput)]
#[tool_input(partial(rename = "not a name"))]
struct NotAName {
    name: String,
}

#[derive(Deserialize, JsonSchema, ToolInput)]
#[tool_input(partial(rename = "Itself"))]
struct Itself {
    name: String,
}

#[derive(Deserialize, JsonSchema, ToolInput)]
#[tool_input(partial = false, partial(rename = "Twice"))]
struct Twice {
    name: String,
}

#[derive(Deserialize, JsonSchema, ToolInput)]
struct OnField {
    #[tool_input(partial = false)]
    name: String,
}

fn main() {}
