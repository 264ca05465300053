//! What the text of a call says beyond its value: the order the model wrote the keys in
//! (errors come back in that order) and keys given twice (the same value: recorded; two
//! values: a choice made twice, rejected, except under `Policy::Strict`, which reads JSON as
//! JSON parsers do: the last value wins).

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};
use tool_input::{CheckOptions, CoercionKind, ErrorCode, Policy, ToolInput, Validator};

/// Write a file.
#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
struct WriteFile {
    path: String,
    mode: Mode,
    labels: Option<BTreeMap<String, String>>,
    extra: Option<Value>,
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Mode {
    Write,
    Append,
}

fn strict() -> CheckOptions {
    CheckOptions::new().with_policy(Policy::Strict)
}

#[test]
fn a_key_given_twice_with_the_same_value_is_recorded() {
    for raw in [
        r#"{"path": "a.txt", "mode": "write", "mode": "write"}"#,
        "{'path': 'a.txt', 'mode': 'write', 'mode': 'write',}",
    ] {
        let checked = WriteFile::from_arguments_with_report(raw).unwrap();
        assert_eq!(checked.value.mode, Mode::Write);
        let records: Vec<(&str, CoercionKind)> =
            checked.report.coercions.iter().map(|c| (c.path.as_str(), c.kind)).collect();
        assert_eq!(records, [("/mode", CoercionKind::DuplicateKey)], "{raw}");
        let walked = Validator::new(WriteFile::schema()).unwrap().check(raw).unwrap();
        assert_eq!(walked.report.coercions, checked.report.coercions);
    }
}

#[test]
fn a_key_given_twice_with_two_values_is_rejected() {
    for policy in [Policy::Default, Policy::Lenient] {
        let options = CheckOptions::new().with_policy(policy);
        for raw in [
            r#"{"path": "a.txt", "mode": "write", "mode": "append"}"#,
            "{'path': 'a.txt', 'mode': 'write', 'mode': 'append'}",
        ] {
            let rejection = WriteFile::from_arguments_with(raw, &options).unwrap_err();
            assert_eq!(rejection.errors().len(), 1, "{rejection}");
            let error = &rejection.errors()[0];
            assert_eq!((error.path(), error.code()), ("/mode", ErrorCode::DuplicateKey));
            assert_eq!(error.options(), [json!("write"), json!("append")]);
            insta::assert_snapshot!("two_values", rejection);
        }
    }
    // Inside a map and a free-form value too, and beside other errors.
    let raw =
        r#"{"path": 1, "mode": "write", "labels": {"a": "x", "a": "y"}, "extra": {"k": [1], "k": [2]}}"#;
    let rejection = WriteFile::from_arguments(raw).unwrap_err();
    let found: Vec<(&str, ErrorCode)> = rejection.errors().iter().map(|e| (e.path(), e.code())).collect();
    assert_eq!(
        found,
        [
            ("/path", ErrorCode::Type),
            ("/labels/a", ErrorCode::DuplicateKey),
            ("/extra/k", ErrorCode::DuplicateKey)
        ]
    );
    // Sensitive values are not shown.
    let validator = Validator::builder(WriteFile::schema()).field("path", None, true).build().unwrap();
    let rejection =
        validator.check(r#"{"path": "secret-1", "path": "secret-2", "mode": "write"}"#).unwrap_err();
    assert!(!rejection.to_string().contains("secret"), "{rejection}");
    assert!(rejection.errors()[0].options().is_empty());
}

/// A key given three times or more is one finding, not one per pair: one error naming every
/// value (each distinct value once among the options), or one record when the value is the
/// same each time. Through the typed path, the untyped check, strict JSON, a Python literal
/// and an object sent as a string alike.
#[test]
fn a_key_given_three_times_is_one_finding() {
    let validator = Validator::new(WriteFile::schema()).unwrap();
    for raw in [
        r#"{"path": "a.txt", "mode": "write", "mode": "append", "mode": "write"}"#,
        "{'path': 'a.txt', 'mode': 'write', 'mode': 'append', 'mode': 'write'}",
    ] {
        for rejection in [WriteFile::from_arguments(raw).unwrap_err(), validator.check(raw).unwrap_err()] {
            assert_eq!(rejection.errors().len(), 1, "{rejection}");
            let error = &rejection.errors()[0];
            assert_eq!((error.path(), error.code()), ("/mode", ErrorCode::DuplicateKey));
            assert_eq!(error.options(), [json!("write"), json!("append")]);
            assert_eq!(
                error.message(),
                "the key `mode` is given 3 times, with different values: \"write\", then \"append\", then \
                 \"write\"; send it once, with the value you mean"
            );
        }
    }
    let same = r#"{"path": "a.txt", "mode": "write", "mode": "write", "mode": "write"}"#;
    let checked = WriteFile::from_arguments_with_report(same).unwrap();
    let kinds: Vec<_> = checked.report.coercions.iter().map(|c| (c.path.as_str(), c.kind)).collect();
    assert_eq!(kinds, [("/mode", CoercionKind::DuplicateKey)]);
    // Inside an object sent as a string.
    let raw = r#"{"path": "a.txt", "mode": "write", "labels": "{\"k\": \"a\", \"k\": \"b\", \"k\": \"c\"}"}"#;
    let rejection = WriteFile::from_arguments(raw).unwrap_err();
    let found: Vec<_> = rejection.errors().iter().map(|e| (e.path(), e.code(), e.options().len())).collect();
    assert_eq!(found, [("/labels/k", ErrorCode::DuplicateKey, 3)]);
    // Given many times: each distinct value once, the rest counted.
    let many: Vec<String> = (0..30).map(|at| format!("\"k\": {}", at % 12)).collect();
    let raw = format!(r#"{{"path": "a.txt", "mode": "write", "extra": {{{}}}}}"#, many.join(", "));
    let rejection = WriteFile::from_arguments(raw.as_str()).unwrap_err();
    let error = &rejection.errors()[0];
    assert_eq!(error.options().len(), 12);
    assert_eq!(
        error.message(),
        "the key `k` is given 30 times, with 12 different values: 0, 1, 2, 3, 4, 5, 6, 7, … and 4 more; \
         send it once, with the value you mean"
    );
}

/// A value that only the end of the text settles (prose, then a candidate that fails only
/// once the text ends, then the value) gives a key twice as any value does: rejected with
/// two values, through the typed path, the untyped check and a streamed call alike.
#[test]
fn a_key_given_twice_in_a_value_found_at_the_end_is_rejected() {
    let raw = r#"Sure: {6''{"path": "a.txt", "mode": "write", "mode": "append"} '"#;
    let validator = Validator::new(WriteFile::schema()).unwrap();
    let typed = WriteFile::from_arguments(raw).unwrap_err();
    let untyped = validator.check(raw).unwrap_err();
    let mut stream = tool_input::stream::StreamAssembler::new(tool_input::calls::CallOptions::new());
    stream.push_event(&json!({"type": "content_block_start", "index": 0, "content_block":
        {"type": "tool_use", "id": "toolu_1", "name": "write_file", "input": {}}}));
    for piece in [&raw[..9], &raw[9..30], &raw[30..]] {
        stream.push_event(&json!({"type": "content_block_delta", "index": 0,
            "delta": {"type": "input_json_delta", "partial_json": piece}}));
    }
    stream.push_event(&json!({"type": "content_block_stop", "index": 0}));
    stream.push_event(&json!({"type": "message_stop"}));
    let calls = stream.finish();
    // The call is read; its arguments as sent are checked as any other call's are.
    let streamed = validator.check(calls.calls[0].original.as_raw()).unwrap_err();
    for rejection in [&typed, &untyped, &streamed] {
        let found: Vec<(&str, ErrorCode)> = rejection.errors().iter().map(|e| (e.path(), e.code())).collect();
        assert_eq!(found, [("/mode", ErrorCode::DuplicateKey)], "{rejection}");
        assert_eq!(rejection.errors()[0].options(), [json!("write"), json!("append")]);
    }
}

/// A payload sent as a JSON string (decoded, and recorded as `double_encoded`) is the
/// arguments: a key it gives twice is read as any other key given twice, through the typed
/// path, the untyped check and the walk alike, once or twice encoded, strict JSON or not.
#[test]
fn a_key_given_twice_inside_a_double_encoded_payload_is_read_as_given_twice() {
    let validator = Validator::new(WriteFile::schema()).unwrap();
    let twice = r#"{"path": "a.txt", "mode": "write", "mode": "append"}"#;
    let once_encoded = serde_json::to_string(twice).unwrap();
    let twice_encoded = serde_json::to_string(&once_encoded).unwrap();
    let repaired = r#""{'path': 'a.txt', 'mode': 'write', 'mode': 'append',}""#.to_owned();
    for raw in [&once_encoded, &twice_encoded, &repaired] {
        let typed = WriteFile::from_arguments(raw.as_str()).unwrap_err();
        let untyped = validator.check(raw.as_str()).unwrap_err();
        for rejection in [&typed, &untyped] {
            let found: Vec<(&str, ErrorCode)> =
                rejection.errors().iter().map(|e| (e.path(), e.code())).collect();
            assert_eq!(found, [("/mode", ErrorCode::DuplicateKey)], "{raw}: {rejection}");
            assert_eq!(rejection.errors()[0].options(), [json!("write"), json!("append")]);
        }
    }
    // The same value twice: recorded, as outside a string.
    let same = serde_json::to_string(r#"{"path": "a.txt", "mode": "write", "mode": "write"}"#).unwrap();
    let checked = WriteFile::from_arguments_with_report(same.as_str()).unwrap();
    let records: Vec<(&str, CoercionKind)> =
        checked.report.coercions.iter().map(|c| (c.path.as_str(), c.kind)).collect();
    assert_eq!(records, [("/mode", CoercionKind::DuplicateKey)]);
    assert_eq!(validator.check(same.as_str()).unwrap().report.coercions, checked.report.coercions);
    // A string that only looks like a payload under a string-typed field keeps its text.
    let inner = serde_json::to_string(r#"{"k": 1, "k": 2}"#).unwrap();
    let raw = format!(r#"{{"path": {inner}, "mode": "write"}}"#);
    assert_eq!(WriteFile::from_arguments(raw.as_str()).unwrap().path, r#"{"k": 1, "k": 2}"#);
}

/// An object sent as a JSON string where an object is declared is read as one: a key it
/// gives twice is read as any other key given twice, at its own path, through the typed
/// path, the untyped check and the walk alike, strict JSON or not, at any depth.
#[test]
fn a_key_given_twice_inside_an_object_sent_as_a_string_is_read_as_given_twice() {
    let validator = Validator::new(WriteFile::schema()).unwrap();
    let labels = serde_json::to_string(r#"{"k": "a", "k": "b"}"#).unwrap();
    let strict_json = format!(r#"{{"path": "a.txt", "mode": "write", "labels": {labels}}}"#);
    let repaired = r#"{'path': 'a.txt', 'mode': 'write', 'labels': "{'k': 'a', 'k': 'b',}",}"#.to_owned();
    let extra = serde_json::to_string(r#"{"x": {"k": 1, "k": 2}}"#).unwrap();
    let deeper = format!(r#"{{"path": "a.txt", "mode": "write", "extra": {{"y": {extra}}}}}"#);
    for (raw, path) in [(&strict_json, "/labels/k"), (&repaired, "/labels/k")] {
        let typed = WriteFile::from_arguments(raw.as_str()).unwrap_err();
        let untyped = validator.check(raw.as_str()).unwrap_err();
        let walked =
            tool_input::__private::check_by_walk(&validator, raw.as_str().into(), &CheckOptions::new())
                .unwrap_err();
        for rejection in [&typed, &untyped, &walked] {
            let found: Vec<(&str, ErrorCode)> =
                rejection.errors().iter().map(|e| (e.path(), e.code())).collect();
            assert_eq!(found, [(path, ErrorCode::DuplicateKey)], "{raw}: {rejection}");
            assert_eq!(rejection.errors()[0].options(), [json!("a"), json!("b")]);
        }
    }
    // `extra` takes any value: a string there is a string, whatever it holds.
    assert!(validator.check(deeper.as_str()).is_ok());
    // Deeper inside the string, the path goes on into it.
    let objects =
        Validator::new(&json!({"type": "object", "properties": {"o": {"type": "object"}}})).unwrap();
    let inner = serde_json::to_string(r#"{"x": {"y": 1, "y": 2}}"#).unwrap();
    let rejection = objects.check(format!(r#"{{"o": {inner}}}"#).as_str()).unwrap_err();
    assert_eq!(rejection.errors()[0].path(), "/o/x/y");
    // The same value twice: recorded after the string's own record, as outside a string.
    let same = serde_json::to_string(r#"{"k": "a", "k": "a"}"#).unwrap();
    let raw = format!(r#"{{"path": "a.txt", "mode": "write", "labels": {same}}}"#);
    let checked = WriteFile::from_arguments_with_report(raw.as_str()).unwrap();
    let records: Vec<(&str, CoercionKind)> =
        checked.report.coercions.iter().map(|c| (c.path.as_str(), c.kind)).collect();
    assert_eq!(records, [("/labels", CoercionKind::ParsedString), ("/labels/k", CoercionKind::DuplicateKey)]);
    assert_eq!(validator.check(raw.as_str()).unwrap().report.coercions, checked.report.coercions);
    assert_eq!(checked.value.labels, Some(BTreeMap::from([("k".to_owned(), "a".to_owned())])));
}

/// Strict mode reads JSON as JSON parsers do, and as the `jsonschema` crate sees it: the
/// last value of a repeated key wins, without a record.
#[test]
fn strict_keeps_the_last_value() {
    let raw = r#"{"path": "a.txt", "mode": "write", "mode": "append"}"#;
    assert_eq!(WriteFile::from_arguments_with(raw, &strict()).unwrap().value.mode, Mode::Append);
    let checked = WriteFile::definition().check_with(raw.into(), &strict()).unwrap();
    assert_eq!(checked.value["mode"], "append");
    assert!(checked.report.coercions.is_empty());
}

#[test]
fn errors_come_in_the_order_the_keys_were_written() {
    let validator = Validator::new(WriteFile::schema()).unwrap();
    let raw = r#"{"zeta": 1, "mode": "overwrite", "labels": {"b": 2, "a": 1}, "path": 3}"#;
    let rejection = validator.check(raw).unwrap_err();
    let paths: Vec<&str> = rejection.errors().iter().map(|e| e.path()).collect();
    assert_eq!(paths, ["/zeta", "/mode", "/labels/b", "/labels/a", "/path"]);
    // Lenient text, and a missing property after what was sent.
    let rejection = validator.check("{labels: {b: 2}, mode: 'overwrite'}").unwrap_err();
    let paths: Vec<&str> = rejection.errors().iter().map(|e| e.path()).collect();
    assert_eq!(paths, ["/labels/b", "/mode", "/path"]);
    // The typed path gives the same errors as the untyped check of its definition, in every
    // build (a `Validator::new` of the schema's `Value` lists the properties in the `Value`'s
    // order, sorted where serde_json's `preserve_order` is off).
    let typed = WriteFile::from_arguments(raw).unwrap_err();
    let untyped = WriteFile::definition().validator().check(raw).unwrap_err();
    assert_eq!(typed.errors(), untyped.errors());
}

mod repeats_in_strings {
    use std::collections::BTreeMap;

    use proptest::prelude::*;
    use serde_json::json;
    use tool_input::{CheckOptions, ErrorCode, Rejection, ToolInput, Validator};

    use super::WriteFile;

    /// The paths of a rejection's `duplicate_key` errors, sorted.
    fn repeated(rejection: &Rejection) -> Vec<String> {
        let mut paths: Vec<String> = rejection
            .errors()
            .iter()
            .filter(|e| e.code() == ErrorCode::DuplicateKey)
            .map(|e| e.path().to_owned())
            .collect();
        paths.sort();
        paths
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        /// An object sent as a string, in JSON or as a Python literal, its keys repeating at
        /// random: each key given more than one value is one `duplicate_key` error at the
        /// key's path inside the string, however many times it comes, as for the arguments'
        /// own keys; the typed path, the untyped check and the walk agree.
        #[test]
        fn keys_given_twice_in_a_string_are_found_by_every_reader(
            members in prop::collection::vec((prop::sample::select(vec!["a", "b", "c"]), 0u8..3), 0..6),
            python in any::<bool>(),
        ) {
            let quote = if python { "'" } else { "\"" };
            let written: Vec<String> =
                members.iter().map(|(key, value)| format!("{quote}{key}{quote}: {value}")).collect();
            let inner = format!("{{{}}}", written.join(", "));
            let raw = json!({"path": "a.txt", "mode": "write", "labels": inner}).to_string();
            let mut given: BTreeMap<&str, Vec<u8>> = BTreeMap::new();
            for (key, value) in &members {
                given.entry(key).or_default().push(*value);
            }
            // BTreeMap: sorted by key, as `repeated` sorts.
            let expected: Vec<String> = given
                .iter()
                .filter(|(_, values)| values.iter().any(|value| *value != values[0]))
                .map(|(key, _)| format!("/labels/{key}"))
                .collect();
            let validator = Validator::new(WriteFile::schema()).unwrap();
            let untyped = validator.check(raw.as_str());
            let walked =
                tool_input::__private::check_by_walk(&validator, raw.as_str().into(), &CheckOptions::new());
            let typed = WriteFile::from_arguments_with_report(raw.as_str());
            prop_assert_eq!(&untyped, &walked);
            // `labels` holds strings, so any member is refused (`type`) beside the repeats:
            // only `{}` passes.
            match (&untyped, &typed) {
                (Err(untyped), Err(typed)) => {
                    prop_assert_eq!(repeated(untyped), expected.clone(), "{}", raw);
                    prop_assert_eq!(repeated(typed), expected, "{}", raw);
                }
                (Ok(_), Ok(_)) => prop_assert!(members.is_empty(), "{}", raw),
                _ => prop_assert!(false, "the typed and untyped paths disagree on {}", raw),
            }
        }
    }
}
