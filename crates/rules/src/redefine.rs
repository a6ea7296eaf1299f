//! Rule changes (Flexichess): a move that redefines how one kind of piece
//! moves, for both colours; which are legal, and the FEN's rules field.
//! The state they change is in `rule_change_state`.

use crate::betza::Movement;
use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveKind, MoveList};
use crate::piece::Color;
use crate::position::Position;
use crate::tables::{Rules, RulesError};
use std::sync::Arc;

impl<B: Bitboard> Position<B> {
    /// The rules with `kind` moving as `betza` (compiled once per set), in
    /// a variant whose rules change.
    pub(crate) fn rules_with(&self, kind: usize, betza: &str) -> Result<Arc<Rules<B>>, RulesError> {
        match self.rule_changes() {
            Some(changes) => changes.rules_with(self.rules(), kind, betza),
            None => Err(RulesError(format!("rules do not change in {}", self.rules().variant.name))),
        }
    }

    /// Legal rule changes for the side to move (RULINGS.md, Flexichess 5):
    /// none in check, which only a piece move answers, and none for a side
    /// with no legal piece move, which is mated or stalemated whatever
    /// changes would be open to it. Otherwise every catalogue movement,
    /// for every kind but the king, that the kind does not already have
    /// and after which the mover's king is not attacked: no enemy piece of
    /// that kind attacks it under the new movement (the change applies to
    /// both colours). A change may give check, or mate.
    pub fn legal_redefinitions(&mut self, out: &mut MoveList) {
        if self.rules().variant.redefinitions.is_empty() || self.in_check() || !self.has_legal_piece_move() {
            return;
        }
        self.push_redefinitions(out);
    }

    /// `legal_redefinitions` for a caller that has just listed the legal
    /// piece moves and knows whether there were any (so it need not look
    /// again: a staged search generates rule changes at every node).
    pub fn legal_redefinitions_beside(&mut self, out: &mut MoveList, has_piece_move: bool) {
        if has_piece_move && !self.rules().variant.redefinitions.is_empty() && !self.in_check() {
            self.push_redefinitions(out);
        }
    }

    /// Every change the catalogue offers that is not a no-op and leaves the
    /// mover's king safe. Tested by walking the new movement from the
    /// enemy pieces, so that no rule set is compiled for a change that
    /// search may never play.
    fn push_redefinitions(&self, out: &mut MoveList) {
        let rules = self.rules();
        for kind in 0..rules.piece_types {
            for i in 0..rules.variant.redefinitions.len() {
                if self.redefinition_allowed(kind, i) {
                    out.push(Move::new(kind, i, MoveKind::Redefine));
                }
            }
        }
    }

    /// Whether the side to move may make `kind` move as entry `i` of the
    /// catalogue (a legal rule change).
    pub(crate) fn may_redefine(&mut self, kind: usize, i: usize) -> bool {
        self.redefinition_allowed(kind, i) && !self.in_check() && self.has_legal_piece_move()
    }

    fn redefinition_allowed(&self, kind: usize, i: usize) -> bool {
        let rules = self.rules();
        rules.redefinable[kind * rules.catalogue.len() + i]
            && !self.would_attack_king(kind, &rules.catalogue[i], !self.side_to_move())
    }

    /// Whether a piece of `by` and `kind` would attack the other side's
    /// king if it moved as `movement`.
    fn would_attack_king(&self, kind: usize, movement: &Movement, by: Color) -> bool {
        let Some(king) = self.king(!by) else { return false };
        let g = self.rules().geometry;
        let blockers = self.blockers();
        for from in self.pieces_of(by, kind).cells() {
            let at_start = self.rules().initial_region[by as usize][kind].has(from);
            for leg in movement.legs.iter().filter(|l| l.mode.captures && (!l.initial_only || at_start)) {
                let step = if by == Color::White { leg.step } else { leg.step.for_black() };
                let mut cell = from;
                for _ in 0..leg.range.min(g.cells().min(255) as u8) {
                    let Some(next) = g.offset(cell, step) else { break };
                    if next == king {
                        return true;
                    }
                    if blockers.has(next) {
                        break;
                    }
                    cell = next;
                }
            }
        }
        false
    }

    /// The `kind=BETZA` list of every kind that moves other than in the
    /// variant's own rules (`N=NN,B=BW`), or `-`.
    pub fn redefinitions_text(&self) -> String {
        let rules = self.rules();
        let changed: Vec<String> = rules
            .variant
            .pieces
            .iter()
            .zip(&rules.original_betza)
            .filter(|(p, original)| p.betza != **original)
            .map(|(p, _)| format!("{}={}", p.letter, p.betza))
            .collect();
        if changed.is_empty() {
            "-".into()
        } else {
            changed.join(",")
        }
    }
}
