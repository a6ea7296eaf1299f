//! `protean match`: a tournament runner for every variant Protean knows,
//! with cutechess-cli's option names, and Protean's rules as the referee
//! (cutechess-cli refuses variants it does not know).
//!
//!     protean match -engine cmd=protean name=A -engine cmd=stockfish name=B \
//!         -each proto=uci tc=10+0.1 -variant standard -games 2 -rounds 50 -repeat \
//!         -concurrency 2 -openings file=book.epd format=epd order=random \
//!         -pgnout games.pgn -draw movenumber=40 movecount=8 score=10 \
//!         -resign movecount=3 score=600 -maxmoves 200 -recover \
//!         -sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 -ratinginterval 10
//!
//! Every move is checked by the rules; an illegal move, a crash, a hang or
//! a time loss ends that game with the right result, and the match goes
//! on (with `-recover` a crashed engine is restarted; without, it forfeits
//! its remaining games).

use crate::engine_process::{parse_tc, EngineProcess, Failure, Proto, SearchLimit};
use crate::match_stats::{elo_with_margin, first_engine_points, los, sprt_bounds, sprt_llr, Tally};
use protean_rules::notation::castling_in_san;
use protean_rules::{AnyPosition, AnyRules, Color, Outcome};
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};

#[derive(Clone, Debug)]
struct EngineSpec {
    cmd: String,
    name: String,
    proto: Proto,
    options: Vec<(String, String)>,
    limit: SearchLimit,
    /// The time control as given, for PGN.
    tc: String,
}

#[derive(Clone, Debug, Default)]
struct Opening {
    fen: Option<String>,
    /// Coordinate notation, checked against the rules.
    moves: Vec<String>,
}

#[derive(Clone, Copy, Debug)]
struct DrawRule {
    move_number: u32,
    move_count: u32,
    score: i32,
}

#[derive(Clone, Copy, Debug)]
struct ResignRule {
    move_count: u32,
    score: i32,
    two_sided: bool,
}

#[derive(Clone, Copy, Debug)]
struct Sprt {
    elo0: f64,
    elo1: f64,
    alpha: f64,
    beta: f64,
}

#[derive(Clone, Debug)]
struct Config {
    engines: [EngineSpec; 2],
    variant: String,
    games: usize,
    repeat: bool,
    concurrency: usize,
    openings: Vec<Opening>,
    pgnout: Option<std::path::PathBuf>,
    draw: Option<DrawRule>,
    resign: Option<ResignRule>,
    max_moves: Option<u32>,
    recover: bool,
    sprt: Option<Sprt>,
    rating_interval: usize,
    /// A PGN of an earlier run of this match whose games count.
    resume: Option<std::path::PathBuf>,
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

fn key_values<'a>(words: &'a [String], what: &str) -> Result<Vec<(&'a str, &'a str)>, String> {
    words.iter().map(|w| w.split_once('=').ok_or_else(|| format!("{what}: '{w}' is not KEY=VALUE"))).collect()
}

fn number<T: std::str::FromStr>(text: &str, what: &str) -> Result<T, String> {
    text.parse().map_err(|_| format!("{what}: '{text}' is not a number"))
}

fn apply_engine_setting(spec: &mut EngineSpec, key: &str, value: &str) -> Result<(), String> {
    match key {
        "cmd" => spec.cmd = value.to_string(),
        "name" => spec.name = value.to_string(),
        "proto" => {
            spec.proto = match value {
                "uci" => Proto::Uci,
                "xboard" => Proto::Xboard,
                _ => return Err(format!("proto: '{value}' is neither uci nor xboard")),
            }
        }
        "tc" => {
            spec.limit.clock = parse_tc(value)?;
            spec.tc = value.to_string();
        }
        "st" => {
            spec.limit.move_time_ms = Some((number::<f64>(value, "st")? * 1000.0) as u64);
            spec.tc = format!("{value}/move");
        }
        "depth" => spec.limit.depth = Some(number(value, "depth")?),
        "nodes" => spec.limit.nodes = Some(number(value, "nodes")?),
        k if k.starts_with("option.") => spec.options.push((k["option.".len()..].to_string(), value.to_string())),
        _ => return Err(format!("unknown engine setting '{key}'")),
    }
    Ok(())
}

