//! `protean learn`: from a variant, built in or from a file, to fitted
//! evaluation weights and, where it pays, a network, within a time budget
//! and on every core. The steps, each resumable from what the run's
//! directory holds:
//!
//! 1. **Book** (`book.epd`): level positions a few random plies from the
//!    start ([`book`]), or the book given.
//! 2. **Self-play** (`data/chunk-NNNN.txt`): `protean datagen` from the
//!    book, in chunks of [`CHUNK_GAMES`] games, one chunk per core at a
//!    time, each chunk seeded by its number so that it is the same file
//!    whichever core plays it and whenever; until [`DATAGEN_SHARE`] of the
//!    budget is spent (or `games` games, when fixed). A chunk cut short by
//!    the deadline is dropped whole.
//! 3. **Teacher** (`data/scored-NNNN.txt`), when one is given: each chunk's
//!    positions scored afresh by a reference engine (`protean rescore`),
//!    one chunk per core at a time. Self-play then takes
//!    [`SELF_PLAY_SHARE_TAUGHT`] of the data's time, and the fit and the
//!    network aim at the teacher's scores alone ([`TAUGHT_SCORE_WEIGHT`]):
//!    the fitted files in `epd/variants/` (docs/variants.md), learnt so,
//!    passed the gates that networks of Protean's own scores failed
//!    (docs/results.md).
//! 4. **Fit** (`weights.txt`): `protean tune` (Texel's method) from the
//!    hand-set defaults on every chunk, results blended with the scores.
//! 5. **Network** (`network.nnue`): `protean train-network`, on top of
//!    the fitted weights; kept when its held-out loss is below the fitted
//!    evaluation's alone by [`NETWORK_GAIN`] (on little data it is not).
//!
//!    A variant that plays with a network already (its own, or one lent
//!    through its kinds), or that another game's can be lent to across
//!    boards (`protean_search::nnue::lent_across_boards`: a built-in
//!    game's or a repository variant file's), is refined instead: no
//!    fit, and that network trained on from where it is
//!    (`--from-built-in`, at [`REFINING_RATE`]) over the default weights
//!    it was made to go on top of. Fitted weights under it, and the
//!    network trained on at the rate a new one starts at, lost to the lent
//!    network by 120 Elo in Almost chess; refined, the same data gained
//!    101 (docs/results.md). In Chancellor chess, where fitted weights and
//!    a network of its own lost to the defaults, standard chess's
//!    stretched and refined beat them. [`Learning::stretched`] refines
//!    another game's network stretched to the variant even where it
//!    plays with one of its own.
//! 6. **Gate** (`gate.pgn`): `protean match -sprt` of the learnt files
//!    against the defaults (the built-in weights, and the built-in network
//!    where the variant has one), from the book, colours swapped, until
//!    the test decides or the budget ends. Only H1 accepted installs the
//!    files as `<variant>.weights` (and `<variant>.nnue`), which the
//!    engine loads by UCI's `WeightsFile` (and `EvalFile`).
//!
//! A file a step wrote whole (written under another name, then renamed)
//! is never written again: run the same command to go on after a stop.
//! The same seed and `games` write the same book, data and weights.

mod book;
mod child;

pub use book::make_book;

