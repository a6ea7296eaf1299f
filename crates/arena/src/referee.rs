//! The referee of one game between two players: it holds the position,
//! the record and the clocks, checks every move by the rules, charges the
//! clocks, adjudicates, and names the end ([`Ending`]). It does not call
//! the players: a caller asks its players for moves and hands their
//! answers over, so one referee serves a match's engine processes, a
//! Perplexichess board searching beside others, datagen's in-process
//! self-play and the web page's event loop alike. [`play_out`] is the
//! plain loop for callers whose players answer in turn.

use crate::adjudication::{Adjudication, Adjudicator};
use crate::clock::Clock;
use crate::ending::{Ending, Forfeit};
use crate::engine_process::{Failure, Reply};
use crate::pgn;
use protean_rules::{AnyPosition, Color, Move};
use std::time::Duration;

/// A move played, with what undoing it restores.
#[derive(Clone, Debug)]
struct Played {
    before: AnyPosition,
    record_len: usize,
    clock: Clock,
}

#[derive(Clone, Debug)]
pub struct Referee {
    position: AnyPosition,
    start_fen: String,
    standard_start: bool,
    /// The moves played (the book's too), in coordinate notation as given.
    moves: Vec<String>,
    /// SAN moves, and `{comments}` among them.
    record: Vec<String>,
    /// Moves the players made (not the book's), with what undoing restores.
    played: Vec<Played>,
    clock: Clock,
    adjudicator: Adjudicator,
    ending: Option<Ending>,
}

/// Players that answer in turn (see [`play_out`]).
pub trait Players {
    /// The move of `side`, the side to move in `game`.
    fn think(&mut self, side: Color, game: &Referee) -> Result<Reply, Failure>;
}

/// Asks `players` for moves until the game ends.
pub fn play_out(game: &mut Referee, players: &mut impl Players) -> Ending {
    loop {
        if let Some(end) = game.judge() {
            return end.clone();
        }
        let side = game.side_to_move();
        let answer = players.think(side, game);
        game.answer(answer);
    }
}

impl Referee {
    /// A game from `start`: `standard_start` says whether that is the
    /// variant's own start position (PGN needs no FEN then).
    pub fn new(start: AnyPosition, standard_start: bool, clock: Clock, adjudication: Adjudication) -> Referee {
        Referee {
            start_fen: start.fen(),
            position: start,
            standard_start,
            moves: Vec::new(),
            record: Vec::new(),
            played: Vec::new(),
            clock,
            adjudicator: Adjudicator::new(adjudication),
            ending: None,
        }
    }

    /// The start position as the PGN writes it, where that is another
    /// spelling of the same position (`protean perplexichess` writes the
    /// variant's start FEN as the variant gives it, without Flexichess's
    /// empty rule-change field).
    pub fn with_start_fen(mut self, fen: &str) -> Referee {
        self.start_fen = fen.to_string();
        self
    }

    /// Plays book moves (coordinate notation) before the players'.
    pub fn play_book(&mut self, moves: &[String]) -> Result<(), String> {
        for m in moves {
            let san = self.position.san(m).map_err(|e| e.to_string())?;
            self.position.play(m).map_err(|e| e.to_string())?;
            self.record.push(san);
            self.moves.push(m.clone());
        }
        Ok(())
    }

    pub fn position(&self) -> &AnyPosition {
        &self.position
    }

    pub fn side_to_move(&self) -> Color {
        self.position.side_to_move()
    }

    pub fn start_fen(&self) -> &str {
        &self.start_fen
    }

    /// Whether the game started from the variant's start position.
    pub fn standard_start(&self) -> bool {
        self.standard_start
    }

    /// The moves so far in coordinate notation (the book's too).
    pub fn moves(&self) -> &[String] {
        &self.moves
    }

    /// SAN moves and comments, as PGN's movetext lists them.
    pub fn record(&self) -> &[String] {
        &self.record
    }

    /// Moves the players have made.
    pub fn plies(&self) -> usize {
        self.played.len()
    }

    /// The side that made the players' move `ply` (from 0).
    pub fn mover(&self, ply: usize) -> Color {
        self.played[ply].before.side_to_move()
    }

    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    pub fn ending(&self) -> Option<&Ending> {
        self.ending.as_ref()
    }

    /// Whether the game is over, judging the position if it was not: the
    /// move limits and the variant's rules.
    pub fn judge(&mut self) -> Option<&Ending> {
        if self.ending.is_none() {
            let plies = self.played.len();
            self.ending = self
                .adjudicator
                .before_rules(plies)
                .or_else(|| self.position.outcome().map(Ending::rules))
                .or_else(|| self.adjudicator.after_rules(&self.position, plies));
        }
        self.ending.as_ref()
    }

