//! Move generation of pieces: pseudo-legal moves from the tables, then a
//! legality filter. Tile turns (`tiles`) and rule changes (`redefine`)
//! build on these; `legal` puts them together into a position's moves.
//!
//! Legality follows Stockfish's `Position::legal` idea: a move that is not
//! a king move, not en passant, not made in check and not made by a piece
//! that may be pinned cannot expose the king, so only those few moves are
//! played out and tested. Pins are found conservatively (any own piece
//! that is the first blocker between the king and an enemy rider of that
//! direction, whatever the rider's range), which stays correct for any
//! Betza rider, not only rooks and bishops.

use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveKind, MoveList, NO_PROMOTION};
use crate::position::Position;
use crate::step_sets::weighed_count;
use crate::variant::Role;

pub use crate::attacks::KingSafety;

/// Which moves a generator produces, for a search that tries them in
/// stages: the noisy ones (captures of every kind, and pawn moves onto the
/// promotion zone, promoting or not) before the quiet rest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveSet {
    All,
    Noisy,
    Quiet,
}

impl<B: Bitboard> Position<B> {
    /// Appends every pseudo-legal move of the side to move.
    pub fn generate(&self, out: &mut MoveList) {
        self.generate_pieces(out, self.pieces(self.side_to_move()), MoveSet::All);
        self.generate_castling(out);
        self.generate_en_passant(out);
        self.generate_leg_captures(out);
        self.generate_swaps(out);
    }

    /// Leaps and rides (not castling, en passant, middle-cell captures or
    /// swaps) of our pieces on `from_cells`, of the set asked for.
    fn generate_pieces(&self, out: &mut MoveList, from_cells: B, set: MoveSet) {
        let zone = self.rules().promotion_zone[self.side_to_move() as usize];
        self.for_each_piece_reach(from_cells, |from, is_pawn, quiet, captures| {
            if is_pawn {
                match set {
                    MoveSet::All => {
                        self.push_pawn_moves(out, from, quiet & !zone, captures & !zone, quiet & zone, captures & zone)
                    }
                    MoveSet::Noisy => {
                        self.push_pawn_moves(out, from, B::EMPTY, captures & !zone, quiet & zone, captures & zone)
                    }
                    MoveSet::Quiet => out.push_targets(from, quiet & !zone, MoveKind::Quiet),
                }
            } else {
                if set != MoveSet::Noisy {
                    out.push_targets(from, quiet, MoveKind::Quiet);
                }
                if set != MoveSet::Quiet {
                    out.push_targets(from, captures, MoveKind::Capture);
                }
            }
        });
    }

    /// How many moves `generate_pieces` would write for `from_cells` and
    /// every move set, counted from the target sets without writing them:
    /// a kind with steps (`step_sets`) all its pieces at once, the rest
    /// piece by piece.
    fn count_piece_moves(&self, from_cells: B) -> usize {
        let rules = self.rules();
        let promotion = &rules.variant.promotion;
        let per_promotion = promotion.choices.len() + usize::from(!promotion.mandatory);
        let us = self.side_to_move();
        let (them, blockers, empty) = (self.pieces(!us), self.blockers(), self.vacant());
        let mut n = 0;
        for kind in 0..rules.piece_types {
            let mine = self.pieces_of(us, kind) & from_cells;
            if mine.is_empty() {
                continue;
            }
            let pm = &rules.moves[us as usize][kind];
            let zone = if rules.roles[kind] == Role::Pawn { rules.promotion_zone[us as usize] } else { B::EMPTY };
            if let Some(steps) = &pm.steps {
                n += steps.count(mine, empty, them, blockers, zone, per_promotion);
                continue;
            }
            for from in mine.cells() {
                let (quiet, captures) = rules.targets_of(pm, from, blockers, empty, them);
                n += weighed_count(quiet | captures, zone, per_promotion);
            }
        }
        n
    }

