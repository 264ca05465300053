//! Representation coercions, as free functions both the walk (`coerce`) and the one pass
//! (`fast`) call: what a string stands for where its schema declares another type, in the one
//! order both try ([`text_as_type`], then, for an `enum` or `const`, [`respelled`]), and the
//! readings each step makes. Each is tried only when the value does not already fit.

use std::borrow::Cow;

use serde_json::{Number, Value};

use super::keywords::{const_refuses, enum_refuses_text};
use crate::decimal::Denotes;
use crate::equal::ValueIndex;
use crate::parse::{self, ParseMode, ParseOptions};
use crate::plan::{Node, Types};
use crate::report::CoercionKind;

/// What a value was read as: the value, the kind of coercion, and (a container sent as a
/// string) whether its text gives a key twice.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Converted {
    pub value: Value,
    pub kind: CoercionKind,
    /// The text holds a key twice, of which the parsed value keeps the last: the reader
    /// reports each (`members::repeats`), or leaves the value to a reader that does.
    pub repeats_keys: bool,
}

impl Converted {
    pub(crate) fn of(value: Value, kind: CoercionKind) -> Converted {
        Converted { value, kind, repeats_keys: false }
    }
}

/// A string where `types` (which does not admit strings) is declared, read as one of those
/// types: an array or object sent as JSON text, else a number, else a boolean; `None` when
/// it is none of them. Leniently, a number or boolean may be padded with white space, and
/// `yes`/`no`-like words are booleans. `max_depth` bounds a parsed container.
pub(crate) fn text_as_type(text: &str, types: Types, lenient: bool, max_depth: usize) -> Option<Converted> {
    if let Some((parsed, repeats_keys)) = container_from_text(text, types, max_depth) {
        return Some(Converted { value: parsed, kind: CoercionKind::ParsedString, repeats_keys });
    }
    let text = if lenient { text.trim() } else { text };
    if types.contains(Types::NUMBER) || types.contains(Types::INTEGER) {
        if let Some(number) = number_for(text, types) {
            let converted = Value::Number(number);
            if types.accepts(&converted) {
                return Some(Converted::of(converted, CoercionKind::NumberFromString));
            }
        }
    }
    if types.contains(Types::BOOLEAN) {
        if let Some(flag) = bool_from_text(text, lenient) {
            return Some(Converted::of(Value::Bool(flag), CoercionKind::BoolFromString));
        }
    }
    None
}

/// The `enum` option (or else the `const`) of `node` that the string `text`, which is not
/// one of them, spells but for letter case and white space (leniently, separators too); the
/// only one, or `None`.
pub(crate) fn respelled<'n>(node: &'n Node, text: &str, lenient: bool) -> Option<&'n Value> {
    if let Some(options) = enum_refuses_text(node, text) {
        return spelling_match_in(text, options, Some(&node.enum_index), lenient);
    }
    let constant = const_refuses(node, |option| option.as_str() == Some(text))?;
    spelling_match(text, std::slice::from_ref(constant), lenient)
}

/// An array or object sent as a JSON string (`"[\"a\", \"b\"]"`), where `types` declares
/// one: the parsed container, read leniently within `max_depth`, if `types` accepts it, and
/// whether the text gives a key twice.
pub(crate) fn container_from_text(text: &str, types: Types, max_depth: usize) -> Option<(Value, bool)> {
    let trimmed = text.trim();
    if !((types.contains(Types::ARRAY) && trimmed.starts_with('['))
        || (types.contains(Types::OBJECT) && trimmed.starts_with('{')))
    {
        return None;
    }
    let (parsed, repeats_keys) =
        parse::parse_noting_repeats(trimmed, &container_options(trimmed, max_depth), false).ok()?;
    let parsed = parsed.value;
    (types.accepts(&parsed) && (parsed.is_array() || parsed.is_object())).then_some((parsed, repeats_keys))
}

/// An array or object sent as a JSON string, where `types` declares one, that
/// [`container_from_text`] would give `serde_json` to read first (its depth limit allows) and
/// that looks like strict JSON ([`looks_strict`]): its text, trimmed, for a reader that takes
/// the container from the text rather than from the parsed `Value`. Where `serde_json` does
/// not read it as the parse does after all (it is not strict JSON, nests past `serde_json`'s
/// own limit, gives a key twice, holds a float `serde_json` may misread), that reader finds
/// out as it reads and leaves the call to the full path; a text that does not look strict is
/// left to the parse.
pub(crate) fn container_text(text: &str, types: Types, max_depth: usize) -> Option<&str> {
    let trimmed = text.trim();
    if !((types.contains(Types::ARRAY) && trimmed.starts_with('['))
        || (types.contains(Types::OBJECT) && trimmed.starts_with('{')))
        || trimmed.len() > ParseOptions::default().max_bytes
    {
        return None;
    }
    // As `container_options` decides, from the count `looks_strict` makes on its way.
    let opens = looks_strict(trimmed.as_bytes())?;
    (opens <= max_depth || parse::strict::depth_allows(max_depth)).then_some(trimmed)
}