use child::{Step, POLL};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Games a self-play chunk plays (one core, one game at a time).
pub const CHUNK_GAMES: u64 = 40;
/// The part of the budget self-play may take; fitting and training take
/// a minute or two, the gate the rest.
pub const DATAGEN_SHARE: f64 = 0.6;
/// A network is kept when its held-out loss is this much below the
/// fitted evaluation's alone (relative).
pub const NETWORK_GAIN: f64 = 0.01;
/// How often self-play and the gate say how they go.
const PROGRESS_EVERY: Duration = Duration::from_secs(30);
/// Positions in the book.
pub const BOOK_SIZE: usize = 200;
/// How much of each fitting target is the self-play search's score: as
/// `train-network` aims, and as Perfect Chess's weights fitted best
/// (docs/results.md, "Evaluation weights fitted by `protean tune`").
const SCORE_WEIGHT: &str = "0.75";
/// The same, with a teacher: its scores alone.
const TAUGHT_SCORE_WEIGHT: &str = "1.0";
/// The part of the data's time ([`DATAGEN_SHARE`] of the budget) that
/// self-play takes when a teacher scores its positions: on one core,
/// Fairy-Stockfish at 4,000 nodes scores about 95 positions a second, and
/// self-play at 5,000 nodes writes about 160.
pub const SELF_PLAY_SHARE_TAUGHT: f64 = 0.35;
/// Adam's first step size when a network is refined (the one the
/// variant plays with, or one stretched to its board): a third of a new
/// network's, so that the run's data refine it rather than overwrite it.
pub const REFINING_RATE: &str = "0.0003";
/// The verdict of a run whose network was refined and does not pay:
/// nothing learnt goes to the gate.
pub const NOT_GATED: &str = "not gated: the refined network does not pay";
/// The gate's bounds, in Elo.
const GATE_ELO: (&str, &str) = ("0", "10");

/// What a learning run is told.
#[derive(Clone, Debug)]
pub struct Learning {
    /// The `protean` binary the steps run.
    pub protean: PathBuf,
    pub variant: String,
    /// Variant files (Fairy-Stockfish's INI format) to load first.
    pub variant_files: Vec<PathBuf>,
    /// The run's directory: every step's files and logs.
    pub dir: PathBuf,
    /// The time budget of this run.
    pub budget: Duration,
    /// Self-play games, fixed: the data no longer depend on the machine's
    /// speed (without, as many as [`DATAGEN_SHARE`] of the budget plays).
    pub games: Option<u64>,
    pub seed: u64,
    /// Processes at once (self-play chunks, the gate's games).
    pub concurrency: usize,
    /// Nodes a self-play move.
    pub nodes: u64,
    /// The gate's time control (cutechess-cli's `tc`).
    pub tc: String,
    /// A book to use instead of making one (an unbalanced book, where
    /// the variant is drawish).
    pub book: Option<PathBuf>,
    /// A reference engine that scores the self-play positions.
    pub teacher: Option<Teacher>,
    /// Refine another game's network stretched to the variant even
    /// where it plays with one of its own (`train-network --stretched`).
    pub stretched: bool,
}

/// A reference engine (UCI) whose scores the fit and network aim at.
#[derive(Clone, Debug)]
pub struct Teacher {
    /// Its command; the run's variant files are given to it as
    /// `VariantPath`.
    pub command: String,
    /// Nodes a position.
    pub nodes: u64,
}

/// What a run left.
#[derive(Clone, Debug, Default)]
pub struct Learnt {
    pub games: u64,
    pub positions: u64,
    /// The held-out losses: the defaults', then the fitted weights'.
    pub fit: Option<(f64, f64)>,
    /// The held-out losses: the fitted evaluation's alone, then with the
    /// network on top; `None` where no network was trained.
    pub network: Option<(f64, f64)>,
    /// The held-out loss of the network a refining run started from.
    pub network_start: Option<f64>,
    pub network_kept: bool,
    /// The gate's last score line and verdict.
    pub gate: Option<String>,
    pub verdict: Option<String>,
    /// The installed files: weights, and network if kept.
    pub installed: Vec<PathBuf>,
}