    /// The side to move's answer: a forfeit if it failed, ran over its
    /// clock or played no legal move; else the move is played and the
    /// adjudication rules look at its score. The end, if that ended it.
    pub fn answer(&mut self, answer: Result<Reply, Failure>) -> Option<&Ending> {
        let mover = self.side_to_move();
        let reply = match answer {
            Ok(reply) => reply,
            Err(failure) => {
                let why = match failure {
                    Failure::Stalled => Forfeit::NoReply,
                    Failure::Crashed => Forfeit::Crash,
                    Failure::Garbled(line) => Forfeit::IllegalMove(line),
                };
                return self.forfeit(mover, why);
            }
        };
        let clock_before = self.clock.clone();
        if !self.clock.charge(mover, reply.elapsed) {
            return self.forfeit(mover, Forfeit::Time);
        }
        let Ok(m) = self.position.parse_move(&reply.mv) else {
            return self.forfeit(mover, Forfeit::IllegalMove(reply.mv));
        };
        self.record_move(m, reply.mv, clock_before);
        if let Some(end) = self.adjudicator.after_move(&self.position, mover, reply.score) {
            self.ending = Some(end);
        }
        self.ending.as_ref()
    }

    /// A legal move of the side to move that took `used` (a person's on
    /// the web page, whose clock the page runs): charged to its clock,
    /// then played even if the clock ran out, the loss on time recorded.
    pub fn play(&mut self, m: Move, used: Duration) -> Option<&Ending> {
        let mover = self.side_to_move();
        let clock_before = self.clock.clone();
        let in_time = self.clock.charge(mover, used);
        let text = self.position.move_text(m);
        self.record_move(m, text, clock_before);
        if !in_time {
            return self.forfeit(mover, Forfeit::Time);
        }
        self.ending.as_ref()
    }

    /// Plays a legal move; `clock` is the clock before it was charged.
    fn record_move(&mut self, m: Move, text: String, clock: Clock) {
        let before = self.position.clone();
        let san = protean_rules::with_position!(&mut self.position, p => p.san(m));
        self.played.push(Played { before, record_len: self.record.len(), clock });
        self.record.push(san);
        self.moves.push(text);
        self.position.make(m);
    }

    /// `loser` forfeits the game (time, a crash, an engine that cannot start).
    pub fn forfeit(&mut self, loser: Color, why: Forfeit) -> Option<&Ending> {
        if why == Forfeit::Time {
            self.clock.run_out(loser);
        }
        self.ending = Some(Ending::forfeit(loser, why));
        self.ending.as_ref()
    }

    /// Ends the game as the caller judged it (Perplexichess's time limit).
    pub fn end(&mut self, ending: Ending) {
        self.ending = Some(ending);
    }

    /// Takes back the players' last `n` moves, and the end if there was one.
    pub fn take_back(&mut self, n: usize) {
        let Some(keep) = self.played.len().checked_sub(n) else { return };
        let Some(first) = self.played.get(keep) else { return };
        self.position = first.before.clone();
        self.record.truncate(first.record_len);
        self.clock = first.clock.clone();
        let book = self.moves.len() - self.played.len();
        self.moves.truncate(book + keep);
        self.played.truncate(keep);
        self.ending = None;
    }

    /// A finished Perplexichess board: both kings leave it, and its other
    /// pieces stay for transfers.
    pub fn remove_kings(&mut self) {
        self.position.remove_kings();
    }

    /// The position, for a Perplexichess transfer between moves.
    pub(crate) fn position_mut(&mut self) -> &mut AnyPosition {
        &mut self.position
    }

    /// A `{comment}` in the record (a transfer).
    pub(crate) fn note(&mut self, comment: String) {
        self.record.push(comment);
    }

    /// The game as PGN: `event`, `round`, the players' names (White's
    /// first), and tags after the standard ones; `reason_comment` puts
    /// why it ended after the last move, in the board's words or the
    /// match's.
    pub fn pgn(&self, header: PgnHeader) -> String {
        let result = self.ending.as_ref().map_or("*", Ending::result);
        let reason = self.ending.as_ref().map(|e| match header.words {
            Words::Match => e.match_reason(),
            Words::Board => e.board_reason(),
        });
        let mut more_tags = header.more_tags;
        for tag in header.computed_tags {
            let value = match tag {
                Computed::PlyCount => self.record.iter().filter(|m| !m.starts_with('{')).count().to_string(),
                Computed::Termination => self.ending.as_ref().map_or("unterminated", Ending::termination).to_string(),
                Computed::Reason => reason.clone().unwrap_or_default(),
            };
            more_tags.push((tag.name(), value));
        }
        let variant = self.position.variant();
        let record = pgn::Record {
            event: header.event,
            round: header.round,
            players: [header.players[0], header.players[1]],
            result,
            variant: &variant.name,
            start_fen: &self.start_fen,
            standard_start: self.standard_start,
            more_tags,
            moves: &self.record,
            closing_comment: if header.reason_comment { reason.as_deref() } else { None },
        };
        record.text()
    }

