//! The drafts' own metaschemas, bundled (tool-input/metaschemas, with their provenance): a
//! `$ref` to one of their URIs resolves to the document here. Each is parsed on first need,
//! once per process, so a schema that names none pays nothing. No other URI is ever fetched.

use std::sync::OnceLock;

use serde_json::Value;

/// Each bundled document: the URI it answers for (its `$id`, without a fragment) and its text.
const DOCUMENTS: &[(&str, &str)] = &[
    (
        "https://json-schema.org/draft/2020-12/schema",
        include_str!("../../metaschemas/draft2020-12/schema.json"),
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/core",
        include_str!("../../metaschemas/draft2020-12/meta/core.json"),
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/applicator",
        include_str!("../../metaschemas/draft2020-12/meta/applicator.json"),
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/unevaluated",
        include_str!("../../metaschemas/draft2020-12/meta/unevaluated.json"),
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/validation",
        include_str!("../../metaschemas/draft2020-12/meta/validation.json"),
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/meta-data",
        include_str!("../../metaschemas/draft2020-12/meta/meta-data.json"),
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/format-annotation",
        include_str!("../../metaschemas/draft2020-12/meta/format-annotation.json"),
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/format-assertion",
        include_str!("../../metaschemas/draft2020-12/meta/format-assertion.json"),
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/content",
        include_str!("../../metaschemas/draft2020-12/meta/content.json"),
    ),
    (
        "https://json-schema.org/draft/2019-09/schema",
        include_str!("../../metaschemas/draft2019-09/schema.json"),
    ),
    (
        "https://json-schema.org/draft/2019-09/meta/core",
        include_str!("../../metaschemas/draft2019-09/meta/core.json"),
    ),
    (
        "https://json-schema.org/draft/2019-09/meta/applicator",
        include_str!("../../metaschemas/draft2019-09/meta/applicator.json"),
    ),
    (
        "https://json-schema.org/draft/2019-09/meta/validation",
        include_str!("../../metaschemas/draft2019-09/meta/validation.json"),
    ),
    (
        "https://json-schema.org/draft/2019-09/meta/meta-data",
        include_str!("../../metaschemas/draft2019-09/meta/meta-data.json"),
    ),
    (
        "https://json-schema.org/draft/2019-09/meta/format",
        include_str!("../../metaschemas/draft2019-09/meta/format.json"),
    ),
    (
        "https://json-schema.org/draft/2019-09/meta/content",
        include_str!("../../metaschemas/draft2019-09/meta/content.json"),
    ),
    ("http://json-schema.org/draft-07/schema", include_str!("../../metaschemas/draft7.json")),
    ("http://json-schema.org/draft-06/schema", include_str!("../../metaschemas/draft6.json")),
    ("http://json-schema.org/draft-04/schema", include_str!("../../metaschemas/draft4.json")),
];

/// The bundled document `uri` (without its fragment) names, parsed; `None` for every other URI.
pub(crate) fn document(uri: &str) -> Option<&'static Value> {
    static PARSED: [OnceLock<Value>; DOCUMENTS.len()] = [const { OnceLock::new() }; DOCUMENTS.len()];
    let index = DOCUMENTS.iter().position(|(known, _)| *known == uri)?;
    let (_, text) = DOCUMENTS[index];
    // The texts are the published documents, checked by this module's test: a parse failure
    // would be a packaging fault, answered as "not bundled" rather than a panic.
    let parsed = PARSED[index].get_or_init(|| serde_json::from_str(text).unwrap_or(Value::Null));
    (!parsed.is_null()).then_some(parsed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_document_parses_and_names_itself() {
        for (uri, _) in DOCUMENTS {
            let document = document(uri).unwrap_or_else(|| panic!("{uri} parses"));
            let id = document.get("$id").or_else(|| document.get("id")).and_then(Value::as_str);
            assert_eq!(id.map(|id| id.trim_end_matches('#')), Some(*uri));
        }
        assert!(document("https://example.com/schema").is_none());
    }
}
