//! Each keyword's test, written once. The walk (`check::mod`) asks what a value breaks and
//! explains it (an error with its message and options); the one pass (`check::fast`) asks
//! only whether it breaks anything, and abandons the call to the walk if so. Nothing here
//! builds an error or allocates (but `multipleOf` on a float, which reads its decimal form).

use std::cmp::Ordering;
use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;

use serde_json::{Number, Value};

use crate::equal::{as_i128, compare, hash_json, json_equal};
use crate::pattern::{OverBudget, Pattern};
use crate::plan::{Node, NodeId, Types};

/// A number keyword that a number breaks, with its bound.
#[derive(Debug, Clone, Copy)]
pub(crate) enum NumberBreak<'n> {
    Minimum(&'n Number),
    Maximum(&'n Number),
    ExclusiveMinimum(&'n Number),
    ExclusiveMaximum(&'n Number),
    MultipleOf(f64),
}

/// The number keywords of `node` that `number` breaks, in the walk's order (`minimum`,
/// `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`); lazily, so asking for
/// the first stops there.
pub(crate) fn number_breaks<'n>(
    node: &'n Node,
    number: &'n Number,
) -> impl Iterator<Item = NumberBreak<'n>> + 'n {
    (0..5).filter_map(move |keyword| match keyword {
        0 => node.minimum.as_ref().filter(|b| compare(number, b) == Ordering::Less).map(NumberBreak::Minimum),
        1 => node
            .maximum
            .as_ref()
            .filter(|b| compare(number, b) == Ordering::Greater)
            .map(NumberBreak::Maximum),
        2 => node
            .exclusive_minimum
            .as_ref()
            .filter(|b| compare(number, b) != Ordering::Greater)
            .map(NumberBreak::ExclusiveMinimum),
        3 => node
            .exclusive_maximum
            .as_ref()
            .filter(|b| compare(number, b) != Ordering::Less)
            .map(NumberBreak::ExclusiveMaximum),
        _ => node.multiple_of.filter(|&m| !is_multiple_of(number, m)).map(NumberBreak::MultipleOf),
    })
}

/// Does `number` keep every number keyword of `node`?
pub(crate) fn number_admitted(node: &Node, number: &Number) -> bool {
    number_breaks(node, number).next().is_none()
}

/// A count of characters, items or properties against its `min*`/`max*` keywords.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Bounds {
    pub min: Option<u64>,
    pub max: Option<u64>,
}

impl Bounds {
    /// `minLength`/`maxLength`.
    pub fn length(node: &Node) -> Bounds {
        Bounds { min: node.min_length, max: node.max_length }
    }

    /// `minItems`/`maxItems`.
    pub fn items(node: &Node) -> Bounds {
        Bounds { min: node.min_items, max: node.max_items }
    }

    /// `minProperties`/`maxProperties`.
    pub fn properties(node: &Node) -> Bounds {
        Bounds { min: node.min_properties, max: node.max_properties }
    }

    pub fn is_none(self) -> bool {
        self.min.is_none() && self.max.is_none()
    }

    /// The minimum `count` is below, if any.
    pub fn broken_min(self, count: u64) -> Option<u64> {
        self.min.filter(|&min| count < min)
    }

    /// The maximum `count` is above, if any.
    pub fn broken_max(self, count: u64) -> Option<u64> {
        self.max.filter(|&max| count > max)
    }

    pub fn admit(self, count: u64) -> bool {
        self.broken_min(count).is_none() && self.broken_max(count).is_none()
    }
}

/// The length `minLength`/`maxLength` count (characters, that is code points, not bytes),
/// when `node` bounds it; `None` when it does not, without counting.
pub(crate) fn string_length(node: &Node, text: &str) -> Option<u64> {
    (!Bounds::length(node).is_none()).then(|| text.chars().count() as u64)
}

/// Does `node` itself (not its applicators) accept the string `text`: its type, `enum`,
/// `const`, lengths, `pattern` and string keywords (`format`)?
pub(crate) fn string_admitted(node: &Node, text: &str) -> bool {
    let is_text = |option: &Value| option.as_str() == Some(text);
    node.types.is_none_or(|t| t.contains(Types::STRING))
        && enum_refuses_text(node, text).is_none()
        && const_refuses(node, is_text).is_none()
        && length_admitted(node, text)
        && node.pattern.as_ref().is_none_or(|pattern| pattern.is_match(text))
        && node.keywords.iter().all(|keyword| keyword.str_admits(text) == Some(true))
}

/// Does the string keep `minLength`/`maxLength`?
pub(crate) fn length_admitted(node: &Node, text: &str) -> bool {
    string_length(node, text).is_none_or(|length| Bounds::length(node).admit(length))
}

/// What `pattern` says of a string.
pub(crate) enum PatternBreak<'n> {
    /// The string does not match it.
    Mismatch(&'n Pattern),
    /// It could not be checked within its budget (see `pattern`).
    OverBudget(&'n Pattern),
}

/// Does the string match the node's `pattern` (if any)?
pub(crate) fn pattern_break<'n>(node: &'n Node, text: &str) -> Option<PatternBreak<'n>> {
    let pattern = node.pattern.as_ref()?;
    match pattern.matches(text) {
        Ok(true) => None,
        Ok(false) => Some(PatternBreak::Mismatch(pattern)),
        Err(OverBudget) => Some(PatternBreak::OverBudget(pattern)),
    }
}

