//! Tuning a variant's evaluation weights on datagen's records, start to
//! end: the records read into a [`DataSet`], the weights fitted
//! (`texel`), and a weights file written, the file
//! `crates/search/weights/<variant>.txt` that the evaluation builds in.
//!
//! Under a rule change (Flexichess) a redefined kind's terms count with
//! the default weights of its new moves and are not fitted: the weights
//! fitted are those of the variant's own pieces, and of the whole
//! position. The fit starts from the weights the binary has for the
//! variant (or a weights file), and the file written says what it was
//! fitted on and how well.

use crate::records::read_records;
use crate::texel::{self, DataSet, Fit, Freedom};
use protean_rules::variant::Variant;
use protean_rules::{AnyRules, Bitboard, Rules};
use protean_search::evaluate::EvalTables;
use protean_search::weights::{per_kind, scalar, Layout, PerKind, Scalar, Weights, SQUARE};
use std::collections::hash_map::{Entry, HashMap};
use std::path::PathBuf;
use std::sync::Arc;

/// What to fit and how: `protean tune`'s options, whose names its errors
/// use.
#[derive(Clone, Debug)]
pub struct Tuning {
    /// Record files (datagen's).
    pub data: Vec<PathBuf>,
    /// The weights file to write.
    pub out: PathBuf,
    /// Steps of gradient descent over all the data, at least 1.
    pub epochs: usize,
    /// A weights file to start from; the weights built in where `None`.
    pub start: Option<PathBuf>,
    /// Which terms the fit moves.
    pub fitted: Fitted,
    /// How much of each target is the reference's score, 0 to 1 (see
    /// [`DataSet::blend_scores`]).
    pub score_weight: f64,
    /// What the fit pays per piece-square weight, times its square in
    /// centipawns (see [`Freedom::Penalised`]), 0 or more.
    pub square_penalty: f64,
}

/// Which terms a fit moves, by name: a scalar term's (`passed`), a
/// per-kind term's (`value`, `square`) for every kind's.
#[derive(Clone, Debug)]
pub enum Fitted {
    /// Every term but these, which keep their starting weights
    /// (`--hold`; every term where it names none).
    AllBut(Vec<String>),
    /// These alone; every other keeps its starting weight (`--only`).
    Only(Vec<String>),
}

/// How a tuning goes, for whoever watches.
#[derive(Clone, Debug)]
pub enum TuneProgress {
    /// Every 200,000 positions read.
    Reading { positions: usize },
    /// All the records are read.
    Read { positions: usize, under_rule_changes: usize },
    /// What the fit aims at, where it is not the results alone.
    Targets { description: String },
    /// Every tenth epoch, and the last: the loss on the positions fitted to.
    Epoch { epoch: usize, loss: f64 },
}

/// Fits `rules`' evaluation weights to the records as `tuning` says and
/// writes them as a weights file; returns the fit. Nothing is written
/// where the weights to start from, a term to hold or the records are
/// wrong, or where fewer than 100 positions are read.
pub fn tune(rules: &AnyRules, tuning: &Tuning, progress: impl FnMut(TuneProgress)) -> Result<Fit, String> {
    let start_text = match &tuning.start {
        Some(path) => std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?,
        None => Weights::built_in(rules.variant()).unwrap_or("").to_string(),
    };
    match rules {
        AnyRules::Small(r) => tune_on(r, tuning, &start_text, progress),
        AnyRules::Medium(r) => tune_on(r, tuning, &start_text, progress),
        AnyRules::Large(r) => tune_on(r, tuning, &start_text, progress),
    }
}

/// What the fit may do with each term's weight (by term index), for
/// `variant`: as `fitted` says, the piece-square terms, where fitted,
/// paying `square_penalty`. An error names the first name that is no term.
fn freedoms(variant: &Variant, fitted: &Fitted, square_penalty: f64) -> Result<Vec<Freedom>, String> {
    let (names, option, named, others) = match fitted {
        Fitted::AllBut(held) => (held, "--hold", Freedom::Held, Freedom::Free),
        Fitted::Only(only) => (only, "--only", Freedom::Free, Freedom::Held),
    };
    let squares = |freedom| if freedom == Freedom::Free { Freedom::Penalised(square_penalty) } else { freedom };
    let layout = Layout::of(variant);
    let mut freedom = vec![others; layout.terms()];
    freedom[layout.square_terms()].fill(squares(others));
    for name in names {
        if let Some(s) = Scalar::by_name(name) {
            freedom[scalar(s)] = named;
        } else if let Some(term) = PerKind::by_name(name) {
            for kind in 0..variant.pieces.len() {
                freedom[per_kind(term, kind)] = named;
            }
        } else if name == SQUARE {
            freedom[layout.square_terms()].fill(squares(named));
        } else {
            return Err(format!("{option}: no term {name}"));
        }
    }
    Ok(freedom)
}

