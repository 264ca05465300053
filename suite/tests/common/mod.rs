//! Helpers shared by the integration tests and benchmarks: where the test corpora are, and the
//! benchmark workloads (generated on first use by `workloads.rs`).
#![allow(dead_code)]

pub mod workloads;

use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The workspace root (the folder with `Cargo.lock`), from whichever package's tests.
pub fn workspace_root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest.ancestors().find(|dir| dir.join("Cargo.lock").exists()).unwrap_or(manifest).to_path_buf()
}

/// The folder of the tests' data, in the checkout: `corpus/` is in it.
pub fn shared_dir() -> PathBuf {
    workspace_root().join("suite/tests")
}

/// The external test corpora (`corpus/README.md` says where each file comes from).
pub fn corpus_dir() -> PathBuf {
    shared_dir().join("corpus")
}

/// The benchmark workloads, generated into `target/bench-data` on first use, or again when an
/// older generator wrote them (deterministic, a few seconds). Generated in a temporary folder
/// and renamed, so a concurrent reader never sees a half-written file.
pub fn bench_data_dir() -> PathBuf {
    static GENERATING: Mutex<()> = Mutex::new(());
    let root = workspace_root();
    let dir = root.join("target/bench-data");
    let _one_at_a_time = GENERATING.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if workloads::is_current(&dir) {
        return dir;
    }
    let temporary = root.join(format!("target/bench-data.tmp-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&temporary);
    workloads::generate(&temporary, &workloads::Params::default())
        .unwrap_or_else(|e| panic!("cannot write the workloads into {}: {e}", temporary.display()));
    let stale = root.join(format!("target/bench-data.stale-{}", std::process::id()));
    let _ = std::fs::rename(&dir, &stale);
    if std::fs::rename(&temporary, &dir).is_err() {
        // Another process wrote them first.
        let _ = std::fs::remove_dir_all(&temporary);
    }
    let _ = std::fs::remove_dir_all(&stale);
    assert!(workloads::is_current(&dir), "no workloads in {}", dir.display());
    dir
}

/// The lines of a JSONL file, parsed.
pub fn read_jsonl(path: &Path) -> Vec<serde_json::Value> {
    let text =
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines().filter(|l| !l.trim().is_empty()).map(|l| serde_json::from_str(l).unwrap()).collect()
}

/// The files of `corpus/provider-responses`.
pub const PROVIDER_FILES: &[&str] = &[
    "vercel-ai.json",
    "openai-python.json",
    "anthropic-sdk-python.json",
    "litellm.json",
    "qwen-text-vllm-recordings.json",
    "ollama-tool-parser-text.json",
];

/// The cases of one provider-responses file.
pub fn provider_cases(file: &str) -> Vec<serde_json::Value> {
    let path = corpus_dir().join("provider-responses").join(file);
    let text =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

/// The call format of a case's `api`.
pub fn format_of(api: &str) -> tool_input::calls::Format {
    use tool_input::calls::Format;
    match api {
        "chat.completions" => Format::OpenAi,
        "responses" => Format::Responses,
        "anthropic.messages" => Format::Anthropic,
        "gemini" => Format::Gemini,
        "text" => Format::Text,
        other => panic!("unknown api {other}"),
    }
}

/// The options a text case asks for: its available tools, and the format its template
/// writes calls in.
pub fn text_options(case: &serde_json::Value) -> tool_input::calls::CallOptions {
    use tool_input::calls::{CallOptions, Format, TextFormat};
    let mut options = CallOptions::new().format(Format::Text);
    if let Some(tools) = case.get("available_tools").and_then(serde_json::Value::as_array) {
        options = options.tools(tools.iter().filter_map(serde_json::Value::as_str));
    }
    if let Some(template) = case.get("template").and_then(serde_json::Value::as_str) {
        let format = if template.contains("<tool_call>") {
            TextFormat::Hermes
        } else if template.contains("[TOOL_CALLS]") {
            TextFormat::Mistral
        } else if template.contains("tool▁calls▁begin") {
            TextFormat::DeepSeek
        } else {
            TextFormat::Json
        };
        options = options.text_format(format);
    }
    options
}

/// Whether serde_json keeps object keys in insertion order (its `preserve_order` feature, which
/// any crate in the build may turn on: rig-core does, in `--all-features` builds). Messages
/// do not depend on it, except for a schema given as a `Value`, whose map is all there is of
/// the order it was written in.
pub fn keys_keep_insertion_order() -> bool {
    let map: serde_json::Map<String, serde_json::Value> =
        [("b".to_owned(), serde_json::Value::Null), ("a".to_owned(), serde_json::Value::Null)]
            .into_iter()
            .collect();
    map.keys().next().is_some_and(|first| first == "b")
}

/// An insta JSON snapshot with its maps sorted: the same in either key order.
#[allow(unused_macros)]
macro_rules! json_snapshot_sorted {
    ($($args:tt)*) => {
        insta::with_settings!({sort_maps => true}, { insta::assert_json_snapshot!($($args)*) })
    };
}

/// `value` with each number that is not an `i64` or `u64` spelled as the `f64` it reads as,
/// which is how the engine reads numbers in every build. serde_json with its
/// `arbitrary_precision` feature (which any crate in a build may turn on) keeps a number's text
/// as written (`2.50`, `1e+0`, `-0`); without the feature, this changes nothing.
pub fn numbers_as_f64(value: serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match value {
        // As serde_json reads an integer without the feature: `-0` is a float.
        Value::Number(number)
            if number.to_string().parse::<u64>().is_err()
                && (number.to_string() == "-0" || number.to_string().parse::<i64>().is_err()) =>
        {
            number.as_f64().and_then(serde_json::Number::from_f64).map_or(Value::Null, Value::Number)
        }
        Value::Array(items) => Value::Array(items.into_iter().map(numbers_as_f64).collect()),
        Value::Object(members) => {
            Value::Object(members.into_iter().map(|(key, value)| (key, numbers_as_f64(value))).collect())
        }
        other => other,
    }
}