    /// Calls `f(from, is_pawn, quiet, captures)` for each of our pieces on
    /// `from_cells` with the cells it moves and captures to by leaps and
    /// rides (a pawn's promotions not told apart).
    #[inline(always)]
    fn for_each_piece_reach(&self, from_cells: B, mut f: impl FnMut(usize, bool, B, B)) {
        let rules = self.rules();
        let us = self.side_to_move();
        let them = self.pieces(!us);
        let blockers = self.blockers();
        let empty = self.vacant();
        for kind in 0..rules.piece_types {
            let mine = self.pieces_of(us, kind) & from_cells;
            if mine.is_empty() {
                continue;
            }
            let is_pawn = rules.roles[kind] == Role::Pawn;
            let pm = &rules.moves[us as usize][kind];
            for from in mine.cells() {
                let (quiet, captures) = rules.targets_of(pm, from, blockers, empty, them);
                f(from, is_pawn, quiet, captures);
            }
        }
    }

    /// Every cell the piece on `from` could move or capture to, ignoring
    /// pins and checks (for mobility in evaluation).
    pub fn reach_from(&self, from: usize) -> B {
        let Some(piece) = self.piece_at(from) else { return B::EMPTY };
        let empty = self.vacant();
        let (quiet, captures) = self.rules().targets(
            piece.color(),
            piece.kind(),
            from,
            self.blockers(),
            empty,
            self.pieces(!piece.color()),
        );
        quiet | captures
    }

    /// Captures on the middle cell of two-leg jumps. Like en passant they
    /// take a piece off a cell the mover does not land on, so two cells
    /// open at once and pin detection cannot vouch for them: every one is
    /// tested.
    fn generate_leg_captures(&self, out: &mut MoveList) {
        let rules = self.rules();
        if rules.jumpers.is_empty() {
            return;
        }
        let us = self.side_to_move();
        let them = self.pieces(!us);
        let empty = self.vacant();
        for &kind in &rules.jumpers {
            let pm = &rules.moves[us as usize][kind];
            for from in self.pieces_of(us, kind).cells() {
                for &(mid, to) in &pm.leg_captures[from] {
                    if them.has(mid as usize) && empty.has(to as usize) {
                        let mut m = Move::new(from, to as usize, MoveKind::LegCapture);
                        m.aux = mid;
                        out.push(m);
                    }
                }
            }
        }
    }

    /// En passant captures: our pawns that capture onto the target cell
    /// (and could not simply move there).
    fn generate_en_passant(&self, out: &mut MoveList) {
        let Some(target) = self.en_passant() else { return };
        for from in self.en_passant_takers(target, self.side_to_move()).cells() {
            let mut m = Move::new(from, target, MoveKind::EnPassant);
            m.aux = self.ep_victim() as u8;
            out.push(m);
        }
    }

    fn push_pawn_moves(
        &self,
        out: &mut MoveList,
        from: usize,
        quiet: B,
        captures: B,
        quiet_promo: B,
        capture_promo: B,
    ) {
        let promotion = &self.rules().variant.promotion;
        out.push_targets(from, quiet, MoveKind::Quiet);
        out.push_targets(from, captures, MoveKind::Capture);
        for (targets, kind) in [(quiet_promo, MoveKind::Quiet), (capture_promo, MoveKind::Capture)] {
            for to in targets.cells() {
                for &choice in &promotion.choices {
                    let mut m = Move::new(from, to, kind);
                    m.promotion = choice as u8;
                    out.push(m);
                }
                if !promotion.mandatory {
                    out.push(Move { promotion: NO_PROMOTION, ..Move::new(from, to, kind) });
                }
            }
        }
    }

    fn generate_castling(&self, out: &mut MoveList) {
        if self.castling_rights() == 0 {
            return;
        }
        for (i, c) in self.rules().castling.iter().enumerate() {
            if self.may_castle(i) {
                let mut m = Move::new(c.king_from, c.move_to, MoveKind::Castle);
                m.aux = i as u8;
                out.push(m);
            }
        }
    }

    /// Whether the side to move may castle by entry `i` of the castling
    /// table now.
    fn may_castle(&self, i: usize) -> bool {
        let us = self.side_to_move();
        let blockers = self.blockers();
        let c = &self.rules().castling[i];
        if c.color != us || self.castling_rights() >> i & 1 == 0 || (blockers & c.must_be_empty).any() {
            return false;
        }
        if c.must_be_safe.cells().any(|cell| self.attacked_with(cell, !us, blockers)) {
            return false;
        }
        // Where the castling rook shielded the king's last cell (in
        // Chess960 a rook on b1 between a queen on a1 and the king on
        // c1), moving it exposes the king.
        let after = (blockers ^ B::cell(c.king_from) ^ B::cell(c.rook_from)) | B::cell(c.king_to) | B::cell(c.rook_to);
        !self.attacked_with(c.king_to, !us, after)
    }

