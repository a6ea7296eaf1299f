//! Variant files end to end: `protean check` shows a good file's variants
//! with perft and names each mistake of a bad one; over UCI, `VariantPath`
//! loads a file that `UCI_Variant` then offers, and a bad file changes
//! nothing while the engine goes on.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

fn protean() -> &'static str {
    env!("CARGO_BIN_EXE_protean")
}

fn root(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path).to_str().unwrap().to_string()
}

const BAD: &str = "[bad:chess]\nmaxFile = j\nflyingPieces = true\nstartFen = 8/8/8/8/8/8/8/8 w - - 0 1\n";

fn bad_file(test: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("protean-bad-{}-{test}.ini", std::process::id()));
    std::fs::write(&path, BAD).unwrap();
    path
}

#[test]
fn check_shows_a_good_file_and_names_each_mistake_of_a_bad_one() {
    let out = Command::new(protean()).args(["check", &root("engine-tests/reference/perfect.ini")]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("perfectchess9: 9x9 board"), "{text}");
    assert!(text.contains("B customPiece1 BsW"), "{text}");
    assert!(text.contains("perft from the start: 1: 22, 2: 484, 3: 12228"), "{text}");

    let bad = bad_file("check");
    let out = Command::new(protean()).args(["check", bad.to_str().unwrap()]).output().unwrap();
    let errors = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(errors.contains("line 3: flyingPieces"), "{errors}");
    assert!(errors.contains("line 4: [bad] startFen: rank 8 has 8 cells, but the board has 10 files"), "{errors}");
    assert!(errors.contains("2 mistakes") && errors.contains("nothing loaded"), "{errors}");
    let _ = std::fs::remove_file(bad);
}

#[test]
fn uci_loads_a_variant_path_and_keeps_going_after_a_bad_one() {
    let bad = bad_file("uci");
    let mut child = Command::new(protean()).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    let script = format!(
        "uci\nsetoption name VariantPath value {}\nsetoption name VariantPath value {}:{}\nuci\nsetoption name UCI_Variant value janus\nposition startpos moves b2b4 j7j5\nsetoption name UCI_Variant value bad\nisready\nquit\n",
        bad.display(),
        root("epd/variants/janus.ini"),
        root("epd/variants/gothic.ini")
    );
    child.stdin.take().unwrap().write_all(script.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("line 3: flyingPieces") && text.contains("nothing loaded"), "{text}");
    assert!(text.contains("variants loaded from") && text.contains(": janus"), "{text}");
    let combos: Vec<&str> = text.lines().filter(|l| l.starts_with("option name UCI_Variant")).collect();
    assert_eq!(combos.len(), 2);
    assert!(
        !combos[0].contains("janus") && combos[1].ends_with("var janus var gothic"),
        "two files, as Fairy-Stockfish joins them: {combos:?}"
    );
    assert!(text.contains("info string variant janus files 10 ranks 8"), "{text}");
    assert!(!text.contains("illegal move"), "a janus position was set up: {text}");
    assert!(text.contains("unknown variant 'bad'") && text.contains("readyok"), "{text}");
    let _ = std::fs::remove_file(bad);
}

#[test]
fn xboard_is_taught_a_loaded_variant_with_setup_and_piece_lines() {
    let mut child = Command::new(protean())
        .args(["--variants", &root("epd/variants/capablanca.ini")])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"xboard\nprotover 2\nvariant capablanca\nquit\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let features = text.lines().find(|l| l.starts_with("feature myname")).unwrap();
    assert!(features.contains(",capablanca\""), "{features}");
    // The archbishop and the chancellor take XBoard's own A and C images.
    assert!(text.contains("setup (PNBRQ..ACKpnbrq..ack) 10x8+0_fairy rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1"), "{text}");
    assert!(text.contains("piece A& BN") && text.contains("piece C& RN") && text.contains("piece K& KisO3"), "{text}");
}
