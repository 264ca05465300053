//! The properties each fuzz target checks, shared with the regression test
//! (`suite/tests/fuzz_regressions.rs` in the workspace), which runs every saved finding in
//! `fuzz/regressions/<target>/` through the same function.

#[path = "checks.rs"]
pub mod checks;