    /// Whether `m`, a piece move from elsewhere (see `is_legal_move`), is
    /// legal here.
    pub(crate) fn is_legal_piece_move(&mut self, m: Move, safety: &KingSafety<B>) -> bool {
        let rules = self.rules();
        let us = self.side_to_move();
        let cells = rules.geometry.cells();
        if m.from() >= cells || m.to() >= cells || m.shift != crate::moves::TileShift::NONE {
            return false;
        }
        let Some(piece) = self.piece_at(m.from()).filter(|p| p.color() == us) else { return false };
        let kind = piece.kind();
        let is_pawn = rules.roles[kind] == Role::Pawn;
        let promotes = is_pawn && rules.promotion_zone[us as usize].has(m.to());
        let promotion_ok = match m.promotion() {
            None => !promotes || !rules.variant.promotion.mandatory,
            Some(k) => promotes && rules.variant.promotion.choices.contains(&k),
        };
        let pseudo_legal = match m.kind {
            MoveKind::Quiet | MoveKind::Capture => {
                let (quiet, captures) =
                    self.rules().targets(us, kind, m.from(), self.blockers(), self.vacant(), self.pieces(!us));
                promotion_ok
                    && m.aux == 0
                    && if m.kind == MoveKind::Quiet { quiet.has(m.to()) } else { captures.has(m.to()) }
            }
            MoveKind::Castle => {
                let i = m.aux as usize;
                m.promotion().is_none()
                    && rules.castling.get(i).is_some_and(|c| c.king_from == m.from() && c.move_to == m.to())
                    && self.may_castle(i)
            }
            MoveKind::EnPassant => {
                m.promotion().is_none()
                    && self.en_passant() == Some(m.to())
                    && m.aux as usize == self.ep_victim()
                    && self.en_passant_takers(m.to(), us).has(m.from())
            }
            MoveKind::LegCapture => {
                m.promotion().is_none()
                    && rules.jumpers.contains(&kind)
                    && rules.moves[us as usize][kind].leg_captures[m.from()].contains(&(m.aux, m.to))
                    && self.pieces(!us).has(m.aux as usize)
                    && self.vacant().has(m.to())
            }
            MoveKind::Swap => {
                m.promotion().is_none()
                    && m.aux == 0
                    && self.king(us) == Some(m.from())
                    && self.swap_partners().has(m.to())
            }
            MoveKind::Null | MoveKind::Geret | MoveKind::Shift | MoveKind::Redefine => false,
        };
        pseudo_legal && self.is_legal(m, safety)
    }

    /// The king trading places with an adjacent piece of the kind the
    /// variant names (tested for check like any king move).
    fn generate_swaps(&self, out: &mut MoveList) {
        let Some(king) = self.king(self.side_to_move()) else { return };
        for next in self.swap_partners().cells() {
            out.push(Move::new(king, next, MoveKind::Swap));
        }
    }

    /// The cells of the pieces our king may trade places with: beside it
    /// on its rank, of the kind the variant names.
    fn swap_partners(&self) -> B {
        let rules = self.rules();
        let us = self.side_to_move();
        let (Some(partner), Some(king)) = (rules.variant.king_swaps_with, self.king(us)) else { return B::EMPTY };
        let beside = [-1, 1].iter().filter_map(|&dx| rules.geometry.offset(king, crate::geometry::Step::new(dx, 0)));
        beside.fold(B::EMPTY, |b, cell| b | B::cell(cell)) & self.pieces_of(us, partner)
    }

