//! Host names as IDNA2008 writes them: ASCII labels (RFC 1123), A-labels (`xn--` and
//! Punycode, RFC 3492) and, for `idn-hostname`, U-labels, each checked by RFC 5891's rules
//! for a label: its code points (RFC 5892's derivation and exceptions), its contextual rules
//! (RFC 5892 appendix A) and, in a name with a right-to-left label, the Bidi rule (RFC 5893).
//!
//! Two readings are looser than the letter of IDNA2008, as registries and browsers are: an
//! ASCII letter in either case is the letter (DNS does not tell them apart), and a U-label
//! need not be in NFC (the JSON-Schema-Test-Suite holds `cafe\u{301}` valid in an address).

use unicode_bidi::{bidi_class, BidiClass};
use unicode_general_category::{get_general_category, GeneralCategory};
use unicode_joining_type::{get_joining_type, JoiningType};
use unicode_normalization::char::canonical_combining_class;
use unicode_normalization::UnicodeNormalization;
use unicode_script::{Script, UnicodeScript};

/// The longest label and name, in octets of their ASCII form (RFC 1034).
const MAX_LABEL: usize = 63;
const MAX_NAME: usize = 253;

/// The canonical combining class of a virama.
const VIRAMA: u8 = 9;

/// Is `text` a host name: labels of ASCII letters, digits and inner hyphens, or A-labels
/// that decode to valid U-labels, and with `international`, U-labels too, separated by
/// `.` (and, with `international`, by the ideographic, fullwidth and halfwidth full stops).
pub(super) fn is_hostname(text: &str, international: bool) -> bool {
    let separator =
        |c: char| c == '.' || (international && matches!(c, '\u{3002}' | '\u{ff0e}' | '\u{ff61}'));
    let mut labels = Vec::new();
    let mut ascii_length = 0usize;
    for label in text.split(separator) {
        let Some(read) = read_label(label, international) else { return false };
        ascii_length += read.ascii_length + 1;
        labels.push(read);
    }
    // Every name has a label; the separators between them count, a last one would not.
    if ascii_length - 1 > MAX_NAME {
        return false;
    }
    // A name with a right-to-left label is a Bidi domain name: the Bidi rule holds for
    // every label of it (RFC 5893, section 2).
    let bidi = labels.iter().any(|label| label.unicode.chars().any(is_right_to_left));
    !bidi || labels.iter().all(|label| bidi_rule(&label.unicode))
}

/// Is `text` a host name as RFC 1123 alone writes one (what drafts 4 and 6 of JSON Schema
/// mean by `hostname`): labels of ASCII letters, digits and inner hyphens, without
/// IDNA2008's rules for A-labels and for `--` in a label's third and fourth places.
pub(super) fn is_ldh_hostname(text: &str) -> bool {
    text.len() <= MAX_NAME
        && text.split('.').all(|label| {
            (1..=MAX_LABEL).contains(&label.len())
                && label.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
                && !label.starts_with('-')
                && !label.ends_with('-')
        })
}

/// A label that passed the checks of its own: its Unicode form and the length of its ASCII
/// form.
struct Label {
    unicode: String,
    ascii_length: usize,
}

fn read_label(label: &str, international: bool) -> Option<Label> {
    if label.is_ascii() {
        let bytes = label.as_bytes();
        let letters = bytes.iter().all(|&b| b.is_ascii_alphanumeric() || b == b'-');
        if !letters
            || !(1..=MAX_LABEL).contains(&label.len())
            || label.starts_with('-')
            || label.ends_with('-')
        {
            return None;
        }
        return match bytes.get(..4) {
            Some(prefix) if prefix.eq_ignore_ascii_case(b"xn--") => a_label(label),
            // `--` in the third and fourth places is reserved for encodings (RFC 5891, 4.2.3.1).
            _ if bytes.get(2..4) == Some(b"--") => None,
            _ => Some(Label { unicode: label.to_ascii_lowercase(), ascii_length: label.len() }),
        };
    }
    // Each code point takes an octet of the ASCII form at least: a longer label is refused
    // before Punycode, whose encoding takes time quadratic in the label.
    if !international || label.chars().nth(MAX_LABEL).is_some() {
        return None;
    }
    let encoded = punycode::encode(label)?;
    let ascii_length = 4 + encoded.len();
    (ascii_length <= MAX_LABEL && u_label(label)).then(|| Label { unicode: label.to_owned(), ascii_length })
}

