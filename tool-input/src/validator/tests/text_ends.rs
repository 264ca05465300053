//! The one-pass attempt's cheap tests of a text's ends: whether it opens an object, and
//! whether it ends as a strict object does.

use serde_json::Value;

use super::super::{object_end, opens_object, ObjectEnd};

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

/// `object_end` says no only where `serde_json` would refuse the object at its end: every
/// text it refuses is one `serde_json` refuses; `,}` is told apart.
#[test]
fn a_text_that_does_not_close_an_object_is_one_serde_json_refuses() {
    use ObjectEnd::{Closed, Other, TrailingComma};
    for (text, end) in [
        (r#"{"a": 1}"#, Closed),
        ("{\"a\": 1} \n\t\r", Closed),
        ("{}", Closed),
        (r#"{"a": [1,]}"#, Closed),
        (r#"{"a": 1,}"#, TrailingComma),
        ("{\"a\": 1 ,\n}\n", TrailingComma),
        (r#"{"a": 1} Hope this helps!"#, Other),
        ("{\"a\": 1}\n```", Other),
        (r#"{"a": 1"#, Other),
        (r#"{"a": "x,}"}"#, Closed),
        // Not closed: the brace is inside the string (though it ends as a trailing comma
        // would, which the reading of its strings tells apart).
        (r#"{"a": "x,}"#, TrailingComma),
        ("", Other),
    ] {
        assert_eq!(object_end(text), end, "{text:?}");
        if end != Closed {
            assert!(serde_json::from_str::<Value>(text).is_err(), "{text:?}");
        }
    }
}
