//! Protean's grand strategist (Perplexichess): between moves it looks at
//! every transfer its team may make and makes the best one if searching
//! the two boards says it gains enough.
//!
//! There are some ninety transfers on three boards in the middle game, too
//! many to search each well between two moves. So the strategist screens
//! them all with a one-ply search (with quiescence) of both boards, then
//! searches the few most promising again, both boards and a few thousand
//! nodes each, and judges by that (`Lookahead::Search`, the default). The
//! screen alone is the first strategist (`Lookahead::OnePly`), kept to
//! weigh the two against each other: it takes a piece to where it stands
//! well for one ply and cannot see it trapped, forked or walked into a
//! mating net a move later.

pub use protean_rules::team::Transfer;
use protean_rules::{AnyPosition, Color};
use protean_search::{Engine, Limits, Options, Score};
use std::time::Duration;

/// A transfer worth less than this (centipawns, both boards together) is
/// not made: moving pieces about has costs a short search does not see.
const MIN_GAIN: i32 = 100;
/// Transfers the screen passes on to the full search.
const FINALISTS: usize = 4;
/// The full search of one board: nodes (a fixed count, so a game replays
/// the same on any machine; some milliseconds each).
const SEARCH_NODES: u64 = 20_000;
/// Hash for the strategist's own searches, MiB.
const HASH_MIB: usize = 8;

/// How far the strategist looks before it transfers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lookahead {
    /// Every transfer judged by a one-ply search of both boards.
    OnePly,
    /// The best few of those judged again by a search of both boards.
    Search,
}

/// One board as the strategist sees it.
pub struct BoardView<'a> {
    pub position: &'a AnyPosition,
    pub finished: bool,
}

/// A team's strategist, with its own search kept across the game.
pub struct Strategist {
    color: Color,
    lookahead: Lookahead,
    engine: Engine,
}

/// A transfer tried, with the boards it leaves behind.
struct Candidate {
    transfer: Transfer,
    source: AnyPosition,
    target: AnyPosition,
    gain: i32,
}

impl Strategist {
    pub fn new(color: Color, lookahead: Lookahead, start: &AnyPosition) -> Strategist {
        let mut engine = Engine::new(start.clone());
        engine.resize_hash(HASH_MIB).expect("the strategist's table");
        engine.set_options(Options { move_overhead: Duration::ZERO, ..Options::default() });
        Strategist { color, lookahead, engine }
    }

    /// The value of `pos` for this team by a search within `limits`.
    fn value(&mut self, pos: &AnyPosition, limits: Limits) -> i32 {
        self.engine.set_position(pos.clone());
        let outcome = self.engine.search(limits);
        let score = match outcome.score {
            Some(Score::Centipawns(cp)) => cp,
            Some(Score::Mate(n)) if n > 0 => 10_000,
            Some(Score::Mate(_)) => -10_000,
            None => 0,
        };
        if pos.side_to_move() == self.color {
            score
        } else {
            -score
        }
    }

    /// The value of each board (a finished board counts 0: it is decided).
    fn values(&mut self, boards: &[BoardView], limits: &Limits) -> Vec<i32> {
        boards.iter().map(|b| if b.finished { 0 } else { self.value(b.position, limits.clone()) }).collect()
    }

    /// What `transfer` gains, both boards together: `source` and `target`
    /// are its boards after it, `before` every board's value before.
    fn gain(
        &mut self,
        boards: &[BoardView],
        before: &[i32],
        transfer: &Transfer,
        source: &AnyPosition,
        target: &AnyPosition,
        limits: &Limits,
    ) -> i32 {
        let (from, to) = (transfer.from, transfer.to);
        let after_source = if boards[from].finished { 0 } else { self.value(source, limits.clone()) };
        self.value(target, limits.clone()) - before[to] + after_source - before[from]
    }