fn tune_on<B: Bitboard>(
    rules: &Arc<Rules<B>>,
    tuning: &Tuning,
    start_text: &str,
    mut progress: impl FnMut(TuneProgress),
) -> Result<Fit, String> {
    let freedom = freedoms(&rules.variant, &tuning.fitted, tuning.square_penalty)?;
    let start_tables =
        |r: &Arc<Rules<B>>| EvalTables::with_weights(r, start_text).map_err(|e| format!("start weights: {e}"));
    // The tables of the variant's own rules (key 0) and of each rule
    // change met, by the rules' key.
    let mut tables: HashMap<u64, EvalTables<B>> = HashMap::from([(0, start_tables(rules)?)]);
    let mut data = DataSet::default();
    let mut under_rule_changes = 0;
    read_records(rules, &tuning.data, |pos, result, score| {
        if pos.rules().key != 0 {
            under_rule_changes += 1;
        }
        let t = match tables.entry(pos.rules().key) {
            Entry::Occupied(e) => e.into_mut(),
            Entry::Vacant(e) => e.insert(start_tables(pos.rules())?),
        };
        data.push(&pos, t, result, score);
        if data.len() % 200_000 == 0 {
            progress(TuneProgress::Reading { positions: data.len() });
        }
        Ok(())
    })?;
    if data.len() < 100 {
        return Err(format!("{} positions to fit on; at least 100 are needed", data.len()));
    }
    progress(TuneProgress::Read { positions: data.len(), under_rule_changes });
    let mut target = "the games' results".to_string();
    if tuning.score_weight > 0.0 {
        let (scale, scored) =
            data.blend_scores(tuning.score_weight).ok_or("--score-weight: no line of the data has a score")?;
        target = format!(
            "{:.2} of the result and {:.2} of the reference's score (at K {scale:.3}) for the {scored} positions that have one",
            1.0 - tuning.score_weight,
            tuning.score_weight
        );
        progress(TuneProgress::Targets { description: target.clone() });
    }
    let fit = texel::fit(&data, tables[&0].weights(), &freedom, tuning.epochs, |epoch, loss| {
        progress(TuneProgress::Epoch { epoch, loss })
    });
    let text = weights_file(&rules.variant, tuning, &data, &fit, &target);
    std::fs::write(&tuning.out, text).map_err(|e| format!("{}: {e}", tuning.out.display()))?;
    Ok(fit)
}

/// The weights file of `fit`: a header saying what it was fitted on
/// (`data`, aiming at `target`) and how well, then the weights.
fn weights_file(variant: &Variant, tuning: &Tuning, data: &DataSet, fit: &Fit, target: &str) -> String {
    let unused = texel::unused_terms(data, fit.weights.len());
    let sources: Vec<String> = tuning
        .data
        .iter()
        .map(|p| p.file_name().map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into_owned()))
        .collect();
    // Many files (`protean learn`'s chunks) are named by the first and last.
    let sources = match sources.as_slice() {
        [first, .., last] if sources.len() > 4 => format!("{} files, {first} to {last}", sources.len()),
        _ => sources.join(", "),
    };
    let mut header = format!(
        "# Evaluation weights for {}, fitted by `protean tune` (Texel's method)\n\
         # on {} positions of {}, aiming at {target}; {}.\n\
         # {} terms the data never exercised keep their starting weights; piece-square weights penalised at {:e}.\n",
        variant.name,
        data.len(),
        sources,
        fit.summary(),
        unused.len(),
        tuning.square_penalty,
    );
    match &tuning.fitted {
        Fitted::AllBut(held) if held.is_empty() => {}
        Fitted::AllBut(held) => header += &format!("# Held at their starting weights: {}.\n", held.join(", ")),
        Fitted::Only(only) => {
            header += &format!("# Fitted only: {}; every other term keeps its starting weight.\n", only.join(", "))
        }
    }
    header + &Weights { terms: fit.weights.clone() }.to_text(variant)
}