/// An A-label: Punycode that decodes to a valid U-label with a code point beyond ASCII, and
/// that the U-label encodes back to exactly (no second spelling of one name).
fn a_label(label: &str) -> Option<Label> {
    let encoded = label.get(4..)?;
    let unicode = punycode::decode(encoded)?;
    let canonical = punycode::encode(&unicode)?;
    let valid = !unicode.is_ascii() && canonical.eq_ignore_ascii_case(encoded) && u_label(&unicode);
    valid.then_some(Label { unicode, ascii_length: label.len() })
}

/// RFC 5891, 5.4 for a label beyond ASCII: hyphens, a first code point that is no combining
/// mark, every code point PVALID or allowed by its context.
fn u_label(label: &str) -> bool {
    let chars: Vec<char> = label.chars().collect();
    let hyphens = !label.starts_with('-') && !label.ends_with('-') && chars.get(2..4) != Some(&['-', '-']);
    let first_mark = chars.first().is_some_and(|&c| is_mark(c));
    hyphens
        && !first_mark
        && (0..chars.len()).all(|at| match property(chars[at]) {
            Property::Pvalid => true,
            Property::Contextual => context_allows(&chars, at),
            Property::Disallowed => false,
        })
}

/// RFC 5892's derived property of a code point, as far as a label's check needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Property {
    Pvalid,
    /// CONTEXTJ or CONTEXTO: valid where its rule in appendix A holds.
    Contextual,
    Disallowed,
}

fn property(c: char) -> Property {
    // Section 2.6, the exceptions, before anything else.
    match c {
        '\u{df}' | '\u{3c2}' | '\u{6fd}' | '\u{6fe}' | '\u{f0b}' | '\u{3007}' => return Property::Pvalid,
        '\u{b7}'
        | '\u{375}'
        | '\u{5f3}'
        | '\u{5f4}'
        | '\u{30fb}'
        | '\u{660}'..='\u{669}'
        | '\u{6f0}'..='\u{6f9}' => return Property::Contextual,
        '\u{640}' | '\u{7fa}' | '\u{302e}' | '\u{302f}' | '\u{3031}'..='\u{3035}' | '\u{303b}' => {
            return Property::Disallowed
        }
        // Section 2.7, the join controls.
        '\u{200c}' | '\u{200d}' => return Property::Contextual,
        // LDH: ASCII letters (either case, see the module's note), digits and the hyphen.
        'a'..='z' | 'A'..='Z' | '0'..='9' | '-' => return Property::Pvalid,
        _ if c.is_ascii() => return Property::Disallowed,
        _ => {}
    }
    // Sections 2.3 to 2.5: old Hangul jamo and the blocks of marks for symbols and music.
    let ignorable_block = matches!(c,
        '\u{1100}'..='\u{11ff}' | '\u{a960}'..='\u{a97f}' | '\u{d7b0}'..='\u{d7ff}'
        | '\u{20d0}'..='\u{20ff}' | '\u{1d100}'..='\u{1d24f}');
    // Section 2.2 (Unstable): a code point that NFKC or case folding changes.
    let stable =
        || c.to_lowercase().eq(std::iter::once(c)) && std::iter::once(c).nfkc().eq(std::iter::once(c));
    // Section 2.1, LetterDigits.
    let letter_or_digit = matches!(
        get_general_category(c),
        GeneralCategory::LowercaseLetter
            | GeneralCategory::UppercaseLetter
            | GeneralCategory::OtherLetter
            | GeneralCategory::DecimalNumber
            | GeneralCategory::ModifierLetter
            | GeneralCategory::NonspacingMark
            | GeneralCategory::SpacingMark
    );
    if letter_or_digit && !ignorable_block && stable() {
        Property::Pvalid
    } else {
        Property::Disallowed
    }
}

