//! A schema's `pattern`: an ECMA-262 regular expression, with a direct matcher for the
//! shape most tool schemas use.
//!
//! `regress` gives the exact ECMA-262 semantics JSON Schema asks for, but each search sets up
//! a backtracking executor and allocates its state and the match. On a large call with a
//! patterned field in every array item (`"sku": "^[A-Z]{3}-\\d{4}$"`), that was a few
//! percent of the whole one-pass check. Patterns that are anchored at both ends and made only
//! of single ASCII characters or classes, each optionally repeated a fixed `{n}` times, match
//! exactly the strings of that many ASCII characters, each in its class: no backtracking, no
//! allocation. Every other pattern goes to `regress`, and a test compares the two.

/// A compiled `pattern`.
#[derive(Debug, Clone)]
pub(crate) struct Pattern {
    /// The pattern as the schema wrote it, for messages.
    pub source: String,
    regex: regress::Regex,
    /// The direct matcher, when the pattern has the fixed shape (see the module docs).
    fixed: Option<Vec<ByteSet>>,
}

impl Pattern {
    /// Compile `source`; `Err` carries `regress`'s message.
    pub fn new(source: &str) -> Result<Pattern, regress::Error> {
        // `u` flag: JSON Schema patterns are Unicode-aware ECMA-262 expressions. Some
        // patterns written for other engines only compile without it.
        let (regex, unicode) = match regress::Regex::with_flags(source, "u") {
            Ok(regex) => (regex, true),
            Err(_) => (regress::Regex::new(source)?, false),
        };
        // The direct matcher is only derived for what compiled in Unicode mode, whose
        // escapes it follows.
        let fixed = if unicode { fixed_shape(source) } else { None };
        let fixed = fixed.map(|sets| sets.into_iter().map(ByteSet::from).collect());
        Ok(Pattern { source: source.to_owned(), regex, fixed })
    }

    /// Does `text` match anywhere (ECMA-262 `RegExp.prototype.test`)? Inlined, with the
    /// search out of line, so that a direct match costs no call and no register saving.
    #[inline]
    pub fn is_match(&self, text: &str) -> bool {
        match &self.fixed {
            // Every class holds ASCII characters only, so a match has as many bytes as
            // characters: one byte per class, each in its class.
            Some(sets) => text.len() == sets.len() && text.bytes().zip(sets).all(|(b, set)| set.contains(b)),
            None => self.search(text),
        }
    }

    #[inline(never)]
    fn search(&self, text: &str) -> bool {
        self.regex.find(text).is_some()
    }
}

/// A set of ASCII characters, as 128 bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct AsciiSet(u128);

impl AsciiSet {
    fn single(b: u8) -> AsciiSet {
        AsciiSet(1 << b)
    }

    fn range(lo: u8, hi: u8) -> AsciiSet {
        AsciiSet((lo..=hi).fold(0, |bits, b| bits | 1 << b))
    }
}

/// An [`AsciiSet`] as the matcher tests it: 256 bits in four words, so that any byte picks
/// its word and bit directly (no range check, no 128-bit shift); this runs once per byte
/// matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct ByteSet([u64; 4]);

impl From<AsciiSet> for ByteSet {
    fn from(set: AsciiSet) -> ByteSet {
        ByteSet([set.0 as u64, (set.0 >> 64) as u64, 0, 0])
    }
}

impl ByteSet {
    fn contains(self, b: u8) -> bool {
        (self.0[usize::from(b >> 6)] >> (b & 63)) & 1 != 0
    }
}

/// Characters with a meaning of their own in a pattern; escaped, each stands for itself.
const SYNTAX: &[u8] = b"^$\\.*+?()[]{}|/";

/// Longest pattern body (in classes) the direct matcher takes; past it, `regress`.
const MAX_FIXED: usize = 256;

/// The classes of a pattern `^ atom{n}... $`, one per character of a match; `None` for
/// anything else. Atoms: an ASCII character other than the syntax characters, an escaped
/// syntax character, `\d`, or a class `[...]` of such characters and ranges (not negated).
fn fixed_shape(source: &str) -> Option<Vec<AsciiSet>> {
    let body = source.strip_prefix('^')?.strip_suffix('$')?.as_bytes();
    let mut sets = Vec::new();
    let mut i = 0;
    while i < body.len() {
        let (set, next) = atom(body, i)?;
        let (count, next) = repeat(body, next)?;
        if sets.len() + count > MAX_FIXED {
            return None;
        }
        sets.extend(std::iter::repeat_n(set, count));
        i = next;
    }
    Some(sets)
}

/// One atom at `body[i]`: its set and where it ends.
fn atom(body: &[u8], i: usize) -> Option<(AsciiSet, usize)> {
    match *body.get(i)? {
        b'\\' => Some((escape(*body.get(i + 1)?, false)?, i + 2)),
        b'[' => class(body, i + 1),
        b if b.is_ascii() && !b.is_ascii_control() && !SYNTAX.contains(&b) => {
            Some((AsciiSet::single(b), i + 1))
        }
        _ => None,
    }
}

/// `\x`: a digit class or an escaped syntax character (`-` too, inside a class).
fn escape(b: u8, in_class: bool) -> Option<AsciiSet> {
    match b {
        b'd' => Some(AsciiSet::range(b'0', b'9')),
        b'-' if in_class => Some(AsciiSet::single(b)),
        b if SYNTAX.contains(&b) => Some(AsciiSet::single(b)),
        _ => None,
    }
}

