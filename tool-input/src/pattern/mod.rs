//! A schema's `pattern` (and `patternProperties`): an ECMA-262 regular expression, run in
//! time linear in the string wherever ECMA-262 allows it.
//!
//! Three matchers, the first that applies:
//!
//! 1. the direct matcher (`fixed`) for the shape most tool schemas use
//!    (`^[A-Z]{3}-\d{4}$`): no engine, no allocation;
//! 2. the `regex` crate, whose searches take time linear in the string, for every pattern
//!    without lookaround or back-references, translated from ECMA-262 syntax with ECMA's
//!    meaning kept (`translate`): `^(\w+\s?)*$` on `aaaa…!` no longer backtracks;
//! 3. `regress`, a backtracking engine with ECMA-262's exact semantics, for the patterns
//!    that need it, under a budget (`budget`): a search whose cost bound exceeds it is not
//!    run, and the check fails with an error naming the pattern, never a hang.
//!
//! `regress` also decides whether a pattern is valid at all, so every matcher only ever
//! sees patterns ECMA-262 accepts. Tests compare the three.

mod budget;
mod ecma;
mod fixed;
mod translate;

use budget::Cost;
use fixed::{fixed_shape, Fixed};

/// Largest compiled program the `regex` crate may build for one pattern (its default is
/// 10 MiB): `^\p{Lu}\p{Ll}+(?: \p{Lu}\p{Ll}+){0,200}$` fits. A pattern without lookaround
/// or back-references that is larger still (`(?:a{1000}){1000}`) is a schema error
/// ([`PatternError::TooBig`]): on `regress` its budget would refuse the model's every value.
const REGEX_SIZE_LIMIT: usize = 16 * 1024 * 1024;
/// The lazy DFA's cache per search; past it, the `regex` crate falls back to its other
/// linear engines, so it bounds memory, never correctness.
const REGEX_DFA_SIZE_LIMIT: usize = 2 * 1024 * 1024;

/// Why a schema's pattern cannot be used.
#[derive(Debug)]
pub(crate) enum PatternError {
    /// Not an ECMA-262 regular expression (`regress`'s message).
    Invalid(regress::Error),
    /// Needs no backtracking, but compiles to more than the linear engine's limit.
    TooBig { limit: usize },
}

impl std::fmt::Display for PatternError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PatternError::Invalid(error) => error.fmt(f),
            PatternError::TooBig { limit } => write!(
                f,
                "it compiles to more than {} MiB (bounded repetitions multiply its size); \
                 write it with fewer or smaller bounded repetitions",
                limit / (1024 * 1024)
            ),
        }
    }
}

/// A compiled `pattern`.
#[derive(Debug, Clone)]
pub(crate) struct Pattern {
    /// The pattern as the schema wrote it, for messages.
    pub source: String,
    engine: Engine,
    /// The direct matcher, when the pattern has the fixed shape (see `fixed`).
    fixed: Option<Fixed>,
}

#[derive(Debug, Clone)]
enum Engine {
    /// Linear time in the string.
    Linear(regex::Regex),
    /// Backtracking, bounded by the budget.
    Backtracking { regex: regress::Regex, cost: Cost },
}

/// Whether `source` is a regular expression of ECMA-262's Unicode mode (the `u` flag), the
/// dialect JSON Schema reads patterns in: what `format: regex` asserts of a value. A schema's
/// own `pattern` is read more leniently ([`Pattern::new`] falls back to the legacy dialect,
/// for patterns written for other engines), but a value that claims to be a regex is held to
/// the dialect: `\a`, an identity escape only the legacy dialect allows, is not one.
pub(crate) fn is_unicode_ecma_regex(source: &str) -> bool {
    regress::Regex::with_flags(source, "u").is_ok() && !quantifies_a_word_boundary(source)
}

/// Does `source` put a quantifier right after `\b` or `\B` outside a class? ECMA-262 has
/// no quantified assertion but a lookahead (and that in the legacy dialect only), so `\b*`
/// is a syntax error; `regress` compiles it all the same.
fn quantifies_a_word_boundary(source: &str) -> bool {
    let mut chars = source.chars().peekable();
    let mut in_class = false;
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                let escaped = chars.next();
                if !in_class
                    && matches!(escaped, Some('b' | 'B'))
                    && matches!(chars.peek(), Some('*' | '+' | '?' | '{'))
                {
                    return true;
                }
            }
            '[' => in_class = true,
            ']' => in_class = false,
            _ => {}
        }
    }
    false
}

/// The search was not run: its cost bound on this string exceeds the budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct OverBudget;

