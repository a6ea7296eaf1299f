//! `protean learn` end to end, on a few fast games: every step's file,
//! the same files again from the same seed, a run that goes on from what
//! its directory holds, a teacher's scores (Protean as the teacher), the
//! network a variant plays with refined instead of fitted weights, a
//! network that cannot be trained passed over, bad options refused with
//! nothing written, and no step left running by a run that was killed.

use protean_rules::AnyRules;
use protean_search::evaluate::EvalTables;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("protean-learn-{}-{name}", std::process::id()))
}

/// Chess whose king also leaps as a knight: no network reaches it or is
/// lent to it (a royal piece that moves otherwise than the lender's lends
/// nothing), so a run fits weights and trains a network of its own.
const NO_NETWORK: &str = "[nonet:chess]\nking = k:KN\n";

/// A short run of `nonet` (its file written beside `dir`): 40 games at
/// 300 nodes a move, the gate until 0.2 minutes have passed.
fn learn(dir: &Path) -> Output {
    learn_with(dir, &[])
}

fn learn_with(dir: &Path, extra: &[&str]) -> Output {
    let file = dir.with_extension("ini");
    std::fs::write(&file, NO_NETWORK).unwrap();
    run_learn(&["--variants", file.to_str().unwrap(), "learn", "--variant", "nonet"], dir, extra)
}

fn run_learn(variant: &[&str], dir: &Path, extra: &[&str]) -> Output {
    let args = ["--games", "40", "--nodes", "300", "--seed", "5", "--minutes", "0.2"];
    Command::new(env!("CARGO_BIN_EXE_protean"))
        .args(variant)
        .args(args)
        .args(["--tc", "1+0.01", "--concurrency", "2", "--out", dir.to_str().unwrap()])
        .args(extra)
        .output()
        .unwrap()
}

