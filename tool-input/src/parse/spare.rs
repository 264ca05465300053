//! Buffers a parse leaves to the next parse on the same thread: emptied, their capacity
//! kept. Built from nothing, a short call's parse asks the allocator for each of its
//! buffers (the lexer's, the grammar's stack of open containers, the output's stacks and
//! tape) and again as each grows: a few allocations a call, which cost more than a part of
//! the parse itself.
//!
//! Each kind of buffer has a thread-local cell, taken whole when the part of a parse that
//! owns the buffer is built ([`take`]) and given back when that part is dropped
//! ([`give_back`]). Nothing is borrowed across a parse: a parse nested in another (the
//! payload of a double-encoded string, the item of a Python set) finds the cell empty and
//! starts from nothing, as does every parse during the thread's exit. A buffer that grew
//! past its cap is not kept, so one large call does not pin its memory to the thread.

use std::cell::Cell;
use std::thread::LocalKey;

/// The most bytes a spare buffer keeps room for, unless its owner says otherwise: a short
/// call's buffers stay far below it.
pub(crate) const MOST_KEPT: usize = 16 * 1024;

/// A buffer that can be kept spare.
pub(crate) trait Buffer: Default {
    /// The bytes its capacity holds.
    fn room(&self) -> usize;
    /// Empties it, keeping its capacity.
    fn clear(&mut self);
}

impl<T> Buffer for Vec<T> {
    fn room(&self) -> usize {
        self.capacity().saturating_mul(size_of::<T>())
    }

    fn clear(&mut self) {
        Vec::clear(self);
    }
}

impl Buffer for String {
    fn room(&self) -> usize {
        self.capacity()
    }

    fn clear(&mut self) {
        String::clear(self);
    }
}

/// The thread's spare buffer in `spare`, taken: an empty one when it has none.
#[inline]
pub(crate) fn take<B: Buffer + 'static>(spare: &'static LocalKey<Cell<B>>) -> B {
    spare.try_with(Cell::take).unwrap_or_default()
}

/// Gives `buffer` back to `spare`, emptied, when it has room for at most `most` bytes (and
/// any at all: an empty one would only drop what a nested parse gave back).
#[inline]
pub(crate) fn give_back<B: Buffer + 'static>(spare: &'static LocalKey<Cell<B>>, mut buffer: B, most: usize) {
    let room = buffer.room();
    if room > 0 && room <= most {
        buffer.clear();
        // During the thread's exit there is nothing to keep it for.
        let _ = spare.try_with(|cell| cell.set(buffer));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    thread_local! {
        static SPARE: Cell<Vec<u64>> = const { Cell::new(Vec::new()) };
    }

    #[test]
    fn a_buffer_given_back_is_taken_again_empty_with_its_room() {
        let mut buffer = take(&SPARE);
        buffer.extend([1, 2, 3]);
        let room = buffer.capacity();
        give_back(&SPARE, buffer, MOST_KEPT);
        let again = take(&SPARE);
        assert!(again.is_empty());
        assert_eq!(again.capacity(), room);
        // Taken, the cell is empty: a nested taker starts from nothing.
        assert_eq!(take(&SPARE).capacity(), 0);
    }

    #[test]
    fn a_buffer_past_its_cap_is_not_kept() {
        let buffer: Vec<u64> = Vec::with_capacity(MOST_KEPT / 8 + 1);
        give_back(&SPARE, buffer, MOST_KEPT);
        assert_eq!(take(&SPARE).capacity(), 0);
    }
}
