//! `protean epd FILE --movetime MS`: a test suite in EPD with `bm` (best
//! move) and `am` (avoid move) operations in SAN; reports each position
//! and the number solved. A line that cannot be read (a bad FEN, no
//! operation, a move that is not legal there) is named on standard error
//! and skipped; the summary counts the skipped lines, and the command then
//! fails, so that a script sees that the suite was not run whole.

use clap::Args;
use protean_rules::AnyRules;
use protean_search::{Engine, Limits, Options};
use std::time::Duration;

#[derive(Args)]
pub struct EpdArgs {
    /// The EPD file: one position a line, with `bm` or `am` operations.
    file: String,
    /// Search time per position in milliseconds.
    #[arg(long, default_value_t = 1000)]
    movetime: u64,
    /// Variant of the positions: standard (chess, normal), chess960 (fischerandom, frc), perfect (perfectchess), onedim (1d), beyond (beyondchess), flexichess (flexi).
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
    let mut engine = Engine::new(rules.start());
    engine.resize_hash(args.hash).map_err(|e| format!("hash {} MiB: {e}", args.hash))?;
    engine.set_options(Options {
        threads: args.threads.max(1),
        multi_pv: 1,
        move_overhead: Duration::ZERO,
        ..Options::default()
    });
    let limits = Limits { movetime: Some(Duration::from_millis(args.movetime)), ..Limits::default() };
    let (mut solved, mut total, mut skipped) = (0, 0, 0);
    for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let read = parse_record(line).and_then(|record| {
            let pos = rules.from_fen(&record.fen).map_err(|e| e.to_string())?;
            for san in record.best.iter().chain(&record.avoid) {
                pos.clone().play_san(san).map_err(|e| format!("{e} in the position"))?;
            }
            Ok((record, pos))
        });
        let (record, mut pos) = match read {
            Ok(r) => r,
            Err(e) => {
                eprintln!("{}:{}: {e}; line skipped", args.file, n + 1);
                skipped += 1;
                continue;
            }
        };
        engine.set_position(pos.clone());
        engine.clear();
        let outcome = engine.search(limits.clone());
        let best = outcome.best.map(|m| pos.move_text(m)).unwrap_or_default();
        let san = bare(&pos.san(&best).unwrap_or_default());
        let ok = (record.best.is_empty() || record.best.contains(&san)) && !record.avoid.contains(&san);
        total += 1;
        solved += usize::from(ok);
        let mut wanted = Vec::new();
        for (op, moves) in [("bm", &record.best), ("am", &record.avoid)] {
            if !moves.is_empty() {
                wanted.push(format!("{op} {}", moves.join(" ")));
            }
        }
        println!("{:<12} {} {san:<8} ({})", record.id, if ok { "solved" } else { "missed" }, wanted.join("; "));
    }
    let skipped_note = if skipped > 0 { format!(", {skipped} lines skipped") } else { String::new() };
    println!("Solved: {solved}/{total} at {} ms a move{skipped_note}", args.movetime);
    if skipped > 0 {
        return Err(format!("{}: {skipped} of {} lines could not be read", args.file, total + skipped));
    }
    Ok(())
}
