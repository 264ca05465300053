//! Where a `$ref` leads, inside the schema document and the drafts' metaschemas it references
//! (bundled: `plan::metaschemas`): the drafts' `$schema`, the base URI of every subschema
//! (`$id`, draft 4's `id`), its anchors (`$anchor`, `$dynamicAnchor`, 2019-09's
//! `$recursiveAnchor`, and the `#name` `$id`s of drafts 6 and 7), and RFC 3986 reference
//! resolution. A reference nothing here holds is never fetched: the compiler refuses it,
//! naming it.

use std::collections::HashMap;

use serde_json::Value;

use crate::key_order::KeyOrder;

/// The JSON Schema drafts, by the meaning they give keywords.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Draft {
    Draft4,
    Draft6,
    Draft7,
    Draft201909,
    Draft202012,
}

impl Draft {
    /// The draft a `$schema` names; 2020-12 when it names none the engine knows.
    pub fn of(schema: &Value) -> Draft {
        let Some(dialect) = schema.get("$schema").and_then(Value::as_str) else {
            return Draft::Draft202012;
        };
        let dialect = dialect.trim_end_matches('#');
        let dialect =
            dialect.strip_prefix("https://").or_else(|| dialect.strip_prefix("http://")).unwrap_or(dialect);
        match dialect {
            "json-schema.org/draft-04/schema" => Draft::Draft4,
            "json-schema.org/draft-06/schema" => Draft::Draft6,
            "json-schema.org/draft-07/schema" => Draft::Draft7,
            "json-schema.org/draft/2019-09/schema" => Draft::Draft201909,
            _ => Draft::Draft202012,
        }
    }

    /// Are 2019-09's `$recursiveRef` and `$recursiveAnchor` read in `document` (of this
    /// draft)? In 2019-09, and in a document that names no `$schema`: the keywords mean
    /// something in no other draft, so a schema that writes them without naming its draft was
    /// written for 2019-09 (as an `items` list is read in the older drafts' meaning).
    pub fn reads_recursive_ref(self, document: &Value) -> bool {
        self == Draft::Draft201909 || document.get("$schema").is_none()
    }

    /// Does `$ref` replace every keyword beside it (drafts 4 to 7)?
    pub fn ref_overrides(self) -> bool {
        self <= Draft::Draft7
    }

    /// Is `format: hostname` RFC 1123's alone (drafts 4 and 6), rather than with IDNA2008's
    /// rules (draft 7 on)?
    pub fn hostnames_are_rfc_1123(self) -> bool {
        matches!(self, Draft::Draft4 | Draft::Draft6)
    }

    /// Is `keyword` one this draft has? A keyword a later draft added is an unknown keyword,
    /// an annotation, in an earlier one: `const`, `contains` and `propertyNames` came in
    /// draft 6, `if`/`then`/`else` in 7, `dependentRequired`, `dependentSchemas`,
    /// `minContains`, `maxContains` and `unevaluated*` in 2019-09 (drafts 7, 6 and 4 write
    /// the dependencies as `dependencies`), `prefixItems` in 2020-12 (earlier drafts write the
    /// tuple as an `items` list). Every other keyword the engine reads, every draft has or
    /// reads in an older draft's meaning.
    pub fn knows(self, keyword: &str) -> bool {
        let since = match keyword {
            "const" | "contains" | "propertyNames" => Draft::Draft6,
            "if" | "then" | "else" => Draft::Draft7,
            "dependentRequired"
            | "dependentSchemas"
            | "minContains"
            | "maxContains"
            | "unevaluatedProperties"
            | "unevaluatedItems" => Draft::Draft201909,
            "prefixItems" => Draft::Draft202012,
            _ => return true,
        };
        self >= since
    }

    /// Is an `integer` a number written without a fraction or exponent (draft 4), rather than
    /// any number with no fractional part (`1.0`, from draft 6 on)?
    pub fn integers_are_written_so(self) -> bool {
        self == Draft::Draft4
    }

    /// Are `contentEncoding` and `contentMediaType` asserted? Draft 7 introduced them and
    /// lets a validator assert them; from 2019-09 on they are annotations only.
    pub fn asserts_content(self) -> bool {
        self == Draft::Draft7
    }

    fn id_keyword(self) -> &'static str {
        if self == Draft::Draft4 {
            "id"
        } else {
            "$id"
        }
    }
}

/// The base of a document without `$id`: references between its parts resolve against it.
pub(super) const DOCUMENT_BASE: &str = "tool-input:///schema.json";