    /// The best transfer, if one gains at least [`MIN_GAIN`]; never the
    /// reverse of `last` (a short search would happily shuttle a piece
    /// between two boards as the side to move alternates).
    pub fn choose(&mut self, boards: &[BoardView], last: Option<&Transfer>) -> Option<Transfer> {
        // Each choice starts afresh, as the first strategist's did: a
        // game's boards move on between two choices.
        self.engine.clear();
        let one_ply = Limits { depth: Some(1), ..Limits::default() };
        let mut candidates = self.screen(boards, last, &one_ply);
        if self.lookahead == Lookahead::OnePly {
            return candidates.into_iter().next().filter(|c| c.gain >= MIN_GAIN).map(|c| c.transfer);
        }
        candidates.truncate(FINALISTS);
        candidates.retain(|c| c.gain > 0);
        if candidates.is_empty() {
            return None;
        }
        let searched = Limits { nodes: Some(SEARCH_NODES), ..Limits::default() };
        let before = self.values(boards, &searched);
        let mut best: Option<(i32, Transfer)> = None;
        for c in candidates {
            let gain = self.gain(boards, &before, &c.transfer, &c.source, &c.target, &searched);
            if gain >= MIN_GAIN && best.as_ref().is_none_or(|(g, _)| gain > *g) {
                best = Some((gain, c.transfer));
            }
        }
        best.map(|(_, t)| t)
    }

    /// Every legal transfer with its gain by a search within `limits`,
    /// best first (ties in the order tried: board, cell, target board).
    fn screen(&mut self, boards: &[BoardView], last: Option<&Transfer>, limits: &Limits) -> Vec<Candidate> {
        let before = self.values(boards, limits);
        let mut candidates = Vec::new();
        for (from, source) in boards.iter().enumerate() {
            let g = source.position.variant().geometry;
            for cell in (0..g.cells()).map(|c| g.name(c).to_string()) {
                for (to, target) in boards.iter().enumerate() {
                    let reverse = last.is_some_and(|l| l.from == to && l.to == from && l.cell == cell);
                    if to == from || target.finished || reverse {
                        continue;
                    }
                    let (mut a, mut b) = (source.position.clone(), target.position.clone());
                    if a.transfer_to(&mut b, &cell, self.color).is_err() {
                        continue;
                    }
                    let transfer = Transfer { color: self.color, from, cell: cell.clone(), to };
                    let gain = self.gain(boards, &before, &transfer, &a, &b, limits);
                    candidates.push(Candidate { transfer, source: a, target: b, gain });
                }
            }
        }
        // Stable: among equal gains the first tried stays first, as the
        // first strategist chose.
        candidates.sort_by_key(|c| -c.gain);
        candidates
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use protean_rules::AnyRules;

    /// Standard boards, not Flexichess ones: the lookahead is the same on
    /// any board, and on Flexichess boards a rule change answers most
    /// single threats (a lone queen made an alfil, a mating piece
    /// redefined), so what a 20,000-node search makes of a tactic there
    /// changes with every change to the search. A mate does not.
    fn boards(fens: &[&str]) -> Vec<AnyPosition> {
        let rules = AnyRules::by_name("standard").unwrap();
        fens.iter().map(|f| rules.from_fen(f).unwrap()).collect()
    }

    fn choice(positions: &[AnyPosition], lookahead: Lookahead) -> Option<Transfer> {
        let views: Vec<BoardView> = positions.iter().map(|p| BoardView { position: p, finished: false }).collect();
        Strategist::new(Color::White, lookahead, &positions[0]).choose(&views, None)
    }

    /// White's knight on e3 of board 1 guards g2, d1 and f1. Put
    /// on e3 of board 2 it forks Black's king and queen there, which one
    /// ply of search (with quiescence) sees, as it sees board 1 only a
    /// knight poorer. It does not see that board 1 is then lost to a mate
    /// in two (...Qh3 and ...Qg2#), which searching the boards does.
    #[test]
    fn a_transfer_that_lets_a_mate_in_two_through_is_seen_by_the_search() {
        let b = boards(&["2q3k1/2p2ppp/8/8/8/4NpP1/5P1P/6K1 b - - 0 1", "K7/8/8/5k2/8/8/PP6/3q4 b - - 0 1"]);
        let the_fork = Some(Transfer { color: Color::White, from: 0, cell: "e3".into(), to: 1 });
        assert_eq!(choice(&b, Lookahead::OnePly), the_fork);
        let searched = choice(&b, Lookahead::Search);
        assert!(searched != the_fork, "{searched:?}");
    }
}
