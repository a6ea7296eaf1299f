//! One search, as the main thread runs it: iterative deepening with
//! aspiration windows and MultiPV lines, helpers on the other threads
//! (Lazy SMP: each runs the same deepening on its own copy of the
//! position, one or two plies ahead, shares the transposition table, and
//! offers the iterations it finishes: the main thread plays a deeper
//! one), a soft limit scaled by how settled each iteration left the
//! search, a watchdog for the hard deadline, and the pick of a weakened
//! skill. Then, if the listener asks for it, pondering on the expected
//! reply (XBoard's own pondering).

use crate::search::{Worker, MAX_PLY};
use crate::skill::{self, Random};
use crate::thread_data::ThreadData;
use crate::thread_pool::{Countdown, CountedDown, Job};
use crate::time::{Deadline, Limits, Progress};
use crate::tt::TranspositionTable;
use crate::{AfterMove, FinishedLine, Listener, Options, Outcome, Report, Score, Shared, MATE};
use protean_rules::moves::TileShift;
use protean_rules::{with_position, AnyPosition, Bitboard, Move, MoveKind};
use std::sync::atomic::Ordering;
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::time::Duration;

/// What one search is asked, shared with its helper threads.
pub(crate) struct Request {
    pub limits: Limits,
    pub options: Options,
    pub tt: Arc<TranspositionTable>,
    pub shared: Arc<Shared>,
}

/// The main thread's job: searches `root`, tells the listener, and while
/// the listener answers with a position to ponder on (and nobody has
/// stopped the engine), searches that.
pub(crate) fn run(
    mut root: AnyPosition,
    request: Arc<Request>,
    mut listener: Listener,
    helpers: Vec<Sender<Job>>,
    data: &mut ThreadData,
) {
    loop {
        let (outcome, helpers_done) = search(&root, &request, &*listener.info, &helpers, data);
        let after = (listener.best_move)(&root, &outcome);
        // The move is out before the helpers have all seen the stop: with
        // more threads than cores each waits for its turn on one, and the
        // clock would pay for their turns. The next search waits instead.
        helpers_done.wait();
        match after {
            AfterMove::Done => return,
            AfterMove::Ponder(next) => {
                if !request.shared.begin_pondering() {
                    return;
                }
                root = *next;
            }
        }
    }
}

type Info<'a> = &'a (dyn Fn(&AnyPosition, &Report) + Send + Sync);

/// Searches `root` and returns what the main thread found, and the count
/// of helpers still ending (they have been told to stop).
fn search(
    root: &AnyPosition,
    request: &Arc<Request>,
    info: Info,
    helpers: &[Sender<Job>],
    data: &mut ThreadData,
) -> (Outcome, Arc<Countdown>) {
    let Request { limits, options, tt, shared } = &**request;
    tt.new_search();
    let deadline = limits.deadline(root.side_to_move(), options.move_overhead);
    let threads = options.threads.clamp(1, helpers.len() + 1);
    let helpers_done = Arc::new(Countdown::new(threads - 1));
    let outcome = std::thread::scope(|scope| {
        let watchdog = deadline.hard.map(|hard| scope.spawn(move || watchdog(shared, hard)));
        let mut outcome = with_position!(root, p => {
            // The main thread's worker first: with more threads than
            // cores, helpers would otherwise search while it is built.
            let worker = Worker::new(p.clone(), tt, data, shared, limits, deadline, true, options);
            for (id, jobs) in helpers.iter().enumerate().take(threads - 1) {
                let (root, request, done) = (root.clone(), request.clone(), helpers_done.clone());
                let job: Job = Box::new(move |data| {
                    let _done = CountedDown(&done);
                    let Request { limits, options, tt, shared } = &*request;
                    with_position!(&root, p => helper(Worker::new(p.clone(), tt, data, shared, limits, deadline, false, options), limits, options, shared, id + 1));
                });
                if jobs.send(job).is_err() {
                    helpers_done.count_down();
                }
            }
            main_thread(worker, root, limits, options, tt, shared, deadline, info)
        });
        shared.stop.store(true, Ordering::SeqCst);
        if let Some(w) = watchdog {
            w.thread().unpark();
        }
        outcome.nodes = shared.nodes.load(Ordering::Relaxed);
        outcome.time = shared.elapsed();
        outcome.ponder_missed = shared.pondering.load(Ordering::SeqCst);
        outcome
    });
    (outcome, helpers_done)
}

/// Stops the search at the hard deadline from a thread of its own, so the
/// clock holds even when search threads outnumber the cores (the main
/// thread may wait long for its turn on one) and inside a node that takes
/// long (a Beyond Chess turn list, a Flexichess rule set compiled). The
/// deadline waits while pondering, as the main thread's own check does.
fn watchdog(shared: &Shared, hard: Duration) {
    while !shared.stop.load(Ordering::SeqCst) {
        if shared.pondering.load(Ordering::SeqCst) {
            std::thread::park_timeout(Duration::from_millis(1));
            continue;
        }
        let left = hard.saturating_sub(shared.elapsed());
        if left.is_zero() {
            shared.stop.store(true, Ordering::SeqCst);
            return;
        }
        std::thread::park_timeout(left.min(Duration::from_millis(5)));
    }
}

