//! Plain validation against the `jsonschema` crate, on generated schemas and values: every
//! 2020-12 keyword a tool's schema writes, nested, and values of every JSON type near the
//! bounds those schemas set. Where both compile a schema, `Validator::is_valid` (and the
//! explaining `validate`, and `check` of an object under the strict policy) must give the
//! other validator's answer; and whatever the default policy makes of a value sent in another
//! representation, the other validator accepts. Formats, defaults and the
//! older drafts' forms are left out: there the engine asserts more than plain validation by
//! design (formats asserted by default, defaults filled, `nullable`). So are floats past
//! 2^53 under `multipleOf`: the engine divides the decimal the text wrote (`1e300` is no
//! multiple of 3), the `jsonschema` crate the float (every float that large is integral).

use proptest::prelude::*;
use serde_json::{json, Map, Value};
use tool_input::{Policy, Validator};

/// Small values of every type, near the bounds the schemas below use.
fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-4i64..12).prop_map(Value::from),
        prop::sample::select(vec![1.5, -0.5, 2.0, 0.1, 0.30000000000000004, 4.0, 1.0, 0.0, -0.0, 3.0])
            .prop_map(Value::from),
        prop::sample::select(vec!["", "a", "ab", "abc", "x1", "12", "b", "ba", "é"]).prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((prop::sample::select(vec!["a", "b", "c", "x1", "y"]), inner), 0..4)
                .prop_map(|members| Value::Object(
                    members.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()
                )),
        ]
    })
}

/// One keyword of a schema (a name and its value), given schemas for its subschemas; with
/// `older`, the forms drafts 7, 6 and 4 write too (an `items` list with `additionalItems`,
/// `dependencies`, draft 4's boolean `exclusiveMinimum` beside `minimum`).
fn keyword(schema: BoxedStrategy<Value>, older: bool) -> BoxedStrategy<(String, Value)> {
    let current = keyword_of_2020_12(schema.clone()).boxed();
    if !older {
        return current;
    }
    let names = || prop::sample::select(vec!["a", "b", "c"]);
    prop_oneof![
        3 => current,
        1 => (prop::collection::vec(schema.clone(), 1..3), schema.clone())
            .prop_map(|(tuple, rest)| together(json!({"items": tuple, "additionalItems": rest}))),
        1 => (-2i64..6, any::<bool>(), prop::sample::select(vec!["Minimum", "Maximum"])).prop_map(|(n, exclusive, side)| {
            together(json!({side.to_lowercase(): n, format!("exclusive{side}"): exclusive}))
        }),
        1 => (names(), prop::collection::vec(names(), 1..3)).prop_map(|(k, r)| ("dependencies".into(), json!({k: r}))),
        1 => (names(), schema).prop_map(|(k, s)| ("dependencies".into(), json!({k: s}))),
    ]
    .boxed()
}

/// Keywords that go together (`items` with `additionalItems`), as one generated member that
/// [`schema`] spreads into the object.
fn together(keywords: Value) -> (String, Value) {
    (TOGETHER.to_owned(), keywords)
}

/// The name of a generated member that stands for several keywords (see [`together`]).
const TOGETHER: &str = "\u{0}together";

