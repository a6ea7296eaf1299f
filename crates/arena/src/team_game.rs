//! A Perplexichess team game (RULINGS.md, Perplexichess 1-6), as `protean
//! perplexichess` plays it. Two teams play 3, 5 or 7 Flexichess boards at
//! once; on each board a boardman engine per side (any UCI engine that
//! knows `flexichess`) plays with its own clock, refereed by its own
//! [`Referee`]. Between moves each team's grand strategist may transfer
//! one of its pieces to the same cell of another board: Protean's
//! strategist (`strategist.rs`), or transfer lines (`transfer white 1 d4
//! 3`: White moves its piece on d4 of board 1 to board 3).
//!
//! The boards move in rounds: in each, every unfinished board's side to
//! move searches at the same time (one thread per board), then the moves
//! are played and the strategists act. Each board's clocks run only while
//! its engines think, so a round is as long as its slowest board.
//!
//! The team rules (what a transfer names, the time limit, the team
//! result) are `protean_rules::team`; a transfer's legality on the boards
//! is `protean_rules::transfer`.

use crate::adjudication::Adjudication;
use crate::clock::{Clock, TimeControl};
use crate::ending::{side_name, Ending, Reason};
use crate::engine_process::{EngineProcess, Failure, Proto, SearchLimit};
use crate::referee::{Computed, PgnHeader, Referee, Words};
use crate::strategist::{BoardView, Lookahead, Strategist};
use protean_rules::team::{self, Transfer};
use protean_rules::{AnyRules, Color};
use std::io::Write;
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::Instant;

/// Rounds a strategist lets pass after a transfer before the next.
const STRATEGIST_PAUSE: usize = 4;

/// A team game's settings.
pub struct TeamGame {
    /// 3, 5 or 7.
    pub boards: usize,
    /// White's and Black's boardman engine commands.
    pub commands: [String; 2],
    /// Each board's clock per side (the whole game: no periods).
    pub clock: TimeControl,
    /// Seconds for the whole game; then an unfinished board goes to the
    /// side with more pieces on it (equal: drawn).
    pub time_limit: Option<f64>,
    pub pgnout: Option<PathBuf>,
    /// Each side's strategist and how it looks (`None`: none).
    pub strategists: Option<[Lookahead; 2]>,
    /// Plies after which a board still going is drawn.
    pub max_plies: usize,
}

struct Board {
    game: Referee,
    engines: [EngineProcess; 2],
}

/// A board's game as the team game starts it: Flexichess's start, the
/// clock and the ply limit (the web page's team games start theirs so too).
pub fn board_referee(rules: &AnyRules, clock: Clock, max_plies: usize) -> Referee {
    let limit = Adjudication { max_plies: Some(max_plies), ..Adjudication::default() };
    Referee::new(rules.start(), true, clock, limit)
}

/// Plays the game, with transfer lines from `transfers_in`; prints each
/// round on standard error and the boards' results on standard output.
pub fn play(settings: &TeamGame, transfers_in: mpsc::Receiver<String>) -> Result<(), String> {
    if !team::BOARD_COUNTS.contains(&settings.boards) {
        return Err(format!("a team game is played on 3, 5 or 7 boards, not {}", settings.boards));
    }
    let rules = AnyRules::by_name("flexichess").map_err(|e| e.to_string())?;
    let options = [("UCI_Variant".to_string(), "flexichess".to_string())];
    let mut boards = Vec::new();
    for _ in 0..settings.boards {
        let engines = [
            EngineProcess::start(&settings.commands[0], Proto::Uci, &options)?,
            EngineProcess::start(&settings.commands[1], Proto::Uci, &options)?,
        ];
        let clock = Clock::new([Some(settings.clock); 2]);
        let game = board_referee(&rules, clock, settings.max_plies).with_start_fen(&rules.variant().start_fen);
        boards.push(Board { game, engines });
    }
    let start = Instant::now();
    let mut transfers_made = 0;
    // Each strategist's last transfer and the round it was made in: it
    // waits a few rounds before the next, and never undoes the last.
    let mut last: [Option<(Transfer, usize)>; 2] = [None, None];
    // Each with its own engine and table: none when they are turned off.
    let mut strategists = settings
        .strategists
        .map(|looks| Color::ALL.map(|c| Strategist::new(c, looks[c as usize], boards[0].game.position())));
    let mut round = 0;

    while boards.iter().any(|b| b.game.ending().is_none()) {
        if settings.time_limit.is_some_and(|t| start.elapsed().as_secs_f64() >= t) {
            for b in boards.iter_mut().filter(|b| b.game.ending().is_none()) {
                let winner = team::time_limit_winner(b.game.position().piece_counts());
                b.game.end(Ending { winner, reason: Reason::TimeLimit });
                b.game.remove_kings();
            }
            break;
        }
        let played = play_round(&mut boards, settings.clock);
        round += 1;
        // Progress: each board's move this round (and how a board ended).
        let moves: Vec<String> =
            played.iter().enumerate().filter_map(|(i, p)| p.as_ref().map(|p| format!("{}: {p}", i + 1))).collect();
        eprintln!("round {round} at {:.1}s: {}", start.elapsed().as_secs_f64(), moves.join(", "));
        // Between moves: transfer lines, then the strategists.
        while let Ok(line) = transfers_in.try_recv() {
            match parse_transfer(&line, boards.len()).and_then(|t| make_transfer(&mut boards, &t, start)) {
                Ok(()) => transfers_made += 1,
                Err(e) => eprintln!("transfer refused: {e}"),
            }
        }
        if let Some(strategists) = strategists.as_mut().filter(|_| boards.iter().any(|b| b.game.ending().is_none())) {
            for color in Color::ALL {
                let previous = &last[color as usize];
                if previous.as_ref().is_some_and(|(_, r)| round < r + STRATEGIST_PAUSE) {
                    continue;
                }
                let views: Vec<BoardView> = boards
                    .iter()
                    .map(|b| BoardView { position: b.game.position(), finished: b.game.ending().is_some() })
                    .collect();
                if let Some(t) = strategists[color as usize].choose(&views, previous.as_ref().map(|(t, _)| t)) {
                    if make_transfer(&mut boards, &t, start).is_ok() {
                        transfers_made += 1;
                        last[color as usize] = Some((t, round));
                    }
                }
            }
        }
    }
    report(&boards, transfers_made, settings.pgnout.as_ref())
}

