//! How a game ends: mate, stalemate and the variant's draw rules.

use crate::bitboard::Bitboard;
use crate::piece::Color;
use crate::position::Position;
use crate::variant::Role;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Checkmate {
        winner: Color,
    },
    Stalemate,
    QuietMoves,
    Repetition,
    InsufficientMaterial,
    /// The same tile shifted back and forth too often (Beyond Chess).
    Shuttle,
    /// A bare king not mated in time (Beyond Chess's 30-move rule).
    BareKing,
}

impl Outcome {
    /// The PGN result string.
    pub fn result(self) -> &'static str {
        match self {
            Outcome::Checkmate { winner: Color::White } => "1-0",
            Outcome::Checkmate { winner: Color::Black } => "0-1",
            _ => "1/2-1/2",
        }
    }

    pub fn reason(self) -> &'static str {
        match self {
            Outcome::Checkmate { .. } => "checkmate",
            Outcome::Stalemate => "stalemate",
            Outcome::QuietMoves => "50-move rule",
            Outcome::Repetition => "repetition",
            Outcome::InsufficientMaterial => "insufficient material",
            Outcome::Shuttle => "shuttle limit",
            Outcome::BareKing => "30-move rule",
        }
    }
}

impl<B: Bitboard> Position<B> {
    /// Draws by rule (not stalemate): the move counter, repetition,
    /// insufficient material.
    pub fn draw_by_rule(&self) -> Option<Outcome> {
        let draws = &self.rules().variant.draws;
        if draws.quiet_plies.is_some_and(|n| self.quiet_plies() >= n) {
            return Some(Outcome::QuietMoves);
        }
        if self.repetitions() + 1 >= draws.repetition_count as usize {
            return Some(Outcome::Repetition);
        }
        if self.insufficient_material() {
            return Some(Outcome::InsufficientMaterial);
        }
        if draws.bare_king_moves.is_some_and(|n| self.bare_plies() >= n) {
            return Some(Outcome::BareKing);
        }
        let limit = self.rules().variant.tiles.as_ref().map(|t| t.shuttle_limit);
        if limit.is_some_and(|n| self.shuttle().count >= n) {
            return Some(Outcome::Shuttle);
        }
        None
    }

    /// The game's end in this position, if it has ended. Mate takes
    /// precedence over the move counter, as in FIDE 9.3.
    pub fn outcome(&mut self) -> Option<Outcome> {
        if self.legal_move_list().is_empty() {
            return Some(if self.in_check() {
                Outcome::Checkmate { winner: !self.side_to_move() }
            } else {
                Outcome::Stalemate
            });
        }
        self.draw_by_rule()
    }

    /// No sequence of legal moves can mate: no pawns, and either at most one
    /// minor piece on the board, or only colour-bound pieces all on cells of
    /// one colour.
    pub fn insufficient_material(&self) -> bool {
        let rules = self.rules();
        let variant = &rules.variant;
        let mut others = B::EMPTY;
        for (kind, def) in variant.pieces.iter().enumerate() {
            match def.role {
                Role::Royal => {}
                Role::Pawn => {
                    if self.kind_bb(kind).any() {
                        return false;
                    }
                }
                Role::Other => others |= self.kind_bb(kind),
            }
        }
        if others.is_empty() {
            return true;
        }
        if !others.several() {
            let kind = self.piece_at(others.lowest()).expect("a piece").kind();
            if variant.draws.minor_pieces.contains(&kind) {
                return true;
            }
        }
        let g = rules.geometry;
        let all_bound =
            others.cells().all(|c| variant.pieces[self.piece_at(c).expect("a piece").kind()].is_colourbound());
        let dark = others.cells().filter(|&c| g.is_dark(c)).count();
        all_bound && (dark == 0 || dark == others.count() as usize)
    }
}
