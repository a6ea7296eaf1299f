//! What a search thread learns about quiet moves, to order them and to
//! reduce them: which moves cut nodes off, by who plays them (the main
//! history, by side, from-cell and to-cell), and by what was played just
//! before (continuation histories: a move's record as the answer to the
//! opponent's last move, and as the follow-up to the side's own move before
//! that, by piece and cell on both sides, Stockfish's `ContinuationHistory`).
//!
//! Every table keeps its entries within +/- `LIMIT` by gravity: a bonus
//! moves an entry toward the limit in proportion to how far it still is,
//! so old lessons fade as new ones come.
//!
//! A Flexichess rule change has a main history (its "from" is the piece
//! kind, its "to" the catalogue entry) but no piece moves, so it is no
//! context for the next move, and a null move none either.

use protean_rules::{Bitboard, Move, MoveKind, Piece, Position};

/// Entries stay within +/- this.
const LIMIT: i32 = 16_384;

/// The continuation tables a move is scored from: those of the moves one
/// and two plies before it (`None` where there was none, or no piece
/// moved).
pub(crate) type Context = [Option<u32>; 2];

pub(crate) struct Histories {
    /// By side, from-cell and to-cell.
    main: Vec<i32>,
    /// By the earlier move's piece (kind and colour) and to-cell, then the
    /// move's kind and to-cell.
    continuation: Vec<i16>,
    cells: usize,
    kinds: usize,
}

/// The piece `m` moves in `pos`, for a move that moves one from a cell to
/// another (the moves the continuation tables know).
fn moving_piece<B: Bitboard>(pos: &Position<B>, m: Move) -> Option<Piece> {
    match m.kind {
        MoveKind::Null | MoveKind::Shift | MoveKind::Redefine => None,
        _ => pos.piece_at(m.from()),
    }
}

fn gravity(entry: i32, bonus: i32) -> i32 {
    entry + bonus - entry * bonus.abs() / LIMIT
}

impl Histories {
    pub fn new() -> Histories {
        Histories { main: Vec::new(), continuation: Vec::new(), cells: 0, kinds: 0 }
    }

    /// Readies the tables for a board of `cells` cells and `kinds` piece
    /// kinds: what was learned on another board means nothing here.
    /// Whether the board changed.
    pub fn prepare(&mut self, cells: usize, kinds: usize) -> bool {
        let changed = self.cells != cells || self.kinds != kinds;
        if changed {
            self.cells = cells;
            self.kinds = kinds;
            self.main = vec![0; 2 * cells * cells];
            self.continuation = vec![0; 2 * kinds * cells * kinds * cells];
        }
        changed
    }

    pub fn clear(&mut self) {
        self.main.fill(0);
        self.continuation.fill(0);
    }

    fn main_index<B: Bitboard>(&self, pos: &Position<B>, m: Move) -> usize {
        (pos.side_to_move() as usize * self.cells + m.from()) * self.cells + m.to()
    }

    /// Where the continuation table of the answers to `m` starts, for `m`
    /// about to be played in `pos`.
    pub fn context<B: Bitboard>(&self, pos: &Position<B>, m: Move) -> Option<u32> {
        let piece = moving_piece(pos, m)?;
        Some(((piece.index() * self.cells + m.to()) * self.kinds * self.cells) as u32)
    }

    /// The entry of `m` in the table that starts at `base`.
    fn continuation_index<B: Bitboard>(&self, pos: &Position<B>, m: Move, base: u32) -> Option<usize> {
        let piece = moving_piece(pos, m)?;
        Some(base as usize + piece.kind() * self.cells + m.to())
    }

    /// The record of quiet move `m` in `pos`, after the moves of `context`.
    pub fn quiet<B: Bitboard>(&self, pos: &Position<B>, m: Move, context: &Context) -> i32 {
        let mut score = self.main[self.main_index(pos, m)];
        for base in context.iter().flatten() {
            if let Some(i) = self.continuation_index(pos, m, *base) {
                score += self.continuation[i] as i32;
            }
        }
        score
    }

    /// Adds `bonus` (negative: a malus) to every record of `m`.
    pub fn update<B: Bitboard>(&mut self, pos: &Position<B>, m: Move, context: &Context, bonus: i32) {
        let i = self.main_index(pos, m);
        self.main[i] = gravity(self.main[i], bonus);
        for base in context.iter().flatten() {
            if let Some(i) = self.continuation_index(pos, m, *base) {
                self.continuation[i] = gravity(self.continuation[i] as i32, bonus) as i16;
            }
        }
    }
}
