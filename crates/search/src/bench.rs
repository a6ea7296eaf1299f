//! The bench: fixed-depth searches over positions of every variant, each
//! with a cleared hash table, so that with one thread the total node
//! count is the same on every run and machine: the search's signature.
//! Run by `protean bench` and by the UCI command `bench`, as Stockfish
//! and OpenBench's workers run it; the totals are Stockfish's lines,
//! `Nodes searched` and `Nodes/second`. It lives beside the search it
//! measures; its lines are plain strings that any caller prints.

use crate::{Engine, Limits, Options, MAX_THREADS};
use protean_rules::{variants, AnyRules};
use std::time::{Duration, Instant};

/// Positions per variant: starts, openings, middle games and endings.
/// Beyond Chess turns number in the hundreds, so its positions are
/// searched `BEYOND_DEPTH_CUT` plies shallower than the others.
const POSITIONS: &[(&str, &str)] = &[
    ("standard", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    ("standard", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10"),
    ("standard", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 11"),
    ("standard", "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19"),
    ("standard", "r1bbk1nr/pp3p1p/2n5/1N4p1/2Np1B2/8/PPP2PPP/2KR1B1R w kq - 0 13"),
    ("standard", "r1bq1rk1/ppp1nppp/4n3/3p3Q/3P4/1BP1B3/PP1N2PP/R4RK1 w - - 1 16"),
    ("standard", "8/8/8/5k2/8/3K4/3P4/8 w - - 0 50"),
    ("standard", "6k1/5p2/6p1/8/7p/8/6PP/6K1 b - - 0 40"),
    ("perfect", "rnbqkqbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBQKQBNR w KQkq - 0 1"),
    ("perfect", "r1bqkqbnr/ppp1ppppp/2n6/3p5/9/4P4/9/PPPP1PPPP/RNBQKQBNR w KQkq - 0 3"),
    ("perfect", "r3kq2r/ppp2pppp/2nbb1n2/3pp4/9/2NPPB3/PPPQ2N2/5PPPP/R3KQB1R w KQkq - 4 9"),
    ("perfect", "4k4/9/3p5/9/4P4/9/5K3/9/9 w - - 0 40"),
    ("onedim", "KQRBN6nbrqk w - - 0 1"),
    ("onedim", "K1R2Q3n1b2rk b - - 3 15"),
    ("onedim", "1KR3b2N3rk1 b - - 2 20"),
    ("flexichess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 -"),
    ("flexichess", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2 N=NN"),
    ("flexichess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10 N=C,Q=BN"),
    ("flexichess", "r1bq1rk1/ppp1nppp/4n3/3p3Q/3P4/1BP1B3/PP1N2PP/R4RK1 w - - 1 16 P=fmWfcF,B=F"),
    ("beyond", "****************/****************/****************/****************/****rnbqkbnr****/****pppppppp****/****8****/****8****/****8****/****8****/****PPPPPPPP****/****RNBQKBNR****/****************/****************/****************/**************** w KQkq - 0 1 -"),
    ("beyond", "****************/****************/****************/****************/****rnb1kb1r****/****pp2ppp1****/****2pq3p****/****1B1p2Q1****/*****3n3****/****4P3****/****PPPP1PPP****/***1R1B*K1NR****/*****1**********/****************/****************/**************** w KQkq - 0 7 a4a3:1"),
    ("beyond", "****************/****************/****************/****************/****r3k2r****/****pppp*ppp****/****2n*1n2****/****3**3****/****2*2*2****/****2N2N2****/****PPP*PPPP****/****R3K2R****/****************/****************/****************/**************** b KQkq - 0 9 -"),
];

const BEYOND_DEPTH_CUT: u32 = 6;

/// What to search.
#[derive(Clone, Debug)]
pub struct BenchSettings {
    pub depth: u32,
    pub threads: usize,
    pub hash_mib: usize,
    /// How Beyond Chess turns are searched; `None`: the engine's default.
    pub split_turns: Option<bool>,
    /// Only the positions of this variant (any of its names).
    pub variant: Option<String>,
}

impl Default for BenchSettings {
    fn default() -> Self {
        BenchSettings { depth: 9, threads: 1, hash_mib: 16, split_turns: None, variant: None }
    }
}

/// The bench's totals.
#[derive(Clone, Copy, Debug)]
pub struct BenchResult {
    pub nodes: u64,
    pub elapsed: Duration,
}

impl BenchResult {
    /// Stockfish's closing lines.
    pub fn lines(&self) -> [String; 2] {
        [
            format!("Nodes searched: {}", self.nodes),
            format!("Nodes/second: {}", (self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-6)) as u64),
        ]
    }
}

/// Runs the bench, telling `progress` a line per position.
pub fn bench(settings: &BenchSettings, progress: &mut dyn FnMut(String)) -> Result<BenchResult, String> {
    if settings.threads == 0 || settings.threads > MAX_THREADS {
        return Err(format!("threads must be from 1 to {}", MAX_THREADS));
    }
    if settings.depth == 0 {
        return Err("depth must be at least 1".into());
    }
    let mut engine = Engine::new(AnyRules::by_name("standard").map_err(|e| e.to_string())?.start());
    engine.resize_hash(settings.hash_mib).map_err(|e| format!("hash {} MiB: {e}", settings.hash_mib))?;
    let mut options =
        Options { threads: settings.threads, multi_pv: 1, move_overhead: Duration::ZERO, ..Options::default() };
    if let Some(split) = settings.split_turns {
        options.split_turns = split;
    }
    engine.set_options(options);
    let only = match &settings.variant {
        Some(v) => Some(variants::own_name(v).ok_or_else(|| variants::UnknownVariant(v.clone()).to_string())?),
        None => None,
    };
    let mut nodes = 0;
    // Only the searches are timed: compiling a variant's rules (its
    // rider tables take milliseconds) and clearing the hash table are
    // not the search's speed.
    let mut elapsed = Duration::ZERO;
    for (i, (variant, fen)) in POSITIONS.iter().enumerate() {
        if only.as_ref().is_some_and(|name| variants::own_name(variant).as_ref() != Some(name)) {
            continue;
        }
        let rules = AnyRules::by_name(variant).map_err(|e| e.to_string())?;
        let depth = if rules.variant().tiles.is_some() {
            settings.depth.saturating_sub(BEYOND_DEPTH_CUT).max(1)
        } else {
            settings.depth
        };
        let limits = Limits { depth: Some(depth), ..Limits::default() };
        let pos = rules.from_fen(fen).map_err(|e| format!("bench position {}: {e}", i + 1))?;
        // Each position is searched as the first of a new game.
        engine.set_position(pos.clone());
        engine.clear();
        let start = Instant::now();
        let outcome = engine.search(limits);
        elapsed += start.elapsed();
        let best = outcome.best.map(|m| pos.move_text(m)).unwrap_or_default();
        progress(format!(
            "Position: {}/{} ({variant}) bestmove {best} nodes {}",
            i + 1,
            POSITIONS.len(),
            outcome.nodes
        ));
        nodes += outcome.nodes;
    }
    Ok(BenchResult { nodes, elapsed })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_has_bench_positions_that_parse() {
        for name in protean_rules::variants::NAMES.iter().filter(|n| **n != "chess960") {
            assert!(POSITIONS.iter().any(|(v, _)| v == name), "no bench position for {name}");
        }
        for (variant, fen) in POSITIONS {
            AnyRules::by_name(variant).unwrap().from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        }
    }
}
