//! Static evaluation, generic over board size and pieces.
//!
//! Nothing here names a piece or a variant: every term is a feature built
//! from the board's geometry and the pieces' roles, times a weight from
//! `weights` (fitted to game results where a variant has a weights file;
//! otherwise piece values from how a piece moves, its Betza legs, and
//! positional weights set by hand), so any variant, and any rule change,
//! is evaluated sanely. The terms go to a [`Terms`] sink: search sums them
//! with their weights, the tuner (`texel`) records the features.
//! Terms: material, centrality, pawn advancement and structure (doubled,
//! isolated, passed), what stands before a passed pawn (a blocker, the
//! kings' distances), mobility, outposts, how far up the board each kind
//! stands, threats (pieces attacked by pawns or by lesser pieces, pieces
//! attacked and not defended), king safety (attacks on the king's ring
//! and the pawn shield), blended between middle game and end game by the
//! non-pawn material left, plus a tempo bonus. Where tiles move (Beyond
//! Chess), three terms know what rifts do: rifts beside a king take its
//! flight cells, a rift that a tile shift could fill is a line waiting to
//! open onto a king, and a pawn near the rank where it promotes (which
//! runs across the whole arena) is a threat from anywhere.
//!
//! The pawns' own terms depend on nothing but their cells, so the search
//! takes their weighted sum from a per-thread [`PawnCache`]; what a piece
//! adds by its kind and cell alone (worth, centrality, piece-square
//! weight) is one entry of a table built with the weights, and a kind's
//! mobility is summed over its pieces and added once.

use crate::weights::{per_kind, scalar, Layout, PerKind, Scalar, Score, Weights};
use protean_rules::betza::UNLIMITED;
use protean_rules::variant::Role;
use protean_rules::{Bitboard, Color, Position, Rules};

/// Centipawns per unit of effective mobility (see [`piece_value`]).
const VALUE_PER_MOVE: f64 = 61.0;
const PAWN_MG: i32 = 90;
const PAWN_EG: i32 = 125;

/// A feature of one: features are counted in 256ths, so that how far a
/// pawn has come (0 to 256) is one like any count.
pub const ONE: i32 = 256;

/// Precomputed evaluation tables for one variant and board size.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalTables<B> {
    /// Every term's weight, by `weights` index.
    weights: Vec<Score>,
    /// Where the terms are in `weights`.
    pub layout: Layout,
    /// For each colour and cell: where the piece-square weight of a
    /// piece of the first kind there is (see [`Layout`]); a later kind's
    /// is `squares_per_kind` further on each kind. Kept whole so that the
    /// evaluation adds, not computes the layout, per piece.
    piece_squares: [Vec<usize>; 2],
    squares_per_kind: usize,
    /// For each colour, by kind then cell (`kind * cells + cell`): what a
    /// piece there adds by the terms of one piece on one cell, its
    /// kind's worth, its cell's centrality and its piece-square weight,
    /// summed with their weights (see [`Terms::place`]).
    placed: [Vec<Score>; 2],
    /// Each kind's value from how it moves (middle game): what exchanges
    /// and the game phase count, whatever the fitted weights say.
    values: Vec<i32>,
    /// How close to the centre each cell is (0 at the far edge).
    centrality: Vec<i32>,
    /// For each colour and cell: how far a pawn there has come, 0 at its
    /// start rank, 1.0 (scaled to 256) on its promotion rank.
    advancement: [Vec<i32>; 2],
    adjacent_files: Vec<B>,
    /// Cells ahead of a cell on its own and the adjacent files, per colour.
    passed_span: [Vec<B>; 2],
    /// Cells ahead on the same file, per colour.
    front_span: [Vec<B>; 2],
    /// The cells around each cell that a king attacks.
    king_ring: Vec<B>,
    /// Non-pawn material of the start position (by `values`), for the
    /// game phase.
    start_material: i32,
    /// The key of the rules these tables were made for.
    pub rules_key: u64,
    /// Each kind's Betza in those rules, with its value (see
    /// [`piece_value`]).
    valued: Vec<(String, Score)>,
    /// Kinds a rule change redefined: their own weights are the defaults
    /// of their new moves, not fitted ones.
    pub redefined: Vec<bool>,
    /// Kinds from least to most valuable, the king last: the order in
    /// which static exchange evaluation brings attackers in.
    pub exchange_order: Vec<usize>,
    /// The cells of one colour (a1's), for colour-bound pieces.
    light_cells: B,
    /// Kinds bound to cells of one colour.
    colourbound: Vec<bool>,
    /// Kinds that slide along their file, moving and capturing.
    file_riders: Vec<bool>,
    /// Each cell and its neighbours on its rank: the files a king there
    /// wants sheltered, and where a pawn's phalanx stands.
    king_files: Vec<B>,
    /// For each kind, the kinds (neither pawns nor royal) worth clearly
    /// more (bit set): the victims its attacks threaten.
    worth_more: Vec<u32>,
    /// For each colour and cell: how far up the board from that colour's
    /// side the cell is, 0 on its first rank, 256 on the last.
    rank_advance: [Vec<i32>; 2],
}

/// From which rank advance (256ths of the board) a defended piece that no
/// enemy pawn can chase away stands on an outpost: the fourth rank of 8.
const OUTPOST_ADVANCE: i32 = 100;

/// How much more (by `values`) a victim must be worth than its attacker
/// for the attack to count as a threat: a knight on a bishop is none.
const THREAT_MARGIN: i32 = 50;

/// The weights file built in for `rules`' variant (none: the defaults).
fn built_in_weights<B: Bitboard>(rules: &Rules<B>) -> &'static str {
    Weights::built_in(&rules.variant.name).unwrap_or("")
}

/// The chance that the `k` cells before a rider's next one are all empty
/// on a board a quarter full, 0.75^k, for every `k` a ray on the largest
/// board can have (looked up: [`piece_value`] runs for every rule set a
/// Flexichess search meets).
static EMPTY_AHEAD: std::sync::LazyLock<[f64; protean_rules::geometry::MAX_CELLS + 1]> =
    std::sync::LazyLock::new(|| std::array::from_fn(|k| 0.75f64.powi(k as i32)));

/// A piece's value from its moves: the average, over all cells of the
/// board, of its effective mobility on a board a quarter full of pieces (a
/// rider's k-th cell along a ray counts 0.75^(k-1), the chance that the
/// cells before it are empty), times [`VALUE_PER_MOVE`]. Move-only or
/// capture-only legs count half, initial-only legs a tenth, and a piece
/// bound to one colour of cells loses 15%. A two-leg jumper counts each
/// landing cell once and each middle-cell capture as half. On 8x8 this
/// gives N 320, B 326, R 536, Q 920: close to the values chess players
/// use, with no piece named.
pub fn piece_value<B: Bitboard>(rules: &Rules<B>, kind: usize) -> i32 {
    let def = &rules.variant.pieces[kind];
    let g = rules.geometry;
    let mut total = 0.0;
    for cell in 0..g.cells() {
        for leg in &def.movement.legs {
            let mut weight = if leg.mode.moves && leg.mode.captures { 1.0 } else { 0.5 };
            if leg.initial_only {
                weight *= 0.1;
            }
            let mut here = cell;
            let mut k = 0;
            while leg.range == UNLIMITED || k < leg.range {
                match g.offset(here, leg.step) {
                    Some(next) => {
                        total += weight * EMPTY_AHEAD[k as usize];
                        here = next;
                    }
                    None => break,
                }
                k += 1;
                if k as usize > g.cells() {
                    break;
                }
            }
        }
    }
    // Two-leg jumps: each distinct landing cell counts as a leap, and a
    // capture on the middle cell as half of one.
    for cell in 0..g.cells() {
        let mut landings = Vec::new();
        for [first, second] in &def.paths {
            let Some(mid) = g.offset(cell, *first) else { continue };
            let Some(to) = g.offset(mid, *second) else { continue };
            if !landings.contains(&to) {
                landings.push(to);
                total += 1.0;
            }
            total += 0.5;
        }
    }
    let mut mobility = total / g.cells() as f64;
    if def.is_colourbound() {
        mobility *= 0.85;
    }
    (mobility * VALUE_PER_MOVE).round() as i32
}

