//! Attacks: whether a cell is attacked, what attacks it, and what legality
//! testing needs to know about the side to move's king. Every move
//! generator asks these; they ask no generator.

use crate::bitboard::Bitboard;
use crate::piece::Color;
use crate::position::Position;
use crate::tables::Rules;

/// What legality testing needs to know about the side to move, computed
/// once per position.
#[derive(Clone, Copy, Debug)]
pub struct KingSafety<B> {
    pub king: Option<usize>,
    pub in_check: bool,
    pub pinned: B,
    /// In check, the cells where a piece other than the king may land
    /// and perhaps answer it (a superset: the checkers, every cell of the
    /// king's rider lines up to their first piece, the start and landing
    /// cells of jumps over the king); every cell otherwise.
    pub evasions: B,
}

impl<B: Bitboard> Position<B> {
    /// Whether `cell` is attacked by pieces of `by`, with `blockers` as the
    /// cells that stop riders.
    #[inline]
    pub fn attacked_with(&self, cell: usize, by: Color, blockers: B) -> bool {
        self.attacked_by(cell, by, self.pieces(by), blockers)
    }

    /// Whether `cell` is attacked by the pieces of `by` on the cells
    /// `theirs` (some of that side's pieces: legality testing leaves out
    /// one that a move would capture), with `blockers` as the cells that
    /// stop riders.
    #[inline]
    pub(crate) fn attacked_by(&self, cell: usize, by: Color, theirs: B, blockers: B) -> bool {
        let rules = self.rules();
        let a = &rules.attacks[by as usize];
        for (kind, table) in &a.leaps {
            if (table[cell] & self.kind_bb(*kind) & theirs).any() {
                return true;
            }
        }
        for (kind, table) in &a.initial_leaps {
            if (table[cell] & self.kind_bb(*kind) & theirs & rules.initial_region[by as usize][*kind]).any() {
                return true;
            }
        }
        for (kind, through) in &a.leg_lines {
            let jumpers = self.kind_bb(*kind) & theirs;
            if jumpers.any()
                && through[cell].iter().any(|&(from, to)| jumpers.has(from as usize) && !blockers.has(to as usize))
            {
                return true;
            }
        }
        for &(line, types) in &a.line_groups {
            if (rules.line_tables.reach(line, cell, blockers) & theirs & self.kinds_bb(types)).any() {
                return true;
            }
        }
        for line in &a.lines {
            let ray = line.rays[cell];
            if (ray & theirs).is_empty() {
                continue;
            }
            if let Some(b) = Rules::<B>::first_blocker(ray, line.positive, blockers) {
                if let Some(p) = self.piece_at(b).filter(|_| theirs.has(b)) {
                    if line.types >> p.kind() & 1 == 1
                        && (!line.initial_only || rules.initial_region[by as usize][p.kind()].has(b))
                    {
                        return true;
                    }
                }
            }
        }
        false
    }

    #[inline]
    pub fn attacked(&self, cell: usize, by: Color) -> bool {
        self.attacked_with(cell, by, self.blockers())
    }

    /// Whether the side to move is in check, computed at most once until
    /// the position changes (the search asks after making a move, again
    /// at the node it leads to, and once more for that node's moves).
    #[inline]
    pub fn in_check(&self) -> bool {
        if let Some(checked) = self.known_check() {
            return checked;
        }
        let us = self.side_to_move();
        let checked = self.king(us).is_some_and(|k| self.attacked(k, !us));
        self.remember_check(checked);
        checked
    }

