//! Numbers as they were sent: the text of a float read from the call (`1.50`, an integer of
//! more digits than a float keeps), and why a number that a float does not keep as sent is
//! refused where it is taken (`inexact`), quoting what was sent rather than the float read.

use serde_json::{Number, Value};

use super::{convert, Mode, Path, Walker};
use crate::decimal::{self, Denotes, EXACT_FLOAT_INTEGERS};
use crate::message::{self, describe, echo};
use crate::parse::ParseOptions;
use crate::plan::{Node, NodeId, Types};

/// Is `value` an integer a 64-bit field (signed or not) can hold?
fn within_64_bits(value: i128) -> bool {
    (i128::from(i64::MIN)..=i128::from(u64::MAX)).contains(&value)
}

impl Walker<'_> {
    /// Why an integral float cannot stand for an integer here: its text does not denote an
    /// integer (`0.99999999999999999`), or one beyond 64 bits (`-9999999999999999999999`);
    /// read from no text, it is beyond the integers a float keeps exactly (2^53). `None`: it
    /// can ([`Walker::integer_as_sent`] is that integer). The text decides where there is one:
    /// `1e19` and `9007199254740993.0` are the integers they denote, though a float keeps the
    /// first only by luck and the second not at all.
    pub(super) fn integer_problem(&self, number: &Number, path: &Path<'_>, mode: Mode) -> Option<String> {
        let float = number.as_f64().filter(|f| number.is_f64() && f.fract() == 0.0 && self.exact_integers)?;
        let named = |text: &str| {
            if mode.sensitive {
                "the value".to_owned()
            } else {
                message::shorten(text, self.max_echo)
            }
        };
        let beyond = |text: &str| {
            format!(
                "{} cannot be kept exactly as an integer; send integers as digits within 64 bits",
                named(text)
            )
        };
        match self.float_literal(number, path) {
            Some(literal) => match decimal::denotes(literal) {
                Some(Denotes::Integer(value)) if within_64_bits(value) => None,
                Some(Denotes::Fraction) => Some(format!(
                    "{} is not an integer (it has a fraction, too small for a float to keep)",
                    named(literal)
                )),
                _ => Some(beyond(literal)),
            },
            None if float.abs() > EXACT_FLOAT_INTEGERS => Some(beyond(&number.to_string())),
            None => None,
        }
    }

    /// The integer an integral float at `path` stands for (see [`Walker::integer_problem`],
    /// which must find none): the one its text denotes, or, read from no text, the float's.
    pub(super) fn integer_as_sent(&self, number: &Number, path: &Path<'_>) -> Option<Number> {
        match self.float_literal(number, path).and_then(decimal::denotes) {
            Some(Denotes::Integer(value)) => i64::try_from(value)
                .map(Number::from)
                .or_else(|_| u64::try_from(value).map(Number::from))
                .ok(),
            _ => convert::integer_from_float(number),
        }
    }

    /// The text a float at `path` was sent as (`1.50`, `12345678901234567890123`), when the
    /// value was parsed from text and the float is there (a coercion may have put another).
    pub(crate) fn float_literal(&self, number: &Number, path: &Path<'_>) -> Option<&str> {
        if !number.is_f64() {
            return None;
        }
        let text = self.raw_text?;
        let floats = self.floats.get_or_init(|| {
            let options =
                ParseOptions { max_bytes: usize::MAX, max_depth: self.max_depth, ..ParseOptions::default() };
            // By pointer: every coercion of a number to a string looks its text up.
            crate::parse::one_shot::float_literals(text, &options).into_iter().collect()
        });
        let literal = floats.get(&path.pointer())?;
        // The float read from that text, not one a coercion wrote there.
        (crate::parse::lexer::numbers::json_number(literal).as_ref() == Some(number))
            .then_some(literal.as_str())
    }

    /// The text of a number as sent (`1.50` stays `1.50`): what a number becomes where a
    /// string is declared.
    pub(crate) fn number_as_sent(&self, number: &Number, path: &Path<'_>) -> String {
        match self.float_literal(number, path) {
            Some(literal) => literal.to_owned(),
            None => number.to_string(),
        }
    }

    /// `value` as messages, errors and records quote it: a number as sent (`1.50`, the 22
    /// digits of a number beyond 64 bits, never its rounded float), anything else by [`echo`].
    pub(super) fn echo_at(&self, value: &Value, path: &Path<'_>) -> String {
        match value {
            Value::Number(number) => message::shorten_owned(self.number_as_sent(number, path), self.max_echo),
            other => echo(other, self.max_echo),
        }
    }

    /// [`describe`] of the value at `path`, a number shown as sent (see [`Self::echo_at`]).
    pub(crate) fn describe_at(&self, value: &Value, shown: bool, path: &Path<'_>) -> String {
        match value {
            Value::Number(_) if shown => self.echo_at(value, path),
            other => describe(other, shown, self.max_echo),
        }
    }

    /// An integer written with more digits than a float keeps (`12345678901234567890123`,
    /// beyond 64 bits, read as `1.2345678901234568e22`): its text as sent, and the float it
    /// was read as. `None`: it is kept as sent, or is a float written as one (`1e30`, `2.5`),
    /// which JSON reads as the nearest float.
    pub(crate) fn digits_lost(&self, number: &Number, path: &Path<'_>) -> Option<(&str, f64)> {
        let float = number.as_f64().filter(|f| number.is_f64() && f.fract() == 0.0)?;
        if float.abs() < EXACT_FLOAT_INTEGERS {
            return None;
        }
        let literal = self.float_literal(number, path)?;
        decimal::integer_text_rounded(literal, float).then_some((literal, float))
    }

    /// Does a subschema that `node`, of no type of its own, applies to the number `value`
    /// say what its lost digits are, in its own terms: a `$ref`, an `allOf` or a union
    /// (which always take the value through a subschema), or the branch of an `if` that
    /// applies to it? Said at `node` as well, the error came twice, telling a string to a
    /// union that takes none.
    pub(crate) fn digits_said_below(
        &self,
        node: &Node,
        number: &Number,
        path: &Path<'_>,
        depth: usize,
        hops: usize,
    ) -> bool {
        if node.types.is_some() {
            return false;
        }
        if says_through_subschemas(node) {
            return true;
        }
        let value = Value::Number(number.clone());
        node.keywords.iter().any(|keyword| match keyword {
            crate::keywords::Keyword::Conditional(conditional) => {
                self.conditional_applies(conditional, &value, path, depth, hops)
            }
            _ => false,
        })
    }

    /// Why a number where no integer is declared cannot be kept ([`Walker::digits_lost`]),
    /// said at `id` unless a subschema says it ([`Walker::digits_said_below`]), quoting the
    /// text as sent rather than passing it on changed.
    ///
    /// What to send instead: the digits as a string where `id` takes them so, else the
    /// number a float keeps (`1.2345678901234568e22`), which the model may choose to send.
    pub(super) fn digits_problem(
        &self,
        id: NodeId,
        number: &Number,
        path: &Path<'_>,
        mode: Mode,
        depth: usize,
        hops: usize,
    ) -> Option<String> {
        let (literal, float) = self.digits_lost(number, path)?;
        let node = &self.plan.nodes[id];
        if self.digits_said_below(node, number, path, depth, hops) {
            return None;
        }
        let named =
            if mode.sensitive { "the value".to_owned() } else { message::shorten(literal, self.max_echo) };
        let as_string = Value::String(literal.to_owned());
        let instead = if node.types.is_none_or(|types| types.contains(Types::STRING))
            && self.accepts_exact(id, &as_string, path, depth)
        {
            "send it as a string".to_owned()
        } else {
            format!("send a number a float keeps, such as {float:e}")
        };
        Some(format!(
            "{named} has more digits than a number keeps exactly (integers within 64 bits); {instead}"
        ))
    }

    /// Why a string where a number is declared is not coerced, when it is an integer that
    /// cannot be kept (`"-99999999999999999999999"`): said, rather than "expected an integer".
    pub(super) fn string_integer_problem(&self, types: Types, value: &Value, mode: Mode) -> Option<String> {
        let text = value.as_str().filter(|_| mode.policy.coerces())?;
        let text = if mode.policy.lenient() { text.trim() } else { text };
        let named = || if mode.sensitive { "the value".to_owned() } else { echo(value, self.max_echo) };
        if types.integer_only() {
            match decimal::denotes(text)? {
                Denotes::Integer(v) if i64::try_from(v).is_err() && u64::try_from(v).is_err() => {}
                Denotes::Huge => {}
                _ => return None,
            }
            return Some(format!(
                "{} is an integer that cannot be kept exactly; integers are 64 bits at most",
                named()
            ));
        }
        let number = convert::number_from_text(text).filter(|_| types.contains(Types::NUMBER))?;
        let float = number.as_f64().filter(|_| number.is_f64())?;
        decimal::integer_text_rounded(text, float).then(|| {
            format!("{} has more digits than a number keeps exactly (integers within 64 bits)", named())
        })
    }
}

/// Does the walk of `node` always walk any value through a subschema too: a `$ref` (or
/// `$dynamicRef`), an `allOf`, an `anyOf` or `oneOf` (a branch takes the value, or the
/// union refuses it)? Not `not`; an `if` only for the values its branch applies to (see
/// [`Walker::digits_said_below`]).
fn says_through_subschemas(node: &Node) -> bool {
    node.reference.is_some()
        || node.dynamic.is_some()
        || !node.all_of.is_empty()
        || !node.any_of.is_empty()
        || !node.one_of.is_empty()
}
