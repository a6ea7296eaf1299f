//! One game, refereed on a thread of its own: it owns the position, the
//! record, the clocks and an engine, and hears everything that may change
//! them as [`Command`]s on one channel (the players' sockets, the engine's
//! search, the clock running out). Nothing else touches a game, so no two
//! requests can interleave halfway, and a socket that closes mid-search
//! only leaves the game's list of listeners.

use super::messages::{Clock, GameSpec, Player, ServerMessage, Strength};
use super::view;
use protean_rules::{AnyPosition, AnyRules, Color, Move};
use protean_search::{AfterMove, Engine, Limits, Listener, Report, Score};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};
use tokio::sync::mpsc::UnboundedSender;

/// A browser's socket, as a game knows it.
pub struct Client {
    pub id: u64,
    pub out: UnboundedSender<String>,
}

pub enum Command {
    Join(Client),
    Leave(u64),
    Move { client: u64, text: String },
    Undo { client: u64 },
    Analyse { client: u64, on: bool },
    /// The engine's search ended (`generation` tells which search).
    Searched { generation: u64, best: Option<Move> },
    Info { generation: u64, line: String },
    /// The state message, for a reader that does not listen.
    Snapshot(tokio::sync::oneshot::Sender<String>),
}

/// A move played, with the position before it (undo restores it, with
/// the history of repetitions it keeps).
struct Ply {
    before: AnyPosition,
    san: String,
}

struct Clocks {
    left: [Duration; 2],
    increment: Duration,
    /// When the side to move's clock started running.
    since: Instant,
}

pub struct Game {
    id: u64,
    spec: GameSpec,
    start_fen: String,
    position: AnyPosition,
    plies: Vec<Ply>,
    result: Option<(String, String)>,
    clients: Vec<Client>,
    engine: Engine,
    /// Counts searches, so that a search ended by an undo or a move is
    /// not taken for the current one.
    generation: u64,
    /// The generation of the search playing a move for the engine, if any.
    thinking: Option<u64>,
    /// The generation of an analysis search (infinite, on a person's turn).
    analysing: Option<u64>,
    clocks: Option<Clocks>,
    commands: Sender<Command>,
}

/// Each game's engine table: small, since games run side by side.
const GAME_HASH_MIB: usize = 16;

impl Game {
    /// A game as `spec` says, or why not.
    pub fn new(id: u64, spec: GameSpec, commands: Sender<Command>) -> Result<Game, String> {
        let rules = AnyRules::by_name(&spec.variant).map_err(|e| e.to_string())?;
        let position = match spec.fen.as_deref().map(str::trim).filter(|f| !f.is_empty()) {
            Some(fen) => rules.from_fen(fen).map_err(|e| format!("bad FEN: {e}"))?,
            None => rules.start(),
        };
        if position.variant().name == "perplexichess" {
            return Err("Perplexichess is played with `protean perplexichess`".into());
        }
        let clocks = spec.clock.as_ref().map(|c: &Clock| Clocks {
            left: [Duration::from_millis(c.base_ms); 2],
            increment: Duration::from_millis(c.increment_ms),
            since: Instant::now(),
        });
        let mut engine = Engine::new(position.clone());
        engine.resize_hash(GAME_HASH_MIB)?;
        Ok(Game {
            id,
            start_fen: position.fen(),
            spec,
            position,
            plies: Vec::new(),
            result: None,
            clients: Vec::new(),
            engine,
            generation: 0,
            thinking: None,
            analysing: None,
            clocks,
            commands,
        })
    }

    /// Referees until the last listener leaves.
    pub fn run(mut self, commands: Receiver<Command>) {
        self.check_over();
        self.start_engine_if_its_turn();
        loop {
            let command = match self.flag_fall() {
                Some(at) => match commands.recv_timeout(at.saturating_duration_since(Instant::now())) {
                    Ok(c) => c,
                    Err(RecvTimeoutError::Timeout) => {
                        self.time_out();
                        continue;
                    }
                    Err(RecvTimeoutError::Disconnected) => break,
                },
                None => match commands.recv() {
                    Ok(c) => c,
                    Err(_) => break,
                },
            };
            match command {
                Command::Join(client) => {
                    self.clients.retain(|c| c.id != client.id);
                    let state = self.state_message();
                    if client.out.send(state).is_ok() {
                        self.clients.push(client);
                    }
                }
                Command::Leave(id) => {
                    self.clients.retain(|c| c.id != id);
                    if self.clients.is_empty() {
                        break;
                    }
                }
                Command::Move { client, text } => match self.human_move(&text) {
                    Ok(()) => self.after_move(),
                    Err(e) => self.tell(client, &ServerMessage::Error { game: Some(self.id), message: e }),
                },
                Command::Undo { client } => match self.undo() {
                    Ok(()) => {
                        self.start_engine_if_its_turn();
                        self.broadcast_state();
                    }
                    Err(e) => self.tell(client, &ServerMessage::Error { game: Some(self.id), message: e }),
                },
                Command::Analyse { client, on } => {
                    match self.analyse(on) {
                        Ok(()) => self.broadcast_state(),
                        Err(e) => self.tell(client, &ServerMessage::Error { game: Some(self.id), message: e }),
                    }
                }
                Command::Searched { generation, best } => {
                    if self.thinking == Some(generation) {
                        self.thinking = None;
                        self.engine_move(best);
                    }
                }
                Command::Snapshot(reply) => {
                    let _ = reply.send(self.state_message());
                }
                Command::Info { generation, line } => {
                    if self.thinking == Some(generation) || self.analysing == Some(generation) {
                        self.broadcast(line);
                    }
                }
            }
            if self.clients.is_empty() {
                break;
            }
        }
        self.engine.halt();
    }