impl<B: Bitboard> EvalTables<B> {
    /// The tables of `rules`, with the weights built in for its variant.
    pub fn new(rules: &Rules<B>) -> EvalTables<B> {
        EvalTables::with_weights(rules, built_in_weights(rules)).expect("built-in weight files read (tested)")
    }

    /// The tables of `rules`, with the weights of `text` (a weights file)
    /// over the defaults.
    pub fn with_weights(rules: &Rules<B>, text: &str) -> Result<EvalTables<B>, crate::weights::WeightsError> {
        let mut tables = EvalTables::of_board(rules);
        tables.weigh_pieces(rules, text)?;
        Ok(tables)
    }

    /// What [`EvalTables::new`] builds for `rules`, rules that a rule
    /// change (Flexichess) made from the rules of `self`: the board, the
    /// start and the pawns are theirs, so only what the pieces' moves
    /// decide is worked out again (a search meets thousands of such sets,
    /// and the board's tables took most of the time).
    pub fn for_changed_rules(&self, rules: &Rules<B>) -> EvalTables<B> {
        let mut tables = self.clone();
        tables.weigh_pieces(rules, built_in_weights(rules)).expect("built-in weight files read (tested)");
        tables
    }

    /// The tables that the board, the start position and the pawns decide,
    /// the same for every rule set a rule change reaches; what the pieces'
    /// moves decide is left empty for [`EvalTables::weigh_pieces`].
    fn of_board(rules: &Rules<B>) -> EvalTables<B> {
        let g = rules.geometry;
        let (w, h) = (g.width(), g.height());
        let layout = Layout::of(&rules.variant);
        let centrality = (0..g.cells())
            .map(|c| {
                // Distance from the centre in half-cells, inverted.
                let df = (2 * g.file(c) as i32 - (w as i32 - 1)).abs();
                let dr = (2 * g.rank(c) as i32 - (h as i32 - 1)).abs();
                (w.max(h) as i32 - 1) - df.max(dr) / 2 - (df + dr) / 4
            })
            .collect();
        let files: Vec<B> = (0..w).map(|f| (0..h).fold(B::EMPTY, |b, r| b | B::cell(g.cell(f, r)))).collect();
        let adjacent_files = (0..w)
            .map(|f| {
                let left = if f > 0 { files[f - 1] } else { B::EMPTY };
                let right = if f + 1 < w { files[f + 1] } else { B::EMPTY };
                left | right
            })
            .collect();
        let ahead =
            |color: Color, c: usize, r: usize| if color == Color::White { r > g.rank(c) } else { r < g.rank(c) };
        let mut passed_span = [vec![B::EMPTY; g.cells()], vec![B::EMPTY; g.cells()]];
        let mut front_span = [vec![B::EMPTY; g.cells()], vec![B::EMPTY; g.cells()]];
        let mut advancement = [vec![0; g.cells()], vec![0; g.cells()]];
        let start_pawns = &rules.start.pieces;
        for color in Color::ALL {
            let promo = rules.variant.promotion.ranks[color as usize] as i32;
            // Pawns start where the start position has them (rank 2 of the
            // frame in Beyond Chess, not of the arena).
            let ranks = start_pawns
                .iter()
                .filter(|(_, p)| p.color() == color && rules.roles[p.kind()] == Role::Pawn)
                .map(|(c, _)| g.rank(*c) as i32);
            let start =
                if color == Color::White { ranks.min().unwrap_or(1) } else { ranks.max().unwrap_or(h as i32 - 2) };
            let span = (promo - start).abs().max(1);
            for c in 0..g.cells() {
                let f = g.file(c);
                for r in 0..h {
                    if ahead(color, c, r) {
                        front_span[color as usize][c] |= B::cell(g.cell(f, r));
                        for ff in f.saturating_sub(1)..=(f + 1).min(w - 1) {
                            passed_span[color as usize][c] |= B::cell(g.cell(ff, r));
                        }
                    }
                }
                let progress = (g.rank(c) as i32 - start) * (promo - start).signum();
                advancement[color as usize][c] = (progress.clamp(0, span) * 256) / span;
            }
        }
        let royal_ring = |c: usize| {
            (0..g.cells())
                .filter(|&o| o != c && g.file(o).abs_diff(g.file(c)) <= 1 && g.rank(o).abs_diff(g.rank(c)) <= 1)
                .fold(B::EMPTY, |b, o| b | B::cell(o))
        };
        let king_ring: Vec<B> = (0..g.cells()).map(royal_ring).collect();
        let light_cells =
            (0..g.cells()).filter(|&c| (g.file(c) + g.rank(c)).is_multiple_of(2)).fold(B::EMPTY, |b, c| b | B::cell(c));
        let king_files = (0..g.cells())
            .map(|c| {
                (0..g.cells())
                    .filter(|&o| g.rank(o) == g.rank(c) && g.file(o).abs_diff(g.file(c)) <= 1)
                    .fold(B::EMPTY, |b, o| b | B::cell(o))
            })
            .collect();
        let last_rank = (h as i32 - 1).max(1);
        let rank_advance = [Color::White, Color::Black].map(|color| {
            (0..g.cells())
                .map(|c| {
                    let r = g.rank(c) as i32;
                    let up = if color == Color::White { r } else { h as i32 - 1 - r };
                    up * 256 / last_rank
                })
                .collect()
        });
        let piece_squares = Color::ALL.map(|color| {
            (0..g.cells()).map(|c| layout.square(0, layout.square_of(color, g.file(c), g.rank(c)))).collect()
        });
        EvalTables {
            weights: Vec::new(),
            layout,
            piece_squares,
            squares_per_kind: layout.squares(),
            placed: [Vec::new(), Vec::new()],
            values: Vec::new(),
            centrality,
            advancement,
            adjacent_files,
            passed_span,
            front_span,
            king_ring,
            start_material: 1,
            rules_key: rules.key,
            valued: Vec::new(),
            redefined: Vec::new(),
            exchange_order: Vec::new(),
            light_cells,
            colourbound: Vec::new(),
            file_riders: Vec::new(),
            king_files,
            worth_more: Vec::new(),
            rank_advance,
        }
    }

