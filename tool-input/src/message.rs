//! Pieces of model-facing messages: values echoed compactly and bounded, lists of options,
//! did-you-mean suggestions.

use std::borrow::Cow;

use serde_json::Value;

/// The pieces of a message, joined in one allocation: `format!` for texts alone, without
/// the formatting machinery, which padded each piece (the messages of a rejected call spent
/// about a fifteenth of its instructions in it).
pub(crate) fn join(pieces: &[&str]) -> String {
    let mut text = String::with_capacity(pieces.iter().map(|piece| piece.len()).sum());
    for piece in pieces {
        text.push_str(piece);
    }
    text
}

/// A value as compact JSON, whole: what its `Display` writes, written without a formatter.
pub(crate) fn json_text(value: &Value) -> String {
    match value {
        Value::String(text) if quotes_plainly(text, usize::MAX) => join(&["\"", text, "\""]),
        other => serde_json::to_string(other).unwrap_or_else(|_| other.to_string()),
    }
}

/// A value as compact JSON, cut to about `max` characters: a 50 KB bad value is never
/// echoed back whole.
pub(crate) fn echo(value: &Value, max: usize) -> String {
    let text = match value {
        Value::String(text) => return echo_str(text, max),
        // Containers can be huge: serialise them only as far as needed.
        Value::Array(_) | Value::Object(_) => {
            let limit = max.saturating_mul(4).max(64);
            // Room for the text up to the limit (and the piece that crosses it), at once.
            let mut writer = Bounded { text: Vec::with_capacity(limit.min(4096) + 16), limit };
            let whole = serde_json::to_writer(&mut writer, value).is_ok();
            let text = writer.into_text();
            if whole {
                text
            } else {
                // Cut off past `limit` bytes, so past `max` characters: the length told is
                // the whole text's, counted without writing it, not the part written.
                return cut(&text, max, json_chars(value));
            }
        }
        // The same compact JSON as `Display`, written to a buffer directly rather than
        // through a formatter.
        other => serde_json::to_string(other).unwrap_or_else(|_| other.to_string()),
    };
    shorten_owned(text, max)
}

/// [`echo`] of a string: `shorten(&Value::String(text).to_string(), max)` without escaping
/// and counting the whole string into a buffer first (models send long strings, and every
/// coercion of one records it).
pub(crate) fn echo_str(text: &str, max: usize) -> String {
    // A short string with nothing to escape (the usual enum value, key or bad value):
    // quoted as it is, already within the limit.
    if quotes_plainly(text, max) {
        let mut quoted = String::with_capacity(text.len() + 2);
        quoted.push('"');
        quoted.push_str(text);
        quoted.push('"');
        return quoted;
    }
    let mut out = String::with_capacity(text.len().min(max.saturating_mul(4)) + 2);
    // Characters of the escaped text, quotes included.
    let mut count = 0usize;
    // One character of the escaped text: written while within `max`, and counted.
    fn push(out: &mut String, count: &mut usize, max: usize, c: char) {
        if *count < max {
            out.push(c);
        }
        *count += 1;
    }
    push(&mut out, &mut count, max, '"');
    // Only the first `max` characters are written; the rest of the text is only counted.
    let mut rest = text;
    while count < max {
        // A run of ASCII that needs no escape is written (as far as it fits) at once.
        let plain = rest
            .bytes()
            .take(max - count)
            .take_while(|&b| b < 0x80 && ESCAPED_LEN[usize::from(b)] == 1)
            .count();
        if plain > 0 {
            out.push_str(rest.get(..plain).unwrap_or_default());
            count += plain;
            rest = rest.get(plain..).unwrap_or_default();
            continue;
        }
        let mut chars = rest.chars();
        let Some(c) = chars.next() else { break };
        rest = chars.as_str();
        // serde_json's escapes: the quote, the backslash, and the control characters.
        let short = match c {
            '"' => '"',
            '\\' => '\\',
            '\n' => 'n',
            '\r' => 'r',
            '\t' => 't',
            '\u{8}' => 'b',
            '\u{c}' => 'f',
            c if c < ' ' => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                let byte = c as u32 as usize;
                for e in ['\\', 'u', '0', '0', char::from(HEX[byte >> 4]), char::from(HEX[byte & 0xf])] {
                    push(&mut out, &mut count, max, e);
                }
                continue;
            }
            c => {
                push(&mut out, &mut count, max, c);
                continue;
            }
        };
        push(&mut out, &mut count, max, '\\');
        push(&mut out, &mut count, max, short);
    }
    count += escaped_chars(rest.as_bytes());
    push(&mut out, &mut count, max, '"');
    if count <= max {
        out
    } else {
        format!("{out}… ({count} characters)")
    }
}

