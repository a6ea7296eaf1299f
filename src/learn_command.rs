//! `protean learn`: a variant's fitted weights and, where it pays, a
//! network, within a time budget: book, self-play, fit, network, SPRT
//! gate. The pipeline is `protean_learn::learn`'s (its module comment
//! tells the steps and how a run goes on after a stop); this reads the
//! options and prints how it went.

use clap::Args;
use protean_learn::{learn, Learning, Teacher};
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(Args)]
pub struct LearnArgs {
    /// The variant: a built-in one, or one of a --variants file.
    #[arg(long)]
    variant: String,
    /// The time budget in minutes (self-play takes 60% of it, the gate the end).
    #[arg(long, default_value_t = 60.0)]
    minutes: f64,
    /// The run's directory (book, data, weights, network, gate, logs); a run
    /// stopped goes on from what it holds.
    #[arg(long)]
    out: PathBuf,
    /// Self-play games, fixed instead of as many as the time allows: the same
    /// seed and games then give the same book, data and weights.
    #[arg(long)]
    games: Option<u64>,
    /// Seed of the book and the self-play openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Processes at once (self-play, the gate's games); every core by default.
    #[arg(long)]
    concurrency: Option<usize>,
    /// Nodes a self-play move.
    #[arg(long, default_value_t = 5_000)]
    nodes: u64,
    /// The gate's time control.
    #[arg(long, default_value = "5+0.05")]
    tc: String,
    /// Opening positions (FEN or EPD lines) for self-play and the gate instead of
    /// a book of level ones: an unbalanced book where the variant is drawish.
    #[arg(long)]
    book: Option<PathBuf>,
    /// A reference engine (UCI; Fairy-Stockfish for a variant file, which it is
    /// given as VariantPath) whose scores of the self-play positions the fit and
    /// the network aim at, instead of Protean's own.
    #[arg(long, value_name = "COMMAND")]
    teacher: Option<String>,
    /// Nodes the teacher searches a position.
    #[arg(long, default_value_t = 4_000)]
    teacher_nodes: u64,
    /// Refine another game's network stretched to the variant's board and
    /// kinds even where the variant plays with a network of its own (one
    /// trained from nothing may know less than the lender's millions of
    /// positions); the gate then decides between them.
    #[arg(long)]
    stretched: bool,
}

pub fn run(args: &LearnArgs, variant_files: &[PathBuf]) -> Result<(), String> {
    protean_rules::AnyRules::by_name(&args.variant).map_err(|e| e.to_string())?;
    if !(args.minutes > 0.0 && args.minutes.is_finite()) {
        return Err(format!("--minutes {}: must be above 0", args.minutes));
    }
    if args.games == Some(0) || args.nodes == 0 || args.concurrency == Some(0) || args.teacher_nodes == 0 {
        return Err("--games, --nodes, --teacher-nodes and --concurrency must be at least 1".into());
    }
    if let Some(book) = &args.book {
        std::fs::metadata(book).map_err(|e| format!("--book {}: {e}", book.display()))?;
    }
    if let Some(teacher) = &args.teacher {
        // Found wanting now rather than after the self-play.
        protean_arena::EngineProcess::start(teacher, protean_arena::Proto::Uci, &[])
            .map_err(|e| format!("--teacher: {e}"))?;
    }
    let absolute = |p: &PathBuf| std::path::absolute(p).map_err(|e| format!("{}: {e}", p.display()));
    let learning = Learning {
        protean: std::env::current_exe().map_err(|e| format!("the protean binary: {e}"))?,
        variant: args.variant.clone(),
        variant_files: variant_files.iter().map(absolute).collect::<Result<_, _>>()?,
        dir: absolute(&args.out)?,
        budget: Duration::from_secs_f64(args.minutes * 60.0),
        games: args.games,
        seed: args.seed,
        concurrency: args.concurrency.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        nodes: args.nodes,
        tc: args.tc.clone(),
        book: args.book.as_ref().map(absolute).transpose()?,
        teacher: args.teacher.clone().map(|command| Teacher { command, nodes: args.teacher_nodes }),
        stretched: args.stretched,
    };
    let started = Instant::now();
    let learnt = learn(&learning, |line| eprintln!("{line}"))?;
    println!(
        "learnt {} in {:.1} min: {} games, {} positions of self-play{}",
        args.variant,
        started.elapsed().as_secs_f64() / 60.0,
        learnt.games,
        learnt.positions,
        if args.teacher.is_some() { ", scored by the teacher" } else { "" }
    );
    if let Some((before, after)) = learnt.fit {
        println!("fit: held-out loss {before:.6} with the defaults, {after:.6} fitted");
    }
    if let Some((alone, with)) = learnt.network {
        let used = if learnt.network_kept { "used" } else { "not used" };
        let start = learnt.network_start.map_or(String::new(), |s| format!("; {s:.6} the network it started from"));
        println!("network: held-out loss {alone:.6} without, {with:.6} with ({used}{start})");
    }
    println!("gate: {} {}", learnt.gate.as_deref().unwrap_or("no game"), learnt.verdict.as_deref().unwrap_or(""));
    if learnt.installed.is_empty() {
        if learnt.verdict.as_deref() == Some("SPRT: H0 was accepted") {
            println!("nothing installed: the gate rejected the learnt files");
        } else if learnt.verdict.as_deref() == Some(protean_learn::NOT_GATED) {
            println!("nothing installed: nothing learnt to gate");
        } else {
            println!("nothing installed: the gate has not decided (run again to go on with it)");
        }
    }
    for file in &learnt.installed {
        let option = if file.extension().is_some_and(|e| e == "nnue") { "EvalFile" } else { "WeightsFile" };
        println!("setoption name {option} value {}", file.display());
    }
    Ok(())
}
