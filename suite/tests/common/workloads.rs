//! The benchmark workloads: a deterministic generator of `create_order` tool calls, written the
//! way models write them. The tests that read the workloads and the benchmarks call
//! [`generate`] through `bench_data_dir()` when `target/bench-data` is missing or was written by
//! another version; `cargo run -p tool-input-suite --bin workloads -- DIR` writes them by hand.
//!
//! Files (JSON Lines, one object a line, UTF-8, `\n` line ends):
//!
//! | file | rows |
//! |---|---|
//! | `create_order.schema.json` | the JSON Schema (draft 2020-12) every call is checked against |
//! | `clean.jsonl` | `{"id","raw"}`: strict JSON, 200 to 600 bytes |
//! | `mangled.jsonl` | `{"id","raw"}`: one to three representation mistakes each (below) |
//! | `mangled.expected.jsonl` | `{"id","value","mistakes","repaired"}`: `value` is the canonical value the call must become; `repaired` is what a perfect syntax-only repair (no schema) yields: strings, letter case and nulls left as sent |
//! | `invalid.jsonl` | `{"id","raw"}`: well-formed JSON with wrong choices |
//! | `invalid.expected.jsonl` | `{"id","paths","kinds"}`: the JSON Pointers a rejection must name, sorted |
//! | `large.jsonl` | `{"id","raw"}`: strict JSON of about 1 MB (5,000 items, long notes) |
//! | `large_mangled.jsonl` | `{"id","raw"}`: calls of about 1 MB as models mangle them, one way each in turn (below) |
//! | `large_mangled.expected.jsonl` | `{"id","value","mangled"}`: the value each call must become, and how it was mangled |
//! | `stream.jsonl` | `{"id","raw","chunks"}`: strict JSON of about 100 KB, and the sizes of the chunks it streams in |
//! | `MANIFEST.json` | the generator's version, the parameters, and each file's bytes and lines |
//!
//! Mistakes of `mangled.jsonl`: `tags_as_string` and `items_as_string` (the array sent as a
//! string holding its JSON), `priority_case` ("High", "HIGH"), `quantity_as_string` ("5"),
//! `gift_as_string` ("true"), `python_literal` (Python's `repr`: single quotes, `True`, `None`),
//! `trailing_commas`, `code_fence` (a Markdown fence around the call), `prose` (text before or
//! after it), `unquoted_keys`.
//!
//! Canonical value rules (what a lenient parse and schema-guided coercion must produce):
//! - the value satisfies the schema; keys compare regardless of order; integers are integers
//!   (5, not 5.0 or "5");
//! - `gift` missing becomes `false` (the schema's default);
//! - an optional field sent as null (`ship_by`, `note`) is absent;
//! - a string holding a JSON array where the schema wants an array becomes that array;
//! - an enum value in another letter case becomes the schema's spelling;
//! - "5" for an integer becomes 5; "true"/"false" for a boolean become true/false.
//!
//! For `clean.jsonl`, `large.jsonl` and `stream.jsonl` the raw text is strict JSON, so the
//! expected value is the text parsed (with `gift` defaulted where it is missing).
//!
//! `large_mangled.jsonl` writes a payload as `large.jsonl` does, in turn: `python_fenced` (a
//! Python dict with trailing commas in a ```` ```python ```` fence), `bare_keys_fenced` (keys
//! without quotes and trailing commas in a ```` ```json ```` fence), `python_pretty` (a
//! Python dict, indented, bare) and `trailing_commas_after_prose` (JSON with trailing commas
//! after a sentence). What `tool-input bench` measures its peak memory on.
//!
//! Invalid kinds: `priority_unknown`, `missing_customer_id`, `unknown_field:top`,
//! `unknown_field:item`, `quantity_out_of_range`, `sku_mismatch:<how>`. A missing required
//! field and an unknown field are reported at the field's own path (`/customer_id`,
//! `/items/3/color`).
//!
//! Stream chunk sizes count bytes of the UTF-8 text; each chunk is 1 to 16 bytes and ends on a
//! character boundary, so every chunk is valid UTF-8 on its own.
//!
//! Determinism: one SplitMix64 generator per file, seeded from the seed and the file's name, so
//! the same parameters give byte-identical files on every platform, and changing one count does
//! not change the other files.
#![allow(dead_code)]

use std::fs;
use std::io::{self, Write};
use std::path::Path;

use serde_json::{json, Map, Value};

/// Written into `MANIFEST.json`; raise it whenever the output changes, so that stale workloads
/// are generated again.
pub const VERSION: u64 = 2;
/// The `generator` field of `MANIFEST.json`.
pub const GENERATOR: &str = "tool-input workloads";

/// How many calls of each kind, and how big.
#[derive(Clone, Debug)]
pub struct Params {
    pub seed: u64,
    pub clean_n: usize,
    pub mangled_n: usize,
    pub invalid_n: usize,
    pub large_n: usize,
    pub large_items: usize,
    pub large_bytes: usize,
    pub large_mangled_n: usize,
    pub stream_n: usize,
    pub stream_bytes: usize,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            seed: 20250601,
            clean_n: 20_000,
            mangled_n: 20_000,
            invalid_n: 5_000,
            large_n: 20,
            large_items: 5_000,
            large_bytes: 1_000_000,
            large_mangled_n: 4,
            stream_n: 50,
            stream_bytes: 100_000,
        }
    }
}