    /// The tables that the pieces' moves decide (their values, the
    /// weights, with `text`'s over the defaults, and what is summed from
    /// them), for `rules` on the board of `self`.
    fn weigh_pieces(&mut self, rules: &Rules<B>, text: &str) -> Result<(), crate::weights::WeightsError> {
        let g = rules.geometry;
        // A kind that moves as it did in the rules these tables were made
        // for keeps its value: working one out walks every cell's rays.
        let values: Vec<Score> = (0..rules.piece_types)
            .map(|k| match rules.roles[k] {
                Role::Royal => Score::new(0, 0),
                Role::Pawn => Score::new(PAWN_MG, PAWN_EG),
                Role::Other => match self.valued.get(k) {
                    Some((betza, value)) if *betza == rules.variant.pieces[k].betza => *value,
                    _ => {
                        let v = piece_value(rules, k);
                        Score::new(v, v + v / 10)
                    }
                },
            })
            .collect();
        self.valued = rules.variant.pieces.iter().map(|p| p.betza.clone()).zip(values.iter().copied()).collect();
        let kinds: Vec<(Role, Score)> = rules.roles.iter().copied().zip(values.iter().copied()).collect();
        let layout = self.layout;
        let mut weights = Weights::parse(text, &rules.variant, Weights::defaults(&kinds, layout.squares()))?.terms;
        // A kind a rule change redefined moves otherwise than the one its
        // weights were fitted for: it keeps the defaults of its new moves.
        let redefined: Vec<bool> = (0..rules.piece_types)
            .map(|k| rules.original_betza.get(k) != Some(&rules.variant.pieces[k].betza))
            .collect();
        for (k, &(role, value)) in kinds.iter().enumerate() {
            if redefined[k] {
                for (term, v) in PerKind::ALL.into_iter().zip(Weights::kind_defaults(role, value)) {
                    weights[per_kind(term, k)] = v;
                }
                for square in 0..layout.squares() {
                    weights[layout.square(k, square)] = Score::default();
                }
            }
        }
        let start_material = rules
            .start
            .pieces
            .iter()
            .filter(|(_, pc)| rules.roles[pc.kind()] == Role::Other)
            .map(|(_, pc)| values[pc.kind()].mg)
            .sum::<i32>()
            .max(1);
        let mut exchange_order: Vec<usize> = (0..rules.piece_types).collect();
        exchange_order.sort_by_key(|&k| if rules.roles[k] == Role::Royal { i32::MAX } else { values[k].mg });
        let values: Vec<i32> = values.iter().map(|v| v.mg).collect();
        let pieces = &rules.variant.pieces;
        self.colourbound = pieces.iter().map(|p| p.is_colourbound()).collect();
        self.file_riders = pieces
            .iter()
            .map(|p| {
                p.movement
                    .legs
                    .iter()
                    .any(|l| l.step.dx == 0 && l.range > 1 && l.mode.moves && l.mode.captures && !l.initial_only)
            })
            .collect();
        self.worth_more = (0..rules.piece_types)
            .map(|a| {
                (0..rules.piece_types)
                    .filter(|&v| rules.roles[v] == Role::Other && values[v] > values[a] + THREAT_MARGIN)
                    .fold(0, |set, v| set | 1 << v)
            })
            .collect();
        self.weights = weights;
        self.values = values;
        self.start_material = start_material;
        self.exchange_order = exchange_order;
        self.redefined = redefined;
        self.rules_key = rules.key;
        self.placed = Color::ALL.map(|color| {
            (0..rules.piece_types)
                .flat_map(|kind| (0..g.cells()).map(move |cell| (kind, cell)))
                .map(|(kind, cell)| self.weigh_placement(color, kind, cell))
                .collect()
        });
        Ok(())
    }

    /// A piece's worth, centrality and piece-square weight, weighed and
    /// summed: what `placed` keeps for each colour, kind and cell.
    fn weigh_placement(&self, color: Color, kind: usize, cell: usize) -> Score {
        let w = &self.weights;
        let (value, centre, square) = (
            w[per_kind(PerKind::Value, kind)],
            w[per_kind(PerKind::Centre, kind)],
            w[self.piece_square(color, kind, cell)],
        );
        let c = self.centrality[cell];
        Score::new(value.mg + centre.mg * c + square.mg, value.eg + centre.eg * c + square.eg)
    }

    /// Whether a pawn of `us` on `cell` is passed: no enemy pawn (of
    /// `their_pawns`) ahead on its file or the next ones.
    #[inline]
    fn is_passed(&self, us: Color, cell: usize, their_pawns: B) -> bool {
        (self.passed_span[us as usize][cell] & their_pawns).is_empty()
    }

    /// The value used for exchanges and move ordering.
    #[inline]
    pub fn value(&self, kind: usize) -> i32 {
        self.values[kind]
    }

    /// Where the piece-square weight of a piece of `color` and `kind` on
    /// `cell` is.
    #[inline(always)]
    fn piece_square(&self, color: Color, kind: usize, cell: usize) -> usize {
        self.piece_squares[color as usize][cell] + kind * self.squares_per_kind
    }

    /// What a piece of `color` and `kind` on `cell` adds by its worth,
    /// centrality and piece-square weight (see [`Terms::place`]).
    #[inline(always)]
    fn placed(&self, color: Color, kind: usize, cell: usize) -> Score {
        self.placed[color as usize][kind * self.centrality.len() + cell]
    }

    /// The most the evaluation loses with a piece of `color` and `kind`
    /// taken off `cell`, by its worth, centrality and piece-square weight
    /// (the greater of middle and end game): what a capture of it can
    /// gain, in the evaluation's own units. The fitted weights may rate a
    /// piece far above its exchange `value` (standard chess's queen 1,993
    /// in the middle game against 920), so bounds on what the evaluation
    /// can gain must read this one.
    #[inline]
    pub fn placed_worth(&self, color: Color, kind: usize, cell: usize) -> i32 {
        let s = self.placed(color, kind, cell);
        s.mg.max(s.eg)
    }

    /// Every term's weight, by `weights` index.
    pub fn weights(&self) -> &[Score] {
        &self.weights
    }
}

/// Where the evaluation's terms go.
pub trait Terms {
    /// For `color`: `feature` (in 256ths, see [`ONE`]) of the term whose
    /// weight is at `index`.
    fn add(&mut self, color: Color, index: usize, feature: i32);
    /// For `color`: `count` whole features of the term at `index`, the same
    /// as `add` of `count * ONE`; a sum weighs them with no division.
    #[inline(always)]
    fn count(&mut self, color: Color, index: usize, count: i32) {
        self.add(color, index, count * ONE);
    }
    /// For `color`: a piece of `kind` on `cell`, one of the kind's count,
    /// its cell's centrality and its piece-square term (each a sum of
    /// whole features: a sum may look the three up at once).
    #[inline(always)]
    fn place<B: Bitboard>(&mut self, t: &EvalTables<B>, color: Color, kind: usize, cell: usize) {
        self.count(color, per_kind(PerKind::Value, kind), 1);
        self.count(color, per_kind(PerKind::Centre, kind), t.centrality[cell]);
        self.count(color, t.piece_square(color, kind, cell), 1);
    }
    /// Whether the term at `index` is wanted: a sum leaves out a term
    /// weighed at nothing, so a term no fit has given a worth costs no
    /// time; a recorder of features wants every term.
    #[inline(always)]
    fn wants(&self, _index: usize) -> bool {
        true
    }
}

/// Terms summed with their weights, per side: the evaluation of search.
struct Summed<'a> {
    weights: &'a [Score],
    sides: [Score; 2],
}

impl Terms for Summed<'_> {
    #[inline(always)]
    fn wants(&self, index: usize) -> bool {
        self.weights[index] != Score::default()
    }
    #[inline(always)]
    fn add(&mut self, color: Color, index: usize, feature: i32) {
        let w = self.weights[index];
        self.sides[color as usize] += Score::new(w.mg * feature / ONE, w.eg * feature / ONE);
    }
    #[inline(always)]
    fn count(&mut self, color: Color, index: usize, count: i32) {
        let w = self.weights[index];
        self.sides[color as usize] += Score::new(w.mg * count, w.eg * count);
    }
    #[inline(always)]
    fn place<B: Bitboard>(&mut self, t: &EvalTables<B>, color: Color, kind: usize, cell: usize) {
        self.sides[color as usize] += t.placed(color, kind, cell);
    }
}

