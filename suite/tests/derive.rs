//! What `#[derive(ToolInput)]` generates: the constants, the per-type definition, and an
//! expansion that passes strict lints.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;
use tool_input::{FieldOptions, Policy, ToolInput};

/// The `description` schemars puts in the type's schema, which `DESCRIPTION` must repeat.
fn schema_description<T: JsonSchema>() -> Option<String> {
    schemars::schema_for!(T).get("description").and_then(Value::as_str).map(str::to_owned)
}

mod name {
    use super::*;

    #[derive(Deserialize, JsonSchema, ToolInput)]
    struct CreateOrder {
        _id: String,
    }

    #[derive(Deserialize, JsonSchema, ToolInput)]
    struct GetHTTPStatus {
        _url: String,
    }

    #[derive(Deserialize, JsonSchema, ToolInput)]
    #[allow(non_camel_case_types)]
    struct r#Move {
        _to: String,
    }

    #[derive(Deserialize, JsonSchema, ToolInput)]
    #[tool_input(name = "orders-Create_v2")]
    struct Explicit {
        _id: String,
    }

    #[test]
    fn the_type_name_in_snake_case() {
        assert_eq!(CreateOrder::NAME, "create_order");
        assert_eq!(GetHTTPStatus::NAME, "get_http_status");
        assert_eq!(r#Move::NAME, "move");
    }

    #[test]
    fn an_explicit_name() {
        assert_eq!(Explicit::NAME, "orders-Create_v2");
    }
}

mod description {
    use super::*;

    /// Create an order for a customer.
    #[derive(Deserialize, JsonSchema, ToolInput)]
    struct OneLine {
        _id: String,
    }

    /// Create an order.
    ///
    /// The customer must exist;   
    /// the order starts as a draft.
    #[derive(Deserialize, JsonSchema, ToolInput)]
    struct MultiLine {
        _id: String,
    }

    /**
       Block comment,
       indented.
    */
    #[derive(Deserialize, JsonSchema, ToolInput)]
    struct Block {
        _id: String,
    }

    /// # Orders
    ///
    /// Create an order.
    #[derive(Deserialize, JsonSchema, ToolInput)]
    struct Titled {
        _id: String,
    }

    /// # Only a title
    #[derive(Deserialize, JsonSchema, ToolInput)]
    struct OnlyTitle {
        _id: String,
    }

    #[derive(Deserialize, JsonSchema, ToolInput)]
    struct Undocumented {
        _id: String,
    }

    /// Not shown: the attribute wins.
    #[derive(Deserialize, JsonSchema, ToolInput)]
    #[tool_input(description = "Create an order.")]
    struct Explicit {
        _id: String,
    }

    // A doc line only the compiler can read takes the constant-evaluated path.
    /// Create an order
    #[doc = concat!("for ", "a customer.")]
    #[derive(Deserialize, JsonSchema, ToolInput)]
    struct FromMacro {
        _id: String,
    }

    /// # Title
    #[doc = concat!("")]
    #[derive(Deserialize, JsonSchema, ToolInput)]
    struct FromMacroOnlyTitle {
        _id: String,
    }

    #[test]
    fn from_the_doc_comment() {
        assert_eq!(OneLine::DESCRIPTION, Some("Create an order for a customer."));
        assert_eq!(
            MultiLine::DESCRIPTION,
            Some("Create an order.\n\nThe customer must exist;   \nthe order starts as a draft.")
        );
        assert_eq!(Titled::DESCRIPTION, Some("Create an order."));
        assert_eq!(OnlyTitle::DESCRIPTION, None);
        assert_eq!(Undocumented::DESCRIPTION, None);
        assert_eq!(FromMacro::DESCRIPTION, Some("Create an order\nfor a customer."));
        assert_eq!(FromMacroOnlyTitle::DESCRIPTION, None);
    }

    #[test]
    fn the_same_as_the_schema_description() {
        fn same<T: ToolInput>() {
            assert_eq!(T::DESCRIPTION.map(str::to_owned), schema_description::<T>(), "{}", T::NAME);
        }
        same::<OneLine>();
        same::<MultiLine>();
        same::<Block>();
        same::<Titled>();
        same::<OnlyTitle>();
        same::<Undocumented>();
        same::<FromMacro>();
        same::<FromMacroOnlyTitle>();
    }

