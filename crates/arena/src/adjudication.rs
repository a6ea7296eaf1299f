//! Adjudication: the referee ending a game before its rules do, from the
//! players' own scores or the game's length. Each caller picks its rules:
//! `protean match` cutechess-cli's `-draw`, `-resign` and `-maxmoves`;
//! `protean perplexichess` and the web page a ply limit; `protean datagen`
//! its decisive-score rule and its ply cap.
//!
//! Scores are centipawns from the mover's side, mates as ±(30000 - distance),
//! as `engine_process` reads them from UCI and XBoard.

use crate::ending::{Adjudicated, Ending};
use protean_rules::{AnyPosition, Color};

/// cutechess-cli's `-draw`: from move `move_number` on, both sides'
/// scores within `score` of zero for `move_count` moves each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    pub move_number: u32,
    pub move_count: u32,
    pub score: i32,
}

/// cutechess-cli's `-resign`: a side's score at `-score` or below for
/// `move_count` of its moves in a row (with `two_sided`, the other side's
/// last score at `score` or above as well).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    pub move_count: u32,
    pub score: i32,
    pub two_sided: bool,
}

/// Self-play's rule: every search for `plies` plies in a row has seen the
/// same side `score` centipawns (or a mate) ahead; that side wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DecisiveRule {
    pub plies: u32,
    pub score: i32,
}

/// The adjudication rules of a game; all off by default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Adjudication {
    pub draw: Option<DrawRule>,
    pub resign: Option<ResignRule>,
    pub decisive: Option<DecisiveRule>,
    /// Drawn once the move number passes this (cutechess-cli's `-maxmoves`).
    pub max_moves: Option<u32>,
    /// Drawn once this many plies are played and the rules have not
    /// ended the game.
    pub max_plies: Option<usize>,
    /// Drawn once this many plies are played, before the rules judge the
    /// last position: datagen's `--max-plies`, whose data depend on it.
    pub ply_cap: Option<usize>,
}

/// The adjudication rules with what they have seen of one game.
#[derive(Clone, Debug, Default)]
pub struct Adjudicator {
    rules: Adjudication,
    draw_streak: u32,
    resign_streak: [u32; 2],
    last_score: [Option<i32>; 2],
    /// The side the last plies' scores put far ahead, and for how many.
    ahead: Option<(Color, u32)>,
}

impl Adjudicator {
    pub fn new(rules: Adjudication) -> Adjudicator {
        Adjudicator { rules, ..Adjudicator::default() }
    }

    /// Before the rules judge the position, after `plies` plies.
    pub fn before_rules(&self, plies: usize) -> Option<Ending> {
        self.rules.ply_cap.filter(|&n| plies >= n).map(|_| Ending::adjudicated(None, Adjudicated::MoveLimit))
    }

    /// After the rules found the game going on, after `plies` plies.
    pub fn after_rules(&self, position: &AnyPosition, plies: usize) -> Option<Ending> {
        let too_long = self.rules.max_moves.is_some_and(|n| position.fullmove() > n)
            || self.rules.max_plies.is_some_and(|n| plies >= n);
        too_long.then(|| Ending::adjudicated(None, Adjudicated::MoveLimit))
    }

