//! `#[derive(ToolInput)]` writes a tool's partial; `#[derive(PartialValue)]` a nested struct's and
//! an enum's; with the stream attributes, under a shadowed prelude.

use schemars::JsonSchema;
use serde::Deserialize;
use tool_input::partial::{FieldState, PartialReader};
use tool_input::{PartialValue, ToolInput};

#[allow(dead_code)]
struct Option;
#[allow(dead_code)]
struct Default;

#[derive(Deserialize, JsonSchema, ToolInput)]
#[allow(dead_code)]
pub struct Plan {
    #[tool_input(stream_done)]
    title: String,
    #[tool_input(stream_not_null)]
    steps: Vec<Step>,
    #[serde(skip)]
    cache: u8,
}

#[derive(Deserialize, JsonSchema, PartialValue)]
#[allow(dead_code)]
pub struct Step {
    what: String,
    kind: Kind,
}

#[derive(Debug, Clone, Deserialize, JsonSchema, PartialValue)]
pub enum Kind {
    Manual,
    Automatic,
}

fn main() {
    let mut reader = PartialReader::<Plan>::new();
    reader.feed(r#"{"title": "Move", "steps": [{"what": "pack", "kind": "Manual"}"#);
    let plan: &PlanPartial = reader.partial().value().unwrap();
    assert!(plan.title.is_complete());
    let steps = plan.steps.value().unwrap();
    assert!(matches!(steps[0], FieldState::Complete(_)));
}
