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

/// Compare two JSON numbers exactly when both are integers, as floats otherwise.
pub(crate) fn compare(a: &Number, b: &Number) -> Ordering {
    if let (Some(x), Some(y)) = (as_i128(a), as_i128(b)) {
        return x.cmp(&y);
    }
    let x = a.as_f64().unwrap_or(f64::NAN);
    let y = b.as_f64().unwrap_or(f64::NAN);
    x.partial_cmp(&y).unwrap_or(Ordering::Equal)
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
}
