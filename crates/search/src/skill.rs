//! Playing weaker on purpose: `Skill Level` 0-20 and `UCI_Elo`, as
//! Stockfish offers them to GUIs and bots.
//!
//! A level caps the depth and searches four lines; the move is then picked
//! among them by score plus a push that narrows the gaps between the lines
//! and adds noise, both more as the level falls: level 19 mostly keeps its
//! best line, level 0 picks almost at random among four. This is
//! Stockfish's scheme; its figures (the depth
//! cap, the weakness of 120 - 2 x level) are taken as a starting point and
//! what a level is worth was then measured, not assumed: `ELO_BY_LEVEL`
//! holds the measurement, and `UCI_Elo` is read through it.

use std::time::{SystemTime, UNIX_EPOCH};

/// The highest level: full strength.
pub const MAX_LEVEL: f64 = 20.0;

/// Lines searched at a limited level, for the pick to choose among.
pub const LINES: usize = 4;

/// Elo per level, measured against Stockfish 15.1's own `UCI_Elo` levels
/// with `benches/calibrate-skill` (docs/results.md, "Skill levels", has the
/// games and intervals): (level, Elo), rising. Level 12 measured the same
/// as level 10 and is left out; level 14 is the weighted mean of its two
/// runs. Levels 0-2 lie far below Stockfish's lowest level (their bridges
/// through level 3 gave intervals of +/- 1000), so `UCI_Elo` starts at
/// level 3.
pub const ELO_BY_LEVEL: &[(f64, i32)] =
    &[(3.0, 1192), (5.0, 1385), (8.0, 1539), (10.0, 1683), (14.0, 1710), (20.0, 1863)];

/// The lowest and highest `UCI_Elo` that the calibration covers.
pub fn elo_range() -> (i32, i32) {
    (ELO_BY_LEVEL[0].1, ELO_BY_LEVEL[ELO_BY_LEVEL.len() - 1].1)
}

/// A strength below the full one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Skill {
    /// 0 (weakest) to 20 (full strength), fractional from `UCI_Elo`.
    level: f64,
}

impl Skill {
    pub fn from_level(level: f64) -> Skill {
        Skill { level: level.clamp(0.0, MAX_LEVEL) }
    }

    /// The level whose measured Elo is `elo`, read between the measured
    /// points (clamped to the ends of the table).
    pub fn from_elo(elo: i32) -> Skill {
        let table = ELO_BY_LEVEL;
        let level = match table.iter().position(|&(_, e)| e >= elo) {
            None => MAX_LEVEL,
            Some(0) => table[0].0,
            Some(i) => {
                let ((l0, e0), (l1, e1)) = (table[i - 1], table[i]);
                l0 + (l1 - l0) * f64::from(elo - e0) / f64::from(e1 - e0)
            }
        };
        Skill::from_level(level)
    }

    pub fn level(&self) -> f64 {
        self.level
    }

    /// Whether this is full strength (no cap, no random pick).
    pub fn is_full(&self) -> bool {
        self.level >= MAX_LEVEL
    }

    /// The deepest iteration a level searches.
    pub fn depth_cap(&self) -> u32 {
        1 + self.level as u32
    }

    /// Picks one of the lines (their scores, best first, all from the
    /// same iteration): each score gets a push, a share of its gap to the
    /// best plus noise, both larger at weaker levels, and the highest
    /// pushed score wins. Returns the index of the line chosen.
    pub fn pick(&self, scores: &[i32], random: &mut Random) -> usize {
        let Some(&top) = scores.first() else { return 0 };
        let bottom = *scores.last().expect("not empty");
        let weakness = 120.0 - 2.0 * self.level;
        // How far apart the lines are, at most a pawn: the room for noise.
        let spread = f64::from((top - bottom).min(100));
        let mut best = (0, f64::MIN);
        for (i, &score) in scores.iter().enumerate() {
            let noise = random.below(weakness.max(1.0) as u64) as f64;
            let push = (weakness * f64::from(top - score) + spread * noise) / 128.0;
            let value = f64::from(score) + push;
            if value > best.1 {
                best = (i, value);
            }
        }
        best.0
    }
}

/// A small generator for the pick (xorshift64*), seeded from the clock so
/// that games differ.
#[derive(Clone, Debug)]
pub struct Random(u64);

impl Random {
    pub fn from_clock() -> Random {
        let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
        Random::seeded(nanos)
    }

    pub fn seeded(seed: u64) -> Random {
        Random(seed | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_is_read_between_measured_levels() {
        let (low, high) = elo_range();
        assert_eq!(Skill::from_elo(low - 500).level(), ELO_BY_LEVEL[0].0);
        assert_eq!(Skill::from_elo(high + 500).level(), MAX_LEVEL);
        let mut last = -1.0;
        for elo in (low..=high).step_by(10) {
            let level = Skill::from_elo(elo).level();
            assert!(level >= last, "level falls at Elo {elo}");
            last = level;
        }
        for &(level, elo) in ELO_BY_LEVEL {
            assert!((Skill::from_elo(elo).level() - level).abs() < 1e-9);
        }
    }

    #[test]
    fn weaker_levels_stray_from_the_best_line_more_often() {
        let scores = [50, 20, -40, -300];
        let mut random = Random::seeded(7);
        let mut best_kept =
            |level: f64| (0..400).filter(|_| Skill::from_level(level).pick(&scores, &mut random) == 0).count();
        let (weakest, strong) = (best_kept(0.0), best_kept(19.0));
        assert!(weakest < 400, "level 0 never strays");
        assert!(strong > weakest, "level 19 keeps the best line {strong} times, level 0 {weakest}");
        assert!(Skill::from_level(MAX_LEVEL).is_full() && !Skill::from_level(19.5).is_full());
    }
}
