//! Parsing of `#[tool_input(...)]` and of doc comments.
//!
//! No parser here returns `Result`: a bad attribute is reported to the [`Ctxt`] and ignored,
//! and parsing goes on with the next one, so the user sees every bad attribute at once
//! instead of fixing them one compile at a time.

use proc_macro2::{Delimiter, TokenStream, TokenTree};
use quote::{quote, ToTokens};
use syn::ext::IdentExt;
use syn::meta::ParseNestedMeta;
use syn::parse::ParseStream;
use syn::{Attribute, Expr, ExprLit, Ident, Lit, LitStr, Token};

use crate::ctxt::Ctxt;
use crate::symbol::{
    Symbol, CRATE, DESCRIPTION, DOC, FORMATS, LENIENT, NAME, PARTIAL, POLICY, RENAME, SENSITIVE, STREAM_DONE,
    STREAM_NOT_NULL, STREAM_WHOLE, STRICT, TOOL_INPUT, VALIDATE,
};

/// The attributes that only make sense on the struct.
const CONTAINER_ONLY: [Symbol; 6] = [NAME, DESCRIPTION, CRATE, VALIDATE, FORMATS, PARTIAL];
/// The attributes that only make sense on a field.
const FIELD_ONLY: [Symbol; 6] = [STRICT, LENIENT, SENSITIVE, STREAM_DONE, STREAM_NOT_NULL, STREAM_WHOLE];

/// One attribute's value, with the name as the user wrote it so errors can point at it.
pub struct Attr<T> {
    name: Symbol,
    value: Option<(syn::Path, T)>,
}

impl<T> Attr<T> {
    fn none(name: Symbol) -> Self {
        Attr { name, value: None }
    }

    /// Keeps the first value; a second one, even an equal one, is a mistake worth reporting.
    fn set(&mut self, cx: &Ctxt, path: &syn::Path, value: T) {
        if self.value.is_some() {
            cx.error_spanned_by(path, format!("duplicate tool_input attribute `{}`", self.name));
        } else {
            self.value = Some((path.clone(), value));
        }
    }

    pub fn get(&self) -> Option<&T> {
        self.value.as_ref().map(|(_, value)| value)
    }

    /// The attribute's name as written, for errors about it.
    pub fn path(&self) -> Option<&syn::Path> {
        self.value.as_ref().map(|(path, _)| path)
    }
}

/// A coercion policy, as written in an attribute; the runtime's `Policy` in generated code.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Policy {
    Strict,
    Default,
    Lenient,
}

impl Policy {
    /// The variant's name in the runtime's `Policy` enum.
    pub fn variant(self) -> &'static str {
        match self {
            Policy::Strict => "Strict",
            Policy::Default => "Default",
            Policy::Lenient => "Lenient",
        }
    }

    fn from_name(name: &str) -> Option<Self> {
        match name {
            "strict" => Some(Policy::Strict),
            "default" => Some(Policy::Default),
            "lenient" => Some(Policy::Lenient),
            _ => None,
        }
    }
}

/// `partial = ...` on the struct: the partial type `#[derive(ToolInput)]` writes beside it.
pub enum Partial {
    /// `partial = true` (as without the attribute): `{Type}Partial`.
    On,
    /// `partial = false`: none (write it with `#[derive(PartialValue)]`, or by hand).
    Off,
    /// `partial(rename = "...")`: under this name.
    Rename(Ident),
}

/// The `#[tool_input(...)]` attributes of the struct.
pub struct Container {
    pub name: Attr<LitStr>,
    pub description: Attr<LitStr>,
    pub policy: Attr<Policy>,
    pub krate: Attr<syn::Path>,
    /// The function of `validate = path`: the tool's own rules over the typed value.
    pub validate: Attr<syn::Path>,
    /// `formats = false`: `format` is an annotation only (asserted by default).
    pub formats: Attr<syn::LitBool>,
    /// `partial = false` or `partial(rename = "...")`.
    pub partial: Attr<Partial>,
}

