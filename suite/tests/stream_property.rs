//! The fuzz `stream` target's property on generated streams (`fuzz/src/checks.rs`,
//! `stream_events`), run as a proptest so `cargo test` checks it without cargo-fuzz: every
//! call sent is returned whole or reported, never merged, never returned from a cut
//! response, whatever the damage, reordering, duplication and id reuse; and the `text_calls`
//! target's calls that give a key twice.

// Only the stream property of the shared checks is used here.
#[allow(dead_code)]
#[path = "../../fuzz/src/checks.rs"]
mod checks;

use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn every_call_sent_is_returned_whole_or_reported(data in proptest::collection::vec(any::<u8>(), 0..96)) {
        checks::stream_events(&data);
    }

    /// The fuzz `text_calls` target's repeated keys, as a proptest.
    #[test]
    fn a_key_given_twice_is_never_settled_in_silence(data in proptest::collection::vec(any::<u8>(), 0..16)) {
        checks::repeated_keywords(&data);
    }
}
