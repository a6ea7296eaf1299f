//! The search's margins and reductions as one value, [`SearchParams`], so
//! that they can be read in one place and tuned together (SPSA acts on a
//! set of numbers, not on literals spread through `negamax`). The search
//! reads them from `Options::params`; [`SearchParams::DEFAULT`] holds the
//! values the engine plays with, and changing any of them changes play
//! (and the bench signature).
//!
//! Depths are in plies, margins in centipawns. Each field's doc line says
//! where the search uses it; the `search` module explains why each pruning
//! exists.

/// The numbers that shape the tree: when a pruning, reduction or
/// extension applies (depths), and how far it reaches (margins).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchParams {
    /// The first depth at which the first iteration's score sets an
    /// aspiration window around the next.
    pub aspiration_depth: i32,
    /// Half the first aspiration window's width; it doubles on each
    /// failure.
    pub aspiration_delta: i32,
    /// The least depth at which a node without a hash move is searched a
    /// ply shallower (internal iterative reduction).
    pub iir_depth: i32,
    /// The greatest depth at which reverse futility returns the evaluation.
    pub rfp_depth: i32,
    /// Reverse futility's margin per ply of depth (less a ply while the
    /// side is improving).
    pub rfp_margin: i32,
    /// The least depth at which the null move is tried.
    pub nmp_depth: i32,
    /// The null move's reduction at any depth...
    pub nmp_base: i32,
    /// ...plus one more ply for every this many of depth.
    pub nmp_depth_divisor: i32,
    /// The least depth at which a hash move is tested for being singular.
    pub se_depth: i32,
    /// How much shallower than the node the hash entry may be for the test.
    pub se_entry_depth_margin: i32,
    /// The singular test's beta lies this much per ply of depth below the
    /// hash score.
    pub se_beta_margin: i32,
    /// The greatest depth at which late move pruning drops quiet moves.
    pub lmp_depth: i32,
    /// Late move pruning's count of quiet moves at any depth...
    pub lmp_base: i32,
    /// ...plus this many times the depth squared (halved while the side is
    /// not improving).
    pub lmp_depth_factor: i32,
    /// The greatest reduced depth at which a quiet move that loses its
    /// piece by static exchange is pruned.
    pub quiet_see_depth: i32,
    /// The exchange loss a quiet move may risk, per reduced depth squared...
    pub quiet_see_quadratic: i32,
    /// ...plus this much per reduced depth.
    pub quiet_see_linear: i32,
    /// The greatest reduced depth at which futility prunes a quiet move.
    pub futility_depth: i32,
    /// Futility's margin at any depth...
    pub futility_base: i32,
    /// ...plus this much per reduced depth.
    pub futility_margin: i32,
    /// The greatest depth at which a capture that loses by static exchange
    /// is pruned.
    pub capture_see_depth: i32,
    /// The exchange loss a capture may risk, per ply of depth.
    pub capture_see_margin: i32,
    /// The least depth at which late moves are reduced.
    pub lmr_depth: i32,
    /// How many moves (one more at PV nodes) are searched before the
    /// first reduced one.
    pub lmr_moves: usize,
    /// The reduction table's constant term: `base + ln(depth) ln(move) / divisor`.
    pub lmr_base: f64,
    /// The reduction table's divisor (see `lmr_base`).
    pub lmr_divisor: f64,
    /// Plies of reduction taken off at PV nodes.
    pub lmr_pv: i32,
    /// Plies of reduction taken off for a killer move.
    pub lmr_killer: i32,
    /// Plies of reduction added where the side is not improving.
    pub lmr_not_improving: i32,
    /// History points per ply of reduction taken off (or, below zero,
    /// added).
    pub lmr_history_divisor: i32,
    /// A cutoff's history bonus per ply of depth...
    pub history_bonus_per_depth: i32,
    /// ...less this much...
    pub history_bonus_offset: i32,
    /// ...and at most this much.
    pub history_bonus_max: i32,
    /// Quiescence skips a capture whose victim, with this margin, leaves
    /// the stand-pat score below alpha (delta pruning).
    pub delta_margin: i32,
}

