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
            // Plain validation: `default` an annotation (the suite holds defaults their own
            // schemas refuse, which a validator that fills them refuses to build).
            let ours = Validator::builder(schema).policy(Policy::Strict).defaults(false).build().unwrap();
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

/// The union shapes the engine reads (enum of constants, tagged, externally tagged, nullable,
/// untagged, recursive): choosing a branch by its shape must accept exactly what trying every
/// branch accepts, as the `jsonschema` crate does.
#[test]
fn union_shapes_agree_with_jsonschema_on_arbitrary_and_near_values() {
    let schemas = [
        json!({"oneOf": [{"const": "write", "description": "w"}, {"const": "append"}, {"enum": [1, 2.5, null, true]}]}),
        json!({"anyOf": [{"const": 1}, {"const": 1.0}]}),
        json!({"$defs": {"e": {"oneOf": [
            {"type": "object", "properties": {"kind": {"const": "a"}, "x": {"type": "integer"}}, "required": ["kind", "x"]},
            {"type": "object", "properties": {"kind": {"enum": ["b", "c"]}, "next": {"$ref": "#/$defs/e"}}, "required": ["kind"], "additionalProperties": false},
            {"type": "object", "properties": {"kind": {"const": "d"}}, "required": ["kind"]}
        ]}}, "$ref": "#/$defs/e"}),
        json!({"oneOf": [
            {"type": "string", "enum": ["stop"]},
            {"type": "string", "const": "go", "description": "go"},
            {"type": "object", "properties": {"run": {"type": "object"}}, "required": ["run"], "additionalProperties": false},
            {"type": "object", "properties": {"sleep": {"type": "integer", "minimum": 0}}, "required": ["sleep"], "additionalProperties": false}
        ]}),
        json!({"anyOf": [{"type": "array", "items": {"type": "integer"}}, {"type": "null"}]}),
        json!({"oneOf": [{"type": ["string", "null"]}, {"type": "null"}]}),
        json!({"anyOf": [
            {"type": "integer", "minimum": 0, "maximum": 255},
            {"type": "object", "properties": {"max": {"type": "integer"}, "a": {"type": "string"}}, "required": ["max"]},
            {"type": "string"}
        ]}),
        json!({"$defs": {"n": {"oneOf": [
            {"type": "object", "properties": {"a": {"$ref": "#/$defs/n"}, "x": {"type": "integer"}}},
            {"type": "object", "properties": {"a": {"$ref": "#/$defs/n"}, "y": {"type": "integer"}}, "required": ["y"]},
            {"type": "integer"}
        ]}}, "$ref": "#/$defs/n"}),
    ];
    let near = [
        json!("write"),
        json!("Write"),
        json!(" write"),
        json!(1),
        json!(1.0),
        json!(2.5),
        json!(null),
        json!(true),
        json!({"kind": "a", "x": 1}),
        json!({"kind": "a"}),
        json!({"kind": "b"}),
        json!({"kind": "c", "next": {"kind": "a", "x": 2}}),
        json!({"kind": "b", "next": {"kind": "z"}}),
        json!({"kind": "d", "x": "y"}),
        json!({"kind": "B"}),
        json!({}),
        json!("stop"),
        json!("go"),
        json!({"run": {}}),
        json!({"sleep": 3}),
        json!({"sleep": -1}),
        json!({"run": {}, "sleep": 1}),
        json!([1, 2]),
        json!(["a"]),
        json!({"max": 3}),
        json!(300),
        json!("x"),
        json!({"a": {"a": 1}, "y": 2}),
        json!({"a": {"a": {"y": 1}}}),
        json!({"x": 1, "y": 2}),
    ];
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    for schema in &schemas {
        let ours = Validator::builder(schema).policy(Policy::Strict).build().unwrap();
        let theirs = jsonschema::draft202012::new(schema).unwrap();
        let mut values: Vec<Value> = near.to_vec();
        for _ in 0..300 {
            values.push(any_json().new_tree(&mut runner).unwrap().current());
        }
        for value in values {
            assert_eq!(ours.is_valid(&value), theirs.is_valid(&value), "{schema} / {value}");
            if value.is_object() {
                // Arguments (an object) take the same answer through the full check.
                assert_eq!(ours.check(&value).is_ok(), theirs.is_valid(&value), "{schema} / {value}");
            }
        }
    }
}
