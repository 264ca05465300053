//! The derive's model of the input: the struct and its fields with their parsed attributes.
//! Every node keeps a reference to the syntax the user wrote, only so that errors can point
//! at it.

use proc_macro2::{Ident, Span};
use quote::quote;
use serde_derive_internals::ast as serde_ast;
use serde_derive_internals::Derive;
use syn::ext::IdentExt;
use syn::{DeriveInput, Fields, LitStr};

use crate::attr;
use crate::ctxt::Ctxt;

const SHAPE_MESSAGE: &str = "#[derive(ToolInput)] requires a struct with named fields";

pub struct Container<'a> {
    pub original: &'a DeriveInput,
    pub attrs: attr::Container,
    pub doc: attr::Doc,
    pub data: Data<'a>,
    /// Whether serde_derive accepts the input, and so serde and schemars implement the
    /// supertraits of `ToolInput`: false for a union, or when a `#[serde]` attribute is wrong.
    pub serde_ok: bool,
}

pub enum Data<'a> {
    /// A struct with named fields, the only shape a tool's arguments object has.
    Struct(Vec<Field<'a>>),
    /// A tuple or unit struct, an enum or a union: already reported; there is no object to
    /// describe.
    Unsupported,
}

pub struct Field<'a> {
    /// Keeps the `#[tool_input]` attributes themselves, which errors about the field point at.
    pub attrs: attr::Field<'a>,
    /// The property name the model sends: serde's deserialize name, after `rename` and
    /// `rename_all`.
    pub name: String,
    /// The field's Rust name (raw identifiers without `r#`), which rule crates such as garde
    /// report errors under.
    pub rust_name: String,
    /// `#[serde(skip)]` or `#[serde(skip_deserializing)]`: the model never sends it.
    pub serde_skipped: bool,
    /// `#[serde(flatten)]`: its properties are the inner type's, not its own.
    pub serde_flattened: bool,
    /// The other names serde reads the field under (`#[serde(alias = "...")]`), sorted.
    pub aliases: Vec<String>,
    /// The field as written, for errors about serde's view of it.
    pub original: &'a syn::Field,
    /// serde reads it with any function (`deserialize_with`, `with`, a borrowed `Cow`'s):
    /// the field's type alone does not say what serde accepts.
    pub serde_reads_by_fn: bool,
    /// The function serde reads it with (`deserialize_with`, `with`'s `deserialize`).
    pub deserialize_with: Option<syn::ExprPath>,
    /// The field's type.
    pub ty: &'a syn::Type,
    /// serde borrows it from the input (`#[serde(borrow)]`, `&str`, `&[u8]`).
    pub serde_borrows: bool,
    /// The bounds serde's `Deserialize` impl is written with for this field: the field's
    /// `#[serde(bound = ...)]` and the struct's (what a function reading it may need).
    pub serde_de_bound: Vec<syn::WherePredicate>,
}

/// The tool's name and where it came from, for the error if it is not a valid tool name.
pub enum ToolName<'a> {
    /// `#[tool_input(name = "...")]`.
    Explicit(&'a LitStr),
    /// The snake_case type name.
    Derived(String),
}

impl ToolName<'_> {
    pub fn value(&self) -> String {
        match self {
            ToolName::Explicit(lit) => lit.value(),
            ToolName::Derived(name) => name.clone(),
        }
    }
}

