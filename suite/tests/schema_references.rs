//! References that leave the plain static `$ref`: `$dynamicRef`/`$dynamicAnchor` (2020-12) and
//! `$recursiveRef`/`$recursiveAnchor` (2019-09), resolved by the resources the check entered,
//! `$ref`s to the drafts' own metaschemas, which are bundled, and to documents the caller
//! gives (`ValidatorBuilder::resource`). Nothing is ever fetched.

use serde_json::{json, Value};
use tool_input::{ErrorCode, Validator};

/// A generic tree whose node type the tool extends: `tree` refers to its children through
/// `$dynamicRef: "#node"`, and the tool's root declares `$dynamicAnchor: "node"` too, so every
/// child, at any depth, is the tool's node (a `size` required, nothing undeclared).
fn sized_tree() -> Value {
    json!({
        "$id": "https://tools.example/sized-tree",
        "$dynamicAnchor": "node",
        "$ref": "tree",
        "properties": {"size": {"type": "integer", "minimum": 0}},
        "required": ["size"],
        "unevaluatedProperties": false,
        "$defs": {
            "tree": {
                "$id": "tree",
                "$dynamicAnchor": "node",
                "type": "object",
                "properties": {
                    "name": {"type": "string"},
                    "children": {"type": "array", "items": {"$dynamicRef": "#node"}}
                },
                "required": ["name"]
            }
        }
    })
}

/// The walk and the deciding path agree, and the errors are where they are expected.
fn errors(validator: &Validator, value: &Value) -> Vec<(String, ErrorCode)> {
    let found = match validator.validate(value) {
        Ok(()) => Vec::new(),
        Err(errors) => errors.iter().map(|error| (error.path().to_owned(), error.code())).collect(),
    };
    assert_eq!(validator.is_valid(value), found.is_empty(), "{value}: {found:?}");
    found
}

#[test]
fn a_dynamic_reference_takes_the_tools_node_at_every_depth() {
    let validator = Validator::new(&sized_tree()).unwrap();
    let good = json!({"name": "/", "size": 3, "children": [
        {"name": "etc", "size": 1, "children": [{"name": "hosts", "size": 0}]}
    ]});
    assert_eq!(errors(&validator, &good), []);
    // Two levels down, the node is still the tool's: `size` is required there.
    let no_size = json!({"name": "/", "size": 3, "children": [
        {"name": "etc", "size": 1, "children": [{"name": "hosts"}]}
    ]});
    assert_eq!(
        errors(&validator, &no_size),
        [("/children/0/children/0/size".to_owned(), ErrorCode::Missing)]
    );
    // `unevaluatedProperties: false` of the tool's node holds in every child: what `tree`
    // declares is evaluated through the `$ref`, anything else is not.
    let extra = json!({"name": "/", "size": 3, "children": [{"name": "etc", "size": 1, "mode": 7}]});
    assert_eq!(errors(&validator, &extra), [("/children/0/mode".to_owned(), ErrorCode::UnknownField)]);
    // The tree alone (its own `$dynamicAnchor` outermost) asks for no size.
    let tree = sized_tree()["$defs"]["tree"].clone();
    let plain = Validator::new(
        &json!({"$id": "https://tools.example/tree", "$ref": "#/$defs/t", "$defs": {"t": tree}}),
    )
    .unwrap();
    assert_eq!(errors(&plain, &no_size), []);
}

