//! Quiescence search: below the main search's depth, only captures (and,
//! in check, every evasion) are searched until the position is quiet, so
//! that the static evaluation is never read in the middle of an exchange.
//! Out of check the side may stand pat; captures that cannot lift the
//! score to alpha (delta pruning) or that lose by static exchange are
//! not searched.

use super::{Worker, INFINITY, MATE, MAX_PLY};
use crate::move_picker::{capture_loses, order_score, Exchange};
use crate::see::see_at_least;
use protean_rules::{Bitboard, MoveList};

impl<B: Bitboard> Worker<'_, B> {
    pub(super) fn quiescence(&mut self, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.data.stack[ply].pv.clear();
        self.count_node();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = self.pos.in_check();
        // Owing a tile shift, the side may not stand pat: the turn goes on.
        let pending = self.pos.shift_pending();
        let t = self.tables();
        let stand_pat = if in_check || pending { -INFINITY } else { self.evaluate(&t) };
        if ply >= MAX_PLY {
            return if in_check || pending { 0 } else { stand_pat };
        }
        if stand_pat >= beta {
            return stand_pat;
        }
        alpha = alpha.max(stand_pat);
        let mut moves = std::mem::replace(&mut self.data.stack[ply].moves, MoveList::empty());
        self.generate(&mut moves, ply, true);
        let us = self.pos.side_to_move();
        if moves.is_empty() {
            self.data.stack[ply].moves = moves;
            return if in_check { -MATE + ply as i32 } else { stand_pat };
        }
        let mut order = std::mem::take(&mut self.data.stack[ply].ordered);
        order.clear();
        let (histories, killers) = (&self.data.histories, &self.data.stack[ply].killers);
        // Out of check a losing capture is never searched, so its exchange
        // is looked at only when it is reached (and not at all behind a
        // cutoff or delta pruning); the captures that are searched come in
        // the same order. In check every move is searched, losing captures
        // last.
        let exchange = if in_check { Exchange::Now } else { Exchange::Later };
        order.extend(moves.iter().map(|&m| {
            (order_score(&self.pos, m, None, killers, &t, &|p, m| histories.quiet(p, m, &[None, None]), exchange), m)
        }));
        order.sort_unstable_by_key(|o| std::cmp::Reverse(o.0));
        let mut best = stand_pat;
        for &(_, m) in &order {
            if !in_check && m.is_capture() {
                // Delta pruning, then losing exchanges are not looked at
                // (a promotion's exchange weighs the new piece). The
                // victim is weighed as the evaluation weighs it: by
                // exchange values a recapture of a queen would be pruned
                // wherever the evaluation rates a queen above 1,120.
                let victim = m
                    .capture_cell()
                    .and_then(|c| self.pos.piece_at(c).map(|p| t.placed_worth(p.color(), p.kind(), c)))
                    .unwrap_or(0);
                if m.promotion().is_none() && stand_pat + victim + self.params.delta_margin < alpha {
                    continue;
                }
                let loses = if m.promotion().is_some() {
                    !see_at_least(&self.pos, m, &t, 0)
                } else {
                    capture_loses(&self.pos, m, &t)
                };
                if loses {
                    continue;
                }
            }
            self.pos.make(m);
            let score = if self.pos.side_to_move() == us {
                self.quiescence(alpha, beta, ply + 1)
            } else {
                -self.quiescence(-beta, -alpha, ply + 1)
            };
            self.pos.unmake();
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.data.stack[ply].moves = moves;
        self.data.stack[ply].ordered = order;
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::thread_data::ThreadData;
    use crate::time::{Deadline, Limits};
    use crate::tt::TranspositionTable;
    use crate::{Options, Shared};
    use protean_rules::{with_position, AnyRules};

    /// Quiescence's score of the standard position `fen` (a ply below
    /// the root) in the null window just above its static evaluation
    /// plus `needed`, and that evaluation.
    fn quiescence_above(fen: &str, needed: i32) -> (i32, i32) {
        let pos = AnyRules::by_name("standard").unwrap().from_fen(fen).unwrap();
        let (tt, shared, limits, options) =
            (TranspositionTable::new(1), Shared::default(), Limits::default(), Options::default());
        let mut data = ThreadData::new();
        with_position!(&pos, p => {
            let mut w = Worker::new(p.clone(), &tt, &mut data, &shared, &limits, Deadline { soft: None, hard: None }, true, &options);
            let t = w.tables();
            let stand_pat = w.evaluate(&t);
            let alpha = stand_pat + needed;
            (w.quiescence(alpha, alpha + 1, 1), alpha)
        })
    }

    #[test]
    fn quiescence_takes_back_a_queen_the_evaluation_rates_above_its_exchange_value() {
        // White's queen has just taken Black's on d5; the e6 pawn takes
        // it back. The evaluation rates a queen in the middle game far
        // above its exchange value (920), so winning back 1,500 is within
        // reach of the recapture and must not be pruned as out of reach.
        let queen_taken = "rnb1kbnr/ppp2ppp/4p3/3Q4/8/8/PPPP1PPP/RNB1KBNR b KQkq - 0 1";
        let (score, alpha) = quiescence_above(queen_taken, 1_500);
        assert!(score > alpha, "{score} <= {alpha}");
        // Out of the recapture's reach, the window still fails low.
        let (score, alpha) = quiescence_above(queen_taken, 4_000);
        assert!(score <= alpha, "{score} > {alpha}");
    }
}