/// How many characters `value`'s compact JSON text (`serde_json::to_string`) has, without
/// writing it: strings counted as [`escaped_chars`] counts them, numbers by [`json_len`].
/// The values still to count are kept on a stack of their own, as a `Value` built in code
/// may nest deeper than the call stack allows.
fn json_chars(value: &Value) -> usize {
    let mut count = 0usize;
    let mut pending = vec![value];
    while let Some(value) = pending.pop() {
        count += match value {
            Value::Null | Value::Bool(true) => 4,
            Value::Bool(false) => 5,
            Value::Number(number) => json_len(number),
            Value::String(text) => 2 + escaped_chars(text.as_bytes()),
            // The brackets, and a comma between two items.
            Value::Array(items) => {
                pending.extend(items);
                2 + items.len().saturating_sub(1)
            }
            // The braces, a comma between two members, and each key quoted with its colon.
            Value::Object(members) => {
                let mut own = 2 + members.len().saturating_sub(1);
                for (key, member) in members {
                    own += 3 + escaped_chars(key.as_bytes());
                    pending.push(member);
                }
                own
            }
        };
    }
    count
}

/// How many bytes the compact JSON text of `value` has, counted as it is written, not kept
/// (a number's text is ASCII: its bytes are its characters).
pub(crate) fn json_len(value: &impl serde::Serialize) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0 = self.0.saturating_add(bytes.len());
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    // Writing fails only when the writer does, which this one never does.
    let _ = serde_json::to_writer(&mut count, value);
    count.0
}

/// How many characters the JSON text of `bytes` (a string's content) has: the sum of
/// [`ESCAPED_LEN`], eight bytes at a time while no control character is among them.
fn escaped_chars(bytes: &[u8]) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const LOWS: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    // The high bit of each byte of `word` that is zero (exactly: no borrow crosses bytes).
    let zeros = |word: u64| !(((word & LOWS) + LOWS) | word) & HIGHS;
    let by_table =
        |bytes: &[u8]| bytes.iter().map(|&b| usize::from(ESCAPED_LEN[usize::from(b)])).sum::<usize>();
    let mut count = 0;
    let mut words = bytes.chunks_exact(8);
    for chunk in words.by_ref() {
        let mut array = [0; 8];
        array.copy_from_slice(chunk);
        let word = u64::from_le_bytes(array);
        if zeros(word & (ONES * 0xE0)) != 0 {
            // A control character (below 0x20): its escape's length depends on which.
            count += by_table(chunk);
            continue;
        }
        // One per byte that starts a character (not `10xxxxxx`), one more per `"` and `\`.
        let continuation = word & !(word << 1) & HIGHS;
        let escaped = zeros(word ^ (ONES * u64::from(b'"'))) | zeros(word ^ (ONES * u64::from(b'\\')));
        let per_byte = ((continuation ^ HIGHS) >> 7) + (escaped >> 7);
        // Each byte holds at most 2, so the sum of the eight fits the top byte.
        count += (per_byte.wrapping_mul(ONES) >> 56) as usize;
    }
    count + by_table(words.remainder())
}

