//! The repair suites of jsonrepair (JavaScript, 417 cases) and json_repair (Python, 334
//! cases), and json_repair's schema-guided suite (101 cases), run through `tool_input`
//! (formats in `suite/tests/corpus/README.md`).
//!
//! The repair suites run through the repair path: [`ParseOptions::repair`] with cut-off
//! input completed, the `tool-input repair --complete-truncated` command. Outputs are
//! compared as parsed values, not bytes; numbers by value (`1` equals `1.0`, as it does in
//! JavaScript and Python).
//!
//! What "pass" means:
//! - a case that expects a JSON text passes when we give the same value;
//! - a case that expects an error passes when we give an error too;
//! - json_repair answers `""` (an empty text, or the value `""` from `return_objects`)
//!   when it finds nothing to salvage: those cases are counted with the errors, and pass
//!   when we give an error;
//! - json_repair's cases run with [`RepairStyle::JsonRepair`], which follows json_repair
//!   where the two libraries contradict each other (`{"a": }` is `{"a": null}` in
//!   jsonrepair's suite and `{"a": ""}` in json_repair's);
//! - json_repair's `strict: true` cases run through [`ParseOptions::strict`];
//! - json_repair's cases complete cut-off text as settled text
//!   ([`ParseOptions::stream_stable`] false), json_repair's default, unless the case says
//!   `stream_stable=True`; jsonrepair's the stream-stable way. `skip_json_loads` and
//!   `ensure_ascii` change nothing for us.
//!
//! Every case we answer differently is in [`DEVIATIONS`], with our answer and the reason,
//! and the tests check that list is exact: every failing case is in it, with the answer we
//! give, and every entry in it still fails.
//!
//! jsonrepair: 390 of its 404 value cases pass (96.5%); of the 14 left, 13 are function calls
//! (JSONP's `callback({})`, MongoDB's `NumberLong(2)`), refused on purpose as Python's
//! `ast.literal_eval` refuses them, and one an invalid escape whose backslash we keep. Of
//! its 13 cases that expect an error, we answer 12 with a value (prose around the JSON, a
//! set, a kept escape or control character: each a repair jsonrepair declines).
//! json_repair: 299 of its 306 value cases pass (97.7%); the 7 left are json_repair
//! behaviours we decline because they change a value (keeping only the last of two values,
//! dropping text or an escaped line break from valid JSON) or follow no rule we could state
//! (see [`DEVIATIONS`]).
//!
//! The schema-guided suite runs each case's schema through the coercion engine (a
//! [`Validator`] with the lenient policy): 83 of 101 cases pass on the repair path (the
//! repair parser, then the engine), 45 on the tool-argument path (the raw text into the
//! engine, which guesses at no structure). The 18 differences on the repair path are in
//! [`SCHEMA_DEVIATIONS`]: mostly json_repair's `salvage` mode, which drops, invents or
//! reshapes values where we reject and name the problem, and tool arguments that are not
//! an object.

#[path = "../../suite/tests/common/mod.rs"]
mod common;

use serde_json::Value;
use tool_input::parse::{parse, ParseOptions, RepairStyle};
use tool_input::{Policy, Validator};

/// A suite case we answer differently, and why.
struct Deviation {
    /// `jsonrepair` or `json_repair`.
    suite: &'static str,
    input: &'static str,
    /// The suite option the case depends on (`stream_stable=false`, `strict`), or `""`.
    options: &'static str,
    /// Our answer: the value as compact JSON, or `error`.
    ours: &'static str,
    reason: &'static str,
}

/// Why we answer a case differently (shared by the cases with the same reason).
const KEEP_BACKSLASH: &str =
    "An invalid escape keeps its backslash (`\\a` stays `\\a`, as in a Windows path or a regex `\\d`): we never drop text. jsonrepair drops the backslash.";
const PROSE_BEFORE: &str =
    "Text before an object or array is prose and is skipped (models write `Sure: {...}`); jsonrepair refuses it.";
const PROSE_AFTER: &str =
    "Text after the value is prose and is ignored (models add explanations); jsonrepair refuses it.";
const FUNCTION_CALL: &str =
    "A function call (JSONP's `callback({})`, MongoDB's `NumberLong(2)`) is refused, as Python's `ast.literal_eval` refuses it: its value is its result, never its argument. jsonrepair reads the argument.";
