//! `protean tune`: fits a variant's evaluation weights to the results of
//! games (Texel's method) and writes them as a weights file, the file
//! `crates/search/weights/<variant>.txt` that the evaluation builds in.
//! The work is `protean_train::tune`'s; this parses the arguments and
//! prints its progress.
//!
//! The data are `protean datagen` files: one `FEN [result]` a line,
//! where a line may end with a reference engine's score of the position
//! (White's centipawns, `FEN [result] score`: benches/reference-datagen.py
//! writes them); `--score-weight` blends those scores into the targets.

use clap::Args;
use protean_rules::AnyRules;
use protean_train::{Fitted, TuneProgress, Tuning};
use std::path::PathBuf;
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
    /// The only terms fitted (names as for --hold); every other keeps its
    /// starting value. `--only value` fits the piece values alone.
    #[arg(long, num_args = 1.., conflicts_with = "hold")]
    only: Vec<String>,
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
    let tuning = Tuning {
        data: args.data.clone(),
        out: args.out.clone(),
        epochs: args.epochs,
        start: args.start.clone(),
        // clap refuses both; `--only` given names at least one term.
        fitted: if args.only.is_empty() { Fitted::AllBut(args.hold.clone()) } else { Fitted::Only(args.only.clone()) },
        score_weight: args.score_weight,
        square_penalty: args.square_penalty,
    };
    let started = Instant::now();
    let fit = protean_train::tune(&rules, &tuning, |progress| match progress {
        TuneProgress::Reading { positions } => {
            eprintln!("read {positions} positions, {:.0} s", started.elapsed().as_secs_f64())
        }
        TuneProgress::Read { positions, under_rule_changes } => eprintln!(
            "{positions} positions ({under_rule_changes} under rule changes), read in {:.1} s",
            started.elapsed().as_secs_f64()
        ),
        TuneProgress::Targets { description } => eprintln!("targets: {description}"),
        TuneProgress::Epoch { epoch, loss } => eprintln!("epoch {epoch}/{}: loss {loss:.6}", args.epochs),
    })?;
    eprintln!("{}; wrote {}", fit.summary(), args.out.display());
    Ok(())
}
