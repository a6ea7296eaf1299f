//! `protean check FILE`: reads a variant file (Fairy-Stockfish's INI
//! format, see `variant_file` in the rules crate) and shows each variant
//! as Protean will play it, with perft from its start; or every mistake
//! of the file, each with its line.

use clap::Args;
use protean_rules::{variants, AnyRules};
use std::path::PathBuf;

#[derive(Args)]
pub struct CheckArgs {
    /// The variant file.
    file: PathBuf,
    /// Perft to this depth from each variant's start.
    #[arg(long, default_value_t = 3)]
    depth: u32,
}

pub fn run(args: &CheckArgs) -> Result<(), String> {
    let names = variants::load_file(&args.file).map_err(|errors| {
        let count = errors.len();
        format!(
            "{}\n{count} mistake{} in {}; nothing loaded",
            errors.join("\n"),
            if count == 1 { "" } else { "s" },
            args.file.display()
        )
    })?;
    for name in names {
        let rules = AnyRules::by_name(&name).map_err(|e| e.to_string())?;
        print!("{}", describe(&rules));
        let mut start = rules.start();
        let counts: Vec<String> = (1..=args.depth).map(|d| format!("{d}: {}", start.perft(d))).collect();
        println!("  perft from the start: {}\n", counts.join(", "));
    }
    Ok(())
}

/// A variant as Protean reads it: board, start, pieces, castling,
/// promotion and draws.
fn describe(rules: &AnyRules) -> String {
    let v = rules.variant();
    let g = v.geometry;
    let cell = |(f, r): (u8, u8)| g.name(g.cell(f as usize, r as usize)).to_string();
    let mut out = format!("{}: {}x{} board\n  start: {}\n  pieces:", v.name, g.width(), g.height(), v.start_fen);
    for p in &v.pieces {
        out += &format!(" {} {} {};", p.letter, p.name, p.betza);
    }
    out.pop();
    out += "\n  castling:";
    if v.castling.is_empty() {
        out += " none";
    }
    for c in &v.castling {
        out += &format!(
            " {} king {}-{} rook {}-{};",
            c.fen_letter,
            cell(c.king_from),
            cell(c.king_to),
            cell(c.rook_from),
            cell(c.rook_to)
        );
    }
    let letters: Vec<String> = v.promotion.choices.iter().map(|&k| v.pieces[k].letter.to_string()).collect();
    out += &format!(
        "\n  promotion: White on rank {}, Black on rank {}, to {} ({})\n",
        v.promotion.ranks[0] + 1,
        v.promotion.ranks[1] + 1,
        letters.join(" "),
        if v.promotion.mandatory { "mandatory" } else { "optional" }
    );
    let quiet = v.draws.quiet_plies.map_or("none".to_string(), |n| format!("{} moves", n / 2));
    out += &format!("  draws: move rule {quiet}, {}-fold repetition\n", v.draws.repetition_count);
    out
}
