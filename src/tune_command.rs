//! `protean tune`: fits a variant's evaluation weights to the results of
//! games (Texel's method, see `protean_search::texel`) and writes them as
//! a weights file, the file `crates/search/weights/<variant>.txt` that the
//! evaluation builds in.
//!
//! The data are `protean datagen` files: one `FEN [result]` a line,
//! where a line may end with a reference engine's score of the position
//! (White's centipawns, `FEN [result] score`: benches/reference-datagen.py
//! writes them); `--score-weight` blends those scores into the targets.
//! Under a rule change (Flexichess) a redefined kind's terms count with
//! the default weights of its new moves and are not fitted: the weights
//! fitted are those of the variant's own pieces, and of the whole
//! position. The fit starts from the
//! weights the binary has for the variant (or `--start`), and the file it
//! writes says what it was fitted on and how well.

use clap::Args;
use protean_rules::variant::Variant;
use protean_rules::{fen, AnyRules, Bitboard, Position, Rules};
use protean_search::evaluate::EvalTables;
use protean_search::texel::{self, DataSet, Freedom};
use protean_search::weights::{per_kind, scalar, Layout, PerKind, Scalar, Weights, SQUARE};
use std::collections::hash_map::{Entry, HashMap};
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

#[derive(Args)]
pub struct TuneArgs {
    /// The variant the data are from: standard, perfect, onedim, beyond, flexichess (or an alias).
    #[arg(long, default_value = "standard")]
    variant: String,
    /// Data files (`protean datagen` output): one `FEN [1.0|0.5|0.0]` a line, perhaps ending with a score for White.
    #[arg(long, required = true, num_args = 1..)]
    data: Vec<PathBuf>,
    /// The weights file to write.
    #[arg(long)]
    out: PathBuf,
    /// Steps of gradient descent over all the data.
    #[arg(long, default_value_t = 400)]
    epochs: usize,
    /// A weights file to start from, instead of the weights built in.
    #[arg(long)]
    start: Option<PathBuf>,
    /// Terms whose weights keep their starting values: a term's name
    /// (`passed`), or a per-kind term's (`value`, `square`) for every kind's.
    #[arg(long, num_args = 1..)]
    hold: Vec<String>,
    /// How much of each target is the reference engine's score, where
    /// the data have one (0: the game's result alone; 1: the score alone).
    #[arg(long, default_value_t = 0.0)]
    score_weight: f64,
    /// What the fit pays per piece-square weight, times its square in
    /// centipawns: higher keeps them nearer zero. Unpenalised, the
    /// hundreds of piece-square weights learn the games of the data rather
    /// than the game.
    #[arg(long, default_value_t = 1e-7)]
    square_penalty: f64,
}

/// What the fit may do with each term's weight (by term index), for the
/// variant `variant`: the terms `args.hold` names keep their starting
/// weights, the piece-square terms pay `args.square_penalty`; or the first
/// name that is no term.
fn freedoms(args: &TuneArgs, variant: &Variant) -> Result<Vec<Freedom>, String> {
    let layout = Layout::of(variant);
    let kinds = variant.pieces.len();
    let mut freedom = vec![Freedom::Free; layout.terms()];
    freedom[layout.square_terms()].fill(Freedom::Penalised(args.square_penalty));
    for name in &args.hold {
        if let Some(s) = Scalar::by_name(name) {
            freedom[scalar(s)] = Freedom::Held;
        } else if let Some(term) = PerKind::by_name(name) {
            for kind in 0..kinds {
                freedom[per_kind(term, kind)] = Freedom::Held;
            }
        } else if name == SQUARE {
            freedom[layout.square_terms()].fill(Freedom::Held);
        } else {
            return Err(format!("--hold: no term {name}"));
        }
    }
    Ok(freedom)
}

pub fn run(args: &TuneArgs) -> Result<(), String> {
    let rules = AnyRules::by_name(&args.variant).map_err(|e| e.to_string())?;
    if args.epochs == 0 {
        return Err("--epochs must be at least 1".into());
    }
    if args.square_penalty.is_nan() || args.square_penalty < 0.0 {
        return Err(format!("--square-penalty {} must be 0 or more", args.square_penalty));
    }
    if !(0.0..=1.0).contains(&args.score_weight) {
        return Err(format!("--score-weight {} is not between 0 and 1", args.score_weight));
    }
    let start_text = match &args.start {
        Some(path) => std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?,
        None => Weights::built_in(&rules.variant().name).unwrap_or("").to_string(),
    };
    match &rules {
        AnyRules::Small(r) => tune(r, args, &start_text),
        AnyRules::Medium(r) => tune(r, args, &start_text),
        AnyRules::Large(r) => tune(r, args, &start_text),
    }
}