    #[test]
    fn an_explicit_description() {
        assert_eq!(Explicit::DESCRIPTION, Some("Create an order."));
    }
}

mod fields {
    use super::*;

    #[derive(Deserialize, JsonSchema, ToolInput)]
    #[allow(dead_code)]
    struct Login {
        user: String,
        #[tool_input(sensitive)]
        password: String,
        #[tool_input(strict)]
        #[serde(rename = "otp")]
        one_time_code: Option<u32>,
        #[tool_input(lenient, sensitive)]
        remember: bool,
        #[tool_input(policy = "default")]
        r#type: String,
        #[tool_input()]
        empty: Option<String>,
    }

    #[derive(Deserialize, JsonSchema, ToolInput)]
    #[serde(rename_all = "camelCase")]
    #[allow(dead_code)]
    struct Renamed {
        customer_id: String,
        #[tool_input(strict)]
        max_amount_cents: u64,
        #[tool_input(sensitive)]
        #[serde(rename = "CARD")]
        card_number: String,
        #[tool_input(policy = "lenient")]
        #[serde(alias = "tagList")]
        tag_list: Vec<String>,
    }

    #[derive(Deserialize, JsonSchema, ToolInput)]
    #[serde(rename_all(deserialize = "SCREAMING-KEBAB-CASE", serialize = "camelCase"))]
    #[allow(dead_code)]
    struct DeserializeName {
        #[tool_input(strict)]
        max_amount: u64,
        #[tool_input(strict)]
        #[serde(rename(serialize = "a", deserialize = "b"))]
        renamed: u64,
    }

    #[derive(Deserialize, JsonSchema, ToolInput)]
    #[allow(dead_code)]
    struct NoOptions {
        user: String,
    }

    const fn options(name: &'static str, policy: Option<Policy>, sensitive: bool) -> FieldOptions {
        let options = FieldOptions::new(name).with_sensitive(sensitive);
        match policy {
            Some(policy) => options.with_policy(policy),
            None => options,
        }
    }

    #[test]
    fn only_fields_with_options_in_declaration_order() {
        assert_eq!(
            Login::FIELDS,
            [
                options("password", None, true),
                options("otp", Some(Policy::Strict), false),
                options("remember", Some(Policy::Lenient), true),
                options("type", Some(Policy::Default), false),
            ]
        );
        assert_eq!(NoOptions::FIELDS, []);
    }

    #[test]
    fn the_names_serde_deserializes() {
        assert_eq!(
            Renamed::FIELDS,
            [
                options("maxAmountCents", Some(Policy::Strict), false),
                options("CARD", None, true),
                options("tagList", Some(Policy::Lenient), false),
            ]
        );
        assert_eq!(
            DeserializeName::FIELDS,
            [options("MAX-AMOUNT", Some(Policy::Strict), false), options("b", Some(Policy::Strict), false)]
        );
    }

    #[test]
    fn the_names_are_the_schema_properties() {
        let schema = schemars::schema_for!(Renamed).to_value();
        for field in Renamed::FIELDS {
            assert!(schema["properties"].get(field.name).is_some(), "{}", field.name);
        }
    }
}

mod policy {
    use super::*;

    #[derive(Deserialize, JsonSchema, ToolInput)]
    #[tool_input(policy = "strict")]
    struct Strict {
        _id: String,
    }

    #[derive(Deserialize, JsonSchema, ToolInput)]
    #[tool_input(policy = "lenient")]
    struct Lenient {
        _id: String,
    }

    #[derive(Deserialize, JsonSchema, ToolInput)]
    #[tool_input(policy = "default")]
    struct Default {
        _id: String,
    }

    #[derive(Deserialize, JsonSchema, ToolInput)]
    struct Unset {
        _id: String,
    }

    #[test]
    fn the_container_policy() {
        assert_eq!(Strict::POLICY, Some(Policy::Strict));
        assert_eq!(Lenient::POLICY, Some(Policy::Lenient));
        assert_eq!(Default::POLICY, Some(Policy::Default));
        assert_eq!(Unset::POLICY, None);
    }
}

