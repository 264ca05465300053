//! `#[derive(PartialValue)]`: a struct's partial form while a call streams (a `…Partial`
//! struct of field states), or an enum shown only whole. The expansion names the fields and
//! their serde names; the runtime's `partial::derived` functions do the work.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};
use serde_derive_internals::{ast as serde_ast, attr as serde_attr, Derive};
use syn::{Data, DeriveInput, Fields};

use crate::ast::Container;
use crate::ctxt::Ctxt;
use crate::expand::wrap_in_const;

pub fn derive(input: &DeriveInput) -> TokenStream {
    if !input.generics.params.is_empty() {
        return syn::Error::new_spanned(
            &input.generics,
            "#[derive(PartialValue)] does not support generic types",
        )
        .into_compile_error();
    }
    match &input.data {
        Data::Struct(data) if matches!(data.fields, Fields::Named(_)) => derive_struct(input),
        Data::Enum(_) => derive_whole(input),
        _ => syn::Error::new_spanned(
            &input.ident,
            "#[derive(PartialValue)] requires a struct with named fields, or an enum (shown only whole)",
        )
        .into_compile_error(),
    }
}

/// The runtime crate's path, from `#[tool_input(crate = "...")]` as `ToolInput` reads it.
fn krate(input: &DeriveInput) -> syn::Path {
    // Attribute mistakes are `ToolInput`'s to report (or serde's): this derive only reads.
    let cx = Ctxt::new();
    let krate = Container::from_syn(&cx, input).krate();
    let _ = cx.check();
    krate
}

