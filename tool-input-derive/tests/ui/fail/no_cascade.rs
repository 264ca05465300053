use schemars::JsonSchema;
use serde::Deserialize;
use tool_input::ToolInput;

// The one error is the attribute's: the type still implements `ToolInput`, so its uses
// below add none.
#[derive(Debug, Deserialize, JsonSchema, ToolInput)]
#[tool_input(policy = "loose")]
struct GetWeather {
    city: String,
}

fn run<T: ToolInput>(raw: &str) -> T {
    T::from_arguments(raw).unwrap()
}

fn main() {
    let _ = GetWeather::NAME;
    let _ = GetWeather::definition();
    let weather: GetWeather = run(r#"{"city": "Paris"}"#);
    println!("{weather:?}");
}
