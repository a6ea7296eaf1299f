//! The tree: principal variation search over one node and its children,
//! with every pruning, reduction and extension named in the search's
//! module comment, its margins read from `SearchParams`. Quiescence
//! (`quiescence`) takes over where the depth runs out.

use super::{Worker, INFINITY, MATE, MATE_BOUND, MAX_PLY, NO_EVAL};
use crate::move_picker::{is_quiet, legal_hash_move, pack, MovePicker, Picking};
use crate::see::{quiet_see_at_least, see_at_least};
use crate::thread_data::ThreadData;
use crate::tt::{prefetch, Bound, Entry};
use protean_rules::{Bitboard, Move, MoveList};

fn to_tt(score: i32, ply: usize) -> i16 {
    let s = if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    };
    s as i16
}

fn from_tt(score: i16, ply: usize) -> i32 {
    let s = score as i32;
    if s >= MATE_BOUND {
        s - ply as i32
    } else if s <= -MATE_BOUND {
        s + ply as i32
    } else {
        s
    }
}

impl<B: Bitboard> Worker<'_, B> {
    /// Searches the root to `depth` inside (alpha, beta); the line found is
    /// the root frame's `pv`.
    pub fn root(&mut self, depth: i32, alpha: i32, beta: i32) -> i32 {
        self.root_depth = depth;
        self.negamax(alpha, beta, depth, 0, true, false)
    }

    /// The moves of this node: whole turns at the root, half turns below
    /// it when turns are split.
    pub(super) fn generate(&mut self, moves: &mut MoveList, ply: usize, captures_only: bool) {
        if self.split_turns && ply > 0 {
            self.pos.legal_half_turns(moves, captures_only);
        } else if captures_only {
            self.pos.legal_captures(moves);
        } else {
            self.pos.legal_moves(moves);
        }
    }

    /// Searches the position after a move: negated for the opponent, as
    /// it is when the same side moves again (the shift of a split turn).
    #[allow(clippy::too_many_arguments)]
    fn child(
        &mut self,
        us: protean_rules::Color,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
        pv_node: bool,
        can_null: bool,
    ) -> i32 {
        if self.pos.side_to_move() == us {
            self.negamax(alpha, beta, depth, ply, pv_node, can_null)
        } else {
            -self.negamax(-beta, -alpha, depth, ply, pv_node, can_null)
        }
    }

    pub(super) fn negamax(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        pv_node: bool,
        can_null: bool,
    ) -> i32 {
        self.data.stack[ply].pv.clear();
        // Set while this node is searched without its hash move (a
        // singular extension's test).
        let excluded = self.data.stack[ply].excluded;
        if ply > 0 {
            if self.stopped {
                return 0;
            }
            if self.pos.draw_by_rule().is_some() {
                return self.draw();
            }
            // Mate distance pruning: no line here can beat a shorter mate.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        if depth <= 0 || ply >= MAX_PLY {
            return self.quiescence(alpha, beta, ply);
        }
        self.count_node();
        self.seldepth = self.seldepth.max(ply);
        let in_check = self.pos.in_check();
        let key = self.pos.key();
        let entry = self.tt.probe(key);
        let tt_move = entry.and_then(|e| e.mv);
        if let Some(e) = entry {
            if !pv_node && excluded.is_none() && e.depth as i32 >= depth {
                let s = from_tt(e.score, ply);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    return s;
                }
            }
        }
        let t = self.tables();
        let static_eval = if in_check { NO_EVAL } else { self.evaluate(&t) };
        self.data.stack[ply].static_eval = static_eval;
        // The table's score, where its bound says it is at least as good a
        // guess, stands in for the static evaluation in the margins below.
        let eval = match entry {
            Some(e) if !in_check => {
                let s = from_tt(e.score, ply);
                let tighter = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s > static_eval,
                    Bound::Upper => s < static_eval,
                };
                if tighter && s.abs() < MATE_BOUND {
                    s
                } else {
                    static_eval
                }
            }
            _ => static_eval,
        };
        // Is the side to move better off than at its last move? Where it is,
        // a move is likelier to hold beta, so pruning may be bolder; where
        // it is not, the margins tighten. (Two plies up is the same side
        // unless turns are split, where it may not be.)
        let improving =
            !in_check && !self.split_turns && ply >= 2 && static_eval > self.data.stack[ply - 2].static_eval;

        // Internal iterative reduction: a node the table knows no move for
        // was never searched, or not usefully; a shallower search costs
        // less and finds it a hash move for the next iteration.
        let p = self.params;
        if ply > 0 && depth >= p.iir_depth && tt_move.is_none() && excluded.is_none() {
            depth -= 1;
        }

        if !pv_node && !in_check && ply > 0 && excluded.is_none() {
            // Reverse futility: far above beta at low depth, stay there.
            if depth <= p.rfp_depth && eval - p.rfp_margin * (depth - i32::from(improving)) >= beta && eval < MATE_BOUND
            {
                return eval;
            }
            // Null move: if passing still holds beta, a real move will too
            // (not with pawns only, where zugzwang is common).
            if can_null
                && depth >= p.nmp_depth
                && eval >= beta
                && static_eval >= beta
                && self.has_pieces_beyond_pawns()
                && !self.pos.shift_pending()
            {
                let r = p.nmp_base + depth / p.nmp_depth_divisor;
                self.data.stack[ply].continuation = None;
                self.pos.make(Move::NULL);
                let score = -self.negamax(-beta, -beta + 1, depth - 1 - r, ply + 1, false, false);
                self.pos.unmake();
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    return if score >= MATE_BOUND { beta } else { score };
                }
            }
        }

        // Singular extension: where the hash move holds a good lower bound
        // and every other move, searched shallower, falls well short of
        // it, the hash move is the only move here and is searched a ply
        // deeper. Where another move also holds beta, either would do: the
        // node is cut off (multi-cut). Where the hash move is not singular
        // but its bound beats beta, it is searched a ply shallower.
        let mut hash_extension = None;
        let may_extend = ply > 0
            && ply < 2 * self.root_depth as usize
            && depth >= p.se_depth
            && excluded.is_none()
            && !self.tiles_move;
        if let Some(e) = entry.filter(|_| may_extend) {
            let tt_score = from_tt(e.score, ply);
            if e.depth as i32 >= depth - p.se_entry_depth_margin
                && e.bound != Bound::Upper
                && tt_score.abs() < MATE_BOUND
            {
                if let Some(m) = e.mv.and_then(|p| legal_hash_move(&mut self.pos, p)) {
                    let singular_beta = tt_score - p.se_beta_margin * depth;
                    self.data.stack[ply].excluded = Some(m);
                    let score = self.negamax(singular_beta - 1, singular_beta, (depth - 1) / 2, ply, false, false);
                    self.data.stack[ply].excluded = None;
                    if self.stopped {
                        return 0;
                    }
                    if score < singular_beta {
                        hash_extension = Some(1);
                    } else if singular_beta >= beta {
                        return singular_beta;
                    } else if tt_score >= beta {
                        hash_extension = Some(-1);
                    }
                }
            }
        }

        let context = self.context(ply);
        let picking = if ply == 0 || self.tiles_move {
            Picking::All
        } else if in_check {
            Picking::HashThenAll
        } else {
            Picking::Staged
        };
        let mut picker = MovePicker::new(&mut self.data.stack[ply], picking, tt_move);
        if picking == Picking::All {
            let moves = picker.all_moves();
            self.generate(moves, ply, false);
            if ply == 0 {
                let (roots, excluded) = (&self.root_moves, &self.excluded);
                let mut i = 0;
                while i < moves.len() {
                    if !roots.contains(&moves[i]) || excluded.contains(&moves[i]) {
                        moves.swap_remove(i);
                    } else {
                        i += 1;
                    }
                }
            }
            picker.score_all(&self.pos, &t, &|p, m| self.data.histories.quiet(p, m, &context));
        }
        let us = self.pos.side_to_move();
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut quiets_tried = std::mem::take(&mut self.data.stack[ply].quiets_tried);
        quiets_tried.clear();
        let mut yielded = 0;
        loop {
            let histories = &self.data.histories;
            let Some(m) = picker.next(&mut self.pos, &t, &|p, m| histories.quiet(p, m, &context)) else { break };
            if Some(m) == excluded {
                continue;
            }
            let quiet = is_quiet(m);
            let n = yielded;
            yielded += 1;

            // Pruning at low depth, once a move has saved the node from
            // being mated: quiet moves far down the ordered list (late move
            // pruning), quiet moves that even a good positional gain would
            // leave below alpha (futility), and captures that lose more than
            // the depth can win back (static exchange). A move that gives
            // check is searched all the same, save for late move pruning.
            let mut prune_unless_check = false;
            if !pv_node && !in_check && ply > 0 && best > -MATE_BOUND {
                if quiet {
                    if depth <= p.lmp_depth && n >= p.late_move_count(depth, improving) {
                        continue;
                    }
                    // The margins read the depth the move would be searched
                    // to once reduced, as Stockfish's do: a late move is
                    // judged at the depth it would get.
                    let reduced = (depth - 1 - self.late_move_reduction(depth, n)).max(0);
                    // A quiet move that leaves its piece to be taken for
                    // more than the reduced depth could win back.
                    let see_margin = -p.quiet_see_quadratic * reduced * reduced - p.quiet_see_linear * reduced;
                    if reduced <= p.quiet_see_depth && !quiet_see_at_least(&self.pos, m, &t, see_margin) {
                        continue;
                    }
                    prune_unless_check =
                        reduced <= p.futility_depth && eval + p.futility_base + p.futility_margin * reduced <= alpha;
                } else if depth <= p.capture_see_depth
                    && m.is_capture()
                    && !see_at_least(&self.pos, m, &t, -p.capture_see_margin * depth)
                {
                    prune_unless_check = true;
                }
            }

            // A late quiet move may be reduced (unless it gives check); its
            // history, which scales the reduction, is read before the move
            // is made, and only for such a move.
            let reducible = depth >= p.lmr_depth && n >= p.lmr_moves + usize::from(pv_node) && quiet && !in_check;
            let move_history = if reducible { self.data.histories.quiet(&self.pos, m, &context) } else { 0 };
            self.data.stack[ply].continuation = self.data.histories.context(&self.pos, m);
            self.pos.make(m);
            // Fetched before the check test, whose attack lookups then
            // hide the memory's latency from the child's probe.
            let child_key = self.pos.key();
            self.tt.prefetch(child_key);
            prefetch(&self.data.eval_cache[ThreadData::eval_slot(child_key)]);
            let gives_check = self.pos.in_check();
            if prune_unless_check && !gives_check {
                self.pos.unmake();
                continue;
            }
            let nodes_before = self.nodes;
            let extension = match hash_extension {
                Some(e) if n == 0 => e,
                _ => i32::from(gives_check),
            };
            // The piece move of a split turn costs no depth: the shift does.
            let new_depth = if self.pos.shift_pending() { depth } else { depth - 1 + extension };
            let score = if n == 0 {
                self.child(us, alpha, beta, new_depth, ply + 1, pv_node, true)
            } else {
                let mut r = 0;
                if reducible && !gives_check {
                    r = self.late_move_reduction(depth, n);
                    if pv_node {
                        r -= p.lmr_pv;
                    }
                    if self.data.stack[ply].killers.contains(&Some(m)) {
                        r -= p.lmr_killer;
                    }
                    if !improving {
                        r += p.lmr_not_improving;
                    }
                    // A move with a good record is reduced less, a bad one more.
                    r -= move_history / p.lmr_history_divisor;
                    r = r.clamp(0, new_depth - 1);
                }
                let mut s = self.child(us, alpha, alpha + 1, new_depth - r, ply + 1, false, true);
                if s > alpha && r > 0 {
                    s = self.child(us, alpha, alpha + 1, new_depth, ply + 1, false, true);
                }
                if s > alpha && s < beta && pv_node {
                    s = self.child(us, alpha, beta, new_depth, ply + 1, true, true);
                }
                s
            };
            self.pos.unmake();
            if ply == 0 {
                if let Some(i) = self.root_moves.iter().position(|&r| r == m) {
                    self.root_nodes[i] += self.nodes - nodes_before;
                }
            }
            if self.stopped {
                picker.finish(&mut self.data.stack[ply]);
                self.data.stack[ply].quiets_tried = quiets_tried;
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(m);
                    let (head, tail) = self.data.stack.split_at_mut(ply + 1);
                    let pv = &mut head[ply].pv;
                    pv.clear();
                    pv.push(m);
                    pv.extend_from_slice(&tail[0].pv);
                    if score >= beta {
                        if quiet {
                            self.reward_quiet(m, &quiets_tried, depth, ply, &context);
                        }
                        break;
                    }
                }
            }
            if quiet {
                quiets_tried.push(m);
            }
        }
        picker.finish(&mut self.data.stack[ply]);
        self.data.stack[ply].quiets_tried = quiets_tried;
        if yielded == 0 {
            if excluded.is_some() {
                // The hash move was the only legal move: singular indeed.
                return alpha;
            }
            // No legal move: mate or stalemate (or, at the root, every
            // move already has its MultiPV line).
            return if ply == 0 && !self.excluded.is_empty() {
                -INFINITY
            } else if in_check {
                -MATE + ply as i32
            } else {
                self.draw()
            };
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // The static evaluation learns from the result, where the result
        // says something about it: not where a capture decided it, and not
        // where the bound leaves the gap's direction open.
        let best_is_capture = best_move.is_some_and(|m| !is_quiet(m));
        if excluded.is_none()
            && !in_check
            && !best_is_capture
            && best.abs() < MATE_BOUND
            && !(bound == Bound::Lower && best <= static_eval)
            && !(bound == Bound::Upper && best >= static_eval)
        {
            self.data.correction.update(&self.pos, depth, best, static_eval);
        }
        if excluded.is_none() {
            self.tt.store(
                key,
                Entry {
                    mv: best_move.map(|m| pack(m, self.tiles_move)),
                    score: to_tt(best, ply),
                    depth: depth.clamp(0, 255) as u8,
                    bound,
                },
            );
        }
        best
    }
}