    fn player(&self, c: Color) -> Player {
        self.spec.players[c as usize]
    }

    fn human_move(&mut self, text: &str) -> Result<(), String> {
        if let Some((result, _)) = &self.result {
            return Err(format!("the game is over ({result})"));
        }
        if self.player(self.position.side_to_move()) != Player::Human {
            return Err("it is the engine's turn".into());
        }
        let m = self.position.parse_move(text.trim()).map_err(|e| e.to_string())?;
        self.stop_analysis();
        self.play(m);
        Ok(())
    }

    fn engine_move(&mut self, best: Option<Move>) {
        match best {
            Some(m) if self.result.is_none() => {
                self.play(m);
                self.after_move();
            }
            _ => self.broadcast_state(),
        }
    }

    fn after_move(&mut self) {
        self.check_over();
        self.start_engine_if_its_turn();
        self.broadcast_state();
    }

    fn play(&mut self, m: Move) {
        let mover = self.position.side_to_move();
        let san = protean_rules::with_position!(&mut self.position, p => p.san(m));
        self.plies.push(Ply { before: self.position.clone(), san });
        self.position.make(m);
        if let Some(c) = &mut self.clocks {
            let used = c.since.elapsed();
            let left = &mut c.left[mover as usize];
            if used >= *left {
                *left = Duration::ZERO;
                self.result = Some((lost_by(mover).into(), format!("{} lost on time", view::color_name(mover))));
            } else {
                *left = *left - used + c.increment;
            }
            c.since = Instant::now();
        }
    }

    fn check_over(&mut self) {
        if self.result.is_none() {
            if let Some(o) = self.position.outcome() {
                self.result = Some((o.result().into(), o.reason().into()));
            }
        }
    }

    /// When the running clock shows zero, if one runs.
    fn flag_fall(&self) -> Option<Instant> {
        let c = self.clocks.as_ref().filter(|_| self.result.is_none())?;
        Some(c.since + c.left[self.position.side_to_move() as usize])
    }

    fn time_out(&mut self) {
        let mover = self.position.side_to_move();
        if let Some(c) = &mut self.clocks {
            c.left[mover as usize] = Duration::ZERO;
        }
        self.result = Some((lost_by(mover).into(), format!("{} lost on time", view::color_name(mover))));
        self.thinking = None;
        self.engine.halt();
        self.broadcast_state();
    }

    /// Takes back to the last position before this one where a person
    /// was to move (against the engine: its reply and the person's move).
    fn undo(&mut self) -> Result<(), String> {
        if self.spec.players.iter().all(|&p| p == Player::Engine) {
            return Err("nothing to undo in a game between engines".into());
        }
        let mut back = 0;
        loop {
            let Some(i) = self.plies.len().checked_sub(back + 1) else {
                return Err("no move to undo".into());
            };
            back += 1;
            if self.player(self.plies[i].before.side_to_move()) == Player::Human {
                break;
            }
        }
        self.thinking = None;
        self.stop_analysis();
        self.engine.halt();
        let keep = self.plies.len() - back;
        self.position = self.plies[keep].before.clone();
        self.plies.truncate(keep);
        self.result = None;
        if let Some(c) = &mut self.clocks {
            c.since = Instant::now();
        }
        Ok(())
    }

    fn analyse(&mut self, on: bool) -> Result<(), String> {
        if !on {
            self.stop_analysis();
            return Ok(());
        }
        if self.thinking.is_some() {
            return Err("the engine is thinking about its move".into());
        }
        if self.position.legal_move_list().is_empty() {
            return Err("no legal move to analyse".into());
        }
        self.stop_analysis();
        let generation = self.search(Limits { infinite: true, ..Limits::default() });
        self.analysing = Some(generation);
        Ok(())
    }

    fn stop_analysis(&mut self) {
        if self.analysing.take().is_some() {
            self.engine.halt();
        }
    }

    fn start_engine_if_its_turn(&mut self) {
        if self.result.is_some() || self.thinking.is_some() || self.player(self.position.side_to_move()) != Player::Engine {
            return;
        }
        let mut limits = Limits::default();
        match self.spec.strength {
            Strength::Depth(d) => limits.depth = Some(d.clamp(1, 64)),
            Strength::Nodes(n) => limits.nodes = Some(n.max(1)),
            Strength::Movetime(ms) => limits.movetime = Some(Duration::from_millis(ms.max(1))),
        }
        if let Some(c) = &self.clocks {
            let since = c.since.elapsed();
            let stm = self.position.side_to_move() as usize;
            limits.time = [0, 1].map(|i| Some(if i == stm { c.left[i].saturating_sub(since) } else { c.left[i] }));
            limits.increment = [c.increment; 2];
            if matches!(self.spec.strength, Strength::Movetime(_)) {
                limits.movetime = None;
            }
        }
        self.stop_analysis();
        self.thinking = Some(self.search(limits));
    }

