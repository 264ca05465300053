use std::borrow::Cow;
use std::fmt::Debug;

use schemars::JsonSchema;
use serde::Deserialize;
use tool_input::{Policy, ToolInput};

/// Store some items.
#[derive(Deserialize, JsonSchema, ToolInput)]
#[allow(dead_code)]
struct Store<T, U: Debug = String>
where
    T: Clone,
{
    #[tool_input(strict)]
    items: Vec<T>,
    label: U,
}

#[derive(Deserialize, JsonSchema, ToolInput)]
#[allow(dead_code)]
struct Note<'a> {
    #[tool_input(lenient)]
    text: Cow<'a, str>,
}

// Written by hand, the bound a user would need on a generic function.
fn name_of<T: ToolInput>() -> &'static str {
    T::NAME
}

fn main() {
    assert_eq!(name_of::<Store<u32>>(), "store");
    assert_eq!(Store::<u32, u8>::DESCRIPTION, Some("Store some items."));
    assert_eq!(Store::<u32>::FIELDS[0].policy, Some(Policy::Strict));
    assert_eq!(name_of::<Note<'static>>(), "note");
}