impl Container {
    pub fn from_ast(cx: &Ctxt, attrs: &[Attribute]) -> Self {
        let mut name = Attr::none(NAME);
        let mut description = Attr::none(DESCRIPTION);
        let mut policy = Attr::none(POLICY);
        let mut krate = Attr::none(CRATE);
        let mut validate = Attr::none(VALIDATE);
        let mut formats = Attr::none(FORMATS);
        let mut partial = Attr::none(PARTIAL);

        for_each_meta(cx, attrs, |meta| {
            if meta.path == NAME {
                // #[tool_input(name = "get_weather")]
                // Validated in check.rs, together with the name derived from the type name.
                if let Some(lit) = get_lit_str(cx, NAME, &meta)? {
                    name.set(cx, &meta.path, lit);
                }
            } else if meta.path == DESCRIPTION {
                // #[tool_input(description = "Get the weather forecast for a city.")]
                if let Some(lit) = get_lit_str(cx, DESCRIPTION, &meta)? {
                    // An empty description is never what was meant: the model would be
                    // shown a tool with no explanation, and the doc comment ignored.
                    if lit.value().trim().is_empty() {
                        cx.error_spanned_by(&lit, "empty tool description");
                    }
                    description.set(cx, &meta.path, lit);
                }
            } else if meta.path == POLICY {
                // #[tool_input(policy = "strict")]
                if let Some(value) = get_policy(cx, &meta)? {
                    policy.set(cx, &meta.path, value);
                }
            } else if meta.path == CRATE {
                // #[tool_input(crate = "path::to::tool_input")]
                if let Some(lit) = get_lit_str(cx, CRATE, &meta)? {
                    match lit.parse::<syn::Path>() {
                        Ok(path) => krate.set(cx, &meta.path, path),
                        Err(_) => cx.error_spanned_by(
                            &lit,
                            format!("tool_input attribute `crate` expects a path, not `{}`", lit.value()),
                        ),
                    }
                }
            } else if meta.path == VALIDATE {
                // #[tool_input(validate = path::to::check)]
                // #[tool_input(validate = "path::to::check")], as serde's `with` is written
                if let Some(path) = get_fn_path(cx, VALIDATE, &meta)? {
                    validate.set(cx, &meta.path, path);
                }
            } else if meta.path == FORMATS {
                // #[tool_input(formats = false)]
                if let Some(flag) = get_lit_bool(cx, FORMATS, &meta)? {
                    formats.set(cx, &meta.path, flag);
                }
            } else if meta.path == PARTIAL {
                // #[tool_input(partial = false)], #[tool_input(partial(rename = "Draft"))]
                if let Some(value) = get_partial(cx, &meta)? {
                    partial.set(cx, &meta.path, value);
                }
            } else if let Some(symbol) = FIELD_ONLY.into_iter().find(|symbol| meta.path == *symbol) {
                cx.error_spanned_by(
                    &meta.path,
                    format!("tool_input attribute `{symbol}` belongs on a field, not on the struct"),
                );
                skip_value(meta.input)?;
            } else {
                unknown(cx, &meta)?;
            }
            Ok(())
        });

        Container { name, description, policy, krate, validate, formats, partial }
    }

    /// The name of the partial type beside the struct `ident`: `{ident}Partial`, or
    /// `partial(rename = "...")`'s; `None` for `partial = false`.
    pub fn partial_name(&self, ident: &Ident) -> Option<Ident> {
        match self.partial.get() {
            None | Some(Partial::On) => Some(quote::format_ident!("{}Partial", ident.unraw())),
            Some(Partial::Off) => None,
            Some(Partial::Rename(name)) => Some(name.clone()),
        }
    }
}

