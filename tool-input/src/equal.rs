//! JSON equality as JSON Schema defines it: numbers by mathematical value (`1 == 1.0`),
//! objects regardless of key order; and a hash that agrees with it ([`hash_json`]).

use std::cmp::Ordering;
use std::hash::{BuildHasher, Hash, Hasher};

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

/// Feed `value` to `state` so that values [`json_equal`] calls equal hash alike: a number by
/// the value it holds (`1`, `1.0` and `1e0` alike), an object by its members whatever their
/// order (each member hashed on its own with `build`, the results added). `uniqueItems`
/// groups an array's items by it, so that it compares only items that may be equal.
pub(crate) fn hash_json<S: BuildHasher>(value: &Value, build: &S, state: &mut impl Hasher) {
    match value {
        Value::Null => state.write_u8(0),
        Value::Bool(flag) => {
            state.write_u8(1);
            flag.hash(state);
        }
        Value::Number(number) => {
            state.write_u8(2);
            match number_key(number) {
                NumberKey::Integer(integer) => {
                    state.write_u8(0);
                    state.write_i128(integer);
                }
                NumberKey::Float(bits) => {
                    state.write_u8(1);
                    state.write_u64(bits);
                }
            }
        }
        Value::String(text) => {
            state.write_u8(3);
            text.hash(state);
        }
        Value::Array(items) => {
            state.write_u8(4);
            state.write_usize(items.len());
            for item in items {
                hash_json(item, build, state);
            }
        }
        Value::Object(map) => {
            state.write_u8(5);
            state.write_usize(map.len());
            // A sum, which no order of the members changes (a map keeps them sorted, or in
            // the order sent under `preserve_order`).
            let mut members = 0u64;
            for (key, member) in map {
                let mut one = build.build_hasher();
                key.hash(&mut one);
                hash_json(member, build, &mut one);
                members = members.wrapping_add(one.finish());
            }
            state.write_u64(members);
        }
    }
}

/// A number as [`hash_json`] hashes it: an integer, or an integral float that holds one
/// within `i128` (which [`compare`] finds equal to that integer), by the integer; any
/// other float by its bits (no two other floats are equal but for the same bits: JSON has
/// no NaN, and `-0.0` is the integer 0).
enum NumberKey {
    Integer(i128),
    Float(u64),
}

fn number_key(number: &Number) -> NumberKey {
    // 2^127, as in `compare_integer_float`.
    const LIMIT: f64 = 170_141_183_460_469_231_731_687_303_715_884_105_728.0;
    if let Some(integer) = as_i128(number) {
        return NumberKey::Integer(integer);
    }
    let float = number.as_f64().unwrap_or(f64::NAN);
    if float.fract() == 0.0 && float.abs() < LIMIT {
        NumberKey::Integer(float as i128)
    } else {
        NumberKey::Float(float.to_bits())
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
