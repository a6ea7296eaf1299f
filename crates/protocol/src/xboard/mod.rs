//! XBoard (CECP, protocol 2), with engine-defined variants: after
//! `variant perfect` the engine tells XBoard the board (`setup`) and how
//! each piece moves (`piece X& BETZA`), so XBoard draws a 9x9 board and
//! checks moves itself without knowing the variant.
//!
//! The engine's own game moves come back from the search thread through a
//! channel: the search queues its move before it prints `move M`, and every
//! command first applies what is queued, so the position here is the
//! GUI's position whenever a command is read.
//!
//! Pondering (`hard`): after its move the engine goes on thinking in the
//! position after the reply it expects (`AfterMove::Ponder`), until the
//! GUI's move comes. The expected reply makes the ponder search a normal
//! timed one (as UCI's `ponderhit`), which then plays its move; any other
//! move stops it unheard. The engine orders a stop from here against the
//! start of pondering, so a stop never comes before the pondering it ends.
//!
//! This file holds the command loop and the game it keeps; `claims` says
//! how a game the rules ended is claimed, `board_setup` what XBoard is
//! told to draw (an engine-defined variant, a piece's targets).

use crate::output::Output;
use crate::perft::Perft;
use crate::{
    follow_variant_eval_files, read_eval_file, read_weights_file, GivenEvalFiles, BUILT_IN_NETWORKS, BUILT_IN_WEIGHTS,
};
use protean_rules::notation::castling_in_san;
use protean_rules::{variants, with_position, AnyPosition, AnyRules, Color, MoveError};
use protean_search::{AfterMove, Engine, Limits, Listener, Options, Score};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::uci::Flow;

mod board_setup;
mod claims;

pub use board_setup::engine_defined_variant;
use board_setup::target_marks;
use claims::{claim, Claim};

/// What the engine is doing with the clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Plays the side given (`go`, `playother`, after `new` Black).
    Play(Color),
    /// Moves are entered for both sides (`force`, `result`).
    Force,
    Analyze,
}

/// How long a move takes when the GUI has given no clock at all.
const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(5);

pub struct XBoard {
    out: Output,
    rules: AnyRules,
    /// The game from its start: positions for `undo`.
    start: AnyPosition,
    moves: Vec<String>,
    position: AnyPosition,
    mode: Mode,
    post: bool,
    /// `hard`: ponder after a move (read by the search's listener).
    ponder: Arc<AtomicBool>,
    /// Options for the next search (`cores`, `option`): a running search
    /// keeps its own.
    options: Options,
    /// `WeightsFile` and `EvalFile` as set stand; unset, they follow the
    /// variant's file.
    given_eval_files: GivenEvalFiles,
    engine: Engine,
    perft: Perft,
    /// Set before stopping a search whose move must not be played.
    discard: Arc<AtomicBool>,
    /// The reply the engine ponders on, in coordinates, while it does.
    expected: Arc<Mutex<Option<String>>>,
    /// `nps N`: think by nodes, N for each second the clock allows.
    nps: Option<u64>,
    /// Whether the GUI has said anything of the clock (`level`, `time`);
    /// without it the engine thinks `DEFAULT_MOVE_TIME` a move rather
    /// than assume XBoard's 40 moves in 5 minutes that nobody runs.
    clock_known: bool,
    played_tx: Sender<(String, Option<String>)>,
    played_rx: Receiver<(String, Option<String>)>,
    /// Clock settings: moves per session, base, increment, or a fixed time
    /// per move, or a depth.
    moves_per_session: u32,
    increment: Duration,
    per_move: Option<Duration>,
    depth: Option<u32>,
    my_time: Option<Duration>,
    their_time: Option<Duration>,
    hint: Option<String>,
}

impl XBoard {
    pub fn new(out: Output) -> XBoard {
        let rules = AnyRules::by_name("standard").expect("standard chess exists");
        let start = rules.start();
        let (played_tx, played_rx) = channel();
        XBoard {
            out,
            position: start.clone(),
            engine: Engine::new(start.clone()),
            start,
            rules,
            moves: Vec::new(),
            mode: Mode::Play(Color::Black),
            post: false,
            ponder: Arc::new(AtomicBool::new(false)),
            options: Options::default(),
            given_eval_files: GivenEvalFiles::default(),
            perft: Perft::default(),
            discard: Arc::new(AtomicBool::new(false)),
            expected: Arc::new(Mutex::new(None)),
            nps: None,
            clock_known: false,
            played_tx,
            played_rx,
            // XBoard's own default clock, until `level` or `st` says otherwise.
            moves_per_session: 40,
            increment: Duration::ZERO,
            per_move: None,
            depth: None,
            my_time: Some(Duration::from_secs(300)),
            their_time: Some(Duration::from_secs(300)),
            hint: None,
        }
    }