const SET: &str =
    "An object holding only keys is read as a set, an array of them, a number as a number (json_repair's and Python's reading of `{'a', 'b'}` and `{2}`); jsonrepair refuses it.";
const EMPTY_PLACEHOLDER: &str =
    "An empty `{}` or `[]` next to a value on the same line is dropped as a placeholder (json_repair's reading); jsonrepair refuses two values on one line.";
const WRONG_BRACKET: &str =
    "`]` ends the object (the wrong closing bracket) and the key without a value is dropped; jsonrepair refuses it.";
const INVALID_UNICODE: &str =
    "An invalid `\\u` escape is kept as text, like any invalid escape; jsonrepair refuses it.";
const CONTROL: &str =
    "A raw control character inside a string is kept (and recorded as `control_character`), whichever it is; jsonrepair refuses NUL and U+001F.";
const LAST_WINS: &str =
    "json_repair keeps only the last of two same-shaped values; dropping a whole value silently changes what was sent, so we keep both, in an array.";
const SET_NUMBERS: &str =
    "`{\\\"key\\\", 105, 12` is read as a set (an array); json_repair joins the numbers into the string `\\\"105,12\\\"`.";
const ARRAY_AS_KEY: &str =
    "An array where a key belongs, after a value that is not an array, means the object ended (a missing `}`); json_repair makes it a key whose value is `\\\"\\\"`.";
const ESCAPES: &str =
    "Escapes are read as JSON defines them (a doubled backslash is one backslash); json_repair rewrites this mix of doubled backslashes.";
const SET_WORD: &str =
    "`{5}` is a set of one number (`[5]`, as json_repair and Python read it) and the stray word `s` is kept as text; json_repair drops `s`.";
const BARE_TEXT: &str =
    "Text without any JSON is read as a string (jsonrepair reads `abc` as `\\\"abc\\\"`); json_repair returns nothing.";
const SINGLE_QUOTED: &str =
    "`'\\\"'` is a single-quoted string holding a double quote; json_repair returns nothing.";
const ESCAPED_NEWLINE: &str =
    "The input is valid JSON, taken as it is (an escaped `\\n` at the end of a string is content); json_repair drops it when told to skip `json.loads` (`skip_json_loads`), which we never do.";
const TOP_LITERAL: &str =
    "A literal on its own is that literal (jsonrepair reads `True` as `true`); json_repair returns nothing.";
const DOUBLED_BACKSLASH: &str =
    "An escaped backslash followed by an escaped quote is a backslash and a quote, as JSON defines it; json_repair drops the backslash.";
const STRICT_DUPLICATE: &str =
    "Strict mode is RFC 8259, where duplicate keys are valid (the last wins); json_repair's strict mode rejects them.";
const STRICT_EMPTY_KEY: &str =
    "Strict mode is RFC 8259, where an empty key is valid; json_repair's strict mode rejects it.";

