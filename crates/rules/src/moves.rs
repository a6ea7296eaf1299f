//! Moves.
//!
//! A move names its cells explicitly, including the cell of the captured
//! piece where that is not the destination (en passant today; the
//! One-dimensional knight's middle-cell capture later), so make/unmake has
//! one capture path for all of them.

use crate::geometry::Geometry;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum MoveKind {
    Quiet,
    Capture,
    /// Captures the piece on `aux`, not on `to`.
    EnPassant,
    /// King from-to; `aux` indexes the variant's castling table.
    Castle,
    /// Captures the piece on `aux`, the middle cell of a two-leg jump;
    /// written with its legs (`c1e1,e1b1`).
    LegCapture,
    /// The king and the adjacent piece on `to` trade places.
    Swap,
    /// Passes the turn; only search makes it (null-move pruning).
    Null,
    /// A pawn moving together with its tile into a rift, the whole turn
    /// (Beyond Chess's geret).
    Geret,
    /// The tile on `from` moves to `to`: the second half of a turn when a
    /// turn is played as two plies. `from == to` ends the turn without a
    /// shift (when none is legal).
    Shift,
    /// Flexichess: the kind of piece `from` moves from now on as entry
    /// `to` of the variant's catalogue of redefinitions, for both colours.
    Redefine,
}

impl MoveKind {
    const ALL: [MoveKind; 10] = [
        MoveKind::Quiet,
        MoveKind::Capture,
        MoveKind::EnPassant,
        MoveKind::Castle,
        MoveKind::LegCapture,
        MoveKind::Swap,
        MoveKind::Null,
        MoveKind::Geret,
        MoveKind::Shift,
        MoveKind::Redefine,
    ];
    /// The kind whose `as u8` is `index` (for moves packed into tables).
    pub fn from_index(index: u8) -> Option<MoveKind> {
        MoveKind::ALL.get(index as usize).copied()
    }
}

pub const NO_PROMOTION: u8 = u8::MAX;

/// What follows a piece move where tiles move: nothing (`NONE`), a tile
/// shift played as a move of its own (`FOLLOWS`), or the shift carried in
/// the same move (from, to).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TileShift(pub u8, pub u8);

impl TileShift {
    pub const NONE: TileShift = TileShift(0, 0);
    pub const FOLLOWS: TileShift = TileShift(1, 1);
    /// The cells of a real shift.
    #[inline(always)]
    pub fn cells(self) -> Option<(usize, usize)> {
        (self.0 != self.1).then_some((self.0 as usize, self.1 as usize))
    }
}

/// Eight bytes, aligned: a move is written and compared as one word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C, align(8))]
pub struct Move {
    pub from: u8,
    pub to: u8,
    pub kind: MoveKind,
    /// Piece kind the pawn becomes, or [`NO_PROMOTION`].
    pub promotion: u8,
    pub aux: u8,
    /// The tile shift of the same turn (Beyond Chess).
    pub shift: TileShift,
}

impl Move {
    #[inline(always)]
    pub fn new(from: usize, to: usize, kind: MoveKind) -> Move {
        Move { from: from as u8, to: to as u8, kind, promotion: NO_PROMOTION, aux: 0, shift: TileShift::NONE }
    }
    pub const NULL: Move =
        Move { from: 0, to: 0, kind: MoveKind::Null, promotion: NO_PROMOTION, aux: 0, shift: TileShift::NONE };

    /// The same piece move with a tile shift after it.
    #[inline(always)]
    pub fn with_shift(self, shift: TileShift) -> Move {
        Move { shift, ..self }
    }

    #[inline(always)]
    pub fn from(self) -> usize {
        self.from as usize
    }
    #[inline(always)]
    pub fn to(self) -> usize {
        self.to as usize
    }
    #[inline(always)]
    pub fn promotion(self) -> Option<usize> {
        (self.promotion != NO_PROMOTION).then_some(self.promotion as usize)
    }
    #[inline(always)]
    pub fn is_capture(self) -> bool {
        matches!(self.kind, MoveKind::Capture | MoveKind::EnPassant | MoveKind::LegCapture)
    }
    /// The cell whose piece this move captures, if any.
    #[inline(always)]
    pub fn capture_cell(self) -> Option<usize> {
        match self.kind {
            MoveKind::Capture => Some(self.to()),
            MoveKind::EnPassant | MoveKind::LegCapture => Some(self.aux as usize),
            _ => None,
        }
    }

