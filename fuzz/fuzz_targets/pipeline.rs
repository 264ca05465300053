#![no_main]
//! The whole pipeline into a derived type with nested structs, enums, options and
//! constraints. See `checks::pipeline`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| tool_input_fuzz::checks::pipeline(data));