/// `enum`: its options, when `value` is none of them.
#[inline]
pub(crate) fn enum_refuses<'n>(node: &'n Node, value: &Value) -> Option<&'n [Value]> {
    let options = node.enum_values.as_deref()?;
    node.enum_index.position(options, value).is_none().then_some(options)
}

/// `enum`: its options, when the string `text` is none of them.
#[inline]
pub(crate) fn enum_refuses_text<'n>(node: &'n Node, text: &str) -> Option<&'n [Value]> {
    let options = node.enum_values.as_deref()?;
    node.enum_index.position_of_text(options, text).is_none().then_some(options)
}

/// `const`: the constant, when the value (`equal` says if it is that) is not it.
pub(crate) fn const_refuses(node: &Node, equal: impl Fn(&Value) -> bool) -> Option<&Value> {
    node.const_value.as_ref().filter(|constant| !equal(constant))
}

/// Is the value an integral float where only integers are declared? JSON Schema takes it as
/// an integer, but serde does not: the walk writes `3.0` as `3` (and records it), so the one
/// pass, which changes nothing, leaves such a value to the walk.
pub(crate) fn integral_float_rewritten(types: Types, value: &Value) -> bool {
    types.integer_only() && value.as_number().is_some_and(|n| !(n.is_i64() || n.is_u64()))
}

/// The schema of an array's item at `index`: its `prefixItems` entry, else `items`.
pub(crate) fn item_schema(node: &Node, index: usize) -> Option<NodeId> {
    node.prefix_items.get(index).copied().or(node.items)
}

/// Arrays up to this many items are checked for `uniqueItems` pair by pair: fewer
/// comparisons than hashing every item would cost.
const PAIRWISE_UNIQUE: usize = 16;

/// `uniqueItems`: the first two equal items, as a scan of every pair in order finds them
/// (the least first index, then the least second), or `None` when every item is unique.
///
/// Not by that scan (an array of 40,000 distinct items is 800 million pairs) but in the time
/// of a sort: the items are hashed alike when [`json_equal`] calls them equal ([`hash_json`],
/// with a key drawn for each call, so that no input can be made to collide), sorted by hash,
/// and only the items of one hash are compared.
pub(crate) fn first_equal_items(items: &[Value]) -> Option<(usize, usize)> {
    if items.len() <= PAIRWISE_UNIQUE {
        return (0..items.len())
            .find_map(|i| (i + 1..items.len()).find(|&j| json_equal(&items[i], &items[j])).map(|j| (i, j)));
    }
    let build = RandomState::new();
    let mut hashed: Vec<(u64, usize)> = items
        .iter()
        .enumerate()
        .map(|(index, item)| {
            let mut state = build.build_hasher();
            hash_json(item, &build, &mut state);
            (std::hash::Hasher::finish(&state), index)
        })
        .collect();
    hashed.sort_unstable();
    let mut first: Option<(usize, usize)> = None;
    // Within one hash (indices ascending), each item against the first item of each set of
    // equal items seen so far: the first two of a set are its pair.
    let mut sets: Vec<(usize, Option<usize>)> = Vec::new();
    for group in hashed.chunk_by(|a, b| a.0 == b.0) {
        if group.len() < 2 {
            continue;
        }
        sets.clear();
        for &(_, index) in group {
            match sets.iter_mut().find(|(head, _)| json_equal(&items[*head], &items[index])) {
                Some((_, second @ None)) => *second = Some(index),
                Some(_) => {}
                None => sets.push((index, None)),
            }
        }
        for &(head, second) in &sets {
            if let Some(second) = second {
                if first.is_none_or(|(i, _)| head < i) {
                    first = Some((head, second));
                }
            }
        }
    }
    first
}

