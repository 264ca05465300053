use schemars::JsonSchema;
use serde::Deserialize;
use tool_input::ToolInput;

/// Search the catalogue.
///
/// Returns at most `limit` products.
#[derive(Deserialize, JsonSchema, ToolInput)]
#[allow(dead_code)]
struct Search {
    /// What to look for.
    query: String,
}

/// # Catalogue search
///
/// Search the catalogue.
#[derive(Deserialize, JsonSchema, ToolInput)]
#[allow(dead_code)]
struct Titled {
    query: String,
}

#[doc = "Built from"]
#[doc = concat!("a ", "macro.")]
#[derive(Deserialize, JsonSchema, ToolInput)]
#[allow(dead_code)]
struct FromMacro {
    query: String,
}

#[derive(Deserialize, JsonSchema, ToolInput)]
#[doc(hidden)]
#[allow(dead_code)]
struct Hidden {
    query: String,
}

fn main() {
    assert_eq!(Search::DESCRIPTION, Some("Search the catalogue.\n\nReturns at most `limit` products."));
    assert_eq!(Titled::DESCRIPTION, Some("Search the catalogue."));
    assert_eq!(FromMacro::DESCRIPTION, Some("Built from\na macro."));
    assert_eq!(Hidden::DESCRIPTION, None);
}