/// The schema of every workload, as written to `create_order.schema.json`.
pub const SCHEMA: &str = r#"{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://example.invalid/tool-input/create_order.schema.json",
  "title": "create_order",
  "description": "Create an order for a customer.",
  "type": "object",
  "properties": {
    "customer_id": {"type": "string", "description": "Customer identifier"},
    "priority": {"type": "string", "enum": ["low", "medium", "high"]},
    "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 10},
    "items": {
      "type": "array",
      "items": {
        "type": "object",
        "properties": {
          "sku": {"type": "string", "pattern": "^[A-Z]{3}-\\d{4}$"},
          "quantity": {"type": "integer", "minimum": 1, "maximum": 1000},
          "note": {"type": "string"}
        },
        "required": ["sku", "quantity"],
        "additionalProperties": false
      }
    },
    "ship_by": {"type": "string", "description": "ISO 8601 date or date-time"},
    "gift": {"type": "boolean", "default": false}
  },
  "required": ["customer_id", "priority", "tags", "items"],
  "additionalProperties": false
}
"#;

/// Write every workload and `MANIFEST.json` into `out`.
pub fn generate(out: &Path, params: &Params) -> io::Result<()> {
    fs::create_dir_all(out)?;
    let rng = |name: &str| Rng::new(params.seed, name);
    let mut files = Map::new();
    let mut write = |name: &str, text: String| -> io::Result<()> {
        let lines = name.ends_with(".jsonl").then(|| text.lines().count());
        files.insert(name.to_owned(), json!({"bytes": text.len(), "lines": lines}));
        fs::File::create(out.join(name))?.write_all(text.as_bytes())
    };
    write("create_order.schema.json", SCHEMA.to_owned())?;
    write("clean.jsonl", jsonl(clean(&mut rng("clean"), params.clean_n)))?;
    let (calls, expected) = mangled(&mut rng("mangled"), params.mangled_n).into_iter().unzip();
    write("mangled.jsonl", jsonl(calls))?;
    write("mangled.expected.jsonl", jsonl(expected))?;
    let (calls, expected) = invalid(&mut rng("invalid"), params.invalid_n).into_iter().unzip();
    write("invalid.jsonl", jsonl(calls))?;
    write("invalid.expected.jsonl", jsonl(expected))?;
    let large = large(&mut rng("large"), params.large_n, params.large_items, params.large_bytes);
    write("large.jsonl", jsonl(large))?;
    let (calls, expected) = large_mangled(
        &mut rng("large_mangled"),
        params.large_mangled_n,
        params.large_items,
        params.large_bytes,
    )
    .into_iter()
    .unzip();
    write("large_mangled.jsonl", jsonl(calls))?;
    write("large_mangled.expected.jsonl", jsonl(expected))?;
    write("stream.jsonl", jsonl(stream(&mut rng("stream"), params.stream_n, params.stream_bytes)))?;
    let manifest = json!({
        "generator": GENERATOR,
        "version": VERSION,
        "params": {
            "seed": params.seed, "clean_n": params.clean_n, "mangled_n": params.mangled_n,
            "invalid_n": params.invalid_n, "large_n": params.large_n,
            "large_items": params.large_items, "large_bytes": params.large_bytes,
            "large_mangled_n": params.large_mangled_n,
            "stream_n": params.stream_n, "stream_bytes": params.stream_bytes,
        },
        "files": files,
    });
    let text = serde_json::to_string_pretty(&manifest).map_err(io::Error::other)? + "\n";
    fs::write(out.join("MANIFEST.json"), text)
}

/// Whether `dir` holds workloads this version of the generator wrote.
pub fn is_current(dir: &Path) -> bool {
    let Ok(text) = fs::read_to_string(dir.join("MANIFEST.json")) else { return false };
    let Ok(manifest) = serde_json::from_str::<Value>(&text) else { return false };
    manifest["generator"] == GENERATOR && manifest["version"] == VERSION
}

fn jsonl(rows: Vec<Value>) -> String {
    let mut text = String::new();
    for row in rows {
        text.push_str(&row.to_string());
        text.push('\n');
    }
    text
}

// ------------------------------------------------------------------------ random numbers

/// SplitMix64: small, fast, and the same sequence everywhere.
struct Rng(u64);

impl Rng {
    /// One generator per file: FNV-1a of "seed:name" as the starting state.
    fn new(seed: u64, name: &str) -> Rng {
        let mut state: u64 = 0xcbf2_9ce4_8422_2325;
        for byte in format!("{seed}:{name}").bytes() {
            state = (state ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
        Rng(state)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    /// Uniform in 0..n (n > 0).
    fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next()) * n as u128) >> 64) as usize
    }

    /// Uniform in lo..=hi.
    fn between(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as usize) as i64
    }

    fn pick<'a, T: ?Sized>(&mut self, items: &[&'a T]) -> &'a T {
        items[self.below(items.len())]
    }

    /// An index, with probability proportional to its weight.
    fn weighted(&mut self, weights: &[f64]) -> usize {
        let mut x = self.unit() * weights.iter().sum::<f64>();
        for (i, weight) in weights.iter().enumerate() {
            if x < *weight {
                return i;
            }
            x -= weight;
        }
        weights.len() - 1
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }

    /// `k` distinct items, in random order.
    fn sample<T: Clone>(&mut self, items: &[T], k: usize) -> Vec<T> {
        let mut pool = items.to_vec();
        for i in 0..k.min(pool.len()) {
            let j = i + self.below(pool.len() - i);
            pool.swap(i, j);
        }
        pool.truncate(k);
        pool
    }
}

