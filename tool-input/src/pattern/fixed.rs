//! The direct matcher for the shape most tool schemas use: patterns anchored at both ends
//! and made only of single ASCII characters or classes, each optionally repeated a fixed
//! `{n}` times, match exactly the strings of that many ASCII characters, each in its class:
//! no engine, no allocation.

/// A set of ASCII characters, as 128 bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct AsciiSet(u128);

impl AsciiSet {
    fn single(b: u8) -> AsciiSet {
        AsciiSet(1 << b)
    }

    fn range(lo: u8, hi: u8) -> AsciiSet {
        AsciiSet((lo..=hi).fold(0, |bits, b| bits | 1 << b))
    }

    /// The lowest and highest member, when the set is exactly the characters between them.
    fn as_range(self) -> Option<(u8, u8)> {
        if self.0 == 0 {
            return None;
        }
        let (lo, hi) = (self.0.trailing_zeros() as u8, 127 - self.0.leading_zeros() as u8);
        (AsciiSet::range(lo, hi) == self).then_some((lo, hi))
    }
}

/// An [`AsciiSet`] as the matcher tests it: 256 bits in four words, so that any byte picks
/// its word and bit directly (no range check, no 128-bit shift); this runs once per byte
/// matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ByteSet([u64; 4]);

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

/// The direct matcher of one pattern: a class per byte of a match. When every class is
/// one range of characters (`[A-Z]`, `\d`, `-`), eight bytes are tested at a time.
#[derive(Debug, Clone)]
pub(crate) struct Fixed {
    sets: Vec<ByteSet>,
    /// The ranges as words of eight bytes (see [`RangeWord`]), for matches of eight bytes
    /// or more: one per eight bytes from the start but the last, then one for the last
    /// eight (overlapping the one before when the length is not a multiple of eight).
    words: Option<Vec<RangeWord>>,
}

/// Eight consecutive classes that are each one range, as the lowest and highest byte of
/// each, with the high bit set on every byte (see [`RangeWord::admits`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct RangeWord {
    low: u64,
    high: u64,
}

/// The high bit of each byte of a word.
const HIGH_BITS: u64 = 0x8080_8080_8080_8080;

impl RangeWord {
    /// The word for eight classes, if each is one range.
    fn of(sets: &[AsciiSet]) -> Option<RangeWord> {
        let mut low = [0u8; 8];
        let mut high = [0u8; 8];
        for (at, set) in sets.iter().enumerate() {
            let (lo, hi) = set.as_range()?;
            low[at] = lo;
            high[at] = hi | 0x80;
        }
        Some(RangeWord { low: u64::from_le_bytes(low), high: u64::from_le_bytes(high) })
    }

    /// Is each of the eight bytes of `word` in its range? For bytes below 128 and ranges
    /// within them, no subtraction below borrows across bytes: `(x | 0x80) - lo` keeps its
    /// high bit exactly when `x >= lo`, `(hi | 0x80) - x` exactly when `x <= hi`. A byte of
    /// 128 or more is in no class.
    #[inline]
    fn admits(self, word: u64) -> bool {
        word & HIGH_BITS == 0 && ((word | HIGH_BITS) - self.low) & (self.high - word) & HIGH_BITS == HIGH_BITS
    }
}

impl Fixed {
    pub(crate) fn new(sets: Vec<AsciiSet>) -> Fixed {
        let words = (sets.len() >= 8)
            .then(|| {
                let last = sets.len() - 8;
                (0..last.div_ceil(8))
                    .map(|chunk| chunk * 8)
                    .chain([last])
                    .map(|at| RangeWord::of(&sets[at..at + 8]))
                    .collect()
            })
            .flatten();
        Fixed { sets: sets.into_iter().map(ByteSet::from).collect(), words }
    }

    /// How many bytes (and characters) a match has.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.sets.len()
    }

    /// Does `text` match (whole)?
    #[inline]
    pub(crate) fn matches(&self, text: &[u8]) -> bool {
        if text.len() != self.sets.len() {
            return false;
        }
        match (&self.words, text.last_chunk::<8>()) {
            (Some(words), Some(&last)) => {
                let Some((&last_word, words)) = words.split_last() else { return false };
                words.iter().zip(text.chunks_exact(8)).all(|(word, chunk)| {
                    chunk.first_chunk::<8>().is_some_and(|&bytes| word.admits(u64::from_le_bytes(bytes)))
                }) && last_word.admits(u64::from_le_bytes(last))
            }
            _ => text.iter().zip(&self.sets).all(|(&b, set)| set.contains(b)),
        }
    }
}

