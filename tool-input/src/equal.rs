//! JSON equality as JSON Schema defines it: numbers by mathematical value (`1 == 1.0`),
//! objects regardless of key order; and a hash that agrees with it ([`hash_json`]).

use std::cmp::Ordering;
use std::collections::hash_map::RandomState;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hash, Hasher};
use std::sync::OnceLock;

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
        Value::String(text) => hash_string(text, state),
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

/// A string as [`hash_json`] hashes it (so a text is looked up without making a `Value` of it).
fn hash_string(text: &str, state: &mut impl Hasher) {
    state.write_u8(3);
    text.hash(state);
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

/// Lists up to this long are searched one value after another: fewer comparisons than
/// hashing the value sought would cost.
const SCANNED: usize = 16;

/// Where each value of a list (an `enum`, the constants of a union) is, by [`hash_json`]:
/// finding a value among many costs about one comparison, not one per value, and building
/// the list without repeats costs a hash per value, not a comparison per pair (a schema of
/// 100,000 constants compiled in minutes). Keyed by a [`RandomState`] of its own, so no
/// value can be made to collide on purpose. A short list (most of them) is not indexed, and
/// costs its holder one pointer.
#[derive(Debug, Clone, Default)]
pub(crate) struct ValueIndex(Option<Box<Indexed>>);

#[derive(Debug, Clone, Default)]
struct Indexed {
    state: RandomState,
    /// The positions of the values of each hash.
    slots: HashMap<u64, Vec<u32>>,
    /// The positions of the string values by another key (their spelling in lowercase, for
    /// a value sent in another letter case), built on first need; one table per way of
    /// keying them (see [`ValueIndex::keyed`]).
    keyed: [OnceLock<HashMap<String, Vec<u32>>>; 2],
}

impl Indexed {
    fn hash(&self, value: &Value) -> u64 {
        let mut state = self.state.build_hasher();
        hash_json(value, &self.state, &mut state);
        state.finish()
    }

    fn add(&mut self, values: &[Value], position: usize) {
        let hash = self.hash(&values[position]);
        self.slots.entry(hash).or_default().push(position as u32);
        self.keyed = Default::default();
    }
}

/// An index says nothing of its own: what holds one compares by the values it indexes.
impl PartialEq for ValueIndex {
    fn eq(&self, _: &ValueIndex) -> bool {
        true
    }
}

impl ValueIndex {
    /// The first position of a value of `values` (the list this index was built for)
    /// [`json_equal`] to `value`.
    #[inline]
    pub fn position(&self, values: &[Value], value: &Value) -> Option<usize> {
        match &self.0 {
            None => values.iter().position(|option| json_equal(option, value)),
            Some(indexed) => indexed
                .slots
                .get(&indexed.hash(value))?
                .iter()
                .map(|&position| position as usize)
                .find(|&position| values.get(position).is_some_and(|option| json_equal(option, value))),
        }
    }

    /// The first position of the string `text` among `values` (see [`ValueIndex::position`]).
    #[inline]
    pub fn position_of_text(&self, values: &[Value], text: &str) -> Option<usize> {
        let is_text = |option: &Value| option.as_str() == Some(text);
        match &self.0 {
            None => values.iter().position(is_text),
            Some(indexed) => {
                let mut state = indexed.state.build_hasher();
                hash_string(text, &mut state);
                indexed
                    .slots
                    .get(&state.finish())?
                    .iter()
                    .map(|&position| position as usize)
                    .find(|&position| values.get(position).is_some_and(is_text))
            }
        }
    }

    /// Is the list long enough to be indexed (see [`ValueIndex::keyed`])?
    pub fn is_indexed(&self) -> bool {
        self.0.is_some()
    }

    /// The positions of the string values of `values` by `key` (table `which` of two, for
    /// two ways of keying), built once; `None` for a list too short to index.
    pub fn keyed(
        &self,
        which: usize,
        values: &[Value],
        key: impl Fn(&str) -> String,
    ) -> Option<&HashMap<String, Vec<u32>>> {
        let table = self.0.as_ref()?.keyed.get(which)?;
        Some(table.get_or_init(|| {
            let mut keyed: HashMap<String, Vec<u32>> = HashMap::new();
            for (position, value) in values.iter().enumerate() {
                if let Value::String(text) = value {
                    keyed.entry(key(text)).or_default().push(position as u32);
                }
            }
            keyed
        }))
    }

    /// Append `value` to `values` unless an equal one is there already (then `false`),
    /// keeping the index.
    pub fn push_new(&mut self, values: &mut Vec<Value>, value: Value) -> bool {
        if self.position(values, &value).is_some() {
            return false;
        }
        values.push(value);
        match &mut self.0 {
            Some(indexed) => indexed.add(values, values.len() - 1),
            None if values.len() > SCANNED => {
                let mut indexed = Box::<Indexed>::default();
                (0..values.len()).for_each(|position| indexed.add(values, position));
                self.0 = Some(indexed);
            }
            None => {}
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Short and long lists alike: the index finds what a scan in order finds, keeps each
    /// value once, and finds strings by their text.
    #[test]
    fn a_value_index_finds_what_a_scan_finds() {
        let pool = |n: usize| -> Vec<Value> {
            (0..n)
                .map(|i| match i % 5 {
                    0 => json!(i),
                    1 => json!(format!("s{i}")),
                    2 => json!({"a": i, "b": [i, "x"]}),
                    3 => json!(i as f64 + 0.5),
                    _ => json!([i, {"k": i}]),
                })
                .collect()
        };
        for n in [3, 16, 17, 40, 500] {
            let mut values = Vec::new();
            let mut index = ValueIndex::default();
            for value in pool(n) {
                assert!(index.push_new(&mut values, value));
            }
            // Equal values spelled apart are found, and not kept twice.
            for (sent, at) in [(json!(0.0), 0), (json!({"b": [7.0, "x"], "a": 7}), 7), (json!(5.0), 5)] {
                if at < n {
                    assert_eq!(index.position(&values, &sent), Some(at), "{n} {sent}");
                    assert!(!index.push_new(&mut values, sent), "{n}");
                }
            }
            for (at, value) in values.iter().enumerate() {
                assert_eq!(index.position(&values, value), Some(at), "{n} {value}");
                if let Value::String(text) = value {
                    assert_eq!(index.position_of_text(&values, text), Some(at), "{n} {text}");
                }
            }
            for absent in [json!("s2"), json!(0.25), json!({"a": 2}), json!(null), json!(true)] {
                assert_eq!(index.position(&values, &absent), None, "{n} {absent}");
            }
            assert_eq!(index.position_of_text(&values, "s2"), None);
            assert_eq!(values.len(), n);
            // Only a long list is keyed, each table once.
            let keyed = index.keyed(0, &values, str::to_uppercase);
            assert_eq!(keyed.is_some(), n > SCANNED, "{n}");
            if let Some(keyed) = keyed {
                assert_eq!(keyed.get("S1"), Some(&vec![1]));
            }
        }
    }

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