fn is_mark(c: char) -> bool {
    matches!(
        get_general_category(c),
        GeneralCategory::NonspacingMark | GeneralCategory::SpacingMark | GeneralCategory::EnclosingMark
    )
}

/// RFC 5892, appendix A: the rule of the contextual code point at `at`.
fn context_allows(chars: &[char], at: usize) -> bool {
    let before = at.checked_sub(1).and_then(|i| chars.get(i)).copied();
    let after = chars.get(at + 1).copied();
    let after_virama = before.is_some_and(|c| canonical_combining_class(c) == VIRAMA);
    match chars[at] {
        // A.1, ZERO WIDTH NON-JOINER: after a virama, or between letters that join across it.
        '\u{200c}' => after_virama || joins_across(chars, at),
        // A.2, ZERO WIDTH JOINER: after a virama.
        '\u{200d}' => after_virama,
        // A.3, MIDDLE DOT: between two `l`s (Catalan's ela geminada).
        '\u{b7}' => before == Some('l') && after == Some('l'),
        // A.4, GREEK LOWER NUMERAL SIGN (KERAIA): before a Greek character.
        '\u{375}' => after.is_some_and(|c| c.script() == Script::Greek),
        // A.5 and A.6, HEBREW PUNCTUATION GERESH and GERSHAYIM: after a Hebrew character.
        '\u{5f3}' | '\u{5f4}' => before.is_some_and(|c| c.script() == Script::Hebrew),
        // A.7, KATAKANA MIDDLE DOT: in a label with Hiragana, Katakana or Han.
        '\u{30fb}' => chars.iter().any(|c| {
            *c != '\u{30fb}' && matches!(c.script(), Script::Hiragana | Script::Katakana | Script::Han)
        }),
        // A.8 and A.9: the two sets of Arabic-Indic digits are never mixed in a label.
        '\u{660}'..='\u{669}' => !chars.iter().any(|c| ('\u{6f0}'..='\u{6f9}').contains(c)),
        '\u{6f0}'..='\u{6f9}' => !chars.iter().any(|c| ('\u{660}'..='\u{669}').contains(c)),
        _ => false,
    }
}

/// A.1's regular expression around the non-joiner at `at`:
/// `(L|D) T* ZWNJ T* (R|D)` by joining type.
fn joins_across(chars: &[char], at: usize) -> bool {
    let joining = |c: &char| get_joining_type(*c);
    let left = chars[..at]
        .iter()
        .rev()
        .map(joining)
        .find(|t| *t != JoiningType::Transparent)
        .is_some_and(|t| matches!(t, JoiningType::LeftJoining | JoiningType::DualJoining));
    let right = chars[at + 1..]
        .iter()
        .map(joining)
        .find(|t| *t != JoiningType::Transparent)
        .is_some_and(|t| matches!(t, JoiningType::RightJoining | JoiningType::DualJoining));
    left && right
}

fn is_right_to_left(c: char) -> bool {
    matches!(bidi_class(c), BidiClass::R | BidiClass::AL | BidiClass::AN)
}

/// RFC 5893, section 2: the six conditions on a label of a Bidi domain name.
fn bidi_rule(label: &str) -> bool {
    use BidiClass::*;
    let classes: Vec<BidiClass> = label.chars().map(bidi_class).collect();
    let Some(&first) = classes.first() else { return false };
    // The last class that is not a nonspacing mark.
    let last = classes.iter().rev().find(|class| **class != NSM).copied();
    match first {
        // Conditions 2 to 4, a right-to-left label.
        R | AL => {
            classes.iter().all(|class| matches!(class, R | AL | AN | EN | ES | CS | ET | ON | BN | NSM))
                && matches!(last, Some(R | AL | EN | AN))
                && !(classes.contains(&EN) && classes.contains(&AN))
        }
        // Conditions 5 and 6, a left-to-right label.
        L => {
            classes.iter().all(|class| matches!(class, L | EN | ES | CS | ET | ON | BN | NSM))
                && matches!(last, Some(L | EN))
        }
        // Condition 1: the first character is L, R or AL.
        _ => false,
    }
}

