//! Search for Protean: Lazy SMP over a shared lock-free transposition
//! table. This crate knows positions (`rules`) but nothing of protocols:
//! it reports progress through a callback with plain values, and a
//! protocol turns those into `info` lines.

pub mod evaluate;
mod search;
pub mod see;
pub mod skill;
pub mod time;
pub mod tt;

pub use search::{MATE, MATE_BOUND, MAX_PLY};
pub use time::Limits;
pub use tt::TranspositionTable;

use evaluate::EvalTables;
use protean_rules::moves::TileShift;
use protean_rules::{with_position, AnyPosition, Bitboard, Move, MoveKind, Position};
use search::Worker;
use skill::{Random, Skill};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// What every search thread and the protocol share during one search.
#[derive(Debug)]
pub struct Shared {
    /// Set by `stop`, by a limit, or when the main thread is done.
    pub stop: AtomicBool,
    /// While set, time limits wait (`go ponder` until `ponderhit`).
    pub pondering: AtomicBool,
    pub nodes: AtomicU64,
    /// The depth the main thread is searching; helpers keep ahead of it.
    main_depth: AtomicU32,
    start: Mutex<Instant>,
}

impl Default for Shared {
    fn default() -> Self {
        Shared {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            main_depth: AtomicU32::new(0),
            start: Mutex::new(Instant::now()),
        }
    }
}

impl Shared {
    pub fn elapsed(&self) -> Duration {
        self.start.lock().expect("clock lock").elapsed()
    }
    /// The opponent played the expected move: the search goes on as a
    /// normal timed search whose clock starts now.
    pub fn ponderhit(&self) {
        *self.start.lock().expect("clock lock") = Instant::now();
        self.pondering.store(false, Ordering::SeqCst);
    }
    /// Arms the shared state for a new search. Call it before starting
    /// the search's thread, never from it: a `stop` that arrives between
    /// the two must not be erased.
    pub fn begin(&self, pondering: bool) {
        self.stop.store(false, Ordering::SeqCst);
        self.pondering.store(pondering, Ordering::SeqCst);
        self.nodes.store(0, Ordering::SeqCst);
        self.main_depth.store(0, Ordering::SeqCst);
        *self.start.lock().expect("clock lock") = Instant::now();
    }
}

#[derive(Clone, Debug)]
pub struct Options {
    pub threads: usize,
    pub multi_pv: usize,
    pub move_overhead: Duration,
    /// Where tiles move, search a turn below the root as two plies (piece
    /// move, then tile shift) instead of one compound move.
    pub split_turns: bool,
    /// Playing below full strength (`Skill Level`, `UCI_Elo`).
    pub skill: Option<Skill>,
}

impl Default for Options {
    fn default() -> Self {
        Options { threads: 1, multi_pv: 1, move_overhead: Duration::from_millis(10), split_turns: SPLIT_TURNS_BY_DEFAULT, skill: None }
    }
}

/// How turns with a tile shift are searched unless asked otherwise; the
/// README gives the measurement that chose it.
pub const SPLIT_TURNS_BY_DEFAULT: bool = true;

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

/// A score as protocols print it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Centipawns(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

/// Where the win-draw-loss model puts an even chance of winning, and how
/// quickly the chance rises: a logistic curve in centipawns, the shape of
/// Stockfish's. A first model, not yet fitted to Protean's own games.
const WDL_MIDPOINT: f64 = 200.0;
const WDL_SCALE: f64 = 80.0;

impl Score {
    /// Expected wins, draws and losses per thousand games from here, for
    /// the side the score is for (UCI's `wdl`).
    pub fn wdl(self) -> [u32; 3] {
        let cp = match self {
            Score::Centipawns(cp) => f64::from(cp),
            Score::Mate(m) if m > 0 => return [1000, 0, 0],
            Score::Mate(_) => return [0, 0, 1000],
        };
        let chance = |v: f64| 1000.0 / (1.0 + ((WDL_MIDPOINT - v) / WDL_SCALE).exp());
        let (win, loss) = (chance(cp).round() as u32, chance(-cp).round() as u32);
        [win, 1000 - win - loss, loss]
    }