/// Characters with a meaning of their own in a pattern; escaped, each stands for itself.
const SYNTAX: &[u8] = b"^$\\.*+?()[]{}|/";

/// Longest pattern body (in classes) the direct matcher takes; past it, `regress`.
const MAX_FIXED: usize = 256;

/// The classes of a pattern `^ atom{n}... $`, one per character of a match; `None` for
/// anything else. Atoms: an ASCII character other than the syntax characters, an escaped
/// syntax character, `\d`, or a class `[...]` of such characters and ranges (not negated).
pub(crate) fn fixed_shape(source: &str) -> Option<Vec<AsciiSet>> {
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

    /// The byte-at-a-time reading, which the word-at-a-time one must agree with.
    fn by_bytes(fixed: &Fixed, text: &[u8]) -> bool {
        text.len() == fixed.sets.len() && text.iter().zip(&fixed.sets).all(|(&b, set)| set.contains(b))
    }

    #[test]
    fn ranges_are_read_eight_bytes_at_a_time_exactly_as_one_at_a_time() {
        let patterns = [
            r"^[A-Z]{3}-\d{4}$",
            r"^[a-z]{7}$",
            r"^[a-z]{9}$",
            r"^\d{16}$",
            r"^[0-9A-F]{17}$",
            r"^[ -~]{12}$",
            r"^[!-~]{8}$",
            r"^[A-Za-z]{8}$",
            r"^[a-c]{4}[ace]{4}$",
            r"^ab\.{6}$",
            r"^[a-z]{3}\d{3}[A-Z]{3}x{2}\d{2}$",
        ];
        let mut texts: Vec<Vec<u8>> =
            ["ABC-1234", "ABC-123", "ABC-12345", "abc-1234", "ABC_1234", "AB\u{e9}-123"]
                .iter()
                .map(|t| t.as_bytes().to_vec())
                .collect();
        for length in 0..=20 {
            for fill in [
                b'a', b'z', b'A', b'Z', b'0', b'9', b'-', b'.', b' ', b'~', 0, 0x7f, 0x80, 0xff, b'@', b'[',
                b'`', b'{', b'/', b':',
            ] {
                texts.push(vec![fill; length]);
                for at in 0..length {
                    let mut text = vec![b'a'; length];
                    text[at] = fill;
                    texts.push(text.clone());
                    text.iter_mut().for_each(|b| *b = b'5');
                    text[at] = fill;
                    texts.push(text);
                }
            }
        }
        texts.push(b"abc123XYZxx42".to_vec());
        texts.push(b"abc123XYZxy42".to_vec());
        texts.push(b"abcacece".to_vec());
        texts.push(b"abcaceca".to_vec());
        for pattern in patterns {
            let fixed = Fixed::new(fixed_shape(pattern).unwrap());
            let ranges =
                !pattern.contains("0-9A-F") && !pattern.contains("A-Za-z") && !pattern.contains("[ace]");
            assert_eq!(fixed.words.is_some(), fixed.sets.len() >= 8 && ranges, "{pattern}");
            for text in &texts {
                assert_eq!(fixed.matches(text), by_bytes(&fixed, text), "{pattern} on {text:?}");
            }
        }
        let sku = Fixed::new(fixed_shape(r"^[A-Z]{3}-\d{4}$").unwrap());
        assert!(sku.matches(b"ABC-1234") && !sku.matches(b"ABC-12a4") && !sku.matches(b"AbC-1234"));
    }

    #[test]
    fn only_runs_of_characters_are_ranges() {
        assert_eq!(AsciiSet::range(b'a', b'z').as_range(), Some((b'a', b'z')));
        assert_eq!(AsciiSet::single(b'-').as_range(), Some((b'-', b'-')));
        assert_eq!(AsciiSet::range(0, 127).as_range(), Some((0, 127)));
        assert_eq!(AsciiSet(AsciiSet::single(b'a').0 | AsciiSet::single(b'c').0).as_range(), None);
        assert_eq!(AsciiSet(0).as_range(), None);
    }
}
