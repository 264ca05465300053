//! Feeding the lexer and builder in fragments, split anywhere: the same result as in one
//! piece, and linear work, on fixed and random inputs.

use super::*;

#[test]
fn fragments_give_the_one_shot_result() {
    for input in fragment_inputs() {
        let bytes = input.as_bytes();
        for options in [ParseOptions::strict(), lenient(), completing(), ParseOptions::repair(), repairing()]
        {
            let whole = feed_in_pieces(bytes, &[], &options);
            assert_eq!(feed_str_in_pieces(&input, &[], &options), whole, "{input:?} as str");
            for cut in 0..=bytes.len() {
                assert_eq!(feed_in_pieces(bytes, &[cut], &options), whole, "{input:?} cut at {cut}");
                if input.is_char_boundary(cut) {
                    let result = feed_str_in_pieces(&input, &[cut], &options);
                    assert_eq!(result, whole, "{input:?} as str cut at {cut}");
                }
            }
            let every: Vec<usize> = (1..bytes.len()).collect();
            assert_eq!(feed_in_pieces(bytes, &every, &options), whole, "{input:?} byte by byte");
            let chars: Vec<usize> = input.char_indices().map(|(k, _)| k).skip(1).collect();
            assert_eq!(feed_str_in_pieces(&input, &chars, &options), whole, "{input:?} char by char");
            if bytes.len() <= 120 {
                for first in 0..=bytes.len() {
                    for second in first..=bytes.len() {
                        let result = feed_in_pieces(bytes, &[first, second], &options);
                        assert_eq!(result, whole, "{input:?} cut at {first} and {second}");
                    }
                }
            }
        }
    }
}

#[test]
fn empty_fragments_change_nothing() {
    let input = br#"{"a": ["x\u00e9", 1.5]}"#;
    let whole = feed_in_pieces(input, &[], &lenient());
    let mut machine = Driver::for_value(&lenient());
    for byte in input.iter() {
        machine.feed(&[]).unwrap();
        machine.feed(std::slice::from_ref(byte)).unwrap();
    }
    machine.feed(&[]).unwrap();
    assert_eq!(machine.finish(), whole);
}

// ---------------------------------------------------------------- robustness

/// A small deterministic generator (no dependency needed for this).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        self.0 >> 33
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[test]
fn random_inputs_never_panic_and_fragments_agree() {
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
        "‘",
        "’",
        "\\",
        "\\u",
        "\\ud83d",
        "\\ude00",
        "d8",
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
        "+",
        "0",
        " ",
        "\n",
        "\t",
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
        "$",
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
        "http://",
        ";",
        "´",
    ];
    let mut rng = Lcg(7);
    for round in 0..3000 {
        let count = 1 + rng.below(24);
        let input: String = (0..count).map(|_| pieces[rng.below(pieces.len())]).collect();
        let bytes = input.as_bytes();
        for options in [ParseOptions::strict(), lenient(), completing(), repairing()] {
            let public = parse(&input, &options);
            let own = parse_without_fast_path(bytes, &options);
            if options.mode == ParseMode::Strict {
                // Our strict parser accepts exactly what serde_json accepts, with the same value.
                let theirs = serde_json::from_str::<Value>(&input).map(numbers_as_f64);
                assert_eq!(own.as_ref().ok().map(|p| &p.value), theirs.as_ref().ok(), "strict {input:?}");
            }
            if let (Ok(public), Ok(own)) = (&public, &own) {
                assert_eq!(public.value, own.value, "{input:?}");
            }
            let whole = feed_in_pieces(bytes, &[], &options);
            let cut = rng.below(bytes.len() + 1);
            assert_eq!(
                feed_in_pieces(bytes, &[cut], &options),
                whole,
                "round {round}: {input:?} cut at {cut}"
            );
        }
    }
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = Lcg(11);
    for _ in 0..3000 {
        let len = rng.below(40);
        let bytes: Vec<u8> = (0..len).map(|_| rng.below(256) as u8).collect();
        for options in [ParseOptions::strict(), lenient(), completing(), repairing()] {
            let _ = parse_without_fast_path(&bytes, &options);
            let _ = super::parse_bytes(&bytes, &options);
            let whole = feed_in_pieces(&bytes, &[], &options);
            let cut = rng.below(bytes.len() + 1);
            assert_eq!(feed_in_pieces(&bytes, &[cut], &options), whole);
        }
    }
}