/// Schema documents the caller gives, each at the URI a `$ref` reaches it by: with the
/// bundled metaschemas, the only documents beyond the schema itself a reference may lead to.
/// Nothing is fetched. A document given as text keeps the order it wrote its keys in.
#[derive(Debug, Clone, Default)]
pub(crate) struct Resources {
    by_uri: HashMap<String, (Value, Option<KeyOrder>)>,
}

impl Resources {
    /// `document`, reached at `uri` (its fragment dropped; a relative URI is taken relative
    /// to the base of a schema without `$id`), with the key order of its text when it was
    /// given as text. A second document at one URI replaces the first.
    pub fn add(&mut self, uri: &str, document: Value, order: Option<KeyOrder>) {
        let resolved = resolve(DOCUMENT_BASE, uri);
        let (uri, _) = split_fragment(&resolved);
        self.by_uri.insert(uri.to_owned(), (document, order));
    }

    /// The document at `uri` (absolute, no fragment), with its text's key order if known.
    pub fn get(&self, uri: &str) -> Option<(&Value, Option<&KeyOrder>)> {
        self.by_uri.get(uri).map(|(document, order)| (document, order.as_ref()))
    }
}

/// Keywords whose value is one subschema.
pub(super) const ONE: &[&str] = &[
    "additionalProperties",
    "additionalItems",
    "items",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "unevaluatedProperties",
    "unevaluatedItems",
    "contentSchema",
];
/// Keywords whose value is a list of subschemas.
pub(super) const LIST: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems", "items"];
/// Keywords whose value maps names to subschemas.
pub(super) const MAP: &[&str] =
    &["properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"];

/// Where a subschema sits: which document (0, the schema itself; then each bundled metaschema
/// in the order it was first referenced) and the JSON Pointer into it.
pub(crate) type Location = (usize, String);

/// The base URI of every subschema and where each resource and anchor sits, across the schema
/// and the bundled metaschemas it references.
#[derive(Debug, Default)]
pub(crate) struct Index {
    bases: HashMap<Location, String>,
    resources: HashMap<String, Location>,
    anchors: HashMap<String, Location>,
    /// 2020-12's `$dynamicAnchor`s: name, the resource (base URI) declaring it, where.
    pub dynamic_anchors: Vec<(String, String, Location)>,
    /// 2019-09's resources whose root says `"$recursiveAnchor": true`: base URI, where.
    pub recursive_anchors: Vec<(String, Location)>,
    /// The documents where `$recursiveRef` is read ([`Draft::reads_recursive_ref`]).
    recursive_docs: Vec<usize>,
}

impl Index {
    pub fn of(document: &Value, draft: Draft) -> Index {
        let mut index = Index::default();
        index.add(0, document, DOCUMENT_BASE, draft);
        index
    }

    /// Index one more document, `doc`, retrieved as `base`.
    pub fn add(&mut self, doc: usize, document: &Value, base: &str, draft: Draft) {
        self.resources.insert(base.to_owned(), (doc, String::new()));
        if draft.reads_recursive_ref(document) {
            self.recursive_docs.push(doc);
        }
        self.visit(doc, document, "", base, draft, 0);
    }

    /// Is `$recursiveRef` read in document `doc` ([`Draft::reads_recursive_ref`])?
    pub fn reads_recursive_ref(&self, doc: usize) -> bool {
        self.recursive_docs.contains(&doc)
    }

