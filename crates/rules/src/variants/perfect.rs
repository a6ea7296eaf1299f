//! Perfect Chess, `shared/rules/seeds/perfect-chess.txt` as RULINGS.md reads it:
//! 9x9, two queens, the slide bishop (`BsW`), symmetric castling in which
//! the castle's own cell must not be attacked, optional promotion, and
//! repetition of the placement only.

use crate::geometry::Geometry;
use crate::variant::{CastlingDef, CastlingStart, DrawRules, PieceDef, PromotionDef, Repetition, Role, Variant};

pub fn variant() -> Variant {
    let piece = |name, letter, betza, role| PieceDef::new(name, letter, betza, role).expect("valid Betza");
    // Piece type indices: P N B R Q K. The castle is written R in FEN.
    Variant {
        name: "perfect".into(),
        geometry: Geometry::new(9, 9).expect("9x9"),
        pieces: vec![
            piece("pawn", 'P', "fmWfcFifmR2", Role::Pawn),
            piece("knight", 'N', "N", Role::Other),
            piece("slide bishop", 'B', "BsW", Role::Other),
            piece("castle", 'R', "R", Role::Other),
            piece("queen", 'Q', "Q", Role::Other),
            piece("king", 'K', "K", Role::Royal),
        ],
        start_fen: "rnbqkqbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBQKQBNR w KQkq - 0 1".into(),
        castling: vec![
            // Right: king e1-h1, castle i1-g1; e1..i1 unattacked.
            CastlingDef { fen_letter: 'K', king_from: (4, 0), king_to: (7, 0), rook_from: (8, 0), rook_to: (6, 0), rook_must_be_safe: true },
            // Left: king e1-b1, castle a1-c1; a1..e1 unattacked.
            CastlingDef { fen_letter: 'Q', king_from: (4, 0), king_to: (1, 0), rook_from: (0, 0), rook_to: (2, 0), rook_must_be_safe: true },
        ],
        castling_start: CastlingStart::Fixed,
        start_positions: None,
        promotion: PromotionDef { ranks: [8, 0], choices: vec![4, 3, 2, 1], mandatory: false },
        // A lone slide bishop can reach both colours, so only the knight is
        // a minor piece here.
        draws: DrawRules { quiet_plies: Some(100), repetition: Repetition::Placement, repetition_count: 3, minor_pieces: vec![1], bare_king_moves: None },
        king_swaps_with: None,
        tiles: None,
        redefinitions: Vec::new(),
    }
}
