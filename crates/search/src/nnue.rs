//! A small neural network evaluation (NNUE's shape): each side's
//! perspective of the board, one input per piece of a kind and colour on a
//! cell, goes through one hidden layer of [`HIDDEN`] units, each clipped
//! to 0..=1 and, in a network whose [`Activation`] says so, squared
//! (SCReLU, which small engines' networks have come to use: a unit's
//! output grows faster the surer it is); the side to move's units and then
//! the other side's make one output, the evaluation. The shape is the one
//! small engines start with (768 inputs into 2 x 128 on 8x8), and nothing
//! in it names a variant: the inputs are the variant's kinds times its
//! cells, so a network fits exactly one
//! board and set of pieces, and is used only there (not under a
//! Flexichess rule change, whose redefined pieces it never saw).
//!
//! A perspective sees the board from its own side: its own pieces first,
//! and Black's board mirrored top to bottom, so one set of weights serves
//! both sides. The network is trained in floating point (`protean-train`)
//! and kept in integers: the hidden layer's weights times [`QA`], the
//! output's times the file's output scale ([`QB`] in the files written
//! now, 64 in the earlier forms); a unit is clipped to 0..=QA, and the
//! output, `QA` times the output scale per unit of the float network (a
//! squared unit's `QA * QA` divided by `QA` first), is [`SCALE`]
//! centipawns a unit.
//!
//! The search keeps the hidden layer's sums of the last position it
//! evaluated ([`Accumulator`]) and reaches the next by the pieces that
//! differ; make and unmake keep nothing.
//!
//! A network may be trained on top of the hand-made evaluation (`evaluate`):
//! its output is then what is to be added to that evaluation, the part
//! the hand-made terms miss, which fewer positions teach than the whole.
//!
//! The file, all numbers little-endian: the magic `PRTNNUE3`, then kinds,
//! cells, the hidden size, whether the network is on top of the
//! hand-made evaluation (1) or alone (0), its activation (0 clipped, 1
//! clipped and squared) and its output scale as `u32`s, then the hidden
//! layer's weights (`i16`, input by input, each input's `HIDDEN` units
//! together), its biases (`i16`), the output's weights (`i16`, the side
//! to move's units first) and the output's bias (`i32`). The earlier
//! forms have no output scale word (64): `PRTNNUE2`, and `PRTNNUE1`,
//! which has no activation word either, its units clipped.

use protean_rules::{Bitboard, Color, Position, Rules};

/// Units of the hidden layer, per perspective.
pub const HIDDEN: usize = 128;
/// The hidden layer's weights and biases are kept times this, and a unit
/// is clipped to `0..=QA`.
pub const QA: i32 = 255;
/// The output layer's weights are kept times this in the files written
/// now (each file says its own scale), and no file's scale is above it.
pub const QB: i32 = 128;
/// The output scale of the files written before it was a word of the
/// file. A squared unit's rounding at this scale cost a network 0.56% of
/// its held-out loss, at [`QB`] 0.04%.
const QB_EARLIER_FORMS: i32 = 64;
/// Centipawns per unit of the float network's output.
pub const SCALE: i32 = 400;
// A side's squared units, each at most `QA * QA` times an output weight
// (an `i16` of at most twice the output scale, which is at most `QB`: both
// checked by `Network::new`), are summed in an `i32`.
const _: () = assert!((HIDDEN as i64) * (QA as i64 * QA as i64) * (2 * QB as i64) < i32::MAX as i64);
const MAGIC: &[u8; 8] = b"PRTNNUE3";
/// The second form: no output scale word.
const MAGIC_SECOND: &[u8; 8] = b"PRTNNUE2";
/// The first form of the file: no activation word, units clipped.
const MAGIC_CLIPPED: &[u8; 8] = b"PRTNNUE1";

/// What a hidden unit makes of its sum; its number is the file's word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activation {
    /// Clipped to 0..=1 (CReLU).
    Clipped = 0,
    /// Clipped to 0..=1 and squared (SCReLU).
    Squared = 1,
}

