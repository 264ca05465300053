//! Cross-cutting checks: rules that look at more than one attribute, or at an attribute
//! together with serde's view of the same field. Simpler checks happen while parsing.

use crate::ast::{Container, Field, ToolName};
use crate::ctxt::Ctxt;

pub fn check(cx: &Ctxt, cont: &Container) {
    check_tool_name(cx, cont);
    check_partial_name(cx, cont);
    for field in cont.fields() {
        check_stream_whole(cx, &field.attrs);
        check_one_policy(cx, field);
        check_not_serde_skipped(cx, field);
        check_not_serde_flattened(cx, field);
        check_not_borrowed(cx, field);
    }
}

/// A tool's arguments are read from text the engine owns (it repairs and coerces it), and
/// `ToolInput` is `DeserializeOwned`: a field borrowing from the input could never be filled.
fn check_not_borrowed(cx: &Ctxt, field: &Field) {
    if field.serde_borrows {
        cx.error_spanned_by(
            serde_attribute(field, "borrow"),
            "#[derive(ToolInput)] does not support fields that borrow from the input \
             (#[serde(borrow)], &str, &[u8]): the arguments are read from text the engine \
             repairs and owns; use an owned type such as String or Cow<'static, str>",
        );
    }
}

/// The `#[serde(...)]` attribute of `field` that mentions `word`, else the field itself: where
/// an error about serde's reading of the field points.
fn serde_attribute<'a>(field: &Field<'a>, word: &str) -> proc_macro2::TokenStream {
    use quote::ToTokens;
    let attr =
        field.original.attrs.iter().find(|attr| {
            attr.path().is_ident("serde") && attr.meta.to_token_stream().to_string().contains(word)
        });
    match attr {
        Some(attr) => attr.to_token_stream(),
        None => field.original.to_token_stream(),
    }
}

/// The partial type is written beside the struct: under the struct's own name it would be
/// a second definition of it.
fn check_partial_name(cx: &Ctxt, cont: &Container) {
    if let Some(crate::attr::Partial::Rename(name)) = cont.attrs.partial.get() {
        if name == &cont.original.ident {
            cx.error_spanned_by(name, "the partial type needs a name of its own, not the struct's");
        }
    }
}

/// A field shown only whole is shown once complete (`stream_done` says nothing more), and
/// has no empty form to show before it arrives (`stream_not_null` could not be kept).
pub fn check_stream_whole(cx: &Ctxt, field: &crate::attr::Field) {
    if !field.stream_whole() {
        return;
    }
    if let Some(path) = field.stream_done.path() {
        cx.error_spanned_by(
            path,
            "`stream_done` says nothing more beside `stream_whole`: a value shown whole is shown once complete",
        );
    }
    if let Some(path) = field.stream_not_null.path() {
        cx.error_spanned_by(
            path,
            "`stream_not_null` cannot hold with `stream_whole`: a value shown whole has no empty form \
             to show before it arrives",
        );
    }
}

/// Providers reject a tool whose name does not match `^[a-zA-Z0-9_-]{1,64}$`, and only when
/// the request is sent; so both an explicit name and the one derived from the type name
/// (which may hold non-ASCII letters, or be long) are checked here instead.
fn check_tool_name(cx: &Ctxt, cont: &Container) {
    let name = cont.name();
    let Some(problem) = name_problem(&name.value()) else {
        return;
    };
    match name {
        ToolName::Explicit(lit) => cx.error_spanned_by(lit, format!("invalid tool name: {problem}")),
        ToolName::Derived(_) => cx.error_spanned_by(
            &cont.original.ident,
            format!(
                "invalid tool name derived from the type name: {problem}; \
                 set one with #[tool_input(name = \"...\")]"
            ),
        ),
    }
}

/// Why `name` does not match `^[a-zA-Z0-9_-]{1,64}$`, if it does not.
fn name_problem(name: &str) -> Option<String> {
    if name.is_empty() {
        return Some("it is empty".to_owned());
    }
    if let Some(c) = name.chars().find(|&c| !(c.is_ascii_alphanumeric() || c == '_' || c == '-')) {
        return Some(format!(
            "`{name}` contains `{c}`, but a tool name is ASCII letters, digits, `_` and `-`"
        ));
    }
    if name.len() > 64 {
        return Some(format!("`{name}` is {} characters long, more than 64", name.len()));
    }
    None
}

/// A field has one policy: `strict`, `lenient` and `policy = "..."` each set it, so two of
/// them on one field contradict each other, or at best repeat each other.
fn check_one_policy(cx: &Ctxt, field: &Field) {
    let Some((first, rest)) = field.attrs.policies.split_first() else {
        return;
    };
    for later in rest {
        cx.error_spanned_by(
            &later.path,
            format!(
                "conflicting tool_input attributes `{}` and `{}`; a field has one policy",
                first.key, later.key
            ),
        );
    }
}

/// The model never sends a field serde skips, so options on it would silently do nothing:
/// most likely the `skip` or the options are a leftover.
fn check_not_serde_skipped(cx: &Ctxt, field: &Field) {
    if let (true, Some(attr)) = (field.serde_skipped, field.attrs.originals.first()) {
        cx.error_spanned_by(
            attr,
            "tool_input attributes have no effect on a field that serde skips \
             (#[serde(skip)] or #[serde(skip_deserializing)])",
        );
    }
}

/// Field options apply to one property of the arguments object; a flattened field has no
/// property of its own, its type's fields are spread into the object instead.
fn check_not_serde_flattened(cx: &Ctxt, field: &Field) {
    if let (true, Some(attr)) = (field.serde_flattened, field.attrs.originals.first()) {
        cx.error_spanned_by(attr, "tool_input attributes are not supported on a #[serde(flatten)] field");
    }
}

#[cfg(test)]
mod tests {
    use super::name_problem;

    #[test]
    fn tool_names() {
        assert_eq!(name_problem("get_weather"), None);
        assert_eq!(name_problem("Get-Weather-2"), None);
        assert_eq!(name_problem(&"a".repeat(64)), None);
        assert!(name_problem("").is_some());
        assert!(name_problem(&"a".repeat(65)).is_some());
        assert!(name_problem("get weather").is_some());
        assert!(name_problem("café").is_some());
        assert!(name_problem("a.b").is_some());
    }
}
