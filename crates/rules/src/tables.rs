//! Per-variant precomputed move tables: everything move generation needs
//! from a [`Variant`], turned into per-cell bitboards once.
//!
//! Riders use ray tables: the cells a rider reaches from a cell are its
//! (range-limited) ray up to and including the nearest blocker (see
//! `rider_reach`). That works for any step (rook, bishop, nightrider) on
//! any board size without wrap-around, because rays are built cell by cell
//! with bounds checks. Where a rider moves both ways along a line (a
//! rook's rank, a bishop's diagonal), the line is looked up in one table
//! instead, when the board and the build allow.

use crate::betza::{Movement, UNLIMITED};
use crate::bitboard::Bitboard;
use crate::castling::{self, Castling};
use crate::geometry::{Geometry, Step};
use crate::piece::Color;
use crate::placement::{parse_placement, Placement};
use crate::rider_reach::{increases, slide, LineTables};
use crate::step_sets::StepSets;
use crate::variant::{Role, Variant, MAX_PIECE_TYPES};
use std::sync::Arc;

/// A rider leg of one piece, for one colour.
#[derive(Clone, Debug)]
pub struct Ride<B> {
    pub positive: bool,
    pub moves: bool,
    pub captures: bool,
    /// The ray from each cell, cut to the leg's range; empty on cells
    /// where the piece may not use the leg (an initial-only leg off the
    /// piece's start ranks).
    pub rays: Vec<B>,
}

/// The leaps of one piece from one cell, initial-only leaps included
/// where the piece may use them.
#[derive(Clone, Copy, Debug, Default)]
pub struct Leaps<B> {
    pub quiet: B,
    pub capture: B,
}

/// How one kind of piece of one colour moves, per cell.
///
/// Rides that move and capture alike at any time (rook, bishop, queen,
/// nightrider lines) are slides. Those that pair into lines with a table
/// (a rook's rank and file) are in `slide_lines`; the rest are stored
/// flat: the rays of cell `c` are `slide_rays[c * n .. c * n + n]` for the
/// `n` directions in `slide_positive`, so generation ORs their reaches in
/// one tight loop. Other rides (the pawn's initial move-only double step)
/// stay in `rides`, or are a plain piece's `quiet_ride`.
///
/// Initial-only moves are settled here, per cell, when the rules compile:
/// a leap or ride that a piece may make only from its start ranks is in
/// the tables of those cells alone, so generation never asks where a
/// piece stands.
#[derive(Clone, Debug, Default)]
pub struct PieceMoves<B> {
    pub leaps: Vec<Leaps<B>>,
    /// Lines of `Rules::line_tables`.
    pub slide_lines: Vec<usize>,
    pub slide_positive: Vec<bool>,
    pub slide_rays: Vec<B>,
    pub rides: Vec<Ride<B>>,
    /// Per cell, the (middle, final) cells of two-leg jumps that capture on
    /// the middle cell; empty unless the piece has paths.
    pub leg_captures: Vec<Vec<(u8, u8)>>,
    /// The piece only leaps, slides along lines with tables (a knight,
    /// a king, a rook, a queen where PEXT is there) and has at most
    /// `quiet_ride`: its targets need nothing else looked at.
    pub plain: bool,
    /// A plain piece's one ride that only moves (a pawn's double step).
    pub quiet_ride: Option<Ride<B>>,
    /// A plain piece's leaps and `quiet_ride` as steps that move all its
    /// pieces at once, for counting, where the kind has more pieces at
    /// the start than steps (a pawn; see `step_sets`).
    pub steps: Option<StepSets<B>>,
}

/// The eight steps around a cell, in turn from north clockwise (see
/// `Rules::rings`).
pub const RING: [(i8, i8); 8] = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)];

