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
    // The digits, read where they are (a coerced string's digits allocate nothing).
    let digits = || int_part.iter().chain(frac_part).copied();
    let count = int_part.len() + frac_part.len();
    let leading = digits().take_while(|&d| d == b'0').count();
    if leading == count {
        return Some(Denotes::Integer(0));
    }
    let trailing = digits().rev().take_while(|&d| d == b'0').count();
    let significant_len = count - leading - trailing;
    let scale = exponent - frac_part.len() as i64 + trailing as i64;
    if scale < 0 {
        return Some(Denotes::Fraction);
    }
    if significant_len as i64 + scale > MAX_DIGITS {
        return Some(Denotes::Huge);
    }
    let mut value: i128 =
        digits().skip(leading).take(significant_len).fold(0, |v, d| v * 10 + i128::from(d - b'0'));
    for _ in 0..scale {
        value *= 10;
    }
    Some(Denotes::Integer(if negative { -value } else { value }))
}

/// The largest integer every `f64` up to which is exact: 2^53.
pub(crate) const EXACT_FLOAT_INTEGERS: f64 = 9_007_199_254_740_992.0;

/// Is `text` an integer written out (digits, perhaps a fraction of zeros:
/// `9007199254740993`, `12345678901234567890123.0`) that `float`, the nearest float JSON
/// reads from it, is not? Beyond 2^53 a float keeps only some integers: `2^60` written out
/// is one, `2^53 + 1` (read as `2^53`) is not, and neither is any integer past `i128`. A
/// float written as one (`1e30`, `2.5`) is read as the nearest float, as JSON says: not this.
pub(crate) fn integer_text_rounded(text: &str, float: f64) -> bool {
    if float.fract() != 0.0 || float.abs() < EXACT_FLOAT_INTEGERS {
        return false;
    }
    let digits = text.strip_prefix('-').unwrap_or(text);
    let (whole, zeros) = digits.split_once('.').unwrap_or((digits, ""));
    let integral =
        !whole.is_empty() && whole.bytes().all(|b| b.is_ascii_digit()) && zeros.bytes().all(|b| b == b'0');
    let held = match denotes(text) {
        Some(Denotes::Integer(value)) => float.abs() < 1.7e38 && float as i128 == value,
        _ => false,
    };
    integral && !held
}

/// Could `serde_json`, built without its `float_roundtrip` feature, read a float of JSON
/// `text` one unit in the last place off (`977765.4534335453` as `…452`)? That build reads a
/// number's digits as an integer significand and scales it by a power of ten: the result is
/// correctly rounded when the significand is at most 2^53 and the power at most 10^22 (both
/// then exact, and one operation rounds once), and may be off otherwise. A text for which this
/// says `false` reads the same whatever the features; one for which it says `true` is read
/// by the library's own parser instead (`str::parse::<f64>`, correctly rounded). Digits in
/// strings are skipped; a conservative answer (`true`) only costs the slower read.
pub(crate) fn serde_json_may_misread(text: &[u8]) -> bool {
    let mut i = 0;
    while let Some(&b) = text.get(i) {
        match b {
            b'"' => i = after_string(text, i + 1),
            b'-' | b'0'..=b'9' => {
                let (end, risky) = number_token(text, i);
                if risky {
                    return true;
                }
                i = end.max(i + 1);
            }
            _ => i += 1,
        }
    }
    false
}

/// The index after the closing quote of the string whose content starts at `from` (the text's
/// end when it has none). Strings are most of a call's bytes: `memchr` finds the next quote or
/// backslash a word at a time, where a byte loop cost this scan most of its instructions.
fn after_string(text: &[u8], mut from: usize) -> usize {
    while let Some(rest) = text.get(from..) {
        match memchr::memchr2(b'"', b'\\', rest) {
            // A backslash escapes the byte after it.
            Some(at) if rest[at] == b'\\' => from += at + 2,
            Some(at) => return from + at + 1,
            None => break,
        }
    }
    text.len()
}

