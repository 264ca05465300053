//! One large tool call (say a megabyte of order items) read straight into a typed struct, and
//! what that costs in memory.
//!
//! ```sh
//! cargo run --release --example large_call -- ARGUMENTS.json   # or the arguments on standard input
//! ```
//!
//! A valid call is deserialized in one pass, checked against the schema on the way, with no
//! `serde_json::Value` in between: the process holds the raw text and the typed value, and the
//! text is dropped as soon as the value exists. To see the peak, compare
//! `/usr/bin/time -v target/release/examples/large_call ARGUMENTS.json` with the same program
//! on an empty file ("Maximum resident set size"). The workload of the README's figures is the
//! first line of `target/bench-data/large.jsonl` (its `raw` text), which
//! `cargo run -p tool-input-suite --bin workloads` writes with the other benchmark workloads:
//!
//! ```sh
//! python3 -c 'import json,sys; print(json.loads(sys.stdin.readline())["raw"], end="")' \
//!     < target/bench-data/large.jsonl > large.json
//! ```
//!
//! Prints a summary of the order, or the rejection a model would get back (exit status 1).

use std::io::Read;
use std::process::ExitCode;

use schemars::JsonSchema;
use serde::Deserialize;
use tool_input::ToolInput;

/// Create an order for a customer.
#[derive(Debug, Deserialize, JsonSchema, ToolInput)]
pub struct CreateOrder {
    /// Customer identifier.
    pub customer_id: String,
    pub priority: Priority,
    /// Free-form labels, at most 10.
    #[schemars(length(max = 10))]
    pub tags: Vec<String>,
    pub items: Vec<Item>,
    /// ISO 8601 date or date-time.
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
pub struct Item {
    #[schemars(regex(pattern = r"^[A-Z]{3}-\d{4}$"))]
    pub sku: String,
    #[schemars(range(min = 1, max = 1000))]
    pub quantity: u32,
    pub note: Option<String>,
}

fn main() -> ExitCode {
    let path = std::env::args_os().nth(1);
    let raw = match read(path.as_deref()) {
        Ok(raw) => raw,
        Err(message) => {
            eprintln!("large_call: {message}");
            return ExitCode::from(2);
        }
    };
    let result = CreateOrder::from_arguments_with_report(raw.as_slice());
    // The typed value owns its strings: the raw text is not needed past this point.
    drop(raw);
    match result {
        Ok(checked) => {
            let order = checked.value;
            let quantity: u64 = order.items.iter().map(|item| u64::from(item.quantity)).sum();
            let notes: usize =
                order.items.iter().filter_map(|item| item.note.as_ref()).map(String::len).sum();
            println!(
                "order for {}: {:?}, {} items ({} units, {} bytes of notes), {} repairs, {} coercions",
                order.customer_id,
                order.priority,
                order.items.len(),
                quantity,
                notes,
                checked.report.repairs.len(),
                checked.report.coercions.len(),
            );
            ExitCode::SUCCESS
        }
        Err(rejection) => {
            println!("{rejection}");
            ExitCode::from(1)
        }
    }
}

/// The bytes of the file at `path`, or of standard input when there is none or it is `-`.
fn read(path: Option<&std::ffi::OsStr>) -> Result<Vec<u8>, String> {
    match path {
        Some(path) if path != "-" => {
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.to_string_lossy()))
        }
        _ => {
            let mut bytes = Vec::new();
            std::io::stdin()
                .read_to_end(&mut bytes)
                .map_err(|e| format!("cannot read standard input: {e}"))?;
            Ok(bytes)
        }
    }
}
