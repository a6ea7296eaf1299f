//! The protocols Protean speaks. Depends on `search` and `rules`; nothing
//! depends on it but the binary.

pub mod output;
pub mod uci;

pub use output::Output;
pub use uci::{Flow, Uci};
