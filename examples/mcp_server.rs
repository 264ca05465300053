//! A Toolbox served as an MCP server with rmcp, and rmcp's own client listing and calling its
//! tools over an in-memory transport (`tokio::io::duplex`): every request is a real JSON-RPC
//! round trip, offline. A server for real clients serves the same `ToolboxServer` on
//! `rmcp::transport::stdio()` (rmcp's `transport-io` feature) or an HTTP transport.
//!
//! `cargo run --example mcp_server --features rmcp`
//!
//! Dependencies, as the README's install block gives them: `tool-input` with `rmcp`;
//! `rmcp` with `server` (and `client`, only to list and call the tools from Rust here);
//! `tokio`; `chrono` with `serde` and schemars' `chrono04` for the `NaiveDate` field.

use chrono::NaiveDate;
use rmcp::model::CallToolRequestParams;
use rmcp::ServiceExt; // `.serve(transport)`, for the server and the client alike
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};
use tool_input::rmcp::ToolboxServer;
use tool_input::{ToolInput, Toolbox};

/// Search flights between two airports on one day.
#[derive(Debug, Deserialize, JsonSchema, ToolInput)]
struct SearchFlights {
    /// IATA code of the departure airport.
    from: String,
    /// IATA code of the arrival airport.
    to: String,
    date: NaiveDate,
    #[schemars(range(min = 1, max = 9))]
    passengers: u8,
}

/// Book a seat on a flight.
#[derive(Debug, Deserialize, JsonSchema, ToolInput)]
struct BookFlight {
    flight: String,
    cabin: Cabin,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Cabin {
    Economy,
    Business,
}

fn toolbox() -> Toolbox {
    Toolbox::new()
        .with_tool(|search: SearchFlights| {
            let flight =
                json!({"flight": "BA178", "from": search.from, "to": search.to, "date": search.date});
            Ok::<_, String>(json!({"flights": [flight], "seats": search.passengers}))
        })
        .with_tool(|booking: BookFlight| {
            Ok::<_, String>(format!("{} booked in {:?}", booking.flight, booking.cabin))
        })
}

/// The arguments of a call as rmcp's client sends them: a JSON object.
fn call(name: &'static str, arguments: Value) -> CallToolRequestParams {
    let Value::Object(arguments) = arguments else { unreachable!("arguments are an object") };
    CallToolRequestParams::new(name).with_arguments(arguments)
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Two ends of an in-memory pipe: the server serves one, the client connects to the other.
    let (server_end, client_end) = tokio::io::duplex(64 * 1024);
    let server = tokio::spawn(async move {
        let running = ToolboxServer::new(toolbox()).serve(server_end).await?;
        running.waiting().await?;
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
    });
    let client = ().serve(client_end).await?;

    // tools/list: each tool's MCP definition, its schema the one the checks enforce.
    let tools = client.list_all_tools().await?;
    let names: Vec<&str> = tools.iter().map(|tool| tool.name.as_ref()).collect();
    println!("tools: {names:?}");
    assert_eq!(names, ["search_flights", "book_flight"]);
    assert_eq!(tools[0].input_schema["properties"]["date"]["format"], "date");

    // A number sent as a string is representation: coerced, and the handler gets a `u8`.
    let found = client
        .call_tool(call(
            "search_flights",
            json!({"from": "JFK", "to": "LHR", "date": "2026-07-01", "passengers": "2"}),
        ))
        .await?;
    println!("search_flights: {}", found.content[0].as_text().map(|t| t.text.as_str()).unwrap_or_default());
    assert_eq!(found.is_error, Some(false));
    assert_eq!(found.structured_content.as_ref().map(|v| &v["seats"]), Some(&json!(2)));

    // A cabin in capitals is representation: coerced. A cabin that does not exist is a choice:
    // an `isError` result whose text tells the model what to fix.
    let booked =
        client.call_tool(call("book_flight", json!({"flight": "BA178", "cabin": "BUSINESS"}))).await?;
    let text = booked.content[0].as_text().map(|t| t.text.clone()).unwrap_or_default();
    println!("book_flight: {text}");
    assert_eq!(text, "BA178 booked in Business");
    let refused = client.call_tool(call("book_flight", json!({"flight": "BA178", "cabin": "first"}))).await?;
    let text = refused.content[0].as_text().map(|t| t.text.clone()).unwrap_or_default();
    println!("book_flight, refused: {text}");
    assert_eq!(refused.is_error, Some(true));
    assert!(text.contains(r#"/cabin: "first" is not one of "economy", "business""#));

    // An unknown tool is a JSON-RPC error (-32602), naming the tools there are.
    let unknown = client.call_tool(call("cancel_flight", json!({}))).await;
    println!("cancel_flight: {:?}", unknown.as_ref().err().map(ToString::to_string));
    assert!(unknown.is_err());

    client.cancel().await?;
    server.await?.map_err(|error| error.to_string())?;
    Ok(())
}
