//! The README's main example runs (offline) and ends as it says: the recorded call accepted,
//! the wrong choices rejected. It panics otherwise.

#[path = "../../examples/create_order.rs"]
#[allow(dead_code)]
mod create_order;

#[test]
fn the_main_example_runs() {
    create_order::main();
}
