//! How far a rider reaches from a cell, given the cells that block it.
//!
//! Along one ray the answer is a mask: the ray up to and including its
//! first blocker ([`slide`]), found with one bit scan. Cells are packed
//! row by row without padding, so the rays themselves are built cell by
//! cell with bounds checks ([`ray`]) and work for any step on any board.
//!
//! A whole line (a step and its reverse, as a rook's rank or a bishop's
//! diagonal) can instead be looked up: the blockers on the line, packed by
//! [`Bitboard::extract`] into an index, pick the reach from a table built
//! when the rules are compiled. That is the PEXT scheme of strong chess
//! engines, built here for whatever riders a variant has. A line's table
//! has an entry per blocker pattern, so a long line on a big board (a rank
//! of the 16x16 arena) would need tens of thousands per cell: such lines,
//! and every line on builds without a one-instruction extract, keep
//! walking their rays.

use crate::bitboard::{Bitboard, FAST_EXTRACT};
use crate::geometry::{Geometry, Step};
use std::sync::Arc;

/// Whether cells along `step` have increasing indices.
pub fn increases(g: Geometry, step: Step) -> bool {
    (step.dy as i32) * g.width() as i32 + step.dx as i32 > 0
}

/// The cells a rider of `step` passes from `from`, at most `range` of them
/// (`betza::UNLIMITED` for no limit), blockers aside.
pub fn ray<B: Bitboard>(g: Geometry, from: usize, step: Step, range: u8) -> B {
    let mut cells = B::EMPTY;
    let mut cell = from;
    for _ in 0..(range as usize).min(g.cells()) {
        match g.offset(cell, step) {
            Some(next) => {
                cells |= B::cell(next);
                cell = next;
            }
            None => break,
        }
    }
    cells
}

/// The cells a rider reaches along `ray`: up to and including the first
/// blocker. Cells along a ray run in index order (increasing when
/// `positive`), so "up to the nearest blocker" is a mask made from the
/// blocker set.
#[inline(always)]
pub fn slide<B: Bitboard>(ray: B, positive: bool, blockers: B) -> B {
    let hit = ray & blockers;
    ray & if positive { hit.lowest_and_below() } else { hit.highest_and_above() }
}

/// A line's table entry for one cell: which blockers matter, and where
/// its block of reaches starts.
#[derive(Clone, Copy, Debug, Default)]
struct LineCell<B> {
    relevant: B,
    offset: u32,
}

/// One line's table: for each cell, its relevant blockers and its block
/// of reaches, one per blocker pattern.
#[derive(Debug)]
struct LineTable<B> {
    /// The rays (step, range) of the line, sorted.
    rays: Vec<(Step, u8)>,
    cells: Vec<LineCell<B>>,
    reaches: Vec<B>,
}

/// Lookup tables of the lines of a variant's riders, shared by every
/// piece and both colours that ride them (a queen's rank and a rook's are
/// one table), and by the rule sets a rule change compiles from these
/// rules (each table is built once and shared, not copied).
#[derive(Clone, Debug, Default)]
pub struct LineTables<B> {
    lines: Vec<Arc<LineTable<B>>>,
    /// Every cell's ray by step and range (see [`LineTables::rays`]).
    rays: Vec<(Step, u8, Arc<[B]>)>,
}

/// Most bytes one line's table may take over all cells: a rook's rank and
/// file together on 8x8 (102,400 entries of 8 bytes, as in Stockfish's
/// rook table) fit; a rank of a 16-cell board (2^14 blocker patterns from
/// an end cell) does not.
const MAX_TABLE_BYTES: usize = 1 << 20;

