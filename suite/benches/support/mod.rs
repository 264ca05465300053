//! What the benches share: the workloads' Rust type, their calls, and the peers' pipelines.

#![allow(dead_code)] // each bench uses its part

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;
use tool_input::ToolInput;

use crate::common;

/// The Rust type of the workloads' create_order.schema.json (suite/tests/common/workloads.rs).
#[derive(Debug, Deserialize, JsonSchema, ToolInput)]
#[allow(dead_code)]
pub struct CreateOrder {
    /// Customer identifier
    pub customer_id: String,
    pub priority: Priority,
    #[schemars(length(max = 10))]
    pub tags: Vec<String>,
    pub items: Vec<Item>,
    /// ISO 8601 date or date-time
    pub ship_by: Option<String>,
    #[serde(default)]
    pub gift: bool,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Priority {
    Low,
    Medium,
    High,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[allow(dead_code)]
pub struct Item {
    #[schemars(regex(pattern = r"^[A-Z]{3}-\d{4}$"))]
    pub sku: String,
    #[schemars(range(min = 1, max = 1000))]
    pub quantity: i64,
    pub note: Option<String>,
}

/// The first `limit` calls' raw text of a workload file.
pub fn raws(file: &str, limit: usize) -> Vec<String> {
    let text = std::fs::read_to_string(common::bench_data_dir().join(file)).expect("workload");
    text.lines()
        .take(limit)
        .map(|line| {
            let case: Value = serde_json::from_str(line).expect("a case");
            case["raw"].as_str().expect("raw text").to_owned()
        })
        .collect()
}

/// The workloads' schema.
pub fn schema() -> Value {
    let text =
        std::fs::read_to_string(common::bench_data_dir().join("create_order.schema.json")).expect("schema");
    serde_json::from_str(&text).expect("schema JSON")
}

/// The total length of some calls.
pub fn bytes(raws: &[String]) -> u64 {
    raws.iter().map(|r| r.len() as u64).sum()
}

/// The peers' pipeline: repair with jsonrepair-rs, parse, validate with jsonschema
/// (collecting every error), then build the typed value.
pub fn jsonrepair_jsonschema(validator: &jsonschema::Validator, raw: &str) -> Option<CreateOrder> {
    let repaired = jsonrepair_rs::jsonrepair(raw).ok()?;
    let value: Value = serde_json::from_str(&repaired).ok()?;
    if validator.iter_errors(&value).next().is_some() {
        return None;
    }
    serde_json::from_value(value).ok()
}

/// The usual pipeline for strict JSON: a `Value`, jsonschema, then the typed value.
pub fn value_jsonschema(validator: &jsonschema::Validator, raw: &str) -> Option<CreateOrder> {
    let value: Value = serde_json::from_str(raw).ok()?;
    if validator.iter_errors(&value).next().is_some() {
        return None;
    }
    serde_json::from_value(value).ok()
}

/// A streamed payload and the sizes of the chunks it arrives in.
pub struct Streamed {
    pub text: String,
    pub chunks: Vec<usize>,
}

impl Streamed {
    /// The chunks, as text.
    pub fn pieces(&self) -> Vec<&str> {
        let mut at = 0;
        self.chunks
            .iter()
            .map(|&size| {
                let piece = &self.text[at..at + size];
                at += size;
                piece
            })
            .collect()
    }
}

/// The first `count` rows of `stream.jsonl`.
pub fn stream_rows(count: usize) -> Vec<Streamed> {
    common::read_jsonl(&common::bench_data_dir().join("stream.jsonl"))
        .into_iter()
        .take(count)
        .map(|row| {
            let text = row["raw"].as_str().expect("a raw field").to_owned();
            let chunks: Vec<usize> = row["chunks"]
                .as_array()
                .expect("a chunks field")
                .iter()
                .map(|size| size.as_u64().expect("a chunk size") as usize)
                .collect();
            assert_eq!(chunks.iter().sum::<usize>(), text.len());
            Streamed { text, chunks }
        })
        .collect()
}
