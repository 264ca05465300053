//! `dependentSchemas` (and the schemas of draft 7's `dependencies`): when a member is
//! present, the whole object passes the schema it names.

use super::{Explain, Instance, Kind, Place, SchemaId, Subschemas};

#[derive(Debug, Clone)]
pub(crate) struct DependentSchemas {
    /// (present name, the schema the object then passes), in schema order.
    pub schemas: Vec<(String, SchemaId)>,
}

impl DependentSchemas {
    /// The schemas that apply to this object.
    pub fn applying<'a, 'v, I: Instance<'v> + 'a>(
        &'a self,
        instance: I,
    ) -> impl Iterator<Item = SchemaId> + 'a {
        let object = instance.kind() == Kind::Object;
        self.schemas
            .iter()
            .filter(move |(name, _)| object && instance.member(name).is_some())
            .map(|(_, id)| *id)
    }

    pub fn is_valid<'v, I: Instance<'v>>(&self, schema: &impl Subschemas<'v, I>, instance: I) -> bool {
        self.applying(instance).all(|id| schema.accepts(id, instance))
    }

    pub fn validate<'v, I: Instance<'v>>(&self, schema: &mut impl Explain<'v, I>, instance: I) {
        for id in self.applying(instance) {
            schema.explain(id, instance, Place::Here);
        }
    }
}
