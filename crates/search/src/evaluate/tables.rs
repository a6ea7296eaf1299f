//! Table building: everything the evaluation reads that the rules
//! decide and no position does, worked out once per rule set. The board,
//! the start position and the pawns decide spans, rings, centrality and
//! advancement (`EvalTables::of_board`); the pieces' moves decide their
//! values, the weights and what a piece adds by its kind and cell alone
//! (`EvalTables::weigh_pieces`), which is all a rule change (Flexichess)
//! has to redo.

use super::values::{piece_value, PAWN_EG, PAWN_MG};
use crate::weights::{per_kind, Layout, PerKind, Score, Weights};
use protean_rules::variant::Role;
use protean_rules::{Bitboard, Color, Rules};
use std::sync::Arc;

/// Precomputed evaluation tables for one variant and board size.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalTables<B> {
    /// Every term's weight, by `weights` index.
    pub(super) weights: Vec<Score>,
    /// Where the terms are in `weights`.
    pub layout: Layout,
    /// For each colour and cell: where the piece-square weight of a
    /// piece of the first kind there is (see [`Layout`]); a later kind's
    /// is `squares_per_kind` further on each kind. Kept whole so that the
    /// evaluation adds, not computes the layout, per piece.
    pub(super) piece_squares: [Vec<usize>; 2],
    pub(super) squares_per_kind: usize,
    /// For each colour, by kind then cell (`kind * cells + cell`): what a
    /// piece there adds by the terms of one piece on one cell, its
    /// kind's worth, its cell's centrality and its piece-square weight,
    /// summed with their weights (see [`Terms::place`]).
    pub(super) placed: [Vec<Score>; 2],
    /// Each kind's value from how it moves (middle game): what exchanges
    /// and the game phase count, whatever the fitted weights say.
    pub(super) values: Vec<i32>,
    /// How close to the centre each cell is (0 at the far edge).
    pub(super) centrality: Vec<i32>,
    /// For each colour and cell: how far a pawn there has come, 0 at its
    /// start rank, 1.0 (scaled to 256) on its promotion rank.
    pub(super) advancement: [Vec<i32>; 2],
    pub(super) adjacent_files: Vec<B>,
    /// Cells ahead of a cell on its own and the adjacent files, per colour.
    pub(super) passed_span: [Vec<B>; 2],
    /// Cells ahead on the same file, per colour.
    pub(super) front_span: [Vec<B>; 2],
    /// The cells around each cell that a king attacks.
    pub(super) king_ring: Vec<B>,
    /// The cells whose attack endangers a king on each cell (Stockfish's
    /// king ring): the 3x3 block around the cell, moved off the board's
    /// edges so that a king on its first rank has the two ranks before it.
    pub(super) danger_ring: Vec<B>,
    /// A king's flank, per colour and cell: its file and those beside it
    /// (moved off the edge as the ring is), from its own first rank up to
    /// one rank past the middle (Stockfish's `KingFlank & Camp`).
    pub(super) king_flank: [Vec<B>; 2],
    /// Kinds worth at least two thirds of the most valuable kind (a queen
    /// and the compounds beside it): without one, an attack on a king
    /// seldom mates.
    pub(super) major: Vec<bool>,
    /// Non-pawn material of the start position (by `values`), for the
    /// game phase.
    pub(super) start_material: i32,
    /// The key of the rules these tables were made for.
    pub rules_key: u64,
    /// Each kind's Betza in those rules, with its value (see
    /// [`piece_value`]).
    pub(super) valued: Vec<(String, Score)>,
    /// Kinds a rule change redefined: their own weights are the defaults
    /// of their new moves, not fitted ones.
    pub redefined: Vec<bool>,
    /// Kinds from least to most valuable, the king last: the order in
    /// which static exchange evaluation brings attackers in.
    pub exchange_order: Vec<usize>,
    /// The cells of one colour (a1's), for colour-bound pieces.
    pub(super) light_cells: B,
    /// Kinds bound to cells of one colour.
    pub(super) colourbound: Vec<bool>,
    /// Kinds that slide along their file, moving and capturing.
    pub(super) file_riders: Vec<bool>,
    /// Each cell and its neighbours on its rank: the files a king there
    /// wants sheltered, and where a pawn's phalanx stands.
    pub(super) king_files: Vec<B>,
    /// For each kind, the kinds (neither pawns nor royal) worth clearly
    /// more (bit set): the victims its attacks threaten.
    pub(super) worth_more: Vec<u32>,
    /// For each colour and cell: how far up the board from that colour's
    /// side the cell is, 0 on its first rank, 256 on the last.
    pub(super) rank_advance: [Vec<i32>; 2],
    /// For each colour and cell: where a king stands well in the middle
    /// game, in 256ths (see [`KING_PLACEMENT`]); nothing on a board of one
    /// rank.
    pub(super) king_placement: [Vec<i32>; 2],
    /// The weights file read at run time that these tables weigh by
    /// (`Options::weights_file`); `None`: the built-in one.
    file: Option<Arc<str>>,
}

/// How much more (by `values`) a victim must be worth than its attacker
/// for the attack to count as a threat: a knight on a bishop is none.
const THREAT_MARGIN: i32 = 50;