    fn visit(&mut self, doc: usize, schema: &Value, pointer: &str, base: &str, draft: Draft, depth: usize) {
        let Value::Object(object) = schema else {
            self.bases.insert((doc, pointer.to_owned()), base.to_owned());
            return;
        };
        if depth > 256 {
            return;
        }
        let overridden = draft.ref_overrides() && object.contains_key("$ref");
        let mut base = base.to_owned();
        let mut root = pointer.is_empty();
        if let Some(id) = object.get(draft.id_keyword()).and_then(Value::as_str).filter(|_| !overridden) {
            let resolved = resolve(&base, id);
            let (uri, fragment) = split_fragment(&resolved);
            if !(uri.is_empty() || draft <= Draft::Draft7 && id.starts_with('#')) {
                base = uri.to_owned();
                root = true;
                self.resources.entry(base.clone()).or_insert_with(|| (doc, pointer.to_owned()));
            }
            if draft <= Draft::Draft7 && !fragment.is_empty() && !fragment.starts_with('/') {
                self.anchors.insert(format!("{}#{fragment}", uri_or(uri, &base)), (doc, pointer.to_owned()));
            }
        }
        for keyword in ["$anchor", "$dynamicAnchor"] {
            if let Some(anchor) = object.get(keyword).and_then(Value::as_str) {
                self.anchors.entry(format!("{base}#{anchor}")).or_insert_with(|| (doc, pointer.to_owned()));
                if keyword == "$dynamicAnchor" && draft == Draft::Draft202012 {
                    self.dynamic_anchors.push((anchor.to_owned(), base.clone(), (doc, pointer.to_owned())));
                }
            }
        }
        if root && self.reads_recursive_ref(doc) && object.get("$recursiveAnchor") == Some(&Value::Bool(true))
        {
            self.recursive_anchors.push((base.clone(), (doc, pointer.to_owned())));
        }
        self.bases.insert((doc, pointer.to_owned()), base.clone());
        for (keyword, value) in object {
            let at = format!("{pointer}/{}", crate::pointer::escape_token(keyword));
            if ONE.contains(&keyword.as_str()) && (value.is_object() || value.is_boolean()) {
                self.visit(doc, value, &at, &base, draft, depth + 1);
            } else if LIST.contains(&keyword.as_str()) {
                for (index, item) in value.as_array().into_iter().flatten().enumerate() {
                    self.visit(doc, item, &format!("{at}/{index}"), &base, draft, depth + 1);
                }
            } else if MAP.contains(&keyword.as_str()) {
                for (name, item) in value.as_object().into_iter().flatten() {
                    let at = format!("{at}/{}", crate::pointer::escape_token(name));
                    self.visit(doc, item, &at, &base, draft, depth + 1);
                }
            }
        }
    }

    /// The base URI in force at `pointer` of `doc` (its nearest indexed ancestor's): the
    /// schema resource the subschema there belongs to.
    pub fn base_of(&self, doc: usize, pointer: &str) -> &str {
        let mut at = pointer;
        loop {
            if let Some(base) = self.bases.get(&(doc, at.to_owned())) {
                return base;
            }
            match at.rfind('/') {
                Some(cut) => at = &at[..cut],
                None => return DOCUMENT_BASE,
            }
        }
    }

    /// Where `reference`, written at `pointer` of `doc`, leads; `Err` with the absolute URI it
    /// names (fragment split off) when no indexed document holds it.
    pub fn target(&self, doc: usize, pointer: &str, reference: &str) -> Result<Location, String> {
        let resolved = resolve(self.base_of(doc, pointer), reference);
        let (uri, fragment) = split_fragment(&resolved);
        let missing = || uri.to_owned();
        let fragment = percent_decode(fragment).ok_or_else(missing)?;
        if fragment.is_empty() || fragment.starts_with('/') {
            let (doc, resource) = self.resources.get(uri).ok_or_else(missing)?;
            Ok((*doc, format!("{resource}{fragment}")))
        } else {
            self.anchors.get(&format!("{uri}#{fragment}")).cloned().ok_or_else(missing)
        }
    }
}

fn uri_or<'a>(uri: &'a str, base: &'a str) -> &'a str {
    if uri.is_empty() {
        base
    } else {
        uri
    }
}

pub(super) fn split_fragment(uri: &str) -> (&str, &str) {
    uri.split_once('#').unwrap_or((uri, ""))
}

/// The parts of a URI reference (RFC 3986 §3): scheme, authority, path, query (fragments
/// are split off by the caller's [`resolve`]).
struct Parts<'a> {
    scheme: Option<&'a str>,
    authority: Option<&'a str>,
    path: &'a str,
    query: Option<&'a str>,
}

fn parts(reference: &str) -> Parts<'_> {
    let (rest, query) = match reference.split_once('?') {
        Some((rest, query)) => (rest, Some(query)),
        None => (reference, None),
    };
    let scheme_end = rest.find(':').filter(|&at| {
        at > 0
            && rest[..at].starts_with(|c: char| c.is_ascii_alphabetic())
            && rest[..at].bytes().all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b))
            && !rest[..at].contains('/')
    });
    let (scheme, rest) = match scheme_end {
        Some(at) => (Some(&rest[..at]), &rest[at + 1..]),
        None => (None, rest),
    };
    let (authority, path) = match rest.strip_prefix("//") {
        Some(after) => {
            let end = after.find('/').unwrap_or(after.len());
            (Some(&after[..end]), &after[end..])
        }
        None => (None, rest),
    };
    Parts { scheme, authority, path, query }
}