impl Activation {
    /// Every activation, by its number.
    const ALL: [Activation; 2] = [Activation::Clipped, Activation::Squared];

    /// Its name on the command line and in messages.
    pub fn name(self) -> &'static str {
        match self {
            Activation::Clipped => "crelu",
            Activation::Squared => "screlu",
        }
    }

    pub fn by_name(name: &str) -> Option<Activation> {
        Activation::ALL.into_iter().find(|a| a.name() == name)
    }
}

/// What is wrong with a network file, or why it does not fit a variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetworkError(pub String);

impl std::fmt::Display for NetworkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NetworkError {}

#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    pub(crate) kinds: usize,
    pub(crate) cells: usize,
    /// Whether the output is added to the hand-made evaluation.
    pub on_top: bool,
    pub activation: Activation,
    /// By input, its `HIDDEN` weights.
    pub(crate) hidden_weights: Vec<[i16; HIDDEN]>,
    pub(crate) hidden_biases: [i16; HIDDEN],
    /// The side to move's units, then the other side's.
    pub(crate) output_weights: [[i16; HIDDEN]; 2],
    pub(crate) output_bias: i32,
    /// What the output's weights are kept times: 1 to [`QB`].
    pub(crate) output_scale: i32,
    /// A hash of the weights, told into the evaluation cache's key of a
    /// position this network evaluated: the cache outlives a search, and
    /// the next may evaluate with another network (`EvalFile`) or none.
    pub key: u64,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Network({} kinds x {} cells -> 2 x {HIDDEN} {}{})",
            self.kinds,
            self.cells,
            self.activation.name(),
            if self.on_top { ", on top" } else { "" }
        )
    }
}

/// The input of a piece of `kind` and `color` on `cell`, seen by
/// `perspective`: its own pieces first, Black's board mirrored.
#[inline(always)]
pub fn input(
    kinds: usize,
    cells: usize,
    mirror: impl Fn(usize) -> usize,
    perspective: Color,
    color: Color,
    kind: usize,
    cell: usize,
) -> usize {
    let theirs = (color != perspective) as usize;
    let cell = if perspective == Color::White { cell } else { mirror(cell) };
    (theirs * kinds + kind) * cells + cell
}