/// Which declared properties an object sent, for `required`, defaults and duplicate keys:
/// bits on the stack for the usual object, a vector past 64 properties.
#[derive(Clone)]
pub(crate) enum Sent {
    Small(u64),
    Large(Vec<bool>),
}

impl Sent {
    /// For an object of `declared` properties.
    #[inline]
    pub fn new(declared: usize) -> Self {
        if declared <= 64 {
            Sent::Small(0)
        } else {
            Sent::Large(vec![false; declared])
        }
    }

    /// Mark property `index` as sent; `false` when it already was.
    #[inline]
    pub fn insert(&mut self, index: usize) -> bool {
        match self {
            Sent::Small(bits) => {
                let fresh = *bits & (1 << index) == 0;
                *bits |= 1 << index;
                fresh
            }
            Sent::Large(flags) => !std::mem::replace(&mut flags[index], true),
        }
    }

    pub fn contains(&self, index: usize) -> bool {
        match self {
            Sent::Small(bits) => *bits & (1 << index) != 0,
            Sent::Large(flags) => flags[index],
        }
    }

    /// How many declared properties were sent.
    pub fn count(&self) -> usize {
        match self {
            Sent::Small(bits) => bits.count_ones() as usize,
            Sent::Large(flags) => flags.iter().filter(|&&sent| sent).count(),
        }
    }

    /// The declared required properties of `node` not sent, by index, in `required` order.
    pub fn missing<'n>(&'n self, node: &'n Node) -> impl Iterator<Item = usize> + 'n {
        node.required_declared.iter().copied().filter(|&index| !self.contains(index))
    }

    /// Were all declared required properties sent? `mask` is their bits when the object has
    /// at most 64 properties (see `plan::fast`): one comparison.
    #[inline]
    pub fn all_required(&self, node: &Node, mask: u64) -> bool {
        match self {
            Sent::Small(bits) => bits & mask == mask,
            Sent::Large(_) => self.missing(node).next().is_none(),
        }
    }
}

/// The properties of `node` with a `default` that are absent (`present` says, by index),
/// with their names: the defaults to fill, in schema order.
pub(crate) fn absent_defaults(
    node: &Node,
    present: impl Fn(usize, &str) -> bool,
) -> impl Iterator<Item = (&str, &Value)> {
    node.defaults.iter().filter_map(move |(index, default)| {
        let name = node.properties[*index].0.as_str();
        (!present(*index, name)).then_some((name, default))
    })
}

/// Is `number` a multiple of `multiple`?
pub(crate) fn is_multiple_of(number: &Number, multiple: f64) -> bool {
    // Exactly, in decimal: JSON numbers are decimals, and a float quotient loses the
    // fraction of large numbers (-7321913730361748572 / 1.5 looks integral as an f64) or
    // overflows (1e308 / 0.5 is infinite, yet every integer is a multiple of 0.5).
    let value = match as_i128(number) {
        Some(n) => Some(Decimal { digits: n.unsigned_abs(), exponent: 0 }),
        None => number.as_f64().and_then(Decimal::of),
    };
    match (value, Decimal::of(multiple)) {
        (Some(value), Some(multiple)) => value.is_multiple_of(multiple),
        _ => false,
    }
}

/// A finite number as `digits × 10^exponent`, its sign dropped (a sign changes no
/// divisibility).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Decimal {
    digits: u128,
    exponent: i32,
}

impl Decimal {
    /// A finite float as its shortest round-trip decimal form says it (what the JSON text
    /// said): at most 17 digits.
    fn of(float: f64) -> Option<Decimal> {
        if !float.is_finite() {
            return None;
        }
        let text = format!("{:e}", float.abs());
        let (mantissa, exponent) = text.split_once('e')?;
        let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let digits: u128 = format!("{whole}{fraction}").parse().ok()?;
        let exponent = exponent.parse::<i32>().ok()?.checked_sub(i32::try_from(fraction.len()).ok()?)?;
        Some(Decimal { digits, exponent })
    }

