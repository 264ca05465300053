//! A rig tool whose arguments are read by tool-input, called the way rig's runtime calls
//! tools: the tool's handler (`tool_input::rig::ToolAdapter`, in place of rig's own
//! `ToolAdapter`) served a `ToolCall` effect with the model's raw argument text. Offline:
//! the calls are the text models send, with no model behind them.
//!
//! `cargo run --example rig_tool --features rig`
//!
//! Dependencies, as the README's install block gives them: `tool-input` with `rig`;
//! `rig-core` (no default features needed); any executor (here `futures-executor`).

use rig_core::effect::{EffectKind, Outcome};
use rig_core::serve::{serve_inline, ErasedHandler};
use rig_core::tool::{PortableTool, ToolErrorKind, ToolExecutionError, ToolResult};
use schemars::JsonSchema;
use serde::Deserialize;
use tool_input::{Args, ToolInput};

/// Search flights between two airports.
#[derive(Debug, Deserialize, JsonSchema, ToolInput)]
struct SearchFlights {
    /// IATA code of the departure airport.
    from: String,
    /// IATA code of the arrival airport.
    to: String,
    #[schemars(range(min = 1, max = 9))]
    passengers: u8,
    cabin: Cabin,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Cabin {
    Economy,
    Business,
}

/// The rig tool: its `Args` is `tool_input::Args<SearchFlights>`, its definition ours.
struct Flights;

impl PortableTool for Flights {
    const NAME: &'static str = SearchFlights::NAME;
    type Args = Args<SearchFlights>;
    type Output = String;
    type Error = ToolExecutionError;

    fn description(&self) -> String {
        SearchFlights::DESCRIPTION.unwrap_or_default().to_owned()
    }

    fn parameters(&self) -> serde_json::Value {
        SearchFlights::schema().clone()
    }

    async fn call(&self, Args(search): Args<SearchFlights>) -> Result<String, ToolExecutionError> {
        Ok(format!(
            "BA178 {} → {}, {} seats in {:?}",
            search.from, search.to, search.passengers, search.cabin
        ))
    }
}

/// One tool call as rig's runtime makes it: a `ToolCall` effect served by the tool's handler.
fn run(handler: &ErasedHandler, args: &str) -> ToolResult {
    let call = EffectKind::ToolCall { name: SearchFlights::NAME.to_owned(), args: args.to_owned() };
    match futures_executor::block_on(serve_inline(handler, call)) {
        Ok(Outcome::ToolResult { result }) => result,
        other => panic!("not a tool result: {other:?}"),
    }
}

fn main() {
    let handler = ErasedHandler::new(tool_input::rig::ToolAdapter::new(Flights));

    // A Python dict with a number as a string and a cabin in capitals, as a model served
    // without a tool parser writes it: repaired, coerced, and the tool runs.
    let result = run(&handler, "{'from': 'JFK', 'to': 'LHR', 'passengers': '2', 'cabin': 'Business'}");
    let text = result.output().as_text().unwrap_or_default().to_owned();
    println!("a Python dict: {text}");
    assert!(result.is_success());
    assert_eq!(text, "BA178 JFK → LHR, 2 seats in Business");

    // Wrong choices: an `invalid_args` result whose text names the tool, each path and what
    // would have worked, for the model to fix its call.
    let result = run(&handler, "{'from': 'JFK', 'to': 'LHR', 'passengers': 12, 'cabin': 'first'}");
    let text = result.output().as_text().unwrap_or_default().to_owned();
    println!("wrong choices: {text}");
    assert!(result.is_error_kind(ToolErrorKind::InvalidArgs));
    assert!(text.starts_with("The arguments for tool `search_flights` were rejected (2 errors)"));
    assert!(text.contains("- /passengers: ") && text.contains(r#"- /cabin: "first" is not one of"#));

    // rig's own adapter runs serde_json on the text first: the Python dict never reaches
    // tool-input, and the model is told only that a key must be a string.
    let rigs = ErasedHandler::new(rig_core::serve::adapters::ToolAdapter::new(Flights));
    let result = run(&rigs, "{'from': 'JFK', 'to': 'LHR', 'passengers': 2, 'cabin': 'economy'}");
    println!("through rig's own adapter: {}", result.output().as_text().unwrap_or_default());
    assert!(result.is_error_kind(ToolErrorKind::InvalidArgs));
}
