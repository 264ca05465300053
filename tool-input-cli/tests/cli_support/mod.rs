//! Running the `tool-input` program in the CLI tests.
#![allow(dead_code)]

use std::collections::BTreeSet;
use std::io::Write;
use std::process::{Child, Command, Output, Stdio};

use serde_json::Value;

/// Start the program with `args`, its standard streams piped.
pub fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_tool-input"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs")
}

/// Run the program with `args`, `stdin` on its standard input.
pub fn run(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = spawn(args);
    // The program may exit before reading (usage errors): a broken pipe is fine.
    let _ = child.stdin.take().expect("stdin").write_all(stdin);
    child.wait_with_output().expect("the binary finishes")
}

/// Standard output as one JSON value.
pub fn stdout_json(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!("stdout is not one JSON value ({e}): {}", String::from_utf8_lossy(&output.stdout))
    })
}

/// The keys of a JSON object.
pub fn keys(value: &Value) -> BTreeSet<&str> {
    value.as_object().expect("an object").keys().map(String::as_str).collect()
}
