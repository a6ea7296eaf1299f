//! Static evaluation, generic over board size and pieces.
//!
//! Nothing here names a piece or a variant: every term is a feature built
//! from the board's geometry and the pieces' roles, times a weight from
//! `weights` (fitted to game results where a variant has a weights file;
//! otherwise piece values from how a piece moves, its Betza legs, and
//! positional weights set by hand), so any variant, and any rule change,
//! is evaluated sanely. The terms go to a [`Terms`] sink: search sums them
//! with their weights, the tuner (`protean_train`'s `texel`) records the
//! features.
//! Terms: material, centrality, pawn advancement and structure (doubled,
//! isolated, passed), what stands before a passed pawn (a blocker, the
//! kings' distances), mobility (per cell, and safe mobility, worth most
//! for a piece's first cells), outposts, how far up the board each
//! kind stands, threats (pieces attacked by pawns or by lesser pieces,
//! pieces attacked and not defended), king safety (attacks on the king's ring,
//! the pawn shield, and the square of the danger to the king), blended
//! between middle game and end game by the non-pawn material left, plus
//! a tempo bonus. Where tiles move (Beyond
//! Chess), three terms know what rifts do: rifts beside a king take its
//! flight cells, a rift that a tile shift could fill is a line waiting to
//! open onto a king, and a pawn near the rank where it promotes (which
//! runs across the whole arena) is a threat from anywhere.
//!
//! The pawns' own terms depend on nothing but their cells, so the search
//! takes their weighted sum from a per-thread [`PawnCache`]; what a piece
//! adds by its kind and cell alone (worth, centrality, piece-square
//! weight) is one entry of a table built with the weights, and a kind's
//! mobility is summed over its pieces and added once.

//!
//! One concern a file: `values` (a piece's worth from its moves),
//! `tables` (what the rules decide, built once per rule set), `terms`
//! (the features of a position), `pawn_cache` (the pawn terms kept per
//! thread), `trace` (the terms one by one, UCI's `eval`); this file sums
//! them into the evaluation.

mod pawn_cache;
mod tables;
mod terms;
mod trace;
mod values;

pub use pawn_cache::PawnCache;
pub use tables::EvalTables;
pub use terms::{terms, Terms};
pub use trace::{trace, TermRow, Trace};
pub use values::piece_value;

use crate::weights::{scalar, Scalar, Score};
use protean_rules::{Bitboard, Color, Position};
use terms::{pawn_sets, piece_terms, Summed};

/// A feature of one: features are counted in 256ths, so that how far a
/// pawn has come (0 to 256) is one like any count.
pub const ONE: i32 = 256;

/// `s` blended between middle game and end game by `phase`.
#[inline(always)]
pub fn taper(s: Score, phase: i32) -> i32 {
    (s.mg * phase + s.eg * (256 - phase)) / 256
}

/// The position's value in centipawns for the side to move.
pub fn evaluate<B: Bitboard>(pos: &Position<B>, t: &EvalTables<B>) -> i32 {
    let mut sum = Summed { weights: t.weights(), sides: [Score::default(); 2] };
    let phase = terms(pos, t, &mut sum);
    finish(pos, t, sum.sides, phase)
}

/// [`evaluate`], with the pawn structure terms from `cache` where it has
/// them (the same sums: integer terms added in another order).
pub fn evaluate_cached<B: Bitboard>(pos: &Position<B>, t: &EvalTables<B>, cache: &mut PawnCache) -> i32 {
    let pawns = pawn_sets(pos);
    let sides = cache.pawn_sums(pos, t, pawns);
    let mut sum = Summed { weights: t.weights(), sides };
    let phase = piece_terms(pos, t, pawns, &mut sum);
    finish(pos, t, sum.sides, phase)
}

/// White's and Black's sums blended by `phase`, for the side to move,
/// with the tempo.
fn finish<B: Bitboard>(pos: &Position<B>, t: &EvalTables<B>, [white, black]: [Score; 2], phase: i32) -> i32 {
    let score = taper(Score::new(white.mg - black.mg, white.eg - black.eg), phase);
    let score = if pos.side_to_move() == Color::White { score } else { -score };
    score + taper(t.weights[scalar(Scalar::Tempo)], phase)
}

#[cfg(test)]
mod tests;
