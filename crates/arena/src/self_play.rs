//! Self-play for training data (`protean datagen`): one in-process
//! engine plays both sides of a game under the referee, a fixed search
//! per move, and keeps the quiet positions it passes through with the
//! search's score. The game ends by the variant's rules, by adjudication
//! once every search has seen the same side `DECISIVE_CP` ahead for
//! `DECISIVE_PLIES` plies in a row, or at the ply cap.
//!
//! The games depend only on the seed's random openings and the search's
//! fixed limits, so the same arguments write the same data.

use crate::adjudication::{Adjudication, DecisiveRule};
use crate::clock::Clock;
use crate::ending::{Adjudicated, Ending, Reason};
use crate::engine_process::{Failure, Reply};
use crate::referee::{play_out, Players, Referee};
use protean_rules::{AnyPosition, Color, Outcome};
use protean_search::skill::Random;
use protean_search::{Engine, Limits, Score};
use std::time::Duration;

/// Adjudication: this many centipawns ahead ...
pub const DECISIVE_CP: i32 = 1_000;
/// ... for this many plies in a row.
pub const DECISIVE_PLIES: u32 = 8;
/// A draw by rule with a side this far ahead is counted apart.
pub const AHEAD_CP: i32 = 300;

/// How the games are played.
#[derive(Clone, Debug)]
pub struct SelfPlay {
    /// The search of every move.
    pub limits: Limits,
    /// Random legal plies after the opening position.
    pub random_plies: u32,
    /// A game still going after this many plies is a draw.
    pub max_plies: u32,
}

/// What one game leaves: its quiet positions (FEN, and the search's
/// score in White's centipawns), White's points and how it ended.
pub struct SelfPlayGame {
    pub positions: Vec<(String, i32)>,
    pub white_points: f64,
    pub end: End,
}

/// How a game ended: the rule's name, `adjudicated` or `ply cap`, and for
/// a draw by rule whether the last search saw a side `AHEAD_CP` or more
/// ahead (a side that could have played on).
#[derive(Clone, Copy, Debug)]
pub struct End {
    pub name: &'static str,
    pub drawn_ahead: bool,
}

impl End {
    fn of(ending: &Ending, last_white_cp: Option<i32>) -> End {
        match ending.reason {
            Reason::Rules(outcome) => {
                let drawn = !matches!(outcome, Outcome::Checkmate { .. });
                End {
                    name: outcome.reason(),
                    drawn_ahead: drawn && last_white_cp.is_some_and(|cp| cp.abs() >= AHEAD_CP),
                }
            }
            Reason::Adjudicated(Adjudicated::Decisive) => End { name: "adjudicated", drawn_ahead: false },
            _ => End { name: "ply cap", drawn_ahead: false },
        }
    }
}

/// The engine playing both sides, keeping the quiet positions.
struct Recorder<'a> {
    engine: &'a mut Engine,
    limits: &'a Limits,
    positions: Vec<(String, i32)>,
    last_white_cp: Option<i32>,
}

impl Players for Recorder<'_> {
    fn think(&mut self, side: Color, game: &Referee) -> Result<Reply, Failure> {
        let pos = game.position();
        self.engine.set_position(pos.clone());
        let found = self.engine.search(self.limits.clone());
        let Some(best) = found.best else {
            return Err(Failure::Garbled("no move".into()));
        };
        let white_cp = match found.score {
            Some(Score::Centipawns(cp)) => Some(if side == Color::White { cp } else { -cp }),
            _ => None,
        };
        self.last_white_cp = white_cp;
        let quiet = !pos.in_check() && !best.is_capture() && best.promotion().is_none();
        if let Some(cp) = white_cp.filter(|_| quiet) {
            self.positions.push((pos.fen(), cp));
        }
        // The mover's score, mates as ±(30000 - distance), as the
        // adjudication reads engines' scores.
        let score = found.score.map(|s| match s {
            Score::Centipawns(cp) => cp,
            Score::Mate(m) if m > 0 => 30_000 - m,
            Score::Mate(m) => -30_000 - m,
        });
        Ok(Reply { mv: pos.move_text(best), score, elapsed: Duration::ZERO })
    }
}

/// One game from one of `openings`, picked with `random`, with its random
/// plies; the engine is cleared first.
pub fn play_game(engine: &mut Engine, openings: &[AnyPosition], how: &SelfPlay, random: &mut Random) -> SelfPlayGame {
    // An opening that ends the game in its random plies is drawn again.
    let start = loop {
        let mut pos = openings[random.below(openings.len() as u64) as usize].clone();
        let mut ended = false;
        for _ in 0..how.random_plies {
            let moves = pos.legal_move_list();
            if moves.is_empty() {
                ended = true;
                break;
            }
            pos.make(moves[random.below(moves.len() as u64) as usize]);
        }
        if !ended && pos.outcome().is_none() {
            break pos;
        }
    };
    engine.clear();
    let adjudication = Adjudication {
        decisive: Some(DecisiveRule { plies: DECISIVE_PLIES, score: DECISIVE_CP }),
        ply_cap: Some(how.max_plies as usize),
        ..Adjudication::default()
    };
    let mut game = Referee::new(start, false, Clock::untimed(), adjudication);
    let mut players = Recorder { engine, limits: &how.limits, positions: Vec::new(), last_white_cp: None };
    let ending = play_out(&mut game, &mut players);
    SelfPlayGame {
        white_points: ending.white_points(),
        end: End::of(&ending, players.last_white_cp),
        positions: players.positions,
    }
}