/// Moves pairs of attack lines that are one rider line (the same piece
/// types capturing both ways along it at the same range, at any time)
/// into `line_groups`, where the line has a table, and merges a family's
/// lines where their table fits.
fn group_attack_lines<B: Bitboard>(a: &mut Attacks<B>, dirs: &[Step], g: Geometry, line_tables: &mut LineTables<B>) {
    let mut i = 0;
    while i < a.lines.len() {
        let line = &a.lines[i];
        let (step, range, types) = (dirs[line.dir], line.range, line.types);
        let reverse = a.lines.iter().position(|l| {
            dirs[l.dir] == step.reversed()
                && l.range == range
                && l.types == types
                && !l.initial_only
                && !line.initial_only
        });
        match reverse.and_then(|j| Some((j, line_tables.both_ways(g, step, range)?))) {
            Some((j, id)) => {
                a.line_groups.push((id, types));
                a.lines.remove(i.max(j));
                a.lines.remove(i.min(j));
            }
            None => i += 1,
        }
    }
    // Lines of one family used by the same types merge (a rook's rank and
    // file into one lookup).
    let mut groups = std::mem::take(&mut a.line_groups);
    while let Some(&(_, types)) = groups.first() {
        let lines: Vec<usize> = groups.iter().filter(|group| group.1 == types).map(|group| group.0).collect();
        groups.retain(|group| group.1 != types);
        a.line_groups.extend(line_tables.merged(g, &lines).into_iter().map(|id| (id, types)));
    }
}

impl<B: Bitboard> Rules<B> {
    /// Cells reached by the plain slides of `pm` (a piece's moves under
    /// these rules) from `from`.
    #[inline(always)]
    pub fn slide_reach(&self, pm: &PieceMoves<B>, from: usize, blockers: B) -> B {
        let mut reach = B::EMPTY;
        for &line in &pm.slide_lines {
            reach |= self.line_tables.reach(line, from, blockers);
        }
        let n = pm.slide_positive.len();
        for (&ray, &positive) in pm.slide_rays[from * n..from * n + n].iter().zip(&pm.slide_positive) {
            reach |= slide(ray, positive, blockers);
        }
        reach
    }
}

impl<B: Bitboard> Ride<B> {
    /// The cells this ride reaches from `from`: up to and including the
    /// first blocker.
    #[inline(always)]
    pub fn reach(&self, from: usize, blockers: B) -> B {
        slide(self.rays[from], self.positive, blockers)
    }
}

/// Rider lines along which pieces of a colour capture, grouped so that a
/// test for attack looks along each line once for all pieces using it.
#[derive(Clone, Debug)]
pub struct AttackLine<B> {
    /// Direction from the attacked cell towards the attacker.
    pub dir: usize,
    pub positive: bool,
    pub range: u8,
    pub rays: Vec<B>,
    /// Bit set of piece types that capture along this line at this range.
    pub types: u32,
    pub initial_only: bool,
}

/// Per cell: the (start, final) cells of the two-leg jumps through it.
pub type JumpsThrough = Vec<Vec<(u8, u8)>>;

/// Reverse tables: from which cells pieces of one colour attack a cell.
#[derive(Clone, Debug, Default)]
pub struct Attacks<B> {
    /// Per piece type with capturing leaps: cells a leap would capture from.
    pub leaps: Vec<(usize, Vec<B>)>,
    pub initial_leaps: Vec<(usize, Vec<B>)>,
    pub lines: Vec<AttackLine<B>>,
    /// Lines of `Rules::line_tables` along which the same piece types
    /// capture both ways at the same range, each with those types (a rook's
    /// rank: rooks and queens); such lines are not also in `lines`.
    pub line_groups: Vec<(usize, u32)>,
    /// Distinct rider directions (towards the attacker) and the piece types
    /// capturing along each, whatever their range: for finding pins.
    pub pin_lines: Vec<(usize, bool, u32)>,
    /// Per piece type with two-leg jumps: for each cell, the (start, final)
    /// cells of jumps that capture on it, which need the final cell empty.
    pub leg_lines: Vec<(usize, JumpsThrough)>,
}

