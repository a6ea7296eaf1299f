//! `protean train-network`: trains a variant's evaluation network (see
//! `protean_search::nnue`) on `protean datagen` files and writes it, the
//! file `crates/search/networks/<variant>.nnue` that the search builds in.
//!
//! Each position's target, for the side to move, is the game's result
//! blended with the search's score of the position (`FEN [result]
//! score`): `(1 - w) * result + w * sigmoid(score / 400)`, `w` being
//! `--score-weight` (a line without a score counts its result alone). A
//! position under a rule change (Flexichess) is left out: the network is
//! of the variant's own pieces. With `--on-top` the network learns what
//! the hand-made evaluation misses: its output is added to that
//! evaluation, in training as in the search. A twentieth of the positions is held out,
//! and the loss on it is reported after each epoch next to the training
//! loss: whole runs of lines (`HELD_OUT_RUN`), since a game's positions
//! are written together and resemble each other, and one held out line by
//! line would be all but seen. `--held-out FILE` holds out a file's
//! positions instead, all of them and nothing of `--data`: networks
//! trained on different data (or one more file of it) are then compared
//! on the same positions, which none of them has seen.
//!
//! `--teacher` distils instead: each position's target is what the
//! search's static evaluation makes of it (the hand-made evaluation with
//! the variant's built-in network on top), not the game's result or the
//! data's score, so that a network alone, much cheaper to evaluate, can
//! learn to read positions as the two together do. Its positions need no
//! score and no result worth anything: any position the search meets will
//! do.

use crate::tune_command::read_data;
use clap::Args;
use protean_rules::{AnyRules, Bitboard, Color, Position, Rules};
use protean_search::evaluate::{evaluate, EvalTables};
use protean_search::nnue::{built_in, Activation, Network};
use protean_search::nnue_train::{self, expected_result, FloatNetwork, Start, TrainOptions, TrainingSet};
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

/// Lines held out together (see the module comment): a run of at most
/// this many in every twenty, about fifty games' worth, and fewer where
/// the data are few, so that there are at least twenty runs.
const HELD_OUT_RUN: usize = 4096;

#[derive(Args)]
pub struct TrainNetworkArgs {
    /// The variant the data are from: standard, perfect, onedim, beyond, flexichess (or an alias).
    #[arg(long, default_value = "standard")]
    variant: String,
    /// Data files (`protean datagen` output): `FEN [1.0|0.5|0.0] score` a line.
    #[arg(long, required = true, num_args = 1..)]
    data: Vec<PathBuf>,
    /// The network file to write.
    #[arg(long)]
    out: PathBuf,
    /// Passes over the data.
    #[arg(long, default_value_t = 30)]
    epochs: usize,
    /// Positions per step of Adam.
    #[arg(long, default_value_t = 16_384)]
    batch: usize,
    /// Adam's first step size (it falls to a twentieth by the end).
    #[arg(long, default_value_t = 0.001, allow_negative_numbers = true)]
    learning_rate: f32,
    /// How much of each target is the search's score (0: the result alone).
    #[arg(long, default_value_t = 0.75, allow_negative_numbers = true)]
    score_weight: f32,
    /// Threads that share each batch.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Train on each position with its files mirrored too (where the rules
    /// do not tell left from right).
    #[arg(long)]
    mirror: bool,
    /// Train the network on top of the hand-made evaluation: to learn what
    /// it misses, its output added to it.
    #[arg(long)]
    on_top: bool,
    /// What a hidden unit makes of its sum: screlu (clipped to 0..1 and
    /// squared, as the built-in standard network's are) or crelu (clipped).
    /// A network given by `--init` keeps its own.
    #[arg(long, default_value = "screlu")]
    activation: String,
    /// Seed of the first weights and of the order of the positions.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Start from this network (a file written before, of the same board,
    /// alone or on top as `--on-top` says) instead of random weights; its
    /// loss on the positions held out is printed first, and with
    /// `--epochs 0` that is all it is used for.
    #[arg(long)]
    init: Option<PathBuf>,
    /// Hold out these files' positions (datagen's format), all of them,
    /// instead of a twentieth of `--data`, which is then trained on whole.
    #[arg(long, num_args = 1..)]
    held_out: Vec<PathBuf>,
    /// Targets from the search's static evaluation (the hand-made one with
    /// the built-in network on top) instead of the data's results and
    /// scores: to distil it into a network alone.
    #[arg(long, conflicts_with_all = ["on_top", "score_weight"])]
    teacher: bool,
}

pub fn run(args: &TrainNetworkArgs) -> Result<(), String> {
    let rules = AnyRules::by_name(&args.variant).map_err(|e| e.to_string())?;
    if !(0.0..=1.0).contains(&args.score_weight) {
        return Err(format!("--score-weight {} is not between 0 and 1", args.score_weight));
    }
    if (args.epochs == 0 && args.init.is_none()) || args.batch == 0 || args.threads == 0 {
        return Err("--epochs (but with --init), --batch and --threads must be at least 1".into());
    }
    let activation = Activation::by_name(&args.activation)
        .ok_or_else(|| format!("--activation {} is neither crelu nor screlu", args.activation))?;
    if !(args.learning_rate > 0.0 && args.learning_rate.is_finite()) {
        return Err(format!("--learning-rate {} is not a positive number", args.learning_rate));
    }
    match &rules {
        AnyRules::Small(r) => train(r, args, activation),
        AnyRules::Medium(r) => train(r, args, activation),
        AnyRules::Large(r) => train(r, args, activation),
    }
}