/// Runs (or goes on with) a learning run, telling `say` how it goes.
pub fn learn(l: &Learning, mut say: impl FnMut(&str)) -> Result<Learnt, String> {
    let started = Instant::now();
    let end = started + l.budget;
    // Known before the self-play, so that `--stretched` is refused at once.
    let to_refine = network_to_refine(&l.variant, l.stretched)?;
    let clock = |at: Instant| {
        format!("{:.1} of {:.0} min", at.duration_since(started).as_secs_f64() / 60.0, l.budget.as_secs_f64() / 60.0)
    };
    std::fs::create_dir_all(l.dir.join("data")).map_err(|e| format!("{}: {e}", l.dir.display()))?;
    std::fs::create_dir_all(l.dir.join("logs")).map_err(|e| format!("{}: {e}", l.dir.display()))?;
    let mut learnt = Learnt::default();

    // 1. The book.
    let book = l.dir.join("book.epd");
    if let Some(given) = l.book.as_ref().filter(|_| !book.exists()) {
        let text = std::fs::read_to_string(given).map_err(|e| format!("{}: {e}", given.display()))?;
        write_whole(&book, &text)?;
        say(&format!("book: {} from {}", book.display(), given.display()));
    } else if !book.exists() {
        let rules = protean_rules::AnyRules::by_name(&l.variant).map_err(|e| e.to_string())?;
        let fens = make_book(&rules, BOOK_SIZE, l.seed);
        if fens.is_empty() {
            return Err(format!("{}: no level position a few plies from the start", l.variant));
        }
        write_whole(&book, &fens.iter().map(|f| format!("{f}\n")).collect::<String>())?;
        say(&format!("[{}] book: {} positions in {}", clock(Instant::now()), fens.len(), book.display()));
    } else {
        say(&format!("book: {} (kept)", book.display()));
    }

    // 2. Self-play.
    let share = if l.teacher.is_some() { DATAGEN_SHARE * SELF_PLAY_SHARE_TAUGHT } else { DATAGEN_SHARE };
    let data = self_play(l, &book, started + l.budget.mul_f64(share), &mut say, &clock)?;
    for chunk in &data {
        learnt.games += chunk.1;
        learnt.positions += line_count(&chunk.0)?;
    }
    if learnt.positions < 1000 {
        return Err(format!("{} positions of self-play: too few to fit (give more --minutes)", learnt.positions));
    }
    say(&format!("[{}] self-play: {} games, {} positions", clock(Instant::now()), learnt.games, learnt.positions));
    let mut chunks: Vec<PathBuf> = data.into_iter().map(|(p, _)| p).collect();

    // 3. The teacher's scores.
    let score_weight = match &l.teacher {
        Some(teacher) => {
            chunks = taught(l, teacher, &chunks, &mut say, &clock)?;
            TAUGHT_SCORE_WEIGHT
        }
        None => SCORE_WEIGHT,
    };
    let chunks: Vec<String> = chunks.iter().map(|p| p.display().to_string()).collect();

    // 4. The fit, unless a network is refined over the default weights.
    let refining = to_refine.is_some();
    let weights = l.dir.join("weights.txt");
    if let Some(network) = to_refine {
        say(&format!(
            "[{}] fit: none ({network}, which the run refines over the default weights)",
            clock(Instant::now())
        ));
    } else {
        let tune_log = l.dir.join("logs/tune.log");
        let mut args = strings(&["tune", "--variant", &l.variant, "--score-weight", score_weight, "--data"]);
        args.extend(chunks.iter().cloned());
        write_by_step(l, args, &weights, &tune_log)?;
        learnt.fit = Step::last_line(&Step::read_log(&tune_log), "K ").and_then(|line| fit_losses(&line));
        say(&format!(
            "[{}] fit: {}{}",
            clock(Instant::now()),
            weights.display(),
            learnt.fit.map_or(String::new(), |(a, b)| format!(", held-out loss {a:.6} -> {b:.6}"))
        ));
    }

    // 5. The network.
    let network = l.dir.join("network.nnue");
    let net_log = l.dir.join("logs/network.log");
    let mut args = strings(&["train-network", "--variant", &l.variant, "--on-top", "--mirror", "--epochs", "10"]);
    args.extend(strings(&["--score-weight", score_weight]));
    args.extend(strings(&["--threads", &l.concurrency.to_string(), "--seed", &l.seed.to_string()]));
    if refining {
        let start = if l.stretched { "--stretched" } else { "--from-built-in" };
        args.extend(strings(&[start, "--learning-rate", REFINING_RATE]));
    } else {
        args.extend(["--weights".into(), weights.display().to_string()]);
    }
    args.push("--data".into());
    args.extend(chunks.iter().cloned());
    // A network that could not be trained (Flexichess's games, say, seldom
    // stand under the variant's own rules) leaves the gate to the fitted
    // weights alone.
    let trained = write_by_step(l, args, &network, &net_log);
    learnt.network = trained.as_ref().ok().and_then(|()| network_losses(&net_log));
    learnt.network_start = trained.as_ref().ok().and_then(|()| starting_loss(&net_log));
    learnt.network_kept = learnt.network.is_some_and(|(alone, with)| with < alone * (1.0 - NETWORK_GAIN));
    say(&format!(
        "[{}] network: {}",
        clock(Instant::now()),
        match (trained, learnt.network) {
            (Err(e), _) => format!("not trained ({e}); the weights go on alone"),
            (Ok(()), None) => "no losses in its log; not used".into(),
            (Ok(()), Some((alone, with))) => format!(
                "held-out loss {alone:.6} without, {with:.6} with{}; {}",
                learnt.network_start.map_or(String::new(), |s| format!(" (the network it started from: {s:.6})")),
                if learnt.network_kept { "it is used" } else { "not used (it does not pay)" }
            ),
        }
    ));

    // 6. The gate.
    let gate_log = l.dir.join("logs/gate.log");
    let gate_pgn = l.dir.join("gate.pgn");
    let mut learnt_engine = Vec::new();
    if !refining {
        learnt_engine.push(format!("option.WeightsFile={}", weights.display()));
    }
    if learnt.network_kept {
        learnt_engine.push(format!("option.EvalFile={}", network.display()));
    }
    if learnt_engine.is_empty() {
        learnt.verdict = Some(NOT_GATED.into());
        say(&format!("[{}] gate: none ({NOT_GATED})", clock(Instant::now())));
        return Ok(learnt);
    }
    let mut args =
        vec!["match".to_string(), "-engine".into(), format!("cmd={}", l.protean.display()), "name=learnt".into()];
    args.extend(learnt_engine);
    args.extend(["-engine".into(), format!("cmd={}", l.protean.display()), "name=defaults".into()]);
    args.push("-each".into());
    args.extend(strings(&[&format!("tc={}", l.tc), "option.Hash=16"]));
    if let Ok(paths) = std::env::join_paths(&l.variant_files).map(|p| p.to_string_lossy().into_owned()) {
        args.extend((!paths.is_empty()).then(|| format!("option.VariantPath={paths}")));
    }
    args.extend(strings(&["-variant", &l.variant, "-games", "2", "-rounds", "5000", "-repeat"]));
    args.extend(strings(&["-concurrency", &l.concurrency.to_string(), "-ratinginterval", "10"]));
    args.extend(["-openings".into(), format!("file={}", book.display()), "format=epd".into(), "order=random".into()]);
    args.extend(strings(&["-sprt", &format!("elo0={}", GATE_ELO.0), &format!("elo1={}", GATE_ELO.1)]));
    args.extend(["alpha=0.05".into(), "beta=0.05".into(), "-pgnout".into(), gate_pgn.display().to_string()]);
    if gate_pgn.exists() {
        args.extend(["-resume".into(), gate_pgn.display().to_string()]);
    }
    say(&format!(
        "[{}] gate: learnt against the defaults, {}, SPRT [{}, {}], until {}",
        clock(Instant::now()),
        l.tc,
        GATE_ELO.0,
        GATE_ELO.1,
        clock(end)
    ));
    let step = Step::start(&l.protean, &l.variant_files, &args, &gate_log)?;
    step.wait(Some(end), PROGRESS_EVERY, |log| {
        let text = Step::read_log(log);
        if let Some(score) = Step::last_line(&text, "Score of") {
            let llr = Step::last_line(&text, "SPRT: llr").unwrap_or_default();
            say(&format!("[{}] gate: {score} {llr}", clock(Instant::now())));
        }
    })?;
    let text = Step::read_log(&gate_log);
    learnt.gate = Step::last_line(&text, "Score of");
    learnt.verdict = Step::last_line(&text, "SPRT: H").or_else(|| Step::last_line(&text, "SPRT: llr"));
    let elo = Step::last_line(&text, "Elo difference").unwrap_or_default();
    say(&format!(
        "[{}] gate: {} {elo}; {}",
        clock(Instant::now()),
        learnt.gate.as_deref().unwrap_or("no game finished"),
        learnt.verdict.as_deref().unwrap_or("no SPRT line")
    ));
    if learnt.verdict.as_deref() == Some("SPRT: H1 was accepted") {
        if !refining {
            let installed = l.dir.join(format!("{}.weights", l.variant));
            std::fs::copy(&weights, &installed).map_err(|e| format!("{}: {e}", installed.display()))?;
            learnt.installed.push(installed);
        }
        if learnt.network_kept {
            let installed = l.dir.join(format!("{}.nnue", l.variant));
            std::fs::copy(&network, &installed).map_err(|e| format!("{}: {e}", installed.display()))?;
            learnt.installed.push(installed);
        }
    }
    Ok(learnt)
}

