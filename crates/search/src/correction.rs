//! Correction history: how far the static evaluation has been from what
//! the search found, by side to move and pawn structure, and by each
//! side's other pieces. The evaluation's errors are not random: a
//! structure it misjudges (a passer it values too low, a blocked centre
//! it values too high) it misjudges in every line where that structure
//! stands, and so with a king's shelter or a piece stranded on the rim
//! whatever the pawns do. Each node's search result teaches the tables
//! the gap; the next static evaluation of that structure is moved by what
//! they hold (Stockfish's `correctionHistory` and
//! `nonPawnCorrectionHistory`).
//!
//! Positions are told apart by the keys the position keeps by make and
//! unmake (`Position::pawn_key`, `Position::non_pawn_key`), so every
//! board size and variant is served at the cost of a lookup. A variant
//! without pawns has one pawn structure, and that table then learns the
//! side's average gap.

use protean_rules::{Bitboard, Color, Position};

/// Entries per side (a power of two).
const ENTRIES: usize = 1 << 14;
/// Entries stay within +/- this; an entry counts `GRAIN`ths of a
/// centipawn. The pawns' entry counts whole and each side's pieces' entry
/// half, so no correction passes `2 * LIMIT / GRAIN` centipawns.
const LIMIT: i32 = 1024;
const GRAIN: i32 = 8;

pub(crate) struct CorrectionHistory {
    /// By side to move and pawn structure.
    pawns: Vec<i16>,
    /// By side to move, colour, and that colour's pieces but pawns.
    pieces: Vec<i16>,
}

/// Where a position's gaps are kept: the entry of its pawn structure, and
/// the entries of each colour's other pieces.
struct Slots {
    pawns: usize,
    pieces: [usize; 2],
}

impl Slots {
    fn of<B: Bitboard>(pos: &Position<B>) -> Slots {
        let side = pos.side_to_move() as usize;
        let entry = |key: u64| (key >> 32) as usize % ENTRIES;
        Slots {
            pawns: side * ENTRIES + entry(pos.pawn_key()),
            pieces: Color::ALL.map(|color| (side * 2 + color as usize) * ENTRIES + entry(pos.non_pawn_key(color))),
        }
    }
}

impl CorrectionHistory {
    pub fn new() -> CorrectionHistory {
        CorrectionHistory { pawns: vec![0; 2 * ENTRIES], pieces: vec![0; 4 * ENTRIES] }
    }

    pub fn clear(&mut self) {
        self.pawns.fill(0);
        self.pieces.fill(0);
    }

    /// `raw`, a static evaluation of `pos`, moved by what the tables have
    /// learned of its pawn structure and of each side's other pieces.
    pub fn corrected<B: Bitboard>(&self, pos: &Position<B>, raw: i32) -> i32 {
        let s = Slots::of(pos);
        let sum = 2 * self.pawns[s.pawns] as i32 + self.pieces[s.pieces[0]] as i32 + self.pieces[s.pieces[1]] as i32;
        raw + sum / (2 * GRAIN)
    }

    /// A search of `depth` found `score` where the (corrected) static
    /// evaluation said `static_eval`: the entries move toward the gap, by
    /// more the deeper the search.
    pub fn update<B: Bitboard>(&mut self, pos: &Position<B>, depth: i32, score: i32, static_eval: i32) {
        let bonus = ((score - static_eval) * depth / 8).clamp(-LIMIT / 4, LIMIT / 4);
        let s = Slots::of(pos);
        let learn = |entry: &mut i16| {
            let e = *entry as i32;
            *entry = (e + bonus - e * bonus.abs() / LIMIT) as i16;
        };
        learn(&mut self.pawns[s.pawns]);
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
            let mut table = CorrectionHistory::new();
            for _ in 0..updates {
                table.update(p, 8, gap, table.corrected(p, 0));
            }
            let others = others.iter().map(|fen| protean_rules::with_position!(&rules.from_fen(fen).unwrap(), o => table.corrected(o, 0))).collect();
            (table.corrected(p, 0), others)
        })
    }

    #[test]
    fn a_position_learns_its_gap_within_the_bound_and_others_by_what_they_share() {
        let fen = "4k3/pp3ppp/8/3P4/8/8/PP3PPP/4K3 w - - 0 1";
        // The same pieces, other pawns; the same pawns, another white
        // king; a black lone king on g6, on h8, with its rook: nothing
        // the same.
        let others = [
            "4k3/pp3ppp/8/8/3P4/8/PP3PPP/4K3 w - - 0 1",
            "4k3/pp3ppp/8/3P4/8/8/PP3PPP/3K4 w - - 0 1",
            "8/8/6k1/8/8/8/8/3K4 w - - 0 1",
            "7k/8/8/8/8/8/8/3K4 w - - 0 1",
            "3k3r/pp3ppp/8/8/3P4/8/PP3PPP/3K4 w - - 0 1",
        ];
        let (few, _) = learned(fen, &others, 3, 60);
        assert!(few > 0 && few < 60, "{few}");
        let (many, shared) = learned(fen, &others, 500, 60);
        assert!(many > few && (55..=60).contains(&many), "converges on the gap: {many}");
        // The pawns' entry is half the correction, each side's pieces' a
        // quarter.
        assert!((many / 2 - 2..=many / 2 + 2).contains(&shared[0]), "{shared:?}");
        assert!((3 * many / 4 - 2..=3 * many / 4 + 2).contains(&shared[1]), "{shared:?}");
        assert_eq!(&shared[2..], [0, 0, 0]);
        let (capped, _) = learned(fen, &others, 500, 10_000);
        assert!(capped <= 2 * LIMIT / GRAIN && capped > 2 * LIMIT / GRAIN - 5, "{capped}");
        let (negative, _) = learned(fen, &others, 500, -60);
        assert!((-60..=-55).contains(&negative), "{negative}");
    }
}
