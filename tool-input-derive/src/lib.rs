//! `#[derive(ToolInput)]`, for the [`tool-input`](https://docs.rs/tool-input) crate, which
//! re-exports it: depend on `tool-input`, not on this crate.
#![forbid(unsafe_code)]

mod ast;
mod attr;
mod check;
mod ctxt;
mod expand;
mod fallback;
mod generics;
mod partial;
mod symbol;

use proc_macro::TokenStream;

#[doc = include_str!("../attributes.md")]
#[proc_macro_derive(ToolInput, attributes(tool_input))]
pub fn derive_tool_input(input: TokenStream) -> TokenStream {
    syn::parse(input)
        .map(|input| expand::derive(&input))
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// `#[derive(PartialValue)]`: the type's partial form while a tool call streams, for the
/// structs and enums a tool's fields use (a tool's own `#[derive(ToolInput)]` writes its
/// partial already: deriving both on one type is an error unless the tool says
/// `#[tool_input(partial = false)]`). On a struct with named fields, a `{Type}Partial` struct
/// (same visibility; `#[tool_input(partial(rename = "..."))]` names it) whose fields are each
/// `FieldState<…>`: absent, arriving or complete; on an enum, the value shown only whole. A
/// generic struct's partial has its parameters, bounded where it is used (`T: PartialValue`
/// for a parameter a field holds).
/// Field attributes: `#[tool_input(stream_done)]` (shown only once complete),
/// `#[tool_input(stream_not_null)]` (never absent once its object started: shown empty until
/// it arrives, for strings, lists and structs) and `#[tool_input(stream_whole)]` (the value
/// whole, once complete, for a type with no partial form). The options only a tool reads
/// (`sensitive`, `strict`, `lenient`, `policy`, `name`, `validate`, ...) would do nothing here
/// and are compile errors, as is any `#[tool_input]` on an enum but `crate`. See
/// `tool_input::partial`.
#[proc_macro_derive(PartialValue, attributes(tool_input))]
pub fn derive_partial_value(input: TokenStream) -> TokenStream {
    syn::parse(input)
        .map(|input| partial::derive(&input))
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}