/// The network on top of `variant`'s hand-made evaluation that a run
/// refines, as the fit step says it: where `stretched`, another game's
/// lent across boards (an error where none is); else the one it plays
/// with by default (its own, or one lent through its kinds), else
/// another game's lent across boards; `None` where there is neither.
fn network_to_refine(variant: &str, stretched: bool) -> Result<Option<String>, String> {
    use protean_rules::{AnyRules, Bitboard, Rules};
    use protean_search::nnue::{starting_network, StartingNetwork};
    fn of<B: Bitboard>(rules: &Rules<B>, stretched: bool) -> Result<Option<String>, String> {
        let name = &rules.variant.name;
        Ok(Some(match starting_network(rules, true, stretched) {
            Some(StartingNetwork::PlaysWith(_)) => format!("{name} plays with a network"),
            Some(StartingNetwork::Stretched(lender, _)) if stretched => {
                format!("--stretched: {lender}'s network stretched to {name}'s board and kinds")
            }
            Some(StartingNetwork::Stretched(lender, _)) => {
                format!("{name} plays with none; {lender}'s is stretched to its board and kinds")
            }
            None if stretched => return Err(format!("--stretched: no other game's network stretches to {name}")),
            None => return Ok(None),
        }))
    }
    match AnyRules::by_name(variant).map_err(|e| e.to_string())? {
        AnyRules::Small(r) => of(&r, stretched),
        AnyRules::Medium(r) => of(&r, stretched),
        AnyRules::Large(r) => of(&r, stretched),
    }
}

