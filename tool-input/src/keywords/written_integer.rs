//! Draft 4's `integer`: a number written without a fraction or an exponent. From draft 6 on,
//! any number with no fractional part is an integer (`1.0` is); in draft 4 it is not. The
//! compiler adds this keyword beside a draft 4 `type` that admits integers and not every
//! number.
//!
//! A number is held as `serde_json` reads it: one written as an integer within 64 bits is an
//! integer, any other a float. A float of 2^63 or more in magnitude counts as written as an
//! integer (`serde_json` reads `12345678901234567890123` as a float, and the suite holds such a
//! bignum an integer in every draft); below that, a float was written with a fraction or an
//! exponent.

use serde_json::Number;

use super::{Explain, Instance, Place};
use crate::error::ErrorCode;

/// The magnitude from which a float counts as an integer written out in full.
const WRITTEN_IN_FULL: f64 = 9_223_372_036_854_775_808.0;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct WrittenInteger;

impl WrittenInteger {
    pub fn is_valid<'v, I: Instance<'v>>(&self, instance: I) -> bool {
        instance.as_number().is_none_or(written_as_integer)
    }

    pub fn validate<'v, I: Instance<'v>>(&self, schema: &mut impl Explain<'v, I>, instance: I) {
        if self.is_valid(instance) {
            return;
        }
        schema.fail(Place::Here, ErrorCode::Type, Some(instance), &|named| {
            format!("expected an integer written without a fraction or exponent (draft 4), got {named}")
        });
    }
}

/// Was `number` written as an integer (see the module's documentation)?
fn written_as_integer(number: &Number) -> bool {
    number.is_i64()
        || number.is_u64()
        || number.as_f64().is_some_and(|float| float.fract() == 0.0 && float.abs() >= WRITTEN_IN_FULL)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn draft_4_integers_are_written_as_integers() {
        for integer in
            [json!(1), json!(-7), json!(u64::MAX), json!(1e30), json!(-1e20), json!("not a number")]
        {
            assert!(WrittenInteger.is_valid(&integer), "{integer}");
        }
        for float in [json!(1.0), json!(-0.0), json!(1e3), json!(2.5), json!(9.0e18)] {
            assert!(!WrittenInteger.is_valid(&float), "{float}");
        }
    }
}
