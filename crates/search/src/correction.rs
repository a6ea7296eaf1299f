//! Correction history: how far the static evaluation has been from what
//! the search found, by side to move and pawn structure. The evaluation's
//! errors are not random: a structure it misjudges (a passer it values too
//! low, a blocked centre it values too high) it misjudges in every line
//! where that structure stands. Each node's search result teaches the
//! table the gap; the next static evaluation of that structure is moved by
//! what the table holds (Stockfish's `correctionHistory`).
//!
//! Pawn structures are told apart by a hash of the pawns' cells, computed
//! when asked (the position keeps no pawn key), so it serves every board
//! size and every variant whose pieces include pawns. A variant without
//! pawns has one structure, and the table then learns the side's average
//! gap.

use protean_rules::Rules;
use protean_rules::variant::Role;
use protean_rules::{Bitboard, Color, Position};
use std::hash::Hasher;

/// Entries per side (a power of two).
const ENTRIES: usize = 1 << 14;
/// Entries stay within +/- this; an entry counts `GRAIN`ths of a
/// centipawn, so no correction passes `LIMIT / GRAIN` centipawns.
const LIMIT: i32 = 1024;
const GRAIN: i32 = 8;

pub(crate) struct CorrectionHistory {
    table: Vec<i16>,
}

/// A multiply-and-rotate hasher for the few words of a few bitboards (a
/// pawn structure).
#[derive(Default)]
pub(crate) struct StructureHasher(u64);

impl Hasher for StructureHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// The piece kinds whose cells make the pawn structure, as a bit set.
pub(crate) fn pawn_kinds<B: Bitboard>(rules: &Rules<B>) -> u32 {
    (0..rules.piece_types).filter(|&k| rules.roles[k] == Role::Pawn).fold(0, |set, k| set | 1 << k)
}

impl CorrectionHistory {
    pub fn new() -> CorrectionHistory {
        CorrectionHistory { table: vec![0; 2 * ENTRIES] }
    }

    pub fn clear(&mut self) {
        self.table.fill(0);
    }

    /// The entry of the side to move and the structure of the pawns
    /// (pieces of the kinds in the bit set `pawn_kinds`).
    fn index<B: Bitboard>(pos: &Position<B>, pawn_kinds: u32) -> usize {
        let pawns = pos.kinds_bb(pawn_kinds);
        let mut hasher = StructureHasher::default();
        (pawns & pos.pieces(Color::White)).hash(&mut hasher);
        (pawns & pos.pieces(Color::Black)).hash(&mut hasher);
        let side = pos.side_to_move() as usize;
        side * ENTRIES + (hasher.finish() >> 32) as usize % ENTRIES
    }

    /// `raw`, a static evaluation of `pos`, moved by what the table has
    /// learned of its pawn structure.
    pub fn corrected<B: Bitboard>(&self, pos: &Position<B>, pawn_kinds: u32, raw: i32) -> i32 {
        raw + self.table[Self::index(pos, pawn_kinds)] as i32 / GRAIN
    }

    /// A search of `depth` found `score` where the (corrected) static
    /// evaluation said `static_eval`: the entry moves toward the gap, by
    /// more the deeper the search.
    pub fn update<B: Bitboard>(&mut self, pos: &Position<B>, pawn_kinds: u32, depth: i32, score: i32, static_eval: i32) {
        let bonus = ((score - static_eval) * depth / 8).clamp(-LIMIT / 4, LIMIT / 4);
        let entry = &mut self.table[Self::index(pos, pawn_kinds)];
        let e = *entry as i32;
        *entry = (e + bonus - e * bonus.abs() / LIMIT) as i16;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use protean_rules::AnyRules;

    /// The learned correction of `fen`'s structure after `updates` results
    /// `gap` centipawns above a static evaluation of zero, and that of
    /// `other`'s structure, which the updates never saw.
    fn learned(fen: &str, other: &str, updates: usize, gap: i32) -> (i32, i32) {
        let rules = AnyRules::by_name("standard").unwrap();
        let (pos, other) = (rules.from_fen(fen).unwrap(), rules.from_fen(other).unwrap());
        protean_rules::with_position!(&pos, p => {
            let pawns = pawn_kinds(p.rules());
            assert_ne!(pawns, 0);
            let mut table = CorrectionHistory::new();
            for _ in 0..updates {
                table.update(p, pawns, 8, gap, table.corrected(p, pawns, 0));
            }
            let untouched = protean_rules::with_position!(&other, o => table.corrected(o, pawns, 0));
            (table.corrected(p, pawns, 0), untouched)
        })
    }

    #[test]
    fn a_structure_learns_its_gap_within_the_bound_and_others_do_not() {
        let fen = "4k3/pp3ppp/8/3P4/8/8/PP3PPP/4K3 w - - 0 1";
        let other = "4k3/pp3ppp/8/8/3P4/8/PP3PPP/4K3 w - - 0 1";
        let (few, untouched) = learned(fen, other, 3, 60);
        assert!(few > 0 && few < 60, "{few}");
        assert_eq!(untouched, 0);
        let (many, _) = learned(fen, other, 500, 60);
        assert!(many > few && (55..=60).contains(&many), "converges on the gap: {many}");
        let (capped, _) = learned(fen, other, 500, 10_000);
        assert!(capped <= LIMIT / GRAIN && capped > LIMIT / GRAIN - 5, "{capped}");
        let (negative, _) = learned(fen, other, 500, -60);
        assert!((-60..=-55).contains(&negative), "{negative}");
    }
}
