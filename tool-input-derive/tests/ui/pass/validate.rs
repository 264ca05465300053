use schemars::JsonSchema;
use serde::Deserialize;
use tool_input::{FieldError, ToolInput};

mod rules {
    use super::*;

    pub fn nights(booking: &Booking) -> Result<(), Vec<FieldError>> {
        if booking.last < booking.first {
            return Err(vec![FieldError::custom("must not be before `first`").at("last")]);
        }
        Ok(())
    }

    pub fn generic<T>(_: &T) -> Result<(), Vec<FieldError>> {
        Err(vec![FieldError::custom("never")])
    }
}

/// Book nights.
#[derive(Debug, Deserialize, JsonSchema, ToolInput)]
#[tool_input(validate = rules::nights)]
struct Booking {
    first: u32,
    last: u32,
}

/// The path in a string, as serde's `with` is written; a generic function, inferred.
#[derive(Deserialize, JsonSchema, ToolInput)]
#[tool_input(validate = "rules::generic")]
struct Never {
    #[allow(dead_code)]
    n: u32,
}

// From a macro, the path arriving as a `$path:path` fragment.
macro_rules! tool_with_rule {
    ($name:ident, $rule:path) => {
        #[derive(Deserialize, JsonSchema, ToolInput)]
        #[tool_input(validate = $rule)]
        struct $name {
            first: u32,
            last: u32,
        }
    };
}

mod other {
    use super::*;

    pub fn check(value: &super::Stay) -> Result<(), Vec<FieldError>> {
        if value.first == value.last {
            return Err(vec![FieldError::custom("same night").at("last")]);
        }
        Ok(())
    }
}

tool_with_rule!(Stay, other::check);

fn main() {
    assert!(Booking::from_arguments(r#"{"first": 1, "last": 2}"#).is_ok());
    let rejection = Booking::from_arguments(r#"{"first": 3, "last": 2}"#).unwrap_err();
    assert_eq!(rejection.errors()[0].path(), "/last");
    assert!(Never::from_arguments(r#"{"n": 1}"#).is_err());
    assert!(Stay::from_arguments(r#"{"first": 1, "last": 2}"#).is_ok());
    assert!(Stay::from_arguments(r#"{"first": 2, "last": 2}"#).is_err());
}
