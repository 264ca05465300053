//! Property tests through the derive: any value of a derived type, serialized, parses back
//! to itself; and representation-mangled versions of it (arrays sent as strings, enum values
//! in other letter case, numbers and booleans as strings, Python literals and syntax noise)
//! parse back to the same value.

use proptest::prelude::*;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tool_input::ToolInput;

/// Plan a trip.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolInput)]
struct PlanTrip {
    city: String,
    days: u8,
    budget: Option<i64>,
    rating: f64,
    mode: Mode,
    stops: Vec<Stop>,
    tags: Vec<String>,
    flexible: bool,
    #[serde(default)]
    notes: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Mode {
    Train,
    Car,
    NightBus,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
struct Stop {
    name: String,
    nights: u16,
    kind: Option<Mode>,
}

fn text() -> impl Strategy<Value = String> {
    // Printable text with quotes, backslashes and non-ASCII, the characters that stress a parser.
    proptest::string::string_regex("[a-zA-Z0-9 '\"\\\\,:{}\\[\\]éü日本-]{0,12}").unwrap()
}

fn mode() -> impl Strategy<Value = Mode> {
    prop_oneof![Just(Mode::Train), Just(Mode::Car), Just(Mode::NightBus)]
}

fn stop() -> impl Strategy<Value = Stop> {
    (text(), any::<u16>(), proptest::option::of(mode())).prop_map(|(name, nights, kind)| Stop {
        name,
        nights,
        kind,
    })
}

fn trip() -> impl Strategy<Value = PlanTrip> {
    (
        text(),
        any::<u8>(),
        proptest::option::of(any::<i64>()),
        -1e6..1e6f64,
        mode(),
        proptest::collection::vec(stop(), 0..4),
        proptest::collection::vec(text(), 0..4),
        any::<bool>(),
        proptest::option::of(text()),
    )
        .prop_map(|(city, days, budget, rating, mode, stops, tags, flexible, notes)| PlanTrip {
            city,
            days,
            budget,
            rating,
            mode,
            stops,
            tags,
            flexible,
            notes,
        })
}

/// One representation mistake a model makes, applied wherever `choice` says.
#[derive(Debug, Clone, Copy)]
enum Mangle {
    ArrayAsString,
    EnumUpper,
    EnumCapitalised,
    NumberAsString,
    BoolAsString,
    FloatForInteger,
}

fn mangle(value: &mut Value, schema_hint: &str, mangles: &[Mangle], counter: &mut usize) {
    let pick = |counter: &mut usize| {
        *counter += 1;
        mangles[*counter % mangles.len()]
    };
    match value {
        Value::Object(map) => {
            for (key, child) in map.iter_mut() {
                mangle(child, key, mangles, counter);
            }
        }
        Value::Array(items) => {
            for item in items.iter_mut() {
                mangle(item, schema_hint, mangles, counter);
            }
            if let Mangle::ArrayAsString = pick(counter) {
                *value = Value::String(value.to_string());
            }
        }
        Value::String(text) if matches!(schema_hint, "mode" | "kind") => match pick(counter) {
            Mangle::EnumUpper => *text = text.to_uppercase(),
            Mangle::EnumCapitalised => {
                let mut chars = text.chars();
                *text = chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default();
            }
            _ => {}
        },
        Value::Number(number) => match pick(counter) {
            Mangle::NumberAsString => *value = Value::String(number.to_string()),
            Mangle::FloatForInteger if number.is_u64() || number.is_i64() => {
                if let Some(float) = number.as_f64().filter(|f| f.abs() < 1e15) {
                    *value = serde_json::json!(float);
                }
            }
            _ => {}
        },
        Value::Bool(flag) => {
            if let Mangle::BoolAsString = pick(counter) {
                *value = Value::String(if *flag { "True".into() } else { "FALSE".into() });
            }
        }
        _ => {}
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn serialized_values_parse_back_to_themselves(trip in trip()) {
        let text = serde_json::to_string(&trip).unwrap();
        let checked = PlanTrip::from_arguments_with_report(text.as_str()).unwrap();
        prop_assert_eq!(&checked.value, &trip);
        prop_assert!(checked.report.repairs.is_empty());
        let pretty = serde_json::to_string_pretty(&trip).unwrap();
        prop_assert_eq!(PlanTrip::from_arguments(pretty.as_str()).unwrap(), trip);
    }

    #[test]
    fn mangled_representations_parse_back_to_the_same_value(
        trip in trip(),
        mangles in proptest::collection::vec(
            prop_oneof![
                Just(Mangle::ArrayAsString),
                Just(Mangle::EnumUpper),
                Just(Mangle::EnumCapitalised),
                Just(Mangle::NumberAsString),
                Just(Mangle::BoolAsString),
                Just(Mangle::FloatForInteger),
            ],
            1..6,
        ),
        fence in any::<bool>(),
        prose in any::<bool>(),
    ) {
        let mut value = serde_json::to_value(&trip).unwrap();
        mangle(&mut value, "", &mangles, &mut 0);
        let mut text = value.to_string();
        if fence {
            text = format!("```json\n{text}\n```");
        }
        if prose {
            text = format!("Here are the arguments:\n{text}\nLet me know!");
        }
        let parsed = PlanTrip::from_arguments(text.as_str());
        prop_assert!(parsed.is_ok(), "{}\n{}", text, parsed.unwrap_err());
        prop_assert_eq!(parsed.unwrap(), trip);
    }

    #[test]
    fn coercion_is_idempotent(trip in trip(), mangles in proptest::collection::vec(Just(Mangle::NumberAsString), 1..2)) {
        let mut value = serde_json::to_value(&trip).unwrap();
        mangle(&mut value, "", &mangles, &mut 0);
        let definition = PlanTrip::definition();
        let once = definition.check(&value).unwrap();
        let twice = definition.check(&once.value).unwrap();
        prop_assert_eq!(&once.value, &twice.value);
        prop_assert!(twice.report.coercions.iter().all(|c| c.kind == tool_input::CoercionKind::DefaultFilled));
    }
}

/// Arbitrary JSON, a few levels deep.
fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| serde_json::json!(n)),
        (-1e3..1e3f64).prop_map(|f| serde_json::json!(f)),
        "[a-zA-Z0-9 _-]{0,8}".prop_map(Value::String),
        Just(serde_json::json!("train")),
    ];
    leaf.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            proptest::collection::btree_map(
                prop_oneof![
                    Just("city".to_owned()),
                    Just("days".to_owned()),
                    Just("mode".to_owned()),
                    Just("stops".to_owned()),
                    Just("name".to_owned()),
                    "[a-z]{1,5}"
                ],
                inner,
                0..5
            )
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// No silent defaults: whatever object arrives, a rejection for invalid arguments names,
    /// for every error, the place it is about.
    #[test]
    fn every_rejection_names_a_path(fields in proptest::collection::btree_map(
        prop_oneof![
            Just("city".to_owned()), Just("days".to_owned()), Just("budget".to_owned()),
            Just("rating".to_owned()), Just("mode".to_owned()), Just("stops".to_owned()),
            Just("tags".to_owned()), Just("flexible".to_owned()), Just("notes".to_owned()), "[a-z]{1,6}"
        ],
        any_json(),
        0..10,
    )) {
        let value = Value::Object(fields.into_iter().collect());
        if let Err(rejection) = PlanTrip::from_arguments(&value) {
            prop_assert_eq!(rejection.kind(), tool_input::RejectionKind::Invalid);
            prop_assert!(!rejection.errors().is_empty());
            let message = rejection.to_string();
            for (shown, error) in rejection.errors().iter().enumerate() {
                prop_assert!(error.path().starts_with('/'), "{:?} in {}", error, value);
                // The message lists the first 20 errors and counts the rest.
                if shown < 20 {
                    prop_assert!(message.contains(error.path()), "{} not in {}", error.path(), message);
                }
            }
        }
    }
}
