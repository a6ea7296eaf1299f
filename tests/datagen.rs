//! `protean datagen` end to end: short runs in every variant whose output
//! is read back under the rules (every line a position of the variant with
//! the side to move not in check, a result of 1.0, 0.5 or 0.0), the same
//! file for the same seed, and clear errors for bad arguments.

use protean_rules::{variants, AnyRules};
use std::path::PathBuf;
use std::process::{Command, Output};

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("protean-datagen-{}-{name}", std::process::id()))
}

fn datagen(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_protean")).arg("datagen").args(args).output().unwrap()
}

/// Runs datagen and returns the lines it wrote, checked under the rules.
fn generate(variant: &str, out: &PathBuf, extra: &[&str]) -> Vec<String> {
    let path = out.to_str().unwrap();
    let run = datagen(
        &[&["--variant", variant, "--games", "2", "--nodes", "400", "--max-plies", "60", "--out", path], extra]
            .concat(),
    );
    let said = String::from_utf8_lossy(&run.stderr).to_string();
    assert!(run.status.success(), "{variant}: {said}");
    assert!(said.contains("2 games"), "{variant}: no summary in {said}");
    // How the games ended: counts that add up to the games played.
    let ends = said
        .lines()
        .find_map(|l| l.strip_prefix("ended: "))
        .unwrap_or_else(|| panic!("{variant}: no 'ended:' line in {said}"));
    let counted: u32 = ends
        .split(", ")
        .map(|part| {
            part.split(" (")
                .next()
                .unwrap()
                .rsplit(' ')
                .next()
                .unwrap()
                .parse::<u32>()
                .unwrap_or_else(|_| panic!("{variant}: {ends}"))
        })
        .sum();
    assert_eq!(counted, 2, "{variant}: {ends}");
    let rules = AnyRules::by_name(variant).unwrap();
    let text = std::fs::read_to_string(out).unwrap();
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    assert!(!lines.is_empty(), "{variant}: no positions");
    for line in &lines {
        let (fen, result_and_score) =
            line.rsplit_once(" [").unwrap_or_else(|| panic!("{variant}: no result in {line}"));
        let (result, score) =
            result_and_score.split_once("] ").unwrap_or_else(|| panic!("{variant}: no score in {line}"));
        assert!(["1.0", "0.5", "0.0"].contains(&result), "{variant}: result {result} in {line}");
        // White's centipawns, never a mate (those positions are not kept).
        let score: i32 = score.parse().unwrap_or_else(|_| panic!("{variant}: score {score} in {line}"));
        assert!(score.abs() < 20_000, "{variant}: score {score} in {line}");
        let pos = rules.from_fen(fen).unwrap_or_else(|e| panic!("{variant}: {fen}: {e}"));
        assert!(!pos.in_check(), "{variant}: kept a position in check: {fen}");
        assert_eq!(pos.fen(), fen, "{variant}: the FEN does not read back the same");
    }
    lines
}

#[test]
fn every_variant_writes_positions_the_rules_read_back() {
    for v in variants::VARIANTS {
        let out = temp(v.name);
        generate(v.name, &out, &[]);
        let _ = std::fs::remove_file(out);
    }
}

#[test]
fn the_same_seed_writes_the_same_file_and_another_seed_another() {
    let (a, b, c) = (temp("seed-a"), temp("seed-b"), temp("seed-c"));
    let first = generate("standard", &a, &["--seed", "7"]);
    assert_eq!(generate("standard", &b, &["--seed", "7"]), first);
    assert_ne!(generate("standard", &c, &["--seed", "8"]), first);
    for f in [a, b, c] {
        let _ = std::fs::remove_file(f);
    }
}

#[test]
fn a_book_gives_the_openings() {
    let (book, out) = (temp("book.epd"), temp("book-out"));
    // One opening, no random plies: both games start from it.
    std::fs::write(&book, "# a comment\n\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - bm e5;\n").unwrap();
    let lines = generate("standard", &out, &["--book", book.to_str().unwrap(), "--random-plies", "0"]);
    assert!(lines[0].starts_with("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"), "{}", lines[0]);
    let _ = std::fs::remove_file(book);
    let _ = std::fs::remove_file(out);
}

#[test]
fn bad_arguments_are_named_and_nothing_is_played() {
    let out = temp("bad");
    let path = out.to_str().unwrap();
    for (args, named) in [
        (vec!["--variant", "nosuchchess", "--out", path], "nosuchchess"),
        (vec!["--depth", "0", "--out", path], "--depth"),
        (vec!["--concurrency", "0", "--out", path], "--concurrency"),
        (vec!["--book", "/nonexistent/book.epd", "--out", path], "/nonexistent/book.epd"),
        (vec!["--out", "/nonexistent/dir/out.txt"], "/nonexistent/dir/out.txt"),
    ] {
        let run = datagen(&args);
        let said = String::from_utf8_lossy(&run.stderr);
        assert!(!run.status.success(), "{args:?} succeeded");
        assert!(said.contains(named), "{args:?}: {said}");
        assert!(!said.contains("panicked"), "{args:?}: {said}");
    }
    assert!(!out.exists(), "a refused run wrote {}", out.display());
}