// ------------------------------------------------------------------------ values

/// A JSON-like value that keeps its keys in the order they are written.
#[derive(Clone, Debug)]
enum Node {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    List(Vec<Node>),
    Object(Vec<(String, Node)>),
}

impl Node {
    fn str(text: &str) -> Node {
        Node::Str(text.to_owned())
    }

    fn fields(&mut self) -> &mut Vec<(String, Node)> {
        match self {
            Node::Object(fields) => fields,
            _ => unreachable!("an object"),
        }
    }

    fn get(&self, key: &str) -> Option<&Node> {
        match self {
            Node::Object(fields) => fields.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    fn get_mut(&mut self, key: &str) -> Option<&mut Node> {
        self.fields().iter_mut().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// Replace the value of `key`, or add it last.
    fn set(&mut self, key: &str, value: Node) {
        match self.get_mut(key) {
            Some(slot) => *slot = value,
            None => self.fields().push((key.to_owned(), value)),
        }
    }

    fn remove(&mut self, key: &str) {
        self.fields().retain(|(k, _)| k != key);
    }

    fn items(&mut self) -> &mut Vec<Node> {
        match self.get_mut("items") {
            Some(Node::List(items)) => items,
            _ => unreachable!("a payload has items"),
        }
    }

    fn to_json(&self) -> Value {
        match self {
            Node::Null => Value::Null,
            Node::Bool(b) => Value::Bool(*b),
            Node::Int(i) => json!(i),
            Node::Float(f) => json!(f),
            Node::Str(s) => Value::String(s.clone()),
            Node::List(items) => Value::Array(items.iter().map(Node::to_json).collect()),
            Node::Object(fields) => {
                Value::Object(fields.iter().map(|(k, v)| (k.clone(), v.to_json())).collect())
            }
        }
    }
}

// ------------------------------------------------------------------------ writing

#[derive(Clone, Copy, PartialEq)]
enum Layout {
    /// `{"a":1,"b":2}`
    Compact,
    /// `{"a": 1, "b": 2}`
    Spaced,
    /// Two-space indentation, one member a line.
    Pretty,
}

#[derive(Clone, Copy, PartialEq)]
enum Strings {
    /// JSON strings; non-ASCII escaped as `\uXXXX` when `ascii`.
    Json { ascii: bool },
    /// JSON strings; each non-ASCII character `\u`-escaped with this probability (astral ones as
    /// surrogate pairs, hex digits in either case) and `/` escaped sometimes.
    Mixed(f64),
    /// Python literals: `repr` strings, `True`, `False`, `None`.
    Python,
}

/// How a value is written: the layout, the strings, unquoted keys, trailing commas.
struct Style {
    layout: Layout,
    strings: Strings,
    unquoted_keys: bool,
    /// The probability of a trailing comma after each non-empty container.
    trailing: f64,
    /// How many trailing commas were written.
    trailing_written: usize,
}

impl Style {
    fn json(layout: Layout, ascii: bool) -> Style {
        Style {
            layout,
            strings: Strings::Json { ascii },
            unquoted_keys: false,
            trailing: 0.0,
            trailing_written: 0,
        }
    }

    fn write(&mut self, node: &Node, rng: &mut Rng) -> String {
        let mut out = String::new();
        self.node(node, 0, rng, &mut out);
        out
    }

    fn node(&mut self, node: &Node, depth: usize, rng: &mut Rng, out: &mut String) {
        let python = self.strings == Strings::Python;
        match node {
            Node::Null => out.push_str(if python { "None" } else { "null" }),
            Node::Bool(true) => out.push_str(if python { "True" } else { "true" }),
            Node::Bool(false) => out.push_str(if python { "False" } else { "false" }),
            Node::Int(i) => out.push_str(&i.to_string()),
            Node::Float(f) => out.push_str(&format!("{f:?}")),
            Node::Str(s) => self.string(s, rng, out),
            Node::List(items) => {
                let parts = items
                    .iter()
                    .map(|item| {
                        let mut part = String::new();
                        self.node(item, depth + 1, rng, &mut part);
                        part
                    })
                    .collect();
                self.join('[', ']', parts, depth, rng, out);
            }
            Node::Object(fields) => {
                let colon = if self.layout == Layout::Compact { ":" } else { ": " };
                let parts = fields
                    .iter()
                    .map(|(key, value)| {
                        let mut part = String::new();
                        if self.unquoted_keys {
                            part.push_str(key);
                        } else {
                            self.string(key, rng, &mut part);
                        }
                        part.push_str(colon);
                        self.node(value, depth + 1, rng, &mut part);
                        part
                    })
                    .collect();
                self.join('{', '}', parts, depth, rng, out);
            }
        }
    }

    fn join(
        &mut self,
        open: char,
        close: char,
        parts: Vec<String>,
        depth: usize,
        rng: &mut Rng,
        out: &mut String,
    ) {
        out.push(open);
        if parts.is_empty() {
            out.push(close);
            return;
        }
        let trailing = self.trailing > 0.0 && rng.chance(self.trailing);
        if trailing {
            self.trailing_written += 1;
        }
        if self.layout == Layout::Pretty {
            let indent = "  ".repeat(depth + 1);
            out.push('\n');
            for (i, part) in parts.iter().enumerate() {
                if i > 0 {
                    out.push_str(",\n");
                }
                out.push_str(&indent);
                out.push_str(part);
            }
            if trailing {
                out.push(',');
            }
            out.push('\n');
            out.push_str(&"  ".repeat(depth));
        } else {
            out.push_str(&parts.join(if self.layout == Layout::Compact { "," } else { ", " }));
            if trailing {
                out.push(',');
            }
        }
        out.push(close);
    }

    fn string(&self, s: &str, rng: &mut Rng, out: &mut String) {
        match self.strings {
            Strings::Json { ascii } => {
                json_string(s, out, |c| if ascii && !c.is_ascii() { Escape::Lower } else { Escape::No })
            }
            Strings::Mixed(p) => json_string(s, out, |c| {
                if c == '/' {
                    if rng.chance(0.3) {
                        Escape::Lower
                    } else {
                        Escape::No
                    }
                } else if !rng.chance(p) {
                    Escape::No
                } else if rng.chance(0.5) {
                    Escape::Upper
                } else {
                    Escape::Lower
                }
            }),
            Strings::Python => python_string(s, out),
        }
    }
}

/// Whether a character of a JSON string is escaped, and in which case its hex digits are.
#[derive(PartialEq)]
enum Escape {
    No,
    Lower,
    Upper,
}

/// A JSON string literal: quotes, backslashes and control characters escaped; `/` and non-ASCII
/// characters escaped (`\/`, `\uXXXX`, astral ones as surrogate pairs) where `escape` says.
fn json_string(s: &str, out: &mut String, mut escape: impl FnMut(char) -> Escape) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            '/' => out.push_str(if escape(c) == Escape::No { "/" } else { "\\/" }),
            c if c.is_ascii() => out.push(c),
            c => match escape(c) {
                Escape::No => out.push(c),
                case => {
                    let mut units = [0u16; 2];
                    for unit in c.encode_utf16(&mut units) {
                        if case == Escape::Upper {
                            out.push_str(&format!("\\u{:04X}", unit));
                        } else {
                            out.push_str(&format!("\\u{:04x}", unit));
                        }
                    }
                }
            },
        }
    }
    out.push('"');
}