impl Network {
    /// A network from its parts, in the integers it keeps (see the module
    /// comment); `hidden_weights` has `2 * kinds * cells` inputs, and the
    /// output's weights are within twice `output_scale` (1 to [`QB`]).
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        kinds: usize,
        cells: usize,
        on_top: bool,
        activation: Activation,
        hidden_weights: Vec<[i16; HIDDEN]>,
        hidden_biases: [i16; HIDDEN],
        output_weights: [[i16; HIDDEN]; 2],
        output_bias: i32,
        output_scale: i32,
    ) -> Result<Network, NetworkError> {
        if kinds == 0 || cells == 0 || hidden_weights.len() != 2 * kinds * cells {
            return Err(NetworkError(format!(
                "{} inputs where {kinds} kinds on {cells} cells need {}",
                hidden_weights.len(),
                2 * kinds * cells
            )));
        }
        if !(1..=QB).contains(&output_scale) {
            return Err(NetworkError(format!("an output scale of {output_scale} where 1 to {QB} was expected")));
        }
        if let Some(w) = output_weights.iter().flatten().find(|w| i32::from(w.unsigned_abs()) > 2 * output_scale) {
            return Err(NetworkError(format!(
                "an output weight of {w}, beyond twice the output scale ({output_scale})"
            )));
        }
        let mut net = Network {
            kinds,
            cells,
            on_top,
            activation,
            hidden_weights,
            hidden_biases,
            output_weights,
            output_bias,
            output_scale,
            key: 0,
        };
        // FNV-1a over the file's bytes; never 0, the key of no network.
        net.key = net
            .to_bytes()
            .iter()
            .fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
            | 1;
        Ok(net)
    }

    /// Reads a network file from disk; the error names the file.
    pub fn from_file(path: &std::path::Path) -> Result<Network, NetworkError> {
        let named = |e: &dyn std::fmt::Display| NetworkError(format!("{}: {e}", path.display()));
        let bytes = std::fs::read(path).map_err(|e| named(&e))?;
        Network::from_bytes(&bytes).map_err(|e| named(&e))
    }

    /// Its inputs' kinds and cells, which the board it fits has.
    pub fn shape(&self) -> (usize, usize) {
        (self.kinds, self.cells)
    }

    /// By input, its `HIDDEN` weights (times [`QA`]): with the accessors
    /// below, the parts `new` takes, for a trainer that goes on from them.
    pub fn hidden_weights(&self) -> &[[i16; HIDDEN]] {
        &self.hidden_weights
    }

    /// The hidden units' biases, times [`QA`].
    pub fn hidden_biases(&self) -> &[i16; HIDDEN] {
        &self.hidden_biases
    }

    /// The output's weights, the side to move's units then the other
    /// side's, times [`Network::output_scale`].
    pub fn output_weights(&self) -> &[[i16; HIDDEN]; 2] {
        &self.output_weights
    }

    /// The output's bias, times [`QA`] and [`Network::output_scale`].
    pub fn output_bias(&self) -> i32 {
        self.output_bias
    }

    /// What the output's weights are kept times: 1 to [`QB`].
    pub fn output_scale(&self) -> i32 {
        self.output_scale
    }

    /// Reads a network file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        let mut at = 0usize;
        let mut take = |n: usize| -> Result<&[u8], NetworkError> {
            let part = bytes.get(at..at + n).ok_or_else(|| {
                NetworkError(format!(
                    "the file ends at byte {} where {} more were expected",
                    bytes.len(),
                    at + n - bytes.len()
                ))
            })?;
            at += n;
            Ok(part)
        };
        // How many of the words after on_top (activation, output scale)
        // the file's form has.
        let later_words = match take(MAGIC.len()) {
            Ok(m) if m == MAGIC => 2,
            Ok(m) if m == MAGIC_SECOND => 1,
            Ok(m) if m == MAGIC_CLIPPED => 0,
            _ => {
                return Err(NetworkError(
                    "not a Protean network file (it does not start with PRTNNUE3, PRTNNUE2 or PRTNNUE1)".into(),
                ))
            }
        };
        let mut word = || -> Result<usize, NetworkError> {
            Ok(u32::from_le_bytes(take(4)?.try_into().expect("four bytes")) as usize)
        };
        let (kinds, cells, hidden, on_top) = (word()?, word()?, word()?, word()?);
        let activation = if later_words >= 1 { word()? } else { 0 };
        let output_scale = if later_words >= 2 { word()? } else { QB_EARLIER_FORMS as usize };
        let activation = *Activation::ALL.get(activation).ok_or_else(|| {
            NetworkError(format!("activation {activation} where 0 (clipped) or 1 (clipped and squared) was expected"))
        })?;
        if hidden != HIDDEN {
            return Err(NetworkError(format!("a hidden layer of {hidden} units where this build has {HIDDEN}")));
        }
        if on_top > 1 {
            return Err(NetworkError(format!(
                "{on_top} where 0 (alone) or 1 (on top of the hand-made evaluation) was expected"
            )));
        }
        if kinds == 0 || cells == 0 || kinds > 64 || cells > protean_rules::geometry::MAX_CELLS {
            return Err(NetworkError(format!("{kinds} kinds on {cells} cells is no board")));
        }
        let mut units = || -> Result<[i16; HIDDEN], NetworkError> {
            let raw = take(2 * HIDDEN)?;
            Ok(std::array::from_fn(|i| i16::from_le_bytes([raw[2 * i], raw[2 * i + 1]])))
        };
        let hidden_weights = (0..2 * kinds * cells).map(|_| units()).collect::<Result<Vec<_>, _>>()?;
        let hidden_biases = units()?;
        let output_weights = [units()?, units()?];
        let output_bias = i32::from_le_bytes(take(4)?.try_into().expect("four bytes"));
        if at != bytes.len() {
            return Err(NetworkError(format!("{} bytes after the network's end", bytes.len() - at)));
        }
        Network::new(
            kinds,
            cells,
            on_top == 1,
            activation,
            hidden_weights,
            hidden_biases,
            output_weights,
            output_bias,
            i32::try_from(output_scale).unwrap_or(i32::MAX),
        )
    }

    /// The network as a file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        for n in
            [self.kinds, self.cells, HIDDEN, self.on_top as usize, self.activation as usize, self.output_scale as usize]
        {
            out.extend((n as u32).to_le_bytes());
        }
        let units = self.hidden_weights.iter().chain([&self.hidden_biases]).chain(&self.output_weights);
        for unit in units.flatten() {
            out.extend(unit.to_le_bytes());
        }
        out.extend(self.output_bias.to_le_bytes());
        out
    }

    /// Whether the network's inputs are `rules`' kinds on its cells.
    pub fn fits<B: Bitboard>(&self, rules: &Rules<B>) -> bool {
        self.kinds == rules.piece_types && self.cells == rules.geometry.cells()
    }

    /// The evaluation of `pos` (whose rules the network fits) in
    /// centipawns for the side to move; of a network on top, what is to be
    /// added to the hand-made evaluation. Sums the hidden layer afresh.
    pub fn evaluate<B: Bitboard>(&self, pos: &Position<B>) -> i32 {
        self.evaluate_from(pos, &mut Accumulator::new(self.kinds))
    }

    /// The same, reached from the sums of the last position `accumulator`
    /// saw: only the pieces that differ add or take away their columns.
    pub fn evaluate_from<B: Bitboard>(&self, pos: &Position<B>, accumulator: &mut Accumulator<B>) -> i32 {
        self.update(pos, accumulator);
        let us = pos.side_to_move();
        let sums = &accumulator.sums;
        let mut output = 0i32;
        for (sum, weights) in [&sums[us as usize], &sums[!us as usize]].into_iter().zip(&self.output_weights) {
            let units = sum.iter().zip(weights);
            output += match self.activation {
                Activation::Clipped => units.map(|(&s, &w)| (s as i32).clamp(0, QA) * w as i32).sum::<i32>(),
                // In `QA * QA` times the output scale a unit (a side's
                // units inside an `i32`, asserted where `QB` is) until the
                // division brings them to `QA` times it.
                Activation::Squared => {
                    units
                        .map(|(&s, &w)| {
                            let u = (s as i32).clamp(0, QA);
                            u * w as i32 * u
                        })
                        .sum::<i32>()
                        / QA
                }
            };
        }
        (output + self.output_bias) * SCALE / (QA * self.output_scale)
    }

    /// Brings `accumulator`'s sums to `pos`: from nothing where it holds
    /// another network's or the pieces that differ outnumber the pieces.
    fn update<B: Bitboard>(&self, pos: &Position<B>, accumulator: &mut Accumulator<B>) {
        let Accumulator { network, pieces, sums } = accumulator;
        let kinds = self.kinds;
        // Sums of this network have this network's kinds, White's then
        // Black's, in `pieces`. Plain loops: an iterator chain here was not
        // inlined, and cost more than the sums.
        let changed = |pieces: &[B]| {
            let mut changed = 0;
            for (c, color) in Color::ALL.into_iter().enumerate() {
                for kind in 0..kinds {
                    changed += (pieces[c * kinds + kind] ^ pos.pieces_of(color, kind)).count();
                }
            }
            changed
        };
        if *network != self.key || changed(pieces) >= pos.occupied().count() {
            *network = self.key;
            pieces.clear();
            pieces.resize(2 * kinds, B::EMPTY);
            *sums = [self.hidden_biases; 2];
        }
        let mirror = |c| pos.rules().geometry.mirror_rank(c);
        for (c, color) in Color::ALL.into_iter().enumerate() {
            for kind in 0..kinds {
                let (was, is) = (pieces[c * kinds + kind], pos.pieces_of(color, kind));
                if was == is {
                    continue;
                }
                for (cells, sign) in [(was & !is, -1i16), (is & !was, 1)] {
                    for cell in cells.cells() {
                        for perspective in Color::ALL {
                            let column =
                                &self.hidden_weights[input(kinds, self.cells, mirror, perspective, color, kind, cell)];
                            for (sum, w) in sums[perspective as usize].iter_mut().zip(column) {
                                *sum += sign * w;
                            }
                        }
                    }
                }
                pieces[c * kinds + kind] = is;
            }
        }
    }
}