impl Pattern {
    /// Compile `source`: an invalid pattern, or one the linear engine could run but for its
    /// size, is an error.
    pub fn new(source: &str) -> Result<Pattern, PatternError> {
        // `u` flag: JSON Schema patterns are Unicode-aware ECMA-262 expressions. Some
        // patterns written for other engines only compile without it.
        let (regex, unicode) = match regress::Regex::with_flags(source, "u") {
            Ok(regex) => (regex, true),
            Err(_) => (regress::Regex::new(source).map_err(PatternError::Invalid)?, false),
        };
        let ast = ecma::parse(source, unicode);
        // Without the `u` flag, `.` and classes see UTF-16 code units: only `regress`.
        let translated = ast.as_ref().filter(|_| unicode).and_then(translate::to_regex);
        let linear = match translated {
            None => None,
            Some(translated) => match regex::RegexBuilder::new(&translated)
                .size_limit(REGEX_SIZE_LIMIT)
                .dfa_size_limit(REGEX_DFA_SIZE_LIMIT)
                .build()
            {
                Ok(linear) => Some(linear),
                Err(regex::Error::CompiledTooBig(_)) => {
                    return Err(PatternError::TooBig { limit: REGEX_SIZE_LIMIT })
                }
                // A translation the `regex` crate does not take: ECMA-262's own engine.
                Err(_) => None,
            },
        };
        let engine = match linear {
            Some(linear) => Engine::Linear(linear),
            None => Engine::Backtracking { regex, cost: Cost::new(ast) },
        };
        // The direct matcher is only derived for what compiled in Unicode mode, whose
        // escapes it follows.
        let fixed = if unicode { fixed_shape(source) } else { None };
        let fixed = fixed.map(Fixed::new);
        Ok(Pattern { source: source.to_owned(), engine, fixed })
    }

    /// Does `text` match anywhere (ECMA-262 `RegExp.prototype.test`)? Inlined, with the
    /// search out of line, so that a direct match costs no call and no register saving.
    #[inline]
    pub fn matches(&self, text: &str) -> Result<bool, OverBudget> {
        match &self.fixed {
            // Every class holds ASCII characters only, so a match has as many bytes as
            // characters: one byte per class, each in its class.
            Some(fixed) => Ok(fixed.matches(text.as_bytes())),
            None => self.search(text),
        }
    }

    /// [`Pattern::matches`] where a search over the budget counts as no match (the
    /// one-pass check, whose refusal sends the call to the walk that explains it).
    #[inline]
    pub fn is_match(&self, text: &str) -> bool {
        self.matches(text) == Ok(true)
    }

    #[inline(never)]
    fn search(&self, text: &str) -> Result<bool, OverBudget> {
        match &self.engine {
            Engine::Linear(regex) => Ok(regex.is_match(text)),
            Engine::Backtracking { regex, cost } => {
                if cost.allows(text.chars().count()) {
                    Ok(regex.find(text).is_some())
                } else {
                    Err(OverBudget)
                }
            }
        }
    }

