//! `protean epd FILE --movetime MS`: a test suite in EPD with `bm` (best
//! move) and `am` (avoid move) operations in SAN; reports each position
//! and the number solved.

use clap::Args;
use protean_rules::AnyRules;
use protean_search::{search, Limits, Options, Shared, TranspositionTable};
use std::time::Duration;

#[derive(Args)]
pub struct EpdArgs {
    /// The EPD file: one position a line, with `bm` or `am` operations.
    file: String,
    /// Search time per position in milliseconds.
    #[arg(long, default_value_t = 1000)]
    movetime: u64,
    /// Variant of the positions (standard, perfect, onedim, beyond, flexichess).
    #[arg(long, default_value = "standard")]
    variant: String,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Hash table size in MiB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
}

/// One EPD record: the position and its `bm`/`am` moves (SAN, without
/// check marks), and its `id`.
struct Record {
    fen: String,
    best: Vec<String>,
    avoid: Vec<String>,
    id: String,
}

fn bare(san: &str) -> String {
    san.trim_end_matches(['+', '#', '!', '?']).to_string()
}

fn parse_record(line: &str) -> Result<Record, String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() < 5 {
        return Err("fewer than four FEN fields and an operation".into());
    }
    let fen = format!("{} 0 1", fields[..4].join(" "));
    let ops = fields[4..].join(" ");
    let mut record = Record { fen, best: Vec::new(), avoid: Vec::new(), id: String::new() };
    for op in ops.split(';').map(str::trim).filter(|o| !o.is_empty()) {
        let (name, value) = op.split_once(' ').unwrap_or((op, ""));
        match name {
            "bm" => record.best.extend(value.split_whitespace().map(bare)),
            "am" => record.avoid.extend(value.split_whitespace().map(bare)),
            "id" => record.id = value.trim_matches('"').to_string(),
            _ => {}
        }
    }
    if record.best.is_empty() && record.avoid.is_empty() {
        return Err("no bm or am operation".into());
    }
    Ok(record)
}

pub fn run(args: &EpdArgs) -> Result<(), String> {
    let text = std::fs::read_to_string(&args.file).map_err(|e| format!("{}: {e}", args.file))?;
    let rules = AnyRules::by_name(&args.variant).map_err(|e| e.to_string())?;
    let tt = TranspositionTable::new(args.hash);
    let options = Options { threads: args.threads.max(1), multi_pv: 1, move_overhead: Duration::ZERO, ..Options::default() };
    let limits = Limits { movetime: Some(Duration::from_millis(args.movetime)), ..Limits::default() };
    let (mut solved, mut total) = (0, 0);
    for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let record = parse_record(line).map_err(|e| format!("{}:{}: {e}", args.file, n + 1))?;
        let mut pos = rules.from_fen(&record.fen).map_err(|e| format!("{}:{}: {e}", args.file, n + 1))?;
        tt.clear();
        let outcome = search(&pos, &limits, &options, &tt, &Shared::default(), &|_| {});
        let best = outcome.best.unwrap_or_default();
        let san = bare(&pos.san(&best).unwrap_or_default());
        let ok = (record.best.is_empty() || record.best.contains(&san)) && !record.avoid.contains(&san);
        total += 1;
        solved += usize::from(ok);
        println!("{:<12} {} {san:<8} (bm {} am {})", record.id, if ok { "solved" } else { "missed" }, record.best.join(" "), record.avoid.join(" "));
    }
    println!("Solved: {solved}/{total} at {} ms a move", args.movetime);
    Ok(())
}