    /// The end's reason in a board's words, if it has ended.
    pub fn board_reason(&self) -> Option<String> {
        self.ending.as_ref().map(Ending::board_reason)
    }

    /// The winner of an ended game (`None` also for a draw).
    pub fn winner(&self) -> Option<Color> {
        self.ending.as_ref().and_then(|e| e.winner)
    }
}

/// Which words a PGN's reason uses (see `ending.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Words {
    Match,
    Board,
}

/// Tags the referee fills in from the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Computed {
    PlyCount,
    /// cutechess-cli's: `normal`, `time forfeit`, `adjudication` ...
    Termination,
    /// The reason, as a `Termination` tag (Perplexichess's boards).
    Reason,
}

impl Computed {
    fn name(self) -> &'static str {
        match self {
            Computed::PlyCount => "PlyCount",
            Computed::Termination | Computed::Reason => "Termination",
        }
    }
}

/// What a game's PGN says beside its moves.
pub struct PgnHeader<'a> {
    pub event: &'a str,
    pub round: usize,
    pub players: [&'a str; 2],
    /// Tags after the standard ones, before the computed ones.
    pub more_tags: Vec<(&'a str, String)>,
    pub computed_tags: Vec<Computed>,
    pub words: Words,
    /// Whether the reason goes after the last move as a comment.
    pub reason_comment: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use protean_rules::AnyRules;

    fn reply(mv: &str, ms: u64) -> Result<Reply, Failure> {
        Ok(Reply { mv: mv.into(), score: None, elapsed: Duration::from_millis(ms) })
    }

    fn game(clock: Clock) -> Referee {
        Referee::new(AnyRules::by_name("standard").unwrap().start(), true, clock, Adjudication::default())
    }

    #[test]
    fn fools_mate_ends_by_the_rules_and_reads_as_pgn() {
        let mut g = game(Clock::untimed());
        for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
            assert!(g.judge().is_none());
            g.answer(reply(m, 0));
        }
        assert_eq!(g.judge().map(|e| e.match_reason()), Some("Black mates".to_string()));
        let header = PgnHeader {
            event: "test",
            round: 1,
            players: ["A", "B"],
            more_tags: vec![],
            computed_tags: vec![Computed::PlyCount, Computed::Termination],
            words: Words::Match,
            reason_comment: true,
        };
        let text = g.pgn(header);
        assert!(text.contains("[PlyCount \"4\"]\n[Termination \"normal\"]"), "{text}");
        assert!(text.ends_with("1. f3 e5 2. g4 Qh4# {Black mates} 0-1\n"), "{text}");
    }

    #[test]
    fn forfeits_for_time_illegal_moves_and_failures() {
        let control = crate::clock::TimeControl::from_ms((0, 100, 0));
        let mut g = game(Clock::new([Some(control); 2]));
        assert_eq!(g.answer(reply("e2e4", 101)).map(|e| e.match_reason()), Some("White loses on time".into()));
        assert_eq!(g.clock().left(Color::White), Some(Duration::ZERO));
        let mut g = game(Clock::untimed());
        let end = g.answer(reply("e2e5", 0)).unwrap();
        assert_eq!(
            (end.termination(), end.match_reason()),
            ("illegal move", "White makes an illegal move: e2e5".into())
        );
        let mut g = game(Clock::untimed());
        g.answer(reply("e2e4", 0));
        assert_eq!(g.answer(Err(Failure::Crashed)).map(|e| e.result()), Some("1-0"));
    }

    #[test]
    fn taking_back_restores_the_position_record_and_clock() {
        let control = crate::clock::TimeControl::from_ms((0, 1000, 0));
        let mut g = game(Clock::new([Some(control); 2]));
        g.answer(reply("e2e4", 300));
        g.answer(reply("e7e5", 0));
        g.take_back(2);
        assert_eq!((g.record().len(), g.moves().len(), g.plies()), (0, 0, 0));
        assert_eq!(g.clock().left(Color::White), Some(Duration::from_millis(1000)));
        assert_eq!(g.position().fen(), AnyRules::by_name("standard").unwrap().start().fen());
    }
}