/// A Python `repr` of a string: single quotes unless the text has a single quote and no double
/// one; backslash escapes for the quote, backslashes and control characters; other characters
/// as they are (the workloads use no others Python would escape).
fn python_string(s: &str, out: &mut String) {
    let quote = if s.contains('\'') && !s.contains('"') { '"' } else { '\'' };
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || c as u32 == 0x7f => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push(quote);
}

// ------------------------------------------------------------------------ payloads

const TOP_ORDER: [&str; 6] = ["customer_id", "priority", "tags", "items", "ship_by", "gift"];
const PRIORITIES: [&str; 3] = ["low", "medium", "high"];
const TAGS: [&str; 30] = [
    "b2b",
    "b2c",
    "wholesale",
    "retail",
    "repeat-customer",
    "vip",
    "fragile",
    "perishable",
    "express",
    "eu",
    "us-west",
    "apac",
    "backorder",
    "promo-spring",
    "gift-wrap",
    "bulk",
    "sample",
    "replacement",
    "net-30",
    "prepaid",
    "café",
    "übergröße",
    "日本",
    "preorder",
    "cold-chain",
    "hazmat",
    "oversize",
    "loyalty",
    "marketplace",
    "priority-support",
];
const NOTES: [&str; 20] = [
    "leave at the front desk",
    "call before delivery",
    "use the blue box",
    "customer asked for \"matte\" finish",
    "no substitutions",
    "split if needed",
    "deliver after 5pm",
    "fragile: glass inside",
    "O'Brien's order, handle w/ care",
    "größere Verpackung",
    "emballage réutilisable",
    "請小心輕放",
    "2nd floor, door B",
    "rush \u{2014} trade show",
    "back-ordered item; ship when ready",
    "match previous batch",
    "line 1\nline 2",
    "tab\tseparated",
    "path C:\\orders\\in",
    "emoji ok 📦",
];
const PROSE_BEFORE: [&str; 6] = [
    "Sure! Here it is: ",
    "Here are the arguments:\n",
    "Okay, calling create_order with ",
    "I'll create the order now.\n\n",
    "Certainly. The tool input is:\n",
    "Arguments: ",
];
const PROSE_AFTER: [&str; 4] = [
    "\nLet me know if you need anything else.",
    " Hope this helps!",
    "\n\nI have filled in the required fields.",
    "\n(ship date is approximate)",
];
const COMPANIES: [&str; 6] = ["acme", "globex", "initech", "umbrella", "hooli", "stark"];
const ALPHANUMERIC: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const LONG_FRAGMENTS: [&str; 25] = [
    "Handle with care.",
    "Customer said: \"do NOT fold\".",
    "Path: C:\\data\\orders\\2025\\",
    "line break here\nand continue",
    "tabs\tin\tthe\tmiddle",
    "slash / and back\\slash",
    "café crème brûlée",
    "naïve façade",
    "Größe: XXL, Farbe: blau",
    "ñandú",
    "Привет, мир",
    "日本語のメモ",
    "中文备注：轻拿轻放",
    "한국어 메모",
    "عربى",
    "emoji 📦🚚✅",
    "math ∑∫√∞",
    "quote ' single",
    "<b>html</b> & stuff",
    "1/2 \u{bd} and \u{2153}",
    "zero\u{200b}width",
    "combining e\u{301}",
    "carriage\rreturn",
    "bell\u{7}char",
    "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 astral",
];

