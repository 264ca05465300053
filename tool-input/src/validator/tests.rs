//! The untyped check's one pass (the typed path's, into a `Value`) against the walk alone: for any
//! text, `check_with` gives what the walk gives, value, report and rejection alike.

use proptest::prelude::*;
use serde_json::{json, Value};

use super::typed::Defaults::Given;
use super::*;

/// The value-only path (`check_typed_value`) against the typed check with its records.
mod text_ends;
mod value_only;

/// The walk alone: what `check_with` did before the one pass was tried.
fn by_walk(validator: &Validator, text: &str, options: &CheckOptions) -> Result<Checked<Value>, Rejection> {
    validator.check_by_walk(RawArguments::Text(text), options)
}

/// Schemas with defaults at every depth (one of them an integer only as JSON Schema reads it,
/// `5.0`, which the walk rewrites),
/// enums, patterns, bounds, closed objects, integers and unions.
fn schemas() -> Vec<Value> {
    vec![
        json!({
            "type": "object",
            "properties": {
                "name": {"type": "string", "minLength": 1},
                "mode": {"type": "string", "enum": ["fast", "slow"], "default": "fast"},
                "count": {"type": "integer", "minimum": 0, "default": 1},
                "ratio": {"type": "number", "maximum": 10},
                "flag": {"type": "boolean", "default": false},
                "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 3, "default": []},
                "inner": {
                    "type": "object",
                    "properties": {
                        "depth": {"type": "integer", "default": 2},
                        "note": {"type": ["string", "null"], "default": null}
                    },
                    "additionalProperties": false
                },
                "items": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {
                            "sku": {"type": "string", "pattern": "^[A-Z]+$"},
                            "quantity": {"type": "integer", "default": 1}
                        },
                        "required": ["sku"]
                    }
                }
            },
            "required": ["name"]
        }),
        json!({
            "type": "object",
            "properties": {
                "a": {"type": "integer", "default": 5.0},
                "b": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
                "c": {"type": "object", "properties": {"d": {"type": "string", "default": "x"}}, "default": {}}
            },
            "additionalProperties": {"type": "integer"}
        }),
        json!({
            "type": "object",
            "properties": {"a~/b": {"type": "object", "properties": {"c/d": {"type": "string", "default": "e"}}}},
            "additionalProperties": false
        }),
        // Arrays whose items must be unique, beside coercions and defaults inside them.
        json!({
            "type": "object",
            "properties": {
                "tags": {"type": "array", "items": {"type": "string", "enum": ["fast", "slow"]}, "uniqueItems": true},
                "items": {
                    "type": "array",
                    "uniqueItems": true,
                    "items": {"type": "object", "properties": {"quantity": {"type": "integer", "default": 1}}}
                },
                "a": {"type": "array", "uniqueItems": true, "items": {"type": "array", "uniqueItems": true}},
                "b": {"uniqueItems": true, "maxItems": 3},
                "c": {"type": "array", "items": {"type": "integer"}, "uniqueItems": true},
                "d": {"type": "array", "items": {"type": ["string", "null"]}, "uniqueItems": true}
            }
        }),
        // Enums reached through `$ref`, with options of other types, beside a `pattern`, and
        // an `enum` beside a `$ref` to another.
        json!({
            "$defs": {
                "level": {"enum": ["low", "high", 3, null]},
                "code": {"type": "string", "enum": ["AB", "CD", "ab"], "pattern": "^[A-Z]+$"}
            },
            "type": "object",
            "properties": {
                "mode": {"$ref": "#/$defs/level"},
                "name": {"$ref": "#/$defs/code"},
                "tags": {"type": "array", "items": {"$ref": "#/$defs/level", "enum": ["low", 3]}},
                "inner": {"type": "object", "additionalProperties": {"$ref": "#/$defs/level"}}
            }
        }),
    ]
}

