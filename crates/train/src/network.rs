//! Training the search's evaluation network (`protean_search::nnue`) from
//! positions and what each is worth: the network in floating point, fitted by Adam on the squared
//! error between `sigmoid(output)` and a target between 0 (the side to
//! move loses) and 1 (it wins), then rounded to the integers the search
//! evaluates with ([`FloatNetwork::quantized`]). The target is the
//! caller's: `protean train-network` blends the game's result with the
//! search's score, `sigmoid(cp / SCALE)`, so that the output stays in the
//! search's centipawns.
//!
//! Factorised inputs: in training, each piece on a cell is an input of its
//! kind and cell and also of its kind alone, of its kind on its file and
//! of its kind on its rank ([`Factors`]), so that what holds of a kind
//! anywhere is learnt from every position with it, not only from the few
//! with it on that cell. Each extra input is on exactly when one of the
//! cells it covers is, so the network written adds its weights to those
//! cells' columns ([`FloatNetwork::quantized`]) and keeps the search's
//! shape. On a `protean learn` run's few hundred thousand positions this
//! takes the held-out loss well below what the cells alone reach.
//!
//! The batch's gradient is summed by as many threads as asked, each over
//! its share of the batch; the hidden layer's inputs are few per position
//! (its pieces), so only their columns are touched per position.

use protean_rules::{Bitboard, Color, Geometry, Position};
use protean_search::nnue::{input, Activation, Network, NetworkError, HIDDEN, QA, QB, SCALE};
use protean_search::skill::Random;

/// The hidden layer's weights and biases stay within this, so that its
/// sums fit the `i16`s they are kept in (see `nnue`).
const HIDDEN_LIMIT: f32 = 1.98;
/// The output's weights stay within this (kept times `QB` in an `i16`,
/// and within twice that, as `Network::new` asks).
const OUTPUT_LIMIT: f32 = 1.98;

/// The extra inputs a piece on a cell adds in training (see the module
/// comment), numbered after the network's `2 * kinds * cells`: per kind
/// of each side, one for the kind, one per file and one per rank.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Factors {
    kinds: usize,
    geometry: Geometry,
}

impl Factors {
    fn cells(self) -> usize {
        self.geometry.cells()
    }

    /// The network's inputs, before the extra ones.
    fn first(self) -> usize {
        2 * self.kinds * self.cells()
    }

    /// Every input, the extra ones included.
    fn inputs(self) -> usize {
        self.first() + 2 * self.kinds * (1 + self.geometry.width() + self.geometry.height())
    }

    /// The extra inputs of the network's input `f` (a kind of one side on
    /// a cell, as `nnue::input` numbers it).
    fn of(self, f: usize) -> [usize; 3] {
        let (side_kind, cell) = (f / self.cells(), f % self.cells());
        let (width, height) = (self.geometry.width(), self.geometry.height());
        let kind_alone = self.first() + side_kind;
        let on_file = self.first() + 2 * self.kinds + side_kind * width + self.geometry.file(cell);
        let on_rank = self.first() + 2 * self.kinds * (1 + width) + side_kind * height + self.geometry.rank(cell);
        [kind_alone, on_file, on_rank]
    }

    /// `inputs` (the network's) with the extra inputs of each after it.
    fn with_extra(self, inputs: &[u16]) -> impl Iterator<Item = usize> + '_ {
        inputs.iter().flat_map(move |&f| std::iter::once(f as usize).chain(self.of(f as usize)))
    }
}

/// Positions as the network's inputs, with their targets.
pub struct TrainingSet {
    factors: Factors,
    /// Each position's inputs: the side to move's, then the other side's
    /// (the network's; the extra ones follow from them).
    inputs: Vec<u16>,
    /// Where each position's inputs start in `inputs` (one more at the
    /// end), and how many are the side to move's.
    starts: Vec<u32>,
    targets: Vec<f32>,
    /// What the network's output is added to, per position, in units of
    /// the output (centipawns over `SCALE`): 0 for a network alone, the
    /// hand-made evaluation for one trained on top of it.
    offsets: Vec<f32>,
}

