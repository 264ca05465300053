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
        instance.kind() != Kind::Object
            || rest_is_valid(schema, self.node, self.schema, instance, members(instance))
    }

    pub fn validate<'v, I: Instance<'v>>(&self, schema: &mut impl Explain<'v, I>, instance: I) {
        if instance.kind() != Kind::Object {
            return;
        }
        match self.schema {
            Some(_) => rest_validate(schema, self.node, self.schema, instance, members(instance)),
            None => {
                let evaluated = schema.evaluated(self.node, instance);
                schema.refuse_unevaluated(self.node, instance, &evaluated);
            }
        }
    }
}

impl UnevaluatedItems {
    pub fn is_valid<'v, I: Instance<'v>>(&self, schema: &impl Subschemas<'v, I>, instance: I) -> bool {
        instance.kind() != Kind::Array
            || rest_is_valid(schema, self.node, self.schema, instance, items(instance))
    }

    pub fn validate<'v, I: Instance<'v>>(&self, schema: &mut impl Explain<'v, I>, instance: I) {
        if instance.kind() == Kind::Array {
            rest_validate(schema, self.node, self.schema, instance, items(instance));
        }
    }
}

/// An object's members, each with its place.
fn members<'v, I: Instance<'v>>(instance: I) -> impl Iterator<Item = (Place<'v>, I)> {
    instance.members().map(|(name, member)| (Place::Key(name), member))
}

/// An array's items, each with its place.
fn items<'v, I: Instance<'v>>(instance: I) -> impl Iterator<Item = (Place<'v>, I)> {
    instance.items().enumerate().map(|(index, item)| (Place::Index(index), item))
}

/// Do the members (items) `node` did not evaluate pass `rest` (`None`: there are none)?
fn rest_is_valid<'v, I: Instance<'v>>(
    schema: &impl Subschemas<'v, I>,
    node: SchemaId,
    rest: Option<SchemaId>,
    instance: I,
    children: impl Iterator<Item = (Place<'v>, I)>,
) -> bool {
    let evaluated = schema.evaluated(node, instance);
    children.enumerate().all(|(index, (_, child))| {
        evaluated.get(index).copied().unwrap_or(false) || rest.is_some_and(|id| schema.accepts(id, child))
    })
}

/// The errors of the members (items) `node` did not evaluate: `rest`'s, or one each where
/// there may be none.
fn rest_validate<'v, I: Instance<'v>>(
    schema: &mut impl Explain<'v, I>,
    node: SchemaId,
    rest: Option<SchemaId>,
    instance: I,
    children: impl Iterator<Item = (Place<'v>, I)>,
) {
    let evaluated = schema.evaluated(node, instance);
    for (index, (place, child)) in children.enumerate() {
        if evaluated.get(index).copied().unwrap_or(false) {
            continue;
        }
        match (rest, place) {
            (Some(id), _) => schema.explain(id, child, place),
            (None, _) => schema.fail(place, ErrorCode::Items, None, &|_| {
                "no item is allowed here: no keyword of the schema declares it".to_owned()
            }),
        }
    }
}
