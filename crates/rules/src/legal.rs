//! A position's legal moves, whatever its rules: piece moves (`movegen`),
//! whole tile turns or their two plies where tiles move (`tiles`), and
//! rule changes where rules change (`redefine`).

use crate::bitboard::Bitboard;
use crate::movegen::{KingSafety, MoveSet};
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::Position;

impl<B: Bitboard> Position<B> {
    /// Every legal move, in `out` (which is cleared first). Where tiles
    /// move, a move is a whole turn (piece move and tile shift).
    pub fn legal_moves(&mut self, out: &mut MoveList) {
        if self.tiles_move() {
            self.legal_turns(out, MoveSet::All, true);
        } else {
            self.legal_piece_moves(out, MoveSet::All);
            let has_piece_move = !out.is_empty();
            self.legal_redefinitions_beside(out, has_piece_move);
        }
    }

    /// How many legal moves there are: the length of `legal_moves`, with
    /// most piece moves counted rather than written (see
    /// `count_legal_piece_moves`); `scratch` is left with the rest.
    pub fn count_legal_moves(&mut self, scratch: &mut MoveList) -> usize {
        if self.tiles_move() {
            self.legal_moves(scratch);
            return scratch.len();
        }
        let pieces = self.count_legal_piece_moves(scratch);
        scratch.clear();
        self.legal_redefinitions_beside(scratch, pieces > 0);
        pieces + scratch.len()
    }

    /// Legal captures and promotions (for quiescence search); in check,
    /// every legal move, since all evasions must be looked at (piece moves
    /// only: a rule change never answers a check). Where tiles move, each
    /// comes with one tile shift, not every one.
    pub fn legal_captures(&mut self, out: &mut MoveList) {
        let set = if self.in_check() { MoveSet::All } else { MoveSet::Noisy };
        if self.tiles_move() {
            self.legal_turns(out, set, false);
        } else {
            self.legal_piece_moves(out, set);
        }
    }

    /// Where tiles move, the legal moves as search sees a turn played as
    /// two plies (see `tiles`); elsewhere the same as `legal_moves` or
    /// `legal_captures`.
    pub fn legal_half_turns(&mut self, out: &mut MoveList, captures_only: bool) {
        let set = if captures_only && !self.in_check() { MoveSet::Noisy } else { MoveSet::All };
        if self.tiles_move() {
            self.legal_plies(out, set, !captures_only);
        } else {
            self.legal_piece_moves(out, set);
            if !captures_only {
                let has_piece_move = !out.is_empty();
                self.legal_redefinitions_beside(out, has_piece_move);
            }
        }
    }

    /// Whether `m`, a move from elsewhere (the hash table, a killer of a
    /// sibling node), is a legal move here: what the generators would
    /// produce, tested without generating anything. Not for boards whose
    /// tiles move (their turns are generated whole).
    pub fn is_legal_move(&mut self, m: Move, safety: &KingSafety<B>) -> bool {
        debug_assert!(!self.tiles_move());
        let rules = self.rules();
        if m.kind == MoveKind::Redefine {
            return m.from() < rules.piece_types
                && m.to() < rules.variant.redefinitions.len()
                && self.may_redefine(m.from(), m.to());
        }
        self.is_legal_piece_move(m, safety)
    }

    /// Every legal move, in a new vector.
    pub fn legal_move_list(&mut self) -> Vec<Move> {
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        list.to_vec()
    }
}
