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
    pub(crate) fn contains(self, b: u8) -> bool {
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
