//! One row per JSON Schema keyword: the error code, path and message a violation gets.
//! The messages are snapshot-tested together, so a change to any of them shows in review.

use serde_json::{json, Value};
use tool_input::{ErrorCode, Policy, Validator};

struct Row {
    keyword: &'static str,
    schema: Value,
    sent: Value,
    path: &'static str,
    code: ErrorCode,
}

fn rows() -> Vec<Row> {
    let row = |keyword, schema, sent, path, code| Row { keyword, schema, sent, path, code };
    vec![
        row("type", json!({"type": "integer"}), json!("abc"), "/v", ErrorCode::Type),
        row("type (union)", json!({"type": ["string", "null"]}), json!(1), "/v", ErrorCode::Type),
        row("enum", json!({"enum": ["low", "medium", "high"]}), json!("hihg"), "/v", ErrorCode::Enum),
        row("enum (numbers)", json!({"enum": [1, 2, 3]}), json!(4), "/v", ErrorCode::Enum),
        row("enum (empty)", json!({"enum": []}), json!("low"), "/v", ErrorCode::Enum),
        row("const", json!({"const": "circle"}), json!("square"), "/v", ErrorCode::Const),
        row(
            "required",
            json!({"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}),
            json!({}),
            "/v/id",
            ErrorCode::Missing,
        ),
        row(
            "additionalProperties",
            json!({"type": "object", "properties": {"color": {"type": "string"}}, "additionalProperties": false}),
            json!({"colour": "red"}),
            "/v/colour",
            ErrorCode::UnknownField,
        ),
        row(
            "additionalProperties (schema)",
            json!({"type": "object", "additionalProperties": {"type": "integer"}}),
            json!({"a": "x"}),
            "/v/a",
            ErrorCode::Type,
        ),
        row(
            "properties",
            json!({"type": "object", "properties": {"n": {"type": "integer"}}}),
            json!({"n": true}),
            "/v/n",
            ErrorCode::Type,
        ),
        row(
            "items",
            json!({"type": "array", "items": {"type": "integer"}}),
            json!([1, "x"]),
            "/v/1",
            ErrorCode::Type,
        ),
        row(
            "prefixItems",
            json!({"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}]}),
            json!(["a", "b"]),
            "/v/1",
            ErrorCode::Type,
        ),
        row("minimum", json!({"type": "integer", "minimum": 1}), json!(0), "/v", ErrorCode::Range),
        row("maximum", json!({"type": "integer", "maximum": 1000}), json!(1001), "/v", ErrorCode::Range),
        row(
            "exclusiveMinimum",
            json!({"type": "number", "exclusiveMinimum": 0}),
            json!(0),
            "/v",
            ErrorCode::Range,
        ),
        row(
            "exclusiveMaximum",
            json!({"type": "number", "exclusiveMaximum": 1}),
            json!(1),
            "/v",
            ErrorCode::Range,
        ),
        row(
            "multipleOf",
            json!({"type": "number", "multipleOf": 0.5}),
            json!(0.7),
            "/v",
            ErrorCode::MultipleOf,
        ),
        row(
            "minLength (characters)",
            json!({"type": "string", "minLength": 3}),
            json!("日本"),
            "/v",
            ErrorCode::Length,
        ),
        row(
            "maxLength (characters)",
            json!({"type": "string", "maxLength": 2}),
            json!("日本語"),
            "/v",
            ErrorCode::Length,
        ),
        row(
            "pattern (ECMA-262)",
            json!({"type": "string", "pattern": "^[A-Z]{3}-\\d{4}$"}),
            json!("AB-12"),
            "/v",
            ErrorCode::Pattern,
        ),
        row("minItems", json!({"type": "array", "minItems": 1}), json!([]), "/v", ErrorCode::Items),
        row("maxItems", json!({"type": "array", "maxItems": 1}), json!([1, 2]), "/v", ErrorCode::Items),
        row(
            "uniqueItems",
            json!({"type": "array", "uniqueItems": true}),
            json!([1, 2, 1.0]),
            "/v",
            ErrorCode::UniqueItems,
        ),
        row(
            "minProperties",
            json!({"type": "object", "minProperties": 1}),
            json!({}),
            "/v",
            ErrorCode::Properties,
        ),
        row(
            "anyOf",
            json!({"anyOf": [{"type": "string"}, {"type": "integer"}]}),
            json!([1]),
            "/v",
            ErrorCode::Type,
        ),
        row(
            "anyOf (leaf)",
            json!({"anyOf": [{"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}, {"type": "null"}]}),
            json!({"n": "x"}),
            "/v/n",
            ErrorCode::Type,
        ),
        row(
            "oneOf (ambiguous)",
            json!({"oneOf": [{"type": "integer"}, {"minimum": 0}]}),
            json!(1),
            "/v",
            ErrorCode::Ambiguous,
        ),
        row(
            "allOf",
            json!({"allOf": [{"type": "integer"}, {"maximum": 3}]}),
            json!(4),
            "/v",
            ErrorCode::Range,
        ),
        row("not", json!({"not": {"type": "string"}}), json!("x"), "/v", ErrorCode::NotAllowed),
        row("false schema", json!(false), json!(1), "/v", ErrorCode::NotAllowed),
        row("$ref", json!({"$ref": "#/$defs/Positive"}), json!(-1), "/v", ErrorCode::Range),
        row(
            "format",
            json!({"type": "string", "format": "date-time"}),
            json!("2026-13-45T99:00:00Z"),
            "/v",
            ErrorCode::Format,
        ),
        row(
            "format (uuid)",
            json!({"type": "string", "format": "uuid"}),
            json!("not-a-uuid"),
            "/v",
            ErrorCode::Format,
        ),
        row(
            "format (float)",
            json!({"type": "number", "format": "float"}),
            json!(1e39),
            "/v",
            ErrorCode::Range,
        ),
        row(
            "format (uint8)",
            json!({"type": "integer", "format": "uint8"}),
            json!(256),
            "/v",
            ErrorCode::Range,
        ),
        row(
            "if/then",
            json!({"if": {"type": "integer"}, "then": {"minimum": 10}}),
            json!(3),
            "/v",
            ErrorCode::Range,
        ),
        row(
            "contains",
            json!({"type": "array", "contains": {"type": "string"}}),
            json!([1, 2]),
            "/v",
            ErrorCode::Contains,
        ),
        row(
            "maxContains",
            json!({"type": "array", "contains": {"type": "integer"}, "maxContains": 1}),
            json!([1, 2]),
            "/v",
            ErrorCode::Contains,
        ),
        row(
            "propertyNames",
            json!({"type": "object", "propertyNames": {"pattern": "^[a-z]+$"}}),
            json!({"Bad Name": 1}),
            "/v/Bad Name",
            ErrorCode::PropertyName,
        ),
        row(
            "dependentRequired",
            json!({"type": "object", "dependentRequired": {"card": ["cvv"]}}),
            json!({"card": "4111"}),
            "/v/cvv",
            ErrorCode::Missing,
        ),
        row(
            "dependentSchemas",
            json!({"type": "object", "dependentSchemas": {"card": {"properties": {"cvv": {"type": "string"}}}}}),
            json!({"card": "4111", "cvv": 123}),
            "/v/cvv",
            ErrorCode::Type,
        ),
        row(
            "unevaluatedProperties",
            json!({"type": "object", "allOf": [{"properties": {"a": {}}}], "unevaluatedProperties": false}),
            json!({"a": 1, "b": 2}),
            "/v/b",
            ErrorCode::UnknownField,
        ),
        row(
            "unevaluatedItems",
            json!({"type": "array", "prefixItems": [{}], "unevaluatedItems": {"type": "string"}}),
            json!([1, 2]),
            "/v/1",
            ErrorCode::Type,
        ),
        row(
            "items (older tuple form)",
            json!({"type": "array", "items": [{"type": "string"}], "additionalItems": false}),
            json!(["a", 1]),
            "/v/1",
            ErrorCode::NotAllowed,
        ),
        row(
            "nullable (OpenAPI)",
            json!({"type": "string", "nullable": true, "enum": ["a"]}),
            json!(3),
            "/v",
            ErrorCode::Type,
        ),
    ]
}

#[test]
fn every_keyword_has_its_error() {
    let mut messages = String::new();
    for row in rows() {
        let schema = json!({
            "type": "object",
            "properties": {"v": row.schema},
            "required": ["v"],
            "additionalProperties": false,
            "$defs": {"Positive": {"type": "integer", "minimum": 0}}
        });
        let validator = Validator::builder(&schema).policy(Policy::Strict).build().unwrap();
        let raw = json!({"v": row.sent}).to_string();
        let rejection = validator.check(raw.as_str()).expect_err(row.keyword);
        assert_eq!(rejection.errors().len(), 1, "{}: {:?}", row.keyword, rejection.errors());
        let error = &rejection.errors()[0];
        assert_eq!((error.path(), error.code()), (row.path, row.code), "{}", row.keyword);
        messages.push_str(&format!(
            "{:<32} {} {}: {}\n",
            row.keyword,
            error.code(),
            error.path(),
            error.message()
        ));
    }
    insta::assert_snapshot!(messages);
}

#[test]
fn valid_values_pass_every_keyword() {
    for (schema, sent) in [
        (json!({"type": "string", "pattern": "\\p{L}+"}), json!("日本")),
        (json!({"type": "number", "multipleOf": 0.01}), json!(19.99)),
        (json!({"type": "array", "uniqueItems": true}), json!([1, "1", [1], {"a": 1}])),
        (json!({"type": "integer", "maximum": 18446744073709551615_u64}), json!(18446744073709551615_u64)),
        // Exact decimal arithmetic past 2^53, where a float quotient would lie.
        (json!({"type": "integer", "multipleOf": 1.5}), json!(9007199254740993_u64)),
        (json!({"type": "number", "multipleOf": 0.0001}), json!(0.0075)),
        // A quotient past a float's range: every integer is a multiple of 0.5.
        (json!({"type": "number", "multipleOf": 0.5}), json!(1e308)),
    ] {
        let validator = Validator::new(&json!({"type": "object", "properties": {"v": schema}})).unwrap();
        let raw = json!({"v": sent}).to_string();
        assert!(validator.check(raw.as_str()).is_ok(), "{schema} {sent}");
    }
}

#[test]
fn large_numbers_are_not_multiples_by_rounding() {
    // Found by comparing with the jsonschema crate: as floats, -7321913730361748572 / 1.5
    // looks integral.
    let validator = Validator::new(&json!({"multipleOf": 1.5})).unwrap();
    assert!(!validator.is_valid(&json!(-7321913730361748572_i64)));
    assert!(validator.is_valid(&json!(-7321913730361748571_i64)));
}

#[test]
fn draft_7_asserts_what_content_a_string_holds_and_later_drafts_annotate_it() {
    let properties = json!({
        "blob": {"type": "string", "contentEncoding": "base64"},
        "doc": {"type": "string", "contentMediaType": "application/json"},
        "both": {"type": "string", "contentEncoding": "base64", "contentMediaType": "application/json"},
        "image": {"type": "string", "contentEncoding": "base64", "contentMediaType": "image/png"},
        "other": {"type": "string", "contentEncoding": "quoted-printable"}
    });
    let sent =
        r#"{"blob": "not base64!", "doc": "{:}", "both": "ezp9Cg==", "image": "iVBORw0K", "other": "=?"}"#;
    let draft7 = json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "properties": properties});
    let rejection = Validator::new(&draft7).unwrap().check(sent).unwrap_err();
    let errors: Vec<String> = rejection
        .errors()
        .iter()
        .map(|error| format!("{} {} {}", error.code(), error.path(), error.message()))
        .collect();
    assert_eq!(
        errors,
        [
            r#"content /blob expected base64-encoded content (RFC 4648, with its padding), got "not base64!""#,
            r#"content /doc expected a JSON document, got "{:}""#,
            r#"content /both expected a base64-encoded JSON document, got "ezp9Cg==""#,
        ]
    );
    let good = r#"{"blob": "eyJmb28iOiAiYmFyIn0K", "doc": "[1, 2]", "both": "eyJmb28iOiAiYmFyIn0K"}"#;
    assert!(Validator::new(&draft7).unwrap().check(good).is_ok());
    // A keyword draft 7 names wrongly is a schema error.
    let wrong = json!({"$schema": "http://json-schema.org/draft-07/schema#", "contentEncoding": 64});
    assert!(Validator::new(&wrong).unwrap_err().to_string().contains("`contentEncoding` must be a string"));
    // From 2019-09 on (and with no `$schema`), and before draft 7, annotations only.
    for dialect in [
        None,
        Some("https://json-schema.org/draft/2019-09/schema"),
        Some("http://json-schema.org/draft-06/schema#"),
    ] {
        let mut schema = json!({"type": "object", "properties": properties});
        if let Some(dialect) = dialect {
            schema["$schema"] = json!(dialect);
        }
        assert!(Validator::new(&schema).unwrap().check(sent).is_ok(), "{dialect:?}");
    }
}

#[test]
fn hostnames_are_rfc_1123s_in_drafts_4_and_6_and_idna2008s_after() {
    let sent = json!({"host": "ab--cd.example"});
    for (dialect, valid) in [
        ("http://json-schema.org/draft-04/schema#", true),
        ("http://json-schema.org/draft-06/schema#", true),
        ("http://json-schema.org/draft-07/schema#", false),
        ("https://json-schema.org/draft/2020-12/schema", false),
    ] {
        let schema = json!({
            "$schema": dialect,
            "type": "object",
            "properties": {"host": {"type": "string", "format": "hostname"}}
        });
        let validator = Validator::new(&schema).unwrap();
        assert_eq!(validator.is_valid(&sent), valid, "{dialect}");
        assert!(!validator.is_valid(&json!({"host": "-a.example"})), "{dialect}");
    }
}

#[test]
fn draft_4_integers_are_written_without_a_fraction_and_a_calls_1_0_is_read_as_1() {
    let schema = json!({
        "$schema": "http://json-schema.org/draft-04/schema#",
        "type": "object",
        "properties": {"n": {"type": "integer"}, "m": {"type": ["integer", "string"]}}
    });
    let validator = Validator::new(&schema).unwrap();
    assert!(validator.is_valid(&json!({"n": 1, "m": "x"})));
    assert!(!validator.is_valid(&json!({"n": 1.0})));
    assert!(!validator.is_valid(&json!({"m": 2.0})));
    let errors = validator.validate(&json!({"n": 1.0})).unwrap_err();
    assert_eq!((errors[0].path(), errors[0].code()), ("/n", ErrorCode::Type));
    assert!(
        errors[0].message().contains("without a fraction or exponent (draft 4)"),
        "{}",
        errors[0].message()
    );
    // A call's `1.0` is the integer it spells, recorded, as in every draft.
    let checked = validator.check(r#"{"n": 1.0, "m": 2.0}"#).unwrap();
    assert_eq!(checked.value, json!({"n": 1, "m": 2}));
    assert!(checked.report.coercions.iter().all(|c| c.kind == tool_input::CoercionKind::IntegerFromFloat));
    // Draft 6 on: `1.0` is an integer.
    let mut later = schema.clone();
    later["$schema"] = json!("http://json-schema.org/draft-06/schema#");
    assert!(Validator::new(&later).unwrap().is_valid(&json!({"n": 1.0})));
}

/// A name a schema's `required` (or `dependentRequired`) gives twice is one requirement: a
/// call that leaves it out gets one error, and the tool is not refused for the repeat.
#[test]
fn a_required_name_given_twice_is_one_error() {
    let properties = json!({"a": {"type": "string"}, "b": {"type": "string"}});
    for schema in [
        json!({"type": "object", "properties": properties, "required": ["a", "b", "a"]}),
        json!({"type": "object", "properties": properties, "required": ["b"], "dependentRequired": {"b": ["a", "a"]}}),
        // Required as well as by a dependency: missing once, as `required` says.
        json!({"type": "object", "properties": properties, "required": ["a"], "dependentRequired": {"b": ["a"]}}),
        json!({"type": "object", "properties": properties, "required": ["a", "b"], "dependencies": {"b": ["a"]}}),
        // Required by two members that are present: missing once.
        json!({"type": "object", "properties": properties, "dependentRequired": {"b": ["a"], "c": ["a"]}}),
    ] {
        let validator = Validator::new(&schema).unwrap();
        let rejection = validator.check(r#"{"b": "x", "c": "y"}"#).expect_err("`a` is missing");
        let found: Vec<(&str, ErrorCode)> = rejection.errors().iter().map(|e| (e.path(), e.code())).collect();
        assert_eq!(found, [("/a", ErrorCode::Missing)], "{schema}");
    }
}

#[test]
fn an_enum_value_listed_twice_is_named_once() {
    // `1.0` is `1` to JSON Schema: listed after it, it is the same option.
    let schema = json!({"type": "object", "properties": {"mode": {"enum": ["read", 1, "write", "read", 1.0, [2], [2.0], null, null]}}});
    let validator = Validator::new(&schema).unwrap();
    let rejection = validator.check(r#"{"mode": "append"}"#).expect_err("not an option");
    let error = &rejection.errors()[0];
    assert_eq!(error.code(), ErrorCode::Enum);
    assert_eq!(error.options(), [json!("read"), json!(1), json!("write"), json!([2]), json!(null)]);
    assert_eq!(error.message(), r#""append" is not one of "read", 1, "write", [2], null"#);
    // Each value listed is still allowed, however it is written.
    for allowed in [r#""read""#, "1", "1.0", "[2]", "null"] {
        validator.check(&format!(r#"{{"mode": {allowed}}}"#)).unwrap();
    }
}

/// A `not` that says one thing (a `const`, an `enum`, a `type`, `required` names) names what
/// it excludes, so the model knows what to change; any other `not` says only that the value
/// is not allowed.
#[test]
fn a_not_names_what_it_excludes() {
    for (not, sent, path, excluded) in [
        (json!({"const": "high"}), r#"{"v": "high"}"#, "/v", r#": the schema excludes "high""#),
        (json!({"enum": ["a", 2]}), r#"{"v": 2}"#, "/v", r#": the schema excludes each of "a", 2"#),
        (
            json!({"type": ["string", "null"]}),
            r#"{"v": "a"}"#,
            "/v",
            ": the schema excludes a string or null",
        ),
        (json!({"minimum": 3}), r#"{"v": 5}"#, "/v", ""),
        (json!({"type": "integer", "minimum": 3}), r#"{"v": 5}"#, "/v", ""),
    ] {
        let schema = json!({"type": "object", "properties": {"v": {"not": not}}});
        let rejection = Validator::new(&schema).unwrap().check(sent).unwrap_err();
        let error = &rejection.errors()[0];
        assert_eq!((error.path(), error.code()), (path, ErrorCode::NotAllowed), "{not}");
        assert_eq!(error.message(), format!("this value is not allowed here{excluded}"), "{not}");
    }
    for (required, excluded) in
        [(json!(["x"]), "an object with `x`"), (json!(["x", "y"]), "an object with all of `x`, `y`")]
    {
        let schema = json!({"type": "object", "not": {"required": required}});
        let rejection = Validator::new(&schema).unwrap().check(r#"{"x": 1, "y": 2}"#).unwrap_err();
        let error = &rejection.errors()[0];
        assert_eq!((error.path(), error.code()), ("", ErrorCode::NotAllowed));
        assert_eq!(
            error.message(),
            format!("this value is not allowed here: the schema excludes {excluded}")
        );
    }
}

/// A name `propertyNames` refuses is told why, as the schema words it for the name read as
/// a string: a length, a pattern, the options with a did-you-mean; `false` takes none.
#[test]
fn a_refused_property_name_says_why() {
    for (names, sent, why) in [
        (
            json!({"maxLength": 3}),
            r#"{"k100": 1, "ab": 2}"#,
            "the string is 4 characters long; expected at most 3",
        ),
        (json!({"pattern": "^[a-z_]+$"}), r#"{"k100": 1}"#, r#""k100" does not match the pattern ^[a-z_]+$"#),
        (json!({"enum": ["city", "days"]}), r#"{"k100": 1}"#, r#""k100" is not one of "city", "days""#),
        (json!(false), r#"{"k100": 1}"#, "this object takes no properties"),
    ] {
        let schema = json!({"type": "object", "propertyNames": names});
        let rejection = Validator::new(&schema).unwrap().check(sent).unwrap_err();
        let errors = rejection.errors();
        assert_eq!(errors.len(), 1, "{names}: {errors:?}");
        assert_eq!((errors[0].path(), errors[0].code()), ("/k100", ErrorCode::PropertyName), "{names}");
        assert_eq!(
            errors[0].message(),
            format!("the property name `k100` is not allowed here: {why}"),
            "{names}"
        );
    }
    let schema = json!({"type": "object", "propertyNames": {"enum": ["city", "days"]}});
    let rejection = Validator::new(&schema).unwrap().check(r#"{"City": 1}"#).unwrap_err();
    assert!(rejection.errors()[0].message().ends_with(r#"did you mean "city"?"#), "{rejection}");
}

/// `unevaluatedProperties: false` names the properties the object takes, and is not said of
/// a property a failing subschema declares: that subschema's own error explains it.
#[test]
fn an_unevaluated_property_is_told_the_names_the_object_takes() {
    let either = json!([
        {"properties": {"a": {"type": "integer"}}, "required": ["a"]},
        {"properties": {"b": {"type": "string"}}, "required": ["b"]}
    ]);
    let cases = [
        // Both branches fail; `a` is one's: only the union's errors.
        (
            json!({"anyOf": either, "unevaluatedProperties": false}),
            r#"{"a": "x"}"#,
            vec![("", ErrorCode::NoMatch), ("/a", ErrorCode::Type)],
        ),
        // A branch passes: `c` is unknown, and the names listed are those that passed.
        (
            json!({"properties": {"id": {}}, "oneOf": either, "unevaluatedProperties": false}),
            r#"{"id": 1, "a": 1, "c": 2}"#,
            vec![("/c", ErrorCode::UnknownField)],
        ),
        // `then` failed on its own property: its error, not an unknown one.
        (
            json!({
                "if": {"properties": {"k": {"const": "x"}}, "required": ["k"]},
                "then": {"properties": {"v": {"type": "integer"}}},
                "else": {"properties": {"w": {}}},
                "unevaluatedProperties": false
            }),
            r#"{"k": "x", "v": "no", "w": 1}"#,
            vec![("/v", ErrorCode::Type), ("/w", ErrorCode::UnknownField)],
        ),
    ];
    for (schema, sent, expected) in cases {
        let rejection = Validator::new(&schema).unwrap().check(sent).unwrap_err();
        let found: Vec<_> = rejection.errors().iter().map(|e| (e.path(), e.code())).collect();
        assert_eq!(found, expected, "{schema} {sent}: {rejection}");
    }
    let schema = json!({"properties": {"id": {}}, "oneOf": either, "unevaluatedProperties": false});
    let rejection = Validator::new(&schema).unwrap().check(r#"{"id": 1, "b": "x", "bb": 2}"#).unwrap_err();
    let unknown = &rejection.errors()[0];
    assert_eq!(unknown.message(), r#"unknown property `bb`; did you mean "b"? allowed: "id", "b""#);
    assert_eq!(unknown.options(), [json!("id"), json!("b")]);
    // Patterns and a written `additionalProperties` of a subschema answer too.
    let schema = json!({
        "allOf": [{"patternProperties": {"^x_": {"type": "integer"}}}],
        "unevaluatedProperties": false
    });
    let rejection = Validator::new(&schema).unwrap().check(r#"{"x_a": "no", "y": 1}"#).unwrap_err();
    let found: Vec<_> = rejection.errors().iter().map(|e| (e.path(), e.code())).collect();
    assert_eq!(found, [("/x_a", ErrorCode::Type), ("/y", ErrorCode::UnknownField)]);
    assert_eq!(
        rejection.errors()[1].message(),
        "unknown property `y`; allowed: a name matching the pattern ^x_"
    );
}

#[test]
fn schemas_that_cannot_be_compiled() {
    for (schema, pointer) in [
        (json!({"type": "strnig"}), ""),
        (json!({"properties": {"a": {"pattern": "("}}}), "/properties/a"),
        (json!({"$ref": "#/$defs/Missing"}), ""),
        (json!({"$ref": "https://example.com/schema.json"}), ""),
        (json!({"minLength": -1}), ""),
        // No type at all: every value would be refused.
        (json!({"properties": {"a": {"type": []}}}), "/properties/a"),
        (json!({"properties": {"a": {"$ref": "other.json#/x"}}}), "/properties/a"),
        (json!({"$id": "https://example.com/root.json", "$ref": "#missing"}), ""),
        // References that loop without descending into the value: no value could be checked.
        (json!({"$defs": {"a": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"}), "/$defs/a"),
        (json!({"$ref": "#"}), ""),
        (json!({"type": "object", "not": {"$ref": "#"}}), ""),
        (
            json!({"$defs": {"a": {"anyOf": [{"$ref": "#/$defs/b"}]}, "b": {"allOf": [{"$ref": "#/$defs/a"}]}}, "properties": {"x": {"$ref": "#/$defs/a"}}}),
            "/$defs/a",
        ),
    ] {
        let error = Validator::new(&schema).unwrap_err();
        assert_eq!(error.pointer, pointer, "{schema}: {error}");
    }
    // Recursion through the value is fine.
    let tree =
        json!({"type": "object", "properties": {"children": {"type": "array", "items": {"$ref": "#"}}}});
    let validator = Validator::new(&tree).unwrap();
    assert!(validator.check(r#"{"children": [{"children": [{"children": []}]}]}"#).is_ok());
}

/// Two subschemas that say the same of one value (an `allOf` branch repeating a property's
/// type or bound, as schemas built by inheritance do) make one error; what they say apart
/// stays apart.
#[test]
fn the_same_error_from_two_subschemas_is_reported_once() {
    let schema = json!({
        "type": "object",
        "properties": {"a": {"type": "integer", "maximum": 5}, "b": {"type": "string"}},
        "allOf": [
            {"$ref": "#/$defs/base"},
            {"properties": {"a": {"type": "integer", "maximum": 3}}}
        ],
        "$defs": {"base": {"properties": {"a": {"type": "integer", "maximum": 5}, "b": {"type": "string"}}}}
    });
    let v = Validator::new(&schema).unwrap();
    let said = |sent: &str| -> Vec<(String, String)> {
        let rejection = v.check(sent).unwrap_err();
        rejection.errors().iter().map(|e| (e.path().to_owned(), e.message().to_owned())).collect()
    };
    assert_eq!(
        said(r#"{"a": "x", "b": 1}"#),
        [
            ("/a".to_owned(), r#"expected an integer, got "x""#.to_owned()),
            ("/b".to_owned(), "expected a string, got 1".to_owned()),
        ]
    );
    assert_eq!(
        said(r#"{"a": 9}"#),
        [
            ("/a".to_owned(), "9 is greater than the maximum of 5".to_owned()),
            ("/a".to_owned(), "9 is greater than the maximum of 3".to_owned()),
        ]
    );
    assert_eq!(v.validate(&json!({"a": 9})).unwrap_err().len(), 2);
}

#[test]
fn a_count_of_one_is_said_in_the_singular() {
    let cases = [
        (json!({"type": "array", "minItems": 2}), json!([1]), "the array has 1 item; expected at least 2"),
        (
            json!({"type": "object", "minProperties": 2}),
            json!({"a": 1}),
            "the object has 1 property; expected at least 2",
        ),
        (
            json!({"type": "string", "minLength": 2}),
            json!("a"),
            "the string is 1 character long; expected at least 2",
        ),
        (
            json!({"type": "array", "contains": {"type": "integer"}, "minContains": 2}),
            json!([1, "x"]),
            "1 item matches `contains`; expected at least 2",
        ),
        (
            json!({"type": "array", "contains": {"type": "integer"}, "minContains": 2}),
            json!(["x"]),
            "no item matches `contains`; expected at least 2",
        ),
        (
            json!({"type": "array", "contains": {"type": "integer"}, "maxContains": 1}),
            json!([1, 2]),
            "more than 1 item matches `contains`; expected at most 1",
        ),
        (
            json!({"type": "array", "minItems": 3}),
            json!([1, 2]),
            "the array has 2 items; expected at least 3",
        ),
    ];
    for (schema, value, said) in cases {
        let v = Validator::new(&json!({"type": "object", "properties": {"v": schema}})).unwrap();
        let errors = v.validate(&json!({"v": value})).unwrap_err();
        let [error] = errors.as_slice() else { panic!("{schema}: {errors:?}") };
        assert_eq!(error.message(), said, "{schema}");
    }
}

#[test]
fn a_regex_value_never_quantifies_a_word_boundary() {
    // ECMA-262 quantifies no assertion but a lookahead (and that in the legacy dialect only):
    // `\b*` is a syntax error there, as `new RegExp("\\b*", "u")` says.
    let validator = Validator::new(&json!({"properties": {"re": {"format": "regex"}}})).unwrap();
    for invalid in [r"\b*", r"\B+", r"a\b?", r"\b{2}", r"x|\B*?"] {
        let errors = validator.validate(&json!({"re": invalid})).unwrap_err();
        assert_eq!((errors[0].path(), errors[0].code()), ("/re", ErrorCode::Format), "{invalid}");
    }
    // A quantified group around one, an escaped backslash before a `b`, and a backspace in a
    // class are all regular expressions.
    for valid in [r"(?:\b)*", r"\\b*", r"[\b]*", r"[\b*]", r"\b\w+\b"] {
        assert!(validator.is_valid(&json!({"re": valid})), "{valid}");
    }
}

#[test]
fn a_uri_templates_variable_names_take_percent_only_as_an_escape() {
    let validator = Validator::new(&json!({"properties": {"t": {"format": "uri-template"}}})).unwrap();
    // RFC 6570's `varchar` is a letter, a digit, `_` or `pct-encoded` (`%` and two hex digits).
    for invalid in ["{%}", "{a%2}", "{a%2g}", "{%zz}", "x{a%}"] {
        let errors = validator.validate(&json!({"t": invalid})).unwrap_err();
        assert_eq!((errors[0].path(), errors[0].code()), ("/t", ErrorCode::Format), "{invalid}");
    }
    for valid in ["{%41}", "{a%20b}", "{a.b%2Fc,d:3}", "{+a_b}"] {
        assert!(validator.is_valid(&json!({"t": valid})), "{valid}");
    }
}
