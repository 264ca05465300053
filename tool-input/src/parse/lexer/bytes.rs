//! Finding bytes and classifying characters: the searches the hot loops run (eight bytes
//! at a time), UTF-8 lead bytes, hex digits, and the character classes of words, keys and
//! text without quotes. Nothing here knows the lexer's state.

/// The index of the first byte at or after `i` that matches, if any.
#[inline]
pub(in crate::parse) fn find(chunk: &[u8], i: usize, pred: impl Fn(u8) -> bool) -> Option<usize> {
    chunk.get(i..)?.iter().position(|&b| pred(b)).map(|k| i + k)
}

const ONES: u64 = 0x0101_0101_0101_0101;

const HIGHS: u64 = 0x8080_8080_8080_8080;

/// Whether any byte of `word` is zero.
#[inline]
fn has_zero_byte(word: u64) -> bool {
    word.wrapping_sub(ONES) & !word & HIGHS != 0
}

/// The high bit of each byte of `word` that is a control character, `stop` or a
/// backslash. A borrow can also flag a byte after a flagged one, never before: the lowest
/// flagged byte is the first such byte.
#[inline(always)]
fn special_flags(word: u64, stop: u8) -> u64 {
    let quotes = word ^ (ONES * u64::from(stop));
    let backslashes = word ^ (ONES * u64::from(b'\\'));
    let control = word.wrapping_sub(ONES * 0x20) & !word;
    let quote = quotes.wrapping_sub(ONES) & !quotes;
    let backslash = backslashes.wrapping_sub(ONES) & !backslashes;
    (control | quote | backslash) & HIGHS
}

/// The index of the first byte of `chunk` that interrupts string content (as in
/// [`find_special`]), or `chunk.len()`. Eight bytes at a time, the last word padded with
/// spaces, and the byte found from the word's mask rather than by a loop: streamed fragments
/// are mostly shorter than eight bytes, and a loop over their bytes costs a branch (often
/// mispredicted) per byte. Inlined into its callers: [`first_special_of_tail`], for a
/// fragment longer than 16 bytes or within the text's first 16, and [`find_special`], once
/// per run of string content.
#[inline(always)]
pub(super) fn first_special(chunk: &[u8], stop: u8) -> usize {
    let first = |flags: u64| (flags.trailing_zeros() / 8) as usize;
    let mut words = chunk.chunks_exact(8);
    let mut at = 0;
    for bytes in words.by_ref() {
        let mut array = [0; 8];
        array.copy_from_slice(bytes);
        let found = special_flags(u64::from_le_bytes(array), stop);
        if found != 0 {
            return at + first(found);
        }
        at += 8;
    }
    match special_flags(short_word(words.remainder(), b' '), stop) {
        0 => chunk.len(),
        found => at + first(found),
    }
}

/// [`first_special`] of the last `len` bytes of `text` (a fragment just appended to the
/// text read so far). A fragment of at most 16 bytes, the usual streamed delta, is read as
/// the 16 bytes that end `text`, shifted so that the fragment's bytes come first and padded
/// with spaces: no loop, and no branch on its length. Deltas come in every length from one
/// byte up, and each branch on the length (the word loop, the short word's pieces) was
/// mispredicted about every other fragment, which cost more than the search itself.
#[inline(always)]
pub(super) fn first_special_of_tail(text: &[u8], len: usize, stop: u8) -> usize {
    if let (1..=16, Some(window)) = (len, text.last_chunk::<16>()) {
        // `16 - len` is 0 to 15 bytes: the shifts stay below 128.
        let cut = 8 * (16 - len as u32);
        let content = u128::from_le_bytes(*window) >> cut;
        let padding = u128::from_le_bytes([b' '; 16]) & !(u128::MAX >> cut);
        let word = content | padding;
        let (low, high) = (word as u64, (word >> 64) as u64);
        let found = u128::from(special_flags(low, stop)) | (u128::from(special_flags(high, stop)) << 64);
        // No flag: 128 trailing zeros, 16 bytes, cut to `len`.
        return ((found.trailing_zeros() / 8) as usize).min(len);
    }
    first_special(text.get(text.len().saturating_sub(len)..).unwrap_or_default(), stop)
}

