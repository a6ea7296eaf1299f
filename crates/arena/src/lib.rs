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

mod adjudication;
mod book;
mod clock;
mod ending;
mod engine_process;
mod match_stats;
mod pgn;
mod referee;
mod scoring;
pub mod self_play;
mod strategist;
pub mod team_game;
pub mod tournament;

pub use adjudication::{Adjudication, DecisiveRule, DrawRule, ResignRule};
pub use book::{book_position, read_openings, read_positions, Opening};
pub use clock::{Clock, TimeControl};
pub use ending::{side_name, Adjudicated, Ending, Forfeit, Reason};
pub use engine_process::{parse_tc, EngineProcess, Failure, Proto, Reply, SearchLimit};
pub use match_stats::{
    elo_with_margin, first_engine_points, los, sprt_bounds, sprt_llr, white_points, Pentanomial, Tally,
};
pub use referee::{play_out, Computed, PgnHeader, Players, Referee, Words};
pub use scoring::{score_positions, Scorer};
pub use strategist::{BoardView, Lookahead, Strategist};
