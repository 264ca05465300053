use schemars::JsonSchema;
use serde::Deserialize;
use tool_input::ToolInput;

#[derive(Deserialize, JsonSchema, ToolInput)]
#[tool_input(name = "get_the_weather_forecast_for_a_city_for_the_next_few_days_please_thanks")]
struct GetWeather {
    city: String,
}

fn main() {}
