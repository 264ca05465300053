//! Messages that list a schema's properties ("allowed: ...", a did-you-mean's candidates)
//! follow the order the schema wrote them in, whether serde_json's `preserve_order` feature is
//! on in the build or not. Run in both: `cargo test -p tool-input-suite --test key_order` and
//! again with `--features preserve_order` (`--all-features` builds have it).

#[macro_use]
mod common;
use common::keys_keep_insertion_order;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use tool_input::{ErrorCode, ToolInput, Validator};

#[allow(dead_code)]
#[derive(Debug, Deserialize, JsonSchema, ToolInput)]
#[serde(deny_unknown_fields)]
struct Shipment {
    zone: String,
    parcels: Vec<Parcel>,
    #[serde(rename = "contactEmail")]
    contact_email: Option<String>,
    area: u8,
}

#[allow(dead_code)]
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Parcel {
    weight: u32,
    label: Option<String>,
    dimensions: Option<Box<Dimensions>>,
}

#[allow(dead_code)]
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Dimensions {
    width: u32,
    height: u32,
    depth: u32,
}

fn options_of(rejection: &tool_input::Rejection, path: &str) -> Vec<String> {
    let error = rejection.errors().iter().find(|error| error.path() == path).expect("an error at the path");
    assert_eq!(error.code(), ErrorCode::UnknownField);
    error.options().iter().map(|option| option.as_str().unwrap_or_default().to_owned()).collect()
}

#[test]
fn a_derived_type_lists_its_fields_in_declaration_order_in_every_build() {
    let rejection = Shipment::from_arguments(
        r#"{"zone": "EU", "area": 1, "zona": 2,
            "parcels": [{"weight": 1, "lable": "x", "dimensions": {"width": 1, "height": 2, "depth": 3, "deep": 4}}]}"#,
    )
    .unwrap_err();
    assert_eq!(options_of(&rejection, "/zona"), ["zone", "parcels", "contactEmail", "area"]);
    assert_eq!(options_of(&rejection, "/parcels/0/lable"), ["weight", "label", "dimensions"]);
    assert_eq!(options_of(&rejection, "/parcels/0/dimensions/deep"), ["width", "height", "depth"]);
    let message = rejection.to_string();
    assert!(message.contains(r#"allowed: "zone", "parcels", "contactEmail", "area""#), "{message}");
    assert!(
        message.contains(r#"did you mean "label"? allowed: "weight", "label", "dimensions""#),
        "{message}"
    );
}

#[test]
fn a_schema_given_as_text_lists_properties_in_the_texts_order_in_every_build() {
    let text = r#"{"type": "object", "additionalProperties": false,
        "properties": {"zone": {}, "box": {"type": "object", "additionalProperties": false,
                                            "properties": {"y": {}, "x": {}, "b": {}}},
                       "area": {}},
        "required": ["zone", "area"]}"#;
    let validator = Validator::from_text(text).unwrap();
    let rejection = validator.check(r#"{"zone": 1, "area": 2, "zonee": 3, "box": {"a": 1}}"#).unwrap_err();
    assert_eq!(options_of(&rejection, "/zonee"), ["zone", "box", "area"]);
    assert_eq!(options_of(&rejection, "/box/a"), ["y", "x", "b"]);
    let missing = validator.check(r#"{}"#).unwrap_err();
    let paths: Vec<&str> = missing.errors().iter().map(|error| error.path()).collect();
    assert_eq!(paths, ["/zone", "/area"], "required names in the `required` array's order");
    assert!(Validator::from_text("{").is_err());
    assert!(Validator::builder_from_text("[1, ").is_err());
}

#[test]
fn a_schema_given_as_a_value_lists_properties_in_the_values_order() {
    // A `Value` keeps the text's order only where serde_json's `preserve_order` is on; else
    // its keys are sorted, and so is the list. `Validator::from_text` keeps the text's.
    let schema =
        json!({"type": "object", "additionalProperties": false, "properties": {"zone": {}, "area": {}}});
    let rejection = Validator::new(&schema).unwrap().check(r#"{"zonee": 1}"#).unwrap_err();
    let expected = if keys_keep_insertion_order() { ["zone", "area"] } else { ["area", "zone"] };
    assert_eq!(options_of(&rejection, "/zonee"), expected);
}