/// The bytes of `rest` (fewer than eight) as a little-endian word, the bytes past its end
/// `fill`. Loaded four, two and one at a time: copying a slice of unknown length into an
/// array calls `memcpy`, which costs more than the whole search of a short fragment.
#[inline(always)]
fn short_word(rest: &[u8], fill: u8) -> u64 {
    let len = rest.len() % 8;
    let mut word = 0u64;
    let mut at = 0;
    if len & 4 != 0 {
        if let Some(&[a, b, c, d]) = rest.get(..4) {
            word = u64::from(u32::from_le_bytes([a, b, c, d]));
        }
        at = 4;
    }
    if len & 2 != 0 {
        if let Some(&[a, b]) = rest.get(at..at + 2) {
            word |= u64::from(u16::from_le_bytes([a, b])) << (8 * at);
        }
        at += 2;
    }
    if len & 1 != 0 {
        if let Some(&a) = rest.get(at) {
            word |= u64::from(a) << (8 * at);
        }
    }
    // `len < 8`: the shift stays below 64.
    let filled = (ONES * u64::from(fill)) & !((1u64 << (8 * len)) - 1);
    word | filled
}

/// The index of the first byte at or after `i` that interrupts string content: `stop`, a
/// backslash or a control character; `chunk.len()` if none. As [`first_special`]: the
/// byte is found from the word's mask, not by a loop over the word that holds it (most
/// strings end within a word or two, and such a loop cost a branch per byte).
#[inline]
pub(super) fn find_special(chunk: &[u8], i: usize, stop: u8) -> usize {
    match chunk.get(i..) {
        Some(rest) => i + first_special(rest, stop),
        None => chunk.len(),
    }
}

/// Whether `segment` holds `(`, `[` or `{`. Eight bytes at a time.
#[inline]
pub(super) fn has_opener(segment: &[u8]) -> bool {
    let mut words = segment.chunks_exact(8);
    for bytes in words.by_ref() {
        let mut array = [0; 8];
        array.copy_from_slice(bytes);
        let word = u64::from_le_bytes(array);
        if has_zero_byte(word ^ (ONES * u64::from(b'(')))
            || has_zero_byte(word ^ (ONES * u64::from(b'[')))
            || has_zero_byte(word ^ (ONES * u64::from(b'{')))
        {
            return true;
        }
    }
    words.remainder().iter().any(|&b| matches!(b, b'(' | b'[' | b'{'))
}

/// The value of each hex digit; 0xFF for other bytes.
pub(super) const HEX: [u8; 256] = {
    let mut table = [0xFF; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = match b as u8 {
            d @ b'0'..=b'9' => d - b'0',
            d @ b'a'..=b'f' => d - b'a' + 10,
            d @ b'A'..=b'F' => d - b'A' + 10,
            _ => 0xFF,
        };
        b += 1;
    }
    table
};

/// Four hex digits.
#[inline]
pub(in crate::parse) fn hex4(digits: &[u8]) -> Option<u16> {
    let mut value = 0u16;
    for &d in digits {
        let v = HEX[usize::from(d)];
        if v == 0xFF {
            return None;
        }
        value = (value << 4) | u16::from(v);
    }
    Some(value)
}

/// How many bytes the UTF-8 character led by `lead` has (1 for a byte that cannot lead
/// one: the UTF-8 check reports it).
#[inline]
pub(in crate::parse) fn utf8_len(lead: u8) -> u8 {
    match lead {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => 1,
    }
}

/// The Unicode spaces jsonrepair reads as whitespace (between tokens, and after a quote
/// that may close a string).
#[inline]
pub(in crate::parse) fn is_special_space(c: char) -> bool {
    matches!(
        c,
        '\u{00A0}' | '\u{180E}' | '\u{2000}'..='\u{200B}' | '\u{202F}' | '\u{205F}' | '\u{3000}' | '\u{FEFF}'
    )
}

/// Whether `bytes` are exactly one character, a Unicode space jsonrepair reads as white
/// space ([`is_special_space`]).
#[inline]
pub(in crate::parse) fn is_special_space_bytes(bytes: &[u8]) -> bool {
    let mut chars = std::str::from_utf8(bytes).map(str::chars).ok();
    chars.as_mut().and_then(Iterator::next).is_some_and(is_special_space)
        && chars.and_then(|mut rest| rest.next()).is_none()
}

