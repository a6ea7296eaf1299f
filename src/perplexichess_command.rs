//! `protean perplexichess`: a Perplexichess team game (RULINGS.md,
//! Perplexichess 1-6). Two teams play 3, 5 or 7 Flexichess boards at once;
//! on each board a boardman engine per side (any UCI engine that knows
//! `flexichess`) plays with its own clock. Between moves each team's grand
//! strategist may transfer one of its pieces to the same cell of another
//! board: Protean's strategist (`strategist.rs`), or lines on standard
//! input (`transfer white 1 d4 3`: White moves its piece on d4 of board 1
//! to board 3).
//!
//! The boards move in rounds: in each, every unfinished board's side to
//! move searches at the same time (one thread per board), then the moves
//! are played and the strategists act. Each board's clocks run only while
//! its engines think, so a round is as long as its slowest board.

use crate::engine_process::{parse_tc, EngineProcess, Proto, SearchLimit};
use crate::strategist::{BoardView, Lookahead, Strategist, Transfer};
use clap::Args;
use protean_rules::{AnyPosition, AnyRules, Color, Outcome};
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::{Duration, Instant};

#[derive(Args)]
pub struct PerplexichessArgs {
    /// Boards: 3 (small game), 5 (medium) or 7 (large).
    #[arg(long, default_value_t = 3)]
    boards: usize,
    /// White's boardman engine command (default: this Protean).
    #[arg(long)]
    white: Option<String>,
    /// Black's boardman engine command (default: this Protean).
    #[arg(long)]
    black: Option<String>,
    /// Each board's clock per side: seconds, and `+increment` seconds.
    #[arg(long, default_value = "10+0.1")]
    tc: String,
    /// Seconds for the whole game; then an unfinished board goes to the
    /// side with more pieces on it (equal: drawn).
    #[arg(long)]
    time_limit: Option<f64>,
    /// Where to write one PGN game per board.
    #[arg(long)]
    pgnout: Option<PathBuf>,
    /// Read transfers from standard input (`transfer white 1 d4 3`).
    #[arg(long)]
    stdin_transfers: bool,
    /// Turn off Protean's strategists (only standard input transfers).
    #[arg(long)]
    no_strategists: bool,
    /// How White's strategist looks: `one-ply` (every transfer by a
    /// one-ply search of both boards) or `search` (the few best of those
    /// searched again, both boards, 20,000 nodes each; not yet shown to
    /// win more, so not the default).
    #[arg(long, value_enum, default_value_t = Lookahead::OnePly)]
    white_strategist: Lookahead,
    /// How Black's strategist looks (as `--white-strategist`).
    #[arg(long, value_enum, default_value_t = Lookahead::OnePly)]
    black_strategist: Lookahead,
    /// Plies after which a board still going is drawn.
    #[arg(long, default_value_t = 400)]
    max_plies: usize,
}

/// Rounds a strategist lets pass after a transfer before the next.
const STRATEGIST_PAUSE: usize = 4;

/// How one board ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum BoardResult {
    Won(Color, String),
    Drawn(String),
}

struct Board {
    position: AnyPosition,
    engines: [EngineProcess; 2],
    clocks_ms: [u64; 2],
    /// The board's record: SAN moves and transfer comments, in order.
    record: Vec<String>,
    plies: usize,
    result: Option<BoardResult>,
}

impl BoardResult {
    pub(crate) fn from_outcome(o: Outcome) -> BoardResult {
        match o {
            Outcome::Checkmate { winner } => BoardResult::Won(winner, "checkmate".into()),
            o => BoardResult::Drawn(o.reason().into()),
        }
    }
    /// PGN's result.
    pub(crate) fn pgn(&self) -> &'static str {
        match self {
            BoardResult::Won(Color::White, _) => "1-0",
            BoardResult::Won(Color::Black, _) => "0-1",
            BoardResult::Drawn(_) => "1/2-1/2",
        }
    }
    pub(crate) fn reason(&self) -> &str {
        match self {
            BoardResult::Won(_, why) | BoardResult::Drawn(why) => why,
        }
    }
}

