//! [garde](https://docs.rs/garde) rules as a tool's own rules: a type that derives both
//! `garde::Validate` and [`ToolInput`] runs its garde rules after the schema checks, and a
//! failing rule reaches the model as a field error with its JSON Pointer path, in the same
//! message as any other.
//!
//! schemars writes garde's `length`, `range`, `pattern`, `email`, `url`, `contains` and
//! `required` into the schema the model sees, so those are enforced by the schema checks
//! (with this crate's own messages) before any garde rule runs; the rest (`ascii`,
//! `alphanumeric`, `prefix`, `suffix`, `custom`, …) are reported from garde's report.
//!
//! ```
//! use schemars::JsonSchema;
//! use serde::Deserialize;
//! use tool_input::ToolInput;
//!
//! /// Invite people to a meeting.
//! #[derive(Debug, Deserialize, JsonSchema, ToolInput, garde::Validate)]
//! #[serde(rename_all = "camelCase")]
//! #[tool_input(validate = tool_input::garde::validate)]
//! struct Invite {
//!     #[garde(ascii)]
//!     meeting_title: String,
//!     #[garde(inner(alphanumeric))]
//!     attendees: Vec<String>,
//! }
//!
//! let rejection = Invite::from_arguments(r#"{"meetingTitle": "Réunion", "attendees": ["al", "b e"]}"#).unwrap_err();
//! let paths: Vec<&str> = rejection.errors().iter().map(|e| e.path()).collect();
//! // The names the model sent (serde's `meetingTitle`), not the Rust field's.
//! assert_eq!(paths, ["/attendees/1", "/meetingTitle"]);
//! assert!(rejection.to_string().contains("- /meetingTitle: not ascii"));
//! ```

use crate::error::FieldError;
use crate::tool::ToolInput;

/// Run `T`'s garde rules: the function for `#[tool_input(validate = tool_input::garde::validate)]`
/// (with garde's default context). Every error of the report is a field error, see
/// [`field_errors`].
///
/// ```
/// use schemars::JsonSchema;
/// use serde::Deserialize;
/// use tool_input::ToolInput;
///
/// /// Tag a photo.
/// #[derive(Debug, Deserialize, JsonSchema, ToolInput, garde::Validate)]
/// #[tool_input(validate = tool_input::garde::validate)]
/// struct TagPhoto {
///     #[serde(rename = "tag")]
///     #[garde(alphanumeric)]
///     label: String,
/// }
///
/// assert!(TagPhoto::from_arguments(r#"{"tag": "beach2026"}"#).is_ok());
/// // Called directly, it gives the field errors, at the names the model sends.
/// let errors = tool_input::garde::validate(&TagPhoto { label: "sea side".into() }).unwrap_err();
/// assert_eq!(errors[0].path(), "/tag");
/// let rejection = TagPhoto::from_arguments(r#"{"tag": "sea side"}"#).unwrap_err();
/// assert!(rejection.to_string().contains("- /tag: "));
/// ```
pub fn validate<T>(value: &T) -> Result<(), Vec<FieldError>>
where
    T: ToolInput + garde::Validate,
    T::Context: Default,
{
    garde::Validate::validate(value).map_err(|report| field_errors::<T>(&report))
}

/// Every error of a `garde::Report` as a field error of code `custom`, with garde's message
/// and the error's path as a JSON Pointer (`attendees[0]` is `/attendees/0`).
///
/// garde names fields as Rust does; the first step of each path is given the name the model
/// sends instead (`T`'s serde name, after `rename` and `rename_all`), and the step of a
/// `#[serde(flatten)]` field is left out (its members are sent at the top level). A raw
/// identifier is named without its `r#` (`r#type` is `/type`). Steps below the first keep
/// garde's names, so a nested type that serde renames reports its Rust field names there.
///
/// ```
/// # use schemars::JsonSchema;
/// # use serde::Deserialize;
/// # use tool_input::ToolInput;
/// #[derive(Deserialize, JsonSchema, ToolInput, garde::Validate)]
/// struct Ping {
///     #[garde(range(min = 1, max = 5))]
///     count: u8,
/// }
///
/// let report = garde::Validate::validate(&Ping { count: 9 }).unwrap_err();
/// let errors = tool_input::garde::field_errors::<Ping>(&report);
/// assert_eq!(errors[0].path(), "/count");
/// assert_eq!(errors[0].code().code(), "custom");
/// ```
pub fn field_errors<T: ToolInput>(report: &garde::Report) -> Vec<FieldError> {
    report.iter().map(|(path, error)| field_error(path, error.message(), T::__FIELD_NAMES)).collect()
}

/// One error (not generic: one copy for every tool type).
fn field_error(path: &garde::error::Path, message: &str, renames: &[(&str, &str)]) -> FieldError {
    let mut error = FieldError::custom(message);
    // `__iter` is how garde's own `Display` reads a path: innermost step first.
    let steps = path.__iter().rev().filter(|(kind, _)| *kind != garde::error::Kind::None);
    for (depth, (kind, step)) in steps.enumerate() {
        let step = step.as_str();
        // garde names a field as its identifier is written: `r#type` for a field the model
        // sends as `type` (serde's name, and the Rust name `renames` holds, have no `r#`).
        // A key of a map would not start so.
        let step = match (kind, step.strip_prefix("r#")) {
            (garde::error::Kind::Key, Some(name)) if !name.is_empty() => name,
            _ => step,
        };
        let renamed = match depth {
            0 => renames.iter().find(|(rust, _)| *rust == step).map_or(step, |(_, serde)| serde),
            _ => step,
        };
        // A flattened field (no name of its own, `""`): its members are at the top level.
        if depth == 0 && renamed.is_empty() && !step.is_empty() {
            continue;
        }
        error = error.at(renamed);
    }
    error
}
