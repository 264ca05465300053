//! The arguments of a call written as text one at a time (Python keywords, the parameters of
//! every tag format: qwen3-coder, GLM, MiniMax, DSML, Step 3, Kimi K3, Gemma's call syntax,
//! …), collected in order. One rule for a key given twice, in every format: the record keeps
//! both values, and the tool's check decides, as for a JSON object with a repeated key.

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::text_parts;
use crate::calls::{Collector, OriginalArguments};

/// Keyword arguments in the order the call wrote them. A key given twice is kept twice, so
/// the record shows both values and the tool's check applies the duplicate key rule (the
/// same value: recorded; two values: rejected), as for JSON arguments.
#[derive(Debug, Default)]
pub(super) struct Keywords {
    members: Vec<(String, Value)>,
    seen: HashSet<String>,
    repeated: bool,
}

impl Keywords {
    pub fn insert(&mut self, key: String, value: Value) {
        if !self.seen.insert(key.clone()) {
            self.repeated = true;
        }
        self.members.push((key, value));
    }

    /// Record the call to `name` whose text is `span`.
    pub fn push(self, out: &mut Collector<'_>, name: String, id: Option<String>, span: &str) {
        let mut parts = text_parts(Some(name), self.into_arguments(), span);
        parts.id = id;
        out.push(parts);
    }

    /// The arguments as sent: an object, or with a key given twice, the JSON text of every
    /// member in order.
    pub fn into_arguments(self) -> OriginalArguments {
        if !self.repeated {
            return OriginalArguments::Value(Value::Object(self.members.into_iter().collect::<Map<_, _>>()));
        }
        let mut text = String::from("{");
        for (position, (key, value)) in self.members.iter().enumerate() {
            if position > 0 {
                text.push_str(", ");
            }
            text.push_str(&Value::String(key.clone()).to_string());
            text.push_str(": ");
            text.push_str(&value.to_string());
        }
        text.push('}');
        OriginalArguments::Text(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_key_given_twice_keeps_both_values() {
        let mut keywords = Keywords::default();
        keywords.insert("dir".to_owned(), json!("/tmp"));
        keywords.insert("dir".to_owned(), json!("/"));
        assert_eq!(
            keywords.into_arguments(),
            OriginalArguments::Text(r#"{"dir": "/tmp", "dir": "/"}"#.to_owned())
        );
        let mut keywords = Keywords::default();
        keywords.insert("dir".to_owned(), json!("/tmp"));
        assert_eq!(keywords.into_arguments(), OriginalArguments::Value(json!({"dir": "/tmp"})));
    }
}
