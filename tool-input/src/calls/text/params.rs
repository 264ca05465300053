//! Arguments collected one parameter at a time (the tag formats), by the duplicate-key
//! rule: a parameter given twice with the same value is kept once; with two values, the
//! call is an error, since which one was meant is not ours to choose.

use serde_json::{Map, Value};

use super::text_parts;
use crate::calls::{Collector, OriginalArguments};
use crate::error::{ErrorCode, FieldError, Rejection};

/// The parameters of one call, in the order they came.
#[derive(Debug, Default)]
pub(super) struct Params {
    map: Map<String, Value>,
    /// The first key given twice with different values, and both values.
    conflict: Option<(String, Value, Value)>,
}

impl Params {
    pub(super) fn new() -> Self {
        Params::default()
    }

    /// Add a parameter.
    pub(super) fn insert(&mut self, key: String, value: Value) {
        match self.map.get(&key) {
            Some(first) if *first == value => {}
            Some(first) => {
                if self.conflict.is_none() {
                    self.conflict = Some((key, first.clone(), value));
                }
            }
            None => {
                self.map.insert(key, value);
            }
        }
    }

    /// Record the call to `name` whose text is `span`.
    pub(super) fn push(self, out: &mut Collector<'_>, name: String, id: Option<String>, span: &str) {
        let mut parts =
            text_parts(Some(name.clone()), OriginalArguments::Value(Value::Object(self.map)), span);
        parts.id = id;
        let Some((key, first, second)) = self.conflict else {
            out.push(parts);
            return;
        };
        let message = format!(
            "the key `{key}` is given twice, with different values: {first}, then {second}; send it once, with the value you mean"
        );
        let error = FieldError {
            path: format!("/{}", crate::pointer::escape_token(&key)),
            code: ErrorCode::DuplicateKey,
            message,
            value: Some(second.to_string()),
            options: vec![first, second],
            suggestion: None,
        };
        let rejection = Rejection::invalid(vec![error]);
        out.push_rejected(parts, rejection.with_tool(name.trim()));
    }
}
