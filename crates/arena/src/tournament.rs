//! A match between two engine processes, as `protean match` runs it with
//! cutechess-cli's options: games on worker threads (`concurrency`), each
//! refereed by a [`Referee`], cutechess-cli's progress lines, the PGN,
//! Elo and the SPRT on game pairs, and resuming from an earlier PGN.

use crate::adjudication::Adjudication;
use crate::book::Opening;
use crate::clock::{Clock, TimeControl};
use crate::ending::Forfeit;
use crate::engine_process::{EngineProcess, Failure, Proto, Reply, SearchLimit};
use crate::match_stats::{elo_with_margin, first_engine_points, los, sprt_bounds, sprt_llr, Tally};
use crate::referee::{play_out, Computed, PgnHeader, Players, Referee, Words};
use protean_rules::notation::castling_in_san;
use protean_rules::{AnyRules, Color};
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};

/// An engine of the match.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    pub cmd: String,
    pub name: String,
    pub proto: Proto,
    pub options: Vec<(String, String)>,
    pub limit: SearchLimit,
    /// The time control as given, for PGN.
    pub tc: String,
}

/// The SPRT's hypotheses and error rates.
#[derive(Clone, Copy, Debug)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// A match as its options set it.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub engines: [EngineSpec; 2],
    /// Protean's name of the variant.
    pub variant: String,
    pub games: usize,
    /// Each opening twice, colours swapped.
    pub repeat: bool,
    pub concurrency: usize,
    /// In the order they are played (empty: the variant's start).
    pub openings: Vec<Opening>,
    pub pgnout: Option<std::path::PathBuf>,
    /// `-draw`, `-resign` and `-maxmoves`.
    pub adjudication: Adjudication,
    pub recover: bool,
    pub sprt: Option<Sprt>,
    pub rating_interval: usize,
    /// A PGN of an earlier run of this match whose games count.
    pub resume: Option<std::path::PathBuf>,
}

/// One finished game.
#[derive(Clone, Debug)]
struct Game {
    number: usize,
    /// Which engine (0 or 1) had White.
    white: usize,
    result: &'static str,
    reason: String,
    pgn: String,
}

