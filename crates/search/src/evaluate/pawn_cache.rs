//! The pawn cache: both sides' pawn structure terms depend on nothing
//! but the pawns' cells (and the rules), so a search thread sums them
//! once per structure and finds them again for most positions.

use super::tables::EvalTables;
use super::terms::{pawn_structure, Summed};
use crate::weights::Score;
use protean_rules::{Bitboard, Color, Position};

/// Both sides' pawn structure terms, summed with their weights, by the
/// pawns' cells: a search thread's positions share few pawn structures,
/// so most evaluations find theirs here.
pub struct PawnCache {
    pub(super) entries: Vec<(u64, [Score; 2])>,
}

/// Entries of a pawn cache (a power of two: 96 KiB a thread).
const PAWN_CACHE_ENTRIES: usize = 1 << 12;

impl PawnCache {
    pub fn new() -> PawnCache {
        PawnCache { entries: vec![(0, [Score::default(); 2]); PAWN_CACHE_ENTRIES] }
    }

    pub fn clear(&mut self) {
        self.entries.fill((0, [Score::default(); 2]));
    }

    /// The key of `pos`'s pawns under the tables `t`: the position's
    /// pawn key, and the rules (a rule change may revalue pawns).
    pub(super) fn key<B: Bitboard>(pos: &Position<B>, t: &EvalTables<B>) -> u64 {
        // Never 0, the key of an empty entry.
        (pos.pawn_key() ^ t.rules_key) | 1
    }

    /// Both sides' pawn structure terms of `pos` (whose pawns, by colour,
    /// are `pawns`) summed with the weights of `t`: from the cache where
    /// it has them, else summed now and kept.
    #[inline]
    pub(super) fn pawn_sums<B: Bitboard>(&mut self, pos: &Position<B>, t: &EvalTables<B>, pawns: [B; 2]) -> [Score; 2] {
        let key = PawnCache::key(pos, t);
        let slot = &mut self.entries[key as usize & (PAWN_CACHE_ENTRIES - 1)];
        if slot.0 == key {
            return slot.1;
        }
        let mut sum = Summed { weights: t.weights(), sides: [Score::default(); 2] };
        for us in Color::ALL {
            pawn_structure(pos, t, us, pawns, &mut sum);
        }
        *slot = (key, sum.sides);
        sum.sides
    }
}

impl Default for PawnCache {
    fn default() -> PawnCache {
        PawnCache::new()
    }
}
