//! Random command sequences and garbage into both protocols: the engine
//! never panics and never hangs, and still answers afterwards.

mod common;

use common::Session;
use protean_protocol::{Protocol, Uci, XBoard};
use std::time::Duration;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.next() as usize % items.len()]
    }
}

const FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkqbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBQKQBNR w KQkq - 0 1",
    "KQRBN6nbrqk w - - 0 1",
    "8/8/8",
    "",
    "k7/8/8/8/8/8/8/7K w - - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
    "K1N1r10k w - - 0 1",
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
];
const MOVES: &[&str] =
    &["e2e4", "e7e5", "g1f3", "c1e1,e1b1", "a1b1", "e8e9q", "i2i4", "zz", "e2", "e2e4e6", "0000", "d1f1", "e1h1"];
const GARBAGE: &[&str] = &[
    "",
    " ",
    "\t",
    "??",
    "go go go",
    "position moves",
    "setoption",
    "setoption name",
    "setoption name Hash value",
    "\u{fffd}\u{0}",
    "usermove",
    "level x y z",
    "time -5",
    "sd",
    "st",
    "memory -1",
    "cores 0",
    "variant",
    "lift",
    "lift z99",
    "perft x",
    "go perft",
    "ping",
];

fn line(rng: &mut Rng, commands: &[&str]) -> String {
    let command = rng.pick(commands);
    match command {
        "position fen" => format!("position fen {} moves {} {}", rng.pick(FENS), rng.pick(MOVES), rng.pick(MOVES)),
        "position startpos" => format!("position startpos moves {} {}", rng.pick(MOVES), rng.pick(MOVES)),
        "usermove" => format!("usermove {}", rng.pick(MOVES)),
        "setboard" => format!("setboard {}", rng.pick(FENS)),
        "garbage" => rng.pick(GARBAGE).to_string(),
        other => other.to_string(),
    }
}

fn fuzz<P: Protocol>(mut session: Session<P>, commands: &[&str], seed: u64, check: (&str, &str)) {
    let mut rng = Rng(seed);
    for _ in 0..400 {
        let l = line(&mut rng, commands);
        if std::env::var_os("FUZZ_TRACE").is_some() {
            eprintln!("> {l}");
        }
        session.send(&l);
    }
    session.take();
    for l in ["stop", "force", "exit"] {
        session.send(l);
    }
    session.take();
    session.send(check.0);
    session.wait_for(check.1, Duration::from_secs(10));
}

#[test]
fn uci_survives_random_input() {
    let commands = [
        "uci",
        "isready",
        "ucinewgame",
        "position startpos",
        "position fen",
        "go depth 2",
        "go movetime 5",
        "go nodes 500",
        "go infinite",
        "go ponder",
        "ponderhit",
        "stop",
        "setoption name UCI_Variant value perfect",
        "setoption name UCI_Variant value onedim",
        "setoption name UCI_Variant value beyond",
        "setoption name Split Turns value false",
        "setoption name UCI_Variant value chess",
        "setoption name Hash value 2",
        "setoption name MultiPV value 2",
        "setoption name Threads value 2",
        "go perft 2",
        "d",
        "garbage",
    ];
    for seed in 1..=3 {
        fuzz(Session::new(Uci::new), &commands, seed, ("isready", "readyok"));
    }
}

#[test]
fn xboard_survives_random_input() {
    let commands = [
        "new",
        "variant perfect",
        "variant onedim",
        "variant beyond",
        "variant normal",
        "force",
        "go",
        "playother",
        "usermove",
        "setboard",
        "undo",
        "remove",
        "sd 2",
        "st 1",
        "level 40 0:05 0",
        "time 500",
        "otim 500",
        "ping 9",
        "post",
        "nopost",
        "analyze",
        "exit",
        ".",
        "?",
        "hint",
        "hard",
        "easy",
        "lift e2",
        "perft 2",
        "result 1-0 {x}",
        "memory 2",
        "cores 2",
        "garbage",
    ];
    for seed in 1..=3 {
        fuzz(Session::new(XBoard::new), &commands, seed, ("ping 1", "pong 1"));
    }
}
