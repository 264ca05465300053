use schemars::JsonSchema;
use serde::Deserialize;
use tool_input::{FieldOptions, Policy, ToolInput};

mod runtime {
    pub use tool_input as engine;
}

/// Not the description.
#[derive(Deserialize, JsonSchema, ToolInput)]
#[tool_input(name = "pay-Invoice_2", description = "Pay an invoice.")]
#[tool_input(policy = "lenient", crate = "runtime::engine", formats = false)]
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
    assert!(!PayInvoice::FORMATS);
    assert_eq!(
        PayInvoice::FIELDS,
        [
            FieldOptions::new("invoice_id").with_policy(Policy::Strict),
            FieldOptions::new("amount").with_policy(Policy::Lenient),
            FieldOptions::new("card").with_policy(Policy::Default).with_sensitive(true),
            FieldOptions::new("cvc").with_sensitive(true),
        ]
    );
}