    /// Starts a search of the current position; returns its generation.
    fn search(&mut self, limits: Limits) -> u64 {
        self.generation += 1;
        let generation = self.generation;
        let (info_to, best_to) = (self.commands.clone(), self.commands.clone());
        let game = self.id;
        let listener = Listener {
            info: Box::new(move |position, report| {
                let line = info_message(game, position, report);
                let _ = info_to.send(Command::Info { generation, line });
            }),
            best_move: Box::new(move |_, outcome| {
                let _ = best_to.send(Command::Searched { generation, best: outcome.best });
                AfterMove::Done
            }),
        };
        self.engine.set_position(self.position.clone());
        self.engine.go(limits, listener);
        generation
    }

    fn tell(&self, client: u64, message: &ServerMessage) {
        if let Some(c) = self.clients.iter().find(|c| c.id == client) {
            let _ = c.out.send(message.to_json());
        }
    }

    fn broadcast(&mut self, text: String) {
        self.clients.retain(|c| c.out.send(text.clone()).is_ok());
    }

    fn broadcast_state(&mut self) {
        let state = self.state_message();
        self.broadcast(state);
    }

    fn state_message(&mut self) -> String {
        let (legal, rule_changes) = if self.result.is_none() { view::legal_moves(&mut self.position) } else { (Vec::new(), Vec::new()) };
        let stm = self.position.side_to_move();
        let clocks = self.clocks.as_ref().map(|c| {
            let running = self.result.is_none().then_some(stm);
            let left = [0, 1].map(|i| if running == Some([Color::White, Color::Black][i]) { c.left[i].saturating_sub(c.since.elapsed()) } else { c.left[i] });
            super::messages::ClocksView { white_ms: left[0].as_millis() as u64, black_ms: left[1].as_millis() as u64, running: running.map(view::color_name) }
        });
        ServerMessage::State(Box::new(super::messages::StateView {
            game: self.id,
            variant: self.position.variant().name.clone(),
            players: super::messages::PlayersView { white: self.spec.players[0], black: self.spec.players[1] },
            fen: self.position.fen(),
            board: view::board(&self.position),
            side_to_move: view::color_name(stm),
            legal,
            rule_changes,
            piece_rules: view::piece_rules(&self.position),
            last_move: view::last_move_cells(&self.position),
            check: view::checked_king(&self.position),
            moves: self.plies.iter().map(|p| p.san.clone()).collect(),
            result: self.result.as_ref().map(|(r, why)| super::messages::ResultView { result: r.clone(), reason: why.clone() }),
            clocks,
            thinking: self.thinking.is_some(),
            analysing: self.analysing.is_some(),
            pgn: self.pgn(),
        }))
        .to_json()
    }

    fn pgn(&self) -> String {
        let result = self.result.as_ref().map_or("*", |(r, _)| r.as_str());
        let name = |p: Player| if p == Player::Engine { "Protean" } else { "Player" };
        let variant = &self.position.variant().name;
        let mut out = format!("[Event \"protean serve\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"-\"]\n[White \"{}\"]\n[Black \"{}\"]\n[Result \"{result}\"]\n", name(self.spec.players[0]), name(self.spec.players[1]));
        if variant != "standard" {
            out += &format!("[Variant \"{variant}\"]\n");
        }
        if variant != "standard" || self.start_fen != self.position.variant().start_fen {
            out += &format!("[FEN \"{}\"]\n[SetUp \"1\"]\n", self.start_fen);
        }
        let sans: Vec<String> = self.plies.iter().map(|p| p.san.clone()).collect();
        out += &format!("\n{}", crate::pgn::movetext(&self.start_fen, &sans));
        if let Some((_, reason)) = &self.result {
            out += &format!("{{{reason}}} ");
        }
        out + result + "\n"
    }
}

fn lost_by(c: Color) -> &'static str {
    match c {
        Color::White => "0-1",
        Color::Black => "1-0",
    }
}

/// An engine line as the page shows it: the score from White's side, the
/// line in SAN.
fn info_message(game: u64, position: &AnyPosition, report: &Report) -> String {
    let white = position.side_to_move() == Color::White;
    let score = match report.score {
        Score::Centipawns(cp) => {
            let cp = if white { cp } else { -cp };
            format!("{:+.2}", f64::from(cp) / 100.0)
        }
        Score::Mate(m) => format!("#{}", if white { m } else { -m }),
    };
    let mut p = position.clone();
    let pv = report
        .pv
        .iter()
        .map(|&m| {
            let san = protean_rules::with_position!(&mut p, q => q.san(m));
            p.make(m);
            san
        })
        .collect();
    ServerMessage::Info { game, depth: report.depth, score, nodes: report.nodes, nps: report.nps, pv }.to_json()
}
