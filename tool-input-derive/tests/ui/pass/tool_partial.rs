//! The partial type `#[derive(ToolInput)]` writes: its name (renamed, switched off and written
//! by `#[derive(PartialValue)]` instead), its visibility, a field of a type with no partial
//! form (the tool compiles; `stream_whole` shows it whole), a field serde reads by function.

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer};
use tool_input::partial::{FieldState, PartialReader};
use tool_input::{PartialValue, ToolInput};

mod tools {
    use super::*;

    /// Save a draft.
    #[derive(Deserialize, JsonSchema, ToolInput)]
    #[allow(dead_code)]
    pub struct SaveDraft {
        pub title: String,
    }

    /// A name the user already took.
    #[allow(dead_code)]
    pub struct SendMailPartial;

    /// Send a mail.
    #[derive(Deserialize, JsonSchema, ToolInput)]
    #[tool_input(partial(rename = "SendMailSoFar"))]
    #[allow(dead_code)]
    pub struct SendMail {
        pub to: String,
    }
}

/// A type with no partial form (no `PartialValue`): the tool still compiles.
#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
pub struct Point {
    x: i32,
    y: i32,
}

/// Plot a point.
#[derive(Deserialize, JsonSchema, ToolInput)]
#[allow(dead_code)]
struct Plot {
    label: String,
    at: Point,
}

/// Plot a point, shown whole.
#[derive(Deserialize, JsonSchema, ToolInput)]
#[allow(dead_code)]
struct PlotWhole {
    label: String,
    #[tool_input(stream_whole)]
    at: Point,
    #[serde(deserialize_with = "doubled")]
    #[schemars(with = "u32")]
    scale: u32,
}

fn doubled<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u32, D::Error> {
    u32::deserialize(deserializer).map(|value| value * 2)
}

/// Switched off, and written by the other derive.
#[derive(Deserialize, JsonSchema, ToolInput, PartialValue)]
#[tool_input(partial = false)]
#[allow(dead_code)]
struct Both {
    name: String,
}

/// Switched off: no partial type at all.
#[derive(Deserialize, JsonSchema, ToolInput)]
#[tool_input(partial = false)]
#[allow(dead_code)]
struct Plain {
    name: String,
}
#[allow(dead_code)]
struct PlainPartial;

fn partial_of<T: PartialValue>(text: &str) -> FieldState<T::Partial> {
    let mut reader = PartialReader::<T>::new();
    reader.feed(text);
    reader.finish().unwrap()
}

fn main() {
    let draft: tools::SaveDraftPartial = partial_of::<tools::SaveDraft>(r#"{"title": "Hi"}"#).complete().cloned().unwrap();
    assert_eq!(draft.title, FieldState::Complete("Hi".to_owned()));
    let mail: tools::SendMailSoFar = partial_of::<tools::SendMail>(r#"{"to": "a@b"}"#).complete().cloned().unwrap();
    assert_eq!(mail.to, FieldState::Complete("a@b".to_owned()));

    let plot = partial_of::<PlotWhole>(r#"{"label": "o", "at": {"x": 1, "y": 2}, "scale": 3}"#);
    let plot: &PlotWholePartial = plot.complete().unwrap();
    assert_eq!(plot.at, FieldState::Complete(Point { x: 1, y: 2 }));
    assert_eq!(plot.scale, FieldState::Complete(6));
    assert_eq!(Plot::NAME, "plot");

    let both: BothPartial = partial_of::<Both>(r#"{"name": "n"}"#).complete().cloned().unwrap();
    assert_eq!(both.name, FieldState::Complete("n".to_owned()));
    assert_eq!(Plain::NAME, "plain");
}