/// Moves the piece of a transfer from one position to the other if the
/// rules allow it, and returns its letter and the comments both boards'
/// records get (`{transfer out: white N d4 to board 3...}`, `at` appended).
pub(crate) fn transfer_between(
    from: &mut AnyPosition,
    to: &mut AnyPosition,
    t: &Transfer,
    at: &str,
) -> Result<(char, [String; 2]), String> {
    let piece = from.transfer_to(to, &t.cell, t.color)?;
    let letter = from.variant().pieces[piece.kind()].letter;
    let side = side_name(t.color);
    Ok((
        letter,
        [
            format!("{{transfer out: {side} {letter} {} to board {}{at}}}", t.cell, t.to + 1),
            format!("{{transfer in: {side} {letter} {} from board {}{at}}}", t.cell, t.from + 1),
        ],
    ))
}

/// An unfinished board at the time limit: it goes to the side with more
/// pieces on it; equal counts draw it.
fn by_pieces([white, black]: [u32; 2]) -> BoardResult {
    match white.cmp(&black) {
        std::cmp::Ordering::Greater => BoardResult::Won(Color::White, "time limit: more pieces".into()),
        std::cmp::Ordering::Less => BoardResult::Won(Color::Black, "time limit: more pieces".into()),
        std::cmp::Ordering::Equal => BoardResult::Drawn("time limit: equal pieces".into()),
    }
}

/// Boards won by each team, and the game's result: the team that won
/// more boards wins.
pub(crate) fn team_result(results: &[BoardResult]) -> ([usize; 2], &'static str) {
    let mut won = [0, 0];
    for r in results {
        if let BoardResult::Won(c, _) = r {
            won[*c as usize] += 1;
        }
    }
    let text = match won[0].cmp(&won[1]) {
        std::cmp::Ordering::Greater => "White team wins",
        std::cmp::Ordering::Less => "Black team wins",
        std::cmp::Ordering::Equal => "drawn",
    };
    (won, text)
}

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

/// A side as the team game and the page write it: `white`, `black`.
pub(crate) fn side_name(c: Color) -> &'static str {
    if c == Color::White {
        "white"
    } else {
        "black"
    }
}

pub fn run(args: &PerplexichessArgs) -> Result<(), String> {
    if ![3, 5, 7].contains(&args.boards) {
        return Err(format!("--boards is 3, 5 or 7, not {}", args.boards));
    }
    let (base_ms, inc_ms) = match parse_tc(&args.tc)? {
        Some((0, base, inc)) => (base, inc),
        _ => return Err(format!("--tc '{}': give seconds and an increment, like 10+0.1", args.tc)),
    };
    let me = std::env::current_exe().map_err(|e| e.to_string())?.to_string_lossy().to_string();
    let commands = [args.white.clone().unwrap_or_else(|| me.clone()), args.black.clone().unwrap_or(me)];
    let rules = AnyRules::by_name("flexichess").map_err(|e| e.to_string())?;
    let options = [("UCI_Variant".to_string(), "flexichess".to_string())];
    let mut boards = Vec::new();
    for _ in 0..args.boards {
        let engines = [
            EngineProcess::start(&commands[0], Proto::Uci, &options)?,
            EngineProcess::start(&commands[1], Proto::Uci, &options)?,
        ];
        boards.push(Board {
            position: rules.start(),
            engines,
            clocks_ms: [base_ms; 2],
            record: Vec::new(),
            plies: 0,
            result: None,
        });
    }
    let transfers_in = spawn_stdin_reader(args.stdin_transfers);
    let start = Instant::now();
    let mut transfers_made = 0;
    // Each strategist's last transfer and the round it was made in: it
    // waits a few rounds before the next, and never undoes the last.
    let mut last: [Option<(Transfer, usize)>; 2] = [None, None];
    let lookahead = [args.white_strategist, args.black_strategist];
    // Each with its own engine and table: none when they are turned off.
    let mut strategists = (!args.no_strategists)
        .then(|| Color::ALL.map(|c| Strategist::new(c, lookahead[c as usize], &boards[0].position)));
    let mut round = 0;

    while boards.iter().any(|b| b.result.is_none()) {
        if args.time_limit.is_some_and(|t| start.elapsed().as_secs_f64() >= t) {
            for b in boards.iter_mut().filter(|b| b.result.is_none()) {
                b.result = Some(by_pieces(b.position.piece_counts()));
                b.position.remove_kings();
            }
            break;
        }
        let played = play_round(&mut boards, base_ms, inc_ms, args.max_plies);
        round += 1;
        // Progress: each board's move this round (and how a board ended).
        let moves: Vec<String> =
            played.iter().enumerate().filter_map(|(i, p)| p.as_ref().map(|p| format!("{}: {p}", i + 1))).collect();
        eprintln!("round {round} at {:.1}s: {}", start.elapsed().as_secs_f64(), moves.join(", "));
        // Between moves: transfers from standard input, then the strategists.
        while let Ok(line) = transfers_in.try_recv() {
            match parse_transfer(&line, boards.len()).and_then(|t| make_transfer(&mut boards, &t, start)) {
                Ok(()) => transfers_made += 1,
                Err(e) => eprintln!("transfer refused: {e}"),
            }
        }
        if let Some(strategists) = strategists.as_mut().filter(|_| boards.iter().any(|b| b.result.is_none())) {
            for color in Color::ALL {
                let previous = &last[color as usize];
                if previous.as_ref().is_some_and(|(_, r)| round < r + STRATEGIST_PAUSE) {
                    continue;
                }
                let views: Vec<BoardView> =
                    boards.iter().map(|b| BoardView { position: &b.position, finished: b.result.is_some() }).collect();
                if let Some(t) = strategists[color as usize].choose(&views, previous.as_ref().map(|(t, _)| t)) {
                    if make_transfer(&mut boards, &t, start).is_ok() {
                        transfers_made += 1;
                        last[color as usize] = Some((t, round));
                    }
                }
            }
        }
    }
    report(&boards, transfers_made, args.pgnout.as_ref())
}

