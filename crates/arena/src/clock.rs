//! The game clock: each side's time left under its own time control
//! (cutechess-cli lets the two engines of a match have different ones).
//! The referee charges a side the time its move took; this is the one
//! place a clock runs out.

use protean_rules::Color;
use std::time::Duration;

/// A time control: `moves` per period (0: the whole game), `base` time
/// for a period and `increment` per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub moves: u32,
    pub base: Duration,
    pub increment: Duration,
}

impl TimeControl {
    /// From (moves per period, base ms, increment ms), as `parse_tc` reads it.
    pub fn from_ms((moves, base, increment): (u32, u64, u64)) -> TimeControl {
        TimeControl { moves, base: Duration::from_millis(base), increment: Duration::from_millis(increment) }
    }
}

#[derive(Clone, Debug)]
struct SideClock {
    control: TimeControl,
    left: Duration,
    /// Moves made, for the periods.
    moves: u32,
}

/// Both sides' clocks; a side without a time control has none.
#[derive(Clone, Debug)]
pub struct Clock {
    sides: [Option<SideClock>; 2],
}

/// Time left that a side without a clock is told it has (ms).
const UNTIMED_MS: u64 = u64::MAX / 4;

impl Clock {
    pub fn new(controls: [Option<TimeControl>; 2]) -> Clock {
        Clock { sides: controls.map(|c| c.map(|control| SideClock { control, left: control.base, moves: 0 })) }
    }

    /// No clock for either side.
    pub fn untimed() -> Clock {
        Clock::new([None, None])
    }

    pub fn is_running_for(&self, side: Color) -> bool {
        self.sides[side as usize].is_some()
    }

    /// A side's time left, if it has a clock.
    pub fn left(&self, side: Color) -> Option<Duration> {
        self.sides[side as usize].as_ref().map(|s| s.left)
    }

    /// A side's increment, if it has a clock.
    pub fn increment(&self, side: Color) -> Option<Duration> {
        self.sides[side as usize].as_ref().map(|s| s.control.increment)
    }

    /// Both sides' time left in ms, as engines are told (a side without a
    /// clock: a time that never runs out).
    pub fn left_ms(&self) -> [u64; 2] {
        Color::ALL.map(|c| self.left(c).map_or(UNTIMED_MS, |d| d.as_millis() as u64))
    }

    /// Charges `side` for a move that took `used`: false if that was more
    /// than it had (its clock then shows zero). In time, it gets its
    /// increment, and a new period's time after the period's last move.
    pub fn charge(&mut self, side: Color, used: Duration) -> bool {
        let Some(s) = self.sides[side as usize].as_mut() else {
            return true;
        };
        if used > s.left {
            s.left = Duration::ZERO;
            return false;
        }
        s.left = s.left - used + s.control.increment;
        s.moves += 1;
        if s.control.moves > 0 && s.moves.is_multiple_of(s.control.moves) {
            s.left += s.control.base;
        }
        true
    }

    /// The side's flag fell while it thought: its clock shows zero.
    pub fn run_out(&mut self, side: Color) {
        if let Some(s) = self.sides[side as usize].as_mut() {
            s.left = Duration::ZERO;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clock_runs_out_gains_increments_and_new_periods() {
        let control = TimeControl::from_ms((2, 1000, 100));
        let mut clock = Clock::new([Some(control), None]);
        assert!(clock.charge(Color::White, Duration::from_millis(400)));
        assert_eq!(clock.left(Color::White), Some(Duration::from_millis(700)));
        assert!(clock.charge(Color::White, Duration::from_millis(700)));
        // The period's second move: its time again, on top of the increment.
        assert_eq!(clock.left(Color::White), Some(Duration::from_millis(1100)));
        assert!(!clock.charge(Color::White, Duration::from_millis(1101)));
        assert_eq!(clock.left(Color::White), Some(Duration::ZERO));
        assert!(clock.charge(Color::Black, Duration::from_secs(100)) && clock.left(Color::Black).is_none());
        assert_eq!(clock.left_ms()[1], u64::MAX / 4);
    }
}
