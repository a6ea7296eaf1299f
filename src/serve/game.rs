//! One game, refereed on a thread of its own: it owns the boards (one, or
//! Perplexichess's 3, 5 or 7), their records and clocks, an engine per
//! board and the engine strategists, and hears everything that may change
//! them as [`Command`]s on one channel (the players' sockets, the engines'
//! searches, a clock running out). Nothing else touches a game, so no two
//! requests interleave halfway, and a socket that closes mid-search only
//! leaves the game's list of listeners.

use super::messages::{self, GameSpec, Player, ServerMessage, Strength};
use super::view;
use protean_arena::team_game::{self, board_referee};
use protean_arena::{side_name, Adjudication, BoardView, Clock, Forfeit, Lookahead, PgnHeader, Referee, Strategist};
use protean_arena::{TimeControl, Words};
use protean_rules::team::{Transfer, BOARD_COUNTS};
use protean_rules::{AnyPosition, AnyRules, Color, Move};
use protean_search::{AfterMove, Engine, Limits, Listener, Report, Score};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};
use tokio::sync::mpsc::Sender as PageSender;

/// A browser's socket, as a game knows it: a bounded queue, so that a
/// page that stops reading is dropped from the game instead of making
/// the queue grow without end.
pub struct Client {
    pub id: u64,
    pub out: PageSender<String>,
}

pub enum Command {
    Join(Client),
    Leave(u64),
    Move {
        client: u64,
        board: usize,
        text: String,
    },
    Undo {
        client: u64,
        board: usize,
    },
    Analyse {
        client: u64,
        board: usize,
        on: bool,
    },
    /// A grand strategist's transfer (Perplexichess).
    Transfer {
        client: u64,
        from: usize,
        cell: String,
        to: usize,
    },
    /// A search ended (`generation` tells which).
    Searched {
        generation: u64,
        board: usize,
        best: Option<Move>,
    },
    Info {
        generation: u64,
        line: String,
    },
    /// The state message, for a reader that does not listen.
    Snapshot(tokio::sync::oneshot::Sender<String>),
}

/// One board: its players, position, record and clocks, and the engine
/// that plays its engine sides.
struct Table {
    players: [Player; 2],
    /// The board's game: position, record, clocks and result.
    game: Referee,
    /// Whether the game has clocks, and since when the side to move's runs.
    timed: bool,
    since: Instant,
    engine: Engine,
    /// The generation of the search playing this board's engine move.
    thinking: Option<u64>,
}

/// Perplexichess: what makes several boards one game.
struct Team {
    /// Each team's grand strategist: a person (`None`), or Protean's with
    /// the moves counted since its last look and its last transfer.
    strategists: [Option<EngineStrategist>; 2],
}

struct EngineStrategist {
    strategist: Strategist,
    /// Moves on any board before its next look.
    moves_to_wait: usize,
    /// Its last transfer, which it never undoes.
    last: Option<Transfer>,
}

pub struct Game {
    id: u64,
    variant: String,
    strength: Strength,
    tables: Vec<Table>,
    team: Option<Team>,
    clients: Vec<Client>,
    /// Counts searches, so that a search ended by an undo, a move or a
    /// transfer is not taken for the current one.
    generation: u64,
    /// The board and generation of an analysis search (infinite, on a
    /// person's turn).
    analysing: Option<(usize, u64)>,
    commands: Sender<Command>,
}

/// Each engine's table: small, since games run side by side.
const GAME_HASH_MIB: usize = 16;
const TEAM_BOARD_HASH_MIB: usize = 4;
/// Perplexichess: plies after which a board still going is drawn (as
/// `protean perplexichess`).
const TEAM_MAX_PLIES: usize = 400;
/// Moves on any board, per board, between two looks of an engine
/// strategist (about one round of `protean perplexichess`), and after
/// its transfer (four rounds).
const STRATEGIST_EVERY: usize = 1;
const STRATEGIST_PAUSE: usize = 4;

