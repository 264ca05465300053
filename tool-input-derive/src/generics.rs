//! What a generic struct's parameters are to the types derived beside it: which of them a
//! type names, which a partial drops (and needs a marker for), and serde's bounds made
//! usable outside serde's own `impl<'de>`.

use proc_macro2::{Ident, TokenStream, TokenTree};
use quote::{quote, ToTokens};
use syn::{GenericArgument, GenericParam, Generics, PathArguments, Type, WherePredicate};

/// The parameters of a struct, by kind.
pub struct Params<'a> {
    generics: &'a Generics,
}

impl<'a> Params<'a> {
    pub fn of(generics: &'a Generics) -> Self {
        Params { generics }
    }

    pub fn is_empty(&self) -> bool {
        self.generics.params.is_empty()
    }

    /// Is `ident` one of the type parameters?
    pub fn is_type_param(&self, ident: &Ident) -> bool {
        self.generics.type_params().any(|param| param.ident == *ident)
    }

    /// The type parameters that `ty` holds as types of their own, the way serde_derive finds
    /// the parameters it bounds: inside other types' arguments, references, tuples, arrays;
    /// not inside `PhantomData` (which needs nothing of them), not as the base of an
    /// associated type (`T::Item` needs a bound of its own, not one on `T`).
    pub fn type_params_in(&self, ty: &Type, found: &mut Vec<Ident>) {
        match ty {
            Type::Path(path) => {
                if let Some(qself) = &path.qself {
                    self.type_params_in(&qself.ty, found);
                }
                let segments = &path.path.segments;
                if path.qself.is_none() && path.path.leading_colon.is_none() && segments.len() == 1 {
                    let ident = &segments[0].ident;
                    if self.is_type_param(ident) && !found.contains(ident) {
                        found.push(ident.clone());
                    }
                }
                if segments.last().is_some_and(|segment| segment.ident == "PhantomData") {
                    return;
                }
                for segment in segments {
                    if let PathArguments::AngleBracketed(arguments) = &segment.arguments {
                        for argument in &arguments.args {
                            if let GenericArgument::Type(inner) = argument {
                                self.type_params_in(inner, found);
                            }
                        }
                    }
                }
            }
            Type::Reference(reference) => self.type_params_in(&reference.elem, found),
            Type::Slice(slice) => self.type_params_in(&slice.elem, found),
            Type::Array(array) => self.type_params_in(&array.elem, found),
            Type::Ptr(pointer) => self.type_params_in(&pointer.elem, found),
            Type::Paren(paren) => self.type_params_in(&paren.elem, found),
            Type::Group(group) => self.type_params_in(&group.elem, found),
            Type::Tuple(tuple) => tuple.elems.iter().for_each(|elem| self.type_params_in(elem, found)),
            _ => {}
        }
    }