/// Every suite case we answer differently: input, our answer, reason. One line per case.
#[rustfmt::skip]
const DEVIATIONS: &[Deviation] = &[
    Deviation { suite: "jsonrepair", input: "callback_123({});", options: "", ours: "error", reason: FUNCTION_CALL },
    Deviation { suite: "jsonrepair", input: "callback_123([]);", options: "", ours: "error", reason: FUNCTION_CALL },
    Deviation { suite: "jsonrepair", input: "callback_123(2);", options: "", ours: "error", reason: FUNCTION_CALL },
    Deviation { suite: "jsonrepair", input: "callback_123(\"foo\");", options: "", ours: "error", reason: FUNCTION_CALL },
    Deviation { suite: "jsonrepair", input: "callback_123(null);", options: "", ours: "error", reason: FUNCTION_CALL },
    Deviation { suite: "jsonrepair", input: "callback_123(true);", options: "", ours: "error", reason: FUNCTION_CALL },
    Deviation { suite: "jsonrepair", input: "callback_123(false);", options: "", ours: "error", reason: FUNCTION_CALL },
    Deviation { suite: "jsonrepair", input: "callback({}", options: "", ours: "error", reason: FUNCTION_CALL },
    Deviation { suite: "jsonrepair", input: "/* foo bar */\ncallback_123({})", options: "", ours: "error", reason: FUNCTION_CALL },
    Deviation { suite: "jsonrepair", input: "  /* foo bar */   callback_123({});  ", options: "", ours: "error", reason: FUNCTION_CALL },
    Deviation { suite: "jsonrepair", input: "NumberLong(\"2\")", options: "", ours: "error", reason: FUNCTION_CALL },
    Deviation { suite: "jsonrepair", input: "{\"_id\":ObjectId(\"123\")}", options: "", ours: "error", reason: FUNCTION_CALL },
    Deviation { suite: "jsonrepair", input: "{\n   \"_id\" : ObjectId(\"123\"),\n   \"isoDate\" : ISODate(\"2012-12-19T06:01:17.171Z\"),\n   \"regularNumber\" : 67,\n   \"long\" : NumberLong(\"2\"),\n   \"long2\" : NumberLong(2),\n   \"int\" : NumberInt(\"3\"),\n   \"int2\" : NumberInt(3),\n   \"decimal\" : NumberDecimal(\"4\"),\n   \"decimal2\" : NumberDecimal(4)\n}", options: "", ours: "error", reason: FUNCTION_CALL },
    Deviation { suite: "jsonrepair", input: "\"\\a\"", options: "", ours: "\"\\\\a\"", reason: KEEP_BACKSLASH },
    Deviation { suite: "jsonrepair", input: "callback {}", options: "", ours: "{}", reason: PROSE_BEFORE },
    Deviation { suite: "jsonrepair", input: "{\"a\",", options: "", ours: "[\"a\"]", reason: SET },
    Deviation { suite: "jsonrepair", input: "{:2}", options: "", ours: "[2]", reason: SET },
    Deviation { suite: "jsonrepair", input: "{\"a\":2}{}", options: "", ours: "{\"a\":2}", reason: EMPTY_PLACEHOLDER },
    Deviation { suite: "jsonrepair", input: "{\"a\" ]", options: "", ours: "{}", reason: WRONG_BRACKET },
    Deviation { suite: "jsonrepair", input: "{\"a\":2}foo", options: "", ours: "{\"a\":2}", reason: PROSE_AFTER },
    Deviation { suite: "jsonrepair", input: "foo [", options: "", ours: "[]", reason: PROSE_BEFORE },
    Deviation { suite: "jsonrepair", input: "\"\\u26\"", options: "", ours: "\"\\\\u26\"", reason: INVALID_UNICODE },
    Deviation { suite: "jsonrepair", input: "\"\\uZ000\"", options: "", ours: "\"\\\\uZ000\"", reason: INVALID_UNICODE },
    Deviation { suite: "jsonrepair", input: "\"\\uZ000", options: "", ours: "\"\\\\uZ000\"", reason: INVALID_UNICODE },
    Deviation { suite: "jsonrepair", input: "\"abc\u{0}\"", options: "", ours: "\"abc\\u0000\"", reason: CONTROL },
    Deviation { suite: "jsonrepair", input: "\"abc\u{1f}\"", options: "", ours: "\"abc\\u001f\"", reason: CONTROL },
    Deviation { suite: "json_repair", input: "[{\"key\":\"value\"}][{\"key\":\"value_after\"}]", options: "", ours: "[[{\"key\":\"value\"}],[{\"key\":\"value_after\"}]]", reason: LAST_WINS },
    Deviation { suite: "json_repair", input: "{\"key\", 105,12,", options: "", ours: "[\"key\",105,12]", reason: SET_NUMBERS },
    Deviation { suite: "json_repair", input: "{ \"key\": [\"arrayvalue\"], \"key3\": \"value3\", [\"arrayvalue1\"] }", options: "", ours: "[{\"key\":[\"arrayvalue\"],\"key3\":\"value3\"},[\"arrayvalue1\"]]", reason: ARRAY_AS_KEY },
    Deviation { suite: "json_repair", input: "{\"key\": \"{\\\\\"key\\\\\\\":[\\\"value\\\\\\\"],\\\"key2\\\":\"value2\"}\"}", options: "", ours: "{\"key\":\"{\\\\\\\"key\\\\\\\":[\\\"value\\\\\\\"],\\\"key2\\\":\\\"value2\\\"}\"}", reason: ESCAPES },
    Deviation { suite: "json_repair", input: "[{5}s ", options: "", ours: "[[5],\"s\"]", reason: SET_WORD },
    Deviation { suite: "json_repair", input: "string", options: "", ours: "\"string\"", reason: BARE_TEXT },
    Deviation { suite: "json_repair", input: "'\"'", options: "", ours: "\"\\\"\"", reason: SINGLE_QUOTED },
    Deviation { suite: "json_repair", input: "{\"key\": \"```json nope\\n\"}", options: "", ours: "{\"key\":\"```json nope\\n\"}", reason: ESCAPED_NEWLINE },
    Deviation { suite: "json_repair", input: "True", options: "", ours: "true", reason: TOP_LITERAL },
    Deviation { suite: "json_repair", input: "False", options: "", ours: "false", reason: TOP_LITERAL },
    Deviation { suite: "json_repair", input: "Null", options: "", ours: "null", reason: TOP_LITERAL },
    Deviation { suite: "json_repair", input: "{\"key\": \"value}\\\\\\\"more\"}", options: "", ours: "{\"key\":\"value}\\\\\\\"more\"}", reason: DOUBLED_BACKSLASH },
    Deviation { suite: "json_repair", input: "[{\"key\": \"first\", \"key\": \"second\"}]", options: "strict", ours: "[{\"key\":\"second\"}]", reason: STRICT_DUPLICATE },
    Deviation { suite: "json_repair", input: "{\"\" : \"value\"}", options: "strict", ours: "{\"\":\"value\"}", reason: STRICT_EMPTY_KEY },
];

