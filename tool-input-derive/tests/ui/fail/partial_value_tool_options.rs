use schemars::JsonSchema;
use serde::Deserialize;
use tool_input::{PartialValue, ToolInput};

/// A tool; its nested type's options would do nothing there.
#[derive(Deserialize, JsonSchema, ToolInput)]
struct Pay {
    card: Card,
}

#[derive(Deserialize, JsonSchema, PartialValue)]
#[tool_input(name = "card", policy = "strict")]
struct Card {
    #[tool_input(sensitive)]
    number: String,
    #[tool_input(lenient, stream_done)]
    holder: String,
    #[tool_input(stream_whole, stream_not_null)]
    expiry: String,
    #[tool_input(stream_don)]
    cvc: String,
}

// Beside `ToolInput` (with `partial = false`), `ToolInput` reads them: no error twice.
#[derive(Deserialize, JsonSchema, ToolInput, PartialValue)]
#[tool_input(partial = false, policy = "strict")]
struct Refund {
    #[tool_input(sensitive)]
    number: String,
}

// An enum is shown only whole: `crate` is all it takes.
#[derive(Deserialize, JsonSchema, PartialValue)]
#[tool_input(crate = "tool_input", partial(rename = "Draft"))]
enum Brand {
    #[tool_input(sensitive)]
    Visa,
    Other {
        #[tool_input(stream_done)]
        name: String,
    },
}

fn main() {}
