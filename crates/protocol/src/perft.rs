//! Perft as a protocol command (UCI's `go perft`, XBoard's `perft`): run
//! on a thread of its own so that the command loop keeps answering
//! (`isready`, `ping`, `stop`, `quit`). Perft is no search and does not go
//! through the engine; it stops at the same commands a search does.

use crate::output::Output;
use protean_rules::AnyPosition;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

#[derive(Default)]
pub(crate) struct Perft {
    running: Option<JoinHandle<()>>,
    stop: Arc<AtomicBool>,
}

impl Perft {
    /// Writes `move: count` for every root move (Stockfish's `go perft`
    /// lines), then `total_lines` with the leaf count (at depth 0, no move and 1); if
    /// stopped first, `stopped` instead. A running perft is stopped.
    pub fn start(
        &mut self,
        out: Output,
        pos: AnyPosition,
        depth: u32,
        total_lines: fn(u64) -> Vec<String>,
        stopped: &'static str,
    ) {
        self.stop();
        self.stop = Arc::new(AtomicBool::new(false));
        let stop = self.stop.clone();
        let thread =
            std::thread::Builder::new().name("perft".into()).spawn(move || match pos.divide(depth, 1, &stop) {
                Some(divide) => {
                    for (m, n) in &divide.moves {
                        out.line(&format!("{m}: {n}"));
                    }
                    for line in total_lines(divide.nodes) {
                        out.line(&line);
                    }
                }
                None => out.line(stopped),
            });
        self.running = Some(thread.expect("start the perft thread"));
    }

    /// Stops a running perft and waits for it.
    pub fn stop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(h) = self.running.take() {
            let _ = h.join();
        }
    }
}
