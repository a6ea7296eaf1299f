//! `protean perft`: Stockfish's `go perft` output (`move: count` lines with
//! `--divide`, then `Nodes searched: N`), with time and speed on stderr.
//! With `--threads N` the root moves are shared among N rayon workers,
//! each with its own copy of the position.

use clap::Args;
use protean_rules::{with_position, AnyRules};
use rayon::prelude::*;
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
    use protean_protocol::{MAX_PERFT_DEPTH, MAX_THREADS};
    if !(1..=MAX_THREADS).contains(&args.threads) {
        return Err(format!("--threads takes 1 to {MAX_THREADS}, not {}", args.threads));
    }
    if args.depth > MAX_PERFT_DEPTH {
        return Err(format!("--depth takes 0 to {MAX_PERFT_DEPTH}, not {}", args.depth));
    }
    let pool = rayon::ThreadPoolBuilder::new().num_threads(args.threads).build().map_err(|e| e.to_string())?;
    let start = Instant::now();
    let depth = args.depth;
    let counts: Vec<(String, u64)> = if depth == 0 {
        Vec::new()
    } else {
        with_position!(&mut pos, p => {
            let moves = p.legal_move_list();
            let root = p.clone();
            pool.install(|| {
                moves
                    .par_iter()
                    .map(|&m| {
                        let mut q = root.clone();
                        let text = q.move_text(m);
                        q.make(m);
                        (text, protean_rules::perft::perft(&mut q, depth - 1))
                    })
                    .collect()
            })
        })
    };
    let nodes: u64 = if depth == 0 { 1 } else { counts.iter().map(|(_, n)| n).sum() };
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