    /// Is the search linear in the string (not `regress`)?
    #[cfg(test)]
    fn is_linear(&self) -> bool {
        matches!(self.engine, Engine::Linear(_))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// What `regress` alone says, as the reference for ECMA-262 semantics.
    fn by_regress(source: &str, text: &str) -> bool {
        let regex = regress::Regex::with_flags(source, "u").or_else(|_| regress::Regex::new(source)).unwrap();
        regex.find(text).is_some()
    }

    /// Patterns of every shape the direct matcher takes, and near misses it must leave alone.
    const PATTERNS: &[&str] = &[
        r"^[A-Z]{3}-\d{4}$",
        r"^\d{4}-\d{2}-\d{2}$",
        r"^[a-z0-9_-]{2}$",
        r"^[-a-c]x\.y$",
        r"^a[b-d\]]{0}c$",
        r"^$",
        r"^\$\^\/[\\\-]$",
        r"^[A-Z]{3}-\d{4}",
        r"[A-Z]{3}-\d{4}$",
        r"^[^a]$",
        r"^a{1,2}$",
        r"^a+$",
        r"^a?b$",
        r"^.{3}$",
        r"^\w{3}$",
        r"^(ab){2}$",
        r"^a|b$",
        r"^é{2}$",
        r"^[a-é]$",
        r"^[\d-z]$",
        r"^a{01}b{0}$",
    ];

    #[test]
    fn the_fixed_shape_is_recognised() {
        assert_eq!(Pattern::new(r"^[A-Z]{3}-\d{4}$").unwrap().fixed.map(|f| f.len()), Some(8));
        assert_eq!(Pattern::new(r"^$").unwrap().fixed.map(|f| f.len()), Some(0));
        for pattern in [r"^[^a]$", r"^a{1,2}$", r"^a+$", r"^.{3}$", r"^é{2}$", r"^[\d-z]$", r"^a|b$"] {
            assert!(Pattern::new(pattern).unwrap().fixed.is_none(), "{pattern}");
        }
    }

    proptest! {
        /// The direct matcher and `regress` agree on every pattern, for strings built from
        /// the characters those patterns name and a few they do not.
        #[test]
        fn the_direct_matcher_agrees_with_regress(
            index in 0..PATTERNS.len(),
            text in "[A-Za-z0-9_\\-.\\]\\\\$^/é\u{1F600}x ]{0,10}",
        ) {
            let pattern = Pattern::new(PATTERNS[index]).unwrap();
            let expected = by_regress(PATTERNS[index], &text);
            prop_assert_eq!(pattern.is_match(&text), expected, "{} on {:?}", PATTERNS[index], text);
        }
    }

    #[test]
    fn the_direct_matcher_agrees_with_regress_on_chosen_strings() {
        let texts = [
            "ABC-1234",
            "ABC-12345",
            "AB-1234",
            "abc-1234",
            "ABC-123",
            "ABÇ-1234",
            "ABC-١٢٣٤",
            "",
            "2025-01-31",
            "a_",
            "-x.y",
            "ac",
            "$^/\\",
            "$^/-",
            "a",
            "é",
            "z",
            "-",
            "5",
            "ab",
        ];
        for source in PATTERNS {
            let pattern = Pattern::new(source).unwrap();
            for text in texts {
                assert_eq!(pattern.is_match(text), by_regress(source, text), "{source} on {text:?}");
            }
        }
    }

    /// Patterns the `regex` crate runs, each with a meaning that differs between ECMA-262
    /// and `regex`'s own syntax, or a shape that backtracks.
    const TRANSLATED: &[&str] = &[
        r"^\d+$",
        r"^\w+$",
        r"^\s$",
        r"^\S+$",
        r"^.$",
        r"^a.c$",
        r"abc$",
        r"^[^]$",
        r"^[]$",
        r"a[]",
        r"\bfoo\b",
        r"\Bo",
        r"^[\d\s_-]+$",
        r"^[^\w]$",
        r"^[\D]+$",
        r"^\p{L}+$",
        r"^\P{Lu}$",
        r"^\u{1F600}|\uD83D\uDE00x$",
        r"^[\u0041-\u005A]{2,3}$",
        r"\x41\t\cJ\0",
        r"^(?:a|b)*?c$",
        r"^(?<year>\d{4})-(\d\d)$",
        r"[.*+?^${}()|[\]\\/]",
        r"^&&~~--$",
        r"[a&&b]",
        r"^[~-]$",
    ];

    #[test]
    fn every_translated_pattern_runs_on_the_linear_engine() {
        for source in TRANSLATED {
            assert!(Pattern::new(source).unwrap().is_linear(), "{source}");
        }
        for source in [r"(?=a)", r"(?<!a)b", r"(a)\1", r"(?<n>a)\k<n>"] {
            assert!(!Pattern::new(source).unwrap().is_linear(), "{source}");
        }
    }

    #[test]
    fn a_large_pattern_without_backtracking_runs_on_the_linear_engine() {
        for (source, text) in [
            (r"^\p{Lu}\p{Ll}+(?: \p{Lu}\p{Ll}+){0,50}$", "Hello World"),
            (r"^(?:\p{L}|\p{N}){0,300}$", "Hello2"),
        ] {
            let pattern = Pattern::new(source).unwrap();
            assert!(pattern.is_linear(), "{source}");
            assert_eq!(pattern.matches(text), Ok(true), "{source}");
            assert_eq!(pattern.matches("hello world"), Ok(false), "{source}");
        }
        // Too big even for the raised limit: the schema's error, not the model's.
        match Pattern::new(r"^(?:a{1000}){1000}$") {
            Err(error @ PatternError::TooBig { .. }) => assert!(error.to_string().contains("16 MiB")),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_translation_keeps_ecma_semantics() {
        let cases: &[(&str, &str, bool)] = &[
            // `\d` and `\w` are ASCII in ECMA-262.
            (r"^\d+$", "١٢٣", false),
            (r"^\d+$", "123", true),
            (r"^\w+$", "café", false),
            (r"^\w+$", "cafe_1", true),
            // `\s` is ECMA's set: U+FEFF is in it, U+0085 is not.
            (r"^\s$", "\u{feff}", true),
            (r"^\s$", "\u{85}", false),
            (r"^\s$", "\u{a0}", true),
            // `.` excludes every line terminator.
            (r"^.$", "\n", false),
            (r"^.$", "\r", false),
            (r"^.$", "\u{2028}", false),
            (r"^.$", "é", true),
            (r"^.$", "😀", true),
            // `$` is the end of the input only, not before a final line break.
            (r"abc$", "abc\n", false),
            (r"abc$", "xabc", true),
            // `[^]` is any character, `[]` none.
            (r"^[^]$", "\n", true),
            (r"^[]$", "", false),
            // `\b` sees ASCII word characters only.
            (r"\bfoo\b", "éfooé", true),
            (r"\bfoo\b", "afoo", false),
            // Characters that mean something in `regex` classes mean nothing in ECMA's.
            (r"[a&&b]", "&", true),
            (r"^&&~~--$", "&&~~--", true),
            (r"^[~-]$", "-", true),
        ];
        for &(source, text, expected) in cases {
            let pattern = Pattern::new(source).unwrap();
            assert_eq!(pattern.matches(text), Ok(expected), "{source} on {text:?}");
            assert_eq!(by_regress(source, text), expected, "regress: {source} on {text:?}");
        }
    }

    proptest! {
        /// The translation and `regress` agree on every translated pattern.
        #[test]
        fn the_translation_agrees_with_regress(
            index in 0..TRANSLATED.len(),
            text in "[a-cA-Z0-9_ !.&~\\-\n\r\u{2028}\u{a0}\u{85}\u{feff}é١😀]{0,8}",
        ) {
            let pattern = Pattern::new(TRANSLATED[index]).unwrap();
            prop_assert_eq!(pattern.matches(&text), Ok(by_regress(TRANSLATED[index], &text)), "{} on {:?}", TRANSLATED[index], text);
        }
    }

    /// Shapes that backtrack without end in a backtracking engine: the answer, on strings
    /// long enough to hang one (the test asserts results; it finishes at once).
    #[test]
    fn backtracking_shapes_are_answered() {
        let long_words = format!("{}!", "word ".repeat(9));
        let cases: Vec<(&str, String, bool)> = vec![
            (r"^(\w+\s?)*$", long_words.clone(), false),
            (r"^(\w+\s?)*$", "word ".repeat(9), true),
            (r"(a+)+$", format!("{}!", "a".repeat(40)), false),
            (r"(a+)+$", format!("!{}", "a".repeat(40)), true),
            (r"^(a+)+$", format!("{}!", "a".repeat(40)), false),
            (r"^(a|aa)+$", format!("{}b", "a".repeat(50)), false),
            (r"(.*a){12}", "a".repeat(11) + &"b".repeat(40), false),
            (r"(.*a){12}", "a".repeat(12), true),
            (r"^(a|a?)+$", format!("{}b", "a".repeat(50)), false),
            (
                r"^([a-zA-Z0-9])(([\-.]|[_]+)?([a-zA-Z0-9]+))*(@){1}[a-z0-9]+[.]{1}(([a-z]{2,3})|([a-z]{2,3}[.]{1}[a-z]{2,3}))$",
                format!("{}!", "a".repeat(60)),
                false,
            ),
            (r"^(\d+)*$", format!("{}x", "1".repeat(60)), false),
        ];
        for (source, text, expected) in cases {
            let pattern = Pattern::new(source).unwrap();
            assert!(pattern.is_linear(), "{source}");
            assert_eq!(pattern.matches(&text), Ok(expected), "{source} on {text:?}");
        }
    }

    #[test]
    fn a_backtracking_search_over_the_budget_is_refused() {
        let pattern = Pattern::new(r"^(?=(a+)+$)").unwrap();
        assert_eq!(pattern.matches(&format!("{}b", "a".repeat(40))), Err(OverBudget));
        assert!(!pattern.is_match(&format!("{}b", "a".repeat(40))));
        // Short strings are still searched, with ECMA's answer.
        assert_eq!(pattern.matches("aaa"), Ok(true));
        assert_eq!(pattern.matches("aab"), Ok(false));
        // A friendly lookahead runs on long strings.
        let password = Pattern::new(r"^(?=.*[A-Z])(?=.*\d).{8,}$").unwrap();
        assert_eq!(password.matches(&format!("A1{}", "x".repeat(100))), Ok(true));
        assert_eq!(password.matches(&"x".repeat(100)), Ok(false));
    }
}
