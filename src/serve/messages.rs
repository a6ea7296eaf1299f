//! The JSON messages of the page's WebSocket, one object per message,
//! told apart by `"type"`.
//!
//! The browser sends `new` (a game), `join` (watch or play an existing
//! one), `move`, `undo` and `analyse`; the server answers with `state`
//! (everything the page draws, after every change), `info` (the engine's
//! line while it thinks) and `error` (what was wrong; nothing changed).

use super::view::{BoardView, MoveView, PieceRuleView, RuleChangeView};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Player {
    Human,
    Engine,
}

/// How strongly (how long) the engine plays when it has no clock; with a
/// clock, a depth or node limit still caps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Strength {
    Depth(u32),
    Nodes(u64),
    Movetime(u64),
}

impl Default for Strength {
    fn default() -> Self {
        Strength::Movetime(1000)
    }
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Clock {
    pub base_ms: u64,
    #[serde(default)]
    pub increment_ms: u64,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameSpec {
    pub variant: String,
    #[serde(default)]
    pub fen: Option<String>,
    /// White's player, then Black's (a person against the engine unless
    /// told otherwise).
    #[serde(default = "person_against_engine")]
    pub players: [Player; 2],
    /// Each board's clock.
    #[serde(default)]
    pub clock: Option<Clock>,
    #[serde(default)]
    pub strength: Strength,
    /// Perplexichess: 3, 5 or 7 boards.
    #[serde(default)]
    pub boards: Option<usize>,
    /// Perplexichess: where the person sits; engines play the rest.
    #[serde(default)]
    pub seat: Option<Seat>,
}

fn person_against_engine() -> [Player; 2] {
    [Player::Human, Player::Engine]
}

/// A person's place in a Perplexichess game.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(rename_all = "lowercase", deny_unknown_fields)]
pub enum Seat {
    /// One side of one board (numbered from 0).
    Board { board: usize, color: Side },
    /// A team's grand strategist.
    Strategist { color: Side },
    /// Engines everywhere.
    Watch,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    White,
    Black,
}

impl From<Side> for protean_rules::Color {
    fn from(s: Side) -> Self {
        match s {
            Side::White => protean_rules::Color::White,
            Side::Black => protean_rules::Color::Black,
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
pub enum ClientMessage {
    New(GameSpec),
    Join {
        game: u64,
    },
    /// A move on a board (numbered from 0; the only one unless
    /// Perplexichess).
    Move {
        game: u64,
        #[serde(default)]
        board: usize,
        #[serde(rename = "move")]
        text: String,
    },
    Undo {
        game: u64,
        #[serde(default)]
        board: usize,
    },
    Analyse {
        game: u64,
        #[serde(default)]
        board: usize,
        on: bool,
    },
    /// A grand strategist moves its piece on `cell` of board `from` to
    /// the same cell of board `to`.
    Transfer {
        game: u64,
        from: usize,
        cell: String,
        to: usize,
    },
}

#[derive(Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ServerMessage {
    State(Box<StateView>),
    Info { game: u64, board: usize, depth: u32, score: String, nodes: u64, nps: u64, pv: Vec<String> },
    Error { game: Option<u64>, message: String },
}

impl ServerMessage {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("server messages serialise")
    }
}

#[derive(Serialize)]
pub struct StateView {
    pub game: u64,
    pub variant: String,
    /// One board, or Perplexichess's several.
    pub boards: Vec<BoardStateView>,
    /// Perplexichess: the strategists and the team result.
    pub team: Option<TeamView>,
}

#[derive(Serialize)]
pub struct TeamView {
    /// White's, then Black's.
    pub strategists: [Player; 2],
    pub result: Option<String>,
}

#[derive(Serialize)]
pub struct BoardStateView {
    pub board_number: usize,
    pub players: PlayersView,
    pub fen: String,
    pub board: BoardView,
    pub side_to_move: &'static str,
    /// The legal piece moves (whole turns), by the cell they start from.
    pub legal: BTreeMap<String, Vec<MoveView>>,
    pub rule_changes: Vec<RuleChangeView>,
    pub piece_rules: Vec<PieceRuleView>,
    /// Why no rule change is open now (in check), where rules change.
    pub rule_changes_closed: Option<&'static str>,
    /// The cells of the last move (and its tile shift), to highlight.
    pub last_move: Vec<String>,
    /// The king in check, if any.
    pub check: Option<String>,
    /// The moves so far, in SAN.
    pub moves: Vec<String>,
    pub result: Option<ResultView>,
    pub clocks: Option<ClocksView>,
    pub thinking: bool,
    pub analysing: bool,
    pub pgn: String,
}

#[derive(Serialize)]
pub struct PlayersView {
    pub white: Player,
    pub black: Player,
}

#[derive(Serialize)]
pub struct ResultView {
    pub result: String,
    pub reason: String,
}

#[derive(Serialize)]
pub struct ClocksView {
    pub white_ms: u64,
    pub black_ms: u64,
    pub running: Option<&'static str>,
}
