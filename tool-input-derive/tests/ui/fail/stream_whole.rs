use schemars::JsonSchema;
use serde::Deserialize;
use tool_input::ToolInput;

#[derive(Deserialize, JsonSchema, ToolInput)]
#[tool_input(stream_whole)]
struct OnStruct {
    #[tool_input(stream_whole, stream_done, stream_not_null)]
    name: String,
    #[tool_input(stream_whole = true)]
    other: String,
}

fn main() {}