/// RFC 3492's Punycode, with IDNA's parameters: the encoding of a label beyond ASCII.
mod punycode {
    const BASE: u32 = 36;
    const T_MIN: u32 = 1;
    const T_MAX: u32 = 26;
    const SKEW: u32 = 38;
    const DAMP: u32 = 700;
    const INITIAL_BIAS: u32 = 72;
    const INITIAL_N: u32 = 128;

    fn adapt(mut delta: u32, points: u32, first: bool) -> u32 {
        delta /= if first { DAMP } else { 2 };
        delta += delta / points;
        let mut k = 0;
        while delta > ((BASE - T_MIN) * T_MAX) / 2 {
            delta /= BASE - T_MIN;
            k += BASE;
        }
        k + (BASE - T_MIN + 1) * delta / (delta + SKEW)
    }

    fn threshold(k: u32, bias: u32) -> u32 {
        k.saturating_sub(bias).clamp(T_MIN, T_MAX)
    }

    fn digit_value(b: u8) -> Option<u32> {
        match b {
            b'a'..=b'z' => Some(u32::from(b - b'a')),
            b'A'..=b'Z' => Some(u32::from(b - b'A')),
            b'0'..=b'9' => Some(u32::from(b - b'0') + 26),
            _ => None,
        }
    }

    fn digit(d: u32) -> char {
        // d < 36: `a`-`z`, then `0`-`9`.
        char::from(if d < 26 { b'a' + d as u8 } else { b'0' + (d - 26) as u8 })
    }

    /// The code points `input` encodes, or `None` when it is no Punycode (a character
    /// beyond the digits, an overflow, a code point that is none).
    pub(super) fn decode(input: &str) -> Option<String> {
        let (basic, digits) = match input.rfind('-') {
            Some(at) => (&input[..at], &input[at + 1..]),
            None => ("", input),
        };
        if !basic.is_ascii() {
            return None;
        }
        let mut output: Vec<char> = basic.chars().collect();
        let (mut n, mut i, mut bias) = (INITIAL_N, 0u32, INITIAL_BIAS);
        let mut digits = digits.bytes().peekable();
        while digits.peek().is_some() {
            let old_i = i;
            let mut weight = 1u32;
            let mut k = BASE;
            loop {
                let d = digit_value(digits.next()?)?;
                i = i.checked_add(d.checked_mul(weight)?)?;
                let t = threshold(k, bias);
                if d < t {
                    break;
                }
                weight = weight.checked_mul(BASE - t)?;
                k += BASE;
            }
            let points = u32::try_from(output.len()).ok()? + 1;
            bias = adapt(i - old_i, points, old_i == 0);
            n = n.checked_add(i / points)?;
            i %= points;
            output.insert(usize::try_from(i).ok()?, char::from_u32(n)?);
            i += 1;
        }
        Some(output.into_iter().collect())
    }

