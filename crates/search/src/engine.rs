//! The engine facade (Stockfish's `Engine`): everything outside this
//! crate (UCI, XBoard, the bench, `protean epd`, the Perplexichess
//! strategist) drives the search through it. It owns the position, the
//! options, the transposition table and the thread pool; a search runs on
//! the pool's threads while the caller goes on reading commands, and
//! tells a [`Listener`] its lines and its move, as `Move`s that the
//! caller writes in its own notation.
//!
//! Anything that changes what a search searches (the position, options,
//! the table) first ends a running search, whose move is still reported.

use crate::deepening::{self, Request};
use crate::evaluate::{self, Trace};
use crate::thread_pool::{Countdown, CountedDown, ThreadPool};
use crate::{Limits, Listener, Options, Outcome, Shared, TranspositionTable};
use protean_rules::{with_position, AnyPosition, Color};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A position's static evaluation ([`Engine::static_evaluation`]), every
/// score in centipawns for White.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StaticEvaluation {
    /// The hand-made evaluation, term by term.
    pub trace: Trace,
    /// What the variant's network says, where one evaluates: the whole
    /// evaluation, or what it adds to the hand-made one.
    pub network: Option<i32>,
    /// Whether the network evaluates alone (else on top of the hand-made
    /// evaluation).
    pub network_alone: bool,
    /// The evaluation the search starts from.
    pub white_view: i32,
}

/// The table's size until told otherwise (Stockfish's default).
pub const DEFAULT_HASH_MIB: usize = 16;

pub struct Engine {
    position: AnyPosition,
    options: Options,
    tt: Arc<TranspositionTable>,
    hash_mib: usize,
    shared: Arc<Shared>,
    pool: ThreadPool,
    /// Counts down when the running search (and its pondering) ends.
    running: Option<Arc<Countdown>>,
}

impl Engine {
    /// An engine with one thread and the default table, at `position`.
    pub fn new(position: AnyPosition) -> Engine {
        Engine {
            position,
            options: Options::default(),
            tt: Arc::new(TranspositionTable::new(DEFAULT_HASH_MIB)),
            hash_mib: DEFAULT_HASH_MIB,
            shared: Arc::new(Shared::default()),
            pool: ThreadPool::new(1),
            running: None,
        }
    }

    pub fn position(&self) -> &AnyPosition {
        &self.position
    }

    pub fn set_position(&mut self, position: AnyPosition) {
        self.halt();
        self.position = position;
    }

    pub fn options(&self) -> &Options {
        &self.options
    }

    /// New options; a new thread count restarts the pool (the old threads'
    /// data goes with them).
    pub fn set_options(&mut self, options: Options) {
        self.halt();
        if options.threads.max(1) != self.pool.len() {
            self.pool = ThreadPool::new(options.threads);
        }
        // The threads' evaluation caches hold sums of the weights before
        // (a network's evaluations are told apart by its key).
        if options.weights_file != self.options.weights_file {
            self.pool.for_each_data(|data| data.forget_evaluations());
        }
        self.options = options;
    }

    pub fn hash_mib(&self) -> usize {
        self.hash_mib
    }

    /// A table of `mib` MiB; on failure the old one stays.
    pub fn resize_hash(&mut self, mib: usize) -> Result<(), String> {
        self.halt();
        let tt = TranspositionTable::try_new(mib)?;
        self.tt = Arc::new(tt);
        self.hash_mib = mib;
        Ok(())
    }

    /// Empties the table only (UCI's `Clear Hash`).
    pub fn clear_hash(&mut self) {
        self.halt();
        self.tt.clear();
    }

    /// Forgets everything learned: the table and every thread's histories
    /// (a new game: `ucinewgame`, XBoard's `new`).
    pub fn clear(&mut self) {
        self.halt();
        self.tt.clear();
        self.pool.for_each_data(|data| data.clear());
    }

    /// The position's static evaluation term by term, as the search
    /// would first see it (before correction history): UCI's `eval`.
    pub fn static_evaluation(&self) -> StaticEvaluation {
        with_position!(&self.position, pos => {
            let rules = pos.rules();
            let trace = evaluate::trace(pos, &self.options.eval_tables(rules));
            let network = self.options.network(rules);
            let white = if pos.side_to_move() == Color::White { 1 } else { -1 };
            let network_view = network.map(|net| white * net.evaluate(pos));
            let white_view = match network {
                Some(net) if !net.on_top => network_view.unwrap_or_default(),
                _ => trace.white_view + network_view.unwrap_or_default(),
            };
            StaticEvaluation {
                trace,
                network: network_view,
                network_alone: network.is_some_and(|net| !net.on_top),
                white_view,
            }
        })
    }

    /// Starts a search of the position within `limits`; it reports to
    /// `listener` and ends by itself, or at `stop`. A running search is
    /// ended first.
    pub fn go(&mut self, limits: Limits, listener: Listener) {
        self.halt();
        self.shared.arm(limits.ponder);
        let done = Arc::new(Countdown::new(1));
        self.running = Some(done.clone());
        let request = Arc::new(Request {
            limits,
            options: self.options.clone(),
            tt: self.tt.clone(),
            shared: self.shared.clone(),
        });
        let root = self.position.clone();
        let helpers = self.pool.senders().split_off(1);
        self.pool.run_main(Box::new(move |data| {
            let _done = CountedDown(&done);
            deepening::run(root, request, listener, helpers, data);
        }));
    }

    /// Searches to the end of `limits` and returns what it found.
    pub fn search(&mut self, limits: Limits) -> Outcome {
        let slot = Arc::new(Mutex::new(None));
        self.go(limits, Listener::keeping(slot.clone()));
        self.wait();
        let found = slot.lock().unwrap_or_else(|e| e.into_inner()).take();
        found.unwrap_or_default()
    }

    /// Ends the search now (it still reports its move), and any pondering
    /// that would follow it.
    pub fn stop(&self) {
        self.shared.halt();
    }

    /// The expected reply was played: the pondering search goes on as a
    /// timed search whose clock starts now.
    pub fn ponderhit(&self) {
        self.shared.ponderhit();
    }

    /// Whether the running search is pondering (no `ponderhit` yet).
    pub fn pondering(&self) -> bool {
        self.is_searching() && self.shared.pondering.load(Ordering::SeqCst)
    }

    pub fn is_searching(&self) -> bool {
        self.running.as_ref().is_some_and(|r| !r.is_done())
    }

    /// Waits for the search to end by itself (and its listener to hear
    /// its move).
    pub fn wait(&mut self) {
        if let Some(r) = self.running.take() {
            r.wait();
        }
    }

    /// Stops the search and waits for it.
    pub fn halt(&mut self) {
        if self.is_searching() {
            self.stop();
        }
        self.wait();
    }

    /// Time since the search (or its `ponderhit`) started.
    pub fn elapsed(&self) -> Duration {
        self.shared.elapsed()
    }

    /// Nodes searched so far by the search (counted in batches).
    pub fn nodes(&self) -> u64 {
        self.shared.nodes.load(Ordering::Relaxed)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.halt();
    }
}