/// Reverse tables for attacks by either colour, for static exchanges,
/// which ask who of both sides attacks a cell: where both colours' pieces
/// of a kind attack alike (a knight's leaps, a rook's lines), one lookup
/// serves both. Built from the two colours' [`Attacks`]; their `lines`
/// (rays walked, not looked up) and initial-only leaps are not here.
#[derive(Clone, Debug, Default)]
pub struct EitherAttacks<B> {
    /// Each line of `Rules::line_tables` along which either colour
    /// captures, with the piece types capturing along it per colour.
    pub line_groups: Vec<(usize, [u32; 2])>,
    /// Per piece type whose leaps capture alike for both colours: cells a
    /// leap would capture from.
    pub shared_leaps: Vec<(usize, Vec<B>)>,
    /// Per piece type and colour whose leaps differ by colour (a pawn's).
    pub own_leaps: Vec<(usize, Color, Vec<B>)>,
}

impl<B: Bitboard> EitherAttacks<B> {
    fn of(attacks: &[Attacks<B>; 2]) -> EitherAttacks<B> {
        let mut either = EitherAttacks::default();
        for color in Color::ALL {
            for &(line, types) in &attacks[color as usize].line_groups {
                let at = match either.line_groups.iter().position(|g| g.0 == line) {
                    Some(at) => at,
                    None => {
                        either.line_groups.push((line, [0; 2]));
                        either.line_groups.len() - 1
                    }
                };
                either.line_groups[at].1[color as usize] |= types;
            }
            for (kind, table) in &attacks[color as usize].leaps {
                let other = &attacks[!color as usize].leaps;
                if other.iter().any(|(k, t)| k == kind && t == table) {
                    if color == Color::White {
                        either.shared_leaps.push((*kind, table.clone()));
                    }
                } else {
                    either.own_leaps.push((*kind, color, table.clone()));
                }
            }
        }
        either
    }
}

/// A variant compiled for one bitboard size.
#[derive(Clone, Debug)]
pub struct Rules<B> {
    pub variant: Variant,
    pub geometry: Geometry,
    pub all_cells: B,
    pub piece_types: usize,
    pub royal: Option<usize>,
    pub roles: Vec<Role>,
    /// The kinds whose role is pawn, as a bit set.
    pub pawn_kinds: u32,
    /// Kinds with two-leg jumps (empty in most variants).
    pub jumpers: Vec<usize>,
    /// By colour and kind; a rule set compiled from another shares the
    /// tables of every kind the change left alone.
    pub moves: [Vec<Arc<PieceMoves<B>>>; 2],
    pub attacks: [Attacks<B>; 2],
    pub either_attacks: EitherAttacks<B>,
    /// Rider lines looked up instead of walked (see `rider_reach`).
    pub line_tables: LineTables<B>,
    /// Full rays per direction id, for cutting a ray behind its blocker.
    pub full_rays: Vec<Vec<B>>,
    /// Cells where a piece type may use its initial-only moves.
    pub initial_region: [Vec<B>; 2],
    /// The start position's placement, read once from `variant.start_fen`.
    pub start: Placement,
    pub promotion_zone: [B; 2],
    pub castling: Vec<Castling<B>>,
    /// Castling rights kept when a piece leaves or enters each cell.
    pub castling_keep: Vec<u8>,
    /// Where tiles move: per cell, the cells touching it by side or
    /// corner. Empty elsewhere.
    pub neighbours: Vec<B>,
    /// Per cell, the eight cells around it in turn (north, north-east,
    /// east, ... north-west; `u8::MAX` off the board). Empty unless tiles
    /// move.
    pub rings: Vec<[u8; 8]>,
    /// Per cell, every cell on a rider line through it: only a piece or
    /// tile there can open or close a rider's line to the cell (a tile
    /// shift towards a king, a capture in a static exchange).
    pub sight: Vec<B>,
    /// Per cell, the cells two steps away along a rank, file or diagonal:
    /// a pawn that moves there leaves the cell between (`(from + to) / 2`,
    /// as cells are numbered row by row) open to en passant.
    pub two_steps: Vec<B>,
    /// Zero for a variant's own rules; a rule change (Flexichess) gives
    /// the changed set its own key, which positions hash in.
    pub key: u64,
    /// Each kind's Betza in the variant's own rules, which FEN compares
    /// against to write the changes.
    pub original_betza: Vec<String>,
    /// The variant's catalogue of redefinitions, parsed (shared by the
    /// rule sets compiled from these rules).
    pub catalogue: Arc<[Movement]>,
    /// By kind, then catalogue entry (`kind * catalogue.len() + i`):
    /// whether the kind may be redefined as the entry, the position
    /// aside (not a royal kind, the entry's role, a movement the kind does
    /// not already have).
    pub redefinable: Vec<bool>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RulesError(pub String);

impl std::fmt::Display for RulesError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}
impl std::error::Error for RulesError {}

