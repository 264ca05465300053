//! `propertyNames`: every member's name, as a string, passes the schema. An error sits at
//! the member it names.

use super::{Explain, Instance, SchemaId, Subschemas};

#[derive(Debug, Clone)]
pub(crate) struct PropertyNames {
    pub schema: SchemaId,
}

impl PropertyNames {
    pub fn is_valid<'v, I: Instance<'v>>(&self, schema: &impl Subschemas<'v, I>, instance: I) -> bool {
        instance.members().all(|(name, _)| schema.accepts_name(self.schema, name))
    }

    pub fn validate<'v, I: Instance<'v>>(&self, schema: &mut impl Explain<'v, I>, instance: I) {
        for (name, _) in instance.members() {
            if !schema.accepts_name(self.schema, name) {
                schema.refuse_name(self.schema, name);
            }
        }
    }
}
