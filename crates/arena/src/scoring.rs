//! Positions scored by an engine in a child process: what a reference
//! engine (Fairy-Stockfish, Stockfish) thinks of the positions Protean's
//! self-play reached. A network learns more from those scores than from
//! Protean's own (docs/results.md, "Networks"), and a user's variant file
//! has Fairy-Stockfish's judgment at hand where it has no fitted file.
//!
//! Each of `concurrency` engines scores a contiguous share of the
//! positions, in order, at a node limit: one engine scoring a file gives
//! the same scores every run.

use crate::engine_process::{EngineProcess, Proto, SearchLimit};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The engine that scores, and how.
#[derive(Clone, Debug)]
pub struct Scorer {
    /// The engine's command (split on whitespace); it speaks UCI.
    pub command: String,
    /// Options set after the handshake (`VariantPath` first, where the
    /// variant is a file's).
    pub options: Vec<(String, String)>,
    /// Protean's name of the variant, told as `UCI_Variant`.
    pub variant: String,
    /// Nodes a position.
    pub nodes: u64,
}

/// Above this, an engine's score is a mate (`EngineProcess` reports mates
/// as 30,000 less the distance).
const MATE_BOUND: i32 = 20_000;

/// White's score in centipawns of each of `fens`, in order, by
/// `concurrency` engines at once; `None` where the engine sees a mate.
/// `done` counts the positions scored, for progress. An engine that fails
/// to start or to answer is an error naming the position.
pub fn score_positions(
    scorer: &Scorer,
    fens: &[String],
    concurrency: usize,
    done: &AtomicUsize,
) -> Result<Vec<Option<i32>>, String> {
    let share = fens.len().div_ceil(concurrency.max(1)).max(1);
    std::thread::scope(|scope| {
        let workers: Vec<_> = fens
            .chunks(share)
            .enumerate()
            .map(|(i, part)| scope.spawn(move || score_share(scorer, part, i * share, done)))
            .collect();
        let mut scores = Vec::with_capacity(fens.len());
        for worker in workers {
            scores.extend(worker.join().map_err(|_| "a scoring thread panicked".to_string())??);
        }
        Ok(scores)
    })
}

/// One engine's share: `fens`, the first of which is position `first`
/// (from 0) of the whole.
fn score_share(scorer: &Scorer, fens: &[String], first: usize, done: &AtomicUsize) -> Result<Vec<Option<i32>>, String> {
    let mut engine = EngineProcess::start(&scorer.command, Proto::Uci, &scorer.options)?;
    let at = |i: usize, what: String| format!("position {}: {what}", first + i + 1);
    engine.new_game(&scorer.variant).map_err(|f| at(0, format!("'{}' {f:?} at the new game", scorer.command)))?;
    let limit = SearchLimit { nodes: Some(scorer.nodes), ..SearchLimit::default() };
    let mut scores = Vec::with_capacity(fens.len());
    for (i, fen) in fens.iter().enumerate() {
        let white = fen.split_whitespace().nth(1) != Some("b");
        let reply = engine
            .think(&scorer.variant, Some(fen), &[], white, &limit, [0, 0])
            .map_err(|f| at(i, format!("'{}' {f:?} on {fen}", scorer.command)))?;
        let own = reply.score.filter(|s| s.abs() < MATE_BOUND);
        scores.push(own.map(|s| if white { s } else { -s }));
        done.fetch_add(1, Ordering::Relaxed);
    }
    Ok(scores)
}