#[test]
fn a_dynamically_resolved_node_is_coerced_and_explained_like_any_other() {
    let validator = Validator::new(&sized_tree()).unwrap();
    // A size sent as a string, two levels down: coerced there, under the default policy.
    let checked = validator
        .check(r#"{"name": "/", "size": 1, "children": [{"name": "a", "size": 2, "children": [{"name": "b", "size": "5"}]}]}"#)
        .unwrap();
    assert_eq!(checked.value["children"][0]["children"][0]["size"], json!(5));
    let rejected =
        validator.check(r#"{"name": "/", "size": 1, "children": [{"name": "a", "size": -2}]}"#).unwrap_err();
    let found: Vec<_> = rejected.errors().iter().map(|error| (error.path(), error.code())).collect();
    assert_eq!(found, [("/children/0/size", ErrorCode::Range)]);
}

#[test]
fn a_recursive_reference_follows_the_recursive_anchor_outwards() {
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2019-09/schema",
        "$id": "https://tools.example/labelled-list",
        "$recursiveAnchor": true,
        "$ref": "list",
        "properties": {"label": {"type": "string", "maxLength": 8}},
        "$defs": {
            "list": {
                "$id": "list",
                "$recursiveAnchor": true,
                "type": "object",
                "properties": {"next": {"$recursiveRef": "#"}}
            }
        }
    });
    let validator = Validator::new(&schema).unwrap();
    let long = json!({"label": "a", "next": {"label": "b", "next": {"label": "far too long"}}});
    assert_eq!(errors(&validator, &long), [("/next/next/label".to_owned(), ErrorCode::Length)]);
    assert_eq!(errors(&validator, &json!({"label": "a", "next": {"next": {"label": "c"}}})), []);
    // Without the anchor outside, `$recursiveRef` stays in `list`, which says nothing of labels.
    let mut static_only = schema.clone();
    static_only.as_object_mut().unwrap().remove("$recursiveAnchor");
    let validator = Validator::new(&static_only).unwrap();
    assert_eq!(errors(&validator, &long), []);
    // Without `$schema`, `$recursiveRef` is still 2019-09's (no other draft gives it a
    // meaning), as an `items` list is read in the older drafts' meaning.
    let mut undeclared = schema.clone();
    undeclared.as_object_mut().unwrap().remove("$schema");
    let validator = Validator::new(&undeclared).unwrap();
    assert_eq!(errors(&validator, &long), [("/next/next/label".to_owned(), ErrorCode::Length)]);
    // Where 2020-12 is named, the keyword is not that draft's: not resolved dynamically.
    let mut newer = schema.clone();
    newer["$schema"] = json!("https://json-schema.org/draft/2020-12/schema");
    let validator = Validator::new(&newer).unwrap();
    assert_eq!(errors(&validator, &long), []);
}

#[test]
fn a_parameter_that_is_itself_a_json_schema_refers_to_the_metaschema() {
    let tool = json!({
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "input_schema": {"$ref": "https://json-schema.org/draft/2020-12/schema"}
        },
        "required": ["name", "input_schema"]
    });
    let validator = Validator::new(&tool).unwrap();
    let good = json!({"name": "lookup", "input_schema": {
        "type": "object",
        "properties": {"city": {"type": "string", "minLength": 1}},
        "required": ["city"]
    }});
    assert_eq!(errors(&validator, &good), []);
    // A misspelled type, and a bound below zero nested two levels into the sent schema: the
    // metaschema's `$dynamicRef: "#meta"` leads back to the whole metaschema, so the
    // validation vocabulary applies inside `properties` too.
    let typo = json!({"name": "lookup", "input_schema": {"type": "strnig"}});
    assert!(!errors(&validator, &typo).is_empty());
    let nested = json!({"name": "lookup", "input_schema": {
        "properties": {"city": {"properties": {"zip": {"minLength": -1}}}}
    }});
    let found = errors(&validator, &nested);
    assert!(
        found.iter().any(|(path, _)| path.starts_with("/input_schema/properties/city/properties/zip")),
        "{found:?}"
    );
    assert!(!errors(&validator, &json!({"name": "lookup", "input_schema": 3})).is_empty());
    // Checked as a tool call, the sent schema comes back as sent: the metaschema's `default`s
    // say what an absent keyword means, they are not filled in.
    let checked = validator.check(&good).unwrap();
    assert_eq!(checked.value, good);
    assert!(checked.report.coercions.is_empty(), "{:?}", checked.report.coercions);
}