    pub fn from_internal(s: i32) -> Score {
        if s >= MATE_BOUND {
            Score::Mate((MATE - s + 1) / 2)
        } else if s <= -MATE_BOUND {
            Score::Mate(-(MATE + s) / 2)
        } else {
            Score::Centipawns(s)
        }
    }
}

/// One line of progress: what UCI's `info` carries.
#[derive(Clone, Debug)]
pub struct Report {
    pub depth: u32,
    pub seldepth: usize,
    pub multi_pv: usize,
    pub score: Score,
    pub nodes: u64,
    pub nps: u64,
    pub hashfull: u32,
    pub time: Duration,
    pub pv: Vec<String>,
}

#[derive(Clone, Debug, Default)]
pub struct Outcome {
    pub best: Option<String>,
    pub ponder: Option<String>,
    pub score: Option<Score>,
    pub nodes: u64,
    pub depth: u32,
}

/// Searches `pos` within `limits`, calling `report` with each finished
/// line of the main thread, and returns the best move. `shared.stop` ends
/// it at once from another thread; `shared.begin` must have been called
/// for it (a fresh `Shared` is ready).
pub fn search(pos: &AnyPosition, limits: &Limits, options: &Options, tt: &TranspositionTable, shared: &Shared, report: &(dyn Fn(&Report) + Sync)) -> Outcome {
    with_position!(pos, p => search_generic(p, limits, options, tt, shared, report))
}

