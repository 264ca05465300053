//! `contains` with `minContains`/`maxContains`: how many items pass `contains` must lie
//! between them (at least one when `minContains` is absent; `minContains: 0` makes
//! `contains` itself never fail). Only arrays are checked.

use super::{Explain, Instance, Kind, Place, SchemaId, Subschemas};
use crate::error::ErrorCode;

#[derive(Debug, Clone)]
pub(crate) struct Contains {
    pub schema: SchemaId,
    pub min: u64,
    pub max: Option<u64>,
}

impl Contains {
    /// How many items pass, counting no further than the bounds need.
    fn count<'v, I: Instance<'v>>(&self, schema: &impl Subschemas<'v, I>, instance: I) -> u64 {
        let enough = self.max.map_or(self.min, |max| max.saturating_add(1));
        let mut count = 0;
        for item in instance.items() {
            if schema.holds(self.schema, item) {
                count += 1;
                if count >= enough {
                    break;
                }
            }
        }
        count
    }

    pub fn is_valid<'v, I: Instance<'v>>(&self, schema: &impl Subschemas<'v, I>, instance: I) -> bool {
        if instance.kind() != Kind::Array {
            return true;
        }
        let count = self.count(schema, instance);
        count >= self.min && self.max.is_none_or(|max| count <= max)
    }

    pub fn validate<'v, I: Instance<'v>>(&self, schema: &mut impl Explain<'v, I>, instance: I) {
        if instance.kind() != Kind::Array {
            return;
        }
        let count = self.count(schema, instance);
        if count < self.min {
            let min = self.min;
            schema.fail(Place::Here, ErrorCode::Contains, None, &|_| match count {
                0 if min == 1 => "no item matches `contains`".to_owned(),
                0 => format!("no item matches `contains`; expected at least {min}"),
                1 => format!("1 item matches `contains`; expected at least {min}"),
                _ => format!("{count} items match `contains`; expected at least {min}"),
            });
        }
        if let Some(max) = self.max.filter(|&max| count > max) {
            schema.fail(Place::Here, ErrorCode::Contains, None, &|_| match max {
                1 => "more than 1 item matches `contains`; expected at most 1".to_owned(),
                _ => format!("more than {max} items match `contains`; expected at most {max}"),
            });
        }
    }
}
