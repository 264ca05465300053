//! `$vocabulary` (2019-09 and 2020-12): a schema whose `$schema` names a metaschema the engine
//! holds (bundled, or a document the caller gave) is read with the vocabularies that
//! metaschema lists. Two change what is checked: without the validation vocabulary, its
//! keywords (`type`, `enum`, `minimum`, `required`...) are annotations; with the
//! format-assertion vocabulary, `format` is asserted. A metaschema the engine does not hold,
//! or one that lists no `$vocabulary`, leaves every keyword of the draft as it is.

use serde_json::{Map, Value};

use super::metaschemas;
use super::refs::{resolve, split_fragment, Draft, Resources, DOCUMENT_BASE, LIST, MAP, ONE};

/// The keywords of the validation vocabulary (the same in 2019-09 and 2020-12).
const VALIDATION: &[&str] = &[
    "type",
    "enum",
    "const",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "maxItems",
    "minItems",
    "uniqueItems",
    "maxContains",
    "minContains",
    "maxProperties",
    "minProperties",
    "required",
    "dependentRequired",
];

/// What the metaschema a schema names says about the vocabularies it is read with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Dialect {
    /// The draft the metaschema is written in (the schema's own, when it names a draft).
    pub draft: Draft,
    /// Are the validation vocabulary's keywords assertions?
    pub validation: bool,
    /// Does the metaschema ask for `format` to be asserted?
    pub format_assertion: bool,
}

impl Dialect {
    /// The dialect `schema`'s `$schema` names, as far as the engine holds its metaschema.
    pub fn of(schema: &Value, resources: Option<&Resources>) -> Dialect {
        let named = Dialect { draft: Draft::of(schema), validation: true, format_assertion: false };
        let Some(uri) = schema.get("$schema").and_then(Value::as_str) else { return named };
        let resolved = resolve(DOCUMENT_BASE, uri);
        let (uri, _) = split_fragment(&resolved);
        let (metaschema, draft) = match metaschemas::document(uri) {
            Some(bundled) => (bundled, named.draft),
            // A metaschema of the caller's is written in a draft of its own.
            None => match resources.and_then(|resources| resources.get(uri)) {
                Some((given, _)) if !std::ptr::eq(given, schema) => (given, Draft::of(given)),
                _ => return named,
            },
        };
        let Some(listed) = metaschema.get("$vocabulary").and_then(Value::as_object) else {
            return Dialect { draft, ..named };
        };
        let lists = |vocabulary: &str| listed.keys().any(|uri| uri.ends_with(vocabulary));
        Dialect {
            draft,
            validation: lists("/vocab/validation"),
            format_assertion: lists("/vocab/format-assertion"),
        }
    }
}

/// `schema` with the validation vocabulary's keywords taken out of every subschema (the
/// values of `enum`, `const` and `default` are values, not schemas, and stay as they are).
pub(crate) fn without_validation(schema: &Value) -> Value {
    without_validation_at(schema, 0)
}

fn without_validation_at(schema: &Value, depth: usize) -> Value {
    let Value::Object(object) = schema else { return schema.clone() };
    // As deep as the compiler goes; past it the compiler refuses the schema anyway.
    if depth > super::MAX_SCHEMA_DEPTH {
        return schema.clone();
    }
    let mut kept = Map::new();
    for (keyword, value) in object {
        if VALIDATION.contains(&keyword.as_str()) {
            continue;
        }
        // (`items` is one subschema, or in the older drafts a list of them.)
        let value = if ONE.contains(&keyword.as_str()) || LIST.contains(&keyword.as_str()) {
            match value {
                Value::Array(items) => {
                    Value::Array(items.iter().map(|item| without_validation_at(item, depth + 1)).collect())
                }
                other => without_validation_at(other, depth + 1),
            }
        } else if MAP.contains(&keyword.as_str()) {
            match value {
                Value::Object(members) => Value::Object(
                    members
                        .iter()
                        .map(|(name, item)| (name.clone(), without_validation_at(item, depth + 1)))
                        .collect(),
                ),
                other => other.clone(),
            }
        } else {
            value.clone()
        };
        kept.insert(keyword.clone(), value);
    }
    Value::Object(kept)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_metaschema_given_names_its_vocabularies() {
        let mut resources = Resources::default();
        resources.add(
            "https://example.com/meta",
            json!({
                "$schema": "https://json-schema.org/draft/2019-09/schema",
                "$vocabulary": {
                    "https://json-schema.org/draft/2019-09/vocab/core": true,
                    "https://json-schema.org/draft/2020-12/vocab/format-assertion": false
                }
            }),
            None,
        );
        let schema = json!({"$schema": "https://example.com/meta", "minimum": 3});
        let dialect = Dialect::of(&schema, Some(&resources));
        assert_eq!(dialect, Dialect { draft: Draft::Draft201909, validation: false, format_assertion: true });
        // The drafts' own metaschemas list validation, and only format as an annotation.
        let plain = json!({"$schema": "https://json-schema.org/draft/2020-12/schema"});
        let dialect = Dialect::of(&plain, None);
        assert_eq!(dialect, Dialect { draft: Draft::Draft202012, validation: true, format_assertion: false });
        // A metaschema the engine does not hold changes nothing.
        let unknown = json!({"$schema": "https://example.com/other", "minimum": 3});
        assert!(Dialect::of(&unknown, Some(&resources)).validation);
    }

    #[test]
    fn validation_keywords_go_from_every_subschema_and_values_stay() {
        let schema = json!({
            "type": "object",
            "properties": {"minimum": {"minimum": 1, "title": "a property named minimum"}},
            "required": ["minimum"],
            "allOf": [{"maxLength": 2}, {"not": {"const": 1}}],
            "enum": [{"type": "kept: a value"}],
            "default": {"required": true},
            "$defs": {"a": {"items": [{"pattern": "x"}], "format": "uuid"}}
        });
        assert_eq!(
            without_validation(&schema),
            json!({
                "properties": {"minimum": {"title": "a property named minimum"}},
                "allOf": [{}, {"not": {}}],
                "default": {"required": true},
                "$defs": {"a": {"items": [{}], "format": "uuid"}}
            })
        );
    }
}
