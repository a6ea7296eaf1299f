//! Texel's method: fits the evaluation's weights to game results.
//!
//! Each position of the data (from `protean datagen`: quiet positions
//! with the result of the game they came from) is turned once into its
//! features: for every term, White's feature minus Black's (see
//! `evaluate::Terms`), and the game phase. The evaluation is linear in
//! its weights, so the evaluation of any set of weights is a sum over a
//! few dozen features, and its gradient is as cheap.
//!
//! The loss is the mean squared difference between the result (1, 0.5, 0)
//! and the evaluation turned into an expected score, 1 / (1 + 10^(-K e /
//! 400)). K is fitted first, to the starting weights, so that the weights
//! keep centipawns as their unit; then every weight is fitted by full-batch
//! gradient descent with Adam. Every tenth position is held out: its loss,
//! reported with the fitted one, tells whether the fit generalises.
//!
//! A result says little about one position of a long game: a game won
//! at move 60 may have been lost at move 20. Where the data also carry a
//! stronger engine's score of each position, the target can be a blend
//! of the result and that score turned into an expected score (see
//! `DataSet::blend_scores`), as the strong engines' trainers do.

use protean_rules::{Bitboard, Color, Position};
use protean_search::evaluate::{terms, EvalTables, Terms, ONE};
use protean_search::weights::{scalar, Scalar, Score, MAX_WEIGHT};

/// The features of many positions, stored flat.
#[derive(Default)]
pub struct DataSet {
    /// Where each position's features start in `terms`/`coefs`; one more
    /// entry than positions.
    starts: Vec<u32>,
    terms: Vec<u16>,
    /// White's feature minus Black's, in ones (not 256ths).
    coefs: Vec<f32>,
    /// The game phase, 1 to 0.
    phases: Vec<f32>,
    /// White's sum minus Black's of the terms whose weights are not
    /// fitted (those of kinds a rule change redefined), middle game and
    /// end game.
    fixed: Vec<[f32; 2]>,
    /// The game's result for White.
    results: Vec<f32>,
    /// A reference engine's score of the position, White's centipawns;
    /// NaN where the data have none.
    scores: Vec<f32>,
    /// What the fit aims at: the result, or a blend of it and the score.
    targets: Vec<f32>,
}

/// A term recorder: White's features minus Black's, per term, and the
/// terms of redefined kinds (not fitted) summed with their weights.
struct Recorded<'a, B> {
    tables: &'a EvalTables<B>,
    features: Vec<i32>,
    fixed: [f64; 2],
}

impl<B: Bitboard> Terms for Recorded<'_, B> {
    fn add(&mut self, color: Color, index: usize, feature: i32) {
        let f = if color == Color::White { feature } else { -feature };
        if self.tables.layout.kind_of(index).is_some_and(|k| self.tables.redefined[k]) {
            let w = self.tables.weights()[index];
            self.fixed[0] += (w.mg * f) as f64 / ONE as f64;
            self.fixed[1] += (w.eg * f) as f64 / ONE as f64;
        } else {
            self.features[index] += f;
        }
    }
}

impl DataSet {
    pub fn len(&self) -> usize {
        self.results.len()
    }
    pub fn is_empty(&self) -> bool {
        self.results.is_empty()
    }

    /// Adds `pos`, whose game ended `result` (for White) and which a
    /// reference engine scored `score` (White's centipawns, if known),
    /// with the terms of `t` (which must be the tables of the position's
    /// rules). Under a rule change, the terms of the kinds it redefined
    /// are not fitted: they count with the weights `t` gives them.
    pub fn push<B: Bitboard>(&mut self, pos: &Position<B>, t: &EvalTables<B>, result: f32, score: Option<f32>) {
        let mut recorded = Recorded { tables: t, features: vec![0; t.weights().len()], fixed: [0.0; 2] };
        let phase = terms(pos, t, &mut recorded);
        // The tempo is the side to move's.
        recorded.features[scalar(Scalar::Tempo)] = if pos.side_to_move() == Color::White { ONE } else { -ONE };
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        for (index, &f) in recorded.features.iter().enumerate().filter(|(_, f)| **f != 0) {
            self.terms.push(index as u16);
            self.coefs.push(f as f32 / ONE as f32);
        }
        self.starts.push(self.terms.len() as u32);
        self.phases.push(phase as f32 / 256.0);
        self.fixed.push(recorded.fixed.map(|x| x as f32));
        self.results.push(result);
        self.scores.push(score.unwrap_or(f32::NAN));
        self.targets.push(result);
    }