/// Every unfinished board's side to move searches at once; then the
/// answers go to the boards' referees. Returns, per board that moved, its
/// move in SAN and, if the board ended, how.
fn play_round(boards: &mut [Board], clock: TimeControl) -> Vec<Option<String>> {
    let limit = SearchLimit {
        clock: Some((0, clock.base.as_millis() as u64, clock.increment.as_millis() as u64)),
        ..SearchLimit::default()
    };
    let limit = &limit;
    let answers: Vec<Option<Result<_, Failure>>> = std::thread::scope(|s| {
        let handles: Vec<_> = boards
            .iter_mut()
            .map(|b| {
                (b.game.ending().is_none()).then(|| {
                    let fen = b.game.position().fen();
                    let mover = b.game.side_to_move();
                    let clocks = b.game.clock().left_ms();
                    let engine = &mut b.engines[mover as usize];
                    s.spawn(move || engine.think("flexichess", Some(&fen), &[], mover == Color::White, limit, clocks))
                })
            })
            .collect();
        handles.into_iter().map(|h| h.map(|h| h.join().unwrap_or(Err(Failure::Crashed)))).collect()
    });
    let mut played = Vec::with_capacity(boards.len());
    for (b, answer) in boards.iter_mut().zip(answers) {
        let Some(answer) = answer else {
            played.push(None);
            continue;
        };
        let moves_before = b.game.record().len();
        b.game.answer(answer);
        let ending = b.game.judge().cloned();
        let mut note = b.game.record().get(moves_before).cloned().unwrap_or_default();
        if let Some(end) = &ending {
            let text = match end.winner {
                Some(winner) => format!("{} wins, {}", side_name(winner), end.board_reason()),
                None => format!("drawn, {}", end.board_reason()),
            };
            note = if note.is_empty() { format!("({text})") } else { format!("{note} ({text})") };
            b.game.remove_kings();
        }
        played.push(Some(note));
    }
    played
}

/// A transfer line: `transfer white|black FROM CELL TO`, boards from 1.
fn parse_transfer(line: &str, boards: usize) -> Result<Transfer, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let [verb, side, from, cell, to] = words[..] else {
        return Err(format!("'{line}' is not 'transfer white|black FROM CELL TO'"));
    };
    let color = match side {
        "white" => Color::White,
        "black" => Color::Black,
        _ => return Err(format!("'{side}' is neither white nor black")),
    };
    let board = |t: &str| t.parse::<usize>().ok().filter(|b| (1..=boards).contains(b)).map(|b| b - 1);
    match (verb, board(from), board(to)) {
        ("transfer", Some(from), Some(to)) if from != to => Ok(Transfer { color, from, cell: cell.to_string(), to }),
        _ => Err(format!("'{line}': boards are numbered 1 to {boards}, two different ones")),
    }
}

