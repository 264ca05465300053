//! Representation coercions in the walk: the value means what the schema wants, but is
//! written in another form. Each one is tried only when the value does not already fit, only
//! when the result fits, and is recorded. What a string stands for is read by `convert`,
//! in the order the one pass reads it too.

use serde_json::Value;

use super::convert::{container_options, respelled, text_as_type, Converted};
use super::keywords::string_admitted;
use super::{Mode, Outcome, Path, Walker};
use crate::keywords::{Format, Keyword};
use crate::members::Finding;
use crate::plan::{Node, Types};
use crate::report::CoercionKind;

impl Walker<'_> {
    /// Coerce `value` towards what `node` declares, in place.
    pub(super) fn coerce(
        &self,
        node: &Node,
        value: &mut Value,
        path: &Path<'_>,
        mode: Mode,
        out: &mut Outcome,
        depth: usize,
    ) {
        if let Some(types) = node.types {
            if !types.accepts(value) {
                if let Some(mut converted) = self.convert(node, types, value, mode, path, depth) {
                    self.record(out, path, mode, converted.kind, Some(value), Some(&converted.value));
                    if let (true, Value::String(text)) = (converted.repeats_keys, &*value) {
                        self.keys_given_twice(text, path, mode, out, depth);
                    }
                    if converted.kind == CoercionKind::ParsedString {
                        self.facts_within(path, mode, &mut converted.value, out);
                    }
                    *value = converted.value;
                }
            } else if types.integer_only() {
                // `3.0` is an integer to JSON Schema, but not to serde: write it as one, when
                // it is exactly that integer (else `number` says why not).
                let exact = value.as_number().filter(|n| self.integer_problem(n, path, mode).is_none());
                if let Some(integer) = exact.and_then(|n| self.integer_as_sent(n, path)) {
                    let converted = Value::Number(integer);
                    self.record(
                        out,
                        path,
                        mode,
                        CoercionKind::IntegerFromFloat,
                        Some(value),
                        Some(&converted),
                    );
                    *value = converted;
                }
            }
        }
        if let Value::String(text) = &*value {
            if let Some(matched) = respelled(node, text, mode.policy.lenient()) {
                let converted = matched.clone();
                self.record(out, path, mode, CoercionKind::EnumCase, Some(value), Some(&converted));
                *value = converted;
            }
        }
        if let Value::String(text) = &*value {
            if let Some(written) = format_respelled(node, text) {
                let converted = Value::String(written);
                self.record(out, path, mode, CoercionKind::FormatSpelling, Some(value), Some(&converted));
                *value = converted;
            }
        }
    }
}

/// The string `text`, which a `format` of `node` refuses, written that format's way, when it
/// spells exactly one valid value another common way and `node` accepts the result.
fn format_respelled(node: &Node, text: &str) -> Option<String> {
    node.keywords.iter().find_map(|keyword| match keyword {
        Keyword::Format(Format::String(format)) => {
            format.respell(text).filter(|written| string_admitted(node, written))
        }
        _ => None,
    })
}

impl Walker<'_> {
    fn convert(
        &self,
        node: &Node,
        types: Types,
        value: &Value,
        mode: Mode,
        path: &Path<'_>,
        depth: usize,
    ) -> Option<Converted> {
        let lenient = mode.policy.lenient();
        match value {
            Value::String(text) => {
                let found = text_as_type(text, types, lenient, self.max_depth.saturating_sub(depth));
                if found.is_some() {
                    return found;
                }
            }
            Value::Number(number) if lenient => {
                if types.contains(Types::STRING) {
                    // The text as sent: `1.50`, a 22-digit tracking number.
                    let text = self.number_as_sent(number, path);
                    return Some(Converted::of(Value::String(text), CoercionKind::StringFromScalar));
                }
                if types.contains(Types::BOOLEAN) {
                    match number.as_u64() {
                        Some(0) => {
                            return Some(Converted::of(Value::Bool(false), CoercionKind::BoolFromNumber))
                        }
                        Some(1) => {
                            return Some(Converted::of(Value::Bool(true), CoercionKind::BoolFromNumber))
                        }
                        _ => {}
                    }
                }
            }
            Value::Bool(flag) if lenient && types.contains(Types::STRING) => {
                return Some(Converted::of(Value::String(flag.to_string()), CoercionKind::StringFromScalar));
            }
            _ => {}
        }
        // Lenient: one value where a list is declared becomes a list of one, when that list
        // already fits the array's own rules exactly (its item schema, its bounds,
        // `unevaluatedItems`, `contains`).
        if lenient && types.contains(Types::ARRAY) && !value.is_array() && !value.is_null() {
            let wrapped = Value::Array(vec![value.clone()]);
            if self.wrapped_passes(node, &wrapped, path, depth) {
                return Some(Converted::of(wrapped, CoercionKind::WrappedInArray));
            }
        }
        None
    }

    /// The keys that `text`, a container sent as a string and read as the value at `path`,
    /// gives twice: found as the arguments' own are, each a record (one value twice) or an
    /// error (two values) at its own path.
    fn keys_given_twice(&self, text: &str, path: &Path<'_>, mode: Mode, out: &mut Outcome, depth: usize) {
        let text = text.trim();
        let options = container_options(text, self.max_depth.saturating_sub(depth));
        let at = path.pointer();
        for repeat in crate::members::repeats(text, &options) {
            match repeat.finding(&at, mode.sensitive, self.max_echo) {
                Finding::Record(record) => out.record_with(|| record),
                Finding::Error(error) => {
                    if !self.not_built(out) {
                        out.errors.push(error);
                    }
                }
            }
        }
    }
}