fn parse_args(args: &[String]) -> Result<Config, String> {
    // Options are `-name` followed by their values up to the next option.
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for a in args {
        if a.starts_with('-') && a.len() > 1 && !a[1..].starts_with(|c: char| c.is_ascii_digit()) {
            groups.push((a.trim_start_matches('-').to_string(), Vec::new()));
        } else if let Some(last) = groups.last_mut() {
            last.1.push(a.clone());
        } else {
            return Err(format!("'{a}' is not an option"));
        }
    }
    let blank = EngineSpec {
        cmd: String::new(),
        name: String::new(),
        proto: Proto::Uci,
        options: Vec::new(),
        limit: SearchLimit::default(),
        tc: "-".into(),
    };
    let mut engines: Vec<EngineSpec> = Vec::new();
    let mut each: Vec<(String, String)> = Vec::new();
    let mut cfg = Config {
        engines: [blank.clone(), blank.clone()],
        variant: "standard".into(),
        games: 1,
        repeat: false,
        concurrency: 1,
        openings: Vec::new(),
        pgnout: None,
        draw: None,
        resign: None,
        max_moves: None,
        recover: false,
        sprt: None,
        rating_interval: 10,
        resume: None,
    };
    let (mut games, mut rounds) = (1usize, 1usize);
    let (mut opening_file, mut format, mut order, mut plies) =
        (None, "epd".to_string(), "sequential".to_string(), usize::MAX);
    let single = |name: &str, v: &[String]| -> Result<String, String> {
        match v {
            [one] => Ok(one.clone()),
            _ => Err(format!("-{name} takes one value")),
        }
    };
    for (name, values) in &groups {
        match name.as_str() {
            "engine" => {
                let mut spec = blank.clone();
                for (k, v) in key_values(values, "-engine")? {
                    apply_engine_setting(&mut spec, k, v)?;
                }
                engines.push(spec);
            }
            "each" => {
                each.extend(key_values(values, "-each")?.into_iter().map(|(k, v)| (k.to_string(), v.to_string())))
            }
            "variant" => cfg.variant = single(name, values)?,
            "games" => games = number(&single(name, values)?, "-games")?,
            "rounds" => rounds = number(&single(name, values)?, "-rounds")?,
            "repeat" => cfg.repeat = true,
            "recover" => cfg.recover = true,
            "concurrency" => cfg.concurrency = number::<usize>(&single(name, values)?, "-concurrency")?.max(1),
            "pgnout" => cfg.pgnout = Some(single(name, values)?.into()),
            "resume" => cfg.resume = Some(single(name, values)?.into()),
            "maxmoves" => cfg.max_moves = Some(number(&single(name, values)?, "-maxmoves")?),
            "ratinginterval" => cfg.rating_interval = number(&single(name, values)?, "-ratinginterval")?,
            "openings" => {
                for (k, v) in key_values(values, "-openings")? {
                    match k {
                        "file" => opening_file = Some(v.to_string()),
                        "format" => format = v.to_string(),
                        "order" => order = v.to_string(),
                        "plies" => plies = number(v, "plies")?,
                        _ => return Err(format!("-openings: unknown setting '{k}'")),
                    }
                }
            }
            "draw" => {
                let mut d = DrawRule { move_number: 0, move_count: 1, score: 0 };
                for (k, v) in key_values(values, "-draw")? {
                    match k {
                        "movenumber" => d.move_number = number(v, k)?,
                        "movecount" => d.move_count = number(v, k)?,
                        "score" => d.score = number(v, k)?,
                        _ => return Err(format!("-draw: unknown setting '{k}'")),
                    }
                }
                cfg.draw = Some(d);
            }
            "resign" => {
                let mut r = ResignRule { move_count: 1, score: 1000, two_sided: false };
                for (k, v) in key_values(values, "-resign")? {
                    match k {
                        "movecount" => r.move_count = number(v, k)?,
                        "score" => r.score = number(v, k)?,
                        "twosided" => r.two_sided = v == "true",
                        _ => return Err(format!("-resign: unknown setting '{k}'")),
                    }
                }
                cfg.resign = Some(r);
            }
            "sprt" => {
                let mut s = Sprt { elo0: 0.0, elo1: 5.0, alpha: 0.05, beta: 0.05 };
                for (k, v) in key_values(values, "-sprt")? {
                    match k {
                        "elo0" => s.elo0 = number(v, k)?,
                        "elo1" => s.elo1 = number(v, k)?,
                        "alpha" => s.alpha = number(v, k)?,
                        "beta" => s.beta = number(v, k)?,
                        _ => return Err(format!("-sprt: unknown setting '{k}'")),
                    }
                }
                cfg.sprt = Some(s);
            }
            _ => return Err(format!("unknown option -{name}")),
        }
    }
    if engines.len() != 2 {
        return Err(format!("a match needs two -engine options, not {}", engines.len()));
    }
    for (i, spec) in engines.iter_mut().enumerate() {
        for (k, v) in &each {
            apply_engine_setting(spec, k, v)?;
        }
        if spec.cmd.is_empty() {
            return Err("every engine needs cmd=".into());
        }
        if spec.name.is_empty() {
            spec.name =
                format!("{}{}", spec.cmd.rsplit('/').next().unwrap_or("engine"), if i == 1 { "-2" } else { "" });
        }
        if spec.limit == SearchLimit::default() {
            return Err(format!("{}: no tc, st, depth or nodes", spec.name));
        }
    }
    cfg.engines = [engines[0].clone(), engines[1].clone()];
    let rules = AnyRules::by_name(&cfg.variant).map_err(|e| e.to_string())?;
    cfg.variant = rules.variant().name.clone();
    cfg.games = games * rounds;
    if let Some(file) = opening_file {
        cfg.openings = read_openings(&rules, &file, &format, plies)?;
    } else if let Some(starts) = rules.variant().start_positions {
        // Chess960 without a book: its start positions in random order,
        // as cutechess-cli plays them (a repeated pair shares one).
        cfg.openings = (0..starts.count()).map(|n| Opening { fen: Some(starts.fen(n)), moves: Vec::new() }).collect();
        order = "random".into();
    }
    if !cfg.openings.is_empty() {
        if order == "random" {
            shuffle(&mut cfg.openings);
        } else if order != "sequential" {
            return Err(format!("-openings: order '{order}' is neither random nor sequential"));
        }
    }
    Ok(cfg)
}

