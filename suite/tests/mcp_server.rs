//! The `rmcp` integration end to end: rmcp's own client and server, over an in-process
//! transport (`tokio::io::duplex`), the server written as rmcp users write one
//! (`#[tool_router]`, `#[tool]`, `#[tool_handler]`) with `tool_input::rmcp::Parameters`, and
//! a `Toolbox` served with `ToolboxServer`. Each call is a real JSON-RPC round trip.

use std::future::Future;
use std::time::Duration;

use rmcp::model::{CallToolRequestParams, CallToolResult, ErrorCode, JsonObject, Tool};
use rmcp::service::{RoleClient, RunningService, ServiceError};
use rmcp::{tool, tool_handler, tool_router, ServerHandler, ServiceExt};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};
use tool_input::rmcp::{Parameters, ToolboxServer};
use tool_input::{Dialect, ToolInput, Toolbox};

/// Create an order for a customer.
#[derive(Debug, Deserialize, JsonSchema, ToolInput)]
struct CreateOrder {
    customer_id: String,
    priority: Priority,
    tags: Vec<String>,
    #[schemars(range(min = 1, max = 100))]
    quantity: u32,
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Priority {
    Low,
    High,
}

/// Look up a customer.
#[derive(Debug, Deserialize, JsonSchema, ToolInput)]
struct FindCustomer {
    customer_id: String,
}

/// An MCP server written as rmcp's documentation shows, with tool-input's `Parameters`.
#[derive(Debug, Clone)]
struct Shop;

#[tool_router]
impl Shop {
    /// Create an order for a customer.
    #[tool]
    fn create_order(&self, Parameters(order): Parameters<CreateOrder>) -> String {
        format!(
            "{} × {:?} for {} (tags: {})",
            order.quantity,
            order.priority,
            order.customer_id,
            order.tags.join(", ")
        )
    }

