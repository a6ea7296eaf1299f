//! `protean bench`: fixed-depth searches over positions of every variant,
//! each with a cleared hash table, so that with one thread the total node
//! count is the same on every run and machine: the search's signature.
//! Output as Stockfish's bench: `Nodes searched` and `Nodes/second`.

use clap::Args;
use protean_rules::AnyRules;
use protean_search::{search, Limits, Options, Shared, TranspositionTable};
use std::time::{Duration, Instant};

/// Positions per variant: starts, openings, middle games and endings.
/// Beyond Chess turns number in the hundreds, so its positions are
/// searched `BEYOND_DEPTH_CUT` plies shallower than the others.
const POSITIONS: &[(&str, &str)] = &[
    ("standard", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    ("standard", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10"),
    ("standard", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 11"),
    ("standard", "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19"),
    ("standard", "r1bbk1nr/pp3p1p/2n5/1N4p1/2Np1B2/8/PPP2PPP/2KR1B1R w kq - 0 13"),
    ("standard", "r1bq1rk1/ppp1nppp/4n3/3p3Q/3P4/1BP1B3/PP1N2PP/R4RK1 w - - 1 16"),
    ("standard", "8/8/8/5k2/8/3K4/3P4/8 w - - 0 50"),
    ("standard", "6k1/5p2/6p1/8/7p/8/6PP/6K1 b - - 0 40"),
    ("perfect", "rnbqkqbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBQKQBNR w KQkq - 0 1"),
    ("perfect", "r1bqkqbnr/ppp1ppppp/2n6/3p5/9/4P4/9/PPPP1PPPP/RNBQKQBNR w KQkq - 0 3"),
    ("perfect", "r3kq2r/ppp2pppp/2nbb1n2/3pp4/9/2NPPB3/PPPQ2N2/5PPPP/R3KQB1R w KQkq - 4 9"),
    ("perfect", "4k4/9/3p5/9/4P4/9/5K3/9/9 w - - 0 40"),
    ("onedim", "KQRBN6nbrqk w - - 0 1"),
    ("onedim", "K1R2Q3n1b2rk b - - 3 15"),
    ("onedim", "1KR3b2N3rk1 b - - 2 20"),
    ("beyond", "****************/****************/****************/****************/****rnbqkbnr****/****pppppppp****/****8****/****8****/****8****/****8****/****PPPPPPPP****/****RNBQKBNR****/****************/****************/****************/**************** w KQkq - 0 1 -"),
    ("beyond", "****************/****************/****************/****************/****rnb1kb1r****/****pp2ppp1****/****2pq3p****/****1B1p2Q1****/*****3n3****/****4P3****/****PPPP1PPP****/***1R1B*K1NR****/*****1**********/****************/****************/**************** w KQkq - 0 7 a4a3:1"),
    ("beyond", "****************/****************/****************/****************/****r3k2r****/****pppp*ppp****/****2n*1n2****/****3**3****/****2*2*2****/****2N2N2****/****PPP*PPPP****/****R3K2R****/****************/****************/****************/**************** b KQkq - 0 9 -"),
];

const BEYOND_DEPTH_CUT: u32 = 6;

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
    /// Only the positions of this variant.
    #[arg(long)]
    variant: Option<String>,
}

pub fn run(args: &BenchArgs) -> Result<(), String> {
    if args.threads == 0 {
        return Err("--threads must be at least 1".into());
    }
    let tt = TranspositionTable::new(args.hash);
    let mut options = Options { threads: args.threads, multi_pv: 1, move_overhead: Duration::ZERO, ..Options::default() };
    if let Some(turns) = args.turns {
        options.split_turns = turns == Turns::Split;
    }
    let only = match &args.variant {
        Some(v) => Some(AnyRules::by_name(v).map_err(|e| e.to_string())?.variant().name.clone()),
        None => None,
    };
    let mut total = 0;
    let start = Instant::now();
    for (i, (variant, fen)) in POSITIONS.iter().enumerate() {
        let rules = AnyRules::by_name(variant).map_err(|e| e.to_string())?;
        if only.as_ref().is_some_and(|name| *name != rules.variant().name) {
            continue;
        }
        let depth = if rules.variant().tiles.is_some() { args.depth.saturating_sub(BEYOND_DEPTH_CUT).max(1) } else { args.depth };
        let limits = Limits { depth: Some(depth), ..Limits::default() };
        let pos = rules.from_fen(fen).map_err(|e| format!("bench position {}: {e}", i + 1))?;
        tt.clear();
        let shared = Shared::default();
        let outcome = search(&pos, &limits, &options, &tt, &shared, &|_| {});
        eprintln!("Position: {}/{} ({variant}) bestmove {} nodes {}", i + 1, POSITIONS.len(), outcome.best.unwrap_or_default(), outcome.nodes);
        total += outcome.nodes;
    }
    let elapsed = start.elapsed();
    eprintln!("===========================");
    eprintln!("Total time (ms) : {}", elapsed.as_millis());
    println!("Nodes searched: {total}");
    println!("Nodes/second: {}", (total as f64 / elapsed.as_secs_f64().max(1e-6)) as u64);
    Ok(())
}
