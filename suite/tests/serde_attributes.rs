//! serde's container, variant and field attributes, each read by `from_arguments` beside
//! serde's own reading of the same text (`serde_json::from_str`): the same value, or both
//! refuse. Where tool-input cannot follow serde it refuses the attribute at compile time
//! (tool-input-derive's ui tests); the table in the README's derive section sums them up.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use tool_input::{CoercionKind, ToolInput};

/// serde and tool-input read `text` alike: both give the same value, or both refuse it.
#[track_caller]
fn agree<T: ToolInput + PartialEq + std::fmt::Debug>(text: &str) -> Option<T> {
    let by_serde = serde_json::from_str::<T>(text);
    let ours = T::from_arguments(text);
    match (by_serde, ours) {
        (Ok(by_serde), Ok(ours)) => {
            assert_eq!(by_serde, ours, "{text}");
            Some(ours)
        }
        (Err(_), Err(_)) => None,
        (by_serde, ours) => panic!("serde and tool-input disagree on {text}: {by_serde:?} vs {ours:?}"),
    }
}

#[track_caller]
fn accepted<T: ToolInput + PartialEq + std::fmt::Debug>(text: &str) -> T {
    agree::<T>(text).unwrap_or_else(|| panic!("both refused {text}"))
}

mod rename {
    use super::*;

    #[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
    #[serde(rename_all = "camelCase")]
    struct Order {
        customer_id: String,
        #[serde(rename = "qty")]
        quantity: u32,
        speed: Speed,
        shipping: Shipping,
    }

    #[derive(Debug, PartialEq, Deserialize, JsonSchema)]
    #[serde(rename_all = "SCREAMING_SNAKE_CASE")]
    enum Speed {
        NextDay,
        #[serde(rename = "slow")]
        Standard,
    }

    #[derive(Debug, PartialEq, Deserialize, JsonSchema)]
    #[serde(tag = "kind", rename_all = "snake_case", rename_all_fields = "camelCase")]
    enum Shipping {
        Pickup { store_id: u32 },
        Courier { street_name: String, floor_number: u8 },
    }

    #[test]
    fn rename_rename_all_and_rename_all_fields() {
        let order = accepted::<Order>(
            r#"{"customerId": "C-1", "qty": 2, "speed": "NEXT_DAY", "shipping": {"kind": "courier", "streetName": "Main", "floorNumber": 3}}"#,
        );
        assert_eq!(order.shipping, Shipping::Courier { street_name: "Main".into(), floor_number: 3 });
        accepted::<Order>(
            r#"{"customerId": "C-1", "qty": 2, "speed": "slow", "shipping": {"kind": "pickup", "storeId": 7}}"#,
        );
        // The Rust names are not what serde reads.
        agree::<Order>(
            r#"{"customer_id": "C-1", "quantity": 2, "speed": "slow", "shipping": {"kind": "pickup", "storeId": 7}}"#,
        );
        agree::<Order>(
            r#"{"customerId": "C-1", "qty": 2, "speed": "Standard", "shipping": {"kind": "pickup", "storeId": 7}}"#,
        );
        agree::<Order>(
            r#"{"customerId": "C-1", "qty": 2, "speed": "slow", "shipping": {"kind": "pickup", "store_id": 7}}"#,
        );
    }
}

mod alias {
    use super::*;

    #[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
    struct Greet {
        #[serde(alias = "nm", alias = "full_name")]
        name: String,
        #[tool_input(sensitive)]
        #[serde(alias = "pin_code")]
        pin: Option<String>,
    }