/// Plays the match, printing as cutechess-cli does.
pub fn run_match(cfg: MatchConfig) -> Result<(), String> {
    let cfg = Arc::new(cfg);
    let names = [cfg.engines[0].name.clone(), cfg.engines[1].name.clone()];
    let mut tally = Tally::default();
    let mut first_number = 0;
    let mut sprt_verdict = None;
    // The number of games the last rating line counted.
    let mut reported = 0;
    if let Some(path) = &cfg.resume {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let earlier = earlier_games(&text, &names).map_err(|e| format!("{}: {e}", path.display()))?;
        for &(number, points) in &earlier.games {
            tally.add(number, points);
        }
        first_number = earlier.next;
        println!(
            "Resuming from {}: {} games counted, {} left out (their partners had not finished); playing on from game {}",
            path.display(),
            earlier.games.len(),
            earlier.left_out,
            first_number + 1
        );
        // The earlier games may have decided the test already.
        sprt_verdict = report(&cfg, &tally);
        reported = tally.games();
    }
    // As cutechess-cli does: an engine that cannot even start stops the
    // match at once, rather than forfeiting every game.
    for spec in &cfg.engines {
        EngineProcess::start(&spec.cmd, spec.proto, &spec.options)
            .map_err(|e| format!("Cannot start engine {}: {e}", spec.name))?;
    }
    let next = Arc::new(AtomicUsize::new(first_number));
    let stop = Arc::new(AtomicBool::new(sprt_verdict.is_some()));
    let (tx, rx) = mpsc::channel::<Game>();
    let mut workers = Vec::new();
    for _ in 0..cfg.concurrency.min(cfg.games.max(1)) {
        let (cfg, next, stop, tx) = (cfg.clone(), next.clone(), stop.clone(), tx.clone());
        workers.push(std::thread::spawn(move || {
            let mut engines: [Option<EngineProcess>; 2] = [None, None];
            let mut dead = [false, false];
            loop {
                let number = next.fetch_add(1, Ordering::SeqCst);
                if number >= cfg.games || stop.load(Ordering::SeqCst) {
                    break;
                }
                println!(
                    "Started game {} of {} ({} vs {})",
                    number + 1,
                    cfg.games,
                    cfg.engines[number % 2].name,
                    cfg.engines[1 - number % 2].name
                );
                let game = play_game(&cfg, number, &mut engines, &mut dead);
                if tx.send(game).is_err() {
                    break;
                }
            }
        }));
    }
    drop(tx);

    let mut pgn_file = match &cfg.pgnout {
        Some(p) => {
            // A resumed match adds its games to the earlier ones.
            let mut open = std::fs::OpenOptions::new();
            if cfg.resume.is_some() {
                open.append(true);
            } else {
                open.write(true).truncate(true);
            }
            Some(open.create(true).open(p).map_err(|e| format!("{}: {e}", p.display()))?)
        }
        None => None,
    };
    for game in rx {
        tally.add(game.number, first_engine_points(game.result, game.white == 0));
        let finished = tally.games() as usize;
        println!(
            "Finished game {} ({} vs {}): {} {{{}}}",
            game.number + 1,
            names[game.white],
            names[1 - game.white],
            game.result,
            game.reason
        );
        println!(
            "Score of {} vs {}: {} - {} - {}  [{:.3}] {finished}",
            names[0],
            names[1],
            tally.wins,
            tally.losses,
            tally.draws,
            tally.score()
        );
        if let Some(f) = pgn_file.as_mut() {
            f.write_all(game.pgn.as_bytes()).map_err(|e| e.to_string())?;
        }
        if finished.is_multiple_of(cfg.rating_interval.max(1)) || finished == cfg.games {
            // Games still in play when a bound is crossed are counted, but
            // do not take the verdict back.
            let verdict = report(&cfg, &tally);
            reported = tally.games();
            sprt_verdict = sprt_verdict.or(verdict);
            if sprt_verdict.is_some() {
                stop.store(true, Ordering::SeqCst);
            }
        }
    }
    for w in workers {
        let _ = w.join();
    }
    if reported != tally.games() {
        print_rating(&tally);
    }
    if let Some(v) = sprt_verdict {
        println!("SPRT: {v}");
    }
    println!("Finished match");
    Ok(())
}

/// The games of an earlier run of a match (`-resume`) that count.
#[derive(Debug, PartialEq)]
struct EarlierGames {
    /// Game numbers (from 0) and the first engine's points, in order: only
    /// pairs both of whose games finished, since a pair is the SPRT's unit.
    games: Vec<(usize, f64)>,
    /// Finished games whose partner had not (left out; a pair after the
    /// last whole one is played again).
    left_out: usize,
    /// The game to go on from: the one after the last pair counted.
    next: usize,
}

/// Reads a PGN that `-pgnout` wrote for a match between `names` (in either
/// colour; numbered by the Round tag). A game written twice (a pair
/// played again after a resume) counts as its last record.
fn earlier_games(text: &str, names: &[String; 2]) -> Result<EarlierGames, String> {
    if names[0] == names[1] {
        return Err(format!("both engines are named {}: a resumed match tells them apart by name", names[0]));
    }
    let mut points = std::collections::BTreeMap::new();
    for (i, game) in crate::pgn::games(text).iter().enumerate() {
        let round = game.tag("Round").and_then(|r| r.parse::<usize>().ok()).filter(|&r| r >= 1);
        let round = round.ok_or_else(|| format!("game {} has no round number", i + 1))?;
        let players = [game.tag("White").unwrap_or("?"), game.tag("Black").unwrap_or("?")];
        let first_is_white = players[0] == names[0];
        if players != [names[0].as_str(), names[1].as_str()] && players != [names[1].as_str(), names[0].as_str()] {
            return Err(format!(
                "game {} (round {round}) is {} vs {}, not a game of {} and {}",
                i + 1,
                players[0],
                players[1],
                names[0],
                names[1]
            ));
        }
        // An unfinished game (`*`) does not count.
        if let Some(r @ ("1-0" | "0-1" | "1/2-1/2")) = game.tag("Result") {
            points.insert(round - 1, first_engine_points(r, first_is_white));
        }
    }
    let games: Vec<(usize, f64)> =
        points.iter().filter(|(n, _)| points.contains_key(&(*n ^ 1))).map(|(&n, &p)| (n, p)).collect();
    let next = games.last().map_or(0, |&(n, _)| n + 1);
    Ok(EarlierGames { left_out: points.len() - games.len(), next, games })
}

