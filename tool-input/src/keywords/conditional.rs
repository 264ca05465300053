//! `if`/`then`/`else`: the value that passes `if` must pass `then`, any other must pass
//! `else`. `if` itself never fails a value; `then` or `else` alone do nothing.

use super::{Explain, Instance, Place, SchemaId, Subschemas};

#[derive(Debug, Clone)]
pub(crate) struct Conditional {
    pub condition: SchemaId,
    pub then: Option<SchemaId>,
    pub otherwise: Option<SchemaId>,
}

impl Conditional {
    /// The branch the value must pass, if any.
    pub fn branch<'v, I: Instance<'v>>(
        &self,
        schema: &impl Subschemas<'v, I>,
        instance: I,
    ) -> Option<SchemaId> {
        if schema.holds(self.condition, instance) {
            self.then
        } else {
            self.otherwise
        }
    }

    pub fn is_valid<'v, I: Instance<'v>>(&self, schema: &impl Subschemas<'v, I>, instance: I) -> bool {
        self.branch(schema, instance).is_none_or(|branch| schema.accepts(branch, instance))
    }

    /// The branch's own errors, at the value.
    pub fn validate<'v, I: Instance<'v>>(&self, schema: &mut impl Explain<'v, I>, instance: I) {
        if let Some(branch) = self.branch(schema, instance) {
            schema.explain(branch, instance, Place::Here);
        }
    }
}