impl<B: Bitboard> LineTables<B> {
    /// The table of the line made of `rays` (each a step and a range),
    /// built on first asking; `None` if this build or this board should
    /// walk the rays instead.
    pub fn line(&mut self, g: Geometry, rays: &[(Step, u8)]) -> Option<usize> {
        if !FAST_EXTRACT {
            return None;
        }
        let mut key = rays.to_vec();
        key.sort_by_key(|&(s, r)| (s.dx, s.dy, r));
        if let Some(id) = self.lines.iter().position(|l| l.rays == key) {
            return Some(id);
        }
        let per_cell: Vec<Vec<(B, bool)>> = (0..g.cells())
            .map(|c| key.iter().map(|&(s, r)| (ray::<B>(g, c, s, r), increases(g, s))).collect())
            .collect();
        // A blocker on a ray's last cell changes nothing: the rider
        // reaches that cell either way.
        let relevant: Vec<B> = per_cell
            .iter()
            .map(|rays| {
                rays.iter().filter(|(r, _)| r.any()).fold(B::EMPTY, |m, &(r, positive)| {
                    let last = if positive { r.highest() } else { r.lowest() };
                    m | (r & !B::cell(last))
                })
            })
            .collect();
        let entries: usize = relevant.iter().map(|m| 1usize << m.count()).sum();
        if entries * std::mem::size_of::<B>() > MAX_TABLE_BYTES.max(std::mem::size_of::<B>() << 16) {
            return None;
        }
        let mut table =
            LineTable { rays: key, cells: Vec::with_capacity(g.cells()), reaches: Vec::with_capacity(entries) };
        for (rays, &mask) in per_cell.iter().zip(&relevant) {
            table.cells.push(LineCell { relevant: mask, offset: table.reaches.len() as u32 });
            for pattern in 0..1usize << mask.count() {
                let blockers = deposit(pattern, mask);
                debug_assert_eq!(blockers.extract(mask), pattern);
                table
                    .reaches
                    .push(rays.iter().fold(B::EMPTY, |reach, &(r, positive)| reach | slide(r, positive, blockers)));
            }
        }
        self.lines.push(Arc::new(table));
        Some(self.lines.len() - 1)
    }

    /// Every cell's [`ray`] along `step` at `range`, built on first
    /// asking and shared as the line tables are: a rule change's compile
    /// asks again for the rays its parent's did, one set per leg.
    pub fn rays(&mut self, g: Geometry, step: Step, range: u8) -> Arc<[B]> {
        if let Some((_, _, rays)) = self.rays.iter().find(|&&(s, r, _)| s == step && r == range) {
            return rays.clone();
        }
        let rays: Arc<[B]> = (0..g.cells()).map(|c| ray(g, c, step, range)).collect();
        self.rays.push((step, range, rays.clone()));
        rays
    }

    /// The table of the line a rider of `step` and `range` rides both
    /// ways (see `line`).
    pub fn both_ways(&mut self, g: Geometry, step: Step, range: u8) -> Option<usize> {
        self.line(g, &[(step, range), (step.reversed(), range)])
    }

    /// `lines` with lines of one family (steps alike up to turning and
    /// mirroring, at one range: a rook's rank and file, a bishop's two
    /// diagonals) merged into one table where it fits, so that a rook
    /// looks up its reach once and a queen twice. Lines that cannot merge
    /// stay as they are.
    pub fn merged(&mut self, g: Geometry, lines: &[usize]) -> Vec<usize> {
        let family = |t: &LineTable<B>| {
            t.rays.first().map(|&(s, r)| {
                (s.dx.unsigned_abs().min(s.dy.unsigned_abs()), s.dx.unsigned_abs().max(s.dy.unsigned_abs()), r)
            })
        };
        let mut out: Vec<usize> = Vec::new();
        for &line in lines {
            let joined = out.iter().enumerate().find_map(|(i, &o)| {
                if family(&self.lines[o]) != family(&self.lines[line]) {
                    return None;
                }
                let rays: Vec<(Step, u8)> = self.lines[o].rays.iter().chain(&self.lines[line].rays).copied().collect();
                Some((i, self.line(g, &rays)?))
            });
            match joined {
                Some((i, both)) => out[i] = both,
                None => out.push(line),
            }
        }
        out
    }

