//! Tests of the incremental parser: the final result equals the one-shot parse of the whole
//! text over random splits, events agree with the final value, partial values are prefixes
//! of it, and the limits hold as the input arrives.

use std::collections::HashMap;

use proptest::prelude::*;
use serde_json::{json, Value};

use crate::parse::tests::fragment_inputs;

use super::generated::Lcg;
pub(in crate::parse) use super::generated::{gen_strategy, write, Gen};
use crate::parse::{
    parse, parse_bytes, IncrementalParser, ParseError, ParseMode, ParseOptions, Parsed, RepairKind,
    RepairStyle, StreamEvent,
};

/// A `ValueComplete` event.
fn complete(path: &str, value: Value) -> StreamEvent<'static> {
    StreamEvent::ValueComplete { path: path.to_owned().into(), value: std::borrow::Cow::Owned(value) }
}

fn lenient() -> ParseOptions {
    ParseOptions::default()
}

fn completing() -> ParseOptions {
    ParseOptions { complete_truncated: true, ..ParseOptions::default() }
}

fn every_mode() -> [ParseOptions; 6] {
    [
        ParseOptions::strict(),
        lenient(),
        completing(),
        ParseOptions::repair(),
        ParseOptions { complete_truncated: true, ..ParseOptions::repair() },
        ParseOptions { complete_truncated: true, style: RepairStyle::JsonRepair, ..ParseOptions::repair() },
    ]
}

/// What one incremental run saw.
struct Run {
    result: Result<Parsed, ParseError>,
    events: Vec<StreamEvent<'static>>,
    /// The partial value after each fragment, with how many events had come by then.
    partials: Vec<(Value, usize)>,
}

/// Feed `text` in the pieces between `cuts` (byte offsets; as `str` they must be character
/// boundaries), collecting events and partial values.
fn run(text: &str, cuts: &[usize], options: &ParseOptions, as_bytes: bool) -> Run {
    let mut parser = IncrementalParser::new(options.clone());
    let mut events = Vec::new();
    let mut partials = Vec::new();
    let mut from = 0;
    for &cut in cuts.iter().chain(std::iter::once(&text.len())) {
        let cut = cut.clamp(from, text.len());
        let on = |event: StreamEvent<'_>| events.push(event.into_owned());
        let _ = if as_bytes {
            parser.feed_bytes_with(&text.as_bytes()[from..cut], on)
        } else {
            parser.feed_with(&text[from..cut], on)
        };
        // Brought up to date from the last one, it is the partial value built from nothing.
        assert_eq!(parser.partial(), &parser.fresh_partial(), "{text:?} cut at {cuts:?}, at {cut}");
        partials.push((parser.partial().clone(), events.len()));
        from = cut;
    }
    assert_eq!(parser.bytes(), text.len());
    let result = parser.finish_with(|event| events.push(event.into_owned()));
    Run { result, events, partials }
}

/// Whether `partial` is a prefix of `full`: strings are prefixes, arrays have their items
/// but the last equal and the last a prefix, objects hold a subset of the members, each a
/// prefix; `null` is the value not started.
fn is_prefix(partial: &Value, full: &Value) -> bool {
    match (partial, full) {
        (Value::Null, _) => true,
        (Value::String(a), Value::String(b)) => b.starts_with(a.as_str()),
        (Value::Array(a), Value::Array(b)) => {
            a.len() <= b.len()
                && a.iter()
                    .zip(b)
                    .enumerate()
                    .all(|(k, (x, y))| if k + 1 == a.len() { is_prefix(x, y) } else { x == y })
        }
        (Value::Object(a), Value::Object(b)) => {
            a.iter().all(|(k, v)| b.get(k).is_some_and(|w| is_prefix(v, w)))
        }
        // An object that turns out to hold only keys is a set, read as the array of them
        // (`{'a', 'b'}`): before its first key ended, it showed as the empty object it
        // started as.
        (Value::Object(a), Value::Array(_)) => a.is_empty(),
        _ => partial == full,
    }
}

/// Check one incremental run against the one-shot parse: the same result; and, when it is a
/// value (strict and lenient modes), the events after the last restart agree with it and
/// each partial value since then is a prefix of it. `unique_keys`: no object has a key
/// twice (a later duplicate replaces a reported value).
fn check(text: &str, cuts: &[usize], options: &ParseOptions, as_bytes: bool, unique_keys: bool) {
    let expected = if as_bytes { parse_bytes(text.as_bytes(), options) } else { parse(text, options) };
    let Run { result, events, partials } = run(text, cuts, options, as_bytes);
    assert_eq!(result, expected, "{text:?} cut at {cuts:?} ({options:?}, bytes: {as_bytes})");
    if options.mode == ParseMode::Repair {
        assert!(events.is_empty(), "no events in repair mode");
    }
    let Ok(parsed) = expected else { return };
    // A lenient reading may make a repeated key of keys the writer kept apart: a quote that
    // the JsonRepair style does not take as the end of a string before a character that is
    // no delimiter (such as U+00A0) carries the string past a `}`, and a later key falls into
    // the object before it.
    let unique_keys =
        unique_keys && !matches!(crate::parse::parse_noting_repeats(text, options, false), Ok((_, true)));
    let restart = events.iter().rposition(|e| *e == StreamEvent::Restart).map_or(0, |k| k + 1);
    let decoded = parsed.repairs.iter().any(|r| r.kind == RepairKind::DoubleEncoded);
    let mut grown: HashMap<String, String> = HashMap::new();
    for event in &events[restart..] {
        match event {
            StreamEvent::ValueComplete { path, value } if unique_keys => {
                assert_eq!(
                    parsed.value.pointer(path),
                    Some(&**value),
                    "{text:?} ({options:?}): event at {path:?} in {}",
                    parsed.value
                );
            }
            StreamEvent::StringGrew { path, appended } => {
                grown.entry(path.to_string()).or_default().push_str(appended)
            }
            _ => {}
        }
    }
    for (path, text_grown) in &grown {
        if decoded && path.is_empty() {
            continue; // the double-encoded text, decoded only at the end
        }
        let Some(Value::String(full)) = parsed.value.pointer(path) else {
            // Only a later member with the same key replaces a string that grew.
            assert!(!unique_keys, "{text:?}: string grew at {path:?}, not a string in {}", parsed.value);
            continue;
        };
        let completed = parsed.repairs.iter().any(|r| r.kind == RepairKind::CompletedTruncated);
        if unique_keys && !completed {
            assert_eq!(full, text_grown, "{text:?}: the pieces of {path:?}");
        } else {
            assert!(full.starts_with(text_grown.as_str()), "{text:?}: the pieces of {path:?}");
        }
    }
    // Repair mode's partial value is the lenient reading, which its guesses may change.
    if unique_keys && !decoded && options.mode != ParseMode::Repair {
        for (partial, seen) in &partials {
            if *seen >= restart {
                assert!(is_prefix(partial, &parsed.value), "{text:?}: partial {partial} of {}", parsed.value);
            }
        }
    }
}