/// The members of a class from `body[i]` (just after `[`) to its `]`.
fn class(body: &[u8], mut i: usize) -> Option<(AsciiSet, usize)> {
    // Negated classes match non-ASCII characters too: left to `regress`.
    if body.get(i) == Some(&b'^') {
        return None;
    }
    let mut bits = 0u128;
    loop {
        let (low, next) = match *body.get(i)? {
            b']' => return Some((AsciiSet(bits), i + 1)),
            b'\\' => (escape(*body.get(i + 1)?, true)?, i + 2),
            b'[' => return None,
            b if b.is_ascii() && !b.is_ascii_control() => (AsciiSet::single(b), i + 1),
            _ => return None,
        };
        i = next;
        // `a-z`: a range between two single characters; a `-` first or last is itself.
        if body.get(i) == Some(&b'-') && body.get(i + 1).is_some_and(|&b| b != b']') {
            let lo = single_member(low)?;
            let hi = match *body.get(i + 1)? {
                b'\\' => {
                    let escaped = escape(*body.get(i + 2)?, true)?;
                    i += 3;
                    single_member(escaped)?
                }
                b'[' => return None,
                b if b.is_ascii() && !b.is_ascii_control() => {
                    i += 2;
                    b
                }
                _ => return None,
            };
            if lo > hi {
                return None;
            }
            bits |= AsciiSet::range(lo, hi).0;
        } else {
            bits |= low.0;
        }
    }
}

/// The one character of a one-character set (`\d` cannot bound a range).
fn single_member(set: AsciiSet) -> Option<u8> {
    (set.0.count_ones() == 1).then(|| set.0.trailing_zeros() as u8)
}

/// An optional `{n}` after an atom: the count and where it ends.
fn repeat(body: &[u8], i: usize) -> Option<(usize, usize)> {
    match body.get(i) {
        Some(b'{') => {
            let digits = body[i + 1..].iter().take_while(|b| b.is_ascii_digit()).count();
            if digits == 0 || digits > 3 || body.get(i + 1 + digits) != Some(&b'}') {
                return None; // `{n,m}`, `{n,}` and the like need backtracking
            }
            let count = std::str::from_utf8(&body[i + 1..i + 1 + digits]).ok()?.parse().ok()?;
            Some((count, i + 2 + digits))
        }
        Some(b'?' | b'*' | b'+') => None,
        _ => Some((1, i)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Patterns of every shape the direct matcher takes, and near misses it must leave alone.
    const PATTERNS: &[&str] = &[
        r"^[A-Z]{3}-\d{4}$",
        r"^\d{4}-\d{2}-\d{2}$",
        r"^[a-z0-9_-]{2}$",
        r"^[-a-c]x\.y$",
        r"^a[b-d\]]{0}c$",
        r"^$",
        r"^\$\^\/[\\\-]$",
        r"^[A-Z]{3}-\d{4}",
        r"[A-Z]{3}-\d{4}$",
        r"^[^a]$",
        r"^a{1,2}$",
        r"^a+$",
        r"^a?b$",
        r"^.{3}$",
        r"^\w{3}$",
        r"^(ab){2}$",
        r"^a|b$",
        r"^é{2}$",
        r"^[a-é]$",
        r"^[\d-z]$",
        r"^a{01}b{0}$",
    ];

    #[test]
    fn the_fixed_shape_is_recognised() {
        assert_eq!(Pattern::new(r"^[A-Z]{3}-\d{4}$").unwrap().fixed.map(|f| f.len()), Some(8));
        assert_eq!(Pattern::new(r"^$").unwrap().fixed.map(|f| f.len()), Some(0));
        for pattern in [r"^[^a]$", r"^a{1,2}$", r"^a+$", r"^.{3}$", r"^é{2}$", r"^[\d-z]$", r"^a|b$"] {
            assert!(Pattern::new(pattern).unwrap().fixed.is_none(), "{pattern}");
        }
    }

    proptest! {
        /// The direct matcher and `regress` agree on every pattern, for strings built from
        /// the characters those patterns name and a few they do not.
        #[test]
        fn the_direct_matcher_agrees_with_regress(
            index in 0..PATTERNS.len(),
            text in "[A-Za-z0-9_\\-.\\]\\\\$^/é\u{1F600}x ]{0,10}",
        ) {
            let pattern = Pattern::new(PATTERNS[index]).unwrap();
            let expected = pattern.regex.find(&text).is_some();
            prop_assert_eq!(pattern.is_match(&text), expected, "{} on {:?}", PATTERNS[index], text);
        }
    }

    #[test]
    fn the_direct_matcher_agrees_with_regress_on_chosen_strings() {
        let texts = [
            "ABC-1234",
            "ABC-12345",
            "AB-1234",
            "abc-1234",
            "ABC-123",
            "ABÇ-1234",
            "ABC-١٢٣٤",
            "",
            "2025-01-31",
            "a_",
            "-x.y",
            "ac",
            "$^/\\",
            "$^/-",
            "a",
            "é",
            "z",
            "-",
            "5",
            "ab",
        ];
        for source in PATTERNS {
            let pattern = Pattern::new(source).unwrap();
            for text in texts {
                assert_eq!(
                    pattern.is_match(text),
                    pattern.regex.find(text).is_some(),
                    "{source} on {text:?}"
                );
            }
        }
    }
}
