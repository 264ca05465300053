//! A recorded streamed response (OpenAI Chat Completions, from openai-python's tests, in
//! `suite/tests/corpus/provider-responses`) read chunk by chunk into the call's typed partial
//! value, printed at each step: the city as far as it arrived, the units only once complete.
//!
//! ```sh
//! cargo run -p tool-input-suite --example stream_partial
//! ```

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;
use tool_input::calls::CallOptions;
use tool_input::partial::FieldState;
use tool_input::stream::StreamAssembler;
use tool_input::{PartialValue, ToolInput};

/// Get the weather in a city.
#[derive(Debug, Deserialize, JsonSchema, ToolInput)]
#[tool_input(name = "GetWeatherArgs")]
struct GetWeatherArgs {
    city: String,
    country: String,
    units: Units,
}

#[derive(Debug, Clone, Deserialize, JsonSchema, PartialValue)]
enum Units {
    #[serde(rename = "c")]
    Celsius,
    #[serde(rename = "f")]
    Fahrenheit,
}

/// One field's state, as a reader of the progress would show it.
fn show<P: std::fmt::Debug>(state: &FieldState<P>) -> String {
    match state {
        FieldState::Absent => "·".to_owned(),
        FieldState::Arriving(value) => format!("{value:?}…"),
        FieldState::Complete(value) => format!("{value:?} ✓"),
    }
}

fn main() {
    let corpus: Value =
        serde_json::from_str(include_str!("../tests/corpus/provider-responses/openai-python.json")).unwrap();
    let recording = corpus
        .as_array()
        .into_iter()
        .flatten()
        .find(|item| {
            item["streaming"] == true
                && item["note"].as_str().is_some_and(|note| note.contains("::test_parse_pydantic_tool:"))
        })
        .expect("the recording is in the corpus");

    let mut stream = StreamAssembler::new(CallOptions::new());
    let mut previous = String::new();
    for (step, chunk) in recording["chunks"].as_array().into_iter().flatten().enumerate() {
        stream.push_event(chunk);
        let Some(FieldState::Arriving(args) | FieldState::Complete(args)) =
            stream.partial::<GetWeatherArgs>(0)
        else {
            continue;
        };
        let line = format!(
            "city: {:<16} country: {:<8} units: {}",
            show(&args.city),
            show(&args.country),
            show(&args.units)
        );
        if line != previous {
            println!("chunk {step:>2}  {line}");
            previous = line;
        }
    }
    let calls = stream.finish();
    for call in &calls.calls {
        match GetWeatherArgs::from_arguments(call.original.as_raw()) {
            Ok(args) => println!("final: {}, {}, in {:?}", args.city, args.country, args.units),
            Err(rejection) => println!("refused: {rejection}"),
        }
    }
}
