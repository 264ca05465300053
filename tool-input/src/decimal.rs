//! What a number's decimal text denotes, read exactly: whether it is an integer, and which.
//!
//! A float rounds: `0.99999999999999999` reads as the `f64` `1`, and
//! `-9999999999999999999999` as `-1e22`. Whether an integer field may take a number is
//! decided here, from the text the model wrote, never from its rounded form.

/// What a decimal number's text denotes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Denotes {
    /// Exactly this integer (`3`, `3.000`, `3e2`, `-0.0`).
    Integer(i128),
    /// A number with a fraction (`0.99999999999999999`, `1e-400`).
    Fraction,
    /// An integer too large for 128 bits (far beyond any integer field).
    Huge,
}

/// Most integer digits kept exactly (beyond, an integer is [`Denotes::Huge`]).
const MAX_DIGITS: i64 = 38;

/// Read `text` as a JSON number (`-`, digits, optional fraction and exponent); `None` when it
/// is not one.
pub(crate) fn denotes(text: &str) -> Option<Denotes> {
    let bytes = text.as_bytes();
    let (negative, rest) = match bytes.split_first()? {
        (b'-', rest) => (true, rest),
        _ => (false, bytes),
    };
    let int_len = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    if int_len == 0 {
        return None;
    }
    let (int_part, mut rest) = rest.split_at(int_len);
    let mut frac_part: &[u8] = &[];
    if let Some((b'.', after)) = rest.split_first() {
        let len = after.iter().take_while(|b| b.is_ascii_digit()).count();
        if len == 0 {
            return None;
        }
        (frac_part, rest) = after.split_at(len);
    }
    let mut exponent: i64 = 0;
    if let Some((b'e' | b'E', after)) = rest.split_first() {
        let (sign, digits) = match after.split_first()? {
            (b'-', digits) => (-1, digits),
            (b'+', digits) => (1, digits),
            _ => (1, after),
        };
        if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
            return None;
        }
        // Saturating: an exponent beyond any real number's is as good as infinite.
        let magnitude =
            digits.iter().fold(0i64, |e, &d| e.saturating_mul(10).saturating_add(i64::from(d - b'0')));
        exponent = sign * magnitude.min(i64::MAX / 4);
        rest = &[];
    }
    if !rest.is_empty() {
        return None;
    }
    // value = digits × 10^(exponent − fraction length), without leading or trailing zeros.
    let digits: Vec<u8> = int_part.iter().chain(frac_part).copied().collect();
    let significant = match digits.iter().position(|&d| d != b'0') {
        None => return Some(Denotes::Integer(0)),
        Some(first) => &digits[first..],
    };
    let trailing = significant.iter().rev().take_while(|&&d| d == b'0').count();
    let significant = &significant[..significant.len() - trailing];
    let scale = exponent - frac_part.len() as i64 + trailing as i64;
    if scale < 0 {
        return Some(Denotes::Fraction);
    }
    if significant.len() as i64 + scale > MAX_DIGITS {
        return Some(Denotes::Huge);
    }
    let mut value: i128 = significant.iter().fold(0, |v, &d| v * 10 + i128::from(d - b'0'));
    for _ in 0..scale {
        value *= 10;
    }
    Some(Denotes::Integer(if negative { -value } else { value }))
}

/// The largest integer every `f64` up to which is exact: 2^53.
pub(crate) const EXACT_FLOAT_INTEGERS: f64 = 9_007_199_254_740_992.0;

/// Does the `f64` read from `text` (a JSON number) stand for exactly what `text` denotes,
/// as far as an integer field cares: a float read as an integral value is exact only when
/// the text denotes that very integer, and it is within 2^53?
pub(crate) fn integral_float_is_exact(text: &str, float: f64) -> bool {
    match denotes(text) {
        Some(Denotes::Integer(value)) => {
            float.abs() <= EXACT_FLOAT_INTEGERS && value as f64 == float && float as i128 == value
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_are_read_from_the_text() {
        for (text, expected) in [
            ("3", Denotes::Integer(3)),
            ("-3", Denotes::Integer(-3)),
            ("3.000", Denotes::Integer(3)),
            ("3e2", Denotes::Integer(300)),
            ("300e-2", Denotes::Integer(3)),
            ("-0.0", Denotes::Integer(0)),
            ("0e999999999999999999999", Denotes::Integer(0)),
            ("9007199254740993.0", Denotes::Integer(9_007_199_254_740_993)),
            ("-9999999999999999999999", Denotes::Integer(-9_999_999_999_999_999_999_999)),
            ("0.99999999999999999", Denotes::Fraction),
            ("1e-400", Denotes::Fraction),
            ("2.5", Denotes::Fraction),
            ("1e39", Denotes::Huge),
            ("1e999999999999999999999", Denotes::Huge),
        ] {
            assert_eq!(denotes(text), Some(expected), "{text}");
        }
        for text in ["", "-", "1.", ".5", "1e", "1e+", "0x10", "1_000", " 1", "1 ", "+1", "NaN"] {
            assert_eq!(denotes(text), None, "{text}");
        }
    }

    #[test]
    fn integral_floats_are_exact_only_when_the_text_says_so() {
        assert!(integral_float_is_exact("3.0", 3.0));
        assert!(integral_float_is_exact("1e3", 1000.0));
        assert!(!integral_float_is_exact("0.99999999999999999", 1.0));
        assert!(!integral_float_is_exact("9007199254740993.0", 9_007_199_254_740_992.0));
        assert!(!integral_float_is_exact("-9999999999999999999999", -1e22));
        assert!(!integral_float_is_exact("1e-400", 0.0));
    }
}