/// The end of the number token at `start`, and whether `serde_json` without
/// `float_roundtrip` may misread it (see [`serde_json_may_misread`]).
fn number_token(text: &[u8], start: usize) -> (usize, bool) {
    let digits_from = |mut i: usize| {
        while text.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        i
    };
    let int_start = if text.get(start) == Some(&b'-') { start + 1 } else { start };
    let int_end = digits_from(int_start);
    let (frac_start, frac_end) = if text.get(int_end) == Some(&b'.') {
        (int_end + 1, digits_from(int_end + 1))
    } else {
        (int_end, int_end)
    };
    let mut end = frac_end;
    let mut exponent: i64 = 0;
    let float = frac_end > int_end || matches!(text.get(frac_end), Some(b'e' | b'E'));
    if matches!(text.get(frac_end), Some(b'e' | b'E')) {
        let mut i = frac_end + 1;
        let negative = text.get(i) == Some(&b'-');
        if matches!(text.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let exp_end = digits_from(i);
        for &d in text.get(i..exp_end).unwrap_or_default() {
            exponent = exponent.saturating_mul(10).saturating_add(i64::from(d - b'0'));
        }
        if negative {
            exponent = -exponent;
        }
        end = exp_end;
    }
    let int_digits = text.get(int_start..int_end).unwrap_or_default();
    let frac_digits = text.get(frac_start..frac_end).unwrap_or_default();
    // The significand serde_json builds: every digit but the leading zeros.
    let mut significand: u64 = 0;
    let mut overflow = false;
    for &d in int_digits.iter().chain(frac_digits).skip_while(|&&d| d == b'0') {
        match significand.checked_mul(10).and_then(|s| s.checked_add(u64::from(d - b'0'))) {
            Some(next) => significand = next,
            None => overflow = true,
        }
    }
    // An integer beyond 64 bits is read as a float too.
    let float = float || overflow;
    let exponent = exponent.saturating_sub(frac_digits.len() as i64);
    let risky = float && (overflow || significand > 1 << 53 || !(-22..=22).contains(&exponent));
    (end, risky && significand != 0)
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
    fn floats_serde_json_may_misread_are_found() {
        for text in [
            "977765.4534335453",
            "[1, {\"x\": 0.1000000000000000055511151231257827}]",
            "1.5e-30",
            "2e23",
            "12345678901234567890123",
            "-9007199254740993.0",
            // An escaped backslash ends before the quote that closes its string.
            "{\"s\": \"a\\\\\", \"n\": 977765.4534335453}",
        ] {
            assert!(serde_json_may_misread(text.as_bytes()), "{text}");
        }
        for text in [
            "{\"a\": 1.5, \"b\": -0.25, \"c\": 1e22, \"d\": 123456789012345678}",
            "{\"id\": \"977765.4534335453\", \"n\": 3}",
            "{\"s\": \"\\\"1.23456789012345678\"}",
            "[0.0000000000000000000000, 0e999, 9007199254740992, 18446744073709551615]",
            // A string never closed holds every digit after its quote.
            "{\"s\": \"977765.4534335453",
            "{\"s\": \"\\",
        ] {
            assert!(!serde_json_may_misread(text.as_bytes()), "{text}");
        }
    }

    #[test]
    fn an_integral_float_denotes_the_integer_its_text_says() {
        // The text decides, not the float read from it.
        assert_eq!(denotes("3.0"), Some(Denotes::Integer(3)));
        assert_eq!(denotes("1e3"), Some(Denotes::Integer(1000)));
        assert_eq!(denotes("1e19"), Some(Denotes::Integer(10_000_000_000_000_000_000)));
        assert_eq!(denotes("9007199254740993.0"), Some(Denotes::Integer(9_007_199_254_740_993)));
        assert_eq!(denotes("0.99999999999999999"), Some(Denotes::Fraction));
        assert_eq!(
            denotes("-9999999999999999999999"),
            Some(Denotes::Integer(-9_999_999_999_999_999_999_999))
        );
        assert_eq!(denotes("1e-400"), Some(Denotes::Fraction));
        assert_eq!(denotes("1e400"), Some(Denotes::Huge));
    }

    /// The reading as first written, through a vector of the digits: the reference the
    /// reading in place must agree with.
    fn denotes_through_a_vector(text: &str) -> Option<Denotes> {
        let negative = text.starts_with('-');
        let rest = text.strip_prefix('-').unwrap_or(text);
        let (mantissa, exponent) = match rest.split_once(['e', 'E']) {
            Some((mantissa, exponent)) => {
                let digits = exponent.strip_prefix(['+', '-']).unwrap_or(exponent);
                if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                    return None;
                }
                let magnitude = digits
                    .bytes()
                    .fold(0i64, |e, d| e.saturating_mul(10).saturating_add(i64::from(d - b'0')));
                let sign = if exponent.starts_with('-') { -1 } else { 1 };
                (mantissa, sign * magnitude.min(i64::MAX / 4))
            }
            None => (rest, 0),
        };
        let (int_part, frac_part) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let all_digits = |part: &str| part.bytes().all(|b| b.is_ascii_digit());
        if int_part.is_empty()
            || !all_digits(int_part)
            || !all_digits(frac_part)
            || (mantissa.contains('.') && frac_part.is_empty())
        {
            return None;
        }
        let digits: Vec<u8> = int_part.bytes().chain(frac_part.bytes()).collect();
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

    proptest::proptest! {
        #[test]
        fn the_digits_read_in_place_denote_what_a_vector_of_them_does(
            text in "-?(0|00|[0-9]{1,24})(\\.[0-9]{0,24})?([eE][+-]?[0-9]{0,3})?",
        ) {
            proptest::prop_assert_eq!(denotes(&text), denotes_through_a_vector(&text), "{}", text);
        }
    }
}