/// Prints the rating line and, with `-sprt`, the test's state; gives the
/// verdict if a bound is crossed.
fn report(cfg: &MatchConfig, tally: &Tally) -> Option<&'static str> {
    print_rating(tally);
    let s = cfg.sprt?;
    let llr = sprt_llr(&tally.pairs, s.elo0, s.elo1);
    let (lower, upper) = sprt_bounds(s.alpha, s.beta);
    println!("SPRT: llr {llr:.3} ({:.1}%), lbound {lower:.2}, ubound {upper:.2}", 100.0 * llr / upper);
    (llr >= upper || llr <= lower).then_some(if llr >= upper { "H1 was accepted" } else { "H0 was accepted" })
}

fn print_rating(tally: &Tally) {
    println!("{}", rating_line(tally.wins, tally.draws, tally.losses));
}

/// cutechess-cli's rating line.
fn rating_line(wins: u32, draws: u32, losses: u32) -> String {
    let (e, margin) = elo_with_margin(wins, draws, losses);
    let n = (wins + draws + losses).max(1);
    // A score of 0 or 1 has no finite Elo: written as cutechess-cli does.
    let elo = match (wins + draws, losses + draws) {
        (0, l) if l > 0 => "-inf +/- nan".to_string(),
        (w, 0) if w > 0 => "inf +/- nan".to_string(),
        _ => format!("{e:.1} +/- {margin:.1}"),
    };
    format!(
        "Elo difference: {elo}, LOS: {:.1} %, DrawRatio: {:.1} %",
        100.0 * los(wins, losses),
        100.0 * f64::from(draws) / f64::from(n)
    )
}

/// Starts an engine if it is not running: always before its first game,
/// and after a crash only with `-recover`.
fn ensure_engine(cfg: &MatchConfig, i: usize, engines: &mut [Option<EngineProcess>; 2], dead: &mut [bool; 2]) -> bool {
    if engines[i].as_mut().is_some_and(|e| e.alive()) {
        return true;
    }
    if dead[i] && !cfg.recover {
        return false;
    }
    let spec = &cfg.engines[i];
    engines[i] = EngineProcess::start(&spec.cmd, spec.proto, &spec.options).ok();
    dead[i] = engines[i].is_none();
    engines[i].is_some()
}

/// The two engines as players of one game: engine 0 or 1 for each colour.
struct EnginePlayers<'a> {
    cfg: &'a MatchConfig,
    engines: &'a mut [Option<EngineProcess>; 2],
    dead: &'a mut [bool; 2],
    /// The engine that has White.
    white: usize,
}

impl EnginePlayers<'_> {
    fn engine_of(&self, c: Color) -> usize {
        if c == Color::White {
            self.white
        } else {
            1 - self.white
        }
    }
}

impl Players for EnginePlayers<'_> {
    fn think(&mut self, side: Color, game: &Referee) -> Result<Reply, Failure> {
        let who = self.engine_of(side);
        let spec = &self.cfg.engines[who];
        let fen = (!game.standard_start()).then_some(game.start_fen());
        // XBoard writes Chess960 castling as O-O and O-O-O, both ways.
        let o_o = spec.proto == Proto::Xboard && game.position().variant().castles_by_rook();
        let sent: Vec<String> = if o_o {
            game.moves()
                .iter()
                .zip(game.record())
                .map(|(m, san)| castling_in_san(san).unwrap_or(m).to_string())
                .collect()
        } else {
            game.moves().to_vec()
        };
        let engine = self.engines[who].as_mut().expect("started before the game");
        let answer =
            engine.think(&self.cfg.variant, fen, &sent, side == Color::White, &spec.limit, game.clock().left_ms());
        match answer {
            Err(f @ (Failure::Stalled | Failure::Crashed)) => {
                self.engines[who] = None;
                self.dead[who] = true;
                Err(f)
            }
            Ok(mut reply) if o_o && reply.mv.starts_with("O-O") => {
                if let Ok(coordinates) = game.position().clone().play_san(&reply.mv) {
                    reply.mv = coordinates;
                }
                Ok(reply)
            }
            answer => answer,
        }
    }
}