    pub fn king_safety(&self) -> KingSafety<B> {
        let us = self.side_to_move();
        let Some(king) = self.king(us) else {
            return KingSafety { king: None, in_check: false, pinned: B::EMPTY, evasions: !B::EMPTY };
        };
        let rules = self.rules();
        let blockers = self.blockers();
        let mut pinned = B::EMPTY;
        let pin_lines = &rules.attacks[!us as usize].pin_lines;
        // Enemy riders, looked for once: most lines from the king hold
        // none, and often no line does.
        let riders = self.pieces(!us) & self.kinds_bb(pin_lines.iter().fold(0, |types, line| types | line.2));
        let lines = if (rules.sight[king] & riders).any() { &pin_lines[..] } else { &[] };
        for &(dir, positive, types) in lines {
            let ray = rules.full_rays[dir][king];
            if (ray & riders).is_empty() {
                continue;
            }
            let Some(first) = Rules::<B>::first_blocker(ray, positive, blockers) else { continue };
            if !self.pieces(us).has(first) {
                continue;
            }
            let Some(second) = Rules::<B>::first_blocker(ray, positive, blockers ^ B::cell(first)) else { continue };
            if self.piece_at(second).is_some_and(|p| p.color() != us && types >> p.kind() & 1 == 1) {
                pinned |= B::cell(first);
            }
        }
        // Our piece on the final cell of a jump that would capture the king
        // on its middle cell shields it: moving that piece may expose the king.
        for (kind, through) in &rules.attacks[!us as usize].leg_lines {
            let jumpers = self.pieces_of(!us, *kind);
            for &(from, to) in &through[king] {
                if jumpers.has(from as usize) && self.pieces(us).has(to as usize) {
                    pinned |= B::cell(to as usize);
                }
            }
        }
        let in_check = self.in_check();
        let evasions = if in_check { self.evasions(king, blockers) } else { !B::EMPTY };
        KingSafety { king: Some(king), in_check, pinned, evasions }
    }

    /// Where a piece other than the king must land to answer a check on
    /// `king` (see [`KingSafety::evasions`]): a capture of a checker, or a
    /// block on one of its lines or on the landing cell of its jump over
    /// the king.
    fn evasions(&self, king: usize, blockers: B) -> B {
        let us = self.side_to_move();
        let rules = self.rules();
        let mut cells = self.attackers_to(king, self.occupied()) & self.pieces(!us);
        for &(dir, positive, _) in &rules.attacks[!us as usize].pin_lines {
            cells |= crate::rider_reach::slide(rules.full_rays[dir][king], positive, blockers);
        }
        for (_, through) in &rules.attacks[!us as usize].leg_lines {
            for &(from, to) in &through[king] {
                cells |= B::cell(from as usize) | B::cell(to as usize);
            }
        }
        cells
    }

    /// Every piece of either colour that attacks `cell`, with `occupied`
    /// as the pieces still on the board (for exchange evaluation, where
    /// pieces leave one by one and x-ray attackers come through).
    pub fn attackers_to(&self, cell: usize, occupied: B) -> B {
        (self.leaper_attackers_to(cell) | self.rider_attackers_to(cell, occupied)) & occupied
    }

    /// The pieces of either colour that attack `cell` by a leap: what
    /// stands between does not matter, so an exchange asks once.
    pub fn leaper_attackers_to(&self, cell: usize) -> B {
        let rules = self.rules();
        let either = &rules.either_attacks;
        let mut found = B::EMPTY;
        for (kind, table) in &either.shared_leaps {
            found |= table[cell] & self.kind_bb(*kind);
        }
        for (kind, color, table) in &either.own_leaps {
            found |= table[cell] & self.kind_bb(*kind) & self.pieces(*color);
        }
        for by in Color::ALL {
            for (kind, table) in &rules.attacks[by as usize].initial_leaps {
                found |= table[cell] & self.kind_bb(*kind) & self.pieces(by) & rules.initial_region[by as usize][*kind];
            }
        }
        found
    }

    /// The pieces of either colour that attack `cell` along a line, with
    /// `occupied` as the pieces still on the board (not all of them are
    /// in `occupied`: callers mask).
    pub fn rider_attackers_to(&self, cell: usize, occupied: B) -> B {
        let rules = self.rules();
        let blockers = occupied | self.rifts();
        let mut found = B::EMPTY;
        for &(line, [white, black]) in &rules.either_attacks.line_groups {
            let reach = rules.line_tables.reach(line, cell, blockers);
            found |= if white == black {
                reach & self.kinds_bb(white)
            } else {
                reach
                    & (self.kinds_bb(white) & self.pieces(Color::White)
                        | self.kinds_bb(black) & self.pieces(Color::Black))
            };
        }
        for by in Color::ALL {
            let a = &rules.attacks[by as usize];
            for line in &a.lines {
                if let Some(b) = Rules::<B>::first_blocker(line.rays[cell], line.positive, blockers) {
                    if let Some(p) = self.piece_at(b) {
                        if p.color() == by
                            && occupied.has(b)
                            && line.types >> p.kind() & 1 == 1
                            && (!line.initial_only || rules.initial_region[by as usize][p.kind()].has(b))
                        {
                            found |= B::cell(b);
                        }
                    }
                }
            }
        }
        found
    }
}