fn tune<B: Bitboard>(rules: &Arc<Rules<B>>, args: &TuneArgs, start_text: &str) -> Result<(), String> {
    let freedom = freedoms(args, &rules.variant)?;
    let start_tables =
        |r: &Arc<Rules<B>>| EvalTables::with_weights(r, start_text).map_err(|e| format!("start weights: {e}"));
    // The tables of the variant's own rules (key 0) and of each rule
    // change met, by the rules' key.
    let mut tables: HashMap<u64, EvalTables<B>> = HashMap::from([(0, start_tables(rules)?)]);
    let started = Instant::now();
    let mut data = DataSet::default();
    let mut under_rule_changes = 0;
    read_data(rules, &args.data, |pos, result, score| {
        if pos.rules().key != 0 {
            under_rule_changes += 1;
        }
        let t = match tables.entry(pos.rules().key) {
            Entry::Occupied(e) => e.into_mut(),
            Entry::Vacant(e) => e.insert(start_tables(pos.rules())?),
        };
        data.push(&pos, t, result, score);
        if data.len() % 200_000 == 0 {
            eprintln!("read {} positions, {:.0} s", data.len(), started.elapsed().as_secs_f64());
        }
        Ok(())
    })?;
    if data.len() < 100 {
        return Err(format!("{} positions to fit on; at least 100 are needed", data.len()));
    }
    eprintln!(
        "{} positions ({under_rule_changes} under rule changes), read in {:.1} s",
        data.len(),
        started.elapsed().as_secs_f64()
    );
    let mut target = "the games' results".to_string();
    if args.score_weight > 0.0 {
        let (scale, scored) =
            data.blend_scores(args.score_weight).ok_or("--score-weight: no line of the data has a score")?;
        target = format!("{:.2} of the result and {:.2} of the reference's score (at K {scale:.3}) for the {scored} positions that have one", 1.0 - args.score_weight, args.score_weight);
        eprintln!("targets: {target}");
    }
    let fit = texel::fit(&data, tables[&0].weights(), &freedom, args.epochs, |epoch, loss| {
        eprintln!("epoch {epoch}/{}: loss {loss:.6}", args.epochs)
    });
    let unused = texel::unused_terms(&data, fit.weights.len());
    let sources: Vec<String> = args
        .data
        .iter()
        .map(|p| p.file_name().map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into_owned()))
        .collect();
    let summary = format!(
        "K {:.3}; loss {:.6} -> {:.6} on them, {:.6} -> {:.6} on the tenth held out",
        fit.k, fit.start_loss.0, fit.end_loss.0, fit.start_loss.1, fit.end_loss.1
    );
    let mut header = format!(
        "# Evaluation weights for {}, fitted by `protean tune` (Texel's method)\n\
         # on {} positions of {}, aiming at {target}; {summary}.\n\
         # {} terms the data never exercised keep their starting weights; piece-square weights penalised at {:e}.\n",
        rules.variant.name,
        data.len(),
        sources.join(", "),
        unused.len(),
        args.square_penalty,
    );
    if !args.hold.is_empty() {
        header += &format!("# Held at their starting weights: {}.\n", args.hold.join(", "));
    }
    let text = header + &Weights { terms: fit.weights }.to_text(&rules.variant);
    std::fs::write(&args.out, text).map_err(|e| format!("{}: {e}", args.out.display()))?;
    eprintln!("{summary}; wrote {}", args.out.display());
    Ok(())
}

/// Each line of the data files `paths` but blank ones, in order: its
/// position under `rules`, White's result and perhaps a score (see
/// [`parse_line`]). An error, the data's or `each`'s, is given with its
/// file and line.
pub(crate) fn read_data<B: Bitboard>(
    rules: &Arc<Rules<B>>,
    paths: &[PathBuf],
    mut each: impl FnMut(Position<B>, f32, Option<f32>) -> Result<(), String>,
) -> Result<(), String> {
    for path in paths {
        let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        for (i, line) in BufReader::new(file).lines().enumerate() {
            let line = line.map_err(|e| format!("{}: {e}", path.display()))?;
            if line.trim().is_empty() {
                continue;
            }
            let at = |reason: String| format!("{} line {}: {reason}", path.display(), i + 1);
            let (fen_text, result, score) = parse_line(&line).map_err(at)?;
            let pos = fen::parse(rules, fen_text).map_err(|e| at(e.to_string()))?;
            each(pos, result, score).map_err(at)?;
        }
    }
    Ok(())
}

/// A data line: a FEN, White's result in brackets, and perhaps a
/// reference engine's score for White in centipawns.
fn parse_line(line: &str) -> Result<(&str, f32, Option<f32>), String> {
    let line = line.trim();
    let open = line.rfind('[').ok_or("no [result] after the FEN")?;
    let (result_text, after) = line[open + 1..].split_once(']').ok_or("no ] after the result")?;
    let result = match result_text {
        "1.0" | "1" => 1.0,
        "0.5" => 0.5,
        "0.0" | "0" => 0.0,
        other => return Err(format!("result {other} is none of 1.0, 0.5, 0.0")),
    };
    let score = match after.trim() {
        "" => None,
        text => Some(
            text.parse::<i32>()
                .map_err(|_| format!("score {text} after the result is no whole number of centipawns"))?
                as f32,
        ),
    };
    Ok((line[..open].trim(), result, score))
}

#[cfg(test)]
mod tests {
    use super::parse_line;

    #[test]
    fn a_line_is_a_fen_a_result_and_perhaps_a_score() {
        let fen = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
        assert_eq!(parse_line(&format!("{fen} [1.0]")), Ok((fen, 1.0, None)));
        assert_eq!(parse_line(&format!("{fen} [0.5] -37")), Ok((fen, 0.5, Some(-37.0))));
        assert!(parse_line(&format!("{fen} [0.7]")).unwrap_err().contains("0.7"));
        assert!(parse_line(&format!("{fen} [0.0] much")).unwrap_err().contains("much"));
        assert!(parse_line(fen).is_err());
    }
}
