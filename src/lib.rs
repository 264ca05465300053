//! The README's examples (`examples/`), in a package of their own with no dev-dependencies:
//! `cargo run --example create_order`. The integration tests and benchmarks are in `suite/`.

/// The README's Rust snippets, compiled and run as this package's doctests, as a user's code
/// would be: `cargo test --workspace --all-features` (they use every integration, so they
/// are collected only when every feature of this package is on).
#[cfg(all(doctest, feature = "rmcp", feature = "rig", feature = "async-openai", feature = "field-types"))]
#[doc = include_str!("../README.md")]
pub struct ReadmeSnippets;