/// A shuffle seeded from the clock: each run plays the book in a new order.
fn shuffle<T>(items: &mut [T]) {
    let mut random = protean_search::skill::Random::from_clock();
    for i in (1..items.len()).rev() {
        items.swap(i, random.below(i as u64 + 1) as usize);
    }
}

/// A book line: a whole FEN (which a variant's own fields, such as
/// Flexichess's rule changes and Beyond Chess's shuttles, need), or an EPD
/// line (placement, side, castling, en passant, then operations). Gives
/// the FEN that parsed and its position.
pub fn book_position(rules: &AnyRules, line: &str) -> Result<(String, AnyPosition), String> {
    let line = line.trim();
    if let Ok(pos) = rules.from_fen(line) {
        return Ok((line.to_string(), pos));
    }
    let fields: Vec<&str> = line.split_whitespace().take(4).collect();
    let fen = fields.join(" ");
    let pos = rules.from_fen(&fen).map_err(|e| e.to_string())?;
    Ok((fen, pos))
}

/// Openings from an EPD file (a position per line) or a PGN file (a game
/// per opening: its FEN tag if any and its first `plies` moves in SAN).
fn read_openings(rules: &AnyRules, file: &str, format: &str, plies: usize) -> Result<Vec<Opening>, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
    let mut out = Vec::new();
    match format {
        "epd" => {
            for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
                let (fen, _) = book_position(rules, line).map_err(|e| format!("{file}:{}: {e}", i + 1))?;
                out.push(Opening { fen: Some(fen), moves: Vec::new() });
            }
        }
        "pgn" => {
            for (i, game) in crate::pgn::games(&text).into_iter().enumerate() {
                let mut pos = match game.fen() {
                    Some(f) => rules.from_fen(f).map_err(|e| format!("{file}: game {}: {e}", i + 1))?,
                    None => rules.start(),
                };
                let mut moves = Vec::new();
                for san in game.moves.iter().take(plies) {
                    moves.push(pos.play_san(san).map_err(|e| format!("{file}: game {}: {e}", i + 1))?);
                }
                out.push(Opening { fen: game.fen().map(str::to_string), moves });
            }
        }
        _ => return Err(format!("-openings: format '{format}' is neither epd nor pgn")),
    }
    if out.is_empty() {
        return Err(format!("{file}: no openings"));
    }
    Ok(out)
}

