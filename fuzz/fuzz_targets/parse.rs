#![no_main]
//! The lenient parser on any bytes. See `checks::parse`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| tool_input_fuzz::checks::parse(data));
