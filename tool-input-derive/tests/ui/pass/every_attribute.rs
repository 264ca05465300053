use schemars::JsonSchema;
use serde::Deserialize;
use tool_input::{FieldOptions, Policy, ToolInput};

mod runtime {
    pub use tool_input as engine;
}

/// Not the description.
#[derive(Deserialize, JsonSchema, ToolInput)]
#[tool_input(name = "pay-Invoice_2", description = "Pay an invoice.")]
#[tool_input(policy = "lenient", crate = "runtime::engine")]
#[allow(dead_code)]
struct PayInvoice {
    #[tool_input(strict)]
    invoice_id: String,
    #[tool_input(lenient)]
    amount: f64,
    #[tool_input(policy = "default", sensitive)]
    card: String,
    #[tool_input(sensitive)]
    cvc: String,
    memo: Option<String>,
}

fn main() {
    assert_eq!(PayInvoice::NAME, "pay-Invoice_2");
    assert_eq!(PayInvoice::DESCRIPTION, Some("Pay an invoice."));
    assert_eq!(PayInvoice::POLICY, Some(Policy::Lenient));
    assert_eq!(
        PayInvoice::FIELDS,
        [
            FieldOptions { name: "invoice_id", policy: Some(Policy::Strict), sensitive: false },
            FieldOptions { name: "amount", policy: Some(Policy::Lenient), sensitive: false },
            FieldOptions { name: "card", policy: Some(Policy::Default), sensitive: true },
            FieldOptions { name: "cvc", policy: None, sensitive: true },
        ]
    );
}
