//! Beyond Chess, `shared/rules/seeds/beyond-chess.txt` as RULINGS.md reads
//! it: chess pieces on 64 tiles that move. The tiles lie in a 16x16 arena
//! with the 8x8 frame in the middle (four cells of room on every side); a
//! cell without a tile is a rift (`*` in FEN). A turn is a piece move and
//! then a tile shift, or a geret; see `tiles.rs` for how tiles move.
//!
//! Everything else is ordinary data: pawns promote on the whole arena rank
//! where the opponent's king started, castling needs its cells to be tiles
//! (a rift blocks it as a piece would), and the draw rules are the 30-move
//! bare-king rule, repetition of the whole state (tiles included) and
//! insufficient material, with no 50-move rule.

use crate::geometry::Geometry;
use crate::variant::{CastlingDef, CastlingStart, DrawRules, PromotionDef, Repetition, TileRules, Variant};

/// The arena's size, and where the frame's a1 lies in it.
pub const ARENA: u8 = 16;
pub const FRAME_ORIGIN: u8 = 4;

pub fn variant() -> Variant {
    let o = FRAME_ORIGIN;
    let rift_row = "*".repeat(ARENA as usize);
    let framed = |row: &str| format!("****{row}****");
    let mut rows: Vec<String> = vec![rift_row.clone(); 4];
    rows.extend(["rnbqkbnr", "pppppppp", "8", "8", "8", "8", "PPPPPPPP", "RNBQKBNR"].map(framed));
    rows.extend(vec![rift_row; 4]);
    // Chess's pieces (P N B R Q K), on tiles in the arena.
    Variant {
        name: "beyond".into(),
        geometry: Geometry::new(ARENA, ARENA).and_then(|g| g.with_origin(o, o)).expect("16x16"),
        start_fen: format!("{} w KQkq - 0 1 -", rows.join("/")),
        castling: vec![
            CastlingDef { fen_letter: 'K', king_from: (o + 4, o), king_to: (o + 6, o), rook_from: (o + 7, o), rook_to: (o + 5, o), rook_must_be_safe: false },
            CastlingDef { fen_letter: 'Q', king_from: (o + 4, o), king_to: (o + 2, o), rook_from: (o, o), rook_to: (o + 3, o), rook_must_be_safe: false },
        ],
        // The ranks where the kings start, across the whole arena.
        castling_start: CastlingStart::Fixed,
        start_positions: None,
        promotion: PromotionDef { ranks: [o + 7, o], choices: vec![4, 3, 2, 1], mandatory: true },
        draws: DrawRules {
            quiet_plies: None,
            repetition: Repetition::FullPosition,
            repetition_count: 3,
            minor_pieces: vec![1, 2],
            bare_king_moves: Some(30),
        },
        tiles: Some(TileRules { geret: true, shuttle_limit: 8 }),
        ..super::standard::variant()
    }
}
