//! `protean perft`: Stockfish's `go perft` output (`move: count` lines with
//! `--divide`, then `Nodes searched: N`), with time and speed on stderr.
//! With `--threads N` the root moves are shared among N threads, each
//! with its own copy of the position (`protean_rules::perft::divide`).

use clap::Args;
use protean_rules::perft::{MAX_DEPTH, MAX_THREADS};
use protean_rules::AnyRules;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

#[derive(Args)]
pub struct PerftArgs {
    /// Variant to play: standard (chess, normal), chess960 (fischerandom, frc), perfect (perfectchess), onedim (1d), beyond (beyondchess), flexichess (flexi).
    #[arg(long, default_value = "standard")]
    variant: String,
    /// Start from this position instead of the variant's start.
    #[arg(long)]
    fen: Option<String>,
    /// Moves in coordinate notation to play first.
    #[arg(long, num_args = 1.., value_delimiter = ' ')]
    moves: Vec<String>,
    /// Plies to count (at most 64).
    #[arg(long)]
    depth: u32,
    /// Print the count below each root move.
    #[arg(long)]
    divide: bool,
    /// Threads sharing the root moves (1 to 256).
    #[arg(long, default_value_t = 1)]
    threads: usize,
}

pub fn run(args: &PerftArgs) -> Result<(), String> {
    let rules = AnyRules::by_name(&args.variant).map_err(|e| e.to_string())?;
    let mut pos = match &args.fen {
        Some(fen) => rules.from_fen(fen).map_err(|e| e.to_string())?,
        None => rules.start(),
    };
    for m in &args.moves {
        pos.play(m).map_err(|e| format!("{e} in {}", pos.fen()))?;
    }
    if !(1..=MAX_THREADS).contains(&args.threads) {
        return Err(format!("--threads takes 1 to {MAX_THREADS}, not {}", args.threads));
    }
    if args.depth > MAX_DEPTH {
        return Err(format!("--depth takes 0 to {MAX_DEPTH}, not {}", args.depth));
    }
    let start = Instant::now();
    let divide = pos.divide(args.depth, args.threads, &AtomicBool::new(false)).expect("a perft nobody stops finishes");
    let (counts, nodes) = (divide.moves, divide.nodes);
    let elapsed = start.elapsed();
    if args.divide {
        for (m, n) in &counts {
            println!("{m}: {n}");
        }
        println!();
    }
    println!("Nodes searched: {nodes}");
    let secs = elapsed.as_secs_f64();
    eprintln!(
        "time {} ms, {} nodes/second",
        elapsed.as_millis(),
        if secs > 0.0 { (nodes as f64 / secs) as u64 } else { 0 }
    );
    Ok(())
}
