//! The search's margins and reductions as one value, [`SearchParams`], so
//! that they can be read in one place and tuned together (SPSA acts on a
//! set of numbers, not on literals spread through `negamax`). The search
//! reads them from `Options::params`; [`SearchParams::DEFAULT`] holds the
//! values the engine plays with, and changing any of them changes play
//! (and the bench signature). [`SearchParams::TUNABLE`] names each with
//! the range a tuner may try, which a build with the `tune` feature
//! offers as UCI options.
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

/// One number of [`SearchParams`] as a tuner sees it: a name (the
/// field's), the range it may be tried in, and how to read and write it.
/// The two `f64` fields of the reduction table are tuned in hundredths.
#[derive(Clone, Copy)]
pub struct Tunable {
    pub name: &'static str,
    pub min: i32,
    pub max: i32,
    get: fn(&SearchParams) -> i32,
    set: fn(&mut SearchParams, i32),
}

impl Tunable {
    /// The value `params` holds.
    pub fn get(&self, params: &SearchParams) -> i32 {
        (self.get)(params)
    }

    /// Sets it in `params` to `value`; a value out of its range is an
    /// error and changes nothing.
    pub fn set(&self, params: &mut SearchParams, value: i32) -> Result<(), String> {
        if !(self.min..=self.max).contains(&value) {
            return Err(format!("{} is {}..={}, not {value}", self.name, self.min, self.max));
        }
        (self.set)(params, value);
        Ok(())
    }
}

/// A [`Tunable`] of an `i32` field, or of an `f64` one in hundredths.
macro_rules! tunable {
    ($field:ident, $min:expr, $max:expr) => {
        Tunable { name: stringify!($field), min: $min, max: $max, get: |p| p.$field, set: |p, v| p.$field = v }
    };
    ($field:ident, $min:expr, $max:expr, hundredths) => {
        Tunable {
            name: stringify!($field),
            min: $min,
            max: $max,
            get: |p| (p.$field * 100.0).round() as i32,
            set: |p, v| p.$field = f64::from(v) / 100.0,
        }
    };
}

impl SearchParams {
    /// Every number of the search, each with its range: what SPSA tunes
    /// and, in a build with the `tune` feature, what UCI offers as spin
    /// options of the same names.
    pub const TUNABLE: &'static [Tunable] = &[
        tunable!(aspiration_depth, 1, 12),
        tunable!(aspiration_delta, 5, 150),
        tunable!(iir_depth, 2, 12),
        tunable!(rfp_depth, 1, 14),
        tunable!(rfp_margin, 20, 300),
        tunable!(nmp_depth, 1, 8),
        tunable!(nmp_base, 1, 6),
        tunable!(nmp_depth_divisor, 1, 12),
        tunable!(se_depth, 4, 16),
        tunable!(se_entry_depth_margin, 1, 8),
        tunable!(se_beta_margin, 0, 8),
        tunable!(lmp_depth, 1, 16),
        tunable!(lmp_base, 0, 16),
        tunable!(lmp_depth_factor, 0, 8),
        tunable!(quiet_see_depth, 1, 16),
        tunable!(quiet_see_quadratic, 0, 100),
        tunable!(quiet_see_linear, 0, 100),
        tunable!(futility_depth, 1, 14),
        tunable!(futility_base, 0, 400),
        tunable!(futility_margin, 20, 300),
        tunable!(capture_see_depth, 1, 14),
        tunable!(capture_see_margin, 0, 300),
        tunable!(lmr_depth, 1, 8),
        Tunable {
            name: "lmr_moves",
            min: 0,
            max: 8,
            get: |p| p.lmr_moves as i32,
            set: |p, v| p.lmr_moves = v as usize,
        },
        tunable!(lmr_base, 0, 200, hundredths),
        tunable!(lmr_divisor, 100, 600, hundredths),
        tunable!(lmr_pv, 0, 4),
        tunable!(lmr_killer, 0, 4),
        tunable!(lmr_not_improving, 0, 4),
        tunable!(lmr_history_divisor, 1_000, 40_000),
        tunable!(history_bonus_per_depth, 50, 1_000),
        tunable!(history_bonus_offset, 0, 1_000),
        tunable!(history_bonus_max, 500, 8_000),
        tunable!(delta_margin, 0, 1_000),
    ];

    /// The number called `name` (case aside), if there is one.
    pub fn tunable(name: &str) -> Option<&'static Tunable> {
        Self::TUNABLE.iter().find(|t| t.name.eq_ignore_ascii_case(name))
    }

    /// Sets the number called `name` (case aside) to `value`; an unknown
    /// name or a value out of its range is an error and changes nothing.
    pub fn set(&mut self, name: &str, value: i32) -> Result<(), String> {
        Self::tunable(name).ok_or_else(|| format!("no search parameter '{name}'"))?.set(self, value)
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

    #[test]
    fn every_number_is_tunable_once_within_its_range_and_set_by_name() {
        let names: std::collections::HashSet<_> = SearchParams::TUNABLE.iter().map(|t| t.name).collect();
        assert_eq!(names.len(), SearchParams::TUNABLE.len());
        // Every field, by its name in the struct's Debug output.
        let debug = format!("{:?}", SearchParams::DEFAULT);
        assert_eq!(debug.matches(": ").count(), names.len(), "{debug}");
        for t in SearchParams::TUNABLE {
            assert!(debug.contains(&format!("{}: ", t.name)), "{}", t.name);
            let default = t.get(&SearchParams::DEFAULT);
            assert!((t.min..=t.max).contains(&default), "{} {default}", t.name);
            // Each one moves its own field and no other.
            let mut params = SearchParams::DEFAULT;
            let other = if default == t.max { t.min } else { default + 1 };
            params.set(&t.name.to_ascii_uppercase(), other).unwrap();
            assert_eq!(t.get(&params), other, "{}", t.name);
            params.set(t.name, default).unwrap();
            assert_eq!(params, SearchParams::DEFAULT, "{}", t.name);
        }
        let mut params = SearchParams::DEFAULT;
        assert!(params.set("rfp_margin", 10_000).is_err());
        assert!(params.set("no_such_margin", 1).is_err());
        assert_eq!(params, SearchParams::DEFAULT);
        params.set("lmr_divisor", 275).unwrap();
        assert_eq!(params.lmr_divisor, 2.75);
    }
}
