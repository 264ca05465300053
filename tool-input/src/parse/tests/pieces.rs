//! The pieces the lexer's files and `salvage` share, written once: the escape decoder, the
//! number grammar, UTF-8 lead bytes and the special white space; and the repair-only state,
//! which only a repair-mode lexer carries.

use super::super::lexer::bytes::{describe_char, is_special_space, utf8_len};
use super::super::lexer::escapes::{
    escape_after, json_string, simple_escape, surrogate_pair, unicode_escape, Escape, Unicode,
};
use super::super::lexer::numbers::is_json_number;
use super::super::lexer::Lexer;
use super::*;

#[test]
fn simple_escapes_are_the_json_ones() {
    let escapes = [
        (b'"', '"'),
        (b'\\', '\\'),
        (b'/', '/'),
        (b'b', '\u{8}'),
        (b'f', '\u{c}'),
        (b'n', '\n'),
        (b'r', '\r'),
        (b't', '\t'),
    ];
    for b in 0..=u8::MAX {
        let expected = escapes.iter().find(|(byte, _)| *byte == b).map(|(_, c)| *c);
        assert_eq!(simple_escape(b), expected, "escape `\\{}`", char::from(b));
    }
    // `u` is no one-letter escape, nor is `'` (the lenient modes repair `\'` themselves).
    assert_eq!(simple_escape(b'u'), None);
    assert_eq!(simple_escape(b'\''), None);
}