impl SearchParams {
    /// The values the engine plays with.
    pub const DEFAULT: SearchParams = SearchParams {
        aspiration_depth: 5,
        aspiration_delta: 30,
        iir_depth: 4,
        rfp_depth: 6,
        rfp_margin: 90,
        nmp_depth: 3,
        nmp_base: 3,
        nmp_depth_divisor: 4,
        se_depth: 8,
        se_entry_depth_margin: 3,
        se_beta_margin: 2,
        lmp_depth: 8,
        lmp_base: 4,
        lmp_depth_factor: 2,
        quiet_see_depth: 8,
        quiet_see_quadratic: 25,
        quiet_see_linear: 20,
        futility_depth: 6,
        futility_base: 120,
        futility_margin: 100,
        capture_see_depth: 6,
        capture_see_margin: 90,
        lmr_depth: 3,
        lmr_moves: 2,
        lmr_base: 0.75,
        lmr_divisor: 2.25,
        lmr_pv: 1,
        lmr_killer: 1,
        lmr_not_improving: 1,
        lmr_history_divisor: 12_288,
        history_bonus_per_depth: 300,
        history_bonus_offset: 200,
        history_bonus_max: 3000,
        delta_margin: 200,
    };

    /// How many quiet moves a node at `depth` searches before late move
    /// pruning drops the rest: twice as many where the side is improving.
    pub(crate) fn late_move_count(&self, depth: i32, improving: bool) -> usize {
        ((self.lmp_base + self.lmp_depth_factor * depth * depth) / (2 - i32::from(improving))) as usize
    }

    /// What a cutoff at `depth` adds to the cutting move's histories (and
    /// takes from the moves tried before it): linear in depth, so that deep
    /// cutoffs, which say more, count more, but capped so that a single one
    /// does not swamp the table (entries stay within +/- 16,384).
    pub(crate) fn history_bonus(&self, depth: i32) -> i32 {
        (self.history_bonus_per_depth * depth - self.history_bonus_offset).clamp(0, self.history_bonus_max)
    }
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams::DEFAULT
    }
}

/// Late move reductions by depth and move number (both capped at 63),
/// built from a `SearchParams`' `lmr_base` and `lmr_divisor`.
pub(crate) struct LateMoveReductions {
    table: [[u8; 64]; 64],
    /// The `(lmr_base, lmr_divisor)` the table was built from.
    built_from: (f64, f64),
}

impl LateMoveReductions {
    pub fn new(params: &SearchParams) -> LateMoveReductions {
        let mut table = [[0u8; 64]; 64];
        for (d, row) in table.iter_mut().enumerate().skip(1) {
            for (n, r) in row.iter_mut().enumerate().skip(1) {
                *r = (params.lmr_base + (d as f64).ln() * (n as f64).ln() / params.lmr_divisor) as u8;
            }
        }
        LateMoveReductions { table, built_from: (params.lmr_base, params.lmr_divisor) }
    }

    /// Rebuilds the table if `params` asks for another one.
    pub fn prepare(&mut self, params: &SearchParams) {
        if self.built_from != (params.lmr_base, params.lmr_divisor) {
            *self = LateMoveReductions::new(params);
        }
    }

    /// The reduction of the `n`th move (from 0) at `depth`.
    #[inline]
    pub fn get(&self, depth: i32, n: usize) -> i32 {
        i32::from(self.table[(depth as usize).min(63)][n.min(63)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reduction_table_follows_its_parameters() {
        let default = LateMoveReductions::new(&SearchParams::DEFAULT);
        assert_eq!(default.get(0, 10), 0);
        assert_eq!(default.get(10, 0), 0);
        assert_eq!(default.get(1, 1), 0);
        assert!(default.get(20, 30) > default.get(5, 5));
        let mut rebuilt = LateMoveReductions::new(&SearchParams::DEFAULT);
        rebuilt.prepare(&SearchParams { lmr_base: 2.0, ..SearchParams::DEFAULT });
        assert_eq!(rebuilt.get(1, 1), 2);
        rebuilt.prepare(&SearchParams::DEFAULT);
        assert_eq!(rebuilt.get(1, 1), 0);
    }
}
