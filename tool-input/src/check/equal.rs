//! JSON equality as JSON Schema defines it: numbers by mathematical value (`1 == 1.0`),
//! objects regardless of key order.

use serde_json::Value;

use super::compare;

/// Are two JSON values equal in the sense of `enum`, `const` and `uniqueItems`?
pub(crate) fn json_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => compare(x, y) == std::cmp::Ordering::Equal,
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| json_equal(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(key, x)| y.get(key).is_some_and(|y| json_equal(x, y)))
        }
        _ => a == b,
    }
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
