//! Random JSON values written out as a model might write tool arguments (strict JSON, or
//! with the lenient syntax), for the property tests of the parser's readers: the
//! incremental parser's, the tape's and the escaped-JSON reader's.

use proptest::prelude::*;

/// A small deterministic generator.
pub(super) struct Lcg(pub(super) u64);

impl Lcg {
    pub(super) fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// A JSON value to write out in one of the syntaxes the parser reads.
#[derive(Debug, Clone)]
pub(in crate::parse) enum Gen {
    Null,
    Bool(bool),
    /// The number's text.
    Number(&'static str),
    Str(String),
    Array(Vec<Gen>),
    Object(Vec<(String, Gen)>),
}

/// Pieces of string content: escapes, surrogate pairs, multi-byte characters, quotes.
const STRING_PIECES: &[&str] = &[
    "a", "word ", "é", "日本", "😀", "𝔘", "\"", "\\", "/", "\n", "\t", "\r", "\u{1}", "'", "’", "{", "]",
    ",", ":", "  ", "e\u{301}", "\u{feff}", "\u{a0}",
];

fn string_strategy() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::collection::vec(prop::sample::select(STRING_PIECES), 0..8).prop_map(|p| p.concat()),
        1 => prop::collection::vec(prop::sample::select(STRING_PIECES), 50..300).prop_map(|p| p.concat()),
    ]
}

fn key_strategy() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::sample::select(&["a", "path", "content", "customer_id", "$ref", "_x1", "tags"][..]).prop_map(str::to_owned),
        1 => string_strategy(),
    ]
}

pub(in crate::parse) fn gen_strategy() -> impl Strategy<Value = Gen> {
    let leaf = prop_oneof![
        Just(Gen::Null),
        any::<bool>().prop_map(Gen::Bool),
        prop::sample::select(
            &["0", "-0", "7", "-12", "3.25", "1e5", "-2.5E-3", "12345678901234567890", "0.1"][..]
        )
        .prop_map(Gen::Number),
        string_strategy().prop_map(Gen::Str),
    ];
    leaf.prop_recursive(4, 40, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Gen::Array),
            prop::collection::vec((key_strategy(), inner), 0..6).prop_map(|members| {
                // Unique keys: a later duplicate would replace a reported value.
                let mut seen = std::collections::HashSet::new();
                Gen::Object(members.into_iter().filter(|(k, _)| seen.insert(k.clone())).collect())
            }),
        ]
    })
}

/// Writes a [`Gen`] as text: strict JSON, or with the lenient syntax (`lenient`), choosing
/// each spelling from `rng`.
struct Writer {
    rng: Lcg,
    lenient: bool,
    out: String,
    /// A `'` string just ended: only ASCII whitespace may follow before the delimiter, or
    /// its quote would not close it (`'it's'`), and the value would not be the generated
    /// one.
    after_single: bool,
}

impl Writer {
    fn chance(&mut self, n: usize) -> bool {
        self.rng.below(n) == 0
    }

    fn space(&mut self) {
        let choices = if self.lenient && !std::mem::take(&mut self.after_single) { 8 } else { 5 };
        match self.rng.below(choices) {
            0 => self.out.push(' '),
            1 => self.out.push_str("\n  "),
            2 => self.out.push('\t'),
            5 => self.out.push_str(" /* note */ "),
            6 => self.out.push_str(" // note\n"),
            7 => self.out.push('\u{a0}'),
            _ => {}
        }
    }

    fn string(&mut self, text: &str, key: bool) {
        let single = self.lenient && self.chance(4);
        if self.lenient && key && self.chance(2) && !text.is_empty() {
            let bare = text.bytes().enumerate().all(|(k, b)| {
                b.is_ascii_alphabetic() || b == b'_' || b == b'$' || (k > 0 && b.is_ascii_digit())
            });
            if bare {
                self.out.push_str(text);
                return;
            }
        }
        let quote = if single { '\'' } else { '"' };
        self.out.push(quote);
        for c in text.chars() {
            match c {
                '"' if !single => self.out.push_str("\\\""),
                '\'' if single => self.out.push_str("\\'"),
                '\\' => self.out.push_str("\\\\"),
                '\n' => self.out.push_str("\\n"),
                '\t' => {
                    let escape = if self.chance(2) { "\\t" } else { "\\u0009" };
                    self.out.push_str(escape);
                }
                '\r' => self.out.push_str("\\r"),
                '/' if self.chance(2) => self.out.push_str("\\/"),
                c if (c as u32) < 0x20 => self.out.push_str(&format!("\\u{:04x}", c as u32)),
                c if !c.is_ascii() && self.chance(3) => {
                    let mut units = [0u16; 2];
                    for unit in c.encode_utf16(&mut units) {
                        self.out.push_str(&format!("\\u{unit:04X}"));
                    }
                }
                c => self.out.push(c),
            }
        }
        self.out.push(quote);
        self.after_single = single;
    }

    fn value(&mut self, value: &Gen) {
        match value {
            Gen::Null => {
                let python = self.lenient && self.chance(3);
                self.out.push_str(if python { "None" } else { "null" });
            }
            Gen::Bool(b) => {
                let python = self.lenient && self.chance(3);
                self.out.push_str(match (b, python) {
                    (true, false) => "true",
                    (false, false) => "false",
                    (true, true) => "True",
                    (false, true) => "False",
                });
            }
            Gen::Number(text) => self.out.push_str(text),
            Gen::Str(text) => self.string(text, false),
            Gen::Array(items) => {
                self.out.push('[');
                for (k, item) in items.iter().enumerate() {
                    self.space();
                    self.value(item);
                    self.space();
                    if k + 1 < items.len() || (self.lenient && self.chance(4)) {
                        self.out.push(',');
                    }
                }
                self.space();
                self.out.push(']');
            }
            Gen::Object(members) => {
                self.out.push('{');
                for (k, (key, item)) in members.iter().enumerate() {
                    self.space();
                    self.string(key, true);
                    self.space();
                    self.out.push(':');
                    self.space();
                    self.value(item);
                    self.space();
                    if k + 1 < members.len() || (self.lenient && self.chance(4)) {
                        self.out.push(',');
                    }
                }
                self.space();
                self.out.push('}');
            }
        }
    }
}

/// The text of `value` as a model might write tool arguments.
pub(in crate::parse) fn write(value: &Gen, seed: u64, lenient: bool) -> String {
    let mut writer = Writer { rng: Lcg(seed), lenient, out: String::new(), after_single: false };
    let framing = if lenient { writer.rng.below(6) } else { 0 };
    match framing {
        1 => writer.out.push_str("Sure! Here it is: "),
        2 => writer.out.push_str("```json\n"),
        3 => writer.out.push('\u{feff}'),
        _ => {}
    }
    writer.value(value);
    match framing {
        1 if writer.chance(2) => writer.out.push_str(" Hope this helps."),
        2 => writer.out.push_str("\n```"),
        _ => {}
    }
    writer.out
}
