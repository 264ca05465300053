//! `Validator::check_typed_value` (what `ToolInput::from_arguments` reads through) against
//! `check_typed`: the same value or rejection, with no record written where the one pass
//! decided.

use serde_json::{json, Value};

use super::*;

/// Read for the value alone (`ToolInput::from_arguments`), the one pass writes no record
/// yet counts its coercions and defaults filled against the limit on records as when it
/// writes them: past the limit the walk decides, and the value is the same either way.
#[test]
fn the_value_alone_is_read_as_with_its_records() {
    let schema = json!({
        "type": "object",
        "properties": {
            "a": {"type": "integer"},
            "b": {"type": "boolean"},
            "c": {"type": "integer", "default": 3},
            "d": {"type": "array", "items": {"type": "integer"}, "uniqueItems": true}
        }
    });
    let validator = Validator::new(&schema).expect("the schema compiles");
    let texts = [
        r#"{"a": 1, "b": true, "c": 2}"#,
        r#"{"a": "1", "b": true}"#,
        r#"{"a": "1", "b": "true"}"#,
        r#"{"a": "1", "b": "true", "c": "4"}"#,
        r#"{"a": "x", "b": "true"}"#,
        r#"{"d": ["1", 2]}"#,
        r#"{"d": [1, "1"]}"#,
        "{'a': '1', 'b': 'false'}",
    ];
    for max_coercions in [0, 1, 2, 3, 100] {
        let limits = Limits { max_coercions, ..Limits::default() };
        let options = CheckOptions { limits: Some(limits), ..CheckOptions::default() };
        for text in texts {
            let raw = RawArguments::Text(text);
            let typed = validator.check_typed::<Value>(raw, &options, Default::default());
            let value_only = validator.check_typed_value::<Value>(raw, &options, Default::default());
            assert_eq!(
                format!("{:?}", value_only.as_ref().map(|checked| &checked.value)),
                format!("{:?}", typed.as_ref().map(|checked| &checked.value)),
                "{text}, at most {max_coercions} records"
            );
            // Decided by the one pass, the value alone has no record; the walk still writes its own.
            if let (Ok(typed), Ok(value_only)) = (&typed, &value_only) {
                assert!(value_only.report.coercions.len() <= typed.report.coercions.len(), "{text}");
                assert_eq!(value_only.report.repairs, typed.report.repairs, "{text}");
            }
        }
    }
    let options = CheckOptions::default();
    let value_only =
        validator.check_typed_value::<Value>(RawArguments::Text(texts[3]), &options, Fields::default());
    assert!(value_only.expect("accepted").report.coercions.is_empty());
    let typed = validator.check_typed::<Value>(RawArguments::Text(texts[3]), &options, Fields::default());
    assert_eq!(typed.expect("accepted").report.coercions.len(), 3);
}
