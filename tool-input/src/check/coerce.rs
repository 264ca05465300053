//! Representation coercions: the value means what the schema wants, but is written in
//! another form. Each one is tried only when the value does not already fit, only when the
//! result fits, and is recorded.

use serde_json::{Number, Value};

use super::{json_equal, Mode, Outcome, Path, Walker};
use crate::decimal::Denotes;
use crate::parse::{self, ParseMode, ParseOptions};
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
                if let Some((converted, kind)) = self.convert(node, types, value, mode, path, depth) {
                    self.record(out, path, mode, kind, Some(value), Some(&converted));
                    *value = converted;
                }
            } else if types.integer_only() {
                // `3.0` is an integer to JSON Schema, but not to serde: write it as one, when
                // it is exactly that integer (else `number` says why not).
                let exact = value.as_number().filter(|n| self.integer_problem(n, path, mode).is_none());
                if let Some(integer) = exact.and_then(integer_from_float) {
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
        if value.is_string() {
            let current: &Value = value;
            let choice = node
                .enum_values
                .as_deref()
                .filter(|options| !options.iter().any(|option| json_equal(option, current)))
                .or_else(|| {
                    node.const_value.as_ref().filter(|c| !json_equal(c, current)).map(std::slice::from_ref)
                });
            let matched = choice.and_then(|options| {
                spelling_match(current.as_str().unwrap_or_default(), options, mode.policy.lenient())
            });
            if let Some(matched) = matched {
                let converted = matched.clone();
                self.record(out, path, mode, CoercionKind::EnumCase, Some(value), Some(&converted));
                *value = converted;
            }
        }
    }

    fn convert(
        &self,
        node: &Node,
        types: Types,
        value: &Value,
        mode: Mode,
        path: &Path<'_>,
        depth: usize,
    ) -> Option<(Value, CoercionKind)> {
        let lenient = mode.policy.lenient();
        match value {
            Value::String(text) => {
                let trimmed = text.trim();
                if let Some(parsed) = container_from_text(text, types, self.max_depth.saturating_sub(depth)) {
                    return Some((parsed, CoercionKind::ParsedString));
                }
                let number_text = if lenient { trimmed } else { text.as_str() };
                if types.contains(Types::NUMBER) || types.contains(Types::INTEGER) {
                    if let Some(number) = number_for(number_text, types) {
                        let converted = Value::Number(number);
                        if types.accepts(&converted) {
                            return Some((converted, CoercionKind::NumberFromString));
                        }
                    }
                }
                if types.contains(Types::BOOLEAN) {
                    if let Some(flag) = bool_from_text(number_text, lenient) {
                        return Some((Value::Bool(flag), CoercionKind::BoolFromString));
                    }
                }
            }
            Value::Number(number) if lenient => {
                if types.contains(Types::STRING) {
                    return Some((Value::String(number.to_string()), CoercionKind::StringFromScalar));
                }
                if types.contains(Types::BOOLEAN) {
                    match number.as_u64() {
                        Some(0) => return Some((Value::Bool(false), CoercionKind::BoolFromNumber)),
                        Some(1) => return Some((Value::Bool(true), CoercionKind::BoolFromNumber)),
                        _ => {}
                    }
                }
            }
            Value::Bool(flag) if lenient && types.contains(Types::STRING) => {
                return Some((Value::String(flag.to_string()), CoercionKind::StringFromScalar));
            }
            _ => {}
        }
        // Lenient: one value where a list is declared becomes a list of one, when the
        // value already fits the item schema exactly.
        if lenient && types.contains(Types::ARRAY) && !value.is_array() && !value.is_null() {
            let fits = match node.prefix_items.first().copied().or(node.items) {
                Some(item) => self.accepts_exact(item, &mut value.clone(), path, depth + 1),
                None => true,
            };
            if fits && node.min_items.is_none_or(|min| min <= 1) {
                return Some((Value::Array(vec![value.clone()]), CoercionKind::WrappedInArray));
            }
        }
        None
    }
}

/// An array or object sent as a JSON string (`"[\"a\", \"b\"]"`), where `types` declares
/// one: the parsed container, read leniently within `max_depth`, if `types` accepts it.
pub(super) fn container_from_text(text: &str, types: Types, max_depth: usize) -> Option<Value> {
    let trimmed = text.trim();
    if !((types.contains(Types::ARRAY) && trimmed.starts_with('['))
        || (types.contains(Types::OBJECT) && trimmed.starts_with('{')))
    {
        return None;
    }
    let options = ParseOptions { mode: ParseMode::Lenient, max_depth, ..ParseOptions::default() };
    let parsed = parse::parse(trimmed, &options).ok()?.value;
    (types.accepts(&parsed) && (parsed.is_array() || parsed.is_object())).then_some(parsed)
}

/// `3.0` → `3`, for floats with no fractional part that fit a 64-bit integer.
pub(super) fn integer_from_float(number: &Number) -> Option<Number> {
    if number.is_i64() || number.is_u64() {
        return None;
    }
    let float = number.as_f64()?;
    if float.fract() != 0.0 || !float.is_finite() {
        return None;
    }
    if (-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&float) {
        Some(Number::from(float as i64))
    } else if (0.0..18_446_744_073_709_551_616.0).contains(&float) {
        Some(Number::from(float as u64))
    } else {
        None
    }
}

/// The number a string holds, for a field of `types`: where only integers are declared, the
/// integer its decimal text denotes exactly (`"3.0"` is 3; `"0.99999999999999999"` and
/// `"-9999999999999999999999"` are none, never a rounded float); otherwise the number.
pub(super) fn number_for(text: &str, types: Types) -> Option<Number> {
    let number = number_from_text(text)?;
    if !types.integer_only() {
        return Some(number);
    }
    match crate::decimal::denotes(text)? {
        Denotes::Integer(value) => match i64::try_from(value) {
            Ok(small) => Some(Number::from(small)),
            Err(_) => u64::try_from(value).ok().map(Number::from),
        },
        Denotes::Fraction | Denotes::Huge => None,
    }
}

