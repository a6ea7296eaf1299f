//! Search limits and time management.

use protean_rules::Color;
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
    /// Root moves to consider (coordinate notation); empty means all.
    pub search_moves: Vec<String>,
}

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
        // Every move to come loses `overhead` to the GUI and the pipes (and
        // to a busy machine), so that much is kept back for each of them,
        // as Stockfish does: with little time left the budget falls below
        // the increment and the clock grows back instead of running out.
        let reserve = overhead.saturating_mul(moves + 2);
        let spendable = (left + inc.saturating_mul(moves - 1)).saturating_sub(reserve);
        let soft = spendable / moves;
        // Never more than a third of what is left, so a slow move cannot
        // lose on time.
        let hard = (soft * 4).min(left.saturating_sub(overhead) / 3).max(Duration::from_millis(1));
        Deadline { soft: Some(soft.min(hard)), hard: Some(hard) }
    }
}