/// What `protean match -help` prints.
fn usage() -> String {
    USAGE.replace("VARIANTS", &protean_rules::variants::described())
}

const USAGE: &str = "usage: protean match -engine OPTIONS -engine OPTIONS [-each OPTIONS] [options]

engine options (after -engine, or -each for both):
  cmd=COMMAND name=NAME proto=uci|xboard option.NAME=VALUE
  tc=[MOVES/]SECONDS[+INCREMENT] | tc=inf   st=SECONDS   depth=N   nodes=N
match options:
  -variant NAME             VARIANTS
  -games N -rounds N        N x M games, colours alternating
  -repeat                   each opening twice, colours swapped
  -concurrency N            games at once
  -openings file=F format=epd|pgn order=random|sequential plies=N
  -pgnout FILE              (appended to with -resume)
  -resume FILE              count the games of FILE, an earlier -pgnout of
                            this match, and play on after them
  -draw movenumber=N movecount=N score=CP
  -resign movecount=N score=CP [twosided=true]
  -maxmoves N               draw at that move number
  -recover                  restart an engine that crashed
  -sprt elo0=E elo1=E alpha=A beta=B   (pentanomial, on game pairs)
  -ratinginterval N
  -help";

pub fn run(args: &[String]) -> Result<(), String> {
    if args.iter().any(|a| matches!(a.as_str(), "-help" | "--help" | "-h")) {
        println!("{}", usage());
        return Ok(());
    }
    let cfg = Arc::new(parse_args(args)?);
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
fn report(cfg: &Config, tally: &Tally) -> Option<&'static str> {
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
fn ensure_engine(cfg: &Config, i: usize, engines: &mut [Option<EngineProcess>; 2], dead: &mut [bool; 2]) -> bool {
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

fn play_game(cfg: &Config, number: usize, engines: &mut [Option<EngineProcess>; 2], dead: &mut [bool; 2]) -> Game {
    let white = number % 2;
    let rules = AnyRules::by_name(&cfg.variant).expect("checked when parsing");
    let opening = if cfg.openings.is_empty() {
        Opening::default()
    } else {
        let index = if cfg.repeat { number / 2 } else { number };
        cfg.openings[index % cfg.openings.len()].clone()
    };
    let mut pos = match &opening.fen {
        Some(f) => rules.from_fen(f).expect("checked when reading the book"),
        None => rules.start(),
    };
    let start_fen = pos.fen();
    let standard_start = opening.fen.is_none();
    let mut moves: Vec<String> = Vec::new();
    let mut sans: Vec<String> = Vec::new();
    for m in &opening.moves {
        sans.push(pos.san(m).expect("checked when reading the book"));
        pos.play(m).expect("checked when reading the book");
        moves.push(m.clone());
    }
    let name = |i: usize| cfg.engines[i].name.clone();
    // Engine (0 or 1) that plays `color`.
    let engine_of = |c: Color| if c == Color::White { white } else { 1 - white };
    let finish = |result: &'static str, reason: String, termination: &'static str, sans: &[String]| Game {
        number,
        white,
        result,
        pgn: pgn(
            cfg,
            number,
            [name(white), name(1 - white)],
            &start_fen,
            standard_start,
            sans,
            result,
            &reason,
            termination,
        ),
        reason,
    };
    for i in [0, 1] {
        let ok = ensure_engine(cfg, i, engines, dead)
            && engines[i].as_mut().is_some_and(|e| e.new_game(&cfg.variant).is_ok());
        if !ok {
            dead[i] = true;
            let loser_white = i == white;
            let result = if loser_white { "0-1" } else { "1-0" };
            return finish(result, format!("{} is unavailable", name(i)), "abandoned", &sans);
        }
    }
    let mut clocks = [0u64; 2];
    for c in Color::ALL {
        clocks[c as usize] = cfg.engines[engine_of(c)].limit.clock.map_or(u64::MAX / 4, |(_, base, _)| base);
    }
    let mut draw_streak = 0;
    let mut resign_streak = [0u32; 2];
    let mut own_moves = [0u32; 2];
    let mut last_score = [None::<i32>; 2];
    loop {
        if let Some(outcome) = pos.outcome() {
            let (result, reason) = match outcome {
                Outcome::Checkmate { winner: Color::White } => ("1-0", "White mates".to_string()),
                Outcome::Checkmate { winner: Color::Black } => ("0-1", "Black mates".to_string()),
                o => ("1/2-1/2", format!("Draw by {}", o.reason())),
            };
            return finish(result, reason, "normal", &sans);
        }
        if cfg.max_moves.is_some_and(|n| pos.fullmove() > n) {
            return finish("1/2-1/2", "Draw by adjudication: maximum moves".into(), "adjudication", &sans);
        }
        let mover = pos.side_to_move();
        let who = engine_of(mover);
        let spec = &cfg.engines[who];
        let fen = (!standard_start).then_some(start_fen.as_str());
        let engine = engines[who].as_mut().expect("started above");
        let lost = if mover == Color::White { "0-1" } else { "1-0" };
        let side = if mover == Color::White { "White" } else { "Black" };
        // XBoard writes Chess960 castling as O-O and O-O-O, both ways.
        let o_o = spec.proto == Proto::Xboard && rules.variant().castles_by_rook();
        let sent: Vec<String> = if o_o {
            moves.iter().zip(&sans).map(|(m, san)| castling_in_san(san).unwrap_or(m).to_string()).collect()
        } else {
            moves.clone()
        };
        let mut reply = match engine.think(&cfg.variant, fen, &sent, mover == Color::White, &spec.limit, clocks) {
            Ok(r) => r,
            Err(Failure::Stalled) => {
                engines[who] = None;
                dead[who] = true;
                return finish(lost, format!("{side} loses on time (no move)"), "time forfeit", &sans);
            }
            Err(Failure::Crashed) => {
                engines[who] = None;
                dead[who] = true;
                return finish(lost, format!("{side}'s connection stalls"), "abandoned", &sans);
            }
            Err(Failure::Garbled(line)) => {
                return finish(lost, format!("{side} makes an illegal move: {line}"), "illegal move", &sans)
            }
        };
        let m = mover as usize;
        if let Some((per, base, inc)) = spec.limit.clock {
            let spent = reply.elapsed.as_millis() as u64;
            if spent > clocks[m] {
                return finish(lost, format!("{side} loses on time"), "time forfeit", &sans);
            }
            clocks[m] = clocks[m] - spent + inc;
            own_moves[m] += 1;
            if per > 0 && own_moves[m] % per == 0 {
                clocks[m] += base;
            }
        }
        if o_o && reply.mv.starts_with("O-O") {
            if let Ok(coordinates) = pos.clone().play_san(&reply.mv) {
                reply.mv = coordinates;
            }
        }
        match pos.san(&reply.mv) {
            Ok(san) => sans.push(san),
            Err(_) => {
                return finish(lost, format!("{side} makes an illegal move: {}", reply.mv), "illegal move", &sans)
            }
        }
        pos.play(&reply.mv).expect("checked by san");
        moves.push(reply.mv);
        last_score[m] = reply.score;

        // Adjudication from the engines' own scores.
        if let Some(d) = cfg.draw {
            let quiet = |s: Option<i32>| s.is_some_and(|s| s.abs() <= d.score);
            if pos.fullmove() >= d.move_number && quiet(last_score[0]) && quiet(last_score[1]) {
                draw_streak += 1;
            } else {
                draw_streak = 0;
            }
            if draw_streak >= 2 * d.move_count {
                return finish("1/2-1/2", "Draw by adjudication".into(), "adjudication", &sans);
            }
        }
        if let Some(r) = cfg.resign {
            resign_streak[m] = if reply.score.is_some_and(|s| s <= -r.score) { resign_streak[m] + 1 } else { 0 };
            let other_agrees = !r.two_sided || last_score[1 - m].is_some_and(|s| s >= r.score);
            if resign_streak[m] >= r.move_count && other_agrees {
                return finish(lost, format!("{side} resigns"), "adjudication", &sans);
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn pgn(
    cfg: &Config,
    number: usize,
    players: [String; 2],
    start_fen: &str,
    standard_start: bool,
    sans: &[String],
    result: &str,
    reason: &str,
    termination: &str,
) -> String {
    let record = crate::pgn::Record {
        event: "protean match",
        round: number + 1,
        players: [&players[0], &players[1]],
        result,
        variant: &cfg.variant,
        start_fen,
        standard_start,
        more_tags: vec![
            ("TimeControl", cfg.engines[number % 2].tc.to_string()),
            ("PlyCount", sans.len().to_string()),
            ("Termination", termination.to_string()),
        ],
        moves: sans,
        closing_comment: Some(reason),
    };
    record.text() + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

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
        assert!(parse_args(&args("-engine cmd=a -engine cmd=b -each tc=1 -resume old.pgn")).unwrap().resume.is_some());
    }

    #[test]
    fn cutechess_options_are_read() {
        let cfg = parse_args(&args("-engine cmd=a name=A option.Hash=16 -engine cmd=b proto=xboard st=0.5 -each tc=40/60+0.6 -variant perfect -games 2 -rounds 3 -repeat -concurrency 2 -draw movenumber=40 movecount=8 score=10 -resign movecount=3 score=600 twosided=true -maxmoves 100 -recover -sprt elo0=0 elo1=10 alpha=0.05 beta=0.1 -ratinginterval 5")).unwrap();
        assert_eq!(cfg.games, 6);
        assert_eq!(cfg.variant, "perfect");
        assert_eq!(cfg.engines[0].options, vec![("Hash".to_string(), "16".to_string())]);
        assert_eq!(cfg.engines[1].proto, Proto::Xboard);
        assert_eq!(cfg.engines[0].limit.clock, Some((40, 60_000, 600)));
        assert_eq!(cfg.engines[1].limit.move_time_ms, Some(500));
        assert!(
            cfg.repeat && cfg.recover && cfg.concurrency == 2 && cfg.max_moves == Some(100) && cfg.rating_interval == 5
        );
        assert!(cfg.draw.is_some_and(|d| d.move_number == 40 && d.move_count == 8 && d.score == 10));
        assert!(cfg.resign.is_some_and(|r| r.two_sided && r.score == 600));
        assert!(cfg.sprt.is_some_and(|s| s.elo1 == 10.0 && s.beta == 0.1));
    }

    #[test]
    fn bad_options_are_named() {
        for (line, complaint) in [
            ("-engine cmd=a tc=1", "two -engine"),
            ("-engine cmd=a tc=1 -engine cmd=b tc=1 -variant chess961", "unknown variant"),
            ("-engine cmd=a tc=1 -engine cmd=b tc=x", "tc"),
            ("-engine cmd=a -engine cmd=b", "no tc"),
            ("-engine cmd=a tc=1 -engine cmd=b tc=1 -frobnicate", "unknown option"),
            ("-engine cmd=a tc=1 -engine cmd=b tc=1 proto=cecp", "proto"),
        ] {
            let e = parse_args(&args(line)).unwrap_err();
            assert!(e.contains(complaint), "{line}: {e}");
        }
    }

    #[test]
    fn a_book_line_keeps_a_variants_own_fields() {
        let flexi = AnyRules::by_name("flexichess").unwrap();
        let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 N=NN";
        let (kept, pos) = book_position(&flexi, fen).unwrap();
        assert_eq!((kept.as_str(), pos.fen()), (fen, fen.to_string()));
        // An EPD line: its operations are not part of the position.
        let standard = AnyRules::by_name("standard").unwrap();
        let (kept, _) = book_position(&standard, "8/8/8/8/8/8/8/K1k5 w - - bm Kb1; id \"x\";").unwrap();
        assert_eq!(kept, "8/8/8/8/8/8/8/K1k5 w - -");
        assert!(book_position(&standard, "8/8/8 w - -").is_err());
    }

    #[test]
    fn a_whole_score_has_no_finite_elo() {
        assert!(rating_line(0, 0, 10).starts_with("Elo difference: -inf +/- nan, LOS: "));
        assert!(rating_line(10, 0, 0).starts_with("Elo difference: inf +/- nan, LOS: "));
        assert!(!rating_line(5, 0, 5).contains("inf"), "{}", rating_line(5, 0, 5));
    }
}
