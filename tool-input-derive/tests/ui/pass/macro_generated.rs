use schemars::JsonSchema;
use serde::Deserialize;
use tool_input::ToolInput;

// Attribute values arrive wrapped in invisible groups when a `macro_rules!` passes them on.
macro_rules! tool {
    ($ty:ident, $name:literal, $policy:expr) => {
        #[derive(Deserialize, JsonSchema, ToolInput)]
        #[tool_input(name = $name, policy = $policy)]
        #[allow(dead_code)]
        struct $ty {
            #[tool_input(policy = $policy)]
            query: String,
        }
    };
}

tool!(Search, "search_everything", "strict");

fn main() {
    assert_eq!(Search::NAME, "search_everything");
    assert_eq!(Search::POLICY, Some(tool_input::Policy::Strict));
}