/// One keyword of a 2020-12 schema.
fn keyword_of_2020_12(schema: BoxedStrategy<Value>) -> impl Strategy<Value = (String, Value)> {
    let names = || prop::sample::select(vec!["a", "b", "c"]);
    let types =
        prop::sample::select(vec!["null", "boolean", "integer", "number", "string", "array", "object"]);
    let small = || prop::sample::select(vec![0u64, 1, 2, 3]);
    prop_oneof![
        types.clone().prop_map(|t| ("type".into(), json!(t))),
        prop::sample::subsequence(
            vec!["null", "boolean", "integer", "number", "string", "array", "object"],
            1..3
        )
        .prop_map(|t| ("type".into(), json!(t))),
        prop::collection::vec(value(), 1..3).prop_map(|v| ("enum".into(), Value::Array(v))),
        value().prop_map(|v| ("const".into(), v)),
        (prop::sample::select(vec!["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]), -2i64..6)
            .prop_map(|(k, n)| (k.into(), json!(n))),
        prop::sample::select(vec![0.5, 2.0, 3.0, 0.1, 1.5]).prop_map(|m| ("multipleOf".into(), json!(m))),
        (
            prop::sample::select(vec![
                "minLength",
                "maxLength",
                "minItems",
                "maxItems",
                "minProperties",
                "maxProperties"
            ]),
            small()
        )
            .prop_map(|(k, n)| (k.into(), json!(n))),
        prop::sample::select(vec!["^a", "b$", "[0-9]+", "^\\d{2}$", "^.$", "\\p{L}"])
            .prop_map(|p| ("pattern".into(), json!(p))),
        schema.clone().prop_map(|s| ("items".into(), s)),
        prop::collection::vec(schema.clone(), 1..3).prop_map(|s| ("prefixItems".into(), Value::Array(s))),
        any::<bool>().prop_map(|b| ("uniqueItems".into(), json!(b))),
        schema.clone().prop_map(|s| ("contains".into(), s)),
        (prop::sample::select(vec!["minContains", "maxContains"]), small())
            .prop_map(|(k, n)| (k.into(), json!(n))),
        prop::collection::vec((names(), schema.clone()), 1..3).prop_map(|m| {
            ("properties".into(), Value::Object(m.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()))
        }),
        prop::collection::vec(names(), 1..3).prop_map(|r| ("required".into(), json!(r))),
        schema.clone().prop_map(|s| ("additionalProperties".into(), s)),
        schema.clone().prop_map(|s| ("patternProperties".into(), json!({"^x": s}))),
        schema.clone().prop_map(|s| ("propertyNames".into(), s)),
        (names(), prop::collection::vec(names(), 1..3))
            .prop_map(|(k, r)| ("dependentRequired".into(), json!({k: r}))),
        (names(), schema.clone()).prop_map(|(k, s)| ("dependentSchemas".into(), json!({k: s}))),
        (prop::sample::select(vec!["allOf", "anyOf", "oneOf"]), prop::collection::vec(schema.clone(), 1..3))
            .prop_map(|(k, s)| (k.into(), Value::Array(s))),
        schema.clone().prop_map(|s| ("not".into(), s)),
        (prop::sample::select(vec!["if", "then", "else"]), schema.clone()).prop_map(|(k, s)| (k.into(), s)),
        schema.clone().prop_map(|s| ("unevaluatedProperties".into(), s)),
        schema.prop_map(|s| ("unevaluatedItems".into(), s)),
        prop::sample::select(vec!["#/$defs/positive", "#", "#/$defs/list"])
            .prop_map(|r| ("$ref".into(), json!(r))),
        Just(("additionalProperties".into(), json!(false))),
        Just(("items".into(), json!(false))),
        Just(("unevaluatedProperties".into(), json!(false))),
        Just(("unevaluatedItems".into(), json!(false))),
    ]
}

/// A schema: `true`, `false`, or an object of a few keywords, nested (with `older`, in the
/// forms of the older drafts too).
fn schema(older: bool) -> impl Strategy<Value = Value> {
    let leaf =
        prop_oneof![Just(json!(true)), Just(json!(false)), Just(json!({})), Just(json!({"type": "string"}))];
    leaf.prop_recursive(4, 32, 4, move |inner| {
        prop::collection::vec(keyword(inner.boxed(), older), 1..4).prop_map(|keywords| {
            let mut object = Map::new();
            for (name, value) in keywords {
                match (name.as_str(), value) {
                    (TOGETHER, Value::Object(keywords)) => object.extend(keywords),
                    (_, value) => {
                        object.insert(name, value);
                    }
                }
            }
            Value::Object(object)
        })
    })
}

/// The `$defs` the generated `$ref`s name, added to a generated root.
fn with_definitions(mut schema: Value) -> Value {
    if let Value::Object(map) = &mut schema {
        map.insert(
            "$defs".into(),
            json!({
                "positive": {"type": "integer", "minimum": 1},
                "list": {"type": "array", "items": {"$ref": "#/$defs/list"}, "maxItems": 2}
            }),
        );
    }
    schema
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn plain_validation_agrees_with_the_jsonschema_crate(schema in schema(false), values in prop::collection::vec(value(), 1..6)) {
        let schema = with_definitions(schema);
        agree(&schema, &values)?;
    }

    /// The same in drafts 2019-09, 7, 6 and 4, each named by `$schema`, drafts 7, 6 and 4 with
    /// their own forms: each reads a keyword a later draft added as an annotation. (2019-09
    /// gets no `dependencies`: both validators read it there for compatibility, and only the
    /// engine counts the members it evaluates for `unevaluatedProperties`, as it counts
    /// `dependentSchemas`'.)
    #[test]
    fn every_draft_agrees_with_the_jsonschema_crate(
        (dialect, schema) in prop_oneof![
            schema(false).prop_map(|schema| ("https://json-schema.org/draft/2019-09/schema", schema)),
            (
                prop::sample::select(vec![
                    "http://json-schema.org/draft-07/schema#",
                    "http://json-schema.org/draft-06/schema#",
                    "http://json-schema.org/draft-04/schema#",
                ]),
                schema(true),
            ),
        ],
        values in prop::collection::vec(value(), 1..6),
    ) {
        let mut schema = with_definitions(schema);
        if let Value::Object(map) = &mut schema {
            map.insert("$schema".into(), json!(dialect));
        }
        agree(&schema, &values)?;
    }
}

/// Where both validators compile `schema`, each of `values` gets the same answer from both,
/// from the engine's explaining path, and (an object) from its strict check.
fn agree(schema: &Value, values: &[Value]) -> Result<(), TestCaseError> {
    let ours = Validator::builder(schema).formats(false).defaults(false).build();
    let strict = Validator::builder(schema).formats(false).defaults(false).policy(Policy::Strict).build();
    let theirs = jsonschema::options().should_validate_formats(false).build(schema);
    // (Which schemas each refuses is not compared: the `jsonschema` crate checks a schema
    // against its whole metaschema, so it refuses forms the engine reads, such as
    // `{"required": ["a", "a"]}` or an empty `items` array.)
    let (Ok(ours), Ok(theirs)) = (&ours, &theirs) else { return Ok(()) };
    for value in values {
        if value.is_object() && theirs.is_valid(value) {
            representations_come_back(schema, value)?;
        }
        let answer = ours.is_valid(value);
        prop_assert_eq!(answer, theirs.is_valid(value), "schema {} value {}", schema, value);
        prop_assert_eq!(answer, ours.validate(value).is_ok(), "explained: schema {} value {}", schema, value);
        // A call's arguments (an object), checked as sent under the strict policy: the same
        // answer, through the one pass and the walk.
        if let (Value::Object(_), Ok(strict)) = (value, &strict) {
            let checked = strict.check(value.to_string().as_str());
            prop_assert_eq!(
                checked.is_ok(),
                answer,
                "checked: schema {} value {} {:?}",
                schema,
                value,
                checked.err()
            );
        }
    }
    Ok(())
}

/// `value`, which `schema` accepts, sent in other representations (numbers and booleans as
/// strings, strings in capitals, nested containers as JSON strings) to `schema` with each
/// member's JSON type required beside it: whatever the default policy makes of it, the
/// other validator accepts. The types make the engine coerce; the rest of the schema, any
/// keyword at all, is what a coercion must not break.
fn representations_come_back(schema: &Value, value: &Value) -> Result<(), TestCaseError> {
    let Value::Object(members) = value else { return Ok(()) };
    let types: Map<String, Value> =
        members.iter().map(|(key, member)| (key.clone(), json!({"type": json_type(member)}))).collect();
    let typed = json!({"allOf": [schema, {"properties": types}]});
    let (Ok(ours), Ok(theirs)) = (
        Validator::builder(&typed).formats(false).defaults(false).build(),
        jsonschema::options().should_validate_formats(false).build(&typed),
    ) else {
        return Ok(());
    };
    for form in [Form::ScalarsAsStrings, Form::Capitals, Form::ContainersAsStrings] {
        let sent = sent_as(value, form, 0).to_string();
        if let Ok(checked) = ours.check(sent.as_str()) {
            prop_assert!(
                theirs.is_valid(&checked.value),
                "schema {} sent {} accepted as {}",
                typed,
                sent,
                checked.value
            );
        }
    }
    Ok(())
}

/// The JSON type of a value, as `type` names it.
fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// How [`sent_as`] writes a value in another representation.
#[derive(Clone, Copy, PartialEq)]
enum Form {
    ScalarsAsStrings,
    Capitals,
    ContainersAsStrings,
}

/// `value` as a model might send it: every number and boolean as a string, every string in
/// capitals, or every array and object below the top one as its JSON text.
fn sent_as(value: &Value, form: Form, depth: usize) -> Value {
    match (value, form) {
        (Value::Number(_) | Value::Bool(_), Form::ScalarsAsStrings) => Value::String(value.to_string()),
        (Value::String(text), Form::Capitals) => Value::String(text.to_uppercase()),
        (Value::Array(_) | Value::Object(_), Form::ContainersAsStrings) if depth > 0 => {
            Value::String(value.to_string())
        }
        (Value::Array(items), _) => {
            Value::Array(items.iter().map(|item| sent_as(item, form, depth + 1)).collect())
        }
        (Value::Object(members), _) => Value::Object(
            members.iter().map(|(key, item)| (key.clone(), sent_as(item, form, depth + 1))).collect(),
        ),
        _ => value.clone(),
    }
}
