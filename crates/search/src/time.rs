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

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(left_ms: u64, inc_ms: u64) -> Deadline {
        let limits = Limits { time: [Some(Duration::from_millis(left_ms)); 2], increment: [Duration::from_millis(inc_ms); 2], ..Limits::default() };
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
}