    /// Says that a line could not be read at all; nothing changes.
    pub fn refuse(&self, reason: &str) {
        self.out.line(&format!("Error ({reason}): line ignored"));
    }

    pub fn position(&self) -> &AnyPosition {
        &self.position
    }

    /// Applies the moves the engine has announced since the last command.
    fn apply_played(&mut self) {
        while let Ok((m, reply)) = self.played_rx.try_recv() {
            if self.position.play(&m).is_ok() {
                self.moves.push(m);
                self.hint = reply;
            }
        }
    }

    pub fn handle(&mut self, line: &str) -> Flow {
        self.apply_played();
        let line = line.trim();
        let (command, rest) = line.split_once(' ').map_or((line, ""), |(c, r)| (c, r.trim()));
        match command {
            "" | "xboard" | "accepted" | "rejected" | "computer" | "name" | "rating" | "random" | "ics" | "put"
            | "hover" => {}
            // The opponent offers a draw: taken where the rules already
            // drew the game (a repetition XBoard did not see, `Claim`).
            "draw" => {
                if self.position.clone().outcome().is_some_and(|o| o.result() == "1/2-1/2") {
                    self.out.line("offer draw");
                }
            }
            "protover" => self.features(),
            "new" => {
                self.abort_search();
                self.set_variant("standard");
                self.mode = Mode::Play(Color::Black);
                self.depth = None;
                self.engine.clear();
            }
            "variant" => {
                self.abort_search();
                match AnyRules::by_name(rest) {
                    Ok(_) => self.set_variant(rest),
                    Err(e) => self.out.line(&format!("Error (unknown variant): {rest} ({e})")),
                }
            }
            "force" => {
                self.abort_search();
                self.mode = Mode::Force;
            }
            "result" => {
                self.abort_search();
                self.mode = Mode::Force;
            }
            "go" => {
                self.abort_search();
                self.mode = Mode::Play(self.position.side_to_move());
                self.think();
            }
            "playother" => {
                self.abort_search();
                self.mode = Mode::Play(!self.position.side_to_move());
            }
            "usermove" => self.user_move(rest),
            "?" => self.stop_search(),
            "time" | "otim" => match centiseconds(rest) {
                Ok(t) => {
                    if rest.starts_with('-') {
                        self.out.line(&format!("# {command} {rest}: a clock that has run out counts as 0"));
                    }
                    *if command == "time" { &mut self.my_time } else { &mut self.their_time } = Some(t);
                    self.clock_known = true;
                }
                Err(()) => self.out.line(&format!("Error (bad centiseconds): {command} {rest}")),
            },
            "level" => self.level(rest),
            // Seconds a move, whole or not (python-chess sends `st 0.2`).
            "st" => match rest.parse::<f64>().ok().and_then(clock_seconds).filter(|d| !d.is_zero()) {
                Some(d) => self.per_move = Some(d),
                None => self.out.line(&format!("Error (bad seconds): st {rest}")),
            },
            "sd" => match rest.parse::<u32>() {
                Ok(d) => self.depth = Some(d.max(1)),
                Err(_) => self.out.line(&format!("Error (bad depth): sd {rest}")),
            },
            "nps" => match rest.parse::<u64>() {
                Ok(0) => self.nps = None,
                Ok(n) => self.nps = Some(n),
                Err(_) => self.out.line(&format!("Error (bad number): nps {rest}")),
            },
            "ping" => {
                self.wait_for_game_move();
                self.out.line(&format!("pong {rest}"));
            }
            "setboard" => {
                self.abort_search();
                match self.rules.from_fen(rest) {
                    Ok(p) => {
                        self.start = p.clone();
                        self.position = p;
                        self.moves.clear();
                        self.restart_analysis();
                    }
                    Err(e) => self.out.line(&format!("tellusererror Illegal position: {e}")),
                }
            }
            "undo" => self.take_back(1),
            "remove" => self.take_back(2),
            "hint" => {
                if let Some(h) = &self.hint {
                    self.out.line(&format!("Hint: {h}"));
                }
            }
            "analyze" => {
                self.abort_search();
                self.mode = Mode::Analyze;
                self.post = true;
                self.think();
            }
            "exit" => {
                self.abort_search();
                self.mode = Mode::Force;
            }
            "." => {
                let elapsed = self.engine.elapsed();
                self.out.line(&format!("stat01: {} {} 0 0 0", elapsed.as_millis() / 10, self.engine.nodes()));
            }
            "post" => self.post = true,
            "nopost" => self.post = false,
            "hard" => self.ponder.store(true, Ordering::SeqCst),
            "easy" => {
                self.ponder.store(false, Ordering::SeqCst);
                self.end_pondering();
            }
            "memory" => match rest.parse::<usize>() {
                Ok(mib) if (1..=crate::MAX_HASH_MIB).contains(&mib) => {
                    self.abort_search();
                    if let Err(e) = self.engine.resize_hash(mib) {
                        self.out.line(&format!("Error ({e}; the table stays as it was): memory {rest}"));
                    }
                }
                _ => self.out.line(&format!("Error (size from 1 to {} MB): memory {rest}", crate::MAX_HASH_MIB)),
            },
            "cores" => match rest.parse::<usize>() {
                Ok(n) if n >= 1 => {
                    self.options.threads = n.min(crate::MAX_THREADS);
                    if n > crate::MAX_THREADS {
                        self.out.line(&format!("# cores {n}: using {}, the most Protean runs", crate::MAX_THREADS));
                    }
                    // The threads start now, off the clock, as UCI's
                    // `setoption` starts them; a running search keeps its own.
                    if !self.engine.is_searching() {
                        self.engine.set_options(self.options.clone());
                    }
                }
                _ => self.out.line(&format!("Error (bad number): cores {rest}")),
            },
            "option" => self.option(rest),
            "perft" => self.perft(rest),
            "lift" => self.highlight(rest),
            "quit" => {
                self.abort_search();
                return Flow::Quit;
            }
            // Protocol 1 engines took a bare move; usermove=1 makes XBoard
            // send `usermove`, but accept a bare move too.
            _ if self.looks_like_move(command) => self.user_move(command),
            _ => self.out.line(&format!("Error (unknown command): {command}")),
        }
        Flow::Continue
    }