    /// Coordinate notation without the promotion suffix (`e2e4`, `a9a10`;
    /// a middle-cell capture with its two legs, `c1e1,e1b1`).
    /// The tile shift in the same turn is not part of it (see
    /// `Position::move_text`).
    pub fn cells_text(self, g: Geometry) -> String {
        if self.kind == MoveKind::Shift && self.from == self.to {
            return "-".into();
        }
        if self.kind == MoveKind::LegCapture {
            let mid = g.name(self.aux as usize);
            return format!("{}{mid},{mid}{}", g.name(self.from()), g.name(self.to()));
        }
        format!("{}{}", g.name(self.from()), g.name(self.to()))
    }
}

/// The moves of one position. Its buffer is allocated once and reused;
/// pushing past it grows it on a cold path, so the hot push is a compare
/// and a store (a `Vec::push` was an eighth of perft's instructions).
#[derive(Clone, Debug)]
pub struct MoveList {
    buf: Vec<Move>,
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList { buf: vec![Move::new(0, 0, MoveKind::Quiet); 256], len: 0 }
    }
}

impl MoveList {
    pub fn new() -> MoveList {
        MoveList::default()
    }
    /// A list with no buffer yet, which costs no allocation: what a
    /// search leaves in a per-ply slot while it uses the slot's own list
    /// (`std::mem::take` would allocate a whole buffer for every node).
    pub const fn empty() -> MoveList {
        MoveList { buf: Vec::new(), len: 0 }
    }
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        if self.len == self.buf.len() {
            self.grow();
        }
        self.buf[self.len] = m;
        self.len += 1;
    }
    /// A move from `from` to each cell of `targets`, with one capacity
    /// check for them all (generation's hot loop).
    #[inline(always)]
    pub fn push_targets<B: crate::bitboard::Bitboard>(&mut self, from: usize, targets: B, kind: MoveKind) {
        let n = targets.count() as usize;
        while self.len + n > self.buf.len() {
            self.grow();
        }
        for (slot, to) in self.buf[self.len..self.len + n].iter_mut().zip(targets.cells()) {
            *slot = Move::new(from, to, kind);
        }
        self.len += n;
    }
    #[cold]
    fn grow(&mut self) {
        let n = self.buf.len();
        self.buf.resize((n * 2).max(256), Move::new(0, 0, MoveKind::Quiet));
    }
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }
    #[inline(always)]
    pub fn swap(&mut self, i: usize, j: usize) {
        self.buf[..self.len].swap(i, j);
    }
    #[inline(always)]
    pub fn set(&mut self, i: usize, m: Move) {
        self.buf[..self.len][i] = m;
    }
    /// Drops the first `n` moves, keeping the order of the rest.
    pub fn remove_front(&mut self, n: usize) {
        self.buf.copy_within(n..self.len, 0);
        self.len -= n;
    }
    /// Removes the move at `i`, putting the last move in its place.
    #[inline(always)]
    pub fn swap_remove(&mut self, i: usize) {
        self.len -= 1;
        self.buf[i] = self.buf[self.len];
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    #[inline(always)]
    fn deref(&self) -> &[Move] {
        &self.buf[..self.len]
    }
}

#[cfg(test)]
mod tests {
    use super::MoveKind;

    #[test]
    fn kinds_come_back_from_their_index() {
        for i in 0..=u8::MAX {
            if let Some(kind) = MoveKind::from_index(i) {
                assert_eq!(kind as u8, i);
            }
        }
        assert_eq!(MoveKind::from_index(MoveKind::Redefine as u8), Some(MoveKind::Redefine));
    }
}
