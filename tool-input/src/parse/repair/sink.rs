//! How the lexer talks to repair mode's reading: its [`Sink`].

use super::{Pending, RepairLayer};
use crate::parse::grammar::{Expect, Kind, Out};
use crate::parse::lexer::{Ctx, Failure, Sink, Token};
use crate::parse::RepairKind;

impl Sink for RepairLayer {
    fn context(&self) -> Ctx {
        self.grammar.context()
    }

    #[inline]
    fn token(&mut self, token: Token, offset: usize) -> Result<(), Failure> {
        let result = self.repair_token(token, offset);
        self.repairs_before_token = self.grammar.repairs().len();
        result
    }

    #[inline]
    fn expects_key(&self) -> bool {
        // After a member, a missing comma means a key comes next.
        self.grammar.expects_key()
            || (self.grammar.expect() == Expect::Comma && self.grammar.kind(0) == Some(Kind::Object))
    }

    #[inline]
    fn is_complete(&self) -> bool {
        self.grammar.expect() == Expect::Done
            && self.top_comma.is_none()
            && matches!(self.pending, Pending::None)
    }

    fn repair(&mut self, kind: RepairKind, offset: usize) {
        self.record(kind, offset);
    }

    fn retract(&mut self, kind: RepairKind) {
        self.grammar.retract(kind);
    }

    fn float_literal(&mut self, literal: &[u8]) {
        self.out.float_literal(literal);
    }

    fn in_paren(&self) -> bool {
        self.grammar.in_paren()
    }

    fn in_container(&self) -> bool {
        self.grammar.in_container()
    }

    fn line_break(&mut self) {
        if self.grammar.depth() == 0 {
            self.line_break = true;
        }
    }

    fn bare_key(&mut self) {
        self.bare_key = true;
    }

    fn discard(&mut self) {
        self.grammar.discard(&mut self.out);
        self.result = None;
        self.results.clear();
        self.top_comma = None;
        self.pending = Pending::None;
    }

    fn undo_open(&mut self) -> bool {
        let empty = self.grammar.depth() == 1
            && match self.grammar.kind(0) {
                Some(Kind::Array) => self.out.innermost_is_empty(),
                Some(Kind::Object) => self.grammar.awaited_key().is_none() && self.out.innermost_is_empty(),
                _ => false,
            };
        if empty && self.result.is_none() {
            self.grammar.reset();
            self.out.reset();
        }
        empty
    }
}