/// The hidden layer's sums for the last position a search evaluated, with
/// its pieces: the next position evaluated, most often a few moves from
/// it, is reached by the columns of the pieces that differ (two to six in
/// a search, where a position has about thirty), not summed afresh. Found
/// by comparing the pieces rather than kept by make and unmake, so every
/// kind of move and rule system reaches it alike.
pub struct Accumulator<B> {
    /// The key of the network whose sums these are (0: none yet).
    network: u64,
    /// Each colour's pieces of each kind: White's kinds, then Black's.
    pieces: Vec<B>,
    sums: [[i16; HIDDEN]; 2],
}

impl<B: Bitboard> Accumulator<B> {
    /// An accumulator for positions of `kinds` kinds of piece (its one
    /// allocation is here, out of the search's tree).
    pub fn new(kinds: usize) -> Accumulator<B> {
        Accumulator { network: 0, pieces: vec![B::EMPTY; 2 * kinds], sums: [[0; HIDDEN]; 2] }
    }
}

/// The networks built into the binary, by variant (`networks/<variant>.nnue`).
const BUILT_IN: &[(&str, &[u8])] = include!(concat!(env!("OUT_DIR"), "/network_files.rs"));

/// The built-in network of `rules`' variant, if it has one that fits its
/// board and pieces. Read once per process.
pub fn built_in<B: Bitboard>(rules: &Rules<B>) -> Option<&'static Network> {
    static READ: std::sync::LazyLock<Vec<(&'static str, Network)>> = std::sync::LazyLock::new(|| {
        BUILT_IN
            .iter()
            .map(|&(name, bytes)| {
                (name, Network::from_bytes(bytes).unwrap_or_else(|e| panic!("built-in network {name}: {e} (tested)")))
            })
            .collect()
    });
    READ.iter().find(|(name, _)| *name == rules.variant.name).map(|(_, net)| net).filter(|net| net.fits(rules))
}

