//! Compiles the keywords the `keywords` folder checks, in the order they are checked: draft 4's
//! `integer` (a number written without a fraction), `format`, draft 7's
//! `contentEncoding`/`contentMediaType`, the conditional, `contains`, `propertyNames`, the
//! dependencies (2019-09's `dependentRequired`/`dependentSchemas` and the older
//! `dependencies`), then `unevaluatedProperties` and `unevaluatedItems`, which read what the
//! others evaluated. A keyword the draft of its document does not have is left out
//! (`Compiler::known`).

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::{count, error, once_each, Compiler, NodeId, Types};
use crate::keywords::{
    Conditional, Contains, Content, DependentRequired, DependentSchemas, Format, Keyword, PropertyNames,
    UnevaluatedItems, UnevaluatedProperties, WrittenInteger,
};
use crate::schema_error::SchemaError;

impl<'a> Compiler<'a> {
    pub(super) fn keywords(
        &mut self,
        id: NodeId,
        pointer: &str,
        object: &'a Map<String, Value>,
        types: Option<Types>,
        required: &[String],
        depth: usize,
    ) -> Result<Vec<Keyword>, SchemaError> {
        let mut keywords = Vec::new();
        self.value_checks(pointer, object, types, &mut keywords)?;
        self.applied_here(pointer, object, depth, &mut keywords)?;
        self.dependencies(pointer, object, required, depth, &mut keywords)?;
        self.unevaluated(id, pointer, object, depth, &mut keywords)?;
        Ok(keywords)
    }

    /// The keywords that hold no subschema: draft 4's `integer`, `format`, draft 7's
    /// `content*`. Each part is a function of its own, out of line: the compile recurses
    /// through this one, and a debug build keeps a stack slot for every temporary of a
    /// function, so a frame holding every keyword's would be on the stack once per level of a
    /// nested schema.
    #[inline(never)]
    fn value_checks(
        &self,
        pointer: &str,
        object: &'a Map<String, Value>,
        types: Option<Types>,
        keywords: &mut Vec<Keyword>,
    ) -> Result<(), SchemaError> {
        if self.draft().integers_are_written_so() && types.is_some_and(Types::integer_only) {
            keywords.push(Keyword::WrittenInteger(WrittenInteger));
        }
        if let Some(name) = object.get("format") {
            let name = name.as_str().ok_or_else(|| error(pointer, "`format` must be a string"))?;
            if let Some(format) = Format::named(name).filter(|_| self.formats) {
                let format = if self.draft().hostnames_are_rfc_1123() {
                    format.as_drafts_4_and_6_mean_it()
                } else {
                    format
                };
                keywords.push(Keyword::Format(format));
            }
            // Numeric formats are bounds: `Compiler::number_format` (`compile_node`).
        }
        if self.draft().asserts_content() {
            let text = |keyword: &str| match object.get(keyword) {
                None => Ok(None),
                Some(Value::String(text)) => Ok(Some(text.as_str())),
                Some(_) => Err(error(pointer, format!("`{keyword}` must be a string"))),
            };
            if let Some(content) = Content::named(text("contentEncoding")?, text("contentMediaType")?) {
                keywords.push(Keyword::Content(content));
            }
        }
        Ok(())
    }

