//! JSON equality as JSON Schema defines it: numbers by mathematical value (`1 == 1.0`),
//! objects regardless of key order.

use std::cmp::Ordering;

use serde_json::{Number, Value};

/// Are two JSON values equal in the sense of `enum`, `const` and `uniqueItems`?
pub(crate) fn json_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => compare(x, y) == Ordering::Equal,
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| json_equal(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(key, x)| y.get(key).is_some_and(|y| json_equal(x, y)))
        }
        _ => a == b,
    }
}

/// Compare two JSON numbers exactly, by the values they hold: an integer with a float by
/// the float's exact binary value (`9007199254740993` is above `9007199254740992.0`, though
/// the integer rounds to that float), never by rounding one to the other's kind. Every
/// keyword that compares numbers (`enum`, `const`, `uniqueItems`, the bounds) calls this.
pub(crate) fn compare(a: &Number, b: &Number) -> Ordering {
    match (as_i128(a), as_i128(b)) {
        (Some(x), Some(y)) => x.cmp(&y),
        (Some(x), None) => compare_integer_float(x, b.as_f64().unwrap_or(f64::NAN)),
        (None, Some(y)) => compare_integer_float(y, a.as_f64().unwrap_or(f64::NAN)).reverse(),
        (None, None) => {
            let x = a.as_f64().unwrap_or(f64::NAN);
            let y = b.as_f64().unwrap_or(f64::NAN);
            x.partial_cmp(&y).unwrap_or(Ordering::Equal)
        }
    }
}

/// The integer `x` against the float `y`, exactly (JSON has no NaN; one compares equal).
fn compare_integer_float(x: i128, y: f64) -> Ordering {
    // 2^127: every i128 lies in [-2^127, 2^127).
    const LIMIT: f64 = 170_141_183_460_469_231_731_687_303_715_884_105_728.0;
    if y.is_nan() {
        return Ordering::Equal;
    }
    if y >= LIMIT {
        return Ordering::Less;
    }
    if y < -LIMIT {
        return Ordering::Greater;
    }
    // An integral float within the range converts to i128 exactly.
    let whole = y.trunc();
    match x.cmp(&(whole as i128)) {
        Ordering::Equal => 0.0f64.partial_cmp(&(y - whole)).unwrap_or(Ordering::Equal),
        unequal => unequal,
    }
}

/// A number ordered by the value it holds, as [`compare`] orders it (`1` and `1.0` are
/// one): a key for a set or map of numbers.
pub(crate) struct ByValue<'a>(pub &'a Number);

impl PartialEq for ByValue<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other).is_eq()
    }
}

impl Eq for ByValue<'_> {}

impl PartialOrd for ByValue<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for ByValue<'_> {
    fn cmp(&self, other: &Self) -> Ordering {
        compare(self.0, other.0)
    }
}

/// A JSON number as an integer, when it is one written as one.
pub(crate) fn as_i128(n: &Number) -> Option<i128> {
    n.as_i64().map(i128::from).or_else(|| n.as_u64().map(i128::from))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_compare_by_value() {
        assert!(json_equal(&json!(1), &json!(1.0)));
        assert!(json_equal(&json!([1, {"a": 2.0}]), &json!([1.0, {"a": 2}])));
        assert!(!json_equal(&json!(1), &json!(true)));
        assert!(!json_equal(&json!(0), &json!(false)));
        assert!(!json_equal(&json!({"a": 1}), &json!({"a": 1, "b": 2})));
        assert!(json_equal(&json!(u64::MAX), &json!(u64::MAX)));
        assert!(!json_equal(&json!(9007199254740993_u64), &json!(9007199254740992_u64)));
    }

    #[test]
    fn integers_and_floats_compare_exactly() {
        let n = |v: Value| match v {
            Value::Number(n) => n,
            _ => unreachable!(),
        };
        let cases = [
            (json!(9007199254740993_u64), json!(9007199254740992.0), Ordering::Greater),
            (json!(9007199254740992_u64), json!(9007199254740992.0), Ordering::Equal),
            (json!(u64::MAX), json!(18446744073709551616.0), Ordering::Less),
            (json!(i64::MIN), json!(-9223372036854775808.0), Ordering::Equal),
            (json!(i64::MIN + 1), json!(-9223372036854775808.0), Ordering::Greater),
            (json!(3), json!(2.5), Ordering::Greater),
            (json!(-3), json!(-2.5), Ordering::Less),
            (json!(2), json!(2.5), Ordering::Less),
            (json!(-2), json!(-2.5), Ordering::Greater),
            (json!(0), json!(-0.0), Ordering::Equal),
            (json!(i64::MAX), json!(1e300), Ordering::Less),
            (json!(i64::MIN), json!(-1e300), Ordering::Greater),
        ];
        for (a, b, expected) in cases {
            assert_eq!(compare(&n(a.clone()), &n(b.clone())), expected, "{a} vs {b}");
            assert_eq!(compare(&n(b.clone()), &n(a.clone())), expected.reverse(), "{b} vs {a}");
        }
        assert!(!json_equal(&json!([1, 9007199254740993_u64]), &json!([1, 9007199254740992.0])));
    }
}