#[test]
fn unicode_escapes_decode_whole_or_say_why_not() {
    let cases: &[(&str, Unicode)] = &[
        (r"\u0041", Unicode::Char('A', 6)),
        (r"\u00e9rest", Unicode::Char('é', 6)),
        (r"\uFFFF", Unicode::Char('\u{ffff}', 6)),
        (r"\ud83d\ude00", Unicode::Char('😀', 12)),
        (r"\uD83D\uDE00tail", Unicode::Char('😀', 12)),
        (r"\udbff\udfff", Unicode::Char('\u{10ffff}', 12)),
        (r"\ud800\udc00", Unicode::Char('\u{10000}', 12)),
        // Not four hex digits, or cut off before them.
        (r"\u", Unicode::NotHex),
        (r"\u12", Unicode::NotHex),
        (r"\u12G4", Unicode::NotHex),
        (r"\u+123", Unicode::NotHex),
        // A high surrogate without a low one after it: another character, another escape,
        // a high surrogate again, or the end of the buffer (possibly inside the escape).
        (r"\ud83dx", Unicode::HighAlone),
        (r"\ud83d\n", Unicode::HighAlone),
        (r"\ud83d\u0041", Unicode::HighAlone),
        (r"\ud83d\ud83d", Unicode::HighAlone),
        (r"\ud83d", Unicode::HighAlone),
        (r"\ud83d\", Unicode::HighAlone),
        (r"\ud83d\ude", Unicode::HighAlone),
        (r"\ud83d\uZZZZ", Unicode::HighAlone),
        // A low surrogate first.
        (r"\udc00", Unicode::LowAlone),
        (r"\ude00\ud83d", Unicode::LowAlone),
    ];
    for (text, expected) in cases {
        assert_eq!(unicode_escape(text.as_bytes(), 0), *expected, "{text}");
        // The same escape later in a buffer.
        let shifted = format!("ab{text}");
        assert_eq!(unicode_escape(shifted.as_bytes(), 2), *expected, "{shifted}");
    }
    // Past the end of the buffer: nothing to decode.
    assert_eq!(unicode_escape(b"\\u0041", 7), Unicode::NotHex);
}

#[test]
fn surrogate_pairs_cover_the_supplementary_planes() {
    for code in [0x10000_u32, 0x1F600, 0x2_0000, 0xF_FFFF, 0x10_FFFF] {
        let c = char::from_u32(code).unwrap_or_else(|| panic!("U+{code:X} is a character"));
        let mut units = [0; 2];
        c.encode_utf16(&mut units);
        assert_eq!(surrogate_pair(units[0], units[1]), c, "U+{code:X}");
    }
    // Halves that make no pair give U+FFFD, never a panic.
    assert_eq!(surrogate_pair(0, 0), char::REPLACEMENT_CHARACTER);
    assert_eq!(surrogate_pair(0xFFFF, 0xFFFF), char::REPLACEMENT_CHARACTER);
}

#[test]
fn each_escape_is_named_once_for_every_reader() {
    for b in 0..=u8::MAX {
        let (json, python) = (escape_after(b, false), escape_after(b, true));
        match simple_escape(b) {
            Some(c) => assert_eq!((json, python), (Escape::Simple(c), Escape::Simple(c))),
            None => assert!(!matches!(json, Escape::Simple(_) | Escape::Named | Escape::Python { .. })),
        }
        if b >= 0x80 {
            assert_eq!((json, python), (Escape::NonAscii, Escape::NonAscii));
        }
    }
    assert_eq!(escape_after(b'u', true), Escape::Unicode);
    assert_eq!(escape_after(b'\'', false), Escape::Quote);
    assert_eq!(escape_after(b'\n', false), Escape::LineBreak);
    // Python's own escapes only in a Python literal.
    assert_eq!(escape_after(b'N', true), Escape::Named);
    assert_eq!(escape_after(b'N', false), Escape::Other);
    assert_eq!(escape_after(b'x', true), Escape::Python { width: 2, first: None });
    assert_eq!(escape_after(b'U', true), Escape::Python { width: 8, first: None });
    assert_eq!(escape_after(b'7', true), Escape::Python { width: 0, first: Some(7) });
    assert_eq!(escape_after(b'x', false), Escape::Other);
    assert_eq!(escape_after(b'd', true), Escape::Other);
}

#[test]
fn a_json_string_decodes_as_serde_json_reads_it() {
    let texts = [
        r#""""#,
        r#""plain""#,
        r#""a\"b\\c\/d\b\f\n\r\t""#,
        r#""\u00e9\u0041""#,
        r#""\ud83d\ude00""#,
        r#""é and 😀""#,
        " \t\"blanks around\"\r\n",
        // Not JSON: each is refused by both.
        r#""it\'s""#,
        r#""\x41""#,
        r#""\ud83d""#,
        r#""\ude00""#,
        r#""\ud83d\u0041""#,
        r#""\u12G4""#,
        "\"tab\there\"",
        r#""open"#,
        r#""a"b""#,
        "\u{a0}\"nbsp\"",
        r#"'single'"#,
        "plain",
        "",
    ];
    for text in texts {
        assert_eq!(json_string(text), serde_json::from_str::<String>(text).ok(), "{text}");
    }
}

#[test]
fn the_number_grammar_is_serde_jsons() {
    let texts = [
        "0",
        "-0",
        "7",
        "-7",
        "10",
        "01",
        "-01",
        "00",
        "0.5",
        "-0.5",
        ".5",
        "1.",
        "1.e5",
        "1e5",
        "1E5",
        "1e+5",
        "1e-5",
        "1e",
        "1e+",
        "-",
        "",
        "+1",
        "0x1F",
        "1_000",
        "1.5e3.2",
        "1..5",
        "--1",
        "123456789012345678901234567890",
        "1e999",
        "12a",
    ];
    for text in texts {
        // What serde_json reads as one number (its range aside: `1e999` is out of it).
        let grammar = serde_json::from_str::<serde_json::Number>(text).is_ok() || text == "1e999";
        assert_eq!(is_json_number(text.as_bytes()), grammar, "{text:?}");
    }
}

#[test]
fn utf8_lead_bytes_give_the_character_length() {
    for c in ['a', '\u{7f}', 'é', '\u{7ff}', '€', '\u{ffff}', '😀', '\u{10ffff}'] {
        let mut utf8 = [0; 4];
        let encoded = c.encode_utf8(&mut utf8);
        assert_eq!(usize::from(utf8_len(encoded.as_bytes()[0])), encoded.len(), "{c:?}");
    }
    // A byte that leads no character counts as one (the UTF-8 check reports it).
    for b in (0x80..=0xBF).chain(0xF8..=0xFF) {
        assert_eq!(utf8_len(b), 1, "byte 0x{b:02x}");
    }
    // How an error names a character, whole, cut off, or not UTF-8 at all.
    assert_eq!(describe_char("é".as_bytes(), 0), "`é`");
    assert_eq!(describe_char(&"é".as_bytes()[..1], 0), "byte 0xc3");
    assert_eq!(describe_char(&[0x80, b'a', b'b', b'c'], 0), "byte 0x80");
    assert_eq!(describe_char(&[0xFF], 0), "byte 0xff");
    assert_eq!(describe_char(b"\n", 0), "U+000A");
    assert_eq!(describe_char(b"", 0), "the end of the input");
}

#[test]
fn the_special_white_space_is_read_as_white_space_everywhere() {
    for c in ['\u{a0}', '\u{180e}', '\u{2000}', '\u{2007}', '\u{200b}', '\u{202f}', '\u{205f}', '\u{3000}'] {
        assert!(is_special_space(c), "U+{:04X}", u32::from(c));
        // Between tokens, and after a quote that may close a string in repair mode.
        let between = format!("[1,{c}2]");
        check(&between, &lenient(), &json!([1, 2]), &[SpecialWhitespace]);
        let after_quote = format!("{{\"a\": \"b\"{c}}}");
        let parsed =
            parse(&after_quote, &ParseOptions::repair()).unwrap_or_else(|e| panic!("{after_quote:?}: {e}"));
        assert_eq!(parsed.value, json!({"a": "b"}), "{after_quote:?}");
    }
    assert!(!is_special_space(' '));
    assert!(!is_special_space('a'));
}

#[test]
fn only_a_repair_mode_lexer_carries_the_repair_state() {
    for mode in [ParseMode::Strict, ParseMode::Lenient] {
        let lexer = Lexer::new(mode, NonFinite::Reject, 0).with_readings(&ParseOptions::repair());
        assert!(lexer.salvage.is_none(), "{mode:?}");
        let lexer = Lexer::in_prose(mode, NonFinite::Reject, 0, false);
        assert!(lexer.salvage.is_none(), "{mode:?}");
    }
    let lexer = Lexer::new(ParseMode::Repair, NonFinite::Reject, 0);
    assert!(lexer.salvage.as_ref().is_some_and(|salvage| salvage.stream_stable && !salvage.python_style));
    let options =
        ParseOptions { style: RepairStyle::JsonRepair, stream_stable: false, ..ParseOptions::repair() };
    let lexer = Lexer::new(ParseMode::Repair, NonFinite::Reject, 0).with_readings(&options);
    assert!(lexer.salvage.as_ref().is_some_and(|salvage| !salvage.stream_stable && salvage.python_style));
}
