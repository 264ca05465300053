//! json_repair's reading of a ```` ```json ```` code block inside a string value
//! ([`RepairStyle::JsonRepair`]).

use serde_json::Value;

use super::RepairLayer;
use crate::parse::{ParseOptions, RepairKind, RepairStyle};

impl RepairLayer {
    /// [`RepairStyle::JsonRepair`]: the object or array in a string item or member value that
    /// is a ```` ```json ```` code block and not itself a valid JSON string (unescaped quotes
    /// or line breaks: `"```json {"a": 1}```"`), as json_repair reads it (the
    /// model fenced the JSON it meant as the value), its repairs recorded at the string's
    /// `offset`. The block holds no backtick, so the JSON in it is read once, never again
    /// for a block inside it.
    pub(super) fn fenced_json(&mut self, text: &str, offset: usize) -> Option<Value> {
        if !self.python_style || self.grammar.depth() == 0 {
            return None;
        }
        // Only a string that is not a valid JSON string (unescaped quotes or line breaks,
        // other quotes): the model wrote JSON, not a string. A valid JSON string stays what
        // it is, as json_repair leaves valid JSON, and valid JSON is then read the same by
        // the fast path, our parser and the incremental parser.
        let own = self.grammar.repairs().get(self.repairs_before_token..).unwrap_or_default();
        let written_as_json = own.iter().any(|r| {
            matches!(
                r.kind,
                RepairKind::UnescapedQuote
                    | RepairKind::ControlCharacter
                    | RepairKind::MissingQuote
                    | RepairKind::SingleQuotes
                    | RepairKind::SmartQuotes
            )
        });
        if !written_as_json {
            return None;
        }
        let block = text.strip_prefix("```json")?;
        let (json, fence) = block.split_at(block.find('`')?);
        if fence.trim_end() != "```" {
            return None;
        }
        let options = ParseOptions {
            style: RepairStyle::JsonRepair,
            // The fence closed the block: what it leaves open is closed, as at the end.
            complete_truncated: true,
            // Within the input, which is within its limits.
            max_bytes: json.len(),
            max_depth: self.grammar.max_depth().checked_sub(self.grammar.depth())?,
            ..ParseOptions::repair()
        };
        let (value, repairs, float_texts) = if self.out.value.keeps_float_texts() {
            // Its floats kept as written too (`parse_to_json`).
            let (value, repairs, float_texts) =
                crate::parse::one_shot::keeping_float_texts_of(json, &options)?;
            (value, repairs, Some(float_texts))
        } else {
            let parsed = crate::parse::parse(json, &options).ok()?;
            (parsed.value, parsed.repairs, None)
        };
        if !matches!(value, Value::Object(_) | Value::Array(_)) {
            return None;
        }
        let value = match float_texts {
            Some(float_texts) => self.out.value.adopt(value, float_texts),
            None => value,
        };
        self.record(RepairKind::CodeFence, offset);
        self.record(RepairKind::DoubleEncoded, offset);
        let repairs_so_far = self.grammar.repairs_mut();
        for inner in repairs {
            repairs_so_far.push(inner.at(offset));
        }
        Some(value)
    }
}
