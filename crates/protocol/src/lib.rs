//! The protocols Protean speaks. Depends on `search` and `rules`; nothing
//! depends on it but the binary.

pub mod output;
pub mod uci;
pub mod xboard;

pub use output::Output;

use protean_rules::AnyPosition;

/// Writes `move: count` for every root move (Stockfish's `go perft`
/// lines) and returns the total: the leaf count, 1 at depth 0.
fn write_divide(out: &Output, pos: &mut AnyPosition, depth: u32) -> u64 {
    let divide = pos.divide(depth);
    for (m, n) in &divide {
        out.line(&format!("{m}: {n}"));
    }
    if depth == 0 {
        1
    } else {
        divide.iter().map(|(_, n)| n).sum()
    }
}
pub use uci::{Flow, Uci};
pub use xboard::XBoard;

/// A protocol session: one line in, replies to its output.
pub trait Protocol {
    fn handle(&mut self, line: &str) -> Flow;
}

impl Protocol for Uci {
    fn handle(&mut self, line: &str) -> Flow {
        Uci::handle(self, line)
    }
}

impl Protocol for XBoard {
    fn handle(&mut self, line: &str) -> Flow {
        XBoard::handle(self, line)
    }
}
