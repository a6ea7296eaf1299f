//! Static evaluation, generic over board size and pieces.
//!
//! Nothing here names a piece: values come from how a piece moves (its
//! Betza legs), and every positional term is built from the board's
//! geometry, so any variant, and any rule change, is evaluated sanely.
//! Terms: material, centrality, pawn advancement and structure (doubled,
//! isolated, passed), mobility, king safety (attacks on the king's ring
//! and the pawn shield), blended between middle game and end game by the
//! non-pawn material left, plus a tempo bonus. Where tiles move (Beyond
//! Chess), three terms know what rifts do: rifts beside a king take its
//! flight cells, a rift that a tile shift could fill is a line waiting to
//! open onto a king, and a pawn near the rank where it promotes (which
//! runs across the whole arena) is a threat from anywhere.

use protean_rules::betza::UNLIMITED;
use protean_rules::variant::Role;
use protean_rules::{Bitboard, Color, Position, Rules};

/// Centipawns per unit of effective mobility (see [`piece_value`]).
const VALUE_PER_MOVE: f64 = 61.0;
const PAWN_MG: i32 = 90;
const PAWN_EG: i32 = 125;
const TEMPO: i32 = 12;

/// Precomputed evaluation tables for one variant and board size.
#[derive(Debug)]
pub struct EvalTables<B> {
    /// Middle-game and end-game value of each kind of piece.
    pub values: Vec<(i32, i32)>,
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
    /// Non-pawn material of the start position, for the game phase.
    start_material: i32,
    /// The key of the rules these tables were made for.
    pub rules_key: u64,
    /// Kinds from least to most valuable, the king last: the order in
    /// which static exchange evaluation brings attackers in.
    pub exchange_order: Vec<usize>,
}

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
                        total += weight * 0.75f64.powi(k as i32);
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
    pub fn new(rules: &Rules<B>) -> EvalTables<B> {
        let g = rules.geometry;
        let (w, h) = (g.width(), g.height());
        let values: Vec<(i32, i32)> = (0..rules.piece_types)
            .map(|k| match rules.roles[k] {
                Role::Royal => (0, 0),
                Role::Pawn => (PAWN_MG, PAWN_EG),
                Role::Other => {
                    let v = piece_value(rules, k);
                    (v, v + v / 10)
                }
            })
            .collect();
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
        let ahead = |color: Color, c: usize, r: usize| if color == Color::White { r > g.rank(c) } else { r < g.rank(c) };
        let mut passed_span = [vec![B::EMPTY; g.cells()], vec![B::EMPTY; g.cells()]];
        let mut front_span = [vec![B::EMPTY; g.cells()], vec![B::EMPTY; g.cells()]];
        let mut advancement = [vec![0; g.cells()], vec![0; g.cells()]];
        let start_pawns = protean_rules::fen::parse_placement(&rules.variant, rules.variant.start_fen.split(' ').next().unwrap_or("")).map(|p| p.pieces).unwrap_or_default();
        for color in Color::ALL {
            let promo = rules.variant.promotion.ranks[color as usize] as i32;
            // Pawns start where the start position has them (rank 2 of the
            // frame in Beyond Chess, not of the arena).
            let ranks = start_pawns.iter().filter(|(_, p)| p.color() == color && rules.roles[p.kind()] == Role::Pawn).map(|(c, _)| g.rank(*c) as i32);
            let start = if color == Color::White { ranks.min().unwrap_or(1) } else { ranks.max().unwrap_or(h as i32 - 2) };
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
            (0..g.cells()).filter(|&o| o != c && g.file(o).abs_diff(g.file(c)) <= 1 && g.rank(o).abs_diff(g.rank(c)) <= 1).fold(B::EMPTY, |b, o| b | B::cell(o))
        };
        let king_ring = (0..g.cells()).map(royal_ring).collect();
        let start_material = protean_rules::fen::parse_placement(&rules.variant, rules.variant.start_fen.split(' ').next().unwrap_or(""))
            .map(|p| p.pieces.iter().filter(|(_, pc)| rules.roles[pc.kind()] == Role::Other).map(|(_, pc)| values[pc.kind()].0).sum())
            .unwrap_or(0)
            .max(1);
        let mut exchange_order: Vec<usize> = (0..rules.piece_types).collect();
        exchange_order.sort_by_key(|&k| if rules.roles[k] == Role::Royal { i32::MAX } else { values[k].0 });
        EvalTables { values, centrality, advancement, adjacent_files, passed_span, front_span, king_ring, start_material, rules_key: rules.key, exchange_order }
    }

    /// The value used for exchanges and move ordering.
    #[inline]
    pub fn value(&self, kind: usize) -> i32 {
        self.values[kind].0
    }
}

/// Middle-game and end-game scores for one side.
#[derive(Default, Clone, Copy)]
struct Score {
    mg: i32,
    eg: i32,
}

impl std::ops::AddAssign for Score {
    fn add_assign(&mut self, o: Score) {
        self.mg += o.mg;
        self.eg += o.eg;
    }
}

