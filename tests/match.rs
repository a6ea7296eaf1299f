//! `protean match` end to end: short matches of Protean against itself in
//! every variant with the PGNs read back and replayed under the rules, and
//! fake engines that play an illegal move, crash, never answer or run out
//! of time, each game getting the right result while the match finishes.

use protean_rules::{variants, AnyRules};
use std::path::{Path, PathBuf};
use std::process::Command;

fn protean() -> &'static str {
    env!("CARGO_BIN_EXE_protean")
}

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("protean-match-{}-{name}", std::process::id()))
}

fn run_match(args: &[&str]) -> String {
    let out = Command::new(protean()).arg("match").args(args).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("Finished match"), "{text}");
    text
}

/// A game read back from PGN: its tags and SAN moves.
type PgnGame = (Vec<(String, String)>, Vec<String>);

/// The games of a PGN file.
fn games(path: &Path) -> Vec<PgnGame> {
    let text = std::fs::read_to_string(path).unwrap();
    text.split("[Event ")
        .filter(|g| !g.trim().is_empty())
        .map(|g| {
            let tags = g
                .lines()
                .filter_map(|l| l.strip_prefix('[').and_then(|l| l.strip_suffix("\"]")))
                .filter_map(|l| l.split_once(" \""))
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            let body = g.split("\n\n").nth(1).unwrap_or("");
            let body = body.split('{').next().unwrap();
            let moves = body.split_whitespace().filter(|t| !t.ends_with('.')).map(str::to_string).collect();
            (tags, moves)
        })
        .collect()
}

fn tag<'a>(tags: &'a [(String, String)], name: &str) -> Option<&'a str> {
    tags.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
}

#[test]
fn chess960_over_xboard_castles_as_o_o_and_replays() {
    // One engine over XBoard (castling sent and answered as O-O/O-O-O),
    // one over UCI (king takes rook); the referee reads both.
    // The book's castlings reach the XBoard engine as O-O in every game, so
    // a castling is always there; whether the engines castle again in
    // play depends on the game.
    let book = temp("chess960-book.pgn");
    std::fs::write(&book, "[FEN \"r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1\"]\n\n1. O-O O-O-O *\n").unwrap();
    let pgn = temp("chess960-xboard.pgn");
    let openings = format!("file={}", book.to_str().unwrap());
    let out = run_match(&[
        "-engine",
        &format!("cmd={}", protean()),
        "name=X",
        "proto=xboard",
        "-engine",
        &format!("cmd={}", protean()),
        "name=U",
        "-each",
        "depth=4",
        "-variant",
        "fischerandom",
        "-games",
        "2",
        "-rounds",
        "3",
        "-repeat",
        "-maxmoves",
        "80",
        "-openings",
        &openings,
        "format=pgn",
        "-pgnout",
        pgn.to_str().unwrap(),
    ]);
    assert!(!out.contains("illegal move"), "{out}");
    let rules = AnyRules::by_name("chess960").unwrap();
    let mut castlings = 0;
    for (tags, moves) in games(&pgn) {
        assert_eq!(tag(&tags, "Variant"), Some("chess960"));
        let mut pos = rules.from_fen(tag(&tags, "FEN").expect("a Chess960 start")).unwrap();
        for san in &moves {
            castlings += usize::from(san.starts_with("O-O"));
            pos.play_san(san).unwrap_or_else(|e| panic!("{san}: {e} in {}", pos.fen()));
        }
    }
    assert!(castlings >= 12, "the book's two castlings in each of six games");
    let _ = std::fs::remove_file(pgn);
    let _ = std::fs::remove_file(book);
}

#[test]
fn protean_plays_itself_in_every_variant_and_the_pgns_replay() {
    for &variant in variants::NAMES {
        let pgn = temp(&format!("{variant}.pgn"));
        let depth = if variant == "beyond" { "depth=2" } else { "depth=3" };
        let out = run_match(&[
            "-engine",
            &format!("cmd={}", protean()),
            "name=P1",
            "-engine",
            &format!("cmd={}", protean()),
            "name=P2",
            "-each",
            depth,
            "-variant",
            variant,
            "-games",
            "2",
            "-maxmoves",
            "60",
            "-pgnout",
            pgn.to_str().unwrap(),
        ]);
        assert!(out.contains("Score of P1 vs P2"), "{out}");
        let played = games(&pgn);
        assert_eq!(played.len(), 2, "{variant}");
        let rules = AnyRules::by_name(variant).unwrap();
        for (tags, moves) in played {
            let mut pos = match tag(&tags, "FEN") {
                Some(fen) => rules.from_fen(fen).unwrap(),
                None => rules.start(),
            };
            assert_eq!(tag(&tags, "Variant").unwrap_or("standard"), variant);
            for san in &moves {
                pos.play_san(san).unwrap_or_else(|e| panic!("{variant}: {san}: {e} in {}", pos.fen()));
            }
            assert_eq!(tag(&tags, "PlyCount"), Some(moves.len().to_string().as_str()));
            let result = tag(&tags, "Result").unwrap();
            match pos.outcome() {
                Some(o) => assert_eq!(o.result(), result, "{variant}"),
                None => assert_eq!(
                    (result, tag(&tags, "Termination")),
                    ("1/2-1/2", Some("adjudication")),
                    "{variant}: {}",
                    pos.fen()
                ),
            }
        }
        let _ = std::fs::remove_file(pgn);
    }
}

