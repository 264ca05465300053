use schemars::JsonSchema;
use serde::Deserialize;
use tool_input::calls::CallOptions;
use tool_input::stream::StreamAssembler;
use tool_input::ToolInput;

#[derive(Deserialize, JsonSchema)]
struct Point {
    x: i32,
}

/// A generic tool compiles whatever its parameter; its partial is there once the parameter
/// has one.
#[derive(Deserialize, JsonSchema, ToolInput)]
struct Page<T> {
    items: Vec<T>,
}

fn main() {
    let mut stream = StreamAssembler::new(CallOptions::new());
    let _ = stream.partial::<Page<Point>>(0);
}
