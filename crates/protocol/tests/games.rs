//! Whole games between two Protean engines over each protocol, with the
//! rules crate as referee: every move legal, the game ends by the rules.

mod common;

use common::Session;
use protean_protocol::{Uci, XBoard};
use protean_rules::{AnyRules, Outcome};
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(30);
const MAX_PLIES: usize = 1500;

fn referee_plays(referee: &mut protean_rules::AnyPosition, mv: &str) {
    referee.play(mv).unwrap_or_else(|e| panic!("{e} in {}", referee.fen()));
}

fn uci_game(variant: &str, depth: u32) -> Outcome {
    let mut engines = [Session::new(Uci::new), Session::new(Uci::new)];
    for e in engines.iter_mut() {
        e.send(&format!("setoption name UCI_Variant value {variant}"));
        e.take();
    }
    let mut referee = AnyRules::by_name(variant).unwrap().start();
    let mut moves: Vec<String> = Vec::new();
    for ply in 0..MAX_PLIES {
        if let Some(outcome) = referee.outcome() {
            eprintln!("uci {variant}: {outcome:?} after {ply} plies, {}", referee.fen());
            return outcome;
        }
        let e = &mut engines[ply % 2];
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        e.send(&format!("go depth {depth}"));
        let line = e.wait_for("bestmove", WAIT);
        e.take();
        let mv = line.split_whitespace().nth(1).unwrap().to_string();
        referee_plays(&mut referee, &mv);
        moves.push(mv);
    }
    panic!("no end after {MAX_PLIES} plies: {}", referee.fen());
}

fn xboard_game(variant: &str, depth: u32) -> Outcome {
    let mut engines = [Session::new(XBoard::new), Session::new(XBoard::new)];
    for e in engines.iter_mut() {
        for line in ["xboard", "protover 2", "new", &format!("variant {variant}"), &format!("sd {depth}"), "force"] {
            e.send(line);
        }
        e.take();
    }
    let mut referee = AnyRules::by_name(variant).unwrap().start();
    for ply in 0..MAX_PLIES {
        if let Some(outcome) = referee.outcome() {
            eprintln!("xboard {variant}: {outcome:?} after {ply} plies, {}", referee.fen());
            return outcome;
        }
        let (mover, other) = if ply % 2 == 0 { (0, 1) } else { (1, 0) };
        engines[mover].send("go");
        let line = engines[mover].wait_for("move ", WAIT);
        engines[mover].take();
        engines[mover].send("force");
        let mv = line.strip_prefix("move ").unwrap().to_string();
        referee_plays(&mut referee, &mv);
        engines[other].send(&format!("usermove {mv}"));
        assert!(engines[other].take().is_empty(), "the other engine refused {mv}");
    }
    panic!("no end after {MAX_PLIES} plies: {}", referee.fen());
}

#[test]
fn one_dimensional_chess_to_the_end_over_uci() {
    uci_game("onedim", 3);
}

#[test]
fn one_dimensional_chess_to_the_end_over_xboard() {
    xboard_game("onedim", 3);
}

#[test]
fn perfect_chess_to_the_end_over_uci() {
    uci_game("perfect", 3);
}

#[test]
fn beyond_chess_to_the_end_over_uci() {
    uci_game("beyond", 2);
}

#[test]
fn beyond_chess_to_the_end_over_xboard() {
    xboard_game("beyond", 2);
}

#[test]
fn flexichess_to_the_end_over_uci() {
    uci_game("flexichess", 3);
}
