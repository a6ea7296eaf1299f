//! Moving tiles (Beyond Chess): tile shifts, gerets and whole turns.
//!
//! A turn is a piece move and then a tile shift. Legality is tested per
//! part, as the rules say: the piece move alone must not leave the mover's
//! king attacked (so check is answered by the piece move, and a king never
//! steps into check hoping a shift will cover it), then the shift must not
//! either. The tiles' arrangement does not depend on where pieces stand,
//! so which tiles may move at all (each must keep touching a former
//! neighbour, and the board must stay one group) is worked out once per
//! position and only filtered per piece move.
//!
//! Turns reach the rest of the engine in two shapes: whole turns (one
//! `Move` carrying its shift, for protocols and perft) or two plies by the
//! same side (a piece move marked `TileShift::FOLLOWS`, then a
//! `MoveKind::Shift`), which search may use instead.

use crate::bitboard::Bitboard;
use crate::geometry::Step;
use crate::movegen::MoveSet;
use crate::moves::{Move, MoveKind, MoveList, TileShift, NO_PROMOTION};
use crate::piece::Color;
use crate::position::Position;
use crate::tables::RING;
use crate::variant::Role;

/// Tiles shift one cell up, down, left or right.
const ORTHOGONAL: [Step; 4] = [Step::new(0, 1), Step::new(0, -1), Step::new(-1, 0), Step::new(1, 0)];

/// For each set of the eight cells around a cell (bit i for `RING[i]`),
/// whether they touch each other into one group (or are none).
static RING_IS_ONE_GROUP: [bool; 256] = ring_groups();

const fn ring_groups() -> [bool; 256] {
    let mut table = [false; 256];
    let mut set: usize = 0;
    while set < 256 {
        // Grow a group from the lowest cell of the set, cell by cell.
        let mut reached = set & set.wrapping_neg();
        let mut grew = true;
        while grew {
            grew = false;
            let mut i = 0;
            while i < 8 {
                if reached >> i & 1 == 1 {
                    let mut j = 0;
                    while j < 8 {
                        let (a, b) = (RING[i], RING[j]);
                        let touch = (a.0 - b.0).abs() <= 1 && (a.1 - b.1).abs() <= 1;
                        if set >> j & 1 == 1 && reached >> j & 1 == 0 && touch {
                            reached |= 1 << j;
                            grew = true;
                        }
                        j += 1;
                    }
                }
                i += 1;
            }
        }
        table[set] = reached == set;
        set += 1;
    }
    table
}

/// The tile moves that the board's shape allows, pieces aside: at most
/// four per tile.
pub struct TileMoves {
    moves: [(u8, u8); 256],
    len: usize,
}

impl TileMoves {
    fn iter(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.moves[..self.len].iter().map(|&(f, t)| (f as usize, t as usize))
    }
}

impl<B: Bitboard> Position<B> {
    /// Whether the tile on `from` may move into the rift on `to` as far as
    /// the board's shape goes: it still touches (by side or corner) a tile
    /// it touched before, and all tiles still form one group.
    pub fn tile_may_move(&self, from: usize, to: usize) -> bool {
        let rules = self.rules();
        let tiles = self.tiles();
        if (rules.neighbours[from] & rules.neighbours[to] & tiles).is_empty() {
            return false;
        }
        let after = tiles ^ B::cell(from) ^ B::cell(to);
        // The tiles form one group before the shift (FEN refuses others
        // and every shift keeps it so), so they still do exactly when the
        // tiles around `from` (`to` among them) are still joined: every
        // path that went through `from` can then go round it. Most often
        // they touch each other all round (a table of the 256 rings says
        // so); else a walk from one of them over the tiles looks for the
        // others, and stops as soon as it has them all.
        let ring = &rules.rings[from];
        let around = |i: usize| ring[i] != u8::MAX && after.has(ring[i] as usize);
        let pattern = (0..8).fold(0, |p, i| p | usize::from(around(i)) << i);
        RING_IS_ONE_GROUP[pattern]
            || self.joins(after, (0..8).filter(|&i| around(i)).fold(B::EMPTY, |b, i| b | B::cell(ring[i] as usize)))
    }

    /// Whether every cell of `targets` (some of `tiles`) is in one group
    /// of `tiles`, joined by sides or corners.
    fn joins(&self, tiles: B, targets: B) -> bool {
        let nb = &self.rules().neighbours;
        let mut reached = B::cell(targets.lowest());
        let mut frontier = reached;
        while frontier.any() {
            if (targets & !reached).is_empty() {
                return true;
            }
            let mut next = B::EMPTY;
            for c in frontier.cells() {
                next |= nb[c];
            }
            frontier = next & tiles & !reached;
            reached |= frontier;
        }
        (targets & !reached).is_empty()
    }

    /// Whether `tiles` form one group, joined by sides or corners.
    pub fn is_one_group(&self, tiles: B) -> bool {
        tiles.is_empty() || self.joins(tiles, tiles)
    }

