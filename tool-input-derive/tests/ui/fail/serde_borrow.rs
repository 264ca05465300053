use std::borrow::Cow;

use schemars::JsonSchema;
use serde::Deserialize;
use tool_input::ToolInput;

#[derive(Deserialize, JsonSchema, ToolInput)]
struct Note<'a> {
    #[serde(borrow)]
    title: Cow<'a, str>,
    body: &'a str,
}

fn main() {}