/// Does `text` look like strict JSON? Outside its strings, only white space, brackets,
/// commas, colons, number characters and the words `true`, `false` and `null`, and no comma
/// before a closing bracket; every string closed. What a model writes leniently (single
/// quotes, bare keys, Python's `True` and `None`, a trailing comma, a comment) does not. A
/// guess, cheap beside a parse: a text that passes and is not strict JSON after all costs its
/// call the full path (see [`container_text`]). When it does, the count of its opening
/// brackets (parentheses too, in strings too), as [`container_options`] counts them.
fn looks_strict(text: &[u8]) -> Option<usize> {
    let mut at = 0;
    let mut last = b' ';
    let mut opens = 0usize;
    while let Some(&byte) = text.get(at) {
        at += 1;
        match byte {
            // A byte at a time: most strings in a list are a few bytes, shorter than
            // `memchr`'s set-up.
            b'"' => loop {
                match text.get(at)? {
                    b'"' => {
                        at += 1;
                        break;
                    }
                    b'\\' => at += 2,
                    b'[' | b'{' | b'(' => {
                        opens += 1;
                        at += 1;
                    }
                    _ => at += 1,
                }
            },
            b' ' | b'\t' | b'\n' | b'\r' => continue,
            b']' | b'}' if last == b',' => return None,
            b'[' | b'{' => opens += 1,
            b']' | b'}' | b',' | b':' | b'0'..=b'9' | b'-' | b'+' | b'.' => {}
            b'e' | b'E' if last.is_ascii_digit() => {}
            b't' | b'f' | b'n' => {
                let word: &[u8] = match byte {
                    b't' => b"true",
                    b'f' => b"false",
                    _ => b"null",
                };
                if !text.get(at - 1..).is_some_and(|rest| rest.starts_with(word)) {
                    return None;
                }
                at += word.len() - 1;
            }
            _ => return None,
        }
        last = byte;
    }
    Some(opens)
}

/// How [`container_from_text`] reads `text` (trimmed): leniently, within `max_depth`.
pub(crate) fn container_options(text: &str, max_depth: usize) -> ParseOptions {
    // A text with no more opening brackets than `max_depth` cannot nest deeper: the limit
    // cannot bind, and the parser may take its strict JSON fast path (which it takes only
    // under a limit of at least serde_json's own).
    let opens = text.bytes().filter(|&b| matches!(b, b'[' | b'{' | b'(')).count();
    let max_depth = if opens <= max_depth { max_depth.max(parse::DEFAULT_MAX_DEPTH) } else { max_depth };
    ParseOptions { mode: ParseMode::Lenient, max_depth, ..ParseOptions::default() }
}

/// The values a scalar sent in another representation stands for, as the check reads them
/// where a schema declares an integer, a number or a boolean (the default policy): a string
/// as the integer it denotes, else as a number, else as a boolean (`"12"`, `"2.5"`, `"true"`);
/// an integral float as its integer (`3.0`) within the integers a float keeps exactly. For a
/// reader that knows the Rust type but not the schema (a streamed call's typed partial),
/// which takes the first its type reads; empty when there is no other reading.
pub(crate) fn scalar_readings(value: &Value) -> Vec<Value> {
    match value {
        Value::String(text) => {
            let integer = number_for(text, Types::INTEGER);
            let number = number_for(text, Types::NUMBER).filter(|_| integer.is_none());
            let flag = bool_from_text(text, false);
            integer.into_iter().chain(number).map(Value::Number).chain(flag.map(Value::Bool)).collect()
        }
        Value::Number(number)
            if number.as_f64().is_some_and(|float| float.abs() <= crate::decimal::EXACT_FLOAT_INTEGERS) =>
        {
            integer_from_float(number).map(Value::Number).into_iter().collect()
        }
        _ => Vec::new(),
    }
}

