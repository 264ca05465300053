//! rig, offline: a derived type as a rig tool's `Args` through `tool_input::Args`, dispatched
//! by rig itself (its `ToolAdapter` handler served inline with a `ToolCall` effect, as rig's
//! drivers run tools), and a rejection that rig returns to the model as an `invalid_args`
//! tool result with the message and every path.

use rig_core::effect::{EffectKind, Outcome};
use rig_core::serve::adapters::ToolAdapter;
use rig_core::serve::{serve_inline, ErasedHandler};
use rig_core::tool::{DynamicTool, PortableTool, ToolErrorKind, ToolExecutionError, ToolOutput, ToolResult};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};
use tool_input::{Args, FieldError, ToolInput};

/// Book a room for a range of nights.
#[derive(Debug, Deserialize, JsonSchema, ToolInput)]
#[tool_input(validate = nights_in_order)]
struct BookRoom {
    hotel: String,
    first_night: u32,
    last_night: u32,
    kind: RoomKind,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum RoomKind {
    Single,
    Double,
}

fn nights_in_order(booking: &BookRoom) -> Result<(), Vec<FieldError>> {
    if booking.last_night < booking.first_night {
        return Err(vec![FieldError::custom(format!(
            "must not be before `first_night` ({})",
            booking.first_night
        ))
        .at("last_night")
        .with_value(booking.last_night)]);
    }
    Ok(())
}

struct Booking;

impl PortableTool for Booking {
    const NAME: &'static str = BookRoom::NAME;
    type Args = Args<BookRoom>;
    type Output = Value;
    type Error = ToolExecutionError;

    fn description(&self) -> String {
        BookRoom::DESCRIPTION.unwrap_or_default().to_owned()
    }

    fn parameters(&self) -> Value {
        BookRoom::schema().clone()
    }