/// `reference` resolved against `base` (RFC 3986 §5.2.2, fragments kept from the reference).
pub(crate) fn resolve(base: &str, reference: &str) -> String {
    let (reference, fragment) = match reference.split_once('#') {
        Some((reference, fragment)) => (reference, Some(fragment)),
        None => (reference, None),
    };
    let (base, _) = split_fragment(base);
    let (r, b) = (parts(reference), parts(base));
    let (scheme, authority, path, query);
    if r.scheme.is_some() {
        (scheme, authority, path, query) = (r.scheme, r.authority, remove_dots(r.path), r.query);
    } else if r.authority.is_some() {
        (scheme, authority, path, query) = (b.scheme, r.authority, remove_dots(r.path), r.query);
    } else if r.path.is_empty() {
        (scheme, authority, path, query) = (b.scheme, b.authority, b.path.to_owned(), r.query.or(b.query));
    } else {
        let merged = if r.path.starts_with('/') {
            r.path.to_owned()
        } else if b.authority.is_some() && b.path.is_empty() {
            format!("/{}", r.path)
        } else {
            match b.path.rfind('/') {
                Some(cut) => format!("{}{}", &b.path[..=cut], r.path),
                None => r.path.to_owned(),
            }
        };
        (scheme, authority, path, query) = (b.scheme, b.authority, remove_dots(&merged), r.query);
    }
    let mut out = String::new();
    if let Some(scheme) = scheme {
        out.push_str(scheme);
        out.push(':');
    }
    if let Some(authority) = authority {
        out.push_str("//");
        out.push_str(authority);
    }
    out.push_str(&path);
    if let Some(query) = query {
        out.push('?');
        out.push_str(query);
    }
    out.push('#');
    out.push_str(fragment.unwrap_or(""));
    out
}

/// RFC 3986 §5.2.4.
fn remove_dots(path: &str) -> String {
    let mut output: Vec<&str> = Vec::new();
    let absolute = path.starts_with('/');
    let segments: Vec<&str> = path.split('/').collect();
    for (index, segment) in segments.iter().enumerate() {
        let last = index + 1 == segments.len();
        match *segment {
            "." => {
                if last {
                    output.push("");
                }
            }
            ".." => {
                if output.len() > usize::from(absolute) {
                    output.pop();
                }
                if last {
                    output.push("");
                }
            }
            other => output.push(other),
        }
    }
    let joined = output.join("/");
    if absolute && !joined.starts_with('/') {
        format!("/{joined}")
    } else {
        joined
    }
}

pub(crate) fn percent_decode(fragment: &str) -> Option<String> {
    if !fragment.contains('%') {
        return Some(fragment.to_owned());
    }
    let bytes = fragment.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = fragment.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn references_resolve_as_rfc_3986_says() {
        let base = "http://a/b/c/d;p?q";
        for (reference, expected) in [
            ("g", "http://a/b/c/g#"),
            ("./g", "http://a/b/c/g#"),
            ("/g", "http://a/g#"),
            ("//g", "http://g#"),
            ("?y", "http://a/b/c/d;p?y#"),
            ("#s", "http://a/b/c/d;p?q#s"),
            ("../g", "http://a/b/g#"),
            ("../../../g", "http://a/g#"),
            ("urn:x:y", "urn:x:y#"),
        ] {
            assert_eq!(resolve(base, reference), expected, "{reference}");
        }
    }

    #[test]
    fn ids_and_anchors_are_found_where_they_are_written() {
        let schema = json!({
            "$id": "http://example.com/root.json",
            "$defs": {
                "a": {"$id": "item.json", "$anchor": "it", "type": "integer"},
                "b": {"$anchor": "top"},
                "c": {"enum": [{"$id": "not-an-id.json"}]}
            }
        });
        let index = Index::of(&schema, Draft::Draft202012);
        let at = |pointer: &str, reference: &str| index.target(0, pointer, reference).ok().map(|(_, p)| p);
        assert_eq!(at("", "item.json").as_deref(), Some("/$defs/a"));
        assert_eq!(at("", "item.json#it").as_deref(), Some("/$defs/a"));
        assert_eq!(at("/$defs/a", "#it").as_deref(), Some("/$defs/a"));
        assert_eq!(at("", "#top").as_deref(), Some("/$defs/b"));
        assert_eq!(at("", "#/$defs/b").as_deref(), Some("/$defs/b"));
        assert_eq!(at("", "not-an-id.json"), None);
        assert_eq!(
            index.target(0, "", "http://elsewhere.example/x.json#/a"),
            Err("http://elsewhere.example/x.json".to_owned())
        );
        let draft7 = json!({"definitions": {"a": {"$id": "#foo"}}});
        assert_eq!(
            Index::of(&draft7, Draft::Draft7).target(0, "", "#foo"),
            Ok((0, "/definitions/a".to_owned()))
        );
        assert_eq!(Draft::of(&json!({"$schema": "http://json-schema.org/draft-04/schema#"})), Draft::Draft4);
        assert_eq!(Draft::of(&json!({})), Draft::Draft202012);
    }
}