/// An enum: shown only once complete, read by serde. Its facts: the variants' names as serde
/// reads them, their aliases and its `#[serde(other)]` variant (externally tagged only: for
/// another tagging the names are a tag's, inside an object).
fn derive_whole(input: &DeriveInput) -> TokenStream {
    let krate = krate(input);
    let ident = &input.ident;
    let facts = enum_facts(input).map(|(names, aliases, other)| {
        let (aliases, targets): (Vec<_>, Vec<_>) = aliases.into_iter().unzip();
        let other = match other {
            Some(other) => quote!(#krate::__private::Option::Some(#other)),
            None => quote!(#krate::__private::Option::None),
        };
        quote! {
            fn __serde_facts(facts: &mut #krate::__private::SerdeFacts) {
                facts.variants(&[#(#names),*], &[#((#aliases, #targets)),*], #other)
            }
        }
    });
    wrap_in_const(quote! {
        #[automatically_derived]
        impl #krate::partial::PartialValue for #ident {
            type Partial = #ident;
            fn complete(value: &#krate::__private::Value) -> #krate::__private::Option<#ident> {
                #krate::partial::complete_leaf(value)
            }
            #facts
        }
    })
}

/// An externally tagged enum's variant names, `(alias, name)` pairs and catch-all, as serde
/// reads them; `None` when serde cannot read the enum (serde reports why) or it is tagged
/// otherwise.
#[allow(clippy::type_complexity)]
fn enum_facts(input: &DeriveInput) -> Option<(Vec<String>, Vec<(String, String)>, Option<String>)> {
    let serde_cx = serde_derive_internals::Ctxt::new();
    let private = Ident::new("__private", proc_macro2::Span::call_site());
    let serde = serde_ast::Container::from_ast(&serde_cx, input, Derive::Deserialize, &private);
    serde_cx.check().ok()?;
    let serde = serde?;
    if !matches!(serde.attrs.tag(), serde_attr::TagType::External) {
        return None;
    }
    let serde_ast::Data::Enum(variants) = &serde.data else { return None };
    let (mut names, mut aliases, mut other) = (Vec::new(), Vec::new(), None);
    for variant in variants.iter().filter(|variant| !variant.attrs.skip_deserializing()) {
        let name = variant.attrs.name().deserialize_name().value.clone();
        for alias in variant.attrs.aliases() {
            if alias.value != name {
                aliases.push((alias.value.clone(), name.clone()));
            }
        }
        if variant.attrs.other() {
            other = Some(name.clone());
        }
        names.push(name);
    }
    Some((names, aliases, other))
}

fn derive_struct(input: &DeriveInput) -> TokenStream {
    let cx = Ctxt::new();
    let cont = Container::from_syn(&cx, input);
    // Mistakes in the attributes are reported by `ToolInput` and serde, not twice.
    let _ = cx.check();
    let krate = cont.krate();
    let partial_mod = quote!(#krate::partial);
    let value = quote!(#krate::__private::Value);
    let ident = &input.ident;
    let vis = &input.vis;
    let partial = format_ident!("{}Partial", ident);

    // Skipped fields never arrive; a flattened field's members are the object's own.
    let fields: Vec<_> =
        cont.fields().iter().filter(|field| !field.serde_skipped && !field.serde_flattened).collect();
    let members: Vec<Ident> = fields
        .iter()
        .map(|field| field.original.ident.clone().unwrap_or_else(|| format_ident!("_")))
        .collect();
    let types: Vec<&syn::Type> = fields.iter().map(|field| field.ty).collect();
    let names: Vec<Vec<&String>> =
        fields.iter().map(|field| std::iter::once(&field.name).chain(&field.aliases).collect()).collect();
    let primary: Vec<&String> = fields.iter().map(|field| &field.name).collect();
    let aliases: Vec<&Vec<String>> = fields.iter().map(|field| &field.aliases).collect();
    let done: Vec<bool> = fields.iter().map(|field| field.attrs.stream_done()).collect();
    let not_null: Vec<bool> = fields.iter().map(|field| field.attrs.stream_not_null()).collect();
    let docs = fields.iter().map(|field| {
        let text = format!(" `{}` as it streams.", field.name);
        quote!(#[doc = #text])
    });
    let struct_doc = format!(" [`{ident}`] while it streams: each field absent, arriving or complete.");

    let definition = quote! {
            #[doc = #struct_doc]
            #[derive(Debug, Clone)]
            #vis struct #partial {
                #( #docs pub #members: #partial_mod::FieldState<<#types as #partial_mod::PartialValue>::Partial>, )*
        }
    };
    let impls = wrap_in_const(quote! {
            #[automatically_derived]
            impl #krate::__private::Default for #partial {
                fn default() -> Self {
                    #partial { #( #members: #partial_mod::derived::initial::<#types>(#not_null), )* }
                }
            }

            #[automatically_derived]
            impl #partial_mod::PartialValue for #ident {
                type Partial = #partial;

                fn empty() -> #krate::__private::Option<#partial> {
                    #krate::__private::Option::Some(#krate::__private::Default::default())
                }

                fn complete(value: &#value) -> #krate::__private::Option<#partial> {
                    let object = value.as_object()?;
                    #krate::__private::Option::Some(#partial {
                        #( #members: #partial_mod::derived::complete_field::<#types>(object, &[#(#names),*], #not_null), )*
                    })
                }

                fn __serde_facts(facts: &mut #krate::__private::SerdeFacts) {
                    #( facts.field(#primary, &[#(#aliases),*], <#types as #partial_mod::PartialValue>::__serde_facts); )*
                }

                fn apply(
                    state: &mut #partial_mod::FieldState<#partial>,
                    path: &[#krate::__private::Cow<'_, str>],
                    step: #partial_mod::Step<'_>,
                ) {
                    #partial_mod::derived::apply_struct(state, path, step, <Self as #partial_mod::PartialValue>::complete,
                        |partial, key, rest, step| match key {
                            #( #(#names)|* => #partial_mod::derived::apply_field::<#types>(&mut partial.#members, rest, step, #done), )*
                            _ => {}
                        })
                }
            }
    });
    // The struct is the user's (it is named and used); its impls go inside the const.
    quote! {
        #definition
        #impls
    }
}