/// The cases of a corpus file.
fn cases(name: &str) -> Vec<Value> {
    let path = common::corpus_dir().join("repair").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    match serde_json::from_str(&text) {
        Ok(Value::Array(cases)) => cases,
        other => panic!("{}: not an array of cases: {other:?}", path.display()),
    }
}

/// Equal as values, numbers compared by value (`1` and `1.0`), as both suites' languages do.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x == y || (x.as_f64().is_some() && x.as_f64() == y.as_f64()),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

/// What a case expects: a value, or nothing (an error, or json_repair's `""`).
fn expectation(case: &Value) -> Option<Value> {
    let expected = case["expected"].as_str()?;
    if expected.is_empty() || (expected == "\"\"" && case["expected_kind"] == "value") {
        return None;
    }
    Some(serde_json::from_str(expected).unwrap_or_else(|e| panic!("expected {expected:?}: {e}")))
}

/// The suite option a case depends on, as [`Deviation::options`] names it.
fn options_of(case: &Value) -> &'static str {
    if case["options"]["strict"] == Value::Bool(true) {
        "strict"
    } else if case["options"]["stream_stable"] == Value::Bool(false) {
        "stream_stable=false"
    } else {
        ""
    }
}

/// One suite's result: value cases passed, value cases, other cases passed, other cases.
struct Tally {
    value_passed: usize,
    value_cases: usize,
    other_passed: usize,
    other_cases: usize,
}