/// How many characters of a string's JSON text each byte of it adds: none for a UTF-8
/// continuation byte, 2 for a short escape (`\n`), 6 for `\u00XX`, else 1.
const ESCAPED_LEN: [u8; 256] = {
    let mut table = [1u8; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = match b as u8 {
            b'"' | b'\\' | b'\n' | b'\r' | b'\t' | 0x08 | 0x0C => 2,
            0x00..=0x1F => 6,
            0x80..=0xBF => 0,
            _ => 1,
        };
        b += 1;
    }
    table
};

/// `text` cut to `max` characters, with how long it was.
pub(crate) fn shorten(text: &str, max: usize) -> String {
    // No more bytes than `max` means no more characters either: nothing to count.
    if text.len() <= max {
        return text.to_owned();
    }
    match text.char_indices().nth(max) {
        None => text.to_owned(),
        Some(_) => cut(text, max, text.chars().count()),
    }
}

/// `text` (more than `max` characters, or the first of a longer text) cut to `max`
/// characters, saying that the whole was `chars` long: the one form of a cut echo.
fn cut(text: &str, max: usize, chars: usize) -> String {
    let end = text.char_indices().nth(max).map_or(text.len(), |(at, _)| at);
    format!("{}… ({chars} characters)", text.get(..end).unwrap_or(text))
}

/// [`shorten`] of a string already owned: kept as it is when short enough.
pub(crate) fn shorten_owned(text: String, max: usize) -> String {
    if text.len() <= max || text.char_indices().nth(max).is_none() {
        return text;
    }
    shorten(&text, max)
}

/// `count` things, the noun in the number it takes: `1 item`, `3 items`, `0 items`.
///
/// (`singular` and `plural` spelled out: the nouns of messages are few, and English plurals
/// are not all an added `s`: `property`, `properties`.)
pub(crate) fn counted(count: u64, singular: &str, plural: &str) -> String {
    format!("{count} {}", if count == 1 { singular } else { plural })
}

/// How a value is named in a message: `"abc"`, `2.5`, `an object`; or just its kind when
/// the value must not be shown.
pub(crate) fn describe(value: &Value, shown: bool, max: usize) -> String {
    match (value, shown) {
        (Value::Array(items), _) => format!("an array of {}", counted(items.len() as u64, "item", "items")),
        (Value::Object(_), _) => "an object".to_owned(),
        (Value::Null, _) => "null".to_owned(),
        (value, true) => echo(value, max),
        (Value::String(_), false) => "a string".to_owned(),
        (Value::Number(_), false) => "a number".to_owned(),
        (Value::Bool(_), false) => "a boolean".to_owned(),
    }
}

/// The JSON type of a value with its article: "an array", "a string".
pub(crate) fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// `"low", "medium", "high"`, at most `limit` entries, then `… and N more`.
pub(crate) fn quoted_list(options: &[Value], limit: usize, max: usize) -> String {
    quoted_first(options.get(..limit).unwrap_or(options), options.len(), max)
}

/// [`quoted_list`] of a list of `total` options of which `shown` are the first: the rest
/// are counted, not given.
pub(crate) fn quoted_first(shown: &[Value], total: usize, max: usize) -> String {
    let mut list = String::with_capacity(shown.iter().map(|o| echo_guess(o) + 2).sum());
    for option in shown {
        if !list.is_empty() {
            list.push_str(", ");
        }
        match option {
            Value::String(text) if quotes_plainly(text, max) => {
                list.push('"');
                list.push_str(text);
                list.push('"');
            }
            other => list.push_str(&echo(other, max)),
        }
    }
    if total > shown.len() {
        if !list.is_empty() {
            list.push_str(", ");
        }
        list.push_str(&format!("… and {} more", total - shown.len()));
    }
    list
}

/// About how long the echo of a value is, to size a buffer.
fn echo_guess(value: &Value) -> usize {
    match value {
        Value::String(text) => text.len() + 2,
        _ => 8,
    }
}