    /// After `mover`'s move, with its score; `position` is the one after it.
    pub fn after_move(&mut self, position: &AnyPosition, mover: Color, score: Option<i32>) -> Option<Ending> {
        let m = mover as usize;
        self.last_score[m] = score;
        if let Some(d) = self.rules.draw {
            let quiet = |s: Option<i32>| s.is_some_and(|s| s.abs() <= d.score);
            if position.fullmove() >= d.move_number && quiet(self.last_score[0]) && quiet(self.last_score[1]) {
                self.draw_streak += 1;
            } else {
                self.draw_streak = 0;
            }
            if self.draw_streak >= 2 * d.move_count {
                return Some(Ending::adjudicated(None, Adjudicated::Draw));
            }
        }
        if let Some(r) = self.rules.resign {
            self.resign_streak[m] = if score.is_some_and(|s| s <= -r.score) { self.resign_streak[m] + 1 } else { 0 };
            let other_agrees = !r.two_sided || self.last_score[1 - m].is_some_and(|s| s >= r.score);
            if self.resign_streak[m] >= r.move_count && other_agrees {
                return Some(Ending::adjudicated(Some(!mover), Adjudicated::Resign));
            }
        }
        if let Some(d) = self.rules.decisive {
            let leader = score.filter(|s| s.abs() >= d.score).map(|s| if s > 0 { mover } else { !mover });
            self.ahead = leader.map(|c| (c, self.ahead.filter(|a| a.0 == c).map_or(1, |a| a.1 + 1)));
            if let Some((winner, _)) = self.ahead.filter(|&(_, plies)| plies >= d.plies) {
                return Some(Ending::adjudicated(Some(winner), Adjudicated::Decisive));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use protean_rules::AnyRules;

    fn start() -> AnyPosition {
        AnyRules::by_name("standard").unwrap().start()
    }

    #[test]
    fn a_decisive_score_for_long_enough_ends_the_game() {
        let rules = Adjudication { decisive: Some(DecisiveRule { plies: 3, score: 1000 }), ..Adjudication::default() };
        let mut a = Adjudicator::new(rules);
        let pos = start();
        // White ahead by White's score, then by Black's (negative) score.
        assert_eq!(a.after_move(&pos, Color::White, Some(1200)), None);
        assert_eq!(a.after_move(&pos, Color::Black, Some(-29_990)), None);
        // A quiet score starts the count again.
        assert_eq!(a.after_move(&pos, Color::White, Some(50)), None);
        assert_eq!(a.after_move(&pos, Color::Black, Some(-1000)), None);
        assert_eq!(a.after_move(&pos, Color::White, Some(1000)), None);
        let end = a.after_move(&pos, Color::Black, Some(-1500)).unwrap();
        assert_eq!((end.winner, end.result()), (Some(Color::White), "1-0"));
    }

    #[test]
    fn resigning_and_drawing_follow_cutechess() {
        let rules = Adjudication {
            resign: Some(ResignRule { move_count: 2, score: 600, two_sided: false }),
            ..Adjudication::default()
        };
        let mut a = Adjudicator::new(rules);
        let pos = start();
        assert_eq!(a.after_move(&pos, Color::Black, Some(-700)), None);
        assert_eq!(a.after_move(&pos, Color::White, Some(700)), None);
        let end = a.after_move(&pos, Color::Black, Some(-650)).unwrap();
        assert_eq!(end.match_reason(), "Black resigns");
        let draw = Adjudication {
            draw: Some(DrawRule { move_number: 0, move_count: 1, score: 10 }),
            ..Adjudication::default()
        };
        let mut a = Adjudicator::new(draw);
        // A streak counts plies with both sides' last scores quiet: a move
        // each, as cutechess-cli counts `movecount`.
        assert_eq!(a.after_move(&pos, Color::White, Some(5)), None);
        assert_eq!(a.after_move(&pos, Color::Black, Some(-5)), None);
        assert_eq!(a.after_move(&pos, Color::White, Some(3)).unwrap().match_reason(), "Draw by adjudication");
    }

    #[test]
    fn move_limits_before_and_after_the_rules() {
        let pos = start();
        let capped = Adjudicator::new(Adjudication { ply_cap: Some(4), ..Adjudication::default() });
        assert!(capped.before_rules(3).is_none() && capped.before_rules(4).is_some());
        let limited = Adjudicator::new(Adjudication { max_plies: Some(4), ..Adjudication::default() });
        assert!(limited.before_rules(9).is_none() && limited.after_rules(&pos, 4).is_some());
        let by_moves = Adjudicator::new(Adjudication { max_moves: Some(1), ..Adjudication::default() });
        assert!(by_moves.after_rules(&pos, 100).is_none());
    }
}
