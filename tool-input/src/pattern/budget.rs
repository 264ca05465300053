//! The cost bound of a backtracking match, for the patterns only `regress` can run
//! (lookaround, back-references).
//!
//! A backtracking engine can take time exponential in the length of the string
//! (`^(?=(a+)+$)` on `aaaa…b`), and `regress` has no step limit of its own. So before a
//! search, [`Cost::steps`] bounds from above how many steps it can take on a string of
//! that many characters; past [`BUDGET`], the string is not searched and the check fails
//! with an error naming the pattern. The bound counts, for every atom, how many ways the
//! pattern before it can have matched (each a time the engine arrives at the atom):
//! concatenation multiplies those ways, alternation adds them, a repetition of a body with
//! `w` ways up to `k` times has `w⁰ + … + wᵏ`, and every extra iteration must consume a
//! character (ECMA's empty check), so `k` is at most the string's length past the minimum.
//! The bound is loose for friendly patterns and grows as fast as the real cost for hostile
//! ones, which is what it is for.

use super::ecma::Ast;

/// Most steps a search may take (a few tens of milliseconds at worst).
pub(crate) const BUDGET: f64 = 2e7;

/// A pattern's cost shape, ready to bound a search on a string of any length.
#[derive(Debug, Clone)]
pub(crate) struct Cost {
    ast: Option<Ast>,
}

impl Cost {
    /// `None`: the pattern could not be read, and is costed as the worst shape.
    pub fn new(ast: Option<Ast>) -> Cost {
        Cost { ast }
    }

    /// An upper bound of the steps of a search on a string of `chars` characters.
    pub fn steps(&self, chars: usize) -> f64 {
        let n = chars as f64;
        let starts = n + 1.0;
        match &self.ast {
            // A pattern anchored at the start is tried at the start only.
            Some(ast) if anchored(ast) => bound(ast, n).work + starts,
            Some(ast) => starts * bound(ast, n).work,
            // Unknown shape: as exponential as it gets.
            None => starts * 2f64.powf(n),
        }
    }

    /// Can a string of `chars` characters be searched within the budget?
    pub fn allows(&self, chars: usize) -> bool {
        self.steps(chars) <= BUDGET
    }
}

/// Does every match start at the start of the input (`^…`)?
fn anchored(ast: &Ast) -> bool {
    match ast {
        Ast::Start => true,
        Ast::Group(inner) => anchored(inner),
        Ast::Concat(items) => items.first().is_some_and(anchored),
        Ast::Alternation(branches) => branches.iter().all(anchored),
        _ => false,
    }
}

/// The ways a node can match from one position, and the steps spent in it per arrival.
#[derive(Debug, Clone, Copy)]
struct Bound {
    ways: f64,
    work: f64,
}

fn bound(ast: &Ast, n: f64) -> Bound {
    match ast {
        Ast::Empty | Ast::Start | Ast::End | Ast::WordBoundary(_) => Bound { ways: 1.0, work: 1.0 },
        Ast::Char(_) | Ast::Any | Ast::Class { .. } => Bound { ways: 1.0, work: 1.0 },
        // Compares up to the rest of the string.
        Ast::BackReference => Bound { ways: 1.0, work: n + 1.0 },
        // Atomic once it succeeds: one way on, after a search of its own.
        Ast::Look(inner) => Bound { ways: 1.0, work: 1.0 + bound(inner, n).work },
        Ast::Group(inner) => bound(inner, n),
        Ast::Concat(items) => {
            let (mut ways, mut work) = (1.0, 0.0);
            for item in items {
                let b = bound(item, n);
                work += ways * b.work;
                ways *= b.ways;
            }
            Bound { ways, work }
        }
        Ast::Alternation(branches) => {
            branches.iter().map(|b| bound(b, n)).fold(Bound { ways: 0.0, work: 0.0 }, |sum, b| Bound {
                ways: sum.ways + b.ways,
                work: sum.work + b.work,
            })
        }
        Ast::Repeat { inner, min, max } => {
            let body = bound(inner, n);
            let min = f64::from(*min);
            // Past the minimum, each iteration consumes a character or ends the loop.
            let top = max.map_or(min + n, |max| f64::from(max).min(min + n));
            // Σ w^i for i in 0..k, and for i in min..=top.
            let sum = |from: f64, to: f64| geometric(body.ways, to + 1.0) - geometric(body.ways, from);
            Bound { ways: sum(min, top), work: body.work * geometric(body.ways, top) }
        }
    }
}

/// `w⁰ + … + wᵏ⁻¹` (infinite when it overflows, which is past any budget).
fn geometric(w: f64, k: f64) -> f64 {
    if k <= 0.0 {
        0.0
    } else if w == 1.0 {
        k
    } else if w == 0.0 {
        1.0
    } else {
        (w.powf(k) - 1.0) / (w - 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pattern::ecma::parse;

    fn cost(source: &str) -> Cost {
        Cost::new(parse(source, true))
    }

    #[test]
    fn friendly_patterns_fit_the_budget_on_long_strings() {
        assert!(cost(r"^(?=.*[A-Z])(?=.*\d).{8,}$").allows(200));
        assert!(cost(r"^(?!\s)[a-z ]+$").allows(10_000));
        assert!(cost(r"^(\w)\1$").allows(100_000));
    }

    #[test]
    fn hostile_patterns_run_out_of_it_on_short_strings() {
        assert!(!cost(r"^(?=(a+)+$)").allows(40));
        assert!(!cost(r"(?=(a|aa)+$)").allows(60));
        assert!(!cost(r"(?=(.*a){12})").allows(200));
        assert!(!Cost::new(None).allows(30));
        // The bound grows with the string: short strings still fit.
        assert!(cost(r"^(?=(a+)+$)").allows(4));
    }
}
