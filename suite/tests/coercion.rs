//! The coercion contract, one table row per rule: representation is repaired and recorded,
//! choices are rejected. Each row runs through `Validator` on a plain JSON Schema.

use serde_json::{json, Value};
use tool_input::{CoercionKind, ErrorCode, Policy, RejectionKind, Validator};

/// `{"type": "object", "properties": {"v": <schema>}, "required": ["v"], "additionalProperties": false}`
fn wrap(schema: Value) -> Value {
    json!({"type": "object", "properties": {"v": schema}, "required": ["v"], "additionalProperties": false})
}

/// The checked value and the coercions made, or each error's path and code.
type Outcome = Result<(Value, Vec<CoercionKind>), Vec<(String, ErrorCode)>>;

fn check(schema: &Value, policy: Policy, raw: &str) -> Outcome {
    let validator = Validator::builder(schema).policy(policy).build().unwrap();
    match validator.check(raw) {
        Ok(checked) => Ok((checked.value, checked.report.coercions.iter().map(|c| c.kind).collect())),
        Err(rejection) => Err(rejection.errors().iter().map(|e| (e.path().to_owned(), e.code())).collect()),
    }
}

#[track_caller]
fn coerced(schema: Value, policy: Policy, sent: Value, expected: Value, kind: CoercionKind) {
    let raw = json!({"v": sent}).to_string();
    match check(&wrap(schema.clone()), policy, &raw) {
        Ok((value, kinds)) => {
            assert_eq!(value, json!({"v": expected}), "{schema} {policy} {raw}");
            assert_eq!(kinds, [kind], "{schema} {policy} {raw}");
        }
        Err(errors) => panic!("{schema} {policy} {raw}: rejected {errors:?}"),
    }
}

#[track_caller]
fn rejected(schema: Value, policy: Policy, sent: Value, code: ErrorCode) {
    let raw = json!({"v": sent}).to_string();
    match check(&wrap(schema.clone()), policy, &raw) {
        Ok((value, _)) => panic!("{schema} {policy} {raw}: accepted as {value}"),
        Err(errors) => assert_eq!(errors, [("/v".to_owned(), code)], "{schema} {policy} {raw}"),
    }
}

#[track_caller]
fn exact(schema: Value, policy: Policy, sent: Value) {
    let raw = json!({"v": sent}).to_string();
    match check(&wrap(schema.clone()), policy, &raw) {
        Ok((value, kinds)) => {
            assert_eq!(value, json!({"v": sent}), "{schema} {policy} {raw}");
            assert!(kinds.is_empty(), "{schema} {policy} {raw}: {kinds:?}");
        }
        Err(errors) => panic!("{schema} {policy} {raw}: rejected {errors:?}"),
    }
}

use CoercionKind::*;
use Policy::{Default as Normal, Lenient, Strict};

