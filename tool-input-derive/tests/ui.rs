//! Compile-time behaviour of `#[derive(ToolInput)]`: each file in `ui/fail` is one mistake and
//! the errors it must produce (its `.stderr`); each file in `ui/pass` must build and run.
//! Regenerate the `.stderr` files with `TRYBUILD=overwrite cargo test -p tool-input-derive --test ui`, then read them.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/fail/*.rs");
    t.pass("tests/ui/pass/*.rs");
}
