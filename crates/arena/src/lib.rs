//! Games between players under Protean's rules, for every tool that plays
//! them: `protean match` (engine processes over UCI or XBoard),
//! `protean perplexichess` (team games of Flexichess boards), `protean
//! datagen` (in-process self-play) and the web page's games.
//!
//! The centre is one referee ([`Referee`]): a game's position, record and
//! clocks, every move checked by the rules, forfeits (time, illegal move,
//! crash), adjudication and the PGN. Its callers ask their players for
//! moves in their own way (one after another, boards side by side, an
//! event loop) and hand the answers to it.
//!
//! This crate knows the rules (`protean-rules`) and the search
//! (`protean-search`, for self-play and the strategists); it knows no
//! command line and no web page.

pub mod adjudication;
pub mod book;
pub mod clock;
pub mod ending;
pub mod engine_process;
pub mod match_stats;
pub mod pgn;
pub mod referee;
pub mod self_play;
pub mod strategist;
pub mod team_game;
pub mod tournament;

pub use adjudication::Adjudication;
pub use clock::{Clock, TimeControl};
pub use ending::{Ending, Forfeit, Reason};
pub use referee::{play_out, Players, Referee};
