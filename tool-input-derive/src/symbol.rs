//! The names `#[tool_input(...)]` understands, as constants, so a typo is a compile error in
//! this crate rather than an attribute that silently never matches.

use std::fmt::{self, Display};

use syn::{Ident, Path};

#[derive(Copy, Clone, PartialEq, Eq)]
pub struct Symbol(&'static str);

/// The attribute itself: `#[tool_input(...)]`.
pub const TOOL_INPUT: Symbol = Symbol("tool_input");
/// Doc comments arrive as `#[doc = "..."]`.
pub const DOC: Symbol = Symbol("doc");

// Container attributes.
pub const NAME: Symbol = Symbol("name");
pub const DESCRIPTION: Symbol = Symbol("description");
pub const CRATE: Symbol = Symbol("crate");
pub const VALIDATE: Symbol = Symbol("validate");
pub const FORMATS: Symbol = Symbol("formats");
pub const PARTIAL: Symbol = Symbol("partial");
/// Inside `partial(...)`.
pub const RENAME: Symbol = Symbol("rename");

// Field attributes.
pub const STRICT: Symbol = Symbol("strict");
pub const LENIENT: Symbol = Symbol("lenient");
pub const SENSITIVE: Symbol = Symbol("sensitive");
pub const STREAM_DONE: Symbol = Symbol("stream_done");
pub const STREAM_NOT_NULL: Symbol = Symbol("stream_not_null");
pub const STREAM_WHOLE: Symbol = Symbol("stream_whole");

// Both.
pub const POLICY: Symbol = Symbol("policy");

impl PartialEq<Symbol> for Ident {
    fn eq(&self, word: &Symbol) -> bool {
        self == word.0
    }
}

impl PartialEq<Symbol> for Path {
    fn eq(&self, word: &Symbol) -> bool {
        self.is_ident(word.0)
    }
}

impl PartialEq<Symbol> for &Path {
    fn eq(&self, word: &Symbol) -> bool {
        self.is_ident(word.0)
    }
}

impl Display for Symbol {
    fn fmt(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str(self.0)
    }
}
