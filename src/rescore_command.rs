//! `protean rescore`: datagen's records, each scored afresh by another
//! engine (a reference such as Fairy-Stockfish) at a node limit, written
//! in the same order with that score in place of Protean's. The engine
//! is `protean_arena::score_positions`'; the records are
//! `protean_train`'s. Every line is read and checked under the variant's
//! rules before the engine starts: a bad line is named and nothing is
//! written.

use clap::Args;
use protean_arena::{score_positions, Scorer};
use protean_rules::AnyRules;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

#[derive(Args)]
pub struct RescoreArgs {
    /// The variant: a built-in one, or one of a --variants file (each such file
    /// is given to the engine as its VariantPath).
    #[arg(long, default_value = "standard")]
    variant: String,
    /// The scoring engine's command; it speaks UCI.
    #[arg(long)]
    engine: String,
    /// Records to score (`FEN [result]`, a score after it or not).
    #[arg(long)]
    data: PathBuf,
    /// The file to write: each record with the engine's score of its position
    /// for White, or none where the engine sees a mate.
    #[arg(long)]
    out: PathBuf,
    /// Nodes a position.
    #[arg(long, default_value_t = 4_000)]
    nodes: u64,
    /// Engines at once, each scoring its share of the records in order.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Multiplies each score written (rounded to a centipawn): Stockfish's
    /// centipawns run about 1.45 times smaller than Protean's standard
    /// evaluation's units.
    #[arg(long, default_value_t = 1.0)]
    score_scale: f64,
    /// An engine option, NAME=VALUE; may be given more than once.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
}

/// How often progress is told.
const PROGRESS_EVERY: Duration = Duration::from_secs(30);

pub fn run(args: &RescoreArgs, variant_files: &[PathBuf]) -> Result<(), String> {
    let rules = AnyRules::by_name(&args.variant).map_err(|e| e.to_string())?;
    if args.nodes == 0 || args.concurrency == 0 {
        return Err("--nodes and --concurrency must be at least 1".into());
    }
    if !(args.score_scale > 0.0 && args.score_scale.is_finite()) {
        return Err(format!("--score-scale {}: must be above 0", args.score_scale));
    }
    let mut options = Vec::new();
    for file in variant_files {
        let path = std::path::absolute(file).map_err(|e| format!("{}: {e}", file.display()))?;
        options.push(("VariantPath".to_string(), path.display().to_string()));
    }
    for option in &args.options {
        let (name, value) =
            option.split_once('=').ok_or_else(|| format!("--option {option}: not of the form NAME=VALUE"))?;
        options.push((name.to_string(), value.to_string()));
    }
    let text = std::fs::read_to_string(&args.data).map_err(|e| format!("{}: {e}", args.data.display()))?;
    let mut records = Vec::new();
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let at = |reason: String| format!("{} line {}: {reason}", args.data.display(), i + 1);
        let (fen, result, _) = protean_train::parse_record(line).map_err(at)?;
        rules.from_fen(fen).map_err(|e| at(e.to_string()))?;
        records.push((fen.to_string(), result));
    }
    let scorer = Scorer { command: args.engine.clone(), options, variant: args.variant.clone(), nodes: args.nodes };
    let fens: Vec<String> = records.iter().map(|(fen, _)| fen.clone()).collect();
    let started = Instant::now();
    let done = AtomicUsize::new(0);
    let scores = std::thread::scope(|scope| {
        let scoring = scope.spawn(|| score_positions(&scorer, &fens, args.concurrency, &done));
        let mut last_said = Instant::now();
        while !scoring.is_finished() {
            std::thread::sleep(Duration::from_millis(100));
            if last_said.elapsed() >= PROGRESS_EVERY {
                last_said = Instant::now();
                let scored = done.load(Ordering::Relaxed).max(1);
                let left =
                    started.elapsed().as_secs_f64() * (fens.len() - scored.min(fens.len())) as f64 / scored as f64;
                eprintln!("{scored} of {} positions scored; about {:.0} min left", fens.len(), left / 60.0);
            }
        }
        scoring.join().map_err(|_| "the scoring panicked".to_string())?
    })?;
    let mut out = String::with_capacity(text.len());
    for ((fen, result), score) in records.iter().zip(&scores) {
        let scaled = score.map(|cp| (cp as f64 * args.score_scale).round() as i32);
        out += &protean_train::format_record(fen, *result as f64, scaled);
        out.push('\n');
    }
    std::fs::write(&args.out, out).map_err(|e| format!("{}: {e}", args.out.display()))?;
    let seconds = started.elapsed().as_secs_f64();
    eprintln!(
        "scored {} positions of {} in {seconds:.0} s ({:.0} a second), {} without a score (a mate seen)",
        scores.iter().filter(|s| s.is_some()).count(),
        scores.len(),
        scores.len() as f64 / seconds.max(0.001),
        scores.iter().filter(|s| s.is_none()).count()
    );
    Ok(())
}