/// Read `partial = true | false` or `partial(rename = "Name")`.
fn get_partial(cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<Option<Partial>> {
    let usage = "tool_input attribute `partial` expects `partial = false` or `partial(rename = \"...\")`";
    if !meta.input.peek(syn::token::Paren) {
        let flag = get_value(cx, meta, usage.to_owned(), |value| syn::parse2::<syn::LitBool>(value).ok())?;
        return Ok(flag.map(|flag| if flag.value { Partial::On } else { Partial::Off }));
    }
    let mut renamed = None;
    let mut options = 0;
    meta.parse_nested_meta(|inner| {
        options += 1;
        if inner.path != RENAME {
            let path = inner.path.to_token_stream().to_string().replace(' ', "");
            cx.error_spanned_by(
                &inner.path,
                format!("unknown `partial` option `{path}`; expected `rename = \"...\"`"),
            );
            return skip_value(inner.input).map(drop);
        }
        let Some(lit) = get_lit_str(cx, RENAME, &inner)? else { return Ok(()) };
        match syn::parse_str::<Ident>(&lit.value()) {
            Ok(_) if renamed.is_some() => {
                cx.error_spanned_by(&inner.path, "duplicate `partial` option `rename`")
            }
            Ok(mut ident) => {
                ident.set_span(lit.span());
                renamed = Some(ident);
            }
            Err(_) => cx.error_spanned_by(
                &lit,
                format!("`partial(rename = ...)` expects a type name, not `{}`", lit.value()),
            ),
        }
        Ok(())
    })?;
    if options == 0 {
        cx.error_spanned_by(&meta.path, usage);
    }
    Ok(renamed.map(Partial::Rename))
}

/// A policy attribute on a field: `strict`, `lenient` or `policy = "..."`.
pub struct PolicyAttr {
    pub key: Symbol,
    pub path: syn::Path,
    pub policy: Policy,
}

/// The `#[tool_input(...)]` attributes of one field.
pub struct Field<'a> {
    /// Every `#[tool_input]` attribute on the field, for errors about the field as a whole.
    pub originals: Vec<&'a Attribute>,
    /// The policy attributes in source order. More than one is a conflict, which check.rs
    /// reports pointing at the later ones.
    pub policies: Vec<PolicyAttr>,
    pub sensitive: Attr<()>,
    /// `stream_done`: the partial shows the field only once complete.
    pub stream_done: Attr<()>,
    /// `stream_not_null`: the partial shows the field (empty) as soon as its object started.
    pub stream_not_null: Attr<()>,
    /// `stream_whole`: the partial holds the field's value whole, once complete, whatever its
    /// type (one without a partial form of its own).
    pub stream_whole: Attr<()>,
}

impl<'a> Field<'a> {
    pub fn from_ast(cx: &Ctxt, attrs: &'a [Attribute]) -> Self {
        let originals = attrs.iter().filter(|attr| attr.path() == TOOL_INPUT).collect();
        let mut policies: Vec<PolicyAttr> = Vec::new();
        let mut sensitive = Attr::none(SENSITIVE);
        let mut stream_done = Attr::none(STREAM_DONE);
        let mut stream_not_null = Attr::none(STREAM_NOT_NULL);
        let mut stream_whole = Attr::none(STREAM_WHOLE);

        let mut add_policy = |key: Symbol, path: &syn::Path, policy: Policy| {
            if policies.iter().any(|existing| existing.key == key) {
                cx.error_spanned_by(path, format!("duplicate tool_input attribute `{key}`"));
            } else {
                policies.push(PolicyAttr { key, path: path.clone(), policy });
            }
        };

        for_each_meta(cx, attrs, |meta| {
            if meta.path == STRICT {
                // #[tool_input(strict)]
                if get_flag(cx, STRICT, &meta)? {
                    add_policy(STRICT, &meta.path, Policy::Strict);
                }
            } else if meta.path == LENIENT {
                // #[tool_input(lenient)]
                if get_flag(cx, LENIENT, &meta)? {
                    add_policy(LENIENT, &meta.path, Policy::Lenient);
                }
            } else if meta.path == POLICY {
                // #[tool_input(policy = "lenient")]
                if let Some(policy) = get_policy(cx, &meta)? {
                    add_policy(POLICY, &meta.path, policy);
                }
            } else if meta.path == SENSITIVE {
                // #[tool_input(sensitive)]
                if get_flag(cx, SENSITIVE, &meta)? {
                    sensitive.set(cx, &meta.path, ());
                }
            } else if meta.path == STREAM_DONE {
                // #[tool_input(stream_done)]
                if get_flag(cx, STREAM_DONE, &meta)? {
                    stream_done.set(cx, &meta.path, ());
                }
            } else if meta.path == STREAM_NOT_NULL {
                // #[tool_input(stream_not_null)]
                if get_flag(cx, STREAM_NOT_NULL, &meta)? {
                    stream_not_null.set(cx, &meta.path, ());
                }
            } else if meta.path == STREAM_WHOLE {
                // #[tool_input(stream_whole)]
                if get_flag(cx, STREAM_WHOLE, &meta)? {
                    stream_whole.set(cx, &meta.path, ());
                }
            } else if let Some(symbol) = CONTAINER_ONLY.into_iter().find(|symbol| meta.path == *symbol) {
                cx.error_spanned_by(
                    &meta.path,
                    format!("tool_input attribute `{symbol}` belongs on the struct, not on a field"),
                );
                skip_value(meta.input)?;
            } else {
                unknown(cx, &meta)?;
            }
            Ok(())
        });

        Field { originals, policies, sensitive, stream_done, stream_not_null, stream_whole }
    }

