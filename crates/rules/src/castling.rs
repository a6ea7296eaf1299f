//! Castling: the variant's ways to castle compiled into per-colour
//! entries, and the FEN castling field that names them.
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
use crate::fen::FenError;
use crate::geometry::Geometry;
use crate::piece::Color;
use crate::position::Position;
use crate::tables::{Rules, RulesError};
use crate::variant::{CastlingDef, CastlingStart, Role, Variant};
use std::sync::Arc;

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
pub(crate) fn compile<B: Bitboard>(variant: &Variant, entries: &[Entry]) -> Result<(Vec<Castling<B>>, Vec<u8>), RulesError> {
    let g = variant.geometry;
    let by_rook = variant.castles_by_rook();
    let mut table = Vec::new();
    let mut keep = vec![u8::MAX; g.cells()];
    for (color, def) in entries {
        let cell = |(f, r): (u8, u8)| {
            let c = g.cell(f as usize, r as usize);
            if *color == Color::White { c } else { g.mirror_rank(c) }
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
            return Err(RulesError("at most four ways to castle per side".into()));
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
            fen_letter: if *color == Color::White { def.fen_letter.to_ascii_uppercase() } else { def.fen_letter.to_ascii_lowercase() },
        });
    }
    Ok((table, keep))
}

fn back_rank(g: Geometry, color: Color) -> usize {
    if color == Color::White { 0 } else { g.height() - 1 }
}

/// Reads the castling field into rights (and, in Chess960, the rules
/// compiled for the rooks it names).
pub(crate) fn parse_rights<B: Bitboard>(pos: &mut Position<B>, field: &str) -> Result<(), FenError> {
    let rules = pos.rules().clone();
    let variant = &rules.variant;
    if field == "-" {
        pos.set_castling(0);
        return Ok(());
    }
    let g = rules.geometry;
    let CastlingStart::BackRank { rook } = variant.castling_start else {
        let mut rights = 0u8;
        for c in field.chars() {
            let Some(i) = rules.castling.iter().position(|k| k.fen_letter == c) else {
                return Err(FenError(format!("castling right '{c}' is not one of {}", variant.name)));
            };
            if rights >> i & 1 == 1 {
                return Err(FenError(format!("castling right '{c}' is given twice")));
            }
            let k = &rules.castling[i];
            let king_ok = pos.piece_at(k.king_from).is_some_and(|p| p.color() == k.color && Some(p.kind()) == rules.royal);
            let rook_ok = pos.piece_at(k.rook_from).is_some_and(|p| p.color() == k.color && rules.roles[p.kind()] == Role::Other);
            if !king_ok || !rook_ok {
                return Err(FenError(format!("castling right '{c}' without king on {} and rook on {}", g.name(k.king_from), g.name(k.rook_from))));
            }
            rights |= 1 << i;
        }
        pos.set_castling(rights);
        return Ok(());
    };
    let mut entries: Vec<Entry> = Vec::new();
    for c in field.chars() {
        let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
        let rank = back_rank(g, color);
        let Some(king) = pos.king(color).filter(|&k| g.rank(k) == rank) else {
            return Err(FenError(format!("castling right '{c}' without the king on its back rank")));
        };
        let king_file = g.file(king);
        let rooks: Vec<usize> = (0..g.width()).filter(|&f| pos.piece_at(g.cell(f, rank)).is_some_and(|p| p.color() == color && p.kind() == rook)).collect();
        let file = match c.to_ascii_lowercase() {
            'k' => rooks.iter().copied().filter(|&f| f > king_file).max(),
            'q' => rooks.iter().copied().filter(|&f| f < king_file).min(),
            l if l.is_ascii_lowercase() && ((l as u8 - b'a') as usize) < g.width() => Some((l as u8 - b'a') as usize).filter(|f| rooks.contains(f)),
            _ => return Err(FenError(format!("castling right '{c}' is not K, Q or a file letter"))),
        };
        let Some(file) = file else {
            return Err(FenError(format!("castling right '{c}' names no rook on its back rank")));
        };
        let short = file > king_file;
        if entries.iter().any(|(col, d)| *col == color && (d.rook_from.0 as usize > d.king_from.0 as usize) == short) {
            return Err(FenError(format!("castling right '{c}' is a second right on one side")));
        }
        let Some(template) = variant.castling.iter().find(|d| (d.rook_from.0 > d.king_from.0) == short) else {
            return Err(FenError(format!("castling right '{c}': {} has no castling on that side", variant.name)));
        };
        entries.push((color, CastlingDef { king_from: (king_file as u8, 0), rook_from: (file as u8, 0), ..template.clone() }));
    }
    // One order for one layout: White first, the short side first.
    entries.sort_by_key(|(color, d)| (*color as u8, d.rook_from.0 < d.king_from.0));
    let same = entries.len() == rules.castling.len()
        && entries.iter().zip(&rules.castling).all(|((color, d), c)| *color == c.color && g.file(c.king_from) == d.king_from.0 as usize && g.file(c.rook_from) == d.rook_from.0 as usize);
    if !same {
        let compiled = rules.with_castling(&entries).map_err(|e| FenError(format!("castling: {e}")))?;
        pos.set_rules(Arc::new(compiled));
    }
    pos.set_castling(((1u16 << entries.len()) - 1) as u8);
    Ok(())
}

