//! Enums and unions as schemars writes them for every serde enum representation: the tag is
//! read first, only the chosen branch is checked, every option is named, and deep recursive
//! unions check in linear time. The messages are snapshot-tested.

use std::collections::BTreeMap;

#[macro_use]
mod common;

use common::keys_keep_insertion_order;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};
use tool_input::{CoercionKind, ErrorCode, Policy, Rejection, ToolInput, Validator};

/// A unit enum without doc comments: schemars writes `{"type": "string", "enum": [...]}`.
#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Priority {
    Low,
    Medium,
    High,
}

/// A unit enum with doc comments: schemars writes a `oneOf` of `const` branches.
#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Mode {
    /// Replace the file's content.
    Write,
    /// Add to the end of the file.
    Append,
}

/// Renamed variants, one of them documented.
#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
enum Sort {
    /// Newest first.
    NewestFirst,
    OldestFirst,
    #[serde(rename = "by-stars")]
    Stars,
}

/// Internally tagged.
#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Filter {
    /// Issues created after a date.
    Date { after: String },
    /// Issues by one author.
    Author { name: String },
    /// Every issue.
    Any,
}

/// Adjacently tagged.
#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(tag = "op", content = "args", rename_all = "snake_case")]
enum Edit {
    Insert { line: u32, text: String },
    Delete(u32),
    Clear,
}

/// Externally tagged (serde's default): `{"run_script": {...}}`, or `"stop"`.
#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Action {
    RunScript { path: String },
    Sleep(u32),
    Stop,
}

/// Untagged.
#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(untagged)]
enum Retry {
    Times(u8),
    Backoff { max: u32, backoff_ms: u64 },
    Named(String),
}

/// Run a job.
#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
struct RunJob {
    priority: Priority,
    mode: Mode,
    sort: Option<Sort>,
    #[serde(default)]
    filters: Vec<Filter>,
    edit: Option<Edit>,
    action: Action,
    retry: Option<Retry>,
    modes: Option<Vec<Mode>>,
    by_name: Option<BTreeMap<String, Filter>>,
}

fn job(extra: Value) -> Value {
    let mut call = json!({"priority": "low", "mode": "write", "action": "stop"});
    for (key, value) in extra.as_object().unwrap() {
        call[key] = value.clone();
    }
    call
}

#[track_caller]
fn rejected(extra: Value) -> Rejection {
    let call = job(extra);
    let rejection = RunJob::from_arguments(call.to_string().as_str()).unwrap_err();
    // The same answer from the value as from its text, and with the one-pass path out of play.
    assert_eq!(RunJob::from_arguments(&call).unwrap_err().errors(), rejection.errors());
    let walked = RunJob::definition().validator().check(&call).unwrap_err();
    assert_eq!(walked.errors(), rejection.errors(), "{call}");
    // A validator of the schema as a `Value` lists properties in the map's order, which the
    // derive's (declared fields, else sorted) is where serde_json sorts its maps.
    if !keys_keep_insertion_order() {
        let validator = Validator::new(RunJob::schema()).unwrap();
        assert_eq!(validator.check(&call).unwrap_err().errors(), rejection.errors(), "{call}");
    }
    rejection
}

#[track_caller]
fn accepted(extra: Value) -> (RunJob, Vec<(String, CoercionKind)>) {
    let call = job(extra);
    let checked = RunJob::from_arguments_with_report(call.to_string().as_str()).unwrap();
    let validator = Validator::new(RunJob::schema()).unwrap();
    let walked = validator.check(&call).unwrap();
    assert_eq!(walked.report.coercions, checked.report.coercions, "{call}");
    let coercions = checked.report.coercions.iter().map(|c| (c.path.clone(), c.kind)).collect();
    (checked.value, coercions)
}

fn lines(rejection: &Rejection) -> String {
    rejection.to_string()
}

#[test]
fn the_schemas_are_what_schemars_writes() {
    json_snapshot_sorted!("run_job_schema", RunJob::schema());
}

