//! Search for Protean, driven through one facade, [`Engine`]: Lazy SMP on
//! a persistent pool of threads over a shared lock-free transposition
//! table, each thread with its own data and a staged move picker. This
//! crate knows positions (`rules`) but nothing of protocols: a search
//! reports to a [`Listener`] with plain values and `Move`s, and a protocol
//! turns those into its own lines.
//!
//! One subsystem a file: `engine` (the facade), `thread_pool` and
//! `thread_data` (threads and what each keeps), `deepening` (iterative
//! deepening, helpers, the watchdog), `search` (one thread's tree) and
//! `params` (its margins and reductions), `move_picker`, `evaluate` (its
//! `weights` as data), `nnue` (the network evaluation where a variant has
//! one), `see`, `tt`, `time`, `skill`, and `bench` (the fixed searches
//! whose node count is the search's signature). Fitting the weights and
//! training the networks is `protean-train`'s.

pub mod bench;
mod correction;
mod deepening;
pub mod engine;
pub mod evaluate;
mod history;
mod move_picker;
pub mod nnue;
mod params;
mod search;
pub mod see;
pub mod skill;
mod thread_data;
mod thread_pool;
pub mod time;
pub mod tt;
mod variant_files;
pub mod weights;

pub use engine::{Engine, StaticEvaluation};
pub use params::{SearchParams, Tunable};
pub use search::{MATE, MATE_BOUND, MAX_PLY};
pub use time::Limits;

/// The most search threads an engine runs (UCI's `Threads` maximum).
pub const MAX_THREADS: usize = 256;
pub use tt::TranspositionTable;

use evaluate::EvalTables;
use nnue::Network;
use protean_rules::{AnyPosition, Bitboard, Move, Rules};
use skill::Skill;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What every search thread and the engine share during one search.
#[derive(Debug)]
pub(crate) struct Shared {
    /// Set by `stop`, by a limit, or when the main thread is done.
    pub stop: AtomicBool,
    /// While set, time limits wait (`go ponder` until `ponderhit`).
    pub pondering: AtomicBool,
    pub nodes: AtomicU64,
    /// The depth the main thread is searching; helpers keep ahead of it.
    main_depth: AtomicU32,
    /// The deepest iteration a helper finished, which the main thread may
    /// take over its own (see `deepening`).
    helper_line: Mutex<Option<FinishedLine>>,
    start: Mutex<Instant>,
    /// Set by `halt`: no pondering starts after the search (XBoard's
    /// `force`, `easy`); the lock orders a halt against that start.
    halted: Mutex<bool>,
}

impl Default for Shared {
    fn default() -> Self {
        Shared {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            main_depth: AtomicU32::new(0),
            helper_line: Mutex::new(None),
            start: Mutex::new(Instant::now()),
            halted: Mutex::new(false),
        }
    }
}

/// A line an iteration finished: its depth, score (internal) and moves in
/// whole turns.
#[derive(Clone, Debug)]
pub(crate) struct FinishedLine {
    pub depth: u32,
    pub seldepth: usize,
    pub score: i32,
    pub pv: Vec<Move>,
}

impl Shared {
    /// A helper finished an iteration: kept if no helper finished a deeper one.
    fn offer_helper_line(&self, line: FinishedLine) {
        let mut kept = self.helper_line.lock().unwrap_or_else(|e| e.into_inner());
        if kept.as_ref().is_none_or(|k| line.depth > k.depth) {
            *kept = Some(line);
        }
    }
    fn take_helper_line(&self) -> Option<FinishedLine> {
        self.helper_line.lock().unwrap_or_else(|e| e.into_inner()).take()
    }
    fn elapsed(&self) -> Duration {
        self.start.lock().expect("clock lock").elapsed()
    }
    /// The opponent played the expected move: the search goes on as a
    /// normal timed search whose clock starts now.
    fn ponderhit(&self) {
        *self.start.lock().expect("clock lock") = Instant::now();
        self.pondering.store(false, Ordering::SeqCst);
    }
    /// Stops the search, and any pondering after it.
    fn halt(&self) {
        let mut halted = self.halted.lock().unwrap_or_else(|e| e.into_inner());
        *halted = true;
        self.pondering.store(false, Ordering::SeqCst);
        self.stop.store(true, Ordering::SeqCst);
    }
    /// Arms the shared state for pondering after a search, unless the
    /// engine was halted meanwhile (then false).
    fn begin_pondering(&self) -> bool {
        let halted = self.halted.lock().unwrap_or_else(|e| e.into_inner());
        if *halted {
            return false;
        }
        self.begin(true);
        true
    }
    /// Arms the shared state for a new search (`go`): no halt stands.
    /// Called before the search's job is sent, never from it: a `stop`
    /// that arrives between the two must not be erased.
    fn arm(&self, pondering: bool) {
        *self.halted.lock().unwrap_or_else(|e| e.into_inner()) = false;
        self.begin(pondering);
    }
    fn begin(&self, pondering: bool) {
        self.stop.store(false, Ordering::SeqCst);
        self.pondering.store(pondering, Ordering::SeqCst);
        self.nodes.store(0, Ordering::SeqCst);
        self.main_depth.store(0, Ordering::SeqCst);
        *self.helper_line.lock().unwrap_or_else(|e| e.into_inner()) = None;
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
    /// Centipawns a draw costs the side the search is for (UCI
    /// `Contempt`): it plays on where a draw would be even.
    pub contempt: i32,
    /// Evaluate by the variant's network where it has one (UCI `Use NNUE`).
    pub use_network: bool,
    /// A network read from a file (UCI `EvalFile`), which evaluates every
    /// variant whose kinds and cells it fits in place of the built-in one.
    pub eval_file: Option<Arc<Network>>,
    /// Evaluation weights read from a file (UCI `WeightsFile`, written by
    /// `protean tune` or `protean learn`), which weigh every variant whose
    /// pieces the file's lines name in place of the built-in weights.
    pub weights_file: Option<Arc<str>>,
    /// The search's margins and reductions (what SPSA tuning acts on).
    pub params: SearchParams,
}

impl Options {
    /// The network that evaluates `rules`' positions, if any.
    pub(crate) fn network<B: Bitboard>(&self, rules: &Rules<B>) -> Option<&Network> {
        if !self.use_network {
            return None;
        }
        self.eval_file.as_deref().filter(|net| net.fits(rules)).or_else(|| nnue::built_in(rules))
    }

