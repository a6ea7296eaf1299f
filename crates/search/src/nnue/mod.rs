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
//! The file format is in `file` (reading, writing and its earlier forms);
//! the tests in `tests`.

use protean_rules::{Bitboard, Color, Position, Rules};

mod file;

/// Units of the hidden layer, per perspective.
pub const HIDDEN: usize = 128;
/// The hidden layer's weights and biases are kept times this, and a unit
/// is clipped to `0..=QA`.
pub const QA: i32 = 255;
/// The output layer's weights are kept times this in the files written
/// now (each file says its own scale), and no file's scale is above it.
pub const QB: i32 = 128;
/// Centipawns per unit of the float network's output.
pub const SCALE: i32 = 400;
// A side's squared units, each at most `QA * QA` times an output weight
// (an `i16` of at most twice the output scale, which is at most `QB`: both
// checked by `Network::new`), are summed in an `i32`.
const _: () = assert!((HIDDEN as i64) * (QA as i64 * QA as i64) * (2 * QB as i64) < i32::MAX as i64);

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

    /// The network read by a variant whose kind `k` stands for this
    /// network's kind `kinds[k]` (`Variant::kinds_standing_for`): each
    /// perspective's inputs put in the variant's order of kinds.
    pub fn with_kinds_from(&self, kinds: &[usize]) -> Network {
        assert_eq!(kinds.len(), self.kinds, "a kind for each of the network's kinds");
        self.with_inputs_from(kinds, self.cells, |cell| cell)
    }

    /// The network stretched from board `from` (its own) to board `to`,
    /// read by a variant whose kind `k` stands for this network's kind
    /// `kinds[k]` ([`lent_across_boards`]): a piece on a cell of `to`
    /// reads the input of its kind on the cell of `from` at the same
    /// fraction of the way across the files and up the ranks (nearest,
    /// edges to edges: the back ranks, the pawns' first and last ranks
    /// and the corners keep their meaning).
    pub fn across_boards(
        &self,
        from: protean_rules::Geometry,
        to: protean_rules::Geometry,
        kinds: &[usize],
    ) -> Network {
        assert_eq!(from.cells(), self.cells, "the network's own board");
        let along = |i: usize, to_size: usize, from_size: usize| {
            if to_size <= 1 {
                0
            } else {
                (i * (from_size - 1) + (to_size - 1) / 2) / (to_size - 1)
            }
        };
        self.with_inputs_from(kinds, to.cells(), |cell| {
            from.cell(along(to.file(cell), to.width(), from.width()), along(to.rank(cell), to.height(), from.height()))
        })
    }

    /// A network of `kinds.len()` kinds on `cells` cells whose input of
    /// kind `k` on `cell` is this one's of kind `kinds[k]` on
    /// `from_cell(cell)`, each perspective's own pieces first; the rest
    /// of its weights are this one's.
    fn with_inputs_from(&self, kinds: &[usize], cells: usize, from_cell: impl Fn(usize) -> usize + Copy) -> Network {
        let hidden_weights = [Color::White, Color::Black]
            .into_iter()
            .flat_map(|color| {
                kinds.iter().flat_map(move |&kind| {
                    (0..cells).map(move |cell| {
                        self.hidden_weights
                            [input(self.kinds, self.cells, |c| c, Color::White, color, kind, from_cell(cell))]
                    })
                })
            })
            .collect();
        Network::new(
            kinds.len(),
            cells,
            self.on_top,
            self.activation,
            hidden_weights,
            self.hidden_biases,
            self.output_weights,
            self.output_bias,
            self.output_scale,
        )
        .expect("a kind and a cell for each input")
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

/// The built-in games' networks, by game, read once per process.
fn built_in_networks() -> &'static [(&'static str, Network)] {
    static READ: std::sync::LazyLock<Vec<(&'static str, Network)>> = std::sync::LazyLock::new(|| {
        BUILT_IN
            .iter()
            .map(|&(name, bytes)| {
                (name, Network::from_bytes(bytes).unwrap_or_else(|e| panic!("built-in network {name}: {e} (tested)")))
            })
            .collect()
    });
    &READ
}

