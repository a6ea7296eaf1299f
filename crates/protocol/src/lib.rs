//! The protocols Protean speaks. Depends on `search` and `rules`; nothing
//! depends on it but the binary.

pub mod output;
pub mod uci;
pub mod xboard;

pub use output::Output;
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
