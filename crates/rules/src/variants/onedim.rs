//! One-dimensional chess, `shared/rules/seeds/one-dimensional-chess.txt`
//! as RULINGS.md reads it: 16 cells in a row, the default line-up
//! `KQRBN6nbrqk` (an assumption, the sheet's figure is lost), rook and
//! bishop of range three, the bishop on its own colour only, a knight that
//! jumps two then three cells (or three then two) and may take on the
//! middle cell, and a king that may swap places with its rook beside it.

use crate::geometry::{Geometry, Step};
use crate::variant::{CastlingStart, DrawRules, PieceDef, PromotionDef, Repetition, Role, Variant};

/// The knight's two legs: 2 then 3 cells or 3 then 2, each either way.
fn knight_paths() -> Vec<[Step; 2]> {
    let mut paths = Vec::new();
    for (a, b) in [(2, 3), (3, 2)] {
        for first in [a, -a] {
            for second in [b, -b] {
                paths.push([Step::new(first, 0), Step::new(second, 0)]);
            }
        }
    }
    paths
}

pub fn variant() -> Variant {
    let piece = |name, letter, betza, role| PieceDef::new(name, letter, betza, role).expect("valid Betza");
    // Piece type indices: K Q R B N.
    Variant {
        name: "onedim".into(),
        geometry: Geometry::new(16, 1).expect("16x1"),
        pieces: vec![
            piece("king", 'K', "W", Role::Royal),
            // A queen moves as rook and bishop: up to three cells, or to
            // cells of its own colour up to three such cells away.
            piece("queen", 'Q', "R3D3", Role::Other),
            piece("rook", 'R', "R3", Role::Other),
            // Dabbaba rider of range 3: 2, 4 or 6 cells, blocked only by
            // pieces on the cells it would land on (its own colour).
            piece("bishop", 'B', "D3", Role::Other),
            // No Betza that XBoard reads says "two legs, may take on the
            // middle cell": U (may land anywhere) is what it is told, and
            // XBoard must run with legality testing off (see the README).
            PieceDef::two_leg("knight", 'N', "U", knight_paths(), Role::Other),
        ],
        start_fen: "KQRBN6nbrqk w - - 0 1".into(),
        castling: Vec::new(),
        castling_start: CastlingStart::Fixed,
        start_positions: None,
        promotion: PromotionDef { ranks: [0, 0], choices: Vec::new(), mandatory: true },
        draws: DrawRules { quiet_plies: Some(100), repetition: Repetition::FullPosition, repetition_count: 3, minor_pieces: vec![3, 4], bare_king_moves: None },
        king_swaps_with: Some(2),
        tiles: None,
        redefinitions: Vec::new(),
    }
}
