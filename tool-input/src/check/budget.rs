//! How many steps one check may take: a schema that applies a definition to the same values
//! many times over at every level would otherwise take time exponential in their depth.

use std::cell::Cell;
use std::rc::Rc;

use serde_json::Value;

/// Fewest steps (a subschema applied to a value, by the walk or the exact check) a check may
/// take, whatever the value.
pub(super) const MOST_STEPS_FLOOR: u64 = 2_000_000;

/// How many steps a check may take: at least [`MOST_STEPS_FLOOR`], and four for each pair of
/// a subschema and a value in the arguments. A schema that applies each subschema to each
/// value a few times stays far below; one that applies a definition to the same property
/// several times over at every level (`allOf` of two branches that each check `child`
/// against the whole), which would take time exponential in the value's depth, runs out and
/// is answered with one error instead.
#[derive(Debug)]
pub(super) struct Budget {
    pub steps: Cell<u64>,
    pub limit: Cell<u64>,
    /// How many checks are under way (a check may start another inside it: a subschema's
    /// errors worded for a message): only the outermost starts the count afresh.
    pub checks: Cell<usize>,
}

impl Budget {
    pub fn new() -> Rc<Budget> {
        Rc::new(Budget { steps: Cell::new(0), limit: Cell::new(MOST_STEPS_FLOOR), checks: Cell::new(0) })
    }

    /// One more step: `false` once the budget is spent.
    #[inline]
    pub fn step(&self) -> bool {
        let steps = self.steps.get() + 1;
        self.steps.set(steps);
        steps <= self.limit.get()
    }

    pub fn spent(&self) -> bool {
        self.steps.get() > self.limit.get()
    }
}

/// One check under way (see [`Budget::checks`]), ended when dropped.
pub(super) struct Checking<'b>(pub &'b Budget);

impl Drop for Checking<'_> {
    fn drop(&mut self) {
        self.0.checks.set(self.0.checks.get() - 1);
    }
}

/// How many JSON values `value` holds, itself included. A scalar is counted without a
/// stack: a rejected call's errors are explained one value at a time (`check::fast::explain`),
/// and most of those values are scalars.
pub(super) fn value_count(value: &Value) -> usize {
    fn children<'v>(value: &'v Value, stack: &mut Vec<&'v Value>) {
        match value {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.values()),
            _ => {}
        }
    }
    let mut count = 1;
    let mut stack = Vec::new();
    children(value, &mut stack);
    while let Some(value) = stack.pop() {
        count += 1;
        children(value, &mut stack);
    }
    count
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::value_count;

    #[test]
    fn every_value_is_counted_once() {
        assert_eq!(value_count(&json!(1)), 1);
        assert_eq!(value_count(&json!([])), 1);
        assert_eq!(value_count(&json!({"a": [1, {"b": null}], "c": "d"})), 6);
    }
}