impl Table {
    fn new(players: [Player; 2], game: Referee, hash_mib: usize) -> Result<Table, String> {
        let mut engine = Engine::new(game.position().clone());
        engine.resize_hash(hash_mib)?;
        let timed = Color::ALL.iter().any(|&c| game.clock().is_running_for(c));
        Ok(Table { players, game, timed, since: Instant::now(), engine, thinking: None })
    }

    /// Ends the engine's search; a move it still reports is stale.
    fn stop_search(&mut self) {
        self.thinking = None;
        self.engine.halt();
    }

    fn position(&self) -> &AnyPosition {
        self.game.position()
    }

    fn over(&self) -> bool {
        self.game.ending().is_some()
    }

    fn to_move(&self) -> Player {
        self.players[self.game.side_to_move() as usize]
    }

    /// Plays a legal move, charged to the mover's clock (a move after its
    /// flag fell still stands, the game lost on time).
    fn play(&mut self, m: Move) {
        self.game.play(m, self.since.elapsed());
        self.since = Instant::now();
    }

    /// A side's time left now, the side to move's running down.
    fn left(&self, side: Color) -> Option<Duration> {
        let left = self.game.clock().left(side)?;
        let running = !self.over() && self.game.side_to_move() == side;
        Some(if running { left.saturating_sub(self.since.elapsed()) } else { left })
    }

    /// When the running clock shows zero, if one runs.
    fn flag_fall(&self) -> Option<Instant> {
        if self.over() {
            return None;
        }
        Some(self.since + self.game.clock().left(self.game.side_to_move())?)
    }

    fn limits(&self, strength: Strength) -> Limits {
        let mut limits = Limits::default();
        match strength {
            Strength::Depth(d) => limits.depth = Some(d.clamp(1, 64)),
            Strength::Nodes(n) => limits.nodes = Some(n.max(1)),
            Strength::Movetime(ms) => limits.movetime = Some(Duration::from_millis(ms.max(1))),
        }
        if self.timed {
            limits.time = Color::ALL.map(|c| self.left(c));
            limits.increment = Color::ALL.map(|c| self.game.clock().increment(c).unwrap_or_default());
            if matches!(strength, Strength::Movetime(_)) {
                limits.movetime = None;
            }
        }
        limits
    }

    fn view(&mut self, index: usize, analysing: bool) -> messages::BoardStateView {
        let over = self.over();
        let mut position = self.game.position().clone();
        let (legal, rule_changes) = if !over { view::legal_moves(&mut position) } else { (Vec::new(), Vec::new()) };
        let stm = position.side_to_move();
        let running = (!over).then_some(stm);
        let clocks = self.timed.then(|| {
            let left = Color::ALL.map(|side| self.left(side).unwrap_or_default());
            messages::ClocksView {
                white_ms: left[0].as_millis() as u64,
                black_ms: left[1].as_millis() as u64,
                running: running.map(side_name),
            }
        });
        messages::BoardStateView {
            board_number: index,
            players: messages::PlayersView { white: self.players[0], black: self.players[1] },
            fen: position.fen(),
            board: view::board(&position),
            side_to_move: side_name(stm),
            legal: view::by_origin(legal),
            rule_changes,
            piece_rules: view::piece_rules(&position),
            rule_changes_closed: if over { None } else { view::rule_changes_closed(&position) },
            last_move: view::last_move_cells(&position),
            check: view::checked_king(&position),
            moves: self.game.record().to_vec(),
            result: self
                .game
                .ending()
                .map(|e| messages::ResultView { result: e.result().into(), reason: e.board_reason() }),
            clocks,
            thinking: self.thinking.is_some(),
            analysing,
            pgn: self.pgn(index),
        }
    }

