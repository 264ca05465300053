//! A reader of ECMA-262 regular expression syntax, into a small tree: what the translation
//! to the `regex` crate's syntax and the cost bound of a backtracking match both work from.
//!
//! It reads what `regress` compiled (so the syntax is already known to be valid) and gives
//! up (`None`) on anything it does not know; such a pattern stays with `regress`.

/// One node of a pattern.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Ast {
    /// Matches the empty string.
    Empty,
    Char(char),
    /// `.`: any character but a line terminator.
    Any,
    Class {
        negated: bool,
        items: Vec<ClassItem>,
    },
    /// `^` (start of the input: JSON Schema patterns have no `m` flag).
    Start,
    /// `$` (end of the input only).
    End,
    /// `\b` (`true`) or `\B`, on ASCII word characters.
    WordBoundary(bool),
    /// A group, capturing or not: the same for a test of whether the pattern matches.
    Group(Box<Ast>),
    /// `(?=…)`, `(?!…)`, `(?<=…)`, `(?<!…)`: only `regress` has these.
    Look(Box<Ast>),
    /// `\1`, `\k<name>`: only `regress` has these.
    BackReference,
    Concat(Vec<Ast>),
    Alternation(Vec<Ast>),
    Repeat {
        inner: Box<Ast>,
        min: u32,
        /// `None`: no upper bound.
        max: Option<u32>,
    },
}

/// A member of a class `[…]`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum ClassItem {
    Char(char),
    Range(char, char),
    Perl(Perl),
    /// `\p{…}` (`negated`: `\P{…}`), with the name as written.
    Property {
        negated: bool,
        name: String,
    },
}

/// `\d`, `\w`, `\s` and their negations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Perl {
    Digit(bool),
    Word(bool),
    Space(bool),
}

impl Ast {
    /// Does the pattern need a backtracking engine (lookaround, back-references)?
    #[cfg(test)]
    pub fn needs_backtracking(&self) -> bool {
        match self {
            Ast::Look(_) | Ast::BackReference => true,
            Ast::Group(inner) | Ast::Repeat { inner, .. } => inner.needs_backtracking(),
            Ast::Concat(items) | Ast::Alternation(items) => items.iter().any(Ast::needs_backtracking),
            _ => false,
        }
    }
}

/// Most nested groups read; deeper is left to `regress` (no recursion without end).
const MAX_NESTING: usize = 64;

/// Read `source`. `unicode`: the pattern compiled with the `u` flag; without it, the
/// legacy syntax of Annex B is read too (a lone `{` or `]`, any escaped character).
pub(crate) fn parse(source: &str, unicode: bool) -> Option<Ast> {
    let mut reader = Reader { chars: source.chars().collect(), at: 0, unicode, depth: 0 };
    let ast = reader.alternation()?;
    (reader.at == reader.chars.len()).then_some(ast)
}

struct Reader {
    chars: Vec<char>,
    at: usize,
    unicode: bool,
    depth: usize,
}