fn play_game(cfg: &MatchConfig, number: usize, engines: &mut [Option<EngineProcess>; 2], dead: &mut [bool; 2]) -> Game {
    let white = number % 2;
    let rules = AnyRules::by_name(&cfg.variant).expect("checked when parsing");
    let opening = if cfg.openings.is_empty() {
        Opening::default()
    } else {
        let index = if cfg.repeat { number / 2 } else { number };
        cfg.openings[index % cfg.openings.len()].clone()
    };
    let start = match &opening.fen {
        Some(f) => rules.from_fen(f).expect("checked when reading the book"),
        None => rules.start(),
    };
    let engine_of = |c: Color| if c == Color::White { white } else { 1 - white };
    let clock = Clock::new(Color::ALL.map(|c| cfg.engines[engine_of(c)].limit.clock.map(TimeControl::from_ms)));
    let mut game = Referee::new(start, opening.fen.is_none(), clock, cfg.adjudication);
    game.play_book(&opening.moves).expect("checked when reading the book");
    for i in [0, 1] {
        let ok = ensure_engine(cfg, i, engines, dead)
            && engines[i].as_mut().is_some_and(|e| e.new_game(&cfg.variant).is_ok());
        if !ok {
            dead[i] = true;
            let loser = if i == white { Color::White } else { Color::Black };
            game.forfeit(loser, Forfeit::Unavailable(cfg.engines[i].name.clone()));
            break;
        }
    }
    let ending = match game.ending() {
        Some(e) => e.clone(),
        None => play_out(&mut game, &mut EnginePlayers { cfg, engines, dead, white }),
    };
    let header = PgnHeader {
        event: "protean match",
        round: number + 1,
        players: [&cfg.engines[white].name, &cfg.engines[1 - white].name],
        more_tags: vec![("TimeControl", cfg.engines[white].tc.clone())],
        computed_tags: vec![Computed::PlyCount, Computed::Termination],
        words: Words::Match,
        reason_comment: true,
    };
    Game { number, white, result: ending.result(), reason: ending.match_reason(), pgn: game.pgn(header) + "\n" }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_resumed_match_counts_whole_pairs_by_round_and_either_colour() {
        let names = ["new".to_string(), "base".to_string()];
        let game = |round: usize, white: &str, black: &str, result: &str| {
            format!("[Round \"{round}\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n\n1. e4 e5 {result}\n\n")
        };
        // Pair 1-2, pair 3-4 (round 4 written twice: its last record counts),
        // round 5 alone, round 6 unfinished.
        let text = [
            game(1, "new", "base", "1-0"),
            game(2, "base", "new", "1-0"),
            game(4, "base", "new", "1-0"),
            game(3, "new", "base", "1/2-1/2"),
            game(4, "base", "new", "0-1"),
            game(5, "new", "base", "1-0"),
            game(6, "base", "new", "*"),
        ]
        .concat();
        let earlier = earlier_games(&text, &names).unwrap();
        assert_eq!(earlier, EarlierGames { games: vec![(0, 1.0), (1, 0.0), (2, 0.5), (3, 1.0)], left_out: 1, next: 4 });
        assert_eq!(earlier_games("", &names).unwrap(), EarlierGames { games: vec![], left_out: 0, next: 0 });
        // Games of other engines, games without a round, and engines that
        // share a name are refused.
        let err = earlier_games(&game(1, "new", "other", "1-0"), &names).unwrap_err();
        assert!(err.contains("new vs other, not a game of new and base"), "{err}");
        let err = earlier_games("[White \"new\"]\n[Black \"base\"]\n\n1-0\n", &names).unwrap_err();
        assert!(err.contains("no round number"), "{err}");
        assert!(earlier_games(&text, &["a".to_string(), "a".to_string()]).is_err());
    }

    #[test]
    fn a_whole_score_has_no_finite_elo() {
        assert!(rating_line(0, 0, 10).starts_with("Elo difference: -inf +/- nan, LOS: "));
        assert!(rating_line(10, 0, 0).starts_with("Elo difference: inf +/- nan, LOS: "));
        assert!(!rating_line(5, 0, 5).contains("inf"), "{}", rating_line(5, 0, 5));
    }
}