#[test]
fn strings_holding_arrays_and_objects() {
    let tags = json!({"type": "array", "items": {"type": "string"}});
    coerced(tags.clone(), Normal, json!(r#"["a","b"]"#), json!(["a", "b"]), ParsedString);
    coerced(tags.clone(), Normal, json!("['a', 'b']"), json!(["a", "b"]), ParsedString);
    coerced(tags.clone(), Normal, json!(" [\"a\"] "), json!(["a"]), ParsedString);
    rejected(tags.clone(), Strict, json!(r#"["a","b"]"#), ErrorCode::Type);
    rejected(tags.clone(), Normal, json!("a, b"), ErrorCode::Type);
    // The parsed items are coerced in turn.
    coerced(
        json!({"type": "array", "items": {"type": "integer"}}),
        Normal,
        json!("[1, 2]"),
        json!([1, 2]),
        ParsedString,
    );
    let point =
        json!({"type": "object", "properties": {"x": {"type": "integer"}}, "additionalProperties": false});
    coerced(point.clone(), Normal, json!(r#"{"x": 1}"#), json!({"x": 1}), ParsedString);
    coerced(point.clone(), Normal, json!("{'x': 1}"), json!({"x": 1}), ParsedString);
    // A string that parses to something else than what is declared stays a type error.
    rejected(point, Normal, json!("[1]"), ErrorCode::Type);
    // Where a string is declared, a string holding JSON stays a string.
    exact(json!({"type": "string"}), Normal, json!("[1, 2]"));
}

#[test]
fn enum_and_const_spellings() {
    let priority = json!({"type": "string", "enum": ["low", "high", "in_progress"]});
    coerced(priority.clone(), Normal, json!("High"), json!("high"), EnumCase);
    coerced(priority.clone(), Normal, json!("HIGH"), json!("high"), EnumCase);
    coerced(priority.clone(), Normal, json!("IN_PROGRESS"), json!("in_progress"), EnumCase);
    rejected(priority.clone(), Normal, json!("in progress"), ErrorCode::Enum);
    coerced(priority.clone(), Lenient, json!("In Progress"), json!("in_progress"), EnumCase);
    coerced(priority.clone(), Lenient, json!("in-progress"), json!("in_progress"), EnumCase);
    rejected(priority.clone(), Normal, json!("hgih"), ErrorCode::Enum);
    rejected(priority.clone(), Lenient, json!("hgih"), ErrorCode::Enum);
    rejected(priority.clone(), Normal, json!("urgent"), ErrorCode::Enum);
    rejected(priority, Strict, json!("High"), ErrorCode::Enum);
    // Two options differing only in case: "A" would be a choice between them.
    rejected(json!({"enum": ["a", "A"]}), Normal, json!("á"), ErrorCode::Enum);
    exact(json!({"enum": ["a", "A"]}), Normal, json!("A"));
    coerced(json!({"const": "circle"}), Normal, json!("Circle"), json!("circle"), EnumCase);
    rejected(json!({"const": "circle"}), Normal, json!("square"), ErrorCode::Const);
}

#[test]
fn numbers_from_strings_and_integral_floats() {
    let integer = json!({"type": "integer"});
    coerced(integer.clone(), Normal, json!("3"), json!(3), NumberFromString);
    coerced(integer.clone(), Normal, json!("-12"), json!(-12), NumberFromString);
    coerced(integer.clone(), Normal, json!(3.0), json!(3), IntegerFromFloat);
    coerced(integer.clone(), Normal, json!("3.0"), json!(3), NumberFromString);
    rejected(integer.clone(), Normal, json!(2.5), ErrorCode::Type);
    rejected(integer.clone(), Normal, json!("2.5"), ErrorCode::Type);
    rejected(integer.clone(), Normal, json!("three"), ErrorCode::Type);
    rejected(integer.clone(), Normal, json!("0x10"), ErrorCode::Type);
    rejected(integer.clone(), Normal, json!(" 3"), ErrorCode::Type);
    coerced(integer.clone(), Lenient, json!(" 3 "), json!(3), NumberFromString);
    rejected(integer.clone(), Strict, json!("3"), ErrorCode::Type);
    // Strict is plain JSON Schema: 3.0 is an integer there, and is left as sent.
    exact(integer, Strict, json!(3.0));
    let number = json!({"type": "number"});
    coerced(number.clone(), Normal, json!("2.5"), json!(2.5), NumberFromString);
    coerced(number.clone(), Normal, json!("1e3"), json!(1000.0), NumberFromString);
    exact(number.clone(), Normal, json!(3.0));
    rejected(number, Normal, json!("NaN"), ErrorCode::Type);
    // A coerced number is still range-checked: the choice stays the model's.
    rejected(json!({"type": "integer", "maximum": 10}), Normal, json!("11"), ErrorCode::Range);
}

#[test]
fn booleans_from_strings() {
    let flag = json!({"type": "boolean"});
    coerced(flag.clone(), Normal, json!("true"), json!(true), BoolFromString);
    coerced(flag.clone(), Normal, json!("FALSE"), json!(false), BoolFromString);
    coerced(flag.clone(), Normal, json!("True"), json!(true), BoolFromString);
    rejected(flag.clone(), Normal, json!("yes"), ErrorCode::Type);
    rejected(flag.clone(), Normal, json!(1), ErrorCode::Type);
    coerced(flag.clone(), Lenient, json!("yes"), json!(true), BoolFromString);
    coerced(flag.clone(), Lenient, json!("off"), json!(false), BoolFromString);
    coerced(flag.clone(), Lenient, json!(1), json!(true), BoolFromNumber);
    rejected(flag.clone(), Lenient, json!(2), ErrorCode::Type);
    rejected(flag, Strict, json!("true"), ErrorCode::Type);
}

#[test]
fn lenient_only_coercions() {
    let text = json!({"type": "string"});
    rejected(text.clone(), Normal, json!(5), ErrorCode::Type);
    coerced(text.clone(), Lenient, json!(5), json!("5"), StringFromScalar);
    coerced(text, Lenient, json!(true), json!("true"), StringFromScalar);
    let tags = json!({"type": "array", "items": {"type": "string"}});
    rejected(tags.clone(), Normal, json!("a"), ErrorCode::Type);
    coerced(tags.clone(), Lenient, json!("a"), json!(["a"]), WrappedInArray);
    // Not wrapped when the single value would not fit the items.
    rejected(
        json!({"type": "array", "items": {"type": "integer"}}),
        Lenient,
        json!({"x": 1}),
        ErrorCode::Type,
    );
    // Nor when the array's own rules refuse a list of one: the value is explained as sent,
    // at its own path, not as an item the model never sent.
    for array in [
        json!({"type": "array", "unevaluatedItems": false}),
        json!({"type": "array", "unevaluatedItems": {"type": "string"}}),
        json!({"type": "array", "contains": {"type": "string"}}),
        json!({"type": "array", "maxItems": 0}),
        json!({"type": "array", "prefixItems": [{"type": "string"}], "items": false}),
    ] {
        rejected(array, Lenient, json!(5), ErrorCode::Type);
    }
    coerced(
        json!({"type": "array", "prefixItems": [{"type": "integer"}], "unevaluatedItems": false}),
        Lenient,
        json!(5),
        json!([5]),
        WrappedInArray,
    );
}

#[test]
fn null_for_an_optional_property() {
    let schema = json!({
        "type": "object",
        "properties": {"note": {"type": "string"}, "when": {"type": ["string", "null"]}, "size": {"type": "integer", "default": 1}},
        "additionalProperties": false
    });
    let (value, kinds) = check(&schema, Normal, r#"{"note": null, "when": null, "size": null}"#).unwrap();
    // "note" does not accept null: absent. "when" does: kept. "size": absent, then its default.
    assert_eq!(value, json!({"when": null, "size": 1}));
    assert_eq!(kinds, [NullAsAbsent, NullAsAbsent, DefaultFilled]);
    assert_eq!(
        check(&schema, Strict, r#"{"note": null}"#).unwrap_err(),
        [("/note".to_owned(), ErrorCode::Type)]
    );
    // A required property sent as null is a type error, never absent.
    let required =
        json!({"type": "object", "properties": {"note": {"type": "string"}}, "required": ["note"]});
    assert_eq!(
        check(&required, Normal, r#"{"note": null}"#).unwrap_err(),
        [("/note".to_owned(), ErrorCode::Type)]
    );
}

#[test]
fn choices_are_never_coerced() {
    let schema = json!({
        "type": "object",
        "properties": {
            "priority": {"enum": ["low", "high"]},
            "quantity": {"type": "integer", "minimum": 1, "maximum": 1000},
            "sku": {"type": "string", "pattern": "^[A-Z]{3}-\\d{4}$"},
            "name": {"type": "string"}
        },
        "required": ["priority", "quantity", "sku", "name"],
        "additionalProperties": false
    });
    for policy in [Strict, Normal, Lenient] {
        let errors =
            check(&schema, policy, r#"{"priority": "hgih", "quantity": 0, "sku": "ab-1", "colour": "red"}"#)
                .unwrap_err();
        let codes: Vec<(&str, ErrorCode)> = errors.iter().map(|(p, c)| (p.as_str(), *c)).collect();
        for expected in [
            ("/priority", ErrorCode::Enum),
            ("/quantity", ErrorCode::Range),
            ("/sku", ErrorCode::Pattern),
            ("/colour", ErrorCode::UnknownField),
            ("/name", ErrorCode::Missing),
        ] {
            assert!(codes.contains(&expected), "{policy}: {expected:?} not in {codes:?}");
        }
        assert_eq!(codes.len(), 5, "{policy}: {codes:?}");
    }
}

#[test]
fn raw_arguments_of_any_shape() {
    let schema = json!({"type": "object", "properties": {"a": {"type": "integer"}}});
    let validator = Validator::new(&schema).unwrap();
    for empty in ["", "   ", "\n\t"] {
        assert_eq!(validator.check(empty).unwrap().value, json!({}));
    }
    assert_eq!(validator.check(None::<&str>).unwrap().value, json!({}));
    assert_eq!(validator.check(&Value::Null).unwrap().value, json!({}));
    assert_eq!(validator.check(&json!({"a": 1})).unwrap().value, json!({"a": 1}));
    assert_eq!(validator.check(&json!("{\"a\": 1}")).unwrap().value, json!({"a": 1}));
    assert_eq!(validator.check(b"{\"a\": 1}").unwrap().value, json!({"a": 1}));
    assert_eq!(validator.check(&b"{\"a\": \xff}"[..]).unwrap_err().kind(), RejectionKind::Parse);
    for not_object in ["[1]", "1", "\"text\"", "null", "true"] {
        assert_eq!(validator.check(not_object).unwrap_err().kind(), RejectionKind::NotObject, "{not_object}");
    }
    assert_eq!(validator.check(&json!([1])).unwrap_err().kind(), RejectionKind::NotObject);
    assert_eq!(validator.check("{\"a\": ").unwrap_err().kind(), RejectionKind::Truncated);
    assert_eq!(validator.check("{\"a\": 1 2 3 ]]").unwrap_err().kind(), RejectionKind::Parse);
}

#[test]
fn per_field_policies_override_the_tool_policy() {
    let schema = json!({
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}, "c": {"type": "string"}},
        "additionalProperties": false
    });
    let validator = Validator::builder(&schema)
        .field("a", Some(Strict), false)
        .field("c", Some(Lenient), false)
        .build()
        .unwrap();
    let rejection = validator.check(r#"{"a": "1", "b": "2", "c": 3}"#).unwrap_err();
    assert_eq!(rejection.errors().len(), 1);
    assert_eq!(rejection.errors()[0].path(), "/a");
    let checked = validator.check(r#"{"a": 1, "b": "2", "c": 3}"#).unwrap();
    assert_eq!(checked.value, json!({"a": 1, "b": 2, "c": "3"}));
}

#[test]
fn errors_inside_unions_name_the_leaf() {
    // What schemars writes for Option<Item>.
    let schema = json!({
        "type": "object",
        "properties": {"item": {"anyOf": [{"$ref": "#/$defs/Item"}, {"type": "null"}]}},
        "$defs": {"Item": {
            "type": "object",
            "properties": {"sku": {"type": "string"}, "quantity": {"type": "integer", "minimum": 1}},
            "required": ["sku", "quantity"],
            "additionalProperties": false
        }},
        "additionalProperties": false
    });
    let validator = Validator::new(&schema).unwrap();
    let rejection = validator.check(r#"{"item": {"sku": "A", "quantity": 0}}"#).unwrap_err();
    let paths: Vec<(&str, ErrorCode)> = rejection.errors().iter().map(|e| (e.path(), e.code())).collect();
    assert_eq!(paths, [("/item/quantity", ErrorCode::Range)]);
    let rejection = validator.check(r#"{"item": "nothing"}"#).unwrap_err();
    assert_eq!(rejection.errors()[0].code(), ErrorCode::Type);
    assert_eq!(rejection.errors()[0].message(), r#"expected an object or null, got "nothing""#);
    // Coercion inside a union branch.
    let checked = validator.check(r#"{"item": {"sku": "A", "quantity": "2"}}"#).unwrap();
    assert_eq!(checked.value, json!({"item": {"sku": "A", "quantity": 2}}));
    assert_eq!(checked.report.coercions[0].path, "/item/quantity");

    // An internally tagged enum: the branch whose tag matches is blamed.
    let shapes = json!({
        "type": "object",
        "properties": {"shape": {"oneOf": [
            {"type": "object", "properties": {"kind": {"const": "circle"}, "radius": {"type": "number"}}, "required": ["kind", "radius"], "additionalProperties": false},
            {"type": "object", "properties": {"kind": {"const": "square"}, "side": {"type": "number"}}, "required": ["kind", "side"], "additionalProperties": false}
        ]}},
        "required": ["shape"]
    });
    let validator = Validator::new(&shapes).unwrap();
    let rejection = validator.check(r#"{"shape": {"kind": "square", "side": "big"}}"#).unwrap_err();
    let paths: Vec<(&str, ErrorCode)> = rejection.errors().iter().map(|e| (e.path(), e.code())).collect();
    assert_eq!(paths, [("/shape/side", ErrorCode::Type)]);
    let checked = validator.check(r#"{"shape": {"kind": "Square", "side": "2"}}"#).unwrap();
    assert_eq!(checked.value, json!({"shape": {"kind": "square", "side": 2}}));
}

#[test]
fn ambiguous_coercions_are_rejected() {
    // "1" could be the integer 1 or (leniently) the boolean true: that is a choice.
    let schema = wrap(json!({"anyOf": [{"type": "integer"}, {"type": "boolean"}]}));
    let errors = check(&schema, Lenient, r#"{"v": "1"}"#).unwrap_err();
    assert_eq!(errors, [("/v".to_owned(), ErrorCode::Ambiguous)]);
    // Under the default policy only the integer reading exists.
    assert_eq!(check(&schema, Normal, r#"{"v": "1"}"#).unwrap().0, json!({"v": 1}));
}

#[test]
fn every_error_is_collected() {
    let schema = json!({
        "type": "object",
        "properties": {"items": {"type": "array", "items": {"type": "integer", "minimum": 0}, "maxItems": 3}},
        "additionalProperties": false
    });
    let errors = check(&schema, Normal, r#"{"items": [-1, 2, -3, "x"]}"#).unwrap_err();
    assert_eq!(
        errors,
        [
            ("/items".to_owned(), ErrorCode::Items),
            ("/items/0".to_owned(), ErrorCode::Range),
            ("/items/2".to_owned(), ErrorCode::Range),
            ("/items/3".to_owned(), ErrorCode::Type),
        ]
    );
}

/// A coercion is made only when the value as sent fails and the coerced value passes the
/// whole schema: every applicator, condition and sibling bound, not only the subschema that
/// asked for it. Each row is refused as sent, and its coercion would break a sibling.
#[test]
fn a_coercion_never_breaks_the_rest_of_the_schema() {
    for (schema, sent) in [
        (json!({"allOf": [{"not": {"const": "high"}}, {"enum": ["low", "high"]}]}), json!("HIGH")),
        (json!({"anyOf": [{"type": "integer"}], "maximum": 5}), json!("10")),
        (json!({"anyOf": [{"type": "array"}, {"type": "null"}], "maxItems": 1}), json!("[1,2]")),
        (json!({"oneOf": [{"type": "integer"}, {"type": "number", "minimum": 0}]}), json!("5")),
        (json!({"allOf": [{"not": {"type": "array"}}, {"type": "array"}]}), json!("[1]")),
        (json!({"anyOf": [{"type": "integer"}], "not": {"const": 3}}), json!("3")),
        (
            json!({"anyOf": [{"type": "integer"}], "if": {"type": "integer"}, "then": {"minimum": 10}}),
            json!("3"),
        ),
        (json!({"anyOf": [{"type": "array"}], "contains": {"type": "string"}}), json!("[1]")),
        (json!({"anyOf": [{"type": "integer"}], "multipleOf": 2}), json!("3")),
    ] {
        for policy in [Policy::Default, Policy::Lenient] {
            let raw = json!({"v": sent}).to_string();
            let outcome = check(&wrap(schema.clone()), policy, &raw);
            assert!(outcome.is_err(), "{schema} {policy} {raw}: accepted as {outcome:?}");
        }
    }
    // Objects: a coercion below `propertyNames`, `dependentSchemas` and
    // `unevaluatedProperties` is held to them too.
    for (schema, raw) in [
        (
            json!({"type": "object", "properties": {"n": {"anyOf": [{"type": "integer"}]}},
                   "dependentSchemas": {"n": {"properties": {"n": {"maximum": 1}}}}}),
            r#"{"n": "5"}"#,
        ),
        (
            json!({"type": "object", "properties": {"n": {"anyOf": [{"type": "integer"}]}},
                   "unevaluatedProperties": false, "allOf": [{"properties": {"n": {"maximum": 1}}}]}),
            r#"{"n": "5"}"#,
        ),
    ] {
        assert!(check(&schema, Policy::Default, raw).is_err(), "{schema} {raw}");
    }
    // A member both `properties` and `patternProperties` check (or two patterns): the
    // coercion one asks for is held to the other, which read the value as sent.
    for (schema, raw, policy) in [
        (
            json!({"properties": {"tags": {"maxItems": 2}}, "additionalProperties": false,
                   "patternProperties": {"^t": {"type": "array", "items": {"type": "string"}}}}),
            r#"{"tags": "[\"a\", \"b\", \"c\"]"}"#,
            Policy::Default,
        ),
        (
            json!({"patternProperties": {"^n": {"type": "boolean"}}, "properties": {"name": {"type": "string"}}}),
            r#"{"name": "true"}"#,
            Policy::Default,
        ),
        (
            json!({"patternProperties": {"o": {"type": "number"}}, "properties": {"count": {"type": "string"}}}),
            r#"{"count": "3.0"}"#,
            Policy::Default,
        ),
        (
            json!({"patternProperties": {"^n": {"type": "string"}}, "properties": {"name": {"maxLength": 3}}}),
            r#"{"name": true}"#,
            Policy::Lenient,
        ),
        (
            json!({"patternProperties": {"^n": {"type": "array"}}, "properties": {"name": {"type": "object"}}}),
            r#"{"name": {}}"#,
            Policy::Lenient,
        ),
        (
            json!({"patternProperties": {"^n": {"type": "integer"}, "e$": {"maximum": 1}}}),
            r#"{"name": "5"}"#,
            Policy::Default,
        ),
    ] {
        assert!(check(&schema, policy, raw).is_err(), "{schema} {raw}");
    }
    let both = json!({"properties": {"tags": {"maxItems": 2}},
                      "patternProperties": {"^t": {"type": "array", "items": {"type": "string"}}}});
    coerced(
        both,
        Policy::Default,
        json!({"tags": "[\"a\"]"}),
        json!({"tags": ["a"]}),
        CoercionKind::ParsedString,
    );
    // Where the coerced value keeps the whole schema, the coercion stands.
    let kept = json!({"anyOf": [{"type": "integer"}], "maximum": 50});
    coerced(kept, Policy::Default, json!("10"), json!(10), CoercionKind::NumberFromString);
}

/// The option a refused coercion made is not suggested: sending it fails too. Where the
/// coercion stood for an option the schema takes, the did-you-mean stays.
#[test]
fn a_refused_option_is_not_suggested() {
    let schema = wrap(json!({"allOf": [{"not": {"const": "high"}}, {"enum": ["low", "high"]}]}));
    let validator = Validator::new(&schema).unwrap();
    let rejection = validator.check(r#"{"v": "HIGH"}"#).unwrap_err();
    let error = &rejection.errors()[0];
    assert_eq!((error.path(), error.code()), ("/v", ErrorCode::Enum));
    assert_eq!(error.suggestion(), None);
    assert_eq!(error.message(), r#""HIGH" is not one of "low", "high""#);
    // A misspelling is no coercion: "high" is suggested as before, though it fails too
    // (only a coercion the schema refused says so).
    let rejection = validator.check(r#"{"v": "hihg"}"#).unwrap_err();
    assert_eq!(rejection.errors()[0].suggestion(), Some(&json!("high")));
    // Without the `not`, "HIGH" is coerced, and "hihg" gets its did-you-mean.
    let plain = Validator::new(&wrap(json!({"enum": ["low", "high"]}))).unwrap();
    assert_eq!(plain.check(r#"{"v": "HIGH"}"#).unwrap().value, json!({"v": "high"}));
    assert_eq!(plain.check(r#"{"v": "hihg"}"#).unwrap_err().errors()[0].suggestion(), Some(&json!("high")));
}

/// Only the coercion that broke the schema is undone: the others stand, and every error is
/// reported in the same round, each about the value the model sent where a coercion was to
/// blame. Through strict JSON, a Python literal and a fenced text alike.
#[test]
fn only_the_coercion_that_broke_the_schema_is_undone() {
    let props = json!({"p": {"enum": ["low", "high"]}, "q": {"type": "integer", "maximum": 5}});
    // The `not` beside the enum, at the root, in an `if` about a sibling.
    let beside = json!({"type": "object", "properties": {
        "p": {"allOf": [{"not": {"const": "high"}}, {"enum": ["low", "high"]}]},
        "q": {"type": "integer", "maximum": 5}}});
    let above = json!({"type": "object", "properties": props,
        "not": {"properties": {"p": {"const": "high"}}, "required": ["p"]}});
    let p_enum = ("/p".to_owned(), ErrorCode::Enum);
    let q_range = ("/q".to_owned(), ErrorCode::Range);
    for schema in [&beside, &above] {
        for (raw, expected) in [
            // `q` sent as a string is a fine coercion: only `p` is reported.
            (r#"{"p": "HIGH", "q": "4"}"#, vec![p_enum.clone()]),
            ("{'p': 'HIGH', 'q': '4'}", vec![p_enum.clone()]),
            ("```json\n{\"p\": \"HIGH\", \"q\": 4}\n```", vec![p_enum.clone()]),
            // `q` out of range beside it: both at once, not `q` first and `p` a round later.
            (r#"{"p": "HIGH", "q": "10"}"#, vec![p_enum.clone(), q_range.clone()]),
            ("{'p': 'HIGH', 'q': 10,}", vec![p_enum.clone(), q_range.clone()]),
        ] {
            assert_eq!(check(schema, Policy::Default, raw), Err(expected), "{schema} {raw}");
        }
        // The refused option is not suggested; the message quotes what was sent.
        let validator = Validator::new(schema).unwrap();
        let rejection = validator.check(r#"{"p": "HIGH", "q": "10"}"#).unwrap_err();
        let error = &rejection.errors()[0];
        assert_eq!((error.suggestion(), error.message()), (None, r#""HIGH" is not one of "low", "high""#));
        // Where nothing breaks, every coercion stands.
        let (value, kinds) = check(schema, Policy::Default, r#"{"p": "LOW", "q": "4"}"#).expect("accepted");
        assert_eq!((value, kinds), (json!({"p": "low", "q": 4}), vec![EnumCase, NumberFromString]));
    }
    // Items: only the item whose coercion made what `not: {contains}` refuses.
    let items = json!({"type": "object", "properties": {"xs": {"type": "array",
        "items": {"enum": ["a", "b"]}, "not": {"contains": {"const": "b"}}}}});
    assert_eq!(
        check(&items, Policy::Default, r#"{"xs": ["A", "B", "a"]}"#),
        Err(vec![("/xs/1".to_owned(), ErrorCode::Enum)])
    );
    // A null is not read as absent where the count of properties needs it.
    let count = json!({"type": "object", "properties": {"p": {"type": "string"}, "q": {"type": "integer"}},
        "minProperties": 2});
    assert_eq!(
        check(&count, Policy::Default, r#"{"p": null, "q": "4"}"#),
        Err(vec![("/p".to_owned(), ErrorCode::Type)])
    );
    let (value, kinds) =
        check(&count, Policy::Default, r#"{"p": null, "q": "4", "r": 1}"#).expect("accepted");
    assert_eq!((value, kinds), (json!({"q": 4, "r": 1}), vec![NullAsAbsent, NumberFromString]));
    // Nor where a dependency, or an `allOf` branch, requires the property: the null is
    // explained as sent, not as a missing property, and `a` sent as a string still stands.
    for needs in [
        json!({"dependentRequired": {"a": ["b"]}}),
        json!({"dependencies": {"a": ["b"]}}),
        json!({"allOf": [{"required": ["b"]}]}),
    ] {
        let mut schema =
            json!({"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}});
        schema.as_object_mut().unwrap().extend(needs.as_object().unwrap().clone());
        assert_eq!(
            check(&schema, Policy::Default, r#"{"a": "1", "b": null}"#),
            Err(vec![("/b".to_owned(), ErrorCode::Type)]),
            "{schema}"
        );
    }
    // Two coercions the schema refuses only together, each alone refused by its own branch
    // of an `anyOf`: neither is to blame alone, and the value is explained as sent, with no
    // option suggested that the schema refused.
    let together = json!({"type": "object", "properties": props, "not": {"anyOf": [
        {"properties": {"p": {"const": "high"}}, "required": ["p"]},
        {"properties": {"q": {"const": 4}}, "required": ["q"]}]}});
    let validator = Validator::new(&together).unwrap();
    let rejection = validator.check(r#"{"p": "HIGH", "q": "4"}"#).unwrap_err();
    let found: Vec<_> = rejection.errors().iter().map(|e| (e.path(), e.code(), e.suggestion())).collect();
    assert_eq!(found, [("/p", ErrorCode::Enum, None), ("/q", ErrorCode::Type, None)]);
}

/// An object of an integer `a` and an integer `b` whose default is 2, with `extra` keywords.
fn a_and_b_defaulted(extra: Value) -> Value {
    let mut schema = json!({
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": "integer", "default": 2}}
    });
    schema.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
    schema
}

/// A default filled in is not the model's doing: the count of properties is of those sent,
/// and a default that would take the object past `maxProperties` is not filled (the value
/// handed over passes the schema, as sent).
#[test]
fn a_filled_default_is_not_counted_against_the_model() {
    let schema = a_and_b_defaulted;
    for extra in [json!({"maxProperties": 1}), json!({"maxProperties": 1, "additionalProperties": false})] {
        let one = schema(extra);
        let (value, kinds) = check(&one, Policy::Default, r#"{"a": 1}"#).expect("accepted");
        assert_eq!(value, json!({"a": 1}), "{one}");
        assert_eq!(kinds, [], "{one}");
        // Through the walk too (a coercion sends the call there).
        let (value, kinds) = check(&one, Policy::Default, r#"{"a": "1"}"#).expect("accepted");
        assert_eq!(value, json!({"a": 1}), "{one}");
        assert_eq!(kinds, [CoercionKind::NumberFromString], "{one}");
        assert!(Validator::new(&one).unwrap().is_valid(&value));
        // Nothing sent: the default fits.
        let (value, kinds) = check(&one, Policy::Default, "{}").expect("accepted");
        assert_eq!(value, json!({"b": 2}), "{one}");
        assert_eq!(kinds, [CoercionKind::DefaultFilled], "{one}");
        // Too many sent is the model's own error, counted as sent.
        let rejection = Validator::new(&one).unwrap().check(r#"{"a": 1, "b": 3}"#).unwrap_err();
        assert_eq!(rejection.errors()[0].code(), ErrorCode::Properties);
        assert!(rejection.errors()[0].message().contains("2 properties"), "{rejection}");
    }
    // Room for it: filled.
    let two = schema(json!({"maxProperties": 2}));
    let (value, kinds) = check(&two, Policy::Default, r#"{"a": 1}"#).expect("accepted");
    assert_eq!(value, json!({"a": 1, "b": 2}));
    assert_eq!(kinds, [CoercionKind::DefaultFilled]);
    // Under another branch's bound, the same.
    let branch = schema(json!({"allOf": [{"maxProperties": 1}]}));
    let (value, kinds) = check(&branch, Policy::Default, r#"{"a": 1}"#).expect("accepted");
    assert_eq!(value, json!({"a": 1}));
    assert_eq!(kinds, []);
    // `minProperties` counts what was sent: a default does not make up the number.
    let least = schema(json!({"minProperties": 2}));
    assert_eq!(
        check(&least, Policy::Default, r#"{"a": 1}"#),
        Err(vec![(String::new(), ErrorCode::Properties)])
    );
}

/// Every count bound against every set of members sent, with defaults for some of the
/// properties left out: an accepted value, defaults in, passes the schema (the `jsonschema`
/// crate's reading), and where the schema takes the call as sent it is accepted, with or
/// without a coercion (which sends it down the walk instead of the one pass).
#[test]
fn filled_defaults_keep_every_count_bound() {
    let members = ["a", "b", "c", "x"];
    for (min, max, deny) in
        (0..4).flat_map(|min| (0..4).flat_map(move |max| [(min, max, false), (min, max, true)]))
    {
        let schema = json!({
            "type": "object",
            "properties": {
                "a": {"type": "integer"},
                "b": {"type": "integer", "default": 2},
                "c": {"type": "integer", "default": 3},
                "x": {"type": "integer"}
            },
            "minProperties": min,
            "maxProperties": max,
            "additionalProperties": !deny
        });
        let ours = Validator::new(&schema).unwrap();
        let theirs = jsonschema::options().build(&schema).unwrap();
        for subset in 0..16u32 {
            let sent_as = |member: Value| -> Value {
                (0..4)
                    .filter(|bit| subset & 1 << bit != 0)
                    .map(|bit| (members[bit].to_owned(), member.clone()))
                    .collect()
            };
            let sent = sent_as(json!(1));
            for raw in [sent.to_string(), sent_as(json!("1")).to_string()] {
                match ours.check(raw.as_str()) {
                    Ok(checked) => assert!(
                        theirs.is_valid(&checked.value),
                        "{schema} {raw}: accepted as {}",
                        checked.value
                    ),
                    Err(rejection) => {
                        assert!(!theirs.is_valid(&sent), "{schema} {raw}: refused: {rejection}")
                    }
                }
            }
        }
    }
}

/// A default that holds an object whose schema fills the same default in again cannot be
/// filled: it is a schema error when the validator is built (the walk filled it without end
/// and overflowed the stack, for any call that left the property out, or sent `{}` there).
#[test]
fn a_default_that_fills_itself_again_is_a_schema_error() {
    let endless = json!({"type": "object", "properties": {"c": {"$ref": "#", "default": {}}}});
    let error = Validator::new(&endless).expect_err("refused");
    assert_eq!(error.pointer, "/properties/c/default");
    assert!(error.message.contains("without end"), "{error}");
    // As an annotation it fills nothing, and the schema checks calls.
    let annotated = Validator::builder(&endless).defaults(false).build().expect("compiles");
    assert_eq!(annotated.check(r#"{"c": {"c": {}}}"#).expect("accepted").value, json!({"c": {"c": {}}}));
    // A default that fills another inside it, and ends there, is filled whole.
    let nested = json!({"properties": {"c": {"properties": {"d": {"default": {"e": 1}}}, "default": {}}}});
    let (value, kinds) = check(&nested, Policy::Default, "{}").expect("accepted");
    assert_eq!(value, json!({"c": {"d": {"e": 1}}}));
    assert_eq!(kinds, [DefaultFilled, DefaultFilled]);
}

/// Nor is it refused for the model: where a keyword other than its own property's schema
/// refuses the object with the default in it (a `not`, a dependency, a `oneOf`, an `if`,
/// `propertyNames`, a sibling's type), the call is checked as sent and no default is filled;
/// what the model sent wrong is still said, and nothing else.
#[test]
fn a_default_the_rest_of_the_schema_refuses_is_not_filled() {
    let object = a_and_b_defaulted;
    let schemas = [
        object(json!({"not": {"required": ["b"]}})),
        object(json!({"dependentRequired": {"b": ["c"]}})),
        object(json!({"dependentSchemas": {"b": {"required": ["c"]}}})),
        object(json!({"propertyNames": {"pattern": "^a"}})),
        object(json!({"oneOf": [{"required": ["a"]}, {"required": ["b"]}]})),
        object(json!({"if": {"required": ["b"]}, "then": {"required": ["c"]}})),
        object(json!({"allOf": [{"properties": {"b": {"type": "string"}}}]})),
        object(json!({"patternProperties": {"^b": {"type": "string"}}})),
        // One level down.
        json!({"type": "object", "properties": {"o": object(json!({"not": {"required": ["b"]}}))}}),
    ];
    for schema in schemas {
        let nested = schema["properties"].get("o").is_some();
        let wrap = |text: &str| if nested { format!(r#"{{"o": {text}}}"#) } else { text.to_owned() };
        let unwrap = |value: Value| if nested { value["o"].clone() } else { value };
        for policy in [Policy::Strict, Policy::Default, Policy::Lenient] {
            let (value, kinds) = check(&schema, policy, &wrap(r#"{"a": 1}"#))
                .unwrap_or_else(|errors| panic!("{schema} {policy}: refused {errors:?}"));
            assert_eq!(unwrap(value), json!({"a": 1}), "{schema} {policy}");
            assert!(kinds.is_empty(), "{schema} {policy}: {kinds:?}");
            // A wrong value beside it is the one error.
            let errors = check(&schema, policy, &wrap(r#"{"a": true}"#)).unwrap_err();
            let at = if nested { "/o/a" } else { "/a" };
            assert_eq!(errors, [(at.to_owned(), ErrorCode::Type)], "{schema} {policy}");
        }
        // A coercion of the model's value still stands, and is recorded alone.
        let (value, kinds) = check(&schema, Policy::Default, &wrap(r#"{"a": "1"}"#)).expect("accepted");
        assert_eq!(
            (unwrap(value), kinds),
            (json!({"a": 1}), vec![CoercionKind::NumberFromString]),
            "{schema}"
        );
    }
}

/// Nor may a default pass a call the schema refuses with it in, or fail one the schema takes
/// as sent, whichever keyword reads its object: an `enum` or `const` of whole objects (read
/// before the defaults are filled), another branch's property beside the branch that has the
/// default, `uniqueItems` over items the default made equal. The call is then checked as
/// sent, and no default is filled.
#[test]
fn a_default_is_held_to_every_keyword_that_reads_its_object() {
    for (schema, raw) in [
        (json!({"type": "object", "enum": [{}], "properties": {"c": {"default": []}}}), "{}"),
        (json!({"type": "object", "const": {}, "properties": {"c": {"default": []}}}), "{}"),
        (
            json!({"properties": {"o": {"type": "object", "properties": {"c": {"default": 1}}}},
                   "enum": [{"o": {}}]}),
            r#"{"o": {}}"#,
        ),
        (
            json!({"type": "object", "allOf": [{"properties": {"b": {"default": []}}}],
                   "properties": {"b": {"type": "string"}}}),
            "{}",
        ),
        (
            json!({"type": "object", "oneOf": [{"properties": {"b": {"default": []}}}],
                   "properties": {"b": {"type": "string"}}}),
            "{}",
        ),
        (
            json!({"properties": {"xs": {"type": "array", "uniqueItems": true,
                   "items": {"type": "object", "properties": {"c": {"default": 1}}}}}}),
            r#"{"xs": [{}, {"c": 1}]}"#,
        ),
    ] {
        let sent: Value = serde_json::from_str(raw).unwrap();
        for policy in [Strict, Normal, Lenient] {
            let validator = Validator::builder(&schema).policy(policy).build().unwrap();
            for checked in [validator.check(raw), validator.check(&sent)] {
                let checked = checked.unwrap_or_else(|r| panic!("{schema} {policy} {raw}: refused {r}"));
                assert_eq!(checked.value, sent, "{schema} {policy} {raw}");
                assert!(checked.report.coercions.is_empty(), "{schema} {policy} {raw}");
            }
        }
    }
    // A required property with a default, beside a keyword a coercion may meet: the
    // coercion stands, and the default is filled (the property's absence as sent was blamed
    // on the coercion, and the call refused).
    let required = json!({"type": "object", "properties": {"a": {"type": "integer"}, "b": {"default": 1}},
                          "required": ["a", "b"], "not": {"required": ["z"]}});
    assert_eq!(
        check(&required, Normal, r#"{"a": "3"}"#),
        Ok((json!({"a": 3, "b": 1}), vec![DefaultFilled, NumberFromString]))
    );
    // A call refused for the model's own mistake is told that alone, not also that the
    // property with a default is missing, by the walk (a value) as by the one pass (text).
    let validator = Validator::new(&required).unwrap();
    for rejection in [validator.check("{}").unwrap_err(), validator.check(&json!({})).unwrap_err()] {
        let found: Vec<_> = rejection.errors().iter().map(|e| (e.path(), e.code())).collect();
        assert_eq!(found, [("/a", ErrorCode::Missing)]);
    }
}

#[test]
fn format_spellings_are_rewritten_once_and_recorded() {
    let date_time = json!({"type": "string", "format": "date-time"});
    let uuid = json!({"type": "string", "format": "uuid"});
    let id = "2eb8aa08-aa98-11ea-b4aa-73b441d16380";
    for policy in [Policy::Default, Policy::Lenient] {
        coerced(
            date_time.clone(),
            policy,
            json!("2026-12-01 10:00:00Z"),
            json!("2026-12-01T10:00:00Z"),
            CoercionKind::FormatSpelling,
        );
        coerced(
            date_time.clone(),
            policy,
            json!("2026-12-01 10:00:00z"),
            json!("2026-12-01T10:00:00Z"),
            CoercionKind::FormatSpelling,
        );
        coerced(
            date_time.clone(),
            policy,
            json!("2026-12-01 10:00:00.5+02:00"),
            json!("2026-12-01T10:00:00.5+02:00"),
            CoercionKind::FormatSpelling,
        );
        coerced(uuid.clone(), policy, json!(format!("{{{id}}}")), json!(id), CoercionKind::FormatSpelling);
        coerced(
            uuid.clone(),
            policy,
            json!(format!("urn:uuid:{id}")),
            json!(id),
            CoercionKind::FormatSpelling,
        );
        coerced(
            uuid.clone(),
            policy,
            json!(format!("URN:UUID:{}", id.to_uppercase())),
            json!(id.to_uppercase()),
            CoercionKind::FormatSpelling,
        );
        // RFC 3339 and RFC 9562 allow these as sent: nothing to rewrite.
        exact(date_time.clone(), policy, json!("2026-12-01t10:00:00z"));
        exact(uuid.clone(), policy, json!(id.to_uppercase()));
        // No offset invented, no date guessed, no other wrapper taken off.
        rejected(date_time.clone(), policy, json!("2026-12-01 10:00:00"), ErrorCode::Format);
        rejected(date_time.clone(), policy, json!("2026-12-01  10:00:00Z"), ErrorCode::Format);
        rejected(date_time.clone(), policy, json!("12/01/2026 10:00:00Z"), ErrorCode::Format);
        rejected(date_time.clone(), policy, json!("2026-13-01 10:00:00Z"), ErrorCode::Format);
        rejected(uuid.clone(), policy, json!(format!("({id})")), ErrorCode::Format);
        rejected(uuid.clone(), policy, json!(format!("{{{id}")), ErrorCode::Format);
        rejected(uuid.clone(), policy, json!(format!("urn:uuid:{{{id}}}")), ErrorCode::Format);
    }
    rejected(date_time, Policy::Strict, json!("2026-12-01 10:00:00Z"), ErrorCode::Format);
    rejected(uuid, Policy::Strict, json!(format!("{{{id}}}")), ErrorCode::Format);
}

#[test]
fn a_format_spelling_keeps_the_whole_schema() {
    let id = "2eb8aa08-aa98-11ea-b4aa-73b441d16380";
    let braced = json!(format!("{{{id}}}"));
    // A keyword beside the format refuses the rewritten value: the value as sent is refused.
    let min_length = json!({"type": "string", "format": "uuid", "minLength": 38});
    rejected(min_length, Policy::Default, braced.clone(), ErrorCode::Format);
    let sibling = json!({"allOf": [{"type": "string", "format": "uuid"}, {"pattern": "^\\{"}]});
    assert!(check(&wrap(sibling), Policy::Default, &json!({"v": braced}).to_string()).is_err());
    let excluded = json!({"allOf": [{"format": "date-time"}, {"not": {"const": "2026-12-01T10:00:00Z"}}]});
    assert!(check(&wrap(excluded), Policy::Default, r#"{"v": "2026-12-01 10:00:00Z"}"#).is_err());
    let beside = json!({"allOf": [{"type": "string", "format": "date-time"}, {"maxLength": 20}]});
    coerced(beside, Normal, json!("2026-12-01 10:00:00Z"), json!("2026-12-01T10:00:00Z"), FormatSpelling);
    // With `format` an annotation, nothing is asserted and nothing rewritten.
    let schema = wrap(json!({"type": "string", "format": "uuid"}));
    let validator = Validator::builder(&schema).formats(false).build().unwrap();
    let checked = validator.check(json!({"v": format!("{{{id}}}")}).to_string().as_str()).unwrap();
    assert!(checked.report.coercions.is_empty());
}

#[test]
fn a_format_spelling_record_shows_both_spellings() {
    let schema = wrap(json!({"type": "string", "format": "date-time"}));
    let checked = Validator::new(&schema).unwrap().check(r#"{"v": "2026-12-01 10:00:00Z"}"#).unwrap();
    let record = &checked.report.coercions[0];
    assert_eq!(record.kind.code(), "format_spelling");
    assert_eq!(record.path, "/v");
    assert_eq!(record.from.as_deref(), Some(r#""2026-12-01 10:00:00Z""#));
    assert_eq!(record.to.as_deref(), Some(r#""2026-12-01T10:00:00Z""#));
}
