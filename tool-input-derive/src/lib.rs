//! `#[derive(ToolInput)]`, for the [`tool-input`](https://docs.rs/tool-input) crate, which
//! re-exports it: depend on `tool-input`, not on this crate.
#![forbid(unsafe_code)]

mod ast;
mod attr;
mod check;
mod ctxt;
mod expand;
mod fallback;
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