/// Is `text`'s echo just `text` in quotes: nothing to escape, and within `max` characters?
fn quotes_plainly(text: &str, max: usize) -> bool {
    text.len().saturating_add(2) <= max && !text.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\')
}

/// Longest text, and candidate, a did-you-mean compares (bytes): a longer value is not a
/// misspelling of a name or option, and comparing it would cost its length times the
/// candidates'.
pub(crate) const MAX_SUGGESTED_LEN: usize = 256;

/// Most work one did-you-mean takes: the sum, over the candidates compared, of the product
/// of the two lengths (Jaro-Winkler's bound). Past it, the candidates left are not compared.
pub(crate) const MAX_SUGGESTION_WORK: usize = 1 << 21;

/// The candidate closest to `text`, if it is close enough to be a likely typo: similar
/// spelling (Jaro-Winkler at least 0.8), the same words in another case or separator style
/// (`shipBy`, `ship-by` for `ship_by`), or an abbreviation (`qty` for `quantity`). The work
/// is bounded: texts and candidates past [`MAX_SUGGESTED_LEN`] are not compared, and the
/// comparisons stop after [`MAX_SUGGESTION_WORK`].
pub(crate) fn closest<'a>(text: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    if text.len() > MAX_SUGGESTED_LEN {
        return None;
    }
    let wanted = lowercase(text);
    let wanted_set = byte_set(&wanted);

    let mut best: Option<(&str, f64)> = None;
    let mut work = 0usize;
    for candidate in candidates {
        if candidate.len() > MAX_SUGGESTED_LEN {
            continue;
        }
        work += text.len().max(1) * candidate.len().max(1);
        if work > MAX_SUGGESTION_WORK {
            break;
        }
        let lower = lowercase(candidate);
        // Below 0.8 the spelling score decides nothing: the comparison is skipped where its
        // bound already says so (most of an object's other property names).
        let mut score =
            if may_be_alike(&wanted, wanted_set, &lower) { jaro_winkler(&wanted, &lower) } else { 0.0 };
        if squash_chars(candidate).eq(squash_chars(text)) {
            score = 2.0;
        } else if is_abbreviation(&wanted, &lower) {
            score = score.max(0.85);
        }
        if score >= CLOSE && best.is_none_or(|(_, s)| score > s) {
            best = Some((candidate, score));
        }
    }
    best.map(|(candidate, _)| candidate)
}

/// The least score of a candidate close enough to `text` to be a likely typo (or the same
/// words), as [`closest`] and [`ranked`] score them.
pub(crate) const CLOSE: f64 = 0.8;

/// The `count` candidates closest to `text`, closest first (ties in the candidates' order):
/// [`ranked`], without the scores.
#[cfg(test)]
pub(crate) fn closest_few<'a>(text: &str, candidates: &[&'a str], count: usize) -> Vec<&'a str> {
    ranked(text, candidates).into_iter().take(count).map(|(candidate, _)| candidate).collect()
}

/// The candidates by how close they are to `text`, closest first (ties in the candidates'
/// order), each with its score: for a list too long to give whole, such as the hundreds of
/// tools of an MCP gateway. Scored as [`closest`] scores them (spelling, case and separator
/// style, abbreviations; [`CLOSE`] and above is a likely typo), and a candidate that holds
/// `text`'s letters and digits, or is held in them (`create_issue` in
/// `github__create_issue`), comes next to a same-words match. The work is bounded as
/// [`closest`]'s: candidates past the bound are not scored (0) and come last, in their order.
pub(crate) fn ranked<'a>(text: &str, candidates: &[&'a str]) -> Vec<(&'a str, f64)> {
    let wanted = lowercase(text);
    let squashed: String = squash_chars(text).collect();
    let mut work = 0usize;
    let mut scored: Vec<(usize, f64)> = candidates
        .iter()
        .enumerate()
        .map(|(position, candidate)| {
            if text.len() > MAX_SUGGESTED_LEN || candidate.len() > MAX_SUGGESTED_LEN {
                return (position, 0.0);
            }
            work = work.saturating_add(text.len().max(1) * candidate.len().max(1));
            if work > MAX_SUGGESTION_WORK {
                return (position, 0.0);
            }
            let lower = lowercase(candidate);
            let mut score = jaro_winkler(&wanted, &lower);
            let other: String = squash_chars(candidate).collect();
            if other == squashed {
                score = 2.0;
            } else if squashed.len() >= 3
                && (other.contains(&squashed) || squashed.contains(&other) && other.len() >= 3)
            {
                score = score.max(1.5);
            } else if is_abbreviation(&wanted, &lower) {
                score = score.max(0.85);
            }
            (position, score)
        })
        .collect();
    // Stable: equal scores keep the candidates' order.
    scored.sort_by(|a, b| b.1.total_cmp(&a.1));
    scored.into_iter().filter_map(|(position, score)| Some((*candidates.get(position)?, score))).collect()
}

