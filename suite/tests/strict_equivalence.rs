//! Under `Policy::Strict` the engine is a plain JSON Schema validator: it must accept exactly
//! what the `jsonschema` crate accepts, for the same schema, on generated values — near-valid
//! tool arguments for the benchmark schema, and arbitrary values for every schema of the
//! JSON-Schema-Test-Suite subset.

mod common;

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use serde_json::{json, Map, Value};
use tool_input::{Policy, Validator};

/// Arbitrary JSON, a few levels deep.
fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        (-1e6..1e6f64).prop_map(|f| json!(f)),
        Just(json!(1.0)),
        Just(json!(0)),
        "[a-zA-Z0-9 _-]{0,8}".prop_map(Value::String),
        Just(json!("ABC-1234")),
        Just(json!("low")),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            proptest::collection::btree_map("[a-z]{1,3}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// One property of the benchmark schema: absent, a value that fits, or anything.
fn maybe(fits: impl Strategy<Value = Value> + 'static) -> impl Strategy<Value = Option<Value>> {
    prop_oneof![
        2 => Just(None),
        5 => fits.prop_map(Some),
        2 => any_json().prop_map(Some),
    ]
}

fn item() -> impl Strategy<Value = Value> {
    (
        maybe(prop_oneof!["[A-Z]{3}-[0-9]{4}", "[A-Za-z0-9-]{0,9}"].prop_map(Value::String)),
        maybe(prop_oneof![(0..1002i64).prop_map(|n| json!(n)), Just(json!(5.0)), Just(json!(2.5))]),
        maybe("[a-z ]{0,6}".prop_map(Value::String)),
        proptest::option::of(("[a-z]{1,5}", any_json())),
    )
        .prop_map(|(sku, quantity, note, extra)| {
            let mut map = Map::new();
            for (key, value) in [("sku", sku), ("quantity", quantity), ("note", note)] {
                if let Some(value) = value {
                    map.insert(key.to_owned(), value);
                }
            }
            if let Some((key, value)) = extra {
                map.insert(key, value);
            }
            Value::Object(map)
        })
}

fn order() -> impl Strategy<Value = Value> {
    (
        maybe("[a-zA-Z0-9-]{0,10}".prop_map(Value::String)),
        maybe(prop_oneof![
            Just(json!("low")),
            Just(json!("medium")),
            Just(json!("high")),
            Just(json!("High"))
        ]),
        maybe(proptest::collection::vec("[a-z]{1,4}".prop_map(Value::String), 0..12).prop_map(Value::Array)),
        maybe(proptest::collection::vec(item(), 0..4).prop_map(Value::Array)),
        maybe("[0-9-]{0,10}".prop_map(Value::String)),
        maybe(any::<bool>().prop_map(Value::Bool)),
        proptest::option::of(("[a-z_]{1,8}", any_json())),
    )
        .prop_map(|(customer_id, priority, tags, items, ship_by, gift, extra)| {
            let mut map = Map::new();
            for (key, value) in [
                ("customer_id", customer_id),
                ("priority", priority),
                ("tags", tags),
                ("items", items),
                ("ship_by", ship_by),
                ("gift", gift),
            ] {
                if let Some(value) = value {
                    map.insert(key.to_owned(), value);
                }
            }
            if let Some((key, value)) = extra {
                map.insert(key, value);
            }
            Value::Object(map)
        })
}

fn bench_schema() -> Value {
    let path = common::bench_data_dir().join("create_order.schema.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2_000, ..ProptestConfig::default() })]

    #[test]
    fn strict_accepts_exactly_what_jsonschema_accepts(value in order()) {
        let schema = bench_schema();
        let ours = Validator::builder(&schema).policy(Policy::Strict).build().unwrap();
        let theirs = jsonschema::validator_for(&schema).unwrap();
        let accepted = ours.check(&value).is_ok();
        prop_assert_eq!(accepted, theirs.is_valid(&value), "{}", value);
        // The text form goes through the strict parser: same answer.
        prop_assert_eq!(ours.check(value.to_string().as_str()).is_ok(), accepted, "{}", value);
        prop_assert_eq!(ours.is_valid(&value), accepted);
    }
}

#[test]
fn suite_schemas_agree_with_jsonschema_on_arbitrary_values() {
    let dir = common::corpus_dir().join("json-schema-test-suite");
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let mut compared = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "json") || path.ends_with("PROVENANCE.json") {
            continue;
        }
        let groups: Vec<Value> = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        for group in groups {
            let schema = &group["schema"];
            let ours = Validator::builder(schema).policy(Policy::Strict).build().unwrap();
            let Ok(theirs) = jsonschema::draft202012::new(schema) else { continue };
            // The suite's own data, and arbitrary values.
            let mut values: Vec<Value> =
                group["tests"].as_array().unwrap().iter().map(|t| t["data"].clone()).collect();
            for _ in 0..50 {
                values.push(any_json().new_tree(&mut runner).unwrap().current());
            }
            for value in values {
                assert_eq!(
                    ours.is_valid(&value),
                    theirs.is_valid(&value),
                    "{} / {}: {value}",
                    path.display(),
                    group["description"]
                );
                compared += 1;
            }
        }
    }
    assert!(compared > 5_000, "{compared}");
}
