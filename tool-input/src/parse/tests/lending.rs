//! How string tokens lend their content: from the text when it spells the string as it
//! reads, from the lexer's buffer when it was decoded or cut by a fragment's end, owned only
//! when it was built whole or held past its token.

use serde_json::{json, Value};

use super::super::grammar::{Fed, Grammar};
use super::super::lexer::{Ctx, Failure, Lexer, Sink, Str, Token};
use super::super::output::value::ValueOut;
use super::super::{ParseMode, ParseOptions, RepairKind};
use super::{lenient, parse};

/// Where a string token's content was lent from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Lent {
    Text,
    Buffer,
    Owned,
}
use Lent::{Buffer, Owned, Text};

/// The grammar and the `Value` output, noting how each string token lent its content.
struct Noting<'a> {
    fed: Fed<'a, ValueOut>,
    lent: Vec<(String, Lent)>,
}

impl Sink for Noting<'_> {
    fn context(&self) -> Ctx {
        self.fed.context()
    }

    fn token(&mut self, token: Token<'_>, offset: usize) -> Result<(), Failure> {
        if let Token::Str(text) = &token {
            let lent = match text {
                Str::Text(_) => Text,
                Str::Buffer(_) => Buffer,
                Str::Owned(_) => Owned,
            };
            self.lent.push((text.as_str().to_owned(), lent));
        }
        self.fed.token(token, offset)
    }

    fn expects_key(&self) -> bool {
        self.fed.expects_key()
    }

    fn is_complete(&self) -> bool {
        self.fed.is_complete()
    }

    fn repair(&mut self, kind: RepairKind, offset: usize) {
        self.fed.repair(kind, offset);
    }

    fn retract(&mut self, kind: RepairKind) {
        self.fed.retract(kind);
    }

    fn float_literal(&mut self, literal: &[u8]) {
        self.fed.float_literal(literal);
    }

    fn in_paren(&self) -> bool {
        self.fed.in_paren()
    }

    fn expects_first_key(&self) -> bool {
        self.fed.expects_first_key()
    }

    fn in_container(&self) -> bool {
        self.fed.in_container()
    }

    fn line_break(&mut self) {
        self.fed.line_break();
    }

    fn bare_key(&mut self) {
        self.fed.bare_key();
    }

    fn discard(&mut self) {
        self.fed.discard();
    }

    fn undo_open(&mut self) -> bool {
        self.fed.undo_open()
    }
}

/// The lenient reading of `input` fed as `str` fragments cut at `cuts` (or, without
/// `as_str`, as bytes): its value, and how each string token lent its content.
fn lending(input: &str, cuts: &[usize], as_str: bool) -> (Value, Vec<(String, Lent)>) {
    let options = ParseOptions { mode: ParseMode::Lenient, ..ParseOptions::default() };
    let mut lexer = Lexer::new(options.mode, options.non_finite, 0);
    let mut grammar = Grammar::new(&options, Vec::new());
    let mut out = ValueOut::new();
    let mut noting = Noting { fed: Fed { grammar: &mut grammar, out: &mut out }, lent: Vec::new() };
    let mut from = 0;
    for &cut in cuts.iter().chain(std::iter::once(&input.len())) {
        let fed = match as_str {
            true => lexer.feed_str(&input[from..cut], &mut noting),
            false => lexer.feed(&input.as_bytes()[from..cut], &mut noting),
        };
        fed.unwrap_or_else(|e| panic!("{input:?}: {e:?}"));
        from = cut;
    }
    lexer.finish(&mut noting, false).unwrap_or_else(|e| panic!("{input:?}: {e:?}"));
    let lent = noting.lent;
    grammar.finish(&mut out, false, input.len()).unwrap_or_else(|e| panic!("{input:?}: {e:?}"));
    let value = out.take().unwrap_or(Value::Null);
    assert_eq!(value, parse(input, &lenient()).unwrap().value, "{input:?}");
    (value, lent)
}

fn lent(pairs: &[(&str, Lent)]) -> Vec<(String, Lent)> {
    pairs.iter().map(|&(text, lent)| (text.to_owned(), lent)).collect()
}

#[test]
fn a_string_the_text_spells_as_it_reads_is_lent_from_the_text() {
    let input = r#"{"a": "b", 'c' : 'd', "e\n": "f\u00e9", g: 'h' 'i', "j": "k" }"#;
    let (value, tokens) = lending(input, &[], true);
    assert_eq!(value, json!({"a": "b", "c": "d", "e\n": "fé", "g": "hi", "j": "k"}));
    assert_eq!(
        tokens,
        lent(&[
            ("a", Text),
            ("b", Text),
            ("c", Text),
            ("d", Text),
            // Decoded escapes: the buffer.
            ("e\n", Buffer),
            ("fé", Buffer),
            // A bare key, whole in the text: the text.
            ("g", Text),
            // Joined literals: built whole.
            ("hi", Owned),
            ("j", Text),
            ("k", Text),
        ])
    );
}

#[test]
fn a_string_held_past_its_token_is_copied_where_it_is_held() {
    // At the top level, and before what is not a delimiter, a lenient string waits for the
    // next token (another literal may continue it).
    assert_eq!(lending(r#""top""#, &[], true).1, lent(&[("top", Owned)]));
    assert_eq!(lending(r#"["a" /* c */, "b"]"#, &[], true).1, lent(&[("a", Owned), ("b", Text)]));
    // The delimiter after it in the next fragment: held across the fragments.
    assert_eq!(lending(r#"["a" ]"#, &[4], true).1, lent(&[("a", Owned)]));
}

#[test]
fn a_string_cut_by_a_fragment_or_read_from_bytes_is_lent_from_the_buffer() {
    let input = r#"{"key": "value"}"#;
    assert_eq!(lending(input, &[4], true).1, lent(&[("key", Buffer), ("value", Text)]));
    assert_eq!(lending(input, &[], false).1, lent(&[("key", Buffer), ("value", Buffer)]));
}

#[test]
fn a_lent_string_token_is_as_small_as_a_string() {
    // Every token passes through the sink by value: lending costs it no width. (With
    // serde_json's `arbitrary_precision` on, a number token holds its text as a `String`
    // beside the lent string's, which widens the token by its tag.)
    if !crate::arbitrary_precision::enabled() {
        assert_eq!(std::mem::size_of::<Token<'_>>(), std::mem::size_of::<String>());
    }
}