/// Run a repair suite; check that its failures are exactly its [`DEVIATIONS`].
fn run_suite(file: &str, suite: &str) -> Tally {
    let mut tally = Tally { value_passed: 0, value_cases: 0, other_passed: 0, other_cases: 0 };
    let mut unlisted = Vec::new();
    let mut listed_failing = vec![false; DEVIATIONS.len()];
    for (index, case) in cases(file).iter().enumerate() {
        let input = case["input"].as_str().expect("an input");
        let options = options_of(case);
        let style = if suite == "json_repair" { RepairStyle::JsonRepair } else { RepairStyle::Jsonrepair };
        // json_repair completes cut-off text as settled unless told `stream_stable=True`.
        let stream_stable = suite != "json_repair" || case["options"]["stream_stable"] == Value::Bool(true);
        let parse_options = if options == "strict" {
            ParseOptions::strict()
        } else {
            ParseOptions::repair()
                .with_complete_truncated(true)
                .with_style(style)
                .with_stream_stable(stream_stable)
        };
        let ours = parse(input, &parse_options).map(|parsed| parsed.value);
        let expected = expectation(case);
        let passed = match &expected {
            Some(want) => ours.as_ref().is_ok_and(|got| same(got, want)),
            None => ours.is_err(),
        };
        match (&expected, passed) {
            (Some(_), true) => tally.value_passed += 1,
            (None, true) => tally.other_passed += 1,
            _ => {}
        }
        if expected.is_some() {
            tally.value_cases += 1;
        } else {
            tally.other_cases += 1;
        }
        if passed {
            continue;
        }
        let answer = ours.as_ref().map_or_else(|_| "error".to_owned(), Value::to_string);
        let entry =
            DEVIATIONS.iter().position(|d| d.suite == suite && d.input == input && d.options == options);
        match entry.and_then(|k| DEVIATIONS.get(k).map(|d| (k, d))) {
            Some((k, deviation)) if deviation.ours == answer => {
                assert!(!deviation.reason.is_empty());
                if let Some(flag) = listed_failing.get_mut(k) {
                    *flag = true;
                }
            }
            Some((_, deviation)) => unlisted.push(format!(
                "{suite}#{index} {input:?}: we answer {answer}, DEVIATIONS says {}",
                deviation.ours
            )),
            None => unlisted.push(format!(
                "{suite}#{index} {input:?} ({options}): we answer {answer}, expected {:?}",
                case["expected"]
            )),
        }
    }
    assert!(unlisted.is_empty(), "failing cases not in DEVIATIONS:\n{}", unlisted.join("\n"));
    let stale: Vec<&str> = DEVIATIONS
        .iter()
        .zip(&listed_failing)
        .filter(|(d, failing)| d.suite == suite && !**failing)
        .map(|(d, _)| d.input)
        .collect();
    assert!(stale.is_empty(), "DEVIATIONS entries that now pass: {stale:?}");
    println!(
        "{suite}: {} of {} value cases pass ({:.1}%), {} of {} error and nothing-to-salvage cases",
        tally.value_passed,
        tally.value_cases,
        100.0 * tally.value_passed as f64 / tally.value_cases as f64,
        tally.other_passed,
        tally.other_cases
    );
    tally
}

#[test]
fn jsonrepair_suite() {
    let tally = run_suite("jsonrepair.json", "jsonrepair");
    assert_eq!((tally.value_cases, tally.other_cases), (404, 13));
    assert_eq!(tally.value_passed, 390);
    // At least 96%: the 13 function-call cases are refused on purpose (FUNCTION_CALL).
    assert!(tally.value_passed * 100 >= tally.value_cases * 96);
}

#[test]
fn json_repair_suite() {
    let tally = run_suite("json_repair.json", "json_repair");
    assert_eq!((tally.value_cases, tally.other_cases), (306, 28));
    // The issue asks for 97%; the 7 cases below it are the listed deviations.
    assert_eq!(tally.value_passed, 299);
    // At least 96%: the 13 function-call cases are refused on purpose (FUNCTION_CALL).
    assert!(tally.value_passed * 100 >= tally.value_cases * 96);
}

// ---------------------------------------------------------------- schema-guided

/// A schema-guided case we answer differently, by its index in the file, and why.
struct SchemaDeviation {
    index: usize,
    reason: &'static str,
}

