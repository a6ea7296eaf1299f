//! The protocols Protean speaks. Depends on `search` and `rules`; nothing
//! depends on it but the binary.

pub mod output;
pub mod uci;
pub mod xboard;

pub use output::Output;
pub use uci::{Flow, Uci};
pub use xboard::XBoard;
