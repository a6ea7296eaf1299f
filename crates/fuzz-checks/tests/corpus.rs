//! Every fuzz target over its checked-in seed corpus, on the stable
//! toolchain: `fuzz/corpus/<target>/` holds hand-written seeds and the
//! minimised findings worth keeping, so `cargo test` replays them all.

use std::path::PathBuf;

/// Each corpus must hold at least this many files, so that a test cannot
/// pass because its directory went missing or empty.
const MIN_FILES: usize = 5;

fn run(target: &str, check: fn(&[u8])) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus").join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("corpus {}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    assert!(files.len() >= MIN_FILES, "corpus {} has {} files, fewer than {MIN_FILES}", dir.display(), files.len());
    let mut failures = Vec::new();
    for file in &files {
        let data = std::fs::read(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        if let Err(panic) = std::panic::catch_unwind(|| check(&data)) {
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            failures.push(format!("{}: {message}", file.display()));
        }
    }
    assert!(
        failures.is_empty(),
        "{target}: {} of {} corpus files fail:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}

#[test]
fn fen() {
    run("fen", protean_fuzz_checks::fen);
}

#[test]
fn betza() {
    run("betza", protean_fuzz_checks::betza);
}

#[test]
fn rules_field() {
    run("rules_field", protean_fuzz_checks::rules_field);
}

#[test]
fn moves() {
    run("moves", protean_fuzz_checks::moves);
}

#[test]
fn uci_lines() {
    run("uci_lines", protean_fuzz_checks::uci_lines);
}

#[test]
fn xboard_lines() {
    run("xboard_lines", protean_fuzz_checks::xboard_lines);
}

#[test]
fn variant_file() {
    run("variant_file", protean_fuzz_checks::variant_file);
}