    fn pgn(&self, index: usize) -> String {
        let name = |p: Player| if p == Player::Engine { "Protean" } else { "Player" };
        self.game.pgn(PgnHeader {
            event: "protean serve",
            round: index + 1,
            players: self.players.map(name),
            more_tags: Vec::new(),
            computed_tags: Vec::new(),
            words: Words::Board,
            reason_comment: true,
        })
    }
}

/// The clocks of a board: both sides the page's time control, if any.
fn clock(control: Option<&messages::Clock>) -> Clock {
    let control = control.map(|c| TimeControl::from_ms((0, c.base_ms, c.increment_ms)));
    Clock::new([control; 2])
}

fn error(game: u64, message: String) -> ServerMessage {
    ServerMessage::Error { game: Some(game), message }
}

impl Game {
    /// A game as `spec` says, or why not.
    pub fn new(id: u64, spec: GameSpec, commands: Sender<Command>) -> Result<Game, String> {
        let mut variant = spec.variant.to_ascii_lowercase();
        let fen = spec.fen.as_deref().map(str::trim).filter(|f| !f.is_empty());
        let (tables, team) = if variant == "perplexichess" {
            let boards = spec.boards.unwrap_or(3);
            if !BOARD_COUNTS.contains(&boards) {
                return Err(format!("Perplexichess is played on 3, 5 or 7 boards, not {boards}"));
            }
            if fen.is_some() {
                return Err("Perplexichess starts from the start position on every board".into());
            }
            let rules = AnyRules::by_name("flexichess").map_err(|e| e.to_string())?;
            let seat = spec.seat.unwrap_or(messages::Seat::Watch);
            if let messages::Seat::Board { board, .. } = seat {
                if board >= boards {
                    return Err(format!("there is no board {} of {boards}", board + 1));
                }
            }
            let mut tables = Vec::new();
            for board in 0..boards {
                let mut players = [Player::Engine; 2];
                if let messages::Seat::Board { board: b, color } = seat {
                    if b == board {
                        players[Color::from(color) as usize] = Player::Human;
                    }
                }
                let game = board_referee(&rules, clock(spec.clock.as_ref()), TEAM_MAX_PLIES);
                tables.push(Table::new(players, game, TEAM_BOARD_HASH_MIB)?);
            }
            let human = match seat {
                messages::Seat::Strategist { color } => Some(Color::from(color)),
                _ => None,
            };
            let strategists = Color::ALL.map(|c| {
                (human != Some(c)).then(|| EngineStrategist {
                    strategist: Strategist::new(c, Lookahead::Search, tables[0].position()),
                    moves_to_wait: STRATEGIST_EVERY * boards,
                    last: None,
                })
            });
            (tables, Some(Team { strategists }))
        } else {
            if spec.boards.is_some() || spec.seat.is_some() {
                return Err("boards and seats are for Perplexichess".into());
            }
            let rules = AnyRules::by_name(&variant).map_err(|e| e.to_string())?;
            variant = rules.variant().name.clone();
            let position = match fen {
                Some(fen) => rules.from_fen(fen).map_err(|e| format!("bad FEN: {e}"))?,
                None => rules.start(),
            };
            let standard_start = position.fen() == rules.variant().start_fen;
            let game = Referee::new(position, standard_start, clock(spec.clock.as_ref()), Adjudication::default());
            (vec![Table::new(spec.players, game, GAME_HASH_MIB)?], None)
        };
        Ok(Game {
            id,
            variant,
            strength: spec.strength,
            tables,
            team,
            clients: Vec::new(),
            generation: 0,
            analysing: None,
            commands,
        })
    }

    /// The seat a person has as strategist, if any.
    fn human_strategist(&self) -> Option<Color> {
        let team = self.team.as_ref()?;
        Color::ALL.into_iter().find(|&c| team.strategists[c as usize].is_none())
    }