impl<'a> Container<'a> {
    pub fn from_syn(cx: &Ctxt, input: &'a DeriveInput) -> Self {
        // The container's attributes are read whatever the shape, so that their mistakes are
        // reported along with a wrong shape.
        let attrs = attr::Container::from_ast(cx, &input.attrs);
        let doc = attr::Doc::from_ast(&input.attrs);
        let ident = &input.ident;
        let mut serde_ok = true;
        let data = match &input.data {
            syn::Data::Struct(data) => match &data.fields {
                Fields::Named(_) => {
                    let (fields, ok) = fields_from_syn(cx, input);
                    serde_ok = ok;
                    Data::Struct(fields)
                }
                Fields::Unnamed(_) | Fields::Unit => {
                    let struct_token = data.struct_token;
                    cx.error_spanned_by(quote!(#struct_token #ident), SHAPE_MESSAGE);
                    Data::Unsupported
                }
            },
            syn::Data::Enum(data) => {
                let enum_token = data.enum_token;
                cx.error_spanned_by(quote!(#enum_token #ident), SHAPE_MESSAGE);
                Data::Unsupported
            }
            syn::Data::Union(data) => {
                let union_token = data.union_token;
                cx.error_spanned_by(quote!(#union_token #ident), SHAPE_MESSAGE);
                serde_ok = false;
                Data::Unsupported
            }
        };
        Container { original: input, attrs, doc, data, serde_ok }
    }

    pub fn fields(&self) -> &[Field<'a>] {
        match &self.data {
            Data::Struct(fields) => fields,
            Data::Unsupported => &[],
        }
    }

    /// The path of the runtime crate: `::tool_input` unless `#[tool_input(crate = "...")]`.
    pub fn krate(&self) -> syn::Path {
        match self.attrs.krate.get() {
            Some(path) => path.clone(),
            None => syn::parse_quote!(::tool_input),
        }
    }

    pub fn name(&self) -> ToolName<'_> {
        match self.attrs.name.get() {
            Some(lit) => ToolName::Explicit(lit),
            None => ToolName::Derived(snake_case(&self.original.ident.unraw().to_string())),
        }
    }

    /// Whether the impl is generic over types or constants, whose instantiations each have
    /// their own definition. Lifetimes do not count: they do not change the schema.
    pub fn has_type_or_const_params(&self) -> bool {
        let generics = &self.original.generics;
        generics.type_params().next().is_some() || generics.const_params().next().is_some()
    }
}

/// The fields, with the names serde's own attribute parser gives them: the property names
/// are whatever serde deserializes, so they are computed by serde's code, not re-implemented.
/// Also whether serde found no error.
fn fields_from_syn<'a>(cx: &Ctxt, input: &'a DeriveInput) -> (Vec<Field<'a>>, bool) {
    let serde_cx = serde_derive_internals::Ctxt::new();
    // The ident names serde's private module in default-value paths, which we never emit.
    let private = Ident::new("__private", Span::call_site());
    let serde = serde_ast::Container::from_ast(&serde_cx, input, Derive::Deserialize, &private);
    // serde_derive reports these too; they are folded in so that our own expansion fails
    // with them rather than generate code from names serde could not read.
    let serde_ok = match serde_cx.check() {
        Ok(()) => true,
        Err(error) => {
            cx.syn_error(error);
            false
        }
    };

    // With these, serde reads the arguments as another type, so this struct's fields (and
    // the names in FIELDS) are not what the model sends.
    if let Some(serde) = &serde {
        let conversion = if serde.attrs.transparent() {
            Some("transparent")
        } else if serde.attrs.type_from().is_some() {
            Some("from")
        } else if serde.attrs.type_try_from().is_some() {
            Some("try_from")
        } else {
            None
        };
        if let Some(conversion) = conversion {
            cx.error_spanned_by(
                &input.ident,
                format!(
                    "#[derive(ToolInput)] does not support #[serde({conversion})]: the arguments \
                     would not be this struct's fields"
                ),
            );
        }
    }

    let container_bound = serde.as_ref().and_then(|serde| serde.attrs.de_bound()).unwrap_or_default();
    let serde_fields = match &serde {
        Some(serde_ast::Container { data: serde_ast::Data::Struct(_, fields), .. }) => fields.as_slice(),
        _ => &[],
    };
    let syn::Data::Struct(data) = &input.data else {
        unreachable!("fields_from_syn is only called on structs");
    };
    let fields = data
        .fields
        .iter()
        .enumerate()
        .map(|(i, original)| {
            let serde_field = serde_fields.get(i);
            let name = match serde_field {
                Some(field) => field.attrs.name().deserialize_name().value.clone(),
                // Only when serde failed, which has been reported: any name will do.
                None => original.ident.as_ref().map(|ident| ident.unraw().to_string()).unwrap_or_default(),
            };
            Field {
                attrs: attr::Field::from_ast(cx, &original.attrs),
                rust_name: original.ident.as_ref().map(|ident| ident.unraw().to_string()).unwrap_or_default(),
                serde_skipped: serde_field.is_some_and(|field| field.attrs.skip_deserializing()),
                serde_flattened: serde_field.is_some_and(|field| field.attrs.flatten()),
                // serde's set holds the name itself too.
                aliases: serde_field
                    .map(|field| {
                        let aliases = field.attrs.aliases().iter().map(|alias| alias.value.clone());
                        aliases.filter(|alias| *alias != name).collect()
                    })
                    .unwrap_or_default(),
                name,
                original,
                serde_reads_by_fn: serde_field.is_some_and(|field| field.attrs.deserialize_with().is_some()),
                deserialize_with: serde_field.and_then(|field| field.attrs.deserialize_with().cloned()),
                ty: &original.ty,
                serde_borrows: serde_field.is_some_and(|field| !field.attrs.borrowed_lifetimes().is_empty()),
                serde_de_bound: container_bound
                    .iter()
                    .chain(serde_field.and_then(|field| field.attrs.de_bound()).unwrap_or_default())
                    .cloned()
                    .collect(),
            }
        })
        .collect();
    (fields, serde_ok)
}

/// A type name in snake_case, reading runs of capitals as one word:
/// `CreateOrder` → `create_order`, `GetHTTPStatus` → `get_http_status`.
pub fn snake_case(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut snake = String::with_capacity(name.len() + 4);
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_uppercase() {
            snake.push(c);
            continue;
        }
        let previous = i.checked_sub(1).map(|j| chars[j]);
        let next = chars.get(i + 1);
        let starts_word = match previous {
            None | Some('_') => false,
            // `orderId`, `Sha256Hash`.
            Some(p) if p.is_lowercase() || p.is_numeric() => true,
            // The last capital of a run that a lowercase word follows: the `S` of `HTTPStatus`.
            Some(p) if p.is_uppercase() => next.is_some_and(|n| n.is_lowercase()),
            Some(_) => false,
        };
        if starts_word {
            snake.push('_');
        }
        snake.extend(c.to_lowercase());
    }
    snake
}

#[cfg(test)]
mod tests {
    use super::snake_case;

    #[test]
    fn snake_case_of_type_names() {
        for (name, snake) in [
            ("CreateOrder", "create_order"),
            ("GetHTTPStatus", "get_http_status"),
            ("HTTPServer", "http_server"),
            ("IO", "io"),
            ("Weather", "weather"),
            ("Sha256Hash", "sha256_hash"),
            ("GetV2Status", "get_v2_status"),
            ("OAuth2Token", "o_auth2_token"),
            ("Get_Weather", "get_weather"),
            ("get_weather", "get_weather"),
            ("A", "a"),
            ("ABc", "a_bc"),
        ] {
            assert_eq!(snake_case(name), snake, "{name}");
        }
    }
}
