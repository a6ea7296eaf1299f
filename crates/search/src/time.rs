//! Search limits and time management.

use protean_rules::{Color, Move};
use std::time::Duration;

/// What `go` asked for (UCI's terms).
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    pub time: [Option<Duration>; 2],
    pub increment: [Duration; 2],
    pub moves_to_go: Option<u32>,
    /// Find a mate in at most this many moves.
    pub mate: Option<u32>,
    pub infinite: bool,
    pub ponder: bool,
    /// Root moves to consider; empty means all.
    pub search_moves: Vec<Move>,
}

/// The clock's floor, in Move Overheads (100 ms at the default 10 ms).
const FLOOR_IN_OVERHEADS: u32 = 10;

/// When to stop: a soft limit (no new iteration after it) and a hard one
/// (abort the iteration), from the clock at the start of the search.
#[derive(Clone, Copy, Debug)]
pub struct Deadline {
    pub soft: Option<Duration>,
    pub hard: Option<Duration>,
}

impl Limits {
    /// Budget for one move. `overhead` is UCI's Move Overhead: time the GUI
    /// and the pipes lose per move, kept in reserve.
    pub fn deadline(&self, us: Color, overhead: Duration) -> Deadline {
        if self.infinite {
            return Deadline { soft: None, hard: None };
        }
        if let Some(t) = self.movetime {
            let t = t.saturating_sub(overhead).max(Duration::from_millis(1));
            return Deadline { soft: Some(t), hard: Some(t) };
        }
        let Some(left) = self.time[us as usize] else {
            return Deadline { soft: None, hard: None };
        };
        let inc = self.increment[us as usize];
        let moves = self.moves_to_go.unwrap_or(30).clamp(1, 50);
        // The clock is never spent below a floor: a busy machine delays an
        // answer by tens of milliseconds now and then, and an engine living
        // on its increment just above zero loses on time sooner or later
        // (Flexichess at 2+0.02 lost 2% of its games so). Below the floor
        // the engine answers at once and the increment fills the clock up.
        let usable = left.saturating_sub(overhead.saturating_mul(FLOOR_IN_OVERHEADS));
        // Every move to come loses `overhead` to the GUI and the pipes, so
        // that much is kept back for each of them, as Stockfish does.
        let reserve = overhead.saturating_mul(moves + 2);
        let spendable = (usable + inc.saturating_mul(moves - 1)).saturating_sub(reserve);
        let soft = spendable / moves;
        // Never more than a third of what may be used, so a slow move cannot
        // lose on time.
        let hard = (soft * 4).min(usable.saturating_sub(overhead) / 3).max(Duration::from_millis(1));
        Deadline { soft: Some(soft.min(hard)), hard: Some(hard) }
    }
}

/// How settled the search looks after an iteration, which scales the
/// soft limit: a best move that has held for several iterations and took
/// most of the nodes needs less time; one that just changed, shares the
/// nodes with others, or whose score is falling needs more.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// Iterations in a row that ended with the same best move.
    pub stable_iterations: usize,
    /// The best move's share of the nodes searched below the root.
    pub best_move_share: f64,
    /// How far the score fell from the iteration before (centipawns; a
    /// rise counts as none).
    pub score_drop: i32,
}

impl Progress {
    /// The factor to apply to the soft limit.
    pub fn soft_scale(&self) -> f64 {
        const BY_STABILITY: [f64; 5] = [2.2, 1.4, 1.1, 0.9, 0.8];
        let stability = BY_STABILITY[self.stable_iterations.min(BY_STABILITY.len() - 1)];
        let share = 1.6 - self.best_move_share.clamp(0.0, 1.0);
        let drop = 1.0 + self.score_drop.clamp(0, 60) as f64 / 100.0;
        stability * share * drop
    }
}

impl Deadline {
    /// Whether a search that has run `elapsed` and stands at `progress`
    /// should start no new iteration. A fixed move time is used whole.
    pub fn soft_reached(&self, elapsed: Duration, progress: Option<Progress>) -> bool {
        let Some(soft) = self.soft else { return false };
        let scaled = match (progress, self.hard) {
            (Some(p), Some(hard)) if soft < hard => soft.mul_f64(p.soft_scale()).min(hard),
            _ => soft,
        };
        elapsed >= scaled
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(left_ms: u64, inc_ms: u64) -> Deadline {
        let limits = Limits {
            time: [Some(Duration::from_millis(left_ms)); 2],
            increment: [Duration::from_millis(inc_ms); 2],
            ..Limits::default()
        };
        limits.deadline(Color::White, Duration::from_millis(10))
    }

    #[test]
    fn a_clock_near_its_floor_is_not_spent() {
        let low = clock(90, 20);
        assert_eq!(low.hard, Some(Duration::from_millis(1)), "{low:?}");
        // Just above the floor the budget stays below the increment, so the
        // clock grows back.
        let near = clock(150, 20);
        assert!(near.hard.unwrap() < Duration::from_millis(20), "{near:?}");
    }

    #[test]
    fn a_full_clock_is_shared_out() {
        let d = clock(60_000, 100);
        let (soft, hard) = (d.soft.unwrap(), d.hard.unwrap());
        assert!(soft > Duration::from_millis(1_500) && soft < Duration::from_millis(2_500), "{d:?}");
        assert!(hard >= soft && hard <= Duration::from_millis(20_000), "{d:?}");
    }

    #[test]
    fn a_settled_search_stops_sooner_than_an_unsettled_one() {
        let d = clock(60_000, 100);
        let soft = d.soft.unwrap();
        let settled = Progress { stable_iterations: 6, best_move_share: 0.9, score_drop: 0 };
        let unsettled = Progress { stable_iterations: 0, best_move_share: 0.3, score_drop: 40 };
        let at = soft.mul_f64(0.9);
        assert!(d.soft_reached(at, Some(settled)), "{settled:?} at {at:?}");
        assert!(!d.soft_reached(at, Some(unsettled)), "{unsettled:?} at {at:?}");
        assert!(!d.soft_reached(at, None) && d.soft_reached(soft, None));
        // Never past the hard limit, however unsettled.
        assert!(d.soft_reached(d.hard.unwrap(), Some(unsettled)));
        // A fixed move time is used whole.
        let fixed = Limits { movetime: Some(Duration::from_millis(1_000)), ..Limits::default() }
            .deadline(Color::White, Duration::ZERO);
        assert!(!fixed.soft_reached(Duration::from_millis(500), Some(settled)));
    }
}