    /// Referees until the last listener leaves.
    pub fn run(mut self, commands: Receiver<Command>) {
        for board in 0..self.tables.len() {
            self.tables[board].game.judge();
            self.start_engine_if_its_turn(board);
        }
        loop {
            let flag = (0..self.tables.len()).filter_map(|b| self.tables[b].flag_fall().map(|at| (at, b))).min();
            let command = match flag {
                Some((at, board)) => match commands.recv_timeout(at.saturating_duration_since(Instant::now())) {
                    Ok(c) => c,
                    Err(RecvTimeoutError::Timeout) => {
                        self.time_out(board);
                        continue;
                    }
                    Err(RecvTimeoutError::Disconnected) => break,
                },
                None => match commands.recv() {
                    Ok(c) => c,
                    Err(_) => break,
                },
            };
            self.obey(command);
            if self.clients.is_empty() {
                break;
            }
        }
        for t in &mut self.tables {
            t.engine.halt();
        }
    }

    fn obey(&mut self, command: Command) {
        match command {
            Command::Join(client) => {
                self.clients.retain(|c| c.id != client.id);
                let state = self.state_message();
                if client.out.try_send(state).is_ok() {
                    self.clients.push(client);
                }
            }
            Command::Leave(id) => self.clients.retain(|c| c.id != id),
            Command::Move { client, board, text } => match self.human_move(board, &text) {
                Ok(()) => self.after_move(board),
                Err(e) => self.tell(client, &error(self.id, e)),
            },
            Command::Undo { client, board } => match self.undo(board) {
                Ok(()) => {
                    self.start_engine_if_its_turn(board);
                    self.broadcast_state();
                }
                Err(e) => self.tell(client, &error(self.id, e)),
            },
            Command::Analyse { client, board, on } => match self.analyse(board, on) {
                Ok(()) => self.broadcast_state(),
                Err(e) => self.tell(client, &error(self.id, e)),
            },
            Command::Transfer { client, from, cell, to } => match self.human_transfer(from, &cell, to) {
                Ok(()) => self.broadcast_state(),
                Err(e) => self.tell(client, &error(self.id, e)),
            },
            Command::Searched { generation, board, best } => {
                let Some(table) = self.tables.get_mut(board) else { return };
                if table.thinking == Some(generation) {
                    table.thinking = None;
                    match best {
                        Some(m) if !table.over() => {
                            table.play(m);
                            self.after_move(board);
                        }
                        _ => self.broadcast_state(),
                    }
                }
            }
            Command::Info { generation, line } => {
                let current = self.tables.iter().any(|t| t.thinking == Some(generation))
                    || self.analysing.is_some_and(|(_, g)| g == generation);
                if current {
                    self.broadcast(line);
                }
            }
            Command::Snapshot(reply) => {
                let _ = reply.send(self.state_message());
            }
        }
    }

    fn table(&mut self, board: usize) -> Result<&mut Table, String> {
        let boards = self.tables.len();
        self.tables.get_mut(board).ok_or_else(|| format!("there is no board {} of {boards}", board + 1))
    }

    fn human_move(&mut self, board: usize, text: &str) -> Result<(), String> {
        let table = self.table(board)?;
        if let Some(end) = table.game.ending() {
            return Err(format!("the game is over ({})", end.result()));
        }
        if table.to_move() != Player::Human {
            return Err("it is the engine's turn".into());
        }
        let m = table.game.position().clone().parse_move(text.trim()).map_err(|e| e.to_string())?;
        self.stop_analysis();
        self.tables[board].play(m);
        Ok(())
    }

    fn after_move(&mut self, board: usize) {
        self.tables[board].game.judge();
        self.board_ended(board);
        self.start_engine_if_its_turn(board);
        self.strategists_look();
        self.broadcast_state();
    }

    /// A finished Perplexichess board loses both kings and stays open to
    /// transfers (as in `protean perplexichess`).
    fn board_ended(&mut self, board: usize) {
        let table = &mut self.tables[board];
        if self.team.is_some() && table.over() && table.position().piece_counts().iter().sum::<u32>() > 0 {
            table.stop_search();
            table.game.remove_kings();
        }
    }

