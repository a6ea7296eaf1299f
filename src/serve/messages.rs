//! The JSON messages of the page's WebSocket, one object per message,
//! told apart by `"type"`.
//!
//! The browser sends `new` (a game), `join` (watch or play an existing
//! one), `move`, `undo` and `analyse`; the server answers with `state`
//! (everything the page draws, after every change), `info` (the engine's
//! line while it thinks) and `error` (what was wrong; nothing changed).

use super::view::{BoardView, MoveView, PieceRuleView, RuleChangeView};
use serde::{Deserialize, Serialize};

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
    /// White's player, then Black's.
    pub players: [Player; 2],
    #[serde(default)]
    pub clock: Option<Clock>,
    #[serde(default)]
    pub strength: Strength,
}

#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
pub enum ClientMessage {
    New(GameSpec),
    Join { game: u64 },
    Move { game: u64, #[serde(rename = "move")] text: String },
    Undo { game: u64 },
    Analyse { game: u64, on: bool },
}

#[derive(Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ServerMessage {
    State(Box<StateView>),
    Info { game: u64, depth: u32, score: String, nodes: u64, nps: u64, pv: Vec<String> },
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
    pub players: PlayersView,
    pub fen: String,
    pub board: BoardView,
    pub side_to_move: &'static str,
    pub legal: Vec<MoveView>,
    pub rule_changes: Vec<RuleChangeView>,
    pub piece_rules: Vec<PieceRuleView>,
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
