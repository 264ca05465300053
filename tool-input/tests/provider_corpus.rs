//! The recorded provider responses of `suite/tests/corpus/provider-responses`: every
//! non-streaming case with `expected_calls` gives exactly those calls (names and arguments,
//! in order), and, for text cases, the expected leftover content.

#[path = "../../suite/tests/common/mod.rs"]
mod common;

use common::{format_of, provider_cases as cases, text_options, PROVIDER_FILES as FILES};

use serde_json::{json, Value};
use tool_input::calls::{parse_body, parse_text, parse_value, CallOptions, Calls, Format};

fn read(case: &Value, auto: bool) -> Calls {
    let format = format_of(case["api"].as_str().unwrap());
    let payload = &case["payload"];
    if format == Format::Text {
        let options = text_options(case);
        let text = payload.as_str().unwrap();
        return if auto {
            parse_body(text.as_bytes(), &options.format(Format::Auto)).unwrap()
        } else {
            parse_text(text, &options)
        };
    }
    let options = CallOptions::new().format(if auto { Format::Auto } else { format });
    parse_value(payload, &options).unwrap_or_else(|e| panic!("{e}"))
}

fn summary(calls: &Calls) -> Value {
    Value::Array(calls.calls.iter().map(|c| json!({"name": c.name, "arguments": c.arguments})).collect())
}

#[test]
fn every_non_streaming_case_with_expected_calls_gives_exactly_those_calls() {
    let mut failures = Vec::new();
    let mut total = 0;
    for file in FILES {
        let (mut cases_run, mut matched) = (0, 0);
        for (i, case) in cases(file).iter().enumerate() {
            if case["streaming"] == true || case.get("expected_calls").is_none() {
                continue;
            }
            cases_run += 1;
            let expected = &case["expected_calls"];
            let mut ok = true;
            for auto in [false, true] {
                let calls = read(case, auto);
                let got = summary(&calls);
                if &got != expected {
                    ok = false;
                    failures.push(format!(
                        "{file}[{i}] (auto={auto}): expected {expected}\n  got {got}\n  errors {:?}",
                        calls.errors.iter().map(|e| &e.message).collect::<Vec<_>>()
                    ));
                }
                if let Some(content) = case.get("expected_content").and_then(Value::as_str) {
                    // The reasoning is returned apart: Ollama's table keeps it in the
                    // content, so put it back where it was to compare.
                    let got = match &calls.reasoning {
                        Some(reasoning) => {
                            format!("<think>{reasoning}</think>{}", calls.content.as_deref().unwrap_or(""))
                        }
                        None => calls.content.clone().unwrap_or_default(),
                    };
                    if got != content {
                        ok = false;
                        failures.push(format!(
                            "{file}[{i}] (auto={auto}): content {:?}, expected {content:?}",
                            calls.content
                        ));
                    }
                }
                // Every call has an id, and the ids of one response differ.
                let mut ids: Vec<&str> = calls.calls.iter().map(|c| c.id.as_str()).collect();
                ids.sort_unstable();
                ids.dedup();
                assert_eq!(ids.len(), calls.calls.len(), "{file}[{i}]: duplicate ids");
            }
            matched += usize::from(ok);
        }
        println!("{file}: {matched} of {cases_run} non-streaming cases with expected_calls match");
        total += cases_run;
    }
    assert!(total >= 140, "only {total} cases ran");
    assert!(failures.is_empty(), "{} mismatches:\n{}", failures.len(), failures.join("\n"));
}

/// The ids of structured responses are kept byte for byte.
#[test]
fn provider_ids_are_kept() {
    for file in ["vercel-ai.json", "openai-python.json", "anthropic-sdk-python.json", "litellm.json"] {
        for case in cases(file) {
            if case["streaming"] == true || case.get("expected_calls").is_none() {
                continue;
            }
            let calls = read(&case, false);
            let text = case["payload"].to_string();
            for call in &calls.calls {
                if call.id_generated {
                    continue;
                }
                // Calls unwrapped from a `multi_tool_use.parallel` wrapper get `<wrapper id>_<n>`.
                let id = match call.raw.get("recipient_name") {
                    Some(_) => call.id.rsplit_once('_').map_or(call.id.as_str(), |(wrapper, _)| wrapper),
                    None => call.id.as_str(),
                };
                assert!(text.contains(&format!("\"{id}\"")), "{file}: id {id} not in the payload");
            }
        }
    }
}

/// The text of the streamed text cases, read whole: the calls Ollama's parser ends with.
#[test]
fn streamed_text_cases_read_whole() {
    let (mut run, mut matched) = (0, 0);
    let mut misses = Vec::new();
    for case in cases("ollama-tool-parser-text.json") {
        if case["streaming"] != true {
            continue;
        }
        run += 1;
        let calls = parse_text(case["payload"].as_str().unwrap(), &text_options(&case));
        if summary(&calls) == case["expected_calls"] {
            matched += 1;
        } else {
            misses.push(case["note"].as_str().unwrap_or("").chars().take(60).collect::<String>());
        }
    }
    println!("streamed text cases read whole: {matched} of {run} match; differ: {misses:#?}");
    assert!(matched * 2 >= run, "{matched} of {run}");
}

/// Hand-made cases derived from recorded responses (`tests/data`): tool names under a
/// namespace prefix or sanitized to a provider's pattern, numeric, null and empty ids.
#[test]
fn mangled_names_and_numeric_ids_resolve() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/provider-responses-mangled.json");
    let file: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let cases = file["cases"].as_array().unwrap();
    assert!(cases.len() >= 6);
    for (i, case) in cases.iter().enumerate() {
        assert_eq!(case["hand_made"], true);
        let tools: Vec<&str> =
            case["available_tools"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
        for format in [Format::Auto, format_of(case["api"].as_str().unwrap())] {
            let options = CallOptions::new().format(format).tools(tools.iter().copied());
            let calls = parse_value(&case["payload"], &options).unwrap();
            let expected = case["expected_calls"].as_array().unwrap();
            assert_eq!(calls.calls.len(), expected.len(), "[{i}] {:?}", calls.errors);
            for (call, want) in calls.calls.iter().zip(expected) {
                assert_eq!(call.name, want["name"], "[{i}]");
                assert_eq!(call.name_sent, want["name_sent"], "[{i}]");
                assert_eq!(call.matched_by.map(|m| m.code()), want["matched_by"].as_str(), "[{i}]");
                assert_eq!(Value::Object(call.arguments.clone()), want["arguments"], "[{i}]");
                match want.get("id") {
                    Some(id) => {
                        assert_eq!(call.id, *id, "[{i}]");
                        assert!(!call.id_generated);
                    }
                    None => assert!(call.id_generated && call.id.starts_with("call_"), "[{i}] {}", call.id),
                }
            }
            let errors = case.get("expected_errors").and_then(Value::as_array).cloned().unwrap_or_default();
            assert_eq!(calls.errors.len(), errors.len(), "[{i}]");
            for (error, want) in calls.errors.iter().zip(&errors) {
                assert_eq!(error.kind.code(), want["kind"], "[{i}]");
                assert_eq!(error.id, want["id"], "[{i}]");
                assert!(error.message.contains("matches several tools"), "[{i}] {}", error.message);
            }
        }
    }
}