/// Lines from standard input, if asked for, on a channel.
fn spawn_stdin_reader(enabled: bool) -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel();
    if enabled {
        std::thread::spawn(move || {
            for line in std::io::stdin().lock().lines().map_while(Result::ok) {
                if !line.trim().is_empty() && tx.send(line).is_err() {
                    break;
                }
            }
        });
    }
    rx
}

/// Every unfinished board's side to move searches at once; then the moves
/// are checked and played. Returns, per board that moved, its move in SAN
/// and, if the board ended, how.
fn play_round(boards: &mut [Board], base_ms: u64, inc_ms: u64, max_plies: usize) -> Vec<Option<String>> {
    let limit = SearchLimit { clock: Some((0, base_ms, inc_ms)), ..SearchLimit::default() };
    let limit = &limit;
    let answers: Vec<Option<Result<(String, Duration), String>>> = std::thread::scope(|s| {
        let handles: Vec<_> = boards
            .iter_mut()
            .map(|b| {
                (b.result.is_none()).then(|| {
                    let fen = b.position.fen();
                    let mover = b.position.side_to_move();
                    let clocks = b.clocks_ms;
                    let engine = &mut b.engines[mover as usize];
                    s.spawn(move || {
                        engine
                            .think("flexichess", Some(&fen), &[], mover == Color::White, limit, clocks)
                            .map(|r| (r.mv, r.elapsed))
                            .map_err(|f| format!("{f:?}"))
                    })
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.map(|h| h.join().unwrap_or_else(|_| Err("engine thread failed".into()))))
            .collect()
    });
    let mut played = Vec::with_capacity(boards.len());
    for (b, answer) in boards.iter_mut().zip(answers) {
        let Some(answer) = answer else {
            played.push(None);
            continue;
        };
        let moves_before = b.record.len();
        let mover = b.position.side_to_move();
        let m = mover as usize;
        let result = match answer {
            Err(e) => Some(BoardResult::Won(!mover, format!("{} forfeits: {e}", side_name(mover)))),
            Ok((mv, took)) => {
                let spent = took.as_millis() as u64;
                if spent > b.clocks_ms[m] {
                    Some(BoardResult::Won(!mover, format!("{} loses on time", side_name(mover))))
                } else {
                    b.clocks_ms[m] = b.clocks_ms[m] - spent + inc_ms;
                    match b.position.san(&mv) {
                        Err(e) => Some(BoardResult::Won(!mover, format!("{} played an {e}", side_name(mover)))),
                        Ok(san) => {
                            b.position.play(&mv).expect("checked by san");
                            b.record.push(san);
                            b.plies += 1;
                            match b.position.outcome() {
                                Some(o) => Some(BoardResult::from_outcome(o)),
                                None if b.plies >= max_plies => Some(BoardResult::Drawn("move limit".into())),
                                None => None,
                            }
                        }
                    }
                }
            }
        };
        let mut note = b.record.get(moves_before).cloned().unwrap_or_default();
        if let Some(r) = &result {
            let text = match r {
                BoardResult::Won(winner, why) => format!("{} wins, {why}", side_name(*winner)),
                BoardResult::Drawn(why) => format!("drawn, {why}"),
            };
            note = if note.is_empty() { format!("({text})") } else { format!("{note} ({text})") };
        }
        played.push(Some(note));
        if result.is_some() {
            b.result = result;
            b.position.remove_kings();
        }
    }
    played
}

/// Carries out a transfer if the rules allow it, and records it on both
/// boards with the game's clock.
fn make_transfer(boards: &mut [Board], t: &Transfer, start: Instant) -> Result<(), String> {
    let [a, b] =
        boards.get_disjoint_mut([t.from, t.to]).map_err(|e| format!("boards {} and {}: {e}", t.from + 1, t.to + 1))?;
    let secs = start.elapsed().as_secs_f64();
    let (letter, [out, into]) = transfer_between(&mut a.position, &mut b.position, t, &format!(" at {secs:.1}s"))?;
    eprintln!(
        "transfer: {} {letter} {} from board {} to board {} at {secs:.1}s",
        side_name(t.color),
        t.cell,
        t.from + 1,
        t.to + 1
    );
    a.record.push(out);
    b.record.push(into);
    Ok(())
}

fn report(boards: &[Board], transfers: usize, pgnout: Option<&PathBuf>) -> Result<(), String> {
    let results: Vec<BoardResult> = boards.iter().map(|b| b.result.clone().expect("every board ended")).collect();
    let (won, team) = team_result(&results);
    let mut pgn = String::new();
    for (i, (b, r)) in boards.iter().zip(&results).enumerate() {
        let (result, reason) = (r.pgn(), r.reason());
        println!("board {}: {result} ({reason})", i + 1);
        let (white, black) = (format!("White team, board {}", i + 1), format!("Black team, board {}", i + 1));
        let variant = b.position.variant();
        let record = crate::pgn::Record {
            event: "protean perplexichess",
            round: i + 1,
            players: [&white, &black],
            result,
            variant: &variant.name,
            start_fen: &variant.start_fen,
            standard_start: true,
            more_tags: vec![("Termination", reason.to_string())],
            moves: &b.record,
            closing_comment: None,
        };
        pgn += &(record.text() + "\n");
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
        let w = || BoardResult::Won(Color::White, "checkmate".into());
        let b = || BoardResult::Won(Color::Black, "checkmate".into());
        let d = || BoardResult::Drawn("stalemate".into());
        assert_eq!(team_result(&[w(), b(), d()]), ([1, 1], "drawn"));
        assert_eq!(team_result(&[w(), d(), d()]), ([1, 0], "White team wins"));
        assert_eq!(team_result(&[b(), b(), w(), d(), w()]), ([2, 2], "drawn"));
        assert_eq!(team_result(&[b(), b(), w(), d(), d()]), ([1, 2], "Black team wins"));
    }

    #[test]
    fn at_the_time_limit_more_pieces_win_a_board() {
        assert_eq!(by_pieces([9, 7]), BoardResult::Won(Color::White, "time limit: more pieces".into()));
        assert_eq!(by_pieces([3, 12]), BoardResult::Won(Color::Black, "time limit: more pieces".into()));
        assert_eq!(by_pieces([5, 5]), BoardResult::Drawn("time limit: equal pieces".into()));
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
