//! An unknown property's error: the names the object takes (its properties, or the
//! patterns its names must match), and the closest of them, for `additionalProperties:
//! false` and `unevaluatedProperties: false` alike.

use serde_json::Value;

use super::{Mode, Outcome, Path, Walker, MAX_OPTIONS};
use crate::error::{ErrorCode, Options};
use crate::message;
use crate::plan::Node;

impl Walker<'_> {
    /// `key` is no property `node` declares (`additionalProperties: false`).
    pub(super) fn unknown_field(
        &self,
        node: &Node,
        key: &str,
        path: &Path<'_>,
        mode: Mode,
        out: &mut Outcome,
    ) {
        if self.not_built(out) || self.built_watched(out, path, ErrorCode::UnknownField) {
            return;
        }
        // Only the names listed are made into values: an object of many properties costs
        // its first few, not one value each.
        let names = node.names_listed.get(|| {
            node.properties.iter().take(MAX_OPTIONS).map(|(name, _)| Value::String(name.clone())).collect()
        });
        let declared = node.properties.iter().map(|(name, _)| name.as_str());
        let patterns: Vec<&str> =
            node.pattern_properties.iter().map(|(pattern, _)| pattern.source.as_str()).collect();
        self.unknown_among(key, declared, names, node.properties.len(), &patterns, path, mode, out);
    }

    /// `key` is not among the `count` names `declared`, of which `names` are the first few as
    /// values: say so, with the closest name and the names the object takes.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn unknown_among<'n>(
        &self,
        key: &str,
        declared: impl Iterator<Item = &'n str>,
        names: Options,
        count: usize,
        patterns: &[&str],
        path: &Path<'_>,
        mode: Mode,
        out: &mut Outcome,
    ) {
        let suggestion = message::closest(key, declared).map(|s| Value::String(s.to_owned()));
        // Names matching `patternProperties` are allowed too (a map whose keys are numbers).
        let matching = match patterns {
            [] => String::new(),
            [one] => format!("a name matching the pattern {}", message::shorten(one, self.max_echo)),
            many => {
                let shown: Vec<String> =
                    many.iter().take(MAX_OPTIONS).map(|p| message::shorten(p, self.max_echo)).collect();
                format!("a name matching one of the patterns {}", shown.join(", "))
            }
        };
        let allowed = match (count, matching.is_empty()) {
            (0, true) => "this object takes no properties".to_owned(),
            (0, false) => message::join(&["allowed: ", &matching]),
            (_, true) => message::join(&["allowed: ", &message::quoted_first(&names, count, self.max_echo)]),
            (_, false) => message::join(&[
                "allowed: ",
                &message::quoted_first(&names, count, self.max_echo),
                ", or ",
                &matching,
            ]),
        };
        let hint = suggestion
            .as_ref()
            .map(|s| message::join(&["did you mean ", &message::json_text(s), "? "]))
            .unwrap_or_default();
        self.fail_with(
            out,
            path,
            Mode { sensitive: true, ..mode },
            ErrorCode::UnknownField,
            None,
            names,
            suggestion.clone(),
            || {
                message::join(&[
                    "unknown property `",
                    &message::shorten(key, self.max_echo),
                    "`; ",
                    &hint,
                    &allowed,
                ])
            },
        );
    }
}
