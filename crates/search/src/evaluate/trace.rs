//! The evaluation term by term (UCI's `eval`, as Stockfish's trace): what
//! each weighed term adds for each side, in the middle game and the end
//! game, so that a user, or a developer asking why the engine misjudges a
//! position, sees which terms make its score. The terms are the ones
//! [`evaluate`](super::evaluate) sums, through the same [`Terms`] calls
//! and the same integer arithmetic, so the trace's total is the
//! evaluation itself (a test holds it to that).

use super::tables::EvalTables;
use super::terms::{terms, Terms};
use super::{finish, ONE};
use crate::weights::{per_kind, scalar, Layout, PerKind, Scalar, Score, SQUARE};
use protean_rules::{Bitboard, Color, Position};

/// One row of a trace: a term's name and what it adds for White and for
/// Black.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TermRow {
    pub name: String,
    pub sides: [Score; 2],
}

/// The hand-made evaluation of a position, term by term.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    /// Every term that adds something for either side, in the weights
    /// file's order (the scalar terms, then each kind's, then each kind's
    /// piece-square weights summed); the tempo is the side to move's.
    pub rows: Vec<TermRow>,
    /// The game phase: 256 the middle game, 0 the end game.
    pub phase: i32,
    /// The evaluation in centipawns for White.
    pub white_view: i32,
}

/// Each weight index's sum, per side: what [`Summed`](super::terms) adds
/// up, kept apart.
struct Traced<'a> {
    weights: &'a [Score],
    sides: Vec<[Score; 2]>,
}

impl Terms for Traced<'_> {
    // As the search's sum: a term weighed at nothing is not even counted
    // (which can change what other terms see, so the trace must skip it too).
    fn wants(&self, index: usize) -> bool {
        self.weights[index] != Score::default()
    }
    fn add(&mut self, color: Color, index: usize, feature: i32) {
        let w = self.weights[index];
        self.sides[index][color as usize] += Score::new(w.mg * feature / ONE, w.eg * feature / ONE);
    }
    fn count(&mut self, color: Color, index: usize, count: i32) {
        let w = self.weights[index];
        self.sides[index][color as usize] += Score::new(w.mg * count, w.eg * count);
    }
}

/// The trace of `pos` weighed by `t`.
pub fn trace<B: Bitboard>(pos: &Position<B>, t: &EvalTables<B>) -> Trace {
    let weights = t.weights();
    let mut traced = Traced { weights, sides: vec![[Score::default(); 2]; weights.len()] };
    let phase = terms(pos, t, &mut traced);
    let variant = &pos.rules().variant;
    let layout = Layout::of(variant);
    let mut rows: Vec<TermRow> = Vec::new();
    let mut push = |name: String, sides: [Score; 2]| {
        if sides != [Score::default(); 2] {
            rows.push(TermRow { name, sides });
        }
    };
    for s in Scalar::ALL {
        push(s.name().to_string(), traced.sides[scalar(s)]);
    }
    let mut tempo = [Score::default(); 2];
    tempo[pos.side_to_move() as usize] = weights[scalar(Scalar::Tempo)];
    push(Scalar::Tempo.name().to_string(), tempo);
    for (kind, piece) in variant.pieces.iter().enumerate() {
        let letter = piece.letter.to_ascii_uppercase();
        for term in PerKind::ALL {
            push(format!("{} {letter}", term.name()), traced.sides[per_kind(term, kind)]);
        }
        let mut squares = [Score::default(); 2];
        for square in 0..layout.squares() {
            for (sum, side) in squares.iter_mut().zip(traced.sides[layout.square(kind, square)]) {
                *sum += side;
            }
        }
        push(format!("{SQUARE} {letter}"), squares);
    }
    // Blended by the evaluation's own `finish`, which answers for the side
    // to move.
    let mut sides = [Score::default(); 2];
    for side in &traced.sides {
        sides[0] += side[0];
        sides[1] += side[1];
    }
    let stm = if pos.side_to_move() == Color::White { 1 } else { -1 };
    let white_view = stm * finish(pos, t, sides, phase);
    Trace { rows, phase, white_view }
}