#[test]
fn prose_candidates_stay_linear() {
    // Many failing candidates after prose: each attempt reads a disjoint part.
    let input = "Text ".to_owned() + &"[x] {y} ".repeat(50_000) + "{\"a\": 1}";
    // (How long it takes is measured by the doubling benchmark, suite/benches/linear.rs.)
    let result = parse(&input, &lenient());
    assert!(result.is_err(), "the real value is past the candidate bound");
    let near = "Text [x] {y} [z] {\"a\": 1}";
    assert_eq!(parse(near, &lenient()).unwrap().value, json!({"a": 1}));
}

// ---------------------------------------------------------------- new repairs

#[test]
fn escaped_json_inside_escaped_json_reads_the_same_in_any_fragments() {
    // A second `\"` at a token start inside escaped JSON used to reset the unescaping state,
    // which belongs to the end of the fragment: a backslash pending there was lost when the
    // whole input came at once, and kept when it came in pieces (found by the stream fuzzer).
    let input: &[u8] = b"[\\\"\"[\\\\\"]]\0[\\";
    for options in [lenient(), repairing(), ParseOptions::repair()] {
        let whole = feed_in_pieces(input, &[], &options).map(|o| o.value);
        for cut in 1..input.len() {
            assert_eq!(feed_in_pieces(input, &[cut], &options).map(|o| o.value), whole, "cut at {cut}");
        }
    }
}

/// A run of one repair is one record as it is made (its count and span), not one record per
/// repaired byte gathered first: the list the builder keeps stays as short as the result.
#[test]
fn runs_of_one_repair_are_one_record_as_they_are_made() {
    let nul_run = format!("{{\"s\": \"x{}y\"}}", "\0".repeat(1 << 16));
    let brackets = format!("1{}", "]".repeat(1 << 16));
    let commas = format!("[1{}2]", ",".repeat(1 << 16));
    let cases: [(&str, ParseOptions, RepairKind); 3] = [
        (&nul_run, lenient(), ControlCharacter),
        (&brackets, ParseOptions::repair(), ExtraBracket),
        (&commas, ParseOptions::repair(), ExtraComma),
    ];
    for (input, options, kind) in cases {
        for parsed in [
            parse(input, &options).unwrap(),
            crate::parse::one_shot::parse_slow(crate::parse::driver::Input::text(input), &options).unwrap(),
        ] {
            let runs: Vec<_> = parsed.repairs.iter().filter(|r| r.kind == kind).collect();
            assert_eq!(runs.len(), 1, "{kind:?}: {:?}", &parsed.repairs[..parsed.repairs.len().min(4)]);
            assert!(parsed.repairs.len() <= 3, "{:?}", parsed.repairs);
            let run = runs[0];
            assert!(run.count >= (1 << 16) - 1, "{kind:?}: {}", run.count);
            assert!(run.last_offset > run.offset && run.last_offset < input.len(), "{run:?}");
        }
    }
    // The value keeps every byte.
    let parsed = parse(&nul_run, &lenient()).unwrap();
    assert_eq!(parsed.value["s"].as_str().map(str::len), Some((1 << 16) + 2));
}

#[test]
fn a_quote_string_ends_where_its_look_ahead_would_end_it() {
    // A `'` string followed (after white space) by `,` `:` `}` or `]` in the same fragment
    // ends at once; cut anywhere else, the look-ahead after its quote decides: the same.
    let inputs = [
        "{'a':'x','b' :'y' ,\n'c'\t: ['p' ]\r\n, 'd': 'q'}",
        "['it' , 'a\\'b', 'caf\u{e9}' ,'\\u00e9' ]",
        "{'k': 'v'  \n}",
        "['a' 'b', 'c' , 'd''e']",
        "{'a': 'x' /* c */, 'b': 'y' // d\n}",
        "{'a': 'it's', 'b': 'x' y'}",
    ];
    for input in inputs {
        let whole = feed_str_in_pieces(input, &[], &lenient());
        let bytes = input.as_bytes();
        assert_eq!(feed_in_pieces(bytes, &[], &lenient()), whole, "{input:?} as bytes");
        for cut in (0..=input.len()).filter(|&cut| input.is_char_boundary(cut)) {
            assert_eq!(feed_str_in_pieces(input, &[cut], &lenient()), whole, "{input:?} cut at {cut}");
        }
        let every: Vec<usize> = (1..bytes.len()).collect();
        assert_eq!(feed_in_pieces(bytes, &every, &lenient()), whole, "{input:?} byte by byte");
    }
    let read = feed_str_in_pieces(inputs[0], &[], &lenient()).map(|outcome| outcome.value);
    assert_eq!(read, Ok(json!({"a": "x", "b": "y", "c": ["p"], "d": "q"})));
}
