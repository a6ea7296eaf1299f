//! A kind's moves as a few steps that move all its pieces at once.
//!
//! The per-cell tables answer "where does the piece on this cell go", one
//! lookup per piece. A kind with many pieces and few moves (a pawn: one
//! step, two captures, a double step from its start ranks) is counted
//! faster the other way round: for each step, the set of its pieces that
//! may take it, shifted by the step's offset in cell numbers, gives all
//! their targets at once, as Stockfish counts pawn pushes.
//!
//! Cells are packed row by row without padding, so a shift on its own
//! would wrap between ranks. It never does here: the sets are read off the
//! compiled per-cell tables (a pair `from -> to` becomes the offset
//! `to - from` and `from` joins that offset's cells), so a shift only
//! moves a piece where its table says it goes, initial-only moves and the
//! board's edges included. Counting only: generation keeps the tables, and
//! with them the order of the moves it writes, which the search's move
//! ordering (and `bench`'s node count) depends on.

use crate::bitboard::Bitboard;

/// The moves of one kind of one colour, by offset.
#[derive(Clone, Debug)]
pub struct StepSets<B> {
    /// `(offset, from)`: the cells whose piece moves to `cell + offset`
    /// when that cell is empty.
    quiet: Vec<(i32, B)>,
    /// The same for captures (the target holds an enemy).
    capture: Vec<(i32, B)>,
    /// A move-only ride (a pawn's double step) by distance, nearest
    /// first: `(offset, reach, new)`, the offset of that distance, the
    /// cells whose ray is at least that long, and those of them whose
    /// cell at that distance is no quiet leap of theirs already (so that
    /// it is counted once).
    ride: Vec<(i32, B, B)>,
}

impl<B: Bitboard> StepSets<B> {
    /// The steps of a piece that leaps (its quiet leaps and its captures
    /// per cell, from the tables) and perhaps has one move-only ride (its
    /// rays per cell, and whether they run towards higher cells); `None`
    /// where the ride's rays are not one offset repeated, or where the
    /// steps are not fewer than `pieces`, how many of the kind a side has
    /// at the start: a shift and two counts a step cost about what a
    /// lookup and a count a piece do, so steps pay for pawns, not kings.
    pub fn from_tables(leaps: &[(B, B)], ride: Option<(&[B], bool)>, pieces: usize) -> Option<Self> {
        let by_offset = |targets: &dyn Fn(&(B, B)) -> B| {
            let mut sets: Vec<(i32, B)> = Vec::new();
            for (from, l) in leaps.iter().enumerate() {
                for to in targets(l).cells() {
                    let offset = to as i32 - from as i32;
                    match sets.iter_mut().find(|(o, _)| *o == offset) {
                        Some((_, cells)) => *cells |= B::cell(from),
                        None => sets.push((offset, B::cell(from))),
                    }
                }
            }
            sets
        };
        let quiet = by_offset(&|l| l.0);
        let capture = by_offset(&|l| l.1);
        let ride = match ride {
            None => Vec::new(),
            Some((rays, positive)) => ride_by_distance(rays, positive, leaps)?,
        };
        (quiet.len() + capture.len() + ride.len() < pieces).then_some(StepSets { quiet, capture, ride })
    }

    /// Every cell the pieces on `pieces` capture on (were an enemy there):
    /// one shift a capture step, where the tables would take a lookup a
    /// piece (the evaluation's pawn attacks).
    #[inline]
    pub fn capture_targets(&self, pieces: B) -> B {
        self.capture.iter().fold(B::EMPTY, |targets, &(offset, from)| targets | (pieces & from).shift(offset))
    }

    /// How many moves the pieces on `pieces` have: quiet moves to `empty`
    /// cells (a ride stopped by `blockers`), captures of `enemies`, each
    /// landing in `zone` counted `per_zone` times (a pawn's promotions).
    #[inline]
    pub fn count(&self, pieces: B, empty: B, enemies: B, blockers: B, zone: B, per_zone: usize) -> usize {
        let weigh = |targets: B| weighed_count(targets, zone, per_zone);
        let mut n = 0;
        for &(offset, from) in &self.quiet {
            n += weigh((pieces & from).shift(offset) & empty);
        }
        for &(offset, from) in &self.capture {
            n += weigh((pieces & from).shift(offset) & enemies);
        }
        // Pieces still riding: every cell before the current distance was
        // open.
        let mut riding = pieces;
        for &(offset, reach, new) in &self.ride {
            riding &= reach;
            if riding.is_empty() {
                break;
            }
            if new.any() {
                n += weigh((riding & new).shift(offset) & empty);
            }
            riding &= (!blockers).shift(-offset);
        }
        n
    }
}

/// How many moves land on `targets`, those on `zone` counted `per_zone`
/// times (a pawn's promotion choices; `zone` is empty for other kinds).
#[inline(always)]
pub fn weighed_count<B: Bitboard>(targets: B, zone: B, per_zone: usize) -> usize {
    (targets & !zone).count() as usize + (targets & zone).count() as usize * per_zone
}

/// A move-only ride's rays by distance (see `StepSets::ride`); `None`
/// unless every ray that is not empty is `from + offset`, `from + 2 *
/// offset`, ... for one offset, nearest first in the ride's direction.
fn ride_by_distance<B: Bitboard>(rays: &[B], positive: bool, leaps: &[(B, B)]) -> Option<Vec<(i32, B, B)>> {
    let mut offset = None;
    let mut by_distance: Vec<(i32, B, B)> = Vec::new();
    for (from, &ray) in rays.iter().enumerate() {
        if ray.is_empty() {
            continue;
        }
        let nearest = if positive { ray.lowest() } else { ray.highest() };
        let step = *offset.get_or_insert(nearest as i32 - from as i32);
        for k in 1..=ray.count() as i32 {
            if by_distance.len() < k as usize {
                by_distance.push((step * k, B::EMPTY, B::EMPTY));
            }
            let to = usize::try_from(from as i32 + step * k).ok().filter(|&to| ray.has(to))?;
            let (_, reach, new) = &mut by_distance[k as usize - 1];
            *reach |= B::cell(from);
            if !leaps[from].0.has(to) {
                *new |= B::cell(from);
            }
        }
    }
    Some(by_distance)
}