/// One side's pawns: their count, centrality, advance and structure
/// (passed, doubled, isolated, connected). `pawns` holds each colour's pawns. These
/// terms depend on the pawns' cells and the tables alone, so the search
/// keeps them in a [`PawnCache`].
fn pawn_structure<B: Bitboard, T: Terms>(pos: &Position<B>, t: &EvalTables<B>, us: Color, pawns: [B; 2], out: &mut T) {
    let rules = pos.rules();
    let g = rules.geometry;
    let (own_pawns, their_pawns) = (pawns[us as usize], pawns[!us as usize]);
    // A pawn its fellows defend, or one beside it that can step up to
    // defend it, is hard to win and holds the cells ahead.
    let connected = out.wants(scalar(Scalar::Connected)) || out.wants(scalar(Scalar::ConnectedAdvance));
    let defended = if connected { pawn_attacks(pos, us) } else { B::EMPTY };
    for kind in kinds_in(pos.rules().pawn_kinds) {
        for cell in pos.pieces_of(us, kind).cells() {
            out.place(t, us, kind, cell);
            let adv = t.advancement[us as usize][cell];
            out.add(us, scalar(Scalar::PawnAdvance), adv);
            if connected && (defended.has(cell) || (t.king_files[cell] & own_pawns & !B::cell(cell)).any()) {
                out.count(us, scalar(Scalar::Connected), 1);
                out.add(us, scalar(Scalar::ConnectedAdvance), adv);
            }
            if t.is_passed(us, cell, their_pawns) {
                out.count(us, scalar(Scalar::Passed), 1);
                out.add(us, scalar(Scalar::PassedAdvance), adv);
            }
            if (t.front_span[us as usize][cell] & own_pawns).any() {
                out.count(us, scalar(Scalar::Doubled), 1);
            }
            if (t.adjacent_files[g.file(cell)] & own_pawns).is_empty() {
                out.count(us, scalar(Scalar::Isolated), 1);
            }
        }
    }
}

/// One side's terms but its pawns' (see [`pawn_structure`]); `pawns`
/// holds each colour's pawns and `pawn_attacks` the cells they attack.
/// Returns what the terms that weigh both sides need of this one (see
/// [`SideReach`]): they are added by [`piece_terms`] once both are known.
fn side<B: Bitboard, T: Terms>(
    pos: &Position<B>,
    t: &EvalTables<B>,
    us: Color,
    pawns: [B; 2],
    pawn_attacks: [B; 2],
    out: &mut T,
) -> SideReach<B> {
    let rules = pos.rules();
    let mut material = 0;
    let own_pawns = pawns[us as usize];
    let enemy_king_ring = pos.king(!us).map_or(B::EMPTY, |k| t.king_ring[k]);
    let mut king_attackers = 0;
    let mut king_attacks = 0;
    let their_pawn_attacks = pawn_attacks[!us as usize];
    if out.wants(scalar(Scalar::PawnThreat)) {
        let their_pieces = pieces_but_pawns_and_king(pos, !us, pawns);
        out.count(us, scalar(Scalar::PawnThreat), (pawn_attacks[us as usize] & their_pieces).count() as i32);
    }
    let (king_open_file, open_file, bound_pair) = (
        out.wants(scalar(Scalar::KingOpenFile)),
        out.wants(scalar(Scalar::OpenFile)),
        out.wants(scalar(Scalar::BoundPair)),
    );
    let (lesser_attacks, hanging, outpost) = (
        out.wants(scalar(Scalar::LesserAttacks)),
        out.wants(scalar(Scalar::Hanging)),
        out.wants(scalar(Scalar::Outpost)),
    );
    let rank_advance = &t.rank_advance[us as usize];
    let mut unsafe_reach = 0;
    let mut threatened = B::EMPTY;
    // What a piece may move onto or take (its mobility: `reach_from`,
    // with the board's sets read once for the side). Where hanging pieces
    // are counted, captures are asked of every piece on the board, so
    // that the same lookup tells what the piece defends.
    let (blockers, vacant, theirs) = (pos.blockers(), pos.vacant(), pos.pieces(!us));
    let capturable = if hanging { pos.occupied() } else { theirs };
    let mut attacked = B::EMPTY;
    let safe_check = out.wants(scalar(Scalar::SafeCheck));
    let (mut reached, mut checks) = (B::EMPTY, B::EMPTY);
    let their_king = pos.king(!us).filter(|_| safe_check);
    for kind in 0..rules.piece_types {
        let pieces = pos.pieces_of(us, kind);
        let role = rules.roles[kind];
        if pieces.is_empty() || role == Role::Pawn {
            continue;
        }
        // A kind's mobility and advance are summed over its pieces and
        // added once for the kind.
        let (mut mobility, mut advance) = (0, 0);
        if role == Role::Royal {
            for cell in pieces.cells() {
                advance += rank_advance[cell];
                out.place(t, us, kind, cell);
                let shield = (t.king_ring[cell] & t.passed_span[us as usize][cell] & own_pawns).count() as i32;
                out.count(us, scalar(Scalar::KingShield), shield);
                if king_open_file {
                    let open = t.king_files[cell]
                        .cells()
                        .filter(|&c| (t.front_span[us as usize][c] & own_pawns).is_empty())
                        .count() as i32;
                    out.count(us, scalar(Scalar::KingOpenFile), open);
                }
                attacked |= t.king_ring[cell];
                reached |= t.king_ring[cell];
            }
        } else {
            let victims = if lesser_attacks { theirs & pos.kinds_bb(t.worth_more[kind]) } else { B::EMPTY };
            // The cells from which a piece of this kind attacks their king: what
            // one of theirs on the king's cell takes, moving their way (the
            // reverse of ours for any piece that differs only forward and back).
            let check_cells = match their_king {
                Some(king) => rules.targets(!us, kind, king, blockers, B::EMPTY, !B::EMPTY).1,
                None => B::EMPTY,
            };
            // Looked up once for the kind, not once a piece.
            let moves = &*rules.moves[us as usize][kind];
            let value = t.values[kind];
            let on_open_file = open_file && t.file_riders[kind];
            for cell in pieces.cells() {
                advance += rank_advance[cell];
                out.place(t, us, kind, cell);
                material += value;
                let (quiet, captures) = rules.targets_of(moves, cell, blockers, vacant, capturable);
                attacked |= captures;
                let reach = quiet | (captures & theirs);
                reached |= quiet | captures;
                checks |= reach & check_cells;
                mobility += reach.count() as i32;
                unsafe_reach += (reach & their_pawn_attacks).count() as i32;
                if lesser_attacks {
                    threatened |= captures & victims;
                }
                if on_open_file && (t.front_span[us as usize][cell] & own_pawns).is_empty() {
                    out.count(us, scalar(Scalar::OpenFile), 1);
                }
                if outpost
                    && rank_advance[cell] >= OUTPOST_ADVANCE
                    && pawn_attacks[us as usize].has(cell)
                    && (t.adjacent_files[rules.geometry.file(cell)]
                        & t.passed_span[us as usize][cell]
                        & pawns[!us as usize])
                        .is_empty()
                {
                    out.count(us, scalar(Scalar::Outpost), 1);
                }
                let on_king = (reach & enemy_king_ring).count() as i32;
                if on_king > 0 {
                    king_attackers += 1;
                    king_attacks += on_king;
                }
            }
        }
        out.add(us, per_kind(PerKind::Advance, kind), advance);
        if role == Role::Other {
            out.count(us, per_kind(PerKind::Mobility, kind), mobility);
        }
        if bound_pair && t.colourbound[kind] && (pieces & t.light_cells).any() && (pieces & !t.light_cells).any() {
            out.count(us, scalar(Scalar::BoundPair), 1);
        }
    }
    out.count(us, scalar(Scalar::ReachIntoPawnAttacks), unsafe_reach);
    if lesser_attacks {
        out.count(us, scalar(Scalar::LesserAttacks), threatened.count() as i32);
    }
    // Two attackers on the king's ring are a threat; one is usually not.
    if king_attackers >= 2 {
        out.count(us, scalar(Scalar::KingAttack), king_attacks * king_attackers);
    }
    if out.wants(scalar(Scalar::PassedBlocked)) || out.wants(scalar(Scalar::PassedKingDistance)) {
        passers(pos, t, us, pawns, out);
    }
    if pos.tiles_move() {
        tiles(pos, t, us, own_pawns, out);
    }
    SideReach { material, attacked, reached, checks }
}

