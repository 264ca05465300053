//! Writes the benchmark workloads: `cargo run -p tool-input-suite --bin workloads -- [DIR]`
//! (default `target/bench-data`). The tests and benchmarks write them there on first use too;
//! suite/tests/common/workloads.rs documents the files and the rules their expected values follow.

#[path = "../../tests/common/workloads.rs"]
mod workloads;

use std::path::PathBuf;

fn main() {
    let out = std::env::args_os().nth(1).map_or_else(|| PathBuf::from("target/bench-data"), PathBuf::from);
    if let Err(error) = workloads::generate(&out, &workloads::Params::default()) {
        eprintln!("cannot write the workloads into {}: {error}", out.display());
        std::process::exit(1);
    }
    println!("workloads written into {}", out.display());
}
