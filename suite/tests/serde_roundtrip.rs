//! Any value of a derived type, serialized by serde and read back by `from_arguments`, is the
//! same value, with no repair and no coercion: over types of every shape serde and schemars
//! derive (renames, aliases, defaults, flatten, skip, every enum tagging, an untagged variant
//! in a tagged enum, transparent newtypes, maps, tuples, options, nested lists, the numeric
//! extremes).

use std::collections::BTreeMap;

use proptest::prelude::*;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use tool_input::ToolInput;

/// Plan a delivery.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolInput)]
#[serde(rename_all = "camelCase")]
struct PlanDelivery {
    order_id: String,
    #[serde(rename = "qty", alias = "quantity")]
    count: u32,
    weight_grams: u64,
    offset: i64,
    ratio: f64,
    express: bool,
    #[serde(default)]
    note: Option<String>,
    #[serde(flatten)]
    address: Address,
    #[serde(skip)]
    attempts: u8,
    stops: Vec<Stop>,
    labels: BTreeMap<String, u16>,
    window: (u8, u8),
    tag: Tag,
    shape: Shape,
    payment: Payment,
    carrier: Carrier,
    target: Target,
    grid: Vec<Vec<i32>>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
struct Address {
    street: String,
    city: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Stop {
    name: String,
    minutes: Option<u16>,
    speed: Speed,
}

/// Unit variants, renamed.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
enum Speed {
    NextDay,
    Standard,
    #[serde(rename = "slow_boat")]
    Slow,
}

/// A transparent newtype.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(transparent)]
struct Tag(String);

/// Externally tagged, with an untagged variant.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Shape {
    Circle {
        radius: f64,
    },
    Square(u32),
    Unit,
    #[serde(untagged)]
    Free(Vec<u8>),
}

/// Internally tagged, fields renamed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "method", rename_all = "snake_case", rename_all_fields = "camelCase")]
enum Payment {
    Card { last_four: String, expires_month: u8 },
    Invoice { due_days: u16 },
    Cash,
}

/// Adjacently tagged.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", content = "data")]
enum Carrier {
    Post(String),
    Courier { name: String, phone: Option<String> },
    Pickup,
}

/// Untagged.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
enum Target {
    Locker { locker_id: u32 },
    Door { floor: i8, code: String },
}

fn text() -> impl Strategy<Value = String> {
    proptest::string::string_regex("[a-zA-Z0-9 '\"\\\\,:{}\\[\\]éü日本\n\t-]{0,10}").unwrap()
}

fn finite() -> impl Strategy<Value = f64> {
    prop_oneof![-1e12..1e12f64, Just(0.0), Just(-0.5), Just(f64::MAX), Just(f64::MIN_POSITIVE)]
}

fn speed() -> impl Strategy<Value = Speed> {
    prop_oneof![Just(Speed::NextDay), Just(Speed::Standard), Just(Speed::Slow)]
}

fn stop() -> impl Strategy<Value = Stop> {
    (text(), proptest::option::of(any::<u16>()), speed()).prop_map(|(name, minutes, speed)| Stop {
        name,
        minutes,
        speed,
    })
}

fn shape() -> impl Strategy<Value = Shape> {
    prop_oneof![
        finite().prop_map(|radius| Shape::Circle { radius }),
        any::<u32>().prop_map(Shape::Square),
        Just(Shape::Unit),
        proptest::collection::vec(any::<u8>(), 0..3).prop_map(Shape::Free),
    ]
}

fn payment() -> impl Strategy<Value = Payment> {
    prop_oneof![
        (text(), any::<u8>())
            .prop_map(|(last_four, expires_month)| Payment::Card { last_four, expires_month }),
        any::<u16>().prop_map(|due_days| Payment::Invoice { due_days }),
        Just(Payment::Cash),
    ]
}

fn carrier() -> impl Strategy<Value = Carrier> {
    prop_oneof![
        text().prop_map(Carrier::Post),
        (text(), proptest::option::of(text())).prop_map(|(name, phone)| Carrier::Courier { name, phone }),
        Just(Carrier::Pickup),
    ]
}

fn target() -> impl Strategy<Value = Target> {
    prop_oneof![
        any::<u32>().prop_map(|locker_id| Target::Locker { locker_id }),
        (any::<i8>(), text()).prop_map(|(floor, code)| Target::Door { floor, code }),
    ]
}

fn delivery() -> impl Strategy<Value = PlanDelivery> {
    let scalars = (
        text(),
        any::<u32>(),
        any::<u64>(),
        any::<i64>(),
        finite(),
        any::<bool>(),
        proptest::option::of(text()),
        (text(), text()),
    );
    let nested = (
        proptest::collection::vec(stop(), 0..3),
        proptest::collection::btree_map(text(), any::<u16>(), 0..3),
        (any::<u8>(), any::<u8>()),
        text(),
        shape(),
        payment(),
        carrier(),
        target(),
        proptest::collection::vec(proptest::collection::vec(any::<i32>(), 0..3), 0..3),
    );
    (scalars, nested).prop_map(
        |(
            (order_id, count, weight_grams, offset, ratio, express, note, (street, city)),
            (stops, labels, window, tag, shape, payment, carrier, target, grid),
        )| PlanDelivery {
            order_id,
            count,
            weight_grams,
            offset,
            ratio,
            express,
            note,
            address: Address { street, city },
            attempts: 0,
            stops,
            labels,
            window,
            tag: Tag(tag),
            shape,
            payment,
            carrier,
            target,
            grid,
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn serde_values_read_back_unchanged_and_unrecorded(delivery in delivery()) {
        for text in [serde_json::to_string(&delivery).unwrap(), serde_json::to_string_pretty(&delivery).unwrap()] {
            // serde reads its own output back: the reference.
            prop_assert_eq!(&serde_json::from_str::<PlanDelivery>(&text).unwrap(), &delivery);
            let checked = PlanDelivery::from_arguments_with_report(text.as_str());
            prop_assert!(checked.is_ok(), "{}\n{}", text, checked.unwrap_err());
            let checked = checked.unwrap();
            prop_assert_eq!(&checked.value, &delivery);
            prop_assert!(checked.report.is_clean(), "{}\n{:?}", text, checked.report);
        }
        // The same as a value passed in.
        let value = serde_json::to_value(&delivery).unwrap();
        let checked = PlanDelivery::from_arguments_with_report(&value).unwrap();
        prop_assert_eq!(&checked.value, &delivery);
        prop_assert!(checked.report.is_clean(), "{:?}", checked.report);
    }
}