#[cfg(test)]
mod tests {
    use super::*;
    use protean_rules::AnyRules;

    /// A network of small pseudo-random weights for `kinds` on `cells`.
    fn random_network(kinds: usize, cells: usize, seed: u64) -> Network {
        random_network_of(kinds, cells, seed, Activation::Clipped)
    }

    fn random_network_of(kinds: usize, cells: usize, seed: u64, activation: Activation) -> Network {
        let mut state = seed;
        let mut next = move |range: i32| {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((state >> 33) as i32).rem_euclid(2 * range + 1) - range
        };
        let mut units = |range| std::array::from_fn(|_| next(range) as i16);
        let hidden_weights = (0..2 * kinds * cells).map(|_| units(60)).collect();
        let hidden_biases = units(100);
        Network::new(kinds, cells, false, activation, hidden_weights, hidden_biases, [units(120), units(120)], 1234, QB)
            .unwrap()
    }

    /// `net` with its output's weights read at another scale.
    fn at_scale(net: &Network, output_scale: i32) -> Network {
        Network::new(
            net.kinds,
            net.cells,
            net.on_top,
            net.activation,
            net.hidden_weights.clone(),
            net.hidden_biases,
            net.output_weights,
            net.output_bias,
            output_scale,
        )
        .unwrap()
    }

