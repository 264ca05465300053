//! What the derive emits when the input has errors: the errors, and an inert impl.
//!
//! Without an impl, every use of the type as a `ToolInput` elsewhere in the crate would add an
//! error of its own, burying the one that matters. The stub's body is never run: the crate
//! does not compile.

use proc_macro2::TokenStream;
use quote::quote;

use crate::ast::Container;
use crate::expand::{impl_header, private, wrap_in_const};

pub fn expand(cont: &Container, error: syn::Error) -> TokenStream {
    let error = error.into_compile_error();
    // Where serde and schemars do not derive either (a union, a wrong `#[serde]` attribute),
    // the stub's supertraits would not hold: it would only add errors.
    if !cont.serde_ok {
        return error;
    }
    let private = private(cont);
    let header = impl_header(cont, &private, Vec::new());
    let stub = wrap_in_const(quote! {
        #header {
            const NAME: &'static str = "";
            const DESCRIPTION: #private::Option<&'static str> = #private::Option::None;
            fn definition() -> &'static #private::ToolDefinition {
                #private::unreachable!()
            }
        }
    });
    quote! {
        #error
        #stub
    }
}