impl TrainingSet {
    /// A set for `kinds` on the board of `geometry`.
    pub fn new(kinds: usize, geometry: Geometry) -> TrainingSet {
        TrainingSet {
            factors: Factors { kinds, geometry },
            inputs: Vec::new(),
            starts: vec![0],
            targets: Vec::new(),
            offsets: Vec::new(),
        }
    }

    pub fn len(&self) -> usize {
        self.targets.len()
    }

    pub fn is_empty(&self) -> bool {
        self.targets.is_empty()
    }

    /// Adds `pos` (of `kinds` on `cells`) and its target for the side to
    /// move, the network's output to be added to `offset_cp` (centipawns
    /// for the side to move; see `offsets`); `mirrored`, with its files the other way round (a queen's
    /// side castling is a king's side one, and otherwise the rules do not
    /// tell left from right: the same position to the network, for twice
    /// the data).
    pub fn push<B: Bitboard>(&mut self, pos: &Position<B>, target: f32, offset_cp: f32, mirrored: bool) {
        let g = pos.rules().geometry;
        let us = pos.side_to_move();
        let seen = |cell: usize| {
            if mirrored {
                g.cell(g.width() - 1 - g.file(cell), g.rank(cell))
            } else {
                cell
            }
        };
        for perspective in [us, !us] {
            for color in Color::ALL {
                for kind in 0..self.factors.kinds {
                    for cell in pos.pieces_of(color, kind).cells() {
                        self.inputs.push(input(
                            self.factors.kinds,
                            self.factors.cells(),
                            |c| g.mirror_rank(c),
                            perspective,
                            color,
                            kind,
                            seen(cell),
                        ) as u16);
                    }
                }
            }
        }
        self.starts.push(self.inputs.len() as u32);
        self.targets.push(target);
        self.offsets.push(offset_cp / SCALE as f32);
    }

    /// Position `i`'s inputs as the side to move and the other side see
    /// them (each side sees the same pieces, so half each).
    fn inputs_of(&self, i: usize) -> (&[u16], &[u16]) {
        let all = &self.inputs[self.starts[i] as usize..self.starts[i + 1] as usize];
        all.split_at(all.len() / 2)
    }
}

/// The network in floating point, as trained.
#[derive(Clone)]
pub struct FloatNetwork {
    factors: Factors,
    /// Trained on top of the hand-made evaluation (the set's offsets).
    on_top: bool,
    activation: Activation,
    /// By input, the extra ones of `factors` included, its `HIDDEN`
    /// weights, one after another.
    hidden_weights: Vec<f32>,
    hidden_biases: Vec<f32>,
    /// The side to move's units, then the other side's.
    output_weights: Vec<f32>,
    output_bias: f32,
}

/// What one position's forward pass leaves for the backward one.
struct Pass {
    sums: [[f32; HIDDEN]; 2],
    output: f32,
    prediction: f32,
}