/// The castling field of a position: the rights' letters, in Chess960
/// X-FEN (`K`/`Q` unless another rook stands further out on that side).
pub(crate) fn rights_text<B: Bitboard>(pos: &Position<B>) -> String {
    let rules = pos.rules();
    let g = rules.geometry;
    let outer_rook = |c: &Castling<B>, rook: usize| {
        let rank = g.rank(c.rook_from);
        let (lo, hi) = if g.file(c.rook_from) > g.file(c.king_from) { (g.file(c.rook_from) + 1, g.width()) } else { (0, g.file(c.rook_from)) };
        (lo..hi).any(|f| pos.piece_at(g.cell(f, rank)).is_some_and(|p| p.color() == c.color && p.kind() == rook))
    };
    let text: String = rules
        .castling
        .iter()
        .enumerate()
        .filter(|(i, _)| pos.castling_rights() >> i & 1 == 1)
        .map(|(_, c)| match rules.variant.castling_start {
            CastlingStart::BackRank { rook } if outer_rook(c, rook) => {
                let file = (b'a' + g.file(c.rook_from) as u8) as char;
                if c.color == Color::White { file.to_ascii_uppercase() } else { file }
            }
            _ => c.fen_letter,
        })
        .collect();
    if text.is_empty() { "-".into() } else { text }
}

impl<B: Bitboard> Rules<B> {
    /// These rules with other ways to castle (a Chess960 layout).
    pub(crate) fn with_castling(&self, entries: &[Entry]) -> Result<Rules<B>, RulesError> {
        let (castling, castling_keep) = compile(&self.variant, entries)?;
        Ok(Rules { castling, castling_keep, ..self.clone() })
    }
}

/// Chess960 start position number `n` (0-959, Scharnagl's numbering: 518
/// is the standard one), as the placement of White's back rank.
pub fn chess960_back_rank(n: u32) -> [char; 8] {
    let mut rank = [' '; 8];
    let mut n = (n % 960) as usize;
    // Bishops on a light and a dark square, then the queen, then the
    // knights by a table of their ten placements on the five cells left,
    // then rook, king, rook on the last three.
    rank[2 * (n % 4) + 1] = 'B';
    n /= 4;
    rank[2 * (n % 4)] = 'B';
    n /= 4;
    let empty = |rank: &[char; 8]| (0..8).filter(|&i| rank[i] == ' ').collect::<Vec<_>>();
    rank[empty(&rank)[n % 6]] = 'Q';
    n /= 6;
    const KNIGHTS: [(usize, usize); 10] = [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)];
    let (a, b) = KNIGHTS[n];
    let cells = empty(&rank);
    rank[cells[a]] = 'N';
    rank[cells[b]] = 'N';
    for (cell, piece) in empty(&rank).into_iter().zip(['R', 'K', 'R']) {
        rank[cell] = piece;
    }
    rank
}

/// The FEN of Chess960 start position `n` (X-FEN rights, `KQkq`).
pub fn chess960_fen(n: u32) -> String {
    let white: String = chess960_back_rank(n).iter().collect();
    format!("{}/pppppppp/8/8/8/8/PPPPPPPP/{white} w KQkq - 0 1", white.to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scharnagl_numbers() {
        let rank = |n| chess960_back_rank(n).iter().collect::<String>();
        assert_eq!(rank(518), "RNBQKBNR");
        assert_eq!(rank(0), "BBQNNRKR");
        assert_eq!(rank(959), "RKRNNQBB");
        let all: std::collections::HashSet<String> = (0..960).map(rank).collect();
        assert_eq!(all.len(), 960);
    }
}