    /// Makes each position's target `(1 - weight) * result + weight *
    /// expected(K' * score)` where the data have a score (the result
    /// alone where not), K' being the scale under which the scores
    /// predict the results best: the reference's centipawns need not be
    /// ours. Returns K' and how many positions had a score; `None` if
    /// none had.
    pub fn blend_scores(&mut self, weight: f64) -> Option<(f64, usize)> {
        let scored: Vec<usize> = (0..self.len()).filter(|&i| !self.scores[i].is_nan()).collect();
        if scored.is_empty() {
            return None;
        }
        let loss = |k: f64| {
            scored.iter().map(|&i| (self.results[i] as f64 - expected(k * self.scores[i] as f64)).powi(2)).sum::<f64>()
        };
        let scale = golden_section(loss);
        for &i in &scored {
            let by_score = expected(scale * self.scores[i] as f64);
            self.targets[i] = ((1.0 - weight) * self.results[i] as f64 + weight * by_score) as f32;
        }
        Some((scale, scored.len()))
    }

    /// White's evaluation of position `i` under `w` (middle-game and
    /// end-game weights side by side, by term).
    fn evaluate(&self, i: usize, w: &[[f64; 2]]) -> f64 {
        let (a, b) = (self.starts[i] as usize, self.starts[i + 1] as usize);
        let p = self.phases[i] as f64;
        let fixed = self.fixed[i][0] as f64 * p + self.fixed[i][1] as f64 * (1.0 - p);
        fixed
            + self.terms[a..b]
                .iter()
                .zip(&self.coefs[a..b])
                .map(|(&t, &c)| c as f64 * (w[t as usize][0] * p + w[t as usize][1] * (1.0 - p)))
                .sum::<f64>()
    }

    /// Mean squared error against the targets over the positions `keep`
    /// selects.
    fn loss(&self, w: &[[f64; 2]], k: f64, keep: impl Fn(usize) -> bool) -> f64 {
        let (mut sum, mut n) = (0.0, 0usize);
        for i in (0..self.len()).filter(|&i| keep(i)) {
            let e = expected(k * self.evaluate(i, w));
            sum += (self.targets[i] as f64 - e).powi(2);
            n += 1;
        }
        sum / n.max(1) as f64
    }
}

fn expected(centipawns: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-centipawns / 400.0))
}

/// Whether position `i` is held out of the fit.
fn held_out(i: usize) -> bool {
    i % 10 == 9
}

/// What a fit found.
#[derive(Clone, Debug)]
pub struct Fit {
    pub weights: Vec<Score>,
    pub k: f64,
    /// Loss of the starting weights and of the fitted ones, on the
    /// positions fitted to and on those held out.
    pub start_loss: (f64, f64),
    pub end_loss: (f64, f64),
}

impl Fit {
    /// The fit in a line: its K, and its losses before and after, on the
    /// positions fitted to and on those held out.
    pub fn summary(&self) -> String {
        format!(
            "K {:.3}; loss {:.6} -> {:.6} on them, {:.6} -> {:.6} on the tenth held out",
            self.k, self.start_loss.0, self.end_loss.0, self.start_loss.1, self.end_loss.1
        )
    }
}

/// What the fit does with one term's weight.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Freedom {
    #[default]
    Free,
    /// The weight keeps its starting value.
    Held,
    /// The fit pays this much times the weight's square (in centipawns)
    /// on top of the loss: a weight the data barely support stays near
    /// zero. Many weights each seen in few games (piece-square weights)
    /// otherwise learn the games instead of the game.
    Penalised(f64),
}

/// Fits every weight to the data by `epochs` steps of Adam, starting from
/// `start`, each as `freedom` (by term index; `Free` past its end) says;
/// `progress` hears each epoch's number and fitted loss.
pub fn fit(
    data: &DataSet,
    start: &[Score],
    freedom: &[Freedom],
    epochs: usize,
    progress: impl FnMut(usize, f64),
) -> Fit {
    let w: Vec<[f64; 2]> = start.iter().map(|s| [s.mg as f64, s.eg as f64]).collect();
    fit_with_k(data, start, freedom, fit_k(data, &w), epochs, progress)
}

