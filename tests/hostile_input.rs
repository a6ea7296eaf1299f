//! The engine as a hostile GUI or a careless script drives it (issue 12):
//! every line that once crashed, hung or misled it, random bytes, lines
//! that are not UTF-8 and a 1 MB line, each followed by a check that the
//! engine still answers and still plays a legal move.

use protean_rules::AnyRules;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Everything read so far, for failure messages.
    seen: Vec<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child =
            Command::new(env!("CARGO_BIN_EXE_protean")).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine { child, stdin, lines, seen: Vec::new() }
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).unwrap();
        self.stdin.write_all(b"\n").unwrap();
        self.stdin.flush().unwrap();
    }

    fn send(&mut self, line: &str) {
        self.send_bytes(line.as_bytes());
    }

    /// The first line starting with `prefix` within `timeout`, and the
    /// lines before it.
    fn expect(&mut self, prefix: &str, timeout: Duration) -> (String, Vec<String>) {
        let end = Instant::now() + timeout;
        let mut before = Vec::new();
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if line.starts_with(prefix) {
                        return (line, before);
                    }
                    before.push(line);
                }
                Err(_) => panic!("no '{prefix}' within {timeout:?}; the engine wrote:\n{}", self.seen.join("\n")),
            }
        }
    }

    /// Whether the process ends within `timeout`.
    fn exits_within(&mut self, timeout: Duration) -> bool {
        let end = Instant::now() + timeout;
        while Instant::now() < end {
            if self.child.try_wait().unwrap().is_some() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        false
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

const SECOND: Duration = Duration::from_secs(1);

/// Random lines (bytes 1-255 but newline) from a fixed seed.
fn random_lines(seed: u64, count: usize) -> Vec<Vec<u8>> {
    let mut state = seed;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    (0..count).map(|_| (0..next() % 80).map(|_| (next() % 255 + 1) as u8).filter(|&b| b != b'\n').collect()).collect()
}

/// A UCI `go` that must end in a legal `bestmove` in `fen` (of `variant`).
fn uci_plays_legal_move(engine: &mut Engine, variant: &str, position: &str, go: &str) {
    engine.send(position);
    engine.send(go);
    let (line, _) = engine.expect("bestmove", 10 * SECOND);
    let best = line.split_whitespace().nth(1).unwrap().to_string();
    let rules = AnyRules::by_name(variant).unwrap();
    let mut pos = rules.start();
    let tokens: Vec<&str> = position.split_whitespace().collect();
    if tokens[1] == "fen" {
        let end = tokens.iter().position(|&t| t == "moves").unwrap_or(tokens.len());
        pos = rules.from_fen(&tokens[2..end].join(" ")).unwrap();
    }
    if let Some(at) = tokens.iter().position(|&t| t == "moves") {
        for m in &tokens[at + 1..] {
            pos.play(m).unwrap();
        }
    }
    assert!(pos.legal_moves().contains(&best), "{best} is not legal after '{position}'");
}

#[test]
fn uci_survives_hostile_lines() {
    let mut e = Engine::start();
    e.send("uci");
    e.expect("uciok", 5 * SECOND);

    // Rule sets that once shared a compiled set (finding 1).
    e.send("setoption name UCI_Variant value flexichess");
    e.send("position startpos moves N=C Q=B N=W Q=N");
    e.send("d");
    let (fen, _) = e.expect("Fen:", 5 * SECOND);
    assert!(fen.ends_with(" N=W,Q=N"), "{fen}");
    e.send("go perft 1");
    let (_, divide) = e.expect("Nodes searched", 10 * SECOND);
    assert!(
        divide.iter().any(|l| l.starts_with("d1c3:")) && !divide.iter().any(|l| l.starts_with("b1a4:")),
        "{divide:?}"
    );

    // A pawn leaping over a piece (finding 2): no crash, a legal move.
    uci_plays_legal_move(
        &mut e,
        "flexichess",
        "position fen 4k3/8/8/3p4/3P4/8/3P4/4K3 b - - 0 1 P=ND moves d5d3",
        "go depth 3",
    );
    e.send("position fen 4k3/8/8/3p4/3P4/8/3P4/4K3 b - - 0 1 P=ND moves d5d3 d2d4");
    e.send("go depth 3");
    e.expect("bestmove", 10 * SECOND);
    e.send("go perft 3");
    e.expect("Nodes searched", 10 * SECOND);

    // An empty run that wraps (finding 3) is refused; the old position stays.
    e.send("setoption name UCI_Variant value chess");
    e.send("position startpos moves e2e4");
    e.send("position fen 4k3/8/8/8/8/8/n18446744073709551615P7/4K3 w - - 0 1");
    let (refusal, _) = e.expect("info string", 5 * SECOND);
    assert!(refusal.contains("position unchanged"), "{refusal}");
    e.send("d");
    let (fen, _) = e.expect("Fen:", 5 * SECOND);
    assert!(fen.contains("4P3"), "{fen}");

    // Lines that are not UTF-8 (finding 4), random bytes, a 1 MB line.
    e.send_bytes(b"\xff\xfe");
    let (refusal, _) = e.expect("info string", 5 * SECOND);
    assert!(refusal.contains("not UTF-8"), "{refusal}");
    for line in random_lines(0x9e37_79b9_7f4a_7c15, 200) {
        e.send_bytes(&line);
    }
    e.send(&"e2e4 ".repeat(200_000));
    e.send("go depth 4294967296 movetime 200");
    e.expect("bestmove", 10 * SECOND);

    // Perft no longer blocks the loop (finding 9).
    e.send("position startpos");
    e.send("go perft 9");
    e.send("isready");
    let start = Instant::now();
    e.expect("readyok", 5 * SECOND);
    assert!(start.elapsed() < SECOND, "isready waited for perft");
    e.send("stop");
    e.expect("info string perft stopped", 5 * SECOND);

    // Many threads on few cores still keep the clock (finding 8).
    e.send("setoption name Threads value 64");
    let start = Instant::now();
    uci_plays_legal_move(&mut e, "chess", "position startpos moves e2e4", "go movetime 300");
    assert!(start.elapsed() < 3 * SECOND, "movetime 300 took {:?}", start.elapsed());

    e.send("isready");
    e.expect("readyok", 5 * SECOND);
    uci_plays_legal_move(&mut e, "chess", "position startpos moves e2e4 e7e5", "go depth 5");
    // Quitting joins 64 threads, each waiting for its turn on a core.
    e.send("quit");
    assert!(e.exits_within(5 * SECOND), "quit");
}

#[test]
fn xboard_survives_hostile_lines() {
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    e.expect("feature", 5 * SECOND);
    e.send("new");
    e.send("force");

    // Clocks that once panicked or were silently taken (findings 5-7).
    for bad in [
        "level 40 -5 0",
        "level 40 5 -1",
        "level 40 nan 0",
        "level 40 inf 0",
        "level 40 1e300 0",
        "level 40 5:99999999999999999999 0",
        "time abc",
        "otim abc",
        "memory 999999999",
    ] {
        e.send(bad);
        let (error, _) = e.expect("Error", 5 * SECOND);
        assert!(error.ends_with(bad), "{bad}: {error}");
    }
    e.send("time -100");
    e.expect("# time -100", 5 * SECOND);
    e.send("cores 1024");
    e.expect("# cores 1024", 5 * SECOND);
    e.send_bytes(b"usermove \xe9\x32\x65\x34");
    let (error, _) = e.expect("Error (not UTF-8", 5 * SECOND);
    assert!(error.contains("line ignored"), "{error}");
    for line in random_lines(7, 200) {
        e.send_bytes(&line);
    }
    e.send(&"x".repeat(1 << 20));

    // Perft answers ping while it runs, and stops (finding 9).
    e.send("perft 9");
    e.send("ping 1");
    let start = Instant::now();
    e.expect("pong 1", 5 * SECOND);
    assert!(start.elapsed() < SECOND, "ping waited for perft");
    e.send("?");
    e.expect("# perft stopped", 5 * SECOND);

    // A real clock after all that: 256 threads, 2 s for 40 moves, and the
    // engine still moves in time and legally.
    e.send("level 40 0:02 0");
    e.send("time 200");
    e.send("otim 200");
    e.send("usermove e2e4");
    e.send("go");
    let start = Instant::now();
    let (line, _) = e.expect("move ", 10 * SECOND);
    assert!(start.elapsed() < 2 * SECOND, "moved after {:?}", start.elapsed());
    let mut pos = AnyRules::by_name("standard").unwrap().start();
    pos.play("e2e4").unwrap();
    let m = line.trim_start_matches("move ").to_string();
    assert!(pos.legal_moves().contains(&m), "{m}");
    e.send("ping 2");
    e.expect("pong 2", 5 * SECOND);
}