/// The built-in network of `rules`' variant, or of a variant it evaluates
/// as (`weights::fitted_for`: Chess960 takes standard chess's; then the
/// repository's variant files, `variant_files`), if one fits its board
/// and pieces; else one lent through its kinds ([`lent`]). Read once per
/// process.
pub fn built_in<B: Bitboard>(rules: &Rules<B>) -> Option<&'static Network> {
    let read = built_in_networks();
    crate::weights::fitted_for(read, &rules.variant)
        .or_else(|| crate::variant_files::network_for(&rules.variant))
        .filter(|net| net.fits(rules))
        .or_else(|| {
            let built_in_variants =
                read.iter().filter_map(|(name, net)| Some((protean_rules::variants::built_in_by_name(name)?, net)));
            let lent_through_a_piece =
                built_in_variants.filter_map(|(lender, net)| Some((rules.variant.kinds_standing_for(lender)?, net)));
            // A variant file's network only to a game that reletters its
            // own: lent through a changed piece, the one gated lost.
            let relettered = crate::variant_files::networks().filter_map(|(lender, net)| {
                Some((rules.variant.kinds_standing_for(lender).filter(|s| s.changed.is_none())?, net))
            });
            lent_through_a_piece
                .chain(relettered)
                .find_map(|(stand_in, net)| net.fits(rules).then(|| lent(net, stand_in.kinds)))
        })
}