/// `fit` under a K given.
fn fit_with_k(
    data: &DataSet,
    start: &[Score],
    freedom: &[Freedom],
    k: f64,
    epochs: usize,
    mut progress: impl FnMut(usize, f64),
) -> Fit {
    let mut w: Vec<[f64; 2]> = start.iter().map(|s| [s.mg as f64, s.eg as f64]).collect();
    let losses = |w: &[[f64; 2]]| (data.loss(w, k, |i| !held_out(i)), data.loss(w, k, held_out));
    let start_loss = losses(&w);
    let (mut m, mut v) = (vec![[0.0; 2]; w.len()], vec![[0.0; 2]; w.len()]);
    let (rate, beta1, beta2) = (1.0, 0.9, 0.999);
    let ln10 = std::f64::consts::LN_10;
    for epoch in 1..=epochs {
        let mut grad = vec![[0.0f64; 2]; w.len()];
        let mut n = 0usize;
        for i in (0..data.len()).filter(|&i| !held_out(i)) {
            let e = expected(k * data.evaluate(i, &w));
            // d/de of (r - s(e))^2, with s' = s (1 - s) ln10 K / 400.
            let g = -2.0 * (data.targets[i] as f64 - e) * e * (1.0 - e) * ln10 * k / 400.0;
            let p = data.phases[i] as f64;
            let (a, b) = (data.starts[i] as usize, data.starts[i + 1] as usize);
            for (&t, &c) in data.terms[a..b].iter().zip(&data.coefs[a..b]) {
                let gc = g * c as f64;
                grad[t as usize][0] += gc * p;
                grad[t as usize][1] += gc * (1.0 - p);
            }
            n += 1;
        }
        for (j, g) in grad.iter().enumerate() {
            let penalty = match freedom.get(j).copied().unwrap_or_default() {
                Freedom::Held => continue,
                Freedom::Free => 0.0,
                Freedom::Penalised(p) => p,
            };
            for phase in 0..2 {
                let g = g[phase] / n.max(1) as f64 + 2.0 * penalty * w[j][phase];
                m[j][phase] = beta1 * m[j][phase] + (1.0 - beta1) * g;
                v[j][phase] = beta2 * v[j][phase] + (1.0 - beta2) * g * g;
                let m_hat = m[j][phase] / (1.0 - beta1.powi(epoch as i32));
                let v_hat = v[j][phase] / (1.0 - beta2.powi(epoch as i32));
                w[j][phase] -= rate * m_hat / (v_hat.sqrt() + 1e-12);
            }
        }
        if epoch % 10 == 0 || epoch == epochs {
            progress(epoch, data.loss(&w, k, |i| !held_out(i)));
        }
    }
    let limit = MAX_WEIGHT as f64;
    let weights: Vec<Score> = w
        .iter()
        .map(|x| Score::new(x[0].round().clamp(-limit, limit) as i32, x[1].round().clamp(-limit, limit) as i32))
        .collect();
    let rounded: Vec<[f64; 2]> = weights.iter().map(|s| [s.mg as f64, s.eg as f64]).collect();
    Fit { end_loss: losses(&rounded), weights, k, start_loss }
}

/// The K under which `w` fits the targets best.
fn fit_k(data: &DataSet, w: &[[f64; 2]]) -> f64 {
    golden_section(|k| data.loss(w, k, |i| !held_out(i)))
}