impl<B: Bitboard> Rules<B> {
    pub fn new(variant: Variant) -> Result<Rules<B>, RulesError> {
        Rules::compile(variant, None)
    }

    /// Compiles `variant`; given `parent`, rules already compiled on the
    /// same board with the same catalogue (a rule change's parent), with
    /// its rider line tables, so that only lines new to it are built, and
    /// its parsed catalogue.
    pub fn compile(variant: Variant, parent: Option<&Rules<B>>) -> Result<Rules<B>, RulesError> {
        let mut line_tables = parent.map_or_else(LineTables::default, |p| p.line_tables.clone());
        let g = variant.geometry;
        if g.cells() > B::CAPACITY {
            return Err(RulesError(format!("{} cells do not fit this bitboard", g.cells())));
        }
        let n = variant.pieces.len();
        if n == 0 || n > MAX_PIECE_TYPES {
            return Err(RulesError(format!("a variant has 1 to {MAX_PIECE_TYPES} kinds of piece, not {n}")));
        }
        let all_cells = (0..g.cells()).fold(B::EMPTY, |b, c| b | B::cell(c));

        // Every distinct step gets a direction id and full rays.
        let mut dirs: Vec<Step> = Vec::new();
        fn dir_id(s: Step, dirs: &mut Vec<Step>) -> usize {
            dirs.iter().position(|&d| d == s).unwrap_or_else(|| {
                dirs.push(s);
                dirs.len() - 1
            })
        }

        // Initial-only moves apply on the ranks where that kind of piece
        // stands in the start position (a pawn's double step from rank 2).
        let start = parse_placement(&variant, variant.start_fen.split(' ').next().unwrap_or(""))
            .map_err(|e| RulesError(format!("start position: {e}")))?;
        let mut initial_region = [vec![B::EMPTY; n], vec![B::EMPTY; n]];
        for &(cell, piece) in &start.pieces {
            let rank = g.rank(cell);
            for f in 0..g.width() {
                initial_region[piece.color() as usize][piece.kind()] |= B::cell(g.cell(f, rank));
            }
        }

        let mut moves: [Vec<Arc<PieceMoves<B>>>; 2] = [Vec::new(), Vec::new()];
        let mut attacks: [Attacks<B>; 2] = [Attacks::default(), Attacks::default()];
        for color in Color::ALL {
            for (t, def) in variant.pieces.iter().enumerate() {
                // A kind that moves as in the parent's rules (every kind
                // but the one a rule change redefined) takes its tables
                // from them; only its attack lines, which number their
                // directions across kinds, are worked out below.
                let kept = parent.filter(|p| p.variant.pieces[t].betza == def.betza);
                let cells = if kept.is_some() { 0 } else { g.cells() };
                let mut pm = PieceMoves { leaps: vec![Leaps::default(); cells], ..PieceMoves::default() };
                let mut slides: Vec<(Step, u8, Vec<B>)> = Vec::new();
                let mut rev_leaps = vec![B::EMPTY; cells];
                let mut rev_initial_leaps = vec![B::EMPTY; cells];
                let region = initial_region[color as usize][t];
                for leg in &def.movement.legs {
                    let step = if color == Color::White { leg.step } else { leg.step.for_black() };
                    // Where the piece may make this leg: initial-only legs
                    // from its start ranks.
                    let usable = |from: usize| !leg.initial_only || region.has(from);
                    if kept.is_some() {
                        // Its moves are the parent's, shared (below).
                    } else if leg.range == 1 {
                        for from in 0..g.cells() {
                            let Some(to) = g.offset(from, step) else { continue };
                            let l = &mut pm.leaps[from];
                            if leg.mode.moves && usable(from) {
                                l.quiet |= B::cell(to);
                            }
                            if leg.mode.captures {
                                if usable(from) {
                                    l.capture |= B::cell(to);
                                }
                                // Attack tests ask where the piece stands.
                                let rev = if leg.initial_only { &mut rev_initial_leaps } else { &mut rev_leaps };
                                rev[to] |= B::cell(from);
                            }
                        }
                    } else {
                        let all = line_tables.rays(g, step, leg.range);
                        let rays: Vec<B> = (0..g.cells()).map(|c| if usable(c) { all[c] } else { B::EMPTY }).collect();
                        if leg.mode.moves && leg.mode.captures && !leg.initial_only {
                            slides.push((step, leg.range, rays));
                        } else {
                            pm.rides.push(Ride {
                                positive: increases(g, step),
                                moves: leg.mode.moves,
                                captures: leg.mode.captures,
                                rays,
                            });
                        }
                    }
                    if leg.range != 1 && leg.mode.captures {
                        let back = step.reversed();
                        let back_dir = dir_id(back, &mut dirs);
                        let a = &mut attacks[color as usize];
                        let same = |l: &&mut AttackLine<B>| {
                            l.dir == back_dir && l.range == leg.range && l.initial_only == leg.initial_only
                        };
                        match a.lines.iter_mut().find(same) {
                            Some(line) => line.types |= 1 << t,
                            None => a.lines.push(AttackLine {
                                dir: back_dir,
                                positive: increases(g, back),
                                range: leg.range,
                                rays: line_tables.rays(g, back, leg.range).to_vec(),
                                types: 1 << t,
                                initial_only: leg.initial_only,
                            }),
                        }
                        match a.pin_lines.iter_mut().find(|p| p.0 == back_dir) {
                            Some(p) => p.2 |= 1 << t,
                            None => a.pin_lines.push((back_dir, increases(g, back), 1 << t)),
                        }
                    }
                }
                let a = &mut attacks[color as usize];
                if let Some(p) = kept {
                    let theirs = &p.attacks[color as usize];
                    let of_kind = |tables: &Vec<(usize, Vec<B>)>| tables.iter().find(|(k, _)| *k == t).cloned();
                    a.leg_lines.extend(theirs.leg_lines.iter().find(|(k, _)| *k == t).cloned());
                    a.leaps.extend(of_kind(&theirs.leaps));
                    a.initial_leaps.extend(of_kind(&theirs.initial_leaps));
                    moves[color as usize].push(p.moves[color as usize][t].clone());
                    continue;
                }
                if !def.paths.is_empty() {
                    pm.leg_captures = vec![Vec::new(); g.cells()];
                    let mut through = vec![Vec::new(); g.cells()];
                    for path in &def.paths {
                        let [first, second] =
                            if color == Color::White { *path } else { [path[0].for_black(), path[1].for_black()] };
                        for from in 0..g.cells() {
                            let Some(mid) = g.offset(from, first) else { continue };
                            let Some(to) = g.offset(mid, second) else { continue };
                            // The plain jump: a leap that lands (and captures) on `to`.
                            pm.leaps[from].quiet |= B::cell(to);
                            pm.leaps[from].capture |= B::cell(to);
                            rev_leaps[to] |= B::cell(from);
                            pm.leg_captures[from].push((mid as u8, to as u8));
                            through[mid].push((from as u8, to as u8));
                        }
                    }
                    a.leg_lines.push((t, through));
                }
                // A slide whose reverse the piece also has, at the same
                // range, makes a line with it, looked up if it has a table.
                let mut walked: Vec<(bool, Vec<B>)> = Vec::new();
                while let Some((step, range, rays)) = slides.pop() {
                    let reverse = slides.iter().position(|&(s, r, _)| s == step.reversed() && r == range);
                    match reverse.and_then(|_| line_tables.both_ways(g, step, range)) {
                        Some(line) => {
                            slides.remove(reverse.expect("the line's reverse"));
                            pm.slide_lines.push(line);
                        }
                        None => walked.push((increases(g, step), rays)),
                    }
                }
                pm.slide_lines = line_tables.merged(g, &pm.slide_lines);
                walked.reverse();
                pm.slide_positive = walked.iter().map(|(p, _)| *p).collect();
                pm.slide_rays = (0..g.cells()).flat_map(|c| walked.iter().map(move |(_, rays)| rays[c])).collect();
                pm.plain =
                    walked.is_empty() && matches!(&pm.rides[..], [] | [Ride { moves: true, captures: false, .. }]);
                if pm.plain {
                    pm.quiet_ride = pm.rides.pop();
                    if pm.slide_lines.is_empty() {
                        let leaps: Vec<(B, B)> = pm.leaps.iter().map(|l| (l.quiet, l.capture)).collect();
                        let at_start = start.pieces.iter().filter(|(_, p)| p.color() == color && p.kind() == t).count();
                        pm.steps = StepSets::from_tables(
                            &leaps,
                            pm.quiet_ride.as_ref().map(|r| (&r.rays[..], r.positive)),
                            at_start,
                        );
                    }
                }
                if rev_leaps.iter().any(|b| b.any()) {
                    a.leaps.push((t, rev_leaps));
                }
                if rev_initial_leaps.iter().any(|b| b.any()) {
                    a.initial_leaps.push((t, rev_initial_leaps));
                }
                moves[color as usize].push(Arc::new(pm));
            }
        }
        for a in &mut attacks {
            group_attack_lines(a, &dirs, g, &mut line_tables);
        }
        let full_rays: Vec<Vec<B>> = dirs.iter().map(|&s| line_tables.rays(g, s, UNLIMITED).to_vec()).collect();

        let rank_cells = |r: usize| (0..g.width()).fold(B::EMPTY, |b, f| b | B::cell(g.cell(f, r)));
        let promotion_zone =
            [rank_cells(variant.promotion.ranks[0] as usize), rank_cells(variant.promotion.ranks[1] as usize)];

        // A Chess960 position's own layout is compiled when its FEN is read.
        let (castling, castling_keep) =
            castling::compile(&variant, &castling::fixed_entries(&variant)).map_err(RulesError)?;

        let sight =
            (0..g.cells()).map(|c| full_rays.iter().fold(B::EMPTY, |b: B, rays: &Vec<B>| b | rays[c])).collect();
        let two_steps = (0..g.cells())
            .map(|c| {
                RING.iter()
                    .filter_map(|&(dx, dy)| g.offset(c, Step::new(2 * dx, 2 * dy)))
                    .fold(B::EMPTY, |b, to| b | B::cell(to))
            })
            .collect();
        let (mut neighbours, mut rings) = (Vec::new(), Vec::new());
        if variant.tiles.is_some() {
            let king = |c: usize| {
                let steps = (-1..=1).flat_map(|dx| (-1..=1).map(move |dy| Step::new(dx, dy)));
                steps
                    .filter(|s| *s != Step::new(0, 0))
                    .filter_map(|s| g.offset(c, s))
                    .fold(B::EMPTY, |b, n| b | B::cell(n))
            };
            neighbours = (0..g.cells()).map(king).collect();
            rings = (0..g.cells())
                .map(|c| RING.map(|(dx, dy)| g.offset(c, Step::new(dx, dy)).map_or(u8::MAX, |n| n as u8)))
                .collect();
        }

        let catalogue: Arc<[Movement]> = match parent {
            Some(p) => p.catalogue.clone(),
            None => variant
                .redefinitions
                .iter()
                .map(|r| crate::betza::parse(&r.betza).map_err(|e| RulesError(format!("catalogue: {e}"))))
                .collect::<Result<Vec<_>, _>>()?
                .into(),
        };
        // Asked at every node that generates rule changes; comparing
        // movements sorts their legs, so it is done here once, each
        // movement sorted once.
        let entries: Vec<_> = variant
            .redefinitions
            .iter()
            .zip(catalogue.iter())
            .map(|(r, movement)| (r.role, movement.normal()))
            .collect();
        let redefinable = variant
            .pieces
            .iter()
            .flat_map(|piece| {
                let own = piece.movement.normal();
                entries
                    .iter()
                    .map(move |(role, movement)| piece.role != Role::Royal && *role == piece.role && *movement != own)
            })
            .collect();
        Ok(Rules {
            catalogue,
            redefinable,
            key: 0,
            original_betza: variant.pieces.iter().map(|p| p.betza.clone()).collect(),
            neighbours,
            rings,
            sight,
            two_steps,
            geometry: g,
            all_cells,
            piece_types: n,
            royal: variant.royal(),
            roles: variant.pieces.iter().map(|p| p.role).collect(),
            pawn_kinds: (0..n).filter(|&k| variant.pieces[k].role == Role::Pawn).fold(0, |set, k| set | 1 << k),
            jumpers: (0..n).filter(|&k| !variant.pieces[k].paths.is_empty()).collect(),
            moves,
            either_attacks: EitherAttacks::of(&attacks),
            attacks,
            line_tables,
            full_rays,
            initial_region,
            start,
            promotion_zone,
            castling,
            castling_keep,
            variant,
        })
    }

