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
/// reads them, their aliases and its `#[serde(other)]` variant, where serde reads a name:
/// the value itself or its one key (externally tagged), or the tag's value (internally or
/// adjacently tagged). An untagged enum names no variant in the arguments: it has none.
fn derive_whole(input: &DeriveInput) -> TokenStream {
    let krate = krate(input);
    let ident = &input.ident;
    let facts = enum_facts(input).map(|facts| {
        let EnumFacts { tag, names, aliases, other } = facts;
        let (aliases, targets): (Vec<_>, Vec<_>) = aliases.into_iter().unzip();
        let other = match other {
            Some(other) => quote!(#krate::__private::Option::Some(#other)),
            None => quote!(#krate::__private::Option::None),
        };
        let call = match tag {
            None => quote!(facts.variants(&[#(#names),*], &[#((#aliases, #targets)),*], #other)),
            Some(tag) => quote!(facts.tagged(#tag, &[#(#names),*], &[#((#aliases, #targets)),*], #other)),
        };
        quote! {
            fn __serde_facts(facts: &mut #krate::__private::SerdeFacts) {
                #call
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

/// What serde reads of an enum's variant names.
struct EnumFacts {
    /// The key whose value names the variant (internally or adjacently tagged), or `None`
    /// (externally tagged).
    tag: Option<String>,
    names: Vec<String>,
    /// `(alias, name)` pairs.
    aliases: Vec<(String, String)>,
    /// The `#[serde(other)]` variant.
    other: Option<String>,
}

/// An enum's variant names, aliases and catch-all as serde reads them; `None` when serde
/// cannot read the enum (serde reports why) or it is untagged. Variants read without a tag
/// (`#[serde(untagged)]`) are no names.
fn enum_facts(input: &DeriveInput) -> Option<EnumFacts> {
    let serde_cx = serde_derive_internals::Ctxt::new();
    let private = Ident::new("__private", proc_macro2::Span::call_site());
    let serde = serde_ast::Container::from_ast(&serde_cx, input, Derive::Deserialize, &private);
    serde_cx.check().ok()?;
    let serde = serde?;
    let tag = match serde.attrs.tag() {
        serde_attr::TagType::External => None,
        serde_attr::TagType::Internal { tag } | serde_attr::TagType::Adjacent { tag, .. } => {
            Some(tag.clone())
        }
        serde_attr::TagType::None => return None,
    };
    let serde_ast::Data::Enum(variants) = &serde.data else { return None };
    let mut facts = EnumFacts { tag, names: Vec::new(), aliases: Vec::new(), other: None };
    for variant in
        variants.iter().filter(|variant| !variant.attrs.skip_deserializing() && !variant.attrs.untagged())
    {
        let name = variant.attrs.name().deserialize_name().value.clone();
        for alias in variant.attrs.aliases() {
            if alias.value != name {
                facts.aliases.push((alias.value.clone(), name.clone()));
            }
        }
        if variant.attrs.other() {
            facts.other = Some(name.clone());
        }
        facts.names.push(name);
    }
    Some(facts)
}

fn derive_struct(input: &DeriveInput) -> TokenStream {
    let cx = Ctxt::new();
    let cont = Container::from_syn(&cx, input);
    // Mistakes in the attributes are reported by `ToolInput` and serde, not twice.
    let _ = cx.check();
    // `partial = false` switches off `ToolInput`'s partial, not this derive's.
    let name =
        cont.attrs.partial_name(&input.ident).unwrap_or_else(|| format_ident!("{}Partial", input.ident));
    let private = crate::expand::private(&cont);
    let facts = field_facts(&cont, &private, true);
    let facts = quote! {
        #[allow(unused_imports)]
        use #private::{FactsOfAny as _, FactsOfPartial as _, FactsOfTool as _};
        #(#facts)*
    };
    struct_partial(&cont, &name, Bounds::Eager, facts)
}

/// The partial type `#[derive(ToolInput)]` writes beside a tool's struct: `None` for
/// `partial = false`, and for a generic struct (whose partial would need the bounds of
/// every instantiation).
pub fn tool_partial(cont: &Container) -> Option<TokenStream> {
    if !cont.original.generics.params.is_empty() {
        return None;
    }
    let name = cont.attrs.partial_name(&cont.original.ident)?;
    let private = crate::expand::private(cont);
    let facts = quote!(#private::tool_facts::<Self>(facts));
    Some(struct_partial(cont, &name, Bounds::Lazy, facts))
}

/// When the partial's parts must have partial forms themselves.
#[derive(Clone, Copy, PartialEq)]
enum Bounds {
    /// At the definition: `#[derive(PartialValue)]`, asked for, says at once what is missing.
    Eager,
    /// Where it is used: `#[derive(ToolInput)]` writes the partial of every tool, so a tool
    /// whose field's type has no partial form still compiles, and only asking for its partial
    /// says what is missing (the bounds are written `for<'__partial>` so that the compiler
    /// reads them where the type is used, not as errors at its definition).
    Lazy,
}

/// How a field of the partial is read.
enum Reading<'a> {
    /// By its type's partial form.
    Partial(&'a syn::Type),
    /// Whole, by its type's `Deserialize` (`stream_whole`).
    Whole(&'a syn::Type),
    /// Whole, by the function serde reads it with (`deserialize_with`, `with`).
    By(&'a syn::Type, &'a syn::ExprPath),
}

/// `{Type}Partial`, its impls and the `PartialValue` impl of the struct; `facts` is the
/// body of `__serde_facts` (with `facts` in scope).
fn struct_partial(cont: &Container, partial: &Ident, bounds: Bounds, facts: TokenStream) -> TokenStream {
    let krate = cont.krate();
    let private = quote!(#krate::__private);
    let partial_mod = quote!(#krate::partial);
    let value = quote!(#private::Value);
    let ident = &cont.original.ident;
    let vis = &cont.original.vis;

    // Skipped fields never arrive; a flattened field's members are the object's own.
    let fields: Vec<_> =
        cont.fields().iter().filter(|field| !field.serde_skipped && !field.serde_flattened).collect();
    let members: Vec<Ident> = fields
        .iter()
        .map(|field| field.original.ident.clone().unwrap_or_else(|| format_ident!("_")))
        .collect();
    let readings: Vec<Reading> = fields
        .iter()
        .map(|field| match &field.deserialize_with {
            Some(path) => Reading::By(field.ty, path),
            None if field.attrs.stream_whole() => Reading::Whole(field.ty),
            None => Reading::Partial(field.ty),
        })
        .collect();
    // Each field's reader: a type whose `PartialValue` reads it as the field says.
    let readers: Vec<TokenStream> = readings
        .iter()
        .enumerate()
        .map(|(index, reading)| match reading {
            Reading::Partial(ty) => quote!(#ty),
            Reading::Whole(ty) => quote!(#partial_mod::derived::Whole<#ty>),
            Reading::By(..) => {
                let reader = format_ident!("__ReadField{}", index);
                quote!(#reader)
            }
        })
        .collect();
    let by_fn = readings.iter().enumerate().filter_map(|(index, reading)| {
        let Reading::By(ty, path) = reading else { return None };
        let reader = format_ident!("__ReadField{}", index);
        Some(quote! {
            struct #reader;
            impl #partial_mod::PartialValue for #reader {
                type Partial = #ty;
                fn complete(value: &#value) -> #private::Option<#ty> {
                    #private::Result::ok(#path(value))
                }
            }
        })
    });
    // The fields' types, as the struct is written outside the impls (where the readers of
    // the `By` fields are not in scope).
    let field_types: Vec<TokenStream> = readings
        .iter()
        .map(|reading| match reading {
            Reading::Partial(ty) => {
                quote!(#partial_mod::FieldState<<#ty as #partial_mod::PartialValue>::Partial>)
            }
            Reading::Whole(ty) | Reading::By(ty, _) => quote!(#partial_mod::FieldState<#ty>),
        })
        .collect();
    let lazy: Vec<TokenStream> = match bounds {
        Bounds::Eager => Vec::new(),
        Bounds::Lazy => readings
            .iter()
            .filter_map(|reading| match reading {
                Reading::Partial(ty) if !surely_partial(ty) => {
                    Some(quote!(for<'__partial> #ty: #partial_mod::PartialValue))
                }
                Reading::Whole(ty) => Some(quote!(for<'__partial> #ty: #private::DeserializeOwned)),
                _ => None,
            })
            .collect(),
    };
    let names: Vec<Vec<&String>> =
        fields.iter().map(|field| std::iter::once(&field.name).chain(&field.aliases).collect()).collect();
    let done: Vec<bool> = fields.iter().map(|field| field.attrs.stream_done()).collect();
    let not_null: Vec<bool> = fields.iter().map(|field| field.attrs.stream_not_null()).collect();
    let docs = fields.iter().zip(&readings).map(|(field, reading)| {
        let text = match reading {
            Reading::Partial(_) => format!(" `{}` as it streams.", field.name),
            Reading::Whole(_) | Reading::By(..) => format!(" `{}`, shown once complete.", field.name),
        };
        quote!(#[doc = #text])
    });
    let struct_doc = format!(
        " [`{ident}`] while a call streams: each field absent, arriving or complete \
         ([`FieldState`]({krate}::partial::FieldState)).",
        krate = quote!(#krate).to_string().replace(' ', "")
    );
    let partial_name = partial.to_string();
    let member_names = members.iter().map(|member| member.to_string());
    let with = |trait_: TokenStream| quote!(where #(#lazy,)* #(for<'__partial> #field_types: #trait_,)*);
    let (debug_bounds, clone_bounds, eq_bounds) = (
        with(quote!(#private::fmt::Debug)),
        with(quote!(#private::Clone)),
        with(quote!(#private::PartialEq)),
    );

    let definition = quote! {
        #[doc = #struct_doc]
        #vis struct #partial where #(#lazy,)* {
            #( #docs pub #members: #field_types, )*
        }
    };
    let impls = wrap_in_const(quote! {
        #(#by_fn)*

        // By hand, not derived: each exists when the fields' partials have it (a nested
        // enum shown whole need not be `Clone`).
        #[automatically_derived]
        impl #private::fmt::Debug for #partial #debug_bounds {
            fn fmt(&self, formatter: &mut #private::fmt::Formatter<'_>) -> #private::fmt::Result {
                formatter.debug_struct(#partial_name) #( .field(#member_names, &self.#members) )* .finish()
            }
        }

        #[automatically_derived]
        impl #private::Clone for #partial #clone_bounds {
            fn clone(&self) -> Self {
                #partial { #( #members: #private::Clone::clone(&self.#members), )* }
            }
        }

        #[automatically_derived]
        impl #private::PartialEq for #partial #eq_bounds {
            fn eq(&self, other: &Self) -> bool {
                true #( && self.#members == other.#members )*
            }
        }

        #[automatically_derived]
        impl #private::Default for #partial where #(#lazy,)* {
            fn default() -> Self {
                #partial { #( #members: #partial_mod::derived::initial::<#readers>(#not_null), )* }
            }
        }

        #[automatically_derived]
        impl #partial_mod::PartialValue for #ident where #(#lazy,)* {
            type Partial = #partial;

            fn empty() -> #private::Option<#partial> {
                #private::Option::Some(#private::Default::default())
            }

            fn complete(value: &#value) -> #private::Option<#partial> {
                let object = value.as_object()?;
                #private::Option::Some(#partial {
                    #( #members: #partial_mod::derived::complete_field::<#readers>(object, &[#(#names),*], #not_null), )*
                })
            }

            fn __serde_facts(facts: &mut #private::SerdeFacts) {
                #facts
            }

            fn apply(
                state: &mut #partial_mod::FieldState<#partial>,
                path: &[#private::Cow<'_, str>],
                step: #partial_mod::Step<'_>,
            ) {
                #partial_mod::derived::apply_struct(state, path, step, <Self as #partial_mod::PartialValue>::complete,
                    |partial, key, rest, step| match key {
                        #( #(#names)|* => #partial_mod::derived::apply_field::<#readers>(&mut partial.#members, rest, step, #done), )*
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

/// Does `ty` surely have a partial form (the runtime implements it), whatever the crate
/// around it defines? Such a field needs no bound.
fn surely_partial(ty: &syn::Type) -> bool {
    let syn::Type::Path(path) = ty else { return false };
    if path.qself.is_some() || path.path.segments.len() != 1 {
        return false;
    }
    let segment = &path.path.segments[0];
    let name = segment.ident.to_string();
    match &segment.arguments {
        syn::PathArguments::None => matches!(
            name.as_str(),
            "String"
                | "bool"
                | "char"
                | "f32"
                | "f64"
                | "u8"
                | "u16"
                | "u32"
                | "u64"
                | "u128"
                | "usize"
                | "i8"
                | "i16"
                | "i32"
                | "i64"
                | "i128"
                | "isize"
        ),
        syn::PathArguments::AngleBracketed(arguments)
            if matches!(name.as_str(), "Option" | "Vec" | "Box") =>
        {
            match arguments.args.iter().collect::<Vec<_>>().as_slice() {
                [syn::GenericArgument::Type(inner)] => surely_partial(inner),
                _ => false,
            }
        }
        _ => false,
    }
}

/// The statements that tell the facts of the struct's fields' types (`facts` in scope): each
/// field's at its name (and its aliases, when `aliases`), a flattened field's as the object's
/// own. A field's type tells its facts when it is a tool or has a partial form; the choice is
/// made by method resolution (`FactsOf`), so it needs concrete types.
pub fn field_facts(cont: &Container, private: &TokenStream, aliases: bool) -> Vec<TokenStream> {
    cont.fields()
        .iter()
        .filter(|field| !field.serde_skipped && !field.serde_reads_by_fn)
        .map(|field| {
            let ty = field.ty;
            let of = quote!((&&&#private::FactsOf::<#ty>::new()).facts());
            if field.serde_flattened {
                // Its members are this object's own.
                quote!((#of)(facts);)
            } else {
                let name = &field.name;
                let aliases: &[String] = if aliases { &field.aliases } else { &[] };
                quote!(facts.field(#name, &[#(#aliases),*], #of);)
            }
        })
        .collect()
}
