//! The tool's own rules (`#[tool_input(validate = path::to::fn)]`): checks across fields that
//! a JSON Schema cannot say, run on the typed value once every schema check has passed. Their
//! errors become a rejection like any other, each with its path, in the same message.
//!
//! The `ToolInput` trait runs the rules (`tool::apply_rules`); this module builds the
//! refusal, from the errors alone, so it sits below the trait.

use crate::error::{ErrorCode, FieldError, Rejection, RejectionKind};
use crate::field_options::FieldOptions;
use crate::report::Report;

/// The rejection for a rule's errors (not generic: one copy for every tool type).
pub(crate) fn refused(mut errors: Vec<FieldError>, report: Report, fields: &[FieldOptions]) -> Rejection {
    // `Err(vec![])` still refuses: a rule never lets a call through by saying nothing.
    if errors.is_empty() {
        errors.push(FieldError::custom("the arguments break one of the tool's rules"));
    }
    for error in &mut errors {
        if error.message.trim().is_empty() {
            error.message = "this value breaks one of the tool's rules".to_owned();
            error.code = ErrorCode::Custom;
        }
        // A rule may echo what it refused; never the value of a sensitive field.
        if is_under_sensitive(&error.path, fields) {
            error.value = None;
            error.suggestion = None;
        }
    }
    Rejection { kind: RejectionKind::Invalid, errors, omitted_errors: 0, repairs: report.repairs, tool: None }
}

/// Whether `path`'s first token is a sensitive top-level property.
fn is_under_sensitive(path: &str, fields: &[FieldOptions]) -> bool {
    let Some(rest) = path.strip_prefix('/') else {
        return false;
    };
    let token = rest.split('/').next().unwrap_or("");
    let name = token.replace("~1", "/").replace("~0", "~");
    fields.iter().any(|field| field.sensitive && field.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sensitive_paths_are_matched_on_the_first_unescaped_token() {
        let fields = [FieldOptions { name: "a/b", policy: None, sensitive: true }];
        assert!(is_under_sensitive("/a~1b", &fields));
        assert!(is_under_sensitive("/a~1b/0/x", &fields));
        assert!(!is_under_sensitive("/a", &fields));
        assert!(!is_under_sensitive("", &fields));
    }

    #[test]
    fn an_empty_list_still_refuses() {
        let rejection = refused(Vec::new(), crate::report::Report::default(), &[]);
        assert_eq!(rejection.kind, RejectionKind::Invalid);
        assert_eq!(rejection.errors.len(), 1);
        assert_eq!(rejection.errors[0].code, ErrorCode::Custom);
    }
}