/// A Lazy SMP helper: the same iterative deepening, reporting nothing. It
/// fills the shared table, keeping one ply (two on even threads) ahead of
/// the main thread so that what it stores is what the main thread's next
/// iteration will ask for, and offers each iteration it finishes to the
/// main thread, which may play it (see [`helper_line_to_play`]). A helper
/// that finishes the depth asked for (`go depth`) ends the search: that
/// depth has been searched.
fn helper<B: Bitboard>(mut w: Worker<B>, limits: &Limits, options: &Options, shared: &Shared, id: usize) {
    if w.root_moves.is_empty() {
        return;
    }
    let lead = 1 + id.is_multiple_of(2) as i32;
    let depth_limit =
        limits.depth.filter(|_| helper_lines_count(limits, options)).map(|d| d.clamp(1, MAX_PLY as u32 - 1) as i32);
    let last = depth_limit.unwrap_or(MAX_PLY as i32 - 1);
    let (mut depth, mut previous) = (1, 0);
    // Ends at `last` (below), or when stopped.
    while !w.stopped {
        let score = aspirated(&mut w, depth, previous, true);
        if w.stopped {
            break;
        }
        previous = score;
        let pv = whole_turns(&w.principal_variation());
        if !pv.is_empty() {
            shared.offer_helper_line(FinishedLine { depth: depth as u32, seldepth: w.seldepth, score, pv });
        }
        if depth == last {
            if depth_limit.is_some() && !shared.pondering.load(Ordering::SeqCst) {
                shared.stop.store(true, Ordering::SeqCst);
            }
            break;
        }
        depth = (depth + 1).max(shared.main_depth.load(Ordering::Relaxed) as i32 + lead).min(last);
    }
    w.flush_nodes();
}

/// Whether the main thread may play a helper's line: not where it wants
/// several lines or a weakened pick among them (a helper searches one),
/// and not where it waits for `stop` (`go infinite`).
fn helper_lines_count(limits: &Limits, options: &Options) -> bool {
    options.multi_pv <= 1 && options.skill.is_none_or(|s| s.is_full()) && !limits.infinite
}

/// The helper line the main thread plays instead of its own: one of a
/// deeper iteration than the main thread finished, where it scores at
/// least as well or the main thread was stopped because the helper
/// finished the depth asked for.
fn helper_line_to_play(shared: &Shared, limits: &Limits, main_depth: u32, main_score: i32) -> Option<FinishedLine> {
    let line = shared.take_helper_line()?;
    let depth_reached = limits.depth.is_some_and(|d| line.depth >= d);
    (line.depth > main_depth && (line.score >= main_score || depth_reached)).then_some(line)
}

/// Searches the root to `depth`, in an aspiration window around
/// `previous` where `may_aspire` and the depth is deep enough
/// (`SearchParams::aspiration_depth`; widened on each failure), else in
/// the full window; returns the score (meaningless once `w.stopped`).
fn aspirated<B: Bitboard>(w: &mut Worker<B>, depth: i32, previous: i32, may_aspire: bool) -> i32 {
    let aspire = may_aspire && depth >= w.params.aspiration_depth;
    let mut delta = w.params.aspiration_delta;
    let (mut alpha, mut beta) = if aspire { (previous - delta, previous + delta) } else { (-MATE - 1, MATE + 1) };
    loop {
        let s = w.root(depth, alpha, beta);
        if w.stopped {
            return s;
        }
        if s <= alpha {
            alpha = (alpha - delta).max(-MATE - 1);
        } else if s >= beta {
            beta = (beta + delta).min(MATE + 1);
        } else {
            return s;
        }
        delta *= 2;
    }
}

/// The report of a finished line, with the search's progress so far.
fn report(shared: &Shared, tt: &TranspositionTable, multi_pv: usize, line: FinishedLine) -> Report {
    let elapsed = shared.elapsed();
    let nodes = shared.nodes.load(Ordering::Relaxed);
    Report {
        depth: line.depth,
        seldepth: line.seldepth,
        multi_pv,
        score: Score::from_internal(line.score),
        nodes,
        nps: (nodes as f64 / elapsed.as_secs_f64().max(1e-6)) as u64,
        hashfull: tt.hashfull(),
        time: elapsed,
        pv: line.pv,
    }
}

/// A line with split turns written as whole turns: a piece move that a
/// tile shift follows, and that shift, become one move.
fn whole_turns(line: &[Move]) -> Vec<Move> {
    let mut out: Vec<Move> = Vec::with_capacity(line.len());
    for &m in line {
        match out.last_mut() {
            Some(last) if last.shift == TileShift::FOLLOWS && m.kind == MoveKind::Shift => {
                last.shift = if m.from == m.to { TileShift::NONE } else { TileShift(m.from, m.to) };
            }
            _ => out.push(m),
        }
    }
    // A line cut between the two plies ends with the piece move alone.
    if let Some(last) = out.last_mut() {
        if last.shift == TileShift::FOLLOWS {
            out.pop();
        }
    }
    out
}