    fn time_out(&mut self, board: usize) {
        let table = &mut self.tables[board];
        let mover = table.game.side_to_move();
        table.game.forfeit(mover, Forfeit::Time);
        table.stop_search();
        if self.analysing.is_some_and(|(b, _)| b == board) {
            self.stop_analysis();
        }
        self.board_ended(board);
        self.broadcast_state();
    }

    /// Takes back to the last position before this one where a person
    /// was to move (against the engine: its reply and the person's move).
    fn undo(&mut self, board: usize) -> Result<(), String> {
        if self.team.is_some() {
            return Err("Perplexichess has no undo: transfers have changed other boards".into());
        }
        let table = self.table(board)?;
        if table.players.iter().all(|&p| p == Player::Engine) {
            return Err("nothing to undo in a game between engines".into());
        }
        let mut back = 0;
        loop {
            let Some(i) = table.game.plies().checked_sub(back + 1) else {
                return Err("no move to undo".into());
            };
            back += 1;
            if table.players[table.game.mover(i) as usize] == Player::Human {
                break;
            }
        }
        self.stop_analysis();
        let table = &mut self.tables[board];
        table.stop_search();
        table.game.take_back(back);
        table.since = Instant::now();
        Ok(())
    }

    fn analyse(&mut self, board: usize, on: bool) -> Result<(), String> {
        if !on {
            self.stop_analysis();
            return Ok(());
        }
        if self.team.is_some() {
            return Err("no analysis during a Perplexichess game: the engines are playing".into());
        }
        let table = self.table(board)?;
        if table.thinking.is_some() {
            return Err("the engine is thinking about its move".into());
        }
        if table.position().clone().legal_move_list().is_empty() {
            return Err("no legal move to analyse".into());
        }
        self.stop_analysis();
        let generation = self.search(board, Limits { infinite: true, ..Limits::default() });
        self.analysing = Some((board, generation));
        Ok(())
    }

    fn stop_analysis(&mut self) {
        if let Some((board, _)) = self.analysing.take() {
            self.tables[board].engine.halt();
        }
    }

    fn start_engine_if_its_turn(&mut self, board: usize) {
        let table = &self.tables[board];
        if table.over() || table.thinking.is_some() || table.to_move() != Player::Engine {
            return;
        }
        let limits = table.limits(self.strength);
        if self.analysing.is_some_and(|(b, _)| b == board) {
            self.stop_analysis();
        }
        let generation = self.search(board, limits);
        self.tables[board].thinking = Some(generation);
    }

    /// Starts a search of a board's position; returns its generation.
    fn search(&mut self, board: usize, limits: Limits) -> u64 {
        self.generation += 1;
        let generation = self.generation;
        let (info_to, best_to) = (self.commands.clone(), self.commands.clone());
        let game = self.id;
        let listener = Listener {
            info: Box::new(move |position, report| {
                let line = info_message(game, board, position, report);
                let _ = info_to.send(Command::Info { generation, line });
            }),
            best_move: Box::new(move |_, outcome| {
                let _ = best_to.send(Command::Searched { generation, board, best: outcome.best });
                AfterMove::Done
            }),
        };
        let table = &mut self.tables[board];
        table.engine.set_position(table.position().clone());
        table.engine.go(limits, listener);
        generation
    }

    fn human_transfer(&mut self, from: usize, cell: &str, to: usize) -> Result<(), String> {
        let Some(color) = self.human_strategist() else {
            return Err("no person is a grand strategist in this game".into());
        };
        let boards = self.tables.len();
        if from >= boards || to >= boards || from == to {
            return Err(format!("boards are numbered 1 to {boards}; a transfer joins two different ones"));
        }
        self.transfer(&Transfer { color, from, cell: cell.to_string(), to })
    }

