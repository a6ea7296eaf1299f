//! `protean rescore` end to end, with Protean itself as the scoring
//! engine: each record keeps its position and result in order and gets
//! the engine's score for White (checked against the engine asked
//! directly over UCI), a mate gets none, and bad input is named with
//! nothing written.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const PROTEAN: &str = env!("CARGO_BIN_EXE_protean");

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("protean-rescore-{}-{name}", std::process::id()))
}

fn rescore(data: &Path, out: &Path, extra: &[&str]) -> Output {
    Command::new(PROTEAN)
        .args(["rescore", "--engine", PROTEAN, "--nodes", "2000", "--data"])
        .arg(data)
        .arg("--out")
        .arg(out)
        .args(extra)
        .output()
        .unwrap()
}

/// The score a fresh engine gives `fen` at 2,000 nodes, for the side to
/// move, asked over UCI without the rescorer.
fn uci_score(fen: &str) -> i32 {
    let mut child = Command::new(PROTEAN).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    let script = format!("uci\nucinewgame\nposition fen {fen}\ngo nodes 2000\n");
    child.stdin.as_mut().unwrap().write_all(script.as_bytes()).unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // `quit` only once the search has ended: read to the best move first.
    let stdout = child.stdout.take().unwrap();
    let mut score = None;
    for line in std::io::BufRead::lines(std::io::BufReader::new(stdout)).map_while(Result::ok) {
        let words: Vec<&str> = line.split_whitespace().collect();
        if let Some(i) = words.iter().position(|w| *w == "cp") {
            score = words[i + 1].parse().ok();
        }
        if line.starts_with("bestmove") {
            break;
        }
    }
    writeln!(stdin, "quit").unwrap();
    child.wait().unwrap();
    score.expect("no score")
}

const RECORDS: [&str; 3] = [
    // Black to move: the engine's score turned to White's side.
    "rnbqkbnr/pppp1ppp/8/4p3/4P3/5Q2/PPPP1PPP/RNB1KBNR b KQkq - 1 2 [0.0] 999",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3 [0.5]",
    // White mates in one: no score.
    "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1 [1.0] 12",
];

#[test]
fn records_keep_position_and_result_and_get_the_engines_score_for_white() {
    let (data, out, two) = (temp("data"), temp("out"), temp("two"));
    std::fs::write(&data, RECORDS.join("\n") + "\n").unwrap();
    let run = rescore(&data, &out, &[]);
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{err}");
    assert!(err.contains("scored 2 positions of 3") && err.contains("1 without a score"), "{err}");
    let lines: Vec<String> = std::fs::read_to_string(&out).unwrap().lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 3);
    for (line, record) in lines.iter().zip(RECORDS) {
        let head = &record[..=record.rfind(']').unwrap()];
        assert!(line.starts_with(head), "{line} is not of {record}");
    }
    let first_fen = RECORDS[0].split(" [").next().unwrap();
    assert_eq!(lines[0], format!("{first_fen} [0.0] {}", -uci_score(first_fen)));
    assert!(lines[1].rsplit(' ').next().unwrap().parse::<i32>().is_ok(), "{}", lines[1]);
    assert!(lines[2].ends_with("[1.0]"), "a mate keeps no score: {}", lines[2]);

    // Two engines at once share the records out and keep their order.
    let run = rescore(&data, &two, &["--concurrency", "2"]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let two_lines = std::fs::read_to_string(&two).unwrap();
    let heads = |text: &str| text.lines().map(|l| l[..=l.rfind(']').unwrap()].to_string()).collect::<Vec<_>>();
    assert_eq!(heads(&two_lines), heads(&lines.join("\n")));
    for file in [data, out, two] {
        std::fs::remove_file(file).unwrap();
    }
}

#[test]
fn bad_records_and_options_are_named_and_nothing_is_written() {
    let data = temp("bad-data");
    for (records, extra, says) in [
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 [0.7]\n", &[][..], "line 1"),
        ("8/8/8/8/8/8/8/8 w - - 0 1 [0.5]\n\n", &[][..], "line 1"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 [0.5]\nnot a record\n", &[][..], "line 2"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 [0.5]\n", &["--option", "Hash"][..], "NAME=VALUE"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 [0.5]\n", &["--engine", "/no/such/engine"][..], "/no/such/engine"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 [0.5]\n", &["--variant", "nosuch"][..], "nosuch"),
    ] {
        std::fs::write(&data, records).unwrap();
        let out = temp("bad-out");
        let mut command = Command::new(PROTEAN);
        command.args(["rescore", "--data"]).arg(&data).arg("--out").arg(&out);
        if !extra.contains(&"--engine") {
            command.args(["--engine", PROTEAN]);
        }
        let run = command.args(extra).output().unwrap();
        let err = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(1), "{records:?} {extra:?}: {err}");
        assert!(err.starts_with("error: ") && err.contains(says), "{records:?} {extra:?}: {err}");
        assert!(!out.exists(), "{records:?} {extra:?} wrote {}", out.display());
    }
    std::fs::remove_file(data).unwrap();
}
