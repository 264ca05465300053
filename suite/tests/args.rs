//! `tool_input::Args<T>`: the whole pipeline behind `Deserialize`, under `serde_json::from_str`,
//! `serde_json::from_value`, and a framework's own call path (a tool trait with
//! `type Args: DeserializeOwned` that deserializes the arguments itself).

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};
use tool_input::{Args, FieldError, ToolInput};

#[macro_use]
mod common;

/// Create an order for a customer.
#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
#[tool_input(validate = no_gift_wrap_for_bulk)]
struct CreateOrder {
    customer_id: String,
    quantity: u32,
    priority: Priority,
    #[serde(default)]
    tags: Vec<String>,
    #[serde(default)]
    gift_wrap: bool,
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Priority {
    Low,
    High,
}

fn no_gift_wrap_for_bulk(order: &CreateOrder) -> Result<(), Vec<FieldError>> {
    if order.gift_wrap && order.quantity > 10 {
        return Err(vec![FieldError::custom(
            "gift wrap is for at most 10 items; set it to false or order fewer",
        )
        .at("gift_wrap")
        .with_value(true)]);
    }
    Ok(())
}

fn expected() -> CreateOrder {
    CreateOrder {
        customer_id: "C-1".into(),
        quantity: 2,
        priority: Priority::High,
        tags: vec!["vip".into()],
        gift_wrap: false,
    }
}

#[test]
fn from_str_coerces_representation() {
    let text = r#"{"customer_id": "C-1", "quantity": "2", "priority": "HIGH", "tags": "[\"vip\"]"}"#;
    let Args(order) = serde_json::from_str::<Args<CreateOrder>>(text).unwrap();
    assert_eq!(order, expected());
}

#[test]
fn from_str_reads_a_json_string_holding_mangled_arguments() {
    let inner =
        "Sure! ```json\n{'customer_id': 'C-1', 'quantity': 2, 'priority': 'high', 'tags': ['vip'],}\n```";
    let text = serde_json::to_string(inner).unwrap();
    let Args(order) = serde_json::from_str::<Args<CreateOrder>>(&text).unwrap();
    assert_eq!(order, expected());
}

/// A key serde_json hands over twice is the same key given twice as in any call's text: two
/// values are refused (`duplicate_key`, naming both), one value twice is read once, recorded.
/// (A `Value` would keep the last value, settling the choice the model made twice.)
#[test]
fn from_str_refuses_a_key_given_twice_with_two_values() {
    let text =
        r#"{"customer_id": "C-1", "quantity": 2, "priority": "low", "priority": "high", "tags": ["vip"]}"#;
    let error = serde_json::from_str::<Args<CreateOrder>>(text).unwrap_err().to_string();
    assert!(error.starts_with(&CreateOrder::from_arguments(text).unwrap_err().to_string()), "{error}");
    assert!(error.contains("- /priority: the key `priority` is given twice"), "{error}");
    // Inside a nested value too, at its path.
    let text = r#"{"customer_id": "C-1", "quantity": 2, "priority": "high", "tags": [{"a": 1, "a": 2}]}"#;
    let error = serde_json::from_str::<Args<CreateOrder>>(text).unwrap_err().to_string();
    assert!(error.contains("- /tags/0/a: the key `a` is given twice"), "{error}");
    // One value twice: read.
    let text = r#"{"customer_id": "C-1", "quantity": 2, "quantity": 2, "priority": "high", "tags": ["vip"]}"#;
    assert_eq!(serde_json::from_str::<Args<CreateOrder>>(text).unwrap().0, expected());
}

#[test]
fn from_value_reads_objects_strings_and_nothing() {
    let object = json!({"customer_id": "C-1", "quantity": 2.0, "priority": "high", "tags": "vip"});
    // `"vip"` for a list is wrapped only under the lenient policy: the default refuses it.
    let error = serde_json::from_value::<Args<CreateOrder>>(object).unwrap_err();
    assert!(error.to_string().contains("- /tags: "), "{error}");

    let object = json!({"customer_id": "C-1", "quantity": 2.0, "priority": "high", "tags": ["vip"]});
    assert_eq!(serde_json::from_value::<Args<CreateOrder>>(object).unwrap().0, expected());

    let string =
        json!("{\"customer_id\": \"C-1\", \"quantity\": 2, \"priority\": \"high\", \"tags\": [\"vip\"]}");
    assert_eq!(serde_json::from_value::<Args<CreateOrder>>(string).unwrap().0, expected());

    // No arguments are `{}`: here that misses the required fields, each with its path.
    for nothing in [Value::Null, json!(""), json!("  ")] {
        let text = serde_json::from_value::<Args<CreateOrder>>(nothing).unwrap_err().to_string();
        for path in ["/customer_id", "/quantity", "/priority"] {
            assert!(text.contains(&format!("- {path}: ")), "{text}");
        }
    }
}

#[test]
fn rejections_are_the_model_facing_message_with_every_path() {
    // Keys in sorted order: a `Value`'s map keeps them as written in one build and sorts them
    // in another, and the errors follow the map's order. Sorted, the two builds send the same.
    let sent = json!({"colour": "red", "customer_id": 7, "priority": "urgent", "quantity": -1});
    let error = serde_json::from_value::<Args<CreateOrder>>(sent.clone()).unwrap_err();
    let rejection = CreateOrder::from_arguments(&sent).unwrap_err();
    // `from_value` adds nothing to the message.
    assert_eq!(error.to_string(), rejection.to_string());
    for path in ["/customer_id", "/quantity", "/priority", "/colour"] {
        assert!(error.to_string().contains(&format!("- {path}: ")), "{error}");
    }
    insta::assert_snapshot!(error.to_string());

    // `from_str` adds serde_json's position after it.
    let error = serde_json::from_str::<Args<CreateOrder>>(&sent.to_string()).unwrap_err();
    assert!(error.to_string().starts_with(&rejection.to_string()), "{error}");
}

#[test]
fn the_tools_own_rules_run_and_join_the_message() {
    let sent = json!({"customer_id": "C-1", "quantity": 20, "priority": "low", "gift_wrap": "true"});
    let error = serde_json::from_value::<Args<CreateOrder>>(sent).unwrap_err().to_string();
    assert!(error.contains("tool `create_order`"), "{error}");
    assert!(error.contains("- /gift_wrap: gift wrap is for at most 10 items"), "{error}");
}

#[test]
fn what_is_not_an_object_is_refused_with_the_pipelines_message() {
    for sent in [json!([1, 2]), json!(3), json!(true), json!("[1]"), json!("not json at all {")] {
        let error = serde_json::from_value::<Args<CreateOrder>>(sent.clone()).unwrap_err().to_string();
        assert!(error.contains("tool `create_order`"), "{sent}: {error}");
    }
    // Text serde_json itself cannot read never reaches `Args`: serde_json's own error.
    let error = serde_json::from_str::<Args<CreateOrder>>("{'customer_id': 'C-1'}").unwrap_err();
    assert!(error.is_syntax(), "{error}");
}

#[test]
fn bytes_and_borrowed_text_are_read_as_text() {
    let text = r#"{"customer_id": "C-1", "quantity": 2, "priority": "high", "tags": ["vip"]}"#;
    let from_bytes = Args::<CreateOrder>::deserialize(
        serde::de::value::BytesDeserializer::<serde_json::Error>::new(text.as_bytes()),
    )
    .unwrap();
    assert_eq!(from_bytes.0, expected());
    let from_str = Args::<CreateOrder>::deserialize(serde::de::value::BorrowedStrDeserializer::<
        serde_json::Error,
    >::new(text))
    .unwrap();
    assert_eq!(from_str.into_inner(), expected());
    // Bytes that are not UTF-8 are a parse rejection, not a panic.
    let error = Args::<CreateOrder>::deserialize(
        serde::de::value::BytesDeserializer::<serde_json::Error>::new(b"{\xff}"),
    )
    .unwrap_err();
    assert!(error.to_string().contains("create_order"), "{error}");
}

#[test]
fn the_schema_is_the_tools_schema() {
    let schema = schemars::schema_for!(Args<CreateOrder>);
    assert_eq!(schema.as_value()["properties"], CreateOrder::schema()["properties"]);
    assert_eq!(schema.as_value()["required"], CreateOrder::schema()["required"]);
    // Inside another type's schema it stays whole, not a `$ref` to moved definitions.
    #[derive(JsonSchema)]
    #[allow(dead_code)]
    struct Envelope {
        arguments: Args<CreateOrder>,
    }
    let envelope = schemars::schema_for!(Envelope);
    assert_eq!(
        envelope.as_value()["properties"]["arguments"]["properties"],
        CreateOrder::schema()["properties"]
    );
}

/// A framework's tool contract, as rig, swiftide and hand-written servers write it: the
/// framework owns the deserialization and hands the error's text back to the model.
trait FrameworkTool {
    type Args: DeserializeOwned;
    fn run(&self, args: Self::Args) -> String;
}

fn framework_call<T: FrameworkTool>(tool: &T, arguments: &str) -> String {
    match serde_json::from_str::<T::Args>(arguments) {
        Ok(args) => tool.run(args),
        Err(error) => format!("error: {error}"),
    }
}

struct Orders;

impl FrameworkTool for Orders {
    type Args = Args<CreateOrder>;

    fn run(&self, Args(order): Args<CreateOrder>) -> String {
        format!("{} x{} for {}", order.priority_name(), order.quantity, order.customer_id)
    }
}

impl CreateOrder {
    fn priority_name(&self) -> &'static str {
        match self.priority {
            Priority::Low => "low",
            Priority::High => "high",
        }
    }
}

#[test]
fn through_a_frameworks_own_call_path() {
    let ok = framework_call(&Orders, r#"{"customer_id": "C-9", "quantity": "3", "priority": "High"}"#);
    assert_eq!(ok, "high x3 for C-9");
    // The arguments as the provider sent them, a JSON string in the framework's JSON.
    let double = serde_json::to_string("{'customer_id': 'C-9', 'quantity': 3, 'priority': 'low'}").unwrap();
    assert_eq!(framework_call(&Orders, &double), "low x3 for C-9");
    let refused = framework_call(&Orders, r#"{"customer_id": "C-9", "quantity": 3, "priority": "soon"}"#);
    assert!(
        refused.starts_with("error: The arguments for tool `create_order` were rejected (1 error)"),
        "{refused}"
    );
    assert!(refused.contains(r#"- /priority: "soon" is not one of "low", "high""#), "{refused}");
}