fn chars(rng: &mut Rng, alphabet: &[u8], n: usize) -> String {
    (0..n).map(|_| alphabet[rng.below(alphabet.len())] as char).collect()
}

fn customer_id(rng: &mut Rng) -> String {
    match rng.below(4) {
        0 => {
            let n = rng.between(10, 14) as usize;
            format!("cus_{}", chars(rng, ALPHANUMERIC, n))
        }
        1 => format!("C-{:06}", rng.below(1_000_000)),
        2 => {
            let h = chars(rng, b"0123456789abcdef", 32);
            format!("{}-{}-{}-{}-{}", &h[..8], &h[8..12], &h[12..16], &h[16..20], &h[20..])
        }
        _ => format!("acct-{}-{}", rng.pick(&COMPANIES), rng.below(10_000)),
    }
}

fn sku(rng: &mut Rng) -> String {
    format!("{}-{:04}", chars(rng, b"ABCDEFGHIJKLMNOPQRSTUVWXYZ", 3), rng.below(10_000))
}

fn quantity(rng: &mut Rng) -> i64 {
    let r = rng.unit();
    if r < 0.7 {
        rng.between(1, 20)
    } else if r < 0.95 {
        rng.between(21, 200)
    } else {
        rng.between(201, 1000)
    }
}

fn date(rng: &mut Rng) -> String {
    let (year, month, day) = (2025 + rng.below(2), rng.between(1, 12), rng.between(1, 28));
    if rng.chance(0.6) {
        format!("{year:04}-{month:02}-{day:02}")
    } else {
        format!("{year:04}-{month:02}-{day:02}T{:02}:00:00Z", rng.between(8, 18))
    }
}

fn tags(rng: &mut Rng, count: usize) -> Node {
    Node::List(rng.sample(&TAGS, count).into_iter().map(Node::str).collect())
}

fn item(rng: &mut Rng) -> Node {
    let mut fields =
        vec![("sku".to_owned(), Node::Str(sku(rng))), ("quantity".to_owned(), Node::Int(quantity(rng)))];
    if rng.chance(0.35) {
        fields.push(("note".to_owned(), Node::str(rng.pick(&NOTES))));
    }
    Node::Object(fields)
}

/// A valid call: 1 to 6 items (or `n_items`), at least `min_tags` tags, optional fields half
/// the time.
fn payload(rng: &mut Rng, n_items: Option<usize>, min_tags: usize) -> Node {
    let mut p = Node::Object(vec![
        ("customer_id".to_owned(), Node::Str(customer_id(rng))),
        ("priority".to_owned(), Node::str(rng.pick(&PRIORITIES))),
    ]);
    let count = if rng.chance(0.3) {
        rng.between(min_tags as i64, 10)
    } else {
        rng.between(min_tags as i64, min_tags.max(4) as i64)
    };
    p.set("tags", tags(rng, count as usize));
    let n_items = n_items.unwrap_or_else(|| rng.between(1, 6) as usize);
    p.set("items", Node::List((0..n_items).map(|_| item(rng)).collect()));
    if rng.chance(0.5) {
        p.set("ship_by", Node::Str(date(rng)));
    }
    if rng.chance(0.6) {
        p.set("gift", Node::Bool(rng.chance(0.3)));
    }
    p
}

/// Mostly the schema's key order; a fifth of the time shuffled (models do that).
fn reorder(rng: &mut Rng, mut p: Node) -> Node {
    let fields = p.fields();
    if rng.chance(0.2) {
        rng.shuffle(fields);
    } else {
        fields.sort_by_key(|(k, _)| TOP_ORDER.iter().position(|t| t == k).unwrap_or(TOP_ORDER.len()));
    }
    p
}

fn layout(rng: &mut Rng, weights: &[f64; 3]) -> Layout {
    [Layout::Compact, Layout::Spaced, Layout::Pretty][rng.weighted(weights)]
}

/// How a clean or invalid call is written: strict JSON in one of the layouts, sometimes ASCII only.
fn json_style(rng: &mut Rng) -> Style {
    let layout = layout(rng, &[0.45, 0.4, 0.15]);
    Style::json(layout, rng.chance(0.25))
}

fn row(id: String, raw: String) -> Value {
    json!({"id": id, "raw": raw})
}

// ------------------------------------------------------------------------ workloads

fn clean(rng: &mut Rng, n: usize) -> Vec<Value> {
    (0..n)
        .map(|i| loop {
            let p = payload(rng, None, 0);
            let p = reorder(rng, p);
            let raw = json_style(rng).write(&p, rng);
            if (200..=600).contains(&raw.len()) {
                break row(format!("clean-{i:06}"), raw);
            }
        })
        .collect()
}

const MISTAKES: [&str; 10] = [
    "tags_as_string",
    "items_as_string",
    "priority_case",
    "quantity_as_string",
    "gift_as_string",
    "python_literal",
    "trailing_commas",
    "code_fence",
    "prose",
    "unquoted_keys",
];
const MISTAKE_WEIGHTS: [f64; 10] = [1.0, 0.8, 1.0, 1.0, 0.8, 0.8, 1.0, 1.0, 1.0, 0.8];

