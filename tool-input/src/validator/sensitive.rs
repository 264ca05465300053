//! What a sensitive field hides beyond its value: the keys inside it.

use crate::report::Checked;
use crate::Rejection;

use super::Validator;

impl Validator {
    /// `result` with the keys of a sensitive value kept out of its paths and messages: they
    /// are that value's content (a secret may be a map's key as well as its value). Below a
    /// sensitive top-level property, a path token that names no property of the schema and
    /// is no index reads `*`, and a message quoting it quotes `*`.
    #[inline(always)] // (the result, a typed value among it, is not copied in and out)
    pub(crate) fn keys_masked<T>(
        &self,
        mut result: Result<Checked<T>, Rejection>,
    ) -> Result<Checked<T>, Rejection> {
        if self.sensitive_fields().next().is_none() {
            return result;
        }
        match &mut result {
            Ok(checked) => {
                for coercion in &mut checked.report.coercions {
                    self.mask_keys(&mut coercion.path, None);
                }
            }
            Err(rejection) => {
                for error in &mut rejection.errors {
                    self.mask_keys(&mut error.path, Some(&mut error.message));
                }
            }
        }
        result
    }

    /// [`keys_masked`](Validator::keys_masked) for one path, and the message said of it.
    fn mask_keys(&self, path: &mut String, message: Option<&mut String>) {
        let mut tokens = path.split('/').skip(1);
        let Some(top) = tokens.next() else { return };
        if !self.is_sensitive(&crate::pointer::unescape_token(top)) {
            return;
        }
        let mut masked = format!("/{top}");
        let mut hidden = Vec::new();
        for token in tokens {
            let key = crate::pointer::unescape_token(token);
            let index = !key.is_empty() && key.bytes().all(|b| b.is_ascii_digit());
            if index || self.declares(&key) {
                masked.push('/');
                masked.push_str(token);
            } else {
                masked.push_str("/*");
                hidden.push(key.into_owned());
            }
        }
        if hidden.is_empty() {
            return;
        }
        *path = masked;
        if let Some(message) = message {
            for key in hidden {
                *message = message
                    .replace(&format!("`{key}`"), "`*`")
                    .replace(&crate::message::echo_str(&key, usize::MAX), "\"*\"");
            }
        }
    }

    /// Does the schema name `name` as a property anywhere (so it is no secret)?
    fn declares(&self, name: &str) -> bool {
        self.inner.plan.nodes.iter().any(|node| {
            node.properties.iter().any(|(property, _)| property == name)
                || node.required_other.iter().any(|n| n == name)
        })
    }
}