impl Reader {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn peek_at(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.at + ahead).copied()
    }

    fn next(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.at += 1;
        Some(c)
    }

    fn eat(&mut self, c: char) -> bool {
        let found = self.peek() == Some(c);
        if found {
            self.at += 1;
        }
        found
    }

    fn eat_str(&mut self, s: &str) -> bool {
        let n = s.chars().count();
        let found = self.chars.get(self.at..self.at + n).is_some_and(|w| w.iter().copied().eq(s.chars()));
        if found {
            self.at += n;
        }
        found
    }

    fn alternation(&mut self) -> Option<Ast> {
        let mut branches = vec![self.concat()?];
        while self.eat('|') {
            branches.push(self.concat()?);
        }
        Some(if branches.len() == 1 { branches.pop()? } else { Ast::Alternation(branches) })
    }

    fn concat(&mut self) -> Option<Ast> {
        let mut items = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            let atom = self.atom()?;
            let atom = self.quantified(atom)?;
            items.push(atom);
        }
        Some(match items.len() {
            0 => Ast::Empty,
            1 => items.pop()?,
            _ => Ast::Concat(items),
        })
    }

    fn quantified(&mut self, atom: Ast) -> Option<Ast> {
        let (min, max) = match self.peek() {
            Some('*') => self.single(0, None),
            Some('+') => self.single(1, None),
            Some('?') => self.single(0, Some(1)),
            Some('{') => match self.braces() {
                Some(bounds) => bounds,
                None if self.unicode => return None,
                None => return Some(atom), // Annex B: a `{` that is no quantifier is itself
            },
            _ => return Some(atom),
        };
        self.eat('?'); // lazy: the same for a test of whether the pattern matches
        if matches!(atom, Ast::Start | Ast::End | Ast::WordBoundary(_)) && self.unicode {
            return None;
        }
        Some(Ast::Repeat { inner: Box::new(atom), min, max })
    }

    /// A one-character quantifier: consumed, its bounds.
    fn single(&mut self, min: u32, max: Option<u32>) -> (u32, Option<u32>) {
        self.at += 1;
        (min, max)
    }

    /// `{n}`, `{n,}`, `{n,m}` at the reader (consumed when it is one).
    fn braces(&mut self) -> Option<(u32, Option<u32>)> {
        let start = self.at;
        let parsed = (|| {
            self.next()?; // `{`
            let min = self.number()?;
            let max = if self.eat(',') {
                if self.peek() == Some('}') {
                    None
                } else {
                    Some(self.number()?)
                }
            } else {
                Some(min)
            };
            self.eat('}').then_some((min, max))
        })();
        if parsed.is_none() {
            self.at = start;
        }
        parsed
    }

    fn number(&mut self) -> Option<u32> {
        let mut value: Option<u32> = None;
        while let Some(d) = self.peek().and_then(|c| c.to_digit(10)) {
            self.at += 1;
            // A count beyond `u32` is as good as no bound for any string we check.
            value = Some(value.unwrap_or(0).saturating_mul(10).saturating_add(d));
        }
        value
    }

    fn atom(&mut self) -> Option<Ast> {
        let c = self.next()?;
        Some(match c {
            '^' => Ast::Start,
            '$' => Ast::End,
            '.' => Ast::Any,
            '(' => self.group()?,
            '[' => self.class()?,
            '\\' => self.escape()?,
            '*' | '+' | '?' => return None,
            '{' if self.unicode => return None,
            '}' | ']' if self.unicode => return None,
            c => Ast::Char(c),
        })
    }

    fn group(&mut self) -> Option<Ast> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return None;
        }
        let look = self.eat_str("?=") || self.eat_str("?!") || self.eat_str("?<=") || self.eat_str("?<!");
        if !look && self.eat_str("?<") {
            // A named group: its name, then its content.
            while self.next()? != '>' {}
        } else if !look && self.peek() == Some('?') && !self.eat_str("?:") {
            return None; // modifiers and anything newer
        }
        let inner = self.alternation()?;
        if !self.eat(')') {
            return None;
        }
        self.depth -= 1;
        Some(if look { Ast::Look(Box::new(inner)) } else { Ast::Group(Box::new(inner)) })
    }

    fn class(&mut self) -> Option<Ast> {
        let negated = self.eat('^');
        let mut items = Vec::new();
        loop {
            let low = match self.next()? {
                ']' => return Some(Ast::Class { negated, items }),
                '\\' => self.class_escape()?,
                c => ClassItem::Char(c),
            };
            // `a-z`: a range; a `-` first, last or next to a class escape is itself.
            if self.peek() == Some('-') && self.peek_at(1).is_some_and(|c| c != ']') {
                if let ClassItem::Char(lo) = low {
                    self.at += 1;
                    let high = match self.next()? {
                        '\\' => self.class_escape()?,
                        c => ClassItem::Char(c),
                    };
                    match high {
                        ClassItem::Char(hi) if lo <= hi => items.push(ClassItem::Range(lo, hi)),
                        ClassItem::Char(_) => return None,
                        other if !self.unicode => {
                            items.extend([low, ClassItem::Char('-'), other]);
                        }
                        _ => return None,
                    }
                    continue;
                }
            }
            items.push(low);
        }
    }

    /// After `\` inside a class.
    fn class_escape(&mut self) -> Option<ClassItem> {
        let c = self.peek()?;
        match c {
            'b' => {
                self.at += 1;
                Some(ClassItem::Char('\u{8}'))
            }
            '-' => {
                self.at += 1;
                Some(ClassItem::Char('-'))
            }
            _ => match self.escape()? {
                Ast::Char(c) => Some(ClassItem::Char(c)),
                Ast::Class { negated: false, mut items } if items.len() == 1 => items.pop(),
                _ => None,
            },
        }
    }

    /// After `\`, outside a class (also used inside one, for the common escapes).
    fn escape(&mut self) -> Option<Ast> {
        let c = self.next()?;
        let perl = |perl| Some(Ast::Class { negated: false, items: vec![ClassItem::Perl(perl)] });
        match c {
            'd' => perl(Perl::Digit(false)),
            'D' => perl(Perl::Digit(true)),
            'w' => perl(Perl::Word(false)),
            'W' => perl(Perl::Word(true)),
            's' => perl(Perl::Space(false)),
            'S' => perl(Perl::Space(true)),
            'b' => Some(Ast::WordBoundary(true)),
            'B' => Some(Ast::WordBoundary(false)),
            't' => Some(Ast::Char('\t')),
            'n' => Some(Ast::Char('\n')),
            'v' => Some(Ast::Char('\u{b}')),
            'f' => Some(Ast::Char('\u{c}')),
            'r' => Some(Ast::Char('\r')),
            '0' if !self.peek().is_some_and(|c| c.is_ascii_digit()) => Some(Ast::Char('\0')),
            '1'..='9' => {
                while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                    self.at += 1;
                }
                Some(Ast::BackReference)
            }
            'k' if self.eat('<') => {
                while self.next()? != '>' {}
                Some(Ast::BackReference)
            }
            'c' => {
                let letter = self.next().filter(char::is_ascii_alphabetic)?;
                Some(Ast::Char(char::from(letter as u8 % 32)))
            }
            'x' => {
                let value = self.hex(2)?;
                Some(Ast::Char(char::from_u32(value)?))
            }
            'u' => self.unicode_escape().map(Ast::Char),
            'p' | 'P' if self.unicode => {
                if !self.eat('{') {
                    return None;
                }
                let mut name = String::new();
                loop {
                    match self.next()? {
                        '}' => break,
                        c if c.is_ascii_alphanumeric() || c == '_' || c == '=' => name.push(c),
                        _ => return None,
                    }
                }
                let property = ClassItem::Property { negated: c == 'P', name };
                Some(Ast::Class { negated: false, items: vec![property] })
            }
            c if "^$\\.*+?()[]{}|/".contains(c) => Some(Ast::Char(c)),
            c if !self.unicode && !c.is_ascii_alphanumeric() => Some(Ast::Char(c)),
            _ => None,
        }
    }

    /// After `\u`: `XXXX` (a surrogate pair of two such escapes is one character) or
    /// `{X…}`. A lone surrogate is no `char`: `None`.
    fn unicode_escape(&mut self) -> Option<char> {
        if self.unicode && self.eat('{') {
            let mut value = 0u32;
            loop {
                match self.next()? {
                    '}' => return char::from_u32(value),
                    c => value = value.checked_mul(16)?.checked_add(c.to_digit(16)?)?,
                }
            }
        }
        let high = self.hex(4)?;
        if (0xD800..0xDC00).contains(&high) && self.unicode && self.eat_str("\\u") {
            let low = self.hex(4)?;
            if (0xDC00..0xE000).contains(&low) {
                return char::from_u32(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00));
            }
            return None;
        }
        char::from_u32(high)
    }

    fn hex(&mut self, digits: usize) -> Option<u32> {
        let mut value = 0;
        for _ in 0..digits {
            value = value * 16 + self.next()?.to_digit(16)?;
        }
        Some(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_syntax_it_knows() {
        assert_eq!(parse("a", true), Some(Ast::Char('a')));
        assert!(matches!(parse(r"^(\w+\s?)*$", true), Some(Ast::Concat(_))));
        assert!(parse(r"(?=a)b", true).unwrap().needs_backtracking());
        assert!(parse(r"(a)\1", true).unwrap().needs_backtracking());
        assert!(parse(r"(?<x>a)\k<x>", true).unwrap().needs_backtracking());
        assert!(!parse(r"(?<x>a)[\d\-x-z]{2,}?", true).unwrap().needs_backtracking());
        assert_eq!(parse(r"\uD83D\uDE00", true), Some(Ast::Char('😀')));
        assert_eq!(parse(r"\u{1F600}", true), Some(Ast::Char('😀')));
        assert_eq!(parse(r"\uD800", true), None);
        assert_eq!(parse(r"(?i:a)", true), None);
        assert_eq!(parse("a{", true), None);
        assert_eq!(parse("a{", false), Some(Ast::Concat(vec![Ast::Char('a'), Ast::Char('{')])));
    }
}