/// Self-play chunks until `deadline` (or the fixed number of games):
/// every whole chunk's file and games, in chunk order.
fn self_play(
    l: &Learning,
    book: &Path,
    deadline: Instant,
    say: &mut impl FnMut(&str),
    clock: &impl Fn(Instant) -> String,
) -> Result<Vec<(PathBuf, u64)>, String> {
    let chunk_path = |n: u64| l.dir.join(format!("data/chunk-{n:04}.txt"));
    let part_path = |n: u64| chunk_path(n).with_extension("part");
    let complete = l.dir.join("data/complete");
    let wanted_chunks = l.games.map(|g| g.div_ceil(CHUNK_GAMES));
    let games_of = |n: u64| l.games.map_or(CHUNK_GAMES, |g| (g - n * CHUNK_GAMES).min(CHUNK_GAMES));
    // The whole chunks below chunk `upto`, in order, with their games: the
    // directory listed once, not every number probed.
    let whole = |upto: u64| -> Result<Vec<(PathBuf, u64)>, String> {
        let data = l.dir.join("data");
        let entries = std::fs::read_dir(&data).map_err(|e| format!("{}: {e}", data.display()))?;
        let mut numbers: Vec<u64> = entries
            .filter_map(|e| e.ok()?.file_name().to_str()?.strip_prefix("chunk-")?.strip_suffix(".txt")?.parse().ok())
            .filter(|&n| n < upto)
            .collect();
        numbers.sort_unstable();
        Ok(numbers.into_iter().map(|n| (chunk_path(n), games_of(n))).collect())
    };
    if complete.exists() {
        let kept = whole(wanted_chunks.unwrap_or(u64::MAX))?;
        say(&format!("self-play: {} chunks (kept)", kept.len()));
        return Ok(kept);
    }
    let started = Instant::now();
    let mut running: Vec<(u64, Step)> = Vec::new();
    let mut next = 0u64;
    let mut done_since_start = 0u64;
    let mut last_said = Instant::now();
    loop {
        let out_of_time = l.games.is_none() && Instant::now() >= deadline;
        // Start chunks on free cores.
        while !out_of_time && running.len() < l.concurrency && wanted_chunks.is_none_or(|w| next < w) {
            let n = next;
            next += 1;
            if chunk_path(n).exists() {
                continue;
            }
            let part = part_path(n);
            let mut args = strings(&["datagen", "--variant", &l.variant, "--games", &games_of(n).to_string()]);
            args.extend(strings(&["--nodes", &l.nodes.to_string(), "--random-plies", "2", "--concurrency", "1"]));
            args.extend([
                "--seed".into(),
                chunk_seed(l.seed, n).to_string(),
                "--book".into(),
                book.display().to_string(),
            ]);
            args.extend(["--out".into(), part.display().to_string()]);
            let log = l.dir.join(format!("logs/datagen-{n:04}.log"));
            running.push((n, Step::start(&l.protean, &l.variant_files, &args, &log)?));
        }
        if running.is_empty() {
            break;
        }
        if out_of_time {
            // A chunk cut short would not be the chunk its seed makes.
            for (n, step) in &mut running {
                step.kill();
                let _ = std::fs::remove_file(part_path(*n));
            }
            break;
        }
        for n in take_finished(&mut running, "self-play chunk")? {
            let part = part_path(n);
            std::fs::rename(&part, chunk_path(n)).map_err(|e| format!("{}: {e}", part.display()))?;
            done_since_start += 1;
            // A line every half minute: a fast variant plays a chunk a second.
            if last_said.elapsed() >= PROGRESS_EVERY {
                last_said = Instant::now();
                let have = whole(next)?;
                let games: u64 = have.iter().map(|c| c.1).sum();
                let left = match wanted_chunks {
                    Some(w) => {
                        let per_chunk = started.elapsed().as_secs_f64() / done_since_start as f64;
                        let left = w.saturating_sub(have.len() as u64) as f64 * per_chunk;
                        format!("about {:.0} min left", left / 60.0)
                    }
                    None => format!(
                        "{:.0} min left",
                        deadline.saturating_duration_since(Instant::now()).as_secs_f64() / 60.0
                    ),
                };
                say(&format!("[{}] self-play: {} chunks, {games} games; {left}", clock(Instant::now()), have.len()));
            }
        }
        std::thread::sleep(POLL);
    }
    std::fs::write(&complete, "").map_err(|e| format!("{}: {e}", complete.display()))?;
    whole(next)
}