/// A list sent as JSON text (`"[1, 2]"`), as the check reads it where a schema declares an
/// array: the parsed array (a key given twice inside is the check's to report). For a reader
/// that knows the Rust type but not the schema, as [`scalar_readings`].
pub(crate) fn list_reading(text: &str) -> Option<Value> {
    container_from_text(text, Types::ARRAY, parse::DEFAULT_MAX_DEPTH).map(|(list, _)| list)
}

/// `3.0` → `3`, for floats with no fractional part that fit a 64-bit integer.
pub(crate) fn integer_from_float(number: &Number) -> Option<Number> {
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
/// `"-9999999999999999999999"` are none, never a rounded float); otherwise the number, unless
/// the text writes an integer the number does not keep (`"12345678901234567890123"`, which
/// would be `1.2345678901234568e22`: another number than the one sent, as the same digits sent
/// as a number are refused).
pub(crate) fn number_for(text: &str, types: Types) -> Option<Number> {
    let number = number_from_text(text)?;
    if !types.integer_only() {
        let rounded = number
            .as_f64()
            .is_some_and(|float| number.is_f64() && crate::decimal::integer_text_rounded(text, float));
        return (!rounded).then_some(number);
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
pub(crate) fn number_from_text(text: &str) -> Option<Number> {
    let first = text.as_bytes().first()?;
    // serde_json would also take surrounding whitespace; a number sent as a string is
    // exactly the number's text or it is not coerced.
    if !(first.is_ascii_digit() || *first == b'-') || !text.as_bytes().last()?.is_ascii_digit() {
        return None;
    }
    parse::lexer::numbers::json_number(text)
}

pub(crate) fn bool_from_text(text: &str, lenient: bool) -> Option<bool> {
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
    spelling_match_in(text, options, None, lenient)
}

/// [`spelling_match`] among `options` whose [`ValueIndex`] is `index`: a long list is looked
/// up by spelling, not compared option by option.
pub(crate) fn spelling_match_in<'v>(
    text: &str,
    options: &'v [Value],
    index: Option<&ValueIndex>,
    lenient: bool,
) -> Option<&'v Value> {
    if let Some(index) = index.filter(|index| index.is_indexed()) {
        let by_spelling = |lenient: bool| {
            let keyed =
                index.keyed(usize::from(lenient), options, |option| normalised(option, lenient).collect())?;
            match keyed.get(&normalised(text, lenient).collect::<String>())?.as_slice() {
                [one] => options.get(*one as usize),
                _ => None,
            }
        };
        return by_spelling(false).or_else(|| if lenient { by_spelling(true) } else { None });
    }
    // Lowercasing never shortens a text by characters, and makes at most three of one: a
    // text of more than three characters (twelve bytes) per byte of the longest option
    // spells none of them, and is not normalised (a 4 MB value against short options).
    let longest = options.iter().filter_map(Value::as_str).map(str::len).max()?;
    if text.len() > longest.saturating_mul(12).saturating_add(8)
        && text.trim().len() > longest.saturating_mul(12)
    {
        return None;
    }
    match unique_spelling(text, options, false) {
        None if lenient => unique_spelling(text, options, true),
        found => found,
    }
}

fn unique_spelling<'v>(text: &str, options: &'v [Value], lenient: bool) -> Option<&'v Value> {
    // Most values sent are normalised already (`urgent`): borrowed, not copied.
    let plain = |b: u8| b.is_ascii() && !b.is_ascii_uppercase() && !(lenient && (b == b'-' || b == b' '));
    let wanted: Cow<'_, str> = if text.bytes().all(plain) && text.trim().len() == text.len() {
        Cow::Borrowed(text)
    } else {
        Cow::Owned(normalised(text, lenient).collect())
    };
    let mut found = None;
    for option in options {
        if let Value::String(candidate) = option {
            if same_spelling(candidate, &wanted, lenient) {
                if found.is_some() {
                    return None;
                }
                found = Some(option);
            }
        }
    }
    found
}