/// [`check`] over every way `input` can arrive: whole, cut in two at every byte (as bytes)
/// and at every character boundary (as `str`), and a byte or a character at a time.
fn check_every_split(input: &str, options: &ParseOptions) {
    let boundaries: Vec<usize> = (0..=input.len()).filter(|&k| input.is_char_boundary(k)).collect();
    check(input, &[], options, false, false);
    for cut in 0..=input.len() {
        check(input, &[cut], options, true, false);
    }
    for &cut in &boundaries {
        check(input, &[cut], options, false, false);
    }
    let every: Vec<usize> = (1..input.len()).collect();
    check(input, &every, options, true, false);
    check(input, &boundaries, options, false, false);
}

/// Split points: every `step`-ish bytes from a seed, moved back to character boundaries
/// when `chars`.
fn cuts_of(text: &str, seed: u64, max: usize, chars: bool) -> Vec<usize> {
    let mut state = seed | 1;
    let mut cuts = Vec::new();
    let mut at = 0;
    loop {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        at += 1 + (state >> 33) as usize % max;
        if at >= text.len() {
            return cuts;
        }
        let mut cut = at;
        while chars && !text.is_char_boundary(cut) {
            cut -= 1;
        }
        cuts.push(cut);
    }
}

// ---------------------------------------------------------------- examples

#[test]
fn fixed_inputs_in_every_split_give_the_one_shot_result() {
    // Every kind of token, escape, multi-byte character, repair, prose and look-ahead.
    let mut inputs = fragment_inputs();
    inputs.extend(
        [
            r#"{"content": "line 1\nline \u00e9 \ud83d\ude00 tab\t", "n": [1, 2.5, -3e2, true, null]}"#,
            "Sure! {\"a\": 1, oops} then {\"a\": 2}",
            "Text [x] {y} [z] {\"a\": 1}",
            "x {\"a\": [1, 2} {\"b\": 3}",
            "```json\n{\"a\": 1}\n```",
            "{\"a\": NumberLong(2), \"b\": ObjectId(\"x\"), \"c\": callback([1, 2])}",
            "\"{\\\"a\\\": [1, {\\\"b\\\": \\\"c\\\"}]}\"",
            "{\"a\": {\"b\": {\"c\": [[], {}, [[\"deep\"]]]}}}",
            "{\"a\": 1, \"a\": {\"b\": 2}}",
            "[\"a\", 'b', “c”, ‘d’, 'it's']",
            "{\"a\":",
            "{\"a\"",
            "{\"a\": [1, 2,",
            "[1, 2",
            "-",
            "",
            "   ",
            "{\"k\": \"v\"} trailing prose",
            "{\"k\": \"v\"} {\"second\": 1}",
            "{\"a\" 1}",
            "[{\"a\": , \"b\": [{]}, {]",
            "{\"s\": \"\\ud83d\"}",
            "{\"s\": \"\\ud83dx\\udc00\"}",
        ]
        .iter()
        .map(|s| (*s).to_owned()),
    );
    for input in &inputs {
        for options in every_mode() {
            check_every_split(input, &options);
        }
    }
}

#[test]
fn where_strings_end_agrees_in_every_split() {
    // The look-ahead past quotes (a stray quote before the end of an object, quotes that
    // json_repair pairs, text without quotes read on to its closing quote, a string ended
    // inside a brace), cut at every byte and fed a byte at a time, in both repair styles.
    let inputs = [
        "{\"a\": \"hello\n\"\n\",}",
        "{\"a\": \"hello\n\"\n\",",
        "{\"a\": \"x\n\"\n\",\n\"b\": 1}",
        "{\"a\": {\"b\": \"c\" \" , \n}, \"d\": \"“e” \"\n\" ,é}",
        "[{\"key\": \"v\"alue\"}, {\"a\": \"say \"hi\"}}, {\"b\": \"v\"alu\"e\"}]",
        "{\"lorem\": ipsum, sic, datum.\",}",
        "{ \"a\" : \"{ b\": {} }\" }",
        "[{\"a\": \"x\": [1, {}], \"b\": \"{ c{\"d\": 1}\": 2}] \"e\", 3 [4]",
        "{\"a\": x, y\", \"b\": x, y\"z\", \"c\": x, y/ /*c*/\n, \"d\": x, é\"",
    ];
    for input in inputs {
        for style in [RepairStyle::Jsonrepair, RepairStyle::JsonRepair] {
            for complete_truncated in [false, true] {
                let options = ParseOptions { complete_truncated, style, ..ParseOptions::repair() };
                check_every_split(input, &options);
            }
        }
    }
}