    /// The field's policy: the first one written (check.rs rejects any other).
    pub fn policy(&self) -> Option<Policy> {
        self.policies.first().map(|attr| attr.policy)
    }

    pub fn sensitive(&self) -> bool {
        self.sensitive.get().is_some()
    }

    pub fn stream_done(&self) -> bool {
        self.stream_done.get().is_some()
    }

    pub fn stream_not_null(&self) -> bool {
        self.stream_not_null.get().is_some()
    }

    pub fn stream_whole(&self) -> bool {
        self.stream_whole.get().is_some()
    }

    /// Whether the field sets any option, i.e. belongs in `FIELDS`.
    pub fn has_options(&self) -> bool {
        self.policy().is_some() || self.sensitive()
    }
}

/// Run `parse` on each item of each `#[tool_input(...)]`. An error `parse` returns is one it
/// could not recover from inside that attribute: it is reported, and the next attribute is
/// still read.
fn for_each_meta(cx: &Ctxt, attrs: &[Attribute], mut parse: impl FnMut(ParseNestedMeta) -> syn::Result<()>) {
    for attr in attrs.iter().filter(|attr| attr.path() == TOOL_INPUT) {
        if let Err(error) = attr.parse_nested_meta(&mut parse) {
            cx.syn_error(error);
        }
    }
}

