//! How the lexer talks to the repair builder: its [`Sink`].

use super::{Builder, Expect, Frame, Pending};
use crate::parse::lexer::{Ctx, Failure, Sink, Token};
use crate::parse::RepairKind;

impl Sink for Builder {
    fn context(&self) -> Ctx {
        match (self.expect, self.stack.last()) {
            (Expect::FirstKey | Expect::Key { .. }, _) | (Expect::Comma, Some(Frame::Object { .. })) => {
                Ctx::Key
            }
            (Expect::Value | Expect::Colon, Some(Frame::Object { .. })) => Ctx::ObjectValue,
            (_, Some(Frame::Array(_) | Frame::Paren { .. })) => Ctx::Array,
            _ => Ctx::Top,
        }
    }

    #[inline(always)]
    fn token(&mut self, token: Token, offset: usize) -> Result<(), Failure> {
        if self.repair {
            let result = self.repair_token(token, offset);
            self.repairs_before_token = self.repairs.len();
            return result;
        }
        match self.expect {
            Expect::Value | Expect::FirstItem | Expect::Item { .. } => self.value_token(token, offset),
            Expect::FirstKey | Expect::Key { .. } => self.key_token(token, offset),
            Expect::Comma => self.comma_token(token, offset),
            Expect::Colon if matches!(token, Token::Colon) => {
                self.expect = Expect::Value;
                Ok(())
            }
            _ => self.dispatch(token, offset),
        }
    }

    #[inline]
    fn expects_key(&self) -> bool {
        match self.expect {
            Expect::FirstKey | Expect::Key { .. } => true,
            // After a member, a missing comma means a key comes next.
            Expect::Comma => self.repair && matches!(self.stack.last(), Some(Frame::Object { .. })),
            _ => false,
        }
    }

    #[inline]
    fn is_complete(&self) -> bool {
        matches!(self.expect, Expect::Done) && matches!(self.pending, Pending::None)
    }

    fn repair(&mut self, kind: RepairKind, offset: usize) {
        // Completing several cut-off things at the end is one repair.
        if kind == RepairKind::CompletedTruncated && self.repairs.iter().any(|r| r.kind == kind) {
            return;
        }
        Builder::record(self, kind, offset);
    }

    fn retract(&mut self, kind: RepairKind) {
        self.repairs.retain(|r| r.kind != kind);
    }

    fn inexact_number(&mut self, literal: &[u8]) {
        if self.track_inexact {
            self.inexact_next = Some(String::from_utf8_lossy(literal).into_owned());
        }
    }

    fn in_paren(&self) -> bool {
        matches!(self.stack.last(), Some(Frame::Paren { set: false, .. }))
    }

    fn in_container(&self) -> bool {
        !self.stack.is_empty()
    }

    fn line_break(&mut self) {
        if self.stack.is_empty() {
            self.line_break = true;
        }
    }

    fn bare_key(&mut self) {
        self.bare_key = true;
    }

    fn discard(&mut self) {
        self.stack.clear();
        self.result = None;
        self.results.clear();
        self.pending = Pending::None;
        self.expect = Expect::Value;
        // Keep what was repaired around the discarded values (a fence, comments), not in
        // them.
        self.repairs.retain(|r| {
            !matches!(
                r.kind,
                RepairKind::Tuple
                    | RepairKind::NumberSyntax
                    | RepairKind::UnquotedString
                    | RepairKind::FunctionCall
            )
        });
    }

    fn undo_open(&mut self) -> bool {
        let empty = match self.stack.as_slice() {
            [Frame::Array(items)] => items.is_empty(),
            [Frame::Object { map, key: None, .. }] => map.is_empty(),
            _ => false,
        };
        if empty && self.result.is_none() {
            self.stack.clear();
            self.expect = Expect::Value;
        }
        empty
    }
}