fn train<B: Bitboard>(rules: &Arc<Rules<B>>, args: &TrainNetworkArgs, activation: Activation) -> Result<(), String> {
    let started = Instant::now();
    let (kinds, cells) = (rules.piece_types, rules.geometry.cells());
    // The network to start from is read first: a mistake in it is told
    // before the data are.
    let start = match &args.init {
        None => Start::Random,
        Some(path) => {
            let net = Network::from_file(path).map_err(|e| format!("--init {e}"))?;
            if !net.fits(rules) {
                let (k, c) = net.shape();
                return Err(format!(
                    "--init {}: {k} kinds on {c} cells, where {} has {kinds} on {cells}",
                    path.display(),
                    args.variant
                ));
            }
            if net.on_top != args.on_top {
                let kind = |on_top| if on_top { "on top of the hand-made evaluation" } else { "alone" };
                return Err(format!(
                    "--init {}: a network {}, where this training is {}",
                    path.display(),
                    kind(net.on_top),
                    kind(args.on_top)
                ));
            }
            Start::From(FloatNetwork::from_network(&net))
        }
    };
    let (mut training, mut validation) = (TrainingSet::new(kinds, cells), TrainingSet::new(kinds, cells));
    let mut under_rule_changes = 0;
    let mut read = 0usize;
    // What the hand-made evaluation's loss is on the held-out positions:
    // the network's is worth something when it is below it.
    let tables = EvalTables::new(rules);
    let teacher = if args.teacher {
        let net = built_in(rules).filter(|net| net.on_top);
        Some(net.ok_or_else(|| {
            format!(
                "--teacher: {} has no built-in network on top of its hand-made evaluation to learn from",
                args.variant
            )
        })?)
    } else {
        None
    };
    // Every file is opened here, before the long read, so that a path
    // mistyped (a `--held-out` one too) is named at once.
    let mut lines = 0usize;
    for path in args.data.iter().chain(&args.held_out) {
        let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        lines += BufReader::new(file).lines().count();
    }
    let run = (lines / 400).clamp(1, HELD_OUT_RUN);
    let (mut hand_made_loss, mut held_out) = (0f64, 0usize);
    // `from_held_out_file`: the position is of a `--held-out` file.
    let mut each = |pos: Position<B>, white_result: f32, white_score: Option<f32>, from_held_out_file: bool| {
        if pos.rules().key != rules.key {
            under_rule_changes += 1;
            return Ok(());
        }
        let white = pos.side_to_move() == Color::White;
        let result = if white { white_result } else { 1.0 - white_result };
        let hand_made = evaluate(&pos, &tables) as f32;
        let target = match (teacher, white_score) {
            (Some(net), _) => expected_result(hand_made + net.evaluate(&pos) as f32),
            (None, Some(cp)) => {
                let cp = if white { cp } else { -cp };
                (1.0 - args.score_weight) * result + args.score_weight * expected_result(cp)
            }
            (None, None) => result,
        };
        let hold_out = if args.held_out.is_empty() { (read / run) % 20 == 19 } else { from_held_out_file };
        read += 1;
        if hold_out {
            hand_made_loss += (expected_result(hand_made) - target).powi(2) as f64;
            held_out += 1;
        }
        let offset = if args.on_top { hand_made } else { 0.0 };
        let set = if hold_out { &mut validation } else { &mut training };
        set.push(&pos, target, offset, false);
        if args.mirror {
            set.push(&pos, target, offset, true);
        }
        if read.is_multiple_of(500_000) {
            eprintln!("read {read} positions, {:.0} s", started.elapsed().as_secs_f64());
        }
        Ok(())
    };
    read_data(rules, &args.data, |pos, result, score| each(pos, result, score, false))?;
    read_data(rules, &args.held_out, |pos, result, score| each(pos, result, score, true))?;
    if !args.held_out.is_empty() && held_out == 0 {
        return Err("--held-out: no position to hold out (none read, or all under rule changes)".into());
    }
    let of_data = if args.held_out.is_empty() { read } else { read - held_out };
    if of_data < 100 {
        return Err(format!("{of_data} positions to train on; at least 100 are needed"));
    }
    eprintln!(
        "{} positions to train on, {} held out ({under_rule_changes} under rule changes left out), read in {:.1} s",
        training.len(),
        validation.len(),
        started.elapsed().as_secs_f64()
    );
    eprintln!("the hand-made evaluation's loss on the positions held out: {:.6}", hand_made_loss / held_out as f64);
    let options = TrainOptions {
        epochs: args.epochs,
        batch: args.batch,
        learning_rate: args.learning_rate,
        threads: args.threads,
        seed: args.seed,
        on_top: args.on_top,
        activation,
    };
    let net = nnue_train::train(start, &training, &validation, &options, |r| match r.training_loss {
        None => eprintln!("the starting network's loss on the positions held out: {:.6}", r.validation_loss),
        Some(loss) => eprintln!(
            "epoch {}/{}: loss {:.6}, held out {:.6}, {:.0} s",
            r.epoch,
            args.epochs,
            loss,
            r.validation_loss,
            started.elapsed().as_secs_f64()
        ),
    });
    let network = net.quantized().map_err(|e| e.to_string())?;
    std::fs::write(&args.out, network.to_bytes()).map_err(|e| format!("{}: {e}", args.out.display()))?;
    eprintln!(
        "wrote {}: the network after the epoch whose held-out loss was lowest ({:.6})",
        args.out.display(),
        net.loss(&validation)
    );
    Ok(())
}