    /// Every tile move the board's shape allows now, pieces aside.
    pub fn tile_moves(&self) -> TileMoves {
        let g = self.rules().geometry;
        let rifts = self.rifts();
        let mut out = TileMoves { moves: [(0, 0); 256], len: 0 };
        for from in self.tiles().cells() {
            for step in ORTHOGONAL {
                if let Some(to) = g.offset(from, step) {
                    if rifts.has(to) && self.tile_may_move(from, to) && out.len < out.moves.len() {
                        out.moves[out.len] = (from as u8, to as u8);
                        out.len += 1;
                    }
                }
            }
        }
        out
    }

    /// The tile shifts the side to move may make now (its piece move made):
    /// empty tiles only, and none that opens a line to its own king.
    fn push_shifts(&self, shape: &TileMoves, mut push: impl FnMut(usize, usize)) {
        let us = self.side_to_move();
        let vacant = self.vacant();
        let king = self.king(us);
        let blockers = self.blockers();
        for (from, to) in shape.iter() {
            if !vacant.has(from) {
                continue;
            }
            if let Some(k) = king {
                // Only a tile that lands on a line through the king can
                // open it; the cell it leaves becomes a rift, which blocks.
                if self.rules().sight[k].has(to)
                    && self.attacked_with(k, !us, (blockers | B::cell(from)) & !B::cell(to))
                {
                    continue;
                }
            }
            push(from, to);
        }
    }

    /// Pawns moving with their tiles into rifts, forward or sideways
    /// (pseudo-legal: the caller tests the king).
    fn generate_gerets(&self, out: &mut MoveList) {
        let rules = self.rules();
        if !rules.variant.tiles.as_ref().is_some_and(|t| t.geret) || self.first_turn() {
            return;
        }
        let us = self.side_to_move();
        let g = rules.geometry;
        let forward = if us == Color::White { 1 } else { -1 };
        let rifts = self.rifts();
        let promotion = &rules.variant.promotion;
        for kind in (0..rules.piece_types).filter(|&k| rules.roles[k] == Role::Pawn) {
            for from in self.pieces_of(us, kind).cells() {
                for step in [Step::new(0, forward), Step::new(-1, 0), Step::new(1, 0)] {
                    let Some(to) = g.offset(from, step) else { continue };
                    if !rifts.has(to) || !self.tile_may_move(from, to) {
                        continue;
                    }
                    let m = Move::new(from, to, MoveKind::Geret);
                    if !rules.promotion_zone[us as usize].has(to) {
                        out.push(m);
                        continue;
                    }
                    for &choice in &promotion.choices {
                        out.push(Move { promotion: choice as u8, ..m });
                    }
                    if !promotion.mandatory {
                        out.push(Move { promotion: NO_PROMOTION, ..m });
                    }
                }
            }
        }
    }

    /// Legal plies of a turn played as two: piece moves (each followed by
    /// the same side's shift) and gerets, or, once the piece has moved,
    /// the shifts (or one `Shift` from a cell to itself when none is legal).
    /// `set` and `all_shifts` narrow the list as for
    /// `legal_captures`.
    pub(crate) fn legal_plies(&mut self, out: &mut MoveList, set: MoveSet, all_shifts: bool) {
        out.clear();
        if self.shift_pending() {
            let shape = self.tile_moves();
            self.push_shifts(&shape, |from, to| {
                if all_shifts || out.is_empty() {
                    out.push(Move::new(from, to, MoveKind::Shift));
                }
            });
            if out.is_empty() {
                out.push(Move::new(0, 0, MoveKind::Shift));
            }
            return;
        }
        self.legal_piece_moves(out, set);
        if !self.first_turn() {
            for i in 0..out.len() {
                out.set(i, out[i].with_shift(TileShift::FOLLOWS));
            }
        }
        if set == MoveSet::All {
            self.legal_gerets(out);
        }
    }

    fn legal_gerets(&mut self, out: &mut MoveList) {
        let first = out.len();
        self.generate_gerets(out);
        let us = self.side_to_move();
        let mut i = first;
        while i < out.len() {
            self.make(out[i]);
            let safe = self.king(us).is_none_or(|k| !self.attacked(k, !us));
            self.unmake();
            if safe {
                i += 1;
            } else {
                out.swap_remove(i);
            }
        }
    }

    /// Legal whole turns: each legal piece move with each shift legal after
    /// it (or alone where none is, and on White's first turn), and gerets.
    /// With `all_shifts` false, each piece move comes with one shift only
    /// (for quiescence search, which looks at captures, not at tiles).
    pub(crate) fn legal_turns(&mut self, out: &mut MoveList, set: MoveSet, all_shifts: bool) {
        self.legal_plies(out, set, all_shifts);
        if self.first_turn() || self.shift_pending() {
            return;
        }
        let shape = self.tile_moves();
        let n = out.len();
        for i in 0..n {
            let m = out[i];
            if m.kind == MoveKind::Geret {
                out.push(m);
                continue;
            }
            self.make(m);
            let before = out.len();
            self.push_shifts(&shape, |from, to| {
                if all_shifts || out.len() == before {
                    out.push(m.with_shift(TileShift(from as u8, to as u8)));
                }
            });
            if out.len() == before {
                out.push(m.with_shift(TileShift::NONE));
            }
            self.unmake();
        }
        out.remove_front(n);
    }
}