/// One to three distinct mistakes (never Python literals with unquoted keys), in list order.
fn mistakes(rng: &mut Rng) -> Vec<&'static str> {
    let k = [1, 2, 3][rng.weighted(&[0.4, 0.35, 0.25])];
    let mut chosen: Vec<&str> = Vec::new();
    while chosen.len() < k {
        let m = MISTAKES[rng.weighted(&MISTAKE_WEIGHTS)];
        let clash = (m == "python_literal" && chosen.contains(&"unquoted_keys"))
            || (m == "unquoted_keys" && chosen.contains(&"python_literal"));
        if !chosen.contains(&m) && !clash {
            chosen.push(m);
        }
    }
    MISTAKES.iter().copied().filter(|m| chosen.contains(m)).collect()
}

/// An array as the JSON text of a string, compact or spaced.
fn as_string(rng: &mut Rng, node: &Node) -> Node {
    let layout = if rng.chance(0.5) { Layout::Compact } else { Layout::Spaced };
    Node::Str(Style::json(layout, false).write(node, rng))
}

fn mangled(rng: &mut Rng, n: usize) -> Vec<(Value, Value)> {
    (0..n)
        .map(|i| {
            let kinds = mistakes(rng);
            let has = |kind: &str| kinds.contains(&kind);
            let mut p = loop {
                let p = payload(rng, None, if has("tags_as_string") { 2 } else { 0 });
                let p = reorder(rng, p);
                let size = Style::json(Layout::Spaced, true).write(&p, rng).len();
                if (200..=560).contains(&size) {
                    break p;
                }
            };
            if (has("python_literal") || has("gift_as_string")) && p.get("gift").is_none() {
                p.set("gift", Node::Bool(rng.chance(0.3)));
            }
            let mut canonical = p.clone();
            if canonical.get("gift").is_none() {
                canonical.set("gift", Node::Bool(false));
            }
            let mut m = p;
            if has("python_literal") && m.get("ship_by").is_none() && rng.chance(0.7) {
                m.set("ship_by", Node::Null);
            }
            if has("priority_case") {
                let Some(Node::Str(priority)) = m.get_mut("priority") else { unreachable!() };
                *priority = if rng.chance(0.5) {
                    priority[..1].to_uppercase() + &priority[1..]
                } else {
                    priority.to_uppercase()
                };
            }
            if has("quantity_as_string") {
                let items = m.items();
                let mut picked: Vec<usize> = (0..items.len()).filter(|_| rng.chance(0.6)).collect();
                if picked.is_empty() {
                    picked.push(0);
                }
                for j in picked {
                    if let Some(Node::Int(q)) = items[j].get("quantity") {
                        let text = q.to_string();
                        items[j].set("quantity", Node::Str(text));
                    }
                }
            }
            if has("gift_as_string") {
                let gift = matches!(m.get("gift"), Some(Node::Bool(true)));
                m.set("gift", Node::str(if gift { "true" } else { "false" }));
            }
            for (kind, key) in [("tags_as_string", "tags"), ("items_as_string", "items")] {
                if has(kind) {
                    let value = m.get(key).cloned().unwrap_or(Node::Null);
                    let text = as_string(rng, &value);
                    m.set(key, text);
                }
            }
            let python = has("python_literal");
            let mut layout = layout(rng, &[0.3, 0.5, 0.2]);
            let ascii = rng.chance(0.2);
            if python && layout == Layout::Compact {
                layout = Layout::Spaced;
            }
            let mut style = Style {
                layout,
                strings: if python { Strings::Python } else { Strings::Json { ascii } },
                unquoted_keys: has("unquoted_keys"),
                trailing: if has("trailing_commas") { 0.5 } else { 0.0 },
                trailing_written: 0,
            };
            let mut raw = style.write(&m, rng);
            if has("trailing_commas") && style.trailing_written == 0 {
                let end = if raw.ends_with("\n}") { raw.len() - 2 } else { raw.len() - 1 };
                raw.insert(end, ',');
            }
            if has("code_fence") {
                raw = format!("{}{raw}\n```", rng.pick(&["```json\n", "```json\n", "```\n"]));
            }
            if has("prose") {
                let r = rng.unit();
                if r < 0.45 {
                    raw = format!("{}{raw}", rng.pick(&PROSE_BEFORE));
                } else if r < 0.7 {
                    raw = format!("{raw}{}", rng.pick(&PROSE_AFTER));
                } else {
                    let before = rng.pick(&PROSE_BEFORE);
                    raw = format!("{before}{raw}{}", rng.pick(&PROSE_AFTER));
                }
            }
            let id = format!("mangled-{i:06}");
            let expected = json!({
                "id": id, "value": canonical.to_json(), "mistakes": kinds, "repaired": m.to_json(),
            });
            (row(id, raw), expected)
        })
        .collect()
}

const INVALID_KINDS: [&str; 5] =
    ["priority_unknown", "missing_customer_id", "unknown_field", "quantity_out_of_range", "sku_mismatch"];
const BAD_PRIORITIES: [&str; 6] = ["urgent", "critical", "asap", "normal", "p1", "highest"];
const UNKNOWN_TOP_FIELDS: [&str; 6] =
    ["discount_code", "customer_name", "shipping_method", "notes", "currency", "priority_level"];
const UNKNOWN_ITEM_FIELDS: [&str; 4] = ["color", "price", "size", "description"];
const BAD_SKUS: [&str; 8] = [
    "lowercase",
    "two_letters",
    "three_digits",
    "no_dash",
    "five_digits",
    "four_letters",
    "trailing_space",
    "underscore",
];
const ARABIC_INDIC: [char; 10] = ['٠', '١', '٢', '٣', '٤', '٥', '٦', '٧', '٨', '٩'];