/// [`crate::weights::Scalar::KingPlacement`]'s feature by rank from the
/// king's own side (the eighth row for any further) and file from the
/// nearer edge (the fourth for any further in): Stockfish's classical
/// middle-game king table less its value on d1, over the value b1 has above
/// d1 (129 of its centipawns), in 256ths. A king is best on its first rank
/// a file or two from the edge, where it castles to, and worse the further
/// it comes out.
const KING_PLACEMENT: [[i32; 4]; 8] = [
    [145, 256, 145, 0],
    [159, 208, 71, -38],
    [-6, 119, -58, -155],
    [-67, -16, -119, -198],
    [-87, -38, -185, -254],
    [-149, -105, -232, -331],
    [-218, -155, -264, -327],
    [-276, -216, -304, -395],
];

/// The weights file built in for `rules`' variant (none: the defaults).
fn built_in_weights<B: Bitboard>(rules: &Rules<B>) -> &'static str {
    Weights::built_in(&rules.variant).unwrap_or("")
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

    /// The tables of `rules` with the weights of `file`, a weights file
    /// read at run time, over the defaults; rules that a rule change
    /// makes from these are weighed by it too.
    pub fn with_file(rules: &Rules<B>, file: Arc<str>) -> Result<EvalTables<B>, crate::weights::WeightsError> {
        let mut tables = EvalTables::with_weights(rules, &file)?;
        tables.file = Some(file);
        Ok(tables)
    }

    /// What [`EvalTables::new`] builds for `rules`, rules that a rule
    /// change (Flexichess) made from the rules of `self`: the board, the
    /// start and the pawns are theirs, so only what the pieces' moves
    /// decide is worked out again (a search meets thousands of such sets,
    /// and the board's tables took most of the time).
    pub fn for_changed_rules(&self, rules: &Rules<B>) -> EvalTables<B> {
        let mut tables = self.clone();
        // A file that weighed the rules before weighs their letters now.
        let text = self.file.as_deref().unwrap_or_else(|| built_in_weights(rules));
        tables.weigh_pieces(rules, text).expect("a file read for the letters of these rules");
        tables
    }

    /// The tables that the board, the start position and the pawns decide,
    /// the same for every rule set a rule change reaches; what the pieces'
    /// moves decide is left empty for [`EvalTables::weigh_pieces`].
    pub(super) fn of_board(rules: &Rules<B>) -> EvalTables<B> {
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
        // The block's centre: one cell in from an edge, where there is room.
        let inward = |x: usize, n: usize| if n >= 3 { x.clamp(1, n - 2) } else { x };
        let block = |files: std::ops::RangeInclusive<usize>, ranks: &dyn Fn(usize) -> bool| {
            (0..g.cells())
                .filter(|&o| files.contains(&g.file(o)) && ranks(g.rank(o)))
                .fold(B::EMPTY, |b, o| b | B::cell(o))
        };
        let around = |x: usize, n: usize| x.saturating_sub(1)..=(x + 1).min(n.saturating_sub(1));
        let danger_ring: Vec<B> = (0..g.cells())
            .map(|c| {
                let (f, r) = (inward(g.file(c), w), inward(g.rank(c), h));
                block(around(f, w), &|rank| around(r, h).contains(&rank))
            })
            .collect();
        let camp = h / 2 + 1;
        let king_flank = Color::ALL.map(|color| {
            (0..g.cells())
                .map(|c| {
                    let in_camp = |rank: usize| if color == Color::White { rank < camp } else { rank >= h - camp };
                    block(around(inward(g.file(c), w), w), &in_camp)
                })
                .collect()
        });
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
        let king_placement = Color::ALL.map(|color| {
            (0..g.cells())
                .map(|c| {
                    let up = if color == Color::White { g.rank(c) } else { h - 1 - g.rank(c) };
                    let from_edge = g.file(c).min(w - 1 - g.file(c));
                    if h > 1 {
                        KING_PLACEMENT[up.min(7)][from_edge.min(3)]
                    } else {
                        0
                    }
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
            danger_ring,
            king_flank,
            major: Vec::new(),
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
            king_placement,
            file: None,
        }
    }

    /// The tables that the pieces' moves decide (their values, the
    /// weights, with `text`'s over the defaults, and what is summed from
    /// them), for `rules` on the board of `self`.
    pub(super) fn weigh_pieces(&mut self, rules: &Rules<B>, text: &str) -> Result<(), crate::weights::WeightsError> {
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
        let most = (0..rules.piece_types).filter(|&k| rules.roles[k] == Role::Other).map(|k| values[k]).max();
        self.major = (0..rules.piece_types)
            .map(|k| rules.roles[k] == Role::Other && most.is_some_and(|m| values[k] * 3 >= m * 2))
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
    pub(super) fn weigh_placement(&self, color: Color, kind: usize, cell: usize) -> Score {
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
    pub(super) fn is_passed(&self, us: Color, cell: usize, their_pawns: B) -> bool {
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
    pub(super) fn piece_square(&self, color: Color, kind: usize, cell: usize) -> usize {
        self.piece_squares[color as usize][cell] + kind * self.squares_per_kind
    }

    /// What a piece of `color` and `kind` on `cell` adds by its worth,
    /// centrality and piece-square weight (see [`Terms::place`]).
    #[inline(always)]
    pub(super) fn placed(&self, color: Color, kind: usize, cell: usize) -> Score {
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
