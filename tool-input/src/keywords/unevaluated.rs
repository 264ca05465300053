//! `unevaluatedProperties` and `unevaluatedItems`: the members (items) that no other keyword
//! of the schema evaluated, in place or through a subschema that passed (`allOf`, the passing
//! branches of `anyOf`/`oneOf`, `if` with `then` or `else`, `dependentSchemas`, `$ref`), must
//! pass the schema. Which were evaluated is the schema's answer ([`Subschemas::evaluated`]).

use super::{Explain, Instance, Kind, Place, SchemaId, Subschemas};
use crate::error::ErrorCode;

#[derive(Debug, Clone)]
pub(crate) struct UnevaluatedProperties {
    /// The schema the keyword sits in (whose other keywords evaluate members).
    pub node: SchemaId,
    /// `None`: the `false` schema (no member may be left unevaluated).
    pub schema: Option<SchemaId>,
}

#[derive(Debug, Clone)]
pub(crate) struct UnevaluatedItems {
    pub node: SchemaId,
    pub schema: Option<SchemaId>,
}

impl UnevaluatedProperties {
    pub fn is_valid<'v, I: Instance<'v>>(&self, schema: &impl Subschemas<'v, I>, instance: I) -> bool {
        if instance.kind() != Kind::Object {
            return true;
        }
        let evaluated = schema.evaluated(self.node, instance);
        instance.members().enumerate().all(|(index, (_, member))| {
            evaluated.get(index).copied().unwrap_or(false)
                || self.schema.is_some_and(|id| schema.accepts(id, member))
        })
    }

    pub fn validate<'v, I: Instance<'v>>(&self, schema: &mut impl Explain<'v, I>, instance: I) {
        if instance.kind() != Kind::Object {
            return;
        }
        let evaluated = schema.evaluated(self.node, instance);
        for (index, (name, member)) in instance.members().enumerate() {
            if evaluated.get(index).copied().unwrap_or(false) {
                continue;
            }
            match self.schema {
                Some(id) => schema.explain(id, member, Place::Key(name)),
                None => schema.fail(Place::Key(name), ErrorCode::UnknownField, None, &|_| {
                    format!(
                        "unknown property `{}`; no keyword of the schema declares it",
                        crate::message::shorten(name, 64)
                    )
                }),
            }
        }
    }
}

impl UnevaluatedItems {
    pub fn is_valid<'v, I: Instance<'v>>(&self, schema: &impl Subschemas<'v, I>, instance: I) -> bool {
        if instance.kind() != Kind::Array {
            return true;
        }
        let evaluated = schema.evaluated(self.node, instance);
        instance.items().enumerate().all(|(index, item)| {
            evaluated.get(index).copied().unwrap_or(false)
                || self.schema.is_some_and(|id| schema.accepts(id, item))
        })
    }

    pub fn validate<'v, I: Instance<'v>>(&self, schema: &mut impl Explain<'v, I>, instance: I) {
        if instance.kind() != Kind::Array {
            return;
        }
        let evaluated = schema.evaluated(self.node, instance);
        for (index, item) in instance.items().enumerate() {
            if evaluated.get(index).copied().unwrap_or(false) {
                continue;
            }
            match self.schema {
                Some(id) => schema.explain(id, item, Place::Index(index)),
                None => schema.fail(Place::Index(index), ErrorCode::Items, None, &|_| {
                    "no item is allowed here: no keyword of the schema declares it".to_owned()
                }),
            }
        }
    }
}
