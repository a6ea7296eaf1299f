//! Training a variant's evaluation network on datagen's records, start to
//! end: the records read into a training set and a held-out one, the
//! network trained (`network`), and its file written, the file
//! `crates/search/networks/<variant>.nnue` that the search builds in.
//!
//! Each position's target, for the side to move, is the game's result
//! blended with the search's score of the position: `(1 - w) * result +
//! w * sigmoid(score / 400)`, `w` being the score weight (a record without
//! a score counts its result alone). A position under a rule change
//! (Flexichess) is left out: the network is of the variant's own pieces.
//! On top, the network learns what the hand-made evaluation misses: its
//! output is added to that evaluation, in training as in the search.
//!
//! A twentieth of the positions is held out, and the loss on it is
//! reported after each epoch next to the training loss: whole runs of
//! lines (`HELD_OUT_RUN`), since a game's positions are written together
//! and resemble each other, and one held out line by line would be all
//! but seen. The runs are of lines, those left out under rule changes
//! included, so that the few positions of Flexichess games under their
//! own rules are held out as often as any. Held-out files replace that:
//! all of their positions and nothing of the data are held out, so that
//! networks trained on different data (or one more file of it) are
//! compared on the same positions, which none of them has seen.
//!
//! A teacher distils instead: each position's target is what the search's
//! static evaluation makes of it (the hand-made evaluation with the
//! variant's built-in network on top), not the game's result or the
//! data's score, so that a network alone, much cheaper to evaluate, can
//! learn to read positions as the two together do. Its positions need no
//! score and no result worth anything: any position the search meets will
//! do.

use crate::network::{self, expected_result, EpochReport, FloatNetwork, Start, TrainOptions, TrainingSet};
use crate::records::{count_lines, read_records};
use protean_rules::{AnyRules, Bitboard, Color, Position, Rules};
use protean_search::evaluate::{evaluate, EvalTables};
use protean_search::nnue::{built_in, starting_network, Network, StartingNetwork};
use std::path::PathBuf;
use std::sync::Arc;

/// Lines held out together (see the module comment): a run of at most
/// this many in every twenty, about fifty games' worth, and fewer where
/// the data are few, so that there are at least twenty runs.
const HELD_OUT_RUN: usize = 4096;

/// What to train and how: `protean train-network`'s options, whose names
/// its errors use.
#[derive(Clone, Debug)]
pub struct NetworkTraining {
    /// Record files (datagen's) to train on.
    pub data: Vec<PathBuf>,
    /// Record files to hold out whole instead of a twentieth of `data`.
    pub held_out: Vec<PathBuf>,
    /// The network file to write.
    pub out: PathBuf,
    /// What the network starts from.
    pub init: Init,
    /// How much of each target is the search's score, 0 to 1.
    pub score_weight: f32,
    /// Train on each position with its files mirrored too.
    pub mirror: bool,
    /// Targets from the search's static evaluation (see the module comment).
    pub teacher: bool,
    /// A weights file (`protean tune`'s) that the hand-made evaluation
    /// under an on-top network weighs by, as the engine will with it as
    /// `WeightsFile`; `None`: the built-in weights.
    pub weights: Option<PathBuf>,
    /// How the network is fitted; its `on_top` is the training's.
    pub options: TrainOptions,
}

/// What a training starts from.
#[derive(Clone, Debug, PartialEq)]
pub enum Init {
    /// Small random weights.
    Random,
    /// A network file (of the same board, alone or on top as the
    /// training is).
    File(PathBuf),
    /// The network the variant plays with by default
    /// (`protean_search::nnue::built_in`: its own, its variant file's, or
    /// one lent through its kinds), where it has one made the same way
    /// (alone or on top); else another game's lent across boards
    /// (`protean_search::nnue::lent_across_boards`, on top); random
    /// weights where there is neither. A variant learns more from a
    /// network than from nothing: its own games' few hundred thousand
    /// positions refine what millions taught the network.
    BuiltIn,
    /// Another game's network lent across boards (on top), even where
    /// the variant plays with one of its own: its own may have been
    /// trained from nothing on fewer positions than the lender's.
    Stretched,
}