/// Each chunk of `chunks` scored by the teacher (`data/scored-NNNN.txt`
/// beside `data/chunk-NNNN.txt`), one child a core: the scored files, in
/// order. A scored file is written whole, so a stopped run goes on.
fn taught(
    l: &Learning,
    teacher: &Teacher,
    chunks: &[PathBuf],
    say: &mut impl FnMut(&str),
    clock: &impl Fn(Instant) -> String,
) -> Result<Vec<PathBuf>, String> {
    let scored_path = |chunk: &Path| {
        let name = chunk.file_name().and_then(|n| n.to_str()).unwrap_or_default().replacen("chunk-", "scored-", 1);
        chunk.with_file_name(name)
    };
    let scored: Vec<PathBuf> = chunks.iter().map(|c| scored_path(c)).collect();
    let mut waiting: Vec<usize> = (0..chunks.len()).filter(|&i| !scored[i].exists()).rev().collect();
    let kept = chunks.len() - waiting.len();
    say(&format!(
        "[{}] teacher: scoring {} chunks at {} nodes a position ({kept} kept)",
        clock(Instant::now()),
        waiting.len(),
        teacher.nodes
    ));
    let mut running: Vec<(usize, Step)> = Vec::new();
    let mut last_said = Instant::now();
    let mut finished = kept;
    while !(waiting.is_empty() && running.is_empty()) {
        while running.len() < l.concurrency {
            let Some(i) = waiting.pop() else { break };
            let mut args = strings(&["rescore", "--variant", &l.variant, "--engine", &teacher.command]);
            args.extend(strings(&["--nodes", &teacher.nodes.to_string(), "--concurrency", "1"]));
            args.extend(["--data".into(), chunks[i].display().to_string()]);
            args.extend(["--out".into(), scored[i].with_extension("part").display().to_string()]);
            let log = l.dir.join(format!("logs/teacher-{i:04}.log"));
            running.push((i, Step::start(&l.protean, &l.variant_files, &args, &log)?));
        }
        for i in take_finished(&mut running, "the teacher's scoring of chunk")? {
            let part = scored[i].with_extension("part");
            std::fs::rename(&part, &scored[i]).map_err(|e| format!("{}: {e}", part.display()))?;
            finished += 1;
        }
        if last_said.elapsed() >= PROGRESS_EVERY {
            last_said = Instant::now();
            say(&format!("[{}] teacher: {finished} of {} chunks scored", clock(Instant::now()), chunks.len()));
        }
        std::thread::sleep(POLL);
    }
    say(&format!("[{}] teacher: {} chunks scored", clock(Instant::now()), chunks.len()));
    Ok(scored)
}

