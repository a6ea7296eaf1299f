//! `protean datagen`: games of Protean against itself that write the
//! quiet positions they pass through with the game's result, the data
//! that fitting the evaluation to game results (Texel's method) needs.
//!
//! Each game starts from the variant's start or a book position, plays a
//! few random legal plies to vary the openings, then a fixed search per
//! move (a depth or a node count: the data do not depend on the machine's
//! speed). A position is kept when the side to move is not in check, the
//! search's move is quiet (no capture, no promotion) and its score is no
//! mate: there, the static evaluation should already tell the truth, and
//! the game's result is what it is fitted to. A game ends by the variant's
//! rules, by adjudication once both sides have seen the same side 1000
//! centipawns ahead for eight plies in a row, or as a draw after
//! `--max-plies`.
//!
//! At the end it tells how the games ended (each rule's count, and how
//! many draws by rule came while the last search saw one side `AHEAD_CP`
//! or more ahead: a sign of a side that could have played on), the
//! measure of aimless play such as Beyond Chess's shuttled tiles or
//! Flexichess's cycled rule changes.
//!
//! The output is plain text, one position a line: its FEN (in the
//! variant's own FEN, rule changes and tiles included), the result from
//! White's side in brackets, `[1.0]`, `[0.5]` or `[0.0]`, the format
//! Texel tuners read, and the search's score of the position in White's
//! centipawns (what a network is trained on besides the result). With one game at a time the file is the same for
//! the same arguments and seed.

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use protean_arena::read_positions;
use protean_arena::self_play::{self, End, SelfPlay, AHEAD_CP};
use protean_rules::{AnyPosition, AnyRules};
use protean_search::skill::Random;
use protean_search::{Engine, Limits, Options};
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// Nodes per move when neither a depth nor a node count is given.
const DEFAULT_NODES: u64 = 5_000;

#[derive(Args)]
pub struct DatagenArgs {
    /// The variant: standard, perfect, onedim, beyond, flexichess (or an alias).
    #[arg(long, default_value = "standard")]
    variant: String,
    /// How many games to play.
    #[arg(long, default_value_t = 100)]
    games: u64,
    /// Search every move to this depth.
    #[arg(long, conflicts_with = "nodes")]
    depth: Option<u32>,
    /// Search every move for this many nodes (5000 when no depth is given either).
    #[arg(long)]
    nodes: Option<u64>,
    /// The file to write: one `FEN [result] score` a line (overwritten).
    #[arg(long)]
    out: PathBuf,
    /// Random legal plies at the start of each game, after the book position if any.
    #[arg(long, default_value_t = 8)]
    random_plies: u32,
    /// Opening positions, one FEN (or EPD line) a line; each game starts from one of them, picked at random.
    #[arg(long)]
    book: Option<PathBuf>,
    /// Seed of the random openings; the same seed plays the same games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once, each with its own one-thread engine.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Hash table of each engine, in MiB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// Centipawns a draw costs the side to move's search (the engine's
    /// `Contempt`), for comparing how games end with and without one.
    #[arg(long, default_value_t = protean_search::CONTEMPT_BY_DEFAULT, allow_negative_numbers = true)]
    contempt: i32,
    /// A game still going after this many plies is a draw.
    #[arg(long, default_value_t = 400)]
    max_plies: u32,
}

pub fn run(args: &DatagenArgs) -> Result<(), String> {
    let rules = AnyRules::by_name(&args.variant).map_err(|e| e.to_string())?;
    if args.depth == Some(0) || args.nodes == Some(0) {
        return Err("--depth and --nodes must be at least 1".into());
    }
    if args.concurrency == 0 {
        return Err("--concurrency must be at least 1".into());
    }
    let openings = match &args.book {
        Some(path) => read_positions(&rules, path)?,
        None => vec![rules.start()],
    };
    let file = File::create(&args.out).map_err(|e| format!("{}: {e}", args.out.display()))?;
    let limits = Limits {
        depth: args.depth,
        nodes: args.nodes.or(args.depth.is_none().then_some(DEFAULT_NODES)),
        ..Limits::default()
    };
    let how = SelfPlay { limits, random_plies: args.random_plies, max_plies: args.max_plies };
    let out = Mutex::new(BufWriter::new(file));
    let progress = Progress::new(args.games);
    let next_game = AtomicU64::new(0);
    let failure: Mutex<Option<String>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..args.concurrency.min(args.games.max(1) as usize) {
            scope.spawn(|| {
                if let Err(e) = play_games(args, &rules, &openings, &how, &next_game, &out, &progress) {
                    failure.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(e);
                    // The other workers stop taking games.
                    next_game.store(u64::MAX / 2, Ordering::SeqCst);
                }
            });
        }
    });
    if let Some(e) = failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    out.into_inner().unwrap_or_else(|e| e.into_inner()).flush().map_err(|e| format!("{}: {e}", args.out.display()))?;
    progress.finish();
    Ok(())
}

