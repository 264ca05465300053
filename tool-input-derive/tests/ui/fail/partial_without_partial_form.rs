use schemars::JsonSchema;
use serde::Deserialize;
use tool_input::partial::PartialReader;
use tool_input::ToolInput;

#[derive(Deserialize, JsonSchema)]
struct Point {
    x: i32,
}

/// The tool compiles; its partial is there once `Point` has one.
#[derive(Deserialize, JsonSchema, ToolInput)]
struct Plot {
    at: Point,
}

fn main() {
    let _ = PartialReader::<Plot>::new();
}