#[test]
fn every_drafts_metaschema_is_bundled_and_nothing_else_is_fetched() {
    for (uri, below_zero) in [
        ("https://json-schema.org/draft/2020-12/schema", json!({"maxItems": -1})),
        ("https://json-schema.org/draft/2019-09/schema", json!({"items": {"maxItems": -1}})),
        ("http://json-schema.org/draft-07/schema#", json!({"properties": {"a": {"maxItems": -1}}})),
        ("http://json-schema.org/draft-06/schema#", json!({"maxItems": -1})),
        ("http://json-schema.org/draft-04/schema#", json!({"maxItems": -1})),
    ] {
        let validator =
            Validator::new(&json!({"$ref": uri})).unwrap_or_else(|error| panic!("{uri}: {error}"));
        assert_eq!(errors(&validator, &json!({"type": "string", "maxLength": 3})), [], "{uri}");
        assert!(!errors(&validator, &below_zero).is_empty(), "{uri}: {below_zero}");
    }
    // One vocabulary's metaschema alone.
    let validation =
        Validator::new(&json!({"$ref": "https://json-schema.org/draft/2020-12/meta/validation"})).unwrap();
    assert!(!validation.is_valid(&json!({"minLength": "3"})));
    assert!(validation.is_valid(&json!({"minLength": 3})));
    // Any other absolute URI, on json-schema.org or not, is a schema error naming it.
    for uri in [
        "https://json-schema.org/draft/2020-12/meta/nothing-here",
        "https://json-schema.org/draft/2020-12/schema#/$defs/missing",
        "https://example.com/schema.json",
    ] {
        let error = Validator::new(&json!({"properties": {"a": {"$ref": uri}}})).unwrap_err();
        assert_eq!(error.pointer, "/properties/a", "{uri}");
        assert!(error.to_string().contains(uri), "{uri}: {error}");
    }
}

#[test]
fn given_documents_are_reached_as_references_resolve() {
    // Relative to a schema without `$id`, and from one given document to another.
    let schema = json!({"type": "object", "properties": {"order": {"$ref": "orders.json"}}});
    let orders = json!({
        "$id": "https://tools.example/orders.json",
        "type": "object",
        "properties": {"id": {"$ref": "ids.json#/$defs/order"}, "qty": {"type": "integer"}},
        "required": ["id"]
    });
    let ids = json!({"$defs": {"order": {"type": "string", "pattern": "^ord_"}}});
    let validator = Validator::builder(&schema)
        .resource("orders.json", orders)
        .resource("https://tools.example/ids.json", ids)
        // Never reached, so never compiled: a document that is no schema does no harm.
        .resource("https://tools.example/unused.json", json!({"type": "strnig"}))
        .build()
        .unwrap();
    assert!(validator.is_valid(&json!({"order": {"id": "ord_1", "qty": 2}})));
    let checked = validator.check(r#"{"order": {"id": "ord_1", "qty": "2"}}"#).unwrap();
    assert_eq!(checked.value, json!({"order": {"id": "ord_1", "qty": 2}}));
    assert_eq!(
        errors(&validator, &json!({"order": {"id": "1"}})),
        [("/order/id".to_owned(), ErrorCode::Pattern)]
    );
    // A given document's defaults are the tool's own: filled in, as the schema's are.
    let schema = json!({"type": "object", "properties": {"qty": {"$ref": "https://tools.example/qty.json"}}});
    let qty = json!({"type": "integer", "minimum": 1, "default": 1});
    let validator =
        Validator::builder(&schema).resource("https://tools.example/qty.json", qty).build().unwrap();
    assert_eq!(validator.check("{}").unwrap().value, json!({"qty": 1}));
    // A reference to a document not given stays a schema error that names it.
    let schema = json!({"type": "object", "properties": {"order": {"$ref": "orders.json"}}});
    let error = Validator::builder(&schema).build().unwrap_err();
    assert!(error.to_string().contains("orders.json"), "{error}");
}

#[test]
fn a_given_document_is_read_in_its_own_draft_or_else_its_referrers() {
    // `dependentRequired` means nothing in draft 7, which writes it as `dependencies`.
    let shared = json!({"dependentRequired": {"card": ["cvv"]}});
    let sent = json!({"card": "4111"});
    for (dialect, valid) in [
        ("http://json-schema.org/draft-07/schema#", true),
        ("https://json-schema.org/draft/2020-12/schema", false),
    ] {
        let schema = json!({"$schema": dialect, "$ref": "https://tools.example/card.json"});
        let validator = Validator::builder(&schema)
            .resource("https://tools.example/card.json", shared.clone())
            .build()
            .unwrap();
        assert_eq!(validator.is_valid(&sent), valid, "{dialect}");
    }
    // A document that names its draft is read in it, whoever refers to it.
    let mut draft7 = shared.clone();
    draft7["$schema"] = json!("http://json-schema.org/draft-07/schema#");
    let schema = json!({"$ref": "https://tools.example/card.json"});
    let validator =
        Validator::builder(&schema).resource("https://tools.example/card.json", draft7).build().unwrap();
    assert!(validator.is_valid(&sent));
}

#[test]
fn a_metaschema_given_decides_the_vocabularies_a_schema_is_read_with() {
    let meta = |vocabularies: Value| json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "$vocabulary": vocabularies});
    let core = "https://json-schema.org/draft/2020-12/vocab/core";
    let applicator = "https://json-schema.org/draft/2020-12/vocab/applicator";
    let schema = json!({
        "$schema": "https://tools.example/meta",
        "properties": {"n": {"minimum": 10}, "gone": false, "id": {"format": "uuid"}}
    });
    // No validation vocabulary: `minimum` is an annotation; applicators still apply.
    let no_validation = meta(json!({core: true, applicator: true}));
    let validator =
        Validator::builder(&schema).resource("https://tools.example/meta", no_validation).build().unwrap();
    assert!(validator.is_valid(&json!({"n": 1})));
    assert!(!validator.is_valid(&json!({"gone": 1})));
    // `format` is asserted by default, whatever the metaschema lists.
    assert!(!validator.is_valid(&json!({"id": "not-a-uuid"})));
    // The format-assertion vocabulary asks for `format` to be asserted, even where the
    // builder said annotation.
    let asserting = meta(
        json!({core: true, applicator: true, "https://json-schema.org/draft/2020-12/vocab/format-assertion": false}),
    );
    let validator = Validator::builder(&schema)
        .formats(false)
        .resource("https://tools.example/meta", asserting)
        .build()
        .unwrap();
    assert!(!validator.is_valid(&json!({"id": "not-a-uuid"})));
}

