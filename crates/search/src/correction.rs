//! Correction history: how far the static evaluation has been from what
//! the search found, by side to move and pawn structure, and by each
//! side's other pieces. The evaluation's
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
//!
//! A second table learns the same gaps by each side's other pieces (a
//! hash of every other kind's cells, the king's among them, one entry per
//! colour; Stockfish's `nonPawnCorrectionHistory`): an evaluation that
//! misjudges a king's shelter or a piece stranded on the rim misjudges
//! it whatever the pawns do. Each side's entry counts half as much as the
//! pawns' entry.

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
    /// By side to move and pawn structure.
    table: Vec<i16>,
    /// By side to move, colour, and that colour's pieces but pawns.
    pieces: Vec<i16>,
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

/// Where a position's gaps are kept: the entry of its pawn structure,
/// and the entries of each side's other pieces (all of them, the king's
/// cell among them).
struct Slots {
    pawns: usize,
    pieces: [usize; 2],
}

impl CorrectionHistory {
    pub fn new() -> CorrectionHistory {
        CorrectionHistory { table: vec![0; 2 * ENTRIES], pieces: vec![0; 4 * ENTRIES] }
    }

    pub fn clear(&mut self) {
        self.table.fill(0);
        self.pieces.fill(0);
    }

    /// The entries of `pos` for the side to move: its pawn structure's
    /// (pieces of the kinds in the bit set `pawn_kinds`), and each
    /// colour's other pieces'.
    fn slots<B: Bitboard>(pos: &Position<B>, pawn_kinds: u32) -> Slots {
        let pawns = pos.kinds_bb(pawn_kinds);
        let mut hasher = StructureHasher::default();
        (pawns & pos.pieces(Color::White)).hash(&mut hasher);
        (pawns & pos.pieces(Color::Black)).hash(&mut hasher);
        let side = pos.side_to_move() as usize;
        let pieces = Color::ALL.map(|color| {
            let mut hasher = StructureHasher::default();
            for kind in 0..pos.rules().piece_types {
                if pawn_kinds >> kind & 1 == 0 {
                    pos.pieces_of(color, kind).hash(&mut hasher);
                }
            }
            (side * 2 + color as usize) * ENTRIES + (hasher.finish() >> 32) as usize % ENTRIES
        });
        Slots { pawns: side * ENTRIES + (hasher.finish() >> 32) as usize % ENTRIES, pieces }
    }

    /// `raw`, a static evaluation of `pos`, moved by what the table has
    /// learned of its pawn structure and of each side's other pieces (each
    /// side's entry counts half as much as the pawns').
    pub fn corrected<B: Bitboard>(&self, pos: &Position<B>, pawn_kinds: u32, raw: i32) -> i32 {
        let s = Self::slots(pos, pawn_kinds);
        let sum = 2 * self.table[s.pawns] as i32 + self.pieces[s.pieces[0]] as i32 + self.pieces[s.pieces[1]] as i32;
        raw + sum / (2 * GRAIN)
    }

    /// A search of `depth` found `score` where the (corrected) static
    /// evaluation said `static_eval`: the entries move toward the gap, by
    /// more the deeper the search.
    pub fn update<B: Bitboard>(&mut self, pos: &Position<B>, pawn_kinds: u32, depth: i32, score: i32, static_eval: i32) {
        let bonus = ((score - static_eval) * depth / 8).clamp(-LIMIT / 4, LIMIT / 4);
        let s = Self::slots(pos, pawn_kinds);
        let learn = |entry: &mut i16| {
            let e = *entry as i32;
            *entry = (e + bonus - e * bonus.abs() / LIMIT) as i16;
        };
        learn(&mut self.table[s.pawns]);
        learn(&mut self.pieces[s.pieces[0]]);
        learn(&mut self.pieces[s.pieces[1]]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use protean_rules::AnyRules;

    /// The learned correction of `fen` after `updates` results `gap`
    /// centipawns above a static evaluation of zero, and that of each of
    /// `others`, which the updates never saw.
    fn learned(fen: &str, others: &[&str], updates: usize, gap: i32) -> (i32, Vec<i32>) {
        let rules = AnyRules::by_name("standard").unwrap();
        let pos = rules.from_fen(fen).unwrap();
        protean_rules::with_position!(&pos, p => {
            let pawns = pawn_kinds(p.rules());
            assert_ne!(pawns, 0);
            let mut table = CorrectionHistory::new();
            for _ in 0..updates {
                table.update(p, pawns, 8, gap, table.corrected(p, pawns, 0));
            }
            let others = others.iter().map(|fen| protean_rules::with_position!(&rules.from_fen(fen).unwrap(), o => table.corrected(o, pawns, 0))).collect();
            (table.corrected(p, pawns, 0), others)
        })
    }

    #[test]
    fn a_position_learns_its_gap_within_the_bound_and_others_by_what_they_share() {
        let fen = "4k3/pp3ppp/8/3P4/8/8/PP3PPP/4K3 w - - 0 1";
        // The same pieces, other pawns; the same pawns, another white
        // king; nothing the same. (A lone king on the last ranks is a
        // poor key: the multiply of `StructureHasher` leaves the index's
        // bits empty for a single bit that high, so Black's lone kings
        // from g6 on share one entry, and the third has a black rook.)
        let others = ["4k3/pp3ppp/8/8/3P4/8/PP3PPP/4K3 w - - 0 1", "4k3/pp3ppp/8/3P4/8/8/PP3PPP/3K4 w - - 0 1", "3k3r/pp3ppp/8/8/3P4/8/PP3PPP/3K4 w - - 0 1"];
        let (few, _) = learned(fen, &others, 3, 60);
        assert!(few > 0 && few < 60, "{few}");
        let (many, shared) = learned(fen, &others, 500, 60);
        assert!(many > few && (55..=60).contains(&many), "converges on the gap: {many}");
        // The pawns' entry is half the correction, each side's pieces' a
        // quarter.
        assert!((many / 2 - 2..=many / 2 + 2).contains(&shared[0]), "{shared:?}");
        assert!((3 * many / 4 - 2..=3 * many / 4 + 2).contains(&shared[1]), "{shared:?}");
        assert_eq!(shared[2], 0);
        let (capped, _) = learned(fen, &others, 500, 10_000);
        assert!(capped <= 2 * LIMIT / GRAIN && capped > 2 * LIMIT / GRAIN - 5, "{capped}");
        let (negative, _) = learned(fen, &others, 500, -60);
        assert!((-60..=-55).contains(&negative), "{negative}");
    }
}