/// How a training goes, for whoever watches.
pub enum TrainingProgress {
    /// Every 500,000 positions read.
    Reading { positions: usize },
    /// All the records are read.
    Read { training: usize, held_out: usize, under_rule_changes: usize },
    /// The hand-made evaluation's loss on the positions held out: the
    /// network's is worth something when it is below it.
    HandMadeLoss(f64),
    /// `Init::BuiltIn` found no network made the same way (as it says:
    /// "alone", "on top of its hand-made evaluation"): the training
    /// starts from random weights.
    NoBuiltIn(&'static str),
    /// `Init::BuiltIn` (where the variant plays with no network of its
    /// own) or `Init::Stretched` starts from this game's
    /// network, lent across boards.
    LentAcrossBoards(&'static str),
    /// The start's loss (epoch 0, where it was trained before), then
    /// each epoch's.
    Epoch(EpochReport),
}

/// Trains a network for `rules` as `training` says and writes it; returns
/// its loss on the positions held out. Nothing is written where the
/// network to start from, the teacher or the records are wrong, or where
/// fewer than 100 positions are left to train on.
pub fn train_network(
    rules: &AnyRules,
    training: &NetworkTraining,
    progress: impl FnMut(TrainingProgress),
) -> Result<f64, String> {
    match rules {
        AnyRules::Small(r) => train_on(r, training, progress),
        AnyRules::Medium(r) => train_on(r, training, progress),
        AnyRules::Large(r) => train_on(r, training, progress),
    }
}

/// The training set and the held-out one, with the hand-made
/// evaluation's loss on the held-out one.
struct Sets {
    training: TrainingSet,
    validation: TrainingSet,
    hand_made_loss: f64,
}

fn train_on<B: Bitboard>(
    rules: &Arc<Rules<B>>,
    training: &NetworkTraining,
    mut progress: impl FnMut(TrainingProgress),
) -> Result<f64, String> {
    // The network to start from is read first: a mistake in it is told
    // before the data are.
    let from = |net: &Network| Start::From(FloatNetwork::from_network(net, rules.geometry));
    let start = match &training.init {
        Init::Random => Start::Random,
        Init::File(path) => from(&network_to_start_from(rules, path, training)?),
        Init::BuiltIn | Init::Stretched => {
            let (on_top, stretched) = (training.options.on_top, training.init == Init::Stretched);
            let made = if on_top { "on top of its hand-made evaluation" } else { "alone" };
            match starting_network(rules, on_top, stretched) {
                Some(StartingNetwork::PlaysWith(net)) => from(net),
                Some(StartingNetwork::Stretched(lender, net)) => {
                    progress(TrainingProgress::LentAcrossBoards(lender));
                    from(&net)
                }
                None if stretched => {
                    return Err(format!(
                        "no other game's network {} stretches to {} (a board of two files and ranks or more, \
                         the lender's moving tiles and rule changes)",
                        if on_top { "on top" } else { "alone" },
                        rules.variant.name
                    ));
                }
                None if training.options.epochs == 0 => {
                    return Err(format!(
                        "{} plays with no network {made} to start from, and --epochs is 0",
                        rules.variant.name
                    ));
                }
                None => {
                    progress(TrainingProgress::NoBuiltIn(made));
                    Start::Random
                }
            }
        }
    };
    let sets = read_sets(rules, training, &mut progress)?;
    let net = network::train(start, &sets.training, &sets.validation, &training.options, |r| {
        progress(TrainingProgress::Epoch(r))
    });
    let quantized = net.quantized().map_err(|e| e.to_string())?;
    std::fs::write(&training.out, quantized.to_bytes()).map_err(|e| format!("{}: {e}", training.out.display()))?;
    Ok(net.loss(&sets.validation))
}

/// The network file `path` as a start for `training` of `rules`: of their
/// board, alone or on top as the training is.
fn network_to_start_from<B: Bitboard>(
    rules: &Rules<B>,
    path: &std::path::Path,
    training: &NetworkTraining,
) -> Result<Network, String> {
    let (kinds, cells) = (rules.piece_types, rules.geometry.cells());
    let net = Network::from_file(path).map_err(|e| format!("--init {e}"))?;
    if !net.fits(rules) {
        let (k, c) = net.shape();
        return Err(format!(
            "--init {}: {k} kinds on {c} cells, where {} has {kinds} on {cells}",
            path.display(),
            rules.variant.name
        ));
    }
    let on_top = training.options.on_top;
    if net.on_top != on_top {
        let kind = |on_top| if on_top { "on top of the hand-made evaluation" } else { "alone" };
        return Err(format!(
            "--init {}: a network {}, where this training is {}",
            path.display(),
            kind(net.on_top),
            kind(on_top)
        ));
    }
    Ok(net)
}

/// Reads the records into the training set and the held-out one.
fn read_sets<B: Bitboard>(
    rules: &Arc<Rules<B>>,
    training: &NetworkTraining,
    progress: &mut impl FnMut(TrainingProgress),
) -> Result<Sets, String> {
    let mut sets = Sets {
        training: TrainingSet::new(rules.piece_types, rules.geometry),
        validation: TrainingSet::new(rules.piece_types, rules.geometry),
        hand_made_loss: 0.0,
    };
    let mut under_rule_changes = 0;
    let mut read = 0usize;
    let tables = match &training.weights {
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
            EvalTables::with_weights(rules, &text).map_err(|e| format!("{}: {e}", path.display()))?
        }
        None => EvalTables::new(rules),
    };
    let teacher = if training.teacher {
        let net = built_in(rules).filter(|net| net.on_top);
        Some(net.ok_or_else(|| {
            format!(
                "--teacher: {} has no built-in network on top of its hand-made evaluation to learn from",
                rules.variant.name
            )
        })?)
    } else {
        None
    };
    let lines = count_lines(&training.data)? + count_lines(&training.held_out)?;
    let run = (lines / 400).clamp(1, HELD_OUT_RUN);
    let mut held_out = 0usize;
    let (score_weight, on_top) = (training.score_weight, training.options.on_top);
    // `from_held_out_file`: the position is of a held-out file.
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
                (1.0 - score_weight) * result + score_weight * expected_result(cp)
            }
            (None, None) => result,
        };
        // Runs of lines, those left out under rule changes counted too.
        let lines_before = read + under_rule_changes;
        let hold_out = if training.held_out.is_empty() { (lines_before / run) % 20 == 19 } else { from_held_out_file };
        read += 1;
        if hold_out {
            sets.hand_made_loss += (expected_result(hand_made) - target).powi(2) as f64;
            held_out += 1;
        }
        let offset = if on_top { hand_made } else { 0.0 };
        let set = if hold_out { &mut sets.validation } else { &mut sets.training };
        set.push(&pos, target, offset, false);
        if training.mirror {
            set.push(&pos, target, offset, true);
        }
        if read.is_multiple_of(500_000) {
            progress(TrainingProgress::Reading { positions: read });
        }
        Ok(())
    };
    read_records(rules, &training.data, |pos, result, score| each(pos, result, score, false))?;
    read_records(rules, &training.held_out, |pos, result, score| each(pos, result, score, true))?;
    if !training.held_out.is_empty() && held_out == 0 {
        return Err("--held-out: no position to hold out (none read, or all under rule changes)".into());
    }
    let of_data = if training.held_out.is_empty() { read } else { read - held_out };
    if of_data < 100 {
        return Err(format!("{of_data} positions to train on; at least 100 are needed"));
    }
    if held_out == 0 {
        return Err(format!("no position held out of {read} ({under_rule_changes} under rule changes left out)"));
    }
    sets.hand_made_loss /= held_out as f64;
    progress(TrainingProgress::Read {
        training: sets.training.len(),
        held_out: sets.validation.len(),
        under_rule_changes,
    });
    progress(TrainingProgress::HandMadeLoss(sets.hand_made_loss));
    Ok(sets)
}