    fn features(&self) {
        let vars = variants::listed(|n| n.xboard);
        self.out.line(&format!(
            "feature myname=\"Protean {}\" ping=1 setboard=1 usermove=1 san=0 sigint=0 sigterm=0 colors=0 analyze=1 memory=1 smp=1 exclude=0 highlight=1 variants=\"{}\" option=\"Move Overhead -spin 10 0 5000\" option=\"Use NNUE -check {}\" option=\"EvalFile -file {}\" option=\"WeightsFile -file {}\" done=1",
            env!("CARGO_PKG_VERSION"),
            vars.join(","),
            protean_search::USE_NETWORK_BY_DEFAULT as u8,
            BUILT_IN_NETWORKS,
            BUILT_IN_WEIGHTS
        ));
    }

    fn set_variant(&mut self, name: &str) {
        let rules = AnyRules::by_name(name).expect("checked by the caller");
        self.start = rules.start();
        self.position = self.start.clone();
        self.rules = rules;
        self.moves.clear();
        for line in follow_variant_eval_files(&self.rules, self.given_eval_files, &mut self.options) {
            self.out.line(&format!("# {line}"));
        }
        let variant = self.rules.variant();
        if variant.name == "standard" {
            return;
        }
        for line in engine_defined_variant(&self.position) {
            self.out.line(&line);
        }
    }

    fn looks_like_move(&self, text: &str) -> bool {
        self.rules.variant().geometry.parse_cell_pair(text).is_some() || is_castling_text(text)
    }