/// `text` in lowercase, borrowed when it already is (the usual field name or enum value).
fn lowercase(text: &str) -> Cow<'_, str> {
    if text.bytes().all(|b| b.is_ascii() && !b.is_ascii_uppercase()) {
        Cow::Borrowed(text)
    } else {
        Cow::Owned(text.to_lowercase())
    }
}

/// `strsim::jaro_winkler`, computed without allocating for ASCII strings of at most 64
/// bytes (every field name and enum value of a real schema): the same matches and
/// transpositions, found in the same order, and the same arithmetic on them, so the same
/// score to the last bit.
fn jaro_winkler(a: &str, b: &str) -> f64 {
    if !a.is_ascii() || !b.is_ascii() || a.len() > 64 || b.len() > 64 {
        return strsim::jaro_winkler(a, b);
    }
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.is_empty() && b.is_empty() {
        return 1.0;
    }
    if a.is_empty() || b.is_empty() {
        return 0.0;
    }
    let range = (a.len().max(b.len()) / 2).saturating_sub(1);
    // Which bytes of `a` and of `b` are matched, one bit each.
    let (mut a_flags, mut b_flags) = (0u64, 0u64);
    let mut matches = 0usize;
    for (i, &x) in a.iter().enumerate() {
        // The window of `b` around `i` (empty when `a` is much the longer).
        let start = i.saturating_sub(range);
        let window = b.get(start..b.len().min(i + range + 1)).unwrap_or_default();
        for (j, &y) in window.iter().enumerate().map(|(k, y)| (start + k, y)) {
            if y == x && b_flags & (1 << j) == 0 {
                a_flags |= 1 << i;
                b_flags |= 1 << j;
                matches += 1;
                break;
            }
        }
    }
    if matches == 0 {
        return 0.0;
    }
    // The k-th matched byte of `a` against the k-th matched byte of `b`.
    let mut transpositions = 0usize;
    let mut j = 0;
    for (i, &x) in a.iter().enumerate() {
        if a_flags & (1 << i) != 0 {
            while b_flags & (1 << j) == 0 {
                j += 1;
            }
            if b[j] != x {
                transpositions += 1;
            }
            j += 1;
        }
    }
    transpositions /= 2;
    let sim = ((matches as f64 / a.len() as f64)
        + (matches as f64 / b.len() as f64)
        + ((matches - transpositions) as f64 / matches as f64))
        / 3.0;
    if sim > 0.7 {
        let prefix = a.iter().take(4).zip(b).take_while(|(x, y)| x == y).count();
        sim + 0.1 * prefix as f64 * (1.0 - sim)
    } else {
        sim
    }
}

/// The bytes of `text` by their low six bits, one bit each: the set [`may_be_alike`] takes.
/// `None` when `text` is not ASCII.
fn byte_set(text: &str) -> Option<u64> {
    text.is_ascii().then(|| text.bytes().fold(0u64, |set, byte| set | 1 << (byte & 63)))
}

