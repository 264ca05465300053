use schemars::JsonSchema;
use serde::Deserialize;
use tool_input::{Policy, ToolInput};

#[derive(Deserialize, JsonSchema, ToolInput)]
#[allow(dead_code)]
struct Transfer {
    #[serde(rename = "from")]
    #[tool_input(strict)]
    source_account: String,
    #[serde(rename(serialize = "to_ser", deserialize = "to"))]
    #[tool_input(strict)]
    target_account: String,
    #[serde(alias = "pin_code")]
    #[tool_input(sensitive)]
    pin: String,
    #[tool_input(lenient)]
    r#type: String,
}

fn main() {
    let names: Vec<_> = Transfer::FIELDS.iter().map(|field| field.name).collect();
    assert_eq!(names, ["from", "to", "pin", "type"]);
    assert_eq!(Transfer::FIELDS[3].policy, Some(Policy::Lenient));
}