fn unknown_value(field: &str) -> Node {
    match field {
        "discount_code" => Node::str("SAVE10"),
        "customer_name" => Node::str("Ada Lovelace"),
        "shipping_method" => Node::str("ground"),
        "notes" => Node::str("call first"),
        "currency" => Node::str("EUR"),
        "priority_level" => Node::Int(2),
        "color" => Node::str("red"),
        "price" => Node::Float(9.99),
        "size" => Node::str("XL"),
        _ => Node::str("widget"),
    }
}

/// A SKU that breaks `^[A-Z]{3}-\d{4}$` the way `how` says.
fn bad_sku(sku: &str, how: &str) -> String {
    match how {
        "lowercase" => sku.to_lowercase(),
        "two_letters" => sku[1..].to_owned(),
        "three_digits" => sku[..sku.len() - 1].to_owned(),
        "no_dash" => sku.replace('-', ""),
        "five_digits" => format!("{sku}5"),
        "four_letters" => format!("X{sku}"),
        "trailing_space" => format!("{sku} "),
        _ => sku.replace('-', "_"),
    }
}

fn invalid(rng: &mut Rng, n: usize) -> Vec<(Value, Value)> {
    (0..n)
        .map(|i| {
            let k = if rng.chance(0.6) { 1 } else { 2 };
            let mut kinds = rng.sample(&INVALID_KINDS, k);
            kinds.sort_by_key(|kind| INVALID_KINDS.iter().position(|k| k == kind));
            let n_items = rng.between(2, 5) as usize;
            let p = payload(rng, Some(n_items), 0);
            let mut p = reorder(rng, p);
            let (mut paths, mut labels) = (Vec::new(), Vec::new());
            let mut used = Vec::new();
            let mut pick_item = |rng: &mut Rng| {
                let free: Vec<usize> = (0..n_items).filter(|j| !used.contains(j)).collect();
                let j = free[rng.below(free.len())];
                used.push(j);
                j
            };
            for kind in kinds {
                match kind {
                    "priority_unknown" => {
                        p.set("priority", Node::str(rng.pick(&BAD_PRIORITIES)));
                        paths.push("/priority".to_owned());
                        labels.push(kind.to_owned());
                    }
                    "missing_customer_id" => {
                        p.remove("customer_id");
                        paths.push("/customer_id".to_owned());
                        labels.push(kind.to_owned());
                    }
                    "unknown_field" => {
                        if rng.chance(0.5) {
                            let field = rng.pick(&UNKNOWN_TOP_FIELDS);
                            p.set(field, unknown_value(field));
                            paths.push(format!("/{field}"));
                            labels.push("unknown_field:top".to_owned());
                        } else {
                            let j = pick_item(rng);
                            let field = rng.pick(&UNKNOWN_ITEM_FIELDS);
                            p.items()[j].set(field, unknown_value(field));
                            paths.push(format!("/items/{j}/{field}"));
                            labels.push("unknown_field:item".to_owned());
                        }
                    }
                    "quantity_out_of_range" => {
                        let j = pick_item(rng);
                        let r = rng.unit();
                        let q = if r < 0.7 {
                            0
                        } else if r < 0.85 {
                            -rng.between(1, 5)
                        } else {
                            rng.between(1001, 5000)
                        };
                        p.items()[j].set("quantity", Node::Int(q));
                        paths.push(format!("/items/{j}/quantity"));
                        labels.push(kind.to_owned());
                    }
                    _ => {
                        let j = pick_item(rng);
                        let Some(Node::Str(sku)) = p.items()[j].get("sku").cloned() else { unreachable!() };
                        let broken = if rng.chance(0.05) {
                            labels.push("sku_mismatch:non_ascii_digits".to_owned());
                            let digits = sku[4..].chars().map(|d| ARABIC_INDIC[d as usize - '0' as usize]);
                            sku[..4].chars().chain(digits).collect()
                        } else {
                            let how = rng.pick(&BAD_SKUS);
                            labels.push(format!("sku_mismatch:{how}"));
                            bad_sku(&sku, how)
                        };
                        p.items()[j].set("sku", Node::Str(broken));
                        paths.push(format!("/items/{j}/sku"));
                    }
                }
            }
            paths.sort();
            let raw = json_style(rng).write(&p, rng);
            let id = format!("invalid-{i:06}");
            let expected = json!({"id": id, "paths": paths, "kinds": labels});
            (row(id, raw), expected)
        })
        .collect()
}

/// Long text from `LONG_FRAGMENTS`, about `target` bytes.
fn long_note(rng: &mut Rng, target: usize) -> String {
    let mut parts = Vec::new();
    let mut size = 0;
    while size < target {
        let fragment = rng.pick(&LONG_FRAGMENTS);
        parts.push(fragment);
        size += fragment.len() + 1;
    }
    parts.join(" ")
}