    /// Whether a pseudo-legal move leaves the mover's king safe.
    #[inline]
    pub fn is_legal(&mut self, m: Move, safety: &KingSafety<B>) -> bool {
        let Some(king) = safety.king else { return true };
        let us = self.side_to_move();
        if m.kind == MoveKind::Castle {
            return true; // generate_castling tested every cell
        }
        if m.from() == king && m.kind != MoveKind::Swap {
            return !self.attacked_with(m.to(), !us, self.blockers() ^ B::cell(king));
        }
        if matches!(m.kind, MoveKind::Quiet | MoveKind::Capture) {
            if !safety.in_check && !safety.pinned.has(m.from()) {
                return true;
            }
            if !safety.evasions.has(m.to()) {
                return false;
            }
            // One piece leaves `from` and stands on `to`, taking whatever
            // stood there: the king is safe if no other enemy piece reaches
            // it through the blockers as they will be. Cheaper than making
            // the move, for check evasions and pinned pieces alike.
            let after = self.blockers() & !B::cell(m.from()) | B::cell(m.to());
            return !self.attacked_by(king, !us, self.pieces(!us) & !B::cell(m.to()), after);
        }
        self.make(m);
        // Where the king stands now: a swap moves it off `safety.king`.
        let safe = self.king(us).is_none_or(|k| !self.attacked(k, !us));
        self.unmake();
        safe
    }

    /// Legal piece moves of the set asked for, in `out` (cleared first).
    ///
    /// Moves that cannot expose the king (not the king's, not a possibly
    /// pinned piece's, not en passant, not in check) are generated first
    /// and kept as they are; only the rest are tested.
    pub fn legal_piece_moves(&mut self, out: &mut MoveList, set: MoveSet) {
        let safety = self.king_safety();
        self.legal_piece_moves_with(out, set, &safety);
    }

    /// `legal_piece_moves` with the position's king safety already known
    /// (a staged search generates twice a node and tests its hash move and
    /// killers against the same safety).
    pub fn legal_piece_moves_with(&mut self, out: &mut MoveList, set: MoveSet, safety: &KingSafety<B>) {
        out.clear();
        let suspects = self.suspects(safety);
        self.generate_pieces(out, self.pieces(self.side_to_move()) & !suspects, set);
        self.push_tested_moves(out, suspects, set, safety);
    }

    /// How many legal piece moves there are (`legal_piece_moves` of every
    /// set, and its length): those that cannot expose the king counted
    /// from their target sets, only the rest written (in `scratch`) and
    /// tested. Perft's last ply, which needs the number, not the moves.
    pub(crate) fn count_legal_piece_moves(&mut self, scratch: &mut MoveList) -> usize {
        let safety = self.king_safety();
        let suspects = self.suspects(&safety);
        let safe = self.count_piece_moves(self.pieces(self.side_to_move()) & !suspects);
        scratch.clear();
        self.push_tested_moves(scratch, suspects, MoveSet::All, &safety);
        safe + scratch.len()
    }

    /// Whether the side to move has a legal piece move (Flexichess: a side
    /// with none is mated or stalemated, whatever rule changes would be
    /// open to it). The pieces that cannot expose the king are counted
    /// from their target sets, which nearly always settles it; only when
    /// they have no move are the rest generated and tested.
    pub fn has_legal_piece_move(&mut self) -> bool {
        let safety = self.king_safety();
        let suspects = self.suspects(&safety);
        if self.count_piece_moves(self.pieces(self.side_to_move()) & !suspects) > 0 {
            return true;
        }
        let mut scratch = MoveList::default();
        self.legal_piece_moves_with(&mut scratch, MoveSet::All, &safety);
        !scratch.is_empty()
    }

    /// Our pieces whose moves may expose the king: the king and the pieces
    /// that may be pinned, or all of them in check.
    fn suspects(&self, safety: &KingSafety<B>) -> B {
        match safety.king {
            None => B::EMPTY,
            Some(_) if safety.in_check => self.pieces(self.side_to_move()),
            Some(king) => safety.pinned | B::cell(king),
        }
    }

    /// Appends the legal moves of the set asked for that are not plain
    /// moves of pieces other than `suspects`: castling (tested as it is
    /// generated), then the suspects' moves, en passant, middle-cell
    /// captures and swaps, each tested.
    fn push_tested_moves(&mut self, out: &mut MoveList, suspects: B, set: MoveSet, safety: &KingSafety<B>) {
        if set != MoveSet::Noisy {
            self.generate_castling(out);
        }
        let first = out.len();
        self.generate_pieces(out, suspects, set);
        if set != MoveSet::Quiet {
            self.generate_en_passant(out);
            self.generate_leg_captures(out);
        }
        if set != MoveSet::Noisy {
            self.generate_swaps(out);
        }
        let mut i = first;
        while i < out.len() {
            if self.is_legal(out[i], safety) {
                i += 1;
            } else {
                out.swap_remove(i);
            }
        }
    }
}