/// Takes the steps of `running` that have ended out of it: the numbers of
/// those that ended well. One that failed is an error, `what` and its
/// number naming it, with its log's last lines.
fn take_finished<N: Copy + std::fmt::Display>(running: &mut Vec<(N, Step)>, what: &str) -> Result<Vec<N>, String> {
    let mut done = Vec::new();
    let mut i = 0;
    while i < running.len() {
        match running[i].1.finished()? {
            None => i += 1,
            Some(ok) => {
                let (n, step) = running.swap_remove(i);
                if !ok {
                    return Err(format!("{what} {n} failed: {}", Step::tail(&step.log)));
                }
                done.push(n);
            }
        }
    }
    Ok(done)
}

/// The seed of self-play chunk `n`: apart for every chunk and run seed.
fn chunk_seed(seed: u64, n: u64) -> u64 {
    seed.wrapping_mul(1_000_003).wrapping_add(n)
}

/// Unless `out` is there, runs the step `args` with `--out` a name beside
/// it and renames what it wrote to `out`: a step stopped leaves nothing
/// that a later run would take for done.
fn write_by_step(l: &Learning, mut args: Vec<String>, out: &Path, log: &Path) -> Result<(), String> {
    if out.exists() {
        return Ok(());
    }
    let part = out.with_extension("part");
    args.extend(["--out".into(), part.display().to_string()]);
    run_to_end(l, &args, log)?;
    std::fs::rename(&part, out).map_err(|e| format!("{}: {e}", out.display()))
}