/// One worker: takes game numbers until there are none left.
fn play_games(
    args: &DatagenArgs,
    rules: &AnyRules,
    openings: &[AnyPosition],
    how: &SelfPlay,
    next_game: &AtomicU64,
    out: &Mutex<BufWriter<File>>,
    progress: &Progress,
) -> Result<(), String> {
    let mut engine = Engine::new(rules.start());
    engine.resize_hash(args.hash).map_err(|e| format!("hash {} MiB: {e}", args.hash))?;
    engine.set_options(Options {
        threads: 1,
        multi_pv: 1,
        move_overhead: Duration::ZERO,
        contempt: args.contempt,
        ..Options::default()
    });
    loop {
        let game = next_game.fetch_add(1, Ordering::SeqCst);
        if game >= args.games {
            return Ok(());
        }
        // Each game has its own stream of random numbers, so that the
        // games do not depend on which worker plays them (shifted so that
        // the generator's odd-making bit never merges two games).
        let mut random = Random::seeded((args.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ game) << 1);
        let record = self_play::play_game(&mut engine, openings, how, &mut random);
        let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
        for (fen, white_cp) in &record.positions {
            writeln!(w, "{}", protean_train::format_record(fen, record.white_points, Some(*white_cp)))
                .map_err(|e| format!("{}: {e}", args.out.display()))?;
        }
        w.flush().map_err(|e| format!("{}: {e}", args.out.display()))?;
        drop(w);
        progress.game_done(record.positions.len() as u64, record.end);
    }
}

/// Progress on standard error: on a terminal an `indicatif` bar with the
/// time left; elsewhere (a log, a test) a line every tenth of the games;
/// at the end, how the games ended.
struct Progress {
    bar: ProgressBar,
    games: AtomicU64,
    positions: AtomicU64,
    /// By how the games ended: how many, and how many of them were drawn
    /// with a side far ahead.
    ends: Mutex<BTreeMap<&'static str, [u64; 2]>>,
}

impl Progress {
    fn new(total: u64) -> Progress {
        // Hidden by indicatif itself where standard error is no terminal.
        let bar = ProgressBar::new(total);
        bar.set_style(
            ProgressStyle::with_template("[{bar:30}] {pos}/{len} games, {msg} positions, {elapsed}, about {eta} left")
                .expect("a valid template")
                .progress_chars("#-"),
        );
        bar.set_message("0");
        Progress { bar, games: AtomicU64::new(0), positions: AtomicU64::new(0), ends: Mutex::new(BTreeMap::new()) }
    }

    fn game_done(&self, positions: u64, end: End) {
        let mut ends = self.ends.lock().unwrap_or_else(|e| e.into_inner());
        let [games, drawn_ahead] = ends.entry(end.name).or_default();
        *games += 1;
        *drawn_ahead += u64::from(end.drawn_ahead);
        drop(ends);
        let games = self.games.fetch_add(1, Ordering::SeqCst) + 1;
        let positions = self.positions.fetch_add(positions, Ordering::SeqCst) + positions;
        self.bar.set_message(positions.to_string());
        self.bar.inc(1);
        let total = self.bar.length().unwrap_or(games);
        if self.bar.is_hidden() && (games.is_multiple_of((total / 10).max(1)) || games == total) {
            eprintln!(
                "{games}/{total} games, {positions} positions, {:.0} s, about {:.0} s left",
                self.bar.elapsed().as_secs_f64(),
                self.bar.eta().as_secs_f64()
            );
        }
    }

    fn finish(&self) {
        self.bar.finish();
        eprintln!("{} games, {} positions", self.games.load(Ordering::SeqCst), self.positions.load(Ordering::SeqCst));
        let ends = self.ends.lock().unwrap_or_else(|e| e.into_inner());
        eprintln!("ended: {}", ends_summary(&ends));
    }
}

/// `checkmate 12, repetition 40 (25 with a side 300 cp ahead), ...`: the
/// games by how they ended, most first.
fn ends_summary(ends: &BTreeMap<&'static str, [u64; 2]>) -> String {
    let mut rows: Vec<(&str, [u64; 2])> = ends.iter().map(|(&name, &counts)| (name, counts)).collect();
    rows.sort_by_key(|&(_, [games, _])| std::cmp::Reverse(games));
    let parts: Vec<String> = rows
        .iter()
        .map(|(name, [games, ahead])| {
            if *ahead > 0 {
                format!("{name} {games} ({ahead} with a side {AHEAD_CP} cp ahead)")
            } else {
                format!("{name} {games}")
            }
        })
        .collect();
    if parts.is_empty() {
        "no games".to_string()
    } else {
        parts.join(", ")
    }
}