#[test]
fn a_document_given_as_text_lists_its_properties_as_written() {
    let schema =
        json!({"type": "object", "properties": {"place": {"$ref": "https://tools.example/place.json"}}});
    let place = r#"{"type": "object", "properties": {"zone": {}, "area": {}, "mid": {}}, "additionalProperties": false}"#;
    let validator = Validator::builder(&schema)
        .resource_from_text("https://tools.example/place.json", place)
        .unwrap()
        .build()
        .unwrap();
    let rejection = validator.check(r#"{"place": {"zoen": 1}}"#).unwrap_err();
    assert_eq!(rejection.errors()[0].path(), "/place/zoen");
    assert!(rejection.to_string().contains(r#"allowed: "zone", "area", "mid""#), "{rejection}");
    // Text that is no JSON names the document.
    let error =
        Validator::builder(&schema).resource_from_text("https://tools.example/place.json", "{").unwrap_err();
    assert!(error.to_string().contains("https://tools.example/place.json"), "{error}");
}

#[test]
fn an_error_in_a_given_document_names_the_document() {
    let schema = json!({"type": "object", "properties": {"a": {"$ref": "https://tools.example/a.json"}}});
    let build = |a: Value, b: Value| {
        Validator::builder(&schema)
            .resource("https://tools.example/a.json", a)
            .resource("https://tools.example/b.json", b)
            .build()
            .unwrap_err()
    };
    // A keyword written wrong, in the document a reference reached.
    let error = build(json!({"properties": {"x": {"type": "strnig"}}}), json!({}));
    assert_eq!(error.pointer, "https://tools.example/a.json#/properties/x", "{error}");
    // One document further.
    let error = build(json!({"$ref": "b.json#/$defs/n"}), json!({"$defs": {"n": {"minimum": "1"}}}));
    assert_eq!(error.pointer, "https://tools.example/b.json#/$defs/n", "{error}");
    // A loop across two documents: one place on it, in its own document.
    let error = build(json!({"$ref": "b.json"}), json!({"$ref": "a.json"}));
    assert_eq!(error.pointer, "https://tools.example/a.json#", "{error}");
    assert!(error.message.contains("lead back here"), "{error}");
    // A default the given document's own schema refuses.
    let error =
        build(json!({"type": "object", "properties": {"n": {"type": "integer", "default": "x"}}}), json!({}));
    assert_eq!(error.pointer, "https://tools.example/a.json#/properties/n/default", "{error}");
    // The schema's own place stays as it is, even when reached from a given document.
    let schema = json!({
        "$id": "https://tools.example/root.json",
        "$defs": {"bad": {"maxLength": -1}},
        "type": "object",
        "properties": {"a": {"$ref": "https://tools.example/a.json"}}
    });
    let error = Validator::builder(&schema)
        .resource("https://tools.example/a.json", json!({"$ref": "root.json#/$defs/bad"}))
        .build()
        .unwrap_err();
    assert_eq!(error.pointer, "/$defs/bad", "{error}");
}