/// A byte that continues a literal word (`true`, `None`, or a wrong word to report).
#[inline]
pub(super) fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// A byte that may start an unquoted key. `E2` is left out: at a token start it is read as
/// a smart quote.
#[inline]
pub(super) fn is_key_start(b: u8) -> bool {
    is_key_byte(b) && b != 0xE2
}

/// A byte of an unquoted key: `customer_id`, `$ref`, `a-b`, `größe`. One look in a table:
/// the lexer and the search for mends (`mends`) ask for every byte of every such key.
#[inline]
pub(super) fn is_key_byte(b: u8) -> bool {
    KEY_BYTES[usize::from(b)]
}

/// [`is_key_byte`] of each byte.
static KEY_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let byte = b as u8;
        table[b] = byte.is_ascii_alphanumeric()
            || matches!(byte, b'_' | b'$' | b'-' | b'.' | b'+' | b'@')
            || byte >= 0x80;
        b += 1;
    }
    table
};

/// A byte that may start text without quotes ([`ParseMode::Repair`]): anything that is not
/// whitespace, a bracket, a separator or a quote.
#[inline]
pub(super) fn is_unquoted_start(b: u8) -> bool {
    (0x20..0x80).contains(&b)
        && !matches!(
            b,
            b' ' | b'{' | b'}' | b'[' | b']' | b'(' | b')' | b',' | b':' | b'"' | b'\'' | b'`' | b'/' | b'#'
        )
}

/// How an error message shows the character starting at `chunk[i]`: "`x`", or "U+000A"
/// for a control character, or "byte 0xff" when it is not valid UTF-8 (or cut by the end of
/// the fragment).
pub(crate) fn describe_char(chunk: &[u8], i: usize) -> String {
    let Some(&lead) = chunk.get(i) else { return "the end of the input".to_owned() };
    let len = usize::from(utf8_len(lead));
    let decoded = chunk.get(i..i + len).and_then(|bytes| std::str::from_utf8(bytes).ok());
    match decoded.and_then(|s| s.chars().next()) {
        Some(c) if c.is_control() => format!("U+{:04X}", u32::from(c)),
        Some('`') => "'`'".to_owned(),
        Some(c) => format!("`{c}`"),
        None => format!("byte 0x{lead:02x}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_words_hold_the_bytes_then_the_fill() {
        let bytes = b"\x01\x22\x5c\x7f\xe2\x80\x9c";
        for len in 0..8 {
            let rest = &bytes[..len.min(bytes.len())];
            let mut array = [b' '; 8];
            array[..rest.len()].copy_from_slice(rest);
            assert_eq!(short_word(rest, b' '), u64::from_le_bytes(array), "{len}");
        }
    }

    #[test]
    fn the_first_special_byte_is_the_first_one_a_loop_finds() {
        let samples: [&[u8]; 10] = [
            b"",
            b"a",
            b"ab\"",
            b"abcdefg\\",
            b"\n",
            b"abcdefghijklmnop",
            b"abcdefghij'kl",
            b"caf\xc3\xa9\"",
            b"\x1f",
            b"abcdefghijklmnopqrstu\"v",
        ];
        for sample in samples {
            for stop in [b'"', b'\'', 0xE2] {
                for start in 0..=sample.len() {
                    let chunk = &sample[start..];
                    let expected = chunk
                        .iter()
                        .position(|&b| b == stop || b == b'\\' || b < 0x20)
                        .unwrap_or(chunk.len());
                    assert_eq!(first_special(chunk, stop), expected, "{chunk:?} {stop}");
                    assert_eq!(find_special(sample, start, stop), start + expected, "{chunk:?} {stop}");
                    // The same chunk at the end of a longer text, read through its window.
                    for before in [&b""[..], b"x", b"0123456789abcdef\"\\"] {
                        let text = [before, chunk].concat();
                        let tail = first_special_of_tail(&text, chunk.len(), stop);
                        assert_eq!(tail, expected, "{before:?} then {chunk:?} {stop}");
                    }
                }
            }
        }
    }
}