/// A unit's output from its sum under `activation`, and how fast it
/// grows there.
#[inline(always)]
fn unit(activation: Activation, sum: f32) -> (f32, f32) {
    let clipped = sum.clamp(0.0, 1.0);
    let inside = sum > 0.0 && sum < 1.0;
    match activation {
        Activation::Clipped => (clipped, if inside { 1.0 } else { 0.0 }),
        Activation::Squared => (clipped * clipped, if inside { 2.0 * clipped } else { 0.0 }),
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// What a score of `cp` centipawns for the side to move predicts of its
/// result, as the network's output is read in training: a target made
/// from a score, or a prediction to weigh against a target.
pub fn expected_result(cp: f32) -> f32 {
    sigmoid(cp / SCALE as f32)
}

impl FloatNetwork {
    /// Small random weights (the extra inputs of `factors` at 0): a hidden
    /// sum of about 30 inputs starts near 0.5, inside the units' clipping.
    fn random(factors: Factors, on_top: bool, activation: Activation, seed: u64) -> FloatNetwork {
        let mut random = Random::seeded(seed);
        let mut uniform = |range: f32| ((random.below(1 << 24) as f32 / (1 << 24) as f32) * 2.0 - 1.0) * range;
        let mut hidden_weights: Vec<f32> = (0..factors.first() * HIDDEN).map(|_| uniform(0.15)).collect();
        hidden_weights.resize(factors.inputs() * HIDDEN, 0.0);
        let hidden_biases = (0..HIDDEN).map(|_| uniform(0.15)).collect();
        let output_weights = (0..2 * HIDDEN).map(|_| uniform(1.0 / (2.0 * HIDDEN as f32).sqrt())).collect();
        FloatNetwork { factors, on_top, activation, hidden_weights, hidden_biases, output_weights, output_bias: 0.0 }
    }

    /// The float network a file's integers stand for, on the board of
    /// `geometry`, its extra inputs at 0: training goes on from it
    /// (`train-network --init`).
    pub fn from_network(net: &Network, geometry: Geometry) -> FloatNetwork {
        fn floats(units: &[i16; HIDDEN], scale: i32) -> impl Iterator<Item = f32> + '_ {
            units.iter().map(move |&u| u as f32 / scale as f32)
        }
        let factors = Factors { kinds: net.shape().0, geometry };
        let output_scale = net.output_scale();
        let mut hidden_weights: Vec<f32> = net.hidden_weights().iter().flat_map(|column| floats(column, QA)).collect();
        hidden_weights.resize(factors.inputs() * HIDDEN, 0.0);
        FloatNetwork {
            factors,
            on_top: net.on_top,
            activation: net.activation,
            hidden_weights,
            hidden_biases: floats(net.hidden_biases(), QA).collect(),
            output_weights: net.output_weights().iter().flat_map(|units| floats(units, output_scale)).collect(),
            output_bias: net.output_bias() as f32 / (QA * output_scale) as f32,
        }
    }

    fn forward(&self, set: &TrainingSet, i: usize) -> Pass {
        let mut sums = [[0f32; HIDDEN]; 2];
        let (ours, theirs) = set.inputs_of(i);
        for (sum, inputs) in sums.iter_mut().zip([ours, theirs]) {
            sum.copy_from_slice(&self.hidden_biases);
            for f in self.factors.with_extra(inputs) {
                let column = &self.hidden_weights[f * HIDDEN..(f + 1) * HIDDEN];
                for (s, w) in sum.iter_mut().zip(column) {
                    *s += w;
                }
            }
        }
        let mut output = self.output_bias + set.offsets[i];
        for (sum, weights) in sums.iter().zip(self.output_weights.chunks_exact(HIDDEN)) {
            output += sum.iter().zip(weights).map(|(&s, w)| unit(self.activation, s).0 * w).sum::<f32>();
        }
        Pass { sums, output, prediction: sigmoid(output) }
    }

    /// The output for position `i` of `set`, in centipawns (its offset
    /// included).
    pub fn centipawns(&self, set: &TrainingSet, i: usize) -> f32 {
        self.forward(set, i).output * SCALE as f32
    }

    /// Adds the gradient of position `i`'s squared error to `grad` (laid
    /// out as the network is); returns the error.
    fn backward(&self, set: &TrainingSet, i: usize, grad: &mut FloatNetwork) -> f32 {
        let pass = self.forward(set, i);
        let error = pass.prediction - set.targets[i];
        let g = 2.0 * error * pass.prediction * (1.0 - pass.prediction);
        grad.output_bias += g;
        let (ours, theirs) = set.inputs_of(i);
        for (side, inputs) in [ours, theirs].into_iter().enumerate() {
            let mut unit_grads = [0f32; HIDDEN];
            let out_w = &self.output_weights[side * HIDDEN..(side + 1) * HIDDEN];
            let out_g = &mut grad.output_weights[side * HIDDEN..(side + 1) * HIDDEN];
            for j in 0..HIDDEN {
                let (unit, slope) = unit(self.activation, pass.sums[side][j]);
                out_g[j] += g * unit;
                unit_grads[j] = g * out_w[j] * slope;
            }
            for (b, u) in grad.hidden_biases.iter_mut().zip(&unit_grads) {
                *b += u;
            }
            for f in self.factors.with_extra(inputs) {
                let column = &mut grad.hidden_weights[f * HIDDEN..(f + 1) * HIDDEN];
                for (w, u) in column.iter_mut().zip(&unit_grads) {
                    *w += u;
                }
            }
        }
        error * error
    }

    fn zeroed(&self) -> FloatNetwork {
        FloatNetwork {
            factors: self.factors,
            on_top: self.on_top,
            activation: self.activation,
            hidden_weights: vec![0.0; self.hidden_weights.len()],
            hidden_biases: vec![0.0; HIDDEN],
            output_weights: vec![0.0; 2 * HIDDEN],
            output_bias: 0.0,
        }
    }

    /// Every parameter with its limit, in one order.
    fn parameters_mut(&mut self) -> impl Iterator<Item = (&mut f32, f32)> {
        let hidden = self.hidden_weights.iter_mut().chain(&mut self.hidden_biases).map(|p| (p, HIDDEN_LIMIT));
        hidden
            .chain(self.output_weights.iter_mut().map(|p| (p, OUTPUT_LIMIT)))
            .chain([(&mut self.output_bias, f32::MAX)])
    }

    fn parameters(&self) -> impl Iterator<Item = &f32> {
        self.hidden_weights.iter().chain(&self.hidden_biases).chain(&self.output_weights).chain([&self.output_bias])
    }

    /// The mean squared error over `set`.
    pub fn loss(&self, set: &TrainingSet) -> f64 {
        let sum: f64 = (0..set.len()).map(|i| (self.forward(set, i).prediction - set.targets[i]).powi(2) as f64).sum();
        sum / set.len().max(1) as f64
    }

    /// The network in the integers the search evaluates with, each
    /// input's column with its extra inputs' folded in.
    pub fn quantized(&self) -> Result<Network, NetworkError> {
        let round = |x: f32, scale: i32| (x * scale as f32).round() as i16;
        let units = |values: &[f32], scale| -> [i16; HIDDEN] { std::array::from_fn(|j| round(values[j], scale)) };
        let column = |f: usize| &self.hidden_weights[f * HIDDEN..(f + 1) * HIDDEN];
        let hidden_weights = (0..self.factors.first())
            .map(|f| {
                let mut folded: [f32; HIDDEN] = column(f).try_into().expect("a column");
                for extra in self.factors.of(f) {
                    for (w, e) in folded.iter_mut().zip(column(extra)) {
                        *w += e;
                    }
                }
                units(&folded.map(|w| w.clamp(-HIDDEN_LIMIT, HIDDEN_LIMIT)), QA)
            })
            .collect();
        let output_weights = [units(&self.output_weights[..HIDDEN], QB), units(&self.output_weights[HIDDEN..], QB)];
        let output_bias = (self.output_bias * (QA * QB) as f32).round() as i32;
        Network::new(
            self.factors.kinds,
            self.factors.cells(),
            self.on_top,
            self.activation,
            hidden_weights,
            units(&self.hidden_biases, QA),
            output_weights,
            output_bias,
            QB,
        )
    }
}

/// How a network is trained.
#[derive(Clone, Debug)]
pub struct TrainOptions {
    pub epochs: usize,
    pub batch: usize,
    /// Adam's step size at the start; it falls along a cosine to a
    /// twentieth of it by the last batch.
    pub learning_rate: f32,
    pub threads: usize,
    pub seed: u64,
    /// The set's offsets are the hand-made evaluation (see `nnue`).
    pub on_top: bool,
    /// Of a network trained from random weights (one trained before keeps
    /// its own).
    pub activation: Activation,
}

/// Where training starts.
pub enum Start {
    /// Small random weights (`options.seed`).
    Random,
    /// A network trained before, on the same board and the same way (alone
    /// or on top).
    From(FloatNetwork),
}

/// What an epoch ended with, for progress.
pub struct EpochReport {
    /// 0 for a network trained before, as training starts from it.
    pub epoch: usize,
    /// Over the epoch's batches; none before the first.
    pub training_loss: Option<f64>,
    pub validation_loss: f64,
}

/// Fits a network to `set` by Adam, from `start` (random weights, or a
/// network trained before), reporting each epoch's losses (on `set` as it
/// was trained, and on `validation`, which it never sees); returns the
/// network as it was after the epoch with the lowest loss on
/// `validation`, `start` counted as epoch 0 where it was trained before.
pub fn train(
    start: Start,
    set: &TrainingSet,
    validation: &TrainingSet,
    options: &TrainOptions,
    mut report: impl FnMut(EpochReport),
) -> FloatNetwork {
    let (mut net, mut best) = match start {
        Start::Random => (FloatNetwork::random(set.factors, options.on_top, options.activation, options.seed), None),
        Start::From(net) => {
            assert_eq!(net.factors, set.factors, "a network of the set's board");
            let validation_loss = net.loss(validation);
            report(EpochReport { epoch: 0, training_loss: None, validation_loss });
            (net.clone(), Some((validation_loss, net)))
        }
    };
    let count = net.parameters().count();
    let (mut first_moment, mut second_moment) = (vec![0f32; count], vec![0f32; count]);
    let (beta1, beta2) = (0.9f32, 0.999f32);
    let mut order: Vec<u32> = (0..set.len() as u32).collect();
    let mut random = Random::seeded(options.seed ^ 0x5EED);
    let batch = options.batch.max(1);
    let batches_per_epoch = set.len().div_ceil(batch);
    let total_steps = (options.epochs * batches_per_epoch).max(1);
    let threads = options.threads.max(1);
    let mut grads: Vec<FloatNetwork> = (0..threads).map(|_| net.zeroed()).collect();
    let mut step = 0usize;
    // `best`: the network of the epoch whose held-out loss was lowest:
    // past it, the network learns the games rather than the game.
    for epoch in 1..=options.epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, random.below(i as u64 + 1) as usize);
        }
        let mut epoch_error = 0f64;
        for positions in order.chunks(batch) {
            let share = positions.len().div_ceil(threads);
            let net_ref = &net;
            let errors: f64 = std::thread::scope(|scope| {
                let workers: Vec<_> = grads
                    .iter_mut()
                    .zip(positions.chunks(share))
                    .map(|(grad, part)| {
                        scope.spawn(move || {
                            for (p, _) in grad.parameters_mut() {
                                *p = 0.0;
                            }
                            part.iter().map(|&i| net_ref.backward(set, i as usize, grad) as f64).sum::<f64>()
                        })
                    })
                    .collect();
                workers.into_iter().map(|w| w.join().expect("a training thread panicked")).sum()
            });
            epoch_error += errors;
            let used = positions.len().div_ceil(share);
            step += 1;
            let progress = step as f32 / total_steps as f32;
            let rate = options.learning_rate * (0.05 + 0.95 * 0.5 * (1.0 + (std::f32::consts::PI * progress).cos()));
            let (correction1, correction2) = (1.0 - beta1.powi(step as i32), 1.0 - beta2.powi(step as i32));
            let scale = 1.0 / positions.len() as f32;
            let mut sums = grads[..used].iter().map(|g| g.parameters());
            let mut first = sums.next().expect("a batch has a position");
            let mut rest: Vec<_> = sums.collect();
            for (((p, limit), m), v) in net.parameters_mut().zip(&mut first_moment).zip(&mut second_moment) {
                let mut g = *first.next().expect("same layout");
                for other in &mut rest {
                    g += other.next().expect("same layout");
                }
                g *= scale;
                *m = beta1 * *m + (1.0 - beta1) * g;
                *v = beta2 * *v + (1.0 - beta2) * g * g;
                *p -= rate * (*m / correction1) / ((*v / correction2).sqrt() + 1e-8);
                *p = p.clamp(-limit, limit);
            }
        }
        let validation_loss = net.loss(validation);
        if best.as_ref().is_none_or(|(loss, _)| validation_loss < *loss) {
            best = Some((validation_loss, net.clone()));
        }
        report(EpochReport { epoch, training_loss: Some(epoch_error / set.len().max(1) as f64), validation_loss });
    }
    best.map_or(net, |(_, net)| net)
}