#[allow(clippy::too_many_arguments)]
fn main_thread<B: Bitboard>(
    mut w: Worker<B>,
    root: &AnyPosition,
    limits: &Limits,
    options: &Options,
    tt: &TranspositionTable,
    shared: &Shared,
    deadline: Deadline,
    info: Info,
) -> Outcome {
    let mut outcome = Outcome::default();
    let mut max_depth = limits.depth.unwrap_or(MAX_PLY as u32 - 1).clamp(1, MAX_PLY as u32 - 1);
    let mut lines_wanted = options.multi_pv.max(1);
    let skill = options.skill.filter(|s| !s.is_full());
    if let Some(skill) = skill {
        max_depth = max_depth.min(skill.depth_cap());
        lines_wanted = lines_wanted.max(skill::LINES);
    }
    let lines_wanted = lines_wanted.min(w.root_moves.len());
    let mut best: Option<(Move, Vec<Move>)> = None;
    // The lines of the last finished iteration, for a limited skill's pick.
    let mut last_lines: Vec<(Move, Vec<Move>, i32)> = Vec::new();
    let mut previous = 0;
    let mut stable_iterations = 0;
    'deepening: for depth in 1..=max_depth as i32 {
        if w.root_moves.is_empty() {
            break;
        }
        shared.main_depth.store(depth as u32, Ordering::Relaxed);
        let (best_before, score_before) = (best.as_ref().map(|(m, _)| *m), previous);
        let mut chosen: Vec<Move> = Vec::new();
        let mut lines: Vec<(Move, Vec<Move>, i32)> = Vec::new();
        for line in 0..lines_wanted {
            w.set_excluded(chosen.clone());
            let score = aspirated(&mut w, depth, previous, line == 0);
            let pv = whole_turns(&w.principal_variation());
            if w.stopped {
                // An unfinished iteration still counts if its first line
                // finished a better move than the last iteration's.
                if line == 0 && !pv.is_empty() && score > previous && best.is_some() {
                    best = Some((pv[0], pv));
                }
                break 'deepening;
            }
            let Some(&first) = pv.first() else { break 'deepening };
            chosen.push(first);
            lines.push((first, pv.clone(), score));
            if line == 0 {
                previous = score;
                best = Some((first, pv.clone()));
                outcome.score = Some(Score::from_internal(score));
                outcome.depth = depth as u32;
            }
            w.flush_nodes();
            info(
                root,
                &report(shared, tt, line + 1, FinishedLine { depth: depth as u32, seldepth: w.seldepth, score, pv }),
            );
        }
        last_lines = lines;
        let best_now = best.as_ref().map(|(m, _)| *m);
        stable_iterations = if best_now == best_before { stable_iterations + 1 } else { 0 };
        if let (Some(mate), Some(Score::Mate(m))) = (limits.mate, outcome.score) {
            if m > 0 && m as u32 <= mate {
                break;
            }
        }
        if !shared.pondering.load(Ordering::Relaxed) {
            // From depth 5, how settled the iteration left the search
            // scales the soft limit (see `time::Progress`).
            let progress = best.as_ref().filter(|_| depth >= 5).map(|(m, _)| Progress {
                stable_iterations,
                best_move_share: w.node_share(*m),
                score_drop: score_before - previous,
            });
            if deadline.soft_reached(shared.elapsed(), progress) {
                break;
            }
        }
    }
    // `go infinite` and `go ponder` wait for `stop` (or `ponderhit`).
    while (limits.infinite || shared.pondering.load(Ordering::Relaxed)) && !shared.stop.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(1));
    }
    w.flush_nodes();
    if helper_lines_count(limits, options) {
        if let Some(line) = helper_line_to_play(shared, limits, outcome.depth, previous) {
            outcome.score = Some(Score::from_internal(line.score));
            outcome.depth = line.depth;
            best = Some((line.pv[0], line.pv.clone()));
            info(root, &report(shared, tt, 1, line));
        }
    }
    if let Some(skill) = skill {
        if last_lines.len() > 1 {
            last_lines.sort_by_key(|l| std::cmp::Reverse(l.2));
            let scores: Vec<i32> = last_lines.iter().map(|l| l.2).collect();
            let (m, pv, _) = last_lines.swap_remove(skill.pick(&scores, &mut Random::from_clock()));
            best = Some((m, pv));
        }
    }
    // With no finished iteration (stopped at once), any legal move beats none.
    let (best_move, pv) = best.unwrap_or_else(|| (w.root_moves.first().copied().unwrap_or(Move::NULL), Vec::new()));
    if best_move.kind != MoveKind::Null {
        outcome.best = Some(best_move);
        outcome.ponder = w.ponder_move(best_move, &pv);
    }
    outcome
}