/// What [`side`] found of one side for the terms that weigh both.
struct SideReach<B> {
    material: i32,
    /// Pieces its pieces attack (every piece where hanging pieces are
    /// weighed, else only the other side's).
    attacked: B,
    /// Cells its pieces and king move to or take on.
    reached: B,
    /// Cells one of its pieces moves to or takes on to give check.
    checks: B,
}

/// What stands before one side's passed pawns: a piece on the cell ahead,
/// and which king is nearer to that cell (these read more than the pawns,
/// so they are not kept in the pawn cache).
fn passers<B: Bitboard, T: Terms>(pos: &Position<B>, t: &EvalTables<B>, us: Color, pawns: [B; 2], out: &mut T) {
    let rules = pos.rules();
    let g = rules.geometry;
    let steps = |a: usize, b: usize| g.file(a).abs_diff(g.file(b)).max(g.rank(a).abs_diff(g.rank(b))) as i32;
    let kings = (pos.king(us), pos.king(!us));
    let occupied = pos.occupied();
    let promotion_rank = usize::from(rules.variant.promotion.ranks[us as usize]);
    for cell in pawns[us as usize].cells() {
        let ahead = t.front_span[us as usize][cell];
        if ahead.is_empty() || !t.is_passed(us, cell, pawns[!us as usize]) {
            continue;
        }
        let stop = if promotion_rank > g.rank(cell) { ahead.lowest() } else { ahead.highest() };
        if occupied.has(stop) {
            out.count(us, scalar(Scalar::PassedBlocked), 1);
        }
        if let (Some(ours), Some(theirs)) = kings {
            out.add(
                us,
                scalar(Scalar::PassedKingDistance),
                (steps(theirs, stop) - steps(ours, stop)) * t.advancement[us as usize][cell],
            );
        }
    }
}

/// `color`'s pieces other than its pawns and its king: what threats
/// threaten.
fn pieces_but_pawns_and_king<B: Bitboard>(pos: &Position<B>, color: Color, pawns: [B; 2]) -> B {
    pos.pieces(color) & !pawns[color as usize] & !pos.king(color).map_or(B::EMPTY, B::cell)
}

/// The cells `color`'s pawns attack by their capturing leaps (a pawn
/// that captures by riding, which no built-in variant has, is not
/// counted for those captures).
fn pawn_attacks<B: Bitboard>(pos: &Position<B>, color: Color) -> B {
    let moves = &pos.rules().moves[color as usize];
    let mut attacks = B::EMPTY;
    for kind in kinds_in(pos.rules().pawn_kinds) {
        let pawns = pos.pieces_of(color, kind);
        match &moves[kind].steps {
            // All the kind's pawns at once, as the tables would give them.
            Some(steps) => attacks |= steps.capture_targets(pawns),
            None => {
                for cell in pawns.cells() {
                    attacks |= moves[kind].leaps[cell].capture;
                }
            }
        }
    }
    attacks
}

/// Rifts and moving tiles, for one side (see the module comment).
fn tiles<B: Bitboard, T: Terms>(pos: &Position<B>, t: &EvalTables<B>, us: Color, own_pawns: B, out: &mut T) {
    let rules = pos.rules();
    let g = rules.geometry;
    let Some(king) = pos.king(us) else { return };
    let boxed_in = (t.king_ring[king] & pos.rifts()).count() as i32;
    out.count(us, scalar(Scalar::RiftBesideKing), boxed_in);

    // A rift that shields our king from an enemy rider, where a vacant tile
    // from off the line could be shifted in: one tile shift from check (a
    // tile from the line itself leaves a rift behind on it).
    let vacant = pos.vacant();
    let fillable = |r: usize, line: B| {
        [(0, 1), (0, -1), (1, 0), (-1, 0)].iter().any(|&(dx, dy)| {
            g.offset(r, protean_rules::geometry::Step::new(dx, dy)).is_some_and(|n| vacant.has(n) && !line.has(n))
        })
    };
    let blockers = pos.blockers();
    for &(dir, positive, types) in &rules.attacks[!us as usize].pin_lines {
        let ray = rules.full_rays[dir][king];
        let Some(first) = Rules::<B>::first_blocker(ray, positive, blockers) else { continue };
        if !pos.rifts().has(first) || !fillable(first, ray) {
            continue;
        }
        let behind = Rules::<B>::first_blocker(ray, positive, blockers ^ B::cell(first));
        if behind.and_then(|b| pos.piece_at(b)).is_some_and(|p| p.color() != us && types >> p.kind() & 1 == 1) {
            out.count(us, scalar(Scalar::RiftOpensLine), 1);
        }
    }

    // Pawns one or two ranks from promotion.
    for cell in own_pawns.cells() {
        match (rules.variant.promotion.ranks[us as usize] as i32 - g.rank(cell) as i32).abs() {
            1 => out.add(us, scalar(Scalar::PawnOneFromPromotion), ONE),
            2 => out.add(us, scalar(Scalar::PawnTwoFromPromotion), ONE),
            _ => {}
        }
    }
}

/// Every term of the position but the tempo, into `out`; returns the game
/// phase, from 256 (all the start's pieces other than pawns and kings on
/// the board) down to 0.
pub fn terms<B: Bitboard, T: Terms>(pos: &Position<B>, t: &EvalTables<B>, out: &mut T) -> i32 {
    let pawns = pawn_sets(pos);
    for us in Color::ALL {
        pawn_structure(pos, t, us, pawns, out);
    }
    piece_terms(pos, t, pawns, out)
}

/// The kinds in the bit set `set`.
fn kinds_in(mut set: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        let kind = (set != 0).then(|| set.trailing_zeros() as usize);
        set &= set.wrapping_sub(1);
        kind
    })
}

/// Each colour's pawns (pieces of every pawn kind).
fn pawn_sets<B: Bitboard>(pos: &Position<B>) -> [B; 2] {
    let all_pawns = pos.kinds_bb(pos.rules().pawn_kinds);
    [all_pawns & pos.pieces(Color::White), all_pawns & pos.pieces(Color::Black)]
}

/// The terms of both sides but their pawn structures; returns the game
/// phase (see [`terms`]).
fn piece_terms<B: Bitboard, T: Terms>(pos: &Position<B>, t: &EvalTables<B>, pawns: [B; 2], out: &mut T) -> i32 {
    // Only the pawn terms below, hanging pieces, safe checks and outposts
    // ask where pawns attack.
    let hanging = out.wants(scalar(Scalar::Hanging));
    let safe_check = out.wants(scalar(Scalar::SafeCheck));
    let attacks = if hanging
        || safe_check
        || out.wants(scalar(Scalar::PawnThreat))
        || out.wants(scalar(Scalar::ReachIntoPawnAttacks))
        || out.wants(scalar(Scalar::Outpost))
    {
        [pawn_attacks(pos, Color::White), pawn_attacks(pos, Color::Black)]
    } else {
        [B::EMPTY; 2]
    };
    let sides = [side(pos, t, Color::White, pawns, attacks, out), side(pos, t, Color::Black, pawns, attacks, out)];
    // The terms that weigh one side's reach against the other's.
    for us in Color::ALL {
        let (ours, theirs) = (us as usize, !us as usize);
        if hanging {
            let undefended = pieces_but_pawns_and_king(pos, !us, pawns)
                & (sides[ours].attacked | attacks[ours])
                & !(sides[theirs].attacked | attacks[theirs]);
            out.count(us, scalar(Scalar::Hanging), undefended.count() as i32);
        }
        if safe_check {
            let safe = sides[ours].checks & !sides[theirs].reached & !attacks[theirs];
            out.count(us, scalar(Scalar::SafeCheck), safe.count() as i32);
        }
    }
    ((sides[0].material + sides[1].material) * 256 / t.start_material).min(256)
}

