//! `dependentRequired` (and the lists of draft 7's `dependencies`): when a member is present,
//! the names it lists must be too. Each absent name is a `missing` error at its own path,
//! once however many present members require it.

use super::{Explain, Instance, Kind, Place};
use crate::error::ErrorCode;

#[derive(Debug, Clone)]
pub(crate) struct DependentRequired {
    /// (present name, the names it requires), in schema order.
    pub requires: Vec<(String, Vec<String>)>,
}

impl DependentRequired {
    /// The (trigger, absent name) pairs, in schema order.
    fn absent<'a, 'v, I: Instance<'v> + 'a>(
        &'a self,
        instance: I,
    ) -> impl Iterator<Item = (&'a str, &'a str)> + 'a {
        let object = instance.kind() == Kind::Object;
        self.requires
            .iter()
            .filter(move |(trigger, _)| object && instance.member(trigger).is_some())
            .flat_map(move |(trigger, names)| {
                names
                    .iter()
                    .filter(move |name| instance.member(name).is_none())
                    .map(move |name| (trigger.as_str(), name.as_str()))
            })
    }

    pub fn is_valid<'v, I: Instance<'v>>(&self, instance: I) -> bool {
        self.absent(instance).next().is_none()
    }

    pub fn validate<'v, I: Instance<'v>>(&self, schema: &mut impl Explain<'v, I>, instance: I) {
        // A name two present members require is missing once: the first to require it says so.
        let mut reported = std::collections::HashSet::new();
        for (trigger, name) in self.absent(instance) {
            if !reported.insert(name) {
                continue;
            }
            schema.fail(Place::Key(name), ErrorCode::Missing, None, &|_| {
                format!("the property `{name}` is required when `{trigger}` is present")
            });
        }
    }
}
