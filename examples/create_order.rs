//! A tool call as a model really sends it, turned into a typed Rust value; and a call with
//! wrong choices, turned into the message that goes back to the model.
//!
//! Runs offline: `cargo run --example create_order`.

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

/// The `arguments` of a tool call from a small model served without a tool parser: prose
/// and a code fence around the JSON, Python literals and single quotes, a list sent as a
/// string, an enum value capitalised, a number as a string, a trailing comma.
const RECORDED_CALL: &str = r#"Sure! I'll place that order now.

```json
{'customer_id': 'C-863067', 'priority': 'High', 'tags': '["vip", "gift-wrap"]',
 'items': [{'sku': 'TRV-4569', 'quantity': '7'}, {'sku': 'FFN-0209', 'quantity': 2, 'note': None}],
 'gift': True,}
```"#;

/// Well-formed JSON, but with choices only the model can fix.
const WRONG_CHOICES: &str = r#"{"customer_id": "C-1", "priority": "urgent", "tags": [],
 "items": [{"sku": "TRV-456", "quantity": 0}, {"sku": "FFN-0209", "qty": 2}], "shipby": "2026-12-01"}"#;

pub fn main() {
    println!("Tool `{}`: {}", CreateOrder::NAME, CreateOrder::DESCRIPTION.unwrap_or_default());
    println!(
        "Schema the model sees:\n{}\n",
        serde_json::to_string_pretty(CreateOrder::schema()).unwrap_or_default()
    );

    // Every mistake above is representation: the call goes through, and the report says
    // what it took.
    let checked = CreateOrder::from_arguments_with_report(RECORDED_CALL)
        .unwrap_or_else(|rejection| panic!("the recorded call should be accepted:\n{rejection}"));
    println!("Accepted:\n{:#?}", checked.value);
    println!("Repairs (syntax):");
    for repair in &checked.report.repairs {
        println!("  {} ×{} (first at byte {})", repair.kind, repair.count, repair.offset);
    }
    println!("Coercions (representation):");
    for coercion in &checked.report.coercions {
        let from = coercion.from.as_deref().unwrap_or("-");
        let to = coercion.to.as_deref().unwrap_or("-");
        println!("  {}: {} ({from} -> {to})", coercion.path, coercion.kind);
    }

    // Every mistake here is a choice: nothing runs, and the model gets one message naming
    // each path, what was wrong and what would work.
    let rejection = match CreateOrder::from_arguments(WRONG_CHOICES) {
        Ok(order) => panic!("the wrong choices should be rejected, not become {order:?}"),
        Err(rejection) => rejection,
    };
    println!("\nRejected; this goes back to the model as the tool result:\n{rejection}");
}