const SCHEMA_DEVIATIONS: &[SchemaDeviation] = &[
    SchemaDeviation { index: 0, reason: "A missing value is `null`, then refused where the schema wants a string, number, boolean, array or object; json_repair invents that type's empty value (`\"\"`, `0`, `false`, `[]`, `{}`)." },
    SchemaDeviation { index: 1, reason: "A required property whose schema has a `default` gets that default (the crate fills defaults for absent properties); json_repair refuses it." },
    SchemaDeviation { index: 3, reason: "json_repair refuses a schema together with its `strict` option; we have no such conflict." },
    SchemaDeviation { index: 5, reason: "Tool arguments are an object: a top-level string is refused as `not_object` (json_repair coerces the bare value)." },
    SchemaDeviation { index: 14, reason: "salvage mode repairs a string holding broken JSON (`{verdict: malicious}`) into the object; the coercion parses a string only leniently (no guessed structure), so it stays a string and is refused." },
    SchemaDeviation { index: 18, reason: "`\"[a, b]\"` is not JSON, so the array gets the string as its one item (the lenient policy's one-element list); json_repair's salvage mode reads it as `[\"a\", \"b\"]`." },
    SchemaDeviation { index: 74, reason: "`1.0` for a boolean: the lenient policy reads only the integers `1` and `0` as booleans." },
    SchemaDeviation { index: 75, reason: "`0.0` for a boolean: the lenient policy reads only the integers `1` and `0` as booleans." },
    SchemaDeviation { index: 77, reason: "salvage mode drops the array item that fails its schema; dropping an item changes the value, so we refuse it, naming `/items/1/score`." },
    SchemaDeviation { index: 81, reason: "salvage mode maps an array onto the object's properties by position; tool arguments must be an object, so it is refused as `not_object`." },
    SchemaDeviation { index: 83, reason: "`{\"a\", \"b\"}` is read as a set (an array) and refused as `not_object`; json_repair's salvage mode makes keys with `null` values." },
    SchemaDeviation { index: 84, reason: "`{\"a\", \"b\"}` is read as a set (an array) and refused as `not_object`; json_repair's salvage mode makes keys with `null` values." },
    SchemaDeviation { index: 85, reason: "The schema allows an array, but tool arguments must be an object: refused as `not_object`." },
    SchemaDeviation { index: 90, reason: "The schema allows an array, but tool arguments must be an object: refused as `not_object`." },
    SchemaDeviation { index: 91, reason: "The schema allows an array, but tool arguments must be an object: refused as `not_object`." },
    SchemaDeviation { index: 92, reason: "The schema allows an array, but tool arguments must be an object: refused as `not_object`." },
    SchemaDeviation { index: 94, reason: "salvage mode unwraps a one-item array and fills a missing required array with `[]`; tool arguments must be an object, and a missing required value is never invented." },
    SchemaDeviation { index: 95, reason: "salvage mode fills required properties from `default`, `const`, `enum` and the shape of their schema; we fill `default` only and report the others `missing` (the model must choose)." },
];

/// Run the schema-guided suite, through the repair path (the repair parser, then the
/// coercion engine, a [`Validator`] built from the case's schema with the lenient policy)
/// or through the tool-argument path (the raw text into the [`Validator`]). Returns the
/// cases passed and the indices of those failing.
fn schema_guided(repair_path: bool) -> (usize, Vec<usize>) {
    let mut failing = Vec::new();
    let cases = cases("json_repair.schema_guided.json");
    assert_eq!(cases.len(), 101);
    for (index, case) in cases.iter().enumerate() {
        let input = case["input"].as_str().expect("an input");
        let answer = match Validator::builder(&case["schema"]).policy(Policy::Lenient).build() {
            Err(_) => None,
            Ok(validator) if repair_path => {
                // json_repair's suite: its readings where the two libraries differ (a line
                // break before a closing quote is layout to json_repair, content to jsonrepair).
                let options =
                    ParseOptions::repair().with_complete_truncated(true).with_style(RepairStyle::JsonRepair);
                parse(input, &options).ok().and_then(|parsed| validator.check(&parsed.value).ok())
            }
            Ok(validator) => validator.check(input).ok(),
        };
        let passed = match (expectation(case), answer) {
            (Some(want), Some(checked)) => same(&checked.value, &want),
            (None, None) => true,
            _ => false,
        };
        if !passed {
            failing.push(index);
        }
    }
    (101 - failing.len(), failing)
}

#[test]
fn schema_guided_suite() {
    let (passed, failing) = schema_guided(true);
    let listed: Vec<usize> = SCHEMA_DEVIATIONS.iter().map(|d| d.index).collect();
    assert_eq!(failing, listed, "failing schema-guided cases (repair path) against SCHEMA_DEVIATIONS");
    assert!(SCHEMA_DEVIATIONS.iter().all(|d| !d.reason.is_empty()));
    println!("schema-guided, repair path: {passed} of 101");
    assert_eq!(passed, 83);
    // The tool-argument path guesses at no structure (the fenced-snippet strings are not
    // repaired there) and the same coercions apply.
    let (passed, _) = schema_guided(false);
    println!("schema-guided, tool-argument path: {passed} of 101");
    assert_eq!(passed, 45);
}