/// Whether Jaro-Winkler may score `a` (whose [`byte_set`] is `a_set`) and `b` 0.8 or more.
/// Each match it counts pairs a character of `b` with the same character of `a`, so there
/// are at most `m` of them: the characters of `b` whose byte may be in `a` (a byte counts when
/// one with its low six bits is, which can only raise `m`), and no more than `a` has. Its
/// score is then at most `0.4 + 0.6 × (m/|a| + m/|b| + 1) / 3` (transpositions only lower it;
/// the prefix bonus adds at most `0.4 × (1 − jaro)`). `false` only when that bound is below
/// 0.8; for text that is not ASCII, always `true`.
fn may_be_alike(a: &str, a_set: Option<u64>, b: &str) -> bool {
    let Some(in_a) = a_set.filter(|_| !a.is_empty() && !b.is_empty() && b.is_ascii()) else {
        return true;
    };
    let m = b.bytes().filter(|byte| in_a & 1 << (byte & 63) != 0).count().min(a.len()) as f64;
    let jaro = (m / a.len() as f64 + m / b.len() as f64 + 1.0) / 3.0;
    // A margin for rounding: the skip must never drop a score of 0.8.
    m > 0.0 && 0.4 + 0.6 * jaro >= 0.8 - 1e-9
}

/// Lowercase letters and digits only.
fn squash_chars(text: &str) -> impl Iterator<Item = char> + '_ {
    text.chars().filter(char::is_ascii_alphanumeric).map(|c| c.to_ascii_lowercase())
}

/// `qty` of `quantity`: at least three characters, the same first one, all in order.
fn is_abbreviation(short: &str, long: &str) -> bool {
    // The cheap tests first: most candidates start with another character.
    if short.len() >= long.len() || short.chars().next() != long.chars().next() || short.chars().count() < 3 {
        return false;
    }
    let mut rest = long.chars();
    short.chars().all(|c| rest.any(|d| d == c))
}

/// A `fmt::Write` that stops accepting text past a limit (the serializer then fails,
/// which ends the serialisation early).
struct Bounded {
    text: Vec<u8>,
    limit: usize,
}

impl Bounded {
    /// The text written. serde_json writes whole characters, so it is valid UTF-8.
    fn into_text(self) -> String {
        String::from_utf8(self.text)
            .unwrap_or_else(|error| String::from_utf8_lossy(error.as_bytes()).into_owned())
    }
}

impl std::io::Write for Bounded {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.text.len() >= self.limit {
            return Err(std::io::Error::other("echo limit reached"));
        }
        self.text.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_closest_few_come_first_ties_in_order() {
        let tools =
            ["send_email", "github__create_issue", "gitlab__create_issue", "get_weather", "CreateIssue"];
        // The same words in another style, then the names that hold them, in their order.
        assert_eq!(
            closest_few("create_issue", &tools, 3),
            ["CreateIssue", "github__create_issue", "gitlab__create_issue"]
        );
        assert_eq!(closest_few("get_wether", &tools, 1), ["get_weather"]);
        assert_eq!(closest_few("x", &tools, 10).len(), tools.len());
        // A text too long to compare scores nothing: the candidates keep their order.
        assert_eq!(
            closest_few(&"a".repeat(MAX_SUGGESTED_LEN + 1), &tools, 2),
            ["send_email", "github__create_issue"]
        );
        assert!(closest_few("a", &[], 3).is_empty());
    }