/// One side's terms; `pawns` holds each colour's pawns.
fn side<B: Bitboard>(pos: &Position<B>, t: &EvalTables<B>, us: Color, pawns: [B; 2], material: &mut i32) -> Score {
    let rules = pos.rules();
    let mut s = Score::default();
    let ours = pos.pieces(us);
    let (own_pawns, their_pawns) = (pawns[us as usize], pawns[!us as usize]);
    let enemy_king_ring = pos.king(!us).map_or(B::EMPTY, |k| t.king_ring[k]);
    let mut king_attackers = 0;
    let mut king_attacks = 0;
    let g = rules.geometry;
    for kind in 0..rules.piece_types {
        let (mg, eg) = t.values[kind];
        for cell in pos.pieces_of(us, kind).cells() {
            s += Score { mg, eg };
            match rules.roles[kind] {
                Role::Pawn => {
                    let adv = t.advancement[us as usize][cell];
                    s += Score { mg: adv * 10 / 256, eg: adv * 40 / 256 };
                    if (t.passed_span[us as usize][cell] & their_pawns).is_empty() {
                        s += Score { mg: 10 + adv * 50 / 256, eg: 20 + adv * 120 / 256 };
                    }
                    if (t.front_span[us as usize][cell] & own_pawns).any() {
                        s += Score { mg: -12, eg: -20 };
                    }
                    if (t.adjacent_files[g.file(cell)] & own_pawns).is_empty() {
                        s += Score { mg: -12, eg: -15 };
                    }
                    s += Score { mg: t.centrality[cell] * 2, eg: 0 };
                }
                Role::Royal => {
                    // Shelter early, centre late.
                    s += Score { mg: -t.centrality[cell] * 8, eg: t.centrality[cell] * 8 };
                    let shield = (t.king_ring[cell] & t.passed_span[us as usize][cell] & own_pawns).count() as i32;
                    s += Score { mg: shield * 12, eg: 0 };
                }
                Role::Other => {
                    *material += mg;
                    let reach = pos.reach_from(cell) & !ours;
                    let moves = reach.count() as i32;
                    s += Score { mg: moves * 4 + t.centrality[cell] * 3, eg: moves * 4 };
                    let on_king = (reach & enemy_king_ring).count() as i32;
                    if on_king > 0 {
                        king_attackers += 1;
                        king_attacks += on_king;
                    }
                }
            }
        }
    }
    // Two attackers on the king's ring are a threat; one is usually not.
    if king_attackers >= 2 {
        s += Score { mg: king_attacks * king_attackers * 6, eg: 0 };
    }
    if pos.tiles_move() {
        s += tiles(pos, t, us, own_pawns);
    }
    s
}

/// Rifts and moving tiles, for one side (see the module comment).
fn tiles<B: Bitboard>(pos: &Position<B>, t: &EvalTables<B>, us: Color, own_pawns: B) -> Score {
    let rules = pos.rules();
    let g = rules.geometry;
    let mut s = Score::default();
    let Some(king) = pos.king(us) else { return s };
    let boxed_in = (t.king_ring[king] & pos.rifts()).count() as i32;
    s += Score { mg: -6 * boxed_in, eg: -10 * boxed_in };

    // A rift that shields our king from an enemy rider, where a vacant tile
    // from off the line could be shifted in: one tile shift from check (a
    // tile from the line itself leaves a rift behind on it).
    let vacant = pos.vacant();
    let fillable = |r: usize, line: B| {
        [(0, 1), (0, -1), (1, 0), (-1, 0)].iter().any(|&(dx, dy)| g.offset(r, protean_rules::geometry::Step::new(dx, dy)).is_some_and(|n| vacant.has(n) && !line.has(n)))
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
            s += Score { mg: -40, eg: -25 };
        }
    }

    // Pawns one or two ranks from promotion.
    for cell in own_pawns.cells() {
        let to_go = (rules.variant.promotion.ranks[us as usize] as i32 - g.rank(cell) as i32).abs();
        s += match to_go {
            1 => Score { mg: 40, eg: 70 },
            2 => Score { mg: 15, eg: 30 },
            _ => Score::default(),
        };
    }
    s
}

/// The position's value in centipawns for the side to move.
pub fn evaluate<B: Bitboard>(pos: &Position<B>, t: &EvalTables<B>) -> i32 {
    let mut material = [0, 0];
    let rules = pos.rules();
    let all_pawns = (0..rules.piece_types).filter(|&k| rules.roles[k] == Role::Pawn).fold(B::EMPTY, |b, k| b | pos.kind_bb(k));
    let pawns = [all_pawns & pos.pieces(Color::White), all_pawns & pos.pieces(Color::Black)];
    let white = side(pos, t, Color::White, pawns, &mut material[0]);
    let black = side(pos, t, Color::Black, pawns, &mut material[1]);
    let phase = ((material[0] + material[1]) * 256 / t.start_material).min(256);
    let mg = white.mg - black.mg;
    let eg = white.eg - black.eg;
    let score = (mg * phase + eg * (256 - phase)) / 256;
    let score = if pos.side_to_move() == Color::White { score } else { -score };
    score + TEMPO
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
            let score = protean_rules::with_position!(&pos, p => evaluate(p, &EvalTables::new(p.rules())));
            assert_eq!(score, TEMPO, "{variant}");
        }
    }

    #[test]
    fn the_one_dimensional_pieces_have_sane_values() {
        let AnyRules::Small(rules) = AnyRules::by_name("onedim").unwrap() else { panic!() };
        let v: Vec<i32> = (1..5).map(|k| piece_value(&rules, k)).collect();
        let (q, r, b, n) = (v[0], v[1], v[2], v[3]);
        assert!(n > 100 && b > 100 && r > 100, "{v:?}");
        assert!(q > r && q > b && q > n, "{v:?}");
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
        let knight = |p: &protean_rules::AnyPosition| protean_rules::with_position!(p, q => EvalTables::new(q.rules()).value(1));
        let before = knight(&pos);
        pos.play("N=QN").unwrap();
        let amazon = knight(&pos);
        pos.play("N=W").unwrap();
        let wazir = knight(&pos);
        assert!(amazon > 1000 && wazir < before && before < amazon, "wazir {wazir}, knight {before}, amazon {amazon}");
    }
}