/// Both sides' pawn structure terms, summed with their weights, by the
/// pawns' cells: a search thread's positions share few pawn structures,
/// so most evaluations find theirs here.
pub struct PawnCache {
    entries: Vec<(u64, [Score; 2])>,
}

/// Entries of a pawn cache (a power of two: 96 KiB a thread).
const PAWN_CACHE_ENTRIES: usize = 1 << 12;

impl PawnCache {
    pub fn new() -> PawnCache {
        PawnCache { entries: vec![(0, [Score::default(); 2]); PAWN_CACHE_ENTRIES] }
    }

    pub fn clear(&mut self) {
        self.entries.fill((0, [Score::default(); 2]));
    }

    /// The key of `pos`'s pawns under the tables `t`: the position's
    /// pawn key, and the rules (a rule change may revalue pawns).
    fn key<B: Bitboard>(pos: &Position<B>, t: &EvalTables<B>) -> u64 {
        // Never 0, the key of an empty entry.
        (pos.pawn_key() ^ t.rules_key) | 1
    }
}

impl Default for PawnCache {
    fn default() -> PawnCache {
        PawnCache::new()
    }
}

/// `s` blended between middle game and end game by `phase`.
#[inline(always)]
pub fn taper(s: Score, phase: i32) -> i32 {
    (s.mg * phase + s.eg * (256 - phase)) / 256
}

/// The position's value in centipawns for the side to move.
pub fn evaluate<B: Bitboard>(pos: &Position<B>, t: &EvalTables<B>) -> i32 {
    let mut sum = Summed { weights: &t.weights, sides: [Score::default(); 2] };
    let phase = terms(pos, t, &mut sum);
    finish(pos, t, sum.sides, phase)
}

/// [`evaluate`], with the pawn structure terms from `cache` where it has
/// them (the same sums: integer terms added in another order).
pub fn evaluate_cached<B: Bitboard>(pos: &Position<B>, t: &EvalTables<B>, cache: &mut PawnCache) -> i32 {
    let pawns = pawn_sets(pos);
    let key = PawnCache::key(pos, t);
    let slot = &mut cache.entries[key as usize & (PAWN_CACHE_ENTRIES - 1)];
    let sides = if slot.0 == key {
        slot.1
    } else {
        let mut sum = Summed { weights: &t.weights, sides: [Score::default(); 2] };
        for us in Color::ALL {
            pawn_structure(pos, t, us, pawns, &mut sum);
        }
        *slot = (key, sum.sides);
        sum.sides
    };
    let mut sum = Summed { weights: &t.weights, sides };
    let phase = piece_terms(pos, t, pawns, &mut sum);
    finish(pos, t, sum.sides, phase)
}

/// White's and Black's sums blended by `phase`, for the side to move,
/// with the tempo.
fn finish<B: Bitboard>(pos: &Position<B>, t: &EvalTables<B>, [white, black]: [Score; 2], phase: i32) -> i32 {
    let score = taper(Score::new(white.mg - black.mg, white.eg - black.eg), phase);
    let score = if pos.side_to_move() == Color::White { score } else { -score };
    score + taper(t.weights[scalar(Scalar::Tempo)], phase)
}

#[cfg(test)]
mod tests {
    use super::*;
    use protean_rules::AnyRules;

    #[test]
    fn values_from_mobility_match_chess_experience() {
        let AnyRules::Small(rules) = AnyRules::by_name("standard").unwrap() else { panic!() };
        let v: Vec<i32> = (1..5).map(|k| piece_value(&rules, k)).collect();
        let (n, b, r, q) = (v[0], v[1], v[2], v[3]);
        assert!((290..=350).contains(&n), "knight {n}");
        assert!((300..=360).contains(&b), "bishop {b}");
        assert!((470..=560).contains(&r), "rook {r}");
        assert!((880..=1000).contains(&q), "queen {q}");
        assert!(n < r && b < r && r < q);
    }

    #[test]
    fn symmetric_positions_are_equal_but_for_tempo() {
        for variant in ["standard", "perfect", "beyond"] {
            let pos = AnyRules::by_name(variant).unwrap().start();
            let (score, tempo) = protean_rules::with_position!(&pos, p => {
                let t = EvalTables::new(p.rules());
                (evaluate(p, &t), t.weights()[scalar(Scalar::Tempo)].mg)
            });
            // All the start's pieces on the board: the middle-game tempo.
            assert_eq!(score, tempo, "{variant}");
        }
    }

