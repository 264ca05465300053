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
use crate::generics::{without_de, Params};
use crate::symbol::{Symbol, DESCRIPTION, FORMATS, NAME, PARTIAL, POLICY, SENSITIVE, VALIDATE};

pub fn derive(input: &DeriveInput) -> TokenStream {
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

/// A struct's `#[tool_input]` attributes, when `#[derive(PartialValue)]` is their only reader:
/// their mistakes (an unknown option, a value of the wrong kind, `stream_whole` beside
/// `stream_done`), and the options only a tool's struct reads, which would silently do nothing
/// here (a nested field marked `sensitive` would still be quoted in errors). Beside `ToolInput` (whose
/// struct then says `partial = false`), `ToolInput` reports them, once.
fn check_alone(input: &DeriveInput, cont: &Container) -> syn::Result<()> {
    if matches!(cont.attrs.partial.get(), Some(crate::attr::Partial::Off)) {
        return Ok(());
    }
    let cx = Ctxt::new();
    let attrs = crate::attr::Container::from_ast(&cx, &input.attrs);
    for (symbol, path) in tool_options(&attrs) {
        if let Some(path) = path {
            cx.error_spanned_by(
                path,
                format!(
                    "tool_input attribute `{symbol}` has no effect on a type that derives only \
                     PartialValue; it belongs on a tool's struct (#[derive(ToolInput)])"
                ),
            );
        }
    }
    if let Data::Struct(data) = &input.data {
        for field in &data.fields {
            let attrs = crate::attr::Field::from_ast(&cx, &field.attrs);
            crate::check::check_stream_whole(&cx, &attrs);
            let tool_only = attrs
                .policies
                .iter()
                .map(|policy| (policy.key, &policy.path))
                .chain(attrs.sensitive.path().map(|path| (SENSITIVE, path)));
            for (symbol, path) in tool_only {
                cx.error_spanned_by(
                    path,
                    format!(
                        "tool_input attribute `{symbol}` has no effect on a field of a type that derives \
                         only PartialValue; put it on the tool's field that holds this type, where it \
                         covers the whole value"
                    ),
                );
            }
        }
    }
    cx.check()
}

/// The container options only a tool's struct reads, and where each was written.
fn tool_options(attrs: &crate::attr::Container) -> [(Symbol, Option<&syn::Path>); 5] {
    [
        (NAME, attrs.name.path()),
        (DESCRIPTION, attrs.description.path()),
        (POLICY, attrs.policy.path()),
        (VALIDATE, attrs.validate.path()),
        (FORMATS, attrs.formats.path()),
    ]
}

/// An enum's `#[tool_input]` attributes, which only `#[derive(PartialValue)]` reads (an enum
/// is no tool): `crate` alone means something. The others, and any on a variant or its
/// fields, would silently do nothing.
fn check_enum(input: &DeriveInput) -> syn::Result<()> {
    let cx = Ctxt::new();
    let attrs = crate::attr::Container::from_ast(&cx, &input.attrs);
    for (symbol, path) in tool_options(&attrs).into_iter().chain([(PARTIAL, attrs.partial.path())]) {
        if let Some(path) = path {
            cx.error_spanned_by(
                path,
                format!(
                    "tool_input attribute `{symbol}` has no effect on an enum, which is shown only whole \
                     while a call streams; `crate` is the only option an enum takes"
                ),
            );
        }
    }
    if let Data::Enum(data) = &input.data {
        let fields =
            data.variants.iter().flat_map(|variant| variant.fields.iter().flat_map(|field| &field.attrs));
        for attr in data.variants.iter().flat_map(|variant| &variant.attrs).chain(fields) {
            if attr.path().is_ident("tool_input") {
                cx.error_spanned_by(
                    attr,
                    "tool_input attributes have no effect on an enum's variants or their fields: \
                     an enum is shown only whole while a call streams",
                );
            }
        }
    }
    cx.check()
}

/// An enum: shown only once complete, read by serde (a unit variant's name in another letter
/// case as the check respells it). Its facts: the variants' names as serde
/// reads them, their aliases and its `#[serde(other)]` variant, where serde reads a name:
/// the value itself or its one key (externally tagged), or the tag's value (internally or
/// adjacently tagged). An untagged enum names no variant in the arguments: it has none.
fn derive_whole(input: &DeriveInput) -> TokenStream {
    if let Err(error) = check_enum(input) {
        return error.into_compile_error();
    }
    let krate = krate(input);
    let ident = &input.ident;
    let private = quote!(#krate::__private);
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let mut predicates: Vec<TokenStream> = where_clause
        .iter()
        .flat_map(|clause| &clause.predicates)
        .map(|predicate| quote!(#predicate))
        .collect();
    if !input.generics.params.is_empty() {
        // What serde's impl needs of the parameters, said once.
        predicates.push(quote!(Self: #private::DeserializeOwned));
    }
    let facts = enum_facts(input, &private);
    // An externally tagged enum's unit variant is a string: one sent in another letter case
    // shows as the check respells it.
    let complete = match &facts {
        // The names the schema lists, which the check respells against (not serde's aliases).
        Some(EnumFacts { tag: None, names, .. }) => {
            quote!(#krate::partial::derived::complete_variant(value, &[#(#names),*]))
        }
        _ => quote!(#krate::partial::complete_leaf(value)),
    };
    let facts = facts.map(|facts| {
        let EnumFacts { tag, names, aliases, other, variants } = facts;
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
                #[allow(unused_imports)]
                use #private::{FactsOfAny as _, FactsOfPartial as _, FactsOfTool as _};
                #call;
                #(#variants)*
            }
        }
    });
    wrap_in_const(quote! {
        #[automatically_derived]
        impl #impl_generics #krate::partial::PartialValue for #ident #ty_generics where #(#predicates,)* {
            type Partial = Self;
            fn complete(value: &#krate::__private::Value) -> #krate::__private::Option<Self> {
                #complete
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
    /// For each variant with data, the statement that tells what serde reads inside it: the
    /// aliases of a struct variant's fields and the facts of their types, or the facts of a
    /// newtype variant's type.
    variants: Vec<TokenStream>,
}

/// An enum's variant names, aliases and catch-all as serde reads them; `None` when serde
/// cannot read the enum (serde reports why) or it is untagged. Variants read without a tag
/// (`#[serde(untagged)]`) are no names.
fn enum_facts(input: &DeriveInput, runtime: &TokenStream) -> Option<EnumFacts> {
    let serde_cx = serde_derive_internals::Ctxt::new();
    let private = Ident::new("__private", proc_macro2::Span::call_site());
    let serde = serde_ast::Container::from_ast(&serde_cx, input, Derive::Deserialize, &private);
    serde_cx.check().ok()?;
    let serde = serde?;
    let (tag, content) = match serde.attrs.tag() {
        serde_attr::TagType::External => (None, None),
        serde_attr::TagType::Internal { tag } => (Some(tag.clone()), None),
        serde_attr::TagType::Adjacent { tag, content } => (Some(tag.clone()), Some(content.clone())),
        serde_attr::TagType::None => return None,
    };
    let serde_ast::Data::Enum(variants) = &serde.data else { return None };
    let mut facts = EnumFacts {
        tag: tag.clone(),
        names: Vec::new(),
        aliases: Vec::new(),
        other: None,
        variants: Vec::new(),
    };
    let place = |option: &Option<String>| match option {
        Some(key) => quote!(#runtime::Option::Some(#key)),
        None => quote!(#runtime::Option::None),
    };
    let (tag_key, content_key) = (place(&tag), place(&content));
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
        let inside = variant_inside(variant, runtime);
        if !inside.is_empty() {
            facts.variants.push(quote! {
                facts.variant(#tag_key, #content_key, #name, |facts| { #(#inside)* });
            });
        }
        facts.names.push(name);
    }
    Some(facts)
}

/// The statements that tell what serde reads inside a variant (`facts` in scope): a struct
/// variant's fields each at its name, under its aliases, with its type's facts (a flattened
/// field's as the variant's own); a newtype variant's type's facts.
fn variant_inside(variant: &serde_ast::Variant, private: &TokenStream) -> Vec<TokenStream> {
    let of = |ty: &syn::Type| quote!((&&&#private::FactsOf::<#ty>::new()).facts());
    match variant.style {
        serde_ast::Style::Struct => variant
            .fields
            .iter()
            .filter(|field| !field.attrs.skip_deserializing())
            .map(|field| {
                let by_fn = field.attrs.deserialize_with().is_some();
                let inner = if by_fn { quote!(|_| {}) } else { of(field.ty) };
                if field.attrs.flatten() {
                    return quote!((#inner)(facts););
                }
                let name = field.attrs.name().deserialize_name().value.clone();
                let aliases = field
                    .attrs
                    .aliases()
                    .iter()
                    .map(|alias| alias.value.clone())
                    .filter(|alias| *alias != name);
                quote!(facts.field(#name, &[#(#aliases),*], #inner);)
            })
            .collect(),
        serde_ast::Style::Newtype => match variant.fields.first() {
            Some(field) if field.attrs.deserialize_with().is_none() => {
                let inner = of(field.ty);
                vec![quote!((#inner)(facts);)]
            }
            _ => Vec::new(),
        },
        serde_ast::Style::Tuple | serde_ast::Style::Unit => Vec::new(),
    }
}

fn derive_struct(input: &DeriveInput) -> TokenStream {
    let cx = Ctxt::new();
    let cont = Container::from_syn(&cx, input);
    // Mistakes in the attributes are reported by `ToolInput` and serde, not twice.
    let _ = cx.check();
    if let Err(error) = check_alone(input, &cont) {
        return error.into_compile_error();
    }
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
    // A generic struct's parameters are bounded where it is used (the bounds name them).
    let bounds = if input.generics.params.is_empty() { Bounds::Eager } else { Bounds::Lazy };
    struct_partial(&cont, &name, bounds, facts)
}

/// The partial type `#[derive(ToolInput)]` writes beside a tool's struct: `None` for
/// `partial = false`. A generic tool's partial has the tool's parameters (see
/// [`PartialBounds`]).
pub fn tool_partial(cont: &Container) -> Option<TokenStream> {
    let name = cont.attrs.partial_name(&cont.original.ident)?;
    let private = crate::expand::private(cont);
    let facts = if cont.original.generics.params.is_empty() {
        quote!(#private::tool_facts::<Self>(facts))
    } else {
        // Told here rather than through `tool_facts::<Self>`, which would make the partial
        // need `Self: ToolInput`, and so need it even of a recursive field's type.
        let facts = field_facts(cont, &private, true);
        quote! {
            #[allow(unused_imports)]
            use #private::{FactsOfAny as _, FactsOfPartial as _, FactsOfTool as _};
            #(#facts)*
        }
    };
    Some(struct_partial(cont, &name, Bounds::Lazy, facts))
}

/// When the partial's parts must have partial forms themselves.
#[derive(Clone, Copy, PartialEq)]
enum Bounds {
    /// At the definition: `#[derive(PartialValue)]` on a struct without parameters, asked
    /// for, says at once what is missing.
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
///
/// A generic struct's partial has its parameters, its bounds and its where clause, and
/// bounds of its own, as serde_derive writes `Deserialize`'s: each type parameter a field's
/// partial holds is `PartialValue`; a field's type that is not surely partial then is
/// bounded itself (lazily: see [`Bounds`]); a field shown whole is `DeserializeOwned`; a
/// field read by a function has serde's `#[serde(bound = ...)]`. A parameter no field of
/// the partial names (only skipped fields hold it) is kept by a hidden `PhantomData` field.
fn struct_partial(cont: &Container, partial: &Ident, bounds: Bounds, facts: TokenStream) -> TokenStream {
    let krate = cont.krate();
    let private = quote!(#krate::__private);
    let partial_mod = quote!(#krate::partial);
    let value = quote!(#private::Value);
    let phantom = quote!(#private::PhantomData);
    let ident = &cont.original.ident;
    let vis = &cont.original.vis;
    let generics = &cont.original.generics;
    let params = Params::of(generics);
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let own_predicates =
        where_clause.map(|clause| clause.predicates.iter().collect::<Vec<_>>()).unwrap_or_default();

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
                quote!(#reader #ty_generics)
            }
        })
        .collect();
    let by_fn = readings.iter().zip(&fields).enumerate().filter_map(|(index, (reading, field))| {
        let Reading::By(ty, path) = reading else { return None };
        let reader = format_ident!("__ReadField{}", index);
        // Generic like the struct, so that the field's type may name its parameters.
        let (definition, serde_bounds) = if params.is_empty() {
            (quote!(struct #reader;), Vec::new())
        } else {
            let marker = params.marker_of_all(&phantom);
            (quote!(struct #reader #generics (#marker) #where_clause;), without_de(&field.serde_de_bound))
        };
        Some(quote! {
            #definition
            impl #impl_generics #partial_mod::PartialValue for #reader #ty_generics
            where #(#own_predicates,)* #(#serde_bounds,)*
            {
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
        Bounds::Lazy => {
            let recursive = |ty: &syn::Type| names_self(ty, ident, generics);
            let mut partial_params = Vec::new();
            let mut lazy = Vec::new();
            for (reading, field) in readings.iter().zip(&fields) {
                match reading {
                    Reading::Partial(ty) => {
                        params.type_params_in(ty, &mut partial_params);
                        if !surely_partial(ty, &|ident| params.is_type_param(ident), &recursive) {
                            lazy.push(quote!(for<'__partial> #ty: #partial_mod::PartialValue));
                        }
                    }
                    Reading::Whole(ty) => lazy.push(quote!(for<'__partial> #ty: #private::DeserializeOwned)),
                    Reading::By(..) => {
                        let serde_bounds =
                            if params.is_empty() { Vec::new() } else { without_de(&field.serde_de_bound) };
                        lazy.extend(serde_bounds.iter().map(|bound| quote!(#bound)));
                    }
                }
            }
            partial_params
                .iter()
                .map(|param| quote!(#param: #partial_mod::PartialValue))
                .chain(lazy)
                .collect()
        }
    };
    let marker = params.marker(&field_types, &phantom);
    let marker_field = marker.as_ref().map(|marker| {
        quote! {
            /// Holds the parameters no field names.
            #[doc(hidden)]
            pub __marker: #marker,
        }
    });
    let marker_value = marker.as_ref().map(|_| quote!(__marker: #phantom,));
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
    let bounded = quote!(where #(#own_predicates,)* #(#lazy,)*);
    // A recursive field's partial has the trait when the struct's partial has it: the impl
    // being written, not a bound (which would be a cycle).
    let others: Vec<&TokenStream> = readings
        .iter()
        .zip(&field_types)
        .filter(|(reading, _)| !matches!(reading, Reading::Partial(ty) if holds_self(ty, ident, generics)))
        .map(|(_, field_type)| field_type)
        .collect();
    let with = |trait_: TokenStream| quote!(where #(#own_predicates,)* #(#lazy,)* #(for<'__partial> #others: #trait_,)*);
    let (debug_bounds, clone_bounds, eq_bounds) = (
        with(quote!(#private::fmt::Debug)),
        with(quote!(#private::Clone)),
        with(quote!(#private::PartialEq)),
    );

    let definition = quote! {
        #[doc = #struct_doc]
        #vis struct #partial #generics #bounded {
            #( #docs pub #members: #field_types, )*
            #marker_field
        }
    };
    let impls = wrap_in_const(quote! {
        #(#by_fn)*

        // By hand, not derived: each exists when the fields' partials have it (a nested
        // enum shown whole need not be `Clone`).
        #[automatically_derived]
        impl #impl_generics #private::fmt::Debug for #partial #ty_generics #debug_bounds {
            fn fmt(&self, formatter: &mut #private::fmt::Formatter<'_>) -> #private::fmt::Result {
                formatter.debug_struct(#partial_name) #( .field(#member_names, &self.#members) )* .finish()
            }
        }

        #[automatically_derived]
        impl #impl_generics #private::Clone for #partial #ty_generics #clone_bounds {
            fn clone(&self) -> Self {
                #partial { #( #members: #private::Clone::clone(&self.#members), )* #marker_value }
            }
        }

        #[automatically_derived]
        impl #impl_generics #private::PartialEq for #partial #ty_generics #eq_bounds {
            fn eq(&self, other: &Self) -> bool {
                true #( && self.#members == other.#members )*
            }
        }

        #[automatically_derived]
        impl #impl_generics #private::Default for #partial #ty_generics #bounded {
            fn default() -> Self {
                #partial { #( #members: #partial_mod::derived::initial::<#readers>(#not_null), )* #marker_value }
            }
        }

        #[automatically_derived]
        impl #impl_generics #partial_mod::PartialValue for #ident #ty_generics #bounded {
            type Partial = #partial #ty_generics;

            fn empty() -> #private::Option<Self::Partial> {
                #private::Option::Some(#private::Default::default())
            }

            fn complete(value: &#value) -> #private::Option<Self::Partial> {
                let object = value.as_object()?;
                #private::Option::Some(#partial {
                    #( #members: #partial_mod::derived::complete_field::<#readers>(object, &[#(#names),*], #not_null), )*
                    #marker_value
                })
            }

            fn __serde_facts(facts: &mut #private::SerdeFacts) {
                #facts
            }

            fn apply(
                state: &mut #partial_mod::FieldState<Self::Partial>,
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

/// Is `ty` the struct itself, with its own parameters (a recursive field, `Vec<Tree>`)? Its
/// partial form is the one being written, under the same bounds: bounding a field of it by
/// it would be a cycle the compiler cannot end.
fn names_self(ty: &syn::Type, ident: &Ident, generics: &syn::Generics) -> bool {
    let syn::Type::Path(path) = ty else { return false };
    if path.qself.is_some() || path.path.segments.len() != 1 {
        return false;
    }
    let segment = &path.path.segments[0];
    if segment.ident != *ident {
        return false;
    }
    let (_, ty_generics, _) = generics.split_for_impl();
    let own = quote!(#ty_generics).to_string();
    let written = match &segment.arguments {
        syn::PathArguments::None => String::new(),
        arguments => quote!(#arguments).to_string(),
    };
    written == own
}

/// Is `ty` the struct itself, or an `Option`, `Vec` or `Box` of it?
fn holds_self(ty: &syn::Type, ident: &Ident, generics: &syn::Generics) -> bool {
    if names_self(ty, ident, generics) {
        return true;
    }
    let syn::Type::Path(path) = ty else { return false };
    let Some(segment) = path.path.segments.last() else { return false };
    match &segment.arguments {
        syn::PathArguments::AngleBracketed(arguments)
            if path.qself.is_none()
                && path.path.segments.len() == 1
                && matches!(segment.ident.to_string().as_str(), "Option" | "Vec" | "Box") =>
        {
            match arguments.args.iter().collect::<Vec<_>>().as_slice() {
                [syn::GenericArgument::Type(inner)] => holds_self(inner, ident, generics),
                _ => false,
            }
        }
        _ => false,
    }
}

/// Does `ty` surely have a partial form, whatever the crate around it defines: one the
/// runtime implements, of a type parameter (`param`: it is bounded `PartialValue`), or the
/// struct itself (`recursive`)? Such a field needs no bound of its own.
fn surely_partial(
    ty: &syn::Type,
    param: &dyn Fn(&Ident) -> bool,
    recursive: &dyn Fn(&syn::Type) -> bool,
) -> bool {
    if recursive(ty) {
        return true;
    }
    let syn::Type::Path(path) = ty else { return false };
    if path.qself.is_some() || path.path.segments.len() != 1 {
        return false;
    }
    let segment = &path.path.segments[0];
    let name = segment.ident.to_string();
    match &segment.arguments {
        syn::PathArguments::None => {
            param(&segment.ident)
                || matches!(
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
                )
        }
        syn::PathArguments::AngleBracketed(arguments)
            if matches!(name.as_str(), "Option" | "Vec" | "Box") =>
        {
            match arguments.args.iter().collect::<Vec<_>>().as_slice() {
                [syn::GenericArgument::Type(inner)] => surely_partial(inner, param, recursive),
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
