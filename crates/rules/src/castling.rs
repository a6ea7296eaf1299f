//! Castling: the variant's ways to castle compiled into per-colour
//! entries (the FEN castling field that names them is read and written in
//! `fen`).
//!
//! Most variants castle from fixed cells (`Variant::castling`; a right is
//! the entry's FEN letter). In Chess960 (`CastlingStart::BackRank`) the
//! king and rooks start anywhere on the back rank, so the entries come
//! from the position: each right names its rook, as X-FEN (`K`/`Q`: the
//! outermost rook on that side, or the rook's file letter when another
//! rook stands further out) or Shredder-FEN (always the file letter), and
//! the rules are recompiled for that layout. King and rook end where they
//! would in chess (`g1`/`f1`, `c1`/`d1`), and the move is written as the
//! king taking its own rook (`e1h1`), as UCI's Chess960 mode has it: the
//! king may not move at all (`g1` castling short), and the rook's cell
//! always tells the two castlings apart.

use crate::bitboard::Bitboard;
use crate::piece::Color;
use crate::variant::{CastlingDef, Variant};

/// One way to castle for one colour, in cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Castling<B> {
    pub color: Color,
    pub king_from: usize,
    pub king_to: usize,
    pub rook_from: usize,
    pub rook_to: usize,
    /// The cell the move names: where the king goes, or in Chess960 the
    /// rook it takes.
    pub move_to: usize,
    pub must_be_empty: B,
    pub must_be_safe: B,
    pub fen_letter: char,
}

/// A way to castle for one colour, its cells from White's side (Black's
/// are mirrored onto its own back rank).
pub(crate) type Entry = (Color, CastlingDef);

/// The entries of a variant that castles from fixed cells.
pub(crate) fn fixed_entries(variant: &Variant) -> Vec<Entry> {
    Color::ALL.into_iter().flat_map(|color| variant.castling.iter().map(move |d| (color, d.clone()))).collect()
}

/// Compiles entries into the castling table and, per cell, the rights
/// kept when a piece leaves or enters it. A right is the entry's bit.
pub(crate) fn compile<B: Bitboard>(
    variant: &Variant,
    entries: &[Entry],
) -> Result<(Vec<Castling<B>>, Vec<u8>), String> {
    let g = variant.geometry;
    let by_rook = variant.castles_by_rook();
    let mut table = Vec::new();
    let mut keep = vec![u8::MAX; g.cells()];
    for (color, def) in entries {
        let cell = |(f, r): (u8, u8)| {
            let c = g.cell(f as usize, r as usize);
            if *color == Color::White {
                c
            } else {
                g.mirror_rank(c)
            }
        };
        let (kf, kt, rf, rt) = (cell(def.king_from), cell(def.king_to), cell(def.rook_from), cell(def.rook_to));
        let span = |a: usize, b: usize| {
            let (lo, hi) = (a.min(b), a.max(b));
            (lo..=hi).fold(B::EMPTY, |acc, c| acc | B::cell(c))
        };
        let must_be_empty = (span(kf, kt) | span(rf, rt)) & !B::cell(kf) & !B::cell(rf);
        let mut must_be_safe = span(kf, kt);
        if def.rook_must_be_safe {
            must_be_safe |= span(kf, rf);
        }
        let bit = table.len();
        if bit >= 8 {
            return Err("at most four ways to castle per side".into());
        }
        keep[kf] &= !(1 << bit);
        keep[rf] &= !(1 << bit);
        table.push(Castling {
            color: *color,
            king_from: kf,
            king_to: kt,
            rook_from: rf,
            rook_to: rt,
            move_to: if by_rook { rf } else { kt },
            must_be_empty,
            must_be_safe,
            fen_letter: if *color == Color::White {
                def.fen_letter.to_ascii_uppercase()
            } else {
                def.fen_letter.to_ascii_lowercase()
            },
        });
    }
    Ok((table, keep))
}