/// A number written as a string: JSON number syntax only (no `0x`, no `1_000`, no `NaN`).
pub(super) fn number_from_text(text: &str) -> Option<Number> {
    let first = text.as_bytes().first()?;
    // serde_json would also take surrounding whitespace; a number sent as a string is
    // exactly the number's text or it is not coerced.
    if !(first.is_ascii_digit() || *first == b'-') || !text.as_bytes().last()?.is_ascii_digit() {
        return None;
    }
    serde_json::from_str::<Number>(text).ok()
}

pub(super) fn bool_from_text(text: &str, lenient: bool) -> Option<bool> {
    if text.eq_ignore_ascii_case("true") {
        return Some(true);
    }
    if text.eq_ignore_ascii_case("false") {
        return Some(false);
    }
    if lenient {
        for yes in ["yes", "on", "1", "y"] {
            if text.eq_ignore_ascii_case(yes) {
                return Some(true);
            }
        }
        for no in ["no", "off", "0", "n"] {
            if text.eq_ignore_ascii_case(no) {
                return Some(false);
            }
        }
    }
    None
}

/// The one option spelled like `text` but for letter case and surrounding white space (and,
/// leniently, separators). Two or more candidates: no match, since picking one would be a
/// choice. Leniently, the letter-case reading comes first: lenient is never stricter than
/// the default (`"a-b"` is `"A-B"` under both, though `"a_b"` is also an option).
pub(crate) fn spelling_match<'v>(text: &str, options: &'v [Value], lenient: bool) -> Option<&'v Value> {
    match unique_spelling(text, options, false) {
        None if lenient => unique_spelling(text, options, true),
        found => found,
    }
}

fn unique_spelling<'v>(text: &str, options: &'v [Value], lenient: bool) -> Option<&'v Value> {
    let wanted: String = normalised(text, lenient).collect();
    let mut found = None;
    for option in options {
        if let Value::String(candidate) = option {
            // Compared as the characters come: nothing is allocated per option.
            if normalised(candidate, lenient).eq(wanted.chars()) {
                if found.is_some() {
                    return None;
                }
                found = Some(option);
            }
        }
    }
    found
}

/// The characters of `text` trimmed, in lowercase (and, leniently, with `-` and ` ` as `_`).
fn normalised(text: &str, lenient: bool) -> impl Iterator<Item = char> + '_ {
    text.trim().chars().flat_map(char::to_lowercase).map(move |c| {
        if lenient && (c == '-' || c == ' ') {
            '_'
        } else {
            c
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn spelling_matches_one_option_only() {
        let options = [json!("low"), json!("high"), json!("in_progress")];
        assert_eq!(spelling_match("HIGH", &options, false), Some(&json!("high")));
        assert_eq!(spelling_match("IN_PROGRESS", &options, false), Some(&json!("in_progress")));
        assert_eq!(spelling_match("in progress", &options, false), None);
        assert_eq!(spelling_match(" high ", &options, false), Some(&json!("high")));
        assert_eq!(spelling_match("\tHigh\n", &options, false), Some(&json!("high")));
        assert_eq!(spelling_match(" a ", &[json!("a"), json!(" a")], false), None);
        assert_eq!(spelling_match("In Progress", &options, true), Some(&json!("in_progress")));
        assert_eq!(spelling_match("hgih", &options, true), None);
        // Lenient is never stricter than the default: the letter-case reading decides first.
        let near = [json!("A-B"), json!("a_b")];
        assert_eq!(spelling_match("a-b", &near, false), Some(&json!("A-B")));
        assert_eq!(spelling_match("a-b", &near, true), Some(&json!("A-B")));
        assert_eq!(spelling_match("a b", &near, true), None);
        let clash = [json!("a"), json!("A")];
        assert_eq!(spelling_match("a", &clash[1..], false), Some(&json!("A")));
        assert_eq!(spelling_match("À", &[json!("à"), json!("À")], false), None);
    }

    #[test]
    fn numbers_from_text_use_json_syntax() {
        for (text, expected) in
            [("3", Some(json!(3))), ("-2.5", Some(json!(-2.5))), ("1e3", Some(json!(1000.0)))]
        {
            assert_eq!(number_from_text(text).map(Value::Number), expected, "{text}");
        }
        for text in ["", "0x10", "1_000", "NaN", "+3", " 3", "3 ", "3 apples", ".5", "1."] {
            assert_eq!(number_from_text(text), None, "{text}");
        }
    }

    #[test]
    fn integral_floats_become_integers() {
        assert_eq!(integer_from_float(&Number::from_f64(3.0).unwrap()), Some(Number::from(3)));
        assert_eq!(integer_from_float(&Number::from_f64(-3.0).unwrap()), Some(Number::from(-3)));
        assert_eq!(integer_from_float(&Number::from_f64(2.5).unwrap()), None);
        assert_eq!(integer_from_float(&Number::from_f64(1e300).unwrap()), None);
        assert_eq!(integer_from_float(&Number::from(3)), None);
    }

    #[test]
    fn booleans_from_text() {
        assert_eq!(bool_from_text("TRUE", false), Some(true));
        assert_eq!(bool_from_text("False", false), Some(false));
        assert_eq!(bool_from_text("yes", false), None);
        assert_eq!(bool_from_text("yes", true), Some(true));
        assert_eq!(bool_from_text("0", true), Some(false));
        assert_eq!(bool_from_text("maybe", true), None);
    }
}
