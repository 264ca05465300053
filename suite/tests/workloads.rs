//! The core contract on the benchmark workloads (suite/tests/common/workloads.rs): every mangled call becomes
//! exactly its canonical value, and every invalid call is rejected naming every expected path.

mod common;

use std::collections::BTreeSet;

use serde_json::Value;
use tool_input::{RejectionKind, Validator};

fn validator() -> Validator {
    let dir = common::bench_data_dir();
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("create_order.schema.json")).unwrap())
            .unwrap();
    Validator::new(&schema).unwrap()
}

/// The calls of the workload `name` (`name.jsonl`) each beside what it must give
/// (`name.expected.jsonl`), row by row, the same ids on both sides.
fn cases_with_expected(name: &str) -> Vec<(Value, Value)> {
    let dir = common::bench_data_dir();
    let cases = common::read_jsonl(&dir.join(format!("{name}.jsonl")));
    let expected = common::read_jsonl(&dir.join(format!("{name}.expected.jsonl")));
    assert_eq!(cases.len(), expected.len(), "{name}");
    for (case, expected) in cases.iter().zip(&expected) {
        assert_eq!(case["id"], expected["id"], "{name}");
    }
    cases.into_iter().zip(expected).collect()
}

#[test]
fn every_mangled_call_becomes_its_canonical_value() {
    let validator = validator();
    let cases = cases_with_expected("mangled");
    let mut failures = Vec::new();
    for (case, expected) in &cases {
        let raw = case["raw"].as_str().unwrap();
        match validator.check(raw) {
            Ok(checked) if checked.value == expected["value"] => {
                assert!(
                    !checked.report.is_clean(),
                    "{}: a mangled case needs a repair or coercion",
                    case["id"]
                );
            }
            Ok(checked) => {
                failures.push(format!("{}: got {} expected {}", case["id"], checked.value, expected["value"]))
            }
            Err(rejection) => failures.push(format!("{}: rejected: {rejection}\n{raw}", case["id"])),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} mangled cases failed; first:\n{}",
        failures.len(),
        cases.len(),
        failures.iter().take(5).cloned().collect::<Vec<_>>().join("\n")
    );
}

#[test]
fn every_large_mangled_call_becomes_its_value() {
    let validator = validator();
    let cases = cases_with_expected("large_mangled");
    assert!(!cases.is_empty());
    for (case, expected) in &cases {
        let raw = case["raw"].as_str().unwrap();
        assert!(raw.len() > 500_000, "{}: {} bytes", case["id"], raw.len());
        let checked = validator.check(raw).unwrap_or_else(|rejection| panic!("{}: {rejection}", case["id"]));
        assert!(
            checked.value == expected["value"],
            "{} ({}): another value",
            case["id"],
            expected["mangled"]
        );
        assert!(!checked.report.repairs.is_empty(), "{}: a mangled call needs repairs", case["id"]);
    }
}

#[test]
fn every_invalid_call_is_rejected_naming_every_path() {
    let validator = validator();
    let cases = cases_with_expected("invalid");
    let mut failures = Vec::new();
    let mut extra = 0;
    for (case, expected) in &cases {
        let raw = case["raw"].as_str().unwrap();
        let wanted: BTreeSet<&str> =
            expected["paths"].as_array().unwrap().iter().map(|p| p.as_str().unwrap()).collect();
        match validator.check(raw) {
            Ok(checked) => failures.push(format!("{}: accepted as {}", case["id"], checked.value)),
            Err(rejection) => {
                assert_eq!(rejection.kind(), RejectionKind::Invalid, "{}", case["id"]);
                let named: BTreeSet<&str> = rejection.errors().iter().map(|e| e.path()).collect();
                if !wanted.is_subset(&named) {
                    failures.push(format!("{}: named {named:?}, expected {wanted:?}", case["id"]));
                }
                if named != wanted {
                    extra += 1;
                }
                let message = rejection.to_string();
                for path in &wanted {
                    assert!(
                        message.contains(path),
                        "{}: the message does not name {path}:\n{message}",
                        case["id"]
                    );
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} invalid cases failed; first:\n{}",
        failures.len(),
        cases.len(),
        failures.iter().take(5).cloned().collect::<Vec<_>>().join("\n")
    );
    assert_eq!(extra, 0, "cases naming more paths than expected");
}

#[test]
fn every_clean_and_large_call_is_accepted_unchanged() {
    let dir = common::bench_data_dir();
    let validator = validator();
    for file in ["clean.jsonl", "large.jsonl"] {
        for case in common::read_jsonl(&dir.join(file)) {
            let raw = case["raw"].as_str().unwrap();
            let checked = validator.check(raw).unwrap_or_else(|r| panic!("{}: {r}", case["id"]));
            let mut original: Value = serde_json::from_str(raw).unwrap();
            if let Some(map) = original.as_object_mut() {
                map.entry("gift").or_insert(Value::Bool(false));
            }
            assert_eq!(checked.value, original, "{}", case["id"]);
            assert!(checked.report.repairs.is_empty(), "{}", case["id"]);
        }
    }
}
