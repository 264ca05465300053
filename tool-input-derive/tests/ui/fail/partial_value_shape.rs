use serde::Deserialize;
use tool_input::PartialValue;

#[derive(Deserialize, PartialValue)]
struct Pair(u32, u32);

fn main() {}
