//! Allocations kept on this thread for the next parse: the strings of a dropped tape, for the
//! lexer to write the next strings and keys into. A short call is mostly short strings and
//! keys, each its own allocation, freed together when its tape is dropped; the allocator
//! keeps only a few blocks of a size at hand, so asking it again for each one costs as much
//! as a large part of the parse. Only small strings are kept, and only so many: what is kept
//! stays bounded whatever the calls.

use std::cell::RefCell;

/// The most strings kept.
const KEPT: usize = 128;

/// The largest string (in bytes of room) worth keeping.
const KEPT_BYTES: usize = 256;

thread_local! {
    static STRINGS: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

/// `text` as an owned string, written into a kept one when there is one with room for it.
#[inline]
pub(crate) fn string_of(text: &str) -> String {
    let kept = STRINGS
        .try_with(|kept| {
            let mut kept = kept.try_borrow_mut().ok()?;
            match kept.last() {
                Some(string) if string.capacity() >= text.len() => kept.pop(),
                _ => None,
            }
        })
        .ok()
        .flatten();
    match kept {
        Some(mut string) => {
            string.push_str(text);
            string
        }
        None => text.to_owned(),
    }
}

/// Keep the small ones of `strings` (emptied) for [`string_of`], up to the bound.
pub(crate) fn keep(strings: impl Iterator<Item = String>) {
    // During the thread's exit there is nothing to keep them for.
    let _ = STRINGS.try_with(|kept| {
        let Ok(mut kept) = kept.try_borrow_mut() else { return };
        for mut string in strings {
            if kept.len() >= KEPT {
                break;
            }
            if (1..=KEPT_BYTES).contains(&string.capacity()) {
                string.clear();
                kept.push(string);
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_string_is_written_over_and_the_bound_holds() {
        keep(["abc".to_owned(), "x".repeat(KEPT_BYTES + 1), String::new()].into_iter());
        assert_eq!(string_of("hi"), "hi");
        assert_eq!(string_of(&"y".repeat(300)), "y".repeat(300));
        keep((0..KEPT * 2).map(|_| String::with_capacity(8)));
        assert!(STRINGS.with(|kept| kept.borrow().len()) <= KEPT);
        assert!(STRINGS.with(|kept| kept.borrow().iter().all(|s| s.is_empty() && s.capacity() <= KEPT_BYTES)));
        assert_eq!(string_of("longer than eight bytes"), "longer than eight bytes");
    }
}
