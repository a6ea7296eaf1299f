//! Standard chess (FIDE), `shared/rules/seeds/standard-chess.txt`.

use crate::geometry::Geometry;
use crate::variant::{CastlingDef, CastlingStart, DrawRules, PieceDef, PromotionDef, Repetition, Role, Variant};

pub fn variant() -> Variant {
    let piece = |name, letter, betza, role| PieceDef::new(name, letter, betza, role).expect("valid Betza");
    // Piece type indices: P N B R Q K.
    Variant {
        name: "standard".into(),
        geometry: Geometry::new(8, 8).expect("8x8"),
        pieces: vec![
            piece("pawn", 'P', "fmWfcFifmR2", Role::Pawn),
            piece("knight", 'N', "N", Role::Other),
            piece("bishop", 'B', "B", Role::Other),
            piece("rook", 'R', "R", Role::Other),
            piece("queen", 'Q', "Q", Role::Other),
            piece("king", 'K', "K", Role::Royal),
        ],
        start_fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(),
        castling: vec![
            CastlingDef { fen_letter: 'K', king_from: (4, 0), king_to: (6, 0), rook_from: (7, 0), rook_to: (5, 0), rook_must_be_safe: false },
            CastlingDef { fen_letter: 'Q', king_from: (4, 0), king_to: (2, 0), rook_from: (0, 0), rook_to: (3, 0), rook_must_be_safe: false },
        ],
        castling_start: CastlingStart::Fixed,
        start_positions: None,
        promotion: PromotionDef { ranks: [7, 0], choices: vec![4, 3, 2, 1], mandatory: true },
        draws: DrawRules { quiet_plies: Some(100), repetition: Repetition::FullPosition, repetition_count: 3, minor_pieces: vec![1, 2], bare_king_moves: None },
        king_swaps_with: None,
        tiles: None,
        redefinitions: Vec::new(),
    }
}
