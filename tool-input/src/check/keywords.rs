//! Each keyword's test, written once. The walk (`check::mod`) asks what a value breaks and
//! explains it (an error with its message and options); the one pass (`check::fast`) asks
//! only whether it breaks anything, and abandons the call to the walk if so. Nothing here
//! builds an error or allocates (but `multipleOf` on a float, which reads its decimal form).

use std::cmp::Ordering;

use serde_json::{Number, Value};

use super::equal::{as_i128, compare};
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

/// `enum`: its options, when the value (`equal` says which option it equals) is none of them.
pub(crate) fn enum_refuses(node: &Node, equal: impl Fn(&Value) -> bool) -> Option<&[Value]> {
    node.enum_values.as_deref().filter(|options| !options.iter().any(equal))
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

/// Which declared properties an object sent, for `required`, defaults and duplicate keys:
/// bits on the stack for the usual object, a vector past 64 properties.
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
    // fraction of large numbers (-7321913730361748572 / 1.5 looks integral as an f64).
    let value = match as_i128(number) {
        Some(n) => Some((n, 0)),
        None => number.as_f64().and_then(decimal),
    };
    if let (Some((a, p)), Some((b, q))) = (value, decimal(multiple)) {
        // value = a / 10^p, multiple = b / 10^q: a multiple when a * 10^q is divisible by
        // b * 10^p.
        let scaled = 10i128.checked_pow(q).and_then(|f| a.checked_mul(f));
        let divisor = 10i128.checked_pow(p).and_then(|f| b.checked_mul(f));
        if let (Some(scaled), Some(divisor)) = (scaled, divisor) {
            return divisor != 0 && scaled % divisor == 0;
        }
    }
    let Some(n) = number.as_f64() else { return false };
    let quotient = n / multiple;
    if !quotient.is_finite() {
        return false;
    }
    // Out of exact range: floating-point division is inexact (0.0075 / 0.0001 =
    // 75.00000000000001), so accept quotients within a relative epsilon of an integer.
    (quotient - quotient.round()).abs() <= 1e-9 * quotient.abs().max(1.0)
}

/// A finite float as `digits / 10^scale`, from its shortest round-trip decimal form (what
/// the JSON text said), when the digits fit an `i128`.
fn decimal(float: f64) -> Option<(i128, u32)> {
    if !float.is_finite() {
        return None;
    }
    let text = format!("{}", float.abs());
    let (whole, fraction) = text.split_once('.').unwrap_or((&text, ""));
    let digits: i128 = format!("{whole}{fraction}").parse().ok()?;
    let scale = u32::try_from(fraction.len()).ok()?;
    Some((if float < 0.0 { -digits } else { digits }, scale))
}
