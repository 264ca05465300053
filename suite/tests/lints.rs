//! The expansion trips none of the lints users commonly deny.
#![deny(warnings, unused_qualifications, missing_docs, unreachable_pub)]
#![deny(clippy::all, clippy::pedantic)]

use std::borrow::Cow;
use std::marker::PhantomData;

use schemars::JsonSchema;
use serde::Deserialize;
use tool_input::ToolInput;

/// Documented.
#[derive(Deserialize, JsonSchema, ToolInput)]
#[tool_input(policy = "lenient")]
pub struct Documented {
    /// A field.
    #[tool_input(strict, sensitive)]
    pub field: String,
}

/// Generic over a type and a constant.
#[derive(Deserialize, JsonSchema, ToolInput)]
#[tool_input(description = "A generic tool.")]
pub struct Generic<T: Clone, const N: usize>
where
    T: Default,
{
    /// A field.
    #[tool_input(policy = "strict")]
    pub items: Vec<T>,
    #[serde(skip)]
    n: PhantomData<[(); N]>,
}

/// With a lifetime.
#[derive(Deserialize, JsonSchema, ToolInput)]
pub struct Borrowing<'a> {
    /// A field.
    pub text: Cow<'a, str>,
}

/// Undocumented container description from a macro.
#[doc = concat!("Built", " by a macro.")]
#[derive(Deserialize, JsonSchema, ToolInput)]
pub struct MacroDoc {
    /// A field.
    pub field: String,
}

#[test]
fn expansion_is_warning_free() {
    assert_eq!(Documented::FIELDS.len(), 1);
    assert_eq!(<Generic<u8, 3>>::NAME, "generic");
    assert_eq!(Generic::<u8, 3>::FIELDS.len(), 1);
    assert_eq!(Borrowing::NAME, "borrowing");
    assert!(MacroDoc::DESCRIPTION.is_some());
}