/// A value of about the shapes the schemas declare, often off them.
fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-3i64..20).prop_map(|n| json!(n)),
        prop_oneof![Just(json!(1.0)), Just(json!(2.5)), Just(json!(1e300))],
        prop_oneof![
            Just(json!("fast")),
            Just(json!("FAST")),
            Just(json!("slow")),
            Just(json!("ABC")),
            Just(json!("abc")),
            Just(json!("")),
            Just(json!("3")),
            Just(json!("true")),
            Just(json!("[\"x\"]")),
            Just(json!("low")),
            Just(json!("HIGH")),
            Just(json!("AB")),
        ],
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        let keys = prop_oneof![
            Just("name"),
            Just("mode"),
            Just("count"),
            Just("ratio"),
            Just("flag"),
            Just("tags"),
            Just("inner"),
            Just("depth"),
            Just("note"),
            Just("items"),
            Just("sku"),
            Just("quantity"),
            Just("a"),
            Just("b"),
            Just("c"),
            Just("d"),
            Just("a~/b"),
            Just("c/d"),
            Just("other"),
        ];
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map(keys, inner, 0..6)
                .prop_map(|map| Value::Object(map.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn the_one_pass_gives_what_the_walk_gives(
        schema in 0usize..5,
        value in value(),
        policy in prop_oneof![Just(Policy::Strict), Just(Policy::Default), Just(Policy::Lenient)],
        with_name in any::<bool>(),
        trailing_comma in any::<bool>(),
    ) {
        let schema = &schemas()[schema];
        let validator = Validator::builder(schema).policy(policy).build().expect("the schema compiles");
        let mut value = value;
        if with_name {
            if let Value::Object(map) = &mut value {
                map.insert("name".to_owned(), json!("n"));
            }
        }
        let mut text = value.to_string();
        if trailing_comma && text.ends_with('}') && text.len() > 2 {
            text.insert(text.len() - 1, ',');
        }
        let options = CheckOptions::default();
        let got = validator.check_with(RawArguments::Text(&text), &options);
        let want = by_walk(&validator, &text, &options);
        prop_assert_eq!(format!("{got:?}"), format!("{want:?}"), "text {}", text);
        let into = validator.check_into::<Value>(text.as_str(), &options);
        prop_assert_eq!(format!("{into:?}"), format!("{want:?}"), "check_into, text {}", text);
    }
}

/// JSON text of an object with `members` in the order given (a `Value` would sort them).
fn object_text(members: &[(&str, String)]) -> String {
    let members: Vec<String> =
        members.iter().map(|(key, value)| format!("{}: {value}", json!(key))).collect();
    format!("{{{}}}", members.join(", "))
}

/// An item of the first schema's `items`, its members in any order, some left out.
fn item() -> impl Strategy<Value = String> {
    (
        prop_oneof![Just("\"A\""), Just("\"ABC\""), Just("\"abc\"")],
        prop::option::of(prop_oneof![Just("2"), Just("\"4\""), Just("1.0")]),
        any::<bool>(),
    )
        .prop_map(|(sku, quantity, flip)| {
            let mut members = vec![("sku", sku.to_owned())];
            if let Some(quantity) = quantity {
                members.push(("quantity", quantity.to_owned()));
            }
            if flip {
                members.reverse();
            }
            object_text(&members)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Calls of the first schema that are mostly valid, with defaults to fill at every depth
    /// and members in any order: the records come in the walk's order.
    #[test]
    fn defaults_at_every_depth_come_in_the_walks_order(
        optional in prop::collection::vec(
            prop_oneof![
                Just(("mode", "\"slow\"".to_owned())),
                Just(("count", "3".to_owned())),
                Just(("flag", "true".to_owned())),
                Just(("tags", "[\"t\"]".to_owned())),
                Just(("ratio", "2.5".to_owned())),
            ],
            0..4,
        ),
        inner in prop::option::of(prop::collection::vec(
            prop_oneof![Just(("depth", "5")), Just(("note", "\"n\"")), Just(("note", "null"))],
            0..3,
        )),
        items in prop::option::of(prop::collection::vec(item(), 0..4)),
        rotate in 0usize..8,
    ) {
        let mut members: Vec<(&str, String)> = vec![("name", "\"n\"".to_owned())];
        members.extend(optional);
        if let Some(inner) = inner {
            let inner: Vec<(&str, String)> = inner.into_iter().map(|(k, v)| (k, v.to_owned())).collect();
            members.push(("inner", object_text(&inner)));
        }
        if let Some(items) = items {
            members.push(("items", format!("[{}]", items.join(", "))));
        }
        let len = members.len();
        members.rotate_left(rotate % len);
        let text = object_text(&members);
        let validator = Validator::new(&schemas()[0]).expect("the schema compiles");
        let options = CheckOptions::default();
        let got = validator.check_with(RawArguments::Text(&text), &options);
        let want = by_walk(&validator, &text, &options);
        prop_assert_eq!(format!("{got:?}"), format!("{want:?}"), "text {}", text);
        let into = validator.check_into::<Value>(text.as_str(), &options);
        prop_assert_eq!(format!("{into:?}"), format!("{want:?}"), "check_into, text {}", text);
    }
}

#[test]
fn defaults_are_filled_at_every_depth_as_the_walk_fills_them() {
    let validator = Validator::new(&schemas()[0]).expect("the schema compiles");
    let text = r#"{"name": "n", "inner": {}, "items": [{"sku": "A"}, {"sku": "B", "quantity": 3}]}"#;
    let checked = validator.check(text).expect("valid");
    assert_eq!(checked.value["inner"], json!({"depth": 2, "note": null}));
    assert_eq!(checked.value["items"][0]["quantity"], json!(1));
    assert_eq!(checked.value["mode"], json!("fast"));
    assert_eq!(Ok(checked), by_walk(&validator, text, &CheckOptions::default()).map_err(|_| ()));
    // Decided by the one pass, not left to the walk.
    let limits = Limits::default();
    let raw = RawArguments::Text(text);
    let read = read_arguments(raw, Policy::Default, &limits, false).expect("parses");
    assert!(validator.accepts_parsed_exactly(read, raw, Policy::Default, &limits).is_ok());
}

#[test]
fn a_default_the_walk_changes_is_left_to_the_walk() {
    let validator = Validator::new(&schemas()[1]).expect("the schema compiles");
    assert!(!validator.inner.plan.defaults_exact);
    let got = validator.check("{}");
    let want = by_walk(&validator, "{}", &CheckOptions::default());
    assert_eq!(format!("{got:?}"), format!("{want:?}"));
}

/// Members that need a coercion or a default, for each schema: some at keys of digits
/// (`9` is after `10` as a key, before it as an index).
fn coerced_members(schema: usize) -> Vec<(&'static str, String)> {
    let pairs: &[(&str, &str)] = match schema {
        0 => &[
            ("mode", "\"FAST\""),
            ("count", "\"3\""),
            ("flag", "\"true\""),
            ("ratio", "\"2.5\""),
            ("tags", "\"[\\\"t\\\"]\""),
            ("inner", "{\"depth\": \"4\"}"),
            ("inner", "\"{\\\"note\\\": \\\"n\\\"}\""),
        ],
        _ => &[
            ("10", "\"3\""),
            ("9", "\"4\""),
            ("2", "5"),
            ("b", "7"),
            ("c", "{}"),
            ("c", "{\"d\": \"y\"}"),
            ("a", "\"6\""),
        ],
    };
    pairs.iter().map(|(key, value)| (*key, (*value).to_owned())).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// Coercions at members in any order, at keys of digits, at items past the ninth, with
    /// defaults to fill: every path that decides a call (the untyped one pass, the typed one
    /// pass from strict text and from repaired text) gives the walk's report, records in the
    /// walk's order.
    #[test]
    fn every_path_gives_the_walks_records_in_the_walks_order(
        schema in prop_oneof![Just(0usize), Just(1usize)],
        picks in prop::collection::vec(0usize..7, 0..6),
        items in 0usize..13,
        quantity_as_text in any::<bool>(),
        rotate in 0usize..8,
        trailing_comma in any::<bool>(),
    ) {
        let pool = coerced_members(schema);
        let mut members: Vec<(&str, String)> = Vec::new();
        for pick in picks {
            let (key, value) = &pool[pick];
            if !members.iter().any(|(k, _)| k == key) {
                members.push((key, value.clone()));
            }
        }
        if schema == 0 {
            members.push(("name", "\"n\"".to_owned()));
            let quantity = if quantity_as_text { "\"2\"" } else { "2" };
            let listed: Vec<String> = (0..items)
                .map(|n| object_text(&[("quantity", quantity.to_owned()), ("sku", format!("\"{}\"", "AB".repeat(n % 2 + 1)))]))
                .collect();
            members.push(("items", format!("[{}]", listed.join(", "))));
        }
        let len = members.len().max(1);
        members.rotate_left(rotate % len);
        let mut text = object_text(&members);
        if trailing_comma && text.len() > 2 {
            text.insert(text.len() - 1, ',');
        }
        // The walk is the lenient policy's; the schema's defaults (one refused in schema 1)
        // are the walk's to judge.
        let validator = Validator::new(&schemas()[schema]).expect("the schema compiles");
        let options = CheckOptions::default();
        let want = by_walk(&validator, &text, &options);
        let raw = RawArguments::Text(&text);
        let untyped = validator.check_with(raw, &options);
        prop_assert_eq!(format!("{untyped:?}"), format!("{want:?}"), "untyped, text {}", text);
        let into = validator.check_into::<Value>(raw, &options);
        prop_assert_eq!(format!("{into:?}"), format!("{want:?}"), "check_into, text {}", text);
        // (A typed value is read as sent: its defaults are `T`'s to fill.)
        let typed = validator.check_typed::<Value>(raw, &options, Default::default());
        // The value alone (`from_arguments`): the same value or rejection, no record written.
        let value_only = validator.check_typed_value::<Value>(raw, &options, Default::default());
        prop_assert_eq!(
            format!("{:?}", value_only.map(|checked| checked.value)),
            format!("{:?}", typed.as_ref().map(|checked| &checked.value)),
            "value only, text {}", text
        );
        let typed = typed.map(|checked| checked.report);
        let want_report = want.as_ref().map(|checked| &checked.report);
        prop_assert_eq!(format!("{typed:?}"), format!("{want_report:?}"), "typed, text {}", text);
        if let Some(one_pass) = validator.check_typed_one_pass::<Value>(raw, &options) {
            let want = want.expect("the one pass decides only calls the walk accepts");
            prop_assert_eq!(&one_pass.report, &want.report, "one pass, text {}", text);
        }
    }
}

/// A default the walk changes once filled (`2.0` written as `2`): no one-pass path (the
/// typed steps, the untyped pass) may fill it as it is; the walk does, and records both.
#[test]
fn the_one_pass_leaves_a_default_the_walk_changes_to_the_walk() {
    let schema = json!({"type": "object", "properties": {"n": {"type": "integer", "default": 2.0}}});
    let validator = Validator::new(&schema).expect("the schema compiles");
    assert!(!validator.inner.plan.defaults_exact);
    let options = CheckOptions::default();
    for text in ["{}", "{'m': 1}"] {
        assert!(
            validator.check_typed_one_pass::<Value>(RawArguments::Text(text), &options).is_none(),
            "{text}"
        );
        let checked = validator.check_with(RawArguments::Text(text), &options).expect(text);
        assert_eq!(checked.value["n"], json!(2), "{text}");
        let kinds: Vec<_> = checked.report.coercions.iter().map(|record| record.kind).collect();
        assert!(kinds.ends_with(&[CoercionKind::DefaultFilled, CoercionKind::IntegerFromFloat]), "{kinds:?}");
        let typed = validator.check_typed::<Value>(RawArguments::Text(text), &options, Default::default());
        assert_eq!(typed.expect(text).value["n"], json!(2), "{text}");
    }
    // Sent, the default is not needed: the one pass decides, strict or repaired.
    for text in [r#"{"n": 1}"#, "{'n': 1}"] {
        assert!(
            validator.check_typed_one_pass::<Value>(RawArguments::Text(text), &options).is_some(),
            "{text}"
        );
    }
}

/// A string whose schema is an `enum` (through `$ref`s, with options of other types) is
/// decided by the one pass, with the walk's value and records; an `enum` beside a `pattern`
/// or another `enum` is checked against both.
#[test]
fn the_one_pass_decides_enum_strings_as_the_walk_does() {
    let validator = Validator::new(&schemas()[4]).expect("the schema compiles");
    let options = CheckOptions::default();
    for text in [
        r#"{"mode": "low"}"#,
        r#"{"mode": 3, "name": "AB"}"#,
        r#"{"mode": "HIGH"}"#,
        r#"{"tags": ["low", 3], "inner": {"x": "high"}}"#,
    ] {
        let one_pass = validator.check_typed_one_pass::<Value>(RawArguments::Text(text), &options);
        let want = by_walk(&validator, text, &options).expect(text);
        let one_pass = one_pass.unwrap_or_else(|| panic!("the one pass decides {text}"));
        assert_eq!((&one_pass.value, &one_pass.report), (&want.value, &want.report), "{text}");
    }
    for text in
        [r#"{"mode": "medium"}"#, r#"{"name": "ab"}"#, r#"{"tags": ["high"]}"#, r#"{"inner": {"x": "mid"}}"#]
    {
        assert!(
            validator.check_typed_one_pass::<Value>(RawArguments::Text(text), &options).is_none(),
            "{text}"
        );
        let rejection = by_walk(&validator, text, &options).expect_err(text);
        let got = validator.check_with(RawArguments::Text(text), &options).expect_err(text);
        assert_eq!(format!("{got:?}"), format!("{rejection:?}"), "{text}");
    }
}

/// Texts the one pass reads while parsing, or leaves: keys given twice (the same value, two
/// values, nested, undeclared), white space around, text past the value, values the check
/// refuses or coerces, defaults to fill. Each as the walk alone would give it.
#[test]
fn the_pass_while_parsing_gives_what_the_walk_gives() {
    let texts = [
        r#"{"name": "n"}"#,
        "\n\t {\"name\": \"n\"} \r\n",
        "\u{a0}{\"name\": \"n\"}",
        r#"{"name": "n", "name": "n"}"#,
        r#"{"name": "n", "name": "m"}"#,
        r#"{"name": "n", "inner": {"depth": 3, "depth": 3}}"#,
        r#"{"name": "n", "inner": {"depth": 3, "depth": 4}}"#,
        r#"{"name": "n", "extra": 1, "extra": 2}"#,
        r#"{"name": "n", "items": [{"sku": "ABC", "sku": "ABD"}]}"#,
        r#"{"name": "n"} trailing"#,
        r#"{"name": "n"}{"name": "m"}"#,
        r#"{"name": "n", "count": "3"}"#,
        r#"{"name": "n", "count": "three"}"#,
        r#"{"name": "n", "mode": "FAST"}"#,
        r#"{"name": "n", "tags": "[\"a\"]"}"#,
        r#"{"name": "n", "ratio": 1e400}"#,
        r#"{"name": "n\ud800"}"#,
        r#"{"name": "n", "items": [{"sku": "A"}, {"sku": "B", "quantity": 3}]}"#,
        r#"{"na\u006de": "n", "inner": {}}"#,
        "{\"name\": \"n\",}",
        "{}",
        "{",
    ];
    for schema in &schemas() {
        for policy in [Policy::Strict, Policy::Default, Policy::Lenient] {
            let validator = Validator::builder(schema).policy(policy).build().expect("the schema compiles");
            for text in texts {
                let options = CheckOptions::default();
                let got = validator.check_with(RawArguments::Text(text), &options);
                let want = by_walk(&validator, text, &options);
                assert_eq!(format!("{got:?}"), format!("{want:?}"), "{policy:?} {text}");
                let bytes = validator.check_with(RawArguments::Bytes(text.as_bytes()), &options);
                assert_eq!(format!("{bytes:?}"), format!("{want:?}"), "{policy:?} {text}");
            }
        }
    }
}

/// Texts of [`the_pass_while_parsing_gives_what_the_walk_gives`], and mangled ones.
const CHECKED_TEXTS: &[&str] = &[
    r#"{"name": "n"}"#,
    r#"{"name": "n", "name": "m"}"#,
    r#"{"name": "n", "inner": {"depth": 3, "depth": 3}}"#,
    r#"{"name": "n", "extra": 1, "extra": 2}"#,
    r#"{"name": "n", "count": "3"}"#,
    r#"{"name": "n", "count": "three"}"#,
    r#"{"name": "n", "mode": "FAST"}"#,
    r#"{"name": "n", "tags": "[\"a\"]"}"#,
    r#"{"name": "n", "items": [{"sku": "A"}, {"sku": "B", "quantity": 3}]}"#,
    "{\"name\": \"n\",}",
    "```json\n{'name': 'n', mode: 'SLOW', count: '2', tags: ['a',],}\n```",
    "{'name': 'n', 'inner': {'depth': 'x'}, 'extra': True}",
    "{}",
    "{",
];

#[test]
fn a_transform_that_changes_nothing_checks_the_text_read_once_as_check_with() {
    for schema in &schemas() {
        for policy in [Policy::Strict, Policy::Default, Policy::Lenient] {
            for aliased in [false, true] {
                let mut builder = Validator::builder(schema).policy(policy);
                if aliased {
                    // `nom` for `name`, `n` for `count`: mapped by the walk alone.
                    builder = builder.alias("nom", "name").alias("n", "count");
                }
                let validator = builder.build().expect("the schema compiles");
                for &text in
                    CHECKED_TEXTS.iter().chain(&[r#"{"nom": "n", "n": 2}"#, r#"{"name": "n", "n": "2"}"#])
                {
                    let options = CheckOptions::default();
                    let want = validator.check_with(RawArguments::Text(text), &options);
                    let before = TEXTS_READ.with(|read| read.get());
                    let got =
                        validator.check_transformed(RawArguments::Text(text), &options, |_| (Vec::new(), 0));
                    let reads = TEXTS_READ.with(|read| read.get()) - before;
                    assert_eq!(format!("{got:?}"), format!("{want:?}"), "{policy:?} {text}");
                    // A text that parses is read once (then checked); one that does not is left to
                    // `check_with`, which reads it again to say why.
                    let parses = crate::parse::parse(text, &validator.limits().parse_options(policy)).is_ok();
                    if parses {
                        assert_eq!(reads, 1, "{policy:?} {text}");
                    }
                }
            }
        }
    }
}

#[test]
fn text_the_one_pass_reads_is_decided_by_it_as_the_walk_would() {
    let validator = Validator::new(&schemas()[0]).expect("the schema compiles");
    let options = CheckOptions::default();
    let limits = Limits::default();
    let decided = |text: &str| {
        let pass =
            validator.one_pass::<Value>(RawArguments::Text(text), &options, Policy::Default, &limits, Given);
        matches!(pass, Ok(OnePass::Decided(_)))
    };
    // Exact strict JSON, and (as a typed call is read) a coercion on the way, text the
    // lenient parser reads onto a tape, and both: the value is built once, by the pass.
    let read = [
        r#"{"name": "n", "inner": {}, "items": [{"sku": "A"}]}"#,
        r#"{"name": "n", "count": "3"}"#,
        "{'name': 'n'}",
        "{'name': 'n', 'mode': 'FAST', 'count': '3',}",
    ];
    // Left to the walk: a key given twice, a value refused (strict JSON or not).
    let walked = [r#"{"name": "n", "name": "n"}"#, r#"{"name": 3}"#, "{'name': 3}"];
    for text in read {
        assert!(decided(text), "{text}");
    }
    for text in walked {
        assert!(!decided(text), "{text}");
    }
    // Either way, `check_with` gives what the walk gives; under limits whose echoes the
    // defaults would not fit, the pass gives the defaults up to the walk.
    let small = Limits { max_echo_chars: 7, ..Limits::default() };
    for options in [options, CheckOptions { limits: Some(small), ..CheckOptions::default() }] {
        for text in read.into_iter().chain(walked) {
            let got = validator.check_with(RawArguments::Text(text), &options);
            assert_eq!(format!("{got:?}"), format!("{:?}", by_walk(&validator, text, &options)), "{text}");
        }
    }
}

/// An object under a node that is only a `$ref` (or only required names and a count bound)
/// is checked by what the node says and what its target says: the target's closed object,
/// its required names and its defaults, and the node's own required names and bound.
#[test]
fn an_object_under_a_node_that_is_only_a_ref_is_checked_by_its_target() {
    let validator = Validator::new(&json!({
        "type": "object",
        "properties": {
            "item": {"$ref": "#/$defs/item"},
            "bag": {"minProperties": 2, "required": ["k"]},
            "any": {}
        },
        "$defs": {"item": {
            "type": "object",
            "properties": {"sku": {}, "n": {"type": "integer", "default": 1}},
            "required": ["sku"],
            "additionalProperties": false
        }}
    }))
    .unwrap();
    let rejection =
        validator.check(r#"{"item": {"x": null}, "bag": {"a": 1}, "any": {"z": 1}}"#).unwrap_err();
    let mut found: Vec<(&str, ErrorCode)> =
        rejection.errors.iter().map(|e| (e.path.as_str(), e.code)).collect();
    found.sort();
    assert_eq!(
        found,
        [
            ("/bag", ErrorCode::Properties),
            ("/bag/k", ErrorCode::Missing),
            ("/item/sku", ErrorCode::Missing),
            ("/item/x", ErrorCode::UnknownField),
        ]
    );
    let checked =
        validator.check(r#"{"item": {"sku": 1}, "bag": {"a": 1, "k": 2}, "any": {"z": 1}}"#).unwrap();
    assert_eq!(checked.value["item"], json!({"sku": 1, "n": 1}));
    assert_eq!(checked.value["any"], json!({"z": 1}));
    let filled: Vec<&str> = checked.report.coercions.iter().map(|c| c.path.as_str()).collect();
    assert_eq!(filled, ["/item/n"]);
}

#[test]
fn a_default_its_own_schema_refuses_is_a_schema_error_at_that_default() {
    let refused = |schema: Value| Validator::new(&schema).expect_err("a schema error");
    let wrong_type =
        refused(json!({"type": "object", "properties": {"n": {"type": "integer", "default": "ten"}}}));
    assert_eq!(wrong_type.pointer, "/properties/n/default");
    assert!(wrong_type.message.contains("expected an integer"), "{}", wrong_type.message);
    assert!(wrong_type.message.contains("`n`"), "{}", wrong_type.message);

    let out_of_range = refused(
        json!({"type": "object", "properties": {"n": {"type": "integer", "minimum": 5, "default": 1}}}),
    );
    assert!(out_of_range.message.contains("minimum of 5"), "{}", out_of_range.message);

    // Inside an object's default: the path inside it is named.
    let nested = refused(json!({"type": "object", "properties": {"o": {
        "type": "object", "properties": {"x": {"type": "string"}}, "default": {"x": 3}}}}));
    assert_eq!(nested.pointer, "/properties/o/default");
    assert!(nested.message.contains("at /x"), "{}", nested.message);

    // A default found through a `$ref` is named where it is written.
    let through_ref = refused(json!({"type": "object", "properties": {"b": {"$ref": "#/$defs/B"}},
        "$defs": {"B": {"type": "string", "default": 1}}}));
    assert_eq!(through_ref.pointer, "/$defs/B/default");

    // A nested object's property default, at any depth.
    let deep = refused(json!({"type": "object", "properties": {"o": {"type": "object",
        "properties": {"p": {"type": "boolean", "default": "yes"}}}}}));
    assert_eq!(deep.pointer, "/properties/o/properties/p/default");
}

#[test]
fn a_default_valid_as_json_schema_reads_it_is_filled() {
    let validator =
        Validator::new(&json!({"type": "object", "properties": {"n": {"type": "integer", "default": 5.0}}}))
            .unwrap();
    let checked = validator.check("{}").unwrap();
    assert_eq!(checked.value["n"], json!(5));
    assert_eq!(checked.report.coercions[0].kind, CoercionKind::DefaultFilled);
}

#[test]
fn defaults_as_annotations_are_neither_filled_nor_checked() {
    let schema = json!({"type": "object", "properties": {"n": {"type": "integer", "default": "ten"}}});
    let validator = Validator::builder(&schema).defaults(false).build().unwrap();
    let checked = validator.check("{}").unwrap();
    assert_eq!(checked.value, json!({}));
    assert!(checked.report.coercions.is_empty());
    assert!(validator.is_valid(&json!({"n": 3})));
}

/// `check_into` reads a type of the caller's: the defaults of absent properties handed to it
/// at every depth (through a `$ref`, in array items) as the walk's value holds them, whether
/// the one pass decides (strict or repaired text, a value) or the walk does (a coercion the
/// one pass does not make).
#[test]
fn check_into_hands_every_default_to_the_type() {
    #[derive(Debug, serde::Deserialize, PartialEq)]
    struct Item {
        sku: String,
        quantity: i64,
    }
    #[derive(Debug, serde::Deserialize, PartialEq)]
    struct Inner {
        depth: i64,
        note: Option<String>,
    }
    #[derive(Debug, serde::Deserialize, PartialEq)]
    struct Order {
        name: String,
        mode: String,
        count: i64,
        flag: bool,
        tags: Vec<String>,
        inner: Option<Inner>,
        items: Vec<Item>,
    }
    let validator = Validator::new(&schemas()[0]).expect("the schema compiles");
    let want = Order {
        name: "n".into(),
        mode: "fast".into(),
        count: 1,
        flag: false,
        tags: Vec::new(),
        inner: Some(Inner { depth: 2, note: None }),
        items: vec![Item { sku: "A".into(), quantity: 1 }, Item { sku: "B".into(), quantity: 3 }],
    };
    let strict = r#"{"name": "n", "inner": {}, "items": [{"sku": "A"}, {"sku": "B", "quantity": 3}]}"#;
    let repaired = r#"{'name': 'n', 'inner': {}, 'items': [{'sku': 'A'}, {'sku': 'B', 'quantity': 3},],}"#;
    let value: Value = serde_json::from_str(strict).unwrap();
    for raw in [RawArguments::Text(strict), RawArguments::Text(repaired), RawArguments::Value(&value)] {
        let checked = validator.check_into::<Order>(raw, &CheckOptions::default()).expect("accepted");
        assert_eq!(checked.value, want, "{raw:?}");
        // Decided by the one pass, which handed the defaults over.
        let options = CheckOptions::default();
        let one_pass = validator.one_pass::<Order>(raw, &options, Policy::Default, &Limits::default(), Given);
        assert!(matches!(one_pass, Ok(OnePass::Decided(_))), "{raw:?}");
        let by_value = validator.check_with(raw, &CheckOptions::default()).expect("accepted");
        assert_eq!(checked.report, by_value.report, "{raw:?}");
    }
    let refused = validator
        .check_into::<Order>(r#"{"name": "n", "tags": [1, 2, 3, 4], "items": []}"#, &CheckOptions::default());
    let rejection = refused.expect_err("too many tags");
    assert_eq!(rejection.errors[0].path, "/tags");
}

/// Under per-call limits other than the validator's, the defaults were not judged exact for
/// them: the walk fills them (and may refuse one), never the one pass unjudged.
#[test]
fn check_into_under_other_limits_leaves_defaults_to_the_walk() {
    let schema =
        json!({"type": "object", "properties": {"s": {"type": "string", "default": "a long default"}}});
    let validator = Validator::new(&schema).expect("the schema compiles");
    let limits = Limits { max_string_bytes: 4, ..Limits::default() };
    let options = CheckOptions::default().with_limits(limits);
    let into = validator.check_into::<Value>("{}", &options);
    let want = by_walk(&validator, "{}", &options);
    assert_eq!(format!("{into:?}"), format!("{want:?}"));
    let own = validator.check_into::<Value>("{}", &CheckOptions::default()).expect("accepted");
    assert_eq!(own.value, json!({"s": "a long default"}));
}

/// A value the schema accepts and `T` refuses: one `deserialize` error at its path, its
/// message quoting nothing under a sensitive field.
#[test]
fn check_into_rejects_what_the_type_refuses_without_quoting_a_secret() {
    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct User {
        user: u8,
    }
    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Token {
        token: u8,
    }
    let schema =
        json!({"type": "object", "properties": {"user": {"type": "integer"}, "token": {"type": "string"}}});
    let validator =
        Validator::builder(&schema).field("token", None, true).build().expect("the schema compiles");
    let options = CheckOptions::default();
    let user = validator.check_into::<User>(r#"{"user": 300}"#, &options).expect_err("refused");
    assert_eq!((user.errors[0].path.as_str(), user.errors[0].code), ("/user", ErrorCode::Deserialize));
    // serde_json's own message; with its `arbitrary_precision` on, it reads "invalid number".
    if !crate::arbitrary_precision::enabled() {
        assert!(user.errors[0].message.contains("300"), "{}", user.errors[0].message);
    }
    let token = validator.check_into::<Token>(r#"{"token": "hunter2"}"#, &options).expect_err("refused");
    assert_eq!((token.errors[0].path.as_str(), token.errors[0].code), ("/token", ErrorCode::Deserialize));
    assert!(!format!("{token:?}").contains("hunter2"), "{token:?}");
}

/// serde_json's `arbitrary_precision` (which any crate in a build can turn on) hands the
/// engine's readers a number with a fraction or an exponent as a map: every build reads,
/// checks and answers alike. CI runs these tests with the feature on as well.
#[test]
fn numbers_read_and_check_alike_whatever_serde_json_features_the_build_has() {
    #[derive(Debug, PartialEq, serde::Deserialize)]
    struct Point {
        x: f64,
        z: Vec<f32>,
    }
    let schema = json!({
        "type": "object",
        "properties": {
            "x": {"type": "number", "maximum": 2.5},
            "y": {"enum": [1.5, 2]},
            "z": {"type": "array", "items": {"type": "number"}},
            "w": {"type": "integer"},
            "v": {"type": "object", "properties": {"n": {"type": "number"}}, "additionalProperties": false}
        },
        "additionalProperties": false
    });
    let validator = Validator::new(&schema).expect("the schema compiles");
    let outcome = |text: &str| match validator.check(text) {
        Ok(checked) => format!(
            "{} {:?}",
            checked.value,
            checked.report.coercions.iter().map(|c| (c.path.as_str(), c.kind)).collect::<Vec<_>>()
        ),
        Err(rejection) => {
            format!("{:?}", rejection.errors.iter().map(|e| (e.path.as_str(), e.code)).collect::<Vec<_>>())
        }
    };
    let cases = [
        (
            r#"{"x": 2.50, "y": 1.50, "z": [1e0, -0, 0.1, 18446744073709551616]}"#,
            r#"{"x":2.5,"y":1.5,"z":[1.0,-0.0,0.1,1.8446744073709552e+19]} []"#,
        ),
        (r#"{"x": 2.6}"#, r#"[("/x", Range)]"#),
        (r#"{"y": 1.25, "w": 2.5}"#, r#"[("/y", Enum), ("/w", Type)]"#),
        (r#"{"v": {"n": -2.5e+3}, "w": 2.0}"#, r#"{"v":{"n":-2500.0},"w":2} [("/w", IntegerFromFloat)]"#),
        (r#"{"w": 1e400}"#, r#"[("/w", Range)]"#),
        ("{'x': 2.5, 'z': [\"1.5\", 2E-1],}", r#"{"x":2.5,"z":[1.5,0.2]} [("/z/0", NumberFromString)]"#),
        (r#"{"v": {"n": "0.25"}}"#, r#"{"v":{"n":0.25}} [("/v/n", NumberFromString)]"#),
    ];
    for (text, want) in cases {
        assert_eq!(outcome(text), want, "{text}");
    }
    // Arguments already read by serde_json (a provider body's object): checked by value.
    let sent: Value = serde_json::from_str(r#"{"x": 2.50, "z": [1e0, "0.5"]}"#).expect("JSON");
    let checked = validator.check(&sent).expect("accepted");
    assert_eq!(checked.value["z"][1], json!(0.5));
    assert_eq!(checked.value["x"].as_f64(), Some(2.5));
    assert!(validator.check(&json!({"x": 2.51})).is_err());
    let options = CheckOptions::default();
    let point =
        validator.check_into::<Point>(r#"{"x": 2.50, "z": [0.5, "1e1"]}"#, &options).expect("accepted");
    assert_eq!(point.value, Point { x: 2.5, z: vec![0.5, 10.0] });
    let point = validator.check_into::<Point>(r#"{"x": 3.5, "z": []}"#, &options).expect_err("refused");
    assert_eq!(point.errors[0].path, "/x");
}

/// A report's records come in one order in every build (by key, depth first), whether the
/// one pass or the walk made them and in whatever order the members were sent: CI runs the
/// library's tests with serde_json's `preserve_order` on (every feature) and off.
#[test]
fn coercion_records_come_by_key_in_every_build() {
    let schema = json!({
        "type": "object",
        "properties": {
            "zeta": {"type": "integer"},
            "alpha": {"type": "boolean"},
            "mid": {"type": "object", "properties": {"y": {"type": "integer"}, "x": {"type": "integer", "default": 0}}}
        }
    });
    let validator = Validator::new(&schema).expect("the schema compiles");
    let paths = |text: &str, policy: Policy| {
        let options = CheckOptions::default().with_policy(policy);
        let checked = validator.check_with(RawArguments::Text(text), &options).expect("accepted");
        // The walk's and the one pass's records (a repeated key's comes first, apart).
        let made =
            [CoercionKind::NumberFromString, CoercionKind::BoolFromString, CoercionKind::DefaultFilled];
        checked
            .report
            .coercions
            .iter()
            .filter(|c| made.contains(&c.kind))
            .map(|c| c.path.clone())
            .collect::<Vec<_>>()
    };
    let by_key = ["/alpha", "/mid/x", "/mid/y", "/zeta"];
    // Strict JSON that needs coercions (the one pass), and the same text mangled (the tape),
    // and with a key the walk alone reads (a repeated key with one value).
    for text in [
        r#"{"zeta": "1", "mid": {"y": "2"}, "alpha": "true"}"#,
        "{'zeta': '1', 'mid': {'y': '2'}, 'alpha': 'true',}",
        r#"{"zeta": "1", "mid": {"y": "2"}, "alpha": "true", "zeta": "1"}"#,
    ] {
        let made = paths(text, Policy::Lenient);
        assert_eq!(made, by_key, "{text}");
    }
}

/// A call's own limits may refuse a default the validator's limits allow: the one pass
/// (typed or explaining) must not fill or count it as the walk would not.
#[test]
fn a_default_the_calls_limits_refuse_is_the_walks() {
    let schema = json!({
        "type": "object",
        "properties": {"a": {"type": "string", "default": "hello"}, "b": {"type": "integer"}},
        "required": ["b"]
    });
    let validator = Validator::new(&schema).expect("the schema compiles");
    let limits = crate::Limits { max_string_bytes: 3, ..crate::Limits::default() };
    let options = CheckOptions { limits: Some(limits), ..CheckOptions::default() };
    for text in [r#"{"b": 1}"#, r#"{"c": 1}"#, "{}"] {
        let want = by_walk(&validator, text, &options);
        let untyped = validator.check_with(RawArguments::Text(text), &options);
        assert_eq!(format!("{untyped:?}"), format!("{want:?}"), "{text}");
        let typed = validator.check_typed::<Value>(RawArguments::Text(text), &options, Default::default());
        assert_eq!(
            format!("{:?}", typed.map(|checked| checked.report)),
            format!("{:?}", want.map(|checked| checked.report)),
            "{text}"
        );
    }
}

/// A member the type ignores is still the schema's: its value is checked on the one pass
/// as the walk checks it (here `null` passes the schema, so the value cannot be skipped).
#[test]
fn a_member_the_type_ignores_is_checked_against_the_schema() {
    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct OnlyA {
        a: i64,
    }
    let schema = json!({
        "type": "object",
        "properties": {"a": {"type": "integer"}},
        "additionalProperties": {"type": ["string", "null"], "maxLength": 2}
    });
    let validator = Validator::new(&schema).expect("the schema compiles");
    let options = CheckOptions::default();
    for text in [r#"{"a": 1, "x": "too long"}"#, r#"{"a": 1, "x": null}"#, r#"{"a": 1, "x": "ok"}"#] {
        let want = by_walk(&validator, text, &options).map(|checked| checked.report);
        let typed = validator
            .check_typed::<OnlyA>(RawArguments::Text(text), &options, Default::default())
            .map(|checked| checked.report);
        assert_eq!(format!("{typed:?}"), format!("{want:?}"), "{text}");
    }
}

/// Calls the explaining test refuses, each explained where it is read.
const REFUSED_CALLS: [&str; 11] = [
    r#"{"id": "Abc", "level": "mid"}"#,
    r#"{"level": "low"}"#,
    "{}",
    r#"{"id": "a", "level": "low", "count": 0, "tags": ["a", "b", "c", "toolong"]}"#,
    r#"{"tags": ["a", "toolong", "b"], "id": 5, "level": "low", "zz": 1, "count": "x"}"#,
    r#"{"id": "a", "level": "low", "inner": {"z": [1, {"q": 2}], "y": "no"}}"#,
    r#"{"inner": {}, "id": "a", "level": "lo", "either": 3, "count": 99}"#,
    r#"{"id": "a", "level": "low", "either": [1, "two"], "count": 10}"#,
    r#"{"id": "a", "level": "low", "rest": {}, "count": 10}"#,
    r#"{"id": "a", "level": "low", "count": 10, "extra": {"deep": [1, 2, {"k": null}]}}"#,
    "{\"id\": \"a\",\n  \"level\": \"low\",\n  \"count\": 10.5\n}",
];

/// A rejected call, strict JSON or text read onto the lenient parser's tape, is explained by
/// the one pass that read it (see `check::fast::explain`), with the walk's errors in the
/// walk's order; what the walk must decide
/// (a union's branches, a null for an optional property, a key given twice, a coercion) goes
/// to the walk, with the same answer.
#[test]
fn the_one_pass_explains_a_rejection_as_the_walk_does() {
    let schema = json!({
        "type": "object",
        "properties": {
            "id": {"type": "string", "pattern": "^[a-z]+$"},
            "level": {"enum": ["low", "high"]},
            "count": {"type": "integer", "minimum": 1, "maximum": 9},
            "tags": {"type": "array", "items": {"type": "string", "maxLength": 3}, "maxItems": 2},
            "inner": {
                "type": "object",
                "properties": {"x": {"type": "integer"}, "y": {"type": "boolean", "default": false}},
                "required": ["x"],
                "additionalProperties": false
            },
            "either": {"anyOf": [{"type": "integer"}, {"type": "array", "items": {"type": "integer"}}]},
            "maybe": {"type": ["string", "null"]},
            "gift": {"type": "boolean", "default": false},
            "rest": {"type": "object", "minProperties": 1}
        },
        "required": ["id", "level"],
        "additionalProperties": false
    });
    let validator = Validator::new(&schema).expect("the schema compiles");
    let mut options = CheckOptions::default();
    let explained = |text: &str, options: &CheckOptions| {
        let before = super::EXPLAINED.with(|explained| explained.get());
        let want = by_walk(&validator, text, options);
        // The untyped check reads text as a typed call into a `Value` does, defaults handed
        // over on the way.
        let untyped = validator.check_with(RawArguments::Text(text), options);
        assert_eq!(format!("{untyped:?}"), format!("{want:?}"), "untyped: {text}");
        let typed = validator
            .check_typed::<Value>(RawArguments::Text(text), options, Default::default())
            .map(|checked| checked.report);
        let want = want.map(|checked| checked.report);
        assert_eq!(format!("{typed:?}"), format!("{want:?}"), "typed: {text}");
        super::EXPLAINED.with(|explained| explained.get()) > before + 1
    };
    for text in REFUSED_CALLS {
        for policy in [Policy::Default, Policy::Strict, Policy::Lenient] {
            options.policy = Some(policy);
            assert!(explained(text, &options), "explained on the one pass, {policy:?}: {text}");
        }
    }
    options.policy = None;
    // Left to the walk, which decides as before.
    for text in [
        // A null for an optional property the walk drops as absent, then an error.
        r#"{"id": "a", "level": "low", "count": null, "tags": 1}"#,
        // A coercion ("5" for an integer) the walk makes, then an error after it.
        r#"{"id": "a", "level": "low", "count": "5", "tags": [1]}"#,
        // A key given twice.
        r#"{"id": "a", "id": "B", "level": "low"}"#,
        // Text after the value: not strict JSON.
        r#"{"id": "A", "level": "low"} and more"#,
    ] {
        explained(text, &options);
    }
    // Mangled, the same calls are parsed onto a tape and explained while it is read, with
    // the parse's repairs: the same rejection as the walk of the tape's value gives.
    let mangled = |text: &str| {
        let mut texts = vec![
            text.replace('"', "'").replace("null", "None"),
            format!("```json\n{text}\n```"),
            format!("Here are the arguments: {text} -- done."),
        ];
        if let Some(open) = text.strip_suffix('}').filter(|open| open.trim_end() != "{") {
            texts.push(format!("{open},}}"));
        }
        texts.retain(|mangled| mangled != text);
        texts
    };
    for text in REFUSED_CALLS {
        for text in mangled(text) {
            for policy in [Policy::Default, Policy::Lenient] {
                options.policy = Some(policy);
                assert!(explained(&text, &options), "explained on the tape, {policy:?}: {text}");
            }
            // Strict JSON only: the text does not parse, as the walk says.
            options.policy = Some(Policy::Strict);
            assert!(!explained(&text, &options), "{text}");
        }
    }
}

/// `max_string_bytes` bounds every string of the arguments: a string no subschema describes
/// (a member where `additionalProperties` is absent, an item of an array without `items`,
/// anything inside `{}`) is `too_long` as a described one is, at its path, in document
/// order, by the one pass, the walk, the typed path and `validate` alike. A schema with
/// `additionalProperties: {}`, which means the same as none, gives the same answer.
#[test]
fn the_string_limit_holds_where_no_subschema_describes_the_string() {
    let limits = Limits::default().with_max_string_bytes(4);
    let options = CheckOptions::default().with_limits(limits);
    let open = json!({"type": "object", "properties": {"n": {"type": "integer"}, "any": {}}});
    let described = json!({"type": "object", "properties": {"n": {"type": "integer"}, "any": {}},
        "additionalProperties": {}});
    for schema in [open, described] {
        let validator = Validator::new(&schema).expect("the schema compiles");
        for (text, found) in [
            (r#"{"a": "abcd", "b": [1, "abc"]}"#, vec![]),
            (r#"{"a": "abcde"}"#, vec![("/a", "too_long")]),
            (r#"{"a": ["ok", {"deep": "abcdef"}]}"#, vec![("/a/1/deep", "too_long")]),
            (r#"{"any": {"x": ["abcdefg"]}}"#, vec![("/any/x/0", "too_long")]),
            (
                r#"{"z": "abcdef", "n": "x", "a": "abcdef"}"#,
                vec![("/z", "too_long"), ("/n", "type"), ("/a", "too_long")],
            ),
        ] {
            let want = by_walk(&validator, text, &options);
            let untyped = validator.check_with(RawArguments::Text(text), &options);
            assert_eq!(format!("{untyped:?}"), format!("{want:?}"), "{schema} {text}");
            let typed =
                validator.check_typed::<Value>(RawArguments::Text(text), &options, Default::default());
            assert_eq!(
                format!("{:?}", typed.map(|checked| checked.value)),
                format!("{:?}", want.as_ref().map(|checked| &checked.value)),
                "{schema} {text}"
            );
            let errors: Vec<(&str, &str)> = match &want {
                Ok(_) => Vec::new(),
                Err(rejection) => rejection.errors.iter().map(|e| (e.path.as_str(), e.code.code())).collect(),
            };
            assert_eq!(errors, found, "{schema} {text}");
            if let Err(rejection) = &want {
                let message = &rejection.errors[0].message;
                assert!(
                    message.starts_with("the string is ") && message.ends_with("the limit of 4"),
                    "{message}"
                );
            }
        }
    }
    // `validate` holds a value to the validator's own limits.
    let validator = Validator::builder(&json!({"type": "array"})).limits(limits).build().expect("compiles");
    let errors = validator.validate(&json!([["abcde"]])).expect_err("too long");
    assert_eq!((errors[0].path.as_str(), errors[0].code), ("/0/0", ErrorCode::TooLong));
}

/// An unknown field, or a value of another type, is refused whole: nothing inside it is
/// also too long.
#[test]
fn a_value_refused_whole_is_not_also_too_long_inside() {
    let limits = Limits::default().with_max_string_bytes(4);
    let options = CheckOptions::default().with_limits(limits);
    let schema = json!({
        "type": "object",
        "properties": {"n": {"type": "integer"}, "inner": {"type": "object", "properties": {}}},
        "additionalProperties": false
    });
    let validator = Validator::new(&schema).expect("the schema compiles");
    for (text, found) in [
        (r#"{"extra": {"text": "abcdefgh"}}"#, ("/extra", ErrorCode::UnknownField)),
        (r#"{"n": ["abcdefgh"]}"#, ("/n", ErrorCode::Type)),
    ] {
        let rejection = validator.check_with(RawArguments::Text(text), &options).expect_err("refused");
        let errors: Vec<(&str, ErrorCode)> =
            rejection.errors.iter().map(|e| (e.path.as_str(), e.code)).collect();
        assert_eq!(errors, [found], "{text}");
    }
    // Inside a described object that is refused for something else, the string is still too long.
    let rejection = validator
        .check_with(RawArguments::Text(r#"{"inner": {"s": "abcdefgh"}, "n": 1.5}"#), &options)
        .expect_err("refused");
    let errors: Vec<&str> = rejection.errors.iter().map(|e| e.path.as_str()).collect();
    assert_eq!(errors, ["/inner/s", "/n"]);
}

/// A value that arrives already parsed is held to the limits its text would be: too deep
/// or too large as a whole, the same rejection as the text gets, on the untyped and the
/// typed path.
#[test]
fn a_parsed_value_is_held_to_the_limits_its_text_is() {
    let validator = Validator::new(&json!({"type": "object"})).expect("the schema compiles");
    let shallow = CheckOptions::default().with_limits(Limits::default().with_max_depth(2));
    let small = CheckOptions::default().with_limits(Limits::default().with_max_bytes(16));
    for (value, options, kind) in [
        (json!({"free": {"deep": [1]}}), &shallow, RejectionKind::TooDeep),
        (json!({"free": "much longer than sixteen bytes"}), &small, RejectionKind::TooLarge),
    ] {
        let text = value.to_string();
        let from_text = validator.check_with(RawArguments::Text(&text), options).expect_err("refused");
        let from_value = validator.check_with(RawArguments::Value(&value), options).expect_err("refused");
        assert_eq!(from_value.kind(), kind, "{value}");
        assert_eq!(from_value, from_text, "{value}");
        let typed = validator
            .check_typed::<Value>(RawArguments::Value(&value), options, Default::default())
            .expect_err("refused");
        assert_eq!(typed, from_text, "{value}");
    }
}

/// A default that holds an object whose schema fills the same default in again is refused
/// when the validator is built; and the walk itself, given such a plan, stops at the depth
/// limit rather than filling without end (it overflowed the stack).
#[test]
fn a_default_that_fills_itself_again_ends() {
    for schema in [
        json!({"type": "object", "properties": {"c": {"$ref": "#", "default": {}}}}),
        json!({"properties": {"c": {"type": "array", "items": {"$ref": "#"}, "default": [{}]}}}),
        json!({"$defs": {"n": {"properties": {"next": {"$ref": "#/$defs/n", "default": {}}}}},
               "properties": {"head": {"$ref": "#/$defs/n"}}}),
    ] {
        let error = Validator::new(&schema).expect_err("refused");
        assert!(error.message.contains("without end"), "{schema}: {error}");
        assert!(error.pointer.ends_with("/default"), "{schema}: {error}");
        // As annotations, nothing is filled.
        let plain = Validator::builder(&schema).defaults(false).build().expect("compiles");
        assert_eq!(plain.check("{}").expect("accepted").value, json!({}));
        // The walk over the plan as compiled, defaults and all.
        let plan = Plan::compile(&schema).expect("compiles");
        let limits = Limits::default();
        let overrides = HashMap::new();
        let mut value = json!({"head": {}});
        let outcome = Walker::new(&plan, &overrides, &limits, true).run(&mut value, Policy::Default);
        assert!(outcome.errors.iter().any(|error| error.code == ErrorCode::TooDeep), "{schema}");
    }
    // A default that fills defaults inside it, and ends, is filled.
    let nested = json!({"properties": {"c": {"properties": {"d": {"default": {"e": 1}}}, "default": {}}}});
    let checked = Validator::new(&nested).expect("compiles").check("{}").expect("accepted");
    assert_eq!(checked.value, json!({"c": {"d": {"e": 1}}}));
}