/// Does `candidate`, [`normalised`], spell `wanted` (already normalised)? ASCII text (every
/// real option) is compared a byte at a time after a length check, so that many wrong values
/// against many options cost about what a match does; other text as the characters come.
/// Nothing is allocated per option.
#[inline]
fn same_spelling(candidate: &str, wanted: &str, lenient: bool) -> bool {
    if wanted.is_ascii() && candidate.is_ascii() {
        // `trim` only where an end is white space: most options have none, and a wrong value
        // is compared with every option.
        let bytes = candidate.as_bytes();
        let space = |b: Option<&u8>| b.is_some_and(|b| b.is_ascii_whitespace() || *b == 0x0B);
        let candidate =
            if space(bytes.first()) || space(bytes.last()) { candidate.trim() } else { candidate };
        let byte = |b: u8| if lenient && (b == b'-' || b == b' ') { b'_' } else { b.to_ascii_lowercase() };
        return candidate.len() == wanted.len()
            && candidate.bytes().zip(wanted.bytes()).all(|(c, w)| byte(c) == w);
    }
    normalised(candidate, lenient).eq(wanted.chars())
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

    /// The container as the lenient parser reads it under exactly `max_depth`.
    fn parsed_within(text: &str, max_depth: usize) -> Option<Value> {
        let options = ParseOptions { mode: ParseMode::Lenient, max_depth, ..ParseOptions::default() };
        parse::parse(text.trim(), &options).ok().map(|parsed| parsed.value)
    }

    #[test]
    fn a_container_sent_as_text_keeps_its_depth_limit() {
        let texts = [
            "[[1]]",
            "[[[1]], 2]",
            r#"{"a": {"b": [1]}}"#,
            r#"[{"sku": "A-1", "n": "[not a bracket"}]"#,
            "[(1, 2), [3]]",
            "[{'a': [1,],}]",
            "[[[[[[1]]]]]]",
            "  [1, {\"a\": 2}]  ",
        ];
        let mut types = Types::ARRAY;
        types.insert(Types::OBJECT);
        for text in texts {
            for max_depth in 0..8 {
                let expected = parsed_within(text, max_depth).filter(|v| v.is_array() || v.is_object());
                let parsed = container_from_text(text, types, max_depth).map(|(parsed, _)| parsed);
                assert_eq!(parsed, expected, "{text} {max_depth}");
            }
        }
    }

    #[test]
    fn a_container_is_left_as_its_text_where_serde_json_would_read_it_first() {
        let mut types = Types::ARRAY;
        types.insert(Types::OBJECT);
        // Strict JSON, or what looks like it (the reader finds out otherwise).
        for text in [
            r#"["a", "b"]"#,
            "  [1, {\"a\": [2.5e-3, true, false, null]}]\n",
            r#"{"b": 1}"#,
            r#"["it's", "a \"quoted\" x, ]", "\\"]"#,
            "[1] [2]",
            "[1.5e+3, -0, 1E2]",
            "[truefalse]",
        ] {
            assert_eq!(container_text(text, types, parse::DEFAULT_MAX_DEPTH), Some(text.trim()), "{text}");
        }
        // Written leniently, or not a container.
        for text in [
            "['a']",
            r#"[{a: 1}]"#,
            "[True, None]",
            "[nul]",
            "[e1]",
            "[1, 2,]",
            "[1, 2, ]",
            r#"{"a": 1,}"#,
            "[1] // note",
            r#"["a]"#,
            r#"["a\"]"#,
            "[1]\u{a0}x",
            "\"[1]\"",
            "12",
            "x[1]",
        ] {
            assert_eq!(container_text(text, types, parse::DEFAULT_MAX_DEPTH), None, "{text}");
        }
        // Where the type is not declared, or the parse's depth limit may bind.
        assert_eq!(container_text("[1]", Types::OBJECT, 128), None);
        assert_eq!(container_text(r#"{"a": 1}"#, Types::ARRAY, 128), None);
        assert_eq!(container_text("[[[1]]]", types, 2), None);
        assert_eq!(container_text("[[[1]]]", types, 3), Some("[[[1]]]"));
        // The depth decided as the parse decides it, brackets in strings counted too.
        for text in ["[[[1]]]", r#"[{"a": "[(x"}, [2]]"#, r#"{"a": {"b": "{{"}}"#, "[]"] {
            for max_depth in (0..8).chain([127, 128, 200]) {
                let parse_first = parse::strict::depth_allows(container_options(text, max_depth).max_depth);
                let left = container_text(text, types, max_depth).is_some();
                assert_eq!(left, parse_first, "{text} {max_depth}");
            }
        }
    }

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
        // A text far longer than every option is none of them, however it is spelled.
        assert_eq!(spelling_match(&"HIGH".repeat(1000), &options, true), None);
        assert_eq!(
            spelling_match(&format!("{}high{}", " ".repeat(60), " ".repeat(60)), &options, true),
            Some(&json!("high"))
        );
        assert_eq!(spelling_match("İ", &[json!("i\u{307}")], false), Some(&json!("i\u{307}")));
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