    /// The same evaluation worked out another way: floats, the inputs
    /// listed from the board's cells one by one.
    fn by_floats<B: Bitboard>(net: &Network, pos: &Position<B>) -> f64 {
        let g = pos.rules().geometry;
        let hidden = |perspective: Color| -> Vec<f64> {
            let mut h: Vec<f64> = net.hidden_biases.iter().map(|&b| b as f64 / QA as f64).collect();
            for cell in 0..g.cells() {
                if let Some(piece) = pos.piece_at(cell) {
                    let own = piece.color() == perspective;
                    let seen = if perspective == Color::White { cell } else { g.mirror_rank(cell) };
                    let index = ((!own as usize) * net.kinds + piece.kind()) * net.cells + seen;
                    for (u, w) in h.iter_mut().zip(&net.hidden_weights[index]) {
                        *u += *w as f64 / QA as f64;
                    }
                }
            }
            h.into_iter()
                .map(|u| match net.activation {
                    Activation::Clipped => u.clamp(0.0, 1.0),
                    Activation::Squared => u.clamp(0.0, 1.0).powi(2),
                })
                .collect()
        };
        let us = pos.side_to_move();
        let out: f64 = [hidden(us), hidden(!us)]
            .iter()
            .zip(&net.output_weights)
            .map(|(h, w)| h.iter().zip(w).map(|(u, &w)| u * w as f64 / net.output_scale as f64).sum::<f64>())
            .sum();
        (out + net.output_bias as f64 / (QA * net.output_scale) as f64) * SCALE as f64
    }

    #[test]
    fn the_evaluation_is_the_float_network_up_to_rounding() {
        for (variant, fens) in [
            (
                "standard",
                vec![
                    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
                    "r3k2r/pp1n1ppp/2p1b3/q7/3P4/2N2N2/PP3PPP/R2QK2R w KQkq - 2 12",
                    "8/5k2/8/3K4/8/8/1P6/8 w - - 0 60",
                ],
            ),
            ("perfect", vec![]),
            ("onedim", vec![]),
        ] {
            let rules = AnyRules::by_name(variant).unwrap();
            let mut positions: Vec<_> = fens.iter().map(|f| rules.from_fen(f).unwrap()).collect();
            positions.push(rules.start());
            for pos in positions {
                protean_rules::with_position!(&pos, p => {
                    for activation in [Activation::Clipped, Activation::Squared] {
                        let net = random_network_of(p.rules().piece_types, p.rules().geometry.cells(), 7, activation);
                        assert!(net.fits(p.rules()));
                        let (exact, float) = (net.evaluate(p), by_floats(&net, p));
                        // Truncated once at the end (the squared units once
                        // more, by a side): within a centipawn.
                        assert!((exact as f64 - float).abs() <= 1.0, "{variant} {activation:?} {}: {exact} against {float}", p.fen());
                    }
                });
            }
        }
    }