    /// The cells line `line` reaches from `cell`: along each of its rays
    /// up to and including the first blocker.
    #[inline(always)]
    pub fn reach(&self, line: usize, cell: usize, blockers: B) -> B {
        let table = &*self.lines[line];
        let entry = &table.cells[cell];
        let index = entry.offset as usize + blockers.extract(entry.relevant);
        debug_assert!(index < table.reaches.len());
        // SAFETY: `line` built the cell's block as 2^(cells in `relevant`)
        // reaches from `offset`, and `extract` (of a sealed `Bitboard`)
        // gives an index below 2^(cells in the mask). The read is the
        // hottest of move generation, attack tests and the evaluation;
        // its bounds test cost 1-1.6% of a search's instructions.
        unsafe { *table.reaches.get_unchecked(index) }
    }
}

/// The inverse of `extract`: bit i of `pattern` on the i-th cell of `mask`.
fn deposit<B: Bitboard>(pattern: usize, mask: B) -> B {
    mask.cells().enumerate().filter(|&(bit, _)| pattern >> bit & 1 == 1).fold(B::EMPTY, |b, (_, c)| b | B::cell(c))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::betza::UNLIMITED;

    /// Every line of a few riders on three board shapes, looked up, against
    /// walking its rays, on random blockers.
    #[test]
    fn lookup_matches_walking_the_rays() {
        let mut random = crate::bitboard::test_random(0x2545_f491_4f6c_dd1d);
        let rook = Step::new(1, 0);
        let file = Step::new(0, 1);
        let bishop = Step::new(1, 1);
        let nightrider = Step::new(1, 2);
        for (w, h) in [(8, 8), (9, 9), (16, 1)] {
            let g = Geometry::new(w, h).unwrap();
            let mut tables = LineTables::<u128>::default();
            for (step, range) in [
                (rook, UNLIMITED),
                (file, UNLIMITED),
                (bishop, UNLIMITED),
                (nightrider, UNLIMITED),
                (rook, 2),
                (bishop, 3),
            ] {
                let rays = [(step, range), (step.reversed(), range)];
                let Some(line) = tables.line(g, &rays) else {
                    // Only the full 16-cell rank is over the size limit.
                    let too_big = w == 16 && step.dy == 0 && range == UNLIMITED;
                    assert!(!FAST_EXTRACT || too_big, "no table for {step:?} range {range} on {w}x{h}");
                    continue;
                };
                assert_eq!(tables.line(g, &[rays[1], rays[0]]), Some(line), "one table per line, whatever the order");
                for _ in 0..300 {
                    let blockers = (0..g.cells()).filter(|_| random().is_multiple_of(3)).fold(0u128, |b, c| b | 1 << c);
                    for cell in 0..g.cells() {
                        let walked = rays
                            .iter()
                            .fold(0, |r, &(s, n)| r | slide(ray::<u128>(g, cell, s, n), increases(g, s), blockers));
                        assert_eq!(
                            tables.reach(line, cell, blockers),
                            walked,
                            "{step:?} range {range} from {cell} on {w}x{h}"
                        );
                    }
                }
            }
        }
    }

    /// A queen's four lines merge by family into two tables, the rook's
    /// and the bishop's, each of which looks up what walking finds.
    #[test]
    fn a_family_of_lines_merges_into_one_table() {
        if !FAST_EXTRACT {
            return;
        }
        let g = Geometry::new(8, 8).unwrap();
        let mut tables = LineTables::<u64>::default();
        let steps = [Step::new(1, 0), Step::new(1, 1), Step::new(0, 1), Step::new(1, -1)];
        let lines: Vec<usize> = steps.iter().map(|&s| tables.both_ways(g, s, UNLIMITED).unwrap()).collect();
        let merged = tables.merged(g, &lines);
        assert_eq!(merged.len(), 2, "rook lines and bishop lines");
        let mut random = crate::bitboard::test_random(0x1234_5678_9abc_def1);
        for _ in 0..300 {
            let blockers = random() & random();
            for cell in 0..64 {
                let walked = steps
                    .iter()
                    .flat_map(|&s| [s, s.reversed()])
                    .fold(0, |r, s| r | slide(ray::<u64>(g, cell, s, UNLIMITED), increases(g, s), blockers));
                let looked_up = merged.iter().fold(0, |r, &line| r | tables.reach(line, cell, blockers));
                assert_eq!(looked_up, walked, "from {cell}");
            }
        }
    }
}