fn search_generic<B: Bitboard>(pos: &Position<B>, limits: &Limits, options: &Options, tt: &TranspositionTable, shared: &Shared, report: &(dyn Fn(&Report) + Sync)) -> Outcome {
    tt.new_search();
    let eval = std::sync::Arc::new(EvalTables::new(pos.rules()));
    let deadline = limits.deadline(pos.side_to_move(), options.move_overhead);
    let threads = options.threads.max(1);
    std::thread::scope(|scope| {
        let watchdog = deadline.hard.map(|hard| scope.spawn(move || watchdog(shared, hard)));
        // The main thread's data first: with more threads than cores, the
        // helpers would otherwise start searching while it is still built.
        let worker = Worker::new(pos.clone(), tt, eval.clone(), shared, limits, deadline, true, options.split_turns);
        for id in 1..threads {
            let worker = Worker::new(pos.clone(), tt, eval.clone(), shared, limits, deadline, false, options.split_turns);
            std::thread::Builder::new()
                .stack_size(16 << 20)
                .spawn_scoped(scope, move || helper(worker, shared, id))
                .expect("spawn a search thread");
        }
        let outcome = main_thread(worker, limits, options, tt, shared, deadline, report);
        shared.stop.store(true, Ordering::SeqCst);
        if let Some(w) = watchdog {
            w.thread().unpark();
        }
        outcome
    })
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

/// A Lazy SMP helper: the same iterative deepening, reporting nothing; it
/// only fills the shared table. It keeps one ply (two on even threads)
/// ahead of the main thread, so what it stores is what the main thread's
/// next iteration will ask for.
fn helper<B: Bitboard>(mut w: Worker<B>, shared: &Shared, id: usize) {
    if w.root_moves.is_empty() {
        return;
    }
    let lead = 1 + id.is_multiple_of(2) as i32;
    let mut depth = 1;
    while !w.stopped && depth < search::MAX_PLY as i32 {
        w.root(depth, -MATE - 1, MATE + 1);
        depth = (depth + 1).max(shared.main_depth.load(Ordering::Relaxed) as i32 + lead);
    }
    w.flush_nodes();
}

fn main_thread<B: Bitboard>(mut w: Worker<B>, limits: &Limits, options: &Options, tt: &TranspositionTable, shared: &Shared, deadline: time::Deadline, report: &(dyn Fn(&Report) + Sync)) -> Outcome {
    let mut outcome = Outcome::default();
    let mut max_depth = limits.depth.unwrap_or(search::MAX_PLY as u32 - 1).clamp(1, search::MAX_PLY as u32 - 1);
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
    'deepening: for depth in 1..=max_depth as i32 {
        if w.root_moves.is_empty() {
            break;
        }
        shared.main_depth.store(depth as u32, Ordering::Relaxed);
        let mut chosen: Vec<Move> = Vec::new();
        let mut lines: Vec<(Move, Vec<Move>, i32)> = Vec::new();
        for line in 0..lines_wanted {
            w.set_excluded(chosen.clone());
            // Aspiration window around the last score, widened on failure.
            let mut delta = 30;
            let (mut alpha, mut beta) = if depth >= 5 && line == 0 { (previous - delta, previous + delta) } else { (-MATE - 1, MATE + 1) };
            let score = loop {
                let s = w.root(depth, alpha, beta);
                if w.stopped {
                    break s;
                }
                if s <= alpha {
                    alpha = (alpha - delta).max(-MATE - 1);
                } else if s >= beta {
                    beta = (beta + delta).min(MATE + 1);
                } else {
                    break s;
                }
                delta *= 2;
            };
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
            let elapsed = shared.elapsed();
            let nodes = shared.nodes.load(Ordering::Relaxed);
            let mut text = Vec::with_capacity(pv.len());
            let mut p = w.pos.clone();
            for &m in &pv {
                text.push(p.move_text(m));
                p.make(m);
            }
            report(&Report {
                depth: depth as u32,
                seldepth: w.seldepth,
                multi_pv: line + 1,
                score: Score::from_internal(score),
                nodes,
                nps: (nodes as f64 / elapsed.as_secs_f64().max(1e-6)) as u64,
                hashfull: tt.hashfull(),
                time: elapsed,
                pv: text,
            });
        }
        last_lines = lines;
        if let (Some(mate), Some(Score::Mate(m))) = (limits.mate, outcome.score) {
            if m > 0 && m as u32 <= mate {
                break;
            }
        }
        if !shared.pondering.load(Ordering::Relaxed) {
            if let Some(soft) = deadline.soft {
                if shared.elapsed() >= soft {
                    break;
                }
            }
        }
    }
    // `go infinite` and `go ponder` wait for `stop` (or `ponderhit`).
    while (limits.infinite || shared.pondering.load(Ordering::Relaxed)) && !shared.stop.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(1));
    }
    w.flush_nodes();
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
    if best_move.kind != protean_rules::MoveKind::Null {
        outcome.best = Some(w.pos.move_text(best_move));
        let reply = w.ponder_move(best_move, &pv);
        if let Some(r) = reply {
            let mut p = w.pos.clone();
            p.make(best_move);
            outcome.ponder = Some(p.move_text(r));
        }
    }
    outcome.nodes = shared.nodes.load(Ordering::Relaxed);
    outcome
}

#[cfg(test)]
mod tests {
    use super::Score;

    #[test]
    fn wdl_adds_up_and_follows_the_score() {
        let mut last_win = 0;
        for cp in (-1000..=1000).step_by(50) {
            let [w, d, l] = Score::Centipawns(cp).wdl();
            assert_eq!(w + d + l, 1000, "at {cp}");
            assert!(w >= last_win, "wins fall at {cp}");
            last_win = w;
            assert_eq!(Score::Centipawns(-cp).wdl(), [l, d, w], "not symmetric at {cp}");
        }
        assert_eq!(Score::Mate(3).wdl(), [1000, 0, 0]);
        assert_eq!(Score::Mate(-2).wdl(), [0, 0, 1000]);
    }
}