    /// The evaluation tables of `rules`: weighed by `weights_file` where
    /// it reads for the variant, else by the built-in weights.
    pub(crate) fn eval_tables<B: Bitboard>(&self, rules: &Rules<B>) -> EvalTables<B> {
        self.weights_file
            .as_ref()
            .and_then(|file| EvalTables::with_file(rules, file.clone()).ok())
            .unwrap_or_else(|| EvalTables::new(rules))
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            threads: 1,
            multi_pv: 1,
            move_overhead: Duration::from_millis(10),
            split_turns: SPLIT_TURNS_BY_DEFAULT,
            skill: None,
            contempt: CONTEMPT_BY_DEFAULT,
            use_network: USE_NETWORK_BY_DEFAULT,
            eval_file: None,
            weights_file: None,
            params: SearchParams::DEFAULT,
        }
    }
}

/// How turns with a tile shift are searched unless asked otherwise;
/// docs/results.md ("Search design measured") gives the measurement that
/// chose it.
pub const SPLIT_TURNS_BY_DEFAULT: bool = true;

/// Whether a variant's network evaluates unless asked otherwise (`Use
/// NNUE`); docs/results.md ("Gates", "Networks") gives the measurements
/// that chose it.
pub const USE_NETWORK_BY_DEFAULT: bool = true;

/// The contempt unless asked otherwise; docs/results.md ("Against earlier
/// Protean builds") gives the measurement that chose it.
pub const CONTEMPT_BY_DEFAULT: i32 = 0;

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
    /// The line, from the position searched.
    pub pv: Vec<Move>,
}

/// What a search found.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// `None` only where there is no legal move.
    pub best: Option<Move>,
    /// The reply expected after `best`.
    pub ponder: Option<Move>,
    pub score: Option<Score>,
    pub nodes: u64,
    pub depth: u32,
    /// From the start of the search (or its `ponderhit`) to its end.
    pub time: Duration,
    /// The search was pondering when it was stopped: the expected reply
    /// never came (`ponderhit`), so its move answers nothing.
    pub ponder_missed: bool,
}

/// What the listener of a search wants once it has its move.
pub enum AfterMove {
    Done,
    /// Ponder on this position (the expected reply played): a search like
    /// `go ponder`, which `ponderhit` turns into a timed search for the
    /// next move and which reports to the same listener. Not started if
    /// the engine was stopped meanwhile.
    Ponder(Box<AnyPosition>),
}

/// Hears each finished line, with the position searched.
pub type InfoListener = Box<dyn Fn(&AnyPosition, &Report) + Send + Sync>;
/// Hears the move, with the position searched, and says what follows.
pub type BestMoveListener = Box<dyn FnMut(&AnyPosition, &Outcome) -> AfterMove + Send>;

/// Where a search reports: its lines as they finish (from the searching
/// thread), then its move. Both get the position searched.
pub struct Listener {
    pub info: InfoListener,
    pub best_move: BestMoveListener,
}

impl Listener {
    /// Hears nothing but the move, and keeps it for `Engine::search`.
    pub(crate) fn keeping(slot: Arc<Mutex<Option<Outcome>>>) -> Listener {
        Listener {
            info: Box::new(|_, _| {}),
            best_move: Box::new(move |_, outcome| {
                *slot.lock().unwrap_or_else(|e| e.into_inner()) = Some(outcome.clone());
                AfterMove::Done
            }),
        }
    }
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
