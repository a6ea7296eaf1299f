//! Transfers between boards (Perplexichess, RULINGS.md Perplexichess 3-4):
//! a grand strategist takes one of his own pieces, never the king, off one
//! board and puts it on the same cell of another board where that cell is
//! empty. A transfer may not leave his own king in check on the board it
//! leaves, may not put a pawn on the first or last rank, and may not give
//! check on a board where his own side is to move: neither by the piece
//! put down nor by the line that the piece taken off opens. A finished board has
//! no kings and takes part in transfers with no check to test.

use crate::bitboard::Bitboard;
use crate::piece::{Color, Piece};
use crate::position::Position;
use crate::variant::Role;
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TransferError {
    NoPieceOfTheSide,
    King,
    Occupied,
    PawnOnEdgeRank,
    LeavesKingInCheck,
    GivesCheckOnOwnMove,
}

impl fmt::Display for TransferError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TransferError::NoPieceOfTheSide => "no piece of that side on the cell",
            TransferError::King => "the king is never transferred",
            TransferError::Occupied => "the cell on the other board is not empty",
            TransferError::PawnOnEdgeRank => "a pawn may not be put on the first or last rank",
            TransferError::LeavesKingInCheck => "it would leave the side's own king in check",
            TransferError::GivesCheckOnOwnMove => "it would give check on a board where the side is to move",
        })
    }
}
impl std::error::Error for TransferError {}

impl<B: Bitboard> Position<B> {
    /// Whether `color` may take the piece on `cell` off this board.
    pub fn can_lift(&mut self, cell: usize, color: Color) -> Result<Piece, TransferError> {
        let piece = self.piece_at(cell).filter(|p| p.color() == color).ok_or(TransferError::NoPieceOfTheSide)?;
        if self.role(piece.kind()) == Role::Royal {
            return Err(TransferError::King);
        }
        self.remove(cell);
        let exposed = self.king(color).is_some_and(|k| self.attacked(k, !color));
        // A line opened onto the other king, with the lifter to move, would
        // leave the side not to move in check: no position at all.
        let discovers = self.side_to_move() == color && self.king(!color).is_some_and(|k| self.attacked(k, color));
        self.put(cell, piece);
        if exposed {
            return Err(TransferError::LeavesKingInCheck);
        }
        if discovers {
            return Err(TransferError::GivesCheckOnOwnMove);
        }
        Ok(piece)
    }

    /// Whether `piece` may be put on `cell` of this board.
    pub fn can_drop(&mut self, cell: usize, piece: Piece) -> Result<(), TransferError> {
        if self.piece_at(cell).is_some() || self.rifts().has(cell) {
            return Err(TransferError::Occupied);
        }
        let g = self.rules().geometry;
        if self.role(piece.kind()) == Role::Pawn && (g.rank(cell) == 0 || g.rank(cell) == g.height() - 1) {
            return Err(TransferError::PawnOnEdgeRank);
        }
        let color = piece.color();
        if self.side_to_move() == color {
            self.put(cell, piece);
            let check = self.king(!color).is_some_and(|k| self.attacked(k, color));
            self.remove(cell);
            if check {
                return Err(TransferError::GivesCheckOnOwnMove);
            }
        }
        Ok(())
    }

    /// Takes a piece off for a transfer (after `can_lift`). Castling
    /// rights that needed it go, and so does en passant.
    pub fn lift(&mut self, cell: usize) -> Piece {
        let piece = self.remove(cell);
        let keep = self.rules().castling_keep[cell];
        self.set_castling(self.castling_rights() & keep);
        self.clear_en_passant();
        piece
    }

    /// Puts a transferred piece down (after `can_drop`).
    pub fn drop_piece(&mut self, cell: usize, piece: Piece) {
        self.put(cell, piece);
        let keep = self.rules().castling_keep[cell];
        self.set_castling(self.castling_rights() & keep);
        self.clear_en_passant();
    }

    /// A finished board: play stops and both kings leave it; the other
    /// pieces stay for transfers.
    pub fn remove_kings(&mut self) {
        for color in Color::ALL {
            if let Some(k) = self.king(color) {
                self.remove(k);
            }
        }
        self.set_castling(0);
        self.clear_en_passant();
    }
}
