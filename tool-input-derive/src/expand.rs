//! Code generation. The expansion is a handful of constants and one call into the runtime's
//! `__private` module, which does the real work.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::DeriveInput;

use crate::ast::Container;
use crate::attr::{self, Doc, Policy};
use crate::check;
use crate::ctxt::Ctxt;
use crate::fallback;

/// The whole derive: model, check, then either the impl or, on any error, the errors next to
/// a stub impl.
pub fn derive(input: &DeriveInput) -> TokenStream {
    let cx = Ctxt::new();
    let cont = Container::from_syn(&cx, input);
    check::check(&cx, &cont);
    match cx.check() {
        Ok(()) => impl_tool_input(&cont),
        Err(error) => fallback::expand(&cont, error),
    }
}

fn impl_tool_input(cont: &Container) -> TokenStream {
    let private = private(cont);
    let name = cont.name().value();
    let description = description(cont, &private);

    let fields = cont.fields().iter().filter(|field| field.attrs.has_options()).map(|field| {
        let name = &field.name;
        let policy = option_policy(field.attrs.policy(), &private);
        let sensitive = field.attrs.sensitive();
        quote!(#private::field_options(#name, #policy, #sensitive))
    });
    let fields = list_const(quote!(FIELDS), quote!(#private::FieldOptions), fields);
    let policy = cont.attrs.policy.get().map(|policy| {
        let policy = option_policy(Some(*policy), &private);
        quote!(const POLICY: #private::Option<#private::Policy> = #policy;)
    });
    let formats = cont.attrs.formats.get().map(|flag| quote!(const FORMATS: bool = #flag;));

    let definition = if cont.has_type_or_const_params() {
        // A `static` in a generic function is one for all instantiations, so the runtime keeps
        // one definition per `TypeId` instead.
        quote!(#private::generic_definition::<Self>())
    } else {
        quote! {
            static __TOOL_INPUT_DEFINITION: #private::OnceLock<#private::ToolDefinition> =
                #private::OnceLock::new();
            __TOOL_INPUT_DEFINITION.get_or_init(#private::build_definition::<Self>)
        }
    };

    // A flattened field's members are sent at the top level, under no name of the field's
    // own: the empty name says so (a path through it drops its step).
    let renamed = cont
        .fields()
        .iter()
        .filter(|field| !field.serde_skipped && (field.serde_flattened || field.rust_name != field.name))
        .map(|field| {
            let rust = &field.rust_name;
            let serde = if field.serde_flattened { "" } else { field.name.as_str() };
            quote!((#rust, #serde))
        });
    let renamed = list_const(quote!(__FIELD_NAMES), quote!((&'static str, &'static str)), renamed);
    let aliases = cont
        .fields()
        .iter()
        .filter(|field| !field.serde_skipped && !field.serde_flattened)
        .flat_map(|field| field.aliases.iter().map(move |alias| (alias, &field.name)))
        .map(|(alias, name)| quote!((#alias, #name)));
    let aliases = list_const(quote!(__ALIASES), quote!((&'static str, &'static str)), aliases);
    let probed: Vec<_> = cont
        .fields()
        .iter()
        .filter(|field| !field.serde_skipped && !field.serde_flattened && !field.serde_reads_by_fn)
        .collect();
    let probes = probed.iter().map(|field| {
        let (name, ty) = (&field.name, field.ty);
        quote!(#private::FieldProbe::of::<#ty>(#name))
    });
    let probes = list_const(quote!(__FIELD_PROBES), quote!(#private::FieldProbe), probes);
    // In a generic struct, a probed field whose type names a parameter is read alone only
    // where that type is `DeserializeOwned` (it is wherever `Self` is, serde's bounds being
    // the parameters'): the impl says so.
    let generic = generic_names(cont);
    let probe_bounds: Vec<syn::WherePredicate> = probed
        .iter()
        .filter(|field| mentions(field.ty, &generic))
        .map(|field| {
            let ty = field.ty;
            syn::parse_quote!(#ty: #private::DeserializeOwned)
        })
        .collect();
    let nested_facts = nested_facts(cont, &private);
    let validate = cont.attrs.validate.get().map(|path| validate_input(path, &private));

    let header = impl_header(cont, &private, probe_bounds);
    let partial = crate::partial::tool_partial(cont);
    let tool = wrap_in_const(quote! {
        #header {
            const NAME: &'static str = #name;
            const DESCRIPTION: #private::Option<&'static str> = #description;
            #fields
            #policy
            #formats
            #renamed
            #aliases
            #probes
            #nested_facts
            fn definition() -> &'static #private::ToolDefinition {
                #definition
            }
            #validate
        }
    });
    quote! {
        #tool
        #partial
    }
}

/// The names of the struct's generic parameters (types, lifetimes, constants).
fn generic_names(cont: &Container) -> Vec<String> {
    cont.original
        .generics
        .params
        .iter()
        .map(|param| match param {
            syn::GenericParam::Type(param) => param.ident.to_string(),
            syn::GenericParam::Lifetime(param) => param.lifetime.ident.to_string(),
            syn::GenericParam::Const(param) => param.ident.to_string(),
        })
        .collect()
}

/// Does `ty` name one of `names` (a generic parameter)?
fn mentions(ty: &syn::Type, names: &[String]) -> bool {
    fn walk(tokens: TokenStream, names: &[String]) -> bool {
        tokens.into_iter().any(|tree| match tree {
            proc_macro2::TokenTree::Ident(ident) => names.iter().any(|name| ident == name),
            proc_macro2::TokenTree::Group(group) => walk(group.stream(), names),
            _ => false,
        })
    }
    !names.is_empty() && walk(quote!(#ty), names)
}

/// `__NESTED_FACTS`: what serde reads inside each field's type, from the types that are
/// tools or derive `PartialValue` (the only places a nested type's serde attributes can be
/// seen); nothing from the others. In a generic struct, a field whose type is a parameter
/// (or built of one) tells none: the choice is made where the struct is written, where the
/// parameter is no type yet (see `partial::field_facts`).
fn nested_facts(cont: &Container, private: &TokenStream) -> Option<TokenStream> {
    let fields = crate::partial::field_facts(cont, private, false);
    (!fields.is_empty()).then(|| {
        quote! {
            const __NESTED_FACTS: fn(&mut #private::SerdeFacts) = |facts| {
                #[allow(unused_imports)]
                use #private::{FactsOfAny as _, FactsOfPartial as _, FactsOfTool as _};
                #(#fields)*
            };
        }
    })
}

/// `const NAME: &'static [Item] = &[...];`, or nothing for an empty list: the trait's default
/// (`&[]`) is left alone, to keep the expansion short.
fn list_const(
    name: TokenStream,
    item: TokenStream,
    items: impl Iterator<Item = TokenStream>,
) -> Option<TokenStream> {
    let items = items.collect::<Vec<_>>();
    (!items.is_empty()).then(|| quote!(const #name: &'static [#item] = &[#(#items),*];))
}

/// The path of the runtime's `__private` module, the only thing generated code names, so that
/// a user's own `Option` or `Some` cannot change what the expansion means.
pub fn private(cont: &Container) -> TokenStream {
    let krate = cont.krate();
    quote!(#krate::__private)
}

/// `impl<...> ToolInput for Type<...> where ...`.
///
/// With generics, the impl exists exactly when the trait's supertraits hold (so a user
/// never writes `T: Deserialize<'de> + JsonSchema` bounds serde and schemars already
/// derived), and for type or const parameters only when `Self: 'static`, which the per-type
/// definition cache needs; `bounds` are the fields' own (see the probes).
pub fn impl_header(cont: &Container, private: &TokenStream, bounds: Vec<syn::WherePredicate>) -> TokenStream {
    let mut generics = cont.original.generics.clone();
    if !generics.params.is_empty() {
        let lifetime = cont.has_type_or_const_params().then(|| quote!(+ 'static));
        let predicates = &mut generics.make_where_clause().predicates;
        predicates.push(syn::parse_quote! {
            Self: #private::DeserializeOwned + #private::JsonSchema #lifetime
        });
        predicates.extend(bounds);
    }
    let ident = &cont.original.ident;
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    quote! {
        #[automatically_derived]
        impl #impl_generics #private::ToolInput for #ident #ty_generics #where_clause
    }
}

/// Everything goes inside `const _: () = { ... };`, so no name leaks into the user's module.
/// The paths are absolute on purpose, hence the allowed lints.
pub fn wrap_in_const(code: TokenStream) -> TokenStream {
    quote! {
        #[doc(hidden)]
        #[allow(unused_qualifications, clippy::absolute_paths)]
        const _: () = {
            #code
        };
    }
}

/// `validate_input`, calling the user's function. The call is spanned on the path the user
/// wrote, so a function of the wrong signature is reported there; `self` keeps the
/// expansion's own span, as the method's parameter does (with the path's span, a path from a
/// `macro_rules!` fragment would make it another hygiene context's `self`).
fn validate_input(path: &syn::Path, private: &TokenStream) -> TokenStream {
    let receiver = quote!(self);
    let call = quote_spanned!(path.span()=> #path(#receiver));
    quote! {
        fn validate_input(&self) -> #private::Result<(), #private::Vec<#private::FieldError>> {
            #call
        }
    }
}

fn option_policy(policy: Option<Policy>, private: &TokenStream) -> TokenStream {
    match policy {
        Some(policy) => {
            let variant = format_ident!("{}", policy.variant());
            quote!(#private::Option::Some(#private::Policy::#variant))
        }
        None => quote!(#private::Option::None),
    }
}

/// `DESCRIPTION`: the attribute, else the doc comment's description as schemars reads it.
fn description(cont: &Container, private: &TokenStream) -> TokenStream {
    let some = |text: String| quote!(#private::Option::Some(#text));
    if let Some(lit) = cont.attrs.description.get() {
        return some(lit.value());
    }
    match &cont.doc {
        Doc::None => quote!(#private::Option::None),
        Doc::Text(text) => match attr::description_from_doc(text) {
            Some(description) => some(description),
            None => quote!(#private::Option::None),
        },
        // Only the compiler knows the text, e.g. of `#[doc = include_str!("tool.md")]`: it
        // is read in a constant, as schemars reads it.
        Doc::Expr(args) => quote!(#private::doc_description(#private::concat!(#args))),
    }
}
