//! The `tool-input` program's JSON output, byte for byte: the shapes other programs (and the
//! Python module, which serializes the same library records) rely on. Each case runs the
//! program on `cli_output/NAME.in` and compares standard output with `cli_output/NAME.out`,
//! recorded from the program before its JSON moved into the library's `Serialize` impls.

mod cli_support;
#[path = "../../suite/tests/common/mod.rs"]
mod common;

use std::path::{Path, PathBuf};

use cli_support::run;
use common::keys_keep_insertion_order;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cli_output")
}

fn path(name: &str) -> String {
    dir().join(name).to_string_lossy().into_owned()
}

/// Run `args` on `NAME.in` (nothing when absent) and compare with `NAME.out` and the exit code.
fn assert_output(name: &str, args: &[&str], code: i32) {
    let stdin = std::fs::read(dir().join(format!("{name}.in"))).unwrap_or_default();
    // Where a message or a schema lists properties, it lists them in the schema's order when
    // serde_json keeps insertion order (its `preserve_order` feature, which rig-core switches
    // on for the whole build), else sorted: such outputs are recorded once for each.
    let ordered = dir().join(format!("{name}.preserve_order.out"));
    let recorded = if keys_keep_insertion_order() && ordered.exists() {
        ordered
    } else {
        dir().join(format!("{name}.out"))
    };
    let expected = std::fs::read(recorded).expect("the recorded output");
    let output = run(args, &stdin);
    assert_eq!(output.status.code(), Some(code), "{name}: {}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&expected),
        "{name}: the output changed"
    );
}

#[test]
fn check_accepted_bytes() {
    assert_output("check_accepted", &["check", "--schema", &path("schema.json")], 0);
}

#[test]
fn check_rejected_bytes() {
    assert_output("check_rejected", &["check", "--schema", &path("schema.json")], 1);
    assert_output("check_rejected_named", &["check", "--schema", &path("schema.json"), "--name", "other"], 1);
}

#[test]
fn check_jsonl_bytes() {
    let schema = path("schema.json");
    assert_output("check_jsonl", &["check", "--schema", &schema, "--jsonl", &path("cases.jsonl")], 1);
}

#[test]
fn calls_bytes() {
    assert_output("calls_body", &["calls", "--tools", "get_weather"], 1);
    assert_output("calls_body_error", &["calls", "--format", "openai"], 1);
    assert_output("calls_stream", &["calls", "--stream"], 0);
}

#[test]
fn schema_bytes() {
    let (titled, described) = (path("schema.json"), path("described.schema.json"));
    assert_output("schema_openai_strict", &["schema", "--dialect", "openai-strict", &titled], 0);
    assert_output(
        "schema_gemini_named",
        &["schema", "--dialect", "gemini", "--name", "notify", &described],
        0,
    );
    // No title: the file's name, without `.schema`.
    assert_output("schema_anthropic_file_name", &["schema", "--dialect", "anthropic", &described], 0);
    assert_output("schema_check", &["schema", "--dialect", "gemini", "--check", &described], 0);
    let args = ["schema", "--dialect", "gemini", "--check", "--name", "bad name!", &described];
    assert_output("schema_check_problems", &args, 1);
}
