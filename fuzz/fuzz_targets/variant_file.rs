#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| protean_fuzz_checks::variant_file(data));
