//! How a refereed game ended, and the words for it. Every game loop
//! (match, Perplexichess boards, datagen, the web page's games) ends its
//! games with an [`Ending`], so a time forfeit, an adjudication or a mate
//! is named and scored in this one place.
//!
//! Two wordings are kept because readers depend on them: the match's
//! (cutechess-cli's, `White loses on time`, read by tools that read
//! cutechess-cli's output) and the board's (`white lost on time`, shown by
//! the web page and `protean perplexichess`).

use protean_rules::notation::color_name;
use protean_rules::{Color, Outcome};

/// How a game ended: who won (`None`: drawn) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    pub winner: Option<Color>,
    pub reason: Reason,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The variant's rules: mate, stalemate, a draw rule.
    Rules(Outcome),
    /// The loser (the side that did not win) broke the game's terms.
    Forfeit(Forfeit),
    /// The referee judged the game before its end.
    Adjudicated(Adjudicated),
    /// Perplexichess's time limit: the board goes to the side with more
    /// pieces.
    TimeLimit,
}

/// Why a side lost without being beaten on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Forfeit {
    /// Its clock ran out.
    Time,
    /// No move came at all, far past its clock.
    NoReply,
    /// Its process ended or its pipe broke.
    Crash,
    /// Its engine (named) could not be started for the game.
    Unavailable(String),
    /// It played this, which is no legal move (or no move line at all).
    IllegalMove(String),
}

/// The referee's judgements (see `adjudication.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Adjudicated {
    /// Both engines' scores near zero for long enough.
    Draw,
    /// The loser's score, and with two-sided resigning the winner's too,
    /// decisive for long enough.
    Resign,
    /// The game reached its move limit.
    MoveLimit,
    /// Every search saw the same side far ahead for long enough
    /// (self-play, where both sides' searches are one engine's).
    Decisive,
}

impl Ending {
    pub fn rules(outcome: Outcome) -> Ending {
        let winner = match outcome {
            Outcome::Checkmate { winner } => Some(winner),
            _ => None,
        };
        Ending { winner, reason: Reason::Rules(outcome) }
    }

    /// `loser` forfeits the game.
    pub fn forfeit(loser: Color, why: Forfeit) -> Ending {
        Ending { winner: Some(!loser), reason: Reason::Forfeit(why) }
    }

    pub fn adjudicated(winner: Option<Color>, why: Adjudicated) -> Ending {
        Ending { winner, reason: Reason::Adjudicated(why) }
    }

    /// PGN's result: `1-0`, `0-1` or `1/2-1/2`.
    pub fn result(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// White's points: 1, 0.5 or 0.
    pub fn white_points(&self) -> f64 {
        match self.winner {
            Some(Color::White) => 1.0,
            Some(Color::Black) => 0.0,
            None => 0.5,
        }
    }

    /// The side that lost (`None`: a draw).
    fn loser(&self) -> Option<Color> {
        self.winner.map(|w| !w)
    }

    /// PGN's `Termination` tag as cutechess-cli writes it.
    pub fn termination(&self) -> &'static str {
        match &self.reason {
            Reason::Rules(_) => "normal",
            Reason::Forfeit(Forfeit::Time | Forfeit::NoReply) | Reason::TimeLimit => "time forfeit",
            Reason::Forfeit(Forfeit::Crash | Forfeit::Unavailable(_)) => "abandoned",
            Reason::Forfeit(Forfeit::IllegalMove(_)) => "illegal move",
            Reason::Adjudicated(_) => "adjudication",
        }
    }

    /// Why, in cutechess-cli's words (`protean match`): `White mates`,
    /// `Draw by repetition`, `Black loses on time`.
    pub fn match_reason(&self) -> String {
        let side = |c: Option<Color>| color_name(c.unwrap_or(Color::White));
        match &self.reason {
            Reason::Rules(Outcome::Checkmate { winner }) => format!("{} mates", color_name(*winner)),
            Reason::Rules(o) => format!("Draw by {}", o.reason()),
            Reason::Forfeit(f) => {
                let loser = side(self.loser());
                match f {
                    Forfeit::Time => format!("{loser} loses on time"),
                    Forfeit::NoReply => format!("{loser} loses on time (no move)"),
                    Forfeit::Crash => format!("{loser}'s connection stalls"),
                    Forfeit::Unavailable(name) => format!("{name} is unavailable"),
                    Forfeit::IllegalMove(text) => format!("{loser} makes an illegal move: {text}"),
                }
            }
            Reason::Adjudicated(Adjudicated::Draw) => "Draw by adjudication".into(),
            Reason::Adjudicated(Adjudicated::MoveLimit) => "Draw by adjudication: maximum moves".into(),
            Reason::Adjudicated(Adjudicated::Resign) => format!("{} resigns", side(self.loser())),
            Reason::Adjudicated(Adjudicated::Decisive) => match self.winner {
                Some(w) => format!("{} wins by adjudication", color_name(w)),
                None => "Draw by adjudication".into(),
            },
            Reason::TimeLimit => self.board_reason(),
        }
    }

    /// Why, in a board's words (the web page, `protean perplexichess`):
    /// `checkmate`, `repetition`, `white lost on time`, `move limit`.
    pub fn board_reason(&self) -> String {
        let side = |c: Option<Color>| side_name(c.unwrap_or(Color::White));
        match &self.reason {
            Reason::Rules(o) => o.reason().into(),
            Reason::Forfeit(f) => {
                let loser = side(self.loser());
                match f {
                    Forfeit::Time => format!("{loser} lost on time"),
                    Forfeit::NoReply => format!("{loser} forfeits: no move"),
                    Forfeit::Crash => format!("{loser} forfeits: its engine stopped"),
                    Forfeit::Unavailable(name) => format!("{loser} forfeits: {name} is unavailable"),
                    Forfeit::IllegalMove(text) => format!("{loser} played an illegal move '{text}'"),
                }
            }
            Reason::Adjudicated(Adjudicated::MoveLimit) => "move limit".into(),
            Reason::Adjudicated(Adjudicated::Draw) => "drawn by adjudication".into(),
            Reason::Adjudicated(Adjudicated::Resign) => format!("{} resigns", side(self.loser())),
            Reason::Adjudicated(Adjudicated::Decisive) => "adjudicated".into(),
            Reason::TimeLimit if self.winner.is_some() => "time limit: more pieces".into(),
            Reason::TimeLimit => "time limit: equal pieces".into(),
        }
    }
}

/// A side as a board and the team game write it: `white`, `black`.
pub fn side_name(c: Color) -> &'static str {
    if c == Color::White {
        "white"
    } else {
        "black"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_time_forfeit_reads_in_both_wordings() {
        let lost = Ending::forfeit(Color::White, Forfeit::Time);
        assert_eq!((lost.result(), lost.termination()), ("0-1", "time forfeit"));
        assert_eq!(lost.match_reason(), "White loses on time");
        assert_eq!(lost.board_reason(), "white lost on time");
    }

    #[test]
    fn endings_by_the_rules_read_as_before() {
        let mate = Ending::rules(Outcome::Checkmate { winner: Color::Black });
        assert_eq!(
            (mate.result(), mate.match_reason(), mate.board_reason()),
            ("0-1", "Black mates".into(), "checkmate".into())
        );
        let draw = Ending::rules(Outcome::Repetition);
        assert_eq!((draw.result(), draw.match_reason()), ("1/2-1/2", "Draw by repetition".into()));
        let resign = Ending::adjudicated(Some(Color::White), Adjudicated::Resign);
        assert_eq!((resign.match_reason(), resign.termination()), ("Black resigns".into(), "adjudication"));
    }
}