/// A fake engine's script, removed when the test is done with it.
struct FakeEngine(PathBuf);

impl std::ops::Deref for FakeEngine {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for FakeEngine {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// A UCI engine in a few lines of shell that answers `go` as `on_go` says.
fn fake_engine(name: &str, on_go: &str) -> FakeEngine {
    let path = temp(name);
    let script = format!(
        "#!/bin/sh\nwhile read -r line; do\n  case \"$line\" in\n    uci) echo 'id name {name}'; echo uciok ;;\n    isready) echo readyok ;;\n    go*) {on_go} ;;\n    quit) exit 0 ;;\n  esac\ndone\n"
    );
    std::fs::write(&path, script).unwrap();
    Command::new("chmod").arg("+x").arg(&path).status().unwrap();
    FakeEngine(path)
}

fn against(fake: &Path, extra: &[&str]) -> (String, Vec<PgnGame>) {
    let pgn = temp(&format!("{}.pgn", fake.file_name().unwrap().to_string_lossy()));
    let mut args = vec![
        "-engine".to_string(),
        format!("cmd={}", protean()),
        "name=Protean".into(),
        "-engine".into(),
        format!("cmd={}", fake.display()),
        "name=Fake".into(),
    ];
    args.extend(["-each", "tc=1+0.1", "-games", "2", "-pgnout"].map(str::to_string));
    args.push(pgn.to_str().unwrap().to_string());
    args.extend(extra.iter().map(|s| s.to_string()));
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = run_match(&refs);
    let g = games(&pgn);
    let _ = std::fs::remove_file(pgn);
    (out, g)
}

/// Every game of the fake engine is lost, for the reason given.
fn fake_loses_every_game(games: &[PgnGame], termination: &str) {
    assert_eq!(games.len(), 2);
    for (tags, _) in games {
        let fake_white = tag(tags, "White") == Some("Fake");
        assert_eq!(tag(tags, "Result"), Some(if fake_white { "0-1" } else { "1-0" }), "{tags:?}");
        assert_eq!(tag(tags, "Termination"), Some(termination), "{tags:?}");
    }
}

#[test]
fn an_illegal_move_loses_the_game() {
    // e2e5 is never legal; as Black it is not even its own piece.
    let fake = fake_engine("illegal", "echo 'bestmove e2e5'");
    let (out, games) = against(&fake, &[]);
    fake_loses_every_game(&games, "illegal move");
    assert!(out.contains("makes an illegal move: e2e5"), "{out}");
}

#[test]
fn a_crash_loses_the_game_and_recover_restarts_the_engine() {
    let fake = fake_engine("crash", "exit 1");
    let (out, games) = against(&fake, &["-recover"]);
    fake_loses_every_game(&games, "abandoned");
    assert!(out.contains("connection stalls"), "{out}");
    // Without -recover the crashed engine forfeits the games after.
    let (out, games) = against(&fake, &[]);
    fake_loses_every_game(&games, "abandoned");
    assert!(out.contains("is unavailable"), "{out}");
}

#[test]
fn an_engine_that_never_answers_loses_on_time() {
    let fake = fake_engine("silent", "true");
    let (_, games) = against(&fake, &["-recover"]);
    fake_loses_every_game(&games, "time forfeit");
}

#[test]
fn an_engine_that_runs_over_its_clock_loses_on_time() {
    // It answers, legally, but after 1.5 s with 1 s on its clock.
    let fake = fake_engine("slow", "sleep 1.5; echo 'bestmove a2a3'");
    let (out, games) = against(&fake, &["-recover"]);
    // As White its move would be legal; as Black a2a3 is not its own, but
    // time runs out first either way.
    fake_loses_every_game(&games, "time forfeit");
    assert!(out.contains("loses on time"), "{out}");
}

#[test]
fn a_resumed_match_counts_the_earlier_games_and_plays_on() {
    let fake = fake_engine("resumed", "echo 'bestmove e2e5'");
    let pgn = temp("resumed.pgn");
    let record = |round: u32, white: &str, black: &str, result: &str| {
        format!("[Event \"protean match\"]\n[Round \"{round}\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n\n{result}\n\n")
    };
    // A pair, Protean winning as White and losing as Black; then round 3
    // alone, whose partner never finished: it is played again.
    std::fs::write(
        &pgn,
        [
            record(1, "Protean", "Fake", "1-0"),
            record(2, "Fake", "Protean", "1-0"),
            record(3, "Protean", "Fake", "1/2-1/2"),
        ]
        .concat(),
    )
    .unwrap();
    let path = pgn.to_str().unwrap();
    let args = [
        "-engine",
        &format!("cmd={}", protean()),
        "name=Protean",
        "-engine",
        &format!("cmd={}", fake.display()),
        "name=Fake",
        "-each",
        "tc=1+0.1",
        "-games",
        "2",
        "-rounds",
        "2",
        "-resume",
        path,
        "-pgnout",
        path,
    ];
    let out = run_match(&args);
    assert!(out.contains(&format!("Resuming from {path}: 2 games counted, 1 left out (their partners had not finished); playing on from game 3")), "{out}");
    assert!(out.contains("Started game 3 of 4") && !out.contains("Started game 2 of"), "{out}");
    // The fake's illegal moves lose both new games.
    assert!(out.contains("Score of Protean vs Fake: 3 - 1 - 0  [0.750] 4"), "{out}");
    let played = games(&pgn);
    let rounds: Vec<_> = played.iter().map(|(tags, _)| tag(tags, "Round").unwrap().to_string()).collect();
    assert_eq!(rounds, ["1", "2", "3", "3", "4"]);
    // Resumed again, the match has nothing left to play.
    let out = run_match(&args);
    assert!(out.contains("4 games counted, 0 left out") && !out.contains("Started game"), "{out}");
    assert_eq!(games(&pgn).len(), 5);
    // A PGN of other engines is refused before any game starts.
    let refused = Command::new(protean())
        .arg("match")
        .args(args.iter().map(|a| a.replace("name=Fake", "name=Stranger")))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success() && text.contains("not a game of Protean and Stranger"), "{text}");
    assert!(!String::from_utf8_lossy(&refused.stdout).contains("Started game"));
    assert_eq!(games(&pgn).len(), 5, "a refused resume leaves the PGN as it was");
    // Earlier games that already decide the SPRT end the match unplayed:
    // 30 pairs won twice, 10 won once.
    let decided: String = (0..40u32)
        .map(|pair| {
            let second = if pair < 30 { "0-1" } else { "1-0" };
            record(2 * pair + 1, "Protean", "Fake", "1-0") + &record(2 * pair + 2, "Fake", "Protean", second)
        })
        .collect();
    std::fs::write(&pgn, decided).unwrap();
    let out = run_match(&[&args[..10], &["-rounds", "100", "-sprt", "elo0=0", "elo1=50", "-resume", path]].concat());
    assert!(
        out.contains("80 games counted") && out.contains("SPRT: H1 was accepted") && !out.contains("Started game"),
        "{out}"
    );
    let _ = std::fs::remove_file(pgn);
}

#[test]
fn an_engine_that_cannot_start_stops_the_match_at_once() {
    let start = std::time::Instant::now();
    let out = Command::new(protean())
        .args([
            "match",
            "-engine",
            "cmd=/nonexistent/engine",
            "name=Ghost",
            "-engine",
            &format!("cmd={}", protean()),
            "-each",
            "tc=1+0.01",
            "-games",
            "4",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(text.contains("Cannot start engine Ghost"), "{text}");
    assert!(start.elapsed() < std::time::Duration::from_secs(1), "{:?}", start.elapsed());
    assert!(!String::from_utf8_lossy(&out.stdout).contains("Started game"));
}

#[test]
fn help_prints_usage() {
    for flag in ["-help", "--help"] {
        let out = Command::new(protean()).args(["match", flag]).output().unwrap();
        assert!(out.status.success());
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.starts_with("usage: protean match") && text.contains("-sprt"), "{text}");
    }
}

#[test]
fn a_variant_loaded_from_a_file_is_played_and_refereed() {
    // The match loads the file (`--variants`), and so does each engine
    // (`VariantPath`); the PGN replays under the loaded rules.
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("epd/variants/capablanca.ini");
    let file = file.to_str().unwrap();
    let pgn = temp("capablanca.pgn");
    let engine =
        |name: &str| [format!("cmd={}", protean()), format!("name={name}"), format!("option.VariantPath={file}")];
    let mut args = vec!["--variants".to_string(), file.to_string(), "match".to_string(), "-engine".into()];
    args.extend(engine("P1"));
    args.push("-engine".into());
    args.extend(engine("P2"));
    args.extend(
        [
            "-each",
            "depth=3",
            "-variant",
            "capablanca",
            "-games",
            "2",
            "-maxmoves",
            "60",
            "-pgnout",
            pgn.to_str().unwrap(),
        ]
        .map(String::from),
    );
    let out = Command::new(protean()).args(&args).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && text.contains("Finished match"), "{text}");
    variants::load(&std::fs::read_to_string(file).unwrap()).unwrap();
    let rules = AnyRules::by_name("capablanca").unwrap();
    let played = games(&pgn);
    assert_eq!(played.len(), 2);
    for (tags, moves) in played {
        assert_eq!(tag(&tags, "Variant"), Some("capablanca"));
        let mut pos = rules.from_fen(tag(&tags, "FEN").unwrap()).unwrap();
        assert!(moves.len() > 10, "{moves:?}");
        for san in &moves {
            pos.play_san(san).unwrap_or_else(|e| panic!("{san}: {e} in {}", pos.fen()));
        }
    }
    let _ = std::fs::remove_file(pgn);
}
