#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| protean_fuzz_checks::fen(data));
