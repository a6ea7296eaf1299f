//! The terms: every feature of a position the evaluation weighs, for
//! each side, written once and sent to a [`Terms`] sink, so that the
//! search's sum ([`Summed`]) and the tuner's record of features
//! (`protean_train`'s `texel`) can never disagree on what a term counts.

use super::tables::EvalTables;
use super::ONE;
use crate::weights::{per_kind, scalar, PerKind, Scalar, Score};
use protean_rules::variant::Role;
use protean_rules::{Bitboard, Color, Position, Rules};

/// From which rank advance (256ths of the board) a defended piece that no
/// enemy pawn can chase away stands on an outpost: the fourth rank of 8.
const OUTPOST_ADVANCE: i32 = 100;
/// The parts of [`king_danger`], in its units: Stockfish's classical
/// king danger (each attack on a cell beside the king 69, a weak ring cell
/// 183, a safe check 635 to 1,080, an unsafe one 148, the attackers'
/// count times their summed weights of about 50 each, 873 less without a
/// queen) over about 25.
const KING_DANGER_ATTACKER: i32 = 2;
const KING_DANGER_ATTACK: i32 = 3;
const KING_DANGER_WEAK: i32 = 7;
const KING_DANGER_SAFE_CHECK: i32 = 30;
const KING_DANGER_UNSAFE_CHECK: i32 = 6;
/// Less, where the attacker has no piece worth two thirds of its most
/// valuable kind: without a queen or its like an attack seldom mates.
const KING_DANGER_NO_MAJOR: i32 = 35;
/// Below this, no danger: a lone piece near a king is not an attack.
const KING_DANGER_OFFSET: i32 = 4;
/// Above this the danger grows linearly, not as its square (Stockfish
/// caps it at 3,500 of its units).
const KING_DANGER_CAP: i32 = 140;
/// A piece reaching fewer cells than this that no enemy pawn attacks is
/// trapped ([`Scalar::Trapped`]), by how many fewer.
const TRAPPED_BELOW: i32 = 2;
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
pub(super) struct Summed<'a> {
    pub weights: &'a [Score],
    pub sides: [Score; 2],
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
pub(super) fn pawn_structure<B: Bitboard, T: Terms>(
    pos: &Position<B>,
    t: &EvalTables<B>,
    us: Color,
    pawns: [B; 2],
    out: &mut T,
) {
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
    // For the king danger: every cell the side attacks (its pawns', its
    // king's and its pieces'), those it attacks twice, and its pieces that
    // reach the enemy king's wider ring.
    let danger = out.wants(scalar(Scalar::KingDanger));
    let danger_ring = pos.king(!us).filter(|_| danger).map_or(B::EMPTY, |k| t.danger_ring[k]);
    let (mut all, mut twice) = (pawn_attacks[us as usize], B::EMPTY);
    let (mut ring_attackers, mut has_major) = (0, false);
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
    let (mut unsafe_reach, mut trapped) = (0, 0);
    // Safe mobility: the cells a piece covers but those an enemy pawn
    // attacks and those of its own pawns and king (Fairy-Stockfish's
    // mobility area, its blocked pawns taken as all pawns).
    let safe_mobility = out.wants(scalar(Scalar::SafeMobility));
    let mobility_area = if safe_mobility {
        !(their_pawn_attacks | own_pawns | pos.king(us).map_or(B::EMPTY, B::cell))
    } else {
        B::EMPTY
    };
    let mut safe_mobility_sum = 0;
    let mut threatened = B::EMPTY;
    // What a piece may move onto or take (its mobility: `reach_from`,
    // with the board's sets read once for the side). Where hanging pieces
    // or safe mobility are counted, captures are asked of every piece on
    // the board, so that the same lookup tells what the piece defends.
    let (blockers, vacant, theirs) = (pos.blockers(), pos.vacant(), pos.pieces(!us));
    let capturable = if hanging || safe_mobility { pos.occupied() } else { theirs };
    let mut attacked = B::EMPTY;
    let checks_wanted = out.wants(scalar(Scalar::SafeCheck)) || danger;
    let (mut by_king, mut by_pieces, mut checks) = (B::EMPTY, B::EMPTY, B::EMPTY);
    let their_king = pos.king(!us).filter(|_| checks_wanted);
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
                out.add(us, scalar(Scalar::KingPlacement), t.king_placement[us as usize][cell]);
                if king_open_file {
                    let open = t.king_files[cell]
                        .cells()
                        .filter(|&c| (t.front_span[us as usize][c] & own_pawns).is_empty())
                        .count() as i32;
                    out.count(us, scalar(Scalar::KingOpenFile), open);
                }
                attacked |= t.king_ring[cell];
                by_king |= t.king_ring[cell];
                twice |= all & t.king_ring[cell];
                all |= t.king_ring[cell];
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
            has_major |= danger && t.major[kind];
            for cell in pieces.cells() {
                advance += rank_advance[cell];
                out.place(t, us, kind, cell);
                material += value;
                let (quiet, captures) = rules.targets_of(moves, cell, blockers, vacant, capturable);
                attacked |= captures;
                let reach = quiet | (captures & theirs);
                let covered = quiet | captures;
                by_pieces |= covered;
                if danger {
                    twice |= all & covered;
                    all |= covered;
                    ring_attackers += i32::from((danger_ring & covered).any());
                }
                checks |= reach & check_cells;
                let reach_count = reach.count() as i32;
                let unsafe_count = (reach & their_pawn_attacks).count() as i32;
                mobility += reach_count;
                unsafe_reach += unsafe_count;
                trapped += (TRAPPED_BELOW - (reach_count - unsafe_count)).max(0);
                if safe_mobility {
                    let m = (covered & mobility_area).count() as i32;
                    safe_mobility_sum += ONE * (m - 2) / (8 + m);
                }
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
    out.count(us, scalar(Scalar::Trapped), trapped);
    out.add(us, scalar(Scalar::SafeMobility), safe_mobility_sum);
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
    SideReach {
        material,
        attacked,
        reached: by_king | by_pieces,
        by_pieces,
        checks,
        king_attacks,
        all,
        twice,
        ring_attackers,
        has_major,
    }
}

/// The danger to the king on `king` from the side whose reach is `ours`
/// (`theirs` the king's side's, `defended` what its pawns attack), in units
/// of one attack on a cell beside the king: Stockfish's classical king
/// danger with every piece alike (no piece is named here), its parts in
/// about its proportions. Zero up to a floor. `safe_checks`: our checks
/// from cells nothing of theirs reaches.
fn king_danger<B: Bitboard>(
    t: &EvalTables<B>,
    ours: &SideReach<B>,
    theirs: &SideReach<B>,
    defended: B,
    king: (Color, usize),
    safe_checks: B,
) -> i32 {
    let (color, cell) = king;
    // Cells of the ring we attack that nothing but the king defends, and
    // nothing twice.
    let weak = t.danger_ring[cell] & ours.all & !theirs.twice & !(theirs.by_pieces | defended);
    let unsafe_checks = ours.checks & !safe_checks;
    // Attacks on the king's flank, twice for a cell attacked twice, weigh
    // as their square; the flank's defenders take a little off.
    let flank = t.king_flank[color as usize][cell];
    let flank_attacks = ((flank & ours.all).count() + (flank & ours.twice).count()) as i32;
    let flank_defence = (flank & theirs.all).count() as i32;
    let units = KING_DANGER_ATTACKER * ours.ring_attackers * ours.ring_attackers
        + KING_DANGER_ATTACK * ours.king_attacks
        + KING_DANGER_WEAK * weak.count() as i32
        + KING_DANGER_SAFE_CHECK * safe_checks.count() as i32
        + KING_DANGER_UNSAFE_CHECK * unsafe_checks.count() as i32
        + 3 * flank_attacks * flank_attacks / 200
        - flank_defence / 6
        - if ours.has_major { 0 } else { KING_DANGER_NO_MAJOR };
    if units > KING_DANGER_OFFSET {
        units
    } else {
        0
    }
}

/// What [`side`] found of one side for the terms that weigh both.
struct SideReach<B> {
    material: i32,
    /// Pieces its pieces attack (every piece where hanging pieces are
    /// weighed, else only the other side's).
    attacked: B,
    /// Cells its pieces and king move to or take on.
    reached: B,
    /// Cells its pieces but the king move to or take on.
    by_pieces: B,
    /// Cells one of its pieces moves to or takes on to give check.
    checks: B,
    /// How many cells of the enemy king's ring its pieces reach (a cell
    /// once for each piece).
    king_attacks: i32,
    /// For the king danger (empty where it is not weighed): every cell the
    /// side attacks, with its pawns and king, and those it attacks twice;
    /// its pieces reaching the enemy king's wider ring; whether it has a
    /// piece of a major kind.
    all: B,
    twice: B,
    ring_attackers: i32,
    has_major: bool,
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
pub(super) fn pawn_sets<B: Bitboard>(pos: &Position<B>) -> [B; 2] {
    let all_pawns = pos.kinds_bb(pos.rules().pawn_kinds);
    [all_pawns & pos.pieces(Color::White), all_pawns & pos.pieces(Color::Black)]
}

/// The terms of both sides but their pawn structures; returns the game
/// phase (see [`terms`]).
pub(super) fn piece_terms<B: Bitboard, T: Terms>(
    pos: &Position<B>,
    t: &EvalTables<B>,
    pawns: [B; 2],
    out: &mut T,
) -> i32 {
    // Only the pawn terms below, hanging pieces, safe checks, king danger,
    // trapped pieces, safe mobility and outposts ask where pawns attack.
    let hanging = out.wants(scalar(Scalar::Hanging));
    let safe_check = out.wants(scalar(Scalar::SafeCheck));
    let danger = out.wants(scalar(Scalar::KingDanger));
    let attacks = if hanging
        || safe_check
        || danger
        || out.wants(scalar(Scalar::PawnThreat))
        || out.wants(scalar(Scalar::ReachIntoPawnAttacks))
        || out.wants(scalar(Scalar::Trapped))
        || out.wants(scalar(Scalar::SafeMobility))
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
        // Checks from cells no enemy piece, pawn or king reaches.
        let safe_checks = sides[ours].checks & !sides[theirs].reached & !attacks[theirs];
        if safe_check {
            out.count(us, scalar(Scalar::SafeCheck), safe_checks.count() as i32);
        }
        if let Some(king) = pos.king(!us).filter(|_| danger) {
            let units = king_danger(t, &sides[ours], &sides[theirs], attacks[theirs], (!us, king), safe_checks);
            out.add(us, scalar(Scalar::KingDanger), units.min(KING_DANGER_CAP) * units * ONE / 256);
        }
    }
    ((sides[0].material + sides[1].material) * 256 / t.start_material).min(256)
}