    /// Look up a customer.
    #[tool]
    async fn find_customer(&self, Parameters(query): Parameters<FindCustomer>) -> Result<String, String> {
        match query.customer_id.as_str() {
            "C-1" => Ok("Ada Lovelace".to_owned()),
            other => Err(format!("no customer {other}")),
        }
    }
}

#[tool_handler]
impl ServerHandler for Shop {}

/// Serve `server` and connect rmcp's client to it over an in-process pipe; run `test`
/// against the client, bounded in time, then close both ends.
async fn with_client<S, F, Fut>(server: S, test: F)
where
    S: ServerHandler,
    F: FnOnce(RunningService<RoleClient, ()>) -> Fut,
    Fut: Future<Output = RunningService<RoleClient, ()>>,
{
    let (server_end, client_end) = tokio::io::duplex(64 * 1024);
    let serving = tokio::spawn(async move {
        let running = server.serve(server_end).await.expect("the server starts");
        running.waiting().await
    });
    let run = async {
        let client = ().serve(client_end).await.expect("the client connects");
        let client = test(client).await;
        client.cancel().await.expect("the client closes");
    };
    tokio::time::timeout(Duration::from_secs(30), run).await.expect("the exchange ends within 30 s");
    tokio::time::timeout(Duration::from_secs(10), serving)
        .await
        .expect("the server stops once the client is gone")
        .expect("the server task does not panic")
        .expect("the server ends cleanly");
}

fn arguments(value: Value) -> JsonObject {
    match value {
        Value::Object(map) => map,
        other => panic!("arguments must be an object, not {other}"),
    }
}

fn call(name: &'static str, value: Value) -> CallToolRequestParams {
    CallToolRequestParams::new(name).with_arguments(arguments(value))
}

/// The one text block of a result.
fn text(result: &CallToolResult) -> &str {
    assert_eq!(result.content.len(), 1, "one content block: {result:?}");
    match result.content[0].as_text() {
        Some(text) => &text.text,
        None => panic!("a text block: {result:?}"),
    }
}

/// The `inputSchema` a client sees, without the `$schema` rmcp's macro adds.
fn published(tool: &Tool) -> Value {
    let mut schema = (*tool.input_schema).clone();
    schema.remove("$schema");
    Value::Object(schema)
}

fn mcp_input_schema<T: ToolInput>() -> Value {
    T::definition().to_dialect(Dialect::Mcp)["inputSchema"].clone()
}

/// What a model sends that plain serde refuses: a list as a string, an enum value in
/// capitals, a number as a string. All representation, so all repaired.
fn repairable() -> Value {
    json!({"customer_id": "C-1", "priority": "High", "tags": "[\"vip\", \"gift\"]", "quantity": "3"})
}

/// Choices the model got wrong: never repaired, each reported at its path.
fn wrong_choices() -> Value {
    json!({"customer_id": "C-1", "priority": "urgent", "tags": [], "quantity": 0, "colour": "red"})
}

#[tokio::test]
async fn rmcp_tools_with_tool_input_parameters() {
    with_client(Shop, |client| async move {
        // The published schema is the MCP definition of the ToolInput type.
        let tools = client.list_all_tools().await.expect("tools/list");
        let names: Vec<&str> = tools.iter().map(|tool| tool.name.as_ref()).collect();
        assert_eq!(names, ["create_order", "find_customer"]);
        assert_eq!(published(&tools[0]), mcp_input_schema::<CreateOrder>());
        assert_eq!(published(&tools[1]), mcp_input_schema::<FindCustomer>());
        assert_eq!(tools[0].input_schema["additionalProperties"], false);
        assert_eq!(tools[0].description.as_deref(), Some("Create an order for a customer."));

        // Malformed but repairable: accepted, and the tool gets the typed value.
        let result = client.call_tool(call("create_order", repairable())).await.expect("tools/call");
        assert_eq!(result.is_error, Some(false), "{result:?}");
        assert_eq!(text(&result), "3 × High for C-1 (tags: vip, gift)");

        // Wrong choices: a tool result with isError, carrying every path, not a protocol error.
        let result = client.call_tool(call("create_order", wrong_choices())).await.expect("tools/call");
        assert_eq!(result.is_error, Some(true), "{result:?}");
        let message = text(&result);
        // rmcp's router turns exactly this error into a tool result: its prefix, then ours.
        let expected = "failed to deserialize parameters: The arguments for tool `create_order` were rejected (3 errors)";
        assert!(message.starts_with(expected), "{message}");
        assert!(message.contains(r#"- /priority: "urgent" is not one of "low", "high""#), "{message}");
        assert!(message.contains("- /quantity: "), "{message}");
        assert!(message.contains("- /colour: "), "{message}");

        // A required field missing, in an async tool.
        let result =
            client.call_tool(call("find_customer", json!({"customer": "C-1"}))).await.expect("tools/call");
        assert_eq!(result.is_error, Some(true), "{result:?}");
        assert!(text(&result).contains("- /customer_id: "), "{}", text(&result));
        assert!(text(&result).contains("- /customer: "), "{}", text(&result));

        // The tool's own error stays a tool error, as rmcp makes it.
        let result =
            client.call_tool(call("find_customer", json!({"customer_id": "C-2"}))).await.expect("tools/call");
        assert_eq!((result.is_error, text(&result)), (Some(true), "no customer C-2"));

        // An unknown tool is a protocol error, as the MCP specification says.
        match client.call_tool(call("delete_order", json!({}))).await {
            Err(ServiceError::McpError(error)) => assert_eq!(error.code, ErrorCode::INVALID_PARAMS),
            other => panic!("an unknown tool must be a JSON-RPC error, got {other:?}"),
        }
        client
    })
    .await;
}

fn shop_toolbox() -> Toolbox {
    Toolbox::new()
        .with_tool(|order: CreateOrder| {
            Ok::<_, String>(json!({
                "customer_id": order.customer_id,
                "priority": format!("{:?}", order.priority),
                "tags": order.tags,
                "quantity": order.quantity,
            }))
        })
        .with_async_tool(|query: FindCustomer| async move {
            match query.customer_id.as_str() {
                "C-1" => Ok("Ada Lovelace".to_owned()),
                other => Err(format!("no customer {other}")),
            }
        })
}

#[tokio::test]
async fn a_toolbox_served_over_mcp() {
    let toolbox = shop_toolbox();
    let definitions = toolbox.definitions(Dialect::Mcp);
    with_client(ToolboxServer::new(toolbox), |client| async move {
        let info = client.peer_info().expect("the server introduced itself");
        assert_eq!(info.server_info.as_ref().map(|server| server.name.as_str()), Some("tool-input"));
        assert!(info.capabilities.tools.is_some());

        // tools/list is every tool's MCP definition, in registration order.
        let tools = client.list_all_tools().await.expect("tools/list");
        assert_eq!(serde_json::to_value(&tools).expect("tools serialize"), Value::Array(definitions));

        // Repaired and run; an object output is also structured content.
        let result = client.call_tool(call("create_order", repairable())).await.expect("tools/call");
        assert_eq!(result.is_error, Some(false), "{result:?}");
        let expected = json!({"customer_id": "C-1", "priority": "High", "tags": ["vip", "gift"], "quantity": 3});
        assert_eq!(result.structured_content, Some(expected.clone()));
        assert_eq!(serde_json::from_str::<Value>(text(&result)).expect("JSON text"), expected);

        // The name is matched as the Toolbox matches names (case, whitespace).
        let result = client.call_tool(call("Find_Customer", json!({"customer_id": "C-1"}))).await.expect("tools/call");
        assert_eq!((result.is_error, text(&result)), (Some(false), "Ada Lovelace"));

        // Wrong choices: isError with the message for the model.
        let result = client.call_tool(call("create_order", wrong_choices())).await.expect("tools/call");
        assert_eq!(result.is_error, Some(true), "{result:?}");
        let message = text(&result);
        assert!(message.starts_with("The arguments for tool `create_order` were rejected (3 errors)"), "{message}");
        assert!(message.contains(r#"- /priority: "urgent" is not one of "low", "high""#), "{message}");

        // No arguments at all: every required field is named.
        let result = client.call_tool(CallToolRequestParams::new("create_order")).await.expect("tools/call");
        assert_eq!(result.is_error, Some(true), "{result:?}");
        assert!(text(&result).contains("- /customer_id: "), "{}", text(&result));

        // The async handler's error.
        let result = client.call_tool(call("find_customer", json!({"customer_id": "C-9"}))).await.expect("tools/call");
        assert_eq!(result.is_error, Some(true));
        assert_eq!(text(&result), "The tool `find_customer` failed: no customer C-9");

        // An unknown tool: a protocol error whose message lists the tools there are.
        match client.call_tool(call("delete_order", json!({}))).await {
            Err(ServiceError::McpError(error)) => {
                assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
                assert_eq!(
                    error.message,
                    "The tool `delete_order` does not exist; nothing was run. Available tools: create_order, find_customer."
                );
            }
            other => panic!("an unknown tool must be a JSON-RPC error, got {other:?}"),
        }
        client
    })
    .await;
}

#[tokio::test]
async fn a_name_mcp_refuses_is_listed_as_the_toolbox_sends_it() {
    // MCP tool names are letters, digits, `_`, `-` and `.`: a client hands `get weather` to a
    // model API that refuses it. The Toolbox sends it as `get_weather` and maps calls back.
    let definition = tool_input::ToolDefinition::new(
        "get weather",
        Some("Get the weather for a city."),
        json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}),
    )
    .expect("a definition");
    let toolbox = Toolbox::new().with_definition(definition, |arguments| {
        Ok::<_, String>(format!("Sunny in {}", arguments["city"].as_str().unwrap_or("?")))
    });
    let definitions = toolbox.definitions(Dialect::Mcp);
    assert_eq!(definitions[0]["name"], "get_weather");
    with_client(ToolboxServer::new(toolbox), |client| async move {
        let tools = client.list_all_tools().await.expect("tools/list");
        assert_eq!(serde_json::to_value(&tools).expect("tools serialize"), Value::Array(definitions));
        let result =
            client.call_tool(call("get_weather", json!({"city": "Oslo"}))).await.expect("tools/call");
        assert_eq!((result.is_error, text(&result)), (Some(false), "Sunny in Oslo"));
        client
    })
    .await;
}
