//! `protean bench`: the bench (see `protean_search::bench`) from the
//! command line, a line per position on standard error and Stockfish's
//! totals on standard output.

use clap::Args;
use protean_search::bench::{bench, BenchSettings};

/// How the search sees a Beyond Chess turn (see `Options::split_turns`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Turns {
    /// One compound move: piece move and tile shift.
    Whole,
    /// Two plies by the same side.
    Split,
}

#[derive(Args)]
pub struct BenchArgs {
    /// Search depth for every position.
    #[arg(long, default_value_t = 9)]
    depth: u32,
    /// Search threads (the node count is a signature only with one).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Hash table size in MiB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// How Beyond Chess turns are searched (default: the engine's).
    #[arg(long, value_enum)]
    turns: Option<Turns>,
    /// Only the positions of this variant: standard, perfect, onedim, beyond, flexichess (or an alias).
    #[arg(long)]
    variant: Option<String>,
}

pub fn run(args: &BenchArgs) -> Result<(), String> {
    let settings = BenchSettings {
        depth: args.depth,
        threads: args.threads,
        hash_mib: args.hash,
        split_turns: args.turns.map(|t| t == Turns::Split),
        variant: args.variant.clone(),
    };
    let result = bench(&settings, &mut |line| eprintln!("{line}"))?;
    eprintln!("===========================");
    eprintln!("Total time (ms) : {}", result.elapsed.as_millis());
    for line in result.lines() {
        println!("{line}");
    }
    Ok(())
}