    /// These rules with other ways to castle (a Chess960 layout).
    pub(crate) fn with_castling(&self, entries: &[castling::Entry]) -> Result<Rules<B>, RulesError> {
        let (castling, castling_keep) = castling::compile(&self.variant, entries).map_err(RulesError)?;
        Ok(Rules { castling, castling_keep, ..self.clone() })
    }

    /// Where a piece of `color` and `kind` on `from` can move (onto `empty`)
    /// and capture (onto `enemies`), before any legality test.
    #[inline(always)]
    pub fn targets(&self, color: Color, kind: usize, from: usize, blockers: B, empty: B, enemies: B) -> (B, B) {
        self.targets_of(&self.moves[color as usize][kind], from, blockers, empty, enemies)
    }

    /// [`Rules::targets`] with the piece's moves (`self.moves[color][kind]`)
    /// already looked up: a generator walking one kind's pieces looks them
    /// up once, not once a piece.
    #[inline(always)]
    pub fn targets_of(&self, pm: &PieceMoves<B>, from: usize, blockers: B, empty: B, enemies: B) -> (B, B) {
        let leaps = &pm.leaps[from];
        if pm.plain {
            let mut slides = B::EMPTY;
            for &line in &pm.slide_lines {
                slides |= self.line_tables.reach(line, from, blockers);
            }
            let quiet_ride = pm.quiet_ride.as_ref().map_or(B::EMPTY, |ride| ride.reach(from, blockers));
            return ((leaps.quiet | slides | quiet_ride) & empty, (leaps.capture | slides) & enemies);
        }
        let slides = self.slide_reach(pm, from, blockers);
        let mut quiet = (leaps.quiet | slides) & empty;
        let mut captures = (leaps.capture | slides) & enemies;
        for ride in &pm.rides {
            let reach = ride.reach(from, blockers);
            if ride.moves {
                quiet |= reach & empty;
            }
            if ride.captures {
                captures |= reach & enemies;
            }
        }
        (quiet, captures)
    }

    /// The nearest blocker along a ray, if any.
    #[inline(always)]
    pub fn first_blocker(ray: B, positive: bool, blockers: B) -> Option<usize> {
        let hit = ray & blockers;
        if hit.is_empty() {
            None
        } else if positive {
            Some(hit.lowest())
        } else {
            Some(hit.highest())
        }
    }
}