/// A valid call with every field, `n_items` items, nine in ten with a note of about `note_len`
/// bytes.
fn big_payload(rng: &mut Rng, n_items: usize, note_len: usize) -> Node {
    let mut p = Node::Object(vec![
        ("customer_id".to_owned(), Node::Str(customer_id(rng))),
        ("priority".to_owned(), Node::str(rng.pick(&PRIORITIES))),
    ]);
    let count = rng.between(3, 10) as usize;
    p.set("tags", tags(rng, count));
    let items = (0..n_items)
        .map(|_| {
            let mut it = Node::Object(vec![
                ("sku".to_owned(), Node::Str(sku(rng))),
                ("quantity".to_owned(), Node::Int(quantity(rng))),
            ]);
            if rng.chance(0.9) {
                let target = rng.between((note_len / 2) as i64, (note_len * 3 / 2) as i64) as usize;
                it.set("note", Node::Str(long_note(rng, target)));
            }
            it
        })
        .collect();
    p.set("items", Node::List(items));
    p.set("ship_by", Node::Str(date(rng)));
    p.set("gift", Node::Bool(rng.chance(0.3)));
    p
}

fn escaped_style(rng: &mut Rng, probabilities: &[f64]) -> Style {
    let layout = if rng.chance(0.5) { Layout::Compact } else { Layout::Spaced };
    let p = probabilities[rng.below(probabilities.len())];
    Style { layout, strings: Strings::Mixed(p), unquoted_keys: false, trailing: 0.0, trailing_written: 0 }
}

fn large(rng: &mut Rng, n: usize, n_items: usize, target_bytes: usize) -> Vec<Value> {
    let note_len = (target_bytes / n_items.max(1)).saturating_sub(48).max(8);
    (0..n)
        .map(|i| {
            let p = big_payload(rng, n_items, note_len);
            let raw = escaped_style(rng, &[0.0, 0.3, 1.0]).write(&p, rng);
            row(format!("large-{i:03}"), raw)
        })
        .collect()
}

/// How `large_mangled` writes its calls, in turn (see the module's docs).
#[derive(Clone, Copy, PartialEq, Eq)]
enum LargeMangling {
    PythonFenced,
    BareKeysFenced,
    PythonPretty,
    TrailingCommasAfterProse,
}

impl LargeMangling {
    const IN_TURN: [LargeMangling; 4] = [
        LargeMangling::PythonFenced,
        LargeMangling::BareKeysFenced,
        LargeMangling::PythonPretty,
        LargeMangling::TrailingCommasAfterProse,
    ];

    /// Its name in `large_mangled.expected.jsonl`.
    fn name(self) -> &'static str {
        match self {
            LargeMangling::PythonFenced => "python_fenced",
            LargeMangling::BareKeysFenced => "bare_keys_fenced",
            LargeMangling::PythonPretty => "python_pretty",
            LargeMangling::TrailingCommasAfterProse => "trailing_commas_after_prose",
        }
    }

    fn style(self) -> Style {
        let python = matches!(self, LargeMangling::PythonFenced | LargeMangling::PythonPretty);
        Style {
            layout: if self == LargeMangling::PythonPretty { Layout::Pretty } else { Layout::Spaced },
            strings: if python { Strings::Python } else { Strings::Json { ascii: false } },
            unquoted_keys: self == LargeMangling::BareKeysFenced,
            trailing: if self == LargeMangling::PythonPretty { 0.0 } else { 0.5 },
            trailing_written: 0,
        }
    }
}

/// Large calls (as `large` writes them) mangled one way each in turn, with the value each
/// must become.
fn large_mangled(rng: &mut Rng, n: usize, n_items: usize, target_bytes: usize) -> Vec<(Value, Value)> {
    let note_len = (target_bytes / n_items.max(1)).saturating_sub(48).max(8);
    (0..n)
        .map(|i| {
            let p = big_payload(rng, n_items, note_len);
            let how = LargeMangling::IN_TURN[i % LargeMangling::IN_TURN.len()];
            let raw = how.style().write(&p, rng);
            let raw = match how {
                LargeMangling::PythonFenced => format!("```python\n{raw}\n```"),
                LargeMangling::BareKeysFenced => format!("```json\n{raw}\n```"),
                LargeMangling::TrailingCommasAfterProse => format!("{}{raw}", rng.pick(&PROSE_BEFORE)),
                LargeMangling::PythonPretty => raw,
            };
            let mut canonical = p;
            if canonical.get("gift").is_none() {
                canonical.set("gift", Node::Bool(false));
            }
            let id = format!("large-mangled-{i:03}");
            let expected = json!({"id": id, "value": canonical.to_json(), "mangled": how.name()});
            (row(id, raw), expected)
        })
        .collect()
}

/// Chunks of 1 to 16 bytes, each ending on a character boundary.
fn chunk_sizes(rng: &mut Rng, text: &str) -> Vec<usize> {
    let (mut sizes, mut pos) = (Vec::new(), 0);
    while pos < text.len() {
        let mut end = (pos + rng.between(1, 16) as usize).min(text.len());
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        if end == pos {
            end = pos + 1;
            while !text.is_char_boundary(end) {
                end += 1;
            }
        }
        sizes.push(end - pos);
        pos = end;
    }
    sizes
}

fn stream(rng: &mut Rng, n: usize, target_bytes: usize) -> Vec<Value> {
    let n_items = (target_bytes / 200).max(1);
    (0..n)
        .map(|i| {
            let p = big_payload(rng, n_items, 150);
            let raw = escaped_style(rng, &[0.0, 0.0, 0.3]).write(&p, rng);
            let chunks = chunk_sizes(rng, &raw);
            json!({"id": format!("stream-{i:03}"), "raw": raw, "chunks": chunks})
        })
        .collect()
}