    #[test]
    fn an_alias_reads_as_its_field_and_is_recorded() {
        let greet = accepted::<Greet>(r#"{"nm": "Ada"}"#);
        assert_eq!(greet.name, "Ada");
        accepted::<Greet>(r#"{"full_name": "Ada", "pin_code": "1234"}"#);
        let checked = Greet::from_arguments_with_report(r#"{"nm": "Ada"}"#).unwrap();
        let record = &checked.report.coercions[0];
        assert_eq!((record.kind, record.path.as_str()), (CoercionKind::Alias, "/name"));
        assert_eq!((record.from.as_deref(), record.to.as_deref()), (Some("\"nm\""), Some("\"name\"")));
        // The name itself is not a change.
        assert!(Greet::from_arguments_with_report(r#"{"name": "Ada"}"#).unwrap().report.is_clean());
    }

    #[test]
    fn the_schema_names_the_field_only() {
        let schema = Greet::schema();
        assert_eq!(schema["required"], json!(["name"]));
        assert!(schema["properties"].get("nm").is_none());
    }

    #[test]
    fn an_alias_beside_its_name_is_a_key_given_twice() {
        // Two values: the error of a key given twice.
        let rejection = Greet::from_arguments(r#"{"nm": "Ada", "name": "Bob"}"#).unwrap_err();
        assert!(serde_json::from_str::<Greet>(r#"{"nm": "Ada", "name": "Bob"}"#).is_err());
        assert_eq!(rejection.errors()[0].code().code(), "duplicate_key");
        assert_eq!(rejection.errors()[0].path(), "/name");
        assert!(rejection.to_string().contains("given twice"), "{rejection}");
        // A sensitive field's values are not quoted.
        let rejection = Greet::from_arguments(r#"{"name": "A", "pin": "1", "pin_code": "2"}"#).unwrap_err();
        assert!(!rejection.to_string().contains("\"2\""), "{rejection}");
        // One value twice is read once, and recorded (serde refuses it: a choice is not at
        // stake, only the representation).
        let checked = Greet::from_arguments_with_report(r#"{"nm": "Ada", "name": "Ada"}"#).unwrap();
        assert_eq!(checked.value.name, "Ada");
        let kinds: Vec<_> = checked.report.coercions.iter().map(|c| c.kind).collect();
        assert_eq!(kinds, [CoercionKind::Alias, CoercionKind::DuplicateKey]);
    }

    #[test]
    fn an_alias_in_mangled_text_and_in_a_value() {
        let checked = Greet::from_arguments_with_report("Sure: {'nm': 'Ada',}").unwrap();
        assert_eq!(checked.value.name, "Ada");
        assert!(!checked.report.repairs.is_empty());
        assert_eq!(checked.report.coercions[0].kind, CoercionKind::Alias);
        let value = json!({"full_name": "Ada"});
        assert_eq!(Greet::from_arguments(&value).unwrap().name, "Ada");
        // The untyped check of the tool's definition reads it too.
        let checked = Greet::definition().check(r#"{"nm": "Ada"}"#).unwrap();
        assert_eq!(checked.value, json!({"name": "Ada"}));
    }

    #[test]
    fn a_value_that_only_mentions_an_alias_is_read_as_usual() {
        let checked = Greet::from_arguments_with_report(r#"{"name": "nm"}"#).unwrap();
        assert_eq!(checked.value.name, "nm");
        assert!(checked.report.is_clean());
    }
}

mod default {
    use super::*;

    #[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
    struct Search {
        query: String,
        #[serde(default)]
        page: u32,
        #[serde(default = "ten")]
        per_page: u32,
        #[serde(default)]
        filters: Filters,
    }

    fn ten() -> u32 {
        10
    }

    #[derive(Debug, Default, PartialEq, Deserialize, JsonSchema)]
    #[serde(default)]
    struct Filters {
        in_stock: bool,
        brand: Option<String>,
    }

    #[test]
    fn field_and_container_defaults() {
        let search = accepted::<Search>(r#"{"query": "tea"}"#);
        assert_eq!((search.page, search.per_page), (0, 10));
        accepted::<Search>(r#"{"query": "tea", "page": 2, "per_page": 5, "filters": {}}"#);
        accepted::<Search>(r#"{"query": "tea", "filters": {"brand": "x"}}"#);
        agree::<Search>(r#"{"page": 2}"#);
    }
}

mod flatten {
    use super::*;

    #[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
    struct Book {
        title: String,
        #[serde(flatten)]
        place: Place,
    }

    #[derive(Debug, PartialEq, Deserialize, JsonSchema)]
    struct Place {
        city: String,
        seats: u8,
    }

    #[test]
    fn a_flattened_struct_is_read_from_the_same_object() {
        let book = accepted::<Book>(r#"{"title": "Dune", "city": "Oslo", "seats": 2}"#);
        assert_eq!(book.place.seats, 2);
        agree::<Book>(r#"{"title": "Dune", "city": "Oslo"}"#);
        agree::<Book>(r#"{"title": "Dune", "place": {"city": "Oslo", "seats": 2}}"#);
    }

    /// A flattened enum: its variant's fields sit beside the struct's own, so the schema
    /// closes the struct as a whole (`unevaluatedProperties: false`), not each part on its
    /// own, which would refuse every value.
    #[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
    struct Search {
        limit: u32,
        #[serde(flatten)]
        filter: Filter,
    }

    #[derive(Debug, PartialEq, Deserialize, JsonSchema)]
    #[serde(tag = "kind", rename_all = "snake_case")]
    enum Filter {
        Any,
        Date { after: String, before: Option<String> },
        Author(Author),
    }

    #[derive(Debug, PartialEq, Deserialize, JsonSchema)]
    struct Author {
        name: String,
    }

    #[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
    struct Control {
        id: u32,
        #[serde(flatten)]
        action: Action,
    }

    #[derive(Debug, PartialEq, Deserialize, JsonSchema)]
    #[serde(rename_all = "snake_case")]
    enum Action {
        Stop,
        Sleep(u32),
        RunScript { path: String },
    }

    #[test]
    fn a_flattened_enum_is_read_from_the_same_object() {
        let schema = tool_input::tool_schema_for::<Search>();
        assert_eq!(schema["unevaluatedProperties"], false);
        assert!(schema.get("additionalProperties").is_none());
        assert!(schema["oneOf"].as_array().unwrap().iter().all(|v| v.get("additionalProperties").is_none()));
        for text in [
            r#"{"limit": 5, "kind": "any"}"#,
            r#"{"limit": 5, "kind": "date", "after": "2026-01-01"}"#,
            r#"{"kind": "author", "name": "Le Guin", "limit": 1}"#,
        ] {
            accepted::<Search>(text);
        }
        for text in [
            r#"{"id": 1, "sleep": 3}"#,
            r#"{"id": 1, "stop": null}"#,
            r#"{"id": 1, "run_script": {"path": "a.sh"}}"#,
        ] {
            accepted::<Control>(text);
        }
        // Still closed: a field of no part, or of a variant that was not sent, is unknown.
        for text in
            [r#"{"limit": 5, "kind": "any", "colour": 1}"#, r#"{"limit": 5, "kind": "any", "after": "x"}"#]
        {
            let rejection = Search::from_arguments(text).unwrap_err();
            let codes: Vec<_> = rejection.errors().iter().map(|e| e.code()).collect();
            assert_eq!(codes, [tool_input::ErrorCode::UnknownField], "{text}");
        }
        assert!(Control::from_arguments(r#"{"id": 1, "sleep": 3, "stop": null}"#).is_err());
        agree::<Search>(r#"{"limit": 5}"#);
        let rejection = Control::from_arguments(r#"{"id": 1, "sleep": 3, "colour": 2}"#).unwrap_err();
        // serde ignores it; tool-input never does.
        assert_eq!(rejection.errors()[0].path(), "/colour");
        // The representation is coerced as anywhere: the tag's letter case, a number as text.
        let search = Search::from_arguments(r#"{"limit": "5", "kind": "ANY"}"#).unwrap();
        assert_eq!(search, Search { limit: 5, filter: Filter::Any });
    }

    /// What the model reads when a flattened enum's fields are wrong: an unknown field is
    /// told the fields of the variant it sent (and the closest of them); a field of the
    /// variant it sent, or one of another variant while the tag itself is wrong, is not
    /// called unknown.
    #[test]
    fn a_flattened_enum_names_the_fields_of_the_variant_sent() {
        let messages: Vec<String> = [
            r#"{"limit": 5, "kind": "date", "after": "2026", "colour": "red"}"#,
            r#"{"limit": 5, "kind": "date", "aftre": "2026"}"#,
            r#"{"limit": 5, "kind": "date", "name": "Le Guin"}"#,
            r#"{"limit": 5, "kind": "title", "name": "Le Guin"}"#,
            r#"{"limit": 5, "kind": "author"}"#,
            r#"{"id": 1, "sleep": 3, "path": "a.sh"}"#,
            r#"{"id": 1, "sleep": "soon"}"#,
        ]
        .iter()
        .map(|text| {
            let rejection = match text.contains("\"id\"") {
                true => Control::from_arguments(*text).unwrap_err(),
                false => Search::from_arguments(*text).unwrap_err(),
            };
            let errors: Vec<String> =
                rejection.errors().iter().map(|e| format!("  {}: {}", e.path(), e.message())).collect();
            format!("{text}\n{}", errors.join("\n"))
        })
        .collect();
        insta::assert_snapshot!(messages.join("\n"));
        let rejection =
            Search::from_arguments(r#"{"limit": 5, "kind": "date", "aftre": "2026"}"#).unwrap_err();
        let unknown = &rejection.errors()[0];
        assert_eq!((unknown.path(), unknown.code()), ("/aftre", tool_input::ErrorCode::UnknownField));
        assert_eq!(unknown.suggestion(), Some(&json!("after")));
        assert_eq!(unknown.options(), [json!("limit"), json!("after"), json!("before"), json!("kind")]);
    }
}

mod skip {
    use super::*;

    #[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
    struct Job {
        name: String,
        #[serde(skip)]
        attempts: u32,
        #[serde(skip_deserializing)]
        started: bool,
    }

    #[test]
    fn a_skipped_field_is_not_read_and_not_shown() {
        let job = accepted::<Job>(r#"{"name": "backup"}"#);
        assert_eq!((job.attempts, job.started), (0, false));
        // Sent anyway, it is an unknown field: serde ignores those (without
        // `deny_unknown_fields`); tool-input refuses every unknown field, so the model learns
        // that what it sent is not read, and the schema it sees says so.
        let sent = r#"{"name": "backup", "attempts": 3, "started": true}"#;
        assert!(serde_json::from_str::<Job>(sent).is_ok());
        let rejection = Job::from_arguments(sent).unwrap_err();
        assert_eq!(rejection.errors()[0].code().code(), "unknown_field");
        assert_eq!(Job::schema()["additionalProperties"], json!(false));
        assert!(Job::schema()["properties"].get("attempts").is_none());
        assert!(Job::schema()["properties"].get("started").is_none());
    }
}

mod deny_unknown_fields {
    use super::*;

    #[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
    #[serde(deny_unknown_fields)]
    struct Exact {
        name: String,
    }

    #[test]
    fn an_unknown_field_is_refused_by_both() {
        accepted::<Exact>(r#"{"name": "a"}"#);
        assert!(agree::<Exact>(r#"{"name": "a", "extra": 1}"#).is_none());
    }
}

mod enums {
    use super::*;

    #[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
    struct Draw {
        shape: Shape,
    }

    /// Internally tagged, with one variant read without its tag.
    #[derive(Debug, PartialEq, Deserialize, JsonSchema)]
    #[serde(rename_all = "snake_case")]
    enum Shape {
        Circle {
            radius: f64,
        },
        Square {
            side: f64,
        },
        #[serde(untagged)]
        Point(Point),
    }

    #[derive(Debug, PartialEq, Deserialize, JsonSchema)]
    struct Point {
        x: f64,
        y: f64,
    }

    #[test]
    fn an_untagged_variant_inside_a_tagged_enum() {
        accepted::<Draw>(r#"{"shape": {"circle": {"radius": 1.5}}}"#);
        let draw = accepted::<Draw>(r#"{"shape": {"x": 1.0, "y": 2.0}}"#);
        assert_eq!(draw.shape, Shape::Point(Point { x: 1.0, y: 2.0 }));
        agree::<Draw>(r#"{"shape": {"triangle": {"side": 1.0}}}"#);
    }
}

/// `#[serde(other)]` on a nested enum's unit variant, and aliases inside nested structs and
/// on variants. schemars writes none of them; the nested types tell them through
/// `#[derive(PartialValue)]`, which the tool's derive reads.
mod nested_serde_facts {
    use tool_input::{PartialValue, ToolDefinition};

    use super::*;

    #[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
    struct Paint {
        color: Color,
        pens: Vec<Pen>,
        backup: Option<Color>,
    }

    #[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema, PartialValue)]
    #[serde(rename_all = "snake_case")]
    enum Color {
        Red,
        #[serde(alias = "verde")]
        Green,
        #[serde(other)]
        Unknown,
    }

    #[derive(Debug, PartialEq, Deserialize, JsonSchema, PartialValue)]
    struct Pen {
        #[serde(alias = "colour")]
        color: Color,
        width: u32,
    }

    /// The same enum without the derive that tells its facts: refused as before.
    #[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
    struct PaintUntold {
        color: UntoldColor,
    }

    #[derive(Debug, PartialEq, Deserialize, JsonSchema)]
    #[serde(rename_all = "snake_case")]
    enum UntoldColor {
        Red,
        #[serde(other)]
        Unknown,
    }

    fn kinds(paint: &tool_input::Checked<Paint>) -> Vec<(&str, CoercionKind, Option<&str>)> {
        let coercions = &paint.report.coercions;
        coercions.iter().map(|c| (c.path.as_str(), c.kind, c.from.as_deref())).collect()
    }

    /// A paint whose schema refuses its own default (`size` under a `not`): the call is
    /// checked again as sent, with no default filled.
    #[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
    #[schemars(extend("not" = {"required": ["size"]}))]
    struct Touchup {
        color: Color,
        #[serde(default = "two")]
        size: u8,
    }

    fn two() -> u8 {
        2
    }

    #[test]
    fn a_call_checked_again_without_defaults_reads_its_values_as_the_first_reading() {
        // `Red` is `red` in another letter case, not the catch-all: so it stays when the
        // call is checked again because the default broke the schema.
        let checked = Touchup::from_arguments_with_report(r#"{"color": "Red"}"#).unwrap();
        assert_eq!(checked.value, Touchup { color: Color::Red, size: 2 });
        let kinds: Vec<_> = checked.report.coercions.iter().map(|c| (c.path.as_str(), c.kind)).collect();
        assert_eq!(kinds, [("/color", CoercionKind::EnumCase)]);
        assert_eq!(accepted::<Touchup>(r#"{"color": "verde"}"#).color, Color::Green);
    }

    #[test]
    fn an_unknown_value_reads_as_the_catch_all_and_is_recorded() {
        let text = r#"{"color": "blue", "pens": [{"color": "mauve", "width": 1}], "backup": "teal"}"#;
        let paint = accepted::<Paint>(text);
        assert_eq!(paint.color, Color::Unknown);
        assert_eq!(paint.pens[0].color, Color::Unknown);
        assert_eq!(paint.backup, Some(Color::Unknown));
        let checked = Paint::from_arguments_with_report(text).unwrap();
        assert_eq!(
            kinds(&checked),
            [
                ("/color", CoercionKind::OtherVariant, Some("\"blue\"")),
                ("/pens/0/color", CoercionKind::OtherVariant, Some("\"mauve\"")),
                ("/backup", CoercionKind::OtherVariant, Some("\"teal\"")),
            ]
        );
        assert_eq!(checked.report.coercions[0].to.as_deref(), Some("\"unknown\""));
        assert_eq!(CoercionKind::OtherVariant.code(), "other_variant");
        // Known names, and the catch-all's own name, are read as themselves, unrecorded.
        let checked =
            Paint::from_arguments_with_report(r#"{"color": "unknown", "pens": [], "backup": null}"#).unwrap();
        assert!(checked.report.coercions.is_empty());
        accepted::<Paint>(r#"{"color": "red", "pens": [], "backup": "green"}"#);
    }

    #[test]
    fn a_value_of_another_type_is_refused_saying_what_the_catch_all_is() {
        agree::<Paint>(r#"{"color": 3, "pens": []}"#);
        let error = Paint::from_arguments(r#"{"color": 3, "pens": [], "backup": null}"#).unwrap_err();
        let message = error.to_string();
        assert!(message.contains("any other text, read as `unknown`"), "{message}");
        assert!(message.contains("`red`, `green`"), "{message}");
    }

    #[test]
    fn the_schema_shows_the_catch_all_as_what_any_other_text_reads_as() {
        let definition: &ToolDefinition = Paint::definition();
        let schema = serde_json::to_string(definition.schema()).unwrap();
        assert!(!schema.contains("\"unknown\""), "{schema}");
        assert!(schema.contains("or any other text, read as `unknown`"), "{schema}");
    }

    #[test]
    fn aliases_inside_nested_structs_and_on_variants() {
        let text =
            r#"{"color": "verde", "pens": [{"colour": "red", "width": 2}, {"color": "verde", "width": 3}]}"#;
        let paint = accepted::<Paint>(text);
        assert_eq!(paint.color, Color::Green);
        assert_eq!(paint.pens[0].color, Color::Red);
        assert_eq!(paint.pens[1].color, Color::Green);
        let checked = Paint::from_arguments_with_report(text).unwrap();
        assert_eq!(
            kinds(&checked),
            [
                ("/color", CoercionKind::Alias, Some("\"verde\"")),
                ("/pens/0/color", CoercionKind::Alias, Some("\"colour\"")),
                ("/pens/1/color", CoercionKind::Alias, Some("\"verde\"")),
            ]
        );
        // A nested alias beside its name with another value: a key given twice.
        agree::<Paint>(r#"{"color": "red", "pens": [{"colour": "red", "color": "green", "width": 2}]}"#);
        let error = Paint::from_arguments(
            r#"{"color": "red", "pens": [{"colour": "red", "color": "green", "width": 2}]}"#,
        )
        .unwrap_err();
        assert!(error.to_string().contains("given twice"), "{error}");
    }

    /// A list or struct sent as JSON text (`parsed_string`) is read as the same container
    /// sent as JSON: its aliases and catch-alls too, each recorded at its path inside the
    /// string, after the string's own record.
    #[test]
    fn aliases_and_catch_alls_inside_a_container_sent_as_text() {
        let text = r#"{"color": "red", "pens": "[{\"colour\": \"verde\", \"width\": 2}, {\"color\": \"teal\", \"width\": 1}]"}"#;
        let paint = Paint::from_arguments_with_report(text).unwrap();
        assert_eq!(
            paint.value.pens,
            [Pen { color: Color::Green, width: 2 }, Pen { color: Color::Unknown, width: 1 }]
        );
        assert_eq!(
            kinds(&paint),
            [
                (
                    "/pens",
                    CoercionKind::ParsedString,
                    Some(r#""[{\"colour\": \"verde\", \"width\": 2}, {\"color\": \"teal\", \"width\": 1}]""#)
                ),
                ("/pens/0/color", CoercionKind::Alias, Some("\"colour\"")),
                ("/pens/0/color", CoercionKind::Alias, Some("\"verde\"")),
                ("/pens/1/color", CoercionKind::OtherVariant, Some("\"teal\"")),
            ]
        );
        // One item sent as text, in Python's spelling.
        let paint =
            Paint::from_arguments(r#"{"color": "red", "pens": ["{'colour': 'red', 'width': 2}"]}"#).unwrap();
        assert_eq!(paint.pens, [Pen { color: Color::Red, width: 2 }]);
        // Inside the text, a choice is still refused at its own path.
        let error = Paint::from_arguments(r#"{"color": "red", "pens": "[{\"colour\": 3, \"width\": 2}]"}"#)
            .unwrap_err();
        assert_eq!(error.errors()[0].path(), "/pens/0/color");
    }

    #[test]
    fn an_enum_that_does_not_tell_its_catch_all_is_refused_as_before() {
        assert!(serde_json::from_str::<PaintUntold>(r#"{"color": "blue"}"#).is_ok());
        assert!(PaintUntold::from_arguments(r#"{"color": "blue"}"#).is_err());
    }
}

mod conversions {
    use super::*;

    #[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
    struct Transfer {
        amount: Cents,
        account: Account,
        note: Note,
    }

    /// A newtype read as its inner value.
    #[derive(Debug, PartialEq, Deserialize, JsonSchema)]
    #[serde(transparent)]
    struct Note {
        text: String,
    }

    /// Read through `u64`, with a rule of its own.
    #[derive(Debug, PartialEq, Deserialize, JsonSchema)]
    #[serde(try_from = "u64")]
    #[schemars(with = "u64")]
    struct Cents(u64);

    impl TryFrom<u64> for Cents {
        type Error = String;
        fn try_from(cents: u64) -> Result<Self, String> {
            if cents == 0 {
                return Err("an amount of zero cents is not a transfer".into());
            }
            Ok(Cents(cents))
        }
    }

    /// Read through `String`.
    #[derive(Debug, PartialEq, Deserialize, JsonSchema)]
    #[serde(from = "String")]
    #[schemars(with = "String")]
    struct Account(String);

    impl From<String> for Account {
        fn from(number: String) -> Self {
            Account(number.to_uppercase())
        }
    }

    #[test]
    fn transparent_from_and_try_from_inside_the_arguments() {
        let transfer = accepted::<Transfer>(r#"{"amount": 250, "account": "ab-1", "note": "rent"}"#);
        assert_eq!(transfer.account, Account("AB-1".into()));
        assert_eq!(transfer.note.text, "rent");
        // try_from refuses what the schema accepts: both refuse, and the error is the type's own.
        assert!(agree::<Transfer>(r#"{"amount": 0, "account": "ab-1", "note": "rent"}"#).is_none());
        let rejection =
            Transfer::from_arguments(r#"{"amount": 0, "account": "ab-1", "note": "rent"}"#).unwrap_err();
        assert_eq!(rejection.errors()[0].path(), "/amount");
        assert!(rejection.to_string().contains("zero cents"), "{rejection}");
    }
}

mod deserialize_with {
    use super::*;

    #[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
    struct Schedule {
        /// Minutes, sent as text such as "90".
        #[serde(deserialize_with = "minutes")]
        #[schemars(with = "String")]
        duration: u32,
    }

    fn minutes<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<u32, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }

    #[test]
    fn a_function_with_the_schema_of_what_it_reads() {
        assert_eq!(accepted::<Schedule>(r#"{"duration": "90"}"#).duration, 90);
        assert!(agree::<Schedule>(r#"{"duration": "ninety"}"#).is_none());
    }
}

mod bound {
    use super::*;

    #[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
    #[serde(bound = "T: serde::de::DeserializeOwned")]
    struct Page<T> {
        items: Vec<T>,
        next: Option<u32>,
    }

    #[test]
    fn a_bound_changes_nothing_read() {
        let page = accepted::<Page<String>>(r#"{"items": ["a"], "next": 2}"#);
        assert_eq!(page.items, ["a"]);
        agree::<Page<u8>>(r#"{"items": [300]}"#);
    }
}

/// A newtype whose own rule refuses a value its schema allows.
mod every_field_refused_types {
    use super::*;

    #[derive(Debug, PartialEq, Deserialize, JsonSchema)]
    #[serde(try_from = "u32")]
    #[schemars(with = "u32")]
    pub struct NonZero(u32);

    impl TryFrom<u32> for NonZero {
        type Error = &'static str;
        fn try_from(n: u32) -> Result<Self, &'static str> {
            if n == 0 {
                Err("must not be zero")
            } else {
                Ok(NonZero(n))
            }
        }
    }
}

mod every_field_refused {
    use super::every_field_refused_types::NonZero;
    use super::*;

    /// Two fields whose own types refuse values the schema allows, one of them nested.
    #[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
    struct Pay {
        amount: NonZero,
        fee: NonZero,
        to: Payee,
        #[tool_input(sensitive)]
        pin: Pin,
        memo: String,
    }

    #[derive(Debug, PartialEq, Deserialize, JsonSchema)]
    struct Payee {
        iban: String,
        shares: Vec<NonZero>,
    }

    #[derive(Debug, PartialEq, Deserialize, JsonSchema)]
    #[serde(try_from = "String")]
    #[schemars(with = "String")]
    struct Pin(String);

    impl TryFrom<String> for Pin {
        type Error = String;
        fn try_from(pin: String) -> Result<Self, String> {
            if pin.len() == 4 {
                Ok(Pin(pin))
            } else {
                Err(format!("{pin} is not four digits"))
            }
        }
    }

    #[test]
    fn each_field_its_type_refuses_at_its_path() {
        let sent =
            r#"{"amount": 0, "fee": 0, "to": {"iban": "X", "shares": [1, 0]}, "pin": "12", "memo": "m"}"#;
        assert!(agree::<Pay>(sent).is_none());
        let rejection = Pay::from_arguments(sent).unwrap_err();
        let found: Vec<_> = rejection.errors().iter().map(|e| (e.path(), e.code().code())).collect();
        assert_eq!(
            found,
            [
                ("/amount", "deserialize"),
                ("/fee", "deserialize"),
                ("/to/shares/1", "deserialize"),
                ("/pin", "deserialize")
            ]
        );
        assert!(rejection.errors()[0].message().contains("must not be zero"));
        // The sensitive field's value is not quoted.
        assert!(!rejection.to_string().contains("12 is not"), "{rejection}");
        // Through a Toolbox-free typed path with a report too.
        assert_eq!(Pay::from_arguments_with_report(sent).unwrap_err().errors().len(), 4);
    }

    #[test]
    fn one_field_refused_is_one_error() {
        let sent =
            r#"{"amount": 5, "fee": 0, "to": {"iban": "X", "shares": []}, "pin": "1234", "memo": "m"}"#;
        let rejection = Pay::from_arguments(sent).unwrap_err();
        assert_eq!(rejection.errors().len(), 1);
        assert_eq!(rejection.errors()[0].path(), "/fee");
        let ok = r#"{"amount": 5, "fee": 1, "to": {"iban": "X", "shares": [2]}, "pin": "1234", "memo": "m"}"#;
        accepted::<Pay>(ok);
    }
}

/// Variant aliases and `#[serde(other)]` in internally and adjacently tagged enums, where the
/// tag's value names the variant; an untagged enum names none. Each read beside serde.
mod tagged_serde_facts {
    use tool_input::{PartialValue, ToolDefinition};

    use super::*;

    #[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
    struct Route {
        step: Step,
        moves: Vec<Move>,
    }

    /// Internally tagged.
    #[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema, PartialValue)]
    #[serde(tag = "kind", rename_all = "snake_case")]
    enum Step {
        #[serde(alias = "walk")]
        Go { metres: u32 },
        #[serde(rename = "halt", alias = "stop")]
        Wait,
        #[serde(other)]
        Unknown,
    }

    /// Adjacently tagged.
    #[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema, PartialValue)]
    #[serde(tag = "t", content = "c", rename_all = "snake_case")]
    enum Move {
        #[serde(alias = "left")]
        TurnLeft(u32),
        TurnRight(u32),
        #[serde(other)]
        Other,
    }

    /// Untagged: no variant is named in the arguments, so nothing to map.
    #[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema, PartialValue)]
    #[serde(untagged)]
    enum Amount {
        Exact(u32),
        Text(String),
    }

    #[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
    struct Pay {
        amount: Amount,
    }

    fn kinds(text: &str) -> Vec<(String, CoercionKind, Option<String>)> {
        let checked = Route::from_arguments_with_report(text).unwrap();
        checked.report.coercions.iter().map(|c| (c.path.clone(), c.kind, c.from.clone())).collect()
    }

    #[test]
    fn an_internal_tags_alias_and_catch_all() {
        let route = accepted::<Route>(r#"{"step": {"kind": "walk", "metres": 3}, "moves": []}"#);
        assert_eq!(route.step, Step::Go { metres: 3 });
        assert_eq!(accepted::<Route>(r#"{"step": {"kind": "stop"}, "moves": []}"#).step, Step::Wait);
        assert_eq!(accepted::<Route>(r#"{"step": {"kind": "fly"}, "moves": []}"#).step, Step::Unknown);
        assert_eq!(
            kinds(r#"{"step": {"kind": "walk", "metres": 3}, "moves": []}"#),
            [("/step/kind".to_owned(), CoercionKind::Alias, Some("\"walk\"".to_owned()))]
        );
        assert_eq!(
            kinds(r#"{"step": {"kind": "fly"}, "moves": []}"#),
            [("/step/kind".to_owned(), CoercionKind::OtherVariant, Some("\"fly\"".to_owned()))]
        );
        // Names, renamed as serde reads them, are read as themselves.
        assert!(kinds(r#"{"step": {"kind": "halt"}, "moves": []}"#).is_empty());
        assert_eq!(
            accepted::<Route>(r#"{"step": {"kind": "go", "metres": 1}, "moves": []}"#).step,
            Step::Go { metres: 1 }
        );
        // A tag of another type: both refuse.
        agree::<Route>(r#"{"step": {"kind": 3}, "moves": []}"#);
    }

    #[test]
    fn an_adjacent_tags_alias_and_catch_all() {
        let text = r#"{"step": {"kind": "halt"}, "moves": [{"t": "left", "c": 90}, {"t": "turn_right", "c": 5}, {"t": "spin"}]}"#;
        let route = accepted::<Route>(text);
        assert_eq!(route.moves, [Move::TurnLeft(90), Move::TurnRight(5), Move::Other]);
        assert_eq!(
            kinds(text),
            [
                ("/moves/0/t".to_owned(), CoercionKind::Alias, Some("\"left\"".to_owned())),
                ("/moves/2/t".to_owned(), CoercionKind::OtherVariant, Some("\"spin\"".to_owned())),
            ]
        );
    }

    /// A tagged object sent as JSON text is read as the object: its tag's alias or unknown
    /// name as when it is sent as JSON (they were refused as not one of the names).
    #[test]
    fn a_tagged_object_sent_as_text() {
        let text = r#"{"step": "{\"kind\": \"fly\"}", "moves": "[{\"t\": \"left\", \"c\": 90}, {\"t\": \"spin\"}]"}"#;
        let route = Route::from_arguments(text).unwrap();
        assert_eq!((route.step, route.moves), (Step::Unknown, vec![Move::TurnLeft(90), Move::Other]));
        let kinds: Vec<_> = kinds(text).into_iter().map(|(path, kind, _)| (path, kind)).collect();
        assert_eq!(
            kinds,
            [
                ("/moves".to_owned(), CoercionKind::ParsedString),
                ("/moves/0/t".to_owned(), CoercionKind::Alias),
                ("/moves/1/t".to_owned(), CoercionKind::OtherVariant),
                ("/step".to_owned(), CoercionKind::ParsedString),
                ("/step/kind".to_owned(), CoercionKind::OtherVariant),
            ]
        );
        let route =
            Route::from_arguments(r#"{"step": "{'kind': 'walk', 'metres': 3}", "moves": []}"#).unwrap();
        assert_eq!(route.step, Step::Go { metres: 3 });
    }

    #[test]
    fn the_schema_says_what_the_tags_catch_all_reads() {
        let definition: &ToolDefinition = Route::definition();
        let schema = serde_json::to_string(definition.schema()).unwrap();
        assert!(schema.contains("or any other text, read as `unknown`"), "{schema}");
        assert!(schema.contains("or any other text, read as `other`"), "{schema}");
    }

    #[test]
    fn an_untagged_enum_is_read_as_serde_reads_it() {
        assert_eq!(accepted::<Pay>(r#"{"amount": 3}"#).amount, Amount::Exact(3));
        assert_eq!(accepted::<Pay>(r#"{"amount": "three"}"#).amount, Amount::Text("three".to_owned()));
        agree::<Pay>(r#"{"amount": [3]}"#);
        let checked = Pay::from_arguments_with_report(r#"{"amount": "three"}"#).unwrap();
        assert!(checked.report.coercions.is_empty());
    }
}

/// A generic tool reads serde's facts and reports every field's own refusal as a plain one
/// does: its aliases, its nested enum's catch-all, each field its type refuses (a field whose
/// type is the parameter too).
mod generic_tool {
    use tool_input::PartialValue;

    use super::every_field_refused_types::NonZero;
    use super::*;

    #[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
    struct Batch<T> {
        first: T,
        rest: Vec<T>,
        #[serde(alias = "colour")]
        tint: Tint,
        fee: NonZero,
    }

    #[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema, PartialValue)]
    #[serde(rename_all = "snake_case")]
    enum Tint {
        Red,
        #[serde(alias = "verde")]
        Green,
        #[serde(other)]
        Unknown,
    }

    #[test]
    fn aliases_and_the_catch_all_are_read() {
        let batch = accepted::<Batch<u8>>(r#"{"first": 1, "rest": [], "colour": "verde", "fee": 2}"#);
        assert_eq!(batch.tint, Tint::Green);
        let text = r#"{"first": "a", "rest": ["b"], "colour": "mauve", "fee": 2}"#;
        let checked = Batch::<String>::from_arguments_with_report(text).unwrap();
        assert_eq!(checked.value, serde_json::from_str::<Batch<String>>(text).unwrap());
        let kinds: Vec<_> = checked.report.coercions.iter().map(|c| (c.path.as_str(), c.kind)).collect();
        assert_eq!(kinds, [("/tint", CoercionKind::Alias), ("/tint", CoercionKind::OtherVariant)]);
    }

    #[test]
    fn each_field_its_type_refuses_at_its_path() {
        let sent = r#"{"first": 0, "rest": [3, 0], "tint": "red", "fee": 0}"#;
        assert!(agree::<Batch<NonZero>>(sent).is_none());
        let rejection = Batch::<NonZero>::from_arguments(sent).unwrap_err();
        let found: Vec<_> = rejection.errors().iter().map(|e| (e.path(), e.code().code())).collect();
        assert_eq!(found, [("/first", "deserialize"), ("/rest/1", "deserialize"), ("/fee", "deserialize")]);
        assert!(rejection.errors()[0].message().contains("must not be zero"), "{rejection}");
    }
}

mod map_keys {
    use super::*;
    use std::collections::BTreeMap;

    #[derive(Debug, Deserialize, JsonSchema, ToolInput)]
    struct Seats {
        by_row: BTreeMap<u32, String>,
    }

    #[derive(Debug, Deserialize, JsonSchema, ToolInput)]
    struct Flags {
        by_flag: BTreeMap<bool, u8>,
    }

    /// A key serde refuses is placed at the key (never at `/by_row/?`, which is no path in
    /// what was sent), without serde's position inside the key's text.
    #[test]
    fn a_map_key_serde_refuses_is_placed_at_the_key() {
        // Keys serde reads are read.
        assert_eq!(Seats::from_arguments(r#"{"by_row": {"12": "a"}}"#).unwrap().by_row[&12], "a");
        assert_eq!(Flags::from_arguments(r#"{"by_flag": {"true": 3}}"#).unwrap().by_flag[&true], 3);
        let said = |rejection: tool_input::Rejection| -> Vec<(String, String)> {
            rejection.errors().iter().map(|e| (e.path().to_owned(), e.message().to_owned())).collect()
        };
        assert_eq!(
            said(Seats::from_arguments(r#"{"by_row": {"01": "a"}}"#).unwrap_err()),
            [(
                "/by_row/01".to_owned(),
                "the property name `01` is not allowed here: invalid number".to_owned()
            )]
        );
        assert_eq!(
            said(Seats::from_arguments(r#"{"by_row": {"4294967296": "a"}}"#).unwrap_err()),
            [(
                "/by_row/4294967296".to_owned(),
                "invalid value: integer `4294967296`, expected u32".to_owned()
            )]
        );
        let refused = said(Flags::from_arguments(r#"{"by_flag": {"true": 1, "yes": 2}}"#).unwrap_err());
        assert_eq!(refused[0].0, "/by_flag/yes");
        // Two keys, neither quoted by serde's message: the object, said to be of a name.
        let refused = said(Seats::from_arguments(r#"{"by_row": {"1": "a", "02": "b"}}"#).unwrap_err());
        assert_eq!(
            refused,
            [("/by_row".to_owned(), "a property name is not allowed here: invalid number".to_owned())]
        );
        // A key the schema's pattern refuses: told what names the object takes.
        let rejection = Seats::from_arguments(r#"{"by_row": {"x": "a"}}"#).unwrap_err();
        assert_eq!(rejection.errors()[0].path(), "/by_row/x");
        assert_eq!(
            rejection.errors()[0].message(),
            r"unknown property `x`; allowed: a name matching the pattern ^\d+$"
        );
    }
}