/// Runs a step to its end; an error with its log's last lines if it fails.
fn run_to_end(l: &Learning, args: &[String], log: &Path) -> Result<(), String> {
    let step = Step::start(&l.protean, &l.variant_files, args, log)?;
    if step.wait(None, PROGRESS_EVERY, |_| {})? {
        Ok(())
    } else {
        Err(format!("{} failed: {}", args[0], Step::tail(log)))
    }
}

/// `text` written to `path` whole: under another name first, then renamed.
fn write_whole(path: &Path, text: &str) -> Result<(), String> {
    let part = path.with_extension("part");
    std::fs::write(&part, text).map_err(|e| format!("{}: {e}", part.display()))?;
    std::fs::rename(&part, path).map_err(|e| format!("{}: {e}", path.display()))
}

fn line_count(path: &Path) -> Result<u64, String> {
    let text = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(text.iter().filter(|&&b| b == b'\n').count() as u64)
}

fn strings(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| w.to_string()).collect()
}

/// The held-out losses before and after of `tune`'s last line (`K 1.0;
/// loss a -> b on them, c -> d on the tenth held out; wrote ...`).
fn fit_losses(line: &str) -> Option<(f64, f64)> {
    let held = line.split(", ").find(|part| part.contains("held out"))?;
    let mut numbers = held.split_whitespace().filter_map(|w| w.parse::<f64>().ok());
    Some((numbers.next()?, numbers.next()?))
}

/// The hand-made evaluation's held-out loss and the kept network's, from
/// `train-network`'s log.
fn network_losses(log: &Path) -> Option<(f64, f64)> {
    let text = Step::read_log(log);
    let alone = last_number(Step::last_line(&text, "the hand-made evaluation's loss")?)?;
    let with = last_number(Step::last_line(&text, "wrote ")?)?;
    Some((alone, with))
}

/// The held-out loss of the network `train-network` started from, from
/// its log; `None` where it started from random weights.
fn starting_loss(log: &Path) -> Option<f64> {
    last_number(Step::last_line(&Step::read_log(log), "the starting network's loss")?)
}

/// The last number of a tool's line, bare or in brackets.
fn last_number(line: String) -> Option<f64> {
    line.rsplit([' ', '(']).find_map(|w| w.trim_end_matches(')').parse::<f64>().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fit_and_network_losses_are_read_from_the_tools_lines() {
        let line =
            "K 3.339; loss 0.061923 -> 0.000220 on them, 0.050251 -> 0.000135 on the tenth held out; wrote w.txt";
        assert_eq!(fit_losses(line), Some((0.050251, 0.000135)));
        assert_eq!(fit_losses("K 1.0; nothing"), None);
        let dir = std::env::temp_dir().join(format!("protean-learn-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let log = dir.join("network.log");
        std::fs::write(
            &log,
            "the hand-made evaluation's loss on the positions held out: 0.012000\nepoch 1/6: loss 0.1\n\
             wrote n.nnue: the network after the epoch whose held-out loss was lowest (0.011000)\n",
        )
        .unwrap();
        assert_eq!(network_losses(&log), Some((0.012, 0.011)));
        assert_eq!(starting_loss(&log), None);
        std::fs::write(
            &log,
            "the hand-made evaluation's loss on the positions held out: 0.012000\n\
             the starting network's loss on the positions held out: 0.011500\nepoch 1/6: loss 0.1\n\
             wrote n.nnue: the network after the epoch whose held-out loss was lowest (0.011000)\n",
        )
        .unwrap();
        assert_eq!(network_losses(&log), Some((0.012, 0.011)));
        assert_eq!(starting_loss(&log), Some(0.0115));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn chunks_have_seeds_of_their_own() {
        let seeds: std::collections::HashSet<u64> =
            (1..4).flat_map(|s| (0..1000).map(move |n| chunk_seed(s, n))).collect();
        assert_eq!(seeds.len(), 3000);
    }
}