#[test]
fn a_unit_enum_lists_every_option() {
    let rejection = rejected(json!({"priority": "urgent"}));
    assert_eq!(rejection.errors()[0].code(), ErrorCode::Enum);
    assert_eq!(rejection.errors()[0].options(), [json!("low"), json!("medium"), json!("high")]);
    insta::assert_snapshot!("unit_enum_unknown", lines(&rejection));
    // A value of another type: still the options.
    let rejection = rejected(json!({"priority": 1}));
    assert_eq!(rejection.errors()[0].code(), ErrorCode::Type);
    assert_eq!(rejection.errors()[0].message(), r#"expected one of "low", "medium", "high", got 1"#);
    // Case and surrounding white space are representation.
    let (value, coercions) = accepted(json!({"priority": " High "}));
    assert_eq!(value.priority, Priority::High);
    assert_eq!(coercions, [("/priority".to_owned(), CoercionKind::EnumCase)]);
}

#[test]
fn a_documented_unit_enum_is_an_enum_too() {
    let rejection = rejected(json!({"mode": "overwrite"}));
    assert_eq!(rejection.errors().len(), 1);
    assert_eq!(rejection.errors()[0].path(), "/mode");
    assert_eq!(rejection.errors()[0].code(), ErrorCode::Enum);
    assert_eq!(rejection.errors()[0].options(), [json!("write"), json!("append")]);
    insta::assert_snapshot!("documented_enum_unknown", lines(&rejection));
    let rejection = rejected(json!({"mode": "apend"}));
    assert_eq!(rejection.errors()[0].suggestion(), Some(&json!("append")));
    insta::assert_snapshot!("documented_enum_typo", lines(&rejection));
    let rejection = rejected(json!({"mode": 2}));
    assert_eq!(rejection.errors()[0].code(), ErrorCode::Type);
    assert_eq!(rejection.errors()[0].message(), r#"expected one of "write", "append", got 2"#);
    let (value, coercions) = accepted(json!({"mode": "APPEND"}));
    assert_eq!(value.mode, Mode::Append);
    assert_eq!(coercions, [("/mode".to_owned(), CoercionKind::EnumCase)]);
    let (value, _) = accepted(json!({"mode": "\tappend "}));
    assert_eq!(value.mode, Mode::Append);
}

#[test]
fn renamed_variants_are_named_as_renamed() {
    let (value, coercions) = accepted(json!({"sort": "Newest-First"}));
    assert_eq!(value.sort, Some(Sort::NewestFirst));
    assert_eq!(coercions, [("/sort".to_owned(), CoercionKind::EnumCase)]);
    let rejection = rejected(json!({"sort": "stars"}));
    assert_eq!(rejection.errors().len(), 1, "{rejection}");
    assert_eq!(rejection.errors()[0].path(), "/sort");
    assert_eq!(
        rejection.errors()[0].options(),
        [json!("oldest-first"), json!("by-stars"), json!("newest-first")]
    );
    insta::assert_snapshot!("renamed_unknown", lines(&rejection));
    // `Option<Enum>`: null is absent, anything else is checked as the enum.
    let (value, _) = accepted(json!({"sort": null}));
    assert_eq!(value.sort, None);
}

#[test]
fn an_internal_tag_is_read_first() {
    let (value, _) = accepted(json!({"filters": [{"kind": "author", "name": "ada"}, {"kind": "any"}]}));
    assert_eq!(value.filters, [Filter::Author { name: "ada".into() }, Filter::Any]);
    // An unknown tag: one error at the tag, every tag named; nothing from a branch the model
    // did not choose.
    let rejection = rejected(json!({"filters": [{"kind": "location", "near": "Paris"}]}));
    assert_eq!(rejection.errors().len(), 1, "{rejection}");
    assert_eq!(rejection.errors()[0].path(), "/filters/0/kind");
    assert_eq!(rejection.errors()[0].options(), [json!("date"), json!("author"), json!("any")]);
    insta::assert_snapshot!("internal_unknown_tag", lines(&rejection));
    // A missing tag.
    let rejection = rejected(json!({"filters": [{"name": "ada"}]}));
    assert_eq!(rejection.errors().len(), 1, "{rejection}");
    assert_eq!(rejection.errors()[0].path(), "/filters/0/kind");
    assert_eq!(rejection.errors()[0].code(), ErrorCode::Missing);
    insta::assert_snapshot!("internal_missing_tag", lines(&rejection));
    // A known tag: only that branch's errors.
    let rejection = rejected(json!({"filters": [{"kind": "date", "before": "2024"}]}));
    insta::assert_snapshot!("internal_branch_errors", lines(&rejection));
    // The tag in another case is representation.
    let (value, coercions) = accepted(json!({"filters": [{"kind": "Author", "name": "ada"}]}));
    assert_eq!(value.filters, [Filter::Author { name: "ada".into() }]);
    assert_eq!(coercions, [("/filters/0/kind".to_owned(), CoercionKind::EnumCase)]);
    // Not an object.
    let rejection = rejected(json!({"filters": ["author"]}));
    insta::assert_snapshot!("internal_not_object", lines(&rejection));
}

#[test]
fn an_adjacent_tag_is_read_first() {
    let (value, _) = accepted(json!({"edit": {"op": "delete", "args": 3}}));
    assert_eq!(value.edit, Some(Edit::Delete(3)));
    let (value, _) = accepted(json!({"edit": {"op": "clear"}}));
    assert_eq!(value.edit, Some(Edit::Clear));
    let rejection = rejected(json!({"edit": {"op": "replace", "args": {"line": 1}}}));
    assert_eq!(rejection.errors().len(), 1, "{rejection}");
    assert_eq!(rejection.errors()[0].path(), "/edit/op");
    insta::assert_snapshot!("adjacent_unknown_tag", lines(&rejection));
    let rejection = rejected(json!({"edit": {"op": "insert", "args": {"line": -1}}}));
    insta::assert_snapshot!("adjacent_branch_errors", lines(&rejection));
}

#[test]
fn an_external_tag_is_the_key_or_the_string() {
    let (value, _) = accepted(json!({"action": {"run_script": {"path": "a.sh"}}}));
    assert_eq!(value.action, Action::RunScript { path: "a.sh".into() });
    let (value, _) = accepted(json!({"action": {"sleep": 5}}));
    assert_eq!(value.action, Action::Sleep(5));
    let (value, coercions) = accepted(json!({"action": "STOP"}));
    assert_eq!(value.action, Action::Stop);
    assert_eq!(coercions, [("/action".to_owned(), CoercionKind::EnumCase)]);
    let (value, coercions) = accepted(json!({"action": {"Run_Script": {"path": "a.sh"}}}));
    assert_eq!(value.action, Action::RunScript { path: "a.sh".into() });
    assert_eq!(coercions, [("/action".to_owned(), CoercionKind::EnumCase)]);
    // An unknown key: one error at the union's path, every choice named.
    let rejection = rejected(json!({"action": {"run_scrip": {"path": "a.sh"}}}));
    assert_eq!(rejection.errors().len(), 1, "{rejection}");
    assert_eq!(rejection.errors()[0].path(), "/action");
    assert_eq!(rejection.errors()[0].suggestion(), Some(&json!("run_script")));
    assert_eq!(rejection.errors()[0].options(), [json!("stop"), json!("run_script"), json!("sleep")]);
    insta::assert_snapshot!("external_unknown_key", lines(&rejection));
    let rejection = rejected(json!({"action": "halt"}));
    assert_eq!(rejection.errors().len(), 1, "{rejection}");
    insta::assert_snapshot!("external_unknown_unit", lines(&rejection));
    let rejection = rejected(json!({"action": {"sleep": 1, "stop": null}}));
    insta::assert_snapshot!("external_two_keys", lines(&rejection));
    let rejection = rejected(json!({"action": {}}));
    insta::assert_snapshot!("external_no_key", lines(&rejection));
    // A unit variant sent as an object: the choice is right, its form is not.
    let rejection = rejected(json!({"action": {"stop": null}}));
    assert_eq!(rejection.errors().len(), 1, "{rejection}");
    assert_eq!(rejection.errors()[0].suggestion(), Some(&json!("stop")));
    insta::assert_snapshot!("external_unit_as_object", lines(&rejection));
    let rejection = rejected(json!({"action": 3}));
    insta::assert_snapshot!("external_not_a_choice", lines(&rejection));
    // A known key: that variant's errors.
    let rejection = rejected(json!({"action": {"sleep": "long"}}));
    assert_eq!(rejection.errors()[0].path(), "/action/sleep");
}

#[test]
fn an_untagged_union_names_each_shape() {
    let (value, _) = accepted(json!({"retry": 3}));
    assert_eq!(value.retry, Some(Retry::Times(3)));
    let (value, _) = accepted(json!({"retry": {"max": 3, "backoff_ms": 100}}));
    assert_eq!(value.retry, Some(Retry::Backoff { max: 3, backoff_ms: 100 }));
    let (value, coercions) = accepted(json!({"retry": {"max": "3", "backoff_ms": 100}}));
    assert_eq!(value.retry, Some(Retry::Backoff { max: 3, backoff_ms: 100 }));
    assert_eq!(coercions, [("/retry/max".to_owned(), CoercionKind::NumberFromString)]);
    let (value, _) = accepted(json!({"retry": "twice"}));
    assert_eq!(value.retry, Some(Retry::Named("twice".into())));
    // Matches no shape: one error naming them all, then the closest one's errors.
    let rejection = rejected(json!({"retry": {"max": 3}}));
    assert_eq!(rejection.errors()[0].path(), "/retry");
    assert_eq!(rejection.errors()[0].code(), ErrorCode::NoMatch);
    insta::assert_snapshot!("untagged_closest_branch", lines(&rejection));
    let rejection = rejected(json!({"retry": 300}));
    insta::assert_snapshot!("untagged_out_of_range", lines(&rejection));
    let rejection = rejected(json!({"retry": true}));
    assert_eq!(rejection.errors().len(), 1, "{rejection}");
    insta::assert_snapshot!("untagged_no_shape", lines(&rejection));
}

#[test]
fn enums_in_lists_and_maps() {
    let (value, _) = accepted(json!({"modes": ["write", "Append"]}));
    assert_eq!(value.modes, Some(vec![Mode::Write, Mode::Append]));
    let rejection = rejected(json!({"modes": ["write", "apend", "read"]}));
    let paths: Vec<&str> = rejection.errors().iter().map(|e| e.path()).collect();
    assert_eq!(paths, ["/modes/1", "/modes/2"]);
    insta::assert_snapshot!("enum_list", lines(&rejection));
    let rejection = rejected(json!({"by_name": {"x": {"kind": "date"}, "y": {"kind": "when"}}}));
    let paths: Vec<&str> = rejection.errors().iter().map(|e| e.path()).collect();
    assert_eq!(paths, ["/by_name/x/after", "/by_name/y/kind"]);
}

/// A tree of tagged nodes: a recursive tagged union.
#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Expr {
    Number { value: i64 },
    Negate { of: Box<Expr> },
    Add { left: Box<Expr>, right: Box<Expr> },
    Call { name: String, args: Vec<Expr> },
}

/// Evaluate an expression.
#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
struct Evaluate {
    expr: Expr,
}

fn negations(depth: usize, leaf: Value) -> Value {
    let mut value = leaf;
    for _ in 0..depth {
        value = json!({"type": "negate", "of": value});
    }
    value
}

/// Each level has four branches, and each branch of `add` has two children of the same
/// schema: trying every branch at every level would take 4^100 steps. Reading the tag first
/// takes one per level.
#[test]
fn a_recursive_tagged_union_checks_in_linear_time() {
    let deep = negations(100, json!({"type": "number", "value": 7}));
    let evaluated = Evaluate::from_arguments(&json!({"expr": deep})).unwrap();
    let mut expr = &evaluated.expr;
    let mut depth = 0;
    while let Expr::Negate { of } = expr {
        expr = of;
        depth += 1;
    }
    assert_eq!((depth, expr), (100, &Expr::Number { value: 7 }));
    // A bad tag at the bottom: one error there, listing the tags.
    let bad = negations(100, json!({"type": "numbr", "value": 7}));
    let rejection = Evaluate::from_arguments(&json!({"expr": bad})).unwrap_err();
    assert_eq!(rejection.errors().len(), 1, "{rejection}");
    assert_eq!(rejection.errors()[0].path(), format!("/expr{}/type", "/of".repeat(100)));
    assert_eq!(rejection.errors()[0].suggestion(), Some(&json!("number")));
    // A value that needs coercion at the bottom (`"7"`): still one branch per level.
    let coerced = negations(100, json!({"type": "number", "value": "7"}));
    let checked = Evaluate::from_arguments_with_report(&json!({"expr": coerced})).unwrap();
    assert_eq!(checked.report.coercions.len(), 1);
    // Wide as well as deep.
    let wide = json!({"type": "call", "name": "f", "args": (0..2000).map(|i| negations(50, json!({"type": "number", "value": i}))).collect::<Vec<_>>()});
    assert!(Evaluate::from_arguments(&json!({"expr": wide})).is_ok());
}

/// An untagged union where two object branches share a recursive property: each level's
/// exact tries would walk the subtree once per branch, 2^depth in all, without remembering
/// each (branch, value) pair.
#[test]
fn a_recursive_untagged_union_checks_in_linear_time() {
    let schema = json!({
        "type": "object",
        "properties": {"node": {"$ref": "#/$defs/node"}},
        "required": ["node"],
        "$defs": {"node": {"oneOf": [
            {"type": "object", "properties": {"next": {"$ref": "#/$defs/node"}, "a": {"type": "integer"}}, "required": ["a"]},
            {"type": "object", "properties": {"next": {"$ref": "#/$defs/node"}, "b": {"type": "integer"}}, "required": ["b"]},
            {"type": "integer"}
        ]}}
    });
    let chain = |depth: usize, leaf: Value| {
        let mut value = leaf;
        for level in 0..depth {
            value = if level % 2 == 0 {
                json!({"next": value, "a": level})
            } else {
                json!({"next": value, "b": level})
            };
        }
        json!({"node": value})
    };
    for policy in [Policy::Strict, Policy::Default, Policy::Lenient] {
        let validator = Validator::builder(&schema).policy(policy).build().unwrap();
        assert!(validator.check(&chain(100, json!(1))).is_ok(), "{policy}");
        assert!(validator.is_valid(&chain(100, json!(1))));
        let rejection = validator.check(&chain(100, json!("x"))).unwrap_err();
        assert!(rejection.errors().iter().any(|e| e.path().ends_with("/next")), "{rejection}");
        // A leaf that needs coercion: the coercing tries do not multiply either.
        let coerced = validator.check(&chain(100, json!("1")));
        assert_eq!(coerced.is_ok(), policy != Policy::Strict, "{policy}");
    }
    // Both object branches fit (no tell-tale key): ambiguous under `oneOf`, at the top.
    let validator = Validator::new(&schema).unwrap();
    let both = chain(100, json!(1));
    let mut both_fit = both.clone();
    both_fit["node"]["a"] = json!(0);
    let rejection = validator.check(&both_fit).unwrap_err();
    assert_eq!(rejection.errors()[0].code(), ErrorCode::Ambiguous, "{rejection}");
}

/// Check the service is up.
#[derive(Debug, Deserialize, JsonSchema, ToolInput)]
struct Ping {}

#[test]
fn a_struct_without_fields_takes_no_arguments() {
    assert_eq!(*Ping::schema(), json!({"type": "object", "additionalProperties": false}));
    assert!(Ping::from_arguments("{}").is_ok());
    assert!(Ping::from_arguments(None::<&str>).is_ok());
    let rejection = Ping::from_arguments(r#"{"verbose": true}"#).unwrap_err();
    assert_eq!(rejection.errors()[0].path(), "/verbose");
    assert_eq!(rejection.errors()[0].code(), ErrorCode::UnknownField);
    insta::assert_snapshot!("fieldless_unknown_field", lines(&rejection));
}

/// Strict mode reads the tag exactly: no case coercion, and the same answers as a plain
/// JSON Schema validator.
#[test]
fn strict_reads_tags_exactly() {
    let validator = Validator::builder(RunJob::schema()).policy(Policy::Strict).build().unwrap();
    assert!(validator.check(&job(json!({"filters": [{"kind": "author", "name": "a"}]}))).is_ok());
    let rejection = validator.check(&job(json!({"filters": [{"kind": "Author", "name": "a"}]}))).unwrap_err();
    assert_eq!(rejection.errors()[0].path(), "/filters/0/kind");
    assert!(validator.check(&job(json!({"mode": " write"}))).is_err());
}

/// Internally tagged newtype variants (`#[serde(tag = "kind")] enum E { Date(ByDate) }`):
/// schemars writes the tag beside a `$ref` to the struct; the variant takes the tag and the
/// struct's fields, and nothing else.
#[test]
fn an_internally_tagged_newtype_variant_takes_its_structs_fields() {
    #[derive(Debug, PartialEq, Deserialize, JsonSchema)]
    struct ByDate {
        after: String,
    }
    #[derive(Debug, PartialEq, Deserialize, JsonSchema)]
    struct ByAuthor {
        name: String,
        #[serde(default)]
        exact: bool,
    }
    #[derive(Debug, PartialEq, Deserialize, JsonSchema)]
    #[serde(tag = "kind", rename_all = "snake_case")]
    enum Filter {
        Date(ByDate),
        Author(ByAuthor),
        Any,
    }
    /// Search the archive.
    #[derive(Debug, Deserialize, JsonSchema, ToolInput)]
    struct Search {
        filters: Vec<Filter>,
    }

    let search = Search::from_arguments(
        r#"{"filters": [{"kind": "date", "after": "2020"}, {"kind": "Author", "name": "ada"}, {"kind": "any"}]}"#,
    )
    .unwrap();
    assert_eq!(
        search.filters,
        [
            Filter::Date(ByDate { after: "2020".into() }),
            Filter::Author(ByAuthor { name: "ada".into(), exact: false }),
            Filter::Any
        ]
    );
    // The struct's own rules still hold: a missing field, an unknown one.
    let rejection =
        Search::from_arguments(r#"{"filters": [{"kind": "date", "before": "2020"}]}"#).unwrap_err();
    let found: Vec<(&str, ErrorCode)> = rejection.errors().iter().map(|e| (e.path(), e.code())).collect();
    assert_eq!(
        found,
        [("/filters/0/before", ErrorCode::UnknownField), ("/filters/0/after", ErrorCode::Missing)]
    );
    // An unknown tag names every tag, at the tag.
    let rejection =
        Search::from_arguments(r#"{"filters": [{"kind": "location", "name": "x"}]}"#).unwrap_err();
    assert_eq!(rejection.errors().len(), 1, "{rejection}");
    assert_eq!(
        (rejection.errors()[0].path(), rejection.errors()[0].code()),
        ("/filters/0/kind", ErrorCode::Enum)
    );
    assert_eq!(rejection.errors()[0].options(), [json!("date"), json!("author"), json!("any")]);
}

/// An integral float where a union allows an integer and then a number is taken as sent:
/// nothing sent failed, so nothing is rewritten, and serde's untagged enum reads the variant
/// it reads from the same JSON. Where only an integer fits, `3.0` is still read as `3`.
#[test]
fn an_integral_float_a_number_branch_takes_is_not_rewritten() {
    #[derive(Debug, PartialEq, Deserialize, JsonSchema)]
    #[serde(untagged)]
    enum Scalar {
        Flag(bool),
        Whole(i64),
        Real(f64),
        Text(String),
    }
    #[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
    struct Set {
        value: Scalar,
    }
    for (text, want) in [
        (r#"{"value": 1.0}"#, Scalar::Real(1.0)),
        (r#"{"value": 256.0}"#, Scalar::Real(256.0)),
        (r#"{"value": 1}"#, Scalar::Whole(1)),
        (r#"{"value": 2.5}"#, Scalar::Real(2.5)),
        (r#"{"value": "1.0"}"#, Scalar::Text("1.0".to_owned())),
    ] {
        let checked = Set::from_arguments_with_report(text).unwrap();
        assert_eq!(checked.value.value, want, "{text}");
        assert!(checked.report.coercions.is_empty(), "{text}: {:?}", checked.report.coercions);
        assert_eq!(serde_json::from_str::<Set>(text).unwrap(), checked.value, "{text}");
    }
    // The same without a type: taken as sent where a number fits, rewritten where only an
    // integer does.
    let schema = json!({"type": "object", "properties": {
        "both": {"anyOf": [{"type": "integer"}, {"type": "number"}]},
        "whole": {"anyOf": [{"type": "integer"}, {"type": "string"}]}
    }});
    let checked = Validator::new(&schema).unwrap().check(r#"{"both": 2.0, "whole": 3.0}"#).unwrap();
    assert_eq!(checked.value, json!({"both": 2.0, "whole": 3}));
    let kinds: Vec<(&str, CoercionKind)> =
        checked.report.coercions.iter().map(|c| (c.path.as_str(), c.kind)).collect();
    assert_eq!(kinds, [("/whole", CoercionKind::IntegerFromFloat)]);
}

/// Leniently, a number or boolean may be written as a string, or one value as a list of one.
/// In a union that declares the value's own type, the branch of that type refused the value
/// for what it is: read as a string or a list it would become another variant, another
/// choice. It is refused, named as that branch refuses it; written in a type no branch
/// declares, it is still read as the branch that takes it.
#[test]
fn leniently_a_value_refused_by_its_own_type_never_becomes_another_variant() {
    let refused = [
        (json!({"anyOf": [{"type": "integer", "maximum": 10}, {"type": "string"}]}), json!(11)),
        (json!({"oneOf": [{"type": "integer", "maximum": 10}, {"type": "string"}]}), json!(11)),
        (json!({"anyOf": [{"type": "number", "minimum": 0}, {"type": "string"}]}), json!(-5)),
        (
            json!({"anyOf": [{"type": "integer", "maximum": 10}, {"type": "array", "items": {"type": "integer"}}]}),
            json!(11),
        ),
        (json!({"anyOf": [{"const": true}, {"type": "string"}]}), json!(false)),
    ];
    for (schema, value) in refused {
        let v = Validator::builder(&json!({"type": "object", "properties": {"x": schema}}))
            .policy(Policy::Lenient)
            .build()
            .unwrap();
        let rejection = v.check(&json!({"x": value})).unwrap_err();
        assert!(rejection.errors().iter().all(|error| error.path() == "/x"), "{schema}: {rejection}");
    }
    // An untagged enum's number out of its variant's range is not read as the `String` variant.
    #[derive(Debug, PartialEq, Deserialize, JsonSchema)]
    #[serde(untagged)]
    enum Target {
        Id(u32),
        Name(String),
    }
    /// Aim.
    #[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolInput)]
    struct Aim {
        target: Target,
    }
    let lenient = tool_input::CheckOptions::new().with_policy(Policy::Lenient);
    let rejection = Aim::from_arguments_with(r#"{"target": 5000000000}"#, &lenient).unwrap_err();
    assert!(rejection.errors().iter().any(|error| error.code() == ErrorCode::Range), "{rejection}");
    let aim = Aim::from_arguments_with(r#"{"target": 5}"#, &lenient).unwrap().value;
    assert_eq!(aim, Aim { target: Target::Id(5) });
    // A type no branch declares is still written as the branch that takes it.
    let v = Validator::builder(
        &json!({"type": "object", "properties": {"x": {"anyOf": [{"type": "boolean"}, {"type": "string"}]}}}),
    )
    .policy(Policy::Lenient)
    .build()
    .unwrap();
    let checked = v.check(r#"{"x": 5}"#).unwrap();
    assert_eq!(checked.value, json!({"x": "5"}));
    assert_eq!(checked.report.coercions[0].kind, CoercionKind::StringFromScalar);
}