/// The network a training of `rules`' variant goes on from
/// ([`starting_network`]).
pub enum StartingNetwork {
    /// The one it plays with ([`built_in`]).
    PlaysWith(&'static Network),
    /// Another game's (named) stretched to its board and kinds
    /// ([`lent_across_boards`]).
    Stretched(&'static str, Box<Network>),
}

/// Where a training of `rules`' variant, on top of the hand-made
/// evaluation or alone as `on_top` says, goes on from rather than from
/// nothing: the network it plays with where that one is made the same
/// way (unless `stretched`), else another game's stretched to it (on
/// top only); `None` where there is neither. `train-network
/// --from-built-in` (`--stretched`) starts there, and `protean learn`
/// refines it instead of fitting.
pub fn starting_network<B: Bitboard>(rules: &Rules<B>, on_top: bool, stretched: bool) -> Option<StartingNetwork> {
    match built_in(rules).filter(|net| !stretched && net.on_top == on_top) {
        Some(net) => Some(StartingNetwork::PlaysWith(net)),
        None => lent_across_boards(rules)
            .filter(|(_, net)| net.on_top == on_top)
            .map(|(lender, net)| StartingNetwork::Stretched(lender, Box::new(net))),
    }
}

/// A lender's network (its variant's name, the network) stretched to
/// `rules`' board and kinds ([`Network::across_boards`]), for a training
/// to start from where the variant plays with no network of its own: a
/// game with another board or more than one piece changed (Chancellor
/// chess on 9x9, a 12x10 game of compounds). Not played with as it is:
/// its cells and the kinds read as others only approximate the game's
/// (Chancellor chess with standard chess's lost to the defaults), but
/// refined on a few hundred thousand of the game's positions it starts
/// where millions of the lender's left off.
///
/// The lenders are the built-in games' networks and the repository's
/// variant files' (`variant_files`) other than the one `rules`' variant
/// plays with: Capablanca chess starts from Gothic chess's, which already
/// knows the archbishop and chancellor, and Gothic chess from Capablanca
/// chess's. The lender is the one with a board of at least two files and
/// two ranks whose kinds the variant's match best: each kind that moves
/// as one of the lender's (and has its role) reads that one; each other
/// piece that is neither royal nor a pawn reads the lender's such piece
/// nearest to it in value ([`piece_value`](crate::evaluate::piece_value),
/// each on its own board); a royal piece or pawn that moves otherwise
/// lends nothing. Moving tiles and rule changes must be the lender's.
/// Between lenders that match as well, the one whose board is nearest in
/// size wins, then a built-in game's.
pub fn lent_across_boards<B: Bitboard>(rules: &Rules<B>) -> Option<(&'static str, Network)> {
    let own = crate::variant_files::network_for(&rules.variant);
    let from_files = crate::variant_files::networks()
        .filter(|&(_, net)| own.is_none_or(|own| !std::ptr::eq(own, net)))
        .map(|(lender, net)| (lender.name.as_str(), lender, net));
    stretched_from(rules, built_in_lenders().chain(from_files))
}

/// A lender: its variant's name, the variant and its network.
type Lender = (&'static str, &'static protean_rules::Variant, &'static Network);

/// The built-in games' networks as lenders.
fn built_in_lenders() -> impl Iterator<Item = Lender> {
    built_in_networks()
        .iter()
        .filter_map(|(name, net)| Some((*name, protean_rules::variants::built_in_by_name(name)?, net)))
}

/// The network of the lender of `lenders` that `rules`' variant matches
/// best, stretched to it ([`lent_across_boards`]); of lenders that match
/// as well, the first.
fn stretched_from<B: Bitboard>(
    rules: &Rules<B>,
    lenders: impl Iterator<Item = Lender>,
) -> Option<(&'static str, Network)> {
    use protean_rules::variant::Role;
    use protean_rules::AnyRules;
    // Each kind's value, and the board they are valued on.
    fn valued<B: Bitboard>(rules: &Rules<B>) -> (protean_rules::Geometry, Vec<i32>) {
        (rules.geometry, (0..rules.piece_types).map(|k| crate::evaluate::piece_value(rules, k)).collect())
    }
    let variant = &rules.variant;
    let (board, values) = valued(rules);
    let two_dimensional = |g: protean_rules::Geometry| g.width() >= 2 && g.height() >= 2;
    if !two_dimensional(board) {
        return None;
    }
    // The best lender so far; only the one chosen is stretched.
    struct Pick {
        same_moves: usize,
        apart: usize,
        name: &'static str,
        net: &'static Network,
        board: protean_rules::Geometry,
        kinds: Vec<usize>,
    }
    let mut best: Option<Pick> = None;
    for (name, lender, net) in lenders {
        let (lender_board, lender_values) = match AnyRules::new(lender.clone()) {
            Ok(AnyRules::Small(r)) => valued(&r),
            Ok(AnyRules::Medium(r)) => valued(&r),
            Ok(AnyRules::Large(r)) => valued(&r),
            Err(_) => continue,
        };
        if !two_dimensional(lender_board)
            || lender.tiles != variant.tiles
            || lender.redefinitions != variant.redefinitions
        {
            continue;
        }
        let mut same_moves = 0;
        let kinds: Option<Vec<usize>> = variant
            .pieces
            .iter()
            .zip(&values)
            .map(|(piece, &value)| {
                let moves_as = lender.pieces.iter().position(|l| l.moves_as(piece));
                if moves_as.is_some() {
                    same_moves += 1;
                    return moves_as;
                }
                (piece.role == Role::Other)
                    .then(|| {
                        (0..lender.pieces.len())
                            .filter(|&k| lender.pieces[k].role == Role::Other)
                            .min_by_key(|&k| (lender_values[k] - value).abs())
                    })
                    .flatten()
            })
            .collect();
        if let Some(kinds) = kinds {
            // Between lenders whose kinds match as well, the board nearest
            // in size: fewer cells are read as others (Hoppel-Poppel's 8x8
            // from standard chess's rather than Perfect Chess's 9x9).
            let apart = lender_board.cells().abs_diff(board.cells());
            let better = |b: &Pick| same_moves > b.same_moves || (same_moves == b.same_moves && apart < b.apart);
            if best.as_ref().is_none_or(better) {
                best = Some(Pick { same_moves, apart, name, net, board: lender_board, kinds });
            }
        }
    }
    best.map(|b| (b.name, b.net.across_boards(b.board, board, &b.kinds)))
}

/// A network lent to a variant whose kinds stand for its variant's
/// (`Variant::kinds_standing_for`), its inputs in the variant's order: a
/// variant without a network of its own reads its positions through a
/// game that has one, on top of its own (default) weights, not those
/// the network was trained over. A built-in game's network (trained on
/// millions of positions) is lent through one changed piece: chess with
/// a chancellor or an amazon for the queen gains well over 100 Elo by
/// it; a variant file's (from a `protean learn` run) only to a variant
/// that reletters its game: Modern chess's lent to Chancellor chess, the
/// chancellor read as its minister, lost (docs/results.md). Each lent
/// order of kinds is made once per process and kept.
fn lent(net: &'static Network, kinds: Vec<usize>) -> &'static Network {
    type Lent = Vec<((usize, Vec<usize>), &'static Network)>;
    static LENT: std::sync::Mutex<Lent> = std::sync::Mutex::new(Vec::new());
    let key = (net as *const Network as usize, kinds);
    let mut lent = LENT.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(&(_, made)) = lent.iter().find(|(k, _)| *k == key) {
        return made;
    }
    let made: &'static Network = Box::leak(Box::new(net.with_kinds_from(&key.1)));
    lent.push((key, made));
    made
}

#[cfg(test)]
mod tests;