    fn user_move(&mut self, text: &str) {
        if self.ponder_hit(text) {
            return;
        }
        self.abort_search();
        // `O-O` and `O-O-O` (how XBoard sends castling in fischerandom) are
        // read as SAN and kept as coordinates.
        let played = if is_castling_text(text) {
            self.position.play_san(text)
        } else {
            self.position.play(text).map(|()| text.to_string())
        };
        match played {
            Ok(coordinates) => {
                self.moves.push(coordinates);
                match self.mode {
                    Mode::Play(side) if side == self.position.side_to_move() => self.think(),
                    Mode::Analyze => self.think(),
                    _ => {}
                }
            }
            Err(MoveError::Malformed(m)) => self.out.line(&format!("Illegal move (not a move on this board): {m}")),
            Err(MoveError::Illegal(m)) => {
                let reason = if self.position.in_check() { "in check" } else { "not a legal move here" };
                self.out.line(&format!("Illegal move ({reason}): {m}"));
            }
        }
    }

    fn take_back(&mut self, plies: usize) {
        self.abort_search();
        if self.moves.len() < plies {
            self.out.line(&format!("Error (nothing to undo): {}", if plies == 1 { "undo" } else { "remove" }));
            return;
        }
        self.moves.truncate(self.moves.len() - plies);
        let mut p = self.start.clone();
        for m in &self.moves {
            p.play(m).expect("moves of the game were legal");
        }
        self.position = p;
        self.restart_analysis();
    }

    fn restart_analysis(&mut self) {
        if self.mode == Mode::Analyze {
            self.think();
        }
    }

    fn level(&mut self, args: &str) {
        let parts: Vec<&str> = args.split_whitespace().collect();
        let parsed = (|| {
            let mps: u32 = parts.first()?.parse().ok()?;
            let base = parts.get(1)?;
            let seconds: f64 = match base.split_once(':') {
                Some((m, s)) => m.parse::<f64>().ok()? * 60.0 + s.parse::<f64>().ok()?,
                None => base.parse::<f64>().ok()? * 60.0,
            };
            let inc: f64 = parts.get(2)?.parse().ok()?;
            (parts.len() == 3).then_some((mps, clock_seconds(seconds)?, clock_seconds(inc)?))
        })();
        match parsed {
            Some((mps, base, inc)) => {
                self.moves_per_session = mps;
                self.clock_known = true;
                self.my_time = Some(base);
                self.their_time = self.my_time;
                self.increment = inc;
                self.per_move = None;
            }
            None => self.out.line(&format!("Error (bad time control): level {args}")),
        }
    }

    fn option(&mut self, args: &str) {
        match args.split_once('=') {
            Some(("Move Overhead", v)) => match v.trim().parse::<u64>() {
                Ok(ms) if ms <= 5000 => self.options.move_overhead = Duration::from_millis(ms),
                _ => self.out.line(&format!("Error (bad value): option {args}")),
            },
            Some(("Use NNUE", v)) => match v.trim() {
                "1" => self.options.use_network = true,
                "0" => self.options.use_network = false,
                _ => self.out.line(&format!("Error (bad value): option {args}")),
            },
            Some(("EvalFile", v)) => match read_eval_file(v.trim(), &self.rules) {
                Ok((net, told)) => {
                    self.options.eval_file = net;
                    self.given_eval_files.network = true;
                    self.out.line(&format!("# {told}"));
                }
                Err(e) => self.out.line(&format!("Error ({e}; the network stays as it was): option {args}")),
            },
            Some(("WeightsFile", v)) => match read_weights_file(v.trim(), &self.rules) {
                Ok((file, told)) => {
                    self.options.weights_file = file;
                    self.given_eval_files.weights = true;
                    self.out.line(&format!("# {told}"));
                }
                Err(e) => self.out.line(&format!("Error ({e}; the weights stay as they were): option {args}")),
            },
            _ => self.out.line(&format!("Error (unknown option): {args}")),
        }
    }

    fn perft(&mut self, args: &str) {
        let depth = match crate::perft_depth(Some(args)) {
            Ok(d) => d,
            Err(e) => return self.out.line(&format!("Error ({e}): perft {args}")),
        };
        self.abort_search();
        let total_lines = |total| vec![format!("Nodes searched: {total}")];
        self.perft.start(self.out.clone(), self.position.clone(), depth, total_lines, "# perft stopped");
    }

    /// `lift SQ`: the legal targets of the piece there, as a `highlight`
    /// board: yellow for moves, red for captures, magenta for promotions.
    fn highlight(&mut self, cell: &str) {
        let g = self.rules.variant().geometry;
        let Some(from) = g.parse_cell(cell) else {
            return self.out.line(&format!("Error (not a square): lift {cell}"));
        };
        let marks = with_position!(&mut self.position, p => target_marks(p, from));
        let rows = protean_rules::fen::board_rows(g, |cell| marks[cell]);
        self.out.line(&format!("highlight {rows}"));
    }