mod renamed_crate {
    use super::*;

    /// The runtime under another path, as when a framework re-exports it.
    mod framework {
        pub use ::tool_input as tools;
    }

    /// Look it up.
    #[derive(Deserialize, JsonSchema, ToolInput)]
    #[tool_input(crate = "framework::tools", name = "look_up", policy = "strict")]
    struct LookUp {
        #[tool_input(sensitive)]
        _key: String,
    }

    #[test]
    fn through_the_given_path() {
        assert_eq!(LookUp::NAME, "look_up");
        assert_eq!(LookUp::DESCRIPTION, Some("Look it up."));
        assert_eq!(LookUp::POLICY, Some(Policy::Strict));
        assert_eq!(LookUp::FIELDS, [FieldOptions::new("_key").with_sensitive(true)]);
    }
}

mod definition {
    use super::*;

    /// Get the weather.
    #[derive(Deserialize, JsonSchema, ToolInput)]
    #[allow(dead_code)]
    struct GetWeather {
        city: String,
    }

    /// One page of results.
    #[derive(Deserialize, JsonSchema, ToolInput)]
    #[allow(dead_code)]
    struct Page<T> {
        items: Vec<T>,
    }

    #[derive(Deserialize, JsonSchema, ToolInput)]
    #[allow(dead_code)]
    struct Fixed<const N: usize> {
        items: Vec<u8>,
        #[serde(skip)]
        _n: std::marker::PhantomData<[(); N]>,
    }

    #[test]
    fn built_once() {
        let definition = GetWeather::definition();
        assert!(std::ptr::eq(definition, GetWeather::definition()));
        assert_eq!(definition.name(), "get_weather");
        assert_eq!(definition.description(), Some("Get the weather."));
    }

    #[test]
    fn one_per_instantiation_of_a_generic_type() {
        let strings = Page::<String>::definition();
        let numbers = Page::<u32>::definition();
        assert!(std::ptr::eq(strings, Page::<String>::definition()));
        assert!(!std::ptr::eq(strings, numbers));
        assert_ne!(strings.schema(), numbers.schema());
        assert_eq!(Page::<u32>::NAME, "page");

        assert!(!std::ptr::eq(Fixed::<1>::definition(), Fixed::<2>::definition()));
    }
}

/// The options reach the runtime: the field and tool policies and `sensitive` take effect.
mod end_to_end {
    use super::*;

    /// Book a table.
    #[derive(Debug, Deserialize, JsonSchema, ToolInput)]
    #[serde(rename_all = "camelCase")]
    struct BookTable {
        party_size: u8,
        #[tool_input(strict)]
        table_number: u8,
        #[tool_input(sensitive)]
        phone_number: u32,
    }

    /// Look something up.
    #[derive(Debug, Deserialize, JsonSchema, ToolInput)]
    #[tool_input(policy = "strict")]
    struct StrictTool {
        count: u8,
    }

    #[test]
    fn a_valid_call() {
        let booking =
            BookTable::from_arguments(r#"{"partySize": "4", "tableNumber": 7, "phoneNumber": 5550100}"#)
                .unwrap();
        assert_eq!((booking.party_size, booking.table_number, booking.phone_number), (4, 7, 5_550_100));
    }

    #[test]
    fn a_strict_field_is_not_coerced() {
        let rejection =
            BookTable::from_arguments(r#"{"partySize": 4, "tableNumber": "7", "phoneNumber": 5550100}"#)
                .unwrap_err();
        assert!(rejection.to_string().contains("/tableNumber"), "{rejection}");
    }

    #[test]
    fn a_sensitive_value_is_not_echoed() {
        let rejection =
            BookTable::from_arguments(r#"{"partySize": 4, "tableNumber": 7, "phoneNumber": "secret-55501"}"#)
                .unwrap_err();
        let text = rejection.to_string();
        assert!(text.contains("/phoneNumber"), "{text}");
        assert!(!text.contains("secret-55501"), "{text}");
    }

    #[test]
    fn the_tool_policy() {
        assert_eq!(StrictTool::from_arguments(r#"{"count": 3}"#).unwrap().count, 3);
        assert!(StrictTool::from_arguments(r#"{"count": "3"}"#).is_err());
    }
}