    #[test]
    fn strings_are_echoed_as_their_json_text_cut() {
        let cases = [
            "",
            "plain",
            "quote \" and backslash \\ and \n\r\t\u{8}\u{c} and \u{1} \u{1f} \u{7f}",
            "ünïcödé 日本語 🎉 and more text to go past the limit of the echo, for sure",
            "\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}",
        ];
        for text in cases {
            for max in [0, 1, 2, 5, 10, 20, 80, 1000] {
                let value = Value::String(text.to_owned());
                assert_eq!(echo_str(text, max), shorten(&value.to_string(), max), "{text:?} {max}");
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn any_string_is_echoed_as_its_json_text_cut(text in "\\PC*|[\\x00-\\x20\"\\\\a-c]*", max in 0usize..40) {
            let value = Value::String(text.clone());
            proptest::prop_assert_eq!(echo_str(&text, max), shorten(&value.to_string(), max));
        }
    }

    proptest::proptest! {
        // Long strings: the first characters are written, the rest only counted.
        #[test]
        fn long_strings_are_echoed_as_their_json_text_cut(
            text in "([\\x00-\\x20\"\\\\a-z]|\\PC){0,300}",
            max in 0usize..320,
        ) {
            let value = Value::String(text.clone());
            proptest::prop_assert_eq!(echo_str(&text, max), shorten(&value.to_string(), max));
        }

        // Containers are echoed as serde_json writes them, cut.
        #[test]
        fn containers_are_echoed_as_their_json_text_cut(
            items in proptest::collection::vec("[\"\\\\a-zé日\\n]{0,12}", 0..60),
            max in 0usize..120,
        ) {
            let value = json!({ "items": items, "n": [1, 2.5, -3] });
            // Cut or whole, exactly what the whole text cut gives: when cut, the length told
            // is the whole text's, not that of the part written.
            proptest::prop_assert_eq!(echo(&value, max), shorten(&value.to_string(), max));
        }

        // Any container: numbers of every kind, keys that need escapes, nesting.
        #[test]
        fn a_cut_containers_length_is_its_whole_texts(
            value in container(),
            max in 0usize..100,
        ) {
            proptest::prop_assert_eq!(echo(&value, max), shorten(&value.to_string(), max));
            proptest::prop_assert_eq!(json_chars(&value), value.to_string().chars().count());
        }
    }

    /// Arrays and objects of any JSON values, a few levels deep.
    fn container() -> impl proptest::strategy::Strategy<Value = Value> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            any::<u64>().prop_map(Value::from),
            any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(Value::from),
            "([\\x00-\\x20\"\\\\a-z]|\\PC){0,40}".prop_map(Value::String),
        ];
        let nested = leaf.prop_recursive(4, 200, 12, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..12).prop_map(Value::Array),
                proptest::collection::btree_map("([\\x00-\\x20\"\\\\a-z]|\\PC){0,8}", inner, 0..12)
                    .prop_map(|members| Value::Object(members.into_iter().collect())),
            ]
        });
        prop_oneof![
            proptest::collection::vec(nested.clone(), 0..8).prop_map(Value::Array),
            proptest::collection::btree_map("[a-z\"]{0,6}", nested, 0..8)
                .prop_map(|members| Value::Object(members.into_iter().collect())),
        ]
    }

    proptest::proptest! {
        #[test]
        fn escaped_characters_are_counted_a_word_at_a_time(text in "([\\x00-\\x20\"\\\\a-z]|\\PC){0,64}") {
            let counted = text.bytes().map(|b| usize::from(ESCAPED_LEN[usize::from(b)])).sum::<usize>();
            proptest::prop_assert_eq!(escaped_chars(text.as_bytes()), counted);
            proptest::prop_assert_eq!(counted + 2, Value::String(text.clone()).to_string().chars().count());
        }
    }

    #[test]
    fn long_values_are_cut() {
        let long = Value::String("x".repeat(50_000));
        let shown = echo(&long, 20);
        assert!(shown.len() < 60, "{shown}");
        assert!(shown.ends_with("(50002 characters)"), "{shown}");
        let big = json!(vec![1; 100_000]);
        assert!(echo(&big, 20).len() < 60);
    }

    #[test]
    fn a_long_value_is_not_a_misspelling() {
        let options: Vec<String> = (0..50).map(|i| format!("{}{i}", "a".repeat(100))).collect();
        // One byte past the bound: not compared, though it is one edit away.
        let long = "a".repeat(MAX_SUGGESTED_LEN + 1);
        let near = [format!("{long}b")];
        assert_eq!(closest(&long, near.iter().map(String::as_str)), None);
        assert_eq!(closest(&"a".repeat(4 << 20), options.iter().map(String::as_str)), None);
        // Within it, as before.
        assert!(closest(&format!("{}7x", "a".repeat(100)), options.iter().map(String::as_str)).is_some());
    }

    #[test]
    fn the_work_of_one_suggestion_is_bounded() {
        // 600 candidates of 250 bytes against a text of 250: the bound stops after 33.
        let options: Vec<String> = (0..600).map(|i| format!("{i:03}{}", "x".repeat(247))).collect();
        let all = || options.iter().map(String::as_str);
        assert_eq!(closest(&options[599], options[599..].iter().map(String::as_str)), Some(&*options[599]));
        assert_ne!(closest(&options[599], all()), Some(&*options[599]));
        assert_eq!(closest(&options[10], all()), Some(&*options[10]));
    }

    #[test]
    fn suggestions_need_similarity() {
        let names = ["color", "size", "quantity"];
        assert_eq!(closest("colour", names.iter().copied()), Some("color"));
        assert_eq!(closest("quantiy", names.iter().copied()), Some("quantity"));
        assert_eq!(closest("weight", names.iter().copied()), None);
        assert_eq!(closest("qty", names.iter().copied()), Some("quantity"));
        assert_eq!(closest("shipBy", ["ship_by", "shape"].iter().copied()), Some("ship_by"));
        assert_eq!(closest("xyz", names.iter().copied()), None);
    }

    /// Field names, enum values, their misspellings and the textbook pairs, ASCII and not.
    const WORDS: [&str; 42] = [
        "",
        "a",
        "ab",
        "ba",
        "abc",
        "cab",
        "priority",
        "prority",
        "priorty",
        "proirity",
        "urgent",
        "customer_id",
        "customerid",
        "customer-id",
        "cust_id",
        "quantity",
        "quantiy",
        "qty",
        "ship_by",
        "shipby",
        "shipBy",
        "sku",
        "skus",
        "note",
        "notes",
        "tags",
        "tag",
        "gift",
        "items",
        "item",
        "aaaaaaaaaa",
        "aaaab",
        "martha",
        "marhta",
        "dixon",
        "dicksonx",
        "crate",
        "trace",
        "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijkl",
        "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklm",
        "naïve",
        "naive",
    ];

    #[test]
    fn the_skipped_comparisons_score_below_the_threshold() {
        // Every pair of these words (and of generated ones) that `may_be_alike` rules out
        // scores below 0.8, and the bound lets the near ones through.
        let mut words: Vec<String> = WORDS.map(String::from).to_vec();
        let mut seed = 7u64;
        for _ in 0..300 {
            let len = 1 + (seed % 12) as usize;
            let word: String = (0..len)
                .map(|_| {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    char::from(b"abcdeio_"[(seed >> 33) as usize % 8])
                })
                .collect();
            words.push(word);
        }
        let mut skipped = 0;
        for a in &words {
            for b in &words {
                if !may_be_alike(a, byte_set(a), b) {
                    skipped += 1;
                    assert!(strsim::jaro_winkler(a, b) < 0.8, "{a} {b}");
                }
            }
            assert!(a.is_empty() || may_be_alike(a, byte_set(a), a), "{a}");
        }
        assert!(skipped > 1000, "{skipped}");
        let alike = |a: &str, b: &str| may_be_alike(a, byte_set(a), b);
        assert!(alike("prority", "priority") && alike("qty", "quantity") && !alike("color", "quantity"));
    }

    #[test]
    fn jaro_winkler_is_strsim_s() {
        let words = WORDS;
        for a in words {
            for b in words {
                let (ours, theirs) = (jaro_winkler(a, b), strsim::jaro_winkler(a, b));
                assert_eq!(ours.to_bits(), theirs.to_bits(), "{a:?} {b:?}: {ours} vs {theirs}");
            }
        }
    }
}