    fn limits(&self) -> Limits {
        // Analysis goes on until told otherwise, whatever `sd` said for
        // game moves (python-chess's analyse waits for more).
        if self.mode == Mode::Analyze {
            return Limits { infinite: true, ..Limits::default() };
        }
        let mut limits = Limits { depth: self.depth, ..Limits::default() };
        if let Some(t) = self.per_move.or((!self.clock_known).then_some(DEFAULT_MOVE_TIME)) {
            limits.movetime = Some(t);
            return self.by_nodes(limits);
        }
        let us = self.position.side_to_move();
        limits.time[us as usize] = self.my_time;
        limits.time[!us as usize] = self.their_time;
        limits.increment = [self.increment; 2];
        if self.moves_per_session > 0 {
            let played = (self.position.fullmove() - 1) % self.moves_per_session;
            limits.moves_to_go = Some(self.moves_per_session - played);
        }
        self.by_nodes(limits)
    }

    /// Under `nps`, the time a move may take becomes nodes: what the clock
    /// allows (the budget the time manager would set) times the rate.
    fn by_nodes(&self, limits: Limits) -> Limits {
        let Some(nps) = self.nps else { return limits };
        let budget =
            limits.deadline(self.position.side_to_move(), self.options.move_overhead).soft.unwrap_or(DEFAULT_MOVE_TIME);
        let nodes = ((budget.as_secs_f64() * nps as f64) as u64).max(1);
        Limits { nodes: Some(nodes), depth: limits.depth, ..Limits::default() }
    }

    /// Starts a search: for a game move (then `move M`) or for analysis.
    fn think(&mut self) {
        self.abort_search();
        self.discard.store(false, Ordering::SeqCst);
        if let Some(outcome) = self.position.clone().outcome() {
            if self.mode == Mode::Analyze {
                return;
            }
            // The game is over by the rules: say so, as the protocol lets
            // an engine claim a result, instead of leaving XBoard waiting
            // for a move (it waited for ever on a threefold repetition).
            // A repetition XBoard cannot see is offered as a draw instead,
            // and the game goes on until it is taken.
            let claim = claim(outcome, &self.start, &self.moves);
            self.out.line(claim.line());
            if let Claim::Result(_) = claim {
                return;
            }
        }
        let limits = self.limits();
        let analyzing = self.mode == Mode::Analyze;
        let (out, post) = (self.out.clone(), self.post);
        let info = move |root: &AnyPosition, r: &protean_search::Report| {
            if post {
                let score = match r.score {
                    Score::Centipawns(cp) => cp,
                    Score::Mate(m) if m > 0 => 100_000 + m,
                    Score::Mate(m) => -100_000 + m,
                };
                out.line(&format!(
                    "{} {} {} {} {}",
                    r.depth,
                    score,
                    r.time.as_millis() / 10,
                    r.nodes,
                    root.line_text(&r.pv).join(" ")
                ));
            }
        };
        let out = self.out.clone();
        // The game so far, for a claim after the engine's move (`claim`);
        // a ponder search's root lies two moves further on.
        let (start, mut game) = (self.start.clone(), self.moves.clone());
        let played = self.played_tx.clone();
        let (discard, ponder, expected) = (self.discard.clone(), self.ponder.clone(), self.expected.clone());
        let best_move = move |root: &AnyPosition, outcome: &protean_search::Outcome| {
            lock(&expected).take();
            // Pondering that ended without the expected reply: the GUI's
            // move was another, and this search is void.
            if analyzing || discard.load(Ordering::SeqCst) || outcome.ponder_missed {
                return AfterMove::Done;
            }
            let Some(best) = outcome.best else { return AfterMove::Done };
            let text = root.move_text(best);
            let shown = castling_as_o_o(root, &text).unwrap_or_else(|| text.clone());
            let reply = outcome.ponder.map(|r| root.reply_text(best, r));
            let mut after = root.clone();
            after.make(best);
            game.push(text.clone());
            let end = after.outcome().map(|end| claim(end, &start, &game));
            // A draw offered as a claim goes before the move, as the
            // protocol asks: XBoard then holds the offer when the opponent
            // sees the move, and an opponent's offer (another Protean's)
            // ends the game there. Sent after it, the offer could arrive
            // after the opponent's and be relayed only after its move.
            if let Some(offer @ Claim::OfferDraw) = &end {
                out.line(offer.line());
            }
            // Queue first, then announce: see the module comment.
            let _ = played.send((text, reply.clone()));
            out.line(&format!("move {shown}"));
            if let Some(end) = end {
                if let Claim::Result(_) = end {
                    out.line(end.line());
                }
                return AfterMove::Done;
            }
            let (Some(r), Some(text)) = (outcome.ponder, reply) else { return AfterMove::Done };
            if !ponder.load(Ordering::SeqCst) {
                return AfterMove::Done;
            }
            let mut next = after;
            next.make(r);
            if next.outcome().is_some() {
                return AfterMove::Done;
            }
            game.push(text.clone());
            *lock(&expected) = Some(text);
            AfterMove::Ponder(Box::new(next))
        };
        self.engine.set_position(self.position.clone());
        self.engine.set_options(self.options.clone());
        self.engine.go(limits, Listener { info: Box::new(info), best_move: Box::new(best_move) });
    }