#[test]
fn structure_guesses_agree_in_every_split() {
    // A repeated key starting the next item (after stray quotes, after a missing comma, cut
    // off), a table row that lost its `[`: decided by later tokens, the same however the
    // text arrives, in both repair styles.
    let inputs = [
        "[{\"lorem\": {\"ipsum\": \"sic\"}, \"\"\"\" \"lorem\": {\"ipsum\": \"sic\"}]",
        "[{\"a\": 1 \"a\": 2}, {\"a\": 1, \"a\"}]",
        "[{\"key\": \"value\", \"key",
        "{\"rows\": [[\"a\", \"b\"], \"c\", \"d\"], [\"e\", \"f\"]], \"n\": 4}",
    ];
    for style in [RepairStyle::Jsonrepair, RepairStyle::JsonRepair] {
        let options = ParseOptions { complete_truncated: true, style, ..ParseOptions::repair() };
        for input in inputs {
            check_every_split(input, &options);
        }
    }
}

#[test]
fn events_of_a_file_write() {
    let mut parser = IncrementalParser::new(lenient());
    let mut events = Vec::new();
    for chunk in
        [r#"{"path": "a.md", "con"#, r##"tent": "# T"##, r#"itle\n\nBody \u00e"#, r#"9", "mode": 1}"#]
    {
        parser.feed_with(chunk, |event| events.push(event.into_owned())).unwrap();
    }
    let grew = |appended: &str| StreamEvent::StringGrew {
        path: "/content".into(),
        appended: appended.to_owned().into(),
    };
    assert_eq!(
        events,
        [
            complete("/path", json!("a.md")),
            grew("# T"),
            grew("itle\n\nBody "),
            grew("é"),
            complete("/content", json!("# Title\n\nBody é")),
            complete("/mode", json!(1)),
        ]
    );
    assert_eq!(
        parser.finish().unwrap().value,
        json!({"path": "a.md", "content": "# Title\n\nBody é", "mode": 1})
    );
}

#[test]
fn each_fragment_of_a_string_reports_the_path_it_is_at() {
    // The path of the string being read is made once and kept until it ends: it must follow
    // the string it belongs to (the next item, another member, a deeper object), be escaped,
    // and be made even when the string opened while nobody listened.
    for options in [lenient(), ParseOptions::strict()] {
        let mut parser = IncrementalParser::new(options.clone());
        let mut events = Vec::new();
        parser.feed(r#"{"a/b~c": ["one", "tw"#).unwrap();
        for chunk in
            ["o and", " more", r#"", "thr"#, r#"ee"], "n": {"k": "deep"#, r#" text"}, "#, r#""e": """#]
        {
            parser.feed_with(chunk, |event| events.push(event.into_owned())).unwrap();
        }
        parser.feed_with("}", |event| events.push(event.into_owned())).unwrap();
        let grew = |path: &str, appended: &str| StreamEvent::StringGrew {
            path: path.to_owned().into(),
            appended: appended.to_owned().into(),
        };
        assert_eq!(
            events,
            [
                grew("/a~1b~0c/1", "o and"),
                grew("/a~1b~0c/1", " more"),
                complete("/a~1b~0c/1", json!("two and more")),
                grew("/a~1b~0c/2", "thr"),
                grew("/a~1b~0c/2", "ee"),
                complete("/a~1b~0c/2", json!("three")),
                complete("/a~1b~0c", json!(["one", "two and more", "three"])),
                grew("/n/k", "deep"),
                grew("/n/k", " text"),
                complete("/n/k", json!("deep text")),
                complete("/n", json!({"k": "deep text"})),
                complete("/e", json!("")),
            ],
            "{options:?}"
        );
        assert_eq!(
            parser.finish().unwrap().value,
            json!({"a/b~c": ["one", "two and more", "three"], "n": {"k": "deep text"}, "e": ""})
        );
    }
}

#[test]
fn escapes_cut_anywhere_agree_in_every_split() {
    // A string already shown reads its fragments past the states (`Lexer::string_run`):
    // complete escapes, escapes cut off by a fragment's end and completed by the next,
    // surrogate pairs cut anywhere, and what it leaves to the states (lone surrogates,
    // invalid escapes and raw control characters, repaired in the lenient modes; other
    // quotes), in two fragments cut anywhere and in three cut at every pair of places.
    let inputs = [
        r#"{"a": "x\ny\u00e9z\ud83d\ude00w\\\"q\/\b\f\r\tend", "b": "\uD835\uDD18\uD835"}"#,
        r#"["\u12", "\ud800\u0041", "\udc00x", "\ud83d\ud83d\ude00", "a\u00zz"]"#,
        "{\"t\": \"tab\traw \\x and \\'q\\' \\\nnext\", \"n\": 1}",
        "{'s': 'it\\'s \\u00e9 \\n ok', \"d\": \"\\ud83d\\ude00\\ud83d\"}",
        "[\"\\\\\\\\u0041\", \"\\/\\\"\", \"ends in \\u00e9\"]",
    ];
    for input in inputs {
        for options in every_mode() {
            check_every_split(input, &options);
        }
        for options in [ParseOptions::strict(), lenient(), completing()] {
            for first in 1..input.len() {
                for second in first + 1..input.len() {
                    check(input, &[first, second], &options, true, true);
                    if input.is_char_boundary(first) && input.is_char_boundary(second) {
                        check(input, &[first, second], &options, false, true);
                    }
                }
            }
        }
    }
}

#[test]
fn each_fragment_reports_the_escapes_it_completes_as_one_piece() {
    // An escape cut off by a fragment's end is reported by the fragment that completes it,
    // with the text around it, in one piece.
    for options in [lenient(), ParseOptions::strict()] {
        let mut parser = IncrementalParser::new(options.clone());
        let mut events = Vec::new();
        for chunk in [
            r#"{"s": "a"#,
            r#"b\u00"#,
            r#"e9c\n\ud83d"#,
            r#"\ude00d"#,
            r#"\"#,
            r#""e", "#,
            r#""t": "x\"#,
            "u0041\\ud8",
            "3d\\",
            "ude00\"}",
        ] {
            parser.feed_with(chunk, |event| events.push(event.into_owned())).unwrap();
        }
        let grew = |path: &str, appended: &str| StreamEvent::StringGrew {
            path: path.to_owned().into(),
            appended: appended.to_owned().into(),
        };
        assert_eq!(
            events,
            [
                grew("/s", "a"),
                grew("/s", "b"),
                grew("/s", "éc\n"),
                grew("/s", "😀d"),
                grew("/s", "\"e"),
                complete("/s", json!("abéc\n😀d\"e")),
                grew("/t", "x"),
                grew("/t", "A"),
                grew("/t", "😀"),
                complete("/t", json!("xA😀")),
            ],
            "{options:?}"
        );
        assert_eq!(parser.finish().unwrap().value, json!({"s": "abéc\n😀d\"e", "t": "xA😀"}));
    }
}

#[test]
fn events_have_json_pointer_paths() {
    let mut paths = Vec::new();
    let mut parser = IncrementalParser::new(lenient());
    parser
        .feed_with(r#"{"a/b": [{"~": 1}, [true]], "": null}"#, |event| {
            paths.extend(event.path().map(str::to_owned))
        })
        .unwrap();
    assert_eq!(paths, ["/a~1b/0/~0", "/a~1b/0", "/a~1b/1/0", "/a~1b/1", "/a~1b", "/"]);
}

#[test]
fn indices_of_many_items_are_written_in_full() {
    // Items past the ninth, nested: each index is written whole, whatever its digits.
    let items: Vec<String> = (0..120).map(|k| format!("[{k}]")).collect();
    let text = format!("{{\"rows\": [{}]}}", items.join(", "));
    let mut paths = Vec::new();
    let mut parser = IncrementalParser::new(ParseOptions::default());
    for piece in text.as_bytes().chunks(7) {
        let piece = std::str::from_utf8(piece).unwrap();
        parser.feed_with(piece, |event| paths.extend(event.path().map(str::to_owned))).unwrap();
    }
    let expected: Vec<String> = (0..120)
        .flat_map(|k| [format!("/rows/{k}/0"), format!("/rows/{k}")])
        .chain(std::iter::once("/rows".to_owned()))
        .collect();
    assert_eq!(paths, expected);
}

#[test]
fn strings_that_stream_in_are_held_at_their_length() {
    // The shown string's buffer is kept from string to string; each shown value is a copy
    // of exactly its text, however it arrived, and the buffer's text never leaks into the
    // next.
    let long = "x".repeat(300);
    let text = format!(r#"{{"a": "{long}", "b": "short", "c": "é\u00e9{long}", "d": ""}}"#);
    for size in [1, 3, 8, 64] {
        let mut parser = IncrementalParser::new(ParseOptions::default());
        let mut grown: HashMap<String, String> = HashMap::new();
        let mut completed = Vec::new();
        let mut from = 0;
        while from < text.len() {
            let mut to = (from + size).min(text.len());
            while !text.is_char_boundary(to) {
                to += 1;
            }
            parser
                .feed_with(&text[from..to], |event| match event {
                    StreamEvent::StringGrew { path, appended } => {
                        grown.entry(path.into_owned()).or_default().push_str(&appended)
                    }
                    StreamEvent::ValueComplete { path, value } => {
                        completed.push((path.into_owned(), value.into_owned()))
                    }
                    _ => {}
                })
                .unwrap();
            from = to;
        }
        let value = parser.finish().unwrap().value;
        assert_eq!(value, parse(&text, &ParseOptions::default()).unwrap().value);
        for (path, value) in &completed {
            assert_eq!(Some(value), value_at(&text, path).as_ref(), "{path} in pieces of {size}");
        }
        assert!(grown.contains_key("/a") && grown.contains_key("/c"), "long strings are shown");
        for (key, string) in value.as_object().unwrap() {
            let Value::String(string) = string else { panic!("{key} is a string") };
            // A string read within one fragment is the lexer's (from its spare strings).
            if let Some(pieces) = grown.get(&format!("/{key}")) {
                assert_eq!(pieces, string, "{key} in pieces of {size}");
                assert_eq!(string.capacity(), string.len(), "{key} in pieces of {size}");
            }
        }
    }
}

/// The value at `path` in the one-shot parse of `text`.
fn value_at(text: &str, path: &str) -> Option<Value> {
    parse(text, &ParseOptions::default()).ok()?.value.pointer(path).cloned()
}

#[test]
fn a_function_call_is_refused_when_it_opens() {
    let mut events = Vec::new();
    let mut parser = IncrementalParser::new(lenient());
    let fed = parser.feed_with(r#"{"t": [1, 2], "n": abs(-5)}"#, |event| events.push(event.into_owned()));
    let error = fed.err().map(|e| e.to_string()).unwrap_or_default();
    assert!(error.contains("function call is not a value"), "{error}");
    let paths: Vec<&str> = events.iter().filter_map(StreamEvent::path).collect();
    assert_eq!(paths, ["/t/0", "/t/1", "/t"]);
}

#[test]
fn a_duplicate_key_reports_again() {
    let mut events = Vec::new();
    let mut parser = IncrementalParser::new(lenient());
    parser.feed_with(r#"{"a": 1, "a": 2}"#, |event| events.push(event.into_owned())).unwrap();
    assert_eq!(events.len(), 2);
    assert_eq!(events[1], complete("/a", json!(2)));
    assert_eq!(parser.finish().unwrap().value, json!({"a": 2}));
}

/// A candidate after prose that fails only when the input ends: the value after it is read
/// at `finish`, which reports it (a `Restart` for each candidate given up, then its members)
/// as a fragment would have, however the text arrived.
#[test]
fn a_value_found_at_the_end_reports_its_members_then() {
    for (text, value) in [
        (r#"Sure: {6''{"city": "Paris"} '"#, r#"{"city": "Paris"}"#),
        (
            "iftr{6''r{customer6e\",6}, {\"sku\": \"WLJ\", \"quantity\": 16, \"a\": [1, {\"k\": 2}]} '",
            r#"{"sku": "WLJ", "quantity": 16, "a": [1, {"k": 2}]}"#,
        ),
    ] {
        // The value's own events, read alone.
        let alone = run(value, &[], &lenient(), false).events;
        assert!(!alone.is_empty());
        for cuts in [vec![], vec![text.len() / 2], (1..text.len()).collect()] {
            let Run { result, events, .. } = run(text, &cuts, &lenient(), false);
            assert_eq!(result, parse(text, &lenient()), "{text:?} cut at {cuts:?}");
            let restart = events.iter().rposition(|e| *e == StreamEvent::Restart).map(|k| k + 1);
            assert_eq!(restart.map(|k| &events[k..]), Some(&alone[..]), "{text:?} cut at {cuts:?}");
        }
        // `finish` alone reports nothing, and gives the same value.
        let mut parser = IncrementalParser::new(lenient());
        parser.feed(text).unwrap();
        assert_eq!(parser.finish(), parse(text, &lenient()));
    }
}

#[test]
fn a_value_after_prose_that_fails_restarts() {
    let text = "Sure! {\"a\": 1, oops} and then {\"a\": 2}";
    let mut events = Vec::new();
    let mut parser = IncrementalParser::new(lenient());
    for chunk in text.as_bytes().chunks(5) {
        parser.feed_bytes_with(chunk, |event| events.push(event.into_owned())).unwrap();
        if events.contains(&StreamEvent::Restart) && !text.starts_with("Sure! {\"a\": 1, oops} and then {") {
            assert_eq!(parser.partial(), &Value::Null);
        }
    }
    assert_eq!(events[0], complete("/a", json!(1)));
    assert_eq!(events[1], StreamEvent::Restart);
    assert_eq!(events[2], complete("/a", json!(2)));
    assert_eq!(parser.partial(), &json!({"a": 2}));
    assert_eq!(parser.finish(), parse(text, &lenient()));
}

#[test]
fn partial_values_grow() {
    let text =
        r#"{"path": "notes.md", "tags": ["a", "b"], "count": 12, "text": "x\u00e9y", "more": {"k": tru"#;
    let mut parser = IncrementalParser::new(lenient());
    let mut seen = Vec::new();
    for chunk in text.as_bytes().chunks(3) {
        parser.feed_bytes(chunk).unwrap();
        seen.push(parser.partial().clone());
    }
    assert!(seen.contains(&json!({"path": "notes.md", "tags": ["a"]})));
    assert!(seen.contains(&json!({"path": "notes.md", "tags": ["a", "b"]})));
    assert!(seen.contains(&json!({"path": "notes.md", "tags": ["a", "b"], "count": 12, "text": "x"})));
    let texts: Vec<&str> = seen.iter().filter_map(|partial| partial["text"].as_str()).collect();
    assert!(texts.windows(2).all(|pair| pair[1].starts_with(pair[0])), "{texts:?}");
    assert_eq!(
        parser.partial(),
        &json!({"path": "notes.md", "tags": ["a", "b"], "count": 12, "text": "xéy", "more": {}})
    );
    for partial in &seen {
        assert!(partial.is_object());
    }
    assert!(matches!(parser.finish(), Err(ParseError::Truncated { inside: "a literal", .. })));
}

#[test]
fn repair_mode_shows_the_lenient_reading() {
    let text = r#"{"a": [1, 2], "b": "x" "c": 3}"#;
    let mut parser = IncrementalParser::new(ParseOptions::repair());
    let mut events = 0;
    for chunk in text.as_bytes().chunks(4) {
        parser.feed_bytes_with(chunk, |_| events += 1).unwrap();
    }
    assert_eq!(events, 0);
    // The lenient reading stops at the missing comma; repair mode reads on.
    assert_eq!(parser.partial(), &json!({"a": [1, 2], "b": "x"}));
    assert_eq!(parser.finish(), parse(text, &ParseOptions::repair()));
}

#[test]
fn settled_completion_agrees_in_every_split() {
    // Cut-off text read as final (`stream_stable` false) ends the same however it arrived.
    let settled = ParseOptions { stream_stable: false, complete_truncated: true, ..ParseOptions::repair() };
    let python = ParseOptions { style: RepairStyle::JsonRepair, ..settled.clone() };
    for input in [
        r#"{"key": "val\"#,
        r#"{"key": "val\n"#,
        r#"{"a": "\u12"#,
        "{\"key\": \"val\\n123,`key2:value2",
        "{\"key\": \"a, 'b: 2",
        "{\"a\": 1, \"b: x y",
    ] {
        for options in [&settled, &python] {
            for cut in 0..=input.len() {
                check(input, &[cut], options, true, false);
                if input.is_char_boundary(cut) {
                    check(input, &[cut], options, false, false);
                }
            }
            let every: Vec<usize> = (1..input.len()).collect();
            check(input, &every, options, true, false);
        }
    }
}

#[test]
fn a_fenced_block_in_a_string_agrees_in_every_split() {
    // json_repair's style reads the block as the value, however the text arrived.
    let python = ParseOptions { style: RepairStyle::JsonRepair, ..ParseOptions::repair() };
    let completing_python = ParseOptions { complete_truncated: true, ..python.clone() };
    for input in [
        r#"{"key": "```json {"key": [{"key1": 1},{"key2": 2}]}```"}"#,
        r#"["```json {'a': 1,} ```", 2,]"#,
        r#"{"a": "```json {"b": 1}``` and more", "c": "```json [1, 2"#,
    ] {
        for options in [&python, &completing_python] {
            for cut in 0..=input.len() {
                check(input, &[cut], options, true, false);
                check(input, &[cut], options, false, false);
            }
            let every: Vec<usize> = (1..input.len()).collect();
            check(input, &every, options, true, false);
        }
    }
}

#[test]
fn limits_hold_as_the_input_arrives() {
    let options = ParseOptions { max_bytes: 10, ..lenient() };
    let mut parser = IncrementalParser::new(options.clone());
    assert_eq!(parser.feed("{\"a\": "), Ok(()));
    assert_eq!(parser.feed("\"bcdef"), Err(ParseError::TooLarge { bytes: 12, limit: 10 }));
    assert_eq!(parser.text(), "", "nothing is kept past the limit");
    parser.feed("\"}").unwrap_err();
    assert_eq!(parser.finish(), parse("{\"a\": \"bcdef\"}", &options));

    let options = ParseOptions { max_depth: 3, ..lenient() };
    let mut parser = IncrementalParser::new(options.clone());
    assert_eq!(parser.feed("[[["), Ok(()));
    assert_eq!(parser.feed("["), Err(ParseError::TooDeep { limit: 3 }));
    assert_eq!(parser.feed("]]]]"), Err(ParseError::TooDeep { limit: 3 }));
    assert_eq!(parser.finish(), parse("[[[[]]]]", &options));
}

#[test]
fn errors_come_when_they_are_certain() {
    let mut parser = IncrementalParser::new(lenient());
    parser.feed("{\"a\": 1,\n \"b\" ").unwrap();
    let error = parser.feed("2}").unwrap_err();
    assert!(matches!(error, ParseError::Syntax { line: 2, column: 6, .. }), "{error:?}");
    assert_eq!(parser.error(), Some(error.clone()));
    assert_eq!(parser.partial(), &json!({"a": 1}), "what was read stays for display");
    assert_eq!(parser.finish(), Err(error));
}

#[test]
fn invalid_utf8_is_an_error_where_it_is() {
    for bytes in [&b"{\"a\": \"\xff\"}"[..], b"{\"a\": \"\xe2\x82\"}", b"{\"a\": 1}\xc3", b"\xe2\x28\xa1"] {
        for cut in 0..=bytes.len() {
            let mut parser = IncrementalParser::new(lenient());
            let _ = parser.feed_bytes(&bytes[..cut]);
            let _ = parser.feed_bytes(&bytes[cut..]);
            assert_eq!(parser.finish(), parse_bytes(bytes, &lenient()), "{bytes:?} cut at {cut}");
        }
    }
    // After invalid UTF-8, nothing more is read.
    let mut parser = IncrementalParser::new(lenient());
    assert_eq!(parser.feed_bytes(b"[\"\xff"), Err(ParseError::InvalidUtf8 { offset: 2 }));
    assert_eq!(parser.feed("\"]"), Err(ParseError::InvalidUtf8 { offset: 2 }));
    assert_eq!(parser.text(), "[\"");
    // A character begun by bytes and ended by a `str` fragment.
    let mut parser = IncrementalParser::new(lenient());
    parser.feed_bytes(b"[\"\xc3").unwrap();
    parser.feed("\u{a9}\"]").unwrap_err();
    let mut parser = IncrementalParser::new(lenient());
    parser.feed_bytes(b"[\"\xc3").unwrap();
    parser.feed_bytes(b"\xa9\"]").unwrap();
    assert_eq!(parser.finish().unwrap().value, json!(["é"]));
}

#[test]
fn random_token_soup_agrees_with_the_one_shot_parse() {
    let pieces: &[&str] = &[
        "{",
        "}",
        "[",
        "]",
        ":",
        ",",
        "\"",
        "'",
        "“",
        "”",
        "’",
        "\\",
        "\\u",
        "\\ud83d",
        "\\ude00",
        "00",
        "a",
        "key",
        "true",
        "tru",
        "None",
        "1",
        "-",
        ".",
        "e",
        "0",
        " ",
        "\n",
        "//",
        "/*",
        "*/",
        "#",
        "```",
        "json",
        "é",
        "😀",
        "\u{feff}",
        "x\u{1}",
        "Sure! ",
        "(",
        ")",
        "...",
        "+",
        "`",
        "\u{a0}",
        "\\\"",
        "undefined",
        "NaN",
        "0x",
        ";",
        "NumberLong(",
    ];
    let mut rng = Lcg(5);
    for _ in 0..1500 {
        let count = 1 + rng.below(24);
        let input: String = (0..count).map(|_| pieces[rng.below(pieces.len())]).collect();
        let seed = rng.below(1 << 30) as u64;
        for options in every_mode() {
            check(&input, &cuts_of(&input, seed, 4, false), &options, true, false);
            check(&input, &cuts_of(&input, seed, 4, true), &options, false, false);
        }
    }
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = Lcg(13);
    for _ in 0..1500 {
        let len = rng.below(48);
        let bytes: Vec<u8> = (0..len).map(|_| rng.below(256) as u8).collect();
        for options in every_mode() {
            let mut parser = IncrementalParser::new(options.clone());
            for piece in bytes.chunks(1 + rng.below(5)) {
                let _ = parser.feed_bytes(piece);
                let _ = parser.partial();
            }
            assert_eq!(parser.finish(), parse_bytes(&bytes, &options));
        }
    }
}

/// A set (an object of keys only, read as their array) showed as the empty object it
/// started as, after prose that held its `{` inside a string (found by the property below).
#[test]
fn a_set_starts_as_an_empty_object() {
    let value =
        Gen::Str("’éééééé’ééé’éééé日本日本ééé’{’éé日本éééé日本éé’\n,'aaaaaaaaaaaaaaaaaaaa".to_owned());
    let seed = 9_640_929_970_650_633_950;
    let text = write(&value, seed, true);
    let options = ParseOptions { complete_truncated: true, ..ParseOptions::default() };
    check(&text, &cuts_of(&text, seed, 1, false), &options, true, true);
    check("{'a', 'b'}", &[1, 2, 3, 4, 5, 6], &ParseOptions::default(), false, true);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// The final value and repairs equal the one-shot parse over random splits (inside
    /// escapes, surrogate pairs and multi-byte characters), whole or cut off; events agree
    /// with the final value; partial values are prefixes of it.
    #[test]
    fn random_splits_give_the_one_shot_result(
        value in gen_strategy(),
        seed in any::<u64>(),
        max_piece in 1usize..17,
        cut in prop::option::weighted(0.25, 0.0f64..1.0),
    ) {
        for lenient in [false, true] {
            let mut text = write(&value, seed, lenient);
            if let Some(cut) = cut {
                let mut at = (text.len() as f64 * cut) as usize;
                while !text.is_char_boundary(at) {
                    at -= 1;
                }
                text.truncate(at);
            }
            let options: &[ParseOptions] = if lenient {
                &[
                    ParseOptions::default(),
                    ParseOptions { complete_truncated: true, ..ParseOptions::default() },
                    ParseOptions::repair(),
                    ParseOptions {
                        style: RepairStyle::JsonRepair,
                        complete_truncated: true,
                        stream_stable: false,
                        ..ParseOptions::repair()
                    },
                ]
            } else {
                &[ParseOptions::strict(), ParseOptions::default()]
            };
            for options in options {
                check(&text, &cuts_of(&text, seed, max_piece, false), options, true, true);
                check(&text, &cuts_of(&text, seed ^ 1, max_piece, true), options, false, true);
                let period = (seed % 5 + 2) as usize;
                check_sparse_partials(&text, &cuts_of(&text, seed ^ 2, max_piece, false), options, |k| k % period == 0);
            }
        }
    }
}

/// Feed `text` in the pieces between `cuts`, asking for the partial value only after the
/// pieces `ask` picks: each is the partial value built from nothing, however many pieces
/// came since the last (the values that landed meanwhile, containers that opened and
/// closed, strings that grew and ended, restarts after prose).
fn check_sparse_partials(text: &str, cuts: &[usize], options: &ParseOptions, ask: impl Fn(usize) -> bool) {
    let mut parser = IncrementalParser::new(options.clone());
    let mut from = 0;
    for (k, &cut) in cuts.iter().chain(std::iter::once(&text.len())).enumerate() {
        let cut = cut.clamp(from, text.len());
        let _ = parser.feed_bytes(&text.as_bytes()[from..cut]);
        from = cut;
        if ask(k) {
            assert_eq!(
                parser.partial(),
                &parser.fresh_partial(),
                "{text:?} cut at {cuts:?}, after piece {k}"
            );
        }
    }
}

#[test]
fn a_partial_value_asked_now_and_then_is_the_one_built_from_nothing() {
    let mut inputs = fragment_inputs();
    inputs.extend(
        [
            r#"{"a": [1, [2, [3, "xy"]], {"b": {"c": "long text here", "d": [true]}}], "e": "tail"}"#,
            r#"{"a": 1, "a": {"b": 2}, "a": "again", "a": [1, 2]}"#,
            "Sure! {\"a\": 1, oops} then {\"a\": [\"x\", {\"b\": \"yz\"}]}",
            "{'t': {'only'}, 's': {1: 2}, 'n': [1_000.5_5, 1e1_0], 'u': {'x', 'y'}}",
            "[[[[\"deep\", [\"deeper\"]]]], {\"k\": [\"v\", \"w\"]}, \"end\"]",
            "\"{\\\"a\\\": [1, {\\\"b\\\": \\\"c\\\"}]}\"",
            "{\"a\": NumberLong(2), \"b\": (1, (2,), ()), \"c\": callback([1, 2])}",
        ]
        .iter()
        .map(|s| (*s).to_owned()),
    );
    let asks: [fn(usize) -> bool; 4] =
        [|k| k % 2 == 1, |k| k % 3 == 0, |k| k % 7 == 5, |k| k.count_ones() == 1];
    for input in &inputs {
        for options in every_mode() {
            for (seed, max) in [(1, 1), (2, 3), (3, 8)] {
                let cuts = cuts_of(input, seed, max, false);
                for ask in asks {
                    check_sparse_partials(input, &cuts, &options, ask);
                }
            }
        }
    }
}

#[test]
fn python_literals_agree_in_every_split() {
    // Tuples, sets (decided only at the comma or brace after the first item), digit
    // separators: whole, cut off, and fed in every split, in every mode.
    let inputs = [
        "{\"a\": (1, (2,), ()), \"b\": {\"x\", 'y',}, \"c\": {1_0, True, None}, \"d\": 0x_1f}",
        "{'t': {'only'}, 's': {1: 2}, 'n': [1_000.5_5, 1e1_0]}",
        "[{\"k\"}, {}, {\"a\": {2}}]",
        "{\"a\": {1, 2",
        "{\"a\": {\"x\"",
        "{\"a\": 1__0}",
        "{\"a\": {x, y}}",
        "{\"a\": u'x', \"b\": r'\\d\\'', \"c\": b\"\\t\", \"d\": \"p\" \"q\" r'\\w', 'e' 'f': 1}",
        "[\"a\"\n \"b\" /* c */ 'c', \"é\" \"😀\"]",
        "{\"a\": \"x\" \"y",
        "{\"a\": b'caf\u{e9}'}",
        "[\"x\" \"y\" 1]",
        "{\"a\": \"xé\" \"y\" 'z': 1}",
        "{\"a\" 'b': \"c\" \"d\"}",
    ];
    for input in inputs {
        for options in every_mode() {
            check_every_split(input, &options);
        }
    }
}

#[test]
fn finishing_notes_repeated_keys_as_the_one_shot_parse_does() {
    let mut inputs = fragment_inputs();
    inputs.extend(
        [
            r#"{"a": 1, "a": 2}"#,
            r#"{'a': [1, {"b": 1, "b": 2}],}"#,
            r#"Here: {"a": {"x": 1}, "a": {"x": 2}}"#,
            r#""{\"a\": 1, \"a\": 2}""#,
            r#"{"a": 1, "b": 2}"#,
        ]
        .map(str::to_owned),
    );
    for options in [lenient(), ParseOptions::strict(), completing()] {
        for input in &inputs {
            let expected = crate::parse::parse_noting_repeats(input, &options, false);
            for size in [1, 3, input.len().max(1)] {
                let mut parser = IncrementalParser::new(options.clone());
                for piece in input.as_bytes().chunks(size) {
                    let _ = parser.feed_bytes(piece);
                }
                assert_eq!(
                    parser.finish_noting_repeats(),
                    expected,
                    "{input:?} in pieces of {size} ({options:?})"
                );
            }
        }
    }
}

#[test]
fn the_partial_value_is_built_when_asked_and_kept_until_the_next_fragment() {
    let mut parser = IncrementalParser::new(lenient());
    parser.feed(r#"{"a": [1, {"b": "x"#).unwrap();
    let first: *const Value = parser.partial();
    assert_eq!(parser.partial(), &json!({"a": [1, {"b": "x"}]}));
    assert!(std::ptr::eq(first, parser.partial()), "asked twice, built once");
    parser.feed(r#"y"}], "c": nul"#).unwrap();
    assert_eq!(parser.partial(), &json!({"a": [1, {"b": "xy"}]}));
    parser.feed("l}").unwrap();
    assert_eq!(parser.partial(), &json!({"a": [1, {"b": "xy"}], "c": null}));
    // Fragments nobody looked at change nothing.
    let mut quiet = IncrementalParser::new(lenient());
    for piece in [r#"{"a": [1, {"b": "x"#, r#"y"}], "c": nul"#, "l}"] {
        quiet.feed(piece).unwrap();
    }
    assert_eq!(quiet.partial(), parser.partial());
    assert_eq!(quiet.finish(), parser.finish());
}

/// An event's path is its container's path with one token more, appended in place: each
/// item under a long key costs its own index, not a copy of the key. Copying the path per
/// event (as it was) wrote the key once per event: 64 KiB times 8,192 items' two events
/// here, 1 GiB, and a 1 MB call of such items took 0.46 s where 256 KB took 0.03 s. Every
/// event still names its full path; the bytes written into paths stay within the text's
/// length.
#[test]
fn events_under_a_long_key_do_not_copy_its_path() {
    let key = "k".repeat(1 << 16);
    let items = r#"["ab"],"#.repeat(1 << 13);
    let text = format!(r#"{{"{key}": {{"deep": [{}1]}}}}"#, items);
    let prefix = format!("/{key}");
    let (mut events, mut wrong) = (0usize, 0usize);
    let mut on_event = |event: StreamEvent<'_>| {
        let path = match &event {
            StreamEvent::ValueComplete { path, .. } | StreamEvent::StringGrew { path, .. } => path,
            StreamEvent::Restart => return,
        };
        events += 1;
        wrong += usize::from(!path.starts_with(&prefix));
    };
    let before = crate::parse::output::incremental::PATH_BYTES.with(std::cell::Cell::get);
    let mut parser = IncrementalParser::new(lenient());
    // Cut inside an item's string: it streams in as two pieces.
    let (head, tail) = text.split_at(text.len() / 2 + 3);
    parser.feed_with(head, &mut on_event).unwrap();
    parser.feed_with(tail, &mut on_event).unwrap();
    parser.finish_with(&mut on_event).unwrap();
    let written = crate::parse::output::incremental::PATH_BYTES.with(std::cell::Cell::get) - before;
    assert_eq!(wrong, 0);
    // Per item: its string and the item itself.
    assert!(events >= 2 << 13, "{events}");
    assert!(written <= text.len(), "{written} bytes of paths for {} of text", text.len());
}
