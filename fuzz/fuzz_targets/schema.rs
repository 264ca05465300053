#![no_main]
//! The checker over any schema and arguments (a schema's text, a NUL byte, the arguments).
//! See `checks::schema`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| tool_input_fuzz::checks::schema(data));
