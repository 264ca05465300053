//! An ECMA-262 pattern (read by `ecma`) written in the `regex` crate's syntax, with ECMA's
//! meaning kept where the two differ:
//!
//! - `\d`, `\w` and `\b` are ASCII in ECMA (Unicode in `regex`);
//! - `\s` is ECMA's own set (`regex`'s also has U+0085, and lacks U+FEFF);
//! - `.` excludes every line terminator (`\n`, `\r`, U+2028, U+2029), not only `\n`;
//! - `[^]` is any character and `[]` none;
//! - `$` is the end of the input only (as `regex`'s `$` without the `m` flag).
//!
//! Every character is written as an escape unless it is an ASCII letter or digit, so no
//! character means anything in `regex` that it did not mean in the pattern.

use std::fmt::Write;

use super::ecma::{Ast, ClassItem, Perl};

/// The pattern in `regex` syntax; `None` when it needs lookaround or back-references.
pub(crate) fn to_regex(ast: &Ast) -> Option<String> {
    let mut out = String::new();
    write(ast, &mut out)?;
    Some(out)
}

/// ECMA's `\s`: white space and line terminators.
const SPACE: &str =
    r"\t\n\x0B\x0C\r\x20\xA0\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}";
const DIGIT: &str = "0-9";
const WORD: &str = "0-9A-Za-z_";

fn write(ast: &Ast, out: &mut String) -> Option<()> {
    match ast {
        Ast::Empty => out.push_str("(?:)"),
        Ast::Char(c) => push_char(*c, out),
        Ast::Any => out.push_str(r"[^\n\r\x{2028}\x{2029}]"),
        Ast::Class { negated, items } => class(*negated, items, out),
        Ast::Start => out.push('^'),
        Ast::End => out.push('$'),
        Ast::WordBoundary(true) => out.push_str(r"(?-u:\b)"),
        Ast::WordBoundary(false) => out.push_str(r"(?-u:\B)"),
        Ast::Group(inner) => {
            out.push_str("(?:");
            write(inner, out)?;
            out.push(')');
        }
        Ast::Look(_) | Ast::BackReference => return None,
        Ast::Concat(items) => {
            for item in items {
                write(item, out)?;
            }
        }
        Ast::Alternation(branches) => {
            out.push_str("(?:");
            for (i, branch) in branches.iter().enumerate() {
                if i > 0 {
                    out.push('|');
                }
                write(branch, out)?;
            }
            out.push(')');
        }
        Ast::Repeat { inner, min, max } => {
            out.push_str("(?:");
            write(inner, out)?;
            out.push(')');
            let _ = match max {
                Some(max) => write!(out, "{{{min},{max}}}"),
                None => write!(out, "{{{min},}}"),
            };
        }
    }
    Some(())
}

fn push_char(c: char, out: &mut String) {
    if c.is_ascii_alphanumeric() {
        out.push(c);
    } else {
        let _ = write!(out, r"\x{{{:X}}}", u32::from(c));
    }
}

fn class(negated: bool, items: &[ClassItem], out: &mut String) {
    if items.is_empty() {
        // `[]` matches nothing, `[^]` any character (line terminators too).
        out.push_str(if negated { r"[\x{0}-\x{10FFFF}]" } else { r"[^\x{0}-\x{10FFFF}]" });
        return;
    }
    out.push('[');
    if negated {
        out.push('^');
    }
    for item in items {
        match item {
            ClassItem::Char(c) => push_char(*c, out),
            ClassItem::Range(lo, hi) => {
                push_char(*lo, out);
                out.push('-');
                push_char(*hi, out);
            }
            ClassItem::Perl(perl) => {
                let (set, negated) = match *perl {
                    Perl::Digit(negated) => (DIGIT, negated),
                    Perl::Word(negated) => (WORD, negated),
                    Perl::Space(negated) => (SPACE, negated),
                };
                // A nested class: its members join the outer class's.
                out.push_str(if negated { "[^" } else { "[" });
                out.push_str(set);
                out.push(']');
            }
            ClassItem::Property { negated, name } => {
                let _ = write!(out, r"\{}{{{name}}}", if *negated { 'P' } else { 'p' });
            }
        }
    }
    out.push(']');
}