    /// The conditional, `contains` and `propertyNames`.
    #[inline(never)]
    fn applied_here(
        &mut self,
        pointer: &str,
        object: &'a Map<String, Value>,
        depth: usize,
        keywords: &mut Vec<Keyword>,
    ) -> Result<(), SchemaError> {
        if let Some(condition) = self.known(object, "if") {
            let condition = self.child(pointer, "if", condition, depth)?;
            let then = self
                .known(object, "then")
                .map(|then| self.child(pointer, "then", then, depth))
                .transpose()?;
            let otherwise = self
                .known(object, "else")
                .map(|other| self.child(pointer, "else", other, depth))
                .transpose()?;
            // Kept without `then` and `else` too: what `if` evaluates counts for `unevaluated*`.
            keywords.push(Keyword::Conditional(Conditional { condition, then, otherwise }));
        }
        if let Some(contains) = self.known(object, "contains") {
            let schema = self.child(pointer, "contains", contains, depth)?;
            let (min, max) = if self.draft().knows("minContains") {
                (count(pointer, object, "minContains")?.unwrap_or(1), count(pointer, object, "maxContains")?)
            } else {
                (1, None)
            };
            keywords.push(Keyword::Contains(Contains { schema, min, max }));
        }
        if let Some(names) = self.known(object, "propertyNames") {
            let schema = self.child(pointer, "propertyNames", names, depth)?;
            keywords.push(Keyword::PropertyNames(PropertyNames { schema }));
        }
        Ok(())
    }

    /// `dependentRequired`, `dependentSchemas` and the older `dependencies`.
    #[inline(never)]
    fn dependencies(
        &mut self,
        pointer: &str,
        object: &'a Map<String, Value>,
        required: &[String],
        depth: usize,
        keywords: &mut Vec<Keyword>,
    ) -> Result<(), SchemaError> {
        let mut requires = Vec::new();
        let mut schemas = Vec::new();
        // The names `required` lists, as a set once a dependency list needs them.
        let mut always: Option<HashSet<&str>> = None;
        for keyword in ["dependentRequired", "dependentSchemas", "dependencies"] {
            let Some(map) = self.known(object, keyword) else { continue };
            let map =
                map.as_object().ok_or_else(|| error(pointer, format!("`{keyword}` must be an object")))?;
            let base = format!("{pointer}/{keyword}");
            for (name, value) in map {
                match (keyword, value) {
                    ("dependentRequired" | "dependencies", Value::Array(names)) => {
                        let names =
                            names.iter().map(Value::as_str).collect::<Option<Vec<&str>>>().ok_or_else(
                                || error(pointer, format!("`{keyword}` must list names as strings")),
                            )?;
                        // A name `required` lists is missing once, as `required` reports it:
                        // a dependency on it adds nothing but a second error at that path.
                        let always = always.get_or_insert_with(|| {
                            required.iter().map(String::as_str).collect::<HashSet<_>>()
                        });
                        let names = names.into_iter().filter(|name| !always.contains(name)).collect();
                        requires.push((name.clone(), once_each(names)));
                    }
                    ("dependentSchemas" | "dependencies", schema) => {
                        schemas.push((name.clone(), self.child(&base, name, schema, depth)?));
                    }
                    _ => return Err(error(pointer, format!("`{keyword}` must map names to lists of names"))),
                }
            }
        }
        if !requires.is_empty() {
            keywords.push(Keyword::DependentRequired(DependentRequired { requires }));
        }
        if !schemas.is_empty() {
            keywords.push(Keyword::DependentSchemas(DependentSchemas { schemas }));
        }
        Ok(())
    }

    /// `unevaluatedProperties` and `unevaluatedItems` of the node `id`.
    #[inline(never)]
    fn unevaluated(
        &mut self,
        id: NodeId,
        pointer: &str,
        object: &'a Map<String, Value>,
        depth: usize,
        keywords: &mut Vec<Keyword>,
    ) -> Result<(), SchemaError> {
        if let Some(rest) = self.known(object, "unevaluatedProperties") {
            let schema = match rest {
                Value::Bool(false) => None,
                other => Some(self.child(pointer, "unevaluatedProperties", other, depth)?),
            };
            keywords.push(Keyword::UnevaluatedProperties(UnevaluatedProperties { node: id, schema }));
        }
        if let Some(rest) = self.known(object, "unevaluatedItems") {
            let schema = match rest {
                Value::Bool(false) => None,
                other => Some(self.child(pointer, "unevaluatedItems", other, depth)?),
            };
            keywords.push(Keyword::UnevaluatedItems(UnevaluatedItems { node: id, schema }));
        }
        Ok(())
    }
}
