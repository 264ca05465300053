//! The string size limit where no subschema reaches: [`Limits::max_string_bytes`] bounds
//! every string value of the arguments, and the walk checks a string only where a subschema
//! describes it. A member where `additionalProperties` is absent, an item of an array
//! without `items`, anything inside a value whose schema is `{}`: no node walks there, and
//! a schema that says `additionalProperties: {}` (which means the same) would bound them.
//!
//! So the checked value is read once more, after the walk, for the strings past the limit
//! that no error covers yet. Once, and not from each node the walk applies to a value: a
//! value can take several nodes (a `$ref`, `allOf` branches, a field's struct), and reading
//! the members each one leaves alone would read a nested value once per level above it.
//!
//! [`Limits::max_string_bytes`]: crate::Limits::max_string_bytes

use std::collections::HashSet;

use serde_json::Value;

use super::{Mode, Outcome, Path, Walker};
use crate::error::ErrorCode;
use crate::policy::Policy;

impl Walker<'_> {
    /// A `too_long` error for each string of `value` longer than the limit that no error of
    /// `out` is about yet: none at its path (where a subschema describes it, the walk said
    /// what is wrong there), and none above it that refuses the value there whole, as the
    /// walk does without reading inside (an unknown field, a value of another type, one no
    /// value is allowed for, one nested too deep). Reads as deep as the walk does
    /// (`max_depth`).
    pub(crate) fn long_strings_undescribed(&self, value: &Value, out: &mut Outcome) {
        if !has_long_string(value, self.max_string_bytes, 0, self.max_depth) {
            return;
        }
        let mut covered = Covered::default();
        for error in &out.errors {
            covered.at.insert(error.path().to_owned());
            if matches!(
                error.code(),
                ErrorCode::UnknownField | ErrorCode::Type | ErrorCode::NotAllowed | ErrorCode::TooDeep
            ) {
                covered.whole.insert(error.path().to_owned());
            }
        }
        self.report_long_strings(value, &Path::Root, 0, &covered, out);
    }

    fn report_long_strings(
        &self,
        value: &Value,
        path: &Path<'_>,
        depth: usize,
        covered: &Covered,
        out: &mut Outcome,
    ) {
        match value {
            Value::String(string) if string.len() > self.max_string_bytes => {
                let pointer = path.pointer();
                if covered.covers(&pointer) {
                    return;
                }
                // Nothing of the value is quoted: the message is the same under a sensitive field.
                self.too_long(out, path, Mode { policy: Policy::Strict, sensitive: true }, string);
            }
            Value::Array(items) if depth < self.max_depth => {
                for (index, item) in items.iter().enumerate() {
                    self.report_long_strings(item, &Path::Index(path, index), depth + 1, covered, out);
                }
            }
            Value::Object(map) if depth < self.max_depth => {
                for (key, member) in map {
                    self.report_long_strings(member, &Path::Key(path, key), depth + 1, covered, out);
                }
            }
            _ => {}
        }
    }
}

/// Is there a string longer than `limit` in `value`, within `max_depth`? (Most values have
/// none: no path is written, no set of error paths made.)
fn has_long_string(value: &Value, limit: usize, depth: usize, max_depth: usize) -> bool {
    match value {
        Value::String(string) => string.len() > limit,
        Value::Array(items) if depth < max_depth => {
            items.iter().any(|item| has_long_string(item, limit, depth + 1, max_depth))
        }
        Value::Object(map) if depth < max_depth => {
            map.values().any(|member| has_long_string(member, limit, depth + 1, max_depth))
        }
        _ => false,
    }
}

/// The paths of the errors found, and of those that refuse their value whole.
#[derive(Default)]
struct Covered {
    at: HashSet<String>,
    whole: HashSet<String>,
}

impl Covered {
    /// Is an error about the value at `pointer`, or is a value above it refused whole?
    fn covers(&self, pointer: &str) -> bool {
        if self.at.contains(pointer) {
            return true;
        }
        let mut end = pointer.len();
        while let Some(slash) = pointer[..end].rfind('/') {
            if self.whole.contains(&pointer[..slash]) {
                return true;
            }
            end = slash;
        }
        false
    }
}