    /// `fen` seen from the other side: the ranks in reverse order, the
    /// colours of the pieces, the side to move, the castling rights and
    /// the en-passant rank swapped (a board whose tiles stay put).
    fn colours_swapped(fen: &str) -> String {
        let swap = |c: char| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() };
        let fields: Vec<&str> = fen.split(' ').collect();
        let ranks: Vec<String> = fields[0].split('/').rev().map(|r| r.chars().map(swap).collect()).collect();
        let side = if fields[1] == "w" { "b" } else { "w" };
        let mut castling: Vec<char> = fields[2].chars().map(swap).collect();
        castling.sort_by_key(|&c| (c.is_ascii_lowercase(), c));
        let en_passant = match fields[3] {
            "-" => "-".to_string(),
            cell => format!("{}{}", &cell[..1], ranks.len() + 1 - cell[1..].parse::<usize>().unwrap()),
        };
        format!(
            "{} {side} {} {en_passant} {}",
            ranks.join("/"),
            castling.into_iter().collect::<String>(),
            fields[4..].join(" ")
        )
    }

    /// Every term is written for either side alike: a position and its
    /// mirror image with the colours swapped evaluate the same for the
    /// side to move, over random games (an asymmetric term, a table built
    /// for one colour only, shows here).
    #[test]
    fn a_position_and_its_colour_swapped_mirror_evaluate_alike() {
        let mut random = crate::skill::Random::seeded(7);
        for variant in ["standard", "perfect"] {
            let rules = AnyRules::by_name(variant).unwrap();
            for _game in 0..30 {
                let mut pos = rules.start();
                for _ply in 0..80 {
                    let moves = pos.legal_move_list();
                    if moves.is_empty() {
                        break;
                    }
                    pos.make(moves[random.below(moves.len() as u64) as usize]);
                    let mirror = rules.from_fen(&colours_swapped(&pos.fen())).unwrap();
                    let [a, b] = [&pos, &mirror]
                        .map(|p| protean_rules::with_position!(p, q => evaluate(q, &EvalTables::new(q.rules()))));
                    assert_eq!(a, b, "{variant}: {} against its mirror {}", pos.fen(), mirror.fen());
                }
            }
        }
    }

    /// The tables a rule change's rules get from the root's
    /// (`for_changed_rules`) are those built from nothing, along random
    /// lines of Flexichess with rule changes two and three deep, from
    /// roots with and without changes of their own.
    #[test]
    fn tables_for_changed_rules_are_those_built_from_nothing() {
        let mut random = crate::skill::Random::seeded(11);
        let rules = AnyRules::by_name("flexichess").unwrap();
        let roots = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 -",
            "r1bq1rk1/ppp1nppp/4n3/3p3Q/3P4/1BP1B3/PP1N2PP/R4RK1 w - - 1 16 P=fmWfcF,B=F",
        ];
        let mut compared = 0;
        for fen in roots {
            let root = rules.from_fen(fen).unwrap();
            protean_rules::with_position!(&root, p => {
                let root_tables = EvalTables::new(p.rules());
                for _line in 0..12 {
                    let mut pos = p.clone();
                    for _ply in 0..6 {
                        let mut moves = protean_rules::MoveList::new();
                        pos.legal_moves(&mut moves);
                        let changes: Vec<_> = moves.iter().copied().filter(|m| m.kind == protean_rules::MoveKind::Redefine).collect();
                        let pick = if !changes.is_empty() && random.below(2) == 0 { changes[random.below(changes.len() as u64) as usize] } else { moves[random.below(moves.len() as u64) as usize] };
                        pos.make(pick);
                        assert_eq!(root_tables.for_changed_rules(pos.rules()), EvalTables::new(pos.rules()), "{fen} then {}", pos.fen());
                        compared += 1;
                    }
                }
            });
        }
        assert!(compared >= 100);
    }

    /// A piece-square weight counts for a piece of either colour on its
    /// square, seen from the piece's side, on either wing.
    #[test]
    fn piece_square_weights_count_from_the_owners_side() {
        let rules = AnyRules::by_name("standard").unwrap();
        let layout = Layout::of(rules.variant());
        let c3 = layout.square(1, layout.parse_square("c3").unwrap());
        for (fen, sides) in [
            ("4k3/8/8/8/8/2N5/8/4K3 w - - 0 1", [ONE, 0]),
            ("4k3/8/8/8/8/5N2/8/4K3 w - - 0 1", [ONE, 0]),
            ("4k3/8/5n2/8/8/8/8/4K3 w - - 0 1", [0, ONE]),
            ("4k3/8/8/8/8/5n2/8/4K3 w - - 0 1", [0, 0]),
        ] {
            assert_eq!(counted_raw("standard", fen, c3), sides, "{fen}");
            let pos = rules.from_fen(fen).unwrap();
            let gain = protean_rules::with_position!(&pos, p => {
                let weighted = EvalTables::with_weights(p.rules(), "square N c3 40 40").unwrap();
                evaluate(p, &weighted) - evaluate(p, &EvalTables::with_weights(p.rules(), "").unwrap())
            });
            assert_eq!(gain, 40 * (sides[0] - sides[1]) / ONE, "{fen}");
        }
    }

    /// Each side's count of one term, by a recorder of features.
    struct Counts {
        index: usize,
        sides: [i32; 2],
    }
    impl Terms for Counts {
        fn add(&mut self, color: Color, index: usize, feature: i32) {
            if index == self.index {
                self.sides[color as usize] += feature;
            }
        }
    }
    /// Each side's feature of the term at `index` in `fen` (in 256ths,
    /// [`ONE`]).
    fn counted_raw(variant: &str, fen: &str, index: usize) -> [i32; 2] {
        let pos = AnyRules::by_name(variant).unwrap().from_fen(fen).unwrap();
        protean_rules::with_position!(&pos, p => {
            let t = EvalTables::new(p.rules());
            let mut counts = Counts { index, sides: [0, 0] };
            terms(p, &t, &mut counts);
            counts.sides
        })
    }

    /// Each side's count of `term` in `fen`.
    fn counted(variant: &str, fen: &str, term: Scalar) -> [i32; 2] {
        counted_raw(variant, fen, scalar(term)).map(|f| f / ONE)
    }

    #[test]
    fn pawn_threats_unsafe_reach_bishop_pairs_and_open_files_are_counted() {
        // White's d-pawn attacks the knight on e5 and the rook on c5, not
        // the pawn beside them nor the king; Black's f6-pawn covers e5 and g5.
        let fen = "4k3/8/5p2/2r1n1p1/3P4/8/8/4K3 w - - 0 1";
        assert_eq!(counted("standard", fen, Scalar::PawnThreat), [2, 0]);
        // The knight on g3 reaches e4, f5, h5, e2, f1 and h1; the g6-pawn
        // covers f5 and h5.
        let fen = "4k3/8/6p1/8/8/6N1/8/4K3 w - - 0 1";
        assert_eq!(counted("standard", fen, Scalar::ReachIntoPawnAttacks), [2, 0]);
        // Bishops on both colours are a pair; two on one colour are not.
        assert_eq!(counted("standard", "2b1kb2/8/8/8/8/8/8/2B1K1B1 w - - 0 1", Scalar::BoundPair), [0, 1]);
        // The rook on the pawnless d-file counts; the one behind its own
        // pawn on a-file does not; Black's queen on its open h-file does.
        let fen = "4k2q/8/8/8/8/8/P7/R2RK3 w - - 0 1";
        assert_eq!(counted("standard", fen, Scalar::OpenFile), [1, 1]);
        // White's king on g1 has pawns ahead on f, g and h; Black's on e8
        // has none on d, e or f.
        let fen = "4k3/8/8/8/8/8/5PPP/6K1 w - - 0 1";
        assert_eq!(counted("standard", fen, Scalar::KingOpenFile), [0, 3]);
    }

    #[test]
    fn threats_by_lesser_pieces_and_hanging_pieces_are_counted() {
        // White's knight on d4 attacks the rook on c6 and the queen on e6
        // (both worth more) and the bishop on f5 (not clearly more); no
        // black piece attacks a white one worth more.
        let fen = "4k3/8/2r1q3/5b2/3N4/8/8/4K3 w - - 0 1";
        assert_eq!(counted("standard", fen, Scalar::LesserAttacks), [2, 0]);
        // A rook attacking a queen counts; a queen attacking a rook does not.
        assert_eq!(counted("standard", "3qk3/8/8/8/8/8/8/3RK3 w - - 0 1", Scalar::LesserAttacks), [1, 0]);
        // The knight on d4 attacks the bishop on b5, which nothing
        // defends, and the rook on c6, which the queen on a8 defends;
        // Black's rook attacks the knight on c1, which the king defends,
        // and Black's pawn on e5 the knight on d4, which nothing defends.
        let fen = "q3k3/8/2r5/1b2p3/3N4/8/8/2NK4 w - - 0 1";
        assert_eq!(counted("standard", fen, Scalar::Hanging), [1, 1]);
    }

    #[test]
    fn safe_checks_are_counted() {
        // White's rook checks safely from a8 and its knight from e7 (f6 is
        // covered by the g7-pawn); Black's knight checks safely from e2
        // (f3 is covered by the g2-pawn). No king or pawn counts.
        let fen = "6k1/5ppp/8/3N4/3n4/8/5PPP/R5K1 w - - 0 1";
        assert_eq!(counted("standard", fen, Scalar::SafeCheck), [2, 1]);
        // Black's rook checks from b1, which White's rook covers; its
        // own cell b8 cuts White's rook off the eighth rank.
        let fen = "1r4k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1";
        assert_eq!(counted("standard", fen, Scalar::SafeCheck), [0, 0]);
    }

    #[test]
    fn passed_pawns_count_their_blockers_and_the_kings_near_them() {
        // White's e6-passer is blocked by Black's king on its stop cell
        // e7; the b2-pawn is no passer (the a7-pawn guards its path), nor
        // is the a7-pawn; Black's h3-passer has its stop h2 free.
        let fen = "8/p3k3/4P3/8/8/7p/1P6/4K3 w - - 0 1";
        assert_eq!(counted("standard", fen, Scalar::PassedBlocked), [1, 0]);
        // Each passer has come 4 of its 6 ranks (170/256). White's stop e7
        // is 0 steps from Black's king and 6 from White's; Black's stop h2
        // is 3 from White's king and 5 from Black's.
        let advance = 4 * ONE / 6;
        assert_eq!(
            counted_raw("standard", fen, scalar(Scalar::PassedKingDistance)),
            [(0 - 6) * advance, (3 - 5) * advance]
        );
    }

    #[test]
    fn connected_pawns_are_counted() {
        // White: c3 defends d4, e4 stands beside d4 (d4 and e4 count),
        // a2 and h2 stand alone. Black: f7 and g6 are a chain (g6
        // counts), b7 and c6 a chain (c6 counts), a5 alone.
        let fen = "4k3/1p3p2/2p3p1/p7/3PP3/2P5/P6P/4K3 w - - 0 1";
        assert_eq!(counted("standard", fen, Scalar::Connected), [2, 2]);
        // d4 and e4 have come 2 of 6 ranks, g6 and c6 1 of 6.
        assert_eq!(counted_raw("standard", fen, scalar(Scalar::ConnectedAdvance)), [2 * (2 * ONE / 6), 2 * (ONE / 6)]);
    }

    #[test]
    fn outposts_and_how_far_pieces_stand_up_the_board_are_counted() {
        // The knight on e5 is defended by the d4-pawn and no black pawn on
        // the d- or f-file can chase it; the bishop on b5, defended by the
        // a4-pawn, can be chased by the c6-pawn.
        let fen = "4k3/8/2p5/1B2N3/P2P4/8/8/4K3 w - - 0 1";
        assert_eq!(counted("standard", fen, Scalar::Outpost), [1, 0]);
        // The knight stands on the fifth rank, 4 of 7 ranks up; both
        // kings stand on their first ranks.
        let knight = 1;
        assert_eq!(counted_raw("standard", fen, per_kind(PerKind::Advance, knight)), [4 * 256 / 7, 0]);
        assert_eq!(counted_raw("standard", fen, per_kind(PerKind::Advance, 5)), [0, 0]);
        assert_eq!(
            counted_raw("standard", "8/8/8/3k4/8/8/8/4K3 w - - 0 1", per_kind(PerKind::Advance, 5)),
            [0, 3 * 256 / 7]
        );
    }

    #[test]
    fn the_one_dimensional_pieces_have_sane_values() {
        let AnyRules::Small(rules) = AnyRules::by_name("onedim").unwrap() else { panic!() };
        let v: Vec<i32> = (1..5).map(|k| piece_value(&rules, k)).collect();
        let (q, r, b, n) = (v[0], v[1], v[2], v[3]);
        assert!(n > 100 && b > 100 && r > 100, "{v:?}");
        assert!(q > r && q > b && q > n, "{v:?}");
    }

    /// A sum that takes every term through `add`, whole features and
    /// placed pieces too: the reference for the sum's own `count` and
    /// `place`.
    struct AddedOnly<'a>(Summed<'a>);

    impl Terms for AddedOnly<'_> {
        fn wants(&self, index: usize) -> bool {
            self.0.wants(index)
        }
        fn add(&mut self, color: Color, index: usize, feature: i32) {
            self.0.add(color, index, feature);
        }
    }

    #[test]
    fn cached_and_counted_sums_are_the_evaluation() {
        // One cache through random games of every variant (rule changes
        // and tile shifts included): each evaluation equals the uncached
        // one, whether its pawns were cached or not, and the one that
        // weighs whole features as 256ths divided by 256 and each placed
        // piece's terms one by one.
        let mut cache = PawnCache::new();
        let mut hits = 0;
        for variant in ["standard", "perfect", "onedim", "beyond", "flexichess"] {
            let mut pos = AnyRules::by_name(variant).unwrap().start();
            let mut s = 12345u64;
            for _ in 0..150 {
                let moves = pos.legal_move_list();
                if moves.is_empty() {
                    break;
                }
                protean_rules::with_position!(&pos, p => {
                    let t = EvalTables::new(p.rules());
                    hits += usize::from(cache.entries.iter().any(|e| e.0 == PawnCache::key(p, &t)));
                    assert_eq!(evaluate_cached(p, &t, &mut cache), evaluate(p, &t), "{variant}: {}", p.fen());
                    assert_eq!(evaluate_cached(p, &t, &mut cache), evaluate(p, &t), "{variant}, cached: {}", p.fen());
                    let mut added = AddedOnly(Summed { weights: &t.weights, sides: [Score::default(); 2] });
                    let phase = terms(p, &t, &mut added);
                    assert_eq!(finish(p, &t, added.0.sides, phase), evaluate(p, &t), "{variant}, added: {}", p.fen());
                });
                s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                pos.make(moves[(s >> 33) as usize % moves.len()]);
            }
        }
        assert!(hits > 100, "{hits} positions found their pawns cached");
    }

    #[test]
    fn an_extra_queen_is_winning() {
        let rules = AnyRules::by_name("standard").unwrap();
        let pos = rules.from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
        let score = protean_rules::with_position!(&pos, p => evaluate(p, &EvalTables::new(p.rules())));
        assert!(score > 700, "{score}");
    }

    fn beyond(rows: [&str; 8], rest: &str) -> i32 {
        let rifts = "****************";
        let mut all = vec![rifts.to_string(); 4];
        all.extend(rows.iter().map(|r| format!("****{r}****")));
        all.extend(vec![rifts.to_string(); 4]);
        let pos = AnyRules::by_name("beyond").unwrap().from_fen(&format!("{} {rest}", all.join("/"))).unwrap();
        protean_rules::with_position!(&pos, p => evaluate(p, &EvalTables::new(p.rules())))
    }

    #[test]
    fn rifts_beside_a_king_cost_it() {
        let open = beyond(["4k3", "8", "8", "8", "8", "8", "8", "R3K3"], "w - - 0 9 -");
        let boxed = beyond(["4k3", "8", "8", "8", "8", "8", "3***2", "R3K3"], "w - - 0 9 -");
        assert!(boxed < open, "{boxed} against {open}");
    }

    #[test]
    fn a_rift_one_shift_from_opening_a_line_onto_the_king_is_a_threat() {
        // The rift on e5 stands between the black rook and the white king;
        // with d5 vacant a tile can be shifted in and the file opens.
        let fillable = beyond(["4r1k1", "8", "8", "4*3", "8", "8", "8", "R3K3"], "w - - 0 9 -");
        let sealed = beyond(["4r1k1", "8", "8", "3***2", "8", "8", "8", "R3K3"], "w - - 0 9 -");
        assert!(fillable < sealed - 20, "{fillable} against {sealed}");
    }

    #[test]
    fn a_pawn_next_to_its_promotion_rank_is_worth_more() {
        let near = beyond(["4k3", "P7", "8", "8", "8", "8", "8", "4K3"], "w - - 0 9 -");
        let far = beyond(["4k3", "8", "8", "P7", "8", "8", "8", "4K3"], "w - - 0 9 -");
        assert!(near > far + 40, "{near} against {far}");
    }

    #[test]
    fn a_redefined_piece_is_valued_from_its_new_moves() {
        let mut pos = AnyRules::by_name("flexichess").unwrap().start();
        let knight =
            |p: &protean_rules::AnyPosition| protean_rules::with_position!(p, q => EvalTables::new(q.rules()).value(1));
        let before = knight(&pos);
        pos.play("N=QN").unwrap();
        let amazon = knight(&pos);
        pos.play("N=W").unwrap();
        let wazir = knight(&pos);
        assert!(amazon > 1000 && wazir < before && before < amazon, "wazir {wazir}, knight {before}, amazon {amazon}");
    }
}