    /// Waits for a game search to announce its move (so `ping` answers
    /// after the move, as the protocol asks), not for the pondering after.
    fn wait_for_game_move(&mut self) {
        if self.mode == Mode::Analyze {
            return;
        }
        while self.engine.is_searching() && !self.engine.pondering() {
            std::thread::sleep(Duration::from_millis(1));
        }
        self.apply_played();
    }

    /// The GUI's move is the reply being pondered on: the ponder search
    /// becomes the search for the engine's next move. False otherwise.
    fn ponder_hit(&mut self, text: &str) -> bool {
        self.apply_played();
        let Some(expected) = lock(&self.expected).clone() else { return false };
        if !self.engine.pondering() {
            return false;
        }
        let coordinates =
            if is_castling_text(text) { self.position.clone().play_san(text).ok() } else { Some(text.to_string()) };
        if coordinates.as_deref() != Some(expected.as_str()) || self.position.play(&expected).is_err() {
            return false;
        }
        self.moves.push(expected);
        // No longer pondering: `ping` now waits for this search's move.
        lock(&self.expected).take();
        self.engine.ponderhit();
        true
    }

    /// `easy`: a search pondering now stops (and, with `ponder` off, no
    /// search ponders after its move).
    fn end_pondering(&mut self) {
        if self.engine.pondering() {
            self.abort_search();
        }
    }

    /// Stops a search and drops its move (`force`, `new`, a user move...).
    fn abort_search(&mut self) {
        self.discard.store(true, Ordering::SeqCst);
        self.stop_search();
    }

    /// Stops a search (or perft); a game search still plays its best move
    /// (`?`), and does not ponder after it.
    fn stop_search(&mut self) {
        self.engine.halt();
        self.perft.stop();
        lock(&self.expected).take();
        self.apply_played();
    }
}

/// A lock that a panicked holder did not spoil (the data is a plain value).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn is_castling_text(text: &str) -> bool {
    matches!(text, "O-O" | "O-O-O" | "0-0" | "0-0-0")
}

/// Where the castling rook's start varies (fischerandom), XBoard writes
/// castling as `O-O` or `O-O-O`, not as the king's from-to: the SAN of
/// `best` when it castles there.
fn castling_as_o_o(pos: &AnyPosition, best: &str) -> Option<String> {
    if !pos.variant().castles_by_rook() {
        return None;
    }
    let san = pos.clone().san(best).ok()?;
    castling_in_san(&san).map(str::to_string)
}

/// A time given in seconds (`level`, `st`): finite, not negative and at
/// most a year, or nothing, so that the caller refuses it and the clock
/// stays as it was.
fn clock_seconds(seconds: f64) -> Option<Duration> {
    Duration::try_from_secs_f64(seconds).ok().filter(|d| d.as_secs() <= 365 * 24 * 3600)
}

/// A clock in centiseconds; a negative one (the flag has fallen) is 0.
fn centiseconds(text: &str) -> Result<Duration, ()> {
    let cs = text.trim().parse::<i64>().map_err(|_| ())?;
    Ok(Duration::from_millis((cs.max(0) as u64).saturating_mul(10)))
}
