//! `protean train-network`: trains a variant's evaluation network (see
//! `protean_search::nnue`) on `protean datagen` files and writes it, the
//! file `crates/search/networks/<variant>.nnue` that the search builds in.
//! The work is `protean_train::train_network`'s (its module comment tells
//! the targets, what is held out and what a teacher does); this parses
//! the arguments and prints its progress.

use clap::Args;
use protean_rules::AnyRules;
use protean_search::nnue::Activation;
use protean_train::{Init, NetworkTraining, TrainOptions, TrainingProgress};
use std::path::PathBuf;
use std::time::Instant;

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
    #[arg(long, conflicts_with_all = ["from_built_in", "stretched"])]
    init: Option<PathBuf>,
    /// Start from the network the variant plays with by default (its own,
    /// its variant file's, or one lent it through its kinds) where it has
    /// one made the same way (alone or on top as `--on-top` says); else,
    /// on top, from another game's stretched to its board and kinds;
    /// from random weights where there is neither.
    #[arg(long, conflicts_with = "stretched")]
    from_built_in: bool,
    /// Start from another game's network (a built-in game's or a
    /// repository variant file's, on top) stretched to the
    /// variant's board and kinds, even where the variant plays with a
    /// network of its own: one trained from nothing on a few hundred
    /// thousand positions may know less than the lender's millions.
    #[arg(long, requires = "on_top")]
    stretched: bool,
    /// Hold out these files' positions (datagen's format), all of them,
    /// instead of a twentieth of `--data`, which is then trained on whole.
    #[arg(long, num_args = 1..)]
    held_out: Vec<PathBuf>,
    /// Targets from the search's static evaluation (the hand-made one with
    /// the built-in network on top) instead of the data's results and
    /// scores: to distil it into a network alone.
    #[arg(long, conflicts_with_all = ["on_top", "score_weight"])]
    teacher: bool,
    /// With --on-top: the weights file (`protean tune`'s) the hand-made
    /// evaluation below the network weighs by, the engine's `WeightsFile`
    /// when it plays with the network (the built-in weights without).
    #[arg(long, requires = "on_top")]
    weights: Option<PathBuf>,
}

pub fn run(args: &TrainNetworkArgs) -> Result<(), String> {
    let rules = AnyRules::by_name(&args.variant).map_err(|e| e.to_string())?;
    if !(0.0..=1.0).contains(&args.score_weight) {
        return Err(format!("--score-weight {} is not between 0 and 1", args.score_weight));
    }
    let starts_from_a_network = args.init.is_some() || args.from_built_in || args.stretched;
    if (args.epochs == 0 && !starts_from_a_network) || args.batch == 0 || args.threads == 0 {
        return Err(
            "--epochs (but with --init, --from-built-in or --stretched), --batch and --threads must be at least 1"
                .into(),
        );
    }
    let activation = Activation::by_name(&args.activation)
        .ok_or_else(|| format!("--activation {} is neither crelu nor screlu", args.activation))?;
    if !(args.learning_rate > 0.0 && args.learning_rate.is_finite()) {
        return Err(format!("--learning-rate {} is not a positive number", args.learning_rate));
    }
    let training = NetworkTraining {
        data: args.data.clone(),
        held_out: args.held_out.clone(),
        out: args.out.clone(),
        init: match (&args.init, args.from_built_in, args.stretched) {
            (Some(path), ..) => Init::File(path.clone()),
            (None, true, _) => Init::BuiltIn,
            (None, false, true) => Init::Stretched,
            (None, false, false) => Init::Random,
        },
        score_weight: args.score_weight,
        mirror: args.mirror,
        teacher: args.teacher,
        weights: args.weights.clone(),
        options: TrainOptions {
            epochs: args.epochs,
            batch: args.batch,
            learning_rate: args.learning_rate,
            threads: args.threads,
            seed: args.seed,
            on_top: args.on_top,
            activation,
        },
    };
    let started = Instant::now();
    let seconds = || started.elapsed().as_secs_f64();
    let held_out_loss = protean_train::train_network(&rules, &training, |progress| {
        match progress {
        TrainingProgress::Reading { positions } => eprintln!("read {positions} positions, {:.0} s", seconds()),
        TrainingProgress::Read { training, held_out, under_rule_changes } => eprintln!(
            "{training} positions to train on, {held_out} held out ({under_rule_changes} under rule changes left out), read in {:.1} s",
            seconds()
        ),
        TrainingProgress::HandMadeLoss(loss) => {
            eprintln!("the hand-made evaluation's loss on the positions held out: {loss:.6}")
        }
        TrainingProgress::NoBuiltIn(made) => {
            eprintln!("{} plays with no network {made}: random weights to start from", args.variant)
        }
        TrainingProgress::LentAcrossBoards(lender) if args.stretched => eprintln!(
            "{} starts from {lender}'s network, stretched to its board and kinds",
            args.variant
        ),
        TrainingProgress::LentAcrossBoards(lender) => eprintln!(
            "{} plays with no network: {lender}'s, stretched to its board and kinds, to start from",
            args.variant
        ),
        TrainingProgress::Epoch(r) => match r.training_loss {
            None => eprintln!("the starting network's loss on the positions held out: {:.6}", r.validation_loss),
            Some(loss) => eprintln!(
                "epoch {}/{}: loss {:.6}, held out {:.6}, {:.0} s",
                r.epoch,
                args.epochs,
                loss,
                r.validation_loss,
                seconds()
            ),
        },
    }
    })?;
    eprintln!(
        "wrote {}: the network after the epoch whose held-out loss was lowest ({held_out_loss:.6})",
        args.out.display()
    );
    Ok(())
}