fn unknown(cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<()> {
    let path = meta.path.to_token_stream().to_string().replace(' ', "");
    cx.error_spanned_by(&meta.path, format!("unknown tool_input attribute `{path}`"));
    skip_value(meta.input).map(drop)
}

/// Consume an attribute's value (`= ...` or `(...)`), up to the next top-level comma, so that
/// a value we reject does not also derail the parsing of the attributes after it.
fn skip_value(input: ParseStream) -> syn::Result<TokenStream> {
    input.step(|cursor| {
        let mut rest = *cursor;
        let mut tokens = TokenStream::new();
        while let Some((tree, next)) = rest.token_tree() {
            if matches!(&tree, TokenTree::Punct(punct) if punct.as_char() == ',') {
                break;
            }
            tokens.extend([tree]);
            rest = next;
        }
        Ok((tokens, rest))
    })
}

/// Read `= "..."`; report anything else, spanned on the offending value.
fn get_lit_str(cx: &Ctxt, name: Symbol, meta: &ParseNestedMeta) -> syn::Result<Option<LitStr>> {
    let message = format!("tool_input attribute `{name}` expects a string: `{name} = \"...\"`");
    get_value(cx, meta, message, as_lit_str)
}

/// Read `= true` or `= false`; report anything else, spanned on the offending value.
fn get_lit_bool(cx: &Ctxt, name: Symbol, meta: &ParseNestedMeta) -> syn::Result<Option<syn::LitBool>> {
    let message = format!("tool_input attribute `{name}` expects `true` or `false`: `{name} = false`");
    get_value(cx, meta, message, |value| syn::parse2(value).ok())
}

/// Read `= value` by `read`; report anything else (`message`), spanned on the offending value,
/// on `=` when nothing follows it, on the whole attribute when there is no `=`.
fn get_value<T>(
    cx: &Ctxt,
    meta: &ParseNestedMeta,
    message: String,
    read: impl Fn(TokenStream) -> Option<T>,
) -> syn::Result<Option<T>> {
    if !meta.input.peek(Token![=]) {
        // `name` alone, or `name("...")`.
        let path = &meta.path;
        let rest = skip_value(meta.input)?;
        cx.error_spanned_by(quote!(#path #rest), message);
        return Ok(None);
    }
    let eq: Token![=] = meta.input.parse()?;
    let value = skip_value(meta.input)?;
    match read(value.clone()) {
        Some(found) => Ok(Some(found)),
        None if value.is_empty() => {
            cx.error_spanned_by(eq, message);
            Ok(None)
        }
        None => {
            cx.error_spanned_by(value, message);
            Ok(None)
        }
    }
}

/// Read `= path::to::function` (or the path in a string); report anything else, spanned on
/// the offending value.
fn get_fn_path(cx: &Ctxt, name: Symbol, meta: &ParseNestedMeta) -> syn::Result<Option<syn::Path>> {
    let message =
        format!("tool_input attribute `{name}` expects a function path: `{name} = path::to::function`");
    if !meta.input.peek(Token![=]) {
        let path = &meta.path;
        let rest = skip_value(meta.input)?;
        cx.error_spanned_by(quote!(#path #rest), message);
        return Ok(None);
    }
    let eq: Token![=] = meta.input.parse()?;
    let value = skip_value(meta.input)?;
    if value.is_empty() {
        cx.error_spanned_by(eq, message);
        return Ok(None);
    }
    let parsed = match as_lit_str(value.clone()) {
        // The path inside the string, spanned on the string.
        Some(lit) => lit.parse::<syn::Path>().ok(),
        None => syn::parse2::<syn::Path>(strip_none_group(value.clone())).ok(),
    };
    if parsed.is_none() {
        cx.error_spanned_by(value, message);
    }
    Ok(parsed)
}

/// The tokens inside the invisible group a `macro_rules!` `$path:path` arrives in.
fn strip_none_group(tokens: TokenStream) -> TokenStream {
    let mut trees = tokens.clone().into_iter();
    match (trees.next(), trees.next()) {
        (Some(TokenTree::Group(group)), None) if group.delimiter() == Delimiter::None => {
            strip_none_group(group.stream())
        }
        _ => tokens,
    }
}

/// A string literal, also when it comes wrapped in the invisible group of a `macro_rules!`
/// `$value:literal` or `$value:expr`.
fn as_lit_str(tokens: TokenStream) -> Option<LitStr> {
    let mut trees = tokens.clone().into_iter();
    match (trees.next(), trees.next()) {
        (Some(TokenTree::Group(group)), None) if group.delimiter() == Delimiter::None => {
            as_lit_str(group.stream())
        }
        _ => syn::parse2(tokens).ok(),
    }
}

/// Read `= "strict" | "default" | "lenient"`.
fn get_policy(cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<Option<Policy>> {
    let Some(lit) = get_lit_str(cx, POLICY, meta)? else {
        return Ok(None);
    };
    let policy = Policy::from_name(&lit.value());
    if policy.is_none() {
        // The same words as the runtime's `UnknownPolicy`.
        cx.error_spanned_by(
            &lit,
            format!("unknown policy `{}`; expected `strict`, `default` or `lenient`", lit.value()),
        );
    }
    Ok(policy)
}

/// A flag such as `strict`: true when written bare, false (with an error) when given a value.
fn get_flag(cx: &Ctxt, name: Symbol, meta: &ParseNestedMeta) -> syn::Result<bool> {
    if meta.input.peek(Token![=]) || meta.input.peek(syn::token::Paren) {
        let path = &meta.path;
        let value = skip_value(meta.input)?;
        cx.error_spanned_by(
            quote!(#path #value),
            format!("tool_input attribute `{name}` takes no value: write `{name}`"),
        );
        return Ok(false);
    }
    Ok(true)
}

/// A doc comment, read the way schemars_derive reads it so that `DESCRIPTION` says what the
/// schema's `description` says: the `#[doc = ...]` attributes in order, joined with `\n`,
/// each string literal losing one leading space (the one after `///`).
pub enum Doc {
    /// No doc comment.
    None,
    /// Every line is a string literal: the joined text, known at expansion time.
    Text(String),
    /// Some line is an expression such as `include_str!("tool.md")`: the arguments of a
    /// `concat!` that joins them, evaluated by the compiler.
    Expr(TokenStream),
}

impl Doc {
    pub fn from_ast(attrs: &[Attribute]) -> Doc {
        let lines: Vec<&Expr> = attrs
            .iter()
            .filter(|attr| attr.path() == DOC)
            // `#[doc(hidden)]` and the like are not text.
            .filter_map(|attr| attr.meta.require_name_value().ok())
            .map(|name_value| &name_value.value)
            .collect();
        if lines.is_empty() {
            return Doc::None;
        }

        let text: Option<Vec<String>> = lines.iter().map(|line| lit_str(line)).collect();
        if let Some(text) = text {
            return Doc::Text(text.join("\n"));
        }

        let mut args = TokenStream::new();
        for (i, line) in lines.into_iter().enumerate() {
            if i > 0 {
                args.extend(quote!(, "\n",));
            }
            match lit_str(line) {
                Some(text) => text.to_tokens(&mut args),
                None => line.to_tokens(&mut args),
            }
        }
        Doc::Expr(args)
    }
}

/// The text of a string-literal doc line, less the space after `///`.
fn lit_str(line: &Expr) -> Option<String> {
    match line {
        Expr::Lit(ExprLit { lit: Lit::Str(lit), .. }) => {
            let value = lit.value();
            Some(value.strip_prefix(' ').map(str::to_owned).unwrap_or(value))
        }
        _ => None,
    }
}

/// The description in a doc comment's text, as schemars computes it
/// (`schemars::_private::get_title_and_description`): the text trimmed of ASCII whitespace,
/// less a first line starting with `#`, which is the schema's title; `None` when that leaves
/// nothing, as schemars then sets no description.
pub fn description_from_doc(doc: &str) -> Option<String> {
    let doc = trim_ascii(doc);
    let description =
        if doc.starts_with('#') { trim_ascii(doc.find('\n').map_or("", |end| &doc[end..])) } else { doc };
    (!description.is_empty()).then(|| description.to_owned())
}

fn trim_ascii(text: &str) -> &str {
    text.trim_matches(|c: char| c.is_ascii_whitespace())
}

#[cfg(test)]
mod tests {
    use super::description_from_doc;

    #[test]
    fn description_is_the_trimmed_doc() {
        assert_eq!(description_from_doc("Get the weather."), Some("Get the weather.".into()));
        assert_eq!(description_from_doc("\n  Line one.\nLine two.\n\n"), Some("Line one.\nLine two.".into()));
        assert_eq!(description_from_doc("   "), None);
        assert_eq!(description_from_doc(""), None);
    }

    #[test]
    fn a_heading_is_the_title_not_the_description() {
        assert_eq!(description_from_doc("# Weather\n\nGet the weather."), Some("Get the weather.".into()));
        assert_eq!(description_from_doc("# Weather"), None);
        assert_eq!(description_from_doc("  ## Weather \n text "), Some("text".into()));
    }
}
