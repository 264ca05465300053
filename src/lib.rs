//! The README's examples (`examples/`), in a package of their own with no dev-dependencies:
//! `cargo run --example create_order`. The integration tests and benchmarks are in `suite/`.
