//! JSON-Schema-Test-Suite (draft 2020-12, the keywords tool arguments use), from
//! suite/tests/corpus/json-schema-test-suite: every test, through plain validation
//! (`Validator::is_valid`, no coercion), must give the suite's answer.
//!
//! Exclusions: none. Every group of the selected files runs.

mod common;

use serde_json::Value;
use tool_input::Validator;

#[test]
fn json_schema_test_suite() {
    let dir = common::corpus_dir().join("json-schema-test-suite");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "json") && !path.ends_with("PROVENANCE.json"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 24);
    let (mut passed, mut failures) = (0, Vec::new());
    for file in &files {
        let groups: Vec<Value> = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
        let name = file.file_name().unwrap().to_string_lossy();
        for group in &groups {
            let description = group["description"].as_str().unwrap_or_default();
            // Plain validation: `default` is an annotation (the suite checks that a default
            // its own schema refuses changes nothing), not filled in as for a call.
            let validator = match Validator::builder(&group["schema"]).defaults(false).build() {
                Ok(validator) => validator,
                Err(error) => {
                    failures.push(format!("{name} / {description}: schema refused: {error}"));
                    continue;
                }
            };
            for test in group["tests"].as_array().unwrap() {
                let valid = test["valid"].as_bool().unwrap();
                let ours = validator.is_valid(&test["data"]);
                // The error-collecting path must agree with the boolean one.
                assert_eq!(
                    ours,
                    validator.validate(&test["data"]).is_ok(),
                    "{name} / {description} / {}",
                    test["description"]
                );
                if ours == valid {
                    passed += 1;
                } else {
                    failures.push(format!(
                        "{name} / {description} / {}: expected valid={valid}",
                        test["description"]
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} passed, {} failed:\n{}", passed, failures.len(), failures.join("\n"));
    assert_eq!(passed, 530);
}