    /// One accumulator carried along random games, which make and unmake
    /// moves, jump back to their start and meet a second network, gives
    /// at every step what summing afresh gives.
    #[test]
    fn the_accumulator_follows_the_pieces_through_games() {
        let mut state = 5u64;
        let mut below = move |n: usize| {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 33) as usize % n
        };
        let mut compared = 0;
        for variant in ["standard", "perfect", "onedim", "beyond"] {
            let rules = AnyRules::by_name(variant).unwrap();
            protean_rules::with_position!(&rules.start(), start => {
                let (kinds, cells) = (start.rules().piece_types, start.rules().geometry.cells());
                let nets = [random_network(kinds, cells, 1), random_network(kinds, cells, 2)];
                let mut accumulator = Accumulator::new(kinds);
                for _game in 0..4 {
                    let mut pos = start.clone();
                    for _ply in 0..60 {
                        let mut moves = protean_rules::MoveList::new();
                        pos.legal_moves(&mut moves);
                        if moves.is_empty() {
                            break;
                        }
                        if below(5) == 0 && pos.last_move().is_some() {
                            pos.unmake();
                        } else {
                            pos.make(moves[below(moves.len())]);
                        }
                        let net = &nets[usize::from(below(8) == 0)];
                        assert_eq!(net.evaluate_from(&pos, &mut accumulator), net.evaluate(&pos), "{variant}: {}", pos.fen());
                        compared += 1;
                    }
                }
            });
        }
        assert!(compared >= 600, "{compared}");
    }

    #[test]
    fn a_position_and_its_colour_swapped_mirror_evaluate_alike() {
        let rules = AnyRules::by_name("standard").unwrap();
        let net = random_network(6, 64, 11);
        let a = rules.from_fen("r3k2r/pp1n1ppp/2p1b3/q7/3P4/2N2N2/PP3PPP/R2QK2R w KQkq - 2 12").unwrap();
        let b = rules.from_fen("r2qk2r/pp3ppp/2n2n2/3p4/Q7/2P1B3/PP1N1PPP/R3K2R b KQkq - 2 12").unwrap();
        let eval = |pos: &protean_rules::AnyPosition| protean_rules::with_position!(pos, p => net.evaluate(p));
        assert_eq!(eval(&a), eval(&b));
        assert_ne!(eval(&a), eval(&rules.start()));
    }

    #[test]
    fn a_file_reads_back_the_same_and_a_bad_one_is_named() {
        let net = random_network(6, 64, 3);
        let bytes = net.to_bytes();
        assert_eq!(Network::from_bytes(&bytes).unwrap(), net);
        let short = Network::from_bytes(&bytes[..bytes.len() - 1]).unwrap_err();
        assert!(short.0.contains("ends"), "{short}");
        let mut long = bytes.clone();
        long.push(0);
        assert!(Network::from_bytes(&long).unwrap_err().0.contains("1 bytes after"));
        assert!(Network::from_bytes(b"PRTNNUE0").unwrap_err().0.contains("PRTNNUE3"));
        let mut wide = bytes.clone();
        wide[16..20].copy_from_slice(&256u32.to_le_bytes());
        assert!(Network::from_bytes(&wide).unwrap_err().0.contains("256 units"));
        let mut on_top = bytes.clone();
        on_top[20] = 1;
        assert!(Network::from_bytes(&on_top).unwrap().on_top);
        on_top[20] = 2;
        assert!(Network::from_bytes(&on_top).unwrap_err().0.contains("2 where 0"));
        let mut squared = bytes.clone();
        squared[24] = 1;
        assert_eq!(Network::from_bytes(&squared).unwrap().activation, Activation::Squared);
        squared[24] = 2;
        assert!(Network::from_bytes(&squared).unwrap_err().0.contains("activation 2"));
        let mut scaled = bytes.clone();
        scaled[28..32].copy_from_slice(&64u32.to_le_bytes());
        assert_eq!(Network::from_bytes(&scaled).unwrap(), at_scale(&net, 64));
        for bad in [0, QB + 1] {
            scaled[28..32].copy_from_slice(&(bad as u32).to_le_bytes());
            let e = Network::from_bytes(&scaled).unwrap_err().0;
            assert!(e.contains(&format!("output scale of {bad}")), "{e}");
        }
        // The output's weights reach 120 here: beyond twice a scale of 59.
        scaled[28..32].copy_from_slice(&59u32.to_le_bytes());
        assert!(Network::from_bytes(&scaled).unwrap_err().0.contains("beyond twice the output scale (59)"));
        // The earlier forms: no output scale word, their scale 64; the
        // first without an activation word either, its units clipped.
        let mut second = b"PRTNNUE2".to_vec();
        second.extend(&bytes[8..28]);
        second.extend(&bytes[32..]);
        assert_eq!(Network::from_bytes(&second).unwrap(), at_scale(&net, 64));
        let mut first = b"PRTNNUE1".to_vec();
        first.extend(&bytes[8..24]);
        first.extend(&bytes[32..]);
        assert_eq!(Network::from_bytes(&first).unwrap(), at_scale(&net, 64));
        // A network of 6 kinds on 64 cells fits standard chess, not Perfect Chess.
        let rules = AnyRules::by_name("perfect").unwrap();
        protean_rules::with_position!(&rules.start(), p => assert!(!net.fits(p.rules())));
    }

    #[test]
    fn every_built_in_network_reads_and_fits_its_variant() {
        for (name, bytes) in BUILT_IN {
            let net = Network::from_bytes(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
            let rules = AnyRules::by_name(name).unwrap();
            protean_rules::with_position!(&rules.start(), p => {
                assert!(net.fits(p.rules()), "{name}");
                assert!(built_in(p.rules()).is_some());
            });
        }
    }
}
