#![no_main]
//! See `checks::stream`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| tool_input_fuzz::checks::stream(data));