    /// The Punycode of `input` (without the `xn--` prefix), or `None` on overflow.
    pub(super) fn encode(input: &str) -> Option<String> {
        let points: Vec<u32> = input.chars().map(u32::from).collect();
        let mut output: String = input.chars().filter(char::is_ascii).collect();
        let basic = u32::try_from(output.len()).ok()?;
        if basic > 0 {
            output.push('-');
        }
        let total = u32::try_from(points.len()).ok()?;
        let (mut n, mut delta, mut bias, mut handled) = (INITIAL_N, 0u32, INITIAL_BIAS, basic);
        while handled < total {
            let m = points.iter().copied().filter(|&p| p >= n).min()?;
            delta = delta.checked_add((m - n).checked_mul(handled + 1)?)?;
            n = m;
            for &p in &points {
                if p < n {
                    delta = delta.checked_add(1)?;
                }
                if p == n {
                    let mut q = delta;
                    let mut k = BASE;
                    loop {
                        let t = threshold(k, bias);
                        if q < t {
                            break;
                        }
                        output.push(digit(t + (q - t) % (BASE - t)));
                        q = (q - t) / (BASE - t);
                        k += BASE;
                    }
                    output.push(digit(q));
                    bias = adapt(delta, handled + 1, handled == basic);
                    delta = 0;
                    handled += 1;
                }
            }
            delta = delta.checked_add(1)?;
            n = n.checked_add(1)?;
        }
        Some(output)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn punycode_reads_and_writes_rfc_3492s_samples() {
        for (unicode, encoded) in [
            // RFC 3492, 7.1 (A) Arabic (Egyptian), (B) Chinese (simplified), (L) Japanese.
            ("\u{644}\u{64a}\u{647}\u{645}\u{627}\u{628}\u{62a}\u{643}\u{644}\u{645}\u{648}\u{634}\u{639}\u{631}\u{628}\u{64a}\u{61f}", "egbpdaj6bu4bxfgehfvwxn"),
            ("\u{4ed6}\u{4eec}\u{4e3a}\u{4ec0}\u{4e48}\u{4e0d}\u{8bf4}\u{4e2d}\u{6587}", "ihqwcrb4cv8a8dqg056pqjye"),
            ("3\u{5e74}B\u{7d44}\u{91d1}\u{516b}\u{5148}\u{751f}", "3B-ww4c5e180e575a65lsy2b"),
            ("b\u{fc}cher", "bcher-kva"),
        ] {
            assert_eq!(punycode::encode(unicode).as_deref(), Some(encoded), "{unicode}");
            assert_eq!(punycode::decode(encoded).as_deref(), Some(unicode), "{encoded}");
        }
        // A digit cut short, a code point beyond Unicode, a character that is no digit.
        for bad in ["X", "99999999999999", "a-\u{e9}"] {
            assert_eq!(punycode::decode(bad), None, "{bad}");
        }
    }

    #[test]
    fn rfc_1123_host_names_know_nothing_of_idna() {
        for valid in ["ab--cd.example", "xn--X", "xn--4gbwdl.xn--wgbh1c", "a", "1.2.3", &"a".repeat(63)] {
            assert!(is_ldh_hostname(valid), "{valid}");
        }
        let long = ["a"; 127].join(".");
        for invalid in
            ["", "a.", ".a", "-a.b", "a-.b", "a_b", "b\u{fc}cher", &"a".repeat(64), &format!("{long}.a")]
        {
            assert!(!is_ldh_hostname(invalid), "{invalid}");
        }
        assert!(is_ldh_hostname(&long) && long.len() == MAX_NAME);
        // IDNA2008 keeps `--` in a label's third and fourth places for A-labels.
        assert!(!is_hostname("ab--cd.example", false) && !is_hostname("xn--X", false));
    }

    #[test]
    fn labels_follow_idna2008() {
        for valid in [
            "example.com",
            "xn--bcher-kva.example",
            "b\u{fc}cher.example",
            "l\u{b7}l",
            "\u{5d0}\u{5f3}\u{5d1}",
        ] {
            assert!(is_hostname(valid, true), "{valid}");
        }
        for invalid in [
            "\u{300}a",    // a combining mark first
            "a\u{a1}",     // punctuation: DISALLOWED
            "B\u{dc}CHER", // an upper-case letter beyond ASCII: unstable under case folding
            "\u{2160}",    // ROMAN NUMERAL ONE: NFKC changes it
            "a\u{5d0}",    // a right-to-left letter in a left-to-right label
            "xn---kva",    // Punycode spelled another way
            "xn--abc",     // decodes to ASCII only
        ] {
            assert!(!is_hostname(invalid, true), "{invalid}");
        }
        // A long label is refused at once, however long (Punycode's encoding is quadratic).
        assert!(!is_hostname(&"\u{e9}".repeat(1 << 20), true));
        // The plain format takes A-labels, checked as the international one checks them.
        assert!(is_hostname("xn--bcher-kva.example", false) && !is_hostname("b\u{fc}cher.example", false));
        assert!(!is_hostname("xn--hello-6bf", false));
    }
}