#[cfg(test)]
mod tests {
    use super::*;
    use protean_rules::AnyRules;

    /// Positions of random play from the start, each with a target from
    /// its material for the side to move (pawn 1, knight and bishop 3,
    /// rook 5, queen 9: a sigmoid of 100 cp a pawn), the thing a network
    /// must learn first.
    /// (With `given` of the material as each position's offset, what a
    /// network on top starts from.)
    fn material_set(count: usize, seed: u64, given: f32) -> (TrainingSet, Vec<i32>) {
        let rules = AnyRules::by_name("standard").unwrap();
        let mut random = Random::seeded(seed);
        let mut set = TrainingSet::new(6, Geometry::new(8, 8).unwrap());
        let mut material = Vec::new();
        while set.len() < count {
            let mut pos = rules.start();
            for _ in 0..random.below(60) + 4 {
                let moves = pos.legal_move_list();
                if moves.is_empty() {
                    break;
                }
                // Captures first, so that material comes off the board.
                let captures: Vec<_> = moves.iter().copied().filter(|m| m.is_capture()).collect();
                let pick = if !captures.is_empty() && random.below(3) > 0 {
                    captures[random.below(captures.len() as u64) as usize]
                } else {
                    moves[random.below(moves.len() as u64) as usize]
                };
                pos.make(pick);
            }
            protean_rules::with_position!(&pos, p => {
                let us = p.side_to_move();
                let value = |c: Color| [1, 3, 3, 5, 9, 0].iter().enumerate().map(|(k, v)| v * p.pieces_of(c, k).count() as i32).sum::<i32>();
                let cp = 100 * (value(us) - value(!us));
                set.push(p, sigmoid(cp as f32 / SCALE as f32), given * cp as f32, false);
                material.push(cp);
            });
        }
        (set, material)
    }