fn read(path: PathBuf) -> String {
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn learn_writes_every_step_the_same_from_the_same_seed_and_goes_on_after_a_stop() {
    let (first, second) = (temp("first"), temp("second"));
    let run = learn(&first);
    let (out, err) = (String::from_utf8_lossy(&run.stdout), String::from_utf8_lossy(&run.stderr));
    assert!(run.status.success(), "{out}\n{err}");
    assert!(out.contains("learnt nonet in") && out.contains("40 games"), "{out}");
    assert!(out.contains("fit: held-out loss") && out.contains("gate: "), "{out}");
    assert!(!out.contains("at the start"), "no network to start from: {out}");
    assert!(err.contains("book: ") && err.contains("self-play: 40 games, "), "{err}");

    // The book's positions are the variant's (chess's), and level enough
    // to be kept.
    let rules = AnyRules::by_name("standard").unwrap();
    let book = read(first.join("book.epd"));
    assert!(book.lines().count() > 20, "{book}");
    for fen in book.lines() {
        rules.from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    }
    // The weights read back for the variant (chess's pieces); the network
    // was trained.
    let weights = read(first.join("weights.txt"));
    assert!(weights.starts_with("# Evaluation weights for nonet"), "{weights}");
    let start = rules.start();
    protean_rules::with_position!(&start, p => EvalTables::with_weights(p.rules(), &weights).map(drop)).unwrap();
    assert!(first.join("network.nnue").exists());
    assert!(first.join("logs/gate.log").exists());

    // The same seed and games: the same book, data and weights.
    let again = learn(&second);
    assert!(again.status.success(), "{}", String::from_utf8_lossy(&again.stderr));
    for file in ["book.epd", "data/chunk-0000.txt", "weights.txt"] {
        assert_eq!(read(first.join(file)), read(second.join(file)), "{file} differs between two runs of one seed");
    }

    // A run in a directory that holds finished steps keeps them.
    let resumed = learn(&first);
    let err = String::from_utf8_lossy(&resumed.stderr);
    assert!(resumed.status.success(), "{err}");
    assert!(err.contains("(kept)") && err.contains("self-play: 1 chunks (kept)"), "{err}");
    assert_eq!(read(first.join("weights.txt")), weights);
    for dir in [first, second] {
        std::fs::remove_file(dir.with_extension("ini")).unwrap();
        std::fs::remove_dir_all(dir).unwrap();
    }
}

#[test]
fn the_network_a_variant_plays_with_is_refined_over_the_default_weights() {
    // Standard chess plays with its built-in network: no fit, the network
    // trained on from it, and the gate plays it alone.
    let dir = temp("refined");
    let run = run_learn(&["learn", "--variant", "standard"], &dir, &[]);
    let (out, err) = (String::from_utf8_lossy(&run.stdout), String::from_utf8_lossy(&run.stderr));
    assert!(run.status.success(), "{out}\n{err}");
    assert!(err.contains("fit: none (standard plays with a network, which the run refines"), "{err}");
    assert!(!out.contains("fit: ") && !dir.join("weights.txt").exists(), "{out}");
    assert!(out.contains("the network it started from"), "{out}");
    let network_log = read(dir.join("logs/network.log"));
    assert!(network_log.contains("the starting network's loss"), "{network_log}");
    // Gated where it pays, else nothing to gate.
    let gated = out.contains("(used;") && dir.join("logs/gate.log").exists();
    assert!(gated || out.contains("nothing installed: nothing learnt to gate"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();

    // `--stretched`: another game's network stretched to the variant's
    // board is refined instead (standard chess's own, cell for cell).
    let run = run_learn(&["learn", "--variant", "standard"], &dir, &["--stretched"]);
    let (out, err) = (String::from_utf8_lossy(&run.stdout), String::from_utf8_lossy(&run.stderr));
    assert!(run.status.success(), "{out}\n{err}");
    let said = "fit: none (--stretched: standard's network stretched to standard's board and kinds";
    assert!(err.contains(said), "{err}");
    let network_log = read(dir.join("logs/network.log"));
    assert!(network_log.contains("standard starts from standard's network, stretched"), "{network_log}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_teacher_scores_every_self_play_position_and_the_fit_reads_its_scores() {
    let dir = temp("teacher");
    let teacher = ["--teacher", env!("CARGO_BIN_EXE_protean"), "--teacher-nodes", "300"];
    let run = learn_with(&dir, &teacher);
    let (out, err) = (String::from_utf8_lossy(&run.stdout), String::from_utf8_lossy(&run.stderr));
    assert!(run.status.success(), "{out}\n{err}");
    assert!(out.contains("scored by the teacher") && err.contains("teacher: 1 chunks scored"), "{out}\n{err}");
    // The same positions and results, in order, with the teacher's scores.
    let head = |line: &str| line[..=line.rfind(']').unwrap()].to_string();
    let (chunk, scored) = (read(dir.join("data/chunk-0000.txt")), read(dir.join("data/scored-0000.txt")));
    assert_eq!(chunk.lines().map(head).collect::<Vec<_>>(), scored.lines().map(head).collect::<Vec<_>>());
    assert_ne!(chunk, scored, "the teacher's scores are the self-play's own");
    // The fit aims at the teacher's scores alone.
    let tune = read(dir.join("logs/tune.log"));
    assert!(tune.contains("0.00 of the result and 1.00 of the reference's score"), "{tune}");
    // Run again: the scored chunk is kept.
    let again = learn_with(&dir, &teacher);
    let err = String::from_utf8_lossy(&again.stderr);
    assert!(again.status.success() && err.contains("(1 kept)"), "{err}");
    std::fs::remove_file(dir.with_extension("ini")).unwrap();
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_network_that_cannot_be_trained_leaves_the_gate_to_the_weights() {
    // Flexichess from positions with a piece redefined: its self-play
    // positions stand under rule changes, which a network does not
    // evaluate, so none is trained; the fit and the gate go on.
    let (dir, book) = (temp("flexichess"), temp("flexichess-book.epd"));
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    std::fs::write(&book, format!("{start} N=QN\n{start} B=RN\n")).unwrap();
    let run = Command::new(env!("CARGO_BIN_EXE_protean"))
        .args(["learn", "--variant", "flexichess", "--games", "200", "--nodes", "300", "--minutes", "0.2"])
        .args(["--tc", "1+0.01", "--book", book.to_str().unwrap(), "--out", dir.to_str().unwrap()])
        .output()
        .unwrap();
    let (out, err) = (String::from_utf8_lossy(&run.stdout), String::from_utf8_lossy(&run.stderr));
    assert!(run.status.success(), "{out}\n{err}");
    assert!(err.contains("network: not trained (") && err.contains("the weights go on alone"), "{err}");
    assert!(out.contains("fit: held-out loss") && out.contains("gate: ") && !out.contains("network:"), "{out}");
    assert!(dir.join("weights.txt").exists() && !dir.join("network.nnue").exists());
    assert!(dir.join("logs/gate.log").exists());
    std::fs::remove_dir_all(dir).unwrap();
    std::fs::remove_file(book).unwrap();
}

#[test]
fn learn_refuses_bad_options_and_writes_nothing() {
    for (args, says) in [
        (&["--variant", "nosuch"][..], "nosuch"),
        (&["--variant", "standard", "--minutes", "0"][..], "--minutes"),
        (&["--variant", "standard", "--games", "0"][..], "at least 1"),
        (&["--variant", "standard", "--book", "/no/such/book.epd"][..], "/no/such/book.epd"),
        (&["--variant", "standard", "--teacher", "/no/such/engine"][..], "--teacher"),
        (&["--variant", "onedim", "--stretched"][..], "--stretched: no other game's network stretches to onedim"),
    ] {
        let dir = temp("bad");
        let run = Command::new(env!("CARGO_BIN_EXE_protean"))
            .arg("learn")
            .args(args)
            .args(["--out", dir.to_str().unwrap()])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.starts_with("error: ") && err.contains(says), "{args:?}: {err}");
        assert!(!dir.exists(), "{args:?} wrote {}", dir.display());
    }
}

/// The processes whose command line names `dir`.
#[cfg(target_os = "linux")]
fn processes_naming(dir: &Path) -> Vec<String> {
    let dir = dir.to_str().unwrap();
    let entries = std::fs::read_dir("/proc").unwrap().filter_map(Result::ok);
    let lines = entries.filter_map(|e| std::fs::read(e.path().join("cmdline")).ok());
    let lines = lines.map(|bytes| String::from_utf8_lossy(&bytes).replace('\0', " "));
    lines.filter(|line| line.contains(dir)).collect()
}

#[cfg(target_os = "linux")]
#[test]
fn a_killed_run_leaves_no_step_running() {
    use std::time::{Duration, Instant};
    let dir = temp("killed");
    // Self-play at 5,000 nodes a move: a chunk of games takes far longer
    // than this test waits.
    let mut run = Command::new(env!("CARGO_BIN_EXE_protean"))
        .args(["learn", "--variant", "standard", "--minutes", "10", "--concurrency", "2"])
        .args(["--out", dir.to_str().unwrap()])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    // The run itself is one process naming the directory; its steps more.
    while processes_naming(&dir).len() < 2 {
        if started.elapsed() >= Duration::from_secs(60) {
            // Not left to run out its ten minutes beside the other tests.
            run.kill().unwrap();
            panic!("no step started");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    run.kill().unwrap();
    run.wait().unwrap();
    let killed = Instant::now();
    while !processes_naming(&dir).is_empty() {
        assert!(killed.elapsed() < Duration::from_secs(5), "still running: {:?}", processes_naming(&dir));
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = std::fs::remove_dir_all(&dir);
}