/// The scale in [0.05, 5] that minimises `loss`, by golden-section search.
fn golden_section(loss: impl Fn(f64) -> f64) -> f64 {
    let (mut lo, mut hi) = (0.05f64, 5.0f64);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = hi - ratio * (hi - lo);
        let b = lo + ratio * (hi - lo);
        if loss(a) < loss(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// The terms whose feature was zero in every position: their gradient is
/// zero, so the fit leaves their weights as they started.
pub fn unused_terms(data: &DataSet, count: usize) -> Vec<usize> {
    let mut used = vec![false; count];
    for &t in &data.terms {
        used[t as usize] = true;
    }
    (0..count).filter(|&t| !used[t]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use protean_rules::AnyRules;
    use protean_search::weights::{per_kind, PerKind};

    /// The recorded features, weighted and tapered, are the evaluation.
    #[test]
    fn features_times_weights_are_the_evaluation() {
        for (variant, fen) in [
            ("standard", "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"),
            ("standard", "8/5pk1/6p1/1P6/8/6P1/r4PK1/2R5 b - - 0 40"),
            ("standard", "4k3/8/8/3PP3/8/8/8/4K3 w - - 0 1"),
            // Under rule changes, the redefined kinds' terms are the fixed part.
            ("flexichess", "rnbqkbnr/1ppppppp/p7/8/2P5/8/PP1PPPPP/RNBQKBNR w KQkq - 3 5 N=D,R=Q,Q=N"),
            ("perfect", &AnyRules::by_name("perfect").unwrap().start().fen()),
            ("perfect", "1rb1kqb1r/p1qpp1pp1/5pn2/Ppn5p/1N7/3PP2PP/3Q2N2/2P2PP2/R1BQK1BR1 w Qk - 1 11"),
        ] {
            let rules = AnyRules::by_name(variant).unwrap();
            let pos = rules.from_fen(fen).unwrap();
            protean_rules::with_position!(&pos, p => {
                let t = EvalTables::new(p.rules());
                let mut data = DataSet::default();
                data.push(p, &t, 0.5, None);
                let w: Vec<[f64; 2]> = t.weights().iter().map(|s| [s.mg as f64, s.eg as f64]).collect();
                let white = data.evaluate(0, &w);
                let direct = protean_search::evaluate::evaluate(p, &t) as f64;
                let for_white = if p.side_to_move() == Color::White { direct } else { -direct };
                // The search's sum rounds each term down; the fit does not.
                assert!((white - for_white).abs() < 8.0, "{fen}: {white} against {for_white}");
            });
        }
    }

    /// Where an extra knight scores 91% (worth 400 centipawns at K = 1),
    /// the fit moves a knight valued at 50 to about that, and lowers the
    /// loss.
    #[test]
    fn the_fit_learns_what_the_results_say() {
        let rules = AnyRules::by_name("standard").unwrap();
        let mut data = DataSet::default();
        let mut start = Vec::new();
        for i in 0..400 {
            let (fen, result) = match i % 20 {
                0..=13 => ("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", 1.0),
                14..=16 => ("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", 0.5),
                _ => ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", 0.5),
            };
            let pos = rules.from_fen(fen).unwrap();
            protean_rules::with_position!(&pos, p => {
                let t = EvalTables::new(p.rules());
                data.push(p, &t, result, None);
                start = t.weights().to_vec();
            });
        }
        start[per_kind(PerKind::Value, 1)] = Score::new(50, 50);
        let fit = fit_with_k(&data, &start, &[], 1.0, 800, |_, _| {});
        assert!(fit.end_loss.0 < fit.start_loss.0, "{fit:?}");
        // Held, the knight's value stays where it started, and the fit
        // moves only the other weights.
        let mut held = vec![Freedom::Free; start.len()];
        held[per_kind(PerKind::Value, 1)] = Freedom::Held;
        let held_fit = fit_with_k(&data, &start, &held, 1.0, 800, |_, _| {});
        assert_eq!(held_fit.weights[per_kind(PerKind::Value, 1)], Score::new(50, 50));
        assert!(held_fit.weights != start && held_fit.end_loss.0 < held_fit.start_loss.0, "{held_fit:?}");
        // Penalised, it ends nearer zero than free.
        let mut penalised = vec![Freedom::Free; start.len()];
        penalised[per_kind(PerKind::Value, 1)] = Freedom::Penalised(1e-6);
        let penalised_fit = fit_with_k(&data, &start, &penalised, 1.0, 800, |_, _| {});
        let knight = |fit: &Fit| fit.weights[per_kind(PerKind::Value, 1)].mg;
        assert!(
            knight(&penalised_fit) < knight(&fit) - 20 && knight(&penalised_fit) >= 0,
            "{} against {}",
            knight(&penalised_fit),
            knight(&fit)
        );
        let w: Vec<[f64; 2]> = fit.weights.iter().map(|s| [s.mg as f64, s.eg as f64]).collect();
        let knight_up = data.evaluate(0, &w) - data.evaluate(19, &w);
        // The knight's positions score 15.5 of 17: the value that predicts
        // that is the one to learn.
        let target = -400.0 * (17.0 / 15.5 - 1.0f64).log10();
        assert!((knight_up - target).abs() < 25.0, "an extra knight is worth {knight_up}, not {target}");
    }

    /// Where the scores predict the results at a scale of 0.6, the blend
    /// finds that scale and aims halfway between result and score;
    /// a position with no score keeps its result.
    #[test]
    fn blended_targets_find_the_scores_scale() {
        let rules = AnyRules::by_name("standard").unwrap();
        let pos = rules.from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        let mut data = DataSet::default();
        protean_rules::with_position!(&pos, p => {
            let t = EvalTables::new(p.rules());
            for score in (-400..=400).step_by(50) {
                let wins = (40.0 * expected(0.6 * score as f64)).round() as usize;
                for n in 0..40 {
                    data.push(p, &t, if n < wins { 1.0 } else { 0.0 }, Some(score as f32));
                }
            }
            data.push(p, &t, 1.0, None);
        });
        let (scale, scored) = data.blend_scores(0.5).unwrap();
        assert_eq!(scored, data.len() - 1);
        assert!((scale - 0.6).abs() < 0.05, "scale {scale}");
        // The 40th position: score -400, a loss (the first two won).
        let halfway = 0.5 * expected(scale * -400.0);
        assert!((data.targets[39] as f64 - halfway).abs() < 1e-6, "{} against {halfway}", data.targets[39]);
        assert_eq!(data.targets[data.len() - 1], 1.0);
        assert!(DataSet::default().blend_scores(0.5).is_none());
    }
}
