#![no_main]
//! See `checks::text_calls`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| tool_input_fuzz::checks::text_calls(data));