    /// Is `self` an integer multiple of `of`? With `self = a × 10^e` and `of = b × 10^f`,
    /// the quotient is `a / b × 10^(e - f)`.
    fn is_multiple_of(self, of: Decimal) -> bool {
        let (a, b) = (self.digits, of.digits);
        if b == 0 {
            return false;
        }
        if a == 0 {
            return true;
        }
        let shift = i64::from(self.exponent) - i64::from(of.exponent);
        match u32::try_from(shift) {
            // `a × 10^shift` divisible by `b`, in residues: `b` (a float's digits) is below
            // 10^17, so a product of two residues fits a `u128`.
            Ok(shift) => ((a % b) * power_of_ten_modulo(shift, b)).is_multiple_of(b),
            // `a` divisible by `b × 10^-shift`; a divisor past `u128` is larger than `a`.
            Err(_) => u32::try_from(-shift)
                .ok()
                .and_then(|places| 10u128.checked_pow(places))
                .and_then(|power| power.checked_mul(b))
                .is_some_and(|divisor| a.is_multiple_of(divisor)),
        }
    }
}

/// `10^exponent mod modulus`, by squaring; `modulus` below 2^63.
fn power_of_ten_modulo(mut exponent: u32, modulus: u128) -> u128 {
    let mut result = 1 % modulus;
    let mut base = 10 % modulus;
    while exponent > 0 {
        if exponent & 1 == 1 {
            result = result * base % modulus;
        }
        base = base * base % modulus;
        exponent >>= 1;
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::Plan;
    use serde_json::json;

    fn root(schema: Value) -> Node {
        let plan = Plan::compile(&schema).expect("schema compiles");
        plan.nodes[plan.root].clone()
    }

    fn number(value: Value) -> Number {
        value.as_number().expect("a number").clone()
    }

    #[test]
    fn number_breaks_come_in_keyword_order_and_all_at_once() {
        let node = root(json!({"minimum": 10, "exclusiveMaximum": 5, "multipleOf": 4}));
        let three = number(json!(3));
        let broken: Vec<String> = number_breaks(&node, &three).map(|b| format!("{b:?}")).collect();
        assert_eq!(broken, ["Minimum(Number(10))", "MultipleOf(4.0)"]);
        assert!(!number_admitted(&node, &three));
        let node = root(json!({"minimum": 1.5, "maximum": 2, "exclusiveMinimum": 1}));
        assert!(number_admitted(&node, &number(json!(2))));
        assert!(number_admitted(&node, &number(json!(1.5))));
        assert!(!number_admitted(&node, &number(json!(1.4))));
        assert!(!number_admitted(&node, &number(json!(2.000001))));
        let exclusive = root(json!({"exclusiveMinimum": 1, "exclusiveMaximum": 3}));
        assert!(!number_admitted(&exclusive, &number(json!(1))));
        assert!(!number_admitted(&exclusive, &number(json!(3.0))));
        assert!(number_admitted(&exclusive, &number(json!(2))));
        // Integers compare exactly past 2^53.
        let big = root(json!({"maximum": 9007199254740992_u64}));
        assert!(!number_admitted(&big, &number(json!(9007199254740993_u64))));
        assert!(number_admitted(&root(json!({})), &number(json!(-1e300))));
    }

    #[test]
    fn multiples_are_exact_in_decimal() {
        assert!(is_multiple_of(&number(json!(0.0075)), 0.0001));
        assert!(!is_multiple_of(&number(json!(-7321913730361748572_i64)), 1.5));
        assert!(is_multiple_of(&number(json!(9)), 3.0));
        assert!(!is_multiple_of(&number(json!(10)), 3.0));
        // Quotients a float cannot hold: too large, or beyond the digits of an `i128`.
        assert!(is_multiple_of(&number(json!(1e308)), 0.5));
        assert!(is_multiple_of(&number(json!(-1e308)), 1e300));
        assert!(!is_multiple_of(&number(json!(1e308)), 0.123456789));
        assert!(!is_multiple_of(&number(json!(1e308)), 3.0));
        assert!(is_multiple_of(&number(json!(12391239123_u64)), 1e-8));
        assert!(is_multiple_of(&number(json!(1e-300)), 1e-301));
        assert!(!is_multiple_of(&number(json!(1e-301)), 1e-300));
        assert!(is_multiple_of(&number(json!(0.0)), 7.5));
        assert!(is_multiple_of(&number(json!(u64::MAX)), 5.0));
        assert!(!is_multiple_of(&number(json!(u64::MAX)), 2.0));
        assert!(is_multiple_of(&number(json!(i64::MIN)), 2.0));
        assert!(is_multiple_of(&number(json!(4.5)), 1.5));
        assert!(!is_multiple_of(&number(json!(0.3)), 0.2));
    }

    #[test]
    fn a_float_is_its_shortest_decimal() {
        let decimal = |f: f64| Decimal::of(f).map(|d| (d.digits, d.exponent));
        assert_eq!(decimal(0.0075), Some((75, -4)));
        assert_eq!(decimal(1e308), Some((1, 308)));
        assert_eq!(decimal(-2.5), Some((25, -1)));
        assert_eq!(decimal(0.0), Some((0, 0)));
        assert_eq!(decimal(5e-324), Some((5, -324)));
        assert_eq!(decimal(f64::MAX), Some((17976931348623157, 292)));
        assert_eq!(decimal(f64::NAN), None);
    }

    #[test]
    fn counts_break_their_minimum_and_maximum_separately() {
        let node = root(json!({"minLength": 3, "maxLength": 1}));
        let bounds = Bounds::length(&node);
        assert_eq!((bounds.broken_min(2), bounds.broken_max(2)), (Some(3), Some(1)));
        assert!(!bounds.admit(2));
        assert!(Bounds::items(&node).is_none());
        assert!(Bounds::properties(&node).admit(u64::MAX));
        // Characters, not bytes; no counting where nothing bounds the length.
        assert_eq!(string_length(&node, "héé"), Some(3));
        assert_eq!(string_length(&root(json!({})), "héé"), None);
        assert!(!length_admitted(&root(json!({"maxLength": 2})), "héé"));
        assert!(length_admitted(&root(json!({"maxLength": 3})), "héé"));
    }

    #[test]
    fn enum_const_and_pattern_report_what_refuses() {
        let node = root(json!({"enum": ["a", 1], "const": "a", "pattern": "^a$"}));
        assert_eq!(enum_refuses(&node, &json!(2)), Some(&[json!("a"), json!(1)][..]));
        assert_eq!(enum_refuses(&node, &json!(1.0)), None);
        assert_eq!(enum_refuses(&node, &json!("a")), None);
        assert_eq!(enum_refuses_text(&node, "a"), None);
        assert_eq!(enum_refuses_text(&node, "1"), Some(&[json!("a"), json!(1)][..]));
        assert_eq!(const_refuses(&node, |c| c.as_str() == Some("b")), Some(&json!("a")));
        assert_eq!(const_refuses(&node, |c| c.as_str() == Some("a")), None);
        assert!(pattern_break(&node, "a").is_none());
        assert!(matches!(pattern_break(&node, "b"), Some(PatternBreak::Mismatch(_))));
        assert!(pattern_break(&root(json!({})), "b").is_none());
    }

    #[test]
    fn integral_floats_are_rewritten_only_where_only_integers_are_declared() {
        let integer = Types::INTEGER;
        let mut number = Types::INTEGER;
        number.insert(Types::NUMBER);
        assert!(integral_float_rewritten(integer, &json!(3.0)));
        assert!(!integral_float_rewritten(integer, &json!(3)));
        assert!(!integral_float_rewritten(number, &json!(3.0)));
        assert!(!integral_float_rewritten(integer, &json!("3.0")));
    }

    #[test]
    fn items_take_their_prefix_schema_then_items() {
        let node = root(json!({"prefixItems": [{}, {}], "items": {}}));
        let (first, second, rest) = (item_schema(&node, 0), item_schema(&node, 1), item_schema(&node, 2));
        assert!(first.is_some() && second.is_some() && rest.is_some());
        assert!(first != second && second != rest && first != rest);
        assert_eq!(item_schema(&node, 99), rest);
        assert_eq!(item_schema(&root(json!({})), 0), None);
    }

    /// The bits and the vector agree: required properties by mask and by list, counts,
    /// repeated keys, for objects on both sides of 64 properties.
    #[test]
    fn sent_properties_answer_required_alike_small_and_large() {
        for declared in [3_usize, 64, 65, 130] {
            let names: Vec<String> = (0..declared).map(|i| format!("p{i:03}")).collect();
            let properties: serde_json::Map<String, Value> =
                names.iter().map(|n| (n.clone(), json!({}))).collect();
            let required = [names[0].clone(), names[declared - 1].clone(), "undeclared".to_owned()];
            let plan = Plan::compile(&json!({"properties": properties, "required": required})).unwrap();
            let node = &plan.nodes[plan.root];
            let mask = plan.fast[plan.root].required_mask;
            let mut sent = Sent::new(declared);
            assert!(!sent.all_required(node, mask));
            assert_eq!(sent.missing(node).collect::<Vec<_>>(), [0, declared - 1]);
            assert!(sent.insert(declared - 1));
            assert!(!sent.insert(declared - 1), "a repeated key is seen");
            assert_eq!(sent.missing(node).collect::<Vec<_>>(), [0]);
            assert!(!sent.all_required(node, mask), "{declared} properties");
            sent.insert(0);
            sent.insert(1);
            assert!(sent.all_required(node, mask), "{declared} properties");
            assert_eq!(sent.missing(node).count(), 0);
            assert_eq!(sent.count(), 3);
            assert!(sent.contains(1) && (declared == 3 || !sent.contains(2)));
            // The undeclared required name is for the caller (`required_other`).
            assert_eq!(node.required_other, ["undeclared"]);
        }
    }

    #[test]
    fn absent_defaults_in_schema_order() {
        let node = root(json!({
            "properties": {"a": {"default": 1}, "b": {}, "c": {"default": "x"}},
            "$defs": {}
        }));
        let all: Vec<(&str, &Value)> = absent_defaults(&node, |_, _| false).collect();
        assert_eq!(all, [("a", &json!(1)), ("c", &json!("x"))]);
        let by_name: Vec<&str> = absent_defaults(&node, |_, name| name == "a").map(|(n, _)| n).collect();
        assert_eq!(by_name, ["c"]);
        let by_index: Vec<&str> = absent_defaults(&node, |index, _| index == 2).map(|(n, _)| n).collect();
        assert_eq!(by_index, ["a"]);
    }

    /// The scan of every pair in order, which `first_equal_items` must agree with.
    fn first_pair_by_scan(items: &[Value]) -> Option<(usize, usize)> {
        (0..items.len())
            .find_map(|i| (i + 1..items.len()).find(|&j| json_equal(&items[i], &items[j])).map(|j| (i, j)))
    }

    /// Items drawn from a few values that are equal in JSON Schema's sense but spelled
    /// apart (`1`, `1.0`, `-0.0` and `0`, objects and arrays holding them).
    fn item() -> impl proptest::strategy::Strategy<Value = Value> {
        use proptest::prelude::*;
        prop::sample::select(vec![
            json!(1),
            json!(1.0),
            json!(0),
            json!(-0.0),
            json!(2.5),
            json!(9007199254740993_u64),
            json!(9007199254740992.0),
            json!("1"),
            json!(true),
            json!(null),
            json!({"a": 1, "b": [2]}),
            json!({"b": [2.0], "a": 1.0}),
            json!({"a": 1}),
            json!([1, "x"]),
            json!([1.0, "x"]),
            json!(["x", 1]),
            json!({}),
            json!([]),
        ])
    }

    proptest::proptest! {
        #[test]
        fn unique_items_finds_the_pair_a_scan_finds(
            items in proptest::collection::vec(item(), 0..60),
            distinct in 0usize..200,
        ) {
            let mut items = items;
            // Distinct items around them, so that the arrays are past the pairwise size.
            items.extend((0..distinct).map(|n| json!({"n": n})));
            let turn = distinct.min(items.len()) / 2;
            items.rotate_left(turn);
            proptest::prop_assert_eq!(first_equal_items(&items), first_pair_by_scan(&items));
        }
    }

    #[test]
    fn unique_items_on_many_items() {
        let distinct: Vec<Value> = (0..50_000).map(|n| json!([n, {"n": f64::from(n) + 0.5}])).collect();
        assert_eq!(first_equal_items(&distinct), None);
        let mut repeated = distinct.clone();
        repeated.push(json!([7, {"n": 7.5}]));
        repeated.push(json!([3.0, {"n": 3.5}]));
        assert_eq!(first_equal_items(&repeated), Some((3, 50_001)));
    }
}
