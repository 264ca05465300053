//! The error collector every phase reports into, so one expansion shows every mistake at once.

use std::cell::RefCell;
use std::fmt::Display;
use std::thread;

use quote::ToTokens;

/// Collects errors; [`Ctxt::check`] combines them into one `syn::Error`.
///
/// Dropping a `Ctxt` that was never checked panics: forgetting to check would silently
/// swallow the user's errors and generate code from input that was never validated.
pub struct Ctxt {
    // `None` once checked, which is how `Drop` knows.
    errors: RefCell<Option<Vec<syn::Error>>>,
}

impl Ctxt {
    pub fn new() -> Self {
        Ctxt { errors: RefCell::new(Some(Vec::new())) }
    }

    /// Report `msg`, spanned on the tokens of `obj`.
    pub fn error_spanned_by<A: ToTokens, T: Display>(&self, obj: A, msg: T) {
        // Through a token stream, so there is one instantiation of the push per message type
        // rather than one per syntax node type.
        self.syn_error(syn::Error::new_spanned(obj.into_token_stream(), msg));
    }

    /// Report an error syn (or serde's attribute parser) produced.
    pub fn syn_error(&self, error: syn::Error) {
        self.errors.borrow_mut().as_mut().expect("Ctxt used after check").push(error);
    }

    /// Consume the collector: every reported error, combined, if there was any.
    pub fn check(self) -> syn::Result<()> {
        let mut errors = self.errors.borrow_mut().take().expect("Ctxt checked twice").into_iter();
        let Some(mut combined) = errors.next() else {
            return Ok(());
        };
        for rest in errors {
            combined.combine(rest);
        }
        Err(combined)
    }
}

impl Drop for Ctxt {
    fn drop(&mut self) {
        // Not while unwinding: a second panic would abort and hide the first one.
        if !thread::panicking() && self.errors.borrow().is_some() {
            panic!("forgot to check for errors");
        }
    }
}
