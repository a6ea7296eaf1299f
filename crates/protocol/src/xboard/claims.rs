//! Claims: how the engine tells XBoard that the rules ended the game, as
//! a result line XBoard accepts or, where XBoard would count the
//! repetition otherwise than the variant does, as a draw offer.

use protean_rules::variant::Repetition;
use protean_rules::{AnyPosition, Color};

/// How the engine tells XBoard that the rules ended the game.
pub(super) enum Claim {
    /// `1/2-1/2 {Draw by repetition}`, `1-0 {White mates}`.
    Result(String),
    /// A repetition XBoard would refuse as a claim: its count compares
    /// whole positions (side to move and rights as well), where Perfect
    /// Chess's compares the placement only, and a refused claim forfeits
    /// the game. Offered as a draw instead: another Protean takes it
    /// (`draw`), and against anyone else the game goes on.
    OfferDraw,
}

impl Claim {
    /// What the engine sends.
    pub(super) fn line(&self) -> &str {
        match self {
            Claim::Result(line) => line,
            Claim::OfferDraw => "offer draw",
        }
    }
}

/// The claim for `outcome`, reached by `moves` from `start`.
pub(super) fn claim(outcome: protean_rules::Outcome, start: &AnyPosition, moves: &[String]) -> Claim {
    let placement_only = start.variant().draws.repetition == Repetition::Placement;
    if outcome == protean_rules::Outcome::Repetition && placement_only && whole_repetitions(start, moves) < 3 {
        return Claim::OfferDraw;
    }
    Claim::Result(result_claim(outcome))
}

/// How many times the position `moves` reach from `start` stands in the
/// game, itself counted, compared as XBoard compares positions: by the FEN
/// without its move counters.
fn whole_repetitions(start: &AnyPosition, moves: &[String]) -> usize {
    let mut position = start.clone();
    let mut seen = vec![whole_position(&position)];
    for m in moves {
        if position.play(m).is_err() {
            break;
        }
        seen.push(whole_position(&position));
    }
    let now = seen.last().expect("the start at least");
    seen.iter().filter(|p| *p == now).count()
}

/// A position as XBoard compares them for repetition: the FEN without its
/// move counters.
fn whole_position(position: &AnyPosition) -> String {
    position.fen().split_whitespace().take(4).collect::<Vec<_>>().join(" ")
}

/// XBoard's result line for a game the rules ended: `1/2-1/2 {Draw by
/// repetition}`, `1-0 {White mates}`.
fn result_claim(outcome: protean_rules::Outcome) -> String {
    let comment = match outcome {
        protean_rules::Outcome::Checkmate { winner: Color::White } => "White mates".to_string(),
        protean_rules::Outcome::Checkmate { winner: Color::Black } => "Black mates".to_string(),
        o => format!("Draw by {}", o.reason()),
    };
    format!("{} {{{comment}}}", outcome.result())
}
