use serde::Deserialize;
use tool_input::PartialValue;

#[derive(Deserialize, PartialValue)]
struct Pair(u32, u32);

#[derive(Deserialize, PartialValue)]
struct Page<T> {
    items: Vec<T>,
}

fn main() {}