    /// Carries out a transfer if the rules allow it: records it on both
    /// boards, and restarts their engines on the boards as they now are.
    fn transfer(&mut self, t: &Transfer) -> Result<(), String> {
        if self.tables[t.to].over() {
            return Err(format!("board {} is over", t.to + 1));
        }
        let [a, b] = self
            .tables
            .get_disjoint_mut([t.from, t.to])
            .map_err(|e| format!("boards {} and {}: {e}", t.from + 1, t.to + 1))?;
        team_game::transfer_between(&mut a.game, &mut b.game, t, "")?;
        for board in [t.from, t.to] {
            let table = &mut self.tables[board];
            table.stop_search();
            table.game.judge();
            self.board_ended(board);
            self.start_engine_if_its_turn(board);
        }
        Ok(())
    }

    /// Each engine strategist, about once a round (four rounds after its
    /// transfer), makes the transfer it finds worth making; White's is
    /// made before Black's looks, as in `protean perplexichess`.
    fn strategists_look(&mut self) {
        if self.team.is_none() || self.tables.iter().all(Table::over) {
            return;
        }
        let boards = self.tables.len();
        for color in Color::ALL {
            let Some(s) = self.team.as_mut().and_then(|team| team.strategists[color as usize].as_mut()) else {
                continue;
            };
            s.moves_to_wait = s.moves_to_wait.saturating_sub(1);
            if s.moves_to_wait > 0 {
                continue;
            }
            let views: Vec<BoardView> =
                self.tables.iter().map(|t| BoardView { position: t.position(), finished: t.over() }).collect();
            let choice = s.strategist.choose(&views, s.last.as_ref());
            s.moves_to_wait = STRATEGIST_EVERY * boards;
            let Some(t) = choice else { continue };
            if self.transfer(&t).is_ok() {
                if let Some(s) = self.team.as_mut().and_then(|team| team.strategists[color as usize].as_mut()) {
                    s.moves_to_wait = STRATEGIST_PAUSE * boards;
                    s.last = Some(t);
                }
            }
        }
    }

    fn tell(&self, client: u64, message: &ServerMessage) {
        if let Some(c) = self.clients.iter().find(|c| c.id == client) {
            let _ = c.out.try_send(message.to_json());
        }
    }

    fn broadcast(&mut self, text: String) {
        self.clients.retain(|c| c.out.try_send(text.clone()).is_ok());
    }

    fn broadcast_state(&mut self) {
        let state = self.state_message();
        self.broadcast(state);
    }

    fn state_message(&mut self) -> String {
        let analysing = self.analysing.map(|(b, _)| b);
        let boards =
            self.tables.iter_mut().enumerate().map(|(i, t)| t.view(i, analysing == Some(i))).collect::<Vec<_>>();
        let team = self.team.as_ref().map(|team| messages::TeamView {
            strategists: Color::ALL.map(|c| {
                if team.strategists[c as usize].is_some() {
                    Player::Engine
                } else {
                    Player::Human
                }
            }),
            result: team_result(&self.tables),
        });
        ServerMessage::State(Box::new(messages::StateView {
            game: self.id,
            variant: self.variant.clone(),
            boards,
            team,
        }))
        .to_json()
    }
}

/// Perplexichess: when every board has ended, the team that won more
/// boards wins (as `protean perplexichess` judges).
fn team_result(tables: &[Table]) -> Option<String> {
    let winners: Option<Vec<Option<Color>>> = tables.iter().map(|t| t.game.ending().map(|e| e.winner)).collect();
    let (won, verdict) = team_game::team_verdict(&winners?);
    Some(format!("{verdict} (boards won: White {}, Black {})", won[0], won[1]))
}

/// An engine line as the page shows it: the score from White's side, the
/// line in SAN.
fn info_message(game: u64, board: usize, position: &AnyPosition, report: &Report) -> String {
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
    ServerMessage::Info { game, board, depth: report.depth, score, nodes: report.nodes, nps: report.nps, pv }.to_json()
}
