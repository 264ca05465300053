//! Tool definitions in every dialect (insta snapshots), each dialect's check passing on the
//! example tools and failing on deliberately bad ones, and arguments produced under a
//! transformed dialect reading into the same Rust value as the plain form.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};
use tool_input::dialect::{self, ProblemCode};
use tool_input::parse::RepairKind;
use tool_input::{CheckOptions, CoercionKind, Dialect, ErrorCode, Policy, ToolDefinition, ToolInput};

/// Create an order for a customer.
#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
struct CreateOrder {
    /// Customer identifier.
    customer_id: String,
    priority: Priority,
    /// Free-form labels, at most 10.
    #[schemars(length(max = 10))]
    tags: Vec<String>,
    items: Vec<Item>,
    /// ISO 8601 date or date-time.
    ship_by: Option<String>,
    #[serde(default)]
    gift: bool,
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Priority {
    Low,
    Medium,
    High,
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
struct Item {
    #[schemars(regex(pattern = r"^[A-Z]{3}-\d{4}$"))]
    sku: String,
    #[schemars(range(min = 1, max = 1000))]
    quantity: u32,
    note: Option<String>,
}

/// Get the weather forecast for a city.
#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
struct GetWeather {
    city: String,
    /// How many days ahead.
    #[serde(default = "one")]
    #[schemars(range(min = 1, max = 14))]
    days: u8,
    unit: Option<Unit>,
}

fn one() -> u8 {
    1
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Unit {
    Celsius,
    Fahrenheit,
}

/// List the open issues.
#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
struct ListIssues {}

/// Log in to the account.
#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
#[tool_input(policy = "strict")]
struct Login {
    user: String,
    #[tool_input(sensitive)]
    password: String,
    remember: Option<bool>,
}

/// Draw a shape.
#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
struct DrawShape {
    shape: Shape,
    labels: BTreeMap<String, String>,
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Shape {
    Circle { radius: f64 },
    Rectangle { width: f64, height: f64 },
}

/// Fetch a document from a file or a web page.
#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
struct FetchDocument {
    /// Why the document is needed.
    reason: String,
    #[serde(flatten)]
    source: Source,
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(tag = "from", rename_all = "snake_case")]
enum Source {
    File { path: String },
    Web { url: String, max_depth: Option<u8> },
}

fn example_tools() -> Vec<&'static ToolDefinition> {
    vec![
        CreateOrder::definition(),
        GetWeather::definition(),
        ListIssues::definition(),
        Login::definition(),
        FetchDocument::definition(),
    ]
}

/// Every `required` list in `value`, sorted.
fn sort_required(value: &mut Value) {
    match value {
        Value::Object(map) => {
            for (key, child) in map.iter_mut() {
                if let (true, Value::Array(names)) = (key == "required", &mut *child) {
                    names.sort_by(|a, b| a.as_str().cmp(&b.as_str()));
                } else {
                    sort_required(child);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(sort_required),
        _ => {}
    }
}

#[test]
fn definitions_in_every_dialect() {
    for tool in example_tools() {
        for dialect in Dialect::ALL {
            let name = format!("{}__{}", tool.name(), dialect.as_str().replace('-', "_"));
            // Maps and `required` lists sorted, so the snapshot holds whether serde_json keeps
            // insertion order or not (its `preserve_order` feature, which rig-core turns on in
            // `--all-features` builds); neither order means anything in a JSON Schema.
            let mut definition = tool.to_dialect(dialect);
            sort_required(&mut definition);
            insta::with_settings!({sort_maps => true}, {
                insta::assert_json_snapshot!(name, definition);
            });
        }
    }
}

#[test]
fn the_example_tools_pass_every_dialect_check() {
    for tool in example_tools() {
        for dialect in Dialect::ALL {
            let problems = tool.check_dialect(dialect);
            assert!(problems.is_empty(), "{} in {dialect}: {problems:#?}", tool.name());
        }
    }
    // A tool whose shape a dialect cannot express is caught for that dialect only.
    assert!(DrawShape::definition().check_dialect(Dialect::OpenAi).is_empty());
    assert!(DrawShape::definition().check_dialect(Dialect::Anthropic).is_empty());
    let strict = DrawShape::definition().check_dialect(Dialect::OpenAiStrict);
    assert_eq!(
        strict.iter().map(|p| p.code).collect::<Vec<_>>(),
        [ProblemCode::Unrepresentable],
        "{strict:#?}"
    );
    assert_eq!(strict[0].pointer, "/function/parameters/properties/labels/additionalProperties");
    let gemini = DrawShape::definition().check_dialect(Dialect::Gemini);
    assert_eq!(gemini[0].pointer, "/parameters/properties/labels");
}

#[test]
fn strict_transform_keeps_the_engine_in_step() {
    let definition = GetWeather::definition().to_dialect(Dialect::OpenAiStrict);
    let parameters = &definition["function"]["parameters"];
    assert_eq!(parameters["required"], json!(["city", "days", "unit"]));
    assert_eq!(parameters["properties"]["days"]["type"], json!(["integer", "null"]));
    assert!(parameters["properties"]["days"].get("default").is_none());
    assert!(parameters["properties"]["days"].get("format").is_none());
    assert_eq!(parameters["additionalProperties"], false);
}

fn strict_policy() -> CheckOptions {
    CheckOptions::new().with_policy(Policy::Strict)
}

#[test]
fn strict_mode_arguments_read_as_the_plain_form() {
    // As a strict-mode model sends them: every field, null for the ones it leaves out.
    let strict_form = r#"{"customer_id": "C-1", "priority": "high", "tags": [], "items": [{"sku": "ABC-1234", "quantity": 2, "note": null}], "ship_by": null, "gift": null}"#;
    let plain_form = r#"{"customer_id": "C-1", "priority": "high", "tags": [], "items": [{"sku": "ABC-1234", "quantity": 2}]}"#;
    let plain = CreateOrder::from_arguments(plain_form).unwrap();
    for options in [CheckOptions::default(), strict_policy()] {
        let read = CreateOrder::from_dialect_arguments(Dialect::OpenAiStrict, strict_form, &options).unwrap();
        assert_eq!(read.value, plain);
        let read =
            CreateOrder::from_dialect_arguments(Dialect::ResponsesStrict, strict_form, &options).unwrap();
        assert_eq!(read.value, plain);
    }
    let read =
        CreateOrder::from_dialect_arguments(Dialect::OpenAiStrict, strict_form, &strict_policy()).unwrap();
    let absent: Vec<(&str, CoercionKind)> =
        read.report.coercions.iter().map(|c| (c.path.as_str(), c.kind)).collect();
    assert!(absent.contains(&("/gift", CoercionKind::NullAsAbsent)), "{absent:?}");

    // A default other than the type's own, and an optional enum.
    let read = GetWeather::from_dialect_arguments(
        Dialect::OpenAiStrict,
        r#"{"city": "Paris", "days": null, "unit": null}"#,
        &strict_policy(),
    )
    .unwrap();
    assert_eq!(read.value, GetWeather { city: "Paris".into(), days: 1, unit: None });
    assert_eq!(read.value, GetWeather::from_arguments(r#"{"city": "Paris"}"#).unwrap());

    // A strict tool (policy = "strict") gets the same value from both forms.
    let login = Login::from_dialect_arguments(
        Dialect::OpenAiStrict,
        r#"{"user": "ann", "password": "hunter22", "remember": null}"#,
        &CheckOptions::default(),
    )
    .unwrap();
    assert_eq!(login.value, Login::from_arguments(r#"{"user": "ann", "password": "hunter22"}"#).unwrap());

    // Without the dialect, the strict policy refuses the null: the dialect is what makes it exact.
    assert!(CreateOrder::from_arguments_with(strict_form, &strict_policy()).is_err());
    // A null for a required field is still a mistake.
    assert!(CreateOrder::from_dialect_arguments(
        Dialect::OpenAiStrict,
        r#"{"customer_id": null, "priority": "high", "tags": [], "items": []}"#,
        &strict_policy()
    )
    .is_err());
}

/// Strict mode takes only an object at the root, and Anthropic's API refuses `oneOf`,
/// `allOf` or `anyOf` there (MCP clients pass a server's schema to it): a struct that
/// flattens an enum (its schema a root `oneOf` of the variants) is shown as one object with
/// every variant's fields, those of one variant alone optional (nullable in strict mode) and
/// told for which tag. What the model sends is read back as the variant the tag names and
/// checked against the original schema: a field of another variant given a value is
/// refused, not dropped.
#[test]
fn a_flattened_enum_is_one_object_where_the_root_must_be_one() {
    // OpenAI refuses a root union without strict mode too ("schema must have type 'object' and
    // not have 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the top level").
    for (dialect, at) in [
        (Dialect::Anthropic, "/input_schema"),
        (Dialect::Mcp, "/inputSchema"),
        (Dialect::OpenAi, "/function/parameters"),
        (Dialect::Responses, "/parameters"),
    ] {
        let definition = FetchDocument::definition().to_dialect(dialect);
        let schema = definition.pointer(at).unwrap();
        assert!(["oneOf", "anyOf", "allOf"].iter().all(|k| schema.get(k).is_none()), "{schema}");
        assert_eq!(schema["required"], json!(["reason", "from"]), "{dialect}");
        assert_eq!(schema["properties"]["url"]["description"], "Only when `from` is \"web\".");
        // What the model sends under it is the plain form.
        let sent = r#"{"reason": "r", "from": "web", "url": "https://x"}"#;
        let read = FetchDocument::from_dialect_arguments(dialect, sent, &strict_policy()).unwrap();
        assert_eq!(read.value.source, Source::Web { url: "https://x".into(), max_depth: None });
    }
    // "Exactly one of" written as forms that only require (as zod and MCP servers write it):
    // one object of the root's properties, whatever the dialect; the original still decides.
    let exactly_one = ToolDefinition::new(
        "locate",
        None,
        json!({"type": "object", "properties": {"city": {"type": "string"}, "lat": {"type": "number"}},
               "oneOf": [{"required": ["city"]}, {"required": ["lat"]}]}),
    )
    .unwrap();
    for dialect in [Dialect::Anthropic, Dialect::Mcp, Dialect::OpenAiStrict] {
        assert!(
            exactly_one.check_dialect(dialect).is_empty(),
            "{dialect}: {:?}",
            exactly_one.check_dialect(dialect)
        );
        let shown = dialect::transform_schema(exactly_one.schema(), dialect).unwrap();
        assert!(
            shown.get("oneOf").is_none() && shown["properties"].get("city").is_some(),
            "{dialect}: {shown}"
        );
        let both = r#"{"city": "Oslo", "lat": 59.9}"#;
        assert!(exactly_one.check_as(dialect, both.into(), &strict_policy()).is_err(), "{dialect}");
    }
    // A definition written by hand with a root union is what Anthropic's API refuses.
    let by_hand = json!({"name": "locate", "input_schema": {"type": "object",
        "oneOf": [{"required": ["city"]}, {"required": ["lat"]}],
        "properties": {"city": {"type": "string"}, "lat": {"type": "number"}}}});
    let problems = dialect::check_definition(&by_hand, Dialect::Anthropic);
    assert_eq!(
        problems.iter().map(|p| (p.pointer.as_str(), p.code)).collect::<Vec<_>>(),
        [("/input_schema/oneOf", ProblemCode::UnsupportedKeyword)]
    );
    // And so is OpenAI's, with or without strict mode, for any of the keywords it names.
    for keyword in ["oneOf", "anyOf", "allOf", "enum", "not"] {
        let by_hand = json!({"type": "function", "function": {"name": "locate", "parameters": {"type": "object",
            keyword: [{"required": ["city"]}], "properties": {"city": {"type": "string"}}}}});
        let problems = dialect::check_definition(&by_hand, Dialect::OpenAi);
        assert_eq!(
            problems.iter().map(|p| (p.pointer.as_str(), p.code)).collect::<Vec<_>>(),
            [("/function/parameters", ProblemCode::RootNotObject)],
            "{keyword}"
        );
    }

    for dialect in [Dialect::OpenAiStrict, Dialect::ResponsesStrict] {
        let definition = FetchDocument::definition().to_dialect(dialect);
        let parameters = definition.pointer("/function/parameters").unwrap_or(&definition["parameters"]);
        assert!(parameters.get("anyOf").is_none() && parameters.get("oneOf").is_none(), "{parameters}");
        assert_eq!(parameters["properties"]["from"], json!({"type": "string", "enum": ["file", "web"]}));
        assert_eq!(
            parameters["properties"]["url"]["description"],
            "Only when `from` is \"web\"; otherwise null."
        );
    }
    let file = r#"{"reason": "r", "from": "file", "path": "/a", "url": null, "max_depth": null}"#;
    let web = r#"{"reason": "r", "from": "web", "path": null, "url": "https://x", "max_depth": 2}"#;
    for options in [CheckOptions::default(), strict_policy()] {
        for dialect in [Dialect::OpenAiStrict, Dialect::ResponsesStrict] {
            let read = FetchDocument::from_dialect_arguments(dialect, file, &options).unwrap();
            let plain = r#"{"reason": "r", "from": "file", "path": "/a"}"#;
            assert_eq!(read.value, FetchDocument::from_arguments(plain).unwrap());
            let read = FetchDocument::from_dialect_arguments(dialect, web, &options).unwrap();
            let expected = Source::Web { url: "https://x".into(), max_depth: Some(2) };
            assert_eq!(read.value.source, expected);
        }
    }
    // The choice is the model's: a field of the other variant given, or the variant's own
    // field left null, is refused at its path.
    for (sent, at) in [
        (r#"{"reason": "r", "from": "file", "path": "/a", "url": "https://x", "max_depth": null}"#, "/url"),
        (r#"{"reason": "r", "from": "file", "path": null, "url": null, "max_depth": null}"#, "/path"),
    ] {
        let refused =
            FetchDocument::from_dialect_arguments(Dialect::OpenAiStrict, sent, &strict_policy()).unwrap_err();
        assert_eq!(refused.errors()[0].path(), at, "{sent}: {refused}");
    }

    // A schema's own root union (as an MCP server may send), without a tag: each form's
    // properties, nullable; read back as the form whose properties were given.
    let tool = ToolDefinition::new(
        "locate",
        None,
        json!({"oneOf": [
            {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"], "additionalProperties": false},
            {"type": "object", "properties": {"lat": {"type": "number"}, "lon": {"type": "number"}}, "required": ["lat", "lon"], "additionalProperties": false}
        ]}),
    )
    .unwrap();
    assert!(tool.check_dialect(Dialect::OpenAiStrict).is_empty());
    let checked = tool
        .check_as(
            Dialect::OpenAiStrict,
            r#"{"city": "Oslo", "lat": null, "lon": null}"#.into(),
            &strict_policy(),
        )
        .unwrap();
    assert_eq!(checked.value, json!({"city": "Oslo"}));
    assert!(tool
        .check_as(
            Dialect::OpenAiStrict,
            r#"{"city": "Oslo", "lat": 1, "lon": null}"#.into(),
            &strict_policy()
        )
        .is_err());

    // A form one object cannot say (a `not` of its own) is reported, and the root left as it was.
    let tool = ToolDefinition::new(
        "odd",
        None,
        json!({"anyOf": [{"type": "object", "properties": {"a": {"type": "string"}}, "not": {"required": ["a"]}}]}),
    )
    .unwrap();
    let problems = tool.check_dialect(Dialect::OpenAiStrict);
    assert!(problems.iter().any(|p| p.code == ProblemCode::Unrepresentable), "{problems:#?}");
}

#[test]
fn gemini_string_enums_read_back_as_their_values() {
    let tool = ToolDefinition::new(
        "set_level",
        None,
        json!({"type": "object", "properties": {"level": {"enum": [1, 2, 3]}, "on": {"const": true}}, "required": ["level"]}),
    )
    .unwrap();
    let declaration = tool.to_dialect(Dialect::Gemini);
    assert_eq!(
        declaration["parameters"]["properties"]["level"],
        json!({"type": "STRING", "enum": ["1", "2", "3"]})
    );
    assert!(tool.check_dialect(Dialect::Gemini).is_empty());
    let checked =
        tool.check_as(Dialect::Gemini, r#"{"level": "2", "on": "true"}"#.into(), &strict_policy()).unwrap();
    assert_eq!(checked.value, json!({"level": 2, "on": true}));
    assert!(tool.check_with(r#"{"level": "2"}"#.into(), &strict_policy()).is_err());
}

#[test]
fn a_dialect_undone_many_times_records_the_first_and_counts_the_rest() {
    // Gemini sends every enum value as a string: each read back is recorded, up to
    // `Limits::max_coercions`, then counted, and the walk's records follow within the limit.
    let tool = ToolDefinition::new(
        "set_levels",
        None,
        json!({"type": "object", "properties": {
            "levels": {"type": "array", "items": {"enum": [1, 2, 3]}},
            "count": {"type": "integer"}
        }}),
    )
    .unwrap();
    let sent = json!({"levels": vec!["2"; 150], "count": "7"}).to_string();
    let checked = tool.check_as(Dialect::Gemini, sent.as_str().into(), &CheckOptions::new()).unwrap();
    assert_eq!(checked.value, json!({"levels": vec![2; 150], "count": 7}));
    assert_eq!((checked.report.coercions.len(), checked.report.omitted_coercions), (100, 51));
    assert!(checked.report.coercions.iter().all(|c| c.path.starts_with("/levels/")));

    let limits = tool_input::Limits::default().with_max_coercions(0);
    let checked = tool
        .check_as(Dialect::Gemini, sent.as_str().into(), &CheckOptions::new().with_limits(limits))
        .unwrap();
    assert_eq!(checked.value, json!({"levels": vec![2; 150], "count": 7}));
    assert_eq!((checked.report.coercions.len(), checked.report.omitted_coercions), (0, 151));
}

/// Gemini refuses an ARRAY without `items` (400, "items: missing field"), and has no
/// `prefixItems`: a tuple field, or a `Vec<serde_json::Value>` (`items: true`), is sent with
/// items Gemini takes, and still read back by the original schema.
#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
struct Plot {
    point: (i32, String),
    pair: (u8, u8),
    extra: Vec<Value>,
}

#[test]
fn gemini_arrays_always_say_their_items() {
    assert!(Plot::definition().check_dialect(Dialect::Gemini).is_empty());
    let declaration = Plot::definition().to_dialect(Dialect::Gemini);
    let properties = &declaration["parameters"]["properties"];
    assert_eq!(
        properties["point"],
        json!({"type": "ARRAY", "minItems": 2, "maxItems": 2, "items": {"anyOf": [{"type": "INTEGER", "format": "int32"}, {"type": "STRING"}]}})
    );
    assert_eq!(properties["pair"]["items"], json!({"type": "INTEGER", "minimum": 0, "maximum": 255}));
    assert_eq!(properties["extra"], json!({"type": "ARRAY", "items": {}}));
    let sent = r#"{"point": [3, "x"], "pair": [1, 2], "extra": [null, {"a": 1}]}"#;
    let read = Plot::from_dialect_arguments(Dialect::Gemini, sent, &strict_policy()).unwrap();
    assert_eq!(read.value, Plot::from_arguments(sent).unwrap());
    // The order is the original schema's to check.
    let swapped = r#"{"point": ["x", 3], "pair": [1, 2], "extra": []}"#;
    assert!(Plot::from_dialect_arguments(Dialect::Gemini, swapped, &strict_policy()).is_err());
    // A declaration written by hand without `items` is reported.
    let declaration =
        json!({"name": "f", "parameters": {"type": "OBJECT", "properties": {"tags": {"type": "ARRAY"}}}});
    let problems = dialect::check_definition(&declaration, Dialect::Gemini);
    assert_eq!(
        problems.iter().map(|p| (p.pointer.as_str(), p.code)).collect::<Vec<_>>(),
        [("/parameters/properties/tags/type", ProblemCode::UnsupportedType)]
    );
}

/// Gemini refuses `properties` (and `required`) on a schema of another type than OBJECT (400,
/// "properties: only allowed for OBJECT type"), which hand-written MCP schemas carry (a
/// `string` with `properties`). JSON Schema applies them to objects only, so where the type
/// is another they say nothing and are left out; where a list of types becomes branches,
/// they go into the OBJECT branch, and `items` into the ARRAY branch (which always has one).
#[test]
fn gemini_takes_what_a_schema_says_of_objects_and_arrays_only_on_their_types() {
    let schema = json!({"type": "object", "properties": {
        "note": {"type": "string", "properties": {"x": {"type": "string"}}, "required": ["x"], "items": {"type": "integer"}},
        "either": {"type": ["object", "string", "null"], "properties": {"x": {"type": "string"}}, "required": ["x"]},
        "list": {"type": ["array", "string"], "items": {"type": "integer"}},
        "bare": {"type": ["array", "integer"]}
    }});
    let converted = dialect::transform_schema(&schema, Dialect::Gemini).unwrap();
    let properties = &converted["properties"];
    assert_eq!(properties["note"], json!({"type": "STRING"}));
    assert_eq!(
        properties["either"],
        json!({"nullable": true, "anyOf": [
            {"type": "OBJECT", "properties": {"x": {"type": "STRING"}}, "required": ["x"]}, {"type": "STRING"}]})
    );
    assert_eq!(
        properties["list"],
        json!({"anyOf": [{"type": "ARRAY", "items": {"type": "INTEGER"}}, {"type": "STRING"}]})
    );
    assert_eq!(properties["bare"], json!({"anyOf": [{"type": "ARRAY", "items": {}}, {"type": "INTEGER"}]}));
    assert!(dialect::check_tool("f", None, &schema, Dialect::Gemini).is_empty());
    // A declaration written by hand with them on a STRING is reported.
    let declaration = json!({"name": "f", "parameters": {"type": "OBJECT", "properties": {
        "note": {"type": "STRING", "properties": {"x": {"type": "STRING"}}}}}});
    let problems = dialect::check_definition(&declaration, Dialect::Gemini);
    assert_eq!(
        problems.iter().map(|p| (p.pointer.as_str(), p.code)).collect::<Vec<_>>(),
        [("/parameters/properties/note/properties", ProblemCode::UnsupportedKeyword)]
    );
}

/// The text of a call read in a dialect is the text as sent: its repairs and a key it gives
/// twice are found as `check_with` finds them, before the dialect's rewrite is undone.
#[test]
fn a_dialect_reading_keeps_the_texts_repairs_and_keys_given_twice() {
    let tool = ToolDefinition::new(
        "set_level",
        None,
        json!({"type": "object", "properties": {"level": {"enum": [1, 2, 3]}, "note": {"type": "string"}}, "required": ["level"]}),
    )
    .unwrap();
    let options = CheckOptions::default();
    // Two values: a choice made twice, as without the dialect.
    let rejection = tool
        .check_as(Dialect::Gemini, r#"{"level": "2", "note": "a", "note": "b"}"#.into(), &options)
        .unwrap_err();
    let found: Vec<(&str, ErrorCode)> = rejection.errors().iter().map(|e| (e.path(), e.code())).collect();
    assert_eq!(found, [("/note", ErrorCode::DuplicateKey)], "{rejection}");
    // The same value twice: recorded after the dialect's own record; the repairs are the text's.
    let checked =
        tool.check_as(Dialect::Gemini, "{'level': '2', 'note': 'a', 'note': 'a',}".into(), &options).unwrap();
    assert_eq!(checked.value, json!({"level": 2, "note": "a"}));
    let kinds: Vec<(&str, CoercionKind)> =
        checked.report.coercions.iter().map(|c| (c.path.as_str(), c.kind)).collect();
    assert_eq!(kinds.len(), 2, "{kinds:?}");
    assert_eq!(kinds[1], ("/note", CoercionKind::DuplicateKey));
    let repairs: Vec<RepairKind> = checked.report.repairs.iter().map(|r| r.kind).collect();
    assert_eq!(repairs, [RepairKind::SingleQuotes, RepairKind::TrailingComma]);
}

#[test]
fn checks_fail_for_bad_tools() {
    let codes =
        |problems: Vec<tool_input::DialectProblem>| problems.into_iter().map(|p| p.code).collect::<Vec<_>>();

    // Too deep for strict mode: 12 nested objects.
    let mut deep =
        json!({"type": "object", "properties": {"leaf": {"type": "string"}}, "required": ["leaf"]});
    for _ in 0..11 {
        deep = json!({"type": "object", "properties": {"next": deep}, "required": ["next"]});
    }
    assert_eq!(
        codes(dialect::check_tool("deep", None, &deep, Dialect::OpenAiStrict)),
        [ProblemCode::TooDeep]
    );
    assert!(dialect::check_tool("deep", None, &deep, Dialect::OpenAi).is_empty());

    // Too many properties, and too many enum values.
    let properties: serde_json::Map<String, Value> =
        (0..5001).map(|i| (format!("p{i}"), json!({"type": "string"}))).collect();
    let wide = json!({"type": "object", "properties": properties});
    assert!(codes(dialect::check_tool("wide", None, &wide, Dialect::OpenAiStrict))
        .contains(&ProblemCode::TooManyProperties));
    let values: Vec<String> = (0..1001).map(|i| format!("v{i}")).collect();
    let many =
        json!({"type": "object", "properties": {"v": {"type": "string", "enum": values}}, "required": ["v"]});
    assert_eq!(
        codes(dialect::check_tool("many", None, &many, Dialect::OpenAiStrict)),
        [ProblemCode::TooManyEnumValues]
    );

    // Bad names, per dialect.
    let schema = json!({"type": "object", "properties": {}});
    for (name, dialect) in [
        ("get weather", Dialect::OpenAi),
        ("", Dialect::Anthropic),
        (&*"x".repeat(65), Dialect::Responses),
        ("a/b", Dialect::Mcp),
        ("1st.tool", Dialect::Gemini),
    ] {
        assert_eq!(
            codes(dialect::check_tool(name, None, &schema, dialect)),
            [ProblemCode::Name],
            "{name:?} in {dialect}"
        );
    }
    assert!(dialect::check_tool("files.read", None, &schema, Dialect::Mcp).is_empty());
    assert!(dialect::check_tool("files.read", None, &schema, Dialect::OpenAi)
        .iter()
        .any(|p| p.code == ProblemCode::Name));

    // Keywords Gemini does not accept, in a declaration written by hand.
    let declaration = json!({"name": "f", "parameters": {"type": "OBJECT", "additionalProperties": false, "properties": {
        "n": {"type": "INTEGER", "exclusiveMinimum": 0, "format": "uint32"},
        "k": {"type": ["STRING", "NULL"], "enum": [1, 2]},
        "r": {"$ref": "#/$defs/R"}}}});
    let problems = dialect::check_definition(&declaration, Dialect::Gemini);
    let found: Vec<(&str, ProblemCode)> = problems.iter().map(|p| (p.pointer.as_str(), p.code)).collect();
    for expected in [
        ("/parameters/additionalProperties", ProblemCode::UnsupportedKeyword),
        ("/parameters/properties/n/exclusiveMinimum", ProblemCode::UnsupportedKeyword),
        ("/parameters/properties/n/format", ProblemCode::UnsupportedFormat),
        ("/parameters/properties/k/type", ProblemCode::UnsupportedType),
        ("/parameters/properties/k/enum", ProblemCode::EnumNotString),
        ("/parameters/properties/r/$ref", ProblemCode::UnsupportedKeyword),
    ] {
        assert!(found.contains(&expected), "{expected:?} not in {found:#?}");
    }
    // The same schema exported through the transform passes.
    let plain = json!({"type": "object", "additionalProperties": false, "properties": {
        "n": {"type": "integer", "exclusiveMinimum": 0, "format": "uint32"},
        "k": {"type": ["integer", "null"], "enum": [1, 2, null]}}});
    assert!(dialect::check_tool("f", None, &plain, Dialect::Gemini).is_empty());

    // A recursive schema cannot be inlined for Gemini; strict mode allows it.
    let tree = json!({"type": "object", "properties": {"root": {"$ref": "#/$defs/Node"}}, "required": ["root"],
        "$defs": {"Node": {"type": "object", "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}}, "required": ["children"]}}});
    assert_eq!(
        codes(dialect::check_tool("tree", None, &tree, Dialect::Gemini)),
        [ProblemCode::Unrepresentable]
    );
    assert!(dialect::check_tool("tree", None, &tree, Dialect::OpenAiStrict).is_empty());

    // A schema of any value has no strict form: OpenAI wants a `type` in every schema (400,
    // "schema must have a 'type' key"), wherever it sits.
    let any = json!({"type": "object", "properties": {
        "a": {}, "b": true, "c": {"description": "anything"},
        "d": {"type": "array", "items": true}, "e": {"type": "string"}}, "required": ["a"]});
    for dialect in [Dialect::OpenAiStrict, Dialect::ResponsesStrict] {
        let at = if dialect == Dialect::OpenAiStrict { "/function/parameters" } else { "/parameters" };
        let found: Vec<(String, ProblemCode)> =
            dialect::check_tool("f", None, &any, dialect).into_iter().map(|p| (p.pointer, p.code)).collect();
        let expected: Vec<(String, ProblemCode)> = ["a", "b", "c", "d/items"]
            .iter()
            .map(|name| (format!("{at}/properties/{name}"), ProblemCode::Unrepresentable))
            .collect();
        assert_eq!(found, expected, "{dialect}");
    }
    assert!(dialect::check_tool("f", None, &any, Dialect::OpenAi).is_empty());
    // As schemars writes a `serde_json::Value` field.
    #[allow(dead_code)] // only its schema is read
    #[derive(Deserialize, JsonSchema, ToolInput)]
    struct Configure {
        key: String,
        value: Value,
    }
    let problems = Configure::definition().check_dialect(Dialect::OpenAiStrict);
    assert_eq!(
        problems.iter().map(|p| (p.pointer.as_str(), p.code)).collect::<Vec<_>>(),
        [("/function/parameters/properties/value", ProblemCode::Unrepresentable)]
    );
    // A flattened map: the struct takes keys beyond its fields, which strict mode, closing
    // every object, would refuse. Said, not closed in silence.
    #[allow(dead_code)] // only its schema is read
    #[derive(Deserialize, JsonSchema, ToolInput)]
    struct Label {
        name: String,
        #[serde(flatten)]
        extra: BTreeMap<String, u32>,
    }
    #[allow(dead_code)] // only its schema is read
    #[derive(Deserialize, JsonSchema, ToolInput)]
    struct Annotate {
        name: String,
        #[serde(flatten)]
        extra: BTreeMap<String, Value>,
    }
    for (tool, at) in [
        (Label::definition(), "/function/parameters/additionalProperties"),
        (Annotate::definition(), "/function/parameters/additionalProperties"),
    ] {
        let problems = tool.check_dialect(Dialect::OpenAiStrict);
        assert_eq!(
            problems.iter().map(|p| (p.pointer.as_str(), p.code)).collect::<Vec<_>>(),
            [(at, ProblemCode::Unrepresentable)],
            "{}",
            tool.name()
        );
        assert!(tool.check_dialect(Dialect::OpenAi).is_empty(), "{}", tool.name());
    }
    assert_eq!(
        Label::definition().check_dialect(Dialect::ResponsesStrict)[0].pointer,
        "/parameters/additionalProperties"
    );
    // Plain schemas alike: extra properties beside declared ones, by schema or `true`.
    for extra in [json!({"type": "string"}), json!(true)] {
        let open =
            json!({"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": extra});
        assert_eq!(
            codes(dialect::check_tool("f", None, &open, Dialect::OpenAiStrict)),
            [ProblemCode::Unrepresentable]
        );
    }

    // What strict mode says of a schema sent without the transform.
    let loose = dialect::tool_definition(
        "f",
        None,
        &json!({"type": "object", "properties": {"a": {"type": "string", "minLength": 1}}}),
        Dialect::OpenAi,
    );
    let mut as_strict = loose.clone();
    as_strict["function"]["strict"] = Value::Bool(true);
    let found = codes(dialect::check_definition(&as_strict, Dialect::OpenAiStrict));
    assert!(
        found.contains(&ProblemCode::AdditionalProperties)
            && found.contains(&ProblemCode::NotRequired)
            && found.contains(&ProblemCode::UnsupportedKeyword),
        "{found:?}"
    );
}

#[test]
fn plain_schemas_export_too() {
    let schema = json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "properties": {"q": {"type": "string"}}, "required": ["q"]});
    let mcp = dialect::tool_definition("search", Some("Search."), &schema, Dialect::Mcp);
    assert_eq!(
        mcp,
        json!({"name": "search", "description": "Search.", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}})
    );
    assert!(
        dialect::transform_schema(&json!({"type": "object", "properties": {}}), Dialect::Gemini).is_none()
    );
    assert_eq!(
        ListIssues::definition().to_dialect(Dialect::Gemini),
        json!({"name": "list_issues", "description": "List the open issues."})
    );
}