/// Moves the piece of a transfer from one board's game to the other's if
/// the rules allow it, and records it in both (`{transfer out: white N d4
/// to board 3...}`, `at` appended). Returns the piece's letter.
pub fn transfer_between(from: &mut Referee, to: &mut Referee, t: &Transfer, at: &str) -> Result<char, String> {
    let piece = from.position_mut().transfer_to(to.position_mut(), &t.cell, t.color)?;
    let letter = from.position().variant().pieces[piece.kind()].letter;
    let side = side_name(t.color);
    from.note(format!("{{transfer out: {side} {letter} {} to board {}{at}}}", t.cell, t.to + 1));
    to.note(format!("{{transfer in: {side} {letter} {} from board {}{at}}}", t.cell, t.from + 1));
    Ok(letter)
}

/// Carries out a transfer if the rules allow it, and records it on both
/// boards with the game's clock.
fn make_transfer(boards: &mut [Board], t: &Transfer, start: Instant) -> Result<(), String> {
    let [a, b] =
        boards.get_disjoint_mut([t.from, t.to]).map_err(|e| format!("boards {} and {}: {e}", t.from + 1, t.to + 1))?;
    let secs = start.elapsed().as_secs_f64();
    let letter = transfer_between(&mut a.game, &mut b.game, t, &format!(" at {secs:.1}s"))?;
    eprintln!(
        "transfer: {} {letter} {} from board {} to board {} at {secs:.1}s",
        side_name(t.color),
        t.cell,
        t.from + 1,
        t.to + 1
    );
    Ok(())
}

/// The team result as the summary and the web page say it, from the
/// boards' winners: boards won by each team, and the verdict.
pub fn team_verdict(board_winners: &[Option<Color>]) -> ([usize; 2], &'static str) {
    let (won, winner) = team::team_result(board_winners);
    let text = match winner {
        Some(Color::White) => "White team wins",
        Some(Color::Black) => "Black team wins",
        None => "drawn",
    };
    (won, text)
}

fn report(boards: &[Board], transfers: usize, pgnout: Option<&PathBuf>) -> Result<(), String> {
    let endings: Vec<&Ending> = boards.iter().map(|b| b.game.ending().expect("every board ended")).collect();
    let (won, team) = team_verdict(&endings.iter().map(|e| e.winner).collect::<Vec<_>>());
    let mut pgn = String::new();
    for (i, (b, end)) in boards.iter().zip(&endings).enumerate() {
        println!("board {}: {} ({})", i + 1, end.result(), end.board_reason());
        let (white, black) = (format!("White team, board {}", i + 1), format!("Black team, board {}", i + 1));
        let header = PgnHeader {
            event: "protean perplexichess",
            round: i + 1,
            players: [&white, &black],
            more_tags: Vec::new(),
            computed_tags: vec![Computed::Reason],
            words: Words::Board,
            reason_comment: false,
        };
        pgn += &(b.game.pgn(header) + "\n");
    }
    let drawn = boards.len() - won[0] - won[1];
    println!("boards won: White {} Black {} drawn {drawn}; transfers {transfers}; result: {team}", won[0], won[1]);
    if let Some(path) = pgnout {
        std::fs::File::create(path)
            .and_then(|mut f| f.write_all(pgn.as_bytes()))
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_team_with_more_won_boards_wins() {
        let (w, b, d) = (Some(Color::White), Some(Color::Black), None);
        assert_eq!(team_verdict(&[w, b, d]), ([1, 1], "drawn"));
        assert_eq!(team_verdict(&[w, d, d]), ([1, 0], "White team wins"));
        assert_eq!(team_verdict(&[b, b, w, d, w]), ([2, 2], "drawn"));
        assert_eq!(team_verdict(&[b, b, w, d, d]), ([1, 2], "Black team wins"));
    }

    #[test]
    fn at_the_time_limit_more_pieces_win_a_board() {
        let by_pieces = |counts| {
            let e = Ending { winner: team::time_limit_winner(counts), reason: Reason::TimeLimit };
            (e.winner, e.board_reason())
        };
        assert_eq!(by_pieces([9, 7]), (Some(Color::White), "time limit: more pieces".into()));
        assert_eq!(by_pieces([3, 12]), (Some(Color::Black), "time limit: more pieces".into()));
        assert_eq!(by_pieces([5, 5]), (None, "time limit: equal pieces".into()));
    }

    #[test]
    fn transfers_from_standard_input_are_read_strictly() {
        assert_eq!(
            parse_transfer("transfer white 1 d4 3", 3),
            Ok(Transfer { color: Color::White, from: 0, cell: "d4".into(), to: 2 })
        );
        for bad in [
            "transfer white 1 d4 1",
            "transfer red 1 d4 2",
            "transfer white 0 d4 2",
            "transfer white 1 d4 4",
            "move white 1 d4 2",
            "transfer",
        ] {
            assert!(parse_transfer(bad, 3).is_err(), "{bad}");
        }
    }
}