    /// The type of a `PhantomData` marker for the type and lifetime parameters that none of
    /// `used` names (a struct must use each; constants need not be), or `None` when each is
    /// named. `fn() -> (*const T, &'a (), ...)`: the marker owns nothing, so it changes
    /// neither `Send`, `Sync` nor drop order, keeps each parameter covariant, and holds an
    /// unsized one (`T: ?Sized`).
    pub fn marker(&self, used: &[TokenStream], phantom: &TokenStream) -> Option<TokenStream> {
        let dropped: Vec<TokenStream> = self
            .generics
            .params
            .iter()
            .filter_map(|param| match param {
                GenericParam::Type(param) => {
                    let ident = &param.ident;
                    (!used.iter().any(|tokens| names_type(tokens, ident))).then(|| quote!(*const #ident))
                }
                GenericParam::Lifetime(param) => {
                    let lifetime = &param.lifetime;
                    (!used.iter().any(|tokens| names_lifetime(tokens, &lifetime.ident)))
                        .then(|| quote!(&#lifetime ()))
                }
                GenericParam::Const(_) => None,
            })
            .collect();
        (!dropped.is_empty()).then(|| quote!(#phantom<fn() -> (#(#dropped,)*)>))
    }

    /// A marker naming every type and lifetime parameter, for a helper type that must carry
    /// all of them.
    pub fn marker_of_all(&self, phantom: &TokenStream) -> TokenStream {
        let all = self.generics.params.iter().filter_map(|param| match param {
            GenericParam::Type(param) => {
                let ident = &param.ident;
                Some(quote!(*const #ident))
            }
            GenericParam::Lifetime(param) => {
                let lifetime = &param.lifetime;
                Some(quote!(&#lifetime ()))
            }
            GenericParam::Const(_) => None,
        });
        quote!(#phantom<fn() -> (#(#all,)*)>)
    }
}

/// Does `tokens` name the type `ident` (not a lifetime of the same name)?
fn names_type(tokens: &TokenStream, ident: &Ident) -> bool {
    fn walk(tokens: TokenStream, ident: &Ident) -> bool {
        let mut after_quote = false;
        tokens.into_iter().any(|tree| {
            let found = match &tree {
                TokenTree::Ident(found) => !after_quote && found == ident,
                TokenTree::Group(group) => walk(group.stream(), ident),
                _ => false,
            };
            after_quote = matches!(&tree, TokenTree::Punct(punct) if punct.as_char() == '\'');
            found
        })
    }
    walk(tokens.clone(), ident)
}

/// Does `tokens` name the lifetime `'ident`?
fn names_lifetime(tokens: &TokenStream, ident: &Ident) -> bool {
    fn walk(tokens: TokenStream, ident: &Ident) -> bool {
        let mut after_quote = false;
        tokens.into_iter().any(|tree| {
            let found = match &tree {
                TokenTree::Ident(found) => after_quote && found == ident,
                TokenTree::Group(group) => walk(group.stream(), ident),
                _ => false,
            };
            after_quote = matches!(&tree, TokenTree::Punct(punct) if punct.as_char() == '\'');
            found
        })
    }
    walk(tokens.clone(), ident)
}

/// serde's `#[serde(bound = "...")]` predicates, for an impl that has no `'de`: a predicate
/// naming `'de` holds for every `'de` (`T: Deserialize<'de>` becomes `for<'de> T:
/// Deserialize<'de>`, which is `DeserializeOwned`); one that bounds `'de` itself says
/// nothing outside serde's impl and is left out.
pub fn without_de(predicates: &[WherePredicate]) -> Vec<WherePredicate> {
    let de = Ident::new("de", proc_macro2::Span::call_site());
    predicates
        .iter()
        .filter_map(|predicate| {
            let names_de = names_lifetime(&predicate.to_token_stream(), &de);
            match predicate {
                WherePredicate::Type(typed) if names_de && typed.lifetimes.is_none() => {
                    let mut typed = typed.clone();
                    typed.lifetimes = Some(syn::parse_quote!(for<'de>));
                    Some(WherePredicate::Type(typed))
                }
                _ if names_de => None,
                _ => Some(predicate.clone()),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_parameters_a_type_holds() {
        let generics: Generics = syn::parse_quote!(<'a, T, U, const N: usize>);
        let params = Params::of(&generics);
        let found = |ty: Type| {
            let mut found = Vec::new();
            params.type_params_in(&ty, &mut found);
            found.iter().map(ToString::to_string).collect::<Vec<_>>()
        };
        assert_eq!(found(syn::parse_quote!(Vec<Option<T>>)), ["T"]);
        assert_eq!(found(syn::parse_quote!((U, &'a [T]))), ["U", "T"]);
        assert!(found(syn::parse_quote!(PhantomData<T>)).is_empty());
        assert!(found(syn::parse_quote!(T::Item)).is_empty());
        assert!(found(syn::parse_quote!(String)).is_empty());
    }

    #[test]
    fn a_marker_for_the_parameters_the_fields_drop() {
        let generics: Generics = syn::parse_quote!(<'a, T, U, const N: usize>);
        let params = Params::of(&generics);
        let phantom = quote!(PhantomData);
        let used = [quote!(Vec<T>), quote!(Cow<'a, str>)];
        assert_eq!(
            params.marker(&used, &phantom).unwrap().to_string(),
            quote!(PhantomData<fn() -> (*const U,)>).to_string()
        );
        let used = [quote!(Vec<T>), quote!(U), quote!(&'a str)];
        assert!(params.marker(&used, &phantom).is_none());
        // A type named like a lifetime does not use it.
        let used = [quote!(a), quote!(T), quote!(U)];
        assert!(params.marker(&used, &phantom).is_some());
    }

    #[test]
    fn serde_bounds_outside_serde_impl() {
        let predicates: Vec<WherePredicate> = vec![
            syn::parse_quote!(T: serde::Deserialize<'de>),
            syn::parse_quote!(U: Clone),
            syn::parse_quote!('de: 'a),
        ];
        let written: Vec<String> =
            without_de(&predicates).iter().map(|predicate| predicate.to_token_stream().to_string()).collect();
        assert_eq!(
            written,
            [quote!(for<'de> T: serde::Deserialize<'de>).to_string(), quote!(U: Clone).to_string()]
        );
    }
}