    async fn call(&self, Args(booking): Args<BookRoom>) -> Result<Value, ToolExecutionError> {
        let kind = match booking.kind {
            RoomKind::Single => "single",
            RoomKind::Double => "double",
        };
        Ok(
            json!({"hotel": booking.hotel, "nights": booking.last_night - booking.first_night + 1, "kind": kind}),
        )
    }
}

/// One tool call through rig's own dispatch: the handler rig's drivers hold, served inline.
fn dispatch(handler: &ErasedHandler, name: &str, args: &str) -> ToolResult {
    let kind = EffectKind::ToolCall { name: name.to_owned(), args: args.to_owned() };
    let outcome = block_on(serve_inline(handler, kind)).expect("rig served the call");
    match outcome {
        Outcome::ToolResult { result } => result,
        other => panic!("not a tool result: {:?}", other.family()),
    }
}

fn block_on<F: std::future::Future>(future: F) -> F::Output {
    futures_executor::block_on(future)
}

fn handler() -> ErasedHandler {
    ErasedHandler::new(ToolAdapter::new(Booking))
}

#[test]
fn coerced_arguments_run_the_tool() {
    let result = dispatch(
        &handler(),
        "book_room",
        r#"{"hotel": "Ritz", "first_night": "3", "last_night": 5.0, "kind": "Double"}"#,
    );
    assert!(result.is_success(), "{:?}", result.output());
    assert_eq!(result.output().as_json(), Some(&json!({"hotel": "Ritz", "nights": 3, "kind": "double"})));
}

#[test]
fn arguments_sent_as_a_mangled_json_string_are_read() {
    let mangled = "```json\n{hotel: 'Ritz', first_night: 3, last_night: 4, kind: 'single',}\n```";
    let result = dispatch(&handler(), "book_room", &serde_json::to_string(mangled).unwrap());
    assert!(result.is_success(), "{:?}", result.output());
    assert_eq!(result.output().as_json().unwrap()["nights"], 2);
}

#[test]
fn a_rejection_reaches_the_model_with_every_path() {
    let result = dispatch(
        &handler(),
        "book_room",
        r#"{"hotel": "Ritz", "first_night": 3, "kind": "suite", "view": "sea"}"#,
    );
    assert!(result.is_error_kind(ToolErrorKind::InvalidArgs));
    let text = result.output().as_text().expect("text for the model");
    assert!(
        text.starts_with(
            "failed to parse tool arguments: The arguments for tool `book_room` were rejected (3 errors)"
        ),
        "{text}"
    );
    for line in [
        "- /last_night: ",
        r#"- /kind: "suite" is not one of "single", "double""#,
        "- /view: unknown property",
    ] {
        assert!(text.contains(line), "{line} in {text}");
    }
}

#[test]
fn the_tools_own_rule_reaches_the_model_too() {
    let result = dispatch(
        &handler(),
        "book_room",
        r#"{"hotel": "Ritz", "first_night": 5, "last_night": 2, "kind": "single"}"#,
    );
    assert!(result.is_error_kind(ToolErrorKind::InvalidArgs));
    let text = result.output().as_text().unwrap();
    assert!(text.contains("- /last_night: must not be before `first_night` (5)"), "{text}");
}

#[test]
fn the_definition_rig_publishes_is_ours() {
    let from_rig = rig_core::tool::tool_definition(&Booking);
    let ours = tool_input::rig::tool_definition(BookRoom::definition()).unwrap();
    assert_eq!(from_rig, ours);
    assert_eq!(ours.description, "Book a room for a range of nights.");
    assert_eq!(ours.parameters["required"], json!(["hotel", "first_night", "last_night", "kind"]));
}

#[test]
fn a_dynamic_tool_maps_a_rejection_with_question_mark() {
    let tool = DynamicTool::new(
        rig_core::message::ToolName::new("book_room").unwrap(),
        "Book a room.",
        BookRoom::schema().clone(),
        |arguments: Value| {
            Box::pin(async move {
                let booking = BookRoom::from_arguments(&arguments)?;
                Ok(ToolOutput::text(booking.hotel))
            })
        },
    );
    let ok =
        block_on(tool.execute(json!({"hotel": "Ritz", "first_night": 1, "last_night": 1, "kind": "single"})));
    assert_eq!(ok.unwrap().as_text(), Some("Ritz"));
    let error = block_on(tool.execute(json!({"hotel": "Ritz"}))).unwrap_err();
    assert_eq!(error.kind(), ToolErrorKind::InvalidArgs);
    assert_eq!(error.code(), Some("invalid"));
    let text = error.model_feedback().unwrap();
    assert!(text.contains("- /first_night: ") && text.contains("- /kind: "), "{text}");
    assert!(error.downcast_ref::<tool_input::Rejection>().is_some());
}

/// This crate's adapter: rig hands it the raw text, which goes through the whole pipeline.
fn reading_handler() -> ErasedHandler {
    ErasedHandler::new(tool_input::rig::ToolAdapter::new(Booking))
}

const PYTHON_DICT: &str = "{'hotel': 'Ritz', 'first_night': 3, 'last_night': '4', 'kind': 'Single',}";

#[test]
fn a_python_dict_runs_the_tool_through_this_crates_adapter() {
    let result = dispatch(&reading_handler(), "book_room", PYTHON_DICT);
    assert!(result.is_success(), "{:?}", result.output());
    assert_eq!(result.output().as_json(), Some(&json!({"hotel": "Ritz", "nights": 2, "kind": "single"})));
    // Prose and a fence around it, as a model without a tool parser writes.
    let fenced = format!("Booking now.\n```python\n{PYTHON_DICT}\n```");
    assert!(dispatch(&reading_handler(), "book_room", &fenced).is_success());
}

#[test]
fn through_this_crates_adapter_a_refusal_names_the_tool_and_every_path() {
    let result =
        dispatch(&reading_handler(), "book_room", "{'hotel': 'Ritz', 'first_night': 3, 'kind': 'suite'}");
    assert!(result.is_error_kind(ToolErrorKind::InvalidArgs));
    let text = result.output().as_text().unwrap();
    assert!(text.starts_with("The arguments for tool `book_room` were rejected (2 errors)"), "{text}");
    assert!(text.contains("- /last_night: ") && text.contains(r#"- /kind: "suite" is not one of"#), "{text}");
    // Its own rule, and text with no arguments in it at all.
    let rule = dispatch(
        &reading_handler(),
        "book_room",
        "{'hotel': 'R', 'first_night': 5, 'last_night': 2, 'kind': 'single'}",
    );
    assert!(rule.output().as_text().unwrap().contains("- /last_night: must not be before `first_night` (5)"));
    let prose = dispatch(&reading_handler(), "book_room", "I cannot decide which hotel.");
    let text = prose.output().as_text().unwrap();
    assert!(prose.is_error_kind(ToolErrorKind::InvalidArgs));
    assert!(text.contains("`book_room`"), "{text}");
}

#[test]
fn this_crates_adapter_is_rigs_for_everything_else() {
    let ours = reading_handler();
    let rigs = handler();
    assert_eq!(ours.descriptor(), rigs.descriptor());
    // The same answers to valid JSON, and the same refusal of another tool's call.
    let valid = r#"{"hotel": "Ritz", "first_night": 1, "last_night": 1, "kind": "double"}"#;
    assert_eq!(dispatch(&ours, "book_room", valid).output(), dispatch(&rigs, "book_room", valid).output());
    let kind = EffectKind::ToolCall { name: "other".to_owned(), args: "{}".to_owned() };
    assert!(block_on(serve_inline(&ours, kind)).is_err());
}

#[test]
fn through_rigs_own_adapter_a_python_dict_is_refused_by_serde_json() {
    // What rig's adapter does with text that is not JSON: serde_json refuses it before
    // `Args` sees it. The reason to serve the tool with this crate's adapter.
    let result = dispatch(&handler(), "book_room", PYTHON_DICT);
    assert!(result.is_error_kind(ToolErrorKind::InvalidArgs));
    assert!(result
        .output()
        .as_text()
        .unwrap()
        .starts_with("failed to parse tool arguments: key must be a string"));
}

/// A rig tool whose rig name is not its arguments type's own name.
struct Reservation;

impl PortableTool for Reservation {
    const NAME: &'static str = "reserve";
    type Args = Args<BookRoom>;
    type Output = String;
    type Error = ToolExecutionError;

    fn description(&self) -> String {
        "Reserve a room.".to_owned()
    }

    fn parameters(&self) -> Value {
        BookRoom::schema().clone()
    }

    async fn call(&self, Args(booking): Args<BookRoom>) -> Result<String, ToolExecutionError> {
        Ok(booking.hotel)
    }
}

#[test]
fn through_this_crates_adapter_a_refusal_names_the_tool_the_model_called() {
    // The model called `reserve`: the message must not tell it about `book_room`, a tool it
    // was never shown.
    let handler = ErasedHandler::new(tool_input::rig::ToolAdapter::new(Reservation));
    let result = dispatch(&handler, "reserve", "{'hotel': 'Ritz'}");
    assert!(result.is_error_kind(ToolErrorKind::InvalidArgs));
    let text = result.output().as_text().unwrap();
    assert!(text.starts_with("The arguments for tool `reserve` were rejected (3 errors)"), "{text}");
    assert!(!text.contains("book_room"), "{text}");
    let valid = "{'hotel': 'Ritz', 'first_night': 1, 'last_night': 1, 'kind': 'double'}";
    assert_eq!(dispatch(&handler, "reserve", valid).output().as_text(), Some("Ritz"));
}