    /// On positions it never saw: within a pawn and a half of the
    /// material (two pawns for squared units, which make a sum out of
    /// differences of squares and fit one more slowly on so few
    /// positions), at least four times in five.
    fn assert_near_material(net: &FloatNetwork, validation: &TrainingSet, material: &[i32]) {
        let margin = match net.activation {
            Activation::Clipped => 150.0,
            Activation::Squared => 200.0,
        };
        let near = (0..validation.len())
            .filter(|&i| (net.centipawns(validation, i) - material[i] as f32).abs() < margin)
            .count();
        assert!(near * 10 >= validation.len() * 8, "{near} of {}", validation.len());
    }

    /// A second count of the extra inputs: two inputs share the extra one
    /// of the kind exactly where their side and kind agree, that of the
    /// file where the file does too, that of the rank likewise; and each
    /// lies past the network's inputs and within the set's.
    #[test]
    fn the_extra_inputs_are_shared_by_kind_file_and_rank() {
        let factors = Factors { kinds: 3, geometry: Geometry::new(5, 4).unwrap() };
        let decode = |f: usize| (f / 20, f % 20 % 5, f % 20 / 5);
        for a in 0..factors.first() {
            let extra = factors.of(a);
            assert!(extra.iter().all(|&x| (factors.first()..factors.inputs()).contains(&x)), "{a}: {extra:?}");
            for b in 0..factors.first() {
                let ((ka, fa, ra), (kb, fb, rb)) = (decode(a), decode(b));
                let shared = factors.of(b);
                assert_eq!(extra[0] == shared[0], ka == kb, "{a} {b}");
                assert_eq!(extra[1] == shared[1], ka == kb && fa == fb, "{a} {b}");
                assert_eq!(extra[2] == shared[2], ka == kb && ra == rb, "{a} {b}");
            }
        }
        let all: std::collections::HashSet<usize> = (0..factors.first()).flat_map(|f| factors.of(f)).collect();
        assert_eq!(all.len(), factors.inputs() - factors.first(), "every extra input is some input's");
    }

