//! The one-pass attempt's cheap tests of a text's ends: whether it opens an object, and
//! whether it ends as a strict object does.

use serde_json::Value;

use super::super::{closes_object, opens_object};

#[test]
fn opens_object_reads_white_space_as_trim_start_does() {
    for text in [
        "{}",
        "  {",
        "\t\n\r {",
        "\x0B{",
        "\x0C{",
        "\u{a0}{",
        "\u{2028}\u{85}{",
        "\u{feff}{",
        "",
        "   ",
        "[",
        "x{",
        " \u{a0} [",
        "{\u{a0}",
    ] {
        assert_eq!(opens_object(text), text.trim_start().starts_with('{'), "{text:?}");
    }
}

/// `closes_object` says no only where `serde_json` would refuse the object at its end: every
/// text it refuses is one `serde_json` refuses.
#[test]
fn a_text_that_does_not_close_an_object_is_one_serde_json_refuses() {
    for (text, closes) in [
        (r#"{"a": 1}"#, true),
        ("{\"a\": 1} \n\t\r", true),
        ("{}", true),
        (r#"{"a": [1,]}"#, true),
        (r#"{"a": 1,}"#, false),
        ("{\"a\": 1 ,\n}\n", false),
        (r#"{"a": 1} Hope this helps!"#, false),
        ("{\"a\": 1}\n```", false),
        (r#"{"a": 1"#, false),
        (r#"{"a": "x,}"}"#, true),
        // Not closed: the brace is inside the string.
        (r#"{"a": "x,}"#, false),
        ("", false),
    ] {
        assert_eq!(closes_object(text), closes, "{text:?}");
        if !closes {
            assert!(serde_json::from_str::<Value>(text).is_err(), "{text:?}");
        }
    }
}