    #[test]
    fn a_network_learns_material_and_keeps_it_when_rounded() {
        learns_material_and_keeps_it_when_rounded(Activation::Clipped);
    }

    #[test]
    fn a_network_of_squared_units_learns_material_and_keeps_it_when_rounded() {
        learns_material_and_keeps_it_when_rounded(Activation::Squared);
    }

    fn learns_material_and_keeps_it_when_rounded(activation: Activation) {
        let rules = AnyRules::by_name("standard").unwrap();
        protean_rules::with_position!(&rules.start(), p => assert_eq!((p.rules().piece_types, p.rules().geometry.cells()), (6, 64), "the set assumes PNBRQK"));
        let (set, _) = material_set(3000, 1, 0.0);
        let (validation, material) = material_set(300, 2, 0.0);
        let untrained =
            FloatNetwork::random(Factors { kinds: 6, geometry: Geometry::new(8, 8).unwrap() }, false, activation, 5)
                .loss(&validation);
        let mut losses = Vec::new();
        let options = TrainOptions {
            epochs: 40,
            batch: 256,
            learning_rate: 0.01,
            threads: 2,
            seed: 5,
            on_top: false,
            activation,
        };
        let net = train(Start::Random, &set, &validation, &options, |r| losses.push(r.validation_loss));
        assert_eq!(losses.len(), options.epochs);
        let trained = *losses.last().unwrap();
        assert!(trained < untrained / 5.0, "validation loss {untrained} -> {trained}");
        assert_near_material(&net, &validation, &material);
        // Rounded to integers, the same evaluations within a few centipawns
        // (more for squared units: a unit's rounding grows with its
        // square's slope, up to twice, and the output's weights, in `QB`ths,
        // weigh the larger squares a network of them learns).
        let exact = net.quantized().unwrap();
        let slack = match activation {
            Activation::Clipped => 5.0,
            Activation::Squared => 20.0,
        };
        assert_eq!(exact.activation, activation);
        let rules = AnyRules::by_name("standard").unwrap();
        for fen in [
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            "r3k2r/pp1n1ppp/2p1b3/q7/3P4/2N2N2/PP3PPP/R2QK2R w KQkq - 2 12",
            "4k3/8/8/8/8/8/8/RQ2K3 b - - 0 40",
        ] {
            protean_rules::with_position!(&rules.from_fen(fen).unwrap(), p => {
                let mut one = TrainingSet::new(6, Geometry::new(8, 8).unwrap());
                one.push(p, 0.5, 0.0, false);
                let (float, int) = (net.centipawns(&one, 0), exact.evaluate(p) as f32);
                assert!((float - int).abs() < slack + float.abs() * 0.02, "{fen}: {float} against {int}");
            });
        }
        // Read back from its integers, training goes on from it: its loss
        // before any step is the rounded network's, a few more epochs at a
        // small step keep it, and none that is worse comes back.
        let again = FloatNetwork::from_network(&exact, Geometry::new(8, 8).unwrap());
        let rounded = again.loss(&validation);
        assert!((rounded - trained).abs() < trained * 0.2 + 1e-4, "{trained} rounded to {rounded}");
        let mut more = Vec::new();
        let options = TrainOptions { epochs: 3, learning_rate: 0.0005, ..options };
        let continued = train(Start::From(again), &set, &validation, &options, |r| more.push(r.validation_loss));
        assert!(continued.loss(&validation) <= rounded, "{more:?} from {rounded}");
        assert_eq!(more.len(), 4, "the start, as epoch 0, then three epochs: {more:?}");
        assert!(more[0] < untrained / 5.0, "it started from the trained network: {more:?}");
        assert_near_material(&continued, &validation, &material);
    }

    #[test]
    fn a_network_on_top_learns_what_its_offsets_leave_out() {
        // Half the material given: the network must learn the other half.
        let (set, _) = material_set(3000, 3, 0.5);
        let (validation, material) = material_set(300, 4, 0.5);
        let options = TrainOptions {
            epochs: 40,
            batch: 256,
            learning_rate: 0.01,
            threads: 1,
            seed: 6,
            on_top: true,
            activation: Activation::Clipped,
        };
        let net = train(Start::Random, &set, &validation, &options, |_| ());
        assert_near_material(&net, &validation, &material);
        let exact = net.quantized().unwrap();
        assert!(exact.on_top);
        // White a rook up: the network alone says about half a rook.
        let rules = AnyRules::by_name("standard").unwrap();
        let own = protean_rules::with_position!(&rules.from_fen("1nbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1").unwrap(), p => exact.evaluate(p));
        assert!((250..=750).contains(&own), "{own}");
    }
}
